// @molecule/api-agent-transcript conformance through the BUILT package: every recorded
// case (tests/fixtures/conformance/molecule/cases.jsonl) and every upstream fixture's
// recorded outputs, called on dist/index.cjs's exports (the reader objects, createReader
// with JS stub readers, findPatches/writesOfPatch, readTranscript). Arguments are decoded
// from the conformance encoding into real JS values; results are compared as JSON, where
// an `undefined` property and an absent one are the same. Build first: `make dist`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { decode } from "./conformance-encoding.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const lib = createRequire(import.meta.url)(join(root, "dist", "index.cjs"));
const dir = join(root, "tests", "fixtures", "conformance", "molecule");


const asJson = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

// Three stub readers: `a` and `b` detect text containing "x", `c` "y".
const stub = (name, needle) => ({
  format: name,
  label: name,
  detect: (input) => input.text.includes(needle),
  read: () => ({ format: name, harness: name, turns: [] }),
});

const readers = {
  "claude-code": () => lib.claudeCodeReader,
  codex: () => lib.codexReader,
  "molecule-ide": () => lib.moleculeIdeReader,
  autodetect: () => lib.autodetectReader,
};

function run(fn, args) {
  if (fn.startsWith("createReader(")) {
    const r = lib.createReader(fn.startsWith("createReader([a:x") ? [stub("a", "x"), stub("b", "x"), stub("c", "y")] : []);
    return fn.endsWith(".detect") ? r.detect(args[0]) : r.read(args[0]);
  }
  if (fn === "autodetect.label") return lib.autodetectReader.label;
  if (fn === "codex.findPatches") return lib.findPatches(args[0]);
  if (fn === "codex.writesOfPatch") return lib.writesOfPatch(args[0]);
  const [reader, method] = fn.split(".");
  const r = readers[reader]();
  const out = r[method](args[0]);
  if (reader === "autodetect") {
    // The flat names answer the same.
    const flat = method === "read" ? lib.readTranscript(args[0]) : lib.canReadTranscript(args[0]);
    assert.deepEqual(asJson(flat), asJson(out));
  }
  return out;
}

function tally() {
  const perFn = new Map();
  const failures = [];
  return {
    check(fn, label, want, call) {
      let got;
      let ok;
      try {
        got = { expected: asJson(call()) };
      } catch (e) {
        got = { throws: e.message };
      }
      try {
        if ("throws" in want) assert.deepEqual(got, { throws: want.throws });
        else assert.deepEqual(got, { expected: asJson(decode(want.expected)) });
        ok = true;
      } catch {
        ok = false;
      }
      const row = perFn.get(fn) ?? { pass: 0, fail: 0 };
      row[ok ? "pass" : "fail"] += 1;
      perFn.set(fn, row);
      if (!ok && failures.length < 10) {
        failures.push(`${fn} [${label}]\n  want ${JSON.stringify(want).slice(0, 400)}\n  got  ${JSON.stringify(got).slice(0, 400)}`);
      }
    },
    report() {
      const rows = [...perFn].sort().map(([fn, r]) => `${fn.padEnd(42)} ${String(r.pass).padStart(5)} ${String(r.fail).padStart(5)}`);
      return ["fn".padEnd(42) + "  pass  fail", ...rows].join("\n");
    },
    failed: () => [...perFn.values()].some((r) => r.fail > 0),
    failures,
  };
}

test("molecule: every recorded case through dist/index.cjs", () => {
  const t = tally();
  const lines = readFileSync(join(dir, "cases.jsonl"), "utf8").split("\n").filter(Boolean);
  lines.forEach((line, i) => {
    const c = JSON.parse(line);
    t.check(c.fn, `line ${i + 1}`, c, () => run(c.fn, decode(c.args)));
  });
  assert.equal(lines.length, 801);
  assert.ok(!t.failed(), `${t.report()}\n${t.failures.join("\n")}`);
});

test("molecule: upstream fixtures' recorded outputs", () => {
  const t = tally();
  const files = readdirSync(join(dir, "fixtures")).filter((f) => f.endsWith(".expected.json")).sort();
  for (const f of files) {
    const expected = JSON.parse(readFileSync(join(dir, "fixtures", f), "utf8"));
    const name = expected.input.fileName;
    const input = { text: readFileSync(join(dir, "fixtures", name), "utf8"), fileName: name };
    for (const [key, want] of Object.entries(expected)) {
      if (key === "input") continue;
      const c = want && typeof want === "object" && "throws" in want ? { throws: want.throws } : { expected: want };
      t.check(`fixture ${key}`, name, c, () => run(key, [input]));
    }
  }
  assert.equal(files.length, 5);
  assert.ok(!t.failed(), `${t.report()}\n${t.failures.join("\n")}`);
});

test("reader objects have the contract's shape", () => {
  assert.equal(lib.claudeCodeReader.format, "claude-code");
  assert.equal(lib.codexReader.label, "Codex CLI");
  assert.equal(lib.moleculeIdeReader.format, "molecule-ide");
  assert.equal(lib.autodetectReader.format, "autodetect");
  const mine = { format: "mine", label: "Mine", detect: (i) => i.text === "m", read: () => ({ format: "mine", harness: "Mine", turns: [] }) };
  const r = lib.createReader([lib.claudeCodeReader, mine]);
  assert.equal(r.label, "Claude Code, Mine");
  assert.deepEqual(r.read({ text: "m" }), { format: "mine", harness: "Mine", turns: [] });
  assert.throws(() => r.read({ text: "?", fileName: "" }), { message: "No transcript reader recognizes . Readers tried: Claude Code, Mine." });
});
