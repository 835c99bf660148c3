//! Building the items of one record for [`super::classify`]: the `make` of upstream (ids
//! `<uuid>:<index>`, fields in the order `id, uuid, source, type, at, turn, …`), where a
//! chunk's items are collected and links into earlier chunks become updates, and the two
//! address tests the classifier needs (a session id; a `ccmsg post|reply` command).

use super::record::{optional, Row};
use super::Item;
use crate::sessions::js;
use serde_json::Value;

/// A link written into an item an earlier chunk already handed out.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemUpdate {
    /// The item's position among every item this classification has handed out.
    pub ordinal: u64,
    pub id: String,
    pub field: String,
    pub value: Value,
}

/// The chunk being read: its items so far, and updates to earlier chunks' items.
pub(super) struct Out {
    pub(super) base: u64,
    pub(super) items: Vec<Item>,
    pub(super) updates: Vec<ItemUpdate>,
}

impl Out {
    pub(super) fn set(&mut self, at: &(u64, String), field: &str, value: Value) {
        if at.0 >= self.base {
            if let Some(item) =
                usize::try_from(at.0 - self.base).ok().and_then(|i| self.items.get_mut(i))
            {
                item.insert(field.to_owned(), value);
            }
        } else {
            self.updates.push(ItemUpdate {
                ordinal: at.0,
                id: at.1.clone(),
                field: field.to_owned(),
                value,
            });
        }
    }
}

/// Builds the items of one record (`make` upstream): ids `<uuid>:<index>`.
pub(super) struct Maker<'a> {
    pub(super) uuid: String,
    pub(super) source: Value,
    pub(super) at: Value,
    pub(super) index: usize,
    pub(super) out: &'a mut Out,
}

impl Maker<'_> {
    pub(super) fn make(&mut self, turn: u64, kind: &str, fields: Row) -> (u64, String) {
        let id = format!("{}:{}", self.uuid, self.index);
        let mut item = Item::new();
        item.insert("id".into(), Value::from(id.clone()));
        item.insert("uuid".into(), Value::from(self.uuid.clone()));
        item.insert("source".into(), self.source.clone());
        item.insert("type".into(), Value::from(kind));
        item.insert("at".into(), self.at.clone());
        item.insert("turn".into(), Value::from(turn));
        for (k, v) in fields {
            item.insert(k, v);
        }
        self.index += 1;
        let ordinal = self.out.base + self.out.items.len() as u64;
        self.out.items.push(item);
        (ordinal, id)
    }
}

pub(super) fn fields(pairs: Vec<(&str, Option<Value>)>) -> Row {
    let mut f = Row::new();
    for (k, v) in pairs {
        optional(&mut f, k, v);
    }
    f
}

pub(super) fn sid_shaped(to: &str) -> bool {
    let groups: Vec<&str> = to.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `\bccmsg\s+(post|reply)\b`.
pub(super) fn is_ccmsg_send(command: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = command.as_bytes();
    command.match_indices("ccmsg").any(|(i, m)| {
        if i > 0 && word(bytes[i - 1]) {
            return false;
        }
        let rest = &command[i + m.len()..];
        let after = js::trim_start(rest);
        if after.len() == rest.len() {
            return false;
        }
        ["post", "reply"].iter().any(|v| {
            after.strip_prefix(v).is_some_and(|r| !r.as_bytes().first().is_some_and(|b| word(*b)))
        })
    })
}
