//! How `parse` writes entries: JSON Lines (the host's entries as they are, optionally with the
//! file and line they came from), plain text for a terminal, or a Markdown transcript.
//!
//! Text and Markdown are for people: a run of streamed pieces (`delta: true`: an answer's
//! tokens, a tool's output line by line) is one block, its final result's status and time on
//! it; long tool output is clipped (its size said), tool input
//! is compact JSON, and a Markdown code block's fence is longer than any backtick run inside
//! it, so agent output can never close it early. Nothing is escaped into HTML: Markdown
//! renderers that allow raw HTML would run it, so agent text that is not the assistant's own
//! prose (tool output, notices) always goes inside code blocks or blockquotes of plain text,
//! and the assistant's prose, which is Markdown, has its raw HTML and script links made inert
//! ([`inert_markdown`]).

use agentlines::Entry;
use clap::ValueEnum;
use std::fmt::Write;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// One JSON entry per line (the host's TranscriptEntry)
    Jsonl,
    /// Readable text, one block per entry
    Text,
    /// A Markdown transcript
    Markdown,
}

/// Where an entry came from: the input's name and the line it was read from (1-based; for a
/// run log, the line its rows join into).
pub struct Origin<'a> {
    pub file: &'a str,
    pub line: usize,
}

/// Tool output shown in text and Markdown: at most this many characters.
const CLIP_CHARS: usize = 2000;

/// Renders entries in one output kind; `located` adds each entry's origin.
pub struct Renderer {
    pub output: Output,
    pub located: bool,
    /// Markdown: the file whose heading was written last, and whether a diff block is open.
    heading: Option<String>,
    diff_open: bool,
    /// Text and Markdown: the streamed pieces joined so far, and where the first came from;
    /// written when something else comes, the input waits ([`Renderer::settle`]) or it ends.
    pending: Option<(Entry, String, usize)>,
}

impl Renderer {
    pub fn new(output: Output, located: bool) -> Renderer {
        Renderer { output, located, heading: None, diff_open: false, pending: None }
    }

    /// Appends `e` (from `at`) to `buf`.
    pub fn entry(&mut self, e: &Entry, at: &Origin, buf: &mut String) {
        if self.output == Output::Jsonl {
            return self.jsonl(e, at, buf);
        }
        if let Some((held, file, _)) = &mut self.pending {
            if file == at.file && join(held, e) {
                if !is_piece(e) {
                    self.settle(buf);
                }
                return;
            }
            self.settle(buf);
        }
        if is_piece(e) {
            self.pending = Some((e.clone(), at.file.to_owned(), at.line));
            return;
        }
        self.write(e, at, buf);
    }

    /// Writes the pieces held so far (the input is waiting: show what has come).
    pub fn settle(&mut self, buf: &mut String) {
        if let Some((e, file, line)) = self.pending.take() {
            self.write(&e, &Origin { file: &file, line }, buf);
        }
    }

    fn write(&mut self, e: &Entry, at: &Origin, buf: &mut String) {
        match self.output {
            Output::Jsonl => self.jsonl(e, at, buf),
            Output::Text => self.text(e, at, buf),
            Output::Markdown => self.markdown(e, at, buf),
        }
    }

    /// What must follow the last entry (held pieces, an open Markdown diff block's fence).
    pub fn finish(&mut self, buf: &mut String) {
        self.settle(buf);
        if self.diff_open {
            buf.push_str("```\n\n");
            self.diff_open = false;
        }
    }

    fn jsonl(&self, e: &Entry, at: &Origin, buf: &mut String) {
        if !self.located {
            e.write_json(buf);
            buf.push('\n');
            return;
        }
        // `{"file":…,"line":…,` then the entry's own fields (its JSON without the `{`).
        let mut one = String::new();
        e.write_json(&mut one);
        buf.push_str("{\"file\":");
        buf.push_str(&serde_json::to_string(at.file).unwrap_or_default());
        let _ = write!(buf, ",\"line\":{},", at.line);
        buf.push_str(one.strip_prefix('{').unwrap_or(&one));
        buf.push('\n');
    }

    fn text(&self, e: &Entry, at: &Origin, buf: &mut String) {
        if self.located {
            let _ = write!(buf, "{}:{}: ", at.file, at.line);
        }
        let time = clock(e.ts());
        let (label, body) = describe(e);
        let _ = write!(buf, "{time} {label}");
        let mut lines = body.lines();
        match lines.next() {
            Some(first) => {
                let _ = writeln!(buf, ": {first}");
            }
            None => buf.push('\n'),
        }
        for l in lines {
            let _ = writeln!(buf, "    {l}");
        }
    }

    fn markdown(&mut self, e: &Entry, at: &Origin, buf: &mut String) {
        if self.located && self.heading.as_deref() != Some(at.file) {
            self.finish(buf);
            let _ = writeln!(buf, "## {}\n", one_line(at.file));
            self.heading = Some(at.file.to_owned());
        }
        if let Entry::Diff { change_type, text, .. } = e {
            if !self.diff_open {
                buf.push_str("```diff\n");
                self.diff_open = true;
            }
            let mark = match *change_type {
                "add" => "+",
                "remove" => "-",
                "context" => " ",
                _ => "",
            };
            // A line that is itself a fence would end the block: shown with a space before it.
            let line = if text.trim_start().starts_with("```") { format!(" {text}") } else { text.clone() };
            let _ = writeln!(buf, "{mark}{line}");
            return;
        }
        self.finish(buf);
        let time = clock(e.ts());
        match e {
            Entry::Assistant { text, .. } => {
                let _ = writeln!(buf, "**Assistant** ({time})\n\n{}\n", inert_markdown(text.trim_end()));
            }
            Entry::User { text, .. } => {
                let _ = writeln!(buf, "**User** ({time})\n\n{}\n", quote(text));
            }
            Entry::Thinking { text, .. } => {
                let _ = writeln!(buf, "*Thinking* ({time})\n\n{}\n", quote(text));
            }
            Entry::ToolCall { name, input, .. } => {
                let json = serde_json::to_string_pretty(input)
                    .unwrap_or_default();
                let _ = writeln!(buf, "**Tool call: {}** ({time})\n\n{}", one_line(name), fenced("json", &json));
            }
            Entry::ToolResult { content, is_error, tool_name, duration_ms, .. } => {
                let mut head = String::from(if *is_error { "**Tool error**" } else { "**Tool result**" });
                if let Some(n) = tool_name {
                    let _ = write!(head, " ({})", one_line(n));
                }
                if let Some(ms) = duration_ms {
                    let _ = write!(head, ", {}", seconds(*ms));
                }
                let _ = writeln!(buf, "{head}\n\n{}", fenced("", &clip(content)));
            }
            _ => {
                let (label, body) = describe(e);
                let _ = writeln!(buf, "{}\n", quote(&format!("{label}: {body}")));
            }
        }
    }
}

/// The assistant's Markdown with nothing a renderer would run: outside code blocks and code
/// spans, `<` becomes `&lt;` (no raw HTML) and a link to a `javascript:`, `vbscript:` or
/// `data:` address points nowhere.
fn inert_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let t = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| t.starts_with(m));
        match (fence, marker) {
            (Some(open), Some(m)) if m == open => {
                fence = None;
                out.push_str(line);
                continue;
            }
            (Some(_), _) => {
                out.push_str(line);
                continue;
            }
            (None, Some(m)) => {
                fence = Some(m);
                out.push_str(line);
                continue;
            }
            (None, None) => {}
        }
        // Code spans (between backtick runs) stay as they are.
        for (k, part) in line.split('`').enumerate() {
            if k > 0 {
                out.push('`');
            }
            if k % 2 == 1 {
                out.push_str(part);
                continue;
            }
            let mut rest = part.replace('<', "&lt;");
            for scheme in ["javascript:", "vbscript:", "data:"] {
                let lower = rest.to_ascii_lowercase();
                let needle = format!("]({scheme}");
                if let Some(at) = lower.find(&needle) {
                    rest = format!("{}](#{}", &rest[..at], &rest[at + needle.len()..]);
                }
            }
            out.push_str(&rest);
        }
    }
    out
}

/// A streamed piece: text, thinking or a tool's output marked `delta: true`.
fn is_piece(e: &Entry) -> bool {
    agentlines::parser::delta_text(e).is_some()
}

/// Adds `e` to the pieces `held` when it continues them: the next piece of the same kind (of
/// the same tool call), or the tool result that ends them (its content, when it has any,
/// replacing theirs, as the host shows it; its status and time kept). Whether it did.
fn join(held: &mut Entry, e: &Entry) -> bool {
    match (held, e) {
        (Entry::Assistant { text, parent_tool_use_id: p, .. }, Entry::Assistant { text: more, delta: Some(true), parent_tool_use_id: q, .. })
        | (Entry::Thinking { text, parent_tool_use_id: p, .. }, Entry::Thinking { text: more, delta: Some(true), parent_tool_use_id: q, .. })
            if p == q =>
        {
            text.push_str(more);
            true
        }
        (
            Entry::ToolResult { tool_use_id, content, is_error, delta, duration_ms, tool_name, .. },
            Entry::ToolResult { tool_use_id: id, content: more, is_error: failed, delta: piece, duration_ms: ms, tool_name: name, .. },
        ) if tool_use_id == id => {
            if *piece == Some(true) {
                content.push_str(more);
            } else {
                if !more.is_empty() {
                    content.clone_from(more);
                }
                *is_error = *failed;
                *delta = None;
                *duration_ms = *ms;
                if name.is_some() {
                    tool_name.clone_from(name);
                }
            }
            true
        }
        _ => false,
    }
}

/// A label and the body text of an entry, for text output and Markdown notices.
pub fn describe(e: &Entry) -> (String, String) {
    match e {
        Entry::Assistant { text, .. } => ("assistant".into(), text.clone()),
        Entry::Thinking { text, .. } => ("thinking".into(), text.clone()),
        Entry::User { text, .. } => ("user".into(), text.clone()),
        Entry::ToolCall { name, input, .. } => {
            let json = serde_json::to_string(input).unwrap_or_default();
            (format!("tool call {name}"), clip_chars(&json, 300))
        }
        Entry::ToolResult { content, is_error, tool_name, duration_ms, .. } => {
            let mut label = String::from(if *is_error { "tool error" } else { "tool result" });
            match (tool_name, duration_ms) {
                (Some(n), Some(ms)) => {
                    let _ = write!(label, " ({n}, {})", seconds(*ms));
                }
                (Some(n), None) => {
                    let _ = write!(label, " ({n})");
                }
                (None, Some(ms)) => {
                    let _ = write!(label, " ({})", seconds(*ms));
                }
                (None, None) => {}
            }
            (label, clip(content))
        }
        Entry::Init { model, session_id, .. } => ("init".into(), format!("model {model}, session {session_id}")),
        Entry::Result { text, input_tokens, output_tokens, cached_tokens, cost_usd, is_error, errors, .. } => {
            let mut body = format!(
                "{} in, {} out, {} cached, ${cost_usd:.4}",
                *input_tokens as u64, *output_tokens as u64, *cached_tokens as u64
            );
            if *is_error {
                body.push_str(" (error)");
            }
            for err in errors {
                let _ = write!(body, "\n{err}");
            }
            if !text.is_empty() {
                let _ = write!(body, "\n{text}");
            }
            ("result".into(), body)
        }
        Entry::Stderr { text, .. } => ("stderr".into(), text.clone()),
        Entry::System { text, .. } => ("system".into(), text.clone()),
        Entry::Stdout { text, .. } => ("stdout".into(), text.clone()),
        Entry::Diff { change_type, text, .. } => (format!("diff {change_type}"), text.clone()),
        other => {
            let mut json = String::new();
            other.write_json(&mut json);
            (other.kind().into(), clip_chars(&json, 300))
        }
    }
}

/// `2026-01-02T03:04:05.678Z` → `03:04:05`; anything else as it is.
fn clock(ts: &str) -> &str {
    match ts.split_once('T') {
        Some((_, t)) if t.len() >= 8 && t.is_char_boundary(8) => &t[..8],
        _ => ts,
    }
}

fn seconds(ms: u64) -> String {
    format!("{:.1}s", ms as f64 / 1000.0)
}

fn clip(text: &str) -> String {
    clip_chars(text, CLIP_CHARS)
}

fn clip_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}… ({} more bytes)", &text[..end], text.len() - end),
    }
}

/// One line of text, for headings and labels.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Text as a Markdown blockquote, each line quoted (so a line of its own cannot start a
/// heading, list or HTML block outside the quote).
fn quote(text: &str) -> String {
    let t = text.trim_end();
    if t.is_empty() {
        return ">".to_owned();
    }
    t.lines().map(|l| format!("> {l}")).collect::<Vec<_>>().join("\n")
}

/// A fenced code block whose fence is longer than the longest backtick run in `body`.
fn fenced(lang: &str, body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{lang}\n{}\n{fence}\n", body.trim_end_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_the_backticks_inside() {
        let f = fenced("", "a ```` b");
        assert!(f.starts_with("`````\n"), "{f}");
        assert!(f.ends_with("\n`````\n"), "{f}");
    }

    #[test]
    fn quoted_text_cannot_leave_its_quote() {
        assert_eq!(quote("one\n# two\n<script>"), "> one\n> # two\n> <script>");
    }

    #[test]
    fn assistant_markdown_runs_nothing() {
        assert_eq!(
            inert_markdown("hi <img src=x onerror=alert(1)> [a](JavaScript:alert(1)) `<b>`"),
            "hi &lt;img src=x onerror=alert(1)> [a](#alert(1)) `<b>`"
        );
        assert_eq!(inert_markdown("```html\n<b>\n```\n<i>"), "```html\n<b>\n```\n&lt;i>");
    }

    #[test]
    fn clock_reads_iso_times_and_leaves_the_rest() {
        assert_eq!(clock("2026-01-02T03:04:05.678Z"), "03:04:05");
        assert_eq!(clock("yesterday"), "yesterday");
    }
}
