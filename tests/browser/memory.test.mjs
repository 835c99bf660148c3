// Wasm memory comes back in Chromium too (docs/robustness.md, "Memory given back"): the
// same shapes as tests/js/memory.test.mjs, in a classic Web Worker where dist/ui-parser.js is
// evaluated the host's way (new Function, self/globalThis undefined). Chromium runs with
// --expose-gc so the worker can collect dropped parsers.
import test from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch } from "./chromium.mjs";
import { root } from "../js/host.mjs";
import { probedSource } from "../js/robust-util.mjs";

const MB = 1 << 20;

// Runs in the worker: `src` is the probed file; answers with the measurements.
const WORKER = `
onmessage = async (ev) => {
  const exports = {}, module = { exports };
  Function("exports", "module", "self", "globalThis", ev.data)(exports, module, undefined, undefined);
  const m = module.exports, TS = "t", MB = 1 << 20, r = {};
  const call = (k, i) => '{"type":"assistant","message":{"id":"m' + k + '_' + i + '","role":"assistant","content":[' +
    '{"type":"tool_use","id":"' + "i".repeat(1000) + k + '_' + i + '","name":"Bash","input":{}}]}}';
  const feed = (k, n) => { const p = m.createStdoutParser(); for (let i = 0; i < n; i++) p.parseLine(call(k, i), TS); return p; };
  const collect = async (until) => { for (let i = 0; i < 40 && !until(); i++) { gc(); await new Promise((res) => setTimeout(res, 10)); } };
  let held = [];
  for (let k = 0; k < 20; k++) held.push(feed(k, 2500));
  r.held = m.__memBytes(); r.liveHeld = m.__live();
  held = null;
  await collect(() => m.__live() === 0);
  r.live = m.__live(); r.afterCollect = m.__memBytes();
  m.parseStdoutLine("hello", TS);
  r.nextCall = m.__memBytes();
  const keep = m.createStdoutParser();
  keep.parseLine('{"type":"system","subtype":"init","session_id":"s"}', TS);
  let largest = 0;
  for (let i = 0; i < 52; i++) {
    const n = Math.round(((i + 1) * 15 * MB) / 52);
    const line = '{"type":"assistant","message":{"content":[{"type":"text","text":"' + "y".repeat(n) + '"}]}}';
    largest = Math.max(largest, line.length);
    keep.parseLine(line, TS);
  }
  r.largest = largest; r.rising = m.__memBytes(); r.traps = m.__gen() - 1;
  postMessage(r);
};`;

test("Chromium: dropped parsers are collected, grown instances given back, long lines reuse memory", async (t) => {
  const browser = await launch(["--js-flags=--expose-gc"]);
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const r = await page.evaluate(({ code, src }) => new Promise((resolve) => {
      const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      w.onmessage = (ev) => resolve(ev.data);
      w.onerror = (e) => resolve({ error: String(e.message) });
      w.postMessage(src);
    }), { code: WORKER, src: probedSource(join(root, "dist/ui-parser.js")) });
    assert.equal(r.error, undefined, r.error);
    t.diagnostic(`20 parsers × 2500 calls with 1 KB ids: ${(r.held / MB).toFixed(0)} MiB held; collected: ` +
      `${(r.afterCollect / MB).toFixed(0)} MiB, ${(r.nextCall / MB).toFixed(0)} MiB on the next call; ` +
      `52 lines rising to 15 MiB through a live parser: ${(r.rising / MB).toFixed(0)} MiB`);
    assert.equal(r.liveHeld, 20);
    assert.ok(r.held > 32 * MB);
    assert.equal(r.live, 0, "dropped parsers were not freed");
    assert.equal(r.afterCollect, 0, "the grown instance was kept");
    assert.ok(r.nextCall <= 4 * MB);
    assert.ok(r.rising <= 8 * r.largest, `${r.rising} bytes for a largest line of ${r.largest}`);
    assert.equal(r.traps, 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
