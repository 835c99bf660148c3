// agentlines/testing's loadUiParserInPage: a real Chromium page (playwright-core, Debian's
// chromium), the parser evaluated the host's way in a classic worker of that page; the
// entries equal the Node loader's, and a refused or broken file is a HostLoadError.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, linesOf } from "../js/host.mjs";
import { launch } from "./chromium.mjs";

const T = await import(join(root, "pkg", "dist", "testing.mjs"));
const browser = await launch();
after(() => browser.close());
const FIX = join(root, "tests", "fixtures", "claude", "stream-hivemind-background-disabled.jsonl");

test("a ui-parser file in a page's worker gives the Node loader's entries", async () => {
  const page = await browser.newPage();
  await page.goto("about:blank");
  const src = readFileSync(join(root, "dist", "ui-parser.js"), "utf8");
  const parser = await T.loadUiParserInPage(page, src);
  assert.equal(parser.stateful, true);
  const lines = linesOf(readFileSync(FIX, "utf8"));
  const inPage = await parser.parse(lines, { ts: "2026-01-01T00:00:00.000Z" });
  const inNode = T.parseWithHost(T.loadUiParser(src), lines, { ts: "2026-01-01T00:00:00.000Z" });
  assert.ok(inPage.length > 10);
  assert.deepEqual(inPage, inNode);
  const stateless = await parser.parse(['{"type":"system","subtype":"init","model":"m","session_id":"s"}'], { stateful: false, ts: ["t1"] });
  assert.deepEqual(stateless, [{ kind: "init", ts: "t1", model: "m", sessionId: "s" }]);
  await parser.close();
  await page.close();
});

test("in the page's worker the host's globals are gone, and failures are HostLoadErrors", async () => {
  const page = await browser.newPage();
  await page.goto("about:blank");
  const probe = await T.loadUiParserInPage(page, "exports.parseStdoutLine = function (l, ts) { return [{ kind: 'stdout', ts: ts, " +
    "text: [typeof fetch, typeof Function, typeof Blob, typeof self, typeof WebAssembly].join() }]; };");
  assert.equal((await probe.parse(["x"]))[0].text, "undefined,undefined,undefined,undefined,object");
  await assert.rejects(T.loadUiParserInPage(page, "eval('1')"), (e) => e.stage === "scanner");
  await assert.rejects(T.loadUiParserInPage(page, "throw new Error('boom')"), (e) => e.stage === "evaluate" && /boom/.test(e.message));
  await assert.rejects(T.loadUiParserInPage(page, "exports.nothing = 1;"), (e) => e.stage === "exports");
  await page.close();
});
