//! Hermes Agent (Nous Research) as Paperclip's two Hermes adapters log it. Neither prints
//! JSON lines, so this module reads text lines that the plain-text module hands it.
//!
//! **`hermes_local`** runs `hermes chat -Q --source tool --yolo -q "<prompt>"` (`-Q`: no
//! banner or spinner, "only response + session_id"; `-v` adds tool progress). Its stdout:
//! - `[hermes] …` notices the adapter writes (start, model, exit code, session) → `system`
//! - `┊ 💬 <text>` → `assistant`
//! - tool completion lines `[done] ┊ <emoji> <verb> <detail>  <N.Ns>[ (<total>s)][ [exit N]|
//!   [error]|[full]]`, optionally with a kaomoji after `┊` → one `tool_call` (name from the
//!   verb, `input: {detail}`) and its `tool_result` (`isError` on a failure suffix,
//!   `durationMs` from the duration), paired by an id made from the line itself
//! - `[tool] …` start lines and bare spinner remnants (`💻 Completed`) → nothing (the
//!   completion line says the same)
//! - `💭 …`, `<thinking>`, `Thinking: …` → `thinking`; `session_id: <id>` → `system`
//! - anything else (the answer's prose, stack traces) is left to the plain-text rules: a
//!   line with no Hermes mark could be any program's output, so it stays `stdout` (or
//!   `stderr` on an error marker). Run with `format: "hermes"` to read such lines as the
//!   assistant's text.
//!
//! **`hermes_gateway`** talks to a Hermes API server (`POST /v1/runs`, SSE events) and
//! logs `[hermes-gateway:event] run=<id> event=<name> data=<json>` per event plus
//! `[hermes-gateway] …` notices (both prefixes are taken off by `common::envelope`; the
//! table is `formats::WRAPPERS`; [`gateway_event`] reads the event). Events (the server's `/v1/runs` stream): `message.delta`
//! {delta} → `assistant` delta; `reasoning.available` {text} → `thinking`;
//! `tool.started` {tool, preview} → `tool_call`; `tool.completed` {tool, duration, error}
//! → `tool_result` (paired by run and tool name: the server sends no call id);
//! `run.completed` {output, usage} → `result` with the tokens; `run.failed`/`run.error`
//! {error} → `stderr`; `approval.request` → a notice with the command and choices; other
//! events → a notice naming them. The adapter also writes each delta raw to stdout with
//! no newline, so it shows up glued to the front of the next event line; that copy is
//! dropped (the event line already showed it).
//!
//! Evidence: `@paperclipai/hermes-paperclip-adapter` 2026.916.1 (`dist/server/execute.js`
//! and `dist/gateway/server/execute.js` write the lines; `dist/ui/parse-stdout.js`,
//! `dist/gateway/ui/parse-stdout.js` and their tests read them); Hermes Agent's
//! `agent/display.py` (`get_cute_tool_message`: `┊ {emoji} {verb:9} {detail}  {dur}` plus
//! the failure suffix) and `gateway/platforms/api_server.py` (the `/v1/runs` events). No
//! public capture exists. Details: `docs/formats/hermes.md`.

use crate::prelude::*;
use super::common::{self, content_text, nonempty_str, num_of, Emit, Owned};
use crate::entry::Entry;
use crate::formats::common::cut;
use crate::json::{self, Json, Value};

/// Reads one non-JSON line if it carries a Hermes mark; false leaves it to the plain rules.
/// `forced` (the stream is known to be Hermes) reads unmarked lines as assistant text.
pub fn parse_text(line: &str, ts: &str, forced: bool, out: &mut Vec<Entry>) -> bool {
    let cleaned = super::plain::clean(line);
    let t = cleaned.trim();
    if t.starts_with("[hermes]") || t.starts_with("session_id:") {
        out.emit(Entry::system(ts, t));
        return true;
    }
    // The rules below read Hermes' own marks. Marks any program may print (`[tool] …` start
    // lines and spinner remnants, which the `┊` completion line repeats; `Thinking:` and
    // `<thinking>`) count only in a run known to be Hermes' (`forced`); elsewhere the line
    // is plain text, shown, never dropped or turned into a tool.
    if forced && (t.starts_with("[tool]") || spinner_remnant(t)) {
        return true;
    }
    let tool_line = t.strip_prefix("[done]").map(str::trim_start).unwrap_or(t);
    if let Some(rest) = tool_line.strip_prefix('┊') {
        return tool_completion(rest.trim(), &cleaned, ts, forced, out);
    }
    let marked = t.starts_with("<thinking>") || t.starts_with("</thinking>") || t.starts_with("Thinking:");
    if t.starts_with('💭') || (forced && marked) {
        let text = t.trim_start_matches('💭').trim();
        if !text.is_empty() {
            out.emit(Entry::thinking(ts, text));
        }
        return true;
    }
    if forced && is_log_line(t) {
        // MCP servers' logs, which the adapter moves from stderr to stdout.
        out.emit(Entry::stderr(ts, t));
        return true;
    }
    if forced && !t.is_empty() {
        // Error markers still make `stderr`; the rest is the answer.
        out.emit(match super::plain::classify(ts, t.owned()) {
            Entry::Stdout { text, .. } => Entry::assistant(ts, text),
            other => other,
        });
        return true;
    }
    false
}

/// Whether a line read by [`parse_text`] is one only `hermes chat` prints (the stateful
/// parser locks on it); gateway lines are the gateway adapter's.
pub fn is_local_mark(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("[done]").map(str::trim_start).unwrap_or(t);
    t.starts_with("[hermes]") || t.starts_with('┊') || t.starts_with("session_id:")
}

/// `[2026-03-25T10:40:53.941Z] INFO: …`: a line opening with a bracketed ISO timestamp.
fn is_log_line(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() > 12
        && b[0] == b'['
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b'-'
        && b[8] == b'-'
        && b[11] == b'T'
}

/// `💻 Completed`: what the spinner leaves behind in non-quiet mode.
fn spinner_remnant(t: &str) -> bool {
    let mut chars = t.chars();
    let Some(first) = chars.next() else { return false };
    let rest = chars.as_str().trim_start_matches('\u{fe0f}').trim();
    // A bare emoji is left to show: it could be any program's output.
    is_pictograph(first) && matches!(rest, "Completed" | "Running" | "Error")
}

/// An emoji of the kind Hermes' spinner and tool lines use (not any symbol: a line that is
/// one private-use or replacement character is text to show, not a spinner remnant).
fn is_pictograph(c: char) -> bool {
    matches!(c as u32, 0x2300..=0x23FF | 0x2600..=0x27BF | 0x1F000..=0x1FAFF)
}

/// A pictograph or other symbol that may lead a tool line: the symbol blocks from Arrows
/// (U+2190) to Miscellaneous Symbols and Arrows (U+2BFF) and the emoji blocks, less the
/// circled and dingbat letters and digits in them (①, ❶) and Hermes' own `┊`. Blocks rather
/// than "not a letter or digit": that test needs core's Unicode letter and number tables
/// (~1.3 KB gzip of the all-runtime file), and it also took CJK punctuation, private-use
/// and replacement characters for symbols.
fn is_symbol(c: char) -> bool {
    matches!(c as u32, 0x2190..=0x245F | 0x2500..=0x2775 | 0x2794..=0x2BFF | 0x1F000..=0x1FAFF) && c != '┊'
}

/// `┊ …` after the prefix: an assistant message, a tool completion, or other tool output.
/// A `┊` line: Hermes' tool completion (or `┊ 💬` answer). Outside a run known to be
/// Hermes' only a line that ends with a duration, as every Hermes tool line does, is a tool;
/// `false` leaves any other line to be read as plain text.
fn tool_completion(rest: &str, line: &str, ts: &str, forced: bool, out: &mut Vec<Entry>) -> bool {
    let rest = strip_kaomoji(rest);
    if let Some(text) = rest.strip_prefix('💬') {
        out.emit(Entry::assistant(ts, text.trim()));
        return true;
    }
    let mut body = rest;
    // Failure suffix, then the duration (and a total in parentheses) at the end.
    let mut failure = None;
    if body.ends_with(']') {
        if let Some(open) = common::rfind(body, " [") {
            failure = Some(cut(body, open + 2..body.len() - 1).owned());
            body = cut(body, ..open).trim_end();
        }
    }
    if body.ends_with("s)") {
        if let Some(open) = common::rfind(body, " (") {
            if seconds(cut(body, open + 2..body.len() - 1)).is_some() {
                body = cut(body, ..open).trim_end();
            }
        }
    }
    let (body, secs) = match body.rsplit_once(char::is_whitespace) {
        Some((head, last)) if seconds(last).is_some() => (head.trim_end(), seconds(last)),
        _ => (body, None),
    };
    let body = match body.chars().next() {
        Some(c) if is_symbol(c) => cut(body, c.len_utf8()..).trim_start_matches('\u{fe0f}').trim_start(),
        _ => body,
    };
    let (verb, detail) = match body.split_once(char::is_whitespace) {
        Some((v, d)) => (v, d.trim()),
        None => (body, ""),
    };
    if !forced && secs.is_none() {
        return false;
    }
    if verb.is_empty() {
        out.emit(Entry::stdout(ts, rest));
        return true;
    }
    let id = format!("hermes-{:016x}", fnv(line));
    let mut content = detail.owned();
    if let Some(s) = secs {
        content.push_str(&format!("  {}s", json::fixed(s, 1)));
    }
    if let Some(f) = &failure {
        content.push_str(&format!(" [{f}]"));
    }
    let input = common::object([("detail", Some(Json::from(detail.owned())))]);
    out.emit(Entry::tool_call(ts, tool_name(verb), input, Some(id.clone())));
    let mut result = Entry::tool_result(ts, id, Some(tool_name(verb).owned()), content, failure.is_some());
    if let (Entry::ToolResult { duration_ms, .. }, Some(s)) = (&mut result, secs) {
        *duration_ms = Some(json::round(s * 1000.0) as u64);
    }
    out.emit(result);
    true
}

/// A leading parenthesised kaomoji (`(｡◕‿◕｡)`), which Hermes puts before some tool lines.
fn strip_kaomoji(s: &str) -> &str {
    if let Some(inner) = s.strip_prefix('(') {
        if let Some(close) = inner.find(')') {
            let face = cut(inner, ..close);
            if (2..=40).contains(&face.len()) && !face.is_ascii() {
                return cut(inner, close + 1..).trim_start();
            }
        }
    }
    s
}

/// `0.3s` → 0.3.
///
/// Read by serde_json's number parser, not `str::parse::<f64>`: core's decimal-to-float code
/// and its 10 KB power-of-five table are otherwise in no wasm build, so this one call cost
/// every file with Hermes in it ~7 KB gzip. The two agree on every input with up to 15
/// significant digits (both exact there); `1.` and `.5` are accepted as `str::parse` does.
fn seconds(s: &str) -> Option<f64> {
    let n = s.strip_suffix('s')?;
    let (int, frac) = n.split_once('.').unwrap_or((n, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    // JSON's spelling of the same number: no leading zeros, a digit on both sides of a point.
    let int = int.trim_start_matches('0');
    let json = match (int.is_empty(), frac.is_empty()) {
        (true, true) => "0".to_owned(),
        (true, false) => format!("0.{frac}"),
        (false, true) => int.to_owned(),
        (false, false) => format!("{int}.{frac}"),
    };
    json::number(&json)?.as_f64()
}

/// The tool a Hermes display verb stands for (the names Paperclip's Hermes adapter shows).
fn tool_name(verb: &str) -> &str {
    match verb.to_ascii_lowercase().as_str() {
        "$" | "exec" | "terminal" => "shell",
        "search" | "grep" | "find" | "web_search" | "search_files" => "search",
        "fetch" | "web_extract" => "fetch",
        "navigate" | "snapshot" | "click" | "type" | "scroll" | "back" | "press" | "close"
        | "images" | "vision" => "browser",
        v if v.starts_with("browser_") => "browser",
        "read_file" => "read",
        "patch_file" => "patch",
        "proc" => "process",
        "session_search" => "recall",
        "code" | "execute_code" => "execute",
        _ => verb,
    }
}

/// FNV-1a: a stable id from the line (Hermes prints none).
fn fnv(s: &str) -> u64 {
    crate::text::fnv1a(crate::text::FNV_OFFSET, s.bytes())
}

/// One `[hermes-gateway:event] run=<id> event=<name> data=<json>` line, split by
/// `common::envelope` (its prefix is in `formats::WRAPPERS`).
pub fn gateway_event(run: &str, name: &str, data: &str, ts: &str, out: &mut Vec<Entry>) {
    let parsed = json::read::parse(data.trim());
    let d = parsed.as_ref().filter(|v| v.is_object()).unwrap_or(&Value::Null);
    // A data part that is not a JSON object (cut short, empty, or another shape) is shown as
    // it is, not dropped; `reasoning.available` has its own fallback text.
    if d.is_null() && name != "reasoning.available" {
        let shown = if data.trim().is_empty() { "(no data)".owned() } else { common::clip(data.trim(), 300) };
        out.emit(Entry::system(ts, format!("event {name}: {shown}")));
        return;
    }
    let text = |keys: &[&str]| keys.iter().find_map(|k| nonempty_str(d, k)).map(str::to_owned);
    match name {
        "message.delta" => {
            if let Some(t) = text(&["delta", "text_delta", "text"]) {
                out.emit(Entry::assistant_delta(ts, super::plain::clean(&t)));
            }
        }
        "reasoning.delta" | "thinking.delta" => {
            if let Some(t) = text(&["text", "delta"]) {
                out.emit(Entry::thinking_delta(ts, t));
            }
        }
        "reasoning.available" => {
            let nested = ["data", "payload"].iter().find_map(|k| d.get(k).filter(|v| v.is_object()));
            let keys = ["reasoning", "reasoning_text", "thinking", "text", "summary", "content"];
            let found = text(&keys).or_else(|| {
                nested.and_then(|n| keys.iter().find_map(|k| nonempty_str(n, k)).map(str::to_owned))
            });
            out.emit(Entry::thinking(ts, super::plain::clean(found.as_deref().unwrap_or("Hermes reasoning available"))));
        }
        "tool.started" => {
            let tool = text(&["tool", "tool_name", "name"]).unwrap_or_else(|| "tool".owned());
            let input = match d.get("args").or_else(|| d.get("input")) {
                Some(a) if a.is_object() => a.to_json(),
                _ => common::object([("preview", text(&["preview"]).map(Json::from))]),
            };
            let id = text(&["tool_use_id"]).unwrap_or_else(|| format!("hermes:{run}:{tool}"));
            out.emit(Entry::tool_call(ts, tool, input, Some(id)));
        }
        "tool.completed" | "tool.failed" => {
            let tool = text(&["tool", "tool_name", "name"]).unwrap_or_else(|| "tool".owned());
            let id = text(&["tool_use_id"]).unwrap_or_else(|| format!("hermes:{run}:{tool}"));
            let failed = name == "tool.failed"
                || d.get("error").is_some_and(|e| e.as_bool() == Some(true) || e.as_str().is_some_and(|s| !s.is_empty()));
            let body = ["result", "output"].iter().find_map(|k| d.get(k).filter(|v| !v.is_null())).map(content_text);
            let secs = d.get("duration").and_then(Value::as_f64);
            let content = match (body, d.get("error").and_then(Value::as_str)) {
                (Some(b), _) if !b.is_empty() => b,
                (_, Some(e)) if !e.is_empty() => e.owned(),
                _ => match secs {
                    Some(s) => format!("{} in {}s", if failed { "failed" } else { "done" }, json::fixed(s, 2)),
                    None => (if failed { "failed" } else { "done" }).owned(),
                },
            };
            let mut result = Entry::tool_result(ts, id, Some(tool), content, failed);
            if let (Entry::ToolResult { duration_ms, .. }, Some(s)) = (&mut result, secs) {
                *duration_ms = Some(json::round(s * 1000.0) as u64);
            }
            out.emit(result);
        }
        "run.completed" => {
            let usage = d.get("usage").unwrap_or(&Value::Null);
            out.emit(Entry::Result {
                ts: ts.owned(),
                text: text(&["output", "result", "text"]).unwrap_or_default(),
                input_tokens: num_of(usage, "input_tokens"),
                output_tokens: num_of(usage, "output_tokens"),
                cached_tokens: 0.0,
                cache_creation_tokens: None,
                cache_creation_1h_tokens: None,
                reasoning_tokens: None,
                model: None,
                call_id: None,
                cost_usd: 0.0,
                subtype: "completed".owned(),
                is_error: false,
                errors: Vec::new(),
            });
        }
        "run.failed" | "run.error" => {
            let msg = text(&["error", "message"])
                .or_else(|| d.get("error").filter(|e| e.is_object()).map(content_text))
                .unwrap_or_else(|| "Hermes run failed".owned());
            out.emit(Entry::stderr(ts, msg));
        }
        "approval.request" => {
            let cmd = text(&["command", "description"]).unwrap_or_default();
            let choices = d.get("choices").and_then(Value::as_array).map(|c| {
                common::join(c.iter().filter_map(Value::as_str), ", ")
            });
            let mut s = format!("Hermes asks for approval: {cmd}");
            if let Some(c) = choices.filter(|c| !c.is_empty()) {
                s.push_str(&format!(" (choices: {c})"));
            }
            out.emit(Entry::system(ts, s.trim_end().owned()));
        }
        _ if parsed.is_none() && !data.trim().is_empty() => {
            out.emit(Entry::system(ts, format!("Hermes event: {name} (data not readable)")))
        }
        _ => {
            let details = common::short_fields(d, 3);
            let text = if details.is_empty() {
                format!("Hermes event: {name}")
            } else {
                format!("Hermes event: {name} ({details})")
            };
            out.emit(Entry::system(ts, text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Vec<Entry> {
        let mut out = Vec::new();
        assert!(parse_text(line, "t", false, &mut out), "{line}");
        out
    }

    #[test]
    fn seconds_read_as_str_parse_reads_them() {
        let cases = ["0.3s", "12.5s", "1.s", ".5s", "007.25s", "0s", "0.0s", "120s", "3.14159265358979s",
            "0.1000000000000000055511151231257827s", "1e3s", "1.2.3s", "-1s", "s", ".s", "1,5s", "2.5", "99999999999999999999s"];
        for c in cases {
            let want = c.strip_suffix('s').filter(|n| n.bytes().all(|b| b.is_ascii_digit() || b == b'.')).and_then(|n| n.parse::<f64>().ok());
            assert_eq!(seconds(c), want, "{c}");
        }
    }

    #[test]
    fn symbols_that_may_lead_a_tool_line() {
        for c in ['💻', '🔍', '⚡', '✍', '→', '⏰', '❌', '🇺'] {
            assert!(is_symbol(c), "{c}");
        }
        for c in ['a', 'é', '日', '「', '①', '❶', '┊', '\u{e000}', '\u{fffd}', '™'] {
            assert!(!is_symbol(c), "{c}");
        }
    }

    #[test]
    fn tool_lines_become_paired_cards() {
        let out = read("[done] ┊ 💻 $         curl -s \"http://x\"  0.1s (0.5s)");
        match (&out[0], &out[1]) {
            (
                Entry::ToolCall { name, input, tool_use_id: Some(a), .. },
                Entry::ToolResult { tool_use_id: b, content, is_error, duration_ms, .. },
            ) => {
                assert_eq!(name, "shell");
                assert_eq!(input["detail"], "curl -s \"http://x\"");
                assert_eq!(a, b);
                assert_eq!(content, "curl -s \"http://x\"  0.1s");
                assert!(!is_error);
                assert_eq!(*duration_ms, Some(100));
            }
            other => panic!("{other:?}"),
        }
        let failed = read("┊ 💻 $         false  0.0s [exit 1]");
        assert!(matches!(&failed[1], Entry::ToolResult { is_error: true, content, .. } if content == "false  0.0s [exit 1]"));
        assert_eq!(read("┊ 💬 All done."), vec![Entry::assistant("t", "All done.")]);
        // In a Hermes run the start line and the spinner's remnant repeat the completion line.
        let forced = |l: &str| {
            let mut out = Vec::new();
            assert!(parse_text(l, "t", true, &mut out), "{l}");
            out
        };
        assert!(forced("[tool] (｡◕‿◕｡) 💻 $ ls").is_empty());
        assert!(forced("💻 Completed").is_empty());
    }

    #[test]
    fn outside_a_hermes_run_its_generic_marks_are_plain_text() {
        // Lines any program may print: shown as they are (left to the plain reader), never
        // dropped, never a tool.
        for line in ["[tool] bash: ls -la", "[tool]: bash", "  [tool] bash", "💻 Completed", "Thinking: about it", "<thinking>", "┊ x", "┊ 💻 $ ls"] {
            let mut out = Vec::new();
            assert!(!parse_text(line, "t", false, &mut out), "{line} was read as Hermes: {out:?}");
            assert!(out.is_empty());
            let all = crate::parser::parse_line(line, "t");
            assert!(all.iter().all(|e| !matches!(e, Entry::ToolCall { .. } | Entry::ToolResult { .. } | Entry::Thinking { .. })), "{line}: {all:?}");
            let shown = format!("{all:?}");
            assert!(shown.contains(line.trim()), "{line}: {all:?}");
        }
        // A completion line with its duration is Hermes' own, whoever reads it.
        assert!(matches!(&crate::parser::parse_line("┊ 💻 $ ls  0.1s", "t")[..], [Entry::ToolCall { .. }, Entry::ToolResult { .. }]));
    }

    #[test]
    fn unmarked_prose_is_left_to_plain_unless_forced() {
        let mut out = Vec::new();
        assert!(!parse_text("The answer is 4.", "t", false, &mut out));
        assert!(parse_text("The answer is 4.", "t", true, &mut out));
        assert_eq!(out, vec![Entry::assistant("t", "The answer is 4.")]);
    }

    #[test]
    fn gateway_events() {
        let read = |l: &str| crate::parser::parse_line(l, "t");
        let ev = |e: &str, d: &str| read(&format!("[hermes-gateway:event] run=r1 event={e} data={d}"));
        assert_eq!(ev("message.delta", r#"{"delta":"Hi"}"#), vec![Entry::assistant_delta("t", "Hi")]);
        assert_eq!(
            ev("tool.started", r#"{"event":"tool.started","tool":"terminal","preview":"ls"}"#),
            vec![Entry::tool_call("t", "terminal", serde_json::json!({"preview":"ls"}), Some("hermes:r1:terminal".into()))]
        );
        let done = ev("tool.completed", r#"{"tool":"terminal","duration":0.25,"error":false}"#);
        assert!(matches!(&done[0], Entry::ToolResult { content, is_error: false, .. } if content == "done in 0.25s"));
        let fin = ev("run.completed", r#"{"output":"done","usage":{"input_tokens":5,"output_tokens":2}}"#);
        assert!(matches!(&fin[0], Entry::Result { input_tokens, text, .. } if *input_tokens == 5.0 && text == "done"));
        assert_eq!(ev("run.failed", r#"{"error":"boom"}"#), vec![Entry::stderr("t", "boom")]);
        // The raw delta glued before the next event line is the copy the event showed.
        assert_eq!(
            read(r#"Hi[hermes-gateway:event] run=r1 event=message.delta data={"delta":" there"}"#),
            vec![Entry::assistant_delta("t", " there")]
        );
    }
}
