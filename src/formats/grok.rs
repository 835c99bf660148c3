//! Grok Build CLI, `grok --cwd <dir> --output-format streaming-json --single "<prompt>"`
//! (what Paperclip's `grok_local` adapter runs): one small JSON event per line.
//!
//! - `{"type":"thought","data"}`: a piece of reasoning (streamed token by token)
//! - `{"type":"text","data"}`: a piece of the answer
//! - `{"type":"error","data"|"message"|"error":{message|detail|code}}`
//! - `{"type":"end","stopReason","sessionId","requestId"?,"usage"?:{input_tokens,
//!   output_tokens,cache_read_input_tokens},"total_cost_usd"?}`: the run's last line
//!
//! Mapping: thought → `thinking` delta, text → `assistant` delta, error → `stderr`, end →
//! a `system` notice (stop reason, session) and a `result` with the usage and cost. In
//! streaming mode Grok drops the newline between two reasoning turns; the stateful parser
//! puts it back with the host adapter's rule (a capitalised chunk after one ending a
//! sentence or closing a lone backtick starts a new turn). Stateless, each chunk shows as
//! printed.
//!
//! Evidence: `@paperclipai/adapter-grok-local` 2026.916.1 (`dist/server/execute.js` builds
//! the command line, `dist/server/parse.js` and `dist/ui/parse-stdout.js` read the events,
//! their tests give the shapes); no public capture exists. Details: `docs/formats/grok.md`.

use crate::prelude::*;
use super::common::{self, nonempty_str, num_of, path, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// The last reasoning chunk (for the turn-boundary rule) and the backtick parity so far.
#[derive(Debug, Default)]
pub struct State {
    last_chunk: String,
    backticks_odd: bool,
}

/// Largest reasoning chunk remembered for the boundary rule (chunks are tokens).
const MAX_CHUNK_BYTES: usize = 4096;

pub fn detect(v: &Value) -> Confidence {
    let data = str_of(v, "data").is_some();
    match type_of(v) {
        // OpenCode's `text` carries a `part`; only Grok puts a bare `data` string there.
        "thought" | "text" if data && v.get("part").is_none() => Confidence::Sure,
        "end" if v.get("stopReason").is_some() || v.get("sessionId").is_some() => {
            Confidence::Sure
        }
        "error" if data => Confidence::Sure,
        // `{"type":"error","error":{…}}` is Grok's too, but the shape is generic: read it,
        // never lock on it.
        "error" if v.get("error").is_some() => Confidence::Maybe,
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    match type_of(v) {
        "thought" => {
            let chunk = str_of(v, "data").unwrap_or("");
            if chunk.is_empty() {
                return;
            }
            let text = match state {
                Some(st) => st.boundary(chunk),
                None => chunk.owned(),
            };
            out.emit(Entry::thinking_delta(ts, text));
        }
        "text" => {
            let chunk = str_of(v, "data").unwrap_or("");
            if !chunk.is_empty() {
                out.emit(Entry::assistant_delta(ts, chunk));
            }
        }
        "error" => out.emit(Entry::stderr(ts, error_text(v))),
        "end" => end(v, ts, out),
        _ => out.emit(common::unknown_event(ts, "grok", v)),
    }
}

fn error_text(v: &Value) -> String {
    let nested = |k: &str| match v.get(k) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.to_string()),
        Some(e @ Value::Object(_)) => ["message", "error", "detail", "code"]
            .iter()
            .find_map(|f| nonempty_str(e, f))
            .map(str::to_owned)
            // An object of another shape: its fields as text, never raw JSON.
            .or_else(|| Some(format!("Grok error: {}", common::short_fields(e, 3)))),
        _ => None,
    };
    nested("data")
        .or_else(|| nested("message"))
        .or_else(|| nested("error"))
        .or_else(|| nested("detail"))
        .unwrap_or_else(|| "Grok error".owned())
}

fn end(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let stop = nonempty_str(v, "stopReason");
    let mut parts = Vec::new();
    if let Some(s) = stop {
        parts.push(format!("stop_reason={s}"));
    }
    if let Some(s) = nonempty_str(v, "sessionId") {
        parts.push(format!("session={s}"));
    }
    if let Some(s) = nonempty_str(v, "requestId") {
        parts.push(format!("request={s}"));
    }
    let text = if parts.is_empty() {
        "Grok run completed".owned()
    } else {
        format!("Grok run completed: {}", common::join(&parts, " "))
    };
    out.emit(Entry::system(ts, text));
    let usage = v.get("usage").unwrap_or(&Value::Null);
    let cost = path(v, &["total_cost_usd"]).and_then(Value::as_f64).filter(|c| c.is_finite());
    out.emit(Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: num_of(usage, "input_tokens"),
        output_tokens: num_of(usage, "output_tokens"),
        cached_tokens: num_of(usage, "cache_read_input_tokens"),
        cache_creation_tokens: Some(num_of(usage, "cache_creation_input_tokens")).filter(|n| *n > 0.0),
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: cost.unwrap_or(0.0),
        subtype: stop.unwrap_or("end").owned(),
        is_error: false,
        errors: Vec::new(),
    });
}

impl State {
    /// The chunk as shown: with a leading newline when it starts a new reasoning turn that
    /// Grok glued to the previous one.
    fn boundary(&mut self, chunk: &str) -> String {
        let prev = &self.last_chunk;
        let starts_turn = !prev.is_empty()
            && !prev.ends_with(char::is_whitespace)
            && !chunk.starts_with(char::is_whitespace)
            && chunk.starts_with(|c: char| c.is_ascii_uppercase())
            && chunk.chars().count() >= 2
            && (prev.ends_with(['.', '?', '!', ':', ';']) || (prev == "`" && !self.backticks_odd));
        let text = if starts_turn { format!("\n{chunk}") } else { chunk.owned() };
        self.last_chunk = if chunk.len() <= MAX_CHUNK_BYTES { chunk.owned() } else { "x".owned() };
        if chunk.matches('`').count() % 2 == 1 {
            self.backticks_odd = !self.backticks_odd;
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    #[test]
    fn detection_leaves_opencode_and_codex_alone() {
        let d = |v| json_test::detect(detect, &v);
        assert_eq!(d(json!({"type":"text","data":"hi"})), Confidence::Sure);
        assert_eq!(d(json!({"type":"thought","data":"hm"})), Confidence::Sure);
        assert_eq!(d(json!({"type":"end","stopReason":"EndTurn"})), Confidence::Sure);
        assert_eq!(d(json!({"type":"text","part":{"text":"x"}})), Confidence::No);
        assert_eq!(d(json!({"type":"error","message":"boom"})), Confidence::No);
    }

    #[test]
    fn end_gives_a_notice_and_the_usage() {
        let v = json!({"type":"end","stopReason":"EndTurn","sessionId":"s1",
            "usage":{"input_tokens":21560,"output_tokens":960,"cache_read_input_tokens":25216},
            "total_cost_usd":0.0564448});
        let out = json_test::run(parse, &v, None::<&mut State>);
        assert_eq!(out[0], Entry::system("t", "Grok run completed: stop_reason=EndTurn session=s1"));
        match &out[1] {
            Entry::Result { input_tokens, output_tokens, cached_tokens, cost_usd, subtype, .. } => {
                assert_eq!((*input_tokens, *output_tokens, *cached_tokens), (21560.0, 960.0, 25216.0));
                assert_eq!(*cost_usd, 0.0564448);
                assert_eq!(subtype, "EndTurn");
            }
            other => panic!("{other:?}"),
        }
        let err = json!({"type":"error","error":{"message":"Authentication required"}});
        assert_eq!(
            json_test::run(parse, &err, None::<&mut State>),
            vec![Entry::stderr("t", "Authentication required")]
        );
    }

    #[test]
    fn glued_reasoning_turns_get_their_newline_back_when_stateful() {
        let mut st = State::default();
        let chunks = ["The user uses `", "ls", "`", "The", " `", "ls", "`", " returned"];
        let text: String = chunks.iter().map(|c| st.boundary(c)).collect();
        assert_eq!(text, "The user uses `ls`\nThe `ls` returned");
        let mut st = State::default();
        let text: String = ["returned", ":", "Confirmed", ":", " 4 files"].iter().map(|c| st.boundary(c)).collect();
        assert_eq!(text, "returned:\nConfirmed: 4 files");
    }
}
