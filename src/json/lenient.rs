//! What `JSON.parse` accepts and serde_json refuses: Node writes a lone surrogate escape for a
//! string cut inside an emoji, and JavaScript reads a number past `f64` as ±Infinity. The
//! runtime modules' line reader, the boundary's arguments and the turn-signal blocks go
//! through [`js_json_to_serde`] when the strict reader ([`super::read`]) refused a text.

use crate::prelude::*;
use super::read::{self, hex4};
use crate::text::cut;

/// What `JSON.parse` accepts and serde_json refuses, rewritten so serde_json reads it the way
/// JavaScript would show it: a lone surrogate escape (`\ud83d`, which Node writes when a
/// string was cut inside an emoji) becomes `\ufffd`, and a number past f64 (`1e400`)
/// becomes the largest finite one. `None` when there is nothing to rewrite, and for text
/// `JSON.parse` refuses (checked first: the number rewrite would otherwise "repair" a
/// malformed token such as `01` into JSON). Only called for a line that failed to parse, so
/// it costs nothing on good input.
pub fn js_json_to_serde(t: &str) -> Option<String> {
    if !read::is_json(t) {
        return None;
    }
    let b = t.as_bytes();
    let hex4 = |i: usize| hex4(b, i);
    let mut out = String::with_capacity(t.len());
    let mut changed = false;
    let (mut i, mut last, mut in_str) = (0usize, 0usize, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'"' {
                in_str = false;
            } else if c == b'\\' {
                if b.get(i + 1) == Some(&b'u') {
                    if let Some(u) = hex4(i + 2) {
                        let high = (0xD800..0xDC00).contains(&u);
                        let low = (0xDC00..0xE000).contains(&u);
                        let paired = high
                            && b.get(i + 6) == Some(&b'\\')
                            && b.get(i + 7) == Some(&b'u')
                            && hex4(i + 8).is_some_and(|v| (0xDC00..0xE000).contains(&v));
                        if paired {
                            i += 12;
                            continue;
                        }
                        if high || low {
                            out.push_str(cut(t, last..i));
                            out.push_str("\\ufffd");
                            i += 6;
                            last = i;
                            changed = true;
                            continue;
                        }
                    }
                }
                i += 2;
                continue;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_str = true;
            i += 1;
        } else if c == b'-' || c.is_ascii_digit() {
            let start = i;
            i += 1;
            while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                i += 1;
            }
            let token = cut(t, start..i);
            // Read with the line's own value reader (what the line failed on).
            if read::parse(token).is_none() {
                out.push_str(cut(t, last..start));
                out.push_str(if c == b'-' { "-1.7976931348623157e308" } else { "1.7976931348623157e308" });
                last = i;
                changed = true;
            }
        } else {
            i += 1;
        }
    }
    if !changed {
        return None;
    }
    out.push_str(cut(t, last..));
    Some(out)
}
