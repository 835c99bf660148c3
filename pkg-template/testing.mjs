// agentlines/testing: load a ui-parser file the way the Paperclip host does, so an adapter
// author can test the parser as the host will run it (docs: README "Testing your parser").
//
// The host (a) fetches the file named by the adapter's exports["./ui-parser"] as text, (b)
// refuses it if its source scanner finds `import(`, `eval(`, `Function(`, `.constructor`,
// import/export statements, `import.meta` or `require(` outside "…"/'…' strings and comments
// (template and regex literals are NOT skipped), (c) removes network, storage, worker and
// eval-like globals and the function constructors, and (d) evaluates the text as the body of
// new Function("exports","module","self","globalThis", '"use strict";\n{\n' + src + '\n}')
// with self and globalThis undefined, taking module.exports (or exports). Every entry the
// parser returns crosses a worker boundary (structured clone).
//
// Node: loadUiParser(source) / loadUiParserFile(file) / loadAdapterUiParser(dir) do (b)-(d)
// in a fresh vm context. Browser: loadUiParserInPage(page, source) does (b) in Node and
// (c)-(d) in a classic Web Worker inside a real page you drive with Playwright (pass a
// playwright-core Page; this module imports nothing from Playwright). Both throw a
// HostLoadError (with .stage) where the host would refuse the file.
// Hand-written on purpose: it must match the host's own rules, not a general JS parser's.
import vm from "node:vm";
import { readFileSync, existsSync } from "node:fs";
import { join, resolve, relative, sep } from "node:path";

/** Globals the host's worker removes before evaluating a parser. */
export const HOST_DISABLED_GLOBALS = [
  "eval", "Function", "fetch", "XMLHttpRequest", "WebSocket", "WebTransport", "EventSource",
  "RTCPeerConnection", "RTCDataChannel", "Request", "Response", "Headers", "Cache", "CacheStorage",
  "caches", "importScripts", "Worker", "SharedWorker", "Blob", "FileReader", "FileReaderSync",
  "BroadcastChannel", "indexedDB", "IDBFactory", "storageFoundation", "require", "process",
  "Buffer", "setImmediate",
];

const RULES = [
  ["dynamic import", /(^|[^\w$])import\s*\(/g],
  ["eval(", /(^|[^\w$])eval\s*\(/g],
  ["Function(", /(^|[^\w$])Function\s*\(/g],
  [".constructor", /\.\s*constructor(?![\w$])/g],
  ["import/export statement", /^\s*(import|export)\s/gm],
  ["import.meta", /import\s*\.\s*meta/g],
  ["require(", /(^|[^\w$.])require\s*\(/g],
];

/** A file the host would not load; `stage` is "package", "scanner", "evaluate" or "exports". */
export class HostLoadError extends Error {
  constructor(stage, message) {
    super(message);
    this.name = "HostLoadError";
    this.stage = stage;
  }
}

/** Source text with "…"/'…' strings and comments blanked out, line breaks kept. */
export function codeOnly(src) {
  let out = "";
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === "/" && d === "/") {
      while (i < n && src[i] !== "\n") { out += " "; i++; }
    } else if (c === "/" && d === "*") {
      out += "  "; i += 2;
      while (i < n && !(src[i] === "*" && src[i + 1] === "/")) { out += src[i] === "\n" ? "\n" : " "; i++; }
      out += "  "; i += 2;
    } else if (c === '"' || c === "'") {
      out += " "; i++;
      while (i < n && src[i] !== c && src[i] !== "\n") {
        if (src[i] === "\\") { out += " "; i++; }
        out += " "; i++;
      }
      out += " "; i++;
    } else {
      out += c; i++;
    }
  }
  return out;
}

/** What the host's scanner would refuse in this source, as [{ rule, line }] (empty: clean). */
export function scanForHost(src) {
  const code = codeOnly(src);
  const found = [];
  for (const [rule, re] of RULES) {
    for (const m of code.matchAll(re)) found.push({ rule, line: code.slice(0, m.index).split("\n").length });
  }
  return found;
}

function checkSource(source) {
  if (typeof source !== "string") throw new HostLoadError("scanner", "the parser source must be a string");
  const found = scanForHost(source);
  if (found.length) {
    throw new HostLoadError("scanner", "the host's source scanner refuses it: " +
      found.slice(0, 10).map((f) => `${f.rule} at line ${f.line}`).join("; "));
  }
}

function pickExports(exports, module) {
  const m = module.exports;
  const mod = m && typeof m === "object" && Object.keys(m).length > 0 ? m : exports;
  if (!mod || typeof mod.parseStdoutLine !== "function") {
    throw new HostLoadError("exports", "the parser exports no parseStdoutLine function");
  }
  return mod;
}

/**
 * Evaluates a ui-parser source the host's way in a fresh Node vm context and returns its
 * exports ({ parseStdoutLine, createStdoutParser? }). `{ scan: false }` skips the scanner.
 */
export function loadUiParser(source, { scan = true } = {}) {
  if (scan) checkSource(source);
  const ctx = vm.createContext({ WebAssembly, TextEncoder, TextDecoder, Uint8Array, console, structuredClone });
  vm.runInContext(
    HOST_DISABLED_GLOBALS.map((g) => `try { globalThis[${JSON.stringify(g)}] = undefined; } catch (e) {}`).join("\n") +
      `
      for (const f of [function () {}, async function () {}, function* () {}, async function* () {}]) {
        try { Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined }); } catch (e) {}
      }`,
    ctx,
  );
  const exports = {};
  const module = { exports };
  try {
    const wrapper = vm.runInContext(
      '(function (exports, module, self, globalThis) {"use strict";\n{\n' + source + "\n}\n})", ctx);
    wrapper(exports, module, undefined, undefined);
  } catch (e) {
    throw new HostLoadError("evaluate", "evaluating the parser threw: " + (e && e.message));
  }
  return pickExports(exports, module);
}

/** loadUiParser over a file's text. */
export function loadUiParserFile(file, options) {
  return loadUiParser(readFileSync(file, "utf8"), options);
}

/**
 * Loads the parser an adapter package declares, as the host finds it: package.json must have
 * "paperclip": { "adapterUiParser": "1.0.0" } and a string exports["./ui-parser"] naming a
 * file inside the package. Returns { file, module }.
 */
export function loadAdapterUiParser(adapterDir) {
  const dir = resolve(adapterDir);
  const pkgFile = join(dir, "package.json");
  if (!existsSync(pkgFile)) throw new HostLoadError("package", `no package.json in ${dir}`);
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
  if (pkg?.paperclip?.adapterUiParser !== "1.0.0") {
    throw new HostLoadError("package", `${pkgFile}: "paperclip": { "adapterUiParser": "1.0.0" } is missing`);
  }
  const target = pkg?.exports?.["./ui-parser"];
  if (typeof target !== "string") throw new HostLoadError("package", `${pkgFile}: exports["./ui-parser"] must name a file`);
  const file = resolve(dir, target);
  const rel = relative(dir, file);
  if (!target.startsWith("./") || rel.startsWith("..") || rel.split(sep).includes("node_modules")) {
    throw new HostLoadError("package", `exports["./ui-parser"] = ${JSON.stringify(target)} must be a file of the package itself, not under node_modules`);
  }
  if (!existsSync(file)) throw new HostLoadError("package", `exports["./ui-parser"] names ${target}, which does not exist`);
  return { file, module: loadUiParserFile(file) };
}

function tsOf(ts, i) {
  if (Array.isArray(ts)) return String(ts[i] ?? "");
  return typeof ts === "string" ? ts : "2026-01-01T00:00:00.000Z";
}

/**
 * Feeds lines to a loaded parser as the host does (a fresh createStdoutParser() session when
 * the file has one and `stateful` is not false, else parseStdoutLine per line) and returns
 * every entry, structured-cloned as the worker's reply would be. `ts`: one string for all
 * lines or one per line.
 */
export function parseWithHost(mod, lines, { ts, stateful = true } = {}) {
  const session = stateful && typeof mod.createStdoutParser === "function" ? mod.createStdoutParser() : null;
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const got = session ? session.parseLine(lines[i], tsOf(ts, i)) : mod.parseStdoutLine(lines[i], tsOf(ts, i));
    out.push(...structuredClone(got));
  }
  return out;
}

// The page's worker: lock down, evaluate, answer parse requests. Runs as a classic worker
// from a blob: URL, so the page must allow blob: workers (about:blank does).
function hostWorker(disabled) {
  "use strict";
  var post = postMessage.bind(self);
  var makeFunction = Function;
  var mod = null;
  function describe(e) { return e && e.message ? e.message : String(e); }
  self.onmessage = function (ev) {
    var msg = ev.data;
    if (msg.type === "load") {
      for (var i = 0; i < disabled.length; i++) { try { self[disabled[i]] = undefined; } catch (e) { /* read-only */ } }
      [function () {}, async function () {}, function* () {}, async function* () {}].forEach(function (f) {
        try { Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined }); } catch (e) { /* ignore */ }
      });
      try {
        var exports = {}, module = { exports: exports };
        makeFunction("exports", "module", "self", "globalThis", '"use strict";\n{\n' + msg.source + "\n}")(exports, module, undefined, undefined);
        var m = module.exports;
        mod = m && typeof m === "object" && Object.keys(m).length > 0 ? m : exports;
      } catch (e) {
        post({ type: "failed", stage: "evaluate", reason: "evaluating the parser threw: " + describe(e) });
        return;
      }
      if (!mod || typeof mod.parseStdoutLine !== "function") {
        post({ type: "failed", stage: "exports", reason: "the parser exports no parseStdoutLine function" });
        return;
      }
      post({ type: "ready", stateful: typeof mod.createStdoutParser === "function" });
    } else if (msg.type === "parse") {
      try {
        var session = msg.stateful && typeof mod.createStdoutParser === "function" ? mod.createStdoutParser() : null;
        var out = [];
        for (var j = 0; j < msg.lines.length; j++) {
          var ts = Array.isArray(msg.ts) ? String(msg.ts[j]) : msg.ts;
          var got = session ? session.parseLine(msg.lines[j], ts) : mod.parseStdoutLine(msg.lines[j], ts);
          for (var k = 0; k < got.length; k++) out.push(got[k]);
        }
        post({ type: "entries", id: msg.id, entries: out });
      } catch (e) {
        post({ type: "error", id: msg.id, reason: describe(e) });
      }
    }
  };
}

let pageHandles = 0;

/**
 * Loads a ui-parser source into a classic Web Worker of a Playwright page, the host's way.
 * Returns { stateful, parse(lines, { ts, stateful }) → Promise<entries>, close() }.
 * Use a page without a CSP that forbids blob: workers (e.g. after page.goto("about:blank")).
 */
export async function loadUiParserInPage(page, source) {
  checkSource(source);
  const id = `al${++pageHandles}`;
  const workerSrc = `(${hostWorker.toString()})(${JSON.stringify(HOST_DISABLED_GLOBALS)});`;
  const ready = await page.evaluate(async ({ id, workerSrc, source }) => {
    const url = URL.createObjectURL(new Blob([workerSrc], { type: "text/javascript" }));
    const worker = new Worker(url);
    URL.revokeObjectURL(url);
    const reg = (window.__agentlinesTesting ??= {});
    let next = 0;
    const waiting = new Map();
    const first = new Promise((res) => { waiting.set("load", res); });
    worker.onmessage = (ev) => {
      const key = ev.data.type === "ready" || ev.data.type === "failed" ? "load" : ev.data.id;
      const res = waiting.get(key);
      waiting.delete(key);
      if (res) res(ev.data);
    };
    worker.onerror = (ev) => { const res = waiting.get("load"); if (res) res({ type: "failed", stage: "evaluate", reason: ev.message }); };
    reg[id] = {
      worker,
      parse: (lines, ts, stateful) => new Promise((res) => {
        const n = ++next;
        waiting.set(n, res);
        worker.postMessage({ type: "parse", id: n, lines, ts, stateful });
      }),
    };
    worker.postMessage({ type: "load", source });
    return first;
  }, { id, workerSrc, source });
  if (ready.type !== "ready") throw new HostLoadError(ready.stage, ready.reason);
  return {
    stateful: ready.stateful,
    async parse(lines, { ts = "2026-01-01T00:00:00.000Z", stateful = true } = {}) {
      const r = await page.evaluate(({ id, lines, ts, stateful }) => window.__agentlinesTesting[id].parse(lines, ts, stateful),
        { id, lines, ts, stateful });
      if (r.type !== "entries") throw new Error("the parser threw in the page's worker: " + r.reason);
      return r.entries;
    },
    async close() {
      await page.evaluate((id) => { window.__agentlinesTesting[id].worker.terminate(); delete window.__agentlinesTesting[id]; }, id);
    },
  };
}
