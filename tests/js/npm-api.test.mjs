// The npm entry's parser API (dist/index.cjs, and index.mjs over it): wrong argument types
// throw a TypeError naming the argument, a disposed parser throws, `Symbol.dispose` disposes,
// and mergeDeltas merges as the host's transcript view does (checked against the core's own
// merge in parseLines over every fixture).
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, fixtures, linesOf } from "./host.mjs";

const al = createRequire(import.meta.url)(join(root, "dist/index.cjs"));
const TS = "2026-01-01T00:00:00.000Z";

test("wrong argument types throw a TypeError that names the argument", () => {
  const cases = [
    [() => al.parseStdoutLine(new TextEncoder().encode("{}"), TS), /parseStdoutLine: line must be a string, got a Uint8Array/],
    [() => al.parseStdoutLine({ type: "system" }, TS), /line must be a string, got an object/],
    [() => al.parseStdoutLine("hi", new Date()), /parseStdoutLine: ts must be a string .*, got a Date/],
    [() => al.parseLines("abc", TS), /parseLines: lines must be an array of strings, got a string/],
    [() => al.parseLines(["a", 1], TS), /parseLines: lines\[1\] must be a string, got a number/],
    [() => al.parseLines(["a", "b"], [TS]), /ts must be a string or an array as long as lines \(2\)/],
    [() => al.parseLog(Buffer.from("x"), TS), /parseLog: text must be a string, got a Uint8Array/],
    [() => al.parseLog("x", TS, "merge"), /parseLog: options must be an object, got a string/],
    [() => al.createStdoutParser({ format: 3 }), /createStdoutParser: options.format must be a string, got a number/],
    [() => al.createStdoutParser().parseLine(null, TS), /parseLine: line must be a string, got null/],
    [() => al.createStdoutParser().parseChunk(new Uint8Array(2), TS), /parseChunk: chunk must be a string \(decode bytes with TextDecoder/],
    [() => al.mergeDeltas("x"), /mergeDeltas: entries must be an array of entries/],
    [() => al.parseBatch(["a"], TS), /parseBatch: text must be a string or a Uint8Array of UTF-8/],
    [() => al.parseBatch("a", [1]), /parseBatch: ts\[0\] must be a string, got a number/],
    [() => al.createStdoutParser().parseBatch("a", TS, "json"), /parseBatch: options must be an object, got a string/],
    // Silent misuse, refused: a line without its time, a misspelt runtime (it used to
    // autodetect), fewer times than lines, something in mergeDeltas that is not an entry.
    [() => al.parseStdoutLine("hi"), /parseStdoutLine: ts must be a string \(the line's time, e\.g\. new Date\(\)\.toISOString\(\)\), got a undefined/],
    [() => al.createStdoutParser().parseLine("hi"), /parseLine: ts must be a string/],
    [() => al.createStdoutParser().flush(), /flush: ts must be a string/],
    [() => al.createStdoutParser({ format: "claud" }), /createStdoutParser: options\.format "claud" is not a runtime name; one of claude, codex, gemini, .* \(any case, or an adapter's name such as claude_local; leave it out to autodetect\)/],
    [() => al.parseBatch("a\nb\nc\n", [TS, TS]), /parseBatch: ts has 2 times for 3 lines; give one per line/],
    [() => al.parseBatch(new TextEncoder().encode("a\nb"), [TS]), /parseBatch: ts has 1 times for 2 lines/],
    [() => al.createStdoutParser().parseBatch("a\nb", [TS]), /parseBatch: ts has 1 times for 2 lines/],
    [() => al.mergeDeltas([null]), /mergeDeltas: entries\[0\] must be an entry \(an object with a kind\), got null/],
    [() => al.mergeDeltas([{ kind: "assistant", ts: TS, text: "a" }, "b"]), /mergeDeltas: entries\[1\] must be an entry/],
  ];
  for (const [call, message] of cases) assert.throws(call, (e) => e instanceof TypeError && message.test(e.message), String(message));
  // What stays accepted: a whole log without ts ("" for every line), options null, any case
  // and adapters' names for a format, as many times as lines.
  assert.equal(al.parseLog("hi\n")[0].ts, "");
  assert.equal(al.parseLog("hi\n", TS, null)[0].text, "hi");
  assert.equal(al.createStdoutParser({ format: " Claude_Local " }).runtime, "claude");
  assert.equal(al.parseBatch("a\nb\n", [TS, TS]).count, 2);
});

test("a disposed parser throws; Symbol.dispose disposes; dispose twice is fine", () => {
  const p = al.createStdoutParser({ format: "claude" });
  assert.equal(p.parseLine("hello", TS)[0].text, "hello");
  p.dispose();
  p.dispose();
  for (const call of [() => p.parseLine("x", TS), () => p.parseChunk("x\n", TS), () => p.flush(TS), () => p.reset()]) {
    assert.throws(call, /on a disposed parser; create a new one with createStdoutParser\(\)/);
  }
  const q = al.createStdoutParser();
  assert.equal(typeof q[Symbol.dispose], "function");
  q[Symbol.dispose]();
  assert.throws(() => q.parseLine("x", TS), /disposed parser/);
});

test("mergeDeltas equals the core's merge (parseLines merge on vs off) on every fixture", () => {
  let merged = 0;
  for (const fx of fixtures()) {
    const lines = linesOf(readFileSync(fx.input, "utf8"));
    const apart = al.parseLines(lines, TS, { merge: false });
    const before = JSON.stringify(apart);
    const ours = al.mergeDeltas(apart);
    assert.equal(JSON.stringify(ours), JSON.stringify(al.parseLines(lines, TS)), fx.input);
    assert.equal(JSON.stringify(apart), before, `${fx.input}: the input was changed`);
    merged += apart.length - ours.length;
  }
  assert.ok(merged > 0, "no fixture had deltas to merge: the test means nothing");
  const d = (kind, text, extra = {}) => ({ kind, ts: TS, text, delta: true, ...extra });
  assert.deepEqual(al.mergeDeltas([d("assistant", "a"), d("assistant", "b"), d("thinking", "c"), { kind: "assistant", ts: TS, text: "d" }, d("assistant", "e")]),
    [d("assistant", "ab"), d("thinking", "c"), { kind: "assistant", ts: TS, text: "d" }, d("assistant", "e")]);
  console.log(`mergeDeltas merged ${merged} entries across the fixtures, as the core does`);
});

test("AgentlinesWasmError is exported: the errors are its instances, with their code", async () => {
  assert.equal(typeof al.AgentlinesWasmError, "function");
  const web = await import(join(root, "dist/web/index.mjs"));
  const esm = await import(join(root, "dist/index.mjs"));
  assert.equal(typeof esm.AgentlinesWasmError, "function");
  assert.throws(() => web.parseStdoutLine("x", TS), (e) => e instanceof web.AgentlinesWasmError && e.name === "AgentlinesWasmError" && e.code === "AGENTLINES_NOT_INITIALIZED");
  const e = new al.AgentlinesWasmError("m", "AGENTLINES_NO_WASM");
  assert.ok(e instanceof Error && e.code === "AGENTLINES_NO_WASM" && e.message === "m");
});

test("agentlines/web in Node: init() says why it cannot load the wasm, and how to", async () => {
  // A fresh process: the module's state (compiled or not) is per process.
  const { spawnSync } = await import("node:child_process");
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `
    const web = await import(${JSON.stringify(join(root, "dist/web/index.mjs"))});
    try { await web.init(); console.log("resolved"); } catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message, is: e instanceof web.AgentlinesWasmError })); }`], { encoding: "utf8" });
  const got = JSON.parse(r.stdout);
  assert.equal(got.code, "AGENTLINES_WASM_LOAD");
  assert.ok(got.is);
  assert.match(got.message, /^agentlines: init: cannot load file:\/\/.*agentlines\.wasm \(.*\)\. Node's fetch reads no file: URL: in Node import "agentlines" \(the wasm inlined\), or pass init\(\{ wasm: <the bytes of agentlines\.wasm> \}\)\.$/);
});

test("init(): compiles ahead of the first call; a wasm that is not agentlines' is refused", async () => {
  const web = await import(join(root, "dist/web/index.mjs"));
  assert.throws(() => web.parseStdoutLine("x", TS), (e) => e.code === "AGENTLINES_NOT_INITIALIZED");
  // The smallest valid wasm module: compiles, exports nothing.
  const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  await assert.rejects(web.init({ wasm: empty }), (e) => /not agentlines'/.test(e.message) && e.code === "AGENTLINES_WASM_LOAD");
  // Bytes that do not compile (an HTML page served in the wasm's place): AGENTLINES_WASM_LOAD,
  // for this call only; the next init() with the right bytes works.
  await assert.rejects(web.init({ wasm: new TextEncoder().encode("<!doctype html>") }), (e) => e.code === "AGENTLINES_WASM_LOAD" && /not a WebAssembly module/.test(e.message) && e.cause instanceof WebAssembly.CompileError);
  await assert.rejects(web.init({ wasm: 42 }), (e) => e instanceof TypeError);
  await web.init({ wasm: readFileSync(join(root, "dist/web/agentlines.wasm")) });
  await web.init(); // already compiled: resolves at once, fetches nothing
  assert.equal(web.parseStdoutLine("x", TS)[0].text, "x");
  assert.equal(web.extractText({ text: "y" }), "y");
  const claude = await import(join(root, "dist/claude/index.mjs"));
  await claude.init();
  assert.equal(claude.parseLines(["hi"], TS)[0].text, "hi");
  assert.equal(typeof claude.extractText, "undefined", "the per-runtime entry is the parser API only");
});

// parseBatch: the same entries as line by line (stateless and through one stateful parser
// across batches), as text or bytes, one ts or one per line, as objects or JSON text; a
// record's own time with recordTs. Bytes bigger than the instance's memory exercise its
// growth (the wasm's memory buffer is read after the input is reserved).
test("parseBatch gives each line's entries with its line, in one call, as text or bytes", () => {
  for (const f of fixtures()) {
    const lines = linesOf(readFileSync(f.input, "utf8"));
    const stamps = lines.map((_, i) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString());
    const alone = [], at = [];
    const p = al.createStdoutParser(), whole = [], wholeAt = [];
    lines.forEach((l, i) => {
      for (const e of al.parseStdoutLine(l, stamps[i])) { alone.push(e); at.push(i); }
      for (const e of p.parseLine(l, stamps[i])) { whole.push(e); wholeAt.push(i); }
    });
    const text = lines.join("\n") + "\n";
    for (const input of [text, new TextEncoder().encode(text)]) {
      assert.deepEqual(al.parseBatch(input, stamps), { count: lines.length, lines: at, entries: alone }, f.input);
      assert.deepEqual(JSON.parse(al.parseBatch(input, stamps, { json: true })), { count: lines.length, lines: at, entries: alone }, f.input);
    }
    // Through one parser, in two batches.
    const cut = Math.floor(lines.length / 2);
    const q = al.createStdoutParser();
    const a = q.parseBatch(lines.slice(0, cut).join("\n"), stamps.slice(0, cut));
    const b = q.parseBatch(new TextEncoder().encode(lines.slice(cut).join("\n")), stamps.slice(cut));
    assert.deepEqual([...a.entries, ...b.entries], whole, f.input);
    assert.deepEqual([...a.lines, ...b.lines.map((i) => i + cut)], wholeAt, f.input);
  }
});

test("parseBatch with recordTs: a record's own time wins; big byte input grows the wasm memory", () => {
  const own = JSON.stringify({ type: "user", timestamp: "2026-03-01T10:00:00.000Z", message: { role: "user", content: "hi" } });
  const cline = JSON.stringify({ type: "say", say: "text", text: "hello", ts: 1761734435123 });
  const r = al.parseBatch([own, cline, "plain"].join("\n"), "", { recordTs: true });
  assert.deepEqual(r.entries.map((e) => e.ts), ["2026-03-01T10:00:00.000Z", "2025-10-29T10:40:35.123Z", ""]);
  const big = new TextEncoder().encode((own + "\n").repeat(40000)); // ~6 MB
  const p = al.createStdoutParser();
  const out = p.parseBatch(big, "", { recordTs: true });
  assert.equal(out.count, 40000);
  assert.ok(out.entries.length > 0 && out.entries.every((e) => e.ts === "2026-03-01T10:00:00.000Z"), "own time on every entry");
});

test("parseBatch with end: the last slice flushes a stateful parser (a Kiro call never completed keeps its output)", () => {
  const lines = [
    "Reading file: /a, all lines (using tool: read)",
    " - Completed in 0.1s",
    "I will run the following command: make (using tool: shell)",
    "cc -o app main.c",
  ];
  const p = al.createStdoutParser();
  const open = p.parseBatch(lines.join("\n"), "2026-01-01T00:00:00.000Z");
  assert.ok(!open.entries.some((e) => e.kind === "tool_result" && e.content.includes("cc -o app")), "held while the call runs");
  const q = al.createStdoutParser();
  const ended = q.parseBatch(lines.join("\n"), "2026-01-01T00:00:00.000Z", { end: true });
  const last = ended.entries[ended.entries.length - 1];
  assert.equal(last.kind, "tool_result");
  assert.equal(last.content, "cc -o app main.c\n");
  assert.equal(ended.lines[ended.lines.length - 1], 3, "counted as the last line's");
  // Read alone, there is nothing to flush: end changes nothing.
  assert.deepEqual(al.parseBatch(lines.join("\n"), "t", { end: true }), al.parseBatch(lines.join("\n"), "t"));
});
