//! What a [`Classification`](super::Classification) holds between records: the calls still
//! awaiting an answer, in insertion order (a JS `Map`: re-setting keeps the position; the
//! oldest is evicted first at [`OUTSTANDING_CALLS`](super::classify::OUTSTANDING_CALLS)).

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
