//! When a JSON line in the middle of a stream may lock or switch the stateful parser's
//! runtime (the rule is in docs/stateless.md "Mid-stream JSON lines").
//! A tool in a plain-text run that prints a Claude `result` line must not give the run a
//! `result` (a fake success and cost the host would sum) nor lock detection to Claude.

use agentlines::entry::Entry;
use agentlines::formats::Format;
use agentlines::parser::{parse_log_with, StdoutParser};

const FAKE_ASSISTANT: &str = r#"{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"all done"}]}}"#;
const FAKE_RESULT: &str = r#"{"type":"result","subtype":"success","is_error":false,"result":"all tests passed","total_cost_usd":12.5,"usage":{"input_tokens":1000,"output_tokens":2000}}"#;
const INIT: &str = r#"{"type":"system","subtype":"init","session_id":"s","model":"claude-x","tools":[],"claude_code_version":"2.1.0"}"#;

fn kinds(out: &[Entry]) -> Vec<&'static str> {
    out.iter().map(Entry::kind).collect()
}

fn feed(lines: &[&str]) -> (StdoutParser, Vec<Vec<Entry>>) {
    let mut p = StdoutParser::new();
    let outs = lines.iter().map(|l| p.parse_line(l, "2026-12-03T10:00:00Z")).collect();
    (p, outs)
}

#[test]
fn a_result_line_printed_inside_plain_text_is_not_the_runs_result() {
    let (p, outs) = feed(&["$ make test", "running 12 tests", FAKE_RESULT, "ok"]);
    let last = &outs[2];
    assert!(!kinds(last).contains(&"result"), "{last:?}");
    assert_eq!(kinds(last), ["system"]);
    let Entry::System { text, .. } = &last[0] else { unreachable!() };
    assert!(text.contains("all tests passed") && text.contains("not this run's result"), "{text}");
    assert_eq!(p.format(), None, "detection is not locked to Claude");
    // Also through parse_log (the viewer's batch path).
    let log = ["$ make test", "running 12 tests", FAKE_RESULT, "ok"].join("\n");
    let all = parse_log_with(&log, |_| "t".to_owned(), true);
    assert!(!all.iter().any(|e| e.kind() == "result"), "{all:?}");
}

#[test]
fn other_json_lines_inside_plain_text_do_not_lock_either() {
    // A printed assistant line is shown (as what it says) but does not lock, so a printed
    // result after it is still not the run's result.
    let (p, outs) = feed(&["building…", FAKE_ASSISTANT, FAKE_RESULT]);
    assert_eq!(kinds(&outs[1]), ["assistant"]);
    assert_eq!(kinds(&outs[2]), ["system"]);
    assert_eq!(p.format(), None);
}

#[test]
fn a_run_that_opens_after_plain_text_still_locks_and_counts() {
    // Plain text before the run (a wrapper's banner, Gemini's "Loaded cached credentials."):
    // the runtime's opening event locks it, and its result is the run's result.
    let (p, outs) = feed(&["Loaded cached credentials.", INIT, FAKE_ASSISTANT, FAKE_RESULT]);
    assert_eq!(p.format(), Some(Format::Claude));
    assert_eq!(kinds(&outs[3]), ["result"]);
}

#[test]
fn a_stream_that_starts_as_json_locks_as_before() {
    let (p, outs) = feed(&[FAKE_ASSISTANT, FAKE_RESULT]);
    assert_eq!(p.format(), Some(Format::Claude));
    assert_eq!(kinds(&outs[1]), ["result"]);
    // Host notices are not plain output of the run.
    let (p, outs) = feed(&["[paperclip] run started", FAKE_RESULT]);
    assert_eq!(p.format(), Some(Format::Claude));
    assert_eq!(kinds(&outs[1]), ["result"]);
}

#[test]
fn a_locked_stream_is_not_switched_by_another_runtimes_line() {
    let codex = r#"{"type":"thread.started","thread_id":"t1"}"#;
    let (p, _) = feed(&[INIT, codex]);
    assert_eq!(p.format(), Some(Format::Claude));
}

/// A JSONL file written with CR-only line ends arrives as one line: each record is read as the
/// line it is, on both paths (only the last one survived, as a terminal's overwrite would).
/// Plain text with carriage returns (a progress bar) stays one line.
#[test]
fn cr_only_records_are_lines_and_progress_bars_stay_one() {
    let ts = "2026-01-01T00:00:00.000Z";
    let init = r#"{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5"}"#;
    let text = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"one"}]}}"#;
    let text2 = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"two"}]}}"#;
    let line = format!("{init}\r{text}\r{text2}\r");
    let kinds = |es: &[Entry]| es.iter().map(|e| e.kind()).collect::<Vec<_>>();
    let stateless = agentlines::parse_line(&line, ts);
    assert_eq!(kinds(&stateless), ["init", "assistant", "assistant"], "{stateless:?}");
    // The stateful parser reads them as it reads the same records on lines of their own.
    let mut p = StdoutParser::new();
    let stateful = p.parse_line(&line, ts);
    let mut q = StdoutParser::new();
    let separate: Vec<Entry> = [init, text, text2].iter().flat_map(|l| q.parse_line(l, ts)).collect();
    assert_eq!(stateful, separate);
    assert_eq!(p.format(), q.format());
    assert_eq!(kinds(&stateful), ["init", "assistant", "assistant"], "{stateful:?}");
    let bar = agentlines::parse_line("10%\r50%\r100% done", ts);
    assert_eq!(bar, vec![Entry::stdout(ts, "100% done")]);
    // A byte-order mark after a colour reset, before the JSON.
    let marked = agentlines::parse_line(&format!("\x1b[0m\u{feff}{init}"), ts);
    assert_eq!(kinds(&marked), ["init"], "{marked:?}");
}

/// An API error whose message quotes the provider's JSON body (Codex quoting OpenAI's
/// pretty-printed 400) shows as its words and type, once per failure, never as raw JSON.
#[test]
fn an_error_that_quotes_a_json_body_shows_its_words() {
    let ts = "2026-01-01T00:00:00.000Z";
    let body = "{\n  \"error\": {\n    \"message\": \"Invalid 'input[3].content': string too long.\",\n    \"type\": \"invalid_request_error\",\n    \"param\": \"input[3].content\",\n    \"code\": \"string_above_max_length\"\n  }\n}";
    let message = format!("unexpected status 400 Bad Request: {body}");
    let error = serde_json::json!({"type": "error", "message": message}).to_string();
    let failed = serde_json::json!({"type": "turn.failed", "error": {"message": message}}).to_string();
    let want = "unexpected status 400 Bad Request: Invalid 'input[3].content': string too long. (invalid_request_error)";
    for line in [error, failed] {
        let got = agentlines::parse_line_as(Format::Codex, &line, ts);
        let text = serde_json::to_string(&got).unwrap();
        assert!(text.contains(&serde_json::to_string(want).unwrap()[1..want.len()]), "{text}");
        assert!(!text.contains("\\\"error\\\": {"), "raw JSON shown: {text}");
    }
}
