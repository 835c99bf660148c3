//! Kimi Code CLI, `kimi --print -p "<prompt>" --output-format stream-json` (what
//! Paperclip's `kimi_local` adapter runs with `engine: "cli"`): one chat message per line,
//! in the OpenAI message shape, with no `type` field.
//!
//! - `{"role":"assistant","content"?,"tool_calls"?:[{"type":"function","id","function":
//!   {"name","arguments"}}]}`: `arguments` is a JSON-encoded string; `content` a string or
//!   an array of parts (`text`, `think`)
//! - `{"role":"tool","tool_call_id","content"}`: a tool's result
//! - `{"role":"user","content"}`: the prompt (echoed with `--input-format stream-json`)
//! - `{"role":"meta","type":"session.resume_hint","session_id","command","content"}`: last
//! - `{"role":"error"|…,"type":"error","message"|"content"|"error"}`: tolerated
//!
//! Mapping: assistant → `assistant` (+ `thinking` for `think` parts) and one `tool_call`
//! per call with its arguments parsed; tool → `tool_result` (Kimi wraps failures in a
//! `<system>ERROR: …</system>` note, which marks the result as an error); the resume hint →
//! a `system` notice with the session id and the resume command; other meta lines →
//! a `system` notice with their content. Every line stands alone (Kimi prints whole
//! messages, no deltas), so both paths give the same entries.
//!
//! Evidence: Kimi Code CLI's print-mode docs (`docs/en/customization/print-mode.md`, the
//! message format and an example stream) and `@paperclipai/adapter-kimi-local` 2026.916.1
//! (`dist/server/parse.js`: "verified event shapes (kimi 0.27.0)", and its tests). ACP runs
//! of that adapter print `acpx.*` lines instead, read by the acpx module. Details:
//! `docs/formats/kimi.md`.

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

#[derive(Debug, Default)]
pub struct State;

pub fn detect(v: &Value) -> Confidence {
    let Some(role) = str_of(v, "role") else { return Confidence::No };
    let has = |k: &str| v.get(k).is_some();
    match (role, type_of(v)) {
        ("assistant", "") if has("tool_calls") || has("content") => Confidence::Sure,
        ("tool", "") if has("tool_call_id") => Confidence::Sure,
        // A tool reply without its call id (the host's parser reads it as `tool_result`).
        ("tool", "") if has("content") => Confidence::Maybe,
        ("meta", _) => Confidence::Sure,
        ("user", "") if has("content") && v.as_object().is_some_and(|m| m.len() == 2) => {
            Confidence::Maybe
        }
        ("error", _) => Confidence::Maybe,
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, _state: Option<&mut State>, out: &mut Vec<Entry>) {
    let role = str_of(v, "role").unwrap_or("");
    match role {
        "assistant" => assistant(v, ts, out),
        "tool" => {
            let content = match v.get("content") {
                Some(Value::String(s)) => s.to_string(),
                Some(c) => content_text(c),
                None => String::new(),
            };
            let is_error = content.trim_start().starts_with("<system>ERROR");
            out.emit(Entry::tool_result(
                ts,
                nonempty_str(v, "tool_call_id").unwrap_or("tool_result"),
                None,
                content,
                is_error,
            ));
        }
        "user" => {
            let text = v.get("content").map(content_text).unwrap_or_default();
            if !text.trim().is_empty() {
                out.emit(Entry::user(ts, text));
            }
        }
        "meta" => meta(v, ts, out),
        _ if role == "error" || type_of(v) == "error" => {
            let text = ["content", "message", "error"]
                .iter()
                .find_map(|k| v.get(k).and_then(common::error_text))
                .unwrap_or_else(|| "Kimi error".owned());
            out.emit(Entry::stderr(ts, text));
        }
        _ => out.emit(common::unknown_event(ts, "kimi", v)),
    }
}

fn assistant(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    match v.get("content") {
        Some(Value::String(s)) if !s.trim().is_empty() => out.emit(Entry::assistant(ts, s.trim())),
        Some(Value::Array(parts)) => {
            for part in parts {
                match type_of(part) {
                    "think" => {
                        let t = str_of(part, "think").or_else(|| str_of(part, "text")).unwrap_or("");
                        if !t.trim().is_empty() {
                            out.emit(Entry::thinking(ts, t.trim()));
                        }
                    }
                    _ => {
                        let t = content_text(part);
                        if !t.trim().is_empty() {
                            out.emit(Entry::assistant(ts, t.trim()));
                        }
                    }
                }
            }
        }
        _ => {}
    }
    for call in v.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let func = call.get("function").unwrap_or(&Value::Null);
        let name = nonempty_str(func, "name").or_else(|| nonempty_str(call, "name")).unwrap_or("tool");
        let args = func.get("arguments").or_else(|| call.get("arguments"));
        out.emit(Entry::tool_call(
            ts,
            name,
            common::arguments(args),
            nonempty_str(call, "id").map(str::to_owned),
        ));
    }
}

fn meta(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let ty = type_of(v);
    if ty == "session.resume_hint" {
        let Some(id) = nonempty_str(v, "session_id") else { return };
        let text = match nonempty_str(v, "command") {
            Some(cmd) => format!("session: {id} (resume with `{cmd}`)"),
            None => format!("session: {id}"),
        };
        out.emit(Entry::system(ts, text));
        return;
    }
    let content = v.get("content").map(content_text).unwrap_or_default();
    let label = if ty.is_empty() { "meta" } else { ty };
    let text = if content.trim().is_empty() {
        format!("kimi {label}")
    } else {
        format!("kimi {label}: {}", content.trim())
    };
    out.emit(Entry::system(ts, text));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    #[test]
    fn a_tool_reply_without_its_call_id_is_still_a_result() {
        let v = json!({"role":"tool","content":"orphan"});
        assert_eq!(json_test::detect(detect, &v), Confidence::Maybe);
        assert_eq!(
            crate::parse_line(&v.to_string(), "t"),
            vec![Entry::tool_result("t", "tool_result", None, "orphan", false)]
        );
    }

    #[test]
    fn messages_and_tool_calls() {
        let v = json!({"role":"assistant","content":"Let me check.","tool_calls":[{"type":"function","id":"tc_1","function":{"name":"Shell","arguments":"{\"command\":\"ls\"}"}}]});
        assert_eq!(json_test::detect(detect, &v), Confidence::Sure);
        assert_eq!(
            json_test::run(parse, &v, None::<&mut State>),
            vec![
                Entry::assistant("t", "Let me check."),
                Entry::tool_call("t", "Shell", json!({"command":"ls"}), Some("tc_1".into())),
            ]
        );
        let r = json!({"role":"tool","tool_call_id":"tc_1","content":"<system>ERROR: exit 1</system>"});
        assert_eq!(
            json_test::run(parse, &r, None::<&mut State>),
            vec![Entry::tool_result("t", "tc_1", None, "<system>ERROR: exit 1</system>", true)]
        );
        let bad = json!({"role":"assistant","tool_calls":[{"id":"x","function":{"name":"Read","arguments":"not json"}}]});
        assert_eq!(
            json_test::run(parse, &bad, None::<&mut State>),
            vec![Entry::tool_call("t", "Read", json!("not json"), Some("x".into()))]
        );
    }

    #[test]
    fn meta_lines_and_detection() {
        let hint = json!({"role":"meta","type":"session.resume_hint","session_id":"s1","command":"kimi -r s1"});
        assert_eq!(
            json_test::run(parse, &hint, None::<&mut State>),
            vec![Entry::system("t", "session: s1 (resume with `kimi -r s1`)")]
        );
        let progress = json!({"role":"meta","type":"progress","content":"working"});
        assert_eq!(
            json_test::run(parse, &progress, None::<&mut State>),
            vec![Entry::system("t", "kimi progress: working")]
        );
        // Claude/Codex message payloads carry a type; they are not Kimi's.
        let claude = json!({"type":"assistant","message":{"role":"assistant","content":[]}});
        assert_eq!(json_test::detect(detect, &claude), Confidence::No);
        let codex = json!({"type":"message","role":"assistant","content":[]});
        assert_eq!(json_test::detect(detect, &codex), Confidence::No);
    }
}
