// `make host-e2e`, part 2: a company, our adapter package and the runs, through the released
// server's own API in local_trusted mode (no login: the board actor is implicit on loopback).
//   POST /api/companies                      -> company (its issuePrefix is the UI's URL prefix)
//   POST /api/adapters/install               -> our local adapter package (isLocalPath: true)
//   POST /api/companies/:id/agents           -> one agent per (log, parser)
//   POST /api/agents/:id/heartbeat/invoke    -> a run; GET /api/heartbeat-runs/:id until it ends
import { cpSync, mkdirSync, rmSync, copyFileSync } from "node:fs";
import { join } from "node:path";

const DONE = new Set(["succeeded", "failed", "cancelled", "timed_out", "interrupted"]);

/** target/host-e2e/adapter: scripts/host-e2e/adapter + our built stateless file as ./ui-parser. */
export function buildAdapterPackage(root, work, parserFile) {
  const dir = join(work, "adapter");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, "scripts", "host-e2e", "adapter"), dir, { recursive: true });
  copyFileSync(parserFile, join(dir, "ui-parser.js"));
  return dir;
}

export async function setupCompany(call, adapterDir) {
  const company = await call("POST", "/api/companies", { name: "agentlines host-e2e" });
  const installed = await call("POST", "/api/adapters/install", { packageName: adapterDir, isLocalPath: true });
  // The server must now serve our file, byte for byte what we built.
  const served = await call("GET", `/api/adapters/${installed.type}/ui-parser.js`);
  return { company, installed, servedBytes: typeof served === "string" ? Buffer.byteLength(served) : 0 };
}

/**
 * One agent + one run per parser for a log. `ours`: our adapter (its ./ui-parser renders);
 * `builtin`: claude_local, engine "cli", whose `claude` is scripts/host-e2e/claude-replay.mjs
 * replaying the same file (the host's built-in Claude parser renders).
 */
export async function makeRun(call, company, { which, log, adapterType, replayCommand }) {
  const body = which === "ours"
    ? { name: `ours ${log.name}`, adapterType, adapterConfig: { logFile: log.file } }
    : {
      name: `built-in ${log.name}`, adapterType: "claude_local",
      adapterConfig: { engine: "cli", command: replayCommand, env: { AGENTLINES_REPLAY_FILE: log.file }, timeoutSec: 120 },
    };
  const agent = await call("POST", `/api/companies/${company.id}/agents`, body);
  const run = await call("POST", `/api/agents/${agent.id}/heartbeat/invoke`, {});
  if (!run?.id) throw new Error(`${which} ${log.name}: the invoke was skipped (${JSON.stringify(run)})`);
  return { agent, run };
}

export async function waitRun(call, runId, timeoutMs = 180_000) {
  const end = Date.now() + timeoutMs;
  let r;
  while (Date.now() < end) {
    r = await call("GET", `/api/heartbeat-runs/${runId}`);
    if (DONE.has(r.status)) return r;
    await new Promise((res) => setTimeout(res, 500));
  }
  throw new Error(`run ${runId} still ${r?.status} after ${timeoutMs / 1000} s`);
}

/** The stored log, as the page reads it: { bytes, rows, stdoutBytes }. */
export async function storedLog(call, runId) {
  let offset = 0, bytes = 0, rows = 0, stdoutBytes = 0;
  for (let i = 0; i < 64; i++) {
    const r = await call("GET", `/api/heartbeat-runs/${runId}/log?offset=${offset}&limitBytes=1048576`);
    const content = r?.content ?? "";
    bytes += Buffer.byteLength(content);
    for (const l of content.split("\n")) {
      if (!l.trim()) continue;
      try { const o = JSON.parse(l); rows++; if (o.stream === "stdout") stdoutBytes += Buffer.byteLength(o.chunk ?? ""); } catch {}
    }
    if (r?.nextOffset == null || r.nextOffset <= offset || !content) break;
    offset = r.nextOffset;
  }
  return { bytes, rows, stdoutBytes };
}

export const runUrl = (base, company, agent, run) => `${base}/${company.issuePrefix}/agents/${agent.id}/runs/${run.id}`;
