//! A dump of a session: the `@ccmsg/protocol` `SessionDumpFile`
//! (`{sid, agent_id?, written_at, types, items, ids}`, kawaz/ccmsg-protocol
//! `src/control/dump.ts` @ `01f60f1e`) and its `DumpIds` ledger.
//!
//! The ledger gathers the ids the dumped items carried, once each, in order of first
//! appearance: `agent` (an agent's id, labelled with its name or description, with its
//! status and duration when its answer said), `task` (background tasks and monitors),
//! `msg` (message ids), `sid` (sessions written to or heard from), `cron` (scheduled
//! prompts) and `tool_use` (calls that never came back). Upstream's `ids.ts` could not be
//! read, so which fields feed which kind is this project's reading of the vocabulary, not
//! a recorded contract; there are no conformance cases for it.

use super::classify::classify;
use super::select::{select, selection, Ask, DumpPreset, Selection};
use super::Item;
use serde_json::{Map, Value};

/// One `DumpIdEntry`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpId {
    pub kind: &'static str,
    pub id: String,
    pub label: Option<String>,
    pub status: Option<String>,
    pub duration_ms: Option<u64>,
}

impl DumpId {
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), Value::from(self.kind));
        o.insert("id".into(), Value::from(self.id.clone()));
        if let Some(l) = &self.label {
            o.insert("label".into(), Value::from(l.clone()));
        }
        if let Some(s) = &self.status {
            o.insert("status".into(), Value::from(s.clone()));
        }
        if let Some(d) = self.duration_ms {
            o.insert("duration_ms".into(), Value::from(d));
        }
        Value::Object(o)
    }
}

#[derive(Default)]
struct Ledger(Vec<DumpId>, std::collections::HashMap<(&'static str, String), usize>);

impl Ledger {
    fn note(
        &mut self,
        kind: &'static str,
        id: Option<&str>,
        label: Option<&str>,
        status: Option<&str>,
        duration: Option<u64>,
    ) {
        let Some(id) = id.filter(|i| !i.is_empty()) else {
            return;
        };
        let at = *self.1.entry((kind, id.to_owned())).or_insert_with(|| {
            self.0.push(DumpId {
                kind,
                id: id.to_owned(),
                label: None,
                status: None,
                duration_ms: None,
            });
            self.0.len() - 1
        });
        let Some(entry) = self.0.get_mut(at) else {
            return;
        };
        if entry.label.is_none() {
            entry.label = label.filter(|l| !l.is_empty()).map(str::to_owned);
        }
        // Status and duration are where the id stood last.
        if let Some(s) = status {
            entry.status = Some(s.to_owned());
        }
        if duration.is_some() {
            entry.duration_ms = duration;
        }
    }
}

fn s<'a>(item: &'a Item, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str).filter(|v| !v.is_empty())
}

fn sid_like(v: &str) -> bool {
    let g: Vec<&str> = v.split('-').collect();
    g.len() == 5
        && g.iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(x, n)| x.len() == n && x.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `DumpIds` ledger of a list of items.
pub fn dump_ids(items: &[Item]) -> Vec<DumpId> {
    let mut ledger = Ledger::default();
    let mut index: std::collections::HashMap<&str, &Item> = std::collections::HashMap::new();
    for item in items {
        if let Some(id) = s(item, "id") {
            index.entry(id).or_insert(item);
        }
    }
    let by_id = |id: Option<&str>| id.and_then(|id| index.get(id).copied());
    for item in items {
        let ty = s(item, "type").unwrap_or("");
        let role = s(item, "role");
        let duration = item.get("duration_ms").and_then(Value::as_u64);
        match ty {
            "message:sub:out" => {
                let label = s(item, "name")
                    .or_else(|| s(item, "description"))
                    .or_else(|| s(item, "subagent_type"));
                ledger.note("agent", s(item, "agent_id"), label, None, None);
            }
            "message:sub:in" => {
                let brief = by_id(s(item, "parent_item"));
                let label = brief.and_then(|b| s(b, "name").or_else(|| s(b, "description")));
                ledger.note("agent", s(item, "agent_id"), label, s(item, "status"), duration);
            }
            "message:session:in" => {
                ledger.note("msg", s(item, "msg_id"), None, None, None);
                ledger.note("sid", s(item, "from").filter(|f| sid_like(f)), None, None, None);
            }
            "message:session:out" => {
                ledger.note("sid", s(item, "to").filter(|t| sid_like(t)), None, None, None);
                ledger.note("msg", s(item, "msg_id"), None, None, None);
            }
            "system:task" => ledger.note("task", s(item, "task_id"), None, s(item, "event"), None),
            _ if ty.starts_with("tool:") => {
                let call = by_id(s(item, "parent_item"));
                match (ty, role) {
                    ("tool:Agent" | "tool:Skill", Some("result")) => {
                        let label = call.and_then(|c| {
                            s(c, "name").or_else(|| s(c, "description")).or_else(|| s(c, "skill"))
                        });
                        ledger.note("agent", s(item, "agent_id"), label, s(item, "status"), None);
                    }
                    ("tool:Monitor", Some("result")) => {
                        ledger.note(
                            "task",
                            s(item, "task_id"),
                            call.and_then(|c| s(c, "description")),
                            None,
                            None,
                        );
                    }
                    ("tool:TaskStop", Some("use")) => {
                        ledger.note("task", s(item, "task_id"), None, Some("stopped"), None)
                    }
                    ("tool:SendMessage", Some("result")) => {
                        ledger.note("msg", s(item, "msg_id"), None, None, None)
                    }
                    ("tool:CronCreate", Some("result")) => {
                        ledger.note(
                            "cron",
                            s(item, "cron_id"),
                            call.and_then(|c| s(c, "cron")),
                            None,
                            None,
                        );
                    }
                    (_, Some("use")) if item.get("result_item").is_none() => {
                        ledger.note(
                            "tool_use",
                            s(item, "tool_use_id"),
                            Some(ty),
                            Some("unanswered"),
                            None,
                        );
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    ledger.0
}

/// What a dump is of and when it was written (the caller's clock: the core reads none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpSubject {
    pub sid: String,
    pub agent_id: Option<String>,
    /// Milliseconds since the epoch.
    pub written_at: u64,
}

/// A `SessionDumpFile` from already-classified items.
pub fn dump_file(subject: &DumpSubject, keep: &Selection, items: &[Item]) -> Value {
    let (kept, _) = select(items, keep);
    let ids: Vec<Value> =
        if keep.ids { dump_ids(&kept).iter().map(DumpId::to_json).collect() } else { Vec::new() };
    let mut o = Map::new();
    o.insert("sid".into(), Value::from(subject.sid.clone()));
    if let Some(a) = &subject.agent_id {
        o.insert("agent_id".into(), Value::from(a.clone()));
    }
    o.insert("written_at".into(), Value::from(subject.written_at));
    o.insert("types".into(), Value::from(keep.elements.clone()));
    o.insert("items".into(), Value::Array(kept.into_iter().map(Value::Object).collect()));
    o.insert("ids".into(), Value::Array(ids));
    Value::Object(o)
}

/// The session id a Claude Code transcript names (`sessionId` of its first record that
/// has one).
pub fn session_id(text: &str) -> Option<String> {
    text.split('\n').find_map(|line| {
        let v: Value = serde_json::from_str(line).ok()?;
        v.get("sessionId").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned)
    })
}

/// Classifies a transcript and dumps what `ask` selects over `presets`.
pub fn dump_session(text: &str, subject: &DumpSubject, ask: &Ask, presets: &[DumpPreset]) -> Value {
    let keep = selection(ask, presets);
    dump_file(subject, &keep, &classify(text))
}
