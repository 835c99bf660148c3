// Wasm memory comes back (docs/robustness.md, "Memory given back"), through the built host
// files in the host's sandbox shape:
// - a parser dropped without `dispose` (the host never calls it) is freed when it is
//   garbage-collected (FinalizationRegistry), and an instance no parser lives in is dropped
//   once it has grown past 32 MiB;
// - while a parser lives, long lines of ever new sizes reuse the allocator's merged large
//   blocks instead of keeping one set per size.
import test from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { root } from "./host.mjs";
import { loadWithProbe } from "./robust-util.mjs";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const TS = "2026-01-01T00:00:00.000Z";
const MB = 1 << 20;
const mib = (b) => (b / MB).toFixed(0);

// Garbage-collects until the registry has freed what it can (its callbacks run as tasks).
async function collect(m, until) {
  for (let i = 0; i < 20 && !until(); i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

// A Claude tool call with a 1 KB id, never answered: the parser keeps it for pairing.
const call = (k, i) => `{"type":"assistant","message":{"id":"m${k}_${i}","role":"assistant","content":[` +
  `{"type":"tool_use","id":"${"i".repeat(1000)}${k}_${i}","name":"Bash","input":{}}]}}`;

test("parsers dropped without dispose are freed when collected, and the grown instance is given back", async () => {
  const m = loadWithProbe(join(root, "dist/ui-parser.js"));
  let parsers = [];
  for (let k = 0; k < 20; k++) {
    const p = m.createStdoutParser();
    for (let i = 0; i < 2500; i++) p.parseLine(call(k, i), TS);
    parsers.push(p);
  }
  const held = m.__memBytes();
  assert.equal(m.__live(), 20);
  assert.ok(held > 32 * MB, `${held} bytes: too little state for the test to mean anything`);
  parsers = null;
  await collect(m, () => m.__live() === 0);
  assert.equal(m.__live(), 0, "dropped parsers were not freed");
  assert.equal(m.__memBytes(), 0, "the grown instance was kept");
  assert.equal(m.parseStdoutLine("hello", TS)[0].text, "hello");
  const after = m.__memBytes();
  assert.ok(after <= 4 * MB, `${after} bytes after the next call`);
  assert.equal(m.__gen(), 1, "no trap");
  console.log(`20 parsers × 2500 calls with 1 KB ids: ${mib(held)} MiB held; collected: given back, ${mib(after)} MiB on the next call`);
});

// A parser fed n calls, then dropped (no reference left in the caller's frame).
function feed(m, k, n) {
  const p = m.createStdoutParser();
  for (let i = 0; i < n; i++) p.parseLine(call(k, i), TS);
}

test("while one parser lives, collected parsers' memory is reused", async () => {
  const m = loadWithProbe(join(root, "dist/ui-parser.js"));
  const keep = m.createStdoutParser();
  keep.parseLine('{"type":"system","subtype":"init","session_id":"s"}', TS);
  const rounds = [];
  for (let round = 0; round < 4; round++) {
    for (let k = 0; k < 8; k++) feed(m, k, 1500);
    await collect(m, () => m.__live() === 1);
    assert.equal(m.__live(), 1, `round ${round}: dropped parsers were not freed`);
    rounds.push(m.__memBytes());
  }
  console.log(`8 dropped parsers per round, one kept: ${rounds.map(mib).join(", ")} MiB`);
  // Without the registry every round adds its 8 parsers' state (~13 MiB).
  assert.ok(rounds[3] <= rounds[0] + MB, `memory kept growing: ${rounds}`);
  assert.equal(keep.parseLine("still here", TS)[0].text, "still here");
});

test("long lines of ever new sizes while a parser lives: memory stays near the largest line's working set", () => {
  const m = loadWithProbe(join(root, "dist/ui-parser.js"));
  const keep = m.createStdoutParser();
  keep.parseLine('{"type":"system","subtype":"init","session_id":"s"}', TS);
  const sizes = [];
  let largest = 0;
  for (let i = 0; i < 52; i++) {
    const n = Math.round(((i + 1) * 15 * MB) / 52);
    const line = `{"type":"assistant","message":{"content":[{"type":"text","text":"${"y".repeat(n)}"}]}}`;
    largest = Math.max(largest, line.length);
    const out = keep.parseLine(line, TS);
    assert.equal(out[0].text.length, n);
    sizes.push(m.__memBytes());
  }
  console.log(`52 lines rising to 15 MiB through one live parser: ${sizes.filter((_, i) => i % 6 === 5).map(mib).join(", ")} MiB (largest line ${mib(largest)} MiB)`);
  // Each size class kept its own blocks before: 514 MiB here. A single 15 MiB line's
  // working set (input, JSON tree, output) is ~7 times the line.
  assert.ok(sizes[51] <= 8 * largest, `${sizes[51]} bytes for a largest line of ${largest}`);
  assert.equal(m.__gen(), 1, "no trap");
});
