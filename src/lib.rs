//! agentlines: turns what coding agents print into a clean transcript.
//!
//! A pure core (`&str` in, owned [`Entry`] values out) with one module per runtime under
//! [`formats`], the host's two parser shapes in [`parser`], and readers for message
//! frames, turn signals and session files beside them. The WebAssembly binding lives in
//! `wasm.rs` alone; the native CLI in `src/bin/agentlines.rs`. Nothing here reads a
//! clock, the environment or the network: output depends on input only.

pub mod api;
pub mod entry;
// The runtime modules' docs link private helpers (acp's `ToolLine`, pi's `session`) for
// readers of the source; `cargo doc --document-private-items` renders those links.
#[allow(rustdoc::private_intra_doc_links)]
pub mod formats;
pub mod parser;
// RFC 3339 timestamps to milliseconds and civil dates (no clock, no date crate).
pub mod time;
// Paperclip's stored run logs (`{ts, stream, chunk, seq}` rows) and records' own timestamps.
pub mod runlog;
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
pub mod js;
// Turn-signal blocks (The Framework's turn gate), exact parity; also read by the stdout
// parser to add notices for signals in assistant text.
#[cfg(any(feature = "readers", feature = "turn-signals"))]
pub mod turn_signals;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use entry::{entries_to_json, Entry};
pub use formats::Format;
pub use parser::{parse_line, parse_line_as, StdoutParser};
