//! The transcript entry: the host's `TranscriptEntry` type (`@paperclipai/adapter-utils`
//! 2026.916.1), as plain Rust data. Field names and casing are the host's; every entry has
//! `kind` and `ts`. Optional fields are left out of the JSON when absent (the host treats a
//! missing optional field and `undefined` alike).
//!
//! A few fields are ours and documented in `docs/entries.md` (the host ignores unknown
//! fields): `durationMs` on tool results, `parentToolUseId` on subagent traffic.

use crate::prelude::*;
use crate::json::{write, Json as Value};
use serde::Serialize;

/// One transcript entry. Serialises as `{"kind": "<snake_case>", "ts": …, …}`, through the
/// serde derive below or [`Entry::write_json`] (the path every binding takes), which mirrors
/// this declaration field by field: `tests/json_write.rs` fails if the two ever differ.
/// `Deserialize` is implemented beside the check of passed-through entries it uses
/// (`formats/entries.rs`): a wrong or missing field is an error naming it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum Entry {
    Assistant {
        ts: String,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<bool>,
        /// `progress` | `final` | `unknown`
        #[serde(skip_serializing_if = "Option::is_none")]
        channel: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        item_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_tool_use_id: Option<String>,
    },
    Thinking {
        ts: String,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<bool>,
        /// `started` | `completed`
        #[serde(skip_serializing_if = "Option::is_none")]
        lifecycle: Option<&'static str>,
        /// `summary` | `detail` | `unknown`
        #[serde(skip_serializing_if = "Option::is_none")]
        channel: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        item_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_tool_use_id: Option<String>,
    },
    User {
        ts: String,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_tool_use_id: Option<String>,
    },
    ToolCall {
        ts: String,
        name: String,
        input: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_use_id: Option<String>,
        /// The host's own optional ids, kept from a line that already is an entry.
        #[serde(skip_serializing_if = "Option::is_none")]
        invocation_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        action_request_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_tool_use_id: Option<String>,
    },
    ToolResult {
        ts: String,
        tool_use_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_name: Option<String>,
        content: String,
        is_error: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<bool>,
        /// Ours: milliseconds between the call's `ts` and this result's `ts`, when both parse.
        #[serde(skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_tool_use_id: Option<String>,
    },
    Init {
        ts: String,
        model: String,
        session_id: String,
    },
    Result {
        ts: String,
        text: String,
        #[serde(serialize_with = "js_number")]
        input_tokens: f64,
        #[serde(serialize_with = "js_number")]
        output_tokens: f64,
        /// Cache reads (input served from the prompt cache).
        #[serde(serialize_with = "js_number")]
        cached_tokens: f64,
        /// Ours: cache writes (input written to the prompt cache), where the runtime counts
        /// them apart; the host ignores the field and sums only the three above.
        #[serde(skip_serializing_if = "Option::is_none", serialize_with = "opt_js_number")]
        cache_creation_tokens: Option<f64>,
        /// Ours: of the cache writes, those kept for an hour (Anthropic's
        /// `ephemeral_1h_input_tokens`, priced 2× input against 1.25× for five minutes).
        #[serde(skip_serializing_if = "Option::is_none", serialize_with = "opt_js_number")]
        cache_creation_1h_tokens: Option<f64>,
        /// Ours: the part of the output that was reasoning, where the runtime counts it apart
        /// (docs/costs.md says, per runtime, whether `outputTokens` includes it).
        #[serde(skip_serializing_if = "Option::is_none", serialize_with = "opt_js_number")]
        reasoning_tokens: Option<f64>,
        /// Ours: the model that served these tokens, where the line (or, for the stateful
        /// parser, the run so far) names it; prices an estimate per model (docs/costs.md).
        #[serde(skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// Ours: the model call's id (Claude's `message.id`) on a session file's `model_call`
        /// results: a resumed session's file repeats the messages it continues, and a sum over
        /// files counts each call once by it.
        #[serde(skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
        #[serde(serialize_with = "js_number")]
        cost_usd: f64,
        subtype: String,
        is_error: bool,
        errors: Vec<String>,
    },
    Stderr {
        ts: String,
        text: String,
    },
    System {
        ts: String,
        text: String,
    },
    Stdout {
        ts: String,
        text: String,
    },
    Diff {
        ts: String,
        /// `add` | `remove` | `context` | `hunk` | `file_header` | `truncation`
        change_type: &'static str,
        text: String,
    },
    /// One of the host's six kinds agentlines does not make itself (`provider_activity`,
    /// `workspace_change`, `workspace_file_reference`, `runtime_request`, `run_result`,
    /// `run_terminal`), passed through from a line that already is that entry
    /// (`formats::entries`).
    #[serde(untagged)]
    Other(OtherEntry),
}

/// A passed-through entry of a kind the host writes for itself: its kind, the line's `ts`
/// and its fields as checked against the host's type, in the host's order.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherEntry {
    pub ts: String,
    pub kind: &'static str,
    /// A JSON object: the entry's fields but `kind` and `ts`.
    pub fields: Value,
}

impl Serialize for OtherEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let fields = self.fields.as_object();
        let mut m = s.serialize_map(Some(2 + fields.map_or(0, |f| f.len())))?;
        m.serialize_entry("kind", self.kind)?;
        m.serialize_entry("ts", &self.ts)?;
        for (k, v) in fields.into_iter().flatten() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl Entry {
    /// The `kind` string as the host spells it.
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Assistant { .. } => "assistant",
            Entry::Thinking { .. } => "thinking",
            Entry::User { .. } => "user",
            Entry::ToolCall { .. } => "tool_call",
            Entry::ToolResult { .. } => "tool_result",
            Entry::Init { .. } => "init",
            Entry::Result { .. } => "result",
            Entry::Stderr { .. } => "stderr",
            Entry::System { .. } => "system",
            Entry::Stdout { .. } => "stdout",
            Entry::Diff { .. } => "diff",
            Entry::Other(o) => o.kind,
        }
    }

    pub fn ts(&self) -> &str {
        match self {
            Entry::Assistant { ts, .. }
            | Entry::Thinking { ts, .. }
            | Entry::User { ts, .. }
            | Entry::ToolCall { ts, .. }
            | Entry::ToolResult { ts, .. }
            | Entry::Init { ts, .. }
            | Entry::Result { ts, .. }
            | Entry::Stderr { ts, .. }
            | Entry::System { ts, .. }
            | Entry::Stdout { ts, .. }
            | Entry::Diff { ts, .. }
            | Entry::Other(OtherEntry { ts, .. }) => ts,
        }
    }

    // Constructors for the common shapes, so format modules stay short. Kept out of line
    // (with `own` for the timestamp): called from ~300 sites, inlined they cost ~1.4 KB of wasm.

    #[inline(never)]
    pub fn stdout(ts: &str, text: impl Into<String>) -> Entry {
        Entry::Stdout { ts: own(ts), text: text.into() }
    }
    #[inline(never)]
    pub fn stderr(ts: &str, text: impl Into<String>) -> Entry {
        Entry::Stderr { ts: own(ts), text: text.into() }
    }
    #[inline(never)]
    pub fn system(ts: &str, text: impl Into<String>) -> Entry {
        Entry::System { ts: own(ts), text: text.into() }
    }
    #[inline(never)]
    pub fn user(ts: &str, text: impl Into<String>) -> Entry {
        Entry::User { ts: own(ts), text: text.into(), parent_tool_use_id: None }
    }
    #[inline(never)]
    pub fn assistant(ts: &str, text: impl Into<String>) -> Entry {
        Entry::Assistant {
            ts: own(ts),
            text: text.into(),
            delta: None,
            channel: None,
            item_id: None,
            parent_tool_use_id: None,
        }
    }
    #[inline(never)]
    pub fn assistant_delta(ts: &str, text: impl Into<String>) -> Entry {
        Entry::Assistant {
            ts: own(ts),
            text: text.into(),
            delta: Some(true),
            channel: None,
            item_id: None,
            parent_tool_use_id: None,
        }
    }
    #[inline(never)]
    pub fn thinking(ts: &str, text: impl Into<String>) -> Entry {
        Entry::Thinking {
            ts: own(ts),
            text: text.into(),
            delta: None,
            lifecycle: None,
            channel: None,
            item_id: None,
            parent_tool_use_id: None,
        }
    }
    #[inline(never)]
    pub fn thinking_delta(ts: &str, text: impl Into<String>) -> Entry {
        Entry::Thinking {
            ts: own(ts),
            text: text.into(),
            delta: Some(true),
            lifecycle: None,
            channel: None,
            item_id: None,
            parent_tool_use_id: None,
        }
    }
    #[inline(never)]
    pub fn tool_call(ts: &str, name: impl Into<String>, input: impl Into<Value>, id: Option<String>) -> Entry {
        Entry::ToolCall {
            ts: own(ts),
            name: name.into(),
            input: input.into(),
            tool_use_id: id,
            invocation_id: None,
            action_request_id: None,
            parent_tool_use_id: None,
        }
    }
    /// A `result` that counts no tokens and no cost: the run's end for a runtime that prints
    /// none (the host's sum over results is unchanged by it).
    #[inline(never)]
    pub fn untallied_result(ts: &str, text: String, subtype: &str, is_error: bool, errors: Vec<String>) -> Entry {
        Entry::Result {
            ts: own(ts),
            text,
            input_tokens: 0.0,
            output_tokens: 0.0,
            cached_tokens: 0.0,
            cache_creation_tokens: None,
            cache_creation_1h_tokens: None,
            reasoning_tokens: None,
            model: None,
            call_id: None,
            cost_usd: 0.0,
            subtype: subtype.into(),
            is_error,
            errors,
        }
    }
    #[inline(never)]
    pub fn tool_result(
        ts: &str,
        id: impl Into<String>,
        tool_name: Option<String>,
        content: impl Into<String>,
        is_error: bool,
    ) -> Entry {
        Entry::ToolResult {
            ts: own(ts),
            tool_use_id: id.into(),
            tool_name,
            content: content.into(),
            is_error,
            delta: None,
            duration_ms: None,
            parent_tool_use_id: None,
        }
    }
    #[inline(never)]
    pub fn init(ts: &str, model: impl Into<String>, session_id: impl Into<String>) -> Entry {
        Entry::Init { ts: own(ts), model: model.into(), session_id: session_id.into() }
    }
    #[inline(never)]
    pub fn diff(ts: &str, change_type: &'static str, text: impl Into<String>) -> Entry {
        Entry::Diff { ts: own(ts), change_type, text: text.into() }
    }

    /// Marks subagent traffic (Claude `parent_tool_use_id` and the like) on the kinds
    /// that carry it; other kinds are left as they are. The released host ignores
    /// `parentToolUseId`, so the mark is also in what it does show (docs/fidelity.md): a
    /// subagent's prompt is a `system` notice "Subagent prompt: …" (not a USER message),
    /// and its complete text and thinking start with "↳ subagent: " (streamed pieces are
    /// left as they are, a prefix on each would be repeated inside the merged text).
    pub fn with_parent(mut self, parent: Option<&str>) -> Entry {
        let Some(p) = parent else { return self };
        if let Entry::User { ts, text, .. } = self {
            return Entry::System { ts, text: format!("{SUBAGENT_PROMPT}{text}") };
        }
        match &mut self {
            Entry::Assistant { parent_tool_use_id, text, delta, .. }
            | Entry::Thinking { parent_tool_use_id, text, delta, .. } => {
                if delta.is_none() {
                    text.insert_str(0, SUBAGENT_TEXT);
                }
                *parent_tool_use_id = Some(p.to_owned())
            }
            Entry::ToolCall { parent_tool_use_id, .. }
            | Entry::ToolResult { parent_tool_use_id, .. } => *parent_tool_use_id = Some(p.to_owned()),
            _ => {}
        }
        self
    }
}

/// How a subagent's prompt and text read in a host that ignores `parentToolUseId`.
pub const SUBAGENT_PROMPT: &str = "Subagent prompt: ";
pub const SUBAGENT_TEXT: &str = "\u{21b3} subagent: ";

/// `s.to_owned()`, out of line: the constructors are instantiated per text type, and at
/// opt-level `s` each would carry its own inlined allocate-and-copy for the timestamp.
#[inline(never)]
fn own(s: &str) -> String {
    s.to_owned()
}

/// Serialises entries as one JSON array (the shape every binding returns): the text
/// `serde_json::to_string(entries)` gives, written without serde (`json/write.rs`).
pub fn entries_to_json(entries: &[Entry]) -> String {
    let mut out = String::new();
    write_entries(&mut out, entries);
    out
}

/// Appends entries as one JSON array to `out` (see [`entries_to_json`]).
pub fn write_entries(out: &mut String, entries: &[Entry]) {
    out.push('[');
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        e.write_json(out);
    }
    out.push(']');
}

impl Entry {
    /// Appends this entry's JSON to `out`: `kind` first, then the fields in declaration
    /// order, camelCase, absent optional fields left out (what the serde derive writes).
    pub fn write_json(&self, out: &mut String) {
        let mut o = write::Obj::new(out);
        o.str("kind", self.kind());
        o.str("ts", self.ts());
        match self {
            Entry::Assistant { text, delta, channel, item_id, parent_tool_use_id, .. } => {
                o.str("text", text);
                o.opt_bool("delta", *delta);
                o.opt_str("channel", *channel);
                o.opt_str("itemId", item_id.as_deref());
                o.opt_str("parentToolUseId", parent_tool_use_id.as_deref());
            }
            Entry::Thinking { text, delta, lifecycle, channel, item_id, parent_tool_use_id, .. } => {
                o.str("text", text);
                o.opt_bool("delta", *delta);
                o.opt_str("lifecycle", *lifecycle);
                o.opt_str("channel", *channel);
                o.opt_str("itemId", item_id.as_deref());
                o.opt_str("parentToolUseId", parent_tool_use_id.as_deref());
            }
            Entry::User { text, parent_tool_use_id, .. } => {
                o.str("text", text);
                o.opt_str("parentToolUseId", parent_tool_use_id.as_deref());
            }
            Entry::ToolCall { name, input, tool_use_id, invocation_id, action_request_id, parent_tool_use_id, .. } => {
                o.str("name", name);
                write::value(o.key("input"), input);
                o.opt_str("toolUseId", tool_use_id.as_deref());
                o.opt_str("invocationId", invocation_id.as_deref());
                o.opt_str("actionRequestId", action_request_id.as_deref());
                o.opt_str("parentToolUseId", parent_tool_use_id.as_deref());
            }
            Entry::ToolResult {
                tool_use_id, tool_name, content, is_error, delta, duration_ms, parent_tool_use_id, ..
            } => {
                o.str("toolUseId", tool_use_id);
                o.opt_str("toolName", tool_name.as_deref());
                o.str("content", content);
                o.bool("isError", *is_error);
                o.opt_bool("delta", *delta);
                if let Some(ms) = duration_ms {
                    write::uint(o.key("durationMs"), *ms);
                }
                o.opt_str("parentToolUseId", parent_tool_use_id.as_deref());
            }
            Entry::Init { model, session_id, .. } => {
                o.str("model", model);
                o.str("sessionId", session_id);
            }
            Entry::Result {
                text, input_tokens, output_tokens, cached_tokens, cache_creation_tokens, cache_creation_1h_tokens, reasoning_tokens, model, call_id,
                cost_usd,
                subtype,
                is_error, errors, ..
            } => {
                o.str("text", text);
                write::js_number(o.key("inputTokens"), *input_tokens);
                write::js_number(o.key("outputTokens"), *output_tokens);
                write::js_number(o.key("cachedTokens"), *cached_tokens);
                if let Some(n) = cache_creation_tokens {
                    write::js_number(o.key("cacheCreationTokens"), *n);
                }
                if let Some(n) = cache_creation_1h_tokens {
                    write::js_number(o.key("cacheCreation1hTokens"), *n);
                }
                if let Some(n) = reasoning_tokens {
                    write::js_number(o.key("reasoningTokens"), *n);
                }
                o.opt_str("model", model.as_deref());
                o.opt_str("callId", call_id.as_deref());
                write::js_number(o.key("costUsd"), *cost_usd);
                o.str("subtype", subtype);
                o.bool("isError", *is_error);
                let list = o.key("errors");
                list.push('[');
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        list.push(',');
                    }
                    write::str(list, e);
                }
                list.push(']');
            }
            Entry::Stderr { text, .. } | Entry::System { text, .. } | Entry::Stdout { text, .. } => {
                o.str("text", text);
            }
            Entry::Diff { change_type, text, .. } => {
                o.str("changeType", change_type);
                o.str("text", text);
            }
            Entry::Other(OtherEntry { fields, .. }) => {
                for (k, v) in fields.as_object().into_iter().flatten() {
                    write::value(o.key(k), v);
                }
            }
        }
        o.end();
    }
}

/// The serde face of [`write::js_int`]: the same numbers as [`Entry::write_json`] writes.
fn js_number<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    match write::js_int(*v) {
        Some(i) => s.serialize_i64(i),
        None => s.serialize_f64(*v),
    }
}

/// [`js_number`] for an optional field (skipped when `None`).
fn opt_js_number<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(n) => js_number(n, s),
        None => s.serialize_none(),
    }
}
