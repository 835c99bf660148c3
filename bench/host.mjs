// `make bench-host`: the host's calling and caching, re-created, over a real run:
// how long it takes to render the whole run and how much memory it takes, with our parser
// in both shapes and with the host's own built-in Claude parser.
//
//   node bench/host.mjs [--file LOG] [--renders N] [--repeat N] [--timeout S] [--cap-gb G] [--modes a,b] [--no-write]
//   (--repeat N, default 3: each mode that took under 10 s runs N times, each in a fresh process;
//   the table shows the run with the median total and the range of all runs)
//   (AGENTLINES_STATELESS_FILE=<file> replaces dist/ui-parser.stateless.js in ours-stateless)
//
// The host (HOST.md): results are cached per line; the stateless key is
// ts + "\0" + line; the stateful key of line n is line n-1's key + this line (so key n holds
// every earlier line); each result crosses postMessage (modelled with structuredClone);
// the transcript merges consecutive `delta: true` entries of the same kind. A render walks
// every line: key, cache look-up, on a miss a parse (+ clone) stored in the cache, then the
// merged transcript. Render 1 is the run arriving (every line a miss); later renders are
// the re-renders as results arrive (every line a hit, keys rebuilt). Each mode runs in its
// own child process (peak RSS of that mode alone), capped with --max-old-space-size and a
// timeout, so the chained key scheme cannot take the machine down.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import {
  root, benchDir, benchGroups, bigClaude, ensureBenchDeps, loadHostParsers, loadOurs, requireDist,
  machine, mdTable, fmt, linesOf, fixtureTs, now, sharedCorpus, loadHostStyle,
} from "./lib.mjs";
import { writeDocSection } from "./doc.mjs";

const argv = process.argv.slice(2);
const opt = (n, d) => {
  const i = argv.indexOf(n);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : d;
};

// The host's shape: bench/render.mjs (shared with the browser run).
export { KEY, mergeDeltas, renderRun } from "./render.mjs";
import { renderRun } from "./render.mjs";

// ---------------------------------------------------------------------------------------
// Modes (each run in a child process)

const MODES = {
  "ours-stateless": {
    label: "ours, default export: dist/ui-parser.stateless.js (parseStdoutLine), stateless key, cloned",
    key: "stateless", clone: true,
    // AGENTLINES_STATELESS_FILE: another build of the stateless file (bench/variants.mjs output).
    make: () => {
      const alt = process.env.AGENTLINES_STATELESS_FILE;
      const m = alt ? loadHostStyle(readFileSync(alt, "utf8")) : loadOurs("ui-parser.stateless.js");
      return (l, t) => m.parseStdoutLine(l, t);
    },
  },
  "ours-stateful": {
    label: "ours, stateful export: dist/ui-parser.js (createStdoutParser), chained key, cloned",
    key: "chained", clone: true,
    make: () => { const p = loadOurs("ui-parser.js").createStdoutParser(); return (l, t) => p.parseLine(l, t); },
  },
  "ours-floor": {
    label: "floor of any parser behind our boundary: the glue's JS work alone (encode the line, decode + JSON.parse our answer, precomputed), cloned",
    key: "stateless", clone: true,
    make: (lines, tsList) => boundaryFloor(lines, tsList),
  },
  "host-builtin": {
    label: "host's built-in Claude parser, in-page (stateless key, no clone)",
    key: "stateless", clone: false, host: "claude",
  },
  "host-builtin-worker": {
    label: "host's built-in Claude parser in the worker shape (stateless key, cloned)",
    key: "stateless", clone: true, host: "claude",
  },
  "keys-stateless": {
    label: "the stateless key scheme alone (parser returns [])",
    key: "stateless", clone: false, make: () => () => [],
  },
  "keys-chained": {
    label: "the chained stateful key scheme alone (parser returns [])",
    key: "chained", clone: false, make: () => () => [],
  },
};

/**
 * What a call through our glue costs with the parsing taken away: the line and ts are
 * written into a reused buffer with `encodeInto` (as pkg-template/glue.js does), and our
 * answer for that line, computed beforehand, is decoded and `JSON.parse`d. No parser behind
 * this boundary can be faster than this.
 */
function boundaryFloor(lines, tsList) {
  const m = loadOurs("ui-parser.stateless.js");
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  // Keyed by the line string itself (its hash is cached on the string, so the look-up costs
  // next to nothing); a repeated line gets its first answer, which differs only in `ts`.
  const answers = new Map();
  for (let i = 0; i < lines.length; i++) {
    if (!answers.has(lines[i])) answers.set(lines[i], enc.encode(JSON.stringify(m.parseStdoutLine(lines[i], tsList[i]))));
  }
  let buf = new Uint8Array(1 << 16);
  return (line, ts) => {
    const cap = (line.length + ts.length) * 3;
    if (buf.length < cap) buf = new Uint8Array(cap);
    const n = enc.encodeInto(line, buf).written;
    enc.encodeInto(ts, buf.subarray(n));
    const bytes = answers.get(line);
    return JSON.parse(dec.decode(bytes));
  };
}

async function child(mode, file, renders) {
  const m = MODES[mode];
  let parse;
  if (m.host) {
    const { parsers } = await loadHostParsers();
    parse = parsers[m.host];
    if (!parse) throw new Error(`the host's ${m.host} parser is not installed`);
  }
  const lines = linesOf(readFileSync(file, "utf8"));
  const tsList = lines.map((_, i) => fixtureTs(i));
  if (!m.host) parse = m.make(lines, tsList);
  parse(lines[0], tsList[0]); // load/compile outside the timing (cold start is in make bench)
  let peak = process.memoryUsage().rss;
  const r = renderRun(lines, tsList, {
    parse, key: m.key, clone: m.clone, renders,
    onLine: () => { const x = process.memoryUsage().rss; if (x > peak) peak = x; },
  });
  const rss = process.memoryUsage().rss;
  console.log(JSON.stringify({ ...r, peakSampled: Math.max(peak, rss), maxRSS: process.resourceUsage().maxRSS * 1024 }));
}

if (argv[0] === "--child") {
  await child(argv[1], argv[2], Number(argv[3]) || 2);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------
// Main

function have(cmd, args = ["--version"]) {
  return spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
}

function runMode(mode, file, { renders, timeoutS, capGB }) {
  const nodeArgs = [`--max-old-space-size=${Math.round(capGB * 1024)}`, join(benchDir, "host.mjs"), "--child", mode, file, String(renders)];
  const useTimeout = have("timeout");
  const useTime = existsSync("/usr/bin/time") && have("/usr/bin/time", ["-v", "true"]);
  let cmd = process.execPath;
  let args = nodeArgs;
  if (useTimeout) { args = ["-s", "KILL", String(timeoutS), cmd, ...args]; cmd = "timeout"; }
  if (useTime) { args = ["-v", cmd, ...args]; cmd = "/usr/bin/time"; }
  const t0 = now();
  const r = spawnSync(cmd, args, {
    encoding: "utf8", maxBuffer: 64 << 20,
    // Last resort when `timeout` is missing (then /usr/bin/time is not used either).
    timeout: useTimeout ? (timeoutS + 60) * 1000 : timeoutS * 1000, killSignal: "SIGKILL",
  });
  const wallS = (now() - t0) / 1e3;
  const maxKB = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr ?? "");
  const timeMaxRSS = maxKB ? Number(maxKB[1]) * 1024 : null;
  const out = (r.stdout ?? "").trim().split("\n").pop();
  let data = null;
  try { data = out ? JSON.parse(out) : null; } catch { data = null; }
  const stderr = r.stderr ?? "";
  const oom = /heap limit|out of memory|Allocation failed/i.test(stderr);
  const killed = /signal 9|Command terminated by signal 9/.test(stderr) || r.signal === "SIGKILL" || r.status === 137;
  let failure = null;
  if (!data) {
    failure = oom ? `exceeded the ${capGB} GB heap cap (V8 out of memory) after ${wallS.toFixed(1)} s`
      : killed || wallS >= timeoutS ? `did not finish in ${timeoutS} s`
        : `failed (exit ${r.status}): ${stderr.split("\n").filter((l) => /Error|error/.test(l)).slice(0, 2).join(" ")}`;
  }
  return { mode, data, failure, maxRSS: timeMaxRSS ?? data?.maxRSS ?? null, wallS };
}

const file = opt("--file", null);
const renders = Number(opt("--renders", 2));
const timeoutS = Number(opt("--timeout", 180));
const capGB = Number(opt("--cap-gb", 8));
const repeat = Math.max(1, Number(opt("--repeat", 3)));

requireDist();
const deps = ensureBenchDeps();
let logFile = file;
if (!logFile) {
  const corpus = sharedCorpus();
  const want = corpus && join(corpus, "bench", "claude-session-spotter-fa812bfe.jsonl");
  if (want && existsSync(want)) logFile = want;
  else {
    const g = bigClaude(benchGroups().groups);
    logFile = g?.files.length === 1 ? g.files[0] : null;
    if (!logFile) { console.error("[bench-host] no Claude log found; pass --file"); process.exit(2); }
  }
}
const text = readFileSync(logFile, "utf8");
const nLines = linesOf(text).length;
const m = machine();
console.error(`[bench-host] ${logFile}: ${fmt.mb(Buffer.byteLength(text))}, ${nLines} lines; ${renders} renders; cap ${capGB} GB, timeout ${timeoutS} s`);

const ALL = ["ours-stateless", "ours-floor", "host-builtin", "host-builtin-worker", "keys-stateless", "ours-stateful", "keys-chained"];
const order = opt("--modes", null)?.split(",").filter((m) => ALL.includes(m)) ?? ALL;
const results = {};
for (const mode of order) {
  if (MODES[mode].host && !deps.ok) { results[mode] = { mode, failure: "host parser not installed" }; continue; }
  const runs = [];
  for (let k = 0; k < repeat; k++) {
    console.error(`[bench-host] ${mode} (run ${k + 1}) …`);
    const r = runMode(mode, logFile, { renders, timeoutS, capGB });
    runs.push(r);
    console.error(`[bench-host]   ${r.failure ?? `${fmt.ms(total(r))} ms`}, max RSS ${r.maxRSS ? fmt.mb(r.maxRSS) : "?"}`);
    if (r.failure || total(r) > 10e3) break; // slow modes run once
  }
  const ok = runs.filter((r) => r.data).sort((a, b) => total(a) - total(b));
  results[mode] = ok.length ? { ...ok[(ok.length - 1) >> 1], range: ok.map(total) } : runs[0];
}

function total(r) {
  return r?.data ? r.data.renderMs.reduce((a, b) => a + b, 0) : NaN;
}
const rows = order.map((mode) => {
  const r = results[mode];
  const d = r.data;
  const range = r.range && r.range.length > 1 ? ` (${fmt.ms(r.range[0])}–${fmt.ms(r.range[r.range.length - 1])}, ${r.range.length} runs)` : "";
  const time = d ? `${fmt.ms(total(r))}${range}` : r.failure;
  return [MODES[mode].label, time,
    d ? d.renderMs.map((x) => fmt.ms(x)).join(" / ") : "—",
    d ? fmt.ms(d.parseMs) : "—",
    r.maxRSS ? fmt.mb(r.maxRSS) : "—",
    d ? fmt.mb(d.peakSampled) : "—",
    d ? String(d.entries) : "—"];
});
const ours = total(results["ours-stateless"]);
const statefulT = total(results["ours-stateful"]);
const builtin = total(results["host-builtin"]);
const builtinW = total(results["host-builtin-worker"]);
const floor = total(results["ours-floor"]);
const verdict = [];
if (Number.isFinite(ours)) {
  const sf = results["ours-stateful"];
  if (Number.isFinite(statefulT)) {
    const ratio = statefulT / ours;
    verdict.push(`- stateless default vs the stateful export in the host shape: **${fmt.ratio(ratio)} faster** (bar: ≥ 100×) — ${ratio >= 100 ? "met" : "NOT met"}.`);
  } else if (sf?.failure) {
    verdict.push(`- the stateful export in the host shape ${sf.failure}; the stateless default took ${fmt.ms(ours)} ms, ` +
      `so at least ${fmt.ratio((timeoutS * 1e3) / ours)} faster if it timed out (bar: ≥ 100×).`);
  }
  if (Number.isFinite(builtin)) {
    verdict.push(`- stateless default vs the host's built-in Claude parser in-page: ${fmt.ratio(builtin / ours)} its speed ` +
      `(bar: not slower, ≥ 1×) — ${ours <= builtin ? "met" : "NOT met"}; vs the built-in in the same worker shape (cloned): ${fmt.ratio(builtinW / ours)}.`);
  }
  if (Number.isFinite(floor) && Number.isFinite(builtin)) {
    verdict.push(`- the boundary floor (our glue's encode + decode + \`JSON.parse\` + clone, no parsing at all) renders the run in ` +
      `${fmt.ms(floor)} ms: ${fmt.ratio(builtin / floor)} the built-in's in-page speed and ${Number.isFinite(builtinW) ? fmt.ratio(builtinW / floor) : "?"} its worker-shape speed. ` +
      `Our parsing itself (ours − floor) costs ${fmt.ms(ours - floor)} ms.`);
  }
}
const alt = process.env.AGENTLINES_STATELESS_FILE;
if (alt) verdict.push(`- ours-stateless used \`${alt}\` instead of dist/ui-parser.stateless.js.`);

const md = [
  `Measured ${m.date} on ${m.nproc} cores (${m.cpu}), Node ${m.node}, load average at start ${m.load}. ` +
    `Log: \`${logFile.replace(/^.*\/corpus\//, "corpus/")}\` (${fmt.mb(Buffer.byteLength(text))}, ${nLines} lines); ${renders} renders ` +
    `(render 1: every line a cache miss, parsed and cloned; render 2+: every line a hit, keys rebuilt); each mode in its own ` +
    `process with --max-old-space-size=${capGB * 1024} and a ${timeoutS} s timeout.`,
  "",
  mdTable(["mode", "total ms (all renders)", "per render ms", "parse (+clone) ms", "max RSS (process)", "peak RSS sampled", "entries"], rows),
  "",
  ...verdict,
].join("\n");
console.log(md);
if (!argv.includes("--no-write")) {
  writeDocSection("host", md);
  console.error("[bench-host] written to docs/bench.md");
}
