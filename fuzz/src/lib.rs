//! Fuzz target bodies, one per public entry point of the core. Each takes raw bytes, drives
//! the entry point, and panics when an invariant breaks (the oracle): the checks are the
//! property tests' (`tests/support_robust`): schema-valid entries, JSON that round-trips,
//! no raw JSON as stdout, at least one entry per non-blank line (documented invisible kinds
//! aside), same output for the same input, chunked feeding equal to whole lines.
//!
//! Used by libFuzzer (fuzz_targets/, nightly) and by the stable mutation loop
//! (src/bin/mutate.rs).

#[path = "../../tests/support_robust/mod.rs"]
pub mod support;

use agentlines::{entries_to_json, parse_line, parse_line_as, Entry, Format, StdoutParser};
use support::{check_amplification, check_entries, is_blank, may_be_invisible};

const TS: &str = "2026-01-01T00:00:00.000Z";

/// A fuzz target body: raw bytes in, a panic when an invariant breaks.
pub type Target = fn(&[u8]);

pub const TARGETS: &[(&str, Target)] =
    &[("parse_line", parse_line_target), ("stateful", stateful), ("chunks", chunks), ("api_call", api_call)];

const FORMATS: [Format; 9] = [
    Format::Claude,
    Format::Codex,
    Format::Gemini,
    Format::OpenCode,
    Format::Cursor,
    Format::Pi,
    Format::OpenClaw,
    Format::Amp,
    Format::Plain,
];

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

fn must(r: Result<String, String>, what: &str, line: &str) -> String {
    match r {
        Ok(json) => json,
        Err(e) => panic!("{what}: {e}\n  input: {line:?}"),
    }
}

/// "At least one entry" for every non-blank line, except documented invisible kinds and JSON
/// objects (a fuzzed event may have lost the field its runtime reads: see
/// docs/robustness.md, "Dropped malformed events"). "JSON object" is the parser's own reading
/// of the line, not serde_json's: it also reads a line behind a byte-order mark, with a lone
/// surrogate escape (as `JSON.parse` does), or behind terminal controls (cleaned first, so a
/// backspace inside a key erases a character), and such a line is an event like any other;
/// so is each object of a one-line JSON array.
fn must_show(entries: &[Entry], line: &str, what: &str) {
    use agentlines::formats::{common::parse_object, plain::clean};
    let unmarked = line.strip_prefix('\u{feff}').unwrap_or(line);
    // A one-line array of objects is read element by element, each as its own line.
    let objects = |t: &str| match agentlines::json::read::parse(t.trim()) {
        Some(agentlines::json::Value::Array(items)) => !items.is_empty() && items.iter().all(|v| v.is_object()),
        _ => false,
    };
    let json_object = parse_object(unmarked).is_some() || parse_object(&clean(unmarked)).is_some() || objects(unmarked);
    if entries.is_empty() && !json_object && !is_blank(line) && may_be_invisible(line).is_none() {
        panic!("{what}: non-blank line gave no entries\n  input: {line:?}");
    }
}

/// `parse_line` (stateless, autodetect) and `parse_line_as` (each runtime).
pub fn parse_line_target(data: &[u8]) {
    let line = text(data);
    let out = parse_line(&line, TS);
    let json = must(check_entries(&out), "parse_line", &line);
    must(check_amplification(&line, &out).map(|_| String::new()), "parse_line amplification", &line);
    must_show(&out, &line, "parse_line");
    assert_eq!(entries_to_json(&parse_line(&line, TS)), json, "not deterministic: {line:?}");
    // Lines over 16 MB never get here from libFuzzer (max_len); forced runtimes see them all.
    let f = FORMATS[data.first().map(|b| *b as usize % FORMATS.len()).unwrap_or(0)];
    let forced = parse_line_as(f, &line, TS);
    must(check_entries(&forced), f.name(), &line);
    must_show(&forced, &line, f.name());
}

/// `StdoutParser::parse_line` over the input's lines (first byte: autodetect or a forced
/// runtime), then `reset()` and an identical replay.
pub fn stateful(data: &[u8]) {
    let (sel, rest) = data.split_first().map(|(a, b)| (*a, b)).unwrap_or((0, &[]));
    let t = text(rest);
    let lines: Vec<&str> = t.split('\n').collect();
    let mut p = match sel as usize % 10 {
        9 => StdoutParser::new(),
        i => StdoutParser::with_format(FORMATS[i]),
    };
    let first: Vec<String> = lines.iter().map(|l| must(check_entries(&p.parse_line(l, TS)), "stateful", l)).collect();
    p.reset();
    let second: Vec<String> = lines.iter().map(|l| entries_to_json(&p.parse_line(l, TS))).collect();
    assert_eq!(first, second, "replay after reset differs");
}

/// `StdoutParser::parse_chunk` + `flush` with chunk sizes from the input: must equal
/// whole-line feeding.
pub fn chunks(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let sizes = [data[0] as usize % 64 + 1, data[1] as usize + 1];
    let t = text(&data[2..]);
    let mut whole = StdoutParser::new();
    let mut expected = Vec::new();
    let mut lines: Vec<&str> = t.split('\n').collect();
    let last = lines.pop().unwrap_or("");
    for l in lines {
        expected.extend(whole.parse_line(l, TS));
    }
    expected.extend(whole.parse_line(last, TS));
    let mut p = StdoutParser::new();
    let mut got = Vec::new();
    let (mut i, mut k) = (0, 0);
    while i < t.len() {
        let mut j = (i + sizes[k % 2]).min(t.len());
        while !t.is_char_boundary(j) {
            j += 1;
        }
        got.extend(p.parse_chunk(&t[i..j], TS));
        i = j;
        k += 1;
    }
    got.extend(p.flush(TS));
    must(check_entries(&got), "chunks", &t);
    assert!(got == expected, "chunked feeding differs from whole lines\n  input: {t:?}");
}

/// `api::call(name, args)`: the input is `name\0args`. The answer is always JSON with
/// exactly one of `ok` / `throws`.
pub fn api_call(data: &[u8]) {
    let t = text(data);
    let (name, args) = t.split_once('\0').unwrap_or((&t, "[]"));
    let answer = agentlines::api::call(name, args);
    let v: serde_json::Value = match serde_json::from_str(&answer) {
        Ok(v) => v,
        Err(e) => panic!("api::call answer is not JSON ({e}): {answer}\n  input: {t:?}"),
    };
    let keys: Vec<&String> = v.as_object().map(|m| m.keys().collect()).unwrap_or_default();
    assert!(keys == ["ok"] || keys == ["throws"], "api::call answer shape {answer}\n  input: {t:?}");
}
