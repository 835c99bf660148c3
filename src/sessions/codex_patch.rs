//! Codex's `apply_patch` format, which is how Codex writes files:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: notes.md
//! +# Notes
//! *** Update File: src/app.ts
//! @@
//! -old line
//! +new line
//! *** End Patch
//! ```
//!
//! [`find_patches`] finds every patch in a tool call's input, whether it is the raw patch,
//! JSON arguments, or source code passing the patch as a string literal
//! (`tools.apply_patch("…")` in code mode); [`writes_of_patch`] lists what one patch
//! writes. Evidence: molecule-dev/molecule `agent-transcript/codex/src/patch.ts`.

use super::js;
use super::{AgentFileWrite, WriteKind};
use serde_json::Value;

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";

/// Every `*** Begin Patch … *** End Patch` span, shortest first, non-overlapping.
fn raw_patches(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(b) = text[at..].find(BEGIN).map(|i| at + i) {
        let after = b + BEGIN.len();
        let Some(e) = text[after..].find(END).map(|i| after + i + END.len()) else {
            break;
        };
        found.push(text[b..e].to_owned());
        at = e;
    }
    found
}

/// The bodies of the double-quoted literals that contain `*** Begin Patch`, in order:
/// each runs from a `"` to the next unescaped `"` (a backslash escapes any character but
/// a line break), scanning on after each literal found.
///
/// A regex engine tries every `"` as an opening; a quote inside a literal just tried
/// (escaped there) follows the same escapes, so it ends the same way: skipping to where
/// the attempt ended gives the same matches in linear time.
fn quoted_patches(input: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(q) = input.get(start..).and_then(|r| r.find('"')).map(|i| start + i) {
        match literal_end(input, q + 1) {
            Literal::Closed(end) => {
                if input[q + 1..end].contains(BEGIN) && begins_on_token(input, q + 1, end) {
                    out.push(&input[q + 1..end]);
                    start = end + 1;
                } else {
                    // The closing quote may open the next literal.
                    start = end;
                }
            }
            Literal::BadEscape(at) => start = at + 1,
            Literal::Unclosed => break,
        }
    }
    out
}

enum Literal {
    /// Closes at this byte (the `"`).
    Closed(usize),
    /// A backslash before a line break (or at the end) at this byte: no literal spans it.
    BadEscape(usize),
    /// The text ends first.
    Unclosed,
}

/// Where the literal whose body starts at `from` closes.
fn literal_end(s: &str, from: usize) -> Literal {
    let mut chars = s[from..].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Literal::Closed(from + i),
            '\\' => match chars.next() {
                Some((_, n)) if !js::is_line_terminator(n) => {}
                _ => return Literal::BadEscape(from + i),
            },
            _ => {}
        }
    }
    Literal::Unclosed
}

/// Whether `*** Begin Patch` occurs in the body at a token boundary (not starting on the
/// character a backslash escapes).
fn begins_on_token(s: &str, from: usize, end: usize) -> bool {
    let body = &s[from..end];
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        if c == '\\' {
            escaped = true;
            continue;
        }
        if body[i..].starts_with(BEGIN) {
            return true;
        }
    }
    false
}

/// Every patch in a tool call's input, in order. Patches inside valid string literals
/// are decoded first; only if none were found is the raw text scanned.
pub fn find_patches(input: &str) -> Vec<String> {
    let mut found = Vec::new();
    for body in quoted_patches(input) {
        if let Ok(Value::String(s)) = serde_json::from_str::<Value>(&format!("\"{body}\"")) {
            found.extend(raw_patches(&s));
        }
    }
    if found.is_empty() {
        found = raw_patches(input);
    }
    found
}

/// `^prefix(.+)$`: the rest of a header line, non-empty and without line terminators.
fn header<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    line.strip_prefix(prefix).filter(|r| !r.is_empty() && js::dot_all(r))
}

/// The files one patch writes: an added file's whole text, an updated file's added lines.
pub fn writes_of_patch(patch: &str) -> Vec<AgentFileWrite> {
    let mut writes = Vec::new();
    let mut cur: Option<(String, WriteKind, Vec<&str>)> = None;
    let close = |cur: &mut Option<(String, WriteKind, Vec<&str>)>,
                 writes: &mut Vec<AgentFileWrite>| {
        if let Some((path, kind, lines)) = cur.take() {
            writes.push(AgentFileWrite { path, kind, text: lines.join("\n"), complete: true });
        }
    };
    for line in patch.split('\n') {
        let add = header(line, "*** Add File: ");
        let upd = header(line, "*** Update File: ");
        if let Some(p) = add.or(upd) {
            close(&mut cur, &mut writes);
            let kind = if add.is_some() { WriteKind::Create } else { WriteKind::Edit };
            cur = Some((js::trim(p).to_owned(), kind, Vec::new()));
        } else if line.starts_with("***") {
            if !line.starts_with("*** Move to:") {
                close(&mut cur, &mut writes);
            }
        } else if let (Some(c), Some(rest)) = (cur.as_mut(), line.strip_prefix('+')) {
            c.2.push(rest);
        }
    }
    close(&mut cur, &mut writes);
    writes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        let raw = "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch";
        let quoted = format!("tools.apply_patch({})", serde_json::to_string(raw).unwrap());
        assert_eq!(find_patches(&quoted), vec![raw.to_owned()]);
        // A patch starting on an escaped character is not at a token boundary.
        assert_eq!(quoted_patches("\"\\*** Begin Patch\""), Vec::<&str>::new());
        // An escaped line break ends no literal; the next quote is tried.
        assert_eq!(quoted_patches("\"a\\\n\" \"*** Begin Patch\""), vec!["*** Begin Patch"]);
    }

    #[test]
    fn many_escaped_quotes_stay_linear() {
        let input = format!("\"{}", "\\\"".repeat(100_000));
        assert!(find_patches(&input).is_empty());
        let input = "\"a\" ".repeat(100_000);
        assert!(find_patches(&input).is_empty());
    }
}
