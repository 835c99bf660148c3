//! The parsed JSON line the runtime modules read: a borrowed value tree.
//!
//! `serde_json::Value` copies every key and string into its own allocation and hashes every
//! key into an index map; per line that was most of the parser's time (callgrind: 81% of the
//! core on the 3.3 MB Claude log). This tree borrows every string without escapes from the
//! line itself (`Cow::Borrowed`), keeps an object's members in one `Vec` in input order, and
//! finds a key by a short linear scan (objects in agent output have a handful of keys).
//!
//! It is read from text by `read.rs`, the way `serde_json::Value` (with `preserve_order`)
//! reads, so the modules keep their meaning: numbers are `serde_json::Number`, a duplicate
//! key keeps its first position and its last value, and `write.rs` writes the same
//! text. The values a module turns into output (tool inputs) are copied out of the line
//! with [`Value::to_json`] (`Value<'static>`, the crate's output JSON).

use crate::prelude::*;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Number;
use std::borrow::Cow;

/// One JSON value of a line; strings borrow from the line when they hold no escapes.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value<'a> {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Map<'a>),
}

/// An object's members in input order, keys unique (the last value of a repeated key wins,
/// at the key's first position).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Map<'a> {
    members: Vec<(Cow<'a, str>, Value<'a>)>,
}

static NULL: Value<'static> = Value::Null;

impl<'a> Value<'a> {
    /// The member `key` of an object; `None` for a missing key or a non-object. Out of
    /// line on purpose: ~300 call sites would each inline the scan (~25 KB of wasm).
    #[inline(never)]
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(m) => m.get(key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Value<'a>>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Map<'a>> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_object_mut(&mut self) -> Option<&mut Map<'a>> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// An owned copy (for output: tool inputs and the like).
    pub fn to_json(&self) -> Value<'static> {
        self.clone().into_owned()
    }

    /// The same value as a `serde_json::Value` (tests and the native readers).
    pub fn to_serde(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(s) => serde_json::Value::String(String::from(&**s)),
            Value::Array(items) => serde_json::Value::Array(items.iter().map(Value::to_serde).collect()),
            Value::Object(m) => {
                let mut out = serde_json::Map::new();
                for (k, v) in m.iter() {
                    out.insert(String::from(k), v.to_serde());
                }
                serde_json::Value::Object(out)
            }
        }
    }

    /// The array's item `i` (as `serde_json::Value::get` with an index).
    pub fn at(&self, i: usize) -> Option<&Value<'a>> {
        self.as_array()?.get(i)
    }

    /// The same value owning all its strings (for a line that had to be rewritten first).
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(n),
            Value::String(s) => Value::String(Cow::Owned(s.into_owned())),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(m) => Value::Object(Map {
                members: m
                    .members
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            }),
        }
    }

    /// A value built from a `serde_json::Value` (tests and callers that already hold one),
    /// borrowing its strings.
    pub fn from_json(v: &'a serde_json::Value) -> Value<'a> {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.clone()),
            serde_json::Value::String(s) => Value::String(Cow::Borrowed(s)),
            serde_json::Value::Array(items) => Value::Array(items.iter().map(Value::from_json).collect()),
            serde_json::Value::Object(m) => Value::Object(Map {
                members: m.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), Value::from_json(v))).collect(),
            }),
        }
    }
}

impl<'a> core::ops::Index<&str> for Value<'a> {
    type Output = Value<'a>;

    /// `v["key"]`: the member, or `Null` (as `serde_json::Value` indexes).
    fn index(&self, key: &str) -> &Value<'a> {
        self.get(key).unwrap_or(&NULL)
    }
}

impl PartialEq<str> for Value<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

/// Tests and native callers compare with `serde_json` values (`json!` literals).
impl PartialEq<serde_json::Value> for Value<'_> {
    fn eq(&self, other: &serde_json::Value) -> bool {
        self.to_serde() == *other
    }
}

macro_rules! eq_int {
    ($($t:ty)*) => {$(
        impl PartialEq<$t> for Value<'_> {
            fn eq(&self, other: &$t) -> bool {
                match self {
                    Value::Number(n) => n.as_i64().map_or(false, |i| i128::from(i) == *other as i128)
                        || n.as_u64().map_or(false, |u| i128::from(u) == *other as i128),
                    _ => false,
                }
            }
        }
    )*};
}
eq_int!(i32 i64 u32 u64 usize);

impl PartialEq<bool> for Value<'_> {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl PartialEq<&str> for Value<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl<'a> Map<'a> {
    #[inline(never)]
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        // Lengths first: at opt-level z `k == key` is two calls for every member passed.
        let key = key.as_bytes();
        self.members.iter().find(|(k, _)| k.len() == key.len() && k.as_bytes() == key).map(|(_, v)| v)
    }

    /// Sets `key` (in its old place when present, else last).
    pub fn insert(&mut self, key: impl Into<Cow<'a, str>>, v: Value<'a>) {
        let key = key.into();
        match self.members.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = v,
            None => self.members.push((key, v)),
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value<'a>> {
        self.members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn remove(&mut self, key: &str) -> Option<Value<'a>> {
        let i = self.members.iter().position(|(k, _)| k == key)?;
        Some(self.members.remove(i).1)
    }

    /// The member `key` when the input wrote that key without escapes.
    pub fn get_unescaped(&self, key: &str) -> Option<&Value<'a>> {
        match self.members.iter().find(|(k, _)| k == key)? {
            (Cow::Borrowed(_), v) => Some(v),
            (Cow::Owned(_), _) => None,
        }
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|(k, _)| &**k)
    }

    pub fn values(&self) -> impl Iterator<Item = &Value<'a>> {
        self.members.iter().map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        self.members.iter().map(|(k, v)| (&**k, v))
    }

    /// Adds a member read from input: a repeated key takes the new value in its old place
    /// (see `pairs.rs`). `true` when the key was already there.
    pub(super) fn push(&mut self, k: Cow<'a, str>, v: Value<'a>) -> bool {
        super::pairs::push(&mut self.members, k, v)
    }

    /// Merges repeated keys past the first few members (see `push`); `true` when there were
    /// any.
    pub(super) fn dedupe(&mut self) -> bool {
        super::pairs::dedupe(&mut self.members)
    }
}

impl<'m, 'a> IntoIterator for &'m Map<'a> {
    type Item = (&'m str, &'m Value<'a>);
    type IntoIter = core::iter::Map<
        std::slice::Iter<'m, (Cow<'a, str>, Value<'a>)>,
        fn(&'m (Cow<'a, str>, Value<'a>)) -> (&'m str, &'m Value<'a>),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|(k, v)| (&**k, v))
    }
}

/// A `serde_json` value as an owned tree (tests and native callers that build `json!`).
impl From<serde_json::Value> for Value<'_> {
    fn from(v: serde_json::Value) -> Self {
        Value::from_json(&v).into_owned()
    }
}

impl From<bool> for Value<'_> {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<u64> for Value<'_> {
    fn from(n: u64) -> Self {
        Value::Number(n.into())
    }
}

impl From<i64> for Value<'_> {
    fn from(n: i64) -> Self {
        Value::Number(n.into())
    }
}

impl From<f64> for Value<'_> {
    /// A non-finite float is `null` (as `serde_json::Value::from`).
    fn from(n: f64) -> Self {
        Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

impl From<String> for Value<'_> {
    fn from(s: String) -> Self {
        Value::String(Cow::Owned(s))
    }
}

impl From<&str> for Value<'_> {
    /// An owned copy (output values outlive the line).
    fn from(s: &str) -> Self {
        Value::String(Cow::Owned(s.to_owned()))
    }
}

impl From<usize> for Value<'_> {
    fn from(n: usize) -> Self {
        Value::Number((n as u64).into())
    }
}

impl<'a, T: Into<Value<'a>>> From<Vec<T>> for Value<'a> {
    fn from(items: Vec<T>) -> Self {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

impl<'a> From<Map<'a>> for Value<'a> {
    fn from(m: Map<'a>) -> Self {
        Value::Object(m)
    }
}

// ---------------------------------------------------------------------------------------
// Writing (compact JSON of a value shown as text, in input key order)

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(t) => s.serialize_str(t),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m.iter() {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> Value<'_> {
        super::super::read::parse(t).unwrap()
    }

    #[test]
    fn reads_like_serde_json() {
        let cases = [
            r#"{"a":1,"b":[true,null,"x\ny",-2,1.5e3],"c":{"d":"e\u00e9"},"a":2}"#,
            r#"{"k":18446744073709551615,"m":-9223372036854775808,"f":0.1}"#,
            r#"{}"#,
            r#"[]"#,
        ];
        for c in cases {
            let ours = parse(c);
            let theirs: serde_json::Value = serde_json::from_str(c).unwrap();
            assert_eq!(ours.to_serde(), theirs, "{c}");
            assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&theirs).unwrap());
        }
    }

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let v = parse(r#"{"plain":"abc","esc":"a\"b"}"#);
        assert!(matches!(v.get("plain"), Some(Value::String(Cow::Borrowed("abc")))));
        assert!(matches!(v.get("esc"), Some(Value::String(Cow::Owned(_)))));
        assert_eq!(v["missing"], Value::Null);
    }

    #[test]
    fn repeated_keys_keep_first_place_and_last_value_in_large_objects() {
        let mut t = String::from("{");
        for i in 0..40 {
            t.push_str(&format!("\"k{}\":{},", i % 25, i));
        }
        t.push_str("\"k3\":\"last\"}");
        let ours = parse(&t);
        let theirs: serde_json::Value = serde_json::from_str(&t).unwrap();
        assert_eq!(ours.to_serde(), theirs);
        assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&theirs).unwrap());
        assert_eq!(ours.as_object().unwrap().len(), 25);
    }
}
