// Shared by the browser tests: a loopback static server over the repo and a headless
// Debian chromium driven by playwright-core (no browser download).
import http from "node:http";
import { readFile } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import { chromium } from "playwright-core";
import { root } from "../js/host.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".jsonl": "text/plain; charset=utf-8", ".ndjson": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8", ".png": "image/png", ".wasm": "application/wasm",
};

/** Serves files under the repo root on 127.0.0.1 (random port). */
export async function startServer(headers = {}) {
  const server = http.createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, path.endsWith("/") ? path + "index.html" : path);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", ...headers });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

/** extraArgs: more chromium switches (e.g. "--js-flags=--expose-gc"). */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
}

/** The worker side of the host, as a string (it becomes a Blob URL in the page): `load`
 * evaluates a ui-parser source the host's way, `parse` runs lines through it; both report
 * their time measured inside the worker. */
export const HOST_WORKER = `
"use strict";
let mod = null;
const disabled = ["fetch","XMLHttpRequest","WebSocket","EventSource","importScripts","Worker","SharedWorker","Blob","BroadcastChannel","indexedDB","caches"];
onmessage = (ev) => {
  const msg = ev.data;
  if (msg.type === "load") {
    const make = Function; // captured before it is removed
    for (const g of disabled) { try { self[g] = undefined; } catch (e) {} }
    try { self.eval = undefined; } catch (e) {}
    for (const f of [function () {}, async function () {}, function* () {}, async function* () {}]) {
      try { Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined }); } catch (e) {}
    }
    try { self.Function = undefined; } catch (e) {}
    const t0 = performance.now();
    try {
      const exports = {}, module = { exports };
      make("exports", "module", "self", "globalThis", '"use strict";\\n{\\n' + msg.source + "\\n}")(exports, module, undefined, undefined);
      mod = module.exports && Object.keys(module.exports).length ? module.exports : exports;
      postMessage({ type: "ready", ms: performance.now() - t0, keys: Object.keys(mod) });
    } catch (e) {
      postMessage({ type: "error", message: String(e && e.message) });
    }
  } else if (msg.type === "parse") {
    const t0 = performance.now();
    const parser = msg.stateful ? mod.createStdoutParser() : null;
    const out = msg.lines.map((l, i) => msg.stateful ? parser.parseLine(l, msg.ts[i]) : mod.parseStdoutLine(l, msg.ts[i]));
    postMessage({ type: "parsed", out, ms: performance.now() - t0 });
  }
};`;
