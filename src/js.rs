//! A small model of JavaScript values, for the modules that reproduce TypeScript libraries
//! exactly (`frames`, `turn_signals`): those take `unknown` input, so `undefined`, `NaN`,
//! functions and arrays-where-objects-were-expected all have to give the library's answer.
//!
//! Values cross the wasm boundary as JSON with the values JSON cannot hold tagged
//! (`{"$js":"undefined"}`, `{"$js":"NaN"}`, `{"$js":"Infinity"}`, `{"$js":"-Infinity"}`,
//! `{"$js":"function"}`; real data keys `$js`, `$$js`, … travel with one more `$`; see
//! `src/api.rs`). [`Js::from_tagged`] / [`Js::to_tagged`] convert.
//! Also here: JS truthiness and `typeof`, `String(v)`, `Number#toString`, the `\s` / `trim()`
//! whitespace set, UTF-16 lengths, and (in `js/json.rs`) `JSON.stringify` / `JSON.parse`.
//!
//! Strings are Rust `String`s: a lone surrogate (which a JS string may hold) cannot be
//! represented and becomes U+FFFD where one would appear.

use crate::prelude::*;
mod json;
mod strings;

pub use json::{parse as json_parse, stringify as json_stringify};
pub use strings::{
    find_at, find_ci, is_space, is_word_byte, match_all_error, method_error, read_error,
    skip_spaces, slice_utf16_from, starts_with_ci, trim, trim_start, utf16_len,
};

#[cfg(feature = "std")]
use serde_json::{Map, Number, Value};

/// Deepest nesting any recursive walk here follows; deeper parts are treated as `null`.
pub const MAX_DEPTH: usize = 512;

/// A JavaScript value (no symbols, bigints, Maps or class instances: nothing the boundary carries).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Js {
    #[default]
    Undefined,
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Js>),
    Obj(Obj),
    /// A function: only its presence is known.
    Func,
}

/// A plain object: own enumerable properties in JS order (array-index keys first, ascending,
/// then the rest in insertion order).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Obj(Vec<(String, Js)>);

static UNDEFINED: Js = Js::Undefined;

/// `Some(n)` when `k` is a canonical array index ("0", "17", not "01" or "4294967295").
fn index_key(k: &str) -> Option<u32> {
    if k.is_empty() || k.len() > 10 || (k.len() > 1 && k.starts_with('0')) {
        return None;
    }
    if !k.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    k.parse::<u64>().ok().filter(|n| *n < u64::from(u32::MAX)).map(|n| n as u32)
}

impl Obj {
    pub fn new() -> Self {
        Obj(Vec::new())
    }

    /// From pairs with distinct keys, reordered the way JS orders own keys.
    pub fn from_unique(pairs: Vec<(String, Js)>) -> Self {
        if !pairs.iter().any(|(k, _)| index_key(k).is_some()) {
            return Obj(pairs);
        }
        // Index keys first by value (through `set`), the others after in their order.
        let mut out = Obj(Vec::with_capacity(pairs.len()));
        let mut named = Vec::new();
        for (k, v) in pairs {
            if index_key(&k).is_some() {
                out.set(&k, v);
            } else {
                named.push((k, v));
            }
        }
        out.0.append(&mut named);
        out
    }

    pub fn get(&self, key: &str) -> Option<&Js> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// `obj[key] = v`: an existing key keeps its place.
    pub fn set(&mut self, key: &str, v: Js) {
        if let Some(slot) = self.0.iter_mut().find(|(k, _)| k == key) {
            slot.1 = v;
            return;
        }
        match index_key(key) {
            Some(n) => {
                let at =
                    self.0.iter().take_while(|(k, _)| index_key(k).is_some_and(|m| m < n)).count();
                self.0.insert(at, (key.to_owned(), v));
            }
            None => self.0.push((key.to_owned(), v)),
        }
    }

    /// Builder form of [`Obj::set`].
    pub fn with(mut self, key: &str, v: Js) -> Self {
        self.set(key, v);
        self
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Js)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Obj> for Js {
    fn from(o: Obj) -> Js {
        Js::Obj(o)
    }
}

impl From<&str> for Js {
    fn from(s: &str) -> Js {
        Js::Str(s.to_owned())
    }
}

impl From<String> for Js {
    fn from(s: String) -> Js {
        Js::Str(s)
    }
}

impl From<bool> for Js {
    fn from(b: bool) -> Js {
        Js::Bool(b)
    }
}

impl<T: Into<Js>> From<Option<T>> for Js {
    /// `None` is `undefined`.
    fn from(v: Option<T>) -> Js {
        v.map_or(Js::Undefined, Into::into)
    }
}

impl Js {
    /// `v[key]` for a property read: `undefined` for anything that is not a plain object or lacks it.
    pub fn get(&self, key: &str) -> &Js {
        match self {
            Js::Obj(o) => o.get(key).unwrap_or(&UNDEFINED),
            _ => &UNDEFINED,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Js::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_num(&self) -> Option<f64> {
        match self {
            Js::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn is_nullish(&self) -> bool {
        matches!(self, Js::Undefined | Js::Null)
    }

    /// `Boolean(v)`.
    pub fn truthy(&self) -> bool {
        match self {
            Js::Undefined | Js::Null => false,
            Js::Bool(b) => *b,
            Js::Num(n) => *n != 0.0 && !n.is_nan(),
            Js::Str(s) => !s.is_empty(),
            Js::Arr(_) | Js::Obj(_) | Js::Func => true,
        }
    }

    /// `typeof v`.
    pub fn type_of(&self) -> &'static str {
        match self {
            Js::Undefined => "undefined",
            Js::Null | Js::Arr(_) | Js::Obj(_) => "object",
            Js::Bool(_) => "boolean",
            Js::Num(_) => "number",
            Js::Str(_) => "string",
            Js::Func => "function",
        }
    }

    /// `v !== null && typeof v === 'object'` (arrays included).
    pub fn is_object(&self) -> bool {
        matches!(self, Js::Arr(_) | Js::Obj(_))
    }

    /// `String(v)` (a function's source text is unknown: a placeholder stands in).
    pub fn to_js_string(&self) -> String {
        let mut out = String::new();
        write_js_string(self, &mut out, 0);
        out
    }

    /// From the boundary's tagged JSON (plain JSON works too).
    #[cfg(feature = "std")]
    pub fn from_tagged(v: &Value) -> Js {
        from_tagged_at(v, 0)
    }

    /// To the boundary's tagged JSON.
    #[cfg(feature = "std")]
    pub fn to_tagged(&self) -> Value {
        to_tagged_at(self, 0)
    }
}

fn write_js_string(v: &Js, out: &mut String, depth: usize) {
    match v {
        Js::Undefined => out.push_str("undefined"),
        Js::Null => out.push_str("null"),
        Js::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Js::Num(n) => out.push_str(&fmt_num(*n)),
        Js::Str(s) => out.push_str(s),
        Js::Obj(_) => out.push_str("[object Object]"),
        Js::Func => out.push_str("function () { [native code] }"),
        Js::Arr(items) => {
            if depth >= MAX_DEPTH {
                return;
            }
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !item.is_nullish() {
                    write_js_string(item, out, depth + 1);
                }
            }
        }
    }
}

#[cfg(feature = "std")]
fn from_tagged_at(v: &Value, depth: usize) -> Js {
    if depth >= MAX_DEPTH {
        return Js::Null;
    }
    match v {
        Value::Null => Js::Null,
        Value::Bool(b) => Js::Bool(*b),
        Value::Number(n) => Js::Num(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Js::Str(s.clone()),
        Value::Array(items) => {
            Js::Arr(items.iter().map(|i| from_tagged_at(i, depth + 1)).collect())
        }
        Value::Object(map) => {
            if map.len() == 1 {
                if let Some(Value::String(tag)) = map.get("$js") {
                    match tag.as_str() {
                        "undefined" => return Js::Undefined,
                        "NaN" => return Js::Num(f64::NAN),
                        "Infinity" => return Js::Num(f64::INFINITY),
                        "-Infinity" => return Js::Num(f64::NEG_INFINITY),
                        "function" => return Js::Func,
                        _ => {}
                    }
                }
            }
            let pairs = map
                .iter()
                .map(|(k, v)| (crate::wire::unescape_key(k).to_owned(), from_tagged_at(v, depth + 1)))
                .collect();
            Js::Obj(Obj::from_unique(pairs))
        }
    }
}

#[cfg(feature = "std")]
fn tag(name: &str) -> Value {
    let mut m = Map::new();
    m.insert("$js".to_owned(), Value::String(name.to_owned()));
    Value::Object(m)
}

#[cfg(feature = "std")]
/// A JS number as JSON: integers (not -0) in the safe range as integers, so `1` stays `1`.
fn num_value(n: f64) -> Value {
    if n.is_nan() {
        return tag("NaN");
    }
    if n.is_infinite() {
        return tag(if n > 0.0 { "Infinity" } else { "-Infinity" });
    }
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if n.fract() == 0.0 && n.abs() <= SAFE && !(n == 0.0 && n.is_sign_negative()) {
        return Value::Number(Number::from(n as i64));
    }
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}

#[cfg(feature = "std")]
fn to_tagged_at(v: &Js, depth: usize) -> Value {
    if depth >= MAX_DEPTH {
        return Value::Null;
    }
    match v {
        Js::Undefined => tag("undefined"),
        Js::Null => Value::Null,
        Js::Bool(b) => Value::Bool(*b),
        Js::Num(n) => num_value(*n),
        Js::Str(s) => Value::String(s.clone()),
        Js::Func => tag("function"),
        Js::Arr(items) => Value::Array(items.iter().map(|i| to_tagged_at(i, depth + 1)).collect()),
        Js::Obj(o) => {
            let mut m = Map::new();
            for (k, v) in o.iter() {
                m.insert(crate::wire::escape_key(k), to_tagged_at(v, depth + 1));
            }
            Value::Object(m)
        }
    }
}

/// `Number.prototype.toString()` (radix 10): shortest round-trip digits, JS layout. The
/// digits come from the float printer JSON output uses (zmij, as serde_json), re-laid out.
pub fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    // Shortest round-trip digits from the JSON float printer, as digits + decimal point position.
    let mut shortest = String::new();
    crate::json::write::float(&mut shortest, x.abs());
    let mut digits: Vec<u8> = Vec::with_capacity(shortest.len());
    let mut point: i64 = 0; // digits before the decimal point
    let mut seen_point = false;
    let mut exp: i64 = 0;
    let mut exp_neg = false;
    let mut in_exp = false;
    for b in shortest.bytes() {
        match b {
            b'0'..=b'9' if in_exp => exp = exp * 10 + i64::from(b - b'0'),
            b'0'..=b'9' => {
                if !(digits.is_empty() && b == b'0') {
                    digits.push(b);
                } else if seen_point {
                    point -= 1; // a leading zero after the point
                }
                if !seen_point && !digits.is_empty() {
                    point += 1;
                }
            }
            b'.' => seen_point = true,
            b'e' | b'E' => in_exp = true,
            b'-' => exp_neg = true,
            _ => {}
        }
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() {
        return "0".into();
    }
    let n = point + if exp_neg { -exp } else { exp };
    let k = digits.len() as i64;
    let mut out: Vec<u8> = Vec::with_capacity(32);
    if x < 0.0 {
        out.push(b'-');
    }
    if k <= n && n <= 21 {
        out.extend_from_slice(&digits);
        out.resize(out.len() + (n - k) as usize, b'0');
    } else if 0 < n && n <= 21 {
        out.extend_from_slice(&digits[..n as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-n) as usize, b'0');
        out.extend_from_slice(&digits);
    } else {
        out.push(digits[0]);
        if k > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        out.push(if n - 1 < 0 { b'-' } else { b'+' });
        let e = (n - 1).unsigned_abs();
        let start = out.len();
        let mut rest = e;
        loop {
            out.insert(start, b'0' + (rest % 10) as u8);
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Arguments by position, `undefined` when missing.
pub fn arg(args: &[Js], i: usize) -> &Js {
    args.get(i).unwrap_or(&UNDEFINED)
}

/// The shared shape of a module's `api::Dispatch`: when `name` is one of `names`, converts
/// the tagged arguments, runs `call` and tags the result.
#[cfg(feature = "std")]
pub fn dispatch_names(
    names: &[&str],
    call: fn(&str, &[Js]) -> Result<Js, String>,
    name: &str,
    args: &[Value],
) -> Option<Result<Value, String>> {
    if !names.contains(&name) {
        return None;
    }
    let mut js = Vec::with_capacity(args.len());
    for a in args {
        js.push(Js::from_tagged(a));
    }
    Some(call(name, &js).map(|v| v.to_tagged()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_like_js() {
        let cases = [
            (1.0, "1"),
            (-0.0, "0"),
            (1.5, "1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.2345e-7, "1.2345e-7"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-2.5e300, "-2.5e+300"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1700000000000.0, "1700000000000"),
        ];
        for (x, want) in cases {
            assert_eq!(fmt_num(x), want, "{x}");
        }
    }

    #[test]
    fn keys_order_like_js() {
        let o = Obj::new()
            .with("b", Js::Null)
            .with("2", Js::Null)
            .with("a", Js::Null)
            .with("1", Js::Null)
            .with("01", Js::Null);
        let keys: Vec<&str> = o.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["1", "2", "b", "a", "01"]);
    }

    #[test]
    fn string_conversion() {
        let v = Js::Arr(vec![
            Js::Num(1.0),
            Js::Null,
            Js::Arr(vec![Js::Str("a".into()), Js::Bool(true)]),
            Js::Obj(Obj::new()),
        ]);
        assert_eq!(v.to_js_string(), "1,,a,true,[object Object]");
    }
}
