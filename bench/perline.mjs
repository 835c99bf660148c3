// Per-line speed of two builds of our stateless ui-parser file against the host's own
// parser for that runtime, in one Node process with interleaved rounds (bench/lib.mjs
// timeRounds), on the logs that host parser reads. For a change to the core: build the
// two files (scripts/assemble.mjs --out <dir>) and compare them here.
//   node bench/perline.mjs [--passes N] [--a DIR] [--b DIR] [--logs a.jsonl,b.jsonl]
// DIR holds dist/ui-parser.stateless.js (default --a: this tree's dist/). Prints a table:
// µs/line (median, min) and speed ÷ the host's parser; outputs of a and b are compared.
import { readFileSync, existsSync } from "node:fs";
import { join, basename } from "node:path";
import { loadHostStyle } from "../tests/js/host.mjs";
import { loadHostParsers, timeRounds, sharedCorpus, hostRuntimeOf, ensureBenchDeps, machine } from "./lib.mjs";

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const passes = Number(opt("--passes", 15));
const dirA = opt("--a", join(import.meta.dirname, ".."));
const dirB = opt("--b", null);
const corpus = sharedCorpus();
const logs = opt("--logs", null)?.split(",") ?? [
  join(corpus, "bench", "claude-session-spotter-fa812bfe.jsonl"),
  join(corpus, "bench", "claude-session-spotter-4d5611e5.jsonl"),
  join(corpus, "bench", "codex-rollout-agentcmd-2025-09-24T19-22-20.jsonl"),
];

ensureBenchDeps();
const { parsers } = await loadHostParsers();
const load = (dir) => loadHostStyle(readFileSync(join(dir, "dist", "ui-parser.stateless.js"), "utf8"));
const ours = { a: load(dirA), ...(dirB ? { b: load(dirB) } : {}) };
const TS = "2026-01-01T00:00:00.000Z";
const m = machine();
console.log(`# ${m.date}, ${m.nproc} cores, Node ${m.node}, load ${m.load}; ${passes} rounds; a = ${dirA}, b = ${dirB}`);
console.log("| log | lines | host µs/line | a µs/line (÷ host) | b µs/line (÷ host) | b ÷ a | outputs differ |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const log of logs) {
  if (!existsSync(log)) continue;
  const lines = readFileSync(log, "utf8").split("\n").filter((l) => l.trim());
  const rt = hostRuntimeOf(basename(log));
  const host = parsers[rt];
  const pass = (f) => () => { for (const l of lines) f(l, TS); };
  const map = {};
  if (host) map.host = pass(host);
  for (const [k, mod] of Object.entries(ours)) map[k] = pass((l, ts) => mod.parseStdoutLine(l, ts));
  let differ = 0;
  if (ours.b) for (const l of lines) if (JSON.stringify(ours.a.parseStdoutLine(l, TS)) !== JSON.stringify(ours.b.parseStdoutLine(l, TS))) differ++;
  const r = timeRounds(map, { passes, warmup: 3 });
  const us = (k, w = "median") => (r[k][w] * 1000) / lines.length;
  const cell = (k) => !r[k] ? "—" : `${us(k).toFixed(2)} / ${us(k, "min").toFixed(2)}` + (host ? ` (${(r.host.median / r[k].median).toFixed(2)}× / ${(r.host.min / r[k].min).toFixed(2)}×)` : "");
  console.log(`| ${basename(log)} | ${lines.length} | ${host ? `${us("host").toFixed(2)} / ${us("host", "min").toFixed(2)}` : "—"} | ${cell("a")} | ${cell("b")} | ${r.b ? (r.a.median / r.b.median).toFixed(2) + "×" : "—"} | ${ours.b ? differ : "—"} |`);
}
