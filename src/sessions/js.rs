//! The few JavaScript semantics the transcript readers (and the item classifier) are
//! specified in: what `String.prototype.trim` and regex `\s` count as whitespace, which
//! characters end a line for `.` and `$`, truthiness, `Math.round`, `Number(string)`,
//! UTF-16 lengths and `Date.parse` of ISO strings. The upstream readers are TypeScript
//! (molecule-dev/molecule `packages/api/bonds/agent-transcript/*`, kawaz/ccmsg
//! `src/transcript/items/*`); matching them byte for byte needs these rules, so they live
//! in one place instead of being approximated in each reader. Nothing here panics.

use serde_json::Value;

/// JS `\s` / `trim()` whitespace, `s.trim()` and `s.trimStart()`: one definition, shared
/// with the frame and turn-signal parsers.
pub use crate::js::{is_space as is_ws, trim, trim_start};

/// A character `.` does not match and before which a multiline `^` may start.
pub fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `s.replace(/\s+$/, '')`.
pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_ws)
}

/// Whether `(.*)$` (no `m` flag) can match all of `s`: no line terminator in it.
pub fn dot_all(s: &str) -> bool {
    !s.chars().any(is_line_terminator)
}

/// `s.startsWith(prefix)` after `^\s*`: the rest of `s` once leading whitespace is skipped.
pub fn after_ws(s: &str) -> &str {
    trim_start(s)
}

/// JS truthiness of a JSON value (`undefined` is `None`).
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// `v[key]` when `v` is an object (what `v?.key` reads for JSON values; arrays and
/// scalars have no own JSON keys).
pub fn get<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    v.and_then(|v| v.as_object()).and_then(|o| o.get(key))
}

/// `v[key]` as a string.
pub fn get_str<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    get(v, key).and_then(Value::as_str)
}

/// `a ?? b` over optional values: `null` and `undefined` both fall through.
pub fn nullish<'a>(a: Option<&'a Value>, b: Option<&'a Value>) -> Option<&'a Value> {
    match a {
        None | Some(Value::Null) => b,
        some => some,
    }
}

/// `Math.round` (ties toward +infinity), exact for every finite double.
pub fn round(x: f64) -> f64 {
    let f = x.floor();
    if x - f >= 0.5 {
        f + 1.0
    } else {
        f
    }
}

/// A number as JSON: integral values within 2^53 as integers (what `JSON.stringify`
/// prints), others as floats. Non-finite values have no JSON form and become `null`.
pub fn number(x: f64) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        if x == 0.0 {
            return Value::from(0);
        }
        return Value::from(x as i64);
    }
    serde_json::Number::from_f64(x).map(Value::Number).unwrap_or(Value::Null)
}

/// `Number(s)` for a string: whitespace-trimmed decimal, `0x`/`0o`/`0b` integers,
/// `Infinity`; empty is 0; anything else NaN.
pub fn number_from_str(s: &str) -> f64 {
    let t = trim(s);
    if t.is_empty() {
        return 0.0;
    }
    let radix = |digits: &str, r: u32| -> f64 {
        if digits.is_empty() {
            return f64::NAN;
        }
        let mut n = 0f64;
        for c in digits.chars() {
            match c.to_digit(r) {
                Some(d) => n = n * f64::from(r) + f64::from(d),
                None => return f64::NAN,
            }
        }
        n
    };
    let lower2 = t.get(..2).map(str::to_ascii_lowercase);
    match lower2.as_deref() {
        Some("0x") => return radix(&t[2..], 16),
        Some("0o") => return radix(&t[2..], 8),
        Some("0b") => return radix(&t[2..], 2),
        _ => {}
    }
    let (sign, body) = match t.as_bytes()[0] {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    if !is_decimal_literal(body) {
        return f64::NAN;
    }
    body.parse::<f64>().map(|v| sign * v).unwrap_or(f64::NAN)
}

/// `digits [. digits] [e [+-] digits]` or `. digits [...]`, ASCII only.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let int = digits(&mut i);
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac = digits(&mut i);
    }
    if int == 0 && frac == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The first `n` UTF-16 code units of `s` (`s.slice(0, n)`), cut back to a character
/// boundary when `n` falls inside a surrogate pair (the lone half could not be part of
/// any ASCII or BMP pattern these readers look for).
pub fn utf16_prefix(s: &str, n: usize) -> &str {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        units += c.len_utf16();
        if units > n {
            return &s[..i];
        }
    }
    s
}

/// `Date.parse` for the ISO 8601 forms V8 reads (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, each
/// optionally followed by `THH:mm[:ss[.fff…]]` and `Z`/`±HH:mm`; `±YYYYYY` years; a space
/// may stand for `T`). A date-time without an offset is read as UTC (V8 would use the
/// local zone; the upstream cases were recorded in UTC). Other strings (V8's legacy
/// fallback formats) give `None`, as do out-of-range dates.
pub fn date_parse(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let fixed = |i: &mut usize, n: usize| -> Option<i64> {
        let end = i.checked_add(n)?;
        let part = b.get(*i..end)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        *i = end;
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    let year = match b.first()? {
        b'+' | b'-' => {
            let neg = b[0] == b'-';
            i = 1;
            let y = fixed(&mut i, 6)?;
            if neg && y == 0 {
                return None;
            }
            if neg {
                -y
            } else {
                y
            }
        }
        _ => fixed(&mut i, 4)?,
    };
    let (mut month, mut day) = (1, 1);
    if b.get(i) == Some(&b'-') {
        i += 1;
        month = fixed(&mut i, 2)?;
        if b.get(i) == Some(&b'-') {
            i += 1;
            day = fixed(&mut i, 2)?;
        }
    }
    let (mut h, mut m, mut sec, mut ms) = (0, 0, 0, 0.0);
    let mut offset_min = 0i64;
    if matches!(b.get(i), Some(b'T') | Some(b't') | Some(b' ')) {
        i += 1;
        h = fixed(&mut i, 2)?;
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        m = fixed(&mut i, 2)?;
        if b.get(i) == Some(&b':') {
            i += 1;
            sec = fixed(&mut i, 2)?;
            if b.get(i) == Some(&b'.') || b.get(i) == Some(&b',') {
                i += 1;
                let start = i;
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
                if i == start {
                    return None;
                }
                // Milliseconds are the first three digits; the rest is dropped.
                let digits = &s[start..i];
                let first3: String = digits.chars().chain("000".chars()).take(3).collect();
                ms = first3.parse::<f64>().ok()?;
            }
        }
        match b.get(i) {
            Some(b'Z') | Some(b'z') => i += 1,
            Some(&c @ (b'+' | b'-')) => {
                i += 1;
                let oh = fixed(&mut i, 2)?;
                if b.get(i) == Some(&b':') {
                    i += 1;
                }
                let om = fixed(&mut i, 2)?;
                if oh > 23 || om > 59 {
                    return None;
                }
                offset_min = (oh * 60 + om) * if c == b'-' { -1 } else { 1 };
            }
            _ => {}
        }
    }
    if i != b.len() {
        return None;
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if h > 24 || m > 59 || sec > 59 || (h == 24 && (m != 0 || sec != 0 || ms != 0.0)) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let t = (days * 86_400 + h * 3600 + m * 60 + sec - offset_min * 60) as f64 * 1000.0 + ms;
    if t.abs() > 8.64e15 {
        return None;
    }
    Some(t)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_parse("2026-09-01T00:00:00.000Z"), Some(1_788_220_800_000.0));
        assert_eq!(date_parse("2026-09-01T00:00:00.0005Z"), Some(1_788_220_800_000.0));
        assert_eq!(date_parse("1970-01-01"), Some(0.0));
        assert_eq!(date_parse("1970-01-01T01:00:00+01:00"), Some(0.0));
        assert_eq!(date_parse("garbage"), None);
        assert_eq!(date_parse("2026-02-30"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(number_from_str(" 12 "), 12.0);
        assert_eq!(number_from_str("0x10"), 16.0);
        assert_eq!(number_from_str("1e3"), 1000.0);
        assert!(number_from_str("12abc").is_nan());
        assert!(number_from_str("inf").is_nan());
        assert_eq!(round(2.5), 3.0);
        assert_eq!(round(0.499_999_999_999_999_94), 0.0);
    }

    #[test]
    fn whitespace() {
        assert_eq!(trim("\u{feff} a \u{a0}"), "a");
        assert_eq!(utf16_prefix("a😀b", 2), "a");
        assert_eq!(utf16_prefix("a😀b", 3), "a😀");
    }
}
