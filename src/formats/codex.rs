//! OpenAI Codex CLI. Three line shapes, all detected as [`Format::Codex`](super::Format):
//!
//! 1. `codex exec --json` (codex ≥ 0.44): `{"type":"thread.started"|"turn.*"|"item.*"|"error"}`
//!    thread events with typed items (`exec` submodule). Evidence: real captures from
//!    jnarowski/agentcmd (codex 0.46) and link-assistant/hive-mind, banteg/takopi test
//!    literals, and the event types in openai/codex `codex-rs/exec/src/exec_events.rs`.
//! 2. The older `codex exec --json` wire (`{"id":"…","msg":{"type":…}}` protocol events, a
//!    leading `{"sandbox":…,"model":…}` settings line and a `{"prompt":…}` line), read by
//!    the `events` submodule. Evidence: BloopAI/vibe-kanban test literals copied from runs,
//!    and `EventMsg` in openai/codex `codex-rs/protocol/src/protocol.rs`.
//! 3. Session rollout files `~/.codex/sessions/**/rollout-*.jsonl`: `{"timestamp","type",
//!    "payload"}` lines (`session_meta`, `turn_context`, `response_item`, `event_msg`,
//!    `compacted`), read by the `rollout` submodule; bare response items of the older
//!    un-wrapped rollouts are read too. Evidence: three real rollouts (codex 0.40) from
//!    jnarowski/agentcmd and `ResponseItem` in `codex-rs/protocol/src/models.rs`.
//!
//! Rollouts record most things twice (an `event_msg` for the UI and a `response_item` for
//! the model's history); which copy is shown is documented in `docs/formats/codex.md`.

use crate::prelude::*;
mod diff;
mod events;
mod exec;
mod response;
mod rollout;
mod search;
#[cfg(test)]
mod tests;

use super::common::{self, object, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;
use std::collections::VecDeque;
use core::fmt::Write;

/// Keys remembered by the stateful parser (tool ids shown, texts shown, deltas seen).
const MAX_REMEMBERED: usize = 1024;
/// Largest streamed text kept to compare with the full message that follows it.
const MAX_DELTA_BYTES: usize = 256 * 1024;

/// What the stateful parser keeps between lines. Every part is bounded.
#[derive(Debug, Default)]
pub struct State {
    /// Hashes of things already shown: tool call ids, message texts, todo lists…
    seen: Recent,
    /// Streamed assistant / reasoning text since the last full message (legacy wire).
    message_deltas: DeltaBuffer,
    reasoning_deltas: DeltaBuffer,
    raw_reasoning_deltas: DeltaBuffer,
    /// Last token usage seen (`token_count`), for the next `task_complete` result.
    usage: Option<Usage>,
    /// The session total already given out in earlier results: a result carries the turn's
    /// part only, so the host's sum over results is the session's total.
    reported: Usage,
    /// Last turn settings shown from a rollout `turn_context`.
    turn_context: Option<u64>,
    /// The model of the turn, for the results that follow (`parse`).
    model: Option<String>,
}

/// A bounded set of 64-bit keys, oldest evicted first.
#[derive(Debug, Default)]
struct Recent {
    keys: VecDeque<u64>,
}

impl Recent {
    fn contains(&self, key: u64) -> bool {
        self.keys.contains(&key)
    }
    /// Forgets `key`; true when it was there.
    fn take(&mut self, key: u64) -> bool {
        match self.keys.iter().position(|k| *k == key) {
            Some(i) => {
                self.keys.remove(i);
                true
            }
            None => false,
        }
    }
    fn insert(&mut self, key: u64) {
        if self.contains(key) {
            return;
        }
        if self.keys.len() >= MAX_REMEMBERED {
            self.keys.pop_front();
        }
        self.keys.push_back(key);
    }
}

/// Text streamed as deltas, kept (up to a cap) to recognise the full copy that follows.
#[derive(Debug, Default)]
struct DeltaBuffer {
    text: String,
    active: bool,
    overflow: bool,
}

impl DeltaBuffer {
    fn push(&mut self, delta: &str) {
        self.active = true;
        if self.text.len() + delta.len() > MAX_DELTA_BYTES {
            self.overflow = true;
        } else {
            self.text.push_str(delta);
        }
    }
    /// True when the deltas since the last full message already showed `full`; resets.
    fn covers(&mut self, full: &str) -> bool {
        let covered = self.active
            && (self.text.trim() == full.trim()
                || (self.overflow && full.trim_start().starts_with(self.text.trim_start())));
        *self = DeltaBuffer::default();
        covered
    }
}

/// Token usage as Codex reports it (input includes cached input).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Usage {
    input: f64,
    cached: f64,
    /// Cache writes (`cache_write_input_tokens`, Codex 0.157 on).
    write: f64,
    output: f64,
    reasoning: f64,
    total: f64,
}

impl Usage {
    fn from_value(v: &Value) -> Usage {
        Usage {
            input: common::num_of(v, "input_tokens"),
            cached: common::num_of(v, "cached_input_tokens"),
            write: common::num_of(v, "cache_write_input_tokens"),
            output: common::num_of(v, "output_tokens"),
            reasoning: common::num_of(v, "reasoning_output_tokens"),
            total: common::num_of(v, "total_tokens"),
        }
    }

    /// What `self` (a running total) adds to the earlier total `before`.
    fn since(self, before: Usage) -> Usage {
        let d = |a: f64, b: f64| (a - b).max(0.0);
        Usage {
            input: d(self.input, before.input),
            cached: d(self.cached, before.cached),
            write: d(self.write, before.write),
            output: d(self.output, before.output),
            reasoning: d(self.reasoning, before.reasoning),
            total: d(self.total, before.total),
        }
    }

    /// `12 in (8 cached) · 5 out (3 reasoning)`, leaving out zero parts in brackets.
    fn text(&self) -> String {
        let n = crate::json::num_text;
        let mut s = format!("{} in", n(self.input));
        if self.cached > 0.0 {
            let _ = write!(s, " ({} cached)", n(self.cached));
        }
        let _ = write!(s, " · {} out", n(self.output));
        if self.reasoning > 0.0 {
            let _ = write!(s, " ({} reasoning)", n(self.reasoning));
        }
        s
    }
}

/// FNV-1a over a category tag and a text: stable across runs and platforms.
fn key(tag: &str, text: &str) -> u64 {
    crate::text::fnv1a(crate::text::FNV_OFFSET, tag.bytes().chain([0u8]).chain(text.trim().bytes()))
}

const EXEC_ITEM_TYPES: [&str; 10] = [
    "agent_message",
    "reasoning",
    "command_execution",
    "file_change",
    "mcp_tool_call",
    "collab_tool_call",
    "web_search",
    "todo_list",
    "error",
    "plan",
];

const ROLLOUT_TYPES: [&str; 5] =
    ["session_meta", "turn_context", "response_item", "event_msg", "compacted"];

pub fn detect(v: &Value) -> Confidence {
    let ty = type_of(v);
    match ty {
        "thread.started" if v.get("thread_id").is_some() => return Confidence::Sure,
        "item.started" | "item.updated" | "item.completed" => {
            let item_ty = v.get("item").map(type_of).unwrap_or("");
            return if EXEC_ITEM_TYPES.contains(&item_ty) {
                Confidence::Sure
            } else {
                Confidence::Maybe
            };
        }
        "item.plan.delta" => return Confidence::Sure,
        "turn.completed" if common::path(v, &["usage", "cached_input_tokens"]).is_some() => {
            return Confidence::Sure
        }
        "turn.started" | "turn.completed" | "turn.failed" | "thread.started" => {
            return Confidence::Maybe
        }
        "request_user_input" if v.get("call_id").is_some() => return Confidence::Maybe,
        // Codex's top-level error has a message and nothing else (Gemini's carries a timestamp).
        "error" if v.get("message").is_some() && v.get("timestamp").is_none() => {
            return Confidence::Maybe
        }
        _ => {}
    }
    if ROLLOUT_TYPES.contains(&ty) && v.get("payload").is_some() && v.get("timestamp").is_some() {
        return Confidence::Sure;
    }
    if v.get("id").is_some_and(Value::is_string)
        && v.get("msg").map(type_of).is_some_and(|t| !t.is_empty())
    {
        return Confidence::Sure;
    }
    if v.get("type").is_none() {
        if v.get("model").is_some() && (v.get("sandbox").is_some() || v.get("approval").is_some()) {
            return Confidence::Sure;
        }
        // The header of pre-0.3x rollouts ({id, timestamp, instructions}) is Codex's own.
        if rollout::is_old_header(v) {
            return Confidence::Sure;
        }
        if is_settings_line(v) || is_prompt_line(v) || v.get("record_type").is_some() {
            return Confidence::Maybe;
        }
    }
    if rollout::is_bare_response_item(v) {
        return Confidence::Maybe;
    }
    Confidence::No
}

pub fn parse(v: &Value, line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let Some(st) = state else { return parse_line(v, line, ts, None, out) };
    let start = out.len();
    parse_line(v, line, ts, Some(&mut *st), out);
    // The model of the turn (a rollout's `turn_context`, a settings line, an init naming one)
    // on the results that follow: what an estimate of their cost is priced by.
    for e in &mut out[start..] {
        match e {
            Entry::Init { model, .. } if model != "codex" && !model.is_empty() => st.model = Some(model.clone()),
            Entry::Result { model, .. } if model.is_none() => model.clone_from(&st.model),
            _ => {}
        }
    }
}

fn parse_line(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let ty = type_of(v);
    if let Some(msg) = v.get("msg").filter(|m| m.is_object() && ty.is_empty()) {
        return events::parse(msg, events::Source::Legacy, ts, state, out);
    }
    if ROLLOUT_TYPES.contains(&ty) && v.get("payload").is_some() {
        return rollout::parse(v, ty, ts, state, out);
    }
    if ty.is_empty() {
        if is_prompt_line(v) {
            let prompt = str_of(v, "prompt").unwrap_or("");
            if let Some(st) = state {
                st.seen.insert(key(response::dup_tag("user_message"), prompt));
            }
            out.emit(Entry::user(ts, prompt));
            return;
        }
        if is_settings_line(v) {
            return settings_line(v, ts, out);
        }
        if rollout::is_old_header(v) || v.get("record_type").is_some() {
            return rollout::old_header(v, ts, out);
        }
    }
    if rollout::is_bare_response_item(v) {
        return response::response_item(v, ts, state, out);
    }
    exec::parse(v, ty, ts, state, out);
}

/// `{"prompt": "…"}`: the legacy wire's echo of the task it was given.
fn is_prompt_line(v: &Value) -> bool {
    v.as_object().is_some_and(|m| m.len() == 1) && str_of(v, "prompt").is_some()
}

/// The legacy wire's first line: the run's settings (`model`, `provider`, `sandbox`…).
fn is_settings_line(v: &Value) -> bool {
    str_of(v, "model").is_some()
        && ["provider", "sandbox", "approval", "workdir", "reasoning effort"]
            .iter()
            .any(|k| v.get(k).is_some())
}

fn settings_line(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    out.emit(Entry::init(ts, str_of(v, "model").unwrap_or("codex"), ""));
    let Some(map) = v.as_object() else { return };
    let parts = common::join(
        map.iter()
            .filter(|(k, _)| *k != "model" && *k != "provider")
            .filter_map(|(k, val)| scalar_text(val).map(|s| format!("{k}: {s}"))),
        ", ",
    );
    // Each part is `key: value`, so an empty join means no parts.
    if !parts.is_empty() {
        let provider = str_of(v, "provider").map(|p| format!(" ({p})")).unwrap_or_default();
        out.emit(Entry::system(ts, format!("codex settings{provider}: {parts}")));
    }
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A command as one readable line: a string as is, an argv array joined with the
/// arguments that need it single-quoted (`bash -lc 'ls -1'`).
fn command_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Array(args)) => common::join(
            args.iter().map(|a| match a {
                Value::String(s) => shell_quote(s),
                other => common::compact_json(other),
            }),
            " ",
        ),
        Some(Value::Null) | None => String::new(),
        Some(other) => common::compact_json(other),
    }
}

fn shell_quote(s: &str) -> String {
    let plain =
        !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&c));
    if plain {
        s.owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A result entry (the turn or task ended).
fn result_entry(ts: &str, text: &str, usage: Usage, is_error: bool, errors: Vec<String>) -> Entry {
    Entry::Result {
        ts: ts.owned(),
        text: text.owned(),
        input_tokens: usage.input,
        output_tokens: usage.output,
        cached_tokens: usage.cached,
        cache_creation_tokens: Some(usage.write).filter(|w| *w > 0.0),
        cache_creation_1h_tokens: None,
        reasoning_tokens: Some(usage.reasoning).filter(|r| *r > 0.0),
        model: None,
        call_id: None,
        cost_usd: 0.0,
        subtype: if is_error { "error" } else { "success" }.owned(),
        is_error,
        errors,
    }
}

/// A tool result with the tool name and, when the runtime measured it, the duration.
fn tool_result(
    ts: &str,
    id: &str,
    name: Option<&str>,
    content: String,
    is_error: bool,
    duration_ms: Option<u64>,
) -> Entry {
    let mut e = Entry::tool_result(ts, id, name.map(str::owned), content, is_error);
    if let Entry::ToolResult { duration_ms: d, .. } = &mut e {
        *d = duration_ms;
    }
    e
}

/// `Some(true)` on the first sighting of `k` by a stateful parser, `Some(false)` after;
/// `None` on the stateless path.
fn first_sighting(state: &mut Option<&mut State>, k: u64) -> Option<bool> {
    let st = state.as_deref_mut()?;
    let first = !st.seen.contains(k);
    st.seen.insert(k);
    Some(first)
}

/// For text a rollout records twice (an `event_msg` and a `response_item` copy of one
/// message): `Some(true)` for the first copy, `Some(false)` for its twin, which consumes the
/// match, so the same text said again in a later turn is shown again. `None` when stateless.
fn copy_sighting(state: &mut Option<&mut State>, k: u64) -> Option<bool> {
    let st = state.as_deref_mut()?;
    if st.seen.take(k) {
        return Some(false);
    }
    st.seen.insert(k);
    Some(true)
}

/// The readable fallback for a Codex event nobody here knows: names it, never dumps it.
fn unknown(ts: &str, label: &str, v: &Value) -> Entry {
    let mut text = format!("codex {label}");
    // An item's id stays (its later events name it; the host's reader shows it too); other
    // ids and times are left out by `short_fields`.
    let id = common::nonempty_str(v, "id").map(|id| format!("id: {id}"));
    let details = common::short_fields(v, 3);
    let parts: Vec<&str> = id.as_deref().into_iter().chain(Some(details.as_str()).filter(|d| !d.is_empty())).collect();
    if !parts.is_empty() {
        let _ = write!(text, " ({})", common::join(&parts, ", "));
    }
    Entry::system(ts, text)
}
