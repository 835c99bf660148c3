//! Unit tests of the OpenClaw module.

use super::*;
use serde_json::{json, Value};

fn detect(v: &Value) -> Confidence {
    crate::formats::common::json_test::detect(super::detect, v)
}

fn run(v: &Value, state: Option<&mut State>) -> Vec<Entry> {
    crate::formats::common::json_test::run(parse, v, state)
}

fn chat_frame(state: &str, text: &str) -> Value {
    json!({"type":"event","event":"chat","seq":1,"payload":{"runId":"r","sessionKey":"main","seq":1,"state":state,
        "message":{"role":"assistant","content":[{"type":"text","text":text}]}}})
}

#[test]
fn cumulative_chat_deltas_stream_once() {
    assert!(run(&chat_frame("delta", "Hel"), None).is_empty());
    assert!(
        matches!(&run(&chat_frame("final", "Hello!"), None)[0], Entry::Assistant { text, delta: None, .. } if text == "Hello!")
    );
    let mut s = State::default();
    let a = run(&chat_frame("delta", "Hel"), Some(&mut s));
    let b = run(&chat_frame("delta", "Hello"), Some(&mut s));
    let c = run(&chat_frame("final", "Hello!"), Some(&mut s));
    let texts: Vec<String> = a
        .iter()
        .chain(&b)
        .chain(&c)
        .map(|e| match e {
            Entry::Assistant { text, .. } => text.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(texts, ["Hel", "lo", "!"]);
    // The same deltas again after the run was finished start a fresh run.
    assert_eq!(run(&chat_frame("final", "Hello!"), Some(&mut s)).len(), 1);
}

#[test]
fn agent_assistant_and_chat_share_one_shown_text() {
    let mut s = State::default();
    let agent = |t: &str, d: &str| json!({"type":"event","event":"agent","payload":{"runId":"r","seq":1,"stream":"assistant","ts":1,"data":{"text":t,"delta":d}}});
    assert_eq!(run(&agent("Hi", "Hi"), Some(&mut s)).len(), 1);
    assert!(run(&chat_frame("delta", "Hi"), Some(&mut s)).is_empty());
    assert_eq!(run(&agent("Hi there", " there"), Some(&mut s)).len(), 1);
    assert!(run(&chat_frame("final", "Hi there"), Some(&mut s)).is_empty());
    assert!(run(&agent("Hi", "Hi"), None).is_empty());
}

#[test]
fn tools_lifecycle_and_frames() {
    let start = json!({"type":"event","event":"agent","payload":{"runId":"r","stream":"tool","data":{"phase":"start","name":"exec","toolCallId":"t1","args":{"command":"ls"}}}});
    let result = json!({"type":"event","event":"agent","payload":{"runId":"r","stream":"tool","data":{"phase":"result","name":"exec","toolCallId":"t1","result":{"content":[{"type":"text","text":"a.txt"}]},"isError":false}}});
    assert!(
        matches!(&run(&start, None)[0], Entry::ToolCall { tool_use_id: Some(id), .. } if id == "t1")
    );
    assert!(
        matches!(&run(&result, None)[0], Entry::ToolResult { content, .. } if content == "a.txt")
    );
    let err = json!({"type":"event","event":"agent","payload":{"runId":"r","stream":"lifecycle","data":{"phase":"error","error":"model overloaded"}}});
    assert!(
        matches!(&run(&err, None)[0], Entry::Stderr { text, .. } if text == "error: model overloaded")
    );
    assert!(run(
        &json!({"type":"event","event":"tick","payload":{"ts":1}}),
        None
    )
    .is_empty());
    let bad = json!({"type":"res","id":"1","ok":false,"error":{"code":"INVALID_REQUEST","message":"nope"}});
    assert!(matches!(&run(&bad, None)[0], Entry::Stderr { .. }));
    let req = json!({"type":"req","id":"2","method":"agent","params":{"message":"do it","idempotencyKey":"k"}});
    assert!(matches!(&run(&req, None)[0], Entry::User { text, .. } if text == "do it"));
    assert_eq!(detect(&req), Confidence::Sure);
    assert_eq!(detect(&json!({"type":"event"})), Confidence::No);
}

#[test]
fn one_failure_reported_by_two_streams_is_shown_once_when_stateful() {
    let life = json!({"type":"event","event":"agent","payload":{"runId":"r","stream":"lifecycle","data":{"phase":"error","error":"overloaded"}}});
    let chat = json!({"type":"event","event":"chat","payload":{"runId":"r","sessionKey":"k","state":"error","errorMessage":"overloaded","errorKind":"rate_limit"}});
    assert_eq!(run(&life, None).len() + run(&chat, None).len(), 2);
    let mut s = State::default();
    assert_eq!(run(&life, Some(&mut s)).len(), 1);
    assert!(run(&chat, Some(&mut s)).is_empty());
}

#[test]
fn adapter_log_lines() {
    let read = |l: &str| crate::parser::parse_line(l, "t");
    let out = read(r#"[openclaw-gateway:event] run=r1 stream=assistant data={"text":"Hi","delta":"Hi"}"#);
    assert!(matches!(&out[0], Entry::Assistant { text, delta: Some(true), .. } if text == "Hi"));
    assert_eq!(read("[openclaw-gateway] connected protocol=3"), vec![Entry::system("t", "connected protocol=3")]);
    assert_eq!(read("[openclaw-gateway:event] garbage"), vec![Entry::stdout("t", "[openclaw-gateway:event] garbage")]);
    // The forks' prefixes read the same way.
    let bridge = read(r#"[openclaw-bridge:event] run=r1 stream=error data={"message":"socket closed"}"#);
    assert!(matches!(&bridge[0], Entry::Stderr { text, .. } if text.contains("socket closed")));
    let clip = read(r#"[clawclip:event] run=r1 stream=assistant data={"delta":"x"}"#);
    assert_eq!(clip, vec![Entry::assistant_delta("t", "x")]);
}

#[test]
fn reply_delivery_tags_are_not_part_of_the_reply() {
    use crate::formats::common::without_reply_tags as strip;
    assert_eq!(strip("[[reply_to_current]] Done."), "Done.");
    assert_eq!(strip("  [[reply_to:msg-42]] [[audio_as_voice]]Hi"), "Hi");
    // Only the gateway's tags, only at the start.
    assert_eq!(strip("[[wiki link]] text"), "[[wiki link]] text");
    assert_eq!(strip("See [[reply_to_current]]"), "See [[reply_to_current]]");
    assert_eq!(strip("[[reply_to_current"), "[[reply_to_current");
    let text = |es: Vec<Entry>| -> String {
        es.iter().filter_map(|e| match e { Entry::Assistant { text, .. } => Some(text.as_str()), _ => None }).collect()
    };
    assert_eq!(text(run(&chat_frame("final", "[[reply_to_current]] Hello!"), None)), "Hello!");
    let mut s = State::default();
    let streamed = [run(&chat_frame("delta", "[[reply_to_current]] Hel"), Some(&mut s)), run(&chat_frame("final", "[[reply_to_current]] Hello!"), Some(&mut s))];
    assert_eq!(streamed.into_iter().map(text).collect::<String>(), "Hello!");
    // OpenClaw's session files (pi's format) keep the tag in the stored reply.
    let session = json!({"type":"message","id":"m1","parentId":"u1","timestamp":"2026-02-01T10:00:00.000Z",
        "message":{"role":"assistant","content":[{"type":"text","text":"[[reply_to_current]] Sure."}],"timestamp":1756548002000u64}});
    assert_eq!(text(crate::parse_line(&session.to_string(), "t")), "Sure.");
}

#[test]
fn the_gateways_sender_envelope_is_not_the_users_message() {
    use crate::formats::common::without_sender_envelope as strip;
    // As OpenClaw stores a Telegram message (public session memory files, 2026-04).
    let telegram = "Conversation info (untrusted metadata):\n```json\n{\n  \"message_id\": \"10990\",\n  \"sender_id\": \"7827979987\",\n  \"sender\": \"P M\"\n}\n```\n\nSender (untrusted metadata):\n```json\n{\n  \"label\": \"P M (7827979987)\",\n  \"id\": \"7827979987\",\n  \"name\": \"P M\"\n}\n```\n\nHow about now";
    assert_eq!(strip(telegram), (Some("P M".to_owned()), "How about now"));
    let webchat = "Sender (untrusted metadata):\n```json\n{\n  \"label\": \"openclaw-control-ui\",\n  \"id\": \"openclaw-control-ui\"\n}\n```\n\n[Wed 2026-04-15 15:56 GMT+1] does the skill exist ?";
    assert_eq!(strip(webchat), (None, "[Wed 2026-04-15 15:56 GMT+1] does the skill exist ?"));
    for plain in ["How about now", "Note (untrusted metadata): no fence", "Sender (untrusted metadata):\n```json\n{\"name\":\"x\"}"] {
        assert_eq!(strip(plain), (None, plain));
    }
    let session = serde_json::json!({"type":"message","id":"m1","parentId":"a0","timestamp":"2026-02-01T10:00:00.000Z",
        "message":{"role":"user","content":[{"type":"text","text":telegram}],"timestamp":1756548002000u64}});
    match &crate::parse_line(&session.to_string(), "t")[..] {
        [Entry::User { text, .. }] => assert_eq!(text, "[P M] How about now"),
        other => panic!("{other:?}"),
    }
}
