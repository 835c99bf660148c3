//! The hand-written JSON writer (`json/write.rs`) against serde_json, byte for
//! byte: every entry of every fixture and corpus line (stateless and stateful), the value
//! tree compact and pretty, strings with every control character, and numbers at the
//! edges (the integral/float split of the host's numeric fields, shortest float digits).
#![cfg(not(target_arch = "wasm32"))]

mod support_robust;

use agentlines::entry::write_entries;
use agentlines::json::{write, Json};
use agentlines::{entries_to_json, parse_line, Entry, StdoutParser};
use proptest::prelude::*;
use serde_json::Value;

const TS: &str = "2026-01-01T00:00:00.000Z";

#[test]
fn every_fixture_and_corpus_entry_is_written_as_serde_json_writes_it() {
    let lines = support_robust::corpus(1 << 20);
    assert!(lines.len() > 500, "too few lines found: {}", lines.len());
    let mut stateful = StdoutParser::new();
    let (mut entries_seen, mut inputs) = (0usize, 0usize);
    for l in &lines {
        for entries in [parse_line(&l.text, TS), stateful.parse_line(&l.text, TS)] {
            let ours = entries_to_json(&entries);
            let theirs = serde_json::to_string(&entries).unwrap();
            assert_eq!(ours, theirs, "{}", l.origin);
            entries_seen += entries.len();
            for e in &entries {
                if let Entry::ToolCall { input, .. } = e {
                    inputs += 1;
                    let mut pretty = String::new();
                    write::pretty(&mut pretty, input, 0);
                    assert_eq!(pretty, serde_json::to_string_pretty(input).unwrap(), "{}", l.origin);
                }
            }
        }
    }
    assert!(entries_seen > 5_000 && inputs > 200, "{entries_seen} entries, {inputs} tool inputs");
}

#[test]
fn appends_to_what_the_buffer_holds() {
    let mut out = String::from("x");
    write_entries(&mut out, &[Entry::system("t", "a")]);
    assert_eq!(out, r#"x[{"kind":"system","ts":"t","text":"a"}]"#);
}

#[test]
fn strings_escape_exactly_what_serde_json_escapes() {
    let all: String = (0u32..0x80).filter_map(char::from_u32).collect();
    for s in [all.as_str(), "", "é😀\u{2028}\u{7f}", "\"\\/", "\u{0}\u{1f}\u{8}\u{c}"] {
        let mut ours = String::new();
        write::str(&mut ours, s);
        assert_eq!(ours, serde_json::to_string(s).unwrap(), "{s:?}");
    }
}

/// Every byte JSON escapes (and neighbours that it does not) at each offset 0..=40 of
/// strings of 0..=64 characters, alone and with a second one at the end: the writer's
/// 16-byte blocks, 8-byte words and byte-wise tail each meet it (src/json/scan.rs).
#[test]
fn escapes_at_every_offset() {
    let specials: Vec<char> = (0u32..0x20).chain([0x20, 0x22, 0x2f, 0x5c, 0x7f, 0xe9, 0x2028]).filter_map(char::from_u32).collect();
    for len in 0..=64usize {
        for filler in ["a", "\u{80}"] {
            for at in 0..=len.min(40) {
                for &sp in &specials {
                    let s = filler.repeat(at) + &sp.to_string() + &filler.repeat(len - at);
                    for s in [s.clone(), s + "\""] {
                        let mut ours = String::new();
                        write::str(&mut ours, &s);
                        assert_eq!(ours, serde_json::to_string(&s).unwrap(), "{s:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn numbers_are_written_as_serde_json_writes_them() {
    let floats = [
        0.0, -0.0, 1.0, -1.5, 0.1, 1e21, 1e-7, 123456789.125, 5e-324, f64::MAX, f64::MIN_POSITIVE,
        9_007_199_254_740_993.0, 1e300, 0.30000000000000004, 2.5e-5,
    ];
    for x in floats {
        let mut ours = String::new();
        write::float(&mut ours, x);
        assert_eq!(ours, serde_json::to_string(&x).unwrap(), "{x}");
        // The host type's numeric fields (Result tokens and cost).
        let e = Entry::Result {
            ts: "t".into(),
            text: String::new(),
            input_tokens: x,
            output_tokens: -x,
            cached_tokens: x * 3.0,
            cache_creation_tokens: None,
            cache_creation_1h_tokens: None,
            reasoning_tokens: None,
            model: None,
            call_id: None,
            cost_usd: x / 7.0,
            subtype: "s".into(),
            is_error: false,
            errors: vec!["a\nb".into()],
        };
        assert_eq!(entries_to_json(std::slice::from_ref(&e)), serde_json::to_string(&[e]).unwrap(), "{x}");
    }
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut ours = String::new();
        write::float(&mut ours, x);
        assert_eq!(ours, "null");
    }
    for t in ["0", "-1", "18446744073709551615", "-9223372036854775808", "1.5", "-0.0", "1e400", "12e3"] {
        let Ok(n) = t.parse::<serde_json::Number>() else { continue };
        let mut ours = String::new();
        write::number(&mut ours, &n);
        assert_eq!(ours, serde_json::to_string(&n).unwrap(), "{t}");
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[\\x00-\\x1f\"\\\\a-z]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z\"\\x01]{0,4}", inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn any_value_compact_and_pretty(v in arb_json()) {
        let ours = Json::from(v.clone());
        let mut compact = String::new();
        write::value(&mut compact, &ours);
        prop_assert_eq!(compact, serde_json::to_string(&v).unwrap());
        let mut pretty = String::new();
        write::pretty(&mut pretty, &ours, 0);
        prop_assert_eq!(pretty, serde_json::to_string_pretty(&v).unwrap());
    }
}
