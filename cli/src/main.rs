//! `agentlines`: the native command line over the same core the WebAssembly package uses.
//!
//! - `parse`: what an agent CLI printed (one line per event), or a Paperclip stored run log
//!   (detected), → transcript entries, one JSON object per line; streamed line by line, the
//!   output flushed whenever the input has to wait (`tail -f log | agentlines parse`).
//! - `session`: a whole transcript file → the normalized session JSON.
//! - `dump`: a Claude Code session `.jsonl` → a `SessionDumpFile` JSON of selected items.
//! - `completions SHELL`: a shell completion script.
//!
//! Arguments are read by clap (per-subcommand `--help`, suggestions, completions). With no
//! file, a piped or redirected standard input is read, as jq and ripgrep do. Bad input
//! prints `agentlines: <why>` and exits with status 2; nothing panics. docs/cli.md has the
//! whole reference; `io.rs` the input/output mechanics.

mod io;

use agentlines::items::{self, check_selection, dump_config, Ask, DumpPreset, DumpSubject};
use agentlines::runlog;
use agentlines::sessions::{self, TranscriptInput, TranscriptReader};
use agentlines::parser::{parse_line_stamped, TsOf};
use agentlines::{Entry, Format, StdoutParser};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use io::{fail, Failure, Out};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

const EXAMPLES: &str = "Examples:
  agentlines parse run.jsonl                  # agent stdout or a Paperclip run log
  tail -f run.log | agentlines parse          # live: one flush per line that arrives
  agentlines parse --format codex --ts 2026-01-01T00:00:00Z a.log b.log
  agentlines session ~/.claude/projects/x/session.jsonl
  agentlines dump session.jsonl --select 'message,tool,-tool:Read'
  agentlines completions bash > /etc/bash_completion.d/agentlines";

/// Turns what coding agents print into a clean transcript (the same core as the npm package).
#[derive(Parser)]
#[command(name = "agentlines", version, after_help = EXAMPLES, subcommand_required = true)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Agent stdout (JSON lines or text) or a Paperclip run log -> transcript entries (JSON lines)
    #[command(after_help = PARSE_NOTES)]
    Parse(ParseArgs),
    /// A transcript file -> the normalized session (JSON)
    #[command(after_help = WHOLE_INPUT)]
    Session(SessionArgs),
    /// A Claude Code session .jsonl -> a SessionDumpFile of the selected items (JSON)
    #[command(after_help = DUMP_NOTES)]
    Dump(DumpArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

const PARSE_NOTES: &str = "Input: each FILE in turn, each with a fresh parser; `-` or no FILE with a piped \
standard input reads standard input. A file whose first line is a Paperclip run-log row \
{\"ts\",\"stream\",\"chunk\",\"seq\"?} is read as a run log (see --input).

Memory: agent stdout is streamed line by line (memory is one line plus the parser's capped \
state) and the output is flushed whenever the input has to wait. A run log is read whole \
(its rows are reordered by seq), at most --max-input bytes.

Timestamps: without --ts, a line that is a JSON record with its own top-level \"timestamp\" \
(session files, Gemini events) gets it, later lines without one the last seen, lines before \
any the time the command started. In a run log every line gets the ts of the row it begins in. \
--ts replaces all of these; --ts with --record-ts only the start time.

Run logs: rows are ordered by seq, chunks joined per stream into lines; docs/runlog.md has \
the rules.

Exit status: 0 on success, 2 on a usage error or bad input (one line `agentlines: <why>` on \
standard error).";

const WHOLE_INPUT: &str = "Memory: the reader needs the whole file, so it is read whole, at most \
--max-input bytes (default 256M), from a file or from standard input alike.";

const DUMP_NOTES: &str = "Memory: the file is read and classified in 1 MiB chunks (the text is not \
kept); the classified items are held until the end, because later records link back into \
earlier items. At most --max-input bytes are read (default 256M).";

/// Default `--max-input` for what must be held whole.
const MAX_INPUT: &str = "256M";

#[derive(Args)]
struct ParseArgs {
    /// Files to read (`-` for standard input)
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    /// The runtime, instead of detecting it from the stream
    #[arg(long, value_name = "NAME", value_parser = Choice::formats())]
    format: Option<String>,
    /// Parse each line on its own (what the host's parseStdoutLine does)
    #[arg(long)]
    stateless: bool,
    /// Give every entry this time (RFC 3339, like 2026-01-02T03:04:05.000Z)
    #[arg(long, value_name = "TIME", value_parser = timestamp)]
    ts: Option<String>,
    /// With --ts: still use the timestamps records carry, --ts only where they carry none
    #[arg(long)]
    record_ts: bool,
    /// What the input is: detected from its first line, agent stdout, or a Paperclip run log
    #[arg(long, value_enum, default_value_t = InputKind::Auto)]
    input: InputKind,
    /// Largest run log read whole (bytes; K, M, G suffixes)
    #[arg(long, value_name = "SIZE", default_value = MAX_INPUT, value_parser = io::parse_size)]
    max_input: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum InputKind {
    Auto,
    Stdout,
    RunLog,
}

#[derive(Args)]
struct SessionArgs {
    /// The transcript file (`-`, or none with a piped standard input: standard input)
    #[arg(value_name = "FILE")]
    file: Option<String>,
    /// The reader, instead of trying each
    #[arg(long, value_name = "READER", value_parser = Choice::readers())]
    format: Option<String>,
    /// Largest input read (bytes; K, M, G suffixes)
    #[arg(long, value_name = "SIZE", default_value = MAX_INPUT, value_parser = io::parse_size)]
    max_input: u64,
}

#[derive(Args)]
struct DumpArgs {
    /// The Claude Code session .jsonl (`-`, or none with a piped standard input: standard input)
    #[arg(value_name = "FILE")]
    file: Option<String>,
    /// Comma-separated types, prefixes, -exclusions, @presets and `ids`, applied left to right
    #[arg(long, value_name = "LIST")]
    select: Option<String>,
    /// JSON with presets: a config's dump section, or a whole config holding one
    #[arg(long, value_name = "FILE")]
    presets: Option<String>,
    /// Drop thinking items (applied last)
    #[arg(long)]
    no_thinking: bool,
    /// Drop agents' briefs and answers (applied last)
    #[arg(long)]
    no_agent: bool,
    /// The dump's sid (default: the transcript's sessionId, else the file name)
    #[arg(long, value_name = "SID")]
    sid: Option<String>,
    /// The dump's agent_id
    #[arg(long, value_name = "ID")]
    agent_id: Option<String>,
    /// The dump's written_at, milliseconds since 1970 (default: now)
    #[arg(long, value_name = "MS")]
    written_at: Option<u64>,
    /// Largest input read (bytes; K, M, G suffixes)
    #[arg(long, value_name = "SIZE", default_value = MAX_INPUT, value_parser = io::parse_size)]
    max_input: u64,
}

/// A string option with a fixed set of names: offered to completions and suggestions, and
/// refused with `unknown <what> X (known: …)`.
#[derive(Clone)]
struct Choice {
    what: &'static str,
    names: Vec<&'static str>,
}

impl Choice {
    fn formats() -> Choice {
        let mut names = vec!["auto"];
        names.extend(Format::JSON.iter().chain([Format::Plain].iter()).map(|f| f.name()));
        Choice { what: "format", names }
    }

    fn readers() -> Choice {
        Choice {
            what: "reader",
            names: vec!["autodetect", "claude-code", "codex", "molecule-ide"],
        }
    }

    /// Names also accepted (not offered).
    fn alias(&self, s: &str) -> bool {
        match self.what {
            "format" => s == "autodetect" || Format::from_name(s).is_some(),
            _ => matches!(s, "auto" | "claude" | "molecule"),
        }
    }
}

impl TypedValueParser for Choice {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let s = value.to_string_lossy();
        if self.names.contains(&s.as_ref()) || self.alias(&s) {
            return Ok(s.into_owned());
        }
        let msg = format!("unknown {} {s} (known: {})", self.what, self.names.join(", "));
        Err(clap::Error::raw(ErrorKind::InvalidValue, msg + "\n").with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(*n))))
    }
}

fn timestamp(s: &str) -> Result<String, String> {
    if runlog::is_timestamp(s) {
        Ok(s.to_owned())
    } else {
        Err("not an RFC 3339 time (like 2026-01-02T03:04:05.000Z)".to_owned())
    }
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => usage_error(e),
    };
    if !io::stdout_is_open() {
        eprintln!("agentlines: standard output is closed: the output would be lost");
        std::process::exit(2);
    }
    let result = match cli.cmd {
        Cmd::Parse(a) => parse_cmd(a),
        Cmd::Session(a) => session_cmd(a),
        Cmd::Dump(a) => dump_cmd(a),
        Cmd::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "agentlines", &mut std::io::stdout());
            Ok(())
        }
    };
    if let Err(Failure(msg)) = result {
        eprintln!("agentlines: {msg}");
        std::process::exit(2);
    }
}

/// clap's errors as ours: `agentlines: <why>` on the first line (exit 2), then clap's tips
/// and usage; `--help` and `--version` print to stdout and exit 0.
fn usage_error(e: clap::Error) -> ! {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        std::process::exit(0);
    }
    let ctx = |k| match e.get(k) {
        Some(ContextValue::String(s)) => s.clone(),
        _ => String::new(),
    };
    let rendered = e.render().to_string();
    let mut lines = rendered.lines();
    let first = lines.next().unwrap_or("").trim_start_matches("error: ").to_owned();
    let why = match e.kind() {
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "no command (parse, session, dump or completions)".to_owned()
        }
        ErrorKind::InvalidSubcommand => format!("unknown command {}", ctx(ContextKind::InvalidSubcommand)),
        ErrorKind::UnknownArgument => format!("unknown option {}", ctx(ContextKind::InvalidArg)),
        _ => first,
    };
    eprintln!("agentlines: {why}");
    let rest: Vec<&str> = lines.collect();
    if !rest.is_empty() {
        eprintln!("{}", rest.join("\n"));
    }
    std::process::exit(2);
}

fn file_name(path: &str) -> Option<String> {
    (path != "-")
        .then(|| Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()))
        .flatten()
}

fn one_input(file: &Option<String>) -> Result<String, Failure> {
    Ok(io::inputs(file.as_slice())?.remove(0))
}

/// Where each entry's `ts` comes from (see PARSE_NOTES).
struct Stamps {
    fixed: Option<String>,
    records: bool,
    last: String,
}

impl Stamps {
    /// The `ts` of `line`, `value` its object as the parser read it (`parse_line_stamped`:
    /// the line is parsed once for both).
    fn of(&mut self, line: &str, value: Option<&agentlines::json::Value>) -> String {
        if self.records {
            if let Some(t) = runlog::record_timestamp_of(line, value) {
                self.last = t;
            }
            return self.last.clone();
        }
        self.fixed.clone().unwrap_or_else(|| self.last.clone())
    }
}

fn parse_cmd(a: ParseArgs) -> Result<(), Failure> {
    let files = io::inputs(&a.files)?;
    let format = match a.format.as_deref() {
        None | Some("auto") | Some("autodetect") => None,
        Some(name) => Format::from_name(name),
    };
    let start = a.ts.clone().unwrap_or_else(now_iso);
    let mut out = Out::new();
    for path in &files {
        let mut stamps =
            Stamps { fixed: a.ts.clone(), records: a.ts.is_none() || a.record_ts, last: start.clone() };
        let mut parser = format.map(StdoutParser::with_format).unwrap_or_default();
        let mut one = |line: &str, ts_of: TsOf| -> Vec<Entry> {
            match a.stateless {
                true => parse_line_stamped(format, line, ts_of),
                false => parser.parse_line_stamped(line, ts_of),
            }
        };
        parse_file(path, &a, &mut stamps, &mut one, &mut out)?;
    }
    out.flush()
}

fn write_entries(out: &mut Out, entries: &[Entry]) -> Result<(), Failure> {
    for e in entries {
        out.entry_line(e)?;
    }
    Ok(())
}

fn parse_file(
    path: &str,
    a: &ParseArgs,
    stamps: &mut Stamps,
    one: &mut dyn FnMut(&str, TsOf) -> Vec<Entry>,
    out: &mut Out,
) -> Result<(), Failure> {
    let (input, size) = io::open(path)?;
    let bar = io::progress(size, "parse");
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut raw = Vec::new();
    let mut decided = a.input != InputKind::Auto;
    if a.input == InputKind::RunLog {
        return parse_run_log(path, String::new(), &mut reader, a, stamps, one, out, &bar);
    }
    // The bar advances per MiB, not per line (`inc` per line was 1% of a run).
    let mut unshown = 0u64;
    while let Some((bytes, taken)) = next_line(&mut reader, &mut raw, out, path)? {
        unshown += bytes.len() as u64;
        if unshown >= 1 << 20 {
            bar.inc(std::mem::take(&mut unshown));
        }
        // A SIMD check first (simdutf8: ~4x std's `from_utf8`, which was ~10% of a run, and
        // std's several times the lossy one's); only invalid lines pay for the lossy copy.
        let text = match simdutf8::basic::from_utf8(bytes) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        let line = text.strip_suffix('\n').unwrap_or(&text);
        if !decided && !line.trim().is_empty() {
            decided = true;
            if runlog::read_row(line).is_some() {
                let head = text.into_owned();
                reader.consume(taken);
                bar.inc(unshown);
                return parse_run_log(path, head, &mut reader, a, stamps, one, out, &bar);
            }
        }
        write_entries(out, &one(line, &mut |v| stamps.of(line, v)))?;
        reader.consume(taken);
    }
    bar.finish_and_clear();
    Ok(())
}

/// The next line of `reader` (with its `\n`, unless it is the last and has none) and how
/// many of the reader's buffered bytes it takes (to `consume` once the line is read);
/// `None` at the end. A line that lies in the reader's buffer is used where it lies (no
/// copy, as `read_until` made); one that spans reads is gathered in `raw`. When nothing
/// complete is buffered the next read may wait (a pipe, `tail -f`), so what was parsed so
/// far is flushed first.
fn next_line<'r>(
    reader: &'r mut BufReader<Box<dyn std::io::Read>>,
    raw: &'r mut Vec<u8>,
    out: &mut Out,
    path: &str,
) -> Result<Option<(&'r [u8], usize)>, Failure> {
    raw.clear();
    loop {
        if let Some(i) = memchr::memchr(b'\n', reader.buffer()) {
            if raw.is_empty() {
                return Ok(Some((&reader.buffer()[..=i], i + 1)));
            }
            raw.extend_from_slice(&reader.buffer()[..=i]);
            return Ok(Some((&raw[..], i + 1)));
        }
        out.flush()?;
        let part = reader.buffer().len();
        raw.extend_from_slice(reader.buffer());
        reader.consume(part);
        let more = match reader.fill_buf() {
            Ok(more) => more,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return fail(format!("cannot read {}: {}", io::name_of(path), io::io_reason(&e))),
        };
        if more.is_empty() {
            return Ok((!raw.is_empty()).then_some((&raw[..], 0)));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn parse_run_log(
    path: &str,
    head: String,
    reader: &mut dyn std::io::Read,
    a: &ParseArgs,
    stamps: &mut Stamps,
    one: &mut dyn FnMut(&str, TsOf) -> Vec<Entry>,
    out: &mut Out,
    bar: &indicatif::ProgressBar,
) -> Result<(), Failure> {
    let rest = io::read_bounded(reader, path, a.max_input, head.len() as u64, bar)?;
    bar.finish_and_clear();
    let text = head + &io::lossy(rest);
    if !text.trim().is_empty() && !runlog::is_run_log(&text) {
        return fail(format!(
            "{} is not a Paperclip run log: its first line is not a {{\"ts\",\"stream\",\"chunk\"}} \
             row (without --input run-log it is read as agent stdout)",
            io::name_of(path)
        ));
    }
    let fallback = stamps.fixed.clone().unwrap_or_else(|| stamps.last.clone());
    // `--ts` alone gives every entry that time; with `--record-ts` the rows' own ts win.
    let fixed = if stamps.records { None } else { stamps.fixed.as_deref() };
    write_entries(out, &runlog::parse(&text, &fallback, fixed, |l, ts| one(l, &mut |_| ts.to_owned())))
}

fn session_cmd(a: SessionArgs) -> Result<(), Failure> {
    let path = one_input(&a.file)?;
    let reader: Box<dyn TranscriptReader> = match a.format.as_deref().unwrap_or("autodetect") {
        "claude-code" | "claude" => Box::new(sessions::ClaudeCodeReader),
        "codex" => Box::new(sessions::CodexReader),
        "molecule-ide" | "molecule" => Box::new(sessions::MoleculeIdeReader),
        _ => Box::new(sessions::autodetect()),
    };
    let text = io::read_all(&path, "read", a.max_input)?;
    let input = TranscriptInput { text, file_name: file_name(&path) };
    let session = reader.read(&input).map_err(|e| Failure(e.0))?;
    drop(input);
    let mut out = Out::new();
    out.json_pretty(&session)?;
    out.flush()
}

/// Reads a presets file: a config's `dump` section, or a config holding one.
fn presets_from(path: &str) -> Result<Vec<DumpPreset>, Failure> {
    let text = io::read_all(path, "presets", 64 << 20)?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Failure(format!("presets file {path} is not JSON: {e}")))?;
    let section = v.get("dump").unwrap_or(&v);
    dump_config(Some(section)).map_err(|m| Failure(format!("presets file {path}: {m}")))
}

fn dump_cmd(a: DumpArgs) -> Result<(), Failure> {
    let path = one_input(&a.file)?;
    let presets = match &a.presets {
        Some(p) => presets_from(p)?,
        None => Vec::new(),
    };
    let types: Vec<String> = a
        .select
        .as_deref()
        .map(|s| s.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect())
        .unwrap_or_default();
    check_selection(&types, &presets).map_err(|m| Failure(format!("bad --select: {m}")))?;
    let ask = Ask { types, preset: None, no_thinking: a.no_thinking, no_agent: a.no_agent };
    let written_at = a.written_at.unwrap_or_else(now_ms);
    // Classified chunk by chunk (newline-aligned, about 1 MiB each); links into earlier
    // chunks' items come back as updates and are applied.
    let mut reading = items::Classification::new();
    let mut all: Vec<items::Item> = Vec::new();
    let (mut claude, mut sid) = (false, None);
    io::read_chunks(&path, "classify", 1 << 20, a.max_input, |text, at| {
        claude = claude || looks_like_claude_log(text);
        if sid.is_none() {
            sid = items::session_id(text);
        }
        let chunk = reading.read_chunk(text, at);
        for u in chunk.updates {
            if let Some(item) = usize::try_from(u.ordinal).ok().and_then(|i| all.get_mut(i)) {
                item.insert(u.field, u.value);
            }
        }
        all.extend(chunk.items);
    })?;
    if !claude {
        return fail(format!(
            "{} is not a Claude Code session .jsonl (no user or assistant records in it)",
            io::name_of(&path)
        ));
    }
    let sid = a
        .sid
        .clone()
        .or(sid)
        .or_else(|| file_name(&path).map(|n| n.trim_end_matches(".jsonl").to_owned()))
        .unwrap_or_default();
    let subject = DumpSubject { sid, agent_id: a.agent_id.clone(), written_at };
    let file = items::dump_file(&subject, &items::selection(&ask, &presets), &all);
    drop(all);
    let mut out = Out::new();
    out.json_pretty(&file)?;
    out.flush()
}

/// A dump is of a Claude Code session log: at least one JSON record of type user or
/// assistant (a text file or another harness's log would dump as nothing, silently).
fn looks_like_claude_log(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Typed<'a> {
        #[serde(borrow, rename = "type")]
        ty: Option<&'a str>,
    }
    text.lines().any(|l| {
        serde_json::from_str::<Typed>(l)
            .ok()
            .and_then(|v| v.ty)
            .is_some_and(|t| t == "user" || t == "assistant")
    })
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
fn now_iso() -> String {
    let ms = now_ms();
    let (days, rest) = ((ms / 86_400_000) as i64, ms % 86_400_000);
    let (y, m, d) = agentlines::time::civil_from_days(days);
    let (h, min, s, milli) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}
