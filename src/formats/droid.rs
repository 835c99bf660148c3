//! Factory Droid, `droid exec --output-format stream-json` (droid 0.2x–0.105; older docs call
//! the format `debug`): one event per line, `{"type", …, "session_id", "timestamp"}` with
//! epoch-millisecond timestamps.
//!
//! - `system` / `init` (`cwd`, `session_id`, `tools[]`, `model`) → `init`
//! - `message` (`role` user / assistant, `id`, `text`: the whole message, no deltas) →
//!   `user` / `assistant`; `reasoning` (`text`, newer builds) → `thinking`
//! - `tool_call` (`id`: the provider's call id, `messageId`, `toolName`, `parameters`) →
//!   `tool_call`
//! - `tool_result` (`id`, `isError`, `value`: text, or `error{type, message}`) →
//!   `tool_result`. Some builds leave the `id` out: stateful, such a result answers the
//!   oldest call still open; read alone it has no id to pair by.
//! - `error` (`source`, `message`: how `exec` ended early, e.g. without permission) → `stderr`
//! - `completion` (`finalText`, `numTurns`, `durationMs`, `usage` in newer builds, spelt
//!   `input_tokens`… or `inputTokens`…) → `result`
//!
//! Evidence: real `droid exec` runs of October 2025 (gpt-5-codex and Claude Sonnet 4.5) in
//! BloopAI/vibe-kanban `crates/executors/tests/droid_snapshots/fixtures/` (Apache-2.0; copied
//! to tests/fixtures/droid/ with provenance), which end without a `completion`; its shape
//! (and `reasoning`) is derived from that project's serde types and Factory's docs, marked as
//! such. Details: docs/formats/droid.md.

use crate::prelude::*;
use super::common::{self, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// The calls still waiting for a result, oldest first (for results without an id).
#[derive(Debug, Default)]
pub struct State {
    open: Vec<String>,
}

/// Calls remembered as open at most (a run whose results never come stays bounded).
const MAX_OPEN: usize = 256;
/// The longest call id remembered (droid's are UUID-like, ~40 bytes).
const MAX_ID_BYTES: usize = 256;

pub fn detect(v: &Value) -> Confidence {
    let has = |k: &str| v.get(k).is_some();
    let session = str_of(v, "session_id").is_some();
    let sure = match type_of(v) {
        // Claude's init carries its own marks (and Claude only says Maybe without them).
        "system" => {
            str_of(v, "subtype") == Some("init") && session && has("cwd") && has("tools") && !has("uuid") && !has("apiKeySource")
        }
        "message" | "reasoning" => session && has("text") && has("id") && (has("role") || type_of(v) == "reasoning"),
        "tool_call" => session && has("toolName") && has("messageId"),
        "tool_result" => session && has("messageId") && has("isError"),
        "completion" => session && has("finalText"),
        "error" => str_of(v, "source").is_some() && str_of(v, "message").is_some() && v.get("timestamp").is_some_and(Value::is_number),
        _ => false,
    };
    Confidence::sure_if(sure)
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let s = |k: &str| str_of(v, k).unwrap_or("");
    match type_of(v) {
        "system" => out.emit(Entry::init(ts, nonempty_str(v, "model").unwrap_or("unknown"), s("session_id"))),
        "message" => {
            let t = s("text").trim();
            if t.is_empty() {
                return;
            }
            out.emit(if s("role") == "user" { Entry::user(ts, t) } else { Entry::assistant(ts, t) });
        }
        "reasoning" => {
            let t = s("text").trim();
            if !t.is_empty() {
                out.emit(Entry::thinking(ts, t));
            }
        }
        "tool_call" => {
            let id = nonempty_str(v, "id");
            // An id past MAX_ID_BYTES is not remembered (no droid id is that long): the
            // state stays bounded in bytes as in count.
            if let (Some(st), Some(id)) = (state, id.filter(|i| i.len() <= MAX_ID_BYTES)) {
                if st.open.len() >= MAX_OPEN {
                    st.open.remove(0);
                }
                st.open.push(id.owned());
            }
            let name = nonempty_str(v, "toolName").or_else(|| nonempty_str(v, "toolId")).unwrap_or("tool");
            out.emit(Entry::tool_call(ts, name, common::arguments(v.get("parameters")), id.map(str::owned)));
        }
        "tool_result" => {
            let id = match (nonempty_str(v, "id"), state) {
                (Some(id), Some(st)) => {
                    st.open.retain(|o| o != id);
                    id.owned()
                }
                (Some(id), None) => id.owned(),
                (None, Some(st)) if !st.open.is_empty() => st.open.remove(0),
                (None, _) => String::new(),
            };
            let failed = common::bool_of(v, "isError");
            let content = match (v.get("value"), v.get("error")) {
                (Some(Value::String(t)), _) => t.to_string(),
                (_, Some(e)) if str_of(e, "message").is_some() => s_of(e, "message"),
                (Some(other), _) => common::content_text(other),
                _ => String::new(),
            };
            out.emit(Entry::tool_result(ts, id, None, content, failed));
        }
        "error" => out.emit(Entry::stderr(ts, format!("Droid: {}", s("message")))),
        "completion" => {
            let u = v.get("usage").unwrap_or(&Value::Null);
            let n = |a: &str, b: &str| num_of(u, a) + num_of(u, b);
            out.emit(Entry::Result {
                ts: ts.owned(),
                text: s("finalText").trim().owned(),
                input_tokens: n("input_tokens", "inputTokens"),
                output_tokens: n("output_tokens", "outputTokens") + n("thinking_tokens", "thinkingTokens"),
                cached_tokens: n("cache_read_input_tokens", "cacheReadTokens"),
                cache_creation_tokens: Some(n("cache_creation_input_tokens", "cacheCreationTokens")).filter(|w| *w > 0.0),
                cache_creation_1h_tokens: None,
                reasoning_tokens: Some(n("thinking_tokens", "thinkingTokens")).filter(|r| *r > 0.0),
                model: None,
                call_id: None,
                cost_usd: 0.0,
                subtype: "success".owned(),
                is_error: false,
                errors: Vec::new(),
            });
        }
        _ => out.emit(common::unknown_event(ts, "droid", v)),
    }
}

fn s_of(v: &Value, k: &str) -> String {
    str_of(v, k).unwrap_or("").owned()
}

#[cfg(test)]
mod tests {
    use crate::entry::Entry;
    use crate::parser::StdoutParser;

    /// A result without an id answers the oldest call still open (some droid builds leave
    /// the id out).
    #[test]
    fn results_without_ids_pair_in_order() {
        let call = |id: &str| {
            format!(r#"{{"type":"tool_call","id":"{id}","messageId":"m","toolId":"Read","toolName":"Read","parameters":{{}},"timestamp":1,"session_id":"s"}}"#)
        };
        let result = r#"{"type":"tool_result","messageId":"r","toolId":"","isError":false,"value":"ok","timestamp":2,"session_id":"s"}"#;
        let mut p = StdoutParser::new();
        let ids: Vec<String> = [call("a"), call("b"), result.to_owned(), result.to_owned()]
            .iter()
            .flat_map(|l| p.parse_line(l, "t"))
            .filter_map(|e| match e {
                Entry::ToolResult { tool_use_id, .. } => Some(tool_use_id),
                _ => None,
            })
            .collect();
        assert_eq!(ids, ["a", "b"]);
    }
}
