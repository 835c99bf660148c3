//! Agent logs as three tables, defined once for every binding that shows them as rows (the
//! DuckDB extension, the Python/Arrow module, Spark through it): **entries** (one row per
//! transcript entry), **runs** (one row per log) and **tool calls** (one row per call, paired
//! with its result). docs/tables.md documents them column by column.
//!
//! A binding reads a file's bytes and hands its lines, in order, to a [`LogTables`]; rows come
//! out as the lines are read (a run's row at the end), so a table over many files streams and
//! memory is bounded by one line (a Paperclip run log, whose chunks cross lines, is gathered
//! whole first, up to [`RUN_LOG_MAX`] bytes, as the CLI does).
//!
//! What is read is what `agentlines parse` reads (a fresh stateful parser per file, a run log
//! detected from its first non-blank line, each line's time the one its record carries, else
//! the last one before it), and the sums are what `agentlines stats` counts
//! ([`crate::usage`]: tokens in one meaning for every runtime, the log's own cost, else an
//! estimate at list prices), so a sum over a column equals the CLI's figure.

use crate::entry::Entry;
use crate::formats::Format;
use crate::parser::StdoutParser;
use crate::usage::Usage;
use crate::{runlog, time};
use std::collections::{BTreeSet, HashMap};

/// A column's type; each binding maps it to its engine's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Text,
    /// A 64-bit integer.
    Int,
    /// A 64-bit float.
    Float,
    Bool,
    /// A UTC time in milliseconds since 1970 (DuckDB `TIMESTAMP`, Arrow `timestamp[ms, UTC]`).
    Time,
}

/// One column of a table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub ty: Type,
    pub doc: &'static str,
}

/// One cell of a row, of its column's [`Type`] or `Null`.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Time(i64),
}

/// A row: one cell per column, in the table's column order.
pub type Row = Vec<Cell>;

/// The three tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    Entries,
    Runs,
    ToolCalls,
}

impl Table {
    pub const ALL: [Table; 3] = [Table::Entries, Table::Runs, Table::ToolCalls];

    /// `entries`, `runs`, `tool_calls`.
    pub fn name(self) -> &'static str {
        match self {
            Table::Entries => "entries",
            Table::Runs => "runs",
            Table::ToolCalls => "tool_calls",
        }
    }

    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn columns(self) -> &'static [Column] {
        match self {
            Table::Entries => ENTRIES,
            Table::Runs => RUNS,
            Table::ToolCalls => TOOL_CALLS,
        }
    }
}

const fn col(name: &'static str, ty: Type, doc: &'static str) -> Column {
    Column { name, ty, doc }
}

const FILE: Column = col("file", Type::Text, "The log's path, as the binding was given it (a pattern's match, a folder's file).");

/// The entries table's columns.
pub const ENTRIES: &[Column] = &[
    FILE,
    col("line", Type::Int, "The line of the file the entry came from (1-based; in a run log, the line the rows' chunks join into)."),
    col("seq", Type::Int, "The entry's place among its line's entries (0-based): `file, line, seq` is unique and in order."),
    col("ts", Type::Text, "The entry's time as written (the line's record time, else the last one before it; empty when none)."),
    col("time", Type::Time, "`ts` read as a UTC time, when it is one."),
    col("runtime", Type::Text, "The runtime the line was read as (`claude`, `codex`…; `plain` for text; null for a blank line)."),
    col("kind", Type::Text, "The entry's kind, as the Paperclip host spells it (`assistant`, `tool_call`, `result`…)."),
    col("text", Type::Text, "Its text: a message's text, a tool result's content, a tool call's input as compact JSON, a result's summary, a passed-through entry's fields as JSON."),
    col("delta", Type::Bool, "A streamed piece of a message or result (true), or whole (null)."),
    col("tool_name", Type::Text, "A tool call's name, or the name of the call a tool result answers."),
    col("tool_use_id", Type::Text, "A tool call's or tool result's id."),
    col("is_error", Type::Bool, "A tool result or result marked as an error (`stderr` entries are errors too: `kind = 'stderr'`)."),
    col("duration_ms", Type::Int, "A tool result's time since its call."),
    col("input_tokens", Type::Int, "A result's input tokens without cache reads or writes (one meaning for every runtime: docs/costs.md)."),
    col("cache_read_tokens", Type::Int, "A result's input tokens read from the prompt cache."),
    col("cache_write_tokens", Type::Int, "A result's input tokens written to the prompt cache."),
    col("output_tokens", Type::Int, "A result's output tokens, reasoning included."),
    col("reasoning_tokens", Type::Int, "Of the output, the reasoning (where the runtime counts it)."),
    col("cost_usd", Type::Float, "A result's cost as its log states it (0 where it states none)."),
    col("estimated_cost_usd", Type::Float, "For a result that states no cost, tokens × its model's list prices (docs/costs.md); 0 otherwise or when unknown."),
    col("unpriced", Type::Bool, "A result that spent tokens, states no cost and whose model has no price."),
    col("model", Type::Text, "The model a result is counted under (its own, else the run's last `init`'s; `unknown model` when none); an `init`'s model."),
    col("call_id", Type::Text, "A result's model call id where the log gives one (Claude session files): a resumed session's file repeats earlier calls."),
    col("subtype", Type::Text, "A result's subtype, or a diff line's change type."),
    col("session_id", Type::Text, "An `init`'s session id."),
    col("parent_tool_use_id", Type::Text, "For a subagent's traffic, the id of the tool call that started the subagent."),
];

/// The runs table's columns (one row per log).
pub const RUNS: &[Column] = &[
    FILE,
    col("runtime", Type::Text, "The runtime the log was read as (the last runtime other than plain text that read a line)."),
    col("session_id", Type::Text, "The first session id an `init` gave."),
    col("models", Type::Text, "The models its results were counted under, comma-separated, in name order."),
    col("start_time", Type::Time, "The earliest entry time."),
    col("end_time", Type::Time, "The latest entry time."),
    col("duration_ms", Type::Int, "`end_time - start_time` (null for a log without times)."),
    col("lines", Type::Int, "Lines read."),
    col("entries", Type::Int, "Transcript entries."),
    col("prompts", Type::Int, "`user` entries outside subagents."),
    col("tool_calls", Type::Int, "`tool_call` entries."),
    col("tool_errors", Type::Int, "Tool results marked as errors (streamed pieces not counted)."),
    col("errors", Type::Int, "Tool errors, `stderr` entries and results marked as errors: what `agentlines stats` counts."),
    col("results", Type::Int, "`result` entries counted (model calls, turns or runs, as the runtime reports)."),
    col("input_tokens", Type::Int, "Sum of the entries' `input_tokens`."),
    col("cache_read_tokens", Type::Int, "Sum of the entries' `cache_read_tokens`."),
    col("cache_write_tokens", Type::Int, "Sum of the entries' `cache_write_tokens`."),
    col("output_tokens", Type::Int, "Sum of the entries' `output_tokens`."),
    col("reasoning_tokens", Type::Int, "Sum of the entries' `reasoning_tokens`."),
    col("cost_usd", Type::Float, "The cost the log states."),
    col("estimated_cost_usd", Type::Float, "The estimate for the results that state none."),
    col("unpriced_results", Type::Int, "Results that spent tokens on a model without a price (their cost is unknown, not 0)."),
    col("subagents", Type::Int, "Subagents seen (distinct `parent_tool_use_id`s)."),
    col("problem", Type::Text, "Why the file was not read, or not to the end (missing, unreadable, binary, too big); null when it was."),
];

/// The tool calls table's columns (one row per call).
pub const TOOL_CALLS: &[Column] = &[
    FILE,
    col("line", Type::Int, "The call's line (null for a result whose call the log does not have)."),
    col("ts", Type::Text, "The call's time as written."),
    col("time", Type::Time, "The call's time."),
    col("runtime", Type::Text, "The runtime its line was read as."),
    col("tool_name", Type::Text, "The tool's name (`(unknown tool)` for a result without its call or name)."),
    col("tool_use_id", Type::Text, "The call's id."),
    col("input_summary", Type::Text, "The input in short: its command, path, pattern, URL, query or description where it has one, else its JSON; at most 200 characters."),
    col("status", Type::Text, "`ok`, `error`, or `no result` (the log ends before one)."),
    col("is_error", Type::Bool, "The result was marked as an error."),
    col("duration_ms", Type::Int, "From the call to its result."),
    col("result_line", Type::Int, "The line of its (last) result."),
    col("parent_tool_use_id", Type::Text, "The subagent's call, for a call a subagent made."),
];

/// A run log is gathered whole before it is read (its chunks cross lines); past this it is
/// refused, as the CLI refuses it.
pub const RUN_LOG_MAX: usize = 256 << 20;

/// Characters kept of a tool call's input summary.
const SUMMARY_CHARS: usize = 200;

/// A call waiting for its result.
struct Pending {
    /// The call's line, time and input in short (none: a result whose call the log lacks).
    line: Option<usize>,
    ts: Option<String>,
    runtime: Option<Format>,
    name: String,
    summary: Option<String>,
    parent: Option<String>,
    /// A streamed piece of its result seen: (line, is_error, duration).
    piece: Option<(usize, bool, Option<u64>)>,
}

/// One log's tables: feed it the file's lines in order ([`LogTables::line`]), then
/// [`LogTables::finish`]. Only the rows of the table asked for are made.
pub struct LogTables {
    table: Table,
    file: String,
    parser: StdoutParser,
    line_no: usize,
    /// The time of the last record that carried one (lines without one get it).
    last_ts: String,
    /// Whether the first non-blank line was seen (a run log is told by it).
    decided: bool,
    /// A run log's text, gathered until the end.
    run_log: Option<String>,
    problem: Option<String>,
    // The run so far.
    usage: Usage,
    runtime: Option<Format>,
    session_id: Option<String>,
    first: Option<i64>,
    last: Option<i64>,
    entries: u64,
    prompts: u64,
    tool_calls: u64,
    tool_errors: u64,
    errors: u64,
    subagents: BTreeSet<String>,
    names: HashMap<String, String>,
    pending: Vec<(String, Pending)>,
    /// The last `ts` text read and its milliseconds (a line's entries share one).
    last_time: Option<(String, Option<i64>)>,
}

impl LogTables {
    /// `file`: the name the rows carry in their `file` column.
    pub fn new(table: Table, file: &str) -> LogTables {
        LogTables {
            table,
            file: file.to_owned(),
            parser: StdoutParser::new(),
            line_no: 0,
            last_ts: String::new(),
            decided: false,
            run_log: None,
            problem: None,
            usage: Usage::new(),
            runtime: None,
            session_id: None,
            first: None,
            last: None,
            entries: 0,
            prompts: 0,
            tool_calls: 0,
            tool_errors: 0,
            errors: 0,
            subagents: BTreeSet::new(),
            names: HashMap::new(),
            pending: Vec::new(),
            last_time: None,
        }
    }

    /// The next line of the file, without its `\n`; its rows go to `out`.
    pub fn line(&mut self, line: &str, out: &mut Vec<Row>) {
        if self.run_log.is_some() {
            self.gather(line);
            return;
        }
        if !self.decided && !line.trim().is_empty() {
            self.decided = true;
            if runlog::read_row(line).is_some() {
                let mut text = line.to_owned();
                text.push('\n');
                self.run_log = Some(text);
                return;
            }
        }
        self.line_no += 1;
        let (parser, last_ts) = (&mut self.parser, &mut self.last_ts);
        let entries = parser.parse_line_stamped(line, &mut |v| match runlog::record_timestamp_of(line, v) {
            Some(t) => {
                *last_ts = t.clone();
                t
            }
            None => last_ts.clone(),
        });
        let runtime = self.parser.line_runtime();
        let at = self.line_no;
        self.entries_of(at, runtime, &entries, out);
    }

    /// A line over the parser's limit ([`crate::parser::MAX_LINE_BYTES`]): its length and
    /// first bytes, as the binding's line reader kept them.
    pub fn overlong(&mut self, len: usize, head: &str, out: &mut Vec<Row>) {
        if self.run_log.is_some() {
            // A run log's rows are never that long; such a line is kept short, as its head.
            self.gather(head);
            return;
        }
        self.decided = true;
        self.line_no += 1;
        let entries = crate::parser::overlong_line(len, head, &self.last_ts.clone());
        let at = self.line_no;
        self.entries_of(at, None, &entries, out);
    }

    /// One more line of a run log, while it fits [`RUN_LOG_MAX`]; past it, none is read.
    fn gather(&mut self, line: &str) {
        let Some(text) = &mut self.run_log else { return };
        if self.problem.is_some() {
            return;
        }
        if text.len() + line.len() + 1 > RUN_LOG_MAX {
            self.problem = Some(format!(
                "{} is a run log over the {} MiB a run log may have (it is read whole): not read",
                self.file,
                RUN_LOG_MAX >> 20
            ));
            self.run_log = Some(String::new());
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }

    /// The file could not be read, or not to its end: the run's row says why.
    pub fn fail(&mut self, why: impl Into<String>) {
        self.problem.get_or_insert(why.into());
    }

    /// The file is done: a run log's rows, the calls left without a result, the run's row.
    pub fn finish(mut self, out: &mut Vec<Row>) {
        if let Some(text) = self.run_log.take() {
            if !text.is_empty() {
                let mut parser = std::mem::take(&mut self.parser);
                let runtime = std::cell::Cell::new(None);
                let mut lines = Vec::new();
                runlog::parse_each(
                    &text,
                    "",
                    None,
                    |l, ts| {
                        let e = parser.parse_line(l, ts);
                        runtime.set(parser.line_runtime());
                        e
                    },
                    |n, entries| lines.push((n, runtime.get(), entries)),
                );
                for (n, runtime, entries) in lines {
                    self.line_no = n;
                    self.entries_of(n, runtime, &entries, out);
                }
            }
        }
        if self.table == Table::ToolCalls {
            for (id, p) in std::mem::take(&mut self.pending) {
                let (status, is_error, duration, result_line) = match p.piece {
                    Some((l, err, d)) => (if err { "error" } else { "ok" }, Some(err), d, Some(l)),
                    None => ("no result", None, None, None),
                };
                out.push(self.call_row(&p, &id, status, is_error, duration, result_line));
            }
        }
        if self.table == Table::Runs {
            let row = self.run_row();
            out.push(row);
        }
    }

    fn time_of(&mut self, ts: &str) -> Option<i64> {
        match &self.last_time {
            Some((t, ms)) if t == ts => *ms,
            _ => {
                let ms = time::parse_ts_ms(ts);
                self.last_time = Some((ts.to_owned(), ms));
                ms
            }
        }
    }

    fn entries_of(&mut self, line: usize, runtime: Option<Format>, entries: &[Entry], out: &mut Vec<Row>) {
        if runtime.is_some_and(|f| f != Format::Plain) || self.runtime.is_none() && runtime.is_some() {
            self.runtime = runtime;
        }
        for (seq, e) in entries.iter().enumerate() {
            self.entry(line, seq, runtime, e, out);
        }
    }

    fn entry(&mut self, line: usize, seq: usize, runtime: Option<Format>, e: &Entry, out: &mut Vec<Row>) {
        self.entries += 1;
        let ms = self.time_of(e.ts());
        if let Some(ms) = ms {
            self.first = Some(self.first.map_or(ms, |f| f.min(ms)));
            self.last = Some(self.last.map_or(ms, |l| l.max(ms)));
        }
        let counted = self.usage.add(runtime, e);
        let parent = parent_of(e);
        if let Some(p) = parent {
            if !self.subagents.contains(p) {
                self.subagents.insert(p.to_owned());
            }
        }
        match e {
            Entry::Init { session_id, .. } if self.session_id.is_none() && !session_id.is_empty() => {
                self.session_id = Some(session_id.clone());
            }
            Entry::User { parent_tool_use_id: None, .. } => self.prompts += 1,
            Entry::Stderr { .. } => self.errors += 1,
            Entry::Result { is_error: true, .. } => self.errors += 1,
            Entry::ToolCall { name, tool_use_id, input, .. } => {
                self.tool_calls += 1;
                if let Some(id) = tool_use_id {
                    if self.names.len() < MAX_OPEN_CALLS {
                        self.names.insert(id.clone(), name.clone());
                    }
                }
                if self.table == Table::ToolCalls {
                    let p = Pending {
                        line: Some(line),
                        ts: Some(e.ts().to_owned()),
                        runtime,
                        name: name.clone(),
                        summary: Some(input_summary(input)),
                        parent: parent.map(str::to_owned),
                        piece: None,
                    };
                    match tool_use_id {
                        Some(id) => self.open_call(id, p, out),
                        None => out.push(self.call_row(&p, "", "no result", None, None, None)),
                    }
                }
            }
            Entry::ToolResult { tool_use_id, tool_name, is_error, duration_ms, delta, .. } => {
                let piece = delta == &Some(true) && duration_ms.is_none() && !is_error;
                if *is_error && !piece {
                    self.tool_errors += 1;
                    self.errors += 1;
                }
                if self.table == Table::ToolCalls {
                    self.close_call(line, tool_use_id, tool_name.as_deref(), *is_error, *duration_ms, piece, out);
                }
            }
            _ => {}
        }
        if self.table == Table::Entries {
            out.push(self.entry_row(line, seq, runtime, e, ms, counted));
        }
        // A settled call's name is no longer needed (the map holds the calls still open).
        if let Entry::ToolResult { tool_use_id, is_error, duration_ms, delta, .. } = e {
            if delta != &Some(true) || duration_ms.is_some() || *is_error {
                self.names.remove(tool_use_id);
            }
        }
    }

    /// Notes a call; one with an id already waiting is settled as it stands first.
    fn open_call(&mut self, id: &str, p: Pending, out: &mut Vec<Row>) {
        if let Some(i) = self.pending.iter().position(|(k, _)| k == id) {
            let (id, old) = self.pending.remove(i);
            out.push(self.call_row(&old, &id, "no result", None, None, None));
        }
        if self.pending.len() >= MAX_OPEN_CALLS {
            let (id, old) = self.pending.remove(0);
            out.push(self.call_row(&old, &id, "no result", None, None, None));
        }
        self.pending.push((id.to_owned(), p));
    }

    #[allow(clippy::too_many_arguments)]
    fn close_call(
        &mut self,
        line: usize,
        id: &str,
        name: Option<&str>,
        is_error: bool,
        duration: Option<u64>,
        piece: bool,
        out: &mut Vec<Row>,
    ) {
        let at = self.pending.iter().position(|(k, _)| k == id);
        if piece {
            if let Some(i) = at {
                self.pending[i].1.piece = Some((line, false, None));
            }
            return;
        }
        let status = if is_error { "error" } else { "ok" };
        match at {
            Some(i) => {
                let (id, p) = self.pending.remove(i);
                out.push(self.call_row(&p, &id, status, Some(is_error), duration, Some(line)));
            }
            None => {
                // A result whose call is not in the log (or was settled already): a row of its own.
                let name = name.map(str::to_owned).or_else(|| self.names.get(id).cloned());
                let p = Pending {
                    line: None,
                    ts: None,
                    runtime: None,
                    name: name.unwrap_or_else(|| "(unknown tool)".to_owned()),
                    summary: None,
                    parent: None,
                    piece: None,
                };
                out.push(self.call_row(&p, id, status, Some(is_error), duration, Some(line)));
            }
        }
    }

    fn call_row(
        &mut self,
        p: &Pending,
        id: &str,
        status: &str,
        is_error: Option<bool>,
        duration: Option<u64>,
        result_line: Option<usize>,
    ) -> Row {
        let ms = p.ts.as_deref().and_then(|t| self.time_of(t));
        vec![
            Cell::Text(self.file.clone()),
            opt_int(p.line.map(|l| l as u64)),
            opt_text(p.ts.as_deref()),
            opt_time(ms),
            opt_text(p.runtime.map(Format::name)),
            Cell::Text(p.name.clone()),
            if id.is_empty() { Cell::Null } else { Cell::Text(id.to_owned()) },
            opt_text(p.summary.as_deref()),
            Cell::Text(status.to_owned()),
            is_error.map_or(Cell::Null, Cell::Bool),
            opt_int(duration),
            opt_int(result_line.map(|l| l as u64)),
            opt_text(p.parent.as_deref()),
        ]
    }

    fn entry_row(
        &self,
        line: usize,
        seq: usize,
        runtime: Option<Format>,
        e: &Entry,
        ms: Option<i64>,
        counted: Option<(String, crate::usage::ModelUsage)>,
    ) -> Row {
        let mut f = Fields::default();
        match e {
            Entry::Assistant { text, delta, .. } | Entry::Thinking { text, delta, .. } => {
                f.text = Some(text.clone());
                f.delta = *delta;
            }
            Entry::User { text, .. } | Entry::Stderr { text, .. } | Entry::System { text, .. } | Entry::Stdout { text, .. } => {
                f.text = Some(text.clone());
            }
            Entry::ToolCall { name, input, tool_use_id, .. } => {
                f.text = Some(input.to_compact());
                f.tool_name = Some(name);
                f.tool_use_id = tool_use_id.as_deref();
            }
            Entry::ToolResult { tool_use_id, tool_name, content, is_error, delta, duration_ms, .. } => {
                f.text = Some(content.clone());
                f.delta = *delta;
                f.tool_name = tool_name.as_deref().or_else(|| self.names.get(tool_use_id).map(String::as_str));
                f.tool_use_id = Some(tool_use_id);
                f.is_error = Some(*is_error);
                f.duration = *duration_ms;
            }
            Entry::Init { session_id, .. } => f.session = Some(session_id),
            Entry::Result { text, subtype, is_error, .. } => {
                f.text = Some(text.clone());
                f.is_error = Some(*is_error);
                f.subtype = Some(subtype);
            }
            Entry::Diff { change_type, text, .. } => {
                f.text = Some(text.clone());
                f.subtype = Some(change_type);
            }
            Entry::Other(o) => f.text = Some(o.fields.to_compact()),
        }
        let Fields { text, delta, tool_name, tool_use_id, is_error, duration, subtype, session } = f;
        let model = match (e, &counted) {
            (_, Some((m, _))) => Some(m.as_str()),
            (Entry::Init { model, .. }, _) => Some(model.as_str()),
            _ => None,
        };
        let call_id = match e {
            Entry::Result { call_id, .. } => call_id.as_deref(),
            _ => None,
        };
        let u = counted.as_ref().map(|(_, u)| u);
        let tok = |f: fn(&crate::prices::Tokens) -> f64| u.map_or(Cell::Null, |u| Cell::Int(f(&u.tokens).round() as i64));
        vec![
            Cell::Text(self.file.clone()),
            Cell::Int(line as i64),
            Cell::Int(seq as i64),
            Cell::Text(e.ts().to_owned()),
            opt_time(ms),
            opt_text(runtime.map(Format::name)),
            Cell::Text(e.kind().to_owned()),
            text.map_or(Cell::Null, Cell::Text),
            delta.map_or(Cell::Null, Cell::Bool),
            opt_text(tool_name),
            opt_text(tool_use_id),
            is_error.map_or(Cell::Null, Cell::Bool),
            opt_int(duration),
            tok(|t| t.input),
            tok(|t| t.cache_read),
            tok(|t| t.cache_write),
            tok(|t| t.output),
            tok(|t| t.reasoning),
            u.map_or(Cell::Null, |u| Cell::Float(u.stated_usd)),
            u.map_or(Cell::Null, |u| Cell::Float(u.estimated_usd)),
            u.map_or(Cell::Null, |u| Cell::Bool(u.unpriced > 0)),
            opt_text(model),
            opt_text(call_id),
            opt_text(subtype),
            opt_text(session),
            opt_text(parent_of(e)),
        ]
    }

    fn run_row(&self) -> Row {
        let t = self.usage.total();
        let models: Vec<&str> = self.usage.by_model.iter().filter(|(_, m)| m.results > 0).map(|(k, _)| k.as_str()).collect();
        let int = |n: u64| Cell::Int(n as i64);
        let tok = |n: f64| Cell::Int(n.round() as i64);
        vec![
            Cell::Text(self.file.clone()),
            opt_text(self.runtime.map(Format::name)),
            opt_text(self.session_id.as_deref()),
            if models.is_empty() { Cell::Null } else { Cell::Text(models.join(", ")) },
            opt_time(self.first),
            opt_time(self.last),
            match (self.first, self.last) {
                (Some(f), Some(l)) => Cell::Int(l - f),
                _ => Cell::Null,
            },
            int(self.line_no as u64),
            int(self.entries),
            int(self.prompts),
            int(self.tool_calls),
            int(self.tool_errors),
            int(self.errors),
            int(t.results),
            tok(t.tokens.input),
            tok(t.tokens.cache_read),
            tok(t.tokens.cache_write),
            tok(t.tokens.output),
            tok(t.tokens.reasoning),
            Cell::Float(t.stated_usd),
            Cell::Float(t.estimated_usd),
            int(t.unpriced),
            int(self.subagents.len() as u64),
            opt_text(self.problem.as_deref()),
        ]
    }
}

/// An entry's cells that depend on its kind ([`ENTRIES`]).
#[derive(Default)]
struct Fields<'e> {
    text: Option<String>,
    delta: Option<bool>,
    tool_name: Option<&'e str>,
    tool_use_id: Option<&'e str>,
    is_error: Option<bool>,
    duration: Option<u64>,
    subtype: Option<&'e str>,
    session: Option<&'e str>,
}

/// Calls waiting for a result, and ids remembered for their names, per log: a log that
/// opens more without answering them has the oldest settled as `no result` (bounded memory).
const MAX_OPEN_CALLS: usize = 4096;

fn parent_of(e: &Entry) -> Option<&str> {
    match e {
        Entry::Assistant { parent_tool_use_id, .. }
        | Entry::Thinking { parent_tool_use_id, .. }
        | Entry::User { parent_tool_use_id, .. }
        | Entry::ToolCall { parent_tool_use_id, .. }
        | Entry::ToolResult { parent_tool_use_id, .. } => parent_tool_use_id.as_deref(),
        _ => None,
    }
}

fn opt_text(s: Option<&str>) -> Cell {
    s.map_or(Cell::Null, |s| Cell::Text(s.to_owned()))
}

fn opt_int(n: Option<u64>) -> Cell {
    n.map_or(Cell::Null, |n| Cell::Int(n.min(i64::MAX as u64) as i64))
}

fn opt_time(ms: Option<i64>) -> Cell {
    ms.map_or(Cell::Null, Cell::Time)
}

/// The keys whose string value says what a call does, in the order they are looked for.
const SUMMARY_KEYS: &[&str] =
    &["command", "cmd", "file_path", "filePath", "path", "pattern", "url", "query", "description", "prompt"];

/// A tool call's input in short ([`TOOL_CALLS`]' `input_summary`).
pub fn input_summary(input: &crate::json::Json) -> String {
    let found = input.as_object().and_then(|_| {
        SUMMARY_KEYS.iter().find_map(|k| match input.get(k) {
            Some(v) => v.as_str().map(str::to_owned).or_else(|| {
                // `command` as an argv array (Codex).
                v.as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>().join(" "))
            }),
            None => None,
        })
    });
    let text = found.filter(|s| !s.trim().is_empty()).unwrap_or_else(|| input.to_compact());
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(SUMMARY_CHARS) {
        Some((end, _)) => format!("{}…", &one[..end]),
        None => one,
    }
}

/// Makes the cells of a row into JSON (for tests and the CLI): text as strings, times as
/// RFC 3339 text.
pub fn row_json(table: Table, row: &[Cell]) -> String {
    let mut out = String::from("{");
    for (i, (c, cell)) in table.columns().iter().zip(row).enumerate() {
        if i > 0 {
            out.push(',');
        }
        crate::json::write::str(&mut out, c.name);
        out.push(':');
        match cell {
            Cell::Null => out.push_str("null"),
            Cell::Text(s) => crate::json::write::str(&mut out, s),
            Cell::Int(n) => crate::json::write::int(&mut out, *n),
            Cell::Float(x) => crate::json::write::js_number(&mut out, *x),
            Cell::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Cell::Time(ms) => crate::json::write::str(&mut out, &time::iso_from_ms(*ms)),
        }
    }
    out.push('}');
    out
}
