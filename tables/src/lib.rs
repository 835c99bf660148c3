//! Agent log files as the rows of agentlines' tables ([`agentlines::tables`]): what the
//! DuckDB extension and the Python module read with, and the CLI's folders and patterns.
//!
//! - [`expand`]: paths, folders (the log files under them) and glob patterns to files.
//! - [`FileRows`]: one file's rows, pulled a batch at a time; memory is one line (up to the
//!   parser's limit; a longer one keeps its head) and one batch of rows.
//! - [`Rows`]: the rows of many logs (files or bytes at hand), one after the other.
//!
//! A file that cannot be read (missing, unreadable, binary) gives no entries or tool calls;
//! its runs row names the problem. The core does the reading of lines into rows; this crate
//! only finds files and splits their bytes into lines, as `agentlines parse` does.

use agentlines::tables::{LogTables, Row, Table};
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The files a folder holds that are read: agent output and session files as runtimes write
/// them. Other files in a folder (images, `.git`) are passed over without a word; a file
/// named itself is read whatever its name.
pub const LOG_EXTENSIONS: [&str; 5] = ["jsonl", "json", "ndjson", "log", "txt"];

/// What was named, as files to read, and what named nothing (with the number of files
/// found before it, so a reader can say so in order).
#[derive(Debug, Default)]
pub struct Expanded {
    pub paths: Vec<String>,
    pub problems: Vec<(usize, String)>,
}

/// Why a file could not be opened or read, in words.
pub fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// A folder stands for the log files under it (recursively, in name order, see
/// [`LOG_EXTENSIONS`]), a pattern that names no file as it is (`logs/**/*.jsonl`) for the
/// files it matches, anything else for itself (a missing file is reported when it is
/// opened; `-` is kept for standard input). A leading `~/` is the home folder (a quoted
/// pattern, or a path given to DuckDB or Python, has no shell to expand it). A malformed
/// pattern is an error.
pub fn expand(args: &[String]) -> Result<Expanded, String> {
    let mut out = Expanded::default();
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    for arg in args {
        let arg = &match (arg.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => format!("{}/{rest}", h.trim_end_matches('/')),
            _ => arg.clone(),
        };
        let path = Path::new(arg);
        if arg != "-" && path.is_dir() {
            let before = out.paths.len();
            walk(path, &mut out);
            if out.paths.len() == before {
                let exts = LOG_EXTENSIONS.map(|e| format!(".{e}")).join(", ");
                out.problems.push((out.paths.len(), format!("{arg} holds no log file ({exts})")));
            }
        } else if arg != "-" && !path.exists() && arg.contains(['*', '?', '[']) {
            let found: Vec<String> = match glob::glob(arg) {
                Ok(paths) => paths.filter_map(Result::ok).filter(|p| p.is_file()).map(|p| p.to_string_lossy().into_owned()).collect(),
                Err(e) => return Err(format!("bad pattern {arg}: {e}")),
            };
            if found.is_empty() {
                out.problems.push((out.paths.len(), format!("no file matches {arg}")));
            }
            out.paths.extend(found);
        } else {
            out.paths.push(arg.clone());
        }
    }
    Ok(out)
}

/// The log files under `dir`, in name order, folders after the files beside them; symbolic
/// links to folders are not followed (no loops); an unreadable folder is a problem named.
fn walk(dir: &Path, out: &mut Expanded) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            out.problems.push((out.paths.len(), format!("cannot read {}: {}", dir.display(), io_reason(&e))));
            return;
        }
    };
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for e in entries.flatten() {
        let Ok(t) = e.file_type() else { continue };
        let p = e.path();
        if t.is_dir() {
            dirs.push(p);
        } else if p.extension().and_then(|x| x.to_str()).is_some_and(|x| LOG_EXTENSIONS.contains(&x.to_ascii_lowercase().as_str())) {
            files.push(p);
        }
    }
    files.sort();
    dirs.sort();
    out.paths.extend(files.into_iter().map(|p| p.to_string_lossy().into_owned()));
    for d in dirs {
        walk(&d, out);
    }
}

/// Rows per batch a reader hands out by default (DuckDB's vector size).
pub const BATCH_ROWS: usize = 2048;

/// One file's rows, read a batch at a time.
pub struct FileRows {
    input: Option<BufReader<Box<dyn Read + Send>>>,
    tables: Option<LogTables>,
    line: Vec<u8>,
    /// Rows read but not yet handed out.
    ready: VecDeque<Row>,
    /// Bytes read so far (for progress).
    pub bytes: u64,
}

impl FileRows {
    /// Opens `path` for `table`'s rows; `name` is what the rows' `file` column says.
    pub fn open(table: Table, path: &str, name: &str) -> FileRows {
        let mut tables = LogTables::new(table, name);
        let input = match std::fs::File::open(path) {
            Ok(f) if f.metadata().is_ok_and(|m| m.is_dir()) => {
                tables.fail(format!("{name} is a folder, not a log file"));
                None
            }
            Ok(f) => Some(BufReader::with_capacity(1 << 16, Box::new(f) as Box<dyn Read + Send>)),
            Err(e) => {
                tables.fail(format!("cannot read {name}: {}", io_reason(&e)));
                None
            }
        };
        FileRows::start(tables, input, name)
    }

    /// Reads `input` (a file's bytes from anywhere: Spark hands them over whole).
    pub fn from_reader(table: Table, input: Box<dyn Read + Send>, name: &str) -> FileRows {
        FileRows::start(LogTables::new(table, name), Some(BufReader::with_capacity(1 << 16, input)), name)
    }

    fn start(mut tables: LogTables, mut input: Option<BufReader<Box<dyn Read + Send>>>, name: &str) -> FileRows {
        // No agent's text or JSON output has a NUL byte (ripgrep's test for a binary file).
        if let Some(r) = &mut input {
            match r.fill_buf() {
                Ok(buf) => {
                    if let Some(at) = memchr::memchr(0, &buf[..buf.len().min(8 << 10)]) {
                        tables.fail(format!("{name} is binary (a NUL byte at offset {at}), not agent output: skipped"));
                        input = None;
                    }
                }
                Err(e) => {
                    tables.fail(format!("cannot read {name}: {}", io_reason(&e)));
                    input = None;
                }
            }
        }
        FileRows { input, tables: Some(tables), line: Vec::new(), ready: VecDeque::new(), bytes: 0 }
    }

    /// Moves up to `max` rows into `out`; `false` once the file has no more.
    pub fn next_rows(&mut self, max: usize, out: &mut Vec<Row>) -> bool {
        let mut made = Vec::new();
        while self.ready.len() < max {
            let Some(tables) = &mut self.tables else { break };
            let Some(input) = &mut self.input else {
                if let Some(t) = self.tables.take() {
                    t.finish(&mut made);
                    self.ready.extend(made.drain(..));
                }
                break;
            };
            match read_line(input, &mut self.line) {
                Ok(Line::End) => self.input = None,
                Ok(Line::Text(n)) => {
                    self.bytes += n as u64;
                    let bytes = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
                    // A SIMD check first, as the CLI does; only invalid lines pay for a copy.
                    let text = match simdutf8::basic::from_utf8(bytes) {
                        Ok(t) => std::borrow::Cow::Borrowed(t),
                        Err(_) => String::from_utf8_lossy(bytes),
                    };
                    tables.line(&text, &mut made);
                }
                Ok(Line::Overlong { len, read }) => {
                    self.bytes += read as u64;
                    let head = String::from_utf8_lossy(&self.line);
                    tables.overlong(len, &head, &mut made);
                }
                Err(e) => {
                    let why = format!("reading stopped after {} bytes: {}", self.bytes, io_reason(&e));
                    tables.fail(why);
                    self.input = None;
                }
            }
            self.ready.extend(made.drain(..));
        }
        let n = max.min(self.ready.len());
        out.extend(self.ready.drain(..n));
        !(self.tables.is_none() && self.ready.is_empty())
    }
}

enum Line {
    End,
    /// A line in the buffer (with its `\n` unless last); the bytes it took.
    Text(usize),
    /// A line over the parser's limit: its length without the `\n`, and the bytes read;
    /// the buffer holds its head.
    Overlong { len: usize, read: usize },
}

/// The next line into `buf`, holding at most the parser's limit of it.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Line> {
    buf.clear();
    let limit = agentlines::parser::MAX_LINE_BYTES;
    let mut read = 0usize;
    let mut len: Option<usize> = None;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match len {
                Some(len) => Line::Overlong { len, read },
                None if read == 0 => Line::End,
                None => Line::Text(read),
            });
        }
        let newline = memchr::memchr(b'\n', chunk);
        let part = newline.map_or(chunk.len(), |i| i + 1);
        match &mut len {
            Some(len) => *len += newline.unwrap_or(part),
            None => {
                buf.extend_from_slice(&chunk[..part]);
                if buf.len() > limit + 1 {
                    let keep = agentlines::parser::OVERLONG_KEEP_BYTES + 4;
                    len = Some(buf.len() - usize::from(newline.is_some()));
                    buf.truncate(keep);
                }
            }
        }
        input.consume(part);
        read += part;
        if newline.is_some() {
            return Ok(match len {
                Some(len) => Line::Overlong { len, read },
                None => Line::Text(read),
            });
        }
    }
}

/// Where a log's bytes come from.
pub enum Source {
    /// A file (its path also names it in the rows).
    Path(String),
    /// Bytes at hand (Spark's `binaryFile` content, an object store's download), and the
    /// name the rows give them.
    Reader { name: String, input: Box<dyn Read + Send> },
}

/// The rows of many logs, one after the other, a batch at a time.
pub struct Rows {
    table: Table,
    sources: VecDeque<Source>,
    current: Option<FileRows>,
}

impl Rows {
    pub fn new(table: Table, sources: Vec<Source>) -> Rows {
        Rows { table, sources: sources.into(), current: None }
    }

    /// Up to `max` rows, from one log or several; empty when every log is read.
    pub fn next_batch(&mut self, max: usize) -> Vec<Row> {
        let mut out = Vec::with_capacity(max.min(BATCH_ROWS));
        while out.len() < max {
            if self.current.is_none() {
                self.current = Some(match self.sources.pop_front() {
                    Some(Source::Path(p)) => FileRows::open(self.table, &p, &p),
                    Some(Source::Reader { name, input }) => FileRows::from_reader(self.table, input, &name),
                    None => break,
                });
            }
            if let Some(f) = &mut self.current {
                if !f.next_rows(max - out.len(), &mut out) {
                    self.current = None;
                }
            }
        }
        out
    }
}
