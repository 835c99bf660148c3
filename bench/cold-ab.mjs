// Cold first call of two builds, interleaved: fresh Node processes alternating A and B, each
// reading one ui-parser file, evaluating it the host's way (tests/js/host.mjs loadHostStyle)
// and making one parseStdoutLine call (the wasm decoded, compiled and instantiated).
//   node bench/cold-ab.mjs --a DIR --b DIR [--c DIR] [--runs 15] [--files ui-parser.stateless.js,claude/ui-parser.stateless.js]
// DIR holds dist/. Prints the median (and min, max) of evaluate, first call and their sum.
// With --c, three builds take turns (a b c, then c b a, ...).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const LINE = '{"type":"system","subtype":"init","model":"claude-sonnet-4-5","session_id":"s","tools":["Bash","Read"]}';
const TS = "2026-01-01T00:00:00.000Z";
const me = fileURLToPath(import.meta.url);

if (process.argv[2] === "--child") {
  const { loadHostStyle } = await import("../tests/js/host.mjs");
  const src = readFileSync(process.argv[3], "utf8");
  const t0 = performance.now();
  const mod = loadHostStyle(src);
  const t1 = performance.now();
  const r = mod.parseStdoutLine(LINE, TS);
  const t2 = performance.now();
  if (!Array.isArray(r)) throw new Error("no entries");
  console.log(JSON.stringify({ evalMs: t1 - t0, firstMs: t2 - t1 }));
  process.exit(0);
}

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const dirs = { a: opt("--a", null), b: opt("--b", null) };
if (opt("--c", null)) dirs.c = opt("--c", null);
const keys = Object.keys(dirs);
if (!dirs.a || !dirs.b) {
  console.error("usage: node bench/cold-ab.mjs --a DIR --b DIR [--runs N] [--files f1,f2]");
  process.exit(2);
}
const runs = Number(opt("--runs", 15));
const files = opt("--files", "ui-parser.stateless.js,claude/ui-parser.stateless.js").split(",");
const med = (xs) => { const s = [...xs].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const f1 = (x) => x.toFixed(1);

console.log(`| file | build | evaluate ms | first call ms (median, min-max) | total ms (median) |`);
console.log(`|---|---|---:|---:|---:|`);
for (const f of files) {
  const res = Object.fromEntries(keys.map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const k of i % 2 ? [...keys].reverse() : keys) {
      const p = spawnSync(process.execPath, [me, "--child", join(dirs[k], "dist", f)], { encoding: "utf8" });
      if (p.status !== 0) throw new Error(`${k} ${f}: ${p.stderr}`);
      res[k].push(JSON.parse(p.stdout));
    }
  }
  for (const k of keys) {
    const r = res[k];
    const first = r.map((x) => x.firstMs);
    console.log(`| ${f} | ${k}: ${dirs[k]} | ${f1(med(r.map((x) => x.evalMs)))} | ${f1(med(first))} (${f1(Math.min(...first))}-${f1(Math.max(...first))}) | ${f1(med(r.map((x) => x.evalMs + x.firstMs)))} |`);
  }
}
console.log(`\n${runs} fresh processes per build and file, the builds alternating; node ${process.version}.`);
