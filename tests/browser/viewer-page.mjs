// The page side of the viewer's browser tests (tests/browser/viewer*.test.mjs): one viewer
// server (www/serve.mjs, 127.0.0.1, random port) and one headless Debian chromium per test
// file, fresh pages with console/CSP collectors, and small waits and actions.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./chromium.mjs";
import { root } from "../js/host.mjs";
import { startViewerServer } from "../../www/serve.mjs";
import assert from "node:assert/strict";
import { CSP_PROBE, ECHO_PARSER } from "./viewer-helpers.mjs";

/** Where screenshots go: tests/screenshots-tmp/ (ignored by git) unless VIEWER_SCREENSHOTS
 * names another folder (docs/screenshots refreshes the docs' pictures); "0": none. */
export const SHOTS = process.env.VIEWER_SCREENSHOTS === "0" ? null : process.env.VIEWER_SCREENSHOTS || join(root, "tests", "screenshots-tmp");

let server = null;
let browser = null;

export const serverUrl = () => server.url;

export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Registers before/after hooks on node:test's `test` and returns the page helpers. */
export function viewerSession(test) {
  test.before(async () => {
    server = await startViewerServer({ port: 0 });
    browser = await launch();
  });
  test.after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh page with error/CSP collectors; `problems` lists what went wrong. opts.parser:
   * a parser source served as /dist/test-parser.js; opts.context: browser context options. */
  async function openPage(opts = {}) {
    const context = opts.context ? await browser.newContext(opts.context) : null;
    const page = context ? await context.newPage() : await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const problems = [];
    const note = (where, m) => {
      if (m.type() === "error" || /Content.Security.Policy|Refused to/i.test(m.text())) problems.push(`${where}: ${m.text()}`);
    };
    page.on("console", (m) => note("console", m));
    page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
    page.on("worker", (w) => w.on("console", (m) => note("worker", m)));
    await page.addInitScript(CSP_PROBE);
    if (opts.parser !== undefined) {
      await page.route((u) => u.pathname === "/dist/test-parser.js", (r) => r.fulfill({ body: opts.parser, contentType: "text/javascript" }));
    }
    if (context) page.on("close", () => context.close().catch(() => {}));
    return { page, problems };
  }

  const cspViolations = (page) => page.evaluate(() => window.__csp);

  async function waitState(page, state, timeout = 60000) {
    await page.waitForFunction((s) => document.body.dataset.state === s, state, { timeout });
  }

  async function kindCounts(page) {
    return page.$$eval("#kind-filters .count", (els) => Object.fromEntries(els.map((e) => [e.dataset.kind, Number(e.textContent.replace(/,/g, ""))])));
  }

  async function shot(page, name) {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, name) });
  }

  async function paste(page, text) {
    await page.click("#paste-toggle");
    await page.fill("#paste", text);
    await page.click("#paste-go");
    await waitState(page, "done");
    await page.click("#paste-toggle");
  }

  // Opens the first few tool cards and thinking blocks on screen (for the screenshots).
  async function openSome(page, n = 3) {
    await page.evaluate((n) => {
      const list = document.getElementById("list");
      const visible = (d) => d.getBoundingClientRect().top < list.getBoundingClientRect().bottom - 60;
      for (const sel of ["details.tool", "details.thinking"]) {
        [...list.querySelectorAll(sel)].filter(visible).slice(0, n).forEach((d) => { d.open = true; });
      }
    }, n);
    await frames(page);
  }

  /** A page with the echo parser (viewer-helpers.mjs) loaded and ready; opts.hash: a #L… */
  async function echoPage(opts = {}) {
    const p = await openPage({ parser: ECHO_PARSER, ...opts });
    await p.page.goto(`${server.url}/www/?parser=dist/test-parser.js${opts.hash || ""}`);
    await p.page.waitForFunction(() => document.body.dataset.parser === "ready");
    return p;
  }

  /** No console error, no CSP violation; closes the page. */
  async function clean(page, problems) {
    assert.deepEqual(problems, []);
    assert.deepEqual(await cspViolations(page), []);
    await page.close();
  }

  return { openPage, cspViolations, waitState, kindCounts, shot, paste, openSome, echoPage, clean };
}
