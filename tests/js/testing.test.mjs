// agentlines/testing in Node (pkg/dist/testing.mjs, as published): resolvable by its package
// name, loads a ui-parser file the host's way, refuses what the host refuses, and finds an
// adapter's parser through its package.json as the host does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, symlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, fixtureTs, linesOf } from "./host.mjs";

const T = await import(join(root, "pkg", "dist", "testing.mjs"));
const FIX = join(root, "tests", "fixtures", "claude", "stream-hivemind-background-disabled");

test("import \"agentlines/testing\" resolves through the package's exports", () => {
  const base = mkdtempSync(join(tmpdir(), "al-testing-"));
  try {
    mkdirSync(join(base, "node_modules"));
    symlinkSync(join(root, "pkg"), join(base, "node_modules", "agentlines"), "dir");
    writeFileSync(join(base, "t.mjs"), 'import { loadUiParserFile } from "agentlines/testing";\n' +
      'import { createRequire } from "node:module";\n' +
      'const file = createRequire(import.meta.url).resolve("agentlines/claude/ui-parser");\n' +
      'console.log(loadUiParserFile(file).parseStdoutLine("hello", "t")[0].kind);\n');
    const r = spawnSync(process.execPath, [join(base, "t.mjs")], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "stdout");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("loadUiParserFile + parseWithHost replay a golden fixture", () => {
  const mod = T.loadUiParserFile(join(root, "dist", "ui-parser.js"));
  const lines = linesOf(readFileSync(FIX + ".jsonl", "utf8"));
  const expected = linesOf(readFileSync(FIX + ".expected.jsonl", "utf8")).flatMap((l) => JSON.parse(l));
  const got = T.parseWithHost(mod, lines, { ts: lines.map((_, i) => fixtureTs(i)) });
  assert.ok(expected.length > 10);
  assert.deepEqual(got, expected);
  // Stateless: one call per line, no pairing: a result is named only where its own line
  // says which tool it was, so fewer results carry a toolName than on the stateful path.
  const flat = T.parseWithHost(mod, lines, { stateful: false, ts: "t" });
  const named = (es) => es.filter((e) => e.kind === "tool_result" && e.toolName !== undefined).length;
  assert.ok(flat.some((e) => e.kind === "tool_result"));
  assert.ok(named(flat) < named(got), `stateless ${named(flat)} named results, stateful ${named(got)}`);
});

test("what the host refuses is a HostLoadError with its stage", () => {
  const refuse = (src, stage, re) => assert.throws(() => T.loadUiParser(src), (e) =>
    e instanceof T.HostLoadError && e.stage === stage && re.test(e.message));
  refuse("exports.parseStdoutLine = function () { return eval('1'); };", "scanner", /eval\( at line 1/);
  refuse("var f = (function(){}).constructor;", "scanner", /\.constructor/);
  refuse("exports.x = 1;", "exports", /no parseStdoutLine/);
  refuse("throw new Error('boom');", "evaluate", /boom/);
  // The globals are gone when it runs: fetch/Function/process are undefined, self too.
  const mod = T.loadUiParser("exports.parseStdoutLine = function () { return [{ kind: 'stdout', ts: '', " +
    "text: [typeof fetch, typeof Function, typeof process, typeof self].join() }]; };");
  assert.equal(mod.parseStdoutLine("", "")[0].text, "undefined,undefined,undefined,undefined");
  // A file the scanner passes: "eval(" inside a string is fine.
  assert.equal(typeof T.loadUiParser('var s = "eval(x)"; exports.parseStdoutLine = function () { return []; };').parseStdoutLine, "function");
});

test("loadAdapterUiParser finds the adapter's parser as the host does", () => {
  const base = mkdtempSync(join(tmpdir(), "al-adapter-"));
  const pkgFile = join(base, "package.json");
  const write = (pkg) => writeFileSync(pkgFile, JSON.stringify(pkg));
  try {
    assert.throws(() => T.loadAdapterUiParser(base), /no package\.json/);
    write({ name: "a", exports: { "./ui-parser": "./p.js" } });
    assert.throws(() => T.loadAdapterUiParser(base), /adapterUiParser/);
    write({ name: "a", exports: { "./ui-parser": "./node_modules/agentlines/dist/ui-parser.js" }, paperclip: { adapterUiParser: "1.0.0" } });
    assert.throws(() => T.loadAdapterUiParser(base), /not under node_modules/);
    write({ name: "a", exports: { "./ui-parser": "./p.js" }, paperclip: { adapterUiParser: "1.0.0" } });
    assert.throws(() => T.loadAdapterUiParser(base), /does not exist/);
    writeFileSync(join(base, "p.js"), readFileSync(join(root, "dist", "codex", "ui-parser.stateless.js")));
    const { file, module } = T.loadAdapterUiParser(base);
    assert.equal(file, join(base, "p.js"));
    const e = module.parseStdoutLine('{"type":"thread.started","thread_id":"th_1"}', "t");
    assert.equal(e[0].kind, "init");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
