//! The human text inside a JSON object nobody understands.
//!
//! A notice for an unknown event may summarise the event, but what a person wrote or read
//! inside it (a prompt, a reply, an error message, a search query) must stay visible. This
//! walks the object at any depth and keeps the strings under content-like keys, labelled
//! by the nearest `type`/`role` (or by the key), in document order, up to a byte budget;
//! past it the notice says how much more the original line holds.

use crate::prelude::*;
use super::{prefix_bytes, Map, Value};

/// Keys whose string values are text a person reads (any depth).
const TEXT_KEYS: &[&str] = &[
    "text", "content", "message", "prompt", "query", "queries", "output", "result", "summary",
    "description", "title", "error", "reason", "thought", "thoughts", "body", "response",
    "snippet", "stdout", "stderr", "answer", "question", "subject", "detail", "details", "command",
];

/// Keys never read: ids, hashes, signatures and encoded blobs carry no human text.
const SKIP_KEYS: &[&str] = &["signature", "data", "encrypted_content", "id", "uuid"];

/// Largest total of text (bytes) one notice carries.
pub const TEXT_BUDGET: usize = 4096;
/// Strings shorter than this are not worth a line of their own (`"ok"`, `"user"`).
const MIN_CHARS: usize = 2;
/// How deep the walk goes (a bound on adversarial nesting).
const MAX_DEPTH: usize = 24;

/// The texts found, and how many bytes of text did not fit the budget.
#[derive(Debug, Default)]
pub struct Texts {
    pub parts: Vec<(String, String)>,
    pub omitted: usize,
    used: usize,
}

/// The human text of `v` (see the module doc).
pub fn human_texts(v: &Value) -> Texts {
    let mut t = Texts::default();
    walk(v, "", false, 0, &mut t);
    t
}

fn label_of(map: &Map, fallback: &str) -> String {
    for k in ["role", "type", "name"] {
        if let Some(s) = map.get(k).and_then(Value::as_str) {
            if !s.is_empty() && s.len() <= 40 {
                return s.to_owned();
            }
        }
    }
    fallback.to_owned()
}

fn walk(v: &Value, label: &str, texty: bool, depth: usize, t: &mut Texts) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::String(s) if texty => add(label, s, t),
        Value::Array(items) => {
            for item in items {
                walk(item, label, texty, depth + 1, t);
            }
        }
        Value::Object(map) => {
            let here = label_of(map, label);
            for (k, val) in map.iter() {
                if SKIP_KEYS.contains(&k) {
                    continue;
                }
                let is_text = TEXT_KEYS.contains(&k);
                let l = if here.is_empty() { k } else { here.as_str() };
                walk(val, l, is_text, depth + 1, t);
            }
        }
        _ => {}
    }
}

fn add(label: &str, s: &str, t: &mut Texts) {
    let s = s.trim();
    if s.chars().count() < MIN_CHARS {
        return;
    }
    let room = TEXT_BUDGET.saturating_sub(t.used);
    if room == 0 {
        t.omitted += s.len();
        return;
    }
    let kept = prefix_bytes(s, room);
    t.omitted += s.len() - kept.len();
    t.used += kept.len();
    t.parts.push((label.to_owned(), kept.to_owned()));
}

impl Texts {
    /// `label: text` lines (each one not already in `shown`), and a closing note when some
    /// text did not fit.
    pub fn render(&self, shown: &str) -> String {
        let mut out = String::new();
        for (label, text) in &self.parts {
            if super::has(shown, text) {
                continue;
            }
            out.push('\n');
            if !label.is_empty() {
                out.push_str(label);
                out.push_str(": ");
            }
            out.push_str(text);
        }
        if self.omitted > 0 {
            out.push_str(&format!(
                "\n… {} more bytes of text in the original line",
                self.omitted
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_texts_are_kept_in_order_and_bounded() {
        let j: serde_json::Value = serde_json::json!({
            "sessionId": "s", "projectHash": "h",
            "messages": [
                {"type": "user", "content": "fix the bug", "id": "1"},
                {"type": "gemini", "content": "", "thoughts": [{"subject": "Plan", "description": "read the file"}],
                 "toolCalls": [{"name": "read_file", "args": {"path": "/a"}, "result": [{"functionResponse": {"response": {"output": "file body"}}}]}]}
            ]
        });
        let t = human_texts(&Value::from_json(&j));
        let got: Vec<String> = t.parts.iter().map(|(l, s)| format!("{l}: {s}")).collect();
        assert_eq!(got, ["user: fix the bug", "gemini: Plan", "gemini: read the file", "read_file: file body"]);
        let big = serde_json::json!({"x": {"text": "a".repeat(TEXT_BUDGET + 10)}});
        let t = human_texts(&Value::from_json(&big));
        assert_eq!(t.omitted, 10);
        assert!(t.render("").ends_with("10 more bytes of text in the original line"));
    }
}
