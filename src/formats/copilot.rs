//! GitHub Copilot CLI 1.x, `copilot -p "<prompt>" --output-format json`: one Copilot SDK
//! session event per line, `{"type", "data", "id", "timestamp", "parentId", "ephemeral"?}`,
//! and a last line of the CLI's own, `{"type":"result", "sessionId", "exitCode", "usage"}`.
//!
//! - `user.message` (`content`; `transformedContent` is what the model saw) → `user`
//! - `assistant.message` (`messageId`, `content`, `reasoningText`, `toolRequests[]` of
//!   `{toolCallId, name, arguments}`: an object, or a string for `custom` tools such as
//!   `apply_patch`) → `thinking`, `assistant`, one `tool_call` per request
//! - `assistant.message_delta` / `assistant.reasoning_delta` (`deltaContent`; ephemeral,
//!   printed before the full message with the same `messageId`): stateful, live deltas, and
//!   the full message's text is then not shown again (only what the deltas missed); read
//!   alone they give nothing, as the full message follows. `assistant.reasoning` (the full
//!   reasoning, after the message that already carried it as `reasoningText`) likewise
//!   shows only what was not shown.
//! - `tool.execution_complete` (`toolCallId`, `success`, `result.content` or
//!   `error{message, code}`: `denied` when a rule refused the tool) → `tool_result`;
//!   `tool.execution_start` repeats the message's request (a call only when stateful and
//!   not seen); `assistant.tool_call_delta` streams the arguments (nothing).
//! - `session.usage_checkpoint` → `result` (subtype `usage`) with the session's running
//!   token totals from its `accountingSnapshot.modelMetrics` (1.0.94; stateful: what they
//!   add to what earlier results counted); `assistant.message.outputTokens` (1.0.63–1.0.77,
//!   which print no checkpoint) → `result` (subtype `model_call`) with that call's output.
//! - `result` (`exitCode`, `usage{premiumRequests, totalApiDurationMs, sessionDurationMs,
//!   codeChanges}`; no tokens, no cost) → `result`: an error when `exitCode` is not 0.
//! - `session.error` → `stderr`; `session.warning` / `session.info`, `abort`, subagent and
//!   skill events → notices; the bookkeeping (`session.mcp_*`, `session.tools_updated`,
//!   `session.auto_mode_resolved`, `assistant.turn_*`, `assistant.idle`, `model.call_*`
//!   that succeeded, `assistant.message_start`) → nothing.
//!
//! Evidence: two real captures of Copilot CLI 1.0.94 (SuperSwinkAI/Swink-AgentShore,
//! `tests/fixtures/copilot_json_*.jsonl`, MIT; copied to tests/fixtures/copilot/ with
//! provenance), and for the rest the event types of `nodejs/src/generated/session-events.ts`
//! in github/copilot-sdk (MIT) at cc0438d6, marked as derived. Details:
//! docs/formats/copilot.md.

use crate::prelude::*;
use super::common::{self, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

/// What a stateful parser remembers: what streamed per message (and of reasoning), the calls
/// already shown, and the tokens the session's results have counted. Streamed text is kept as
/// a digest ([`common::Streamed`]), so however long a message streams, the state stays a few
/// words per message.
#[derive(Debug, Default)]
pub struct State {
    /// The message id's hash → what its deltas showed (the newest 64 messages).
    streamed: Vec<(u64, common::Streamed)>,
    /// The reasoning deltas since the last message, and the reasoning last shown.
    reasoning: common::Streamed,
    shown_reasoning: common::Streamed,
    calls: common::SeenIds,
    counted: [f64; 3],
}

/// Calls remembered (the newest; a call is shown by its message before it starts).
const MAX_CALLS: usize = 1024;

const PREFIXES: [&str; 10] =
    ["session.", "assistant.", "user.", "tool.", "model.", "subagent.", "skill.", "hook.", "permission.", "system."];

pub fn detect(v: &Value) -> Confidence {
    let ty = type_of(v);
    if ty == "result" {
        let premium = v.get("usage").is_some_and(|u| u.get("premiumRequests").is_some());
        return if premium && v.get("exitCode").is_some() { Confidence::Sure } else { Confidence::No };
    }
    let envelope = v.get("data").is_some_and(|d| d.as_object().is_some())
        && str_of(v, "id").is_some()
        && str_of(v, "timestamp").is_some();
    if envelope && (ty == "abort" || PREFIXES.iter().any(|p| ty.starts_with(p))) {
        Confidence::Sure
    } else {
        Confidence::No
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let d = v.get("data").unwrap_or(&Value::Null);
    let s = |k: &str| str_of(d, k).unwrap_or("");
    match type_of(v) {
        "user.message" => {
            if let Some(t) = nonempty_str(d, "content") {
                out.emit(Entry::user(ts, t.trim()));
            }
        }
        "assistant.message_delta" | "assistant.reasoning_delta" => {
            let Some(st) = state else { return };
            let t = s("deltaContent");
            if t.is_empty() {
                return;
            }
            if type_of(v) == "assistant.reasoning_delta" {
                st.reasoning.push(t);
                out.emit(Entry::thinking_delta(ts, t));
            } else {
                let id = id_hash(s("messageId"));
                match st.streamed.iter_mut().find(|(m, _)| *m == id) {
                    Some((_, seen)) => seen.push(t),
                    None => {
                        if st.streamed.len() >= 64 {
                            st.streamed.remove(0);
                        }
                        st.streamed.push((id, common::Streamed::of(t)));
                    }
                }
                out.emit(Entry::assistant_delta(ts, t));
            }
        }
        "assistant.message" => message(d, ts, state, out),
        "assistant.reasoning" => {
            // The message before it carried this text as `reasoningText` (shown there).
            let Some(st) = state else { return };
            let t = s("content").trim();
            let streamed = core::mem::take(&mut st.reasoning);
            if !t.is_empty() && !st.shown_reasoning.same_trimmed(t) && !streamed.same_trimmed(t) {
                out.emit(Entry::thinking(ts, t));
            }
            st.shown_reasoning = common::Streamed::of(t);
        }
        "tool.execution_start" => {
            let Some(st) = state else { return };
            let id = s("toolCallId");
            if !id.is_empty() && st.calls.get(id).is_none() {
                st.calls.set(id, crate::json::Json::Null, MAX_CALLS);
                out.emit(Entry::tool_call(ts, s("toolName"), common::arguments(d.get("arguments")), Some(id.owned())));
            }
        }
        "tool.execution_complete" => {
            let ok = d.get("success").and_then(Value::as_bool).unwrap_or(true);
            let r = d.get("result").unwrap_or(&Value::Null);
            let content = if ok {
                str_of(r, "content").or_else(|| str_of(r, "detailedContent")).unwrap_or("").owned()
            } else {
                let e = d.get("error").unwrap_or(&Value::Null);
                let m = str_of(e, "message").unwrap_or("the tool failed");
                match nonempty_str(e, "code") {
                    Some(c) => format!("{m} ({c})"),
                    None => m.owned(),
                }
            };
            out.emit(Entry::tool_result(ts, s("toolCallId"), None, content, !ok));
        }
        "session.usage_checkpoint" => checkpoint(d, ts, state, out),
        "result" => out.emit(run_result(v, ts)),
        "session.error" => {
            let kind = nonempty_str(d, "errorType").map(|k| format!(" ({k})")).unwrap_or_default();
            out.emit(Entry::stderr(ts, format!("Copilot error{kind}: {}", s("message"))));
        }
        "model.call_failure" => {
            let m = nonempty_str(d, "errorMessage").unwrap_or("the model call failed");
            out.emit(Entry::stderr(ts, format!("model call failed ({}): {m}", s("model"))));
        }
        "session.warning" | "session.info" => {
            let t = s("message");
            out.emit(Entry::system(ts, if type_of(v) == "session.warning" { format!("warning: {t}") } else { t.owned() }));
        }
        "abort" => out.emit(Entry::stderr(ts, format!("aborted ({})", s("reason")))),
        "subagent.started" | "subagent.completed" | "subagent.failed" => {
            let who = nonempty_str(d, "agentDisplayName").or_else(|| nonempty_str(d, "agentName")).unwrap_or("subagent");
            let what = type_of(v).strip_prefix("subagent.").unwrap_or("");
            out.emit(Entry::system(ts, format!("{who} {what}")));
        }
        "skill.invoked" => out.emit(Entry::system(ts, format!("skill: {}", s("name")))),
        "model.call_start" | "model.call_finished" | "model.call_final_result" => {
            let failed = [("outcome", "success"), ("result", "success")]
                .iter()
                .any(|(k, good)| str_of(d, k).is_some_and(|x| x != *good));
            if failed {
                out.emit(Entry::stderr(ts, format!("model call: {}", common::short_fields(d, 3))));
            }
        }
        "assistant.turn_start" | "assistant.turn_end" | "assistant.idle" | "assistant.message_start"
        | "assistant.tool_call_delta" | "assistant.streaming_delta" | "assistant.intent" | "session.idle"
        | "session.tools_updated" | "session.auto_mode_resolved" | "session.skills_loaded"
        | "session.mcp_servers_loaded" | "session.mcp_server_status_changed" | "session.usage_info"
        | "session.title_changed" | "tool.execution_partial_result" | "tool.execution_progress"
        | "pending_messages.modified" => {}
        _ => out.emit(common::unknown_event(ts, "copilot", v)),
    }
}

fn message(d: &Value, ts: &str, mut state: Option<&mut State>, out: &mut Vec<Entry>) {
    let reasoning = str_of(d, "reasoningText").unwrap_or("").trim();
    match state.as_deref_mut() {
        // Shown already when its deltas streamed.
        Some(st) => {
            let streamed = core::mem::take(&mut st.reasoning);
            if !reasoning.is_empty() && !streamed.same_trimmed(reasoning) {
                out.emit(Entry::thinking(ts, reasoning));
            }
            if !reasoning.is_empty() || streamed.has_text() {
                st.shown_reasoning = if reasoning.is_empty() { streamed } else { common::Streamed::of(reasoning) };
            }
        }
        None if !reasoning.is_empty() => out.emit(Entry::thinking(ts, reasoning)),
        None => {}
    }
    let text = str_of(d, "content").unwrap_or("");
    let id = str_of(d, "messageId").unwrap_or("");
    let streamed = state.as_deref_mut().and_then(|st| {
        let id = id_hash(id);
        let at = st.streamed.iter().position(|(m, _)| *m == id)?;
        Some(st.streamed.remove(at).1)
    });
    match streamed {
        // Shown while it streamed: only what the deltas missed.
        Some(seen) => {
            if let Some(rest) = seen.rest_of(text) {
                if !rest.is_empty() {
                    out.emit(Entry::assistant_delta(ts, rest));
                }
            } else if !text.trim().is_empty() {
                out.emit(Entry::assistant(ts, text.trim()));
            }
        }
        None if !text.trim().is_empty() => out.emit(Entry::assistant(ts, text.trim())),
        None => {}
    }
    if let Some(Value::Array(reqs)) = d.get("toolRequests") {
        for r in reqs {
            let Some(name) = nonempty_str(r, "name") else { continue };
            let id = nonempty_str(r, "toolCallId");
            if let (Some(st), Some(id)) = (state.as_deref_mut(), id) {
                st.calls.set(id, crate::json::Json::Null, MAX_CALLS);
            }
            out.emit(Entry::tool_call(ts, name, common::arguments(r.get("arguments")), id.map(str::owned)));
        }
    }
    let output = num_of(d, "outputTokens");
    if output > 0.0 {
        if let Some(st) = state {
            st.counted[1] += output;
        }
        out.emit(tokens(ts, common::MODEL_CALL, [0.0, output, 0.0]));
    }
}

/// A message id as the state keeps it: its hash (an id is the runtime's, of any length).
fn id_hash(id: &str) -> u64 {
    crate::text::fnv1a(crate::text::FNV_OFFSET, id.bytes())
}

/// `session.usage_checkpoint`: the session's running totals, summed over its models.
fn checkpoint(d: &Value, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let snap = d.get("accountingSnapshot").unwrap_or(&Value::Null);
    let Some(models) = snap.get("modelMetrics").and_then(Value::as_object) else { return };
    let mut total = [0.0; 3];
    for (_, m) in models.iter() {
        let u = m.get("usage").unwrap_or(&Value::Null);
        total[0] += num_of(u, "inputTokens");
        total[1] += num_of(u, "outputTokens");
        total[2] += num_of(u, "cacheReadTokens");
    }
    let add = match state {
        Some(st) => {
            let add = [0, 1, 2].map(|i| (total[i] - st.counted[i]).max(0.0));
            for (c, a) in st.counted.iter_mut().zip(add) {
                *c += a;
            }
            add
        }
        None => total,
    };
    if add.iter().all(|n| *n <= 0.0) {
        return;
    }
    let mut e = tokens(ts, "usage", add);
    if let Entry::Result { text, .. } = &mut e {
        // Mid-run: the host shows an empty result as "Completed" (common::MID_RUN).
        *text = common::tokens_text(add[0], add[1], add[2], 0.0);
    }
    out.emit(e);
}

fn tokens(ts: &str, subtype: &str, [input, output, cached]: [f64; 3]) -> Entry {
    Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: input,
        output_tokens: output,
        cached_tokens: cached,
        cache_creation_tokens: None,
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: 0.0,
        subtype: subtype.owned(),
        is_error: false,
        errors: Vec::new(),
    }
}

/// The CLI's last line: how the run ended, its premium requests and time (no tokens).
fn run_result(v: &Value, ts: &str) -> Entry {
    let u = v.get("usage").unwrap_or(&Value::Null);
    let code = num_of(v, "exitCode");
    let mut parts = vec![format!("premium requests: {}", crate::json::num_text(num_of(u, "premiumRequests")))];
    if let Some(ms) = u.get("sessionDurationMs").and_then(Value::as_f64) {
        parts.push(format!("session {} s", crate::json::num_text(crate::json::round(ms / 100.0) / 10.0)));
    }
    let c = u.get("codeChanges").unwrap_or(&Value::Null);
    let (added, removed) = (num_of(c, "linesAdded"), num_of(c, "linesRemoved"));
    if added > 0.0 || removed > 0.0 {
        parts.push(format!("+{} -{} lines", crate::json::num_text(added), crate::json::num_text(removed)));
    }
    let failed = code != 0.0;
    let errors = if failed { vec![format!("exit code {}", crate::json::num_text(code))] } else { Vec::new() };
    Entry::untallied_result(ts, crate::text::join(&parts, " · "), if failed { "error" } else { "success" }, failed, errors)
}

#[cfg(test)]
mod tests {
    use crate::entry::Entry;
    use crate::parser::{parse_line, StdoutParser};

    fn checkpoint(input: u32, output: u32) -> String {
        format!(
            r#"{{"type":"session.usage_checkpoint","data":{{"totalNanoAiu":1,"accountingSnapshot":{{"modelMetrics":{{"m":{{"usage":{{"inputTokens":{input},"outputTokens":{output},"cacheReadTokens":0}}}}}}}}}},"id":"c{input}","timestamp":"2026-10-09T14:18:50.248Z"}}"#
        )
    }

    fn tokens(entries: &[Entry]) -> (f64, f64) {
        entries.iter().fold((0.0, 0.0), |(i, o), e| match e {
            Entry::Result { input_tokens, output_tokens, .. } => (i + input_tokens, o + output_tokens),
            _ => (i, o),
        })
    }

    /// Checkpoints are running totals: read alone each is its total; one parser adds only
    /// what each adds, also after the output tokens that messages counted.
    #[test]
    fn running_totals_add_up_once() {
        let message = r#"{"type":"assistant.message","data":{"messageId":"m","content":"hi","toolRequests":[],"outputTokens":5},"id":"a","timestamp":"2026-10-09T14:18:50.000Z"}"#;
        let lines = [message.to_owned(), checkpoint(100, 7), checkpoint(250, 20)];
        let mut p = StdoutParser::new();
        let stateful: Vec<Entry> = lines.iter().flat_map(|l| p.parse_line(l, "t")).collect();
        assert_eq!(tokens(&stateful), (250.0, 20.0));
        assert_eq!(tokens(&parse_line(&lines[2], "t")), (250.0, 20.0));
    }

    /// The whole message after its deltas adds only what they missed.
    #[test]
    fn deltas_then_the_whole_message_show_the_text_once() {
        let delta = |t: &str| {
            format!(r#"{{"type":"assistant.message_delta","data":{{"messageId":"m","deltaContent":"{t}"}},"ephemeral":true,"id":"d","timestamp":"2026-10-09T14:18:50.000Z"}}"#)
        };
        let whole = r#"{"type":"assistant.message","data":{"messageId":"m","content":"Hello world!","toolRequests":[]},"id":"w","timestamp":"2026-10-09T14:18:50.100Z"}"#;
        let mut p = StdoutParser::new();
        let mut text = String::new();
        for l in [delta("Hello "), delta("world"), whole.to_owned()] {
            for e in p.parse_line(&l, "t") {
                if let Entry::Assistant { text: t, .. } = e {
                    text.push_str(&t);
                }
            }
        }
        assert_eq!(text, "Hello world!");
        assert!(parse_line(&delta("Hello "), "t").is_empty(), "read alone a delta waits for the whole message");
    }

    /// A message that streams megabytes keeps a digest, not its text: the state is the same
    /// few words after 6 MiB of deltas, and the whole message still shows only what the deltas
    /// missed (here: the last sentence), reasoning likewise.
    #[test]
    fn a_long_stream_keeps_no_text() {
        let piece = "x".repeat(64 << 10);
        let delta = |kind: &str, t: &str| {
            format!(r#"{{"type":"assistant.{kind}_delta","data":{{"messageId":"m","deltaContent":"{t}"}},"id":"d","timestamp":"2026-10-09T14:18:50.000Z"}}"#)
        };
        let mut p = StdoutParser::new();
        for _ in 0..96 {
            p.parse_line(&delta("message", &piece), "t");
            p.parse_line(&delta("reasoning", &piece), "t");
        }
        let state = format!("{p:?}");
        assert!(state.len() < 4096, "the parser's state printed takes {} bytes", state.len());
        let all = piece.repeat(96);
        let whole = format!(
            r#"{{"type":"assistant.message","data":{{"messageId":"m","content":"{all} The end.","reasoningText":"{all}","toolRequests":[]}},"id":"w","timestamp":"2026-10-09T14:18:50.100Z"}}"#
        );
        let shown = p.parse_line(&whole, "t");
        assert_eq!(shown.len(), 1, "{:?}", shown.iter().map(Entry::kind).collect::<Vec<_>>());
        assert!(matches!(&shown[0], Entry::Assistant { text, delta: Some(true), .. } if text == " The end."));
    }
}
