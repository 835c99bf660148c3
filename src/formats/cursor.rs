//! Cursor: `cursor-agent --print --output-format stream-json` (also the `agent` binary).
//!
//! Lines (Cursor docs "CLI output format" + corpus `cursor-stream-json/`):
//! - `system/init` {apiKeySource env|flag|login, cwd, session_id, model, permissionMode};
//! - `user` (prompt echo, Claude-like `message.content[]`);
//! - `thinking/delta` {text, timestamp_ms} and `thinking/completed` (no text);
//! - `assistant` {message.content[] text} in three forms: with `model_call_id` (the complete
//!   message that ends in a tool call), with neither `model_call_id` nor `timestamp_ms` (the
//!   complete final message), and — only with `--stream-partial-output` — with
//!   `timestamp_ms` but no `model_call_id` (a streamed chunk; Cursor forum thread
//!   "stream-partial-output: assistant events have multiple undocumented forms");
//! - `tool_call/started` and `tool_call/completed` keyed by `call_id` (kept verbatim, it can
//!   contain a newline) with `tool_call.{shellToolCall|readToolCall|editToolCall|…|function}
//!   {args, result{success|failure|error{…}}}`;
//! - `result` {subtype, is_error, duration_ms, result (all text), session_id, request_id}.
//!
//! Tool input is `args` without `toolCallId` (the call id again) and, for shell calls,
//! without Cursor's parser annotations (`parsingResult`, `simpleCommands`, redirect flags,
//! `timeoutBehavior`, …) and empty/false `workingDirectory`/`isBackground`.
//!
//! Both paths show complete messages; streamed chunks are `assistant` deltas only on the
//! stateful path, which then drops the complete message that repeats them (or adds only the
//! tail the chunks missed). The stateless
//! path shows nothing for a chunk (its text arrives again in the complete message).
//! Thinking has no complete repeat, so its deltas are shown on both paths; `completed` is an
//! empty thinking delta with `lifecycle: "completed"`.
//!
//! Detection: `tool_call` with `call_id`, `thinking`, `model_call_id`, `timestamp_ms` and an
//! init with a Cursor `apiKeySource` and no Claude keys are Cursor's alone (Sure); a plain
//! Claude-like user/assistant/result line without Claude's own keys is only Maybe.

use crate::prelude::*;
mod tools;

use super::common::{self, bool_of, num_of, path, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{Json, Value};
use tools::{tool_input, tool_name, tool_output};

/// Call ids remembered by the stateful parser.
const MAX_IDS: usize = 2048;
/// Streamed assistant text kept for de-duplication; past this the complete message is shown.
const MAX_STREAMED_BYTES: usize = 1 << 20;

#[derive(Debug, Default)]
pub struct State {
    /// Assistant chunks since the last complete message.
    streamed: String,
    /// Assistant chunks since init/result (a final message may repeat all of them).
    streamed_all: String,
    overflow: bool,
    called: common::SeenIds,
}

impl State {
    fn push_streamed(&mut self, text: &str) {
        if self.streamed_all.len() + text.len() > MAX_STREAMED_BYTES {
            self.overflow = true;
            return;
        }
        self.streamed.push_str(text);
        self.streamed_all.push_str(text);
    }

    /// What of a complete message the chunks have not shown yet: `None` if it only repeats
    /// them, `Some(tail)` if it extends them, `Some(whole)` otherwise. Forgets the chunks.
    fn unshown<'a>(&mut self, text: &'a str, is_final: bool) -> Option<(&'a str, bool)> {
        let t = text.trim();
        let streamed = core::mem::take(&mut self.streamed);
        if self.overflow || t.is_empty() {
            return (!t.is_empty()).then_some((text, false));
        }
        let all = self.streamed_all.trim();
        if (!streamed.is_empty() && streamed.trim() == t)
            || (is_final && !all.is_empty() && all == t)
        {
            return None;
        }
        match text.strip_prefix(streamed.as_str()) {
            Some(tail) if !streamed.is_empty() => (!tail.trim().is_empty()).then_some((tail, true)),
            _ => Some((text, false)),
        }
    }

    fn reset_turn(&mut self) {
        self.streamed.clear();
        self.streamed_all.clear();
        self.overflow = false;
    }

    /// Records a shown call; false if it was shown before.
    fn remember(&mut self, id: &str) -> bool {
        if self.called.get(id).is_some() {
            return false;
        }
        self.called.set(id, Json::Null, MAX_IDS);
        true
    }
}

const CURSOR_KEY_SOURCES: [&str; 3] = ["login", "env", "flag"];

pub fn detect(v: &Value) -> Confidence {
    let claude_keys = [
        "uuid",
        "parent_tool_use_id",
        "tools",
        "num_turns",
        "total_cost_usd",
    ];
    if claude_keys.iter().any(|k| v.get(k).is_some()) {
        return Confidence::No;
    }
    match type_of(v) {
        "tool_call" if v.get("call_id").is_some() || v.get("tool_call").is_some() => {
            return Confidence::Sure
        }
        "thinking" => return Confidence::Sure,
        _ => {}
    }
    if v.get("model_call_id").is_some() || v.get("timestamp_ms").is_some() {
        return Confidence::Sure;
    }
    match (type_of(v), str_of(v, "subtype")) {
        ("system", Some("init")) => {
            let key_source = str_of(v, "apiKeySource").unwrap_or("");
            if CURSOR_KEY_SOURCES.contains(&key_source) && v.get("mcp_servers").is_none() {
                Confidence::Sure
            } else {
                Confidence::Maybe
            }
        }
        ("user" | "assistant", _) => {
            let msg = v.get("message").unwrap_or(&Value::Null);
            let only_text = msg
                .get("content")
                .and_then(Value::as_array)
                .is_some_and(|blocks| blocks.iter().all(|b| type_of(b) == "text"));
            if only_text && msg.get("id").is_none() && msg.get("model").is_none() {
                Confidence::Maybe
            } else {
                Confidence::No
            }
        }
        // Cursor's usage is camelCase (`inputTokens`); Claude's is snake_case.
        ("result", _) if path(v, &["usage", "inputTokens"]).is_some() => Confidence::Sure,
        ("result", _) if v.get("usage").is_none() => {
            if v.get("request_id").is_some() {
                Confidence::Sure
            } else {
                Confidence::Maybe
            }
        }
        _ => Confidence::No,
    }
}

pub fn parse(
    v: &Value,
    _line: &str,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    match (type_of(v), str_of(v, "subtype").unwrap_or("")) {
        ("system", "init") => {
            if let Some(s) = state.as_deref_mut() {
                s.reset_turn();
            }
            let model = str_of(v, "model").unwrap_or("unknown");
            out.emit(Entry::init(
                ts,
                model,
                str_of(v, "session_id").unwrap_or(""),
            ));
        }
        ("user", _) => {
            let text =
                common::content_text(path(v, &["message", "content"]).unwrap_or(&Value::Null));
            if !text.trim().is_empty() {
                out.emit(Entry::user(ts, text));
            }
        }
        ("thinking", "delta" | "") => {
            let t = str_of(v, "text").or_else(|| path(v, &["delta", "text"]).and_then(Value::as_str));
            if let Some(t) = t.filter(|t| !t.is_empty()) {
                out.emit(Entry::thinking_delta(ts, t));
            }
        }
        ("thinking", "completed") => out.emit(Entry::Thinking {
            ts: ts.owned(),
            text: String::new(),
            delta: Some(true),
            lifecycle: Some("completed"),
            channel: None,
            item_id: None,
            parent_tool_use_id: None,
        }),
        ("assistant", _) => assistant(v, ts, state, out),
        ("tool_call", sub @ ("started" | "completed")) => {
            tool_call(v, sub == "completed", ts, state, out)
        }
        // Another phase of a call (the host names it the same way): which tool, which phase.
        ("tool_call", sub) => match v.get("tool_call").and_then(Value::as_object).and_then(|m| m.iter().next()) {
            Some((key, _)) => out.emit(Entry::system(ts, format!("tool_call ({sub}): {key}"))),
            None => out.emit(common::unknown_event(ts, "cursor", v)),
        },
        ("result", _) => {
            if let Some(s) = state {
                s.reset_turn();
            }
            out.emit(result(v, ts));
        }
        ("error", _) => {
            let msg = str_of(v, "message")
                .or_else(|| str_of(v, "error"))
                .unwrap_or("unknown error");
            out.emit(Entry::stderr(ts, format!("error: {msg}")));
        }
        _ => out.emit(common::unknown_event(ts, "cursor", v)),
    }
}

fn assistant(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    // `message.content` blocks; some error paths print `message` as a plain string.
    let text = match v.get("message") {
        Some(m @ Value::String(_)) => common::content_text(m),
        _ => common::content_text(path(v, &["message", "content"]).unwrap_or(&Value::Null)),
    };
    let is_chunk = v.get("timestamp_ms").is_some() && v.get("model_call_id").is_none();
    let is_final = v.get("timestamp_ms").is_none() && v.get("model_call_id").is_none();
    match state {
        None if is_chunk => {} // the complete message repeats it
        None => {
            if !text.trim().is_empty() {
                out.emit(Entry::assistant(ts, text));
            }
        }
        Some(s) if is_chunk => {
            if !text.is_empty() {
                s.push_streamed(&text);
                out.emit(Entry::assistant_delta(ts, text));
            }
        }
        Some(s) => match s.unshown(&text, is_final) {
            Some((tail, true)) => out.emit(Entry::assistant_delta(ts, tail)),
            Some((whole, _)) => out.emit(Entry::assistant(ts, whole)),
            None => {}
        },
    }
}

fn tool_call(
    v: &Value,
    completed: bool,
    ts: &str,
    state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let call = v.get("tool_call").and_then(Value::as_object);
    let (key, inner) = match call.and_then(|m| m.iter().next()) {
        Some((k, i)) => (k, i),
        None => ("tool", &Value::Null),
    };
    let name = tool_name(key, inner);
    let id = str_of(v, "call_id")
        .or_else(|| path(inner, &["args", "toolCallId"]).and_then(Value::as_str))
        .map(str::owned)
        .unwrap_or_else(|| format!("cursor-{}", str_of(v, "model_call_id").unwrap_or(&name)));
    let show_call = match state {
        None => !completed,
        Some(s) => s.remember(&id),
    };
    if show_call {
        out.emit(Entry::tool_call(
            ts,
            name.clone(),
            tool_input(key, inner),
            Some(id.clone()),
        ));
    }
    if completed {
        let (content, is_error, duration) = tool_output(inner.get("result"));
        let mut entry = Entry::tool_result(ts, id, Some(name), content, is_error);
        if let Entry::ToolResult { duration_ms, .. } = &mut entry {
            *duration_ms = duration;
        }
        out.emit(entry);
    }
}

fn result(v: &Value, ts: &str) -> Entry {
    let usage = v.get("usage").unwrap_or(&Value::Null);
    let tokens = |a: &str, b: &str| {
        if usage.get(a).is_some() {
            num_of(usage, a)
        } else {
            num_of(usage, b)
        }
    };
    let is_error = bool_of(v, "is_error");
    let errors = match str_of(v, "error") {
        Some(e) if is_error => vec![e.owned()],
        _ => Vec::new(),
    };
    Entry::Result {
        ts: ts.owned(),
        text: str_of(v, "result").unwrap_or("").owned(),
        input_tokens: tokens("inputTokens", "input_tokens"),
        output_tokens: tokens("outputTokens", "output_tokens"),
        cached_tokens: tokens("cacheReadTokens", "cache_read_input_tokens"),
        cache_creation_tokens: Some(tokens("cacheWriteTokens", "cache_creation_input_tokens")).filter(|n| *n > 0.0),
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: 0.0,
        subtype: str_of(v, "subtype").unwrap_or("").owned(),
        is_error,
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn detect(v: &Value) -> Confidence {
        crate::formats::common::json_test::detect(super::detect, v)
    }

    fn run(v: &Value, state: Option<&mut State>) -> Vec<Entry> {
        crate::formats::common::json_test::run(parse, v, state)
    }

    #[test]
    fn detection_marks() {
        let init = json!({"type":"system","subtype":"init","apiKeySource":"login","cwd":"/","session_id":"s","model":"Auto"});
        assert_eq!(detect(&init), Confidence::Sure);
        let claude_init = json!({"type":"system","subtype":"init","apiKeySource":"none","tools":[],"session_id":"s"});
        assert_eq!(detect(&claude_init), Confidence::No);
        let claude_asst = json!({"type":"assistant","message":{"id":"m","model":"x","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null});
        assert_eq!(detect(&claude_asst), Confidence::No);
        let plain_asst = json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]},"session_id":"s"});
        assert_eq!(detect(&plain_asst), Confidence::Maybe);
        assert_eq!(
            detect(&json!({"type":"thinking","subtype":"delta","text":"x"})),
            Confidence::Sure
        );
    }

    #[test]
    fn partial_output_chunks_are_shown_once() {
        let chunk = |t: &str| json!({"type":"assistant","message":{"content":[{"type":"text","text":t}]},"timestamp_ms":1});
        let whole = json!({"type":"assistant","message":{"content":[{"type":"text","text":"Hello world"}]},"model_call_id":"m","timestamp_ms":2});
        assert!(run(&chunk("Hello"), None).is_empty());
        assert_eq!(run(&whole, None).len(), 1);
        let mut s = State::default();
        assert_eq!(run(&chunk("Hello"), Some(&mut s)).len(), 1);
        assert_eq!(run(&chunk(" world"), Some(&mut s)).len(), 1);
        assert!(run(&whole, Some(&mut s)).is_empty());
        // A final message that repeats the whole response is dropped too.
        let fin = json!({"type":"assistant","message":{"content":[{"type":"text","text":"Hello world"}]}});
        assert!(run(&fin, Some(&mut s)).is_empty());
        // Without chunks, a complete message is shown.
        let other =
            json!({"type":"assistant","message":{"content":[{"type":"text","text":"Next"}]}});
        assert_eq!(run(&other, Some(&mut s)).len(), 1);
        // Chunks that stopped early: only the missing tail is added.
        run(&chunk("Par"), Some(&mut s));
        let more = json!({"type":"assistant","message":{"content":[{"type":"text","text":"Partial end"}]},"model_call_id":"m2","timestamp_ms":3});
        assert!(
            matches!(&run(&more, Some(&mut s))[0], Entry::Assistant { text, delta: Some(true), .. } if text == "tial end")
        );
    }

    #[test]
    fn tool_calls_keep_the_escaped_newline_id_and_read_shell_output() {
        let started = json!({"type":"tool_call","subtype":"started","call_id":"call_a\nfc_b","tool_call":{"shellToolCall":{"args":{"command":"false"}}}});
        let done = json!({"type":"tool_call","subtype":"completed","call_id":"call_a\nfc_b","tool_call":{"shellToolCall":{"args":{"command":"false"},
            "result":{"success":{"stdout":"","stderr":"nope","exitCode":1,"executionTime":12}}}}});
        assert!(
            matches!(&run(&started, None)[0], Entry::ToolCall { name, tool_use_id: Some(id), .. } if name == "shell" && id == "call_a\nfc_b")
        );
        let out = run(&done, None);
        assert_eq!(out.len(), 1);
        assert!(
            matches!(&out[0], Entry::ToolResult { is_error: true, content, duration_ms: Some(12), .. } if content == "nope\nexit code 1")
        );
        // Stateful: completed without a started line still shows the call first.
        let mut s = State::default();
        assert_eq!(run(&done, Some(&mut s)).len(), 2);
    }

    #[test]
    fn other_phases_thinking_deltas_and_camel_case_usage() {
        let queued = json!({"type":"tool_call","subtype":"queued","call_id":"q","tool_call":{"readToolCall":{"args":{"path":"a"}}}});
        assert!(matches!(&run(&queued, None)[0], Entry::System { text, .. } if text == "tool_call (queued): readToolCall"));
        let thinking = json!({"type":"thinking","delta":{"text":"hmm"}});
        assert!(matches!(&run(&thinking, None)[0], Entry::Thinking { text, delta: Some(true), .. } if text == "hmm"));
        let result = json!({"type":"result","subtype":"success","result":"ok","session_id":"s","usage":{"inputTokens":5,"outputTokens":6}});
        assert_eq!(detect(&result), Confidence::Sure);
        assert!(matches!(&run(&result, None)[0], Entry::Result { input_tokens, output_tokens, .. } if *input_tokens == 5.0 && *output_tokens == 6.0));
    }

    #[test]
    fn other_tools_and_errors() {
        let read = json!({"type":"tool_call","subtype":"completed","call_id":"r","tool_call":{"readToolCall":{"args":{"path":"a"},"result":{"success":{"content":"text","totalLines":1}}}}});
        assert!(
            matches!(&run(&read, None)[0], Entry::ToolResult { content, is_error: false, tool_name: Some(n), .. } if content == "text" && n == "read")
        );
        let failed = json!({"type":"tool_call","subtype":"completed","call_id":"e","tool_call":{"editToolCall":{"args":{},"result":{"error":{"errorMessage":"no match"}}}}});
        assert!(
            matches!(&run(&failed, None)[0], Entry::ToolResult { content, is_error: true, .. } if content == "no match")
        );
        let func = json!({"type":"tool_call","subtype":"started","call_id":"f","tool_call":{"function":{"name":"custom","arguments":"{\"a\":1}"}}});
        assert!(
            matches!(&run(&func, None)[0], Entry::ToolCall { name, input, .. } if name == "custom" && input["a"] == 1)
        );
    }
}
