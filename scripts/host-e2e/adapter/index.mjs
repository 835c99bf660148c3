// make host-e2e only: a Paperclip adapter (type "agentlines_replay") whose run replays a real
// log as its stdout. adapterConfig: { logFile, chunkBytes? }. The file is sent to the host in
// fixed-size chunks (32 KiB by default), cut anywhere but inside a UTF-8 character, as a CLI's
// pipe delivers it: the host stores each chunk truncated to 64 Ki chars (2026.916.1,
// `compactRunLogChunk`), so chunks cut at line ends would let one long line be truncated,
// which no real pipe read does. Nothing is parsed here: the page parses the stored log with
// this package's ./ui-parser (agentlines' stateless file).
import { open } from "node:fs/promises";

export const type = "agentlines_replay";

async function execute(ctx) {
  const { config, onLog } = ctx;
  const file = typeof config?.logFile === "string" ? config.logFile : "";
  if (!file) return { exitCode: 1, signal: null, timedOut: false, errorMessage: "adapterConfig.logFile is required" };
  const chunkBytes = Number(config.chunkBytes) > 0 ? Number(config.chunkBytes) : 32 * 1024;
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(chunkBytes);
    const dec = new TextDecoder();
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      const text = dec.decode(buf.subarray(0, bytesRead), { stream: true });
      if (text) await onLog("stdout", text);
    }
    const tail = dec.decode();
    if (tail) await onLog("stdout", tail);
  } finally {
    await fh.close();
  }
  return { exitCode: 0, signal: null, timedOut: false, summary: `replayed ${file}` };
}

async function testEnvironment() {
  return { adapterType: type, status: "pass", checks: [], testedAt: new Date().toISOString() };
}

export function createServerAdapter() {
  return { type, execute, testEnvironment, models: [], supportsLocalAgentJwt: false };
}
