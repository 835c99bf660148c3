// The npm API's value tags ({"$js": ...}) must not capture real data of the
// same shape. Through the BUILT dist/index.cjs (needs the full wasm assembled: `make dist`):
// tool arguments, details and session-reader input holding "$js" keys come back as the same
// data (deepStrictEqual, structuredClone does not throw), while real undefined/NaN/functions
// still cross as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { root } from "./host.mjs";

const al = createRequire(import.meta.url)(join(root, "dist", "index.cjs"));

// Data that looks like the glue's tags, nested and with extra keys.
const SHAPES = [
  { $js: "function" },
  { $js: "NaN" },
  { $js: "undefined" },
  { $js: "Infinity" },
  { $js: "-Infinity" },
  { $js: "bogus" },
  { $js: 1 },
  { $js: "function", extra: 1 },
  { extra: [1, { $js: "NaN" }], $js: "undefined" },
  { $$js: "function" },
  { $$$js: "NaN", js: 1, $j: 2, "$js ": 3 },
  { a: { b: [{ $js: "function" }, { $$js: { $js: "undefined" } }] } },
  [{ $js: "undefined" }, [{ $js: "function" }]],
];

function frame(args) {
  return { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "Run", arguments: args }] };
}

test("parseMessage and extractToolCalls give back tag-shaped tool arguments as the same data", () => {
  for (const shape of SHAPES) {
    const args = { payload: shape, list: [shape] };
    for (const [what, calls] of [
      ["parseMessage", al.parseMessage(frame(args)).toolCalls],
      ["extractToolCalls", al.extractToolCalls(frame(args))],
    ]) {
      assert.equal(calls.length, 1, what);
      assert.doesNotThrow(() => structuredClone(calls), `${what} ${JSON.stringify(shape)}`);
      assert.deepStrictEqual(calls[0].arguments, args, `${what} ${JSON.stringify(shape)}`);
      // Key order is kept too.
      assert.equal(JSON.stringify(calls[0].arguments), JSON.stringify(args), what);
    }
  }
});

test("tool-result details of a tag's shape come back as the same data", () => {
  const details = { $js: "function", nested: { $js: "NaN" } };
  const msg = { role: "toolResult", toolCallId: "c1", toolName: "Run", content: [{ type: "text", text: "ok" }], details };
  const r = al.parseMessage(msg);
  assert.doesNotThrow(() => structuredClone(r));
  assert.deepStrictEqual(r.toolResults[0].details, details);
});

test("real non-JSON values still cross as themselves", () => {
  const f = () => 1;
  const calls = al.extractToolCalls(frame({ u: undefined, n: NaN, i: Infinity, m: -Infinity, f, data: { $js: "NaN" } }));
  const a = calls[0].arguments;
  assert.ok(Object.prototype.hasOwnProperty.call(a, "u") && a.u === undefined);
  assert.ok(Number.isNaN(a.n));
  assert.equal(a.i, Infinity);
  assert.equal(a.m, -Infinity);
  assert.equal(typeof a.f, "function");
  assert.deepStrictEqual(a.data, { $js: "NaN" });
});

test("plain-JSON modules: tag-shaped data in a session file and in arguments survives", () => {
  // A Claude Code session line whose tool input holds tag-shaped data; dumpSession (a
  // plain-JSON module) copies the input into its item.
  const input = { $js: "function", deep: [{ $js: "undefined" }, { $js: "NaN", x: 1 }], $$js: 2 };
  const line = JSON.stringify({
    type: "assistant", uuid: "u1", timestamp: "2026-12-03T10:00:00Z", sessionId: "s",
    message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input }] },
  });
  const out = al.dumpSession(line + "\n");
  assert.doesNotThrow(() => structuredClone(out));
  assert.deepStrictEqual(out.items[0].input, input);
  assert.equal(JSON.stringify(out.items[0].input), JSON.stringify(input), "key order kept");
  // Arguments with such keys read as the data: the sid option is a real key next to "$js".
  const opts = { sid: "mine", $js: "undefined" };
  assert.equal(al.dumpSession(line + "\n", opts).sid, "mine");
  // A real undefined option still reads as absent.
  assert.equal(al.dumpSession(line + "\n", undefined).sid, "s");
});
