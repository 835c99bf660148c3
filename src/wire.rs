//! How values cross the JavaScript boundary as JSON (`crate::api` carries them): the values
//! JSON cannot hold travel tagged (`{"$js":"undefined"}`, `{"$js":"NaN"}`,
//! `{"$js":"Infinity"}`, `{"$js":"-Infinity"}`, `{"$js":"function"}`), and real data of that
//! shape is escaped in band: an object key made of one or more `$` and `js` travels with one
//! more `$`, so a tag is exactly an object whose only key is `$js`. Here, below `api` and the
//! modules it calls, so both sides read the same encoding without calling up into `api`.

use crate::prelude::*;
use serde_json::Value;

/// `$js`, `$$js`, `$$$js`, …: the object keys that are escaped on the wire.
pub fn is_tag_like_key(k: &str) -> bool {
    k.len() > 2 && k.ends_with("js") && k[..k.len() - 2].bytes().all(|b| b == b'$')
}

/// A data key as it travels: a tag-like key gains one `$`.
pub fn escape_key(k: &str) -> String {
    if is_tag_like_key(k) {
        format!("${k}")
    } else {
        k.to_owned()
    }
}

/// A key off the wire: `$$js` → `$js` (one `$` less); `$js` itself is only ever a tag.
pub fn unescape_key(k: &str) -> &str {
    if k.len() > 3 && is_tag_like_key(k) {
        &k[1..]
    } else {
        k
    }
}

/// The tag name when `v` is a tag: an object whose only key is `$js`, with a string value.
pub fn tag_of(v: &Value) -> Option<&str> {
    match v {
        Value::Object(o) if o.len() == 1 => o.get("$js").and_then(Value::as_str),
        _ => None,
    }
}

/// Argument `i`, with a tagged `undefined` (or a missing argument) as `None`.
#[cfg(feature = "readers")]
pub(crate) fn arg(args: &[Value], i: usize) -> Option<&Value> {
    match args.get(i) {
        None => None,
        Some(v) if is_undefined(v) => None,
        Some(v) => Some(v),
    }
}

/// `{"$js":"undefined"}`.
#[cfg(feature = "readers")]
pub(crate) fn is_undefined(v: &Value) -> bool {
    tag_of(v) == Some("undefined")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_like_keys_are_escaped_one_dollar_more() {
        for (k, e) in [("$js", "$$js"), ("$$js", "$$$js"), ("js", "js"), ("$j", "$j"), ("$js ", "$js "), ("a$js", "a$js")] {
            assert_eq!(escape_key(k), e);
            assert_eq!(unescape_key(&escape_key(k)), k);
        }
    }
}
