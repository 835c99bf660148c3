//! Test-only: the serde_json reading that `read.rs` replaced (the value visitor, the
//! top-level object with its unread members' shapes), kept as the reference the
//! differential tests compare the hand-written reader with.

use super::val::{Map, Value};
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Number;
use std::borrow::Cow;
use std::fmt;

/// The members read as shapes in these tests: the runtime modules' `UNREAD_KEYS`.
const UNREAD_KEYS: &[&str] = &["toolUseResult", "tool_use_result"];

pub(crate) struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value<'de>, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value<'de>, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value<'de>, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value<'de>, E> {
        Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(String::from(s))))
    }
    fn visit_string<E>(self, s: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s)))
    }
    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value<'de>, D::Error> {
        Value::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Value<'de>, A::Error> {
        read_map(access, &[]).map(|(m, _)| Value::Object(m))
    }
}

/// An object's members, leaving out the keys in `skip` (scanned, not built), and whether a
/// key was repeated.
pub(crate) fn read_map<'de, A: MapAccess<'de>>(
    mut access: A,
    skip: &[&str],
) -> Result<(Map<'de>, bool), A::Error> {
    let mut map = Map::default();
    let mut repeated = false;
    while let Some(key) = access.next_key_seed(KeySeed)? {
        if skip.contains(&&*key) {
            // Large and never shown: only its shape is kept (`shape.rs`).
            let Shape(v) = access.next_value()?;
            repeated |= map.push(key, v);
        } else {
            repeated |= map.push(key, access.next_value()?);
        }
    }
    repeated |= map.dedupe();
    Ok((map, repeated))
}

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value<'de>, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

/// A key, borrowed when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(String::from(s)))
    }
    fn visit_string<E>(self, s: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s))
    }
}

// Shapes (the old shape.rs)

/// Longest string value kept in a shape.
const MAX_STR: usize = 64;

/// A shape (see the module doc).
pub(super) struct Shape<'de>(pub Value<'de>);

/// A member value of a shape: a short scalar, or `null`.
struct Scalar<'de>(Value<'de>);

struct Top;
struct Inner;

impl<'de> Deserialize<'de> for Shape<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Top).map(Shape)
    }
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Inner).map(Scalar)
    }
}

fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<de::IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
    Ok(())
}

fn short<'de>(s: Cow<'de, str>) -> Value<'de> {
    if s.len() <= MAX_STR {
        Value::String(s)
    } else {
        Value::Null
    }
}

macro_rules! scalars_null {
    () => {
        fn visit_bool<E>(self, _: bool) -> Result<Value<'de>, E> {
            Ok(Value::Null)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Value<'de>, E> {
            Ok(Value::Null)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Value<'de>, E> {
            Ok(Value::Null)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Value<'de>, E> {
            Ok(Value::Null)
        }
        fn visit_str<E>(self, _: &str) -> Result<Value<'de>, E> {
            Ok(Value::Null)
        }
    };
}

impl<'de> Visitor<'de> for Top {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    scalars_null!();
    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value<'de>, A::Error> {
        drain_seq(seq).map(|_| Value::Null)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value<'de>, A::Error> {
        let mut map = Map::default();
        while let Some(key) = access.next_key::<Cow<'de, str>>()? {
            let v = match &*key {
                "structuredPatch" | "filePath" | "content" => access.next_value::<Value>()?,
                _ => access.next_value::<Scalar>()?.0,
            };
            map.push(key, v);
        }
        map.dedupe();
        Ok(Value::Object(map))
    }
}

impl<'de> Visitor<'de> for Inner {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    // Scalars as a whole value reads them.
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value<'de>, E> {
        ValueVisitor.visit_bool(b)
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value<'de>, E> {
        ValueVisitor.visit_i64(n)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value<'de>, E> {
        ValueVisitor.visit_u64(n)
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value<'de>, E> {
        ValueVisitor.visit_f64(n)
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Value<'de>, E> {
        Ok(short(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value<'de>, E> {
        Ok(if s.len() <= MAX_STR { Value::String(Cow::Owned(s.to_owned())) } else { Value::Null })
    }
    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value<'de>, A::Error> {
        drain_seq(seq).map(|_| Value::Null)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value<'de>, A::Error> {
        drain_map(map).map(|_| Value::Null)
    }
}

// The top-level object (what the runtime modules read a line with)

pub(crate) fn ref_parse_object_text(t: &str) -> Option<(Value<'_>, bool)> {
    let mut de = serde_json::Deserializer::from_str(t);
    // `deserialize_any` with our own errors for non-objects: `deserialize_map` would reach
    // serde_json's invalid-type message, which links core's float formatting (~19 KB wasm).
    let (map, repeated) = serde::Deserializer::deserialize_any(&mut de, TopLevel).ok()?;
    de.end().ok()?;
    Some((Value::Object(map), repeated))
}

struct TopLevel;

impl<'de> serde::de::Visitor<'de> for TopLevel {
    type Value = (Map<'de>, bool);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(E::custom("not an object"))
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(E::custom("not an object"))
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(E::custom("not an object"))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(E::custom("not an object"))
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(E::custom("not an object"))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Err(E::custom("not an object"))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(serde::de::Error::custom("not an object"))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, access: A) -> Result<Self::Value, A::Error> {
        read_map(access, UNREAD_KEYS)
    }
}


#[path = "../../tests/support_json/mod.rs"]
mod support_json;

/// The top-level object reader (`read.rs` with `shape.rs`) against the serde_json one above:
/// same acceptance, same tree (key order, values, shapes of unread members), same
/// repeated-key flag.
mod tests {
    use super::{ref_parse_object_text, Value, UNREAD_KEYS};
    use proptest::prelude::*;

    use super::support_json::*;

    /// The runtime modules' line reader (`formats::common::parse_object`, before its
    /// `JSON.parse` fallback).
    fn parse_object_text(t: &str) -> Option<(Value<'_>, bool)> {
        let (map, repeated) = super::super::read::parse_top_object(t, UNREAD_KEYS)?;
        Some((Value::Object(map), repeated))
    }

    fn same(t: &str) {
        let ours = parse_object_text(t);
        let theirs = ref_parse_object_text(t);
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{t:?}");
        if let (Some((o, _)), Some((s, _))) = (&ours, &theirs) {
            assert_eq!(o.to_compact(), s.to_compact(), "{t:?}");
        }
        // The whole-value reader against serde_json's, on the same text.
        let ours = super::super::read::parse(t);
        let theirs = serde_json::from_str::<super::Value>(t).ok();
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "value {t:?}");
    }

    #[test]
    fn edge_cases() {
        for t in [
            r#"{}"#, r#" {} "#, r#"{"toolUseResult":1e400}"#, r#"{"toolUseResult":[1e400]}"#,
            r#"{"toolUseResult":{"a":1e400}}"#, r#"{"toolUseResult":{"a":[1e400,"\ud83d"]}}"#,
            r#"{"toolUseResult":{"a":{"b":1e400}}}"#, r#"{"toolUseResult":{"a":{"\ud83d":1}}}"#,
            r#"{"toolUseResult":{"a":{"b":{"\ud83d":1}}}}"#, r#"{"toolUseResult":{"\ud83d":1}}"#,
            r#"{"toolUseResult":"\ud83d"}"#, r#"{"toolUseResult":["\ud83d"]}"#, r#"{"toolUseResult":[01]}"#,
            r#"{"toolUseResult":[1.]}"#, r#"{"toolUseResult":{"a":[1,]}}"#, r#"{"toolUseResult":{"a":{"b":1,}}}"#,
            r#"{"toolUseResult":{"a":"x","a":"y"}}"#, r#"{"toolUseResult":1,"toolUseResult":2}"#,
            r#"{"toolUse\u0052esult":{"type":"text","file":{"x":1}}}"#, r#"{"a":1,"a":2}"#,
            r#"{"toolUseResult":{"structuredPatch":[{"oldStart":1,"lines":["+a","\ud83d"]}],"content":"0123456789012345678901234567890123456789012345678901234567890123456789"}}"#,
            r#"{"toolUseResult":{"structuredPatch":[1e400]}}"#, r#"{"toolUseResult":{"content":[{"text":"x"}],"structuredPatch":{"a":[1,]}}}"#,
            r#"{"toolUseResult":{"content":"\ud83d","structuredPatch":"x","content":7}}"#,
            r#"{"toolUseResult":{"filePath":"/a/0123456789012345678901234567890123456789012345678901234567890123456789","file":{"filePath":"/b/0123456789012345678901234567890123456789012345678901234567890123456789"}}}"#,
            r#"{"toolUseResult":{"s":"0123456789012345678901234567890123456789012345678901234567890123"}}"#,
            r#"{"toolUseResult":{"s":"01234567890123456789012345678901234567890123456789012345678901234"}}"#,
            r#"{"toolUseResult":{"s":"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"}}"#,
            r#"{"toolUseResult":{"n":-0,"m":1.5,"b":true,"z":null}}"#, r#"{"toolUseResult":[]}"#,
            r#"{"toolUseResult":{}}"#, r#"{"toolUseResult":{"a":[]}}"#, r#"{"toolUseResult":{"a":{}}}"#,
            r#"{"toolUseResult"}"#, r#"{"toolUseResult":}"#, r#"{"toolUseResult":{"a":}}"#, r#"[1]"#, r#"1"#,
            r#"{"a":1} x"#, r#"{"a":1}}"#,
        ] {
            same(t);
        }
        let mut big = String::from("{");
        for i in 0..40 {
            big.push_str(&format!("\"k{}\":{},", i % 25, i));
        }
        big.push_str("\"toolUseResult\":{\"x\":1},\"k3\":\"last\",\"toolUseResult\":2}");
        same(&big);
    }

    #[test]
    fn nesting_around_the_limit() {
        for n in (120..=135).chain([500, 5000]) {
            for t in nesting(n) {
                same(&t);
            }
        }
    }

    #[test]
    fn every_corpus_line() {
        for l in corpus_lines() {
            same(&l);
            same(l.trim());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn objects(t in object_line()) {
            same(&t);
        }

        #[test]
        fn token_soup(t in tokens(16)) {
            same(&format!("{{{t}"));
            same(&format!("{{\"toolUseResult\":{t}"));
        }
    }
}
