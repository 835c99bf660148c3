// `agentlines parse -o markdown` and the run viewer's Markdown export (www/export.js) are inert
// by construction: rendered by a CommonMark renderer
// that keeps raw HTML and follows every link (markdown-it with `html: true` and its link check
// turned off, as commonmark.js with `safe: false` renders), no hostile shape placed in any
// field of any entry (assistant prose, user and thinking text, tool names, tool input and
// output, diff lines, notices, result text and subtype, the file name) gives a live tag, an
// event attribute or a link to a scheme other than http(s)/mailto. And every diff line keeps
// exactly one sign. Needs the debug CLI (`cargo build -p agentlines-cli`; `make test` builds
// it first).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { pathToFileURL } from "node:url";
import { root } from "./host.mjs";

const bin = process.env.AGENTLINES_BIN ?? join(root, "target/debug/agentlines");
const md = new MarkdownIt({ html: true, linkify: true });
md.validateLink = () => true; // follow every link, as a renderer that keeps raw links does

// Shapes that turn Markdown into live HTML in one renderer or another.
const SHAPES = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "<svg onload=alert(1)>",
  "<iframe src=javascript:alert(1)>",
  "[a](javascript:alert(1))",
  "[a](JaVaScRiPt:alert(1))",
  "[a](\njavascript:alert(1))",
  "[a](<javascript:alert(1)>)",
  "[a](java&#115;cript:alert(1))",
  "[a](java\\script:alert(1))",
  "[a]\n\n[a]: javascript:alert(1)",
  "![x](javascript:alert(1))",
  "<javascript:alert(1)>",
  "[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "`` <b>` </b> <img src=x onerror=alert(1)>",
  "` <img src=x onerror=alert(1)>",
  "```\n<img src=x onerror=alert(1)>\n````",
  "``` a`b\n<img src=x onerror=alert(1)>\n```",
  "- ```\n  <img src=x onerror=alert(1)>\n- x\n<img src=x onerror=alert(2)>",
  "~~~\n~~~ \n<img src=x onerror=alert(1)>",
  "    <img src=x onerror=alert(1)>",
  "> <img src=x onerror=alert(1)>",
  "&lt;img src=x onerror=alert(1)&gt;",
  "<!-- --><img src=x onerror=alert(1)>",
  "<a href=\"javascript:alert(1)\">x</a>",
  "**<img src=x onerror=alert(1)>**",
  "\\<img src=x onerror=alert(1)>",
  "```` ``` ````\n<img src=x onerror=alert(1)>",
  "[a](javascript&colon;alert(1))",
  "<div\nonclick=alert(1)>x</div>",
  // Found by review: CRLF fences, a label across lines, a destination past a long run of
  // spaces, a fence inside a quote, CR-only line starts.
  "```\r\ncode\r\n````\r\n<img src=x onerror=alert(1)>\r\nthen ``` here",
  "[a\nb]: javascript:alert(1)\n\n[a b]",
  "[a](" + " ".repeat(5000) + "javascript:alert(1))",
  "[a]:" + " ".repeat(5000) + "javascript:alert(1)\n\n[a]",
  "> ```\n> x\n> ````\n> <img src=x onerror=alert(1)>\n> ```",
  "x\r\r[a]: javascript:alert(1)\r\r[a]",
];

const ALLOWED = new Set(["p", "strong", "em", "code", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "a", "br", "hr", "del", "s", "table", "thead", "tbody", "tr", "th", "td", "img"]);

/** Every live thing in rendered HTML: unknown tags, event attributes, unsafe links. */
function liveIn(html) {
  const found = [];
  for (const m of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const [tag, name, attrs] = [m[0], m[1].toLowerCase(), m[2]];
    if (!ALLOWED.has(name)) found.push(tag);
    if (/\son\w+\s*=/i.test(attrs)) found.push(tag);
    for (const a of attrs.matchAll(/\s(href|src)="([^"]*)"/gi)) {
      const url = a[2].replace(/&amp;/g, "&").trim().toLowerCase();
      if (/^[a-z][a-z0-9+.-]*:/.test(url) && !/^(https?|mailto):/.test(url)) found.push(tag);
    }
  }
  return found;
}

const TS = "2026-01-01T00:00:00.000Z";
function entriesFor(x) {
  return [
    { kind: "assistant", ts: TS, text: x },
    { kind: "user", ts: TS, text: x },
    { kind: "thinking", ts: TS, text: x },
    { kind: "tool_call", ts: TS, name: x, input: { command: x }, toolUseId: "t1" },
    { kind: "tool_result", ts: TS, toolUseId: "t1", toolName: x, content: x, isError: false },
    { kind: "diff", ts: TS, changeType: "file_header", text: `+++ ${x}` },
    { kind: "diff", ts: TS, changeType: "add", text: `+${x}` },
    { kind: "system", ts: TS, text: x },
    { kind: "stderr", ts: TS, text: x },
    { kind: "result", ts: TS, text: x, inputTokens: 1, outputTokens: 1, cachedTokens: 0, costUsd: 0, subtype: x, isError: true, errors: [x] },
  ];
}

test("the CLI's Markdown renders no live HTML for any hostile shape in any field", { skip: !existsSync(bin) && "no CLI build" }, () => {
  const dir = mkdtempSync(join(tmpdir(), "al-md-"));
  try {
    const problems = [];
    SHAPES.forEach((x, i) => {
      // The file name carries the shape too (where the file system allows its characters).
      const safeName = x.replace(/[\/\0\n]/g, "_").slice(0, 100);
      let file = join(dir, `${i}-${safeName}.jsonl`);
      try { writeFileSync(file, ""); } catch { file = join(dir, `${i}.jsonl`); }
      writeFileSync(file, entriesFor(x).map((e) => JSON.stringify(e)).join("\n") + "\n");
      const out = execFileSync(bin, ["parse", "-o", "markdown", "--location", file], { encoding: "utf8" });
      const live = liveIn(md.render(out));
      if (live.length) problems.push(`shape ${i} ${JSON.stringify(x)}: ${live.join(" ")}`);
    });
    assert.deepEqual(problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a diff line keeps exactly one sign in the CLI's Markdown", { skip: !existsSync(bin) && "no CLI build" }, () => {
  const lines = [
    { kind: "diff", ts: TS, changeType: "hunk", text: "@@ -1,2 +1,2 @@" },
    { kind: "diff", ts: TS, changeType: "remove", text: "-old" },
    { kind: "diff", ts: TS, changeType: "add", text: "+new" },
    { kind: "diff", ts: TS, changeType: "context", text: " same" },
  ].map((e) => JSON.stringify(e)).join("\n");
  const out = execFileSync(bin, ["parse", "-o", "markdown"], { input: lines + "\n", encoding: "utf8" });
  assert.match(out, /```diff\n@@ -1,2 \+1,2 @@\n-old\n\+new\n same\n```/);
});

// The run viewer's export over the same shapes in the same fields, the shape also the title
// (the file's name): the same renderer finds nothing live.
const { toMarkdown } = await import(pathToFileURL(join(root, "www/export.js")).href);
const { Transcript } = await import(pathToFileURL(join(root, "www/model.js")).href);
function viewerExport(entries, title) {
  const t = new Transcript();
  t.add(entries, entries.map((_, i) => i), entries.map(() => 1));
  return toMarkdown(t, title);
}

test("the viewer's Markdown export renders no live HTML for any hostile shape in any field", () => {
  const problems = [];
  SHAPES.forEach((x, i) => {
    const live = liveIn(md.render(viewerExport(entriesFor(x), x)));
    if (live.length) problems.push(`shape ${i} ${JSON.stringify(x)}: ${live.join(" ")}`);
  });
  assert.deepEqual(problems, []);
});

test("the viewer's export keeps what is written: fences outlast backticks, text reads as it was", () => {
  const out = viewerExport([{ kind: "tool_call", ts: TS, name: "Bash", input: { command: "x" }, toolUseId: "t" },
    { kind: "tool_result", ts: TS, toolUseId: "t", content: "a ```` b\n```\n<img src=x onerror=alert(1)>", isError: false }], "run.log");
  // The result's fence is longer than its longest backtick run (4): five backticks.
  assert.match(out, /\n`````\na ```` b\n```\n<img src=x onerror=alert\(1\)>\n`````/);
  const html = md.render(viewerExport([{ kind: "user", ts: TS, text: "  *not em* <b>x</b> [a](b) & 1 < 2" }], "t"));
  assert.match(html, /<blockquote>\n<p>  \*not em\* &lt;b&gt;x&lt;\/b&gt; \[a\]\(b\) &amp; 1 &lt; 2<\/p>/);
});
