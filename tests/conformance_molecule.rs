//! `@molecule/api-agent-transcript` conformance: every case recorded from the upstream
//! readers (`tests/fixtures/conformance/molecule/cases.jsonl`, see its NOTES.md and
//! PROVENANCE.md) and every upstream fixture's recorded outputs
//! (`fixtures/<name>.expected.json`) are replayed through `agentlines::api::call` — the
//! same name-based dispatch the wasm package uses — with arguments converted from the
//! conformance encoding (`{"undefined":true}`) to the `$js` tagging and back.
//!
//! `createReader([a:x,b:x,c:y])` composes three stub readers, which are not values JSON
//! can carry: those cases run against the Rust `create_reader` with Rust stubs (the JS
//! test runs them through the package's `createReader` with JS stubs).
//!
//! On failure the test prints a per-fn pass/fail table and the first mismatches.

use agentlines::sessions::{
    create_reader, AgentSession, ReadError, TranscriptInput, TranscriptReader,
};
use serde_json::{json, Value};
use std::path::Path;

const DIR: &str = "tests/fixtures/conformance/molecule";

mod support_conformance;
use support_conformance::{call, same, to_js, Tally};

fn js_name(reader: &str) -> &str {
    match reader {
        "claude-code" => "claudeCode",
        "molecule-ide" => "moleculeIde",
        other => other,
    }
}

/// A stub reader: detects text containing `needle`.
struct Stub(&'static str, &'static str);

impl TranscriptReader for Stub {
    fn format(&self) -> &str {
        self.0
    }
    fn label(&self) -> &str {
        self.0
    }
    fn detect(&self, input: &TranscriptInput) -> bool {
        input.text.contains(self.1)
    }
    fn read(&self, _: &TranscriptInput) -> Result<AgentSession, ReadError> {
        Ok(AgentSession::new(self.0, self.0))
    }
}

fn input_of(v: &Value) -> TranscriptInput {
    TranscriptInput {
        text: v["text"].as_str().unwrap_or("").to_owned(),
        file_name: v.get("fileName").and_then(Value::as_str).map(str::to_owned),
    }
}

/// Runs one case; `Ok(actual)` in the `{"expected"|"throws"}` shape for reporting.
fn run(fn_name: &str, args: &[Value]) -> Result<Value, String> {
    if let Some(rest) = fn_name.strip_prefix("createReader(") {
        let readers: Vec<Box<dyn TranscriptReader + Send + Sync>> = if rest.starts_with("[a:x") {
            vec![Box::new(Stub("a", "x")), Box::new(Stub("b", "x")), Box::new(Stub("c", "y"))]
        } else {
            Vec::new()
        };
        let r = create_reader(readers);
        let input = input_of(&args[0]);
        return if fn_name.ends_with(".detect") {
            Ok(Value::Bool(r.detect(&input)))
        } else {
            r.read(&input).map(|s| s.to_json()).map_err(|e| e.0)
        };
    }
    if fn_name == "autodetect.label" {
        let readers = call("TRANSCRIPT_READERS", &[])?;
        let auto =
            readers.as_array().and_then(|a| a.iter().find(|r| r["name"] == "autodetect")).cloned();
        return Ok(auto.map(|r| r["label"].clone()).unwrap_or(Value::Null));
    }
    let (reader, method) = fn_name.split_once('.').expect("reader.method");
    let args: Vec<Value> = args.iter().map(to_js).collect();
    call(&format!("{}_{method}", js_name(reader)), &args)
}

#[test]
fn molecule_cases_and_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let text = std::fs::read_to_string(root.join("cases.jsonl")).expect("cases.jsonl");
    let mut tally = Tally::default();
    for (n, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).expect("case JSON");
        let fn_name = case["fn"].as_str().expect("fn").to_owned();
        let args = case["args"].as_array().cloned().unwrap_or_default();
        let got = run(&fn_name, &args);
        tally.check(&fn_name, &format!("line {}", n + 1), &case, got);
    }
    // Upstream fixtures: every reader's recorded detect/read on each real file.
    let mut fixtures: Vec<_> = std::fs::read_dir(root.join("fixtures"))
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .collect();
    fixtures.sort();
    let mut seen = 0;
    for path in fixtures.iter().filter(|p| p.to_string_lossy().ends_with(".expected.json")) {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let name = expected["input"]["fileName"].as_str().unwrap().to_owned();
        let input = json!({"text": std::fs::read_to_string(root.join("fixtures").join(&name)).unwrap(), "fileName": name});
        for (key, want) in expected.as_object().unwrap().iter().filter(|(k, _)| *k != "input") {
            let case = match want.get("throws") {
                Some(t) => json!({"throws": t}),
                None => json!({"expected": want}),
            };
            let got = run(key, std::slice::from_ref(&input));
            tally.check(&format!("fixture {key}"), &name, &case, got);
            seen += 1;
        }
    }
    assert!(seen >= 40, "expected every fixture's outputs, saw {seen}");
    let report = tally.report();
    println!("{report}");
    assert!(
        !tally.failed(),
        "molecule conformance failures:\n{report}\n{}",
        tally.failures.join("\n")
    );
}

#[test]
fn comparator_is_not_vacuous() {
    assert!(same(&json!({"a": 1, "b": {"undefined": true}}), Some(&json!({"a": 1.0}))));
    assert!(!same(&json!({"a": 1}), Some(&json!({"a": 2}))));
    assert!(!same(&json!({"a": 1}), Some(&json!({"a": 1, "extra": 0}))));
    assert!(!same(&json!([1, 2]), Some(&json!([1]))));
    assert!(!same(&json!({"a": "x"}), Some(&json!({}))));
}

/// Mangled real files (cut at many points, bytes swapped for multi-byte characters and
/// line terminators) never make a reader panic: each call answers or throws its message.
#[test]
fn mangled_inputs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join("fixtures");
    let mut names: Vec<_> = std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).collect();
    names.retain(|p| !p.to_string_lossy().ends_with(".expected.json"));
    let inserts = ["é", "€", "😀", "\u{2028}", "\r", "\"", "\\", "{", "*** Begin Patch", "</", "…"];
    let mut calls = 0;
    for path in names {
        let text = std::fs::read_to_string(&path).unwrap();
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        for (k, at) in bounds.iter().step_by(97.max(bounds.len() / 60)).enumerate() {
            let mut variants = vec![text[..*at].to_owned()];
            let ins = inserts[k % inserts.len()];
            variants.push(format!("{}{ins}{}", &text[..*at], &text[*at..]));
            for v in variants {
                let input = json!([{"text": v, "fileName": "x"}]).to_string();
                for f in ["claudeCode", "codex", "moleculeIde", "autodetect"] {
                    for m in ["detect", "read"] {
                        let out = agentlines::api::call(&format!("{f}_{m}"), &input);
                        assert!(
                            out.starts_with("{\"ok\"") || out.starts_with("{\"throws\""),
                            "{out:.200}"
                        );
                        calls += 1;
                    }
                }
            }
        }
    }
    assert!(calls > 1000, "{calls}");
}
