//! The shape of a large member that is never shown (the members a caller of
//! `read::parse_top_object` names; the runtime modules name `UNREAD_KEYS`): an object
//! keeps its keys, each with its value when that is a bool, a number or a string of at most
//! [`MAX_STR`] bytes, else `null`; nested arrays and objects are scanned, not built. Any
//! other value is `null`. Enough to tell which tool wrote a Claude `toolUseResult`
//! (`{"type":"text","file":{…}}` is Read's) at a fraction of building it. Two members are
//! kept whole, `structuredPatch` (an edit's hunks of the file's own lines, small next to the
//! `originalFile` beside it), `filePath` and `content` (a written file's text, which the
//! `Write` call already carried): the diff of a session file's edit.
//!
//! What is checked is what serde_json checked when this was a set of serde visitors (the
//! line must be accepted or refused the same way): the shape's own keys and scalar values
//! are read in full (`read.rs`); a nested array's elements, and a nested object's values,
//! are scanned the way serde_json's `IgnoredAny` scans them ([`Reader::skip`]), though a
//! nested object's own keys are still read in full.

use super::read::Reader;
use super::val::Value;
use std::borrow::Cow;

/// Longest string value kept in a shape.
pub(super) const MAX_STR: usize = 64;

impl<'a> Reader<'a> {
    /// The shape of the value at the cursor.
    pub(super) fn shape(&mut self) -> Option<Value<'a>> {
        self.ws();
        match self.peek()? {
            b'{' => {
                self.i += 1;
                let (map, _) = self.members(|r, k| match k {
                    "structuredPatch" | "filePath" | "content" => r.value(),
                    _ => r.shape_member(),
                })?;
                Some(Value::Object(map))
            }
            b'[' => {
                self.i += 1;
                self.skip_elements()?;
                Some(Value::Null)
            }
            // A scalar is read in full and dropped.
            _ => self.value().map(|_| Value::Null),
        }
    }

    /// A member value of a shape: a short scalar, or `null`.
    fn shape_member(&mut self) -> Option<Value<'a>> {
        self.ws();
        match self.peek()? {
            b'"' => {
                self.i += 1;
                let s = self.string()?;
                Some(short(s))
            }
            b'[' => {
                self.i += 1;
                self.skip_elements()?;
                Some(Value::Null)
            }
            b'{' => {
                self.i += 1;
                if self.open(b'}')? {
                    loop {
                        self.key()?;
                        self.skip()?;
                        if !self.more(b'}')? {
                            break;
                        }
                    }
                }
                Some(Value::Null)
            }
            _ => self.value(),
        }
    }

    /// An array's elements, each scanned; the cursor just past its `[`.
    fn skip_elements(&mut self) -> Option<()> {
        if self.open(b']')? {
            loop {
                self.skip()?;
                if !self.more(b']')? {
                    break;
                }
            }
        }
        Some(())
    }
}

fn short(s: Cow<'_, str>) -> Value<'_> {
    if s.len() <= MAX_STR {
        Value::String(s)
    } else {
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::parse_top_object;
    use super::*;

    #[test]
    fn keeps_keys_and_short_scalars_only() {
        let j = r#"{"r":{"type":"text","file":{"filePath":"/a","content":"x"},"n":3,"long":"0123456789012345678901234567890123456789012345678901234567890123456789","list":[1,2]}}"#;
        let (m, _) = parse_top_object(j, &["r"]).unwrap();
        let v = m.get("r").unwrap();
        assert_eq!(v.get("type").and_then(Value::as_str), Some("text"));
        assert!(v.get("file").is_some_and(Value::is_null));
        assert!(v.get("long").is_some_and(Value::is_null));
        assert!(v.get("list").is_some_and(Value::is_null));
        assert!(v.get("n").is_some_and(|n| !n.is_null()));
        let j = r#"{"r":{"type":"create","content":"0123456789012345678901234567890123456789012345678901234567890123456789","structuredPatch":[{"oldStart":1,"lines":["+a"]}]}}"#;
        let (m, _) = parse_top_object(j, &["r"]).unwrap();
        let v = m.get("r").unwrap();
        assert_eq!(v.get("content").and_then(Value::as_str).map(str::len), Some(70), "a written file's content is whole");
        assert_eq!(v.get("structuredPatch").map(Value::to_compact).as_deref(), Some(r#"[{"oldStart":1,"lines":["+a"]}]"#));
        let (m, _) = parse_top_object(r#"{"r":{"content":[{"type":"text","text":"a report"}],"file":{"content":"x"}}}"#, &["r"]).unwrap();
        assert!(m.get("r").unwrap().get("content").is_some_and(|c| c.as_array().is_some()), "kept whole, any value");
        let (m, _) = parse_top_object(r#"{"r":"Error: nope"}"#, &["r"]).unwrap();
        assert!(m.get("r").unwrap().is_null());
    }
}
