//! Input and output for the `agentlines` command: where input comes from (files, a piped
//! standard input), bounded whole-file reads, newline-aligned chunked reads, progress bars,
//! and an output that flushes whenever the input has to wait and that reports a closed or
//! failing standard output instead of losing it.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why the command failed: the message (printed as `agentlines: <msg>`, exit status 2).
pub struct Failure(pub String);

pub fn fail<T>(msg: impl Into<String>) -> Result<T, Failure> {
    Err(Failure(msg.into()))
}

/// Files bigger than this get a progress bar (when stderr is a terminal).
const PROGRESS_BYTES: u64 = 4 * 1024 * 1024;

/// Standard input counts as given, like jq and ripgrep read it, when it is a pipe, a FIFO,
/// a socket or a redirected file; a terminal or a device (`/dev/null`) does not.
pub fn stdin_is_readable() -> bool {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    let Ok(fd) = stdin.as_fd().try_clone_to_owned() else { return false };
    match std::fs::File::from(fd).metadata() {
        Ok(m) => {
            use std::os::unix::fs::FileTypeExt;
            let t = m.file_type();
            t.is_file() || t.is_fifo() || t.is_socket()
        }
        Err(_) => false,
    }
}

/// `agentlines … >&-`: standard output closed, so the output would be lost. Rust's runtime
/// reopens a closed standard output on `/dev/null` before `main`, read-write, which looks
/// exactly like a caller's own read-write `/dev/null` (Python's `subprocess.DEVNULL`, Node's
/// `stdio: "ignore"`, a shell's `1<>/dev/null`), where discarding the output is what was
/// asked. So the descriptor is looked at before the runtime does: [`STDOUT_AT_START`] runs
/// with the program's constructors (ELF `.init_array`, Linux), ahead of Rust's `main`.
/// Elsewhere nothing is recorded and this passes.
pub fn stdout_is_open() -> bool {
    !STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
}

static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// See [`stdout_is_open`]: notes whether descriptor 1 was closed when the process started.
/// Only `fcntl` is called (no allocation, no Rust runtime), as a constructor must.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static STDOUT_AT_START: extern "C" fn() = {
    extern "C" fn note() {
        extern "C" {
            fn fcntl(fd: i32, cmd: i32, ...) -> i32;
        }
        const F_GETFD: i32 = 1;
        // SAFETY: F_GETFD reads the descriptor's flags and takes no third argument; on a
        // descriptor that is not open it fails (EBADF) and changes nothing.
        if unsafe { fcntl(1, F_GETFD) } == -1 {
            STDOUT_CLOSED_AT_START.store(true, Ordering::Relaxed);
        }
    }
    note
};

/// The files to read: the given ones, or `-` (standard input) when none is given and
/// standard input is piped or redirected.
pub fn inputs(files: &[String]) -> Result<Vec<String>, Failure> {
    if !files.is_empty() {
        return Ok(files.to_vec());
    }
    if stdin_is_readable() {
        return Ok(vec!["-".to_owned()]);
    }
    fail("which file? (give a path, or - for standard input; a piped standard input is read)")
}

pub use agentlines_tables::{io_reason, Expanded};

pub fn name_of(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

/// What the command line names, as files to read (`agentlines_tables::expand`: a folder
/// stands for the log files under it, a quoted pattern for the files it matches); no file
/// named and a piped standard input: standard input.
pub fn expand(args: &[String]) -> Result<Expanded, Failure> {
    agentlines_tables::expand(&inputs(args)?).map_err(Failure)
}

/// An input: a file (with its size, for the progress bar) or standard input.
pub fn open(path: &str) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    if path == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let meta = std::fs::metadata(path)
        .map_err(|e| Failure(format!("cannot read {path}: {}", io_reason(&e))))?;
    if meta.is_dir() {
        return fail(format!("{path} is a directory, not a transcript file"));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Failure(format!("cannot read {path}: {}", io_reason(&e))))?;
    // A FIFO's size is 0: no bar, no size hint.
    Ok((Box::new(file), meta.is_file().then_some(meta.len())))
}

/// A progress bar for a big file when stderr is a terminal; hidden otherwise.
pub fn progress(size: Option<u64>, what: &str) -> ProgressBar {
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

/// Bytes as text, invalid UTF-8 replaced.
pub fn lossy(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Reads `input` to its end, refusing more than `max` bytes in all (`already` counts what
/// was read before), with `bar` advanced.
pub fn read_bounded(
    input: &mut dyn Read,
    path: &str,
    max: u64,
    already: u64,
    bar: &ProgressBar,
) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match input.read(&mut buf) {
            Ok(0) => return Ok(bytes),
            Ok(n) => {
                if already + (bytes.len() + n) as u64 > max {
                    return fail(too_big(path, max));
                }
                bytes.extend_from_slice(&buf[..n]);
                bar.inc(n as u64);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return fail(format!("cannot read {}: {}", name_of(path), io_reason(&e))),
        }
    }
}

pub fn too_big(path: &str, max: u64) -> String {
    format!(
        "{} is over the {} input limit (this command holds the whole input in memory; \
         raise it with --max-input)",
        name_of(path),
        human_bytes(max)
    )
}

/// The whole input as text, at most `max` bytes.
pub fn read_all(path: &str, what: &str, max: u64) -> Result<String, Failure> {
    let (mut input, size) = open(path)?;
    if size.is_some_and(|n| n > max) {
        return fail(too_big(path, max));
    }
    let bar = progress(size, what);
    let bytes = read_bounded(&mut input, path, max, 0, &bar)?;
    bar.finish_and_clear();
    Ok(lossy(bytes))
}

/// Reads newline-aligned chunks of about `size` bytes (the last may end without one) and
/// hands each to `each` with its byte offset, so a big file never sits in memory whole.
pub fn read_chunks(
    path: &str,
    what: &str,
    size: usize,
    max: u64,
    mut each: impl FnMut(&str, u64),
) -> Result<(), Failure> {
    let (input, len) = open(path)?;
    if len.is_some_and(|n| n > max) {
        return fail(too_big(path, max));
    }
    let bar = progress(len, what);
    let mut reader = io::BufReader::with_capacity(1 << 16, input);
    let (mut offset, mut buf) = (0u64, Vec::with_capacity(size + 4096));
    loop {
        // At most what is left under `max` (and one byte more, to see it is over): a line
        // that never ends (`/dev/zero`) is refused at the limit, not gathered without bound.
        let left = (max + 1).saturating_sub(offset + buf.len() as u64);
        let n = (&mut reader)
            .take(left)
            .read_until(b'\n', &mut buf)
            .map_err(|e| Failure(format!("cannot read {}: {}", name_of(path), io_reason(&e))))?;
        if offset + buf.len() as u64 > max {
            return fail(too_big(path, max));
        }
        if (n == 0 || buf.len() >= size) && !buf.is_empty() {
            let text = lossy(std::mem::take(&mut buf));
            each(&text, offset);
            bar.inc(text.len() as u64);
            offset += text.len() as u64;
        }
        if n == 0 {
            break;
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// `1073741824` → `1 GiB`.
pub fn human_bytes(n: u64) -> String {
    for (unit, size) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if n >= size && n % size == 0 {
            return format!("{} {unit}", n / size);
        }
    }
    format!("{n} bytes")
}

/// `--max-input`: bytes, with an optional `K`, `M` or `G` (binary units).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, mult) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1u64 << 10),
        Some((i, 'm' | 'M')) => (&t[..i], 1 << 20),
        Some((i, 'g' | 'G')) => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("want a size in bytes, like 512M or 2G, got {s:?}"))
}

/// Standard output; a closed pipe (`| head`) ends the command quietly, any other write
/// error is a failure (exit 2) instead of a lost output.
pub struct Out(io::BufWriter<io::StdoutLock<'static>>);

impl Out {
    pub fn new() -> Out {
        Out(io::BufWriter::with_capacity(1 << 16, io::stdout().lock()))
    }

    fn check(r: io::Result<()>) -> Result<(), Failure> {
        match r {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(e) => fail(format!("cannot write the output: {e}")),
        }
    }

    /// Text as it is (the rendered entries of a line; `render.rs`).
    pub fn text(&mut self, text: &str) -> Result<(), Failure> {
        Self::check(self.0.write_all(text.as_bytes()))
    }

    pub fn json_pretty(&mut self, v: &impl serde::Serialize) -> Result<(), Failure> {
        match serde_json::to_writer_pretty(&mut self.0, v) {
            Ok(()) => Self::check(writeln!(self.0)),
            Err(e) => match e.io_error_kind() {
                Some(io::ErrorKind::BrokenPipe) => std::process::exit(0),
                Some(_) => fail(format!("cannot write the output: {e}")),
                None => fail(format!("cannot encode the output: {e}")),
            },
        }
    }

    pub fn flush(&mut self) -> Result<(), Failure> {
        Self::check(self.0.flush())
    }
}

/// The `--max-input` of what is read whole (run logs, sessions, dumps) when none is given.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// One line from [`Lines::next`].
pub enum Line<'a> {
    /// The input ended.
    End,
    /// A line, with its `\n` unless it is the last and has none.
    Whole(&'a [u8]),
    /// A line over the parser's limit (`agentlines::parser::MAX_LINE_BYTES`): its length
    /// (without the `\n`) and its first bytes as text; the rest was read past, never held.
    Overlong { len: usize, head: String },
    /// Reading stopped: the input failed, or it is over `--max-input`.
    Failed(Failure),
}

/// An input read line by line in bounded memory: at most one line of up to the parser's
/// limit is held (a longer one keeps only its head), and with a `--max-input` the reading
/// stops there. A line that lies in the reader's buffer is used where it lies (no copy);
/// one that spans reads is gathered. When nothing complete is buffered the next read may
/// wait (a pipe, `tail -f`), so the output is flushed first.
pub struct Lines {
    reader: io::BufReader<Box<dyn Read>>,
    raw: Vec<u8>,
    path: String,
    max: Option<u64>,
    /// Bytes handed out so far, and the buffered bytes the last line took (consumed at
    /// the next call).
    read: u64,
    taken: usize,
    status: i32,
    /// A pipe, a FIFO, a terminal or a socket: a read may wait, so what was read before is
    /// written out first (a regular file's reads never wait).
    live: bool,
}

impl Lines {
    /// `live`: the input may make a read wait (not a regular file).
    pub fn new(input: Box<dyn Read>, path: &str, max: Option<u64>, live: bool) -> Lines {
        Lines {
            live,
            reader: io::BufReader::with_capacity(1 << 16, input),
            raw: Vec::new(),
            path: path.to_owned(),
            max,
            read: 0,
            taken: 0,
            status: 2,
        }
    }

    /// The exit status for the last `Failed`: 1 when the input could not be read, 2 when it
    /// was refused (over the limit, binary, not a run log).
    pub fn failure_status(&self) -> i32 {
        self.status
    }

    fn read_failed(&mut self, e: &io::Error) -> Failure {
        self.status = 1;
        Failure(format!("cannot read {}: {}", name_of(&self.path), io_reason(e)))
    }

    fn fill(&mut self) -> Result<&[u8], Failure> {
        loop {
            match self.reader.fill_buf() {
                Ok(_) => return Ok(self.reader.buffer()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.read_failed(&e)),
            }
        }
    }

    /// Where the input's first 8 KiB hold a NUL byte, which no agent's text or JSON output
    /// has (ripgrep's test for a binary file): `Some(offset)`.
    pub fn binary_at(&mut self) -> Result<Option<u64>, Failure> {
        let buf = self.fill()?;
        let head = &buf[..buf.len().min(8 << 10)];
        Ok(memchr::memchr(0, head).map(|i| i as u64))
    }

    fn over_limit(&mut self, more: usize) -> Option<Failure> {
        let max = self.max?;
        if self.read + more as u64 > max {
            self.status = 2;
            return Some(Failure(too_big_streamed(&self.path, max)));
        }
        None
    }

    /// The next line; `flush` is called before a read that may wait.
    pub fn next(&mut self, flush: &mut dyn FnMut() -> Result<(), Failure>) -> Result<Line<'_>, Failure> {
        self.reader.consume(std::mem::take(&mut self.taken));
        self.raw.clear();
        let limit = agentlines::parser::MAX_LINE_BYTES;
        let mut overlong: Option<(usize, String)> = None;
        loop {
            // Nothing buffered: the next read may wait for the writer (`tail -f`, a pipe from
            // a live agent), so every entry of the lines before shows now.
            if self.live && self.reader.buffer().is_empty() {
                flush()?;
            }
            let (empty, newline, part) = match self.fill() {
                Ok(buf) => {
                    let newline = memchr::memchr(b'\n', buf);
                    (buf.is_empty(), newline, newline.map_or(buf.len(), |i| i + 1))
                }
                Err(f) => return Ok(Line::Failed(f)),
            };
            if empty {
                return Ok(match overlong {
                    Some((len, head)) => Line::Overlong { len, head },
                    None if self.raw.is_empty() => Line::End,
                    None => Line::Whole(&self.raw),
                });
            }
            if let Some(f) = self.over_limit(part) {
                return Ok(Line::Failed(f));
            }
            self.read += part as u64;
            if let Some((len, _)) = &mut overlong {
                // Past the limit: count, do not keep.
                *len += newline.unwrap_or(part);
                self.reader.consume(part);
                if newline.is_some() {
                    let (len, head) = overlong.take().unwrap_or_default();
                    return Ok(Line::Overlong { len, head });
                }
                continue;
            }
            if let Some(i) = newline {
                if self.raw.is_empty() && i < limit {
                    self.taken = part;
                    return Ok(Line::Whole(&self.reader.buffer()[..part]));
                }
            }
            self.raw.extend_from_slice(&self.reader.buffer()[..part]);
            self.reader.consume(part);
            if self.raw.len() > limit + 1 {
                let len = self.raw.len() - usize::from(newline.is_some());
                let keep = agentlines::parser::OVERLONG_KEEP_BYTES + 4;
                let head = String::from_utf8_lossy(&self.raw[..keep.min(self.raw.len())]).into_owned();
                self.raw = Vec::new();
                if newline.is_some() {
                    return Ok(Line::Overlong { len, head });
                }
                overlong = Some((len, head));
                continue;
            }
            if newline.is_some() {
                return Ok(Line::Whole(&self.raw));
            }
            if !self.live {
                flush()?;
            }
        }
    }

    /// The rest of the input, at most `max` bytes in all (`already` read before).
    pub fn rest(&mut self, max: u64, already: u64, bar: &ProgressBar) -> Result<Vec<u8>, Failure> {
        self.reader.consume(std::mem::take(&mut self.taken));
        let buffered = self.reader.buffer().to_vec();
        let len = buffered.len();
        self.reader.consume(len);
        if already + len as u64 > max {
            self.status = 2;
            return fail(too_big(&self.path, max));
        }
        bar.inc(len as u64);
        let path = self.path.clone();
        match read_bounded(&mut self.reader, &path, max, already + len as u64, bar) {
            Ok(more) => Ok([buffered, more].concat()),
            Err(f) => {
                self.status = if f.0.contains("input limit") { 2 } else { 1 };
                Err(f)
            }
        }
    }
}

pub fn too_big_streamed(path: &str, max: u64) -> String {
    format!("{} is over the {} input limit (--max-input): stopped there", name_of(path), human_bytes(max))
}
