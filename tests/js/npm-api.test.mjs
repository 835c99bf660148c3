// The npm entry's parser API (dist/index.cjs, and index.mjs over it): wrong argument types
// throw a TypeError naming the argument, a disposed parser throws, `Symbol.dispose` disposes,
// and mergeDeltas merges as the host's transcript view does (checked against the core's own
// merge in parseLines over every fixture).
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, fixtures, linesOf } from "./host.mjs";

const al = createRequire(import.meta.url)(join(root, "dist/index.cjs"));
const TS = "2026-01-01T00:00:00.000Z";

test("wrong argument types throw a TypeError that names the argument", () => {
  const cases = [
    [() => al.parseStdoutLine(new TextEncoder().encode("{}"), TS), /parseStdoutLine: line must be a string, got a Uint8Array/],
    [() => al.parseStdoutLine({ type: "system" }, TS), /line must be a string, got an object/],
    [() => al.parseStdoutLine("hi", new Date()), /parseStdoutLine: ts must be a string, got a Date/],
    [() => al.parseLines("abc", TS), /parseLines: lines must be an array of strings, got a string/],
    [() => al.parseLines(["a", 1], TS), /parseLines: lines\[1\] must be a string, got a number/],
    [() => al.parseLines(["a", "b"], [TS]), /ts must be a string or an array as long as lines \(2\)/],
    [() => al.parseLog(Buffer.from("x"), TS), /parseLog: text must be a string, got a Uint8Array/],
    [() => al.parseLog("x", TS, "merge"), /parseLog: options must be an object, got a string/],
    [() => al.createStdoutParser({ format: 3 }), /createStdoutParser: options.format must be a string, got a number/],
    [() => al.createStdoutParser().parseLine(null, TS), /parseLine: line must be a string, got null/],
    [() => al.createStdoutParser().parseChunk(new Uint8Array(2), TS), /parseChunk: chunk must be a string \(decode bytes with TextDecoder/],
    [() => al.mergeDeltas("x"), /mergeDeltas: entries must be an array of entries/],
  ];
  for (const [call, message] of cases) assert.throws(call, (e) => e instanceof TypeError && message.test(e.message), String(message));
  // What stays accepted: ts left out reads as "", options null.
  assert.equal(al.parseStdoutLine("hi")[0].ts, "");
  assert.equal(al.parseLog("hi\n", TS, null)[0].text, "hi");
});

test("a disposed parser throws; Symbol.dispose disposes; dispose twice is fine", () => {
  const p = al.createStdoutParser({ format: "claude" });
  assert.equal(p.parseLine("hello", TS)[0].text, "hello");
  p.dispose();
  p.dispose();
  for (const call of [() => p.parseLine("x", TS), () => p.parseChunk("x\n", TS), () => p.flush(TS), () => p.reset()]) {
    assert.throws(call, /on a disposed parser; create a new one with createStdoutParser\(\)/);
  }
  const q = al.createStdoutParser();
  assert.equal(typeof q[Symbol.dispose], "function");
  q[Symbol.dispose]();
  assert.throws(() => q.parseLine("x", TS), /disposed parser/);
});

test("mergeDeltas equals the core's merge (parseLines merge on vs off) on every fixture", () => {
  let merged = 0;
  for (const fx of fixtures()) {
    const lines = linesOf(readFileSync(fx.input, "utf8"));
    const apart = al.parseLines(lines, TS, { merge: false });
    const before = JSON.stringify(apart);
    const ours = al.mergeDeltas(apart);
    assert.equal(JSON.stringify(ours), JSON.stringify(al.parseLines(lines, TS)), fx.input);
    assert.equal(JSON.stringify(apart), before, `${fx.input}: the input was changed`);
    merged += apart.length - ours.length;
  }
  assert.ok(merged > 0, "no fixture had deltas to merge: the test means nothing");
  const d = (kind, text, extra = {}) => ({ kind, ts: TS, text, delta: true, ...extra });
  assert.deepEqual(al.mergeDeltas([d("assistant", "a"), d("assistant", "b"), d("thinking", "c"), { kind: "assistant", ts: TS, text: "d" }, d("assistant", "e")]),
    [d("assistant", "ab"), d("thinking", "c"), { kind: "assistant", ts: TS, text: "d" }, d("assistant", "e")]);
  console.log(`mergeDeltas merged ${merged} entries across the fixtures, as the core does`);
});

test("init(): compiles ahead of the first call; a wasm that is not agentlines' is refused", async () => {
  const web = await import(join(root, "dist/web/index.mjs"));
  assert.throws(() => web.parseStdoutLine("x", TS), (e) => e.code === "AGENTLINES_NOT_INITIALIZED");
  // The smallest valid wasm module: compiles, exports nothing.
  const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  await assert.rejects(web.init({ wasm: empty }), /not agentlines'/);
  await assert.rejects(web.init({ wasm: 42 }), (e) => e instanceof TypeError);
  await web.init({ wasm: readFileSync(join(root, "dist/web/agentlines.wasm")) });
  await web.init(); // already compiled: resolves at once, fetches nothing
  assert.equal(web.parseStdoutLine("x", TS)[0].text, "x");
  assert.equal(web.extractText({ text: "y" }), "y");
  const claude = await import(join(root, "dist/claude/index.mjs"));
  await claude.init();
  assert.equal(claude.parseLines(["hi"], TS)[0].text, "hi");
  assert.equal(typeof claude.extractText, "undefined", "the per-runtime entry is the parser API only");
});
