//! OpenClaw gateway: the WebSocket frames of the OpenClaw gateway protocol, one JSON frame per
//! line, and the log lines Paperclip's `openclaw_gateway` adapter writes about them.
//!
//! Frames (openclaw/openclaw `src/gateway/protocol/schema/frames.ts`): `{type:"req", id,
//! method, params}`, `{type:"res", id, ok, payload, error{code, message}}`, `{type:"event",
//! event, payload, seq}`. Event payloads:
//! - `agent` {runId, seq, stream, ts, data} (`schema/agent.ts`): stream `assistant`
//!   {text (cumulative), delta}, `tool` {phase start|update|result|end, name, toolCallId,
//!   args, partialResult, result, isError, error}, `lifecycle` {phase start|end|error,
//!   error, aborted, stopReason}, `error`; other streams are named in a system line;
//! - `chat` {runId, sessionKey, seq, state delta|final|aborted|error, message, deltaText?,
//!   replace?, errorMessage, errorKind, usage, stopReason} (`schema/logs-chat.ts`); a delta's
//!   `message` holds the whole reply so far (server-chat.ts `emitChatDelta`);
//! - `connect.challenge`, `tick`, `health`, `presence`, `shutdown`, …
//!
//! Bare `agent`/`chat` payloads (a frame's `payload` logged alone) are read the same way.
//!
//! Mapping: the reply text is shown from the `chat` stream. Stateless: the `final` (or
//! `aborted`) message is the carrier — a `delta` and an agent `assistant` event show
//! nothing, since each holds text the final repeats. Stateful: deltas are shown live as
//! `assistant` deltas (the increment over what was shown for that run, from either the chat
//! or the agent stream, whichever comes first), and the final adds only what is missing.
//! Tool events → tool_call/tool_result paired by `toolCallId`; lifecycle → system (error →
//! stderr); `res` → a compact system line (`ok:false` → stderr); `req` with a `message`
//! (agent, chat.send) → user; `tick` shows nothing (a keep-alive every few seconds).
//!
//! Paperclip adapter log lines (`packages/adapters/openclaw-gateway` execute.ts):
//! `[openclaw-gateway:event] run=<id> stream=<stream> data=<json>` (agent events only, no
//! chat stream: `assistant` data is shown as its `delta`, or its `text`) and
//! `[openclaw-gateway] …` (system); its forks write the same lines under `[openclaw-bridge…]`
//! (gregagi/paperclip-openclaw-bridge) and `[clawclip…]` (pablorq/ClawClip). The prefixes are
//! taken off by `common::envelope` (table: `formats::WRAPPERS`); [`log_event`] reads the event.
//!
//! Evidence: no capture exists; fixtures are doc-derived (tests/fixtures/openclaw/
//! PROVENANCE.md). Message shapes also checked against the @clawboo/protocol conformance
//! cases (text/thinking/toolCall blocks, string content).

use crate::prelude::*;
mod frames;

use super::common::{self, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{self, Json, Value};
use core::fmt::Write;

/// Runs whose streamed reply text is remembered (oldest evicted).
const MAX_RUNS: usize = 32;
/// Reply text remembered per run; past it the final reply is shown whole.
const MAX_TEXT_BYTES: usize = 1 << 20;

#[derive(Debug, Default)]
struct RunText {
    run_id: String,
    shown: String,
    diverged: bool,
}

/// Reply text already shown per run (stateful path only).
#[derive(Debug, Default)]
pub struct State {
    runs: Vec<RunText>,
    /// The last error shown (run id, message): the lifecycle and chat streams both report it.
    last_error: Option<(String, String)>,
}

impl State {
    fn run(&mut self, run_id: &str) -> &mut RunText {
        if let Some(i) = self.runs.iter().position(|r| r.run_id == run_id) {
            return &mut self.runs[i];
        }
        if self.runs.len() >= MAX_RUNS {
            self.runs.remove(0);
        }
        self.runs.push(RunText {
            run_id: run_id.owned(),
            ..RunText::default()
        });
        let last = self.runs.len() - 1;
        &mut self.runs[last]
    }

    fn forget(&mut self, run_id: &str) {
        self.runs.retain(|r| r.run_id != run_id);
    }

    /// Shows what `cumulative` adds to what was shown for the run.
    fn advance(&mut self, run_id: &str, cumulative: &str, ts: &str, out: &mut Vec<Entry>) {
        let cumulative = common::without_reply_tags(cumulative);
        let run = self.run(run_id);
        if run.diverged {
            return;
        }
        if cumulative.len() > MAX_TEXT_BYTES {
            run.diverged = true;
        } else if let Some(rest) = cumulative.strip_prefix(run.shown.as_str()) {
            if !rest.is_empty() {
                out.emit(Entry::assistant_delta(ts, rest));
                run.shown = cumulative.owned();
            }
        } else if !run.shown.starts_with(cumulative) {
            // Rewritten (not appended): stop streaming; the final reply is shown whole.
            run.diverged = true;
        }
    }
}

/// An error line, once per run on the stateful path (the agent lifecycle, the agent error
/// stream and the chat stream may all report the same failure).
fn error_once(
    state: Option<&mut State>,
    run_id: &str,
    msg: &str,
    suffix: &str,
    ts: &str,
    out: &mut Vec<Entry>,
) {
    if let Some(s) = state {
        let key = (run_id.owned(), msg.owned());
        if s.last_error.as_ref() == Some(&key) {
            return;
        }
        s.last_error = Some(key);
    }
    out.emit(Entry::stderr(ts, format!("error: {msg}{suffix}")));
}

pub fn detect(v: &Value) -> Confidence {
    let sure = match type_of(v) {
        "event" => str_of(v, "event").is_some(),
        "res" => v.get("id").is_some() && v.get("ok").is_some_and(Value::is_boolean),
        "req" => v.get("id").is_some() && str_of(v, "method").is_some(),
        "" => is_agent_payload(v) || is_chat_payload(v),
        _ => false,
    };
    Confidence::sure_if(sure)
}

fn is_agent_payload(v: &Value) -> bool {
    v.get("runId").is_some()
        && str_of(v, "stream").is_some()
        && v.get("data").is_some_and(Value::is_object)
}

fn is_chat_payload(v: &Value) -> bool {
    v.get("runId").is_some() && v.get("sessionKey").is_some() && str_of(v, "state").is_some()
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let payload = v.get("payload").unwrap_or(&Value::Null);
    match type_of(v) {
        "event" => event(str_of(v, "event").unwrap_or(""), payload, ts, state, out),
        "res" => frames::response(v, payload, ts, out),
        "req" => frames::request(v, ts, out),
        "" if is_agent_payload(v) => agent(v, Source::Frames, ts, state, out),
        "" if is_chat_payload(v) => chat(v, ts, state, out),
        _ => out.emit(common::unknown_event(ts, "openclaw", v)),
    }
}

/// One `[openclaw-gateway:event] run=<id> stream=<stream> data=<json>` line of the Paperclip
/// adapter's log (or of its forks': `[openclaw-bridge:event]`, `[clawclip:event]`), split by
/// `common::envelope`: an agent event with no chat stream beside it. `items`: the adapter
/// forwards the `item` stream in place of the `tool` stream (ClawClip's `execute.ts` passes on
/// lifecycle, assistant, command_output, item and error only), so its tool cards come from
/// `item` events; the others forward every stream, and `item` repeats what `tool` shows.
pub fn log_event(run: &str, stream: &str, data: &str, items: bool, ts: &str, out: &mut Vec<Entry>) {
    match json::read::parse(data) {
        Some(d @ Value::Object(_)) => {
            let mut payload = json::Map::default();
            payload.insert("runId", Value::String(run.into()));
            payload.insert("stream", Value::String(stream.into()));
            payload.insert("data", d);
            let source = if items { Source::ItemLog } else { Source::AdapterLog };
            agent(&Value::Object(payload), source, ts, None, out);
        }
        _ => out.emit(Entry::system(ts, format!("openclaw {stream} event (data not readable)"))),
    }
}

fn event(name: &str, payload: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    match name {
        "agent" | "session.tool" => agent(payload, Source::Frames, ts, state, out),
        "chat" => chat(payload, ts, state, out),
        "tick" => {}
        "connect.challenge" => out.emit(Entry::system(
            ts,
            "gateway asked for a connect challenge response",
        )),
        "health" => {
            let ok = payload.get("ok").and_then(Value::as_bool);
            let text = match ok {
                Some(true) => "gateway health: ok",
                Some(false) => "gateway health: not ok",
                None => "gateway health update",
            };
            out.emit(Entry::system(ts, text));
        }
        "presence" => out.emit(Entry::system(ts, "presence updated")),
        "shutdown" => {
            let reason = str_of(payload, "reason").unwrap_or("no reason given");
            let restart = payload.get("restartExpectedMs").and_then(Value::as_u64);
            let text = match restart {
                Some(ms) => {
                    format!("gateway shutting down: {reason} (restart expected in {ms} ms)")
                }
                None => format!("gateway shutting down: {reason}"),
            };
            out.emit(Entry::system(ts, text));
        }
        _ => {
            let details = common::short_fields(payload, 3);
            let text = if details.is_empty() {
                format!("openclaw event: {name}")
            } else {
                format!("openclaw event: {name} ({details})")
            };
            out.emit(Entry::system(ts, text));
        }
    }
}

/// Where an agent event came from: gateway frames (a chat stream carries the reply too), the
/// Paperclip adapter log (agent events only), or an adapter log with `item` events in place of
/// `tool` events ([`log_event`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Frames,
    AdapterLog,
    ItemLog,
}

fn agent(p: &Value, source: Source, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let run_id = str_of(p, "runId").unwrap_or("");
    let stream = str_of(p, "stream").unwrap_or("");
    let data = p.get("data").unwrap_or(&Value::Null);
    let phase = str_of(data, "phase").unwrap_or("");
    match stream {
        "assistant" => match (source, state) {
            (Source::AdapterLog | Source::ItemLog, _) => {
                if let Some(d) = str_of(data, "delta").map(common::without_reply_tags).filter(|d| !d.is_empty()) {
                    out.emit(Entry::assistant_delta(ts, d));
                } else if let Some(t) = str_of(data, "text").map(common::without_reply_tags).filter(|t| !t.is_empty()) {
                    out.emit(Entry::assistant(ts, t));
                }
            }
            (Source::Frames, None) => {}
            (Source::Frames, Some(s)) => {
                let cumulative = match (str_of(data, "text"), str_of(data, "delta")) {
                    (Some(t), _) => t.owned(),
                    (None, Some(d)) => format!("{}{d}", s.run(run_id).shown),
                    (None, None) => return,
                };
                s.advance(run_id, &cumulative, ts, out);
            }
        },
        "tool" => tool(data, run_id, phase, ts, out),
        "item" if source == Source::ItemLog => item(data, run_id, phase, ts, out),
        // The `tool` stream shows the same calls with their arguments and results; a command's
        // output (`command_output` deltas and end) is also its item's or tool result's content.
        "item" | "command_output" => {}
        "lifecycle" => match phase {
            "start" => out.emit(Entry::system(ts, "agent run started")),
            "end" => {
                let mut text = "agent run finished".owned();
                if data.get("aborted").and_then(Value::as_bool) == Some(true) {
                    text.push_str(" (aborted)");
                } else if let Some(r) = str_of(data, "stopReason") {
                    let _ = write!(text, " ({r})");
                }
                out.emit(Entry::system(ts, text));
            }
            _ => match error_text(data) {
                Some(e) => error_once(state, run_id, &e, "", ts, out),
                None => out.emit(Entry::system(
                    ts,
                    format!(
                        "agent run {}",
                        if phase.is_empty() { "update" } else { phase }
                    ),
                )),
            },
        },
        "error" => {
            let e = error_text(data).unwrap_or_else(|| "unknown error".into());
            error_once(state, run_id, &e, "", ts, out);
        }
        _ => {
            let details = common::short_fields(data, 3);
            let name = if stream.is_empty() { "agent" } else { stream };
            let text = if details.is_empty() {
                format!("openclaw {name} event")
            } else {
                format!("openclaw {name} event ({details})")
            };
            out.emit(Entry::system(ts, text));
        }
    }
}

fn error_text(data: &Value) -> Option<String> {
    match data.get("error") {
        Some(Value::String(s)) if !s.is_empty() => Some(s.to_string()),
        Some(e @ Value::Object(_)) => common::error_text(e),
        _ => str_of(data, "message")
            .filter(|m| !m.is_empty())
            .map(str::owned),
    }
}

fn tool(data: &Value, run_id: &str, phase: &str, ts: &str, out: &mut Vec<Entry>) {
    let name = str_of(data, "name").unwrap_or("tool");
    let id = str_of(data, "toolCallId")
        .map(str::owned)
        .unwrap_or_else(|| format!("openclaw-{run_id}-{name}"));
    match phase {
        "start" => {
            let args = data
                .get("args")
                .map(Value::to_json)
                .unwrap_or(Json::Object(Default::default()));
            out.emit(Entry::tool_call(ts, name, args, Some(id)));
        }
        // A growing snapshot; the result phase carries the final output.
        "update" => {}
        _ => {
            let err = str_of(data, "error").filter(|e| !e.is_empty());
            let details_failed = data
                .get("result")
                .and_then(|r| r.get("details"))
                .and_then(|d| str_of(d, "status"))
                .is_some_and(|s| s == "error" || s == "failed");
            let is_error = data
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false)
                || err.is_some()
                || details_failed;
            let content = match (data.get("result"), err) {
                (_, Some(e)) => e.owned(),
                (Some(r), None) => match r.get("content") {
                    Some(c) => common::content_text(c),
                    None => common::content_text(r),
                },
                (None, None) => String::new(),
            };
            out.emit(Entry::tool_result(
                ts,
                id,
                Some(name.owned()),
                content,
                is_error,
            ));
        }
    }
}

/// An `item` event (OpenClaw `AgentItemEventData`: `itemId`, `phase` start|update|end,
/// `kind` tool|command|patch, `name`, `title`, `meta`, `status`, `toolCallId`, `summary`,
/// `error`; `src/agents/pi-embedded-subscribe.handlers.tools.ts`). A tool's item opens the
/// card and closes it; an exec tool (`exec`, `bash`) also has a command item, whose end carries
/// the command's output, so that one closes the card. Updates show nothing.
fn item(data: &Value, run_id: &str, phase: &str, ts: &str, out: &mut Vec<Entry>) {
    let name = str_of(data, "name").unwrap_or("tool");
    let kind = str_of(data, "kind").unwrap_or("");
    let call_id = str_of(data, "toolCallId");
    let id = call_id.or_else(|| str_of(data, "itemId")).map_or_else(|| format!("openclaw-{run_id}-{name}"), str::owned);
    let exec = matches!(name, "exec" | "bash");
    match phase {
        "start" if kind == "tool" || call_id.is_none() => {
            let input = match (str_of(data, "meta"), str_of(data, "title")) {
                (Some(m), _) => common::object([("meta", Some(Json::from(m)))]),
                (None, Some(t)) => common::object([("title", Some(Json::from(t)))]),
                _ => common::empty_object(),
            };
            out.emit(Entry::tool_call(ts, name, input, Some(id)));
        }
        "end" if kind == "command" || (kind == "tool" && !exec) || call_id.is_none() => {
            let status = str_of(data, "status").unwrap_or("completed");
            let failed = status == "failed";
            let content = ["error", "output", "summary"]
                .iter()
                .find_map(|k| str_of(data, k).filter(|t| !t.is_empty()).filter(|_| *k != "error" || failed))
                .unwrap_or(status);
            out.emit(Entry::tool_result(ts, id, Some(name.owned()), content, failed));
        }
        _ => {}
    }
}

/// Text and thinking of a chat message (string content, or text/thinking blocks).
fn message_parts(m: &Value) -> (String, String) {
    match m.get("content") {
        Some(Value::String(s)) => (s.to_string(), String::new()),
        Some(Value::Array(blocks)) => {
            let pick = |ty: &str, key: &str| -> String {
                let parts = blocks
                    .iter()
                    .filter(|b| type_of(b) == ty)
                    .filter_map(|b| str_of(b, key));
                common::join(parts, "\n")
            };
            (pick("text", "text"), pick("thinking", "thinking"))
        }
        _ => (str_of(m, "text").unwrap_or("").owned(), String::new()),
    }
}

fn chat(p: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let run_id = str_of(p, "runId").unwrap_or("");
    let message = p.get("message");
    let (text, thinking) = message.map(message_parts).unwrap_or_default();
    match str_of(p, "state").unwrap_or("") {
        "delta" => {
            if let Some(s) = state {
                let cumulative = match (message, str_of(p, "deltaText")) {
                    (Some(_), _) => text,
                    (None, Some(d)) if p.get("replace").and_then(Value::as_bool) != Some(true) => {
                        format!("{}{d}", s.run(run_id).shown)
                    }
                    (None, Some(d)) => d.owned(),
                    (None, None) => return,
                };
                s.advance(run_id, &cumulative, ts, out);
            }
        }
        st @ ("final" | "aborted") => {
            if !thinking.trim().is_empty() {
                out.emit(Entry::thinking(ts, thinking));
            }
            finish_text(run_id, &text, ts, state, out);
            if st == "aborted" {
                out.emit(Entry::system(ts, "reply aborted"));
            } else if text.trim().is_empty() {
                out.emit(Entry::system(ts, "reply finished without text"));
            }
            if let Some(u) = p.get("usage").filter(|u| u.is_object()) {
                out.emit(usage_result(u, str_of(p, "stopReason").unwrap_or(st), ts));
            }
        }
        "error" => {
            let msg = str_of(p, "errorMessage").unwrap_or("the run failed");
            let suffix = str_of(p, "errorKind")
                .map(|k| format!(" ({k})"))
                .unwrap_or_default();
            error_once(state, run_id, msg, &suffix, ts, out);
        }
        other => out.emit(Entry::system(
            ts,
            format!("chat {}", if other.is_empty() { "event" } else { other }),
        )),
    }
}

/// The final reply: whole on the stateless path; on the stateful path only what the deltas
/// did not already show.
fn finish_text(
    run_id: &str,
    text: &str,
    ts: &str,
    state: Option<&mut State>,
    out: &mut Vec<Entry>,
) {
    let text = common::without_reply_tags(text);
    let Some(s) = state else {
        if !text.trim().is_empty() {
            out.emit(Entry::assistant(ts, text));
        }
        return;
    };
    let run = s.run(run_id);
    let shown = core::mem::take(&mut run.shown);
    let diverged = run.diverged;
    s.forget(run_id);
    if text.trim().is_empty() || (!diverged && shown.trim() == text.trim()) {
        return;
    }
    match text.strip_prefix(shown.as_str()) {
        Some(rest) if !diverged && !shown.is_empty() => out.emit(Entry::assistant_delta(ts, rest)),
        _ => out.emit(Entry::assistant(ts, text)),
    }
}

fn usage_result(u: &Value, subtype: &str, ts: &str) -> Entry {
    let num = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| u.get(k).and_then(Value::as_f64))
            .unwrap_or(0.0)
    };
    let cost = match u.get("cost") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(c) => c.get("total").and_then(Value::as_f64).unwrap_or(0.0),
        None => 0.0,
    };
    Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: num(&["input", "inputTokens", "input_tokens"]),
        output_tokens: num(&["output", "outputTokens", "output_tokens"]),
        cached_tokens: num(&["cacheRead", "cache_read_input_tokens"]),
        cache_creation_tokens: Some(num(&["cacheWrite", "cache_creation_input_tokens"])).filter(|n| *n > 0.0),
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: cost,
        subtype: subtype.owned(),
        is_error: false,
        errors: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
