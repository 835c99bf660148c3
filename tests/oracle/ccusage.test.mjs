// agentlines stats against ccusage, the most used tool of its kind, on the same real logs:
// Claude Code session files and Codex rollouts (the shared corpus's, else this tree's
// fixtures), ccusage 20.0.24 with its bundled prices (--offline). `make test-oracle` installs
// ccusage into target/oracle and runs this file with AGENTLINES_BIN and CCUSAGE_BIN set.
//
// Checked per file: the same token counts (uncached input, output, cache reads, cache writes)
// and the same cost within 1%; and over all files, the cost within 1%. The one difference
// kept on purpose is in KNOWN, with its reason (docs/costs.md, "Against ccusage"): its tokens
// must differ by exactly that, and it is left out of the total.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, basename, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const agentlines = process.env.AGENTLINES_BIN ?? join(root, "target/debug/agentlines");
const ccusage = process.env.CCUSAGE_BIN ?? join(root, "target/oracle/node_modules/.bin/ccusage");
const corpus = resolve(root, "../shared/corpus");

/** The logs: the corpus's when it is beside the tree (CI has it), else the fixtures. */
function logs() {
  const jsonl = (dir, pick = () => true) =>
    existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl") && pick(f)).map((f) => join(dir, f)) : [];
  if (existsSync(corpus)) {
    return {
      where: corpus,
      claude: [...jsonl(join(corpus, "claude-session-jsonl")), ...jsonl(join(corpus, "bench"), (f) => f.startsWith("claude-session"))],
      codex: [...jsonl(join(corpus, "codex-rollout")), ...jsonl(join(corpus, "bench"), (f) => f.startsWith("codex-rollout"))],
    };
  }
  const fx = join(root, "tests/fixtures");
  return {
    where: fx,
    claude: jsonl(join(fx, "claude"), (f) => f.startsWith("session-") && !f.includes(".expected")),
    codex: jsonl(join(fx, "codex"), (f) => /^agentcmd-rollout-2025/.test(f) && !f.includes(".expected")),
  };
}

const stem = (f) => basename(f, ".jsonl").replace(/^session-/, "");

/** Differences kept on purpose: what ccusage counts beyond us, and why. */
const KNOWN = {
  "happy-duplicate-assistant-response": {
    why:
      "Claude Code wrote one message twice (the same message.id, the copy without a requestId); ccusage's key " +
      "(message.id, requestId) counts the copy again, ours (message.id) once",
    extra: { input: 4, output: 5, cacheRead: 0, cacheWrite: 16114 },
  },
};

function run(bin, args, env = {}) {
  return JSON.parse(execFileSync(bin, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 28, encoding: "utf8" }));
}

const figures = (f) => ({
  input: f.tokens.input,
  output: f.tokens.output,
  cacheRead: f.tokens.cacheRead,
  cacheWrite: f.tokens.cacheWrite,
  cost: f.costUsd,
  estimated: f.estimatedCostUsd,
  unpriced: f.unpricedResults,
});

/** `agentlines stats`, one file at a time (as ccusage is run below). */
function ours(files) {
  const out = new Map();
  for (const file of files) {
    const report = run(agentlines, ["stats", "--json", file]);
    out.set(stem(file), figures(report.files[0]));
  }
  return { files: out };
}

/** ccusage, one file at a time (its session report merges files of one project). */
function theirsClaude(files) {
  const home = mkdtempSync(join(tmpdir(), "ccusage-home-"));
  const out = new Map();
  for (const f of files) {
    const dir = mkdtempSync(join(tmpdir(), "ccusage-claude-"));
    mkdirSync(join(dir, "projects", stem(f)), { recursive: true });
    copyFileSync(f, join(dir, "projects", stem(f), `${stem(f)}.jsonl`));
    const r = run(ccusage, ["claude", "session", "--offline", "--json", "-z", "UTC"], { HOME: home, CLAUDE_CONFIG_DIR: dir });
    const s = r.sessions?.[0] ?? {};
    out.set(stem(f), {
      input: s.inputTokens ?? 0,
      output: s.outputTokens ?? 0,
      cacheRead: s.cacheReadTokens ?? 0,
      cacheWrite: s.cacheCreationTokens ?? 0,
      cost: s.totalCost ?? 0,
    });
  }
  return out;
}

function theirsCodex(files) {
  const home = mkdtempSync(join(tmpdir(), "ccusage-home-"));
  const dir = mkdtempSync(join(tmpdir(), "ccusage-codex-"));
  mkdirSync(join(dir, "sessions"), { recursive: true });
  for (const f of files) copyFileSync(f, join(dir, "sessions", `${stem(f)}.jsonl`));
  const r = run(ccusage, ["codex", "session", "--offline", "--json", "-z", "UTC"], { HOME: home, CODEX_HOME: dir });
  const out = new Map();
  for (const s of r.sessions ?? []) {
    out.set(s.sessionId, { input: s.inputTokens, output: s.outputTokens, cacheRead: s.cacheReadTokens, cacheWrite: s.cacheCreationTokens, cost: s.costUSD });
  }
  return out;
}

const near = (a, b, rel = 0.01) => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-9);

function compare(kind, files, theirs) {
  const { files: mine } = ours(files);
  let sumOurs = 0;
  let sumTheirs = 0;
  const rows = [];
  for (const f of files) {
    const name = stem(f);
    const a = mine.get(name);
    const b = theirs.get(name) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
    assert.ok(a, `${kind} ${name}: no stats from agentlines`);
    const known = KNOWN[name];
    for (const k of ["input", "output", "cacheRead", "cacheWrite"]) {
      const expected = b[k] - (known?.extra[k] ?? 0);
      assert.equal(a[k], expected, `${kind} ${name}: ${k} ${a[k]} (agentlines) vs ${b[k]} (ccusage)${known ? `; ${known.why}` : ""}`);
    }
    if (!known) assert.ok(near(a.cost, b.cost), `${kind} ${name}: cost $${a.cost} (agentlines) vs $${b.cost} (ccusage)`);
    // A log that spent tokens on a priced model never totals $0.
    if (a.input + a.output + a.cacheRead + a.cacheWrite > 0 && a.unpriced === 0) assert.ok(a.cost > 0, `${kind} ${name}: $0 for tokens spent`);
    if (!known) {
      sumOurs += a.cost;
      sumTheirs += b.cost;
    }
    rows.push(`${name}: $${a.cost.toFixed(4)} vs $${b.cost.toFixed(4)}${known ? ` (left out of the total: ${known.why})` : ""}`);
  }
  assert.ok(near(sumOurs, sumTheirs), `${kind} total: $${sumOurs} (agentlines) vs $${sumTheirs} (ccusage)`);
  console.log(`${kind}: ${files.length} files, agentlines $${sumOurs.toFixed(4)}, ccusage $${sumTheirs.toFixed(4)}\n  ${rows.join("\n  ")}`);
}

const { where, claude, codex } = logs();
claude.sort();
codex.sort();

test(`Claude Code session files (${where}): the same tokens and cost as ccusage`, () => {
  assert.ok(claude.length >= 5, `too few Claude session files found in ${where}`);
  compare("claude", claude, theirsClaude(claude));
});

// Read together, a resumed session's file repeats messages an earlier file has: both tools
// count them once (ccusage by message.id and requestId, over files in path order; we by
// message.id, under the first file given).
test(`Claude Code session files read together (${where}): the same totals as ccusage`, () => {
  const home = mkdtempSync(join(tmpdir(), "ccusage-home-"));
  const dir = mkdtempSync(join(tmpdir(), "ccusage-claude-all-"));
  for (const f of claude) {
    mkdirSync(join(dir, "projects", stem(f)), { recursive: true });
    copyFileSync(f, join(dir, "projects", stem(f), `${stem(f)}.jsonl`));
  }
  const theirs = run(ccusage, ["claude", "session", "--offline", "--json", "-z", "UTC"], { HOME: home, CLAUDE_CONFIG_DIR: dir }).totals;
  const mine = figures(run(agentlines, ["stats", "--json", ...claude]).total);
  const known = claude.map(stem).filter((n) => KNOWN[n]).map((n) => KNOWN[n].extra);
  const extra = (k) => known.reduce((s, e) => s + e[k], 0);
  assert.equal(mine.input, theirs.inputTokens - extra("input"));
  assert.equal(mine.output, theirs.outputTokens - extra("output"));
  assert.equal(mine.cacheRead, theirs.cacheReadTokens - extra("cacheRead"));
  assert.equal(mine.cacheWrite, theirs.cacheCreationTokens - extra("cacheWrite"));
  // The known difference's cost: what ccusage and we give for those files read alone.
  const knownFiles = claude.filter((f) => KNOWN[stem(f)]);
  const theirsAlone = theirsClaude(knownFiles);
  const oursAlone = ours(knownFiles).files;
  const knownCost = knownFiles.reduce((s, f) => s + theirsAlone.get(stem(f)).cost - oursAlone.get(stem(f)).cost, 0);
  assert.ok(near(mine.cost, theirs.totalCost - knownCost), `$${mine.cost} (agentlines) vs $${theirs.totalCost} - $${knownCost} (ccusage)`);
  console.log(`claude together: agentlines $${mine.cost.toFixed(4)}, ccusage $${theirs.totalCost.toFixed(4)} (less $${knownCost.toFixed(4)} for the known difference)`);
});

test(`Codex rollouts (${where}): the same tokens and cost as ccusage`, () => {
  assert.ok(codex.length >= 2, `too few Codex rollouts found in ${where}`);
  compare("codex", codex, theirsCodex(codex));
});
