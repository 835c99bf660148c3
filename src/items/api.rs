//! The JS-facing names of [`crate::items`] (one of the dispatchers `crate::api` asks).
//!
//! | JS name | call |
//! | --- | --- |
//! | `classify(text)` | [`classify`]: the items of a whole `.jsonl` text |
//! | `Classification_readChunk(state, chunk, start?)` | one chunk of a growing file: `{state, items, updates, watch}` (the JS `Classification` shim keeps `state` and applies `updates` to the items it handed out) |
//! | `selection(ask, presets)` | `{elements, ids}` |
//! | `selection_keeps(elements, type)` | whether a type is kept |
//! | `select(items, elements)` | `{items, entries}` |
//! | `dumpConfig(dump)` | `{presets}`, or throws upstream's message |
//! | `dumpIds(items)` | the `DumpIds` ledger |
//! | `dumpSession(text, opts)` | a `SessionDumpFile`; `opts`: `sid`, `agent_id`, `written_at`, `types`, `preset`, `no_thinking`, `no_agent`, `presets` (validated; an unknown `@name` or a bad element throws) |
//! | `TRANSCRIPT_ITEM_TYPES`, `DEFAULT_DUMP_TYPES` | constants |

use super::classify::{classify, Classification};
use super::config::{check_selection, dump_config, presets_json};
use super::dump::{dump_ids, dump_session, session_id, DumpId, DumpSubject};
use super::select::{decide, select, selection, Ask, Selection, DEFAULT_TYPES};
use super::{Item, TRANSCRIPT_ITEM_TYPES};
use crate::wire::arg;
use serde_json::{json, Value};

fn text_arg(args: &[Value], i: usize, what: &str) -> Result<String, String> {
    arg(args, i)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{what} must be a string"))
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn items_arg(v: Option<&Value>) -> Vec<Item> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|i| i.as_object().cloned()).collect())
        .unwrap_or_default()
}

fn items_json(items: Vec<Item>) -> Value {
    Value::Array(items.into_iter().map(Value::Object).collect())
}

fn read_chunk(args: &[Value]) -> Result<Value, String> {
    let mut c = match arg(args, 0) {
        None | Some(Value::Null) => Classification::new(),
        Some(state) => Classification::from_state(state).ok_or("not a Classification state")?,
    };
    let chunk = text_arg(args, 1, "chunk")?;
    let start = arg(args, 2).and_then(Value::as_u64).unwrap_or(0);
    let out = c.read_chunk(&chunk, start);
    let updates: Vec<Value> = out
        .updates
        .into_iter()
        .map(|u| json!({"ordinal": u.ordinal, "id": u.id, "field": u.field, "value": u.value}))
        .collect();
    Ok(
        json!({"state": c.to_state(), "items": items_json(out.items), "updates": updates, "watch": c.watched()}),
    )
}

fn dump(args: &[Value]) -> Result<Value, String> {
    let text = text_arg(args, 0, "dumpSession text")?;
    let opts = arg(args, 1).cloned().unwrap_or(Value::Null);
    let presets = match opts.get("presets") {
        None | Some(Value::Null) => Vec::new(),
        Some(p) => dump_config(Some(&json!({ "presets": p })))?,
    };
    let ask = Ask::from_json(&opts);
    check_selection(&ask.types, &presets)?;
    let subject = DumpSubject {
        sid: opts
            .get("sid")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| session_id(&text))
            .unwrap_or_default(),
        agent_id: opts.get("agent_id").and_then(Value::as_str).map(str::to_owned),
        written_at: opts
            .get("written_at")
            .and_then(Value::as_f64)
            .filter(|t| *t >= 0.0)
            .map(|t| t as u64)
            .unwrap_or(0),
    };
    Ok(dump_session(&text, &subject, &ask, &presets))
}

pub fn dispatch(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    Some(match name {
        "classify" => text_arg(args, 0, "classify text").map(|t| items_json(classify(&t))),
        "Classification_readChunk" => read_chunk(args),
        "selection" => {
            let ask = arg(args, 0).map(Ask::from_json).unwrap_or_default();
            let presets = super::config::presets_lenient(arg(args, 1));
            let s = selection(&ask, &presets);
            Ok(json!({"elements": s.elements, "ids": s.ids}))
        }
        "selection_keeps" => {
            let elements = strings(arg(args, 0));
            text_arg(args, 1, "type").map(|t| Value::Bool(decide(&t, &elements)))
        }
        "select" => {
            let keep = Selection { elements: strings(arg(args, 1)), ids: false };
            let (items, entries) = select(&items_arg(arg(args, 0)), &keep);
            Ok(json!({"items": items_json(items), "entries": entries}))
        }
        "dumpConfig" => dump_config(arg(args, 0)).map(|p| presets_json(&p)),
        "dumpIds" => Ok(Value::Array(
            dump_ids(&items_arg(arg(args, 0))).iter().map(DumpId::to_json).collect(),
        )),
        "dumpSession" => dump(args),
        "TRANSCRIPT_ITEM_TYPES" => Ok(json!(TRANSCRIPT_ITEM_TYPES)),
        "DEFAULT_DUMP_TYPES" => Ok(json!(DEFAULT_TYPES)),
        _ => return None,
    })
}
