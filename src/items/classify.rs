//! Claude Code session `.jsonl` → transcript items, the kawaz/ccmsg classifier
//! (`src/transcript/items/classify.ts` @ `7a5a82b8`, the revision the conformance cases
//! were recorded from; see `tests/fixtures/conformance/ccmsg/NOTES.md`).
//!
//! Items are finer than lines: one assistant record becomes its thinking, its words and
//! each tool call. Nothing is dropped for being unrecognised: a tool with no reader keeps
//! its input, an attachment arrives under its own kind, a record that fits nothing is
//! `system:unknown`. Bookkeeping records (`mode`, `summary`, `file-history-snapshot`, …)
//! are not items. A call and its result are two items linked both ways
//! (`result_item` / `parent_item`), however far apart the file holds them.
//!
//! [`Classification`] reads a growing file chunk by chunk: calls stay known across chunks
//! (at most [`OUTSTANDING_CALLS`], oldest evicted), and a link written into an item handed
//! out by an earlier chunk comes back as an [`ItemUpdate`].

use super::make::{fields, is_ccmsg_send, sid_shaped, ItemUpdate, Maker, Out};
use super::pending::{Calls, Pending};
use super::record::{
    attribute, count, count_of, instant, list, located, opt_num, opt_str, row, segment, span, str_,
    tagged, text, Row,
};
use super::tools::{generic_result, result_fields, use_fields};
use super::Item;
use crate::sessions::js;
use serde_json::{json, Value};

/// Record types that are the harness's bookkeeping, not anything said or done.
const NOT_ITEMS: [&str; 13] = [
    "mode",
    "permission-mode",
    "atis-latch",
    "ai-title",
    "custom-title",
    "last-prompt",
    "queue-operation",
    "cost-state",
    "file-history-snapshot",
    "file-history-delta",
    "bridge-session",
    "progress",
    "summary",
];

/// Calls awaiting an answer one reading holds (oldest evicted first).
pub const OUTSTANDING_CALLS: usize = 4096;

/// One chunk's items and the updates to earlier ones.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chunk {
    pub items: Vec<Item>,
    pub updates: Vec<ItemUpdate>,
}

/// A transcript read as items while it is still being written.
#[derive(Debug, Default, Clone)]
pub struct Classification {
    pub(super) turn: u64,
    pub(super) slash: Option<String>,
    pub(super) calls: Calls,
    /// Items handed out by earlier chunks.
    pub(super) made: u64,
}

impl Classification {
    pub fn new() -> Classification {
        Classification::default()
    }

    /// A whole chunk of text as items, where the chunk begins at byte `start`.
    pub fn read_chunk(&mut self, chunk: &str, start: u64) -> Chunk {
        let mut out = Out { base: self.made, items: Vec::new(), updates: Vec::new() };
        for rec in located(chunk, start) {
            if let Ok(Value::Object(record)) = serde_json::from_str::<Value>(rec.line) {
                self.read(&record, rec.offset, span(rec.line), &mut out);
            }
        }
        self.made += out.items.len() as u64;
        Chunk { items: out.items, updates: out.updates }
    }

    fn read(&mut self, record: &Row, offset: u64, bytes: u64, out: &mut Out) {
        let Some(ty) = str_(record.get("type")) else {
            return;
        };
        if NOT_ITEMS.contains(&ty) {
            return;
        }
        let uuid =
            str_(record.get("uuid")).map(str::to_owned).unwrap_or_else(|| format!("@{offset}"));
        let at = js::number(instant(record.get("timestamp")));
        let mut mk =
            Maker { uuid, source: json!({"offset": offset, "bytes": bytes}), at, index: 0, out };
        match ty {
            "attachment" => self.attachment(record, &mut mk),
            "system" => self.system(record, &mut mk),
            "assistant" => self.assistant(record, &mut mk),
            "user" => self.user(record, &mut mk),
            _ => {
                mk.make(
                    self.turn,
                    "system:unknown",
                    fields(vec![("record", Some(Value::Object(record.clone())))]),
                );
            }
        }
    }

    fn attachment(&mut self, record: &Row, mk: &mut Maker) {
        let empty = Row::new();
        let a = row(record.get("attachment")).unwrap_or(&empty);
        let kind = str_(a.get("type"));
        if matches!(kind, Some("hook_additional_context") | Some("hook_success")) {
            let name = str_(a.get("hookName")).unwrap_or("");
            let event =
                str_(a.get("hookEvent")).unwrap_or_else(|| name.split(':').next().unwrap_or(""));
            let outcome = if kind == Some("hook_success") { "output" } else { "additionalContext" };
            let f = fields(vec![
                ("hook_name", Some(name.into())),
                ("outcome", Some(outcome.into())),
                ("content", text(a.get("content")).map(Value::from)),
                ("command", opt_str(str_(a.get("command")))),
                ("exit_code", opt_num(count(a.get("exitCode")))),
                ("stderr", opt_str(str_(a.get("stderr")))),
                ("duration_ms", opt_num(count(a.get("durationMs")))),
                ("tool_use_id", opt_str(str_(a.get("toolUseID")))),
            ]);
            mk.make(self.turn, &format!("hook:{}", segment(event)), f);
            return;
        }
        let kind = segment(kind.unwrap_or("unknown"));
        mk.make(
            self.turn,
            &format!("system:attachment:{kind}"),
            fields(vec![("attachment", Some(Value::Object(a.clone())))]),
        );
    }

    fn system(&mut self, record: &Row, mk: &mut Maker) {
        if str_(record.get("subtype")) == Some("local_command") {
            let content = str_(record.get("content")).unwrap_or("");
            let stdout = tagged(content, "local-command-stdout").unwrap_or(content);
            let f = fields(vec![
                ("command", Some(self.slash.clone().unwrap_or_default().into())),
                ("stdout", Some(stdout.into())),
            ]);
            mk.make(self.turn, "notice:slash", f);
            return;
        }
        mk.make(
            self.turn,
            "system:unknown",
            fields(vec![("record", Some(Value::Object(record.clone())))]),
        );
    }

    fn assistant(&mut self, record: &Row, mk: &mut Maker) {
        let message = record.get("message").filter(|m| m.is_object());
        if record.get("isApiErrorMessage") == Some(&Value::Bool(true)) {
            let t = text(js::get(message, "content")).unwrap_or_default();
            mk.make(self.turn, "system:api-error", fields(vec![("text", Some(t.into()))]));
            return;
        }
        for block in list(js::get(message, "content")) {
            let Some(b) = block.as_object() else {
                continue;
            };
            match str_(b.get("type")) {
                Some("thinking") => {
                    if let Some(t) = str_(b.get("thinking")).map(js::trim).filter(|t| !t.is_empty())
                    {
                        mk.make(self.turn, "thinking", fields(vec![("text", Some(t.into()))]));
                    }
                }
                Some("text") => {
                    if let Some(t) = str_(b.get("text")).map(js::trim).filter(|t| !t.is_empty()) {
                        mk.make(
                            self.turn,
                            "message:user:out",
                            fields(vec![("text", Some(t.into()))]),
                        );
                    }
                }
                Some("tool_use") => self.call(b, mk),
                _ => {}
            }
        }
    }

    /// One tool call and, where it addresses another mind, the message it also is.
    fn call(&mut self, block: &Row, mk: &mut Maker) {
        let name = str_(block.get("name")).unwrap_or("");
        let id = str_(block.get("id")).unwrap_or("");
        let empty = Row::new();
        let input = row(block.get("input")).unwrap_or(&empty);
        let mut f = fields(vec![("role", Some("use".into())), ("tool_use_id", Some(id.into()))]);
        match use_fields(name, input) {
            Some(typed) => f.extend(typed),
            None => {
                f.insert("input".into(), Value::Object(input.clone()));
            }
        }
        let tool_agent = str_(f.get("agent_id")).map(str::to_owned);
        let tool = mk.make(self.turn, &format!("tool:{}", segment(name)), f);
        let s = |k: &str| opt_str(str_(input.get(k)));
        let mut message = None;
        if name == "Agent" || name == "Task" {
            let prompt = str_(input.get("prompt")).unwrap_or("");
            let f = fields(vec![
                ("role", Some("use".into())),
                ("tool_use_id", Some(id.into())),
                ("prompt", Some(prompt.into())),
                ("subagent_type", s("subagent_type")),
                ("name", s("name")),
                ("description", s("description")),
            ]);
            message = Some(mk.make(self.turn, "message:sub:out", f));
        } else if name == "SendMessage" {
            let to = str_(input.get("to")).unwrap_or("");
            let said = text(input.get("message")).unwrap_or_default();
            if sid_shaped(to) {
                mk.make(
                    self.turn,
                    "message:session:out",
                    fields(vec![("text", Some(said.into())), ("to", Some(to.into()))]),
                );
            } else {
                let f = fields(vec![
                    ("role", Some("use".into())),
                    ("tool_use_id", Some(id.into())),
                    ("prompt", Some(said.into())),
                    ("name", Some(to.into())),
                    ("one_way", Some(Value::Bool(true))),
                ]);
                mk.make(self.turn, "message:sub:out", f);
            }
        } else if name == "Bash" && str_(input.get("command")).is_some_and(is_ccmsg_send) {
            let command = str_(input.get("command")).unwrap_or("");
            mk.make(self.turn, "message:session:out", fields(vec![("text", Some(command.into()))]));
        }
        if id.is_empty() {
            return;
        }
        if self.calls.len() >= OUTSTANDING_CALLS {
            self.calls.evict_oldest();
        }
        let pending =
            Pending { name: name.to_owned(), tool, message, message_agent: None, tool_agent };
        self.calls.set(id.to_owned(), pending);
    }

    fn user(&mut self, record: &Row, mk: &mut Maker) {
        let content = js::get(record.get("message"), "content");
        if let Some(Value::Array(blocks)) = content {
            let mut said = String::new();
            for block in blocks {
                let Some(b) = block.as_object() else {
                    continue;
                };
                if str_(b.get("type")) == Some("tool_result") {
                    self.answer(record, b, mk);
                    continue;
                }
                if let Some(part) = str_(b.get("text")) {
                    if !said.is_empty() {
                        said.push('\n');
                    }
                    said.push_str(part);
                }
            }
            if !said.is_empty() {
                self.said(record, &said, mk);
            }
            return;
        }
        if let Some(s) = str_(content) {
            self.said(record, s, mk);
        }
    }

    /// What came back from a call, linked to the call both ways.
    fn answer(&mut self, record: &Row, block: &Row, mk: &mut Maker) {
        let id = str_(block.get("tool_use_id")).unwrap_or("").to_owned();
        let Some(call) = self.calls.get(&id).cloned() else {
            mk.make(
                self.turn,
                "system:unknown",
                fields(vec![("record", Some(Value::Object(record.clone())))]),
            );
            return;
        };
        let failed = block.get("is_error") == Some(&Value::Bool(true));
        let answer = record.get("toolUseResult");
        let mut f = fields(vec![
            ("role", Some("result".into())),
            ("parent_item", Some(call.tool.1.clone().into())),
            ("parent_tool_use_id", Some(id.clone().into())),
        ]);
        match result_fields(&call.name, answer, failed) {
            Some(typed) => f.extend(typed),
            None => {
                f.insert("result".into(), Value::Object(generic_result(answer)));
            }
        }
        let item = mk.make(self.turn, &format!("tool:{}", segment(&call.name)), f);
        mk.out.set(&call.tool, "result_item", item.1.into());
        let empty = Row::new();
        let result = row(answer).unwrap_or(&empty);
        let agent = str_(result.get("agentId")).or_else(|| str_(result.get("agent_id")));
        let Some(message) = call.message.clone() else {
            self.calls.delete(&id);
            return;
        };
        if let Some(agent) = agent {
            mk.out.set(&message, "agent_id", agent.into());
            if let Some(p) = self.calls.get_mut(&id) {
                p.message_agent = Some(agent.to_owned());
            }
        }
        // A background agent's launch carries no answer yet: its notification will.
        let Some(said) =
            text(result.get("content")).map(|t| js::trim(&t).to_owned()).filter(|t| !t.is_empty())
        else {
            return;
        };
        let f = fields(vec![
            ("role", Some("result".into())),
            ("parent_item", Some(message.1.clone().into())),
            ("parent_tool_use_id", Some(id.clone().into())),
            ("text", Some(said.into())),
            ("agent_id", opt_str(agent)),
            ("status", opt_str(str_(result.get("status")))),
            ("duration_ms", opt_num(count(result.get("totalDurationMs")))),
        ]);
        let reply = mk.make(self.turn, "message:sub:in", f);
        mk.out.set(&message, "result_item", reply.1.into());
        self.calls.delete(&id);
    }

    /// A user record's words: a person, or one of the harness's envelopes.
    fn said(&mut self, record: &Row, said: &str, mk: &mut Maker) {
        let one = |k: &str, t: &str| fields(vec![(k, Some(Value::from(t)))]);
        if record.get("isCompactSummary") == Some(&Value::Bool(true)) {
            mk.make(self.turn, "system:compact", one("text", said));
            return;
        }
        if said.starts_with("<local-command-caveat>") {
            mk.make(self.turn, "system:caveat", one("text", said));
            return;
        }
        if let Some(command) = tagged(said, "command-name") {
            self.slash = Some(command.to_owned());
            let args = tagged(said, "command-args").or_else(|| tagged(said, "command-message"));
            let f = fields(vec![
                ("command", Some(command.into())),
                ("args", opt_str(args)),
                ("stdout", opt_str(tagged(said, "local-command-stdout"))),
            ]);
            mk.make(self.turn, "notice:slash", f);
            return;
        }
        if said.starts_with("[Request interrupted") {
            mk.make(self.turn, "notice:interrupt", one("text", said));
            return;
        }
        if said.starts_with("Resume the paused workflow by calling: Workflow({") {
            mk.make(self.turn, "system:resume", one("text", said));
            return;
        }
        if said.starts_with("<task-notification>") {
            self.notification(said, mk);
            return;
        }
        // The record nothing is a reply to is the brief the transcript opened with.
        if record.get("parentUuid") == Some(&Value::Null) {
            self.turn += 1;
            mk.make(self.turn, "message:user:in", one("text", said));
            return;
        }
        if said.contains("<cross-session-message") || said.contains("<teammate-message") {
            let from = attribute(said, "from").or_else(|| attribute(said, "teammate_id"));
            let f = fields(vec![
                ("text", Some(said.into())),
                ("from", opt_str(from)),
                ("msg_id", opt_str(attribute(said, "mid"))),
            ]);
            mk.make(self.turn, "message:session:in", f);
            return;
        }
        if record.get("isMeta") == Some(&Value::Bool(true)) {
            mk.make(
                self.turn,
                "system:unknown",
                fields(vec![("record", Some(Value::Object(record.clone())))]),
            );
            return;
        }
        self.turn += 1;
        mk.make(self.turn, "message:user:in", one("text", said));
    }

    /// A background task reporting, or an agent handing back its answer.
    fn notification(&mut self, said: &str, mk: &mut Maker) {
        let answer = tagged(said, "result");
        let key = tagged(said, "tool-use-id").unwrap_or("");
        if let (Some(answer), Some(call)) = (answer, self.calls.get(key).cloned()) {
            let (asked, asked_agent) = match &call.message {
                Some(m) => (m.clone(), call.message_agent.clone()),
                None => (call.tool.clone(), call.tool_agent.clone()),
            };
            let agent = asked_agent.or_else(|| tagged(said, "task-id").map(str::to_owned));
            let duration = tagged(said, "duration_ms").map(js::number_from_str).and_then(count_of);
            let f = fields(vec![
                ("role", Some("result".into())),
                ("parent_item", Some(asked.1.clone().into())),
                ("parent_tool_use_id", Some(key.into())),
                ("text", Some(answer.into())),
                ("agent_id", agent.map(Value::from)),
                ("status", opt_str(tagged(said, "status"))),
                ("duration_ms", opt_num(duration)),
            ]);
            let item = mk.make(self.turn, "message:sub:in", f);
            if let Some(m) = &call.message {
                mk.out.set(m, "result_item", item.1.into());
            }
            self.calls.delete(key);
            return;
        }
        let f = fields(vec![
            ("text", Some(said.into())),
            ("task_id", opt_str(tagged(said, "task-id"))),
            ("event", opt_str(tagged(said, "event").or_else(|| tagged(said, "summary")))),
        ]);
        mk.make(self.turn, "system:task", f);
    }

    /// Ordinals of the items a later chunk may still write a link into.
    pub fn watched(&self) -> Vec<u64> {
        let mut w = Vec::new();
        for (_, p) in self.calls.iter() {
            w.push(p.tool.0);
            if let Some(m) = &p.message {
                w.push(m.0);
            }
        }
        w
    }
}

/// A whole transcript's items, links filled in (`classify(located(text))`).
pub fn classify(text: &str) -> Vec<Item> {
    Classification::new().read_chunk(text, 0).items
}
