//! Claude Code's session log, `~/.claude/projects/<project>/<session>.jsonl`: one JSON
//! record per line; `type: "user" | "assistant"` records carry an Anthropic Messages API
//! `message`. Evidence: molecule-dev/molecule `agent-transcript/claude-code/src/jsonl.ts`
//! and its fixture `session-v2.1.281.jsonl` (Claude Code 2.1.281), in
//! `tests/fixtures/conformance/molecule/`.
//!
//! Read: sidechain (subagent) and `isMeta` records are skipped; a user record's typed
//! text (not the slash-command echoes, caveats and reminders Claude Code injects) opens a
//! user turn; tool-result-only user records do not end the assistant turn; assistant
//! records merge into one turn; `Write`/`Edit`/`MultiEdit` calls become file writes.

use super::js::{self, truthy};
use super::{AgentFileWrite, AgentSession, AgentTurn, First, Models, WriteKind};
use serde_json::{Map, Value};

/// Tags Claude Code writes into user records on the user's behalf.
const INJECTED_TAGS: [&str; 10] = [
    "command-name",
    "command-message",
    "command-args",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "system-reminder",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
];

/// How many parsed non-message records detection looks past before giving up.
const DETECT_LOOKAHEAD: usize = 20;

fn injected(text: &str) -> bool {
    let rest = js::after_ws(text);
    INJECTED_TAGS.iter().any(|tag| {
        rest.strip_prefix('<').and_then(|r| r.strip_prefix(tag)).is_some_and(|r| r.starts_with('>'))
    })
}

/// Parses a trimmed line that starts with `{` (the only lines either function reads).
fn parse_record(line: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(o)) => Some(o),
        _ => None,
    }
}

/// Whether the text is a Claude Code session log: the first parseable records include a
/// user/assistant record with a message and a session id or uuid.
pub fn looks_like(text: &str) -> bool {
    let mut seen = 0;
    for raw in text.split('\n') {
        let line = js::trim(raw);
        if line.is_empty() {
            continue;
        }
        if !line.starts_with('{') {
            return false;
        }
        let Some(o) = parse_record(line) else {
            return false;
        };
        let ty = o.get("type").and_then(Value::as_str);
        if matches!(ty, Some("user") | Some("assistant"))
            && truthy(o.get("message"))
            && (truthy(o.get("sessionId")) || truthy(o.get("uuid")))
        {
            return true;
        }
        seen += 1;
        if seen > DETECT_LOOKAHEAD {
            return false;
        }
    }
    false
}

/// The content blocks of a message: a string is one text block; an array its blocks
/// (non-objects skipped); anything else none.
fn blocks(message: Option<&Value>) -> Vec<Map<String, Value>> {
    match js::get(message, "content") {
        Some(Value::String(s)) => {
            let mut b = Map::new();
            b.insert("type".into(), Value::from("text"));
            b.insert("text".into(), Value::from(s.as_str()));
            vec![b]
        }
        Some(Value::Array(a)) => a.iter().filter_map(|b| b.as_object().cloned()).collect(),
        _ => Vec::new(),
    }
}

/// The file writes of one `tool_use` block.
fn writes_of(block: &Map<String, Value>) -> Vec<AgentFileWrite> {
    let input = block.get("input");
    let path = js::get_str(input, "file_path").or_else(|| js::get_str(input, "path")).unwrap_or("");
    if path.is_empty() {
        return Vec::new();
    }
    let name = block.get("name").and_then(Value::as_str);
    let write = |kind, text: &str| AgentFileWrite {
        path: path.to_owned(),
        kind,
        text: text.to_owned(),
        complete: true,
    };
    match name {
        Some("Write") => js::get_str(input, "content")
            .map(|c| vec![write(WriteKind::Create, c)])
            .unwrap_or_default(),
        Some("Edit") => js::get_str(input, "new_string")
            .map(|c| vec![write(WriteKind::Edit, c)])
            .unwrap_or_default(),
        Some("MultiEdit") => match js::get(input, "edits") {
            Some(Value::Array(edits)) => edits
                .iter()
                .filter_map(|e| js::get_str(Some(e), "new_string"))
                .map(|t| write(WriteKind::Edit, t))
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Reads a Claude Code session log.
pub fn read(text: &str) -> AgentSession {
    let mut session = AgentSession::new("claude-code", "Claude Code");
    let mut version = First::default();
    let mut started = First::default();
    let mut models = Models::default();
    // Index of the assistant turn in progress, if any.
    let mut current: Option<usize> = None;
    for raw in text.split('\n') {
        let line = js::trim(raw);
        if !line.starts_with('{') {
            continue;
        }
        let Some(o) = parse_record(line) else {
            continue;
        };
        let ty = o.get("type").and_then(Value::as_str);
        if !matches!(ty, Some("user") | Some("assistant")) {
            continue;
        }
        if truthy(o.get("isSidechain")) || truthy(o.get("isMeta")) {
            continue;
        }
        version.offer(o.get("version"));
        started.offer(o.get("timestamp"));
        let timestamp = o.get("timestamp").and_then(Value::as_str).map(str::to_owned);
        let message = o.get("message");
        let blocks = blocks(message);
        if ty == Some("user") {
            let typed: Vec<&str> = blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .filter(|t| !injected(t))
                .collect();
            if typed.is_empty() {
                continue;
            }
            current = None;
            session
                .turns
                .push(AgentTurn::user(js::trim(&typed.join("\n\n")).to_owned(), timestamp));
            continue;
        }
        let idx = match current {
            Some(i) => i,
            None => {
                session.turns.push(AgentTurn::assistant(timestamp, None));
                let i = session.turns.len() - 1;
                current = Some(i);
                i
            }
        };
        let Some(turn) = session.turns.get_mut(idx) else {
            continue;
        };
        // `<synthetic>` marks a message Claude Code made itself, not a model.
        if let Some(model) = js::get_str(message, "model") {
            if !model.is_empty() && !model.starts_with('<') {
                if turn.model.is_none() {
                    turn.model = Some(model.to_owned());
                }
                models.add(model);
            }
        }
        for b in &blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("text") => {
                    if let Some(t) = b.get("text").and_then(Value::as_str) {
                        let t = js::trim(t);
                        if !t.is_empty() {
                            turn.push_text(t);
                        }
                    }
                }
                Some("tool_use") => turn.files.extend(writes_of(b)),
                _ => {}
            }
        }
    }
    session.harness_version = version.get();
    session.model = models.single();
    session.started_at = started.get();
    session.turns.retain(AgentTurn::worth_keeping);
    session
}
