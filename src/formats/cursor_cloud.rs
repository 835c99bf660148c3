//! Cursor Cloud agents as Paperclip's `cursor_cloud` adapter logs them: no CLI runs
//! locally; the adapter drives a cloud agent through `@cursor/sdk` and writes one JSON line
//! per event to the run's stdout:
//!
//! - `{"type":"cursor_cloud.init","sessionId","agentId","runId","model"?}`
//! - `{"type":"cursor_cloud.status","status","message"?}`: the adapter's own progress
//! - `{"type":"cursor_cloud.message","message":<SDKMessage>}`: the SDK's stream, one of
//!   `assistant` {message.content: text / tool_use blocks}, `user` {message.content},
//!   `thinking` {text, thinking_duration_ms?}, `tool_call` {call_id, name,
//!   status: running|completed|error, args?, result?, truncated?}, `status` {status:
//!   CREATING|RUNNING|FINISHED|ERROR|CANCELLED|EXPIRED, message?}, `task` {status?, text?},
//!   `usage` {usage: {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens,
//!   totalTokens}}, `system` {subtype: init, model?: {id}, tools?}, `request` {request_id}
//! - `{"type":"cursor_cloud.result","status":finished|error|cancelled,"result"?,"model"?,
//!   "durationMs"?,"git"?:{branches:[{repoUrl,branch,prUrl}]},"error"?}`
//!
//! Mapping: init → `init`; status lines → `system`; assistant text → `assistant`, tool_use
//! blocks and `tool_call` running → `tool_call`, `tool_call` completed/error → `tool_result`
//! (paired by `call_id`); thinking → `thinking`; usage → a `system` notice with the token
//! counts (the final result line carries none, so they are shown where they arrive);
//! result → `result` (`isError` unless finished) plus a notice naming branches and PRs.
//! Every line stands alone: both paths give the same entries.
//!
//! Evidence: `@paperclipai/adapter-cursor-cloud` 2026.916.1 (`dist/server/execute.js`
//! writes the lines; `dist/ui/parse-stdout.js` and its tests read them) and the SDK's
//! message types (`@cursor/sdk` 1.0.32, `dist/esm/messages.d.ts`). No public capture
//! exists. Details: `docs/formats/cursor_cloud.md`.

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{self, num_text, Json, Value};

#[derive(Debug, Default)]
pub struct State;

pub fn detect(v: &Value) -> Confidence {
    if type_of(v).starts_with("cursor_cloud.") {
        Confidence::Sure
    } else {
        Confidence::No
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, _state: Option<&mut State>, out: &mut Vec<Entry>) {
    match type_of(v) {
        "cursor_cloud.init" => {
            let session = nonempty_str(v, "sessionId").or_else(|| nonempty_str(v, "agentId"));
            out.emit(Entry::init(ts, model_of(v).unwrap_or("cursor_cloud"), session.unwrap_or("")));
        }
        "cursor_cloud.status" => {
            let status = nonempty_str(v, "status").unwrap_or("status");
            let text = match nonempty_str(v, "message") {
                Some(m) => format!("{status}: {m}"),
                None => status.owned(),
            };
            out.emit(Entry::system(ts, text));
        }
        "cursor_cloud.message" => message(v.get("message").unwrap_or(&Value::Null), ts, out),
        "cursor_cloud.result" => result(v, ts, out),
        _ => out.emit(common::unknown_event(ts, "cursor_cloud", v)),
    }
}

/// A model given as a string or as the SDK's `{id, params}` selection.
fn model_of<'a>(v: &'a Value) -> Option<&'a str> {
    match v.get("model") {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        Some(m @ Value::Object(_)) => nonempty_str(m, "id"),
        _ => None,
    }
}

fn message(m: &Value, ts: &str, out: &mut Vec<Entry>) {
    let body = m.get("message").unwrap_or(&Value::Null);
    match type_of(m) {
        "assistant" => {
            for block in body.get("content").and_then(Value::as_array).into_iter().flatten() {
                match type_of(block) {
                    "tool_use" => out.emit(Entry::tool_call(
                        ts,
                        nonempty_str(block, "name").unwrap_or("tool"),
                        input_of(block.get("input")),
                        nonempty_str(block, "id").map(str::to_owned),
                    )),
                    _ => {
                        let t = content_text(block);
                        if !t.trim().is_empty() {
                            out.emit(Entry::assistant(ts, t.trim()));
                        }
                    }
                }
            }
        }
        "user" => {
            let text = body.get("content").map(content_text).unwrap_or_default();
            if !text.trim().is_empty() {
                out.emit(Entry::user(ts, text.trim()));
            }
        }
        "thinking" => {
            let t = str_of(m, "text").unwrap_or("").trim();
            if !t.is_empty() {
                out.emit(Entry::thinking(ts, t));
            }
        }
        "tool_call" | "tool_result" => tool(m, ts, out),
        "status" => {
            let status = nonempty_str(m, "status").unwrap_or("status");
            let text = match nonempty_str(m, "message") {
                Some(msg) => format!("status: {status} - {msg}"),
                None => format!("status: {status}"),
            };
            out.emit(Entry::system(ts, text));
        }
        "task" => {
            let text = match (nonempty_str(m, "text"), nonempty_str(m, "status")) {
                (Some(t), _) => t.trim().owned(),
                (None, Some(s)) => format!("task: {s}"),
                (None, None) => "task".owned(),
            };
            out.emit(Entry::system(ts, text));
        }
        "usage" => {
            let u = m.get("usage").unwrap_or(&Value::Null);
            let n = |k: &str| num_text(num_of(u, k));
            out.emit(Entry::system(
                ts,
                format!(
                    "usage: {} input, {} output, {} cache read, {} cache write tokens",
                    n("inputTokens"),
                    n("outputTokens"),
                    n("cacheReadTokens"),
                    n("cacheWriteTokens")
                ),
            ));
        }
        "system" => {
            let model = model_of(m).unwrap_or("cursor_cloud");
            out.emit(Entry::init(ts, model, nonempty_str(m, "agent_id").unwrap_or("")));
        }
        "" if m.is_null() => out.emit(Entry::system(ts, "cursor_cloud message (empty)")),
        _ => out.emit(common::unknown_event(ts, "cursor_cloud", m)),
    }
}

fn input_of(v: Option<&Value>) -> Json {
    match v {
        None | Some(Value::Null) => Json::Object(Default::default()),
        Some(x) => x.to_json(),
    }
}

/// Text of a tool's result or arguments: strings as they are, anything else as indented
/// JSON (what the host shows too).
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        other => {
            let mut out = String::new();
            json::write::pretty(&mut out, other, 0);
            out
        }
    }
}

fn tool(m: &Value, ts: &str, out: &mut Vec<Entry>) {
    let id = nonempty_str(m, "call_id").or_else(|| nonempty_str(m, "id")).unwrap_or("tool_call");
    let name = nonempty_str(m, "name").unwrap_or("tool");
    let status = str_of(m, "status").unwrap_or("").to_ascii_lowercase();
    if type_of(m) == "tool_call" && (status == "running" || status.is_empty()) {
        out.emit(Entry::tool_call(ts, name, input_of(m.get("args")), Some(id.owned())));
        return;
    }
    if type_of(m) == "tool_call" && status != "completed" && status != "error" {
        out.emit(Entry::system(ts, format!("tool {name} ({id}): {status}")));
        return;
    }
    let is_error = status == "error" || m.get("is_error").and_then(Value::as_bool) == Some(true);
    let body = ["result", "content", "output"].iter().find_map(|k| m.get(k).filter(|x| !x.is_null()));
    let mut content = match body {
        Some(b) => shown(b),
        None if is_error => "tool failed".owned(),
        None => "(no result)".owned(),
    };
    if m.get("truncated").and_then(|t| t.get("result")).and_then(Value::as_bool) == Some(true) {
        content.push_str("\n… (truncated by Cursor)");
    }
    out.emit(Entry::tool_result(ts, id, Some(name.owned()), content, is_error));
}

fn result(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let status = nonempty_str(v, "status").unwrap_or("error");
    let errors: Vec<String> = v.get("error").map(content_text).filter(|e| !e.is_empty()).into_iter().collect();
    let text = str_of(v, "result").unwrap_or("").owned();
    out.emit(Entry::untallied_result(ts, text, status, status != "finished", errors));
    let mut notes = Vec::new();
    if let Some(model) = model_of(v) {
        notes.push(format!("model {model}"));
    }
    if let Some(ms) = v.get("durationMs").and_then(Value::as_f64) {
        notes.push(format!("{}s", json::fixed(ms / 1000.0, 1)));
    }
    let branches = v.get("git").and_then(|g| g.get("branches")).and_then(Value::as_array);
    for b in branches.into_iter().flatten() {
        let mut s = String::new();
        if let Some(br) = nonempty_str(b, "branch") {
            s.push_str("branch ");
            s.push_str(br);
        }
        if let Some(repo) = nonempty_str(b, "repoUrl") {
            s.push_str(if s.is_empty() { "repo " } else { " of " });
            s.push_str(repo);
        }
        if let Some(pr) = nonempty_str(b, "prUrl") {
            s.push_str(if s.is_empty() { "PR " } else { ", PR " });
            s.push_str(pr);
        }
        if !s.is_empty() {
            notes.push(s);
        }
    }
    if !notes.is_empty() {
        out.emit(Entry::system(ts, format!("Cursor run {status}: {}", common::join(&notes, "; "))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    fn run(v: serde_json::Value) -> Vec<Entry> {
        json_test::run(parse, &v, None::<&mut State>)
    }

    #[test]
    fn init_tools_and_result() {
        assert_eq!(
            run(json!({"type":"cursor_cloud.init","sessionId":"agent-1","agentId":"agent-1","runId":"run-1","model":"gpt-5.4"})),
            vec![Entry::init("t", "gpt-5.4", "agent-1")]
        );
        assert_eq!(
            run(json!({"type":"cursor_cloud.message","message":{"type":"tool_call","call_id":"c1","name":"bash","status":"running","args":{"command":"pwd"}}})),
            vec![Entry::tool_call("t", "bash", json!({"command":"pwd"}), Some("c1".into()))]
        );
        assert_eq!(
            run(json!({"type":"cursor_cloud.message","message":{"type":"tool_call","call_id":"c1","name":"bash","status":"error","result":"exit 1"}})),
            vec![Entry::tool_result("t", "c1", Some("bash".into()), "exit 1", true)]
        );
        let out = run(json!({"type":"cursor_cloud.result","status":"finished","result":"Done","model":"gpt-5.4","durationMs":61000,
            "git":{"branches":[{"repoUrl":"https://github.com/o/r","branch":"cursor/fix","prUrl":"https://github.com/o/r/pull/7"}]}}));
        assert!(matches!(&out[0], Entry::Result { is_error: false, text, .. } if text == "Done"));
        assert_eq!(
            out[1],
            Entry::system("t", "Cursor run finished: model gpt-5.4; 61.0s; branch cursor/fix of https://github.com/o/r, PR https://github.com/o/r/pull/7")
        );
        assert_eq!(json_test::detect(detect, &json!({"type":"tool_call","subtype":"started"})), Confidence::No);
    }
}
