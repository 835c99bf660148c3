//! The crate's own JSON reader and writer: every JSON line of agent output is read here, and
//! every answer is written here.
//!
//! Hand-written rather than serde + serde_json for the size of the wasm (serde's generic
//! reader and writer were instantiated once per type, 15-20 KB of every shipped file) and
//! for speed (a borrowed tree, strings scanned 16 bytes at a time). serde_json stays the
//! reference: the tests in this module, `tests/json_read.rs` and `tests/json_write.rs`
//! compare both directions with it, byte for byte, and the runtime modules' golden outputs
//! were made by it. This module uses nothing from the rest of the crate but the prelude and
//! the string helpers of [`crate::text`]: the runtime modules (`formats`), the entries and the
//! JS model sit above it (`scripts/module-graph.mjs` checks that no arrow runs back).
//!
//! # What it reads
//!
//! - **Exactly what `serde_json::from_str::<serde_json::Value>` accepts** (serde_json 1.0.x
//!   as locked, with `float_roundtrip`: see Numbers), with the same values: [`read::parse`] for one value,
//!   [`read::parse_prefix`] for the first value of a text (as serde_json's
//!   `StreamDeserializer`), `read::parse_top_object` for a line's top-level object. The rules
//!   are listed in [`read`]; among them, arrays and objects nest at most 127 deep (serde_json's
//!   recursion limit, which also keeps the wasm's 1 MiB stack safe), and a lone surrogate
//!   escape (`"\ud83d"`) is an error.
//! - **Where it differs from serde_json:** the tree is [`Value`], which borrows every string
//!   without escapes from the input instead of copying it, and keeps an object's members in
//!   one `Vec` in input order (serde_json with `preserve_order` keeps the same order). Members
//!   the caller names (the runtime modules' `UNREAD_KEYS`: Claude Code's repeated tool
//!   output) are read as their shape only (`shape.rs`: keys and short scalars, an edit's
//!   `structuredPatch`, `filePath` and `content` whole; other nested values scanned, not
//!   built), accepted or refused as serde_json's `IgnoredAny` would.
//! - **What `JSON.parse` accepts beyond that** (a lone surrogate escape from a string Node
//!   cut inside an emoji, a number past `f64`) is refused by the reader; [`js_json_to_serde`]
//!   rewrites such text so it reads the way JavaScript shows it (U+FFFD, ±`f64::MAX`), and
//!   [`read::is_json`] checks the grammar alone, as `JSON.parse` does.
//!
//! # Numbers
//!
//! Read into `serde_json::Number` as serde_json reads them: an integer that fits `u64` stays
//! one, a negative one that fits `i64` (but not `-0`) too, everything else is an `f64`; a float
//! past `f64` is an error. **The `f64` is the correctly rounded one**, what `JSON.parse` and
//! every browser read (and serde_json with its `float_roundtrip` feature, the tests' oracle),
//! not what serde_json's default computes, which can be one bit off (`1e-30` read as
//! `9.999999999999999e-31`): entries must show what the agent printed. `number.rs` takes
//! Clinger's exact fast path for nearly every token and, for the rest, settles serde_json's
//! estimate against the token's exact value with big-integer comparisons (core's parser
//! would do the same with ~17 KB gzip of tables in every shipped file; this costs 1.3 KB).
//! Written as serde_json writes them ([`write::number`]): integers in decimal, floats with the
//! shortest round-trip digits (zmij, serde_json's own float writer), non-finite as `null`.
//! The host type's numeric fields go through [`write::js_number`] (integral values without
//! `.0`, non-finite as `0`). `num.rs` prints an `f64` as Rust's `{}` / `{:.N}` would, on the
//! same float writer, for numbers shown inside text.
//!
//! # Duplicate keys
//!
//! A repeated key keeps its first position and takes its last value, as serde_json's
//! order-preserving map and JavaScript's `JSON.parse` do (`pairs.rs`, shared with the JS
//! model's `JSON.parse`); `read::parse_top_object` also says whether a key was repeated.
//! Hostile objects of many keys stay O(n log n).
//!
//! # Size
//!
//! Reading and writing have no output budget of their own: the output of a value is its
//! JSON text, and the nesting limit bounds the recursion. What one line of agent output may
//! produce is bounded above this module, per line, by `formats::common::budget`.
//!
//! # `unsafe`
//!
//! Only where the string loops need it; each site states its argument beside it:
//! - `bytes.rs`: appends with the capacity check inline and growth out of line (the wasm is
//!   built at opt-level `z`, where `Vec::extend_from_slice` stays three calls per string);
//! - `pairs.rs`: one push into room just reserved;
//! - `read.rs`: an unescaped string rebuilt from whole runs of the (UTF-8) input cut at ASCII
//!   bytes, and cuts at a quote or backslash the scan found, taken without re-checking;
//! - `write.rs`: the output `String`'s bytes written directly, with ASCII and whole runs of a
//!   `&str`, so it is UTF-8 again after each run;
//! - `scan.rs`: the 16-byte SIMD scans (SSE2 on x86_64, simd128 on wasm32).
//!
//! # Files
//!
//! `read.rs` (text to [`Value`]), `shape.rs` (the shape of unread members), `number.rs` (a
//! number token), `val.rs` ([`Value`], [`Map`]), `pairs.rs` (repeated keys), `write.rs`
//! (JSON text out), `num.rs` (numbers as text), `scan.rs` and `bytes.rs` (the string loops
//! both directions share), `lenient.rs` (what `JSON.parse` accepts), and the test-only
//! `serde_ref.rs` (the serde_json reading `read.rs` replaced, the differential tests'
//! reference).

mod bytes;
mod lenient;
mod num;
mod number;
pub mod pairs;
pub mod read;
pub(crate) mod scan;
#[cfg(test)]
mod serde_ref;
mod shape;
mod val;
pub mod write;
pub use lenient::js_json_to_serde;
pub use num::{fixed, fract, num_text, round, trunc};
pub use number::number;
pub use read::hex4;
pub use val::{Map, Value};
/// Output JSON (tool inputs and the like): the value tree, owning its strings.
pub type Json = Value<'static>;
