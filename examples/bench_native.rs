//! Native baseline for `make bench` (bench/run.mjs runs it): the Rust core on the same
//! bytes the wasm build gets, no JS and no boundary.
//!
//! `cargo run --release --example bench_native -- [--passes N] [--warmup N] [--only NAME] <files…>`
//!
//! (`--only stateless_json` runs one pass kind alone, e.g. under
//! `valgrind --tool=callgrind` for an instruction profile that machine load cannot skew.)
//!
//! For each file it times these passes over the whole file (lines split on `\n`, the last
//! empty piece dropped, ts `2026-01-01T00:00:00.000Z`), `--warmup` passes first, then
//! `--passes` rounds that run every pass once in turn:
//!
//! - `stateless_json`: `parse_line` + `entries_to_json` per line (what `parseStdoutLine`
//!   does inside the wasm, minus the boundary);
//! - `stateful_json`: one `StdoutParser`, `parse_line` + `entries_to_json` per line
//!   (`createStdoutParser().parseLine`);
//! - `stateful_entries`: the same without serialising (the parse alone);
//! - `batch_json`: `parse_log_with` (merge on) + one `entries_to_json` (`parseLog`);
//! - `serde_value`: `serde_json::from_str::<Value>` of every line (what the core does first);
//! - `ours_value`: `formats::common::parse_object` of every line (the borrowed tree the
//!   runtime modules read: the JSON part of `stateful_entries`);
//! - `serde_skip`: `serde_json::from_str::<IgnoredAny>` of every line (validate and skip
//!   everything: the floor for any serde_json-based reader);
//! - `serde_type_only`: a struct that keeps only `type` (borrowed when unescaped) and skips
//!   the rest (what a reader that builds only the fields it needs would pay to find them).
//!
//! Prints one JSON object on stdout: `{"files":[{"file","bytes","lines","ns":{…},"min_ns":{…}}]}`
//! with the median and the fastest nanoseconds per whole file. Timing uses `std::time::Instant` (this is a benchmark, not
//! the core: the core never reads a clock).

use agentlines::parser::parse_log_with;
use agentlines::{entries_to_json, parse_line, StdoutParser};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::borrow::Cow;
use std::hint::black_box;
use std::time::Instant;

/// Only the event type; every other field is skipped without being built.
#[derive(Deserialize)]
struct TypeOnly<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
}

const TS: &str = "2026-01-01T00:00:00.000Z";

fn median(mut v: Vec<u128>) -> u128 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// One whole pass over a file; returns a count so the work is not optimised away.
type Pass<'a> = Box<dyn FnMut() -> usize + 'a>;

/// Times the passes against each other: warm-up first, then `passes` rounds, each round
/// timing every pass once in turn (a change in machine load hits them all alike).
/// Returns (median, min) nanoseconds per pass, in the order given.
fn time_rounds(passes: usize, warmup: usize, fs: &mut [(&str, Pass)]) -> Vec<(u128, u128)> {
    for (_, f) in fs.iter_mut() {
        for _ in 0..warmup {
            black_box(f());
        }
    }
    let mut samples: Vec<Vec<u128>> = vec![Vec::with_capacity(passes); fs.len()];
    for _ in 0..passes {
        for (k, (_, f)) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            black_box(f());
            samples[k].push(t.elapsed().as_nanos());
        }
    }
    samples
        .into_iter()
        .map(|s| {
            let min = s.iter().copied().min().unwrap_or(0);
            (median(s), min)
        })
        .collect()
}

fn lines_of(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"?\"".to_owned())
}

fn main() {
    let mut passes = 11usize;
    let mut warmup = 3usize;
    let mut only: Option<String> = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--passes" => {
                passes = args.next().and_then(|n| n.parse().ok()).unwrap_or(passes).max(1)
            }
            "--warmup" => warmup = args.next().and_then(|n| n.parse().ok()).unwrap_or(warmup),
            "--only" => only = args.next(),
            _ => files.push(a),
        }
    }
    let mut rows = Vec::new();
    for file in &files {
        let text = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("bench_native: cannot read {file}: {e}");
                continue;
            }
        };
        let lines = lines_of(&text);
        let text = text.as_str();
        let lines = &lines;
        let mut fs: Vec<(&str, Pass)> = vec![
            (
                "stateless_json",
                Box::new(|| lines.iter().map(|l| entries_to_json(&parse_line(l, TS)).len()).sum()),
            ),
            (
                "stateful_json",
                Box::new(|| {
                    let mut p = StdoutParser::new();
                    lines.iter().map(|l| entries_to_json(&p.parse_line(l, TS)).len()).sum()
                }),
            ),
            (
                "stateful_entries",
                Box::new(|| {
                    let mut p = StdoutParser::new();
                    lines.iter().map(|l| p.parse_line(l, TS).len()).sum()
                }),
            ),
            (
                "batch_json",
                Box::new(|| entries_to_json(&parse_log_with(text, |_| TS.to_owned(), true)).len()),
            ),
            (
                "serde_value",
                Box::new(|| {
                    let ok = |l: &&&str| serde_json::from_str::<serde_json::Value>(l).is_ok();
                    lines.iter().filter(ok).count()
                }),
            ),
            (
                "ours_value",
                Box::new(|| {
                    let ok = |l: &&&str| agentlines::formats::common::parse_object(l).is_some();
                    lines.iter().filter(ok).count()
                }),
            ),
            (
                "serde_skip",
                Box::new(|| {
                    lines.iter().filter(|l| serde_json::from_str::<IgnoredAny>(l).is_ok()).count()
                }),
            ),
            (
                "serde_type_only",
                Box::new(|| {
                    let kind_len = |l: &&str| match serde_json::from_str::<TypeOnly>(l) {
                        Ok(t) => t.kind.map(|k| k.len()).unwrap_or(0),
                        Err(_) => 0,
                    };
                    lines.iter().map(kind_len).sum()
                }),
            ),
        ];
        if let Some(name) = &only {
            fs.retain(|(n, _)| n == name);
        }
        let times = time_rounds(passes, warmup, &mut fs);
        let field = |pick: fn(&(u128, u128)) -> u128| {
            let parts: Vec<String> = fs
                .iter()
                .zip(&times)
                .map(|((name, _), t)| format!("\"{name}\":{}", pick(t)))
                .collect();
            parts.join(",")
        };
        rows.push(format!(
            "{{\"file\":{},\"bytes\":{},\"lines\":{},\"ns\":{{{}}},\"min_ns\":{{{}}}}}",
            json_str(file),
            text.len(),
            lines.len(),
            field(|t| t.0),
            field(|t| t.1)
        ));
    }
    println!("{{\"passes\":{passes},\"warmup\":{warmup},\"files\":[{}]}}", rows.join(","));
}
