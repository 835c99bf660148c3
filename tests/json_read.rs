//! The hand-written JSON reader (`json::read`) against serde_json, on generated
//! and real input: it must accept exactly what `serde_json::from_str::<serde_json::Value>`
//! accepts and give the same value (and the same compact text), and `parse_prefix` must
//! read what serde_json's `StreamDeserializer` reads, ending at the same offset.
//! `PROPTEST_CASES=n` scales the generated cases.
#![cfg(not(target_arch = "wasm32"))]

mod support_json;

use agentlines::json::read;
use proptest::prelude::*;
use support_json::*;

fn same_as_serde(t: &str) {
    let ours = read::parse(t);
    let theirs = serde_json::from_str::<serde_json::Value>(t);
    assert_eq!(ours.is_some(), theirs.is_ok(), "{t:?}: ours {ours:?}, serde_json {theirs:?}");
    if let (Some(o), Ok(s)) = (ours, theirs) {
        assert_eq!(o.to_serde(), s, "{t:?}");
        assert_eq!(serde_json::to_string(&o).unwrap(), serde_json::to_string(&s).unwrap(), "{t:?}");
        assert_eq!(format!("{:?}", o.to_serde()), format!("{s:?}"), "{t:?}");
    }
    let mut it = serde_json::Deserializer::from_str(t).into_iter::<serde_json::Value>();
    let theirs = match it.next() {
        Some(Ok(v)) => Some((format!("{v:?}"), it.byte_offset())),
        _ => None,
    };
    let ours = read::parse_prefix(t).map(|(v, end)| (format!("{:?}", v.to_serde()), end));
    assert_eq!(ours, theirs, "prefix of {t:?}");
}

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default)
}

#[test]
fn every_token_alone_and_in_pairs() {
    for a in TOKENS {
        same_as_serde(a);
        for b in TOKENS {
            same_as_serde(&format!("{a}{b}"));
            same_as_serde(&format!("[{a}{b}]"));
        }
    }
}

#[test]
fn nesting_around_the_limit() {
    for n in 120..=135 {
        for t in nesting(n) {
            same_as_serde(&t);
        }
    }
    for t in nesting(1000) {
        same_as_serde(&t);
    }
}

#[test]
fn every_corpus_line() {
    let lines = corpus_lines();
    assert!(lines.len() > 1000, "fixtures missing? {} lines", lines.len());
    for l in &lines {
        same_as_serde(l);
        same_as_serde(l.trim());
    }
}

/// Strings of 0..=64 filler characters with a special byte, escape or other character at
/// each offset 0..=40 (ASCII filler; 2-byte filler puts it at even byte offsets up to 80),
/// alone and in an object, as key and value, followed by more text: the reader's 16-byte blocks, its 8-byte words
/// and its byte-wise tail each meet the special (src/json/scan.rs).
#[test]
fn specials_at_every_offset() {
    let specials = ["\"", "\\\\", "\\\"", "\\n", "\\u0041", "\\ud83d\\ude00", "\\x", "\u{0}", "\u{1f}", "\n", "\u{7f}", " ", "é"];
    for len in 0..=64usize {
        for filler in ["a", "\u{80}"] {
            for at in 0..=len.min(40) {
                for sp in specials {
                    let body: String = filler.repeat(at) + sp + &filler.repeat(len - at);
                    same_as_serde(&format!("\"{body}\""));
                    same_as_serde(&format!("{{\"{body}\":[\"{body}\",1],\"k\":\"{}\"}}", "z".repeat(40)));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(4000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn token_soup(t in tokens(16)) {
        same_as_serde(&t);
    }

    #[test]
    fn valid(t in valid_json()) {
        same_as_serde(&t);
    }

    #[test]
    fn mutated(t in mutated_json()) {
        same_as_serde(&t);
    }

    #[test]
    fn objects(t in object_line()) {
        same_as_serde(&t);
    }

    #[test]
    fn any_text(t in ".{0,40}") {
        same_as_serde(&t);
    }
}
