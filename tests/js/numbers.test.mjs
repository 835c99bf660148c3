// Numbers in entries are what JavaScript reads: every number token in a tool's input comes
// out of the built default file as the same value `JSON.parse` gives for it (correctly
// rounded; serde_json's default float reader can be one bit off).
import test from "node:test";
import assert from "node:assert/strict";
import { loadHostFile } from "./host.mjs";

const m = loadHostFile("dist/ui-parser.stateless.js");

function tokens(n, seed) {
  let s = seed >>> 0;
  const r = (k) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % k);
  const out = ["1e-30", "2.2250738585072011e-308", "9.999999999999999e-31", "0.3e-300", "5e-324", "1.7976931348623157e308",
    "123456789012345678901234567890", "-0.0", "0.1", "1e22", "1e23", "9007199254740993", "4.9406564584124654e-324"];
  while (out.length < n) {
    const digits = Array.from({ length: 1 + r(25) }, (_, i) => (i === 0 ? 1 + r(9) : r(10))).join("");
    const point = r(digits.length + 1);
    const mant = point === digits.length ? digits : `${digits.slice(0, point) || "0"}.${digits.slice(point)}`;
    const neg = r(2) === 1;
    // Up to 1e305 (past f64 JSON.parse gives Infinity, which the host type cannot carry).
    const exp = r(3) === 0 ? "" : `e${neg ? "-" : ""}${neg ? r(340) : r(280)}`;
    out.push(`${r(4) === 0 ? "-" : ""}${mant}${exp}`);
  }
  return out;
}

test("every number in an entry is the value JSON.parse reads for its token", () => {
  const toks = tokens(3000, 7);
  let differ = [];
  for (let i = 0; i < toks.length; i += 100) {
    const chunk = toks.slice(i, i + 100);
    const line = `{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"toolu_n","name":"X","input":{"v":[${chunk.join(",")}]}}]}}`;
    const want = JSON.parse(line).message.content[0].input.v;
    const got = m.parseStdoutLine(line, "2026-01-01T00:00:00.000Z")[0].input.v;
    chunk.forEach((t, k) => {
      if (!Object.is(got[k], want[k])) differ.push(`${t}: ours ${got[k]}, JSON.parse ${want[k]}`);
    });
  }
  assert.deepEqual(differ.slice(0, 10), [], `${differ.length} of ${toks.length} tokens differ`);
});
