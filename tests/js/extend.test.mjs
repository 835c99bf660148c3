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
  assert.equal(bad[0].text, "the ui-parser hook gave an entry that is not shown: item 0 (assistant): text is the number 5, expected a string");
  assert.match(bad[1].text, /item 1's kind is the string "nope", expected one of assistant, thinking, user, tool_call/);
  assert.deepEqual(bad[2], { kind: "system", ts: "T", text: "ok" });
  assert.match(p.parseStdoutLine("object", "T")[0].text, /returned an object; it must return an array of entries, or undefined/);
  assert.match(p.parseStdoutLine("cyclic", "T")[0].text, /item 0 is an array of 1, expected an entry object/);
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
  refuse("module.exports = function (", /has a syntax error at line \d+, column \d+/);
  refuse("module.exports = function (line) {\n  var x = ;\n};", /hook\.js has a syntax error at line 2, column 11 \(var x = ;\): Unexpected token/);
  refuse("var a = 1;\nnull.x;\nmodule.exports = function () {};", /does not load as the host would run it: .*\(line 2, column \d+\)/);
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

// The mistakes the issue named, each named back: the item, the field, what it got, what was
// expected.
test("a hook's wrong entries are named: item, field, what it got, what was expected", () => {
  const p = hooked(`module.exports = function (line, ts) {
    return JSON.parse(line);
  };`);
  const say = (items) => p.parseStdoutLine(JSON.stringify(items), "T").map((e) => e.text);
  assert.deepEqual(say([{ kind: "tool_call", name: 42, input: {} }]),
    ["the ui-parser hook gave an entry that is not shown: item 0 (tool_call): name is the number 42, expected a string"]);
  assert.deepEqual(say([{ kind: "tool_call", name: "Bash" }]),
    ["the ui-parser hook gave an entry that is not shown: item 0 (tool_call) has no input, expected any JSON value"]);
  assert.match(say([{ kind: "system", text: "a" }, { kind: "system", text: "b" }, { kind: "banana" }])[2],
    /item 2's kind is the string "banana", expected one of assistant, .*, run_terminal$/);
  assert.match(say([{ text: "no kind" }])[0], /item 0 has no kind, expected one of/);
  assert.match(say(["just text"])[0], /item 0 is the string "just text", expected an entry object/);
  assert.match(say([{ kind: "tool_result", toolUseId: "t", content: "x", isError: "yes" }])[0], /item 0 \(tool_result\): isError is the string "yes", expected true or false/);
  assert.match(say([{ kind: "result", inputTokens: "1", outputTokens: 2 }])[0], /inputTokens is the string "1", expected a finite number/);
  // The host-only kinds' fields are the wasm's check (it names the field and the type).
  assert.match(say([{ kind: "run_terminal", turnState: "done", runState: "succeeded", disposition: "done" }])[0] ?? "", /turnState must be one of/);
});

test("a hook's output has the budget of the line it read: 2,000,000 entries or 17 MiB of text from a 4-byte line", () => {
  const p = hooked(`module.exports = function (line, ts) {
    if (line === "many") { var out = []; for (var i = 0; i < 2000000; i++) out.push({ kind: "system", ts: ts, text: "n" + i }); return out; }
    if (line === "huge") { var t = "x"; while (t.length < 17 * 1024 * 1024) t += t; return [{ kind: "assistant", ts: ts, text: "ok" }, { kind: "assistant", ts: ts, text: t }]; }
    return undefined;
  };`);
  let t0 = performance.now();
  const many = p.parseStdoutLine("many", "T");
  const manyMs = performance.now() - t0;
  assert.equal(many.length, 1025, "1024 entries, then one notice");
  assert.match(many.at(-1).text, /gave 2000000 entries for a line of 4 characters; the 1998976 past its output budget \(1024 entries, 262144 characters of JSON\) are not shown/);
  t0 = performance.now();
  const huge = p.parseStdoutLine("huge", "T");
  assert.deepEqual(huge[0], { kind: "assistant", ts: "T", text: "ok" });
  assert.match(huge[1].text, /item 1 \(assistant\): text is a string of \d+ characters, more than this line may show \(262144\)/);
  assert.equal(huge.length, 2);
  assert.ok(manyMs < 2000, `2,000,000 entries answered in ${manyMs.toFixed(0)} ms (the hook's own loop included)`);
});

test("the hook cannot reach the parser's names: not the validator, not the wasm glue", () => {
  const p = hooked(`var seen = [typeof alHookEntries, typeof alInstance, typeof alText, typeof parseStdoutLine, typeof AGENTLINES_WASM].join(",");
  module.exports = function (line, ts, ours) {
    if (line === "seen") return [{ kind: "system", ts: ts, text: seen }];
    return undefined;
  };`);
  assert.deepEqual(p.parseStdoutLine("seen", "T"), [{ kind: "system", ts: "T", text: "undefined,undefined,undefined,undefined,undefined" }]);
  // Assigning one of them is an assignment to an undeclared name in strict code: the hook does
  // not load, the file does not either; bakeHook says so at the author's desk.
  assert.throws(() => bakeHook(stateless, "alHookEntries = null;\nmodule.exports = function () {};", "hook.js"),
    (e) => e instanceof HookError && /does not load as the host would run it: alHookEntries is not defined \(line 1/.test(e.message));
});

// A hook that recursed to the end of the stack and calls ours() there: the call must not
// overflow inside the wasm, where the instance (and every stateful parser's state in it) would
// be dropped. The line it reads is among the deepest a line can be (a tool call whose input
// nests to the reader's limit: read, then written back). The session below holds a Claude tool call; after the deep line its result must
// still pair with it. The same test on a file without the check shows the break.
const DEEP_HOOK = `module.exports = function (line, ts, ours) {
  if (line !== "deep") return undefined;
  var deepest = 0;
  function down(n) {
    try { return down(n + 1); } catch (e) { if (n > deepest) deepest = n; return ours('{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"n","input":' + '{"a":'.repeat(121) + '1' + '}'.repeat(121) + '}]}}'); }
  }
  down(0);
  return [{ kind: "system", ts: ts, text: "deep " + deepest }];
};`;
const CALL = '{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]},"session_id":"s"}';
const RESULT = '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt"}]},"session_id":"s"}';
function pairedAfterDeep(source) {
  const mod = loadUiParser(source);
  const p = mod.createStdoutParser();
  p.parseLine(CALL, "T");
  const deep = structuredClone(p.parseLine("deep", "T"));
  const [result] = structuredClone(p.parseLine(RESULT, "T")).filter((e) => e.kind === "tool_result");
  return { deep, toolName: result && result.toolName };
}
test("ours() called at the end of the stack answers a notice; no instance is dropped", () => {
  const baked = bakeHook(stateful, DEEP_HOOK, "hook.js");
  const { deep, toolName } = pairedAfterDeep(baked);
  assert.equal(toolName, "Bash", "the session's pending call survived the deep line");
  assert.match(deep.at(-1).text, /^deep \d+$/);
  const noProbe = baked.replace("if (inHook && !alHookRoom())", "if (false)");
  assert.notEqual(noProbe, baked);
  assert.notEqual(pairedAfterDeep(noProbe).toolName, "Bash", "without the probe the instance is dropped (the test can fail)");
});

test("a hooked stateful parser has the whole stateful API: parseChunk, flush, reset, dispose", () => {
  const mod = loadUiParser(bakeHook(stateful, `module.exports = function (line, ts) {
    if (line.indexOf("MINE ") === 0) return [{ kind: "assistant", ts: ts, text: line.slice(5) }];
    return undefined;
  };`, "hook.js"));
  const lines = [CALL, "MINE hello", RESULT, "plain"];
  const byLine = mod.createStdoutParser();
  const want = structuredClone(lines.flatMap((l) => byLine.parseLine(l, "T")));
  const text = lines.join("\r\n");
  for (const cut of [1, 7, 50, text.length - 3]) {
    const p = mod.createStdoutParser();
    const got = structuredClone([...p.parseChunk(text.slice(0, cut), "T"), ...p.parseChunk(text.slice(cut), "T"), ...p.flush("T")]);
    assert.deepEqual(got, want, `cut at ${cut}`);
    p.reset();
    assert.deepEqual(structuredClone(p.parseChunk("MINE a\nMINE b", "T")), [{ kind: "assistant", ts: "T", text: "a" }]);
    assert.deepEqual(structuredClone(p.flush("T")), [{ kind: "assistant", ts: "T", text: "b" }]);
    p.dispose();
    assert.ok(Array.isArray(p.parseLine("x", "T")), "a host file's parser stays usable after dispose");
  }
});

test("a hooked stateful parser reads an over-long line in chunks as the plain one does, in linear time", () => {
  const plain = loadUiParser(stateful).createStdoutParser();
  const hooked = loadUiParser(bakeHook(stateful, "module.exports = function () { return undefined; };", "hook.js")).createStdoutParser();
  const text = JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "x".repeat(17 << 20) }] } }) + "\nafter\n";
  const feed = (p, size) => {
    const out = [];
    for (let at = 0; at < text.length; at += size) out.push(...p.parseChunk(text.slice(at, at + size), "T"));
    return structuredClone([...out, ...p.flush("T")]);
  };
  const a = feed(plain, 1 << 20), b = feed(hooked, 1 << 20);
  // The same entries, but the notice's byte count: the plain parser counts the whole line, the
  // hooked one the head it kept (16 MiB + 1).
  const shape = (es) => es.map((e) => (e.kind === "system" ? "system" : JSON.stringify(e).slice(0, 200)));
  assert.deepEqual(shape(b), shape(a));
  assert.match(b[0].text, /over the 16 MB limit/);
  assert.deepEqual(b.at(-1), { kind: "stdout", ts: "T", text: "after" });
  // Small chunks: the held line is not split again for every chunk (that was quadratic).
  const t0 = performance.now();
  const small = loadUiParser(bakeHook(stateful, "module.exports = function () { return undefined; };", "hook.js")).createStdoutParser();
  const four = "y".repeat(4 << 20) + "\n";
  for (let at = 0; at < four.length; at += 16384) small.parseChunk(four.slice(at, at + 16384), "T");
  assert.ok(performance.now() - t0 < 2000, `4 MiB in 16 KiB chunks: ${(performance.now() - t0).toFixed(0)} ms`);
});

test("a hook that leaves its lines to agentlines costs little per line (hooked against plain, stateless)", (t) => {
  const plain = loadUiParser(stateless);
  const withHook = loadUiParser(bakeHook(stateless, "module.exports = function () { return undefined; };", "hook.js"));
  const lines = readFileSync(join(root, "tests", "fixtures", "claude", "session-spotter-subagent.jsonl"), "utf8").split("\n").filter(Boolean);
  const time = (m) => { const t0 = performance.now(); for (let r = 0; r < 5; r++) for (const l of lines) m.parseStdoutLine(l, "T"); return performance.now() - t0; };
  time(plain); time(withHook);
  const a = Math.min(time(plain), time(plain)), b = Math.min(time(withHook), time(withHook));
  t.diagnostic(`${lines.length * 5} lines: plain ${a.toFixed(1)} ms, hooked ${b.toFixed(1)} ms (${(b / a).toFixed(2)}x)`);
  assert.ok(b < a * 3 + 20, `hooked ${b.toFixed(1)} ms against ${a.toFixed(1)} ms`);
});
