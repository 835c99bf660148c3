// The host's own parsers as test oracles: every line of every fixture of an adapter goes
// through the host's parser (pinned dev dependencies, 2026.916.1) and through our built
// stateless file (dist/ui-parser.stateless.js, loaded the host's way). Wherever the host
// shows content on a line, ours must show the same content on that line (./oracle-compare.mjs
// says what "the same" means per entry kind), or the line must match one of the listed,
// reasoned differences (DIFFERENCES below), each checked exactly. docs/parity.md holds the
// table this test computes; `UPDATE_PARITY=1 node --test tests/js/host-oracle.test.mjs`
// rewrites it, and the test fails when the doc and the numbers disagree.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { root, loadHostFile, linesOf, fixtureTs } from "./host.mjs";
import { compareLine, DIFFERENCES } from "./oracle-compare.mjs";

const require = createRequire(import.meta.url);
const { parseAcpxStdoutLine } = await import("@paperclipai/adapter-utils/acpx-engine/ui");
const { parseGrokStdoutLine } = await import("@paperclipai/adapter-grok-local/ui");
const { parseKimiStdoutLine } = await import("@paperclipai/adapter-kimi-local/ui");
// Hermes is an external adapter: the host loads these two CommonJS files themselves.
const hermes = require("@paperclipai/hermes-paperclip-adapter/ui-parser");
const hermesGateway = require("@paperclipai/hermes-paperclip-adapter/gateway/ui-parser");

/** Adapter → the host's parser for its lines and the fixture directories it reads. */
export const ADAPTERS = [
  { name: "acpx (adapter-utils, the ACP engine of claude/codex/gemini/kimi)", id: "acp", oracle: parseAcpxStdoutLine, dirs: ["acp"] },
  { name: "grok_local", id: "grok", oracle: parseGrokStdoutLine, dirs: ["grok"] },
  // Kimi's parser hands `acpx.*` lines (its default ACP engine) to parseAcpxStdoutLine.
  { name: "kimi_local", id: "kimi", oracle: parseKimiStdoutLine, dirs: ["kimi", "acp"] },
  { name: "hermes_local", id: "hermes", oracle: hermes.parseStdoutLine, dirs: ["hermes"] },
  { name: "hermes_gateway", id: "hermes_gateway", oracle: hermesGateway.parseStdoutLine, dirs: ["hermes_gateway"] },
];

const j = (v) => JSON.stringify(v);
/** Lines made for every event type each oracle recognises, with the variants its code
 * branches on (beyond what the fixtures hold). */
const GENERATED = {
  acp: [
    j({ type: "acpx.session", agent: "codex", sessionId: "s-2", mode: "oneshot" }),
    j({ type: "acpx.session", runtimeSessionName: "agent:gemini:r" }),
    j({ type: "acpx.text_delta", text: "thinking…", stream: "thinking" }),
    j({ type: "acpx.text_delta", text: "answer" }),
    j({ type: "acpx.tool_call", name: "Read", toolCallId: "g1", status: "pending", text: "Read (pending): a.txt", tag: "tool_call", input: "a.txt" }),
    j({ type: "acpx.tool_call", name: "Read", toolCallId: "g1", status: "completed", text: "Read (completed): 3 lines", tag: "tool_call" }),
    j({ type: "acpx.tool_call", name: "Write", toolCallId: "g2", status: "failed", text: "Write (failed)", tag: "tool_call_update" }),
    j({ type: "acpx.tool_call", name: "Write", toolCallId: "g2", status: "in_progress", text: "Write (in_progress): b.txt", tag: "tool_call_update" }),
    j({ type: "acpx.tool_call", name: "Write", status: "pending", text: "", tag: "tool_call" }),
    j({ type: "acpx.tool_call", name: "Glob", toolUseId: "g3", status: "cancelled", text: "Glob (cancelled): stopped", tag: "tool_call" }),
    j({ type: "acpx.tool_result", id: "g4", output: { lines: 3 } }),
    j({ type: "acpx.tool_result", name: "Bash", content: "ok", isError: true }),
    j({ type: "acpx.status", text: "usage updated: 10/100", tag: "usage_update", used: 10, size: 100 }),
    j({ type: "acpx.status", text: "mode updated: plan", tag: "current_mode_update" }),
    j({ type: "acpx.status" }),
    j({ type: "acpx.result", stopReason: "end_turn" }),
    j({ type: "acpx.result", text: "done", isError: true, errors: ["a", { b: 1 }], costUsd: 0.5, inputTokens: 9, outputTokens: 3, cachedTokens: 1 }),
    j({ type: "acpx.error", message: "boom", code: "X" }),
    j({ type: "acpx.error", summary: "timed_out", stopReason: "timeout" }),
    j({ type: "acpx.heartbeat", message: "alive" }),
    j({ type: "acpx.heartbeat" }),
  ],
  grok: [
    j({ type: "thought", data: "Plan" }),
    j({ type: "text", data: "" }),
    j({ type: "error", message: "quota exceeded" }),
    j({ type: "error", error: { detail: "bad request" } }),
    j({ type: "error", error: { code: "E42" } }),
    j({ type: "error" }),
    j({ type: "end" }),
    j({ type: "end", stopReason: "MaxTokens" }),
    j({ type: "progress", data: 3 }),
    "Loading model…",
  ],
  kimi: [
    j({ role: "assistant", content: "  padded  " }),
    j({ role: "assistant", tool_calls: [{ id: "c1", function: { name: "Shell", arguments: "not json" } }, { name: "Glob", arguments: { pattern: "*.rs" } }] }),
    j({ role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "out" }] }),
    j({ role: "tool", content: "orphan" }),
    j({ role: "meta", type: "session.resume_hint" }),
    j({ role: "error", message: "rate limited" }),
    j({ type: "error", error: "boom" }),
    j({ role: "user", content: "hi" }),
  ],
  hermes_gateway: [
    "[hermes-gateway:event] run=r9 event=message.delta data=" + j({ delta: "" }),
    "[hermes-gateway:event] run=r9 event=run.error data=" + j({ error: "boom" }),
    "[hermes-gateway:event] run=r9 event=run.failed data=" + j({ message: "upstream" }),
    "[hermes-gateway:event] run=r9 event=reasoning.available data=" + j({ reasoning: "pondering" }),
    "[hermes-gateway:event] run=r9 event=session.created data=" + j({ id: "x" }),
    "[hermes-gateway] run finished",
  ],
  hermes: [
    "[hermes] Exit code: 1, timed out: true",
    "┊ 💬 Done.",
    "┊ ✍️  write     notes.md  0.2s [error]",
    "💭 pondering",
    "session_id: 20260101_000000_x",
  ],
};

function generatedLines(id) {
  return (GENERATED[id] ?? []).map((line, i) => ({ file: `generated/${id}`, n: i + 1, line, ts: fixtureTs(i), stateful: undefined }));
}

function fixtureLines(dir) {
  const d = join(root, "tests", "fixtures", dir);
  const out = [];
  for (const f of readdirSync(d).sort()) {
    if (f.includes(".expected.") || !/\.(jsonl|ndjson|txt|log)$/.test(f)) continue;
    // Our stateful output for the line: the reviewed golden.
    const stem = f.slice(0, f.lastIndexOf("."));
    const golden = linesOf(readFileSync(join(d, `${stem}.expected.jsonl`), "utf8")).map((l) => JSON.parse(l));
    linesOf(readFileSync(join(d, f), "utf8")).forEach((line, i) =>
      out.push({ file: `${dir}/${f}`, n: i + 1, line, ts: fixtureTs(i), stateful: golden[i] }),
    );
  }
  return out;
}

function acpxType(line) {
  try {
    return String(JSON.parse(line)?.type ?? "").startsWith("acpx.");
  } catch {
    return false;
  }
}

/** Compares every fixture line of every adapter; returns per-adapter tallies and failures. */
export function runOracles(ours) {
  const report = [];
  for (const a of ADAPTERS) {
    const tally = { adapter: a.name, id: a.id, lines: 0, generated: 0, same: 0, listed: 0, oursMore: 0, theirsMore: 0, reasons: {}, failures: [] };
    const all = [...a.dirs.flatMap(fixtureLines), ...generatedLines(a.id)];
    {
      for (const { file, n, line, ts, stateful } of all) {
        tally.lines++;
        if (file.startsWith("generated/")) tally.generated++;
        const theirs = a.oracle(line, ts);
        const mine = structuredClone(ours.parseStdoutLine(line, ts));
        const reparse = (l) => structuredClone(ours.parseStdoutLine(l, ts));
        // Kimi's parser reads acpx lines with adapter-utils' reader: the same rules apply.
        const id = a.id === "kimi" && acpxType(line) ? "acp" : a.id;
        const r = compareLine(id, line, theirs, mine, { reparse, stateful });
        if (r.failure) {
          tally.theirsMore++;
          tally.failures.push(`${file}:${n}: ${r.failure}\n    line   ${line.slice(0, 300)}\n    theirs ${JSON.stringify(theirs).slice(0, 400)}\n    ours   ${JSON.stringify(mine).slice(0, 400)}`);
          continue;
        }
        for (const id of r.reasons) tally.reasons[id] = (tally.reasons[id] ?? 0) + 1;
        if (r.oursMore) tally.oursMore++;
        else if (r.reasons.length === 0) tally.same++;
        else tally.listed++;
      }
    }
    report.push(tally);
  }
  return report;
}

const BEGIN = "<!-- parity:begin (generated by tests/js/host-oracle.test.mjs; UPDATE_PARITY=1 to rewrite) -->";
const END = "<!-- parity:end -->";
const README_BEGIN = "<!-- parity-readme:begin (generated by tests/js/host-oracle.test.mjs; UPDATE_PARITY=1 to rewrite) -->";
const README_END = "<!-- parity-readme:end -->";

/** The per-adapter table. */
function tableRows(report) {
  const rows = [
    "| adapter | lines (generated) | same content | differs as listed | ours shows more | theirs shows more | listed differences met (lines) |",
    "|---|---:|---:|---:|---:|---:|---|",
  ];
  for (const t of report) {
    const reasons = Object.entries(t.reasons).sort().map(([id, c]) => `${id} ×${c}`).join(", ") || "none";
    rows.push(`| ${t.adapter} | ${t.lines} (${t.generated}) | ${t.same} | ${t.listed} | ${t.oursMore} | ${t.theirsMore} | ${reasons} |`);
  }
  return rows;
}

/** The generated part of README.md: the table alone. */
export function readmeTable(report) {
  return [README_BEGIN, "", ...tableRows(report), "", README_END].join("\n");
}

/** The generated part of docs/parity.md. */
export function parityTable(report) {
  const rows = tableRows(report);
  const total = report.reduce((s, t) => s + t.lines, 0);
  const diffs = Object.entries(DIFFERENCES).map(([id, d]) => `- **${id}** (${d.adapters.join(", ")}): ${d.reason}`);
  const generated = report.reduce((s, t) => s + t.generated, 0);
  return [BEGIN, "", `${total} lines compared: ${total - generated} fixture lines, ${generated} generated for the event types and variants each host parser branches on.`, "", ...rows, "", "Listed differences, each checked exactly by the test:", "", ...diffs, "", END].join("\n");
}

const ours = loadHostFile("dist/ui-parser.stateless.js");

test("on every fixture line, ours shows what the host's parser shows (or a listed difference)", () => {
  const report = runOracles(ours);
  for (const t of report) assert.ok(t.lines > 0, `${t.adapter}: no fixture lines`);
  const failures = report.flatMap((t) => t.failures);
  assert.deepEqual(failures, [], failures.join("\n"));
});

/** Checks (or with UPDATE_PARITY=1 rewrites) the generated block of a doc. */
function checkBlock(rel, begin, end, block) {
  const path = join(root, rel);
  const doc = readFileSync(path, "utf8");
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end);
  assert.ok(start >= 0 && stop > start, `${rel} has no generated block`);
  if (process.env.UPDATE_PARITY) {
    writeFileSync(path, doc.slice(0, start) + block + doc.slice(stop + end.length));
    return;
  }
  assert.equal(doc.slice(start, stop + end.length), block, `${rel} is stale: UPDATE_PARITY=1 node --test tests/js/host-oracle.test.mjs`);
}

test("docs/parity.md and the README hold the numbers this test computes", () => {
  const report = runOracles(ours);
  checkBlock("docs/parity.md", BEGIN, END, parityTable(report));
  checkBlock("README.md", README_BEGIN, README_END, readmeTable(report));
});

test("the comparison fails on a real regression", () => {
  // The same host output against an ours that lost the tool result, the text, the tokens.
  const theirs = parseAcpxStdoutLine('{"type":"acpx.tool_call","name":"Bash","toolCallId":"t","status":"failed","text":"Bash (failed): exit 2","tag":"tool_call"}', "t");
  assert.ok(compareLine("acp", "", theirs, [theirs[0]]).failure, "a dropped tool_result must fail");
  const wrongError = [theirs[0], { ...theirs[1], isError: false }];
  assert.ok(compareLine("acp", "", theirs, wrongError).failure, "a wrong isError must fail");
  const text = [{ kind: "assistant", ts: "t", text: "hello", delta: true }];
  assert.ok(compareLine("acp", "", text, [{ ...text[0], text: "hell" }]).failure, "lost text must fail");
  assert.ok(compareLine("acp", "", text, [{ ...text[0], kind: "thinking" }]).failure, "a wrong kind must fail");
  const res = [{ kind: "result", ts: "t", text: "done", inputTokens: 5, outputTokens: 2, cachedTokens: 0, costUsd: 0.1, subtype: "s", isError: false, errors: [] }];
  assert.ok(compareLine("acp", "", res, [{ ...res[0], costUsd: 0 }]).failure, "lost cost must fail");
  const card = [{ kind: "tool_call", ts: "t", name: "Read", toolUseId: "x", input: { path: "/a" } }];
  assert.ok(compareLine("acp", "", card, [{ ...card[0], toolUseId: "y" }]).failure, "a wrong tool id must fail");
  assert.ok(compareLine("acp", "", card, []).failure, "a dropped card must fail");
});
