//! A [`Classification`]'s state as JSON, for callers that keep it across calls (the JS
//! `Classification` shim, which cannot hold a Rust value).

use super::classify::{Classification, OUTSTANDING_CALLS};
use super::pending::{Calls, Pending};
use serde_json::{json, Value};

impl Classification {
    /// The reading's state as JSON, for a caller that keeps it between calls (the JS
    /// `Classification` shim).
    pub fn to_state(&self) -> Value {
        let calls: Vec<Value> = self
            .calls
            .iter()
            .map(|(id, p)| {
                json!([id, {
                    "name": p.name,
                    "tool": [p.tool.0, p.tool.1],
                    "message": p.message.as_ref().map(|m| json!([m.0, m.1])),
                    "message_agent": p.message_agent,
                    "tool_agent": p.tool_agent,
                }])
            })
            .collect();
        json!({"turn": self.turn, "slash": self.slash, "made": self.made, "calls": calls})
    }

    /// A reading resumed from [`Classification::to_state`]; `None` when the state is not one.
    pub fn from_state(v: &Value) -> Option<Classification> {
        let mut c = Classification {
            turn: v.get("turn")?.as_u64()?,
            slash: v.get("slash").and_then(Value::as_str).map(str::to_owned),
            made: v.get("made")?.as_u64()?,
            calls: Calls::default(),
        };
        let at = |v: Option<&Value>| -> Option<(u64, String)> {
            let a = v?.as_array()?;
            Some((a.first()?.as_u64()?, a.get(1)?.as_str()?.to_owned()))
        };
        for entry in v.get("calls")?.as_array()?.iter().take(OUTSTANDING_CALLS) {
            let id = entry.get(0)?.as_str()?;
            let p = entry.get(1)?;
            let s = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_owned);
            let pending = Pending {
                name: s("name")?,
                tool: at(p.get("tool"))?,
                message: at(p.get("message")),
                message_agent: s("message_agent"),
                tool_agent: s("tool_agent"),
            };
            c.calls.set(id.to_owned(), pending);
        }
        Some(c)
    }
}
