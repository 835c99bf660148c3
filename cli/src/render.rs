//! How `parse` writes entries: JSON Lines (the host's entries as they are, optionally with the
//! file and line they came from), plain text for a terminal, or a Markdown transcript.
//!
//! `-o html` is the run viewer's shared file (www/share.js) of one log: the viewer itself,
//! its parts included at build time from `share-template.json` (scripts/share-template.mjs
//! writes them from www/; a test checks they match), around the run's entries as data.
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
    /// One HTML file of the run: the run viewer, offline (one input)
    Html,
}

/// The shared file's fixed parts (www/share.js `sharedParts`).
const SHARE_TEMPLATE: &str = include_str!("share-template.json");

/// What `-o html` gathers until the input ends: the data block's items (`[entry, line,
/// real]`, every `<` written `\u003c`) and the run's usage.
#[derive(Default)]
struct Html {
    /// The time given to lines without one of their own: an entry with it is not on the
    /// log's own clock.
    start: String,
    label: String,
    lines: usize,
    items: String,
    usage: agentlines::usage::Usage,
}

/// JSON made safe inside a `<script type="application/json">` block.
fn inert_json(json: &str) -> String {
    json.replace('<', "\\u003c")
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
    /// Markdown: the file whose heading was written last, and the lines of the diff block
    /// being gathered (written as one fenced block, its fence longer than any backtick run in
    /// it, when something else comes).
    heading: Option<String>,
    diff: Option<String>,
    /// Text and Markdown: the streamed pieces joined so far, and where the first came from;
    /// written when something else comes, the input waits ([`Renderer::settle`]) or it ends.
    pending: Option<(Entry, String, usize)>,
    html: Option<Box<Html>>,
    /// The runtime that read the entries handed next (the usage of `-o html` counts tokens
    /// by it).
    pub runtime: Option<agentlines::Format>,
}

impl Renderer {
    pub fn new(output: Output, located: bool) -> Renderer {
        let html = (output == Output::Html).then(Box::<Html>::default);
        Renderer { output, located, heading: None, diff: None, pending: None, html, runtime: None }
    }

    /// `-o html`: the time lines without their own timestamp were given.
    pub fn set_start(&mut self, start: &str) {
        if let Some(h) = &mut self.html {
            h.start = start.to_owned();
        }
    }

    /// Appends `e` (from `at`) to `buf`.
    pub fn entry(&mut self, e: &Entry, at: &Origin, buf: &mut String) {
        if self.output == Output::Jsonl {
            return self.jsonl(e, at, buf);
        }
        if let Some(h) = &mut self.html {
            if h.label.is_empty() {
                // The file's name, not its path: the page may be published.
                h.label = std::path::Path::new(at.file).file_name().map_or_else(|| at.file.to_owned(), |n| n.to_string_lossy().into_owned());
            }
            h.lines = h.lines.max(at.line);
            if matches!(e.kind(), "result" | "init") {
                h.usage.add(self.runtime, e);
            }
            let ts = e.ts();
            let real = !ts.is_empty() && ts != h.start;
            let mut one = String::new();
            e.write_json(&mut one);
            if !h.items.is_empty() {
                h.items.push(',');
            }
            let _ = write!(h.items, "[{},{},{}]", inert_json(&one), at.line, u8::from(real));
            return;
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
            Output::Html => {}
        }
    }

    /// What must follow the last entry (held pieces, an open Markdown diff block's fence).
    pub fn finish(&mut self, buf: &mut String) {
        if let Some(h) = self.html.take() {
            return shared_file(&h, buf);
        }
        self.settle(buf);
        if let Some(diff) = self.diff.take() {
            buf.push_str(&fenced("diff", &diff));
            buf.push('\n');
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
            let _ = writeln!(buf, "## {}\n", escape(&one_line(at.file)));
            self.heading = Some(at.file.to_owned());
        }
        if let Entry::Diff { text, .. } = e {
            // The line as the diff has it (its sign is part of the text). The block is written
            // whole, so its fence can outlast any backtick run in it (a file named ```` ``` ````
            // cannot close it early).
            let diff = self.diff.get_or_insert_with(String::new);
            diff.push_str(text);
            diff.push('\n');
            return;
        }
        self.finish(buf);
        let time = &escape(clock(e.ts()));
        let time = time.as_str();
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
                let _ = writeln!(buf, "**Tool call: {}** ({time})\n\n{}", escape(&one_line(name)), fenced("json", &json));
            }
            Entry::ToolResult { content, is_error, tool_name, duration_ms, .. } => {
                let mut head = String::from(if *is_error { "**Tool error**" } else { "**Tool result**" });
                if let Some(n) = tool_name {
                    let _ = write!(head, " ({})", escape(&one_line(n)));
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

/// The assistant's Markdown with nothing a renderer would run, its formatting kept. Outside
/// fenced blocks and code spans (a backtick run opens a span only where a run of the same
/// length closes it on the same line; a lone run is escaped), `<` is `&lt;` (no
/// raw HTML, no autolink) and `&` before a character reference is `&amp;` (no entity turns
/// into markup or a scheme). A link or link reference definition whose destination has a
/// scheme other than http, https or mailto (`javascript:`, `data:`, `vbscript:`…), or that a
/// renderer could decode into one (an escape or an entity before its colon), loses its link
/// syntax: its `](` or its opening `[` is escaped. A fence only closes with its own marker,
/// at least as long, at most three spaces in.
fn inert_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut fence: Option<(char, usize)> = None;
    let mut prose = String::new();
    for line in text.split('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let t = line.trim_start_matches(' ');
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        let marker = if indent <= 3 {
            ['`', '~'].into_iter().map(|c| (c, run(c))).find(|&(_, n)| n >= 3)
        } else {
            None
        };
        if let Some((c, n)) = fence {
            // Inside a fenced block everything is code; the block ends at its own fence.
            out.push_str(line);
            out.push('\n');
            if marker.is_some_and(|(m, k)| m == c && k >= n && t[k..].trim().is_empty()) {
                fence = None;
            }
            continue;
        }
        // A backtick fence's info string may not hold a backtick: then it is no fence.
        let opens = marker.filter(|&(c, n)| c == '~' || !t[n..].contains('`'));
        if let Some(m) = opens {
            out.push_str(&inert_prose(&std::mem::take(&mut prose)));
            out.push_str(line);
            out.push('\n');
            fence = Some(m);
            continue;
        }
        prose.push_str(line);
        prose.push('\n');
    }
    out.push_str(&inert_prose(&prose));
    // An unclosed fence is closed (the block ends where the text does, as CommonMark reads it).
    if let Some((c, n)) = fence {
        out.push_str(&c.to_string().repeat(n));
        out.push('\n');
    }
    out.truncate(out.trim_end_matches('\n').len());
    out
}

/// [`inert_markdown`] for text outside fenced blocks (code spans may cross lines).
fn inert_prose(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'`' {
            let n = b[i..].iter().take_while(|&&x| x == b'`').count();
            // The closing run: exactly n backticks, on the same line (CommonMark lets a span
            // cross lines, but a later line may be a block the renderer reads first: a fence
            // inside a quote or a list item).
            let mut j = i + n;
            let mut close = None;
            while j < b.len() && b[j] != b'\n' && b[j] != b'\r' {
                if b[j] == b'`' {
                    let m = b[j..].iter().take_while(|&&x| x == b'`').count();
                    if m == n {
                        close = Some(j);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(j) => {
                    out.push_str(&text[i..j + n]);
                    i = j + n;
                }
                None => {
                    for _ in 0..n {
                        out.push_str("\\`");
                    }
                    i += n;
                }
            }
            line_start = false;
            continue;
        }
        if line_start {
            // A link reference definition (`[label]: destination`, up to three spaces in).
            let rest = &text[i..];
            let t = rest.trim_start_matches(' ');
            if rest.len() - t.len() <= 3 && t.starts_with('[') {
                if let Some(end) = t.find("]:") {
                    if unsafe_destination(&t[end + 2..]) {
                        out.push_str(&rest[..rest.len() - t.len()]);
                        out.push('\\');
                        i += rest.len() - t.len();
                    }
                }
            }
        }
        line_start = c == b'\n' || c == b'\r';
        match c {
            b'<' => out.push_str("&lt;"),
            b'&' if b.get(i + 1).is_some_and(|&x| x == b'#' || x.is_ascii_alphabetic()) => out.push_str("&amp;"),
            b']' if b.get(i + 1) == Some(&b'(') && unsafe_destination(&text[i + 2..]) => out.push_str("]\\"),
            _ => {
                let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                out.push(ch);
                i += ch.len_utf8();
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Whether a link destination (the text after `](` or `]:`) could make a renderer that keeps
/// raw links follow something other than http, https, mailto or a path: a scheme other
/// than those, or an escape or entity before the first `:` (a renderer decodes them).
fn unsafe_destination(after: &str) -> bool {
    let d = after.trim_start_matches([' ', '\t', '\n', '\r']).trim_start_matches('<');
    let head: String = d.chars().take_while(|c| !matches!(c, '/' | '?' | '#' | ')' | '>' | ' ' | '\n' | '\t')).collect();
    let Some(colon) = head.find(':') else { return head.contains(['&', '\\']) };
    let scheme = head[..colon].to_ascii_lowercase();
    if scheme.contains(['&', '\\', '%']) {
        return true;
    }
    !matches!(scheme.as_str(), "http" | "https" | "mailto")
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

/// The run viewer's shared file of the run gathered in `h` (www/share.js `toHtmlBlob`).
fn shared_file(h: &Html, buf: &mut String) {
    let parts: serde_json::Value = serde_json::from_str(SHARE_TEMPLATE).expect("share-template.json is JSON");
    let part = |k: &str| parts[k].as_str().unwrap_or_default().to_owned();
    let label = if h.label.is_empty() { "log" } else { &h.label };
    buf.push_str(&part("before"));
    for c in label.chars() {
        match c {
            '&' | '<' | '>' | '"' | '\'' => {
                let _ = write!(buf, "&#{};", c as u32);
            }
            _ => buf.push(c),
        }
    }
    buf.push_str(&part("between"));
    let head = serde_json::json!({
        "v": 1,
        "label": label,
        "usage": agentlines::usage::api::summary(&h.usage),
        "lines": h.lines,
    });
    let head = inert_json(&head.to_string());
    buf.push_str(head.strip_suffix('}').unwrap_or(&head));
    buf.push_str(",\"entries\":[");
    buf.push_str(&h.items);
    buf.push_str("]}");
    buf.push_str(&part("tail"));
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

/// Text as a Markdown blockquote of plain text: each line quoted and escaped character by
/// character ([`escape`]), with a hard break at its end, so nothing in it is Markdown or HTML.
fn quote(text: &str) -> String {
    let t = text.trim_end();
    if t.is_empty() {
        return ">".to_owned();
    }
    t.lines().map(|l| format!("> {}", escape(l))).collect::<Vec<_>>().join("\\\n")
}

/// Plain text made literal in Markdown by CommonMark's own rule: every ASCII punctuation
/// character that can begin or end a construct (emphasis, code span, link, image, autolink,
/// raw HTML, entity, heading, list, thematic break, table, strikethrough, math) is
/// backslash-escaped, and leading spaces are kept as `&#32;` (no indented code block).
/// Nothing is dropped: a renderer shows the text as it was.
fn escape(text: &str) -> String {
    const SPECIAL: &[char] = &['\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '<', '>', '#', '+', '-', '.', '!', '|', '~', '&', '=', '$', '"', '\''];
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut leading = true;
    for c in text.chars() {
        if leading && c == ' ' {
            out.push_str("&#32;");
            continue;
        }
        leading = false;
        if SPECIAL.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
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
    fn quoted_text_is_plain_text() {
        assert_eq!(quote("one\n# two\n<script>"), "> one\\\n> \\# two\\\n> \\<script\\>");
        assert_eq!(escape("  `x` [a](b) &amp; 10:20"), "&#32;&#32;\\`x\\` \\[a\\]\\(b\\) \\&amp; 10:20");
    }

    #[test]
    fn assistant_markdown_runs_nothing() {
        assert_eq!(
            inert_markdown("hi <img src=x onerror=alert(1)> [a](JavaScript:alert(1)) `<b>` [ok](https://x.y)"),
            "hi &lt;img src=x onerror=alert(1)> [a]\\(JavaScript:alert(1)) `<b>` [ok](https://x.y)"
        );
        assert_eq!(inert_markdown("```html\n<b>\n```\n<i>"), "```html\n<b>\n```\n&lt;i>");
        // A lone backtick does not start a code span: the rest of the line stays escaped.
        assert_eq!(inert_markdown("a ` b <i>"), "a \\` b &lt;i>");
        // Runs of unequal length are no span.
        assert_eq!(inert_markdown("``a` <i>"), "\\`\\`a\\` &lt;i>");
        // The destination on the next line, a reference definition, an entity in the scheme.
        assert_eq!(inert_markdown("[a](\njavascript:x)"), "[a]\\(\njavascript:x)");
        assert_eq!(inert_markdown("[a]: javascript:x"), "\\[a]: javascript:x");
        assert_eq!(inert_markdown("[a](java&#115;cript:x)"), "[a]\\(java&amp;#115;cript:x)");
        // A backtick fence whose info string holds a backtick is not a fence.
        assert_eq!(inert_markdown("``` a`b\n<i>"), "\\`\\`\\` a\\`b\n&lt;i>");
        // An unclosed fence is closed.
        assert_eq!(inert_markdown("~~~\n<i>"), "~~~\n<i>\n~~~");
    }

    #[test]
    fn clock_reads_iso_times_and_leaves_the_rest() {
        assert_eq!(clock("2026-01-02T03:04:05.678Z"), "03:04:05");
        assert_eq!(clock("yesterday"), "yesterday");
    }
}
