//! `codex exec --json` thread events (codex ≥ 0.44): `thread.started`, `turn.started`,
//! `turn.completed` (usage), `turn.failed`, `item.started|updated|completed` with typed
//! items, `item.plan.delta`, `request_user_input` and the top-level `error`.
//!
//! Commands, MCP calls and collab calls become a `tool_call` on `item.started` and a
//! `tool_result` (same id: the item id) on `item.completed`; `item.updated` shows nothing
//! (the completed line repeats it). A stateful parser that saw no `item.started` for an id
//! emits the missing `tool_call` right before the result, so a stream that starts mid-run
//! still shows the command. File changes and web searches are shown whole (call, diff,
//! result) on `item.completed`: older codex prints no started line for them.

use crate::prelude::*;
use super::{diff, first_sighting, key, object, result_entry, tool_result, unknown, State, Usage};
use crate::entry::Entry;
use crate::formats::common::{
    self, bool_of, content_text, nonempty_str, str_of, type_of, Emit, Owned,
};
use crate::json::{Json, Value};
use core::fmt::Write;

#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Started,
    Updated,
    Completed,
}

pub(super) fn parse(
    v: &Value,
    ty: &str,
    ts: &str,
    state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    match ty {
        "thread.started" => out.emit(Entry::init(
            ts,
            nonempty_str(v, "model").unwrap_or("codex"),
            str_of(v, "thread_id").unwrap_or(""),
        )),
        // A turn's start carries nothing (its prompt, calls and end say what happened): a row
        // for it would stand between the rows the host groups.
        "turn.started" => {}
        "turn.completed" => {
            let usage = turn_usage(v, state);
            out.emit(result_entry(ts, "", usage, false, Vec::new()));
        }
        "turn.failed" => {
            let usage = turn_usage(v, state);
            let msg = error_message(v.get("error")).unwrap_or_else(|| "turn failed".owned());
            out.emit(result_entry(ts, "", usage, true, vec![msg]));
        }
        "error" => {
            let msg = error_message(v.get("message")).or_else(|| error_message(v.get("error")));
            out.emit(Entry::stderr(ts, msg.unwrap_or_else(|| "codex error (no message)".owned())));
        }
        "item.started" | "item.updated" | "item.completed" => {
            let phase = match ty {
                "item.started" => Phase::Started,
                "item.updated" => Phase::Updated,
                _ => Phase::Completed,
            };
            match v.get("item").filter(|i| i.is_object()) {
                Some(item) => parse_item(item, ty, phase, ts, state, out),
                None => out.emit(unknown(ts, ty, v)),
            }
        }
        "item.plan.delta" => {
            let id = str_of(v, "item_id").unwrap_or("");
            let delta = str_of(v, "delta").unwrap_or("");
            if let Some(st) = state {
                st.seen.insert(key("plan-delta", id));
            }
            if !delta.is_empty() {
                out.emit(with_item_id(Entry::assistant_delta(ts, delta), id));
            }
        }
        "request_user_input" => out.emit(Entry::system(ts, questions_text(v))),
        _ => out.emit(unknown(ts, &format!("event: {}", common::event_name(v)), v)),
    }
}

fn parse_item(
    item: &Value,
    ty: &str,
    phase: Phase,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let id = str_of(item, "id").unwrap_or("");
    let item_ty = type_of(item);
    match item_ty {
        // Text items arrive complete in `item.completed` (codex never streams them as
        // started/updated; if it did, the completed line would repeat the full text).
        "agent_message" if phase == Phase::Completed => {
            let text = str_of(item, "text").unwrap_or("");
            if !text.is_empty() {
                let mut e = with_item_id(Entry::assistant(ts, text), id);
                if let Entry::Assistant { channel, .. } = &mut e {
                    *channel = phase_channel(str_of(item, "phase"));
                }
                out.emit(e);
            }
        }
        "plan" if phase == Phase::Completed => {
            let streamed = state.as_deref().is_some_and(|s| s.seen.contains(key("plan-delta", id)));
            let text = str_of(item, "text").unwrap_or("");
            if !streamed && !text.is_empty() {
                out.emit(with_item_id(Entry::assistant(ts, text), id));
            }
        }
        "reasoning" if phase == Phase::Completed => {
            let text = str_of(item, "text").unwrap_or("");
            if !text.is_empty() {
                let mut e = with_item_id(Entry::thinking(ts, text), id);
                if let Entry::Thinking { channel, .. } = &mut e {
                    *channel = Some("summary");
                }
                out.emit(e);
            }
        }
        "agent_message" | "plan" | "reasoning" => {}
        "error" => {
            if phase == Phase::Completed {
                let msg = error_message(item.get("message")).unwrap_or_else(|| "error".owned());
                out.emit(Entry::stderr(ts, msg));
            }
        }
        "todo_list" => {
            let text = todo_text(item.get("items"));
            if first_sighting(&mut state, key(&format!("todo:{id}"), &text)) != Some(false) {
                out.emit(Entry::system(ts, text));
            }
        }
        "command_execution" | "file_change" | "mcp_tool_call" | "collab_tool_call"
        | "web_search" | "tool_use" => tool_item(item, item_ty, phase, ts, state, out),
        // Generic `tool_use`/`tool_result` items (not codex exec's own: the host's codex
        // reader takes them from other writers of this format).
        "tool_result" if phase == Phase::Completed => {
            let (content, failed) = result_of(item, item_ty);
            let call = nonempty_str(item, "tool_use_id").unwrap_or(id);
            out.emit(tool_result(ts, call, None, content, failed || bool_of(item, "is_error"), None));
        }
        "tool_result" => {}
        _ => out.emit(unknown(
            ts,
            &format!("{ty}: {}", if item_ty.is_empty() { "untyped item" } else { item_ty }),
            item,
        )),
    }
}

fn tool_item(
    item: &Value,
    item_ty: &str,
    phase: Phase,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let (name, input) = call_of(item, item_ty);
    let id = match nonempty_str(item, "id") {
        Some(id) => id.owned(),
        // No id in the data: one derived from what the call is, the same on both lines.
        None => format!("codex-{item_ty}-{:016x}", key(&name, &common::compact_json(&input))),
    };
    // File changes and web searches are over in an instant and older codex prints only
    // their completed line: they are shown whole (call, diff, result) on item.completed.
    let single_shot = matches!(item_ty, "file_change" | "web_search");
    match phase {
        Phase::Started if !single_shot => {
            first_sighting(&mut state, key("call", &id));
            out.emit(Entry::tool_call(ts, name, input, Some(id)));
        }
        Phase::Started | Phase::Updated => {}
        Phase::Completed => {
            if single_shot || first_sighting(&mut state, key("call", &id)) == Some(true) {
                out.emit(Entry::tool_call(ts, name.clone(), input, Some(id.clone())));
            }
            if item_ty == "file_change" {
                file_change_diffs(item, ts, out);
            }
            let (content, is_error) = result_of(item, item_ty);
            out.emit(tool_result(ts, &id, Some(&name), content, is_error, None));
        }
    }
}

/// The tool name and input a tool-like item is shown with.
fn call_of(item: &Value, item_ty: &str) -> (String, Json) {
    match item_ty {
        "command_execution" => (
            "command_execution".owned(),
            object([("command", Some(str_of(item, "command").unwrap_or("").into()))]),
        ),
        "file_change" => {
            let changes: Vec<Json> = changes_of(item)
                .take(MAX_LISTED_CHANGES)
                .map(|(path, kind)| {
                    object([("path", Some(path.into())), ("kind", Some(kind.into()))])
                })
                .collect();
            let more = changes_of(item).count().saturating_sub(MAX_LISTED_CHANGES);
            let input = object([
                ("changes", Some(Json::Array(changes))),
                ("changes_not_listed", (more > 0).then(|| more.into())),
            ]);
            ("file_change".owned(), input)
        }
        "mcp_tool_call" => {
            let server = str_of(item, "server").unwrap_or("");
            let tool = str_of(item, "tool").unwrap_or("tool");
            let name = if server.is_empty() { tool.owned() } else { format!("{server}.{tool}") };
            let args = match item.get("arguments") {
                None | Some(Value::Null) => common::empty_object(),
                Some(a) => a.to_json(),
            };
            (name, args)
        }
        "collab_tool_call" => {
            let input = object([
                ("prompt", item.get("prompt").filter(|p| !p.is_null()).map(Value::to_json)),
                ("receiver_thread_ids", item.get("receiver_thread_ids").map(Value::to_json)),
            ]);
            (str_of(item, "tool").unwrap_or("collab_tool_call").owned(), input)
        }
        "web_search" => ("web_search".owned(), super::search::input(item)),
        "tool_use" => (
            str_of(item, "name").unwrap_or("unknown").owned(),
            item.get("input").filter(|i| !i.is_null()).map_or_else(|| common::empty_object(), Value::to_json),
        ),
        _ => (item_ty.owned(), object([("path", item.get("path").map(Value::to_json))])),
    }
}

/// The result text of a completed tool-like item, and whether it failed.
fn result_of(item: &Value, item_ty: &str) -> (String, bool) {
    let status = str_of(item, "status").unwrap_or("");
    let failed = matches!(status, "failed" | "declined" | "error" | "errored" | "cancelled");
    match item_ty {
        "command_execution" => {
            let exit = item.get("exit_code").and_then(Value::as_i64);
            let mut text = str_of(item, "aggregated_output").unwrap_or("").trim_end().owned();
            match exit {
                Some(code) if code != 0 => push_line(&mut text, &format!("exit code {code}")),
                _ if status == "declined" => push_line(&mut text, "command declined"),
                _ if text.is_empty() => text.push_str("(no output)"),
                _ => {}
            }
            (text, failed || exit.is_some_and(|c| c != 0))
        }
        "file_change" => {
            let mut lines: Vec<String> =
                changes_of(item).take(MAX_LISTED_CHANGES).map(|(p, k)| format!("{k} {p}")).collect();
            let more = changes_of(item).count().saturating_sub(MAX_LISTED_CHANGES);
            if more > 0 {
                lines.push(format!("… {more} more changes not listed"));
            }
            if failed {
                lines.insert(0, format!("patch {status}"));
            }
            (common::join(&lines, "\n"), failed)
        }
        "mcp_tool_call" => {
            let err = item.get("error").filter(|e| !e.is_null());
            if let Some(e) = err {
                return (error_message(Some(e)).unwrap_or_else(|| "tool failed".owned()), true);
            }
            let result = item.get("result").filter(|r| !r.is_null());
            let mut text =
                result.and_then(|r| r.get("content")).map(content_text).unwrap_or_default();
            if text.is_empty() {
                if let Some(sc) =
                    result.and_then(|r| r.get("structured_content")).filter(|s| !s.is_null())
                {
                    text = common::compact_json(sc);
                }
            }
            let is_error =
                failed || result.is_some_and(|r| bool_of(r, "is_error") || bool_of(r, "isError"));
            (if text.is_empty() { format!("({status})") } else { text }, is_error)
        }
        "collab_tool_call" => {
            let mut lines = Vec::new();
            if let Some(states) = item.get("agents_states").and_then(Value::as_object) {
                for (thread, st) in states {
                    let s = str_of(st, "status").unwrap_or("?");
                    match nonempty_str(st, "message") {
                        Some(m) => lines.push(format!("{thread}: {s}: {m}")),
                        None => lines.push(format!("{thread}: {s}")),
                    }
                }
            }
            if lines.is_empty() {
                lines.push(status.owned());
            }
            (common::join(&lines, "\n"), failed)
        }
        "web_search" => super::search::result(item),
        // A string, an object's `message` (else its JSON); the status (`done`) when none.
        "tool_use" | "tool_result" => {
            let text = ["content", "output", "result", "error", "message"]
                .iter()
                .find_map(|k| error_message(item.get(k)));
            let none = if status.is_empty() { "done" } else { status };
            (text.unwrap_or_else(|| none.owned()), failed || bool_of(item, "is_error"))
        }
        _ => (if status.is_empty() { "done".owned() } else { status.owned() }, failed),
    }
}

/// Changes of one file_change item listed in its call and result (real items list a few;
/// the diff entries have their own budget, `diff::MAX_DIFF_LINES`).
const MAX_LISTED_CHANGES: usize = 400;

/// `(path, kind)` of each change of a file_change item.
fn changes_of<'a>(item: &'a Value) -> impl Iterator<Item = (&'a str, &'a str)> {
    item.get("changes").and_then(Value::as_array).into_iter().flatten().map(change_of)
}

fn change_of<'a>(c: &'a Value) -> (&'a str, &'a str) {
    let kind = match c.get("kind") {
        Some(Value::String(k)) => k,
        Some(k) => str_of(k, "type").unwrap_or("update"),
        None => "update",
    };
    (str_of(c, "path").unwrap_or("?"), kind)
}

/// One `file_header` per change (`path (kind)`), then the change's diff lines when the
/// item carries them (newer codex puts a unified `diff` on each change).
fn file_change_diffs(item: &Value, ts: &str, out: &mut Vec<Entry>) {
    let mut budget = diff::Budget::default();
    for c in item.get("changes").and_then(Value::as_array).into_iter().flatten() {
        let (path, kind) = change_of(c);
        budget.push(ts, "file_header", &format!("{path} ({kind})"), out);
        if let Some(d) = nonempty_str(c, "diff") {
            diff::unified(d, ts, &mut budget, out);
        }
    }
    budget.finish(ts, out);
}

fn todo_text(items: Option<&Value>) -> String {
    let mut text = "todo list:".owned();
    for it in items.and_then(Value::as_array).into_iter().flatten() {
        let mark = if bool_of(it, "completed") { "[x]" } else { "[ ]" };
        let _ = write!(text, "\n{mark} {}", str_of(it, "text").unwrap_or(""));
    }
    text
}

fn questions_text(v: &Value) -> String {
    let mut text = "codex asks:".owned();
    for q in v.get("questions").and_then(Value::as_array).into_iter().flatten() {
        let header = nonempty_str(q, "header").map(|h| format!("{h}: ")).unwrap_or_default();
        let _ = write!(text, "\n{header}{}", str_of(q, "question").unwrap_or(""));
        let options: Vec<&str> = q
            .get("options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|o| str_of(o, "label").or_else(|| o.as_str()))
            .collect();
        if !options.is_empty() {
            let _ = write!(text, " [{}]", common::join(&options, " / "));
        }
    }
    text
}

/// `commentary` → `progress`, `final_answer` → `final` (the host's channel names).
pub(super) fn phase_channel(phase: Option<&str>) -> Option<&'static str> {
    match phase? {
        "commentary" => Some("progress"),
        "final_answer" | "final" => Some("final"),
        _ => Some("unknown"),
    }
}

pub(super) fn with_item_id(mut e: Entry, id: &str) -> Entry {
    if !id.is_empty() {
        if let Entry::Assistant { item_id, .. } | Entry::Thinking { item_id, .. } = &mut e {
            *item_id = Some(id.owned());
        }
    }
    e
}

/// An error value's message: a string, or an object's `message`.
pub(super) fn error_message(v: Option<&Value>) -> Option<String> {
    match v? {
        s @ (Value::String(_) | Value::Object(_)) => common::error_text(s),
        _ => None,
    }
}

fn push_line(text: &mut String, line: &str) {
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(line);
}

/// A turn's `usage` is the thread's running total (it carries on across `codex exec
/// resume`): read alone, the line's figures as they are (a run that resumed a thread reports
/// the thread's total); the stateful parser keeps what this turn added to the last total
/// it saw, so results summed (the host's rule) give the thread's total once. A total that
/// went down is another thread: it counts from 0.
fn turn_usage(v: &Value, state: Option<&mut State>) -> Usage {
    let total = v.get("usage").map(Usage::from_value).unwrap_or_default();
    let Some(st) = state else { return total };
    let before = st.reported;
    let grew = total.input >= before.input && total.output >= before.output && total.cached >= before.cached;
    st.reported = total;
    if grew { total.since(before) } else { total }
}
