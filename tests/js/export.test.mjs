// The viewer's Markdown export (www/export.js) writes what an agent printed into a .md
// file; opened in a renderer that allows HTML, nothing in it may run.
import test from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { root } from "./host.mjs";

const { inert, toMarkdown, toJson, toMarkdownBlob, toJsonBlob } = await import(pathToFileURL(resolve(root, "www/export.js")).href);
const { Transcript } = await import(pathToFileURL(resolve(root, "www/model.js")).href);

const HOSTILE = [
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "[click](javascript:alert(1))",
  "[click]( JaVa&#115;cript&colon;alert(1))",
  "[click](vbscript:msgbox(1))",
  "[click](data:text/html;base64,PHNjcmlwdD4=)",
  "[ref]: javascript:alert(1)",
  "<javascript:alert(1)>",
];

test("raw HTML and script links in agent text are inert in the Markdown export", () => {
  const ts = "2026-01-01T00:00:00.000Z";
  const t = new Transcript();
  const entries = HOSTILE.flatMap((h) => [
    { kind: "assistant", ts, text: `before ${h} after` },
    { kind: "user", ts, text: h },
    { kind: "thinking", ts, text: h },
    { kind: "result", ts, text: h, inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, subtype: "success", isError: true, errors: [h] },
  ]);
  t.add(entries, entries.map((_, i) => i), entries.map(() => 1));
  const md = toMarkdown(t, "hostile");
  assert.doesNotMatch(md, /(^|[^\\])<(img|script|javascript)/im, "raw HTML or an autolink survived");
  for (const line of md.split("\n")) {
    assert.doesNotMatch(line, /(^|[^\\])\]\(\s*(javascript|vbscript|data|java&#115;cript)/i, `a script link survived: ${line}`);
    assert.doesNotMatch(line, /^(> )?\[ref\]:/, `a script link definition survived: ${line}`);
  }
});

test("what is not hostile is left as written: code, safe links, relative links", () => {
  const text = "see [docs](https://example.com/a_(b)) and [here](./x.md#y), `<b>` in code\n```html\n<div>kept</div>\n```";
  assert.equal(inert(text), text);
});

test("the sliced exports (a slice at a time, as a Blob) give the one-task exports' text", async () => {
  const ts = "2026-01-01T00:00:00.000Z";
  const t = new Transcript();
  const entries = [];
  for (let i = 0; i < 500; i++) {
    entries.push({ kind: "tool_call", ts, name: "Bash", input: { command: `echo ${i}` }, toolUseId: `c${i}` },
      { kind: "tool_result", ts, toolUseId: `c${i}`, content: `${i} \`\`\` <b>`, isError: i % 7 === 0 },
      { kind: "assistant", ts, text: `step ${i} [x](javascript:alert(${i}))` });
  }
  t.add(entries, entries.map((_, i) => i), entries.map(() => 1));
  let slices = 0;
  // sliceMs 0: a slice per 64 rows, so the pieces are many.
  const opts = { sliceMs: 0, later: (f) => { slices++; setImmediate(f); } };
  assert.equal(await (await toMarkdownBlob(t, "run.log", opts)).text(), toMarkdown(t, "run.log"));
  assert.ok(slices > 10, `${slices} slices`);
  assert.equal(await (await toJsonBlob(t, opts)).text(), toJson(t));
  assert.equal(await (await toJsonBlob(new Transcript())).text(), toJson(new Transcript()));
});
