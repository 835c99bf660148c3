//! Gemini CLI chat-recording files (`~/.gemini/tmp/<project hash>/chats/session-*.json`,
//! written by gemini-cli's `ChatRecordingService`) when one arrives as a single line: the
//! whole document `{sessionId, projectHash, startTime, lastUpdated, messages[]}`, or one
//! of its message objects `{id, timestamp, type: "gemini", …}` (read as an unknown event,
//! such a line would be an "event: object with sessionId, projectHash, …" notice with every
//! text gone).
//!
//! Messages: `user` (content: a string or parts) → `user`; `gemini` → its `thoughts[]`
//! (`subject`, `description`) as one `thinking`, its `content` as `assistant`, each of its
//! `toolCalls[]` {id, name, args, result[] of `functionResponse`s, status, resultDisplay}
//! as a `tool_call` and its `tool_result` (an error when `status` is `error`/`cancelled`);
//! `info` → `system`; `warning` → `system "warning: …"`; `error` → `stderr`. The document
//! ends with one `result` summing every message's `tokens` (`input`, `output` + `thoughts`
//! as output, `cached`), so the host's sum over results is the session's total; Gemini
//! records no cost. `init` names the first model a message names.
//!
//! Evidence: two real files from jnarowski/agentcmd's Gemini fixtures (shared corpus
//! `gemini-session-json/`), and the record types of gemini-cli's chat recording service.

use crate::prelude::*;
use super::super::common::{self, content_text, nonempty_str, num_of, str_of, type_of, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// A whole chat-recording document.
pub(super) fn is_document(v: &Value) -> bool {
    v.get("sessionId").is_some_and(Value::is_string)
        && v.get("messages").and_then(Value::as_array).is_some()
        && (v.get("projectHash").is_some() || v.get("startTime").is_some())
}

/// One message object of such a document (a Gemini reply).
pub(super) fn is_message(v: &Value) -> bool {
    type_of(v) == "gemini"
        && v.get("id").is_some()
        && v.get("timestamp").is_some()
        && (v.get("toolCalls").is_some() || v.get("tokens").is_some() || v.get("thoughts").is_some())
}

pub(super) fn parse(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    if !is_document(v) {
        let mut totals = Tokens::default();
        message(v, ts, &mut totals, out);
        return;
    }
    let messages = v.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let model = messages.iter().find_map(|m| nonempty_str(m, "model")).unwrap_or("gemini");
    out.emit(Entry::init(ts, model, str_of(v, "sessionId").unwrap_or("")));
    let mut totals = Tokens::default();
    for m in messages {
        message(m, ts, &mut totals, out);
    }
    if totals.any {
        out.emit(Entry::Result {
            ts: ts.owned(),
            text: String::new(),
            input_tokens: totals.input,
            output_tokens: totals.output,
            cached_tokens: totals.cached,
            cache_creation_tokens: None,
            cache_creation_1h_tokens: None,
            reasoning_tokens: Some(totals.thoughts).filter(|n| *n > 0.0),
            model: None,
            call_id: None,
            cost_usd: 0.0,
            subtype: "session".owned(),
            is_error: false,
            errors: Vec::new(),
        });
    }
}

#[derive(Default)]
struct Tokens {
    input: f64,
    output: f64,
    cached: f64,
    thoughts: f64,
    any: bool,
}

fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(other) => content_text(other).trim().to_owned(),
        None => String::new(),
    }
}

fn message(m: &Value, ts: &str, totals: &mut Tokens, out: &mut Vec<Entry>) {
    let content = text_of(m.get("content"));
    match type_of(m) {
        "user" => {
            if !content.is_empty() {
                out.emit(Entry::user(ts, content));
            }
        }
        "gemini" => {
            let thoughts: Vec<String> = m
                .get("thoughts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|t| {
                    let subject = str_of(t, "subject").unwrap_or("").trim();
                    let description = str_of(t, "description").unwrap_or("").trim();
                    match (subject.is_empty(), description.is_empty()) {
                        (false, false) => format!("**{subject}**\n{description}"),
                        (false, true) => format!("**{subject}**"),
                        _ => description.to_owned(),
                    }
                })
                .filter(|t| !t.is_empty())
                .collect();
            if !thoughts.is_empty() {
                out.emit(Entry::thinking(ts, common::join(&thoughts, "\n\n")));
            }
            if !content.is_empty() {
                out.emit(Entry::assistant(ts, content));
            }
            for call in m.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
                tool_call(call, ts, out);
            }
            if let Some(t) = m.get("tokens").filter(|t| t.is_object()) {
                totals.any = true;
                totals.input += num_of(t, "input");
                totals.output += num_of(t, "output") + num_of(t, "thoughts");
                totals.cached += num_of(t, "cached");
                totals.thoughts += num_of(t, "thoughts");
            }
        }
        "info" => out.emit(Entry::system(ts, content)),
        "warning" => out.emit(Entry::system(ts, format!("warning: {content}"))),
        "error" => out.emit(Entry::stderr(ts, content)),
        _ => out.emit(common::unknown_event(ts, "gemini", m)),
    }
}

fn tool_call(call: &Value, ts: &str, out: &mut Vec<Entry>) {
    let name = nonempty_str(call, "name").unwrap_or("tool");
    let id = str_of(call, "id").unwrap_or("");
    let args = call.get("args").map(Value::to_json).unwrap_or_else(|| common::empty_object());
    out.emit(Entry::tool_call(ts, name, args, Some(id.owned())));
    let status = str_of(call, "status").unwrap_or("");
    // What the model got back: each functionResponse's `output` (or `error`), else what
    // the CLI displayed.
    let mut parts = Vec::new();
    for r in call.get("result").and_then(Value::as_array).into_iter().flatten() {
        let resp = r.get("functionResponse").and_then(|f| f.get("response"));
        let Some(resp) = resp else { continue };
        for k in ["output", "error"] {
            if let Some(s) = nonempty_str(resp, k) {
                parts.push(s.trim().to_owned());
            }
        }
    }
    if parts.is_empty() {
        if let Some(s) = nonempty_str(call, "resultDisplay") {
            parts.push(s.trim().to_owned());
        }
    }
    let is_error = matches!(status, "error" | "cancelled");
    let content = if parts.is_empty() {
        if status.is_empty() { "(no output)".owned() } else { status.owned() }
    } else {
        common::join(&parts, "\n")
    };
    out.emit(Entry::tool_result(ts, id, Some(name.owned()), content, is_error));
}
