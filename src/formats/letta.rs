//! Letta Code, `letta -p "<prompt>" --output-format stream-json` (npm `@letta-ai/letta-code`;
//! what snowctl/letta-code-paperclip-adapter runs): one wire message per line, each with the
//! envelope `{session_id, uuid, timestamp?, event_seq?, agent_id?, conversation_id?}`
//! (letta-ai/letta-code `src/types/protocol.ts`).
//!
//! - `system/init {agent_id, conversation_id, model, tools, cwd, …}` → `init` (session: the
//!   conversation, which a resume names; else the agent);
//! - `message` lines carry a letta-client message by `message_type`: `assistant_message
//!   {content}` → `assistant`; `reasoning_message {reasoning}` / `hidden_reasoning_message` →
//!   `thinking`; `tool_call_message` / `approval_request_message {tool_call(s){tool_call_id,
//!   name, arguments}}` → `tool_call` (arguments, a JSON string, parsed); `tool_return_message
//!   {tool_call_id, tool_return, status, stderr?} / {tool_returns[]}` → `tool_result` (error
//!   when `status` is `error`); `user_message` → `user`; `system_message` and
//!   `stop_reason` → `system`; `usage_statistics` → a `system` line (the run's usage comes
//!   once, in `result`);
//! - `stream_event {event}` (`--include-partial-messages`: the same messages as chunks, and
//!   then no `message` lines) → the same entries, text and reasoning as deltas; a tool call's
//!   chunk shows the card only when it names the tool (later argument pieces add nothing);
//! - `result {subtype success|interrupted|error, result, usage{prompt_tokens,
//!   completion_tokens, cached_input_tokens?}, stop_reason?}` → `result` (one per run; no cost
//!   is printed);
//! - `error {message, stop_reason, api_error?}` → `stderr`; `retry`, `recovery`,
//!   `auto_approval`, `approval_requested`, `approval_received`, `cancel_ack` and the
//!   `queue_*` lifecycle events → one `system` line each; `tool_execution_started` /
//!   `_finished` → nothing (the call and its return show it).
//!
//! Every line stands alone, so both paths give the same entries. Evidence: Letta Code's wire
//! types and its stream-json test (`src/headless-stream-json-format.test.ts`: `init` uuid
//! `init-<agent>`, `message` lines without the flag, only `stream_event` lines with it),
//! the adapter's tests; no public capture (fixture derived, `tests/fixtures/letta/`).

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// Letta's own top-level event types (besides `system`, `message`, `result`, `error`).
const EVENTS: [&str; 9] = [
    "stream_event",
    "retry",
    "recovery",
    "auto_approval",
    "approval_requested",
    "approval_received",
    "tool_execution_started",
    "tool_execution_finished",
    "cancel_ack",
];

pub fn detect(v: &Value) -> Confidence {
    let has = |k: &str| v.get(k).is_some();
    // The wire envelope: every Letta line has `uuid`; most name the agent or conversation.
    let envelope = has("uuid") && (has("agent_id") || has("conversation_id") || has("session_id"));
    match type_of(v) {
        "message" if str_of(v, "message_type").is_some() && v.get("message").is_none() => Confidence::Sure,
        "system" if str_of(v, "subtype") == Some("init") && has("agent_id") && has("conversation_id") => {
            Confidence::Sure
        }
        "result" if has("run_ids") || (has("conversation_id") && has("agent_id")) => Confidence::Sure,
        "error" if has("stop_reason") && envelope => Confidence::Sure,
        "stream_event" => match v.get("event") {
            Some(e) if str_of(e, "message_type").is_some() => Confidence::Sure,
            _ => Confidence::No,
        },
        t if envelope && (EVENTS.contains(&t) || t.starts_with("queue_")) => Confidence::Sure,
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, _state: Option<&mut ()>, out: &mut Vec<Entry>) {
    let s = |k: &str| str_of(v, k).unwrap_or("");
    let text = match type_of(v) {
        "system" => {
            let model = nonempty_str(v, "model").unwrap_or("unknown");
            let session = nonempty_str(v, "conversation_id")
                .or_else(|| nonempty_str(v, "agent_id"))
                .unwrap_or(s("session_id"));
            out.emit(Entry::init(ts, model, session));
            return;
        }
        "message" => return message(v, false, ts, out),
        "stream_event" => return message(v.get("event").unwrap_or(&Value::Null), true, ts, out),
        "result" => return result(v, ts, out),
        "error" => {
            let mut text = nonempty_str(v, "message").unwrap_or("Letta error").owned();
            let api = v.get("api_error").unwrap_or(&Value::Null);
            if let Some(m) = nonempty_str(api, "message").filter(|m| *m != text) {
                text = format!("{text}: {m}");
            }
            if let Some(r) = nonempty_str(v, "stop_reason") {
                text = format!("{text} (stop reason: {r})");
            }
            out.emit(Entry::stderr(ts, text));
            return;
        }
        "retry" => format!(
            "retrying in {} ms (attempt {}/{}) after: {}",
            crate::json::num_text(num_of(v, "delay_ms")),
            crate::json::num_text(num_of(v, "attempt")),
            crate::json::num_text(num_of(v, "max_attempts")),
            s("reason")
        ),
        "recovery" => format!("recovery ({}): {}", s("recovery_type"), s("message")),
        "auto_approval" => {
            let call = v.get("tool_call").unwrap_or(&Value::Null);
            format!("auto-approved {} ({})", str_of(call, "name").unwrap_or("tool"), s("reason"))
        }
        "approval_requested" => format!("approval requested for {}", s("tool_name")),
        "approval_received" => match nonempty_str(v, "reason") {
            Some(r) => format!("approval: {} ({r})", s("decision")),
            None => format!("approval: {}", s("decision")),
        },
        "cancel_ack" => {
            let what = if common::bool_of(v, "accepted") { "accepted" } else { "refused" };
            format!("cancel {what}")
        }
        "tool_execution_started" | "tool_execution_finished" => return,
        t => format!("{} ({})", common::replace_all(t, "_", " "), common::short_fields(v, 3)),
    };
    out.emit(Entry::system(ts, text));
}

/// One letta-client message (a `message` line, or a `stream_event` chunk when `chunk`).
fn message(m: &Value, chunk: bool, ts: &str, out: &mut Vec<Entry>) {
    let s = |k: &str| str_of(m, k).unwrap_or("");
    match s("message_type") {
        "assistant_message" => {
            let t = m.get("content").map(content_text).unwrap_or_default();
            if chunk && !t.is_empty() {
                out.emit(Entry::assistant_delta(ts, t));
            } else if !t.trim().is_empty() {
                out.emit(Entry::assistant(ts, t.trim()));
            }
        }
        "reasoning_message" | "hidden_reasoning_message" => {
            let t = nonempty_str(m, "reasoning").or_else(|| nonempty_str(m, "hidden_reasoning")).unwrap_or("");
            if chunk && !t.is_empty() {
                out.emit(Entry::thinking_delta(ts, t));
            } else if !t.trim().is_empty() {
                out.emit(Entry::thinking(ts, t.trim()));
            }
        }
        "tool_call_message" | "approval_request_message" => {
            let calls = match m.get("tool_calls").and_then(Value::as_array) {
                Some(list) if !list.is_empty() => list.iter().collect(),
                _ => m.get("tool_call").into_iter().collect::<Vec<_>>(),
            };
            for c in calls {
                // A streamed call's later chunks carry only more of its arguments.
                let Some(name) = nonempty_str(c, "name") else { continue };
                let id = nonempty_str(c, "tool_call_id").or_else(|| nonempty_str(c, "id"));
                let mut input = common::arguments(c.get("arguments"));
                // A chunk's arguments are usually cut short: no half-written JSON as input.
                if chunk && input.is_string() {
                    input = common::empty_object();
                }
                out.emit(Entry::tool_call(ts, name, input, id.map(str::owned)));
            }
        }
        "tool_return_message" => match m.get("tool_returns").and_then(Value::as_array) {
            Some(list) if !list.is_empty() => list.iter().for_each(|r| tool_return(r, ts, out)),
            _ => tool_return(m, ts, out),
        },
        "user_message" => {
            let t = m.get("content").map(content_text).unwrap_or_default();
            if !t.trim().is_empty() {
                out.emit(Entry::user(ts, t.trim()));
            }
        }
        "system_message" => {
            let t = m.get("content").map(content_text).unwrap_or_default();
            out.emit(Entry::system(ts, common::clip(t.trim(), 600)));
        }
        "stop_reason" => out.emit(Entry::system(ts, format!("stop reason: {}", s("stop_reason")))),
        "usage_statistics" => out.emit(Entry::system(ts, format!("usage: {}", usage_text(m)))),
        "ping" => {}
        t => out.emit(Entry::system(ts, format!("{} ({})", common::replace_all(t, "_", " "), common::short_fields(m, 3)))),
    }
}

fn tool_return(r: &Value, ts: &str, out: &mut Vec<Entry>) {
    let mut content = match r.get("tool_return").or_else(|| r.get("func_response")) {
        Some(Value::String(t)) => t.to_string(),
        Some(other) => content_text(other),
        None => String::new(),
    };
    let stderr = r.get("stderr").map(content_text).unwrap_or_default();
    if !stderr.trim().is_empty() && !common::has(&content, stderr.trim()) {
        content = common::join([content.as_str(), stderr.trim()].iter().filter(|t| !t.is_empty()), "\n");
    }
    let id = nonempty_str(r, "tool_call_id").unwrap_or("tool_result");
    out.emit(Entry::tool_result(ts, id, None, content, str_of(r, "status") == Some("error")));
}

/// `100 in, 50 out, 20 cached, 3 steps`.
fn usage_text(u: &Value) -> String {
    let mut parts = Vec::new();
    for (k, label) in [
        ("prompt_tokens", "in"),
        ("completion_tokens", "out"),
        ("cached_input_tokens", "cached"),
        ("reasoning_tokens", "reasoning"),
        ("step_count", "steps"),
    ] {
        if let Some(n) = u.get(k).and_then(Value::as_f64) {
            parts.push(format!("{} {label}", crate::json::num_text(n)));
        }
    }
    common::join(&parts, ", ")
}

fn result(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let usage = v.get("usage").unwrap_or(&Value::Null);
    let sub = nonempty_str(v, "subtype").unwrap_or("success");
    let stop = nonempty_str(v, "stop_reason");
    let is_error = sub == "error";
    out.emit(Entry::Result {
        ts: ts.owned(),
        text: str_of(v, "result").unwrap_or("").owned(),
        input_tokens: num_of(usage, "prompt_tokens"),
        output_tokens: num_of(usage, "completion_tokens"),
        cached_tokens: num_of(usage, "cached_input_tokens"),
        cache_creation_tokens: None,
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: 0.0,
        subtype: if is_error { stop.unwrap_or(sub) } else { sub }.owned(),
        is_error,
        errors: if is_error { stop.map(str::owned).into_iter().collect() } else { Vec::new() },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    #[test]
    fn detection_needs_letta_marks() {
        let d = |v| json_test::detect(detect, &v);
        assert_eq!(d(json!({"type":"message","message_type":"assistant_message","uuid":"u","content":"hi"})), Confidence::Sure);
        assert_eq!(d(json!({"type":"system","subtype":"init","agent_id":"a","conversation_id":"c","model":"m"})), Confidence::Sure);
        // Claude's, Cursor's and pi's shapes are not Letta's.
        assert_eq!(d(json!({"type":"system","subtype":"init","session_id":"s","model":"m"})), Confidence::No);
        assert_eq!(d(json!({"type":"result","subtype":"success","session_id":"s","total_cost_usd":1})), Confidence::No);
        assert_eq!(d(json!({"type":"stream_event","event":{"type":"message_start"}})), Confidence::No);
        assert_eq!(d(json!({"type":"message","message":{"role":"user"}})), Confidence::No);
    }

    #[test]
    fn chunks_are_deltas_and_messages_whole() {
        let run = |v| json_test::run(parse, &v, None::<&mut ()>);
        assert_eq!(
            run(json!({"type":"stream_event","event":{"message_type":"assistant_message","content":"O"}})),
            vec![Entry::assistant_delta("t", "O")]
        );
        assert_eq!(
            run(json!({"type":"message","message_type":"tool_call_message","tool_call":{"tool_call_id":"c1","name":"Bash","arguments":"{\"command\":\"ls\"}"}})),
            vec![Entry::tool_call("t", "Bash", json!({"command":"ls"}), Some("c1".into()))]
        );
        // A later chunk of the same call carries only argument text: no second card.
        assert!(run(json!({"type":"stream_event","event":{"message_type":"tool_call_message","tool_call":{"arguments":"ls\"}"}}})).is_empty());
        assert_eq!(
            run(json!({"type":"message","message_type":"tool_return_message","tool_call_id":"c1","tool_return":"no such file","status":"error"})),
            vec![Entry::tool_result("t", "c1", None, "no such file", true)]
        );
    }
}
