//! Claude lines that are neither messages nor `system`: stream-json extras
//! (`rate_limit_event`, `tool_progress`, `auth_status`, `tool_use_summary`, control
//! messages, …) and session-file bookkeeping (`progress`, `file-history-snapshot`,
//! `queue-operation`, `summary`, titles, `attachment`, …). Each becomes one short `system`
//! entry, except subagent messages carried by `agent_progress`, shown as messages.

use crate::prelude::*;
use super::super::common::{self, clip, path, str_of, type_of, Emit, Owned};
use super::text::{first_line, plural, utc};
use crate::entry::Entry;
use crate::json::{self, Value};
use core::fmt::Write;

/// Session-file line types that are pure bookkeeping (no message), all Claude's own.
const SESSION_BOOKKEEPING: &[&str] = &[
    "file-history-snapshot",
    "file-history-delta",
    "queue-operation",
    "custom-title",
    "ai-title",
    "last-prompt",
    "cost-state",
    "permission-mode",
    "atis-latch",
    "bridge-session",
];

pub(super) fn is_session_bookkeeping(t: &str) -> bool {
    SESSION_BOOKKEEPING.contains(&t)
}

/// Top-level types that are neither messages nor `system`. Returns false if unknown.
pub(super) fn notice(v: &Value, ts: &str, out: &mut Vec<Entry>) -> bool {
    let ty = type_of(v);
    let text = match ty {
        // `allowed`: Claude Code's note at the start of a run that the account is within its
        // limits (a row saying "rate limit" there reads as if one was hit). Warnings and
        // refusals show.
        "rate_limit_event" => {
            let info = v.get("rate_limit_info").unwrap_or(&Value::Null);
            if str_of(info, "status") == Some("allowed") {
                return true;
            }
            rate_limit(info)
        }
        // Live progress of a running call: its result follows, and a row here would stand
        // between the calls the host groups.
        "tool_progress" => return true,
        "auth_status" => {
            if let Some(e) = common::nonempty_str(v, "error") {
                format!("authentication error: {}", clip(e, 300))
            } else {
                let lines: Vec<&str> = v
                    .get("output")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let head = if common::bool_of(v, "isAuthenticating") {
                    "authenticating"
                } else {
                    "authentication"
                };
                if lines.is_empty() {
                    head.owned()
                } else {
                    format!("{head}: {}", clip(&common::join(&lines, " "), 300))
                }
            }
        }
        "keep_alive" => "keep-alive".owned(),
        "tool_use_summary" => format!(
            "tool summary: {}",
            clip(str_of(v, "summary").unwrap_or(""), 300)
        ),
        "prompt_suggestion" => format!(
            "suggested prompt: {}",
            clip(str_of(v, "suggestion").unwrap_or(""), 300)
        ),
        "active_goal" => match path(v, &["value", "condition"]).and_then(Value::as_str) {
            Some(c) => format!("goal: {}", clip(c, 300)),
            None => "goal cleared".owned(),
        },
        "control_request" => {
            let req = v.get("request").unwrap_or(&Value::Null);
            let mut t = format!("control request: {}", str_of(req, "subtype").unwrap_or("?"));
            if let Some(tool) = str_of(req, "tool_name") {
                let _ = write!(t, " ({tool})");
            }
            t
        }
        "control_response" => {
            let sub = path(v, &["response", "subtype"])
                .and_then(Value::as_str)
                .unwrap_or("?");
            format!("control response: {sub}")
        }
        "control_cancel_request" => "control request cancelled".owned(),
        // A session file's `summary` line is the title Claude Code gave a conversation leaf
        // (`leafUuid`), most often another conversation's (none of 17 real ones belonged to
        // the file it was in): shown between a call and its result it misled. Not shown.
        "summary" if v.get("leafUuid").is_some() => return true,
        "summary" => format!("summary: {}", clip(str_of(v, "summary").unwrap_or(""), 300)),
        "attachment" => attachment(v.get("attachment").unwrap_or(&Value::Null)),
        // An update is Claude Code backing up a file an edit call is about to change: live
        // bookkeeping of that call, which would stand between the calls the host groups.
        "file-history-snapshot" | "file-history-delta" if common::bool_of(v, "isSnapshotUpdate") => {
            return true
        }
        "file-history-snapshot" | "file-history-delta" => {
            let files = path(v, &["snapshot", "trackedFileBackups"])
                .and_then(Value::as_object)
                .map(|m| m.len());
            let what = "saved";
            match files {
                // Claude Code saves one at every prompt, most with nothing tracked yet: a row
                // saying nothing between the prompt and its answer.
                Some(0) => return true,
                Some(n) => format!(
                    "file history snapshot {what} ({} tracked)",
                    plural(n as f64, "file")
                ),
                None => format!("file history {what}"),
            }
        }
        "queue-operation" => {
            let op = str_of(v, "operation").unwrap_or("update");
            match common::nonempty_str(v, "content") {
                Some(c) => format!("queue {op}: {}", clip(&first_line(c), 200)),
                None => format!("queue {op}"),
            }
        }
        "custom-title" | "ai-title" => {
            let t = str_of(v, "customTitle")
                .or_else(|| str_of(v, "aiTitle"))
                .or_else(|| str_of(v, "title"));
            format!("session title: {}", t.unwrap_or("?"))
        }
        "last-prompt" => match str_of(v, "lastPrompt") {
            Some(p) => format!("last prompt: {}", clip(p, 200)),
            None => "last prompt".owned(),
        },
        "permission-mode" | "mode" => {
            let m = str_of(v, "permissionMode").or_else(|| str_of(v, "mode"));
            format!("{}: {}", ty.replace('-', " "), m.unwrap_or("?"))
        }
        t if is_session_bookkeeping(t) => t.replace('-', " "),
        _ => return false,
    };
    out.emit(Entry::system(ts, text));
    true
}

fn rate_limit(info: &Value) -> String {
    let status = str_of(info, "status").unwrap_or("?");
    let mut parts = Vec::new();
    if let Some(kind) = str_of(info, "rateLimitType") {
        parts.push(kind.owned());
    }
    if let Some(u) = info.get("utilization").and_then(Value::as_f64) {
        parts.push(format!("{}% used", json::fixed(u * 100.0, 0)));
    }
    if status != "allowed" {
        if let Some(r) = info.get("resetsAt").and_then(Value::as_i64) {
            parts.push(format!("resets {}", utc(r)));
        }
    }
    if parts.is_empty() {
        format!("rate limit: {status}")
    } else {
        format!("rate limit: {status} ({})", common::join(&parts, ", "))
    }
}

fn attachment(a: &Value) -> String {
    let kind = str_of(a, "type").unwrap_or("unknown");
    if kind.starts_with("hook_") {
        let name = str_of(a, "hookName")
            .or_else(|| str_of(a, "hookEvent"))
            .unwrap_or("?");
        let body = a
            .get("content")
            .map(common::content_text)
            .unwrap_or_default();
        let body = body.trim();
        if body.is_empty() {
            format!(
                "hook {name}: {}",
                common::trim_start_all(kind, "hook_").replace('_', " ")
            )
        } else {
            format!("hook {name}: {}", clip(body, 200))
        }
    } else {
        format!("attachment: {}", kind.replace('_', " "))
    }
}

/// A session-file `progress` line. Subagent messages (`agent_progress`) are shown as the
/// messages they carry, marked with the parent tool call.
pub(super) fn progress(runtime: &str, v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let data = v.get("data").unwrap_or(&Value::Null);
    let text = match type_of(data) {
        // Progress of one tool call (its hooks running, its output so far, its MCP or search
        // status): the call's result carries the outcome, and a row here would stand between
        // the calls the host groups, so these show nothing.
        "hook_progress" if is_tool_hook(data) => return,
        "bash_progress" | "mcp_progress" | "query_update" | "search_results_received" => return,
        "hook_progress" => {
            let name = str_of(data, "hookName")
                .or_else(|| str_of(data, "hookEvent"))
                .unwrap_or("?");
            match common::nonempty_str(data, "command") {
                Some(c) => format!("hook {name}: {}", clip(c, 120)),
                None => format!("hook {name}"),
            }
        }
        "agent_progress" => {
            let nested = data.get("message").unwrap_or(&Value::Null);
            let role = type_of(nested);
            if matches!(role, "user" | "assistant")
                && nested.get("message").is_some_and(Value::is_object)
            {
                let parent = str_of(v, "parentToolUseID");
                super::message_line(runtime, nested, role, parent, ts, None, out);
                return;
            }
            "subagent progress".owned()
        }
        "waiting_for_task" => format!(
            "waiting for task: {}",
            clip(str_of(data, "taskDescription").unwrap_or("?"), 200)
        ),
        "" => "progress".owned(),
        other => {
            let fields = common::short_fields(data, 2);
            if fields.is_empty() {
                format!("progress: {}", other.replace('_', " "))
            } else {
                format!("progress: {} ({fields})", other.replace('_', " "))
            }
        }
    };
    out.emit(Entry::system(ts, text));
}

/// Hooks that run around one tool call (their outcome shows in the call's result).
pub(super) fn is_tool_hook(v: &Value) -> bool {
    let event = str_of(v, "hookEvent")
        .or_else(|| str_of(v, "hook_event"))
        .unwrap_or("");
    matches!(event, "PreToolUse" | "PostToolUse" | "PostToolUseFailure")
}
