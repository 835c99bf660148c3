//! Tool calls and results of a message, and the `[[tool]]` / `[[tool-result]]` / `[[meta]]`
//! markdown lines `@clawboo/protocol` writes into transcripts and reads back.

use super::text::extract_text;
use crate::js::{self, json_parse, json_stringify, Js, Obj};

pub const TOOL_CALL_PREFIX: &str = "[[tool]]";
pub const TOOL_RESULT_PREFIX: &str = "[[tool-result]]";
pub const META_PREFIX: &str = "[[meta]]";
pub const TRACE_PREFIX: &str = "[[trace]]";

/// `extractToolCalls(message)`: `{id, name, arguments}` per `toolCall` content block.
pub fn extract_tool_calls(message: &Js) -> Vec<Js> {
    let Js::Arr(items) = message.get("content") else { return Vec::new() };
    items
        .iter()
        .filter(|item| item.is_object() && item.get("type").as_str() == Some("toolCall"))
        .map(|item| {
            let text = |k: &str| Js::from(item.get(k).as_str());
            Obj::new()
                .with("id", text("id"))
                .with("name", text("name"))
                .with("arguments", item.get("arguments").clone())
                .into()
        })
        .collect()
}

/// The role of a tool-result message, when `message` is one.
pub(crate) fn is_tool_result(message: &Js) -> bool {
    matches!(message.get("role").as_str(), Some("toolResult" | "tool"))
}

/// `details` when it is a non-null object (arrays included), else `null`.
pub(crate) fn details_of(message: &Js) -> Js {
    let d = message.get("details");
    if d.is_object() {
        d.clone()
    } else {
        Js::Null
    }
}

/// `extractToolResult(message)`: `null` unless the role is `toolResult` or `tool`.
pub fn extract_tool_result(message: &Js) -> Js {
    if !is_tool_result(message) {
        return Js::Null;
    }
    let is_error = match message.get("isError") {
        Js::Bool(b) => Js::Bool(*b),
        _ => Js::Undefined,
    };
    Obj::new()
        .with("toolCallId", message.get("toolCallId").as_str().into())
        .with("toolName", message.get("toolName").as_str().into())
        .with("details", details_of(message))
        .with("isError", is_error)
        .with("text", extract_text(message).map_or(Js::Null, Js::Str))
        .into()
}

/// Upstream `formatJson(v).trim()`; the error is what `.trim()` on `undefined` throws.
fn format_json_trimmed(v: &Js) -> Result<String, String> {
    let s = match v {
        Js::Null | Js::Undefined => String::new(),
        Js::Str(s) => s.clone(),
        Js::Num(_) | Js::Bool(_) => v.to_js_string(),
        _ => json_stringify(v, "  ").ok_or_else(|| js::read_error(&Js::Undefined, "trim"))?,
    };
    Ok(js::trim(&s).to_owned())
}

/// `record.<key>?.trim()`: `None` for null/undefined, an error for other non-strings.
fn opt_trim(record: &Js, expr: &str, key: &str) -> Result<Option<String>, String> {
    match record.get(key) {
        Js::Undefined | Js::Null => Ok(None),
        Js::Str(s) => Ok(Some(js::trim(s).to_owned())),
        _ => Err(format!("{expr}.{key}?.trim is not a function")),
    }
}

/// `` ` (${id})` `` when `id` is truthy.
fn id_suffix(id: &Js) -> String {
    if id.truthy() {
        format!(" ({})", id.to_js_string())
    } else {
        String::new()
    }
}

/// `formatToolCallMarkdown(call)`.
pub fn format_tool_call_markdown(call: &Js) -> Result<String, String> {
    if call.is_nullish() {
        return Err(js::read_error(call, "name"));
    }
    let name =
        opt_trim(call, "call", "name")?.filter(|n| !n.is_empty()).unwrap_or_else(|| "tool".into());
    let suffix = id_suffix(call.get("id"));
    let args = format_json_trimmed(call.get("arguments"))?;
    if args.is_empty() {
        return Ok(format!("{TOOL_CALL_PREFIX} {name}{suffix}"));
    }
    Ok(format!("{TOOL_CALL_PREFIX} {name}{suffix}\n```json\n{args}\n```"))
}

/// The ` · `-joined status line of a tool result.
fn result_meta(details: &Js, is_error: &Js) -> String {
    let mut parts: Vec<String> = Vec::new();
    if details.is_object() {
        let trimmed = |k: &str| {
            details.get(k).as_str().map(js::trim).filter(|s| !s.is_empty()).map(str::to_owned)
        };
        parts.extend(trimmed("status"));
        if let Some(code) = details.get("exitCode").as_num() {
            parts.push(format!("exit {}", js::fmt_num(code)));
        }
        if let Some(ms) = details.get("durationMs").as_num() {
            parts.push(format!("{}ms", js::fmt_num(ms)));
        }
        parts.extend(trimmed("cwd"));
    }
    if is_error.truthy() {
        parts.push("error".into());
    }
    parts.join(" · ")
}

/// `formatToolResultMarkdown(result)`.
pub fn format_tool_result_markdown(result: &Js) -> Result<String, String> {
    if result.is_nullish() {
        return Err(js::read_error(result, "toolName"));
    }
    let name = opt_trim(result, "result", "toolName")?
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "tool".into());
    let header = format!("{name}{}", id_suffix(result.get("toolCallId")));
    let mut body: Vec<String> = Vec::new();
    let meta = result_meta(result.get("details"), result.get("isError"));
    if !meta.is_empty() {
        body.push(meta);
    }
    if let Some(out) = opt_trim(result, "result", "text")?.filter(|o| !o.is_empty()) {
        body.push(format!("```text\n{out}\n```"));
    }
    if body.is_empty() {
        return Ok(format!("{TOOL_RESULT_PREFIX} {header}"));
    }
    Ok(format!("{TOOL_RESULT_PREFIX} {header}\n{}", body.join("\n")))
}

/// `extractToolLines(message)`: a call line per tool call, then the result line.
pub fn extract_tool_lines(message: &Js) -> Result<Vec<String>, String> {
    if !message.truthy() || !message.is_object() {
        return Ok(Vec::new());
    }
    let mut lines = Vec::new();
    for call in extract_tool_calls(message) {
        lines.push(format_tool_call_markdown(&call)?);
    }
    let result = extract_tool_result(message);
    if result.truthy() {
        lines.push(format_tool_result_markdown(&result)?);
    }
    Ok(lines)
}

/// `parseToolMarkdown(line)`: `{kind, label, body}`.
pub fn parse_tool_markdown(line: &str) -> Js {
    let result = line.starts_with(TOOL_RESULT_PREFIX);
    let skip = if result { TOOL_RESULT_PREFIX.len() } else { TOOL_CALL_PREFIX.len() };
    let rest = js::slice_utf16_from(line, skip);
    let content = js::trim_start(&rest);
    // split(/\r?\n/)
    let mut pieces: Vec<&str> = content.split('\n').collect();
    let last = pieces.len() - 1;
    for p in &mut pieces[..last] {
        *p = p.strip_suffix('\r').unwrap_or(p);
    }
    let label = js::trim(pieces[0]);
    let label = if !label.is_empty() {
        label
    } else if result {
        "Tool result"
    } else {
        "Tool call"
    };
    let body = pieces[1..].join("\n");
    Obj::new()
        .with("kind", if result { "result" } else { "call" }.into())
        .with("label", label.into())
        .with("body", js::trim(&body).into())
        .into()
}

/// `formatMetaMarkdown(meta)`.
pub fn format_meta_markdown(meta: &Js) -> Result<String, String> {
    if meta.is_nullish() {
        return Err(js::read_error(meta, "role"));
    }
    let mut o = Obj::new()
        .with("role", meta.get("role").clone())
        .with("timestamp", meta.get("timestamp").clone());
    if let d @ Js::Num(_) = meta.get("thinkingDurationMs") {
        o.set("thinkingDurationMs", d.clone());
    }
    Ok(format!("{META_PREFIX}{}", json_stringify(&Js::Obj(o), "").unwrap_or_default()))
}

/// `parseMetaMarkdown(line)`: `{role, timestamp, thinkingDurationMs?}` or `null`.
pub fn parse_meta_markdown(line: &str) -> Js {
    let Some(raw) = line.strip_prefix(META_PREFIX).map(js::trim).filter(|r| !r.is_empty()) else {
        return Js::Null;
    };
    let Some(parsed) = json_parse(raw) else { return Js::Null };
    let role = match parsed.get("role").as_str() {
        Some(r @ ("user" | "assistant")) => r,
        _ => return Js::Null,
    };
    let ts = match parsed.get("timestamp").as_num() {
        Some(t) if t.is_finite() && t > 0.0 => t,
        _ => return Js::Null,
    };
    let mut o = Obj::new().with("role", role.into()).with("timestamp", Js::Num(ts));
    if let Some(d) = parsed.get("thinkingDurationMs").as_num().filter(|d| d.is_finite()) {
        o.set("thinkingDurationMs", Js::Num(d));
    }
    o.into()
}
