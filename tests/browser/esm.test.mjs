// The npm package's ES modules in Chromium with no bundler: an import map names the
// package's files (as a page that vendors node_modules would), and a module script imports
// `agentlines` (wasm inlined), `agentlines/claude` (one runtime) and `agentlines/web`
// (await init(), which streams agentlines.wasm from beside the module).
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch } from "./chromium.mjs";

const INIT = '{"type":"system","subtype":"init","model":"claude-sonnet-4-5","session_id":"abc"}';

test("ES modules through an import map: agentlines, agentlines/claude, agentlines/web", async (t) => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const wasmRequests = [];
    page.on("request", (r) => { if (r.url().endsWith(".wasm")) wasmRequests.push(r.url()); });
    await page.goto(server.url + "/tests/browser/blank.html");
    const base = server.url + "/pkg/dist";
    await page.setContent(`<script type="importmap">${JSON.stringify({ imports: {
      "agentlines": `${base}/index.mjs`, "agentlines/claude": `${base}/claude/index.mjs`, "agentlines/web": `${base}/web/index.mjs` } })}</script>
<script type="module">
import { parseStdoutLine, extractText, init } from "agentlines";
import * as claude from "agentlines/claude";
import * as web from "agentlines/web";
const line = ${JSON.stringify(INIT)};
const r = {};
try {
  await init();
  r.full = parseStdoutLine(line, "t");
  r.text = extractText({ text: "hi" });
  r.claude = claude.parseLog(line + "\\nplain\\n", "t");
  try { web.parseStdoutLine(line, "t"); } catch (e) { r.before = e.code; }
  const t0 = performance.now();
  await web.init();
  r.initMs = performance.now() - t0;
  r.web = web.parseStdoutLine(line, "t");
} catch (e) { r.error = String(e && e.stack || e); }
window.__result = r;
</script>`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
    const r = await page.evaluate(() => window.__result);
    assert.equal(r.error, undefined, r.error);
    const init = [{ kind: "init", ts: "t", model: "claude-sonnet-4-5", sessionId: "abc" }];
    assert.deepEqual(r.full, init);
    assert.equal(r.text, "hi");
    assert.deepEqual(r.claude, [...init, { kind: "stdout", ts: "t", text: "plain" }]);
    assert.equal(r.before, "AGENTLINES_NOT_INITIALIZED", "agentlines/web before init()");
    assert.deepEqual(r.web, init);
    assert.deepEqual(wasmRequests, [`${base}/web/agentlines.wasm`], "agentlines/web fetched its wasm once");
    t.diagnostic(`agentlines/web: init() fetched and compiled agentlines.wasm in ${r.initMs.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

// agentlines/web on a page whose CSP lacks 'wasm-unsafe-eval': init() rejects with the same
// AgentlinesWasmError (AGENTLINES_NO_WASM, naming the fix) as the entries with the wasm
// inlined give, and every later call throws it (not "await init() first").
test("agentlines/web under a CSP without 'wasm-unsafe-eval': init() and every call name the fix", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(server.url + "/tests/browser/blank.html");
    const base = server.url + "/pkg/dist";
    await page.setContent(`<meta http-equiv="Content-Security-Policy" content="script-src 'unsafe-inline' ${server.url}">
<script type="importmap">${JSON.stringify({ imports: { "agentlines/web": `${base}/web/index.mjs` } })}</script>
<script type="module">
import * as web from "agentlines/web";
const r = {};
try { await web.init(); r.init = "resolved"; } catch (e) { r.init = { name: e.name, code: e.code, message: e.message, is: e instanceof web.AgentlinesWasmError, cause: e.cause && e.cause.name }; }
try { web.parseStdoutLine("x", "t"); r.call = "returned"; } catch (e) { r.call = { code: e.code, message: e.message }; }
window.__result = r;
</script>`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
    const r = await page.evaluate(() => window.__result);
    assert.equal(r.init.code, "AGENTLINES_NO_WASM", JSON.stringify(r));
    assert.ok(r.init.is, "an instance of the exported class");
    assert.equal(r.init.cause, "CompileError");
    assert.match(r.init.message, /script-src 'wasm-unsafe-eval'/);
    assert.deepEqual(r.call, { code: r.init.code, message: r.init.message });
  } finally {
    await browser.close();
    await server.close();
  }
});
