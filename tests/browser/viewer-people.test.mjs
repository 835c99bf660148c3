// The page as a reader meets it: opened cold, the developer controls (parser file, stateless
// parsing, the simulated live tail) are out of the way until asked for, and a real log opens
// with the run first: what was asked, the model, when it started, how long it took, what it
// cost, its tool calls and how it ended.
import test from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { root } from "../js/host.mjs";
import { viewerSession, serverUrl, SHOTS, frames } from "./viewer-page.mjs";

const { openPage, clean, echoPage, paste } = viewerSession(test);

// A real Codex rollout (tests/fixtures/codex/PROVENANCE.md): one prompt, an edit, one result.
const ROLLOUT = join(root, "tests/fixtures/codex/molecule-rollout-v0.156.1.jsonl");
const PROMPT_START = "Reply with a markdown heading \"## Why logs first\"";

const visible = (page, sel) => page.$eval(sel, (e) => e.checkVisibility());

test("cold page: developer controls hidden until asked for; a real log opens with its run header", async () => {
  const { page, problems } = await openPage();
  await page.goto(`${serverUrl()}/www/`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  for (const sel of ["#parser", "#parser-status", "#stateless", "#live", "#speed", "#pause"]) {
    assert.equal(await visible(page, sel), false, `${sel} is hidden on a cold page`);
  }
  assert.equal(await visible(page, "#file"), false, "the file input itself is the label's");
  assert.equal(await visible(page, "#run-head"), false, "no run header before a log");

  await page.setInputFiles("#file", ROLLOUT);
  await page.waitForFunction(() => document.body.dataset.state === "done" && document.body.dataset.usage);
  await frames(page);
  assert.equal(await visible(page, "#run-head"), true);
  const title = await page.$eval("#run-title", (e) => e.textContent);
  assert.ok(title.startsWith(PROMPT_START), `the title is the first prompt: ${title}`);
  const facts = await page.$$eval("#run-facts .fact", (fs) => fs.map((f) => f.textContent));
  const fact = (label) => facts.find((f) => f.startsWith(label + " "));
  assert.ok(fact("model"), `model shown: ${facts}`);
  assert.match(fact("started") || "", /^started \d{4}-\d\d-\d\d \d\d:\d\d$/);
  assert.match(fact("took") || "", /^took \d+(\.\d)? s$/);
  assert.match(fact("tool calls") || "", /^tool calls [1-9]/);
  assert.equal(fact("ended"), "ended ok");
  assert.ok(fact("cost"), `cost shown (estimated or stated): ${facts}`);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, "viewer-run-head.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    await frames(page);
    await page.screenshot({ path: join(SHOTS, "viewer-run-head-dark.png") });
    await page.emulateMedia({ colorScheme: "light" });
  }

  // The developer box brings them back and says so in the URL; unchecked, they go again.
  await page.check("#dev");
  for (const sel of ["#parser", "#stateless", "#live"]) assert.equal(await visible(page, sel), true, `${sel} shown in developer mode`);
  assert.equal(new URL(page.url()).searchParams.get("dev"), "1");
  await page.uncheck("#dev");
  assert.equal(await visible(page, "#stateless"), false);
  assert.equal(new URL(page.url()).searchParams.get("dev"), null);
  await clean(page, problems);
});

test("a URL that sets a developer control shows them; dev=1 alone too", async () => {
  for (const q of ["parser=dist/index.cjs", "stateless=1", "dev=1"]) {
    const { page, problems } = await openPage();
    await page.goto(`${serverUrl()}/www/?${q}`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    assert.equal(await visible(page, "#stateless"), true, q);
    assert.equal(await page.$eval("#dev", (e) => e.checked), true, q);
    await clean(page, problems);
  }
});

test("a search hit deep in a long card is brought on screen, not only its card", async () => {
  const { page, problems } = await echoPage();
  const echo = (...entries) => JSON.stringify({ echo: entries });
  const long = Array.from({ length: 400 }, (_, i) => (i === 390 ? "line 390: the needle is here" : `line ${i}: hay`)).join("\n");
  await paste(page, [
    echo({ kind: "assistant", text: "before" }),
    echo({ kind: "tool_call", name: "Bash", input: { command: "cat big.txt" }, toolUseId: "c1" }),
    echo({ kind: "tool_result", toolUseId: "c1", content: long, isError: false }),
    echo({ kind: "assistant", text: "after" }),
  ].join("\n"));
  await page.fill("#search", "needle");
  await page.press("#search", "Enter");
  await page.waitForFunction(() => {
    const hit = document.querySelector("#list .vl-row.current mark.hit");
    if (!hit) return false;
    const box = document.getElementById("list").getBoundingClientRect();
    const r = hit.getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom;
  }, null, { timeout: 10000 });
  await clean(page, problems);
});
