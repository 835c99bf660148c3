// The native CLI's throughput (the bar: `agentlines parse` >= 1 GB/s on the bench logs),
// one binary or two interleaved:
//   node bench/cli.mjs [--a BIN] [--b BIN] [--runs 9] [--copies 20]
// BIN defaults to target/release/agentlines (built by `cargo build --release`). Each run is
// one process: `agentlines parse --ts <fixed> LOG LOG …` with the log given --copies times,
// so every copy is read by a fresh parser, as one log would be. (Repeating a log inside one
// file instead lets the stateful parser drop the later copies' events as already shown: the
// Codex rollout ×20 in one file gives 3.3× one copy's entries, not 20×, and measured 1.7×
// too fast before each copy got its own parser.) Output goes to a write-only /dev/null. Prints, per log, the
// median MB/s of wall time (fork to exit; the CLI is one thread, so this is its CPU time
// within a few %) and, with --b, the ratio b ÷ a.
import { openSync, statSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { sharedCorpus } from "./lib.mjs";

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const root = join(import.meta.dirname, "..");
const bins = { a: opt("--a", join(root, "target", "release", "agentlines")) };
if (opt("--b", null)) bins.b = opt("--b", null);
const runs = Number(opt("--runs", 9));
const copies = Number(opt("--copies", 20));
for (const b of Object.values(bins)) {
  if (!existsSync(b)) {
    console.error(`no ${b}: build it with cargo build --release`);
    process.exit(2);
  }
}
const corpus = sharedCorpus();
if (!corpus) {
  console.error("bench/cli.mjs needs the shared corpus (../shared/corpus/bench)");
  process.exit(2);
}
const dir = join(corpus, "bench");
const devnull = openSync("/dev/null", "w");
const med = (xs) => { const s = [...xs].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

const keys = Object.keys(bins);
const head = keys.map((k) => `${k} MB/s`).join(" | ");
console.log(`# ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; ${runs} runs; each log ×${copies} in one process; ${keys.map((k) => `${k} = ${bins[k]}`).join(", ")}`);
console.log(`| log | MB per run | ${head}${bins.b ? " | b ÷ a" : ""} |`);
console.log(`| --- | --- | ${keys.map(() => "---").join(" | ")}${bins.b ? " | ---" : ""} |`);
for (const name of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
  const path = join(dir, name);
  const bytes = statSync(path).size * copies;
  const argv = ["parse", "--ts", "2026-01-01T00:00:00Z", ...Array(copies).fill(path)];
  const rates = Object.fromEntries(keys.map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    for (const k of r % 2 ? [...keys].reverse() : keys) {
      const t0 = process.hrtime.bigint();
      const p = spawnSync(bins[k], argv, { stdio: ["ignore", devnull, "pipe"] });
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      if (p.status !== 0) {
        console.error(`${bins[k]} failed on ${name}: ${p.stderr}`);
        process.exit(1);
      }
      rates[k].push(bytes / s / 1e6);
    }
  }
  const m = Object.fromEntries(keys.map((k) => [k, med(rates[k])]));
  const cells = keys.map((k) => m[k].toFixed(0)).join(" | ");
  console.log(`| ${name} | ${(bytes / 1e6).toFixed(0)} | ${cells}${bins.b ? ` | ${(m.b / m.a).toFixed(2)}× |` : " |"}`);
}
