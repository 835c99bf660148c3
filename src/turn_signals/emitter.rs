//! `createTurnSignalEmitter(emit)`'s state: per turn text, the events in upstream order —
//! every view (never deduped), each error not yet reported by this emitter, `ready-for-merge`
//! once, and `open-pr` when the parsed pull request differs from the last one emitted.
//! The JS shim (`pkg-template/shims/frames.js`) keeps this state as an opaque value and
//! calls `turnSignalEmitterStep(state, text)` per turn.

use crate::prelude::*;
use super::{
    error_js, parse_errors, parse_markdown_views, parse_pull_request, parse_ready_for_merge, pr_js,
    text_arg, view_js,
};
use crate::js::{Js, Obj};

/// How many distinct error keys an emitter remembers (oldest forgotten first).
const MAX_REPORTED: usize = 1024;

/// The dedupe state one emitter holds across the turns it covers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnSignalEmitter {
    ready: bool,
    described: Option<String>,
    reported: Vec<String>,
}

fn event(kind: &str, body: Obj) -> Js {
    let mut o = Obj::new().with("kind", kind.into());
    for (k, v) in body.iter() {
        o.set(k, v.clone());
    }
    o.into()
}

impl TurnSignalEmitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// The events one turn's text produces, in order (objects shaped as upstream emits them).
    pub fn step(&mut self, text: &str) -> Vec<Js> {
        let mut events = Vec::new();
        for view in parse_markdown_views(text) {
            events.push(event("view", view_js(&view)));
        }
        for error in parse_errors(text) {
            let key = format!("{}\n{}", error.headline, error.detail.as_deref().unwrap_or(""));
            if self.reported.contains(&key) {
                continue;
            }
            if self.reported.len() >= MAX_REPORTED {
                self.reported.remove(0);
            }
            self.reported.push(key);
            events.push(event("error", error_js(&error)));
        }
        if !self.ready && parse_ready_for_merge(text) {
            self.ready = true;
            events.push(event("ready-for-merge", Obj::new()));
        }
        if let Some(pr) = parse_pull_request(text) {
            let seen = format!(
                "{}\n{}",
                pr.title.as_deref().unwrap_or(""),
                pr.description.as_deref().unwrap_or("")
            );
            if self.described.as_deref() != Some(seen.as_str()) {
                self.described = Some(seen);
                events.push(event("open-pr", pr_js(&pr)));
            }
        }
        events
    }

    /// The state as a JS value (for the shim to hold).
    pub fn to_js(&self) -> Js {
        Obj::new()
            .with("ready", self.ready.into())
            .with("described", self.described.clone().map_or(Js::Null, Js::Str))
            .with("reported", Js::Arr(self.reported.iter().map(|k| Js::from(k.as_str())).collect()))
            .into()
    }

    /// The state back from [`TurnSignalEmitter::to_js`]; anything else is a fresh emitter.
    pub fn from_js(v: &Js) -> Self {
        let reported = match v.get("reported") {
            Js::Arr(keys) => keys.iter().filter_map(Js::as_str).map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        TurnSignalEmitter {
            ready: v.get("ready") == &Js::Bool(true),
            described: v.get("described").as_str().map(str::to_owned),
            reported,
        }
    }
}

/// `turnSignalEmitterStep(state, text)` → `{state, events}`.
pub(crate) fn step_js(state: &Js, text: &Js) -> Result<Js, String> {
    let mut emitter = TurnSignalEmitter::from_js(state);
    let text = text_arg(text)?;
    let events = emitter.step(text);
    Ok(Obj::new().with("state", emitter.to_js()).with("events", Js::Arr(events)).into())
}
