//! oh-my-pi (`omp -p --mode json`, npm `@oh-my-pi/pi-coding-agent`): pi's JSON event stream
//! plus the session events omp adds (`AgentSessionEvent` in can1357/oh-my-pi
//! `packages/coding-agent/src/session/agent-session-events.ts`). The pi events themselves are
//! read by the pi module; this file reads only omp's own:
//!
//! - `notice {level info|warning|error, message, source?}` (omp prints one after the run
//!   when an advisor is unavailable, and in between turns) → `system` (`warning (advisor):
//!   …`), `stderr` for level error;
//! - `retry_fallback_applied {from, to, role}`, `retry_fallback_succeeded {model, role}`,
//!   `thinking_level_changed {thinkingLevel, configured?, resolved?}`, `ttsr_triggered
//!   {rules[{name}]}`, `todo_reminder {todos[{content,status}], attempt, maxAttempts}`,
//!   `irc_message {message}`, `goal_updated {goal|null}` → one `system` line each;
//! - `model_changed`, `config_warnings_changed`, `advisor_cost_changed`, `advisor_yielded`,
//!   `todo_auto_clear` (signals without payload) → a short `system` line naming them;
//! - `tool_stream_update` (a live snapshot that `tool_execution_end` completes) → nothing.
//!
//! Evidence: real `omp/17.3.8` captures (PierrickGT/paperclip-omp-adapter test fixtures,
//! `tests/fixtures/pi/PROVENANCE.md`) and omp's event types.

use crate::prelude::*;
use super::super::common::{self, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// Event types only omp prints (besides `notice`, whose shape is generic).
const OMP_EVENTS: [&str; 14] = [
    "retry_fallback_applied",
    "retry_fallback_succeeded",
    "model_changed",
    "config_warnings_changed",
    "advisor_cost_changed",
    "advisor_yielded",
    "ttsr_triggered",
    "todo_reminder",
    "todo_auto_clear",
    "irc_message",
    "thinking_level_changed",
    "goal_updated",
    "tool_stream_update",
    "notice",
];

pub fn detect(v: &Value) -> Confidence {
    match type_of(v) {
        // `{type:"notice", level, message}` is a common shape: read it, never lock on it.
        "notice" if v.get("level").is_some() && v.get("message").is_some() => Confidence::Maybe,
        "notice" => Confidence::No,
        t if OMP_EVENTS.contains(&t) => Confidence::Sure,
        _ => Confidence::No,
    }
}

/// The entries for an omp event; `false` when the line is not one.
pub fn parse(v: &Value, ts: &str, out: &mut Vec<Entry>) -> bool {
    let s = |k: &str| str_of(v, k).unwrap_or("");
    let text = match type_of(v) {
        "notice" => {
            let level = nonempty_str(v, "level").unwrap_or("info");
            let mut head = level.owned();
            if let Some(src) = nonempty_str(v, "source") {
                head = format!("{head} ({src})");
            }
            let text = format!("{head}: {}", s("message"));
            out.emit(if level == "error" { Entry::stderr(ts, text) } else { Entry::system(ts, text) });
            return true;
        }
        "tool_stream_update" => return true,
        "retry_fallback_applied" => format!("retry: falling back from {} to {} ({})", s("from"), s("to"), s("role")),
        "retry_fallback_succeeded" => format!("retry succeeded with {} ({})", s("model"), s("role")),
        "thinking_level_changed" => {
            let level = nonempty_str(v, "thinkingLevel").or_else(|| nonempty_str(v, "resolved")).unwrap_or("default");
            match nonempty_str(v, "configured").filter(|c| *c != level) {
                Some(c) => format!("thinking level: {level} (configured {c})"),
                None => format!("thinking level: {level}"),
            }
        }
        "ttsr_triggered" => {
            let names = items(v.get("rules"), "name");
            format!("rule triggered: {}", common::join(&names, ", "))
        }
        "todo_reminder" => {
            let todos = items(v.get("todos"), "content");
            format!(
                "todo reminder ({}/{}): {}",
                crate::json::num_text(num_of(v, "attempt")),
                crate::json::num_text(num_of(v, "maxAttempts")),
                common::clip(&common::join(&todos, "; "), 300)
            )
        }
        "irc_message" => {
            let m = v.get("message").unwrap_or(&Value::Null);
            let body = m.get("content").map(common::content_text).unwrap_or_default();
            format!("irc: {}", common::clip(body.trim(), 600))
        }
        "goal_updated" => match v.get("goal").filter(|g| !g.is_null()) {
            None => "goal cleared".owned(),
            Some(g) => {
                let what = ["objective", "title", "text", "description"]
                    .iter()
                    .find_map(|k| nonempty_str(g, k))
                    .map(str::owned)
                    .unwrap_or_else(|| common::short_fields(g, 3));
                format!("goal: {}", common::clip(&what, 300))
            }
        },
        "todo_auto_clear" => "todo list cleared".owned(),
        t if OMP_EVENTS.contains(&t) => common::replace_all(t, "_", " "),
        _ => return false,
    };
    out.emit(Entry::system(ts, text));
    true
}

/// `key` of each object in an array (or the string items themselves).
fn items(list: Option<&Value>, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    for item in list.and_then(Value::as_array).into_iter().flatten() {
        if let Some(t) = item.as_str().or_else(|| str_of(item, key)).filter(|t| !t.is_empty()) {
            out.push(t.owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    fn run(v: serde_json::Value) -> Vec<Entry> {
        let mut out = Vec::new();
        assert!(parse(&Value::from_json(&v), "t", &mut out));
        out
    }

    #[test]
    fn notices_by_level_and_detection() {
        let warn = json!({"type":"notice","level":"warning","message":"Advisor unavailable","source":"advisor"});
        assert_eq!(json_test::detect(detect, &warn), Confidence::Maybe);
        assert_eq!(run(warn), vec![Entry::system("t", "warning (advisor): Advisor unavailable")]);
        assert_eq!(
            run(json!({"type":"notice","level":"error","message":"Signed out of anthropic"})),
            vec![Entry::stderr("t", "error: Signed out of anthropic")]
        );
        assert_eq!(json_test::detect(detect, &json!({"type":"notice","text":"x"})), Confidence::No);
        assert_eq!(json_test::detect(detect, &json!({"type":"advisor_yielded"})), Confidence::Sure);
        assert!(run(json!({"type":"tool_stream_update","toolCallId":"c"})).is_empty());
        assert_eq!(run(json!({"type":"model_changed"})), vec![Entry::system("t", "model changed")]);
    }
}
