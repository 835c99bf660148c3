//! Helpers every runtime module shares: reading fields leniently out of a JSON value,
//! flattening content blocks to text, and the readable fallbacks for events nobody knows.
//! Nothing here panics on any input. The JSON value itself, its reader and writer are the
//! JSON layer's ([`crate::json`]); the string helpers below are the crate's ([`crate::text`]),
//! re-exported so a runtime module takes its whole toolbox from here.

use crate::prelude::*;
use crate::entry::Entry;
use crate::json::{js_json_to_serde, read, Json, Map, Value};
use std::collections::VecDeque;

pub mod budget;
pub mod diff;
pub mod envelope;
mod streamed;
mod texts;
pub use crate::text::{cut, find, has, join, lossy_utf8, prefix_bytes, replace_all, rfind, split_around, trim_start_all, Owned};
pub use streamed::Streamed;
pub use texts::{human_texts, TEXT_BUDGET};

/// How module parsers add an entry: `out.emit(entry)`. Kept out of line on purpose: one
/// call at each of the ~200 emitting sites instead of an inlined grow-and-copy of the
/// entry (about 9 KB of the wasm). While a line is parsed, an entry past the line's output
/// budget is not added ([`budget`]).
pub trait Emit {
    fn emit(&mut self, e: Entry);
}

impl Emit for Vec<Entry> {
    #[inline(never)]
    fn emit(&mut self, mut e: Entry) {
        if mid_run_usage(&mut e) && budget::admit(&e) {
            self.push(e);
        }
    }
}

/// The `subtype`s of a `result` that carries tokens spent on the way, not a run's end: one
/// model call's ([`MODEL_CALL`]), an API request's or a subagent's (Cline), a step that ended
/// to call tools (OpenCode). Copilot CLI's checkpoint (`usage`, a subtype hooks and entry
/// lines use for their own results too) writes its text itself.
pub const MID_RUN: [&str; 4] = [MODEL_CALL, "api_request", "subagent_usage", "tool-calls"];

/// The released host shows every `result` as a row and an empty one as "Completed", which a
/// reader takes for the run's end. So a mid-run result ([`MID_RUN`]) says what it counts
/// (`tokens: 12 in · 5 out · 8 cache read`), and one that counts nothing (a failed attempt's
/// 0 tokens) is not kept: the totals the host sums stay the same (docs/host-e2e.md, Results).
fn mid_run_usage(e: &mut Entry) -> bool {
    let Entry::Result { text, input_tokens: i, output_tokens: o, cached_tokens: r, cache_creation_tokens: w, cost_usd, subtype, is_error: false, .. } = e else {
        return true;
    };
    if !MID_RUN.contains(&subtype.as_str()) {
        return true;
    }
    let w = w.unwrap_or(0.0);
    if !(*i + *o + *r + w + *cost_usd > 0.0) {
        return false;
    }
    if text.is_empty() {
        *text = tokens_text(*i, *o, *r, w);
    }
    true
}

/// `tokens: 12 in · 5 out · 8 cache read · 2 cache write` (the cache parts only when not 0).
pub fn tokens_text(i: f64, o: f64, r: f64, w: f64) -> String {
    let n = crate::json::num_text;
    let mut text = format!("tokens: {} in · {} out", n(i), n(o));
    for (k, v) in [("cache read", r), ("cache write", w)] {
        if v > 0.0 {
            let _ = core::fmt::Write::write_fmt(&mut text, format_args!(" · {} {k}", n(v)));
        }
    }
    text
}

/// How sure a runtime module is that a parsed line is its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    No,
    /// The shape fits, but another runtime prints the same shape (e.g. Claude-like
    /// `assistant` lines from Amp or Qwen): parse it, but do not lock the stream on it.
    Maybe,
    /// Only this runtime prints this.
    Sure,
}

impl Confidence {
    /// `Sure` when a runtime's own marks are all there, else `No` (the readers whose lines
    /// are either unmistakably theirs or not theirs at all).
    pub fn sure_if(sure: bool) -> Confidence {
        if sure {
            Confidence::Sure
        } else {
            Confidence::No
        }
    }
}

/// `v[key]` as a string, if it is one.
pub fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// `v[key]` as a non-empty string.
pub fn nonempty_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    str_of(v, key).filter(|s| !s.is_empty())
}

/// `v[key]` as a finite number, else 0 (the host's `asNumber`).
pub fn num_of(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).filter(|n| n.is_finite()).unwrap_or(0.0)
}

/// `v[key]` as a bool, `false` when absent or of another type.
pub fn bool_of(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The `type` field, or "".
pub fn type_of<'a>(v: &'a Value) -> &'a str {
    str_of(v, "type").unwrap_or("")
}

/// Follows a path of object keys.
pub fn path<'a, 'v>(v: &'a Value<'v>, keys: &[&str]) -> Option<&'a Value<'v>> {
    let mut cur = v;
    for k in keys {
        cur = cur.get(k)?;
    }
    Some(cur)
}

/// Ids a stateful parser remembers, each with a small JSON value, bounded: past `cap` ids,
/// or past [`MAX_SEEN_BYTES`] of ids and values, the oldest is forgotten (so a few calls with
/// megabyte ids cannot pin memory either; the newest is always kept). Kept sorted by id in
/// one `Vec` (binary search) rather than a `HashMap`, whose hash-table code would be a few
/// KB more of wasm for each key/value type; the caps keep the moves on insert small.
#[derive(Debug, Default)]
pub struct SeenIds {
    values: Vec<(String, Json)>,
    order: VecDeque<String>,
    /// About the heap bytes of `values` and `order` (see `seen_cost`).
    bytes: usize,
}

/// Bytes of ids and values one [`SeenIds`] keeps at most (besides its count cap, and besides
/// the newest id, which is kept whatever its size). Real ids are under 100 bytes: 4096 of
/// them with their values take well under 1 MiB.
pub const MAX_SEEN_BYTES: usize = 4 << 20;

/// What one remembered id costs: the id twice (map key and eviction order), its value, and
/// the map's and queue's per-item overhead.
fn seen_cost(id: &str, v: &Json) -> usize {
    2 * id.len() + budget::json_weight(v) + 64
}

impl SeenIds {
    fn find(&self, id: &str) -> Result<usize, usize> {
        self.values.binary_search_by(|(k, _)| k.as_str().cmp(id))
    }

    /// The value of an id, `None` if it was never set (or was forgotten or removed).
    pub fn get(&self, id: &str) -> Option<&Json> {
        self.find(id).ok().map(|i| &self.values[i].1)
    }

    /// Sets the value of `id`; a new id goes last in the eviction order.
    pub fn set(&mut self, id: &str, value: Json, cap: usize) {
        let cost = seen_cost(id, &value);
        let at = match self.find(id) {
            Ok(i) => {
                let v = &mut self.values[i].1;
                self.bytes = self.bytes - seen_cost(id, v) + cost;
                *v = value;
                return;
            }
            Err(at) => at,
        };
        self.values.insert(at, (id.owned(), value));
        self.order.push_back(id.owned());
        self.bytes += cost;
        while (self.order.len() > cap || self.bytes > MAX_SEEN_BYTES) && self.order.len() > 1 {
            let Some(old) = self.order.pop_front() else { break };
            if let Ok(i) = self.find(&old) {
                let (_, v) = self.values.remove(i);
                self.bytes -= seen_cost(&old, &v);
            }
        }
    }

    /// Forgets `id`.
    pub fn remove(&mut self, id: &str) {
        if let Ok(i) = self.find(id) {
            let (_, v) = self.values.remove(i);
            self.bytes -= seen_cost(id, &v);
            self.order.retain(|o| o != id);
        }
    }
}

/// Readable text of a content value: a string as is; an array of blocks joined by
/// newlines (each block's `text`, or a short marker for images and other non-text
/// blocks, so nothing silently vanishes); an object's `text`/`content`; anything else as
/// compact JSON.
pub fn content_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.owned(),
        Value::Array(items) => {
            let mut parts: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                let part = match item {
                    Value::String(s) => s.owned(),
                    Value::Object(_) => block_text(item),
                    other => compact_json(other),
                };
                if !part.is_empty() {
                    parts.push(part);
                }
            }
            join(&parts, "\n")
        }
        Value::Object(_) => block_text(v),
        other => compact_json(other),
    }
}

fn block_text(block: &Value) -> String {
    if let Some(t) = str_of(block, "text") {
        return t.owned();
    }
    match type_of(block) {
        "image" => {
            let media = path(block, &["source", "media_type"]).and_then(Value::as_str);
            match media {
                Some(m) => format!("[image {m}]"),
                None => "[image]".owned(),
            }
        }
        "document" => "[document]".owned(),
        "tool_reference" => match str_of(block, "tool_name") {
            Some(n) => format!("[tool reference: {n}]"),
            None => "[tool reference]".owned(),
        },
        _ => match block.get("content") {
            Some(c) if !c.is_object() => content_text(c),
            _ => compact_json(block),
        },
    }
}

/// Tool arguments as JSON: the encoded string parsed, the raw string kept when it is not
/// JSON, `{}` when absent.
pub fn arguments(args: Option<&Value>) -> Json {
    match args {
        None | Some(Value::Null) => Json::Object(Default::default()),
        Some(Value::String(s)) if s.trim().is_empty() => Json::Object(Default::default()),
        Some(Value::String(s)) => match read::parse(s.trim()) {
            Some(parsed) => parsed.to_json(),
            None => Json::from(s.to_string()),
        },
        Some(other) => other.to_json(),
    }
}

/// `{}`.
pub fn empty_object() -> Json {
    Json::Object(Map::default())
}

/// A JSON object from `(key, value)` pairs in this order, leaving out the `None` values.
/// Used instead of `json!` with interpolated values, which goes through
/// `to_value(..).unwrap()` and links a second copy of serde's `Value` serializer.
pub fn object<const N: usize>(mut pairs: [(&str, Option<Json>); N]) -> Json {
    object_of(&mut pairs)
}

fn object_of(pairs: &mut [(&str, Option<Json>)]) -> Json {
    let mut m = Map::default();
    for (k, v) in pairs {
        if let Some(v) = v.take() {
            m.insert((*k).owned(), v);
        }
    }
    Json::Object(m)
}

/// Compact JSON text of a value (used for tool inputs shown as text, never for whole lines).
pub fn compact_json(v: &Value) -> String {
    v.to_compact()
}

/// An error value as a person reads it, never as JSON text: a string as it is; an object's
/// `message` / `error` / `detail` / `reason` / `description` / `title` / `code`, looking
/// into nested objects (`{"error":{"message":…}}`) a few levels down; a list's items joined;
/// else its short fields. `None` when nothing in it reads as a message (null, empty, or
/// an object of ids and structure only). Every runtime's error and notice paths use this, so a notice never carries a
/// JSON dump (the invariant `tests/support_robust` checks on every generated line).
pub fn error_text(v: &Value) -> Option<String> {
    error_text_at(v, 0)
}

fn error_text_at(v: &Value, depth: usize) -> Option<String> {
    const KEYS: &[&str] = &["message", "error", "detail", "details", "reason", "description", "title", "msg", "text", "content", "code"];
    match v {
        Value::String(s) => Some(s.trim()).filter(|s| !s.is_empty()).map(|s| json_body_words(s, depth).unwrap_or_else(|| s.owned())),
        Value::Number(_) | Value::Bool(_) => Some(v.to_compact()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().take(5).filter_map(|i| error_text_at(i, depth + 1)).collect();
            (!parts.is_empty()).then(|| clip(&crate::text::join(&parts, "; "), 300))
        }
        Value::Object(map) if depth < 4 => KEYS
            .iter()
            .filter_map(|k| map.get(k))
            .find_map(|x| error_text_at(x, depth + 1))
            .or_else(|| Some(short_fields(v, 3)).filter(|s| !s.is_empty())),
        _ => None,
    }
}

/// A message that ends in a JSON body (an API's error response quoted whole, as Codex quotes
/// OpenAI's pretty-printed 400: `unexpected status 400 Bad Request: {"error": {…}}`): the text
/// before it and the body's own words, with its error type or code; `None` when there is no
/// such body.
fn json_body_words(s: &str, depth: usize) -> Option<String> {
    if depth >= 4 || !s.ends_with('}') {
        return None;
    }
    let at = find(s, "{")?;
    let body = parse_object(cut(s, at..))?;
    let inner = body.get("error").filter(|e| e.is_object()).unwrap_or(&body);
    let words = error_text_at(inner, depth + 1)?;
    let kind = ["type", "code", "status"].iter().find_map(|k| inner.get(k).and_then(Value::as_str)).filter(|k| !has(&words, k));
    let head = cut(s, ..at).trim().trim_end_matches(':').trim_end();
    let mut out = if head.is_empty() { words } else { format!("{head}: {words}") };
    if let Some(k) = kind {
        out = format!("{out} ({k})");
    }
    Some(out)
}

/// The `subtype` of a `result` that carries one model call's tokens (a session file's or a
/// rollout's, which state no run total): the host sums it like any result; viewers may fold
/// it with the notices (www/model.js).
pub const MODEL_CALL: &str = "model_call";

/// A reply without OpenClaw's leading delivery directives (`[[reply_to_current]]`,
/// `[[reply_to:<id>]]`, `[[audio_as_voice]]`): the gateway reads them off the reply to route
/// it and the person never sees them. Only at the start, only these tags, and the space after.
pub fn without_reply_tags(text: &str) -> &str {
    let mut t = text;
    loop {
        let rest = t.trim_start();
        let Some(inner) = rest.strip_prefix("[[") else { return t };
        let Some(end) = find(inner, "]]") else { return t };
        let tag = cut(inner, ..end).trim();
        let known = tag == "reply_to_current" || tag == "audio_as_voice" || tag.starts_with("reply_to:");
        if !known || end > 200 {
            return t;
        }
        t = cut(inner, end + 2..).trim_start_matches([' ', '\t']);
    }
}

/// A user message without the envelope OpenClaw's gateway puts before it: blocks of
/// `Conversation info (untrusted metadata):`, `Sender (untrusted metadata):`, `Replied message
/// (untrusted, for context):`, each a JSON object in a ```` ```json ```` fence, then a blank
/// line. The model reads them; a person reading the run sees them before every message.
/// Returns the sender's `name` (people on Telegram, Discord…; not a client's `label`) and the
/// message; the text unchanged when it does not start with such a block.
pub fn without_sender_envelope(text: &str) -> (Option<String>, &str) {
    let mut rest = text;
    let mut name = None;
    loop {
        let t = rest.trim_start();
        let Some(colon) = find(t, "):") else { break };
        let head = cut(t, ..colon + 2);
        if colon > 80 || has(head, "\n") || !has(head, " (untrusted") {
            break;
        }
        let body = cut(t, colon + 2..).trim_start_matches([' ', '\t', '\r', '\n']);
        let Some(json) = body.strip_prefix("```json") else { break };
        let Some(end) = find(json, "\n```") else { break };
        if head.starts_with("Sender ") {
            if let Some(v) = parse_object(cut(json, ..end)) {
                name = nonempty_str(&v, "name").map(str::owned);
            }
        }
        rest = cut(json, end + 4..);
    }
    if core::ptr::eq(rest, text) {
        return (None, text);
    }
    (name, rest.trim_start())
}

/// Shortens text for one-line system notices, on a char boundary.
pub fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.owned(),
        Some((end, _)) => format!("{}…", cut(text, ..end)),
    }
}

/// The fallback for a JSON event no module understands: a system entry that names the
/// runtime and the event type, plus the first few short string fields so the line still
/// says something, then the human text found inside it at any depth (bounded; see
/// `texts.rs`). Never the raw JSON.
pub fn unknown_event(ts: &str, runtime: &str, v: &Value) -> Entry {
    let ty = event_name(v);
    let mut text = if runtime.is_empty() {
        format!("event: {ty}")
    } else {
        format!("{runtime} event: {ty}")
    };
    let details = short_fields(v, 3);
    if !details.is_empty() {
        text.push_str(" (");
        text.push_str(&details);
        text.push(')');
    }
    let more = human_texts(v).render(&text);
    text.push_str(&more);
    Entry::system(ts, text)
}

/// The event's name: `type` (+ `subtype`), or the object's first keys when it has no type.
pub fn event_name(v: &Value) -> String {
    match (str_of(v, "type"), str_of(v, "subtype")) {
        (Some(t), Some(s)) if !s.is_empty() => format!("{t}/{s}"),
        (Some(t), _) if !t.is_empty() => t.owned(),
        _ => match v.as_object() {
            Some(map) if !map.is_empty() => {
                format!("object with {}", join(map.keys().take(4), ", "))
            }
            Some(_) => "empty object".owned(),
            None => "value".owned(),
        },
    }
}

/// Keys whose values are ids, times or versions: a notice made of them says nothing
/// ("system (uuid: …, timestamp: …)") and crowds out the names that would.
fn bookkeeping(k: &str) -> bool {
    let lower_end = |suffix: &str| k.len() > suffix.len() && k.ends_with(suffix);
    matches!(k, "id" | "uuid" | "ts" | "timestamp" | "time" | "version" | "seq" | "cwd")
        || lower_end("Id")
        || lower_end("ID")
        || lower_end("_id")
        || lower_end("Uuid")
        || lower_end("_uuid")
        || lower_end("Timestamp")
        || lower_end("_at")
}

/// `key: value` for the first `n` short string/number/bool fields other than type/subtype
/// and bookkeeping (ids, times, versions).
pub fn short_fields(v: &Value, n: usize) -> String {
    let Some(map) = v.as_object() else { return String::new() };
    let mut parts = Vec::new();
    for (k, val) in map {
        if parts.len() >= n {
            break;
        }
        if k == "type" || k == "subtype" || bookkeeping(k) {
            continue;
        }
        let shown = match val {
            Value::String(s) if !s.is_empty() && s.chars().count() <= 80 => s.owned(),
            Value::Number(_) => val.to_compact(),
            Value::Bool(b) => b.to_string(),
            _ => continue,
        };
        parts.push(format!("{k}: {shown}"));
    }
    join(&parts, ", ")
}

/// Top-level keys that can be large and are never shown: only their shape is built when a
/// line is parsed (an object's keys with its short scalar values; nested values and long
/// strings are scanned, not built: `json/shape.rs`). Claude Code repeats every tool's
/// output in `toolUseResult` (session files) / `tool_use_result` (stream-json) beside the
/// `tool_result` block we show; in real session logs that is a third of the bytes. The
/// shape names the tool (`claude/tool_names.rs`).
pub const UNREAD_KEYS: &[&str] = &["toolUseResult", "tool_use_result"];

/// Parses a line as a JSON object, leaving out [`UNREAD_KEYS`]. `None` for anything else
/// (plain text, arrays, broken JSON). Duplicate keys keep the last value, like
/// `serde_json::Value`.
pub fn parse_object(line: &str) -> Option<Value<'_>> {
    parse_object_read(line).map(|(v, _)| v)
}

/// [`parse_object`], and whether the line was read as it is, without repeated
/// top-level keys (`false`: repeated keys, or read only after [`js_json_to_serde`]).
pub(crate) fn parse_object_read(line: &str) -> Option<(Value<'_>, bool)> {
    let t = line.trim();
    if !t.starts_with('{') {
        return None;
    }
    match parse_object_text(t) {
        Some((v, repeated)) => Some((v, !repeated)),
        None => Some((parse_object_text(&js_json_to_serde(t)?)?.0.into_owned(), false)),
    }
}

fn parse_object_text(t: &str) -> Option<(Value<'_>, bool)> {
    let (map, repeated) = read::parse_top_object(t, UNREAD_KEYS)?;
    Some((Value::Object(map), repeated))
}

/// Unit-test helpers: a module's `detect` and `parse` applied to a `json!` value (the
/// modules read the borrowed [`Value`]; tests write `serde_json` literals).
#[cfg(test)]
pub(crate) mod json_test {
    use super::{Confidence, Value};
    use crate::entry::Entry;
    use serde_json::Value as Json;

    pub fn detect(detect: fn(&Value) -> Confidence, v: &Json) -> Confidence {
        detect(&Value::from_json(v))
    }

    /// The module's stateless (`state` `None`) or stateful entries for one line, ts `"t"`.
    pub fn run<S>(
        parse: fn(&Value, &str, &str, Option<&mut S>, &mut Vec<Entry>),
        v: &Json,
        state: Option<&mut S>,
    ) -> Vec<Entry> {
        let mut out = Vec::new();
        parse(&Value::from_json(v), "", "t", state, &mut out);
        out
    }
}

#[cfg(test)]
mod js_json_tests {
    use super::*;

    #[test]
    fn a_mid_run_result_says_what_it_counts_and_one_counting_nothing_is_not_kept() {
        let call = |subtype: &str, input: f64, text: &str, is_error: bool| {
            let mut e = Entry::untallied_result("T", text.owned(), subtype, is_error, Vec::new());
            if let Entry::Result { input_tokens, output_tokens, cached_tokens, .. } = &mut e {
                (*input_tokens, *output_tokens, *cached_tokens) = (input, 7.0 * input.min(1.0), 3.0 * input.min(1.0));
            }
            let mut out = Vec::new();
            out.emit(e);
            out.iter().map(|e| match e {
                Entry::Result { text, .. } => text.clone(),
                _ => unreachable!(),
            }).collect::<Vec<_>>()
        };
        assert_eq!(call(MODEL_CALL, 12.0, "", false), ["tokens: 12 in · 7 out · 3 cache read"]);
        assert_eq!(call("api_request", 12.0, "", false), ["tokens: 12 in · 7 out · 3 cache read"]);
        // `usage` is also what hooks and entry lines call their own results: left as given.
        assert_eq!(call("usage", 12.0, "", false), [""]);
        // Its own words are kept; a failed attempt's 0 tokens add nothing the host could sum.
        assert_eq!(call(MODEL_CALL, 12.0, "tokens: 12 in (3 cached)", false), ["tokens: 12 in (3 cached)"]);
        assert!(call(MODEL_CALL, 0.0, "", false).is_empty());
        // A run's end, or an error, is kept as it is, with or without tokens.
        assert_eq!(call("success", 0.0, "", false), [""]);
        assert_eq!(call(MODEL_CALL, 0.0, "", true), [""]);
    }

    #[test]
    fn what_json_parse_accepts_is_read() {
        let v = parse_object(r#"{"a":"cut \ud83d","b":"pair \ud83d\ude00","c":"low \udc00 x"}"#).unwrap();
        assert_eq!(v["a"], "cut \u{fffd}");
        assert_eq!(v["b"], "pair \u{1f600}");
        assert_eq!(v["c"], "low \u{fffd} x");
        let v = parse_object(r#"{"n":1e400,"m":-2e999,"k":"1e400","ok":1.5}"#).unwrap();
        assert_eq!(v["n"].as_f64(), Some(f64::MAX));
        assert_eq!(v["m"].as_f64(), Some(f64::MIN));
        assert_eq!(v["k"], "1e400");
        assert_eq!(v["ok"].as_f64(), Some(1.5));
        assert!(parse_object(r#"{"broken": }"#).is_none());
        assert!(parse_object(r#"{"a":"\ud83d"#).is_none());
    }

    #[test]
    fn what_json_parse_refuses_is_not_repaired() {
        // Each has a token the number rewrite would turn into JSON; JSON.parse refuses them.
        for t in [r#"{"type":"x","n":01}"#, r#"{"type":"x","n":-}"#, r#"{"type":"x","n":1.,"s":"\ud83d"}"#] {
            assert!(parse_object(t).is_none(), "{t}");
            assert_eq!(js_json_to_serde(t), None, "{t}");
        }
    }
}

#[cfg(test)]
mod error_text_tests {
    use super::*;

    #[test]
    fn an_error_reads_as_a_message_never_as_json() {
        let e = |s: &str| error_text(&parse_object(s).unwrap());
        assert_eq!(e(r#"{"message":{"type":"assistant"}}"#), None, "structure only: no message");
        assert_eq!(e(r#"{"error":{"error":{"message":"deep"}}}"#).as_deref(), Some("deep"));
        assert_eq!(e(r#"{"name":"APIError","data":{"statusCode":504}}"#).as_deref(), Some("name: APIError"));
        assert_eq!(e(r#"{"errors":[{"message":"a"},"b"]}"#), None, "only the listed keys are read");
        assert_eq!(e(r#"{"details":[{"message":"a"},"b",{"x":{}}]}"#).as_deref(), Some("a; b"));
        assert_eq!(e(r#"{"code":429}"#).as_deref(), Some("429"));
        // The line the fuzz oracle found: every runtime's error path now gives no JSON text.
        for line in [r#"{"type":"error","message":{"type":"assistant"}}"#, r#"{"type":"error","error":{"type":"x","data":{"k":[1]}}}"#] {
            for f in crate::formats::Format::JSON {
                let mut p = crate::parser::StdoutParser::with_format(f);
                for entry in p.parse_line(line, "t") {
                    if let Entry::Stderr { text, .. } | Entry::System { text, .. } = &entry {
                        assert!(!text.contains('{'), "{f:?}: {text}");
                    }
                }
            }
        }
    }
}
