//! `agentlines stats`: what a run cost and where its time went, per file and in total,
//! counted over the entries `parse` gives.
//!
//! Tokens and cost follow the Paperclip host's run summary: the sum over every `result` entry
//! except subtype `paperclip_runner_session_usage` (docs/entries.md says what each runtime's
//! results carry). Time per tool sums the results' `durationMs` (the stateful parser pairs a
//! result with its call; `--stateless` has none). Errors are `stderr` entries, tool results
//! marked as errors, and results marked as errors.

use agentlines::Entry;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolStats {
    pub calls: u64,
    pub errors: u64,
    /// Results with a duration, and the sum of those durations.
    pub timed: u64,
    pub total_ms: u64,
}

#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub entries: u64,
    pub kinds: BTreeMap<&'static str, u64>,
    /// The `result` entries the host's summary counts.
    pub results: u64,
    pub input_tokens: f64,
    pub output_tokens: f64,
    pub cached_tokens: f64,
    /// Cache writes, where the runtime counts them apart (not in the host's summary).
    pub cache_creation_tokens: f64,
    pub cost_usd: f64,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    pub errors: u64,
    pub tools: BTreeMap<String, ToolStats>,
    #[serde(skip)]
    names: HashMap<String, String>,
}

impl Stats {
    pub fn add(&mut self, e: &Entry) {
        self.entries += 1;
        *self.kinds.entry(e.kind()).or_default() += 1;
        let ts = e.ts();
        if agentlines::time::parse_ts_ms(ts).is_some() {
            if self.first_ts.is_none() {
                self.first_ts = Some(ts.to_owned());
            }
            self.last_ts = Some(ts.to_owned());
        }
        match e {
            Entry::Result { input_tokens, output_tokens, cached_tokens, cache_creation_tokens, cost_usd, subtype, is_error, .. } => {
                if *is_error {
                    self.errors += 1;
                }
                if subtype != "paperclip_runner_session_usage" {
                    self.results += 1;
                    self.input_tokens += input_tokens;
                    self.output_tokens += output_tokens;
                    self.cached_tokens += cached_tokens;
                    self.cache_creation_tokens += cache_creation_tokens.unwrap_or(0.0);
                    self.cost_usd += cost_usd;
                }
            }
            Entry::Stderr { .. } => self.errors += 1,
            Entry::ToolCall { name, tool_use_id, .. } => {
                self.tools.entry(name.clone()).or_default().calls += 1;
                if let Some(id) = tool_use_id {
                    // Bounded: a run's ids, dropped when the file ends.
                    self.names.insert(id.clone(), name.clone());
                }
            }
            Entry::ToolResult { tool_use_id, tool_name, is_error, duration_ms, .. } => {
                let name = tool_name.clone().or_else(|| self.names.get(tool_use_id).cloned());
                let tool = self.tools.entry(name.unwrap_or_else(|| "(unknown tool)".to_owned())).or_default();
                if *is_error {
                    tool.errors += 1;
                    self.errors += 1;
                }
                if let Some(ms) = duration_ms {
                    tool.timed += 1;
                    tool.total_ms += ms;
                }
            }
            _ => {}
        }
    }

    /// The file is done: its id → name map is not needed any more.
    pub fn end_file(&mut self) {
        self.names = HashMap::new();
    }

    pub fn merge(&mut self, o: &Stats) {
        self.entries += o.entries;
        for (k, n) in &o.kinds {
            *self.kinds.entry(k).or_default() += n;
        }
        self.results += o.results;
        self.input_tokens += o.input_tokens;
        self.output_tokens += o.output_tokens;
        self.cached_tokens += o.cached_tokens;
        self.cache_creation_tokens += o.cache_creation_tokens;
        self.cost_usd += o.cost_usd;
        self.errors += o.errors;
        // Totals over files: the span from the earliest to the latest time seen.
        let earliest = [&self.first_ts, &o.first_ts].into_iter().flatten().min_by_key(|t| ms(t)).cloned();
        let latest = [&self.last_ts, &o.last_ts].into_iter().flatten().max_by_key(|t| ms(t)).cloned();
        self.first_ts = earliest;
        self.last_ts = latest;
        for (name, t) in &o.tools {
            let mine = self.tools.entry(name.clone()).or_default();
            mine.calls += t.calls;
            mine.errors += t.errors;
            mine.timed += t.timed;
            mine.total_ms += t.total_ms;
        }
    }

    pub fn duration_ms(&self) -> Option<i64> {
        Some(ms(self.last_ts.as_ref()?) - ms(self.first_ts.as_ref()?))
    }

    /// The stats as readable text, each line indented by `indent`.
    pub fn text(&self, indent: &str) -> String {
        let mut s = String::new();
        let kinds: Vec<String> = self.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "{indent}entries  {} ({})", self.entries, kinds.join(", "));
        let _ = writeln!(
            s,
            "{indent}tokens   {} in, {} out, {} cached{} (over {} result{})",
            group(self.input_tokens),
            group(self.output_tokens),
            group(self.cached_tokens),
            if self.cache_creation_tokens > 0.0 { format!(", {} cache writes", group(self.cache_creation_tokens)) } else { String::new() },
            self.results,
            if self.results == 1 { "" } else { "s" }
        );
        let _ = writeln!(s, "{indent}cost     ${:.4}", self.cost_usd);
        if let (Some(a), Some(b), Some(d)) = (&self.first_ts, &self.last_ts, self.duration_ms()) {
            let _ = writeln!(s, "{indent}time     {a} → {b} ({})", span(d));
        }
        let _ = writeln!(s, "{indent}errors   {}", self.errors);
        if !self.tools.is_empty() {
            let mut tools: Vec<(&String, &ToolStats)> = self.tools.iter().collect();
            tools.sort_by(|a, b| b.1.total_ms.cmp(&a.1.total_ms).then(b.1.calls.cmp(&a.1.calls)).then(a.0.cmp(b.0)));
            let width = tools.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0).min(40);
            let _ = writeln!(s, "{indent}  {:<width$}  calls  errors  time", "tool");
            for (name, t) in tools {
                let time = if t.timed > 0 { span(t.total_ms as i64) } else { "-".to_owned() };
                let _ = writeln!(s, "{indent}  {name:<width$}  {:>5}  {:>6}  {time}", t.calls, t.errors);
            }
        }
        s
    }
}

fn ms(ts: &str) -> i64 {
    agentlines::time::parse_ts_ms(ts).unwrap_or(0) as i64
}

/// `1234567` → `1,234,567`.
fn group(n: f64) -> String {
    let digits = format!("{}", n.round() as i64);
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits.as_str()), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// `93_500` ms → `1m 33.5s`.
fn span(ms: i64) -> String {
    let s = ms as f64 / 1000.0;
    if s < 60.0 {
        return format!("{s:.1}s");
    }
    let (h, m, sec) = (ms / 3_600_000, ms / 60_000 % 60, (ms % 60_000) as f64 / 1000.0);
    if h > 0 {
        format!("{h}h {m}m {sec:.0}s")
    } else {
        format!("{m}m {sec:.1}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_rule_leaves_out_runner_session_usage() {
        let mut s = Stats::default();
        let r = |sub: &str, cost: f64| Entry::Result {
            ts: "2026-01-01T00:00:00.000Z".into(),
            text: String::new(),
            input_tokens: 10.0,
            output_tokens: 5.0,
            cached_tokens: 1.0,
            cache_creation_tokens: Some(2.0),
            cost_usd: cost,
            subtype: sub.into(),
            is_error: false,
            errors: vec![],
        };
        s.add(&r("success", 0.5));
        s.add(&r("paperclip_runner_session_usage", 9.0));
        assert_eq!((s.results, s.input_tokens, s.cost_usd), (1, 10.0, 0.5));
        assert_eq!(s.kinds["result"], 2);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(group(1234567.0), "1,234,567");
        assert_eq!(group(12.0), "12");
        assert_eq!(span(93_500), "1m 33.5s");
        assert_eq!(span(4_000), "4.0s");
    }
}
