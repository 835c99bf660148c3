//! Name-based calls for the JavaScript packages: every exported function that is not the
//! hot stdout path crosses the boundary here, as `name` + a JSON array of arguments, and
//! comes back as JSON. Values JSON cannot hold travel tagged: `{"$js":"undefined"}`,
//! `{"$js":"NaN"}`, `{"$js":"Infinity"}`, `{"$js":"-Infinity"}`, `{"$js":"function"}`
//! (the JS glue encodes and decodes them). A thrown error comes back as
//! `{"throws": message}`, a value as `{"ok": value}`. A lone surrogate in a string argument
//! reads as U+FFFD; arguments nested deeper than [`MAX_ARG_DEPTH`] give a clear error.

use serde_json::{json, Value};

/// One module's dispatcher: `Some(result)` when it knows `name`, `None` otherwise.
pub type Dispatch = fn(name: &str, args: &[Value]) -> Option<Result<Value, String>>;

/// Every module that exports functions to JS, asked in turn.
const MODULES: &[Dispatch] = &[
    #[cfg(feature = "readers")]
    crate::sessions::api::dispatch,
    #[cfg(feature = "readers")]
    crate::items::api::dispatch,
    #[cfg(feature = "readers")]
    crate::frames::dispatch,
    #[cfg(feature = "readers")]
    crate::turn_signals::dispatch,
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
    v.as_object()
        .is_some_and(|o| o.len() == 1 && o.get("$js").and_then(Value::as_str) == Some("undefined"))
}

/// Nesting of arguments read (serde_json's recursion limit, which keeps the 1 MiB wasm stack
/// safe); deeper arguments give a clear error (docs/robustness.md).
pub const MAX_ARG_DEPTH: usize = 128;

/// The arguments as JSON. `JSON.stringify` writes a lone surrogate (a string cut inside an
/// emoji, which JavaScript allows) as a `\ud83d` escape that serde_json refuses: it is read
/// as U+FFFD, as the glue's `TextEncoder` does for the stdout path's text.
fn read_args(t: &str) -> Result<Value, String> {
    let e = match serde_json::from_str::<Value>(t) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    if let Some(v) = crate::formats::common::js_json_to_serde(t).and_then(|f| serde_json::from_str(&f).ok()) {
        return Ok(v);
    }
    if e.to_string().starts_with("recursion limit exceeded") {
        return Err(format!("agentlines: arguments nested deeper than {MAX_ARG_DEPTH} levels are not supported"));
    }
    Err(format!("arguments are not JSON: {e}"))
}

fn dispatch(name: &str, args: &[Value]) -> Result<Value, String> {
    for module in MODULES {
        if let Some(r) = module(name, args) {
            return r;
        }
    }
    Err(format!("agentlines: unknown function {name}"))
}
