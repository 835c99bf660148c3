//! Codex session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
//! `{"timestamp","type","payload"}` line per record. `session_meta` opens the file,
//! `turn_context` repeats the turn's settings, `response_item` is the model's history
//! (messages, reasoning, tool calls and outputs), `event_msg` the UI events (read by
//! `events`), `compacted` a history compaction. Older rollouts (before the wrapper) hold
//! the bare response items after a `{"id","timestamp","instructions"}` header; they are
//! read by the same code (`response`).

use crate::prelude::*;
use super::events;
use super::response::response_item;
use super::{key, unknown, State};
use crate::entry::Entry;
use crate::formats::common::{self, nonempty_str, str_of, type_of, Emit, Owned};
use crate::json::Value;

pub(super) fn parse(
    v: &Value,
    ty: &str,
    ts: &str,
    state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let payload = v.get("payload").unwrap_or(&Value::Null);
    match ty {
        "session_meta" => session_meta(payload, ts, out),
        "turn_context" => turn_context(payload, ts, state, out),
        "response_item" => response_item(payload, ts, state, out),
        "event_msg" => events::parse(payload, events::Source::Rollout, ts, state, out),
        "compacted" => {
            let summary = str_of(payload, "message").unwrap_or("");
            let text = if summary.is_empty() {
                "context compacted".owned()
            } else {
                format!("context compacted; summary:\n{summary}")
            };
            out.emit(Entry::system(ts, text));
        }
        _ => out.emit(unknown(ts, ty, v)),
    }
}

fn session_meta(p: &Value, ts: &str, out: &mut Vec<Entry>) {
    // The meta line may nest the fields under `meta` (with `git` beside it).
    let m = p.get("meta").filter(|m| m.is_object()).unwrap_or(p);
    let id = nonempty_str(m, "id").or_else(|| nonempty_str(m, "session_id")).unwrap_or("");
    out.emit(Entry::init(ts, nonempty_str(m, "model").unwrap_or("codex"), id));
    let mut parts = Vec::new();
    for (label, k) in [
        ("originator", "originator"),
        ("cli", "cli_version"),
        ("provider", "model_provider"),
        ("cwd", "cwd"),
    ] {
        if let Some(s) = nonempty_str(m, k) {
            parts.push(format!("{label} {s}"));
        }
    }
    let git = p.get("git").or_else(|| m.get("git"));
    if let Some(branch) = git.and_then(|g| nonempty_str(g, "branch")) {
        parts.push(format!("git branch {branch}"));
    }
    if !parts.is_empty() {
        out.emit(Entry::system(ts, format!("codex session: {}", common::join(&parts, " · "))));
    }
}

/// Settings repeated before every model request. Stateless: nothing (they repeat; the
/// session line names the session). Stateful: one system line whenever they change.
fn turn_context(p: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let Some(st) = state else { return };
    // The model of the turn, for the results that follow (`codex::parse` names it on them).
    if let Some(m) = nonempty_str(p, "model") {
        st.model = Some(m.owned());
    }
    let mut parts = Vec::new();
    for (label, k) in
        [("model", "model"), ("effort", "effort"), ("approval", "approval_policy"), ("cwd", "cwd")]
    {
        if let Some(s) = nonempty_str(p, k) {
            parts.push(format!("{label} {s}"));
        }
    }
    if let Some(mode) =
        p.get("sandbox_policy").and_then(|s| str_of(s, "mode").or_else(|| s.as_str()))
    {
        parts.push(format!("sandbox {mode}"));
    }
    let text = format!("turn settings: {}", common::join(&parts, " · "));
    let k = key("turn-context", &text);
    if st.turn_context != Some(k) {
        st.turn_context = Some(k);
        out.emit(Entry::system(ts, text));
    }
}

/// `{"id","timestamp","instructions"}`: the header of pre-0.3x rollouts.
pub(super) fn is_old_header(v: &Value) -> bool {
    v.get("type").is_none()
        && str_of(v, "id").is_some()
        && str_of(v, "timestamp").is_some()
        && (v.get("instructions").is_some() || v.get("git").is_some())
}

pub(super) fn old_header(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    if v.get("record_type").is_some() {
        return; // `{"record_type":"state"}` markers carry nothing to show
    }
    out.emit(Entry::init(ts, "codex", str_of(v, "id").unwrap_or("")));
}

/// A Responses-API item on its own line (pre-0.3x rollouts).
pub(super) fn is_bare_response_item(v: &Value) -> bool {
    if v.get("payload").is_some() || v.get("msg").is_some() {
        return false;
    }
    let has = |k: &str| v.get(k).is_some();
    match type_of(v) {
        "function_call" => has("call_id") && str_of(v, "arguments").is_some(),
        "function_call_output" | "custom_tool_call_output" => has("call_id") && has("output"),
        "custom_tool_call" => has("call_id") && has("input"),
        "local_shell_call" | "web_search_call" => has("action"),
        "reasoning" => v.get("summary").is_some_and(Value::is_array),
        "message" => {
            str_of(v, "role").is_some()
                && v.get("content").and_then(Value::as_array).and_then(|a| a.first()).is_some_and(
                    |b| matches!(type_of(b), "input_text" | "output_text" | "input_image"),
                )
        }
        _ => false,
    }
}
