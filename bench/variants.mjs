// Build-setting variants of the shipped parser, measured for size and speed (input for the
// size/speed trade-off; not part of `make bench`, it builds the crate several times).
//
//   node bench/variants.mjs [--passes N] [--log FILE]
//
// Each variant is the crate built for wasm32 (the default file's features) with profile
// settings changed through cargo's CARGO_PROFILE_WASM_* environment variables or RUSTFLAGS
// (Cargo.toml is not touched; each into its own target/bench-variants/<name> dir), then
// wasm-opt with the flags given, then assembled into a ui-parser.stateless.js by
// scripts/assemble.mjs (--out target/bench-variants/<variant>). Reported: wasm and
// ui-parser gzip bytes, warm per-line time (stateless calls, all variants timed in rounds
// against each other), the first pass over the log in a fresh process, and how many lines
// each variant answers differently from dist/ (0 for a working build).
import { readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import {
  root, benchDir, benchGroups, bigClaude, distPath, loadHostStyle, timeRounds, median, mdTable, fmt,
  linesOf, fixtureTs, now, hostFeatures, machine,
} from "./lib.mjs";

const FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-simd"];
const STRIP = ["--strip-debug", "--strip-producers"];
// The shipped setting is opt-level "z" with LLVM's own inlining for it (Cargo.toml) +
// `-C target-feature=+simd128` (.cargo/config.toml) and wasm-opt `-O2 -ocimfs 0` (Makefile).
// RUSTFLAGS in the environment replaces the config's flags, so each variant here keeps simd128.
const SIMD = "-C target-feature=+simd128";
const inline = (n) => ({ RUSTFLAGS: `${SIMD} -C llvm-args=-inline-threshold=${n}` });
const SHIPPED_OPT = ["-O2", "-ocimfs", "0"];
const VARIANTS = [
  { name: "shipped (opt-level z, wasm-opt -O2 -ocimfs 0)", env: {}, dir: "z", opt: SHIPPED_OPT },
  { name: "opt-level z, inline threshold 100 (shipped while the JSON layer was serde_json)", env: inline(100), dir: "z-i100", opt: SHIPPED_OPT },
  { name: "opt-level z, inline threshold 25", env: inline(25), dir: "z-i25", opt: SHIPPED_OPT },
  { name: "opt-level s", env: { CARGO_PROFILE_WASM_OPT_LEVEL: "s" }, dir: "s", opt: SHIPPED_OPT },
  { name: "opt-level z, wasm-opt -O1", env: {}, dir: "z", opt: ["-O1"] },
  { name: "opt-level z, wasm-opt -Oz", env: {}, dir: "z", opt: ["-Oz"] },
  { name: "opt-level z, no wasm-opt", env: {}, dir: "z", opt: null },
  { name: "opt-level 3, wasm-opt -O3", env: { CARGO_PROFILE_WASM_OPT_LEVEL: "3" }, dir: "o3", opt: ["-O3"] },
];

const argv = process.argv.slice(2);

if (argv[0] === "--child") {
  // First passes over the log in a fresh process with one variant's ui-parser source.
  const mod = loadHostStyle(readFileSync(argv[1], "utf8"));
  const lines = linesOf(readFileSync(argv[2], "utf8"));
  const passMs = [];
  for (let k = 0; k < 2; k++) {
    const t = now();
    for (let i = 0; i < lines.length; i++) mod.parseStdoutLine(lines[i], fixtureTs(i));
    passMs.push(now() - t);
  }
  console.log(JSON.stringify(passMs));
  process.exit(0);
}

const mc = machine(); // date and load at the start
const i = argv.indexOf("--passes");
const passes = i >= 0 ? Number(argv[i + 1]) : 11;
const li = argv.indexOf("--log");
const g = li >= 0
  ? (() => { const lines = linesOf(readFileSync(argv[li + 1], "utf8")); return { name: argv[li + 1], files: [argv[li + 1]], lines, ts: lines.map((_, k) => fixtureTs(k)) }; })()
  : bigClaude(benchGroups({ onlyBig: true }).groups);
// The features of the wasm in dist/ui-parser.stateless.js (the Makefile's host-stateless.wasm).
const FEATS = hostFeatures(null, "host-stateless");
const shipped = loadHostStyle(readFileSync(distPath("ui-parser.stateless.js"), "utf8"));
const outDir = join(root, "target", "bench-variants");
mkdirSync(outDir, { recursive: true });

const built = [];
for (const v of VARIANTS) {
  const targetDir = join(outDir, v.dir);
  console.error(`[variants] ${v.name}: cargo build`);
  // The features of the host's files (dist/ui-parser*.js: every runtime, no readers).
  const b = spawnSync("cargo", ["build", "--quiet", "-p", "agentlines", "--lib", "--target", "wasm32-unknown-unknown", "--profile", "wasm",
    "--no-default-features", "--features", FEATS, "--target-dir", targetDir, ...(v.config ?? [])], { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...v.env } });
  if (b.status !== 0) { console.error(`[variants] ${v.name}: build failed`); continue; }
  const raw = join(targetDir, "wasm32-unknown-unknown", "wasm", "agentlines.wasm");
  let wasmFile = raw;
  if (v.opt) {
    wasmFile = join(outDir, `${v.dir}${v.opt.join("")}.wasm`);
    const o = spawnSync("wasm-opt", [...v.opt, ...FEATURES, ...STRIP, raw, "-o", wasmFile], { stdio: "inherit" });
    if (o.status !== 0) { console.error(`[variants] ${v.name}: wasm-opt failed`); continue; }
  }
  const wasm = readFileSync(wasmFile);
  // The shipped file with this variant's wasm, written by the package build itself
  // (scripts/assemble.mjs: the split streams, the character table, the glue).
  const pkgRoot = join(outDir, `${v.dir}${(v.opt ?? ["none"]).join("")}`);
  const a = spawnSync(process.execPath, [join(root, "scripts", "assemble.mjs"), "--host", wasmFile, "--full", wasmFile,
    "--host-stateless", wasmFile, "--out", pkgRoot], { stdio: ["ignore", "ignore", "inherit"] });
  if (a.status !== 0) { console.error(`[variants] ${v.name}: assemble failed`); continue; }
  const srcFile = join(pkgRoot, "dist", "ui-parser.stateless.js");
  const src = readFileSync(srcFile, "utf8");
  const mod = loadHostStyle(src);
  // A file that failed to load still answers (never throws): count the lines whose answer
  // differs from the shipped dist/ file's, so a broken variant shows instead of timing fast.
  const differ = g.lines.filter((l, k) => JSON.stringify(mod.parseStdoutLine(l, g.ts[k])) !==
    JSON.stringify(shipped.parseStdoutLine(l, g.ts[k]))).length;
  built.push({ ...v, wasm: wasm.length, wasmGz: gzipSync(wasm, { level: 9 }).length,
    js: src.length, jsGz: gzipSync(src, { level: 9 }).length, srcFile, mod, differ });
}

const { lines, ts } = g;
const t = timeRounds(Object.fromEntries(built.map((v) => [v.name, () => {
  let n = 0;
  for (let k = 0; k < lines.length; k++) n += v.mod.parseStdoutLine(lines[k], ts[k]).length;
  return n;
}])), { passes, warmup: 3 });

const logFile = g.files.length === 1 ? g.files[0] : (() => { const f = join(outDir, "log.jsonl"); writeFileSync(f, lines.join("\n") + "\n"); return f; })();
const rows = [];
for (const v of built) {
  const firsts = [];
  for (let k = 0; k < 7; k++) {
    const r = spawnSync(process.execPath, [join(benchDir, "variants.mjs"), "--child", v.srcFile, logFile], { encoding: "utf8" });
    if (r.status === 0) firsts.push(JSON.parse(r.stdout.trim())[0]);
  }
  const base = built[0];
  rows.push([v.name, String(v.wasm), String(v.wasmGz), String(v.jsGz), `${v.jsGz - base.jsGz >= 0 ? "+" : ""}${v.jsGz - base.jsGz}`,
    ((t[v.name].median * 1e3) / lines.length).toFixed(2), ((t[v.name].min * 1e3) / lines.length).toFixed(2),
    firsts.length ? fmt.ms(median(firsts)) : "—", String(v.differ)]);
}
const md = [
  `Measured ${mc.date} on ${mc.nproc} cores, Node ${mc.node}, load average at start ${mc.load}. Builds: the default file's features (${FEATS}).`,
  "",
  `#### Build variants, ${g.name} (${lines.length} lines; per-line = stateless parseStdoutLine, warm, ${passes} rounds)`,
  "",
  mdTable(["variant", "wasm bytes", "wasm gzip", "ui-parser.stateless.js gzip", "Δ gzip vs shipped", "µs/line median", "µs/line min", "1st pass, fresh process, ms (median of 7)", "lines answered unlike dist/"], rows),
].join("\n");
console.log(md);
if (existsSync(join(root, "docs", "bench.md")) && !argv.includes("--no-write")) {
  const { writeDocSection } = await import("./doc.mjs");
  writeDocSection("variants", md);
}
