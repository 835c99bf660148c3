//! agentlines turns what coding agents print (Claude Code, Codex, Gemini CLI, OpenCode,
//! Cursor, pi, OpenClaw, ACP agents and more: the README's runtime table) into transcript
//! entries: assistant text, thinking, tool calls paired with their results, diffs, notices,
//! usage and cost. `&str` in, owned [`Entry`] values out; nothing here reads a clock, the
//! environment or the network, so the output depends on the input only, and nothing panics
//! or fails on any input (a line nobody reads becomes a `stdout` or `system` entry).
//!
//! ```
//! use agentlines::{entries_to_json, parse_line, Entry, StdoutParser};
//!
//! // One line on its own (what the Paperclip host's default parser file does per line).
//! let init = r#"{"type":"system","subtype":"init","model":"claude-sonnet-4-5","session_id":"abc"}"#;
//! let ts = "2026-01-01T00:00:00.000Z";
//! assert_eq!(parse_line(init, ts), vec![Entry::init(ts, "claude-sonnet-4-5", "abc")]);
//!
//! // A whole stream: the runtime is detected, tool results are paired with their calls.
//! let mut parser = StdoutParser::new();
//! let call = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#;
//! let result = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"README.md"}]}}"#;
//! let mut entries = Vec::new();
//! for line in [init, call, result] {
//!     entries.extend(parser.parse_line(line, ts));
//! }
//! assert!(matches!(&entries[2], Entry::ToolResult { tool_name: Some(n), .. } if n == "Bash"));
//! // The host's JSON: `[{"kind":"init",…},{"kind":"tool_call",…},{"kind":"tool_result",…}]`.
//! assert!(entries_to_json(&entries).starts_with(r#"[{"kind":"init""#));
//! ```
//!
//! The API:
//! - [`parse_line`] / [`parse_line_as`] (stateless) and [`StdoutParser`] (stateful: runtime
//!   detection and locking, pairing, deltas, `parse_chunk` for raw chunks), with
//!   [`merge_deltas`] and the limits in [`parser`];
//! - [`Entry`] (the host's `TranscriptEntry`, `Serialize` and `Deserialize`), [`OtherEntry`],
//!   [`entries_to_json`]; [`Format`] names a runtime;
//! - readers of whole files: [`runlog`] (Paperclip's stored run logs), [`sessions`]
//!   (normalized sessions), [`items`] (Claude Code session items), [`frames`] and
//!   [`turn_signals`]; [`time`] (RFC 3339 to milliseconds).
//!
//! The modules hidden from these docs (`formats`, `json`, `entry`…) are the implementation:
//! reachable for the bindings, the `agentlines` command (the `agentlines-cli` package) and
//! the tests, not part of the API. `docs/` in the repository has the rest: the entry fields
//! (`docs/entries.md`), each runtime (`docs/formats/`), the readers.

// The host's ui-parser files (wasm without the `std` feature) are `no_std`: the panic handler
// in wasm.rs is a bare trap, so std's panic machinery (hook, payload, the message formatted
// into a String) is not linked (0.6-1.1 KB gzip a file; core's own message builders stay, as
// core comes precompiled). `alloc` stands in for `std` (its `String`, `Vec`, `format!`…);
// paths only core has are written `core::`; the std prelude's names come from `prelude`.
#![cfg_attr(all(target_arch = "wasm32", not(feature = "std")), no_std)]
// In those files a single `&some_str[a..b]` links core's message for a cut inside a character
// (its `Debug` code and Unicode tables, 4.3-4.6 KB gzip a file): they slice strings through
// `text::cut`. `cargo clippy --target wasm32-unknown-unknown --no-default-features
// --features runtimes,turn-signals,host-stateful` names any new site, and `make dist` fails
// when the message is in a shipped wasm (Makefile).
#![cfg_attr(not(feature = "std"), warn(clippy::string_slice))]
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
#[macro_use]
extern crate alloc as std;

/// What the standard prelude gives, for the `no_std` builds (see above).
#[allow(unused_imports)]
pub(crate) mod prelude {
    pub use std::borrow::ToOwned;
    pub use std::boxed::Box;
    pub use std::string::{String, ToString};
    pub use std::vec::Vec;
}

/// A value only one thread ever sees: what `thread_local!` holds, for the `no_std` wasm.
// SAFETY: the `no_std` build is wasm32-unknown-unknown without the atomics feature, so the
// program has exactly one thread; nothing is shared.
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
pub(crate) struct OneThread<T>(pub T);
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
unsafe impl<T> Sync for OneThread<T> {}
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
impl<T> OneThread<T> {
    pub fn with<R>(&'static self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.0)
    }
}

/// `static NAME: T = init;` per thread: `thread_local!` with std, `OneThread` without.
macro_rules! per_thread {
    (static $name:ident: $t:ty = $init:expr;) => {
        #[cfg(not(all(target_arch = "wasm32", not(feature = "std"))))]
        std::thread_local! {
            static $name: $t = const { $init };
        }
        #[cfg(all(target_arch = "wasm32", not(feature = "std")))]
        static $name: crate::OneThread<$t> = crate::OneThread($init);
    };
}

// Name-based calls (the npm entry's readers, the bindgen API) and stored run logs (the CLI):
// never in the host's files.
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod api;
// How values cross that boundary as JSON (`$js` tags, escaped keys, arguments by position),
// below `api` and the modules it calls.
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod wire;
#[doc(hidden)]
pub mod entry;
// The runtime modules' docs link private helpers (acp's `ToolLine`, pi's `session`) for
// readers of the source; `cargo doc --document-private-items` renders those links.
#[allow(rustdoc::private_intra_doc_links)]
#[doc(hidden)]
pub mod formats;
// The JSON reader and writer every line and answer goes through (serde_json's grammar and
// output, hand-written for the wasm's size); below everything that reads or writes JSON.
// Its docs link its private reader for readers of the source, as `formats` does.
#[allow(rustdoc::private_intra_doc_links)]
#[doc(hidden)]
pub mod json;
// String helpers the whole crate shares (cut, substring search, join…), below everything.
#[doc(hidden)]
pub mod text;
pub mod parser;
// RFC 3339 timestamps to milliseconds and civil dates (no clock, no date crate).
pub mod time;
// Paperclip's stored run logs (`{ts, stream, chunk, seq}` rows) and records' own timestamps.
#[cfg(feature = "std")]
pub mod runlog;
// List prices per model (generated from LiteLLM's data) and one meaning for every token
// count; what a run cost where its log states no cost. Never in the host's files.
#[cfg(feature = "std")]
pub mod prices;
#[cfg(feature = "std")]
pub mod usage;
// Agent logs as tables (entries, runs, tool calls) for the DuckDB and Python/Arrow bindings.
#[cfg(feature = "readers")]
pub mod tables;
// Claude Code session-file items and selections (@ccmsg vocabulary).
#[cfg(feature = "readers")]
pub mod items;
// Normalized sessions from whole session files (@molecule/api-agent-transcript).
#[cfg(feature = "readers")]
pub mod sessions;
// @clawboo/protocol message-frame parsers (exact parity).
#[cfg(feature = "readers")]
pub mod frames;
// A JavaScript value model (undefined, NaN, ordered objects, JSON.stringify) for the
// parity modules, whose inputs are arbitrary JS values.
#[cfg(any(feature = "readers", feature = "turn-signals"))]
#[doc(hidden)]
pub mod js;
// The recorded conformance cases' encoding, fed through `api` by the conformance tests.
#[cfg(all(feature = "std", any(feature = "readers", feature = "turn-signals")))]
#[doc(hidden)]
pub mod conformance;
// Turn-signal blocks (The Framework's turn gate), exact parity; also read by the stdout
// parser to add notices for signals in assistant text.
#[cfg(any(feature = "readers", feature = "turn-signals"))]
pub mod turn_signals;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use entry::{entries_to_json, Entry, OtherEntry};
pub use formats::Format;
pub use parser::{merge_deltas, parse_line, parse_line_as, StdoutParser};
