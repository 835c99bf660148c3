//! Plain text: every stdout line that is not a JSON object (CLIs without a JSON mode such as
//! `copilot -p`, progress output, stack traces, wrapper log lines).
//!
//! What it does, in order (the prefixes adapters put in front of known lines, such as
//! `[openclaw-gateway:event]`, are taken off before, by `formats::unwrap`):
//! 1. A one-line JSON array of objects (buffered `--output-format json` output, e.g. Qwen
//!    Code's, or an array of transcript entries) is read element by element as JSON lines, so
//!    it never shows as raw JSON.
//! 2. Terminal escape sequences are removed by a small state machine ([`strip_ansi`]): CSI
//!    (`ESC [ … final`, incl. SGR colours), OSC (`ESC ] … BEL` or `ESC ] … ESC \`), DCS/SOS/
//!    PM/APC strings, two-byte escapes (`ESC 7`, `ESC (B`, …), their 8-bit C1 forms, and a
//!    lone `ESC`. Backspace erases the previous character; other control characters except
//!    tab are dropped.
//! 3. Carriage-return overwrites (progress bars): only the text after the last `\r` that is
//!    followed by something visible is kept, as a terminal would show it.
//! 4. A line that is empty after cleaning gives **no entry** (it showed nothing on a
//!    terminal either, e.g. a bare colour reset or cursor move).
//! 5. Obvious error/warning markers (`error:`, `Error:`, `ERROR`, `fatal:`, `panic:`,
//!    `Traceback (most recent call last)`, `XyzError: …`, `warning:`, `npm ERR!`, `[stderr]`
//!    …) make a
//!    `stderr` entry; `[system] …` lines and an adapter's own notices (`[paperclip] …`,
//!    `[custom-llm-local] …`, `[nanoclaw] …`, `[lmstudio-adapter] …`, shown whole) make a
//!    `system` entry; anything else is `stdout` with the cleaned text.
//!
//! Evidence: ECMA-48 / xterm control sequences (CSI, OSC, ST, C1 forms); the marker list
//! follows what cargo, rustc, npm, git, Go and CPython print (see docs/formats/plain.md).

use crate::prelude::*;
use crate::entry::Entry;
use crate::formats::common::Emit;
use crate::json::{self, Value};
use crate::formats::common::Owned;

/// The entries for one non-JSON line (already without its trailing `\r\n`).
pub fn parse(line: &str, ts: &str, out: &mut Vec<Entry>) {
    if json_array(line, ts, out) {
        return;
    }
    let cleaned = clean(line);
    if cleaned.trim().is_empty() {
        return;
    }
    out.emit(classify(ts, cleaned));
}

/// A one-line JSON array of objects (the buffered `--output-format json` of Qwen Code and
/// similar CLIs prints every message in one array): each element is read as its own JSON
/// line would be, stateless. False for anything else (then it is ordinary text).
fn json_array(line: &str, ts: &str, out: &mut Vec<Entry>) -> bool {
    let t = line.trim();
    if !(t.starts_with('[') && t.ends_with(']') && t.contains('{')) {
        return false;
    }
    let Some(Value::Array(items)) = json::read::parse(t) else {
        return false;
    };
    if items.is_empty() || !items.iter().all(Value::is_object) {
        return false;
    }
    for (i, item) in items.iter().enumerate() {
        if super::common::budget::stopped() {
            super::common::budget::skip(items.len() - i);
            break;
        }
        if super::entries::read(item, ts, true, out) {
            continue;
        }
        match super::detect_json(item) {
            Some((format, _)) => super::parse_json(format, item, "", ts, None, out),
            None => out.emit(super::common::unknown_event(ts, "", item)),
        }
    }
    true
}

/// Escape sequences stripped, carriage-return overwrites resolved, trailing blanks removed.
pub fn clean(line: &str) -> String {
    let stripped = strip_ansi(line);
    let visible = after_last_overwrite(&stripped);
    visible.trim_end().owned()
}

/// What a terminal shows of a line that rewrote itself with `\r`: the last segment that has
/// visible text (a trailing `\r` with nothing after it does not blank the line).
fn after_last_overwrite(s: &str) -> &str {
    if !s.contains('\r') {
        return s;
    }
    s.rsplit('\r')
        .find(|seg| !seg.trim().is_empty())
        .unwrap_or("")
}

/// Where the escape-sequence scanner is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scan {
    Text,
    /// Just saw ESC.
    Escape,
    /// ESC followed by intermediate bytes (`ESC ( B`): waiting for the final byte.
    EscapeIntermediate,
    /// Inside `CSI … final`.
    Csi,
    /// Inside an OSC/DCS/SOS/PM/APC string: until BEL or ST.
    String,
    /// Inside a string, just saw ESC (an `ESC \` ends the string).
    StringEscape,
}

/// Removes terminal escape sequences and control characters (keeps `\t` and `\r`, which
/// [`clean`] resolves). Never panics; an unterminated sequence swallows the rest of the line,
/// as a terminal would.
pub fn strip_ansi(s: &str) -> String {
    if !s.chars().any(|c| c.is_control() && c != '\t') {
        return s.owned();
    }
    strip(s, false)
}

/// The same stripping for multi-line text carried inside JSON (tool output, command output,
/// notices; in the host they would show as `[31m`): escape sequences and stray controls go, line breaks (`\n`)
/// stay. Text without an ESC or C1 control is returned as `None` (nothing to do).
pub fn strip_escapes(s: &str) -> Option<String> {
    // ESC is the byte 0x1b and every C1 control is 0xc2 0x80..0x9f in UTF-8: text with
    // neither byte (nearly all of it) is passed by two memchr scans instead of a char walk.
    let b = s.as_bytes();
    if !b.contains(&0x1b) && !b.contains(&0xc2) {
        return None;
    }
    if !s.chars().any(|c| c == '\u{1b}' || ('\u{80}'..='\u{9f}').contains(&c)) {
        return None;
    }
    Some(strip(s, true))
}

fn strip(s: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut state = Scan::Text;
    for c in s.chars() {
        state = match state {
            Scan::Text => match c {
                '\u{1b}' => Scan::Escape,
                '\u{9b}' => Scan::Csi,
                '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => Scan::String,
                '\u{8}' => {
                    out.pop();
                    Scan::Text
                }
                '\t' | '\r' => {
                    out.push(c);
                    Scan::Text
                }
                '\n' if keep_newlines => {
                    out.push(c);
                    Scan::Text
                }
                c if c.is_control() => Scan::Text,
                c => {
                    out.push(c);
                    Scan::Text
                }
            },
            Scan::Escape => match c {
                '[' => Scan::Csi,
                ']' | 'P' | 'X' | '^' | '_' => Scan::String,
                '\u{1b}' => Scan::Escape,
                ' '..='/' => Scan::EscapeIntermediate,
                // Any other byte ends a two-byte escape (ESC 7, ESC =, ESC c, ESC M, …).
                _ => Scan::Text,
            },
            Scan::EscapeIntermediate => match c {
                ' '..='/' => Scan::EscapeIntermediate,
                _ => Scan::Text,
            },
            Scan::Csi => match c {
                // Parameter and intermediate bytes.
                '0'..='?' | ' '..='/' => Scan::Csi,
                // Final byte ends the sequence.
                '@'..='~' => Scan::Text,
                // Anything else: a broken sequence; drop it and keep the character.
                '\u{1b}' => Scan::Escape,
                c if c.is_control() => Scan::Text,
                c => {
                    out.push(c);
                    Scan::Text
                }
            },
            Scan::String => match c {
                '\u{7}' | '\u{9c}' => Scan::Text,
                '\u{1b}' => Scan::StringEscape,
                _ => Scan::String,
            },
            Scan::StringEscape => match c {
                '\\' => Scan::Text,
                '\u{1b}' => Scan::StringEscape,
                _ => Scan::String,
            },
        };
    }
    out
}

/// Prefixes that mark a line as an error or warning. Matched at the start of the trimmed
/// line; `word` entries must be followed by the line end or a character that is not an ASCII
/// letter or digit (a word boundary as a regex `\b` sees it; a Unicode check would bring
/// core's alphabetic and numeric tables, ~2 KB gzip of every ui-parser file).
const STDERR_MARKERS: &[(&str, bool)] = &[
    ("error:", false),
    ("error[", false), // rustc: error[E0308]: …
    ("Error:", false),
    ("ERROR", true),
    ("fatal:", false),
    ("FATAL", true),
    ("panic:", false),
    ("Traceback (most recent call last)", false),
    ("warning:", false),
    ("Warning:", false),
    ("WARNING", true),
    ("[ERROR]", false),
    ("[FATAL]", false),
    ("[WARN]", false),
    ("[WARNING]", false),
    ("npm ERR!", false),
    ("npm error", true),
    ("npm warn", true),
];

fn has_marker(t: &str) -> bool {
    let marked = STDERR_MARKERS.iter().any(|(m, word)| {
        t.strip_prefix(m)
            .is_some_and(|rest| !*word || !rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
    });
    // The last line of a Python/Java stack trace: `ZeroDivisionError: …`, `java.io.IOException: …`.
    let first = t.split_whitespace().next().unwrap_or("");
    let exception = first.len() > 6 && (first.ends_with("Error:") || first.ends_with("Exception:"));
    // Python's `file.py:3: DeprecationWarning: …` and friends.
    let py_warning = t
        .split_whitespace()
        .take(3)
        .any(|w| w.len() > 8 && w.ends_with("Warning:"));
    marked
        || exception
        || py_warning
        || crate::formats::common::has(t, "panicked at")
        || t.starts_with("Exception in thread ")
}

/// Chooses the entry kind for a cleaned, non-blank line.
pub(crate) fn classify(ts: &str, text: String) -> Entry {
    let t = text.trim_start();
    if let Some(rest) = strip_tag(t, "[stderr]") {
        return Entry::stderr(ts, rest);
    }
    if let Some(rest) = strip_tag(t, "[system]") {
        return Entry::system(ts, rest);
    }
    if ADAPTER_NOTICES.iter().any(|p| t.starts_with(p)) {
        return Entry::system(ts, t);
    }
    if has_marker(t) {
        return Entry::stderr(ts, text);
    }
    Entry::stdout(ts, text)
}

/// The tags adapters put in front of their own notices, shown with the tag: the host's
/// `[paperclip]`, and those of paperclip-adapter-custom-llm-local (`transports/*.js`),
/// nanoclaw-paperclip-adapter (`src/index.ts`) and paperclip-adapter-lmstudio (`execute.ts`).
const ADAPTER_NOTICES: &[&str] = &["[paperclip]", "[custom-llm-local]", "[nanoclaw]", "[lmstudio-adapter]"];

/// `tag` at the start (ASCII case-insensitive), then the rest without leading blanks.
fn strip_tag<'a>(t: &'a str, tag: &str) -> Option<&'a str> {
    let (head, rest) = t.split_at_checked(tag.len())?;
    head.eq_ignore_ascii_case(tag).then(|| rest.trim_start())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Vec<Entry> {
        let mut out = Vec::new();
        parse(line, "t", &mut out);
        out
    }

    #[test]
    fn strips_sgr_and_cursor_sequences() {
        assert_eq!(strip_ansi("\x1b[1m\x1b[31merror\x1b[0m: x"), "error: x");
        assert_eq!(strip_ansi("a\x1b[2K\x1b[1Gb"), "ab");
        assert_eq!(strip_ansi("\x1b[38;2;255;0;0mred\x1b[m"), "red");
        assert_eq!(
            strip_ansi("\x1b[?25lhidden cursor\x1b[?25h"),
            "hidden cursor"
        );
    }

    #[test]
    fn strips_osc_with_bel_or_st_and_keeps_link_text() {
        assert_eq!(strip_ansi("\x1b]0;title\x07after"), "after");
        assert_eq!(
            strip_ansi("\x1b]8;;https://x.dev\x1b\\link\x1b]8;;\x1b\\ done"),
            "link done"
        );
        assert_eq!(strip_ansi("\x1bPdcs payload\x1b\\x"), "x");
    }

    #[test]
    fn other_escapes_c1_controls_and_lone_esc() {
        assert_eq!(strip_ansi("\x1b7saved\x1b8"), "saved");
        assert_eq!(strip_ansi("\x1b(Bascii"), "ascii");
        assert_eq!(strip_ansi("\u{9b}31mc1\u{9b}0m"), "c1");
        assert_eq!(strip_ansi("end\x1b"), "end");
        assert_eq!(strip_ansi("bell\x07 and nul\0"), "bell and nul");
        assert_eq!(strip_ansi("abc\x08\x08d"), "ad");
        assert_eq!(strip_ansi("tab\tkept"), "tab\tkept");
        // An unterminated OSC swallows the rest, as a terminal would.
        assert_eq!(strip_ansi("keep\x1b]2;never ends"), "keep");
        assert_eq!(strip_escapes("plain\nlines"), None);
        assert_eq!(
            strip_escapes("\x1b[31mFAIL\x1b[0m a\n\x1b[32mok\x1b[0m b").as_deref(),
            Some("FAIL a\nok b")
        );
    }

    #[test]
    fn carriage_return_keeps_the_last_visible_overwrite() {
        assert_eq!(clean("  10%\r  55%\r 100% done"), " 100% done");
        assert_eq!(clean("done\r"), "done");
        assert_eq!(
            clean("\x1b[2K\rDownloading\x1b[0m\r\x1b[2K\rInstalled"),
            "Installed"
        );
    }

    #[test]
    fn json_arrays_of_objects_are_read_element_by_element() {
        let out = one(
            r#"[{"type":"zzz_unknown","a":"b"},{"type":"text","timestamp":1,"sessionID":"s","part":{"text":"hi"}}]"#,
        );
        assert_eq!(out.len(), 2);
        assert!(matches!(&out[1], Entry::Assistant { text, .. } if text == "hi"));
        assert!(matches!(&one("[1, 2, 3]")[0], Entry::Stdout { .. }));
        assert!(matches!(&one("[ERROR] {boom}")[0], Entry::Stderr { .. }));
    }

    #[test]
    fn blank_after_cleaning_gives_nothing() {
        assert!(one("\x1b[0m").is_empty());
        assert!(one("\x1b[2K\r   ").is_empty());
    }

    #[test]
    fn markers_choose_the_kind() {
        assert!(
            matches!(&one("\x1b[31merror\x1b[0m: could not compile")[0], Entry::Stderr { text, .. } if text == "error: could not compile")
        );
        assert!(matches!(
            &one("error[E0308]: mismatched types")[0],
            Entry::Stderr { .. }
        ));
        assert!(matches!(&one("ERROR: boom")[0], Entry::Stderr { .. }));
        assert!(matches!(&one("ERRORS are fine")[0], Entry::Stdout { .. }));
        assert!(matches!(&one("WARNING2 is a name")[0], Entry::Stdout { .. }));
        assert!(matches!(&one("WARNING—disk almost full")[0], Entry::Stderr { .. }));
        assert!(matches!(&one("npm errorélan")[0], Entry::Stderr { .. }), "ASCII word boundary");
        assert!(matches!(
            &one("Traceback (most recent call last):")[0],
            Entry::Stderr { .. }
        ));
        assert!(matches!(
            &one("thread 'main' panicked at src/main.rs:2:5:")[0],
            Entry::Stderr { .. }
        ));
        assert!(matches!(
            &one("npm ERR! code E404")[0],
            Entry::Stderr { .. }
        ));
        assert!(matches!(&one("[stderr] oops")[0], Entry::Stderr { text, .. } if text == "oops"));
        assert!(matches!(&one("[system] ready")[0], Entry::System { text, .. } if text == "ready"));
        assert!(
            matches!(&one("[paperclip] run started")[0], Entry::System { text, .. } if text == "[paperclip] run started")
        );
        assert!(
            matches!(&one("   Compiling foo v0.1.0")[0], Entry::Stdout { text, .. } if text == "   Compiling foo v0.1.0")
        );
        assert!(matches!(
            &one("an error: inside is stdout")[0],
            Entry::Stdout { .. }
        ));
        assert!(matches!(
            &one("ZeroDivisionError: division by zero")[0],
            Entry::Stderr { .. }
        ));
        assert!(matches!(
            &one("java.io.IOException: closed")[0],
            Entry::Stderr { .. }
        ));
    }
}
