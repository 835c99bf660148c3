//! Goose, `goose run --output-format stream-json` (block/goose; the flag came with PR #6228,
//! December 2025): one `StreamEvent` per line, tagged by `type`.
//!
//! - `message` (`message`: goose's `Message`, `{id, role, created, content[], metadata}`;
//!   each line is one chunk of a streamed message, and the chunks of one message repeat its
//!   `id`): content items, camelCase-tagged —
//!   - `text` → `assistant` (a `user` message's text → `user`), as deltas: chunks carry their
//!     own leading spaces, and the host joins consecutive deltas into the message
//!   - `thinking` → `thinking` delta; `redactedThinking` → nothing to show
//!   - `toolRequest` (`id`, `toolCall{status, value{name, arguments}}` or `{status:"error",
//!     error}`) → `tool_call`
//!   - `toolResponse` (`id`, `toolResult{status, value{content[], isError}}`, older goose: a
//!     bare `value[]` of content; or `{status:"error", error}`) → `tool_result`
//!   - `toolConfirmationRequest`, `actionRequired`, `systemNotification`, `image` → notices
//! - `notification` (`extension_id`, and `log{message}` or `progress{progress, total,
//!   message}`) → a notice
//! - `model_change` (`model`, `mode`) → a notice; `error` (`error`) → `stderr`
//! - `complete` (`total_tokens`; newer builds also `input_tokens`, `output_tokens`) →
//!   `result`, printed even after an error (the stateful parser marks that result failed,
//!   with the error's words). Where goose reports only the total, the result's text says so
//!   (no split is invented).
//!
//! Evidence: no real stream-json capture exists in any public place searched (the PR, goose's
//! issues, the Paperclip goose adapter's tests, which are hand-made). This module and its
//! fixture are derived from goose's own serde types (`crates/goose-cli/src/session/mod.rs`
//! at block/goose 5152a340 and aaif-goose/goose df778d61, `crates/goose/src/conversation/
//! message.rs` and `tool_result_serde.rs`, Apache-2.0), and marked as derived. Details:
//! docs/formats/goose.md.

use crate::prelude::*;
use super::common::{self, nonempty_str, split_around, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

pub fn detect(v: &Value) -> Confidence {
    let has = |k: &str| v.get(k).is_some();
    let sure = match type_of(v) {
        "message" => v.get("message").is_some_and(|m| {
            m.get("created").is_some_and(Value::is_number)
                && m.get("content").is_some_and(Value::is_array)
                && m.get("role").is_some()
        }),
        "notification" => has("extension_id"),
        "model_change" => has("model") && has("mode"),
        "complete" => has("total_tokens"),
        _ => false,
    };
    if sure {
        Confidence::Sure
    } else if type_of(v) == "error"
        && v.get("error").is_some_and(|e| e.is_string() || e.get("message").is_some() && e.get("kind").is_some())
        && v.as_object().is_some_and(|m| m.len() == 2)
    {
        // `{"type":"error","error":"…"}`: goose's, but a shape anyone may print.
        Confidence::Maybe
    } else {
        Confidence::No
    }
}

/// What the stateful parser remembers between a run's lines: the first `error` since the
/// last `complete`, which goose prints and then completes the run as usual.
#[derive(Debug, Default)]
pub struct State {
    error: Option<String>,
}

pub fn parse(v: &Value, _line: &str, ts: &str, mut state: Option<&mut State>, out: &mut Vec<Entry>) {
    let start = out.len();
    match type_of(v) {
        "message" => message(v.get("message").unwrap_or(&Value::Null), ts, out),
        "notification" => {
            let ext = str_of(v, "extension_id").unwrap_or("extension");
            let text = if let Some(log) = v.get("log") {
                str_of(log, "message").unwrap_or("").owned()
            } else if let Some(p) = v.get("progress") {
                let n = crate::json::num_text(num_of(p, "progress"));
                let of = match p.get("total").and_then(Value::as_f64) {
                    Some(t) => format!("/{}", crate::json::num_text(t)),
                    None => String::new(),
                };
                match nonempty_str(p, "message") {
                    Some(m) => format!("progress {n}{of}: {m}"),
                    None => format!("progress {n}{of}"),
                }
            } else {
                common::short_fields(v, 3)
            };
            out.emit(Entry::system(ts, format!("{ext}: {}", text.trim())));
        }
        "model_change" => {
            let (model, mode) = (str_of(v, "model").unwrap_or(""), str_of(v, "mode").unwrap_or(""));
            out.emit(Entry::system(ts, format!("model: {model} ({mode})")));
        }
        // `error` is a message, or an object with its `message` and `kind`.
        "error" => out.emit(Entry::stderr(ts, error_text(v.get("error")))),
        "complete" => {
            let split = v.get("input_tokens").is_some() || v.get("output_tokens").is_some();
            let text = match v.get("total_tokens").and_then(Value::as_f64) {
                Some(t) if !split => format!("{} tokens in all (goose gives no split)", crate::json::num_text(t)),
                _ => String::new(),
            };
            // Newest goose: the cache's share of the input and the accumulated cost too.
            let write = num_of(v, "cache_write_input_tokens");
            let error = state.as_deref_mut().and_then(|st| st.error.take());
            out.emit(Entry::Result {
                ts: ts.owned(),
                text,
                input_tokens: num_of(v, "input_tokens"),
                output_tokens: num_of(v, "output_tokens"),
                cached_tokens: num_of(v, "cache_read_input_tokens"),
                cache_creation_tokens: (write > 0.0).then_some(write),
                cache_creation_1h_tokens: None,
                reasoning_tokens: None,
                model: None,
                call_id: None,
                cost_usd: num_of(v, "cost_usd"),
                subtype: "complete".owned(),
                // Stateful: the run failed when an error came before its `complete`.
                is_error: error.is_some(),
                errors: error.into_iter().collect(),
            });
        }
        _ => out.emit(common::unknown_event(ts, "goose", v)),
    }
    // An `error` event or an error item in a message: the first since the last `complete`.
    if let Some(st) = state.filter(|st| st.error.is_none()) {
        st.error = out[start..].iter().find_map(|e| match e {
            Entry::Stderr { text, .. } => Some(common::clip(text, 300)),
            _ => None,
        });
    }
}

/// The banner goose prints on stdout before the stream (unless `-q`), three lines, plain
/// when stdout is not a terminal:
/// `    __( O)>  ● new session · <provider> <model>` → `init` with model `<provider>/<model>`
/// (a status other than `new session`, `resuming` or `ephemeral`, in a notice),
/// `   \____)    <session id> · <cwd>` → a notice with the session and folder,
/// `     L L     goose is ready` → nothing. `None`: not a banner line.
pub fn banner_line(line: &str, ts: &str, out: &mut Vec<Entry>) -> Option<Confidence> {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix("__( O)>") {
        let (_, rest) = split_around(rest, "● ")?;
        let (status, who) = split_around(rest, " · ").unwrap_or((rest, ""));
        let who = who.trim();
        let model = match who.split_once(' ') {
            Some((provider, model)) => format!("{provider}/{}", model.trim()),
            None if who.is_empty() => "goose".owned(),
            None => who.owned(),
        };
        out.emit(Entry::init(ts, model, ""));
        let status = status.trim();
        if status != "new session" {
            out.emit(Entry::system(ts, format!("goose {status}")));
        }
        return Some(Confidence::Sure);
    }
    if let Some(rest) = t.strip_prefix("\\____)") {
        let rest = rest.trim();
        let text = match split_around(rest, " · ") {
            Some((id, cwd)) => format!("goose session {} in {}", id.trim(), cwd.trim()),
            None => format!("goose in {rest}"),
        };
        out.emit(Entry::system(ts, text));
        return Some(Confidence::Maybe);
    }
    let ready = t.strip_prefix("L L").is_some_and(|r| r.trim() == "goose is ready");
    ready.then_some(Confidence::Maybe)
}

/// `<message> (<kind>)` from an error that is text or an object with `message`/`kind`: its
/// words as every runtime's error path reads them (`common::error_text`), and goose's kind.
fn error_text(e: Option<&Value>) -> String {
    let kind = e.and_then(|e| nonempty_str(e, "kind"));
    match (e.and_then(common::error_text), kind) {
        (Some(text), Some(kind)) => format!("{text} ({kind})"),
        (Some(text), None) => text,
        (None, Some(kind)) => format!("goose {kind} error"),
        (None, None) => "goose error".owned(),
    }
}

fn message(m: &Value, ts: &str, out: &mut Vec<Entry>) {
    let user = str_of(m, "role") == Some("user");
    let Some(Value::Array(items)) = m.get("content") else { return };
    for c in items {
        let s = |k: &str| str_of(c, k).unwrap_or("");
        match s("type") {
            "text" => {
                let t = s("text");
                if !t.trim().is_empty() {
                    out.emit(if user { Entry::user(ts, t.trim()) } else { Entry::assistant_delta(ts, t) });
                }
            }
            "thinking" => {
                if !s("thinking").is_empty() {
                    out.emit(Entry::thinking_delta(ts, s("thinking")));
                }
            }
            "toolRequest" => {
                let call = c.get("toolCall").unwrap_or(&Value::Null);
                let value = call.get("value").unwrap_or(&Value::Null);
                let (name, input) = match str_of(call, "status") {
                    Some("error") => ("tool", common::object([("error", str_of(call, "error").map(|e| e.owned().into()))])),
                    _ => (str_of(value, "name").unwrap_or("tool"), common::arguments(value.get("arguments"))),
                };
                out.emit(Entry::tool_call(ts, name, input, nonempty_str(c, "id").map(str::owned)));
            }
            "toolResponse" => {
                let r = c.get("toolResult").unwrap_or(&Value::Null);
                let (content, failed) = match str_of(r, "status") {
                    Some("error") => (str_of(r, "error").unwrap_or("the tool failed").owned(), true),
                    _ => {
                        let value = r.get("value").unwrap_or(&Value::Null);
                        // Newer goose: a CallToolResult; older: the content list itself.
                        let list = value.get("content").unwrap_or(value);
                        (common::content_text(list), common::bool_of(value, "isError"))
                    }
                };
                out.emit(Entry::tool_result(ts, s("id"), None, content, failed));
            }
            "toolConfirmationRequest" => {
                let tool = str_of(c, "toolName").unwrap_or("a tool");
                out.emit(Entry::system(ts, format!("confirmation asked for {tool}")));
            }
            "actionRequired" => {
                let d = c.get("data").unwrap_or(c);
                let what = nonempty_str(d, "toolName").or_else(|| nonempty_str(d, "message")).unwrap_or("");
                let kind = str_of(d, "actionType").unwrap_or("");
                out.emit(Entry::system(ts, format!("action required: {kind} {what}").trim().owned()));
            }
            "systemNotification" => {
                if let Some(t) = nonempty_str(c, "msg") {
                    out.emit(Entry::system(ts, t.trim()));
                }
            }
            "redactedThinking" => {}
            // An error inside a message (a provider's 401, a context overflow): its words.
            "error" => out.emit(Entry::stderr(ts, error_text(Some(c)))),
            "image" => out.emit(Entry::system(ts, format!("image ({})", s("mimeType")))),
            other => out.emit(Entry::system(ts, format!("goose {other} ({})", common::short_fields(c, 3)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_line, parse_line_as, Entry, Format, StdoutParser};

    const TS: &str = "2026-01-01T00:00:00.000Z";

    #[test]
    fn errors_keep_their_words_and_complete_its_cache_and_cost() {
        // A bare `{type, error}` could be anyone's: read as goose's once the stream is goose.
        let e = parse_line_as(Format::Goose, r#"{"type":"error","error":{"kind":"authentication","message":"401 Unauthorized: invalid x-api-key"}}"#, TS);
        assert_eq!(e, vec![Entry::stderr(TS, "401 Unauthorized: invalid x-api-key (authentication)")]);
        let m = r#"{"type":"message","message":{"id":"m","role":"assistant","created":1,"content":[{"type":"error","kind":"context_length","message":"the context is full"}]}}"#;
        assert_eq!(parse_line(m, TS), vec![Entry::stderr(TS, "the context is full (context_length)")]);
        let c = r#"{"type":"complete","total_tokens":12362,"input_tokens":12296,"output_tokens":66,"cache_read_input_tokens":8000,"cache_write_input_tokens":100,"cost_usd":0.0123}"#;
        let r = parse_line(c, TS);
        assert!(
            matches!(&r[0], Entry::Result { input_tokens, cached_tokens, cache_creation_tokens: Some(w), cost_usd, .. }
                if *input_tokens == 12296.0 && *cached_tokens == 8000.0 && *w == 100.0 && *cost_usd == 0.0123),
            "{r:?}"
        );
    }

    #[test]
    fn a_run_that_errored_before_its_complete_failed() {
        let err = r#"{"type":"error","error":{"kind":"authentication","message":"401 Unauthorized"}}"#;
        let done = r#"{"type":"complete","total_tokens":10,"input_tokens":8,"output_tokens":2}"#;
        let failed = |e: &[Entry]| e.iter().find_map(|e| match e {
            Entry::Result { is_error, errors, .. } => Some((*is_error, errors.clone())),
            _ => None,
        });
        let mut p = StdoutParser::with_format(Format::Goose);
        assert!(!p.parse_line(err, TS).is_empty());
        assert_eq!(failed(&p.parse_line(done, TS)), Some((true, vec!["401 Unauthorized (authentication)".to_string()])));
        // The next run's complete starts clean; read alone, a complete cannot know.
        assert_eq!(failed(&p.parse_line(done, TS)), Some((false, vec![])));
        assert_eq!(failed(&parse_line(done, TS)), Some((false, vec![])));
        // An error item inside a message (goose's 401 shape) fails the run the same way.
        let item = r#"{"type":"message","message":{"id":"m","role":"assistant","created":1,"content":[{"type":"error","kind":"auth","message":"bad key"}]}}"#;
        assert!(!p.parse_line(item, TS).is_empty());
        assert_eq!(failed(&p.parse_line(done, TS)), Some((true, vec!["bad key (auth)".to_string()])));
    }

    #[test]
    fn the_banner_before_the_json_does_not_hide_the_run() {
        // goose prints its banner on stdout before the stream (shapes as a real run printed them).
        let lines = [
            "__( O)>  ● new session · anthropic claude-sonnet-4-5",
            "   \\____)    20251207_1 · /home/user/project",
            "     L L     goose is ready",
            r#"{"type":"message","message":{"id":"m1","role":"assistant","created":1765000000,"content":[{"type":"text","text":"Hi."}],"metadata":{"userVisible":true,"agentVisible":true}}}"#,
            r#"{"type":"complete","total_tokens":12362,"input_tokens":12296,"output_tokens":66}"#,
        ];
        let mut p = StdoutParser::new();
        let out: Vec<Entry> = lines.iter().flat_map(|l| p.parse_line(l, TS)).collect();
        assert_eq!(p.format(), Some(crate::Format::Goose));
        assert!(
            out.iter().any(|e| matches!(e, Entry::Result { input_tokens, output_tokens, .. } if *input_tokens == 12296.0 && *output_tokens == 66.0)),
            "{out:?}"
        );
    }
}
