//! The tool a Claude Code result belongs to, read from the result line itself, so
//! `parseStdoutLine` can give `toolName` as the stateful parser does from the paired call.
//!
//! A `tool_result` block carries only the call's id, but Claude Code writes the tool's
//! structured output next to it (`toolUseResult` in session files, `tool_use_result` in
//! stream-json), and each built-in tool has its own shape. Only shapes that belong to one
//! tool are named (Bash, Read, Edit, MultiEdit, Write, Glob, Grep, WebFetch, WebSearch,
//! TodoWrite, AskUserQuestion, ExitPlanMode, TaskOutput); everything else (strings, MCP
//! results, Task vs Agent, which share a shape) is left unnamed rather than guessed. The
//! shapes were checked against every session file and stream in the corpus (each rule
//! named only results of that tool).

use super::super::common::str_of;
use crate::json::Value;

/// The built-in tool whose output `r` (a `toolUseResult` value) is, if the shape says so.
pub(super) fn of_result(r: &Value) -> Option<&'static str> {
    let Value::Object(_) = r else { return None };
    let has = |k: &str| r.get(k).is_some();
    let all = |ks: &[&str]| ks.iter().all(|k| has(k));
    let name = if all(&["stdout", "stderr", "interrupted"]) {
        "Bash"
    } else if all(&["filePath", "edits"]) {
        "MultiEdit"
    } else if all(&["filePath", "oldString", "newString"]) {
        "Edit"
    } else if all(&["filePath", "content"]) && matches!(str_of(r, "type"), Some("create" | "update")) {
        "Write"
    } else if has("file") && matches!(str_of(r, "type"), Some("text" | "image" | "notebook" | "pdf")) {
        "Read"
    } else if all(&["filenames", "numFiles", "mode"]) {
        "Grep"
    } else if all(&["filenames", "numFiles", "truncated", "durationMs"]) {
        "Glob"
    } else if all(&["bytes", "code", "codeText", "url"]) {
        "WebFetch"
    } else if all(&["query", "results", "durationSeconds"]) {
        "WebSearch"
    } else if all(&["oldTodos", "newTodos"]) {
        "TodoWrite"
    } else if all(&["questions", "answers"]) {
        "AskUserQuestion"
    } else if all(&["plan", "isAgent"]) {
        "ExitPlanMode"
    } else if all(&["retrieval_status", "task"]) {
        "TaskOutput"
    } else {
        return None;
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_name_their_tool_and_others_stay_unnamed() {
        let cases = [
            (serde_json::json!({"stdout":"a","stderr":"","interrupted":false,"isImage":false}), Some("Bash")),
            (serde_json::json!({"type":"text","file":{"filePath":"/a","content":"x"}}), Some("Read")),
            (serde_json::json!({"filePath":"/a","oldString":"x","newString":"y","structuredPatch":[]}), Some("Edit")),
            (serde_json::json!({"type":"create","filePath":"/a","content":"x"}), Some("Write")),
            (serde_json::json!({"mode":"files_with_matches","filenames":[],"numFiles":0}), Some("Grep")),
            (serde_json::json!({"status":"completed","prompt":"p","agentId":"a","content":[]}), None),
            (serde_json::json!("Error: no such file"), None),
        ];
        for (j, want) in cases {
            assert_eq!(of_result(&Value::from_json(&j)), want, "{j}");
        }
    }
}
