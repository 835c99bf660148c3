//! Paperclip's `acpx.*` run-log lines, as `@paperclipai/adapter-utils` 2026.916.1 writes
//! them (`dist/acpx-engine/execute.js`: `emitRuntimeEvent`, the session and turn-result
//! writers, `emitAcpxFailure`) from the events of the bundled `acpx` 0.12.0 runtime
//! (`dist/runtime.js`, which turns ACP `session/update`s into those events):
//!
//! - `acpx.session {agent, sessionId, acpSessionId, agentSessionId, runtimeSessionName,
//!   mode, permissionMode, model, thinkingEffort, fastMode}` → `init`: model
//!   `agent: model (mode / permissionMode / effort …)`, session id `acpSessionId`, else
//!   `sessionId`, else `runtimeSessionName` (the host's order).
//! - `acpx.text_delta {text, channel: "output"|"thought", tag}` → `assistant` / `thinking`
//!   with `delta: true` (the engine never repeats the full text afterwards).
//! - `acpx.tool_call {name, toolCallId, status, text, tag, input?}`, one line per ACP
//!   `tool_call` / `tool_call_update`; `text` is acpx's `"<title> (<status>)[: <detail>]"`
//!   (detail: input summary on the announcement, output summary on updates) and `name` the
//!   first real title (the engine restores it over acpx's `"tool call"` placeholder).
//!   The announcement (`tag` `tool_call`) → the `tool_call` card (input: `input`, else the
//!   detail as `{text}`); a terminal status → `tool_result` (content: the detail, `isError`
//!   unless `completed`); an update in between → a notice only for a new title, new input
//!   or free text (see [`super::ToolLine`]).
//! - `acpx.tool_result {toolCallId|toolUseId|id, name, content|output|error, isError}`
//!   (read by the host's parser; this engine version does not write it) → `tool_result`.
//! - `acpx.status {text, tag, used, size, cost?, breakdown?}` → a `system` notice: the text
//!   plus context use, cost and the token breakdown.
//! - `acpx.result {summary, stopReason, message?, …}` → `result` (tokens/cost when present).
//! - `acpx.error {message, code, retryable}` (runtime) or `{summary, stopReason, message}`
//!   (failed turn) or `{message, phase, errorName, acpCode, causeMessage, childStderrTail,
//!   …}` (startup failure) → `stderr`, plus the agent's stderr tail as its own entry.
//! - any other `acpx.*` → a `system` notice with its `message`, else its name and fields.

use crate::prelude::*;
use super::{retitle_note, usage_text, Shown, State, ToolLine};
use crate::entry::Entry;
use crate::formats::common::{self, bool_of, cut, nonempty_str, num_of, str_of, type_of, Emit, Owned};
use crate::json::{Json, Value};

/// acpx's title for a tool update that carries none.
const PLACEHOLDER_TITLE: &str = "tool call";

pub fn parse(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    match type_of(v) {
        "acpx.session" => session(v, ts, out),
        "acpx.text_delta" => {
            let Some(text) = nonempty_str(v, "text") else { return };
            let channel = nonempty_str(v, "channel").or_else(|| str_of(v, "stream")).unwrap_or("");
            out.emit(if matches!(channel, "thought" | "thinking") {
                Entry::thinking_delta(ts, text)
            } else {
                Entry::assistant_delta(ts, text)
            });
        }
        "acpx.tool_call" => tool_call(v, ts, state, out),
        "acpx.tool_result" => tool_result(v, ts, state, out),
        "acpx.status" => out.emit(Entry::system(ts, status_text(v))),
        "acpx.result" => out.emit(result(v, ts)),
        "acpx.error" => error(v, ts, out),
        ty => match nonempty_str(v, "message") {
            Some(m) => out.emit(Entry::system(ts, format!("{ty}: {m}"))),
            None => super::unknown(ts, "acp", v, out),
        },
    }
}

fn session(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let agent = str_of(v, "agent").unwrap_or("acpx");
    let mut tail: Vec<String> = ["mode", "permissionMode"]
        .iter()
        .filter_map(|k| nonempty_str(v, k).map(str::owned))
        .collect();
    if let Some(e) = nonempty_str(v, "thinkingEffort") {
        tail.push(format!("effort {e}"));
    }
    if bool_of(v, "fastMode") {
        tail.push("fast".owned());
    }
    let mut model = match nonempty_str(v, "model") {
        Some(m) => format!("{agent}: {m}"),
        None => agent.owned(),
    };
    if !tail.is_empty() {
        model.push_str(&format!(" ({})", common::join(&tail, " / ")));
    }
    let id = ["acpSessionId", "sessionId", "runtimeSessionName"]
        .iter()
        .find_map(|k| nonempty_str(v, k))
        .unwrap_or("");
    out.emit(Entry::init(ts, model, id));
}

/// `"<title> (<status>)[: <detail>]"` as `(Some(title), detail)`; any other text as
/// `(None, text)`.
fn split_text<'a>(text: &'a str, status: &str) -> (Option<&'a str>, &'a str) {
    if !status.is_empty() {
        let marker = format!(" ({status})");
        if let Some(i) = common::find(text, &marker) {
            let rest = cut(text, i + marker.len()..);
            let detail = if rest.is_empty() { Some("") } else { rest.strip_prefix(": ") };
            if let Some(d) = detail {
                return (Some(cut(text, ..i)), d);
            }
        }
    }
    (None, text)
}

fn tool_id<'a>(v: &'a Value) -> Option<&'a str> {
    ["toolCallId", "toolUseId", "id"].iter().find_map(|k| nonempty_str(v, k))
}

fn tool_call(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let name = str_of(v, "name").unwrap_or("acp_tool");
    let status = str_of(v, "status").unwrap_or("");
    let text = str_of(v, "text").unwrap_or("");
    let (title, detail) = split_text(text, status);
    let id = tool_id(v);
    let terminal = matches!(status, "completed" | "failed" | "cancelled");
    let input = v.get("input");
    let note = if input.is_some() {
        Some(format!("{name} input: {}", common::clip(&input.map_or_else(|| "null".to_owned(), common::compact_json), 300)))
    } else {
        match title {
            // The engine names an update after the title it carries (a retitle, or the
            // first title repeated), and after the call's first title when it carries none.
            Some(t) if t == name && t != PLACEHOLDER_TITLE && !t.is_empty() => Some(retitle_note(t)),
            Some(t) if t != PLACEHOLDER_TITLE && !t.is_empty() => Some(format!("{name}: {t}")),
            Some(_) => None,
            None if !detail.trim().is_empty() => Some(format!("{name}: {detail}")),
            None => None,
        }
    };
    let announces = str_of(v, "tag") != Some("tool_call_update");
    let line = ToolLine { id, name: Some(name), announces, terminal, note };
    let Shown { card, result, note, name: shown_name } = line.decide(state);
    let name = shown_name.as_deref().unwrap_or(name);
    if card {
        // The announcement's detail is acpx's input summary; an update's is its output.
        let shown = if announces { detail } else { "" };
        let input = match input {
            Some(Value::Object(m)) => {
                let mut j = Value::Object(m.clone()).to_json();
                if let (Json::Object(o), false) = (&mut j, shown.is_empty() || m.contains_key("text")) {
                    o.insert("text".owned(), Json::from(shown.owned()));
                }
                j
            }
            Some(other) => other.to_json(),
            None if shown.is_empty() => Json::Object(Default::default()),
            None => common::object([("text", Some(Json::from(shown.owned())))]),
        };
        out.emit(Entry::tool_call(ts, name, input, id.map(str::owned)));
    }
    if note {
        out.emit(Entry::system(ts, line.note.unwrap_or_default()));
    }
    if result {
        let content = if detail.trim().is_empty() { status } else { detail };
        let id = id.unwrap_or(name);
        out.emit(Entry::tool_result(ts, id, Some(name.owned()), content, status != "completed"));
    }
}

fn tool_result(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let name = nonempty_str(v, "name");
    let id = tool_id(v).or(name).unwrap_or("acp_tool");
    if let Some(s) = state {
        s.calls.set(id, Json::Array(vec![Json::Bool(true), Json::from(String::new())]), super::MAX_IDS);
    }
    let body = ["content", "output", "error"].iter().find_map(|k| v.get(k).filter(|b| !b.is_null()));
    // An error object reads as its message.
    let content = match body {
        Some(b @ Value::Object(_)) => nonempty_str(b, "message").map(str::owned).unwrap_or_else(|| common::content_text(b)),
        Some(b) => common::content_text(b),
        None => String::new(),
    };
    let is_error = bool_of(v, "isError") || v.get("error").is_some();
    out.emit(Entry::tool_result(ts, id, name.map(str::owned), content, is_error));
}

fn status_text(v: &Value) -> String {
    let text = str_of(v, "text").unwrap_or("").trim();
    let tag = str_of(v, "tag").unwrap_or("").trim();
    let num = |k: &str| v.get(k).and_then(Value::as_f64).filter(|n| n.is_finite() && *n >= 0.0);
    let usage = usage_text(num("used"), num("size"), v.get("cost"), v.get("breakdown"));
    let base = if !text.is_empty() {
        text
    } else if !tag.is_empty() {
        tag
    } else {
        "status"
    };
    match (usage.is_empty(), tag) {
        (true, _) => base.owned(),
        (false, "usage_update") => format!("usage updated: {usage}"),
        (false, _) => format!("{base} — {usage}"),
    }
}

fn result(v: &Value, ts: &str) -> Entry {
    let stop = nonempty_str(v, "stopReason");
    let text = str_of(v, "summary").or(stop).or_else(|| str_of(v, "text")).unwrap_or("");
    let mut errors: Vec<String> = v
        .get("errors")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(common::content_text).filter(|e| !e.is_empty()).collect())
        .unwrap_or_default();
    // A turn the user cancelled or the model refused did not complete: an error with why.
    let stopped = stop.is_some_and(super::stop_failed);
    if let Some(why) = stop.and_then(super::stop_errors).filter(|_| errors.is_empty()) {
        errors.push(why);
    }
    Entry::Result {
        ts: ts.owned(),
        text: text.owned(),
        input_tokens: num_of(v, "inputTokens"),
        output_tokens: num_of(v, "outputTokens"),
        cached_tokens: num_of(v, "cachedTokens"),
        cache_creation_tokens: None,
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: num_of(v, "costUsd"),
        subtype: str_of(v, "subtype").or(stop).unwrap_or("acpx.result").owned(),
        is_error: bool_of(v, "isError") || stopped,
        errors,
    }
}

fn error(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let mut text = match (nonempty_str(v, "message"), nonempty_str(v, "summary"), nonempty_str(v, "stopReason")) {
        (Some(m), _, _) => m.owned(),
        (None, Some(s), Some(r)) if s != r => format!("turn {s}: {r}"),
        (None, Some(s), _) => format!("turn {s}"),
        (None, None, Some(r)) => format!("turn stopped: {r}"),
        (None, None, None) => "acpx error".owned(),
    };
    let mut details: Vec<String> = Vec::new();
    for (k, label) in [("phase", "phase"), ("code", "code"), ("acpCode", "ACP code"), ("detailCode", "detail"), ("errorName", "")] {
        if let Some(s) = nonempty_str(v, k) {
            details.push(if label.is_empty() { s.owned() } else { format!("{label} {s}") });
        }
    }
    if let Some(c) = nonempty_str(v, "causeMessage") {
        details.push(format!("cause: {c}"));
    }
    if bool_of(v, "retryable") {
        details.push("retryable".owned());
    }
    if !details.is_empty() {
        text.push_str(&format!(" ({})", common::join(&details, ", ")));
    }
    out.emit(Entry::stderr(ts, text));
    if let Some(tail) = nonempty_str(v, "childStderrTail") {
        out.emit(Entry::stderr(ts, format!("agent stderr:\n{tail}")));
    }
}
