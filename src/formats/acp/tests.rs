//! Unit tests of the ACP readers; the fixtures (tests/fixtures/acp/) cover whole streams.

use super::*;
use serde_json::{json, Value as J};

fn run(v: &J, state: Option<&mut State>) -> Vec<Entry> {
    crate::formats::common::json_test::run(parse, v, state)
}

fn kinds(out: &[Entry]) -> Vec<&'static str> {
    out.iter().map(Entry::kind).collect()
}

fn acpx_tool(status: &str, tag: &str, text: &str) -> J {
    json!({"type":"acpx.tool_call","name":"Bash","toolCallId":"t1","status":status,"text":text,"tag":tag})
}

#[test]
fn detection_claims_acpx_and_json_rpc_only() {
    let d = |v: J| crate::formats::common::json_test::detect(detect, &v);
    assert_eq!(d(json!({"type":"acpx.text_delta","text":"x"})), Confidence::Sure);
    assert_eq!(d(json!({"jsonrpc":"2.0","method":"session/update","params":{}})), Confidence::Sure);
    assert_eq!(d(json!({"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}})), Confidence::Sure);
    assert_eq!(d(json!({"jsonrpc":"2.0","id":1,"result":{}})), Confidence::Maybe);
    assert_eq!(d(json!({"type":"assistant","message":{}})), Confidence::No);
    assert_eq!(d(json!({"type":"req","id":"1","method":"agent"})), Confidence::No);
}

#[test]
fn one_card_per_tool_call_id_on_both_paths() {
    let lines = [
        acpx_tool("pending", "tool_call", "Bash (pending): ls apps"),
        acpx_tool("in_progress", "tool_call_update", "tool call (in_progress): {\"command\":\""),
        acpx_tool("completed", "tool_call_update", "tool call (completed): apps"),
    ];
    let mut state = State::default();
    for stateful in [false, true] {
        let mut all = Vec::new();
        for l in &lines {
            all.extend(run(l, stateful.then_some(&mut state)));
        }
        assert_eq!(kinds(&all), ["tool_call", "tool_result"], "stateful {stateful}");
        assert!(matches!(&all[0], Entry::ToolCall { name, input, .. } if name == "Bash" && input["text"] == "ls apps"));
        assert!(matches!(&all[1], Entry::ToolResult { content, is_error: false, tool_use_id, .. } if content == "apps" && tool_use_id == "t1"));
    }
}

#[test]
fn an_update_shows_only_what_it_adds() {
    let retitle = acpx_tool("in_progress", "tool_call_update", "Running: ls apps (in_progress)");
    let out = run(&retitle, None);
    assert!(matches!(&out[..], [Entry::System { text, .. }] if text == "Bash: Running: ls apps"));
    // Stateful: once per distinct note, and the card first when the call was never announced.
    let mut s = State::default();
    assert_eq!(kinds(&run(&retitle, Some(&mut s))), ["tool_call"]);
    run(&acpx_tool("pending", "tool_call", "Bash (pending)"), Some(&mut State::default()));
    let mut s = State::default();
    run(&acpx_tool("pending", "tool_call", "Bash (pending)"), Some(&mut s));
    assert_eq!(kinds(&run(&retitle, Some(&mut s))), ["system"]);
    assert!(run(&retitle, Some(&mut s)).is_empty());
    let failed = run(&acpx_tool("failed", "tool_call_update", "Bash (failed): exit 2"), Some(&mut s));
    assert!(matches!(&failed[..], [Entry::ToolResult { is_error: true, content, .. }] if content == "exit 2"));
}

#[test]
fn session_status_result_and_errors() {
    let init = run(&json!({"type":"acpx.session","agent":"claude","acpSessionId":"s-1","runtimeSessionName":"r","mode":"persistent","permissionMode":"approve-all","model":null}), None);
    assert!(matches!(&init[0], Entry::Init { model, session_id, .. } if model == "claude (persistent / approve-all)" && session_id == "s-1"));
    let st = run(&json!({"type":"acpx.status","text":"usage updated: 5550/200000","tag":"usage_update","used":5550,"size":200000,"cost":{"amount":1.1,"currency":"USD"}}), None);
    assert!(matches!(&st[0], Entry::System { text, .. } if text == "usage updated: context 5550/200000 tokens (3%) · cost 1.1 USD"), "{st:?}");
    let res = run(&json!({"type":"acpx.result","summary":"completed","stopReason":"end_turn","message":null}), None);
    assert!(matches!(&res[0], Entry::Result { text, subtype, is_error: false, .. } if text == "completed" && subtype == "end_turn"));
    let err = run(&json!({"type":"acpx.error","summary":"failed","stopReason":"Internal error","message":null}), None);
    assert!(matches!(&err[0], Entry::Stderr { text, .. } if text == "turn failed: Internal error"));
    let err = run(&json!({"type":"acpx.error","message":"boom","phase":"ensure_session","acpCode":"ACP_SESSION_INIT_FAILED","retryable":false,"childStderrTail":"auth missing"}), None);
    assert_eq!(kinds(&err), ["stderr", "stderr"]);
    assert!(matches!(&err[0], Entry::Stderr { text, .. } if text == "boom (phase ensure_session, ACP code ACP_SESSION_INIT_FAILED)"));
    let other = run(&json!({"type":"acpx.heartbeat","message":"still alive"}), None);
    assert!(matches!(&other[0], Entry::System { text, .. } if text == "acpx.heartbeat: still alive"));
}

fn update(u: J) -> J {
    json!({"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":u}})
}

#[test]
fn rpc_chunks_plan_and_permission() {
    let out = run(&update(json!({"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi"}})), None);
    assert_eq!(out, vec![Entry::assistant_delta("t", "Hi")]);
    let out = run(&update(json!({"sessionUpdate":"plan","entries":[{"content":"Read","priority":"high","status":"completed"},{"content":"Fix","priority":"low","status":"pending"}]})), None);
    assert!(matches!(&out[0], Entry::System { text, .. } if text == "plan:\n[x] Read (high priority)\n[ ] Fix"));
    let perm = json!({"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c","title":"Write a.txt"},
        "options":[{"optionId":"y","name":"Allow","kind":"allow_once"},{"optionId":"n","name":"Reject","kind":"reject_once"}]}});
    assert!(matches!(&run(&perm, None)[0], Entry::System { text, .. } if text == "permission requested: Write a.txt; options: Allow (allow_once), Reject (reject_once)"));
    let stop = json!({"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":4,"totalTokens":14,"cachedReadTokens":3}}});
    assert!(matches!(&run(&stop, None)[0], Entry::Result { input_tokens, cached_tokens, .. } if *input_tokens == 10.0 && *cached_tokens == 3.0));
    let err = json!({"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","data":{"details":"model overloaded"}}});
    assert!(matches!(&run(&err, None)[0], Entry::Stderr { text, .. } if text == "ACP error -32603: Internal error (model overloaded)"));
    assert!(run(&json!({"jsonrpc":"2.0","id":4,"result":{}}), None).is_empty());
}

#[test]
fn rpc_diff_blocks_become_a_unified_diff_once_per_call() {
    let call = update(json!({"sessionUpdate":"tool_call","toolCallId":"e1","title":"Edit a.txt","kind":"edit","status":"pending",
        "content":[{"type":"diff","path":"a.txt","oldText":"one\ntwo\n","newText":"one\n2\n"}]}));
    let done = update(json!({"sessionUpdate":"tool_call_update","toolCallId":"e1","status":"completed",
        "content":[{"type":"diff","path":"a.txt","oldText":"one\ntwo\n","newText":"one\n2\n"}]}));
    let out = run(&call, None);
    assert_eq!(kinds(&out), ["tool_call", "diff", "diff", "diff", "diff", "diff", "diff"]);
    assert!(matches!(&out[5], Entry::Diff { change_type: "remove", text, .. } if text == "-two"));
    let mut s = State::default();
    run(&call, Some(&mut s));
    let again = run(&done, Some(&mut s));
    assert_eq!(kinds(&again), ["tool_result"]);
    assert!(matches!(&again[0], Entry::ToolResult { content, .. } if content == "edited a.txt"));
}

#[test]
fn a_retitle_is_a_notice_and_a_repeated_title_adds_nothing_when_stateful() {
    // The engine names an update after the title it carries: `Terminal` → `pytest -q`.
    let card = json!({"type":"acpx.tool_call","name":"Terminal","toolCallId":"t3","status":"pending","text":"Terminal (pending)","tag":"tool_call"});
    let retitle = json!({"type":"acpx.tool_call","name":"pytest -q","toolCallId":"t3","status":"in_progress","text":"pytest -q (in_progress)","tag":"tool_call_update"});
    let repeat = json!({"type":"acpx.tool_call","name":"Terminal","toolCallId":"t3","status":"in_progress","text":"Terminal (in_progress)","tag":"tool_call_update"});
    assert!(matches!(&run(&retitle, None)[..], [Entry::System { text, .. }] if text == "tool: pytest -q"));
    assert!(matches!(&run(&repeat, None)[..], [Entry::System { text, .. }] if text == "tool: Terminal"));
    let mut s = State::default();
    run(&card, Some(&mut s));
    assert!(run(&repeat, Some(&mut s)).is_empty(), "the card's own name again adds nothing");
    assert_eq!(kinds(&run(&retitle, Some(&mut s))), ["system"]);
}

#[test]
fn an_untitled_rpc_update_names_its_tool_only_when_the_card_was_seen() {
    let call = update(json!({"sessionUpdate":"tool_call","toolCallId":"r1","title":"Read a.txt","kind":"read","status":"pending"}));
    let done = update(json!({"sessionUpdate":"tool_call_update","toolCallId":"r1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"x"}}]}));
    assert!(matches!(&run(&done, None)[..], [Entry::ToolResult { tool_name: None, tool_use_id, .. }] if tool_use_id == "r1"));
    let mut s = State::default();
    run(&call, Some(&mut s));
    let out = run(&done, Some(&mut s));
    assert!(matches!(&out[..], [Entry::ToolResult { tool_name: Some(n), .. }] if n == "Read a.txt"), "{out:?}");
}

#[test]
fn updates_without_the_json_rpc_wrapper_are_acp() {
    let d = |v: J| crate::formats::common::json_test::detect(detect, &v);
    let chunk = json!({"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}});
    assert_eq!(d(chunk.clone()), Confidence::Sure);
    assert_eq!(d(json!({"sessionId":"s","update":chunk.clone()})), Confidence::Sure);
    assert_eq!(d(json!({"timestamp":1,"method":"session/update","params":{"sessionId":"s","update":chunk.clone()}})), Confidence::Sure);
    assert_eq!(d(json!({"method":"_x.ai/session/update","params":{"update":chunk.clone()}})), Confidence::Sure);
    assert_eq!(d(json!({"method":"other","params":{"update":chunk.clone()}})), Confidence::No);
    assert_eq!(d(json!({"update":{"type":"x"}})), Confidence::No);
    for v in [chunk.clone(), json!({"sessionId":"s","update":chunk})] {
        assert_eq!(run(&v, None), vec![Entry::assistant_delta("t", "hi")]);
    }
}

#[test]
fn grok_turn_completed_is_the_result_only_where_no_response_reports_the_turn() {
    let u = json!({"sessionUpdate":"turn_completed","stop_reason":"end_turn","usage":{"inputTokens":10,"outputTokens":2,"cachedReadTokens":4}});
    let stored = json!({"timestamp":1,"method":"_x.ai/session/update","params":{"sessionId":"s","update":u.clone()}});
    assert!(matches!(&run(&stored, None)[0], Entry::Result { input_tokens, cached_tokens, subtype, .. } if *input_tokens == 10.0 && *cached_tokens == 4.0 && subtype == "end_turn"));
    let live = json!({"jsonrpc":"2.0","method":"_x.ai/session/update","params":{"sessionId":"s","update":u}});
    assert!(matches!(&run(&live, None)[..], [Entry::System { text, .. }] if text.starts_with("turn completed: end_turn")));
}

#[test]
fn a_restated_block_shows_once_when_stateful() {
    let chunk = |t: &str| json!({"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":t}}});
    let mut st = State::default();
    let mut shown = String::new();
    for t in ["The README describes ", "a tiny adder.", "The README describes a tiny adder."] {
        for e in run(&chunk(t), Some(&mut st)) {
            if let Entry::Assistant { text, .. } = e {
                shown.push_str(&text);
            }
        }
    }
    assert_eq!(shown, "The README describes a tiny adder.");
    // The final chunk sent twice.
    let mut st = State::default();
    let twice: Vec<Entry> = ["Done: 3 files changed.", "Done: 3 files changed."].iter().flat_map(|t| run(&chunk(t), Some(&mut st))).collect();
    assert_eq!(twice.len(), 1);
    // A short answer restated whole (a bridge's final copy): once, not `Hello!Hello!`.
    let mut st = State::default();
    let hello: Vec<Entry> = ["Hello!", "Hello!"].iter().flat_map(|t| run(&chunk(t), Some(&mut st))).collect();
    assert_eq!(hello.len(), 1);
    // Short repeated tokens are real text.
    let mut st = State::default();
    let ha: Vec<Entry> = ["ha", "ha"].iter().flat_map(|t| run(&chunk(t), Some(&mut st))).collect();
    assert_eq!(ha.len(), 2);
    // Stateless, each line stands alone (docs/formats/acp.md, "Restated text").
    assert_eq!(run(&chunk("The README describes a tiny adder."), None).len(), 1);
}

#[test]
fn a_cancelled_or_refused_turn_is_an_error_with_its_reason() {
    let ts = "2026-01-01T00:00:00.000Z";
    for line in [
        json!({"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}),
        json!({"type":"acpx.result","summary":"cancelled","stopReason":"cancelled"}),
        json!({"sessionUpdate":"turn_completed","stop_reason":"cancelled","usage":{"inputTokens":1}}),
    ] {
        let got = crate::parse_line_as(crate::Format::Acp, &line.to_string(), ts);
        let r = got.iter().find(|e| matches!(e, Entry::Result { .. })).unwrap_or_else(|| panic!("{line}: {got:?}"));
        assert!(matches!(r, Entry::Result { is_error: true, errors, .. } if errors.iter().any(|e| e == "the turn was cancelled")), "{line}: {r:?}");
    }
}
