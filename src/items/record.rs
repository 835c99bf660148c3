//! Reading values out of a Claude Code transcript record: every field is optional until
//! looked at, and a value of the wrong shape reads as nothing. The rules are kawaz/ccmsg's
//! `src/transcript/items/record.ts` (@ `bdcf793d`): a string field counts only when
//! non-empty, a count only when finite and ≥ 0 (rounded), an instant is `Date.parse`
//! milliseconds clamped at 0.

use crate::sessions::js;
use serde_json::{Map, Value};

pub type Row = Map<String, Value>;

/// One record of a transcript and the byte offset it begins at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located<'a> {
    pub line: &'a str,
    pub offset: u64,
}

/// A chunk's records, each placed from `start`: lines split on `\n`, empty lines skipped
/// but counted, each line's span its UTF-8 length plus the terminator.
pub fn located(chunk: &str, start: u64) -> Vec<Located<'_>> {
    let mut found = Vec::new();
    let mut offset = start;
    for line in chunk.split('\n') {
        if !line.is_empty() {
            found.push(Located { line, offset });
        }
        offset += span(line);
    }
    found
}

/// How far a record runs, its terminator included.
pub fn span(line: &str) -> u64 {
    line.len() as u64 + 1
}

pub fn row(v: Option<&Value>) -> Option<&Row> {
    v.and_then(Value::as_object)
}

/// A non-empty string.
pub fn str_(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

pub fn bool_(v: Option<&Value>) -> Option<bool> {
    v.and_then(Value::as_bool)
}

/// A finite number ≥ 0, rounded.
pub fn count(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).and_then(count_of)
}

pub fn count_of(x: f64) -> Option<f64> {
    (x.is_finite() && x >= 0.0).then(|| js::round(x))
}

pub fn list(v: Option<&Value>) -> &[Value] {
    match v {
        Some(Value::Array(a)) => a,
        _ => &[],
    }
}

/// Milliseconds of an ISO instant, 0 when missing or unreadable, never negative.
pub fn instant(v: Option<&Value>) -> f64 {
    match v.and_then(Value::as_str).and_then(js::date_parse) {
        Some(t) if t.is_finite() => js::round(t).max(0.0),
        _ => 0.0,
    }
}

/// The trimmed text of the first `<tag>` up to the next `</tag>`; empty reads as nothing.
pub fn tagged<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let from = text.find(&open)? + open.len();
    let to = text[from..].find(&format!("</{tag}>"))? + from;
    let found = js::trim(&text[from..to]);
    (!found.is_empty()).then_some(found)
}

/// `name="…"` anywhere in the text; empty reads as nothing.
pub fn attribute<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let from = text.find(&key)? + key.len();
    let to = text[from..].find('"')? + from;
    let v = &text[from..to];
    (!v.is_empty()).then_some(v)
}

/// A content field that is a string or the blocks of one (each block's `text`, or the
/// block itself when it is a string), joined by newlines.
pub fn text(v: Option<&Value>) -> Option<String> {
    if let Some(s) = str_(v) {
        return Some(s.to_owned());
    }
    let Some(Value::Array(a)) = v else {
        return None;
    };
    let parts: Vec<&str> = a
        .iter()
        .filter_map(|b| match b {
            Value::Object(o) => str_(o.get("text")),
            other => str_(Some(other)),
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// How many lines a text has (`split("\n").length`).
pub fn lines(text: Option<&str>) -> Option<f64> {
    text.map(|t| (t.matches('\n').count() + 1) as f64)
}

/// One segment of a type name: every UTF-16 unit outside `[A-Za-z0-9_.-]` becomes `-`
/// (so a character beyond the BMP becomes `--`); empty becomes `unknown`.
pub fn segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
            out.push(c);
        } else {
            for _ in 0..c.len_utf16() {
                out.push('-');
            }
        }
    }
    if out.is_empty() {
        "unknown".to_owned()
    } else {
        out
    }
}

/// Inserts `name: value` only when there is a value (optional fields are absent, never
/// null).
pub fn optional(fields: &mut Row, name: &str, value: Option<Value>) {
    if let Some(v) = value {
        fields.insert(name.to_owned(), v);
    }
}

pub fn opt_str(s: Option<&str>) -> Option<Value> {
    s.map(Value::from)
}

pub fn opt_num(n: Option<f64>) -> Option<Value> {
    n.map(js::number)
}
