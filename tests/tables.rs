//! The tables (src/tables.rs) over every fixture: each figure of a run's row is the sum or
//! count of the rows it stands for, every tool call of the entries has its row, and
//! docs/tables.md documents every column as the code defines it.

#![cfg(feature = "readers")]

use agentlines::tables::{Cell, LogTables, Row, Table, Type};
use std::path::{Path, PathBuf};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut list: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    list.sort();
    for p in list {
        if p.is_dir() {
            if !p.ends_with("conformance") {
                fixtures(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "jsonl" || e == "txt" || e == "log") {
            out.push(p);
        }
    }
}

fn rows(table: Table, text: &str) -> Vec<Row> {
    let mut t = LogTables::new(table, "f");
    let mut out = Vec::new();
    let body = text.strip_suffix('\n').unwrap_or(text);
    if !text.is_empty() {
        for line in body.split('\n') {
            t.line(line, &mut out);
        }
    }
    t.finish(&mut out);
    out
}

fn col(table: Table, name: &str) -> usize {
    table.columns().iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no column {name}"))
}

fn int(c: &Cell) -> i64 {
    match c {
        Cell::Int(n) => *n,
        _ => 0,
    }
}

fn float(c: &Cell) -> f64 {
    match c {
        Cell::Float(x) => *x,
        _ => 0.0,
    }
}

fn text(c: &Cell) -> &str {
    match c {
        Cell::Text(s) => s,
        _ => "",
    }
}

#[test]
fn every_row_has_its_columns_types() {
    let mut files = Vec::new();
    fixtures(Path::new("tests/fixtures"), &mut files);
    assert!(files.len() > 100, "fixtures found: {}", files.len());
    for f in &files {
        let data = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        for table in Table::ALL {
            for row in rows(table, &data) {
                assert_eq!(row.len(), table.columns().len(), "{}: {}", f.display(), table.name());
                for (c, cell) in table.columns().iter().zip(&row) {
                    let ok = matches!(
                        (c.ty, cell),
                        (_, Cell::Null)
                            | (Type::Text, Cell::Text(_))
                            | (Type::Int, Cell::Int(_))
                            | (Type::Float, Cell::Float(_))
                            | (Type::Bool, Cell::Bool(_))
                            | (Type::Time, Cell::Time(_))
                    );
                    assert!(ok, "{}: {}.{} holds {cell:?}", f.display(), table.name(), c.name);
                }
            }
        }
    }
}

#[test]
fn a_run_is_the_sum_of_its_entries_and_calls() {
    let mut files = Vec::new();
    fixtures(Path::new("tests/fixtures"), &mut files);
    let (e, r, t) = (Table::Entries, Table::Runs, Table::ToolCalls);
    let mut with_calls = 0;
    for f in &files {
        let data = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let entries = rows(e, &data);
        let runs = rows(r, &data);
        let calls = rows(t, &data);
        assert_eq!(runs.len(), 1, "{}", f.display());
        let run = &runs[0];
        let name = f.display();
        assert_eq!(int(&run[col(r, "entries")]), entries.len() as i64, "{name}: entries");
        for tok in ["input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens", "reasoning_tokens"] {
            let sum: i64 = entries.iter().map(|x| int(&x[col(e, tok)])).sum();
            // Each entry's count is rounded; the run's is the rounded sum.
            assert!((sum - int(&run[col(r, tok)])).abs() <= entries.len() as i64, "{name}: {tok} {sum}");
        }
        for (ec, rc) in [("cost_usd", "cost_usd"), ("estimated_cost_usd", "estimated_cost_usd")] {
            let sum: f64 = entries.iter().map(|x| float(&x[col(e, ec)])).sum();
            assert!((sum - float(&run[col(r, rc)])).abs() < 1e-9, "{name}: {rc}");
        }
        let kind = |k: &str| entries.iter().filter(|x| text(&x[col(e, "kind")]) == k).count() as i64;
        assert_eq!(int(&run[col(r, "tool_calls")]), kind("tool_call"), "{name}: tool_calls");
        // Every call of the entries is a row of the calls table, once.
        let called: Vec<&Row> = calls.iter().filter(|c| c[col(t, "line")] != Cell::Null).collect();
        assert_eq!(called.len() as i64, kind("tool_call"), "{name}: call rows");
        let errors = calls.iter().filter(|c| text(&c[col(t, "status")]) == "error").count() as i64;
        assert_eq!(errors, int(&run[col(r, "tool_errors")]), "{name}: tool errors");
        if !called.is_empty() {
            with_calls += 1;
        }
        // Entries come in file order.
        let keys: Vec<(i64, i64)> = entries.iter().map(|x| (int(&x[col(e, "line")]), int(&x[col(e, "seq")]))).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{name}: entries out of order");
    }
    assert!(with_calls > 50, "fixtures with tool calls: {with_calls}");
}

#[test]
fn a_run_log_is_read_as_the_cli_reads_it() {
    // Two rows whose chunks make one Claude line, and a stderr row.
    let log = concat!(
        r#"{"ts":"2026-01-02T03:04:05.000Z","stream":"stdout","chunk":"{\"type\":\"result\",\"subtype\":\"success\","}"#,
        "\n",
        r#"{"ts":"2026-01-02T03:04:06.000Z","stream":"stdout","chunk":"\"result\":\"done\",\"total_cost_usd\":0.5,\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}\n"}"#,
        "\n",
        r#"{"ts":"2026-01-02T03:04:07.000Z","stream":"stderr","chunk":"boom\n"}"#,
        "\n"
    );
    let (e, r) = (Table::Entries, Table::Runs);
    let entries = rows(e, log);
    let kinds: Vec<&str> = entries.iter().map(|x| text(&x[col(e, "kind")])).collect();
    assert_eq!(kinds, ["result", "stderr"]);
    assert_eq!(text(&entries[0][col(e, "ts")]), "2026-01-02T03:04:05.000Z");
    let run = &rows(r, log)[0];
    assert_eq!(float(&run[col(r, "cost_usd")]), 0.5);
    assert_eq!(int(&run[col(r, "errors")]), 1);
    assert_eq!(int(&run[col(r, "duration_ms")]), 2000);
}

#[test]
fn docs_name_every_column_as_defined() {
    let doc = std::fs::read_to_string("docs/tables.md").unwrap();
    let mut want = String::new();
    for table in Table::ALL {
        let block = doc_block(table);
        if !doc.contains(&block) {
            want.push_str(&block);
            want.push('\n');
        }
    }
    assert!(want.is_empty(), "docs/tables.md should hold these tables as written here:\n\n{want}");
}

fn doc_block(table: Table) -> String {
    let mut s = String::from("| column | type | what it holds |\n|---|---|---|\n");
    for c in table.columns() {
        let ty = match c.ty {
            Type::Text => "text",
            Type::Int => "integer",
            Type::Float => "float",
            Type::Bool => "boolean",
            Type::Time => "timestamp",
        };
        s.push_str(&format!("| `{}` | {ty} | {} |\n", c.name, c.doc.replace('|', "\\|")));
    }
    s
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// Lines a log may hold: real fixture lines cut anywhere, run-log rows, JSON fragments,
    /// text, blank lines.
    fn arb_line() -> impl Strategy<Value = String> {
        let real: Vec<String> = ["claude/session-spotter-short.jsonl", "codex/agentcmd-rollout-2025-09-24T20-12-23.jsonl"]
            .iter()
            .flat_map(|f| std::fs::read_to_string(Path::new("tests/fixtures").join(f)).unwrap().lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        let n = real.len();
        prop_oneof![
            (0..n, any::<prop::sample::Index>()).prop_map(move |(i, cut)| {
                let l = &real[i];
                let at = cut.index(l.len() + 1);
                let at = (0..=at).rev().find(|&k| l.is_char_boundary(k)).unwrap_or(0);
                if at % 3 == 0 { l.clone() } else { l[..at].to_owned() }
            }),
            ".{0,80}",
            Just(String::new()),
            "[a-z ]{0,20}".prop_map(|c| format!(r#"{{"ts":"2026-01-01T00:00:00Z","stream":"stdout","chunk":"{c}"}}"#)),
            Just(r#"{"type":"result","usage":{"input_tokens":-5,"output_tokens":1e300},"total_cost_usd":"x"}"#.to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]
        /// Any log: every table's rows have their columns, the run's sums are its entries',
        /// counts are never negative, and each tool call of the entries has its row.
        #[test]
        fn any_log_gives_consistent_tables(lines in proptest::collection::vec(arb_line(), 0..40)) {
            let text = lines.join("\n");
            let (e, r, t) = (Table::Entries, Table::Runs, Table::ToolCalls);
            let entries = rows(e, &text);
            let runs = rows(r, &text);
            let calls = rows(t, &text);
            prop_assert_eq!(runs.len(), 1);
            for (table, rs) in [(e, &entries), (r, &runs), (t, &calls)] {
                for row in rs.iter() {
                    prop_assert_eq!(row.len(), table.columns().len());
                }
            }
            let run = &runs[0];
            prop_assert_eq!(int(&run[col(r, "entries")]), entries.len() as i64);
            for tok in ["input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens", "reasoning_tokens"] {
                prop_assert!(int(&run[col(r, tok)]) >= 0);
            }
            let cost = float(&run[col(r, "cost_usd")]) + float(&run[col(r, "estimated_cost_usd")]);
            prop_assert!(cost.is_finite() && cost >= 0.0);
            let called = entries.iter().filter(|x| text_of(&x[col(e, "kind")]) == "tool_call").count();
            prop_assert_eq!(calls.iter().filter(|c| c[col(t, "line")] != Cell::Null).count(), called);
        }
    }

    fn text_of(c: &Cell) -> &str {
        super::text(c)
    }
}
