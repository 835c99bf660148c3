//! `@clawboo/protocol` + the clawboo web store's transcript dedup, reproduced exactly: every
//! recorded case of `tests/fixtures/conformance/clawboo/cases.jsonl` (see PROVENANCE.md there)
//! goes through the JS boundary (`agentlines::api::call`) and must give the recorded answer.

use agentlines::js::conformance::run_cases;

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
