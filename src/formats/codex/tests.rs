//! Unit tests for the tricky Codex cases: detection marks, stateless vs stateful pairing,
//! rollout duplicates, delta suppression, patch extraction, bounds, odd input.

use super::*;
use crate::parser::{parse_line, StdoutParser};
use serde_json::{json, Value};

fn detect(v: &Value) -> Confidence {
    crate::formats::common::json_test::detect(super::detect, v)
}

fn v(line: &str) -> Value {
    serde_json::from_str(line).unwrap()
}

fn kinds(es: &[Entry]) -> Vec<&'static str> {
    es.iter().map(Entry::kind).collect()
}

fn stateful(lines: &[&str]) -> Vec<Entry> {
    let mut p = StdoutParser::new();
    lines.iter().flat_map(|l| p.parse_line(l, "t")).collect()
}

fn stateless(lines: &[&str]) -> Vec<Entry> {
    lines.iter().flat_map(|l| parse_line(l, "t")).collect()
}

fn texts(es: &[Entry]) -> Vec<String> {
    es.iter()
        .map(|e| match e {
            Entry::Assistant { text, .. }
            | Entry::Thinking { text, .. }
            | Entry::User { text, .. }
            | Entry::System { text, .. } => text.clone(),
            other => other.kind().to_owned(),
        })
        .collect()
}

#[test]
fn detection_marks() {
    let sure = [
        r#"{"type":"thread.started","thread_id":"x"}"#,
        r#"{"type":"item.completed","item":{"id":"i","type":"todo_list","items":[]}}"#,
        r#"{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}"#,
        r#"{"id":"1","msg":{"type":"task_started"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count"}}"#,
        r#"{"sandbox":"read-only","model":"o4-mini","approval":"never"}"#,
        r#"{"id":"s","timestamp":"t","instructions":null}"#,
    ];
    for l in sure {
        assert_eq!(detect(&v(l)), Confidence::Sure, "{l}");
    }
    let maybe = [
        r#"{"type":"turn.started"}"#,
        r#"{"type":"error","message":"boom"}"#,
        r#"{"prompt":"do it"}"#,
        r#"{"model":"o4-mini","provider":"openai"}"#,
        r#"{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}"#,
    ];
    for l in maybe {
        assert_eq!(detect(&v(l)), Confidence::Maybe, "{l}");
    }
    let no = [
        r#"{"type":"system","subtype":"init","session_id":"s","model":"m"}"#,
        r#"{"type":"error","severity":"error","message":"x","timestamp":"t"}"#,
        r#"{"type":"init","session_id":"s","model":"m","timestamp":"t"}"#,
        r#"{"type":"message","role":"assistant","content":"hi"}"#,
    ];
    for l in no {
        assert_eq!(detect(&v(l)), Confidence::No, "{l}");
    }
}

const STARTED: &str = r#"{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#;
const COMPLETED: &str = r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}"#;

#[test]
fn command_started_then_completed_pairs_in_both_paths() {
    let lines = [STARTED, COMPLETED];
    assert_eq!(kinds(&stateless(&lines)), ["tool_call", "tool_result"]);
    assert_eq!(kinds(&stateful(&lines)), ["tool_call", "tool_result"]);
}

#[test]
fn command_completed_alone_gets_its_call_when_stateful() {
    assert_eq!(kinds(&stateless(&[COMPLETED])), ["tool_result"]);
    let out = stateful(&[COMPLETED]);
    assert_eq!(kinds(&out), ["tool_call", "tool_result"]);
    match &out[0] {
        Entry::ToolCall { input, tool_use_id, .. } => {
            assert_eq!(input, &json!({"command": "ls"}));
            assert_eq!(tool_use_id.as_deref(), Some("item_1"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn todo_repeats_are_dropped_only_when_stateful() {
    let a = r#"{"type":"item.started","item":{"id":"t","type":"todo_list","items":[{"text":"x","completed":false}]}}"#;
    let b = r#"{"type":"item.updated","item":{"id":"t","type":"todo_list","items":[{"text":"x","completed":false}]}}"#;
    let c = r#"{"type":"item.completed","item":{"id":"t","type":"todo_list","items":[{"text":"x","completed":true}]}}"#;
    assert_eq!(stateless(&[a, b, c]).len(), 3);
    let out = stateful(&[a, b, c]);
    assert_eq!(texts(&out), ["todo list:\n[ ] x", "todo list:\n[x] x"]);
}

#[test]
fn plan_deltas_replace_the_full_plan_when_stateful() {
    let d = r#"{"type":"item.plan.delta","item_id":"p","delta":"step 1"}"#;
    let full = r#"{"type":"item.completed","item":{"id":"p","type":"plan","text":"step 1"}}"#;
    let lock = r#"{"type":"thread.started","thread_id":"x"}"#;
    assert_eq!(kinds(&stateless(&[d, full])), ["assistant", "assistant"]);
    assert_eq!(kinds(&stateful(&[lock, d, full])), ["init", "assistant"]);
}

#[test]
fn legacy_deltas_cover_the_full_message_when_stateful() {
    let lines = [
        r#"{"id":"1","msg":{"type":"agent_message_delta","delta":"Hel"}}"#,
        r#"{"id":"1","msg":{"type":"agent_message_delta","delta":"lo"}}"#,
        r#"{"id":"1","msg":{"type":"agent_message","message":"Hello"}}"#,
        r#"{"id":"1","msg":{"type":"agent_message","message":"Second"}}"#,
    ];
    assert_eq!(texts(&stateless(&lines)), ["Hel", "lo", "Hello", "Second"]);
    assert_eq!(texts(&stateful(&lines)), ["Hel", "lo", "Second"]);
    // Deltas that do not add up to the full text: the full text is shown.
    let partial = [
        r#"{"id":"1","msg":{"type":"agent_reasoning_delta","delta":"Hel"}}"#,
        r#"{"id":"1","msg":{"type":"agent_reasoning","text":"Hello there"}}"#,
    ];
    assert_eq!(texts(&stateful(&partial)), ["Hel", "Hello there"]);
}

fn rollout(ty: &str, payload: Value) -> String {
    json!({"timestamp": "2025-01-01T00:00:00Z", "type": ty, "payload": payload}).to_string()
}

#[test]
fn rollout_duplicates_show_once_in_each_path() {
    let user_item = rollout(
        "response_item",
        json!({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}),
    );
    let user_event = rollout("event_msg", json!({"type":"user_message","message":"hi"}));
    let think_event = rollout("event_msg", json!({"type":"agent_reasoning","text":"**plan**"}));
    let agent_event = rollout("event_msg", json!({"type":"agent_message","message":"done"}));
    let think_item = rollout(
        "response_item",
        json!({"type":"reasoning","summary":[{"type":"summary_text","text":"**plan**"}]}),
    );
    let agent_item = rollout(
        "response_item",
        json!({"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}),
    );
    let lines: Vec<&str> =
        [&user_item, &user_event, &think_event, &agent_event, &think_item, &agent_item]
            .iter()
            .map(|s| s.as_str())
            .collect();
    let sl = stateless(&lines);
    let sf = stateful(&lines);
    assert_eq!(texts(&sl), ["hi", "**plan**", "done"]);
    assert_eq!(texts(&sf), ["hi", "**plan**", "done"]);
    // Stateless shows the response_item copies (lines 5 and 6), stateful the first ones.
    assert_eq!(kinds(&stateless(&lines[2..4])), Vec::<&str>::new());
    assert_eq!(kinds(&stateful(&lines[2..4])), ["thinking", "assistant"]);
}

#[test]
fn rollout_tool_events_and_items_pair_once_by_call_id() {
    let begin = rollout(
        "event_msg",
        json!({"type":"exec_command_begin","call_id":"c1","command":["ls"],"cwd":"/"}),
    );
    let end = rollout(
        "event_msg",
        json!({"type":"exec_command_end","call_id":"c1","stdout":"a","stderr":"","exit_code":0,"duration":{"secs":0,"nanos":0}}),
    );
    let call = rollout(
        "response_item",
        json!({"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}),
    );
    let output = rollout(
        "response_item",
        json!({"type":"function_call_output","call_id":"c1","output":"a"}),
    );
    let lines = [begin.as_str(), end.as_str(), call.as_str(), output.as_str()];
    assert_eq!(kinds(&stateless(&lines)), ["tool_call", "tool_result"]);
    let sf = stateful(&lines);
    assert_eq!(kinds(&sf), ["tool_call", "tool_result"]);
    assert!(matches!(&sf[0], Entry::ToolCall { name, .. } if name == "shell"));
}

#[test]
fn injected_user_context_becomes_system() {
    let env = rollout(
        "response_item",
        json!({"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/r</cwd>\n  <shell>zsh</shell>\n</environment_context>"}]}),
    );
    let not_injected = rollout(
        "response_item",
        json!({"type":"message","role":"user","content":[{"type":"input_text","text":"<b>bold</b> is html"}]}),
    );
    for odd in ["<a</a>", "<a>", "<tag→x</tag>", "<>x</>", "<a=1>x</a=1>"] {
        assert!(response::injected_context(odd).is_none(), "{odd}");
    }
    // Multi-byte text around the tag is sliced safely; tag names are ASCII, as Codex writes them.
    assert_eq!(response::injected_context("<note>é</note>").as_deref(), Some("note:\né"));
    assert!(response::injected_context("<é>x</é>").is_none());
    let out = stateless(&[&env, &not_injected]);
    assert_eq!(texts(&out), ["environment: cwd /r · shell zsh", "<b>bold</b> is html"]);
    assert_eq!(kinds(&out), ["system", "user"]);
}

#[test]
fn patches_are_found_raw_heredoc_and_escaped() {
    let heredoc = "apply_patch <<'P'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nP";
    assert_eq!(
        diff::find_patches(heredoc),
        ["*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"]
    );
    let escaped = r#"f("*** Begin Patch\n*** Delete File: b\n*** End Patch"); g("*** Begin Patch\n*** Update File: c\n@@\n-1\n+2\n*** End Patch")"#;
    let found = diff::find_patches(escaped);
    assert_eq!(found.len(), 2);
    assert!(found[1].contains("*** Update File: c\n@@\n-1\n+2"));
    assert!(diff::find_patches("no patch here").is_empty());
    // Unterminated envelope: taken to the end.
    assert_eq!(diff::find_patches("*** Begin Patch\n+x").len(), 1);
}

#[test]
fn huge_patches_are_cut_with_one_truncation_entry() {
    let mut patch = "*** Begin Patch\n*** Add File: big\n".to_owned();
    for i in 0..1000 {
        patch.push_str(&format!("+line {i}\n"));
    }
    patch.push_str("*** End Patch");
    let mut out = Vec::new();
    let mut budget = diff::Budget::default();
    diff::envelope(&patch, "t", &mut budget, &mut out);
    budget.finish("t", &mut out);
    assert_eq!(out.len(), diff::MAX_DIFF_LINES + 1);
    assert!(
        matches!(out.last(), Some(Entry::Diff { change_type: "truncation", text, .. }) if text.contains("601"))
    );
}

#[test]
fn state_is_bounded() {
    let mut r = Recent::default();
    for k in 0..(MAX_REMEMBERED as u64 + 10) {
        r.insert(k);
    }
    assert_eq!(r.keys.len(), MAX_REMEMBERED);
    assert!(!r.contains(0) && r.contains(MAX_REMEMBERED as u64 + 9));
    let mut d = DeltaBuffer::default();
    let chunk = "x".repeat(64 * 1024);
    for _ in 0..10 {
        d.push(&chunk);
    }
    assert!(d.text.len() <= MAX_DELTA_BYTES && d.overflow);
    assert!(d.covers(&"x".repeat(640 * 1024)));
}

#[test]
fn outputs_and_commands_read_every_shape() {
    assert_eq!(command_text(Some(&crate::json::Value::from_json(&json!(["bash", "-lc", "ls -1"])))), "bash -lc 'ls -1'");
    assert_eq!(command_text(Some(&crate::json::Value::from_json(&json!(["echo", "it's"])))), r"echo 'it'\''s'");
    let line = rollout(
        "response_item",
        json!({"type":"function_call_output","call_id":"c","output":"{\"output\":\"oops\",\"metadata\":{\"exit_code\":2,\"duration_seconds\":1.25}}"}),
    );
    match &stateless(&[&line])[0] {
        Entry::ToolResult { content, is_error, duration_ms, .. } => {
            assert_eq!(content, "oops\nexit code 2");
            assert!(*is_error);
            assert_eq!(*duration_ms, Some(1250));
        }
        other => panic!("{other:?}"),
    }
}

/// Every field of every fixture-like line replaced by values of the wrong type: nothing
/// panics and nothing comes out as raw JSON.
#[test]
fn odd_values_never_panic() {
    let bases = [
        STARTED,
        COMPLETED,
        r#"{"type":"item.completed","item":{"id":"i","type":"mcp_tool_call","server":"s","tool":"t","arguments":{},"result":{"content":[]},"error":null,"status":"completed"}}"#,
        r#"{"type":"item.completed","item":{"id":"i","type":"file_change","changes":[{"path":"p","kind":"add"}],"status":"completed"}}"#,
        r#"{"id":"1","msg":{"type":"patch_apply_begin","call_id":"c","changes":{"p":{"update":{"unified_diff":"@@\n+x"}}}}}"#,
        r#"{"id":"1","msg":{"type":"mcp_tool_call_end","call_id":"c","invocation":{"server":"s","tool":"t"},"result":{"Ok":{"content":[]}}}}"#,
        r#"{"id":"1","msg":{"type":"token_count","info":{"total_token_usage":{},"last_token_usage":{}}}}"#,
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<a>"}]}}"#,
        r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s","git":{"branch":"b"}}}"#,
        r#"{"timestamp":"t","type":"turn_context","payload":{"model":"m","sandbox_policy":"x"}}"#,
    ];
    let odd = [json!(null), json!(7), json!([1, {"a": null}]), json!({"type": 3}), json!("")];
    for base in bases {
        let orig = v(base);
        let paths = leaf_paths(&orig, Vec::new());
        for p in &paths {
            for o in &odd {
                let mut m = orig.clone();
                set_path(&mut m, p, o.clone());
                let line = m.to_string();
                let mut sp = StdoutParser::new();
                for e in parse_line(&line, "t").into_iter().chain(sp.parse_line(&line, "t")) {
                    if let Entry::Stdout { text, .. } = &e {
                        assert!(!text.trim_start().starts_with('{'), "{line}");
                    }
                }
            }
        }
    }
}

fn leaf_paths(v: &Value, prefix: Vec<String>) -> Vec<Vec<String>> {
    let mut out = vec![prefix.clone()];
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let mut p = prefix.clone();
                p.push(k.clone());
                out.extend(leaf_paths(x, p));
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let mut p = prefix.clone();
                p.push(i.to_string());
                out.extend(leaf_paths(x, p));
            }
        }
        _ => {}
    }
    out
}

fn set_path(v: &mut Value, path: &[String], new: Value) {
    let Some((last, init)) = path.split_last() else {
        *v = new;
        return;
    };
    let mut cur = v;
    for k in init {
        cur = match cur {
            Value::Object(m) => m.get_mut(k).unwrap(),
            Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
            _ => return,
        };
    }
    match cur {
        Value::Object(m) => {
            m.insert(last.clone(), new);
        }
        Value::Array(a) => a[last.parse::<usize>().unwrap()] = new,
        _ => {}
    }
}

#[test]
fn rollout_text_said_again_in_a_later_turn_is_shown_again() {
    // Each turn records "Done." twice (event_msg + response_item): one is shown per turn,
    // and the second turn's "Done." is not mistaken for a copy of the first's.
    let ev = r#"{"timestamp":"2025-09-24T20:12:23.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Done."}}"#;
    let ri = r#"{"timestamp":"2025-09-24T20:12:23.100Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}"#;
    let out = stateful(&[ev, ri, ev, ri]);
    let shown: Vec<_> = out.iter().filter(|e| matches!(e, Entry::Assistant { .. })).collect();
    assert_eq!(shown.len(), 2, "{out:?}");
    let out = stateless(&[ev, ri, ev, ri]);
    assert_eq!(out.iter().filter(|e| matches!(e, Entry::Assistant { .. })).count(), 2);
}

#[test]
fn stateful_task_results_carry_each_turns_tokens() {
    let count = |i: u32, o: u32| {
        format!(r#"{{"id":"1","msg":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{i},"output_tokens":{o},"total_tokens":{}}},"last_token_usage":{{"input_tokens":1,"output_tokens":1}}}}}}}}"#, i + o)
    };
    let done = r#"{"id":"1","msg":{"type":"task_complete","last_agent_message":"ok"}}"#;
    let mut p = crate::parser::StdoutParser::with_format(crate::Format::Codex);
    let mut sums = Vec::new();
    for (i, o) in [(100, 10), (250, 30)] {
        for e in p.parse_line(&count(i, o), "t").into_iter().chain(p.parse_line(done, "t")) {
            if let Entry::Result { input_tokens, output_tokens, .. } = e {
                sums.push((input_tokens, output_tokens));
            }
        }
    }
    // Each count is a model call's result carrying what the session total grew by (here
    // more than its `last_token_usage`: counts were missed); the task's result adds nothing.
    assert_eq!(sums, [(100.0, 10.0), (0.0, 0.0), (150.0, 20.0), (0.0, 0.0)]);
}

#[test]
fn a_rollout_without_task_complete_still_counts_every_model_call_on_both_paths() {
    let count = |ti: u32, to: u32, li: u32, lo: u32| {
        format!(r#"{{"timestamp":"2025-09-25T02:12:31.531Z","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{ti},"cached_input_tokens":0,"output_tokens":{to},"total_tokens":{}}},"last_token_usage":{{"input_tokens":{li},"cached_input_tokens":0,"output_tokens":{lo},"total_tokens":{}}}}}}}}}"#, ti + to, li + lo)
    };
    let lines = [count(3587, 229, 3587, 229), count(7571, 397, 3984, 168), count(7571, 397, 3984, 168)];
    let sum = |es: Vec<Entry>| {
        es.iter().fold((0.0, 0.0), |(i, o), e| match e {
            Entry::Result { input_tokens, output_tokens, .. } => (i + input_tokens, o + output_tokens),
            _ => (i, o),
        })
    };
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    // Stateful: the repeated count (same total) is not counted again.
    assert_eq!(sum(stateful(&refs)), (7571.0, 397.0));
    assert_eq!(sum(stateless(&refs[..2])), (7571.0, 397.0));
}

#[test]
fn generic_tool_use_and_tool_result_items_are_cards_and_results() {
    let out = stateless(&[
        r#"{"type":"item.started","item":{"id":"i7","type":"tool_use","name":"search","input":{"q":"x"}}}"#,
        r#"{"type":"item.completed","item":{"id":"i7","type":"tool_use","name":"search","status":"failed","error":{"message":"no index"}}}"#,
        r#"{"type":"item.completed","item":{"id":"i8","type":"tool_result","tool_use_id":"i7","output":"3 hits"}}"#,
    ]);
    assert_eq!(kinds(&out), ["tool_call", "tool_result", "tool_result"]);
    assert!(matches!(&out[0], Entry::ToolCall { name, tool_use_id: Some(id), .. } if name == "search" && id == "i7"));
    assert!(matches!(&out[1], Entry::ToolResult { content, is_error: true, .. } if content == "no index"));
    assert!(matches!(&out[2], Entry::ToolResult { tool_use_id, content, is_error: false, .. } if tool_use_id == "i7" && content == "3 hits"));
}

#[test]
fn exec_turn_usage_is_the_threads_running_total_and_counts_once_when_stateful() {
    // `codex exec --json` then `codex exec resume --json` on the same thread: each
    // `turn.completed` states the thread's total so far.
    let turn = |i: u32, c: u32, o: u32| {
        format!(r#"{{"type":"turn.completed","usage":{{"input_tokens":{i},"cached_input_tokens":{c},"output_tokens":{o}}}}}"#)
    };
    let log = [
        r#"{"type":"thread.started","thread_id":"019a-t"}"#.to_owned(),
        turn(31_000, 20_000, 984),
        r#"{"type":"thread.started","thread_id":"019a-t"}"#.to_owned(),
        turn(31_010, 20_000, 1_007),
    ];
    let sum = |es: &[Entry]| {
        es.iter().fold((0.0, 0.0, 0.0), |t, e| match e {
            Entry::Result { input_tokens, cached_tokens, output_tokens, .. } => {
                (t.0 + input_tokens, t.1 + cached_tokens, t.2 + output_tokens)
            }
            _ => t,
        })
    };
    let mut p = StdoutParser::with_format(crate::formats::Format::Codex);
    let all: Vec<Entry> = log.iter().flat_map(|l| p.parse_line(l, "t")).collect();
    assert_eq!(sum(&all), (31_010.0, 20_000.0, 1_007.0), "the thread's total, once");
    // Read alone, a line is the thread's total so far.
    assert_eq!(sum(&parse_line(&log[3], "t")), (31_010.0, 20_000.0, 1_007.0));
    // Another thread (a smaller total) counts from 0.
    assert_eq!(sum(&p.parse_line(&turn(5, 0, 6), "t")), (5.0, 0.0, 6.0));
}
