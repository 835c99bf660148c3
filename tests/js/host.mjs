// The Paperclip host's loading rules, re-created for tests and checks (see HOST.md facts in
// the README): the source scanner, and evaluation as the body of
// new Function("exports","module","self","globalThis", '"use strict";\n{\n' + src + '\n}')
// with self/globalThis undefined and the dangerous globals removed.
import vm from "node:vm";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Source text with "…"/'…' strings and comments blanked out (template literals and regex
 * literals are NOT skipped, exactly like the host's scanner). */
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

/** What the host's scanner would refuse in this source, as [{rule, line}]. */
export function scanForHost(src) {
  const code = codeOnly(src);
  const rules = [
    ["dynamic import", /(^|[^\w$])import\s*\(/g],
    ["eval(", /(^|[^\w$])eval\s*\(/g],
    ["Function(", /(^|[^\w$])Function\s*\(/g],
    [".constructor", /\.\s*constructor(?![\w$])/g],
    ["import/export statement", /^\s*(import|export)\s/gm],
    ["import.meta", /import\s*\.\s*meta/g],
    ["require(", /(^|[^\w$.])require\s*\(/g],
  ];
  const found = [];
  for (const [rule, re] of rules) {
    for (const m of code.matchAll(re)) {
      found.push({ rule, line: code.slice(0, m.index).split("\n").length });
    }
  }
  return found;
}

const DISABLED = [
  "eval", "Function", "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "RTCPeerConnection",
  "RTCDataChannel", "Request", "Response", "Headers", "Cache", "CacheStorage", "caches",
  "importScripts", "Worker", "SharedWorker", "Blob", "BroadcastChannel", "indexedDB", "IDBFactory",
  "require", "process", "Buffer", "setImmediate",
];

/** Evaluates a ui-parser source the host's way in a fresh context; returns its exports. */
export function loadHostStyle(src) {
  const sandbox = {
    WebAssembly, TextEncoder, TextDecoder, Uint8Array, console, structuredClone,
  };
  const ctx = vm.createContext(sandbox);
  // Remove what the host removes (the function constructors too).
  vm.runInContext(
    DISABLED.map((g) => `try { globalThis[${JSON.stringify(g)}] = undefined; } catch (e) {}`).join("\n") +
      `
      for (const f of [function () {}, async function () {}, function* () {}, async function* () {}]) {
        try { Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined }); } catch (e) {}
      }`,
    ctx,
  );
  const wrapper = vm.runInContext(
    '(function (exports, module, self, globalThis) {"use strict";\n{\n' + src + "\n}\n})",
    ctx,
  );
  const exports = {};
  const module = { exports };
  wrapper(exports, module, undefined, undefined);
  const m = module.exports;
  return m && typeof m === "object" && Object.keys(m).length > 0 ? m : exports;
}

export function loadHostFile(rel) {
  return loadHostStyle(readFileSync(join(root, rel), "utf8"));
}

/** The ts of fixture line i, as in tests/golden.rs. */
export function fixtureTs(i) {
  const p = (n) => String(n).padStart(2, "0");
  return `2026-01-01T${p(Math.floor(i / 3600) % 24)}:${p(Math.floor(i / 60) % 60)}:${p(i % 60)}.000Z`;
}

/** Lines as the host sees them (a final empty piece dropped). */
export function linesOf(text) {
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every golden fixture: [{runtime, input, expected}] (paths absolute). */
export function fixtures() {
  const dir = join(root, "tests", "fixtures");
  const out = [];
  for (const runtime of readdirSync(dir).sort()) {
    const d = join(dir, runtime);
    if (!statSync(d).isDirectory() || runtime === "conformance") continue;
    for (const f of readdirSync(d).sort()) {
      if (f.includes(".expected.") || !/\.(jsonl|ndjson|txt|log)$/.test(f)) continue;
      const stem = f.slice(0, f.lastIndexOf("."));
      out.push({ runtime, input: join(d, f), expected: join(d, `${stem}.expected.jsonl`) });
    }
  }
  return out;
}

/** Replays every fixture through a loaded parser module; returns a list of mismatch strings. */
export function replayGoldens(mod, { stateful = true, only = null } = {}) {
  const problems = [];
  for (const fx of fixtures()) {
    if (only && fx.runtime !== only) continue;
    const lines = linesOf(readFileSync(fx.input, "utf8"));
    const expected = linesOf(readFileSync(fx.expected, "utf8")).map((l) => JSON.parse(l));
    const parser = stateful ? mod.createStdoutParser() : null;
    for (let i = 0; i < lines.length; i++) {
      const ts = fixtureTs(i);
      const got = stateful ? parser.parseLine(lines[i], ts) : mod.parseStdoutLine(lines[i], ts);
      const cloned = structuredClone(got);
      if (stateful && JSON.stringify(cloned) !== JSON.stringify(expected[i])) {
        problems.push(`${fx.input} line ${i + 1}:\n  got      ${JSON.stringify(got)}\n  expected ${JSON.stringify(expected[i])}`);
        break;
      }
      for (const e of got) {
        if (e.kind === "stdout" && /^\s*\{/.test(e.text)) {
          try { JSON.parse(e.text); problems.push(`${fx.input} line ${i + 1}: raw JSON as stdout`); } catch {}
        }
      }
    }
  }
  return problems;
}
