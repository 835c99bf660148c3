//! The shape of a large member that is never shown ([`super::UNREAD_KEYS`]): an object
//! keeps its keys, each with its value when that is a bool, a number or a string of at most
//! [`MAX_STR`] bytes, else `null`; nested arrays and objects are scanned, not built. Any
//! other value is `null`. Enough to tell which tool wrote a Claude `toolUseResult`
//! (`{"type":"text","file":{…}}` is Read's) at a fraction of building it.

use super::val::{Map, Value, ValueVisitor};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

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
            let Scalar(v) = access.next_value()?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_keys_and_short_scalars_only() {
        let j = r#"{"type":"text","file":{"filePath":"/a","content":"x"},"n":3,"long":"0123456789012345678901234567890123456789012345678901234567890123456789","list":[1,2]}"#;
        let Shape(v) = serde_json::from_str(j).unwrap();
        assert_eq!(v.get("type").and_then(Value::as_str), Some("text"));
        assert!(v.get("file").is_some_and(Value::is_null));
        assert!(v.get("long").is_some_and(Value::is_null));
        assert!(v.get("list").is_some_and(Value::is_null));
        assert!(v.get("n").is_some_and(|n| !n.is_null()));
        let Shape(s) = serde_json::from_str(r#""Error: nope""#).unwrap();
        assert!(s.is_null());
    }
}
