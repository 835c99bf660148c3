// The run viewer's reading features in headless Chromium (www/serve.mjs with its CSP):
// CommonMark through markdown-it as DOM; search (highlight, next/previous, "no matches");
// links to rows (#L123); copy buttons; expand/collapse all; Markdown and JSON export;
// ANSI colours; bidi controls in file names and labels; dark mode; the default parser and
// its batched path (the same rows as line by line);
// timestamps records carry (real tool durations); Paperclip stored run logs. Each test
// also requires no console error and no CSP violation. Screenshots: see viewer-page.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { viewerSession, serverUrl, frames } from "./viewer-page.mjs";
import { ECHO_PARSER, XSS, richLog, sweepRows, synthesize } from "./viewer-helpers.mjs";
import { root } from "../js/host.mjs";

const { openPage, waitState, kindCounts, shot, paste, echoPage, clean } = viewerSession(test);
const echo = (...entries) => JSON.stringify({ echo: entries });
const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const at = (ms) => new Date(T0 + ms).toISOString();


test("Markdown is CommonMark (markdown-it) built as DOM, HTML stays text", async () => {
  const { page, problems } = await echoPage();
  const text = [
    "Setext heading", "==============", "",
    "A [reference link][docs] and &amp; an entity, ***both*** nested, ~~gone~~.", "",
    "[docs]: https://example.com/ref", "",
    "- [x] a list item with `code`", "- second", "",
    "<img src=x onerror=\"document.body.dataset.pwned='md'\"> and [bad](javascript:alert(1))", "",
    "    indented code", "",
    "> quoted **bold**",
  ].join("\n");
  await paste(page, echo({ kind: "assistant", text }));
  const md = await page.$eval("#list .md", (box) => ({
    h1: box.querySelector("h1")?.textContent,
    href: [...box.querySelectorAll("a")].map((a) => a.getAttribute("href")),
    amp: box.querySelector("p:nth-of-type(1)")?.textContent,
    nested: box.querySelectorAll("em > strong, strong > em").length,
    del: box.querySelector("s, del")?.textContent,
    li: box.querySelectorAll("ul > li").length,
    code: box.querySelector("li code")?.textContent,
    pre: box.querySelector("pre code")?.textContent,
    quote: box.querySelector("blockquote strong")?.textContent,
    bad: box.querySelectorAll("img, script, [onerror]").length,
    text: box.textContent,
  }));
  assert.equal(md.h1, "Setext heading");
  assert.deepEqual(md.href, ["https://example.com/ref"]);
  assert.ok(md.amp.includes("& an entity") && !md.amp.includes("&amp;"), md.amp);
  assert.equal(md.nested, 1);
  assert.equal(md.del, "gone");
  assert.equal(md.li, 2);
  assert.equal(md.code, "code");
  assert.equal(md.pre, "indented code");
  assert.equal(md.quote, "bold");
  assert.equal(md.bad, 0);
  assert.ok(md.text.includes("<img src=x onerror=") && md.text.includes("[bad](javascript:alert(1))"), md.text);
  assert.equal(await page.evaluate(() => document.body.dataset.pwned ?? null), null);
  await clean(page, problems);
});

test("long Markdown is shown in pieces: each \"show more\" adds the next one, to the end", async () => {
  const paras = Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1} with **bold** words and \`code\` ${"lorem ipsum ".repeat(6)}`);
  const text = paras.join("\n\n") + "\n\nTHE END";
  assert.ok(text.length > 30000);
  const { page, problems } = await echoPage();
  await paste(page, echo({ kind: "assistant", text }));
  const state = () => page.$eval("#list .assistant .md", (md) => ({
    paras: md.querySelectorAll("p").length,
    last: [...md.querySelectorAll("p")].pop()?.textContent ?? "",
    more: md.querySelector("button.more")?.textContent ?? null,
  }));
  const first = await state();
  assert.ok(first.paras > 20 && first.paras < 100, `first piece: ${first.paras} paragraphs`);
  assert.match(first.more, /^show more \([\d,]+ more characters\)$/);
  let seen = first.paras;
  let clicks = 0;
  for (let s = first; s.more; s = await state()) {
    await page.click("#list .assistant .md button.more");
    await frames(page);
    const next = await state();
    assert.ok(next.paras > seen, `click ${++clicks} added paragraphs (${seen} -> ${next.paras})`);
    seen = next.paras;
    if (!next.more) break;
  }
  const end = await state();
  assert.equal(end.more, null);
  assert.equal(end.paras, 401, "every paragraph once, none doubled at a cut");
  assert.equal(end.last, "THE END");
  assert.ok(clicks >= 2, `${clicks} clicks`);
  // A search marks matches in the pieces a click adds, too (the same text parsed afresh,
  // with the search set: only the first piece is shown, no match in it yet).
  await page.fill("#search", "the end");
  await paste(page, echo({ kind: "assistant", text }));
  await page.waitForSelector("#list .assistant .md button.more");
  assert.equal(await page.$$eval("#list .assistant mark", (ms) => ms.length), 0);
  for (let k = 0; k < 20 && (await page.$("#list .assistant .md button.more")); k++) {
    await page.click("#list .assistant .md button.more");
    await frames(page);
  }
  assert.deepEqual(await page.$$eval("#list .assistant mark", (ms) => ms.map((m) => m.textContent)), ["THE END"]);
  await clean(page, problems);
});

test("long code and long tables stay code and tables across the pieces of a long text", async () => {
  const code = Array.from({ length: 700 }, (_, i) => (i % 50 === 0 ? "\n" : "") + `# comment ${i}, not a heading\nx_${i} = ${i}`).join("\n");
  const table = "| n | square |\n|---|---:|\n" + Array.from({ length: 1500 }, (_, i) => `| ${i} | ${i * i} |`).join("\n");
  const text = "Intro.\n\n```python\n" + code + "\n```\n\nBetween.\n\n" + table + "\n\nOutro.";
  assert.ok(code.length > 3 * 5000 && table.length > 2 * 10000);
  const { page, problems } = await echoPage();
  await paste(page, echo({ kind: "assistant", text }));
  for (let k = 0; k < 40 && (await page.$("#list .assistant .md button.more")); k++) {
    await page.click("#list .assistant .md button.more");
    await frames(page);
  }
  const got = await page.$eval("#list .assistant .md", (md) => ({
    more: !!md.querySelector("button.more"),
    pieces: md.querySelectorAll(":scope > .piece").length,
    headings: md.querySelectorAll("h1, h2, h3, h4, h5, h6").length,
    codeLines: [...md.querySelectorAll("pre code")].map((c) => c.textContent).join("\n").split("\n").filter((l) => /^x_\d+ = \d+$/.test(l)).length,
    rows: [...md.querySelectorAll("tbody tr")].map((tr) => tr.firstElementChild.textContent),
    pipes: [...md.querySelectorAll("p")].filter((p) => p.textContent.includes("|")).length,
    outro: [...md.querySelectorAll("p")].pop().textContent,
  }));
  assert.equal(got.more, false);
  assert.ok(got.pieces >= 4, `${got.pieces} pieces`);
  assert.equal(got.headings, 0, "comment lines inside the fence never become headings");
  assert.equal(got.codeLines, 700, "every code line is in a code block");
  assert.deepEqual(got.rows, Array.from({ length: 1500 }, (_, i) => String(i)), "every table row is a row, once");
  assert.equal(got.pipes, 0, "no table row shown as a paragraph");
  assert.equal(got.outro, "Outro.");
  await clean(page, problems);
});

test("search highlights matches, steps through them and says when nothing matches", async () => {
  const { page, problems } = await echoPage();
  const lines = [];
  for (let i = 0; i < 300; i++) lines.push(echo({ kind: i % 3 ? "stdout" : "assistant", text: `row ${i}${i % 50 === 7 ? " needle here, NEEDLE again" : ""}` }));
  await paste(page, lines.join("\n"));
  await page.fill("#search", "needle");
  await page.waitForFunction(() => document.getElementById("match-pos").textContent === "6 matching rows");
  assert.equal(await page.$eval("#match-count", (e) => e.textContent), "6 of 300 rows");
  const marks = await page.$$eval("#list mark.hit", (m) => m.map((x) => x.textContent));
  assert.ok(marks.length >= 2 && marks.every((m) => m.toLowerCase() === "needle"), String(marks));
  await page.click("#search-next");
  await page.waitForFunction(() => document.getElementById("match-pos").textContent === "match 1 of 6");
  await page.press("#search", "Enter");
  await page.waitForFunction(() => document.getElementById("match-pos").textContent === "match 2 of 6");
  await page.waitForFunction(() => /row 57 needle/.test(document.querySelector("#list .vl-row.current")?.textContent));
  await page.press("#search", "Shift+Enter");
  await page.press("#search", "Shift+Enter");
  await page.waitForFunction(() => document.getElementById("match-pos").textContent === "match 6 of 6");
  await page.waitForFunction(() => /row 257 needle/.test(document.querySelector("#list .vl-row.current")?.textContent));
  await shot(page, "viewer-search.png");
  await page.fill("#search", "no-such-thing");
  await page.waitForFunction(() => !document.getElementById("no-match").hidden);
  assert.equal(await page.$eval("#no-match", (e) => e.textContent), "No matches for “no-such-thing” (300 rows searched).");
  assert.equal(await page.$eval("#search-next", (e) => e.disabled), true);
  await page.fill("#search", "");
  await page.waitForFunction(() => document.getElementById("no-match").hidden && document.querySelectorAll("#list mark").length === 0);
  await clean(page, problems);
});

test("#L<n> opens the log at that line; every row links to itself", async () => {
  const lines = [];
  for (let i = 0; i < 400; i++) lines.push(echo({ kind: "stdout", text: `line ${i + 1}` }));
  const { page, problems } = await openPage({ parser: ECHO_PARSER });
  await page.route((u) => u.pathname === "/dist/rows.jsonl", (r) => r.fulfill({ body: lines.join("\n"), contentType: "text/plain" }));
  await page.goto(`${serverUrl()}/www/?parser=dist/test-parser.js&log=dist/rows.jsonl#L321`);
  await waitState(page, "done");
  await page.waitForFunction(() => document.body.dataset.target === "321");
  await frames(page);
  const target = await page.$eval("#list .vl-row.target", (e) => {
    const list = document.getElementById("list").getBoundingClientRect();
    const r = e.getBoundingClientRect();
    return { text: e.textContent, visible: r.top >= list.top - 1 && r.bottom <= list.bottom + 1, href: e.querySelector("a.ln").getAttribute("href") };
  });
  assert.match(target.text, /line 321(?!\d)/);
  assert.ok(target.visible, "the target row is on screen");
  assert.equal(target.href, "#L321");
  // Clicking another row's L-number moves the hash and the mark.
  // (A link on screen: one in the overscan would be scrolled to first, and the list may
  // render other rows under the pointer meanwhile.)
  const other = await page.$$eval("#list .vl-row a.ln", (as) => {
    const box = document.getElementById("list").getBoundingClientRect();
    const onScreen = (a) => { const r = a.getBoundingClientRect(); return r.top >= box.top + 20 && r.bottom <= box.bottom - 20; };
    return as.filter(onScreen).map((a) => a.getAttribute("href")).find((h) => h !== "#L321");
  });
  assert.ok(other, "another row's link on screen");
  await page.click(`#list a.ln[href="${other}"]`);
  await page.waitForFunction((h) => document.body.dataset.target === h.slice(2), other);
  assert.equal(await page.evaluate(() => location.hash), other);
  await clean(page, problems);
});

test("copy buttons copy the whole text, input and result; expand and collapse all", async () => {
  const { page, problems } = await echoPage({ context: { permissions: ["clipboard-read", "clipboard-write"] } });
  const long = "long ".repeat(6000); // past the first 20,000 characters shown
  await paste(page, [
    echo({ kind: "tool_call", name: "Bash", input: { command: "ls" }, toolUseId: "a" }),
    echo({ kind: "tool_result", toolUseId: "a", content: "file1\nfile2", isError: false }),
    echo({ kind: "tool_call", name: "Read", input: { file_path: "/x" }, toolUseId: "b" }),
    echo({ kind: "thinking", text: "pondering" }),
    echo({ kind: "assistant", text: "**answer** " + long }),
  ].join("\n"));
  const clip = () => page.evaluate(() => navigator.clipboard.readText());
  await page.click("#list .assistant button.copy");
  await page.waitForFunction(() => document.querySelector("#list .assistant button.copy").dataset.copied === "1");
  assert.equal(await clip(), "**answer** " + long);
  await page.click("#expand-all");
  await page.waitForFunction(() => document.querySelectorAll("#list details.tool[open]").length === 2 && document.querySelectorAll("#list details.thinking[open]").length === 1);
  const labels = await page.$$eval("#list .card-body .label button.copy", (b) => b.length);
  assert.equal(labels, 3, "input, result, input");
  await page.click("#list details.tool .card-body .label:nth-of-type(1) button.copy");
  assert.equal(await clip(), '{\n  "command": "ls"\n}');
  const result = await page.$$("#list details.tool .card-body .label button.copy");
  await result[1].click();
  await page.waitForFunction(async () => (await navigator.clipboard.readText()) === "file1\nfile2");
  await shot(page, "viewer-expanded.png");
  await page.click("#collapse-all");
  await page.waitForFunction(() => document.querySelectorAll("#list details[open]").length === 0);
  await clean(page, problems);
});

test("the transcript exports as Markdown and as JSON", async () => {
  const { page, problems } = await echoPage();
  const { lines, expect } = richLog();
  await paste(page, lines.join("\n"));
  const save = async (id) => {
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click(id)]);
    return { name: dl.suggestedFilename(), text: readFileSync(await dl.path(), "utf8") };
  };
  const json = await save("#export-json");
  assert.equal(json.name, "pasted_text.transcript.json");
  const entries = JSON.parse(json.text);
  const sum = await page.$eval("#sum-counts", (e) => e.textContent);
  assert.ok(sum.includes(`${entries.length} entries`), `${entries.length} vs ${sum}`);
  assert.equal(entries.filter((e) => e.kind === "tool_call").length, 3);
  assert.ok(entries.some((e) => e.kind === "assistant" && e.text === "Streaming answer " + XSS[2]), "deltas merged in the export");
  const md = await save("#export-md");
  assert.equal(md.name, "pasted_text.transcript.md");
  assert.equal((md.text.match(/^\*\*tool\*\* /gm) || []).length, expect.tool);
  assert.ok(md.text.startsWith("# Transcript: pasted text\n"));
  assert.ok(md.text.includes("**tool** Bash · ok (1.2 s)"), "tool line with its duration (the name escaped as plain text)");
  assert.ok(md.text.includes("```diff\n--- a/src/main.rs\n@@ -1,2 +1,2 @@"), "diff block");
  assert.ok(md.text.includes("**result** · success · in 1,200 · out 345"));
  await clean(page, problems);
});

test("ANSI colours are rendered as fixed classes; other escapes dropped", async () => {
  const { page, problems } = await echoPage();
  const ESC = "\x1b";
  await paste(page, [
    `${ESC}[31mred${ESC}[0m plain ${ESC}[1;32mbold green${ESC}[0m`,
    `${ESC}[38;5;208morange256${ESC}[0m ${ESC}[48;2;10;20;30mtruecolor bg${ESC}[0m`,
    `${ESC}]0;window title${ESC}\\${ESC}[2Kcleared ${ESC}[4munder${ESC}[24m done`,
    echo({ kind: "tool_call", name: "Bash", input: { command: "make" }, toolUseId: "c" }),
    echo({ kind: "tool_result", toolUseId: "c", content: `${ESC}[33mwarning:${ESC}[0m unused <b onmouseover=x>`, isError: false }),
  ].join("\n"));
  await page.click("#expand-all");
  await page.waitForFunction(() => document.querySelector("#list details.tool[open] .card-body"));
  const r = await page.evaluate(() => {
    const spans = [...document.querySelectorAll("#list pre span.ansi")];
    return {
      spans: spans.map((s) => [s.className, s.textContent, s.style.color, s.style.backgroundColor]),
      esc: document.getElementById("list").textContent.includes("\x1b"),
      other: document.querySelectorAll("#list pre *:not(span):not(mark)").length,
      title: document.getElementById("list").textContent.includes("window title"),
    };
  });
  assert.deepEqual(r.spans, [
    ["ansi ansi-fg-1", "red", "", ""],
    ["ansi ansi-b ansi-fg-2", "bold green", "", ""],
    ["ansi", "orange256", "rgb(255, 135, 0)", ""],
    ["ansi", "truecolor bg", "", "rgb(10, 20, 30)"],
    ["ansi ansi-u", "under", "", ""],
    ["ansi ansi-fg-3", "warning:", "", ""],
  ]);
  assert.equal(r.esc, false);
  assert.equal(r.title, false);
  assert.equal(r.other, 0);
  await shot(page, "viewer-ansi.png");
  await clean(page, problems);
});

test("bidi controls in a file name and in labels are isolated and shown", async () => {
  const { page, problems } = await echoPage();
  const RLO = "\u202E";
  const line = echo({ kind: "tool_call", name: `Read${RLO}evil`, input: { file_path: `/tmp/${RLO}gnp.exe` }, toolUseId: "r" });
  await page.setInputFiles("#file", { name: `report${RLO}lmth.jsonl`, mimeType: "text/plain", buffer: Buffer.from(line + "\n" + `text with ${RLO}reversed tail\n`) });
  await waitState(page, "done");
  const r = await page.evaluate(() => ({
    source: document.getElementById("source").textContent,
    name: document.querySelector("#list .tool-name").textContent,
    brief: document.querySelector("#list .tool-brief").textContent,
    pre: getComputedStyle(document.querySelector("#list .stdout pre")).unicodeBidi,
    label: getComputedStyle(document.querySelector("#list .tool-brief")).unicodeBidi,
    src: getComputedStyle(document.getElementById("source")).unicodeBidi,
  }));
  assert.ok(r.source.startsWith("report⟪RLO⟫lmth.jsonl ("), r.source);
  assert.equal(r.name, "Read⟪RLO⟫evil");
  assert.equal(r.brief, "/tmp/⟪RLO⟫gnp.exe");
  assert.equal(r.pre, "plaintext");
  assert.equal(r.label, "isolate");
  assert.equal(r.src, "isolate");
  await clean(page, problems);
});

test("dark mode follows prefers-color-scheme", async () => {
  const { page, problems } = await openPage({ parser: ECHO_PARSER, context: { colorScheme: "dark" } });
  await page.goto(`${serverUrl()}/www/?parser=dist/test-parser.js`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  await paste(page, richLog().lines.join("\n"));
  await page.$$eval("#list details.tool", (els) => els.slice(0, 2).forEach((d) => { d.open = true; }));
  await frames(page);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, "rgb(20, 23, 28)");
  await shot(page, "viewer-dark.png");
  await clean(page, problems);
});

test("the default parser is the npm entry, read in slices; the host's ./ui-parser file is one pick away", async () => {
  const pkg = JSON.parse(readFileSync(new URL("../../pkg-template/package.json", import.meta.url), "utf8"));
  const host = pkg.exports["./ui-parser"].replace(/^\.\//, "");
  const { page, problems } = await openPage();
  await page.goto(`${serverUrl()}/www/`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  assert.equal(await page.$eval("#parser", (s) => s.value), "dist/index.cjs");
  assert.match(await page.$eval("#parser-status", (e) => e.textContent), /parseBatch/);
  assert.ok((await page.$$eval("#parser option", (os) => os.map((o) => o.value))).includes(host));
  await clean(page, problems);
});

// The batched path (the npm entry: slices of the file, one call each, answers as JSON text)
// gives the rows the host's stateful file gives line by line, on real logs with and without
// timestamps of their own, cut into many slices (a multi-slice file: the logs repeated).
test("a file read in slices gives the rows of the line-by-line path", async () => {
  const files = ["claude/session-spotter-tool_heavy.jsonl", "claude/stream-hivemind-background-default.jsonl", "codex/agentcmd-rollout-2025-09-25T15-12-14.jsonl"];
  const dir = mkdtempSync(join(tmpdir(), "viewer-batch-"));
  try {
    for (const f of files) {
      const text = readFileSync(new URL(`../fixtures/${f}`, import.meta.url), "utf8");
      const file = join(dir, f.replace("/", "-"));
      // Past the first slice (64 KiB) and the second (2 MiB): every cut between slices.
      const lines = text.split("\n").filter((l) => l.trim());
      writeFileSync(file, synthesize(lines, Math.ceil((3 << 20) / text.length) * lines.length).join("\n") + "\n");
      const seen = {};
      for (const parser of ["dist/index.cjs", "dist/ui-parser.js"]) {
        const { page, problems } = await openPage();
        await page.goto(`${serverUrl()}/www/?parser=${parser}`);
        await page.waitForFunction(() => document.body.dataset.parser === "ready");
        await page.setInputFiles("#file", file);
        await waitState(page, "done", 120000);
        // The run's usage comes from the worker after the parse (npm entry: summarizeUsage).
        if (parser === "dist/index.cjs") await page.waitForFunction(() => !!document.body.dataset.usage);
        seen[parser] = {
          counts: await kindCounts(page),
          rows: await page.evaluate(() => Number(document.body.dataset.rows)),
          mode: await page.$eval("#sum-counts", (e) => e.textContent.match(/\((state[^)]*)\)/)?.[1]),
          summary: await page.$eval("#sum-result", (e) => e.textContent),
        };
        await clean(page, problems);
      }
      const [batched, perLine] = [seen["dist/index.cjs"], seen["dist/ui-parser.js"]];
      assert.equal(batched.mode, "stateful, batched", f);
      assert.equal(perLine.mode, "stateful", f);
      assert.ok(batched.rows > 0, f);
      // The header's totals: the host's sums from the host's file (it has no summarizeUsage),
      // the one-meaning usage with its cost stated or estimated from the npm entry.
      assert.deepEqual({ ...batched, mode: 0, summary: 0 }, { ...perLine, mode: 0, summary: 0 }, f);
      const results = (s) => s.match(/sum of ([\d,]+) results/)?.[1];
      assert.equal(results(batched.summary), results(perLine.summary), f);
      const stated = f.includes("stream-");
      if (perLine.summary === "") assert.equal(batched.summary, "", f);
      else assert.match(batched.summary, stated ? / · \$\d+\.\d{4}( · |$)/ : / · ≈ \$\d+\.\d{4}( · |$)/, `${f}: ${batched.summary}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("timestamps records carry give real tool durations; synthetic ones give none", async () => {
  const { page, problems } = await echoPage();
  await paste(page, [
    JSON.stringify({ timestamp: at(0), echo: [{ kind: "tool_call", name: "Bash", input: { command: "sleep 2" }, toolUseId: "s" }] }),
    JSON.stringify({ timestamp: T0 + 2500, echo: [{ kind: "tool_result", toolUseId: "s", content: "", isError: false }] }),
    echo({ kind: "tool_call", name: "Bash", input: { command: "no ts" }, toolUseId: "n" }),
    echo({ kind: "tool_result", toolUseId: "n", content: "", isError: false }),
  ].join("\n"));
  const cards = await page.$$eval("#list details.tool", (els) => els.map((d) => [d.querySelector(".tool-brief").textContent, d.querySelector(".dur")?.textContent ?? null, d.querySelector(".dur")?.title ?? null]));
  assert.deepEqual(cards, [
    ["sleep 2", "2.5 s", "from the timestamps of the call's and the result's lines"],
    ["no ts", null, null],
  ]);
  await clean(page, problems);
});

// A Paperclip stored run log: rows {ts, stream, chunk, seq?}; see docs/runlog.md for the rules.
function runLog() {
  const call = echo({ kind: "tool_call", name: "Bash", input: { command: "make test" }, toolUseId: "m" });
  const result = echo({ kind: "tool_result", toolUseId: "m", content: "ok", isError: false });
  const said = echo({ kind: "assistant", text: "hello world" });
  const row = (seq, ms, stream, chunk) => JSON.stringify(seq === null ? { ts: at(ms), stream, chunk } : { ts: at(ms), stream, chunk, seq });
  return [
    row(1, 0, "system", "[paperclip] run started\n"),
    row(3, 1500, "stdout", call.slice(20) + "\n" + said.slice(0, 25)), // seq 3 before seq 2 in the file
    row(2, 1000, "stdout", call.slice(0, 20)), // the call's line BEGINS here (ts 1.0 s)
    row(4, 2000, "stderr", "warn: first\r\nwarn: sec"),
    row(null, 2500, "stdout", said.slice(25) + "\n"), // no seq: keeps its place
    row(5, 4000, "stdout", result + "\n"),
    row(6, 5000, "stderr", "ond\n"),
    row(7, 6000, "stdout", "tail without newline"),
  ].join("\n");
}

test("a Paperclip stored run log is read directly: chunks joined per stream, in seq order, each line with its row's ts", async () => {
  const { page, problems } = await echoPage();
  await paste(page, runLog());
  const counts = await kindCounts(page);
  assert.equal(counts.system, 1);
  assert.equal(counts.stderr, 2);
  assert.equal(counts.tool, 1);
  assert.equal(counts.assistant, 1);
  assert.equal(counts.stdout, 1);
  assert.match(await page.$eval("#sum-counts", (e) => e.textContent), /Paperclip run log/);
  const rows = await sweepRows(page);
  const text = (cls) => rows.filter((r) => r.cls.includes(cls)).map((r) => r.text);
  assert.deepEqual(text("stderr").map((t) => t.replace(/copy|L\d+/g, "").replace(/^stderr/, "")), ["warn: first", "warn: second"]);
  assert.ok(text("assistant")[0].includes("hello world"));
  assert.ok(text("stdout")[0].includes("tail without newline"));
  // The call began in the seq-2 row (file line 3, ts +1.0 s), the result in seq 5 (+4.0 s).
  const card = await page.$eval("#list details.tool", (d) => [d.querySelector(".dur").textContent, d.querySelector("a.ln").textContent]);
  assert.deepEqual(card, ["3.0 s", "L3"]);
  const ts = await page.$eval("#list .assistant .ts", (e) => e.textContent);
  assert.equal(ts, "10:00:01.500");
  await shot(page, "viewer-runlog.png");
  await clean(page, problems);
});

test("run-log rows without seq stay after what was written before them; other lines are kept whole", async () => {
  // docs/runlog.md rule 2, on the same rows as tests/cli.rs's
  // run_log_rows_without_seq_stay_after_what_was_written_before_them.
  const row = (seq, s, stream, chunk) => JSON.stringify(seq === null ? { ts: at(s * 1000), stream, chunk } : { ts: at(s * 1000), stream, chunk, seq });
  const junk = "not a row at all " + "x".repeat(300);
  const log = [
    row(1, 1, "stdout", "one\n"),
    row(3, 3, "stdout", "three\n"),
    row(null, 4, "stderr", "no seq, written after three\n"),
    row(2, 2, "stdout", "two\n"),
    junk,
    row(4, 5, "stdout", "four\n"),
  ].join("\n");
  const { page, problems } = await echoPage();
  await paste(page, log);
  const rows = await sweepRows(page);
  const said = rows.map((r) => ["no seq", "not a row", "one", "two", "three", "four"].find((w) => r.text.includes(w)));
  assert.deepEqual(said, ["one", "two", "three", "no seq", "not a row", "four"]);
  assert.ok(rows[3].cls.includes("stderr"));
  // The line that is not a row: a stdout entry, whole, with the ts of the row before it.
  assert.ok(rows[4].cls.includes("stdout") && rows[4].text.includes(junk), rows[4].text);
  // Each row links to the file line its text began in.
  assert.deepEqual(rows.map((r) => r.text.match(/L(\d+)/)[1]), ["1", "4", "2", "3", "5", "6"]);
  // The exported entries are what `agentlines parse` gives for this log (tests/cli.rs).
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#export-json")]);
  const entries = JSON.parse(readFileSync(await dl.path(), "utf8")).map((e) => [e.kind, e.ts, e.text]);
  assert.deepEqual(entries, [
    ["stdout", at(1000), "one"],
    ["stdout", at(2000), "two"],
    ["stdout", at(3000), "three"],
    ["stderr", at(4000), "no seq, written after three"],
    ["stdout", at(2000), junk],
    ["stdout", at(5000), "four"],
  ]);
  await clean(page, problems);
});

test("a run log of real Claude stream-json, split mid-line, parses with the real parser", async () => {
  const src = readFileSync(new URL("../fixtures/claude/doc-sdk-messages.jsonl", import.meta.url), "utf8");
  const rows = [];
  for (let i = 0, seq = 0; i < src.length; i += 700, seq++) {
    rows.push(JSON.stringify({ ts: at(seq * 250), stream: "stdout", chunk: src.slice(i, i + 700), seq }));
  }
  const { page, problems } = await openPage();
  await page.goto(`${serverUrl()}/www/?parser=dist/ui-parser.js`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  await paste(page, rows.join("\n"));
  const direct = await openPage();
  await direct.page.goto(`${serverUrl()}/www/?parser=dist/ui-parser.js`);
  await direct.page.waitForFunction(() => document.body.dataset.parser === "ready");
  await paste(direct.page, src);
  const a = await kindCounts(page);
  const b = await kindCounts(direct.page);
  assert.deepEqual(a, b, "the same rows as the plain log");
  assert.ok(a.tool > 0 && a.assistant > 0);
  await direct.page.close();
  await clean(page, problems);
});

// The File System Access API's picker cannot be driven headless: it is stood in for by a real
// FileSystemFileHandle of the origin's private file system, which the test grows. A real disk
// file's snapshot stops reading once the file changes (Chromium's NotReadableError); the
// handle given here can be told to answer that way once (window.__notReadable).
async function followPage() {
  const { page, problems } = await openPage();
  await page.addInitScript(() => {
    window.showOpenFilePicker = async () => {
      const real = await (await navigator.storage.getDirectory()).getFileHandle("grow.jsonl", { create: true });
      return [{
        getFile: async () => {
          const f = await real.getFile();
          if (!window.__notReadable) return f;
          window.__notReadable = false;
          const gone = async () => { throw new DOMException("the file changed", "NotReadableError"); };
          return { name: f.name, size: f.size, slice: () => ({ arrayBuffer: gone }) };
        },
      }];
    };
  });
  await page.goto(`${serverUrl()}/www/`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  const write = (text, keep) => page.evaluate(async ([text, keep]) => {
    const h = await (await navigator.storage.getDirectory()).getFileHandle("grow.jsonl", { create: true });
    const w = await h.createWritable({ keepExistingData: keep });
    if (keep) await w.seek((await h.getFile()).size);
    await w.write(text);
    await w.close();
  }, [text, keep]);
  return { page, problems, write };
}

const listText = (page) => page.$eval("#list", (e) => e.textContent);

test("follow a file: the lines a growing file gains are shown as they come, on the same stateful parser", async () => {
  const { page, problems, write } = await followPage();
  // A real Claude Code session file: the `LS` call on line 5, its result on line 6, the answer
  // ("…readme.md") on line 7.
  const lines = readFileSync(join(root, "tests", "fixtures", "claude", "session-happy-1-continue-run-ls-tool.jsonl"), "utf8").split("\n").filter(Boolean);
  await write(lines.slice(0, 5).join("\n") + "\n" + lines[5].slice(0, 300), false); // the result line begun
  assert.equal(await page.$eval("#follow-file", (b) => b.hidden), false);
  await page.click("#follow-file");
  await waitState(page, "done");
  await page.waitForFunction(() => document.body.dataset.tail === "on");
  assert.equal((await kindCounts(page)).tool, 1);
  assert.doesNotMatch(await listText(page), /readme\.md/);
  // One look finds the file changed under its snapshot: tried again at the next one.
  await page.evaluate(() => { window.__notReadable = true; });
  // The file grows: the rest of the result line and the answer.
  await write(lines[5].slice(300) + "\n" + lines[6] + "\n", true);
  await page.waitForFunction(() => document.body.dataset.tailLines === "2", null, { timeout: 10000 });
  await page.waitForFunction(() => /readme\.md/.test(document.getElementById("list").textContent), null, { timeout: 10000 });
  assert.equal((await kindCounts(page)).tool, 1, "the result joined its call's card");
  assert.match(await page.$eval("#sum-counts", (e) => e.textContent), /following: 2 lines added/);
  // The parser that read the call read its result: it named the result's tool (a fresh
  // parser would not know it).
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#export-json")]);
  const entries = JSON.parse(readFileSync(await dl.path(), "utf8"));
  const result = entries.find((e) => e.kind === "tool_result");
  assert.equal(result?.toolName, "LS", JSON.stringify(result));
  // Truncated (a rotated log): read again from the start.
  const run = await page.evaluate(() => document.body.dataset.run);
  await write(lines[0] + "\n" + lines[1] + "\n", false);
  await page.waitForFunction((r) => document.body.dataset.run !== r, run, { timeout: 10000 });
  await waitState(page, "done");
  assert.equal((await kindCounts(page)).tool, 0);
  await clean(page, problems);
});

test("follow a file: a last line without its newline is shown once the file stops there; if it goes on, the file is read again", async () => {
  const { page, problems, write } = await followPage();
  const lines = readFileSync(join(root, "tests", "fixtures", "claude", "session-happy-1-continue-run-ls-tool.jsonl"), "utf8").split("\n").filter(Boolean);
  await write(lines.slice(0, 5).join("\n") + "\n" + lines[5] + "\n" + lines[6], false); // no final newline
  await page.click("#follow-file");
  await waitState(page, "done");
  await page.waitForFunction(() => /readme\.md/.test(document.getElementById("list").textContent), null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => document.body.dataset.tailLines), "1");
  // The line goes on after all: read again whole, the line once.
  const run = await page.evaluate(() => document.body.dataset.run);
  await write("\n" + lines[2] + "\n", true);
  await page.waitForFunction((r) => document.body.dataset.run !== r, run, { timeout: 10000 });
  await waitState(page, "done");
  await page.waitForFunction(() => /readme\.md/.test(document.getElementById("list").textContent), null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => document.body.dataset.tailLines), "0");
  assert.equal((await listText(page)).match(/readme\.md/g).length, 1);
  await clean(page, problems);
});

test("follow a file from empty: a Paperclip run log written after it opened is read as one", async () => {
  const { page, problems, write } = await followPage();
  await write("", false);
  await page.click("#follow-file");
  await waitState(page, "done");
  await page.waitForFunction(() => document.body.dataset.tail === "on");
  // The run's first rows arrive: stored-run-log rows around a real Claude session's lines.
  const lines = readFileSync(join(root, "tests", "fixtures", "claude", "session-happy-1-continue-run-ls-tool.jsonl"), "utf8").split("\n").filter(Boolean);
  const rows = lines.map((l, i) => JSON.stringify({ ts: at(i * 1000), stream: "stdout", chunk: l + "\n", seq: i + 1 }));
  const run = await page.evaluate(() => document.body.dataset.run);
  await write(rows.join("\n") + "\n", true);
  await page.waitForFunction((r) => document.body.dataset.run !== r, run, { timeout: 10000 });
  await waitState(page, "done");
  await page.waitForFunction(() => /Paperclip run log/.test(document.getElementById("sum-counts").textContent), null, { timeout: 10000 });
  assert.equal((await kindCounts(page)).tool, 1);
  await clean(page, problems);
});
