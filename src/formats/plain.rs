//! TODO(stub): plain-text lines. Replaced by the real module (ANSI stripping, stderr markers).

use crate::entry::Entry;

pub fn parse(line: &str, ts: &str, out: &mut Vec<Entry>) {
    out.push(Entry::stdout(ts, line));
}
