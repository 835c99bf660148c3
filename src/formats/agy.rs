//! Google Antigravity CLI, `agy -p "<prompt>" --output-format stream-json` (agy 1.3.x; the
//! adapters monaygod/Paperclip-AntigravityCLI-Adapter and maxvue/MaxPaperclipAgyAdapter run
//! it): one event per line, `{"event": <name>, <name>: {…}}`.
//!
//! - `init` (`conversation_id`, `init{cwd, tools, permission_mode, model?}`) → `init`
//! - `step_update` (`conversation_id`, `step_index`, `state` ACTIVE / DONE / ERROR,
//!   `step_type`):
//!   - `agent_response`: `text_delta` → `assistant` delta (`thinking_delta` → `thinking`);
//!     its `usage` is the step's, counted again in the result's total, so not shown
//!   - `tool`: ACTIVE → `tool_call` (`tool_info.name`, `tool_info.parameters`), DONE →
//!     `tool_result` (`tool_info.output`; a tool the permission mode refused is DONE with
//!     no output, and only the result's `denied_actions` says so), ERROR → an error result
//!     (`tool_info.error.message`). agy has no tool ids: `agy-<conversation>:<step>` pairs
//!     a call with its result on both paths.
//!   - `subagent` (`invoke_subagent`, `subagent_info.subagents[]`): a call with the
//!     subagents' roles and prompts, its result names each subagent's conversation.
//!   - `user_input`, `system_message`, `checkpoint`, `finish`: bookkeeping with no text;
//!     nothing is shown unless the step failed.
//! - `result` (`status` SUCCESS / ERROR / …, `response`, `error`, `usage{input_tokens,
//!   output_tokens, thinking_tokens, cache_read_tokens}`, `num_turns`, `denied_actions[]`) →
//!   `result` (thinking counted as output; an error status and each denied action in
//!   `errors`); each denied action also as a `stderr` row before it (the refused step showed
//!   nothing). After `--resume` / `--continue` the result's usage is the conversation's, its
//!   earlier runs included: the stateful parser counts the run's own steps instead ([`State`]);
//!   read alone, a result line cannot tell its run's part.
//! - `AGY_ERROR: {json}` on stderr (read by [`error_line`] from text lines) → `stderr`.
//!
//! Evidence: the scrubbed real runs of agy 1.3.x in littlebearapps/untether
//! `tests/fixtures/antigravity/` (MIT; copied to tests/fixtures/agy/ with provenance), whose
//! `synthetic_*` files are hand-made (the `AGY_ERROR` shape comes only from them).
//! Details: docs/formats/agy.md.

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, num_of, str_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{Json, Map, Value};

pub fn detect(v: &Value) -> Confidence {
    let Some(ev) = str_of(v, "event") else { return Confidence::No };
    match ev {
        "step_update" if v.get("step_update").is_some_and(|s| s.get("step_type").is_some()) => Confidence::Sure,
        "result" if v.get("result").is_some_and(|r| r.get("status").is_some() && r.get("conversation_id").is_some()) => {
            Confidence::Sure
        }
        "init" if v.get("init").is_some() && v.get("conversation_id").is_some() => Confidence::Sure,
        "command_result" => Confidence::Maybe,
        _ => Confidence::No,
    }
}

/// What the stateful parser counts between a run's lines: the usage of the run's own
/// `agent_response` steps (input, output, thinking, cache reads), which add up to a fresh
/// run's result and to less than a resumed one's.
#[derive(Debug, Default)]
pub struct State {
    steps: [f64; 4],
}

const USAGE_KEYS: [&str; 4] = ["input_tokens", "output_tokens", "thinking_tokens", "cache_read_tokens"];

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let ev = str_of(v, "event").unwrap_or("");
    let body = v.get(ev).unwrap_or(&Value::Null);
    match ev {
        "init" => {
            if let Some(st) = state {
                *st = State::default();
            }
            out.emit(Entry::init(
                ts,
                str_of(body, "model").unwrap_or(""),
                str_of(v, "conversation_id").unwrap_or(""),
            ))
        }
        "step_update" => {
            if let (Some(st), Some(u)) = (state, body.get("usage").filter(|u| u.is_object())) {
                for (n, k) in st.steps.iter_mut().zip(USAGE_KEYS) {
                    *n += num_of(u, k).max(0.0);
                }
            }
            step(body, ts, out)
        }
        "result" => {
            // A refused action's step is DONE with no output: the refusal is said only here,
            // so it is shown as an error of its own before the run's end.
            if let Some(Value::Array(denied)) = body.get("denied_actions") {
                for d in denied {
                    out.emit(Entry::stderr(ts, denied_action(d)));
                }
            }
            let mut r = result(body, ts);
            if let (Some(st), Entry::Result { input_tokens, output_tokens, cached_tokens, reasoning_tokens, .. }) = (state, &mut r) {
                let [i, o, t, c] = core::mem::take(&mut st.steps);
                // A resumed conversation's total, more than this run's steps: the steps.
                if i + o + t + c > 0.0 && *input_tokens + *output_tokens + *cached_tokens > i + o + t + c {
                    (*input_tokens, *output_tokens, *cached_tokens) = (i, o + t, c);
                    *reasoning_tokens = Some(t).filter(|n| *n > 0.0);
                }
            }
            out.emit(r)
        }
        _ => out.emit(common::unknown_event(ts, "agy", v)),
    }
}

fn step(s: &Value, ts: &str, out: &mut Vec<Entry>) {
    let state = str_of(s, "state").unwrap_or("");
    let id = format!(
        "agy-{}:{}",
        str_of(s, "conversation_id").unwrap_or(""),
        num_of(s, "step_index") as u64
    );
    let failed = state == "ERROR";
    match str_of(s, "step_type").unwrap_or("") {
        "agent_response" => {
            if let Some(t) = nonempty_str(s, "thinking_delta") {
                out.emit(Entry::thinking_delta(ts, t));
            }
            if let Some(t) = nonempty_str(s, "text_delta") {
                out.emit(Entry::assistant_delta(ts, t));
            }
        }
        kind @ ("tool" | "subagent") => {
            let info = s.get(if kind == "tool" { "tool_info" } else { "subagent_info" }).unwrap_or(&Value::Null);
            let name = str_of(info, "name").or_else(|| str_of(s, "tool_name")).unwrap_or(kind);
            match state {
                "ACTIVE" => {
                    let input = if kind == "tool" { info.get("parameters") } else { Some(info) };
                    let input = input.filter(|p| p.is_object()).map_or_else(|| Json::Object(Map::default()), |p| p.to_json());
                    out.emit(Entry::tool_call(ts, name, input, Some(id)));
                    return;
                }
                _ => {
                    let content = match (kind, info.get("error")) {
                        (_, Some(e)) => common::error_text(e).unwrap_or_else(|| "failed".owned()),
                        ("tool", None) => info.get("output").map(content_text).unwrap_or_default(),
                        _ => subagents_text(info),
                    };
                    let content = if content.is_empty() && !failed { "(no output)".owned() } else { content };
                    let mut e = Entry::tool_result(ts, id, Some(name.owned()), content, failed || info.get("error").is_some());
                    if let (Entry::ToolResult { duration_ms, .. }, Some(secs)) = (&mut e, s.get("duration_seconds").and_then(Value::as_f64)) {
                        *duration_ms = Some(crate::json::round(secs.max(0.0) * 1000.0) as u64);
                    }
                    out.emit(e);
                    return;
                }
            }
        }
        _ => {}
    }
    if failed {
        let what = s.get("error").and_then(common::error_text).unwrap_or_else(|| "a step failed".owned());
        out.emit(Entry::stderr(ts, what));
    }
}

/// The subagents a step started: role, type and conversation.
fn subagents_text(info: &Value) -> String {
    let list = info.get("subagents").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let lines: Vec<String> = list
        .iter()
        .map(|a| {
            let role = str_of(a, "role").or_else(|| str_of(a, "type_name")).unwrap_or("subagent");
            match str_of(a, "conversation_id") {
                Some(c) => format!("{role}: started (conversation {c})"),
                None => format!("{role}: started"),
            }
        })
        .collect();
    common::join(&lines, "\n")
}

/// `denied by the permission mode: RunCommand (command)`.
fn denied_action(d: &Value) -> String {
    let name = str_of(d, "display_name");
    let action = str_of(d, "action");
    match (name, action) {
        (Some(n), Some(a)) if n != a => format!("denied by the permission mode: {n} ({a})"),
        (Some(w), _) | (None, Some(w)) => format!("denied by the permission mode: {w}"),
        (None, None) => "denied by the permission mode: an action".owned(),
    }
}

fn result(r: &Value, ts: &str) -> Entry {
    let usage = r.get("usage").unwrap_or(&Value::Null);
    let status = str_of(r, "status").unwrap_or("");
    let mut errors: Vec<String> = r.get("error").and_then(common::error_text).into_iter().collect();
    if let Some(Value::Array(denied)) = r.get("denied_actions") {
        for d in denied {
            errors.push(denied_action(d));
        }
    }
    Entry::Result {
        ts: ts.owned(),
        text: str_of(r, "response").unwrap_or("").owned(),
        input_tokens: num_of(usage, "input_tokens"),
        output_tokens: num_of(usage, "output_tokens") + num_of(usage, "thinking_tokens"),
        cached_tokens: num_of(usage, "cache_read_tokens"),
        cache_creation_tokens: None,
        cache_creation_1h_tokens: None,
        reasoning_tokens: Some(num_of(usage, "thinking_tokens")).filter(|n| *n > 0.0),
        model: None,
        call_id: None,
        cost_usd: 0.0,
        subtype: status.to_ascii_lowercase(),
        is_error: !status.is_empty() && status != "SUCCESS",
        errors,
    }
}

/// `AGY_ERROR: {json}`, what agy writes to stderr when it fails before or outside the
/// stream: an error, read as a message.
pub fn error_line(line: &str, ts: &str) -> Option<Entry> {
    let rest = line.trim().strip_prefix("AGY_ERROR:")?.trim();
    let text = match crate::json::read::parse(rest) {
        Some(v) => common::error_text(&v).unwrap_or_else(|| "Antigravity error".owned()),
        None => rest.owned(),
    };
    Some(Entry::stderr(ts, format!("Antigravity: {text}")))
}

#[cfg(test)]
mod tests {
    use crate::entry::Entry;
    use crate::parser::{parse_line, StdoutParser};

    #[test]
    fn a_tool_step_pairs_on_both_paths_and_a_failure_is_an_error() {
        let step = |state: &str, info: &str| {
            format!(r#"{{"event":"step_update","step_update":{{"conversation_id":"c1","step_index":3,"state":"{state}","step_type":"tool","tool_name":"run_command","tool_info":{info}}}}}"#)
        };
        let call = parse_line(&step("ACTIVE", r#"{"name":"run_command","parameters":{"CommandLine":"ls"}}"#), "t");
        let failed = parse_line(&step("ERROR", r#"{"name":"run_command","parameters":{},"error":{"type":"exec","message":"exit 2"}}"#), "t");
        match (&call[..], &failed[..]) {
            ([Entry::ToolCall { tool_use_id: Some(a), name, .. }], [Entry::ToolResult { tool_use_id: b, is_error: true, content, .. }]) => {
                assert_eq!((a.as_str(), name.as_str()), ("agy-c1:3", "run_command"));
                assert_eq!((b.as_str(), content.as_str()), ("agy-c1:3", "exit 2"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn agy_error_lines_are_errors_and_lock_nothing_else() {
        let line = r#"AGY_ERROR: {"code":"UNAUTHENTICATED","message":"Please sign in with agy login"}"#;
        assert_eq!(parse_line(line, "t"), vec![Entry::stderr("t", "Antigravity: Please sign in with agy login")]);
        let mut p = StdoutParser::new();
        assert_eq!(p.parse_line("AGY_ERROR: not json", "t"), vec![Entry::stderr("t", "Antigravity: not json")]);
        // A line that merely mentions it is plain text.
        assert!(matches!(&parse_line("see AGY_ERROR: docs", "t")[..], [Entry::Stdout { .. }]));
    }

    /// A resumed conversation's result counts its earlier runs too (26,537 in / 89 out for
    /// a run whose one model call took 13,453 / 3, real agy 1.3.x): the stateful parser
    /// gives the run's own steps; read alone, the line gives what it states. A fresh run's
    /// steps add up to its result, which stays as it is.
    #[test]
    fn a_resumed_runs_result_counts_the_runs_own_steps_when_stateful() {
        let totals = |file: &str, stateful: bool| {
            let text = std::fs::read_to_string(format!("{}/tests/fixtures/agy/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let mut p = StdoutParser::new();
            let entries: Vec<Entry> = text.lines().flat_map(|l| if stateful { p.parse_line(l, "t") } else { parse_line(l, "t") }).collect();
            let r: Vec<(f64, f64)> = entries
                .iter()
                .filter_map(|e| match e {
                    Entry::Result { input_tokens, output_tokens, .. } => Some((*input_tokens, *output_tokens)),
                    _ => None,
                })
                .collect();
            r
        };
        assert_eq!(totals("untether-resume_after_interrupt.jsonl", true), [(13453.0, 3.0)]);
        assert_eq!(totals("untether-resume_after_interrupt.jsonl", false), [(26537.0, 89.0)]);
        assert_eq!(totals("untether-continue_workspace.jsonl", true), [(13474.0, 33.0)]);
        for stateful in [false, true] {
            assert_eq!(totals("untether-subagent.jsonl", stateful), [(40142.0, 128.0)]);
        }
    }
}
