// Where WebAssembly cannot be compiled (a page whose CSP lacks 'wasm-unsafe-eval': the
// browser's WebAssembly.Module throws a CompileError), stubbed in a vm context and in a
// child process: the npm entry imports fine (nothing is compiled at import), then every call
// throws one AgentlinesWasmError (code AGENTLINES_NO_WASM), the same from CJS and ESM, and
// compilation is tried once; the host's ui-parser files still answer lines as stdout.
import { test } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, loadHostStyle } from "./host.mjs";

const CSP = "WebAssembly.Module(): Wasm code generation disallowed by embedder";
function cspContext() {
  const calls = { module: 0 };
  class CompileError extends Error {}
  const WebAssembly = {
    CompileError,
    Module: function () { calls.module++; throw new CompileError(CSP); },
    Instance: function () { throw new Error("not reached"); },
  };
  return { calls, ctx: vm.createContext({ WebAssembly, TextEncoder, TextDecoder, Uint8Array, console }) };
}
function loadCjs(file, ctx) {
  const wrapper = vm.runInContext("(function (exports, module) {\n" + readFileSync(join(root, file), "utf8") + "\n})", ctx);
  const module = { exports: {} };
  wrapper(module.exports, module);
  return module.exports;
}
const isNoWasm = (e) => e.name === "AgentlinesWasmError" && e.code === "AGENTLINES_NO_WASM" &&
  e.message.includes("'wasm-unsafe-eval'") && e.message.includes(CSP) && e.cause && e.cause.message === CSP;

test("npm entry (CJS): one clear AgentlinesWasmError from every call, compiled once", () => {
  const { calls, ctx } = cspContext();
  const m = loadCjs("dist/index.cjs", ctx);
  assert.equal(calls.module, 0, "nothing compiled at load");
  assert.ok(m.AGENT_FILE_NAMES.includes("AGENTS.md"), "constants need no wasm");
  let first;
  assert.throws(() => m.parseStdoutLine('{"type":"x"}', "t"), (e) => { first = e; return isNoWasm(e); });
  assert.throws(() => m.parseStdoutLine("again", "t"), (e) => e === first);
  assert.throws(() => m.createStdoutParser().parseLine("x", "t"), (e) => e === first);
  assert.throws(() => m.createStdoutParser().parseChunk("x\n", "t"), (e) => e === first);
  assert.throws(() => m.parseLog("a\nb\n", "t"), (e) => e === first);
  assert.throws(() => m.parseLines(["a"], "t"), (e) => e === first);
  assert.throws(() => m.call("isAgentFileName", "AGENTS.md"), (e) => e === first);
  assert.throws(() => m.isAgentFileName("AGENTS.md"), (e) => e === first);
  assert.equal(calls.module, 1, "compilation is not retried");
});

test("host files under the same stub never throw: every line is stdout", () => {
  const { ctx } = cspContext();
  for (const file of ["dist/ui-parser.js", "dist/ui-parser.stateless.js"]) {
    const m = loadCjs(file, ctx);
    assert.deepEqual(JSON.parse(JSON.stringify(m.parseStdoutLine("hello", "t"))), [{ kind: "stdout", ts: "t", text: "hello" }]);
  }
  // And with the real WebAssembly the same file parses (the stub is what changed).
  assert.equal(loadHostStyle(readFileSync(join(root, "dist", "ui-parser.js"), "utf8"))
    .parseStdoutLine('{"type":"system","subtype":"init","model":"m","session_id":"s"}', "t")[0].kind, "init");
});

test("ESM and CJS entries fail the same way; import compiles nothing", () => {
  const preload = `data:text/javascript,${encodeURIComponent(
    `globalThis.__compiles = 0; WebAssembly.Module = function () { globalThis.__compiles++; throw new WebAssembly.CompileError(${JSON.stringify(CSP)}); };`)}`;
  const script = `
    const esm = await import(${JSON.stringify(join(root, "dist", "index.mjs"))});
    const atImport = globalThis.__compiles;
    const { createRequire } = await import("node:module");
    const cjs = createRequire(import.meta.url)(${JSON.stringify(join(root, "dist", "index.cjs"))});
    const grab = (f) => { try { f(); return null; } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };
    const esmFirst = grab(() => esm.parseStdoutLine("x", "t")), cjsFirst = grab(() => cjs.parseStdoutLine("x", "t"));
    grab(() => esm.parseStdoutLine("x", "t"));
    grab(() => cjs.extractText({ text: "x" }));
    console.log(JSON.stringify({ atImport, esm: esmFirst, cjs: cjsFirst, compiles: globalThis.__compiles }));`;
  const r = spawnSync(process.execPath, ["--import", preload, "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.atImport, 0);
  assert.equal(out.esm.code, "AGENTLINES_NO_WASM");
  assert.deepEqual(out.esm, out.cjs);
  // The ES module is a module of its own (not a re-export of the CommonJS file): each entry
  // tries once, and not again.
  assert.equal(out.compiles, 2, "one attempt per entry");
});
