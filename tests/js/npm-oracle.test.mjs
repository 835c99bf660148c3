// The ui parsers other adapters publish on npm (MIT, pinned dev dependencies) as test oracles,
// beside the host's own (host-oracle.test.mjs, whose comparison this reuses: ./oracle-compare.mjs
// says what "the same content" means per entry kind). Every line of each oracle's fixtures, and
// lines made for every event type its code reads, goes through the oracle and through our
// built stateless file (loaded the host's way): wherever the oracle shows content on a line,
// ours must show it on that line, or the line must be an instance of one of the reasoned
// differences below (NPM_DIFFERENCES, each checked exactly). docs/parity.md holds the table
// this test computes; `UPDATE_PARITY=1 node --test tests/js/npm-oracle.test.mjs` rewrites it.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { root, loadHostFile, linesOf, fixtureTs } from "./host.mjs";
import { compareLine } from "./oracle-compare.mjs";

const omp = await import("@agentic-engineering-agency/paperclip-adapter-omp/ui-parser");
const qwen = await import("@superbiche/qwen-paperclip-adapter/ui-parser");
const qwenOpenRouter = await import("paperclip-adapter-qwen-openrouter/ui-parser");
const customLlm = await import("paperclip-adapter-custom-llm-local/ui-parser");

const j = (v) => JSON.stringify(v);

/** Oracle → its package, parser, the fixtures of the format it reads (`dir` or `dir/prefix`,
 * a missing directory skipped) and lines for every event type its code reads. */
export const ORACLES = [
  {
    name: "@agentic-engineering-agency/paperclip-adapter-omp 0.5.0",
    id: "omp",
    // omp prints pi's format: the reasoned differences of pi's rows (host-oracle) apply.
    compareAs: "pi",
    oracle: omp.parseStdoutLine,
    dirs: ["pi", "omp"],
    generated: [
      j({ type: "session", version: 3, id: "omp-s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work" }),
      j({ type: "agent_start" }),
      j({ type: "turn_start" }),
      j({ type: "message_start", message: { role: "assistant", content: [] } }),
      j({ type: "message_update", message: { role: "assistant", content: [{ type: "text", text: "Reading the" }] }, assistantMessageEvent: { type: "text_delta", delta: "Reading the" } }),
      j({ type: "message_end", message: { role: "assistant", content: [{ type: "thinking", thinking: "which file?" }, { type: "text", text: "Reading the file." }], usage: { input: 120, output: 30, cacheRead: 64, cost: { total: 0.0021 } }, stopReason: "toolUse" } }),
      j({ type: "message_end", message: { role: "user", content: [{ type: "text", text: "fix the banner" }] } }),
      j({ type: "tool_execution_start", toolCallId: "t1", toolName: "read", args: { path: "a.ts" } }),
      j({ type: "tool_execution_end", toolCallId: "t1", toolName: "read", result: { content: [{ type: "text", text: "export {}" }] }, isError: false }),
      j({ type: "notice", level: "warning", message: "context window 80% full" }),
      j({ type: "error", message: "model overloaded" }),
      "omp is thinking…",
    ],
  },
  {
    name: "@superbiche/qwen-paperclip-adapter 0.1.2",
    id: "qwen",
    oracle: qwen.parseStdoutLine,
    dirs: ["claude/stream-", "qwen"],
    generated: [
      j({ type: "system", subtype: "init", session_id: "q-1", model: "qwen3-coder-plus", qwen_code_version: "0.0.14", tools: [] }),
      j({ type: "system", subtype: "session_start", session_id: "q-1", model: "qwen3-coder-plus" }),
      j({ type: "system", subtype: "error", error: { message: "quota exceeded" } }),
      j({ type: "assistant", session_id: "q-1", message: { role: "assistant", content: [{ type: "thinking", thinking: "plan it" }, { type: "text", text: "Listing files." }, { type: "tool_use", id: "tu1", name: "run_shell_command", input: { command: "ls" } }] } }),
      j({ type: "user", session_id: "q-1", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu1", content: "a.txt", is_error: false }] } }),
      j({ type: "user", session_id: "q-1", message: { role: "user", content: [{ type: "text", text: "and the tests?" }] } }),
      j({ type: "result", subtype: "success", session_id: "q-1", is_error: false, result: "Done.", usage: { input_tokens: 900, output_tokens: 40, cache_read_input_tokens: 512 }, total_cost_usd: 0 }),
      j({ type: "result", subtype: "error_max_turns", session_id: "q-1", is_error: true, result: "", error: { message: "max turns reached" }, usage: { input_tokens: 10, output_tokens: 0 } }),
      "Qwen Code is thinking…",
    ],
  },
  {
    name: "paperclip-adapter-qwen-openrouter 0.4.0",
    id: "qwen_openrouter",
    oracle: qwenOpenRouter.parseStdoutLine,
    dirs: ["openrouter"],
    generated: [
      j({ type: "system", subtype: "init", ts: "2026-01-01T00:00:00.000Z", model: "qwen/qwen3-coder", runId: "run-1" }),
      j({ type: "message", role: "assistant", ts: "2026-01-01T00:00:00.000Z", text: "hi" }),
      j({ type: "message", role: "tool", text: "note" }),
      j({ type: "message", role: "assistant", text: "" }),
      j({ type: "result", model: "anthropic/claude-3.5-haiku", finishReason: "stop", elapsedMs: 1234, usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 80 }, costUsd: 0.0012, isError: false }),
      j({ type: "result", finishReason: null, elapsedMs: 0, usage: { inputTokens: 5, outputTokens: 0 }, costUsd: null, isError: true, errors: ["Hit maxToolTurns (12) without a final assistant message."] }),
      j({ type: "error", message: "kaboom" }),
      j({ type: "error", error: "upstream closed" }),
      "[paperclip] Model does not support tool use — retrying without tools.",
      "just some text",
    ],
  },
  {
    name: "paperclip-adapter-custom-llm-local 0.2.0",
    id: "custom_llm",
    oracle: customLlm.parseStdoutLine,
    dirs: ["plain"],
    generated: [
      '[custom-llm-local] POST http://127.0.0.1:11434/v1/chat/completions (transport=openai_chat_completions, model=qwen2.5, headers={"Authorization":"[redacted]"})',
      "[custom-llm-local] succeeded (model=qwen2.5, inputTokens=412,outputTokens=97)",
      "The answer is 42.",
      "   ",
    ],
  },
];

/** Reasoned differences for these oracles: `expect` gives our exact entries for a line that
 * is an instance (fields given only), or undefined. */
export const NPM_DIFFERENCES = {
  "text-read-not-raw": {
    oracles: ["custom_llm"],
    reason: "a text line custom-llm-local's parser shows raw (as `stdout`, escapes and all): ours shows what a terminal shows (escapes stripped, carriage-return overwrites resolved), error markers and `[stderr]`/`[system]` tags as `stderr`/`system`, and a line another adapter wrote with its prefix (`[openclaw-gateway:event] …`, `[clawclip] …`, `AF::{…}`, `[schemabounce] {…}`, `__PAPERCLIP_TRANSCRIPT__ {…}`) read for what it holds (docs/extend.md); checked to be exactly our reviewed golden for the line (less `durationMs`, which only pairing on the stateful path adds).",
    expect(v, theirs, ours, x) {
      if (theirs.length !== 1 || theirs[0].kind !== "stdout" || theirs[0].text !== x.line.trim() || !x.stateful) return undefined;
      return x.stateful.map(({ ts, durationMs, ...e }) => e);
    },
  },
  "bare-lifecycle-marker": {
    oracles: ["omp"],
    reason: "omp's `agent_start`/`turn_start` carry nothing but their type: omp's parser shows the type name as a notice; ours says `agent run started` for the first and nothing for the second (pi's reading).",
    expect(v, theirs) {
      if (!["agent_start", "turn_start"].includes(v?.type) || theirs.length !== 1 || theirs[0].text !== v.type) return undefined;
      return v.type === "agent_start" ? [{ kind: "system", text: "agent run started" }] : [];
    },
  },
  "error-as-raw-result": {
    oracles: ["omp"],
    reason: "omp's parser makes an `error` event a failed `result` with zero tokens whose text and errors are the raw JSON line; ours shows the error's message as `stderr` and claims no run result (the run's totals come from its messages).",
    expect(v, theirs) {
      if (v?.type !== "error" || theirs[0]?.kind !== "result" || typeof v.message !== "string") return undefined;
      return [{ kind: "stderr" }];
    },
  },
  "per-message-result": {
    oracles: ["omp"],
    reason: "omp's parser makes every `message_end` with usage a `result` (the host sums every result); ours gives the run's totals once, summed over its messages, at `agent_end` (pi's reading), and on the `message_end` line shows the message itself: its text, thinking, and an error message as `stderr`.",
    expect(v, theirs, ours) {
      if (v?.type !== "message_end" || !theirs.some((e) => e.kind === "result") || ours.some((o) => o.kind === "result")) return undefined;
      const text = theirs.filter((e) => e.kind === "assistant").map((e) => e.text);
      if (!text.every((t) => ours.some((o) => o.kind === "assistant" && o.text.includes(t)))) return undefined;
      return ours.map((o) => ({ kind: o.kind, text: o.text }));
    },
  },
  "session-model": {
    oracles: ["omp"],
    reason: "a `session` header: omp's parser names the model `omp` whatever the session says; ours gives the session's provider/model (`unknown` when it names none), with the same session id.",
    expect(v, theirs) {
      if (v?.type !== "session" || theirs[0]?.kind !== "init" || theirs[0].model !== "omp") return undefined;
      return [{ kind: "init", sessionId: theirs[0].sessionId }];
    },
  },
  "cache-read-tokens": {
    oracles: ["qwen"],
    reason: "a Claude-shaped `result`: Qwen's parser looks for `cached_input_tokens` and so shows 0 cached tokens; ours counts `cache_read_input_tokens`, Claude's (and Qwen Code's) name for them; every other field the same.",
    expect(v, theirs) {
      const r = theirs[0];
      const cached = v?.usage?.cache_read_input_tokens;
      if (v?.type !== "result" || theirs.length !== 1 || r.kind !== "result" || typeof cached !== "number" || r.cachedTokens === cached) return undefined;
      return [{ kind: "result", text: r.text, inputTokens: r.inputTokens, outputTokens: r.outputTokens, cachedTokens: cached, costUsd: r.costUsd, isError: r.isError }];
    },
  },
  "qwen-system-subtype": {
    oracles: ["qwen"],
    reason: "a Claude-shaped `system` event other than `init`/`error`: Qwen's parser shows only `system: <subtype>`; ours shows what the event says (Claude Code's notice for it, or the event named with its fields), under its own words.",
    expect(v, theirs, ours) {
      if (v?.type !== "system" || ["init", "error"].includes(v.subtype) || theirs.length !== 1 || !/^system: /.test(theirs[0].text)) return undefined;
      // Claude Code's running thinking-token estimate says nothing to show (docs/formats/claude.md).
      if (v.subtype === "thinking_tokens") return [];
      return ours.length > 0 && ours.every((o) => o.kind === "system" || o.kind === "init") ? ours.map((o) => ({ kind: o.kind })) : undefined;
    },
  },
  "harness-user-text": {
    oracles: ["qwen"],
    reason: "a user turn the harness wrote (`[Your previous response had no visible output. …]`) or a subagent's prompt (`parent_tool_use_id` set): Qwen's parser shows it as the user's; ours as a `harness message:` / `Subagent prompt:` notice with the same text (Claude's format, docs/formats/claude.md).",
    expect(v, theirs) {
      if (v?.type !== "user" || theirs.length !== 1 || theirs[0].kind !== "user") return undefined;
      if (typeof v.parent_tool_use_id === "string") return [{ kind: "system", text: `Subagent prompt: ${theirs[0].text}` }];
      if (!/^\[.*\]$/s.test(theirs[0].text)) return undefined;
      return [{ kind: "system", text: `harness message: ${theirs[0].text}` }];
    },
  },
};

/** A fixture spec's lines with our stateful golden (`dir`, or `dir/prefix`). */
function fixtureLines(spec) {
  const [dir, prefix = ""] = spec.split("/");
  const d = join(root, "tests", "fixtures", dir);
  if (!existsSync(d)) return [];
  const out = [];
  for (const f of readdirSync(d).sort()) {
    if (!f.startsWith(prefix) || f.includes(".expected.") || !/\.(jsonl|ndjson|txt|log)$/.test(f)) continue;
    const stem = f.slice(0, f.lastIndexOf("."));
    const golden = linesOf(readFileSync(join(d, `${stem}.expected.jsonl`), "utf8")).map((l) => JSON.parse(l));
    linesOf(readFileSync(join(d, f), "utf8")).forEach((line, i) =>
      out.push({ file: `${dir}/${f}`, n: i + 1, line, ts: fixtureTs(i), stateful: golden[i] }),
    );
  }
  return out;
}

function exactly(want, ours) {
  return want.length === ours.length && want.every((w, i) => Object.entries(w).every(([k, x]) => JSON.stringify(ours[i][k]) === JSON.stringify(x)));
}

/** Compares every line of every oracle; per-oracle tallies and failures. */
export function runNpmOracles(ours) {
  return ORACLES.map((o) => {
    const tally = { oracle: o.name, id: o.id, lines: 0, generated: 0, same: 0, listed: 0, oursMore: 0, theirsMore: 0, reasons: {}, failures: [] };
    const all = [
      ...o.dirs.flatMap(fixtureLines),
      ...o.generated.map((line, i) => ({ file: `generated/${o.id}`, n: i + 1, line, ts: fixtureTs(i), stateful: undefined })),
    ];
    const perFile = new Map();
    for (const x of all) {
      if (!perFile.has(x.file)) perFile.set(x.file, []);
      perFile.get(x.file).push(structuredClone(ours.parseStdoutLine(x.line, x.ts)));
    }
    for (const { file, n, line, ts, stateful } of all) {
      tally.lines++;
      if (file.startsWith("generated/")) tally.generated++;
      const theirs = o.oracle(line, ts);
      const fileOurs = perFile.get(file);
      const mine = fileOurs[n - 1];
      const r = compareLine(o.compareAs ?? o.id, line, theirs, mine, { stateful, fileOurs, index: n - 1 });
      if (r.failure) {
        let v = null;
        try {
          v = JSON.parse(line);
        } catch {}
        const x = { line, stateful };
        const listed = Object.entries(NPM_DIFFERENCES).find(([, d]) => d.oracles.includes(o.id) && d.expect(v, theirs, mine, x) !== undefined);
        if (listed && exactly(listed[1].expect(v, theirs, mine, x), mine)) {
          tally.listed++;
          tally.reasons[listed[0]] = (tally.reasons[listed[0]] ?? 0) + 1;
          continue;
        }
        tally.theirsMore++;
        tally.failures.push(`${file}:${n}: ${r.failure}\n    line   ${line.slice(0, 300)}\n    theirs ${JSON.stringify(theirs).slice(0, 400)}\n    ours   ${JSON.stringify(mine).slice(0, 400)}`);
        continue;
      }
      for (const id of r.reasons) tally.reasons[id] = (tally.reasons[id] ?? 0) + 1;
      if (r.oursMore) tally.oursMore++;
      else if (r.reasons.length === 0) tally.same++;
      else tally.listed++;
    }
    return tally;
  });
}

const BEGIN = "<!-- npm-parity:begin (generated by tests/js/npm-oracle.test.mjs; UPDATE_PARITY=1 to rewrite) -->";
const END = "<!-- npm-parity:end -->";

export function npmParityTable(report) {
  const rows = [
    "| parser on npm | lines (generated) | same content | differs as listed | ours shows more | theirs shows more | listed differences met (lines) |",
    "|---|---:|---:|---:|---:|---:|---|",
  ];
  for (const t of report) {
    const reasons = Object.entries(t.reasons).sort().map(([id, c]) => `${id} ×${c}`).join(", ") || "none";
    rows.push(`| ${t.oracle} | ${t.lines} (${t.generated}) | ${t.same} | ${t.listed} | ${t.oursMore} | ${t.theirsMore} | ${reasons} |`);
  }
  const diffs = Object.entries(NPM_DIFFERENCES).map(([id, d]) => `- **${id}** (${d.oracles.join(", ")}): ${d.reason}`);
  return [BEGIN, "", ...rows, "", "Listed differences, each checked exactly by the test:", "", ...diffs, "", END].join("\n");
}

const ours = loadHostFile("dist/ui-parser.stateless.js");
const report = runNpmOracles(ours);

for (const t of report) {
  test(`${t.oracle}: on every line, ours shows what it shows (or a listed difference)`, () => {
    assert.ok(t.lines > 0, "no lines");
    assert.deepEqual(t.failures, [], t.failures.join("\n"));
  });
}

test("docs/parity.md holds the npm oracles' numbers this test computes", () => {
  const path = join(root, "docs", "parity.md");
  const doc = readFileSync(path, "utf8");
  const block = npmParityTable(report);
  const start = doc.indexOf(BEGIN);
  const stop = doc.indexOf(END);
  assert.ok(start >= 0 && stop > start, "docs/parity.md has no npm-parity block");
  if (process.env.UPDATE_PARITY) {
    writeFileSync(path, doc.slice(0, start) + block + doc.slice(stop + END.length));
    return;
  }
  assert.equal(doc.slice(start, stop + END.length), block, "docs/parity.md is stale: UPDATE_PARITY=1 node --test tests/js/npm-oracle.test.mjs");
});

test("the oracles' parsers are the pinned MIT packages", () => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const [name, version] of [
    ["@agentic-engineering-agency/paperclip-adapter-omp", "0.5.0"],
    ["@superbiche/qwen-paperclip-adapter", "0.1.2"],
    ["paperclip-adapter-qwen-openrouter", "0.4.0"],
    ["paperclip-adapter-custom-llm-local", "0.2.0"],
  ]) {
    assert.equal(pkg.devDependencies[name], version, name);
    const installed = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"));
    assert.equal(installed.version, version, name);
    assert.equal(installed.license, "MIT", name);
  }
});
