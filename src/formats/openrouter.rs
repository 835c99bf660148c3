//! The OpenRouter tool loop: Paperclip adapters that run the agent loop in process against
//! OpenRouter's chat-completions API (no CLI) and print one JSON line per step. Two adapters
//! print it: HLLMR/paperclip-openrouter (`src/server/execute.ts`) and
//! paperclip-adapter-qwen-openrouter 0.4.0 on npm (`dist/server/execute.js`, MIT).
//!
//! - `{"type":"system","subtype":"init","ts","model","runId"}` → `init` (the run id is the
//!   session: the loop has no other);
//! - `{"type":"message","role","ts","text"}` → `assistant` (role `assistant`), `user`, or a
//!   `system` notice naming another role;
//! - `{"type":"tool_call","ts","name","input","toolUseId"}` and `{"type":"tool_result","ts",
//!   "toolUseId","toolName","content","isError"}` are transcript entries with `type` for
//!   `kind`: `super::entries` reads them, for this runtime and every other;
//! - `{"type":"result","ts","model","finishReason","elapsedMs","usage":{"inputTokens",
//!   "outputTokens","cachedInputTokens"},"costUsd","isError","errors"?}` → `result` (the
//!   run's totals: one per run, summed over the loop's requests; `costUsd` null when
//!   OpenRouter reported none);
//! - `{"type":"error","message"|"error"}` → `stderr`.
//!
//! Evidence: the adapters' own code (the lines are written there, the npm package's parser
//! and HLLMR's `src/ui-parser.test.ts` read them); fixtures built from the npm package's
//! `execute.js` (tests/fixtures/openrouter/PROVENANCE.md). The package's own parser runs as
//! a test oracle (tests/js/npm-oracle.test.mjs).

use crate::prelude::*;
use super::common::{self, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::json::{self, Value};
use crate::entry::Entry;

pub fn detect(v: &Value) -> Confidence {
    let has = |k: &str| v.get(k).is_some();
    let sure = match type_of(v) {
        "system" => str_of(v, "subtype") == Some("init") && str_of(v, "runId").is_some() && !has("session_id"),
        "message" => str_of(v, "role").is_some() && str_of(v, "text").is_some() && !has("content"),
        "result" => (has("finishReason") || has("elapsedMs")) && v.get("usage").is_some_and(|u| u.get("inputTokens").is_some()),
        _ => false,
    };
    Confidence::sure_if(sure)
}

pub fn parse(v: &Value, _line: &str, ts: &str, _state: Option<&mut ()>, out: &mut Vec<Entry>) {
    let text = |k: &str| str_of(v, k).unwrap_or("");
    match type_of(v) {
        "system" if str_of(v, "subtype") == Some("init") => out.emit(Entry::init(ts, text("model"), text("runId"))),
        "message" => {
            let said = text("text");
            if said.trim().is_empty() {
                return;
            }
            out.emit(match text("role") {
                "assistant" => Entry::assistant(ts, said),
                "user" => Entry::user(ts, said),
                role => Entry::system(ts, format!("{role}: {said}")),
            });
        }
        "result" => {
            let usage = v.get("usage").unwrap_or(&Value::Null);
            let is_error = v.get("isError").and_then(Value::as_bool) == Some(true);
            let reason = text("finishReason");
            let mut summary = format!("OpenRouter completion finished{}", if is_error { " with error" } else { "" });
            let mut facts = Vec::new();
            if !reason.is_empty() {
                facts.push(format!("finish_reason={reason}"));
            }
            let ms = num_of(v, "elapsedMs");
            if ms > 0.0 {
                facts.push(format!("elapsed={}ms", json::num_text(ms)));
            }
            if !facts.is_empty() {
                summary = format!("{summary} ({})", common::join(&facts, ", "));
            }
            let mut errors: Vec<String> = match v.get("errors") {
                Some(Value::Array(a)) => a.iter().map(|e| e.as_str().map_or_else(|| e.to_compact(), str::owned)).collect(),
                _ => Vec::new(),
            };
            if is_error && errors.is_empty() {
                errors.push(summary.clone());
            } else if is_error {
                for e in &mut errors {
                    *e = format!("{summary}: {e}");
                }
            }
            out.emit(Entry::Result {
                ts: ts.owned(),
                text: summary,
                input_tokens: num_of(usage, "inputTokens"),
                output_tokens: num_of(usage, "outputTokens"),
                cached_tokens: num_of(usage, "cachedInputTokens"),
                cache_creation_tokens: None,
                cache_creation_1h_tokens: None,
                reasoning_tokens: None,
                model: None,
                call_id: None,
                cost_usd: num_of(v, "costUsd"),
                subtype: if reason.is_empty() { "completion" } else { reason }.owned(),
                is_error,
                errors,
            });
        }
        "error" => {
            let msg = ["message", "error"].iter().find_map(|k| str_of(v, k)).unwrap_or("error");
            out.emit(Entry::stderr(ts, msg));
        }
        _ => out.emit(common::unknown_event(ts, "openrouter", v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test::{detect as det, run};
    use serde_json::json;

    #[test]
    fn detection_leaves_claude_and_gemini_alone() {
        assert_eq!(det(detect, &json!({"type":"system","subtype":"init","model":"m","runId":"r"})), Confidence::Sure);
        assert_eq!(det(detect, &json!({"type":"system","subtype":"init","model":"m","session_id":"s","runId":"r"})), Confidence::No);
        assert_eq!(det(detect, &json!({"type":"message","role":"assistant","content":"x"})), Confidence::No);
        assert_eq!(det(detect, &json!({"type":"result","subtype":"success","usage":{"input_tokens":1}})), Confidence::No);
    }

    #[test]
    fn its_result_line_is_its_own_on_the_stateless_path() {
        // Cursor's reader of camelCase `result` lines took it (and lost cost and cache) before
        // this runtime's detection came first.
        let line = r#"{"type":"result","model":"m","finishReason":"stop","elapsedMs":5,"usage":{"inputTokens":100,"outputTokens":20,"cachedInputTokens":80},"costUsd":0.0012,"isError":false}"#;
        let out = crate::parser::parse_line(line, "t");
        assert!(matches!(&out[0], Entry::Result { cost_usd, cached_tokens, subtype, .. } if *cost_usd == 0.0012 && *cached_tokens == 80.0 && subtype == "stop"), "{out:?}");
    }

    #[test]
    fn a_run() {
        let init = run(parse, &json!({"type":"system","subtype":"init","model":"qwen/qwen3-coder","runId":"run-1"}), None);
        assert_eq!(init, vec![Entry::init("t", "qwen/qwen3-coder", "run-1")]);
        let said = run(parse, &json!({"type":"message","role":"assistant","text":"Done."}), None);
        assert_eq!(said, vec![Entry::assistant("t", "Done.")]);
        let res = run(parse, &json!({"type":"result","finishReason":"stop","elapsedMs":1234,"usage":{"inputTokens":100,"outputTokens":20,"cachedInputTokens":80},"costUsd":0.0012,"isError":false}), None);
        match &res[0] {
            Entry::Result { input_tokens, cached_tokens, cost_usd, subtype, text, .. } => {
                assert_eq!((*input_tokens, *cached_tokens, *cost_usd), (100.0, 80.0, 0.0012));
                assert_eq!(subtype, "stop");
                assert_eq!(text, "OpenRouter completion finished (finish_reason=stop, elapsed=1234ms)");
            }
            other => panic!("{other:?}"),
        }
        let failed = run(parse, &json!({"type":"result","finishReason":"length","usage":{"inputTokens":1,"outputTokens":0},"costUsd":null,"isError":true,"errors":["Hit maxToolTurns (8) without a final assistant message."]}), None);
        assert!(matches!(&failed[0], Entry::Result { is_error: true, errors, cost_usd, .. } if errors[0].ends_with("without a final assistant message.") && *cost_usd == 0.0));
    }
}
