// Degraded modes of the glue, through the BUILT files (dist/index.cjs and
// dist/ui-parser.js), loaded in a vm context whose WebAssembly wraps the real one so a test
// can count instances and make one export trap (a RuntimeError, as a wasm `unreachable`).
//  - an exception while converting one argument (a getter or toString that throws, a proxy,
//    a cycle) does not drop the shared instance: every live stateful parser keeps its pairing;
//  - a trap inside parseLines drops the instance (the next call builds a fresh one);
//  - an instantiation that fails is not retried on every call and is said once.
import { test } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./host.mjs";

function harness({ failInstance = false, failDecoder = false } = {}) {
  const state = { instances: 0, decoders: 0, trap: null, warns: [] };
  const W = globalThis.WebAssembly;
  const WebAssembly = {
    Module: W.Module,
    RuntimeError: W.RuntimeError,
    Instance: function (mod, imports) {
      // The split-stream decoder (pkg-template/unsplit.wat) is instantiated once, before the
      // first compile: only the parser's own instances are counted and made to fail.
      if (!W.Module.exports(mod).some((e) => e.name === "al_input")) {
        state.decoders++;
        if (failDecoder) throw new RangeError("WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance");
        return new W.Instance(mod, imports);
      }
      state.instances++;
      if (failInstance) throw new W.RuntimeError("WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance");
      const real = new W.Instance(mod, imports);
      const exports = {};
      for (const [k, v] of Object.entries(real.exports)) {
        exports[k] = typeof v !== "function" ? v : function () {
          if (state.trap === k) { state.trap = null; throw new W.RuntimeError("unreachable"); }
          return v.apply(null, arguments);
        };
      }
      return { exports };
    },
  };
  const console = { warn: (...a) => state.warns.push(a.join(" ")), log() {}, error: (...a) => state.warns.push(a.join(" ")) };
  const ctx = vm.createContext({ WebAssembly, TextEncoder, TextDecoder, Uint8Array, console });
  const load = (file) => {
    const wrapper = vm.runInContext("(function (exports, module) {\n" + readFileSync(join(root, file), "utf8") + "\n})", ctx);
    const module = { exports: {} };
    wrapper(module.exports, module);
    return module.exports;
  };
  return { state, load };
}

const CALL = JSON.stringify({ type: "assistant", message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] } });
const RESULT = JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a\nb" }] } });
const T0 = "2026-12-03T10:00:00.000Z", T1 = "2026-12-03T10:00:02.000Z";

const throwingString = { toString() { throw new Error("hostile toString"); } };
const throwingGetter = Object.defineProperty({}, "content", { enumerable: true, get() { throw new Error("hostile getter"); } });
const hostileProxy = new Proxy({}, { ownKeys() { throw new Error("hostile proxy"); }, get() { throw new Error("hostile proxy"); } });
const cycle = {}; cycle.self = cycle;

function pairedResult(entries) {
  const r = entries.find((e) => e.kind === "tool_result");
  assert.ok(r, JSON.stringify(entries));
  return r;
}

for (const file of ["dist/ui-parser.js", "dist/index.cjs"]) {
  test(`${file}: a hostile argument does not drop the instance nor any parser's pairing`, () => {
    const { state, load } = harness();
    const al = load(file);
    const p = al.createStdoutParser();
    p.parseLine(CALL, T0);
    const before = state.instances;
    assert.equal(before, 1);
    const hostileOptions = Object.defineProperty({}, "format", { get() { throw new Error("hostile options"); } });
    if (file.endsWith("index.cjs")) {
      // The npm entry checks its arguments first: a TypeError, before the wasm is touched.
      const typeError = (e) => e.name === "TypeError" && /must be a string/.test(e.message); // another realm
      assert.throws(() => al.parseStdoutLine(throwingString, T0), typeError);
      assert.throws(() => al.parseStdoutLine("x", throwingString), typeError);
      assert.throws(() => al.createStdoutParser(hostileOptions), /hostile options/);
      assert.throws(() => p.parseChunk(throwingString, T0), typeError);
      assert.throws(() => al.parseLines(["a", throwingString], T0), typeError);
      assert.throws(() => al.parseLines(["a"], [throwingString]), typeError);
      assert.throws(() => al.parseLog(throwingString, T0), typeError);
    } else {
      // Hostile arguments to every line entry point: answered (host files never throw), the
      // shared instance kept.
      assert.deepEqual(JSON.parse(JSON.stringify(al.parseStdoutLine(throwingString, T0))), []);
      assert.deepEqual(JSON.parse(JSON.stringify(al.parseStdoutLine("x", throwingString))), [{ kind: "stdout", ts: "", text: "x" }]);
      const other = al.createStdoutParser(hostileOptions);
      assert.deepEqual(JSON.parse(JSON.stringify(other.parseLine(throwingString, T0))), []);
      assert.deepEqual(JSON.parse(JSON.stringify(other.parseChunk(throwingString, T0))), []);
      assert.deepEqual(JSON.parse(JSON.stringify(other.flush(throwingString))), []);
    }
    if (al.extractText) {
      for (const [what, bad] of [["getter", throwingGetter], ["proxy", hostileProxy], ["cycle", cycle]]) {
        assert.throws(() => al.extractText(bad), (e) => typeof e.message === "string" && /cannot be read as JSON/.test(e.message) && !/inside the wasm core/.test(e.message), what);
      }
    }
    assert.equal(state.instances, before, "the shared instance was kept");
    const r = pairedResult(p.parseLine(RESULT, T1));
    assert.equal(r.toolName, "Bash", "the live parser kept its pending call");
    assert.equal(r.durationMs, 2000);
  });
}

test("dist/index.cjs: a trap inside parseLines drops the instance; the next call gets a fresh one", () => {
  const { state, load } = harness();
  const al = load("dist/index.cjs");
  assert.equal(al.parseLines(["hello"], T0)[0].text, "hello");
  assert.equal(state.instances, 1);
  state.trap = "al_parse_log";
  const out = al.parseLines(["hello", "world"], T0);
  assert.deepEqual(JSON.parse(JSON.stringify(out.map((e) => e.text))), ["hello", "world"], "the lines still come back");
  const after = state.instances;
  assert.equal(after, 2, "the trapped instance was dropped (the fallback ran on a fresh one)");
  assert.equal(al.parseLines(["again"], T0)[0].text, "again");
  assert.equal(state.instances, after, "and that fresh one is kept");
});

test("dist/ui-parser.js: a failed instantiation fails once and says so once", () => {
  const { state, load } = harness({ failInstance: true });
  const al = load("dist/ui-parser.js");
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(JSON.parse(JSON.stringify(al.parseStdoutLine("hello " + i, T0))), [{ kind: "stdout", ts: T0, text: "hello " + i }]);
    const p = al.createStdoutParser();
    assert.deepEqual(JSON.parse(JSON.stringify(p.parseLine("x", T0))), [{ kind: "stdout", ts: T0, text: "x" }]);
  }
  assert.equal(state.instances, 1, "not retried on every call");
  assert.equal(state.warns.length, 1, "said once: " + JSON.stringify(state.warns));
  assert.match(state.warns[0], /agentlines: WebAssembly cannot be instantiated here/);
});

// The split-stream decoder's own instance (pkg-template/unsplit.wat) failing is a failed
// instantiation too (no memory), not a compile refused by a CSP.
for (const file of ["dist/ui-parser.stateless.js", "dist/index.cjs"]) {
  test(`${file}: a failed decoder instantiation says "cannot be instantiated", once`, () => {
    const { state, load } = harness({ failDecoder: true });
    const al = load(file);
    const strict = file.endsWith(".cjs");
    for (let i = 0; i < 3; i++) {
      if (strict) {
        assert.throws(() => al.parseStdoutLine("x", T0), (e) => e.code === "AGENTLINES_NO_WASM" &&
          /cannot be instantiated here \(.*Out of memory/.test(e.message) && !/Content-Security-Policy/.test(e.message));
      } else {
        assert.deepEqual(JSON.parse(JSON.stringify(al.parseStdoutLine("x" + i, T0))), [{ kind: "stdout", ts: T0, text: "x" + i }]);
      }
    }
    assert.equal(state.decoders, 1, "not retried");
    assert.equal(state.instances, 0);
    if (!strict) {
      assert.equal(state.warns.length, 1, JSON.stringify(state.warns));
      assert.match(state.warns[0], /cannot be instantiated here/);
      assert.doesNotMatch(state.warns[0], /Content-Security-Policy/);
    }
  });
}

test("dist/index.cjs: a failed instantiation throws one AgentlinesWasmError from every call", () => {
  const { state, load } = harness({ failInstance: true });
  const al = load("dist/index.cjs");
  let first;
  assert.throws(() => al.parseStdoutLine("x", T0), (e) => { first = e; return e.code === "AGENTLINES_NO_WASM" && /Out of memory/.test(e.message); });
  assert.throws(() => al.parseLines(["x"], T0), (e) => e === first);
  assert.throws(() => al.extractText("x"), (e) => e === first);
  assert.equal(state.instances, 1);
});
