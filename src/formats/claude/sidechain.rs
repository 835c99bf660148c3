//! Subagents in Claude Code session files. A subagent's messages are `isSidechain: true`
//! lines: inline in the main file in older versions (the `session-happy-task_non_sdk`
//! capture), in their own `subagents/agent-<agentId>.jsonl` file in newer ones (with
//! `agentId`); neither names the `Task`/`Agent` call that started it, which stream-json's
//! `parent_tool_use_id` does. So that subagent traffic is marked as such on both paths:
//! - the stateful parser remembers the prompts of recent `Task`/`Agent` calls; a sidechain
//!   root (a `user` line with no `parentUuid`) whose text is one of them belongs to that call,
//!   and every line whose `parentUuid` chain leads to it does too; that prompt itself is not
//!   shown again (the call's input holds it);
//! - otherwise (a line read alone, or a subagent file without its main file) the parent is
//!   `agent-<agentId>`, or `sidechain`: the rows are still marked as a subagent's, and its
//!   prompt is a notice, not the human's message (`Entry::with_parent`).
//!
//! Bounded: the last [`MAX_TASKS`] prompts and [`MAX_CHAIN`] message ids.

use crate::prelude::*;
use super::super::common::{str_of, Owned};
use crate::text::{fnv1a, FNV_OFFSET};
use crate::json::Value;
use std::collections::VecDeque;

/// `Task`/`Agent` prompts remembered.
pub const MAX_TASKS: usize = 32;
/// Sidechain message ids remembered with their parent call.
pub const MAX_CHAIN: usize = 512;
/// Longest id kept (longer ones are not remembered).
const MAX_ID: usize = 256;

#[derive(Debug, Default)]
pub struct Chains {
    tasks: VecDeque<(u64, String)>,
    chain: VecDeque<(String, String)>,
}

fn remember<T>(q: &mut VecDeque<T>, max: usize, item: T) {
    if q.len() >= max {
        q.pop_front();
    }
    q.push_back(item);
}

/// The text of a message's content: a string, or its text blocks joined.
fn content_text(msg: &Value) -> String {
    match msg.get("content") {
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Array(blocks)) => crate::text::join(
            blocks.iter().filter(|b| str_of(b, "type") == Some("text")).filter_map(|b| str_of(b, "text")),
            "\n",
        ),
        _ => String::new(),
    }
}

/// The parent call of a session-file line (`None` for the main agent's lines), and whether
/// the line is a subagent's prompt already shown in its call's input.
pub(super) fn parent(rec: &Value, role: &str, mut state: Option<&mut Chains>) -> (Option<String>, bool) {
    let msg = rec.get("message");
    if let (Some(st), "assistant", Some(m)) = (state.as_deref_mut(), role, msg) {
        if let Some(Value::Array(blocks)) = m.get("content") {
            for b in blocks.iter().filter(|b| str_of(b, "type") == Some("tool_use")) {
                let task = matches!(str_of(b, "name"), Some("Task" | "Agent"));
                let prompt = b.get("input").and_then(|i| str_of(i, "prompt"));
                if let (true, Some(p), Some(id)) = (task, prompt, str_of(b, "id").filter(|i| i.len() <= MAX_ID)) {
                    remember(&mut st.tasks, MAX_TASKS, (fnv1a(FNV_OFFSET, p.trim().bytes()), id.owned()));
                }
            }
        }
    }
    if rec.get("isSidechain").and_then(Value::as_bool) != Some(true) || rec.get("parent_tool_use_id").is_some() {
        return (None, false);
    }
    let fallback = || match str_of(rec, "agentId") {
        Some(a) => format!("agent-{a}"),
        None => "sidechain".owned(),
    };
    let Some(st) = state else { return (Some(fallback()), false) };
    let root = str_of(rec, "parentUuid").is_none() && role == "user";
    let found = match str_of(rec, "parentUuid") {
        None if root => {
            let h = fnv1a(FNV_OFFSET, content_text(msg.unwrap_or(&Value::Null)).trim().bytes());
            st.tasks.iter().position(|(p, _)| *p == h).and_then(|i| st.tasks.remove(i)).map(|(_, id)| id)
        }
        Some(up) => st.chain.iter().rev().find(|(u, _)| u == up).map(|(_, p)| p.clone()),
        None => None,
    };
    let shown = root && found.is_some();
    let parent = found.unwrap_or_else(fallback);
    if let Some(uuid) = str_of(rec, "uuid").filter(|u| u.len() <= MAX_ID) {
        remember(&mut st.chain, MAX_CHAIN, (uuid.owned(), parent.clone()));
    }
    (Some(parent), shown)
}
