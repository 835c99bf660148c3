//! OpenHands CLI, `openhands --headless --json -t "<task>"` (PyPI `openhands`, the
//! OpenHands-CLI on the software-agent SDK; what MountainLabsDE/paperclip-openhands-adapter
//! runs). Two shapes are in the wild:
//!
//! - **SDK events**, what the CLI prints: for every event but the system prompt, a line
//!   `--JSON Event--` and then `json.dumps(event.model_dump(), indent=2, sort_keys=True)`, a
//!   pretty-printed object over many lines (`openhands_cli/…/json_callback`). Classes by
//!   `kind`: `MessageEvent {source, llm_message{role, content[{type,text}], reasoning_content?}}`,
//!   `ActionEvent {thought[], reasoning_content?, action{kind, …}, tool_name, tool_call_id}`,
//!   `ObservationEvent {observation{kind, content[], is_error?, exit_code?}, tool_name,
//!   tool_call_id}`, `AgentErrorEvent {error, tool_call_id?}`, `UserRejectObservation
//!   {rejection_reason, tool_call_id}`, `ConversationStateUpdateEvent {key, value}`,
//!   `ConversationErrorEvent {code, detail}`, `PauseEvent`, `Condensation*`. The stateful
//!   parser joins the lines after a marker into one object ([`Block`]); the same events on
//!   one line (a conversation's `events/*.json`, an adapter's compact re-print) are read on
//!   both paths.
//! - **The docs' lines** (docs.openhands.dev "Headless" → JSON Output Mode): `{"type":
//!   "action", "action": "write"|"run"|…, …}` and `{"type": "observation", "content", …}`, and
//!   the older event stream's `{action, args{…}, tool_call_metadata}` / `{observation,
//!   content, extras, cause}`.
//!
//! Mapping: agent message → `assistant` (reasoning → `thinking`), user message → `user`;
//! action → `thinking` for its thought, then `tool_call` (name `tool_name`, input the action
//! without its `kind`, id `tool_call_id`); `finish` → `assistant` with its message, `think`
//! → `thinking` (no card: their observations are skipped too); observation → `tool_result`
//! (error when `is_error` or a non-zero `exit_code`); agent error / rejection →
//! `tool_result` error for its call, else `stderr`; state updates → `init` for the full
//! state, a `system` line per change, and at `execution_status` finished / error / stuck a
//! `result`. OpenHands prints usage only as running totals (`stats`), so stateless the
//! result carries none (one running total per result would be summed many times); the
//! stateful parser keeps the last totals and puts them in that one result.
//!
//! Evidence: OpenHands-CLI's `json_callback` and its test, the SDK's event classes, the
//! docs page; no public capture (fixtures derived, `tests/fixtures/openhands/`).

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, num_of, path, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{Json, Value};

/// The line OpenHands prints before each pretty-printed event.
pub const MARKER: &str = "--JSON Event--";

/// The last running totals seen (input, output, cached tokens, cost), and for the docs'
/// id-less lines the count of actions and the id of the one awaiting its observation.
#[derive(Debug, Default)]
pub struct State {
    totals: [f64; 4],
    actions: u32,
    open: String,
}

/// Event classes whose lines have no thought, answer or result to show.
const QUIET: [&str; 3] = ["PauseEvent", "CondensationRequestEvent", "SystemPromptEvent"];

pub fn detect(v: &Value) -> Confidence {
    // SDK classes are CamelCase (`MessageEvent`); a transcript entry's `kind` is lower case.
    if let Some(k) = str_of(v, "kind") {
        let class = k.starts_with(|c: char| c.is_ascii_uppercase())
            && (k.ends_with("Event") || k.ends_with("Observation") || k == "Condensation");
        return if class { Confidence::Sure } else { Confidence::No };
    }
    let has = |key: &str| v.get(key).is_some();
    match type_of(v) {
        "action" if str_of(v, "action").is_some() => Confidence::Sure,
        "observation" if has("content") || has("observation") => Confidence::Sure,
        // The event stream's own shape: `action` with `args`, `observation` with `extras`.
        "" if str_of(v, "action").is_some() && has("args") => Confidence::Sure,
        "" if str_of(v, "observation").is_some() && (has("extras") || has("cause")) => Confidence::Sure,
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    match str_of(v, "kind") {
        Some("MessageEvent") => message(v, ts, out),
        Some("ActionEvent") => action(v, ts, out),
        Some("ObservationEvent") => observation(v.get("observation").unwrap_or(&Value::Null), v, ts, out),
        Some("AgentErrorEvent") => failure(v, nonempty_str(v, "error").unwrap_or("agent error"), ts, out),
        Some("UserRejectObservation") => {
            let why = nonempty_str(v, "rejection_reason").unwrap_or("rejected");
            failure(v, &format!("rejected: {why}"), ts, out)
        }
        Some("ConversationStateUpdateEvent") => state_update(v, ts, state, out),
        Some("ConversationErrorEvent") => {
            let what = nonempty_str(v, "detail").or_else(|| nonempty_str(v, "message")).unwrap_or("conversation error");
            let code = nonempty_str(v, "code").map(|c| format!(" ({c})")).unwrap_or_default();
            out.emit(Entry::stderr(ts, format!("{}{code}", common::clip(what, 2000))));
        }
        Some(k) if QUIET.contains(&k) => {}
        Some(k) => {
            let summary = nonempty_str(v, "summary").or_else(|| nonempty_str(v, "reason")).unwrap_or("");
            out.emit(Entry::system(ts, if summary.is_empty() { k.owned() } else { format!("{k}: {}", common::clip(summary, 600)) }));
        }
        None => legacy(v, ts, state, out),
    }
}

/// `content[]` text blocks (or a string) as text.
fn text_of(v: Option<&Value>) -> String {
    v.map(content_text).unwrap_or_default().trim().owned()
}

fn message(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let m = v.get("llm_message").unwrap_or(&Value::Null);
    let think = text_of(m.get("reasoning_content"));
    if !think.is_empty() {
        out.emit(Entry::thinking(ts, think));
    }
    let text = text_of(m.get("content"));
    if text.is_empty() {
        return;
    }
    match str_of(v, "source").unwrap_or("agent") {
        "user" => out.emit(Entry::user(ts, text)),
        "environment" => out.emit(Entry::system(ts, text)),
        _ => out.emit(Entry::assistant(ts, text)),
    }
}

/// The tools whose action is itself the text (`finish`'s answer, `think`'s thought).
fn is_text_tool(name: &str) -> bool {
    matches!(name, "finish" | "think")
}

fn action(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let a = v.get("action").unwrap_or(&Value::Null);
    let thought = text_of(v.get("thought"));
    let reasoning = text_of(v.get("reasoning_content"));
    for t in [reasoning, thought] {
        if !t.is_empty() {
            out.emit(Entry::thinking(ts, t));
        }
    }
    let name = nonempty_str(v, "tool_name").unwrap_or("tool");
    match name {
        "finish" => {
            let t = text_of(a.get("message"));
            if !t.is_empty() {
                out.emit(Entry::assistant(ts, t));
            }
        }
        "think" => {
            let t = text_of(a.get("thought"));
            if !t.is_empty() {
                out.emit(Entry::thinking(ts, t));
            }
        }
        _ => {
            let mut input = crate::json::Map::default();
            for (k, val) in a.as_object().into_iter().flatten() {
                if k != "kind" && !val.is_null() {
                    input.insert(k.owned(), val.to_json());
                }
            }
            let id = nonempty_str(v, "tool_call_id").or_else(|| nonempty_str(v, "id"));
            out.emit(Entry::tool_call(ts, name, Json::Object(input), id.map(str::owned)));
        }
    }
}

fn observation(o: &Value, v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let name = nonempty_str(v, "tool_name").unwrap_or("tool");
    if is_text_tool(name) {
        return;
    }
    let mut content = text_of(o.get("content"));
    if content.is_empty() {
        content = ["output", "text", "error"].iter().find_map(|k| nonempty_str(o, k)).unwrap_or("").owned();
    }
    let exit = o.get("exit_code").or_else(|| path(o, &["metadata", "exit_code"])).and_then(Value::as_f64);
    let is_error = common::bool_of(o, "is_error") || common::bool_of(o, "error") || exit.is_some_and(|c| c != 0.0);
    if let (Some(c), true) = (exit, content.is_empty()) {
        content = format!("exit code {}", crate::json::num_text(c));
    }
    let id = nonempty_str(v, "tool_call_id").or_else(|| nonempty_str(v, "action_id")).unwrap_or(name);
    out.emit(Entry::tool_result(ts, id, Some(name.owned()), content, is_error));
}

/// An agent error or a rejection: the failed result of its call, else an error line.
fn failure(v: &Value, text: &str, ts: &str, out: &mut Vec<Entry>) {
    match nonempty_str(v, "tool_call_id") {
        Some(id) => out.emit(Entry::tool_result(ts, id, nonempty_str(v, "tool_name").map(str::owned), text, true)),
        None => out.emit(Entry::stderr(ts, text)),
    }
}

/// `[input, output, cached, cost]` summed over the running totals of every LLM in `stats`.
fn totals(stats: &Value) -> Option<[f64; 4]> {
    let per_llm = stats.get("usage_to_metrics").and_then(Value::as_object)?;
    let mut t = [0.0; 4];
    for (_, m) in per_llm.iter() {
        let u = m.get("accumulated_token_usage").unwrap_or(&Value::Null);
        t[0] += num_of(u, "prompt_tokens");
        t[1] += num_of(u, "completion_tokens");
        t[2] += num_of(u, "cache_read_tokens");
        t[3] += num_of(m, "accumulated_cost");
    }
    Some(t)
}

fn state_update(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let key = str_of(v, "key").unwrap_or("");
    let value = v.get("value").unwrap_or(&Value::Null);
    let stats = if key == "stats" { Some(value) } else { value.get("stats") };
    let mut state = state;
    if let (Some(t), Some(s)) = (stats.and_then(totals), state.as_deref_mut()) {
        s.totals = t;
    }
    match key {
        "full_state" => {
            let model = path(value, &["agent", "llm", "model"]).and_then(Value::as_str).unwrap_or("openhands");
            out.emit(Entry::init(ts, model, str_of(value, "id").unwrap_or("")));
        }
        "stats" => {
            if let Some([i, o, c, cost]) = stats.and_then(totals) {
                let text = format!(
                    "usage so far: {} in, {} out, {} cached, ${}",
                    crate::json::num_text(i),
                    crate::json::num_text(o),
                    crate::json::num_text(c),
                    crate::json::num_text(crate::json::round(cost * 1e6) / 1e6)
                );
                out.emit(Entry::system(ts, text));
            }
        }
        "execution_status" => {
            let status = value.as_str().unwrap_or("");
            out.emit(Entry::system(ts, format!("status: {status}")));
            if matches!(status, "finished" | "error" | "stuck") {
                let [i, o, c, cost] = state.map_or([0.0; 4], |s| s.totals);
                let failed = status != "finished";
                out.emit(Entry::Result {
                    ts: ts.owned(),
                    text: String::new(),
                    input_tokens: i,
                    output_tokens: o,
                    cached_tokens: c,
                    cache_creation_tokens: None,
                    cache_creation_1h_tokens: None,
                    reasoning_tokens: None,
                    model: None,
                    call_id: None,
                    cost_usd: cost,
                    subtype: status.owned(),
                    is_error: failed,
                    errors: if failed { vec![status.owned()] } else { Vec::new() },
                });
            }
        }
        _ => {
            let shown = match value {
                Value::String(s) => common::clip(s, 200),
                Value::Number(_) | Value::Bool(_) => common::compact_json(value),
                _ => common::short_fields(value, 3),
            };
            out.emit(Entry::system(ts, format!("state {key}: {shown}").trim_end_matches([':', ' ']).owned()));
        }
    }
}

/// The docs' `{type: action|observation}` lines and the older event stream's. The docs'
/// lines carry no ids: an observation answers the action before it, so the stateful parser
/// numbers the actions (`openhands-action-<n>`) and stateless both sides are
/// `openhands-action`.
fn legacy(v: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let args = v.get("args").unwrap_or(v);
    if let Some(kind) = str_of(v, "action") {
        let thought = text_of(args.get("thought"));
        if !thought.is_empty() && kind != "think" {
            out.emit(Entry::thinking(ts, thought.clone()));
        }
        match kind {
            "message" | "finish" => {
                let t = ["content", "message", "final_thought"].iter().map(|k| text_of(args.get(k))).find(|t| !t.is_empty());
                if let Some(t) = t.or_else(|| nonempty_str(v, "message").map(str::owned)) {
                    out.emit(Entry::assistant(ts, t));
                }
            }
            "think" => out.emit(Entry::thinking(ts, thought)),
            "system" | "recall" | "condensation" => {}
            _ => {
                let mut input = crate::json::Map::default();
                for (k, val) in args.as_object().into_iter().flatten() {
                    if !matches!(k, "type" | "action" | "thought" | "id" | "timestamp" | "source" | "message" | "tool_call_metadata" | "llm_metrics" | "args") {
                        input.insert(k.owned(), val.to_json());
                    }
                }
                let id = match (v.get("id"), state) {
                    (Some(_), _) => legacy_id(v, "id"),
                    (None, Some(s)) => {
                        s.actions += 1;
                        s.open = format!("openhands-action-{}", s.actions);
                        s.open.clone()
                    }
                    (None, None) => "openhands-action".owned(),
                };
                out.emit(Entry::tool_call(ts, kind, Json::Object(input), Some(id)));
            }
        }
        return;
    }
    let kind = str_of(v, "observation").unwrap_or("observation");
    let content = text_of(v.get("content"));
    if matches!(kind, "agent_state_changed" | "null" | "recall" | "agent_condensation") {
        let state = path(v, &["extras", "agent_state"]).and_then(Value::as_str).unwrap_or(kind);
        return out.emit(Entry::system(ts, format!("agent state: {state}")));
    }
    let exit = path(v, &["extras", "metadata", "exit_code"]).or_else(|| path(v, &["extras", "exit_code"])).and_then(Value::as_f64);
    let is_error = kind == "error" || exit.is_some_and(|c| c != 0.0);
    let id = match (v.get("cause"), state) {
        (Some(_), _) => legacy_id(v, "cause"),
        (None, Some(s)) if !s.open.is_empty() => core::mem::take(&mut s.open),
        _ => "openhands-action".owned(),
    };
    let name = (!matches!(kind, "observation" | "error")).then(|| kind.owned());
    out.emit(Entry::tool_result(ts, id, name, content, is_error));
}

/// `openhands-<n>` from an event id (or the observation's `cause`, its action's id).
fn legacy_id(v: &Value, key: &str) -> String {
    let id = v.get(key).map(common::content_text).unwrap_or_default();
    format!("openhands-{id}")
}

/// What a stateful parser does with a text line while OpenHands prints pretty-printed
/// events: after [`MARKER`], the lines of one JSON object are held until it closes. Each
/// line is scanned once ([`Scan`]), so a block of many lines costs its length, not its
/// length times its lines.
#[derive(Debug, Default)]
pub struct Block {
    text: String,
    open: bool,
    scan: Scan,
}

/// Where the brace scan of a held block stands: brackets open outside strings.
#[derive(Debug, Default, Clone, Copy)]
struct Scan {
    depth: i64,
    in_str: bool,
    escaped: bool,
}

/// What [`Block::feed`] made of a line.
pub enum Feed {
    /// Not part of a block: read the line as usual.
    Pass,
    /// The marker or a line of an unfinished object: nothing to show yet.
    Hold,
    /// The object is complete: read this text as one line.
    Done(String),
}

/// Largest pretty-printed event held; past it the block is given up and read line by line.
pub const MAX_BLOCK_BYTES: usize = 16 << 20;

impl Block {
    /// The held text of an unfinished event, if any (the stream ended inside it).
    pub fn take(&mut self) -> Option<String> {
        let text = core::mem::take(&mut self.text);
        *self = Block::default();
        (!text.is_empty()).then(|| text.trim_end().owned())
    }

    pub fn feed(&mut self, line: &str) -> Feed {
        let t = line.trim();
        if t == MARKER {
            *self = Block { open: true, ..Block::default() };
            return Feed::Hold;
        }
        if !self.open {
            return Feed::Pass;
        }
        if self.text.is_empty() && !t.starts_with('{') {
            self.open = false;
            return Feed::Pass;
        }
        if self.text.len() + line.len() > MAX_BLOCK_BYTES {
            *self = Block::default();
            return Feed::Pass;
        }
        self.text.push_str(line);
        self.text.push('\n');
        if self.scan.closed_after(line) {
            let text = core::mem::take(&mut self.text);
            *self = Block::default();
            return Feed::Done(text);
        }
        Feed::Hold
    }
}

impl Scan {
    /// Scans one more line (and its line end): whether every brace and bracket opened
    /// outside strings is now closed.
    fn closed_after(&mut self, line: &str) -> bool {
        for b in line.bytes().chain([b'\n']) {
            if self.in_str {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_str = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => self.in_str = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => self.depth -= 1,
                _ => {}
            }
        }
        self.depth <= 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    #[test]
    fn detection_tells_event_classes_from_transcript_kinds() {
        let d = |v| json_test::detect(detect, &v);
        assert_eq!(d(json!({"kind":"MessageEvent","source":"agent"})), Confidence::Sure);
        assert_eq!(d(json!({"kind":"UserRejectObservation"})), Confidence::Sure);
        // What TranscriptEntry lines look like: lower-case kinds are not OpenHands'.
        assert_eq!(d(json!({"kind":"assistant","ts":"t","text":"hi"})), Confidence::No);
        assert_eq!(d(json!({"kind":"tool_call","ts":"t","name":"x","input":{}})), Confidence::No);
        assert_eq!(d(json!({"type":"action","action":"run","command":"ls"})), Confidence::Sure);
    }

    #[test]
    fn blocks_close_on_the_last_brace_and_ignore_braces_in_strings() {
        let mut b = Block::default();
        assert!(matches!(b.feed("--JSON Event--"), Feed::Hold));
        assert!(matches!(b.feed("{"), Feed::Hold));
        assert!(matches!(b.feed("  \"text\": \"a } and a {\","), Feed::Hold));
        match b.feed("}") {
            Feed::Done(t) => assert_eq!(t, "{\n  \"text\": \"a } and a {\",\n}\n"),
            _ => panic!("not done"),
        }
        assert!(matches!(b.feed("Agent finished"), Feed::Pass));
        // A marker followed by something else gives the line back.
        assert!(matches!(b.feed("--JSON Event--"), Feed::Hold));
        assert!(matches!(b.feed("Goodbye"), Feed::Pass));
    }

    #[test]
    fn finish_is_the_answer_and_its_observation_adds_nothing() {
        let run = |v| json_test::run(parse, &v, None::<&mut State>);
        let fin = json!({"kind":"ActionEvent","tool_name":"finish","tool_call_id":"c9","thought":[],"action":{"kind":"FinishAction","message":"Done."}});
        assert_eq!(run(fin), vec![Entry::assistant("t", "Done.")]);
        let obs = json!({"kind":"ObservationEvent","tool_name":"finish","tool_call_id":"c9","observation":{"kind":"FinishObservation","content":[{"type":"text","text":"Done."}]}});
        assert!(run(obs).is_empty());
    }
}
