// ccmsg transcript-items conformance through the BUILT package: every recorded case
// (tests/fixtures/conformance/ccmsg/cases.jsonl) called on dist/index.cjs's exports —
// classify, the Classification class (chunk by chunk; items of an earlier chunk are
// updated in place when a later chunk links to them), selection/select, dumpConfig.
// Arguments are decoded into real JS values, results compared as JSON. Build first:
// `make dist`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { decode } from "./conformance-encoding.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const lib = createRequire(import.meta.url)(join(root, "dist", "index.cjs"));
const cases = join(root, "tests", "fixtures", "conformance", "ccmsg", "cases.jsonl");

// The item types the upstream runner's select() probe list held, in its order.
const PROBE_ITEMS = [
  "message:user:in", "message:user:out", "thinking", "tool:Bash", "tool:Read", "hook:PreToolUse",
  "message:sub:out", "tool:Agent", "notice:slash", "system:attachment:date", "system:unknown",
  "noticeboard", "tool:Bash:extra",
];


const asJson = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function run(c) {
  const args = decode(c.args ?? []);
  switch (c.fn) {
    case "classify":
      return lib.classify(args[0]);
    case "Classification.readChunk": {
      const reading = new lib.Classification();
      const outs = c.calls.map(([chunk, start]) => reading.readChunk(chunk, start));
      return outs; // read after every call: earlier chunks' items carry their links
    }
    case "selection": {
      const s = lib.selection(args[0], args[1]);
      const keeps = {};
      for (const type of Object.keys(c.expected.keeps)) keeps[type] = s.keeps(type);
      const { items, entries } = lib.select(PROBE_ITEMS.map((type) => ({ type })), s);
      return { elements: s.elements, ids: s.ids, keeps, kept: items.map((i) => i.type), entries };
    }
    case "dumpConfig":
      // The "none" case was recorded as [null] for an undefined argument (see PROVENANCE.md).
      return c.note === "none" ? lib.dumpConfig() : lib.dumpConfig(args[0]);
    default:
      throw new Error(`no runner for ${c.fn}`);
  }
}

test("ccmsg: every recorded case through dist/index.cjs", () => {
  const perFn = new Map();
  const failures = [];
  const lines = readFileSync(cases, "utf8").split("\n").filter(Boolean);
  for (const [i, line] of lines.entries()) {
    const c = JSON.parse(line);
    let got;
    try {
      got = { expected: asJson(run(c)) };
    } catch (e) {
      got = { throws: e.message };
    }
    let ok = true;
    try {
      if ("throws" in c) assert.deepEqual(got, { throws: c.throws });
      else assert.deepEqual(got, { expected: asJson(decode(c.expected)) });
    } catch {
      ok = false;
    }
    const row = perFn.get(c.fn) ?? { pass: 0, fail: 0 };
    row[ok ? "pass" : "fail"] += 1;
    perFn.set(c.fn, row);
    if (!ok && failures.length < 10) {
      failures.push(`${c.fn} [line ${i + 1}: ${c.note ?? ""}]\n  want ${JSON.stringify(c.expected ?? c.throws).slice(0, 400)}\n  got  ${JSON.stringify(got).slice(0, 400)}`);
    }
  }
  const report = [...perFn].sort().map(([fn, r]) => `${fn.padEnd(28)} ${r.pass} pass, ${r.fail} fail`).join("\n");
  assert.equal(lines.length, 104);
  assert.ok([...perFn.values()].every((r) => r.fail === 0), `${report}\n${failures.join("\n")}`);
});

test("a session dump from the package", () => {
  const text = readFileSync(join(root, "tests", "fixtures", "conformance", "molecule", "fixtures", "session-v2.1.281.jsonl"), "utf8");
  const dump = lib.dumpSession(text, { types: ["message", "tool", "ids"], written_at: 7 });
  assert.equal(dump.sid, "188d65c7-bc50-4583-93e3-93d74d6d5816");
  assert.equal(dump.written_at, 7);
  assert.deepEqual(dump.types, ["message", "tool", "ids"]);
  assert.ok(dump.items.length > 0 && dump.items.every((i) => /^(message|tool):/.test(i.type)));
  assert.ok(Array.isArray(dump.ids));
  assert.deepEqual(lib.dumpIds(dump.items), dump.ids);
  assert.throws(() => lib.dumpSession(text, { types: ["@nope"] }), /@nope, which is not a configured preset/);
  assert.ok(lib.TRANSCRIPT_ITEM_TYPES.includes("message:user:in"));
  assert.deepEqual(lib.DEFAULT_DUMP_TYPES, ["*", "-system:attachment"]);
});
