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
    /// The call's arguments when they are an object, else `{}`, in the boundary's tagged
    /// form (`src/api.rs`: non-JSON values as `{"$js": …}`, data keys `$js`, `$$js`, … with
    /// one more `$`), as [`parse_message`] reads its input.
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

/// The string argument of a function whose first step is `<expr>.<method>(…)`.
fn str_arg<'a>(v: &'a Js, expr: &str, method: &str) -> Result<&'a str, String> {
    v.as_str().ok_or_else(|| js::method_error(expr, method, v))
}

fn opt_str(v: Option<String>) -> Js {
    v.map_or(Js::Null, Js::Str)
}

/// `extractThinkingFromTagged*`: falsy input gives `''`.
fn tagged(v: &Js, f: fn(&str) -> String) -> Result<Js, String> {
    if !v.truthy() {
        return Ok(Js::Str(String::new()));
    }
    Ok(Js::Str(f(v.as_str().ok_or_else(|| js::match_all_error(v))?)))
}

/// `line.startsWith(a) || line.startsWith(b)`.
fn starts(v: &Js, a: &str, b: &str) -> Result<Js, String> {
    let line = str_arg(v, "line", "startsWith")?;
    Ok(Js::Bool(line.starts_with(a) || line.starts_with(b)))
}

/// The names [`dispatch`] answers.
const NAMES: &[&str] = &[
    "extractText",
    "extractThinking",
    "extractThinkingFromTaggedText",
    "extractThinkingFromTaggedStream",
    "extractToolCalls",
    "extractToolResult",
    "extractToolLines",
    "formatToolCallMarkdown",
    "formatToolResultMarkdown",
    "parseToolMarkdown",
    "formatMetaMarkdown",
    "parseMetaMarkdown",
    "isTraceMarkdown",
    "isToolMarkdown",
    "isMetaMarkdown",
    "stripUiMetadata",
    "isHeartbeatPrompt",
    "parseMessage",
    "isAgentFileName",
    "AGENT_FILE_NAMES",
    "AGENT_FILE_META",
    "AGENT_FILE_PLACEHOLDERS",
    "appendTranscript",
];

/// Runs the export `name` (one of [`NAMES`]) on JS arguments.
fn call(name: &str, a: &[Js]) -> Result<Js, String> {
    let first = arg(a, 0);
    Ok(match name {
        "extractText" => opt_str(extract_text(first)),
        "extractThinking" => opt_str(extract_thinking(first)),
        "extractThinkingFromTaggedText" => tagged(first, thinking_from_tagged_text)?,
        "extractThinkingFromTaggedStream" => tagged(first, thinking_from_tagged_stream)?,
        "extractToolCalls" => Js::Arr(extract_tool_calls(first)),
        "extractToolResult" => extract_tool_result(first),
        "extractToolLines" => {
            let mut out = Vec::new();
            for line in extract_tool_lines(first)? {
                out.push(Js::Str(line));
            }
            Js::Arr(out)
        }
        "formatToolCallMarkdown" => Js::Str(format_tool_call_markdown(first)?),
        "formatToolResultMarkdown" => Js::Str(format_tool_result_markdown(first)?),
        "parseToolMarkdown" => parse_tool_markdown(str_arg(first, "line", "startsWith")?),
        "formatMetaMarkdown" => Js::Str(format_meta_markdown(first)?),
        "parseMetaMarkdown" => parse_meta_markdown(str_arg(first, "line", "startsWith")?),
        "isTraceMarkdown" => starts(first, TRACE_PREFIX, TRACE_PREFIX)?,
        "isToolMarkdown" => starts(first, TOOL_CALL_PREFIX, TOOL_RESULT_PREFIX)?,
        "isMetaMarkdown" => starts(first, META_PREFIX, META_PREFIX)?,
        "stripUiMetadata" if !first.truthy() => first.clone(),
        "stripUiMetadata" => Js::Str(strip_ui_metadata(str_arg(first, "text", "replace")?)),
        "isHeartbeatPrompt" if !first.truthy() => Js::Bool(false),
        "isHeartbeatPrompt" => Js::Bool(is_heartbeat_prompt(str_arg(first, "text", "trim")?)),
        "parseMessage" => parse_message_js(first),
        "isAgentFileName" => Js::Bool(is_agent_file_name(first)),
        "AGENT_FILE_NAMES" => ui::agent_file_names(),
        "AGENT_FILE_META" => ui::agent_file_meta(),
        "AGENT_FILE_PLACEHOLDERS" => ui::agent_file_placeholders(),
        "appendTranscript" => append_transcript(first, arg(a, 1))?,
        _ => return Err(format!("agentlines: unknown function {name}")),
    })
}

/// The `api::Dispatch` of this module.
pub fn dispatch(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    js::dispatch_names(NAMES, call, name, args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parse_message_for_rust_callers() {
        let m = json!({
            "role": "assistant",
            "timestamp": 1700000000000u64,
            "content": [
                {"type": "thinking", "thinking": " plan "},
                {"type": "text", "text": "[[reply_to_current]] hi"},
                {"type": "toolCall", "id": "c1", "name": "exec", "arguments": {"cmd": "ls"}},
                {"type": "toolCall", "arguments": [1]}
            ]
        });
        let p = parse_message(&m);
        assert_eq!(p.text, "hi");
        assert_eq!(p.thinking.as_deref(), Some("plan"));
        assert_eq!(p.role.as_deref(), Some("assistant"));
        assert_eq!(p.timestamp, Some(1700000000000.0));
        assert_eq!(p.tool_calls.len(), 2);
        assert_eq!(p.tool_calls[0].arguments, json!({"cmd": "ls"}));
        assert_eq!((p.tool_calls[1].id.clone(), p.tool_calls[1].name.as_str()), (None, "tool"));
        assert_eq!(p.tool_calls[1].arguments, json!({}));
        let r = parse_message(
            &json!({"role": "toolResult", "toolCallId": "c1", "content": "out", "isError": false}),
        );
        assert_eq!(r.tool_results[0].output, "out");
        assert_eq!(r.tool_results[0].is_error, Some(false));
        assert_eq!(r.tool_results[0].details, None);
    }
}
