// Shared by the frame and turn-signal parity tests: the conformance encoding
// (tests/fixtures/conformance/README.md: {"undefined":true}, {"number":"NaN"}, {"function":true})
// to and from real JS values, the comparison rule (an expected undefined property may be
// missing), and one runner over a case list through the built dist/index.cjs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const lib = require(new URL("../../dist/index.cjs", import.meta.url).pathname);

/** The cases of tests/fixtures/conformance/<name>/cases.jsonl. */
export function loadCases(name) {
  return readFileSync(new URL(`../fixtures/conformance/${name}/cases.jsonl`, import.meta.url), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

const isTag = (v, key) => v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && key in v;
export function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== "object") return v;
  if (isTag(v, "undefined") && v.undefined === true) return undefined;
  if (isTag(v, "function") && v.function === true) return function () {};
  if (isTag(v, "number")) return Number(v.number);
  const o = {};
  for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: decode(v[k]), enumerable: true, writable: true, configurable: true });
  return o;
}
export function encode(v) {
  if (v === undefined) return { undefined: true };
  if (typeof v === "number" && !Number.isFinite(v)) return { number: String(v) };
  if (typeof v === "function") return { function: true };
  if (Array.isArray(v)) return v.map(encode);
  if (v === null || typeof v !== "object") return v;
  const o = {};
  for (const k of Object.keys(v)) o[k] = encode(v[k]);
  return o;
}
const isUndef = (v) => isTag(v, "undefined") && v.undefined === true;
// Why `actual` (encoded) differs from `expected`; an expected undefined property may be missing.
export function mismatch(a, e, path = "$") {
  if (Array.isArray(e)) {
    if (!Array.isArray(a) || a.length !== e.length) return `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(e).slice(0, 200)}`;
    for (let i = 0; i < e.length; i++) { const m = mismatch(a[i], e[i], `${path}[${i}]`); if (m) return m; }
    return null;
  }
  if (e && typeof e === "object" && !isUndef(e) && !isTag(e, "number") && !isTag(e, "function")) {
    if (!a || typeof a !== "object" || Array.isArray(a)) return `${path}: ${JSON.stringify(a)} is not an object`;
    const ak = Object.keys(a).filter((k) => !isUndef(a[k]) || k in e);
    const ek = Object.keys(e).filter((k) => !isUndef(e[k]) || k in a);
    if (ak.join("\u0000") !== ek.join("\u0000")) return `${path}: keys ${ak} != ${ek}`;
    for (const k of ek) { const m = mismatch(k in a ? a[k] : { undefined: true }, e[k], `${path}.${k}`); if (m) return m; }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(e) ? null : `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(e)?.slice(0, 200)}`;
}

export function run(c) {
  if (c.calls) {
    if (c.fn === "appendTranscript") return c.calls.reduce((t, batch) => lib.appendTranscript(t, decode(batch)), []);
    if (c.fn === "createTurnSignalEmitter") {
      const events = [];
      const step = lib.createTurnSignalEmitter((ev) => events.push(ev));
      for (const text of c.calls) step(decode(text));
      return events;
    }
    throw new Error(`no runner for ${c.fn}`);
  }
  const member = lib[c.fn];
  return typeof member === "function" && !/^[A-Z_]+$/.test(c.fn) ? member(...decode(c.args)) : member;
}

/** Runs every case, asserting all pass (a per-function summary on failure) and the count. */
export function checkAll(cases, count) {
  const failures = [];
  const perFn = new Map();
  for (const c of cases) {
    let problem = null;
    try {
      const got = encode(run(c));
      problem = "throws" in c ? `returned, expected a throw` : mismatch(got, c.expected);
    } catch (err) {
      problem = "throws" in c && err.message === c.throws ? null : `threw ${err.message}`;
    }
    const row = perFn.get(c.fn) ?? { pass: 0, fail: 0 };
    problem ? row.fail++ : row.pass++;
    perFn.set(c.fn, row);
    if (problem) failures.push(`${c.fn} ${c.note ?? ""}: ${problem}`);
  }
  const summary = [...perFn].map(([f, r]) => `${f}: ${r.pass} passed, ${r.fail} failed`).join("\n");
  assert.equal(cases.length, count);
  assert.deepEqual(failures.slice(0, 20), [], summary);
}
