//! Responses-API items (`ResponseItem` in openai/codex `codex-rs/protocol/src/models.rs`): the
//! model's history of messages, reasoning, tool calls and their outputs. Rollouts record them
//! as `response_item` lines (bare lines in older rollouts), and the `raw_response_item`
//! protocol event carries one, so both `rollout` and `events` read them here. Most of them
//! repeat an `event_msg`; [`dup_tag`] names the pairs (see `docs/formats/codex.md`).

use crate::prelude::*;
use super::exec::{phase_channel, with_item_id};
use super::{command_text, copy_sighting, diff, first_sighting, key, object, tool_result, unknown, State};
use crate::entry::Entry;
use crate::formats::common::{self, clip, content_text, cut, nonempty_str, str_of, type_of, Emit, Owned};
use crate::json::{self, read, Json, Value};
use core::fmt::Write;

/// Longest harness-injected context (instructions, AGENTS.md…) shown in a system entry.
const MAX_CONTEXT_CHARS: usize = 500;

/// The key tag a rollout duplicate pair shares (event_msg side and response_item side).
pub(super) fn dup_tag(ty: &str) -> &'static str {
    match ty {
        "agent_message" => "assistant-text",
        "user_message" => "user-text",
        "agent_reasoning_raw_content" => "raw-reasoning-text",
        _ => "reasoning-text",
    }
}

pub(super) fn thinking(ts: &str, text: &str, raw: bool, delta: bool) -> Entry {
    let mut e = if delta { Entry::thinking_delta(ts, text) } else { Entry::thinking(ts, text) };
    if let Entry::Thinking { channel, .. } = &mut e {
        *channel = Some(if raw { "detail" } else { "summary" });
    }
    e
}

pub(super) fn response_item(
    p: &Value,
    ts: &str,
    mut state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let ty = type_of(p);
    match ty {
        "message" => message(p, ts, state, out),
        "reasoning" => {
            let parts = [("summary", false), ("content", true)];
            for (field, raw) in parts {
                for block in p.get(field).and_then(Value::as_array).into_iter().flatten() {
                    let text = str_of(block, "text").unwrap_or("");
                    let tag = dup_tag(if raw {
                        "agent_reasoning_raw_content"
                    } else {
                        "agent_reasoning"
                    });
                    if !text.trim().is_empty()
                        && copy_sighting(&mut state, key(tag, text)) != Some(false)
                    {
                        out.emit(thinking(ts, text, raw, false));
                    }
                }
            }
        }
        "function_call" | "custom_tool_call" | "local_shell_call" | "web_search_call" => {
            let (name, input, id) = call_of(p, ty);
            if let Some(id) = &id {
                if first_sighting(&mut state, key("call", id)) == Some(false) {
                    return; // shown from the event_msg copy
                }
            }
            let patches = diff::patches_in(&input);
            out.emit(Entry::tool_call(ts, name.clone(), input, id.clone()));
            let mut budget = diff::Budget::default();
            for patch in &patches {
                diff::envelope(patch, ts, &mut budget, out);
            }
            budget.finish(ts, out);
            // A web search item is complete when recorded: its result is the search itself.
            if let (Some(id), "web_search_call", Some("completed" | "failed")) =
                (&id, ty, str_of(p, "status"))
            {
                let (text, is_error) = super::search::result(p);
                out.emit(tool_result(ts, id, Some(&name), text, is_error, None));
            }
        }
        "function_call_output" | "custom_tool_call_output" | "mcp_tool_call_output" => {
            let id = str_of(p, "call_id").unwrap_or("").owned();
            if first_sighting(&mut state, key("result", &id)) == Some(false) {
                return;
            }
            let (content, is_error, duration) =
                output_of(p.get("output").or_else(|| p.get("result")));
            out.emit(tool_result(ts, &id, None, content, is_error, duration));
        }
        // Git snapshots the harness takes for /undo: not conversation content.
        "ghost_snapshot" => {}
        "compaction" | "compaction_summary" => out.emit(Entry::system(ts, "context compacted")),
        _ => out.emit(unknown(
            ts,
            &format!("response_item: {}", if ty.is_empty() { "untyped" } else { ty }),
            p,
        )),
    }
}

fn call_of(p: &Value, ty: &str) -> (String, Json, Option<String>) {
    let call_id = nonempty_str(p, "call_id").or_else(|| nonempty_str(p, "id")).map(str::owned);
    match ty {
        "function_call" => {
            let args = str_of(p, "arguments").unwrap_or("");
            let input = match read::parse(args) {
                Some(v @ (Value::Object(_) | Value::Array(_))) => v.to_json(),
                _ => match p.get("arguments") {
                    Some(Value::String(s)) => Json::from(s.owned()),
                    Some(other) => other.to_json(),
                    None => common::empty_object(),
                },
            };
            (str_of(p, "name").unwrap_or("function").owned(), input, call_id)
        }
        "custom_tool_call" => {
            let input = p.get("input").map(Value::to_json).unwrap_or(Json::Null);
            (str_of(p, "name").unwrap_or("custom_tool").owned(), input, call_id)
        }
        "local_shell_call" => {
            let action = p.get("action").unwrap_or(&Value::Null);
            let input = object([
                ("command", Some(Json::from(command_text(action.get("command"))))),
                ("workdir", action.get("working_directory").filter(|w| w.is_string()).map(Value::to_json)),
            ]);
            ("local_shell".owned(), input, call_id)
        }
        _ => ("web_search".owned(), super::search::input(p), call_id),
    }
}

/// A tool output: a plain string; a JSON string `{"output","metadata":{exit_code,
/// duration_seconds}}` (shell tools of codex 0.3x–0.4x); `{content, success}`; or an
/// array of `input_text` blocks. Returns text, error flag and duration.
fn output_of(output: Option<&Value>) -> (String, bool, Option<u64>) {
    let parsed;
    let v = match output {
        Some(Value::String(s)) => match read::parse(s) {
            Some(o @ Value::Object(_)) if o.get("output").is_some() || o.get("content").is_some() => {
                parsed = o;
                &parsed
            }
            // Codex's own refusal / sandbox messages are failures.
            _ => return (nonempty_or(s, "(no output)"), text_output_failed(s), None),
        },
        Some(v) => v,
        None => return ("(no output)".owned(), false, None),
    };
    match v {
        Value::Object(_) => {
            let body =
                v.get("output").or_else(|| v.get("content")).map(content_text).unwrap_or_default();
            let meta = v.get("metadata").unwrap_or(&Value::Null);
            let code = meta.get("exit_code").and_then(Value::as_i64);
            let mut text = body.trim_end().owned();
            if let Some(c) = code.filter(|c| *c != 0) {
                if !text.is_empty() {
                    text.push('\n');
                }
                let _ = write!(text, "exit code {c}");
            }
            let failed = code.is_some_and(|c| c != 0)
                || v.get("success").and_then(Value::as_bool) == Some(false);
            let duration = meta
                .get("duration_seconds")
                .and_then(Value::as_f64)
                .filter(|d| d.is_finite() && *d >= 0.0)
                .map(|d| json::round(d * 1000.0) as u64);
            (nonempty_or(&text, "(no output)"), failed, duration)
        }
        other => (nonempty_or(&content_text(other), "(no output)"), false, None),
    }
}

/// Whether a plain-text tool output reports a failure in Codex's own words: a non-zero
/// `Exit code: N` header (shell tools of codex ≥ 0.5x) or a refusal / sandbox message.
fn text_output_failed(s: &str) -> bool {
    if let Some(rest) = s.strip_prefix("Exit code: ") {
        let code: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        return code.parse::<i64>().is_ok_and(|c| c != 0);
    }
    ["patch rejected", "exec command rejected", "failed in sandbox", "execution error"]
        .iter()
        .any(|p| s.starts_with(p))
}

fn nonempty_or(s: &str, fallback: &str) -> String {
    if s.trim().is_empty() {
        fallback.owned()
    } else {
        s.owned()
    }
}

fn message(p: &Value, ts: &str, mut state: Option<&mut State>, out: &mut Vec<Entry>) {
    let role = str_of(p, "role").unwrap_or("");
    // `content` is a list of blocks, or (the Responses API allows it) one plain string.
    let blocks: &[Value] = match p.get("content") {
        Some(Value::Array(a)) => a,
        Some(s @ Value::String(_)) => std::slice::from_ref(s),
        _ => &[],
    };
    match role {
        "assistant" => {
            let text = common::join(blocks.iter().map(block_text).filter(|t| !t.is_empty()), "\n");
            if text.trim().is_empty()
                || copy_sighting(&mut state, key(dup_tag("agent_message"), &text)) == Some(false)
            {
                return;
            }
            let mut e = with_item_id(Entry::assistant(ts, text), str_of(p, "id").unwrap_or(""));
            if let Entry::Assistant { channel, .. } = &mut e {
                *channel = phase_channel(str_of(p, "phase"));
            }
            out.emit(e);
        }
        "user" => {
            let mut texts = Vec::new();
            let mut images = 0;
            for b in blocks {
                match type_of(b) {
                    "input_image" | "image" => images += 1,
                    _ => {
                        let t = block_text(b);
                        match injected_context(&t) {
                            Some(summary) => out.emit(Entry::system(ts, summary)),
                            None if !t.trim().is_empty() => texts.push(t),
                            None => {}
                        }
                    }
                }
            }
            let text = common::join(&texts, "\n");
            if text.is_empty() && images == 0 {
                return;
            }
            if copy_sighting(&mut state, key(dup_tag("user_message"), &text)) == Some(false) {
                return;
            }
            let shown = if images > 0 {
                format!("{text}\n[{images} image(s)]").trim().owned()
            } else {
                text
            };
            out.emit(Entry::user(ts, shown));
        }
        _ => {
            // developer / system instructions the harness sends with every session.
            for b in blocks {
                let t = block_text(b);
                if t.trim().is_empty() {
                    continue;
                }
                let summary = injected_context(&t).unwrap_or_else(|| context_summary(role, &t));
                out.emit(Entry::system(ts, format!("{role}: {summary}")));
            }
        }
    }
}

fn block_text(b: &Value) -> String {
    match type_of(b) {
        "input_text" | "output_text" | "text" | "summary_text" => {
            str_of(b, "text").unwrap_or("").owned()
        }
        "input_image" => "[image]".owned(),
        _ => content_text(b),
    }
}

/// Harness-injected context in a user message (`<environment_context>…</environment_context>`,
/// `<user_instructions>…`, `# AGENTS.md instructions …`): a compact system line, else `None`.
pub(super) fn injected_context(text: &str) -> Option<String> {
    let t = text.trim();
    if t.starts_with("# AGENTS.md instructions") {
        let (first, body) = t.split_once('\n').unwrap_or((t, ""));
        return Some(context_summary(common::trim_start_all(first, "# "), body.trim()));
    }
    let rest = t.strip_prefix('<')?;
    let close = rest.find('>')?;
    let tag = cut(rest, ..close);
    // Codex's own tag names are ASCII (`user_instructions`, `environment_context`); a Unicode
    // letter test would bring core's alphabetic tables (~2 KB gzip) for nothing.
    let tag_chars = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ' ';
    if tag.trim().is_empty() || !tag.chars().all(tag_chars) {
        return None;
    }
    let inner = cut(rest, close + 1..).strip_suffix(&format!("</{tag}>"))?.trim();
    if tag == "environment_context" {
        let fields = xml_fields(inner);
        if !fields.is_empty() {
            return Some(format!("environment: {fields}"));
        }
    }
    Some(context_summary(tag, inner))
}

/// `<cwd>/x</cwd>\n<shell>zsh</shell>` → `cwd /x · shell zsh` (simple one-line fields; each
/// is `name value`, never empty, so an empty result means none).
fn xml_fields(inner: &str) -> String {
    let fields = inner.lines().filter_map(|l| {
        let l = l.trim();
        let name = l.strip_prefix('<')?.split('>').next()?;
        let value = l.strip_prefix(&format!("<{name}>"))?.strip_suffix(&format!("</{name}>"))?;
        Some(format!("{name} {value}"))
    });
    common::join(fields, " · ")
}

fn context_summary(label: &str, body: &str) -> String {
    let n = body.chars().count();
    if n <= MAX_CONTEXT_CHARS {
        format!("{label}:\n{body}")
    } else {
        format!("{label} ({n} chars):\n{}", clip(body, MAX_CONTEXT_CHARS))
    }
}
