// The run viewer's pictures and folds in headless Chromium (www/serve.mjs with its CSP):
// the run summary's totals and charts (clicks jump and filter), subagents nested under
// their card, edits as diffs, consecutive notices folded, long prompt expansions folded,
// thinking's label once, and the folder view (list, totals, open, search across). Each test
// also requires no console error and no CSP violation. Screenshots: see viewer-page.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { viewerSession, serverUrl, frames } from "./viewer-page.mjs";
import { root } from "../js/host.mjs";

const { openPage, waitState, shot, paste, echoPage, clean } = viewerSession(test);
const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const at = (ms) => new Date(T0 + ms).toISOString();
const line = (ms, ...entries) => JSON.stringify({ timestamp: at(ms), echo: entries });

const listTexts = (page) => page.$$eval("#list .vl-row", (rows) =>
  rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map((r) => ({ text: r.textContent, nested: r.classList.contains("nested") })));

// A main agent that starts two parallel subagents whose rows interleave.
function subagentRun() {
  const sub = (id, ms, ...es) => line(ms, ...es.map((e) => ({ ...e, parentToolUseId: id })));
  return [
    line(0, { kind: "user", text: "audit the repo" }),
    line(1000, { kind: "tool_call", name: "Task", input: { description: "scan docs and every page under them for links that went stale", prompt: "scan the docs" }, toolUseId: "A" },
      { kind: "tool_call", name: "Task", input: { description: "scan code", prompt: "scan the code" }, toolUseId: "B" }),
    sub("A", 2000, { kind: "assistant", text: "A: reading docs" }),
    sub("B", 2100, { kind: "assistant", text: "B: reading code" }),
    sub("A", 2200, { kind: "tool_call", name: "Read", input: { file_path: "/docs/x.md" }, toolUseId: "a1" }),
    sub("B", 2300, { kind: "tool_call", name: "Grep", input: { pattern: "TODO" }, toolUseId: "b1" }),
    sub("A", 3000, { kind: "tool_result", toolUseId: "a1", content: "docs", isError: false }),
    sub("B", 3500, { kind: "tool_result", toolUseId: "b1", content: "no match", isError: true }),
    sub("A", 3600, { kind: "result", subtype: "model_call", inputTokens: 100, outputTokens: 20, cachedTokens: 0, costUsd: 0.01, isError: false, errors: [] }),
    line(6000, { kind: "tool_result", toolUseId: "A", content: "docs are fine", isError: false },
      { kind: "tool_result", toolUseId: "B", content: "code has no TODO", isError: false }),
    line(7000, { kind: "assistant", text: "MAIN: all done" }),
  ].join("\n");
}

test("subagents are nested under their card, closed at first, each with its own totals", async () => {
  const { page, problems } = await echoPage();
  await paste(page, subagentRun());
  let rows = await listTexts(page);
  const joined = rows.map((r) => r.text).join("\n");
  assert.ok(!joined.includes("A: reading docs") && !joined.includes("B: reading code"), "subagent rows hidden while closed");
  assert.ok(joined.includes("MAIN: all done"));
  const toggles = await page.$$eval("#list .sub-toggle", (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(toggles.length, 2, toggles.join(" | "));
  assert.equal(toggles[0], "▸ subagent · 3 rows · 1 tool · 100 in · 20 out · $0.01");
  assert.equal(toggles[1], "▸ subagent · 2 rows · 1 tool · 1 error");
  // Open A: its rows come right after its card, nested, and B's stay hidden.
  await page.click("#list .sub-toggle >> nth=0");
  await page.waitForFunction(() => Number(document.body.dataset.nested) > 0);
  await frames(page);
  rows = await listTexts(page);
  const iCard = rows.findIndex((r) => r.text.includes("scan docs"));
  const iKid = rows.findIndex((r) => r.text.includes("A: reading docs"));
  const iB = rows.findIndex((r) => r.text.includes("scan code"));
  assert.ok(iCard >= 0 && iKid === iCard + 1 && rows[iKid].nested, JSON.stringify(rows));
  assert.ok(iB > iKid, "A's rows sit between A's card and B's card");
  assert.ok(!rows.some((r) => r.text.includes("B: reading code")));
  // Indented a level (24 px past the rows' own 14 px margin), not a few pixels.
  assert.equal(await page.$eval("#list .vl-row.nested", (e) => getComputedStyle(e).marginLeft), "38px");
  await shot(page, "viewer-subagent.png");
  // The timeline: the charts as wide as the panel, a subagent's lane label cut to its column
  // (whole in its tooltip), never over the bars.
  await page.click("#charts > summary");
  await page.waitForSelector("#charts svg.plot");
  const charts = await page.$eval("#charts", (c) => ({
    panel: c.querySelector(".charts-body").clientWidth,
    widths: [...c.querySelectorAll("svg.plot")].map((s) => s.viewBox.baseVal.width),
    lanes: [...c.querySelectorAll("svg.plot text.lbl")].filter((t) => t.querySelector("title")).map((t) => [t.firstChild.textContent, t.querySelector("title").textContent, t.getComputedTextLength()]),
  }));
  assert.ok(charts.widths.every((w) => Math.abs(w - charts.panel) <= 8), JSON.stringify(charts));
  const lane = charts.lanes.find(([, full]) => full.includes("every page"));
  assert.ok(lane && lane[0].length < lane[1].length && lane[2] <= 145, JSON.stringify(charts.lanes));
  await page.click("#charts > summary");
  // Close it again.
  await page.click("#list .sub-toggle >> nth=0");
  await page.waitForFunction(() => document.body.dataset.nested === "0");
  await clean(page, problems);
});

test("an edit card shows a diff, not JSON with \\n escapes", async () => {
  const { page, problems } = await echoPage();
  await paste(page, [
    line(0, { kind: "tool_call", name: "Edit", input: { file_path: "/src/lib.rs", old_string: "fn a() {\n    old();\n}\n", new_string: "fn a() {\n    new();\n}\n" }, toolUseId: "e1" }),
    line(100, { kind: "tool_result", toolUseId: "e1", content: "ok", isError: false }),
    line(200, { kind: "tool_call", name: "Write", input: { file_path: "/src/new.rs", content: "one\ntwo\n" }, toolUseId: "w1" }),
  ].join("\n"));
  await page.click("#expand-all");
  await page.waitForSelector("#list .card-body .diff-body");
  const cards = await page.$$eval("#list .card-body", (bs) => bs.map((b) => ({
    lines: [...b.querySelectorAll(".diff-body > div")].map((d) => [d.className, d.textContent]),
    label: b.querySelector(".label")?.textContent ?? "",
    json: b.querySelector("pre.json") !== null,
  })));
  assert.deepEqual(cards[0].lines, [["d-context", " fn a() {"], ["d-remove", "-    old();"], ["d-add", "+    new();"], ["d-context", " }"]]);
  assert.ok(cards[0].label.includes("/src/lib.rs") && !cards[0].json, JSON.stringify(cards[0]));
  // The path as written (a case-sensitive name), not in the label's capitals.
  assert.equal(await page.$eval("#list .card-body .label .label-detail", (e) => [e.textContent, getComputedStyle(e).textTransform].join(" ")), "/src/lib.rs none");
  assert.deepEqual(cards[1].lines, [["d-add", "+one"], ["d-add", "+two"]]);
  await page.click("#list .raw-input > summary >> nth=0");
  await page.waitForSelector("#list .raw-input pre.json");
  await shot(page, "viewer-edit-diff.png");
  await clean(page, problems);
});

test("consecutive notices fold into one row, a long prompt expansion shows its first lines, thinking says so once", async () => {
  const { page, problems } = await echoPage();
  const expansion = "Claude Code added to the prompt:\n" + Array.from({ length: 40 }, (_, i) => `skill line ${i + 1}`).join("\n");
  await paste(page, [
    line(0, { kind: "assistant", text: "before" }),
    ...Array.from({ length: 7 }, (_, i) => line(10 + i, { kind: "system", text: `hook ${i + 1} ran` })),
    line(50, { kind: "assistant", text: "between" }),
    line(60, { kind: "system", text: expansion }),
    line(70, { kind: "thinking", text: "deep thought" }),
  ].join("\n"));
  const summary = await page.$eval("#list .row.notes > summary", (s) => s.textContent);
  assert.match(summary, /7 system notices/);
  assert.ok(summary.includes("hook 1 ran"));
  await page.click("#list .row.notes > summary");
  await page.waitForSelector("#list .notes-body");
  assert.equal(await page.$$eval("#list .notes-body .note", (n) => n.length), 7);
  // The expansion: 3 lines and a button for all 41.
  const folded = await page.$eval("#list .row.compact.system pre.folded", (p) => p.textContent);
  assert.equal(folded.split("\n").length, 3);
  await page.click("#list button.fold");
  await page.waitForFunction(() => [...document.querySelectorAll("#list .row.compact.system pre")].some((p) => p.textContent.includes("skill line 40")));
  // Thinking: the word once (the summary), not again in the opened body.
  await page.click("#list .row.thinking > summary");
  const labels = await page.$eval("#list .row.thinking", (d) => [...d.querySelectorAll(".kind, .label")].map((e) => e.firstChild?.nodeType === 3 ? e.firstChild.data : "").filter((t) => /thinking/.test(t)).length);
  assert.equal(labels, 1);
  await clean(page, problems);
});

test("the run summary: totals and charts; a bar filters to its tool, a point or span jumps to its row", async () => {
  const { page, problems } = await echoPage();
  const lines = [line(0, { kind: "init", model: "m", sessionId: "s" })];
  for (let i = 0; i < 6; i++) {
    const t = 1000 + i * 10000;
    const name = i % 3 === 0 ? "Bash" : i % 3 === 1 ? "Read" : "Grep";
    lines.push(line(t, { kind: "user", text: `turn ${i}` }));
    lines.push(line(t + 100, { kind: "tool_call", name, input: { command: "x" }, toolUseId: `t${i}` }));
    lines.push(line(t + 100 + (i + 1) * 700, { kind: "tool_result", toolUseId: `t${i}`, content: "ok", isError: i === 4 }));
    lines.push(line(t + 6000, { kind: "result", subtype: "success", inputTokens: 1000, outputTokens: 100, cachedTokens: 50, costUsd: 0.25, isError: false, errors: [] }));
  }
  await paste(page, lines.join("\n"));
  await page.click("#charts > summary");
  await page.waitForSelector("#charts .totals");
  const totals = await page.$$eval("#charts .total", (cs) => Object.fromEntries(cs.map((c) => [c.querySelector(".l").textContent, c.querySelector(".v").textContent])));
  assert.equal(totals["input tokens"], "6,000");
  assert.equal(totals["output tokens"], "600");
  assert.equal(totals.cost, "$1.50");
  assert.equal(totals["tool calls"], "6");
  assert.equal(totals.errors, "1");
  assert.equal(await page.$$eval("#charts .cum .pt", (p) => p.length), 6);
  const bars = await page.$$eval("#charts .bars .bar", (bs) => bs.map((b) => b.dataset.tool));
  assert.deepEqual(bars.sort(), ["Bash", "Grep", "Read"]);
  assert.equal(await page.$$eval("#charts .timeline .span", (s) => s.length), 6);
  assert.equal(await page.$$eval("#charts .timeline .turn", (s) => s.length), 6);
  await shot(page, "viewer-summary.png");
  // A bar: only that tool's cards.
  await page.click('#charts .bars .bar[data-tool="Read"]');
  await page.waitForFunction(() => !document.getElementById("tool-filter").hidden);
  await page.waitForFunction(() => document.querySelectorAll("#list .vl-row").length === 2);
  await frames(page);
  const names = await page.$$eval("#list .vl-row .tool-name", (n) => n.map((x) => x.textContent));
  assert.deepEqual(names, ["Read", "Read"]);
  await page.click("#tool-filter-clear");
  await page.waitForFunction(() => document.getElementById("tool-filter").hidden);
  // A span: its card, marked.
  const row = await page.$eval("#charts .timeline .span >> nth=5", (s) => s.dataset.row);
  await page.click(`#charts .timeline .span[data-row="${row}"]`);
  await page.waitForFunction(() => document.querySelector("#list .vl-row.target .tool-name")?.textContent === "Grep");
  await clean(page, problems);
});

test("open a folder: sessions listed newest first with first prompt, tokens and cost; search across; open one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-sessions-"));
  try {
    writeFileSync(join(dir, "ignore.bin"), "x");
    const fx = join(root, "tests", "fixtures");
    // Real logs: a Claude stream-json run (a result with tokens and cost) and a Codex rollout.
    const a = join(dir, "claude-run.jsonl");
    const b = join(dir, "codex-rollout.jsonl");
    copyFileSync(join(fx, "claude", "stream-gleam-basic_query.ndjson"), a);
    copyFileSync(join(fx, "codex", "agentcmd-rollout-2025-09-24T20-12-23.jsonl"), b);
    utimesSync(a, new Date(T0), new Date(T0));
    utimesSync(b, new Date(T0 + 86400000), new Date(T0 + 86400000));
    const { page, problems } = await openPage();
    await page.goto(`${serverUrl()}/www/`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    await page.setInputFiles("#folder", dir);
    await page.waitForFunction(() => document.body.dataset.sessions === "done", null, { timeout: 60000 });
    const rows = await page.$$eval("#sessions-list tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.equal(rows.length, 2, JSON.stringify(rows));
    assert.ok(rows[0][1].endsWith("codex-rollout.jsonl") && rows[1][1].endsWith("claude-run.jsonl"), "newest first");
    assert.equal(rows[1][5], "$0.1355", rows[1].join(" | ")); // the Claude run's stated cost, $0.1354875
    // The rollout states no cost: estimated at list prices (gpt-5-codex; ccusage: $0.09967525).
    assert.equal(rows[0][5], "≈ $0.0997", rows[0].join(" | "));
    assert.ok(rows[0][4].startsWith("149,449 / 4,808"), rows[0].join(" | ")); // the rollout's total_token_usage
    assert.ok(rows[0][2].length > 5, "the rollout's first prompt");
    // The session's own start (the rollout's first timestamp), not the file's time.
    assert.ok(rows[0][0].startsWith("2025-09-25 02:12"), rows[0].join(" | ")); // its first timestamp, UTC
    assert.equal(await page.$eval("#sessions-list tr.log td.date", (td) => td.classList.contains("file-time")), false);
    await shot(page, "viewer-folder.png");
    // Filters: runtime, model, start date (UTC), cost; the choices are what the logs showed.
    const listedNames = () => page.$$eval("#sessions-list tr.log", (trs) => trs.map((tr) => tr.children[1].textContent.split("/").pop()));
    const options = (id) => page.$$eval(`${id} option`, (os) => os.map((o) => o.value));
    assert.deepEqual(await options("#sessions-runtime"), ["", "claude", "codex"]);
    assert.deepEqual(await options("#sessions-model"), ["", "claude-opus-4-5-20251101", "gpt-5-codex"]);
    await page.selectOption("#sessions-runtime", "codex");
    assert.deepEqual(await listedNames(), ["codex-rollout.jsonl"]);
    assert.equal(await page.$eval("#sessions-shown", (e) => e.textContent), "1 of 2 logs");
    await page.selectOption("#sessions-runtime", "");
    await page.selectOption("#sessions-model", "claude-opus-4-5-20251101");
    assert.deepEqual(await listedNames(), ["claude-run.jsonl"]);
    await page.selectOption("#sessions-model", "");
    await page.fill("#sessions-cost", "0.1"); // $0.1355 stated against ≈ $0.0997 estimated
    assert.deepEqual(await listedNames(), ["claude-run.jsonl"]);
    await page.fill("#sessions-cost", "");
    // The rollout started 2025-09-25 (its own first timestamp); the Claude run states no time,
    // so its file's (2026-03-01) stands.
    await page.fill("#sessions-to", "2025-09-25");
    assert.deepEqual(await listedNames(), ["codex-rollout.jsonl"]);
    await page.fill("#sessions-to", "");
    await page.fill("#sessions-from", "2025-09-26");
    assert.deepEqual(await listedNames(), ["claude-run.jsonl"]);
    await page.fill("#sessions-from", "");
    assert.equal(await page.$eval("#sessions-shown", (e) => e.textContent), "");
    assert.deepEqual(await listedNames(), ["codex-rollout.jsonl", "claude-run.jsonl"]);
    await page.fill("#sessions-search", "gleam");
    await page.waitForFunction(() => document.body.dataset.sessionSearch === "done");
    const shown = await page.$$eval("#sessions-list tr", (trs) => trs.filter((tr) => !tr.hidden).map((tr) => tr.children[1].textContent));
    assert.deepEqual(shown.length, 1);
    assert.ok(shown[0].endsWith("claude-run.jsonl"));
    // A click anywhere on the row opens it; the list steps aside to a few rows.
    await page.click("#sessions-list tr.log td.prompt");
    await waitState(page, "done");
    assert.ok((await page.$eval("#source", (s) => s.textContent)).includes("claude-run.jsonl"));
    assert.ok(await page.$eval("#sessions", (e) => e.classList.contains("stepped")));
    // The panel keeps its own layout (its head one line, not squeezed into a column).
    assert.ok((await page.$eval(".sessions-head", (e) => e.getBoundingClientRect().width)) > 600);
    assert.ok((await page.$eval(".sessions-scroll", (e) => e.getBoundingClientRect().height)) <= 140);
    assert.ok(await page.$eval("#sessions-list tr.current", (tr) => tr.children[1].textContent.endsWith("claude-run.jsonl")));
    await page.click("#sessions-toggle");
    assert.equal(await page.$eval("#sessions", (e) => e.classList.contains("stepped")), false);
    // Clearing the search clears what it said.
    await page.fill("#sessions-search", "");
    await page.waitForFunction(() => document.getElementById("sessions-status").textContent === "");
    assert.equal((await page.$$eval("#sessions-list tr.log", (trs) => trs.length)), 2);
    await clean(page, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a folder lists each session's subagent logs right after it, in both of Claude Code's layouts", async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-sessions-"));
  try {
    const fx = join(root, "tests", "fixtures", "claude");
    const sid = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"; // the sessionId the subagent fixture's lines name
    const put = (rel, from, when) => {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      copyFileSync(join(fx, from), join(dir, rel));
      utimesSync(join(dir, rel), new Date(when), new Date(when));
    };
    // Newer layout: <session>/subagents/<agent>.jsonl; older: agent-<id>.jsonl beside <sessionId>.jsonl.
    put("proj/s1.jsonl", "session-spotter-tool_heavy.jsonl", T0);
    put("proj/s1/subagents/agent-a1.jsonl", "session-spotter-ae4a77f8-subagent-agent-aac57f5.jsonl", T0 + 3 * 86400000);
    // A subagent's own subagent: under the same session.
    put("proj/s1/subagents/agent-a1/subagents/agent-b2.jsonl", "session-spotter-ae4a77f8-subagent-agent-aac57f5.jsonl", T0 + 4 * 86400000);
    put(`proj/${sid}.jsonl`, "session-spotter-subagent.jsonl", T0 + 86400000);
    put("proj/agent-aac57f5.jsonl", "session-spotter-ae4a77f8-subagent-agent-aac57f5.jsonl", T0 + 2 * 86400000);
    const { page, problems } = await openPage();
    await page.goto(`${serverUrl()}/www/`);
    await page.waitForFunction(() => document.body.dataset.parser === "ready");
    await page.setInputFiles("#folder", join(dir, "proj"));
    await page.waitForFunction(() => document.body.dataset.sessions === "done", null, { timeout: 60000 });
    const rows = await page.$$eval("#sessions-list tr.log", (trs) => trs.map((tr) => (tr.classList.contains("sub") ? "  " : "") + tr.children[1].textContent));
    assert.deepEqual(rows, [
      `proj/${sid}.jsonl · 1 subagent`,
      "  ↳ agent-aac57f5.jsonl",
      "proj/s1.jsonl · 2 subagents",
      "  ↳ subagents/agent-a1/subagents/agent-b2.jsonl",
      "  ↳ subagents/agent-a1.jsonl",
    ]);
    await clean(page, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
