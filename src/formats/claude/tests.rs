//! Unit tests for the tricky Claude cases; whole streams are covered by the goldens in
//! `tests/fixtures/claude/`.

use super::*;
use crate::parser::{parse_line, StdoutParser};
use crate::Format;
use crate::json;

fn v(s: &str) -> Value<'_> {
    json::read::parse(s).unwrap()
}

fn texts(entries: &[Entry]) -> Vec<(String, String)> {
    entries
        .iter()
        .map(|e| {
            let t = match e {
                Entry::Assistant { text, .. }
                | Entry::Thinking { text, .. }
                | Entry::User { text, .. }
                | Entry::System { text, .. }
                | Entry::Stdout { text, .. } => text.clone(),
                Entry::ToolResult { content, .. } => content.clone(),
                Entry::ToolCall { name, .. } => name.clone(),
                _ => String::new(),
            };
            (e.kind().to_owned(), t)
        })
        .collect()
}

fn pair(kind: &str, text: &str) -> (String, String) {
    (kind.to_owned(), text.to_owned())
}

#[test]
fn signature_only_thinking_and_thinking_token_ticks_show_nothing() {
    let alone = r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"","signature":"abc"}]},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;
    assert!(parse_line(alone, "t").is_empty());
    let tick = r#"{"type":"system","subtype":"thinking_tokens","estimated_tokens":50,"estimated_tokens_delta":50,"session_id":"s","uuid":"u"}"#;
    assert!(parse_line(tick, "t").is_empty());
    assert!(StdoutParser::new().parse_line(tick, "t").is_empty());
    let with_text = r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":""},{"type":"text","text":"hi"}]}}"#;
    assert_eq!(
        texts(&parse_line(with_text, "t")),
        vec![pair("assistant", "hi")]
    );
    let redacted =
        r#"{"type":"assistant","message":{"content":[{"type":"redacted_thinking","data":"xx"}]}}"#;
    assert_eq!(
        texts(&parse_line(redacted, "t")),
        vec![pair("thinking", "[redacted thinking]")]
    );
    // Whitespace-only text is the documented invisible case of assistant lines.
    let blank = r#"{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"\n\n"}]},"sessionId":"s","uuid":"u"}"#;
    assert!(parse_line(blank, "t").is_empty());
}

#[test]
fn tool_result_array_with_image_reads_as_text_and_marker() {
    let line = r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":[{"type":"text","text":"see:"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}]}}"#;
    let out = parse_line(line, "t");
    assert_eq!(
        out,
        vec![Entry::tool_result(
            "t",
            "toolu_1",
            None,
            "see:\n[image image/png]",
            true
        )]
    );
}

#[test]
fn result_errors_accept_strings_and_objects_and_fall_back_to_error() {
    let line = r#"{"type":"result","subtype":"error_during_execution","is_error":true,"total_cost_usd":0.5,"usage":{"input_tokens":3,"output_tokens":4,"cache_read_input_tokens":5},"errors":["plain",{"message":"msg"},{"error":"err"},{"code":"E1"},{"other":1},7,null]}"#;
    match &parse_line(line, "t")[0] {
        Entry::Result {
            errors,
            input_tokens,
            output_tokens,
            cached_tokens,
            cost_usd,
            is_error,
            subtype,
            ..
        } => {
            assert_eq!(
                errors,
                &["plain", "msg", "err", "E1", "other: 1", "7"]
            );
            assert_eq!(
                (*input_tokens, *output_tokens, *cached_tokens, *cost_usd),
                (3.0, 4.0, 5.0, 0.5)
            );
            assert!(*is_error);
            assert_eq!(subtype, "error_during_execution");
        }
        other => panic!("{other:?}"),
    }
    let single = r#"{"type":"result","subtype":"error","is_error":true,"error":"Rate limited"}"#;
    assert!(
        matches!(&parse_line(single, "t")[0], Entry::Result { errors, .. } if errors == &["Rate limited"])
    );
}

const START: &str = r#"{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_A","content":[]}},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;
const D1: &str = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;
const D2: &str = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;
const JSON_DELTA: &str = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;
const FULL: &str = r#"{"type":"assistant","message":{"id":"msg_A","content":[{"type":"text","text":"Hello"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"a":1}}]},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;

#[test]
fn stateless_stream_events_are_invisible_and_full_message_shows_everything() {
    for l in [START, D1, D2, JSON_DELTA] {
        assert!(parse_line(l, "t").is_empty(), "{l}");
    }
    assert_eq!(
        texts(&parse_line(FULL, "t")),
        vec![pair("assistant", "Hello"), pair("tool_call", "Bash")]
    );
}

#[test]
fn stateful_deltas_show_once_and_the_full_text_is_not_repeated() {
    let mut p = StdoutParser::with_format(Format::Claude);
    let mut got = Vec::new();
    for l in [START, D1, D2, JSON_DELTA, FULL] {
        got.extend(p.parse_line(l, "t"));
    }
    assert_eq!(
        got[..2],
        [
            Entry::assistant_delta("t", "Hel"),
            Entry::assistant_delta("t", "lo")
        ]
    );
    assert_eq!(texts(&got[2..]), vec![pair("tool_call", "Bash")]);
}

#[test]
fn stateful_mismatch_falls_back_to_the_full_text() {
    let mut p = StdoutParser::with_format(Format::Claude);
    p.parse_line(START, "t");
    p.parse_line(D1, "t");
    let full = FULL.replace("\"Hello\"", "\"Help\"");
    assert_eq!(
        texts(&p.parse_line(&full, "t"))[0],
        pair("assistant", "Help")
    );
}

#[test]
fn subagent_deltas_carry_the_parent() {
    let d = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}},"session_id":"s","parent_tool_use_id":"toolu_P","uuid":"u"}"#;
    let mut p = StdoutParser::with_format(Format::Claude);
    let mark = Entry::thinking_delta("t", crate::entry::SUBAGENT_TEXT).with_parent(Some("toolu_P"));
    let piece = |t: &str| Entry::thinking_delta("t", t).with_parent(Some("toolu_P"));
    // The block's first piece is preceded by the subagent mark, later pieces are not.
    assert_eq!(p.parse_line(d, "t"), vec![mark, piece("hmm")]);
    assert_eq!(p.parse_line(d, "t"), vec![piece("hmm")]);
}

#[test]
fn stateful_drops_exact_repeats_of_a_message() {
    let line = r#"{"type":"assistant","message":{"id":"msg_R","content":[{"type":"text","text":"lol"}]},"sessionId":"s","uuid":"u1"}"#;
    let again = line.replace("u1", "u2");
    let mut p = StdoutParser::with_format(Format::Claude);
    assert_eq!(p.parse_line(line, "t").len(), 1);
    assert!(p.parse_line(&again, "t").is_empty());
    // Stateless output stays complete.
    assert_eq!(parse_line(&again, "t").len(), 1);
}

#[test]
fn unknown_types_are_named_not_dumped() {
    let out = parse_line(
        r#"{"type":"zz_future","session_id":"s","uuid":"u","x":{"deep":1},"teamName":"red","agentName":"scout"}"#,
        "t",
    );
    // Ids and times say nothing: the names do (a row of ids only was clutter).
    assert_eq!(
        texts(&out),
        vec![pair("system", "event: zz_future (teamName: red, agentName: scout)")]
    );
    let mut out = Vec::new();
    parse(&v(r#"{"type":"zz_future"}"#), "", "t", None, &mut out);
    assert_eq!(texts(&out), vec![pair("system", "claude event: zz_future")]);
    let out = parse_line(
        r#"{"type":"system","subtype":"brand_new","content":"hello there"}"#,
        "t",
    );
    assert_eq!(texts(&out), vec![pair("system", "brand new: hello there")]);
}

#[test]
fn session_lines_read_cleanly() {
    let progress = r#"{"type":"progress","sessionId":"s","uuid":"u","parentToolUseID":"toolu_T","toolUseID":"agent_msg_1","data":{"type":"agent_progress","agentId":"a1","message":{"type":"assistant","message":{"id":"msg_S","content":[{"type":"tool_use","id":"toolu_S","name":"Read","input":{}}]}}}}"#;
    let out = parse_line(progress, "t");
    assert!(
        matches!(&out[..], [Entry::ToolCall { parent_tool_use_id: Some(p), .. }] if p == "toolu_T")
    );
    let hook = r#"{"type":"progress","sessionId":"s","uuid":"u","data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:Bash","command":"callback"}}"#;
    assert!(parse_line(hook, "t").is_empty(), "a tool call's hook is progress of that call");
    let start = hook.replace("PostToolUse", "SessionStart").replace("callback", "bd prime");
    assert_eq!(
        texts(&parse_line(&start, "t")),
        vec![pair("system", "hook SessionStart:Bash: bd prime")]
    );
    let cmd = r#"{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>"}}"#;
    assert_eq!(
        texts(&parse_line(cmd, "t")),
        vec![pair("user", "/model opus")]
    );
    let out = r#"{"type":"system","subtype":"local_command","sessionId":"s","uuid":"u","content":"<local-command-stdout>Set model to \u001b[1mopus\u001b[22m</local-command-stdout>"}"#;
    assert_eq!(
        texts(&parse_line(out, "t")),
        vec![pair("system", "command output: Set model to opus")]
    );
    // An empty output (after /clear) said nothing: no row, as a user turn or a system line.
    let empty = r#"{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"<local-command-stdout></local-command-stdout>"}}"#;
    assert!(parse_line(empty, "t").is_empty());
    assert!(parse_line(&out.replace("Set model to \\u001b[1mopus\\u001b[22m", " "), "t").is_empty());
    let compact = r#"{"type":"system","subtype":"compact_boundary","sessionId":"s","uuid":"u","compactMetadata":{"trigger":"auto","preTokens":170251}}"#;
    assert_eq!(
        texts(&parse_line(compact, "t")),
        vec![pair(
            "system",
            "compacted conversation (trigger: auto, 170k tokens before)"
        )]
    );
}

#[test]
fn detection_claims_only_claude_marks() {
    let cursor_init = v(
        r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/p","session_id":"d4","model":"Auto","permissionMode":"default"}"#,
    );
    assert_eq!(detect(&cursor_init), Confidence::Maybe);
    let cursor_user =
        v(r#"{"type":"user","message":{"role":"user","content":[]},"session_id":"d4"}"#);
    assert_eq!(detect(&cursor_user), Confidence::Maybe);
    let amp_user = v(
        r#"{"type":"user","message":{"role":"user","content":[]},"parent_tool_use_id":null,"session_id":"T-1"}"#,
    );
    assert_eq!(detect(&amp_user), Confidence::Maybe);
    let claude_init = v(
        r#"{"type":"system","subtype":"init","session_id":"s","tools":[],"claude_code_version":"2.1.7"}"#,
    );
    assert_eq!(detect(&claude_init), Confidence::Sure);
    let session_user =
        v(r#"{"type":"user","message":{"role":"user","content":"hi"},"sessionId":"s","uuid":"u"}"#);
    assert_eq!(detect(&session_user), Confidence::Sure);
    assert_eq!(
        detect(&v(r#"{"type":"stream_event","event":{}}"#)),
        Confidence::Sure
    );
    assert_eq!(
        detect(&v(r#"{"type":"thinking","subtype":"delta","text":"x"}"#)),
        Confidence::No
    );
}

/// The issue's bar over the whole shared corpus (skipped when it is absent; run with
/// `cargo test --release --lib corpus -- --ignored --nocapture`): every line of every
/// Claude file, stateless and stateful, gives no raw JSON as stdout, and every tool result
/// follows a tool call with the same id in that file (counts printed per file).
#[test]
#[ignore]
fn corpus_bar() {
    let roots = [
        "/work/shared/corpus/claude-stream-json",
        "/work/shared/corpus/claude-session-jsonl",
        "/work/shared/corpus/bench",
        "/work/shared/corpus/amp-stream-json",
    ];
    let mut files = Vec::new();
    for r in roots {
        let Ok(dir) = std::fs::read_dir(r) else {
            continue;
        };
        for f in dir.flatten() {
            let p = f.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if (name.ends_with(".jsonl") || name.ends_with(".ndjson"))
                && (name.starts_with("claude") || !r.ends_with("bench"))
            {
                files.push(p);
            }
        }
    }
    if files.is_empty() {
        eprintln!("corpus absent: skipped");
        return;
    }
    files.sort();
    let (mut total_lines, mut total_results, mut total_unpaired, mut raw) = (0, 0, 0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut p = StdoutParser::new();
        let mut calls = std::collections::HashSet::new();
        let (mut results, mut unpaired, mut lines, mut empty) = (0, Vec::new(), 0, 0);
        for (i, line) in text.lines().enumerate() {
            lines += 1;
            let stateful = p.parse_line(line, "2026-01-01T00:00:00.000Z");
            let stateless = parse_line(line, "2026-01-01T00:00:00.000Z");
            if stateless.is_empty() {
                empty += 1;
            }
            if stateful.len() < stateless.len() {
                eprintln!("DEDUP {}:{}: {:?}", f.display(), i + 1, texts(&stateless));
            }
            for e in stateful.iter().chain(&stateless) {
                if let Entry::Stdout { text, .. } = e {
                    if text.trim_start().starts_with('{') {
                        raw += 1;
                        eprintln!("RAW {}:{}", f.display(), i + 1);
                    }
                }
            }
            for e in &stateful {
                if let Entry::System { text, .. } = e {
                    if text.contains("event: ") {
                        eprintln!("UNKNOWN {}:{}: {text}", f.display(), i + 1);
                    }
                }
                match e {
                    Entry::ToolCall {
                        tool_use_id: Some(id),
                        ..
                    } => {
                        calls.insert(id.clone());
                    }
                    Entry::ToolResult { tool_use_id, .. } => {
                        results += 1;
                        if !calls.contains(tool_use_id) {
                            unpaired.push(format!("line {}: {tool_use_id}", i + 1));
                        }
                    }
                    _ => {}
                }
            }
        }
        eprintln!(
            "{}: {lines} lines ({empty} with no stateless entry), {results} tool results, {} without an earlier call {:?}, format {:?}",
            f.file_name().unwrap().to_string_lossy(),
            unpaired.len(),
            unpaired,
            p.format()
        );
        total_lines += lines;
        total_results += results;
        total_unpaired += unpaired.len();
    }
    eprintln!("TOTAL {} files, {total_lines} lines, {raw} raw-JSON stdout entries, {total_results} tool results, {total_unpaired} unpaired", files.len());
    assert_eq!(raw, 0);
}

/// Rough timing of the largest bench file (run with `--release -- --ignored --nocapture`).
#[test]
#[ignore]
fn bench_session_file() {
    let Ok(text) =
        std::fs::read_to_string("/work/shared/corpus/bench/claude-session-spotter-fa812bfe.jsonl")
    else {
        return;
    };
    for round in 0..5 {
        let t0 = std::time::Instant::now();
        let mut p = StdoutParser::new();
        let mut n = 0;
        for line in text.lines() {
            n += p.parse_line(line, "2026-01-01T00:00:00.000Z").len();
        }
        let parse_only = t0.elapsed();
        let t1 = std::time::Instant::now();
        let mut values = 0;
        for line in text.lines() {
            values += usize::from(json::read::parse(line).is_some());
        }
        let json = t1.elapsed();
        let parsed: Vec<Value> = text
            .lines()
            .filter_map(json::read::parse)
            .collect();
        let t2 = std::time::Instant::now();
        let mut state = State::default();
        let mut out = Vec::new();
        for v in &parsed {
            parse(
                v,
                "",
                "2026-01-01T00:00:00.000Z",
                Some(&mut state),
                &mut out,
            );
        }
        eprintln!(
            "round {round}: {n} entries in {parse_only:?} (serde_json alone: {json:?} for {values} lines; claude::parse alone: {:?})",
            t2.elapsed()
        );
    }
}

#[test]
fn stateful_results_carry_each_turns_cost_so_the_sum_is_the_session_cost() {
    let r = |cost: &str, sid: &str| {
        format!(r#"{{"type":"result","subtype":"success","session_id":"{sid}","total_cost_usd":{cost},"usage":{{"input_tokens":5,"output_tokens":2}},"result":"ok"}}"#)
    };
    let cost = |es: Vec<Entry>| match &es[..] {
        [Entry::Result { cost_usd, .. }] => *cost_usd,
        other => panic!("{other:?}"),
    };
    let mut p = StdoutParser::with_format(Format::Claude);
    assert_eq!(cost(p.parse_line(&r("0.25", "a"), "t")), 0.25);
    assert_eq!(cost(p.parse_line(&r("0.75", "a"), "t")), 0.5);
    assert_eq!(cost(p.parse_line(&r("0.125", "b"), "t")), 0.125, "a new session starts at 0");
    // Stateless: the line's own figure (documented in docs/stateless.md).
    assert_eq!(cost(parse_line(&r("0.75", "a"), "t")), 0.75);
}

#[test]
fn results_count_compaction_and_cache_writes_and_the_stateful_sum_is_the_process_total() {
    // Two prompts to one process (`--input-format stream-json`): each result restates the
    // process's running `total_cost_usd` and `modelUsage`; the first turn compacted, which
    // only `modelUsage` counts (its `usage` is the last query's).
    let r = |cost: f64, usage: (u32, u32), models: &str| {
        format!(
            r#"{{"type":"result","subtype":"success","session_id":"s","total_cost_usd":{cost},"usage":{{"input_tokens":{},"output_tokens":{},"cache_read_input_tokens":0,"cache_creation_input_tokens":0}},"modelUsage":{{{models}}},"result":"ok"}}"#,
            usage.0, usage.1
        )
    };
    let first = r(0.5, (10, 20), r#""claude-opus":{"inputTokens":900,"outputTokens":300,"cacheReadInputTokens":50,"cacheCreationInputTokens":40,"costUSD":0.5}"#);
    let second = r(
        0.75,
        (5, 7),
        r#""claude-opus":{"inputTokens":905,"outputTokens":307,"cacheReadInputTokens":80,"cacheCreationInputTokens":40,"costUSD":0.7},"claude-haiku":{"inputTokens":100,"outputTokens":3,"costUSD":0.05}"#,
    );
    let sums = |es: &[Entry]| {
        es.iter().fold([0.0; 5], |mut t, e| {
            if let Entry::Result { cost_usd, input_tokens, output_tokens, cached_tokens, cache_creation_tokens, .. } = e {
                for (a, b) in t.iter_mut().zip([*cost_usd, *input_tokens, *output_tokens, *cached_tokens, cache_creation_tokens.unwrap_or(0.0)]) {
                    *a += b;
                }
            }
            t
        })
    };
    // Stateless, one result per process (every Paperclip run): the process's totals,
    // compaction and cache writes included (the query's `usage` says 10 in / 20 out).
    assert_eq!(sums(&parse_line(&first, "t")), [0.5, 900.0, 300.0, 50.0, 40.0]);
    // Stateful over both: what each adds, so the sum is the last running total.
    let mut p = StdoutParser::with_format(Format::Claude);
    let mut all = p.parse_line(&first, "t");
    all.extend(p.parse_line(&second, "t"));
    assert_eq!(sums(&all), [0.75, 1005.0, 310.0, 80.0, 40.0]);
    // A line without `modelUsage` keeps its `usage` (older builds, Amp).
    let old = r#"{"type":"result","subtype":"success","session_id":"s","total_cost_usd":0.1,"usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":9},"result":"ok"}"#;
    assert_eq!(sums(&parse_line(old, "t")), [0.1, 3.0, 4.0, 0.0, 9.0]);
}

#[test]
fn qwen_session_start_is_the_init() {
    let start = r#"{"type":"system","subtype":"session_start","uuid":"u","session_id":"s1","model":"qwen3-coder-plus"}"#;
    assert_eq!(detect(&v(start)), Confidence::Sure);
    assert_eq!(parse_line(start, "t"), vec![Entry::init("t", "qwen3-coder-plus", "s1")]);
    // The dual-output channel's shape: the session in `data`.
    let bridged = r#"{"type":"system","subtype":"session_start","uuid":"u","data":{"session_id":"s2","cwd":"/w"}}"#;
    assert_eq!(parse_line(bridged, "t"), vec![Entry::init("t", "unknown", "s2")]);
}

#[test]
fn a_system_error_line_is_an_error() {
    // Qwen Code's `system/error` (its adapter shows it as stderr): the message, not a notice.
    let line = r#"{"type":"system","subtype":"error","error":{"message":"quota exceeded"}}"#;
    assert_eq!(parse_line(line, "t"), vec![Entry::stderr("t", "quota exceeded")]);
    let bare = r#"{"type":"system","subtype":"error","message":"no route"}"#;
    assert_eq!(parse_line(bare, "t"), vec![Entry::stderr("t", "no route")]);
}

#[test]
fn session_file_subagents_are_marked_and_nested_under_their_call() {
    let task = |id: &str, prompt: &str| {
        format!(r#"{{"type":"assistant","isSidechain":false,"uuid":"m-{id}","parentUuid":"p","sessionId":"s","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"{id}","name":"Task","input":{{"description":"d","prompt":"{prompt}"}}}}]}}}}"#)
    };
    let side = |uuid: &str, parent: Option<&str>, role: &str, text: &str| {
        let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
        format!(r#"{{"type":"{role}","isSidechain":true,"uuid":"{uuid}","parentUuid":{parent},"sessionId":"s","message":{{"role":"{role}","content":[{{"type":"text","text":"{text}"}}]}}}}"#)
    };
    // Two subagents started in parallel, their lines interleaved.
    let lines = [
        task("toolu_A", "Find A"),
        task("toolu_B", "Find B"),
        side("a1", None, "user", "Find A"),
        side("b1", None, "user", "Find B"),
        side("b2", Some("b1"), "assistant", "B found"),
        side("a2", Some("a1"), "assistant", "A found"),
    ];
    let mut p = StdoutParser::with_format(Format::Claude);
    let out: Vec<Vec<Entry>> = lines.iter().map(|l| p.parse_line(l, "t")).collect();
    assert!(out[2].is_empty() && out[3].is_empty(), "the prompts are in the calls' input: {out:?}");
    let parent_of = |es: &[Entry]| match es {
        [Entry::Assistant { parent_tool_use_id, .. }] => parent_tool_use_id.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(parent_of(&out[4]).as_deref(), Some("toolu_B"));
    assert_eq!(parent_of(&out[5]).as_deref(), Some("toolu_A"));
    // Read alone: still a subagent's (never the human's prompt, never the main agent).
    assert!(matches!(&parse_line(&lines[2], "t")[..], [Entry::System { text, .. }] if text.contains("Find A")));
    assert_eq!(parent_of(&parse_line(&lines[5], "t")).as_deref(), Some("sidechain"));
    let own_file = r#"{"type":"assistant","isSidechain":true,"agentId":"aac57f5","uuid":"x","parentUuid":"y","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}}"#;
    assert_eq!(parent_of(&parse_line(own_file, "t")).as_deref(), Some("agent-aac57f5"));
}

#[test]
fn harness_text_around_a_tool_result_is_not_the_tools_output() {
    let read = r#"{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"     1\tfn main() {}\n\n<system-reminder>\nWhenever you read a file, you should consider whether it looks malicious.\n</system-reminder>\n"}]}}"#;
    match &parse_line(read, "t")[..] {
        [Entry::ToolResult { content, .. }, Entry::System { text, .. }] => {
            assert_eq!(content, "     1\tfn main() {}\n");
            assert_eq!(text, "reminder: Whenever you read a file, you should consider whether it looks malicious.");
        }
        other => panic!("{other:?}"),
    }
    let err = r#"{"type":"user","uuid":"u2","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":"<tool_use_error>File does not exist.</tool_use_error>"}]}}"#;
    assert!(matches!(&parse_line(err, "t")[..], [Entry::ToolResult { content, is_error: true, .. }] if content == "File does not exist."));
    // An unclosed tag is left as the tool printed it.
    let open = read.replace("</system-reminder>", "");
    assert!(matches!(&parse_line(&open, "t")[..], [Entry::ToolResult { content, .. }] if content.contains("<system-reminder>")));
}

#[test]
fn a_reminder_repeated_after_every_read_shows_once_per_session() {
    let read = |id: &str, note: &str| {
        format!(
            r#"{{"type":"user","uuid":"{id}","sessionId":"s","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"{id}","content":"x\n<system-reminder>\n{note}\n</system-reminder>"}}]}}}}"#
        )
    };
    let kinds = |e: Vec<Entry>| e.iter().map(|e| e.kind()).collect::<Vec<_>>();
    let mut p = StdoutParser::with_format(Format::Claude);
    assert_eq!(kinds(p.parse_line(&read("t1", "Consider malware."), "t")), ["tool_result", "system"]);
    assert_eq!(kinds(p.parse_line(&read("t2", "Consider malware."), "t")), ["tool_result"]);
    assert_eq!(kinds(p.parse_line(&read("t3", "The todo list is empty."), "t")), ["tool_result", "system"]);
    assert_eq!(kinds(p.parse_line(&read("t4", "Consider malware."), "t")), ["tool_result"]);
    // Read alone, each line shows its reminder.
    assert_eq!(kinds(parse_line(&read("t4", "Consider malware."), "t")), ["tool_result", "system"]);
}

/// The `diff` entries of `entries`, as (change type, text).
fn diffs(entries: Vec<Entry>) -> Vec<(String, String)> {
    entries
        .into_iter()
        .filter_map(|e| match e {
            Entry::Diff { change_type, text, .. } => Some((change_type.to_string(), text)),
            _ => None,
        })
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn edit_and_write_calls_come_with_their_diff() {
    // stream-json (`session_id`): the call's fragments are all the log has.
    let call = |name: &str, input: &str| {
        format!(r#"{{"type":"assistant","uuid":"a","session_id":"s","message":{{"id":"m-{name}","role":"assistant","content":[{{"type":"tool_use","id":"toolu_{name}","name":"{name}","input":{input}}}]}}}}"#)
    };
    let diff = |line: &str| diffs(parse_line(line, "t"));
    let edit = call("Edit", r#"{"file_path":"/r/a.rs","old_string":"fn a() {\n    1\n}","new_string":"fn a() {\n    2\n}"}"#);
    assert!(matches!(parse_line(&edit, "t").first(), Some(Entry::ToolCall { .. })), "the call comes first");
    assert_eq!(
        diff(&edit),
        pairs(&[("file_header", "--- a/r/a.rs"), ("file_header", "+++ b/r/a.rs"), ("context", " fn a() {"), ("remove", "-    1"), ("add", "+    2"), ("context", " }")])
    );
    let write = call("Write", r#"{"file_path":"/r/n.txt","content":"hi\n"}"#);
    assert_eq!(diff(&write), pairs(&[("file_header", "+++ b/r/n.txt"), ("add", "+hi")]));
    let multi = call("MultiEdit", r#"{"file_path":"/r/b","edits":[{"old_string":"x","new_string":"y"},{"old_string":"p","new_string":"q"}]}"#);
    assert_eq!(diff(&multi).iter().filter(|(k, _)| k == "file_header").count(), 2, "one header for the file");
    assert_eq!(diff(&multi).len(), 6);
    assert!(diff(&call("Read", r#"{"file_path":"/r/a.rs"}"#)).is_empty());
}

/// A session file's edit result carries the file's own lines (`structuredPatch`): the diff
/// comes from there, with real line numbers, after the result; the call gives none (a refused
/// edit shows no diff at all).
#[test]
fn a_session_files_edit_diff_comes_from_its_structured_patch() {
    let diff = diffs;
    let call = r#"{"type":"assistant","uuid":"a","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_e","name":"Edit","input":{"file_path":"/r/a.rs","old_string":"    1","new_string":"    2"}}]}}"#;
    let result = r#"{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e","content":"The file /r/a.rs has been updated."}]},"toolUseResult":{"filePath":"/home/someone/projects/a-long-worktree-name/lib/a_module/live/transcript_computers.rs","oldString":"    1","newString":"    2","structuredPatch":[{"oldStart":40,"oldLines":3,"newStart":40,"newLines":3,"lines":[" fn a() {","-    1","+    2"," }"]}]}}"#;
    // A path longer than the 64 bytes a shape keeps of other strings.
    let want = pairs(&[("file_header", "--- a/home/someone/projects/a-long-worktree-name/lib/a_module/live/transcript_computers.rs"), ("file_header", "+++ b/home/someone/projects/a-long-worktree-name/lib/a_module/live/transcript_computers.rs"), ("hunk", "@@ -40,3 +40,3 @@"), ("context", " fn a() {"), ("remove", "-    1"), ("add", "+    2"), ("context", " }")]);
    for stateful in [false, true] {
        let mut p = StdoutParser::with_format(Format::Claude);
        let mut read = |l: &str| if stateful { p.parse_line(l, "t") } else { parse_line(l, "t") };
        assert!(diff(read(call)).is_empty(), "no diff from the call's fragment");
        let got = read(result);
        assert!(matches!(got.first(), Some(Entry::ToolResult { .. })), "the result comes first");
        assert_eq!(diff(got), want);
    }
    // Refused: an error result, no structured patch, no diff.
    let refused = r#"{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e","content":"The user doesn't want to proceed","is_error":true}]},"toolUseResult":"Error: The user doesn't want to proceed"}"#;
    assert!(diff(parse_line(refused, "t")).is_empty());
    // A new file: its content as added lines.
    let created = r#"{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_w","content":"File created successfully at: /r/n.txt"}]},"toolUseResult":{"type":"create","filePath":"/r/n.txt","content":"hi\nthere\n","structuredPatch":[]}}"#;
    assert_eq!(diff(parse_line(created, "t")).iter().filter(|(k, _)| k == "add").count(), 2);
}

#[test]
fn a_session_files_leaf_title_is_not_shown_between_a_call_and_its_result() {
    let title = r#"{"type":"summary","summary":"Casual Chat: Simple Greeting Exchange","leafUuid":"0c0a1f0e-3f2b-4c41-9b2a-6f0f1f1f1f1f"}"#;
    assert!(parse_line(title, "t").is_empty());
    assert!(StdoutParser::with_format(Format::Claude).parse_line(title, "t").is_empty());
}

/// A background subagent's `task_notification` carries its whole report as `summary`, which
/// its last message already showed: the notice keeps the first line.
#[test]
fn task_notification_shows_the_first_line_of_a_report() {
    let line = r#"{"type":"system","subtype":"task_notification","task_id":"b0","tool_use_id":"toolu_1","status":"completed","output_file":"","summary":"Command completed successfully. \n\nOutput: `agent-done`\n\nThe bash command slept.","session_id":"s"}"#;
    assert_eq!(texts(&parse_line(line, "t")), [pair("system", "task completed: Command completed successfully. …")]);
    let one = r#"{"type":"system","subtype":"task_notification","task_id":"b1","status":"completed","summary":"Background command \"x\" completed (exit code 0)","session_id":"s"}"#;
    assert_eq!(texts(&parse_line(one, "t")), [pair("system", "task completed: Background command \"x\" completed (exit code 0)")]);
}

#[test]
fn a_quoted_harness_tag_inside_tool_output_is_the_tools_text() {
    // A grep over transcripts prints the tag inside its output: nothing is cut, no notice made.
    let grep = r#"{"type":"user","uuid":"u3","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_3","content":"a.jsonl:12: <system-reminder>be careful</system-reminder> said the harness\nb.jsonl:3: done"}]}}"#;
    match &parse_line(grep, "t")[..] {
        [Entry::ToolResult { content, .. }] => assert!(content.contains("<system-reminder>be careful</system-reminder> said"), "{content}"),
        other => panic!("{other:?}"),
    }
}
