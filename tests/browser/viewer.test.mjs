// The run viewer (www/) in headless Chromium, served by www/serve.mjs with its CSP:
// - the server's headers (page CSP, the worker's own CSP) and no inline script/style;
// - every bundled sample parses in the worker; the tool cards, thinking blocks, rows and
//   the result summary match counts computed here from the .expected.jsonl goldens;
// - every row type renders, and HTML in log text stays text (no element, no handler run);
// - a dropped file parses (stateless option);
// - a parser that cannot be used (scanner refusal, throw, no exports, no ready in 5 s,
//   the worker without 'unsafe-eval') falls back to one stdout entry per line, with why;
// - live tail mode starts mid-file and streams;
// - a 100k-line log parses with the page responsive (numbers reported, not asserted).
// No console errors, no CSP violations. Screenshots go to tests/screenshots-tmp/ (ignored by
// git, so a test run leaves the tree clean); VIEWER_SCREENSHOTS=docs/screenshots refreshes the
// ones the docs show, =0 skips them.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync, rmSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { viewerSession, serverUrl } from "./viewer-page.mjs";
import { root, linesOf } from "../js/host.mjs";
import { PAGE_CSP, WORKER_CSP } from "../../www/serve.mjs";
import { listSamples } from "../../www/build-samples.mjs";
import { stale as vendorStale } from "../../www/vendor.mjs";
import { ECHO_PARSER, BAD_PARSERS, XSS, richLog, expectedFromGolden, synthesize, sweepRows } from "./viewer-helpers.mjs";

const fmtInt = (n) => Math.round(n).toLocaleString("en-US");
const fmtCost = (v) => (v === 0 ? "$0" : v < 0.01 ? "$" + v.toFixed(4) : "$" + v.toFixed(2));

const { openPage, cspViolations, waitState, kindCounts, shot, paste, openSome } = viewerSession(test);
const server = { get url() { return serverUrl(); } };

test("server: CSP on the page and the worker, read-only mounts, no inline code", async () => {
  const page = await fetch(server.url + "/www/");
  assert.equal(page.status, 200);
  const csp = page.headers.get("content-security-policy");
  assert.ok(csp.includes(PAGE_CSP), csp);
  const worker = await fetch(server.url + "/www/host-worker.js");
  assert.equal(worker.headers.get("content-security-policy"), WORKER_CSP);
  assert.ok(!WORKER_CSP.includes("connect-src") && WORKER_CSP.startsWith("default-src 'none'"));
  for (const p of ["/Cargo.toml", "/tests/js/host.mjs", "/www/%2e%2e/Cargo.toml", "/dist/../Cargo.toml", "/.git/HEAD"]) {
    const r = await fetch(server.url + p);
    assert.equal(r.status, 404, p);
  }
  assert.equal((await fetch(server.url + "/www/", { method: "POST" })).status, 405);
  assert.equal((await fetch(server.url + "/dist/ui-parser.js")).status, 200, "run make dist first");
  const html = readFileSync(join(root, "www", "index.html"), "utf8");
  assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/i.test(html), "inline <script> in index.html");
  assert.ok(!/\sstyle\s*=|<style/i.test(html), "inline style in index.html");
  assert.ok(!/\son[a-z]+\s*=/i.test(html), "inline event handler in index.html");
  // No HTML sinks in the viewer's code (the page also enforces Trusted Types).
  for (const f of readdirSync(join(root, "www")).filter((f) => f.endsWith(".js"))) {
    const src = readFileSync(join(root, "www", f), "utf8");
    assert.ok(!/\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|createContextualFragment/.test(src), `HTML sink in www/${f}`);
  }
  // The vendored Markdown library is an unmodified copy of the pinned npm package (checked
  // copy, www/vendor.mjs), and has no HTML sink either (its HTML renderer is never called).
  assert.deepEqual(vendorStale(), [], "www/vendor/ is stale: npm ci && node www/vendor.mjs");
  const vendored = readFileSync(join(root, "www", "vendor", "markdown-it.mjs"), "utf8");
  assert.ok(!/\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|createContextualFragment|\beval\(|new Function\(/.test(vendored), "HTML sink or eval in the vendored markdown-it");
});

// Checks the page (showing sample `s`) against counts computed from its golden.
async function checkSample(page, s, want) {
  const label = s.path;
  assert.equal(await page.evaluate(() => document.body.dataset.parser), "ready", `${label}: parser not ready`);
  const counts = await kindCounts(page);
  assert.equal(counts.tool, want.cards, `${label}: tool cards`);
  assert.equal(counts.thinking, want.kinds.thinking || 0, `${label}: thinking blocks`);
  assert.equal(counts.assistant, want.kinds.assistant || 0, `${label}: assistant rows`);
  assert.equal(counts.diff, want.diffRows, `${label}: diff blocks`);
  assert.equal(counts.result, want.results, `${label}: results (model calls counted, though folded into notes rows)`);
  const sum = await page.$eval("#sum-counts", (e) => e.textContent);
  assert.ok(sum.includes(`${fmtInt(want.entries)} entries (${fmtInt(want.raw)} before delta merge)`), `${label}: ${sum}`);
  assert.ok(sum.includes(`${fmtInt(want.rows)} rows`), `${label}: ${sum} (want ${want.rows} rows)`);
  const result = await page.$eval("#sum-result", (e) => e.textContent);
  if (want.lastResult) {
    // The run's totals, summed the host's way.
    const r = want.resultSum;
    for (const part of [`in ${fmtInt(r.inputTokens)}`, `out ${fmtInt(r.outputTokens)}`, `cached ${fmtInt(r.cachedTokens)}`, fmtCost(r.costUsd)]) {
      assert.ok(result.includes(part), `${label}: result summary "${result}" lacks "${part}"`);
    }
  } else assert.equal(result, "", `${label}: a result summary without a result entry`);
  const model = await page.$eval("#sum-model", (e) => e.textContent);
  if (want.lastInit) assert.ok(model.includes(want.lastInit.model), `${label}: ${model}`);
  // The virtual list really renders every row, as the right kind of element.
  if (want.rows <= 4000) {
    // Every row but a subagent's (closed under its card at first).
    const seen = await sweepRows(page);
    assert.equal(seen.length, want.shownRows, `${label}: rows rendered while scrolling`);
    assert.equal(seen.reduce((n, r) => n + r.bad, 0), 0, `${label}: elements made from log text`);
    assert.equal(seen.filter((r) => /\btool\b/.test(r.cls)).length, want.shownCards, `${label}: tool card elements`);
    assert.equal(seen.filter((r) => /\bthinking\b/.test(r.cls)).length, want.shownThinking, `${label}: <details> thinking`);
    const inDom = await page.$$eval("#list .vl-row", (els) => els.length);
    if (want.rows > 200) assert.ok(inDom < want.rows, `${label}: list is not virtualized (${inDom} rows in the DOM)`);
  }
}

test("every bundled sample parses in the worker and matches its golden", async (t) => {
  const samples = listSamples().filter((s) => s.golden);
  assert.ok(samples.length > 0, "no bundled samples with goldens under tests/fixtures/");
  const shotFor = new Map(); // runtime -> the sample with the most tool cards + assistant rows
  let exercised = 0;
  // One page for all: the first sample through ?sample=, the others picked in the sample
  // list (so every run must start from a clean slate).
  const { page, problems } = await openPage();
  try {
    for (const s of samples) {
      const golden = linesOf(readFileSync(join(root, s.path.replace(/\.[^.]+$/, ".expected.jsonl")), "utf8")).map((l) => JSON.parse(l));
      const want = expectedFromGolden(golden);
      if (exercised === 0) {
        // The goldens are the stateful parser's output (the default is the stateless file).
        await page.goto(`${server.url}/www/?parser=dist/ui-parser.js&sample=${encodeURIComponent(s.path)}`);
        await waitState(page, "done");
      } else {
        const before = Number(await page.evaluate(() => document.body.dataset.run));
        await page.selectOption("#sample", s.path);
        await page.waitForFunction((b) => Number(document.body.dataset.run) > b && document.body.dataset.state === "done", before, { timeout: 60000 });
      }
      await checkSample(page, s, want);
      assert.deepEqual(problems, [], `${s.path}: console`);
      assert.deepEqual(await cspViolations(page), [], `${s.path}: CSP violations`);
      const score = want.cards + (want.kinds.assistant || 0);
      if (!shotFor.has(s.runtime) || score > shotFor.get(s.runtime).score) shotFor.set(s.runtime, { path: s.path, score });
      exercised++;
      t.diagnostic(`${s.path}: ${s.lines} lines -> ${want.entries} entries, ${want.rows} rows, ${want.cards} tool cards, ${want.kinds.thinking || 0} thinking`);
    }
  } finally {
    await page.close();
  }
  assert.ok(exercised >= 1);
  t.diagnostic(`${exercised} samples checked`);
  for (const [runtime, { path }] of shotFor) {
    const { page } = await openPage();
    await page.goto(`${server.url}/www/?sample=${encodeURIComponent(path)}`);
    await waitState(page, "done");
    await openSome(page, 2);
    await shot(page, `viewer-${runtime}.png`);
    await page.close();
  }
});

test("every row type renders; HTML in log text stays text", async () => {
  const { page, problems } = await openPage({ parser: ECHO_PARSER });
  await page.goto(`${server.url}/www/?parser=dist/test-parser.js`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  const { lines, expect } = richLog();
  await paste(page, lines.join("\n"));
  const counts = await kindCounts(page);
  for (const k of ["tool", "thinking", "diff", "assistant", "user", "init", "result", "system", "stderr", "stdout"]) {
    assert.equal(counts[k], expect[k], `${k} rows`);
  }
  assert.equal(await page.evaluate(() => document.body.dataset.rows), String(expect.rows));
  // Scroll through, opening every card and thinking block, and look at each row.
  const rows = await sweepRows(page, { open: true });
  assert.equal(rows.length, expect.rows);
  const sum = (f) => rows.reduce((n, r) => n + f(r), 0);
  const dom = {
    bad: sum((r) => r.bad),
    hrefs: rows.flatMap((r) => r.hrefs),
    text: rows.map((r) => r.text).join("\n"),
    pwned: await page.evaluate(() => document.body.dataset.pwned ?? null),
    md: Object.fromEntries(Object.keys(rows[0].md).map((k) => [k, sum((r) => r.md[k])])),
    errorCards: rows.filter((r) => /\btool\b/.test(r.cls) && /\berror\b/.test(r.cls)).length,
    pending: rows.filter((r) => /\bpending\b/.test(r.cls)).length,
    durations: rows.flatMap((r) => r.durs),
    diff: rows.flatMap((r) => r.diffs),
    merged: rows.filter((r) => /\bassistant\b/.test(r.cls)).map((r) => r.text).find((s) => s.includes("Streaming answer")) ?? null,
    thinking: rows.filter((r) => /\bthinking\b/.test(r.cls)).map((r) => r.text).join(""),
    sub: rows.filter((r) => r.text.includes("subagent")).length,
  };
  assert.equal(dom.bad, 0, "an element was created from log text");
  assert.equal(dom.pwned, null, "a handler from log text ran");
  for (const x of XSS.slice(0, 2)) assert.ok(dom.text.includes(x), `payload not shown as text: ${x}`);
  assert.deepEqual(dom.hrefs.map((h) => h[0]).sort(), ["https://example.com/docs", "https://example.org/"]);
  for (const [, rel, target] of dom.hrefs) assert.ok(rel.includes("noopener") && target === "_blank");
  assert.deepEqual(dom.md, { h1: 1, li: 2, nested: 1, code: 1, td: 2, inlineCode: 1 });
  assert.equal(dom.errorCards, 1);
  assert.equal(dom.pending, 1);
  assert.deepEqual(dom.durations, ["1.2 s", "12 ms"]);
  assert.deepEqual(dom.diff, ["d-file_header", "d-hunk", "d-remove", "d-add", "d-context"]);
  assert.ok(dom.merged && dom.merged.includes("answer <a href="), "assistant deltas not merged");
  assert.ok(dom.thinking.includes("— more thinking"), "thinking deltas not merged");
  assert.ok(dom.sub >= 1, "subagent badge");
  assert.ok((await page.$eval("#sum-result", (e) => e.textContent)).includes("in 1,200 · out 345 · cached 6,789 tokens · $0.04"));
  assert.ok((await page.$eval("#sum-model", (e) => e.textContent)).includes("claude-test-model"));
  // Search and the kind filter narrow the list.
  await page.fill("#search", "no such file");
  await page.waitForFunction(() => document.getElementById("match-count").textContent.startsWith("1 of"));
  await page.fill("#search", "");
  await page.click("#kind-filters input[value=tool]");
  await page.waitForFunction(() => document.querySelectorAll("#list details.tool").length === 0);
  await page.click("#kind-filters input[value=tool]");
  await page.evaluate(() => { document.getElementById("list").scrollTop = 0; });
  await page.$$eval("#list details.tool", (els) => els.slice(0, 2).forEach((d) => { d.open = true; d.dispatchEvent(new Event("toggle")); }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await shot(page, "viewer-kinds.png");
  assert.deepEqual(problems, []);
  assert.deepEqual(await cspViolations(page), []);
  await page.close();
});

test("HTML in real log lines stays text with the real parser", async () => {
  const { page, problems } = await openPage();
  await page.goto(`${server.url}/www/`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  const lines = [...XSS, JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: XSS.join("\n") }] } })];
  await paste(page, lines.join("\n"));
  await page.$$eval("#list details", (els) => els.forEach((d) => { d.open = true; d.dispatchEvent(new Event("toggle")); }));
  const res = await page.evaluate(() => ({
    bad: document.querySelectorAll("#list img, #list script, #list iframe, #list svg, #list [onerror], #list [onload]").length,
    links: [...document.querySelectorAll("#list a")].filter((a) => !/^https?:/.test(a.getAttribute("href")) && !(a.classList.contains("ln") && /^#L\d+$/.test(a.getAttribute("href")))).length,
    pwned: document.body.dataset.pwned ?? null,
    text: document.getElementById("list").textContent,
  }));
  assert.equal(res.bad, 0);
  assert.equal(res.links, 0);
  assert.equal(res.pwned, null);
  assert.ok(res.text.includes("onerror="), "payload text not shown");
  assert.deepEqual(problems, []);
  assert.deepEqual(await cspViolations(page), []);
  await page.close();
});

test("a dropped file, parsed statelessly", async () => {
  const s = listSamples().filter((x) => x.golden).sort((a, b) => b.lines - a.lines)[0];
  assert.ok(s, "no sample");
  const text = readFileSync(join(root, s.path), "utf8");
  const { page, problems } = await openPage();
  await page.goto(`${server.url}/www/?stateless=1`);
  await page.waitForFunction(() => document.body.dataset.parser === "ready");
  const dt = await page.evaluateHandle((t) => {
    const d = new DataTransfer();
    d.items.add(new File([t], "dropped.jsonl", { type: "text/plain" }));
    return d;
  }, text);
  await page.dispatchEvent("body", "dragenter", { dataTransfer: dt });
  assert.equal(await page.isVisible("#drop-overlay"), true, "drop overlay");
  await page.dispatchEvent("body", "drop", { dataTransfer: dt });
  await waitState(page, "done");
  assert.equal(await page.isVisible("#drop-overlay"), false);
  const sum = await page.$eval("#sum-counts", (e) => e.textContent);
  assert.ok(sum.includes(`${fmtInt(s.lines)} lines`) && sum.includes("(stateless, batched)"), sum);
  assert.ok((await page.$eval("#source", (e) => e.textContent)).startsWith("dropped.jsonl"));
  assert.deepEqual(problems, []);
  await page.close();
});

test("falls back to one stdout entry per line when the parser cannot be loaded", async (t) => {
  const three = ["first line", '{"type":"assistant"}', "third <b>line</b>"].join("\n");
  const check = async (page, stage, name) => {
    await page.waitForFunction(() => document.body.dataset.parser === "fallback", null, { timeout: 15000 });
    const reason = await page.$eval("#fallback-reason", (e) => e.textContent);
    assert.ok(reason.startsWith(stage + ":"), `${name}: reason "${reason}"`);
    await paste(page, three);
    const counts = await kindCounts(page);
    assert.equal(counts.stdout, 3, `${name}: stdout rows`);
    assert.equal(Object.values(counts).reduce((a, b) => a + b, 0), 3, `${name}: only stdout rows`);
    t.diagnostic(`${name}: ${reason}`);
    return reason;
  };
  for (const [name, bad] of Object.entries(BAD_PARSERS)) {
    const { page, problems } = await openPage({ parser: bad.source });
    await page.goto(`${server.url}/www/?parser=dist/test-parser.js`);
    await check(page, bad.stage, name);
    if (name === "throws") await shot(page, "viewer-fallback.png");
    assert.deepEqual(problems.filter((p) => !/parser exploded/.test(p)), [], name);
    assert.deepEqual(await cspViolations(page), [], name);
    await page.close();
  }
  // The worker runs under the CSP of its own response: given the page's policy (no
  // 'unsafe-eval'), the host's evaluation is refused and the viewer falls back.
  const { page } = await openPage();
  await page.route((u) => u.pathname === "/www/host-worker.js", async (route) => {
    const r = await route.fetch();
    await route.fulfill({ response: r, headers: { ...r.headers(), "content-security-policy": PAGE_CSP } });
  });
  await page.goto(`${server.url}/www/`);
  const reason = await check(page, "evaluate", "worker under the page CSP");
  assert.match(reason, /EvalError|unsafe-eval/);
  await page.close();
});

test("live tail starts mid-file and streams lines in", async () => {
  const samples = listSamples().filter((s) => s.lines >= 6);
  const s = samples.sort((a, b) => b.lines - a.lines)[0] ?? null;
  const { page, problems } = await openPage({ parser: ECHO_PARSER });
  // With no long enough sample yet, stream the echo parser's rich log instead.
  const body = s ? null : richLog().lines.join("\n");
  if (body) await page.route((u) => u.pathname === "/dist/live.jsonl", (r) => r.fulfill({ body, contentType: "text/plain" }));
  const total = s ? s.lines : richLog().lines.length;
  const src = s ? `sample=${encodeURIComponent(s.path)}` : "log=dist/live.jsonl&parser=dist/test-parser.js";
  await page.goto(`${server.url}/www/?${src}&live=1&speed=20`);
  await waitState(page, "live");
  await page.waitForFunction(() => Number(document.body.dataset.rows || 0) > 0, null, { timeout: 15000 });
  const firstLine = await page.$eval("#list .vl-row .ln", (e) => Number(e.textContent.slice(1)));
  assert.ok(firstLine > Math.floor(total / 2), `live tail should start mid-file, first row is L${firstLine} of ${total}`);
  const rows1 = Number(await page.evaluate(() => document.body.dataset.rows));
  if (s) {
    await page.waitForFunction(() => Number(document.body.dataset.rows) >= 12 || document.body.dataset.state === "done", null, { timeout: 30000 });
    await shot(page, "viewer-live.png");
  }
  await page.selectOption("#speed", "1000");
  await waitState(page, "done", 60000);
  const rows2 = Number(await page.evaluate(() => document.body.dataset.rows));
  assert.ok(rows2 >= rows1, "rows kept coming");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a 100k-line log parses in the worker with the page responsive", async (t) => {
  const samples = listSamples().filter((s) => s.lines > 0);
  assert.ok(samples.length > 0);
  // The longest real Claude stdout capture (stream-json: what the host parses; a good mix of
  // text, thinking and tool cards), else the longest sample; VIEWER_BIG_SOURCE=<path> overrides.
  const byLines = (a, b) => b.lines - a.lines || a.path.localeCompare(b.path);
  const pick = samples.find((s) => s.path === process.env.VIEWER_BIG_SOURCE) ??
    samples.filter((s) => s.runtime === "claude" && s.name.startsWith("stream-")).sort(byLines)[0] ?? samples.sort(byLines)[0];
  const base = linesOf(readFileSync(join(root, pick.path), "utf8")).filter((l) => l.trim());
  const N = 100000;
  const dir = join(tmpdir(), `viewer-100k-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "big-100k.jsonl");
  writeFileSync(file, synthesize(base, N).join("\n") + "\n");
  const { page, problems } = await openPage();
  try {
    await page.goto(`${server.url}/www/`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    // Probes: frame gaps, a 16 ms timer's lateness and long tasks while parsing.
    await page.evaluate(() => {
      const p = { gaps: [], late: [], longTasks: [], running: true };
      window.__perf = p;
      let last = performance.now();
      const frame = (now) => { p.gaps.push(now - last); last = now; if (p.running) requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
      let due = performance.now() + 16;
      p.timer = setInterval(() => { const now = performance.now(); p.late.push(Math.max(0, now - due)); due = now + 16; }, 16);
      new PerformanceObserver((l) => { for (const e of l.getEntries()) p.longTasks.push(e.duration); }).observe({ type: "longtask" });
    });
    const t0 = Date.now();
    await page.setInputFiles("#file", file);
    await waitState(page, "done", 300000);
    const wall = Date.now() - t0;
    const perf = await page.evaluate(() => {
      const p = window.__perf;
      p.running = false;
      clearInterval(p.timer);
      const q = (a, f) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.floor(f * s.length))] : 0; };
      return {
        parseMs: Number(document.body.dataset.parseMs), rows: Number(document.body.dataset.rows),
        counts: document.getElementById("sum-counts").textContent, frames: p.gaps.length,
        gapMax: Math.max(...p.gaps), gapP99: q(p.gaps, 0.99), gapP50: q(p.gaps, 0.5), gapsOver50: p.gaps.filter((g) => g > 50).length,
        lateMax: Math.max(...p.late), lateP99: q(p.late, 0.99), longTasks: p.longTasks.length, longMax: Math.max(0, ...p.longTasks),
        dom: document.querySelectorAll("#list .vl-row").length,
      };
    });
    // Scrolling and searching a 100k-row list.
    const nav = await page.evaluate(async () => {
      const list = document.getElementById("list");
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const out = {};
      let t = performance.now();
      list.scrollTop = list.scrollHeight / 2;
      await frame();
      out.jumpMiddleMs = performance.now() - t;
      t = performance.now();
      list.scrollTop = list.scrollHeight;
      await frame();
      out.jumpEndMs = performance.now() - t;
      out.domRows = list.querySelectorAll(".vl-row").length;
      return out;
    });
    const t1 = Date.now();
    await page.fill("#search", "zzz-no-such-text");
    await page.waitForFunction(() => document.getElementById("match-count").textContent.startsWith("0 of"), null, { timeout: 60000 });
    const searchMs = Date.now() - t1 - 150; // minus the input debounce
    await page.fill("#search", "");
    await page.waitForFunction(() => document.getElementById("match-count").textContent === "");
    await page.evaluate(() => { document.getElementById("list").scrollTop = 0; });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await shot(page, "viewer-100k.png");
    // Once more (not measured) for a picture of the progress bar mid-parse.
    await page.setInputFiles("#file", []);
    await page.setInputFiles("#file", file);
    await page.waitForFunction(() => document.body.dataset.state === "parsing" && Number(document.body.dataset.rows || 0) > 2000, null, { timeout: 120000 });
    await shot(page, "viewer-100k-parsing.png");
    await waitState(page, "done", 300000);
    const numbers = { source: pick.path, lines: N, bytes: readFileSync(file).length, wallMs: wall, ...perf, ...nav, searchMs };
    t.diagnostic(`100k: ${JSON.stringify(numbers)}`);
    mkdirSync(join(root, "tests", "screenshots-tmp"), { recursive: true });
    writeFileSync(join(root, "tests", "screenshots-tmp", "viewer-perf.json"), JSON.stringify(numbers, null, 1) + "\n");
    assert.ok(perf.rows > 0);
    assert.ok(perf.dom < 500, `virtual list keeps the DOM small (${perf.dom} rows)`);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
