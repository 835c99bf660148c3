//! The clawboo web store's transcript append (`apps/web/src/stores/chat.ts`,
//! `appendTranscript`), as a pure function: existing transcript + incoming batch → the new
//! transcript. Two dedup layers: an `entryId` already present (anywhere, or accepted earlier
//! in the batch) drops the entry; otherwise an exact `kind|role|timestampMs|text` signature
//! seen among the last [`SIG_WINDOW`] existing entries or accepted earlier in the batch drops
//! it (entries without a timestamp have no signature). The result keeps the last [`CAP`].

use crate::js::{self, Js};
use std::collections::HashSet;

/// How many of the newest existing entries contribute signatures.
pub const SIG_WINDOW: usize = 50;
/// The most entries a transcript keeps.
pub const CAP: usize = 500;

/// An `entryId` under JS `Set` equality (SameValueZero); objects are never equal to anything.
#[derive(Debug, PartialEq, Eq, Hash)]
enum IdKey {
    Undefined,
    Null,
    Bool(bool),
    Num(u64),
    Str(String),
}

fn id_key(v: &Js) -> Option<IdKey> {
    Some(match v {
        Js::Undefined => IdKey::Undefined,
        Js::Null => IdKey::Null,
        Js::Bool(b) => IdKey::Bool(*b),
        Js::Num(n) if n.is_nan() => IdKey::Num(f64::NAN.to_bits()),
        Js::Num(n) => IdKey::Num((n + 0.0).to_bits()),
        Js::Str(s) => IdKey::Str(s.clone()),
        Js::Arr(_) | Js::Obj(_) | Js::Func => return None,
    })
}

/// Reads `e[prop]` the way JS does, throwing on `null`/`undefined` entries.
fn field<'a>(e: &'a Js, prop: &str) -> Result<&'a Js, String> {
    if e.is_nullish() {
        return Err(js::read_error(e, prop));
    }
    Ok(e.get(prop))
}

/// The content signature, or `None` when the entry has no timestamp.
fn signature(e: &Js) -> Result<Option<String>, String> {
    let part = |k: &str| -> Result<String, String> {
        let v = field(e, k)?;
        Ok(if v.is_nullish() { String::new() } else { v.to_js_string() })
    };
    let ts = field(e, "timestampMs")?;
    if ts.is_nullish() {
        return Ok(None);
    }
    Ok(Some(format!("{}|{}|{}|{}", part("kind")?, part("role")?, ts.to_js_string(), part("text")?)))
}

/// `appendTranscript(existing, entries)`: the transcript after appending `entries`.
/// `existing` may be `null`/`undefined` (an empty transcript).
pub fn append_transcript(existing: &Js, entries: &Js) -> Result<Js, String> {
    let existing: &[Js] = match existing {
        Js::Arr(items) => items,
        Js::Undefined | Js::Null => &[],
        _ => return Err("appendTranscript: the transcript must be an array".into()),
    };
    let Js::Arr(incoming) = entries else {
        return Err("entries is not iterable".into());
    };
    let mut ids: HashSet<IdKey> = HashSet::new();
    for e in existing {
        ids.extend(id_key(field(e, "entryId")?));
    }
    let mut sigs: HashSet<String> = HashSet::new();
    for e in &existing[existing.len().saturating_sub(SIG_WINDOW)..] {
        sigs.extend(signature(e)?);
    }
    let mut fresh: Vec<&Js> = Vec::new();
    for e in incoming {
        let id = id_key(field(e, "entryId")?);
        if id.as_ref().is_some_and(|k| ids.contains(k)) {
            continue;
        }
        let sig = signature(e)?;
        if sig.as_ref().is_some_and(|s| sigs.contains(s)) {
            continue;
        }
        ids.extend(id);
        sigs.extend(sig);
        fresh.push(e);
    }
    if fresh.is_empty() {
        return Ok(Js::Arr(existing.to_vec()));
    }
    let total = existing.len() + fresh.len();
    let skip = total.saturating_sub(CAP);
    let merged = existing.iter().chain(fresh).skip(skip).cloned().collect();
    Ok(Js::Arr(merged))
}
