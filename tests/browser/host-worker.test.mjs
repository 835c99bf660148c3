// dist/ui-parser.js in a real classic Web Worker in headless Chromium, loaded as the host
// loads it: source fetched as text, dangerous globals removed, evaluated with
// new Function("exports","module","self","globalThis", …) and self/globalThis undefined.
// Every golden fixture replays to the golden entries (structured-cloned back to the page).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startServer, launch, HOST_WORKER as WORKER } from "./chromium.mjs";
import { fixtures, linesOf, fixtureTs } from "../js/host.mjs";

test("ui-parser.js in a host-shaped Web Worker in headless Chromium", async (t) => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.url + "/tests/browser/blank.html");
    await page.evaluate(async ({ code, url }) => {
      const src = await (await fetch(url)).text();
      const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      window.__w = w;
      window.__ask = (msg) => new Promise((resolve) => { w.onmessage = (ev) => resolve(ev.data); w.postMessage(msg); });
      window.__ready = await window.__ask({ type: "load", source: src });
    }, { code: WORKER, url: server.url + "/dist/ui-parser.js" });
    const ready = await page.evaluate(() => window.__ready);
    assert.equal(ready.type, "ready", JSON.stringify(ready));
    assert.deepEqual(ready.keys.sort(), ["createStdoutParser", "parseStdoutLine"]);
    t.diagnostic(`worker evaluation ${ready.ms.toFixed(1)} ms`);
    const all = fixtures();
    assert.ok(all.length > 0);
    let lines = 0;
    for (const fx of all) {
      const input = linesOf(readFileSync(fx.input, "utf8"));
      const expected = linesOf(readFileSync(fx.expected, "utf8")).map((l) => JSON.parse(l));
      const ts = input.map((_, i) => fixtureTs(i));
      for (const stateful of [true, false]) {
        const res = await page.evaluate((m) => window.__ask(m), { type: "parse", stateful, lines: input, ts });
        assert.equal(res.type, "parsed");
        if (stateful) {
          for (let i = 0; i < input.length; i++) {
            assert.equal(JSON.stringify(res.out[i]), JSON.stringify(expected[i]), `${fx.input} line ${i + 1}`);
          }
        } else {
          assert.equal(res.out.length, input.length);
        }
      }
      lines += input.length;
    }
    t.diagnostic(`${all.length} fixtures, ${lines} lines replayed in the worker`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
