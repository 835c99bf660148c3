// The run viewer stays responsive on hostile input: with a long-task observer
// (PerformanceObserver "longtask") running on the page, every bundled sample and the hostile
// lines below are opened through the file input, parsed by the real default parser in the
// worker, then jumped through (middle, end, top), wheel-scrolled and, where a row has one,
// "show more" is clicked six times. Any long task over 200 ms fails the test. Generated inputs:
//  - amp-4mb: one 4 MB line `[{},{},…]` (1.4M entries from a parser without output caps);
//  - line-8mb: one 8 MB line of text; json-8mb: one 8 MB Claude assistant line;
//  - md-160k: 12 Claude assistant lines of 160,000 characters each that drive Markdown
//    patterns hard (headings, table separators, emphasis runs, brackets, backticks, URLs);
//  - rows-2m: 2,000,000 short lines (past Chromium's 33,554,432 px element-height cap):
//    the end is reachable (End, follow mode), the wheel moves by its own distance;
//  - the amplifier shapes of tests/hostile.rs and bench/limits.mjs (every limit): a Codex
//    file_change with 100,000 empty changes, assistant text with 200,000 ```error fences, 2,000
//    blocks under a 64 KB parent id, a 100,000-deep array and a 120-deep Claude line, a text
//    line one byte past the 16 MiB cap, 48 tool calls with 256 KB ids, and a line each with a
//    BOM, a lone surrogate escape, 1e400, __proto__ keys and bidi controls.
// The page's JS heap after each load (DevTools protocol) goes into the report too.
// Numbers go to tests/screenshots-tmp/viewer-hostile.json and the test's diagnostics.
import test from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, mkdirSync, rmSync, createWriteStream } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { once } from "node:events";
import { viewerSession, serverUrl, frames } from "./viewer-page.mjs";
import { root } from "../js/host.mjs";
import { listSamples } from "../../www/build-samples.mjs";

const { openPage, waitState, shot } = viewerSession(test);
const LIMIT_MS = 200;
const dir = join(tmpdir(), `viewer-hostile-${process.pid}`);

const claudeText = (text) => JSON.stringify({ type: "assistant", message: { id: "msg_h", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text }] }, session_id: "s" });

function mdHostile(k, n = 160000) {
  const pats = [
    () => "#".repeat(n), () => "# " + "a ".repeat(n / 2 - 2) + "#", () => "a|b\n" + "|-".repeat(n / 2 - 2),
    () => "*a ".repeat(n / 3), () => "[".repeat(n), () => "[a](".repeat(n / 4), () => "`a".repeat(n / 2),
    () => "***x*** ".repeat(n / 8), () => "http://x.com/".repeat(n / 13), () => "<".repeat(n),
    () => "| a | b |\n|---|---|\n" + "| 1 | 2 |\n".repeat(n / 10 - 2), () => "> ".repeat(n / 2),
  ];
  return pats[k % pats.length]().slice(0, n);
}

async function writeLines(file, count, lineOf) {
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) {
    if (!out.write(lineOf(i) + "\n")) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function inputs() {
  mkdirSync(dir, { recursive: true });
  const files = {};
  const put = (name, text) => { files[name] = join(dir, name); writeFileSync(files[name], text); };
  put("amp-4mb.jsonl", "[" + "{},".repeat(1398101) + "{}]\n");
  put("line-8mb.txt", "x".repeat(8 << 20) + "\n");
  put("json-8mb.jsonl", claudeText("word ".repeat((8 << 20) / 5)) + "\n");
  put("md-160k.jsonl", Array.from({ length: 12 }, (_, k) => claudeText(mdHostile(k))).join("\n") + "\n");
  const empties = (n) => Array(n).fill("{}").join(",");
  put("codex-file-change-100k.jsonl", `{"type":"item.completed","item":{"id":"i","type":"file_change","status":"completed","changes":[${empties(100000)}]}}\n`);
  put("error-fences-200k.jsonl", claudeText("```error\nx\n```\n".repeat(200000)) + "\n");
  put("parent-id-2000.jsonl", JSON.stringify({ type: "assistant", parent_tool_use_id: "p".repeat(64 << 10), message: { content: Array.from({ length: 2000 }, () => ({ type: "text", text: "hi" })) } }) + "\n");
  put("deep-nesting.jsonl", "[".repeat(100000) + "]".repeat(100000) + "\n" +
    JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "deep" }], extra: JSON.parse("[".repeat(120) + "]".repeat(120)) } }) + "\n");
  put("over-cap-16mib.txt", "y".repeat((16 << 20) + 1) + "\n");
  put("pending-48x256k.jsonl", Array.from({ length: 48 }, (_, k) => JSON.stringify({ type: "assistant", message: { id: "m" + k, role: "assistant", content: [{ type: "tool_use", id: "i".repeat(256 << 10) + k, name: "Bash", input: { command: "ls" } }] } })).join("\n") + "\n");
  put("odd-lines.jsonl", [
    "\ufeff" + JSON.stringify({ type: "user", message: { content: "after a BOM" } }),
    '{"type":"assistant","message":{"content":[{"type":"text","text":"cut \\ud83d here 1e400"}]},"n":1e400}',
    '{"type":"assistant","__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"message":{"content":[{"type":"text","text":"proto keys"}]}}',
    claudeText("name \u202Egnp.exe\u202C and \u2067isolated\u2069 text"),
    "plain \u202Ereversed\u202C text",
  ].join("\n") + "\n");
  files["rows-2m.txt"] = join(dir, "rows-2m.txt");
  await writeLines(files["rows-2m.txt"], 2000000, (i) => `plain output line ${i + 1}`);
  return files;
}

// Installs the probe: long tasks on the page since the last reset.
async function probe(page) {
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); }).observe({ type: "longtask" });
  });
}
const takeLong = (page) => page.evaluate(() => { const l = window.__long; window.__long = []; return l; });

// Jumps to the middle, the end and the top, wheel-scrolls, and clicks "show more" (six times).
async function browse(page) {
  await page.evaluate(async () => {
    const list = document.getElementById("list");
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const f of [0.5, 1, 0]) { list.scrollTop = (list.scrollHeight - list.clientHeight) * f; await frame(); }
  });
  await page.mouse.move(640, 600);
  for (let i = 0; i < 8; i++) { await page.mouse.wheel(0, 700); await frames(page); }
  // "show more" six times on one row: each click must cost one piece, not all shown so far.
  for (let k = 0; k < 6; k++) {
    const more = await page.$("#list button.more");
    if (!more) break;
    await more.click();
    await frames(page);
  }
}

test("no long task over 200 ms on any bundled sample or hostile input", async (t) => {
  const files = await inputs();
  const { page, problems } = await openPage();
  const report = {};
  try {
    await page.goto(`${serverUrl()}/www/`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    await probe(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const heapMiB = async () => Math.round((await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "JSHeapUsedSize").value / 1048576);
    const open = async (file) => {
      const t0 = Date.now();
      // Cleared first: the same file set twice in a row (the retry below) fires no change.
      const run = Number(await page.evaluate(() => { document.getElementById("file").value = ""; return document.body.dataset.run || 0; }));
      await page.setInputFiles("#file", file);
      await page.waitForFunction((r) => Number(document.body.dataset.run) > r && document.body.dataset.state === "done", run, { timeout: 600000 });
      const loadMs = Date.now() - t0;
      const loadLong = await takeLong(page);
      await browse(page);
      const browseLong = await takeLong(page);
      return { loadMs, rows: Number(await page.evaluate(() => document.body.dataset.rows)), heapMiB: await heapMiB(), loadLong, browseLong };
    };
    // One retry for an input that showed a long task: on a shared CI machine a single
    // garbage-collection pause can pass 200 ms; a task that is long twice fails. The first
    // try is kept in the report (`firstTry`) and in the diagnostics.
    const longest = (r) => Math.max(0, ...r.loadLong, ...r.browseLong);
    const openChecked = async (file) => {
      const first = await open(file);
      if (longest(first) <= LIMIT_MS) return first;
      t.diagnostic(`${file}: a ${longest(first)} ms task on the first try, opening it again`);
      return { ...(await open(file)), firstTry: first };
    };
    const samples = listSamples();
    assert.ok(samples.length > 0);
    const sampleLong = [];
    for (const s of samples) {
      const r = await openChecked(join(root, s.path));
      sampleLong.push(...r.loadLong, ...r.browseLong);
      if (Math.max(0, ...r.loadLong, ...r.browseLong) > LIMIT_MS) report[s.path] = r;
    }
    report.samples = { count: samples.length, longTasks: sampleLong.length, longest: Math.max(0, ...sampleLong) };
    const generated = ["amp-4mb.jsonl", "line-8mb.txt", "json-8mb.jsonl", "md-160k.jsonl", "codex-file-change-100k.jsonl",
      "error-fences-200k.jsonl", "parent-id-2000.jsonl", "deep-nesting.jsonl", "over-cap-16mib.txt", "pending-48x256k.jsonl",
      "odd-lines.jsonl", "rows-2m.txt"];
    assert.deepEqual(Object.keys(files).sort(), [...generated].sort(), "every generated input is opened");
    for (const name of generated) {
      report[name] = await openChecked(files[name]);
      if (name === "md-160k.jsonl") await shot(page, "viewer-md-160k.png");
      t.diagnostic(`${name}: ${JSON.stringify(report[name])}`);
    }
    // 2M rows: the content is taller than Chromium's cap, the sizer is not; End and follow
    // reach the last line, the wheel moves by its own distance.
    const big = await page.evaluate(async () => {
      const list = document.getElementById("list");
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const lastLn = () => Math.max(...[...list.querySelectorAll(".vl-row a.ln")].map((a) => Number(a.textContent.slice(1))));
      const out = { scrollHeight: list.scrollHeight };
      list.focus();
      list.dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true }));
      await frame();
      out.endLast = lastLn();
      list.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", bubbles: true }));
      await frame();
      out.homeFirst = Math.min(...[...list.querySelectorAll(".vl-row a.ln")].map((a) => Number(a.textContent.slice(1))));
      list.scrollTop = list.scrollHeight / 2;
      await frame();
      const row = [...list.querySelectorAll(".vl-row")].find((e) => e.getBoundingClientRect().top > list.getBoundingClientRect().top + 100);
      const before = row.getBoundingClientRect().top;
      list.dispatchEvent(new WheelEvent("wheel", { deltaY: 120, bubbles: true, cancelable: true }));
      await frame();
      out.wheelMoved = before - row.getBoundingClientRect().top;
      document.getElementById("follow").click();
      await frame();
      out.followLast = lastLn();
      return out;
    });
    report.rows2m = big;
    t.diagnostic(`2M rows: ${JSON.stringify(big)}`);
    await shot(page, "viewer-2m-end.png");
    assert.equal(report["rows-2m.txt"].rows, 2000000);
    assert.ok(big.scrollHeight <= 8000000, `sizer ${big.scrollHeight} px`);
    assert.equal(big.endLast, 2000000, "End reaches the last line");
    assert.equal(big.homeFirst, 1);
    assert.equal(big.followLast, 2000000, "follow reaches the last line");
    assert.ok(Math.abs(big.wheelMoved - 120) <= 2, `the wheel moved ${big.wheelMoved} px for 120`);
    assert.ok(report["amp-4mb.jsonl"].rows <= 10001, `one line gave ${report["amp-4mb.jsonl"].rows} rows`);
    assert.deepEqual(problems, []);
  } finally {
    mkdirSync(join(root, "tests", "screenshots-tmp"), { recursive: true });
    writeFileSync(join(root, "tests", "screenshots-tmp", "viewer-hostile.json"), JSON.stringify(report, null, 1) + "\n");
    await page.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const over = Object.entries(report).filter(([, r]) => r && (r.loadLong || r.browseLong) && Math.max(0, ...r.loadLong, ...r.browseLong) > LIMIT_MS);
  assert.deepEqual(over.map(([k, r]) => `${k}: ${[...r.loadLong, ...r.browseLong].join(", ")} ms`), [], "long tasks over 200 ms");
});
