//! The Framework's turn-gate signals (`packages/framework/src/turn-gate.ts`) reproduced exactly:
//! every recorded case of `tests/fixtures/conformance/turn-gate/cases.jsonl` (see PROVENANCE.md
//! there) goes through the JS boundary and must give the recorded answer. The three cases of
//! the older emitter revision (`variant: legacy-session-name`) are skipped on purpose.

use agentlines::js::conformance::run_cases;

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
