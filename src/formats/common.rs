//! Helpers every runtime module shares: reading fields leniently out of a JSON value,
//! flattening content blocks to text, and the readable fallbacks for events nobody knows.
//! Nothing here panics on any input.

use crate::entry::Entry;
use serde_json::Value;
use std::collections::VecDeque;

/// How module parsers add an entry: `out.emit(entry)`. Kept out of line on purpose: one
/// call at each of the ~200 emitting sites instead of an inlined grow-and-copy of the
/// entry (about 9 KB of the wasm).
pub trait Emit {
    fn emit(&mut self, e: Entry);
}

impl Emit for Vec<Entry> {
    #[inline(never)]
    fn emit(&mut self, e: Entry) {
        self.push(e);
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
pub fn type_of(v: &Value) -> &str {
    str_of(v, "type").unwrap_or("")
}

/// Follows a path of object keys.
pub fn path<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for k in keys {
        cur = cur.get(*k)?;
    }
    Some(cur)
}

/// Ids a stateful parser remembers, each with a small JSON value, bounded: past `cap` ids
/// the oldest is forgotten. Kept in serde_json's map (in the wasm anyway, for JSON objects)
/// rather than a `HashMap`/`HashSet`, whose hash-table code would be a few KB more of wasm
/// for each key/value type.
#[derive(Debug, Default)]
pub struct SeenIds {
    values: serde_json::Map<String, Value>,
    order: VecDeque<String>,
}

impl SeenIds {
    /// The value of an id, `None` if it was never set (or was forgotten or removed).
    pub fn get(&self, id: &str) -> Option<&Value> {
        self.values.get(id)
    }

    /// Sets the value of `id`; a new id goes last in the eviction order.
    pub fn set(&mut self, id: &str, value: Value, cap: usize) {
        if let Some(v) = self.values.get_mut(id) {
            *v = value;
            return;
        }
        self.values.insert(id.owned(), value);
        self.order.push_back(id.owned());
        if self.order.len() > cap {
            if let Some(old) = self.order.pop_front() {
                self.values.remove(&old);
            }
        }
    }

    /// Forgets `id`.
    pub fn remove(&mut self, id: &str) {
        if self.values.remove(id).is_some() {
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
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let mut parts: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                let part = match item {
                    Value::String(s) => s.clone(),
                    Value::Object(_) => block_text(item),
                    other => compact_json(other),
                };
                if !part.is_empty() {
                    parts.push(part);
                }
            }
            parts.join("\n")
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

/// A JSON object from `(key, value)` pairs in this order, leaving out the `None` values.
/// Used instead of `json!` with interpolated values, which goes through
/// `to_value(..).unwrap()` and links a second copy of serde's `Value` serializer.
pub fn object<const N: usize>(mut pairs: [(&str, Option<Value>); N]) -> Value {
    object_of(&mut pairs)
}

fn object_of(pairs: &mut [(&str, Option<Value>)]) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in pairs {
        if let Some(v) = v.take() {
            m.insert((*k).owned(), v);
        }
    }
    Value::Object(m)
}

/// Compact JSON text of a value (used for tool inputs shown as text, never for whole lines).
pub fn compact_json(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
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
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

/// The fallback for a JSON event no module understands: a system entry that names the
/// runtime and the event type, plus the first few short string fields so the line still
/// says something. Never the raw JSON.
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
            Value::String(s) if !s.is_empty() && s.chars().count() <= 80 => s.clone(),
            Value::Number(num) => num.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => continue,
        };
        parts.push(format!("{k}: {shown}"));
    }
    parts.join(", ")
}

/// Parses a line as a JSON object. `None` for anything else (plain text, arrays, broken JSON).
pub fn parse_object(line: &str) -> Option<Value> {
    let t = line.trim();
    if !t.starts_with('{') {
        return None;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(v @ Value::Object(_)) => Some(v),
        _ => None,
    }
}

/// `x` exactly as Rust's `{}` prints an `f64` (plain decimal, shortest round-trip digits,
/// never an exponent: `3`, `-0`, `0.25`, `1000000000000000000000`), without linking core's
/// float formatting into the wasm: integral values go through integer formatting, the rest
/// take their digits from serde_json's number formatter (already linked for output).
pub fn num_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        if x == 0.0 && x.is_sign_negative() {
            return "-0".owned();
        }
        return (x as i64).to_string();
    }
    if !x.is_finite() {
        return non_finite(x).owned();
    }
    match serde_json::Number::from_f64(x) {
        Some(n) => plain_decimal(&n.to_string()),
        None => String::new(),
    }
}

fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// Lays out `[-]digits[.digits][e[+-]exp]` as a plain decimal without exponent.
fn plain_decimal(s: &str) -> String {
    let b = s.as_bytes();
    let mut digits: Vec<u8> = Vec::with_capacity(b.len());
    let mut neg = false;
    let mut point: Option<usize> = None;
    let mut exp: i64 = 0;
    let mut exp_neg = false;
    let mut in_exp = false;
    for &c in b {
        match c {
            b'-' if in_exp => exp_neg = true,
            b'-' => neg = true,
            b'.' => point = Some(digits.len()),
            b'e' | b'E' => in_exp = true,
            b'0'..=b'9' if in_exp => exp = (exp * 10 + i64::from(c - b'0')).min(100_000),
            b'0'..=b'9' => digits.push(c),
            _ => {}
        }
    }
    // Position of the decimal point counted from the start of `digits`.
    let mut at = point.unwrap_or(digits.len()) as i64 + if exp_neg { -exp } else { exp };
    let lead = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..lead);
    at -= lead as i64;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    let mut out = String::with_capacity(digits.len() + 8);
    if neg {
        out.push('-');
    }
    if digits.is_empty() {
        out.push('0');
        return out;
    }
    let len = digits.len() as i64;
    if at <= 0 {
        out.push_str("0.");
        push_zeros(&mut out, -at);
        out.extend(digits.iter().map(|&d| char::from(d)));
    } else if at >= len {
        out.extend(digits.iter().map(|&d| char::from(d)));
        push_zeros(&mut out, at - len);
    } else {
        for (i, &d) in digits.iter().enumerate() {
            if i as i64 == at {
                out.push('.');
            }
            out.push(char::from(d));
        }
    }
    out
}

fn push_zeros(out: &mut String, n: i64) {
    for _ in 0..n {
        out.push('0');
    }
}

/// `x` exactly as Rust's `{:.N}` prints an `f64` (`decimals` = N, at most 2): the exact
/// binary value rounded half to even, by integer arithmetic on its mantissa and exponent.
pub fn fixed(x: f64, decimals: u32) -> String {
    if !x.is_finite() {
        return non_finite(x).owned();
    }
    let scale = 10u64.pow(decimals.min(2));
    let bits = x.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if raw_exp == 0 { (frac, -1074) } else { (frac | (1u64 << 52), raw_exp - 1075) };
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let (int, fraction) = if e >= 0 {
        // An integer (at least 2^52): its exact digits, then zeros after the point.
        (doubled(m, e as u32), 0)
    } else {
        // round_half_even(m * scale / 2^-e); m * 100 < 2^60, so u64 holds it.
        let q = m * scale;
        let sh = e.unsigned_abs();
        let n = if sh >= 64 {
            0
        } else {
            let whole = q >> sh;
            let rem = q & ((1u64 << sh) - 1);
            let half = 1u64 << (sh - 1);
            if rem > half || (rem == half && whole & 1 == 1) {
                whole + 1
            } else {
                whole
            }
        };
        ((n / scale).to_string(), n % scale)
    };
    out.push_str(&int);
    if scale > 1 {
        out.push('.');
        if scale == 100 && fraction < 10 {
            out.push('0');
        }
        out.push_str(&fraction.to_string());
    }
    out
}

/// Decimal digits of `m * 2^e` (schoolbook doubling; only for huge integral values).
fn doubled(m: u64, e: u32) -> String {
    let mut d: Vec<u8> = m.to_string().bytes().rev().map(|b| b - b'0').collect();
    for _ in 0..e {
        let mut carry = 0;
        for x in d.iter_mut() {
            let v = *x * 2 + carry;
            *x = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            d.push(carry);
        }
    }
    d.iter().rev().map(|&x| char::from(b'0' + x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<f64> {
        let mut v = vec![
            0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 0.25, 0.35, 0.05, 0.15, 0.45, 0.95, 9.95,
            99.5, 0.1, 0.2, 0.3, 1e-7, 1.5e-10, 5e-324, 2.2250738585072014e-308, 1e21, 1e22,
            1e23, 1.7976931348623157e308, 9_007_199_254_740_992.0, 9_007_199_254_740_993.0,
            4_503_599_627_370_497.5, 123_456.789, 0.0025399999999999997, 1.234e15, 1.234e16,
            1.234e17, 1e-5, 1e-6, 170_251.0, 1_250_000.0, 1.25, 0.125, 12.345, -0.04, -0.4,
            0.999_999_9, 0.049_999_999_999_999_996, 999_999.95, 0.873, 0.5049999, 73.0 / 7.0,
        ];
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..4000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            if i % 8 == 0 && x.is_finite() {
                v.push(x);
            }
            // Everyday magnitudes: tokens, costs, milliseconds, fractions.
            let scale = [1e-3, 1e-2, 1.0, 1e2, 1e4, 1e6, 1e9, 1e12][i % 8];
            v.push((s >> 11) as f64 / (1u64 << 53) as f64 * scale);
            v.push(((s >> 40) as f64) / 1000.0);
            v.push(((s >> 44) as f64) / 1e6 * 1e6 / 1e6);
        }
        v
    }

    #[test]
    fn num_text_matches_display() {
        for x in samples() {
            assert_eq!(num_text(x), format!("{x}"), "{x:e}");
        }
        assert_eq!(num_text(f64::NAN), format!("{}", f64::NAN));
        assert_eq!(num_text(f64::INFINITY), format!("{}", f64::INFINITY));
        assert_eq!(num_text(f64::NEG_INFINITY), format!("{}", f64::NEG_INFINITY));
    }

    #[test]
    fn fixed_matches_precision_format() {
        for x in samples().into_iter().chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY]) {
            assert_eq!(fixed(x, 0), format!("{x:.0}"), "{x:e}");
            assert_eq!(fixed(x, 1), format!("{x:.1}"), "{x:e}");
            assert_eq!(fixed(x, 2), format!("{x:.2}"), "{x:e}");
        }
    }
}
