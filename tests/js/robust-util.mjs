// Shared by the robustness tests (hostile, million, trap): loading a built ui-parser file
// the host's way with test-only accessors appended, a seeded PRNG, corpus lines, and the
// checks every answer must pass.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { root, loadHostStyle, linesOf } from "./host.mjs";

/** Loads a ui-parser file host-style, plus test-only accessors (nothing is added to the
 * package): __memBytes() = the wasm memory size (0 before the first call, and after the
 * glue has dropped a grown instance to give its memory back), __peakBytes() = the largest
 * memory size an answer was read from, __gen() = 1 + how many times an instance was dropped
 * after a failure (a trap makes the next call create a new one), __instances() = how many
 * instances were created (failures and memory given back), __live() = parsers with state
 * in the current instance. */
export function loadWithProbe(path) {
  return loadHostStyle(probedSource(path));
}

/** The source of a ui-parser file with the accessors of `loadWithProbe` added. */
export function probedSource(path) {
  let src = readFileSync(path, "utf8");
  const probe = (from, to) => {
    if (!src.includes(from)) throw new Error(`${path}: the glue has no \`${from}\` to probe`);
    src = src.replace(from, to);
  };
  probe("function alDropInstance() {", "var alDrops = 0, alPeak = 0;\nfunction alDropInstance() { alDrops++;");
  probe("function alTrim(w) {", "function alTrim(w) { alPeak = Math.max(alPeak, w.x.memory.buffer.byteLength);");
  src += "\nmodule.exports.__memBytes = function () { return alWasm === null ? 0 : alWasm.x.memory.buffer.byteLength; };" +
    "\nmodule.exports.__peakBytes = function () { return alPeak; };" +
    "\nmodule.exports.__gen = function () { return alDrops + 1; };" +
    "\nmodule.exports.__instances = function () { return alGen; };" +
    "\nmodule.exports.__live = function () { return alLive; };\n";
  return src;
}

/** xorshift32: deterministic runs. */
export function rng(seed = 0x9e3779b9) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
  next.below = (n) => (n <= 0 ? 0 : next() % n);
  next.pick = (arr) => arr[next() % arr.length];
  return next;
}

function inputFiles(dir, out) {
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) inputFiles(p, out);
    else if (/\.(jsonl|ndjson|json|txt|log)$/.test(f) && !f.includes(".expected.")) out.push(p);
  }
}

/** Distinct non-blank lines of tests/fixtures (and the shared corpus when present), each at
 * most maxLen characters. */
export function corpusLines(maxLen = 16384) {
  const files = [];
  inputFiles(join(root, "tests", "fixtures"), files);
  inputFiles(process.env.AGENTLINES_CORPUS ?? "/work/shared/corpus", files);
  const seen = new Set();
  for (const f of files) {
    for (const l of linesOf(readFileSync(f, "utf8"))) {
      if (l.trim() !== "" && l.length <= maxLen) seen.add(l);
    }
  }
  return [...seen];
}

/** The input line shown raw: a stdout/stderr text that JSON.parse reads as an object which
 * is the line's own JSON (or which appeared out of a line that is not JSON itself). A
 * sub-object a module shows as compact JSON (an error object, a tool input) is not counted. */
export function rawJsonEvent(entry, line) {
  if (entry.kind !== "stdout" && entry.kind !== "stderr") return false;
  const t = entry.text.trim();
  if (!t.startsWith("{")) return false;
  let v;
  try {
    v = JSON.parse(t);
  } catch {
    return false;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  let whole;
  try {
    whole = JSON.parse(line);
  } catch {
    return "type" in v; // an event that surfaced out of a line that is not JSON itself
  }
  return JSON.stringify(whole) === JSON.stringify(v);
}

