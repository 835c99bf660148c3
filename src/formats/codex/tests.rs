//! Unit tests for the tricky Codex cases.
