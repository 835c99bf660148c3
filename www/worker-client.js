// Page side of the parser worker (www/host-worker.js): fetches the ui-parser source as
// text, starts the worker from its file (no Blob/inline workers under the CSP), asks it to
// load the source the host's way and waits at most 5 s for "ready". On any failure
// (scanner refusal, a throw, no exports, no answer in time, the worker dying) it records
// why, and a fresh worker in fallback mode turns every line into one stdout entry, as the
// host would. Entries come back structured-cloned, in batches.

const READY_TIMEOUT_MS = 5000;
const STALL_MS = 15000;

// Trusted Types (www/serve.mjs sends require-trusted-types-for 'script' on the page): the
// only script URL this page ever makes is the worker's own file.
let policy = null;
function workerUrl() {
  const url = "host-worker.js";
  if (!globalThis.trustedTypes) return url;
  if (!policy) {
    policy = globalThis.trustedTypes.createPolicy("agentlines-viewer", {
      createScriptURL: (u) => {
        if (u !== url) throw new TypeError("unexpected script URL");
        return u;
      },
    });
  }
  return policy.createScriptURL(url);
}

/** The parser loaded when none is asked for: the file the npm package's "./ui-parser"
 * export names (pkg-template/package.json), i.e. what the host loads by default. */
export const DEFAULT_PARSER = "dist/ui-parser.stateless.js";

/** A parser path as the page shows it (relative to the repo root: "dist/ui-parser.js"); the
 * page is www/index.html, so it is fetched as "../" + path. Anything odd falls back to the
 * default. */
export function parserPath(param) {
  const p = typeof param === "string" ? param.replace(/^\/+/, "") : "";
  return /^[\w./-]+\.js$/.test(p) && !p.includes("..") ? p : DEFAULT_PARSER;
}

export class ParserHost {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.worker = null;
    this.status = { state: "loading" };
    this.sessionId = 0;
    this.handlers = null;
    this.lastMessage = 0;
    this.stallTimer = null;
  }

  /** Loads the parser at `path`; resolves to the status (ready or fallback). */
  async start(path) {
    const t0 = performance.now();
    let source;
    try {
      const res = await fetch("../" + path, { cache: "no-store" });
      if (!res.ok) throw new Error(`HTTP ${res.status} for ${path}`);
      source = await res.text();
    } catch (e) {
      return this.fallback(`could not fetch ${path}: ${e.message}`);
    }
    let worker;
    try {
      worker = new Worker(workerUrl());
    } catch (e) {
      return this.fallback(`could not start the worker: ${e.message}`);
    }
    const answer = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ type: "failed", stage: "timeout", reason: `no 'ready' from the worker within ${READY_TIMEOUT_MS / 1000} s` }), READY_TIMEOUT_MS);
      worker.onmessage = (ev) => {
        clearTimeout(timer);
        resolve(ev.data && typeof ev.data === "object" ? ev.data : { type: "failed", stage: "protocol", reason: "odd reply" });
      };
      worker.onerror = (ev) => {
        clearTimeout(timer);
        ev.preventDefault();
        resolve({ type: "failed", stage: "worker", reason: `the worker failed: ${ev.message || "error event"}` });
      };
      worker.postMessage({ type: "load", source });
    });
    if (answer.type !== "ready") {
      worker.terminate();
      return this.fallback(String(answer.reason || "unknown failure"), answer.stage);
    }
    this.attach(worker);
    this.status = {
      state: "ready", path, bytes: source.length, evalMs: answer.evalMs, firstCallMs: answer.firstCallMs,
      totalMs: performance.now() - t0, exports: Array.isArray(answer.exports) ? answer.exports.map(String) : [],
    };
    this.onStatus(this.status);
    return this.status;
  }

  async fallback(reason, stage = "load") {
    const worker = new Worker(workerUrl());
    await new Promise((resolve) => {
      worker.onmessage = () => resolve();
      worker.onerror = () => resolve();
      worker.postMessage({ type: "load", fallback: true });
    });
    this.attach(worker);
    this.status = { state: "fallback", stage, reason };
    this.onStatus(this.status);
    return this.status;
  }

  attach(worker) {
    this.worker = worker;
    worker.onmessage = (ev) => this.receive(ev.data);
    worker.onerror = (ev) => {
      ev.preventDefault();
      this.fail(`the worker failed while parsing: ${ev.message || "error event"}`);
    };
  }

  receive(msg) {
    if (!msg || typeof msg !== "object" || msg.session !== this.sessionId || !this.handlers) return;
    this.lastMessage = performance.now();
    if (msg.type === "opened") this.handlers.opened?.(msg);
    else if (msg.type === "entries") {
      const entries = Array.isArray(msg.entries) ? msg.entries : [];
      const lines = Array.isArray(msg.lines) ? msg.lines : [];
      this.handlers.entries(entries, lines, msg);
      if (msg.done) this.stopWatch();
    }
  }

  fail(reason) {
    this.stopWatch();
    if (this.handlers?.error) this.handlers.error(reason);
  }

  watch() {
    this.stopWatch();
    this.lastMessage = performance.now();
    this.stallTimer = setInterval(() => {
      if (performance.now() - this.lastMessage > STALL_MS) {
        this.worker.terminate();
        this.fail(`the parser gave no answer for ${STALL_MS / 1000} s (stuck on a line?); the worker was stopped — reload to start over`);
      }
    }, 1000);
  }

  stopWatch() {
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.stallTimer = null;
  }

  /** Starts a parse session; `input` is {text} or {blob} (a File or Blob: only a handle is
   * posted, the worker reads and decodes it, so a big file never loads the page's thread). */
  parse(input, opts, handlers) {
    this.sessionId++;
    this.handlers = handlers;
    const msg = { type: "parse", session: this.sessionId, stateless: !!opts.stateless, live: !!opts.live, startFraction: Number(opts.startFraction) || 0 };
    if (input.blob) {
      msg.blob = input.blob;
      this.worker.postMessage(msg);
    } else {
      msg.text = input.text;
      this.worker.postMessage(msg);
    }
    if (!opts.live) this.watch();
    return this.sessionId;
  }

  feed(count) {
    if (this.worker) this.worker.postMessage({ type: "feed", session: this.sessionId, count });
  }

  stop() {
    this.stopWatch();
    this.sessionId++;
    this.handlers = null;
    if (this.worker) this.worker.postMessage({ type: "stop" });
  }
}
