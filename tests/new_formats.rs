//! The "done when" checks for the formats read from the wider adapter ecosystem, on their
//! fixtures: each line is read by its runtime (the stream locks onto it), neither path shows
//! a generic `event: …` notice or raw JSON, every tool call with an id gets its result under
//! the same id, and the run's totals arrive in a `result`.

use agentlines::{parse_line, Entry, Format, StdoutParser};
use std::fs;
use std::path::Path;

struct Case {
    file: &'static str,
    format: Format,
    /// Whether the fixture holds a run's end (a `result` entry is then required).
    has_result: bool,
    /// Whether every line, read on its own, gives entries of this runtime (false where a
    /// record spans several lines and only the stateful parser can join them).
    stateless_lines: bool,
    /// Whether the fixture opens a run (an `init` entry is then required on both paths).
    init: bool,
}

const CASES: &[Case] = &[
    Case { file: "kiro/derived-ansi-run.txt", format: Format::Kiro, has_result: true, stateless_lines: true, init: false },
    Case { file: "kiro/derived-plain-run.txt", format: Format::Kiro, has_result: true, stateless_lines: true, init: false },
    Case { file: "goose/derived-stream-json.jsonl", format: Format::Goose, has_result: true, stateless_lines: true, init: false },
    Case { file: "goose/derived-error-run.jsonl", format: Format::Goose, has_result: true, stateless_lines: true, init: false },
    Case { file: "droid/vibekanban-hello-world.jsonl", format: Format::Droid, has_result: false, stateless_lines: true, init: true },
    Case { file: "droid/vibekanban-glob.jsonl", format: Format::Droid, has_result: false, stateless_lines: true, init: true },
    Case { file: "droid/vibekanban-insufficient-perms.jsonl", format: Format::Droid, has_result: false, stateless_lines: true, init: true },
    Case { file: "droid/vibekanban-edits-and-execution.jsonl", format: Format::Droid, has_result: false, stateless_lines: true, init: true },
    Case { file: "droid/vibekanban-rc-claude.jsonl", format: Format::Droid, has_result: false, stateless_lines: true, init: true },
    Case { file: "droid/derived-completion.jsonl", format: Format::Droid, has_result: true, stateless_lines: true, init: true },
    Case { file: "amplifier/derived-bridge-run.jsonl", format: Format::Amplifier, has_result: true, stateless_lines: true, init: true },
    Case { file: "amplifier/derived-bridge-timeout.jsonl", format: Format::Amplifier, has_result: true, stateless_lines: true, init: true },
    Case { file: "amplifier/doc-protocol-examples.jsonl", format: Format::Amplifier, has_result: true, stateless_lines: true, init: true },
    Case { file: "claw/derived-run.jsonl", format: Format::Claw, has_result: true, stateless_lines: true, init: true },
    Case { file: "claw/derived-compact-and-error.jsonl", format: Format::Claw, has_result: true, stateless_lines: true, init: false },
    Case { file: "copilot/agentshore-copilot_json_1_0_94.jsonl", format: Format::Copilot, has_result: true, stateless_lines: true, init: false },
    Case { file: "copilot/agentshore-copilot_json_tool_denied_1_0_94.jsonl", format: Format::Copilot, has_result: true, stateless_lines: true, init: false },
    Case { file: "copilot/derived-sdk-events.jsonl", format: Format::Copilot, has_result: true, stateless_lines: true, init: false },
    Case { file: "pi/omp-pierrickgt-01-plain-answer.jsonl", format: Format::Pi, has_result: true, stateless_lines: true, init: true },
    Case { file: "pi/omp-derived-session-events.jsonl", format: Format::Pi, has_result: false, stateless_lines: true, init: true },
    Case { file: "opencode/kilo-derived-run.jsonl", format: Format::OpenCode, has_result: true, stateless_lines: true, init: false },
    Case { file: "letta/derived-stream-json.jsonl", format: Format::Letta, has_result: true, stateless_lines: true, init: true },
    Case { file: "letta/derived-partial-messages.jsonl", format: Format::Letta, has_result: true, stateless_lines: true, init: true },
    Case { file: "cline/derived-json-run.jsonl", format: Format::Cline, has_result: true, stateless_lines: true, init: true },
    Case { file: "cline/derived-failed-run.jsonl", format: Format::Cline, has_result: false, stateless_lines: true, init: true },
    Case { file: "acp/grok-derived-stored-history.jsonl", format: Format::Acp, has_result: true, stateless_lines: true, init: false },
    Case { file: "acp/bridge-unwrapped-updates.jsonl", format: Format::Acp, has_result: false, stateless_lines: true, init: false },
    Case { file: "openhands/derived-headless-json.log", format: Format::OpenHands, has_result: true, stateless_lines: false, init: false },
    Case { file: "openhands/derived-sdk-events-compact.jsonl", format: Format::OpenHands, has_result: true, stateless_lines: true, init: false },
    Case { file: "openhands/doc-json-output.jsonl", format: Format::OpenHands, has_result: false, stateless_lines: true, init: false },
    Case { file: "claude/doc-qwen-session-start.jsonl", format: Format::Claude, has_result: true, stateless_lines: true, init: true },
    Case { file: "agy/untether-tools_denied.jsonl", format: Format::Agy, has_result: true, stateless_lines: true, init: true },
    Case { file: "agy/untether-subagent.jsonl", format: Format::Agy, has_result: true, stateless_lines: true, init: true },
    Case { file: "agy/untether-invalid_model.jsonl", format: Format::Agy, has_result: true, stateless_lines: true, init: false },
];

fn lines(text: &str) -> Vec<&str> {
    let mut l: Vec<&str> = text.split('\n').collect();
    if l.last() == Some(&"") {
        l.pop();
    }
    l
}

fn generic(e: &Entry) -> Option<&str> {
    match e {
        Entry::System { text, .. } if text.starts_with("event: ") || text.contains(" event: ") => Some(text),
        Entry::Stdout { text, .. } if text.trim_start().starts_with('{') && serde_json::from_str::<serde_json::Value>(text.trim()).is_ok() => Some(text),
        _ => None,
    }
}

fn check_pairs(file: &str, what: &str, entries: &[Entry]) {
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for e in entries {
        match e {
            Entry::ToolCall { tool_use_id: Some(id), .. } => calls.push(id.clone()),
            Entry::ToolCall { name, tool_use_id: None, .. } => panic!("{file} ({what}): tool call {name} without an id"),
            Entry::ToolResult { tool_use_id, .. } => results.push(tool_use_id.clone()),
            _ => {}
        }
    }
    for id in &calls {
        assert!(results.contains(id), "{file} ({what}): call {id} has no result");
    }
    for id in &results {
        assert!(calls.contains(id), "{file} ({what}): result {id} has no call");
    }
}

#[test]
fn new_format_fixtures_are_read_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for case in CASES {
        let text = fs::read_to_string(root.join(case.file)).unwrap();
        let mut parser = StdoutParser::new();
        let (mut stateful, mut stateless) = (Vec::new(), Vec::new());
        for (i, line) in lines(&text).iter().enumerate() {
            let ts = format!("2026-01-01T00:00:{:02}.000Z", i % 60);
            let a = parser.parse_line(line, &ts);
            let b = parse_line(line, &ts);
            for e in a.iter().chain(if case.stateless_lines { b.iter() } else { [].iter() }) {
                assert!(generic(e).is_none(), "{} line {}: generic or raw entry {e:?}", case.file, i + 1);
            }
            stateful.extend(a);
            stateless.extend(b);
        }
        stateful.extend(parser.flush("2026-01-01T01:00:00.000Z"));
        assert_eq!(parser.format(), Some(case.format), "{}: detected runtime", case.file);
        check_pairs(case.file, "stateful", &stateful);
        if case.stateless_lines {
            check_pairs(case.file, "stateless", &stateless);
        }
        if case.init {
            for (what, entries) in [("stateful", &stateful), ("stateless", &stateless)] {
                assert!(entries.iter().any(|e| matches!(e, Entry::Init { .. })), "{} ({what}): no init", case.file);
            }
        }
        if case.has_result {
            assert!(stateful.iter().any(|e| matches!(e, Entry::Result { .. })), "{}: no result", case.file);
            // A run that ended well with an answer shows it; a failed one shows its failure as
            // an error. (A real run may end well with an empty answer: agy's tools_denied.)
            let ok = stateful.iter().any(|e| matches!(e, Entry::Result { is_error: false, .. }));
            let said = stateful.iter().any(|e| matches!(e, Entry::Result { text, .. } if !text.is_empty()));
            if ok && !said {
                // Nothing to require: the run's own answer is empty (or not in the result).
            } else if ok {
                assert!(stateful.iter().any(|e| matches!(e, Entry::Assistant { .. })), "{}: no answer", case.file);
            } else {
                assert!(
                    stateful.iter().any(|e| matches!(e, Entry::Stderr { .. } | Entry::ToolResult { is_error: true, .. } | Entry::Result { is_error: true, .. })),
                    "{}: a failed run shows no error",
                    case.file
                );
            }
        }
    }
}

/// The names adapters and users know these CLIs by select the runtime that reads them.
#[test]
fn cli_and_adapter_names_select_their_reader() {
    for (name, f) in [
        ("letta", Format::Letta),
        ("letta_local", Format::Letta),
        ("cline", Format::Cline),
        ("cline_local", Format::Cline),
        ("openhands", Format::OpenHands),
        ("openhands_local", Format::OpenHands),
        ("omp", Format::Pi),
        ("oh-my-pi", Format::Pi),
        ("kilo", Format::OpenCode),
        ("kilocode", Format::OpenCode),
        ("qwen", Format::Claude),
        ("kiro", Format::Kiro),
        ("kiro-cli", Format::Kiro),
        ("amplifier_local", Format::Amplifier),
        ("claw_local", Format::Claw),
        ("claw-code", Format::Claw),
    ] {
        assert_eq!(Format::from_name(name), Some(f), "{name}");
    }
}

/// Kiro's text, read by a stateful parser: the answer's lines joined with its paragraph
/// breaks, a tool's output in its result (an error line makes it failed), the write's diff,
/// the completion time, and a failed command's error text as stderr.
#[test]
fn kiro_text_becomes_answers_tools_and_diffs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kiro");
    let read = |name: &str| {
        let text = fs::read_to_string(root.join(name)).unwrap();
        let mut p = StdoutParser::new();
        let mut out = Vec::new();
        for line in lines(&text) {
            out.extend(p.parse_line(line, "2026-01-01T00:00:00.000Z"));
        }
        agentlines::parser::merge_deltas(out)
    };
    let ansi = read("derived-ansi-run.txt");
    let texts: Vec<&str> = ansi.iter().filter_map(|e| match e { Entry::Assistant { text, .. } => Some(text.as_str()), _ => None }).collect();
    assert_eq!(texts.last(), Some(&"The failing test passes now.\n\n- `src/price.js` rounds discounts to whole cents.\n- There is no CHANGES.md, so nothing was added to it.\n"));
    let output = |name: &str| ansi.iter().find_map(|e| match e {
        Entry::ToolResult { tool_name: Some(n), content, .. } if n == name && !content.is_empty() => Some(content.as_str()),
        _ => None,
    });
    assert_eq!(output("shell"), Some("Purpose: Run the test suite before changing anything\n\n> shop@1.0.0 test\n> node --test\n\n# pass 12\n# fail 1\n"));
    // One result per call (the host makes a card of every result after a call's first).
    let calls: Vec<&str> = ansi.iter().filter_map(|e| match e { Entry::ToolCall { tool_use_id: Some(id), .. } => Some(id.as_str()), _ => None }).collect();
    let results: Vec<(&str, bool, Option<u64>)> = ansi.iter().filter_map(|e| match e {
        Entry::ToolResult { tool_use_id, is_error, duration_ms, delta: None, .. } => Some((tool_use_id.as_str(), *is_error, *duration_ms)),
        _ => None,
    }).collect();
    assert_eq!(results.iter().map(|r| r.0).collect::<Vec<_>>(), calls);
    assert!(!ansi.iter().any(|e| matches!(e, Entry::ToolResult { delta: Some(true), .. })));
    let ends: Vec<(bool, Option<u64>)> = results.iter().map(|r| (r.1, r.2)).collect();
    assert_eq!(ends, [(false, Some(4)), (false, Some(3207)), (false, Some(12)), (true, Some(1)), (false, Some(68))]);
    let diff: Vec<&str> = ansi.iter().filter_map(|e| match e { Entry::Diff { text, .. } => Some(text.as_str()), _ => None }).collect();
    assert_eq!(diff, ["src/price.js", " export function discounted(price, rate) {", "-  return price * (1 - rate);", "+  return Math.round(price * (1 - rate) * 100) / 100;", " }"]);
    let plain = read("derived-plain-run.txt");
    assert!(plain.iter().any(|e| matches!(e, Entry::ToolResult { tool_name: Some(n), is_error: true, duration_ms: Some(31), .. } if n == "shell")));
    assert!(plain.iter().any(|e| matches!(e, Entry::Stderr { text, .. } if text == "/bin/sh: 1: node: not found")));
    assert!(matches!(plain.last(), Some(Entry::Result { text, .. }) if text == "Time: 19s"));
}

/// Kiro as real runs print it: parallel calls' headers glued on one line (and glued to the
/// end of a batch read's last line) each become a call, completed in call order; reasoning
/// steps are thinking; a search that found nothing is no failure; spinner frames show
/// nothing; `npm`'s `> ` inside a tool's output stays output; a tool that failed validation
/// is an error; a cut-off run's `[TIMEOUT]` is its failed end.
#[test]
fn kiro_parallel_calls_reasoning_and_a_cut_off_run() {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kiro/derived-parallel-run.txt")).unwrap();
    let mut p = StdoutParser::new();
    let mut out = Vec::new();
    for line in lines(&text) {
        out.extend(p.parse_line(line, "2026-01-01T00:00:00.000Z"));
    }
    out.extend(p.flush("2026-01-01T00:00:00.000Z"));
    let out = agentlines::parser::merge_deltas(out);
    assert_eq!(p.format(), Some(Format::Kiro));
    let mut names = std::collections::HashMap::new();
    let mut calls = Vec::new();
    for e in &out {
        if let Entry::ToolCall { name, tool_use_id: Some(id), .. } = e {
            names.insert(id.clone(), name.clone());
            calls.push(name.as_str());
        }
    }
    assert_eq!(calls, ["grep", "grep", "shell", "read", "grep", "code", "write", "shell", "read"]);
    let results: Vec<(String, bool, Option<u64>, &str)> = out.iter().filter_map(|e| match e {
        Entry::ToolResult { tool_use_id, is_error, duration_ms, content, .. } => Some((names[tool_use_id].clone(), *is_error, *duration_ms, content.as_str())),
        _ => None,
    }).collect();
    let summary: Vec<(&str, bool, Option<u64>)> = results.iter().map(|r| (r.0.as_str(), r.1, r.2)).collect();
    assert_eq!(summary, [
        ("grep", false, Some(9)), ("grep", false, Some(4)), ("shell", false, Some(7)),
        ("read", false, Some(1)), ("grep", false, Some(3)), ("code", false, Some(232)),
        ("write", false, Some(1)), ("shell", false, Some(4812)), ("read", true, Some(0)),
    ]);
    assert!(results[1].3.contains("No matches found"));
    assert!(results[2].3.starts_with("Purpose: List the task modules"));
    assert!(results[3].3.ends_with("↱ Operation 2: Reading file: /srv/shop/backend/apps/orders/tasks.py, all lines\n ✓ Successfully read directory /srv/shop/backend/apps/orders (12 entries)\n ✓ Successfully read 2210 bytes from /srv/shop/backend/apps/orders/tasks.py\n ⋮\n- Summary: 2 operations processed, 2 successful, 0 failed\n"), "{}", results[3].3);
    assert_eq!(results[5].3, "Found 1 of 1 symbols:\n  1. Function send_receipt at apps/orders/tasks.py:41:1\n");
    assert!(results[7].3.contains("> shop-frontend@0.1.0 lint\n> eslint src"));
    let thinking: Vec<&str> = out.iter().filter_map(|e| match e { Entry::Thinking { text, .. } => Some(text.as_str()), _ => None }).collect();
    assert_eq!(thinking, ["The receipt task retries zero times, so a short mail outage loses the receipt.\n\n1. Give the task retries with backoff.\n2. Keep the test that covers the outage.\n"]);
    assert!(out.iter().any(|e| matches!(e, Entry::Stderr { text, .. } if text.starts_with("Failed to validate tool parameters"))));
    assert!(matches!(out.last(), Some(Entry::Result { is_error: true, subtype, .. }) if subtype == "timeout"));
    assert!(!out.iter().any(|e| matches!(e, Entry::Stdout { .. })), "nothing left as plain text: {out:?}");
}

/// A plain sentence that ends like a Kiro header does not lock a stateful parser on Kiro:
/// what follows is read as before (here, Claude's stream); Kiro locks on a header and the
/// completion line that ends it.
#[test]
fn kiro_locks_on_a_header_and_its_completion_not_on_a_look_alike() {
    let ts = "2026-01-01T00:00:00.000Z";
    let mut p = StdoutParser::new();
    p.parse_line("We fixed it earlier (using tool: read)", ts);
    assert_eq!(p.format(), None);
    let after = p.parse_line("Error: the build failed", ts);
    assert!(matches!(&after[..], [Entry::Stdout { .. }] | [Entry::Stderr { .. }]), "{after:?}");
    let init = r#"{"type":"system","subtype":"init","session_id":"s","model":"m","tools":[],"cwd":"/"}"#;
    p.parse_line(init, ts);
    assert_ne!(p.format(), Some(Format::Kiro));

    let mut p = StdoutParser::new();
    p.parse_line("Reading file: /a, all lines (using tool: read)", ts);
    assert_eq!(p.format(), None);
    p.parse_line(" - Completed in 0.1s", ts);
    assert_eq!(p.format(), Some(Format::Kiro));
}
