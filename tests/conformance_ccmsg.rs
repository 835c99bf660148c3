//! ccmsg transcript-items conformance: every case recorded from the kawaz/ccmsg classifier,
//! selection and preset validation (`tests/fixtures/conformance/ccmsg/cases.jsonl`; NOTES.md
//! there explains the revision targeted) is replayed through `agentlines::api::call` — the
//! dispatch the wasm package uses — converting the conformance encoding to the `$js`
//! tagging and back.
//!
//! - `classify` → `classify(text)`.
//! - `Classification.readChunk` → `Classification_readChunk(state, chunk, start)` per
//!   chunk, keeping the state and applying the returned `updates` to the items already
//!   handed out (as the JS `Classification` shim does), then comparing every chunk's items.
//! - `selection` → `selection(ask, presets)` for `elements`/`ids`, `selection_keeps` for
//!   each probed type, and `select` over the runner's fixed list of 13 item types.
//! - `dumpConfig` → `dumpConfig(dump)`. One recorded case ("none") was written with
//!   `[null]` for an `undefined` argument (JSON.stringify turns `[undefined]` into
//!   `[null]`; its twin "dump null" really is `null`); it is replayed with no argument.
//!
//! On failure the test prints a per-fn pass/fail table and the first mismatches.

use serde_json::{json, Value};
use std::path::Path;

const CASES: &str = "tests/fixtures/conformance/ccmsg/cases.jsonl";

/// The item types the upstream runner's `select()` probe list held, in its order
/// (`system:attachment:date` is never kept by any case, so its position is not observable).
const PROBE_ITEMS: [&str; 13] = [
    "message:user:in",
    "message:user:out",
    "thinking",
    "tool:Bash",
    "tool:Read",
    "hook:PreToolUse",
    "message:sub:out",
    "tool:Agent",
    "notice:slash",
    "system:attachment:date",
    "system:unknown",
    "noticeboard",
    "tool:Bash:extra",
];

mod support_conformance;
use support_conformance::{call, to_js, Tally};

fn read_chunks(calls: &[Value]) -> Result<Value, String> {
    let mut state = Value::Null;
    let mut all: Vec<Value> = Vec::new();
    let mut chunks: Vec<(usize, usize)> = Vec::new();
    for c in calls {
        let r = call(
            "Classification_readChunk",
            &[state.clone(), c[0].clone(), c.get(1).cloned().unwrap_or(json!(0))],
        )?;
        for u in r["updates"].as_array().cloned().unwrap_or_default() {
            let at = u["ordinal"].as_u64().unwrap_or(u64::MAX) as usize;
            if let Some(Value::Object(item)) = all.get_mut(at) {
                item.insert(u["field"].as_str().unwrap_or("").to_owned(), u["value"].clone());
            }
        }
        let items = r["items"].as_array().cloned().unwrap_or_default();
        chunks.push((all.len(), items.len()));
        all.extend(items);
        state = r["state"].clone();
    }
    Ok(Value::Array(
        chunks.into_iter().map(|(from, n)| Value::Array(all[from..from + n].to_vec())).collect(),
    ))
}

fn run_selection(args: &[Value], expected: &Value) -> Result<Value, String> {
    let s = call("selection", args)?;
    let elements = s["elements"].clone();
    let mut keeps = serde_json::Map::new();
    for ty in expected
        .get("keeps")
        .and_then(Value::as_object)
        .map(|o| o.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        keeps.insert(ty.clone(), call("selection_keeps", &[elements.clone(), Value::from(ty)])?);
    }
    let items: Vec<Value> = PROBE_ITEMS.iter().map(|t| json!({"type": t})).collect();
    let sel = call("select", &[Value::Array(items), elements.clone()])?;
    let kept: Vec<Value> = sel["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|i| i["type"].clone())
        .collect();
    Ok(
        json!({"elements": elements, "ids": s["ids"], "keeps": keeps, "kept": kept, "entries": sel["entries"]}),
    )
}

fn run(case: &Value) -> Result<Value, String> {
    let fn_name = case["fn"].as_str().unwrap_or("");
    let args: Vec<Value> = case
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(to_js).collect())
        .unwrap_or_default();
    match fn_name {
        "classify" => call("classify", &args),
        "Classification.readChunk" => {
            read_chunks(case["calls"].as_array().map(Vec::as_slice).unwrap_or(&[]))
        }
        "selection" => run_selection(&args, &case["expected"]),
        "dumpConfig" if case["note"] == "none" => call("dumpConfig", &[]),
        "dumpConfig" => call("dumpConfig", &args),
        other => Err(format!("no runner for {other}")),
    }
}

#[test]
fn ccmsg_cases() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CASES))
        .expect("cases.jsonl");
    let mut tally = Tally::default();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).expect("case JSON");
        let label = format!("line {}: {}", i + 1, case["note"].as_str().unwrap_or(""));
        let fn_name = case["fn"].as_str().unwrap_or("").to_owned();
        tally.check(&fn_name, &label, &case, run(&case));
        n += 1;
    }
    assert_eq!(n, 104, "every recorded case");
    let report = tally.report();
    println!("{report}");
    assert!(
        !tally.failed(),
        "ccmsg conformance failures:\n{report}\n{}",
        tally.failures.join("\n")
    );
}

/// Reading a transcript line by line through `Classification_readChunk` (keeping the
/// state, applying the updates) gives exactly the items of reading it whole.
#[test]
fn chunked_reading_equals_whole_reading() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CASES))
        .expect("cases.jsonl");
    let mut checked = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        if case["fn"] != "classify" {
            continue;
        }
        let whole = case["args"][0].as_str().unwrap();
        let mut calls = Vec::new();
        let mut offset = 0;
        for piece in whole.split_inclusive('\n') {
            calls.push(json!([piece, offset]));
            offset += piece.len();
        }
        let chunks = read_chunks(&calls).expect("chunks");
        let joined: Vec<Value> =
            chunks.as_array().unwrap().iter().flat_map(|c| c.as_array().unwrap().clone()).collect();
        assert_eq!(
            Value::Array(joined),
            call("classify", &[Value::from(whole)]).unwrap(),
            "{}",
            case["note"]
        );
        checked += 1;
    }
    assert_eq!(checked, 58);
}

/// Every classify input cut at many points and with characters inserted: classification
/// answers (never throws, never panics), and chunked reading still equals whole reading.
#[test]
fn mangled_transcripts_never_panic() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CASES))
        .expect("cases.jsonl");
    let inserts = ["é", "😀", "\u{2028}", "\"", "\\", "}", "<task-notification>", "\n"];
    let mut n = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        if case["fn"] != "classify" {
            continue;
        }
        let whole = case["args"][0].as_str().unwrap();
        let bounds: Vec<usize> = whole.char_indices().map(|(i, _)| i).collect();
        for (k, at) in bounds.iter().step_by(13.max(bounds.len() / 25)).enumerate() {
            let v = format!("{}{}{}", &whole[..*at], inserts[k % inserts.len()], &whole[*at..]);
            let items = call("classify", &[Value::from(v.as_str())]).expect("classify answers");
            assert!(items.is_array());
            n += 1;
        }
    }
    assert!(n > 500, "{n}");
}
