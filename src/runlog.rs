//! Paperclip's stored run logs, and timestamps that records carry themselves.
//!
//! The host stores a run's output as JSONL rows `{"ts","stream","chunk","seq"?}` with
//! `stream` one of `stdout`, `stderr`, `system`; a `chunk` is a piece of output, not a line.
//! [`lines`] turns such a file back into the lines the agent printed, and [`parse`] into
//! transcript entries. The rules, shared with the viewer (`www/host-worker.js` implements
//! them in JavaScript; `docs/runlog.md` states them once for users):
//!
//! 1. A row is a JSON object with string `ts`, `stream` (one of the three) and `chunk`.
//!    A non-blank line that is not a row is kept: it becomes one line of its own, on no
//!    stream ([`Stream::Raw`]), shown as a `stdout` entry with the `ts` of the row before it.
//!    Blank lines are skipped.
//! 2. Rows are ordered by `seq` (a JSON number), stable. A row without `seq` (and a line
//!    that is not a row) sorts with the highest `seq` of the rows before it in the file
//!    (before every row when none has one): it stays after everything written before it,
//!    never moves ahead of a row it was written after, and such rows keep their file order.
//! 3. Chunks are joined per stream and split on `\n`; one trailing `\r` of each line is
//!    dropped. Each line gets the `ts` of the row in which the line *begins* (the row that
//!    holds its first character, or its `\n` for an empty line). A line is emitted when its
//!    `\n` arrives, so lines come out in the order they are completed; at the end the
//!    unterminated tails are flushed in the order they began.
//! 4. Entries: stdout lines go through the stdout parser with their `ts`; stderr lines
//!    become `stderr` entries and system lines `system` entries (whitespace-only ones give
//!    nothing, as a blank stdout line does); a raw line becomes a `stdout` entry.
//!
//! [`is_run_log`] is the detection: the first non-blank line is a row. No runtime prints
//! such a line (none has `stream` + `chunk` at the top), so detection is by shape alone.
//!
//! [`record_timestamp`] reads the timestamp a record carries (a top-level `"timestamp"`
//! string, as Claude Code and Codex session files and Gemini's stream-json events write)
//! when it is an RFC 3339 time ([`is_timestamp`]).

use crate::prelude::*;
use crate::entry::Entry;
use serde::Deserialize;

/// Which output a run-log line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
    System,
    /// A line of the file that was not a run-log row, kept as it was.
    Raw,
}

impl Stream {
    fn from_name(s: &str) -> Option<Stream> {
        match s {
            "stdout" => Some(Stream::Stdout),
            "stderr" => Some(Stream::Stderr),
            "system" => Some(Stream::System),
            _ => None,
        }
    }
}

/// One line rebuilt from a run log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLine {
    pub stream: Stream,
    /// The `ts` of the row the line began in (`None` for a raw line before any row).
    pub ts: Option<String>,
    pub text: String,
}

#[derive(Deserialize)]
struct RawRow {
    ts: String,
    stream: String,
    chunk: String,
    #[serde(default)]
    seq: Option<serde_json::Value>,
}

/// A run-log row read from one line of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub ts: String,
    pub stream: Stream,
    pub chunk: String,
    pub seq: Option<f64>,
}

/// The row on `line`, if it is one (rule 1).
pub fn read_row(line: &str) -> Option<Row> {
    let r: RawRow = serde_json::from_str(line.trim()).ok()?;
    Some(Row {
        ts: r.ts,
        stream: Stream::from_name(&r.stream)?,
        chunk: r.chunk,
        seq: r.seq.and_then(|v| v.as_f64()),
    })
}

/// Whether `text` (or its first line: only that one is read) is a Paperclip run log.
pub fn is_run_log(text: &str) -> bool {
    text.lines().find(|l| !l.trim().is_empty()).and_then(read_row).is_some()
}

/// The lines of a run log, in output order (rules 1-3).
pub fn lines(text: &str) -> Vec<RunLine> {
    // (sort key, file position, row or raw line with the ts before it)
    enum Item {
        Row(Row),
        Raw(String, Option<String>),
    }
    let mut items: Vec<(f64, Item)> = Vec::new();
    // The highest seq so far: the key of a row without one.
    let mut high = f64::NEG_INFINITY;
    let mut last_ts: Option<String> = None;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        match read_row(line) {
            Some(row) => {
                let key = row.seq.unwrap_or(high);
                high = high.max(key);
                last_ts = Some(row.ts.clone());
                items.push((key, Item::Row(row)));
            }
            None => items.push((high, Item::Raw(line.to_owned(), last_ts.clone()))),
        }
    }
    // `sort_by` is stable: equal keys keep file order.
    items.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    // Per stream: the unfinished line, the ts of the row it began in, and that row's place.
    let mut open: [(String, Option<String>, usize); 3] = Default::default();
    for (place, (_, item)) in items.into_iter().enumerate() {
        let row = match item {
            Item::Row(row) => row,
            Item::Raw(text, ts) => {
                out.push(RunLine { stream: Stream::Raw, ts, text });
                continue;
            }
        };
        let slot = match row.stream {
            Stream::Stdout => 0,
            Stream::Stderr => 1,
            _ => 2,
        };
        let (buf, began, at) = &mut open[slot];
        for piece in row.chunk.split_inclusive('\n') {
            if began.is_none() {
                *began = Some(row.ts.clone());
                *at = place;
            }
            match piece.strip_suffix('\n') {
                Some(body) => {
                    buf.push_str(body);
                    if buf.ends_with('\r') {
                        buf.pop();
                    }
                    out.push(RunLine {
                        stream: row.stream,
                        ts: began.take(),
                        text: std::mem::take(buf),
                    });
                }
                None => buf.push_str(piece),
            }
        }
    }
    let mut tails: Vec<_> = [Stream::Stdout, Stream::Stderr, Stream::System]
        .into_iter()
        .zip(open)
        .filter(|(_, (_, began, _))| began.is_some())
        .collect();
    tails.sort_by_key(|(_, (_, _, at))| *at);
    for (stream, (buf, began, _)) in tails {
        let text = buf.strip_suffix('\r').map(str::to_owned).unwrap_or(buf);
        out.push(RunLine { stream, ts: began, text });
    }
    out
}

/// A run log's transcript entries (rule 4): `stdout_line(line, ts)` parses each stdout line
/// (a stateful parser's `parse_line`, or the stateless `parse_line`). Each line's ts is its
/// row's; `default_ts` is for a raw line before any row; `fixed_ts` replaces them all (the
/// CLI's `--ts` without `--record-ts`).
pub fn parse(
    text: &str,
    default_ts: &str,
    fixed_ts: Option<&str>,
    stdout_line: impl FnMut(&str, &str) -> Vec<Entry>,
) -> Vec<Entry> {
    let mut out = Vec::new();
    parse_each(text, default_ts, fixed_ts, stdout_line, |_, entries| out.extend(entries));
    out
}

/// [`parse`], handing each line's entries to `each` with the line's number (1-based, among
/// the lines the rows join into) instead of collecting them.
pub fn parse_each(
    text: &str,
    default_ts: &str,
    fixed_ts: Option<&str>,
    mut stdout_line: impl FnMut(&str, &str) -> Vec<Entry>,
    mut each: impl FnMut(usize, Vec<Entry>),
) {
    for (i, l) in lines(text).into_iter().enumerate() {
        let ts = match (fixed_ts, l.ts) {
            (Some(t), _) => t.to_owned(),
            (None, Some(t)) => t,
            (None, None) => default_ts.to_owned(),
        };
        let entries = match l.stream {
            Stream::Stdout => stdout_line(&l.text, &ts),
            _ if l.text.trim().is_empty() => Vec::new(),
            Stream::Stderr => vec![Entry::Stderr { ts, text: l.text }],
            Stream::System => vec![Entry::System { ts, text: l.text }],
            Stream::Raw => vec![Entry::Stdout { ts, text: l.text }],
        };
        each(i + 1, entries);
    }
}

/// Whether `s` is an RFC 3339 / ISO 8601 date-time (`2026-01-02T03:04:05.678Z`, an optional
/// fraction, `Z` or `±hh:mm`, or no zone).
pub fn is_timestamp(s: &str) -> bool {
    s == s.trim() && crate::time::parse_ts_ms(s).is_some()
}

#[derive(Deserialize)]
struct Stamped<'a> {
    #[serde(borrow, default)]
    timestamp: Option<std::borrow::Cow<'a, str>>,
}

/// The timestamp a JSON record carries itself: its top-level `"timestamp"` string, when that
/// is an RFC 3339 time. Lines that are not JSON objects, or carry none, give `None`.
pub fn record_timestamp(line: &str) -> Option<String> {
    let line = line.trim();
    if !line.starts_with('{') || !line.contains("\"timestamp\"") {
        return None;
    }
    let s: Stamped = serde_json::from_str(line).ok()?;
    s.timestamp.filter(|t| is_timestamp(t)).map(|t| t.into_owned())
}

/// [`record_timestamp`] of `line` from the object it was already read into, when that is
/// the same answer: `value` is the line's object as serde_json read it, without repeated
/// top-level keys (what `parser::parse_line_stamped` passes on), and its `timestamp` key was
/// written without escapes (so the line holds the text `"timestamp"`). Otherwise the line is
/// read again.
pub fn record_timestamp_of(line: &str, value: Option<&crate::json::Value>) -> Option<String> {
    let Some(map) = value.and_then(|v| v.as_object()) else {
        return record_timestamp(line);
    };
    // No top-level `timestamp` (the key may still be in the text, nested): none.
    map.get("timestamp")?;
    let t = map.get_unescaped("timestamp").map(|t| t.as_str());
    match t {
        Some(Some(t)) => Some(t).filter(|t| is_timestamp(t)).map(str::to_owned),
        // `null` reads as no timestamp; any other type fails `Stamped`.
        Some(None) => None,
        None => record_timestamp(line),
    }
}

/// The time a record carries by the run viewer's rule (docs/viewer.md, Timestamps): its
/// top-level `timestamp`, else its `ts` (Cline's messages: epoch milliseconds), each an RFC
/// 3339 string or epoch milliseconds (10^11–10^14) or seconds (10^8–10^11) as a number; the
/// answer as RFC 3339 (a string as written, a number in UTC). `value` as for
/// [`record_timestamp_of`].
pub fn record_time_of(line: &str, value: Option<&crate::json::Value>) -> Option<String> {
    let Some(map) = value.and_then(|v| v.as_object()) else {
        return record_timestamp(line);
    };
    for key in ["timestamp", "ts"] {
        match map.get(key) {
            Some(v) if v.as_str().is_some() => {
                if let Some(t) = map.get_unescaped(key).and_then(|v| v.as_str()).filter(|t| is_timestamp(t)) {
                    return Some(t.to_owned());
                }
            }
            Some(v) => match v.as_f64() {
                Some(n) if (1e11..1e14).contains(&n) => return Some(crate::time::iso_from_ms(n as i64)),
                Some(n) if (1e8..1e11).contains(&n) => return Some(crate::time::iso_from_ms((n * 1000.0) as i64)),
                _ => {}
            },
            None => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ts: &str, stream: &str, chunk: &str, seq: Option<i64>) -> String {
        let mut v = serde_json::json!({ "ts": ts, "stream": stream, "chunk": chunk });
        if let Some(s) = seq {
            v["seq"] = s.into();
        }
        v.to_string()
    }

    fn texts(ls: &[RunLine]) -> Vec<(Stream, Option<&str>, &str)> {
        ls.iter().map(|l| (l.stream, l.ts.as_deref(), l.text.as_str())).collect()
    }

    #[test]
    fn chunks_join_into_lines_with_the_ts_where_each_line_begins() {
        let log = [
            row("t1", "stdout", "hel", None),
            row("t2", "stdout", "lo\r\nwor", None),
            row("t3", "stderr", "oops\n", None),
            row("t4", "stdout", "ld\n\n", None),
            row("t5", "stdout", "\ntail", None),
            row("t6", "system", "sys", None),
        ]
        .join("\n");
        assert!(is_run_log(&log));
        assert_eq!(
            texts(&lines(&log)),
            vec![
                (Stream::Stdout, Some("t1"), "hello"),
                (Stream::Stderr, Some("t3"), "oops"),
                (Stream::Stdout, Some("t2"), "world"),
                // The empty line's `\n` is in t4; the next empty one begins in t5.
                (Stream::Stdout, Some("t4"), ""),
                (Stream::Stdout, Some("t5"), ""),
                (Stream::Stdout, Some("t5"), "tail"),
                (Stream::System, Some("t6"), "sys"),
            ]
        );
    }

    #[test]
    fn rows_are_ordered_by_seq_stably_and_rows_without_seq_stay_after_what_preceded_them() {
        let log = [
            row("b", "stdout", "B\n", Some(2)),
            row("b2", "stdout", "B2\n", None),
            row("a", "stdout", "A\n", Some(1)),
            row("a2", "stdout", "A2\n", Some(1)),
            "not a row".to_owned(),
            row("a3", "stdout", "A3\n", None),
            row("c", "stdout", "C\n", Some(3)),
        ]
        .join("\n");
        let got: Vec<String> = lines(&log).into_iter().map(|l| l.text).collect();
        // B2, the raw line and A3 were written after B (seq 2): none of them moves ahead of
        // it, and they keep their file order; A and A2 (seq 1) move ahead of B.
        assert_eq!(got, ["A", "A2", "B", "B2", "not a row", "A3", "C"]);
        // The raw line carries the ts of the row before it in the file.
        let raw = lines(&log).into_iter().find(|l| l.stream == Stream::Raw).unwrap();
        assert_eq!(raw.ts.as_deref(), Some("a2"));
        // Without any seq: file order, untouched.
        let plain = [row("x", "stdout", "X\n", None), row("y", "stderr", "Y\n", None)].join("\n");
        let got: Vec<String> = lines(&plain).into_iter().map(|l| l.text).collect();
        assert_eq!(got, ["X", "Y"]);
    }

    #[test]
    fn unterminated_tails_are_flushed_in_the_order_they_began() {
        let log = [
            row("s", "system", "sys tail", Some(1)),
            row("e", "stderr", "err tail", Some(2)),
            row("o", "stdout", "out tail", Some(3)),
        ]
        .join("\n");
        let ls = lines(&log);
        assert_eq!(
            texts(&ls),
            vec![
                (Stream::System, Some("s"), "sys tail"),
                (Stream::Stderr, Some("e"), "err tail"),
                (Stream::Stdout, Some("o"), "out tail"),
            ]
        );
    }

    #[test]
    fn a_fixed_ts_replaces_every_rows_ts() {
        let log = [row("t1", "stderr", "warn\n", Some(1)), row("t2", "stdout", "hi\n", Some(2))].join("\n");
        let e = parse(&log, "D", Some("F"), |l, ts| vec![Entry::Stdout { ts: ts.to_owned(), text: l.to_owned() }]);
        assert_eq!(e.iter().map(|e| e.ts()).collect::<Vec<_>>(), ["F", "F"]);
        let e = parse(&log, "D", None, |l, ts| vec![Entry::Stdout { ts: ts.to_owned(), text: l.to_owned() }]);
        assert_eq!(e.iter().map(|e| e.ts()).collect::<Vec<_>>(), ["t1", "t2"]);
    }

    #[test]
    fn entries_per_stream() {
        let init = r#"{"type":"system","subtype":"init","session_id":"s","model":"m"}"#;
        let log = [
            row("2026-01-01T00:00:01Z", "system", "adapter started\n", Some(1)),
            row("2026-01-01T00:00:02Z", "stdout", &format!("{init}\n"), Some(2)),
            row("2026-01-01T00:00:03Z", "stderr", "warn: x\n   \n", Some(3)),
        ]
        .join("\n");
        let mut p = crate::StdoutParser::new();
        let e = parse(&log, "T", None, |l, ts| p.parse_line(l, ts));
        let json: Vec<serde_json::Value> =
            e.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
        assert_eq!(json.len(), 3, "{json:?}");
        assert_eq!(json[0]["kind"], "system");
        assert_eq!(json[0]["text"], "adapter started");
        assert_eq!(json[1]["kind"], "init");
        assert_eq!(json[1]["ts"], "2026-01-01T00:00:02Z");
        assert_eq!(json[2]["kind"], "stderr");
        assert_eq!(json[2]["ts"], "2026-01-01T00:00:03Z");
    }

    #[test]
    fn detection_and_timestamps() {
        assert!(!is_run_log(r#"{"type":"system","subtype":"init"}"#));
        assert!(!is_run_log(r#"{"ts":"t","stream":"stdin","chunk":"x"}"#));
        assert!(is_run_log("\n\n{\"ts\":\"t\",\"stream\":\"stdout\",\"chunk\":\"\"}\nzzz"));
        assert!(is_timestamp("2026-01-01T00:00:00.000Z"));
        assert!(is_timestamp("2026-01-01T00:00:00+02:00"));
        assert!(!is_timestamp("notatime"));
        assert!(!is_timestamp("T0"));
        assert!(!is_timestamp("2026-13-01T00:00:00Z"));
        assert_eq!(
            record_timestamp(r#"{"type":"user","timestamp":"2025-06-01T10:00:00.5Z"}"#).as_deref(),
            Some("2025-06-01T10:00:00.5Z")
        );
        assert_eq!(record_timestamp(r#"{"timestamp":"yesterday"}"#), None);
        assert_eq!(record_timestamp(r#"{"message":{"timestamp":"2025-06-01T10:00:00Z"}}"#), None);
        assert_eq!(record_timestamp("plain timestamp text"), None);
    }

    /// The CLI reads a line once (`parse_line_stamped`) and takes the record timestamp from
    /// that: the same answer as reading the line for its timestamp alone, on every kind of
    /// line, including the ones where the object is not passed on.
    #[test]
    fn timestamp_of_the_parsed_object_is_record_timestamp() {
        let t = "2025-06-01T10:00:00Z";
        let lines = [
            format!(r#"{{"type":"user","timestamp":"{t}"}}"#),
            format!(r#"  {{"type":"user","timestamp":"{t}"}}  "#),
            format!("{{\"type\":\"user\",\"timestamp\":\"{t}\"}}\r"),
            format!("\u{feff}{{\"type\":\"user\",\"timestamp\":\"{t}\"}}"),
            format!("\x1b[0m{{\"type\":\"user\",\"timestamp\":\"{t}\"}}"),
            format!(r#"{{"timestamp":"{t}","timestamp":"2025-06-01T11:00:00Z"}}"#),
            format!(r#"{{"time\u0073tamp":"{t}"}}"#),
            format!(r#"{{"time\u0073tamp":"{t}","x":"timestamp"}}"#),
            format!(r#"{{"timestamp":"{t}","time\u0073tamp":"2025-06-01T11:00:00Z"}}"#),
            format!(r#"{{"message":{{"timestamp":"{t}"}}}}"#),
            format!(r#"{{"timestamp":"{t}","n":1e400}}"#),
            format!(r#"{{"timestamp":"{t}","s":"\ud83d"}}"#),
            r#"{"timestamp":"2025-06-01T10:00:00\u005a"}"#.to_owned(),
            r#"{"timestamp":null}"#.to_owned(),
            r#"{"timestamp":12}"#.to_owned(),
            r#"{"timestamp":" 2025-06-01T10:00:00Z"}"#.to_owned(),
            format!(r#"{{"timestamp":"{t}""#),
            format!("timestamp {t}"),
            format!(r#"stdout: {{"type":"user","timestamp":"{t}"}}"#),
        ];
        for line in &lines {
            let mut got = Vec::new();
            let mut ts_of = |v: Option<&crate::json::Value>| {
                got.push(record_timestamp_of(line, v));
                "T".to_owned()
            };
            crate::parser::parse_line_stamped(None, line, &mut ts_of);
            assert_eq!(got, vec![record_timestamp(line)], "{line:?}");
        }
    }
}
