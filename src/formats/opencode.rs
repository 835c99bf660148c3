//! OpenCode: `opencode run --format json` (sst/opencode, now anomalyco/opencode).
//!
//! Every line is `{type, timestamp (ms), sessionID, …}`, written by the `emit()` helper of
//! `packages/opencode/src/cli/cmd/run.ts`. What that command prints:
//! - `step_start` / `step_finish` with `part` (a step-start / step-finish part: `reason`,
//!   `tokens{input, output, reasoning, cache{read, write}}`, `cost`);
//! - `text` with a finished text part (`part.text`, printed once `part.time.end` is set);
//! - `reasoning` with a finished reasoning part (only with `--thinking`);
//! - `tool_use` with a tool part (`part.callID`, `part.tool`, `part.state{status, input,
//!   output, error, title, metadata, time{start, end}}`); current versions print it only
//!   when the status is `completed` or `error`, older ones and forks may print
//!   `pending`/`running` too;
//! - `error` with `error{name, data{message, …}}` (a session error or a failed prompt);
//! - `done` with `reason` ("idle") and `rejected` (auto-rejected permissions).
//!
//! Mapping: step_start → nothing (ids only); text → assistant; reasoning → thinking;
//! tool_use → tool_call (id = `callID`) plus, once completed/error, tool_result (with
//! `durationMs` from `state.time`, and a diff when `metadata.diff` holds one);
//! step_finish → a `result` entry for every step (usage is per step; reasoning tokens are
//! counted as output; a `tool-calls` step's text says so); error → stderr "error: …"; done → system. Stateless: a
//! completed tool_use gives both call and result; stateful: if the same `callID` was
//! already shown as called (pending/running seen) only the result is added.
//!
//! Evidence: run.ts (read via the code index), corpus `opencode-json/` (noldor capture,
//! takopi capture and test literal).

use crate::prelude::*;
use super::common::{self, num_of, path, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{Json, Value};

/// Tool call ids remembered by the stateful parser.
const MAX_IDS: usize = 2048;

const EVENTS: [&str; 7] = [
    "step_start",
    "step_finish",
    "text",
    "reasoning",
    "tool_use",
    "error",
    "done",
];

/// Call ids already shown as `tool_call` (and those already finished), bounded.
#[derive(Debug, Default)]
pub struct State {
    /// Shown call ids, `true` once the result was shown too.
    called: common::SeenIds,
}

pub fn detect(v: &Value) -> Confidence {
    let ty = type_of(v);
    if !EVENTS.contains(&ty) {
        return Confidence::No;
    }
    // `sessionID` (capital ID) next to a millisecond `timestamp` is OpenCode's envelope.
    if str_of(v, "sessionID").is_some() && v.get("timestamp").is_some_and(Value::is_number) {
        return Confidence::Sure;
    }
    let part_ty = path(v, &["part", "type"])
        .and_then(Value::as_str)
        .unwrap_or("");
    if matches!(part_ty, "step-start" | "step-finish" | "tool" | "reasoning")
        || (ty == "text" && part_ty == "text")
    {
        return Confidence::Maybe;
    }
    Confidence::No
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let part = v.get("part").unwrap_or(&Value::Null);
    match type_of(v) {
        // A step's start says nothing but ids (its `step_finish` is the step's result, with
        // tokens and cost): a row of ids before every model call, not shown.
        "step_start" => {}
        "text" => {
            if let Some(t) = str_of(part, "text").filter(|t| !t.trim().is_empty()) {
                out.emit(Entry::assistant(ts, t));
            }
        }
        "reasoning" => {
            if let Some(t) = str_of(part, "text").filter(|t| !t.trim().is_empty()) {
                out.emit(Entry::thinking(ts, t));
            }
        }
        "tool_use" => tool_use(part, ts, state, out),
        "step_finish" => step_finish(part, ts, out),
        "error" => out.emit(Entry::stderr(
            ts,
            format!("error: {}", error_text(v.get("error"))),
        )),
        "done" => out.emit(done(v, ts)),
        _ => out.emit(common::unknown_event(ts, "opencode", v)),
    }
}

fn tool_use(part: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let name = str_of(part, "tool").unwrap_or("tool");
    let st = part.get("state").unwrap_or(&Value::Null);
    let status = str_of(st, "status").unwrap_or("");
    // Without a callID, the part id is stable and unique per tool part.
    let id = str_of(part, "callID")
        .or_else(|| str_of(part, "id"))
        .map(str::owned)
        .unwrap_or_else(|| format!("opencode-{name}"));
    let done = matches!(status, "completed" | "error");
    let (show_call, show_result) = match state {
        None => (true, done),
        Some(s) => {
            let seen = s.called.get(&id).is_some();
            let finished = s.called.get(&id) == Some(&Json::Bool(true));
            s.called.set(&id, Json::Bool(finished || done), MAX_IDS);
            (!seen, done && !finished)
        }
    };
    if show_call {
        let input = st
            .get("input")
            .map(Value::to_json)
            .unwrap_or(Json::Object(Default::default()));
        out.emit(Entry::tool_call(ts, name, input, Some(id.clone())));
    }
    if !show_result {
        return;
    }
    let is_error = status == "error";
    let content = if is_error {
        str_of(st, "error")
            .map(str::owned)
            .unwrap_or_else(|| "tool failed".owned())
    } else {
        let output = match st.get("output") {
            Some(Value::String(s)) => s.to_string(),
            Some(other) => common::content_text(other),
            None => String::new(),
        };
        if output.is_empty() {
            "(no output)".owned()
        } else {
            output
        }
    };
    let mut result = Entry::tool_result(ts, id, Some(name.owned()), content, is_error);
    if let Entry::ToolResult { duration_ms, .. } = &mut result {
        let start = path(st, &["time", "start"]).and_then(Value::as_f64);
        let end = path(st, &["time", "end"]).and_then(Value::as_f64);
        if let (Some(a), Some(b)) = (start, end) {
            if b >= a && b.is_finite() {
                *duration_ms = Some((b - a) as u64);
            }
        }
    }
    out.emit(result);
    if let Some(diff) = path(st, &["metadata", "diff"]).and_then(Value::as_str) {
        push_diff(diff, ts, out);
    }
}

/// A unified diff as `diff` entries (shared with the other runtimes that report diffs).
pub use super::common::diff::push_unified as push_diff;

/// Every step's usage is its own (OpenCode reports per step, not cumulative), so each
/// step is one `result` (as the host's built-in parser gives) and the host's sum over them
/// is the run's total. Reasoning tokens are output tokens.
fn step_finish(part: &Value, ts: &str, out: &mut Vec<Entry>) {
    let reason = str_of(part, "reason").unwrap_or("");
    let tokens = part.get("tokens").unwrap_or(&Value::Null);
    let input = num_of(tokens, "input");
    let output = num_of(tokens, "output") + num_of(tokens, "reasoning");
    let cached = path(tokens, &["cache", "read"])
        .and_then(Value::as_f64)
        .unwrap_or(0.0);
    let cost = num_of(part, "cost");
    out.emit(Entry::Result {
        ts: ts.owned(),
        // A `tool-calls` step is a model call on the way, not the run's end: its text says
        // what it counts (`common::MID_RUN`).
        text: String::new(),
        input_tokens: input,
        output_tokens: output,
        cached_tokens: cached,
        cache_creation_tokens: path(tokens, &["cache", "write"]).and_then(Value::as_f64).filter(|n| *n > 0.0),
        cache_creation_1h_tokens: None,
        reasoning_tokens: Some(num_of(tokens, "reasoning")).filter(|n| *n > 0.0),
        model: None,
        call_id: None,
        cost_usd: cost,
        subtype: if reason.is_empty() {
            "step-finish".owned()
        } else {
            reason.owned()
        },
        is_error: reason == "error",
        errors: Vec::new(),
    });
}

/// `name: data.message`, or whichever of them exists.
fn error_text(err: Option<&Value>) -> String {
    match err {
        Some(Value::String(s)) => s.to_string(),
        Some(e @ Value::Object(_)) => {
            let name = str_of(e, "name");
            let msg = path(e, &["data", "message"])
                .and_then(Value::as_str)
                .or_else(|| str_of(e, "message"));
            match (name, msg) {
                (Some(n), Some(m)) => format!("{n}: {m}"),
                (Some(n), None) => n.owned(),
                (None, Some(m)) => m.owned(),
                (None, None) => common::error_text(e).unwrap_or_else(|| "unknown error".owned()),
            }
        }
        _ => "unknown error".owned(),
    }
}

fn done(v: &Value, ts: &str) -> Entry {
    let reason = str_of(v, "reason").unwrap_or("done");
    let rejected: Vec<&str> = v
        .get("rejected")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if rejected.is_empty() {
        Entry::system(ts, format!("run finished ({reason})"))
    } else {
        Entry::system(
            ts,
            format!(
                "run finished ({reason}); auto-rejected permissions: {}",
                common::join(&rejected, ", ")
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn detect(v: &Value) -> Confidence {
        crate::formats::common::json_test::detect(super::detect, v)
    }

    fn run(v: &Value, state: Option<&mut State>) -> Vec<Entry> {
        crate::formats::common::json_test::run(parse, v, state)
    }

    fn tool(status: &str) -> Value {
        json!({"type":"tool_use","timestamp":1,"sessionID":"ses_1","part":{"type":"tool","callID":"c1","tool":"bash",
            "state":{"status":status,"input":{"command":"ls"},"output":"a\n","error":"boom","time":{"start":100,"end":350}}}})
    }

    #[test]
    fn detects_the_envelope() {
        assert_eq!(detect(&tool("completed")), Confidence::Sure);
        assert_eq!(
            detect(&json!({"type":"error","message":"x"})),
            Confidence::No
        );
        assert_eq!(
            detect(&json!({"type":"text","part":{"type":"text","text":"x"}})),
            Confidence::Maybe
        );
    }

    #[test]
    fn stateless_completed_tool_gives_call_and_result_with_duration() {
        let out = run(&tool("completed"), None);
        assert_eq!(out.len(), 2);
        assert!(matches!(&out[0], Entry::ToolCall { tool_use_id: Some(id), .. } if id == "c1"));
        assert!(
            matches!(&out[1], Entry::ToolResult { duration_ms: Some(250), is_error: false, content, .. } if content == "a\n")
        );
    }

    #[test]
    fn stateful_running_then_completed_shows_the_call_once() {
        let mut s = State::default();
        assert_eq!(run(&tool("running"), Some(&mut s)).len(), 1);
        assert_eq!(run(&tool("running"), Some(&mut s)).len(), 0);
        let out = run(&tool("error"), Some(&mut s));
        assert_eq!(out.len(), 1);
        assert!(
            matches!(&out[0], Entry::ToolResult { is_error: true, content, .. } if content == "boom")
        );
        assert!(run(&tool("error"), Some(&mut s)).is_empty());
    }

    #[test]
    fn step_finish_and_errors() {
        let stop = json!({"type":"step_finish","sessionID":"s","timestamp":1,"part":{"reason":"stop","cost":0.5,"tokens":{"input":10,"output":3,"cache":{"read":7}}}});
        assert!(
            matches!(&run(&stop, None)[0], Entry::Result { input_tokens, cached_tokens, cost_usd, .. } if *input_tokens == 10.0 && *cached_tokens == 7.0 && *cost_usd == 0.5)
        );
        // Every step is a result (its usage is its own), reasoning counted as output.
        let more = json!({"type":"step_finish","sessionID":"s","timestamp":1,"part":{"reason":"tool-calls","cost":0.25,"tokens":{"input":4,"output":2,"reasoning":5}}});
        assert!(
            matches!(&run(&more, None)[0], Entry::Result { output_tokens, cost_usd, subtype, .. } if *output_tokens == 7.0 && *cost_usd == 0.25 && subtype == "tool-calls")
        );
        let err = json!({"type":"error","sessionID":"s","timestamp":1,"error":{"name":"APIError","data":{"message":"timeout"}}});
        assert!(
            matches!(&run(&err, None)[0], Entry::Stderr { text, .. } if text == "error: APIError: timeout")
        );
    }

    #[test]
    fn edit_diff_becomes_diff_entries() {
        let v = json!({"type":"tool_use","sessionID":"s","timestamp":1,"part":{"callID":"e","tool":"edit","state":{"status":"completed","input":{},"output":"",
            "metadata":{"diff":"Index: a.txt\n--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-old\n+new\n same"}}}});
        let kinds: Vec<&str> = run(&v, None).iter().map(Entry::kind).collect();
        assert_eq!(
            kinds,
            [
                "tool_call",
                "tool_result",
                "diff",
                "diff",
                "diff",
                "diff",
                "diff",
                "diff",
                "diff"
            ]
        );
    }
}
