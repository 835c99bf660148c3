//! Cline CLI 2.x, `cline task "<prompt>" --json --yolo` (npm `cline`; what
//! superbiche/paperclip-adapters' `cline-local` runs): `{"type":"task_started","taskId"}`, then
//! every finished `ClineMessage` once, as it appears in the task's message list
//! (cline/cline `cli/src/utils/plain-text-task.ts`: partial messages are skipped, each `ts`
//! printed once), and `{"type":"error","message"}` when the task fails.
//!
//! A `ClineMessage` is `{ts, type: "say"|"ask", say|ask, text, reasoning?, images?,
//! conversationHistoryIndex?, modelInfo?}` (`src/shared/ExtensionMessage.ts`). Several kinds
//! carry JSON inside `text`: `api_req_started` (`ClineApiReqInfo {request, tokensIn,
//! tokensOut, cacheWrites, cacheReads, cost, cancelReason, retryStatus}`), `tool`
//! (`ClineSayTool {tool, path, diff, content, regex, …}`), `use_mcp_server`, `followup`,
//! `plan_mode_respond`, `error_retry`, `subagent_usage`.
//!
//! Mapping: `task` → `user`; `text`, `completion_result` (say), `followup`,
//! `plan_mode_respond`/`act_mode_respond` → `assistant`; `reasoning` → `thinking`; `tool` →
//! `tool_call` and its `tool_result` on the same line (the message reports a finished file
//! action; its content is what Cline shows: the listing, the diff, the path); `command` →
//! `tool_call` `execute_command`, `command_output` → its `tool_result`; `use_mcp_server` /
//! `mcp_server_response` and `browser_action_launch`/`browser_action` /
//! `browser_action_result` likewise; `api_req_started` with tokens → a `result` for that
//! request (Cline's usage is per request, so the host's sum is the run's total; a request
//! printed before its usage arrived shows only `API request`); `subagent_usage` → a `result`
//! (spending not in any request line); `error`, `api_req_failed`, `mistake_limit_reached`,
//! `diff_error`, `clineignore_error`, `command_permission_denied` → `stderr`; the rest →
//! short `system` lines; `checkpoint_created` and empty asks → nothing.
//!
//! Tool ids: Cline has none. A file tool's call and result come from one line (`cline-<ts>`).
//! A command, MCP or browser call and its output are two messages said while the API history
//! has the same length, so both carry the same `conversationHistoryIndex`: the id is
//! `cline-<kind>-<index>` on both paths. Without that field the stateful parser pairs the
//! output with the last call of its kind; stateless, it stays `cline-<kind>`.
//!
//! Evidence: Cline's types and CLI source (commit in `tests/fixtures/cline/PROVENANCE.md`), a
//! third party's notes of real `cline --json` lines (2.2.0) and the adapter's tests; fixture
//! derived. Details: `docs/formats/cline.md`.

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, num_of, str_of, type_of, Confidence, Emit, Owned};
use crate::entry::Entry;
use crate::json::{Json, Value};

/// The call id of the last command, MCP and browser call without a history index.
#[derive(Debug, Default)]
pub struct State {
    open: [String; 3],
}

const KINDS: [&str; 3] = ["cmd", "mcp", "browser"];

pub fn detect(v: &Value) -> Confidence {
    let ty = type_of(v);
    match ty {
        "say" | "ask" if v.get("ts").is_some_and(Value::is_number) && str_of(v, ty).is_some() => Confidence::Sure,
        "task_started" if v.get("taskId").is_some() => Confidence::Sure,
        // The CLI's own failure line; the shape is generic: read it, never lock on it.
        "error" if str_of(v, "message").is_some() && v.as_object().is_some_and(|m| m.len() == 2) => {
            Confidence::Maybe
        }
        _ => Confidence::No,
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    let text = str_of(v, "text").unwrap_or("");
    let kind = match type_of(v) {
        "task_started" => return out.emit(Entry::init(ts, "cline", str_of(v, "taskId").unwrap_or(""))),
        "error" => return out.emit(Entry::stderr(ts, str_of(v, "message").unwrap_or("Cline error"))),
        "ask" => str_of(v, "ask").unwrap_or(""),
        _ => str_of(v, "say").unwrap_or(""),
    };
    let ask = type_of(v) == "ask";
    let info = || crate::json::read::parse(text.trim()).map(|j| j.to_json()).unwrap_or(Json::Null);
    match kind {
        "task" | "user_feedback" => {
            let mut t = text.trim().owned();
            let images = v.get("images").and_then(Value::as_array).map_or(0, Vec::len);
            if images > 0 {
                t.push_str(&format!("\n[{images} image(s)]"));
            }
            out.emit(Entry::user(ts, t));
        }
        "user_feedback_diff" => out.emit(Entry::user(ts, "(edited the proposed change)")),
        "text" | "completion_result" if !ask && !text.trim().is_empty() => {
            let t = text.trim();
            out.emit(Entry::assistant(ts, t.strip_suffix("HAS_CHANGES").unwrap_or(t).trim_end()));
            if kind == "completion_result" {
                // The run's end: Cline prints no totals here (they are per request), so the
                // result carries none and the host's sum is unchanged.
                out.emit(Entry::untallied_result(ts, String::new(), "completion_result", false, Vec::new()));
            }
        }
        "reasoning" => {
            let t = nonempty_str(v, "reasoning").unwrap_or(text);
            if !t.trim().is_empty() {
                out.emit(Entry::thinking(ts, t.trim()));
            }
        }
        "followup" | "plan_mode_respond" | "act_mode_respond" => {
            let j = info();
            let body = nonempty_str(&j, "question").or_else(|| nonempty_str(&j, "response")).unwrap_or(text);
            let mut t = body.trim().owned();
            let opts: Vec<&str> = j.get("options").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            if !opts.is_empty() {
                t.push_str(&format!("\noptions: {}", common::join(&opts, " | ")));
            }
            if !t.is_empty() {
                out.emit(Entry::assistant(ts, t));
            }
        }
        "tool" => file_tool(v, &info(), ts, out),
        "command" => call(v, 0, "execute_command", common::object([("command", Some(Json::from(text.owned())))]), state, ts, out),
        "use_mcp_server" => {
            let j = info();
            let name = format!("{}/{}", str_of(&j, "serverName").unwrap_or("mcp"), nonempty_str(&j, "toolName").or_else(|| nonempty_str(&j, "uri")).unwrap_or("resource"));
            call(v, 1, &name, common::arguments(j.get("arguments")), state, ts, out);
        }
        "browser_action_launch" => call(v, 2, "browser_action", common::object([("action", Some(Json::from("launch"))), ("url", Some(Json::from(text.owned())))]), state, ts, out),
        "browser_action" => call(v, 2, "browser_action", info(), state, ts, out),
        "command_output" => done(v, 0, text.owned(), state, ts, out),
        "mcp_server_response" => done(v, 1, text.owned(), state, ts, out),
        "browser_action_result" => {
            let j = info();
            let t = [("currentUrl", "url"), ("logs", "logs")]
                .iter()
                .filter_map(|(k, l)| nonempty_str(&j, k).map(|s| format!("{l}: {s}")))
                .chain(j.get("screenshot").map(|_| "[screenshot]".owned()));
            done(v, 2, common::join(t, "\n"), state, ts, out);
        }
        "api_req_started" | "api_req_finished" | "subagent_usage" => usage(kind, &info(), ts, out),
        "error_retry" => {
            let j = info();
            let detail = nonempty_str(&j, "errorMessage").or_else(|| nonempty_str(&j, "message")).unwrap_or("");
            out.emit(Entry::system(ts, format!("retry {}/{}: {detail}", crate::json::num_text(num_of(&j, "attempt")), crate::json::num_text(num_of(&j, "maxAttempts"))).trim_end().owned()));
        }
        "error" | "api_req_failed" | "mistake_limit_reached" | "diff_error" | "clineignore_error" | "command_permission_denied" => {
            let label = match kind {
                "api_req_failed" => "API request failed".owned(),
                k => common::replace_all(k, "_", " "),
            };
            out.emit(Entry::stderr(ts, format!("{label}: {}", text.trim()).trim_end_matches([':', ' ']).owned()));
        }
        "checkpoint_created" | "text" | "completion_result" | "hook_output_stream" if text.trim().is_empty() => {}
        "completion_result" | "resume_task" | "resume_completed_task" if ask => {
            if !text.trim().is_empty() {
                out.emit(Entry::system(ts, format!("{}: {}", common::replace_all(kind, "_", " "), text.trim())));
            }
        }
        _ => {
            let label = common::replace_all(kind, "_", " ");
            let body = content_text(&info());
            let body = if body.is_empty() || body == "null" { text.trim().owned() } else { body };
            out.emit(Entry::system(ts, if body.is_empty() { label } else { format!("{label}: {}", common::clip(&body, 600)) }));
        }
    }
}

/// The id of a two-message call of kind `k` (see the module doc).
fn call_id(v: &Value, k: usize) -> Option<String> {
    let idx = v.get("conversationHistoryIndex").and_then(Value::as_f64)?;
    Some(format!("cline-{}-{}", KINDS[k], crate::json::num_text(idx)))
}

fn call(v: &Value, k: usize, name: &str, input: Json, state: Option<&mut State>, ts: &str, out: &mut Vec<Entry>) {
    let id = match (call_id(v, k), state) {
        (Some(id), _) => id,
        (None, Some(s)) => {
            s.open[k] = format!("cline-{}", crate::json::num_text(num_of(v, "ts")));
            s.open[k].clone()
        }
        (None, None) => format!("cline-{}", KINDS[k]),
    };
    out.emit(Entry::tool_call(ts, name, input, Some(id)));
}

fn done(v: &Value, k: usize, content: String, state: Option<&mut State>, ts: &str, out: &mut Vec<Entry>) {
    let id = match (call_id(v, k), state) {
        (Some(id), _) => id,
        (None, Some(s)) if !s.open[k].is_empty() => core::mem::take(&mut s.open[k]),
        _ => format!("cline-{}", KINDS[k]),
    };
    out.emit(Entry::tool_result(ts, id, None, content, false));
}

/// A file tool message: the call and, on the same line, what Cline shows of its outcome.
fn file_tool(v: &Value, j: &Json, ts: &str, out: &mut Vec<Entry>) {
    let tool = str_of(j, "tool").unwrap_or("tool");
    let id = format!("cline-{}", crate::json::num_text(num_of(v, "ts")));
    let mut input = crate::json::Map::default();
    for (k, val) in j.as_object().into_iter().flatten() {
        if !matches!(k, "tool" | "content" | "diff") {
            input.insert(k.owned(), val.clone());
        }
    }
    out.emit(Entry::tool_call(ts, tool, Json::Object(input), Some(id.clone())));
    let s = |k: &str| nonempty_str(j, k);
    let content = match tool {
        "readFile" => format!("read {}", s("path").unwrap_or("")),
        "newFileCreated" => match s("content") {
            Some(c) => format!("created {} ({} lines)", s("path").unwrap_or(""), c.lines().count()),
            None => format!("created {}", s("path").unwrap_or("")),
        },
        "fileDeleted" => format!("deleted {}", s("path").unwrap_or("")),
        _ => s("diff").or_else(|| s("content")).or_else(|| s("path")).unwrap_or("done").owned(),
    };
    out.emit(Entry::tool_result(ts, id, Some(tool.owned()), content, false));
}

/// `api_req_started` (per request), `api_req_finished` (older Cline's copy of the same numbers:
/// a notice, never summed twice) and `subagent_usage`.
fn usage(kind: &str, j: &Json, ts: &str, out: &mut Vec<Entry>) {
    if let Some(reason) = nonempty_str(j, "cancelReason") {
        let msg = nonempty_str(j, "streamingFailedMessage").unwrap_or("");
        out.emit(Entry::stderr(ts, format!("API request cancelled ({reason}) {msg}").trim_end().owned()));
    }
    if let Some(r) = j.get("retryStatus").filter(|r| r.is_object()) {
        out.emit(Entry::system(
            ts,
            format!(
                "API request retry {}/{} in {} s: {}",
                crate::json::num_text(num_of(r, "attempt")),
                crate::json::num_text(num_of(r, "maxAttempts")),
                crate::json::num_text(num_of(r, "delaySec")),
                str_of(r, "errorSnippet").unwrap_or("")
            ),
        ));
    }
    let has_usage = ["tokensIn", "tokensOut", "cost"].iter().any(|k| j.get(k).is_some());
    if !has_usage || kind == "api_req_finished" {
        if j.get("cancelReason").is_none() && j.get("retryStatus").is_none() {
            let what = if kind == "api_req_finished" { "API request finished" } else { "API request" };
            let tokens = if has_usage {
                format!(" ({} in, {} out)", crate::json::num_text(num_of(j, "tokensIn")), crate::json::num_text(num_of(j, "tokensOut")))
            } else {
                String::new()
            };
            out.emit(Entry::system(ts, format!("{what}{tokens}")));
        }
        return;
    }
    out.emit(Entry::Result {
        ts: ts.owned(),
        text: String::new(),
        input_tokens: num_of(j, "tokensIn"),
        output_tokens: num_of(j, "tokensOut"),
        cached_tokens: num_of(j, "cacheReads"),
        cache_creation_tokens: None,
        cache_creation_1h_tokens: None,
        reasoning_tokens: None,
        model: None,
        call_id: None,
        cost_usd: num_of(j, "cost"),
        subtype: if kind == "subagent_usage" { "subagent_usage" } else { "api_request" }.owned(),
        is_error: false,
        errors: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::common::json_test;
    use serde_json::json;

    fn run(v: serde_json::Value, st: Option<&mut State>) -> Vec<Entry> {
        json_test::run(parse, &v, st)
    }

    #[test]
    fn detection() {
        let d = |v| json_test::detect(detect, &v);
        assert_eq!(d(json!({"ts":1,"type":"say","say":"text","text":"hi"})), Confidence::Sure);
        assert_eq!(d(json!({"type":"task_started","taskId":"1"})), Confidence::Sure);
        assert_eq!(d(json!({"type":"error","message":"boom"})), Confidence::Maybe);
        assert_eq!(d(json!({"type":"say","text":"no ts"})), Confidence::No);
    }

    #[test]
    fn commands_pair_by_history_index_or_by_state() {
        let cmd = json!({"ts":10,"type":"say","say":"command","text":"ls","conversationHistoryIndex":3});
        let outp = json!({"ts":12,"type":"say","say":"command_output","text":"a\nb","conversationHistoryIndex":3});
        assert_eq!(run(cmd, None)[0], Entry::tool_call("t", "execute_command", json!({"command":"ls"}), Some("cline-cmd-3".into())));
        assert_eq!(run(outp, None), vec![Entry::tool_result("t", "cline-cmd-3", None, "a\nb", false)]);
        let mut st = State::default();
        run(json!({"ts":20,"type":"say","say":"command","text":"pwd"}), Some(&mut st));
        assert_eq!(
            run(json!({"ts":21,"type":"say","say":"command_output","text":"/w"}), Some(&mut st)),
            vec![Entry::tool_result("t", "cline-20", None, "/w", false)]
        );
    }

    #[test]
    fn request_usage_is_a_result_and_the_finished_copy_is_not() {
        let started = json!({"ts":1,"type":"say","say":"api_req_started","text":"{\"request\":\"x\",\"tokensIn\":10,\"tokensOut\":5,\"cacheReads\":2,\"cost\":0.01}"});
        assert!(matches!(&run(started, None)[0], Entry::Result { input_tokens, cost_usd, .. } if *input_tokens == 10.0 && *cost_usd == 0.01));
        let finished = json!({"ts":2,"type":"say","say":"api_req_finished","text":"{\"tokensIn\":10,\"tokensOut\":5}"});
        assert_eq!(run(finished, None), vec![Entry::system("t", "API request finished (10 in, 5 out)")]);
        let bare = json!({"ts":3,"type":"say","say":"api_req_started","text":"{\"request\":\"<task>…</task>\"}"});
        assert_eq!(run(bare, None), vec![Entry::system("t", "API request")]);
    }
}
