// "share .html" (www/share.js): the run as one HTML file that opens from disk with no server
// and no network, shows the same rows, header and search as the viewer, and runs nothing but
// its own hashed script: the XSS payloads of the viewer's suite stay text, no CSP violation.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, copyFileSync, readFileSync, writeFileSync, statSync, rmSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "../js/host.mjs";
import { viewerSession, serverUrl, frames } from "./viewer-page.mjs";
import { richLog, XSS } from "./viewer-helpers.mjs";

const { openPage, echoPage, paste, kindCounts, clean, cspViolations, waitState } = viewerSession(test);

// A real Claude Code session with a subagent, tool cards and edits (tests/fixtures/claude/PROVENANCE.md).
const SESSION = join(root, "tests/fixtures/claude/session-spotter-tool_heavy.jsonl");

async function share(page, dir) {
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#export-html")]);
  assert.match(dl.suggestedFilename(), /\.transcript\.html$/);
  const file = join(dir, dl.suggestedFilename());
  copyFileSync(await dl.path(), file);
  return file;
}

/** Opens a shared file from disk with every request off the disk refused and recorded. */
async function openShared(file) {
  const p = await openPage({ context: { offline: true } });
  const fetched = [];
  await p.page.route((u) => !u.href.startsWith("file:"), (r) => { fetched.push(r.request().url()); return r.abort(); });
  await p.page.goto(pathToFileURL(file).href);
  await waitState(p.page, "done");
  await p.page.waitForFunction(() => document.body.dataset.usage);
  await frames(p.page);
  return { ...p, fetched };
}

/** The log opened in the viewer, its usage known. */
async function inViewer(file) {
  const p = await openPage();
  await p.page.goto(`${serverUrl()}/www/`);
  await p.page.waitForFunction(() => document.body.dataset.parser === "ready");
  await p.page.setInputFiles("#file", file);
  await waitState(p.page, "done");
  await p.page.waitForFunction(() => document.body.dataset.usage);
  await frames(p.page);
  return p;
}

const facts = (page) => page.evaluate(() => ({
  rows: document.body.dataset.rows,
  title: document.getElementById("run-title").textContent,
  facts: [...document.querySelectorAll("#run-facts .fact")].map((f) => f.textContent),
  source: document.getElementById("source").textContent,
}));

test("a real session shared as one HTML file opens offline from disk with the same rows, header and search", async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-share-"));
  try {
    const { page, problems } = await inViewer(SESSION);
    const want = await facts(page);
    const wantCounts = await kindCounts(page);
    const file = await share(page, dir);
    await clean(page, problems);

    const size = statSync(file).size;
    const logSize = statSync(SESSION).size;
    const shared = await openShared(file);
    const got = await facts(shared.page);
    assert.deepEqual(got, want, "the same rows and header");
    assert.deepEqual(await kindCounts(shared.page), wantCounts);
    assert.deepEqual(shared.fetched, [], "nothing fetched");
    // Inputs and developer controls are not part of a shared file.
    for (const sel of ["#file", "#sample", "#dev", "#export-html", "#stateless"]) {
      assert.equal(await shared.page.$eval(sel, (e) => e.checkVisibility()), false, sel);
    }
    // Search works in the file.
    await shared.page.fill("#search", "Read");
    await shared.page.press("#search", "Enter");
    await shared.page.waitForFunction(() => /match \d/.test(document.getElementById("match-pos").textContent));
    // The Markdown export works from the file too.
    const [md] = await Promise.all([shared.page.waitForEvent("download"), shared.page.click("#export-md")]);
    assert.ok(readFileSync(await md.path(), "utf8").startsWith("# Transcript: "));
    console.log(`shared file ${size} bytes for a ${logSize}-byte session (${(size / logSize).toFixed(2)}x)`);
    await clean(shared.page, shared.problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// `agentlines parse -o html` writes the same file from the same parts (cli/src/share-template.json,
// made from www/ by scripts/share-template.mjs): the same rows, header and counts as the viewer.
const BIN = process.env.AGENTLINES_BIN ?? join(root, "target/debug/agentlines");
test("agentlines parse -o html writes the file the viewer shares", { skip: !existsSync(BIN) && "no CLI built" }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-share-"));
  try {
    const { page, problems } = await inViewer(SESSION);
    const want = await facts(page);
    const wantCounts = await kindCounts(page);
    await clean(page, problems);
    const file = join(dir, "cli.html");
    const r = spawnSync(BIN, ["parse", "-o", "html", SESSION], { encoding: "utf8", maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    writeFileSync(file, r.stdout);
    const shared = await openShared(file);
    const got = await facts(shared.page);
    assert.equal(got.source, "session-spotter-tool_heavy.jsonl");
    assert.deepEqual({ ...got, source: "" }, { ...want, source: "" });
    assert.deepEqual(await kindCounts(shared.page), wantCounts);
    assert.deepEqual(shared.fetched, []);
    await clean(shared.page, shared.problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The size against claude-code-log's one HTML file for the same 3.4 MB session (theirs: 2.4 MB),
// when the shared corpus is next to the checkout (docs/viewer.md cites this line).
const BIG = join(root, "..", "shared", "corpus", "bench", "claude-session-spotter-fa812bfe.jsonl");
test("shared file size for a 3.4 MB Claude session", { skip: !existsSync(BIG) && "no ../shared/corpus" }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-share-"));
  try {
    const { page, problems } = await inViewer(BIG);
    const want = await facts(page);
    const file = await share(page, dir);
    await clean(page, problems);
    const shared = await openShared(file);
    assert.deepEqual(await facts(shared.page), want);
    const size = statSync(file).size;
    console.log(`shared file of claude-session-spotter-fa812bfe: ${(size / 1e6).toFixed(2)} MB for ${(statSync(BIG).size / 1e6).toFixed(2)} MB of log`);
    await clean(shared.page, shared.problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a shared file runs nothing of what the agent printed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "al-share-"));
  try {
    const { page, problems } = await echoPage();
    const { lines, expect } = richLog();
    // Payloads that try to leave the data block and the page's script too.
    const extra = ["</script><script>document.body.dataset.pwned='close'</script>", "<!--<script>", "<style>body{display:none}</style>", "after \u2028\u2029 them"];
    await paste(page, [...lines, ...extra].join("\n"));
    const rows = Number(await page.evaluate(() => document.body.dataset.rows));
    assert.equal(rows, expect.rows + extra.length, "each payload a row of its own");
    const file = await share(page, dir);
    await clean(page, problems);
    const html = readFileSync(file, "utf8");
    assert.equal((html.match(/<script\b/g) || []).length, 2, "one data block and one script");
    const shared = await openShared(file);
    await shared.page.click("#expand-all");
    assert.equal(Number(await shared.page.evaluate(() => document.body.dataset.rows)), rows);
    const pwned = await shared.page.evaluate(() => document.body.dataset.pwned);
    assert.equal(pwned, undefined, "a payload ran");
    // Each payload is found by the search as text (its row then on screen).
    for (const x of [XSS[1], extra[0], extra[1], extra[2]]) {
      await shared.page.fill("#search", x);
      await shared.page.press("#search", "Enter");
      await shared.page.waitForFunction((x) => /^match 1 of/.test(document.getElementById("match-pos").textContent) &&
        document.getElementById("list").textContent.includes(x), x);
    }
    assert.equal(await shared.page.evaluate(() => document.body.dataset.pwned), undefined, "a payload ran");
    assert.deepEqual(await cspViolations(shared.page), []);
    await clean(shared.page, shared.problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
