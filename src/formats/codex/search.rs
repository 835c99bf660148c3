//! Codex web searches: what was searched and what came back, the same
//! way on every wire that records one: the `codex exec --json` `web_search` item, the
//! rollout `web_search_call` response item, and the legacy / rollout `web_search_end`
//! event.
//!
//! Shapes read (openai/codex `WebSearchItem`, `WebSearchAction` in `codex-rs/protocol`,
//! and the Responses API's `web_search_call`): a top-level `query`; an `action` of type
//! `search` (`query`, `queries[]`, `sources[]` with `url`/`title`), `open_page`/`openPage`
//! (`url`), `find_in_page`/`findInPage` (`url`, `pattern`) or `other` (the placeholder of a
//! search just started); and `results[]`, each with `title`, `url`, a snippet
//! (`snippet`/`text`/`content`/`description`) and its own `error`.
//!
//! The call's input names what was asked (`query`, `queries` when there are several, `url`,
//! `pattern`); the result lists the queries, then each result as `title — url` with its
//! snippet indented below, or `url: error: …`. Nothing is invented: a search that records
//! no query says so instead of showing `"searched: "`.

use crate::prelude::*;
use crate::formats::common::{nonempty_str, object, type_of, Owned};
use crate::json::{Json, Value};
use core::fmt::Write;

/// The queries of a search, in order, without repeats: the item's `query`, the action's
/// `query` and its `queries[]`.
fn queries<'a>(item: &'a Value) -> Vec<&'a str> {
    let action = action(item);
    let mut out: Vec<&str> = Vec::new();
    let many = action
        .and_then(|a| a.get("queries"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    let one = [nonempty_str(item, "query"), action.and_then(|a| nonempty_str(a, "query"))];
    for q in one.into_iter().flatten().chain(many) {
        let q = q.trim();
        if !q.is_empty() && !out.contains(&q) {
            out.push(q);
        }
    }
    out
}

fn action<'a, 'b>(item: &'a Value<'b>) -> Option<&'a Value<'b>> {
    item.get("action").filter(|a| !a.is_null())
}

/// The action's type, with the app-server's camelCase names read as the snake_case ones.
fn kind<'a>(item: &'a Value) -> &'a str {
    match action(item).map(type_of).unwrap_or("") {
        "openPage" => "open_page",
        "findInPage" => "find_in_page",
        other => other,
    }
}

fn action_str<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    action(item).and_then(|a| nonempty_str(a, key)).or_else(|| nonempty_str(item, key))
}

/// The tool input a search is shown with.
pub(super) fn input(item: &Value) -> Json {
    let qs = queries(item);
    let (url, pattern) = match kind(item) {
        "open_page" => (action_str(item, "url"), None),
        "find_in_page" => (action_str(item, "url"), action_str(item, "pattern")),
        _ => (None, None),
    };
    object([
        ("query", qs.first().map(|q| Json::from(*q))),
        ("queries", (qs.len() > 1).then(|| Json::from(qs.clone()))),
        ("url", url.map(Json::from)),
        ("pattern", pattern.map(Json::from)),
    ])
}

/// The result text of a finished search (what was searched, what came back), and whether
/// it failed: its status says so, it carries an `error`, or every result is an error.
pub(super) fn result(item: &Value) -> (String, bool) {
    let mut text = String::new();
    let mut line = |s: String| {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&s);
    };
    match kind(item) {
        "open_page" => line(format!("opened: {}", action_str(item, "url").unwrap_or("?"))),
        "find_in_page" => line(format!(
            "find '{}' in {}",
            action_str(item, "pattern").unwrap_or(""),
            action_str(item, "url").unwrap_or("?")
        )),
        _ => {
            let qs = queries(item);
            if qs.is_empty() {
                line("web search (no query recorded)".owned());
            }
            for q in qs {
                line(format!("searched: {q}"));
            }
        }
    }
    // Sources the search action lists (Responses API), when no results are given.
    let results = item.get("results").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let sources = action(item)
        .and_then(|a| a.get("sources"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let shown = if results.is_empty() { sources } else { results };
    let mut errors = 0;
    for (i, r) in shown.iter().enumerate() {
        let mut entry = format!("{}.", i + 1);
        let title = nonempty_str(r, "title");
        let url = nonempty_str(r, "url");
        match (title, url) {
            (Some(t), Some(u)) => {
                let _ = write!(entry, " {t} — {u}");
            }
            (Some(s), None) | (None, Some(s)) => {
                let _ = write!(entry, " {s}");
            }
            (None, None) => {}
        }
        if let Some(e) = error_of(r.get("error")) {
            errors += 1;
            let _ = write!(entry, ": error: {e}");
        }
        let snippet = ["snippet", "text", "content", "description"]
            .iter()
            .find_map(|k| nonempty_str(r, k));
        if let Some(s) = snippet {
            for l in s.trim().lines() {
                let _ = write!(entry, "\n   {l}");
            }
        }
        if entry.len() > format!("{}.", i + 1).len() {
            line(entry);
        }
    }
    let status = nonempty_str(item, "status").unwrap_or("");
    let failed_status = matches!(status, "failed" | "error" | "errored" | "cancelled" | "declined");
    let item_error = error_of(item.get("error"));
    if let Some(e) = &item_error {
        line(format!("error: {e}"));
    } else if failed_status {
        line(format!("search {status}"));
    }
    let all_failed = !results.is_empty() && errors == results.len();
    (text, failed_status || item_error.is_some() || all_failed)
}

/// An error value's text: a string, or an object's `message`.
fn error_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().owned()),
        e @ Value::Object(_) => nonempty_str(e, "message")
            .or_else(|| nonempty_str(e, "code"))
            .or_else(|| nonempty_str(e, "type"))
            .map(str::owned),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_results_and_errors_are_shown() {
        let j = serde_json::json!({"id":"ws","type":"web_search","query":"",
            "action":{"type":"search","query":"a","queries":["a","b"]},
            "results":[{"title":"T","url":"https://t","snippet":"one\ntwo"},{"url":"https://x","error":{"message":"timeout"}}]});
        let item = Value::from_json(&j);
        assert_eq!(input(&item), serde_json::json!({"query":"a","queries":["a","b"]}));
        let (text, failed) = result(&item);
        assert_eq!(text, "searched: a\nsearched: b\n1. T — https://t\n   one\n   two\n2. https://x: error: timeout");
        assert!(!failed);
        let j = serde_json::json!({"type":"web_search","query":"","action":{"type":"other"}});
        let other = Value::from_json(&j);
        assert_eq!(input(&other), serde_json::json!({}));
        assert_eq!(result(&other), ("web search (no query recorded)".to_owned(), false));
        let j = serde_json::json!({"action":{"type":"openPage","url":"https://u"}});
        let page = Value::from_json(&j);
        assert_eq!(input(&page), serde_json::json!({"url":"https://u"}));
        assert_eq!(result(&page).0, "opened: https://u");
    }
}
