// The extension hook (docs/extend.md), tested the host's way: each example under
// examples/extend/ is baked into the built ui-parser files by the package's own baking step
// (dist/bin/bake-hook.mjs, what `agentlines-ui-parser --hook` runs), the result loaded as the
// host loads it (scanner, locked-down globals, new Function body) and its capture replayed
// against the reviewed expected output. `UPDATE_EXTEND=1 node --test tests/js/extend.test.mjs`
// rewrites the expected files; read the diff before committing.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { root, fixtureTs } from "./host.mjs";
import { EXAMPLES, example, examplesDir } from "./extend-examples.mjs";
import { loadUiParser, loadAdapterUiParser } from "../../pkg-template/testing.mjs";

const { bakeHook, HookError } = await import(join(root, "dist", "bin", "bake-hook.mjs"));
const stateless = readFileSync(join(root, "dist", "ui-parser.stateless.js"), "utf8");
const stateful = readFileSync(join(root, "dist", "ui-parser.js"), "utf8");
const replay = (parse, lines) => lines.map((l, i) => structuredClone(parse(l, fixtureTs(i))));

for (const name of EXAMPLES) {
  test(`examples/extend/${name}: baked into both files, loaded the host's way, reads its capture`, () => {
    const ex = example(name);
    assert.ok(ex.hook.split("\n").length <= 40, "an example is a handful of lines");
    const plain = loadUiParser(stateless);
    const hooked = loadUiParser(bakeHook(stateless, ex.hook, `${name}/hook.js`));
    const got = replay(hooked.parseStdoutLine, ex.lines);
    if (process.env.UPDATE_EXTEND) {
      writeFileSync(ex.expectedFile, got.map((e) => JSON.stringify(e)).join("\n") + "\n");
      return;
    }
    assert.ok(ex.expected, `${ex.expectedFile} missing: UPDATE_EXTEND=1`);
    for (let i = 0; i < ex.lines.length; i++) {
      assert.equal(JSON.stringify(got[i]), JSON.stringify(ex.expected[i]), `line ${i + 1}: ${ex.lines[i]}`);
    }
    // The hook is what reads these lines: without it, each of its lines shows as a named event.
    const without = replay(plain.parseStdoutLine, ex.lines);
    const read = got.flat().filter((e) => !(e.kind === "system" && /^event: /.test(e.text))).length;
    const readWithout = without.flat().filter((e) => !(e.kind === "system" && /^event: /.test(e.text))).length;
    assert.ok(read > readWithout, `${name}: the hook reads more than agentlines alone (${read} vs ${readWithout})`);
    // The stateful file, hooked, gives the same entries for the same lines (one session).
    const session = loadUiParser(bakeHook(stateful, ex.hook, `${name}/hook.js`)).createStdoutParser();
    const viaSession = replay(session.parseLine, ex.lines);
    assert.deepEqual(viaSession.map((es) => es.map(({ durationMs, ...e }) => e)), got.map((es) => es.map(({ durationMs, ...e }) => e)));
  });
}

// Entries cross the worker boundary in the host: structured clones (this realm's objects).
const hooked = (src) => {
  const mod = loadUiParser(bakeHook(stateless, src, "hook.js"));
  return { parseStdoutLine: (l, t) => structuredClone(mod.parseStdoutLine(l, t)) };
};

test("a hook's output is checked like a line that already is an entry", () => {
  const p = hooked(`module.exports = function (line, ts) {
    if (line === "bad") return [{ kind: "assistant", text: 5 }, { kind: "nope" }, { kind: "system", text: "ok" }];
    if (line === "object") return { kind: "system", text: "not in an array" };
    if (line === "cyclic") { var a = []; a.push(a); return a; }
    return undefined;
  };`);
  const bad = p.parseStdoutLine("bad", "T");
  assert.match(bad[0].text, /invalid assistant entry, not shown: its text must be a string/);
  assert.match(bad[1].text, /not a transcript entry \(item 1/);
  assert.deepEqual(bad[2], { kind: "system", ts: "T", text: "ok" });
  assert.match(p.parseStdoutLine("object", "T")[0].text, /must return an array of entries or undefined/);
  assert.match(p.parseStdoutLine("cyclic", "T")[0].text, /gave no JSON value/);
  // undefined: agentlines' own reading.
  assert.deepEqual(p.parseStdoutLine("plain text", "T"), [{ kind: "stdout", ts: "T", text: "plain text" }]);
});

test("a hook that throws costs its line a notice, never a throw; ours() is agentlines' reading", () => {
  const p = hooked(`module.exports = function (line, ts, ours) {
    if (line === "boom") throw new TypeError("no such field");
    if (line.indexOf("WRAP ") === 0) return ours(line.slice(5)).concat(ours());
    return undefined;
  };`);
  const boom = p.parseStdoutLine("boom", "T");
  assert.match(boom[0].text, /the ui-parser hook failed on this line \(no such field\)/);
  assert.deepEqual(boom[1], { kind: "stdout", ts: "T", text: "boom" });
  const wrapped = p.parseStdoutLine('WRAP {"kind":"user","text":"hi"}', "T");
  assert.deepEqual(wrapped[0], { kind: "user", ts: "T", text: "hi" });
  assert.equal(wrapped[1].kind, "stdout");
  for (const odd of [undefined, null, 42, {}, "\u0000"]) assert.ok(Array.isArray(p.parseStdoutLine(odd, odd)));
});

test("baking refuses what the host would refuse, with the hook's line", () => {
  const refuse = (src, re) => assert.throws(() => bakeHook(stateless, src, "hook.js"), (e) => e instanceof HookError && re.test(e.message));
  refuse("module.exports = function (line) {\n  return eval(line);\n};", /eval\( at line 2/);
  refuse("module.exports = function (l) { return l.constructor; };", /\.constructor at line 1/);
  refuse("module.exports = function (l) { return `${l}x.constructor`; };", /\.constructor/);
  refuse('import x from "y";\nmodule.exports = function () {};', /import\/export statement at line 1/);
  refuse("module.exports = 42;", /must set module.exports to a function/);
  refuse("throw new Error('at load');", /does not load as the host would run it: at load/);
  refuse("module.exports = function (", /does not load/);
  refuse("  \n", /is empty/);
});

test("agentlines-ui-parser --hook writes the baked file into an adapter package", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentlines-hook-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", type: "module", exports: { "./ui-parser": "./ui-parser.cjs" }, paperclip: { adapterUiParser: "1.0.0" } }));
    const bin = join(root, "dist", "bin", "agentlines-ui-parser.mjs");
    const out = execFileSync(process.execPath, [bin, dir, "--hook", join(examplesDir, "deepseek", "hook.js")], { encoding: "utf8" });
    assert.match(out, /baked the hook/);
    const { module } = loadAdapterUiParser(dir);
    const [init] = structuredClone(module.parseStdoutLine('{"type":"deepseek.init","sessionId":"s1","model":"m"}', "T"));
    assert.deepEqual(init, { kind: "init", ts: "T", model: "m", sessionId: "s1" });
    writeFileSync(join(dir, "bad.js"), "module.exports = function (l) { return eval(l); };");
    assert.throws(() => execFileSync(process.execPath, [bin, dir, "--hook", join(dir, "bad.js")], { stdio: "pipe" }), (e) => e.status === 1 && /eval\( at line 1/.test(String(e.stderr)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
