// parseChunk on the built stateful file: a chunk boundary may fall anywhere, even between
// the two UTF-16 halves of a non-BMP character; the entries are the same as for the whole
// text in one call.
import test from "node:test";
import assert from "node:assert/strict";
import { loadHostFile } from "./host.mjs";

const TS = "2026-01-01T00:00:00.000Z";
const m = loadHostFile("dist/ui-parser.js");

function parseInChunks(text, cuts) {
  const p = m.createStdoutParser();
  let out = [];
  let at = 0;
  for (const c of [...cuts, text.length]) {
    out = out.concat(p.parseChunk(text.slice(at, c), TS));
    at = c;
  }
  return out.concat(p.flush(TS));
}

test("a chunk split at every point, inside surrogate pairs too, gives the whole text's entries", () => {
  const text = 'a😀b 𝄞 é\n{"type":"assistant","message":{"content":[{"type":"text","text":"x😀y"}]}}\nend 🎉';
  const whole = parseInChunks(text, []);
  assert.ok(JSON.stringify(whole).includes("a😀b 𝄞 é"), JSON.stringify(whole));
  assert.ok(!JSON.stringify(whole).includes("\uFFFD"));
  for (let i = 1; i < text.length; i++) {
    assert.deepEqual(parseInChunks(text, [i]), whole, `cut at UTF-16 unit ${i}`);
  }
  // One unit per call: every non-BMP character is cut in two.
  const units = Array.from({ length: text.length - 1 }, (_, i) => i + 1);
  assert.deepEqual(parseInChunks(text, units), whole);
});

test("a lone high surrogate at the end of the stream still comes out (as U+FFFD), and reset forgets it", () => {
  const p = m.createStdoutParser();
  // (Entries come from the file's own realm: compared as JSON.)
  assert.equal(JSON.stringify(p.parseChunk("x\uD83D", TS)), "[]");
  const out = p.flush(TS);
  assert.equal(out.length, 1);
  assert.equal(out[0].text, "x\uFFFD");
  p.parseChunk("y\uD83D", TS);
  p.reset();
  assert.equal(JSON.stringify(p.parseChunk("\uDE00z\n", TS).map((e) => e.text)), JSON.stringify(["\uFFFDz"]));
});
