//! Which items a dump keeps (kawaz/ccmsg `src/transcript/items/select.ts` @ `7b43ca46`).
//!
//! A selection is a list read left to right; each element is a type (`tool:Bash`), a
//! prefix at segment boundaries (`tool` reaches `tool:Bash`, `notice` never reaches
//! `noticeboard`), either negated with `-`, or `@name` for a preset expanded in place (a
//! negated preset negates each of its elements). For each type the last element that
//! reaches it decides; nothing reaching it means not kept. Asking for nothing means the
//! default `["*", "-system:attachment"]` (everything but attachments); `no_thinking` and
//! `no_agent` append their exclusions last. The pseudo-type `ids` decides whether the
//! dump carries its id ledger.
//!
//! At selection time an unknown preset or a cycle expands to nothing, as upstream:
//! refusing them is [`super::config::dump_config`]'s job (and the CLI's, for `--select`).

use super::Item;
use serde_json::{Map, Value};

/// Stands for every type; spelled with a character no type may hold.
pub const EVERYTHING: &str = "*";
/// The ledger's pseudo-type.
pub const IDS: &str = "ids";
/// What a dump keeps when nobody said.
pub const DEFAULT_TYPES: [&str; 2] = [EVERYTHING, "-system:attachment"];

/// A named selection (`DumpPreset`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpPreset {
    pub name: String,
    pub description: Option<String>,
    pub types: Vec<String>,
}

impl DumpPreset {
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("name".into(), Value::from(self.name.clone()));
        if let Some(d) = &self.description {
            o.insert("description".into(), Value::from(d.clone()));
        }
        o.insert("opts".into(), serde_json::json!({ "types": self.types }));
        Value::Object(o)
    }

    /// Reads a preset leniently (`{name, description?, opts: {types}}`); `None` when it
    /// has no name. Validation with messages is [`super::config::dump_config`].
    pub fn from_json(v: &Value) -> Option<DumpPreset> {
        let name = v.get("name")?.as_str()?.to_owned();
        let description = v.get("description").and_then(Value::as_str).map(str::to_owned);
        let types = v
            .get("opts")
            .and_then(|o| o.get("types"))
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        Some(DumpPreset { name, description, types })
    }
}

/// What a dump was asked to keep: `preset` is the ground, `types` applied over it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ask {
    pub types: Vec<String>,
    pub preset: Option<DumpPreset>,
    pub no_thinking: bool,
    pub no_agent: bool,
}

impl Ask {
    /// Reads `{types?, preset?, no_thinking?, no_agent?}` leniently.
    pub fn from_json(v: &Value) -> Ask {
        let strings = |x: Option<&Value>| -> Vec<String> {
            x.and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default()
        };
        Ask {
            types: strings(v.get("types")),
            preset: v.get("preset").and_then(DumpPreset::from_json),
            no_thinking: v.get("no_thinking") == Some(&Value::Bool(true)),
            no_agent: v.get("no_agent") == Some(&Value::Bool(true)),
        }
    }
}

/// A selection with its presets expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The elements as applied (what a dump file's `types` states).
    pub elements: Vec<String>,
    /// Whether the dump carries the id ledger.
    pub ids: bool,
}

impl Selection {
    /// Whether an item of this type is kept.
    pub fn keeps(&self, ty: &str) -> bool {
        decide(ty, &self.elements)
    }
}

/// The selection `ask` makes over the configured `presets`.
pub fn selection(ask: &Ask, presets: &[DumpPreset]) -> Selection {
    let mut asked: Vec<String> = ask.preset.as_ref().map(|p| p.types.clone()).unwrap_or_default();
    asked.extend(ask.types.iter().cloned());
    if asked.is_empty() {
        asked = DEFAULT_TYPES.iter().map(|s| s.to_string()).collect();
    }
    if ask.no_thinking {
        asked.push("-thinking".into());
    }
    if ask.no_agent {
        asked.push("-message:sub".into());
        asked.push("-tool:Agent".into());
    }
    let mut elements = Vec::new();
    expand(&asked, presets, &mut Vec::new(), &mut elements);
    let ids = decide(IDS, &elements);
    Selection { elements, ids }
}

/// Whether one type survives the list: the last element reaching it decides.
pub fn decide(ty: &str, elements: &[String]) -> bool {
    let mut kept = false;
    for e in elements {
        let (negated, name) = match e.strip_prefix('-') {
            Some(n) => (true, n),
            None => (false, e.as_str()),
        };
        if reaches(name, ty) {
            kept = !negated;
        }
    }
    kept
}

fn reaches(name: &str, ty: &str) -> bool {
    name == EVERYTHING || ty == name || ty.strip_prefix(name).is_some_and(|r| r.starts_with(':'))
}

/// How deep presets may nest (a guard for the stack; real configs nest a few levels).
const MAX_DEPTH: usize = 64;

/// Expands `@name` elements in place; `path` holds the presets being expanded (a name met
/// again on it, or one not configured, expands to nothing). A negated preset's expansion
/// has each element negated.
fn expand(
    elements: &[String],
    presets: &[DumpPreset],
    path: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    for e in elements {
        let (negated, name) = match e.strip_prefix('-') {
            Some(n) => (true, n),
            None => (false, e.as_str()),
        };
        let Some(preset_name) = name.strip_prefix('@') else {
            out.push(e.clone());
            continue;
        };
        let Some(preset) = presets.iter().find(|p| p.name == preset_name) else {
            continue;
        };
        if path.len() >= MAX_DEPTH || path.iter().any(|p| p == name) {
            continue;
        }
        path.push(name.to_owned());
        let mut inner = Vec::new();
        expand(&preset.types, presets, path, &mut inner);
        path.pop();
        if negated {
            out.extend(inner.iter().map(|e| negated_element(e)));
        } else {
            out.extend(inner);
        }
    }
}

fn negated_element(e: &str) -> String {
    match e.strip_prefix('-') {
        Some(n) => n.to_owned(),
        None => format!("-{e}"),
    }
}

/// The kept items in order, and how many of each type.
pub fn select(items: &[Item], keep: &Selection) -> (Vec<Item>, Map<String, Value>) {
    let mut kept = Vec::new();
    let mut entries = Map::new();
    let mut cache: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    for item in items {
        let ty = item.get("type").and_then(Value::as_str).unwrap_or("");
        let k = *cache.entry(ty.to_owned()).or_insert_with(|| keep.keeps(ty));
        if !k {
            continue;
        }
        kept.push(item.clone());
        let n = entries.get(ty).and_then(Value::as_u64).unwrap_or(0);
        entries.insert(ty.to_owned(), Value::from(n + 1));
    }
    (kept, entries)
}
