// The extension hook examples in real Chromium: each baked into dist/ui-parser.stateless.js
// and dist/ui-parser.js (dist/bin/bake-hook.mjs), loaded into a classic Web Worker the host's
// way (agentlines/testing's loadUiParserInPage: scanner, globals removed, new Function body,
// self/globalThis undefined), its capture replayed to the reviewed expected entries
// (tests/js/extend.test.mjs holds the Node side and writes those files).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./chromium.mjs";
import { root, fixtureTs } from "../js/host.mjs";
import { loadUiParserInPage } from "../../pkg-template/testing.mjs";
import { EXAMPLES, example } from "../js/extend-examples.mjs";

const { bakeHook } = await import(join(root, "dist", "bin", "bake-hook.mjs"));

test("the hook examples in a host-shaped Web Worker in headless Chromium", async (t) => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("about:blank");
    for (const name of EXAMPLES) {
      const ex = example(name);
      const ts = ex.lines.map((_, i) => fixtureTs(i));
      for (const file of ["ui-parser.stateless.js", "ui-parser.js"]) {
        const src = bakeHook(readFileSync(join(root, "dist", file), "utf8"), ex.hook, `${name}/hook.js`);
        const parser = await loadUiParserInPage(page, src);
        for (let i = 0; i < ex.lines.length; i++) {
          const got = await parser.parse([ex.lines[i]], { ts: ts[i], stateful: false });
          assert.equal(JSON.stringify(got), JSON.stringify(ex.expected[i]), `${name} ${file} line ${i + 1}`);
        }
        await parser.close();
      }
      t.diagnostic(`${name}: ${ex.lines.length} lines, both files`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
