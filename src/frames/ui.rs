//! The UI helpers of `@clawboo/protocol`: `stripUiMetadata` (the prompt scaffolding OpenClaw
//! prepends to user turns), `isHeartbeatPrompt`, and the agent-file constants.

use super::text::strip_envelope;
use crate::js::{self, find_ci, is_space, is_word_byte, starts_with_ci, Js, Obj};

/// After a `[\s\S]*?\n\s*\n` starting at byte `from`: the end of the first blank-line run
/// (just past its last `\n`), or `None` when the text has no blank line there.
fn blank_line_end(s: &str, from: usize) -> Option<usize> {
    let mut pos = from;
    while let Some(rel) = s.get(pos..).and_then(|r| r.find('\n')) {
        let k = pos + rel;
        let mut last_nl = None;
        let mut end = k + 1;
        for (i, c) in s[k + 1..].char_indices() {
            if !is_space(c) {
                break;
            }
            if c == '\n' {
                last_nl = Some(k + 1 + i);
            }
            end = k + 1 + i + c.len_utf8();
        }
        if let Some(nl) = last_nl {
            return Some(nl + 1);
        }
        pos = end.max(k + 1);
    }
    None
}

/// `^A new session was started via /new or /reset[\s\S]*?reasoning\.\s*` (case-insensitive).
fn strip_reset_prompt(s: &str) -> &str {
    const HEAD: &str = "A new session was started via /new or /reset";
    if !starts_with_ci(s, HEAD) {
        return s;
    }
    match find_ci(s, "reasoning.", HEAD.len()) {
        Some(at) => &s[js::skip_spaces(s, at + "reasoning.".len())..],
        None => s,
    }
}

/// `^System:\s*\[[^\]]+\][\s\S]*?\n\s*\n` (case-sensitive).
fn strip_system_event(s: &str) -> &str {
    let Some(rest) = s.strip_prefix("System:") else { return s };
    let open = js::skip_spaces(s, s.len() - rest.len());
    if s.as_bytes().get(open) != Some(&b'[') {
        return s;
    }
    let Some(close) = s[open + 1..].find(']').filter(|c| *c > 0).map(|c| open + 1 + c) else {
        return s;
    };
    blank_line_end(s, close + 1).map_or(s, |end| &s[end..])
}

/// `^(?:Project|Workspace) path:` (case-insensitive): the byte length of that head.
fn project_head(s: &str) -> Option<usize> {
    ["Project path:", "Workspace path:"].iter().find(|h| starts_with_ci(s, h)).map(|h| h.len())
}

/// The inline project prompt (up to `memory_search.`), else the project block (up to a blank line).
fn strip_project_prompt(s: &str) -> &str {
    let Some(head) = project_head(s) else { return s };
    if let Some(at) = find_ci(s, "memory_search.", head) {
        return &s[js::skip_spaces(s, at + "memory_search.".len())..];
    }
    blank_line_end(s, head).map_or(s, |end| &s[end..])
}

/// Removes every `\s{0,32}\[message_id:[^\]]{1,128}\]\s{0,32}` (case-insensitive).
fn strip_message_ids(s: &str) -> String {
    const MARK: &str = "[message_id:";
    let mut out = String::with_capacity(s.len());
    let mut copied = 0; // bytes of `s` already handled (also where the regex resumes)
    let mut pos = 0;
    while let Some(rel) = s.get(pos..).and_then(|r| r.find('[')) {
        let b = pos + rel;
        pos = b + 1;
        if !starts_with_ci(&s[b..], MARK) {
            continue;
        }
        let id_start = b + MARK.len();
        let mut units = 0;
        let mut close = None;
        for (i, c) in s[id_start..].char_indices() {
            if c == ']' {
                close = Some(id_start + i);
                break;
            }
            units += c.len_utf16();
            if units > 128 {
                break;
            }
        }
        let Some(close) = close.filter(|_| units >= 1) else { continue };
        let mut start = b;
        for (n, (i, c)) in s[copied..b].char_indices().rev().enumerate() {
            if n >= 32 || !is_space(c) {
                break;
            }
            start = copied + i;
        }
        let mut end = close + 1;
        for (n, (i, c)) in s[close + 1..].char_indices().enumerate() {
            if n >= 32 || !is_space(c) {
                break;
            }
            end = close + 1 + i + c.len_utf8();
        }
        out.push_str(&s[copied..start]);
        copied = end;
        pos = end;
    }
    out.push_str(&s[copied..]);
    out
}

/// `stripUiMetadata(text)` for a non-empty string.
pub fn strip_ui_metadata(text: &str) -> String {
    let cleaned = strip_system_event(strip_reset_prompt(text));
    let cleaned = strip_project_prompt(cleaned);
    let cleaned = strip_message_ids(cleaned);
    strip_envelope(js::trim(&cleaned)).to_owned()
}

/// `isHeartbeatPrompt(text)` for a string.
pub fn is_heartbeat_prompt(text: &str) -> bool {
    const HEAD: &str = "Read HEARTBEAT.md if it exists";
    let t = js::trim(text);
    let head =
        starts_with_ci(t, HEAD) && !t.as_bytes().get(HEAD.len()).copied().is_some_and(is_word_byte);
    head || find_ci(t, "Heartbeat file path:", 0).is_some()
}

/// The seven agent file names, in upstream order.
pub const AGENT_FILE_NAMES: [&str; 7] =
    ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md"];

/// `AGENT_FILE_META` hints, per name (the revision the conformance cases were recorded from).
const AGENT_FILE_HINTS: [&str; 7] = [
    "Operating instructions, priorities, and rules.",
    "Persona, tone, and boundaries.",
    "Name, vibe, and emoji.",
    "User profile and preferences.",
    "Local tool notes and conventions.",
    "Small checklist for heartbeat runs.",
    "Durable memory for this agent.",
];

const AGENT_FILE_PLACEHOLDERS: [&str; 7] = [
    "How should this agent work? Priorities, rules, and habits.",
    "Tone, personality, boundaries, and how it should sound.",
    "Name, vibe, emoji, and a one-line identity.",
    "How should it address you? Preferences and context.",
    "Local tool notes, conventions, and shortcuts.",
    "A tiny checklist for periodic runs.",
    "Durable facts, decisions, and preferences to remember.",
];

/// `isAgentFileName(value)`: exact, case-sensitive membership.
pub fn is_agent_file_name(value: &Js) -> bool {
    value.as_str().is_some_and(|v| AGENT_FILE_NAMES.contains(&v))
}

pub fn agent_file_names() -> Js {
    Js::Arr(AGENT_FILE_NAMES.iter().map(|n| Js::from(*n)).collect())
}

pub fn agent_file_meta() -> Js {
    let mut o = Obj::new();
    for (name, hint) in AGENT_FILE_NAMES.iter().zip(AGENT_FILE_HINTS) {
        o.set(name, Obj::new().with("title", (*name).into()).with("hint", hint.into()).into());
    }
    o.into()
}

pub fn agent_file_placeholders() -> Js {
    let mut o = Obj::new();
    for (name, text) in AGENT_FILE_NAMES.iter().zip(AGENT_FILE_PLACEHOLDERS) {
        o.set(name, text.into());
    }
    o.into()
}
