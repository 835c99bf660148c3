//! Message text and thinking, as `@clawboo/protocol` reads them: `extractText` (with the
//! assistant / user post-processing), `extractThinking`, and the tagged-thinking scanners.
//! The upstream regexes are matched by hand here; see `docs/frames.md` for the quirks kept.

use crate::js::{self, is_word_byte, starts_with_ci, Js};

/// A `<think>`-style tag at bytes `start..end` of the text; `close` when it has the slash.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tag {
    pub start: usize,
    pub end: usize,
    pub close: bool,
}

/// The tag names of the narrow set (`think|thinking|analysis`) and the wide stream set.
const NARROW: &[&str] = &["think", "thinking", "analysis"];
const WIDE: &[&str] = &["think", "thinking", "analysis", "thought", "antthinking"];

/// `<\s*(?:\/\s*)?NAME\s*>` at byte `at` (which holds `<`), case-insensitive.
fn tag_at(s: &str, at: usize, names: &[&str]) -> Option<Tag> {
    let b = s.as_bytes();
    let mut i = js::skip_spaces(s, at + 1);
    let close = b.get(i) == Some(&b'/');
    if close {
        i = js::skip_spaces(s, i + 1);
    }
    let name_start = i;
    while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    let name = &b[name_start..i];
    if !names.iter().any(|n| n.as_bytes().eq_ignore_ascii_case(name)) {
        return None;
    }
    i = js::skip_spaces(s, i);
    (b.get(i) == Some(&b'>')).then_some(Tag { start: at, end: i + 1, close })
}

/// Every tag of the set, left to right, the way a global regex finds them.
fn tags(s: &str, names: &[&str]) -> Vec<Tag> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(rel) = s.get(pos..).and_then(|r| r.find('<')) {
        let at = pos + rel;
        match tag_at(s, at, names) {
            Some(t) => {
                pos = t.end;
                out.push(t);
            }
            None => pos = at + 1,
        }
    }
    out
}

/// Upstream `stripThinkingTags` (narrow set), used on assistant text.
fn strip_thinking_tags(value: &str) -> String {
    let all = tags(value, NARROW);
    let has_open = all.iter().any(|t| !t.close);
    let has_close = all.iter().any(|t| t.close);
    if !has_open && !has_close {
        return value.to_owned();
    }
    if let (true, Some(t)) = (has_open != has_close, all.first()) {
        // Only the first tag goes; the content stays.
        let mut out = String::with_capacity(value.len());
        out.push_str(&value[..t.start]);
        out.push_str(&value[t.end..]);
        return js::trim_start(&out).to_owned();
    }
    let mut result = String::new();
    let mut last = 0;
    let mut in_thinking = false;
    for t in &all {
        if !in_thinking {
            result.push_str(&value[last..t.start]);
        }
        in_thinking = !t.close;
        last = t.end;
    }
    if !in_thinking {
        result.push_str(&value[last..]);
    }
    js::trim_start(&result).to_owned()
}

/// Upstream `stripAssistantPrefix`: a leading `[[reply_to_current]]` / `[reply_to_current]`.
fn strip_assistant_prefix(text: String) -> String {
    let rest = ["[[reply_to_current]]", "[reply_to_current]"]
        .iter()
        .find(|p| starts_with_ci(&text, p))
        .map(|p| &text[p.len()..]);
    let Some(rest) = rest else { return text };
    let mut rest = js::trim_start(rest);
    if let Some(r) = rest.strip_prefix('|') {
        rest = js::trim_start(r);
    }
    js::trim_start(rest).to_owned()
}

const ENVELOPE_CHANNELS: &[&str] = &[
    "WebChat", "WhatsApp", "Telegram", "Signal", "Slack", "Discord", "iMessage", "Teams", "Matrix",
];

/// `\d{4}-\d{2}-\d{2}` + `sep` + `\d{2}:\d{2}` + `tail`, then `\b`, anywhere in `h`.
fn has_stamp(h: &[u8], sep: u8, tail: &[u8]) -> bool {
    let len = 16 + tail.len();
    (0..=h.len().saturating_sub(len)).any(|i| {
        let Some(w) = h.get(i..i + len) else { return false };
        let digit = |k: usize| w[k].is_ascii_digit();
        let shape = (0..4).all(digit)
            && w[4] == b'-'
            && (5..7).all(digit)
            && w[7] == b'-'
            && (8..10).all(digit)
            && w[10] == sep
            && (11..13).all(digit)
            && w[13] == b':'
            && (14..16).all(digit)
            && &w[16..] == tail;
        shape && !h.get(i + len).copied().is_some_and(is_word_byte)
    })
}

fn looks_like_envelope_header(h: &str) -> bool {
    has_stamp(h.as_bytes(), b'T', b"Z")
        || has_stamp(h.as_bytes(), b' ', b"")
        || ENVELOPE_CHANNELS.iter().any(|c| h.strip_prefix(c).is_some_and(|r| r.starts_with(' ')))
}

/// Upstream `stripEnvelope`: a leading `[header]` that looks like a channel envelope.
pub(crate) fn strip_envelope(text: &str) -> &str {
    let Some(inner) = text.strip_prefix('[') else { return text };
    let Some(close) = inner.find(']') else { return text };
    if close == 0 || !looks_like_envelope_header(&inner[..close]) {
        return text;
    }
    js::trim_start(&inner[close + 1..])
}

const EXEC_APPROVAL_SUFFIX: &str = "\n\nExecution approval policy:\n\
- If any tool result says approval is required or pending, stop immediately.\n\
- Do not call additional tools and do not switch to alternate approaches.\n\
If approved command output is unavailable, reply exactly: \"Waiting for approved command result.\"";

/// The text of a message before post-processing (upstream `extractRawText`).
pub(crate) fn extract_raw_text(message: &Js) -> Option<String> {
    if !message.truthy() || !message.is_object() {
        return None;
    }
    let content = message.get("content");
    if let Some(s) = content.as_str() {
        return Some(s.to_owned());
    }
    if let Js::Arr(items) = content {
        let mut joined: Option<String> = None;
        for p in items {
            if p.get("type").as_str() != Some("text") {
                continue;
            }
            if let Some(t) = p.get("text").as_str() {
                match &mut joined {
                    Some(j) => {
                        j.push('\n');
                        j.push_str(t);
                    }
                    None => joined = Some(t.to_owned()),
                }
            }
        }
        if joined.is_some() {
            return joined;
        }
    }
    message.get("text").as_str().map(str::to_owned)
}

/// `extractText(message)`.
pub fn extract_text(message: &Js) -> Option<String> {
    let raw = extract_raw_text(message)?;
    if message.get("role").as_str() == Some("assistant") {
        if raw.is_empty() {
            return Some(raw);
        }
        return Some(strip_assistant_prefix(strip_thinking_tags(&raw)));
    }
    let s = strip_envelope(&raw);
    Some(s.strip_suffix(EXEC_APPROVAL_SUFFIX).unwrap_or(s).to_owned())
}

/// `extractThinkingFromTaggedText(text)` for a string.
pub fn thinking_from_tagged_text(text: &str) -> String {
    let mut result = String::new();
    let mut last = 0;
    let mut in_thinking = false;
    for t in tags(text, WIDE) {
        if in_thinking {
            result.push_str(&text[last..t.start]);
        }
        in_thinking = !t.close;
        last = t.end;
    }
    js::trim(&result).to_owned()
}

/// `extractThinkingFromTaggedStream(text)` for a string: also an unclosed last opener.
pub fn thinking_from_tagged_stream(text: &str) -> String {
    let closed = thinking_from_tagged_text(text);
    if !closed.is_empty() {
        return closed;
    }
    // The last tag decides: an opener with no closer after it leaves the rest streaming.
    match tags(text, WIDE).last() {
        Some(t) if !t.close => js::trim(&text[t.end..]).to_owned(),
        _ => closed,
    }
}

const THINKING_KEYS: &[&str] = &[
    "thinking",
    "analysis",
    "reasoning",
    "thinkingText",
    "thinkingDelta",
    "analysisText",
    "analysisDelta",
    "reasoningText",
    "reasoningDelta",
];

/// The first non-blank direct thinking key of a record, trimmed.
fn thinking_of_record(record: &Js) -> Option<String> {
    for k in THINKING_KEYS {
        let t = js::trim(record.get(k).as_str().unwrap_or(""));
        if !t.is_empty() {
            return Some(t.to_owned());
        }
    }
    None
}

/// `v` trimmed when it is a non-blank string.
fn trimmed_text(v: &Js) -> Option<String> {
    let t = js::trim(v.as_str()?);
    (!t.is_empty()).then(|| t.to_owned())
}

/// `extractThinking(message)`.
pub fn extract_thinking(message: &Js) -> Option<String> {
    if !message.truthy() || !message.is_object() {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    if let Js::Arr(items) = message.get("content") {
        for item in items {
            let kind = item.get("type").as_str().unwrap_or("");
            let found = if matches!(kind, "thinking" | "analysis" | "reasoning") {
                thinking_of_record(item).or_else(|| trimmed_text(item.get("text")))
            } else {
                trimmed_text(item.get("thinking"))
            };
            parts.extend(found);
        }
    }
    if !parts.is_empty() {
        return Some(parts.join("\n"));
    }
    if let Some(direct) = thinking_of_record(message) {
        return Some(direct);
    }
    let raw = extract_raw_text(message).filter(|r| !r.is_empty())?;
    let bodies = closed_block_bodies(&raw);
    if !bodies.is_empty() {
        return Some(bodies.join("\n"));
    }
    Some(thinking_from_tagged_stream(&raw)).filter(|s| !s.is_empty())
}

/// Trimmed, non-empty bodies of closed `<think>` blocks (narrow set; openers do not nest).
fn closed_block_bodies(text: &str) -> Vec<String> {
    let mut bodies = Vec::new();
    let mut open_end: Option<usize> = None;
    for t in tags(text, NARROW) {
        if t.close {
            if let Some(from) = open_end.take() {
                let body = js::trim(&text[from..t.start]);
                if !body.is_empty() {
                    bodies.push(body.to_owned());
                }
            }
        } else if open_end.is_none() {
            open_end = Some(t.end);
        }
    }
    bodies
}
