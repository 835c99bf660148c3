//! The prefixes adapters write in front of a line of a kind we know, found and taken off in
//! one place for every runtime (the table of prefixes is `formats::WRAPPERS`):
//!
//! - `<prefix> <line>`: the rest is a line of its own (`AF::{json}`, `[schemabounce] {json}`,
//!   `__PAPERCLIP_TRANSCRIPT__ {json}`);
//! - `[<name>:event] run=<id> <key>=<name> data=<json>`: one event of a runtime, as the
//!   Paperclip gateway adapters log them (`[openclaw-gateway:event] … stream=…`,
//!   `[hermes-gateway:event] … event=…`, and their forks' `[openclaw-bridge:event]`,
//!   `[clawclip:event]`), split here by [`event_fields`];
//! - `[<name>] <text>`: that adapter's own notice.
//!
//! An event prefix may come after text glued to its front: Hermes' gateway adapter writes
//! each streamed delta raw, with no newline, and then again as an event line, so the raw
//! copy ends up in front of the next event line. Such text is dropped (the event shows it).

use super::cut;

/// The suffix every event prefix has.
const EVENT: &str = ":event]";

/// The row of `table` whose prefix starts the trimmed `line`, or (for an event prefix) is
/// found inside it, and the rest of the line after it, trimmed at its start.
pub fn find<'l, X: Copy>(line: &'l str, table: &[(&str, X)]) -> Option<(X, &'l str)> {
    let t = line.trim();
    for &(prefix, x) in table {
        if let Some(rest) = t.strip_prefix(prefix) {
            return Some((x, rest.trim_start()));
        }
    }
    let end = super::find(t, EVENT)? + EVENT.len();
    let head = cut(t, ..end);
    let prefix = cut(head, head.bytes().rposition(|b| b == b'[')?..);
    let &(_, x) = table.iter().find(|(p, _)| *p == prefix)?;
    Some((x, cut(t, end..).trim_start()))
}

/// `run=<id> <key>=<name> [data=]<data>` (what follows an event prefix) as
/// `(id, name, data)`; the key of the name (`stream`, `event`) is the runtime's. `None` when
/// the line does not start that way.
pub fn event_fields(rest: &str) -> Option<(&str, &str, &str)> {
    let rest = rest.strip_prefix("run=")?;
    let (run, rest) = rest.split_once(char::is_whitespace)?;
    let (_, rest) = rest.trim_start().split_once('=')?;
    let (name, data) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let data = data.trim();
    Some((run, name, data.strip_prefix("data=").unwrap_or(data)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[(&str, u8)] = &[("AF::", 1), ("[clawclip:event]", 2), ("[clawclip]", 3)];

    #[test]
    fn prefixes_at_the_start_or_glued_event_prefixes() {
        assert_eq!(find(r#"  AF::{"kind":"token"}"#, TABLE), Some((1, r#"{"kind":"token"}"#)));
        assert_eq!(find("[clawclip:event] run=r stream=item", TABLE), Some((2, "run=r stream=item")));
        assert_eq!(find("Hello[clawclip:event] run=r", TABLE), Some((2, "run=r")));
        assert_eq!(find("[clawclip] [DEBUG] hi", TABLE), Some((3, "[DEBUG] hi")));
        assert_eq!(find("x AF::{}", TABLE), None);
        assert_eq!(find("[other:event] run=r", TABLE), None);
        assert_eq!(find("no brackets :event] here", TABLE), None);
    }

    #[test]
    fn event_fields_split() {
        assert_eq!(event_fields(r#"run=r1 stream=tool data={"a":1}"#), Some(("r1", "tool", r#"{"a":1}"#)));
        assert_eq!(event_fields(r#"run=r1  event=message.delta   {"d":1}"#), Some(("r1", "message.delta", r#"{"d":1}"#)));
        assert_eq!(event_fields("run=r1 stream=lifecycle"), Some(("r1", "lifecycle", "")));
        assert_eq!(event_fields("stream=x run=r"), None);
        assert_eq!(event_fields("run=r1"), None);
    }
}
