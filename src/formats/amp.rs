//! Amp (`amp --execute "<prompt>" --stream-json`, also `amp threads continue -x …
//! --stream-json`): Sourcegraph's CLI prints a Claude Code compatible stream
//! (`system`/`init`, `user`, `assistant`, `result`); `--stream-json-thinking` adds Claude
//! style thinking blocks. What sets it apart is the thread id used as `session_id`
//! (`T-<uuid>`), and error results carry a plain `error` string.
//!
//! Evidence: the example stream in Amp's announcement (ampcode.com/news/streaming-json)
//! and the owner's manual ("Claude Code compatible stream JSON output"), plus hand-written
//! test fixtures from littlebearapps/untether (see `tests/fixtures/amp/PROVENANCE.md`).
//! Every line is read by the Claude module (`claude::parse_as`), with "amp" naming the
//! runtime in fallback notices. Details in `docs/formats/amp.md`.

use crate::prelude::*;
use super::claude;
use super::common::{str_of, type_of, Confidence};
use crate::entry::Entry;
use crate::json::Value;

#[derive(Debug, Default)]
pub struct State {
    claude: claude::State,
}

/// Sure on Amp's thread id (`session_id` starting `T-`) on its four line types; shared
/// shapes without it are left to Claude (same reading either way).
pub fn detect(v: &Value) -> Confidence {
    let thread = str_of(v, "session_id").is_some_and(|s| s.starts_with("T-"));
    if thread && matches!(type_of(v), "system" | "user" | "assistant" | "result") {
        Confidence::Sure
    } else {
        Confidence::No
    }
}

pub fn parse(v: &Value, _line: &str, ts: &str, state: Option<&mut State>, out: &mut Vec<Entry>) {
    claude::parse_as("amp", v, ts, state.map(|s| &mut s.claude), out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_line;

    #[test]
    fn thread_ids_mark_amp_and_lines_read_like_claude() {
        let init = r#"{"type":"system","subtype":"init","cwd":"/w","session_id":"T-1","tools":["Bash"],"mcp_servers":[]}"#;
        let v = crate::json::read::parse(init).unwrap();
        assert_eq!(detect(&v), Confidence::Sure);
        assert_eq!(
            parse_line(init, "t"),
            vec![Entry::init("t", "unknown", "T-1")]
        );
        let err = r#"{"type":"result","subtype":"error_during_execution","is_error":true,"error":"boom","session_id":"T-1"}"#;
        match &parse_line(err, "t")[0] {
            Entry::Result {
                errors, is_error, ..
            } => {
                assert!(*is_error);
                assert_eq!(errors, &vec!["boom".to_owned()]);
            }
            other => panic!("{other:?}"),
        }
        let odd = r#"{"type":"mystery","session_id":"T-1"}"#;
        let v = crate::json::read::parse(odd).unwrap();
        assert_eq!(detect(&v), Confidence::No);
        let mut out = Vec::new();
        parse(&v, odd, "t", None, &mut out);
        assert!(
            matches!(&out[0], Entry::System { text, .. } if text.starts_with("amp event: mystery"))
        );
    }
}
