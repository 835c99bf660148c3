//! Shared by the robustness tests (`tests/props.rs`, `tests/hostile.rs`): the corpus of real
//! lines, input mutators, and the invariant checks every parser output must pass.
//!
//! Corpus: every input file under `tests/fixtures/**` (the `*.expected.jsonl` goldens are
//! skipped), plus `/work/shared/corpus/**` or `$AGENTLINES_CORPUS` when that directory
//! exists. The tests pass without the shared corpus; a small built-in seed list keeps them
//! meaningful even with no fixtures at all.
#![allow(dead_code)]

use agentlines::{entries_to_json, Entry};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Hand-written seeds in the shapes of the runtimes we read (doc-derived, tiny), so the
/// mutators have JSON to work on even in a tree without fixtures.
pub const SEEDS: &[&str] = &[
    r#"{"type":"system","subtype":"init","session_id":"s1","model":"m","tools":[]}"#,
    r#"{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]},"parent_tool_use_id":null,"session_id":"s1"}"#,
    r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"a\nb"}],"is_error":false}]},"session_id":"s1"}"#,
    r#"{"type":"result","subtype":"success","result":"done","usage":{"input_tokens":1,"output_tokens":2},"total_cost_usd":0.1,"is_error":false}"#,
    r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"He"}},"session_id":"s1"}"#,
    r#"{"type":"thread.started","thread_id":"t1"}"#,
    r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"x","exit_code":0,"status":"completed"}}"#,
    r#"{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}"#,
    r#"{"timestamp":"2025-01-01T00:00:00Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}"#,
    r#"{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"ls"}}}}"#,
    r#"{"type":"text","timestamp":1,"sessionID":"s","part":{"type":"text","text":"hi"}}"#,
    r#"{"type":"tool_use","timestamp":1,"sessionID":"s","part":{"callID":"c","tool":"bash","state":{"status":"completed","input":{},"output":"o"}}}"#,
    r#"{"type":"message","role":"assistant","content":"hi","delta":true}"#,
    "\u{1b}[31merror:\u{1b}[0m something broke",
    "plain text line",
    r#"{"type":"assistant","message":"API key invalid or expired","session_id":"s","model_call_id":"m","timestamp_ms":1770823845357}"#,
    r#"{"type":"message","timestamp":"2025-01-01T00:00:00.000Z","role":"assistant","content":"","delta":true}"#,
    r#"{"type":"text","timestamp":1,"sessionID":"s","part":{"type":"text","text":"  "}}"#,
];

/// One line of the corpus and where it came from.
pub struct Line {
    pub text: String,
    pub origin: String,
}

fn input_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            input_files(&p, out);
            continue;
        }
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let wanted = [".jsonl", ".ndjson", ".json", ".txt", ".log"].iter().any(|x| name.ends_with(x));
        if wanted && !name.contains(".expected.") {
            out.push(p);
        }
    }
}

/// The shared corpus directory, if this machine has it.
pub fn shared_corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("AGENTLINES_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/corpus"));
    dir.is_dir().then_some(dir)
}

/// Distinct corpus lines (non-blank), fixtures first, then the shared corpus, then seeds.
/// Lines longer than `max_line` bytes are skipped (the hostile tests cover huge lines).
pub fn corpus(max_line: usize) -> Vec<Line> {
    let mut files = Vec::new();
    input_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut files);
    if let Some(dir) = shared_corpus_dir() {
        input_files(&dir, &mut files);
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut push = |text: &str, origin: String, out: &mut Vec<Line>| {
        if text.trim().is_empty() || text.len() > max_line || !seen.insert(text.to_owned()) {
            return;
        }
        out.push(Line { text: text.to_owned(), origin });
    };
    for f in files {
        let Ok(bytes) = fs::read(&f) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        for (i, l) in text.split('\n').enumerate() {
            push(l, format!("{}:{}", f.display(), i + 1), &mut out);
        }
    }
    for (i, s) in SEEDS.iter().enumerate() {
        push(s, format!("seed {i}"), &mut out);
    }
    out
}

/// Values seen under each object key across the corpus (distinct, capped per key): the pool
/// the "swap values between lines" mutation draws from.
pub fn value_pool(lines: &[Line]) -> BTreeMap<String, Vec<Value>> {
    let mut pool: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    fn walk(v: &Value, pool: &mut BTreeMap<String, BTreeSet<String>>) {
        match v {
            Value::Object(m) => {
                for (k, val) in m {
                    let small = match val {
                        Value::Object(_) | Value::Array(_) => false,
                        Value::String(s) => s.len() <= 64,
                        _ => true,
                    };
                    if small {
                        let set = pool.entry(k.clone()).or_default();
                        if set.len() < 64 {
                            set.insert(val.to_string());
                        }
                    }
                    walk(val, pool);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, pool)),
            _ => {}
        }
    }
    for l in lines {
        if let Ok(v) = serde_json::from_str::<Value>(&l.text) {
            walk(&v, &mut pool);
        }
    }
    pool.into_iter()
        .map(|(k, set)| (k, set.iter().filter_map(|s| serde_json::from_str(s).ok()).collect()))
        .collect()
}

/// Junk pieces the byte-level mutator inserts.
pub const JUNK: &[&str] = &[
    "{", "}", "[", "]", "\"", "\\", ",", ":", "null", "\\u0000", "\\ud800", "\\udc00", "1e400",
    "-0", "\u{0}", "\r", "\u{feff}", "\u{1b}[31m", "\"type\":\"x\"", "\"__proto__\":{}", "😀",
    "\\\"", "\t", "99999999999999999999999",
];

/// Replacement values the JSON-level mutator puts in place of a node.
pub fn odd_values() -> Vec<Value> {
    let deep = (0..100).fold(Value::Null, |acc, _| Value::Array(vec![acc]));
    vec![
        Value::Null,
        Value::Bool(true),
        serde_json::json!(0),
        serde_json::json!(-1),
        serde_json::json!(1.5e308),
        serde_json::json!(u64::MAX),
        serde_json::json!(""),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!([{}]),
        serde_json::json!({"__proto__": {"polluted": 1}}),
        serde_json::json!("\u{0}\u{1b}[0m\u{fffd}"),
        Value::String("y".repeat(10_000)),
        deep,
    ]
}

/// Counts the nodes of a JSON value (objects, arrays and scalars).
pub fn node_count(v: &Value) -> usize {
    1 + match v {
        Value::Object(m) => m.values().map(node_count).sum(),
        Value::Array(a) => a.iter().map(node_count).sum(),
        _ => 0,
    }
}

/// The `n`-th node in pre-order, mutably, with the key it hangs under (if in an object).
pub fn nth_node<'a>(v: &'a mut Value, n: &mut usize, key: Option<&str>) -> Option<(&'a mut Value, Option<String>)> {
    if *n == 0 {
        return Some((v, key.map(str::to_owned)));
    }
    *n -= 1;
    match v {
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                if let Some(found) = nth_node(child, n, Some(k)) {
                    return Some(found);
                }
            }
            None
        }
        Value::Array(a) => {
            for child in a.iter_mut() {
                if let Some(found) = nth_node(child, n, None) {
                    return Some(found);
                }
            }
            None
        }
        _ => None,
    }
}

/// One mutation of a line. `a`, `b`, `c` are free choices from the strategy.
pub fn mutate(line: &str, op: u8, a: usize, b: usize, c: usize, pool: &BTreeMap<String, Vec<Value>>) -> String {
    match op % 8 {
        // Flip one bit of one byte (then read back lossily: the parsers take &str).
        0 => {
            let mut bytes = line.as_bytes().to_vec();
            if !bytes.is_empty() {
                let i = a % bytes.len();
                bytes[i] ^= 1 << (b % 8);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        // Cut one structural character out (braces, brackets, quotes, colons, commas).
        1 => {
            let marks: Vec<usize> = line
                .char_indices()
                .filter(|(_, ch)| matches!(ch, '{' | '}' | '[' | ']' | '"' | ':' | ','))
                .map(|(i, _)| i)
                .collect();
            if marks.is_empty() {
                return line.to_owned();
            }
            let i = marks[a % marks.len()];
            format!("{}{}", &line[..i], &line[i + 1..])
        }
        // Truncate at a char boundary.
        2 => {
            let mut cut = a % (line.len() + 1);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line[..cut].to_owned()
        }
        // Insert junk at a char boundary.
        3 => {
            let mut at = a % (line.len() + 1);
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            format!("{}{}{}", &line[..at], JUNK[b % JUNK.len()], &line[at..])
        }
        // JSON-level mutations (fall back to truncation for non-JSON lines).
        _ => match serde_json::from_str::<Value>(line) {
            Ok(mut v) => {
                mutate_json(&mut v, op % 8 - 4, a, b, c, pool);
                serde_json::to_string(&v).unwrap_or_default()
            }
            Err(_) => mutate(line, 2, a, b, c, pool),
        },
    }
}

fn mutate_json(v: &mut Value, op: u8, a: usize, b: usize, c: usize, pool: &BTreeMap<String, Vec<Value>>) {
    let count = node_count(v);
    let mut n = a % count;
    let Some((node, key)) = nth_node(v, &mut n, None) else { return };
    match op {
        // Delete a key of an object node (or an element of an array node).
        0 => match node {
            Value::Object(m) if !m.is_empty() => {
                let k = m.keys().nth(b % m.len()).cloned().unwrap_or_default();
                m.shift_remove(&k);
            }
            Value::Array(arr) if !arr.is_empty() => {
                let i = b % arr.len();
                arr.remove(i);
            }
            other => *other = Value::Null,
        },
        // Swap in a value seen under the same key elsewhere in the corpus (`type` values
        // between lines, ids, roles, subtypes...), or under `type` for array elements.
        1 => {
            let k = key.unwrap_or_else(|| "type".to_owned());
            let from = pool.get(&k).or_else(|| pool.get("type"));
            if let Some(vals) = from.filter(|v| !v.is_empty()) {
                *node = vals[b % vals.len()].clone();
            }
        }
        // Replace the node with an odd value of another type.
        2 => {
            let odd = odd_values();
            *node = odd[b % odd.len()].clone();
        }
        // Set `type` (or another key) on an object node to a value from the pool, or add
        // a duplicate-looking key.
        _ => {
            if let Value::Object(m) = node {
                let keys: Vec<&String> = pool.keys().collect();
                if keys.is_empty() {
                    return;
                }
                let k = if c % 2 == 0 { "type".to_owned() } else { keys[c % keys.len()].clone() };
                let vals = pool.get(&k).cloned().unwrap_or_default();
                let val = if vals.is_empty() { Value::Null } else { vals[b % vals.len()].clone() };
                m.insert(k, val);
            } else {
                *node = Value::Object(Map::new());
            }
        }
    }
}

/// A blank line (after one trailing CR): the parsers show nothing for it.
pub fn is_blank(line: &str) -> bool {
    line.strip_suffix('\r').unwrap_or(line).trim().is_empty()
}

fn check_str(e: &Map<String, Value>, k: &str, problems: &mut Vec<String>) {
    if !matches!(e.get(k), Some(Value::String(_))) {
        problems.push(format!("`{k}` must be a string"));
    }
}

fn check_opt(e: &Map<String, Value>, k: &str, ok: impl Fn(&Value) -> bool, problems: &mut Vec<String>) {
    if let Some(v) = e.get(k) {
        if !ok(v) {
            problems.push(format!("`{k}` has a bad value {v}"));
        }
    }
}

fn one_of(allowed: &'static [&'static str]) -> impl Fn(&Value) -> bool {
    move |v| v.as_str().is_some_and(|s| allowed.contains(&s))
}

/// Checks one serialised entry against the entry schema (src/entry.rs, docs/entries.md):
/// known kind, required fields present with the right types, optional fields typed, and no
/// field the schema does not name. Returns the problems found.
pub fn schema_problems(v: &Value) -> Vec<String> {
    let mut p = Vec::new();
    let Some(e) = v.as_object() else { return vec!["entry is not an object".into()] };
    let kind = e.get("kind").and_then(Value::as_str).unwrap_or("");
    check_str(e, "ts", &mut p);
    let is_str = |v: &Value| v.is_string();
    let is_bool = |v: &Value| v.is_boolean();
    let fields: &[&str] = match kind {
        "assistant" | "thinking" => {
            check_str(e, "text", &mut p);
            check_opt(e, "delta", is_bool, &mut p);
            check_opt(e, "itemId", is_str, &mut p);
            check_opt(e, "parentToolUseId", is_str, &mut p);
            if kind == "assistant" {
                check_opt(e, "channel", one_of(&["progress", "final", "unknown"]), &mut p);
                &["text", "delta", "channel", "itemId", "parentToolUseId"]
            } else {
                check_opt(e, "channel", one_of(&["summary", "detail", "unknown"]), &mut p);
                check_opt(e, "lifecycle", one_of(&["started", "completed"]), &mut p);
                &["text", "delta", "lifecycle", "channel", "itemId", "parentToolUseId"]
            }
        }
        "user" => {
            check_str(e, "text", &mut p);
            check_opt(e, "parentToolUseId", is_str, &mut p);
            &["text", "parentToolUseId"]
        }
        "tool_call" => {
            check_str(e, "name", &mut p);
            if !e.contains_key("input") {
                p.push("`input` is required".into());
            }
            check_opt(e, "toolUseId", is_str, &mut p);
            check_opt(e, "invocationId", is_str, &mut p);
            check_opt(e, "actionRequestId", is_str, &mut p);
            check_opt(e, "parentToolUseId", is_str, &mut p);
            &["name", "input", "toolUseId", "invocationId", "actionRequestId", "parentToolUseId"]
        }
        "tool_result" => {
            check_str(e, "toolUseId", &mut p);
            check_str(e, "content", &mut p);
            if !matches!(e.get("isError"), Some(Value::Bool(_))) {
                p.push("`isError` must be a bool".into());
            }
            check_opt(e, "toolName", is_str, &mut p);
            check_opt(e, "delta", is_bool, &mut p);
            check_opt(e, "durationMs", |v| v.is_u64(), &mut p);
            check_opt(e, "parentToolUseId", is_str, &mut p);
            &["toolUseId", "toolName", "content", "isError", "delta", "durationMs", "parentToolUseId"]
        }
        "init" => {
            check_str(e, "model", &mut p);
            check_str(e, "sessionId", &mut p);
            &["model", "sessionId"]
        }
        "result" => {
            check_str(e, "text", &mut p);
            check_str(e, "subtype", &mut p);
            // Counts and costs: finite, never negative, never past the parser's bound (a sum
            // of them can neither go down nor overflow).
            for k in ["inputTokens", "outputTokens", "cachedTokens", "costUsd"] {
                if !e.get(k).and_then(Value::as_f64).is_some_and(|n| (0.0..=agentlines::parser::MAX_COUNT).contains(&n)) {
                    p.push(format!("`{k}` must be a count between 0 and 1e15"));
                }
            }
            for k in ["cacheCreationTokens", "cacheCreation1hTokens", "reasoningTokens"] {
                if let Some(w) = e.get(k) {
                    if !w.as_f64().is_some_and(|n| (0.0..=agentlines::parser::MAX_COUNT).contains(&n)) {
                        p.push(format!("`{k}` must be a count between 0 and 1e15"));
                    }
                }
            }
            for k in ["model", "callId"] {
                if let Some(m) = e.get(k) {
                    if !m.as_str().is_some_and(|m| !m.is_empty()) {
                        p.push(format!("`{k}` must be a non-empty string"));
                    }
                }
            }
            if !matches!(e.get("isError"), Some(Value::Bool(_))) {
                p.push("`isError` must be a bool".into());
            }
            let errors_ok = e.get("errors").and_then(Value::as_array).is_some_and(|a| a.iter().all(Value::is_string));
            if !errors_ok {
                p.push("`errors` must be an array of strings".into());
            }
            &["text", "inputTokens", "outputTokens", "cachedTokens", "cacheCreationTokens", "cacheCreation1hTokens", "reasoningTokens", "model", "callId", "costUsd", "subtype", "isError", "errors"]
        }
        "stderr" | "system" | "stdout" => {
            check_str(e, "text", &mut p);
            &["text"]
        }
        "diff" => {
            check_str(e, "text", &mut p);
            let kinds = &["add", "remove", "context", "hunk", "file_header", "truncation"];
            if !one_of(kinds)(e.get("changeType").unwrap_or(&Value::Null)) {
                p.push("`changeType` is not a known change type".into());
            }
            &["text", "changeType"]
        }
        // The host's own kinds, only ever passed through from a line that is one
        // (formats::entries checks their types): the host's field names, nothing else.
        "provider_activity" => &["family", "eventType", "status", "title", "summary", "payload"],
        "workspace_change" => &["changeSetId", "revision", "source", "complete", "files", "totals", "patchArtifactRef"],
        "workspace_file_reference" => &[
            "referenceId", "source", "path", "displayName", "mediaType", "presentation", "line", "preview",
            "previewTruncated", "contentDigest",
        ],
        "runtime_request" => &[
            "requestId", "requestKind", "turnId", "requestType", "status", "prompt", "choices", "fields", "questionSet",
            "resolvedAction", "response",
        ],
        "run_result" => &[
            "disposition", "summary", "objectiveSatisfied", "verification", "remainingWork", "blocker", "artifacts",
            "acceptedResponseWake",
        ],
        "run_terminal" => &["turnState", "runState", "disposition", "stopReason"],
        other => {
            p.push(format!("unknown kind {other:?}"));
            &[]
        }
    };
    for k in e.keys() {
        if k != "kind" && k != "ts" && !fields.contains(&k.as_str()) {
            p.push(format!("field `{k}` is not in the {kind} schema"));
        }
    }
    p
}

/// Whether a text is a whole JSON event shown raw: a JSON object with a `type` key (the
/// shape of every runtime's events). A sub-object shown as text (a tool input, an error
/// object without a message) is not counted: modules use compact JSON for those on purpose.
pub fn is_raw_json(text: &str) -> bool {
    let t = text.trim();
    t.starts_with('{') && agentlines::formats::common::parse_object(t).is_some_and(|v| v.get("type").is_some())
}

/// A notice whose text is a JSON object, or (`label` true: an error) whose first line's
/// part after its `label: ` is: a dump where a message belongs. (The lines after a notice's
/// first are the human text found inside an unknown event, shown as it is.)
pub fn is_json_notice(text: &str, label: bool) -> bool {
    let t = text.trim();
    let first = t.split('\n').next().unwrap_or("");
    let after_label = first.find(": {").filter(|_| label).map(|i| &first[i + 2..]);
    [Some(t), after_label].into_iter().flatten().any(|s| {
        s.starts_with('{') && agentlines::formats::common::parse_object(s).is_some_and(|v| v.as_object().is_some_and(|m| !m.is_empty()))
    })
}

/// Every invariant of one parser answer: schema-valid entries, JSON that round-trips
/// byte-identically, no raw JSON shown as stdout/stderr. `Err` says what broke.
pub fn check_entries(entries: &[Entry]) -> Result<String, String> {
    let json = entries_to_json(entries);
    // The hand-written writer (json/write.rs) against serde's derive of the same
    // type: the same text, byte for byte.
    let derived = serde_json::to_string(entries).map_err(|e| e.to_string())?;
    if derived != json {
        return Err(format!("writer differs from serde_json:\n  ours  {json}\n  serde {derived}"));
    }
    let back: Value = serde_json::from_str(&json).map_err(|e| format!("output is not JSON: {e}"))?;
    let again = serde_json::to_string(&back).map_err(|e| e.to_string())?;
    if again != json {
        return Err(format!("JSON does not round-trip:\n  {json}\n  {again}"));
    }
    let arr = back.as_array().ok_or("output is not an array")?;
    if arr.len() != entries.len() {
        return Err("entry count changed in JSON".into());
    }
    for (v, e) in arr.iter().zip(entries) {
        let problems = schema_problems(v);
        if !problems.is_empty() {
            return Err(format!("schema: {} in {v}", problems.join("; ")));
        }
        if let Entry::Stdout { text, .. } | Entry::Stderr { text, .. } = e {
            if is_raw_json(text) {
                return Err(format!("raw JSON shown as {}: {}", e.kind(), clip(text)));
            }
        }
        if let Entry::System { text, .. } | Entry::Stderr { text, .. } = e {
            if is_json_notice(text, matches!(e, Entry::Stderr { .. })) {
                return Err(format!("a JSON dump as a {} notice: {}", e.kind(), clip(text)));
            }
        }
    }
    Ok(json)
}

/// The amplification bound of one line's answer (`formats::common::budget`): at
/// most the line's entry limit (plus the one notice that says what was cut) and its output
/// byte limit, measured here with serde_json as entry JSON without `ts` (the budget's own
/// count is an estimate: 25% and 1 KiB of slack for its per-field constants and the notice).
pub fn check_amplification(line: &str, entries: &[Entry]) -> Result<(), String> {
    let (max_entries, max_bytes) = agentlines::formats::common::budget::limits(line.len());
    if entries.len() > max_entries + 1 {
        return Err(format!("{} entries from {} bytes (limit {max_entries})", entries.len(), line.len()));
    }
    let bytes: usize = entries
        .iter()
        .map(|e| {
            let all = serde_json::to_string(e).map_or(0, |j| j.len());
            all.saturating_sub(serde_json::to_string(e.ts()).map_or(0, |j| j.len()) + 6)
        })
        .sum();
    if bytes > max_bytes + max_bytes / 4 + 1024 {
        return Err(format!("{bytes} output bytes from {} bytes (limit {max_bytes})", line.len()));
    }
    Ok(())
}

pub fn clip(s: &str) -> String {
    match s.char_indices().nth(std::env::var("CLIP").ok().and_then(|v| v.parse().ok()).unwrap_or(300)) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// A line kind that legitimately gives no entries on the stateless (autodetected) path.
pub struct Invisible {
    /// Where the module documents it.
    pub documented_in: &'static str,
    pub reason: &'static str,
    /// Whether a line is of this kind: its parsed JSON (`None` for a non-JSON line) and text.
    pub applies: fn(Option<&Value>, &str) -> bool,
}

/// The text with CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ESC \\`) and two-byte escapes removed
/// (a test-side approximation of the plain module's cleaner, for the allow-list only).
fn without_escapes(line: &str) -> String {
    let mut out = String::new();
    let mut it = line.chars().peekable();
    while let Some(c) = it.next() {
        // 8-bit DCS/SOS/OSC/PM/APC: a string up to ST (or the end of the line).
        if matches!(c, '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}') {
            for d in it.by_ref() {
                if d == '\u{9c}' || d == '\u{7}' {
                    break;
                }
            }
            continue;
        }
        if c == '\u{8}' {
            out.pop(); // backspace erases the previous (kept) character
            continue;
        }
        if c == '\u{9b}' {
            // 8-bit CSI: parameters up to a final byte.
            for d in it.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&d) {
                    break;
                }
            }
            continue;
        }
        if c.is_control() && c != '\t' && c != '\u{1b}' {
            continue; // other controls are dropped
        }
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        // A second ESC cancels the sequence the first one began and starts its own, as in a
        // terminal (`ESC ESC 2` shows nothing; `ESC ESC ]` opens a string).
        if it.peek() == Some(&'\u{1b}') {
            continue;
        }
        match it.next() {
            Some('[') => {
                for d in it.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&d) {
                        break;
                    }
                }
            }
            Some(']' | 'P' | 'X' | '^' | '_') => {
                while let Some(d) = it.next() {
                    if d == '\u{7}' || d == '\u{1b}' && it.next_if_eq(&'\\').is_some() {
                        break;
                    }
                }
            }
            // ESC, intermediates (0x20-0x2f), one final (0x30-0x7e): `ESC ( B`, `ESC 7`.
            Some(mut d) => {
                while ('\u{20}'..='\u{2f}').contains(&d) {
                    match it.next() {
                        Some(n) => d = n,
                        None => break,
                    }
                }
            }
            None => {}
        }
    }
    out
}

fn ty(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn at<'a>(v: &'a Value, keys: &[&str]) -> &'a Value {
    keys.iter().fold(v, |cur, k| cur.get(*k).unwrap_or(&Value::Null))
}

fn blank_text(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.iter().all(|b| b.is_string() && blank_text(b) || ty(b).ends_with("text") && blank_text(at(b, &["text"]))),
        _ => false,
    }
}

/// A Claude-shaped `assistant`/`user` line (also Amp's, which reuses the shape).
fn claude_message(v: &Value, kind: &str) -> bool {
    ty(v) == kind && at(v, &["message"]).is_object()
}

/// The stream of an adapter-log event line (`[…:event] run=<id> stream=<stream> …`).
fn common_event(line: &str) -> Option<&str> {
    let rest = &line[line.find(":event] run=")?..];
    let s = &rest[rest.find(" stream=")? + 8..];
    Some(s.split_whitespace().next().unwrap_or(""))
}

/// The documented invisible kinds, each with its reason. Anything else that shows nothing
/// fails the tests; an entry that never matches an invisible corpus line fails too.
pub const INVISIBLE: &[Invisible] = &[
    Invisible {
        documented_in: "docs/formats/goose.md (the banner)",
        reason: "the last line of goose's banner, `L L     goose is ready`: the two lines before it say the session",
        applies: |v, line| v.is_none() && line.trim().strip_prefix("L L").is_some_and(|r| r.trim() == "goose is ready"),
    },
    Invisible {
        documented_in: "docs/formats/claude.md, Invisible cases",
        reason: "Claude Code's `rate_limit_event` with status `allowed` (the note at a run's start that the account is within its limits) and a background task's live `task_progress` (its calls and its end notice show what it did)",
        applies: |v, _| {
            v.is_some_and(|v| {
                ty(v) == "rate_limit_event" && at(v, &["rate_limit_info", "status"]) == "allowed"
                    || ty(v) == "system" && v["subtype"] == "task_progress"
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/codex.md (`turn.started`, `task_started`)",
        reason: "a Codex turn's start, which carries nothing of its own (its prompt, calls and end say what happened)",
        applies: |v, _| {
            v.is_some_and(|v| ty(v) == "turn.started" || matches!(ty(at(v, &["msg"])), "task_started" | "turn_started"))
        },
    },
    Invisible {
        documented_in: "docs/formats/kiro.md (what shows nothing)",
        reason: "a line of spinner frames only (`⠋ Loading...⠙ Loading...`, `⠹ Dividing up the work...`): an animation Kiro draws in place, which a captured log keeps frame by frame, with nothing of the run in it",
        applies: |v, line| {
            let text = agentlines::formats::plain::clean(line);
            let mut rest = text.trim();
            let mut frames = 0;
            while rest.starts_with(|c: char| ('\u{2800}'..='\u{28ff}').contains(&c)) {
                let Some(end) = rest.find("...") else { break };
                rest = rest[end + 3..].trim_start();
                frames += 1;
            }
            v.is_none() && frames > 0 && rest.is_empty()
        },
    },
    Invisible {
        documented_in: "docs/formats/copilot.md (what shows nothing)",
        reason: "a Copilot CLI event with nothing of its own to show: bookkeeping (MCP servers, tool lists, auto-mode routing, turn marks, model calls that went well, a message's start, streamed arguments), or, read alone, a streamed delta, a tool's start or the full reasoning, which the whole message carries; a message with no text and no tool request",
        applies: |v, _| {
            v.is_some_and(|v| {
                let d = &v["data"];
                let empty = |k: &str| d.get(k).and_then(Value::as_str).map_or(true, |t| t.trim().is_empty());
                d.is_object()
                    && match v["type"].as_str().unwrap_or("") {
                        "session.mcp_server_status_changed" | "session.mcp_servers_loaded" | "session.tools_updated"
                        | "session.auto_mode_resolved" | "session.skills_loaded" | "session.usage_info"
                        | "session.title_changed" | "session.idle" | "assistant.turn_start" | "assistant.turn_end"
                        | "assistant.idle" | "assistant.message_start" | "assistant.tool_call_delta"
                        | "assistant.streaming_delta" | "assistant.intent" | "assistant.message_delta"
                        | "assistant.reasoning_delta" | "assistant.reasoning" | "tool.execution_start"
                        | "tool.execution_partial_result" | "tool.execution_progress" | "pending_messages.modified" => true,
                        "model.call_start" => true,
                        "model.call_finished" | "model.call_final_result" => {
                            d["outcome"].as_str().map_or(true, |o| o == "success")
                                && d["result"].as_str().map_or(true, |o| o == "success")
                        }
                        "assistant.message" => {
                            empty("content")
                                && empty("reasoningText")
                                && d["toolRequests"].as_array().map_or(true, |a| a.is_empty())
                                && d["outputTokens"].as_f64().map_or(true, |n| n <= 0.0)
                        }
                        "session.usage_checkpoint" => d["accountingSnapshot"]["modelMetrics"].as_object().is_none(),
                        _ => false,
                    }
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/claude.md (session files: `summary` lines)",
        reason: "a Claude session file's `summary` line: the title of a conversation leaf (`leafUuid`), most often another conversation's, which read as a notice about this one",
        applies: |v, _| v.is_some_and(|v| v["type"] == "summary" && v.get("leafUuid").is_some()),
    },
    Invisible {
        documented_in: "docs/formats/agy.md (bookkeeping steps)",
        reason: "an Antigravity step with nothing to show: a user_input, system_message, checkpoint or finish step, or an agent_response that only closes with its usage (the result carries the run's totals)",
        applies: |v, _| {
            v.is_some_and(|v| {
                let s = &v["step_update"];
                v["event"] == "step_update"
                    && s["state"] != "ERROR"
                    && s.get("text_delta").and_then(Value::as_str).map_or(true, str::is_empty)
                    && s.get("thinking_delta").and_then(Value::as_str).map_or(true, str::is_empty)
                    && !matches!(s["step_type"].as_str(), Some("tool" | "subagent"))
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/acp.md, acpx lines / raw ACP (tool_call_update between announcement and end)",
        reason: "an ACP tool update between announcement and end that adds no title, input or text (acpx's placeholder title `tool call`; a raw update with only a status): the call's card already shows it; an empty acpx text delta",
        applies: |v, _| {
            v.is_some_and(|v| {
                let terminal = |s: &str| matches!(s, "completed" | "failed" | "cancelled");
                let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                match ty(v) {
                    "acpx.tool_call" => {
                        s(v, "tag") == "tool_call_update"
                            && !terminal(&s(v, "status"))
                            && v.get("input").is_none()
                            && s(v, "text").starts_with("tool call (")
                    }
                    "acpx.text_delta" => s(v, "text").is_empty(),
                    _ => {
                        let u = at(v, &["params", "update"]);
                        s(v, "method") == "session/update"
                            && s(u, "sessionUpdate") == "tool_call_update"
                            && !terminal(&s(u, "status"))
                            && u.get("title").is_none()
                            && u.get("rawInput").is_none()
                    }
                }
            })
        },
    },
    Invisible {
        documented_in: "docs/robustness.md, Invisible lines (rule of the property tests)",
        reason: "a JSON event with no text of five or more characters outside ids, types and timestamps (its text field missing, empty or of another type): nothing to show",
        applies: |v, _| v.is_some_and(|v| !has_content(v, None)),
    },
    Invisible {
        documented_in: "docs/formats/plain.md step 5",
        reason: "plain text that is blank after removing escapes and control characters",
        // (A leading byte-order mark is dropped before anything else: docs/robustness.md.)
        applies: |v, line| {
            let line = line.strip_prefix('\u{feff}').unwrap_or(line);
            v.is_none() && without_escapes(line).chars().all(|c| c.is_whitespace() || c.is_control())
        },
    },
    Invisible {
        documented_in: "docs/formats/claude.md, stream_event / Invisible cases",
        reason: "Claude partial-message stream_event (not an error event): the complete text follows in the assistant line",
        applies: |v, _| v.is_some_and(|v| ty(v) == "stream_event" && ty(at(v, &["event"])) != "error"),
    },
    Invisible {
        documented_in: "docs/formats/claude.md, Invisible cases",
        reason: "Claude assistant/user message with no content blocks or only blank text",
        applies: |v, _| {
            v.is_some_and(|v| (claude_message(v, "assistant") || claude_message(v, "user")) && blank_text(at(v, &["message", "content"])))
        },
    },
    Invisible {
        documented_in: "docs/formats/codex.md, Rollout duplicates / turn_context / ghost_snapshot / reasoning",
        reason: "Codex rollout records whose content another record carries (event_msg copies, turn_context, ghost_snapshot, encrypted-only reasoning, record_type markers)",
        applies: |v, _| {
            v.is_some_and(|v| {
                let p = ty(at(v, &["payload"]));
                match ty(v) {
                    "turn_context" => true,
                    "event_msg" => true,
                    // (An empty message is not spelled out in codex.md.)
                    "response_item" => {
                        let content = at(v, &["payload", "content"]);
                        p == "ghost_snapshot"
                            || p == "reasoning"
                            || p == "message" && blank_text(content)
                    }
                    _ => v.get("record_type").is_some(),
                }
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/codex.md, item.updated / item.started / Pairing rule",
        reason: "Codex exec item.started/item.updated whose item is shown once completed; empty reasoning",
        applies: |v, _| {
            v.is_some_and(|v| {
                let it = ty(at(v, &["item"]));
                match ty(v) {
                    "item.updated" => it != "todo_list",
                    "item.started" => matches!(it, "agent_message" | "reasoning" | "plan" | "file_change" | "web_search"),
                    "item.completed" => it == "reasoning" && blank_text(at(v, &["item", "text"])),
                    _ => false,
                }
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/codex.md, legacy protocol table",
        reason: "legacy Codex {id, msg} bookkeeping events (section breaks, output deltas, UI replies, rate-limit-only token counts)",
        applies: |v, _| {
            v.is_some_and(|v| {
                let m = at(v, &["msg"]);
                matches!(
                    ty(m),
                    "agent_reasoning_section_break" | "exec_command_output_delta" | "shutdown_complete" | "conversation_path"
                        | "get_history_entry_response" | "mcp_list_tools_response" | "list_custom_prompts_response"
                        | "list_skills_response"
                ) || ty(m) == "token_count" && at(m, &["info"]).is_null()
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/cline.md, Messages → entries",
        reason: "Cline messages with nothing to show: checkpoint_created, and an empty text, completion_result ask, resume_task ask or hook output",
        applies: |v, _| {
            v.is_some_and(|v| {
                let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
                let kind = if ty(v) == "ask" { s("ask") } else { s("say") };
                matches!(ty(v), "say" | "ask")
                    && (kind == "checkpoint_created"
                        || s("text").trim().is_empty()
                            && matches!(kind, "text" | "completion_result" | "resume_task" | "resume_completed_task" | "hook_output_stream"))
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/openhands.md, Joining the lines",
        reason: "OpenHands' `--JSON Event--` marker: the event after it is what is shown",
        applies: |v, line| v.is_none() && line.trim() == "--JSON Event--",
    },
    Invisible {
        documented_in: "docs/formats/pi.md, One carrier per thing",
        reason: "pi events whose content another event carries (message_start/update, turn_start, tool_execution_update, omp tool_stream_update, toolResult message_end)",
        applies: |v, _| {
            v.is_some_and(|v| {
                matches!(ty(v), "message_start" | "message_update" | "turn_start" | "tool_execution_update" | "tool_stream_update")
                    || ty(v) == "message_end" && at(v, &["message", "role"]).as_str() == Some("toolResult")
                    || ty(v) == "message_end" && at(v, &["message", "role"]).as_str() == Some("assistant") && {
                        // Assistant messages show their text and thinking; tool calls come from
                        // tool_execution_start, tool results from tool_execution_end.
                        let blocks = at(v, &["message", "content"]).as_array().cloned().unwrap_or_default();
                        blocks.iter().all(|b| !matches!(ty(b), "text" | "thinking") || blank_text(at(b, &[ty(b)])))
                            && at(v, &["message", "stopReason"]).as_str() != Some("error")
                            && at(v, &["message", "stopReason"]).as_str() != Some("aborted")
                    }
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/pi.md, What pi prints (`--mode rpc`)",
        reason: "pi RPC mode's answer to a command that went well (`response` with `success: true`: the run it started says the rest), `agent_settled`, and pi 0.86's empty `system` message that opens a run",
        applies: |v, _| {
            v.is_some_and(|v| {
                ty(v) == "response" && v["success"] == true && v["command"].is_string()
                    || ty(v) == "agent_settled"
                    || ty(v) == "message_end" && at(v, &["message", "role"]).as_str() == Some("system") && blank_text(at(v, &["message", "content"]))
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/openclaw.md, Mapping",
        reason: "OpenClaw chat deltas, agent assistant text and tool updates (the final carries them), tick keep-alives",
        applies: |v, _| {
            v.is_some_and(|v| {
                let ev = v.get("event").and_then(Value::as_str).unwrap_or("");
                let p = at(v, &["payload"]);
                ev == "tick"
                    || ev == "chat" && at(p, &["state"]).as_str() == Some("delta")
                    || ev == "agent" && at(p, &["stream"]).as_str() == Some("assistant")
                    || ev == "agent" && at(p, &["stream"]).as_str() == Some("tool") && at(p, &["data", "phase"]).as_str() == Some("update")
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/openclaw.md, Paperclip adapter log lines",
        reason: "an OpenClaw adapter-log `item` or `command_output` event that repeats what the tool stream or the item's end shows (an item update, a command item's start, an exec tool's end, command output)",
        applies: |v, line| v.is_none() && common_event(line).is_some_and(|s| s == "item" || s == "command_output"),
    },
    Invisible {
        documented_in: "docs/formats/claude.md, progress (session) / file-history-snapshot",
        reason: "Claude progress of one tool call (its PreToolUse/PostToolUse hooks, bash/MCP/search progress: the result carries the outcome), file-history snapshot updates (an edit's backup) and snapshots tracking no file",
        applies: |v, _| {
            v.is_some_and(|v| {
                let d = at(v, &["data"]);
                let hook = at(d, &["hookEvent"]).as_str().unwrap_or("");
                ty(v) == "progress"
                    && (matches!(ty(d), "bash_progress" | "mcp_progress" | "query_update" | "search_results_received")
                        || ty(d) == "hook_progress" && matches!(hook, "PreToolUse" | "PostToolUse" | "PostToolUseFailure"))
                    || matches!(ty(v), "file-history-snapshot" | "file-history-delta")
                        && (at(v, &["isSnapshotUpdate"]).as_bool() == Some(true)
                            || at(v, &["snapshot", "trackedFileBackups"]).as_object().is_some_and(|m| m.is_empty()))
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/claude.md, assistant block thinking",
        reason: "Claude assistant message whose only blocks are signature-only thinking (the thinking itself is not sent)",
        applies: |v, _| {
            v.is_some_and(|v| {
                let blocks = at(v, &["message", "content"]).as_array().cloned().unwrap_or_default();
                claude_message(v, "assistant")
                    && !blocks.is_empty()
                    && blocks.iter().all(|b| ty(b) == "thinking" && blank_text(at(b, &["thinking"])))
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/cursor.md, assistant chunk",
        reason: "Cursor assistant chunk (timestamp_ms, no model_call_id): the complete message repeats it",
        applies: |v, _| v.is_some_and(|v| ty(v) == "assistant" && v.get("timestamp_ms").is_some() && v.get("model_call_id").is_none()),
    },
    Invisible {
        documented_in: "docs/formats/gemini.md, opencode.md",
        reason: "Gemini message delta / OpenCode text part with empty (or non-string) text",
        applies: |v, _| {
            v.is_some_and(|v| {
                // A text field of another type counts as empty (see docs/robustness.md).
                let empty = |t: &Value| !t.as_str().is_some_and(|s| !s.trim().is_empty());
                ty(v) == "message" && blank_text(at(v, &["content"])) || ty(v) == "text" && empty(at(v, &["part", "text"]))
            })
        },
    },
    Invisible {
        documented_in: "docs/formats/opencode.md (step_start)",
        reason: "an OpenCode step_start: only ids, before every model call (its step_finish is the step's result)",
        applies: |v, _| v.is_some_and(|v| ty(v) == "step_start"),
    },
    Invisible {
        documented_in: "docs/formats/claude.md (Invisible cases)",
        reason: "a Claude local or `!` command's empty output (`<local-command-stdout></local-command-stdout>`, written after /clear and the like): it said nothing",
        applies: |v, _| {
            v.is_some_and(|v| {
                let text = at(v, &["message", "content"]).as_str().or_else(|| at(v, &["content"]).as_str()).unwrap_or("").trim();
                ["local-command-stdout", "local-command-stderr", "bash-stdout", "bash-stderr"]
                    .iter()
                    .any(|t| text.strip_prefix(&format!("<{t}>")).and_then(|r| r.strip_suffix(&format!("</{t}>"))).is_some_and(|i| i.trim().is_empty()))
            })
        },
    },
];

/// Keys whose string values are bookkeeping, not something to show.
const META_KEYS: &[&str] = &[
    "type", "subtype", "id", "role", "timestamp", "sessionID", "session_id", "sessionId", "uuid",
    "parentUuid", "call_id", "callID", "messageID", "thread_id", "status", "phase", "state", "runId",
    "event", "stream", "itemId", "item_id", "model", "provider", "api", "stopReason",
];

/// Whether the value holds a non-blank string outside [`META_KEYS`].
fn has_content(v: &Value, key: Option<&str>) -> bool {
    match v {
        // Words of four characters or fewer ("user", "ok", "1") say nothing on their own.
        Value::String(s) => {
            let meta = key.is_some_and(|k| META_KEYS.contains(&k) || k.ends_with("_id") || k.ends_with("Id") || k.ends_with("ID"));
            // An identifier (no blank, a digit, only id characters) is not text either.
            let ident = !s.is_empty()
                && s.chars().any(|c| c.is_ascii_digit())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_:.".contains(c));
            s.trim().chars().count() > 4 && !meta && !ident
        }
        Value::Object(m) => m.iter().any(|(k, x)| has_content(x, Some(k))),
        Value::Array(a) => a.iter().any(|x| has_content(x, key)),
        _ => false,
    }
}

/// Whether `line` may give no entries through the stateless parser, and why.
pub fn may_be_invisible(line: &str) -> Option<&'static Invisible> {
    // The parser drops a leading byte-order mark before anything else.
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    // The parser's own reading of a JSON line (lenient like JSON.parse on lone surrogates
    // and numbers past f64), so the allow-list sees what the runtime modules saw.
    // A JSON line behind terminal controls is read as the parser reads it: as the JSON the
    // plain-text cleaner leaves.
    let cleaned = agentlines::formats::plain::clean(line);
    let v: Option<Value> = agentlines::formats::common::parse_object(line)
        .or_else(|| agentlines::formats::common::parse_object(&cleaned))
        .map(|v| v.to_serde());
    INVISIBLE.iter().find(|k| (k.applies)(v.as_ref(), line))
}
