//! Golden files: every `tests/fixtures/<runtime>/<case>.jsonl` (or `.ndjson`/`.txt`) is a
//! real stream; `<case>.expected.jsonl` holds, line for line, the JSON array of entries a
//! fresh autodetecting `StdoutParser` returns for that input line, with the line's `ts`
//! from [`fixture_ts`]. The same goldens are replayed through the built
//! `dist/ui-parser.js` by `tests/js/` (Node and Chromium), so native and wasm cannot drift.
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the expected files; review the diff
//! by reading it before committing.

use agentlines::{entries_to_json, parse_line, Entry, Format, StdoutParser};
use std::fs;
use std::path::{Path, PathBuf};

/// The `ts` given to input line `i` (0-based) of every fixture: one second apart from a
/// fixed instant, so durations are testable and output is deterministic.
fn fixture_ts(i: usize) -> String {
    let secs = i as u64;
    format!("2026-01-01T{:02}:{:02}:{:02}.000Z", (secs / 3600) % 24, (secs / 60) % 60, secs % 60)
}

fn fixtures() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    let mut dirs: Vec<_> = fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs.into_iter().filter(|d| d.is_dir()) {
        let runtime = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let is_input = [".jsonl", ".ndjson", ".txt", ".log"].iter().any(|x| name.ends_with(x))
                && !name.contains(".expected.");
            if is_input {
                out.push((runtime.clone(), f));
            }
        }
    }
    out
}

fn expected_path(input: &Path) -> PathBuf {
    let name = input.file_name().unwrap().to_string_lossy();
    let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(&name);
    input.with_file_name(format!("{stem}.expected.jsonl"))
}

/// Input lines as the host sees them: split on `\n`, a final empty piece dropped.
fn lines_of(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

fn replay(parser: &mut StdoutParser, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| entries_to_json(&parser.parse_line(l, &fixture_ts(i))))
        .collect()
}

#[test]
fn goldens_match_and_replay_is_deterministic() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let all = fixtures();
    assert!(!all.is_empty(), "no fixtures found");
    let mut failures = Vec::new();
    for (_runtime, input) in &all {
        let text = fs::read_to_string(input).unwrap();
        let lines = lines_of(&text);
        let mut parser = StdoutParser::new();
        let got = replay(&mut parser, &lines);
        let exp_path = expected_path(input);
        if update {
            fs::write(&exp_path, got.join("\n") + "\n").unwrap();
            continue;
        }
        let expected = fs::read_to_string(&exp_path)
            .unwrap_or_else(|_| panic!("missing golden {}", exp_path.display()));
        let expected: Vec<&str> = lines_of(&expected);
        if expected.len() != got.len() {
            failures.push(format!("{}: {} lines, golden has {}", input.display(), got.len(), expected.len()));
            continue;
        }
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            let gv: serde_json::Value = serde_json::from_str(g).unwrap();
            let ev: serde_json::Value = serde_json::from_str(e).unwrap();
            if gv != ev {
                failures.push(format!("{} line {}:\n  got      {g}\n  expected {e}", input.display(), i + 1));
                break;
            }
        }
        // The same stream after reset() and through a second fresh parser: byte-identical.
        parser.reset();
        assert_eq!(replay(&mut parser, &lines), got, "{}: after reset()", input.display());
        assert_eq!(replay(&mut StdoutParser::new(), &lines), got, "{}: fresh parser", input.display());
    }
    assert!(failures.is_empty(), "{} golden mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// Every stream split into chunks of every size 1..=64 (and a few irregular patterns)
/// gives exactly the entries of whole-line feeding.
#[test]
fn chunked_replay_matches_whole_lines() {
    for (_runtime, input) in fixtures() {
        let text = fs::read_to_string(&input).unwrap();
        if text.len() > 256 * 1024 {
            continue; // the large files are covered by the whole-line goldens and JS replay
        }
        let ts = "2026-01-01T00:00:00.000Z";
        let mut whole = StdoutParser::new();
        let mut expected: Vec<Entry> = Vec::new();
        for l in lines_of(&text) {
            expected.extend(whole.parse_line(l, ts));
        }
        expected.extend(whole.flush(ts));
        let mut patterns: Vec<Vec<usize>> = (1..=64).map(|n| vec![n]).collect();
        patterns.push(vec![1, 7, 3, 200, 2, 64, 5]);
        patterns.push(vec![4096, 1, 13]);
        for pattern in patterns {
            let mut p = StdoutParser::new();
            let mut got = Vec::new();
            let (mut i, mut k) = (0usize, 0usize);
            while i < text.len() {
                let mut j = (i + pattern[k % pattern.len()]).min(text.len());
                while !text.is_char_boundary(j) {
                    j += 1;
                }
                got.extend(p.parse_chunk(&text[i..j], ts));
                i = j;
                k += 1;
            }
            got.extend(p.flush(ts));
            assert!(got == expected, "{}: chunk pattern {:?} differs", input.display(), pattern);
        }
    }
}

/// Every fixture's runtime is detected from the stream (the folder names the runtime),
/// and every line, stateless or stateful, gives readable output: no raw JSON as stdout.
#[test]
fn detection_and_no_raw_json() {
    for (runtime, input) in fixtures() {
        let text = fs::read_to_string(&input).unwrap();
        let mut p = StdoutParser::new();
        for (i, l) in lines_of(&text).iter().enumerate() {
            let ts = fixture_ts(i);
            for e in p.parse_line(l, &ts).into_iter().chain(parse_line(l, &ts)) {
                if let Entry::Stdout { text, .. } = &e {
                    let t = text.trim_start();
                    assert!(
                        !(t.starts_with('{') && serde_json::from_str::<serde_json::Value>(t).is_ok()),
                        "{} line {}: raw JSON shown as stdout",
                        input.display(),
                        i + 1
                    );
                }
            }
        }
        if let Some(expected) = Format::from_name(&runtime) {
            if expected != Format::Plain {
                assert_eq!(p.format(), Some(expected), "{}: detected runtime", input.display());
            }
        }
    }
}

/// `Entry`'s `Deserialize` reads back every entry the fixtures give, as `write_json` wrote it
/// (the CLI's records, a server storing entries): the same entry, field for field.
#[test]
fn every_golden_entry_reads_back() {
    let mut count = 0usize;
    for (_runtime, input) in fixtures() {
        let text = fs::read_to_string(&input).unwrap();
        let mut parser = StdoutParser::new();
        for (i, l) in lines_of(&text).iter().enumerate() {
            for e in parser.parse_line(l, &fixture_ts(i)) {
                let json = entries_to_json(std::slice::from_ref(&e));
                let json = json.strip_prefix('[').and_then(|j| j.strip_suffix(']')).unwrap();
                let back: Entry = serde_json::from_str(json)
                    .unwrap_or_else(|err| panic!("{} line {}: {err}\n  {json}", input.display(), i + 1));
                assert_eq!(back, e, "{} line {}", input.display(), i + 1);
                count += 1;
            }
        }
    }
    assert!(count > 2_000, "only {count} entries read back");
}

/// What `Deserialize` refuses: a wrong or missing field is an error that names it.
#[test]
fn deserialize_names_what_is_wrong() {
    let err = |j: &str| serde_json::from_str::<Entry>(j).unwrap_err().to_string();
    assert!(err(r#"{"kind":"assistant","ts":"t","text":3}"#).contains("its text must be a string"));
    assert!(err(r#"{"kind":"assistant","ts":"t"}"#).contains("assistant entry without its text"));
    assert!(err(r#"{"kind":"frobnicate","ts":"t"}"#).contains("unknown entry kind"));
    assert!(err(r#"{"kind":"system","text":"x"}"#).contains("without a string ts"));
    let ok: Entry = serde_json::from_str(r#"{"kind":"system","ts":"t","text":"x","extra":1}"#).unwrap();
    assert_eq!(ok, Entry::system("t", "x"));
}

/// `parse_batch` (the viewer's path: many lines per call, read in slices) gives, for every
/// fixture cut into batches of a few sizes, exactly the entries of line-by-line feeding
/// (stateful through one parser across the batches, the last flushing it, and stateless),
/// each tagged with the line it came from; with `record_ts` a line carrying its own `timestamp` gets that time.
#[test]
fn batches_match_line_by_line() {
    use agentlines::parser::parse_batch;
    for (_runtime, input) in fixtures() {
        let text = fs::read_to_string(&input).unwrap();
        let lines = lines_of(&text);
        let mut whole = StdoutParser::new();
        let (mut expected, mut expected_at, mut alone, mut alone_at) = (vec![], vec![], vec![], vec![]);
        for (i, l) in lines.iter().enumerate() {
            let got = whole.parse_line(l, &fixture_ts(i));
            expected_at.extend(std::iter::repeat(i).take(got.len()));
            expected.extend(got);
            let got = parse_line(l, &fixture_ts(i));
            alone_at.extend(std::iter::repeat(i).take(got.len()));
            alone.extend(got);
        }
        // The last batch says it ends the stream: the parser's flush comes with it.
        let last = lines.len().saturating_sub(1);
        let tail = whole.flush(&fixture_ts(last));
        expected_at.extend(std::iter::repeat(last).take(tail.len()));
        expected.extend(tail);
        for size in [1, 3, 64, usize::MAX] {
            let mut p = StdoutParser::new();
            let (mut got, mut got_at, mut got_alone, mut got_alone_at) = (vec![], vec![], vec![], vec![]);
            let n = lines.chunks(size.min(lines.len().max(1))).count();
            for (b, chunk) in lines.chunks(size.min(lines.len().max(1))).enumerate() {
                let base = b * size.min(lines.len().max(1));
                let joined = chunk.join("\n") + "\n";
                let ts_of = |i: usize| fixture_ts(base + i);
                let (e, at, count) = parse_batch(Some(&mut p), &joined, &ts_of, false, b + 1 == n);
                assert_eq!(count, chunk.len());
                got_at.extend(at.iter().map(|i| base + i));
                got.extend(e);
                let (e, at, _) = parse_batch(None, &joined, &ts_of, false, b + 1 == n);
                got_alone_at.extend(at.iter().map(|i| base + i));
                got_alone.extend(e);
            }
            let name = input.display();
            assert!(got == expected && got_at == expected_at, "{name}: stateful batches of {size} differ");
            assert!(got_alone == alone && got_alone_at == alone_at, "{name}: stateless batches of {size} differ");
        }
        // Own timestamps: every entry of a line with one carries it.
        let (e, at, count) = parse_batch(None, &text, &fixture_ts, true, false);
        assert_eq!(count, lines.len());
        for (entry, i) in e.iter().zip(&at) {
            let v: Option<serde_json::Value> = serde_json::from_str(lines[*i].trim()).ok();
            let own = |k: &str| match v.as_ref().and_then(|v| v.get(k)) {
                Some(serde_json::Value::String(t)) if agentlines::runlog::is_timestamp(t) => Some(t.clone()),
                Some(serde_json::Value::Number(n)) => match n.as_f64().unwrap_or(0.0) {
                    x if (1e11..1e14).contains(&x) => Some(agentlines::time::iso_from_ms(x as i64)),
                    x if (1e8..1e11).contains(&x) => Some(agentlines::time::iso_from_ms((x * 1000.0) as i64)),
                    _ => None,
                },
                _ => None,
            };
            let want = own("timestamp").or_else(|| own("ts")).unwrap_or_else(|| fixture_ts(*i));
            assert_eq!(entry.ts(), want, "{}: line {} ts", input.display(), i + 1);
        }
    }
}

/// The host trims every line and skips blank ones before calling the parser. Fed that way,
/// every fixture gives what raw feeding gives, on the stateful and the stateless path, once
/// streamed pieces are joined: the same entries of the same kinds, texts equal but for
/// whitespace (a terminal runtime's indentation and blank lines are layout the trim takes).
#[test]
fn host_fed_replay_gives_what_raw_feeding_gives() {
    use agentlines::merge_deltas;
    fn squeeze(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::String(s) => *s = s.split_whitespace().collect::<Vec<_>>().join(" "),
            serde_json::Value::Array(a) => a.iter_mut().for_each(squeeze),
            serde_json::Value::Object(o) => o.values_mut().for_each(squeeze),
            _ => {}
        }
    }
    fn shown(entries: Vec<Entry>) -> Vec<serde_json::Value> {
        let mut v: serde_json::Value = serde_json::from_str(&entries_to_json(&merge_deltas(entries))).unwrap();
        squeeze(&mut v);
        // A text that is whitespace alone shows nothing either way.
        let list = v.as_array().cloned().unwrap_or_default();
        list.into_iter().filter(|e| e.get("text").and_then(|t| t.as_str()) != Some("") || e.get("kind").and_then(|k| k.as_str()) == Some("result")).collect()
    }
    let mut failures = Vec::new();
    for (_runtime, input) in fixtures() {
        let text = fs::read_to_string(&input).unwrap();
        let lines = lines_of(&text);
        for stateful in [true, false] {
            let feed = |host: bool| {
                let mut p = StdoutParser::new();
                let mut out = Vec::new();
                for (i, l) in lines.iter().enumerate() {
                    let l = if host { l.trim() } else { l };
                    if host && l.is_empty() {
                        continue;
                    }
                    let ts = fixture_ts(i);
                    out.extend(if stateful { p.parse_line(l, &ts) } else { parse_line(l, &ts) });
                }
                if stateful {
                    out.extend(p.flush(&fixture_ts(lines.len())));
                }
                shown(out)
            };
            let (raw, host) = (feed(false), feed(true));
            if raw != host {
                let at = raw.iter().zip(&host).position(|(a, b)| a != b).unwrap_or(raw.len().min(host.len()));
                failures.push(format!(
                    "{} ({}): {} entries raw, {} host-fed; first difference at {at}:\n  raw  {}\n  host {}",
                    input.display(),
                    if stateful { "stateful" } else { "stateless" },
                    raw.len(),
                    host.len(),
                    raw.get(at).map_or("-".into(), |v| v.to_string()),
                    host.get(at).map_or("-".into(), |v| v.to_string()),
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} fixtures read differently fed the host's way:\n{}", failures.len(), failures.join("\n"));
}
