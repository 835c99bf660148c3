//! The JS-facing names of [`crate::sessions`] and [`crate::items`], for `crate::api`'s
//! name-based calls (one dispatcher for both, so the module list gains one line).
//!
//! | JS name | call |
//! | --- | --- |
//! | `readTranscript(input)` / `canReadTranscript(input)` | the autodetecting reader |
//! | `claudeCode_detect` / `claudeCode_read` | [`ClaudeCodeReader`] |
//! | `codex_detect` / `codex_read` / `codex_findPatches` / `codex_writesOfPatch` | [`CodexReader`] and its patch helpers |
//! | `moleculeIde_detect` / `moleculeIde_read` | [`MoleculeIdeReader`] |
//! | `autodetect_detect` / `autodetect_read` | [`autodetect`] |
//! | `transcriptNotRecognized(labels, input)` | always throws a composite reader's error (the JS `createReader` shim's) |
//! | `TRANSCRIPT_READERS` | `[{name, format, label}]` of the bundled readers |
//!
//! `input` is `{ text, fileName? }`; a missing or non-string `text` throws.

use super::{
    autodetect, codex_patch, not_recognized, ClaudeCodeReader, CodexReader, MoleculeIdeReader,
    TranscriptInput, TranscriptReader,
};
use crate::wire::arg;
use serde_json::{json, Value};

/// Decodes a `TranscriptInput` argument.
fn input(args: &[Value]) -> Result<TranscriptInput, String> {
    let v = arg(args, 0).ok_or("expected a transcript input { text, fileName? }")?;
    let text = v
        .get("text")
        .and_then(Value::as_str)
        .ok_or("expected a transcript input { text, fileName? } with a string text")?;
    let file_name = v.get("fileName").and_then(Value::as_str).map(str::to_owned);
    Ok(TranscriptInput { text: text.to_owned(), file_name })
}

fn string_arg(args: &[Value], what: &str) -> Result<String, String> {
    arg(args, 0)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{what} must be a string"))
}

fn detect(r: &dyn TranscriptReader, args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(r.detect(&input(args)?)))
}

fn read(r: &dyn TranscriptReader, args: &[Value]) -> Result<Value, String> {
    r.read(&input(args)?).map(|s| s.to_json()).map_err(|e| e.0)
}

/// The dispatcher `crate::api` asks for the session readers' names.
pub fn dispatch(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    let auto = || autodetect();
    Some(match name {
        "readTranscript" | "autodetect_read" => read(&auto(), args),
        "canReadTranscript" | "autodetect_detect" => detect(&auto(), args),
        "claudeCode_detect" => detect(&ClaudeCodeReader, args),
        "claudeCode_read" => read(&ClaudeCodeReader, args),
        "codex_detect" => detect(&CodexReader, args),
        "codex_read" => read(&CodexReader, args),
        "moleculeIde_detect" => detect(&MoleculeIdeReader, args),
        "moleculeIde_read" => read(&MoleculeIdeReader, args),
        "codex_findPatches" => {
            string_arg(args, "findPatches input").map(|s| json!(codex_patch::find_patches(&s)))
        }
        "codex_writesOfPatch" => string_arg(args, "writesOfPatch patch")
            .map(|s| serde_json::to_value(codex_patch::writes_of_patch(&s)).unwrap_or(Value::Null)),
        "transcriptNotRecognized" => {
            let labels: Vec<&str> = arg(args, 0)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let file = arg(args, 1).and_then(|i| i.get("fileName")).and_then(Value::as_str);
            Err(not_recognized(&labels.join(", "), file).0)
        }
        "TRANSCRIPT_READERS" => {
            let a = auto();
            let row = |name: &str, r: &dyn TranscriptReader| json!({"name": name, "format": r.format(), "label": r.label()});
            Ok(json!([
                row("claudeCode", &ClaudeCodeReader),
                row("codex", &CodexReader),
                row("moleculeIde", &MoleculeIdeReader),
                row("autodetect", &a),
            ]))
        }
        _ => return None,
    })
}
