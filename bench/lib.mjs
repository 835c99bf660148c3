// Shared pieces of the benchmarks (bench/run.mjs, bench/host.mjs, bench/boundary.mjs):
// where the logs are, the host's own parsers (npm dev dependencies of bench/), timing and
// table helpers. Nothing here is part of the package or the tests.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, basename, dirname } from "node:path";
import { spawnSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { root, loadHostStyle, linesOf, fixtureTs } from "../tests/js/host.mjs";

export { root, loadHostStyle, linesOf, fixtureTs };
export const benchDir = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------
// Logs

/** The shared corpus (read-only), if this checkout sits next to it. */
export function sharedCorpus() {
  const candidates = [
    process.env.AGENTLINES_CORPUS,
    join(root, "..", "shared", "corpus"),
    join(root, "..", "..", "shared", "corpus"),
  ].filter(Boolean);
  return candidates.find((d) => existsSync(join(d, "bench"))) ?? null;
}

const LOG_EXT = /\.(jsonl|ndjson|txt|log)$/;

/** The host's parser for a runtime name (only Claude and Codex ship as npm packages). */
export function hostRuntimeOf(name) {
  if (/^claude/.test(name)) return "claude";
  if (/^codex/.test(name)) return "codex";
  return null;
}

function readGroup(name, files, runtime) {
  const texts = files.map((f) => {
    const t = readFileSync(f, "utf8");
    return t.endsWith("\n") || t === "" ? t : t + "\n";
  });
  const text = texts.join("");
  const lines = linesOf(text);
  return {
    name, runtime, files, text, lines,
    ts: lines.map((_, i) => fixtureTs(i)),
    bytes: Buffer.byteLength(text),
  };
}

/**
 * The benchmark set: every file of corpus/bench/ as its own group, and the rest of the
 * corpus in three groups (Claude, Codex, the other runtimes), lines of a group joined in
 * file order. Without the shared corpus (a fresh clone): tests/fixtures, grouped the same way.
 */
export function benchGroups({ onlyBig = false } = {}) {
  const corpus = sharedCorpus();
  const groups = [];
  let source;
  const buckets = { claude: [], codex: [], other: [] };
  if (corpus) {
    source = corpus;
    const big = join(corpus, "bench");
    for (const f of readdirSync(big).sort()) {
      if (LOG_EXT.test(f)) groups.push(readGroup(f.replace(LOG_EXT, ""), [join(big, f)], hostRuntimeOf(f)));
    }
    if (!onlyBig) {
      for (const d of readdirSync(corpus).sort()) {
        const dir = join(corpus, d);
        if (d === "bench" || !statSync(dir).isDirectory()) continue;
        const rt = hostRuntimeOf(d) ?? "other";
        for (const f of readdirSync(dir).sort()) if (LOG_EXT.test(f)) buckets[rt].push(join(dir, f));
      }
    }
  } else {
    source = join(root, "tests", "fixtures");
    if (existsSync(source)) {
      for (const d of readdirSync(source).sort()) {
        const dir = join(source, d);
        if (!statSync(dir).isDirectory()) continue;
        const rt = hostRuntimeOf(d) ?? "other";
        for (const f of readdirSync(dir).sort()) {
          if (LOG_EXT.test(f) && !f.includes(".expected.")) buckets[rt].push(join(dir, f));
        }
      }
    }
  }
  const label = corpus ? "corpus" : "fixtures";
  for (const [rt, files] of Object.entries(buckets)) {
    if (files.length) {
      groups.push(readGroup(`${label}: ${rt === "other" ? "other runtimes" : rt} (${files.length} files)`, files,
        rt === "other" ? null : rt));
    }
  }
  return { corpus, source, groups };
}

/** The large Claude log the host benchmark was first measured on, or the largest Claude group there is. */
export function bigClaude(groups) {
  return groups.find((g) => g.name === "claude-session-spotter-fa812bfe")
    ?? groups.filter((g) => g.runtime === "claude").sort((a, b) => b.bytes - a.bytes)[0]
    ?? groups.slice().sort((a, b) => b.bytes - a.bytes)[0];
}

// ---------------------------------------------------------------------------------------
// The host's own released parsers (bench/package.json dev dependencies)

const HOST_PKGS = {
  claude: ["@paperclipai/adapter-claude-local", "parseClaudeStdoutLine"],
  codex: ["@paperclipai/adapter-codex-local", "parseCodexStdoutLine"],
};

export function hostPkgDir(runtime) {
  return join(benchDir, "node_modules", ...HOST_PKGS[runtime][0].split("/"));
}

/** Installs bench/node_modules when it is missing (npm ci from bench/package-lock.json). */
export function ensureBenchDeps() {
  if (Object.keys(HOST_PKGS).every((r) => existsSync(hostPkgDir(r)))) return { ok: true, installed: false };
  const lock = existsSync(join(benchDir, "package-lock.json"));
  const args = [lock ? "ci" : "install", "--prefix", benchDir, "--omit=optional", "--ignore-scripts",
    "--no-audit", "--no-fund", "--loglevel=error"];
  console.error(`[bench] bench/node_modules missing: npm ${args.join(" ")}`);
  // npm's own output goes to stderr: stdout carries the report.
  const r = spawnSync("npm", args, { cwd: root, stdio: ["ignore", process.stderr, "inherit"] });
  const ok = r.status === 0 && Object.keys(HOST_PKGS).every((rt) => existsSync(hostPkgDir(rt)));
  return { ok, installed: true, error: ok ? null : `npm exited ${r.status ?? r.error?.message}` };
}

/** { claude: fn, codex: fn } (missing ones left out), plus each package's version. */
export async function loadHostParsers() {
  const out = {};
  const versions = {};
  for (const [rt, [pkg, name]] of Object.entries(HOST_PKGS)) {
    const dir = hostPkgDir(rt);
    const file = join(dir, "dist", "ui", "parse-stdout.js");
    if (!existsSync(file)) continue;
    try {
      const mod = await import(pathToFileURL(file).href);
      if (typeof mod[name] === "function") out[rt] = mod[name];
      versions[rt] = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
    } catch (e) {
      console.error(`[bench] cannot load ${pkg}: ${e.message}`);
    }
  }
  return { parsers: out, versions };
}

// ---------------------------------------------------------------------------------------
// Our built files

/**
 * The cargo features of the host's files (`make dist` builds host.wasm with them), read
 * from the Makefile so size and variant builds match; `runtime` instead of all of them;
 * `wasm` names another of the Makefile's host builds (`host-stateless`).
 */
export function hostFeatures(runtime = null, wasm = "host") {
  let feats = "runtimes";
  try {
    const mk = readFileSync(join(root, "Makefile"), "utf8").split("\n");
    const at = mk.findIndex((l) => new RegExp(`/${wasm}\\.wasm\\s*$`).test(l) && /-o /.test(l));
    const build = at > 0 ? mk[at - 1] : "";
    const m = /--features\s+(\S+)/.exec(build);
    if (m) feats = m[1];
  } catch { /* keep the default */ }
  if (!runtime) return feats;
  return [runtime, ...feats.split(",").filter((f) => f !== "runtimes")].join(",");
}

export function distPath(rel) {
  return join(root, "dist", rel);
}

export function requireDist() {
  for (const f of ["ui-parser.js", "ui-parser.stateless.js", "index.cjs"]) {
    if (!existsSync(distPath(f))) {
      console.error(`[bench] dist/${f} is missing: run \`make dist\` first (make bench does).`);
      process.exit(2);
    }
  }
}

export function loadOurs(rel) {
  return loadHostStyle(readFileSync(distPath(rel), "utf8"));
}

// ---------------------------------------------------------------------------------------
// Timing

export const now = () => performance.now();

export function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** How many repetitions make one sample of `pass` last at least `minMs`. */
function calibrate(pass, minMs) {
  let reps = 1;
  for (;;) {
    const t = now();
    for (let i = 0; i < reps; i++) pass();
    if (now() - t >= minMs || reps >= 1 << 16) return reps;
    reps *= 2;
  }
}

/**
 * Times several passes (each one whole pass over a log) against each other: warm-up passes
 * first, then `passes` rounds; each round takes one sample of every pass in turn, so a
 * change in machine load hits them all alike. A sample repeats its pass until it lasted at
 * least `minMs`, so small logs are not lost in timer noise. Returns, per name, ms per pass:
 * { median, min, samples }.
 */
export function timeRounds(passMap, { warmup = 3, passes = 11, minMs = 20 } = {}) {
  const entries = Object.entries(passMap).filter(([, f]) => typeof f === "function");
  for (const [, f] of entries) for (let i = 0; i < warmup; i++) f();
  const reps = entries.map(([, f]) => calibrate(f, minMs));
  const samples = entries.map(() => []);
  for (let r = 0; r < passes; r++) {
    entries.forEach(([, f], k) => {
      const t = now();
      for (let i = 0; i < reps[k]; i++) f();
      samples[k].push((now() - t) / reps[k]);
    });
  }
  return Object.fromEntries(entries.map(([name], k) => [name,
    { median: median(samples[k]), min: Math.min(...samples[k]), samples: samples[k] }]));
}

/** One pass timed on its own (see timeRounds). */
export function timePasses(pass, opts) {
  return timeRounds({ pass }, opts).pass;
}

// ---------------------------------------------------------------------------------------
// Reporting

export function machine() {
  let nproc = cpus().length;
  const r = spawnSync("nproc", [], { encoding: "utf8" });
  if (r.status === 0) nproc = Number(r.stdout.trim()) || nproc;
  return {
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    nproc,
    cpu: cpus()[0]?.model ?? "?",
    memGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    load: loadavg().map((x) => x.toFixed(2)).join(" "),
  };
}

export function mdTable(head, rows) {
  const line = (cells) => "| " + cells.join(" | ") + " |";
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

export const fmt = {
  ms: (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)),
  kb: (b) => `${(b / 1024).toFixed(1)} KB`,
  mb: (b) => `${(b / 2 ** 20).toFixed(1)} MB`,
  rate: (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(0)} k` : x.toFixed(0)),
  ratio: (x) => (!Number.isFinite(x) ? "—" : x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(2)}×`),
};

export function groupLabel(g) {
  return `${g.name} (${fmt.mb(g.bytes)}, ${g.lines.length} lines)`;
}

export { basename };
