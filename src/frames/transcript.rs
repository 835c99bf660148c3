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

/// An `entryId` as a key with JS `Set` equality (SameValueZero: `NaN` equals itself, `-0`
/// equals `0`); objects are never equal to anything, so they have no key.
fn id_key(v: &Js) -> Option<String> {
    let (tag, text) = match v {
        Js::Undefined => ('u', String::new()),
        Js::Null => ('n', String::new()),
        Js::Bool(b) => ('b', b.to_string()),
        Js::Num(n) => ('#', js::fmt_num(*n)),
        Js::Str(s) => ('s', s.clone()),
        Js::Arr(_) | Js::Obj(_) | Js::Func => return None,
    };
    let mut key = String::with_capacity(text.len() + 1);
    key.push(tag);
    key.push_str(&text);
    Some(key)
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
    let mut ids: HashSet<String> = HashSet::new();
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
        if let Some(k) = &id {
            if ids.contains(k) {
                continue;
            }
        }
        let sig = signature(e)?;
        if let Some(s) = &sig {
            if sigs.contains(s) {
                continue;
            }
        }
        ids.extend(id);
        sigs.extend(sig);
        fresh.push(e);
    }
    if fresh.is_empty() {
        return Ok(Js::Arr(existing.to_vec()));
    }
    let skip = (existing.len() + fresh.len()).saturating_sub(CAP);
    let mut merged = Vec::with_capacity(existing.len() + fresh.len() - skip);
    for (i, e) in existing.iter().chain(fresh).enumerate() {
        if i >= skip {
            merged.push(e.clone());
        }
    }
    Ok(Js::Arr(merged))
}
