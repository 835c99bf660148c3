//! pi (pi-mono coding agent): `pi --mode json` / `pi -p --mode json` stdout, and pi session
//! files read through the same module (see [`session`]).
//!
//! `--mode json` prints every `AgentSessionEvent` as one JSON line (pi-mono
//! `packages/coding-agent/src/modes/print-mode.ts`, event types in
//! `packages/agent/src/types.ts`): optional `session` header, `agent_start`, `turn_start`,
//! `message_start` / `message_update` {assistantMessageEvent{type text_delta|thinking_delta|
//! toolcall_*|…, contentIndex, delta}} / `message_end` (user, assistant and toolResult
//! messages), `tool_execution_start` {toolCallId, toolName, args} / `_update`
//! {partialResult} / `_end` {result{content, details}, isError}, `turn_end` {message,
//! toolResults}, `agent_end` {messages}, `auto_compaction_start/end`, `auto_retry_start/end`.
//!
//! `--mode rpc` (what Paperclip's pi adapter runs) prints the same events with no `session`
//! header, plus `{type:"response", command, success, error?}` per command (shown only when it
//! failed), `extension_error` (stderr), `extension_ui_request` (a `notify` message or what a
//! `select`/`confirm`/`input`/`editor` asks, as a notice) and, on newer builds, `agent_settled`
//! (nothing). Real captures: fixtures `picodes-rpc-tool-use-*` (pi 0.84.4, 0.86.0, 0.99.1).
//!
//! pi repeats itself a lot; each thing is shown from one carrier only, on both paths:
//! - assistant text and thinking: `message_end` (complete). On the stateless path a
//!   `message_update` shows nothing; the stateful path shows its `text_delta` /
//!   `thinking_delta` live and then drops the blocks of `message_end` that the deltas
//!   already showed (adding only a missing tail, or the whole block if it differs);
//! - user messages: `message_end` (`message_start` shows nothing);
//! - tool calls: `tool_execution_start` (not the `toolCall` blocks of `message_end`);
//! - tool results: `tool_execution_end` (not the `toolResult` messages, not `turn_end`);
//! - `turn_end`: a compact system line; `agent_end`: a `result` entry that sums the run's
//!   usage (the messages are not shown again); `turn_start` and `tool_execution_update`
//!   (a growing snapshot that `tool_execution_end` completes) show nothing.
//!
//! Evidence: corpus `pi-json/` (two hand-made takopi streams, a real session file) and
//! `bench/pi-session-before-compaction.jsonl`; pi-mono sources via the code index.

use crate::prelude::*;
mod omp;
mod session;

use super::common::{self, nonempty_str, path, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::formats::common::cut;
use crate::json::{self, Json, Value};
use core::fmt::Write;

/// Content blocks of one message tracked for de-duplication.
const MAX_BLOCKS: usize = 64;
/// Streamed text kept per message; past it the complete text is shown as is.
const MAX_STREAMED_BYTES: usize = 1 << 20;

/// What the stateful parser streamed of the current assistant message, per content index.
#[derive(Debug, Default)]
pub struct State {
    text: Vec<(u64, String)>,
    thinking: Vec<(u64, String)>,
    bytes: usize,
    overflow: bool,
}

impl State {
    fn reset(&mut self) {
        *self = State::default();
    }

    fn add(&mut self, thinking: bool, index: u64, delta: &str) {
        self.bytes += delta.len();
        if self.bytes > MAX_STREAMED_BYTES {
            // Past the cap nothing more is kept; message_end then shows its text whole.
            self.overflow = true;
            self.text.clear();
            self.thinking.clear();
        }
        if self.overflow {
            return;
        }
        let list = if thinking {
            &mut self.thinking
        } else {
            &mut self.text
        };
        if let Some(pos) = list.iter().position(|(i, _)| *i == index) {
            list[pos].1.push_str(delta);
        } else if list.len() < MAX_BLOCKS {
            list.push((index, delta.owned()));
        } else {
            self.overflow = true;
        }
    }

    fn streamed(&self, thinking: bool, index: u64) -> Option<&str> {
        if self.overflow {
            return None;
        }
        let list = if thinking { &self.thinking } else { &self.text };
        list.iter()
            .find(|(i, _)| *i == index)
            .map(|(_, s)| s.as_str())
    }
}

const STREAM_EVENTS: [&str; 17] = [
    "agent_start",
    "agent_settled",
    // `--mode rpc`: the answer to a command, an extension's error or question.
    "extension_error",
    "extension_ui_request",
    "agent_end",
    "turn_start",
    "turn_end",
    "message_start",
    "message_update",
    "message_end",
    "tool_execution_start",
    "tool_execution_update",
    "tool_execution_end",
    "auto_compaction_start",
    "auto_compaction_end",
    "auto_retry_start",
    "auto_retry_end",
];

pub fn detect(v: &Value) -> Confidence {
    let ty = type_of(v);
    if STREAM_EVENTS.contains(&ty) || ty == "response" && v.get("success").and_then(Value::as_bool).is_some() && str_of(v, "command").is_some() {
        return Confidence::Sure;
    }
    let omp = omp::detect(v);
    if omp != Confidence::No {
        return omp;
    }
    match ty {
        "session" if v.get("cwd").is_some() && v.get("id").is_some() => Confidence::Sure,
        "thinking_level_change" | "branch_summary" | "session_info" => Confidence::Sure,
        "model_change" if v.get("modelId").is_some() => Confidence::Sure,
        "compaction" if v.get("summary").is_some() => Confidence::Sure,
        // Extension state (OpenClaw writes its `model-snapshot` here): pi's entry tree keys
        // (`parentId`) make it pi's; a bare `customType` may be pi's.
        "custom" | "custom_message" if v.get("customType").is_some() => {
            if v.get("parentId").is_some() {
                Confidence::Sure
            } else {
                Confidence::Maybe
            }
        }
        "message" => {
            let m = v.get("message").unwrap_or(&Value::Null);
            match str_of(m, "role") {
                Some("toolResult" | "bashExecution" | "branchSummary" | "compactionSummary") => {
                    Confidence::Sure
                }
                Some("assistant") if m.get("stopReason").is_some() || m.get("api").is_some() => {
                    Confidence::Sure
                }
                // pi stamps every message; Goose's `{type:"message", message:{id, role,
                // created, content}}` (its stream-json) has `created` instead.
                Some(_) if m.get("timestamp").is_some() && m.get("created").is_none() => {
                    Confidence::Maybe
                }
                _ => Confidence::No,
            }
        }
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let empty = Value::Null;
    let message = v.get("message").unwrap_or(&empty);
    let role = str_of(message, "role").unwrap_or("");
    match type_of(v) {
        "agent_start" => out.emit(Entry::system(ts, "agent run started")),
        "turn_start" | "tool_execution_update" | "agent_settled" => {}
        // `--mode rpc`: a command's answer is shown only when it failed.
        "response" => {
            if v.get("success").and_then(Value::as_bool) == Some(false) {
                let what = str_of(v, "command").unwrap_or("command");
                out.emit(Entry::stderr(ts, format!("{what} failed: {}", str_of(v, "error").unwrap_or("no reason given"))));
            }
        }
        "extension_error" => {
            let path = str_of(v, "extensionPath").unwrap_or("?");
            out.emit(Entry::stderr(ts, format!("extension {path}: {}", str_of(v, "error").unwrap_or("failed"))));
        }
        "extension_ui_request" => match (str_of(v, "method"), nonempty_str(v, "message").or_else(|| nonempty_str(v, "title"))) {
            (Some("notify"), Some(m)) => out.emit(Entry::system(ts, m)),
            (Some("select" | "confirm" | "input" | "editor"), Some(m)) => out.emit(Entry::system(ts, format!("asks: {m}"))),
            _ => {}
        },
        "message_start" => {
            if role == "assistant" {
                if let Some(s) = state {
                    s.reset();
                }
            }
        }
        "message_update" => {
            if let Some(s) = state {
                stream_update(v, ts, s, out);
            }
        }
        "message_end" => match role {
            "assistant" => match state {
                None => session::message(message, ts, false, out),
                Some(s) => {
                    assistant_end(message, ts, s, out);
                    s.reset();
                }
            },
            // Shown from tool_execution_end.
            "toolResult" => {}
            _ => session::message(message, ts, false, out),
        },
        "tool_execution_start" => {
            let name = str_of(v, "toolName").unwrap_or("tool");
            let args = v
                .get("args")
                .map(Value::to_json)
                .unwrap_or(Json::Object(Default::default()));
            out.emit(Entry::tool_call(
                ts,
                name,
                args,
                str_of(v, "toolCallId").map(str::owned),
            ));
        }
        "tool_execution_end" => {
            let result = v.get("result").unwrap_or(&empty);
            let content = match result.get("content") {
                Some(c) => common::content_text(c),
                None => common::content_text(result),
            };
            let is_error = v.get("isError").and_then(Value::as_bool).unwrap_or(false);
            let name = str_of(v, "toolName").map(str::owned);
            out.emit(Entry::tool_result(
                ts,
                str_of(v, "toolCallId").unwrap_or(""),
                name,
                content,
                is_error,
            ));
        }
        "turn_end" => out.emit(turn_end(v, ts)),
        "agent_end" => {
            let messages = v
                .get("messages")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            match session::run_result(messages, ts) {
                Some(result) => out.emit(result),
                None => out.emit(Entry::system(ts, "agent run finished")),
            }
        }
        "auto_compaction_start" => {
            let reason = str_of(v, "reason")
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            out.emit(Entry::system(ts, format!("compacting context{reason}")));
        }
        "auto_compaction_end" => out.emit(compaction_end(v, ts)),
        "auto_retry_start" => {
            let attempt = v.get("attempt").and_then(Value::as_u64).unwrap_or(0);
            let max = v.get("maxAttempts").and_then(Value::as_u64).unwrap_or(0);
            let delay = v.get("delayMs").and_then(Value::as_u64).unwrap_or(0);
            let err = str_of(v, "errorMessage").unwrap_or("error");
            out.emit(Entry::system(
                ts,
                format!("retrying in {delay} ms (attempt {attempt}/{max}) after: {err}"),
            ));
        }
        "auto_retry_end" => {
            let attempt = v.get("attempt").and_then(Value::as_u64).unwrap_or(0);
            if v.get("success").and_then(Value::as_bool).unwrap_or(false) {
                out.emit(Entry::system(
                    ts,
                    format!("retry succeeded (attempt {attempt})"),
                ));
            } else {
                let err = str_of(v, "finalError").unwrap_or("gave up");
                out.emit(Entry::stderr(
                    ts,
                    format!("retry failed after attempt {attempt}: {err}"),
                ));
            }
        }
        _ => {
            if !omp::parse(v, ts, out) && !session::parse_entry(v, ts, out) {
                out.emit(common::unknown_event(ts, "pi", v));
            }
        }
    }
}

/// Stateful: shows a streamed text/thinking delta and remembers it.
fn stream_update(v: &Value, ts: &str, s: &mut State, out: &mut Vec<Entry>) {
    let ev = v.get("assistantMessageEvent").unwrap_or(&Value::Null);
    let index = ev.get("contentIndex").and_then(Value::as_u64).unwrap_or(0);
    let Some(delta) = str_of(ev, "delta").filter(|d| !d.is_empty()) else {
        return;
    };
    match type_of(ev) {
        "text_delta" => {
            s.add(false, index, delta);
            out.emit(Entry::assistant_delta(ts, delta));
        }
        "thinking_delta" => {
            s.add(true, index, delta);
            out.emit(Entry::thinking_delta(ts, delta));
        }
        _ => {}
    }
}

/// Stateful `message_end` of an assistant message: only what the deltas did not show.
fn assistant_end(m: &Value, ts: &str, s: &State, out: &mut Vec<Entry>) {
    for (i, block) in session::blocks(m).into_iter().enumerate() {
        let (thinking, key) = match type_of(block) {
            "text" => (false, "text"),
            "thinking" => (true, "thinking"),
            _ => continue,
        };
        let full = str_of(block, key).unwrap_or("");
        if full.trim().is_empty() {
            continue;
        }
        match s.streamed(thinking, i as u64) {
            Some(shown) if shown == full => {}
            Some(shown) if !shown.is_empty() && full.starts_with(shown) => {
                let rest = cut(full, shown.len()..);
                out.emit(if thinking {
                    Entry::thinking_delta(ts, rest)
                } else {
                    Entry::assistant_delta(ts, rest)
                });
            }
            _ => out.emit(if thinking {
                Entry::thinking(ts, full)
            } else {
                Entry::assistant(ts, full)
            }),
        }
    }
    session::stop_notice(m, ts, out);
}

fn turn_end(v: &Value, ts: &str) -> Entry {
    let reason = path(v, &["message", "stopReason"]).and_then(Value::as_str);
    let results = v
        .get("toolResults")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut text = "turn finished".owned();
    match (reason, results) {
        (Some(r), 0) => _ = write!(text, " ({r})"),
        (Some(r), n) => {
            _ = write!(
                text,
                " ({r}, {n} tool result{})",
                if n == 1 { "" } else { "s" }
            )
        }
        (None, 0) => {}
        (None, n) => _ = write!(text, " ({n} tool result{})", if n == 1 { "" } else { "s" }),
    }
    Entry::system(ts, text)
}

fn compaction_end(v: &Value, ts: &str) -> Entry {
    if let Some(err) = str_of(v, "errorMessage").filter(|e| !e.is_empty()) {
        return Entry::stderr(ts, format!("context compaction failed: {err}"));
    }
    if v.get("aborted").and_then(Value::as_bool).unwrap_or(false) {
        return Entry::system(ts, "context compaction aborted");
    }
    // omp: compaction skipped for a benign reason.
    if common::bool_of(v, "skipped") {
        return Entry::system(ts, "context compaction skipped");
    }
    let mut text = "context compacted".owned();
    if let Some(n) = path(v, &["result", "tokensBefore"]).and_then(Value::as_f64) {
        let _ = write!(text, " ({} tokens before)", json::num_text(n));
    }
    if v.get("willRetry").and_then(Value::as_bool).unwrap_or(false) {
        text.push_str("; retrying the request");
    }
    Entry::system(ts, text)
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

    fn update(kind: &str, index: u64, delta: &str) -> Value {
        json!({"type":"message_update","message":{"role":"assistant"},"assistantMessageEvent":{"type":kind,"contentIndex":index,"delta":delta}})
    }

    fn end() -> Value {
        json!({"type":"message_end","message":{"role":"assistant","stopReason":"toolUse","content":[
            {"type":"thinking","thinking":"plan it"},{"type":"text","text":"Hello world"},
            {"type":"toolCall","id":"t1","name":"read","arguments":{"path":"a"}}]}})
    }

    /// Found by the fuzz loop: a negative `cacheWrite` gave `cacheCreationTokens: -1`.
    #[test]
    fn agent_end_with_a_negative_cache_write_has_no_cache_write_count() {
        let usage = |w: i64| json!({"input":10,"output":2,"cacheRead":0,"cacheWrite":w,"cost":{"total":0.001}});
        let end = |w: i64| json!({"type":"agent_end","messages":[
            {"role":"user","content":[{"type":"text","text":"hi"}]},
            {"role":"assistant","content":[{"type":"text","text":"ok"}],"usage":usage(w),"stopReason":"stop"}]});
        let write = |w: i64| {
            run(&end(w), None).iter().find_map(|e| match e {
                Entry::Result { cache_creation_tokens, .. } => Some(*cache_creation_tokens),
                _ => None,
            })
        };
        assert_eq!(write(5), Some(Some(5.0)));
        assert_eq!(write(-1), Some(None));
    }

    #[test]
    fn rpc_answers_show_only_when_a_command_failed() {
        // Both from pi-mono's docs/rpc.md (v0.58.3), verbatim but for the elided error text.
        let ok = json!({"id": "req-1", "type": "response", "command": "prompt", "success": true});
        let bad = json!({"type": "response", "command": "parse", "success": false, "error": "Failed to parse command: Unexpected token"});
        assert_eq!(detect(&ok), Confidence::Sure);
        assert!(run(&ok, None).is_empty());
        let e = run(&bad, None);
        assert!(matches!(&e[..], [Entry::Stderr { text, .. }] if text == "parse failed: Failed to parse command: Unexpected token"), "{e:?}");
        // Another runtime's `response` (no command, no success flag) is not pi's.
        assert_eq!(detect(&json!({"type": "response", "id": 3, "result": {}})), Confidence::No);
        let ask = json!({"type": "extension_ui_request", "id": "u1", "method": "confirm", "title": "Delete probe.txt?"});
        assert!(matches!(&run(&ask, None)[..], [Entry::System { text, .. }] if text == "asks: Delete probe.txt?"));
        let status = json!({"type": "extension_ui_request", "id": "u2", "method": "setStatus", "statusKey": "k", "statusText": "busy"});
        assert!(run(&status, None).is_empty());
        assert!(run(&json!({"type": "agent_settled"}), None).is_empty());
    }

    #[test]
    fn stateless_shows_message_end_once_and_no_deltas() {
        assert!(run(&update("text_delta", 1, "Hello"), None).is_empty());
        let kinds: Vec<&str> = run(&end(), None).iter().map(Entry::kind).collect();
        assert_eq!(kinds, ["thinking", "assistant"]);
    }

    #[test]
    fn stateful_shows_deltas_and_drops_the_repeat() {
        let mut s = State::default();
        run(
            &json!({"type":"message_start","message":{"role":"assistant"}}),
            Some(&mut s),
        );
        assert_eq!(
            run(&update("thinking_delta", 0, "plan it"), Some(&mut s)).len(),
            1
        );
        assert_eq!(
            run(&update("text_delta", 1, "Hello"), Some(&mut s)).len(),
            1
        );
        // " world" never arrived as a delta: only the missing tail is added.
        let out = run(&end(), Some(&mut s));
        assert_eq!(out.len(), 1);
        assert!(
            matches!(&out[0], Entry::Assistant { text, delta: Some(true), .. } if text == " world")
        );
    }

    #[test]
    fn tools_come_from_execution_events() {
        let start = json!({"type":"tool_execution_start","toolCallId":"t1","toolName":"bash","args":{"command":"ls"}});
        let end = json!({"type":"tool_execution_end","toolCallId":"t1","toolName":"bash","result":{"content":[{"type":"text","text":"ok"}]},"isError":false});
        assert!(
            matches!(&run(&start, None)[0], Entry::ToolCall { tool_use_id: Some(id), .. } if id == "t1")
        );
        assert!(
            matches!(&run(&end, None)[0], Entry::ToolResult { content, .. } if content == "ok")
        );
        let msg = json!({"type":"message_end","message":{"role":"toolResult","toolCallId":"t1","content":"ok"}});
        assert!(run(&msg, None).is_empty());
    }

    #[test]
    fn agent_end_sums_usage_and_errors_show() {
        let v = json!({"type":"agent_end","messages":[
            {"role":"assistant","usage":{"input":10,"output":2,"cacheRead":1,"cost":{"total":0.5}},"stopReason":"toolUse"},
            {"role":"assistant","usage":{"input":5,"output":1,"cost":{"total":0.25}},"stopReason":"error","errorMessage":"boom"}]});
        match &run(&v, None)[0] {
            Entry::Result {
                input_tokens,
                cost_usd,
                is_error,
                errors,
                ..
            } => {
                assert_eq!((*input_tokens, *cost_usd, *is_error), (15.0, 0.75, true));
                assert_eq!(errors, &vec!["boom".to_owned()]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn session_file_model_calls_are_results_and_failures_name_their_model() {
        // Two fallbacks failing alike, then an answer: each message's usage is a result,
        // each failure says which model failed.
        let msg = |model: &str, usage: Value, stop: &str, err: Option<&str>| {
            json!({"type":"message","id":"m","parentId":"p","timestamp":"2026-02-01T10:00:00.000Z","message":{
                "role":"assistant","provider":"openrouter","model":model,"api":"openai-completions","content":[],
                "usage":usage,"stopReason":stop,"errorMessage":err,"timestamp":1}})
        };
        let zero = json!({"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}});
        let lines = [
            msg("a/one", zero.clone(), "error", Some("fetch failed")),
            msg("b/two", zero, "error", Some("fetch failed")),
            msg("c/three", json!({"input":120,"output":30,"cacheRead":5,"cacheWrite":0,"cost":{"total":0.002}}), "stop", None),
        ];
        let out: Vec<Entry> = lines.iter().flat_map(|l| run(l, None)).collect();
        let errors: Vec<&str> = out.iter().filter_map(|e| match e { Entry::Stderr { text, .. } => Some(text.as_str()), _ => None }).collect();
        assert_eq!(errors, ["error (openrouter/a/one): fetch failed", "error (openrouter/b/two): fetch failed"]);
        let sum = out.iter().fold((0.0, 0.0, 0.0), |s, e| match e {
            Entry::Result { input_tokens, output_tokens, cost_usd, subtype, is_error, .. } => {
                assert!(subtype == "model_call" && !is_error, "{e:?}");
                (s.0 + input_tokens, s.1 + output_tokens, s.2 + cost_usd)
            }
            _ => s,
        });
        assert_eq!(sum, (120.0, 30.0, 0.002));
    }

    #[test]
    fn session_file_lines_map_readably() {
        let head = json!({"type":"session","id":"s1","cwd":"/x","provider":"anthropic","modelId":"claude"});
        assert_eq!(detect(&head), Confidence::Sure);
        assert!(
            matches!(&run(&head, None)[0], Entry::Init { model, session_id, .. } if model == "anthropic/claude" && session_id == "s1")
        );
        let plain = json!({"type":"message","message":{"role":"assistant","content":"just text","timestamp":1}});
        assert!(
            matches!(&run(&plain, None)[0], Entry::Assistant { text, .. } if text == "just text")
        );
        let goose = json!({"type":"message","message":{"id":"m","role":"assistant","created":1,"content":[]}});
        assert_eq!(detect(&goose), Confidence::No);
        let call = json!({"type":"message","message":{"role":"assistant","api":"x","content":[{"type":"toolCall","id":"c","name":"read","arguments":{}}]}});
        assert!(matches!(&run(&call, None)[0], Entry::ToolCall { .. }));
        let bash = json!({"type":"message","message":{"role":"bashExecution","command":"ls","output":"a","exitCode":2,"cancelled":false,"timestamp":7}});
        let out = run(&bash, None);
        assert!(
            matches!(&out[1], Entry::ToolResult { tool_use_id, is_error: true, content, .. } if tool_use_id == "pi-bash-7" && content == "a\nexit code 2")
        );
    }
}

#[cfg(test)]
mod gateway_injected_tests {
    use crate::entry::Entry;
    use crate::parser::parse_line;

    #[test]
    fn a_gateway_injected_failure_is_an_error_not_the_model_speaking() {
        // OpenClaw session files (pi's format) record the gateway's own notices as assistant
        // messages with `model: "gateway-injected"`.
        let line = r#"{"type":"message","id":"g1","parentId":"a0","timestamp":"2026-02-01T10:00:00.000Z","message":{"role":"assistant","provider":"openclaw","model":"gateway-injected","content":[{"type":"text","text":"⚠️ Agent failed before reply: No API key found for provider anthropic."}],"usage":{"input":0,"output":0},"timestamp":1756548002000}}"#;
        assert!(matches!(&parse_line(line, "t")[..], [Entry::Stderr { text, .. }] if text.starts_with("⚠️ Agent failed")));
        let notice = line.replace("⚠️ Agent failed before reply: No API key found for provider anthropic.", "Run resumed after restart");
        assert!(matches!(&parse_line(&notice, "t")[..], [Entry::System { text, .. }] if text == "OpenClaw: Run resumed after restart"));
    }
}
