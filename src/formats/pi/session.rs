//! pi session files (`~/.pi/agent/sessions/…/*.jsonl`, written by pi's SessionManager) and the
//! message shapes they share with `--mode json`.
//!
//! Entries: `session` header {id, cwd, provider, modelId, thinkingLevel, version?,
//! branchedFrom?}; `message` {message{role user|assistant|toolResult|bashExecution|custom|
//! branchSummary|compactionSummary}}; `model_change`; `thinking_level_change`; `compaction`
//! {summary, tokensBefore}; `branch_summary`; `custom`; `custom_message`; `label`;
//! `session_info`. Message content blocks: `text`, `thinking`, `image`, `toolCall{id, name,
//! arguments}`; tool results carry `toolCallId`, `toolName`, `isError`.
//!
//! Evidence: corpus `pi-json/pi-session-large-session.jsonl` and
//! `bench/pi-session-before-compaction.jsonl` (pi-mono test fixtures), pi-mono
//! `packages/agent/src/types.ts` and SessionManager entry types (read via the code index).

use crate::prelude::*;
use super::super::common::{self, num_of, str_of, type_of, Emit, Owned};
use crate::entry::Entry;
use crate::json::{self, Json, Value};
use core::fmt::Write;

/// Longest compaction/branch summary shown in a system line.
const SUMMARY_CHARS: usize = 600;

/// Entries for a session-file line (and the `session` header of `--mode json`).
/// Returns false when the type is not a session-file type.
pub fn parse_entry(v: &Value, ts: &str, out: &mut Vec<Entry>) -> bool {
    match type_of(v) {
        "session" => {
            let model = match (str_of(v, "provider"), str_of(v, "modelId")) {
                (Some(p), Some(m)) => format!("{p}/{m}"),
                (None, Some(m)) => m.owned(),
                _ => "unknown".owned(),
            };
            out.emit(Entry::init(ts, model, str_of(v, "id").unwrap_or("")));
        }
        "message" => match v.get("message") {
            Some(m) => {
                message(m, ts, true, out);
                // A session file has no `agent_end`: each assistant message's own usage is a
                // `result`, so the host's sum over results is the session's total.
                if let Some(r) = call_result(m, ts) {
                    out.emit(r);
                }
            }
            None => out.emit(common::unknown_event(ts, "pi", v)),
        },
        "model_change" => {
            let model = common::join(
                [str_of(v, "provider"), str_of(v, "modelId")]
                    .into_iter()
                    .flatten(),
                "/",
            );
            out.emit(Entry::system(ts, format!("model changed to {model}")));
        }
        "thinking_level_change" => {
            let level = str_of(v, "thinkingLevel")
                .or_else(|| str_of(v, "level"))
                .unwrap_or("?");
            out.emit(Entry::system(ts, format!("thinking level: {level}")));
        }
        "compaction" => {
            let mut text = "context compacted".owned();
            if let Some(n) = v.get("tokensBefore").and_then(Value::as_f64) {
                let _ = write!(text, " ({} tokens before)", json::num_text(n));
            }
            if let Some(s) = str_of(v, "summary").filter(|s| !s.trim().is_empty()) {
                text.push_str(": ");
                text.push_str(&common::clip(s.trim(), SUMMARY_CHARS));
            }
            out.emit(Entry::system(ts, text));
        }
        "branch_summary" => {
            let s = str_of(v, "summary").unwrap_or("");
            out.emit(Entry::system(
                ts,
                format!("branch summary: {}", common::clip(s.trim(), SUMMARY_CHARS)),
            ));
        }
        "custom_message" => {
            let text = common::content_text(v.get("content").unwrap_or(&Value::Null));
            let kind = str_of(v, "customType").unwrap_or("custom");
            out.emit(Entry::system(
                ts,
                format!("{kind}: {}", common::clip(text.trim(), SUMMARY_CHARS)),
            ));
        }
        "custom" => out.emit(Entry::system(ts, custom_text(v))),
        "label" => {
            let label = str_of(v, "label").unwrap_or("");
            out.emit(Entry::system(ts, format!("label: {label}")));
        }
        "session_info" => {
            let name = str_of(v, "name").unwrap_or("");
            out.emit(Entry::system(ts, format!("session name: {name}")));
        }
        _ => return false,
    }
    true
}

/// A `custom` entry (extension state): OpenClaw's `model-snapshot` names the provider, model
/// and API in use; any other kind keeps the human text of its `data` (nothing a person wrote
/// is dropped).
fn custom_text(v: &Value) -> String {
    let kind = str_of(v, "customType").unwrap_or("extension");
    let data = v.get("data").unwrap_or(&Value::Null);
    if kind == "model-snapshot" {
        let model = common::join(
            [str_of(data, "provider"), str_of(data, "modelId")].into_iter().flatten(),
            "/",
        );
        let mut text = if model.is_empty() {
            "model snapshot".owned()
        } else {
            format!("model: {model}")
        };
        if let Some(api) = common::nonempty_str(data, "modelApi") {
            let _ = write!(text, " (api {api})");
        }
        return text;
    }
    let mut text = format!("extension state saved ({kind})");
    let more = common::human_texts(data).render(&text);
    text.push_str(&more);
    text
}

/// Entries for one pi message. `with_tool_calls`: show assistant `toolCall` blocks (session
/// files); on the stdout stream `tool_execution_start` shows the call instead.
pub fn message(m: &Value, ts: &str, with_tool_calls: bool, out: &mut Vec<Entry>) {
    match str_of(m, "role").unwrap_or("") {
        "user" => {
            let text = common::content_text(m.get("content").unwrap_or(&Value::Null));
            if !text.trim().is_empty() {
                // OpenClaw's session files (this format) keep the gateway's sender envelope.
                match common::without_sender_envelope(&text) {
                    (Some(name), msg) => out.emit(Entry::user(ts, format!("[{name}] {msg}"))),
                    (None, msg) => out.emit(Entry::user(ts, msg)),
                }
            }
        }
        // OpenClaw's gateway writes its own notices into the transcript as assistant
        // messages (`model: "gateway-injected"`, `"delivery-mirror"`): the model did not say
        // them. A failure ("⚠️ Agent failed before reply: No API key found…") is an error.
        "assistant" if from_gateway(m) => {
            let text = common::content_text(m.get("content").unwrap_or(&Value::Null));
            let text = text.trim();
            if text.is_empty() {
                return;
            }
            let lower = text.to_ascii_lowercase();
            if text.starts_with('⚠') || ["failed", "error", "no api key"].iter().any(|w| common::has(&lower, w)) {
                out.emit(Entry::stderr(ts, text));
            } else {
                out.emit(Entry::system(ts, format!("OpenClaw: {text}")));
            }
        }
        "assistant" => {
            for block in blocks(m) {
                match type_of(block) {
                    "text" => push_text(block, "text", ts, false, out),
                    _ if block.is_string() => push_text(block, "text", ts, false, out),
                    "thinking" => push_text(block, "thinking", ts, true, out),
                    "toolCall" if with_tool_calls => out.emit(tool_call(block, ts)),
                    "toolCall" => {}
                    "image" => out.emit(Entry::assistant(ts, common::content_text(block))),
                    other => out.emit(Entry::system(
                        ts,
                        format!(
                            "pi: {} content block not shown",
                            if other.is_empty() { "untyped" } else { other }
                        ),
                    )),
                }
            }
            stop_notice(m, ts, out);
        }
        "toolResult" => out.emit(tool_result(m, ts)),
        "bashExecution" => bash_execution(m, ts, out),
        other => {
            let text = common::content_text(
                m.get("content")
                    .or_else(|| m.get("summary"))
                    .unwrap_or(&Value::Null),
            );
            // pi 0.86 on opens a run with its system prompt as an empty `system` message.
            if text.trim().is_empty() {
                return;
            }
            let label = if other.is_empty() { "message" } else { other };
            out.emit(Entry::system(
                ts,
                format!("{label}: {}", common::clip(text.trim(), SUMMARY_CHARS)),
            ));
        }
    }
}

/// The content blocks of a message (a string content counts as one text block).
pub fn blocks<'a, 'v>(m: &'a Value<'v>) -> Vec<&'a Value<'v>> {
    match m.get("content") {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(s @ Value::String(_)) => vec![s],
        _ => Vec::new(),
    }
}

fn push_text(block: &Value, key: &str, ts: &str, thinking: bool, out: &mut Vec<Entry>) {
    let text = match block {
        Value::String(s) => s,
        _ => str_of(block, key).unwrap_or(""),
    };
    // OpenClaw's session files (this format) keep the reply's delivery directives.
    let text = if thinking { text } else { common::without_reply_tags(text) };
    if text.trim().is_empty() {
        return;
    }
    out.emit(if thinking {
        Entry::thinking(ts, text)
    } else {
        Entry::assistant(ts, text)
    });
}

/// A stderr/system line when an assistant message ended in an error or was aborted.
pub fn stop_notice(m: &Value, ts: &str, out: &mut Vec<Entry>) {
    let reason = str_of(m, "stopReason").unwrap_or("");
    let msg = str_of(m, "errorMessage").filter(|s| !s.is_empty());
    match (reason, msg) {
        ("aborted", msg) => {
            // pi's own wording ("Request was aborted.") says nothing more than the notice.
            let detail = msg
                .filter(|m| !m.starts_with("Request was aborted"))
                .map(|m| format!(": {m}"));
            out.emit(Entry::system(
                ts,
                format!("request aborted{}", detail.unwrap_or_default()),
            ));
        }
        // The model named: a run that falls back from model to model repeats the same
        // message ("fetch failed") once per model.
        (_, Some(msg)) => out.emit(Entry::stderr(ts, format!("error{}: {msg}", model_of(m)))),
        ("error", None) => out.emit(Entry::stderr(ts, format!("error{}: the model request failed", model_of(m)))),
        _ => {}
    }
}

/// ` (provider/model)` for an error line, or nothing when the message names no model.
fn model_of(m: &Value) -> String {
    match (common::nonempty_str(m, "provider"), common::nonempty_str(m, "model")) {
        (Some(p), Some(id)) if !id.starts_with(p) => format!(" ({p}/{id})"),
        (_, Some(id)) => format!(" ({id})"),
        _ => String::new(),
    }
}

fn tool_call(block: &Value, ts: &str) -> Entry {
    let name = str_of(block, "name").unwrap_or("tool");
    let input = block
        .get("arguments")
        .map(Value::to_json)
        .unwrap_or(Json::Object(Default::default()));
    Entry::tool_call(ts, name, input, str_of(block, "id").map(str::owned))
}

fn tool_result(m: &Value, ts: &str) -> Entry {
    let id = str_of(m, "toolCallId").unwrap_or("");
    let name = str_of(m, "toolName").map(str::owned);
    let content = common::content_text(m.get("content").unwrap_or(&Value::Null));
    // OpenClaw's tools also say a failure in `details.status` (`isError` stays false).
    let failed = m.get("isError").and_then(Value::as_bool).unwrap_or(false)
        || m.get("details").and_then(|d| str_of(d, "status")).is_some_and(|s| s == "error" || s == "failed");
    Entry::tool_result(ts, id, name, content, failed)
}

/// A `!command` the user ran: a `bash` call and its result, with an id made from its time.
fn bash_execution(m: &Value, ts: &str, out: &mut Vec<Entry>) {
    let command = str_of(m, "command").unwrap_or("");
    let id = format!("pi-bash-{}", json::num_text(num_of(m, "timestamp")));
    out.emit(Entry::tool_call(
        ts,
        "bash",
        common::object([("command", Some(command.into()))]),
        Some(id.clone()),
    ));
    let mut content = str_of(m, "output").unwrap_or("").owned();
    let code = m.get("exitCode").and_then(Value::as_i64);
    let cancelled = m.get("cancelled").and_then(Value::as_bool).unwrap_or(false);
    if let Some(c) = code.filter(|c| *c != 0) {
        let _ = write!(content, "\nexit code {c}");
    }
    if cancelled {
        content.push_str("\n(cancelled)");
    }
    out.emit(Entry::tool_result(
        ts,
        id,
        Some("bash".owned()),
        content.trim_start_matches('\n'),
        code.is_some_and(|c| c != 0) || cancelled,
    ));
}

/// An assistant message OpenClaw's gateway wrote itself (`model: "gateway-injected"`,
/// `"delivery-mirror"`), not the model.
fn from_gateway(m: &Value) -> bool {
    matches!(str_of(m, "model"), Some("gateway-injected" | "delivery-mirror"))
}

/// One assistant message's usage as a `result` (subtype `model_call`), for session files;
/// `None` for other roles, messages without usage and the gateway's own notices.
fn call_result(m: &Value, ts: &str) -> Option<Entry> {
    if str_of(m, "role") != Some("assistant")
        || m.get("usage").is_none()
        || from_gateway(m)
    {
        return None;
    }
    let mut r = run_result(core::slice::from_ref(m), ts)?;
    if let Entry::Result { subtype, is_error, errors, .. } = &mut r {
        // The message's stop notice already says how it ended.
        *subtype = common::MODEL_CALL.owned();
        *is_error = false;
        errors.clear();
    }
    Some(r)
}

/// Sums the usage of the assistant messages of a run into a `result` entry (agent_end).
pub fn run_result(messages: &[Value], ts: &str) -> Option<Entry> {
    let assistants: Vec<&Value> = messages
        .iter()
        .filter(|m| str_of(m, "role") == Some("assistant"))
        .collect();
    let last = assistants.last()?;
    let sum = |key: &str| {
        assistants
            .iter()
            .map(|m| num_of(m.get("usage").unwrap_or(&Value::Null), key))
            .sum::<f64>()
    };
    let cost: f64 = assistants
        .iter()
        .map(|m| {
            m.get("usage")
                .and_then(|u| u.get("cost"))
                .map(|c| num_of(c, "total"))
                .unwrap_or(0.0)
        })
        .sum();
    let reason = str_of(last, "stopReason").unwrap_or("stop");
    let errors: Vec<String> = str_of(last, "errorMessage")
        .filter(|s| !s.is_empty())
        .map(str::owned)
        .into_iter()
        .collect();
    Some(Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: sum("input"),
        output_tokens: sum("output"),
        cached_tokens: sum("cacheRead"),
        // A count: a negative sum (a broken usage block) is no figure at all.
        cache_creation_tokens: Some(sum("cacheWrite")).filter(|n| n.is_finite() && *n >= 0.0),
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        // The model, where every message of the sum names the same one.
        model: str_of(last, "model")
            .filter(|m| !m.is_empty() && assistants.iter().all(|a| str_of(a, "model") == Some(m)))
            .map(str::owned),
        call_id: None,
        // Summing binary fractions leaves noise like 0.0025399999999999997.
        cost_usd: json::round(cost * 1e9) / 1e9,
        subtype: reason.owned(),
        is_error: matches!(reason, "error" | "aborted"),
        errors,
    })
}

#[cfg(test)]
mod details_status_tests {
    use crate::{parse_line, Entry};

    #[test]
    fn a_tool_result_whose_details_say_error_is_an_error() {
        let line = r#"{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"exec","content":[{"type":"text","text":"sh: foo: not found"}],"details":{"status":"error","exitCode":127},"isError":false,"timestamp":1772359202000}}"#;
        let got = parse_line(line, "T");
        assert!(got.iter().any(|e| matches!(e, Entry::ToolResult { is_error: true, .. })), "{got:?}");
    }
}
