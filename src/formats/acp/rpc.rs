//! Raw ACP (Agent Client Protocol) JSON-RPC 2.0 messages, one per line, as a client
//! records them (`acpx --format json`, editor debug logs). Read from
//! `@agentclientprotocol/sdk` 1.5.0 `schema/schema.json`.
//!
//! - `session/update` notifications, by `update.sessionUpdate`: `user_message_chunk` →
//!   `user`; `agent_message_chunk` / `agent_thought_chunk` → `assistant` / `thinking`
//!   deltas; `tool_call` → the `tool_call` card (name: `title`, input: `rawInput`, else
//!   kind and locations); `tool_call_update` → the `tool_result` at `completed`/`failed`
//!   (content blocks' text, else `rawOutput`), a notice for a new title or new input in
//!   between; `diff` content blocks → `diff` entries (a unified diff of `oldText` →
//!   `newText`); `plan` → the plan as a checklist; `available_commands_update`,
//!   `current_mode_update`, `config_option_update`, `session_info_update`,
//!   `usage_update` (context and cost), `notice`, `compaction_*`, `plan_update`,
//!   `plan_removed` → `system` notices (a `notice` of severity error → `stderr`).
//! - requests: `session/prompt` → `user` (the prompt's blocks); `session/request_permission`
//!   → a notice of what is asked and the options; `initialize`, `session/new|load|…`,
//!   `fs/*`, `terminal/*` and the rest → short `system` notices.
//! - responses: `stopReason` → `result` (with `usage` tokens); `initialize`'s
//!   (`agentInfo`) and `session/new`'s (`sessionId`) → `init`; a permission `outcome` → a
//!   notice; an empty acknowledgement → nothing; JSON-RPC `error` → `stderr`.

use crate::prelude::*;
use super::{diff_is_new, retitle_note, usage_text, Shown, State, ToolLine};
use crate::entry::Entry;
use crate::formats::common::diff::{push_unified, unified_from_texts};
use crate::formats::common::{self, cut, nonempty_str, num_of, path, str_of, type_of, Emit, Owned};
use crate::json::{Json, Value};

pub fn parse(v: &Value, ts: &str, mut state: Option<&mut State>, out: &mut Vec<Entry>) {
    let params = v.get("params").unwrap_or(&Value::Null);
    if !str_of(v, "method").is_some_and(super::is_update_method) {
        // A request or response ends the agent's text block.
        if let Some(s) = state.as_deref_mut() {
            s.streamed.clear();
        }
    }
    let is_request = v.get("id").is_some_and(|id| !id.is_null());
    match str_of(v, "method") {
        Some(m) if super::is_update_method(m) => {
            update(params.get("update").unwrap_or(&Value::Null), true, ts, state, out)
        }
        Some(m) if is_request => request(m, params, ts, out),
        Some(m) => notification(m, params, ts, out),
        None => match (v.get("error").filter(|e| !e.is_null()), v.get("result")) {
            (Some(e), _) => out.emit(Entry::stderr(ts, error_text(e))),
            (None, Some(r)) => response(v, r, ts, out),
            (None, None) => super::unknown(ts, "acp", v, out),
        },
    }
}

/// Readable text of one ACP content block. `full`: a text resource's whole text (tool
/// output) rather than its name (a prompt's embedded context).
fn block_text(b: &Value, full: bool) -> String {
    let mime = |b: &Value| str_of(b, "mimeType").map(|m| format!(" {m}")).unwrap_or_default();
    match type_of(b) {
        "text" | "" => str_of(b, "text").unwrap_or("").owned(),
        "image" => format!("[image{}]", mime(b)),
        "audio" => format!("[audio{}]", mime(b)),
        "resource_link" => {
            let name = nonempty_str(b, "title").or_else(|| nonempty_str(b, "name")).unwrap_or("");
            common::replace_all(&format!("[{name} ({})]", str_of(b, "uri").unwrap_or("")), "[ (", "[(")
        }
        "resource" => {
            let r = b.get("resource").unwrap_or(&Value::Null);
            let uri = str_of(r, "uri").unwrap_or("");
            match str_of(r, "text") {
                Some(t) if full => t.owned(),
                _ => format!("[resource {uri}]"),
            }
        }
        t => format!("[{t} block]"),
    }
}

fn blocks_text(blocks: Option<&Value>, full: bool) -> String {
    match blocks {
        Some(Value::Array(items)) => {
            common::join(items.iter().map(|b| block_text(b, full)).filter(|t| !t.is_empty()), "\n")
        }
        Some(b @ Value::Object(_)) => block_text(b, full),
        Some(Value::String(s)) => s.to_string(),
        _ => String::new(),
    }
}

/// One `session/update` (or Grok's `_x.ai/session/update`) update. `live`: it came inside a
/// JSON-RPC message, where the prompt's response reports the turn's usage; a stored history
/// (no wrapper) has no responses, so there Grok's `turn_completed` is the turn's `result`.
pub(super) fn update(u: &Value, live: bool, ts: &str, mut state: Option<&mut State>, out: &mut Vec<Entry>) {
    let content = || blocks_text(u.get("content"), false);
    let kind = str_of(u, "sessionUpdate").unwrap_or("");
    if kind != "agent_message_chunk" {
        if let Some(s) = state.as_deref_mut() {
            s.streamed.clear();
        }
    }
    match kind {
        "user_message_chunk" => {
            let t = content();
            if !t.is_empty() {
                out.emit(Entry::user(ts, t));
            }
        }
        "agent_message_chunk" => {
            let t = content();
            if !t.is_empty() && state.as_deref_mut().map_or(true, |s| s.chunk_is_new(&t)) {
                out.emit(Entry::assistant_delta(ts, t));
            }
        }
        "agent_thought_chunk" => {
            let t = content();
            if !t.is_empty() {
                out.emit(Entry::thinking_delta(ts, t));
            }
        }
        "tool_call" => tool(u, true, ts, state, out),
        "tool_call_update" => tool(u, false, ts, state, out),
        "plan" => out.emit(Entry::system(ts, plan_text(u.get("entries")))),
        "available_commands_update" => {
            let names: Vec<String> = u
                .get("availableCommands")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|c| nonempty_str(c, "name")).map(|n| format!("/{n}")).collect())
                .unwrap_or_default();
            let text = if names.is_empty() {
                "available commands: none".owned()
            } else {
                format!("available commands ({}): {}", names.len(), common::clip(&common::join(&names, ", "), 400))
            };
            out.emit(Entry::system(ts, text));
        }
        "current_mode_update" => {
            out.emit(Entry::system(ts, format!("mode: {}", str_of(u, "currentModeId").unwrap_or("?"))))
        }
        "config_option_update" => {
            let opts: Vec<String> = u
                .get("configOptions")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(config_option).collect())
                .unwrap_or_default();
            out.emit(Entry::system(ts, format!("config: {}", common::join(&opts, ", "))));
        }
        "session_info_update" => {
            let text = match nonempty_str(u, "title") {
                Some(t) => format!("session title: {t}"),
                None => "session info updated".owned(),
            };
            out.emit(Entry::system(ts, text));
        }
        "usage_update" => {
            let num = |k: &str| u.get(k).and_then(Value::as_f64).filter(|n| n.is_finite());
            let usage = usage_text(num("used"), num("size"), u.get("cost"), path(u, &["_meta", "usage"]));
            out.emit(Entry::system(ts, format!("usage: {usage}")));
        }
        "notice" => {
            let title = str_of(u, "title").unwrap_or("");
            match str_of(u, "severity").unwrap_or("info") {
                "error" => out.emit(Entry::stderr(ts, format!("error: {title}"))),
                "info" => out.emit(Entry::system(ts, title)),
                s => out.emit(Entry::system(ts, format!("{s}: {title}"))),
            }
        }
        "compaction_update" => {
            let status = str_of(u, "status").unwrap_or("updated");
            let mut text = format!("context compaction {status}");
            let summary = blocks_text(u.get("summary"), true);
            if !summary.is_empty() {
                text.push_str(&format!(": {summary}"));
            }
            match nonempty_str(u, "error") {
                Some(e) => out.emit(Entry::stderr(ts, format!("{text} (error: {e})"))),
                None => out.emit(Entry::system(ts, text)),
            }
        }
        "compaction_summary_chunk" => {
            let t = content();
            if !t.is_empty() {
                out.emit(Entry::system(ts, format!("compaction summary: {t}")));
            }
        }
        "plan_update" => {
            let plan = u.get("plan").unwrap_or(&Value::Null);
            out.emit(Entry::system(ts, plan_text(plan.get("entries"))));
        }
        "plan_removed" => {
            out.emit(Entry::system(ts, format!("plan removed: {}", str_of(u, "planId").unwrap_or(""))))
        }
        // Grok's extension track (`_x.ai/session/update`).
        "turn_completed" => turn_completed(u, live, ts, out),
        "goal_updated" => {
            let goal = nonempty_str(u, "goal_id").unwrap_or("goal");
            let mut text = format!("goal {goal}: {}", str_of(u, "status").unwrap_or("updated"));
            if let Some(e) = nonempty_str(u, "last_event") {
                text.push_str(&format!(" ({e})"));
            }
            out.emit(Entry::system(ts, text));
        }
        "subagent_spawned" => {
            let what = nonempty_str(u, "description").or_else(|| nonempty_str(u, "name")).unwrap_or("subagent");
            let kind = nonempty_str(u, "subagent_type").or_else(|| nonempty_str(u, "model")).unwrap_or("");
            out.emit(Entry::system(ts, format!("subagent started: {what} {}", if kind.is_empty() { String::new() } else { format!("({kind})") }).trim_end().owned()));
        }
        "subagent_finished" | "subagent_state_update" => {
            let status = nonempty_str(u, "status").or_else(|| nonempty_str(u, "state")).unwrap_or("finished");
            let mut text = format!("subagent {status}");
            if let Some(o) = nonempty_str(u, "output") {
                text.push_str(&format!(": {}", common::clip(o, 300)));
            }
            out.emit(Entry::system(ts, text));
        }
        "subagent_progress" => out.emit(Entry::system(
            ts,
            format!("subagent progress: {} turns, {} tool calls, {} tokens", crate::json::num_text(num_of(u, "turn_count")), crate::json::num_text(num_of(u, "tool_call_count")), crate::json::num_text(num_of(u, "tokens_used"))),
        )),
        "workflow_updated" => {
            let name = nonempty_str(u, "name").unwrap_or("workflow");
            let mut text = format!("workflow {name}: {}", str_of(u, "status").unwrap_or("updated"));
            if let Some(p) = nonempty_str(u, "current_phase") {
                text.push_str(&format!(", phase {p}"));
            }
            if let Some(r) = nonempty_str(u, "result_summary") {
                text.push_str(&format!(" → {}", common::clip(r, 300)));
            }
            out.emit(Entry::system(ts, text));
        }
        "response_completed" | "hook_run_started" | "pending_interaction" | "interaction_resolved" => {
            let details = common::short_fields(u, 2);
            let label = common::replace_all(kind, "_", " ");
            out.emit(Entry::system(ts, if details.is_empty() { label } else { format!("{label} ({details})") }));
        }
        "hook_execution" => {
            let name = nonempty_str(u, "hook_name").or_else(|| nonempty_str(u, "hookName")).or_else(|| nonempty_str(u, "event")).unwrap_or("hook");
            let status = nonempty_str(u, "status").unwrap_or("ran");
            out.emit(Entry::system(ts, format!("hook {name}: {status}")));
        }
        _ => super::unknown(ts, "acp update", u, out),
    }
}

/// Grok's `turn_completed {stop_reason, usage{inputTokens, outputTokens, cachedReadTokens,
/// cacheCreationTokens, reasoningTokens, totalTokens, costUsdTicks, …}}`. Its usage is the
/// turn's own (not a running total), so in a stored history it is that turn's `result`. In a
/// live JSON-RPC stream the prompt's response reports the same turn (Grok sends this event as
/// a fallback), so here it is a notice the host does not sum.
fn turn_completed(u: &Value, live: bool, ts: &str, out: &mut Vec<Entry>) {
    let stop = nonempty_str(u, "stop_reason").or_else(|| nonempty_str(u, "stopReason")).unwrap_or("end_turn");
    let usage = u.get("usage").unwrap_or(&Value::Null);
    if live {
        let tokens = usage_text(None, None, None, Some(usage));
        let text = if tokens.is_empty() { format!("turn completed: {stop}") } else { format!("turn completed: {stop} · {tokens}") };
        out.emit(Entry::system(ts, text));
        return;
    }
    out.emit(Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: num_of(usage, "inputTokens"),
        output_tokens: num_of(usage, "outputTokens"),
        cached_tokens: num_of(usage, "cachedReadTokens"),
        cache_creation_tokens: None,
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: 0.0,
        subtype: stop.owned(),
        is_error: super::stop_failed(stop) || common::bool_of(usage, "usageIsIncomplete"),
        errors: super::stop_errors(stop).into_iter().chain(common::bool_of(usage, "usageIsIncomplete").then(|| "usage incomplete".owned())).collect(),
    });
}

fn config_option(o: &Value) -> String {
    let id = nonempty_str(o, "id").or_else(|| nonempty_str(o, "name")).unwrap_or("?");
    match o.get("currentValue") {
        Some(Value::String(s)) => format!("{id}={s}"),
        Some(Value::Bool(b)) => format!("{id}={b}"),
        Some(Value::Number(n)) => format!("{id}={n}"),
        _ => id.owned(),
    }
}

/// `plan:` then one line per entry: `[x]` completed, `[~]` in progress, `[ ]` pending,
/// with the priority when it is high.
fn plan_text(entries: Option<&Value>) -> String {
    let mut text = "plan:".owned();
    for e in entries.and_then(Value::as_array).into_iter().flatten() {
        let mark = match str_of(e, "status").unwrap_or("") {
            "completed" => "[x]",
            "in_progress" => "[~]",
            _ => "[ ]",
        };
        text.push_str(&format!("\n{mark} {}", str_of(e, "content").unwrap_or("")));
        if str_of(e, "priority") == Some("high") {
            text.push_str(" (high priority)");
        }
    }
    if text == "plan:" {
        text.push_str(" (empty)");
    }
    text
}

fn tool(u: &Value, announces: bool, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let id = nonempty_str(u, "toolCallId");
    let title = nonempty_str(u, "title");
    let name = title.or_else(|| nonempty_str(u, "name")).or_else(|| nonempty_str(u, "kind")).unwrap_or("tool");
    let status = str_of(u, "status").unwrap_or("");
    let terminal = matches!(status, "completed" | "failed" | "cancelled");
    let raw_input = u.get("rawInput").filter(|r| !r.is_null() && r.as_object().map_or(true, |m| !m.is_empty()));
    let note = match (raw_input, title) {
        (Some(r), _) => Some(format!("{name} input: {}", common::clip(&common::compact_json(&r.to_json()), 300))),
        (None, Some(t)) => Some(retitle_note(t)),
        (None, None) => None,
    };
    let mut state = state;
    let line = ToolLine { id, name: title, announces, terminal, note };
    let Shown { card, result, note, name: known_name } = line.decide(state.as_deref_mut());
    if card {
        let input = match raw_input {
            Some(r) => r.to_json(),
            None => {
                let locations: Vec<Json> = u
                    .get("locations")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|l| nonempty_str(l, "path")).map(|p| Json::from(p.owned())).collect())
                    .unwrap_or_default();
                common::object([
                    ("kind", nonempty_str(u, "kind").map(|k| Json::from(k.owned()))),
                    ("locations", (!locations.is_empty()).then_some(Json::Array(locations))),
                ])
            }
        };
        out.emit(Entry::tool_call(ts, name, input, id.map(str::owned)));
    }
    if note {
        out.emit(Entry::system(ts, line.note.unwrap_or_default()));
    }
    let blocks = u.get("content").and_then(Value::as_array);
    if result {
        let mut content = common::join(
            blocks.into_iter().flatten().map(tool_block_text).filter(|t| !t.is_empty()),
            "\n",
        );
        if content.is_empty() {
            content = raw_output_text(u.get("rawOutput"));
        }
        if content.is_empty() {
            content = status.owned();
        }
        // An update without a title names the tool only if the card was seen.
        let tool_name = if title.is_some() || known_name.is_some() { known_name.or(Some(name.owned())) } else { None };
        out.emit(Entry::tool_result(ts, id.unwrap_or(name), tool_name, content, status != "completed"));
    }
    for b in blocks.into_iter().flatten().filter(|b| type_of(b) == "diff") {
        let file = str_of(b, "path").unwrap_or("file");
        let new = str_of(b, "newText").unwrap_or("");
        if diff_is_new(state.as_deref_mut(), id.unwrap_or(name), file, new.len()) {
            push_unified(&unified_from_texts(file, str_of(b, "oldText"), new), ts, out);
        }
    }
}

/// A tool call content block as result text: `content` → its block, `diff` → the file and
/// its line counts, `terminal` → the terminal id (its output is the client's, not logged).
fn tool_block_text(b: &Value) -> String {
    match type_of(b) {
        "content" => blocks_text(b.get("content"), true),
        "diff" => {
            let new_lines = str_of(b, "newText").map_or(0, |t| t.lines().count());
            match str_of(b, "oldText") {
                None => format!("created {} ({new_lines} lines)", str_of(b, "path").unwrap_or("file")),
                Some(_) => format!("edited {}", str_of(b, "path").unwrap_or("file")),
            }
        }
        "terminal" => format!("[terminal {}]", str_of(b, "terminalId").unwrap_or("")),
        _ => block_text(b, true),
    }
}

fn raw_output_text(raw: Option<&Value>) -> String {
    match raw {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.to_string(),
        Some(o @ Value::Object(_)) => {
            for k in ["output", "stdout", "text", "content", "message", "error", "stderr"] {
                if let Some(x) = o.get(k).filter(|x| !x.is_null()) {
                    let t = common::content_text(x);
                    if !t.is_empty() {
                        return t;
                    }
                }
            }
            common::compact_json(&o.to_json())
        }
        Some(other) => common::content_text(other),
    }
}

fn request(method: &str, p: &Value, ts: &str, out: &mut Vec<Entry>) {
    let s = |k: &str| str_of(p, k).unwrap_or("");
    let text = match method {
        "session/prompt" => {
            let t = blocks_text(p.get("prompt"), false);
            if !t.is_empty() {
                out.emit(Entry::user(ts, t));
            }
            return;
        }
        "session/request_permission" => permission_text(p),
        "initialize" => {
            let client = p.get("clientInfo").map(implementation).filter(|c| !c.is_empty());
            let proto = p.get("protocolVersion").map(|v| common::content_text(v)).unwrap_or_default();
            match client {
                Some(c) => format!("initialize: client {c}, protocol {proto}"),
                None => format!("initialize: protocol {proto}"),
            }
        }
        "session/new" => format!("new session in {}", s("cwd")),
        "session/load" | "session/resume" | "session/fork" => {
            format!("{}: session {} in {}", cut(method, 8..), s("sessionId"), s("cwd"))
        }
        "session/set_mode" => format!("set mode: {}", s("modeId")),
        "session/set_model" => format!("set model: {}", s("modelId")),
        "session/set_config_option" => {
            format!("set config: {}={}", s("configId"), common::content_text(p.get("value").unwrap_or(&Value::Null)))
        }
        "authenticate" => format!("authenticate: {}", s("methodId")),
        "fs/read_text_file" => format!("agent reads {}", s("path")),
        "fs/write_text_file" => {
            let n = str_of(p, "content").map_or(0, |c| c.lines().count());
            format!("agent writes {} ({n} lines)", s("path"))
        }
        "terminal/create" => {
            let args: Vec<&str> = p.get("args").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            format!("terminal: {} {}", s("command"), common::join(&args, " ")).trim_end().owned()
        }
        m if m.starts_with("terminal/") => format!("{m} {}", s("terminalId")),
        m => {
            let details = common::short_fields(p, 3);
            if details.is_empty() {
                format!("ACP request {m}")
            } else {
                format!("ACP request {m} ({details})")
            }
        }
    };
    out.emit(Entry::system(ts, text));
}

fn notification(method: &str, p: &Value, ts: &str, out: &mut Vec<Entry>) {
    let text = match method {
        "session/cancel" => "cancel requested".owned(),
        m => {
            let details = common::short_fields(p, 3);
            if details.is_empty() {
                format!("ACP notification {m}")
            } else {
                format!("ACP notification {m} ({details})")
            }
        }
    };
    out.emit(Entry::system(ts, text));
}

fn permission_text(p: &Value) -> String {
    let call = p.get("toolCall").unwrap_or(&Value::Null);
    let what = nonempty_str(call, "title")
        .or_else(|| nonempty_str(p, "title"))
        .or_else(|| nonempty_str(call, "toolCallId"))
        .unwrap_or("a tool call");
    let options: Vec<String> = p
        .get("options")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|o| match (nonempty_str(o, "name"), nonempty_str(o, "kind")) {
                    (Some(n), Some(k)) => format!("{n} ({k})"),
                    (Some(n), None) => n.owned(),
                    (None, _) => str_of(o, "optionId").unwrap_or("?").owned(),
                })
                .collect()
        })
        .unwrap_or_default();
    if options.is_empty() {
        format!("permission requested: {what}")
    } else {
        format!("permission requested: {what}; options: {}", common::join(&options, ", "))
    }
}

/// `name version` (or the title) of an ACP `Implementation`.
fn implementation(i: &Value) -> String {
    let name = nonempty_str(i, "title").or_else(|| nonempty_str(i, "name")).unwrap_or("");
    match nonempty_str(i, "version") {
        Some(v) if !name.is_empty() => format!("{name} {v}"),
        _ => name.owned(),
    }
}

fn response(v: &Value, r: &Value, ts: &str, out: &mut Vec<Entry>) {
    if let Some(stop) = nonempty_str(r, "stopReason") {
        let usage = r.get("usage").unwrap_or(&Value::Null);
        let cached = num_of(usage, "cachedReadTokens");
        out.emit(Entry::Result {
            ts: ts.owned(),
            text: stop.owned(),
            input_tokens: num_of(usage, "inputTokens"),
            output_tokens: num_of(usage, "outputTokens"),
            cached_tokens: cached,
            cache_creation_tokens: None,
            cache_creation_1h_tokens: None,
            reasoning_tokens: None,
            model: None,
            call_id: None,
            cost_usd: 0.0,
            subtype: stop.owned(),
            is_error: super::stop_failed(stop),
            errors: super::stop_errors(stop).into_iter().collect(),
        });
        return;
    }
    if r.get("protocolVersion").is_some() || r.get("agentInfo").is_some() {
        let agent = r.get("agentInfo").map(implementation).filter(|a| !a.is_empty()).unwrap_or_else(|| "ACP agent".owned());
        out.emit(Entry::init(ts, agent, ""));
        return;
    }
    if let Some(id) = nonempty_str(r, "sessionId") {
        let model = path(r, &["models", "currentModelId"])
            .and_then(Value::as_str)
            .map(str::owned)
            .or_else(|| path(r, &["modes", "currentModeId"]).and_then(Value::as_str).map(|m| format!("ACP agent (mode {m})")))
            .unwrap_or_else(|| "ACP agent".owned());
        out.emit(Entry::init(ts, model, id));
        return;
    }
    if let Some(o) = r.get("outcome") {
        let text = match (str_of(o, "outcome"), str_of(o, "optionId")) {
            (Some("selected"), Some(opt)) => format!("permission answered: {opt}"),
            (Some("cancelled"), _) => "permission request cancelled".owned(),
            _ => format!("permission answered: {}", common::compact_json(&o.to_json())),
        };
        out.emit(Entry::system(ts, text));
        return;
    }
    let text = match r {
        Value::Null => return,
        Value::Object(m) if m.is_empty() => return,
        _ if r.get("terminalId").is_some() => format!("terminal created: {}", str_of(r, "terminalId").unwrap_or("")),
        _ if r.get("exitCode").is_some() || r.get("exitStatus").is_some() => {
            let st = r.get("exitStatus").unwrap_or(r);
            format!("terminal exited: code {}", common::content_text(st.get("exitCode").unwrap_or(&Value::Null)))
        }
        _ if str_of(r, "output").is_some() => format!("terminal output:\n{}", str_of(r, "output").unwrap_or("")),
        _ if str_of(r, "content").is_some() => {
            format!("file read ({} lines)", str_of(r, "content").unwrap_or("").lines().count())
        }
        _ => {
            let details = common::short_fields(r, 3);
            let id = v.get("id").map(common::content_text).unwrap_or_default();
            if details.is_empty() {
                format!("ACP response {id}")
            } else {
                format!("ACP response {id} ({details})")
            }
        }
    };
    out.emit(Entry::system(ts, text));
}

/// `ACP error <code>: <message> (<details>)`.
fn error_text(e: &Value) -> String {
    let code = e.get("code").map(common::content_text).unwrap_or_default();
    let msg = str_of(e, "message").unwrap_or("error");
    let mut text = if code.is_empty() { format!("ACP error: {msg}") } else { format!("ACP error {code}: {msg}") };
    let data = e.get("data").unwrap_or(&Value::Null);
    let detail = match data {
        Value::Null => String::new(),
        Value::String(s) => s.to_string(),
        _ => match nonempty_str(data, "details").or_else(|| nonempty_str(data, "message")) {
            Some(d) => d.owned(),
            None => common::error_text(data).unwrap_or_default(),
        },
    };
    if !detail.is_empty() && detail != msg {
        text.push_str(&format!(" ({detail})"));
    }
    text
}
