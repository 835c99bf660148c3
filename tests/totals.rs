//! The host's run summary, computed the host's way over our entries, equals the log's own
//! totals. The released host sums `inputTokens`, `outputTokens`, `cachedTokens` and
//! `costUsd` over every `result` entry (except subtype `paperclip_runner_session_usage`);
//! the logs state running totals (Claude: `total_cost_usd` and `modelUsage` per process;
//! Codex exec: `turn.completed.usage` per thread), so the log's figure is the last running
//! total of each process or thread, summed. Both paths on every fixture of these formats:
//! the stateful parser always; a line read alone where its process or thread ends in one
//! result (every Paperclip run; docs/entries.md says why that is the rule).

use agentlines::{parse_line, Entry, StdoutParser};
use serde_json::Value;
use std::fs;
use std::path::Path;

type Totals = [f64; 4]; // input, output, cache reads, cost

fn host_summary(entries: &[Entry]) -> Totals {
    let mut t = [0.0; 4];
    for e in entries {
        if let Entry::Result { input_tokens, output_tokens, cached_tokens, cost_usd, subtype, .. } = e {
            if subtype != "paperclip_runner_session_usage" {
                for (a, b) in t.iter_mut().zip([input_tokens, output_tokens, cached_tokens, cost_usd]) {
                    *a += b;
                }
            }
        }
    }
    t
}

fn n(v: &Value, k: &str) -> f64 {
    v.get(k).and_then(Value::as_f64).unwrap_or(0.0)
}

/// A running total per process: `(key, totals)`; a new key or a total that goes down
/// starts another process. Returns the sum of each process's last totals and whether
/// every process had exactly one (or, for Claude, numbered its results: `result_index`).
fn sum_of_last(points: &[(String, Totals)]) -> (Totals, bool) {
    let mut sum = [0.0; 4];
    let mut last: Option<&(String, Totals)> = None;
    let mut single = true;
    for p in points {
        let same = last.is_some_and(|l| l.0 == p.0 && l.1.iter().zip(&p.1).all(|(a, b)| a <= b));
        if same {
            single = false;
            for (s, (a, b)) in sum.iter_mut().zip(last.unwrap().1.iter().zip(&p.1)) {
                *s += b - a;
            }
        } else {
            for (s, b) in sum.iter_mut().zip(&p.1) {
                *s += b;
            }
        }
        last = Some(p);
    }
    (sum, single)
}

/// The log's own figures, read straight from its JSON (not through the crate).
fn log_figures(lines: &[&str]) -> Option<(Totals, bool)> {
    let mut points = Vec::new();
    let mut thread = String::new();
    let mut indexed = true;
    for l in lines {
        let Ok(v) = serde_json::from_str::<Value>(l) else { continue };
        match v.get("type").and_then(Value::as_str) {
            Some("result") if v.get("total_cost_usd").is_some() => {
                indexed &= v.get("result_index").is_some();
                let session = v.get("session_id").and_then(Value::as_str).unwrap_or("").to_owned();
                let u = &v["usage"];
                let t = match v.get("modelUsage").and_then(Value::as_object).filter(|m| !m.is_empty()) {
                    Some(models) => models.values().fold([0.0, 0.0, 0.0, n(&v, "total_cost_usd")], |t, m| {
                        [
                            t[0] + n(m, "inputTokens") + n(m, "input_tokens"),
                            t[1] + n(m, "outputTokens") + n(m, "output_tokens"),
                            t[2] + n(m, "cacheReadInputTokens") + n(m, "cache_read_input_tokens"),
                            t[3],
                        ]
                    }),
                    None => [n(u, "input_tokens"), n(u, "output_tokens"), n(u, "cache_read_input_tokens"), n(&v, "total_cost_usd")],
                };
                points.push((session, t));
            }
            Some("thread.started") => thread = v["thread_id"].as_str().unwrap_or("").to_owned(),
            Some("turn.completed") => {
                indexed = false;
                let u = &v["usage"];
                points.push((thread.clone(), [n(u, "input_tokens"), n(u, "output_tokens"), n(u, "cached_input_tokens"), 0.0]));
            }
            _ => {}
        }
    }
    (!points.is_empty()).then(|| {
        let (sum, single) = sum_of_last(&points);
        (sum, single || indexed)
    })
}

fn close(a: Totals, b: Totals) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-9 * x.abs().max(1.0))
}

#[test]
fn a_real_multi_prompt_claude_process_and_a_resumed_codex_thread_add_up_on_both_paths() {
    // The host's summary of these logs, as their own last running totals state it.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let claude = fs::read_to_string(root.join("claude/stream-untether-multi-prompt-results.jsonl")).unwrap();
    let lines: Vec<&str> = claude.lines().collect();
    let want = [72.0, 1646.0, 317_539.0, 0.111_739_9];
    let stateless: Vec<Entry> = lines.iter().flat_map(|l| parse_line(l, "t")).collect();
    assert!(close(host_summary(&stateless), want), "stateless {:?}", host_summary(&stateless));
    let mut p = StdoutParser::new();
    let stateful: Vec<Entry> = lines.iter().flat_map(|l| p.parse_line(l, "t")).collect();
    assert!(close(host_summary(&stateful), want), "stateful {:?}", host_summary(&stateful));
    let codex = fs::read_to_string(root.join("codex/untether-codex-0157-resume-usage.jsonl")).unwrap();
    let mut p = StdoutParser::new();
    let got = host_summary(&codex.lines().flat_map(|l| p.parse_line(l, "t")).collect::<Vec<_>>());
    assert_eq!(got, [32_017.0, 21.0, 21_760.0, 0.0], "the thread's total, once (the log says 32,017; summed as if per turn, 64,001)");
}

#[test]
fn the_hosts_summary_over_our_results_is_the_logs_own_totals() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for dir in ["claude", "codex", "amp"] {
        let mut files: Vec<_> = fs::read_dir(root.join(dir)).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains(".expected.") || !(name.ends_with(".jsonl") || name.ends_with(".ndjson")) {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let Some((want, single)) = log_figures(&lines) else { continue };
            let mut p = StdoutParser::new();
            let stateful: Vec<Entry> = lines.iter().flat_map(|l| p.parse_line(l, "t")).collect();
            let got = host_summary(&stateful);
            assert!(close(got, want), "{dir}/{name} stateful: host summary {got:?}, the log's totals {want:?}");
            if single {
                let stateless: Vec<Entry> = lines.iter().flat_map(|l| parse_line(l, "t")).collect();
                let got = host_summary(&stateless);
                assert!(close(got, want), "{dir}/{name} stateless: host summary {got:?}, the log's totals {want:?}");
            }
            checked += 1;
        }
    }
    eprintln!("{checked} fixtures state totals");
    assert!(checked >= 8, "only {checked} fixtures state totals");
}

#[test]
fn a_multi_turn_process_is_counted_once_on_the_stateful_path() {
    // Two prompts to one Claude process, then two turns of one Codex thread across a resume.
    let claude = [
        r#"{"type":"result","subtype":"success","session_id":"s","total_cost_usd":0.18,"usage":{"input_tokens":9,"output_tokens":70},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":900,"outputTokens":2000,"cacheReadInputTokens":10,"costUSD":0.18}},"result":"a"}"#,
        r#"{"type":"result","subtype":"success","session_id":"s","total_cost_usd":0.2,"usage":{"input_tokens":3,"output_tokens":30},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":1634,"outputTokens":4882,"cacheReadInputTokens":20,"costUSD":0.2}},"result":"b"}"#,
    ];
    let (want, single) = log_figures(&claude).unwrap();
    assert!(!single);
    assert_eq!(want, [1634.0, 4882.0, 20.0, 0.2]);
    let mut p = StdoutParser::new();
    let got = host_summary(&claude.iter().flat_map(|l| p.parse_line(l, "t")).collect::<Vec<_>>());
    assert!(close(got, want), "{got:?}");
}

/// What a session file (no `result` line) spent, read straight from its JSON: Codex
/// rollouts' last `total_token_usage`; pi/OpenClaw sessions' assistant `usage` summed;
/// Claude session files' `message.usage` per message id, the last line of each id (one
/// line per content block, each with the message's usage so far). `None`: no usage.
fn session_figures(lines: &[&str]) -> Option<Totals> {
    let mut codex: Option<Totals> = None;
    let mut pi = [0.0; 4];
    let mut claude: Vec<(String, Totals)> = Vec::new();
    let mut seen = false;
    for l in lines {
        let Ok(v) = serde_json::from_str::<Value>(l) else { continue };
        let payload = &v["payload"];
        if payload["type"] == "token_count" {
            if let Some(t) = payload["info"].get("total_token_usage") {
                codex = Some([n(t, "input_tokens"), n(t, "output_tokens"), n(t, "cached_input_tokens"), 0.0]);
            }
        } else if v["type"] == "message" && v["message"]["role"] == "assistant" && v["message"].get("usage").is_some() {
            let u = &v["message"]["usage"];
            seen = true;
            for (s, x) in pi.iter_mut().zip([n(u, "input"), n(u, "output"), n(u, "cacheRead"), n(&u["cost"], "total")]) {
                *s += x;
            }
        } else if v["type"] == "assistant" && v.get("sessionId").is_some() && v.get("session_id").is_none() {
            let (m, u) = (&v["message"], &v["message"]["usage"]);
            if u.is_object() {
                let id = m["id"].as_str().unwrap_or("").to_owned();
                let t = [n(u, "input_tokens"), n(u, "output_tokens"), n(u, "cache_read_input_tokens"), n(&v, "costUSD")];
                match claude.iter_mut().find(|(k, _)| *k == id) {
                    Some((_, old)) => *old = t,
                    None => claude.push((id, t)),
                }
            }
        }
    }
    if let Some(t) = codex {
        return Some(t);
    }
    if seen {
        return Some(pi);
    }
    (!claude.is_empty()).then(|| claude.iter().fold([0.0; 4], |a, (_, t)| [a[0] + t[0], a[1] + t[1], a[2] + t[2], a[3] + t[3]]))
}

#[test]
fn session_files_without_a_result_line_add_up_to_what_they_spent() {
    // Codex rollouts (with or without `task_complete`), pi and OpenClaw session files and
    // Claude session files state no run total: the host's summary over our entries equals
    // their own per-call figures summed. Stateful always; read alone too where each line
    // is one call's own (Codex `last_token_usage`, pi messages), not Claude's, whose
    // lines repeat a message's usage (docs/entries.md).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = Vec::new();
    for dir in ["claude", "codex", "pi"] {
        let mut files: Vec<_> = fs::read_dir(root.join(dir)).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let session = name.contains("rollout") || name.contains("session");
            if name.contains(".expected.") || !name.ends_with(".jsonl") || !session || name.starts_with("stream-") {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            if log_figures(&lines).is_some() {
                continue; // it states its totals: the test above
            }
            let Some(want) = session_figures(&lines) else { continue };
            let mut p = StdoutParser::new();
            let got = host_summary(&lines.iter().flat_map(|l| p.parse_line(l, "t")).collect::<Vec<_>>());
            assert!(close(got, want), "{dir}/{name} stateful: host summary {got:?}, the file's own figures {want:?}");
            if dir != "claude" {
                let got = host_summary(&lines.iter().flat_map(|l| parse_line(l, "t")).collect::<Vec<_>>());
                assert!(close(got, want), "{dir}/{name} stateless: host summary {got:?}, the file's own figures {want:?}");
            }
            checked.push(format!("{dir}/{name}"));
        }
    }
    eprintln!("{} session files: {checked:?}", checked.len());
    assert!(checked.len() >= 12, "only {checked:?}");
}
