//! Codex CLI's session log, `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`: one
//! `{ timestamp, type, payload }` record per line, `session_meta` first (fixture
//! `rollout-v0.156.1.jsonl`, Codex CLI 0.156.1). Evidence: molecule-dev/molecule
//! `agent-transcript/codex/src/rollout.ts`.
//!
//! `session_meta` gives the version and start; `turn_context.model` the model of the
//! assistant turns that follow; `response_item` messages the turns (user text that is
//! wholly one injected tag, like `<environment_context>…</environment_context>`, is
//! dropped); any `…call` item's input is scanned for `apply_patch` bodies.

use super::codex_patch::{find_patches, writes_of_patch};
use super::js::{self, truthy};
use super::{AgentSession, AgentTurn, Models};
use serde_json::Value;

/// Whether the first non-blank line is a `session_meta` record.
pub fn looks_like(text: &str) -> bool {
    let Some(first) = text.split('\n').find(|l| !js::trim(l).is_empty()) else {
        return false;
    };
    if !js::trim(first).starts_with('{') {
        return false;
    }
    matches!(serde_json::from_str::<Value>(first), Ok(v) if js::get_str(Some(&v), "type") == Some("session_meta"))
}

/// `^\s*<([a-z_][a-z0-9_]*)\b[^>]*>[\s\S]*<\/\1>\s*$` (case-insensitive): the text is
/// wholly one tag.
fn wholly_one_tag(text: &str) -> bool {
    let Some(rest) = js::trim_start(text).strip_prefix('<') else {
        return false;
    };
    let name_len =
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let name = &rest[..name_len];
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return false;
    }
    let Some(gt) = rest[name_len..].find('>') else {
        return false;
    };
    let inner_from = name_len + gt + 1;
    let end = js::trim_end(rest);
    let close_len = name.len() + 3;
    if end.len() < inner_from + close_len {
        return false;
    }
    // The closing tag is ASCII: an offset inside a multi-byte character cannot be one.
    let Some(close) = end.get(end.len() - close_len..) else {
        return false;
    };
    close.starts_with("</")
        && close.ends_with('>')
        && close.get(2..close_len - 1).is_some_and(|n| n.eq_ignore_ascii_case(name))
}

fn content_blocks(p: Option<&Value>) -> &[Value] {
    match js::get(p, "content") {
        Some(Value::Array(a)) => a,
        _ => &[],
    }
}

/// Reads a Codex rollout.
pub fn read(text: &str) -> AgentSession {
    let mut session = AgentSession::new("codex", "Codex CLI");
    let mut model: Option<String> = None;
    let mut models = Models::default();
    let mut current: Option<usize> = None;
    let assistant = |turns: &mut Vec<AgentTurn>,
                     current: &mut Option<usize>,
                     ts: Option<String>,
                     model: &Option<String>| {
        match *current {
            Some(i) => i,
            None => {
                turns.push(AgentTurn::assistant(ts, model.clone()));
                *current = Some(turns.len() - 1);
                turns.len() - 1
            }
        }
    };
    for raw in text.split('\n') {
        if !js::trim(raw).starts_with('{') {
            continue;
        }
        let Ok(o) = serde_json::from_str::<Value>(raw) else {
            continue;
        };
        let o = Some(&o);
        let ts = || js::get_str(o, "timestamp").map(str::to_owned);
        let p = js::nullish(js::get(o, "payload"), None);
        let ty = js::get_str(o, "type");
        let p_type = js::get_str(p, "type");
        if ty == Some("session_meta") {
            session.harness_version = js::get_str(p, "cli_version").map(str::to_owned);
            session.started_at = js::nullish(js::get(p, "timestamp"), js::get(o, "timestamp"))
                .and_then(Value::as_str)
                .map(str::to_owned);
        } else if ty == Some("turn_context") && truthy(js::get(p, "model")) {
            model = js::get_str(p, "model").map(str::to_owned);
            if let Some(m) = &model {
                models.add(m);
            }
        } else if ty == Some("response_item") && p_type == Some("message") {
            match js::get_str(p, "role") {
                Some("user") => {
                    let typed: Vec<&str> = content_blocks(p)
                        .iter()
                        .filter(|c| js::get_str(Some(c), "type") == Some("input_text"))
                        .filter_map(|c| js::get_str(Some(c), "text"))
                        .filter(|t| !t.is_empty() && !wholly_one_tag(t))
                        .map(js::trim)
                        .collect();
                    if typed.is_empty() {
                        continue;
                    }
                    current = None;
                    session.turns.push(AgentTurn::user(typed.join("\n\n"), ts()));
                }
                Some("assistant") => {
                    let said: Vec<&str> = content_blocks(p)
                        .iter()
                        .filter(|c| js::get_str(Some(c), "type") == Some("output_text"))
                        .filter_map(|c| js::get_str(Some(c), "text"))
                        .map(js::trim)
                        .filter(|t| !t.is_empty())
                        .collect();
                    if said.is_empty() {
                        continue;
                    }
                    let i = assistant(&mut session.turns, &mut current, ts(), &model);
                    if let Some(t) = session.turns.get_mut(i) {
                        for s in said {
                            t.push_text(s);
                        }
                    }
                }
                _ => {}
            }
        } else if ty == Some("response_item") && p_type.is_some_and(|t| t.ends_with("call")) {
            let input = js::nullish(js::get(p, "input"), js::get(p, "arguments"));
            let Some(input) = input.and_then(Value::as_str) else {
                continue;
            };
            let files: Vec<_> =
                find_patches(input).iter().flat_map(|p| writes_of_patch(p)).collect();
            if !files.is_empty() {
                let i = assistant(&mut session.turns, &mut current, ts(), &model);
                if let Some(t) = session.turns.get_mut(i) {
                    t.files.extend(files);
                }
            }
        }
    }
    session.model = models.single();
    session
}

#[cfg(test)]
mod tests {
    use super::wholly_one_tag;

    #[test]
    fn one_tag() {
        assert!(wholly_one_tag(" <environment_context>\n<cwd>/x</cwd>\n</environment_context> "));
        assert!(wholly_one_tag("<A b=\"1\">x</a>"));
        assert!(!wholly_one_tag("<a>x</a> and more"));
        assert!(!wholly_one_tag("<a>"));
        assert!(!wholly_one_tag("<a>é€"));
        assert!(!wholly_one_tag("<1a>x</1a>"));
    }
}
