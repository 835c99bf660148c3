//! Hostile inputs, natively (the same inputs go through the built wasm package in
//! tests/js/hostile.test.mjs). Limits checked here are documented in docs/robustness.md.
//!
//! Memory is measured with a counting allocator that keeps a per-thread count of live heap
//! bytes, so tests running in parallel do not disturb each other's numbers.
//!
//! `HOSTILE_LINES=1000000` scales the bounded-state streams (default 100 000 lines each,
//! 24× the tool-call cap and 3000× the per-message caps; a debug build on 2 cores).
#![cfg(not(target_arch = "wasm32"))]

mod support_robust;

use agentlines::parser::{MAX_LINE_BYTES, MAX_PENDING_CALLS, OVERLONG_KEEP_BYTES};
use agentlines::{parse_line, parse_line_as, Entry, Format, StdoutParser};
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use support_robust::{check_amplification, check_entries, is_blank};

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let _ = LIVE.try_with(|c| c.set(c.get() + l.size() as isize));
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        let _ = LIVE.try_with(|c| c.set(c.get() - l.size() as isize));
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let _ = LIVE.try_with(|c| c.set(c.get() + new as isize - l.size() as isize));
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Live heap bytes allocated by this thread.
fn live() -> isize {
    LIVE.with(Cell::get)
}

const TS: &str = "2026-01-01T00:00:00.000Z";

fn lines_scale() -> usize {
    std::env::var("HOSTILE_LINES").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

fn ok(entries: &[Entry]) {
    if let Err(e) = check_entries(entries) {
        panic!("{e}");
    }
}

#[test]
fn a_64_mb_line_is_cut_with_a_notice_and_memory_returns() {
    let before = live();
    for line in [
        "x".repeat(64 << 20),
        format!(r#"{{"type":"assistant","message":{{"content":[{{"type":"text","text":"{}"}}]}}}}"#, "y".repeat(64 << 20)),
    ] {
        for out in [parse_line(&line, TS), StdoutParser::new().parse_line(&line, TS)] {
            ok(&out);
            assert_eq!(out.len(), 2, "notice + head");
            assert!(matches!(&out[0], Entry::System { text, .. } if text.contains(&line.len().to_string())));
            assert!(matches!(&out[1], Entry::Stdout { text, .. } if text.len() == OVERLONG_KEEP_BYTES));
        }
        // Fed in 4 MB chunks: the same two entries, and the parser holds no more than the
        // partial cap while the line arrives.
        let mut p = StdoutParser::new();
        let mut got = Vec::new();
        for piece in line.as_bytes().chunks(4 << 20) {
            got.extend(p.parse_chunk(std::str::from_utf8(piece).unwrap(), TS));
        }
        got.extend(p.parse_chunk("\n", TS));
        assert_eq!(got, parse_line(&line, TS));
        assert_eq!(p.parse_line("after", TS), vec![Entry::stdout(TS, "after")]);
    }
    let grown = live() - before;
    assert!(grown < 1 << 20, "{grown} bytes still live after the 64 MB lines");
}

#[test]
fn a_line_just_under_the_cap_is_parsed() {
    let text = "z".repeat(MAX_LINE_BYTES - 100);
    let line = format!(r#"{{"type":"user","message":{{"role":"user","content":"{text}"}}}}"#);
    assert!(line.len() <= MAX_LINE_BYTES);
    let out = parse_line(&line, TS);
    ok(&out);
    assert!(matches!(&out[..], [Entry::User { text: t, .. }] if t.len() == text.len()), "{:?}", out.first().map(Entry::kind));
}

fn nested(depth: usize, open: &str, close: &str, inner: &str) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

#[test]
fn deep_nesting_is_stopped_by_the_recursion_limit() {
    // 100 000 levels: serde_json's limit (128) stops it; the line is shown as text.
    for line in [
        format!(r#"{{"type":"assistant","message":{{"content":{}}}}}"#, nested(100_000, "[", "]", "")),
        format!(r#"{{"a":{}}}"#, nested(100_000, r#"{"a":"#, "}", "1")),
        nested(100_000, "[", "]", ""),
        nested(100_000, "{", "}", ""),
    ] {
        let out = parse_line(&line, TS);
        ok(&out);
        assert!(!out.is_empty());
    }
}

/// Just inside the limit, through every runtime, on a thread with wasm's default 1 MB stack
/// (a debug build's frames are larger than the wasm build's; tests/js/hostile.test.mjs runs
/// the same shapes through the wasm itself).
#[test]
fn nesting_inside_the_limit_fits_a_1_mb_stack() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let deep_blocks = nested(120, r#"[{"type":"tool_result","content":"#, "}]", r#""x""#);
            let lines = [
                format!(r#"{{"type":"assistant","message":{{"content":{}}}}}"#, nested(124, "[", "]", r#""x""#)),
                format!(r#"{{"type":"user","message":{{"content":{deep_blocks}}}}}"#),
                format!(r#"{{"type":"tool_call","subtype":"started","call_id":"c","tool_call":{}}}"#, nested(120, r#"{"a":"#, "}", "1")),
                format!(r#"{{"type":"item.completed","item":{{"id":"i","type":"mcp_tool_call","result":{}}}}}"#, nested(120, r#"{"content":"#, "}", "[]")),
                format!(r#"{{"type":"message","role":"assistant","content":{}}}"#, nested(124, "[", "]", "1")),
                nested(120, "[", "]", r#"{"type":"x"}"#),
            ];
            for line in &lines {
                ok(&parse_line(line, TS));
                for f in [
                    Format::Claude, Format::Codex, Format::Gemini, Format::OpenCode, Format::Cursor, Format::Pi, Format::OpenClaw, Format::Amp,
                    Format::Acp, Format::Grok, Format::Kimi, Format::CursorCloud, Format::Hermes, Format::HermesGateway,
                    Format::Letta,
                    Format::Cline,
                    Format::OpenHands,
                ] {
                    ok(&parse_line_as(f, line, TS));
                    ok(&StdoutParser::with_format(f).parse_line(line, TS));
                }
            }
        })
        .unwrap()
        .join()
        .expect("a 1 MB stack is enough");
}

#[test]
fn odd_json_values_never_break() {
    let lines = [
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"\ud83d\ude00 ok"}]}}"#.to_owned(),
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"bad \x escape"}]}}"#.to_owned(),
        r#"{"type":"result","subtype":"success","result":"r","total_cost_usd":123456789012345678901234567890,"usage":{"input_tokens":1e308,"output_tokens":-1e308,"cache_read_input_tokens":1e-400}}"#.to_owned(),
        r#"{"type":"assistant","type":"user","message":{"content":"dup","content":"last"}}"#.to_owned(),
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"n","input":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}]}}"#.to_owned(),
        r#"{"__proto__":{"polluted":1},"type":"__proto__","constructor":"prototype"}"#.to_owned(),
        "a\u{0}b".to_owned(),
        "{\"type\":\"assistant\",\"message\":{\"content\":\"nul \\u0000 inside\"}}".to_owned(),
        "\u{feff}{\"type\":\"user\",\"message\":{\"content\":\"bom\"}}".to_owned(),
    ];
    for l in &lines {
        let out = parse_line(l, TS);
        ok(&out);
        assert!(!out.is_empty(), "{l}");
        ok(&StdoutParser::new().parse_line(l, TS));
    }
    // Numbers past f64 in the result entry come out finite.
    let out = parse_line(&lines[2], TS);
    let v: Value = serde_json::from_str(&agentlines::entries_to_json(&out)).unwrap();
    assert!(v.to_string().contains("\"kind\":\"result\""), "{v}");
    // Odd timestamps are carried through as given, never parsed into a panic.
    for ts in ["", "9999-99-99T99:99:99.999+99:99", "2026-01-01T00:00:00.000Z\u{0}", &"9".repeat(10_000)] {
        let mut p = StdoutParser::new();
        ok(&p.parse_line(r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"n","input":{}}]}}"#, ts));
        ok(&p.parse_line(r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]}}"#, ts));
    }
}

#[test]
fn a_million_tiny_lines_keep_the_parser_flat() {
    let n = 1_000_000;
    let text = "a\n".repeat(n);
    let mut p = StdoutParser::new();
    let out = p.parse_chunk(&text, TS);
    assert_eq!(out.len(), n);
    drop(out);
    let base = live();
    for i in 0..n / 4 {
        let l = if i % 2 == 0 { "x" } else { "\u{1b}[0m" };
        drop(p.parse_line(l, TS));
    }
    let grown = live() - base;
    assert!(grown < 64 << 10, "parser grew by {grown} bytes over {} lines", n / 4);
}

/// Feeds `count` lines made by `make(i)` through one stateful parser and returns how many
/// bytes the parser's state grew between line `count / 2` and the end (by then every cap is
/// reached and the maps have their steady capacity).
fn growth(count: usize, format: Option<Format>, make: impl Fn(usize) -> String) -> isize {
    let mut p = format.map(StdoutParser::with_format).unwrap_or_default();
    let mut mark = 0;
    for i in 0..count {
        if i == count / 2 {
            mark = live();
        }
        drop(p.parse_line(&make(i), TS));
    }
    live() - mark
}

#[test]
fn unmatched_tool_calls_are_bounded() {
    let n = lines_scale();
    let claude = |i: usize| {
        json!({"type":"assistant","message":{"id":format!("msg_{i}"),"role":"assistant","content":[
            {"type":"tool_use","id":format!("toolu_{i}"),"name":"Bash","input":{"command":"ls"}}]}})
        .to_string()
    };
    let g = growth(n, None, claude);
    assert!(g < 64 << 10, "claude tool calls: state grew {g} bytes after {n} lines");
    let codex = |i: usize| {
        json!({"type":"item.started","item":{"id":format!("item_{i}"),"type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}}).to_string()
    };
    let g = growth(n, None, codex);
    assert!(g < 64 << 10, "codex commands: state grew {g} bytes after {n} lines");

    // Eviction: the oldest call is forgotten past the cap, the newest is still paired.
    let mut p = StdoutParser::new();
    for i in 0..MAX_PENDING_CALLS + 10 {
        p.parse_line(&claude(i), "2026-01-01T00:00:00.000Z");
    }
    let result = |i: usize| {
        json!({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":format!("toolu_{i}"),"content":"done"}]}}).to_string()
    };
    let name_of = |out: Vec<Entry>| {
        out.into_iter().find_map(|e| match e {
            Entry::ToolResult { tool_name, .. } => Some(tool_name),
            _ => None,
        })
    };
    assert_eq!(name_of(p.parse_line(&result(0), "2026-01-01T00:00:01.000Z")), Some(None), "call 0 was evicted");
    assert_eq!(
        name_of(p.parse_line(&result(MAX_PENDING_CALLS + 9), "2026-01-01T00:00:01.000Z")),
        Some(Some("Bash".to_owned()))
    );
}

#[test]
fn partial_message_buffers_are_bounded() {
    let n = lines_scale();
    // Claude partial messages: a new message id every 2 lines, never stopped.
    let claude = |i: usize| {
        if i % 2 == 0 {
            json!({"type":"stream_event","event":{"type":"message_start","message":{"id":format!("msg_{i}"),"role":"assistant","content":[]}}}).to_string()
        } else {
            json!({"type":"stream_event","event":{"type":"content_block_delta","index":i % 100,"delta":{"type":"text_delta","text":"chunk of text "}}}).to_string()
        }
    };
    let g = growth(n, Some(Format::Claude), claude);
    assert!(g < 64 << 10, "claude stream events: state grew {g} bytes after {n} lines");
    // OpenClaw: a new run every line, cumulative deltas never finalised.
    let openclaw = |i: usize| {
        json!({"type":"event","event":"chat","payload":{"runId":format!("run-{i}"),"sessionKey":"s","seq":i,"state":"delta",
            "message":{"role":"assistant","content":[{"type":"text","text":"partial reply text"}]}}}).to_string()
    };
    let g = growth(n, Some(Format::OpenClaw), openclaw);
    assert!(g < 64 << 10, "openclaw chat deltas: state grew {g} bytes after {n} lines");
    // pi: text deltas into one message that never ends (capped at 1 MiB per message).
    let pi = |i: usize| {
        json!({"type":"message_update","message":{"role":"assistant","content":[]},
            "assistantMessageEvent":{"type":"text_delta","contentIndex":i % 80,"delta":"0123456789abcdef"}}).to_string()
    };
    let g = growth(n, Some(Format::Pi), pi);
    assert!(g < 4 << 20, "pi deltas: state grew {g} bytes after {n} lines");
}

/// KI-1 (fixed, docs/robustness.md): JSON behind a control character, an escape sequence
/// or a carriage-return overwrite is read as the JSON a terminal shows (src/parser.rs
/// `read_object` retries on `formats::plain::clean(line)`).
#[test]
fn ki1_json_behind_control_characters_is_read_as_json() {
    for line in [
        "\u{0}{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}",
        "\u{1b}[0m{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}",
        "progress 10%\r{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}",
        "{\"type\":\u{0}\"user\",\"message\":{\"content\":\"hi\u{7}\"}}",
        "\u{9b}0m{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}",
    ] {
        let out = parse_line(line, TS);
        assert!(matches!(&out[..], [Entry::User { .. }]), "{line:?} -> {out:?}");
    }
}

/// KI-2 (fixed, docs/robustness.md): lines that JavaScript's JSON.parse accepts but
/// serde_json refuses: a lone surrogate escape (Node's JSON.stringify writes one when a
/// string was cut inside a surrogate pair) and numbers past f64 (`1e400`) are read as JSON
/// (`formats::common::parse_object` rewrites them once after a failed parse).
#[test]
fn ki2_json_that_javascript_accepts_is_read_as_json() {
    for line in [
        r#"{"type":"user","message":{"content":"cut \ud83d"}}"#,
        r#"{"type":"user","message":{"content":"lone \udc00 low"}}"#,
        r#"{"type":"user","message":{"content":"big"},"n":1e400}"#,
    ] {
        let out = parse_line(line, TS);
        assert!(matches!(&out[..], [Entry::User { .. }]), "{line} -> {out:?}");
    }
}

/// Known issue KI-3 (docs/robustness.md): a Codex rollout `response_item` message whose
/// `content` is a string (the Responses API allows it) shows nothing.
#[test]
fn ki3_codex_message_with_string_content_is_shown() {
    let line = r#"{"timestamp":"2025-09-25T01:35:55.824Z","type":"response_item","payload":{"type":"message","role":"user","content":"hello"}}"#;
    let out = parse_line(line, TS);
    assert!(!out.is_empty() && !is_blank(line));
}


/// Known issue KI-4 (docs/robustness.md): a Cursor assistant line whose `message` is a
/// string shows nothing (the module reads `message.content` only).
#[test]
fn ki4_cursor_assistant_with_string_message_is_shown() {
    let line = r#"{"type":"assistant","message":"API key invalid or expired","session_id":"s","model_call_id":"m","timestamp_ms":1770823845357}"#;
    assert!(!parse_line(line, TS).is_empty());
}

// Output amplification: what one line may produce is bounded relative to its size
// (`formats::common::budget`), and past the bound one notice says what was left out.

use agentlines::formats::common::budget::{limits, MIN_ENTRIES, MIN_OUTPUT_BYTES};
use agentlines::parser::parse_log_with;

/// Bytes of entries as JSON without their `ts` (what the budget measures), by serde_json.
fn out_bytes(out: &[Entry]) -> usize {
    out.iter()
        .map(|e| serde_json::to_string(e).unwrap().len() - serde_json::to_string(e.ts()).unwrap().len() - 6)
        .sum()
}

const CUT: &str = "output of this line cut at ";

/// `(what, line, notice that must be there)`: one-line shapes that used to give far more
/// output than input (measured in docs/robustness.md).
fn amplifiers() -> Vec<(&'static str, String, &'static str)> {
    let empties = |n: usize| vec!["{}"; n].join(",");
    let images = vec![r#"{"type":"image"}"#; 100_000].join(",");
    let few = vec![r#"{"type":"text","text":"hi"}"#; 2000].join(",");
    let fences = "```error\nx\n```\n".repeat(200_000);
    vec![
        ("array of 300k empty objects", format!("[{}]", empties(300_000)), CUT),
        ("claude message with 100k image blocks", format!(r#"{{"type":"assistant","message":{{"content":[{images}]}}}}"#), CUT),
        (
            "2000 blocks under a 64 KB parent_tool_use_id",
            format!(r#"{{"type":"assistant","parent_tool_use_id":"{}","message":{{"content":[{few}]}}}}"#, "p".repeat(64 << 10)),
            CUT,
        ),
        (
            "codex file_change with 100k empty changes",
            format!(r#"{{"type":"item.completed","item":{{"id":"i","type":"file_change","status":"completed","changes":[{}]}}}}"#, empties(100_000)),
            "more changes not listed",
        ),
        (
            "assistant text with 200k error fences",
            json!({"type":"assistant","message":{"content":[{"type":"text","text":fences}]}}).to_string(),
            "more turn-signal blocks in this message not listed",
        ),
    ]
}

fn check_bounded(what: &str, line: &str, out: &[Entry], notice: &str) {
    ok(out);
    if let Err(e) = check_amplification(line, out) {
        panic!("{what}: {e}");
    }
    let said = out.iter().any(|e| matches!(e, Entry::System { text, .. } | Entry::Diff { text, .. } if text.contains(notice)))
        || out.iter().any(|e| matches!(e, Entry::ToolResult { content, .. } if content.contains(notice)));
    assert!(said, "{what}: no notice {notice:?}");
}

#[test]
fn one_line_cannot_flood_the_output() {
    for (what, line, notice) in amplifiers() {
        check_bounded(what, &line, &parse_line(&line, TS), notice);
        check_bounded(what, &line, &StdoutParser::new().parse_line(&line, TS), notice);
        check_bounded(what, &line, &parse_log_with(&line, |_| TS.to_owned(), true), notice);
        // The next line has its own budget.
        let mut p = StdoutParser::new();
        p.parse_line(&line, TS);
        assert_eq!(p.parse_line("after", TS), vec![Entry::stdout(TS, "after")], "{what}");
    }
    // The cut notice counts what was left out: 300k empty objects, 28 125 kept.
    let line = format!("[{}]", vec!["{}"; 300_000].join(","));
    let out = parse_line(&line, TS);
    let Some(Entry::System { text, .. }) = out.last() else { panic!("no notice") };
    assert!(text.contains(&format!("{} more entries", 300_000 - (out.len() - 1))), "{text}");
}

#[test]
fn amplification_time_is_linear() {
    let time = |n: usize| {
        let line = format!("[{}]", vec!["{}"; n].join(","));
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                drop(parse_line(&line, TS));
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let (small, big) = (time(100_000), time(800_000));
    // 8x the input: at most ~8x the time (16x allowed for a busy machine), never quadratic.
    assert!(big < small * 16 + std::time::Duration::from_millis(50), "{small:?} -> {big:?}");
}

#[test]
fn a_bom_before_a_line_is_dropped() {
    let user = "\u{feff}{\"type\":\"user\",\"message\":{\"content\":\"bom\"}}";
    for out in [parse_line(user, TS), StdoutParser::new().parse_line(user, TS), StdoutParser::new().parse_chunk(&format!("{user}\n"), TS)] {
        assert!(matches!(&out[..], [Entry::User { text, .. }] if text == "bom"), "{out:?}");
    }
    assert_eq!(parse_line("\u{feff}hello", TS), vec![Entry::stdout(TS, "hello")]);
    assert!(parse_line("\u{feff}", TS).is_empty());
}

/// Every fixture (and with `AGENTLINES_CORPUS=<dir>` every `.jsonl`/`.ndjson` file there) line
/// by line, stateless and through one stateful parser per file: no line comes near the budget
/// (half of it at most), so the caps never cut real output.
#[test]
fn real_output_stays_far_inside_the_budget() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                files(&p, out);
            } else if [".jsonl", ".ndjson", ".txt", ".log"].iter().any(|x| name.ends_with(x)) && !name.contains(".expected.") {
                out.push(p);
            }
        }
    }
    let mut all = Vec::new();
    files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut all);
    if let Some(dir) = std::env::var_os("AGENTLINES_CORPUS") {
        files(std::path::Path::new(&dir), &mut all);
    }
    let (mut lines, mut most_entries, mut most_bytes, mut worst_ratio) = (0, 0, 0, 0.0f64);
    for f in &all {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let mut p = StdoutParser::new();
        for line in text.split('\n') {
            for out in [parse_line(line, TS), p.parse_line(line, TS)] {
                let (max_entries, max_bytes) = limits(line.len());
                let bytes = out_bytes(&out);
                let cut = out.iter().any(|e| matches!(e, Entry::System { text, .. } if text.starts_with(CUT) || text.contains("more turn-signal blocks in this message")));
                assert!(!cut, "{}: a real line was cut: {}", f.display(), &line[..line.len().min(200)]);
                assert!(out.len() * 2 <= max_entries && bytes * 2 <= max_bytes, "{}: {} entries, {bytes} bytes from {} bytes", f.display(), out.len(), line.len());
                most_entries = most_entries.max(out.len());
                most_bytes = most_bytes.max(bytes);
                if line.len() >= 512 {
                    worst_ratio = worst_ratio.max(bytes as f64 / line.len() as f64);
                }
            }
            lines += 1;
        }
    }
    assert!(lines > 1000, "fixtures not found");
    println!(
        "{} files, {lines} lines: at most {most_entries} entries (limit >= {MIN_ENTRIES}), {most_bytes} bytes (limit >= {MIN_OUTPUT_BYTES}) per line, output/input <= {worst_ratio:.2} for lines >= 512 B",
        all.len()
    );
}

/// Pending tool calls are bounded by bytes as well as by count: calls with
/// 256 KB ids and names used to be kept 4096 deep (1 200 of them pinned 905 MB of wasm memory).
#[test]
fn pending_calls_are_bounded_by_bytes() {
    use agentlines::formats::common::MAX_SEEN_BYTES;
    let big = "i".repeat(256 << 10);
    let call = |i: usize| {
        json!({"type":"assistant","message":{"id":format!("m{i}"),"role":"assistant","content":[
            {"type":"tool_use","id":format!("{i}{big}"),"name":format!("{i}{big}"),"input":{}}]}})
        .to_string()
    };
    let before = live();
    let mut p = StdoutParser::new();
    for i in 0..48 {
        drop(p.parse_line(&call(i), TS));
    }
    let held = live() - before;
    // The cap plus the newest call (kept whatever its size) and the maps' slack.
    assert!(held < (MAX_SEEN_BYTES + (4 << 20)) as isize, "48 calls with 256 KB ids hold {held} bytes");
    // The newest calls are still paired, the oldest were forgotten.
    let result = |i: usize| {
        json!({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":format!("{i}{big}"),"content":"done"}]}}).to_string()
    };
    let name_of = |out: Vec<Entry>| {
        out.into_iter().find_map(|e| match e {
            Entry::ToolResult { tool_name, .. } => Some(tool_name.is_some()),
            _ => None,
        })
    };
    assert_eq!(name_of(p.parse_line(&result(47), TS)), Some(true));
    assert_eq!(name_of(p.parse_line(&result(0), TS)), Some(false));
    drop(p);
}

/// Arguments of the name-based API: a lone surrogate (which
/// `JSON.stringify` writes as `\ud83d`) is read as U+FFFD instead of refusing the call;
/// arguments nested past the JSON reader's limit give a clear error, never a crash.
#[test]
fn api_arguments_with_lone_surrogates_and_deep_nesting() {
    use agentlines::api::{call, MAX_ARG_DEPTH};
    let answer = |name: &str, args: &str| -> Value { serde_json::from_str(&call(name, args)).expect("answer is JSON") };
    assert_eq!(answer("stripUiMetadata", r#"["cut \ud83d"]"#), json!({"ok": "cut \u{fffd}"}));
    assert_eq!(answer("stripUiMetadata", r#"["low \udc00 and pair \ud83d\ude00"]"#), json!({"ok": "low \u{fffd} and pair \u{1f600}"}));
    let a = answer("parseAwaitGate", r#"["```await-gate\n{\"title\":\"t\ud800\",\"options\":[]}\n```"]"#);
    assert!(a.get("ok").is_some(), "{a}");
    let read = answer("claudeCode_read", r#"[{"text":"{\"type\":\"user\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi \ud83d\"}}"}]"#);
    assert!(read.get("ok").is_some(), "{read}");
    // `depth` levels in all, the arguments array included: a message whose text is "x",
    // carrying a deep array.
    let deep = |depth: usize| {
        let inner = depth - 2;
        format!(r#"[{{"text":"x","d":{}{}}}]"#, "[".repeat(inner), "]".repeat(inner))
    };
    // 200 levels (what the JavaScript libraries take) and the limit itself are read.
    for depth in [200, MAX_ARG_DEPTH] {
        assert_eq!(answer("extractText", &deep(depth)), json!({"ok": "x"}), "{depth} levels");
        for name in ["stripUiMetadata", "parseMessage", "claudeCode_read"] {
            let a = answer(name, &deep(depth));
            assert!(!a["throws"].as_str().unwrap_or("").contains("nested deeper"), "{name} at {depth}: {a}");
        }
    }
    for depth in [MAX_ARG_DEPTH + 1, 100_000] {
        for name in ["extractText", "stripUiMetadata", "parseMessage", "claudeCode_read"] {
            let a = answer(name, &deep(depth));
            let msg = a["throws"].as_str().unwrap_or_else(|| panic!("{name}: {a}"));
            assert!(msg.contains("nested deeper than 512 levels"), "{name}: {msg}");
        }
    }
}

/// Claude partial messages with huge ids: the stream state keeps at most
/// `MAX_SEEN_BYTES` of message and parent ids (besides its 32-message cap).
#[test]
fn streamed_message_ids_are_bounded_by_bytes() {
    use agentlines::formats::common::MAX_SEEN_BYTES;
    let big = "m".repeat(1 << 20);
    let before = live();
    let mut p = StdoutParser::with_format(Format::Claude);
    for i in 0..24 {
        let start = json!({"type":"stream_event","parent_tool_use_id":format!("{i}{big}"),"event":{"type":"message_start","message":{"id":format!("{i}{big}"),"content":[]}}});
        drop(p.parse_line(&start.to_string(), TS));
    }
    let held = live() - before;
    assert!(held < (MAX_SEEN_BYTES + (4 << 20)) as isize, "24 messages with 1 MB ids hold {held} bytes");
    drop(p);
}

/// Claw Code's run object pairs each call with its result: with results in another order
/// than their calls (a hostile line), the pairing stays linear (each call looks a bounded
/// way ahead), and every result is shown once. 8x the calls: at most ~16x the time.
#[test]
fn claw_pairing_time_is_linear() {
    let line = |n: usize| {
        let uses: Vec<String> = (0..n).map(|i| format!(r#"{{"id":"u{i}","input":"{{}}","name":"bash"}}"#)).collect();
        // Results in reverse order: no call finds its own within its look-ahead.
        let results: Vec<String> = (0..n).rev().map(|i| format!(r#"{{"is_error":false,"output":"","tool_name":"bash","tool_use_id":"u{i}"}}"#)).collect();
        format!(
            r#"{{"auto_compaction":null,"estimated_cost":"$0.0000","iterations":1,"message":"","model":"m","prompt_cache_events":[],"tool_results":[{}],"tool_uses":[{}],"usage":{{"input_tokens":1,"output_tokens":1}}}}"#,
            results.join(","),
            uses.join(",")
        )
    };
    let time = |n: usize| {
        let l = line(n);
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                let out = parse_line(&l, TS);
                let results = out.iter().filter(|e| matches!(e, Entry::ToolResult { .. })).count();
                assert!(results <= n, "a result shown twice");
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let (small, big) = (time(2_000), time(16_000));
    assert!(big < small * 16 + std::time::Duration::from_millis(50), "{small:?} -> {big:?}");
    // Every result shown once when the budget allows it.
    let out = parse_line(&line(300), TS);
    assert_eq!(out.iter().filter(|e| matches!(e, Entry::ToolResult { .. })).count(), 300);
}

/// Bytes of a runtime's run streamed with new ids round after round through one parser by
/// `every_runtime_keeps_its_state_bounded_over_streamed_pieces` (`STREAM_BYTES`; `make
/// test-streamed` runs 1 GiB per runtime).
fn stream_bytes() -> usize {
    std::env::var("STREAM_BYTES").ok().and_then(|s| s.parse().ok()).unwrap_or(64 << 20)
}

/// The keys whose values say what a line (or a part of it) is.
const SHAPE_KEYS: [&str; 9] = ["type", "kind", "method", "event", "sessionUpdate", "role", "subtype", "status", "state"];

/// A line's shape: the values of the keys that name what a line (or a part of it) is.
fn shape(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                match v {
                    Value::String(s) if SHAPE_KEYS.contains(&k.as_str()) => {
                        out.push_str(s);
                        out.push(',');
                    }
                    _ => shape(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().take(3).for_each(|v| shape(v, out)),
        _ => {}
    }
}

/// The line with every id (a key ending in `id`/`Id`/`ID`) made new for `round`.
fn fresh_ids(v: &mut Value, round: usize) {
    match v {
        Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                match v {
                    Value::String(s) if k.to_ascii_lowercase().ends_with("id") => s.push_str(&format!("~{round}")),
                    _ => fresh_ids(v, round),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|v| fresh_ids(v, round)),
        _ => {}
    }
}

/// The line with every string value (but those naming what the line is) repeated to at
/// least 1 KiB, so a few thousand pieces carry megabytes of streamed text whichever field
/// a runtime streams it in.
fn inflated(v: &Value) -> Option<String> {
    fn grow(v: &mut Value, grown: &mut bool) {
        match v {
            Value::String(s) if !s.is_empty() => {
                *s = s.repeat(1024 / s.len() + 1);
                *grown = true;
            }
            Value::Object(m) => {
                for (k, v) in m.iter_mut() {
                    if !SHAPE_KEYS.contains(&k.as_str()) {
                        grow(v, grown);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|v| grow(v, grown)),
            _ => {}
        }
    }
    let mut v = v.clone();
    let mut grown = false;
    grow(&mut v, &mut grown);
    grown.then(|| v.to_string())
}

/// Every runtime's own fixture lines streamed without end through one parser: each shape
/// of line repeated (a message's deltas that never end, a call whose output never stops,
/// as written and with its longest text inflated), then the whole run again and again with
/// new ids each round (calls, messages and runs that never close). The parser's state
/// must stop growing: each piece's stream stops raising it before `PIECE_MAX`, after every
/// phase it holds at most `CEILING`, and over the last half
/// of the fresh-id rounds it grows by less than `SETTLED`. docs/robustness.md,
/// "Limits", lists each runtime's caps.
#[test]
#[cfg_attr(debug_assertions, ignore = "gigabytes of lines: run optimised (`make test-native` runs it with --profile ext)")]
fn every_runtime_keeps_its_state_bounded_over_streamed_pieces() {
    // The largest documented state is OpenClaw's 32 runs × 1 MiB of reply text, then
    // the 4 MiB id maps (a few per parser).
    const CEILING: isize = 64 << 20;
    const SETTLED: isize = 4 << 20;
    // The most one piece is fed: its state must have stopped growing well before.
    const PIECE_MAX: usize = 192 << 20;
    let budget = stream_bytes();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut report = Vec::new();
    // `STREAM_FORMATS=kiro,pi` streams those runtimes only.
    let only = std::env::var("STREAM_FORMATS").unwrap_or_default();
    for format in Format::JSON.iter().chain(Format::TEXT.iter()).copied() {
        if !only.is_empty() && !only.split(',').any(|n| n == format.name()) {
            continue;
        }
        let dir = root.join(format.name());
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                !n.ends_with(".expected.jsonl") && !n.ends_with(".md")
            })
            .collect();
        files.sort();
        let lines: Vec<String> = files
            .iter()
            .flat_map(|p| std::fs::read_to_string(p).unwrap().lines().map(str::to_owned).collect::<Vec<_>>())
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert!(!lines.is_empty(), "{}: no fixture lines", format.name());
        let json: Vec<Option<Value>> = lines.iter().map(|l| serde_json::from_str(l).ok()).collect();

        // The pieces: one line of each shape, as written and inflated.
        let mut seen = std::collections::HashSet::new();
        let mut pieces = Vec::new();
        for (line, v) in lines.iter().zip(&json) {
            let key = match v {
                // Its top-level keys (a Cursor chunk differs from its complete message
                // only by one) and the values naming what it is.
                Some(v) => {
                    let mut s = String::new();
                    if let Value::Object(m) = v {
                        m.keys().for_each(|k| s.push_str(k));
                    }
                    shape(v, &mut s);
                    s
                }
                // A text line's shape: its words as `a`, its spacing collapsed, its
                // first 24 characters.
                None => {
                    let mut s = String::new();
                    for c in line.trim().chars() {
                        let c = if c.is_alphanumeric() { 'a' } else if c.is_whitespace() { ' ' } else { c };
                        if !s.ends_with(c) || !(c == 'a' || c == ' ') {
                            s.push(c);
                        }
                    }
                    s.chars().take(24).collect()
                }
            };
            if seen.insert(key) {
                pieces.push(line.clone());
                pieces.extend(v.as_ref().and_then(inflated));
            }
        }
        let base = live();
        let mut p = StdoutParser::with_format(format);
        let mut peak = 0;
        // Each piece is fed until the state has not grown over the last two thirds of what
        // was fed (at least 1 MiB): a capped buffer or map fills and stays, an uncapped
        // one rises again by the time what was fed doubles (a buffer's capacity doubles
        // too), so it is still rising at `PIECE_MAX` and fails.
        let started = std::time::Instant::now();
        for piece in &pieces {
            let (mut fed, mut high, mut rose_at) = (0, live(), 0);
            while fed < (3 * rose_at).max(1 << 20) {
                drop(p.parse_line(piece, TS));
                fed += piece.len() + 1;
                if live() > high {
                    (high, rose_at) = (live(), fed);
                }
                assert!(
                    fed < PIECE_MAX,
                    "{}: state still growing after {fed} bytes of {:.200} (held {} bytes)",
                    format.name(),
                    piece,
                    live() - base
                );
            }
            let held = live() - base;
            peak = peak.max(held);
            assert!(held < CEILING, "{}: {held} bytes held after streaming {fed} bytes of {:.200}", format.name(), piece);
        }
        // Fresh ids, round after round.
        let (mut fed, mut round, mut mark, mut marked) = (0, 0, 0, false);
        while fed < budget {
            for (line, v) in lines.iter().zip(&json) {
                let line = match v {
                    Some(v) => {
                        let mut v = v.clone();
                        fresh_ids(&mut v, round);
                        v.to_string()
                    }
                    None => line.clone(),
                };
                drop(p.parse_line(&line, TS));
                fed += line.len() + 1;
            }
            round += 1;
            let held = live() - base;
            peak = peak.max(held);
            assert!(held < CEILING, "{}: {held} bytes held after {round} rounds with new ids", format.name());
            if !marked && fed >= budget / 2 {
                (mark, marked) = (held, true);
            }
        }
        let end = live() - base;
        assert!(
            end - mark < SETTLED,
            "{}: state grew {} bytes over the last {} rounds with new ids ({mark} -> {end})",
            format.name(),
            end - mark,
            round / 2
        );
        drop(p);
        report.push(format!(
            "{} {} pieces, {round} rounds, peak {} KiB, end {} KiB, {:.1} s",
            format.name(),
            pieces.len(),
            peak >> 10,
            end >> 10,
            started.elapsed().as_secs_f64()
        ));
    }
    eprintln!("{}", report.join("\n"));
}

/// OpenHands' pretty-printed events are held line by line until their braces close: each
/// line is scanned once (the whole held text used to be scanned again on every line, so a
/// 16 MiB event of short lines took minutes). 8x the lines: at most ~16x the time.
#[test]
fn openhands_held_events_are_read_in_linear_time() {
    use agentlines::formats::openhands::MARKER;
    let time = |n: usize| {
        (0..3)
            .map(|_| {
                let mut p = StdoutParser::with_format(Format::OpenHands);
                let t = std::time::Instant::now();
                drop(p.parse_line(MARKER, TS));
                drop(p.parse_line("{", TS));
                for _ in 0..n {
                    drop(p.parse_line("  \"k\": [1, {\"a\": \"}\"}],", TS));
                }
                let out = p.parse_line("}", TS);
                assert!(!out.is_empty());
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let (small, big) = (time(5_000), time(40_000));
    assert!(big < small * 16 + std::time::Duration::from_millis(50), "{small:?} -> {big:?}");
}
