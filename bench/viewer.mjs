// The run viewer on a big log, side by side with the native CLI on the same bytes:
//
//   node bench/viewer.mjs [--copies 30] [--runs 3] [--no-write] [--log PATH]
//
// The log: the bench corpus's biggest Claude session file repeated --copies times with ids
// made fresh per copy (tests/browser/viewer-helpers.mjs `synthesize`: otherwise the stateful
// parser drops the later copies as already shown), about 104 MB for 30 copies; --log takes
// a file of your own instead. Each run opens it in a fresh headless Chromium page of the
// viewer (www/serve.mjs, the shipped dist/ui-parser.js, file input as a user would) and
// measures, in the page: the first row painted (from the file input's change event), the
// last row parsed (the page's `done`), long tasks (> 50 ms, PerformanceObserver), the
// renderer process's peak resident memory over its size before the file (both the page and
// its worker live in that process; /proc VmHWM) and the page's JS heap at the end. The same
// file then goes through `target/release/agentlines parse` (--runs times, median, output to
// /dev/null). Prints a table with the ratio viewer ÷ native; writes it into docs/viewer.md
// (between the bench:viewer markers) unless --no-write. Not a test: nothing fails on a slow
// number (the browser tests check the behaviour); see docs/viewer.md "Big logs".
import { readFileSync, writeFileSync, existsSync, mkdirSync, rmSync, readdirSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { sharedCorpus, median, machine, mdTable } from "./lib.mjs";
import { writeDocSection } from "./doc.mjs";
import { launch } from "../tests/browser/chromium.mjs";
import { synthesize } from "../tests/browser/viewer-helpers.mjs";
import { startViewerServer } from "../www/serve.mjs";

const root = join(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : d; };
const copies = Number(opt("--copies", 30));
const runs = Number(opt("--runs", 3));
const parserParam = opt("--parser", null);
const cli = join(root, "target", "release", "agentlines");

if (!existsSync(join(root, "dist", "ui-parser.js"))) {
  console.error("bench/viewer.mjs needs dist/ (make dist)");
  process.exit(2);
}
if (!existsSync(cli)) {
  const b = spawnSync("cargo", ["build", "--release", "-p", "agentlines-cli"], { cwd: root, stdio: "inherit" });
  if (b.status !== 0) process.exit(2);
}

// --- the log ---------------------------------------------------------------------------
const dir = join(tmpdir(), `viewer-bench-${process.pid}`);
mkdirSync(dir, { recursive: true });
let file = opt("--log", null);
let source = file;
if (!file) {
  const corpus = sharedCorpus();
  if (!corpus) {
    console.error("bench/viewer.mjs needs the shared corpus (../shared/corpus/bench) or --log PATH");
    process.exit(2);
  }
  const bench = join(corpus, "bench");
  const pick = readdirSync(bench).filter((f) => f.startsWith("claude-session")).map((f) => join(bench, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const base = readFileSync(pick, "utf8").split("\n").filter((l) => l.trim());
  file = join(dir, "big.jsonl");
  writeFileSync(file, synthesize(base, base.length * copies).join("\n") + "\n");
  source = `${pick.slice(corpus.length + 1)} ×${copies}`;
}
const bytes = statSync(file).size;
const MB = bytes / 1e6;

// --- native ----------------------------------------------------------------------------
const native = [];
const devnull = openSync("/dev/null", "w");
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const r = spawnSync(cli, ["parse", "--ts", "2026-01-01T00:00:00Z", file], { stdio: ["ignore", devnull, "inherit"] });
  native.push(performance.now() - t0);
  if (r.status !== 0) { console.error("agentlines parse failed"); process.exit(1); }
}

// --- the viewer -------------------------------------------------------------------------
function rendererPids() {
  const out = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
      if (cmd.includes("--type=renderer")) out.push(Number(p));
    } catch { /* gone */ }
  }
  return out;
}
const status = (pid, key) => {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${key}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch { return 0; }
};

const server = await startViewerServer({ port: 0 });
const browser = await launch(["--enable-precise-memory-info"]);
const viewer = [];
try {
  for (let i = 0; i < runs; i++) {
    const before = new Set(rendererPids());
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/www/${parserParam ? `?parser=${encodeURIComponent(parserParam)}` : ""}`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    const mine = rendererPids().filter((p) => !before.has(p));
    // The page's renderer: the new one holding the most memory once the page is loaded.
    const pid = mine.sort((a, b) => status(b, "VmRSS") - status(a, "VmRSS"))[0];
    const rssBefore = status(pid, "VmRSS");
    // Reset the peak so VmHWM measures the parse only (writing 5 to clear_refs resets it).
    try { writeFileSync(`/proc/${pid}/clear_refs`, "5"); } catch { /* not allowed: the peak includes the load */ }
    await page.evaluate(() => {
      const p = { longTasks: [], firstRow: null, t0: null };
      window.__bench = p;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) { p.longTasks.push(e.duration); p.longAt = (p.longAt || []).concat([[Math.round(e.startTime - (p.t0 ?? 0)), Math.round(e.duration)]]); } }).observe({ type: "longtask" });
      document.getElementById("file").addEventListener("change", () => {
        p.t0 = performance.now();
        const look = () => {
          if (document.querySelector("#list .vl-row")) p.firstRow = performance.now() - p.t0;
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }, { capture: true });
    });
    await page.setInputFiles("#file", file);
    await page.waitForFunction(() => document.body.dataset.state === "done", null, { timeout: 600000, polling: 200 });
    const r = await page.evaluate(() => {
      const p = window.__bench;
      return {
        firstRowMs: p.firstRow, doneMs: Number(document.body.dataset.parseMs), workerMs: Number(document.body.dataset.workerMs), rows: Number(document.body.dataset.rows),
        longTasks: p.longTasks.length, longMax: Math.max(0, ...p.longTasks), longAt: p.longAt,
        heap: performance.memory ? performance.memory.usedJSHeapSize : 0,
      };
    });
    r.peakRss = status(pid, "VmHWM") - rssBefore;
    viewer.push(r);
    console.error(`run ${i + 1}: ${JSON.stringify(r)}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

// --- report ------------------------------------------------------------------------------
const med = (k) => median(viewer.map((r) => r[k]));
const nat = median(native);
const mib = (n) => `${(n / 1048576).toFixed(0)} MiB`;
const rows = [
  ["first row painted", `${med("firstRowMs").toFixed(0)} ms`, "", "≤ 300 ms"],
  ["fully parsed", `${med("doneMs").toFixed(0)} ms (${(MB / (med("doneMs") / 1000)).toFixed(0)} MB/s)`, `${nat.toFixed(0)} ms (${(MB / (nat / 1000)).toFixed(0)} MB/s)`, `${(med("doneMs") / nat).toFixed(1)}× (target ≤ 5×)`],
  ["of which the parser's calls (worker)", `${med("workerMs").toFixed(0)} ms`, "", ""],
  ["memory", `${mib(med("peakRss"))} peak over the page's own (${(med("peakRss") / bytes).toFixed(2)}× the file); JS heap ${mib(med("heap"))}`, "", "≤ 2× the file"],
  ["long tasks (> 50 ms)", `${med("longTasks")}, longest ${med("longMax").toFixed(0)} ms`, "", "none over 200 ms"],
];
const m = machine();
const table = `${m.date}, ${m.nproc} cores (${m.cpu}), load ${m.load}; ${source}: ${(bytes / 1048576).toFixed(1)} MiB, ${viewer[0].rows.toLocaleString("en")} rows; median of ${runs} runs\n\n` +
  mdTable(["", "viewer (headless Chromium)", "`agentlines parse` (native)", "ratio / target"], rows);
console.log(table);
if (!argv.includes("--no-write")) writeDocSection("viewer", table, "viewer.md");
