//! wasm-bindgen-test: the core compiled to wasm32, run in Node and in headless Chromium
//! (`make test` runs it twice; see the Makefile). Checks the bindgen face returns the same
//! entries as the native core and the raw ABI's JSON.
#![cfg(target_arch = "wasm32")]

use agentlines::{entries_to_json, parse_line, StdoutParser};
use wasm_bindgen_test::*;

const LINES: &[&str] = &[
    "plain text",
    "\u{1b}[31merror:\u{1b}[0m something broke",
    r#"{"type":"zzz_unknown","a":1}"#,
    "{broken json",
    "",
];

#[wasm_bindgen_test]
fn stateless_and_stateful_agree_on_simple_lines() {
    let mut p = StdoutParser::new();
    for l in LINES {
        let a = entries_to_json(&parse_line(l, "2026-01-01T00:00:00.000Z"));
        let b = entries_to_json(&p.parse_line(l, "2026-01-01T00:00:00.000Z"));
        assert_eq!(a, b, "{l}");
    }
}

#[wasm_bindgen_test]
fn unknown_json_names_its_type() {
    let out = entries_to_json(&parse_line(r#"{"type":"zzz_unknown"}"#, "t"));
    assert!(out.contains("zzz_unknown"), "{out}");
    assert!(out.contains(r#""kind":"system""#), "{out}");
}

#[wasm_bindgen_test]
fn fixtures_match_native_goldens() {
    // A few goldens compiled in, so the wasm build is checked against the same expectations.
    for (input, expected) in agentlines_test_goldens() {
        let mut p = StdoutParser::new();
        let got: Vec<String> = input
            .split('\n')
            .filter(|l| !l.is_empty())
            .enumerate()
            .map(|(i, l)| {
                let ts = format!("2026-01-01T00:{:02}:{:02}.000Z", (i / 60) % 60, i % 60);
                entries_to_json(&p.parse_line(l, &ts))
            })
            .collect();
        let exp: Vec<&str> = expected.split('\n').filter(|l| !l.is_empty()).collect();
        assert_eq!(got.len(), exp.len());
        for (g, e) in got.iter().zip(exp) {
            let gv: serde_json::Value = serde_json::from_str(g).unwrap();
            let ev: serde_json::Value = serde_json::from_str(e).unwrap();
            assert_eq!(gv, ev);
        }
    }
}

fn agentlines_test_goldens() -> Vec<(&'static str, &'static str)> {
    include!("wasm_goldens.in")
}
