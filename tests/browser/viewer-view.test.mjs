// `npx agentlines view <file|folder>` from the packed tarball, installed in a fresh folder as a
// user would: the bin serves the package's viewer on 127.0.0.1 and the page opens the log (or
// lists the folder's logs and opens one) with no console error and no CSP violation.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync, rmSync, readdirSync, readFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../js/host.mjs";
import { viewerSession, frames } from "./viewer-page.mjs";

const { openPage, clean, waitState } = viewerSession(test);

let dir = null;
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), "al-view-"));
  const packed = spawnSync("npm", ["pack", join(root, "pkg"), "--pack-destination", dir, "--silent"], { encoding: "utf8" });
  assert.equal(packed.status, 0, packed.stderr);
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  const app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "someone", version: "1.0.0", private: true }));
  const inst = spawnSync("npm", ["install", join(dir, tgz), "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--silent"], { cwd: app, encoding: "utf8" });
  assert.equal(inst.status, 0, inst.stderr);
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `npx agentlines view …` in the fresh folder; resolves to { url, stop() } once it prints its URL. */
function view(...args) {
  // Its own process group: npx runs the bin as a child, and both go at the end.
  const child = spawn("npx", ["--no-install", "agentlines", "view", ...args, "--port", "0", "--no-open"], { cwd: join(dir, "app"), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const stop = () => {
    try { process.kill(-child.pid, "SIGTERM"); } catch { /* gone */ }
    child.stdout.destroy();
    child.stderr.destroy();
  };
  let out = "", err = "";
  child.stderr.on("data", (d) => { err += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`no URL in 30 s: ${out}${err}`)); }, 30000);
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/www\/\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop });
      }
    });
  });
}

test("npx agentlines view <file>: the run opens from the installed package", async () => {
  const log = join(dir, "my run (1).jsonl");
  copyFileSync(join(root, "tests/fixtures/codex/molecule-rollout-v0.156.1.jsonl"), log);
  const v = await view(log);
  try {
    const { page, problems } = await openPage();
    await page.goto(v.url);
    await waitState(page, "done");
    await frames(page);
    assert.ok(Number(await page.evaluate(() => document.body.dataset.rows)) > 0);
    assert.match(await page.$eval("#run-title", (e) => e.textContent), /^Reply with a markdown heading/);
    assert.match(await page.$eval("#source", (e) => e.textContent), /my_run__1_\.jsonl/);
    // The log grows while it is open (an agent still writing it): its new lines show up, read
    // by range from the server, in any browser.
    const rows = Number(await page.evaluate(() => document.body.dataset.rows));
    const tail = readFileSync(log, "utf8").trimEnd().split("\n").slice(-3).join("\n") + "\n";
    appendFileSync(log, tail);
    await page.waitForFunction(() => document.body.dataset.tailLines === "3", null, { timeout: 10000 });
    await page.waitForFunction((n) => Number(document.body.dataset.rows) > n, rows, { timeout: 10000 });
    assert.match(await page.$eval("#sum-counts", (e) => e.textContent), /following: 3 lines added/);
    await clean(page, problems);
  } finally {
    v.stop();
  }
});

test("npx agentlines view <folder>: its logs listed, one opened by a click", async () => {
  const logs = join(dir, "logs", "nested");
  mkdirSync(logs, { recursive: true });
  copyFileSync(join(root, "tests/fixtures/claude/stream-gleam-basic_query.ndjson"), join(logs, "claude-run.ndjson"));
  copyFileSync(join(root, "tests/fixtures/codex/agentcmd-rollout-2025-09-24T20-12-23.jsonl"), join(dir, "logs", "rollout.jsonl"));
  writeFileSync(join(dir, "logs", "notes.bin"), "not a log");
  const v = await view(join(dir, "logs"));
  try {
    const { page, problems } = await openPage();
    await page.goto(v.url);
    await page.waitForFunction(() => document.body.dataset.sessions === "done", null, { timeout: 60000 });
    const rows = await page.$$eval("#sessions-list tr.log", (trs) => trs.map((tr) => tr.children[1].textContent));
    assert.deepEqual(rows.sort(), ["logs/nested/claude-run.ndjson", "logs/rollout.jsonl"]);
    assert.match(await page.$eval("#sessions-title", (e) => e.textContent), /^2 logs in logs/);
    await page.click("#sessions-list tr.log:has-text('rollout.jsonl') td.prompt");
    await waitState(page, "done");
    assert.ok((await page.$eval("#source", (e) => e.textContent)).includes("rollout.jsonl"));
    await clean(page, problems);
  } finally {
    v.stop();
  }
});

test("npx agentlines view: a missing log and a bad option are refused with a reason", () => {
  const run = (...a) => spawnSync("npx", ["--no-install", "agentlines", ...a], { cwd: join(dir, "app"), encoding: "utf8" });
  let r = run("view", "nope.jsonl", "--no-open");
  assert.equal(r.status, 1);
  assert.match(r.stderr, /nope\.jsonl: no such file or folder/);
  r = run("view", "--port", "x", "nope");
  assert.equal(r.status, 2);
  r = run("view", "nope", "--parser");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--parser wants a value/);
  r = run("watch");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command "watch"/);
});
