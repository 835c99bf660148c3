//! `stream_event` lines (`--include-partial-messages`, the Agent SDK's
//! `SDKPartialAssistantMessage`): one raw Messages API streaming event each
//! (`message_start`, `content_block_start`, `content_block_delta` with `text_delta` /
//! `thinking_delta` / `input_json_delta` / `signature_delta`, `content_block_stop`,
//! `message_delta`, `message_stop`, `ping`, `error`).
//!
//! Claude always repeats the complete message as `assistant` lines afterwards, so:
//! - stateless: deltas give no entry (the one documented invisible case; the full text
//!   follows), only stream `error` events are shown;
//! - stateful: `text_delta`/`thinking_delta` become delta entries as they arrive, and the
//!   full text/thinking blocks of the same message (`message.id` from `message_start`)
//!   that match what was streamed are not shown again. Tool calls are never streamed
//!   (`input_json_delta` gives nothing): the complete `tool_use` block is shown.
//!
//! Bookkeeping is bounded: the last [`MAX_MESSAGES`] messages, [`MAX_BLOCKS`] blocks each,
//! and per block only its byte length and an FNV-1a hash of the streamed text.

use crate::prelude::*;
use super::super::common::{path, str_of, type_of, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;
use crate::text::FNV_OFFSET;
use std::collections::VecDeque;

/// Messages remembered for de-duplication (oldest evicted first).
pub const MAX_MESSAGES: usize = 32;
/// Streamed blocks remembered per message.
pub const MAX_BLOCKS: usize = 64;
/// Full blocks remembered to drop exact repeats of the same message (session files
/// written again on resume repeat whole messages under the same `message.id`).
pub const MAX_SHOWN: usize = 256;

fn fnv(h: u64, s: &str) -> u64 {
    crate::text::fnv1a(h, s.bytes())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Text,
    Thinking,
    ToolUse,
}

#[derive(Debug)]
struct Block {
    index: u64,
    kind: Kind,
    len: usize,
    hash: u64,
    shown_in_full: bool,
}

#[derive(Debug)]
struct Streamed {
    /// `message.id` from `message_start`; empty when the stream began mid-message.
    id: String,
    parent: Option<String>,
    blocks: Vec<Block>,
}

/// The stateful parser's memory of streamed text (see the module doc).
#[derive(Debug, Default)]
pub struct State {
    messages: VecDeque<Streamed>,
    /// Hashes of (message id, kind, text or tool id) of full blocks already shown.
    shown: VecDeque<u64>,
    /// The session and running totals of the last `result`.
    last_totals: Option<(String, [f64; 5])>,
    /// Subagent bookkeeping for session files (`super::sidechain`).
    pub(super) sidechain: super::sidechain::Chains,
    /// Session files: per message id (hashed), the usage already counted (`[input, output,
    /// cache reads, cache writes, cost]`); the last few ids only (one message's lines are
    /// close together, parallel subagents interleave a handful).
    pub(super) call_usage: VecDeque<(u64, [f64; 6])>,
    /// Hashes of the `<system-reminder>` notices already shown (the last 64).
    reminders: VecDeque<u64>,
}

impl State {
    /// Whether a harness reminder's notice is new to this session: Claude Code appends the
    /// same paragraph to every Read result, and one notice of it is enough.
    pub(super) fn first_reminder(&mut self, text: &str) -> bool {
        let key = crate::text::fnv1a(crate::text::FNV_OFFSET, text.bytes());
        if self.reminders.contains(&key) {
            return false;
        }
        if self.reminders.len() >= 64 {
            self.reminders.pop_front();
        }
        self.reminders.push_back(key);
        true
    }

    /// What a session-file line's `usage` adds to what earlier lines of the same message
    /// (same `id`) already counted: Claude Code writes one line per content block, each
    /// with the message's usage so far.
    pub(super) fn call_usage_since(&mut self, id: &str, now: [f64; 6]) -> [f64; 6] {
        let key = crate::text::fnv1a(crate::text::FNV_OFFSET, id.bytes());
        let i = match self.call_usage.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                if self.call_usage.len() >= 32 {
                    self.call_usage.pop_front();
                }
                self.call_usage.push_back((key, [0.0; 6]));
                self.call_usage.len() - 1
            }
        };
        let before = &mut self.call_usage[i].1;
        let mut d = [0.0; 6];
        for k in 0..6 {
            if now[k] > before[k] {
                d[k] = now[k] - before[k];
                before[k] = now[k];
            }
        }
        d
    }

    /// A `result`'s `total_cost_usd` and `modelUsage` are the process's running totals
    /// (each result of a multi-turn stream restates the earlier turns: confirmed upstream,
    /// anthropics/claude-code#83239): keep what this result adds, so the host's sum over
    /// results is the session's. `totals` is `[cost, input, output, cache reads, cache
    /// writes]`, all running totals; a new session (or a total that went down: a new
    /// process) starts from 0.
    pub(super) fn since_last(&mut self, session: &str, totals: [f64; 5]) -> [f64; 5] {
        let before = match &self.last_totals {
            Some((s, b)) if s == session && b.iter().zip(&totals).all(|(b, t)| b <= t) => *b,
            _ => [0.0; 5],
        };
        self.last_totals = Some((session.owned(), totals));
        let mut d = [0.0; 5];
        for i in 0..5 {
            d[i] = totals[i] - before[i];
        }
        d
    }

    /// A message starts streaming; the oldest are forgotten past `MAX_MESSAGES` or past
    /// `common::MAX_SEEN_BYTES` of ids (hostile megabyte ids cannot pin memory).
    fn start(&mut self, id: &str, parent: Option<&str>) {
        let size = |m: &Streamed| m.id.len() + m.parent.as_ref().map_or(0, String::len);
        let new = id.len() + parent.map_or(0, str::len);
        while !self.messages.is_empty()
            && (self.messages.len() >= MAX_MESSAGES
                || self.messages.iter().map(size).sum::<usize>() + new > super::super::common::MAX_SEEN_BYTES)
        {
            self.messages.pop_front();
        }
        self.messages.push_back(Streamed {
            id: id.owned(),
            parent: parent.map(str::owned),
            blocks: Vec::new(),
        });
    }

    /// The message currently streaming for this parent (main agent or one subagent).
    fn current(&mut self, parent: Option<&str>) -> &mut Streamed {
        let pos = self
            .messages
            .iter()
            .rposition(|m| m.parent.as_deref() == parent);
        match pos {
            Some(i) => &mut self.messages[i],
            None => {
                self.start("", parent);
                let last = self.messages.len() - 1;
                &mut self.messages[last]
            }
        }
    }

    /// Adds a streamed piece to its block; true when it is the block's first piece.
    fn record(&mut self, parent: Option<&str>, index: u64, kind: Kind, text: &str) -> bool {
        let msg = self.current(parent);
        if let Some(b) = msg
            .blocks
            .iter_mut()
            .find(|b| b.index == index && b.kind == kind)
        {
            b.len += text.len();
            b.hash = fnv(b.hash, text);
            return false;
        } else if msg.blocks.len() < MAX_BLOCKS {
            msg.blocks.push(Block {
                index,
                kind,
                len: text.len(),
                hash: fnv(FNV_OFFSET, text),
                shown_in_full: false,
            });
            return true;
        }
        false
    }

    /// True if this full block was already shown: streamed as deltas, or the same block
    /// of the same message seen before. Only blocks of messages with an id are tracked.
    pub(super) fn already_shown(
        &mut self,
        msg_id: Option<&str>,
        parent: Option<&str>,
        kind: Kind,
        text: &str,
    ) -> bool {
        let streamed = kind != Kind::ToolUse && self.take_streamed(msg_id, parent, kind, text);
        let Some(id) = msg_id.filter(|i| !i.is_empty()) else {
            return streamed;
        };
        let tag = match kind {
            Kind::Text => "\u{0}t\u{0}",
            Kind::Thinking => "\u{0}h\u{0}",
            Kind::ToolUse => "\u{0}u\u{0}",
        };
        let key = fnv(fnv(fnv(FNV_OFFSET, id), tag), text);
        if self.shown.contains(&key) {
            return true;
        }
        if self.shown.len() >= MAX_SHOWN {
            self.shown.pop_front();
        }
        self.shown.push_back(key);
        streamed
    }

    /// True (and remembered) if this full block's text was already streamed as deltas.
    fn take_streamed(
        &mut self,
        msg_id: Option<&str>,
        parent: Option<&str>,
        kind: Kind,
        text: &str,
    ) -> bool {
        if self.messages.is_empty() {
            return false;
        }
        let id = msg_id.unwrap_or("");
        let pos = self
            .messages
            .iter()
            .rposition(|m| !id.is_empty() && m.id == id)
            .or_else(|| {
                self.messages
                    .iter()
                    .rposition(|m| m.id.is_empty() && m.parent.as_deref() == parent)
            });
        let Some(i) = pos else { return false };
        let hash = fnv(FNV_OFFSET, text);
        let block = self.messages[i]
            .blocks
            .iter_mut()
            .find(|b| !b.shown_in_full && b.kind == kind && b.len == text.len() && b.hash == hash);
        match block {
            Some(b) => {
                b.shown_in_full = true;
                true
            }
            None => false,
        }
    }
}

pub(super) fn stream_event(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let event = v.get("event").unwrap_or(&Value::Null);
    let parent = str_of(v, "parent_tool_use_id");
    if type_of(event) == "error" {
        let err = event.get("error").unwrap_or(&Value::Null);
        let kind = str_of(err, "type").unwrap_or("error");
        let msg = str_of(err, "message").unwrap_or("");
        out.emit(Entry::system(
            ts,
            format!("stream error: {kind}: {msg}")
                .trim_end_matches([':', ' '])
                .owned(),
        ));
        return;
    }
    let Some(state) = state else { return };
    match type_of(event) {
        "message_start" => {
            let id = path(event, &["message", "id"])
                .and_then(Value::as_str)
                .unwrap_or("");
            state.start(id, parent);
        }
        "content_block_start" => {
            // A block may open with text already in it (normally empty).
            let block = event.get("content_block").unwrap_or(&Value::Null);
            let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
            match type_of(block) {
                "text" => delta(
                    state,
                    parent,
                    index,
                    Kind::Text,
                    str_of(block, "text"),
                    ts,
                    out,
                ),
                "thinking" => delta(
                    state,
                    parent,
                    index,
                    Kind::Thinking,
                    str_of(block, "thinking"),
                    ts,
                    out,
                ),
                _ => {}
            }
        }
        "content_block_delta" => {
            let d = event.get("delta").unwrap_or(&Value::Null);
            let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
            match type_of(d) {
                "text_delta" => delta(state, parent, index, Kind::Text, str_of(d, "text"), ts, out),
                "thinking_delta" => delta(
                    state,
                    parent,
                    index,
                    Kind::Thinking,
                    str_of(d, "thinking"),
                    ts,
                    out,
                ),
                // input_json_delta, signature_delta, citations_delta: the full block follows.
                _ => {}
            }
        }
        // content_block_stop, message_delta, message_stop, ping: nothing to show.
        _ => {}
    }
}

fn delta(
    state: &mut State,
    parent: Option<&str>,
    index: u64,
    kind: Kind,
    text: Option<&str>,
    ts: &str,
    out: &mut Vec<Entry>,
) {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return;
    };
    let first = state.record(parent, index, kind, text);
    let piece = |t: &str| match kind {
        Kind::Text => Entry::assistant_delta(ts, t),
        _ => Entry::thinking_delta(ts, t),
    };
    if first && parent.is_some() {
        // A subagent's streamed text starts with the same mark as its full text (see
        // `Entry::with_parent`), as a piece of its own that the host's merge joins.
        out.emit(piece(crate::entry::SUBAGENT_TEXT).with_parent(parent));
    }
    out.emit(piece(text).with_parent(parent));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_bounded() {
        let mut s = State::default();
        for i in 0..(MAX_MESSAGES * 3) {
            s.start(&format!("msg_{i}"), None);
            for b in 0..(MAX_BLOCKS as u64 * 2) {
                s.record(None, b, Kind::Text, "x");
            }
        }
        assert_eq!(s.messages.len(), MAX_MESSAGES);
        assert!(s.messages.iter().all(|m| m.blocks.len() <= MAX_BLOCKS));
        for i in 0..(MAX_SHOWN * 2) {
            s.already_shown(Some("m"), None, Kind::ToolUse, &i.to_string());
        }
        assert_eq!(s.shown.len(), MAX_SHOWN);
    }
}
