// Page side of the parser worker (www/host-worker.js): fetches the ui-parser source as
// text, starts the worker from its file (no Blob/inline workers under the CSP), asks it to
// load the source the host's way and waits at most 5 s for "ready". On any failure
// (scanner refusal, a throw, no exports, no answer in time, the worker dying) it records
// why, and a fresh worker in fallback mode turns every line into one stdout entry, as the
// host would. Entries come back structured-cloned, in batches, or (the fast path of a parser
// with `parseBatch`) as one JSON string per slice of the file, read here (readBatch, drain).

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

/** The parser loaded when none is asked for: the npm entry (the same core as the host's
 * files, stateful, with the batch call that reads a big file in slices: docs/viewer.md, Big
 * logs). `parser=dist/ui-parser.stateless.js` shows exactly what the released host shows,
 * line by line. */
export const DEFAULT_PARSER = "dist/index.cjs";

/** A parser path as the page shows it (relative to the repo root: "dist/ui-parser.js"); the
 * page is www/index.html, so it is fetched as "../" + path. Anything odd falls back to the
 * default. */
export function parserPath(param) {
  const p = typeof param === "string" ? param.replace(/^\/+/, "") : "";
  return /^[\w./-]+\.c?js$/.test(p) && !p.includes("..") ? p : DEFAULT_PARSER;
}

/** A batched slice's answer (host-worker.js, the fast path): its JSON text read here, on
 * the page, once. `at` is the session's line count so far (the slice's first line). Returns
 * {entries, lines (index in the slice), count (lines read)}; text that is not the expected
 * shape becomes one notice. */
function readBatch(msg) {
  let v = null;
  try { v = JSON.parse(msg.json); } catch (e) { v = null; }
  msg.json = null;
  if (!v || !Array.isArray(v.entries) || !Array.isArray(v.lines) || v.lines.length !== v.entries.length) {
    v = { count: 0, entries: [{ kind: "system", ts: "", text: "[agentlines viewer] the parser's batch answer could not be read" }], lines: [0] };
  }
  return { entries: v.entries, lines: v.lines, count: Math.max(0, Number(v.count) || 0) };
}

/** Entries [from, to) of a read batch as the page takes them: their file `lines` (`at` + the
 * index in the slice) and `real` (1 where the entry has its record's own time; the others get
 * the synthetic time of their line, as the line-by-line path gives them). */
function batchPart(b, at, baseTs, from, to) {
  const entries = b.entries.slice(from, to);
  const lines = new Array(entries.length);
  const real = new Array(entries.length);
  for (let k = 0; k < entries.length; k++) {
    let e = entries[k];
    const line = at + (Number(b.lines[from + k]) || 0);
    if (!e || typeof e !== "object") e = entries[k] = { kind: "system", ts: "", text: "parser returned a non-object entry: " + String(e) };
    lines[k] = line;
    real[k] = typeof e.ts === "string" && e.ts !== "" ? 1 : 0;
    if (!real[k]) e.ts = new Date(baseTs + line * 1000).toISOString();
  }
  return { entries, lines, real };
}

/** Entries handed to the page per task: a batch holding more is handed over in parts, one
 * task each, so no single task runs long (a slice of short lines gives 100 000 entries). */
const PART = 4000;

export class ParserHost {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.worker = null;
    this.status = { state: "loading" };
    this.sessionId = 0;
    this.handlers = null;
    this.lastMessage = 0;
    this.stallTimer = null;
    this.batchLines = 0; // lines of the batched session so far
    this.shown = false; // its first screen was asked for
    this.queue = []; // batch answers not yet handed to the page
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
    if (msg && msg.type === "usage") {
      const done = this.usageWaits?.get(msg.usageId);
      if (done) {
        this.usageWaits.delete(msg.usageId);
        // With the runtime the parser read the log as (the folder list filters by it).
        done(msg.summary && typeof msg.summary === "object" ? { ...msg.summary, runtime: typeof msg.runtime === "string" ? msg.runtime : "" } : null);
      }
      return;
    }
    if (!msg || typeof msg !== "object" || msg.session !== this.sessionId || !this.handlers) return;
    this.lastMessage = performance.now();
    if (msg.type === "opened") {
      this.batchLines = 0;
      this.shown = false;
      this.handlers.opened?.(msg);
    }
    else if (msg.type === "entries") {
      if (typeof msg.json === "string") {
        this.queue.push(msg);
        if (this.queue.length === 1) this.drain();
        return;
      }
      const entries = Array.isArray(msg.entries) ? msg.entries : [];
      const lines = Array.isArray(msg.lines) ? msg.lines : [];
      this.handlers.entries(entries, lines, msg);
      if (msg.done) this.stopWatch();
    }
  }

  /** Hands the queued batch answers to the page, at most PART entries per task. */
  drain() {
    const msg = this.queue[0];
    if (!msg) return;
    if (msg.session !== this.sessionId || !this.handlers) {
      this.queue.length = 0;
      return;
    }
    if (!msg.batch) {
      msg.batch = readBatch(msg);
      msg.at = this.batchLines;
      msg.k = 0;
      this.batchLines += msg.batch.count;
    }
    const b = msg.batch;
    const end = Math.min(b.entries.length, msg.k + PART);
    const part = batchPart(b, msg.at, Number(msg.baseTs) || 0, msg.k, end);
    const whole = end >= b.entries.length;
    const pos = this.batchLines;
    const done = msg.done && whole;
    const total = done ? pos : Math.max(pos, Math.round((pos * (Number(msg.bytes) || 0)) / Math.max(1, Number(msg.bytesDone) || 1)));
    msg.k = end;
    this.handlers.entries(part.entries, part.lines, { ...msg, batch: null, real: part.real, pos, total, estimate: !done, done });
    if (whole) {
      this.queue.shift();
      if (!this.shown && !msg.done) {
        // The worker waits for the first screen before it parses on (host-worker.js).
        this.shown = true;
        const id = msg.session;
        requestAnimationFrame(() => requestAnimationFrame(() => this.worker?.postMessage({ type: "painted", session: id })));
      }
      if (msg.done) this.stopWatch();
    }
    if (this.queue.length) setTimeout(() => this.drain(), 0);
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
    this.queue.length = 0;
    this.handlers = handlers;
    const msg = { type: "parse", session: this.sessionId, stateless: !!opts.stateless, live: !!opts.live, tail: !!opts.tail, startFraction: Number(opts.startFraction) || 0 };
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

  /** What the results spent and cost (`summarizeUsage` in the worker: the log's own cost, or
   * an estimate from list prices marked as one); null where the parser has no such call.
   * `lastRun`: the entries are the latest parse's, so its detected runtime applies. */
  usage(entries, lastRun = true) {
    if (!this.worker) return Promise.resolve(null);
    this.usageWaits ??= new Map();
    const usageId = (this.nextUsage = (this.nextUsage || 0) + 1);
    return new Promise((resolve) => {
      this.usageWaits.set(usageId, resolve);
      this.worker.postMessage({ type: "usage", usageId, entries, lastRun });
    });
  }

  /** A followed file's new complete lines ("\n"-separated), for the tail session. */
  append(text) {
    if (this.worker) this.worker.postMessage({ type: "append", session: this.sessionId, text });
  }

  feed(count) {
    if (this.worker) this.worker.postMessage({ type: "feed", session: this.sessionId, count });
  }

  stop() {
    this.stopWatch();
    this.sessionId++;
    this.queue.length = 0;
    this.handlers = null;
    if (this.worker) this.worker.postMessage({ type: "stop" });
  }
}
