//! The encoding of the recorded conformance cases (`tests/fixtures/conformance/*/cases.jsonl`,
//! see their README): `{"undefined":true}`, `{"number":"NaN"}`, `{"function":true}` stand for
//! the values JSON cannot hold. Used by the conformance tests to feed cases through the
//! boundary and to compare answers: an expected `undefined` property matches a missing one.

use crate::prelude::*;
use crate::js::{Js, Obj, MAX_DEPTH};
use serde_json::Value;

/// A case value (args or expected) as a JS value.
pub fn decode(v: &Value) -> Js {
    decode_at(v, 0)
}

fn decode_at(v: &Value, depth: usize) -> Js {
    if depth >= MAX_DEPTH {
        return Js::Null;
    }
    match v {
        Value::Object(m) if m.len() == 1 => {
            if m.get("undefined") == Some(&Value::Bool(true)) {
                return Js::Undefined;
            }
            if m.get("function") == Some(&Value::Bool(true)) {
                return Js::Func;
            }
            match m.get("number").and_then(Value::as_str) {
                Some("NaN") => return Js::Num(f64::NAN),
                Some("Infinity") => return Js::Num(f64::INFINITY),
                Some("-Infinity") => return Js::Num(f64::NEG_INFINITY),
                _ => {}
            }
            plain(m, depth)
        }
        Value::Object(m) => plain(m, depth),
        Value::Array(items) => Js::Arr(items.iter().map(|i| decode_at(i, depth + 1)).collect()),
        other => Js::from_tagged(other),
    }
}

fn plain(m: &serde_json::Map<String, Value>, depth: usize) -> Js {
    Js::Obj(Obj::from_unique(m.iter().map(|(k, v)| (k.clone(), decode_at(v, depth + 1))).collect()))
}

/// Why `actual` does not match `expected` (`None` when it does). Object keys must appear in
/// the same order; an expected `undefined` property may be missing from `actual`.
pub fn mismatch(actual: &Js, expected: &Js) -> Option<String> {
    mismatch_at(actual, expected, "$", 0)
}

fn mismatch_at(actual: &Js, expected: &Js, path: &str, depth: usize) -> Option<String> {
    if depth >= MAX_DEPTH {
        return None;
    }
    match (actual, expected) {
        (Js::Num(a), Js::Num(e)) if a == e || (a.is_nan() && e.is_nan()) => None,
        (Js::Arr(a), Js::Arr(e)) => {
            if a.len() != e.len() {
                return Some(format!("{path}: array length {} != expected {}", a.len(), e.len()));
            }
            a.iter()
                .zip(e)
                .enumerate()
                .find_map(|(i, (x, y))| mismatch_at(x, y, &format!("{path}[{i}]"), depth + 1))
        }
        (Js::Obj(a), Js::Obj(e)) => {
            let a_keys: Vec<&str> = a
                .iter()
                .filter(|(k, v)| **v != Js::Undefined || e.get(k).is_some())
                .map(|(k, _)| k)
                .collect();
            let e_keys: Vec<&str> = e
                .iter()
                .filter(|(k, v)| **v != Js::Undefined || a.get(k).is_some())
                .map(|(k, _)| k)
                .collect();
            if a_keys != e_keys {
                return Some(format!("{path}: keys {a_keys:?} != expected {e_keys:?}"));
            }
            e.iter().find_map(|(k, ev)| {
                let av = a.get(k).unwrap_or(&Js::Undefined);
                mismatch_at(av, ev, &format!("{path}.{k}"), depth + 1)
            })
        }
        (a, e) if a == e => None,
        (a, e) => Some(format!("{path}: {a:?} != expected {e:?}")),
    }
}

/// Per-function results of [`run_cases`].
#[derive(Debug, Default)]
pub struct Report {
    /// `(function, passed, failed, skipped)`, in first-seen order.
    pub per_fn: Vec<(String, usize, usize, usize)>,
    /// One line per failing case.
    pub failures: Vec<String>,
}

impl Report {
    fn count(&mut self, name: &str, slot: usize) {
        let row = match self.per_fn.iter().position(|r| r.0 == name) {
            Some(i) => &mut self.per_fn[i],
            None => {
                self.per_fn.push((name.to_owned(), 0, 0, 0));
                let last = self.per_fn.len() - 1;
                &mut self.per_fn[last]
            }
        };
        match slot {
            0 => row.1 += 1,
            1 => row.2 += 1,
            _ => row.3 += 1,
        }
    }

    /// A table of the counts, one function per line.
    pub fn summary(&self) -> String {
        self.per_fn
            .iter()
            .map(|(f, p, x, s)| format!("{f}: {p} passed, {x} failed, {s} skipped\n"))
            .collect()
    }
}

/// One call through the boundary (`crate::api::call`): `Ok(value)` or `Err(thrown message)`.
fn call(name: &str, args: &[Js]) -> Result<Js, String> {
    let json = Value::Array(args.iter().map(Js::to_tagged).collect()).to_string();
    let answer: Value =
        serde_json::from_str(&crate::api::call(name, &json)).map_err(|e| e.to_string())?;
    match (answer.get("ok"), answer.get("throws")) {
        (Some(v), _) => Ok(Js::from_tagged(v)),
        (_, Some(t)) => Err(t.as_str().unwrap_or_default().to_owned()),
        _ => Err("malformed answer".into()),
    }
}

/// Runs a stateful `calls` case: `appendTranscript` folds batches into one transcript,
/// `createTurnSignalEmitter` feeds texts to one emitter and collects its events.
fn run_calls(name: &str, calls: &[Value]) -> Result<Js, String> {
    match name {
        "appendTranscript" => {
            calls.iter().try_fold(Js::Arr(Vec::new()), |t, batch| call(name, &[t, decode(batch)]))
        }
        "createTurnSignalEmitter" => {
            let mut state = Js::Null;
            let mut events = Vec::new();
            for text in calls {
                let step = call("turnSignalEmitterStep", &[state, decode(text)])?;
                state = step.get("state").clone();
                if let Js::Arr(e) = step.get("events") {
                    events.extend(e.iter().cloned());
                }
            }
            Ok(Js::Arr(events))
        }
        _ => Err(format!("no stateful runner for {name}")),
    }
}

/// Runs every case of a `cases.jsonl` text through the boundary; cases whose `variant` is in
/// `skip_variants` are counted as skipped.
pub fn run_cases(text: &str, skip_variants: &[&str]) -> Report {
    let mut report = Report::default();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let case: Value = match serde_json::from_str(line) {
            Ok(c) => c,
            Err(e) => {
                report.failures.push(format!("line {}: not JSON: {e}", n + 1));
                continue;
            }
        };
        let name = case.get("fn").and_then(Value::as_str).unwrap_or("?");
        if case.get("variant").and_then(Value::as_str).is_some_and(|v| skip_variants.contains(&v)) {
            report.count(name, 2);
            continue;
        }
        let got = match (case.get("calls"), case.get("args")) {
            (Some(Value::Array(calls)), _) => run_calls(name, calls),
            (_, Some(Value::Array(args))) => {
                call(name, &args.iter().map(decode).collect::<Vec<_>>())
            }
            _ => Err("case has neither args nor calls".into()),
        };
        let problem = match (got, case.get("expected"), case.get("throws")) {
            (Ok(v), Some(e), _) => mismatch(&v, &decode(e)),
            (Err(m), _, Some(t)) if Some(m.as_str()) == t.as_str() => None,
            (Err(m), _, Some(t)) => Some(format!("threw {m:?}, expected throw {t}")),
            (Err(m), Some(_), _) => Some(format!("threw {m:?}")),
            (Ok(v), None, _) => Some(format!("returned {v:?}, expected a throw")),
            (Err(m), None, None) => Some(format!("threw {m:?}; case has no expectation")),
        };
        match problem {
            None => report.count(name, 0),
            Some(p) => {
                report.count(name, 1);
                let note = case.get("note").and_then(Value::as_str).unwrap_or("");
                let mut msg = format!("line {} {name} {note}: {p}", n + 1);
                msg.truncate(600);
                report.failures.push(msg);
            }
        }
    }
    report
}
