//! What a run spent, in one meaning for every runtime, and what it cost: stated by the log
//! where it states a cost, else estimated from list prices ([`crate::prices`]).
//!
//! The host-facing `result` entries keep the host's fields as each runtime's log fills them,
//! and those differ: Claude counts `inputTokens` without cache reads, Codex with them. Here
//! every count has one meaning ([`Tokens`]): uncached input, cache reads, cache writes,
//! output with reasoning, and reasoning. docs/costs.md lists, per runtime, what its log calls
//! what ([`input_includes_cache_reads`]).
//!
//! [`Usage`] follows the entries of one run: which model served each `result` (its own
//! `model`, else the last `init`'s), the tokens per model, the log's own cost, and an
//! estimate, call by call, for the calls the log gives no cost for. Results the host leaves
//! out of its summary (`paperclip_runner_session_usage`) are left out here too.

use crate::entry::Entry;
use crate::formats::Format;
use crate::prices::{self, Tokens};
use std::collections::BTreeMap;

/// The name under which tokens whose model no line named are counted.
pub const UNKNOWN_MODEL: &str = "unknown model";

/// Whether the runtime's `inputTokens` include the cache reads (`cachedTokens`), as OpenAI's
/// and Google's usage counts do; then the uncached input is the difference. From each
/// runtime's source or real captures (docs/costs.md has the evidence, runtime by runtime);
/// Letta, OpenHands and Antigravity follow the convention of the APIs they call (OpenAI's
/// `prompt_tokens`, Gemini's `promptTokenCount`). Cline, whose count depends on the provider,
/// Cursor and Droid, whose logs do not say, are taken as written.
pub fn input_includes_cache_reads(f: Format) -> bool {
    matches!(
        f,
        Format::Codex
            | Format::Gemini
            | Format::Copilot
            | Format::OpenRouter
            | Format::Goose
            | Format::HermesGateway
            | Format::Letta
            | Format::OpenHands
            | Format::Agy
    )
}

/// Whether the runtime's `inputTokens` also include the cache writes (Goose adds Anthropic's
/// `cache_creation` into its input; docs/costs.md).
pub fn input_includes_cache_writes(f: Format) -> bool {
    matches!(f, Format::Goose | Format::HermesGateway)
}

/// A finite, non-negative count (a corrupt line's `-5e6` or `NaN` counts nothing).
fn clean(n: f64) -> f64 {
    if n.is_finite() && n > 0.0 {
        n
    } else {
        0.0
    }
}

/// A `result` entry's tokens in the one meaning, given the runtime whose log it came from
/// (`None`: counted as written, as Claude counts). Other entries give `None`.
pub fn tokens_of(runtime: Option<Format>, e: &Entry) -> Option<Tokens> {
    let Entry::Result { input_tokens, output_tokens, cached_tokens, cache_creation_tokens, cache_creation_1h_tokens, reasoning_tokens, .. } =
        e
    else {
        return None;
    };
    let (input, read, write) = (clean(*input_tokens), clean(*cached_tokens), clean(cache_creation_tokens.unwrap_or(0.0)));
    // Every reader's `outputTokens` holds the reasoning (those whose log counts it apart add
    // it in), so `reasoningTokens` is the part of it that was reasoning.
    let reasoning = clean(reasoning_tokens.unwrap_or(0.0));
    let output = clean(*output_tokens);
    let inclusive = runtime.is_some_and(input_includes_cache_reads);
    let writes_in = runtime.is_some_and(input_includes_cache_writes);
    Some(Tokens {
        input: match (inclusive, writes_in) {
            (true, true) => (input - read - write).max(0.0),
            (true, false) => (input - read).max(0.0),
            _ => input,
        },
        cache_read: read,
        cache_write: write,
        cache_write_1h: clean(cache_creation_1h_tokens.unwrap_or(0.0)).min(write),
        output,
        reasoning: reasoning.min(output),
    })
}

/// One model's share of a run (or of many runs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelUsage {
    /// `result` entries counted (model calls, turns or runs, as the runtime reports).
    pub results: u64,
    pub tokens: Tokens,
    /// The cost the log states.
    pub stated_usd: f64,
    /// The estimate for results that state no cost, from list prices.
    pub estimated_usd: f64,
    /// Results that spent tokens, stated no cost and whose model has no price.
    pub unpriced: u64,
}

impl ModelUsage {
    pub fn add(&mut self, o: &ModelUsage) {
        self.results += o.results;
        self.tokens.add(&o.tokens);
        self.stated_usd += o.stated_usd;
        self.estimated_usd += o.estimated_usd;
        self.unpriced += o.unpriced;
    }

    /// Takes `o` (a part of this) out again: a result counted in an earlier file.
    pub fn sub(&mut self, o: &ModelUsage) {
        let less = |a: &mut f64, b: f64| *a = (*a - b).max(0.0);
        self.results = self.results.saturating_sub(o.results);
        less(&mut self.tokens.input, o.tokens.input);
        less(&mut self.tokens.cache_read, o.tokens.cache_read);
        less(&mut self.tokens.cache_write, o.tokens.cache_write);
        less(&mut self.tokens.cache_write_1h, o.tokens.cache_write_1h);
        less(&mut self.tokens.output, o.tokens.output);
        less(&mut self.tokens.reasoning, o.tokens.reasoning);
        less(&mut self.stated_usd, o.stated_usd);
        less(&mut self.estimated_usd, o.estimated_usd);
        self.unpriced = self.unpriced.saturating_sub(o.unpriced);
    }

    /// What it cost: stated plus estimated.
    pub fn cost_usd(&self) -> f64 {
        self.stated_usd + self.estimated_usd
    }
}

/// The usage of one run, model by model; feed it every entry of the run in order.
#[derive(Debug, Clone, Default)]
pub struct Usage {
    pub by_model: BTreeMap<String, ModelUsage>,
    /// The model the last `init` named, for results that name none.
    current: Option<String>,
    /// Model names already looked up (a run names a few models thousands of times).
    looked_up: Vec<(String, Option<(&'static str, &'static prices::Price)>)>,
}

impl Usage {
    pub fn new() -> Usage {
        Usage::default()
    }

    /// Counts `e` if it is a `result` the host's summary counts, and gives what it added
    /// (the model it was counted under, and its share); notes the model of an `init`.
    /// `runtime` is the runtime the parser read the entry's line as.
    pub fn add(&mut self, runtime: Option<Format>, e: &Entry) -> Option<(String, ModelUsage)> {
        match e {
            Entry::Init { model, .. } => {
                let m = model.trim();
                // A name with a price wins over one without (Codex exec's init says `codex`).
                if !m.is_empty() && (self.current.is_none() || prices::price_of(m).is_some()) {
                    self.current = Some(m.to_owned());
                }
                None
            }
            Entry::Result { subtype, model, cost_usd, .. } if subtype != "paperclip_runner_session_usage" => {
                let t = tokens_of(runtime, e)?;
                let name = model.as_deref().or(self.current.as_deref()).map(str::trim).filter(|m| !m.is_empty());
                let price = name.and_then(|n| match self.looked_up.iter().find(|(k, _)| k == n) {
                    Some((_, p)) => *p,
                    None => {
                        let p = prices::price_of(n);
                        if self.looked_up.len() < 64 {
                            self.looked_up.push((n.to_owned(), p));
                        }
                        p
                    }
                });
                let key = match (name, price) {
                    (_, Some((found, _))) => found.to_owned(),
                    (Some(n), None) => n.to_owned(),
                    (None, None) => UNKNOWN_MODEL.to_owned(),
                };
                let mut one = ModelUsage { results: 1, tokens: t, ..ModelUsage::default() };
                let stated = clean(*cost_usd);
                if stated > 0.0 {
                    one.stated_usd = stated;
                } else if t.total() > 0.0 {
                    match price {
                        Some((_, p)) => one.estimated_usd = prices::cost(p, &t),
                        None => one.unpriced = 1,
                    }
                }
                self.by_model.entry(key.clone()).or_default().add(&one);
                Some((key, one))
            }
            _ => None,
        }
    }

    /// Every model's usage added up.
    pub fn total(&self) -> ModelUsage {
        let mut t = ModelUsage::default();
        for m in self.by_model.values() {
            t.add(m);
        }
        t
    }

    /// Adds another run's usage (a sum over runs).
    pub fn merge(&mut self, o: &Usage) {
        for (k, m) in &o.by_model {
            self.by_model.entry(k.clone()).or_default().add(m);
        }
    }
}

/// A cost for people: the log's own (`$1.2345`); with an estimate, `≈ $1.2345` and what part
/// is estimated from the list prices of which day; `unknown model` for results that spent
/// tokens on a model without a price (never `$0` for them).
pub fn cost_text(m: &ModelUsage) -> String {
    let sum = m.cost_usd();
    let mut s = match (m.stated_usd > 0.0, m.estimated_usd > 0.0) {
        (_, false) if m.unpriced > 0 && sum == 0.0 => String::new(),
        (_, false) => format!("${sum:.4}"),
        (false, true) => format!("≈ ${sum:.4} (estimated at list prices of {})", prices::DATE),
        (true, true) => format!(
            "≈ ${sum:.4} (${:.4} stated, ${:.4} estimated at list prices of {})",
            m.stated_usd,
            m.estimated_usd,
            prices::DATE
        ),
    };
    if m.unpriced > 0 {
        let n = m.unpriced;
        let what = format!("unknown model for {n} result{}", if n == 1 { "" } else { "s" });
        s = if s.is_empty() { what } else { format!("{s} + {what}") };
    }
    s
}

/// [`cost_text`] for a table cell: `$1.2345`, `≈ $1.2345` (an estimate is part of it),
/// `unknown model`, or `≈ $1.2345 + unknown model`.
pub fn cost_short(m: &ModelUsage) -> String {
    let sum = m.cost_usd();
    let known = if m.estimated_usd > 0.0 { format!("≈ ${sum:.4}") } else { format!("${sum:.4}") };
    match m.unpriced {
        0 => known,
        _ if sum == 0.0 => "unknown model".to_owned(),
        _ => format!("{known} + unknown model"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(input: f64, output: f64, read: f64, write: f64, cost: f64, model: Option<&str>) -> Entry {
        Entry::Result {
            ts: "T".into(),
            text: String::new(),
            input_tokens: input,
            output_tokens: output,
            cached_tokens: read,
            cache_creation_tokens: Some(write),
            cache_creation_1h_tokens: None,
            reasoning_tokens: None,
            model: model.map(str::to_owned),
            call_id: None,
            cost_usd: cost,
            subtype: "model_call".into(),
            is_error: false,
            errors: vec![],
        }
    }

    #[test]
    fn codex_input_counts_its_cache_reads_claude_does_not() {
        let e = result(1000.0, 10.0, 800.0, 0.0, 0.0, None);
        assert_eq!(tokens_of(Some(Format::Codex), &e).unwrap().input, 200.0);
        assert_eq!(tokens_of(Some(Format::Claude), &e).unwrap().input, 1000.0);
        // A corrupt count counts nothing.
        let bad = result(-5e6, f64::NAN, 1e308 * 10.0, 0.0, -1.0, None);
        assert_eq!(tokens_of(Some(Format::Claude), &bad).unwrap(), Tokens::default());
    }

    #[test]
    fn stated_cost_is_kept_estimates_are_per_model_and_unknown_models_are_named() {
        let mut u = Usage::new();
        u.add(Some(Format::Claude), &Entry::init("T", "claude-sonnet-4-5", "s"));
        u.add(Some(Format::Claude), &result(1_000_000.0, 0.0, 0.0, 0.0, 0.0, None));
        u.add(Some(Format::Claude), &result(0.0, 1_000_000.0, 0.0, 0.0, 0.0, Some("claude-opus-4-6")));
        u.add(Some(Format::Claude), &result(10.0, 10.0, 0.0, 0.0, 0.25, Some("claude-opus-4-6")));
        u.add(Some(Format::Claude), &result(10.0, 10.0, 0.0, 0.0, 0.0, Some("frobnicator-9")));
        let sonnet = &u.by_model["claude-sonnet-4-5"];
        assert!((sonnet.estimated_usd - 3.0).abs() < 1e-9, "{sonnet:?}");
        let opus = &u.by_model["claude-opus-4-6"];
        assert!((opus.estimated_usd - 25.0).abs() < 1e-9 && opus.stated_usd == 0.25, "{opus:?}");
        assert_eq!(u.by_model["frobnicator-9"].unpriced, 1);
        let t = u.total();
        assert_eq!((t.results, t.unpriced), (4, 1));
        let text = cost_text(&t);
        assert_eq!(text, "≈ $28.2500 ($0.2500 stated, $28.0000 estimated at list prices of 2026-12-07) + unknown model for 1 result".replace("2026-12-07", prices::DATE));
        let only_unknown = ModelUsage { results: 1, unpriced: 1, ..ModelUsage::default() };
        assert_eq!(cost_text(&only_unknown), "unknown model for 1 result");
    }
}

/// The npm entry's `summarizeUsage(entries, {runtime}?)` (src/api.rs): the usage of one run's
/// entries (`result` and `init`; others are passed over), as the CLI's `stats` counts it.
#[cfg(feature = "readers")]
pub mod api {
    use super::{cost_short, cost_text, ModelUsage, Usage};
    use crate::formats::Format;
    use crate::prelude::*;
    use serde_json::{json, Value};

    pub fn dispatch(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
        match name {
            "summarizeUsage" => Some(summarize(args)),
            // A runtime's one name from any name the core accepts (`Claude`, `claude_local`,
            // `kilo`…: `Format::from_name`, the one list), or null.
            "runtimeName" => Some(Ok(args
                .first()
                .and_then(Value::as_str)
                .and_then(Format::from_name)
                .map_or(Value::Null, |f| Value::String(f.name().to_owned())))),
            _ => None,
        }
    }

    fn summarize(args: &[Value]) -> Result<Value, String> {
        let Some(Value::Array(entries)) = args.first() else {
            return Err("summarizeUsage(entries): entries must be an array of transcript entries".to_owned());
        };
        let runtime = match args.get(1).and_then(|o| o.get("runtime")) {
            None | Some(Value::Null) => None,
            Some(Value::String(name)) => match Format::from_name(name) {
                Some(f) => Some(f),
                None => return Err(format!("summarizeUsage: unknown runtime {name:?}")),
            },
            Some(_) => return Err("summarizeUsage: options.runtime must be a runtime name".to_owned()),
        };
        let mut usage = Usage::new();
        for (i, v) in entries.iter().enumerate() {
            if !matches!(v.get("kind").and_then(Value::as_str), Some("result" | "init")) {
                continue;
            }
            let e: crate::Entry = serde_json::from_value(v.clone()).map_err(|e| format!("summarizeUsage: entry {i}: {e}"))?;
            usage.add(runtime, &e);
        }
        Ok(summary(&usage))
    }

    /// `summarizeUsage`'s answer for `usage` (the CLI's shared HTML file carries it too).
    pub fn summary(usage: &Usage) -> Value {
        let mut out = one(&usage.total());
        let models: serde_json::Map<String, Value> = usage.by_model.iter().map(|(k, m)| (k.clone(), one(m))).collect();
        out["byModel"] = Value::Object(models);
        out["prices"] = json!({ "source": crate::prices::SOURCE, "date": crate::prices::DATE });
        out
    }

    fn one(m: &ModelUsage) -> Value {
        let t = &m.tokens;
        json!({
            "results": m.results,
            "tokens": {
                "input": t.input.round(),
                "cacheRead": t.cache_read.round(),
                "cacheWrite": t.cache_write.round(),
                "output": t.output.round(),
                "reasoning": t.reasoning.round(),
            },
            "costUsd": m.cost_usd(),
            "statedCostUsd": m.stated_usd,
            "estimatedCostUsd": m.estimated_usd,
            "unpricedResults": m.unpriced,
            "cost": cost_text(m),
            "costShort": cost_short(m),
        })
    }
}
