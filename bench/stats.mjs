// `make bench` (stats part): `agentlines stats` over a folder of Claude Code session files on one
// thread and on every core, against ccusage 20.0.24's native binary (its `claude session
// --offline`) on the same files in the same run, with the token totals compared.
//
//   node bench/stats.mjs [--copies N] [--runs N] [--no-write]
//
// The folder: the shared corpus's Claude session files, N copies (default 40), each copy's
// message and request ids made its own (ccusage merges lines whose ids repeat across files,
// so plain copies would count once there and N times here). Prints a markdown table and
// writes it into docs/bench.md (bench:stats). Not a test: nothing fails on a slow number.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { root, machine, mdTable, median, sharedCorpus } from "./lib.mjs";
import { writeDocSection } from "./doc.mjs";

const argv = process.argv.slice(2);
const opt = (n, d) => {
  const i = argv.indexOf(n);
  return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : d;
};
const copies = opt("--copies", 40);
const runs = opt("--runs", 11);

const corpus = sharedCorpus();
if (!corpus) {
  console.log("stats bench: no shared corpus beside the tree; skipped");
  process.exit(0);
}
const sources = [
  ...readdirSync(join(corpus, "claude-session-jsonl")).map((f) => join(corpus, "claude-session-jsonl", f)),
  ...readdirSync(join(corpus, "bench")).filter((f) => f.startsWith("claude-session")).map((f) => join(corpus, "bench", f)),
].filter((f) => f.endsWith(".jsonl"))
  // The one file ccusage reads differently on purpose (a message written twice, counted once
  // by us: docs/costs.md), left out so that the token totals can be compared as equal.
  .filter((f) => !f.includes("happy-duplicate-assistant-response"));

const cli = join(root, "target/release/agentlines");
const ccusage = join(root, "target/oracle/node_modules/@ccusage/ccusage-linux-x64/bin/ccusage");
if (!existsSync(ccusage)) {
  execFileSync("make", ["-s", "test-oracle"], { cwd: root, stdio: "inherit" });
}
execFileSync("cargo", ["build", "--release", "-q", "-p", "agentlines-cli"], { cwd: root, stdio: "inherit" });

// ccusage reads <dir>/projects/<project>/*.jsonl; agentlines reads the same folder.
const dir = join(root, "target/bench-stats");
const projects = join(dir, "projects");
const stamp = join(dir, `copies-${copies}`);
if (!existsSync(stamp)) {
  rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < copies; i++) {
    const p = join(projects, `p${i}`);
    mkdirSync(p, { recursive: true });
    for (const f of sources) {
      const text = readFileSync(f, "utf8")
        .replaceAll('"id":"msg_', `"id":"msg_c${i}_`)
        .replaceAll('"requestId":"req_', `"requestId":"req_c${i}_`);
      writeFileSync(join(p, f.split("/").pop()), text);
    }
  }
  writeFileSync(stamp, "");
}
const files = readdirSync(projects).flatMap((p) => readdirSync(join(projects, p)).map((f) => join(projects, p, f)));
const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
const home = join(dir, "home");
mkdirSync(home, { recursive: true });

function time(cmd, args, env = {}) {
  const ms = [];
  let out = "";
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 28, encoding: "utf8" });
    ms.push(performance.now() - t0);
    if (r.status !== 0 && r.status !== null && cmd !== cli) throw new Error(`${cmd} failed: ${r.stderr}`);
    out = r.stdout;
  }
  return { ms: median(ms), min: Math.min(...ms), max: Math.max(...ms), out };
}

// The two compared run in turn (ours, theirs, ours…) so that a drift in the machine's speed
// falls on both; the ratio is taken pair by pair.
function paired(a, b) {
  const [ta, tb, ratios] = [[], [], []];
  let outs = [];
  for (let i = 0; i < runs; i++) {
    const one = [a, b].map(([cmd, args, env = {}]) => {
      const t0 = performance.now();
      const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 28, encoding: "utf8" });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
      return { ms, out: r.stdout };
    });
    ta.push(one[0].ms);
    tb.push(one[1].ms);
    ratios.push(one[1].ms / one[0].ms);
    outs = one.map((o) => o.out);
  }
  const sum = (ms, out) => ({ ms: median(ms), min: Math.min(...ms), max: Math.max(...ms), out });
  return [sum(ta, outs[0]), sum(tb, outs[1]), { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) }];
}

const one = time(cli, ["stats", "--json", "-j", "1", projects]);
const [all, theirs, edge] = paired(
  [cli, ["stats", "--json", projects]],
  [ccusage, ["claude", "session", "--offline", "--json", "-z", "UTC"], { HOME: home, CLAUDE_CONFIG_DIR: dir }],
);

const ours = JSON.parse(all.out).total;
const their = JSON.parse(theirs.out).totals;
const oursTokens = [ours.tokens.input, ours.tokens.output, ours.tokens.cacheRead, ours.tokens.cacheWrite];
const theirTokens = [their.inputTokens, their.outputTokens, their.cacheReadTokens, their.cacheCreationTokens];
const mb = bytes / 1048576;
const row = (what, t, note) => [what, `${t.ms.toFixed(0)} ms (${t.min.toFixed(0)}–${t.max.toFixed(0)})`, `${(mb / (t.ms / 1000)).toFixed(0)} MiB/s`, note];
const m = machine();
const md = [
  `${m.date}, ${m.nproc} cores (${m.cpu}), load ${m.load}; ${files.length} Claude Code session files (${mb.toFixed(0)} MiB: the corpus's ${sources.length} but the one ccusage reads differently on purpose, ${copies} copies with ids of their own), median of ${runs} runs (agentlines and ccusage in turn).`,
  "",
  mdTable(
    ["command", "wall time", "throughput", ""],
    [
      row("`agentlines stats -j 1`", one, "one thread"),
      row("`agentlines stats`", all, `every core: ${(one.ms / all.ms).toFixed(2)}× one thread`),
      row(
        "ccusage 20.0.24 `claude session --offline` (native binary)",
        theirs,
        `agentlines ${edge.median.toFixed(2)}× as fast (${edge.min.toFixed(2)}–${edge.max.toFixed(2)}, pair by pair)`,
      ),
    ],
  ),
  "",
  `Token totals (input, output, cache reads, cache writes): agentlines ${oursTokens.join(" / ")}; ccusage ${theirTokens.join(" / ")}` +
    (oursTokens.every((n, i) => n === theirTokens[i]) ? " (identical)." : " (they differ!)."),
  `Cost: agentlines ${ours.cost}; ccusage $${their.totalCost.toFixed(4)}.`,
].join("\n");
console.log(md);
if (!argv.includes("--no-write")) writeDocSection("stats", md);
