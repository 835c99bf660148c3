// Writes tests/fixtures/acp/acpx-engine-*.jsonl by running the host's own writer code:
// `@paperclipai/adapter-utils` 2026.916.1 `dist/acpx-engine/execute.js`
// (`createAcpxEngineExecutor`, whose `emitRuntimeEvent` / turn-result / `emitAcpxFailure`
// write the `acpx.*` stdout lines) with a stand-in runtime, fed the events that acpx 0.12.0's
// own `parsePromptEventLine` (`dist/runtime.js`, region `src/runtime/public/events.ts`, not
// exported, so evaluated from the package's source text) makes of the `session/update` lines
// of tests/fixtures/acp/acp-jsonrpc-session.jsonl. So the only hand-made parts are the ACP
// messages (schema-derived) and the stand-in runtime's session ids and terminal results.
//
//   node scripts/gen-acp-fixtures.mjs    (then UPDATE_GOLDEN=1 cargo test --test golden)
//
// Output is deterministic: the engine's own stderr notices are not stdout and are dropped,
// the one stack trace the failure path logs is fixed before the throw.
import fs from "node:fs/promises";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath } from "node:url";
import { createAcpxEngineExecutor } from "@paperclipai/adapter-utils/acpx-engine/execute";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "tests/fixtures/acp");

/** acpx's parsePromptEventLine, evaluated from its shipped source (shared + events regions). */
function acpxPromptEventParser() {
  const src = readFileSync(path.join(root, "node_modules/@paperclipai/adapter-utils/node_modules/acpx/dist/runtime.js"), "utf8");
  const region = (name) => {
    const start = src.indexOf(`//#region ${name}`);
    const end = src.indexOf("//#endregion", start);
    if (start < 0 || end < 0) throw new Error(`acpx runtime.js has no region ${name}`);
    return src.slice(start, end);
  };
  const code = region("src/runtime/public/shared.ts") + region("src/runtime/public/events.ts");
  return vm.runInNewContext(`${code}\nparsePromptEventLine`, {});
}

/** Runs the engine once; returns its stdout lines. */
async function runEngine({ events = [], result, ensureSession, stderrTail, model }) {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "agentlines-acpgen-"));
  const stateDir = path.join(tmp, "state");
  if (stderrTail) {
    await fs.mkdir(path.join(stateDir, "run-stderr"), { recursive: true });
    await fs.writeFile(path.join(stateDir, "run-stderr", "run-1.log"), `${stderrTail}\n`);
  }
  const out = [];
  const execute = createAcpxEngineExecutor({
    createRuntime: () => ({
      ensureSession: ensureSession ?? (async () => ({
        backendSessionId: "sess_01JD7Q4M2R",
        agentSessionId: "2b9e4c1d-claude",
        runtimeSessionName: "agent:claude:paperclip-run-1",
      })),
      startTurn: () => ({
        events: (async function* () { yield* events; })(),
        result: Promise.resolve(result ?? { status: "completed", stopReason: "end_turn" }),
        cancel: async () => {},
      }),
      close: async () => {},
    }),
  });
  try {
    await execute({
      runId: "run-1",
      agent: { id: "agent-1", companyId: "company-1" },
      runtime: {},
      config: { agent: "claude", agentCommand: "npx @zed-industries/claude-code-acp", stateDir, cwd: tmp, ...(model ? { model } : {}) },
      context: {},
      onLog: async (stream, text) => {
        if (stream === "stdout") out.push(...text.split("\n").filter(Boolean));
      },
      onMeta: async () => {},
    });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return out;
}

const parseEvent = acpxPromptEventParser();
const session = readFileSync(path.join(dir, "acp-jsonrpc-session.jsonl"), "utf8").split("\n").filter(Boolean);
const events = session
  .filter((l) => JSON.parse(l).method === "session/update")
  .map((l) => parseEvent(l))
  .filter(Boolean);

const run = await runEngine({ events, model: "claude-sonnet-4-5" });

// Failure shapes, each a run of its own in a real log, joined here.
class AcpRuntimeError extends Error {
  constructor(code, message, cause) {
    super(message);
    this.name = "AcpRuntimeError";
    this.code = code;
    this.cause = cause;
    this.retryable = false;
    this.stack = `AcpRuntimeError: ${message}\n    at ensureSession (acpx/dist/runtime.js)`;
  }
}
const failures = [
  // A turn the agent failed: the turn-result writer's acpx.error.
  ...(await runEngine({
    events: [{ type: "text_delta", text: "Working on it", stream: "output", tag: "agent_message_chunk" }],
    result: { status: "failed", error: { message: "Internal error: model overloaded", code: "ACP_TURN_FAILED" } },
  })),
  // A cancelled turn (operator stop): acpx.error with message null.
  ...(await runEngine({ result: { status: "cancelled", stopReason: "cancelled" } })),
  // The legacy terminal events emitRuntimeEvent still writes (acpx's runTurn yields them).
  ...(await runEngine({
    events: [
      { type: "error", message: "Prompt too long", code: "ACP_TURN_FAILED", retryable: true },
      { type: "done", stopReason: "max_tokens" },
    ],
  })),
  // Startup failure: emitAcpxFailure with diagnostics and the agent's stderr tail.
  ...(await runEngine({
    ensureSession: async () => {
      throw new AcpRuntimeError("ACP_SESSION_INIT_FAILED", "session/new failed: backend rejected initialize", new Error("upstream timeout"));
    },
    stderrTail: "claude-agent-acp: SDK init failed (auth missing)",
  })),
];

await fs.writeFile(path.join(dir, "acpx-engine-run.jsonl"), run.join("\n") + "\n");
await fs.writeFile(path.join(dir, "acpx-engine-failures.jsonl"), failures.join("\n") + "\n");
console.log(`acpx-engine-run.jsonl: ${run.length} lines, acpx-engine-failures.jsonl: ${failures.length} lines`);
