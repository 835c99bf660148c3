//! Claude Code's `/export` file: the terminal rendering of a conversation as plain text
//! (verified upstream against Claude Code 2.1.281; fixture `export-v2.1.281.txt`).
//!
//! ```text
//!  ▐▛███▛█   Claude Code v2.1.281
//! ▝▜██████▀  Haiku 4.5 · Claude Max
//!
//! ❯ The user's message, wrapped at the terminal width.
//!
//! ● The reply, markdown already rendered, wrapped.
//!
//! ● Write(notes.md)
//!   ⎿  Wrote 3 lines to notes.md
//!       1 # Notes
//!
//! ✻ Cooked for 5s
//! ```
//!
//! Older versions print `>` for the user and `⏺` for the assistant. Wrapped prose is
//! re-joined; `Write`/`Update`/`Edit`/`MultiEdit` blocks become file writes from their
//! numbered rows (`complete: false` when the terminal collapsed them). Evidence:
//! molecule-dev/molecule `agent-transcript/claude-code/src/export-text.ts`.

use super::js::{self, is_ws};
use super::{AgentFileWrite, AgentSession, AgentTurn, WriteKind};

/// The banner glyphs that may precede `Claude Code v` on the header line.
const BANNER: &[char] = &['▐', '▛', '█', '▜', '▝', '▘', '▀', '▄', '▌', ' '];
/// The glyphs stripped from a header line before looking for the model.
const HEADER_STRIP: &[char] = &['▐', '▛', '█', '▜', '▝', '▘', '▀', '▄', '▌', '▗', '▖'];

/// `^(?:❯|>) ?(.*)$`: the rest of a user line.
fn user_line(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('❯').or_else(|| line.strip_prefix('>'))?;
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    js::dot_all(rest).then_some(rest)
}

/// `^(?:●|⏺) ?(.*)$`: the rest of an assistant line.
fn assistant_line(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('●').or_else(|| line.strip_prefix('⏺'))?;
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    js::dot_all(rest).then_some(rest)
}

/// `^([A-Z][A-Za-z]*)\((.*)\)\s*$`: a tool call's name and argument.
fn tool_call(s: &str) -> Option<(&str, &str)> {
    let first = s.chars().next()?;
    if !first.is_ascii_uppercase() {
        return None;
    }
    let name_end = s.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(s.len());
    let rest = s[name_end..].strip_prefix('(')?;
    let arg = js::trim_end(rest).strip_suffix(')')?;
    js::dot_all(arg).then_some((&s[..name_end], arg))
}

/// `^\s*⎿\s*(.*)$`: a tool-result line.
fn is_result_line(line: &str) -> bool {
    js::trim_start(line).strip_prefix('⎿').is_some_and(|r| js::dot_all(js::trim_start(r)))
}

/// `^\s{2,}(\d+) ?(.*)$`: a numbered content row, its text.
fn numbered(line: &str) -> Option<&str> {
    let body = js::trim_start(line);
    let indent = &line[..line.len() - body.len()];
    if indent.chars().count() < 2 {
        return None;
    }
    let digits = body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len());
    if digits == 0 {
        return None;
    }
    let rest = &body[digits..];
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    js::dot_all(rest).then_some(rest)
}

/// `/…\s*\+?\d+ lines?|ctrl\+o to expand/`: the terminal collapsed some of the output.
fn shows_more(line: &str) -> bool {
    if line.contains("ctrl+o to expand") {
        return true;
    }
    line.match_indices('…').any(|(i, m)| {
        let r = js::trim_start(&line[i + m.len()..]);
        let r = r.strip_prefix('+').unwrap_or(r);
        let d = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        d > 0 && r[d..].starts_with(" line")
    })
}

/// `/^(?:[-*•]|\d+\.) /`: a list item.
fn is_list_item(line: &str) -> bool {
    if ["- ", "* ", "• "].iter().any(|p| line.starts_with(p)) {
        return true;
    }
    let d = line.find(|c: char| !c.is_ascii_digit()).unwrap_or(line.len());
    d > 0 && line[d..].starts_with(". ")
}

/// Whether the text looks like a `/export`: the header within the first 600 UTF-16 units,
/// or both speaker markers at column 0.
pub fn looks_like(text: &str) -> bool {
    if has_header(js::utf16_prefix(text, 600)) {
        return true;
    }
    let marked = |marks: [char; 2]| {
        text.split('\n').any(|l| {
            let mut cs = l.chars();
            cs.next().is_some_and(|c| marks.contains(&c))
                && cs.next() == Some(' ')
                && cs.next().is_some_and(|c| !is_ws(c))
        })
    };
    marked(['❯', '>']) && marked(['●', '⏺'])
}

/// `/^\s*[▐▛█▜▝▘▀▄▌ ]*Claude Code v\d/m`.
fn has_header(head: &str) -> bool {
    let starts = std::iter::once(0).chain(
        head.char_indices()
            .filter(|(_, c)| js::is_line_terminator(*c))
            .map(|(i, c)| i + c.len_utf8()),
    );
    starts.into_iter().any(|at| {
        let r = js::trim_start(&head[at..]);
        let r = r.trim_start_matches(BANNER);
        r.strip_prefix("Claude Code v")
            .and_then(|r| r.chars().next())
            .is_some_and(|c| c.is_ascii_digit())
    })
}

/// Re-joins text the terminal wrapped: paragraph lines become one line; list items keep
/// their own lines, an indented continuation joins its item.
fn unwrap(lines: &[&str]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut para: Vec<String> = Vec::new();
    let mut in_list = false;
    let flush = |out: &mut Vec<String>, para: &mut Vec<String>, in_list: &mut bool| {
        if !para.is_empty() {
            out.push(para.join(if *in_list { "\n" } else { " " }));
        }
        para.clear();
        *in_list = false;
    };
    for raw in lines {
        let line = js::trim_end(raw);
        if js::trim(line).is_empty() {
            flush(&mut out, &mut para, &mut in_list);
            continue;
        }
        if is_list_item(line) {
            if !in_list {
                flush(&mut out, &mut para, &mut in_list);
            }
            in_list = true;
            para.push(line.to_owned());
        } else if in_list && line.starts_with(is_ws) {
            if let Some(last) = para.last_mut() {
                last.push(' ');
                last.push_str(js::trim(line));
            }
        } else {
            if in_list {
                flush(&mut out, &mut para, &mut in_list);
            }
            para.push(js::trim(line).to_owned());
        }
    }
    flush(&mut out, &mut para, &mut in_list);
    out.join("\n\n")
}

/// The file a `Write`/`Update`/`Edit`/`MultiEdit` block shows, from its numbered rows.
fn write_from(name: &str, arg: &str, body: &[&str]) -> Option<AgentFileWrite> {
    let kind = match name {
        "Write" => WriteKind::Create,
        "Update" | "Edit" | "MultiEdit" => WriteKind::Edit,
        _ => return None,
    };
    let mut out: Vec<String> = Vec::new();
    let mut complete = true;
    let mut last_kept = false;
    for raw in body {
        if shows_more(raw) {
            complete = false;
            continue;
        }
        if is_result_line(raw) {
            continue;
        }
        if let Some(row) = numbered(raw) {
            let text = js::trim_end(row);
            if text.contains("No newline at end of file") {
                last_kept = false;
                continue;
            }
            let text = match kind {
                // Diff rows: only what the edit put in counts.
                WriteKind::Edit => match text.strip_prefix('+') {
                    Some(t) => t,
                    None => {
                        last_kept = false;
                        continue;
                    }
                },
                WriteKind::Create => text,
            };
            out.push(text.to_owned());
            last_kept = true;
        } else if !js::trim(raw).is_empty() && last_kept {
            // A row broken at the terminal width continues mid-word.
            if let Some(last) = out.last_mut() {
                last.push_str(js::trim(raw));
            }
        }
    }
    Some(AgentFileWrite {
        path: js::trim(arg).to_owned(),
        kind,
        complete: complete && !out.is_empty(),
        text: out.join("\n"),
    })
}

#[derive(PartialEq, Eq)]
enum BlockKind {
    User,
    Text,
    Tool,
}

struct Block<'a> {
    kind: BlockKind,
    first: &'a str,
    body: Vec<&'a str>,
}

fn strip_two_spaces(l: &str) -> &str {
    l.strip_prefix("  ").unwrap_or(l)
}

/// Reads a Claude Code `/export` text.
pub fn read(text: &str) -> AgentSession {
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = normalized.split('\n').collect();
    let header = lines.iter().take(8).copied().collect::<Vec<_>>().join("\n");
    let version = header.match_indices("Claude Code v").find_map(|(i, m)| {
        let r = &header[i + m.len()..];
        let n = r.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(r.len());
        (n > 0).then(|| r[..n].to_owned())
    });
    let model = lines
        .iter()
        .take(6)
        .map(|l| l.trim_start_matches(|c: char| is_ws(c) || HEADER_STRIP.contains(&c)))
        .find(|l| l.contains(" · ") && !l.contains("Claude Code v"))
        .and_then(|l| l.split(" · ").next())
        .map(js::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned);

    let mut session = AgentSession::new("claude-code", "Claude Code");
    let mut assistant: Option<usize> = None;
    let mut block: Option<Block> = None;
    let mut close = |block: &mut Option<Block>, turns: &mut Vec<AgentTurn>| {
        let Some(b) = block.take() else {
            return;
        };
        if b.kind == BlockKind::User {
            let mut body = vec![b.first];
            // The first blank line ends a user message; what follows is collapsed activity.
            body.extend(
                b.body.iter().take_while(|l| !js::trim(l).is_empty()).map(|l| strip_two_spaces(l)),
            );
            let text = unwrap(&body).replace("\n\n", " ");
            turns.push(AgentTurn::user(js::trim(&text).to_owned(), None));
            assistant = None;
            return;
        }
        let idx = match assistant {
            Some(i) => i,
            None => {
                turns.push(AgentTurn::assistant(None, model.clone()));
                assistant = Some(turns.len() - 1);
                turns.len() - 1
            }
        };
        let Some(turn) = turns.get_mut(idx) else {
            return;
        };
        if b.kind == BlockKind::Tool {
            if let Some(w) = tool_call(b.first).and_then(|(n, a)| write_from(n, a, &b.body)) {
                turn.files.push(w);
            }
        } else {
            let mut all = vec![b.first];
            all.extend(b.body.iter().map(|l| strip_two_spaces(l)));
            let prose = unwrap(&all);
            if !prose.is_empty() {
                turn.push_text(&prose);
            }
        }
    };
    for line in &lines {
        if let Some(rest) = user_line(line) {
            close(&mut block, &mut session.turns);
            block = Some(Block { kind: BlockKind::User, first: rest, body: Vec::new() });
        } else if let Some(rest) = assistant_line(line) {
            close(&mut block, &mut session.turns);
            let kind = if tool_call(rest).is_some() { BlockKind::Tool } else { BlockKind::Text };
            block = Some(Block { kind, first: rest, body: Vec::new() });
        } else if line.starts_with("✻ ") {
            close(&mut block, &mut session.turns);
        } else if let Some(b) = block.as_mut() {
            b.body.push(line);
        }
    }
    close(&mut block, &mut session.turns);
    session.harness_version = version;
    session.model = model.clone();
    session.turns.retain(AgentTurn::worth_keeping);
    session
}
