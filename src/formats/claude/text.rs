//! Text helpers for Claude notices: the tags Claude Code injects into user turns
//! (slash commands, their output, `!` shell mode, task notifications, reminders), ANSI
//! stripping, and short renderings of durations, token counts and times (no clock read).

use crate::prelude::*;
use crate::formats::common::cut;
use super::super::common::{self, clip, Owned};
use crate::json::{self, fixed, num_text, Value};
use crate::entry::Entry;

/// Text Claude Code injects into user turns wrapped in tags: slash commands (a `user`
/// entry `/name args`), their output, `!` shell mode, task notifications, reminders.
/// `None` when the text is not one of those; `Some(None)` for one that shows nothing (a
/// command's empty output: Claude Code writes one after `/clear` and the like).
pub(super) fn tagged_text(t: &str, ts: &str) -> Option<Option<Entry>> {
    if !t.starts_with('<') {
        return None;
    }
    if let Some(name) = tag_inner(t, "command-name") {
        let mut cmd = String::new();
        if !name.starts_with('/') {
            cmd.push('/');
        }
        cmd.push_str(name.trim());
        if let Some(args) = tag_inner(t, "command-args")
            .map(str::trim)
            .filter(|a| !a.is_empty())
        {
            cmd.push(' ');
            cmd.push_str(args);
        }
        return Some(Some(Entry::user(ts, cmd)));
    }
    if let Some(cmd) = tag_inner(t, "bash-input") {
        return Some(Some(Entry::user(ts, format!("! {}", cmd.trim()))));
    }
    // `label` ends with its own separator ("command output: ").
    let tagged = |tag: &str, label: &str| -> Option<Option<Entry>> {
        let inner = tag_inner(t, tag)?;
        let inner = strip_ansi(inner.trim());
        if inner.is_empty() {
            return Some(None);
        }
        Some(Some(Entry::system(ts, format!("{label}{}", clip(&inner, 500)))))
    };
    if t.starts_with("<local-command-stdout>") || t.starts_with("<bash-stdout>") {
        let tag = if t.starts_with("<bash") {
            "bash-stdout"
        } else {
            "local-command-stdout"
        };
        return tagged(tag, "command output: ");
    }
    if t.starts_with("<local-command-stderr>") || t.starts_with("<bash-stderr>") {
        let tag = if t.starts_with("<bash") {
            "bash-stderr"
        } else {
            "local-command-stderr"
        };
        return tagged(tag, "command error: ");
    }
    if t.starts_with("<local-command-caveat>") {
        return tagged("local-command-caveat", "Claude Code added to the prompt: ");
    }
    if t.starts_with("<system-reminder>") {
        return tagged("system-reminder", "reminder: ");
    }
    if t.starts_with("<task-notification>") {
        let status = tag_inner(t, "status").unwrap_or("update").trim();
        let text = match tag_inner(t, "summary")
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(s) => format!("task notification ({status}): {}", clip(s, 300)),
            None => format!("task notification ({status})"),
        };
        return Some(Some(Entry::system(ts, text)));
    }
    None
}

/// The text between `<tag>` and `</tag>`, if both are there.
fn tag_inner<'a>(t: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = common::find(t, &open)? + open.len();
    let end = common::find(cut(t, start..), &close)? + start;
    Some(cut(t, start..end))
}

/// The message of an error value nested a few levels deep (`error.error.message`).
/// A user turn Claude Code wrote itself (`isMeta`: a slash command's or skill's expanded
/// prompt, the local-command caveat), shown whole and said to be what it is: these run to
/// thousands of characters that the model read as the user's turn.
pub(super) fn meta_text(t: &str) -> String {
    let sep = if t.contains('\n') { ":\n" } else { ": " };
    format!("Claude Code added to the prompt{sep}{t}")
}

/// An assistant message Claude Code wrote itself rather than the model (`model:
/// "<synthetic>"`, or one flagged as an API error): a failed API call, a local command's
/// answer ("Not enough messages to compact."), "No response requested.". A failure reads
/// as an error (`stderr`), anything else as a notice, never as the model's words. `None`
/// for the model's own messages and for synthetic ones that carry
/// more than text (those are read block by block).
pub(super) fn harness_message(rec: &Value, msg: &Value, ts: &str) -> Option<Entry> {
    let synthetic = common::str_of(msg, "model") == Some("<synthetic>");
    let code = common::nonempty_str(rec, "error");
    let flagged = common::bool_of(rec, "isApiErrorMessage")
        || common::bool_of(rec, "is_api_error_message");
    if !synthetic && !flagged {
        return None;
    }
    let text = match msg.get("content") {
        Some(Value::String(s)) => s.trim().owned(),
        Some(Value::Array(blocks)) => {
            if blocks.iter().any(|b| common::type_of(b) != "text") {
                return None;
            }
            let parts: Vec<&str> = blocks
                .iter()
                .filter_map(|b| common::str_of(b, "text"))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect();
            common::join(&parts, "\n")
        }
        _ => String::new(),
    };
    if flagged || code.is_some() {
        let head = match code {
            Some(c) => format!("API error ({c})"),
            None => "API error".owned(),
        };
        let body = if text.is_empty() { head } else { format!("{head}: {text}") };
        return Some(Entry::stderr(ts, body));
    }
    if text.is_empty() {
        return Some(Entry::system(ts, "Claude Code: (empty message)"));
    }
    let lower = text.to_ascii_lowercase();
    let failed = ["error", "failed", "not enough", "unable", "cannot", "could not", "invalid"]
        .iter()
        .any(|w| lower.starts_with(w))
        || common::has(&lower, " failed");
    Some(if failed {
        Entry::stderr(ts, text)
    } else {
        Entry::system(ts, format!("Claude Code: {text}"))
    })
}

pub(super) fn nested_message(e: &Value) -> String {
    common::error_text(e).unwrap_or_else(|| "(no message)".owned())
}

pub(super) fn first_line(s: &str) -> String {
    let s = s.trim();
    match s.split_once('\n') {
        Some((a, _)) => format!("{} …", a.trim_end()),
        None => s.owned(),
    }
}

/// Drops terminal escape sequences, keeping line breaks: the plain-text module's stripper.
pub(super) fn strip_ansi(s: &str) -> String {
    crate::formats::plain::strip_escapes(s).unwrap_or_else(|| s.to_owned())
}

/// Milliseconds as `850ms`, `4s`, `5m 41s`, `2h 3m`.
pub(super) fn duration(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return "?".owned();
    }
    if ms < 1000.0 {
        return format!("{}ms", num_text(json::round(ms)));
    }
    let s = json::round(ms / 1000.0) as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {}s", s / 60, s % 60),
        _ => format!("{}h {}m", s / 3600, (s % 3600) / 60),
    }
}

/// `1 tool use`, `3 tool uses`.
pub(super) fn plural(n: f64, what: &str) -> String {
    if n == 1.0 {
        format!("1 {what}")
    } else {
        format!("{} {what}s", num_text(n))
    }
}

/// Token counts as `812`, `12k`, `170k`, `1.2M`.
pub(super) fn kilo(n: f64) -> String {
    if n >= 1_000_000.0 {
        format!("{}M", fixed(n / 1_000_000.0, 1))
    } else if n >= 1000.0 {
        format!("{}k", num_text(json::round(n / 1000.0)))
    } else {
        num_text(n)
    }
}

/// Unix seconds as `2026-09-29 08:00 UTC` (civil-from-days, no clock read).
pub(super) fn utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = crate::time::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_790_678_400), "2026-09-29 10:40 UTC");
        assert_eq!(duration(4000.0), "4s");
        assert_eq!(duration(341_765.0), "5m 42s");
        assert_eq!(kilo(170_251.0), "170k");
        assert_eq!(strip_ansi("a\u{1b}[1mb\u{1b}[22mc"), "abc");
        assert_eq!(tag_inner("<a>x</a>", "a"), Some("x"));
        assert_eq!(tag_inner("<a>x", "a"), None);
    }
}
