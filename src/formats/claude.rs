//! Claude Code (and Qwen Code, which prints the same shape).
//!
//! Reads two things through one parser:
//! - `claude -p --output-format stream-json --verbose` stdout (optionally with
//!   `--include-partial-messages`, which adds `stream_event` lines), and Qwen Code's
//!   `--output-format stream-json`, which copies it;
//! - Claude Code session files (`~/.claude/projects/<project>/<session>.jsonl`), which hold
//!   the same `user`/`assistant` records plus bookkeeping (`progress`,
//!   `file-history-snapshot`, `queue-operation`, `summary`, …).
//!
//! Evidence: real captures and session files listed in `tests/fixtures/claude/PROVENANCE.md`
//! (Claude Code 1.0.56 to 2.1.284), the Agent SDK's published `sdk.d.ts` message union
//! (`SDKMessage`: system subtypes, `rate_limit_event`, `tool_progress`, `auth_status`,
//! `stream_event` = `SDKPartialAssistantMessage`) and the Messages API streaming events.
//! The event → entry table is in `docs/formats/claude.md`.
//!
//! Layout: this file reads messages (content blocks, results) and detects; `claude/system.rs`
//! turns `system` subtypes into short `system` entries, `claude/notice.rs` the other
//! non-message lines (stream-json extras, session bookkeeping, `progress`), `claude/text.rs`
//! holds the injected-tag reader and formatting helpers, and `claude/stream.rs` handles
//! `stream_event` and the stateful de-duplication of streamed or repeated text.

use crate::prelude::*;
mod notice;
mod sidechain;
mod stream;
mod system;
mod text;
mod tool_names;

pub use stream::State;

use super::common::{
    self, bool_of, clip, content_text, num_of, str_of, type_of, Confidence, Emit, Owned,
};
use crate::entry::Entry;
use crate::json::{self, Json, Map, Value};

/// Whether a line is Claude's. `Sure` only for marks no other runtime prints (Cursor and
/// Amp print Claude-like lines too; Amp's session ids start with `T-`).
pub fn detect(v: &Value) -> Confidence {
    let amp_like = str_of(v, "session_id").is_some_and(|s| s.starts_with("T-"));
    let sure_unless_amp = if amp_like {
        Confidence::Maybe
    } else {
        Confidence::Sure
    };
    match type_of(v) {
        "stream_event" | "rate_limit_event" | "tool_progress" | "auth_status"
        | "tool_use_summary" | "prompt_suggestion" | "active_goal" => Confidence::Sure,
        "keep_alive" | "control_request" | "control_response" | "control_cancel_request" => {
            Confidence::Maybe
        }
        t if notice::is_session_bookkeeping(t) => Confidence::Sure,
        "progress" if v.get("data").is_some_and(Value::is_object) => Confidence::Sure,
        "summary" if v.get("leafUuid").is_some() => Confidence::Sure,
        "attachment" if v.get("attachment").is_some_and(Value::is_object) => Confidence::Sure,
        "system" => match str_of(v, "subtype").unwrap_or("") {
            // Qwen Code's name for `init` (its headless docs): only Qwen prints it.
            "session_start" => sure_unless_amp,
            "init" => {
                let has = |k: &str| v.get(k).is_some();
                let marked = has("claude_code_version")
                    || has("qwen_code_version")
                    || has("slash_commands")
                    || has("output_style")
                    || (has("tools") && (has("apiKeySource") || has("permissionMode")));
                if marked {
                    sure_unless_amp
                } else {
                    Confidence::Maybe
                }
            }
            s if system::is_claude_subtype(s) => sure_unless_amp,
            _ => Confidence::Maybe,
        },
        "assistant" | "user" => {
            if !v.get("message").is_some_and(Value::is_object) {
                return Confidence::No;
            }
            let has = |k: &str| v.get(k).is_some();
            // Session files (camelCase sessionId + uuid) and stream-json lines (session_id
            // with uuid or the parent_tool_use_id key) are Claude's own.
            if (has("sessionId") && has("uuid"))
                || (has("session_id") && (has("uuid") || has("parent_tool_use_id")))
            {
                sure_unless_amp
            } else {
                Confidence::Maybe
            }
        }
        "result" => {
            let has = |k: &str| v.get(k).is_some();
            if has("total_cost_usd") || has("modelUsage") || has("permission_denials") {
                sure_unless_amp
            } else {
                Confidence::Maybe
            }
        }
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    parse_as("claude", v, ts, state, out);
}

/// The parser proper; `runtime` names the runtime in fallback notices (Amp reuses it).
pub(crate) fn parse_as(
    runtime: &str,
    v: &Value,
    ts: &str,
    state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    match type_of(v) {
        "system" => system::system(v, ts, out),
        ty @ ("assistant" | "user") => {
            let mut state = state;
            let (side, shown) = sidechain::parent(v, ty, state.as_deref_mut().map(|s| &mut s.sidechain));
            if shown {
                return;
            }
            let parent = str_of(v, "parent_tool_use_id").or(side.as_deref());
            let call = match (ty, state.as_deref_mut()) {
                ("assistant", Some(st)) => session_call_usage(v, ts, st),
                _ => None,
            };
            message_line(runtime, v, ty, parent, ts, state, out);
            if let Some(r) = call {
                out.emit(r.with_parent(parent));
            }
        }
        "result" => {
            let mut e = result_entry(v, ts);
            if let (Some(st), Entry::Result { cost_usd, input_tokens, output_tokens, cached_tokens, cache_creation_tokens, .. }) =
                (state, &mut e)
            {
                let session = str_of(v, "session_id").unwrap_or("");
                match running_totals(v) {
                    Some(cum) => {
                        let [c, i, o, r, w] = st.since_last(session, cum);
                        (*cost_usd, *input_tokens, *output_tokens, *cached_tokens) = (cents_clean(c), i, o, r);
                        *cache_creation_tokens = Some(w);
                    }
                    // Without `modelUsage` only the cost is a running total.
                    None => *cost_usd = cents_clean(st.since_last(session, [*cost_usd, 0.0, 0.0, 0.0, 0.0])[0]),
                }
            }
            out.emit(e)
        }
        "stream_event" => stream::stream_event(v, ts, state, out),
        "progress" => notice::progress(runtime, v, ts, out),
        _ => {
            if !notice::notice(v, ts, out) {
                out.emit(common::unknown_event(ts, runtime, v));
            }
        }
    }
}

/// A session-file assistant line's model call as a `result` (subtype `model_call`) with
/// what its `usage` adds to the message's earlier lines: a session file has no `result`
/// line, and the host sums results. Stateful only: read alone, a line cannot know whether
/// an earlier line of its message counted the same tokens (docs/entries.md). Stream-json
/// lines (`session_id`) are left alone: their `result` lines count the run.
fn session_call_usage(v: &Value, ts: &str, st: &mut State) -> Option<Entry> {
    if !session_line(v) {
        return None;
    }
    let msg = v.get("message")?;
    let usage = msg.get("usage").filter(|u| u.is_object())?;
    let id = str_of(msg, "id").or_else(|| str_of(v, "requestId")).or_else(|| str_of(v, "uuid"))?;
    let now = [
        num_of(usage, "input_tokens"),
        num_of(usage, "output_tokens"),
        num_of(usage, "cache_read_input_tokens"),
        num_of(usage, "cache_creation_input_tokens"),
        num_of(v, "costUSD"),
        usage.get("cache_creation").map_or(0.0, |c| num_of(c, "ephemeral_1h_input_tokens")),
    ]
    .map(|n| if n.is_finite() && n > 0.0 { n } else { 0.0 });
    let [i, o, r, w, c, w1h] = st.call_usage_since(id, now);
    if i + o + r + w + c == 0.0 {
        return None;
    }
    Some(Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: i,
        output_tokens: o,
        cached_tokens: r,
        cache_creation_tokens: Some(w),
        cache_creation_1h_tokens: Some(w1h.min(w)).filter(|n| *n > 0.0),
        reasoning_tokens: None,
        model: str_of(msg, "model").filter(|m| !m.is_empty() && *m != "<synthetic>").map(str::owned),
        call_id: Some(id.owned()),
        cost_usd: cents_clean(c),
        subtype: common::MODEL_CALL.owned(),
        is_error: false,
        errors: Vec::new(),
    })
}

/// Whether a record is a session file's line (camelCase `sessionId` and `uuid`), not a
/// stream-json one (`session_id`).
fn session_line(rec: &Value) -> bool {
    rec.get("sessionId").is_some() && rec.get("uuid").is_some() && rec.get("session_id").is_none()
}

/// Entries of one `user`/`assistant` record (`rec` holds `message` and the line flags).
/// Also used for the subagent messages nested in session-file `agent_progress` lines.
fn message_line(
    runtime: &str,
    rec: &Value,
    role: &str,
    parent: Option<&str>,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let Some(msg) = rec.get("message").filter(|m| m.is_object()) else {
        out.emit(common::unknown_event(ts, runtime, rec));
        return;
    };
    let assistant = role == "assistant";
    if assistant {
        if let Some(e) = text::harness_message(rec, msg, ts) {
            out.emit(e.with_parent(parent));
            return;
        }
        // SDKAssistantMessage.error: the API call behind this message failed.
        if let Some(err) = str_of(rec, "error") {
            out.emit(Entry::system(ts, format!("API error: {err}")));
        }
    }
    let flags = UserFlags::of(rec);
    let msg_id = str_of(msg, "id");
    let start = out.len();
    // A session file writes an edit's result with the file's own lines (`structuredPatch`):
    // its diff comes from there, after the result; stream-json has only the call's fragments.
    let patched = session_line(rec);
    match msg.get("content") {
        Some(Value::String(s)) => {
            if assistant {
                push_assistant_text(s, msg_id, parent, ts, state.as_deref_mut(), out);
            } else {
                user_text(s, flags, parent, ts, out);
            }
        }
        Some(Value::Array(blocks)) => {
            for (i, b) in blocks.iter().enumerate() {
                if common::budget::stopped() {
                    common::budget::skip(blocks.len() - i);
                    break;
                }
                if assistant {
                    let st = state.as_deref_mut();
                    assistant_block(b, msg_id, parent, ts, st, !patched, out);
                } else {
                    user_block(b, flags, parent, ts, out);
                    // A session file's line holds one result, whose edit `toolUseResult` records.
                    if patched && type_of(b) == "tool_result" && !bool_of(b, "is_error") {
                        patch_diff(rec, ts, out);
                    }
                }
            }
        }
        None | Some(Value::Null) => {}
        Some(other) => out.emit(Entry::system(
            ts,
            format!("{role}: {}", clip(&content_text(other), 300)),
        )),
    }
    if !assistant {
        name_single_result(rec, &mut out[start..]);
        // A reminder already shown in this session shows nothing again (the stateless path
        // cannot know, and shows each).
        if let Some(st) = state {
            let mut i = start;
            while i < out.len() {
                let seen = matches!(&out[i], Entry::System { text, .. } if text.starts_with("reminder: ") && !st.first_reminder(text));
                if seen {
                    out.remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }
    // A thinking block with only a signature (Claude Code's hidden thinking) shows nothing:
    // a "[thinking not shown]" row per message read as clutter; the
    // thinking tokens are counted in the message's and the result's output tokens.
}

/// A user record with one tool result names its tool from the structured output written
/// next to it (`toolUseResult` / `tool_use_result`), where that output's shape belongs to
/// one built-in tool (`tool_names`): both paths then give `toolName`.
fn name_single_result(rec: &Value, out: &mut [Entry]) {
    let mut results = out.iter_mut().filter_map(|e| match e {
        Entry::ToolResult { tool_name, .. } => Some(tool_name),
        _ => None,
    });
    let (Some(slot), None) = (results.next(), results.next()) else { return };
    if slot.is_none() {
        let r = rec.get("toolUseResult").or_else(|| rec.get("tool_use_result"));
        *slot = r.and_then(tool_names::of_result).map(str::to_owned);
    }
}

/// Line-level flags of a user record that change how its text reads.
#[derive(Clone, Copy)]
struct UserFlags {
    meta: bool,
    synthetic: bool,
    compact_summary: bool,
}

impl UserFlags {
    fn of(rec: &Value) -> UserFlags {
        UserFlags {
            meta: bool_of(rec, "isMeta"),
            synthetic: bool_of(rec, "isSynthetic"),
            compact_summary: bool_of(rec, "isCompactSummary"),
        }
    }
}

/// An assistant content block.
fn assistant_block(
    b: &Value,
    msg_id: Option<&str>,
    parent: Option<&str>,
    ts: &str,
    state: Option<&mut State>,
    call_diff: bool,
    out: &mut Vec<Entry>,
) {
    match type_of(b) {
        "text" => {
            if let Some(t) = str_of(b, "text") {
                push_assistant_text(t, msg_id, parent, ts, state, out);
            }
        }
        "thinking" => {
            let t = str_of(b, "thinking").unwrap_or("");
            if t.trim().is_empty() {
                return;
            }
            if !state.is_some_and(|s| s.already_shown(msg_id, parent, stream::Kind::Thinking, t)) {
                out.emit(Entry::thinking(ts, t).with_parent(parent));
            }
        }
        "redacted_thinking" => {
            out.emit(Entry::thinking(ts, "[redacted thinking]").with_parent(parent))
        }
        "tool_use" | "server_tool_use" | "mcp_tool_use" => {
            let id = str_of(b, "id").unwrap_or("");
            if id.is_empty()
                || !state
                    .is_some_and(|s| s.already_shown(msg_id, parent, stream::Kind::ToolUse, id))
            {
                out.emit(tool_call(b, ts).with_parent(parent));
                if call_diff {
                    edit_diff(b, ts, out);
                }
            }
        }
        "tool_result" => tool_result(b, ts, parent, out),
        t if t.ends_with("_tool_result") => out.emit(server_tool_result(b, ts).with_parent(parent)),
        "image" | "document" => out.emit(Entry::assistant(ts, content_text(b)).with_parent(parent)),
        other => {
            let mut t = format!("[{} block]", block_name(other));
            let more = common::human_texts(b).render(&t);
            t.push_str(&more);
            out.emit(Entry::system(ts, t))
        }
    }
}

fn push_assistant_text(
    t: &str,
    msg_id: Option<&str>,
    parent: Option<&str>,
    ts: &str,
    state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    // Whitespace-only text ("\n\n" blocks in session files) shows nothing: skipped.
    if t.trim().is_empty() {
        return;
    }
    if !state.is_some_and(|s| s.already_shown(msg_id, parent, stream::Kind::Text, t)) {
        out.emit(Entry::assistant(ts, t).with_parent(parent));
    }
}

fn user_block(b: &Value, flags: UserFlags, parent: Option<&str>, ts: &str, out: &mut Vec<Entry>) {
    match type_of(b) {
        "text" => {
            if let Some(t) = str_of(b, "text") {
                user_text(t, flags, parent, ts, out);
            }
        }
        "tool_result" => tool_result(b, ts, parent, out),
        t if t.ends_with("_tool_result") => out.emit(server_tool_result(b, ts).with_parent(parent)),
        "image" | "document" => out.emit(Entry::user(ts, content_text(b)).with_parent(parent)),
        other => out.emit(Entry::system(ts, format!("[{} block]", block_name(other)))),
    }
}

fn block_name(t: &str) -> &str {
    if t.is_empty() {
        "untyped"
    } else {
        t
    }
}

/// User text, minus what Claude Code injects into the user turn (meta text, slash-command
/// tags, interrupt markers), which reads better as a notice.
fn user_text(t: &str, flags: UserFlags, parent: Option<&str>, ts: &str, out: &mut Vec<Entry>) {
    let trimmed = t.trim();
    if trimmed.is_empty() {
        return;
    }
    if flags.compact_summary {
        out.emit(Entry::system(
            ts,
            format!(
                "conversation summary after compaction: {}",
                clip(trimmed, 400)
            ),
        ));
        return;
    }
    if flags.synthetic {
        out.emit(Entry::system(
            ts,
            format!("harness message: {}", clip(trimmed, 400)),
        ));
        return;
    }
    if let Some(e) = text::tagged_text(trimmed, ts) {
        if let Some(e) = e {
            out.emit(e.with_parent(parent));
        }
        return;
    }
    if flags.meta {
        out.emit(Entry::system(ts, text::meta_text(trimmed)));
        return;
    }
    if trimmed.starts_with("[Request interrupted by user") {
        out.emit(Entry::system(
            ts,
            trimmed
                .trim_start_matches('[')
                .trim_end_matches(']')
                .owned(),
        ));
        return;
    }
    out.emit(Entry::user(ts, t).with_parent(parent));
}

fn tool_call(b: &Value, ts: &str) -> Entry {
    let name = str_of(b, "name").unwrap_or("unknown");
    let name = match (type_of(b), str_of(b, "server_name")) {
        ("mcp_tool_use", Some(server)) => format!("mcp__{server}__{name}"),
        _ => name.owned(),
    };
    let input = match b.get("input") {
        Some(i) if !i.is_null() => i.to_json(),
        _ => Json::Object(Map::default()),
    };
    let id = str_of(b, "id")
        .or_else(|| str_of(b, "tool_use_id"))
        .map(str::owned);
    Entry::tool_call(ts, name, input, id)
}

/// The change an `Edit`, `MultiEdit` or `Write` call asks for, as `diff` entries after the
/// call (the host draws them as a diff card; the call's input shows the same as JSON). An
/// edit's `old_string` is a piece of the file, not the file: its hunk headers (line numbers
/// within the piece) are left out. A `Write` shows its content as added lines (the file's
/// earlier content is not in the log).
fn edit_diff(b: &Value, ts: &str, out: &mut Vec<Entry>) {
    let input = b.get("input").unwrap_or(&Value::Null);
    let Some(path) = str_of(input, "file_path") else { return };
    // Each edit's object: the input itself for `Edit` and `Write`, its `edits` for `MultiEdit`.
    let (edits, write) = match str_of(b, "name") {
        Some("Edit") => (core::slice::from_ref(input), false),
        Some("MultiEdit") => (input.get("edits").and_then(Value::as_array).map_or(&[][..], Vec::as_slice), false),
        Some("Write") => (core::slice::from_ref(input), true),
        _ => return,
    };
    let mut diff = String::new();
    for (i, e) in edits.iter().enumerate() {
        let (old, new) = match write {
            true => (None, str_of(e, "content")),
            false => (str_of(e, "old_string"), str_of(e, "new_string")),
        };
        let text = common::diff::unified_from_texts(path, old, new.unwrap_or(""));
        for line in text.lines() {
            let header = line.starts_with("--- ") || line.starts_with("+++ ");
            if line.starts_with("@@") || (header && i > 0) || line == "--- /dev/null" {
                continue;
            }
            diff.push_str(line);
            diff.push('\n');
        }
    }
    common::diff::push_unified(&diff, ts, out);
}

/// The change a session file's `Edit`, `MultiEdit` or `Write` result records
/// (`toolUseResult`: `filePath`, `structuredPatch` hunks of the file's own lines with their
/// line numbers; a new file's `content`), as `diff` entries after the result. A refused or
/// failed edit has none and shows none. Called after a session file's successful result (Claude
/// Code writes one per line).
fn patch_diff(rec: &Value, ts: &str, out: &mut Vec<Entry>) {
    let r = rec.get("toolUseResult").unwrap_or(&Value::Null);
    let (Some(path), Some(Value::Array(hunks))) = (str_of(r, "filePath"), r.get("structuredPatch")) else { return };
    if hunks.is_empty() {
        if let (Some("create"), Some(content)) = (str_of(r, "type"), str_of(r, "content")) {
            common::diff::push_unified(&common::diff::unified_from_texts(path, None, content), ts, out);
        }
        return;
    }
    let path = path.trim_start_matches('/');
    let mut diff = String::new();
    for head in ["--- a/", "\n+++ b/"] {
        diff.push_str(head);
        diff.push_str(path);
    }
    for h in hunks {
        let n = |k: &str| num_of(h, k).max(0.0) as u64;
        diff.push_str(&format!("\n@@ -{},{} +{},{} @@", n("oldStart"), n("oldLines"), n("newStart"), n("newLines")));
        for line in h.get("lines").and_then(Value::as_array).into_iter().flatten() {
            diff.push('\n');
            diff.push_str(line.as_str().unwrap_or(""));
        }
    }
    common::diff::push_unified(&diff, ts, out);
}

/// A tool's result, minus what Claude Code wraps around the tool's own output: a
/// `<system-reminder>` it appends (to a Read result, say) is its own notice after the result,
/// not part of the file's content; a `<tool_use_error>` wrapper is unwrapped (the result is
/// an error either way).
fn tool_result(b: &Value, ts: &str, parent: Option<&str>, out: &mut Vec<Entry>) {
    let id = str_of(b, "tool_use_id").unwrap_or("");
    let mut content = b.get("content").map(content_text).unwrap_or_default();
    let mut reminders = Vec::new();
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    // Only a block that ends the output is Claude Code's own: one inside it is the tool's
    // text (a grep over transcripts quoting the tag) and stays as it is.
    let tail = common::cut(&content, content.trim_end().len()..).owned();
    while content.trim_end().ends_with(CLOSE) {
        let end = content.trim_end().len() - CLOSE.len();
        let Some(at) = common::rfind(common::cut(&content, ..end), OPEN) else { break };
        let inner = common::cut(&content, at + OPEN.len()..end).trim().owned();
        // In place: the text before the tag keeps its buffer.
        let keep = common::cut(&content, ..at).trim_end().len();
        content.truncate(keep);
        if !inner.is_empty() {
            reminders.insert(0, inner);
        }
    }
    if !reminders.is_empty() {
        content.push_str(&tail);
    }
    let t = content.trim();
    if let Some(inner) = t.strip_prefix("<tool_use_error>").and_then(|r| r.strip_suffix("</tool_use_error>")) {
        content = inner.trim().owned();
    }
    out.emit(Entry::tool_result(ts, id, None, content, bool_of(b, "is_error")).with_parent(parent));
    for r in reminders {
        out.emit(Entry::system(ts, format!("reminder: {}", clip(&r, 300))));
    }
}

/// Results of server-side tools (`web_search_tool_result`, `web_fetch_tool_result`,
/// `code_execution_tool_result`, `mcp_tool_result`, …), paired by `tool_use_id`.
fn server_tool_result(b: &Value, ts: &str) -> Entry {
    let id = str_of(b, "tool_use_id").unwrap_or("");
    let mut is_error = bool_of(b, "is_error");
    let text = match b.get("content") {
        Some(Value::Array(items)) => {
            let mut lines = Vec::with_capacity(items.len());
            for item in items {
                match (str_of(item, "title"), str_of(item, "url")) {
                    (Some(title), Some(url)) => lines.push(format!("{title} — {url}")),
                    (None, Some(url)) => lines.push(url.owned()),
                    _ => {
                        let t = content_text(item);
                        if !t.is_empty() {
                            lines.push(t);
                        }
                    }
                }
            }
            common::join(&lines, "\n")
        }
        Some(obj @ Value::Object(_)) => {
            if let Some(code) = str_of(obj, "error_code") {
                is_error = true;
                format!("error: {code}")
            } else if obj.get("stdout").is_some() || obj.get("return_code").is_some() {
                let mut parts = Vec::new();
                for k in ["stdout", "stderr"] {
                    if let Some(s) = str_of(obj, k).filter(|s| !s.is_empty()) {
                        parts.push(s.owned());
                    }
                }
                let code = num_of(obj, "return_code");
                if code != 0.0 {
                    is_error = true;
                    parts.push(format!("(exit code {})", json::num_text(code)));
                }
                common::join(&parts, "\n")
            } else if let Some(url) = str_of(obj, "url") {
                url.owned()
            } else {
                content_text(obj)
            }
        }
        Some(other) => content_text(other),
        None => String::new(),
    };
    Entry::tool_result(ts, id, None, text, is_error)
}

/// The process's running totals a `result` states: `[total_cost_usd, then modelUsage's
/// input, output, cache reads and cache writes summed over its models]`. `None` without
/// `modelUsage` (older builds, Amp): then `usage` is all there is.
fn running_totals(v: &Value) -> Option<[f64; 5]> {
    let models = v.get("modelUsage")?.as_object().filter(|m| !m.is_empty())?;
    let mut t = [num_of(v, "total_cost_usd"), 0.0, 0.0, 0.0, 0.0];
    for (_, m) in models.iter() {
        // The CLI writes camelCase; some hand-made samples (takopi's) the API's snake_case.
        const KEYS: [(&str, &str); 4] = [
            ("inputTokens", "input_tokens"),
            ("outputTokens", "output_tokens"),
            ("cacheReadInputTokens", "cache_read_input_tokens"),
            ("cacheCreationInputTokens", "cache_creation_input_tokens"),
        ];
        for (i, (camel, snake)) in KEYS.iter().enumerate() {
            t[i + 1] += num_of(m, camel) + num_of(m, snake);
        }
    }
    Some(t)
}

/// A dollar amount from a subtraction, without the binary noise (`0.019124100000000005`):
/// rounded to 1e-10 dollars, far below any price.
fn cents_clean(usd: f64) -> f64 {
    json::round(usd * 1e10) / 1e10
}

/// The share of a process's cost that one prompt's `usage` makes, from Anthropic's price
/// ratios, the same for every Claude model: output 5× input, cache reads 0.1×, cache writes
/// 1.25× (5-minute) or 2× (1-hour). Exact for a process on one model and one cache lifetime
/// (the real multi-prompt capture in tests/fixtures/claude checks it to the last digit);
/// otherwise an estimate: subagents on other models count only in the process's totals.
fn query_share(usage: &Value, cum: &[f64; 5]) -> f64 {
    let write_5m = common::path(usage, &["cache_creation", "ephemeral_5m_input_tokens"]).and_then(Value::as_f64);
    let write_1h = common::path(usage, &["cache_creation", "ephemeral_1h_input_tokens"]).and_then(Value::as_f64);
    let writes = num_of(usage, "cache_creation_input_tokens");
    // The write weight of this prompt's mix, used for the process's writes too.
    let w = match (write_5m, write_1h) {
        (Some(a), Some(b)) if a + b > 0.0 => (1.25 * a + 2.0 * b) / (a + b),
        _ => 1.25,
    };
    let weight = |i: f64, o: f64, r: f64, c: f64| i + 5.0 * o + 0.1 * r + w * c;
    let all = weight(cum[1], cum[2], cum[3], cum[4]);
    let this = weight(num_of(usage, "input_tokens"), num_of(usage, "output_tokens"), num_of(usage, "cache_read_input_tokens"), writes);
    if all > 0.0 { (this / all).min(1.0) } else { 0.0 }
}

/// A `result` line read alone. For a process's first prompt its figures are the process's
/// running totals (`total_cost_usd`, `modelUsage`: they count compaction and subagents,
/// which the query's `usage` does not), exact for a process that answers one prompt, as
/// every Paperclip run does; for a later prompt (`result_index` > 0) its `usage` and its
/// share of the cost (`query_share`). The stateful parser turns the running totals into
/// what each result adds (`State::since_last`; docs/entries.md has the rule per runtime).
fn result_entry(v: &Value, ts: &str) -> Entry {
    let usage = v.get("usage").unwrap_or(&Value::Null);
    let mut errors: Vec<String> = match v.get("errors") {
        Some(Value::Array(items)) => items
            .iter()
            .map(error_text)
            .filter(|s| !s.is_empty())
            .collect(),
        _ => Vec::new(),
    };
    if errors.is_empty() {
        // Older Claude builds and Amp put one message in `error`.
        if let Some(e) = v.get("error").map(error_text).filter(|s| !s.is_empty()) {
            errors.push(e);
        }
    }
    let query = [
        num_of(v, "total_cost_usd"),
        num_of(usage, "input_tokens"),
        num_of(usage, "output_tokens"),
        num_of(usage, "cache_read_input_tokens"),
        num_of(usage, "cache_creation_input_tokens"),
    ];
    let [cost, input, output, read, write] = match running_totals(v) {
        // A later prompt to the same process (`result_index` > 0, Claude Code 2.1.2xx on):
        // the running totals restate the earlier prompts. Its tokens are its `usage`; its
        // cost, the process's total in proportion to what its tokens cost against what the
        // process's did (`query_share`).
        Some(cum) if num_of(v, "result_index") > 0.0 => {
            let mut q = query;
            q[0] = cents_clean(cum[0] * query_share(usage, &cum));
            q
        }
        Some(cum) => cum,
        None => query,
    };
    let has_write = v.get("modelUsage").is_some() || usage.get("cache_creation_input_tokens").is_some();
    Entry::Result {
        ts: ts.owned(),
        text: str_of(v, "result").unwrap_or("").owned(),
        input_tokens: input,
        output_tokens: output,
        cached_tokens: read,
        cache_creation_tokens: has_write.then_some(write),
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        // The one model that served the run, where `modelUsage` names exactly one.
        model: match v.get("modelUsage") {
            Some(Value::Object(m)) if m.len() == 1 => m.keys().next().filter(|k| !k.is_empty()).map(str::owned),
            _ => None,
        },
        call_id: None,
        cost_usd: cost,
        subtype: str_of(v, "subtype").unwrap_or("").owned(),
        is_error: bool_of(v, "is_error"),
        errors,
    }
}

/// An error value as text (`common::error_text`; empty when there is none).
fn error_text(v: &Value) -> String {
    common::error_text(v).unwrap_or_default()
}

#[cfg(test)]
mod tests;
