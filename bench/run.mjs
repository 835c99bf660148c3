// `make bench`: throughput of our parser against the host's own parsers, JSON.parse
// and the native core, on the same real logs, in one Node process; then cold start, sizes,
// 1M lines through one stateful parser, the boundary breakdown and the wasm size listing.
//
//   node bench/run.mjs [--passes N] [--quick] [--million N] [--no-native] [--no-boundary]
//                      [--no-write]
//
// Prints markdown tables and writes them into docs/bench.md (between the bench:run markers).
// Not a test: nothing here fails on a slow number. See docs/bench.md for what each number is.
import { readFileSync, writeFileSync, existsSync, mkdtempSync, rmSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import {
  root, benchDir, benchGroups, bigClaude, ensureBenchDeps, loadHostParsers, loadOurs, requireDist,
  distPath, timeRounds, median, machine, mdTable, fmt, groupLabel, fixtureTs, hostPkgDir, now,
} from "./lib.mjs";
import { loadHostStyle } from "../tests/js/host.mjs";
import { writeDocSection } from "./doc.mjs";

const argv = process.argv.slice(2);
const flag = (n) => argv.includes(n);
const opt = (n, d) => {
  const i = argv.indexOf(n);
  return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : d;
};

// ---------------------------------------------------------------------------------------
// Child modes (fresh processes for cold start and for the 1M-line memory run)

if (argv[0] === "--child") {
  await child(argv[1], argv.slice(2));
  process.exit(0);
}

async function child(mode, args) {
  const { groups } = benchGroups({ onlyBig: true });
  const g = bigClaude(groups);
  const line = g ? g.lines[0] : '{"type":"system","subtype":"init"}';
  if (mode === "cold") {
    const t0 = now();
    const src = readFileSync(distPath(args[0]), "utf8");
    const t1 = now();
    const mod = loadHostStyle(src);
    const t2 = now();
    mod.parseStdoutLine(line, fixtureTs(0));
    const t3 = now();
    mod.parseStdoutLine(g ? g.lines[1] : line, fixtureTs(1));
    const t4 = now();
    console.log(JSON.stringify({ readMs: t1 - t0, evalMs: t2 - t1, firstMs: t3 - t2, secondMs: t4 - t3 }));
  } else if (mode === "cold-parts") {
    // The first call's parts, from a copy of the glue with a probe appended.
    const src = readFileSync(distPath("ui-parser.stateless.js"), "utf8") +
      "\nmodule.exports.__probe = { text: AGENTLINES_WASM, map: AGENTLINES_WASM_MAP, dec: alWasmBytes, " +
      "unsplit: alUnsplit, decoder: AGENTLINES_UNSPLIT };\n";
    const { text, map, dec, unsplit, decoder } = loadHostStyle(src).__probe;
    const t0 = now();
    const d = new WebAssembly.Instance(new WebAssembly.Module(dec(decoder, map)), {}).exports;
    const tc = now();
    const bytes = unsplit(text, map, d); // characters -> bytes -> the split streams back (glue.js)
    const t1 = now();
    const wmod = new WebAssembly.Module(bytes);
    const t2 = now();
    const inst = new WebAssembly.Instance(wmod, {});
    const t3 = now();
    const x = inst.exports;
    const enc = new TextEncoder();
    const ptr = x.al_input(line.length * 3 + 100);
    const la = enc.encodeInto(line, new Uint8Array(x.memory.buffer, ptr, line.length * 3)).written;
    x.al_parse_line(la, 0);
    const t4 = now();
    x.al_parse_line(la, 0);
    const t5 = now();
    console.log(JSON.stringify({ decodeMs: t1 - t0, decoderMs: tc - t0, unsplitMs: t1 - tc, compileMs: t2 - t1, instantiateMs: t3 - t2, firstParseMs: t4 - t3, secondParseMs: t5 - t4 }));
  } else if (mode === "cold-host") {
    const rt = args[0];
    const t0 = now();
    const mod = await import(new URL(`file://${join(hostPkgDir(rt), "dist", "ui", "parse-stdout.js")}`).href);
    const t1 = now();
    const fn = Object.values(mod).find((f) => typeof f === "function");
    fn(line, fixtureTs(0));
    const t2 = now();
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1 }));
  } else if (mode === "firstpass") {
    // The first passes over a whole log in a fresh process: what the host's worker pays
    // when it renders a run once (wasm still in its baseline tier, JS not yet optimised).
    let parse;
    if (args[0] === "host") {
      const { parsers } = await import("./lib.mjs").then((l) => l.loadHostParsers());
      parse = parsers.claude;
    } else if (args[0] === "stateful") {
      const p = loadOurs("ui-parser.js").createStdoutParser();
      parse = (l, t) => p.parseLine(l, t);
    } else {
      const mod = loadOurs("ui-parser.stateless.js");
      parse = (l, t) => mod.parseStdoutLine(l, t);
    }
    const passMs = [];
    for (let k = 0; k < 3; k++) {
      const t = now();
      for (let i = 0; i < g.lines.length; i++) parse(g.lines[i], g.ts[i]);
      passMs.push(now() - t);
    }
    console.log(JSON.stringify({ passMs }));
  } else if (mode === "million") {
    const total = Number(args[0]) || 1_000_000;
    const chunk = Math.max(1, Math.min(100_000, Math.floor(total / 10)));
    // Keep a handle on the wasm instance the glue creates, to read its memory size.
    const instances = [];
    const RealInstance = WebAssembly.Instance;
    WebAssembly.Instance = function (m, imports) {
      const inst = new RealInstance(m, imports);
      instances.push(inst);
      return inst;
    };
    const mod = loadOurs("ui-parser.js");
    const p = mod.createStdoutParser();
    const lines = g.lines;
    const rss0 = process.memoryUsage().rss;
    const chunks = [];
    let entries = 0;
    let t = now();
    for (let i = 0; i < total; i++) {
      entries += p.parseLine(lines[i % lines.length], fixtureTs(i)).length;
      if ((i + 1) % chunk === 0) {
        const t2 = now();
        chunks.push(t2 - t);
        t = t2;
      }
    }
    const mem = process.memoryUsage();
    const wasm = instances.length ? instances[instances.length - 1].exports.memory.buffer.byteLength : 0;
    console.log(JSON.stringify({
      total, chunk, chunks, entries, file: g.name, rss0, rss: mem.rss, heapUsed: mem.heapUsed,
      external: mem.external, wasm, instances: instances.length, maxRSS: process.resourceUsage().maxRSS * 1024,
    }));
  } else {
    throw new Error(`unknown child mode ${mode}`);
  }
}

function runChild(args, nodeFlags = []) {
  const r = spawnSync(process.execPath, [...nodeFlags, join(benchDir, "run.mjs"), "--child", ...args],
    { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`child ${args.join(" ")} failed: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

// ---------------------------------------------------------------------------------------
// Main

const quick = flag("--quick");
const passes = opt("--passes", quick ? 5 : 11);
const warmup = quick ? 1 : 3;
const million = opt("--million", quick ? 200_000 : 1_000_000);

requireDist();
const deps = ensureBenchDeps();
const { parsers: host, versions } = await loadHostParsers();
const { corpus, source, groups } = benchGroups();
const m = machine();
const notes = [];
if (!corpus) {
  notes.push(`The shared corpus (../shared/corpus) is absent: using ${source.replace(root + "/", "")} instead (small files; set AGENTLINES_CORPUS to point at a corpus).`);
}
if (!deps.ok) notes.push(`The host's parsers could not be installed (${deps.error}): their columns are empty.`);
console.error(`[bench] ${m.date}, ${m.nproc} cores, load ${m.load}, node ${m.node}; logs from ${source}`);

const bigG = bigClaude(groups);
const stateful = loadOurs("ui-parser.js");
const stateless = loadOurs("ui-parser.stateless.js");
const batch = createRequire(import.meta.url)(distPath("index.cjs"));

// One pass over a group for each implementation. Each returns a count so nothing is dead code.
const impls = [
  ["host's parser (npm 2026.916.1)", (g) => host[g.runtime] && ((fn) => () => {
    let n = 0;
    for (let i = 0; i < g.lines.length; i++) n += fn(g.lines[i], g.ts[i]).length;
    return n;
  })(host[g.runtime])],
  ["JSON.parse of every line (floor)", (g) => () => {
    let n = 0;
    for (const l of g.lines) {
      try { JSON.parse(l); n++; } catch { /* plain text line */ }
    }
    return n;
  }],
  ["ours: createStdoutParser().parseLine", (g) => () => {
    const p = stateful.createStdoutParser();
    let n = 0;
    for (let i = 0; i < g.lines.length; i++) n += p.parseLine(g.lines[i], g.ts[i]).length;
    return n;
  }],
  ["ours: parseStdoutLine (stateless)", (g) => () => {
    let n = 0;
    for (let i = 0; i < g.lines.length; i++) n += stateless.parseStdoutLine(g.lines[i], g.ts[i]).length;
    return n;
  }],
  ["ours: parseLog(text) (batch, index.cjs)", (g) => () => batch.parseLog(g.text, g.ts[0]).length],
  ["ours: parseLines(lines, ts[]) (batch)", (g) => () => batch.parseLines(g.lines, g.ts).length],
];

const results = {}; // results[impl][group] = { median, min }
for (const [name] of impls) results[name] = {};
for (const g of groups) {
  const passMap = Object.fromEntries(impls.map(([name, make]) => [name, make(g)]));
  const t = timeRounds(passMap, { warmup, passes });
  for (const [name, r] of Object.entries(t)) results[name][g.name] = r;
  console.error(`[bench] ${g.name}: done`);
}

// Native core on the same bytes.
let native = null;
if (!flag("--no-native")) {
  const tmp = mkdtempSync(join(tmpdir(), "agentlines-bench-"));
  const files = groups.map((g, i) => {
    if (g.files.length === 1) return g.files[0];
    const f = join(tmp, `group-${i}.jsonl`);
    writeFileSync(f, g.text);
    return f;
  });
  console.error("[bench] native: cargo run --release --example bench_native (builds once)");
  const r = spawnSync("cargo", ["run", "--release", "--quiet", "--example", "bench_native", "--",
    "--passes", String(passes), "--warmup", String(warmup), ...files],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 << 20 });
  rmSync(tmp, { recursive: true, force: true });
  if (r.status === 0) {
    const out = JSON.parse(r.stdout.trim().split("\n").pop());
    native = {};
    out.files.forEach((f, i) => { native[groups[i].name] = f; });
  } else {
    notes.push(`The native baseline did not run (cargo exited ${r.status}).`);
  }
}
const nativeRows = [
  ["native: parse_line + to_json (stateless)", "stateless_json"],
  ["native: StdoutParser + to_json per line", "stateful_json"],
  ["native: parse_log_with + to_json (batch)", "batch_json"],
  ["native: serde_json::Value of every line", "serde_value"],
  ["native: serde_json IgnoredAny of every line (skip all: floor)", "serde_skip"],
];
if (native) {
  for (const [name, key] of nativeRows) {
    results[name] = {};
    for (const g of groups) {
      const ns = native[g.name]?.ns?.[key];
      if (ns !== undefined) results[name][g.name] = { median: ns / 1e6, min: native[g.name].min_ns[key] / 1e6 };
    }
  }
}

// ---------------------------------------------------------------------------------------
// Throughput tables

const hostName = impls[0][0];
const names = Object.keys(results);
const cell = (name, g, what) => {
  const r = results[name][g.name];
  if (!r) return "—";
  const ls = g.lines.length / (r.median / 1e3);
  const mbs = g.bytes / 2 ** 20 / (r.median / 1e3);
  if (what === "lines") return fmt.rate(ls);
  const h = results[hostName][g.name];
  const ratio = h ? ` (${fmt.ratio(h.median / r.median)})` : "";
  return `${mbs.toFixed(1)}${name === hostName ? "" : ratio}`;
};
const shortName = (g) => g.name.replace(/^claude-session-/, "claude ").replace(/-agentcmd-.*$/, "");
const heads = groups.map((g) => `${shortName(g)}<br>${fmt.mb(g.bytes)}, ${g.lines.length} l`);
const mbTable = mdTable(["MB/s (speed ÷ host's parser)", ...heads], names.map((n) => [n, ...groups.map((g) => cell(n, g, "mb"))]));
const lsTable = mdTable(["lines/s", ...heads], names.map((n) => [n, ...groups.map((g) => cell(n, g, "lines"))]));

// Detail for the reference Claude log (bigClaude: the 3.3 MB session log when present): median and fastest pass, and the ratio both ways.
let detailTable = "";
if (bigG) {
  const h = results[hostName][bigG.name];
  const extra = native?.[bigG.name] ? [["native: serde_json struct with only `type` (skip the rest)", {
    median: native[bigG.name].ns.serde_type_only / 1e6, min: native[bigG.name].min_ns.serde_type_only / 1e6 }]] : [];
  const rows = [...names.map((n) => [n, results[n][bigG.name]]), ...extra].filter(([, r]) => r).map(([n, r]) => [
    n, fmt.ms(r.median), Number.isFinite(r.min) ? fmt.ms(r.min) : "—", ((r.median * 1e3) / bigG.lines.length).toFixed(2),
    (bigG.bytes / 2 ** 20 / (r.median / 1e3)).toFixed(1),
    h ? fmt.ratio(h.median / r.median) : "—", h && Number.isFinite(r.min) ? fmt.ratio(h.min / r.min) : "—",
  ]);
  detailTable = mdTable([`${groupLabel(bigG)}`, "ms/pass median", "ms/pass min", "µs/line", "MB/s", "speed ÷ host (median)", "speed ÷ host (min)"], rows);
}

// ---------------------------------------------------------------------------------------
// Cold start, sizes, 1M lines

const coldRuns = quick ? 3 : 7;
const cold = {};
for (const rel of ["ui-parser.js", "ui-parser.stateless.js"]) {
  const runs = Array.from({ length: coldRuns }, () => runChild(["cold", rel]));
  cold[rel] = Object.fromEntries(["readMs", "evalMs", "firstMs", "secondMs"].map((k) => [k, median(runs.map((r) => r[k]))]));
}
const partRuns = Array.from({ length: coldRuns }, () => runChild(["cold-parts"]));
const parts = Object.fromEntries(Object.keys(partRuns[0]).map((k) => [k, median(partRuns.map((r) => r[k]))]));
const coldHost = {};
for (const rt of Object.keys(host)) {
  const runs = Array.from({ length: coldRuns }, () => runChild(["cold-host", rt]));
  coldHost[rt] = { importMs: median(runs.map((r) => r.importMs)), firstMs: median(runs.map((r) => r.firstMs)) };
}
const firstPass = {};
for (const which of ["stateless", "stateful", ...(host.claude ? ["host"] : [])]) {
  const runs = Array.from({ length: coldRuns }, () => runChild(["firstpass", which]).passMs);
  firstPass[which] = [0, 1, 2].map((k) => median(runs.map((r) => r[k])));
}
// Fresh vm contexts in this (warm) process: V8 compiles the module again each time.
const src = readFileSync(distPath("ui-parser.js"), "utf8");
const ctxRuns = [];
for (let i = 0; i < coldRuns; i++) {
  const t = now();
  loadHostStyle(src).parseStdoutLine(bigG.lines[0], bigG.ts[0]);
  ctxRuns.push(now() - t);
}
const coldRows = [
  ...Object.entries(cold).map(([rel, c]) => [`ours: dist/${rel}, fresh process`, fmt.ms(c.evalMs), fmt.ms(c.firstMs), fmt.ms(c.evalMs + c.firstMs), fmt.ms(c.secondMs)]),
  ["ours: dist/ui-parser.js, fresh vm context, warm process", "", "", fmt.ms(median(ctxRuns)), ""],
  ...Object.entries(coldHost).map(([rt, c]) => [`host's ${rt} parser: ESM import (+ adapter-utils), fresh process`, fmt.ms(c.importMs), fmt.ms(c.firstMs), fmt.ms(c.importMs + c.firstMs), ""]),
];
const fpNames = { stateless: "ours: parseStdoutLine", stateful: "ours: createStdoutParser().parseLine", host: "host's Claude parser" };
const firstPassTable = bigG ? mdTable([`fresh process, ${bigG.name} (median of ${coldRuns})`, "1st pass ms", "2nd pass ms", "3rd pass ms"],
  Object.entries(firstPass).map(([k, v]) => [fpNames[k], ...v.map(fmt.ms)])) : "";
const coldTable = mdTable(["cold start (median of " + coldRuns + ")", "evaluate / import ms", "first call ms (wasm string→bytes + compile + instantiate + parse)", "total ms", "second call ms"], coldRows) +
  `\n\nFirst call, in parts (fresh process, median of ${coldRuns}): wasm string → bytes in the glue ${fmt.ms(parts.decodeMs)} ms ` +
  `(the decoder wasm compiled and instantiated ${fmt.ms(parts.decoderMs)} ms, characters → bytes → wasm in it ${fmt.ms(parts.unsplitMs)} ms), ` +
  `\`new WebAssembly.Module\` ${fmt.ms(parts.compileMs)} ms (V8 compiles lazily: functions are compiled when first called), ` +
  `\`new WebAssembly.Instance\` ${fmt.ms(parts.instantiateMs)} ms, first \`al_parse_line\` (lazy compilation of what it touches + one parse) ` +
  `${fmt.ms(parts.firstParseMs)} ms, second ${fmt.ms(parts.secondParseMs)} ms.`;

// Every file the host may load: the full parser and the per-runtime ones (dist/<runtime>/).
const BUDGET_FULL = 100 * 1024; // the size targets, as scripts/check-package.mjs
const TARGET_RUNTIME = 60 * 1024;
const sizeRows = [];
const hostFiles = ["ui-parser.js", "ui-parser.stateless.js"];
for (const d of readdirSync(distPath("")).sort()) {
  for (const f of ["ui-parser.js", "ui-parser.stateless.js"]) if (existsSync(distPath(join(d, f)))) hostFiles.push(join(d, f));
}
for (const rel of [...hostFiles, "index.cjs"]) {
  const b = readFileSync(distPath(rel));
  const g = gzipSync(b, { level: 9 }).length;
  const budget = rel === "index.cjs" ? null : rel.includes("/") ? TARGET_RUNTIME : BUDGET_FULL;
  sizeRows.push([`dist/${rel}`, String(b.length), String(g), budget ? `${fmt.kb(budget)} ${g <= budget ? "✓" : `over by ${fmt.kb(g - budget)}`}` : ""]);
}
const wasmDir = join(root, "target", "pkg-wasm");
for (const f of existsSync(wasmDir) ? readdirSync(wasmDir).filter((x) => x.endsWith(".wasm")).sort() : []) {
  const b = readFileSync(join(wasmDir, f));
  sizeRows.push([`target/pkg-wasm/${f} (inlined, one char per byte)`, String(b.length), String(gzipSync(b, { level: 9 }).length), ""]);
}
const sizeTable = mdTable(["file", "raw bytes", "gzip -9 bytes", "budget (full) / target (per runtime)"], sizeRows);

let millionMd = "";
let mil = null;
if (million > 0 && bigG) {
  console.error(`[bench] ${million} lines through one stateful parser (child process)`);
  mil = runChild(["million", String(million)]);
  const c = mil.chunks;
  const perLine = (ms) => `${((ms * 1e3) / mil.chunk).toFixed(2)} µs/line`;
  millionMd = mdTable(["after " + mil.total.toLocaleString("en") + " lines (" + mil.file + " repeated), one createStdoutParser()", "value"], [
    ["process RSS (start of loop → end)", `${fmt.mb(mil.rss0)} → ${fmt.mb(mil.rss)} (max ${fmt.mb(mil.maxRSS)})`],
    ["wasm linear memory", fmt.mb(mil.wasm)],
    ["JS heap used / external", `${fmt.mb(mil.heapUsed)} / ${fmt.mb(mil.external)}`],
    [`first ${mil.chunk.toLocaleString("en")} lines`, `${fmt.ms(c[0])} ms (${perLine(c[0])})`],
    [`last ${mil.chunk.toLocaleString("en")} lines`, `${fmt.ms(c[c.length - 1])} ms (${perLine(c[c.length - 1])})`],
    ["every chunk, ms", c.map((x) => x.toFixed(0)).join(", ")],
    ["entries out / wasm instances", `${mil.entries} / ${mil.instances}`],
  ]);
}

// ---------------------------------------------------------------------------------------
// Boundary breakdown and wasm size listing (bench/boundary.mjs, bench/size.mjs)

let boundaryMd = "";
if (!flag("--no-boundary")) {
  const { runBoundary } = await import("./boundary.mjs");
  const b = await runBoundary({ passes, warmup, group: bigG });
  boundaryMd = b.markdown;
  notes.push(...b.notes);
  const { sizeReport } = await import("./size.mjs");
  const s = sizeReport();
  boundaryMd += "\n\n" + s.markdown;
  notes.push(...s.notes);
  const { encodingReport } = await import("./encoding.mjs");
  const e = encodingReport({ runs: coldRuns });
  boundaryMd += "\n\n" + e.markdown;
  notes.push(...e.notes);
}

// ---------------------------------------------------------------------------------------

const hostVer = Object.entries(versions).map(([rt, v]) => `${rt} ${v}`).join(", ") || "not installed";
const md = [
  `Measured ${m.date} on ${m.nproc} cores (${m.cpu}, ${m.memGB} GB), Node ${m.node}, load average at start ${m.load}; ` +
    `median of ${passes} passes after ${warmup} warm-up passes, one process. Host parsers: ${hostVer}. Logs: ${corpus ? "the shared corpus" : source.replace(root + "/", "")}.`,
  ...notes.map((n) => `> ${n}`),
  "",
  "#### Throughput, MB/s (in parentheses: our speed ÷ the host's parser for that runtime; > 1 = ours faster)",
  "",
  mbTable,
  "",
  "#### Throughput, lines/s",
  "",
  lsTable,
  "",
  ...(detailTable ? ["#### Detail: the reference Claude log", "", detailTable, ""] : []),
  "#### Cold start",
  "",
  coldTable,
  "",
  ...(firstPassTable ? ["#### First passes over a whole log in a fresh process (what one render of a run costs the worker)", "", firstPassTable, ""] : []),
  "#### Size",
  "",
  sizeTable,
  "",
  ...(millionMd ? ["#### Memory and flatness, 1M lines", "", millionMd, ""] : []),
  ...(boundaryMd ? [boundaryMd, ""] : []),
].join("\n");

console.log(md);
if (!flag("--no-write")) {
  writeDocSection("run", md);
  console.error("[bench] written to docs/bench.md");
  // The README's one sentence on speed per line, from the same run (never copied by hand).
  if (bigG) {
    const mbs = (n) => { const r = results[n]?.[bigG.name]; return r ? bigG.bytes / 2 ** 20 / (r.median / 1e3) : null; };
    const hostMbs = mbs(hostName);
    const part = (label, n) => { const v = mbs(n); return v === null ? null : `${label} ${v.toFixed(1)} (${(v / hostMbs).toFixed(2)}×)`; };
    const parts = [part("our default file", "ours: parseStdoutLine (stateless)"), part("the stateful parser", "ours: createStdoutParser().parseLine"),
      part("the native core", "native: StdoutParser + to_json per line")].filter(Boolean);
    writeDocSection("perline", `Per line (\`make bench\`, ${new Date().toISOString().slice(0, 10)}, ${groupLabel(bigG)}), the host's own Claude\n` +
      `parser reads ${hostMbs.toFixed(1)} MB/s; ${parts.join(", ")}.`, "../README.md");
  }
}
