//! The `dump` section of a config: named selections (presets), validated the way kawaz/ccmsg
//! `src/instance/config.ts` (`dumpOf` / `presetsOf` / `resolvable`) validates them, with
//! its messages word for word. Shapes are checked for every preset first, in order; then
//! each preset's `@references` are walked depth-first, refusing a name that is not
//! configured and a cycle (named where it closes: `a -> b -> a`).

use super::select::DumpPreset;
use serde_json::{json, Value};

/// `TranscriptItemSelector`'s pattern:
/// `^-?(?:@[A-Za-z0-9][A-Za-z0-9_-]*|[a-z]+(?::[A-Za-z0-9_.-]+)*)$`.
pub fn is_selector(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    if let Some(name) = s.strip_prefix('@') {
        let mut cs = name.chars();
        return cs.next().is_some_and(|c| c.is_ascii_alphanumeric())
            && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    }
    let mut parts = s.split(':');
    let head = parts.next().unwrap_or("");
    !head.is_empty()
        && head.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        })
}

fn object<'a>(
    at: &str,
    v: Option<&'a Value>,
) -> Result<&'a serde_json::Map<String, Value>, String> {
    v.and_then(Value::as_object).ok_or_else(|| format!("{at} must be an object"))
}

/// Validates a `dump` section (`None` = absent) and returns its presets in configured
/// order, or the first problem's message.
pub fn dump_config(raw: Option<&Value>) -> Result<Vec<DumpPreset>, String> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    let fields = object("dump", Some(raw))?;
    let presets = presets_of(fields.get("presets"))?;
    for p in &presets {
        resolvable(p, &presets, &mut Vec::new())?;
    }
    Ok(presets)
}

/// `{presets}` as JSON.
pub fn presets_json(presets: &[DumpPreset]) -> Value {
    json!({ "presets": presets.iter().map(DumpPreset::to_json).collect::<Vec<_>>() })
}

fn presets_of(raw: Option<&Value>) -> Result<Vec<DumpPreset>, String> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    let entries = raw.as_array().ok_or("dump.presets must be an array of named selections")?;
    let mut out: Vec<DumpPreset> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let at = format!("dump.presets[{index}]");
        let fields = object(&at, Some(entry))?;
        let name = match fields.get("name").and_then(Value::as_str) {
            Some(n) if !n.is_empty() => n,
            _ => return Err(format!("{at}.name must be a name for the selection")),
        };
        if out.iter().any(|p| p.name == name) {
            return Err(format!("{at}.name repeats {name}"));
        }
        let description = match fields.get("description") {
            None => None,
            Some(Value::String(d)) => Some(d.clone()),
            Some(_) => return Err(format!("{at}.description must be a string")),
        };
        let opts = object(&format!("{at}.opts"), fields.get("opts"))?;
        let types: Vec<String> = match opts.get("types") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|t| t.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| format!("{at}.opts.types must be an array of strings"))?,
            Some(_) => return Err(format!("{at}.opts.types must be an array of strings")),
        };
        let wrong: Vec<&str> =
            types.iter().map(String::as_str).filter(|t| !is_selector(t)).collect();
        if !wrong.is_empty() {
            return Err(format!(
                "dump.presets[{name}].opts.types must be item types, prefixes, exclusions or @presets, got {}",
                wrong.join(", ")
            ));
        }
        out.push(DumpPreset { name: name.to_owned(), description, types });
    }
    Ok(out)
}

/// How long a chain of presets naming presets may be (a guard for the stack).
const MAX_CHAIN: usize = 256;

/// Walks every `@name` a preset reaches; `path` is the chain walked so far.
fn resolvable(
    preset: &DumpPreset,
    presets: &[DumpPreset],
    path: &mut Vec<String>,
) -> Result<(), String> {
    if path.len() >= MAX_CHAIN {
        return Err(format!(
            "dump.presets[{}] is reached through more than {MAX_CHAIN} presets naming each other",
            preset.name
        ));
    }
    if path.contains(&preset.name) {
        path.push(preset.name.clone());
        return Err(format!("dump.presets reference each other in a cycle: {}", path.join(" -> ")));
    }
    for element in &preset.types {
        let name = element.strip_prefix('-').unwrap_or(element);
        let Some(target) = name.strip_prefix('@') else {
            continue;
        };
        let Some(referenced) = presets.iter().find(|p| p.name == target) else {
            return Err(format!(
                "dump.presets[{}] names {name}, which is not configured",
                preset.name
            ));
        };
        path.push(preset.name.clone());
        let r = resolvable(referenced, presets, path);
        path.pop();
        r?;
    }
    Ok(())
}

/// Checks a selection someone typed (`tool,-tool:Read,@name`) against the configured
/// presets: every element must be a selector, and every `@name` configured. The selection
/// itself silently drops an unknown preset; a command line should say so instead.
pub fn check_selection(types: &[String], presets: &[DumpPreset]) -> Result<(), String> {
    let wrong: Vec<&str> = types.iter().map(String::as_str).filter(|t| !is_selector(t)).collect();
    if !wrong.is_empty() {
        return Err(format!(
            "the selection must be item types, prefixes, exclusions (-x) or @presets, got {}",
            wrong.join(", ")
        ));
    }
    for t in types {
        let name = t.strip_prefix('-').unwrap_or(t);
        if let Some(p) = name.strip_prefix('@') {
            if !presets.iter().any(|x| x.name == p) {
                let known: Vec<&str> = presets.iter().map(|x| x.name.as_str()).collect();
                let known = if known.is_empty() {
                    "none are configured".to_owned()
                } else {
                    format!("configured: {}", known.join(", "))
                };
                return Err(format!(
                    "the selection names @{p}, which is not a configured preset ({known})"
                ));
            }
        }
    }
    Ok(())
}

/// Presets read without validation (what a selection is handed at run time).
pub fn presets_lenient(v: Option<&Value>) -> Vec<DumpPreset> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(DumpPreset::from_json).collect())
        .unwrap_or_default()
}
