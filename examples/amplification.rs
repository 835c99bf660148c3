//! Measures output amplification on hostile shapes of input (numbers go in
//! docs/robustness.md): for each case the line's bytes, the entries and the output bytes
//! (entries as JSON, one per line, as `agentlines parse` writes them) and the milliseconds
//! of `parse_line` (stateless) and `StdoutParser::parse_line` (stateful).
//!
//! `cargo run --release --example amplification`
//!
//! Timing uses `std::time::Instant` (a benchmark, not the core: the core never reads a clock).

use agentlines::{entries_to_json, parse_line, StdoutParser};
use std::time::Instant;

const TS: &str = "2026-01-01T00:00:00.000Z";

fn cases() -> Vec<(&'static str, String)> {
    let empties = |n: usize| vec!["{}"; n].join(",");
    let fence = "```error\nx\n```\n".repeat(200_000);
    let blocks = vec![r#"{"type":"text","text":"hi"}"#; 2000].join(",");
    vec![
        ("array of 300k empty objects", format!("[{}]", empties(300_000))),
        (
            "codex file_change, 100k empty changes",
            format!(r#"{{"type":"item.completed","item":{{"id":"i","type":"file_change","status":"completed","changes":[{}]}}}}"#, empties(100_000)),
        ),
        (
            "assistant text, 200k error fences",
            serde_json::json!({"type":"assistant","message":{"content":[{"type":"text","text":fence}]}}).to_string(),
        ),
        (
            "claude, 2000 blocks under a 64 KB parent_tool_use_id",
            format!(r#"{{"type":"assistant","parent_tool_use_id":"{}","message":{{"content":[{blocks}]}}}}"#, "p".repeat(64 << 10)),
        ),
        ("array of 1.4M empty objects (4 MB)", format!("[{}]", empties(1_400_000))),
        ("array of 5.3M empty objects (15.9 MB)", format!("[{}]", empties(5_300_000))),
        ("BOM before a JSON line", "\u{feff}{\"type\":\"user\",\"message\":{\"content\":\"bom\"}}".to_owned()),
    ]
}

fn main() {
    for (name, line) in cases() {
        let t = Instant::now();
        let out = parse_line(&line, TS);
        let stateless_ms = t.elapsed().as_secs_f64() * 1e3;
        let bytes: usize = out.iter().map(|e| entries_to_json(std::slice::from_ref(e)).len() - 2 + 1).sum();
        let t = Instant::now();
        let stateful = StdoutParser::new().parse_line(&line, TS);
        let stateful_ms = t.elapsed().as_secs_f64() * 1e3;
        let kinds = out.first().map(|e| e.kind()).unwrap_or("-");
        let last = out.last().map(|e| format!("{:?}", e).chars().take(140).collect::<String>()).unwrap_or_default();
        println!(
            "{name}: line {} B, {} entries ({} stateful), {} B out ({:.1}x), {stateless_ms:.0} ms stateless, {stateful_ms:.0} ms stateful; first {kinds}; last {last}",
            line.len(), out.len(), stateful.len(), bytes, bytes as f64 / line.len() as f64
        );
    }
}
