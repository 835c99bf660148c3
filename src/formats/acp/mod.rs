//! ACP: agents run through the Agent Client Protocol, in the two shapes a log holds them.
//!
//! - **Paperclip's `acpx.*` run-log lines** ([`acpx`]): what the host's ACP engine
//!   (`@paperclipai/adapter-utils` 2026.916.1, `dist/acpx-engine/execute.js`) writes to a
//!   run's stdout for the Claude, Codex, Gemini and Kimi adapters, whose `engine` setting
//!   defaults to `"acp"`: `acpx.session`, `acpx.text_delta`, `acpx.tool_call`,
//!   `acpx.status`, `acpx.result`, `acpx.error` (and `acpx.tool_result`, which the host's
//!   `parseAcpxStdoutLine` reads).
//! - **Raw ACP JSON-RPC** ([`rpc`]): the messages between an ACP client and agent, one per
//!   line, as `acpx --format json` prints them or an editor's debug log records them
//!   (`session/update` notifications, `session/prompt`, `session/request_permission`,
//!   `initialize` / `session/new` responses, errors). Read from the protocol's schema,
//!   `@agentclientprotocol/sdk` 1.5.0 `schema/schema.json`.
//!
//! One tool card per `toolCallId`, on both paths: ACP reports a call as one `tool_call`
//! and then any number of `tool_call_update`s (pending, in_progress, completed/failed), and
//! the acpx engine writes one line for each. Each line decides on its own what it shows
//! ([`ToolLine`]): the announcing line (`tool_call`) shows the card, a terminal status
//! shows the `tool_result`, and an update in between shows only what it adds (a new title,
//! new input) as a short notice. The stateful parser also shows the card for a call whose
//! announcement it never saw (a stream joined mid-run) and drops a notice it already
//! showed for that call. docs/formats/acp.md has the full mapping, docs/stateless.md the
//! row for both paths.
//!
//! Evidence: the writer and parser code of the npm packages named above; fixtures are
//! doc-derived (tests/fixtures/acp/PROVENANCE.md).

use crate::prelude::*;
pub mod acpx;
pub mod rpc;

use super::common::{self, str_of, type_of, Confidence, Emit, Owned};
use crate::json::{self, Json, Value};
use crate::entry::Entry;

/// Tool call ids (and shown diffs) remembered by the stateful parser.
const MAX_IDS: usize = 2048;

/// JSON-RPC methods of ACP (schema 1.5.0, stable and unstable), either direction.
const METHODS: &[&str] = &[
    "initialize",
    "authenticate",
    "session/new",
    "session/load",
    "session/resume",
    "session/fork",
    "session/list",
    "session/close",
    "session/delete",
    "session/prompt",
    "session/cancel",
    "session/update",
    "session/set_mode",
    "session/set_model",
    "session/set_config_option",
    "session/request_permission",
    "fs/read_text_file",
    "fs/write_text_file",
    "terminal/create",
    "terminal/output",
    "terminal/wait_for_exit",
    "terminal/kill",
    "terminal/release",
];

/// What the stateful parser remembers: per tool call whether its result was shown and the
/// last update notice shown for it; the diffs already shown.
#[derive(Debug, Default)]
pub struct State {
    /// Call id → `[finished, last notice]`.
    calls: common::SeenIds,
    /// `id \0 path \0 new length` of each diff already shown.
    diffs: common::SeenIds,
    /// The agent message text streamed since the last other update (bounded), to drop the
    /// consolidated copy some agents send after the deltas.
    streamed: String,
    /// The last agent message chunk.
    last_chunk: String,
}

/// Streamed agent text remembered for the restatement check; past it nothing is dropped.
const MAX_STREAMED_BYTES: usize = 256 * 1024;

impl State {
    /// Whether an agent message chunk adds text rather than restating it. Some agents send a
    /// block as deltas and then the whole block again as one chunk (claude-agent-acp's
    /// consolidated copy, zed-industries/zed#62503), or send the final chunk twice: a chunk
    /// equal to everything streamed since the last other update, or repeating the previous
    /// chunk word for word, is dropped when longer than a token (16 bytes), or when it
    /// restates the whole block and that block is a sentence (`Hello!` streamed, then
    /// `Hello!` again).
    fn chunk_is_new(&mut self, t: &str) -> bool {
        // A repeated short token ("ha", "\n") is text; a repeated sentence is not.
        let sentence = t.chars().count() >= 3 && t.trim_end().ends_with(['.', '!', '?']);
        let restates =
            (t.len() > 16 && (self.streamed == t || self.last_chunk == t)) || (sentence && self.streamed == t);
        if restates {
            return false;
        }
        if self.streamed.len() + t.len() <= MAX_STREAMED_BYTES {
            self.streamed.push_str(t);
        } else {
            self.streamed.clear();
        }
        self.last_chunk = if t.len() <= MAX_STREAMED_BYTES { t.owned() } else { String::new() };
        true
    }
}

pub fn detect(v: &Value) -> Confidence {
    if type_of(v).starts_with("acpx.") {
        return Confidence::Sure;
    }
    if str_of(v, "jsonrpc") != Some("2.0") {
        return if unwrapped_update(v).is_some() { Confidence::Sure } else { Confidence::No };
    }
    if let Some(m) = str_of(v, "method") {
        return if METHODS.contains(&m) || is_update_method(m) { Confidence::Sure } else { Confidence::Maybe };
    }
    let result = v.get("result").unwrap_or(&Value::Null);
    let acp_result = ["stopReason", "protocolVersion", "agentInfo", "sessionId", "outcome"]
        .iter()
        .any(|k| result.get(k).is_some());
    if acp_result {
        Confidence::Sure
    } else {
        Confidence::Maybe
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    if type_of(v).starts_with("acpx.") {
        acpx::parse(v, ts, state, out)
    } else if let Some(u) = unwrapped_update(v).filter(|_| v.get("jsonrpc").is_none()) {
        rpc::update(u, false, ts, state, out)
    } else {
        rpc::parse(v, ts, state, out)
    }
}

/// Notification methods that carry a session update: ACP's own and Grok's extension track.
pub(crate) fn is_update_method(m: &str) -> bool {
    matches!(m, "session/update" | "_x.ai/session/update" | "x.ai/session/update" | "_x.ai/session_notification")
}

/// The update of a `session/update` written without the JSON-RPC wrapper, as stored
/// histories and early bridges write it: `{timestamp?, method, params{sessionId, update}}`
/// (Grok's `updates.jsonl`), `{params{update}}`, the notification's params alone
/// `{sessionId, update}`, or the bare update `{sessionUpdate, …}`.
pub(crate) fn unwrapped_update<'a, 'v>(v: &'a Value<'v>) -> Option<&'a Value<'v>> {
    let is_update = |u: &Value| str_of(u, "sessionUpdate").is_some();
    if let Some(m) = str_of(v, "method") {
        let u = common::path(v, &["params", "update"])?;
        return (is_update_method(m) && is_update(u)).then_some(u);
    }
    if let Some(u) = common::path(v, &["params", "update"]).or_else(|| v.get("update")).filter(|u| is_update(u)) {
        return Some(u);
    }
    is_update(v).then_some(v)
}

/// One line's report on a tool call, and what it decides to show.
pub(crate) struct ToolLine<'a> {
    pub id: Option<&'a str>,
    /// The tool's name as this line gives it (ACP `title`), `None` if the line has none.
    pub name: Option<&'a str>,
    /// The call's announcement (ACP `tool_call`), not a `tool_call_update`.
    pub announces: bool,
    /// completed / failed / cancelled.
    pub terminal: bool,
    /// What a non-announcing, non-terminal update adds, as a notice text.
    pub note: Option<String>,
}

/// What a tool line shows.
pub(crate) struct Shown {
    pub card: bool,
    pub result: bool,
    pub note: bool,
    /// The name for the card or result: the card's name when the stateful parser showed
    /// it, else the line's own.
    pub name: Option<String>,
}

/// The notice an update that renames a call shows; the stateful parser starts each call's
/// last notice at the card's own name, so an update repeating that name adds nothing.
pub(crate) fn retitle_note(title: &str) -> String {
    format!("tool: {title}")
}

impl ToolLine<'_> {
    /// Stateless: the announcement shows the card, a terminal status the result, an update
    /// in between its note. Stateful: the first line seen for an id shows the card, the
    /// first terminal one the result, and a note only once per distinct text.
    pub fn decide(&self, state: Option<&mut State>) -> Shown {
        let own_name = self.name.map(str::owned);
        let (Some(id), Some(s)) = (self.id, state) else {
            let note = !self.announces && !self.terminal && self.note.is_some();
            return Shown { card: self.announces, result: self.terminal, note, name: own_name };
        };
        let seen = s.calls.get(id).cloned();
        let field = |i: usize| seen.as_ref().and_then(|v| v.at(i)).cloned();
        let finished = field(0).and_then(|v| v.as_bool()) == Some(true);
        let card = seen.is_none();
        let name = if card { own_name } else { field(2).and_then(|v| v.as_str().map(str::owned)).or(own_name) };
        let last = match field(1).and_then(|v| v.as_str().map(str::owned)) {
            Some(l) => l,
            None => name.as_deref().map(retitle_note).unwrap_or_default(),
        };
        let result = self.terminal && !finished;
        let note = match &self.note {
            Some(n) => !card && !self.announces && !self.terminal && !finished && *n != last,
            None => false,
        };
        let shown_note = if note { self.note.clone().unwrap_or_default() } else { last };
        let value = Json::Array(vec![
            Json::Bool(finished || self.terminal),
            Json::from(shown_note),
            name.clone().map_or(Json::Null, Json::from),
        ]);
        s.calls.set(id, value, MAX_IDS);
        Shown { card, result, note, name }
    }
}

/// Whether a diff of `path` (new text of `len` bytes) for call `id` is to be shown: always
/// on the stateless path, once per call and file change on the stateful one.
pub(crate) fn diff_is_new(state: Option<&mut State>, id: &str, path: &str, len: usize) -> bool {
    let Some(s) = state else { return true };
    let key = format!("{id}\u{0}{path}\u{0}{len}");
    if s.diffs.get(&key).is_some() {
        return false;
    }
    s.diffs.set(&key, Json::Bool(true), MAX_IDS);
    true
}

/// A usage report as one line: `context 5550/200000 tokens (3%)`, the cost, the token
/// breakdown (`breakdown` in acpx lines, `_meta.usage` in raw ACP), whichever exist.
pub(crate) fn usage_text(used: Option<f64>, size: Option<f64>, cost: Option<&Value>, breakdown: Option<&Value>) -> String {
    let mut parts: Vec<String> = Vec::new();
    match (used, size) {
        (Some(u), Some(s)) if s > 0.0 => parts.push(format!(
            "context {}/{} tokens ({}%)",
            json::num_text(u),
            json::num_text(s),
            json::num_text(json::round(u * 100.0 / s))
        )),
        (Some(u), _) => parts.push(format!("context {} tokens", json::num_text(u))),
        _ => {}
    }
    if let Some(c) = cost.filter(|c| c.is_object()) {
        let amount = c.get("amount").and_then(Value::as_f64).filter(|a| a.is_finite());
        let currency = str_of(c, "currency").unwrap_or("");
        if let Some(a) = amount {
            parts.push(format!("cost {} {}", json::num_text(a), currency).trim_end().owned());
        }
    }
    if let Some(b) = breakdown.filter(|b| b.is_object()) {
        let fields = [
            ("inputTokens", "in"),
            ("outputTokens", "out"),
            ("cachedReadTokens", "cache read"),
            ("cachedWriteTokens", "cache write"),
            ("thoughtTokens", "thought"),
            ("totalTokens", "total"),
        ];
        let tokens: Vec<String> = fields
            .iter()
            .filter_map(|(k, label)| {
                b.get(k).and_then(Value::as_f64).map(|n| format!("{} {label}", json::num_text(n)))
            })
            .collect();
        if !tokens.is_empty() {
            parts.push(format!("tokens {}", common::join(&tokens, ", ")));
        }
    }
    common::join(&parts, " · ")
}

/// The fallback for an event neither reader knows: a system entry naming it.
pub(crate) fn unknown(ts: &str, label: &str, v: &Value, out: &mut Vec<Entry>) {
    out.emit(common::unknown_event(ts, label, v));
}

#[cfg(test)]
mod tests;

/// Whether a turn's ACP `stopReason` says it did not complete: cancelled by the client, or
/// refused by the model (`end_turn`, `max_tokens`, `max_turn_requests` are ends).
pub(super) fn stop_failed(stop: &str) -> bool {
    matches!(stop, "cancelled" | "canceled" | "refusal")
}

/// The reason a result's `errors` give for a stop that is no plain end, in words.
pub(super) fn stop_errors(stop: &str) -> Option<String> {
    Some(
        match stop {
            "cancelled" | "canceled" => "the turn was cancelled",
            "refusal" => "the model refused to continue",
            "max_tokens" => "the turn stopped at the token limit",
            "max_turn_requests" => "the turn stopped at the request limit",
            _ => return None,
        }
        .to_owned(),
    )
}
