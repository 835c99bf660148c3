//! Turn signals: the fenced blocks an agent ends a turn with under The Framework's await and
//! signal protocols (framework/the-framework `packages/framework/src/turn-gate.ts`):
//! ```` ```await-choices {json}``` ```` (a question with options), ```` ```show-markdown ````
//! (a side-panel view), ```` ```open-pr ````, ```` ```error ````, ```` ```ready-for-merge ````
//! and the older ```` ```set-session-name ````. Evidence: the conformance cases recorded by
//! running the upstream code (`tests/fixtures/conformance/turn-gate/`, see its NOTES.md).
//!
//! Parsers never throw on a malformed block; they take `&str` (the JS face reproduces the
//! `TypeError`s upstream throws on non-strings). [`turn_signal_notices`] is the cheap hook
//! for the stdout parser; [`TurnSignalEmitter`] is `createTurnSignalEmitter`'s state.

// Without std (the host's files) only the notices are used; the JS-facing calls are not.
#![cfg_attr(not(feature = "std"), allow(dead_code, unused_imports))]

use crate::prelude::*;
mod emitter;

pub use emitter::TurnSignalEmitter;

use crate::json::{self, js_json_to_serde, read};
use crate::text::{self, cut};
use crate::js::{self, arg, json_parse, Js, Obj};
#[cfg(feature = "std")]
use serde_json::Value;

/// The bodies of every ```` ```TAG\s+BODY``` ```` block, in order: at least one whitespace
/// after the tag, the body ends at the first following three backticks.
fn blocks<'a>(text: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("```{tag}");
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(at) = js::find_at(text, &open, pos) {
        let after = at + open.len();
        let body = js::skip_spaces(text, after);
        if body == after {
            pos = at + 1;
            continue;
        }
        let Some(end) = js::find_at(text, "```", body) else { break };
        out.push(cut(text, body..end));
        pos = end + 3;
    }
    out
}

/// Upstream `slugify`: lowercase, runs outside `[a-z0-9]` become `-`, no `-` at the ends.
fn slugify(title: &str, fallback: &str) -> String {
    let mut slug = String::new();
    let mut gap = false;
    for c in title.chars() {
        // Of JS `toLowerCase`, only what lands in `[a-z0-9]` matters: ASCII, `İ` (→ `i` +
        // U+0307) and the Kelvin sign (→ `k`); every other character lowers outside ASCII.
        let (c, then_gap) = match c {
            '\u{130}' => ('i', true),
            '\u{212a}' => ('k', false),
            c => (c.to_ascii_lowercase(), false),
        };
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if gap && !slug.is_empty() {
                slug.push('-');
            }
            slug.push(c);
            gap = then_gap;
        } else {
            gap = true;
        }
    }
    if slug.is_empty() {
        fallback.to_owned()
    } else {
        slug
    }
}

/// `^#\s+(.+)` on a line: the captured title text (before trimming).
fn heading(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('#')?;
    let mut ends = Vec::new();
    for (i, c) in rest.char_indices() {
        if !js::is_space(c) {
            break;
        }
        ends.push(i + c.len_utf8());
    }
    ends.iter().rev().find_map(|&from| {
        let cap = cut(rest, from..);
        let len = cap.find(['\n', '\r', '\u{2028}', '\u{2029}']).unwrap_or(cap.len());
        (len > 0).then(|| cut(cap, ..len))
    })
}

/// One `show-markdown` view.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub id: String,
    pub title: String,
    pub markdown: String,
}

/// `parseMarkdownViews(text)`: a later view with the same id replaces an earlier one in place.
pub fn parse_markdown_views(text: &str) -> Vec<View> {
    let mut views: Vec<View> = Vec::new();
    for body in blocks(text, "show-markdown") {
        let body = js::trim(body);
        if body.is_empty() {
            continue;
        }
        let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
        let (title, markdown) = match heading(first) {
            Some(t) => (js::trim(t), js::trim(rest)),
            None => ("Note", body),
        };
        if markdown.is_empty() {
            continue;
        }
        let view = View {
            id: slugify(title, "view"),
            title: title.to_owned(),
            markdown: markdown.to_owned(),
        };
        match views.iter_mut().find(|v| v.id == view.id) {
            Some(slot) => *slot = view,
            None => views.push(view),
        }
    }
    views
}

/// `parseSessionName(text)` (the revision before the signal was removed): the slug of the
/// first non-blank line of the last block whose slug is not empty.
pub fn parse_session_name(text: &str) -> Option<String> {
    let mut name = None;
    for body in blocks(text, "set-session-name") {
        let line = body.split('\n').map(js::trim).find(|l| !l.is_empty());
        let slug = line.map(|l| slugify(l, "")).unwrap_or_default();
        if !slug.is_empty() {
            name = Some(slug);
        }
    }
    name
}

/// The longest first line (UTF-16 units) still taken as a pull-request title.
const MAX_PR_TITLE: usize = 100;

/// What an `open-pr` block asks for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PullRequest {
    pub title: Option<String>,
    pub description: Option<String>,
}

/// The first line (trimmed) and the rest (trimmed) of a trimmed body.
fn head_and_rest(trimmed: &str) -> (&str, &str) {
    let (first, rest) = trimmed.split_once('\n').unwrap_or((trimmed, ""));
    (js::trim(first), js::trim(rest))
}

/// `parsePullRequest(text)`: the last non-blank `open-pr` block.
pub fn parse_pull_request(text: &str) -> Option<PullRequest> {
    let body = blocks(text, "open-pr").into_iter().map(js::trim).rfind(|b| !b.is_empty())?;
    let (title, description) = head_and_rest(body);
    Some(if js::utf16_len(title) <= MAX_PR_TITLE {
        PullRequest {
            title: Some(title.to_owned()),
            description: Some(description.to_owned()).filter(|d| !d.is_empty()),
        }
    } else {
        PullRequest { title: None, description: Some(body.to_owned()) }
    })
}

/// One reported error: the first line, and the rest when there is any.
#[derive(Debug, Clone, PartialEq)]
pub struct SignalError {
    pub headline: String,
    pub detail: Option<String>,
}

/// `parseErrors(text)`: every non-blank `error` block, in order.
pub fn parse_errors(text: &str) -> Vec<SignalError> {
    blocks(text, "error")
        .into_iter()
        .map(js::trim)
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (headline, detail) = head_and_rest(b);
            SignalError {
                headline: headline.to_owned(),
                detail: Some(detail.to_owned()).filter(|d| !d.is_empty()),
            }
        })
        .collect()
}

/// `parseReadyForMerge(text)`: ```` ```ready-for-merge``` ```` or one followed by whitespace
/// and, somewhere later, three backticks.
pub fn parse_ready_for_merge(text: &str) -> bool {
    const OPEN: &str = "```ready-for-merge";
    let mut pos = 0;
    while let Some(at) = js::find_at(text, OPEN, pos) {
        let after = at + OPEN.len();
        let rest = cut(text, after..);
        if rest.starts_with("```") {
            return true;
        }
        if let Some(c) = rest.chars().next().filter(|c| js::is_space(*c)) {
            if js::find_at(text, "```", after + c.len_utf8()).is_some() {
                return true;
            }
        }
        pos = at + 1;
    }
    false
}

/// `parseAwaitGate(text)`: the last `await-choices` block that yields a gate, as the
/// library's object (`{title, options, recommended?, multi?, file?}`).
pub fn parse_await_gate(text: &str) -> Option<Js> {
    let gate = blocks(text, "await-choices").into_iter().rev().find_map(|b| gate_of(&json_parse(b)?))?;
    Some(gate_js(gate))
}

/// An `await-choices` gate: what [`parse_await_gate`] returns, before it becomes a JS object.
struct Gate {
    title: String,
    options: Vec<GateOption>,
    recommended: Option<String>,
    multi: bool,
    file: String,
}

struct GateOption {
    id: String,
    label: String,
    detail: String,
    default: bool,
    stop: bool,
}

/// The little of a parsed JSON value that reading a gate needs. Two readers provide it:
/// `JSON.parse` ([`Js`], the exported [`parse_await_gate`]) and the stdout parser's line
/// reader (`json::read`, for [`turn_signal_notices`]), which every build has
/// anyway: the notices then do not pull the JS-faithful parser and object model into the
/// per-runtime files (~14 KB of wasm, 5 KB gzip).
trait GateJson: Sized {
    fn field(&self, key: &str) -> Option<&Self>;
    fn text(&self) -> Option<&str>;
    fn items(&self) -> Option<&[Self]>;
    fn is_true(&self) -> bool;
}

impl GateJson for Js {
    fn field(&self, key: &str) -> Option<&Js> {
        Some(self.get(key))
    }
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
    fn items(&self) -> Option<&[Js]> {
        match self {
            Js::Arr(items) => Some(items),
            _ => None,
        }
    }
    fn is_true(&self) -> bool {
        self == &Js::Bool(true)
    }
}

impl GateJson for json::Value<'_> {
    fn field(&self, key: &str) -> Option<&Self> {
        self.get(key)
    }
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
    fn items(&self) -> Option<&[Self]> {
        self.as_array().map(Vec::as_slice)
    }
    fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }
}

/// A trimmed string field, or `""`.
fn str_field<'a, J: GateJson>(v: &'a J, key: &str) -> &'a str {
    v.field(key).and_then(J::text).map_or("", js::trim)
}

fn flag<J: GateJson>(v: &J, key: &str) -> bool {
    v.field(key).is_some_and(J::is_true)
}

/// The gate of one parsed block body: an object with at least one labelled option.
fn gate_of<J: GateJson>(record: &J) -> Option<Gate> {
    let raw_options = record.field("options").and_then(J::items)?;
    let mut options = Vec::new();
    for (i, o) in raw_options.iter().enumerate() {
        let label = str_field(o, "label");
        if label.is_empty() {
            continue;
        }
        let id = str_field(o, "id");
        options.push(GateOption {
            id: if id.is_empty() { format!("opt:{i}") } else { id.to_owned() },
            label: label.to_owned(),
            detail: str_field(o, "detail").to_owned(),
            default: flag(o, "default"),
            stop: flag(o, "stop"),
        });
    }
    if options.is_empty() {
        return None;
    }
    let named = str_field(record, "recommended");
    let recommended = if named.is_empty() {
        None
    } else {
        let by_id = options.iter().find(|o| o.id == named);
        by_id.or_else(|| options.iter().find(|o| o.label == named)).map(|o| o.id.clone())
    };
    let title = match str_field(record, "title") {
        "" => "Which option?",
        t => t,
    };
    Some(Gate {
        title: title.to_owned(),
        options,
        recommended,
        multi: flag(record, "multi"),
        file: str_field(record, "file").to_owned(),
    })
}

fn gate_js(gate: Gate) -> Js {
    let options = gate.options.into_iter().map(|o| {
        let mut opt = Obj::new().with("id", o.id.into()).with("label", o.label.into());
        if !o.detail.is_empty() {
            opt.set("detail", o.detail.into());
        }
        for (key, on) in [("default", o.default), ("stop", o.stop)] {
            if on {
                opt.set(key, true.into());
            }
        }
        Js::Obj(opt)
    });
    let mut js = Obj::new().with("title", gate.title.into()).with("options", Js::Arr(options.collect()));
    if let Some(r) = gate.recommended {
        js.set("recommended", r.into());
    }
    if gate.multi {
        js.set("multi", true.into());
    }
    if !gate.file.is_empty() {
        js.set("file", gate.file.into());
    }
    js.into()
}

/// The gate [`parse_await_gate`] finds, read with the line reader (see [`GateJson`]). It
/// gives the same gate: a body `JSON.parse` accepts and that reader refuses (a lone
/// surrogate escape, a number past f64) is rewritten first, as for a stdout line. The one
/// difference: a body nested deeper than the line reader's 127 levels has no notice.
fn notice_gate(text: &str) -> Option<Gate> {
    blocks(text, "await-choices").into_iter().rev().find_map(|body| match read::parse(body) {
        Some(v) => gate_of(&v),
        None => gate_of(&read::parse(&js_json_to_serde(body)?)?),
    })
}

/// `continuationPrompt(question, answer)`.
pub fn continuation_prompt(question: &str, answer: &str) -> String {
    format!(
        "You paused to ask: \"{question}\". The user chose: {answer}. Continue with that decision."
    )
}

/// `takeoverPrompt(question, answer)`.
pub fn takeover_prompt(question: &str, answer: &str) -> String {
    format!(
        "You paused to ask: \"{question}\". The user chose: {answer}. Stop here: the user is taking over and will come back with fresh instructions."
    )
}

/// `stopMessage(answer)`.
pub fn stop_message(answer: &str) -> String {
    format!("Stopped at your answer: {answer}. Awaiting your instructions.")
}

/// Short readable notices for the turn signals in an assistant text (empty when none):
/// the stdout parser's hook. Cheap when the text has no fenced block.
pub fn turn_signal_notices(text: &str) -> Vec<String> {
    if js::find_at(text, "```", 0).is_none() {
        return Vec::new();
    }
    const MAX: usize = 160;
    let clip = |s: String| {
        if s.chars().count() > MAX {
            format!("{}…", s.chars().take(MAX).collect::<String>())
        } else {
            s
        }
    };
    let mut out = Vec::new();
    if let Some(gate) = notice_gate(text) {
        let labels = text::join(gate.options.iter().map(|o| o.label.as_str()), " / ");
        out.push(clip(format!("Awaiting choice: {} ({labels})", gate.title)));
    }
    for v in parse_markdown_views(text) {
        out.push(clip(format!("View: {}", v.title)));
    }
    for e in parse_errors(text) {
        out.push(clip(format!("Error: {}", e.headline)));
    }
    if let Some(name) = parse_session_name(text) {
        out.push(format!("Session name: {name}"));
    }
    if let Some(pr) = parse_pull_request(text) {
        let what = pr.title.or(pr.description).unwrap_or_default();
        out.push(clip(format!("Pull request: {}", what.lines().next().unwrap_or_default())));
    }
    if parse_ready_for_merge(text) {
        out.push("Ready for merge".into());
    }
    out
}

pub(crate) fn view_js(v: &View) -> Obj {
    Obj::new()
        .with("id", v.id.as_str().into())
        .with("title", v.title.as_str().into())
        .with("markdown", v.markdown.as_str().into())
}

pub(crate) fn error_js(e: &SignalError) -> Obj {
    let mut o = Obj::new().with("headline", e.headline.as_str().into());
    if let Some(d) = &e.detail {
        o.set("detail", d.as_str().into());
    }
    o
}

pub(crate) fn pr_js(pr: &PullRequest) -> Obj {
    let mut o = Obj::new();
    for (k, v) in [("title", &pr.title), ("description", &pr.description)] {
        if let Some(v) = v {
            o.set(k, v.as_str().into());
        }
    }
    o
}

/// The text argument of a parser whose first step is `text.matchAll(…)`.
pub(crate) fn text_arg(v: &Js) -> Result<&str, String> {
    v.as_str().ok_or_else(|| js::match_all_error(v))
}

/// The names [`dispatch`] answers.
const NAMES: &[&str] = &[
    "parseAwaitGate",
    "parseMarkdownViews",
    "parseSessionName",
    "parsePullRequest",
    "parseErrors",
    "parseReadyForMerge",
    "continuationPrompt",
    "takeoverPrompt",
    "stopMessage",
    "turnSignalEmitterStep",
];

/// Runs the export `name` (one of [`NAMES`]) on JS arguments.
fn call(name: &str, a: &[Js]) -> Result<Js, String> {
    let text = || text_arg(arg(a, 0));
    let string = |i: usize| arg(a, i).to_js_string();
    let mut list = Vec::new();
    Ok(match name {
        "parseAwaitGate" => parse_await_gate(text()?).unwrap_or_default(),
        "parseMarkdownViews" => {
            for v in parse_markdown_views(text()?) {
                list.push(Js::Obj(view_js(&v)));
            }
            Js::Arr(list)
        }
        "parseSessionName" => parse_session_name(text()?).map_or(Js::Undefined, Js::Str),
        "parsePullRequest" => {
            parse_pull_request(text()?).map_or(Js::Undefined, |p| Js::Obj(pr_js(&p)))
        }
        "parseErrors" => {
            for e in parse_errors(text()?) {
                list.push(Js::Obj(error_js(&e)));
            }
            Js::Arr(list)
        }
        "parseReadyForMerge" => Js::Bool(parse_ready_for_merge(&string(0))),
        "continuationPrompt" => Js::Str(continuation_prompt(&string(0), &string(1))),
        "takeoverPrompt" => Js::Str(takeover_prompt(&string(0), &string(1))),
        "stopMessage" => Js::Str(stop_message(&string(0))),
        "turnSignalEmitterStep" => emitter::step_js(arg(a, 0), arg(a, 1))?,
        _ => return Err(format!("agentlines: unknown function {name}")),
    })
}

/// The `api::Dispatch` of this module.
#[cfg(feature = "std")]
pub fn dispatch(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    js::dispatch_names(NAMES, call, name, args)
}

#[cfg(test)]
mod tests {
    use super::{gate_js, notice_gate, parse_await_gate, slugify};

    /// The notices' gate (line reader) is the exported one (`JSON.parse`) on every recorded
    /// `parseAwaitGate` case and on what only `JSON.parse` reads as it is.
    #[test]
    fn notice_gate_is_parse_await_gate() {
        let cases = include_str!("../../tests/fixtures/conformance/turn-gate/cases.jsonl");
        let mut texts: Vec<String> = Vec::new();
        for line in cases.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            if case["fn"] == "parseAwaitGate" {
                if let Some(t) = case["args"][0].as_str() {
                    texts.push(t.to_owned());
                }
            }
        }
        assert!(texts.len() > 40);
        let body = |b: &str| format!("```await-choices\n{b}\n```");
        for b in [
            r#"{"title":"a\ud800b","options":[{"label":"x","n":1e400},{"label":"\udc00y"}]}"#,
            r#"{"options":[{"label":"x"}],"options":[{"label":"y","id":"i"}],"recommended":"y"}"#,
            r#"{"options":[{"label":" x ","stop":true,"default":1,"detail":"\u2028d"}],"multi":true,"file":"f"}"#,
            r#"[{"options":[{"label":"x"}]}]"#,
            r#"{"options":[{"label":"x"}]} trailing"#,
            r#"{"options":[{"label":"x"}],"n":01}"#,
            r#"{"options":[{"label":"x"}],"n":-}"#,
            r#"{"options":[{"label":"x"}],"n":1.}"#,
            r#"{"options":[{"label":"x","n":-1e400}],"s":"\ud83d"}"#,
            r#"{"options":["x",{"label":""},{"label":"z","id":"  "}],"recommended":"opt:2"}"#,
        ] {
            texts.push(body(b));
            texts.push(format!("{}\n{}", body(b), body(r#"{"options":[]}"#)));
        }
        for t in &texts {
            assert_eq!(notice_gate(t).map(gate_js), parse_await_gate(t), "{t}");
        }
    }

    #[test]
    fn slugs_lowercase_like_js() {
        assert_eq!(slugify("İa \u{212a}elvin Über", "view"), "i-a-kelvin-ber");
        assert_eq!(slugify("--A--b--", ""), "a-b");
        assert_eq!(slugify("日本", "view"), "view");
    }
}
