//! The Framework's turn-gate signals (`packages/framework/src/turn-gate.ts`) reproduced exactly:
//! every recorded case of `tests/fixtures/conformance/turn-gate/cases.jsonl` (see PROVENANCE.md
//! there) goes through the JS boundary and must give the recorded answer. The three cases of
//! the older emitter revision (`variant: legacy-session-name`) are skipped on purpose.
// The JS exports live behind the default `readers` feature (src/api.rs).
#![cfg(feature = "readers")]

use agentlines::conformance::run_cases;

#[test]
fn every_turn_gate_case_matches_upstream() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/conformance/turn-gate/cases.jsonl");
    let text = std::fs::read_to_string(path).expect("cases.jsonl");
    let report = run_cases(&text, &["legacy-session-name"]);
    let total: usize = report.per_fn.iter().map(|r| r.1 + r.2).sum();
    let skipped: usize = report.per_fn.iter().map(|r| r.3).sum();
    assert_eq!(total, 170, "every non-legacy case ran");
    assert_eq!(skipped, 3, "only the legacy emitter variant is skipped");
    println!("{}", report.summary());
    assert!(
        report.failures.is_empty(),
        "{} failing case(s)\n{}\n{}",
        report.failures.len(),
        report.summary(),
        report.failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn call(name: &str, args: &str) -> serde_json::Value {
    serde_json::from_str(&agentlines::api::call(name, args)).expect("answer is JSON")
}

/// Edge cases beyond the recorded set, checked against the upstream code run under Node 20
/// while this was written (not recorded cases; kept small).
#[test]
fn edges_checked_against_upstream() {
    use serde_json::json;
    assert_eq!(
        call("parseMarkdownViews", "[null]"),
        json!({"throws": "Cannot read properties of null (reading 'matchAll')"})
    );
    assert_eq!(
        call("parseErrors", "[5]"),
        json!({"throws": "text.matchAll is not a function or its return value is not iterable"})
    );
    assert_eq!(call("parseReadyForMerge", "[null]"), json!({"ok": false}));
    assert_eq!(call("parseReadyForMerge", r#"[["```ready-for-merge```"]]"#), json!({"ok": true}));
    let kelvin = json!(["```show-markdown\n# İstanbul Kelvin \u{212a}\nx\n```"]).to_string();
    assert_eq!(
        call("parseMarkdownViews", &kelvin),
        json!({"ok": [{"id": "i-stanbul-kelvin-k", "title": "İstanbul Kelvin \u{212a}", "markdown": "x"}]})
    );
    let cr = json!(["```show-markdown\n#  \r\nbody\n```"]).to_string();
    assert_eq!(
        call("parseMarkdownViews", &cr),
        json!({"ok": [{"id": "view", "title": "", "markdown": "body"}]})
    );
    let nbsp = json!(["```show-markdown\n#\u{a0}\u{a0}T\nbody\n```"]).to_string();
    assert_eq!(
        call("parseMarkdownViews", &nbsp),
        json!({"ok": [{"id": "t", "title": "T", "markdown": "body"}]})
    );
}

/// The stdout parser's hook: short notices, nothing for plain text.
#[test]
fn notices_for_the_stdout_parser() {
    use agentlines::turn_signals::turn_signal_notices;
    assert!(turn_signal_notices("just text, no fences").is_empty());
    let text = "Done.\n```await-choices\n{\"title\":\"Which DB?\",\"options\":[{\"label\":\"Postgres\"},{\"label\":\"SQLite\"}]}\n```\n\
                ```error\npush rejected\n\nremote said no\n```\n```open-pr\nAdd login\n\nbody\n```\n```ready-for-merge\n```";
    assert_eq!(
        turn_signal_notices(text),
        [
            "Awaiting choice: Which DB? (Postgres / SQLite)",
            "Error: push rejected",
            "Pull request: Add login",
            "Ready for merge"
        ]
    );
}

/// The harness itself notices a wrong answer, a wrong key order and a missing throw.
#[test]
fn harness_reports_mismatches() {
    let cases = r#"{"fn":"stopMessage","args":["x"],"expected":"nope"}
{"fn":"parsePullRequest","args":["```open-pr\nT\n\nD\n```"],"expected":{"description":"D","title":"T"}}
{"fn":"parseErrors","args":[5],"expected":[]}
{"fn":"parseErrors","args":[""],"expected":[],"note":"passes"}"#;
    let report = run_cases(cases, &[]);
    assert_eq!(report.failures.len(), 3, "{:#?}", report.failures);
}
