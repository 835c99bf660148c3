//! Kiro CLI, `kiro-cli chat --no-interactive [--trust-all-tools] "<prompt>"`: the terminal
//! text of a chat, read line by line (Kiro has no JSON output for chats; `--format` only
//! shapes `--list-models`/`--list-sessions`). Kiro colours its text even into a pipe; colours
//! are taken off first, and spinner frames (`⠋ Loading...`) a terminal would overwrite.
//!
//! - `<what it does> (using tool: <name>[, <details>])` opens a tool → `tool_call` (`input`:
//!   `description`, `details`; a shell call's `command` and `cwd`, a write's `path`), its id
//!   made from the line and its time. Parallel calls print their headers glued on one line
//!   (also to the end of a batch read's last `↱ Operation` line): one call each, completed
//!   in call order. A write's header (`I'll create the following file: <path>`, `I'll
//!   modify …`) also gives a `diff` file header. A quick tool puts ` - Completed in <t>s` on
//!   the same line. The Amazon Q Developer CLI, which Kiro CLI grew out of, prints
//!   `🛠️  Using tool: <name>[ (trusted)]` instead.
//! - `I'll share my reasoning process (using tool: thinking): <text>`, and the lines after
//!   it up to its completion line → `thinking`.
//! - ` - Completed in <t>s` (Q: ` ● Completed in <t>s`) ends the oldest open tool →
//!   `tool_result` with `durationMs`. `<t>` is seconds, a dot and the milliseconds unpadded
//!   (`0.11s` is 11 ms, `797.330s` 797 s 330 ms: the source formats `{secs}.{subsec_millis}`).
//!   ` ● Execution failed after <t>s:` and `Tool validation failed:` end it as failed; the
//!   error text after them, up to a blank line or a Kiro mark, is `stderr`.
//!   `Kiro is having trouble responding right now:` and a wrapper's `[TIMEOUT]` end every open
//!   tool as failed (`[TIMEOUT]` also as the run's failed `result`).
//! - Between them, the tool's output (`Purpose: …`, ` ✓ …` and ` ❗ …` lines, `↱ Operation
//!   N: …`, a command's own output, `Updating: <path>`) → the result's content, given whole
//!   when the tool ends (one result per call; held up to `MAX_OUTPUT_BYTES`). A ` ❗ ` line
//!   makes the result an error, but for a search's `❗ No matches found`. A write's
//!   `+      8: …`, `-  8    : …`, `   1,  1: …` lines → `diff` entries.
//! - `> ` behind a colour code (`ESC[38;5;141m> `; `ESC[m> ` under `NO_COLOR`) starts the
//!   assistant's text; the lines after it continue it until the next tool or the end of the
//!   turn → `assistant` deltas. A bare `> ` could be any program's (`npm run` echoes one).
//! - ` ▸ Credits: 7.23 • Time: 2m 29s` (stderr; older builds ` ▸ Time: 19s`) ends the turn →
//!   `result` with that text: Kiro prints no token counts, and credits are not dollars.
//! - the `--trust-all-tools` warning, the checkpoints and MCP notices → `system`.
//!
//! Read alone (the stateless path, the host's default file), a line with a Kiro mark gives
//! what it says; a tool's header gives its call and an empty result at once, since only the
//! stream knows which call a later completion line closes (that line is then a notice with
//! the time). Lines without a mark stay plain text there, as any program's would. A stateful
//! parser locks on a line that is unmistakably Kiro's (a coloured mark, the trailer, a
//! completion that ends a header's call, glued headers, a reasoning step), not on a header
//! alone, which any sentence may look like; then it reads every line as above.
//!
//! Evidence: one real run (stdout and stderr, escape codes intact: the Paperclip Kiro
//! adapter's tests, MIT); the other fixtures are derived, in the line shapes of real
//! `kiro-cli` 2025–2026 runs quoted in public repositories without a licence to copy, with
//! the renderer's strings from the Amazon Q Developer CLI source (aws/amazon-q-developer-cli
//! 15cc8f3, Apache-2.0 OR MIT). Details: docs/formats/kiro.md.

use crate::prelude::*;
use super::common::{self, cut, find, rfind, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Json;

/// What a Kiro stream remembers: the tools whose completion lines have not come yet (in
/// the order they were called: parallel calls complete in that order), whether the
/// assistant's text or its reasoning is being continued, and the blank line before this one.
#[derive(Debug, Default)]
pub struct State {
    open: Vec<Open>,
    answer: bool,
    thinking: bool,
    blank: bool,
    error_tail: bool,
}

#[derive(Debug)]
struct Open {
    id: String,
    name: String,
    /// The tool's output so far, given as one result when the tool ends (one result per
    /// call: the host makes a card of every result after a call's first), up to
    /// `MAX_OUTPUT_BYTES`; `dropped` counts the bytes past it.
    output: String,
    dropped: usize,
    error: bool,
}

/// The most of one tool's output a stateful Kiro reader holds until the tool ends (the
/// rest is counted and named in the result).
pub const MAX_OUTPUT_BYTES: usize = 256 << 10;
/// The most tools a stateful Kiro reader keeps open at once (past it the oldest ends).
pub const MAX_OPEN_TOOLS: usize = 16;

const USING: &str = "(using tool: ";
const Q_USING: &str = "🛠\u{fe0f}  Using tool: ";
/// How Kiro opens a reasoning step: a header whose output is the model's reasoning.
const REASONING: &str = "I'll share my reasoning process";
const BANNER: [&str; 5] = [
    "All tools are now trusted (!)",
    "Agents can sometimes do unexpected things",
    "Learn more at https://kiro.dev/docs/cli/chat/security",
    "📷 Checkpoints are enabled!",
    "One or more mcp server did not load correctly",
];
/// How the descriptions of Kiro's built-in tools begin: where a header is glued to the end
/// of the previous tool's last output line (`↱ Operation 2: Reading file: …, all
/// linesSearching for: …`), the header starts at the last of these.
const DESCRIPTIONS: [&str; 12] = [
    "Searching for: ",
    "Searching for symbols matching: ",
    "Searching the web for: ",
    "Fetching content from: ",
    "Reading file: ",
    "Reading directory: ",
    "Reading images: ",
    "Batch fs_read operation",
    "I will run the following command: ",
    "I'll create the following file: ",
    "I'll modify the following file: ",
    "Invoking ",
];
/// Lines that end a run with an error (on stderr): the text up to the next Kiro mark is
/// the error's.
const FATAL: [&str; 3] = ["Kiro is having trouble responding right now:", "Tool validation failed:", "[TIMEOUT]"];

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
    let cleaned = super::plain::clean(raw);
    // Spinner frames (`⠋ Loading...⠙ Loading...`) a terminal would have overwritten.
    let line = after_spinner(&cleaned);
    let t = line.trim();
    let mut none = State::default();
    let stateful = state.is_some();
    let st = state.unwrap_or(&mut none);
    if t.is_empty() {
        // Only terminal controls (Kiro wraps its trailer in a colour set alone on a line), or
        // only spinner frames.
        if kiro && line.len() == cleaned.len() {
            blank(st);
        }
        return (kiro || line.len() < cleaned.len()).then_some(Confidence::Maybe);
    }
    let blank = core::mem::take(&mut st.blank);
    if let Some((glued, calls, after)) = headers(t) {
        return Some(open_tools(st, stateful, kiro, ts, t, glued, &calls, after, out));
    }
    // A completion or failure line that ends a step a header opened: the pair is Kiro's
    // (this locks a stateful parser); alone, the line is a notice.
    if let Some(ms) = completion(t) {
        if core::mem::take(&mut st.thinking) || close(st, ts, Some(ms), false, out) {
            return Some(Confidence::Sure);
        }
        out.emit(Entry::system(ts, format!("tool completed in {}", cut(t, find(t, "in ").map_or(0, |i| i + 3)..))));
        return Some(Confidence::Maybe);
    }
    if let Some(ms) = failure(t) {
        let paired = close(st, ts, Some(ms), true, out);
        if !paired {
            out.emit(Entry::stderr(ts, t));
        }
        st.error_tail = stateful;
        return Some(if paired { Confidence::Sure } else { Confidence::Maybe });
    }
    if let Some(text) = t.strip_prefix("▸ ").filter(|r| r.starts_with("Credits: ") || r.starts_with("Time: ")) {
        close_all(st, ts, false, out);
        out.emit(result(ts, text.owned(), "success", false));
        return Some(Confidence::Sure);
    }
    if let Some(fatal) = FATAL.iter().find(|f| t.starts_with(**f)) {
        // The open tools end with it; a cut-off run's `[TIMEOUT]` (printed by the program
        // that stopped it) is the run's failed end.
        if *fatal == "Tool validation failed:" {
            close(st, ts, None, true, out);
        } else {
            close_all(st, ts, true, out);
        }
        st.error_tail = stateful;
        if *fatal == "[TIMEOUT]" {
            out.emit(result(ts, "the run timed out ([TIMEOUT]) before Kiro finished".owned(), "timeout", true));
        } else {
            out.emit(Entry::stderr(ts, t));
        }
        return Some(Confidence::Maybe);
    }
    let in_tool = !st.open.is_empty();
    if let Some((kind, text)) = diff_line(line).filter(|_| in_tool || !kiro) {
        out.emit(Entry::diff(ts, kind, text));
        return Some(Confidence::Maybe);
    }
    // Kiro colours its mark, even into a pipe (`NO_COLOR` leaves a bare `ESC[m`): a `> ` with
    // no colour before it could be any program's (`npm run` echoes `> pkg@1.0.0 test`).
    let coloured = coloured_mark(raw);
    let marked = t == ">" || t.starts_with("> ");
    if coloured || (kiro && marked && !in_tool) {
        close_all(st, ts, false, out);
        st.answer = stateful;
        st.error_tail = false;
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
    if st.thinking {
        out.emit(Entry::thinking_delta(ts, format!("{gap}{line}\n")));
    } else if !st.open.is_empty() {
        // A call's `Purpose:` comes right after its header (the last opened); what a tool
        // printed belongs to the oldest still running.
        let at = if t.starts_with("Purpose: ") { st.open.len() - 1 } else { 0 };
        let open = &mut st.open[at];
        let gap = if open.output.is_empty() { "" } else { gap };
        // ` ❗ ` marks a failure, except Kiro's own "nothing found" for a search.
        open.error |= t.starts_with('❗') && !cut(t, '❗'.len_utf8()..).trim_start().starts_with("No matches found");
        if open.output.len() + gap.len() + line.len() < MAX_OUTPUT_BYTES {
            open.output.push_str(gap);
            open.output.push_str(line);
            open.output.push('\n');
        } else {
            open.dropped += line.len() + 1;
        }
    } else if st.error_tail {
        out.emit(Entry::stderr(ts, t));
    } else if st.answer {
        out.emit(Entry::assistant_delta(ts, format!("{gap}{line}\n")));
    } else {
        return None;
    }
    Some(Confidence::Maybe)
}

/// The calls of a header line (several where parallel calls' headers are glued on one line),
/// each opened; `glued`: the end of the previous tool's output before the first header;
/// `after`: what follows the last header's `)` (a completion time, or a reasoning step's
/// text). Returns how sure the line is Kiro's.
#[allow(clippy::too_many_arguments)]
fn open_tools(
    st: &mut State,
    stateful: bool,
    kiro: bool,
    ts: &str,
    t: &str,
    glued: &str,
    calls: &[Call],
    after: &str,
    out: &mut Vec<Entry>,
) -> Confidence {
    if !glued.is_empty() && kiro && !st.open.is_empty() {
        if let Some(open) = st.open.first_mut() {
            open.output.push_str(glued);
            open.output.push('\n');
        }
    } else if !glued.is_empty() {
        out.emit(Entry::stdout(ts, glued));
    }
    st.answer = false;
    st.error_tail = false;
    let last = calls.len() - 1;
    let done = completion(after.trim_start());
    for (k, call) in calls.iter().enumerate() {
        if call.name == "thinking" && k == last && call.desc.starts_with(REASONING) {
            // `I'll share my reasoning process (using tool: thinking): <text>`: reasoning, its
            // later lines too until the step's completion line.
            let text = after.strip_prefix(':').unwrap_or(after).trim();
            if !text.is_empty() {
                out.emit(if stateful { Entry::thinking_delta(ts, format!("{text}\n")) } else { Entry::thinking(ts, text) });
            }
            st.thinking = stateful;
            return Confidence::Sure;
        }
        let id = format!(
            "kiro-{:016x}",
            crate::text::fnv1a(crate::text::FNV_OFFSET, ts.bytes().chain([0]).chain(t.bytes()).chain((k > 0).then_some(k as u8)))
        );
        out.emit(Entry::tool_call(ts, call.name, input(call.desc, call.details), Some(id.clone())));
        if let Some(path) = written_path(call.desc) {
            out.emit(Entry::diff(ts, "file_header", path));
        }
        if st.open.len() >= MAX_OPEN_TOOLS {
            close(st, ts, None, false, out);
        }
        st.open.push(Open { id, name: call.name.owned(), output: String::new(), dropped: 0, error: false });
        if !stateful {
            // Read alone, the call ends at once (which call a later completion line ends only
            // the stream knows).
            close(st, ts, if k == last { done } else { None }, false, out);
        }
    }
    if done.is_some() {
        // `<header> - Completed in 0.68s`: the last call ended at once.
        if let Some(open) = st.open.pop() {
            end(open, ts, done, false, out);
        }
    }
    // A header alone could be any sentence ending in `(using tool: x)`: it locks nothing.
    // With its completion on the same line, glued to another header, or the Q Developer
    // CLI's own header, it is Kiro's.
    if done.is_some() || calls.len() > 1 || t.starts_with(Q_USING) {
        Confidence::Sure
    } else {
        Confidence::Maybe
    }
}

/// A Kiro `result`: no token counts (Kiro prints none; credits are not dollars).
fn result(ts: &str, text: String, subtype: &str, is_error: bool) -> Entry {
    Entry::untallied_result(ts, text, subtype, is_error, Vec::new())
}

/// The end of the stream (`StdoutParser::flush`): tools still open give their output.
pub fn finish(state: &mut State, ts: &str, out: &mut Vec<Entry>) {
    close_all(state, ts, false, out);
}

/// Ends the oldest open tool, if any, with its result: `ms` from its completion line,
/// `failed` on a failure line (or an error line in its output). Whether there was one.
fn close(st: &mut State, ts: &str, ms: Option<u64>, failed: bool, out: &mut Vec<Entry>) -> bool {
    st.answer = false;
    st.thinking = false;
    if st.open.is_empty() {
        return false;
    }
    let open = st.open.remove(0);
    end(open, ts, ms, failed, out);
    true
}

/// Ends every open tool (the answer or the run's end came first).
fn close_all(st: &mut State, ts: &str, failed: bool, out: &mut Vec<Entry>) {
    while close(st, ts, None, failed, out) {}
    st.thinking = false;
}

fn end(mut open: Open, ts: &str, ms: Option<u64>, failed: bool, out: &mut Vec<Entry>) {
    if open.dropped > 0 {
        open.output.push_str(&format!("[agentlines: {} more bytes of this output not kept]\n", open.dropped));
    }
    let mut e = Entry::tool_result(ts, open.id, Some(open.name), open.output, failed || open.error);
    if let Entry::ToolResult { duration_ms, .. } = &mut e {
        *duration_ms = ms;
    }
    out.emit(e);
}

/// Whether the raw line starts (after spaces) with a colour set directly before `> `: Kiro's
/// answer mark (`ESC[38;5;141m> `, or `ESC[m> ` under `NO_COLOR`).
fn coloured_mark(raw: &str) -> bool {
    let mut rest = raw.trim_start();
    let mut any = false;
    while let Some(r) = rest.strip_prefix("\u{1b}[") {
        let Some(m) = find(r, "m") else { return false };
        if !cut(r, ..m).bytes().all(|b| b.is_ascii_digit() || b == b';') {
            return false;
        }
        rest = cut(r, m + 1..);
        any = true;
    }
    any && (rest.starts_with("> ") || rest == ">")
}

/// The line after any spinner frames at its start (`⠋ Loading...⠙ Loading...`: a braille
/// frame, a space and a status ending in `...`, as the terminal drew them in place).
fn after_spinner(line: &str) -> &str {
    let mut rest = line.trim_start();
    let mut any = false;
    while rest.starts_with(|c: char| ('\u{2800}'..='\u{28ff}').contains(&c)) {
        let Some(dots) = find(rest, "...") else { break };
        rest = cut(rest, dots + 3..).trim_start();
        any = true;
    }
    if any { rest } else { line }
}

/// One call of a header line.
struct Call<'a> {
    desc: &'a str,
    name: &'a str,
    details: &'a str,
}

/// The calls of a header line: `(glued output, calls, what follows the last)`. The Q
/// Developer CLI's `🛠️  Using tool: <name>` is one call without a description.
fn headers(t: &str) -> Option<(&str, Vec<Call<'_>>, &str)> {
    if let Some(rest) = t.strip_prefix(Q_USING) {
        let end = [find(rest, " (trusted)"), find(rest, " from mcp server ")].into_iter().flatten().min();
        let name = cut(rest, ..end.unwrap_or(rest.len())).trim();
        return (!name.is_empty()).then(|| ("", vec![Call { desc: "", name, details: "" }], ""));
    }
    let mut calls = Vec::new();
    let mut from = 0;
    let mut glued = "";
    while let Some(at) = find(cut(t, from..), USING) {
        let rest = cut(t, from..);
        let inner = cut(rest, at + USING.len()..);
        let close = find(inner, ")")?;
        let (name, details) = match find(cut(inner, ..close), ",") {
            Some(i) => (cut(inner, ..i), cut(inner, i + 1..close).trim()),
            None => (cut(inner, ..close), ""),
        };
        let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '@' | '/' | '.' | ':'));
        let mut desc = cut(rest, ..at).trim();
        if calls.is_empty() && desc.starts_with('↱') {
            // The previous tool's last output line, the header glued to its end.
            let start = DESCRIPTIONS.iter().filter_map(|d| rfind(desc, d)).filter(|&i| i > 0).max()?;
            glued = cut(desc, ..start);
            desc = cut(desc, start..);
        }
        if !ok || desc.is_empty() {
            return None;
        }
        calls.push(Call { desc, name, details });
        from += at + USING.len() + close + 1;
        if calls.len() > MAX_OPEN_TOOLS {
            return None;
        }
    }
    let after = cut(t, from..);
    // After the last: nothing, its completion, or a reasoning step's text.
    let fits = after.is_empty()
        || completion(after.trim_start()).is_some()
        || (after.starts_with(':') && calls.last().is_some_and(|c| c.name == "thinking"));
    (!calls.is_empty() && fits).then_some((glued, calls, after))
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
    // Fed trimmed (the host trims every line), a context line starts at its old number.
    if line.starts_with(|c: char| c.is_ascii_digit()) {
        return diff_line(&format!("  {line}"));
    }
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
        type One<'a> = (&'a str, &'a str, &'a str, &'a str, usize, Option<u64>);
        fn one(t: &str) -> Option<One<'_>> {
            headers(t).map(|(g, c, after)| (g, c[0].desc, c[0].name, c[0].details, c.len(), completion(after.trim_start())))
        }
        assert_eq!(
            one("Reading directory: /p (using tool: read, max depth: 4, excluding: defaults)"),
            Some(("", "Reading directory: /p", "read", "max depth: 4, excluding: defaults", 1, None))
        );
        let h = one("Introspecting to get you the right information (using tool: introspect) - Completed in 0.68s").unwrap();
        assert_eq!((h.2, h.5), ("introspect", Some(68)));
        assert!(headers("we were (using tool: a b)").is_none());
        assert!(headers("x (using tool: read) and more").is_none());
        assert!(headers("(using tool: read)").is_none());
        assert_eq!(one("🛠\u{fe0f}  Using tool: fs_write (trusted)").unwrap().2, "fs_write");
    }

    #[test]
    fn glued_headers_are_each_a_call() {
        // Shapes of real runs (parallel calls print their headers on one line).
        let (glued, calls, _) = headers("Searching for: a|b in /r (using tool: grep)Searching for: c in /r (using tool: grep)I will run the following command: find /r -name x (using tool: shell)").unwrap();
        assert_eq!(glued, "");
        let names: Vec<(&str, &str)> = calls.iter().map(|c| (c.desc, c.name)).collect();
        assert_eq!(names, [("Searching for: a|b in /r", "grep"), ("Searching for: c in /r", "grep"), ("I will run the following command: find /r -name x", "shell")]);
        let (glued, calls, _) = headers("↱ Operation 2: Reading file: /r/f.tsx, all linesSearching for: T in /r/src (using tool: grep)Searching for: S in /r/src (using tool: grep)").unwrap();
        assert_eq!(glued, "↱ Operation 2: Reading file: /r/f.tsx, all lines");
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].desc, "Searching for: T in /r/src");
        let (_, calls, after) = headers("I'll share my reasoning process (using tool: thinking): The user asks (a lot).").unwrap();
        assert_eq!((calls[0].name, after), ("thinking", ": The user asks (a lot)."));
    }

    #[test]
    fn spinner_frames_and_colour_marks() {
        assert_eq!(after_spinner("⠋ Loading...⠙ Loading..."), "");
        assert_eq!(after_spinner("⠹ Dividing up the work..."), "");
        assert_eq!(after_spinner("⠋ Loading...Found 1 of 1 symbols:"), "Found 1 of 1 symbols:");
        assert_eq!(after_spinner("plain ⠋ text..."), "plain ⠋ text...");
        assert!(coloured_mark("\u{1b}[38;5;141m> \u{1b}[0mHello"));
        assert!(coloured_mark("\u{1b}[m> \u{1b}[0mHELLO"));
        assert!(!coloured_mark("> dentacrm-frontend@0.1.0 lint"));
        assert!(!coloured_mark("\u{1b}[38;5;141m>> x"));
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
