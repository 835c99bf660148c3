//! Fidelity replay (docs/fidelity.md): every fixture (and, with `AGENTLINES_CORPUS=<dir>`, every
//! `.jsonl`/`.ndjson` file under that directory, e.g. /work/shared/corpus) is replayed through
//! both shipped paths, and three things a reader of the transcript must be able to count on
//! are checked with oracles written here, independently of the parser's own code:
//!
//! 1. **Nothing lost from unknown objects**: where a line becomes an unknown-event notice
//!    (`"event: …"`, `"<runtime> event: …"`, `"[… block]"`), the human text inside the line
//!    (strings under content-like keys, at any depth, within the first 4 KB of such text) is
//!    in the output.
//! 2. **No tick-per-line rows**: no run of 3+ consecutive `system` rows that differ only in
//!    their numbers (a progress ticker), and no progress notice between two tool calls.
//! 3. **Totals add up**: the host sums `inputTokens + outputTokens` (and we check `costUsd`)
//!    over all `result` entries; on the stateful path that sum equals the run's true total,
//!    computed here from the raw lines per runtime (Claude stream-json: per-turn usage and
//!    the last `total_cost_usd` of each session; OpenCode: every `step_finish`; Codex exec:
//!    each thread's last `turn.completed`, a running total). The stateless path must agree on
//!    tokens except over a thread's later turns, on cost only where a session has one result
//!    (docs/stateless.md).
//!
//! `cargo test --test fidelity -- --nocapture` prints the measured numbers per file.

use agentlines::parser::merge_deltas;
use agentlines::{parse_line, Entry, StdoutParser};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

const TEXT_KEYS: &[&str] = &[
    "text", "content", "message", "prompt", "query", "output", "result", "summary", "description",
    "title", "error", "reason", "thought", "thoughts", "body", "response", "snippet", "stdout",
    "stderr", "answer", "question", "subject", "detail", "details", "command",
];
const SKIP_KEYS: &[&str] = &["signature", "data", "encrypted_content", "id", "uuid"];
const BUDGET: usize = 4096;

fn inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    collect(&root, &mut out);
    if let Some(dir) = std::env::var_os("AGENTLINES_CORPUS") {
        collect(Path::new(&dir), &mut out);
    }
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            collect(&p, out);
        } else if (name.ends_with(".jsonl") || name.ends_with(".ndjson")) && !name.contains(".expected.") {
            out.push(p);
        }
    }
}

/// Every input whose text contains one of `keys`, with its text.
fn inputs_containing(keys: &[&str]) -> Vec<(PathBuf, String)> {
    inputs()
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .filter(|(_, text)| keys.iter().any(|k| text.contains(k)))
        .collect()
}

/// Human texts of a JSON value (the oracle for check 1), in order, within the budget.
fn texts(v: &Value, texty: bool, used: &mut usize, out: &mut Vec<String>) {
    match v {
        Value::String(s) if texty => {
            let s = s.trim();
            if s.chars().count() >= 2 && *used < BUDGET {
                *used += s.len();
                out.push(s.to_owned());
            }
        }
        Value::Array(a) => a.iter().for_each(|x| texts(x, texty, used, out)),
        Value::Object(m) => {
            for (k, x) in m {
                if !SKIP_KEYS.contains(&k.as_str()) {
                    texts(x, TEXT_KEYS.contains(&k.as_str()), used, out);
                }
            }
        }
        _ => {}
    }
}

fn is_unknown_notice(e: &Entry) -> bool {
    let Entry::System { text, .. } = e else { return false };
    let first = text.split(':').next().unwrap_or("");
    let runtime_event = first.strip_suffix(" event").is_some_and(|r| !r.is_empty() && !r.contains(' '));
    first == "event"
        || runtime_event
        || (text.starts_with('[') && text.lines().next().is_some_and(|l| l.ends_with(" block]")))
}

fn all_text(es: &[Entry]) -> String {
    es.iter().map(|e| serde_json::to_string(e).unwrap()).collect::<Vec<_>>().join("\n")
}

/// `s` as it reads inside the output's JSON text (escaped), first 30 chars.
fn probe(s: &str) -> String {
    let head: String = s.chars().take(30).collect();
    let j = serde_json::to_string(&head).unwrap();
    j[1..j.len() - 1].to_owned()
}

/// `s` with every run of digits (and `,`/`.` inside numbers) as one `#`.
fn digits_out(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let numeric = c.is_ascii_digit() || (matches!(c, ',' | '.') && out.ends_with('#'));
        if !numeric {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
struct Totals {
    tokens: f64,
    cost: f64,
}

fn host_sum(es: &[Entry]) -> Totals {
    let mut t = Totals::default();
    for e in es {
        if let Entry::Result { input_tokens, output_tokens, cost_usd, subtype, .. } = e {
            if subtype != "paperclip_runner_session_usage" {
                t.tokens += input_tokens + output_tokens;
                t.cost += cost_usd;
            }
        }
    }
    t
}

/// The run's true totals from the raw lines, for the runtimes whose reports we know; `None`
/// when no line reports usage. Also whether some session had several results (cost is
/// then a running total the stateless path cannot split).
/// The run's true totals, whether a Claude session has several results (the stateless cost
/// then counts earlier ones again), and whether a Codex thread has several turns (the
/// stateless tokens then do: `turn.completed` states the thread's running total).
fn true_totals(lines: &[Value]) -> (Option<Totals>, bool, bool) {
    let mut t = Totals::default();
    let mut any = false;
    let mut last_cost: Vec<(String, f64)> = Vec::new();
    let mut last_turn_total = 0.0;
    let mut thread_turns = false;
    let mut multi = false;
    let num = |v: &Value, k: &[&str]| -> f64 {
        let mut cur = v;
        for key in k {
            match cur.get(key) {
                Some(x) => cur = x,
                None => return 0.0,
            }
        }
        cur.as_f64().unwrap_or(0.0)
    };
    for v in lines {
        let ty = v.get("type").and_then(Value::as_str).unwrap_or("");
        if ty == "result" && v.get("total_cost_usd").is_some() {
            any = true;
            t.tokens += num(v, &["usage", "input_tokens"]) + num(v, &["usage", "output_tokens"]);
            let sid = v.get("session_id").and_then(Value::as_str).unwrap_or("").to_owned();
            let c = num(v, &["total_cost_usd"]);
            match last_cost.iter_mut().find(|(s, _)| *s == sid) {
                Some(slot) => {
                    multi = true;
                    slot.1 = c;
                }
                None => last_cost.push((sid, c)),
            }
        } else if ty == "step_finish" && v.get("part").is_some() {
            any = true;
            let p = &v["part"];
            t.tokens += num(p, &["tokens", "input"]) + num(p, &["tokens", "output"]) + num(p, &["tokens", "reasoning"]);
            t.cost += num(p, &["cost"]);
        } else if ty == "turn.completed" {
            // The thread's running total (it carries on across `codex exec resume`): what
            // this turn adds to the last one, or all of it when the total went down.
            any = true;
            let total = num(v, &["usage", "input_tokens"]) + num(v, &["usage", "output_tokens"]);
            if total >= last_turn_total && last_turn_total > 0.0 {
                // A later turn of the thread: read alone, its line restates the earlier ones.
                thread_turns = true;
                t.tokens += total - last_turn_total;
            } else {
                t.tokens += total;
            }
            last_turn_total = total;
        }
    }
    t.cost += last_cost.iter().map(|(_, c)| c).sum::<f64>();
    (any.then_some(t), multi, thread_turns)
}

struct Report {
    file: String,
    lines: usize,
    rows: usize,
    /// Rows that are not notices (`system`): what the agent said, did and got back.
    meaningful: usize,
    unknown: usize,
    lost: Vec<String>,
    ticks: Vec<String>,
    breaks: usize,
    totals: Option<(Totals, Totals, Totals)>,
}

fn check(path: &Path) -> Report {
    let text = fs::read_to_string(path).unwrap();
    let ts = "2026-01-01T00:00:00.000Z";
    let mut p = StdoutParser::new();
    let (mut stateless, mut stateful) = (Vec::new(), Vec::new());
    let mut json = Vec::new();
    let mut report = Report {
        file: path.display().to_string(),
        lines: 0,
        rows: 0,
        meaningful: 0,
        unknown: 0,
        lost: Vec::new(),
        ticks: Vec::new(),
        breaks: 0,
        totals: None,
    };
    for line in text.lines() {
        report.lines += 1;
        let a = parse_line(line, ts);
        let b = p.parse_line(line, ts);
        let value: Option<Value> = serde_json::from_str(line.trim()).ok().filter(Value::is_object);
        if let Some(v) = &value {
            for out in [&a, &b] {
                if out.iter().any(is_unknown_notice) {
                    report.unknown += 1;
                    let shown = all_text(out);
                    let mut want = Vec::new();
                    texts(v, false, &mut 0, &mut want);
                    for w in want {
                        if !shown.contains(&probe(&w)) {
                            let head: String = line.chars().take(80).collect();
                            report.lost.push(format!("{head}: {:?}", probe(&w)));
                        }
                    }
                }
            }
            json.push(v.clone());
        }
        stateless.extend(a);
        stateful.extend(b);
    }
    let rows = merge_deltas(stateful.clone());
    report.rows = rows.len();
    report.meaningful = rows.iter().filter(|e| !matches!(e, Entry::System { .. })).count();
    // Ticks: 3+ consecutive system rows equal but for their digits.
    let mut run = 1;
    for w in rows.windows(2) {
        match (&w[0], &w[1]) {
            (Entry::System { text: x, .. }, Entry::System { text: y, .. })
                if x != y && digits_out(x) == digits_out(y) =>
            {
                run += 1;
                if run == 3 {
                    report.ticks.push(y.clone());
                }
            }
            _ => run = 1,
        }
    }
    // Progress between two tool calls: a system row right after a tool entry and before a
    // tool call that reads as progress ("running", "progress", hook of a tool).
    for w in rows.windows(3) {
        let tool = |e: &Entry| matches!(e, Entry::ToolCall { .. } | Entry::ToolResult { .. });
        if let (true, Entry::System { text, .. }, Entry::ToolCall { .. }) = (tool(&w[0]), &w[1], &w[2]) {
            report.breaks += 1;
            let t = text.to_lowercase();
            if t.contains("running") || t.contains("progress") || t.starts_with("hook pretooluse") || t.starts_with("hook posttooluse") {
                report.ticks.push(text.clone());
            }
        }
    }
    if let (Some(truth), multi, _) = true_totals(&json) {
        let (s, st) = (host_sum(&stateless), host_sum(&stateful));
        report.totals = Some((truth, st, s));
        let _ = multi;
    }
    report
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn replay_keeps_texts_shows_no_ticks_and_totals_add_up() {
    let files = inputs();
    assert!(files.len() > 40, "only {} inputs found", files.len());
    let mut problems = Vec::new();
    let (mut lines, mut rows, mut unknown, mut breaks) = (0, 0, 0, 0);
    for f in &files {
        let r = check(f);
        lines += r.lines;
        rows += r.rows;
        unknown += r.unknown;
        breaks += r.breaks;
        let mut line = format!(
            "{}: {} lines, {} rows ({} not notices), {} unknown-object lines, {} notices between tool calls",
            r.file, r.lines, r.rows, r.meaningful, r.unknown, r.breaks
        );
        for l in &r.lost {
            problems.push(format!("{}: unknown object's text missing from the output: {l}", r.file));
        }
        for t in &r.ticks {
            problems.push(format!("{}: tick/progress rows: {t:?}", r.file));
        }
        if let Some((truth, st, s)) = r.totals {
            line.push_str(&format!(
                "; totals: true {} tokens ${:.6}, stateful {} ${:.6}, stateless {} ${:.6}",
                truth.tokens, truth.cost, st.tokens, st.cost, s.tokens, s.cost
            ));
            let text = fs::read_to_string(f).unwrap();
            let json: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
            let (_, multi, thread_turns) = true_totals(&json);
            if !close(truth.tokens, st.tokens) || !close(truth.cost, st.cost) {
                problems.push(format!("{}: stateful totals {st:?} != true {truth:?}", r.file));
            }
            if (!thread_turns && !close(truth.tokens, s.tokens)) || (!multi && !close(truth.cost, s.cost)) {
                problems.push(format!("{}: stateless totals {s:?} != true {truth:?}", r.file));
            }
        }
        println!("{line}");
    }
    println!("ALL: {} files, {lines} lines, {rows} rows, {unknown} unknown-object lines, {breaks} notices between tool calls", files.len());
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_oracles_can_fail() {
    // An unknown object whose text is dropped is caught; a ticker is caught; totals that
    // count a running cost twice are caught.
    let v: Value = serde_json::json!({"kind_of": "x", "messages": [{"type": "user", "content": "hello there"}]});
    let mut want = Vec::new();
    texts(&v, false, &mut 0, &mut want);
    assert_eq!(want, ["hello there"]);
    let bare = vec![Entry::system("t", "event: object with kind_of, messages")];
    assert!(is_unknown_notice(&bare[0]));
    assert!(!all_text(&bare).contains(&probe("hello there")));
    assert_eq!(digits_out("thinking (~50 tokens)"), digits_out("thinking (~146 tokens)"));
    let lines: Vec<Value> = [r#"{"type":"result","session_id":"a","total_cost_usd":0.5,"usage":{"input_tokens":1,"output_tokens":1}}"#,
        r#"{"type":"result","session_id":"a","total_cost_usd":1.5,"usage":{"input_tokens":1,"output_tokens":1}}"#]
        .iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (t, multi, _) = true_totals(&lines);
    assert_eq!(t, Some(Totals { tokens: 4.0, cost: 1.5 }));
    assert!(multi);
}

/// The search object of a Codex line that records a web search (exec `web_search` item,
/// rollout `web_search_call`, legacy/rollout `web_search_end`), if any.
fn codex_search(v: &Value) -> Option<&Value> {
    let candidates = [v.get("item"), v.get("payload"), v.get("msg"), Some(v)];
    candidates.into_iter().flatten().find(|o| {
        matches!(o.get("type").and_then(Value::as_str), Some("web_search" | "web_search_call" | "web_search_end"))
    })
}

/// What a search object says was searched and what came back: queries, urls, patterns,
/// result titles, snippets and errors (the oracle for class 2).
fn search_texts(o: &Value, out: &mut Vec<String>) {
    match o {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("query" | "url" | "pattern" | "title" | "snippet" | "text" | "message", Value::String(s)) => {
                        if !s.trim().is_empty() {
                            out.push(s.trim().lines().next().unwrap_or("").to_owned());
                        }
                    }
                    ("queries", Value::Array(a)) => {
                        out.extend(a.iter().filter_map(Value::as_str).map(str::to_owned))
                    }
                    _ => search_texts(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| search_texts(x, out)),
        _ => {}
    }
}

#[test]
fn codex_web_searches_show_what_was_searched_and_what_came_back() {
    // Class 2: every query, url, pattern and result (title, snippet, error) of a finished
    // search is in the output on both paths, and no input reads "searched: " or "other".
    let files = inputs_containing(&["\"web_search"]);
    let mut checked = 0;
    let mut problems = Vec::new();
    for (f, text) in &files {
        let mut p = StdoutParser::new();
        for line in text.lines() {
            let a = parse_line(line, "t");
            let b = p.parse_line(line, "t");
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            let Some(o) = codex_search(&v) else { continue };
            let started = v.get("type").and_then(Value::as_str) == Some("item.started")
                || o.get("status").and_then(Value::as_str) == Some("in_progress");
            if started || o.get("type").and_then(Value::as_str) == Some("web_search_begin") {
                continue;
            }
            let mut want = Vec::new();
            search_texts(o, &mut want);
            for (path, out) in [("stateless", &a), ("stateful", &b)] {
                let shown = all_text(out);
                if shown.contains("\"searched: \"") || shown.contains("\"query\":\"other\"") {
                    problems.push(format!("{}: {path}: empty search shown: {shown}", f.display()));
                }
                if !out.iter().any(|e| matches!(e, Entry::ToolResult { .. })) {
                    // The stateless path shows a rollout's event_msg copy only when it is
                    // the only record (docs/stateless.md); the stateful one must show it.
                    if path == "stateful" {
                        problems.push(format!("{}: no result for {line}", f.display()));
                    }
                    continue;
                }
                checked += 1;
                for w in &want {
                    if !shown.contains(&probe(w)) {
                        problems.push(format!("{}: {path}: {w:?} missing from {shown}", f.display()));
                    }
                }
            }
        }
    }
    println!("{checked} finished searches checked in {} files", files.len());
    assert!(checked >= 8, "only {checked} searches checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The text of a Claude user turn (string content or its text blocks), one tag pair
/// around it (`<local-command-caveat>…</…>`) taken off.
fn claude_user_text(v: &Value) -> String {
    let text = match v.pointer("/message/content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    let t = text.trim();
    if let (Some(open_end), true) = (t.find('>'), t.starts_with('<')) {
        let tag = &t[1..open_end];
        if let Some(inner) = t[open_end + 1..].strip_suffix(&format!("</{tag}>")) {
            return inner.trim().to_owned();
        }
    }
    t.to_owned()
}

#[test]
fn claude_meta_turns_are_shown_whole_and_named() {
    // Class 5: a user turn Claude Code wrote itself (`isMeta`: a slash command's expanded
    // prompt, 10,095 characters in a real session) is in the output whole, on both paths,
    // named as what it is rather than "(meta) …" cut to 200 characters.
    let mut checked = 0;
    let mut longest = 0;
    let mut problems = Vec::new();
    for (f, text) in inputs_containing(&["\"isMeta\":true"]) {
        let mut p = StdoutParser::new();
        for line in text.lines() {
            let a = parse_line(line, "t");
            let b = p.parse_line(line, "t");
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            if v.get("isMeta") != Some(&Value::Bool(true)) || v.get("type").and_then(Value::as_str) != Some("user") {
                continue;
            }
            let want = claude_user_text(&v);
            if want.is_empty() {
                continue;
            }
            checked += 1;
            longest = longest.max(want.chars().count());
            let whole = serde_json::to_string(&want).unwrap();
            let whole = &whole[1..whole.len() - 1];
            for (path, out) in [("stateless", &a), ("stateful", &b)] {
                let named = out.iter().any(|e| {
                    matches!(e, Entry::System { text, .. } if text.starts_with("Claude Code added to the prompt"))
                });
                if !named || !all_text(out).contains(whole) {
                    problems.push(format!("{}: {path}: meta turn not shown whole and named: {:?}", f.display(), out));
                }
            }
        }
    }
    println!("{checked} meta turns checked, the longest {longest} characters");
    assert!(checked >= 4 && longest > 5000, "{checked} meta turns, longest {longest}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn harness_messages_and_model_snapshots_lose_nothing() {
    // Class 7: an OpenClaw `model-snapshot` names its provider and model; a `system/status`
    // with `compact_result` says how the compaction ended; an assistant message Claude Code
    // wrote itself (`<synthetic>`) is never shown as the model's words, and a failed one
    // (API error, a local command that failed) is an error. On both paths.
    let mut checked = 0;
    let mut problems = Vec::new();
    for (f, text) in inputs_containing(&["model-snapshot", "compact_result", "<synthetic>"]) {
        let mut p = StdoutParser::new();
        for line in text.lines() {
            let a = parse_line(line, "t");
            let b = p.parse_line(line, "t");
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            let s = |k: &str| v.pointer(k).and_then(Value::as_str);
            for (path, out) in [("stateless", &a), ("stateful", &b)] {
                let shown = all_text(out);
                let mut fail = |why: &str| problems.push(format!("{}: {path}: {why}: {shown}", f.display()));
                if s("/customType") == Some("model-snapshot") {
                    checked += 1;
                    for k in ["/data/provider", "/data/modelId"] {
                        if s(k).is_some_and(|x| !shown.contains(x)) {
                            fail("snapshot's model hidden");
                        }
                    }
                }
                if let Some(r) = s("/compact_result") {
                    checked += 1;
                    if shown.contains("status: idle") || !shown.contains(if r == "failed" { "fail" } else { "compaction" }) {
                        fail("compaction outcome hidden");
                    }
                }
                if s("/message/model") == Some("<synthetic>") {
                    checked += 1;
                    if out.iter().any(|e| matches!(e, Entry::Assistant { .. })) {
                        fail("harness message shown as the model's words");
                    }
                    let flagged = [v.get("isApiErrorMessage"), v.get("is_api_error_message")]
                        .into_iter()
                        .any(|x| x == Some(&Value::Bool(true)));
                    let words = claude_user_text(&v).to_lowercase();
                    let failure = flagged || words.starts_with("not enough") || words.starts_with("error");
                    if failure && !out.iter().any(|e| matches!(e, Entry::Stderr { .. })) {
                        fail("failure not shown as an error");
                    }
                }
            }
        }
    }
    println!("{checked} snapshot/status/harness lines checked");
    assert!(checked >= 12, "only {checked} lines checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Whether the tool's name is on a result line or derivable from it: Claude's structured
/// tool output next to a single `tool_result` (`toolUseResult`/`tool_use_result`, an
/// object), or a Gemini id made as `<name>-<13-digit ms>-<hex>` (the oracle for class 9,
/// written independently of the parser: it only says a name is there to be had).
fn name_derivable(v: &Value) -> bool {
    let single_claude_result = v
        .pointer("/message/content")
        .and_then(Value::as_array)
        .is_some_and(|bs| bs.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")).count() == 1);
    let structured = [v.get("toolUseResult"), v.get("tool_use_result")]
        .into_iter()
        .flatten()
        .any(|r| {
            // The subagent tool's output names no tool: it was `Task`, then `Agent`.
            let subagent = r.get("totalToolUseCount").is_some() || (r.get("prompt").is_some() && r.get("status").is_some());
            r.as_object().is_some_and(|m| !m.is_empty()) && !subagent
        });
    let gemini = v.get("tool_id").and_then(Value::as_str).is_some_and(|id| {
        let parts: Vec<&str> = id.rsplitn(3, '-').collect();
        parts.len() == 3 && parts[1].len() == 13 && parts[1].bytes().all(|b| b.is_ascii_digit())
    });
    (single_claude_result && structured) || gemini
}

#[test]
fn results_name_their_tool_on_both_paths_where_the_line_says() {
    // Class 9: where the stateful parser names a result (from its paired call), the stateless
    // path gives the same name whenever the line carries what names it; the share of results
    // that still differ only by `toolName` is printed (Claude results with a string output,
    // Codex rollout outputs: their lines hold only the call id).
    let (mut named, mut missing, mut unnamed_rest) = (0, 0, 0);
    let mut problems = Vec::new();
    for f in inputs() {
        let text = fs::read_to_string(&f).unwrap();
        let mut p = StdoutParser::new();
        for line in text.lines() {
            let a = parse_line(line, "t");
            let b = p.parse_line(line, "t");
            let derivable = serde_json::from_str::<Value>(line).is_ok_and(|v| name_derivable(&v));
            for e in &b {
                let Entry::ToolResult { tool_use_id, tool_name: Some(n), .. } = e else { continue };
                let stateless = a.iter().find_map(|x| match x {
                    Entry::ToolResult { tool_use_id: i, tool_name, .. } if i == tool_use_id => Some(tool_name.clone()),
                    _ => None,
                });
                match stateless {
                    Some(Some(m)) if &m == n => named += 1,
                    Some(Some(m)) => problems.push(format!("{}: stateless names {m}, stateful {n}", f.display())),
                    _ if derivable => {
                        missing += 1;
                        problems.push(format!("{}: stateless result of {n} unnamed: {}", f.display(), &line[..line.len().min(200)]));
                    }
                    _ => unnamed_rest += 1,
                }
            }
        }
    }
    println!("results named on both paths: {named}; not derivable from the line: {unnamed_rest}; derivable but unnamed: {missing}");
    assert!(named >= 200, "only {named} results named on both paths");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn gemini_chat_files_on_one_line_show_every_message() {
    // A Gemini CLI chat-recording document (or one of its messages) on one line: every
    // user text, reply, thought, tool call and tool output is in the output on both paths,
    // and the result's tokens are the sum over the messages (read as an unknown event, such a
    // line would be an "event: object with sessionId, …" notice).
    let mut checked = 0;
    let mut problems = Vec::new();
    for (f, text) in inputs_containing(&["\"sessionId\"", "\"type\":\"gemini\""]) {
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            let messages: Vec<Value> = match v.get("messages").and_then(Value::as_array) {
                Some(ms) if v.get("sessionId").is_some() => ms.clone(),
                _ if v.get("type").and_then(Value::as_str) == Some("gemini") && v.get("toolCalls").is_some() => vec![v.clone()],
                _ => continue,
            };
            checked += 1;
            let mut want = Vec::new();
            let (mut input, mut output) = (0.0, 0.0);
            for m in &messages {
                if let Some(s) = m.get("content").and_then(Value::as_str) {
                    want.push(s.trim().to_owned());
                }
                for t in m.get("thoughts").and_then(Value::as_array).into_iter().flatten() {
                    want.extend(["subject", "description"].iter().filter_map(|k| t.get(*k).and_then(Value::as_str)).map(str::to_owned));
                }
                for c in m.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
                    want.push(c["name"].as_str().unwrap_or("").to_owned());
                    for r in c.get("result").and_then(Value::as_array).into_iter().flatten() {
                        if let Some(o) = r.pointer("/functionResponse/response/output").and_then(Value::as_str) {
                            want.push(o.to_owned());
                        }
                    }
                }
                if let Some(t) = m.get("tokens") {
                    input += t["input"].as_f64().unwrap_or(0.0);
                    output += t["output"].as_f64().unwrap_or(0.0) + t["thoughts"].as_f64().unwrap_or(0.0);
                }
            }
            let mut p = StdoutParser::new();
            for (path, out) in [("stateless", parse_line(line, "t")), ("stateful", p.parse_line(line, "t"))] {
                let shown = all_text(&out);
                for w in want.iter().filter(|w| !w.trim().is_empty()) {
                    if !shown.contains(&probe(w.trim())) {
                        problems.push(format!("{}: {path}: {:?} missing", f.display(), probe(w)));
                    }
                }
                let sum = host_sum(&out);
                if v.get("messages").is_some() && !close(sum.tokens, input + output) {
                    problems.push(format!("{}: {path}: result tokens {} != {}", f.display(), sum.tokens, input + output));
                }
            }
        }
    }
    assert!(checked >= 2, "only {checked} chat documents");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
