//! Stable-Rust fuzzing fallback (no nightly, no cargo-fuzz): a mutation loop over the seed
//! corpus written by `seeds`, running one target body of `agentlines_fuzz` per input and
//! catching panics.
//!   cargo run --release --no-default-features --bin mutate -- <target> <seconds> <seed dir>
//! A crashing input is saved as `fuzz/artifacts/<target>/crash-<n>` and the run fails.
//! Not coverage-guided: inputs that grow coverage are not kept (libFuzzer does that).

use agentlines_fuzz::support::{mutate, value_pool, Line, JUNK};
use agentlines_fuzz::TARGETS;
use std::panic;
use std::path::Path;
use std::time::{Duration, Instant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as usize
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map(String::as_str).unwrap_or("parse_line");
    let secs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed_dir = args.get(3).map(String::as_str).unwrap_or("fuzz/seeds");
    let Some(&(_, target)) = TARGETS.iter().find(|(n, _)| *n == name) else {
        eprintln!("unknown target {name}; targets: {:?}", TARGETS.iter().map(|t| t.0).collect::<Vec<_>>());
        std::process::exit(2);
    };
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(Path::new(seed_dir).join(name))
        .map(|rd| rd.flatten().filter_map(|e| std::fs::read(e.path()).ok()).collect())
        .unwrap_or_default();
    if seeds.is_empty() {
        seeds.push(b"{\"type\":\"x\"}".to_vec());
    }
    let lines: Vec<Line> = seeds
        .iter()
        .map(|s| Line { text: String::from_utf8_lossy(s).into_owned(), origin: String::new() })
        .collect();
    let pool = value_pool(&lines);
    panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Instant::now();
    let (mut execs, mut crashes) = (0u64, 0u32);
    while start.elapsed() < Duration::from_secs(secs) {
        let mut input = seeds[rng.next() % seeds.len()].clone();
        for _ in 0..1 + rng.next() % 4 {
            input = match rng.next() % 10 {
                // Splice: the head of this input, the tail of another.
                8 => {
                    let other = &seeds[rng.next() % seeds.len()];
                    let a = rng.next() % (input.len() + 1);
                    let b = rng.next() % (other.len() + 1);
                    [&input[..a], &other[b..]].concat()
                }
                // Raw byte noise (invalid UTF-8 included).
                9 => {
                    let mut v = input;
                    let at = rng.next() % (v.len() + 1);
                    let junk = JUNK[rng.next() % JUNK.len()].as_bytes();
                    v.splice(at..at, junk.iter().copied().chain([(rng.next() & 0xff) as u8]));
                    v
                }
                op => {
                    let t = String::from_utf8_lossy(&input).into_owned();
                    mutate(&t, op as u8, rng.next(), rng.next(), rng.next(), &pool).into_bytes()
                }
            };
        }
        execs += 1;
        if panic::catch_unwind(|| target(&input)).is_err() {
            crashes += 1;
            let dir = Path::new("fuzz/artifacts").join(name);
            let _ = std::fs::create_dir_all(&dir);
            let path = dir.join(format!("crash-{crashes}"));
            let _ = std::fs::write(&path, &input);
            let _ = panic::take_hook();
            let msg = panic::catch_unwind(|| target(&input)).err();
            let msg = msg.as_ref().and_then(|m| m.downcast_ref::<String>().cloned()).unwrap_or_default();
            eprintln!("crash -> {}: {}", path.display(), msg.chars().take(500).collect::<String>());
            panic::set_hook(Box::new(|_| {}));
            if crashes >= 5 {
                break;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{name}: {execs} execs in {secs:.0} s ({:.0}/s), {crashes} crashes, {} seeds", execs as f64 / secs, seeds.len());
    if crashes > 0 {
        std::process::exit(1);
    }
}
