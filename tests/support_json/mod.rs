//! Inputs for the differential tests of the hand-written JSON reader
//! (`json::read`) against serde_json: JSON-ish text built from JSON tokens
//! (valid or not), mutations of valid JSON, nesting around serde_json's limit, and the
//! corpus lines. Shared by `tests/json_read.rs` and the crate's unit tests
//! (`src/json/serde_ref.rs`).
#![allow(dead_code)]

use proptest::prelude::*;

/// Tokens the generated text is made of: structure, whitespace (JSON's and not), literals
/// (whole and cut), strings with every kind of escape and surrogate, and number edge cases.
pub const TOKENS: &[&str] = &[
    "{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\u{a0}", "\u{b}", "\u{c}",
    "null", "true", "false", "nul", "tru", "fals", "nulll", "NaN", "Infinity",
    "\"\"", "\"a\"", "\"type\"", "\"toolUseResult\"", "\"tool_use_result\"", "\"toolUse\\u0052esult\"",
    "\"timestamp\"", "\"x\\ny\"", "\"\\\"\"", "\"\\\\\"", "\"\\/\"", "\"\\b\\f\\r\\t\"", "\"\\u00e9\"",
    "\"\\u00E9\"", "\"\\uD83D\\uDE00\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\udbff\\udfff\"",
    "\"\\ud83d\\u0041\"", "\"\\ud83d\\ud83d\\ude00\"", "\"\\ud83dx\"", "\"\\u12\"", "\"\\u+041\"", "\"\\x\"",
    "\"\\'\"", "\"\\u0000\"", "\"\u{1}\"", "\"\t\"", "\"\u{7f}\"", "\"é漢😀\"", "\"", "\\", "\\u",
    "\"0123456789012345678901234567890123456789012345678901234567890123456789\"",
    "0", "-0", "1", "-1", "00", "01", "-01", "-", "+1", "1.", ".5", "1.5", "-1.5", "1e", "1e+", "1e5", "1E-5",
    "1.5e+3", "0e0", "0.0", "-0.0", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072014e-308",
    "1.7976931348623157e308", "1.7976931348623159e308", "18446744073709551615", "18446744073709551616",
    "-9223372036854775808", "-9223372036854775809", "9223372036854775807", "9999999999999999999",
    "-9999999999999999999", "99999999999999999999", "123456789012345678901234567890", "0.1", "3.14159",
    "1e999999999999", "0e-999999999999", "x", "'", "/", "#",
];

/// Text made of 0..`max` tokens.
pub fn tokens(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..max).prop_map(|t| t.concat())
}

/// A valid JSON value (as serde_json writes it, or with JSON whitespace between tokens).
pub fn valid_json() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(&["null", "true", "false", "0", "-0", "1", "-1", "1.5", "-2.5e-3", "1e300",
            "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
            "\"\"", "\"a\\n\\u00e9\\ud83d\\ude00\"", "\"plain\"", "\"type\"", "\"toolUseResult\""][..])
            .prop_map(str::to_owned),
        "[a-z\u{e9}\u{1f600} ]{0,8}".prop_map(|s| format!("\"{s}\"")),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| format!("{f:e}")),
    ];
    let ws = prop::sample::select(&["", "", "", " ", "\n", "\t", "\r\n  "][..]);
    leaf.prop_recursive(6, 64, 6, move |inner| {
        let ws = ws.clone();
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..6), ws.clone())
                .prop_map(|(items, w)| format!("[{w}{}{w}]", items.join(&format!("{w},{w}")))),
            (
                prop::collection::vec(
                    (prop::sample::select(&["a", "b", "type", "toolUseResult", "tool_use_result", "timestamp", "k\\u0065y", "a"][..]), inner),
                    0..6
                ),
                ws
            )
                .prop_map(|(members, w)| {
                    let m: Vec<String> = members.iter().map(|(k, v)| format!("\"{k}\"{w}:{w}{v}")).collect();
                    format!("{{{w}{}{w}}}", m.join(","))
                }),
        ]
    })
}

/// A valid JSON value with a few edits: chars deleted, inserted from [`TOKENS`], or
/// replaced, at random places.
pub fn mutated_json() -> impl Strategy<Value = String> {
    (valid_json(), prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(TOKENS)), 1..4))
        .prop_map(|(s, edits)| {
            let mut chars: Vec<char> = s.chars().collect();
            for (at, kind, tok) in edits {
                let i = at.index(chars.len() + 1);
                match kind {
                    0 if i < chars.len() => {
                        chars.remove(i);
                    }
                    1 if i < chars.len() => {
                        chars.splice(i..=i, tok.chars());
                    }
                    _ => {
                        chars.splice(i..i, tok.chars());
                    }
                }
            }
            chars.into_iter().collect()
        })
}

/// An object line, as the runtime path reads lines: a valid or mutated object, or tokens
/// after a `{`.
pub fn object_line() -> impl Strategy<Value = String> {
    prop_oneof![
        valid_json().prop_map(|v| format!("{{\"type\":\"x\",\"toolUseResult\":{v},\"v\":{v}}}")),
        valid_json().prop_map(|v| format!("{{\"tool_use_result\":{v}}}")),
        mutated_json().prop_map(|v| format!("{{\"toolUseResult\":{v}}}")),
        mutated_json().prop_map(|v| format!("{{\"a\":{v},\"a\":1}}")),
        tokens(24).prop_map(|t| format!("{{{t}")),
        tokens(24).prop_map(|t| format!("{{\"toolUseResult\":{t}")),
        tokens(24).prop_map(|t| format!("{{\"toolUseResult\":{{\"k\":{t}")),
    ]
}

/// Nested arrays/objects around serde_json's limit (`n` levels), closed or not, with a
/// value inside; also under an unread key, where the limit does not apply.
pub fn nesting(n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let arr = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let obj = |n: usize| format!("{}1{}", "{\"k\":".repeat(n), "}".repeat(n));
    let mixed = |n: usize| {
        let open: String = (0..n).map(|i| if i % 2 == 0 { "[" } else { "{\"k\":" }).collect();
        let close: String = (0..n).rev().map(|i| if i % 2 == 0 { "]" } else { "}" }).collect();
        format!("{open}null{close}")
    };
    for v in [arr(n), obj(n), mixed(n), "[".repeat(n), format!("{}]", "[".repeat(n))] {
        out.push(format!("{{\"a\":{v}}}"));
        out.push(format!("{{\"toolUseResult\":{v}}}"));
        out.push(format!("{{\"toolUseResult\":{{\"k\":{v}}}}}"));
        out.push(format!("{{\"toolUseResult\":{{\"k\":{{\"j\":{v}}}}}}}"));
        out.push(format!("{{\"toolUseResult\":[{v}]}}"));
        out.push(v);
    }
    out
}

/// Every line of every file under `tests/fixtures` and `/work/shared/corpus` (absent
/// directories are skipped), as text (files that are not UTF-8 are read lossily).
pub fn corpus_lines() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut files);
    walk(std::path::Path::new("/work/shared/corpus"), &mut files);
    let mut lines = Vec::new();
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        lines.extend(text.split('\n').map(str::to_owned));
        // Whole small files too (some fixtures are one pretty-printed JSON document).
        if bytes.len() < 1 << 20 {
            lines.push(text.into_owned());
        }
    }
    lines
}
