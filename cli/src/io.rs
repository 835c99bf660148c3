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

pub fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

pub fn name_of(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
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
        let n = reader
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
pub struct Out(io::BufWriter<io::StdoutLock<'static>>, String);

impl Out {
    pub fn new() -> Out {
        Out(io::BufWriter::with_capacity(1 << 16, io::stdout().lock()), String::new())
    }

    fn check(r: io::Result<()>) -> Result<(), Failure> {
        match r {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(e) => fail(format!("cannot write the output: {e}")),
        }
    }

    /// One entry as a JSON line, with the crate's writer into one reused `String` (the same
    /// text serde_json writes; see `json/write.rs`).
    pub fn entry_line(&mut self, e: &agentlines::Entry) -> Result<(), Failure> {
        self.1.clear();
        e.write_json(&mut self.1);
        self.1.push('\n');
        Self::check(self.0.write_all(self.1.as_bytes()))
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
