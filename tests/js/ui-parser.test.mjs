// The built dist/ui-parser*.js files, loaded as source text the way the host loads them.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, scanForHost, loadHostFile, loadHostStyle, replayGoldens, fixtures, linesOf, fixtureTs } from "./host.mjs";

const FILES = ["dist/ui-parser.js", "dist/ui-parser.stateless.js"];

test("the host's source scanner accepts both ui-parser files", () => {
  for (const f of FILES) {
    const found = scanForHost(readFileSync(join(root, f), "utf8"));
    assert.deepEqual(found, [], `${f}: ${JSON.stringify(found)}`);
  }
});

test("the scanner itself refuses what the host refuses", () => {
  assert.equal(scanForHost("x.constructor.name").length, 1);
  assert.equal(scanForHost("var a = eval('1')").length, 1);
  assert.equal(scanForHost("new Function('a')").length, 1);
  assert.equal(scanForHost("import('x')").length, 1);
  assert.equal(scanForHost("var s = `import(${1})`").length, 1, "template literals are not skipped");
  assert.equal(scanForHost("var s = 'eval(' // Function(\n/* import( */").length, 0);
  assert.equal(scanForHost("alFunction(1); evaluate(2)").length, 0);
});

test("loading has no side effects and exports the contract", () => {
  const full = loadHostFile("dist/ui-parser.js");
  assert.deepEqual(Object.keys(full).sort(), ["createStdoutParser", "parseStdoutLine"]);
  const stateless = loadHostFile("dist/ui-parser.stateless.js");
  assert.deepEqual(Object.keys(stateless), ["parseStdoutLine"]);
});

test("every golden replays identically through the built stateful parser, cloneable", () => {
  assert.ok(fixtures().length > 0, "no golden fixtures found");
  const problems = replayGoldens(loadHostFile("dist/ui-parser.js"));
  assert.deepEqual(problems, []);
});

test("the stateless file reads every fixture line: no throw, no raw JSON, cloneable", () => {
  for (const f of FILES) {
    const problems = replayGoldens(loadHostFile(f), { stateful: false });
    assert.deepEqual(problems, [], f);
  }
});

test("never throws, whatever it is given", () => {
  const m = loadHostFile("dist/ui-parser.js");
  const odd = [undefined, null, 42, {}, [], "\u0000", "\ud800", "{", "{\"type\":", "x".repeat(100000), "{}", "[]", "null"];
  for (const line of odd) {
    for (const ts of [undefined, null, 7, "t"]) {
      const a = m.parseStdoutLine(line, ts);
      assert.ok(Array.isArray(a));
      structuredClone(a);
      const p = m.createStdoutParser();
      assert.ok(Array.isArray(p.parseLine(line, ts)));
      p.reset();
    }
  }
  assert.ok(Array.isArray(m.createStdoutParser(null).parseLine("x", "t")));
  assert.ok(Array.isArray(m.createStdoutParser({ format: "nope" }).parseLine("x", "t")));
});

test("same (line, ts) gives the same output: fresh modules, reset, stateless", () => {
  const src = readFileSync(join(root, "dist/ui-parser.js"), "utf8");
  for (const fx of fixtures().slice(0, 40)) {
    const lines = linesOf(readFileSync(fx.input, "utf8")).slice(0, 30);
    const a = loadHostStyle(src), b = loadHostStyle(src);
    const pa = a.createStdoutParser(), pb = b.createStdoutParser();
    const run1 = lines.map((l, i) => JSON.stringify(pa.parseLine(l, fixtureTs(i))));
    pa.reset();
    const run2 = lines.map((l, i) => JSON.stringify(pa.parseLine(l, fixtureTs(i))));
    const run3 = lines.map((l, i) => JSON.stringify(pb.parseLine(l, fixtureTs(i))));
    assert.deepEqual(run2, run1);
    assert.deepEqual(run3, run1);
    const s1 = lines.map((l, i) => JSON.stringify(a.parseStdoutLine(l, fixtureTs(i))));
    const s2 = lines.map((l, i) => JSON.stringify(b.parseStdoutLine(l, fixtureTs(i))));
    assert.deepEqual(s2, s1);
  }
});
