//! Gemini CLI, `gemini -p … --output-format stream-json`: one JSON event per line, every
//! event with a `type` and an ISO `timestamp`:
//!
//! - `init` {session_id, model}
//! - `message` {role: user|assistant, content, delta?}: assistant text arrives as
//!   `delta: true` pieces and is never repeated as a full message afterwards
//! - `tool_use` {tool_name, tool_id, parameters}
//! - `tool_result` {tool_id, status: success|error, output?, error?: {type, message}}
//! - `error` {severity: warning|error, message}
//! - `result` {status: success|error, error?: {type, message}, stats?: {total_tokens,
//!   input_tokens, output_tokens, cached, input, duration_ms, tool_calls, models?}}
//!
//! Evidence: the event types in google-gemini/gemini-cli `packages/core/src/output/types.ts`
//! and their construction in `packages/cli/src/nonInteractiveCli.ts` (assistant content is
//! only ever emitted with `delta: true`); the headless-mode docs example and the CLI's own
//! vitest snapshots; littlebearapps/untether test literals. The chat-recording session
//! file (`~/.gemini/tmp/<hash>/chats/session-*.json`) is one JSON document, not a stream:
//! when it (or one of its messages) arrives as one line, the `chat` submodule reads it.

use crate::prelude::*;
use super::common::{
    self, content_text, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned,
};
use crate::entry::Entry;
use crate::json::Value;

mod chat;

/// Largest streamed assistant text kept to recognise a full copy of it.
const MAX_DELTA_BYTES: usize = 256 * 1024;

/// Streamed assistant text since the last other event. Gemini does not repeat deltas as a
/// full message; if a later version (or a wrapper) does, the stateful parser drops the
/// full copy when it equals what the deltas showed.
#[derive(Debug, Default)]
pub struct State {
    deltas: String,
    active: bool,
    overflow: bool,
}

pub fn detect(v: &Value) -> Confidence {
    if chat::is_document(v) || chat::is_message(v) {
        return Confidence::Sure;
    }
    let has = |k: &str| v.get(k).is_some();
    let no_subtype = !has("subtype");
    match type_of(v) {
        // Claude's init is {type: system, subtype: init}; Gemini's is its own type.
        "init" if str_of(v, "session_id").is_some() && no_subtype => Confidence::Sure,
        "tool_use" if has("tool_id") && has("tool_name") => Confidence::Sure,
        "tool_result" if has("tool_id") && str_of(v, "status").is_some() => Confidence::Sure,
        "error" if has("severity") && has("message") => Confidence::Sure,
        "result" if no_subtype && v.get("stats").is_some_and(is_gemini_stats) => Confidence::Sure,
        "result" if no_subtype && str_of(v, "status").is_some() => Confidence::Maybe,
        "message"
            if str_of(v, "role").is_some() && v.get("content").is_some_and(Value::is_string) =>
        {
            Confidence::Maybe
        }
        "error" if has("message") && has("timestamp") => Confidence::Maybe,
        _ => Confidence::No,
    }
}

fn is_gemini_stats(s: &Value) -> bool {
    ["total_tokens", "tool_calls", "duration_ms", "input_tokens"]
        .iter()
        .any(|k| s.get(k).is_some())
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    if chat::is_document(v) || chat::is_message(v) {
        return chat::parse(v, ts, out);
    }
    let ty = type_of(v);
    let mut state = state;
    // Any event other than an assistant delta ends the streamed text.
    let is_delta = ty == "message"
        && str_of(v, "role") == Some("assistant")
        && v.get("delta").and_then(Value::as_bool) == Some(true);
    let streamed = match state.as_deref_mut() {
        Some(st) if !is_delta => core::mem::take(st),
        _ => State::default(),
    };
    match ty {
        "init" => out.emit(Entry::init(
            ts,
            nonempty_str(v, "model").unwrap_or("gemini"),
            str_of(v, "session_id").unwrap_or(""),
        )),
        "message" => {
            let text = match v.get("content") {
                Some(Value::String(s)) => s.to_string(),
                Some(other) => content_text(other),
                None => String::new(),
            };
            match str_of(v, "role") {
                Some("user") => out.emit(Entry::user(ts, text)),
                _ if is_delta => {
                    if let Some(st) = state {
                        st.active = true;
                        if st.deltas.len() + text.len() > MAX_DELTA_BYTES {
                            st.overflow = true;
                        } else {
                            st.deltas.push_str(&text);
                        }
                    }
                    if !text.is_empty() {
                        out.emit(Entry::assistant_delta(ts, text));
                    }
                }
                _ => {
                    let covered = streamed.active
                        && (streamed.deltas.trim() == text.trim()
                            || (streamed.overflow
                                && text.trim_start().starts_with(streamed.deltas.trim_start())));
                    if !covered && !text.is_empty() {
                        out.emit(Entry::assistant(ts, text));
                    }
                }
            }
        }
        "tool_use" => {
            let input = match v.get("parameters") {
                None | Some(Value::Null) => common::empty_object(),
                Some(p) => p.to_json(),
            };
            out.emit(Entry::tool_call(
                ts,
                str_of(v, "tool_name").unwrap_or("tool"),
                input,
                Some(str_of(v, "tool_id").unwrap_or("").owned()),
            ));
        }
        "tool_result" => {
            let is_error = str_of(v, "status") == Some("error");
            let output = str_of(v, "output").unwrap_or("").trim_end();
            let err_msg =
                v.get("error").and_then(|e| nonempty_str(e, "message").or_else(|| e.as_str()));
            // The error only when it says more than the output already does.
            let err =
                error_text(v.get("error")).filter(|_| !err_msg.is_some_and(|m| common::has(output, m)));
            let content = match (output.is_empty(), err) {
                (false, Some(e)) => format!("{output}\n{e}"),
                (true, Some(e)) => e,
                (false, None) => output.owned(),
                (true, None) if is_error => "tool failed".owned(),
                (true, None) => "(no text output)".owned(),
            };
            let id = str_of(v, "tool_id").unwrap_or("");
            out.emit(Entry::tool_result(ts, id, name_of_id(id), content, is_error));
        }
        "error" => {
            let msg = nonempty_str(v, "message").unwrap_or("error (no message)");
            match str_of(v, "severity") {
                Some("warning") => out.emit(Entry::system(ts, format!("warning: {msg}"))),
                _ => out.emit(Entry::stderr(ts, msg)),
            }
        }
        "result" => {
            let stats = v.get("stats").unwrap_or(&Value::Null);
            let is_error = str_of(v, "status") == Some("error")
                || v.get("error").is_some_and(|e| !e.is_null());
            let errors: Vec<String> = error_text(v.get("error")).into_iter().collect();
            out.emit(Entry::Result {
                ts: ts.owned(),
                text: String::new(),
                input_tokens: num_of(stats, "input_tokens"),
                output_tokens: num_of(stats, "output_tokens"),
                cached_tokens: num_of(stats, "cached"),
                cache_creation_tokens: None,
                cache_creation_1h_tokens: None,
                reasoning_tokens: None,
                model: None,
                call_id: None,
                cost_usd: 0.0,
                subtype: nonempty_str(v, "status")
                    .unwrap_or(if is_error { "error" } else { "success" })
                    .owned(),
                is_error,
                errors,
            });
        }
        _ => {
            // Named without its timestamp (every Gemini event has one; it says nothing).
            let mut shown = v.clone();
            if let Some(m) = shown.as_object_mut() {
                m.remove("timestamp");
            }
            out.emit(common::unknown_event(ts, "gemini", &shown));
        }
    }
}

/// `{type, message}` errors (or a bare string) as one line: `message (type)`.
fn error_text(e: Option<&Value>) -> Option<String> {
    match e? {
        Value::String(s) if !s.is_empty() => Some(s.to_string()),
        obj @ Value::Object(_) => {
            let msg = nonempty_str(obj, "message")?;
            Some(match nonempty_str(obj, "type") {
                Some(t) => format!("{msg} ({t})"),
                None => msg.owned(),
            })
        }
        _ => None,
    }
}

/// The tool name inside an id Gemini CLI made for a call: `<name>-<ms since epoch>-<hex>`
/// (so `parseStdoutLine` names the result as the stateful parser does from the paired call).
/// Other ids (`tool_1`, `bash-123`) are not read.
fn name_of_id(id: &str) -> Option<String> {
    let (rest, hex) = id.rsplit_once('-')?;
    let (name, ms) = rest.rsplit_once('-')?;
    let ok = !name.is_empty()
        && !hex.is_empty()
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && ms.len() == 13
        && ms.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{parse_line, StdoutParser};

    #[test]
    fn generated_call_ids_name_their_tool() {
        assert_eq!(name_of_id("read_file-1762000000000-3f9a").as_deref(), Some("read_file"));
        assert_eq!(name_of_id("run_shell_command-1762000000000-abc").as_deref(), Some("run_shell_command"));
        for id in ["bash-123", "tool_1", "tool-1", "x-1762000000000-zz", ""] {
            assert_eq!(name_of_id(id), None, "{id}");
        }
    }

    fn kinds(es: &[Entry]) -> Vec<&'static str> {
        es.iter().map(Entry::kind).collect()
    }

    #[test]
    fn detection_is_precise() {
        let sure = |l: &str| detect(&crate::json::read::parse(l).unwrap());
        assert_eq!(
            sure(r#"{"type":"init","timestamp":"t","session_id":"s","model":"m"}"#),
            Confidence::Sure
        );
        assert_eq!(
            sure(r#"{"type":"system","subtype":"init","session_id":"s","model":"m"}"#),
            Confidence::No
        );
        assert_eq!(
            sure(r#"{"type":"tool_use","tool_name":"Bash","tool_id":"b","parameters":{}}"#),
            Confidence::Sure
        );
        assert_eq!(sure(r#"{"type":"result","subtype":"success","result":"x"}"#), Confidence::No);
        assert_eq!(
            sure(r#"{"type":"result","status":"success","stats":{"total_tokens":1}}"#),
            Confidence::Sure
        );
        assert_eq!(
            sure(r#"{"type":"message","role":"assistant","content":[{"type":"text"}]}"#),
            Confidence::No
        );
    }

    #[test]
    fn deltas_show_in_both_paths_and_a_repeat_is_dropped_when_stateful() {
        let lines = [
            r#"{"type":"init","timestamp":"t","session_id":"s","model":"m"}"#,
            r#"{"type":"message","timestamp":"t","role":"assistant","content":"Hel","delta":true}"#,
            r#"{"type":"message","timestamp":"t","role":"assistant","content":"lo","delta":true}"#,
            r#"{"type":"message","timestamp":"t","role":"assistant","content":"Hello"}"#,
        ];
        let stateless: Vec<Entry> = lines.iter().flat_map(|l| parse_line(l, "t")).collect();
        assert_eq!(kinds(&stateless), ["init", "assistant", "assistant", "assistant"]);
        let mut p = StdoutParser::new();
        let stateful: Vec<Entry> = lines.iter().flat_map(|l| p.parse_line(l, "t")).collect();
        assert_eq!(kinds(&stateful), ["init", "assistant", "assistant"]);
        assert!(matches!(&stateful[1], Entry::Assistant { delta: Some(true), .. }));
    }

    #[test]
    fn tool_errors_and_results() {
        let out = parse_line(
            r#"{"type":"tool_result","timestamp":"t","tool_id":"x","status":"error","error":{"type":"FILE_NOT_FOUND","message":"no such file"}}"#,
            "t",
        );
        assert_eq!(
            out,
            vec![Entry::tool_result("t", "x", None, "no such file (FILE_NOT_FOUND)", true)]
        );
        let out = parse_line(
            r#"{"type":"result","timestamp":"t","status":"error","error":{"type":"API","message":"quota"},"stats":{"input_tokens":5,"output_tokens":2,"cached":1}}"#,
            "t",
        );
        match &out[0] {
            Entry::Result { is_error, errors, input_tokens, cached_tokens, subtype, .. } => {
                assert!(*is_error);
                assert_eq!(errors, &vec!["quota (API)".to_owned()]);
                assert_eq!((*input_tokens, *cached_tokens), (5.0, 1.0));
                assert_eq!(subtype, "error");
            }
            other => panic!("{other:?}"),
        }
    }
}
