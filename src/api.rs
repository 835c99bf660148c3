//! Name-based calls for the JavaScript packages: every exported function that is not the
//! hot stdout path crosses the boundary here, as `name` + a JSON array of arguments, and
//! comes back as JSON. Values JSON cannot hold travel tagged: `{"$js":"undefined"}`,
//! `{"$js":"NaN"}`, `{"$js":"Infinity"}`, `{"$js":"-Infinity"}`, `{"$js":"function"}`
//! (the JS glue encodes and decodes them). Real data of that shape is escaped in band so it
//! comes back as the same data: an object key made of one or more `$` and `js` (`$js`,
//! `$$js`, …) travels with one more `$` (`{"$js":"function"}` as data is `{"$$js":"function"}`
//! on the wire), so a tag is exactly an object whose only key is `$js` and nothing else
//! has that key (the encoding's helpers are in [`crate::wire`]). [`Js`](crate::js::Js)
//! modules convert with `from_tagged`/`to_tagged`; the
//! plain-JSON modules (sessions, items) get their arguments with keys unescaped and nested
//! tags read as `JSON.stringify` would write them, and their answers escaped, here in
//! [`call`]. A thrown error comes back as
//! `{"throws": message}`, a value as `{"ok": value}`. A lone surrogate in a string argument
//! reads as U+FFFD; arguments nested deeper than [`MAX_ARG_DEPTH`] (512) give a clear error.

use crate::prelude::*;
use crate::wire::{escape_key, is_tag_like_key, tag_of, unescape_key};
use serde_json::{json, Value};

/// One module's dispatcher: `Some(result)` when it knows `name`, `None` otherwise.
pub type Dispatch = fn(name: &str, args: &[Value]) -> Option<Result<Value, String>>;

/// How a module reads the boundary's values: `Tagged` modules convert tags and escaped keys
/// themselves (`js::Js`); `Plain` ones see ordinary JSON (converted in [`call`]).
#[derive(Clone, Copy, PartialEq)]
enum Values {
    #[allow(dead_code)]
    Tagged,
    #[allow(dead_code)]
    Plain,
}

/// Every module that exports functions to JS, asked in turn.
const MODULES: &[(Dispatch, Values)] = &[
    #[cfg(feature = "readers")]
    (crate::sessions::api::dispatch, Values::Plain),
    #[cfg(feature = "readers")]
    (crate::items::api::dispatch, Values::Plain),
    #[cfg(feature = "readers")]
    (crate::frames::dispatch, Values::Tagged),
    #[cfg(feature = "readers")]
    (crate::turn_signals::dispatch, Values::Tagged),
    #[cfg(feature = "readers")]
    (crate::usage::api::dispatch, Values::Plain),
];

/// Calls `name` with `args_json` (a JSON array) and returns the JSON answer.
pub fn call(name: &str, args_json: &str) -> String {
    let answer = match read_args(args_json) {
        Ok(Value::Array(args)) => dispatch(name, &args),
        Ok(_) => Err("arguments must be a JSON array".to_owned()),
        Err(e) => Err(e),
    };
    let v = match answer {
        Ok(v) => json!({ "ok": v }),
        Err(msg) => json!({ "throws": msg }),
    };
    serde_json::to_string(&v).unwrap_or_else(|_| r#"{"throws":"unserialisable result"}"#.into())
}

/// Nesting of arguments read, the outer arguments array included: as deep as the JS model's
/// walks go ([`crate::js::MAX_DEPTH`]; the JavaScript libraries the API mirrors take a
/// 200-level value), and safe on the 1 MiB wasm stack (tested at this depth through the
/// built files). Deeper arguments give a clear error (docs/robustness.md).
pub const MAX_ARG_DEPTH: usize = crate::js::MAX_DEPTH;

/// The deepest nesting of arrays and objects in JSON text `t` (strings skipped); stops
/// counting past `MAX_ARG_DEPTH`.
fn nesting(t: &str) -> usize {
    let (mut depth, mut deepest, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for &c in t.as_bytes() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > MAX_ARG_DEPTH {
                    break;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The arguments as JSON. `JSON.stringify` writes a lone surrogate (a string cut inside an
/// emoji, which JavaScript allows) as a `\ud83d` escape that serde_json refuses: it is read
/// as U+FFFD, as the glue's `TextEncoder` does for the stdout path's text.
fn read_args(t: &str) -> Result<Value, String> {
    if nesting(t) > MAX_ARG_DEPTH {
        return Err(format!("agentlines: arguments nested deeper than {MAX_ARG_DEPTH} levels are not supported"));
    }
    // Depth is bounded above, so serde_json's own limit (128) can go.
    let mut de = serde_json::Deserializer::from_str(t);
    de.disable_recursion_limit();
    let e = match serde::Deserialize::deserialize(&mut de).and_then(|v: Value| de.end().map(|()| v)) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    if let Some(v) = crate::json::js_json_to_serde(t).and_then(|f| serde_json::from_str(&f).ok()) {
        return Ok(v);
    }
    Err(format!("arguments are not JSON: {e}"))
}

fn dispatch(name: &str, args: &[Value]) -> Result<Value, String> {
    let mut plain: Option<Option<Vec<Value>>> = None;
    for (module, values) in MODULES {
        if *values == Values::Tagged {
            if let Some(r) = module(name, args) {
                return r;
            }
            continue;
        }
        let plain = plain.get_or_insert_with(|| plain_args(args));
        if let Some(r) = module(name, plain.as_deref().unwrap_or(args)) {
            return r.map(|mut v| {
                escape_data(&mut v);
                v
            });
        }
    }
    Err(format!("agentlines: unknown function {name}"))
}

/// Escapes every tag-like key of plain data in place, keeping the key order.
fn escape_data(v: &mut Value) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(escape_data),
        Value::Object(map) => {
            if map.keys().any(|k| is_tag_like_key(k)) {
                let old = std::mem::take(map);
                *map = old.into_iter().map(|(k, v)| (escape_key(&k), v)).collect();
            }
            map.values_mut().for_each(escape_data);
        }
        _ => {}
    }
}

/// The arguments as plain JSON for the `Plain` modules: keys unescaped, and a nested tag
/// read as `JSON.stringify` writes the value (an `undefined` or function member left out,
/// `null` in an array and for NaN and the infinities). A top-level `undefined` stays tagged
/// for `wire::arg`. `None` (no copy) when nothing needs it, the common case.
fn plain_args(args: &[Value]) -> Option<Vec<Value>> {
    fn needs(v: &Value) -> bool {
        match v {
            Value::Array(items) => items.iter().any(needs),
            Value::Object(map) => map.iter().any(|(k, v)| is_tag_like_key(k) || needs(v)),
            _ => false,
        }
    }
    fn convert(v: &Value) -> Option<Value> {
        match tag_of(v) {
            Some("undefined" | "function") => return None,
            Some(_) => return Some(Value::Null),
            None => {}
        }
        Some(match v {
            Value::Array(items) => {
                Value::Array(items.iter().map(|i| convert(i).unwrap_or(Value::Null)).collect())
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter_map(|(k, v)| Some((unescape_key(k).to_owned(), convert(v)?)))
                    .collect(),
            ),
            other => other.clone(),
        })
    }
    let top = |a: &Value| tag_of(a) != Some("undefined");
    if !args.iter().any(|a| top(a) && needs(a)) {
        return None;
    }
    Some(args.iter().map(|a| if top(a) { convert(a).unwrap_or(Value::Null) } else { a.clone() }).collect())
}

#[cfg(all(test, feature = "readers"))]
mod tests {
    use super::*;

    fn ok(name: &str, args: &str) -> Value {
        let v: Value = serde_json::from_str(&call(name, args)).unwrap();
        v.get("ok").cloned().unwrap_or_else(|| panic!("{v}"))
    }

    #[test]
    fn tagged_modules_give_tag_shaped_data_back_as_data() {
        // {"$js":"function"} as data travels as {"$$js":"function"} both ways.
        let args = r#"[{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{"$$js":"function","x":{"$js":"NaN"},"y":[{"$$$js":1}]}}]}]"#;
        let calls = ok("extractToolCalls", args);
        assert_eq!(
            calls[0]["arguments"],
            serde_json::json!({"$$js":"function","x":{"$js":"NaN"},"y":[{"$$$js":1}]})
        );
    }

    #[test]
    fn plain_modules_see_plain_json_and_answer_escaped() {
        let line = r#"{"type":"assistant","uuid":"u","timestamp":"2026-12-03T10:00:00Z","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"$js":"function","$$js":2}}]}}"#;
        let out = ok("dumpSession", &serde_json::to_string(&serde_json::json!([line])).unwrap());
        let input = &out["items"][0]["input"];
        assert_eq!(serde_json::to_string(input).unwrap(), r#"{"$$js":"function","$$$js":2}"#);
        // Nested tags in a plain module's arguments read as JSON.stringify writes them.
        let a = plain_args(&[serde_json::json!({"a":{"$js":"undefined"},"b":[{"$js":"NaN"},{"$js":"function"}],"$$js":1})]).unwrap();
        assert_eq!(a[0], serde_json::json!({"b":[null,null],"$js":1}));
        assert!(plain_args(&[serde_json::json!({"$js":"undefined"}), serde_json::json!("x")]).is_none());
    }
}
