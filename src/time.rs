//! Timestamps without a clock or a date crate: RFC 3339 text to Unix milliseconds and day
//! counts back to civil dates. Used by the parser (durations, record times), the Claude
//! module (dates in notices), the run-log reader and the CLI (`--ts` validation).

/// The civil date `(year, month, day)` of a day count since 1970-01-01 (Howard Hinnant's
/// algorithm): the inverse of the days computation in [`parse_ts_ms`].
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Milliseconds since the Unix epoch of an RFC 3339 / ISO 8601 timestamp
/// (`2025-01-02T03:04:05.678Z`, with an optional `±hh:mm` offset). `None` if it does not
/// parse. Hand-written so the core reads no clock and pulls in no date crate.
pub fn parse_ts_ms(ts: &str) -> Option<i64> {
    let b = ts.trim().as_bytes();
    if b.len() < 19 {
        return None;
    }
    let num = |s: &[u8]| -> Option<i64> {
        let mut n = 0i64;
        for &c in s {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + i64::from(c - b'0');
        }
        Some(n)
    };
    if b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b't' || b[10] == b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (num(&b[0..4])?, num(&b[5..7])?, num(&b[8..10])?);
    let (h, mi, s) = (num(&b[11..13])?, num(&b[14..16])?, num(&b[17..19])?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut i = 19;
    let mut frac_ms = 0i64;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &b[start..i];
        if digits.is_empty() {
            return None;
        }
        let mut ms = 0i64;
        for k in 0..3 {
            ms = ms * 10 + digits.get(k).map(|c| i64::from(c - b'0')).unwrap_or(0);
        }
        frac_ms = ms;
    }
    let offset_min = match b.get(i) {
        None => 0,
        Some(b'Z') | Some(b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if b.len() == i + 6 && b[i + 3] == b':' => {
            let m = num(&b[i + 1..i + 3])? * 60 + num(&b[i + 4..i + 6])?;
            if sign == b'+' {
                m
            } else {
                -m
            }
        }
        _ => return None,
    };
    // Days from civil (Howard Hinnant's algorithm).
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + h * 3600 + mi * 60 + s - offset_min * 60;
    Some(secs * 1000 + frac_ms)
}

/// Milliseconds since the epoch as `2026-01-02T03:04:05.678Z`.
#[cfg(feature = "std")]
pub fn iso_from_ms(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        (rem / 60_000) % 60,
        (rem / 1000) % 60,
        rem % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_from_ms_reads_back() {
        for ms in [0i64, 1_761_734_435_123, 4_102_444_800_999] {
            assert_eq!(parse_ts_ms(&iso_from_ms(ms)), Some(ms));
        }
        assert_eq!(iso_from_ms(1_761_734_435_123), "2025-10-29T10:40:35.123Z");
    }

    #[test]
    fn civil_dates_round_trip() {
        for ms in [0i64, 951_782_400_000, 1_761_734_435_123, -86_400_000, 4_102_444_800_000] {
            let days = ms.div_euclid(86_400_000);
            let (y, m, d) = civil_from_days(days);
            let iso = format!("{y:04}-{m:02}-{d:02}T00:00:00Z");
            assert_eq!(parse_ts_ms(&iso), Some(days * 86_400_000), "{iso}");
        }
    }

    #[test]
    fn timestamps_parse() {
        assert_eq!(parse_ts_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_ts_ms("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(parse_ts_ms("2025-10-29T10:40:35.123Z"), Some(1_761_734_435_123));
        assert_eq!(parse_ts_ms("2025-10-29T12:40:35.123+02:00"), Some(1_761_734_435_123));
        assert_eq!(parse_ts_ms("not a time"), None);
        assert_eq!(parse_ts_ms("2025-13-29T10:40:35Z"), None);
        assert_eq!(parse_ts_ms("2025-10-29T10:40:35Zjunk"), None);
    }
}
