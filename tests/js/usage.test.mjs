// The npm entry's cost API (dist/index.cjs): `summarizeUsage` over a run's entries gives the
// same figures as `agentlines stats` (src/usage.rs is the one definition), and a stateful
// parser's `runtime` says what the results' token counts mean. docs/costs.md.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./host.mjs";

const al = createRequire(import.meta.url)(join(root, "dist/index.cjs"));
const TS = "2026-01-01T00:00:00.000Z";

function read(file) {
  const p = al.createStdoutParser();
  const entries = [];
  for (const line of readFileSync(join(root, "tests/fixtures", file), "utf8").split("\n")) {
    if (line.trim()) entries.push(...p.parseLine(line, TS));
  }
  return { entries, runtime: p.runtime };
}

test("a Claude session file: priced model by model, marked as an estimate", () => {
  const { entries, runtime } = read("claude/session-spotter-short.jsonl");
  assert.equal(runtime, "claude");
  const u = al.summarizeUsage(entries, { runtime });
  // ccusage 20.0.24 gives $0.1444475 for this file (tests/oracle/ccusage.test.mjs).
  assert.ok(Math.abs(u.costUsd - 0.1444475) < 1e-9, JSON.stringify(u));
  assert.equal(u.statedCostUsd, 0);
  assert.deepEqual(u.tokens, { input: 3, cacheRead: 11515, cacheWrite: 13835, output: 13, reasoning: 0 });
  assert.match(u.cost, /^≈ \$0\.1444 \(estimated at list prices of \d{4}-\d\d-\d\d\)$/);
  assert.equal(u.costShort, "≈ $0.1444");
  assert.deepEqual(Object.keys(u.byModel), ["claude-opus-4-6"]);
  assert.match(u.prices.source, /^LiteLLM /);
});

test("a Codex rollout: its input counts cache reads, the model comes from turn_context", () => {
  const { entries, runtime } = read("codex/agentcmd-rollout-2025-09-24T20-12-23.jsonl");
  assert.equal(runtime, "codex");
  const u = al.summarizeUsage(entries, { runtime });
  assert.deepEqual(Object.keys(u.byModel), ["gpt-5-codex"]);
  // ccusage 20.0.24: 29,257 uncached input, 120,192 cached, 4,808 output, $0.09967525.
  assert.equal(u.tokens.input, 29257);
  assert.equal(u.tokens.cacheRead, 120192);
  assert.equal(u.tokens.output, 4808);
  assert.ok(Math.abs(u.costUsd - 0.09967525) < 1e-9, JSON.stringify(u));
  // Read as Claude counts (no runtime), the input would hold the cache reads twice.
  assert.equal(al.summarizeUsage(entries).tokens.input, 149449);
});

test("a stated cost is kept; an unknown model is named, never $0", () => {
  const result = (extra) => ({ kind: "result", ts: TS, text: "", inputTokens: 1000, outputTokens: 10, cachedTokens: 0, costUsd: 0, subtype: "success", isError: false, errors: [], ...extra });
  const stated = al.summarizeUsage([result({ costUsd: 0.5 })]);
  assert.equal(stated.cost, "$0.5000");
  const unknown = al.summarizeUsage([{ kind: "init", ts: TS, model: "frobnicator-9", sessionId: "s" }, result({})]);
  assert.equal(unknown.cost, "unknown model for 1 result");
  assert.equal(unknown.costShort, "unknown model");
  assert.equal(al.summarizeUsage([]).cost, "$0.0000");
});

test("misuse is refused with a message that names it", () => {
  assert.throws(() => al.summarizeUsage("x"), /entries must be an array/);
  assert.throws(() => al.summarizeUsage([], { runtime: "claud" }), /unknown runtime "claud"/);
  assert.throws(() => al.summarizeUsage([{ kind: "result", ts: TS }]), /entry 0/);
  // A parser before any line knows no runtime.
  assert.equal(al.createStdoutParser().runtime, undefined);
  assert.equal(al.createStdoutParser({ format: "codex" }).runtime, "codex");
});
