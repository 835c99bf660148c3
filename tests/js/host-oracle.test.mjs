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
import { readFileSync, writeFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { root, loadHostFile, linesOf, fixtureTs } from "./host.mjs";
import { compareLine, DIFFERENCES, ENTRY_DIFFERENCES } from "./oracle-compare.mjs";

const require = createRequire(import.meta.url);
const { parseAcpxStdoutLine } = await import("@paperclipai/adapter-utils/acpx-engine/ui");
const { parseGrokStdoutLine } = await import("@paperclipai/adapter-grok-local/ui");
const { parseKimiStdoutLine } = await import("@paperclipai/adapter-kimi-local/ui");
// Hermes is an external adapter: the host loads these two CommonJS files themselves.
const hermes = require("@paperclipai/hermes-paperclip-adapter/ui-parser");
const hermesGateway = require("@paperclipai/hermes-paperclip-adapter/gateway/ui-parser");
/** A built-in adapter's own `dist/ui/parse-stdout.js` (the file its `./ui` entry re-exports;
 * loaded by path so that the entry's build-config and server imports stay out). */
const hostUi = (pkg) => import(pathToFileURL(join(root, "node_modules", "@paperclipai", pkg, "dist", "ui", "parse-stdout.js")).href);
const { parseClaudeStdoutLine } = await hostUi("adapter-claude-local");
const { parseCodexStdoutLine } = await hostUi("adapter-codex-local");
const { parseGeminiStdoutLine } = await hostUi("adapter-gemini-local");
const { parseOpenCodeStdoutLine } = await hostUi("adapter-opencode-local");
const { parseCursorStdoutLine } = await hostUi("adapter-cursor-local");
const pi = await hostUi("adapter-pi-local");
const { parseOpenClawGatewayStdoutLine } = await hostUi("adapter-openclaw-gateway");
// Installed without @cursor/sdk (package.json `overrides`: tests/js/stubs/cursor-sdk); its
// ui parser imports nothing.
const { parseCursorCloudStdoutLine } = await hostUi("adapter-cursor-cloud");

/** Adapter → the host's parser for its lines and the fixture directories it reads. */
export const ADAPTERS = [
  { name: "acpx (adapter-utils, the ACP engine of claude/codex/gemini/kimi)", id: "acp", oracle: parseAcpxStdoutLine, dirs: ["acp"] },
  { name: "grok_local", id: "grok", oracle: parseGrokStdoutLine, dirs: ["grok"] },
  // Kimi's parser hands `acpx.*` lines (its default ACP engine) to parseAcpxStdoutLine.
  { name: "kimi_local", id: "kimi", oracle: parseKimiStdoutLine, dirs: ["kimi", "acp"] },
  { name: "hermes_local", id: "hermes", oracle: hermes.parseStdoutLine, dirs: ["hermes"] },
  { name: "hermes_gateway", id: "hermes_gateway", oracle: hermesGateway.parseStdoutLine, dirs: ["hermes_gateway"] },
  // The CLI engine of claude/codex/gemini (`engine: "cli"`); their `acpx.*` lines go to
  // parseAcpxStdoutLine, compared in the acpx row.
  // `corpus`: the shared corpus' directories read too when AGENTLINES_CORPUS names it.
  { name: "claude_local", id: "claude", oracle: parseClaudeStdoutLine, dirs: ["claude"], corpus: ["claude-stream-json", "claude-session-jsonl"] },
  { name: "codex_local", id: "codex", oracle: parseCodexStdoutLine, dirs: ["codex"], corpus: ["codex-exec-json", "codex-legacy", "codex-rollout"] },
  { name: "gemini_local", id: "gemini", oracle: parseGeminiStdoutLine, dirs: ["gemini"], corpus: ["gemini-stream-json"] },
  { name: "opencode_local", id: "opencode", oracle: parseOpenCodeStdoutLine, dirs: ["opencode"], corpus: ["opencode-json"] },
  { name: "cursor (cursor_local)", id: "cursor", oracle: parseCursorStdoutLine, dirs: ["cursor"], corpus: ["cursor-stream-json"] },
  // Pi's parser keeps the open calls between lines: reset per file, as the host does per run.
  { name: "pi_local", id: "pi", oracle: pi.parsePiStdoutLine, reset: pi.resetParserState, dirs: ["pi"], corpus: ["pi-json"] },
  { name: "openclaw_gateway", id: "openclaw_gateway", oracle: parseOpenClawGatewayStdoutLine, dirs: ["plain/openclaw-gateway-adapter-log.txt"] },
  { name: "cursor_cloud", id: "cursor_cloud", oracle: parseCursorCloudStdoutLine, dirs: ["cursor_cloud"] },
];

const j = (v) => JSON.stringify(v);
/** Lines made for every event type each oracle recognises, with the variants its code
 * branches on (beyond what the fixtures hold). Left out: shapes only a host parser's
 * defensive branches read and no runtime writes (docs/parity.md, "Not generated"). */
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
  claude: [
    j({ type: "system", subtype: "init", model: "claude-sonnet-4-5", session_id: "s-c1", tools: [] }),
    j({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Looking." }, { type: "thinking", thinking: "which file?" }, { type: "tool_use", id: "tu1", name: "Read", input: { file_path: "/a.rs" } }] }, session_id: "s-c1" }),
    j({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", tool_use_id: "tu2", name: "Bash", input: { command: "ls" } }] }, session_id: "s-c1" }),
    j({ type: "assistant", message: { role: "assistant", content: [] }, session_id: "s-c1" }),
    j({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu1", content: "fn main() {}" }] }, session_id: "s-c1" }),
    j({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu2", is_error: true, content: [{ type: "text", text: "ls: denied" }, { type: "image" }] }] }, session_id: "s-c1" }),
    j({ type: "user", message: { role: "user", content: [{ type: "text", text: "and now?" }] }, session_id: "s-c1" }),
    j({ type: "result", subtype: "success", is_error: false, result: "Done.", total_cost_usd: 0.25, usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2 }, session_id: "s-c1" }),
    j({ type: "result", subtype: "error_during_execution", is_error: true, errors: ["boom", { message: "bad" }, { code: "E1" }], usage: {}, session_id: "s-c1" }),
    j({ type: "acpx.text_delta", text: "via acp", channel: "output", tag: "agent_message_chunk" }),
  ],
  codex: [
    j({ type: "thread.started", thread_id: "th-1" }),
    j({ type: "turn.started" }),
    j({ type: "item.started" }),
    j({ type: "item.completed", item: { id: "i1", type: "agent_message", text: "Hi there" } }),
    j({ type: "item.completed", item: { id: "i2", type: "reasoning", text: "**Planning**" } }),
    j({ type: "item.started", item: { id: "i3", type: "command_execution", command: "cargo test", status: "in_progress" } }),
    j({ type: "item.completed", item: { id: "i3", type: "command_execution", command: "cargo test", aggregated_output: "1 failed\n", exit_code: 101, status: "failed" } }),
    j({ type: "item.completed", item: { id: "i4", type: "command_execution", command: "true", aggregated_output: "", exit_code: 0, status: "completed" } }),
    j({ type: "item.completed", item: { id: "i5", type: "file_change", changes: [], status: "completed" } }),
    j({ type: "item.completed", item: { id: "i6", type: "file_change", status: "completed", changes: ["a", "b", "c", "d", "e", "f", "g"].map((f) => ({ path: `${f}.rs`, kind: "update" })) } }),
    j({ type: "item.started", item: { id: "i7", type: "tool_use", name: "search", input: { q: "x" } } }),
    j({ type: "item.completed", item: { id: "i7", type: "tool_use", name: "search", status: "failed", error: { message: "no index" } } }),
    j({ type: "item.completed", item: { id: "i8", type: "tool_result", tool_use_id: "i7", output: "3 hits" } }),
    j({ type: "item.completed", item: { id: "i9", type: "error", message: "stream disconnected" } }),
    j({ type: "item.completed", item: { id: "i10", type: "mystery", status: "completed" } }),
    j({ type: "turn.completed", usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 } }),
    j({ type: "turn.failed", error: { message: "context window exceeded" }, usage: { input_tokens: 5, output_tokens: 0 } }),
    j({ type: "error", message: "Reconnecting... 1/5" }),
  ],
  gemini: [
    j({ type: "system", subtype: "init", session_id: "g-1", model: "gemini-2.5-pro" }),
    j({ type: "system", subtype: "error", error: { message: "quota" } }),
    j({ type: "system", subtype: "compact" }),
    j({ type: "user", message: { content: [{ type: "text", text: "user words" }] } }),
    j({ type: "message", role: "assistant", content: "streamed", delta: true }),
    j({ type: "message", role: "user", content: "asked" }),
    j({ type: "thinking", delta: { text: "considering" } }),
    j({ type: "tool_call", subtype: "started", call_id: "c2", tool_call: { shell: { args: { command: "ls" } } } }),
    j({ type: "tool_call", subtype: "completed", call_id: "c2", tool_call: { shell: { result: { error: { errorMessage: "denied" } } } } }),
    j({ type: "tool_call", subtype: "progress", call_id: "c2", tool_call: { shell: {} } }),
    j({ type: "result", status: "error", error: { message: "max turns" }, stats: { input_tokens: 9, output_tokens: 2, cached: 1 } }),
    j({ type: "result", status: "success", stats: { input_tokens: 3, output_tokens: 4, cached: 1, total_tokens: 7, duration_ms: 5, tool_calls: 0 } }),
    j({ type: "error", timestamp: "2026-01-01T00:00:00.000Z", severity: "error", message: "network down" }),
  ],
  opencode: [
    j({ type: "text", sessionID: "ses_1", timestamp: 1, part: { type: "text", text: "  " } }),
    j({ type: "reasoning", sessionID: "ses_1", timestamp: 1, part: { type: "reasoning", text: "think" } }),
    j({ type: "tool_use", sessionID: "ses_1", timestamp: 1 }),
    j({ type: "tool_use", sessionID: "ses_1", timestamp: 1, part: { type: "tool", id: "p1", tool: "grep", state: { status: "running", input: { pattern: "x" } } } }),
    j({ type: "tool_use", sessionID: "ses_1", timestamp: 1, part: { type: "tool", callID: "c1", tool: "bash", title: "ls", state: { status: "completed", input: { command: "ls" }, output: "a\nb", metadata: { exit: 0 } } } }),
    j({ type: "tool_use", sessionID: "ses_1", timestamp: 1, part: { type: "tool", callID: "c2", tool: "read", state: { status: "error", input: { filePath: "/x" }, error: "ENOENT" } } }),
    j({ type: "step_start", timestamp: 1, part: { type: "step-start" } }),
    j({ type: "step_finish", sessionID: "ses_1", timestamp: 1, part: { type: "step-finish", reason: "tool-calls", cost: 0.002, tokens: { input: 10, output: 3, reasoning: 2, cache: { read: 4, write: 0 } } } }),
    j({ type: "error", sessionID: "ses_1", timestamp: 1, error: { name: "APIError", data: { message: "overloaded" } } }),
    j({ type: "error", sessionID: "ses_1", timestamp: 1, error: { name: "UnknownError" } }),
  ],
  cursor: [
    "stdout: " + j({ type: "system", subtype: "init", session_id: "cu-1", model: "gpt-5" }),
    "stderr: " + j({ type: "error", message: "auth expired" }),
    j({ type: "system", subtype: "config", session_id: "cu-1" }),
    j({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Working" }] }, session_id: "cu-1", model_call_id: "m1" }),
    j({ type: "user", message: { role: "user", content: [{ type: "text", text: "go" }] }, session_id: "cu-1" }),
    j({ type: "thinking", subtype: "delta", text: "step one ", session_id: "cu-1" }),
    j({ type: "tool_call", subtype: "started", call_id: "t2", tool_call: { grepToolCall: { args: { pattern: "todo" } } }, session_id: "cu-1" }),
    j({ type: "tool_call", subtype: "completed", call_id: "t2", tool_call: { grepToolCall: { args: { pattern: "todo" }, result: { success: { matches: 3 } } } }, session_id: "cu-1" }),
    j({ type: "tool_call", subtype: "completed", call_id: "t3", tool_call: { shellToolCall: { args: { command: "false" }, result: { success: { exitCode: 1, stderr: "failed" } } } }, session_id: "cu-1" }),
    j({ type: "tool_call", subtype: "queued", call_id: "t4", tool_call: { readToolCall: { args: { path: "a" } } }, session_id: "cu-1" }),
    j({ type: "tool_call", subtype: "started", call_id: "t5", session_id: "cu-1" }),
    j({ type: "result", subtype: "success", result: "Finished.", duration_ms: 10, is_error: false, session_id: "cu-1", usage: { inputTokens: 5, outputTokens: 6 } }),
    j({ type: "result", subtype: "error", is_error: true, error: "crashed", session_id: "cu-1" }),
    j({ type: "error", error: { message: "rate limited" }, session_id: "cu-1" }),
    // The older shapes the host's reader still takes ("compatibility with older stream-json"):
    // OpenCode's events, as OpenCode writes them.
    j({ type: "step_start", sessionID: "cu-old", part: { type: "step-start" } }),
    j({ type: "text", part: { type: "text", text: "old chunk " } }),
    j({ type: "tool_use", part: { type: "tool", callID: "o1", tool: "bash", state: { status: "completed", input: { command: "ls" }, output: "a.txt", metadata: { exit: 0 } } } }),
    j({ type: "step_finish", part: { type: "step-finish", reason: "stop", cost: 0.001, tokens: { input: 4, output: 2, cache: { read: 1 } } } }),
  ],
  pi: [
    j({ type: "response", id: "1", success: true }),
    j({ type: "agent_start" }),
    j({ type: "turn_start" }),
    j({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "Hel" } }),
    j({ type: "message_update", assistantMessageEvent: { type: "thinking_delta", delta: "hmm" } }),
    j({ type: "tool_execution_start", toolCallId: "p1", toolName: "bash", args: { command: "ls" } }),
    j({ type: "tool_execution_update", toolCallId: "p1", toolName: "bash", partialResult: { content: [] } }),
    j({ type: "tool_execution_end", toolCallId: "p1", toolName: "bash", result: { content: [{ type: "text", text: "a.txt" }] }, isError: false }),
    j({ type: "tool_execution_end", toolCallId: "p2", toolName: "read", result: "ENOENT", isError: true }),
    j({ type: "message_end", message: { role: "assistant", content: [{ type: "thinking", thinking: "hmm, list it" }, { type: "text", text: "Hello. Listed." }], stopReason: "stop" } }),
    j({ type: "turn_end", message: { role: "assistant", content: [{ type: "text", text: "Hello. Listed." }], stopReason: "stop" }, toolResults: [] }),
    j({ type: "agent_end", messages: [] }),
    "Pi is thinking…",
  ],
  openclaw_gateway: [
    "[openclaw-gateway] connected to ws://127.0.0.1:18789",
    "[openclaw-gateway:event] run=r1 stream=assistant data=" + j({ delta: "Hel" }),
    "[openclaw-gateway:event] run=r1 stream=assistant data=" + j({ text: "Hello there" }),
    "[openclaw-gateway:event] run=r1 stream=assistant data=" + j({}),
    "[openclaw-gateway:event] run=r1 stream=error data=" + j({ message: "socket closed" }),
    "[openclaw-gateway:event] run=r1 stream=lifecycle data=" + j({ phase: "failed", error: "agent crashed" }),
    "[openclaw-gateway:event] run=r1 stream=lifecycle data=" + j({ phase: "start" }),
    "[openclaw-gateway:event] run=r1 stream=tool data=" + j({ phase: "start", name: "exec" }),
    "stderr: [openclaw-gateway] handshake failed",
  ],
  cursor_cloud: [
    j({ type: "cursor_cloud.init", agentId: "bc-1", model: "composer-1" }),
    j({ type: "cursor_cloud.status", status: "RUNNING", message: "cloning repo" }),
    j({ type: "cursor_cloud.message", message: { type: "assistant", message: { content: [{ type: "text", text: "Cloned." }, { type: "tool_use", id: "u1", name: "edit", input: { path: "a.md" } }] } } }),
    j({ type: "cursor_cloud.message", message: { type: "user", message: { content: [{ type: "text", text: "fix it" }] } } }),
    j({ type: "cursor_cloud.message", message: { type: "thinking", text: "considering" } }),
    j({ type: "cursor_cloud.message", message: { type: "tool_call", call_id: "u2", name: "shell", status: "running", args: { command: "make" } } }),
    j({ type: "cursor_cloud.message", message: { type: "tool_call", call_id: "u2", name: "shell", status: "error", result: { exitCode: 2 } } }),
    j({ type: "cursor_cloud.message", message: { type: "tool_call", call_id: "u3", name: "read", status: "pending" } }),
    j({ type: "cursor_cloud.message", message: { type: "tool_result", call_id: "u1", name: "edit", content: "ok", is_error: false } }),
    j({ type: "cursor_cloud.message", message: { type: "status", status: "FINISHED", message: "wrapping up" } }),
    j({ type: "cursor_cloud.message", message: { type: "task", text: "Task: open PR" } }),
    j({ type: "cursor_cloud.result", status: "error", error: "VM lost" }),
    j({ type: "cursor_cloud.progress", pct: 5 }),
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

/** A fixture directory's lines, or one file's (`dir/file`). */
function fixtureLines(spec) {
  const [dir, only] = spec.split("/");
  const d = join(root, "tests", "fixtures", dir);
  const out = [];
  for (const f of only ? [only] : readdirSync(d).sort()) {
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

/** With AGENTLINES_CORPUS set: the lines of the corpus directories `dirs` (our stateful
 * output computed, there being no reviewed golden). */
function corpusLines(dirs) {
  const base = process.env.AGENTLINES_CORPUS;
  if (!base) return [];
  const files = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
    else if (/\.(jsonl|ndjson|txt|log)$/.test(p) && !p.includes(".expected.")) files.push(p);
  };
  for (const d of dirs ?? []) walk(join(base, d));
  const stateful = loadHostFile("dist/ui-parser.js");
  return files.flatMap((f) => {
    const parser = stateful.createStdoutParser();
    return linesOf(readFileSync(f, "utf8")).map((line, i) => ({ file: `corpus/${f.slice(base.length + 1)}`, n: i + 1, line, ts: fixtureTs(i), stateful: structuredClone(parser.parseLine(line, fixtureTs(i))) }));
  });
}

function acpxType(line) {
  try {
    return String(JSON.parse(line)?.type ?? "").startsWith("acpx.");
  } catch {
    return false;
  }
}

/** Compares every fixture line of every adapter; returns per-adapter tallies and failures. */
export function runOracles(ours, { corpus = false } = {}) {
  const report = [];
  for (const a of ADAPTERS) {
    const tally = { adapter: a.name, id: a.id, lines: 0, generated: 0, same: 0, listed: 0, oursMore: 0, theirsMore: 0, reasons: {}, failures: [] };
    const all = [...a.dirs.flatMap(fixtureLines), ...generatedLines(a.id), ...(corpus ? corpusLines(a.corpus) : [])];
    {
      // Our stateless entries for every line of each file (a text shown on another line).
      const perFile = new Map();
      for (const x of all) {
        if (!perFile.has(x.file)) perFile.set(x.file, []);
        perFile.get(x.file).push(structuredClone(ours.parseStdoutLine(x.line, x.ts)));
      }
      let lastFile = null;
      for (const { file, n, line, ts, stateful } of all) {
        if (a.reset && file !== lastFile) a.reset();
        lastFile = file;
        tally.lines++;
        if (file.startsWith("generated/")) tally.generated++;
        const theirs = a.oracle(line, ts);
        const fileOurs = perFile.get(file);
        const mine = fileOurs[n - 1];
        const reparse = (l) => structuredClone(ours.parseStdoutLine(l, ts));
        // Kimi's parser reads acpx lines with adapter-utils' reader: the same rules apply.
        const id = a.id === "kimi" && acpxType(line) ? "acp" : a.id;
        const r = compareLine(id, line, theirs, mine, { reparse, stateful, fileOurs, index: n - 1 });
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
  const diffs = Object.entries({ ...DIFFERENCES, ...ENTRY_DIFFERENCES }).map(([id, d]) => `- **${id}** (${d.adapters.join(", ")}): ${d.reason}`);
  const generated = report.reduce((s, t) => s + t.generated, 0);
  return [BEGIN, "", `${total} lines compared: ${total - generated} fixture lines, ${generated} generated for the event types and variants each host parser branches on.`, "", ...rows, "", "Listed differences, each checked exactly by the test:", "", ...diffs, "", END].join("\n");
}

const ours = loadHostFile("dist/ui-parser.stateless.js");

test("on every fixture line, ours shows what the host's parser shows (or a listed difference)", (t) => {
  // (With AGENTLINES_CORPUS set, the shared corpus' lines too; the docs hold fixtures only.)
  const report = runOracles(ours, { corpus: Boolean(process.env.AGENTLINES_CORPUS) });
  if (process.env.AGENTLINES_CORPUS) for (const r of tableRows(report)) t.diagnostic(r);
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

test("the listed differences fail when what they rely on is missing", () => {
  // shown-once: a chunk ours does not show on its line must be on another line of the run.
  const chunk = [{ kind: "assistant", ts: "t", text: "I'll read" }];
  const run = { fileOurs: [[], [{ kind: "assistant", ts: "t", text: "I'll read the README." }]], index: 0 };
  assert.equal(compareLine("cursor", "{}", chunk, [], run).failure, undefined);
  assert.ok(compareLine("cursor", "{}", chunk, [], { fileOurs: [[], [{ kind: "assistant", ts: "t", text: "Something else." }]], index: 0 }).failure);
  // cursor-tool-names: the tool's name, the same id.
  const shell = [{ kind: "tool_call", ts: "t", name: "shellToolCall", toolUseId: "c1", input: { command: "ls" } }];
  assert.equal(compareLine("cursor", "{}", shell, [{ ...shell[0], name: "shell" }]).failure, undefined);
  assert.ok(compareLine("cursor", "{}", shell, [{ ...shell[0], name: "shell", toolUseId: "c2" }]).failure);
  assert.ok(compareLine("cursor", "{}", shell, [{ ...shell[0], name: "shell", input: {} }]).failure);
  // codex-result-header: the output, and the host's isError.
  const res = [{ kind: "tool_result", ts: "t", toolUseId: "i1", content: "command: ls\nstatus: completed\nexit_code: 0\n\na.txt", isError: false }];
  assert.equal(compareLine("codex", "{}", res, [{ ...res[0], content: "a.txt" }]).failure, undefined);
  assert.ok(compareLine("codex", "{}", res, [{ ...res[0], content: "b.txt" }]).failure);
  assert.ok(compareLine("codex", "{}", res, [{ ...res[0], content: "a.txt", isError: true }]).failure);
  // harness-kind: only the kinds listed for the adapter, with every word.
  const line = JSON.stringify({ type: "assistant", message: { model: "<synthetic>", content: [] } });
  const said = [{ kind: "assistant", ts: "t", text: "No response requested." }];
  assert.equal(compareLine("claude", line, said, [{ kind: "system", ts: "t", text: "Claude Code: No response requested." }]).failure, undefined);
  assert.ok(compareLine("claude", line, said, [{ kind: "system", ts: "t", text: "Claude Code: no response" }]).failure);
  assert.ok(compareLine("codex", line, said, [{ kind: "system", ts: "t", text: "No response requested." }]).failure);
});
