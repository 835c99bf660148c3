//! File changes as `diff` entries: unified diffs (legacy `patch_apply_begin` changes, newer
//! `file_change` items), Codex's own patch envelope (`*** Begin Patch` … `*** End Patch`,
//! found in `apply_patch` tool calls of rollouts) and the per-file change maps.
//!
//! Line texts keep their `+`/`-`/` ` prefix (the host renders diff entries joined as a
//! fenced diff block); file headers read `path (kind)`. One call shows at most
//! [`MAX_DIFF_LINES`] lines, then a single `truncation` entry counts the rest.

use crate::prelude::*;
use crate::entry::Entry;
use crate::formats::common::{self, cut, str_of, type_of, Emit, Owned};
use crate::json::{read, Json, Value};

/// Diff lines shown per call (file headers included).
pub(super) const MAX_DIFF_LINES: usize = 400;

/// Counts the lines of one call so a huge patch cannot flood the transcript.
#[derive(Default)]
pub(super) struct Budget {
    used: usize,
    dropped: usize,
}

impl Budget {
    pub(super) fn push(&mut self, ts: &str, change_type: &'static str, text: &str, out: &mut Vec<Entry>) {
        if self.used < MAX_DIFF_LINES {
            self.used += 1;
            out.emit(Entry::diff(ts, change_type, text));
        } else {
            self.dropped += 1;
        }
    }

    /// Adds the truncation notice if lines were left out.
    pub(super) fn finish(self, ts: &str, out: &mut Vec<Entry>) {
        if self.dropped > 0 {
            out.emit(Entry::diff(
                ts,
                "truncation",
                format!("… {} more diff lines not shown", self.dropped),
            ));
        }
    }
}

/// The lines of a unified diff (with or without `diff --git`/`---`/`+++` headers).
pub(super) fn unified(text: &str, ts: &str, budget: &mut Budget, out: &mut Vec<Entry>) {
    let mut in_hunk = false;
    for line in text.lines() {
        let kind = if line.starts_with("diff --git ") {
            in_hunk = false;
            "file_header"
        } else if line.starts_with("@@") {
            in_hunk = true;
            "hunk"
        } else if !in_hunk {
            // `--- a/x`, `+++ b/x`, `index …`, mode lines: header material.
            "context"
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "remove"
        } else {
            "context"
        };
        budget.push(ts, kind, line, out);
    }
}

/// The lines of a Codex patch envelope. `*** Add|Update|Delete File: p` become file
/// headers `p (add|update|delete)`, `*** Move to: q` a header `q (moved)`.
pub(super) fn envelope(patch: &str, ts: &str, budget: &mut Budget, out: &mut Vec<Entry>) {
    for line in patch.lines() {
        let header = [
            ("*** Add File: ", "add"),
            ("*** Update File: ", "update"),
            ("*** Delete File: ", "delete"),
            ("*** Move to: ", "moved"),
        ]
        .iter()
        .find_map(|(prefix, kind)| {
            line.strip_prefix(prefix).map(|p| format!("{} ({kind})", p.trim()))
        });
        if let Some(h) = header {
            budget.push(ts, "file_header", &h, out);
        } else if line.starts_with("*** ") {
            // *** Begin Patch / *** End Patch / *** End of File: envelope markers.
        } else if line.starts_with("@@") {
            budget.push(ts, "hunk", line, out);
        } else if line.starts_with('+') {
            budget.push(ts, "add", line, out);
        } else if line.starts_with('-') {
            budget.push(ts, "remove", line, out);
        } else {
            budget.push(ts, "context", line, out);
        }
    }
}

/// Most patch envelopes read from one tool input.
const MAX_PATCHES: usize = 16;

/// The patch envelopes in a text: each `*** Begin Patch` through `*** End Patch`. A patch
/// written as a JSON string literal inside other text (`\n` escapes, as in
/// `tools.apply_patch("*** Begin Patch\n…")`) is decoded first.
pub(super) fn find_patches(s: &str) -> Vec<String> {
    const BEGIN: &str = "*** Begin Patch";
    const END: &str = "*** End Patch";
    let mut found = Vec::new();
    let mut pos = 0;
    while found.len() < MAX_PATCHES {
        let Some(i) = s.get(pos..).and_then(|rest| common::find(rest, BEGIN)) else { break };
        let start = pos + i;
        if start > 0 && cut(s, ..start).ends_with('"') {
            // The JSON string that opens at the quote (a token opening with `"` is a string
            // or an error), and where it ends.
            if let Some((Value::String(decoded), end)) = read::parse_prefix(cut(s, start - 1..)) {
                found.push(cut_at_end(&decoded, END));
                pos = start - 1 + end;
                continue;
            }
        }
        let rest = cut(s, start..);
        let end = common::find(rest, END).map_or(rest.len(), |e| e + END.len());
        found.push(cut(rest, ..end).owned());
        pos = start + end.max(BEGIN.len());
    }
    found
}

fn cut_at_end(s: &str, end: &str) -> String {
    match common::find(s, end) {
        Some(i) => cut(s, ..i + end.len()).owned(),
        None => s.owned(),
    }
}

/// The patch envelopes of the first string that has any in a tool input (searched two
/// levels deep: `{"command":["apply_patch","*** Begin Patch…"]}`, `{"input":"…"}`).
pub(super) fn patches_in(input: &Json) -> Vec<String> {
    fn walk(v: &Json, depth: usize) -> Vec<String> {
        match v {
            Json::String(s) => find_patches(s),
            Json::Array(a) if depth > 0 => {
                a.iter().map(|x| walk(x, depth - 1)).find(|p| !p.is_empty()).unwrap_or_default()
            }
            Json::Object(m) if depth > 0 => {
                m.values().map(|x| walk(x, depth - 1)).find(|p| !p.is_empty()).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }
    walk(input, 2)
}

/// A legacy change map `{path: {"add":{content}} | {"update":{unified_diff, move_path}} |
/// {"delete":{…}}}` (or the newer tagged form `{"type":"add","content":…}`).
pub(super) fn change_map(changes: &Value, ts: &str, out: &mut Vec<Entry>) {
    let mut budget = Budget::default();
    for (path, change) in changes.as_object().into_iter().flatten() {
        let (kind, body) = match type_of(change) {
            "" => match change.as_object().and_then(|m| m.iter().next()) {
                Some((k, b)) => (k, b),
                None => ("change", change),
            },
            t => (t, change),
        };
        let moved = str_of(body, "move_path").map(|m| format!(" → {m}")).unwrap_or_default();
        budget.push(ts, "file_header", &format!("{path} ({kind}{moved})"), out);
        match kind {
            "add" | "delete" => {
                let sign = if kind == "add" { '+' } else { '-' };
                let change_type = if kind == "add" { "add" } else { "remove" };
                for line in str_of(body, "content").unwrap_or("").lines() {
                    budget.push(ts, change_type, &format!("{sign}{line}"), out);
                }
            }
            _ => unified(str_of(body, "unified_diff").unwrap_or(""), ts, &mut budget, out),
        }
    }
    budget.finish(ts, out);
}

/// `path (kind)` for each file of a change map, for one-line summaries.
pub(super) fn change_names(changes: &Value) -> Vec<String> {
    changes
        .as_object()
        .into_iter()
        .flatten()
        .map(|(path, change)| {
            let kind = match type_of(change) {
                "" => change
                    .as_object()
                    .and_then(|m| m.keys().next())
                    .unwrap_or("change"),
                t => t,
            };
            format!("{path} ({kind})")
        })
        .collect()
}
