// The run viewer's parser worker: loads a ui-parser (dist/ui-parser.js) the way the
// Paperclip host does and parses logs with it off the page's thread.
//
// Loading (message {type:"load", source}):
//  1. the host's source scanner: refuse `import(`, `eval(`, `Function(`, `.constructor`,
//     import/export statements, `import.meta` and `require(` outside "…"/'…' strings and
//     comments (template literals and regex literals are NOT skipped, like the host);
//  2. remove the dangerous globals (network, storage, workers, Blob, eval, the function
//     constructors);
//  3. evaluate the source as the body of
//     new Function("exports","module","self","globalThis", '"use strict";\n{\n' + src + '\n}')
//     called with self and globalThis undefined; take module.exports (or exports).
// Replies {type:"ready"} or {type:"failed", stage, reason}. With {type:"load", fallback:true}
// no parser is loaded: every non-blank line becomes one stdout entry (what the host shows
// when a parser cannot be used).
//
// Parsing: {type:"parse", session, text | blob, stateless, live, startFraction} splits the text
// into lines and parses them in time-sliced batches, posting {type:"entries", session,
// entries, lines (source line index per entry), done, total, ms}. A file (blob) that is not
// a Paperclip run log, with a parser that has the npm entry's batch call (`parseBatch`),
// takes the fast path instead: the file is read as bytes a slice at a time (64 KiB, then
// 2 MiB, the next read while this one is parsed; never whole, never decoded here), each
// slice's complete lines go into the parser's wasm as they are in one call, and its answer
// travels as one JSON string {type:"entries", session, json, baseTs, bytesDone, bytes, done}
// that the page reads (www/worker-client.js, readBatch and drain: no structured clone of every entry,
// no JSON read here). After the first slice the worker waits (at most 250 ms) for the page's
// {type:"painted", session}, so the first screen is laid out without competing for the CPU. A line there gets its record's own timestamp or none; the page gives
// the others the synthetic one below, so no tool duration is measured from it. A newer
// session abandons an older one. Live sessions start at that fraction of the file (a tail
// attached mid-run) and advance only when the page sends {type:"feed", session, count}, with
// ts = the wall clock at feed time; other file sessions get ts = 2026-01-01T00:00:00Z + one
// second per line (tests/golden.rs's ts). A tail session ({tail: true}: a file followed as it
// grows) reads the file like a file session (the fast path where it can), keeps its stateful
// parser open (no flush at the end), and parses the complete lines the page sends with
// {type:"append", session, text} once the file is read, each with the wall clock as its ts
// unless it carries its own (session.appendText). A tail whose file cannot be read ends
// with an entries message marked `failed` (the page starts it again) and takes no appends.
// This file runs under its own CSP (www/serve.mjs: no network, 'unsafe-eval' for step 3).
"use strict";

const post = postMessage.bind(self);
const makeFunction = Function; // captured before it is removed
const wallClock = Date.now;
const later = setTimeout;
const BASE_TS = Date.UTC(2026, 0, 1);
const SLICE_MS = 40;

// Host rules (tests/js/host.mjs has the Node twin used by the package checks).
const RULES = [
  ["dynamic import", /(^|[^\w$])import\s*\(/g],
  ["eval(", /(^|[^\w$])eval\s*\(/g],
  ["Function(", /(^|[^\w$])Function\s*\(/g],
  [".constructor", /\.\s*constructor(?![\w$])/g],
  ["import/export statement", /^\s*(import|export)\s/gm],
  ["import.meta", /import\s*\.\s*meta/g],
  ["require(", /(^|[^\w$.])require\s*\(/g],
];
const DISABLED = [
  "eval", "Function", "fetch", "XMLHttpRequest", "WebSocket", "WebTransport", "EventSource",
  "RTCPeerConnection", "RTCDataChannel", "Request", "Response", "Headers", "Cache", "CacheStorage",
  "caches", "importScripts", "Worker", "SharedWorker", "Blob", "FileReader", "FileReaderSync",
  "BroadcastChannel", "indexedDB", "IDBFactory", "storageFoundation", "require", "process",
];

// Blanks out comments and '…'/"…" strings, keeping line breaks (line numbers stay right).
function codeOnly(src) {
  const out = [];
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === "/" && d === "/") {
      while (i < n && src[i] !== "\n") { out.push(" "); i++; }
    } else if (c === "/" && d === "*") {
      out.push("  ");
      i += 2;
      while (i < n && !(src[i] === "*" && src[i + 1] === "/")) { out.push(src[i] === "\n" ? "\n" : " "); i++; }
      out.push("  ");
      i += 2;
    } else if (c === '"' || c === "'") {
      out.push(" ");
      i++;
      while (i < n && src[i] !== c && src[i] !== "\n") {
        if (src[i] === "\\") { out.push(" "); i++; }
        out.push(" ");
        i++;
      }
      out.push(" ");
      i++;
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join("");
}

function scan(src) {
  const code = codeOnly(src);
  const found = [];
  for (const [rule, re] of RULES) {
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(code)) !== null && found.length < 20) {
      found.push(`${rule} at line ${code.slice(0, m.index + m[0].length).split("\n").length}`);
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return found;
}

function lockDown() {
  for (const g of DISABLED) {
    try { self[g] = undefined; } catch (e) { /* not writable: leave it */ }
  }
  const fns = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const f of fns) {
    try { Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined }); } catch (e) { /* ignore */ }
  }
}

let parser = null; // { mod, stateful }
// The stateful parser of the latest session: its `runtime` tells summarizeUsage what the
// results' token counts mean (npm entry only; undefined elsewhere).
let lastParser = null;
let fallbackOnly = false;

function load(msg) {
  if (msg.fallback) {
    fallbackOnly = true;
    lockDown();
    post({ type: "ready", fallback: true });
    return;
  }
  const source = typeof msg.source === "string" ? msg.source : "";
  const problems = scan(source);
  if (problems.length) {
    post({ type: "failed", stage: "scanner", reason: "the host's source scanner refuses it: " + problems.join("; ") });
    return;
  }
  lockDown();
  const t0 = performance.now();
  let mod;
  try {
    const exports = {};
    const module = { exports };
    const body = makeFunction("exports", "module", "self", "globalThis", '"use strict";\n{\n' + source + "\n}");
    body(exports, module, undefined, undefined);
    const m = module.exports;
    mod = m && typeof m === "object" && Object.keys(m).length > 0 ? m : exports;
  } catch (e) {
    post({ type: "failed", stage: "evaluate", reason: "evaluating the parser threw: " + describe(e) });
    return;
  }
  if (!mod || typeof mod.parseStdoutLine !== "function") {
    post({ type: "failed", stage: "exports", reason: "the parser exports no parseStdoutLine function" });
    return;
  }
  const evalMs = performance.now() - t0;
  const t1 = performance.now();
  try {
    mod.parseStdoutLine("", new Date(BASE_TS).toISOString()); // compiles the wasm, if any
  } catch (e) { /* the per-line guard handles it later */ }
  parser = { mod, stateful: typeof mod.createStdoutParser === "function", batch: typeof mod.parseBatch === "function" };
  post({
    type: "ready",
    evalMs,
    firstCallMs: performance.now() - t1,
    exports: Object.keys(mod).filter((k) => typeof k === "string").slice(0, 20),
  });
}

function describe(e) {
  try {
    return e && typeof e.message === "string" ? `${e.name || "Error"}: ${e.message}` : String(e);
  } catch (x) {
    return "(unprintable error)";
  }
}

// What the host shows for a line it cannot parse: the line itself as stdout.
function stdoutEntry(line, ts) {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  return text.trim() === "" ? [] : [{ kind: "stdout", ts, text }];
}

let session = null;

// Blob.prototype.text, taken before the lockdown removes the Blob global (the parser never
// sees a Blob: only this worker's own code reads the page's File/Blob handles).
const blobSlice = Blob.prototype.slice;
const blobBytes = Blob.prototype.arrayBuffer;
const textEncoder = new TextEncoder();
const FIRST_SLICE = 64 << 10; // the first screen waits for this much, whatever the file's size
const SLICE = 2 << 20; // then this much per call into the parser
const ANSWER = 2 << 20; // the JSON answer a slice should give at most (see streamSession)
const PAINT_WAIT_MS = 250; // the longest wait for the page's {type:"painted"} after the first slice

const MAX_ENTRIES_PER_LINE = 10000; // the viewer's own cap, whatever the parser returns
const MAX_ENTRIES_PER_MESSAGE = 4000; // one structured clone on the page stays small
const OWN_TS_MAX_LINE = 1 << 20; // longer lines are not searched for a timestamp
// The lines path (run logs, live tails, parsers without a batch call) never holds a file as
// one string: it reads it a slice at a time into lines (Blob.text() on ~512 MiB quietly gives
// "" in Chromium). It keeps at most LINES_MAX_BYTES of a file and LINE_MAX_CHARS of one line
// (the parser's own cap, 16 MiB, plus one: it then shows the line's head and says so); past
// either, a notice says what was not read. The fast path finds a first line up to
// FIRST_LINE_MAX bytes long before it decides which path a file takes.
const LINES_MAX_BYTES = 512 << 20;
const LINE_MAX_CHARS = (16 << 20) + 1;
const FIRST_LINE_MAX = 16 << 20;
const STREAMS = ["stdout", "stderr", "system"];
const RAW = 3; // a run-log file line that is not a row, kept as a stdout entry

function openSession(msg) {
  if (msg.blob && typeof msg.blob === "object" && !msg.live && !fallbackOnly && parser && parser.batch) {
    streamSession(msg);
    return;
  }
  if (msg.blob && typeof msg.blob === "object") {
    linesSession(msg, msg.blob);
    return;
  }
  startSession(msg, typeof msg.text === "string" ? msg.text : "");
}

// A file read into lines a slice at a time (never one string), then a lines session; what
// was not read past the limits above is said in a notice before its first line.
function linesSession(msg, blob) {
  const id = msg.session;
  // A tail's appends that come while the file is read wait in `queued`.
  const pending = { id, pending: true, tail: !!msg.tail, queued: [] };
  if (msg.tail) pending.appendText = (text) => pending.queued.push(text);
  session = pending; // an older session stops at its next slice
  readLines(blob, () => session === pending).then(
    (got) => {
      if (!got || session !== pending) return;
      startSession(msg, got.lines);
      if (session.appendText) for (const text of pending.queued) session.appendText(text);
    },
    (e) => failRead(pending, "could not read the file: " + describe(e)),
  );
}

/** The file's lines ("\n"-separated; a last line without one kept), read a slice at a time;
 *  null once `live()` says the session was replaced. */
async function readLines(blob, live) {
  const size = blob.size;
  const limit = Math.min(size, LINES_MAX_BYTES);
  const decoder = new TextDecoder();
  const lines = [];
  let carry = "";
  let cutLines = 0;
  let skipping = false; // past LINE_MAX_CHARS of the current line: the rest until its newline is dropped
  for (let at = 0; at < limit;) {
    const buf = await blobBytes.call(blobSlice.call(blob, at, Math.min(limit, at + SLICE)));
    if (!live()) return null;
    if (buf.byteLength === 0) break;
    at += buf.byteLength;
    const text = decoder.decode(buf, { stream: at < size });
    let start = 0;
    for (let nl = text.indexOf("\n"); ; nl = text.indexOf("\n", start)) {
      const end = nl < 0 ? text.length : nl;
      if (!skipping) {
        const room = LINE_MAX_CHARS - carry.length;
        carry += text.slice(start, Math.min(end, start + room));
        if (end - start > room) { skipping = true; cutLines++; }
      }
      if (nl < 0) break;
      lines.push(carry);
      carry = "";
      skipping = false;
      start = nl + 1;
    }
  }
  if (carry !== "") lines.push(carry);
  const notes = [];
  if (cutLines) notes.push(`[agentlines viewer] ${cutLines} line(s) longer than ${LINE_MAX_CHARS - 1} characters: only their first ${LINE_MAX_CHARS - 1} were read (the parser shows such a line's head)`);
  if (limit < size) notes.push(`[agentlines viewer] this file is ${mb(size)}; this view reads run logs, live tails and files without a batch parser up to ${mb(LINES_MAX_BYTES)}: the last ${mb(size - limit)} are not shown`);
  // Said after the last line read, where what is missing begins (line numbers stay the file's).
  for (const n of notes) lines.push(n);
  return { lines };
}
const mb = (n) => `${(n / 1048576).toFixed(1)} MiB`;

// --- timestamps the records carry ------------------------------------------------------
// A JSON object line's own top-level "timestamp" or "ts" (an ISO string, or epoch
// milliseconds / seconds as a number), as an ISO string; null when it has none.
function ownTs(line) {
  if (line.length > OWN_TS_MAX_LINE || !(line.includes('"timestamp"') || line.includes('"ts"'))) return null;
  const t = line.trimStart();
  if (t[0] !== "{") return null;
  let v;
  try { v = JSON.parse(t); } catch (e) { return null; }
  if (!v || typeof v !== "object") return null;
  for (const key of ["timestamp", "ts"]) {
    const x = v[key];
    let ms = NaN;
    if (typeof x === "string" && /^\d{4}-\d\d-\d\d/.test(x)) ms = Date.parse(x);
    else if (typeof x === "number" && x > 1e11 && x < 1e14) ms = x;
    else if (typeof x === "number" && x > 1e8 && x < 1e11) ms = x * 1000;
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return null;
}

// --- Paperclip stored run logs -----------------------------------------------------------
// JSONL rows {"ts", "stream": "stdout"|"stderr"|"system", "chunk", "seq"?}: chunks are
// pieces of output, not lines. Detected when the first non-blank line is such a row. The
// rules are docs/runlog.md's, shared with the CLI (src/runlog.rs):
//  1. rows are ordered by seq, stably; a row without a seq (or a line that is not a row)
//     sorts with the highest seq of the rows before it in the file, so it stays after
//     everything written before it and such rows keep their file order;
//  2. chunks are joined per stream and split on "\n"; a trailing "\r" is dropped; the
//     unterminated tails are flushed at the end, in the order they began;
//  3. each line gets the ts (and the file line number) of the row in which it BEGINS, and
//     lines come out in the order they are completed;
//  4. stdout lines go to the parser with that ts; stderr lines become `stderr` entries and
//     system lines `system` entries (blank ones are skipped);
//  5. a file line that is not such a row is kept whole as a `stdout` entry with the ts of
//     the row before it in the file (not parsed); blank file lines are skipped.
function runLogRow(line) {
  const t = line.trim();
  if (t[0] !== "{") return null;
  let v;
  try { v = JSON.parse(t); } catch (e) { return null; }
  if (!v || typeof v !== "object" || Array.isArray(v) || typeof v.chunk !== "string" || !STREAMS.includes(v.stream)) return null;
  if (typeof v.ts !== "string") return null;
  return v;
}

function isRunLog(lines) {
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "") return !!runLogRow(lines[i]);
  }
  return false;
}

/** The file's lines as a run log: {texts, streams (index into STREAMS, or RAW), tss, at (file line)}. */
function readRunLog(lines) {
  const rows = [];
  let lastTs = "";
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const v = runLogRow(lines[i]);
    if (v) {
      rows.push({ stream: STREAMS.indexOf(v.stream), chunk: v.chunk, ts: v.ts, seq: typeof v.seq === "number" && Number.isFinite(v.seq) ? v.seq : null, line: i, k: rows.length });
      lastTs = v.ts;
    } else rows.push({ stream: RAW, chunk: lines[i], ts: lastTs, seq: null, line: i, k: rows.length });
  }
  let high = -Infinity; // the highest seq so far: the key of a row without one
  for (const r of rows) {
    r.key = r.seq !== null ? r.seq : high;
    if (r.key > high) high = r.key;
  }
  const ordered = rows.slice().sort((a, b) => a.key - b.key || a.k - b.k);
  const out = { texts: [], streams: [], tss: [], at: [] };
  const pending = STREAMS.map(() => null); // {text, ts, line} of a begun, unfinished line
  const emit = (stream, text, ts, line) => {
    out.texts.push(text.endsWith("\r") ? text.slice(0, -1) : text);
    out.streams.push(stream);
    out.tss.push(ts);
    out.at.push(line);
  };
  for (let place = 0; place < ordered.length; place++) {
    const r = ordered[place];
    const c = r.chunk;
    if (r.stream === RAW) { emit(RAW, c, r.ts, r.line); continue; }
    let pos = 0;
    while (pos <= c.length) {
      const nl = c.indexOf("\n", pos);
      const part = nl < 0 ? c.slice(pos) : c.slice(pos, nl);
      const open = pending[r.stream];
      if (nl < 0) {
        if (part !== "") {
          if (open) open.text += part;
          else pending[r.stream] = { text: part, ts: r.ts, line: r.line, place };
        }
        break;
      }
      if (open) emit(r.stream, open.text + part, open.ts, open.line);
      else emit(r.stream, part, r.ts, r.line);
      pending[r.stream] = null;
      pos = nl + 1;
    }
  }
  const tails = pending.map((p, s) => p && { ...p, s }).filter(Boolean).sort((a, b) => a.place - b.place);
  for (const p of tails) emit(p.s, p.text, p.ts, p.line);
  return out;
}

function startSession(msg, text) {
  let lines = typeof text === "string" ? text.split("\n") : text;
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  let log = null;
  if (isRunLog(lines)) {
    log = readRunLog(lines);
    lines = log.texts;
  }
  let call = null;
  let end = null;
  if (!fallbackOnly && parser) {
    if (!msg.stateless && parser.stateful) {
      let p = null;
      try { p = parser.mod.createStdoutParser(); } catch (e) { p = null; }
      lastParser = p;
      if (p && typeof p.parseLine === "function") call = (l, ts) => p.parseLine(l, ts);
      if (call && typeof p.flush === "function") end = (ts) => p.flush(ts);
    }
    if (!call) call = (l, ts) => parser.mod.parseStdoutLine(l, ts);
  }
  const frac = Math.max(0, Math.min(1, Number(msg.startFraction) || 0));
  const start = msg.live ? Math.floor(lines.length * frac) : 0;
  session = {
    id: msg.session, lines, log, pos: start, start, call, end, live: !!msg.live, budget: 0, ms: 0,
    // A tail: lines before `base` are parsed and dropped; `idle` once all are parsed; lines
    // appended meanwhile wait in `queued` (then parsed with the wall clock).
    tail: !!msg.tail, base: 0, idle: false, queued: [],
    mode: (call ? (msg.stateless || !parser.stateful ? "stateless" : "stateful") : "fallback") + (log ? ", Paperclip run log" : ""),
  };
  // A run log is read again whole by the page when it grows (its rows are ordered over it).
  if (msg.tail && !log) {
    const s = session;
    s.appendText = (text) => append(s, text);
  }
  post({ type: "opened", session: session.id, total: lines.length, start, mode: session.mode, runLog: !!log, fileLines: log ? log.at.length && log.at[log.at.length - 1] + 1 : lines.length });
  if (session.live) flushLive(session);
  else step(session);
}

// --- the fast path: a file read and parsed a slice at a time --------------------------------
// The batch call: a stateful parser's parseBatch (one parser across the slices), or the
// module's (each line alone) when stateless is asked for or the file has no stateful parser.
function batchCall(stateless) {
  if (!stateless && parser.stateful) {
    let p = null;
    try { p = parser.mod.createStdoutParser(); } catch (e) { p = null; }
    lastParser = p;
    if (p && typeof p.parseBatch === "function") return { call: (text, ts, end) => p.parseBatch(text, ts, { recordTs: true, json: true, end }), mode: "stateful" };
  }
  return { call: (text, ts) => parser.mod.parseBatch(text, ts, { recordTs: true, json: true }), mode: "stateless" };
}

function failEntry(id, why, failed = false) {
  post({ type: "entries", session: id, entries: [{ kind: "stderr", ts: new Date(BASE_TS).toISOString(), text: why }], lines: [-1], real: [0], pos: 0, total: 0, done: true, ms: 0, failed });
}

/** Session `s` could not read its file: said once; a tail takes no more appends (the page
 * starts it again). */
function failRead(s, why) {
  if (session !== s) return;
  failEntry(s.id, why, !!s.tail);
  if (s.tail) session = null;
}

// --- a tail on the fast path: the lines the page appends, through the same batch call -------
function openTail(s, call) {
  s.batchCall = call;
  const queued = s.queued.splice(0);
  for (const text of queued) appendBatch(s, text);
}

function appendBatch(s, text) {
  if (session !== s || typeof text !== "string") return;
  const clock = new Date(wallClock()).toISOString();
  const t0 = performance.now();
  let json;
  try {
    json = s.batchCall(textEncoder.encode(text + "\n"), clock, false);
  } catch (e) {
    json = JSON.stringify({ count: text.split("\n").length, lines: [0], entries: [{ kind: "stderr", ts: clock, text: "[agentlines viewer] the parser threw on these lines: " + describe(e) }] });
  }
  s.ms += performance.now() - t0;
  post({ type: "entries", session: s.id, json: typeof json === "string" ? json : "{}", baseTs: BASE_TS, bytesDone: 1, bytes: 1, done: true, ms: s.ms });
}

async function streamSession(msg) {
  const blob = msg.blob;
  const s = { id: msg.session, ms: 0, tail: !!msg.tail, queued: [], batchCall: null };
  // A tail's appends wait until the file is read (openTail).
  if (s.tail) s.appendText = (text) => (s.batchCall ? appendBatch(s, text) : s.queued.push(text));
  session = s;
  let size;
  let first;
  try {
    size = blob.size;
    first = await blobBytes.call(blobSlice.call(blob, 0, FIRST_SLICE));
  } catch (e) {
    failRead(s, "could not read the file: " + describe(e));
    return;
  }
  if (session !== s) return;
  // The first line decides (a Paperclip run log is reordered by seq over the whole file: the
  // lines path): a first line longer than the first slice is read on, up to FIRST_LINE_MAX.
  let head = new Uint8Array(first);
  try {
    while (head.indexOf(10) < 0 && head.byteLength < Math.min(size, FIRST_LINE_MAX)) {
      const more = new Uint8Array(await blobBytes.call(blobSlice.call(blob, head.byteLength, Math.min(size, head.byteLength * 2))));
      if (session !== s) return;
      if (more.byteLength === 0) break;
      const both = new Uint8Array(head.byteLength + more.byteLength);
      both.set(head);
      both.set(more, head.byteLength);
      head = both;
    }
  } catch (e) {
    failRead(s, "could not read the file: " + describe(e));
    return;
  }
  first = head.buffer;
  const probe = new TextDecoder().decode(head, { stream: head.byteLength < size }).split("\n");
  if (head.byteLength < size) probe.pop();
  if (!probe.some((l) => l.trim() !== "") || isRunLog(probe)) {
    linesSession(msg, blob);
    return;
  }
  const { call, mode } = batchCall(!!msg.stateless);
  post({ type: "opened", session: s.id, total: 0, start: 0, mode: mode + ", batched", runLog: false, batched: true });
  let offset = first.byteLength;
  let bytes = new Uint8Array(first);
  // The next slice is read while this one is parsed.
  const read = (at) => blobBytes.call(blobSlice.call(blob, at, at + (s.slice || SLICE)));
  let next = offset < size ? read(offset) : null;
  const held = []; // the pieces of a line longer than a slice, until its newline arrives
  // A line past LINE_MAX_CHARS bytes keeps only its head (the parser shows a line over its
  // 16 MiB cap as its head and a notice): the rest is dropped as it is read, never held.
  let heldBytes = 0;
  let dropping = false;
  for (;;) {
    const last = offset >= size;
    if (dropping) {
      const nl0 = bytes.indexOf(10);
      bytes = bytes.subarray(nl0 >= 0 ? nl0 : bytes.length);
      if (nl0 >= 0 || last) dropping = false;
    }
    const nl = bytes.lastIndexOf(10);
    if (nl < 0 && !last) {
      const keep = bytes.subarray(0, Math.max(0, LINE_MAX_CHARS - heldBytes));
      if (keep.length) held.push(keep);
      heldBytes += keep.length;
      if (keep.length < bytes.length) dropping = true;
    } else {
      let whole = bytes;
      if (held.length) {
        held.push(bytes);
        whole = new Uint8Array(held.reduce((n, b) => n + b.length, 0));
        let at = 0;
        for (const b of held) { whole.set(b, at); at += b.length; }
        held.length = 0;
      }
      const cutAt = last ? whole.length : whole.lastIndexOf(10) + 1;
      heldBytes = whole.length - cutAt;
      if (cutAt < whole.length) held.push(whole.slice(cutAt));
      whole = whole.subarray(0, cutAt);
      // One call per piece of at most s.slice bytes (whole lines; a longer line is one piece):
      // a read made before the answers showed how long they run is cut down here.
      for (let at = 0; at < whole.length || (at === 0 && last);) {
        let end = whole.length;
        if (end - at > (s.slice || SLICE)) {
          const nlAt = whole.lastIndexOf(10, at + (s.slice || SLICE) - 1);
          end = nlAt >= at ? nlAt + 1 : whole.indexOf(10, at) + 1 || whole.length;
        }
        const piece = whole.subarray(at, end);
        at = end;
        // The file's last piece ends the stream: a stateful parser gives what it still holds
        // (not a tail's: its file goes on).
        const final = last && at >= whole.length && !s.tail;
        const t0 = performance.now();
        let json;
        try {
          // ts "": a line's own timestamp or none (the page gives those lines their synthetic
          // time, so the parser measures no durations from it).
          json = piece.length || final ? call(piece, "", final) : '{"count":0,"lines":[],"entries":[]}';
        } catch (e) {
          json = JSON.stringify({ count: 0, lines: [0], entries: [{ kind: "stderr", ts: "", text: "[agentlines viewer] the parser threw on these lines: " + describe(e) }] });
        }
        s.ms += performance.now() - t0;
        if (typeof json !== "string") json = "{}";
        // Short lines make long answers (2 MiB of 25-byte lines: 5 MB of JSON, 200 ms for the
        // page to read on a busy machine): the next piece is sized from this one's bytes per
        // answer byte, so that its answer stays near ANSWER bytes.
        if (piece.length >= 4096) s.slice = Math.max(4096, Math.min(SLICE, Math.floor((piece.length * ANSWER) / Math.max(1, json.length))));
        const more = at < whole.length;
        post({ type: "entries", session: s.id, json, baseTs: BASE_TS, bytesDone: offset - (whole.length - at) - (held.length ? held[0].length : 0), bytes: size, done: last && !more, ms: s.ms });
        if (!more) break;
      }
    }
    if (last) {
      if (s.tail && session === s) openTail(s, call);
      return;
    }
    if (!s.shown) {
      // The first screen: the page lays out its first rows while nothing else competes for
      // the CPU (on two cores, parsing on would make that layout several times slower).
      s.shown = true;
      await new Promise((r) => { s.painted = r; later(r, PAINT_WAIT_MS); });
      if (session !== s) return;
    }
    let buf;
    try {
      buf = await next;
      next = offset + buf.byteLength < size ? read(offset + buf.byteLength) : null;
    } catch (e) {
      failRead(s, "could not read the rest of the file: " + describe(e));
      return;
    }
    if (session !== s) return;
    offset += buf.byteLength;
    if (buf.byteLength === 0) offset = size;
    bytes = new Uint8Array(buf);
  }
}

// Parses item i; `clock` is the live wall-clock ts (null for file sessions).
function parseOne(s, i, clock, out) {
  const line = s.lines[i - s.base];
  const log = s.log;
  let ts;
  let real = true;
  let got;
  let at = i;
  if (log) {
    at = log.at[i];
    ts = log.tss[i] || clock || new Date(BASE_TS + at * 1000).toISOString();
    real = !!log.tss[i] || !!clock;
    if (log.streams[i] !== 0) {
      const kind = log.streams[i] === RAW ? "stdout" : STREAMS[log.streams[i]];
      got = line.trim() === "" ? [] : [{ kind, ts, text: line }];
    }
  } else {
    ts = ownTs(line) || clock;
    if (!ts) { ts = new Date(BASE_TS + i * 1000).toISOString(); real = false; }
  }
  if (!got) {
    if (s.call) {
      try {
        got = s.call(line, ts);
      } catch (e) {
        got = stdoutEntry(line, ts);
      }
    } else {
      got = stdoutEntry(line, ts);
    }
  }
  if (!Array.isArray(got)) got = [{ kind: "system", ts, text: "parser returned " + typeof got + " (not an array) for this line" }];
  const n = Math.min(got.length, MAX_ENTRIES_PER_LINE);
  for (let k = 0; k < n; k++) {
    const e = got[k];
    out.entries.push(e && typeof e === "object" ? e : { kind: "system", ts, text: "parser returned a non-object entry: " + String(e) });
    out.at.push(at);
    out.real.push(real ? 1 : 0);
  }
  if (got.length > n) {
    out.entries.push({ kind: "system", ts, text: `[agentlines viewer] this line gave ${got.length} entries; the viewer keeps the first ${n}` });
    out.at.push(at);
    out.real.push(real ? 1 : 0);
  }
}

// What a run's results spent and cost, stated or estimated (the npm entry's summarizeUsage;
// null from a file without it, the host's ui-parser files). `lastRun`: the entries are the
// latest session's, so its parser's runtime applies.
function usageOf(entries, lastRun) {
  try {
    if (!parser || typeof parser.mod.summarizeUsage !== "function" || !Array.isArray(entries)) return null;
    const runtime = runtimeOf(lastRun);
    return parser.mod.summarizeUsage(entries, runtime ? { runtime } : {});
  } catch (e) {
    return null;
  }
}

// The runtime the latest session's parser read its log as ("" when unknown or stateless).
function runtimeOf(lastRun) {
  try {
    const r = lastRun && lastParser ? lastParser.runtime : undefined;
    return typeof r === "string" ? r : "";
  } catch (e) {
    return "";
  }
}

function send(s, out, done) {
  const { entries, at, real } = out;
  let k = 0;
  do {
    const end = Math.min(entries.length, k + MAX_ENTRIES_PER_MESSAGE);
    const part = entries.slice(k, end);
    const last = end >= entries.length;
    const msg = { type: "entries", session: s.id, entries: part, lines: at.slice(k, end), real: real.slice(k, end), pos: s.pos, total: s.base + s.lines.length, done: done && last, ms: s.ms };
    try {
      post(msg);
    } catch (e) {
      // Not structured-cloneable (a function or symbol in an entry): send plain JSON data.
      msg.entries = JSON.parse(JSON.stringify(part));
      post(msg);
    }
    k = end;
  } while (k < entries.length);
}

const batch = () => ({ entries: [], at: [], real: [] });

// The end of the file: a stateful parser gives what it still holds (a Kiro call whose
// completion never came), as entries of the last line.
function finish(s, out) {
  const end = s.end;
  s.end = null;
  if (!end || !s.lines.length) return;
  const i = s.lines.length - 1;
  const at = s.log ? s.log.at[i] : i;
  let got;
  try { got = end(new Date(BASE_TS + at * 1000).toISOString()); } catch (e) { got = []; }
  if (!Array.isArray(got)) return;
  for (const e of got.slice(0, MAX_ENTRIES_PER_LINE)) {
    if (!e || typeof e !== "object") continue;
    out.entries.push(e);
    out.at.push(at);
    out.real.push(0);
  }
}

// File sessions: as many lines as fit in a slice, then yield so newer messages get in.
// `clock`: the ts of lines without their own (a tail's appended lines), else none.
function step(s, clock = null) {
  if (session !== s) return;
  const t0 = performance.now();
  const out = batch();
  const total = s.base + s.lines.length;
  while (s.pos < total && performance.now() - t0 < SLICE_MS && out.entries.length < 50000) {
    const end = Math.min(total, s.pos + 256);
    for (; s.pos < end; s.pos++) parseOne(s, s.pos, clock, out);
  }
  s.ms += performance.now() - t0;
  const done = s.pos >= total;
  // A tail's parser stays open for its file's next lines (a run log's does not: its file is
  // read again whole when it grows).
  if (done && (!s.tail || s.log)) finish(s, out);
  send(s, out, done);
  if (done) {
    s.base = total;
    s.lines = [];
    s.idle = true;
    // Lines a tail gained while these were parsed.
    if (s.tail && s.queued.length) append(s, s.queued.splice(0).join("\n"));
  } else later(() => step(s, clock), 0);
}

// A tail's new complete lines ("\n"-separated), parsed now if the session is idle (else
// when it gets to them).
function append(s, text) {
  if (typeof text !== "string" || session !== s) return;
  if (!s.idle) {
    s.queued.push(text);
    return;
  }
  for (const l of text.split("\n")) s.lines.push(l.length > LINE_MAX_CHARS ? l.slice(0, LINE_MAX_CHARS) : l);
  s.idle = false;
  step(s, new Date(wallClock()).toISOString());
}

// Live sessions: the page grants `count` lines at a time (its chosen speed).
function flushLive(s) {
  const t0 = performance.now();
  const out = batch();
  const clock = new Date(wallClock()).toISOString();
  while (s.budget > 0 && s.pos < s.base + s.lines.length) {
    parseOne(s, s.pos, clock, out);
    s.pos++;
    s.budget--;
  }
  s.ms += performance.now() - t0;
  const done = s.pos >= s.base + s.lines.length;
  if (done) finish(s, out);
  send(s, out, done);
}

onmessage = (ev) => {
  const msg = ev.data;
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "load") load(msg);
  else if (msg.type === "parse") openSession(msg);
  else if (msg.type === "feed" && session && session.id === msg.session && session.live) {
    session.budget += Math.max(0, Math.floor(Number(msg.count) || 0));
    flushLive(session);
  } else if (msg.type === "append" && session && session.id === msg.session && typeof session.appendText === "function") {
    session.appendText(msg.text);
  } else if (msg.type === "painted" && session && session.id === msg.session && session.painted) {
    session.painted();
  } else if (msg.type === "stop") session = null;
  else if (msg.type === "usage") post({ type: "usage", usageId: msg.usageId, summary: usageOf(msg.entries, msg.lastRun), runtime: runtimeOf(msg.lastRun) });
};
