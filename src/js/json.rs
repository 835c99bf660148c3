//! `JSON.stringify(v, null, gap)` and `JSON.parse(text)` over [`Js`], following the ECMAScript
//! algorithms rather than serde_json's: numbers print as JS prints them (`1`, `1e+21`, `-0` as
//! `0`, non-finite as `null`), `undefined` and functions are skipped in objects and become
//! `null` in arrays, strings escape only `"`, `\` and control characters; parsing accepts
//! exactly the JSON grammar, lets a duplicate key's last value win in the first key's place,
//! reads `1e400` as `Infinity` and a lone `\uD800` escape as U+FFFD. Nesting deeper than
//! [`MAX_DEPTH`] is cut off (serialised as `null`, rejected by the parser).

use crate::prelude::*;
use super::{fmt_num, Js, Obj, MAX_DEPTH};
use crate::json::{self, pairs};

/// `JSON.stringify(v, null, gap)`; `None` where JS returns `undefined`.
pub fn stringify(v: &Js, gap: &str) -> Option<String> {
    let mut out = String::new();
    write_value(v, gap, "", &mut out, 0).then_some(out)
}

fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Writes `v`; false (nothing written) for values JSON skips.
fn write_value(v: &Js, gap: &str, indent: &str, out: &mut String, depth: usize) -> bool {
    match v {
        Js::Undefined | Js::Func => return false,
        Js::Null => out.push_str("null"),
        Js::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Js::Num(n) if n.is_finite() => out.push_str(&fmt_num(*n)),
        Js::Num(_) => out.push_str("null"),
        Js::Str(s) => quote(s, out),
        Js::Arr(_) | Js::Obj(_) if depth >= MAX_DEPTH => out.push_str("null"),
        Js::Arr(items) => {
            let mut inner = String::from(indent);
            inner.push_str(gap);
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                separator(out, i == 0, gap, &inner);
                if !write_value(item, gap, &inner, out, depth + 1) {
                    out.push_str("null");
                }
            }
            close(out, !items.is_empty(), gap, indent, ']');
        }
        Js::Obj(o) => {
            let mut inner = String::from(indent);
            inner.push_str(gap);
            out.push('{');
            let mut first = true;
            for (k, item) in o.iter() {
                if matches!(item, Js::Undefined | Js::Func) {
                    continue;
                }
                separator(out, first, gap, &inner);
                first = false;
                quote(k, out);
                out.push(':');
                if !gap.is_empty() {
                    out.push(' ');
                }
                write_value(item, gap, &inner, out, depth + 1);
            }
            close(out, !first, gap, indent, '}');
        }
    }
    true
}

/// Before a member: `,` unless first, then a newline and indent when indenting.
fn separator(out: &mut String, first: bool, gap: &str, inner: &str) {
    if !first {
        out.push(',');
    }
    if !gap.is_empty() {
        out.push('\n');
        out.push_str(inner);
    }
}

/// The closing bracket, on its own line when indenting a non-empty container.
fn close(out: &mut String, any: bool, gap: &str, indent: &str, bracket: char) {
    if any && !gap.is_empty() {
        out.push('\n');
        out.push_str(indent);
    }
    out.push(bracket);
}

/// `JSON.parse(text)`; `None` where JS throws a SyntaxError.
pub fn parse(text: &str) -> Option<Js> {
    let mut p = Parser { s: text.as_bytes(), src: text, i: 0 };
    let v = p.value(0)?;
    p.ws();
    (p.i == p.s.len()).then_some(v)
}

struct Parser<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str, v: Js) -> Option<Js> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Some(v)
        } else {
            None
        }
    }

    fn value(&mut self, depth: usize) -> Option<Js> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.s.get(self.i)? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Js::Str),
            b't' => self.literal("true", Js::Bool(true)),
            b'f' => self.literal("false", Js::Bool(false)),
            b'n' => self.literal("null", Js::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Option<Js> {
        let start = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        match self.s.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return None,
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        // The line reader (`json::read`) does the conversion; the text is valid
        // JSON, so its only failure is a magnitude past f64, which JS reads as Infinity.
        let text = self.src.get(start..self.i)?;
        Some(Js::Num(match json::read::parse(text) {
            Some(v) => v.as_f64().unwrap_or(f64::NAN),
            None if text.starts_with('-') => f64::NEG_INFINITY,
            None => f64::INFINITY,
        }))
    }

    fn hex4(&mut self) -> Option<u32> {
        let n = json::hex4(self.src.as_bytes(), self.i)?;
        self.i += 4;
        Some(n)
    }

    fn string(&mut self) -> Option<String> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&b) = self.s.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(self.src.get(start..self.i)?);
            match *self.s.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.i += 1;
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            out.push(self.surrogates(hi));
                        }
                        _ => return None,
                    }
                }
                _ => return None, // a raw control character
            }
        }
    }

    /// The character of a `\uXXXX` escape, pairing a high surrogate with a following low one.
    fn surrogates(&mut self, hi: u32) -> char {
        if (0xd800..0xdc00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
            let save = self.i;
            self.i += 2;
            match self.hex4() {
                Some(lo) if (0xdc00..0xe000).contains(&lo) => {
                    let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                    return char::from_u32(c).unwrap_or('\u{fffd}');
                }
                _ => self.i = save,
            }
        }
        char::from_u32(hi).unwrap_or('\u{fffd}')
    }

    fn array(&mut self, depth: usize) -> Option<Js> {
        self.i += 1;
        let mut items = Vec::new();
        if self.eat(b']') {
            return Some(Js::Arr(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if self.eat(b']') {
                return Some(Js::Arr(items));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Js> {
        self.i += 1;
        let mut pairs: Vec<(String, Js)> = Vec::new();
        if self.eat(b'}') {
            return Some(Js::Obj(Obj::new()));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return None;
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            let v = self.value(depth + 1)?;
            // A repeated key (rare): the last value wins, in the first one's place.
            pairs::push(&mut pairs, key, v);
            if self.eat(b'}') {
                pairs::dedupe(&mut pairs);
                return Some(Js::Obj(Obj::from_unique(pairs)));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stringify_like_js() {
        let v = parse(r#"{"a":[1,{"b":"c"}],"2":-0,"e":{}, "f":[], "g":1e400}"#).unwrap();
        assert_eq!(
            stringify(&v, "").unwrap(),
            r#"{"2":0,"a":[1,{"b":"c"}],"e":{},"f":[],"g":null}"#
        );
        assert_eq!(stringify(&Js::Arr(vec![Js::Undefined, Js::Func]), "").unwrap(), "[null,null]");
        let o = Js::Obj(Obj::new().with("u", Js::Undefined).with("s", "x\u{1}\u{2028}\"".into()));
        assert_eq!(stringify(&o, "  ").unwrap(), "{\n  \"s\": \"x\\u0001\u{2028}\\\"\"\n}");
        assert_eq!(stringify(&Js::Func, "  "), None);
    }

    #[test]
    fn parse_like_js() {
        assert!(parse(" [1, 2 ,3] ").is_some());
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "'a'",
            "\"\u{1}\"",
            "nul",
            "1 2",
            "\u{a0}1",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        assert_eq!(parse(r#""\ud83c\udf0d\ud800x""#), Some(Js::Str("🌍\u{fffd}x".into())));
        let dup = parse(r#"{"t":1,"x":2,"t":3}"#).unwrap();
        assert_eq!(stringify(&dup, "").unwrap(), r#"{"t":3,"x":2}"#);
        assert_eq!(parse("-0").and_then(|v| v.as_num()).map(f64::is_sign_negative), Some(true));
    }
}
