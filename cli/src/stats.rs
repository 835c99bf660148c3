//! `agentlines stats`: what runs cost and where their time went, per file (one run each) and
//! over all of them, by day, model, tool and runtime, counted over the entries `parse` gives.
//!
//! Tokens have one meaning for every runtime (`agentlines::usage`: uncached input, cache
//! reads, cache writes, output with reasoning, reasoning), counted over the `result` entries
//! the Paperclip host's run summary counts (all but subtype `paperclip_runner_session_usage`).
//! Cost is the log's own where it states one, else an estimate from list prices, call by call
//! and model by model (`agentlines::prices`), and `unknown model` where no price is known.
//! Time per tool comes from the results' `durationMs` (the stateful parser pairs a result with
//! its call; `--stateless` has none). Errors are `stderr` entries, tool results marked as
//! errors, and results marked as errors.

use agentlines::usage::{cost_short, cost_text, ModelUsage, Usage};
use agentlines::{Entry, Format};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// One tool's calls over a run or many.
#[derive(Default, Clone)]
pub struct ToolStats {
    pub calls: u64,
    pub errors: u64,
    /// The results' durations (ms), for the total and the percentiles.
    pub durations: Vec<u64>,
}

impl ToolStats {
    fn total_ms(&self) -> u64 {
        self.durations.iter().sum()
    }

    /// Nearest-rank percentile of the durations (`p` in 0..=100).
    fn percentile(&self, p: u64) -> Option<u64> {
        if self.durations.is_empty() {
            return None;
        }
        let mut d = self.durations.clone();
        d.sort_unstable();
        let rank = (p * d.len() as u64).div_ceil(100).max(1) as usize;
        Some(d[rank - 1])
    }

    fn failure_rate(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.errors as f64 / self.calls as f64
        }
    }
}

/// What a file (one run) or a set of them counted.
#[derive(Default, Clone)]
pub struct Stats {
    /// Runs (files read) in this figure.
    pub runs: u64,
    pub entries: u64,
    pub kinds: BTreeMap<&'static str, u64>,
    pub errors: u64,
    /// Earliest and latest entry times (ms, text).
    pub first: Option<(i64, String)>,
    pub last: Option<(i64, String)>,
    /// The sum of the runs' own durations (last entry − first entry, run by run).
    pub run_ms: i64,
    pub usage: Usage,
    pub tools: BTreeMap<String, ToolStats>,
    /// Tokens and cost by the UTC day of each result.
    pub days: BTreeMap<String, ModelUsage>,
    /// The same by day and model.
    pub day_models: BTreeMap<(String, String), ModelUsage>,
    /// Runs and usage by runtime.
    pub runtimes: BTreeMap<&'static str, (u64, ModelUsage)>,
    /// Results with a model call id (session files): its hash, model, day and share, until
    /// `drop_repeats` has compared them with earlier files'.
    calls: Vec<(u64, String, String, ModelUsage)>,
    /// Results left out because an earlier file counted their model call (a resumed session's
    /// file repeats the messages it continues).
    pub repeated: u64,
}

/// Follows one file's entries (a fresh one per file).
#[derive(Default)]
pub struct Run {
    pub stats: Stats,
    runtime: Option<Format>,
    names: HashMap<String, String>,
    /// The last `ts` read and its milliseconds (a line's entries share one).
    last_ts: Option<(String, Option<i64>)>,
}

impl Run {
    /// Counts `e`, read by `runtime` (the parser's runtime for its line).
    pub fn add(&mut self, runtime: Option<Format>, e: &Entry) {
        let s = &mut self.stats;
        s.entries += 1;
        *s.kinds.entry(e.kind()).or_default() += 1;
        let ts = e.ts();
        let ms = match &self.last_ts {
            Some((t, ms)) if t == ts => *ms,
            _ => {
                let ms = agentlines::time::parse_ts_ms(ts);
                self.last_ts = Some((ts.to_owned(), ms));
                ms
            }
        };
        if let Some(ms) = ms {
            if s.first.as_ref().map_or(true, |(f, _)| ms < *f) {
                s.first = Some((ms, ts.to_owned()));
            }
            if s.last.as_ref().map_or(true, |(l, _)| ms >= *l) {
                s.last = Some((ms, ts.to_owned()));
            }
        }
        // A runtime's lines name the run's runtime; plain text only while nothing else did.
        if runtime.is_some_and(|f| f != Format::Plain) || self.runtime.is_none() && runtime.is_some() {
            self.runtime = runtime;
        }
        match e {
            Entry::Result { is_error, .. } => {
                if *is_error {
                    s.errors += 1;
                }
                if let Some((model, one)) = s.usage.add(runtime, e) {
                    let day = ms.map(day_of).unwrap_or_else(|| "unknown".to_owned());
                    s.days.entry(day.clone()).or_default().add(&one);
                    s.day_models.entry((day.clone(), model.clone())).or_default().add(&one);
                    if let Entry::Result { call_id: Some(id), .. } = e {
                        let h = agentlines::text::fnv1a(agentlines::text::FNV_OFFSET, id.bytes());
                        s.calls.push((h, model, day, one));
                    }
                }
            }
            Entry::Init { .. } => {
                s.usage.add(runtime, e);
            }
            Entry::Stderr { .. } => s.errors += 1,
            Entry::ToolCall { name, tool_use_id, .. } => {
                // A name seen before costs no allocation.
                match s.tools.get_mut(name.as_str()) {
                    Some(t) => t.calls += 1,
                    None => s.tools.entry(name.clone()).or_default().calls += 1,
                }
                if let Some(id) = tool_use_id {
                    // Bounded: a run's ids, dropped when the file ends.
                    self.names.insert(id.clone(), name.clone());
                }
            }
            Entry::ToolResult { tool_use_id, tool_name, is_error, duration_ms, delta, .. } => {
                let name = tool_name.as_deref().or_else(|| self.names.get(tool_use_id).map(String::as_str)).unwrap_or("(unknown tool)");
                if !s.tools.contains_key(name) {
                    s.tools.insert(name.to_owned(), ToolStats::default());
                }
                let Some(tool) = s.tools.get_mut(name) else { return };
                // A streamed piece of a result is not the result (the last one settles it).
                if delta == &Some(true) && duration_ms.is_none() && !is_error {
                    return;
                }
                if *is_error {
                    tool.errors += 1;
                    s.errors += 1;
                }
                if let Some(ms) = duration_ms {
                    tool.durations.push(*ms);
                }
            }
            _ => {}
        }
    }

    /// The file is done: its figures as one run.
    pub fn finish(mut self) -> Stats {
        let s = &mut self.stats;
        s.runs = 1;
        s.run_ms = s.duration_ms().unwrap_or(0);
        let name = self.runtime.map_or("unknown", |f| f.name());
        s.runtimes.insert(name, (1, s.usage.total()));
        self.stats
    }
}

impl Stats {
    /// Leaves out the results whose model call an earlier file counted (`seen`: the calls of
    /// the files before this one, in the order given), then adds this file's calls to `seen`.
    /// Several results of one call in this file (one per streamed line) all stay.
    pub fn drop_repeats(&mut self, seen: &mut std::collections::HashSet<u64>) {
        let calls = std::mem::take(&mut self.calls);
        for (h, model, day, one) in &calls {
            if seen.contains(h) {
                self.repeated += one.results;
                if let Some(m) = self.usage.by_model.get_mut(model) {
                    m.sub(one);
                }
                if let Some(d) = self.days.get_mut(day) {
                    d.sub(one);
                }
                if let Some(d) = self.day_models.get_mut(&(day.clone(), model.clone())) {
                    d.sub(one);
                }
                for (_, u) in self.runtimes.values_mut() {
                    u.sub(one);
                }
            }
        }
        seen.extend(calls.iter().map(|c| c.0));
        self.usage.by_model.retain(|_, m| m.results > 0);
        self.days.retain(|_, d| d.results > 0);
        self.day_models.retain(|_, d| d.results > 0);
    }

    pub fn merge(&mut self, o: &Stats) {
        self.runs += o.runs;
        self.repeated += o.repeated;
        self.entries += o.entries;
        for (k, n) in &o.kinds {
            *self.kinds.entry(k).or_default() += n;
        }
        self.errors += o.errors;
        if let Some(f) = &o.first {
            if self.first.as_ref().map_or(true, |mine| f.0 < mine.0) {
                self.first = Some(f.clone());
            }
        }
        if let Some(l) = &o.last {
            if self.last.as_ref().map_or(true, |mine| l.0 >= mine.0) {
                self.last = Some(l.clone());
            }
        }
        self.run_ms += o.run_ms;
        self.usage.merge(&o.usage);
        for (name, t) in &o.tools {
            let mine = self.tools.entry(name.clone()).or_default();
            mine.calls += t.calls;
            mine.errors += t.errors;
            mine.durations.extend_from_slice(&t.durations);
        }
        for (d, u) in &o.days {
            self.days.entry(d.clone()).or_default().add(u);
        }
        for (d, u) in &o.day_models {
            self.day_models.entry(d.clone()).or_default().add(u);
        }
        for (r, (n, u)) in &o.runtimes {
            let mine = self.runtimes.entry(r).or_default();
            mine.0 += n;
            mine.1.add(u);
        }
    }

    /// From the first entry to the last (for one run, its duration).
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.last.as_ref()?.0 - self.first.as_ref()?.0)
    }

    fn runtime_names(&self) -> String {
        self.runtimes.keys().copied().collect::<Vec<_>>().join(", ")
    }

    /// The figures as readable text, each line indented by `indent`; `whole` adds the
    /// breakdowns by model, runtime and day (the total of several runs).
    pub fn text(&self, indent: &str, whole: bool) -> String {
        let mut s = String::new();
        let total = self.usage.total();
        if self.runs > 1 {
            let _ = writeln!(s, "{indent}runs     {} ({})", self.runs, self.runtime_names());
        } else {
            let _ = writeln!(s, "{indent}runtime  {}", self.runtime_names());
        }
        let kinds: Vec<String> = self.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "{indent}entries  {} ({})", self.entries, kinds.join(", "));
        let repeated = match self.repeated {
            0 => String::new(),
            n => format!("; {n} repeated from an earlier file, counted there"),
        };
        let _ = writeln!(s, "{indent}tokens   {} (over {} result{}{repeated})", tokens_text(&total), total.results, plural(total.results));
        let _ = writeln!(s, "{indent}cost     {}", cost_text(&total));
        if let (Some((_, a)), Some((_, b))) = (&self.first, &self.last) {
            if self.runs > 1 {
                let _ = writeln!(s, "{indent}time     {} in runs ({a} → {b})", span(self.run_ms));
            } else {
                let _ = writeln!(s, "{indent}time     {} ({a} → {b})", span(self.run_ms));
            }
        }
        let _ = writeln!(s, "{indent}errors   {}", self.errors);
        if self.usage.by_model.len() > 1 || whole && !self.usage.by_model.is_empty() {
            s.push_str(&table(indent, &["model", "results", "input", "cache read", "cache write", "output", "cost"], self.model_rows()));
        }
        if whole && self.runtimes.len() > 1 {
            s.push_str(&table(indent, &["runtime", "runs", "results", "input", "cache read", "cache write", "output", "cost"], self.runtime_rows()));
        }
        if whole && self.days.len() > 1 {
            s.push_str(&table(indent, &["day", "results", "input", "cache read", "cache write", "output", "cost"], self.day_rows()));
        }
        if !self.tools.is_empty() {
            s.push_str(&table(indent, &["tool", "calls", "errors", "failed", "time", "p50", "p95"], self.tool_rows()));
        }
        s
    }

    fn model_rows(&self) -> Vec<Vec<String>> {
        let mut rows: Vec<(&String, &ModelUsage)> = self.usage.by_model.iter().collect();
        rows.sort_by(|a, b| b.1.cost_usd().total_cmp(&a.1.cost_usd()).then(a.0.cmp(b.0)));
        rows.into_iter().map(|(m, u)| usage_row(m.clone(), None, u)).collect()
    }

    fn runtime_rows(&self) -> Vec<Vec<String>> {
        self.runtimes.iter().map(|(r, (n, u))| usage_row((*r).to_owned(), Some(*n), u)).collect()
    }

    fn day_rows(&self) -> Vec<Vec<String>> {
        self.days.iter().map(|(d, u)| usage_row(d.clone(), None, u)).collect()
    }

    /// A row per day and model: the day, then the model, then the usage.
    fn day_model_rows(&self) -> Vec<Vec<String>> {
        self.day_models
            .iter()
            .map(|((d, m), u)| {
                let mut row = usage_row(d.clone(), None, u);
                row.insert(1, m.clone());
                row
            })
            .collect()
    }

    fn tool_rows(&self) -> Vec<Vec<String>> {
        let mut tools: Vec<(&String, &ToolStats)> = self.tools.iter().collect();
        tools.sort_by(|a, b| b.1.total_ms().cmp(&a.1.total_ms()).then(b.1.calls.cmp(&a.1.calls)).then(a.0.cmp(b.0)));
        tools
            .into_iter()
            .map(|(name, t)| {
                let timed = |ms: Option<u64>| ms.map_or("-".to_owned(), |ms| span(ms as i64));
                vec![
                    name.clone(),
                    t.calls.to_string(),
                    t.errors.to_string(),
                    format!("{:.1}%", t.failure_rate() * 100.0),
                    timed((!t.durations.is_empty()).then(|| t.total_ms())),
                    timed(t.percentile(50)),
                    timed(t.percentile(95)),
                ]
            })
            .collect()
    }
}

/// `--by file` as text: a line per file.
pub fn file_table(files: &[(String, Stats)]) -> String {
    let rows = files
        .iter()
        .map(|(f, s)| {
            let u = s.usage.total();
            vec![
                f.clone(),
                s.runtime_names(),
                u.results.to_string(),
                group(u.tokens.input),
                group(u.tokens.cache_read),
                group(u.tokens.cache_write),
                group(u.tokens.output),
                span(s.run_ms),
                s.errors.to_string(),
                cost_short(&u),
            ]
        })
        .collect();
    table("", &["file", "runtime", "results", "input", "cache read", "cache write", "output", "time", "errors", "cost"], rows)
}

/// `--by day|model|tool|runtime` as text: that table of the total.
pub fn by_table(s: &Stats, by: &str) -> String {
    match by {
        "day" => table("", &["day", "model", "results", "input", "cache read", "cache write", "output", "cost"], s.day_model_rows()),
        "model" => table("", &["model", "results", "input", "cache read", "cache write", "output", "cost"], s.model_rows()),
        "runtime" => table("", &["runtime", "runs", "results", "input", "cache read", "cache write", "output", "cost"], s.runtime_rows()),
        _ => table("", &["tool", "calls", "errors", "failed", "time", "p50", "p95"], s.tool_rows()),
    }
}

/// One breakdown as CSV rows (with a header): `file` rows are the caller's.
const USAGE_HEAD: [&str; 10] = ["results", "input", "cache_read", "cache_write", "output", "reasoning", "cost_usd", "stated_usd", "estimated_usd", "unpriced_results"];

/// A usage's CSV cells, in [`USAGE_HEAD`]'s order.
fn usage_cells(u: &ModelUsage) -> Vec<String> {
    vec![
        u.results.to_string(),
        int(u.tokens.input).to_string(),
        int(u.tokens.cache_read).to_string(),
        int(u.tokens.cache_write).to_string(),
        int(u.tokens.output).to_string(),
        int(u.tokens.reasoning).to_string(),
        format!("{:.6}", u.cost_usd()),
        format!("{:.6}", u.stated_usd),
        format!("{:.6}", u.estimated_usd),
        u.unpriced.to_string(),
    ]
}

pub fn csv_rows(s: &Stats, by: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    match by {
        "model" => {
            rows.push(std::iter::once("model").chain(USAGE_HEAD).map(str::to_owned).collect());
            for (k, u) in &s.usage.by_model {
                rows.push(std::iter::once(k.clone()).chain(usage_cells(u)).collect());
            }
        }
        "day" => {
            rows.push(["day", "model"].into_iter().chain(USAGE_HEAD).map(str::to_owned).collect());
            for ((d, m), u) in &s.day_models {
                rows.push([d.clone(), m.clone()].into_iter().chain(usage_cells(u)).collect());
            }
        }
        "runtime" => {
            rows.push(["runtime", "runs"].iter().chain(USAGE_HEAD.iter()).map(|h| (*h).to_owned()).collect());
            for (r, (n, u)) in &s.runtimes {
                rows.push([(*r).to_owned(), n.to_string()].into_iter().chain(usage_cells(u)).collect());
            }
        }
        _ => {
            rows.push(["tool", "calls", "errors", "failure_rate", "timed", "total_ms", "p50_ms", "p95_ms"].iter().map(|h| (*h).to_owned()).collect());
            for (name, t) in &s.tools {
                let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
                rows.push(vec![
                    name.clone(),
                    t.calls.to_string(),
                    t.errors.to_string(),
                    format!("{:.4}", t.failure_rate()),
                    t.durations.len().to_string(),
                    t.total_ms().to_string(),
                    opt(t.percentile(50)),
                    opt(t.percentile(95)),
                ]);
            }
        }
    }
    rows
}

/// A file's one CSV row for `--by file` (header first when `header`).
pub fn file_csv_row(file: &str, s: &Stats) -> [Vec<String>; 2] {
    let u = s.usage.total();
    let head = ["file", "runtime", "models", "first_ts", "last_ts", "duration_ms", "entries", "errors", "tool_calls", "tool_errors"]
        .into_iter()
        .chain(USAGE_HEAD);
    let models: Vec<&str> = s.usage.by_model.keys().map(String::as_str).collect();
    let mut row = vec![
        file.to_owned(),
        s.runtime_names(),
        models.join(" "),
        s.first.as_ref().map_or(String::new(), |f| f.1.clone()),
        s.last.as_ref().map_or(String::new(), |l| l.1.clone()),
        s.run_ms.to_string(),
        s.entries.to_string(),
        s.errors.to_string(),
        s.tools.values().map(|t| t.calls).sum::<u64>().to_string(),
        s.tools.values().map(|t| t.errors).sum::<u64>().to_string(),
    ];
    row.extend(usage_cells(&u));
    [head.map(str::to_owned).collect(), row]
}

/// A CSV line (RFC 4180: fields with a comma, quote or line break are quoted).
pub fn csv_line(cells: &[String]) -> String {
    let mut s = String::new();
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        if c.contains([',', '"', '\n', '\r']) {
            s.push('"');
            s.push_str(&c.replace('"', "\"\""));
            s.push('"');
        } else {
            s.push_str(c);
        }
    }
    s.push('\n');
    s
}

// The JSON report: integer token counts, costs in dollars, the estimate said apart.

fn usage_json(u: &ModelUsage) -> serde_json::Value {
    serde_json::json!({
        "results": u.results,
        "tokens": {
            "input": int(u.tokens.input),
            "cacheRead": int(u.tokens.cache_read),
            "cacheWrite": int(u.tokens.cache_write),
            "output": int(u.tokens.output),
            "reasoning": int(u.tokens.reasoning),
        },
        "costUsd": u.cost_usd(),
        "statedCostUsd": u.stated_usd,
        "estimatedCostUsd": u.estimated_usd,
        "unpricedResults": u.unpriced,
        "cost": cost_text(u),
    })
}

impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("runs", &self.runs)?;
        m.serialize_entry("runtimes", &self.runtimes.keys().collect::<Vec<_>>())?;
        m.serialize_entry("entries", &self.entries)?;
        m.serialize_entry("kinds", &self.kinds)?;
        let total = usage_json(&self.usage.total());
        for (k, v) in total.as_object().into_iter().flatten() {
            m.serialize_entry(k, v)?;
        }
        m.serialize_entry("firstTs", &self.first.as_ref().map(|f| &f.1))?;
        m.serialize_entry("lastTs", &self.last.as_ref().map(|l| &l.1))?;
        m.serialize_entry("durationMs", &self.run_ms)?;
        m.serialize_entry("errors", &self.errors)?;
        m.serialize_entry("repeatedResults", &self.repeated)?;
        let models: serde_json::Map<String, serde_json::Value> =
            self.usage.by_model.iter().map(|(k, u)| (k.clone(), usage_json(u))).collect();
        m.serialize_entry("byModel", &models)?;
        let days: serde_json::Map<String, serde_json::Value> = self
            .days
            .iter()
            .map(|(k, u)| {
                let mut v = usage_json(u);
                let models: serde_json::Map<String, serde_json::Value> =
                    self.day_models.range((k.clone(), String::new())..).take_while(|((d, _), _)| d == k).map(|((_, m), u)| (m.clone(), usage_json(u))).collect();
                v["byModel"] = serde_json::Value::Object(models);
                (k.clone(), v)
            })
            .collect();
        m.serialize_entry("byDay", &days)?;
        let runtimes: serde_json::Map<String, serde_json::Value> = self
            .runtimes
            .iter()
            .map(|(k, (n, u))| {
                let mut v = usage_json(u);
                v["runs"] = (*n).into();
                ((*k).to_owned(), v)
            })
            .collect();
        m.serialize_entry("byRuntime", &runtimes)?;
        let tools: serde_json::Map<String, serde_json::Value> = self
            .tools
            .iter()
            .map(|(k, t)| {
                let v = serde_json::json!({
                    "calls": t.calls,
                    "errors": t.errors,
                    "failureRate": t.failure_rate(),
                    "timed": t.durations.len(),
                    "totalMs": t.total_ms(),
                    "p50Ms": t.percentile(50),
                    "p95Ms": t.percentile(95),
                });
                (k.clone(), v)
            })
            .collect();
        m.serialize_entry("tools", &tools)?;
        m.end()
    }
}

fn usage_row(name: String, runs: Option<u64>, u: &ModelUsage) -> Vec<String> {
    let mut row = vec![name];
    if let Some(n) = runs {
        row.push(n.to_string());
    }
    row.extend([
        u.results.to_string(),
        group(u.tokens.input),
        group(u.tokens.cache_read),
        group(u.tokens.cache_write),
        group(u.tokens.output),
        cost_short(u),
    ]);
    row
}

/// `1,234 input, 5 cache reads, 0 cache writes, 88 output (12 reasoning)`.
fn tokens_text(u: &ModelUsage) -> String {
    let t = &u.tokens;
    let reasoning = if t.reasoning > 0.0 { format!(" ({} reasoning)", group(t.reasoning)) } else { String::new() };
    format!(
        "{} input, {} cache reads, {} cache writes, {} output{reasoning}",
        group(t.input),
        group(t.cache_read),
        group(t.cache_write),
        group(t.output)
    )
}

/// Left-aligned first column, right-aligned numbers, indented by `indent` + 2.
fn table(indent: &str, head: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let last = head.len() - 1;
    let mut s = String::new();
    for r in std::iter::once(head.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>()).chain(rows) {
        let _ = write!(s, "{indent}  ");
        for (i, c) in r.iter().enumerate() {
            let w = widths[i];
            if i == 0 {
                let _ = write!(s, "{c:<w$}");
            } else if i == last && head[last] == "cost" {
                let _ = write!(s, "  {c}");
            } else {
                let _ = write!(s, "  {c:>w$}");
            }
        }
        let trimmed = s.trim_end_matches(' ').len();
        s.truncate(trimmed);
        s.push('\n');
    }
    s
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A count as a whole number (counts are sums of finite, non-negative values).
fn int(n: f64) -> u64 {
    if n.is_finite() && n > 0.0 {
        n.round().min(u64::MAX as f64) as u64
    } else {
        0
    }
}

/// `YYYY-MM-DD` (UTC) of a time in ms.
fn day_of(ms: i64) -> String {
    let (y, m, d) = agentlines::time::civil_from_days(ms.div_euclid(86_400_000));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `1234567` → `1,234,567`.
fn group(n: f64) -> String {
    let digits = int(n).to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `93_500` ms → `1m 33.5s`; whole seconds past an hour (`1h 2m 5s`). Rounded once, first,
/// so no unit ever shows 60.
fn span(ms: i64) -> String {
    let tenths = (ms.max(0) + 50) / 100;
    if tenths < 600 {
        return format!("{}.{}s", tenths / 10, tenths % 10);
    }
    if tenths < 36_000 {
        return format!("{}m {}.{}s", tenths / 600, tenths % 600 / 10, tenths % 10);
    }
    let secs = (ms + 500) / 1000;
    format!("{}h {}m {}s", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(sub: &str, cost: f64) -> Entry {
        Entry::Result {
            ts: "2026-01-01T00:00:00.000Z".into(),
            text: String::new(),
            input_tokens: 10.0,
            output_tokens: 5.0,
            cached_tokens: 1.0,
            cache_creation_tokens: Some(2.0),
            cache_creation_1h_tokens: None,
            reasoning_tokens: None,
            model: None,
            call_id: None,
            cost_usd: cost,
            subtype: sub.into(),
            is_error: false,
            errors: vec![],
        }
    }

    #[test]
    fn the_host_rule_leaves_out_runner_session_usage() {
        let mut r = Run::default();
        r.add(Some(Format::Claude), &result("success", 0.5));
        r.add(Some(Format::Claude), &result("paperclip_runner_session_usage", 9.0));
        let s = r.finish();
        let t = s.usage.total();
        assert_eq!((t.results, t.tokens.input, t.cost_usd()), (1, 10.0, 0.5));
        assert_eq!(s.kinds["result"], 2);
        assert_eq!(s.days["2026-01-01"].results, 1);
        assert_eq!(s.runtimes["claude"].0, 1);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(group(1234567.0), "1,234,567");
        assert_eq!(group(12.0), "12");
        assert_eq!(group(-5e6), "0");
        assert_eq!(span(93_500), "1m 33.5s");
        assert_eq!(span(4_000), "4.0s");
        assert_eq!(span(119_960), "2m 0.0s");
        assert_eq!(span(59_960), "1m 0.0s");
        assert_eq!(span(3_599_999), "1h 0m 0s");
        assert_eq!(span(7_199_600), "2h 0m 0s");
        assert_eq!(int(1e308 * 10.0), 0);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let t = ToolStats { calls: 4, errors: 1, durations: vec![40, 10, 30, 20] };
        assert_eq!((t.percentile(50), t.percentile(95)), (Some(20), Some(40)));
        assert_eq!(t.failure_rate(), 0.25);
        assert_eq!(ToolStats::default().percentile(50), None);
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(csv_line(&["a".into(), "b,c".into(), "say \"hi\"".into()]), "a,\"b,c\",\"say \"\"hi\"\"\"\n");
    }
}
