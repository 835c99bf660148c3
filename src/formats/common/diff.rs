//! File changes as `diff` entries, shared by the runtimes that report them:
//!
//! - [`push_unified`]: a unified diff text (OpenCode's `metadata.diff`, ours from
//!   [`unified_from_texts`]) as one `diff` entry per line, classified by its prefix;
//! - [`unified_from_texts`]: a unified diff (3 lines of context) made from a file's old and
//!   new text, for runtimes that report a change as `oldText`/`newText` (ACP `diff` blocks).
//!
//! The line diff is a longest-common-subsequence table over the lines left once the common
//! head and tail are cut off, bounded by [`MAX_TABLE_CELLS`]; past that the changed middle
//! is shown as all-removed then all-added (still a correct diff, only less minimal).
//! Hand-written: a diff crate (`similar`, `diffy`) would add tens of KB to every shipped
//! wasm file for this one use, and the host's file must stay small.

use crate::prelude::*;
use super::Emit;
use crate::entry::Entry;

/// Longest diff shown as diff entries (lines); longer ones end with a truncation entry.
pub const MAX_DIFF_LINES: usize = 400;
/// Largest LCS table (old lines × new lines of the changed middle) computed.
pub const MAX_TABLE_CELLS: usize = 1 << 20;
/// Unchanged lines shown around each change.
const CONTEXT: usize = 3;

/// A unified diff as `diff` entries, one per line, bounded by [`MAX_DIFF_LINES`].
pub fn push_unified(diff: &str, ts: &str, out: &mut Vec<Entry>) {
    let lines: Vec<&str> = diff.lines().collect();
    out.reserve(lines.len().min(MAX_DIFF_LINES) + 1);
    for line in lines.iter().take(MAX_DIFF_LINES) {
        let header = ["+++", "---", "Index:", "diff ", "===="].iter().any(|p| line.starts_with(p));
        let kind = if header {
            "file_header"
        } else if line.starts_with("@@") {
            "hunk"
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "remove"
        } else {
            "context"
        };
        out.emit(Entry::diff(ts, kind, *line));
    }
    if lines.len() > MAX_DIFF_LINES {
        out.emit(Entry::diff(
            ts,
            "truncation",
            format!("… {} more diff lines", lines.len() - MAX_DIFF_LINES),
        ));
    }
}

/// One line of an edit script: kept (`' '`), removed (`'-'`) or added (`'+'`).
type Op<'a> = (char, &'a str);

/// The unified diff of `old` → `new` for `path`, headers included (`--- /dev/null` for a
/// new file, `old` `None`). Empty when the texts are equal.
pub fn unified_from_texts(path: &str, old: Option<&str>, new: &str) -> String {
    let old_text = old.unwrap_or("");
    if old.is_some() && old_text == new {
        return String::new();
    }
    let a: Vec<&str> = old_text.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = edit_script(&a, &b);
    let mut text = String::new();
    // ACP gives absolute paths: `a/home/…`, not `a//home/…`.
    let path = path.trim_start_matches('/');
    text.push_str(if old.is_some() { "--- a/" } else { "--- /dev/null" });
    if old.is_some() {
        text.push_str(path);
    }
    text.push_str("\n+++ b/");
    text.push_str(path);
    text.push('\n');
    for hunk in hunks(&ops) {
        text.push_str(&hunk);
    }
    text
}

/// The edit script turning `a` into `b`.
fn edit_script<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Op<'a>> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<Op<'a>> = a[..head].iter().map(|l| (' ', *l)).collect();
    if ma.len().saturating_mul(mb.len()) <= MAX_TABLE_CELLS {
        lcs_script(ma, mb, &mut ops);
    } else {
        ops.extend(ma.iter().map(|l| ('-', *l)));
        ops.extend(mb.iter().map(|l| ('+', *l)));
    }
    ops.extend(a[a.len() - tail..].iter().map(|l| (' ', *l)));
    ops
}

/// Appends a minimal edit script of `a` → `b` (longest common subsequence, removals first).
fn lcs_script<'a>(a: &[&'a str], b: &[&'a str], ops: &mut Vec<Op<'a>>) {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: LCS length of a[i..] and b[j..]; u16 is enough, the table is bounded so
    // min(n, m) stays far below 65,536.
    let w = m + 1;
    let mut lcs = vec![0u16; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    ops.extend(a[i..].iter().map(|l| ('-', *l)));
    ops.extend(b[j..].iter().map(|l| ('+', *l)));
}

/// The hunks of an edit script as unified-diff text (`@@ -a,b +c,d @@` and its lines).
fn hunks(ops: &[Op]) -> Vec<String> {
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < changed.len() {
        // Grow the hunk while the next change is within 2 × CONTEXT kept lines.
        let start = changed[k].saturating_sub(CONTEXT);
        let mut last = changed[k];
        while k + 1 < changed.len() && changed[k + 1] - last <= 2 * CONTEXT + 1 {
            k += 1;
            last = changed[k];
        }
        let end = (last + CONTEXT + 1).min(ops.len());
        // Line numbers (1-based) where the hunk starts in the old and the new text.
        let old_before = ops[..start].iter().filter(|o| o.0 != '+').count();
        let new_before = ops[..start].iter().filter(|o| o.0 != '-').count();
        let old_len = ops[start..end].iter().filter(|o| o.0 != '+').count();
        let new_len = ops[start..end].iter().filter(|o| o.0 != '-').count();
        let at = |before: usize, len: usize| if len == 0 { before } else { before + 1 };
        let mut h = format!(
            "@@ -{},{} +{},{} @@\n",
            at(old_before, old_len),
            old_len,
            at(new_before, new_len),
            new_len
        );
        for (tag, line) in &ops[start..end] {
            h.push(*tag);
            h.push_str(line);
            h.push('\n');
        }
        out.push(h);
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_in_the_middle_gets_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        let d = unified_from_texts("f.txt", Some(old), new);
        assert_eq!(
            d,
            "--- a/f.txt\n+++ b/f.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn new_files_and_far_apart_changes() {
        assert_eq!(unified_from_texts("n", None, "a\nb"), "--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n");
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old.replace("2\n", "two\n").replace("19\n", "nineteen\n");
        let d = unified_from_texts("x", Some(&old), &new);
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        assert!(unified_from_texts("x", Some("same"), "same").is_empty());
        assert!(unified_from_texts("/abs/p", Some("a"), "b").starts_with("--- a/abs/p\n+++ b/abs/p\n"));
        // Everything removed.
        assert_eq!(unified_from_texts("x", Some("a\nb\n"), ""), "--- a/x\n+++ b/x\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    }

    #[test]
    fn the_table_bound_falls_back_to_remove_then_add() {
        let old: String = (0..1100).map(|i| format!("o{i}\n")).collect();
        let new: String = (0..1100).map(|i| format!("n{i}\n")).collect();
        let d = unified_from_texts("big", Some(&old), &new);
        assert!(d.contains("@@ -1,1100 +1,1100 @@"));
        assert_eq!(d.lines().filter(|l| l.starts_with('-') && !l.starts_with("---")).count(), 1100);
    }

    #[test]
    fn unified_lines_are_classified() {
        let mut out = Vec::new();
        push_unified("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same", "t", &mut out);
        let kinds: Vec<&str> = out
            .iter()
            .map(|e| match e {
                Entry::Diff { change_type, .. } => *change_type,
                _ => "",
            })
            .collect();
        assert_eq!(kinds, ["file_header", "file_header", "hunk", "remove", "add", "context"]);
    }
}
