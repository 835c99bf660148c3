//! What a [`Classification`] holds between records: the calls still awaiting an answer, in
//! insertion order (a JS `Map`: re-setting keeps the position; the oldest is evicted first
//! at [`OUTSTANDING_CALLS`]), and the reading's state as JSON for callers that keep it
//! across calls (the JS `Classification` shim, which cannot hold a Rust value).

use super::classify::{Classification, OUTSTANDING_CALLS};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// A call awaiting its answer: where its items are, and what an answer needs of them.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Pending {
    pub(super) name: String,
    pub(super) tool: (u64, String),
    /// The `message:sub:out` beside an `Agent`/`Task` call.
    pub(super) message: Option<(u64, String)>,
    pub(super) message_agent: Option<String>,
    pub(super) tool_agent: Option<String>,
}

/// Outstanding calls in insertion order (a JS `Map`: re-setting keeps the position).
#[derive(Debug, Default, Clone)]
pub(super) struct Calls {
    order: BTreeMap<u64, String>,
    by_id: HashMap<String, (u64, Pending)>,
    next: u64,
}

impl Calls {
    pub(super) fn get(&self, id: &str) -> Option<&Pending> {
        self.by_id.get(id).map(|(_, p)| p)
    }
    pub(super) fn get_mut(&mut self, id: &str) -> Option<&mut Pending> {
        self.by_id.get_mut(id).map(|(_, p)| p)
    }
    pub(super) fn set(&mut self, id: String, p: Pending) {
        if let Some(slot) = self.by_id.get_mut(&id) {
            slot.1 = p;
            return;
        }
        self.order.insert(self.next, id.clone());
        self.by_id.insert(id, (self.next, p));
        self.next += 1;
    }
    pub(super) fn delete(&mut self, id: &str) {
        if let Some((seq, _)) = self.by_id.remove(id) {
            self.order.remove(&seq);
        }
    }
    pub(super) fn evict_oldest(&mut self) {
        if let Some((_, id)) = self.order.pop_first() {
            self.by_id.remove(&id);
        }
    }
    pub(super) fn len(&self) -> usize {
        self.by_id.len()
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = (&String, &Pending)> {
        self.order.values().filter_map(|id| self.by_id.get(id).map(|(_, p)| (id, p)))
    }
}

impl Classification {
    /// The reading's state as JSON, for a caller that keeps it between calls (the JS
    /// `Classification` shim).
    pub fn to_state(&self) -> Value {
        let calls: Vec<Value> = self
            .calls
            .iter()
            .map(|(id, p)| {
                json!([id, {
                    "name": p.name,
                    "tool": [p.tool.0, p.tool.1],
                    "message": p.message.as_ref().map(|m| json!([m.0, m.1])),
                    "message_agent": p.message_agent,
                    "tool_agent": p.tool_agent,
                }])
            })
            .collect();
        json!({"turn": self.turn, "slash": self.slash, "made": self.made, "calls": calls})
    }

    /// A reading resumed from [`Classification::to_state`]; `None` when the state is not one.
    pub fn from_state(v: &Value) -> Option<Classification> {
        let mut c = Classification {
            turn: v.get("turn")?.as_u64()?,
            slash: v.get("slash").and_then(Value::as_str).map(str::to_owned),
            made: v.get("made")?.as_u64()?,
            calls: Calls::default(),
        };
        let at = |v: Option<&Value>| -> Option<(u64, String)> {
            let a = v?.as_array()?;
            Some((a.first()?.as_u64()?, a.get(1)?.as_str()?.to_owned()))
        };
        for entry in v.get("calls")?.as_array()?.iter().take(OUTSTANDING_CALLS) {
            let id = entry.get(0)?.as_str()?;
            let p = entry.get(1)?;
            let s = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_owned);
            let pending = Pending {
                name: s("name")?,
                tool: at(p.get("tool"))?,
                message: at(p.get("message")),
                message_agent: s("message_agent"),
                tool_agent: s("tool_agent"),
            };
            c.calls.set(id.to_owned(), pending);
        }
        Some(c)
    }
}
