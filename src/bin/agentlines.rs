//! `agentlines`: the native command line over the same core the WebAssembly package uses.
//!
//! ```text
//! agentlines parse [--format NAME] [--stateless] [--ts TIME] <file|->
//! agentlines session [--format READER] <file|->
//! agentlines dump <file|-> [--select LIST] [--presets FILE] [--no-thinking] [--no-agent]
//!                 [--sid SID] [--agent-id ID] [--written-at MS]
//! ```
//!
//! - `parse`: what an agent CLI printed (one line per event) → transcript entries, one JSON
//!   object per line, through `StdoutParser` (runtime autodetected and locked, tool results
//!   paired) or, with `--stateless`, `parse_line` per line. Every entry gets the same `ts`
//!   (`--ts`, default the time the command started).
//! - `session`: a whole transcript file → the normalized session JSON
//!   (`@molecule/api-agent-transcript`): Claude Code session `.jsonl` or `/export` text,
//!   Codex rollout `.jsonl` or Markdown export, Molecule IDE conversation JSON.
//! - `dump`: a Claude Code session `.jsonl` → a `SessionDumpFile` JSON of the selected
//!   transcript items (`--select 'message,tool,-tool:Read,@name'`; presets from a JSON file
//!   holding a config's `dump` section, `{"presets":[…]}`, or a whole config with `dump`).
//!
//! Bad input (a missing file, an unknown flag, a bad selection, a file that is not a
//! transcript) prints `agentlines: <why>` and exits with status 2; nothing panics. A file
//! over 4 MiB shows a progress bar on stderr when stderr is a terminal.

use agentlines::items::{self, check_selection, dump_config, Ask, DumpPreset, DumpSubject};
use agentlines::sessions::{self, TranscriptInput, TranscriptReader};
use agentlines::{parse_line, parse_line_as, Entry, Format, StdoutParser};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

const USAGE: &str = "usage:
  agentlines parse [--format NAME] [--stateless] [--ts TIME] <file|->
  agentlines session [--format claude-code|codex|molecule-ide|autodetect] <file|->
  agentlines dump <file|-> [--select LIST] [--presets FILE] [--no-thinking] [--no-agent]
                  [--sid SID] [--agent-id ID] [--written-at MS]

  parse    agent stdout (JSON lines or text) -> transcript entries, one JSON per line
  session  a transcript file -> the normalized session (JSON)
  dump     a Claude Code session .jsonl -> a SessionDumpFile of the selected items (JSON)";

/// Files bigger than this get a progress bar (when stderr is a terminal).
const PROGRESS_BYTES: u64 = 4 * 1024 * 1024;

/// Why the command failed: the message, and whether to show the usage after it.
struct Failure(String, bool);

fn fail<T>(msg: impl Into<String>) -> Result<T, Failure> {
    Err(Failure(msg.into(), false))
}

fn usage<T>(msg: impl Into<String>) -> Result<T, Failure> {
    Err(Failure(msg.into(), true))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => {}
        Err(Failure(msg, show_usage)) => {
            eprintln!("agentlines: {msg}");
            if show_usage {
                eprintln!("{USAGE}");
            }
            std::process::exit(2);
        }
    }
}

/// Parsed flags: `--name value` pairs, bare `--name` switches and positional arguments.
struct Args {
    values: Vec<(String, String)>,
    switches: Vec<String>,
    positional: Vec<String>,
}

impl Args {
    fn parse(args: &[String], with_value: &[&str], switches: &[&str]) -> Result<Args, Failure> {
        let mut out = Args { values: Vec::new(), switches: Vec::new(), positional: Vec::new() };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a == "-" || !a.starts_with('-') {
                out.positional.push(a.clone());
            } else if let Some((k, v)) = a.split_once('=').filter(|(k, _)| with_value.contains(k)) {
                out.values.push((k.to_owned(), v.to_owned()));
            } else if with_value.contains(&a.as_str()) {
                match it.next() {
                    Some(v) => out.values.push((a.clone(), v.clone())),
                    None => return usage(format!("{a} needs a value")),
                }
            } else if switches.contains(&a.as_str()) {
                out.switches.push(a.clone());
            } else {
                return usage(format!("unknown option {a}"));
            }
        }
        Ok(out)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.values.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }

    fn one_file(&self) -> Result<&str, Failure> {
        match self.positional.as_slice() {
            [f] => Ok(f),
            [] => usage("which file? (give a path, or - for standard input)"),
            _ => usage(format!("one file at a time, got {}", self.positional.len())),
        }
    }
}

fn run(args: &[String]) -> Result<(), Failure> {
    let Some((cmd, rest)) = args.split_first() else {
        return usage("no command");
    };
    match cmd.as_str() {
        "parse" => parse_cmd(rest),
        "session" => session_cmd(rest),
        "dump" => dump_cmd(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        "--version" | "-V" => {
            println!("agentlines {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => usage(format!("unknown command {other}")),
    }
}

/// Writes to stdout; a closed pipe (`| head`) ends the command quietly.
struct Out(io::BufWriter<io::StdoutLock<'static>>);

impl Out {
    fn new() -> Out {
        Out(io::BufWriter::new(io::stdout().lock()))
    }

    fn line(&mut self, s: &str) -> Result<(), Failure> {
        match writeln!(self.0, "{s}") {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(e) => fail(format!("cannot write the output: {e}")),
        }
    }

    /// One value as a JSON line, serialised straight into the buffer (no `String` per entry).
    fn json_line(&mut self, v: &impl serde::Serialize) -> Result<(), Failure> {
        let written = serde_json::to_writer(&mut self.0, v).map_err(io::Error::from);
        match written.and_then(|()| self.0.write_all(b"\n")) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(e) => fail(format!("cannot write the output: {e}")),
        }
    }

    fn finish(mut self) -> Result<(), Failure> {
        match self.0.flush() {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => fail(format!("cannot write the output: {e}")),
        }
    }
}

/// An input: a file (with its size, for the progress bar) or standard input.
fn open(path: &str) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    if path == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let meta = std::fs::metadata(path)
        .map_err(|e| Failure(format!("cannot read {path}: {}", io_reason(&e)), false))?;
    if meta.is_dir() {
        return fail(format!("{path} is a directory, not a transcript file"));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Failure(format!("cannot read {path}: {}", io_reason(&e)), false))?;
    Ok((Box::new(file), Some(meta.len())))
}

fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// A progress bar for a big file when stderr is a terminal; hidden otherwise.
fn progress(size: Option<u64>, what: &str) -> ProgressBar {
    match size {
        Some(n) if n > PROGRESS_BYTES && io::stderr().is_terminal() => {
            let bar = ProgressBar::new(n);
            let style =
                ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} ({eta})")
                    .map(|s| s.progress_chars("=> "))
                    .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_message(what.to_owned());
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

/// The whole input as text (invalid UTF-8 replaced), with progress while reading.
fn read_all(path: &str, what: &str) -> Result<String, Failure> {
    let (mut input, size) = open(path)?;
    let bar = progress(size, what);
    let mut bytes = Vec::with_capacity(size.unwrap_or(0).min(1 << 30) as usize);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                bytes.extend_from_slice(&buf[..n]);
                bar.inc(n as u64);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return fail(format!("cannot read {path}: {}", io_reason(&e))),
        }
    }
    bar.finish_and_clear();
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

fn file_name(path: &str) -> Option<String> {
    (path != "-")
        .then(|| Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()))
        .flatten()
}

fn parse_cmd(args: &[String]) -> Result<(), Failure> {
    let a = Args::parse(args, &["--format", "--ts"], &["--stateless"])?;
    let path = a.one_file()?;
    let format = match a.value("--format") {
        None | Some("auto") | Some("autodetect") => None,
        Some(name) => match Format::from_name(name) {
            Some(f) => Some(f),
            None => {
                let names: Vec<&str> =
                    Format::JSON.iter().chain([Format::Plain].iter()).map(|f| f.name()).collect();
                return usage(format!("unknown format {name} (known: {})", names.join(", ")));
            }
        },
    };
    let ts = a.value("--ts").map(str::to_owned).unwrap_or_else(now_iso);
    let stateless = a.has("--stateless");
    let (input, size) = open(path)?;
    let bar = progress(size, "parse");
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut parser = format.map(StdoutParser::with_format).unwrap_or_default();
    let mut out = Out::new();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        let n = reader
            .read_until(b'\n', &mut raw)
            .map_err(|e| Failure(format!("cannot read {path}: {}", io_reason(&e)), false))?;
        if n == 0 {
            break;
        }
        bar.inc(n as u64);
        // `from_utf8` first: its validator is several times faster than the lossy one's
        // (which was 16% of a whole `parse` run); only invalid lines pay for the lossy copy.
        let text = match std::str::from_utf8(&raw) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(&raw),
        };
        let line = text.strip_suffix('\n').unwrap_or(&text);
        let entries: Vec<Entry> = match (stateless, format) {
            (true, Some(f)) => parse_line_as(f, line, &ts),
            (true, None) => parse_line(line, &ts),
            (false, _) => parser.parse_line(line, &ts),
        };
        for e in &entries {
            out.json_line(e)?;
        }
    }
    bar.finish_and_clear();
    out.finish()
}

fn session_cmd(args: &[String]) -> Result<(), Failure> {
    let a = Args::parse(args, &["--format"], &[])?;
    let path = a.one_file()?;
    let reader: Box<dyn TranscriptReader> = match a.value("--format").unwrap_or("autodetect") {
        "autodetect" | "auto" => Box::new(sessions::autodetect()),
        "claude-code" | "claude" => Box::new(sessions::ClaudeCodeReader),
        "codex" => Box::new(sessions::CodexReader),
        "molecule-ide" | "molecule" => Box::new(sessions::MoleculeIdeReader),
        other => {
            return usage(format!(
                "unknown reader {other} (known: claude-code, codex, molecule-ide, autodetect)"
            ))
        }
    };
    let text = read_all(path, "read")?;
    let input = TranscriptInput { text, file_name: file_name(path) };
    let session = reader.read(&input).map_err(|e| Failure(e.0, false))?;
    let json = serde_json::to_string_pretty(&session)
        .map_err(|e| Failure(format!("cannot encode the session: {e}"), false))?;
    let mut out = Out::new();
    out.line(&json)?;
    out.finish()
}

/// Reads a presets file: a config's `dump` section, or a config holding one.
fn presets_from(path: &str) -> Result<Vec<DumpPreset>, Failure> {
    let text = read_all(path, "presets")?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Failure(format!("presets file {path} is not JSON: {e}"), false))?;
    let section = v.get("dump").unwrap_or(&v);
    dump_config(Some(section)).map_err(|m| Failure(format!("presets file {path}: {m}"), false))
}

fn dump_cmd(args: &[String]) -> Result<(), Failure> {
    let a = Args::parse(
        args,
        &["--select", "--presets", "--sid", "--agent-id", "--written-at"],
        &["--no-thinking", "--no-agent"],
    )?;
    let path = a.one_file()?;
    let presets = match a.value("--presets") {
        Some(p) => presets_from(p)?,
        None => Vec::new(),
    };
    let types: Vec<String> = a
        .value("--select")
        .map(|s| s.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect())
        .unwrap_or_default();
    check_selection(&types, &presets).map_err(|m| Failure(format!("bad --select: {m}"), false))?;
    let ask = Ask {
        types,
        preset: None,
        no_thinking: a.has("--no-thinking"),
        no_agent: a.has("--no-agent"),
    };
    let written_at = match a.value("--written-at") {
        Some(v) => v.parse::<u64>().map_err(|_| {
            Failure(format!("--written-at wants milliseconds since 1970, got {v}"), true)
        })?,
        None => now_ms(),
    };
    let text = read_all(path, "read")?;
    if !looks_like_claude_log(&text) {
        return fail(format!(
            "{path} is not a Claude Code session .jsonl (no user or assistant records in it)"
        ));
    }
    let sid = a
        .value("--sid")
        .map(str::to_owned)
        .or_else(|| items::session_id(&text))
        .or_else(|| file_name(path).map(|n| n.trim_end_matches(".jsonl").to_owned()))
        .unwrap_or_default();
    let subject =
        DumpSubject { sid, agent_id: a.value("--agent-id").map(str::to_owned), written_at };
    let all = classify_with_progress(&text);
    let file = items::dump_file(&subject, &items::selection(&ask, &presets), &all);
    let json = serde_json::to_string_pretty(&file)
        .map_err(|e| Failure(format!("cannot encode the dump: {e}"), false))?;
    let mut out = Out::new();
    out.line(&json)?;
    out.finish()
}

/// Classifies the text chunk by chunk (newline-aligned, about 1 MiB each) so a big file
/// shows progress; links into earlier chunks' items come back as updates and are applied.
fn classify_with_progress(text: &str) -> Vec<items::Item> {
    let bar = progress(Some(text.len() as u64), "classify");
    let mut reading = items::Classification::new();
    let mut all: Vec<items::Item> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + (1 << 20)).min(text.len());
        if end < text.len() {
            end = text.as_bytes()[end..]
                .iter()
                .position(|b| *b == b'\n')
                .map_or(text.len(), |i| end + i + 1);
        }
        let chunk = reading.read_chunk(&text[at..end], at as u64);
        for u in chunk.updates {
            if let Some(item) = usize::try_from(u.ordinal).ok().and_then(|i| all.get_mut(i)) {
                item.insert(u.field, u.value);
            }
        }
        all.extend(chunk.items);
        bar.inc((end - at) as u64);
        at = end;
    }
    bar.finish_and_clear();
    all
}

/// A dump is of a Claude Code session log: at least one JSON record of type user or
/// assistant (a text file or another harness's log would dump as nothing, silently).
fn looks_like_claude_log(text: &str) -> bool {
    text.lines().any(|l| {
        serde_json::from_str::<serde_json::Value>(l)
            .ok()
            .and_then(|v| {
                v.get("type").and_then(|t| t.as_str()).map(|t| t == "user" || t == "assistant")
            })
            .unwrap_or(false)
    })
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
fn now_iso() -> String {
    let ms = now_ms();
    let (days, rest) = ((ms / 86_400_000) as i64, ms % 86_400_000);
    let (y, m, d) = agentlines::parser::civil_from_days(days);
    let (h, min, s, milli) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}
