//! The two parsers of the host's contract, over every runtime.
//!
//! - [`parse_line`] is stateless (`parseStdoutLine`): it detects the runtime of each line
//!   on its own and its output depends on `(line, ts)` alone.
//! - [`StdoutParser`] is stateful (`createStdoutParser`): it detects the runtime from the
//!   stream and locks onto it once a line is unmistakable, keeps per-runtime delta
//!   bookkeeping, and pairs tool results with their calls to add `toolName` and
//!   `durationMs`. It also splits raw chunks into lines (`parse_chunk`/`flush`).
//!
//! Neither ever fails: a line nobody understands becomes a `stdout` entry (plain text) or a
//! `system` entry naming the event (JSON), never raw JSON and never an error. A blank line
//! gives no entry (there is nothing to show).

use crate::prelude::*;
use crate::entry::Entry;
use crate::formats::common::Emit;
use crate::formats::{self, common, Confidence, Format, States};
use crate::json::{self, Json};
use crate::text::{self, cut, prefix_bytes, Owned};

/// Lines longer than this are not parsed: they become a truncated `stdout` entry with a
/// notice, so one runaway line cannot hold megabytes of wasm memory forever.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// How much of an over-long line is kept in its truncated entry.
pub const OVERLONG_KEEP_BYTES: usize = 64 * 1024;
/// Tool calls remembered for pairing (oldest evicted first).
pub const MAX_PENDING_CALLS: usize = 4096;
/// Largest partial line `parse_chunk` keeps waiting for its newline; past it only the
/// line's first `OVERLONG_KEEP_BYTES` and its length are kept, and at its newline it gives
/// exactly what `parse_line` gives for the whole over-long line.
pub const MAX_PARTIAL_BYTES: usize = MAX_LINE_BYTES + 1;

/// Stateless: the entries for one line, runtime detected from this line alone.
pub fn parse_line(line: &str, ts: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    parse_line_into(line, ts, None, None, &mut out);
    out
}

/// Stateless with a fixed runtime (skips detection).
pub fn parse_line_as(format: Format, line: &str, ts: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    parse_line_into(line, ts, Some(format), None, &mut out);
    out
}

/// Stateless (runtime `format`, or detected), each entry's `ts` computed by `ts_of` from
/// the line's JSON object, which is read once: `ts_of` gets it when serde_json read the
/// line as it is (no byte-order mark, no terminal controls cleaned off, no JavaScript-only
/// number or escape rewritten, no repeated top-level key), else `None`. It is called once
/// per line that is not blank, before any entry is made (the CLI's record timestamps).
pub fn parse_line_stamped(format: Option<Format>, line: &str, ts_of: TsOf) -> Vec<Entry> {
    parse_line_stamped_runtime(format, line, ts_of).0
}

/// [`parse_line_stamped`], with the runtime that read the line (`None`: a blank line or one
/// left unread): what a `result`'s token counts mean depends on it ([`crate::usage`]).
pub fn parse_line_stamped_runtime(format: Option<Format>, line: &str, ts_of: TsOf) -> (Vec<Entry>, Option<Format>) {
    let mut out = Vec::new();
    let seen = parse_stamped_into(line, Stamp::Of(ts_of), format, None, &mut out);
    (out, seen.map(|(f, _)| f))
}

/// The one place a line becomes entries. `format` forces the runtime for JSON lines;
/// `states` is the stateful parser's per-runtime state. Returns the runtime that read the
/// line and how sure detection was (for the stateful parser's lock).
// Stateless-only builds (the `ui-parser.stateless.js` wasm): `parse_line` is then the only
// caller of this and `parse_stamped_into` in the wasm, with no forced runtime and no state,
// but LLVM keeps them out of line and reads `format` and `states` at run time. Inlined
// there, the branches those constants rule out are dropped: with no JSON runtime compiled in
// (Hermes alone), nothing is ever detected, so the JSON dispatch, the turn-signal notices and
// the code only they use go (Hermes: 14.5 KB of wasm, 6 KB gzip). `read_line_into`, which
// also reads the lines found inside a line (and so is one out-of-line copy), takes the same
// constants itself in those builds. Other builds keep one copy per caller.
#[cfg_attr(feature = "stateless-only", inline(always))]
fn parse_line_into(
    line: &str,
    ts: &str,
    format: Option<Format>,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
) -> Option<(Format, Confidence)> {
    parse_stamped_into(line, Stamp::Given(ts), format, states, out)
}

/// Where a line's `ts` comes from: given, or computed once the line is read (see
/// [`parse_line_stamped`]).
enum Stamp<'s> {
    Given(&'s str),
    Of(TsOf<'s>),
}

/// A line's `ts` from the JSON object it holds (see [`parse_line_stamped`]).
pub type TsOf<'s> = &'s mut dyn FnMut(Option<&json::Value>) -> String;

impl<'s> Stamp<'s> {
    fn resolve(&mut self, value: Option<&json::Value>) -> std::borrow::Cow<'s, str> {
        match self {
            Stamp::Given(ts) => std::borrow::Cow::Borrowed(*ts),
            Stamp::Of(f) => std::borrow::Cow::Owned(f(value)),
        }
    }
}

/// Where a line holds JSON records separated by bare carriage returns (`}\r{`: a file
/// written with CR-only line ends, read as one line), the byte offset of each record's
/// start after the first; empty when there are none (a progress bar's `\r` overwrites stay
/// one line, read as the terminal shows them).
fn cr_records(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let mut at = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if c == b'\r' && i > 0 && b[..i].trim_ascii_end().ends_with(b"}") && b.get(i + 1) == Some(&b'{') {
            at.push(i + 1);
        }
    }
    at
}

/// [`parse_line_into`] with the `ts` given or computed from the line's object (inlined in
/// stateless-only builds: see [`parse_line_into`]).
#[cfg_attr(feature = "stateless-only", inline(always))]
fn parse_stamped_into(
    line: &str,
    mut stamp: Stamp,
    format: Option<Format>,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
) -> Option<(Format, Confidence)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    parse_record_into(line, &mut stamp, format, states, out, true)
}

/// JSON records with CR-only line ends (`records`: where each starts after the first), each
/// read as the line it is; the stream learns from the line what its surest record says.
fn split_records(
    line: &str,
    records: Vec<usize>,
    stamp: &mut Stamp,
    format: Option<Format>,
    mut states: Option<&mut States>,
    out: &mut Vec<Entry>,
) -> Option<(Format, Confidence)> {
    let mut seen: Option<(Format, Confidence)> = None;
    let mut from = 0;
    for to in records.into_iter().chain(core::iter::once(line.len())) {
        let record = cut(line, from..to).trim_end_matches('\r');
        let got = parse_record_into(record, stamp, format, states.as_deref_mut(), out, false);
        seen = match (seen, got) {
            (Some(s), Some(g)) if s.1 == Confidence::Sure && g.1 != Confidence::Sure => Some(s),
            (s, g) => g.or(s),
        };
        from = to;
    }
    seen
}

/// [`parse_stamped_into`] for one record: a line, or (`split` false) a CR-separated record
/// of one.
#[cfg_attr(feature = "stateless-only", inline(always))]
fn parse_record_into(
    line: &str,
    stamp: &mut Stamp,
    format: Option<Format>,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
    split: bool,
) -> Option<(Format, Confidence)> {
    // A byte-order mark before the text (a file saved by an editor, a Windows tool's
    // output) is not part of it; the host's `trim()` drops it too.
    let unmarked = line.strip_prefix('\u{feff}');
    let line = unmarked.unwrap_or(line);
    if line.trim().is_empty() {
        // A blank line is a paragraph break in the Kiro text around it.
        #[cfg(feature = "kiro")]
        if let (Some(Format::Kiro), Some(s)) = (format, states) {
            formats::kiro::blank(&mut s.kiro);
        }
        return None;
    }
    if line.len() > MAX_LINE_BYTES {
        overlong_entries(line.len(), line, &stamp.resolve(None), out);
        return None;
    }
    // What one line may produce is bounded (common::budget); past it, one notice says what
    // was left out.
    let budget = common::budget::open(line.len());
    // `stdout: {…}` / `stderr: …`: a stream label in front of the line, as the host's cursor
    // and openclaw readers accept it: the JSON after it, or the text as stderr.
    let label = stream_label(line);
    let line = match label {
        Some((_, rest)) if rest.starts_with('{') => rest,
        _ => line,
    };
    let mut cleaned = String::new();
    let read = read_object(line, &mut cleaned);
    // Not one JSON object as written (a terminal's overwrites would keep only the last):
    // maybe several with CR-only line ends, looked for only then, so a valid line costs
    // nothing more.
    if split && !matches!(read, Some((_, true))) && line.starts_with('{') {
        let records = cr_records(line);
        if !records.is_empty() {
            drop(budget);
            return split_records(line, records, stamp, format, states, out);
        }
    }
    let as_given = match &read {
        Some((v, true)) if unmarked.is_none() && label.is_none() => Some(v),
        _ => None,
    };
    let ts = stamp.resolve(as_given);
    let start = out.len();
    let seen = read_line_into(line, read.map(|(v, _)| v), label, &ts, format, states, out, 0);
    budget.close(&ts, out);
    sane_counts(&mut out[start..]);
    seen
}

/// The largest token count or cost a `result` may carry: past it (1e15 tokens, a quadrillion
/// dollars) a value is no figure a log can mean, and sums of such values overflow to
/// infinity or lose every smaller count.
pub const MAX_COUNT: f64 = 1e15;

/// Token counts and costs a reader can trust: finite, at least 0 and at most [`MAX_COUNT`].
/// A value outside is counted as 0 and the result's `errors` say so (a corrupt line's
/// `-5000000` input tokens would otherwise subtract from every total it is summed into).
fn sane_counts(out: &mut [Entry]) {
    for e in out {
        if let Entry::Result {
            input_tokens, output_tokens, cached_tokens, cache_creation_tokens, cache_creation_1h_tokens, reasoning_tokens, cost_usd, errors, ..
        } = e
        {
            let mut refused = false;
            let counts = [input_tokens, output_tokens, cached_tokens, cost_usd];
            let optional = [cache_creation_tokens, cache_creation_1h_tokens, reasoning_tokens];
            for n in counts.into_iter().chain(optional.into_iter().flatten()) {
                if !(*n >= 0.0 && *n <= MAX_COUNT) {
                    *n = 0.0;
                    refused = true;
                }
            }
            if refused {
                errors.push("a token count or cost that is not one (negative, not a number or over 1e15) counted as 0".owned());
            }
        }
    }
}

/// How deep lines inside lines are read (an adapter's prefix or envelope around another's):
/// real output has one level; past this the inner text is read as it is.
const MAX_NESTING: u8 = 4;

/// A line found inside another (an adapter's prefix taken off, a line of an envelope's
/// chunk): read as a line of its own, under the outer line's budget and `ts`.
#[inline(never)]
fn read_nested(
    line: &str,
    ts: &str,
    format: Option<Format>,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
    depth: u8,
) -> Option<(Format, Confidence)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() {
        return None;
    }
    let mut cleaned = String::new();
    let read = read_object(line, &mut cleaned);
    read_line_into(line, read.map(|(v, _)| v), None, ts, format, states, out, depth + 1)
}

/// The entries an extension hook gave for a line (their JSON text), checked as lines that
/// already are entries are (`formats::entries::read_hook_output`): each a `kind` entry with
/// its fields' types right, else a notice; bounded by the output budget of the line the hook
/// read (`line_len` bytes), not by the size of what it returned.
pub fn hook_entries(json: &str, ts: &str, line_len: usize) -> Vec<Entry> {
    let mut out = Vec::new();
    let budget = common::budget::open(line_len);
    formats::entries::read_hook_output(json, ts, &mut out);
    strip_terminal_escapes(&mut out, 0);
    budget.close(ts, &mut out);
    out
}

/// [`parse_line_into`] for a line that is not blank and not over-long, `value` its object,
/// `label` its stream label ([`stream_label`]), `depth` how many lines this one is inside
/// ([`read_nested`]).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn read_line_into(
    line: &str,
    value: Option<json::Value>,
    label: Option<(bool, &str)>,
    ts: &str,
    format: Option<Format>,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
    depth: u8,
) -> Option<(Format, Confidence)> {
    // In the stateless-only wasm `parse_line` is the only way in: no forced runtime, no state.
    // Said as constants, so that what they rule out is dropped (see `parse_line_into`); one
    // copy of this function serves the line and the lines inside it.
    #[cfg(feature = "stateless-only")]
    let (format, states): (Option<Format>, Option<&mut States>) = {
        let _ = (format, states);
        (None, None)
    };
    let mut states = states;
    let nest = depth < MAX_NESTING;
    let Some(value) = value else {
        if let Some((true, rest)) = label.filter(|(_, r)| !r.starts_with('{')) {
            out.emit(Entry::stderr(ts, rest));
            return None;
        }
        match formats::unwrap(line, ts, out).filter(|_| nest) {
            Some(formats::Wrapped::Line(inner)) => return read_nested(inner, ts, format, states, out, depth),
            Some(formats::Wrapped::Read(f, c)) => return Some((f, c)),
            None => {}
        }
        if let Some((head, entry)) = glued_entry(line).filter(|_| nest) {
            let seen = read_nested(head, ts, format, states, out, depth);
            formats::entries::read(&entry, ts, false, out);
            return seen;
        }
        return Some(formats::parse_text(line, ts, format, states, out));
    };
    // A line that already is a transcript entry, whatever the runtime: itself, checked
    // (terminal escapes taken out of its text as everywhere).
    let start = out.len();
    if formats::entries::read(&value, ts, true, out) {
        strip_terminal_escapes(out, start);
        return None;
    }
    if let Some((chunk, stderr)) = formats::entries::log_chunk(&value).filter(|_| nest) {
        let mut seen = None;
        for piece in chunk.split('\n') {
            if common::budget::stopped() {
                break;
            }
            let at = out.len();
            seen = read_nested(piece, ts, format, states.as_deref_mut(), out, depth).or(seen);
            if stderr {
                for e in &mut out[at..] {
                    if let Entry::Stdout { ts, text } = e {
                        *e = Entry::Stderr { ts: core::mem::take(ts), text: core::mem::take(text) };
                    }
                }
            }
        }
        return seen;
    }
    let detected = match format {
        Some(Format::Plain) | None => formats::detect_json(&value),
        // The host's ACP engine writes its `acpx.*` lines into the log of an adapter that
        // is otherwise Claude, Codex…: read them as ACP whatever the runtime was set to.
        Some(f) if f != Format::Acp && formats::host_engine_line(&value) => Some((Format::Acp, Confidence::Sure)),
        Some(f) => Some((f, Confidence::Sure)),
    };
    match detected {
        Some((f, c)) => {
            let start = out.len();
            formats::parse_json(f, &value, line, ts, states, out);
            strip_terminal_escapes(out, start);
            add_turn_signal_notices(out, start);
            Some((f, c))
        }
        None => {
            out.emit(common::unknown_event(ts, "", &value));
            None
        }
    }
}

/// Text with a transcript entry glued to its end: `Done.{"kind":"system",…}`. An adapter that
/// streams the answer's tokens raw, with no newline after the last one, and then prints an
/// entry line writes that (LM Studio's post-run notices after its streamed answer). The text
/// and the entry, or `None`.
fn glued_entry(line: &str) -> Option<(&str, crate::json::Value<'_>)> {
    let at = common::find(line, "{\"kind\":")?;
    let entry = common::parse_object(cut(line, at..))?;
    let kind = entry.get("kind").and_then(crate::json::Value::as_str)?;
    formats::entries::is_kind(kind).then(|| (cut(line, ..at), entry))
}

/// `(is stderr, rest)` of a line that starts with `stdout`/`stderr` (any case) and `:` or
/// `=`, or with the label right before a JSON object; the rest trimmed and not empty.
fn stream_label(line: &str) -> Option<(bool, &str)> {
    let t = line.trim_start();
    let (head, after) = t.split_at_checked(6)?;
    let err = head.eq_ignore_ascii_case("stderr");
    if !err && !head.eq_ignore_ascii_case("stdout") {
        return None;
    }
    let after = after.trim_start();
    match after.strip_prefix([':', '=']).map(str::trim) {
        Some(rest) if !rest.is_empty() => Some((err, rest)),
        _ if after.starts_with('{') => Some((err, after.trim_end())),
        _ => None,
    }
}

/// The line as a JSON object. A JSON line behind terminal controls (`"\x1b[0m{…}"`,
/// `"\0{…}"`, `"progress 10%\r{…}"`) is read as the JSON a terminal shows once the plain-text
/// cleaner has removed them (`cleaned` holds that text).
/// The flag is whether serde_json read the line as it is, as one object without repeated
/// keys (what [`parse_line_stamped`] passes on).
fn read_object<'a>(line: &'a str, cleaned: &'a mut String) -> Option<(json::Value<'a>, bool)> {
    if let Some(read) = common::parse_object_read(line) {
        return Some(read);
    }
    if let Some(whole) = unredacted(line) {
        *cleaned = whole;
        let cleaned: &'a String = cleaned;
        return common::parse_object(cleaned).map(|v| (v, false));
    }
    if !has_controls(line) {
        return None;
    }
    *cleaned = formats::plain::clean(line);
    let cleaned: &'a String = cleaned;
    if cleaned == line {
        return None;
    }
    // A byte-order mark after a terminal's colour reset (`\x1b[0m\u{feff}{…}`) is no part
    // of the JSON either.
    let json = cleaned.strip_prefix('\u{feff}').unwrap_or(cleaned);
    common::parse_object(json).map(|v| (v, false))
}

/// The marker the Paperclip server writes over what it takes for a secret.
const MARK: &str = "***REDACTED***";

/// A stored log line the Paperclip server's secret redaction broke, whole again. The server
/// (`redaction.js`, 2026.916.1) replaces `<name>: "<value>"` where the name holds `token`,
/// `password`, `secret`, `auth`, … with `<name>: "***REDACTED***"`. When the agent's *text*
/// ends a JSON string with such a word (`"…the new tokens:"` then `},{"type":"toolCall"`),
/// the pattern takes the string's closing quote for a value's opening one and replaces the
/// JSON punctuation up to the next quote (`},{`) with the marker: the line is no longer JSON.
/// The punctuation JSON allows there is put back (from the containers open at the marker:
/// close some, then `,`, in an array maybe `{`), the first that makes the line parse. Its
/// assignment pattern (`csrfToken = document.querySelector(\"…`) also takes the backslash
/// of an escaped quote: the quote after such a marker inside a string is escaped again (the
/// marker stays: what it replaced is not stored anywhere). A marker that opens a string is a
/// redaction that kept the JSON whole and stays. Only for a line that failed to parse and
/// holds one to four markers; bounded tries on lines up to 256 KiB.
fn unredacted(line: &str) -> Option<String> {
    // At most 4 markers (each is a level of the search below; real lines have one or two).
    let (mut marks, mut rest) = (0, line);
    while let Some(i) = text::find(rest, MARK) {
        marks += 1;
        rest = cut(rest, i + MARK.len()..);
    }
    if line.len() > 256 << 10 || marks == 0 || marks > 4 {
        return None;
    }
    let mut tries = 24u8;
    undo_redaction(line.owned(), 0, &mut tries)
}

fn undo_redaction(s: String, from: usize, tries: &mut u8) -> Option<String> {
    // The first marker at or after `from` whose first quote closes a string, and the
    // containers open there (with where each opened).
    let b = s.as_bytes();
    let (mut in_str, mut esc, mut stack, mut at) = (false, false, Vec::new(), None);
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                if i >= from && cut(&s, i + 1..).starts_with(MARK) && b.get(i + 1 + MARK.len()) == Some(&b'"') {
                    at = Some(i);
                    break;
                }
                in_str = false;
            } else if c == b'*' && i >= from && cut(&s, i..).starts_with(MARK) && b.get(i + MARK.len()) == Some(&b'"') {
                // `csrfToken = ***REDACTED***"meta…`: an assignment's value replaced up to an
                // escaped quote, whose backslash went with it. The quote is text again (or
                // it is the string's own end: then the search goes on as it was).
                let end = i + MARK.len();
                if let Some(done) = undo_redaction(format!("{}\\{}", cut(&s, ..end), cut(&s, end..)), end + 2, tries) {
                    return Some(done);
                }
                if *tries == 0 {
                    return None;
                }
            }
        } else if c == b'"' {
            in_str = true;
        } else if c == b'{' || c == b'[' {
            stack.push((c, i));
        } else if c == b'}' || c == b']' {
            stack.pop();
        }
    }
    let Some(q) = at else {
        *tries = tries.checked_sub(1)?;
        return json::read::is_json(&s).then_some(s);
    };
    // The name after the marker, as a key (`"type":`): staying in an object that already has
    // that key would read two blocks as one (a text block's `,"type":"toolCall"`).
    let after = cut(&s, q + MARK.len() + 2..);
    let key = format!("\"{}\":", cut(after, ..text::find(after, "\"").unwrap_or(0)));
    for k in 0..stack.len().min(4) {
        let (top, start) = stack[stack.len() - 1 - k];
        if top == b'{' && text::find(cut(&s, start..q), &key).is_some() {
            continue;
        }
        for open in ["", "{"] {
            if !open.is_empty() && top != b'[' {
                continue;
            }
            let closes: String = stack.iter().rev().take(k).map(|&(c, _)| if c == b'{' { '}' } else { ']' }).collect();
            let x = format!("{closes},{open}");
            let next = format!("{}{x}{}", cut(&s, ..=q), cut(&s, q + MARK.len() + 1..));
            if let Some(done) = undo_redaction(next, q + x.len() + 2, tries) {
                return Some(done);
            }
            if *tries == 0 {
                return None;
            }
        }
    }
    None
}

/// Whether a line holds a C0 control other than tab, DEL or a C1 control (what the
/// plain-text cleaner removes or acts on).
fn has_controls(line: &str) -> bool {
    line.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f)
        || line.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c))
}

/// What an over-long line of `len` bytes (after its trailing CR) shows: a notice and the
/// first `OVERLONG_KEEP_BYTES` of `head` (cut on a char boundary).
/// What [`parse_line`] gives for a line of `len` bytes over [`MAX_LINE_BYTES`], from its
/// head alone: a reader that streams input (the CLI) keeps only the first
/// [`OVERLONG_KEEP_BYTES`] of such a line and its length, never the line.
#[cfg(feature = "std")]
pub fn overlong_line(len: usize, head: &str, ts: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    overlong_entries(len, head, ts, &mut out);
    out
}

fn overlong_entries(len: usize, head: &str, ts: &str, out: &mut Vec<Entry>) {
    out.emit(Entry::system(
        ts,
        format!(
            "line of {} bytes is over the {} MB limit; showing its first {} KB",
            len,
            MAX_LINE_BYTES / (1024 * 1024),
            OVERLONG_KEEP_BYTES / 1024
        ),
    ));
    out.emit(Entry::stdout(ts, prefix_bytes(head, OVERLONG_KEEP_BYTES)));
}

/// An over-long line still arriving through `parse_chunk`: its head and length only.
#[derive(Debug, Default)]
struct Overlong {
    head: String,
    len: usize,
    blank: bool,
    cr: bool,
}

impl Overlong {
    fn add(&mut self, s: &str) {
        if self.head.len() <= OVERLONG_KEEP_BYTES {
            self.head.push_str(prefix_bytes(s, OVERLONG_KEEP_BYTES + 4 - self.head.len()));
        }
        self.len += s.len();
        self.blank = self.blank && s.trim().is_empty();
        if !s.is_empty() {
            self.cr = s.ends_with('\r');
        }
    }

    fn finish(self, ts: &str, out: &mut Vec<Entry>) {
        if !self.blank {
            overlong_entries(self.len - usize::from(self.cr), &self.head, ts, out);
        }
    }
}

/// Terminal escapes inside JSON-carried text (a tool's coloured output, a command's
/// progress bar) would show as `[31m` in the host: they go, as they do on plain-text lines,
/// with the plain-text module's stripper.
fn strip_terminal_escapes(out: &mut [Entry], start: usize) {
    for e in &mut out[start..] {
        let text = match e {
            Entry::ToolResult { content, .. } => content,
            Entry::Stdout { text, .. } | Entry::Stderr { text, .. } | Entry::System { text, .. } => text,
            _ => continue,
        };
        if let Some(clean) = formats::plain::strip_escapes(text) {
            *text = clean;
        }
    }
}

/// After each complete assistant message, one `system` entry per turn-signal block in its
/// text ("Awaiting choice: …", "Session name: …", "Error: …"), so a viewer can show what the
/// agent asked for; the assistant text itself is left as it is. Streamed pieces
/// (`delta: true`) are not read: a block can span several of them. At most
/// `MAX_TURN_SIGNAL_NOTICES` per message, then one notice counting the rest.
#[cfg(feature = "turn-signals")]
fn add_turn_signal_notices(out: &mut Vec<Entry>, start: usize) {
    // A build without a JSON runtime (Hermes alone) makes only unknown events of a JSON
    // line, never assistant text: constant per build, so its wasm leaves the turn-signal
    // readers out (−4.4 KB gzip on hermes/ui-parser.js; docs/bench.md, Decisions).
    if !crate::formats::reads_json() {
        return;
    }
    let has_blocks = |e: &Entry| matches!(e, Entry::Assistant { text, delta: None, .. } if text::has(text, "```"));
    if !out[start..].iter().any(has_blocks) {
        return;
    }
    // The line's entries were counted by the budget when they were added: they go back as
    // they are, the notices through `emit` (so they count too).
    for e in out.split_off(start) {
        let notices = match &e {
            Entry::Assistant { text, delta: None, .. } => crate::turn_signals::turn_signal_notices(text),
            _ => Vec::new(),
        };
        let ts = e.ts().to_owned();
        out.push(e);
        let n = notices.len();
        for t in notices.into_iter().take(MAX_TURN_SIGNAL_NOTICES) {
            out.emit(Entry::system(&ts, t));
        }
        if n > MAX_TURN_SIGNAL_NOTICES {
            let more = n - MAX_TURN_SIGNAL_NOTICES;
            out.emit(Entry::system(&ts, format!("… {more} more turn-signal blocks in this message not listed")));
        }
    }
}

/// Turn-signal notices listed per assistant message (real messages have a handful).
pub const MAX_TURN_SIGNAL_NOTICES: usize = 64;

#[cfg(not(feature = "turn-signals"))]
fn add_turn_signal_notices(_out: &mut [Entry], _start: usize) {}

/// Merges consecutive `delta: true` entries of the same kind into one, as the host's
/// transcript view does (text appended; a merged entry keeps the first one's `ts`).
pub fn merge_deltas(entries: Vec<Entry>) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
    for e in entries {
        if let Some(last) = out.last_mut() {
            if let Some(more) = delta_text(&e) {
                if last.kind() == e.kind() {
                    if let Some(buf) = delta_text_mut(last) {
                        buf.push_str(more);
                        continue;
                    }
                }
            }
        }
        out.emit(e);
    }
    out
}

/// The text a streamed piece (`delta: true`: assistant or thinking text, a tool's output)
/// adds, or `None` for an entry that is not one: which entries stream, said once for the
/// merge here and the CLI's text and Markdown output.
pub fn delta_text(e: &Entry) -> Option<&str> {
    match e {
        Entry::Assistant { text, delta: Some(true), .. }
        | Entry::Thinking { text, delta: Some(true), .. } => Some(text),
        Entry::ToolResult { content, delta: Some(true), .. } => Some(content),
        _ => None,
    }
}

fn delta_text_mut(e: &mut Entry) -> Option<&mut String> {
    match e {
        Entry::Assistant { text, delta: Some(true), .. }
        | Entry::Thinking { text, delta: Some(true), .. } => Some(text),
        Entry::ToolResult { content, delta: Some(true), .. } => Some(content),
        _ => None,
    }
}

/// Batch: a whole log through one autodetecting stateful parser, `ts_of(i)` giving line
/// `i`'s timestamp; `merge` applies [`merge_deltas`]. One call for viewers that load whole
/// logs (one boundary crossing in wasm).
pub fn parse_log_with(text: &str, ts_of: impl Fn(usize) -> String, merge: bool) -> Vec<Entry> {
    parse_log_dyn(text, &ts_of, merge)
}

/// [`parse_log_with`] behind a `dyn Fn`: one copy in the wasm, not one per caller's closure.
fn parse_log_dyn(text: &str, ts_of: &dyn Fn(usize) -> String, merge: bool) -> Vec<Entry> {
    let mut parser = StdoutParser::new();
    let mut out = Vec::new();
    for (i, line) in lines_of(text).enumerate() {
        let ts = ts_of(i);
        parser.parse_line_into(line, &ts, &mut out);
    }
    if merge {
        merge_deltas(out)
    } else {
        out
    }
}

/// The lines of a log text: split on `\n`; a final newline ends the last line rather than
/// starting one, and empty text has none. The one split of [`parse_log_with`] and
/// [`parse_batch`], so both number lines alike.
fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    (!text.is_empty()).then(|| body.split('\n')).into_iter().flatten()
}

/// A batch of whole lines at once (a viewer reading a big log in slices): the lines of
/// `text` (split on `\n`; a final newline ends the last line rather than starting one)
/// through `parser`, or each alone as [`parse_line`] reads it when `parser` is `None`. Line
/// `i` gets `ts_of(i)`, unless `record_ts` and the line is a JSON record with a time of its
/// own ([`crate::runlog::record_time_of`], read from the object the parser reads anyway).
/// `end`: the text ends the stream, so the parser is flushed after its last line
/// ([`StdoutParser::flush`]; what it gives counts as that line's). Returns the entries and,
/// for each, the index of the line it came from, and the number of lines: the same entries
/// as calling the parser on each line.
#[cfg(feature = "std")]
pub fn parse_batch(
    mut parser: Option<&mut StdoutParser>,
    text: &str,
    ts_of: &dyn Fn(usize) -> String,
    record_ts: bool,
    end: bool,
) -> (Vec<Entry>, Vec<usize>, usize) {
    let mut out = Vec::new();
    let mut at = Vec::new();
    let mut count = 0;
    for (i, line) in lines_of(text).enumerate() {
        count = i + 1;
        let given = ts_of(i);
        let mut own = |v: Option<&json::Value>| {
            crate::runlog::record_time_of(line, v).unwrap_or_else(|| given.clone())
        };
        let stamp = if record_ts { Stamp::Of(&mut own) } else { Stamp::Given(&given) };
        match parser.as_deref_mut() {
            Some(p) => p.parse_stamped_into(line, stamp, &mut out),
            None => {
                parse_stamped_into(line, stamp, None, None, &mut out);
            }
        }
        at.resize(out.len(), i);
    }
    if let Some(p) = parser.filter(|_| end) {
        let last = count.saturating_sub(1);
        out.extend(p.flush(&ts_of(last)));
        at.resize(out.len(), last);
    }
    (out, at, count)
}

/// Remembers tool calls by id, bounded: the oldest is evicted past `MAX_PENDING_CALLS`.
/// What a call leaves for its result is `[name, called at (ms) or null]`.
#[derive(Debug, Default)]
struct ToolPairing {
    calls: common::SeenIds,
}

impl ToolPairing {
    fn observe(&mut self, entries: &mut [Entry]) {
        // A call and its result from the same line (a runtime that reports both at once, or
        // a call the stateful parser re-created for a lone result) have no measurable gap.
        let mut same_line: Vec<String> = Vec::new();
        for e in entries.iter() {
            if let Entry::ToolCall { tool_use_id: Some(id), .. } = e {
                same_line.push(id.clone());
            }
        }
        for e in entries.iter_mut() {
            match e {
                Entry::ToolCall { ts, name, tool_use_id: Some(id), .. } => {
                    let at = crate::time::parse_ts_ms(ts).map_or(Json::Null, Json::from);
                    let call = Json::Array(vec![Json::from(name.clone()), at]);
                    self.calls.set(id, call, MAX_PENDING_CALLS);
                }
                Entry::ToolResult { ts, tool_use_id, tool_name, duration_ms, delta, .. } => {
                    let Some(call) = self.calls.get(tool_use_id) else { continue };
                    if tool_name.is_none() {
                        *tool_name = call.at(0).and_then(Json::as_str).map(str::owned);
                    }
                    if duration_ms.is_none() && *delta != Some(true) && !same_line.iter().any(|id| id == tool_use_id) {
                        let called_ms = call.at(1).and_then(Json::as_i64);
                        if let (Some(start), Some(end)) = (called_ms, crate::time::parse_ts_ms(ts)) {
                            if end >= start {
                                *duration_ms = Some((end - start) as u64);
                            }
                        }
                    }
                    // A streamed partial result keeps the call for the final one.
                    if *delta != Some(true) {
                        self.calls.remove(tool_use_id);
                    }
                }
                _ => {}
            }
        }
    }
}

/// A line read by runtime `f` in an unlocked stream that has already shown plain text
/// (docs/stateless.md "Mid-stream JSON lines"): it may lock the runtime only when it opens
/// a run (gives an `init` entry); a `result` it gives is a tool's printout, not this run's
/// outcome, so it becomes a `system` notice the host does not sum. Returns whether `f` may
/// lock.
fn midstream(f: Format, c: Confidence, entries: &mut [Entry]) -> bool {
    if matches!(f, Format::Hermes | Format::HermesGateway | Format::Kiro) {
        return true; // text runtimes: their marks are text lines, not printed JSON
    }
    // Goose has no event that opens a run, and prints its banner as text first: its first
    // unmistakable line locks it (its `message` and `complete` shapes are its own).
    if f == Format::Goose && c == Confidence::Sure {
        return true;
    }
    for e in entries.iter_mut() {
        if let Entry::Result { ts, text, subtype, is_error, cost_usd, .. } = e {
            let what = if *is_error { "error" } else { subtype.as_str() };
            // num_text, not `{}`: core's float formatting would add ~20 KB to the wasm.
            let notice = format!(
                "a {} result line in plain-text output, not this run's result ({what}, ${}): {text}",
                f.label(),
                json::num_text(*cost_usd)
            );
            *e = Entry::system(ts, notice);
        }
    }
    c == Confidence::Sure && entries.iter().any(|e| matches!(e, Entry::Init { .. }))
}

/// Stateful parser: one per transcript session.
#[derive(Debug, Default)]
pub struct StdoutParser {
    /// Fixed by the caller (`createStdoutParser({format})`): no detection at all.
    forced: Option<Format>,
    /// Locked by detection once a line was unmistakable.
    locked: Option<Format>,
    /// The unlocked stream has shown plain-text output of its own (a `stdout` line): a JSON
    /// line now is as likely a tool's output as the run's (see [`midstream`]).
    plain_text: bool,
    states: States,
    pairing: ToolPairing,
    partial: String,
    /// Set while a line past `MAX_PARTIAL_BYTES` is arriving (then `partial` is empty).
    overlong: Option<Overlong>,
    /// The lines of a pretty-printed OpenHands event being joined (formats/openhands.rs).
    #[cfg(feature = "openhands")]
    block: formats::openhands::Block,
    /// The runtime that read the last line.
    last_runtime: Option<Format>,
}

impl StdoutParser {
    /// A parser that detects the runtime from the stream.
    pub fn new() -> StdoutParser {
        StdoutParser::default()
    }

    /// A parser for one runtime (no detection).
    pub fn with_format(format: Format) -> StdoutParser {
        StdoutParser { forced: Some(format), ..StdoutParser::default() }
    }

    /// The runtime the stream was detected (or forced) as, once known.
    pub fn format(&self) -> Option<Format> {
        self.forced.or(self.locked)
    }

    /// The runtime that read the last line (the locked one, or what detection took it for):
    /// what its `result`'s token counts mean depends on it ([`crate::usage`]).
    pub fn line_runtime(&self) -> Option<Format> {
        self.last_runtime.or(self.format())
    }

    /// Forgets everything about the stream (a new session starts), keeping a forced format.
    pub fn reset(&mut self) {
        *self = StdoutParser { forced: self.forced, ..StdoutParser::default() };
    }

    pub fn parse_line(&mut self, line: &str, ts: &str) -> Vec<Entry> {
        let mut out = Vec::new();
        self.parse_line_into(line, ts, &mut out);
        out
    }

    /// [`parse_line`](StdoutParser::parse_line) with the `ts` of [`parse_line_stamped`].
    pub fn parse_line_stamped(&mut self, line: &str, ts_of: TsOf) -> Vec<Entry> {
        let mut out = Vec::new();
        self.parse_stamped_into(line, Stamp::Of(ts_of), &mut out);
        out
    }

    fn parse_line_into(&mut self, line: &str, ts: &str, out: &mut Vec<Entry>) {
        self.parse_stamped_into(line, Stamp::Given(ts), out)
    }

    fn parse_stamped_into(&mut self, line: &str, stamp: Stamp, out: &mut Vec<Entry>) {
        // OpenHands prints each event as `--JSON Event--` and then one JSON object over many
        // lines: those lines are held and read as the one object they make.
        #[cfg(feature = "openhands")]
        if self.forced.map_or(true, |f| f == Format::OpenHands) {
            use formats::openhands::Feed;
            match self.block.feed(line.strip_suffix('\r').unwrap_or(line)) {
                Feed::Pass => {}
                Feed::Hold => {
                    // Only OpenHands prints the marker: what follows is its event stream.
                    if self.forced.is_none() && self.locked.is_none() {
                        self.locked = Some(Format::OpenHands);
                    }
                    return;
                }
                Feed::Done(text) => return self.read_into(&text, stamp, out),
            }
        }
        self.read_into(line, stamp, out)
    }

    fn read_into(&mut self, line: &str, stamp: Stamp, out: &mut Vec<Entry>) {
        let start = out.len();
        let format = self.format();
        let seen = parse_stamped_into(line, stamp, format, Some(&mut self.states), out);
        self.last_runtime = seen.map(|(f, _)| f);
        if self.forced.is_none() && self.locked.is_none() {
            match seen {
                Some((Format::Plain, _)) => {
                    self.plain_text |= out[start..].iter().any(|e| matches!(e, Entry::Stdout { .. }));
                }
                Some((f, c)) if self.plain_text && !midstream(f, c, &mut out[start..]) => {}
                Some((f, Confidence::Sure)) => self.locked = Some(f),
                _ => {}
            }
        }
        self.pairing.observe(&mut out[start..]);
    }

    /// Feeds raw text that may end mid-line; complete lines (LF or CRLF) are parsed, the
    /// rest waits for the next chunk. Results are the same as feeding whole lines.
    pub fn parse_chunk(&mut self, chunk: &str, ts: &str) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut rest = chunk;
        while let Some(nl) = rest.find('\n') {
            let piece = cut(rest, ..nl);
            rest = cut(rest, nl + 1..);
            if let Some(mut long) = self.overlong.take() {
                long.add(piece);
                long.finish(ts, &mut out);
            } else if self.partial.is_empty() {
                self.parse_line_into(piece, ts, &mut out);
            } else {
                let mut line = core::mem::take(&mut self.partial);
                line.push_str(piece);
                self.parse_line_into(&line, ts, &mut out);
            }
        }
        match &mut self.overlong {
            Some(long) => long.add(rest),
            None => {
                self.partial.push_str(rest);
                if self.partial.len() >= MAX_PARTIAL_BYTES {
                    let mut long = Overlong { blank: true, ..Overlong::default() };
                    long.add(&core::mem::take(&mut self.partial));
                    self.overlong = Some(long);
                }
            }
        }
        out
    }

    /// Parses what is left after the last newline (end of stream).
    pub fn flush(&mut self, ts: &str) -> Vec<Entry> {
        let mut out = Vec::new();
        // An OpenHands event cut off by the end of the stream: its text as it came.
        #[cfg(feature = "openhands")]
        if let Some(text) = self.block.take() {
            out.emit(Entry::stdout(ts, text));
        }
        if let Some(long) = self.overlong.take() {
            long.finish(ts, &mut out);
        }
        if !self.partial.is_empty() {
            let line = core::mem::take(&mut self.partial);
            self.parse_line_into(&line, ts, &mut out);
        }
        // A Kiro tool still open when the stream ends: its output so far.
        #[cfg(feature = "kiro")]
        formats::kiro::finish(&mut self.states.kiro, ts, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_give_nothing_and_text_gives_stdout() {
        assert!(parse_line("", "t").is_empty());
        assert!(parse_line("  \r", "t").is_empty());
        assert_eq!(parse_line("hello", "t"), vec![Entry::stdout("t", "hello")]);
    }

    #[test]
    fn a_stream_label_in_front_is_read_through() {
        let json = parse_line(r#"stdout: {"type":"system","subtype":"init","session_id":"s","model":"m","apiKeySource":"login","cwd":"/"}"#, "t");
        assert!(matches!(&json[0], Entry::Init { session_id, .. } if session_id == "s"));
        assert_eq!(parse_line("STDERR= handshake failed", "t"), vec![Entry::stderr("t", "handshake failed")]);
        assert_eq!(parse_line("stderr output follows", "t"), vec![Entry::stdout("t", "stderr output follows")]);
        assert!(matches!(&parse_line("stdout:", "t")[0], Entry::Stdout { .. }));
    }

    #[test]
    fn a_line_the_hosts_secret_redaction_broke_reads_as_written() {
        // A real pi session line (tests/fixtures/pi/pi-session-large-session.jsonl, line 242)
        // as the released Paperclip server stored it: its redaction took `tokens:"` (the end
        // of the agent's text) for a secret's name and value and replaced `},{` with the
        // marker (seen in `make host-e2e`).
        let fixture = include_str!("../tests/fixtures/pi/pi-session-large-session.jsonl");
        let line = fixture.lines().nth(241).unwrap();
        let stored = line.replacen(r#"tokens:"},{""#, r#"tokens:"***REDACTED***""#, 1);
        assert_ne!(stored, line);
        assert!(common::parse_object(&stored).is_none());
        assert_eq!(parse_line(&stored, "t"), parse_line(line, "t"));
        // Closing two containers, in an array's next object, two markers on one line.
        let two = r#"{"a":[{"t":"password:"},{"t":"my token:"}],"b":{"c":"auth:","d":1}}"#;
        let stored = two.replace(r#"password:"},{""#, r#"password:"***REDACTED***""#).replace(r#"auth:","#, r#"auth:"***REDACTED***"#);
        assert_eq!(unredacted(&stored).as_deref(), Some(two));
        // A redaction that kept the JSON whole is the line as it is; one whose lost text is no
        // punctuation stays unreadable (shown as text, as before).
        let kept = r#"{"type":"system","api_key":"***REDACTED***"}"#;
        assert!(common::parse_object(kept).is_some() && unredacted(kept).as_deref() == Some(kept));
        assert!(unredacted(r#"{"a":"token:"***REDACTED***"b"}"#).is_none());
        // Text of any script around the marker (the search steps through it byte by byte).
        assert_eq!(unredacted(r#"{"a":["é token:"***REDACTED***"ß…"],"b":"中 = ***REDACTED***"x"}"#).as_deref(), Some(r#"{"a":["é token:","ß…"],"b":"中 = ***REDACTED***\"x"}"#));
        // A marker anywhere in a line of any script: no panic, whatever it gives.
        let line = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"é 中 token:"},{"type":"tool_use","id":"t","input":{"p":"ß"…"}}]}}"#;
        for (i, _) in line.char_indices() {
            for m in [r#"***REDACTED***"#, r#""***REDACTED***""#, r#"***REDACTED***""#] {
                let _ = parse_line(&format!("{}{m}{}", &line[..i], &line[i..]), "t");
            }
        }
        // Bounded: past four markers nothing is tried; four that fit nothing end in bounded time.
        let many = format!("{{\"a\":[{}\"z\"]}}", r#"{"t":"token:"***REDACTED***"x"},"#.repeat(5));
        assert!(unredacted(&many).is_none());
        let deep = format!("{}{{\"t\":\"token:\"***REDACTED***\"b\"}}{}", "[".repeat(4000), "]".repeat(4000)).repeat(4);
        let t0 = std::time::Instant::now();
        assert!(unredacted(&deep).is_none());
        assert!(t0.elapsed().as_millis() < 500, "{:?}", t0.elapsed());
    }

    #[test]
    fn unknown_json_is_named_not_dumped() {
        let out = parse_line(r#"{"type":"zzz_new_event","x":1}"#, "t");
        assert_eq!(out.len(), 1);
        match &out[0] {
            Entry::System { text, .. } => assert!(text.contains("zzz_new_event"), "{text}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunks_split_anywhere_match_whole_lines() {
        let text = "a\r\nb\n{\"type\":\"zzz\"}\nlast";
        let mut whole = StdoutParser::new();
        let mut expected = Vec::new();
        for l in text.split('\n') {
            expected.extend(whole.parse_line(l, "t"));
        }
        for size in 1..text.len() {
            let mut p = StdoutParser::new();
            let mut got = Vec::new();
            let mut i = 0;
            while i < text.len() {
                let mut j = (i + size).min(text.len());
                while !text.is_char_boundary(j) {
                    j += 1;
                }
                got.extend(p.parse_chunk(&text[i..j], "t"));
                i = j;
            }
            got.extend(p.flush("t"));
            assert_eq!(got, expected, "chunk size {size}");
        }
    }

    #[test]
    fn deltas_merge_like_the_host() {
        let entries = vec![
            Entry::assistant_delta("1", "Hel"),
            Entry::assistant_delta("2", "lo"),
            Entry::thinking_delta("3", "hm"),
            Entry::assistant("4", "full"),
            Entry::assistant_delta("5", "a"),
        ];
        let merged = merge_deltas(entries);
        assert_eq!(merged.len(), 4);
        assert_eq!(merged[0], Entry::assistant_delta("1", "Hello"));
        assert_eq!(merged[3], Entry::assistant_delta("5", "a"));
    }

    #[test]
    fn overlong_line_is_cut_with_a_notice() {
        let line = "x".repeat(MAX_LINE_BYTES + 10);
        let out = parse_line(&line, "t");
        assert_eq!(out.len(), 2);
        assert!(matches!(&out[1], Entry::Stdout { text, .. } if text.len() == OVERLONG_KEEP_BYTES));
    }

    #[test]
    fn parse_log_line_indices() {
        // Line i gets ts_of(i); a final newline does not make an extra line.
        for (text, lines) in [("", 0), ("\n", 1), ("a", 1), ("a\n", 1), ("a\n\n", 2), ("\n\nb", 3)]
        {
            let seen = core::cell::Cell::new(0);
            parse_log_with(
                text,
                |i| {
                    seen.set(seen.get().max(i + 1));
                    "t".to_owned()
                },
                false,
            );
            assert_eq!(seen.get(), lines, "{text:?}");
        }
    }

    #[test]
    fn overlong_line_in_chunks_is_the_same_as_whole() {
        let mut line = "é".repeat(MAX_LINE_BYTES / 2 + 7);
        line.push('\r');
        let whole = parse_line(&line, "t");
        let mut p = StdoutParser::new();
        let mut got = Vec::new();
        let bytes = line.len();
        let mut i = 0;
        while i < bytes {
            let mut j = (i + 999_999).min(bytes);
            while !line.is_char_boundary(j) {
                j += 1;
            }
            got.extend(p.parse_chunk(&line[i..j], "t"));
            i = j;
        }
        assert!(got.is_empty());
        got.extend(p.parse_chunk("\nnext\n", "t"));
        assert_eq!(got.len(), 3);
        assert_eq!(&got[..2], &whole[..]);
        assert!(p.partial.capacity() <= OVERLONG_KEEP_BYTES * 2 && p.overlong.is_none());
        let blank = " ".repeat(MAX_LINE_BYTES + 2);
        assert!(p.parse_chunk(&blank, "t").is_empty() && p.flush("t").is_empty());
    }
}
