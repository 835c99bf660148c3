//! Helpers every runtime module shares: reading fields leniently out of a JSON value,
//! flattening content blocks to text, and the readable fallbacks for events nobody knows.
//! Nothing here panics on any input.

use crate::prelude::*;
use crate::entry::Entry;
use std::collections::VecDeque;

pub mod budget;
mod bytes;
pub mod diff;
mod num;
mod number;
pub mod pairs;
pub mod read;
mod scan;
#[cfg(test)]
mod serde_ref;
mod shape;
mod texts;
mod val;
pub mod write;
pub use num::{fixed, fract, num_text, round, trunc};
pub use number::number as json_number;
pub use texts::{human_texts, TEXT_BUDGET};
pub use val::{Map, Value};
/// Output JSON (tool inputs and the like): the value tree, owning its strings.
pub type Json = Value<'static>;

/// How module parsers add an entry: `out.emit(entry)`. Kept out of line on purpose: one
/// call at each of the ~200 emitting sites instead of an inlined grow-and-copy of the
/// entry (about 9 KB of the wasm). While a line is parsed, an entry past the line's output
/// budget is not added ([`budget`]).
pub trait Emit {
    fn emit(&mut self, e: Entry);
}

impl Emit for Vec<Entry> {
    #[inline(never)]
    fn emit(&mut self, e: Entry) {
        if budget::admit(&e) {
            self.push(e);
        }
    }
}

/// `text.owned()` is `text.to_owned()` kept out of line: at opt-level `s` the std one is
/// inlined as an allocate-and-copy at each of ~150 sites (about 10 KB of the wasm).
pub trait Owned {
    fn owned(&self) -> String;
}

impl Owned for str {
    #[inline(never)]
    fn owned(&self) -> String {
        self.to_owned()
    }
}

/// How sure a runtime module is that a parsed line is its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    No,
    /// The shape fits, but another runtime prints the same shape (e.g. Claude-like
    /// `assistant` lines from Amp or Qwen): parse it, but do not lock the stream on it.
    Maybe,
    /// Only this runtime prints this.
    Sure,
}

/// `v[key]` as a string, if it is one.
pub fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// `v[key]` as a non-empty string.
pub fn nonempty_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    str_of(v, key).filter(|s| !s.is_empty())
}

/// `v[key]` as a finite number, else 0 (the host's `asNumber`).
pub fn num_of(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).filter(|n| n.is_finite()).unwrap_or(0.0)
}

/// `v[key]` as a bool, `false` when absent or of another type.
pub fn bool_of(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The `type` field, or "".
pub fn type_of<'a>(v: &'a Value) -> &'a str {
    str_of(v, "type").unwrap_or("")
}

/// Follows a path of object keys.
pub fn path<'a, 'v>(v: &'a Value<'v>, keys: &[&str]) -> Option<&'a Value<'v>> {
    let mut cur = v;
    for k in keys {
        cur = cur.get(k)?;
    }
    Some(cur)
}

/// Ids a stateful parser remembers, each with a small JSON value, bounded: past `cap` ids,
/// or past [`MAX_SEEN_BYTES`] of ids and values, the oldest is forgotten (so a few calls with
/// megabyte ids cannot pin memory either; the newest is always kept). Kept sorted by id in
/// one `Vec` (binary search) rather than a `HashMap`, whose hash-table code would be a few
/// KB more of wasm for each key/value type; the caps keep the moves on insert small.
#[derive(Debug, Default)]
pub struct SeenIds {
    values: Vec<(String, Json)>,
    order: VecDeque<String>,
    /// About the heap bytes of `values` and `order` (see `seen_cost`).
    bytes: usize,
}

/// Bytes of ids and values one [`SeenIds`] keeps at most (besides its count cap, and besides
/// the newest id, which is kept whatever its size). Real ids are under 100 bytes: 4096 of
/// them with their values take well under 1 MiB.
pub const MAX_SEEN_BYTES: usize = 4 << 20;

/// What one remembered id costs: the id twice (map key and eviction order), its value, and
/// the map's and queue's per-item overhead.
fn seen_cost(id: &str, v: &Json) -> usize {
    2 * id.len() + budget::json_weight(v) + 64
}

impl SeenIds {
    fn find(&self, id: &str) -> Result<usize, usize> {
        self.values.binary_search_by(|(k, _)| k.as_str().cmp(id))
    }

    /// The value of an id, `None` if it was never set (or was forgotten or removed).
    pub fn get(&self, id: &str) -> Option<&Json> {
        self.find(id).ok().map(|i| &self.values[i].1)
    }

    /// Sets the value of `id`; a new id goes last in the eviction order.
    pub fn set(&mut self, id: &str, value: Json, cap: usize) {
        let cost = seen_cost(id, &value);
        let at = match self.find(id) {
            Ok(i) => {
                let v = &mut self.values[i].1;
                self.bytes = self.bytes - seen_cost(id, v) + cost;
                *v = value;
                return;
            }
            Err(at) => at,
        };
        self.values.insert(at, (id.owned(), value));
        self.order.push_back(id.owned());
        self.bytes += cost;
        while (self.order.len() > cap || self.bytes > MAX_SEEN_BYTES) && self.order.len() > 1 {
            let Some(old) = self.order.pop_front() else { break };
            if let Ok(i) = self.find(&old) {
                let (_, v) = self.values.remove(i);
                self.bytes -= seen_cost(&old, &v);
            }
        }
    }

    /// Forgets `id`.
    pub fn remove(&mut self, id: &str) {
        if let Ok(i) = self.find(id) {
            let (_, v) = self.values.remove(i);
            self.bytes -= seen_cost(id, &v);
            self.order.retain(|o| o != id);
        }
    }
}

/// Readable text of a content value: a string as is; an array of blocks joined by
/// newlines (each block's `text`, or a short marker for images and other non-text
/// blocks, so nothing silently vanishes); an object's `text`/`content`; anything else as
/// compact JSON.
pub fn content_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.owned(),
        Value::Array(items) => {
            let mut parts: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                let part = match item {
                    Value::String(s) => s.owned(),
                    Value::Object(_) => block_text(item),
                    other => compact_json(other),
                };
                if !part.is_empty() {
                    parts.push(part);
                }
            }
            join(&parts, "\n")
        }
        Value::Object(_) => block_text(v),
        other => compact_json(other),
    }
}

fn block_text(block: &Value) -> String {
    if let Some(t) = str_of(block, "text") {
        return t.owned();
    }
    match type_of(block) {
        "image" => {
            let media = path(block, &["source", "media_type"]).and_then(Value::as_str);
            match media {
                Some(m) => format!("[image {m}]"),
                None => "[image]".owned(),
            }
        }
        "document" => "[document]".owned(),
        "tool_reference" => match str_of(block, "tool_name") {
            Some(n) => format!("[tool reference: {n}]"),
            None => "[tool reference]".owned(),
        },
        _ => match block.get("content") {
            Some(c) if !c.is_object() => content_text(c),
            _ => compact_json(block),
        },
    }
}

/// Tool arguments as JSON: the encoded string parsed, the raw string kept when it is not
/// JSON, `{}` when absent.
pub fn arguments(args: Option<&Value>) -> Json {
    match args {
        None | Some(Value::Null) => Json::Object(Default::default()),
        Some(Value::String(s)) if s.trim().is_empty() => Json::Object(Default::default()),
        Some(Value::String(s)) => match read::parse(s.trim()) {
            Some(parsed) => parsed.to_json(),
            None => Json::from(s.to_string()),
        },
        Some(other) => other.to_json(),
    }
}

/// `{}`.
pub fn empty_object() -> Json {
    Json::Object(Map::default())
}

/// A JSON object from `(key, value)` pairs in this order, leaving out the `None` values.
/// Used instead of `json!` with interpolated values, which goes through
/// `to_value(..).unwrap()` and links a second copy of serde's `Value` serializer.
pub fn object<const N: usize>(mut pairs: [(&str, Option<Json>); N]) -> Json {
    object_of(&mut pairs)
}

fn object_of(pairs: &mut [(&str, Option<Json>)]) -> Json {
    let mut m = Map::default();
    for (k, v) in pairs {
        if let Some(v) = v.take() {
            m.insert((*k).owned(), v);
        }
    }
    Json::Object(m)
}

/// Compact JSON text of a value (used for tool inputs shown as text, never for whole lines).
pub fn compact_json(v: &Value) -> String {
    v.to_compact()
}

// Substring search without core's two-way searcher (`str::find(&str)`, `contains(&str)`,
// `split_once(&str)`, `trim_start_matches(&str)`, `replace(&str, …)` all bring it in): it is
// ~3 KB of every wasm that uses it, and once no call site is left it goes (docs/bench.md,
// issue 18 round 6). Matches are byte matches: in valid UTF-8 a match of a whole needle
// always starts and ends on character boundaries, so the offsets can slice the text.

/// The byte offset of the first `needle` in `hay`, in time linear in both
/// (Knuth-Morris-Pratt); a one-byte needle is a plain scan.
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else { return Some(0) };
    if n.len() == 1 {
        return h.iter().position(|&b| b == first);
    }
    // fail[i]: the length of the longest proper prefix of n[..=i] that is also its suffix
    // (on the stack for the short needles of every call site but one).
    let mut short = [0usize; 32];
    let mut long = Vec::new();
    let fail: &mut [usize] = match short.get_mut(..n.len()) {
        Some(f) => f,
        None => {
            long.resize(n.len(), 0);
            &mut long
        }
    };
    let mut k = 0;
    for i in 1..n.len() {
        while k > 0 && n[i] != n[k] {
            k = fail[k - 1];
        }
        if n[i] == n[k] {
            k += 1;
        }
        fail[i] = k;
    }
    k = 0;
    for (i, &b) in h.iter().enumerate() {
        while k > 0 && b != n[k] {
            k = fail[k - 1];
        }
        if b == n[k] {
            k += 1;
            if k == n.len() {
                return Some(i + 1 - k);
            }
        }
    }
    None
}

/// Whether `needle` occurs in `hay` ([`find`]).
pub fn has(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// The byte offset of the last `needle` in `hay`. Compares at every offset from the end, so
/// it is meant for short fixed needles (a few bytes: linear in `hay` then).
pub fn rfind(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    (0..=h.len().checked_sub(n.len())?).rev().find(|&i| &h[i..i + n.len()] == n)
}

/// `s` without every leading repetition of `prefix` (`str::trim_start_matches`).
pub fn trim_start_all<'s>(mut s: &'s str, prefix: &str) -> &'s str {
    if prefix.is_empty() {
        return s;
    }
    while let Some(rest) = s.strip_prefix(prefix) {
        s = rest;
    }
    s
}

/// `s` with every `from` replaced by `to`, left to right (`str::replace`; `from` not empty).
pub fn replace_all(s: &str, from: &str, to: &str) -> String {
    if from.is_empty() {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = find(rest, from) {
        out.push_str(cut(rest, ..i));
        out.push_str(to);
        rest = cut(rest, i + from.len()..);
    }
    out.push_str(rest);
    out
}

/// `items` joined by `sep`, as `collect::<Vec<_>>().join(sep)` gives, without the Vec: a
/// plain loop here is much smaller in the wasm than Vec's from-iterator code, which is
/// instantiated again for every call site's iterator type.
pub fn join<T: AsRef<str>>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
    out
}

/// Shortens text for one-line system notices, on a char boundary.
pub fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.owned(),
        Some((end, _)) => format!("{}…", cut(text, ..end)),
    }
}

/// The fallback for a JSON event no module understands: a system entry that names the
/// runtime and the event type, plus the first few short string fields so the line still
/// says something, then the human text found inside it at any depth (bounded; see
/// `texts.rs`). Never the raw JSON.
pub fn unknown_event(ts: &str, runtime: &str, v: &Value) -> Entry {
    let ty = event_name(v);
    let mut text = if runtime.is_empty() {
        format!("event: {ty}")
    } else {
        format!("{runtime} event: {ty}")
    };
    let details = short_fields(v, 3);
    if !details.is_empty() {
        text.push_str(" (");
        text.push_str(&details);
        text.push(')');
    }
    let more = human_texts(v).render(&text);
    text.push_str(&more);
    Entry::system(ts, text)
}

/// The event's name: `type` (+ `subtype`), or the object's first keys when it has no type.
pub fn event_name(v: &Value) -> String {
    match (str_of(v, "type"), str_of(v, "subtype")) {
        (Some(t), Some(s)) if !s.is_empty() => format!("{t}/{s}"),
        (Some(t), _) if !t.is_empty() => t.owned(),
        _ => match v.as_object() {
            Some(map) if !map.is_empty() => {
                format!("object with {}", join(map.keys().take(4), ", "))
            }
            Some(_) => "empty object".owned(),
            None => "value".owned(),
        },
    }
}

/// `key: value` for the first `n` short string/number/bool fields other than type/subtype.
pub fn short_fields(v: &Value, n: usize) -> String {
    let Some(map) = v.as_object() else { return String::new() };
    let mut parts = Vec::new();
    for (k, val) in map {
        if parts.len() >= n {
            break;
        }
        if k == "type" || k == "subtype" {
            continue;
        }
        let shown = match val {
            Value::String(s) if !s.is_empty() && s.chars().count() <= 80 => s.owned(),
            Value::Number(_) => val.to_compact(),
            Value::Bool(b) => b.to_string(),
            _ => continue,
        };
        parts.push(format!("{k}: {shown}"));
    }
    join(&parts, ", ")
}

/// Top-level keys that can be large and are never shown: only their shape is built when a
/// line is parsed (an object's keys with its short scalar values; nested values and long
/// strings are scanned, not built: `common/shape.rs`). Claude Code repeats every tool's
/// output in `toolUseResult` (session files) / `tool_use_result` (stream-json) beside the
/// `tool_result` block we show; in real session logs that is a third of the bytes. The
/// shape names the tool (`claude/tool_names.rs`).
pub const UNREAD_KEYS: &[&str] = &["toolUseResult", "tool_use_result"];

/// Parses a line as a JSON object, leaving out [`UNREAD_KEYS`]. `None` for anything else
/// (plain text, arrays, broken JSON). Duplicate keys keep the last value, like
/// `serde_json::Value`.
pub fn parse_object(line: &str) -> Option<Value<'_>> {
    parse_object_read(line).map(|(v, _)| v)
}

/// [`parse_object`], and whether the line was read as it is, without repeated
/// top-level keys (`false`: repeated keys, or read only after [`js_json_to_serde`]).
pub(crate) fn parse_object_read(line: &str) -> Option<(Value<'_>, bool)> {
    let t = line.trim();
    if !t.starts_with('{') {
        return None;
    }
    match parse_object_text(t) {
        Some((v, repeated)) => Some((v, !repeated)),
        None => Some((parse_object_text(&js_json_to_serde(t)?)?.0.into_owned(), false)),
    }
}

fn parse_object_text(t: &str) -> Option<(Value<'_>, bool)> {
    let (map, repeated) = read::parse_top_object(t, UNREAD_KEYS)?;
    Some((Value::Object(map), repeated))
}

/// `&s[range]` for a cut the code found (at a byte it searched for, or a length it
/// measured), so never inside a character; if a bug ever cut inside one, the panic has a
/// fixed message. Core's own message for that case formats the string, the range and the
/// character around the bound: its `Debug` code and Unicode tables are ~8 KB of raw wasm,
/// 4.3-4.6 KB gzip, in every shipped file, kept by a single `&str[..]` anywhere in the
/// wasm. `clippy::string_slice` (lib.rs) names any new one in the host's build.
pub fn cut<R: core::slice::SliceIndex<str, Output = str>>(s: &str, range: R) -> &str {
    s.get(range).expect("a cut inside a character")
}

/// The longest start of `s` of at most `max` bytes that ends on a character boundary.
pub fn prefix_bytes(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    cut(s, ..end)
}

/// The four bytes of `b` at `i` as hexadecimal digits (any case), as in a `\uXXXX` escape:
/// the one reader of them for the line reader, `js_json_to_serde` and the JS model's
/// `JSON.parse`. (`u32::from_str_radix` would also take a sign and costs ~0.3 KB of wasm.)
pub fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let h = b.get(i..i.checked_add(4)?)?;
    h.iter().try_fold(0, |n, &c| Some(n << 4 | (c as char).to_digit(16)?))
}

/// `String::from_utf8_lossy` (each invalid sequence becomes one U+FFFD), written on
/// `from_utf8`'s error positions: std's version brings its own UTF-8 chunk iterator, ~1 KB of
/// wasm for a path the glue never takes.
pub fn lossy_utf8(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push('\u{fffd}');
                bytes = &bad[e.error_len().unwrap_or(bad.len())..];
            }
        }
    }
}

/// What `JSON.parse` accepts and serde_json refuses, rewritten so serde_json reads it the way
/// JavaScript would show it: a lone surrogate escape (`\ud83d`, which Node writes when a
/// string was cut inside an emoji) becomes `\ufffd`, and a number past f64 (`1e400`)
/// becomes the largest finite one. `None` when there is nothing to rewrite, and for text
/// `JSON.parse` refuses (checked first: the number rewrite would otherwise "repair" a
/// malformed token such as `01` into JSON). Only called for a line that failed to parse, so
/// it costs nothing on good input.
pub(crate) fn js_json_to_serde(t: &str) -> Option<String> {
    if !read::is_json(t) {
        return None;
    }
    let b = t.as_bytes();
    let hex4 = |i: usize| hex4(b, i);
    let mut out = String::with_capacity(t.len());
    let mut changed = false;
    let (mut i, mut last, mut in_str) = (0usize, 0usize, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'"' {
                in_str = false;
            } else if c == b'\\' {
                if b.get(i + 1) == Some(&b'u') {
                    if let Some(u) = hex4(i + 2) {
                        let high = (0xD800..0xDC00).contains(&u);
                        let low = (0xDC00..0xE000).contains(&u);
                        let paired = high
                            && b.get(i + 6) == Some(&b'\\')
                            && b.get(i + 7) == Some(&b'u')
                            && hex4(i + 8).is_some_and(|v| (0xDC00..0xE000).contains(&v));
                        if paired {
                            i += 12;
                            continue;
                        }
                        if high || low {
                            out.push_str(cut(t, last..i));
                            out.push_str("\\ufffd");
                            i += 6;
                            last = i;
                            changed = true;
                            continue;
                        }
                    }
                }
                i += 2;
                continue;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_str = true;
            i += 1;
        } else if c == b'-' || c.is_ascii_digit() {
            let start = i;
            i += 1;
            while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                i += 1;
            }
            let token = cut(t, start..i);
            // Read with the line's own value reader (what the line failed on).
            if read::parse(token).is_none() {
                out.push_str(cut(t, last..start));
                out.push_str(if c == b'-' { "-1.7976931348623157e308" } else { "1.7976931348623157e308" });
                last = i;
                changed = true;
            }
        } else {
            i += 1;
        }
    }
    if !changed {
        return None;
    }
    out.push_str(cut(t, last..));
    Some(out)
}

/// Unit-test helpers: a module's `detect` and `parse` applied to a `json!` value (the
/// modules read the borrowed [`Value`]; tests write `serde_json` literals).
#[cfg(test)]
pub(crate) mod json_test {
    use super::{Confidence, Value};
    use crate::entry::Entry;
    use serde_json::Value as Json;

    pub fn detect(detect: fn(&Value) -> Confidence, v: &Json) -> Confidence {
        detect(&Value::from_json(v))
    }

    /// The module's stateless (`state` `None`) or stateful entries for one line, ts `"t"`.
    pub fn run<S>(
        parse: fn(&Value, &str, &str, Option<&mut S>, &mut Vec<Entry>),
        v: &Json,
        state: Option<&mut S>,
    ) -> Vec<Entry> {
        let mut out = Vec::new();
        parse(&Value::from_json(v), "", "t", state, &mut out);
        out
    }
}

#[cfg(test)]
mod cut_tests {
    use super::{cut, prefix_bytes};

    #[test]
    fn cuts_like_slicing_and_says_so_inside_a_character() {
        let s = "aé€😀z";
        for (a, b) in [(0, 1), (1, 3), (3, 6), (6, 10), (0, 11), (11, 11)] {
            assert_eq!(cut(s, a..b), &s[a..b]);
        }
        assert_eq!((cut(s, ..3), cut(s, 6..)), (&s[..3], &s[6..]));
        let heads: Vec<&str> = (0..13).map(|n| prefix_bytes(s, n)).collect();
        assert_eq!(heads, ["", "a", "a", "aé", "aé", "aé", "aé€", "aé€", "aé€", "aé€", "aé€😀", "aé€😀z", "aé€😀z"]);
        for bad in [2, 4, 7, 12] {
            let p = std::panic::catch_unwind(|| cut(s, ..bad)).unwrap_err();
            let msg = p.downcast_ref::<String>().map(String::as_str).or(p.downcast_ref::<&str>().copied());
            assert_eq!(msg, Some("a cut inside a character"), "..{bad}");
        }
    }
}

#[cfg(test)]
mod js_json_tests {
    use super::*;

    #[test]
    fn what_json_parse_accepts_is_read() {
        let v = parse_object(r#"{"a":"cut \ud83d","b":"pair \ud83d\ude00","c":"low \udc00 x"}"#).unwrap();
        assert_eq!(v["a"], "cut \u{fffd}");
        assert_eq!(v["b"], "pair \u{1f600}");
        assert_eq!(v["c"], "low \u{fffd} x");
        let v = parse_object(r#"{"n":1e400,"m":-2e999,"k":"1e400","ok":1.5}"#).unwrap();
        assert_eq!(v["n"].as_f64(), Some(f64::MAX));
        assert_eq!(v["m"].as_f64(), Some(f64::MIN));
        assert_eq!(v["k"], "1e400");
        assert_eq!(v["ok"].as_f64(), Some(1.5));
        assert!(parse_object(r#"{"broken": }"#).is_none());
        assert!(parse_object(r#"{"a":"\ud83d"#).is_none());
    }

    #[test]
    fn what_json_parse_refuses_is_not_repaired() {
        // Each has a token the number rewrite would turn into JSON; JSON.parse refuses them.
        for t in [r#"{"type":"x","n":01}"#, r#"{"type":"x","n":-}"#, r#"{"type":"x","n":1.,"s":"\ud83d"}"#] {
            assert!(parse_object(t).is_none(), "{t}");
            assert_eq!(js_json_to_serde(t), None, "{t}");
        }
    }
}

#[cfg(test)]
mod search_tests {
    use super::*;

    /// Every string of up to `n` characters over `alphabet`.
    fn strings(alphabet: &[char], n: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..n {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn search_matches_the_standard_library() {
        // Repetitive needles (KMP's failure table matters), a two-byte character, overlaps.
        let hays = strings(&['a', 'b', 'é'], 6);
        let needles = strings(&['a', 'b', 'é'], 3);
        for h in &hays {
            for n in &needles {
                assert_eq!(find(h, n), h.find(n.as_str()), "find({h:?}, {n:?})");
                assert_eq!(has(h, n), h.contains(n.as_str()));
                assert_eq!(rfind(h, n), h.rfind(n.as_str()), "rfind({h:?}, {n:?})");
                assert_eq!(trim_start_all(h, n), h.trim_start_matches(n.as_str()), "trim({h:?}, {n:?})");
                if !n.is_empty() {
                    assert_eq!(replace_all(h, n, "<>"), h.replace(n.as_str(), "<>"), "replace({h:?}, {n:?})");
                }
            }
        }
        assert_eq!(replace_all("abc", "", "x"), "abc");
        let long = "ab".repeat(50_000) + "abb";
        assert_eq!(find(&long, "ababb"), long.find("ababb"));
    }

    #[test]
    fn lossy_utf8_matches_the_standard_library() {
        // Every byte string of up to 4 bytes over lead, continuation, invalid and ASCII bytes
        // (truncated, overlong and surrogate sequences among them), and some longer ones.
        let alphabet = [b'a', 0x80, 0xbf, 0xc0, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0xf4, 0x90, 0xff];
        let mut last: Vec<Vec<u8>> = vec![vec![]];
        for _ in 0..4 {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |&b| [s.as_slice(), &[b]].concat())).collect();
            for s in &last {
                assert_eq!(lossy_utf8(s), String::from_utf8_lossy(s), "{s:x?}");
            }
        }
        let mixed = [&b"ok \xe2\x82\xac "[..], &[0xe2, 0x82], b" \xf0\x9f\x98\x80 ", &[0xed, 0xa0, 0x80], b" end"].concat();
        assert_eq!(lossy_utf8(&mixed), String::from_utf8_lossy(&mixed));
    }

    #[test]
    fn hex4_reads_exactly_four_hex_digits() {
        assert_eq!(hex4(b"\\u00e9x", 2), Some(0xe9));
        assert_eq!(hex4(b"DbFf", 0), Some(0xdbff));
        for bad in ["+fff", "-fff", "12g4", "123", " 123", "12é", ""] {
            assert_eq!(hex4(bad.as_bytes(), 0), None, "{bad:?}");
        }
        assert_eq!(hex4(b"abcd", usize::MAX), None);
    }
}
