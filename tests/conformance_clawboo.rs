//! `@clawboo/protocol` + the clawboo web store's transcript dedup, reproduced exactly: every
//! recorded case of `tests/fixtures/conformance/clawboo/cases.jsonl` (see PROVENANCE.md there)
//! goes through the JS boundary (`agentlines::api::call`) and must give the recorded answer.
// The JS exports live behind the default `readers` feature (src/api.rs).
#![cfg(feature = "readers")]

use agentlines::conformance::run_cases;

#[test]
fn every_clawboo_case_matches_upstream() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/conformance/clawboo/cases.jsonl");
    let text = std::fs::read_to_string(path).expect("cases.jsonl");
    let report = run_cases(&text, &[]);
    let total: usize = report.per_fn.iter().map(|r| r.1 + r.2).sum();
    assert_eq!(total, 745, "every case ran");
    println!("{}", report.summary());
    assert!(
        report.failures.is_empty(),
        "{} failing case(s)\n{}\n{}",
        report.failures.len(),
        report.summary(),
        report.failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(report.per_fn.iter().all(|r| r.3 == 0), "nothing is skipped here");
}

/// Calls through the boundary with tagged JSON args; the answer's JSON.
fn call(name: &str, args: &str) -> serde_json::Value {
    serde_json::from_str(&agentlines::api::call(name, args)).expect("answer is JSON")
}

/// Edge cases beyond the recorded set, checked against the upstream code run under Node 20
/// while this was written (not recorded cases; kept small).
#[test]
fn edges_checked_against_upstream() {
    use serde_json::json;
    let ws = " ".repeat(40);
    let text = format!("a{ws}[message_id:x]{ws}b");
    let args = serde_json::to_string(&[&text]).unwrap();
    assert_eq!(call("stripUiMetadata", &args), json!({"ok": format!("a{}b", " ".repeat(16))}));
    let long = format!("a [message_id:{}] b", "x".repeat(129));
    assert_eq!(call("stripUiMetadata", &json!([long]).to_string()), json!({ "ok": long }));
    let emoji64 = format!("a [message_id:{}] b", "🌍".repeat(64));
    assert_eq!(call("stripUiMetadata", &json!([emoji64]).to_string()), json!({"ok": "ab"}));
    let emoji65 = format!("a [message_id:{}] b", "🌍".repeat(65));
    assert_eq!(call("stripUiMetadata", &json!([emoji65]).to_string()), json!({ "ok": emoji65 }));
    assert_eq!(call("stripUiMetadata", "[0]"), json!({"ok": 0}));
    assert_eq!(call("stripUiMetadata", "[5]"), json!({"throws": "text.replace is not a function"}));
    assert_eq!(call("isHeartbeatPrompt", "[5]"), json!({"throws": "text.trim is not a function"}));
    assert_eq!(
        call("parseToolMarkdown", "[7]"),
        json!({"throws": "line.startsWith is not a function"})
    );
    assert_eq!(
        call("formatToolCallMarkdown", r#"[{"name":7}]"#),
        json!({"throws": "call.name?.trim is not a function"})
    );
    assert_eq!(
        call("formatToolCallMarkdown", "[null]"),
        json!({"throws": "Cannot read properties of null (reading 'name')"})
    );
    let args = r#"[{"name":"n","id":[1,[2,null]],"arguments":{"a":{"$js":"undefined"},"b":[{"$js":"undefined"},{"$js":"NaN"},-0.0,1e21],"c":{"$js":"function"}}}]"#;
    assert_eq!(
        call("formatToolCallMarkdown", args),
        json!({"ok": "[[tool]] n (1,2,)\n```json\n{\n  \"b\": [\n    null,\n    null,\n    0,\n    1e+21\n  ]\n}\n```"})
    );
    assert_eq!(
        call("formatToolResultMarkdown", r#"[{"toolName":"x","text":5}]"#),
        json!({"throws": "result.text?.trim is not a function"})
    );
    let meta = r#"[{"role":{"$js":"undefined"},"timestamp":{"$js":"NaN"},"thinkingDurationMs":{"$js":"Infinity"}}]"#;
    assert_eq!(
        call("formatMetaMarkdown", meta),
        json!({"ok": "[[meta]]{\"timestamp\":null,\"thinkingDurationMs\":null}"})
    );
    let dup = json!([r#"[[meta]]{"role":"user","timestamp":1,"role":"assistant"}"#]).to_string();
    assert_eq!(
        call("parseMetaMarkdown", &dup),
        json!({"ok": {"role": "assistant", "timestamp": 1}})
    );
    let split = json!(["ab🌍cdefgh\r\r\nx\r"]).to_string();
    assert_eq!(
        call("parseToolMarkdown", &split),
        json!({"ok": {"kind": "call", "label": "gh", "body": "x"}})
    );
}
