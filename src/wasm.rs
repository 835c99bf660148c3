//! The only file that knows it runs in WebAssembly.
//!
//! Two faces over the same core:
//!
//! 1. **A raw ABI** (`al_*` exports, always built) used by the shipped JavaScript: the glue
//!    writes a line with `TextEncoder.encodeInto` straight into a reused input buffer,
//!    calls one export, and reads one JSON string back (`JSON.parse` in JS). One crossing
//!    per call, no per-field traffic, no generated glue for the host's source scanner to
//!    refuse. It needs no imports at all.
//! 2. **A wasm-bindgen API** (feature `bindgen`): the same functions returning JS objects
//!    through serde-wasm-bindgen. It exists for wasm-bindgen-test and for the boundary
//!    measurement in docs/bench.md ("Where it stands"); the package does not ship it.
//!
//! Feature `stateless-only` (the wasm of the `ui-parser.stateless.js` files) leaves out the
//! stateful (`al_parser_*`) and batch (`al_parse_log`) exports, and with them the stateful
//! parser's code: ~5-6 KB gzip less in files that only ever call `al_parse_line`. Those
//! files also allocate from a bump arena emptied at every call, the host's stateful files from
//! size-class free lists, both instead of dlmalloc ([`heap`]).
//!
//! Buffers: one input and one output buffer, reused across calls. The line is read in place
//! (borrowed, not copied) and the answer serialised straight into the output buffer. An
//! input buffer grown past `KEEP_BYTES` is dropped after its call, an output buffer at the
//! start of the next call (the glue has read it by then), so one huge line does not pin
//! megabytes in the allocator (wasm memory pages themselves never shrink).

use crate::prelude::*;
use crate::parser::parse_line;
#[cfg(not(feature = "stateless-only"))]
use crate::{parser::StdoutParser, Format};
use std::borrow::Cow;

const KEEP_BYTES: usize = 1 << 20;

struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
    #[cfg(not(feature = "stateless-only"))]
    parsers: Vec<Option<StdoutParser>>,
}

static mut STATE: Buffers = Buffers {
    input: Vec::new(),
    output: Vec::new(),
    #[cfg(not(feature = "stateless-only"))]
    parsers: Vec::new(),
};

/// The instance's buffers and parsers. A plain `static mut` rather than a `thread_local!`
/// around a `RefCell` (~1 KB of wasm for a guard that cannot fire):
// SAFETY: only the exports below call this, each once, and nothing inside `f` can reach
// another export: wasm32-unknown-unknown without the atomics feature has one thread, and the
// module imports nothing, so no JS runs (and no export is re-entered) while `f` holds the
// reference. A trap in `f` leaves the state half-written, but the glue then drops the whole
// instance and never calls it again.
fn with_state<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    f(unsafe { &mut *core::ptr::addr_of_mut!(STATE) })
}

/// `len` bytes at `at` of the input buffer as text, borrowed. The glue writes UTF-8 with
/// `encodeInto` (lone surrogates already replaced), so the check passes and nothing is
/// copied; bytes that are not UTF-8 anyway are read lossily.
fn input_str(input: &[u8], at: usize, len: usize) -> Cow<'_, str> {
    let end = at.saturating_add(len).min(input.len());
    let bytes = &input[at.min(end)..end];
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(crate::text::lossy_utf8(bytes)),
    }
}

/// Empties the output buffer for the next answer. One grown past `KEEP_BYTES` by an earlier
/// answer (already read by then) is dropped.
fn clear_output(output: &mut Vec<u8>) {
    if output.capacity() > KEEP_BYTES {
        *output = Vec::new();
    }
    output.clear();
}

/// Writes the answer into the output buffer (a JSON array of entries), returns its length.
fn write_output(output: &mut Vec<u8>, entries: &[crate::Entry]) -> usize {
    clear_output(output);
    let mut text = String::from_utf8(core::mem::take(output)).unwrap_or_default();
    text.clear();
    crate::entry::write_entries(&mut text, entries);
    *output = text.into_bytes();
    output.len()
}

/// The answer of `al_call` (already JSON text).
#[cfg(feature = "readers")]
fn set_output(b: &mut Buffers, json: String) -> usize {
    clear_output(&mut b.output);
    b.output.extend_from_slice(json.as_bytes());
    b.output.len()
}

fn shrink_input(b: &mut Buffers) {
    if b.input.capacity() > KEEP_BYTES {
        b.input = Vec::new();
    }
}

/// Makes the input buffer at least `len` bytes long and returns where it starts. In the
/// stateless files this starts a call: the arena is emptied first (see [`heap`]).
#[no_mangle]
pub extern "C" fn al_input(len: usize) -> *mut u8 {
    with_state(|b| {
        #[cfg(all(feature = "stateless-only", not(feature = "std")))]
        {
            // The last answer lives in the arena that is about to be reused. The input buffer
            // is its first block: kept (not zeroed again) when it is big enough and not
            // oversized, else given up with the rest.
            core::mem::forget(core::mem::take(&mut b.output));
            if b.input.len() >= len && b.input.capacity() <= KEEP_BYTES {
                heap::arena::reset_after(b.input.as_ptr() as usize + b.input.capacity());
            } else {
                core::mem::forget(core::mem::take(&mut b.input));
                heap::arena::reset();
            }
        }
        if b.input.len() < len {
            b.input.resize(len, 0);
        }
        b.input.as_mut_ptr()
    })
}

/// Where the last answer's bytes start (valid until the next call).
#[no_mangle]
pub extern "C" fn al_output() -> *const u8 {
    with_state(|b| b.output.as_ptr())
}

#[cfg(feature = "trap-hook")]
fn trap_hook(line: &str) {
    // Debug-only: lets the panic-recovery test make the instance trap on demand (a line
    // that starts with the marker: a long one too).
    if line.starts_with("\u{0}agentlines:trap") {
        panic!("agentlines trap hook");
    }
}
#[cfg(not(feature = "trap-hook"))]
fn trap_hook(_line: &str) {}

/// Stateless parse. The input buffer holds the line (`line_len` bytes) then `ts`
/// (`ts_len` bytes); returns the answer's length (a JSON array of entries).
#[no_mangle]
pub extern "C" fn al_parse_line(line_len: usize, ts_len: usize) -> usize {
    with_state(|b| {
        let line = input_str(&b.input, 0, line_len);
        let ts = input_str(&b.input, line_len, ts_len);
        trap_hook(&line);
        let entries = parse_line(&line, &ts);
        drop((line, ts));
        shrink_input(b);
        write_output(&mut b.output, &entries)
    })
}

/// The entries an extension hook gave for a line, checked (`parser::hook_entries`): the
/// input buffer holds their JSON text (`json_len` bytes) then `ts` (`ts_len` bytes), and the
/// line the hook read was `line_len` bytes (its output budget); returns the answer's length
/// (a JSON array of entries). Called only by a file a hook was baked into
/// (`agentlines-ui-parser --hook`, pkg-template/hook.js).
#[no_mangle]
pub extern "C" fn al_hook_entries(json_len: usize, ts_len: usize, line_len: usize) -> usize {
    with_state(|b| {
        let json = input_str(&b.input, 0, json_len);
        let ts = input_str(&b.input, json_len, ts_len);
        let entries = crate::parser::hook_entries(&json, &ts, line_len);
        drop((json, ts));
        shrink_input(b);
        write_output(&mut b.output, &entries)
    })
}

/// The timestamps a whole-log call passes: one for every line, or one per line joined by
/// `\n` (a line past the last one gets "").
#[cfg(not(any(feature = "stateless-only", feature = "host-stateful")))]
enum Stamps<'a> {
    Every(&'a str),
    PerLine(Vec<&'a str>),
}

#[cfg(not(any(feature = "stateless-only", feature = "host-stateful")))]
impl<'a> Stamps<'a> {
    fn new(ts: &'a str, per_line: bool) -> Stamps<'a> {
        if per_line {
            Stamps::PerLine(ts.split('\n').collect())
        } else {
            Stamps::Every(ts)
        }
    }

    fn of(&self, i: usize) -> String {
        match self {
            Stamps::Every(ts) => (*ts).to_owned(),
            Stamps::PerLine(all) => all.get(i).copied().unwrap_or("").to_owned(),
        }
    }
}

/// Batch parse: the input buffer holds the log text (`text_len` bytes, lines split on
/// `\n`) then the timestamps (`ts_len` bytes): one `ts` for every line when `ts_per_line`
/// is 0, else one per line joined by `\n`. `merge` 1 merges consecutive deltas as the host
/// does. Returns the answer's length (one JSON array of entries for the whole log).
#[cfg(not(any(feature = "stateless-only", feature = "host-stateful")))]
#[no_mangle]
pub extern "C" fn al_parse_log(text_len: usize, ts_len: usize, ts_per_line: u32, merge: u32) -> usize {
    with_state(|b| {
        let text = input_str(&b.input, 0, text_len);
        let ts = input_str(&b.input, text_len, ts_len);
        let stamps = Stamps::new(&ts, ts_per_line != 0);
        let entries = crate::parser::parse_log_with(&text, |i| stamps.of(i), merge != 0);
        drop(stamps);
        drop((text, ts));
        shrink_input(b);
        write_output(&mut b.output, &entries)
    })
}

/// Whole lines at once, for viewers of big logs (`parseBatch` in the npm entry): the input
/// buffer holds the text (`text_len` bytes) then the timestamps (`ts_len` bytes, one for
/// every line, or one per line joined by `\n` when `flags & 1`); `flags & 2`: a record's own
/// `timestamp` wins ([`crate::parser::parse_batch`]); `flags & 4`: the text ends the stream
/// (the parser is flushed after it). Through the stateful parser `handle`,
/// or each line alone when it is 0 (or unknown). Returns the answer's length:
/// `{"count":n,"lines":[…],"entries":[…]}`: `n` lines read, `lines[k]` the index of the line
/// `entries[k]` came from.
#[cfg(all(feature = "std", not(any(feature = "stateless-only", feature = "host-stateful"))))]
#[no_mangle]
pub extern "C" fn al_parse_batch(handle: u32, text_len: usize, ts_len: usize, flags: u32) -> usize {
    with_state(|b| {
        let Buffers { input, output, parsers } = b;
        let text = input_str(input, 0, text_len);
        let ts = input_str(input, text_len, ts_len);
        let stamps = Stamps::new(&ts, flags & 1 != 0);
        let parser = parsers.get_mut((handle as usize).wrapping_sub(1)).and_then(Option::as_mut);
        let (entries, lines, count) = crate::parser::parse_batch(parser, &text, &|i| stamps.of(i), flags & 2 != 0, flags & 4 != 0);
        drop(stamps);
        drop((text, ts));
        clear_output(output);
        let mut json = String::from_utf8(core::mem::take(output)).unwrap_or_default();
        json.clear();
        json.push_str("{\"count\":");
        json.push_str(&count.to_string());
        json.push_str(",\"lines\":[");
        for (k, i) in lines.iter().enumerate() {
            if k > 0 {
                json.push(',');
            }
            json.push_str(&i.to_string());
        }
        json.push_str("],\"entries\":");
        crate::entry::write_entries(&mut json, &entries);
        json.push('}');
        *output = json.into_bytes();
        shrink_input(b);
        b.output.len()
    })
}

/// A new stateful parser. The input buffer holds a format name (`name_len` bytes; 0 or an
/// unknown name means autodetect). Returns its handle (never 0).
#[cfg(not(feature = "stateless-only"))]
#[no_mangle]
pub extern "C" fn al_parser_new(name_len: usize) -> u32 {
    with_state(|b| {
        let name = input_str(&b.input, 0, name_len);
        let parser = match Format::from_name(&name) {
            Some(f) => StdoutParser::with_format(f),
            None => StdoutParser::new(),
        };
        let slot = b.parsers.iter().position(Option::is_none);
        let index = match slot {
            Some(i) => {
                b.parsers[i] = Some(parser);
                i
            }
            None => {
                b.parsers.push(Some(parser));
                b.parsers.len() - 1
            }
        };
        index as u32 + 1
    })
}

/// Stateful parse of one line (input buffer as for `al_parse_line`). `mode` 0 = a whole
/// line, 1 = a raw chunk (`parseChunk`), 2 = flush (`line_len` ignored).
#[cfg(not(feature = "stateless-only"))]
#[no_mangle]
pub extern "C" fn al_parser_feed(handle: u32, mode: u32, line_len: usize, ts_len: usize) -> usize {
    with_state(|b| {
        let Buffers { input, output, parsers } = b;
        let line = input_str(input, 0, line_len);
        let ts = input_str(input, line_len, ts_len);
        trap_hook(&line);
        let idx = (handle as usize).wrapping_sub(1);
        let entries = match parsers.get_mut(idx).and_then(Option::as_mut) {
            Some(p) => match mode {
                1 => p.parse_chunk(&line, &ts),
                2 => p.flush(&ts),
                _ => p.parse_line(&line, &ts),
            },
            // A freed or unknown handle: still never lose the line.
            None => parse_line(&line, &ts),
        };
        drop((line, ts));
        write_output(output, &entries);
        shrink_input(b);
        b.output.len()
    })
}

#[cfg(not(feature = "stateless-only"))]
#[no_mangle]
pub extern "C" fn al_parser_reset(handle: u32) {
    with_state(|b| {
        if let Some(Some(p)) = b.parsers.get_mut((handle as usize).wrapping_sub(1)) {
            p.reset();
        }
    })
}

#[cfg(not(feature = "stateless-only"))]
#[no_mangle]
pub extern "C" fn al_parser_free(handle: u32) {
    with_state(|b| {
        if let Some(slot) = b.parsers.get_mut((handle as usize).wrapping_sub(1)) {
            *slot = None;
        }
    })
}

/// The runtime a stateful parser's stream was detected (or forced) as, its name in the
/// output buffer (empty while unknown). Only in builds with the readers (the npm entry).
#[cfg(feature = "readers")]
#[no_mangle]
pub extern "C" fn al_parser_runtime(handle: u32) -> usize {
    with_state(|b| {
        let name = b.parsers.get((handle as usize).wrapping_sub(1)).and_then(Option::as_ref).and_then(StdoutParser::format).map_or("", Format::name);
        set_output(b, name.to_owned())
    })
}

/// Name-based call (see `crate::api`): input buffer holds the name then a JSON array of
/// arguments; the answer is `{"ok":…}` or `{"throws":…}`. Only in builds with the readers
/// (`dist/index.cjs`): the host's files have nothing to call by name.
#[cfg(feature = "readers")]
#[no_mangle]
pub extern "C" fn al_call(name_len: usize, args_len: usize) -> usize {
    with_state(|b| {
        let name = input_str(&b.input, 0, name_len);
        let args = input_str(&b.input, name_len, args_len);
        let json = crate::api::call(&name, &args);
        drop((name, args));
        shrink_input(b);
        set_output(b, json)
    })
}

/// A panic in the host's `no_std` files is a bare trap: the glue drops the instance and
/// answers the line as plain text (`alFallback`), as it did when std's abort trapped. No
/// message is formatted here, so std's hook and payload code is not linked (core's own
/// message builders still are: core comes precompiled and builds them before calling this).
#[cfg(not(feature = "std"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// The allocators of the `no_std` builds (the host's files), in place of std's dlmalloc
/// (~7 KB of wasm, ~2.7 KB gzip of every file). Both carve blocks upwards from where the
/// module's own memory (its data and stack) ends, growing wasm memory as they go. Wasm
/// memory never shrinks: the glue gives it back by dropping an instance no parser lives in
/// once it has grown past 32 MiB (pkg-template/glue.js, `alTrim`).
///
/// - **`arena`**, the stateless files (feature `stateless-only`): those files only ever call
///   `al_parse_line`, and nothing it allocates outlives the call but its answer, which the
///   glue has read before the next call. So the whole heap is emptied at the start of every
///   call and nothing is freed one by one: freeing the newest block, or growing it, happens
///   in place (a `Vec` or `String` being pushed to is usually the newest block); anything
///   else freed waits for the next call.
/// - **`classes`**, the host's stateful files (and any other `no_std` build): parsers live
///   across calls, so blocks are recycled. A request is rounded up to one of 217 size
///   classes (16 bytes, then eight per power of two: at most 12.5% waste), and a freed block
///   goes onto its class's free list, to be handed out again for the same class, or back to
///   the heap when it is the top block (which also grows and shrinks in place when no block
///   of the new class is free). No headers: Rust passes the size back on every free.
///   Allocation and free are O(1). Blocks over 64 KiB (a long line's buffers; a handful
///   at a time) are kept apart, in one address-ordered list whose neighbours merge: a
///   freed block joins the blocks beside it, a request takes the first that fits and
///   leaves the rest free, and free space at the top goes back to the heap. Without that,
///   every size of long line kept its own blocks (52 lines of about 15 MiB grew memory to
///   781 MiB; now it stays near the largest line's working set).
#[cfg(not(feature = "std"))]
mod heap {
    use std::alloc::{GlobalAlloc, Layout};
    use core::arch::wasm32::{memory_grow, memory_size};

    const PAGE: usize = 65536;

    // The heap's start, its next free byte and the end of wasm memory (0 until first use).
    // SAFETY (every `unsafe` below): one thread (wasm32 without atomics), and the allocator
    // is never re-entered.
    static mut BASE: usize = 0;
    static mut NEXT: usize = 0;
    static mut END: usize = 0;

    /// Makes the heap reach `end`; false when wasm memory cannot grow that far.
    unsafe fn reach(end: usize) -> bool {
        if END == 0 {
            END = memory_size(0) * PAGE;
            BASE = END;
            NEXT = END;
        }
        if end <= END {
            return true;
        }
        // At least 1 MiB at a time (fewer grows), else just what is needed when memory is
        // nearly full. (4 GiB itself does not fit a wasm32 `usize`: stop one page short.)
        let need = (end - END).div_ceil(PAGE);
        for pages in [need.max(16), need] {
            if let Some(grown) = pages.checked_mul(PAGE).and_then(|n| END.checked_add(n)) {
                if memory_grow(0, pages) != usize::MAX {
                    END = grown;
                    return true;
                }
            }
        }
        false
    }

    /// `size` new bytes at `align` from the top of the heap (null when memory runs out).
    unsafe fn carve(size: usize, align: usize) -> *mut u8 {
        if END == 0 {
            reach(0);
        }
        let Some(start) = NEXT.checked_add(align - 1).map(|s| s & !(align - 1)) else { return core::ptr::null_mut() };
        match start.checked_add(size) {
            Some(end) if reach(end) => {
                NEXT = end;
                start as *mut u8
            }
            _ => core::ptr::null_mut(),
        }
    }

    #[cfg(feature = "stateless-only")]
    pub mod arena {
        use super::*;

        struct Arena;

        #[global_allocator]
        static ARENA: Arena = Arena;

        /// Empties the heap: every block handed out so far is dead.
        pub fn reset() {
            unsafe { NEXT = BASE }
        }

        /// Empties the heap but for its first block, which ends at `end`.
        pub fn reset_after(end: usize) {
            unsafe { NEXT = end.max(BASE) }
        }

        unsafe impl GlobalAlloc for Arena {
            unsafe fn alloc(&self, l: Layout) -> *mut u8 {
                carve(l.size(), l.align())
            }

            unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
                if p as usize + l.size() == NEXT {
                    NEXT = p as usize;
                }
            }

            unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
                if p as usize + l.size() == NEXT {
                    // The newest block: grow or shrink it where it is.
                    return match (p as usize).checked_add(new_size) {
                        Some(end) if reach(end) => {
                            NEXT = end;
                            p
                        }
                        _ => core::ptr::null_mut(),
                    };
                }
                let q = carve(new_size, l.align());
                if !q.is_null() {
                    core::ptr::copy_nonoverlapping(p, q, l.size().min(new_size));
                }
                q
            }
        }
    }

    #[cfg(not(feature = "stateless-only"))]
    mod classes {
        use super::*;

        struct Classes;

        #[global_allocator]
        static CLASSES: Classes = Classes;

        /// Every block starts at a multiple of this (so a recycled block suits any request
        /// of its class up to this alignment); larger alignments are carved fresh.
        const ALIGN: usize = 16;

        /// The head of each class's free list (0: empty); a free block's first word is the
        /// next one's address.
        static mut FREE: [usize; 217] = [0; 217];

        /// The size class of a request of `size` bytes: its index and its block size.
        fn class(size: usize) -> (usize, usize) {
            if size <= 16 {
                return (0, 16);
            }
            // 2^(e-1) < size <= 2^e, in steps of 2^(e-4) (eight classes per power of two) but
            // at least 16, so every block size is a multiple of ALIGN. `Layout` keeps sizes
            // within isize::MAX, so e <= 31 and the block size fits.
            let e = usize::BITS - (size - 1).leading_zeros();
            let step = (1usize << (e - 4)).max(ALIGN);
            let k = (size - (1 << (e - 1))).div_ceil(step);
            (1 + (e as usize - 5) * 8 + (k - 1), (1 << (e - 1)) + k * step)
        }

        /// Blocks larger than this are `large`: merged with their free neighbours.
        const LARGE: usize = 64 << 10;

        /// Free large blocks, in address order (0: none); a free large block's first word is
        /// the next one's address, its second its own size.
        static mut LARGE_FREE: usize = 0;

        unsafe fn link(at: usize) -> *mut usize {
            at as *mut usize
        }
        unsafe fn span(at: usize) -> *mut usize {
            (at as *mut usize).add(1)
        }

        /// Lowers the top of the heap past free large blocks that end at it.
        unsafe fn trim() {
            let (mut prev, mut at) = (0, LARGE_FREE);
            while at != 0 && *link(at) != 0 {
                prev = at;
                at = *link(at);
            }
            if at != 0 && at + *span(at) == NEXT {
                NEXT = at;
                if prev == 0 { LARGE_FREE = 0 } else { *link(prev) = 0 }
            }
        }

        /// A large block of `size` bytes: the first free one that fits (the rest of it stays
        /// free), else new from the top of the heap. (No free block ends at the top: `trim`
        /// runs whenever the top comes down.)
        unsafe fn alloc_large(size: usize) -> *mut u8 {
            let (mut prev, mut at) = (0, LARGE_FREE);
            while at != 0 {
                let (next, have) = (*link(at), *span(at));
                if have >= size {
                    let rest = if have > size { at + size } else { next };
                    if have > size {
                        *link(rest) = next;
                        *span(rest) = have - size;
                    }
                    if prev == 0 { LARGE_FREE = rest } else { *link(prev) = rest }
                    return at as *mut u8;
                }
                (prev, at) = (at, next);
            }
            carve(size, ALIGN)
        }

        /// Frees a large block: merged with free neighbours, or given back to the heap at the top.
        unsafe fn free_large(p: usize, size: usize) {
            if p + size == NEXT {
                NEXT = p;
                trim();
                return;
            }
            let (mut prev, mut at) = (0, LARGE_FREE);
            while at != 0 && at < p {
                (prev, at) = (at, *link(at));
            }
            let (mut start, mut len) = (p, size);
            if at == p + size {
                len += *span(at);
                at = *link(at);
            }
            if prev != 0 && prev + *span(prev) == p {
                start = prev;
                len += *span(prev);
            } else if prev == 0 {
                LARGE_FREE = start;
            } else {
                *link(prev) = start;
            }
            *link(start) = at;
            *span(start) = len;
        }

        unsafe impl GlobalAlloc for Classes {
            unsafe fn alloc(&self, l: Layout) -> *mut u8 {
                let (c, size) = class(l.size());
                if size > LARGE && l.align() <= ALIGN {
                    return alloc_large(size);
                }
                let head = FREE[c];
                if head != 0 && l.align() <= ALIGN {
                    FREE[c] = *(head as *const usize);
                    return head as *mut u8;
                }
                carve(size, l.align().max(ALIGN))
            }

            unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
                let (c, size) = class(l.size());
                if p as usize + size == NEXT {
                    // The top block goes back to the heap, and free large blocks under it.
                    NEXT = p as usize;
                    trim();
                    return;
                }
                if size > LARGE {
                    return free_large(p as usize, size);
                }
                *(p as *mut usize) = FREE[c];
                FREE[c] = p as usize;
            }

            unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
                let (c, size) = class(l.size());
                let (new_c, new_block) = class(new_size);
                if new_c == c {
                    return p;
                }
                // The top block (a buffer being filled, most often) grows or shrinks in place,
                // unless the new class has a free block: growing in place while such blocks
                // wait would leave them there for good (measured: +200 KiB per Claude log).
                if FREE[new_c] == 0 && p as usize + size == NEXT && reach(p as usize + new_block) {
                    NEXT = p as usize + new_block;
                    return p;
                }
                let q = self.alloc(Layout::from_size_align_unchecked(new_size, l.align()));
                if !q.is_null() {
                    core::ptr::copy_nonoverlapping(p, q, l.size().min(new_size));
                    self.dealloc(p, l);
                }
                q
            }
        }
    }
}

#[cfg(feature = "bindgen")]
mod bindgen {
    //! The wasm-bindgen face: same core, JS objects out through serde-wasm-bindgen.
    use crate::parser::{parse_line, StdoutParser};
    use crate::{entries_to_json, Format};
    use wasm_bindgen::prelude::*;

    fn to_js(entries: &[crate::Entry]) -> JsValue {
        let ser = serde_wasm_bindgen::Serializer::json_compatible();
        serde::Serialize::serialize(entries, &ser).unwrap_or_else(|_| js_sys::Array::new().into())
    }

    #[wasm_bindgen(start)]
    pub fn start() {
        console_error_panic_hook::set_once();
    }

    /// `parseStdoutLine` returning JS objects built in Rust.
    #[wasm_bindgen(js_name = parseStdoutLine)]
    pub fn parse_stdout_line(line: &str, ts: &str) -> JsValue {
        to_js(&parse_line(line, ts))
    }

    /// `parseStdoutLine` returning one JSON string (the shipped path's shape).
    #[wasm_bindgen(js_name = parseStdoutLineJson)]
    pub fn parse_stdout_line_json(line: &str, ts: &str) -> String {
        entries_to_json(&parse_line(line, ts))
    }

    #[wasm_bindgen(js_name = StdoutParser)]
    pub struct JsStdoutParser(StdoutParser);

    #[wasm_bindgen(js_class = StdoutParser)]
    impl JsStdoutParser {
        #[wasm_bindgen(constructor)]
        pub fn new(format: Option<String>) -> JsStdoutParser {
            match format.as_deref().and_then(Format::from_name) {
                Some(f) => JsStdoutParser(StdoutParser::with_format(f)),
                None => JsStdoutParser(StdoutParser::new()),
            }
        }
        #[wasm_bindgen(js_name = parseLine)]
        pub fn parse_line(&mut self, line: &str, ts: &str) -> JsValue {
            to_js(&self.0.parse_line(line, ts))
        }
        pub fn reset(&mut self) {
            self.0.reset();
        }
    }

    /// Name-based call, as `crate::api::call`.
    #[wasm_bindgen]
    pub fn call(name: &str, args_json: &str) -> String {
        crate::api::call(name, args_json)
    }
}
