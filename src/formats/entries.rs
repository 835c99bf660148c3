//! Lines that already are transcript entries: adapters whose own code speaks the host's
//! `TranscriptEntry` type print it as JSON, one entry per line, and the host's contract makes
//! that the easiest thing an adapter can print.
//!
//! - whitestag-ai/paperclip-adapter-lmstudio (`src/server/execute.ts` `logEvent`):
//!   `{"kind":"tool_call","name","input","toolUseId"}`, `tool_result`, `system`, without `ts`;
//! - xaedian/paperclip-adapter-openrouter (`src/server/transcript.ts`): every kind it uses,
//!   each with the adapter's own `ts`;
//! - Fedos/nanoclaw-paperclip-adapter's daemon frames (README "Daemon contract"): the same
//!   fields with `type` in place of `kind` (`{"type":"tool_call","name","input","toolUseId"}`),
//!   and `{"type":"log","stream","chunk"}` envelopes whose chunk holds more lines
//!   ([`log_chunk`]; the parser reads each of them as a line);
//! - the Hermes side channel `__PAPERCLIP_TRANSCRIPT__ {json}` (a Hermes plugin writes
//!   `tool_call`/`tool_result` entries, `durationMs` included; the prefix is unwrapped by
//!   `formats::unwrap`);
//! - the OpenRouter tool loop (HLLMR/paperclip-openrouter, npm `paperclip-adapter-qwen-openrouter`)
//!   prints its tool lines as `type` twins too (`super::openrouter` reads its other events).
//!
//! A line is an entry when its `kind` is one of the host's 17 kinds and every field the host
//! requires for that kind is there (a missing `ts` is fine: see below). Then each field is
//! checked against the host's type (`@paperclipai/adapter-utils` 2026.916.1 `dist/types.d.ts`):
//! the entry comes out with the fields it knows, unknown fields dropped; a field of the wrong
//! type makes one `system` notice naming it instead (never a throw, never raw JSON). A line
//! whose `kind` is an entry kind but which lacks a required field is not an entry: it goes on
//! to the runtimes and the unknown-event notice. That keeps other schemas out: the Vercel AI
//! Gateway adapter's `{kind:"result",ts,payload}`, Azure Foundry's
//! `{kind:"tool_call",id,name,arguments}` and OpenHands SDK events (`kind:"MessageEvent"`) are
//! not entries. A `type` twin must also hold no key the kind does not have, since `type` lines
//! are every runtime's: `{"type":"result","subtype":…,"usage":…}` stays Claude's.
//!
//! Besides the host's fields, ours pass through: `parentToolUseId` and a tool result's
//! `durationMs` (docs/entries.md). Nested values of the six kinds the host writes for itself
//! (`provider_activity` … `run_terminal`) are passed as they are once their top-level fields
//! have the right types.
//!
//! **`ts`**: an entry gets the `ts` the caller gave for the line, never the line's own. The
//! host caches a line's entries by `ts + line`, so either would be deterministic; the given
//! one is the host's own clock for every line of the run, so entries passed through sort and
//! pair (a tool's `durationMs`) with the rest of the transcript, while a line's own `ts` may
//! be missing (LM Studio), in another format or from another machine's clock. The host's
//! own pass-through parsers do the same (xaedian's: "trust host timestamps").
//!
//! Text is bounded like every entry: by the line's output budget (`common::budget`), which
//! counts each entry's size and cuts a line's output, with a notice, past it.

use crate::prelude::*;
use super::common::{self, budget, Emit, Owned};
use crate::json::{self, Json, Map, Value};
use crate::entry::{Entry, OtherEntry};

/// A field's type in the host's `TranscriptEntry`.
#[derive(Clone, Copy)]
enum T {
    Str,
    Num,
    Bool,
    /// Any JSON value (`unknown`).
    Any,
    Obj,
    Arr,
    /// An array of strings.
    Strs,
    /// One of these strings.
    One(&'static [&'static str]),
}

/// Required by the host's type.
const REQ: u8 = 1;
/// `null` allowed (`T | null`).
const NULL: u8 = 2;

/// A field: name, type, flags.
type F = (&'static str, T, u8);

const CHANNEL_TEXT: &[&str] = &["progress", "final", "unknown"];
const CHANNEL_THINKING: &[&str] = &["summary", "detail", "unknown"];
const LIFECYCLE: &[&str] = &["started", "completed"];
const CHANGE: &[&str] = &["add", "remove", "context", "hunk", "file_header", "truncation"];
const SOURCE: &[&str] = &["harness_reported", "runner_verified"];
const DISPOSITION: &[&str] = &["done", "blocked", "needs_review", "yielded"];

/// The host's kinds and their fields, in the host's order. The first eleven are the ones
/// agentlines makes itself (`Entry`'s own variants); the other six pass through as
/// [`OtherEntry`].
const KINDS: &[(&str, &[F])] = &[
    ("assistant", &[
        ("text", T::Str, REQ), ("delta", T::Bool, 0), ("channel", T::One(CHANNEL_TEXT), 0),
        ("itemId", T::Str, 0), ("parentToolUseId", T::Str, 0),
    ]),
    ("thinking", &[
        ("text", T::Str, REQ), ("delta", T::Bool, 0), ("lifecycle", T::One(LIFECYCLE), 0),
        ("channel", T::One(CHANNEL_THINKING), 0), ("itemId", T::Str, 0), ("parentToolUseId", T::Str, 0),
    ]),
    ("user", &[("text", T::Str, REQ), ("parentToolUseId", T::Str, 0)]),
    ("tool_call", &[
        ("name", T::Str, REQ), ("input", T::Any, REQ), ("toolUseId", T::Str, 0),
        ("invocationId", T::Str, 0), ("actionRequestId", T::Str, 0), ("parentToolUseId", T::Str, 0),
    ]),
    ("tool_result", &[
        // `isError` is required by the host's type; a line without it reads as `false`
        // (nanoclaw's daemon leaves it out), which is what the host shows for it too.
        ("toolUseId", T::Str, REQ), ("toolName", T::Str, 0), ("content", T::Str, REQ),
        ("isError", T::Bool, 0), ("delta", T::Bool, 0), ("durationMs", T::Num, 0),
        ("parentToolUseId", T::Str, 0),
    ]),
    ("init", &[("model", T::Str, REQ), ("sessionId", T::Str, REQ)]),
    ("result", &[
        // The tokens are what makes a result; the rest defaults as the host's parsers do.
        ("text", T::Str, 0), ("inputTokens", T::Num, REQ), ("outputTokens", T::Num, REQ),
        ("cachedTokens", T::Num, 0), ("cacheCreationTokens", T::Num, 0), ("costUsd", T::Num, 0), ("subtype", T::Str, 0),
        ("isError", T::Bool, 0), ("errors", T::Strs, 0),
    ]),
    ("stderr", &[("text", T::Str, REQ)]),
    ("system", &[("text", T::Str, REQ)]),
    ("stdout", &[("text", T::Str, REQ)]),
    ("diff", &[("changeType", T::One(CHANGE), REQ), ("text", T::Str, REQ)]),
    ("provider_activity", &[
        ("family", T::One(&[
            "plan", "tool_execution", "research", "delegation", "model_identity", "context", "artifact",
            "review", "hook", "memory", "safety", "terminal", "wait", "provider_notice",
        ]), REQ),
        ("eventType", T::Str, REQ),
        ("status", T::One(&["running", "completed", "failed", "interrupted", "informational"]), REQ),
        ("title", T::Str, REQ), ("summary", T::Str, REQ), ("payload", T::Obj, REQ),
    ]),
    ("workspace_change", &[
        ("changeSetId", T::Str, REQ), ("revision", T::Num, REQ), ("source", T::One(SOURCE), REQ),
        ("complete", T::Bool, REQ), ("files", T::Arr, REQ), ("totals", T::Obj, REQ),
        ("patchArtifactRef", T::Str, REQ | NULL),
    ]),
    ("workspace_file_reference", &[
        ("referenceId", T::Str, REQ), ("source", T::One(SOURCE), REQ), ("path", T::Str, REQ),
        ("displayName", T::Str, REQ), ("mediaType", T::Str, REQ | NULL),
        ("presentation", T::One(&["document", "code", "image", "generic"]), REQ),
        ("line", T::Num, REQ | NULL), ("preview", T::Str, REQ | NULL), ("previewTruncated", T::Bool, REQ),
        ("contentDigest", T::Str, REQ | NULL),
    ]),
    ("runtime_request", &[
        ("requestId", T::Str, REQ),
        ("requestKind", T::One(&[
            "runtime", "command_approval", "file_approval", "permission_approval", "user_input", "elicitation",
        ]), REQ | NULL),
        ("turnId", T::Str, REQ | NULL), ("requestType", T::One(&["permission", "input"]), REQ),
        ("status", T::One(&["pending", "resolved", "expired", "cancelled"]), REQ), ("prompt", T::Str, REQ),
        ("choices", T::Arr, REQ), ("fields", T::Arr, REQ), ("questionSet", T::Obj, NULL),
        ("resolvedAction", T::Str, NULL), ("response", T::Obj, NULL),
    ]),
    ("run_result", &[
        ("disposition", T::One(DISPOSITION), REQ), ("summary", T::Str, REQ),
        ("objectiveSatisfied", T::Bool, REQ | NULL), ("verification", T::Arr, REQ),
        ("remainingWork", T::Arr, REQ), ("blocker", T::Obj, REQ | NULL), ("artifacts", T::Arr, REQ),
        ("acceptedResponseWake", T::Obj, 0),
    ]),
    ("run_terminal", &[
        ("turnState", T::One(&["completed", "failed", "interrupted", "cancelled"]), REQ),
        ("runState", T::One(&["succeeded", "failed", "cancelled"]), REQ),
        ("disposition", T::One(DISPOSITION), REQ), ("stopReason", T::Str, 0),
    ]),
];

/// Kinds a `type` twin may have: the eleven agentlines makes (nanoclaw's frames).
const TWIN_KINDS: usize = 11;

/// What [`check`] found.
enum Check {
    /// Every required field, each of its type.
    Valid,
    /// A required field is missing: not an entry of this kind.
    Missing,
    /// This field has another type than the host's.
    Wrong(&'static str, T),
}

fn kind_of(name: &str, kinds: &'static [(&'static str, &'static [F])]) -> Option<(&'static str, &'static [F])> {
    kinds.iter().copied().find(|(k, _)| *k == name)
}

fn type_ok(v: &Value, t: T) -> bool {
    match t {
        T::Str => v.is_string(),
        T::Num => v.as_f64().is_some_and(f64::is_finite),
        T::Bool => v.is_boolean(),
        T::Any => true,
        T::Obj => v.is_object(),
        T::Arr => v.is_array(),
        T::Strs => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        T::One(names) => v.as_str().is_some_and(|s| names.contains(&s)),
    }
}

fn check(fields: &[F], v: &Value) -> Check {
    let mut wrong = None;
    for &(name, t, flags) in fields {
        match v.get(name) {
            None => {
                if flags & REQ != 0 {
                    return Check::Missing;
                }
            }
            Some(Value::Null) if flags & NULL != 0 => {}
            Some(x) if type_ok(x, t) => {}
            Some(_) => {
                wrong = wrong.or(Some((name, t)));
            }
        }
    }
    match wrong {
        Some((name, t)) => Check::Wrong(name, t),
        None => Check::Valid,
    }
}

/// Reads `v` as a transcript entry (a `kind` line, or with `twins` a nanoclaw `type` twin).
/// Returns false when it is not one (nothing added): the line goes on to the runtimes.
pub fn read(v: &Value, ts: &str, twins: bool, out: &mut Vec<Entry>) -> bool {
    if let Some(k) = v.get("kind").and_then(Value::as_str) {
        let Some((kind, fields)) = kind_of(k, KINDS) else { return false };
        match check(fields, v) {
            Check::Missing => return false,
            Check::Wrong(name, t) => out.emit(Entry::system(ts, invalid(kind, name, t))),
            Check::Valid => out.emit(build(kind, fields, v, ts)),
        }
        return true;
    }
    if !twins {
        return false;
    }
    let Some((kind, fields)) = kind_of(common::type_of(v), KINDS.split_at(TWIN_KINDS).0) else { return false };
    let known = |key: &str| key == "type" || key == "ts" || fields.iter().any(|f| f.0 == key);
    if !v.as_object().is_some_and(|m| m.keys().all(known)) || !matches!(check(fields, v), Check::Valid) {
        return false;
    }
    out.emit(build(kind, fields, v, ts));
    true
}

/// An entry from its own JSON object, `ts` included (what `Entry`'s `Deserialize` reads): the
/// same check as a line passed through, but an error instead of a notice.
#[cfg(feature = "std")]
pub fn from_value(v: &Value) -> Result<Entry, String> {
    let k = v.get("kind").and_then(Value::as_str).ok_or("an entry needs a string kind")?;
    let (kind, fields) = kind_of(k, KINDS).ok_or_else(|| format!("unknown entry kind {k:?}"))?;
    let ts = v.get("ts").and_then(Value::as_str).ok_or_else(|| format!("{kind} entry without a string ts"))?;
    match check(fields, v) {
        Check::Missing => {
            let missing = fields.iter().find(|f| f.2 & REQ != 0 && v.get(f.0).is_none()).map_or("", |f| f.0);
            Err(format!("{kind} entry without its {missing}"))
        }
        Check::Wrong(name, t) => Err(invalid(kind, name, t)),
        Check::Valid => Ok(build(kind, fields, v, ts)),
    }
}

/// Reads an entry as the host writes it (`{"kind":…,"ts":…,…}`, camelCase fields), checked
/// as a line that already is an entry is ([`from_value`]): a wrong or missing field is an
/// error naming it, unknown fields are dropped.
#[cfg(feature = "std")]
impl<'de> serde::Deserialize<'de> for Entry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Entry, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        let text = serde_json::to_string(&value).map_err(D::Error::custom)?;
        let v = crate::json::read::parse(&text).ok_or_else(|| D::Error::custom("not a JSON object"))?;
        from_value(&v).map_err(D::Error::custom)
    }
}

/// Whether `kind` is one of the host's entry kinds.
pub fn is_kind(kind: &str) -> bool {
    kind_of(kind, KINDS).is_some()
}

/// The notice for a field of the wrong type.
fn invalid(kind: &str, field: &str, t: T) -> String {
    let want = match t {
        T::Str => "a string".owned(),
        T::Num => "a finite number".owned(),
        T::Bool => "true or false".owned(),
        T::Obj => "an object".owned(),
        T::Arr | T::Any => "an array".owned(),
        T::Strs => "an array of strings".owned(),
        T::One(names) => format!("one of {}", common::join(names.iter(), ", ")),
    };
    format!("invalid {kind} entry, not shown: its {field} must be {want}")
}

/// The entry for a line [`check`] found valid.
fn build(kind: &'static str, fields: &[F], v: &Value, ts: &str) -> Entry {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").owned();
    let opt = |k: &str| v.get(k).and_then(Value::as_str).map(str::owned);
    let n = |k: &str| common::num_of(v, k);
    let b = |k: &str| v.get(k).and_then(Value::as_bool);
    let one = |k: &str, names: &'static [&'static str]| {
        let got = v.get(k).and_then(Value::as_str)?;
        names.iter().copied().find(|n| *n == got)
    };
    let ts = ts.owned();
    match kind {
        "assistant" => Entry::Assistant {
            ts,
            text: s("text"),
            delta: b("delta"),
            channel: one("channel", CHANNEL_TEXT),
            item_id: opt("itemId"),
            parent_tool_use_id: opt("parentToolUseId"),
        },
        "thinking" => Entry::Thinking {
            ts,
            text: s("text"),
            delta: b("delta"),
            lifecycle: one("lifecycle", LIFECYCLE),
            channel: one("channel", CHANNEL_THINKING),
            item_id: opt("itemId"),
            parent_tool_use_id: opt("parentToolUseId"),
        },
        "user" => Entry::User { ts, text: s("text"), parent_tool_use_id: opt("parentToolUseId") },
        "stderr" => Entry::stderr(&ts, s("text")),
        "system" => Entry::system(&ts, s("text")),
        "stdout" => Entry::stdout(&ts, s("text")),
        "tool_call" => {
            let mut e = Entry::tool_call(&ts, s("name"), v.get("input").map_or(Json::Null, Value::to_json), opt("toolUseId"));
            if let Entry::ToolCall { invocation_id, action_request_id, parent_tool_use_id, .. } = &mut e {
                *invocation_id = opt("invocationId");
                *action_request_id = opt("actionRequestId");
                *parent_tool_use_id = opt("parentToolUseId");
            }
            e
        }
        "tool_result" => {
            let mut e = Entry::tool_result(&ts, s("toolUseId"), opt("toolName"), s("content"), b("isError").unwrap_or(false));
            if let Entry::ToolResult { delta, duration_ms, parent_tool_use_id, .. } = &mut e {
                *delta = b("delta");
                *duration_ms = v.get("durationMs").and_then(Value::as_f64).filter(|d| *d >= 0.0).map(|d| json::round(d) as u64);
                *parent_tool_use_id = opt("parentToolUseId");
            }
            e
        }
        "init" => Entry::init(&ts, s("model"), s("sessionId")),
        "result" => Entry::Result {
            ts,
            text: s("text"),
            input_tokens: n("inputTokens"),
            output_tokens: n("outputTokens"),
            cached_tokens: n("cachedTokens"),
            cache_creation_tokens: v.get("cacheCreationTokens").and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0),
            cache_creation_1h_tokens: v.get("cacheCreation1hTokens").and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0),
            reasoning_tokens: v.get("reasoningTokens").and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0),
            model: opt("model"),
            call_id: opt("callId"),
            cost_usd: n("costUsd"),
            subtype: s("subtype"),
            is_error: b("isError").unwrap_or(false),
            errors: match v.get("errors") {
                Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::owned).collect(),
                _ => Vec::new(),
            },
        },
        "diff" => Entry::diff(&ts, one("changeType", CHANGE).unwrap_or("context"), s("text")),
        _ => {
            let mut m = Map::default();
            for &(name, _, _) in fields {
                if let Some(x) = v.get(name) {
                    m.insert(name, x.to_json());
                }
            }
            Entry::Other(OtherEntry { ts, kind, fields: Json::Object(m) })
        }
    }
}

/// nanoclaw's `{"type":"log","stream":"stdout"|"stderr","chunk":"…"}` envelope: the chunk
/// (one or more lines of output) and whether it came from stderr. Only that shape: no other
/// key but `ts`.
pub fn log_chunk<'v>(v: &'v Value) -> Option<(&'v str, bool)> {
    if common::type_of(v) != "log" {
        return None;
    }
    let m = v.as_object()?;
    if !m.keys().all(|k| matches!(k, "type" | "stream" | "chunk" | "ts")) {
        return None;
    }
    let chunk = v.get("chunk")?.as_str()?;
    Some((chunk, common::str_of(v, "stream") == Some("stderr")))
}

/// What an extension hook returned (its JSON, `text`), read strictly: an array of entries,
/// each checked as a `kind` line is; anything else is a notice saying what was wrong. This
/// is the validator behind `agentlines-ui-parser --hook` (docs/extend.md).
pub fn read_hook_output(text: &str, ts: &str, out: &mut Vec<Entry>) {
    let what = match crate::json::read::parse(text.trim()) {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if budget::stopped() {
                    budget::skip(items.len() - i);
                    break;
                }
                if !read(item, ts, false, out) {
                    let name = common::event_name(item);
                    out.emit(Entry::system(ts, format!("the ui-parser hook gave something that is not a transcript entry (item {i}: {name})")));
                }
            }
            return;
        }
        Some(_) => "a value that is not an array",
        None => "no JSON value",
    };
    out.emit(Entry::system(ts, format!("the ui-parser hook gave {what}; it must return an array of entries or undefined")));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Vec<Entry> {
        let v = common::parse_object(line).unwrap();
        let mut out = Vec::new();
        assert!(read(&v, "T", true, &mut out), "{line}");
        out
    }

    fn not_entry(line: &str) {
        let v = common::parse_object(line).unwrap();
        let mut out = Vec::new();
        assert!(!read(&v, "T", true, &mut out) && out.is_empty(), "{line}");
    }

    #[test]
    fn kind_lines_pass_through_with_the_given_ts_and_known_fields() {
        let call = one(r#"{"kind":"tool_call","name":"fs_write_file","input":{"path":"a.txt"},"toolUseId":"call_1","extra":1}"#);
        assert_eq!(call, vec![Entry::tool_call("T", "fs_write_file", serde_json::json!({"path": "a.txt"}), Some("call_1".into()))]);
        let res = one(r#"{"kind":"tool_result","ts":"2026-04-18T12:00:00Z","toolUseId":"c","content":"ok","isError":true,"durationMs":12.4}"#);
        assert!(matches!(&res[0], Entry::ToolResult { ts, is_error: true, duration_ms: Some(12), .. } if ts == "T"));
        let r = one(r#"{"kind":"result","text":"done","inputTokens":3,"outputTokens":4,"errors":["x"]}"#);
        assert!(matches!(&r[0], Entry::Result { input_tokens, errors, cost_usd, .. } if *input_tokens == 3.0 && errors == &["x"] && *cost_usd == 0.0));
        let d = one(r#"{"kind":"diff","changeType":"add","text":"+x"}"#);
        assert_eq!(d, vec![Entry::diff("T", "add", "+x")]);
    }

    #[test]
    fn a_wrong_field_type_is_a_notice() {
        let out = one(r#"{"kind":"assistant","text":5}"#);
        assert!(matches!(&out[0], Entry::System { text, .. } if text.contains("assistant") && text.contains("text must be a string")));
        let out = one(r#"{"kind":"diff","changeType":"moved","text":"x"}"#);
        assert!(matches!(&out[0], Entry::System { text, .. } if text.contains("one of add, remove")));
    }

    #[test]
    fn other_schemas_with_a_kind_field_are_not_entries() {
        // Vercel AI Gateway, Azure Foundry, OpenHands SDK.
        not_entry(r#"{"kind":"result","ts":"2026-01-01T00:00:00.000Z","payload":{"inputTokens":1}}"#);
        not_entry(r#"{"kind":"tool_call","id":"call_1","name":"read_file","arguments":"{}"}"#);
        not_entry(r#"{"kind":"MessageEvent","source":"agent"}"#);
        not_entry(r#"{"kind":"thinking","ts":"x","payload":{"text":"hm"}}"#);
    }

    #[test]
    fn type_twins_need_the_exact_shape() {
        assert_eq!(one(r#"{"type":"assistant","text":"hi","delta":true}"#), vec![Entry::assistant_delta("T", "hi")]);
        assert_eq!(one(r#"{"type":"system","text":"ok"}"#), vec![Entry::system("T", "ok")]);
        not_entry(r#"{"type":"assistant","message":{"content":[]},"session_id":"s"}"#);
        not_entry(r#"{"type":"result","subtype":"success","usage":{},"inputTokens":1,"outputTokens":1}"#);
        not_entry(r#"{"type":"thinking","subtype":"delta","text":"x"}"#);
        not_entry(r#"{"type":"assistant","text":5}"#);
        not_entry(r#"{"type":"provider_activity","family":"plan"}"#);
    }

    #[test]
    fn host_only_kinds_keep_their_fields_in_order() {
        let out = one(r#"{"kind":"run_terminal","stopReason":"end","turnState":"completed","runState":"succeeded","disposition":"done","x":1}"#);
        let mut json = String::new();
        out[0].write_json(&mut json);
        assert_eq!(json, r#"{"kind":"run_terminal","ts":"T","turnState":"completed","runState":"succeeded","disposition":"done","stopReason":"end"}"#);
        not_entry(r#"{"kind":"run_terminal","turnState":"completed"}"#);
    }

    #[test]
    fn log_envelopes_and_hook_output() {
        let v = common::parse_object(r#"{"type":"log","stream":"stderr","chunk":"a\nb\n"}"#).unwrap();
        assert_eq!(log_chunk(&v), Some(("a\nb\n", true)));
        assert!(log_chunk(&common::parse_object(r#"{"type":"log","level":"info","chunk":"x"}"#).unwrap()).is_none());
        let mut out = Vec::new();
        read_hook_output(r#"[{"kind":"assistant","text":"hi"},{"type":"system","text":"no"}]"#, "T", &mut out);
        assert_eq!(out[0], Entry::assistant("T", "hi"));
        assert!(matches!(&out[1], Entry::System { text, .. } if text.contains("item 1: system")));
        let mut out = Vec::new();
        read_hook_output("{}", "T", &mut out);
        assert!(matches!(&out[0], Entry::System { text, .. } if text.contains("not an array")));
    }
}
