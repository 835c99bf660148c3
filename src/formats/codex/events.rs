//! Codex protocol events (`EventMsg`): the `msg` of the legacy `codex exec --json` wire
//! (`{"id":"1","msg":{"type":"exec_command_begin",…}}`) and the `payload` of rollout
//! `event_msg` lines. Same types, two roles:
//!
//! - [`Source::Legacy`]: the events are the transcript; everything is shown.
//! - [`Source::Rollout`]: `user_message`, `agent_message`, `agent_reasoning*` and the tool
//!   events repeat what `response_item` lines record. The stateless path shows the
//!   `response_item` copy only; the stateful path shows whichever copy comes first and
//!   drops the other when it matches (see `docs/formats/codex.md`).

use crate::prelude::*;
use super::exec::{error_message, phase_channel};
use super::response::{dup_tag, thinking};
use super::{
    command_text, copy_sighting, diff, first_sighting, key, object, result_entry, response, tool_result, unknown,
    State, Usage,
};
use crate::entry::Entry;
use crate::formats::common::{
    self, bool_of, content_text, nonempty_str, path, str_of, type_of, Emit, Owned,
};
use crate::json::{num_text, Json, Value};
use core::fmt::Write;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Source {
    Legacy,
    Rollout,
}

pub(super) fn parse(
    msg: &Value,
    src: Source,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let ty = type_of(msg);
    let rollout = src == Source::Rollout;
    match ty {
        "agent_message" | "agent_reasoning" | "agent_reasoning_raw_content" | "user_message" => {
            let text = str_of(
                msg,
                if ty == "agent_reasoning" || ty == "agent_reasoning_raw_content" {
                    "text"
                } else {
                    "message"
                },
            )
            .unwrap_or("");
            let entry = match ty {
                "agent_message" => {
                    let mut e = Entry::assistant(ts, text);
                    if let Entry::Assistant { channel, .. } = &mut e {
                        *channel = phase_channel(str_of(msg, "phase"));
                    }
                    e
                }
                "user_message" => Entry::user(ts, user_text(msg)),
                _ => thinking(ts, text, ty == "agent_reasoning_raw_content", false),
            };
            let empty = match &entry {
                Entry::User { text, .. } => text.trim().is_empty(),
                _ => text.trim().is_empty(),
            };
            if empty {
                return;
            }
            if rollout {
                // Shown only by a stateful parser that has not seen the response_item copy.
                if copy_sighting(&mut state, key(dup_tag(ty), text)) == Some(true) {
                    out.emit(entry);
                }
                return;
            }
            let covered = state.as_deref_mut().is_some_and(|st| match ty {
                "agent_message" => st.message_deltas.covers(text),
                "agent_reasoning" => st.reasoning_deltas.covers(text),
                "agent_reasoning_raw_content" => st.raw_reasoning_deltas.covers(text),
                // The legacy `{"prompt":…}` line already showed this text.
                _ => st.seen.contains(key(dup_tag(ty), text)),
            });
            if !covered {
                out.emit(entry);
            }
        }
        "agent_message_delta"
        | "agent_message_content_delta"
        | "agent_reasoning_delta"
        | "reasoning_content_delta"
        | "agent_reasoning_raw_content_delta"
        | "reasoning_raw_content_delta" => {
            let delta = str_of(msg, "delta").unwrap_or("");
            if delta.is_empty() {
                return;
            }
            let is_message = ty.starts_with("agent_message");
            let raw = common::has(ty, "raw");
            if let Some(st) = state.as_deref_mut() {
                let buf = if is_message {
                    &mut st.message_deltas
                } else if raw {
                    &mut st.raw_reasoning_deltas
                } else {
                    &mut st.reasoning_deltas
                };
                buf.push(delta);
            }
            out.emit(if is_message {
                Entry::assistant_delta(ts, delta)
            } else {
                thinking(ts, delta, raw, true)
            });
        }
        // A paragraph break between reasoning summaries: nothing to show.
        "agent_reasoning_section_break" => {}
        "exec_command_begin"
        | "exec_command_end"
        | "patch_apply_begin"
        | "patch_apply_end"
        | "mcp_tool_call_begin"
        | "mcp_tool_call_end"
        | "web_search_begin"
        | "web_search_end"
        | "view_image_tool_call" => tool_event(msg, ty, rollout, ts, state, out),
        // Output chunks (base64): the end event carries the complete stdout/stderr.
        "exec_command_output_delta" | "terminal_interaction" => {}
        "token_count" => token_count(msg, ts, state, out),
        // A turn's start carries nothing of its own (as `turn.started` in exec output).
        "task_started" | "turn_started" => {}
        "task_complete" | "turn_complete" => {
            // `token_count` totals are the session's running total: the result carries what
            // this turn added, so results summed (as the host does) give the session total.
            let usage = match state.as_deref_mut() {
                Some(s) => {
                    let total = s.usage.unwrap_or_default();
                    let turn = total.since(s.reported);
                    s.reported = total;
                    turn
                }
                None => Default::default(),
            };
            out.emit(result_entry(
                ts,
                str_of(msg, "last_agent_message").unwrap_or(""),
                usage,
                false,
                Vec::new(),
            ));
        }
        "turn_aborted" => {
            let reason = nonempty_str(msg, "reason").unwrap_or("unknown reason");
            out.emit(Entry::system(ts, format!("turn aborted: {reason}")));
        }
        "error" | "stream_error" => {
            let text = error_message(msg.get("message"))
                .unwrap_or_else(|| "codex error (no message)".owned());
            out.emit(Entry::stderr(ts, text));
        }
        "warning" => out
            .push(Entry::system(ts, format!("warning: {}", str_of(msg, "message").unwrap_or("")))),
        "background_event" => {
            out.emit(Entry::system(ts, str_of(msg, "message").unwrap_or("background event")))
        }
        "plan_update" => out.emit(Entry::system(ts, plan_text(msg))),
        "turn_diff" => {
            // The turn's aggregated diff repeats the patch_apply_begin changes: one line.
            let files: Vec<&str> = str_of(msg, "unified_diff")
                .unwrap_or("")
                .lines()
                .filter_map(|l| l.strip_prefix("+++ b/").or_else(|| l.strip_prefix("+++ ")))
                .collect();
            out.emit(Entry::system(
                ts,
                format!("turn diff: {} file(s) changed {}", files.len(), common::join(&files, ", ")),
            ));
        }
        "exec_approval_request" => out.emit(Entry::system(
            ts,
            format!(
                "approval requested to run: {}{}",
                command_text(msg.get("command")),
                reason_suffix(msg)
            ),
        )),
        "apply_patch_approval_request" => {
            let files = msg.get("changes").map(diff::change_names).unwrap_or_default();
            out.emit(Entry::system(
                ts,
                format!("approval requested to patch: {}{}", common::join(&files, ", "), reason_suffix(msg)),
            ));
        }
        "session_configured" => out.emit(Entry::init(
            ts,
            nonempty_str(msg, "model").unwrap_or("codex"),
            str_of(msg, "session_id").unwrap_or(""),
        )),
        "entered_review_mode" => out.emit(Entry::system(ts, "entered review mode")),
        "exited_review_mode" => out.emit(Entry::system(ts, "exited review mode")),
        "context_compacted" => out.emit(Entry::system(ts, "context compacted")),
        "deprecation_notice" => {
            let summary = str_of(msg, "summary").unwrap_or("");
            out.emit(Entry::system(ts, format!("deprecation notice: {summary}")));
        }
        "raw_response_item" => match msg.get("item") {
            Some(item) => response::response_item(item, ts, state, out),
            None => out.emit(unknown(ts, "event: raw_response_item", msg)),
        },
        // Replies to UI requests and session bookkeeping: not transcript content.
        "shutdown_complete"
        | "conversation_path"
        | "get_history_entry_response"
        | "mcp_list_tools_response"
        | "list_custom_prompts_response"
        | "list_skills_response" => {}
        _ => out.emit(unknown(ts, &format!("event: {}", common::event_name(msg)), msg)),
    }
}

fn user_text(msg: &Value) -> String {
    let mut text = str_of(msg, "message").unwrap_or("").owned();
    let images = msg.get("images").and_then(Value::as_array).map_or(0, Vec::len)
        + msg.get("local_images").and_then(Value::as_array).map_or(0, Vec::len);
    if images > 0 {
        let _ = write!(text, "\n[{images} image(s)]");
    }
    text
}

fn reason_suffix(msg: &Value) -> String {
    nonempty_str(msg, "reason").map(|r| format!(" ({r})")).unwrap_or_default()
}

fn tool_event(
    msg: &Value,
    ty: &str,
    rollout: bool,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    // In a rollout these repeat the response_item function_call / function_call_output of
    // the same call_id: stateless shows nothing, stateful the first copy only.
    if rollout && state.is_none() {
        return;
    }
    let id = str_of(msg, "call_id").unwrap_or("").owned();
    let is_begin = ty.ends_with("_begin") || ty == "view_image_tool_call";
    let (name, input) = call_of(msg, ty);
    let call_first = first_sighting(&mut state, key("call", &id));
    if is_begin {
        // Legacy streams have no second copy: every begin is shown.
        if call_first != Some(false) || !rollout {
            out.emit(Entry::tool_call(ts, name, input, Some(id)));
            if ty == "patch_apply_begin" {
                if let Some(changes) = msg.get("changes") {
                    diff::change_map(changes, ts, out);
                }
            }
        }
        return;
    }
    if call_first == Some(true) {
        // A stateful parser that never saw the begin event shows the call first.
        out.emit(Entry::tool_call(ts, name.clone(), input, Some(id.clone())));
    }
    if first_sighting(&mut state, key("result", &id)) == Some(false) && rollout {
        return;
    }
    let (content, is_error, duration) = result_of(msg, ty);
    out.emit(tool_result(ts, &id, Some(&name), content, is_error, duration));
}

fn call_of(msg: &Value, ty: &str) -> (String, Json) {
    match ty {
        "exec_command_begin" | "exec_command_end" => {
            let input = object([
                ("command", Some(Json::from(command_text(msg.get("command"))))),
                ("cwd", msg.get("cwd").filter(|c| c.is_string()).map(Value::to_json)),
            ]);
            ("shell".owned(), input)
        }
        "patch_apply_begin" | "patch_apply_end" => {
            let files = msg.get("changes").map(diff::change_names).unwrap_or_default();
            let input = object([
                ("files", (!files.is_empty()).then(|| Json::from(files))),
                ("auto_approved", msg.get("auto_approved").map(Value::to_json)),
            ]);
            ("apply_patch".owned(), input)
        }
        "mcp_tool_call_begin" | "mcp_tool_call_end" => {
            let inv = msg.get("invocation").unwrap_or(&Value::Null);
            let server = str_of(inv, "server").unwrap_or("");
            let tool = str_of(inv, "tool").unwrap_or("tool");
            let name = if server.is_empty() { tool.owned() } else { format!("{server}.{tool}") };
            let args =
                inv.get("arguments").filter(|a| !a.is_null()).map(Value::to_json).unwrap_or_else(|| common::empty_object());
            (name, args)
        }
        "view_image_tool_call" => {
            ("view_image".owned(), object([("path", msg.get("path").map(Value::to_json))]))
        }
        _ => ("web_search".owned(), super::search::input(msg)),
    }
}

/// Result text, error flag and the runtime's own duration (ms) of an end event.
fn result_of(msg: &Value, ty: &str) -> (String, bool, Option<u64>) {
    let duration = duration_ms(msg);
    match ty {
        "exec_command_end" => {
            let code = msg.get("exit_code").and_then(Value::as_i64).unwrap_or(0);
            let mut text = match nonempty_str(msg, "aggregated_output") {
                Some(a) => a.trim_end().owned(),
                None => {
                    let (o, e) =
                        (str_of(msg, "stdout").unwrap_or(""), str_of(msg, "stderr").unwrap_or(""));
                    common::join(
                        [o.trim_end(), e.trim_end()].into_iter().filter(|s| !s.is_empty()),
                        "\n",
                    )
                }
            };
            if code != 0 {
                if !text.is_empty() {
                    text.push('\n');
                }
                let _ = write!(text, "exit code {code}");
            } else if text.is_empty() {
                text.push_str("(no output)");
            }
            let failed = code != 0 || matches!(str_of(msg, "status"), Some("failed" | "declined"));
            (text, failed, duration)
        }
        "patch_apply_end" => {
            let (o, e) = (str_of(msg, "stdout").unwrap_or(""), str_of(msg, "stderr").unwrap_or(""));
            let text = common::join(
                [o.trim_end(), e.trim_end()].into_iter().filter(|s| !s.is_empty()),
                "\n",
            );
            let ok = msg.get("success").and_then(Value::as_bool).unwrap_or(true);
            (
                if text.is_empty() {
                    if ok { "patch applied" } else { "patch failed" }.owned()
                } else {
                    text
                },
                !ok,
                duration,
            )
        }
        "mcp_tool_call_end" => {
            let result = msg.get("result").unwrap_or(&Value::Null);
            if let Some(err) = result.get("Err") {
                return (
                    error_message(Some(err)).unwrap_or_else(|| "tool failed".owned()),
                    true,
                    duration,
                );
            }
            let ok = result.get("Ok").unwrap_or(result);
            let mut text = ok.get("content").map(content_text).unwrap_or_default();
            if text.is_empty() {
                if let Some(sc) =
                    ok.get("structuredContent").or_else(|| ok.get("structured_content"))
                {
                    text = common::compact_json(sc);
                }
            }
            let is_error = bool_of(ok, "isError") || bool_of(ok, "is_error");
            (if text.is_empty() { "(no output)".owned() } else { text }, is_error, duration)
        }
        "web_search_end" => {
            let (text, is_error) = super::search::result(msg);
            (text, is_error, duration)
        }
        _ => (String::new(), false, duration),
    }
}

/// `duration` as serde writes `std::time::Duration` (`{"secs","nanos"}`), or `duration_ms`.
fn duration_ms(msg: &Value) -> Option<u64> {
    if let Some(ms) = msg.get("duration_ms").and_then(Value::as_u64) {
        return Some(ms);
    }
    let d = msg.get("duration")?;
    let secs = d.get("secs").and_then(Value::as_u64)?;
    let nanos = d.get("nanos").and_then(Value::as_u64).unwrap_or(0);
    Some(secs.saturating_mul(1000).saturating_add(nanos / 1_000_000))
}

/// Token usage: the flat legacy shape, or `{info: {last_token_usage, total_token_usage}}`.
/// A count with no usage (rate limits only) shows nothing. With `last_token_usage` (one
/// model call's own tokens) the count is a `result` carrying that call: the host sums
/// results, so a rollout without `task_complete`, or one cut short, still adds up to its
/// `total_token_usage`, read alone or not. The flat legacy shape stays a notice, its
/// tokens counted by the next `task_complete` (stateful).
fn token_count(msg: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    // (session total, the call's own usage, the flat legacy shape)
    let (total, mut call, flat) = match msg.get("info") {
        Some(Value::Null) => return,
        Some(info) => (
            info.get("total_token_usage").map(Usage::from_value).unwrap_or_default(),
            info.get("last_token_usage").map(Usage::from_value),
            false,
        ),
        None if msg.get("input_tokens").is_some() || msg.get("output_tokens").is_some() => {
            (Usage::from_value(msg), None, true)
        }
        None => return,
    };
    if let Some(st) = state {
        if st.usage == Some(total) {
            return; // the same count again
        }
        st.usage = Some(total);
        if let Some(last) = call.as_mut() {
            // Counted here: the next `task_complete` adds only what comes after. What the
            // total adds since the last count also holds counts that had no
            // `last_token_usage`; a total that went down (another session) starts over.
            let grew = [
                (total.input, st.reported.input),
                (total.output, st.reported.output),
                (total.cached, st.reported.cached),
            ]
            .iter()
            .all(|(t, r)| t >= r);
            if grew {
                *last = total.since(st.reported);
            }
            st.reported = total;
        }
    }
    let text = |u: Usage| {
        if flat {
            format!("tokens: {}", u.text())
        } else {
            format!("tokens: {} · session total {}", u.text(), num_text(total.total))
        }
    };
    match call {
        Some(u) => {
            let mut e = result_entry(ts, &text(u), u, false, Vec::new());
            if let Entry::Result { subtype, .. } = &mut e {
                *subtype = common::MODEL_CALL.owned();
            }
            out.emit(e)
        }
        None => out.emit(Entry::system(ts, text(total))),
    }
}

fn plan_text(msg: &Value) -> String {
    let mut text = "plan:".owned();
    if let Some(e) = nonempty_str(msg, "explanation") {
        let _ = write!(text, " {e}");
    }
    for step in path(msg, &["plan"]).and_then(Value::as_array).into_iter().flatten() {
        let mark = match str_of(step, "status") {
            Some("completed") => "[x]",
            Some("in_progress") => "[~]",
            _ => "[ ]",
        };
        let _ = write!(text, "\n{mark} {}", str_of(step, "step").unwrap_or(""));
    }
    text
}
