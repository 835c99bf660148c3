//! String helpers with JS semantics: the `\s` / `trim()` whitespace set (which differs from
//! Rust's: U+FEFF is space, U+0085 is not), UTF-16 lengths and slices, ASCII-case-insensitive
//! search (a `/i` regex over an ASCII pattern), and V8's `TypeError` messages for calling a
//! string method on something else.

use crate::prelude::*;
use crate::text::cut;
use super::Js;

/// A character of JS `\s` (and of what `String.prototype.trim` removes).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `s.trim()`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `s.trimStart()`.
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

/// Byte index just past the run of JS whitespace starting at byte `from`.
pub fn skip_spaces(s: &str, from: usize) -> usize {
    s.get(from..).map_or(from, |rest| from + (rest.len() - trim_start(rest).len()))
}

/// `s.length` (UTF-16 code units).
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// `s.slice(n)` for `n >= 0` counted in UTF-16 units; half a surrogate pair becomes U+FFFD.
pub fn slice_utf16_from(s: &str, n: usize) -> String {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        if units == n {
            return cut(s, i..).to_owned();
        }
        units += c.len_utf16();
        if units > n {
            return format!("\u{fffd}{}", cut(s, i + c.len_utf8()..));
        }
    }
    String::new()
}

/// `s.startsWith(prefix)` ignoring ASCII case (a `/i` regex over an ASCII pattern).
pub fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// Byte index of the first ASCII-case-insensitive occurrence of `needle` at or after `from`.
pub fn find_ci(s: &str, needle: &str, from: usize) -> Option<usize> {
    let (h, n) = (s.as_bytes(), needle.as_bytes());
    if n.is_empty() || h.len() < n.len() {
        return None;
    }
    (from..=h.len() - n.len()).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Byte index of the first occurrence of `needle` at or after byte `from`.
pub fn find_at(s: &str, needle: &str, from: usize) -> Option<usize> {
    let (h, n) = (s.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    let mut i = from;
    while i + n.len() <= h.len() {
        let at = i + h.get(i..)?.iter().position(|&b| b == first)?;
        if h.get(at..at + n.len())? == n {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// A JS regex `\w` character (ASCII word character), for `\b` checks.
pub fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// V8's message for reading `.prop` off `null`/`undefined`, or calling a missing method:
/// what `expr.method(...)` throws when `v` (the value of `expr`) is not a string.
pub fn method_error(expr: &str, method: &str, v: &Js) -> String {
    match v {
        Js::Undefined | Js::Null => {
            format!("Cannot read properties of {} (reading '{method}')", v.to_js_string())
        }
        _ => format!("{expr}.{method} is not a function"),
    }
}

/// V8's message for `for (… of text.matchAll(re))` / `[...text.matchAll(re)]` on a non-string.
pub fn match_all_error(v: &Js) -> String {
    match v {
        Js::Undefined | Js::Null => read_error(v, "matchAll"),
        _ => "text.matchAll is not a function or its return value is not iterable".to_owned(),
    }
}

/// V8's message for reading `.prop` off `null`/`undefined`.
pub fn read_error(v: &Js, prop: &str) -> String {
    format!("Cannot read properties of {} (reading '{prop}')", v.to_js_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_slicing() {
        assert_eq!(slice_utf16_from("ab🌍c", 2), "🌍c");
        assert_eq!(slice_utf16_from("ab🌍c", 3), "\u{fffd}c");
        assert_eq!(slice_utf16_from("ab", 8), "");
        assert_eq!(utf16_len("🌍é"), 3);
    }

    #[test]
    fn whitespace_like_js() {
        assert_eq!(trim("\u{feff}\u{a0} x \u{3000}"), "x");
        assert_eq!(trim("\u{85}x"), "\u{85}x");
        assert_eq!(find_at("ab```c```", "```", 3), Some(6));
        assert_eq!(find_ci("xx READING. reasoning.", "reasoning.", 0), Some(12));
    }
}
