// The user-facing docs stay usable: every relative link (and #anchor) resolves, README.md and
// docs/bench.md stay within their lengths, no private tracker number ("issue 18", "round 8")
// appears in them, every generated block the bench scripts write has its markers, and
// CHANGELOG.md keeps the headings other changes are added under. No build needed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function mdFiles(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = join(dir, d.name);
    if (d.isDirectory()) return mdFiles(rel);
    return d.name.endsWith(".md") ? [rel] : [];
  });
}

/** The user-facing docs: the README, the changelog, docs/ and the npm package's README. */
const DOCS = ["README.md", "CHANGELOG.md", "pkg-template/README.md", ...mdFiles("docs")];
const read = (rel) => readFileSync(join(root, rel), "utf8");

/** The text outside fenced code blocks (links and headings in code are not links). */
function prose(text) {
  let fenced = false;
  return text.split("\n").map((l) => {
    if (/^\s*(```|~~~)/.test(l)) { fenced = !fenced; return ""; }
    return fenced ? "" : l;
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, -1… for repeats. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const l of prose(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (!m) continue;
    const base = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").trim().toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Every [text](target) and ![alt](target) outside code, with its line number. */
export function links(text) {
  const out = [];
  prose(text).forEach((l, i) => {
    const line = l.replace(/`[^`]*`/g, "");
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1], line: i + 1 });
  });
  return out;
}

/** What is wrong with one link of `from`, or null. */
function brokenLink(from, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:
  const [path, anchor] = target.split("#");
  // The package README ships beside the docs the package copies (scripts/assemble.mjs).
  const dir = from === "pkg-template/README.md" && path.startsWith("docs/") ? root : dirname(join(root, from));
  const file = path ? join(dir, decodeURIComponent(path)) : join(root, from);
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined || anchor === "") return null;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return `${target}: an anchor into a non-Markdown target`;
  return anchors(readFileSync(file, "utf8")).has(anchor) ? null : `${target}: no heading #${anchor} in ${relative(root, file)}`;
}

test("every relative link and #anchor in the docs resolves", () => {
  const broken = DOCS.flatMap((rel) => links(read(rel))
    .map(({ target, line }) => [line, brokenLink(rel, target)])
    .filter(([, why]) => why).map(([line, why]) => `${rel}:${line}: ${why}`));
  assert.deepEqual(broken, []);
});

test("the link check sees a broken file, a broken anchor and skips code", () => {
  const text = "# Title\n\n## A `b` (c)\n\n[x](nope.md) [y](#a-b-c) [z](#gone)\n\n```\n[w](nope2.md)\n```\n";
  assert.deepEqual(links(text).map((l) => l.target), ["nope.md", "#a-b-c", "#gone"]);
  assert.ok(anchors(text).has("a-b-c"));
  assert.ok(!anchors(text).has("gone"));
});

test("README.md <= 300 lines, docs/bench.md <= 600 lines", () => {
  const lines = (rel) => read(rel).replace(/\n$/, "").split("\n").length;
  assert.ok(lines("README.md") <= 300, `README.md has ${lines("README.md")} lines`);
  assert.ok(lines("docs/bench.md") <= 600, `docs/bench.md has ${lines("docs/bench.md")} lines`);
});

test("no private tracker numbers in the docs", () => {
  const tracker = /issue [0-9]+|round [0-9]+|issue-[0-9]/i;
  const hits = DOCS.flatMap((rel) => read(rel).split("\n")
    .map((l, i) => [i + 1, l]).filter(([, l]) => tracker.test(l)).map(([n, l]) => `${rel}:${n}: ${l.trim().slice(0, 100)}`));
  assert.deepEqual(hits, []);
});

test("the docs have the markers of every block the bench scripts write", () => {
  // writeDocSection("name", md) writes docs/bench.md; writeDocSection("name", md, "x.md") docs/x.md.
  const blocks = readdirSync(join(root, "bench")).filter((f) => f.endsWith(".mjs"))
    .flatMap((f) => [...read(join("bench", f)).matchAll(/writeDocSection\("([^"]+)",[^,)]+(?:,\s*"([\w./-]+\.md)")?\)/g)].map((m) => [m[1], m[2] || "bench.md"]));
  assert.ok(blocks.length >= 4, `found ${blocks.join(", ")}`);
  assert.ok(blocks.some(([, d]) => d === "viewer.md"), "the viewer's block");
  for (const [n, d] of blocks) {
    const doc = read(join("docs", d));
    const a = doc.indexOf(`<!-- bench:${n}:begin -->`);
    const b = doc.indexOf(`<!-- bench:${n}:end -->`);
    assert.ok(a >= 0 && b > a, `docs/${d}: no bench:${n} block`);
  }
});

test("CHANGELOG.md: Keep a Changelog, with Unreleased and its Added/Changed/Fixed headings", () => {
  const log = read("CHANGELOG.md");
  const unreleased = log.indexOf("## [Unreleased]");
  assert.ok(unreleased >= 0, "no ## [Unreleased]");
  const next = log.indexOf("\n## [", unreleased + 1);
  const section = log.slice(unreleased, next < 0 ? undefined : next);
  for (const h of ["### Added", "### Changed", "### Fixed"]) assert.ok(section.includes(h), `Unreleased has no ${h}`);
  assert.match(log, /^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/m, "no released version section");
});
