//! OpenClaw gateway message frames, read exactly as `@clawboo/protocol` reads them
//! (clawboo/clawboo `packages/protocol/src/index.ts`), plus the web store's transcript dedup
//! (`apps/web/src/stores/chat.ts`). Evidence: the conformance cases recorded by running the
//! upstream code (`tests/fixtures/conformance/clawboo/`, see its NOTES.md), all reproduced.
//!
//! Every function takes any JS value ([`Js`]) and answers as the library does; where the
//! library itself throws a `TypeError` (a string method called on a non-string) the same
//! message comes back as `Err`. JS sees these through [`dispatch`] (`src/api.rs`); Rust
//! callers reading gateway frames use [`parse_message`]. `docs/frames.md` lists the quirks.

mod text;
mod tools;
mod transcript;
mod ui;

pub use text::{
    extract_text, extract_thinking, thinking_from_tagged_stream, thinking_from_tagged_text,
};
pub use tools::{
    extract_tool_calls, extract_tool_lines, extract_tool_result, format_meta_markdown,
    format_tool_call_markdown, format_tool_result_markdown, parse_meta_markdown,
    parse_tool_markdown, META_PREFIX, TOOL_CALL_PREFIX, TOOL_RESULT_PREFIX, TRACE_PREFIX,
};
pub use transcript::append_transcript;
pub use ui::{is_agent_file_name, is_heartbeat_prompt, strip_ui_metadata, AGENT_FILE_NAMES};

use crate::js::{self, arg, Js, Obj};
use serde_json::Value;

/// `parseMessage(raw)` as a JS value: `{text, thinking, toolCalls, toolResults, metadata}`.
pub fn parse_message_js(raw: &Js) -> Js {
    let tool_calls = tools::extract_tool_calls(raw)
        .into_iter()
        .map(|call| {
            let name = match call.get("name") {
                Js::Str(s) => s.clone(),
                _ => "tool".into(),
            };
            let args = match call.get("arguments") {
                a @ Js::Obj(_) => a.clone(),
                _ => Js::Obj(Obj::new()),
            };
            Obj::new()
                .with("id", call.get("id").clone())
                .with("name", name.into())
                .with("arguments", args)
                .into()
        })
        .collect();
    let mut tool_results = Vec::new();
    if raw.is_object() && tools::is_tool_result(raw) {
        let is_error = match raw.get("isError") {
            Js::Bool(b) => Js::Bool(*b),
            _ => Js::Undefined,
        };
        let result = Obj::new()
            .with("toolCallId", raw.get("toolCallId").as_str().into())
            .with("name", raw.get("toolName").as_str().unwrap_or("tool").into())
            .with("output", extract_text(raw).unwrap_or_default().into())
            .with("isError", is_error)
            .with("details", tools::details_of(raw));
        tool_results.push(result.into());
    }
    let mut metadata = Obj::new();
    if raw.is_object() {
        if let Some(role @ ("user" | "assistant")) = raw.get("role").as_str() {
            metadata.set("role", role.into());
        }
        let ts = raw.get("timestamp").as_num().or_else(|| raw.get("createdAt").as_num());
        if let Some(ts) = ts {
            metadata.set("timestamp", Js::Num(ts));
        }
    }
    Obj::new()
        .with("text", extract_text(raw).unwrap_or_default().into())
        .with("thinking", extract_thinking(raw).map_or(Js::Null, Js::Str))
        .with("toolCalls", Js::Arr(tool_calls))
        .with("toolResults", Js::Arr(tool_results))
        .with("metadata", metadata.into())
        .into()
}

/// One tool call of a frame, for Rust callers.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: Option<String>,
    pub name: String,
    /// The call's arguments when they are an object, else `{}`.
    pub arguments: Value,
}

/// The tool result a `toolResult`/`tool` frame carries, for Rust callers.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub tool_call_id: Option<String>,
    pub name: String,
    pub output: String,
    pub is_error: Option<bool>,
    pub details: Option<Value>,
}

/// What [`parse_message`] reads out of one gateway chat message.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParsedMessage {
    pub text: String,
    pub thinking: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub tool_results: Vec<ToolResult>,
    /// `user` or `assistant`, when the message says so.
    pub role: Option<String>,
    /// `timestamp`, else `createdAt` (epoch ms), when numeric.
    pub timestamp: Option<f64>,
}

/// Reads an OpenClaw gateway chat message (the `message` of a `chat` event, or a history
/// entry) the way clawboo's `parseMessage` does.
pub fn parse_message(message: &Value) -> ParsedMessage {
    let parsed = parse_message_js(&Js::from_tagged(message));
    let s = |v: &Js| v.as_str().map(str::to_owned);
    let list = |k: &str| match parsed.get(k) {
        Js::Arr(items) => items.clone(),
        _ => Vec::new(),
    };
    ParsedMessage {
        text: s(parsed.get("text")).unwrap_or_default(),
        thinking: s(parsed.get("thinking")),
        tool_calls: list("toolCalls")
            .iter()
            .map(|c| ToolCall {
                id: s(c.get("id")),
                name: s(c.get("name")).unwrap_or_default(),
                arguments: c.get("arguments").to_tagged(),
            })
            .collect(),
        tool_results: list("toolResults")
            .iter()
            .map(|r| ToolResult {
                tool_call_id: s(r.get("toolCallId")),
                name: s(r.get("name")).unwrap_or_default(),
                output: s(r.get("output")).unwrap_or_default(),
                is_error: match r.get("isError") {
                    Js::Bool(b) => Some(*b),
                    _ => None,
                },
                details: Some(r.get("details")).filter(|d| d.is_object()).map(Js::to_tagged),
            })
            .collect(),
        role: s(parsed.get("metadata").get("role")),
        timestamp: parsed.get("metadata").get("timestamp").as_num(),
    }
}

use crate::js::JsFn as Fun;

/// The string argument of a function whose first step is `<expr>.<method>(…)`.
fn str_arg<'a>(args: &'a [Js], expr: &str, method: &str) -> Result<&'a str, String> {
    let v = arg(args, 0);
    v.as_str().ok_or_else(|| js::method_error(expr, method, v))
}

fn opt_str(v: Option<String>) -> Js {
    v.map_or(Js::Null, Js::Str)
}

/// `extractThinkingFromTagged*`: falsy input gives `''`.
fn tagged(args: &[Js], f: fn(&str) -> String) -> Result<Js, String> {
    if !arg(args, 0).truthy() {
        return Ok("".into());
    }
    let v = arg(args, 0);
    Ok(f(v.as_str().ok_or_else(|| js::match_all_error(v))?).into())
}

fn starts(args: &[Js], prefixes: &[&str]) -> Result<Js, String> {
    let line = str_arg(args, "line", "startsWith")?;
    Ok(prefixes.iter().any(|p| line.starts_with(p)).into())
}

const TABLE: &[(&str, Fun)] = &[
    ("extractText", |a| Ok(opt_str(extract_text(arg(a, 0))))),
    ("extractThinking", |a| Ok(opt_str(extract_thinking(arg(a, 0))))),
    ("extractThinkingFromTaggedText", |a| tagged(a, thinking_from_tagged_text)),
    ("extractThinkingFromTaggedStream", |a| tagged(a, thinking_from_tagged_stream)),
    ("extractToolCalls", |a| Ok(Js::Arr(extract_tool_calls(arg(a, 0))))),
    ("extractToolResult", |a| Ok(extract_tool_result(arg(a, 0)))),
    ("extractToolLines", |a| {
        Ok(Js::Arr(extract_tool_lines(arg(a, 0))?.into_iter().map(Js::Str).collect()))
    }),
    ("formatToolCallMarkdown", |a| format_tool_call_markdown(arg(a, 0)).map(Js::Str)),
    ("formatToolResultMarkdown", |a| format_tool_result_markdown(arg(a, 0)).map(Js::Str)),
    ("parseToolMarkdown", |a| Ok(parse_tool_markdown(str_arg(a, "line", "startsWith")?))),
    ("formatMetaMarkdown", |a| format_meta_markdown(arg(a, 0)).map(Js::Str)),
    ("parseMetaMarkdown", |a| Ok(parse_meta_markdown(str_arg(a, "line", "startsWith")?))),
    ("isTraceMarkdown", |a| starts(a, &[TRACE_PREFIX])),
    ("isToolMarkdown", |a| starts(a, &[TOOL_CALL_PREFIX, TOOL_RESULT_PREFIX])),
    ("isMetaMarkdown", |a| starts(a, &[META_PREFIX])),
    ("stripUiMetadata", |a| {
        let v = arg(a, 0);
        if !v.truthy() {
            return Ok(v.clone());
        }
        Ok(strip_ui_metadata(str_arg(a, "text", "replace")?).into())
    }),
    ("isHeartbeatPrompt", |a| {
        if !arg(a, 0).truthy() {
            return Ok(false.into());
        }
        Ok(is_heartbeat_prompt(str_arg(a, "text", "trim")?).into())
    }),
    ("parseMessage", |a| Ok(parse_message_js(arg(a, 0)))),
    ("isAgentFileName", |a| Ok(is_agent_file_name(arg(a, 0)).into())),
    ("AGENT_FILE_NAMES", |_| Ok(ui::agent_file_names())),
    ("AGENT_FILE_META", |_| Ok(ui::agent_file_meta())),
    ("AGENT_FILE_PLACEHOLDERS", |_| Ok(ui::agent_file_placeholders())),
    ("appendTranscript", |a| append_transcript(arg(a, 0), arg(a, 1))),
];

/// The `api::Dispatch` of this module.
pub fn dispatch(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    js::dispatch_table(TABLE, name, args)
}
