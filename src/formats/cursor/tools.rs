//! Cursor tool calls: the tool name from the `tool_call` key, the input (`args` without
//! Cursor's bookkeeping) and a readable result (`result.success|failure|error|…`).

use crate::prelude::*;
use super::super::common::{self, str_of, Owned};
use crate::json::{self, Json, Value};

/// `shellToolCall` → `shell`; `function` → its `name`; MCP calls → `mcp:<tool>`.
pub(super) fn tool_name(key: &str, inner: &Value) -> String {
    if key == "function" {
        return str_of(inner, "name").unwrap_or("function").owned();
    }
    if key == "mcpToolCall" {
        let args = inner.get("args").unwrap_or(&Value::Null);
        let tool = str_of(args, "toolName")
            .or_else(|| str_of(args, "name"))
            .unwrap_or("tool");
        return match str_of(args, "providerIdentifier") {
            Some(p) => format!("mcp:{p}/{tool}"),
            None => format!("mcp:{tool}"),
        };
    }
    key.strip_suffix("ToolCall")
        .filter(|s| !s.is_empty())
        .unwrap_or(key)
        .owned()
}

pub(super) fn tool_input(key: &str, inner: &Value) -> Json {
    if key == "function" {
        return match inner.get("arguments") {
            Some(Value::String(s)) => {
                match json::read::parse(s) {
                    Some(v) => v.to_json(),
                    None => Json::from(s.owned()),
                }
            }
            Some(other) => other.to_json(),
            None => Json::Object(Default::default()),
        };
    }
    let mut args = inner
        .get("args")
        .map(Value::to_json)
        .unwrap_or(Json::Object(Default::default()));
    if let Some(map) = args.as_object_mut() {
        // The call id again, and Cursor's own shell-parser annotations: bookkeeping, not input.
        map.remove("toolCallId");
        if key == "shellToolCall" {
            for k in SHELL_BOOKKEEPING {
                map.remove(k);
            }
            for k in ["workingDirectory", "isBackground"] {
                if map.get(k).is_some_and(|v| v.as_str() == Some("") || v.as_bool() == Some(false)) {
                    map.remove(k);
                }
            }
        }
    }
    args
}

/// Keys of `shellToolCall.args` that describe how Cursor parsed the command, not the call.
const SHELL_BOOKKEEPING: &[&str] = &[
    "simpleCommands",
    "hasInputRedirect",
    "hasOutputRedirect",
    "parsingResult",
    "fileOutputThresholdBytes",
    "skipApproval",
    "timeoutBehavior",
];

/// Readable tool output, whether it failed, and the run time Cursor reports (ms).
pub(super) fn tool_output(result: Option<&Value>) -> (String, bool, Option<u64>) {
    let Some(r) = result else {
        return ("(no result)".owned(), false, None);
    };
    let Some(map) = r.as_object() else {
        return (common::content_text(r), false, None);
    };
    let outcome = [
        "success",
        "failure",
        "error",
        "rejected",
        "timeout",
        "permissionDenied",
    ]
    .into_iter()
    .find(|k| map.contains_key(k));
    let Some(outcome) = outcome else {
        return (common::compact_json(r), false, None);
    };
    let body = map.get(outcome).unwrap_or(&Value::Null);
    let mut text = readable(body);
    let mut is_error = outcome != "success";
    if let Some(code) = body.get("exitCode").and_then(Value::as_i64) {
        if code != 0 {
            is_error = true;
            text = if text.is_empty() {
                format!("exit code {code}")
            } else {
                format!("{text}\nexit code {code}")
            };
        }
    }
    if text.is_empty() {
        text = if is_error {
            outcome.owned()
        } else {
            "(no output)".owned()
        };
    }
    let duration = body
        .get("executionTime")
        .and_then(Value::as_f64)
        .filter(|d| *d >= 0.0)
        .map(|d| d as u64);
    (text, is_error, duration)
}

fn readable(body: &Value) -> String {
    match body {
        Value::String(s) => s.to_string(),
        Value::Object(_) => {
            if body.get("stdout").is_some() || body.get("interleavedOutput").is_some() {
                let inter = str_of(body, "interleavedOutput").unwrap_or("");
                if !inter.is_empty() {
                    return inter.owned();
                }
                let parts = ["stdout", "stderr"]
                    .iter()
                    .filter_map(|k| str_of(body, k))
                    .filter(|s| !s.is_empty());
                return common::join(parts, "\n");
            }
            for k in [
                "content",
                "output",
                "text",
                "message",
                "errorMessage",
                "error",
                "resultForModel",
                "diffString",
            ] {
                match body.get(k) {
                    Some(Value::String(s)) => return s.to_string(),
                    // MCP results: `content` is a list of text/image blocks.
                    Some(blocks @ Value::Array(_)) => return common::content_text(blocks),
                    _ => {}
                }
            }
            if let Some(p) = str_of(body, "path") {
                let lines = body.get("linesCreated").and_then(Value::as_u64);
                return match lines {
                    Some(n) => format!("wrote {p} ({n} lines)"),
                    None => p.owned(),
                };
            }
            common::compact_json(body)
        }
        Value::Null => String::new(),
        other => common::content_text(other),
    }
}
