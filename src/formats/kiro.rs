//! Kiro CLI, `kiro-cli chat --no-interactive [--trust-all-tools] "<prompt>"`: the terminal
//! text of a chat, read line by line (Kiro has no JSON output for chats; `--format` only
//! shapes `--list-models`/`--list-sessions`). Colours are taken off first.
//!
//! - `<what it does> (using tool: <name>[, <details>])` opens a tool → `tool_call` (`input`:
//!   `description`, `details`; a shell call's `command` and `cwd`, a write's `path`), its id
//!   made from the line and its time. A write's header (`I'll create the following file:
//!   <path>`, `I'll modify …`) also gives a `diff` file header. A quick tool puts
//!   ` - Completed in <t>s` on the same line. The open-source Amazon Q Developer CLI, which
//!   Kiro CLI grew out of, prints `🛠️  Using tool: <name>[ (trusted)]` instead.
//! - ` - Completed in <t>s` (Q: ` ● Completed in <t>s`) closes the open tool → `tool_result`
//!   with `durationMs`. `<t>` is seconds, a dot and the milliseconds unpadded (`0.11s` is
//!   11 ms, `797.330s` 797 s 330 ms: the source formats `{secs}.{subsec_millis}`).
//!   ` ● Execution failed after <t>s:` closes it as failed; the error text after it, up to a
//!   blank line, is `stderr`.
//! - Between them, the tool's output (`Purpose: …`, ` ✓ …` and ` ❗ …` lines, `↱ Operation
//!   N: …`, a command's own output, `Updating: <path>`) → the result's content, one delta per
//!   line (a ` ❗ ` line makes the result an error); a write's `+      8: …`, `-  8    : …`,
//!   `   1,  1: …` lines → `diff` entries.
//! - `> ` (coloured 38;5;141) starts the assistant's text; the lines after it continue it
//!   until the next tool or the end of the turn → `assistant` deltas.
//! - ` ▸ Credits: 7.23 • Time: 2m 29s` (stderr; older builds ` ▸ Time: 19s`) ends the turn →
//!   `result` with that text: Kiro prints no token counts, and credits are not dollars.
//! - the `--trust-all-tools` warning → `system`.
//!
//! Read alone (the stateless path, the host's default file), a line with a Kiro mark gives
//! what it says; a tool's header gives its call and an empty result at once, since only the
//! stream knows which call a later completion line closes (that line is then a notice with
//! the time). Lines without a mark (the answer after its first line, a command's output)
//! stay plain text there, as any program's would. A stateful parser that has seen a Kiro
//! mark reads them as above.
//!
//! Evidence: no real transcript with a licence that allows copying was found, so the
//! fixtures are derived, in the line shapes of real `kiro-cli` 2025–2026 runs quoted in
//! public repositories and of the examples on kiro.dev's built-in tools page, with the
//! renderer's strings from the Amazon Q Developer CLI source (aws/amazon-q-developer-cli
//! 15cc8f3, Apache-2.0 OR MIT). Details: docs/formats/kiro.md.

use crate::prelude::*;
use super::common::{self, cut, find, rfind, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Json;

/// What a Kiro stream remembers: the tool whose completion line has not come yet, whether
/// the assistant's text is being continued, and the blank line before this one.
#[derive(Debug, Default)]
pub struct State {
    open: Option<Open>,
    answer: bool,
    blank: bool,
    error_tail: bool,
}

#[derive(Debug)]
struct Open {
    id: String,
    name: String,
    has_output: bool,
    error: bool,
}

/// The answer mark as Kiro colours it: `> ` in 256-colour 141.
const ANSWER_MARK: &str = "\u{1b}[38;5;141m> ";
const USING: &str = "(using tool: ";
const Q_USING: &str = "🛠\u{fe0f}  Using tool: ";
const BANNER: [&str; 3] = [
    "All tools are now trusted (!)",
    "Agents can sometimes do unexpected things",
    "Learn more at https://kiro.dev/docs/cli/chat/security",
];

/// A blank line in a Kiro stream: a paragraph break in the text or output it is inside;
/// it ends the error text after a failure.
pub fn blank(state: &mut State) {
    state.blank = true;
    state.error_tail = false;
}

/// Reads one text line. `state` is the stream's on the stateful path (`None` reads the line
/// alone); `kiro`: the stream is known to be Kiro's, so unmarked lines are read as its text
/// and output. `None` leaves the line to the plain-text rules.
pub fn parse_text(
    raw: &str,
    ts: &str,
    state: Option<&mut State>,
    kiro: bool,
    out: &mut Vec<Entry>,
) -> Option<Confidence> {
    let line = super::plain::clean(raw);
    let t = line.trim();
    let mut none = State::default();
    let stateful = state.is_some();
    let st = state.unwrap_or(&mut none);
    if t.is_empty() {
        // Only terminal controls (Kiro wraps its trailer in a colour set alone on a line).
        if kiro {
            blank(st);
        }
        return kiro.then_some(Confidence::Maybe);
    }
    let blank = core::mem::take(&mut st.blank);
    if let Some((desc, name, details, done)) = header(t) {
        close(st, ts, None, false, out);
        let id = format!("kiro-{:016x}", crate::text::fnv1a(crate::text::FNV_OFFSET, ts.bytes().chain([0]).chain(t.bytes())));
        out.emit(Entry::tool_call(ts, name, input(desc, details), Some(id.clone())));
        if let Some(path) = written_path(desc) {
            out.emit(Entry::diff(ts, "file_header", path));
        }
        st.open = Some(Open { id, name: name.owned(), has_output: false, error: false });
        if done.is_some() || !stateful {
            close(st, ts, done, false, out);
        }
        return Some(Confidence::Sure);
    }
    if let Some(ms) = completion(t) {
        if !close(st, ts, Some(ms), false, out) {
            out.emit(Entry::system(ts, format!("tool completed in {}", cut(t, find(t, "in ").map_or(0, |i| i + 3)..))));
        }
        return Some(Confidence::Maybe);
    }
    if let Some(ms) = failure(t) {
        if !close(st, ts, Some(ms), true, out) {
            out.emit(Entry::stderr(ts, t));
        }
        st.error_tail = stateful;
        return Some(Confidence::Maybe);
    }
    if let Some(text) = t.strip_prefix("▸ ").filter(|r| r.starts_with("Credits: ") || r.starts_with("Time: ")) {
        close(st, ts, None, false, out);
        out.emit(Entry::Result {
            ts: ts.owned(),
            text: text.owned(),
            input_tokens: 0.0,
            output_tokens: 0.0,
            cached_tokens: 0.0,
            cache_creation_tokens: None,
            cache_creation_1h_tokens: None,
            reasoning_tokens: None,
            model: None,
            call_id: None,
            cost_usd: 0.0,
            subtype: "success".owned(),
            is_error: false,
            errors: Vec::new(),
        });
        return Some(Confidence::Sure);
    }
    let in_tool = st.open.is_some();
    if let Some((kind, text)) = diff_line(&line).filter(|_| in_tool || !kiro) {
        out.emit(Entry::diff(ts, kind, text));
        return Some(Confidence::Maybe);
    }
    let coloured = raw.trim_start().starts_with(ANSWER_MARK);
    let marked = t == ">" || t.starts_with("> ");
    if coloured || (kiro && marked && !in_tool) {
        close(st, ts, None, false, out);
        st.answer = stateful;
        let text = t.strip_prefix('>').unwrap_or(t).trim_start();
        if text.is_empty() && !stateful {
            return None;
        }
        if stateful {
            out.emit(Entry::assistant_delta(ts, format!("{text}\n")));
        } else {
            out.emit(Entry::assistant(ts, text));
        }
        return Some(if coloured { Confidence::Sure } else { Confidence::Maybe });
    }
    if BANNER.iter().any(|b| t.starts_with(b)) {
        out.emit(Entry::system(ts, t));
        return Some(Confidence::Maybe);
    }
    if !kiro {
        return None;
    }
    let gap = if blank { "\n" } else { "" };
    if let Some(open) = &mut st.open {
        let gap = if open.has_output { gap } else { "" };
        open.has_output = true;
        open.error |= t.starts_with('❗');
        let mut e = Entry::tool_result(ts, open.id.clone(), Some(open.name.clone()), format!("{gap}{line}\n"), false);
        if let Entry::ToolResult { delta, .. } = &mut e {
            *delta = Some(true);
        }
        out.emit(e);
    } else if st.error_tail {
        out.emit(Entry::stderr(ts, t));
    } else if st.answer {
        out.emit(Entry::assistant_delta(ts, format!("{gap}{line}\n")));
    } else {
        return None;
    }
    Some(Confidence::Maybe)
}

/// Ends the open tool, if any, with its result: `ms` from its completion line, `failed` on a
/// failure line (or an error line in its output). Whether there was one.
fn close(st: &mut State, ts: &str, ms: Option<u64>, failed: bool, out: &mut Vec<Entry>) -> bool {
    st.answer = false;
    let Some(open) = st.open.take() else { return false };
    let mut e = Entry::tool_result(ts, open.id, Some(open.name), "", failed || open.error);
    if let Entry::ToolResult { duration_ms, .. } = &mut e {
        *duration_ms = ms;
    }
    out.emit(e);
    true
}

/// `(description, tool name, details, completion ms)` of a tool header line (the last set
/// when the line also says the tool completed).
fn header(t: &str) -> Option<(&str, &str, &str, Option<u64>)> {
    if let Some(rest) = t.strip_prefix(Q_USING) {
        let end = [find(rest, " (trusted)"), find(rest, " from mcp server ")].into_iter().flatten().min();
        let name = cut(rest, ..end.unwrap_or(rest.len())).trim();
        return (!name.is_empty()).then_some(("", name, "", None));
    }
    let at = rfind(t, USING)?;
    let inner = cut(t, at + USING.len()..);
    let close = find(inner, ")")?;
    let after = cut(inner, close + 1..);
    let done = match after {
        "" => None,
        _ => Some(completion(after.trim_start())?),
    };
    let inner = cut(inner, ..close);
    let (name, details) = match find(inner, ",") {
        Some(i) => (cut(inner, ..i), cut(inner, i + 1..).trim()),
        None => (inner, ""),
    };
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '@' | '/' | '.' | ':'));
    let desc = cut(t, ..at).trim();
    (ok && !desc.is_empty()).then_some((desc, name, details, done))
}

/// The tool's input: its description, and what it names where the description says it.
fn input(desc: &str, details: &str) -> Json {
    let text = |s: &str| (!s.is_empty()).then(|| Json::from(s.owned()));
    let command = ["I will run the following command: ", "I will run the following shell command: "]
        .iter()
        .find_map(|p| desc.strip_prefix(p));
    let (command, cwd) = match command {
        Some(c) if c.ends_with(')') => match rfind(c, " (in ") {
            Some(i) => (Some(cut(c, ..i)), Some(cut(c, i + 5..c.len() - 1))),
            None => (Some(c), None),
        },
        c => (c, None),
    };
    common::object([
        ("description", text(desc)),
        ("details", text(details)),
        ("command", command.and_then(text)),
        ("cwd", cwd.and_then(text)),
        ("path", written_path(desc).and_then(text)),
    ])
}

/// The file a write's header names.
fn written_path(desc: &str) -> Option<&str> {
    ["I'll create the following file: ", "I'll modify the following file: "]
        .iter()
        .find_map(|p| desc.strip_prefix(p))
        .map(str::trim)
        .filter(|p| !p.is_empty())
}

/// The milliseconds of a completion line (`- Completed in 0.11s`, `● Completed in 0.11s`,
/// optionally followed by a ` [checkpoint]` tag); `None` when it is not one.
fn completion(t: &str) -> Option<u64> {
    let rest = t.strip_prefix("- Completed in ").or_else(|| t.strip_prefix("● Completed in "))?;
    let rest = match find(rest, " [") {
        Some(i) if rest.ends_with(']') => cut(rest, ..i),
        _ => rest,
    };
    seconds_ms(rest.strip_suffix('s')?)
}

/// The milliseconds of a failure line (`● Execution failed after 0.1s:`).
fn failure(t: &str) -> Option<u64> {
    let rest = t.strip_prefix("● Execution failed after ").or_else(|| t.strip_prefix("- Execution failed after "))?;
    seconds_ms(rest.strip_suffix("s:")?)
}

/// `{secs}.{millis}` (millis not zero-padded) as milliseconds.
fn seconds_ms(s: &str) -> Option<u64> {
    let (secs, millis) = s.split_once('.').unwrap_or((s, "0"));
    let digits = |d: &str| !d.is_empty() && d.len() <= 12 && d.bytes().all(|b| b.is_ascii_digit());
    if !digits(secs) || !digits(millis) || millis.len() > 3 {
        return None;
    }
    Some(secs.parse::<u64>().ok()? * 1000 + millis.parse::<u64>().ok()?)
}

/// A line of a write's diff: `{sign} {old no}{", " or "  "}{new no}: {text}`, numbers
/// right-aligned (`+      8: x`, `-  8    : x`, `   1,  1: x`, a new file's `+     1: x`).
/// The entry kind and the line as unified-diff text.
fn diff_line(line: &str) -> Option<(&'static str, String)> {
    let sign = line.chars().next().filter(|c| matches!(c, '+' | '-' | ' '))?;
    let colon = find(line, ": ").or_else(|| line.ends_with(':').then(|| line.len() - 1))?;
    let gutter = cut(line, 1..colon);
    let numbers = gutter.trim();
    let lead = gutter.len() - gutter.trim_start().len();
    let trail = gutter.len() - gutter.trim_end().len();
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let kind = match sign {
        // The old number's column is blank: at least the separator's two spaces and one
        // for the number before the new one; a removed line's new column likewise after.
        '+' if lead >= 3 && trail == 0 && digits(numbers) => "add",
        '-' if lead >= 1 && trail >= 3 && digits(numbers) => "remove",
        ' ' if lead >= 1 && trail == 0 => match numbers.split_once(',') {
            Some((old, new)) if digits(old) && digits(new.trim_start()) => "context",
            _ => return None,
        },
        _ => return None,
    };
    let text = cut(line, (colon + 2).min(line.len())..);
    Some((kind, format!("{sign}{text}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_times_are_seconds_and_unpadded_millis() {
        assert_eq!(completion("- Completed in 0.11s"), Some(11));
        assert_eq!(completion("- Completed in 797.330s"), Some(797_330));
        assert_eq!(completion("● Completed in 1.5s [v3]"), Some(1_005));
        assert_eq!(completion("- Completed in 3"), None);
        assert_eq!(completion("- Completed in soon"), None);
    }

    #[test]
    fn headers_give_name_details_and_an_inline_completion() {
        let h = header("Reading directory: /p (using tool: read, max depth: 4, excluding: defaults)").unwrap();
        assert_eq!(h, ("Reading directory: /p", "read", "max depth: 4, excluding: defaults", None));
        let h = header("Introspecting to get you the right information (using tool: introspect) - Completed in 0.68s").unwrap();
        assert_eq!(h.1, "introspect");
        assert_eq!(h.3, Some(68));
        assert!(header("we were (using tool: a b)").is_none());
        assert!(header("x (using tool: read) and more").is_none());
        assert!(header("(using tool: read)").is_none());
        assert_eq!(header("🛠\u{fe0f}  Using tool: fs_write (trusted)").unwrap().1, "fs_write");
    }

    #[test]
    fn diff_lines_need_the_gutter() {
        assert_eq!(diff_line("+      8: # Backend"), Some(("add", "+# Backend".owned())));
        assert_eq!(diff_line("-  8    : # We invoke"), Some(("remove", "-# We invoke".owned())));
        assert_eq!(diff_line("   1,  1: [project]"), Some(("context", " [project]".owned())));
        assert_eq!(diff_line("+     2:"), Some(("add", "+".owned())));
        assert_eq!(diff_line("+ note: x"), None);
        assert_eq!(diff_line("   12: x"), None);
        assert_eq!(diff_line("- item: 3"), None);
        assert_eq!(diff_line("+ 1: x"), None);
        assert_eq!(diff_line("-  8: x"), None);
    }
}
