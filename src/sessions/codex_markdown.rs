//! Codex CLI's Markdown export (`/export` → "Save to file"; fixture
//! `export-v0.156.1.md`, Codex CLI 0.156.1):
//!
//! ```markdown
//! # Codex conversation
//!
//! ## User
//!
//! The message as typed.
//!
//! ## Assistant
//!
//! The reply (its own `##` headings included).
//!
//! ## Activity
//!
//!     file changes: Completed · 1 changes
//!     Add: /path/notes.md
//!     # Notes
//!     Update { move_path: None }: /path/notes.md
//!     +# Field notes
//! ```
//!
//! Only the exact section headers split the export. Consecutive Assistant/Activity
//! sections form one assistant turn. The export names no model and no times. Evidence:
//! molecule-dev/molecule `agent-transcript/codex/src/markdown-export.ts`.

use super::js;
use super::{AgentFileWrite, AgentSession, AgentTurn, WriteKind};

/// After `word`, only whitespace up to the end of the line (`\s*$`, multiline or not).
fn rest_is_blank(rest: &str, multiline: bool) -> bool {
    for c in rest.chars() {
        if multiline && js::is_line_terminator(c) {
            return true;
        }
        if !js::is_ws(c) {
            return false;
        }
    }
    true
}

/// `^## (User|Assistant|Activity)\s*$` on one line.
fn role_header(line: &str) -> Option<&'static str> {
    let rest = line.strip_prefix("## ")?;
    ["User", "Assistant", "Activity"]
        .into_iter()
        .find(|r| rest.strip_prefix(r).is_some_and(|after| rest_is_blank(after, false)))
}

/// Whether the text opens with `# Codex conversation` and has a User or Assistant section.
pub fn looks_like(text: &str) -> bool {
    let first = text.split('\n').find(|l| !js::trim(l).is_empty()).unwrap_or("");
    let titled =
        first.strip_prefix("# Codex conversation").is_some_and(|r| rest_is_blank(r, false));
    if !titled {
        return false;
    }
    // `/^## (User|Assistant)\s*$/m`: at any line start.
    let starts = std::iter::once(0).chain(
        text.char_indices()
            .filter(|(_, c)| js::is_line_terminator(*c))
            .map(|(i, c)| i + c.len_utf8()),
    );
    starts.into_iter().any(|at| {
        text[at..].strip_prefix("## ").is_some_and(|rest| {
            ["User", "Assistant"]
                .iter()
                .any(|r| rest.strip_prefix(r).is_some_and(|after| rest_is_blank(after, true)))
        })
    })
}

/// `Update: p` or `Update {…}: p` (the braces hold no `}`): the path text.
fn update_path(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("Update")?;
    let rest = if let Some(braced) = rest.strip_prefix(" {") {
        let close = braced.find('}')?;
        &braced[close + 1..]
    } else {
        rest
    };
    rest.strip_prefix(": ").filter(|p| !p.is_empty() && js::dot_all(p))
}

/// `^(Delete(?: \{[^}]*\})?: |file changes: )`.
fn closes_file(line: &str) -> bool {
    if line.starts_with("file changes: ") {
        return true;
    }
    let Some(rest) = line.strip_prefix("Delete") else {
        return false;
    };
    if rest.starts_with(": ") {
        return true;
    }
    rest.strip_prefix(" {")
        .and_then(|b| b.find('}').map(|i| &b[i + 1..]))
        .is_some_and(|r| r.starts_with(": "))
}

/// The files an Activity section shows being written.
fn writes_of_activity(body: &[&str]) -> Vec<AgentFileWrite> {
    let mut writes = Vec::new();
    let mut cur: Option<(String, WriteKind, Vec<String>)> = None;
    let close = |cur: &mut Option<(String, WriteKind, Vec<String>)>,
                 writes: &mut Vec<AgentFileWrite>| {
        if let Some((path, kind, mut lines)) = cur.take() {
            while lines.last().is_some_and(|l| js::trim(l).is_empty()) {
                lines.pop();
            }
            writes.push(AgentFileWrite { path, kind, text: lines.join("\n"), complete: true });
        }
    };
    for raw in body {
        let line = raw.strip_prefix("    ").unwrap_or(raw);
        let add = line.strip_prefix("Add: ").filter(|p| !p.is_empty() && js::dot_all(p));
        let upd = update_path(line);
        if let Some(p) = add.or(upd) {
            close(&mut cur, &mut writes);
            let kind = if add.is_some() { WriteKind::Create } else { WriteKind::Edit };
            cur = Some((js::trim(p).to_owned(), kind, Vec::new()));
        } else if closes_file(line) {
            close(&mut cur, &mut writes);
        } else if let Some(c) = cur.as_mut() {
            match c.1 {
                WriteKind::Create => c.2.push(js::trim_end(line).to_owned()),
                WriteKind::Edit => {
                    if let Some(added) = line.strip_prefix('+').filter(|_| !line.starts_with("+++"))
                    {
                        c.2.push(js::trim_end(added).to_owned());
                    }
                }
            }
        }
    }
    close(&mut cur, &mut writes);
    writes
}

/// Reads a Codex Markdown export.
pub fn read(text: &str) -> AgentSession {
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut turns: Vec<AgentTurn> = Vec::new();
    let mut assistant: Option<usize> = None;
    let mut section: Option<(&str, Vec<&str>)> = None;
    let mut close = |section: &mut Option<(&str, Vec<&str>)>, turns: &mut Vec<AgentTurn>| {
        let Some((role, body)) = section.take() else {
            return;
        };
        let joined = body.join("\n");
        let text = js::trim(&joined);
        if role == "User" {
            if !text.is_empty() {
                turns.push(AgentTurn::user(text.to_owned(), None));
            }
            assistant = None;
            return;
        }
        let idx = match assistant {
            Some(i) => i,
            None => {
                turns.push(AgentTurn::assistant(None, None));
                assistant = Some(turns.len() - 1);
                turns.len() - 1
            }
        };
        let Some(turn) = turns.get_mut(idx) else {
            return;
        };
        if role == "Assistant" {
            if !text.is_empty() {
                turn.push_text(text);
            }
        } else {
            turn.files.extend(writes_of_activity(&body));
        }
    };
    for line in normalized.split('\n') {
        if let Some(role) = role_header(line) {
            close(&mut section, &mut turns);
            section = Some((role, Vec::new()));
        } else if let Some((_, body)) = section.as_mut() {
            body.push(line);
        }
    }
    close(&mut section, &mut turns);
    let mut session = AgentSession::new("codex", "Codex CLI");
    turns.retain(AgentTurn::worth_keeping);
    session.turns = turns;
    session
}
