//! The `agentlines` binary, run as a user would: on the bundled upstream fixtures
//! (`tests/fixtures/conformance/molecule/fixtures/`, real Claude Code 2.1.281 and Codex CLI
//! 0.156.1 files) and on small inputs piped to standard input. Checks the output and the
//! exit codes (0 on success, 2 on bad input with a one-line reason and never a panic).

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_agentlines");

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
        .join("tests/fixtures/conformance/molecule/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run agentlines");
    if let Some(text) = stdin {
        // The command may refuse (and exit) before reading its input: a closed pipe is fine.
        match child.stdin.take().expect("stdin").write_all(text.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
            _ => {}
        }
    }
    child.wait_with_output().expect("agentlines output")
}

fn stdout_json(o: &Output) -> Value {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON document")
}

/// Exit 2, a reason on stderr that mentions `needle`, no panic trace.
fn assert_bad(o: &Output, needle: &str) {
    assert_exit(o, 2, needle);
}

/// Exit `code`, a reason on stderr that mentions `needle`, no panic trace.
fn assert_exit(o: &Output, code: i32, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "exit code for {needle}: stderr {err}");
    assert!(err.starts_with("agentlines: "), "stderr: {err}");
    assert!(err.contains(needle), "stderr should mention {needle:?}: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("agentlines-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).expect("write temp file");
    p
}

#[test]
fn session_reads_each_bundled_format() {
    let cases = [
        ("session-v2.1.281.jsonl", "claude-code", Some("2.1.281")),
        ("export-v2.1.281.txt", "claude-code", Some("2.1.281")),
        ("rollout-v0.156.1.jsonl", "codex", Some("0.156.1")),
        ("export-v0.156.1.md", "codex", None),
        ("conversation.json", "molecule-ide", None),
    ];
    for (name, format, version) in cases {
        let s = stdout_json(&run(&["session", &fixture(name)], None));
        assert_eq!(s["format"], format, "{name}");
        assert_eq!(s["harnessVersion"].as_str(), version, "{name}");
        let turns = s["turns"].as_array().expect("turns");
        assert!(turns.len() >= 2, "{name}: {turns:?}");
        assert_eq!(turns[0]["role"], "user", "{name}");
        // Same answer as the library's own recorded upstream output.
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(fixture(&format!("{name}.expected.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(s["turns"], expected["autodetect.read"]["turns"], "{name}");
    }
}

#[test]
fn session_from_stdin_and_forced_reader() {
    let text = std::fs::read_to_string(fixture("export-v0.156.1.md")).unwrap();
    let s = stdout_json(&run(&["session", "-"], Some(&text)));
    assert_eq!(s["format"], "codex");
    let o = run(&["session", "--format", "claude-code", &fixture("export-v0.156.1.md")], None);
    assert_bad(&o, "Not a Claude Code transcript (export-v0.156.1.md): expected a session .jsonl or a /export text.");
}

#[test]
fn session_rejects_what_it_cannot_read() {
    assert_bad(
        &run(&["session", "/no/such/file.jsonl"], None),
        "cannot read /no/such/file.jsonl: no such file",
    );
    assert_bad(
        &run(&["session", "-"], Some("just some notes\n")),
        "No transcript reader recognizes this file.",
    );
    assert_bad(&run(&["session", "--format", "aider", "-"], Some("x")), "unknown reader aider");
    assert_bad(&run(&["session"], None), "which file?");
    assert_bad(
        &run(&["session", Path::new(env!("CARGO_MANIFEST_DIR")).join("..").to_str().unwrap()], None),
        "is a directory",
    );
}

#[test]
fn dump_selects_items_into_a_session_dump_file() {
    let o = run(
        &[
            "dump",
            &fixture("session-v2.1.281.jsonl"),
            "--select",
            "message,tool,-tool:Read",
            "--written-at",
            "1234",
        ],
        None,
    );
    let d = stdout_json(&o);
    assert_eq!(d["sid"], "188d65c7-bc50-4583-93e3-93d74d6d5816");
    assert_eq!(d["written_at"], 1234);
    assert_eq!(d["types"], serde_json::json!(["message", "tool", "-tool:Read"]));
    let items = d["items"].as_array().expect("items");
    assert!(!items.is_empty());
    for item in items {
        let ty = item["type"].as_str().unwrap();
        assert!(ty.starts_with("message:") || ty.starts_with("tool:"), "{ty}");
        assert_ne!(ty, "tool:Read");
        for key in ["id", "uuid", "source", "at", "turn"] {
            assert!(item.get(key).is_some(), "{key} missing in {item}");
        }
    }
    assert!(items.iter().any(|i| i["type"] == "message:user:in"));
    assert!(items.iter().any(|i| i["type"] == "tool:Write" && i["role"] == "use"));
    // `ids` was not selected: the ledger is empty.
    assert_eq!(d["ids"], serde_json::json!([]));
}

#[test]
fn dump_default_selection_and_presets() {
    let d = stdout_json(&run(&["dump", &fixture("session-v2.1.281.jsonl"), "--no-thinking"], None));
    assert_eq!(d["types"], serde_json::json!(["*", "-system:attachment", "-thinking"]));
    assert!(d["items"].as_array().unwrap().iter().all(|i| i["type"] != "thinking"));
    let presets = temp_file(
        "presets.json",
        r#"{"dump":{"presets":[{"name":"files","opts":{"types":["tool:Write","tool:Edit"]}},{"name":"talk","opts":{"types":["message:user","@files"]}}]}}"#,
    );
    let p = presets.to_str().unwrap();
    let d = stdout_json(&run(
        &[
            "dump",
            &fixture("session-v2.1.281.jsonl"),
            "--presets",
            p,
            "--select",
            "@talk,-tool:Edit",
        ],
        None,
    ));
    assert_eq!(
        d["types"],
        serde_json::json!(["message:user", "tool:Write", "tool:Edit", "-tool:Edit"])
    );
    let types: Vec<&str> =
        d["items"].as_array().unwrap().iter().map(|i| i["type"].as_str().unwrap()).collect();
    assert!(
        types.iter().all(|t| t.starts_with("message:user:") || *t == "tool:Write"),
        "{types:?}"
    );
    let _ = std::fs::remove_file(&presets);
}

#[test]
fn dump_refuses_bad_selections_and_inputs() {
    let f = fixture("session-v2.1.281.jsonl");
    assert_bad(&run(&["dump", &f, "--select", "Tool:Bash"], None), "bad --select");
    assert_bad(
        &run(&["dump", &f, "--select", "@nope"], None),
        "@nope, which is not a configured preset",
    );
    let cyclic = temp_file(
        "cyclic.json",
        r#"{"presets":[{"name":"a","opts":{"types":["@b"]}},{"name":"b","opts":{"types":["@a"]}}]}"#,
    );
    assert_bad(
        &run(&["dump", &f, "--presets", cyclic.to_str().unwrap()], None),
        "dump.presets reference each other in a cycle: a -> b -> a",
    );
    let _ = std::fs::remove_file(&cyclic);
    assert_bad(
        &run(&["dump", &fixture("export-v2.1.281.txt")], None),
        "is not a Claude Code session .jsonl",
    );
    assert_bad(&run(&["dump", &f, "--written-at", "soon"], None), "--written-at");
    assert_bad(&run(&["dump", &f, "--frobnicate"], None), "unknown option --frobnicate");
}

#[test]
fn parse_prints_entries_as_json_lines() {
    let o = run(
        &["parse", "--ts", "2026-01-01T00:00:00.000Z", "--format", "plain", "-"],
        Some("hello\n\nworld\n"),
    );
    assert!(o.status.success());
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "a blank line gives no entry: {lines:?}");
    assert_eq!(lines[0]["kind"], "stdout");
    assert_eq!(lines[0]["text"], "hello");
    assert_eq!(lines[1]["ts"], "2026-01-01T00:00:00.000Z");
    // Stateless and autodetecting, on a real file: every line an entry object with the ts.
    for extra in [&[][..], &["--stateless"][..]] {
        let mut args = vec!["parse", "--ts", "2026-01-01T00:00:00Z"];
        args.extend_from_slice(extra);
        let f = fixture("rollout-v0.156.1.jsonl");
        args.push(&f);
        let o = run(&args, None);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.lines().count() >= 5);
        for l in out.lines() {
            let e: Value = serde_json::from_str(l).unwrap();
            assert!(e["kind"].is_string() && e["ts"] == "2026-01-01T00:00:00Z", "{l}");
        }
    }
    assert_bad(&run(&["parse", "--format", "nope", "-"], Some("x")), "unknown format nope");
    assert_exit(&run(&["parse", "/no/such/stdout.log"], None), 1, "no such file");
}

#[test]
fn big_file_without_a_terminal_has_no_progress_noise() {
    let line = std::fs::read_to_string(fixture("session-v2.1.281.jsonl")).unwrap();
    let big = line.repeat((5 * 1024 * 1024) / line.len() + 1);
    let p = temp_file("big.jsonl", &big);
    let o = run(&["session", p.to_str().unwrap()], None);
    let _ = std::fs::remove_file(&p);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "stderr is not a terminal: no bar");
    let s: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(s["turns"].as_array().unwrap().len() > 100);
}

#[test]
fn usage_and_unknown_commands() {
    assert_bad(&run(&[], None), "no command");
    assert_bad(&run(&["frob"], None), "unknown command frob");
    let o = run(&["--help"], None);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("agentlines dump"));
}

#[test]
fn parse_reads_invalid_utf8_lines_with_replacement_characters() {
    // Valid lines are read as they are (borrowed); a line with invalid UTF-8 is shown with
    // U+FFFD in place of the bad bytes, and the lines around it are not affected.
    let p = std::env::temp_dir().join(format!("agentlines-cli-{}-bad-utf8.log", std::process::id()));
    std::fs::write(&p, b"caf\xc3\xa9\nbad \xff\xfe bytes\nok\n").expect("write temp file");
    let o = run(&["parse", "--ts", "2026-01-02T03:04:05.000Z", "--format", "plain", p.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let texts: Vec<String> = String::from_utf8(o.stdout)
        .expect("output is UTF-8")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(texts, ["café", "bad \u{fffd}\u{fffd} bytes", "ok"]);
}

/// The entries on standard output, one JSON object per line.
fn entries(o: &Output) -> Vec<Value> {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A Paperclip run-log row, `seq` left out when `None`.
fn row(ts: &str, stream: &str, chunk: &str, seq: Option<u64>) -> String {
    let mut v = serde_json::json!({ "ts": ts, "stream": stream, "chunk": chunk });
    if let Some(s) = seq {
        v["seq"] = s.into();
    }
    v.to_string() + "\n"
}

const INIT: &str = r#"{"type":"system","subtype":"init","session_id":"s1","model":"m"}"#;

#[test]
fn parse_reads_a_paperclip_run_log() {
    // Rows written out of seq order; the init line split mid-line across two stdout rows
    // with a stderr row between them; a system row; an unterminated tail.
    let (head, tail) = INIT.split_at(30);
    let log = [
        row("2026-01-01T00:00:02Z", "stdout", head, Some(2)),
        row("2026-01-01T00:00:01Z", "system", "adapter started\n", Some(1)),
        row("2026-01-01T00:00:04Z", "stdout", &format!("{tail}\nhello "), Some(4)),
        row("2026-01-01T00:00:03Z", "stderr", "warn: slow\r\n", Some(3)),
        row("2026-01-01T00:00:05Z", "stdout", "world", Some(5)),
    ]
    .concat();
    let p = temp_file("run.jsonl", &log);
    let path = p.to_str().unwrap();
    let got = entries(&run(&["parse", path], None));
    let kinds: Vec<(&str, &str)> =
        got.iter().map(|e| (e["kind"].as_str().unwrap(), e["ts"].as_str().unwrap())).collect();
    assert_eq!(
        kinds,
        [
            ("system", "2026-01-01T00:00:01Z"),
            // The stderr line is complete before the init line's newline arrives (seq 4).
            ("stderr", "2026-01-01T00:00:03Z"),
            // The joined line has the ts of the row it began in.
            ("init", "2026-01-01T00:00:02Z"),
            ("stdout", "2026-01-01T00:00:04Z"),
        ]
    );
    assert_eq!(got[0]["text"], "adapter started");
    assert_eq!(got[1]["text"], "warn: slow", "the \\r is dropped");
    assert_eq!(got[2]["sessionId"], "s1");
    assert_eq!(got[3]["text"], "hello world", "the tail is joined and flushed at the end");
    // --ts replaces the rows' ts; with --record-ts the rows' ts are kept.
    let fixed = entries(&run(&["parse", "--ts", "2030-01-01T00:00:00Z", path], None));
    assert!(fixed.iter().all(|e| e["ts"] == "2030-01-01T00:00:00Z"), "{fixed:?}");
    let kept = entries(&run(&["parse", "--ts", "2030-01-01T00:00:00Z", "--record-ts", path], None));
    assert_eq!(kept, got);
    // From a pipe, detected the same way; --input stdout reads the rows as plain JSON lines.
    assert_eq!(entries(&run(&["parse"], Some(&log))), got);
    let raw = entries(&run(&["parse", "--input", "stdout", "--format", "plain", path], None));
    assert_eq!(raw.len(), 5);
    // (each row is one JSON object line to the plain reader: a notice naming its fields)
    assert!(raw.iter().all(|e| e["kind"] != "init" && e["text"].as_str().unwrap().contains("chunk")), "{raw:?}");
    let _ = std::fs::remove_file(&p);
}

#[test]
fn run_log_rows_without_seq_stay_after_what_was_written_before_them() {
    // docs/runlog.md rule 2; the viewer's test is in tests/browser/viewer-features.test.mjs.
    let log = [
        row("2026-01-01T00:00:01Z", "stdout", "one\n", Some(1)),
        row("2026-01-01T00:00:03Z", "stdout", "three\n", Some(3)),
        row("2026-01-01T00:00:04Z", "stderr", "no seq, written after three\n", None),
        row("2026-01-01T00:00:02Z", "stdout", "two\n", Some(2)),
        "not a row at all\n".to_owned(),
        row("2026-01-01T00:00:05Z", "stdout", "four\n", Some(4)),
    ]
    .concat();
    let got = entries(&run(&["parse", "--format", "plain"], Some(&log)));
    let texts: Vec<&str> = got.iter().map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["one", "two", "three", "no seq, written after three", "not a row at all", "four"]);
    assert_eq!(got[3]["kind"], "stderr");
    // A line that is not a row is kept as a stdout entry with the ts of the row before it.
    assert_eq!((got[4]["kind"].as_str(), got[4]["ts"].as_str()), (Some("stdout"), Some("2026-01-01T00:00:02Z")));
}

#[test]
fn parse_reads_a_piped_stdin_without_dash_and_asks_otherwise() {
    let got = entries(&run(&["parse", "--ts", "2026-01-01T00:00:00Z"], Some("hello\n")));
    assert_eq!(got.len(), 1);
    assert_eq!((got[0]["kind"].as_str(), got[0]["text"].as_str()), (Some("stdout"), Some("hello")));
    // Standard input is /dev/null here (a device, not a pipe): the command asks for a file.
    assert_bad(&run(&["parse"], None), "which file?");
    assert_bad(&run(&["session"], None), "which file?");
}

#[test]
fn parse_reads_several_files_each_with_a_fresh_parser() {
    let call = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#;
    let result = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}}"#;
    let a = temp_file("a.jsonl", &format!("{INIT}\n{call}\n"));
    let b = temp_file("b.jsonl", &format!("{result}\n"));
    let c = temp_file("c.jsonl", &row("2026-01-01T00:00:09Z", "stderr", "from a run log\n", Some(1)));
    let ts = "2026-01-01T00:00:00Z";
    let (pa, pb, pc) = (a.to_str().unwrap(), b.to_str().unwrap(), c.to_str().unwrap());
    let got = entries(&run(&["parse", "--ts", ts, "--record-ts", pa, pb, pc], None));
    let kinds: Vec<&str> = got.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["init", "tool_call", "tool_result", "stderr"]);
    // Several files: each record names its file and line.
    let at: Vec<(&str, u64)> = got.iter().map(|e| (e["file"].as_str().unwrap(), e["line"].as_u64().unwrap())).collect();
    assert_eq!(at, [(pa, 1), (pa, 2), (pb, 1), (pc, 1)]);
    // b.jsonl's parser never saw the call: the result is not paired with it.
    assert!(got[2].get("toolName").is_none(), "{}", got[2]);
    // Each file is detected on its own: c.jsonl is a run log, its row keeps its ts.
    assert_eq!(got[3]["ts"], "2026-01-01T00:00:09Z");
    // The same lines in one stream do pair.
    let one = entries(&run(&["parse", "--ts", ts], Some(&format!("{INIT}\n{call}\n{result}\n"))));
    assert_eq!(one[2]["toolName"], "Bash");
    // A missing file among them is reported and the others are still read; exit 1 at the end.
    let o = run(&["parse", "--ts", ts, pa, "/no/such/file.jsonl", pb], None);
    assert_exit(&o, 1, "cannot read /no/such/file.jsonl: no such file");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3);
    for p in [a, b, c] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn parse_input_run_log_refuses_what_is_not_one() {
    let p = temp_file("not-a-run-log.jsonl", &format!("{INIT}\n"));
    let o = run(&["parse", "--input", "run-log", p.to_str().unwrap()], None);
    assert_bad(&o, "is not a Paperclip run log");
    assert!(o.stdout.is_empty());
    assert_bad(&run(&["parse", "--input", "run-log"], Some("plain text\n")), "standard input is not a Paperclip run log");
    // An empty input is no run log's fault: nothing to print.
    let o = run(&["parse", "--input", "run-log"], Some(""));
    assert!(o.status.success() && o.stdout.is_empty());
    assert_bad(&run(&["parse", "--input", "bogus", "-"], Some("")), "invalid value 'bogus'");
    let _ = std::fs::remove_file(&p);
}

#[test]
fn max_input_bounds_what_is_read_whole() {
    let log = row("2026-01-01T00:00:01Z", "stdout", "hello\n", Some(1)).repeat(20);
    let p = temp_file("big-run.jsonl", &log);
    let path = p.to_str().unwrap();
    let o = run(&["parse", "--max-input", "1K", path], None);
    assert_bad(&o, "over the 1 KiB input limit");
    assert!(o.stderr.ends_with(b"raise it with --max-input)\n"), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "a file known to be over the limit is refused before it is read");
    let o = run(&["parse", "--input", "run-log", "--max-input", "1K", path], None);
    assert_bad(&o, "over the 1 KiB input limit");
    // From a pipe, where the size is not known up front.
    assert_bad(&run(&["parse", "--max-input", "1K"], Some(&log)), "standard input is over the 1 KiB input limit");
    assert_eq!(entries(&run(&["parse", "--max-input", "2K", path], None)).len(), 20);
    // Agent stdout is streamed: without --max-input there is no limit; with one, reading
    // stops there (what came before it is printed).
    let big_plain = "plain text line\n".repeat(200);
    assert_eq!(entries(&run(&["parse", "--format", "plain"], Some(&big_plain))).len(), 200);
    let o = run(&["parse", "--max-input", "1K", "--format", "plain"], Some(&big_plain));
    assert_bad(&o, "standard input is over the 1 KiB input limit (--max-input): stopped there");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 64);
    // session and dump read whole too.
    assert_bad(&run(&["session", "--max-input", "100", &fixture("session-v2.1.281.jsonl")], None), "over the 100 bytes input limit");
    assert_bad(&run(&["dump", "--max-input", "100", &fixture("session-v2.1.281.jsonl")], None), "over the 100 bytes input limit");
    assert_bad(&run(&["parse", "--max-input", "lots", path], None), "want a size in bytes");
    let _ = std::fs::remove_file(&p);
}

#[test]
fn a_closed_standard_output_is_an_error_not_a_lost_output() {
    let o = Command::new("sh")
        .args(["-c", "exec \"$0\" parse --format plain - >&-", BIN])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            let _ = c.stdin.take().unwrap().write_all(b"hello\n");
            c.wait_with_output()
        })
        .expect("run sh");
    assert_bad(&o, "standard output is closed");
    // A read-write `/dev/null` given on purpose (Python's `subprocess.DEVNULL`, Node's
    // `stdio: "ignore"`) looks like the runtime's reopened one, and is not an error.
    let o = Command::new("sh")
        .args(["-c", "echo hello | \"$0\" parse --format plain - 1<>/dev/null", BIN])
        .output()
        .expect("run sh");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // `| head` closing the pipe early is not an error: exit 0, quietly.
    let o = Command::new("sh")
        .args(["-c", "yes '{\"type\":\"assistant\"}' | head -100000 | \"$0\" parse --format plain | head -1", BIN])
        .output()
        .expect("run sh");
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
}

/// `sh -c` with a virtual-memory limit (KiB) around the command: what must stay bounded
/// fails with an allocation error past it.
fn run_limited(kib: u64, script: &str) -> Output {
    Command::new("sh")
        .args(["-c", &format!("ulimit -v {kib}; {script}"), "sh", BIN])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run sh")
}

#[test]
fn endless_and_overlong_input_stays_in_bounded_memory() {
    // /dev/zero is binary (refused at once); from a pipe with no NUL bytes, an endless line is
    // cut at --max-input. Each under 256 MB of address space (they used to ask for 8.6 GB).
    let o = run_limited(256 << 10, "exec \"$1\" parse --max-input 1M /dev/zero");
    assert_bad(&o, "/dev/zero is binary (a NUL byte at offset 0)");
    let o = run_limited(256 << 10, "exec \"$1\" dump --max-input 1M /dev/zero");
    assert_bad(&o, "/dev/zero is over the 1 MiB input limit");
    let o = run_limited(256 << 10, "tr '\\0' a < /dev/zero | \"$1\" parse --max-input 1M");
    assert_bad(&o, "standard input is over the 1 MiB input limit");
    let o = run_limited(256 << 10, "tr '\\0' a < /dev/zero | \"$1\" session --max-input 1M");
    assert_bad(&o, "standard input is over the 1 MiB input limit");
    // A 200 MB line with no limit given: its first 64 KiB and its length, in bounded memory.
    let o = run_limited(256 << 10, "head -c 200000000 /dev/zero | tr '\\0' a | \"$1\" parse --ts 2026-01-01T00:00:00Z");
    let got = entries(&o);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0]["text"], "line of 200000000 bytes is over the 16 MB limit; showing its first 64 KB");
    assert_eq!(got[1]["text"].as_str().unwrap().len(), 64 * 1024);
}

#[test]
fn binary_files_are_refused_and_the_rest_read() {
    let text = temp_file("ok.jsonl", &format!("{INIT}\n"));
    let bin = temp_file("elf.bin", "\u{7f}ELF\u{2}\u{1}\u{1}\u{0}\u{0}junk\n{\"type\":\"x\"}\n");
    let (pt, pb) = (text.to_str().unwrap(), bin.to_str().unwrap());
    let o = run(&["parse", pb, pt], None);
    assert_bad(&o, &format!("{pb} is binary (a NUL byte at offset 7), not agent output: skipped"));
    let got: Vec<Value> = String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["kind"], "init");
    assert_eq!(got[0]["file"], pt);
    for p in [text, bin] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn output_text_markdown_and_kind_filter() {
    let call = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Look <b>here</b> `<i>`"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#;
    let result = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"a ```` b"}]}}"#;
    let input = format!("{INIT}\n{call}\n{result}\n");
    let ts = "2026-01-01T10:20:30Z";
    let o = run(&["parse", "--ts", ts, "-o", "text"], Some(&input));
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("10:20:30 init: model m, session s1\n"), "{text}");
    assert!(text.contains("10:20:30 tool call Bash: {\"command\":\"ls\"}\n"), "{text}");
    assert!(text.contains("10:20:30 tool result (Bash, 0.0s): a ```` b\n"), "{text}");
    let o = run(&["parse", "--ts", ts, "--output", "markdown"], Some(&input));
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("**Assistant** (10:20:30)\n\nLook &lt;b>here&lt;/b> `<i>`\n"), "{md}");
    assert!(md.contains("**Tool call: Bash** (10:20:30)\n\n```json\n{\n  \"command\": \"ls\"\n}\n```\n"), "{md}");
    assert!(md.contains("`````\na ```` b\n`````\n"), "{md}");
    let got = entries(&run(&["parse", "--ts", ts, "--kind", "tool_call,init"], Some(&input)));
    let kinds: Vec<&str> = got.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["init", "tool_call"]);
    assert_bad(&run(&["parse", "--kind", "frobnicate"], Some(&input)), "unknown entry kind frobnicate in --kind");
    // All but some.
    let got = entries(&run(&["parse", "--ts", ts, "--kind", "-init,-tool_result"], Some(&input)));
    let kinds: Vec<&str> = got.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["assistant", "tool_call"]);
    assert_bad(&run(&["parse", "--kind", "init,-init"], Some(&input)), "--kind leaves no kind");
}

/// Text and Markdown show a run of streamed pieces as one block (an answer's deltas, a tool's
/// output line by line), with the status and time of the result that ends it; JSON Lines
/// keeps every piece.
#[test]
fn text_and_markdown_join_streamed_pieces() {
    let kiro = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/kiro/derived-plain-run.txt");
    let kiro = kiro.to_str().unwrap();
    let ts = "2026-01-01T10:20:30Z";
    let o = run(&["parse", "--ts", ts, "-o", "text", kiro], None);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("10:20:30 assistant: Node is not installed here, so the local version could not be checked.\n    The notes are in `notes/node.md`.\n"), "{text}");
    assert!(text.contains("10:20:30 tool result (web_fetch, 0.7s):  ✓ Fetched 11395 bytes (selective) from URL\n10:20:30 assistant: Node 24"), "{text}");
    assert!(text.contains("10:20:30 tool error (shell, 0.0s)\n"), "{text}");
    assert_eq!(text.matches("tool result (web_fetch").count(), 1, "{text}");
    let o = run(&["parse", "--ts", ts, "-o", "markdown", kiro], None);
    let md = String::from_utf8_lossy(&o.stdout);
    // Tool names are plain text in Markdown: escaped (`web\_fetch` renders as web_fetch).
    assert_eq!(md.matches("**Tool result** (web\\_fetch)").count(), 1, "{md}");
    assert!(md.contains("**Tool result** (web\\_fetch), 0.7s\n\n```\n ✓ Fetched 11395 bytes (selective) from URL\n```\n"), "{md}");
    let pieces = entries(&run(&["parse", "--ts", ts, kiro], None));
    let last_answer = pieces.iter().filter(|e| e["kind"] == "assistant" && e["delta"] == true).count();
    assert_eq!(last_answer, 3, "two answers, the last in two pieces");
}

#[test]
fn stats_sums_as_the_host_does() {
    let result = |cost: f64, sub: &str| {
        format!(r#"{{"type":"result","subtype":"{sub}","session_id":"s{cost}","total_cost_usd":{cost},"usage":{{"input_tokens":100,"output_tokens":10,"cache_read_input_tokens":5}},"result":"ok"}}"#)
    };
    let call = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#;
    let res = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"boom","is_error":true}]}}"#;
    let a = temp_file("stats-a.jsonl", &format!("{INIT}\n{call}\n{res}\n{}\n", result(0.25, "success")));
    let b = temp_file("stats-b.jsonl", &format!("{}\n", result(0.5, "error_max_turns")));
    let (pa, pb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let report = stdout_json(&run(&["stats", "--json", pa, pb], None));
    assert_eq!(report["files"][0]["file"], pa);
    assert_eq!(report["files"][0]["costUsd"], 0.25);
    assert_eq!(report["files"][0]["tools"]["Bash"]["calls"], 1);
    assert_eq!(report["files"][0]["tools"]["Bash"]["errors"], 1);
    assert_eq!(report["total"]["costUsd"], 0.75);
    assert_eq!(report["total"]["statedCostUsd"], 0.75);
    assert_eq!(report["total"]["estimatedCostUsd"], 0.0);
    // Integer counts, one meaning: Claude's input leaves its cache reads out.
    assert_eq!(report["total"]["tokens"]["input"], 200);
    assert_eq!(report["total"]["tokens"]["cacheRead"], 10);
    assert_eq!(report["total"]["results"], 2);
    assert_eq!(report["total"]["runs"], 2);
    let o = run(&["stats", pa, pb], None);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("total\n  runs     2 (claude)\n  entries  "), "{text}");
    assert!(text.contains("  cost     $0.7500\n"), "{text}");
    for p in [a, b] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn stdin_lines_are_stamped_when_they_arrive() {
    let mut child = Command::new(BIN)
        .args(["parse", "--format", "plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run agentlines");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"first\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    stdin.write_all(b"second\n").unwrap();
    drop(stdin);
    let got = entries(&child.wait_with_output().unwrap());
    let ms = |e: &Value| agentlines::time::parse_ts_ms(e["ts"].as_str().unwrap()).unwrap();
    assert!(ms(&got[1]) - ms(&got[0]) >= 1000, "{got:?}");
}

#[test]
fn format_help_lists_every_runtime() {
    let o = run(&["parse", "--format", "nope"], None);
    let err = String::from_utf8_lossy(&o.stderr);
    for name in ["claude", "hermes", "hermes_gateway", "plain", "letta", "openrouter"] {
        assert!(err.contains(name), "{name} missing from: {err}");
    }
}

/// A Claude session-file assistant line: its model and usage, no stated cost.
fn session_line(id: &str, model: &str, input: u64, output: u64, ts: &str) -> String {
    format!(
        r#"{{"type":"assistant","sessionId":"s","uuid":"u-{id}","timestamp":"{ts}","message":{{"id":"{id}","model":"{model}","role":"assistant","content":[{{"type":"text","text":"hi"}}],"usage":{{"input_tokens":{input},"output_tokens":{output},"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}}}}}"#
    )
}

#[test]
fn stats_estimates_what_a_log_leaves_unpriced_model_by_model() {
    let log = [
        session_line("m1", "claude-sonnet-4-5-20250929", 1_000_000, 0, "2026-01-01T10:00:00Z"),
        session_line("m2", "claude-opus-4-6", 0, 1_000_000, "2026-01-02T10:00:00Z"),
        session_line("m3", "frobnicator-9", 10, 10, "2026-01-02T10:01:00Z"),
    ]
    .join("\n");
    let f = temp_file("estimate.jsonl", &log);
    let p = f.to_str().unwrap();
    let report = stdout_json(&run(&["stats", "--json", p], None));
    let t = &report["total"];
    // $3 per million input (Sonnet 4.5) + $25 per million output (Opus 4.6), at list prices.
    assert!((t["estimatedCostUsd"].as_f64().unwrap() - 28.0).abs() < 1e-9, "{t}");
    assert_eq!(t["statedCostUsd"], 0.0);
    assert_eq!(t["unpricedResults"], 1);
    assert_eq!(t["byModel"]["claude-opus-4-6"]["results"], 1);
    assert_eq!(t["byDay"]["2026-01-02"]["results"], 2);
    assert!(t["cost"].as_str().unwrap().starts_with("≈ $28.0000 (estimated at list prices of "), "{t}");
    assert!(t["cost"].as_str().unwrap().ends_with(" + unknown model for 1 result"), "{t}");
    assert_eq!(report["prices"]["date"].as_str().unwrap(), agentlines::prices::DATE);
    let text = String::from_utf8_lossy(&run(&["stats", p], None).stdout).into_owned();
    assert!(text.contains("cost     ≈ $28.0000"), "{text}");
    assert!(!text.contains("$0.0000"), "{text}");
    // One table, as text and as CSV.
    let by = String::from_utf8_lossy(&run(&["stats", "--by", "model", p], None).stdout).into_owned();
    assert!(by.lines().next().unwrap().trim_start().starts_with("model"), "{by}");
    assert!(by.contains("frobnicator-9") && by.contains("unknown model"), "{by}");
    let csv = String::from_utf8_lossy(&run(&["stats", "--csv", "--by", "day", p], None).stdout).into_owned();
    assert_eq!(csv.lines().next().unwrap(), "day,model,results,input,cache_read,cache_write,output,reasoning,cost_usd,stated_usd,estimated_usd,unpriced_results");
    assert!(csv.contains("\n2026-01-01,claude-sonnet-4-5-20250929,1,1000000,0,0,0,0,3.000000,0.000000,3.000000,0\n"), "{csv}");
    assert!(csv.contains("\n2026-01-02,frobnicator-9,1,10,0,0,10,0,0.000000,0.000000,0.000000,1\n"), "{csv}");
    assert_eq!(t["byDay"]["2026-01-02"]["byModel"]["claude-opus-4-6"]["results"], 1);
    let _ = std::fs::remove_file(f);
}

#[test]
fn stats_reads_folders_and_patterns_on_every_core_and_names_what_it_could_not_read() {
    let dir = std::env::temp_dir().join(format!("agentlines-cli-{}-folder", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a/b")).unwrap();
    for (i, sub) in ["", "a", "a/b"].iter().enumerate() {
        let line = session_line(&format!("m{i}"), "claude-opus-4-6", 100, 10, "2026-01-01T10:00:00Z");
        std::fs::write(dir.join(sub).join(format!("run{i}.jsonl")), line + "\n").unwrap();
    }
    std::fs::write(dir.join("a/picture.png"), [0u8, 1, 2]).unwrap(); // not a log: passed over
    std::fs::write(dir.join("a/binary.log"), [b'x', 0, b'y']).unwrap(); // a log name, binary: named
    let d = dir.to_str().unwrap();
    let o = run(&["stats", "--json", d], None);
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: Vec<&str> = report["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files.iter().all(|f| f.ends_with(".jsonl")), "the binary file shows nothing: {files:?}");
    assert_eq!(report["total"]["runs"], 3);
    assert_eq!(report["total"]["tokens"]["input"], 300);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("binary.log is binary"), "{err}");
    assert_eq!(o.status.code(), Some(2), "a refused file sets the status");
    // A pattern the shell left alone, a missing file and a folder with no log among them.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let pattern = format!("{d}/**/run*.jsonl");
    let missing = format!("{d}/no-such.jsonl");
    let empty = format!("{d}/empty");
    let o = run(&["stats", "--json", &pattern, &missing, &empty], None);
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["total"]["runs"], 3, "the rest is read");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no-such.jsonl: no such file"), "{err}");
    assert!(err.contains("empty holds no log file"), "{err}");
    assert_eq!(o.status.code(), Some(1));
    let nothing = format!("{d}/*.nothing");
    let o = run(&["stats", &nothing], None);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no file matches"), "{o:?}");
    assert_eq!(o.status.code(), Some(1));
    // Every core or one: the same report, files in the order given.
    let one = run(&["stats", "--json", "-j", "1", d], None);
    let many = run(&["stats", "--json", "-j", "4", d], None);
    assert_eq!(one.stdout, many.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// How long after a line is written its first entry shows on the command's output: `parse`
/// must not hold a line's entries while it waits for the next (a live tail). A line, a pause,
/// a line; the first entry must show within `bound` of its line, in every output format.
fn first_output_delay(mut cmd: Command, line: &[u8], needle: &str) -> std::time::Duration {
    use std::io::Read;
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("run");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            let _ = tx.send(seen.clone());
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(200)); // the command is up and waiting
    let start = std::time::Instant::now();
    stdin.write_all(line).unwrap();
    stdin.flush().unwrap();
    let deadline = std::time::Duration::from_secs(3);
    let mut took = deadline;
    while start.elapsed() < deadline {
        match rx.recv_timeout(deadline.saturating_sub(start.elapsed())) {
            Ok(seen) if String::from_utf8_lossy(&seen).contains(needle) => {
                took = start.elapsed();
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    stdin.write_all(b"second line\n").unwrap();
    drop(stdin);
    let _ = child.wait();
    let _ = reader.join();
    took
}

#[test]
fn parse_shows_each_line_while_the_input_waits() {
    // 0.3 s: the command answers in about a millisecond; the margin is for a loaded machine.
    let bound = std::time::Duration::from_millis(300);
    let line = b"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hello there\"}]}}\n";
    for (format, needle) in [("jsonl", "hello there"), ("text", "hello there"), ("markdown", "hello there")] {
        let mut cmd = Command::new(BIN);
        cmd.args(["parse", "-o", format, "-"]);
        let took = first_output_delay(cmd, line, needle);
        assert!(took < bound, "-o {format}: the first entry showed after {took:?} on a pipe");
    }
    // On a terminal: `script` gives the command a pseudo-terminal for its input and output.
    if Command::new("script").arg("--version").output().is_ok_and(|o| o.status.success()) {
        for format in ["jsonl", "text", "markdown"] {
            let mut cmd = Command::new("script");
            // No echo: what shows is the command's output, not the typed line.
            cmd.args(["-qfec", &format!("stty -echo; {BIN} parse -o {format} -"), "/dev/null"]);
            let took = first_output_delay(cmd, line, "hello there");
            assert!(took < bound, "-o {format}: the first entry showed after {took:?} on a terminal");
        }
    }
}

#[test]
fn parse_of_many_files_on_every_core_is_the_files_one_after_another() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/claude");
    let mut files: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".jsonl") && !p.contains(".expected."))
        .collect();
    files.sort();
    files.truncate(12);
    let ts = ["--ts", "2026-01-01T00:00:00Z"];
    for format in ["jsonl", "text", "markdown"] {
        let mut args = vec!["parse", "-o", format];
        args.extend(ts);
        args.extend(files.iter().map(String::as_str));
        let together = run(&args, None);
        assert!(together.status.success(), "{}", String::from_utf8_lossy(&together.stderr));
        let mut one_by_one = Vec::new();
        for f in &files {
            let mut args = vec!["parse", "-o", format, "--location"];
            args.extend(ts);
            args.push(f);
            one_by_one.extend(run(&args, None).stdout);
        }
        assert!(together.stdout == one_by_one, "-o {format}: the parallel output is not the files' one after another");
    }
}
