//! A Molecule IDE conversation as molecule.dev stores it: `{ messages: [...] }` (or the bare
//! array), each message `{ role, content, model?, timestamp?, hidden?, toolCalls?: [{ name,
//! input, output }] }` (fixture `conversation.json`). Evidence: molecule-dev/molecule
//! `agent-transcript/molecule-ide/src/conversation.ts`.
//!
//! Recognized only with a Molecule marker (`projectId`/`aiContext` on the conversation,
//! content `blocks`, or a tool call with a name and input), so a generic chat JSON is not
//! mistaken for one. Hidden and platform (`[auto-continue]`, `[project-context]`) user rows
//! are not prompts; `write_file`/`edit_file` calls become file writes.

use super::js::{self, truthy};
use super::{AgentFileWrite, AgentSession, AgentTurn, Models, WriteKind};
use serde_json::{Map, Value};

struct Conversation {
    messages: Vec<Map<String, Value>>,
    created_at: Option<Value>,
}

/// Parses the text as a stored conversation, or `None` when it is not one.
fn parse(text: &str) -> Option<Conversation> {
    let head = js::trim_start(text).chars().next()?;
    if head != '{' && head != '[' {
        return None;
    }
    let data: Value = serde_json::from_str(text).ok()?;
    let (messages, conv) = match &data {
        Value::Array(a) => (a, None),
        Value::Object(o) => match o.get("messages") {
            Some(Value::Array(a)) => (a, Some(o)),
            _ => return None,
        },
        _ => return None,
    };
    if messages.is_empty() {
        return None;
    }
    let rows: Vec<Map<String, Value>> = messages
        .iter()
        .map(|m| m.as_object().filter(|o| o.get("role").is_some_and(Value::is_string)).cloned())
        .collect::<Option<_>>()?;
    let marked = conv.is_some_and(|c| c.contains_key("projectId") || c.contains_key("aiContext"))
        || rows.iter().any(|m| {
            m.get("blocks").is_some_and(Value::is_array)
                || matches!(m.get("toolCalls"), Some(Value::Array(calls)) if calls.iter().any(|t| {
                    truthy(js::get(Some(t), "name")) && truthy(js::get(Some(t), "input"))
                }))
        });
    if !marked {
        return None;
    }
    Some(Conversation {
        messages: rows,
        created_at: conv.and_then(|c| c.get("createdAt")).cloned(),
    })
}

/// Whether the text is a stored Molecule IDE conversation.
pub fn looks_like(text: &str) -> bool {
    parse(text).is_some()
}

/// `[elided N chars; the file is on disk]`: content the stored row left out.
fn elided(content: &str) -> bool {
    content
        .strip_prefix("[elided ")
        .and_then(|r| r.strip_suffix(" chars; the file is on disk]"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The files one stored tool call wrote.
fn writes_of(call: &Value) -> Vec<AgentFileWrite> {
    let input = js::get(Some(call), "input");
    let path = js::get_str(input, "path").unwrap_or("");
    if path.is_empty() {
        return Vec::new();
    }
    match js::get_str(Some(call), "name") {
        Some("write_file") => match js::get_str(input, "content") {
            Some(content) => {
                let cut = elided(content);
                vec![AgentFileWrite {
                    path: path.to_owned(),
                    kind: WriteKind::Create,
                    text: if cut { String::new() } else { content.to_owned() },
                    complete: !cut,
                }]
            }
            None => Vec::new(),
        },
        Some("edit_file") => {
            let texts: Vec<&str> = match js::get(input, "replacements") {
                Some(Value::Array(r)) => {
                    r.iter().filter_map(|e| js::get_str(Some(e), "new_string")).collect()
                }
                _ => js::get_str(input, "new_string").into_iter().collect(),
            };
            texts
                .into_iter()
                .map(|t| AgentFileWrite {
                    path: path.to_owned(),
                    kind: WriteKind::Edit,
                    text: t.to_owned(),
                    complete: true,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// `^\s*\[(auto-continue|project-context)\]`: a message the platform sent on its own.
fn platform_message(content: &str) -> bool {
    let r = js::trim_start(content);
    r.starts_with("[auto-continue]") || r.starts_with("[project-context]")
}

/// Reads a stored Molecule IDE conversation; `None` when the text is not one.
pub fn read(text: &str) -> Option<AgentSession> {
    let conv = parse(text)?;
    let mut session = AgentSession::new("molecule-ide", "Molecule IDE");
    let mut models = Models::default();
    let mut current: Option<usize> = None;
    for m in &conv.messages {
        let content = m.get("content").and_then(Value::as_str).map(js::trim).unwrap_or("");
        let timestamp = m.get("timestamp").and_then(Value::as_str).map(str::to_owned);
        let model = m.get("model").and_then(Value::as_str).filter(|s| !s.is_empty());
        match m.get("role").and_then(Value::as_str) {
            Some("user") => {
                if truthy(m.get("hidden")) || platform_message(content) || content.is_empty() {
                    continue;
                }
                current = None;
                session.turns.push(AgentTurn::user(content.to_owned(), timestamp));
            }
            Some("assistant") => {
                let idx = match current {
                    Some(i) => i,
                    None => {
                        let first = m.get("model").and_then(Value::as_str).map(str::to_owned);
                        session.turns.push(AgentTurn::assistant(timestamp, first));
                        current = Some(session.turns.len() - 1);
                        session.turns.len() - 1
                    }
                };
                let Some(turn) = session.turns.get_mut(idx) else {
                    continue;
                };
                if let Some(model) = model {
                    if turn.model.is_none() {
                        turn.model = Some(model.to_owned());
                    }
                    models.add(model);
                }
                if !content.is_empty() {
                    turn.push_text(content);
                }
                if let Some(Value::Array(calls)) = m.get("toolCalls") {
                    for call in calls {
                        turn.files.extend(writes_of(call));
                    }
                }
            }
            // `system` rows are platform cards, not conversation.
            _ => {}
        }
    }
    session.model = models.single();
    let first_ts = conv.messages.first().and_then(|m| m.get("timestamp"));
    session.started_at =
        js::nullish(conv.created_at.as_ref(), first_ts).and_then(Value::as_str).map(str::to_owned);
    session.turns.retain(AgentTurn::worth_keeping);
    Some(session)
}
