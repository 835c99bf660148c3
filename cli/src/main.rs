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
mod render;
mod stats;

/// mimalloc rather than the system's allocator: see cli/Cargo.toml.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use agentlines::items::{self, check_selection, dump_config, Ask, DumpPreset, DumpSubject};
use agentlines::runlog;
use agentlines::sessions::{self, TranscriptInput, TranscriptReader};
use agentlines::parser::{parse_line_stamped_runtime, TsOf};
use agentlines::{Entry, Format, StdoutParser};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use io::{fail, Failure, Out};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

const EXAMPLES: &str = "Examples:
  agentlines parse run.jsonl                  # agent stdout or a Paperclip run log
  tail -f run.log | agentlines parse          # live: one flush per line that arrives
  agentlines parse -o text run.jsonl          # readable text (or -o markdown)
  agentlines stats runs/*.jsonl               # tokens, cost, time per tool, errors
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
    /// Agent stdout (JSON lines or text) or a Paperclip run log -> transcript entries
    #[command(after_help = PARSE_NOTES)]
    Parse(ParseArgs),
    /// Tokens, cost, time per tool and errors of runs, per file and in total
    #[command(after_help = STATS_NOTES)]
    Stats(StatsArgs),
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
standard input reads standard input. A FOLDER stands for the log files under it, recursively \
(.jsonl, .json, .ndjson, .log, .txt); a quoted PATTERN ('runs/**/*.jsonl') for the files it matches. A file whose first line is a Paperclip run-log row \
{\"ts\",\"stream\",\"chunk\",\"seq\"?} is read as a run log (see --input). A file whose first \
8 KiB hold a NUL byte is binary, not agent output, and is refused.

Output: JSON Lines of the host's entries (--output jsonl, the default), readable text \
(--output text), a Markdown transcript (--output markdown), or one HTML file of the run \
that opens offline in any browser: the run viewer with the run in it (--output html, one \
file at a time). With several files, or with \
--location, each entry names its file and line: {\"file\",\"line\",\"kind\",…} in JSON Lines, \
`file:line:` in text, a heading per file in Markdown.

Parser: the stateful one by default (tool results paired with their calls, durations, \
streamed deltas merged as they arrive); --stateless gives exactly what the host's default \
ui-parser file (parseStdoutLine) shows for each line.

Memory: agent stdout is streamed line by line (memory is one line plus the parser's capped \
state; a line over 16 MiB keeps its first 64 KiB and its length) and the output is flushed \
whenever the input has to wait. A run log is read whole (its rows are reordered by seq), at \
most --max-input bytes (256M when not given). With --max-input, reading stops there.

Timestamps: without --ts, a line that is a JSON record with its own top-level \"timestamp\" \
(session files, Gemini events) gets it; other lines of a file get the last one seen, or the \
time the command started; lines from standard input get the time they arrived. In a run log \
every line gets the ts of the row it begins in. --ts replaces all of these; --ts with \
--record-ts only where a record carries none.

Run logs: rows are ordered by seq, chunks joined per stream into lines; docs/runlog.md has \
the rules.

Exit status: 0 when every input was read; 1 when one could not be read (missing, unreadable); \
2 on a usage error, or when an input was refused (binary, over --max-input, not a run log). \
Each problem is one line `agentlines: <why>` on standard error, and the other files are still \
read.";

const STATS_NOTES: &str = "Reads its inputs as parse does (same options; folders and patterns too), \
each file a run, on every core, then prints per file and in total: the runtime; entries by kind; \
tokens in one meaning for every runtime (uncached input, cache reads, cache writes, output with \
reasoning), summed over the result entries the Paperclip host's run summary counts; the cost: \
the log's own where it states one, else estimated from list prices model by model, marked with \
≈ (unknown model where a model has no price); the runs' own durations; errors (stderr entries, \
failed tool results, failed results); per tool its calls, errors, failure rate, time and p50/p95 \
durations; and in the total, breakdowns by model, runtime and day. A model call an earlier file \
counted (a resumed session repeats it) counts once. docs/costs.md says what each count means \
per runtime and where prices come from.

Exit status: as parse.";

const WHOLE_INPUT: &str = "Memory: the reader needs the whole file, so it is read whole, at most \
--max-input bytes (default 256M), from a file or from standard input alike.";

const DUMP_NOTES: &str = "Memory: the file is read and classified in 1 MiB chunks (the text is not \
kept); the classified items are held until the end, because later records link back into \
earlier items. At most --max-input bytes are read (default 256M).";

/// Default `--max-input` for what must be held whole.
const MAX_INPUT: &str = "256M";

/// What `parse` and `stats` read, and how.
#[derive(Args)]
struct ReadArgs {
    /// Files to read (`-` for standard input)
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    /// The runtime, instead of detecting it from the stream
    #[arg(long, value_name = "NAME", value_parser = Choice::formats())]
    format: Option<String>,
    /// Parse each line on its own, as the host's default file does (parseStdoutLine)
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
    /// Stop reading an input past this many bytes (K, M, G suffixes); a run log, which is
    /// read whole, is refused past 256M when no limit is given
    #[arg(long, value_name = "SIZE", value_parser = io::parse_size)]
    max_input: Option<u64>,
}

#[derive(Args)]
struct ParseArgs {
    #[command(flatten)]
    read: ReadArgs,
    /// How entries are written
    #[arg(long, short = 'o', value_enum, default_value_t = render::Output::Jsonl)]
    output: render::Output,
    /// Only these entry kinds (comma-separated, e.g. assistant,tool_call,tool_result), or all
    /// but some (-system,-diff)
    #[arg(long, value_name = "KINDS", allow_hyphen_values = true)]
    kind: Option<String>,
    /// Name each entry's file and line (always on with several files)
    #[arg(long)]
    location: bool,
}

#[derive(Args)]
struct StatsArgs {
    #[command(flatten)]
    read: ReadArgs,
    /// A JSON report instead of text (every breakdown, integer token counts)
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV of one breakdown (--by; per file when not given)
    #[arg(long)]
    csv: bool,
    /// Only this breakdown: one line per file, day (UTC), model, tool or runtime
    #[arg(long, value_enum, value_name = "WHAT")]
    by: Option<StatsBy>,
    /// Files read at once (default: one per core)
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum StatsBy {
    File,
    Day,
    Model,
    Tool,
    Runtime,
}

impl StatsBy {
    fn name(self) -> &'static str {
        match self {
            StatsBy::File => "file",
            StatsBy::Day => "day",
            StatsBy::Model => "model",
            StatsBy::Tool => "tool",
            StatsBy::Runtime => "runtime",
        }
    }
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
        names.extend(Format::JSON.iter().chain(Format::TEXT.iter()).map(|f| f.name()));
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
        Cmd::Stats(a) => stats_cmd(a),
        Cmd::Session(a) => session_cmd(a).map(|()| 0),
        Cmd::Dump(a) => dump_cmd(a).map(|()| 0),
        Cmd::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "agentlines", &mut std::io::stdout());
            Ok(0)
        }
    };
    match result {
        Ok(status) => std::process::exit(status),
        Err(Failure(msg)) => {
            eprintln!("agentlines: {msg}");
            std::process::exit(2);
        }
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
            "no command (parse, stats, session, dump or completions)".to_owned()
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
    /// Standard input: a line without a time of its own gets the time it arrived.
    live: bool,
    last: String,
}

impl Stamps {
    /// The `ts` of `line`, `value` its object as the parser read it (`parse_line_stamped`:
    /// the line is parsed once for both).
    fn of(&mut self, line: &str, value: Option<&agentlines::json::Value>) -> String {
        if self.records {
            if let Some(t) = runlog::record_timestamp_of(line, value) {
                self.last = t.clone();
                return t;
            }
        }
        match &self.fixed {
            Some(t) => t.clone(),
            None if self.live => now_iso(),
            None => self.last.clone(),
        }
    }
}

/// How a file's reading ended, when it did not simply end: reported on standard error and
/// the command goes on with the next file; the exit status is the worst seen (see
/// PARSE_NOTES).
struct Skipped {
    status: i32,
    why: String,
}

/// Where `read_inputs` hands what it read: each line's entries with their origin and the
/// runtime that read the line, or `None` before a read that may wait (time to flush the
/// output).
type Sink<'s> = dyn FnMut(Option<(&[Entry], &render::Origin, Option<Format>)>) -> Result<(), Failure> + 's;

/// One line to entries, with the runtime that read it.
type ReadLine<'s> = dyn FnMut(&str, TsOf) -> (Vec<Entry>, Option<Format>) + 's;

/// The runtime `--format` names (`None`: detect it).
fn forced_format(a: &ReadArgs) -> Option<Format> {
    match a.format.as_deref() {
        None | Some("auto") | Some("autodetect") => None,
        Some(name) => Format::from_name(name),
    }
}

/// Reads one input with a fresh parser and hands each line's entries to `each`. `start` is
/// the time lines without one get (empty: none, not even the time a line arrived on standard
/// input: `stats` measures runs by their own times only); `bar`, a progress bar shared by
/// several inputs (else the file gets its own when big).
fn read_one(
    path: &str,
    a: &ReadArgs,
    start: &str,
    each: &mut Sink,
    bar: Option<&indicatif::ProgressBar>,
) -> Result<Option<Skipped>, Failure> {
    let format = forced_format(a);
    let mut stamps = Stamps {
        fixed: a.ts.clone(),
        records: a.ts.is_none() || a.record_ts,
        live: path == "-" && !start.is_empty(),
        last: start.to_owned(),
    };
    let mut parser = format.map(StdoutParser::with_format).unwrap_or_default();
    let mut one = |line: &str, ts_of: TsOf| -> (Vec<Entry>, Option<Format>) {
        match a.stateless {
            true => parse_line_stamped_runtime(format, line, ts_of),
            false => {
                let entries = parser.parse_line_stamped(line, ts_of);
                (entries, parser.line_runtime())
            }
        }
    };
    let name = io::name_of(path).to_owned();
    parse_file(path, &name, a, &mut stamps, &mut one, each, bar)
}

/// Reads every input of `parse` in turn (folders and patterns expanded, `io::expand`), one
/// fresh parser per file, and hands each line's entries to `each` with where they came from.
/// `file_done` is called after each file, with whether it was skipped unread. Returns the
/// exit status: 0, or the worst of the files that could not be read (1: missing, unreadable,
/// a folder or pattern with no log; 2: refused, e.g. binary or over --max-input).
fn read_inputs(
    a: &ReadArgs,
    expanded: &io::Expanded,
    start: &str,
    each: &mut Sink,
    file_done: &mut dyn FnMut(&str),
) -> Result<i32, Failure> {
    let mut status = 0;
    let mut problems = expanded.problems.iter().peekable();
    for (i, path) in expanded.paths.iter().enumerate() {
        status = status.max(report_problems(&mut problems, i, None));
        if let Some(Skipped { status: s, why }) = read_one(path, a, start, each, None)? {
            eprintln!("agentlines: {why}");
            status = status.max(s);
        }
        file_done(io::name_of(path));
    }
    status = status.max(report_problems(&mut problems, usize::MAX, None));
    Ok(status)
}

/// Names on standard error what the command line named and nothing came of (a folder with
/// no log, a pattern that matched nothing), for the places before file `upto` in the order
/// given (`usize::MAX`: all that are left), above a progress bar if there is one; the exit
/// status that earns (1), or 0.
fn report_problems<'p>(
    problems: &mut std::iter::Peekable<impl Iterator<Item = &'p (usize, String)>>,
    upto: usize,
    bar: Option<&indicatif::ProgressBar>,
) -> i32 {
    let mut status = 0;
    while let Some((_, why)) = problems.next_if(|(at, _)| *at <= upto) {
        match bar {
            Some(bar) => bar.suspend(|| eprintln!("agentlines: {why}")),
            None => eprintln!("agentlines: {why}"),
        }
        status = 1;
    }
    status
}

fn parse_cmd(a: ParseArgs) -> Result<i32, Failure> {
    let kinds = match &a.kind {
        Some(list) => Some(kind_filter(list)?),
        None => None,
    };
    let expanded = io::expand(&a.read.files)?;
    if a.output == render::Output::Html && expanded.paths.len() > 1 {
        return fail(format!(
            "-o html writes one run's page and {} files were given: run it once per file (e.g. for f in *.jsonl; do agentlines parse -o html \"$f\" > \"$f.html\"; done)",
            expanded.paths.len()
        ));
    }
    let located = a.location || expanded.paths.len() > 1;
    // Several files, none of them standard input: read on every core, written in the order
    // given (a live input is read alone, its entries written as its lines come).
    if expanded.paths.len() > 1 && !expanded.paths.iter().any(|p| p == "-") {
        return parse_parallel(&a, &expanded, kinds.as_deref(), located);
    }
    let mut renderer = render::Renderer::new(a.output, located);
    let start = a.read.ts.clone().unwrap_or_else(now_iso);
    renderer.set_start(&start);
    let mut out = Out::new();
    let mut buf = String::new();
    let status = read_inputs(
        &a.read,
        &expanded,
        &start,
        &mut |got| {
            let Some((entries, at, runtime)) = got else {
                // The input waits: what has come shows now, streamed pieces included.
                renderer.settle(&mut buf);
                out.text(&buf)?;
                buf.clear();
                return out.flush();
            };
            renderer.runtime = runtime;
            for e in entries {
                if kinds.as_ref().map_or(true, |k| k.contains(&e.kind())) {
                    renderer.entry(e, at, &mut buf);
                }
            }
            out.text(&buf)?;
            buf.clear();
            Ok(())
        },
        &mut |_| {},
    )?;
    renderer.finish(&mut buf);
    out.text(&buf)?;
    out.flush()?;
    Ok(status)
}

/// What a `parse` worker hands the writer for one file: rendered output, then how the file
/// ended.
enum Parsed {
    Text(String),
    Done(Result<Option<Skipped>, Failure>),
}

/// Rendered output handed over in pieces of about this size, at most `PARSE_AHEAD` of them
/// waiting per file: a worker ahead of the writer holds at most 8 MiB of output before it
/// waits (with 4 pieces, the second core spent most of its time waiting: 1.08x one core).
const PARSE_CHUNK: usize = 256 << 10;
const PARSE_AHEAD: usize = 32;

/// `parse` over several files on every core: each worker takes the next file, renders it with
/// its own renderer and hands the text over in pieces through that file's bounded channel;
/// the writer empties the channels in the order the files were given, so the output is the
/// one-file-after-another output, and a worker ahead of the writer waits once its channel is
/// full (memory stays a few pieces per core).
fn parse_parallel(a: &ParseArgs, expanded: &io::Expanded, kinds: Option<&[&'static str]>, located: bool) -> Result<i32, Failure> {
    let paths = &expanded.paths;
    let start = a.read.ts.clone().unwrap_or_else(now_iso);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, paths.len());
    let total_bytes: u64 = paths.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let bar = io::progress(Some(total_bytes), "parse");
    let (senders, receivers): (Vec<_>, Vec<_>) = paths.iter().map(|_| std::sync::mpsc::sync_channel::<Parsed>(PARSE_AHEAD)).unzip();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out = Out::new();
    let mut status = 0;
    let mut problems = expanded.problems.iter().peekable();
    std::thread::scope(|scope| -> Result<(), Failure> {
        for _ in 0..jobs {
            let (senders, next, bar, start) = (&senders, &next, &bar, &start);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                let tx = &senders[i];
                let mut renderer = render::Renderer::new(a.output, located);
                let mut buf = String::new();
                let read = read_one(
                    path,
                    &a.read,
                    start,
                    &mut |got| {
                        if let Some((entries, at, _)) = got {
                            for e in entries {
                                if kinds.map_or(true, |k| k.contains(&e.kind())) {
                                    renderer.entry(e, at, &mut buf);
                                }
                            }
                            if buf.len() >= PARSE_CHUNK && tx.send(Parsed::Text(std::mem::take(&mut buf))).is_err() {
                                return fail("the writer stopped");
                            }
                        }
                        Ok(())
                    },
                    Some(bar),
                );
                renderer.finish(&mut buf);
                if !buf.is_empty() && tx.send(Parsed::Text(buf)).is_err() {
                    break;
                }
                if tx.send(Parsed::Done(read)).is_err() {
                    break;
                }
            });
        }
        for (i, rx) in receivers.into_iter().enumerate() {
            status = status.max(report_problems(&mut problems, i, Some(&bar)));
            for got in rx.iter() {
                match got {
                    Parsed::Text(text) => bar.suspend(|| out.text(&text))?,
                    Parsed::Done(read) => {
                        if let Some(Skipped { status: s, why }) = read? {
                            bar.suspend(|| eprintln!("agentlines: {why}"));
                            status = status.max(s);
                        }
                        break;
                    }
                }
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    status = status.max(report_problems(&mut problems, usize::MAX, None));
    out.flush()?;
    Ok(status)
}

/// `--kind assistant,tool_call` (only these) or `--kind -system,-diff` (all but these): the
/// host's kinds, checked; a list that starts with an exclusion starts from every kind.
fn kind_filter(list: &str) -> Result<Vec<&'static str>, Failure> {
    let items: Vec<&str> = list.split(',').map(str::trim).filter(|k| !k.is_empty()).collect();
    let mut kinds: Vec<&'static str> = match items.first() {
        Some(first) if first.starts_with('-') => ENTRY_KINDS.to_vec(),
        _ => Vec::new(),
    };
    for item in items {
        let (drop, k) = match item.strip_prefix('-') {
            Some(k) => (true, k.trim()),
            None => (false, item),
        };
        match ENTRY_KINDS.iter().find(|known| **known == k) {
            Some(known) if drop => kinds.retain(|x| x != known),
            Some(known) if !kinds.contains(known) => kinds.push(*known),
            Some(_) => {}
            None => return fail(format!("unknown entry kind {k} in --kind (known: {})", ENTRY_KINDS.join(", "))),
        }
    }
    if kinds.is_empty() {
        return fail("--kind leaves no kind");
    }
    Ok(kinds)
}

/// The host's 17 entry kinds (docs/entries.md).
const ENTRY_KINDS: [&str; 17] = [
    "assistant", "thinking", "user", "tool_call", "tool_result", "init", "result", "stderr", "system",
    "stdout", "diff", "provider_activity", "workspace_change", "workspace_file_reference",
    "runtime_request", "run_result", "run_terminal",
];

fn stats_cmd(a: StatsArgs) -> Result<i32, Failure> {
    let expanded = io::expand(&a.read.files)?;
    let paths = &expanded.paths;
    // A run's time is its own: lines without a time of their own get none (not this command's).
    let start = a.read.ts.clone().unwrap_or_default();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, paths.len().max(1));
    // One bar over every file's bytes (standard input counts nothing), on a terminal.
    let total_bytes: u64 = paths.iter().filter(|p| *p != "-").filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let bar = io::progress(Some(total_bytes), "stats");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<(stats::Stats, Option<Skipped>), Failure>)>();
    let mut report = StatsReport::new(&a, paths.len());
    let mut status = 0;
    let mut problems = expanded.problems.iter().peekable();
    // Model calls counted so far, in the order files are given (a resumed session's file
    // repeats the calls it continues: they count under the first file that has them).
    let mut seen = std::collections::HashSet::new();
    std::thread::scope(|scope| -> Result<(), Failure> {
        for _ in 0..jobs {
            let (tx, next, bar, read, start) = (tx.clone(), &next, &bar, &a.read, &start);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                let mut run = stats::Run::default();
                let read = read_one(
                    path,
                    read,
                    start,
                    &mut |got| {
                        if let Some((entries, _, runtime)) = got {
                            for e in entries {
                                run.add(runtime, e);
                            }
                        }
                        Ok(())
                    },
                    Some(bar),
                );
                if tx.send((i, read.map(|skipped| (run.finish(), skipped)))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Files are reported in the order given, each as soon as those before it are done.
        let mut waiting = BTreeMap::new();
        let mut at = 0;
        for (i, got) in rx {
            waiting.insert(i, got);
            while let Some(got) = waiting.remove(&at) {
                status = status.max(report_problems(&mut problems, at, Some(&bar)));
                let (mut stats, skipped) = got?;
                stats.drop_repeats(&mut seen);
                if let Some(Skipped { status: s, why }) = &skipped {
                    bar.suspend(|| eprintln!("agentlines: {why}"));
                    status = status.max(*s);
                }
                // A file skipped unread (binary, missing, refused) shows nothing but its line
                // on standard error.
                if skipped.is_none() || stats.entries > 0 {
                    let text = report.file(io::name_of(&paths[at]), stats);
                    bar.suspend(|| report.out.text(&text))?;
                }
                at += 1;
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    status = status.max(report_problems(&mut problems, usize::MAX, None));
    report.finish()?;
    Ok(status)
}

/// What `stats` prints, file by file as they are done and the total at the end.
struct StatsReport {
    json: bool,
    csv: bool,
    by: Option<StatsBy>,
    /// Per-file blocks in text (up to `BLOCKS` files; past that, the total alone).
    blocks: bool,
    files: Vec<(String, stats::Stats)>,
    total: stats::Stats,
    out: Out,
    csv_header: bool,
}

/// Files up to which `stats` prints one block per file (past it, `--by file` gives a line each).
const BLOCKS: usize = 10;

impl StatsReport {
    fn new(a: &StatsArgs, files: usize) -> StatsReport {
        StatsReport {
            json: a.json,
            csv: a.csv,
            by: a.by,
            blocks: files <= BLOCKS,
            files: Vec::new(),
            total: stats::Stats::default(),
            out: Out::new(),
            csv_header: true,
        }
    }

    /// Takes one file's figures; gives what to print now.
    fn file(&mut self, name: &str, s: stats::Stats) -> String {
        self.total.merge(&s);
        let mut now = String::new();
        match (self.json, self.csv, self.by) {
            (true, _, _) => self.files.push((name.to_owned(), s)),
            (false, true, None | Some(StatsBy::File)) => {
                let [head, row] = stats::file_csv_row(name, &s);
                if std::mem::take(&mut self.csv_header) {
                    now.push_str(&stats::csv_line(&head));
                }
                now.push_str(&stats::csv_line(&row));
            }
            (false, false, Some(StatsBy::File)) => self.files.push((name.to_owned(), s)),
            (false, false, None) if self.blocks => {
                now.push_str(name);
                now.push('\n');
                now.push_str(&s.text("  ", false));
            }
            _ => {}
        }
        now
    }

    fn finish(mut self) -> Result<(), Failure> {
        let by = self.by.map(StatsBy::name);
        if self.json {
            #[derive(serde::Serialize)]
            struct Report<'a> {
                files: Vec<FileStats<'a>>,
                total: &'a stats::Stats,
                prices: Prices,
            }
            #[derive(serde::Serialize)]
            struct FileStats<'a> {
                file: &'a str,
                #[serde(flatten)]
                stats: &'a stats::Stats,
            }
            #[derive(serde::Serialize)]
            struct Prices {
                source: &'static str,
                date: &'static str,
            }
            let files = self.files.iter().map(|(file, stats)| FileStats { file, stats }).collect();
            let prices = Prices { source: agentlines::prices::SOURCE, date: agentlines::prices::DATE };
            self.out.json_pretty(&Report { files, total: &self.total, prices })?;
        } else if self.csv {
            if let Some(by) = by.filter(|b| *b != "file") {
                let text: String = stats::csv_rows(&self.total, by).iter().map(|r| stats::csv_line(r)).collect();
                self.out.text(&text)?;
            }
        } else if let Some(by) = by {
            let text = if by == "file" { stats::file_table(&self.files) } else { stats::by_table(&self.total, by) };
            self.out.text(&text)?;
        } else if self.total.runs > 1 || !self.blocks {
            let mut text = String::from("total\n");
            text.push_str(&self.total.text("  ", true));
            if !self.blocks {
                text.push_str(&format!("  ({} files: --by file for a line each)\n", self.total.runs));
            }
            if self.total.usage.total().estimated_usd > 0.0 {
                text.push_str(&format!("  ≈: estimated from {} list prices of {}\n", agentlines::prices::SOURCE, agentlines::prices::DATE));
            }
            self.out.text(&text)?;
        } else if self.total.usage.total().estimated_usd > 0.0 {
            let note = format!("  ≈: estimated from {} list prices of {}\n", agentlines::prices::SOURCE, agentlines::prices::DATE);
            self.out.text(&note)?;
        }
        self.out.flush()
    }
}

/// Reads one input. `Ok(None)`: read to its end; `Ok(Some(..))`: stopped or skipped, with
/// why (the caller reports it and goes on); `Err`: the output failed, which ends everything.
fn parse_file(
    path: &str,
    name: &str,
    a: &ReadArgs,
    stamps: &mut Stamps,
    one: &mut ReadLine,
    each: &mut Sink,
    shared_bar: Option<&indicatif::ProgressBar>,
) -> Result<Option<Skipped>, Failure> {
    let skipped = |status, why: String| Ok(Some(Skipped { status, why }));
    let (input, size) = match io::open(path) {
        Ok(opened) => opened,
        Err(Failure(why)) => return skipped(1, why),
    };
    // A file known to be over the limit is refused before any of it is read.
    let limit = a.max_input.or((a.input == InputKind::RunLog).then_some(io::DEFAULT_MAX_INPUT));
    if let (Some(max), Some(n)) = (limit, size) {
        if n > max && a.input == InputKind::Stdout {
            return skipped(2, io::too_big_streamed(path, max));
        }
        if n > max {
            return skipped(2, io::too_big(path, max));
        }
    }
    let bar = match shared_bar {
        Some(b) => b.clone(),
        None => io::progress(size, "parse"),
    };
    let mut lines = io::Lines::new(input, path, a.max_input, size.is_none());
    match lines.binary_at() {
        Err(Failure(why)) => return skipped(1, why),
        Ok(Some(at)) => {
            return skipped(
                2,
                format!("{name} is binary (a NUL byte at offset {at}), not agent output: skipped"),
            )
        }
        Ok(None) => {}
    }
    let mut decided = a.input != InputKind::Auto;
    if a.input == InputKind::RunLog {
        let read = parse_run_log(path, name, String::new(), &mut lines, a, stamps, one, each, &bar);
        if shared_bar.is_none() {
            bar.finish_and_clear();
        }
        return read;
    }
    let mut line_no = 0usize;
    let mut unshown = 0u64;
    loop {
        let line = match lines.next(&mut || each(None))? {
            io::Line::End => break,
            io::Line::Failed(Failure(why)) => return skipped(lines.failure_status(), why),
            io::Line::Whole(bytes) => bytes,
            io::Line::Overlong { len, head } => {
                line_no += 1;
                let ts = stamps.fixed.clone().unwrap_or_else(|| stamps.of("", None));
                each(Some((&agentlines::parser::overlong_line(len, &head, &ts), &render::Origin { file: name, line: line_no }, None)))?;
                continue;
            }
        };
        line_no += 1;
        // The bar advances per MiB, not per line (`inc` per line was 1% of a run).
        unshown += line.len() as u64;
        if unshown >= 1 << 20 {
            bar.inc(std::mem::take(&mut unshown));
        }
        // A SIMD check first (simdutf8: ~4x std's `from_utf8`, which was ~10% of a run, and
        // std's several times the lossy one's); only invalid lines pay for the lossy copy.
        let text = match simdutf8::basic::from_utf8(line) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(line),
        };
        let text_line = text.strip_suffix('\n').unwrap_or(&text);
        if !decided && !text_line.trim().is_empty() {
            decided = true;
            if runlog::read_row(text_line).is_some() {
                let head = text.into_owned();
                bar.inc(unshown);
                let read = parse_run_log(path, name, head, &mut lines, a, stamps, one, each, &bar);
                if shared_bar.is_none() {
                    bar.finish_and_clear();
                }
                return read;
            }
        }
        let (entries, runtime) = one(text_line, &mut |v| stamps.of(text_line, v));
        each(Some((&entries, &render::Origin { file: name, line: line_no }, runtime)))?;
    }
    bar.inc(unshown);
    if shared_bar.is_none() {
        bar.finish_and_clear();
    }
    Ok(None)
}

#[allow(clippy::too_many_arguments)]
fn parse_run_log(
    path: &str,
    name: &str,
    head: String,
    lines: &mut io::Lines,
    a: &ReadArgs,
    stamps: &mut Stamps,
    one: &mut ReadLine,
    each: &mut Sink,
    bar: &indicatif::ProgressBar,
) -> Result<Option<Skipped>, Failure> {
    let max = a.max_input.unwrap_or(io::DEFAULT_MAX_INPUT);
    let rest = match lines.rest(max, head.len() as u64, bar) {
        Ok(rest) => rest,
        Err(Failure(why)) => return Ok(Some(Skipped { status: lines.failure_status(), why })),
    };
    let text = head + &io::lossy(rest);
    if !text.trim().is_empty() && !runlog::is_run_log(&text) {
        let why = format!(
            "{} is not a Paperclip run log: its first line is not a {{\"ts\",\"stream\",\"chunk\"}} \
             row (without --input run-log it is read as agent stdout)",
            io::name_of(path)
        );
        return Ok(Some(Skipped { status: 2, why }));
    }
    let fallback = stamps.fixed.clone().unwrap_or_else(|| stamps.last.clone());
    // `--ts` alone gives every entry that time; with `--record-ts` the rows' own ts win.
    let fixed = if stamps.records { None } else { stamps.fixed.as_deref() };
    let mut failed = Ok(());
    // The runtime of the last line read (runlog::parse_each hands a line's entries over right
    // after reading it).
    let runtime = std::cell::Cell::new(None);
    runlog::parse_each(
        &text,
        &fallback,
        fixed,
        |l, ts| {
            let (entries, rt) = one(l, &mut |_| ts.to_owned());
            runtime.set(rt);
            entries
        },
        |line, entries| {
            if failed.is_ok() {
                failed = each(Some((&entries, &render::Origin { file: name, line }, runtime.get())));
            }
        },
    );
    failed.map(|()| None)
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



