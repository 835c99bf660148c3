//! Claw Code (`claw -p … --output-format json`, ultraworkers/claw-code's Rust CLI; Paperclip
//! adapter type `claw_local`): one JSON object on one line at the end of a run, no events on
//! the way, so every line reads alone and the stateless and stateful paths agree.
//!
//! - the run (`LiveCli::run_prompt_json`): `message` (the final assistant text), `model`,
//!   `iterations`, `auto_compaction` (null or `{removed_messages, notice}`), `tool_uses`
//!   (`{id, name, input}`, the input a JSON text), `tool_results` (`{tool_use_id, tool_name,
//!   output, is_error}`), `prompt_cache_events` (`{unexpected, reason,
//!   previous_cache_read_input_tokens, current_cache_read_input_tokens, token_drop}`), `usage`
//!   (`input_tokens`, `output_tokens`, `cache_creation_input_tokens`,
//!   `cache_read_input_tokens`: Anthropic's meanings, input without the cache) and
//!   `estimated_cost`, a text (`"$0.1234"`, claw's own estimate at its prices) → `init` (the
//!   model; claw prints no session id), each call followed by its result, the notices, the
//!   answer, and the run's `result` with its tokens, cost and model;
//! - `--compact`: only `message`, `compact: true`, `model`, `usage` → the answer and the result;
//! - a failure (`main`): `{type: "error", kind, status: "error", error_kind, error, message,
//!   action: "abort", hint, exit_code: 1, …}` → a failed `result` with the message, the hint
//!   as a notice.
//!
//! Text printed before the object on the same line (a permission prompt answered on stdin)
//! is read by the plain-text rules.
//!
//! Evidence: derived from claw's source (ultraworkers/claw-code, MIT,
//! `rust/crates/rusty-claude-cli/src/main.rs`) and the field values of a published real run
//! (shapes only: that report has no licence); tests/fixtures/claw/PROVENANCE.md.

use crate::prelude::*;
use super::common::{self, budget, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// How far past the first result not yet shown a call's result is looked for.
const LOOKAHEAD: usize = 64;

pub fn detect(v: &Value) -> Confidence {
    let num = |k: &str| v.get(k).is_some_and(|x| x.is_number());
    let text = |k: &str| v.get(k).is_some_and(|x| x.is_string());
    let usage = v.get("usage").is_some_and(|x| x.is_object());
    let run = num("iterations") && v.get("tool_uses").is_some_and(|x| x.is_array()) && usage && text("estimated_cost");
    let compact = v.get("compact").and_then(Value::as_bool) == Some(true) && text("message") && usage;
    let error = type_of(v) == "error" && str_of(v, "action") == Some("abort") && text("error_kind") && num("exit_code");
    Confidence::sure_if(run || compact || error)
}

pub fn parse(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let s = |k: &str| str_of(v, k).unwrap_or("");
    if type_of(v) == "error" {
        let kind = if s("error_kind").is_empty() { "error" } else { s("error_kind") };
        out.emit(Entry::untallied_result(ts, String::new(), kind, true, vec![format!("Claw Code: {}", s("message"))]));
        if !s("hint").is_empty() {
            out.emit(Entry::system(ts, format!("hint: {}", s("hint"))));
        }
        return;
    }
    if v.get("compact").is_none() {
        out.emit(Entry::init(ts, s("model"), ""));
    }
    let empty = Vec::new();
    let list = |k: &str| v.get(k).and_then(Value::as_array).unwrap_or(&empty);
    let results = list("tool_results");
    // Each call, then its result: claw lists both in the order the run made them, so a call's
    // result is looked for among the next LOOKAHEAD results not yet shown (bounded time on a
    // hostile line); results left over follow the calls, each shown once.
    let mut shown = vec![false; results.len()];
    let mut next = 0;
    let uses = list("tool_uses");
    for (i, call) in uses.iter().enumerate() {
        if budget::stopped() {
            budget::skip(uses.len() - i);
            break;
        }
        let id = str_of(call, "id");
        out.emit(Entry::tool_call(ts, str_of(call, "name").unwrap_or("tool"), common::arguments(call.get("input")), id.map(str::owned)));
        while next < results.len() && shown[next] {
            next += 1;
        }
        let window = next..results.len().min(next + LOOKAHEAD);
        if let Some(k) = window.filter(|&k| !shown[k]).find(|&k| id.is_some() && str_of(&results[k], "tool_use_id") == id) {
            shown[k] = true;
            result(&results[k], ts, out);
        }
    }
    for (k, r) in results.iter().enumerate() {
        if budget::stopped() {
            break;
        }
        if !shown[k] {
            result(r, ts, out);
        }
    }
    if let Some(notice) = v.get("auto_compaction").and_then(|a| str_of(a, "notice")) {
        out.emit(Entry::system(ts, notice));
    }
    for e in list("prompt_cache_events").iter().filter(|e| e.get("unexpected").and_then(Value::as_bool) == Some(true)) {
        if budget::stopped() {
            break;
        }
        let (was, now) = (num_of(e, "previous_cache_read_input_tokens"), num_of(e, "current_cache_read_input_tokens"));
        out.emit(Entry::system(ts, format!("prompt cache: {} (cache reads {} → {})", str_of(e, "reason").unwrap_or("dropped"), crate::json::num_text(was), crate::json::num_text(now))));
    }
    if !s("message").is_empty() {
        out.emit(Entry::assistant(ts, s("message")));
    }
    let usage = v.get("usage").unwrap_or(&Value::Null);
    let text = match v.get("iterations").and_then(Value::as_f64) {
        Some(n) => format!("{} iterations", crate::json::num_text(n)),
        None => String::new(),
    };
    let mut r = Entry::untallied_result(ts, text, "success", false, Vec::new());
    if let Entry::Result { input_tokens, output_tokens, cached_tokens, cache_creation_tokens, model, cost_usd, .. } = &mut r {
        *input_tokens = num_of(usage, "input_tokens");
        *output_tokens = num_of(usage, "output_tokens");
        *cached_tokens = num_of(usage, "cache_read_input_tokens");
        let write = num_of(usage, "cache_creation_input_tokens");
        *cache_creation_tokens = (write > 0.0).then_some(write);
        *model = Some(s("model").owned()).filter(|m| !m.is_empty());
        // "$0.1234": claw's estimate at its own prices, the only cost its log states.
        *cost_usd = s("estimated_cost")
            .strip_prefix('$')
            .and_then(crate::json::read::parse)
            .and_then(|n| n.as_f64())
            .unwrap_or(0.0);
    }
    out.emit(r);
}

/// A call's result. A bash result's `output` is claw's `BashCommandOutput` as pretty JSON:
/// shown as what the command printed (its stdout, then its stderr).
fn result(r: &Value, ts: &str, out: &mut Vec<Entry>) {
    let name = str_of(r, "tool_name").map(str::owned);
    let is_error = r.get("is_error").and_then(Value::as_bool) == Some(true);
    let output = str_of(r, "output").unwrap_or("");
    let printed = crate::json::read::parse(output).filter(|o| o.get("interrupted").is_some()).and_then(|o| {
        let (stdout, stderr) = (str_of(&o, "stdout")?.owned(), str_of(&o, "stderr").unwrap_or(""));
        Some(if stderr.is_empty() { stdout } else { crate::text::join([stdout.as_str(), stderr], "\n") })
    });
    out.emit(Entry::tool_result(ts, str_of(r, "tool_use_id").unwrap_or(""), name, printed.as_deref().unwrap_or(output), is_error));
}

#[cfg(test)]
mod tests {
    use crate::entry::Entry;
    use crate::parser::parse_line;

    #[test]
    fn a_run_reads_as_its_calls_answer_and_result() {
        let line = r#"{"auto_compaction":null,"estimated_cost":"$0.0412","iterations":2,"message":"Done.","model":"claude-sonnet-4-6","prompt_cache_events":[],"tool_results":[{"is_error":false,"output":"a.txt","tool_name":"bash","tool_use_id":"toolu_1"}],"tool_uses":[{"id":"toolu_1","input":"{\"command\": \"ls\"}","name":"bash"}],"usage":{"cache_creation_input_tokens":120,"cache_read_input_tokens":300,"input_tokens":1500,"output_tokens":40}}"#;
        let out = parse_line(line, "t");
        assert!(matches!(&out[0], Entry::Init { model, .. } if model == "claude-sonnet-4-6"));
        assert!(matches!(&out[1], Entry::ToolCall { name, input, tool_use_id: Some(id), .. } if name == "bash" && input["command"] == "ls" && id == "toolu_1"));
        assert!(matches!(&out[2], Entry::ToolResult { tool_use_id, content, is_error: false, .. } if tool_use_id == "toolu_1" && content == "a.txt"));
        assert!(matches!(&out[3], Entry::Assistant { text, .. } if text == "Done."));
        match &out[4] {
            Entry::Result { input_tokens, output_tokens, cached_tokens, cache_creation_tokens, cost_usd, model, text, .. } => {
                assert_eq!((*input_tokens, *output_tokens, *cached_tokens, *cache_creation_tokens), (1500.0, 40.0, 300.0, Some(120.0)));
                assert_eq!((*cost_usd, model.as_deref(), text.as_str()), (0.0412, Some("claude-sonnet-4-6"), "2 iterations"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn a_failure_is_a_failed_result_with_its_words() {
        let line = r#"{"action":"abort","error":"missing Anthropic credentials","error_kind":"missing_credentials","exit_code":1,"hint":"export ANTHROPIC_API_KEY","kind":"missing_credentials","message":"missing Anthropic credentials","status":"error","type":"error"}"#;
        match &parse_line(line, "t")[..] {
            [Entry::Result { is_error: true, subtype, errors, .. }, Entry::System { text, .. }] => {
                assert_eq!(subtype, "missing_credentials");
                assert_eq!(errors, &["Claw Code: missing Anthropic credentials".to_owned()]);
                assert_eq!(text, "hint: export ANTHROPIC_API_KEY");
            }
            other => panic!("{other:?}"),
        }
    }
}
