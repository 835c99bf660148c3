//! The per-line output budget: what one line of agent output may produce (so a hostile line
//! cannot make the host render without end; docs/robustness.md).
//!
//! A line of `n` bytes may give at most `max(MIN_ENTRIES, n / BYTES_PER_ENTRY)` entries and
//! `max(MIN_OUTPUT_BYTES, OUTPUT_PER_BYTE × n)` bytes of entries (see [`weight`]). Past either
//! limit the line's output stops: no later entry of that line is kept, and one `system`
//! notice at the end of the line says how many entries (and at least how many bytes) were
//! left out, so nothing is lost silently. Real agent output is far inside both limits
//! (docs/robustness.md has the measured maxima; `tests/hostile.rs` checks every fixture and,
//! with `AGENTLINES_CORPUS`, the corpus).
//!
//! The budget is opened by `parser::parse_line_into` (the stateless and the stateful path,
//! and so `parseLog`) and checked in [`super::Emit`], the one way module parsers add an
//! entry. It lives in a thread-local rather than in the `out` vector so the ~200 emitting
//! sites and every module signature stay as they are; it is only open while one line is
//! parsed, and a line's output depends on that line alone. Loops that can emit once per
//! array element ask [`stopped`] and skip the rest (counted with [`skip`]), so a hostile
//! line also costs bounded time, not only bounded output.

use crate::prelude::*;
use crate::entry::Entry;
use crate::json::scan::plain_run;
use crate::json::Json;
use core::cell::Cell;

/// Entries any line may give, however short.
pub const MIN_ENTRIES: usize = 1024;
/// Past [`MIN_ENTRIES`]: one more entry per this many input bytes.
pub const BYTES_PER_ENTRY: usize = 32;
/// Output bytes any line may give, however short.
pub const MIN_OUTPUT_BYTES: usize = 256 << 10;
/// Past [`MIN_OUTPUT_BYTES`]: this many output bytes per input byte.
pub const OUTPUT_PER_BYTE: usize = 4;

#[derive(Clone, Copy, Default)]
struct State {
    open: bool,
    stopped: bool,
    max_entries: usize,
    max_bytes: usize,
    entries: usize,
    bytes: usize,
    dropped: usize,
    dropped_bytes: usize,
}

per_thread! {
    static LINE: Cell<State> = Cell::new(State {
        open: false,
        stopped: false,
        max_entries: 0,
        max_bytes: 0,
        entries: 0,
        bytes: 0,
        dropped: 0,
        dropped_bytes: 0,
    });
}

/// The budget of one line, open until [`LineBudget::close`] (or drop, e.g. on a panic).
/// Opening while one is open (not done today) gives a no-op guard: the outer line counts.
pub struct LineBudget {
    owner: bool,
}

/// `(entries, bytes)` a line of `line_bytes` may give.
pub fn limits(line_bytes: usize) -> (usize, usize) {
    (
        MIN_ENTRIES.max(line_bytes / BYTES_PER_ENTRY),
        MIN_OUTPUT_BYTES.max(line_bytes.saturating_mul(OUTPUT_PER_BYTE)),
    )
}

/// Opens the budget for a line of `line_bytes` bytes.
pub fn open(line_bytes: usize) -> LineBudget {
    let mut s = LINE.with(Cell::get);
    if s.open {
        return LineBudget { owner: false };
    }
    let (max_entries, max_bytes) = limits(line_bytes);
    s = State { open: true, max_entries, max_bytes, ..State::default() };
    LINE.with(|c| c.set(s));
    LineBudget { owner: true }
}

impl LineBudget {
    /// Closes the budget; if anything was left out, the notice that says so goes last.
    pub fn close(self, ts: &str, out: &mut Vec<Entry>) {
        if !self.owner {
            return;
        }
        let s = LINE.with(Cell::get);
        LINE.with(|c| c.set(State::default()));
        if s.dropped > 0 {
            out.push(Entry::system(
                ts,
                format!(
                    "output of this line cut at {} entries ({} bytes; a line of this size may give {} entries, {} bytes): {} more entries (at least {} bytes) not shown",
                    s.entries, s.bytes, s.max_entries, s.max_bytes, s.dropped, s.dropped_bytes
                ),
            ));
        }
    }
}

impl Drop for LineBudget {
    fn drop(&mut self) {
        if self.owner {
            LINE.with(|c| c.set(State::default()));
        }
    }
}

/// Whether `e` may be added (and counts it either way). Always true outside a line.
pub(super) fn admit(e: &Entry) -> bool {
    let mut s = LINE.with(Cell::get);
    if !s.open {
        return true;
    }
    let w = weight(e);
    if !s.stopped && s.entries < s.max_entries && s.bytes + w <= s.max_bytes {
        s.entries += 1;
        s.bytes += w;
    } else {
        s.stopped = true;
        s.dropped += 1;
        s.dropped_bytes += w;
    }
    LINE.with(|c| c.set(s));
    !s.stopped
}

/// Whether the current line's output has stopped (loops over array elements ask it).
pub fn stopped() -> bool {
    LINE.with(Cell::get).stopped
}

/// Counts `n` entries a loop did not build because the output had [`stopped`].
pub fn skip(n: usize) {
    let mut s = LINE.with(Cell::get);
    s.dropped += n;
    LINE.with(|c| c.set(s));
}

/// About the JSON size of an entry without its `ts` (the caller's, not the line's): string
/// contents as JSON writes them (escapes counted) plus 16 bytes per field for its key and
/// punctuation (at least what serde_json writes for the fields present).
pub fn weight(e: &Entry) -> usize {
    const F: usize = 16;
    let o = |s: &Option<String>| s.as_ref().map_or(0, |s| esc(s) + F);
    F + match e {
        Entry::Assistant { text, item_id, parent_tool_use_id, .. }
        | Entry::Thinking { text, item_id, parent_tool_use_id, .. } => {
            esc(text) + o(item_id) + o(parent_tool_use_id) + 3 * F
        }
        Entry::User { text, parent_tool_use_id, .. } => esc(text) + o(parent_tool_use_id) + F,
        Entry::ToolCall { name, input, tool_use_id, invocation_id, action_request_id, parent_tool_use_id, .. } => {
            esc(name) + json_weight(input) + o(tool_use_id) + o(invocation_id) + o(action_request_id) + o(parent_tool_use_id) + 2 * F
        }
        Entry::ToolResult { tool_use_id, tool_name, content, parent_tool_use_id, .. } => {
            esc(tool_use_id) + o(tool_name) + esc(content) + o(parent_tool_use_id) + 4 * F
        }
        Entry::Init { model, session_id, .. } => esc(model) + esc(session_id) + 2 * F,
        Entry::Result { text, subtype, errors, .. } => {
            esc(text) + esc(subtype) + errors.iter().map(|e| esc(e) + 3).sum::<usize>() + 8 * F
        }
        Entry::Stderr { text, .. } | Entry::System { text, .. } | Entry::Stdout { text, .. } => {
            esc(text) + F
        }
        Entry::Diff { text, .. } => esc(text) + 2 * F,
        Entry::Other(o) => json_weight(&o.fields) + F,
    }
}

/// About the JSON size of a value: string and key contents plus a few bytes per item
/// (recursion is bounded: values come from parsed lines, at most 128 levels deep).
pub fn json_weight(v: &Json) -> usize {
    match v {
        Json::Null | Json::Bool(_) | Json::Number(_) => 8,
        Json::String(s) => esc(s) + 2,
        Json::Array(a) => 2 + a.iter().map(|x| json_weight(x) + 1).sum::<usize>(),
        Json::Object(m) => 2 + m.iter().map(|(k, x)| esc(k) + 4 + json_weight(x)).sum::<usize>(),
    }
}

/// The bytes of `s` inside a JSON string: `"`, `\\` and `\n`-style controls take 2, other
/// controls 6 (`\u0001`). It runs on every entry (~1% of a native parse, 5% of the wasm's),
/// so it has two forms, each the faster one where it runs (both tested here natively):
/// natively a byte-wide count that LLVM vectorises; in the wasm, which is built at opt-level
/// z where nothing is vectorised, a walk from one such byte to the next with the JSON
/// writer's 16-byte scan (per line 1.02-1.05x; natively that walk was 0.88-0.95x).
fn esc(s: &str) -> usize {
    #[cfg(target_arch = "wasm32")]
    return esc_by_runs(s);
    #[cfg(not(target_arch = "wasm32"))]
    return esc_by_count(s);
}

/// [`esc`] with byte-wide counters over 255-byte chunks, so the loop vectorises.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn esc_by_count(s: &str) -> usize {
    let mut extra = 0;
    for chunk in s.as_bytes().chunks(255) {
        let (mut two, mut six) = (0u8, 0u8);
        for &b in chunk {
            let short = matches!(b, b'\n' | b'\t' | b'\r' | 0x08 | 0x0c);
            two += u8::from(short | (b == b'"') | (b == b'\\'));
            six += u8::from((b < 0x20) & !short);
        }
        extra += usize::from(two) + 5 * usize::from(six);
    }
    s.len() + extra
}

/// [`esc`] from one byte to escape to the next (`scan::plain_run`: 16 bytes a step).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn esc_by_runs(s: &str) -> usize {
    let b = s.as_bytes();
    let mut extra = 0;
    let mut i = plain_run(b, 0);
    while let Some(&c) = b.get(i) {
        extra += if matches!(c, b'"' | b'\\' | b'\n' | b'\t' | b'\r' | 0x08 | 0x0c) { 1 } else { 5 };
        i = plain_run(b, i + 1);
    }
    s.len() + extra
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_counted_as_json_writes_them() {
        for s in ["", "plain", "a\"b\\c", "line\nbreak\ttab\r", "\u{1}\u{1f}\u{7f}", "é😀", &"\n\u{2}".repeat(300)] {
            let want = serde_json::to_string(s).unwrap().len();
            assert_eq!((esc_by_count(s) + 2, esc_by_runs(s) + 2), (want, want), "{s:?}");
        }
        // Every ASCII byte at every position of strings around the 16- and 8-byte steps.
        for len in [1, 7, 8, 15, 16, 17, 31, 33] {
            for at in 0..len {
                for c in 0u8..0x80 {
                    let mut v = vec![b'x'; len];
                    v[at] = c;
                    v[len - 1 - at] = c;
                    let s = String::from_utf8(v).unwrap();
                    let want = serde_json::to_string(&s).unwrap().len();
                    assert_eq!((esc_by_count(&s) + 2, esc_by_runs(&s) + 2), (want, want), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn weight_is_at_least_the_json_without_ts() {
        let entries = [
            Entry::system("2026-01-01T00:00:00Z", "a \"quoted\" notice"),
            Entry::tool_call("t", "Bash", serde_json::json!({"command": "ls\n", "n": [1, 2]}), Some("id".into())),
            Entry::tool_result("t", "id", Some("Bash".into()), "out\u{1}", true),
            Entry::assistant("t", "hi").with_parent(Some("toolu_1")),
            Entry::diff("t", "add", "+x"),
            Entry::init("t", "m", "s"),
        ];
        for e in &entries {
            let json = serde_json::to_string(e).unwrap().len() - serde_json::to_string(e.ts()).unwrap().len() - 6;
            assert!(weight(e) >= json && weight(e) <= json + 96, "{e:?}: weight {} json {json}", weight(e));
        }
    }

    #[test]
    fn a_budget_stops_a_line_and_says_so() {
        let budget = open(10);
        let mut out = Vec::new();
        for i in 0..MIN_ENTRIES + 5 {
            super::super::Emit::emit(&mut out, Entry::stdout("t", i.to_string()));
        }
        assert!(stopped());
        budget.close("t", &mut out);
        assert!(!stopped());
        assert_eq!(out.len(), MIN_ENTRIES + 1);
        assert!(matches!(&out[MIN_ENTRIES], Entry::System { text, .. } if text.contains("5 more entries")));
    }
}
