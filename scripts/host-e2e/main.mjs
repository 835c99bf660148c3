#!/usr/bin/env node
// `make host-e2e`: our built ui-parser in the released Paperclip host (2026.916.1), for real.
//
// Installs the app (server.mjs), starts it and its embedded Postgres on 127.0.0.1, installs a
// local adapter package whose ./ui-parser is dist/ui-parser.stateless.js (runs.mjs), replays
// real Claude logs through two agents each (ours; the built-in `claude_local` with engine
// "cli" and a replaying `claude`), and opens each run page in headless Chromium
// (playwright-core, the system chromium):
//   (a) as shipped: the host's parser worker must die on upstream bug paperclipai/paperclip
//       #12223 (strict-mode assignment to the getter-only `caches`/`indexedDB`). When it no
//       longer does, upstream has fixed it: the check says so and the workaround can go.
//   (b) with the workaround (fix.mjs, a Playwright init script): our parser renders the run.
//   (c) ours vs the built-in parser: time to a stable render, rows shown, raw-JSON rows.
// Asserts: ours 0 raw-JSON lines, no page/worker errors, its worker ready, tool calls shown
// >= the built-in's (rows are reported, not asserted: see below). Writes
// target/host-e2e/result.json and docs/screenshots/host-e2e-*.png (the numbers go in
// docs/host-e2e.md by hand, dated). Server and Postgres are stopped on every exit path.
// Environment: AGENTLINES_CORPUS (the shared corpus), HOST_E2E_ONLY (log names, comma-separated:
// only those), HOST_E2E_PORT (default 3199), CHROMIUM
// (default /usr/bin/chromium), HOST_E2E_DUMP=1 (save each page's HTML in target/host-e2e/).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { paths, install, prepareInstance, startServer, stopPostgres, listeners, api } from "./server.mjs";
import { buildAdapterPackage, setupCompany, makeRun, waitRun, storedLog, runUrl } from "./runs.mjs";
import { pageScript, countRows } from "./page.mjs";
import { redactionCheck } from "./redaction.mjs";
import { sharedCorpus } from "../../bench/lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const p = paths(root);
const log = (...a) => console.error("[host-e2e]", ...a);
// One real capture per runtime family, replayed through our file (provenance: each fixture
// folder's PROVENANCE.md; "derived" where no real output exists). `builtin`: also replayed
// through the host's own parser (only Claude's can be: its adapter runs a replaying `claude`).
// `ends`: the run ends the log itself records (a final result, a turn's completion), reviewed
// by hand: the only result rows the page may show that do not say what they count (a row
// "tokens: …" is one model call's usage, which the host sums; docs/host-e2e.md, Results).
const corpus = sharedCorpus();
const F = (dir, file) => join(root, "tests", "fixtures", dir, file);
const LOGS = [
  // A background-subagent run cut before its `result` line: no end of its own.
  { name: "hivemind-background-default", family: "Claude Code stream-json", file: F("claude", "stream-hivemind-background-default.jsonl"), builtin: true, ends: 0 },
  ...(corpus ? [{ name: "claude-session-spotter-fa812bfe", family: "Claude Code session file", file: join(corpus, "bench", "claude-session-spotter-fa812bfe.jsonl"), builtin: true, ends: 0, shot: true }] : []),
  { name: "codex-exec-takopi-all-formats", family: "Codex exec --json", file: F("codex", "takopi-codex_exec_json_all_formats.jsonl"), ends: 2 },
  { name: "codex-rollout-agentcmd", family: "Codex rollout", file: F("codex", "agentcmd-rollout-2025-09-24T20-12-23.jsonl"), ends: 0 },
  { name: "gemini-untether-stream", family: "Gemini CLI stream-json", file: F("gemini", "untether-gemini_stream_success.jsonl"), ends: 1 },
  { name: "opencode-takopi-stream", family: "OpenCode run --format json", file: F("opencode", "takopi-opencode_stream_success.jsonl"), ends: 1 },
  { name: "cursor-full-session", family: "Cursor Agent stream-json", file: F("cursor", "cursorhack-full_session.jsonl"), ends: 1 },
  { name: "pi-takopi-stream", family: "pi --mode json", file: F("pi", "takopi-pi_stream_success.jsonl"), ends: 1 },
  { name: "pi-session-large", family: "pi / OpenClaw session file", file: F("pi", "pi-session-large-session.jsonl"), ends: 0 },
  { name: "openclaw-gateway-chat", family: "OpenClaw gateway", file: F("openclaw", "gateway-chat-run.jsonl"), ends: 1 },
  { name: "acpx-engine-run", family: "ACP (acpx engine)", file: F("acp", "acpx-engine-run.jsonl"), ends: 1 },
  { name: "acp-jsonrpc-session", family: "ACP (JSON-RPC)", file: F("acp", "acp-jsonrpc-session.jsonl"), ends: 1 },
  { name: "agy-untether-subagent", family: "Antigravity (agy)", file: F("agy", "untether-subagent.jsonl"), ends: 1 },
  { name: "copilot-agentshore-1.0.94", family: "GitHub Copilot CLI", file: F("copilot", "agentshore-copilot_json_1_0_94.jsonl"), ends: 1 },
  { name: "droid-vibekanban-edits", family: "Factory Droid", file: F("droid", "vibekanban-edits-and-execution.jsonl"), ends: 0 },
  { name: "goose-derived-banner", family: "Goose (derived)", file: F("goose", "derived-banner-stream-json.jsonl"), ends: 1 },
  { name: "kiro-paperclip-adapter", family: "Kiro CLI", file: F("kiro", "paperclip-kiro-adapter-stdout.txt"), ends: 0 },
  { name: "amp-untether-stream", family: "Amp", file: F("amp", "untether-amp_stream_success.jsonl"), ends: 1 },
  { name: "grok-paperclip-adapter", family: "Grok", file: F("grok", "paperclip-adapter-run.jsonl"), ends: 1 },
  { name: "kimi-paperclip-adapter", family: "Kimi", file: F("kimi", "paperclip-adapter-run.jsonl"), ends: 0 },
  { name: "cursor-cloud-paperclip", family: "Cursor Cloud", file: F("cursor_cloud", "paperclip-adapter-run.jsonl"), ends: 1 },
  { name: "hermes-local", family: "Hermes", file: F("hermes", "hermes-local-run.txt"), ends: 0 },
  { name: "openrouter-qwen-tools", family: "OpenRouter (Qwen)", file: F("openrouter", "qwen-openrouter-tool-run.jsonl"), ends: 1 },
  { name: "openhands-doc-json", family: "OpenHands", file: F("openhands", "doc-json-output.jsonl"), ends: 0 },
  { name: "cline-derived", family: "Cline (derived)", file: F("cline", "derived-json-run.jsonl"), ends: 1 },
  { name: "letta-derived", family: "Letta (derived)", file: F("letta", "derived-stream-json.jsonl"), ends: 1 },
  { name: "amplifier-derived", family: "Amplifier bridge (derived)", file: F("amplifier", "derived-bridge-run.jsonl"), ends: 1 },
  { name: "claw-derived", family: "Claw Code (derived)", file: F("claw", "derived-run.jsonl"), ends: 1 },
].filter((l) => !process.env.HOST_E2E_ONLY || process.env.HOST_E2E_ONLY.split(",").includes(l.name));

/** A result row that says it is one model call's (or checkpoint's) usage, not a run's end. */
const MID_RUN_ROW = /^tokens: /;

let server = null;
let browser = null;
async function cleanup() {
  try { await browser?.close(); } catch {}
  if (server) { await server.stop(); server = null; }
  stopPostgres(p);
}
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => { log(`${sig}: stopping the server and Postgres`); cleanup().finally(() => process.exit(130)); });
}

async function main() {
  const parserFile = join(root, "dist", "ui-parser.stateless.js");
  if (!existsSync(parserFile)) throw new Error(`${parserFile} is missing: run make dist`);
  for (const l of LOGS) if (!existsSync(l.file)) throw new Error(`log ${l.file} is missing`);
  if (!corpus) log("no shared corpus (set AGENTLINES_CORPUS): only the small fixture log is replayed");
  const t0 = Date.now();
  const versions = install(p);
  log(`tools ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: node ${versions.node}, paperclipai ${versions.paperclip}`);
  // The server's redaction of stored logs, on every line we have (no server needed).
  const red = await redactionCheck(p, root, parserFile, corpus);
  log(`redaction: ${red.redacted} lines of ${red.files} files redacted by the server, ${red.broken} no longer JSON, ${red.broken - red.wrong.length} of them read as written`);
  prepareInstance(p);
  server = await startServer(p, { port: Number(process.env.HOST_E2E_PORT ?? 3199) });
  log(`server up at ${server.base}`);
  const open = (listeners() ?? []).filter((l) => /node|postgres/.test(l.proc) && !/^127\.0\.0\.1:|^\[::1\]:/.test(l.local));
  if (open.length) throw new Error(`a server listens beyond loopback: ${JSON.stringify(open)}`);

  const call = api(server.base);
  const adapterDir = buildAdapterPackage(root, p.work, parserFile);
  const { company, installed, servedBytes } = await setupCompany(call, adapterDir);
  log(`adapter ${installed.type} installed; ui-parser served: ${servedBytes} bytes`);
  const replayCommand = join(root, "scripts", "host-e2e", "claude-replay.mjs");
  const runs = [];
  for (const l of LOGS) {
    for (const which of l.builtin ? ["ours", "builtin"] : ["ours"]) {
      const { agent, run } = await makeRun(call, company, { which, log: l, adapterType: installed.type, replayCommand });
      const done = await waitRun(call, run.id);
      const stored = await storedLog(call, run.id);
      log(`${which} ${l.name}: run ${done.status}, stored log ${stored.bytes} bytes in ${stored.rows} rows`);
      // The built-in claude_local may mark a replayed run failed after the fact (e.g. "Failed to
      // parse claude JSON output" when the log has no final result line); its log is still
      // stored and rendered, which is all that is compared. Ours must succeed.
      if (which === "ours" && done.status !== "succeeded") throw new Error(`${which} ${l.name}: run ${done.status} (${done.error ?? ""})`);
      if (!stored.stdoutBytes) throw new Error(`${which} ${l.name}: run ${done.status} stored no stdout (${done.error ?? ""})`);
      runs.push({ which, log: l.name, family: l.family, url: runUrl(server.base, company, agent, run), stored, status: done.status, error: done.error ?? null });
    }
  }

  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
  const result = { date: new Date().toISOString(), versions, chromium: browser.version(), servedBytes, asShipped: null, runs: [] };

  // (a) as shipped, on our run of the small log.
  {
    const ours = runs.find((r) => r.which === "ours");
    const m = await measure(ours, { fix: false });
    const bug = m.workerErrors.find((e) => /caches|indexedDB|read.?only|getter/i.test(e));
    result.asShipped = { workerErrors: m.workerErrors, rows: m.rows, rawJson: m.rawJson, rawJsonRows: m.rawJsonRows, bug12223: Boolean(bug) };
    if (bug) log(`as shipped: the parser worker dies (#12223 still present): ${bug}`);
    else log("as shipped: NO #12223 error — upstream may have fixed it; the workaround in page.mjs may be dropped");
  }
  // (b)+(c) with the workaround, every run.
  mkdirSync(join(root, "docs", "screenshots", "host-e2e"), { recursive: true });
  for (const r of runs) {
    // The big Claude session: full-size PNGs (docs/host-e2e.md links them); every other run:
    // the transcript box's first screen as a small JPEG, one per runtime family.
    const big = LOGS.find((l) => l.name === r.log)?.shot;
    const shot = big ? join(root, "docs", "screenshots", `host-e2e-${r.which}.png`)
      : r.which === "ours" ? join(root, "docs", "screenshots", "host-e2e", `${r.log}.jpg`) : null;
    const m = await measure(r, { fix: true, shot });
    result.runs.push({ which: r.which, log: r.log, family: r.family, status: r.status, error: r.error, stored: r.stored, ...m });
    log(`${r.which} ${r.log}: ${m.rows} rows, ${m.rawJson} raw-JSON lines in ${m.rawJsonRows} rows, ${m.loadMoreClicks} load-more, stable after ${m.renderMs} ms, page errors ${m.pageErrors.length}, worker errors ${m.workerErrors.length}`);
  }
  mkdirSync(p.work, { recursive: true });
  writeFileSync(join(p.work, "result.json"), JSON.stringify(result, null, 2) + "\n");

  const fails = red.wrong.map((w) => `a line the server's redaction broke reads otherwise than as written: ${w}`);
  result.redaction = { files: red.files, redacted: red.redacted, broken: red.broken, wrong: red.wrong.length };
  for (const l of LOGS) {
    const o = result.runs.find((r) => r.which === "ours" && r.log === l.name);
    const b = result.runs.find((r) => r.which === "builtin" && r.log === l.name);
    // The counter reads the 2026.916.1 page layout; a layout it does not know must fail loudly.
    for (const x of [o, b]) if (x && (!x.found || x.rows === 0)) fails.push(`${l.name}: ${x.which}: no transcript rows found on the run page`);
    // Result rows: the run's own ends, and model calls' usage rows that say so ("tokens: …").
    const ends = o.results.filter((t) => !MID_RUN_ROW.test(t));
    if (ends.length !== l.ends) fails.push(`${l.name}: ours shows ${ends.length} result rows that are not usage rows (${JSON.stringify(ends.slice(0, 5))}), the log has ${l.ends} run end(s)`);
    if (o.loneToolCards) fails.push(`${l.name}: ours shows ${o.loneToolCards} tool cards without a call (a result the host could not pair)`);
    if (o.rawJson !== 0) fails.push(`${l.name}: ours shows ${o.rawJson} raw-JSON lines in ${o.rawJsonRows} rows`);
    if (o.pageErrors.length || o.workerErrors.length) fails.push(`${l.name}: errors ${JSON.stringify([...o.pageErrors, ...o.workerErrors])}`);
    if (!o.parserReady) fails.push(`${l.name}: our parser's worker never answered ready`);
    // Not rows >= the built-in's: ours has fewer on purpose (progress notices no longer split
    // tool groups, thinking ticks fold; docs/entries.md, "What shows no row"), so the check is
    // on what the rows carry.
    if (b && o.toolCalls < b.toolCalls) fails.push(`${l.name}: ours shows ${o.toolCalls} tool calls < built-in ${b.toolCalls}`);
    log(`${l.name} (${l.family}): ours ${o.rows} rows, ${o.toolCalls} tool calls, ${ends.length} end rows, ${o.results.length - ends.length} usage rows, ${o.rawJson} raw JSON (${o.redactedJson} lines the host's redaction broke), ${o.renderMs} ms` +
      (b ? `; built-in ${b.rows} rows, ${b.toolCalls} tool calls, ${b.rawJson} raw JSON in ${b.rawJsonRows} rows, ${b.renderMs} ms` : ""));
  }
  // The table docs/host-e2e.md shows (copied from here, dated).
  const md = ["| runtime family | log | rows | tool calls shown | run-end rows | usage rows (`tokens: …`) | raw-JSON lines | lines the host's redaction broke | tool cards without a call |", "|---|---|---|---|---|---|---|---|---|"];
  for (const l of LOGS) {
    const o = result.runs.find((r) => r.which === "ours" && r.log === l.name);
    const usage = o.results.filter((t) => MID_RUN_ROW.test(t)).length;
    md.push(`| ${l.family} | ${l.name} | ${o.rows} | ${o.toolCalls} | ${o.results.length - usage} | ${usage} | ${o.rawJson} | ${o.redactedJson} | ${o.loneToolCards} |`);
  }
  writeFileSync(join(p.work, "families.md"), md.join("\n") + "\n");
  if (!result.asShipped.bug12223) log("note: #12223 not reproduced as shipped (see above)");
  if (fails.length) throw new Error(`host-e2e failed:\n  ${fails.join("\n  ")}`);
  log(`ok in ${((Date.now() - t0) / 1000).toFixed(0)} s; numbers in ${join(p.work, "result.json")}`);
}

/** Opens a run page; waits until the transcript's row count is stable for 1.5 s (max 60 s). */
async function measure(r, { fix, shot = null }) {
  const ctx = await browser.newContext({ viewport: { width: 1700, height: 1300 } });
  await ctx.addInitScript(pageScript(fix));
  const page = await ctx.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e.message ?? e)));
  const start = Date.now();
  await page.goto(r.url, { waitUntil: "domcontentloaded" });
  let last = null, stableSince = Date.now(), renderMs = null;
  const end = Date.now() + 60_000;
  let loads = 0;
  while (Date.now() < end) {
    const c = await page.evaluate(countRows);
    if (c.loadMore && loads < 16) {
      // The page shows the first 256 KB; the whole log is what is compared.
      await page.getByRole("button", { name: /load more log/i }).first().click().catch(() => {});
      loads++; last = null;
      await page.waitForTimeout(100);
      continue;
    }
    const key = `${c.rows}/${c.rawJson}`;
    if (c.rows > 0 && key === last) {
      if (Date.now() - stableSince >= 1500) break;
    } else {
      last = key; stableSince = Date.now(); renderMs = Date.now() - start;
    }
    await page.waitForTimeout(100);
  }
  const c = await page.evaluate(countRows);
  const probe = await page.evaluate(() => window.__agentlinesProbe);
  if (process.env.HOST_E2E_DUMP) writeFileSync(join(p.work, `page-${r.which}-${r.log}-${fix ? "fix" : "shipped"}.html`), await page.content());
  if (shot) {
    // The transcript's scroll box, from its top (where the run starts).
    const box = await page.evaluateHandle(() => {
      const h = [...document.querySelectorAll("span")].find((s) => /^Transcript \(\d+\)$/.test(s.textContent.trim()));
      const scroller = h.parentElement.nextElementSibling;
      scroller.scrollTop = 0;
      return scroller;
    });
    await page.waitForTimeout(300);
    await box.asElement().screenshot(shot.endsWith(".jpg") ? { path: shot, quality: 55 } : { path: shot });
    // Ours: also the first of the host's diff cards (a row labelled by a file name: the
    // host's card for our `diff` entries), scrolled to the top of the box.
    const found = await page.evaluate(() => {
      const h = [...document.querySelectorAll("span")].find((s) => /^Transcript \(\d+\)$/.test(s.textContent.trim()));
      const scroller = h.parentElement.nextElementSibling;
      const row = [...scroller.firstElementChild.children].find((r) => {
        const label = r.querySelector('[class*="uppercase"]')?.textContent.trim() ?? "";
        return /\.[a-z0-9]{1,5}$/i.test(label) && !/^(used|using|executed|executing)\b/i.test(label);
      });
      if (!row) return false;
      scroller.scrollTop += row.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 8;
      return true;
    });
    if (found && r.which === "ours" && shot.endsWith(".png")) {
      await page.waitForTimeout(300);
      await box.asElement().screenshot({ path: shot.replace(/\.png$/, "-diff.png") });
    }
  }
  await ctx.close();
  return { found: c.found, rows: c.rows, results: c.results, loneToolCards: c.loneToolCards, redactedJson: c.redactedJson, rawJson: c.rawJson, rawJsonRows: c.rawJsonRows, toolCalls: c.toolCalls, byKind: c.byKind, loadMoreClicks: loads, renderMs, pageErrors, workerErrors: probe.workerErrors, parserReady: probe.ready, fixApplied: probe.fixApplied };
}

main().then(cleanup, async (e) => {
  console.error(`[host-e2e] ${e.message}`);
  await cleanup();
  process.exit(1);
});
