//! Claude `system` lines (stream-json and session files): `init` becomes the `init`
//! entry, every other subtype one short readable `system` entry (compaction, API retries,
//! hooks, background tasks, slash-command output, …); unknown subtypes are named with
//! their first readable text field. Never raw JSON.

use crate::prelude::*;
use super::super::common::{self, clip, num_of, str_of, Emit, Owned};
use crate::json::{num_text, Value};
use super::text::{duration, first_line, kilo, nested_message, plural, strip_ansi, tagged_text};
use crate::entry::Entry;
use core::fmt::Write;

/// `system` subtypes only Claude Code (or Qwen Code) prints.
const CLAUDE_SUBTYPES: &[&str] = &[
    "compact_boundary",
    "status",
    "api_retry",
    "api_error",
    "hook_started",
    "hook_progress",
    "hook_response",
    "task_started",
    "task_progress",
    "task_updated",
    "task_notification",
    "thinking_tokens",
    "background_tasks_changed",
    "local_command",
    "local_command_output",
    "stop_hook_summary",
    "turn_duration",
    "informational",
    "session_state_changed",
    "files_persisted",
    "plugin_install",
    "permission_denied",
    "memory_recall",
    "elicitation_complete",
    "model_refusal_fallback",
    "model_refusal_no_fallback",
    "post_turn_summary",
    "worker_shutting_down",
    "commands_changed",
    "mirror_error",
    "conversation_reset",
];

pub(super) fn is_claude_subtype(s: &str) -> bool {
    CLAUDE_SUBTYPES.contains(&s)
}

/// A `type: "system"` line.
pub(super) fn system(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let sub = str_of(v, "subtype").unwrap_or("");
    let text = match sub {
        // Qwen Code names it `session_start`; its dual-output channel puts the session in
        // `data` (`{session_id, cwd}`).
        "init" | "session_start" => {
            let data = v.get("data").unwrap_or(&Value::Null);
            let model = str_of(v, "model").unwrap_or("unknown");
            let session = str_of(v, "session_id")
                .or_else(|| str_of(v, "sessionId"))
                .or_else(|| str_of(data, "session_id"))
                .unwrap_or("");
            out.emit(Entry::init(ts, model, session));
            return;
        }
        // A failure the CLI reports as a system line (Qwen Code's `system/error`, read by its
        // adapter as stderr): an error, not a notice.
        "error" => {
            let msg = v.get("error").map(nested_message).filter(|m| !m.is_empty());
            let msg = msg.or_else(|| common::nonempty_str(v, "message").map(str::to_owned));
            out.emit(Entry::stderr(ts, msg.unwrap_or_else(|| "error".owned())));
            return;
        }
        "compact_boundary" => compacted(v),
        "status" => status(v),
        "api_retry" => {
            let mut t = format!(
                "API retry {}/{} in {}",
                num_text(num_of(v, "attempt")),
                num_text(num_of(v, "max_retries")),
                duration(num_of(v, "retry_delay_ms"))
            );
            if let Some(e) = str_of(v, "error") {
                t.push_str(": ");
                t.push_str(e);
            }
            if let Some(s) = v.get("error_status").and_then(Value::as_f64) {
                let _ = write!(t, " (HTTP {})", num_text(s));
            }
            t
        }
        "api_error" => {
            let mut t = "API error".owned();
            if v.get("retryAttempt").is_some() {
                let _ = write!(
                    t,
                    " (retry {}/{} in {})",
                    num_text(num_of(v, "retryAttempt")),
                    num_text(num_of(v, "maxRetries")),
                    duration(num_of(v, "retryInMs"))
                );
            }
            let msg = v.get("error").map(nested_message).unwrap_or_default();
            if !msg.is_empty() {
                t.push_str(": ");
                t.push_str(&clip(&msg, 300));
            }
            t
        }
        // A hook around one tool call shows only when it did not succeed: the rest is live
        // progress that would stand between the calls the host groups.
        "hook_started" | "hook_progress" | "hook_response"
            if super::notice::is_tool_hook(v) && !hook_failed(sub, v) =>
        {
            return
        }
        "hook_started" | "hook_progress" | "hook_response" => hook(sub, v),
        "task_started" => {
            let mut t = format!("task started: {}", str_of(v, "description").unwrap_or("?"));
            let kind = str_of(v, "subagent_type").or_else(|| str_of(v, "task_type"));
            match (kind, common::bool_of(v, "is_backgrounded")) {
                (Some(k), true) => _ = write!(t, " ({k}, background)"),
                (Some(k), false) => _ = write!(t, " ({k})"),
                (None, true) => t.push_str(" (background)"),
                (None, false) => {}
            }
            t
        }
        // Live progress of a background task: its calls and its end notice follow, and a row
        // here would stand between the calls the host groups.
        "task_progress" => return,
        "task_updated" => {
            let id = str_of(v, "task_id").unwrap_or("?");
            let patch = v.get("patch").unwrap_or(&Value::Null);
            let mut t = format!("task {id} updated");
            if let Some(s) = str_of(patch, "status") {
                t = format!("task {id}: {s}");
            }
            if let Some(e) = str_of(patch, "error") {
                let _ = write!(t, " ({})", clip(e, 200));
            }
            t
        }
        // A background subagent's summary is its whole report, which its own last message
        // (and the Task result) already shows: the first line says which task ended.
        "task_notification" => {
            let status = str_of(v, "status").unwrap_or("done");
            match str_of(v, "summary").filter(|s| !s.is_empty()) {
                Some(s) => format!("task {status}: {}", clip(&first_line(s), 300)),
                None => format!("task {status}"),
            }
        }
        // A live tick of the thinking-token estimate, several per second while the model
        // thinks: a finished transcript read as a column of them. The
        // true count is in the result's output tokens, so the tick shows nothing.
        "thinking_tokens" => return,
        "background_tasks_changed" => {
            let tasks = v
                .get("tasks")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            if tasks.is_empty() {
                "background tasks: none".owned()
            } else {
                let names = tasks.iter().take(5).map(|t| {
                    str_of(t, "description")
                        .or_else(|| str_of(t, "task_id"))
                        .unwrap_or("?")
                });
                format!(
                    "background tasks ({}): {}",
                    tasks.len(),
                    common::join(names, "; ")
                )
            }
        }
        "local_command" | "local_command_output" => {
            let content = str_of(v, "content").unwrap_or("").trim();
            if let Some(e) = tagged_text(content, ts) {
                if let Some(e) = e {
                    out.emit(e);
                }
                return;
            }
            format!("local command: {}", clip(&strip_ansi(content), 300))
        }
        "stop_hook_summary" => {
            let mut t = format!("{} ran at stop", plural(num_of(v, "hookCount"), "hook"));
            let errors = v
                .get("hookErrors")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            if !errors.is_empty() {
                let first = errors.first().map(common::content_text).unwrap_or_default();
                let _ = write!(t, ", {} failed: {}", errors.len(), clip(&first, 200));
            }
            if common::bool_of(v, "preventedContinuation") {
                t.push_str(", stopped the turn");
                if let Some(r) = common::nonempty_str(v, "stopReason") {
                    let _ = write!(t, ": {}", clip(r, 200));
                }
            }
            t
        }
        "turn_duration" => format!("turn took {}", duration(num_of(v, "durationMs"))),
        _ => generic(sub, v),
    };
    out.emit(Entry::system(ts, text));
}

fn compacted(v: &Value) -> String {
    let meta = v
        .get("compact_metadata")
        .or_else(|| v.get("compactMetadata"))
        .unwrap_or(&Value::Null);
    let mut parts = Vec::new();
    if let Some(t) = str_of(meta, "trigger") {
        parts.push(format!("trigger: {t}"));
    }
    let pre = meta
        .get("pre_tokens")
        .or_else(|| meta.get("preTokens"))
        .and_then(Value::as_f64);
    let post = meta
        .get("post_tokens")
        .or_else(|| meta.get("postTokens"))
        .and_then(Value::as_f64);
    match (pre, post) {
        (Some(a), Some(b)) => parts.push(format!("{} → {} tokens", kilo(a), kilo(b))),
        (Some(a), None) => parts.push(format!("{} tokens before", kilo(a))),
        _ => {}
    }
    if parts.is_empty() {
        "compacted conversation".owned()
    } else {
        format!("compacted conversation ({})", common::join(&parts, ", "))
    }
}

fn status(v: &Value) -> String {
    if str_of(v, "compact_result") == Some("failed") {
        return match str_of(v, "compact_error") {
            Some(e) => format!("compaction failed: {}", clip(e, 200)),
            None => "compaction failed".owned(),
        };
    }
    if str_of(v, "compact_result") == Some("success") {
        return "compaction finished".owned();
    }
    match (str_of(v, "status"), str_of(v, "permissionMode")) {
        (Some(s), _) => format!("status: {s}"),
        (None, Some(m)) => format!("permission mode: {m}"),
        (None, None) => "status: idle".owned(),
    }
}

fn hook_failed(sub: &str, v: &Value) -> bool {
    sub == "hook_response"
        && (num_of(v, "exit_code") != 0.0
            || !matches!(str_of(v, "outcome").unwrap_or("success"), "success" | "finished"))
}

fn hook(sub: &str, v: &Value) -> String {
    let name = str_of(v, "hook_name")
        .or_else(|| str_of(v, "hook_event"))
        .unwrap_or("?");
    match sub {
        "hook_started" => format!("hook {name} started"),
        "hook_progress" => {
            let out = str_of(v, "output")
                .or_else(|| str_of(v, "stdout"))
                .unwrap_or("")
                .trim();
            match out.lines().last() {
                Some(l) => format!("hook {name}: {}", clip(l, 200)),
                None => format!("hook {name} running"),
            }
        }
        _ => {
            let outcome = str_of(v, "outcome").unwrap_or("finished");
            let mut t = format!("hook {name} {outcome}");
            let code = num_of(v, "exit_code");
            if code != 0.0 {
                let _ = write!(t, " (exit code {})", num_text(code));
            }
            let detail = [
                str_of(v, "stderr"),
                str_of(v, "output"),
                str_of(v, "stdout"),
            ]
            .into_iter()
            .flatten()
            .map(str::trim)
            .find(|s| !s.is_empty());
            if let Some(d) = detail {
                let _ = write!(t, ": {}", clip(d, 200));
            }
            t
        }
    }
}

/// Any other system subtype: its name plus the first readable text field.
fn generic(sub: &str, v: &Value) -> String {
    let label = if sub.is_empty() {
        "system".owned()
    } else {
        sub.replace('_', " ")
    };
    let keys = [
        "content",
        "text",
        "message",
        "summary",
        "title",
        "description",
        "error",
        "reason",
        "state",
        "status",
    ];
    // An `error` object (`{"error":{"message":…}}`) says its message.
    let nested = || common::path(v, &["error", "message"]).and_then(Value::as_str);
    match keys.iter().find_map(|k| common::nonempty_str(v, k)).or_else(nested) {
        Some(s) => format!("{label}: {}", clip(&strip_ansi(s.trim()), 300)),
        None => {
            let fields = common::short_fields(v, 2);
            if fields.is_empty() {
                label
            } else {
                format!("{label} ({fields})")
            }
        }
    }
}
