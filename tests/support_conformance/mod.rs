//! Shared by the session-reader and transcript-item conformance tests: the conformance
//! encoding (`{"undefined":true}`, `{"number":"NaN"}`, `{"function":true}`) to the `$js`
//! tagging of `agentlines::api`, the comparison rule, and one name-based call.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Conformance encoding → `$js` tagging.
pub fn to_js(v: &Value) -> Value {
    match v {
        Value::Object(o) if o.len() == 1 && o.get("undefined") == Some(&Value::Bool(true)) => {
            json!({"$js": "undefined"})
        }
        Value::Object(o) if o.len() == 1 && o.get("function") == Some(&Value::Bool(true)) => {
            json!({"$js": "function"})
        }
        Value::Object(o) if o.len() == 1 && o.get("number").is_some_and(Value::is_string) => {
            json!({"$js": o["number"]})
        }
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), to_js(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(to_js).collect()),
        other => other.clone(),
    }
}

pub fn is_undefined(v: Option<&Value>) -> bool {
    match v {
        None => true,
        Some(Value::Object(o)) => {
            o.len() == 1
                && (o.get("undefined") == Some(&Value::Bool(true))
                    || o.get("$js") == Some(&Value::from("undefined")))
        }
        _ => false,
    }
}

/// Whether `actual` (tagged) is the value `expected` (conformance encoding) describes: an
/// `undefined` property matches an absent one; numbers compare by value.
pub fn same(expected: &Value, actual: Option<&Value>) -> bool {
    if is_undefined(Some(expected)) {
        return is_undefined(actual);
    }
    let Some(actual) = actual else {
        return false;
    };
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            e.iter().all(|(k, v)| same(v, a.get(k)))
                && a.iter().all(|(k, v)| e.contains_key(k) || is_undefined(Some(v)))
        }
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| same(x, Some(y)))
        }
        (Value::Number(e), Value::Number(a)) => e.as_f64() == a.as_f64(),
        _ => expected == actual,
    }
}

/// `{"ok": v}` → Ok(v), `{"throws": m}` → Err(m).
pub fn call(name: &str, args: &[Value]) -> Result<Value, String> {
    let answer: Value = serde_json::from_str(&agentlines::api::call(
        name,
        &Value::Array(args.to_vec()).to_string(),
    ))
    .expect("api::call answers JSON");
    match answer.get("throws") {
        Some(m) => Err(m.as_str().unwrap_or("").to_owned()),
        None => Ok(answer.get("ok").cloned().unwrap_or(Value::Null)),
    }
}

#[derive(Default)]
/// Pass/fail counts per upstream function, and the first failures in full.
pub struct Tally {
    pub per_fn: BTreeMap<String, (usize, usize)>,
    pub failures: Vec<String>,
}

impl Tally {
    pub fn check(&mut self, fn_name: &str, label: &str, case: &Value, got: Result<Value, String>) {
        let ok = match (case.get("throws"), &got) {
            (Some(t), Err(m)) => t.as_str() == Some(m.as_str()),
            (None, Ok(v)) => same(&case["expected"], Some(v)),
            _ => false,
        };
        let slot = self.per_fn.entry(fn_name.to_owned()).or_default();
        if ok {
            slot.0 += 1;
        } else {
            slot.1 += 1;
            if self.failures.len() < 12 {
                let want = case
                    .get("throws")
                    .map(|t| format!("throws {t}"))
                    .unwrap_or_else(|| case["expected"].to_string());
                let got = match got {
                    Ok(v) => v.to_string(),
                    Err(m) => format!("throws {m:?}"),
                };
                self.failures
                    .push(format!("{fn_name} [{label}]\n  want {want:.600}\n  got  {got:.600}"));
            }
        }
    }

    pub fn report(&self) -> String {
        let mut s = String::from("fn                                        pass  fail\n");
        for (f, (p, x)) in &self.per_fn {
            s.push_str(&format!("{f:<40} {p:>5} {x:>5}\n"));
        }
        s
    }

    pub fn failed(&self) -> bool {
        self.per_fn.values().any(|(_, f)| *f > 0)
    }
}
