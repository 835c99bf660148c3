// Shared by the frame and turn-signal parity tests: one runner over a case list through the
// built dist/index.cjs (the encoding and comparison live in conformance-encoding.mjs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { decode, encode, mismatch } from "./conformance-encoding.mjs";

const require = createRequire(import.meta.url);
export const lib = require(new URL("../../dist/index.cjs", import.meta.url).pathname);

/** The cases of tests/fixtures/conformance/<name>/cases.jsonl. */
export function loadCases(name) {
  return readFileSync(new URL(`../fixtures/conformance/${name}/cases.jsonl`, import.meta.url), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
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
