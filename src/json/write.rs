//! JSON text out: the entries every call answers with, and values shown as text.
//!
//! Hand-written rather than serde + serde_json's serializer for the wasm's size: serde's
//! serializer is generic, so every type it writes (each entry shape, `Option`s, the value
//! tree) was instantiated in the wasm together with serde_json's formatter and error
//! machinery, and the value tree had to be a `serde_json::Value` (an `IndexMap` with its
//! hash table). What is written is the same text serde_json writes, byte for byte: strings
//! escape `"`, `\`, `\b \t \n \f \r` and the other control characters as `\u00xx`
//! (lowercase hex), nothing else; integers in decimal; floats with zmij's shortest digits
//! (serde_json's own float writer); non-finite floats as `null`; the pretty form indents by
//! two spaces. `tests/json_write.rs` compares with serde_json on every fixture's entries.

use crate::prelude::*;
use super::bytes::{put, put_byte};
use super::scan::copy_run;
use super::val::Value;
use serde_json::Number;

/// How JSON writes each byte inside a string: 0 as itself, `u` as `\u00xx`, else `\` and
/// this letter.
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// `s` as a JSON string literal. Runs without a byte to escape are copied whole, 16 bytes
/// per step (`scan::copy_run`).
pub fn str(out: &mut String, s: &str) {
    // SAFETY: what goes in is ASCII bytes and whole runs of `s` cut at ASCII bytes (the
    // bytes `copy_run` stops at), so `out` is UTF-8 again after each `copy_run` (within one,
    // a 16-byte step may end inside a character; nothing between its steps can unwind but
    // `reserve`'s capacity overflow, past isize::MAX bytes). Bytes rather than `String::push`
    // and `&s[..]`: at opt-level z those stay calls, several per string written (`bytes.rs`).
    let out = unsafe { out.as_mut_vec() };
    out.reserve(s.len() + 2);
    put_byte(out, b'"');
    let bytes = s.as_bytes();
    let mut i = 0;
    loop {
        i = copy_run(bytes, i, out);
        let Some(&b) = bytes.get(i) else { break };
        i += 1;
        let e = ESCAPE[usize::from(b)];
        if e == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            put(out, &[b'\\', b'u', b'0', b'0', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        } else {
            put(out, &[b'\\', e]);
        }
    }
    put_byte(out, b'"');
}

/// An unsigned integer in decimal.
pub fn uint(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

/// A signed integer in decimal.
pub fn int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    uint(out, n.unsigned_abs());
}

/// A float as serde_json writes one: shortest round-trip digits, `null` when not finite.
pub fn float(out: &mut String, x: f64) {
    if x.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(x));
    } else {
        out.push_str("null");
    }
}

/// A `serde_json::Number` as serde_json writes it.
pub fn number(out: &mut String, n: &Number) {
    if let Some(u) = n.as_u64() {
        uint(out, u);
    } else if let Some(i) = n.as_i64() {
        int(out, i);
    } else {
        float(out, n.as_f64().unwrap_or(f64::NAN));
    }
}

/// A number the way `JSON.stringify` writes the host type's numeric fields (see [`js_int`]).
pub fn js_number(out: &mut String, v: f64) {
    match js_int(v) {
        Some(i) => int(out, i),
        None => float(out, v),
    }
}

/// The host type's numeric fields as JSON wants them: integral values without a fraction
/// (`3`, not `3.0`), non-finite values as `0` (JSON has no NaN; the host type wants a
/// number); `None` for a value written as a float. Shared by [`js_number`] and the serde
/// derive of `Entry` (one rule for both writers).
pub fn js_int(v: f64) -> Option<i64> {
    if !v.is_finite() {
        Some(0)
    } else if super::num::fract(v) == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        Some(v as i64)
    } else {
        None
    }
}

/// Compact JSON of a value, members in their order.
pub fn value(out: &mut String, v: &Value) {
    tree(out, v, None);
}

/// JSON of a value indented by two spaces per level, as `serde_json::to_string_pretty`.
pub fn pretty(out: &mut String, v: &Value, depth: usize) {
    tree(out, v, Some(depth));
}

/// [`value`] (`depth` `None`) or [`pretty`] at indent level `depth`: the layout differs only
/// in the line breaks before items and closers and the space after `:`.
fn tree(out: &mut String, v: &Value, depth: Option<usize>) {
    let inner = depth.map(|d| d + 1);
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, inner);
                tree(out, item, inner);
            }
            if !items.is_empty() {
                newline(out, depth);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, inner);
                str(out, k);
                out.push_str(if depth.is_some() { ": " } else { ":" });
                tree(out, item, inner);
            }
            if !m.is_empty() {
                newline(out, depth);
            }
            out.push('}');
        }
    }
}

impl Value<'_> {
    /// Compact JSON text, as `serde_json::to_string` writes it ([`value`]).
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        value(&mut out, self);
        out
    }
}

/// In the pretty layout, a line break and the indent of level `depth`; nothing compact.
fn newline(out: &mut String, depth: Option<usize>) {
    if let Some(d) = depth {
        out.push('\n');
        for _ in 0..d {
            out.push_str("  ");
        }
    }
}

/// Writes JSON object members one at a time: `{"a":…,"b":…}`.
pub struct Obj<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Obj<'o> {
    pub fn new(out: &'o mut String) -> Obj<'o> {
        out.push('{');
        Obj { out, first: true }
    }

    /// Starts member `key` and returns the buffer to write its value into.
    pub fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        // The keys are our own field names: nothing in them to escape.
        // SAFETY: `key` is a `&str` and the bytes around it are ASCII.
        let out = unsafe { self.out.as_mut_vec() };
        put_byte(out, b'"');
        put(out, key.as_bytes());
        put(out, b"\":");
        self.out
    }

    pub fn str(&mut self, key: &str, v: &str) {
        str(self.key(key), v);
    }

    pub fn opt_str(&mut self, key: &str, v: Option<&str>) {
        if let Some(v) = v {
            self.str(key, v);
        }
    }

    pub fn bool(&mut self, key: &str, v: bool) {
        self.key(key).push_str(if v { "true" } else { "false" });
    }

    pub fn opt_bool(&mut self, key: &str, v: Option<bool>) {
        if let Some(v) = v {
            self.bool(key, v);
        }
    }

    pub fn end(self) {
        self.out.push('}');
    }
}
