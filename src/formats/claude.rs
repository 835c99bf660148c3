//! TODO(stub): claude runtime. Replaced by the real module.

use super::common::{self, Confidence};
use crate::entry::Entry;
use serde_json::Value;

#[derive(Debug, Default)]
pub struct State {}

pub fn detect(_v: &Value) -> Confidence {
    Confidence::No
}

pub fn parse(v: &Value, _line: &str, ts: &str, _state: Option<&mut State>, out: &mut Vec<Entry>) {
    out.push(common::unknown_event(ts, "claude", v));
}
