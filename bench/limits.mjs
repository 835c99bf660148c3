// Time and memory at every documented limit (docs/robustness.md "Measured at the limits"),
// through the BUILT files: dist/ui-parser.js (loaded the host's way, plus a
// test-only wasm-memory accessor) and dist/index.cjs (API nesting), in Node and in headless
// Chromium (the same code evaluated on a page; JS heap from the DevTools protocol).
//
//   node bench/limits.mjs [--node-only] [--browser-only]
//
// Each case runs on a fresh load of the file (fresh wasm instance). Printed as a markdown
// table. A benchmark, not a test: nothing fails on a slow number.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { root, loadHostStyle } from "../tests/js/host.mjs";
import { probedSource } from "../tests/js/robust-util.mjs";
import { startServer, chromiumPath } from "../tests/browser/chromium.mjs";

// Runs in Node and on the page (passed as source text): builds the case's input and feeds it.
// `mod` is the loaded ui-parser, `api` the npm entry. Returns what to report.
function runCase(name, mod, api) {
  const MiB = 1 << 20;
  const claude = (text) => JSON.stringify({ type: "assistant", message: { id: "m", role: "assistant", content: [{ type: "text", text }] }, session_id: "s" });
  const count = (out) => { let b = 0; for (const e of out) b += JSON.stringify(e).length; return { entries: out.length, outBytes: b }; };
  const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
  let line, t0, out, extra = {};
  switch (name) {
    case "text line at the cap (16 MiB)":
      line = "x".repeat(16 * MiB);
      break;
    case "text line past the cap (16 MiB + 1)":
      line = "x".repeat(16 * MiB + 1);
      break;
    case "Claude JSON line near the cap (16 MiB)":
      line = claude("word ".repeat(Math.floor((16 * MiB - 200) / 5)));
      break;
    case "entry cap: [{},…] 1.4M objects (4.2 MB)":
      line = "[" + "{},".repeat(1399999) + "{}]";
      break;
    case "output-bytes cap: 2000 blocks under a 64 KB parent id":
      line = JSON.stringify({ type: "assistant", parent_tool_use_id: "p".repeat(64 << 10), message: { content: Array.from({ length: 2000 }, () => ({ type: "text", text: "hi" })) } });
      break;
    case "nesting: 100 000-deep array line":
      line = "[".repeat(100000) + "]".repeat(100000);
      break;
    case "nesting: 120-deep Claude content":
      line = JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "deep" }], extra: JSON.parse("[".repeat(120) + "]".repeat(120)) } });
      break;
    case "pending calls: 200 Claude tool calls with 256 KB ids (stateful)": {
      const p = mod.createStdoutParser();
      const id = "i".repeat(256 << 10);
      let bytes = 0, entries = 0;
      t0 = now();
      for (let k = 0; k < 200; k++) {
        const l = JSON.stringify({ type: "assistant", message: { id: "m" + k, role: "assistant", content: [{ type: "tool_use", id: id + k, name: "Bash", input: { command: "ls" } }] } });
        bytes += l.length;
        entries += p.parseLine(l, "2026-12-03T10:00:00Z").length;
      }
      return { ms: now() - t0, lineBytes: bytes, entries, outBytes: null, ...extra };
    }
    case "API nesting: extractText of a 200-deep argument (index.cjs)": {
      let d = [];
      for (let k = 0; k < 197; k++) d = [d];
      const v = { text: "x", d };
      t0 = now();
      let msg = "";
      try { msg = "read: " + JSON.stringify(api.extractText(v)); } catch (e) { msg = e.message; }
      return { ms: now() - t0, lineBytes: null, entries: null, outBytes: null, note: msg.slice(0, 70) };
    }
    default:
      throw new Error("unknown case " + name);
  }
  t0 = now();
  out = mod.parseStdoutLine(line, "2026-12-03T10:00:00Z");
  const ms = now() - t0;
  globalThis.__keepOut = out; // the answer stays alive, as in a viewer, for the heap reading
  return { ms, lineBytes: line.length, ...count(out), ...extra };
}

const CASES = [
  "text line at the cap (16 MiB)",
  "text line past the cap (16 MiB + 1)",
  "Claude JSON line near the cap (16 MiB)",
  "entry cap: [{},…] 1.4M objects (4.2 MB)",
  "output-bytes cap: 2000 blocks under a 64 KB parent id",
  "nesting: 100 000-deep array line",
  "nesting: 120-deep Claude content",
  "pending calls: 200 Claude tool calls with 256 KB ids (stateful)",
  "API nesting: extractText of a 200-deep argument (index.cjs)",
];

// Wasm memory: the peak an answer was read from (the glue gives a grown instance back after
// the call when no parser lives in it).
const hostSrc = probedSource(join(root, "dist", "ui-parser.js"));
const apiSrc = probedSource(join(root, "dist", "index.cjs"));
const MB = (n) => (n / 1048576).toFixed(1);

// One child process per case: its peak RSS (maxRSS) is the case's, less the baseline of a
// child that only loads both files and parses one short line.
function nodeCase(name) {
  const mod = loadHostStyle(hostSrc);
  const api = loadHostStyle(apiSrc);
  const r = name === "baseline" ? (mod.parseStdoutLine("x", "t"), api.extractText("x"), {}) : runCase(name, mod, api);
  r.wasm = Math.max(mod.__memBytes(), mod.__peakBytes(), api.__memBytes(), api.__peakBytes());
  r.maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify(r));
}

function nodeRun() {
  const child = (name) => JSON.parse(spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--case", name], { maxBuffer: 1 << 20, encoding: "utf8" }).stdout);
  const base = child("baseline").maxRss;
  console.log(`\n(Node baseline peak RSS with both files loaded: ${MB(base)} MiB)`);
  return CASES.map((name) => { const r = child(name); return { name, ...r, heap: r.maxRss - base }; });
}

async function browserRun() {
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--js-flags=--expose-gc"],
  });
  const rows = [];
  try {
    for (const name of CASES) {
      const page = await browser.newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable");
      await page.goto(`${server.url}/tests/browser/blank.html`);
      const heap = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "JSHeapUsedSize").value;
      await page.evaluate(() => globalThis.gc?.());
      const h0 = await heap();
      const r = await page.evaluate(({ hostSrc, apiSrc, runSrc, name }) => {
        const load = (src) => { const module = { exports: {} }; new Function("exports", "module", src)(module.exports, module); return module.exports; };
        const mod = load(hostSrc), api = load(apiSrc);
        const run = new Function("return (" + runSrc + ")")();
        const r = run(name, mod, api);
        r.wasm = Math.max(mod.__memBytes(), mod.__peakBytes(), api.__memBytes(), api.__peakBytes());
        globalThis.__keep = [mod, api];
        delete r.maxRss;
        return r;
      }, { hostSrc, apiSrc, runSrc: runCase.toString(), name });
      const h1 = await heap();
      rows.push({ name, ...r, heap: h1 - h0 });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

function table(title, rows, heapLabel) {
  console.log(`\n${title}\n`);
  console.log(`| limit case | input | entries / output | ms | wasm memory | ${heapLabel} |`);
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    const io = r.entries === null ? (r.note ?? "–") : `${r.entries} / ${r.outBytes === null ? "–" : MB(r.outBytes) + " MB"}`;
    console.log(`| ${r.name} | ${r.lineBytes === null ? "–" : MB(r.lineBytes) + " MB"} | ${io} | ${Math.round(r.ms)} | ${MB(r.wasm)} MiB | ${MB(r.heap)} MiB |`);
  }
}

const argv = process.argv.slice(2);
if (argv[0] === "--case") {
  nodeCase(argv[1]);
} else {
  if (!argv.includes("--browser-only")) table("Node " + process.version, nodeRun(), "peak RSS over baseline");
  if (!argv.includes("--node-only")) table("Chromium (headless, " + chromiumPath() + ")", await browserRun(), "JS heap growth (answer kept)");
}
