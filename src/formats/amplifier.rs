//! Amplifier through its Paperclip bridge (`amplifier-paperclip-bridge`, the adapter
//! bkrabach/amplifier-paperclip-adapter, adapter type `amplifier_local`): the bridge's JSONL
//! protocol v1.0, one event per line, `{"type": …}`:
//!
//! - `init` (`session_id`, `model`, `bundle`) → `init`
//! - `content_delta` (`text`) → `assistant` delta
//! - `tool_start` (`tool`, `input`: a string, which the bridge makes with Python's `str()`, so
//!   a dict's repr more often than JSON) → `tool_call` (the input parsed when it is JSON, else
//!   kept as its text)
//! - `tool_end` (`tool`, `output`, cut at 2,000 characters by the bridge) → `tool_result`
//! - `result` (`session_id`, `response`, `usage{input_tokens, output_tokens}` or null,
//!   `cost_usd` or null, `status: "completed"`) → `result` (the bridge of 2026 sends null for
//!   both: a run with no counts)
//! - `error` (`message`, `code`: TIMEOUT, BUNDLE_NOT_FOUND, PREPARE_FAILED, SESSION_ERROR,
//!   UNKNOWN), the run's end when it fails → a failed `result`: the code in lower case as its
//!   subtype, the message in `errors` (shown once).
//!
//! The protocol has no call ids. Read alone, a call and its result share `amplifier-<tool>`
//! (the host pairs a result with the open call under its id, and the same tool called again
//! after its result is a new card); the stateful parser numbers each tool's calls
//! (`amplifier-<tool>-<n>`) and gives a result the oldest open call of its tool.
//!
//! Evidence: no published run exists. Built from the bridge's own source (`output.py`, the
//! event writers; `main.py`, what goes into them) and the repository's `protocol.md`, and
//! marked as derived (tests/fixtures/amplifier/PROVENANCE.md; docs/formats/amplifier.md).

use crate::prelude::*;
use super::common::{self, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// The calls still open, oldest first: (tool, number), and how many calls each tool had.
#[derive(Debug, Default)]
pub struct State {
    open: Vec<(String, u32)>,
    counts: Vec<(String, u32)>,
}

/// Calls and tool names remembered at most (a run whose results never come stays bounded).
const MAX_OPEN: usize = 256;
/// The longest tool name remembered (a longer one is kept as "": its calls pair by order).
const MAX_NAME_BYTES: usize = 128;

pub fn detect(v: &Value) -> Confidence {
    let s = |k: &str| v.get(k).is_some_and(Value::is_string);
    let sure = match type_of(v) {
        "init" => s("bundle") && s("session_id") && s("model"),
        "content_delta" => s("text") && v.as_object().is_some_and(|m| m.len() == 2),
        "tool_start" => s("tool") && s("input"),
        "tool_end" => s("tool") && s("output"),
        "result" => s("response") && str_of(v, "status") == Some("completed") && v.get("cost_usd").is_some(),
        // Exactly the three fields, and one of the protocol's codes.
        "error" => {
            s("message")
                && v.as_object().is_some_and(|m| m.len() == 3)
                && matches!(str_of(v, "code"), Some("TIMEOUT" | "BUNDLE_NOT_FOUND" | "PREPARE_FAILED" | "SESSION_ERROR" | "UNKNOWN"))
        }
        _ => false,
    };
    Confidence::sure_if(sure)
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let s = |k: &str| str_of(v, k).unwrap_or("");
    let tool = if s("tool").is_empty() { "tool" } else { s("tool") };
    // What the stateful parser keeps of a name: a longer one is kept as "" (bounded in bytes).
    let key = if tool.len() > MAX_NAME_BYTES { "" } else { tool };
    match type_of(v) {
        "init" => out.emit(Entry::init(ts, s("model"), s("session_id"))),
        "content_delta" if !s("text").is_empty() => out.emit(Entry::assistant_delta(ts, s("text"))),
        "content_delta" => {}
        "tool_start" => {
            let id = match state {
                Some(st) => {
                    let n = counted(&mut st.counts, key);
                    if st.open.len() >= MAX_OPEN {
                        st.open.remove(0);
                    }
                    st.open.push((key.owned(), n));
                    numbered(key, n)
                }
                None => format!("amplifier-{tool}"),
            };
            out.emit(Entry::tool_call(ts, tool, common::arguments(v.get("input")), Some(id)));
        }
        "tool_end" => {
            let id = match state {
                Some(st) => match st.open.iter().position(|(t, _)| t == key) {
                    Some(i) => {
                        let (t, n) = st.open.remove(i);
                        numbered(&t, n)
                    }
                    None => format!("amplifier-{tool}"),
                },
                None => format!("amplifier-{tool}"),
            };
            out.emit(Entry::tool_result(ts, id, Some(tool.owned()), s("output"), false));
        }
        "result" => {
            let usage = v.get("usage").unwrap_or(&Value::Null);
            let mut r = Entry::untallied_result(ts, s("response").owned(), "success", false, Vec::new());
            if let Entry::Result { input_tokens, output_tokens, cost_usd, .. } = &mut r {
                (*input_tokens, *output_tokens) = (num_of(usage, "input_tokens").max(0.0), num_of(usage, "output_tokens").max(0.0));
                *cost_usd = num_of(v, "cost_usd").max(0.0);
            }
            out.emit(r)
        }
        "error" => {
            let code = if s("code").is_empty() { "error".owned() } else { s("code").to_ascii_lowercase() };
            out.emit(Entry::untallied_result(ts, String::new(), &code, true, vec![format!("Amplifier: {}", s("message"))]))
        }
        _ => out.emit(common::unknown_event(ts, "amplifier", v)),
    }
}

/// The next number of `tool`'s calls (1 for its first); a name past the count bound shares
/// one count with the others past it.
fn counted(counts: &mut Vec<(String, u32)>, tool: &str) -> u32 {
    let tool = if counts.len() >= MAX_OPEN && !counts.iter().any(|(t, _)| t == tool) { "" } else { tool };
    match counts.iter_mut().find(|(t, _)| t == tool) {
        Some((_, n)) => {
            *n = n.saturating_add(1);
            *n
        }
        None => {
            counts.push((tool.owned(), 1));
            1
        }
    }
}

fn numbered(tool: &str, n: u32) -> String {
    format!("amplifier-{tool}-{n}")
}

#[cfg(test)]
mod tests {
    use crate::entry::Entry;
    use crate::parser::{parse_line, StdoutParser};
    use crate::Format;

    const START: &str = r#"{"type": "tool_start", "tool": "bash", "input": "{'command': 'ls'}"}"#;
    const END: &str = r#"{"type": "tool_end", "tool": "bash", "output": "a.txt\n"}"#;

    fn ids(entries: &[Entry]) -> Vec<String> {
        entries
            .iter()
            .filter_map(|e| match e {
                Entry::ToolCall { tool_use_id, .. } => tool_use_id.clone(),
                Entry::ToolResult { tool_use_id, .. } => Some(tool_use_id.clone()),
                _ => None,
            })
            .collect()
    }

    /// Two calls of one tool running at once: read alone they share the tool's id; the
    /// stateful parser numbers them and answers the oldest first.
    #[test]
    fn calls_without_ids_pair_by_tool_and_order() {
        let mut p = StdoutParser::with_format(Format::Amplifier);
        let stateful: Vec<Entry> = [START, START, END, END].iter().flat_map(|l| p.parse_line(l, "t")).collect();
        assert_eq!(ids(&stateful), ["amplifier-bash-1", "amplifier-bash-2", "amplifier-bash-1", "amplifier-bash-2"]);
        let alone: Vec<Entry> = [START, END].iter().flat_map(|l| parse_line(l, "t")).collect();
        assert_eq!(ids(&alone), ["amplifier-bash", "amplifier-bash"]);
        // The bridge's input is Python's str() of a dict: kept as its text.
        assert!(matches!(&alone[0], Entry::ToolCall { input, .. } if input.as_str() == Some("{'command': 'ls'}")));
    }

    /// Bounded in bytes: a tool name past 128 bytes is not kept, its calls still pair.
    #[test]
    fn a_long_tool_name_is_not_kept() {
        let name = "x".repeat(100_000);
        let start = format!(r#"{{"type": "tool_start", "tool": "{name}", "input": "{{}}"}}"#);
        let end = format!(r#"{{"type": "tool_end", "tool": "{name}", "output": ""}}"#);
        let mut p = StdoutParser::with_format(Format::Amplifier);
        let out: Vec<Entry> = [&start, &start, &end].iter().flat_map(|l| p.parse_line(l, "t")).collect();
        assert_eq!(ids(&out), ["amplifier--1", "amplifier--2", "amplifier--1"]);
    }

    #[test]
    fn an_error_ends_the_run_failed_with_its_words() {
        let line = r#"{"type": "error", "message": "Session timed out", "code": "TIMEOUT"}"#;
        let mut p = StdoutParser::with_format(Format::Amplifier);
        match &p.parse_line(line, "t")[..] {
            [Entry::Result { is_error: true, subtype, errors, .. }] => {
                assert_eq!((subtype.as_str(), errors.as_slice()), ("timeout", ["Amplifier: Session timed out".to_owned()].as_slice()))
            }
            other => panic!("{other:?}"),
        }
    }
}
