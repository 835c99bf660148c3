//! The JSON reader of the runtime path: text in, the borrowed [`Value`] tree out.
//!
//! Hand-written instead of going through serde_json's `Deserializer` for two reasons:
//!
//! - **wasm size.** serde_json's reader is generic over the visitor, so every visitor type
//!   we read with (the value tree, the top-level object, the shapes of unread members, the
//!   key seed) gets its own copy of the parser, plus serde's and core's helpers around it:
//!   15-20 KB of every wasm build. This file is one non-generic copy.
//! - **speed.** It builds the tree directly (no visitor calls, no `MapAccess` state machine)
//!   and scans string bodies 16 or 8 bytes at a time (`scan.rs`).
//!
//! It accepts exactly what `serde_json::from_str::<serde_json::Value>` accepts (serde_json
//! 1.0.x as locked, default features), and gives the same values; `tests/json_read.rs` and
//! the tests below check that against serde_json itself. The rules that matter:
//!
//! - JSON whitespace is space, `\t`, `\n`, `\r`; nothing else may surround or separate tokens.
//! - No trailing commas, no leading zeros, `-` needs a digit, `1.`, `.5`, `1e` are errors;
//!   only `true`, `false`, `null`.
//! - In a string: raw bytes below 0x20 are errors; escapes are `\" \\ \/ \b \f \n \r \t` and
//!   `\uXXXX` (any case of hex digits); a high surrogate escape must be followed by a `\u`
//!   low surrogate escape; a lone surrogate of either kind is an error.
//! - Arrays and objects nest at most 127 deep: serde_json counts down from 128 at each `[`
//!   or `{` and fails when it reaches 0.
//! - Numbers: an integer that fits `u64` is `PosInt`; a negative one that fits `i64` (but not
//!   `-0`) is `NegInt`; everything else is an `f64` as serde_json computes it (`number.rs`
//!   follows its algorithm; core's `f64` parser and its tables stay out of the wasm). A
//!   float past `f64` is an error.
//! - An object keeps each key once, at its first position, with its last value
//!   ([`Map::push`], [`Map::dedupe`]).
//!
//! [`Reader::skip`] is serde_json's other reader, the one behind `IgnoredAny` (what a
//! container under an unread member's shape goes through, `shape.rs`): the same grammar,
//! but numbers are not converted (so `1e400` passes), `\u` escapes are not checked for
//! surrogates, and there is no nesting limit (it keeps its own stack, not the call stack).

use crate::prelude::*;
use super::bytes::{put, put_byte};
use super::scan::{copy_run, plain_run};
use super::val::{Map, Value};
use serde_json::Number;
use std::borrow::Cow;

/// Exactly one JSON value, with JSON whitespace around it. `None` wherever
/// `serde_json::from_str::<serde_json::Value>` fails.
pub fn parse(text: &str) -> Option<Value<'_>> {
    let mut r = Reader::new(text);
    let v = r.value()?;
    r.end()?;
    Some(v)
}

/// Whether `text` is one JSON value (with JSON whitespace around it) by the grammar alone,
/// as `JSON.parse` accepts it: numbers of any magnitude, lone surrogate escapes, no nesting
/// limit ([`Reader::skip`]).
pub fn is_json(text: &str) -> bool {
    let mut r = Reader::new(text);
    r.skip().and_then(|()| r.end()).is_some()
}

/// The first JSON value of `text` (after JSON whitespace) and the byte offset just past it,
/// as serde_json's `StreamDeserializer` reads it: a number or literal must be followed by
/// whitespace, one of `"[]{},:`, or the end. `None` when that fails or `text` is blank.
pub fn parse_prefix(text: &str) -> Option<(Value<'_>, usize)> {
    let mut r = Reader::new(text);
    r.ws();
    let delimited = matches!(r.peek()?, b'[' | b'{' | b'"');
    let v = r.value()?;
    let end = r.i;
    if !delimited
        && !matches!(r.peek(), None | Some(b' ' | b'\n' | b'\t' | b'\r' | b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':'))
    {
        return None;
    }
    Some((v, end))
}

/// A line's top-level object, each member in `skip` read as its shape (`shape.rs`), and
/// whether a key was repeated. `None` for anything but exactly one JSON object (with JSON
/// whitespace around it). The same nesting budget as [`parse`]: the object takes one level.
pub(crate) fn parse_top_object<'a>(text: &'a str, skip: &[&str]) -> Option<(Map<'a>, bool)> {
    let mut r = Reader::new(text);
    r.eat(b'{')?;
    r.depth -= 1;
    let members = r.members(|r, key| if skip.contains(&key) { r.shape() } else { r.value() })?;
    r.end()?;
    Some(members)
}

/// A cursor over the text. The fields are the crate's own (`shape.rs` reads with them).
pub(super) struct Reader<'a> {
    s: &'a str,
    pub(super) i: usize,
    /// serde_json's `remaining_depth`: one less at each open array or object; 0 fails.
    depth: u8,
}

impl<'a> Reader<'a> {
    pub(super) fn new(s: &'a str) -> Reader<'a> {
        Reader { s, i: 0, depth: 128 }
    }

    #[inline(always)]
    pub(super) fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    /// Skips JSON whitespace.
    #[inline(always)]
    pub(super) fn ws(&mut self) {
        let b = self.s.as_bytes();
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = b.get(self.i) {
            self.i += 1;
        }
    }

    /// Whitespace, then the end of the text.
    fn end(&mut self) -> Option<()> {
        self.ws();
        (self.i == self.s.len()).then_some(())
    }

    /// Just after `[` or `{`: `false` (and the closer eaten) for an empty container.
    #[inline(always)]
    pub(super) fn open(&mut self, close: u8) -> Option<bool> {
        self.ws();
        if self.peek()? == close {
            self.i += 1;
            return Some(false);
        }
        Some(true)
    }

    /// After a member or element: `true` after a `,`, `false` after the closer.
    #[inline(always)]
    pub(super) fn more(&mut self, close: u8) -> Option<bool> {
        self.ws();
        let c = self.peek()?;
        self.i += 1;
        if c == b',' {
            Some(true)
        } else if c == close {
            Some(false)
        } else {
            None
        }
    }

    /// Whitespace, then the byte `c`, eaten.
    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        if self.peek()? != c {
            return None;
        }
        self.i += 1;
        Some(())
    }

    /// An object key (whitespace, the string) and the `:` after it.
    #[inline(always)]
    pub(super) fn key(&mut self) -> Option<Cow<'a, str>> {
        self.eat(b'"')?;
        let k = self.string()?;
        self.eat(b':')?;
        Some(k)
    }

    /// An object's members, the cursor just past its `{`: each key, then its value as
    /// `member` reads it (given the key); a repeated key keeps its first place and its last
    /// value ([`Map::push`], [`Map::dedupe`]). Also whether a key was repeated.
    #[inline]
    pub(super) fn members(
        &mut self,
        mut member: impl FnMut(&mut Self, &str) -> Option<Value<'a>>,
    ) -> Option<(Map<'a>, bool)> {
        let mut map = Map::default();
        let mut repeated = false;
        if self.open(b'}')? {
            loop {
                let k = self.key()?;
                let v = member(self, &k)?;
                repeated |= map.push(k, v);
                if !self.more(b'}')? {
                    break;
                }
            }
        }
        repeated |= map.dedupe();
        Some((map, repeated))
    }

    /// One value (leading whitespace skipped).
    pub(super) fn value(&mut self) -> Option<Value<'a>> {
        self.ws();
        let c = self.peek()?;
        Some(match c {
            b'"' => {
                self.i += 1;
                Value::String(self.string()?)
            }
            b'{' => {
                self.nest()?;
                let (map, _) = self.members(|r, _| r.value())?;
                self.depth += 1;
                Value::Object(map)
            }
            b'[' => {
                self.nest()?;
                let mut items = Vec::new();
                if self.open(b']')? {
                    loop {
                        items.push(self.value()?);
                        if !self.more(b']')? {
                            break;
                        }
                    }
                }
                self.depth += 1;
                Value::Array(items)
            }
            b'-' | b'0'..=b'9' => Value::Number(self.number()?),
            _ => match self.literal()? {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                _ => Value::Null,
            },
        })
    }

    /// Eats the `[` or `{` at the cursor, one level deeper; `None` past the limit.
    #[inline]
    fn nest(&mut self) -> Option<()> {
        self.i += 1;
        self.depth -= 1;
        (self.depth != 0).then_some(())
    }

    /// `false`, `true` or `null` at the cursor: 0, 1 or 2.
    pub(super) fn literal(&mut self) -> Option<u8> {
        let rest = &self.s.as_bytes()[self.i..];
        let (n, len) = if rest.starts_with(b"false") {
            (0, 5)
        } else if rest.starts_with(b"true") {
            (1, 4)
        } else if rest.starts_with(b"null") {
            (2, 4)
        } else {
            return None;
        };
        self.i += len;
        Some(n)
    }

    /// Moves the cursor past the number token at it (JSON's grammar, values not converted:
    /// what [`Reader::skip`] needs).
    fn number_token(&mut self) -> Option<()> {
        let b = self.s.as_bytes();
        let mut i = self.i;
        let digits = |mut i: usize| {
            while let Some(b'0'..=b'9') = b.get(i) {
                i += 1;
            }
            i
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if let Some(b'0'..=b'9') = b.get(i) {
                    return None;
                }
            }
            Some(b'1'..=b'9') => i = digits(i + 1),
            _ => return None,
        }
        if b.get(i) == Some(&b'.') {
            let j = digits(i + 1);
            if j == i + 1 {
                return None;
            }
            i = j;
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let j = digits(i);
            if j == i {
                return None;
            }
            i = j;
        }
        self.i = i;
        Some(())
    }

    /// The number at the cursor, as serde_json reads it (see the module doc).
    fn number(&mut self) -> Option<Number> {
        let (n, len) = super::number::prefix(&self.s.as_bytes()[self.i..])?;
        self.i += len;
        Some(n)
    }

    /// A string body, the cursor just past its opening quote; borrowed when it holds no
    /// escapes.
    pub(super) fn string(&mut self) -> Option<Cow<'a, str>> {
        let b = self.s.as_bytes();
        let start = self.i;
        // Callers stand just past an opening quote; a cursor inside a character (which no
        // caller makes) is refused rather than cut there.
        if b.get(start).is_some_and(|&c| (c as i8) < -0x40) {
            return None;
        }
        let mut i = plain_run(b, start);
        match b.get(i) {
            Some(b'"') => {
                self.i = i + 1;
                return Some(Cow::Borrowed(ascii_cut(self.s, start, i)));
            }
            Some(b'\\') => {}
            _ => return None,
        }
        // Bytes, not a `String`: each piece goes in with one copy and no UTF-8 step
        // (`bytes.rs`).
        let mut out: Vec<u8> = Vec::with_capacity(i - start + 32);
        put(&mut out, &b[start..i]);
        loop {
            // b[i] is a backslash.
            i = unescape(b, i + 1, &mut out)?;
            i = copy_run(b, i, &mut out);
            match b.get(i) {
                Some(b'"') => {
                    self.i = i + 1;
                    // SAFETY: `out` is whole runs of the line (a `&str`) cut next to ASCII
                    // bytes (quotes and backslashes, the ends of escapes), and the UTF-8 of
                    // the chars the escapes stand for.
                    return Some(Cow::Owned(unsafe { String::from_utf8_unchecked(out) }));
                }
                Some(b'\\') => {}
                _ => return None,
            }
        }
    }

    /// Scans a string body without building it (serde_json's `ignore_str`): the same
    /// checks, except that a `\u` escape may be any four hex digits.
    fn skip_string(&mut self) -> Option<()> {
        let b = self.s.as_bytes();
        let mut i = self.i;
        loop {
            i = plain_run(b, i);
            match b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some(());
                }
                b'\\' => {
                    i += 1;
                    match b.get(i)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 1,
                        b'u' => {
                            hex4(b, i + 1)?;
                            i += 5;
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }

    /// Scans one value without building it, as serde_json's `IgnoredAny` does (see the
    /// module doc): numbers unconverted, `\u` escapes unchecked, nesting unlimited.
    pub(super) fn skip(&mut self) -> Option<()> {
        // The open containers, innermost last: `true` for an object.
        let mut open: Vec<bool> = Vec::new();
        loop {
            // A value.
            self.ws();
            match self.peek()? {
                c @ (b'[' | b'{') => {
                    self.i += 1;
                    let object = c == b'{';
                    if self.open(if object { b'}' } else { b']' })? {
                        open.push(object);
                        if object {
                            self.skip_key()?;
                        }
                        continue;
                    }
                }
                b'"' => {
                    self.i += 1;
                    self.skip_string()?;
                }
                b'-' | b'0'..=b'9' => {
                    self.number_token()?;
                }
                _ => {
                    self.literal()?;
                }
            }
            // After a value: close containers until one takes a next member.
            loop {
                let Some(&object) = open.last() else { return Some(()) };
                if self.more(if object { b'}' } else { b']' })? {
                    if object {
                        self.skip_key()?;
                    }
                    break;
                }
                open.pop();
            }
        }
    }

    /// A key scanned, not built, and its `:`.
    fn skip_key(&mut self) -> Option<()> {
        self.eat(b'"')?;
        self.skip_string()?;
        self.eat(b':')
    }
}

/// Decodes the escape whose letter is at `i` (just past the backslash) into `out`; the
/// index after it. A surrogate must come as a high-low pair of `\u` escapes.
fn unescape(b: &[u8], i: usize, out: &mut Vec<u8>) -> Option<usize> {
    let c = match *b.get(i)? {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 8,
        b'f' => 12,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'u' => {
            let n = hex4(b, i + 1)?;
            let (c, next) = match n {
                0xD800..=0xDBFF => {
                    if b.get(i + 5..i + 7)? != b"\\u" {
                        return None;
                    }
                    let low = hex4(b, i + 7)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return None;
                    }
                    (0x10000 + ((n - 0xD800) << 10) + (low - 0xDC00), i + 11)
                }
                0xDC00..=0xDFFF => return None,
                _ => (n, i + 5),
            };
            put(out, char::from_u32(c)?.encode_utf8(&mut [0; 4]).as_bytes());
            return Some(next);
        }
        _ => return None,
    };
    put_byte(out, c);
    Some(i + 1)
}

/// `s[from..to]` where `from` is a char boundary and `to` is at an ASCII byte of `s` (a
/// quote, a backslash). Unchecked: at opt-level z the
/// checked `&s[from..to]` stays two calls, on every string of every line.
/// The four bytes of `b` at `i` as hexadecimal digits (any case), as in a `\uXXXX` escape:
/// the one reader of them for the line reader, `js_json_to_serde` and the JS model's
/// `JSON.parse`. (`u32::from_str_radix` would also take a sign and costs ~0.3 KB of wasm.)
pub fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let h = b.get(i..i.checked_add(4)?)?;
    h.iter().try_fold(0, |n, &c| Some(n << 4 | (c as char).to_digit(16)?))
}

#[inline(always)]
fn ascii_cut(s: &str, from: usize, to: usize) -> &str {
    debug_assert!(from <= to && s.is_char_boundary(from) && s.is_char_boundary(to));
    // SAFETY: see above: `string` checks that `from` does not fall inside a character, and
    // cuts only at a quote or backslash it found within `s`.
    unsafe { s.get_unchecked(from..to) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same acceptance as serde_json, and the same value and text when both read it.
    pub(crate) fn same_as_serde(t: &str) {
        let ours = parse(t);
        let theirs = serde_json::from_str::<serde_json::Value>(t);
        assert_eq!(ours.is_some(), theirs.is_ok(), "{t:?}: ours {ours:?}, serde_json {theirs:?}");
        if let (Some(o), Ok(s)) = (ours, theirs) {
            assert_eq!(o.to_serde(), s, "{t:?}");
            assert_eq!(serde_json::to_string(&o).unwrap(), serde_json::to_string(&s).unwrap(), "{t:?}");
        }
    }

    #[test]
    fn a_string_is_cut_only_at_character_boundaries() {
        // Escaped and unescaped strings with multi-byte characters around the cuts.
        for t in [r#""é""#, r#""é\né""#, r#""\u00e9x€""#, r#""😀\"😀""#, r#""a\\""#] {
            same_as_serde(t);
        }
        // A cursor inside a character (no caller makes one) is refused, not cut there.
        let t = "\"é\"";
        let mut r = Reader::new(t);
        r.i = 2;
        assert!(r.string().is_none());
        r.i = 1;
        assert_eq!(r.string().as_deref(), Some("é"));
    }

    #[test]
    fn edge_cases_match_serde_json() {
        let cases = [
            "", " ", "null", " null ", "nul", "nulll", "true", "tru", "false", "False", "NaN", "Infinity",
            "0", "-0", "00", "01", "-01", "-", "--1", "+1", "1.", ".5", "1.5", "1e", "1e+", "1e-5", "1E5", "1.5e+3",
            "0.0", "-0.0", "0e0", "1e400", "-1e400", "1e-400", "18446744073709551615", "18446744073709551616",
            "-9223372036854775808", "-9223372036854775809", "9999999999999999999", "-9999999999999999999",
            "99999999999999999999", "123456789012345678901234567890", "1.7976931348623157e308",
            "1.7976931348623159e308", "4.9e-324", "2.2250738585072014e-308", "0.1", "1x", "1 2",
            "\"\"", "\"a\"", "\"a", "\"\\\"\"", "\"\\u00e9\"", "\"\\u00E9\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"",
            "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\ud83dx\"", "\"\\ud83d\\n\"", "\"\\ud83d\\ud83d\\ude00\"",
            "\"\\u12\"", "\"\\u+123\"", "\"\\x\"", "\"\\'\"", "\"\t\"", "\"\u{1f}\"", "\"\u{7f}\"", "\"é\"",
            "\"\\/\\b\\f\\n\\r\\t\"", "[]", "[ ]", "[1,]", "[,1]", "[1,,2]", "[1 2]", "[1", "]", "{}", "{ }",
            "{\"a\":1,}", "{,}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{1:2}", "{\"a\":1 \"b\":2}", "{\"a\":1",
            "{\"a\":1,\"a\":2}", "{\"b\":1,\"a\":2,\"b\":3}", "[1]x", "[1] ", "\u{a0}1", "1\u{a0}", "\u{feff}1",
            "\x0c1", "\x0b1", "[true,false,null]", "[truefalse]", "{\"a\":[{\"b\":{}}]}",
        ];
        for c in cases {
            same_as_serde(c);
        }
    }

    #[test]
    fn nesting_limit_matches_serde_json() {
        for n in 120..135 {
            for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
                let t = format!("{}1{}", open.repeat(n), close.repeat(n));
                same_as_serde(&t);
                let mixed: String = (0..n).map(|i| if i % 2 == 0 { "[" } else { "{\"k\":" }).collect();
                let closing: String = (0..n).rev().map(|i| if i % 2 == 0 { "]" } else { "}" }).collect();
                same_as_serde(&format!("{mixed}null{closing}"));
            }
        }
        assert!(parse(&format!("{}{}", "[".repeat(127), "]".repeat(127))).is_some());
        assert!(parse(&format!("{}{}", "[".repeat(128), "]".repeat(128))).is_none());
    }

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let v = parse(r#"{"plain":"abc","esc":"a\"b","k\u0065y":1}"#).unwrap();
        assert!(matches!(v.get("plain"), Some(Value::String(Cow::Borrowed("abc")))));
        assert!(matches!(v.get("esc"), Some(Value::String(Cow::Owned(_)))));
        let m = v.as_object().unwrap();
        assert!(m.get_unescaped("plain").is_some());
        assert!(m.get("key").is_some() && m.get_unescaped("key").is_none());
    }

    #[test]
    fn prefix_reads_like_stream_deserializer() {
        for t in [
            "\"a\\nb\" tail", "\"abc\"", "  \"x\"y", "1 2", "1x", "1,", "true]", "nullx", "[1]x", "{}{}", "", "  ",
            "\"\\ud83d\"", "\"unterminated",
        ] {
            let mut it = serde_json::Deserializer::from_str(t).into_iter::<serde_json::Value>();
            let theirs = match it.next() {
                Some(Ok(v)) => Some((v, it.byte_offset())),
                _ => None,
            };
            let ours = parse_prefix(t).map(|(v, end)| (v.to_serde(), end));
            assert_eq!(ours, theirs, "{t:?}");
        }
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
