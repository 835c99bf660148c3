// The viewer never reads a file into one string: a first line longer than the first slice
// (a Claude init listing thousands of MCP tools), a line past the parser's 16 MiB cap in the
// middle of a file, a file that is one such line, and a Paperclip run log whose first row is
// long all go the sliced ways (Blob.text() on ~512 MiB quietly gave "" in Chromium: a 1 GiB log
// opened as "0 lines"). Each opens with its rows, the over-long line as its head and the
// parser's notice, and the lines after it.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { viewerSession, serverUrl } from "./viewer-page.mjs";
import { root } from "../js/host.mjs";

const { openPage } = viewerSession(test);

test("the viewer's worker holds no whole file as a string: no Blob.text()", () => {
  const src = readFileSync(join(root, "www", "host-worker.js"), "utf8");
  assert.doesNotMatch(src.replace(/\/\/.*$/gm, ""), /Blob\.prototype\.text|\.text\(\)/);
});

test("long first lines, a line past 16 MiB and one-line files open sliced, with every line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-big-lines-"));
  const { page, problems } = await openPage();
  try {
    await page.goto(`${serverUrl()}/www/`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    const open = async (name, text) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      const run = Number(await page.evaluate(() => { document.getElementById("file").value = ""; return document.body.dataset.run || 0; }));
      await page.setInputFiles("#file", file);
      await page.waitForFunction((r) => Number(document.body.dataset.run) > r && document.body.dataset.state === "done", run, { timeout: 120000 });
      // The list draws only the rows in view: the text at the top, then at the bottom.
      return page.evaluate(async () => {
        const list = document.getElementById("list");
        const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        list.scrollTop = 0;
        await frame();
        let text = list.innerText;
        list.scrollTop = list.scrollHeight;
        await frame();
        text += "\n" + list.innerText;
        return { rows: Number(document.body.dataset.rows), counts: document.getElementById("sum-counts").textContent, text };
      });
    };
    const tools = Array.from({ length: 6000 }, (_, i) => `mcp__server_${i % 40}__tool_number_${i}`);
    const init = JSON.stringify({ type: "system", subtype: "init", model: "claude-sonnet-4-5", session_id: "s1", tools });
    assert.ok(init.length > 200000, "the init line is longer than the first slice");
    const answer = JSON.stringify({ type: "assistant", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "after the long init" }] }, session_id: "s1" });
    let r = await open("long-init.jsonl", `${init}\n${answer}\n`);
    assert.match(r.counts, /batched/, `the sliced path: ${r.counts}`);
    assert.match(r.text, /after the long init/);

    const big = "x".repeat(20 << 20);
    r = await open("middle-20mib.txt", `first line\n${big}\nlast line\n`);
    assert.match(r.counts, /batched/, r.counts);
    assert.match(r.text, /first line/);
    assert.match(r.text, /over the 16 MB limit/);
    assert.equal(r.rows, 4, r.counts);
    assert.match(r.text, /last line/);

    r = await open("one-line-20mib.txt", big);
    assert.match(r.text, /over the 16 MB limit/);
    assert.doesNotMatch(r.counts, /^0 lines/, r.counts);

    const row = (seq, chunk) => JSON.stringify({ ts: "2026-01-01T00:00:00.000Z", stream: "stdout", chunk, seq });
    r = await open("run-log.jsonl", [row(1, init + "\n"), row(2, answer + "\n")].join("\n") + "\n");
    assert.match(r.counts, /Paperclip run log/, r.counts);
    assert.match(r.text, /after the long init/);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
