//! Transcript items: a Claude Code session `.jsonl` classified into the `@ccmsg/protocol`
//! dump vocabulary (kawaz/ccmsg-protocol `src/control/dump.ts` @ `01f60f1e`), by the rules
//! of the kawaz/ccmsg classifier at the revision the conformance cases were recorded from
//! (`classify.ts` @ `7a5a82b8`, `tools.ts`/`select.ts` @ `7b43ca46`, `record.ts` @
//! `bdcf793d`; `tests/fixtures/conformance/ccmsg/NOTES.md` explains the version skew).
//!
//! Types: `message:user:in|out`, `message:sub:in|out`, `message:session:in|out`,
//! `thinking`, `notice:slash`, `notice:interrupt`, `system:compact|api-error|task|caveat|
//! resume|unknown`, `system:attachment:<kind>`, `hook:<Event>`, `tool:<Name>` (a call and
//! its result are two items, `role: "use"`/`"result"`, linked by `result_item` and
//! `parent_item`). Every item has `id` (`<uuid>:<index>`), `uuid`, `source` (`{offset,
//! bytes}` of its record), `type`, `at` (ms) and `turn`.
//!
//! - [`classify()`] / [`Classification`]: text → items (whole file, or chunk by chunk).
//! - [`selection`] / [`select()`]: which items a dump keeps (`tool,-tool:Read,@preset`).
//! - [`dump_config`]: validates a config's presets with upstream's messages.
//! - [`dump_ids`] / [`dump_file`] / [`dump_session`]: the `SessionDumpFile` and its ledger.
//!
//! Like the session readers and unlike the stdout parser, `dump_config` can fail (with a
//! message naming the problem); classification never does.

pub mod api;
pub mod classify;
pub mod config;
pub mod dump;
mod make;
mod pending;
mod state;
pub mod record;
pub mod select;
pub mod tools;

pub use classify::{classify, Chunk, Classification};
pub use make::ItemUpdate;
pub use config::{check_selection, dump_config, is_selector};
pub use dump::{dump_file, dump_ids, dump_session, session_id, DumpId, DumpSubject};
pub use select::{decide, select, selection, Ask, DumpPreset, Selection, DEFAULT_TYPES};

/// One classified item: a JSON object whose fields depend on its `type`.
pub type Item = serde_json::Map<String, serde_json::Value>;

/// The fully spelled-out item types (the open families `tool:<Name>`,
/// `system:attachment:<kind>` and `hook:<Event>` are not listed).
pub const TRANSCRIPT_ITEM_TYPES: [&str; 15] = [
    "message:user:in",
    "message:user:out",
    "message:sub:in",
    "message:sub:out",
    "message:session:in",
    "message:session:out",
    "thinking",
    "notice:slash",
    "notice:interrupt",
    "system:compact",
    "system:api-error",
    "system:task",
    "system:caveat",
    "system:resume",
    "system:unknown",
];
