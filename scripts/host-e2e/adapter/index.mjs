// make host-e2e only: a Paperclip adapter (type "agentlines_replay") whose run replays a real
// log as its stdout. adapterConfig: { logFile, chunkBytes? }. The file is sent to the host in
// chunks cut at line ends (as a CLI's pipe would deliver it); nothing is parsed here: the
// page parses the stored log with this package's ./ui-parser (agentlines' stateless file).
import { open } from "node:fs/promises";

export const type = "agentlines_replay";

async function execute(ctx) {
  const { config, onLog } = ctx;
  const file = typeof config?.logFile === "string" ? config.logFile : "";
  if (!file) return { exitCode: 1, signal: null, timedOut: false, errorMessage: "adapterConfig.logFile is required" };
  const chunkBytes = Number(config.chunkBytes) > 0 ? Number(config.chunkBytes) : 64 * 1024;
  const fh = await open(file, "r");
  try {
    let rest = "";
    const buf = Buffer.alloc(chunkBytes);
    const dec = new TextDecoder();
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      const text = rest + dec.decode(buf.subarray(0, bytesRead), { stream: true });
      const cut = text.lastIndexOf("\n") + 1;
      rest = text.slice(cut);
      if (cut > 0) await onLog("stdout", text.slice(0, cut));
    }
    rest += dec.decode();
    if (rest) await onLog("stdout", rest + "\n");
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
