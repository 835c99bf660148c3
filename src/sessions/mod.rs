//! Normalized agent sessions: the `@molecule/api-agent-transcript` contract
//! (molecule-dev/molecule `packages/api/core/agent-transcript`, readers under
//! `packages/api/bonds/agent-transcript/{claude-code,codex,molecule-ide,autodetect}` at
//! `278176e5`). A whole transcript file in, one [`AgentSession`] out:
//!
//! - [`ClaudeCodeReader`]: Claude Code's session log (`~/.claude/projects/…/<id>.jsonl`)
//!   and its `/export` text.
//! - [`CodexReader`]: Codex CLI's rollout log (`~/.codex/sessions/…/rollout-*.jsonl`) and its
//!   Markdown export; [`codex_patch`] reads `apply_patch` bodies.
//! - [`MoleculeIdeReader`]: a stored Molecule IDE conversation (`{ messages: [...] }`).
//! - [`create_reader`] composes readers (the first whose `detect` accepts reads);
//!   [`autodetect`] is the three above, and [`read_transcript`] reads with it.
//!
//! Unlike the stdout parser this API **fails**: `read` on a file that is not the reader's
//! format returns a [`ReadError`] whose message is the upstream one, word for word (it is
//! part of the contract, and callers show it). `detect` never guesses: it is true only for
//! input the reader positively recognizes. Evidence: the upstream sources and the
//! recorded cases in `tests/fixtures/conformance/molecule/`.
//!
//! Where the TypeScript would crash on a malformed shape (a `null` content block, a
//! non-string text), these readers skip the value instead; non-string values where the
//! contract types a string (`timestamp`, `version`, `model`) are treated as absent.

pub mod api;
pub mod claude_export;
pub mod claude_jsonl;
pub mod codex_markdown;
pub mod codex_patch;
pub mod codex_rollout;
pub mod js;
pub mod molecule_ide;

use serde::Serialize;
use std::fmt;

/// Who spoke a turn. Tool calls and their results fold into the assistant turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// `create` = the whole file was written; `edit` = part of an existing file was replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteKind {
    Create,
    Edit,
}

/// A file the assistant wrote or edited during a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentFileWrite {
    pub path: String,
    pub kind: WriteKind,
    /// The whole file for `create`, the inserted text for `edit`; empty when elided.
    pub text: String,
    /// False when the transcript shows only part of the text.
    pub complete: bool,
}

/// One turn: consecutive assistant messages before the next user message form one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentTurn {
    pub role: Role,
    /// For `user`: as typed (never the harness's injected context). For `assistant`: its
    /// prose, joined by blank lines.
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Files an assistant turn wrote; always empty for user turns.
    pub files: Vec<AgentFileWrite>,
}

impl AgentTurn {
    /// A user turn.
    pub fn user(text: String, timestamp: Option<String>) -> AgentTurn {
        AgentTurn { role: Role::User, text, timestamp, model: None, files: Vec::new() }
    }

    /// An empty assistant turn.
    pub fn assistant(timestamp: Option<String>, model: Option<String>) -> AgentTurn {
        AgentTurn {
            role: Role::Assistant,
            text: String::new(),
            timestamp,
            model,
            files: Vec::new(),
        }
    }

    /// Appends a paragraph of prose (`a ? a + "\n\n" + b : b`).
    pub fn push_text(&mut self, more: &str) {
        if !self.text.is_empty() {
            self.text.push_str("\n\n");
        }
        self.text.push_str(more);
    }

    /// Whether the readers' final filter keeps it: user turns always, assistant turns
    /// with text or files.
    pub(crate) fn worth_keeping(&self) -> bool {
        self.role == Role::User || !self.text.is_empty() || !self.files.is_empty()
    }
}

/// A whole session, normalized.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentSession {
    /// The reader that produced it: `claude-code`, `codex`, `molecule-ide`.
    pub format: String,
    /// The harness's own name, e.g. `Claude Code`.
    pub harness: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harness_version: Option<String>,
    /// Set only when one model is named for the whole session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    pub turns: Vec<AgentTurn>,
}

impl AgentSession {
    /// An empty session (for readers of other formats built on this contract).
    pub fn new(format: &str, harness: &str) -> AgentSession {
        AgentSession {
            format: format.to_owned(),
            harness: harness.to_owned(),
            harness_version: None,
            model: None,
            started_at: None,
            turns: Vec::new(),
        }
    }

    /// The session as JSON (the shape the JS API returns).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// A transcript to read: its full text and, when known, its file name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TranscriptInput {
    pub text: String,
    pub file_name: Option<String>,
}

impl TranscriptInput {
    pub fn new(text: impl Into<String>) -> TranscriptInput {
        TranscriptInput { text: text.into(), file_name: None }
    }

    pub fn named(text: impl Into<String>, file_name: impl Into<String>) -> TranscriptInput {
        TranscriptInput { text: text.into(), file_name: Some(file_name.into()) }
    }

    /// ` (<name>)` when a non-empty name is known, else nothing.
    fn name_suffix(&self) -> String {
        match self.file_name.as_deref() {
            Some(n) if !n.is_empty() => format!(" ({n})"),
            _ => String::new(),
        }
    }
}

/// Why a transcript could not be read. The message is the contract's, word for word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}

/// What every reader implements.
pub trait TranscriptReader {
    /// A stable id for the format family, e.g. `claude-code`.
    fn format(&self) -> &str;
    /// A human label, e.g. `Claude Code`.
    fn label(&self) -> &str;
    /// True only when the input is positively this reader's format.
    fn detect(&self, input: &TranscriptInput) -> bool;
    /// The normalized session, or the reader's error when the input is not its format.
    fn read(&self, input: &TranscriptInput) -> Result<AgentSession, ReadError>;
}

/// Claude Code: session `.jsonl` (preferred) or `/export` text.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeCodeReader;

impl TranscriptReader for ClaudeCodeReader {
    fn format(&self) -> &str {
        "claude-code"
    }
    fn label(&self) -> &str {
        "Claude Code"
    }
    fn detect(&self, input: &TranscriptInput) -> bool {
        claude_jsonl::looks_like(&input.text) || claude_export::looks_like(&input.text)
    }
    fn read(&self, input: &TranscriptInput) -> Result<AgentSession, ReadError> {
        if claude_jsonl::looks_like(&input.text) {
            return Ok(claude_jsonl::read(&input.text));
        }
        if claude_export::looks_like(&input.text) {
            return Ok(claude_export::read(&input.text));
        }
        Err(ReadError(format!(
            "Not a Claude Code transcript{}: expected a session .jsonl or a /export text.",
            input.name_suffix()
        )))
    }
}

/// Codex CLI: rollout `.jsonl` (preferred) or Markdown export.
#[derive(Debug, Clone, Copy, Default)]
pub struct CodexReader;

impl TranscriptReader for CodexReader {
    fn format(&self) -> &str {
        "codex"
    }
    fn label(&self) -> &str {
        "Codex CLI"
    }
    fn detect(&self, input: &TranscriptInput) -> bool {
        codex_rollout::looks_like(&input.text) || codex_markdown::looks_like(&input.text)
    }
    fn read(&self, input: &TranscriptInput) -> Result<AgentSession, ReadError> {
        if codex_rollout::looks_like(&input.text) {
            return Ok(codex_rollout::read(&input.text));
        }
        if codex_markdown::looks_like(&input.text) {
            return Ok(codex_markdown::read(&input.text));
        }
        Err(ReadError(format!(
            "Not a Codex CLI transcript{}: expected a rollout .jsonl or a Markdown export.",
            input.name_suffix()
        )))
    }
}

/// A stored Molecule IDE conversation.
#[derive(Debug, Clone, Copy, Default)]
pub struct MoleculeIdeReader;

impl TranscriptReader for MoleculeIdeReader {
    fn format(&self) -> &str {
        "molecule-ide"
    }
    fn label(&self) -> &str {
        "Molecule IDE"
    }
    fn detect(&self, input: &TranscriptInput) -> bool {
        molecule_ide::looks_like(&input.text)
    }
    fn read(&self, input: &TranscriptInput) -> Result<AgentSession, ReadError> {
        molecule_ide::read(&input.text).ok_or_else(|| {
            ReadError(
                "Not a Molecule IDE conversation: expected { messages: [...] } with tool calls."
                    .to_owned(),
            )
        })
    }
}

/// Readers composed: the first whose `detect` accepts the input reads it.
pub struct CompositeReader {
    readers: Vec<Box<dyn TranscriptReader + Send + Sync>>,
    label: String,
}

impl fmt::Debug for CompositeReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompositeReader").field("label", &self.label).finish()
    }
}

/// `createReader(readers)`: one reader over all of them, in order.
pub fn create_reader(readers: Vec<Box<dyn TranscriptReader + Send + Sync>>) -> CompositeReader {
    let labels: Vec<&str> = readers.iter().map(|r| r.label()).collect();
    let label = labels.join(", ");
    CompositeReader { readers, label }
}

/// The error a composite reader gives when no reader recognizes the input. Unlike the
/// single readers, an empty file name is kept (`??` only replaces a missing one).
pub fn not_recognized(labels: &str, file_name: Option<&str>) -> ReadError {
    ReadError(format!(
        "No transcript reader recognizes {}. Readers tried: {labels}.",
        file_name.unwrap_or("this file")
    ))
}

impl CompositeReader {
    /// The reader that would read `input`.
    pub fn pick(&self, input: &TranscriptInput) -> Option<&(dyn TranscriptReader + Send + Sync)> {
        self.readers.iter().find(|r| r.detect(input)).map(|b| b.as_ref())
    }
}

impl TranscriptReader for CompositeReader {
    fn format(&self) -> &str {
        "autodetect"
    }
    fn label(&self) -> &str {
        &self.label
    }
    fn detect(&self, input: &TranscriptInput) -> bool {
        self.pick(input).is_some()
    }
    fn read(&self, input: &TranscriptInput) -> Result<AgentSession, ReadError> {
        match self.pick(input) {
            Some(r) => r.read(input),
            None => Err(not_recognized(&self.label, input.file_name.as_deref())),
        }
    }
}

/// The bundled autodetecting reader: Claude Code, Codex CLI, Molecule IDE, in that order.
pub fn autodetect() -> CompositeReader {
    create_reader(vec![
        Box::new(ClaudeCodeReader),
        Box::new(CodexReader),
        Box::new(MoleculeIdeReader),
    ])
}

/// Reads any Claude Code, Codex CLI or Molecule IDE transcript.
pub fn read_transcript(input: &TranscriptInput) -> Result<AgentSession, ReadError> {
    autodetect().read(input)
}

/// Whether [`read_transcript`] would read `input` (filter with this before reading a
/// folder: an unrecognized file is an error, never an empty session).
pub fn can_read_transcript(input: &TranscriptInput) -> bool {
    autodetect().detect(input)
}

/// `a ??= b` for the "first value seen" fields (`version ??= line.version`): the first
/// line carrying the field decides, even if its value is not a string.
#[derive(Debug, Default)]
pub(crate) struct First(Option<Option<String>>);

impl First {
    pub(crate) fn offer(&mut self, v: Option<&serde_json::Value>) {
        if self.0.is_none() {
            match v {
                None | Some(serde_json::Value::Null) => {}
                Some(v) => self.0 = Some(v.as_str().map(str::to_owned)),
            }
        }
    }

    pub(crate) fn get(self) -> Option<String> {
        self.0.flatten()
    }
}

/// The session model: set only when exactly one distinct model was seen.
#[derive(Debug, Default)]
pub(crate) struct Models(Vec<String>);

impl Models {
    pub(crate) fn add(&mut self, m: &str) {
        // Two distinct models already decide the answer; keep no more.
        if self.0.len() < 2 && !self.0.iter().any(|x| x == m) {
            self.0.push(m.to_owned());
        }
    }

    pub(crate) fn single(self) -> Option<String> {
        if self.0.len() == 1 {
            self.0.into_iter().next()
        } else {
            None
        }
    }
}
