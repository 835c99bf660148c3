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
    Path::new(env!("CARGO_MANIFEST_DIR"))
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
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "exit code for {needle}: stderr {err}");
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
        &run(&["session", Path::new(env!("CARGO_MANIFEST_DIR")).to_str().unwrap()], None),
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
    assert_bad(&run(&["parse", "/no/such/stdout.log"], None), "no such file");
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
