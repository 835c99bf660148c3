//! Writes the fuzz seed corpora and a libFuzzer dictionary from the project's corpus.
//!   cargo run --bin seeds -- <out dir>
//! Creates `<out>/<target>/` (one seed per file) for every target in `agentlines_fuzz::TARGETS`,
//! and `<out>/json.dict` (keys and `type`/`subtype` values seen in the corpus).

use agentlines_fuzz::support::{corpus, value_pool};
use std::fs;
use std::path::Path;

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| "fuzz/seeds".into());
    let out = Path::new(&out);
    let lines = corpus(64 * 1024);
    let pool = value_pool(&lines);
    let write = |target: &str, i: usize, bytes: &[u8]| {
        let dir = out.join(target);
        fs::create_dir_all(&dir).expect("create seed dir");
        fs::write(dir.join(format!("seed-{i:05}")), bytes).expect("write seed");
    };
    // parse_line: every distinct line (at most 4000, evenly spread over the corpus).
    let step = (lines.len() / 4000).max(1);
    for (i, l) in lines.iter().step_by(step).enumerate() {
        write("parse_line", i, l.text.as_bytes());
    }
    // stateful / chunks: windows of 8 neighbouring lines, with a selector / chunk-size prefix.
    for (i, w) in lines.chunks(8).enumerate().filter(|(i, _)| i % 2 == 0) {
        let text: Vec<&str> = w.iter().map(|l| l.text.as_str()).collect();
        let text = text.join("\n");
        if text.len() > 64 * 1024 {
            continue;
        }
        let mut s = vec![(i % 10) as u8];
        s.extend_from_slice(text.as_bytes());
        write("stateful", i, &s);
        let mut c = vec![(i * 7 % 64) as u8, (i * 13 % 256) as u8];
        c.extend_from_slice(text.as_bytes());
        write("chunks", i, &c);
    }
    // api_call: every exported name (pkg-template/api/*.json, conformance cases) with the
    // arguments the conformance cases pass.
    let mut calls: Vec<String> = vec!["nope\0[]".into(), "\0".into(), "x\0{".into()];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if let Ok(rd) = fs::read_dir(root.join("pkg-template/api")) {
        for f in rd.flatten() {
            let Ok(v) = fs::read_to_string(f.path()).map(|t| serde_json::from_str::<serde_json::Value>(&t)) else { continue };
            let Ok(v) = v else { continue };
            for key in ["functions", "constants"] {
                for n in v.get(key).and_then(|x| x.as_array()).into_iter().flatten() {
                    if let Some(n) = n.as_str() {
                        calls.push(format!("{n}\0[]"));
                        calls.push(format!("{n}\0[\"\",null,{{}},[]]"));
                    }
                }
            }
        }
    }
    for dir in [root.join("tests/fixtures/conformance"), Path::new("/work/shared/conformance").to_path_buf()] {
        let Ok(rd) = fs::read_dir(&dir) else { continue };
        for d in rd.flatten() {
            let Ok(text) = fs::read_to_string(d.path().join("cases.jsonl")) else { continue };
            for l in text.lines().take(300) {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else { continue };
                let (Some(name), Some(args)) = (v.get("fn").and_then(|x| x.as_str()), v.get("args")) else { continue };
                let args = args.to_string();
                if args.len() < 16 * 1024 {
                    calls.push(format!("{name}\0{args}"));
                }
            }
        }
    }
    calls.sort();
    calls.dedup();
    for (i, c) in calls.iter().enumerate() {
        write("api_call", i, c.as_bytes());
    }
    // Dictionary: "key": and "value" tokens (libFuzzer escapes: \\ and \" and \xNN).
    let esc = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'"' => "\\\"".to_owned(),
                b'\\' => "\\\\".to_owned(),
                0x20..=0x7e => (b as char).to_string(),
                _ => format!("\\x{b:02X}"),
            })
            .collect()
    };
    let mut dict = String::new();
    for (k, vals) in &pool {
        if k.len() <= 40 {
            dict.push_str(&format!("\"{}\"\n", esc(&format!("\"{k}\":"))));
        }
        if matches!(k.as_str(), "type" | "subtype" | "role" | "status" | "kind" | "name") {
            for v in vals.iter().filter_map(|v| v.as_str()).filter(|s| s.len() <= 40) {
                dict.push_str(&format!("\"{}\"\n", esc(&format!("\"{v}\""))));
            }
        }
    }
    for tok in ["\\ud800", "\\udc00", "1e400", "\\u0000", "null", "true", "[]", "{}", "\"__proto__\":"] {
        dict.push_str(&format!("\"{}\"\n", esc(tok)));
    }
    fs::create_dir_all(out).expect("create out dir");
    fs::write(out.join("json.dict"), dict).expect("write dict");
    eprintln!("seeds: {} corpus lines, {} api calls -> {}", lines.len(), calls.len(), out.display());
}
