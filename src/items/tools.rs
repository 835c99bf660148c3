//! What each known tool's call and result are read as (kawaz/ccmsg
//! `src/transcript/items/tools.ts` @ `7b43ca46`; the field names are the
//! `@ccmsg/protocol` `dump.ts` tool items). A typed reader answers only when the record
//! holds what the contract requires of that shape (a `Bash` call with a command);
//! otherwise the generic `{input}` / `{result}` shape is used. Bodies are counted, never
//! carried (`Write` gives `lines`, `Edit` `old_lines`/`new_lines`).
//!
//! Upstream keeps the readers in plain objects, so a tool named after an
//! `Object.prototype` member reaches it: `toString` yields the string `[object Undefined]`
//! spread into numeric keys, `constructor` yields its argument (see the `prototype-named
//! tools` case). Those two are reproduced; the other prototype names make upstream throw a
//! `TypeError`, and are read here as tools with no reader instead.

use super::record::{bool_, count, lines, list, opt_num, opt_str, optional, row, str_, Row};
use serde_json::{json, Value};

/// `{..."[object Undefined]"}`.
fn object_undefined() -> Row {
    spread_string("[object Undefined]")
}

/// The own enumerable keys a string spreads into: one per UTF-16 position.
fn spread_string(s: &str) -> Row {
    let mut out = Row::new();
    let mut i = 0;
    for c in s.chars() {
        out.insert(i.to_string(), Value::from(c.to_string()));
        i += c.len_utf16();
    }
    out
}

/// `{...Object(v)}`.
fn spread_object(v: Option<&Value>) -> Row {
    match v {
        Some(Value::Object(o)) => o.clone(),
        Some(Value::String(s)) => spread_string(s),
        Some(Value::Array(a)) => {
            a.iter().enumerate().map(|(i, v)| (i.to_string(), v.clone())).collect()
        }
        _ => Row::new(),
    }
}

fn field<'a>(input: &'a Row, key: &str) -> Option<&'a Value> {
    input.get(key)
}

/// The typed fields of a call, or `None` where the generic `{input}` answers.
pub fn use_fields(name: &str, input: &Row) -> Option<Row> {
    let s = |k: &str| str_(field(input, k));
    let mut f = Row::new();
    match name {
        "toString" => return Some(object_undefined()),
        "constructor" => return Some(input.clone()),
        "Bash" => {
            f.insert("command".into(), s("command")?.into());
            optional(&mut f, "description", opt_str(s("description")));
        }
        "Read" => {
            f.insert("file_path".into(), s("file_path")?.into());
            optional(&mut f, "offset", opt_num(count(field(input, "offset"))));
            optional(&mut f, "limit", opt_num(count(field(input, "limit"))));
        }
        "Write" => {
            f.insert("file_path".into(), s("file_path")?.into());
            optional(&mut f, "lines", opt_num(lines(s("content"))));
        }
        "Edit" => {
            f.insert("file_path".into(), s("file_path")?.into());
            optional(&mut f, "old_lines", opt_num(lines(s("old_string"))));
            optional(&mut f, "new_lines", opt_num(lines(s("new_string"))));
        }
        "Grep" | "Glob" => {
            f.insert("pattern".into(), s("pattern")?.into());
            optional(&mut f, "path", opt_str(s("path")));
        }
        "WebFetch" => {
            f.insert("url".into(), s("url")?.into());
            optional(&mut f, "prompt", opt_str(s("prompt")));
        }
        "WebSearch" => {
            f.insert("query".into(), s("query")?.into());
        }
        "Agent" => {
            f.insert("prompt".into(), s("prompt")?.into());
            optional(&mut f, "name", opt_str(s("name")));
            optional(&mut f, "subagent_type", opt_str(s("subagent_type")));
            optional(&mut f, "description", opt_str(s("description")));
        }
        "SendMessage" => {
            f.insert("to".into(), s("to")?.into());
            optional(&mut f, "summary", opt_str(s("summary")));
        }
        "Monitor" => {
            f.insert("description".into(), s("description")?.into());
            optional(&mut f, "command", opt_str(s("command")));
            optional(&mut f, "persistent", bool_(field(input, "persistent")).map(Value::from));
            optional(&mut f, "timeout_ms", opt_num(count(field(input, "timeout_ms"))));
        }
        "Skill" => {
            f.insert("skill".into(), s("skill")?.into());
            optional(&mut f, "args", opt_str(s("args")));
        }
        "TodoWrite" => {
            let todos: Vec<Value> = list(field(input, "todos"))
                .iter()
                .filter_map(|e| {
                    let each = e.as_object()?;
                    let content = str_(each.get("content"))?;
                    let status = str_(each.get("status"))?;
                    Some(json!({"content": content, "status": status}))
                })
                .collect();
            f.insert("todos".into(), Value::Array(todos));
        }
        "TaskStop" => {
            let id = s("task_id").or_else(|| s("shell_id"))?;
            f.insert("task_id".into(), id.into());
        }
        "CronCreate" => {
            f.insert("cron".into(), s("cron")?.into());
            optional(&mut f, "prompt", opt_str(s("prompt")));
        }
        _ => return None,
    }
    Some(f)
}

/// The typed fields of a result, or `None` for a tool with no reader (generic shape).
pub fn result_fields(name: &str, result: Option<&Value>, failed: bool) -> Option<Row> {
    let fields = row(result);
    let fs = |k: &str| str_(fields.and_then(|f| f.get(k)));
    let ok = || {
        let mut f = Row::new();
        f.insert("ok".into(), Value::Bool(!failed));
        f
    };
    let mut f = Row::new();
    match name {
        "toString" => return Some(object_undefined()),
        "constructor" => return Some(spread_object(result)),
        "Bash" => match fields {
            None => optional(&mut f, "stdout", opt_str(str_(result))),
            Some(r) => {
                optional(&mut f, "stdout", opt_str(str_(r.get("stdout"))));
                optional(&mut f, "stderr", opt_str(str_(r.get("stderr"))));
                optional(&mut f, "interrupted", bool_(r.get("interrupted")).map(Value::from));
            }
        },
        "Read" => {
            let file = row(fields.and_then(|r| r.get("file")));
            let content = file.and_then(|fl| str_(fl.get("content")));
            let n = file.and_then(|fl| count(fl.get("numLines")).or_else(|| lines(content)));
            optional(&mut f, "lines", opt_num(n));
            optional(&mut f, "bytes", content.map(|c| Value::from(c.len())));
        }
        "Write" | "Edit" | "TodoWrite" | "TaskStop" => return Some(ok()),
        "Grep" | "Glob" => {
            if let Some(r) = fields {
                let n = count(r.get("numFiles")).or_else(|| count(r.get("numLines")));
                optional(&mut f, "matches", opt_num(n));
            }
        }
        "WebFetch" => {
            optional(&mut f, "text", opt_str(str_(result).or_else(|| fs("result"))));
        }
        "WebSearch" => {
            if let Some(Value::Array(a)) = fields.and_then(|r| r.get("results")) {
                f.insert("results".into(), Value::from(a.len()));
            }
        }
        "Agent" => {
            optional(&mut f, "agent_id", opt_str(fs("agentId").or_else(|| fs("agent_id"))));
            optional(&mut f, "status", opt_str(fs("status")));
        }
        "SendMessage" => {
            optional(&mut f, "msg_id", opt_str(fs("msg_id")));
            optional(&mut f, "routing", opt_str(fs("routing")));
        }
        "Monitor" => {
            optional(&mut f, "task_id", opt_str(fs("taskId").or_else(|| fs("task_id"))));
        }
        "Skill" => {
            optional(&mut f, "agent_id", opt_str(fs("agentId").or_else(|| fs("agent_id"))));
            optional(
                &mut f,
                "background",
                bool_(fields.and_then(|r| r.get("background"))).map(Value::from),
            );
            optional(&mut f, "status", opt_str(fs("status")));
        }
        "CronCreate" => {
            optional(&mut f, "cron_id", opt_str(fs("cron_id").or_else(|| fs("id"))));
        }
        _ => return None,
    }
    Some(f)
}

/// Whatever a tool with no reader answered: an object as is, a string as `{text}`.
pub fn generic_result(result: Option<&Value>) -> Row {
    if let Some(r) = row(result) {
        return r.clone();
    }
    let mut f = Row::new();
    optional(&mut f, "text", opt_str(str_(result)));
    f
}
