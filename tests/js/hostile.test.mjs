// Hostile inputs through the built dist/ui-parser.js (and, for big lines and every fixture
// line, dist/ui-parser.stateless.js, whose wasm has the bump arena) in the host's sandbox shape (the same
// inputs as tests/hostile.rs natively): huge lines, deep nesting, odd strings and numbers,
// prototype keys, NUL bytes, a million tiny lines; wasm memory stays flat and is given back;
// the wasm never traps (no instance is dropped after a failure); and native and wasm give the
// same entries for every fixture line on the stateless path.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, fixtures, linesOf } from "./host.mjs";
import { loadWithProbe, rng } from "./robust-util.mjs";

const TS = "2026-01-01T00:00:00.000Z";
const MB = 1 << 20;
const m = loadWithProbe(join(root, "dist/ui-parser.js"));
// The default stateless file: its wasm allocates from a bump arena emptied at every call
// (src/wasm.rs, `arena`), where dist/ui-parser.js uses size-class free lists.
const sl = loadWithProbe(join(root, "dist/ui-parser.stateless.js"));

function valid(out) {
  assert.ok(Array.isArray(out));
  structuredClone(out);
  for (const e of out) {
    assert.equal(typeof e.kind, "string");
    assert.equal(typeof e.ts, "string");
  }
  return out;
}

// Entries come from the sandbox's realm (other prototypes): compare them as JSON.
const same = (a, b, msg) => assert.equal(JSON.stringify(a), JSON.stringify(b), msg);

const nested = (depth, open, close, inner) => open.repeat(depth) + inner + close.repeat(depth);

test("a 64 MB line: a notice and its first 64 KB; memory is given back, or stays flat while a parser lives", () => {
  const line = "x".repeat(64 * MB);
  const sizes = [];
  for (let i = 0; i < 10; i++) {
    const out = valid(m.parseStdoutLine(line, TS));
    assert.equal(out.length, 2);
    assert.match(out[0].text, /67108864 bytes/);
    assert.equal(out[1].text.length, 64 * 1024);
    sizes.push(m.__memBytes());
  }
  console.log(`wasm memory after each 64 MB line: ${sizes.map((s) => (s / MB).toFixed(0)).join(", ")} MiB (peak ${(m.__peakBytes() / MB).toFixed(0)})`);
  // No parser lives: the grown instance is dropped after each answer (pages never shrink).
  assert.ok(sizes.every((s) => s === 0), `memory not given back: ${sizes}`);
  assert.ok(m.__peakBytes() <= 2.5 * 64 * MB, `peak ${m.__peakBytes()}`);
  // Stateful, whole and in 4 MB chunks: the same two entries, and the parser goes on.
  const p = m.createStdoutParser();
  same(p.parseLine(line, TS), m.parseStdoutLine(line, TS));
  const chunked = [];
  for (let round = 0; round < 3; round++) {
    let got = [];
    for (let i = 0; i < line.length; i += 4 * MB) got = got.concat(p.parseChunk(line.slice(i, i + 4 * MB), TS));
    got = got.concat(p.parseChunk("\nafter\n", TS));
    assert.equal(got.length, 3);
    same(got.slice(0, 2), m.parseStdoutLine(line, TS));
    same(got[2], { kind: "stdout", ts: TS, text: "after" });
    chunked.push(m.__memBytes());
  }
  console.log(`wasm memory after each chunked 64 MB line: ${chunked.map((s) => (s / MB).toFixed(0)).join(", ")} MiB`);
  assert.ok(chunked[2] === chunked[1], `chunked feeding kept growing memory: ${chunked}`);
  assert.equal(m.__gen(), 1, "no trap");
});

test("deep nesting: 100 000 levels are stopped by the recursion limit, 120 fit the wasm stack", () => {
  const deep = [
    `{"type":"assistant","message":{"content":${nested(100000, "[", "]", "")}}}`,
    `{"a":${nested(100000, '{"a":', "}", "1")}}`,
    nested(100000, "[", "]", ""),
    nested(100000, "{", "}", ""),
  ];
  for (const l of deep) assert.ok(valid(m.parseStdoutLine(l, TS)).length >= 1);
  const inside = [
    `{"type":"assistant","message":{"content":${nested(124, "[", "]", '"x"')}}}`,
    `{"type":"user","message":{"content":${nested(120, '[{"type":"tool_result","content":', "}]", '"x"')}}}`,
    `{"type":"tool_call","subtype":"started","call_id":"c","tool_call":${nested(120, '{"a":', "}", "1")}}`,
    `{"type":"item.completed","item":{"id":"i","type":"mcp_tool_call","result":${nested(120, '{"content":', "}", "[]")}}}`,
    `{"type":"message","role":"assistant","content":${nested(124, "[", "]", "1")}}`,
    nested(120, "[", "]", '{"type":"x"}'),
  ];
  for (const l of inside) {
    valid(m.parseStdoutLine(l, TS));
    for (const format of ["claude", "codex", "gemini", "opencode", "cursor", "pi", "openclaw", "amp", "acp", "plain"]) {
      valid(m.createStdoutParser({ format }).parseLine(l, TS));
    }
  }
  assert.equal(m.__gen(), 1, "the wasm trapped (stack overflow?)");
});

test("odd strings and numbers never throw", () => {
  const lines = [
    "\ud800", "a\ud800b", "\udc00\ud800", '{"type":"user","message":{"content":"\ud800"}}',
    '{"type":"user","message":{"content":"\\ud800"}}', '{"type":"user","message":{"content":"bad \\x escape"}}',
    '{"type":"result","subtype":"success","result":"r","total_cost_usd":123456789012345678901234567890,"usage":{"input_tokens":1e308,"output_tokens":1e400}}',
    '{"type":"assistant","type":"user","message":{"content":"dup","content":"last"}}',
    "a\u0000b", "\u0000", '{"type":"assistant","message":{"content":"nul \\u0000 inside"}}', "\ufeff{}",
  ];
  for (const l of lines) {
    valid(m.parseStdoutLine(l, TS));
    valid(m.createStdoutParser().parseLine(l, TS));
  }
  // A lone surrogate in a JS string reaches the core as U+FFFD (TextEncoder), not as an error.
  same(m.parseStdoutLine("a\ud800b", TS), [{ kind: "stdout", ts: TS, text: "a\ufffdb" }]);
  assert.equal(m.__gen(), 1);
});

test("KI-2 (fixed): JSON that JSON.parse accepts but serde_json refuses is read as JSON", () => {
  for (const l of ['{"type":"user","message":{"content":"cut \\ud83d"}}', '{"type":"user","message":{"content":"big"},"n":1e400}']) {
    assert.equal(m.parseStdoutLine(l, TS)[0].kind, "user", l);
  }
});

test("__proto__, constructor and prototype keys pollute nothing", () => {
  const sandboxProto = Object.getPrototypeOf(Object.getPrototypeOf(m.parseStdoutLine("x", TS)));
  const before = Object.getOwnPropertyNames(sandboxProto).sort();
  const lines = [
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"n","input":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"prototype":{"polluted":1}}}]}}',
    '{"__proto__":{"polluted":1},"type":"__proto__","constructor":"prototype"}',
    '{"type":"item.completed","item":{"id":"i","type":"mcp_tool_call","server":"s","tool":"t","arguments":{"__proto__":{"polluted":1}},"result":{"content":[{"type":"text","text":"x"}]}}}',
    '{"type":"tool_use","timestamp":1,"sessionID":"s","part":{"callID":"c","tool":"bash","state":{"status":"completed","input":{"__proto__":{"polluted":1}},"output":"o"}}}',
  ];
  const outs = [];
  for (const l of lines) {
    outs.push(valid(m.parseStdoutLine(l, TS)), valid(m.createStdoutParser().parseLine(l, TS)));
  }
  const all = outs.flat();
  // The host may spread or clone entries: that must not reach a prototype either.
  for (const e of all) {
    structuredClone(e);
    void { ...e, ...(e.input && typeof e.input === "object" ? e.input : {}) };
    assert.equal(Object.getPrototypeOf(e), sandboxProto, "an entry's prototype was replaced");
  }
  assert.equal({}.polluted, undefined);
  assert.equal(Object.create(sandboxProto).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyNames(sandboxProto).sort(), before);
  const call = all.find((e) => e.kind === "tool_call" && e.input && Object.hasOwn(e.input, "__proto__"));
  assert.ok(call, "the __proto__ key of a tool input is kept as an own property");
});

test("a million tiny lines in one chunk, and unmatched tool calls keep memory flat", () => {
  const p = m.createStdoutParser();
  const out = p.parseChunk("a\n".repeat(1_000_000), TS);
  assert.equal(out.length, 1_000_000);
  const q = m.createStdoutParser();
  const call = (i) => `{"type":"assistant","message":{"id":"msg_${i}","role":"assistant","content":[{"type":"tool_use","id":"toolu_${i}","name":"Bash","input":{"command":"ls"}}]}}`;
  let mark = 0;
  for (let i = 0; i < 200_000; i++) {
    if (i === 50_000) mark = m.__memBytes();
    q.parseLine(call(i), TS);
  }
  assert.equal(m.__memBytes(), mark, "wasm memory grew with unmatched tool calls");
  assert.equal(m.__gen(), 1);
});

test("stateless file (bump arena): big lines take about their size, and it is given back", () => {
  const text = (n) => JSON.stringify({ type: "assistant", message: { id: "m", role: "assistant", content: [
    { type: "text", text: "word ".repeat(n / 10) },
    ...Array.from({ length: 200 }, (_, i) => ({ type: "tool_use", id: "t" + i, name: "Bash", input: { command: "echo " + "y".repeat(n / 400) } })),
  ] } });
  const escaped = (n) => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "é\n\"\\".repeat(n / 4) }] } });
  const small = `{"type":"assistant","message":{"id":"s","role":"assistant","content":[{"type":"text","text":"hi"}]}}`;
  const report = [];
  let biggest = 0; // the peak so far: bound it by the biggest line so far
  for (const [name, line] of [["64 MB plain", "x".repeat(64 * MB)], ["8 MB assistant message", text(8 * MB)], ["32 MB escaped tool result", escaped(32 * MB)]]) {
    const sizes = [];
    for (let i = 0; i < 3; i++) {
      same(sl.parseStdoutLine(line, TS), m.parseStdoutLine(line, TS), `${name}: the stateless file and dist/ui-parser.js`);
      sizes.push(sl.__memBytes());
    }
    for (let i = 0; i < 20_000; i++) sl.parseStdoutLine(small, TS);
    sizes.push(sl.__memBytes());
    report.push(`${name}: ${sizes.map((s) => (s / MB).toFixed(0)).join(", ")} MiB (peak so far ${(sl.__peakBytes() / MB).toFixed(0)})`);
    // Each big line's instance is dropped after its answer; small lines then need ~2 MiB.
    assert.ok(sizes.slice(0, 3).every((s) => s === 0), `${name}: memory not given back: ${sizes}`);
    assert.ok(sizes[3] <= 4 * MB, `${name}: ${sizes[3]} bytes after the small lines`);
    // The UTF-8 line and the little a call builds on it; the arena grows 1 MiB at a time.
    biggest = Math.max(biggest, Buffer.byteLength(line));
    assert.ok(sl.__peakBytes() <= biggest * 1.25 + 8 * MB, `${name}: ${sl.__peakBytes()} bytes of wasm memory`);
  }
  console.log(`stateless file, wasm memory after 3 big lines and 20 000 small ones: ${report.join("; ")}`);
  assert.equal(sl.__gen(), 1, "no trap");
});

test("stateful parsers, one after another, over lines of many sizes: wasm memory stays flat", () => {
  // dist/ui-parser.js allocates from size-class free lists (src/wasm.rs, `heap`). Lines whose
  // texts and tool results range up to ~200 KB make buffers grow through many classes; a
  // version that grew the top block in place while free blocks of the new class waited grew
  // ~5 MiB per parser here (dlmalloc: flat at 4 MiB).
  const r = rng(7);
  const lines = [];
  for (let i = 0; i < 60; i++) {
    lines.push(JSON.stringify({ type: "assistant", message: { id: "m" + i, role: "assistant", content: [
      { type: "text", text: "a".repeat(r.below(5000)) },
      { type: "tool_use", id: "t" + i, name: "Bash", input: { command: "x".repeat(r.below(3000)) } },
    ] } }));
    lines.push(JSON.stringify({ type: "user", message: { role: "user", content: [
      { type: "tool_result", tool_use_id: "t" + i, content: "line\n".repeat((1000 + r.below(200_000)) / 5) },
    ] } }));
  }
  const fresh = loadWithProbe(join(root, "dist/ui-parser.js")); // its own instance
  const sizes = [];
  for (let run = 0; run < 60; run++) {
    const p = fresh.createStdoutParser();
    for (const l of lines) p.parseLine(l, TS);
    if (run % 2 === 0) p.dispose(); // and half never freed, as the host leaves them
    if (run % 10 === 9) sizes.push(fresh.__memBytes());
  }
  console.log(`wasm memory every 10 stateful runs over 120 lines of up to 200 KB: ${sizes.map((s) => (s / MB).toFixed(0)).join(", ")} MiB`);
  // The parsers never freed keep a little state each; the rest is reused.
  assert.ok(sizes.slice(2).every((s) => s === sizes[1]) && sizes[5] <= 16 * MB, `memory kept growing: ${sizes}`);
  assert.equal(fresh.__gen(), 1, "no trap");
});

test("stateless: native and wasm give the same entries for every fixture line", () => {
  const bin = join(root, "target", "debug", process.platform === "win32" ? "agentlines.exe" : "agentlines");
  // Always (a no-op when fresh): a stale binary would compare old native output with new wasm.
  execFileSync("cargo", ["build", "--quiet", "--bin", "agentlines"], { cwd: root, stdio: "inherit" });
  let lines = 0;
  for (const fx of fixtures()) {
    const input = readFileSync(fx.input, "utf8");
    const native = linesOf(execFileSync(bin, ["parse", "--stateless", "--ts", TS, fx.input], { encoding: "utf8", maxBuffer: 1 << 30 }));
    const wasm = [], arena = [];
    for (const l of linesOf(input)) {
      for (const e of m.parseStdoutLine(l, TS)) wasm.push(e);
      for (const e of sl.parseStdoutLine(l, TS)) arena.push(e);
      lines++;
    }
    assert.equal(wasm.length, native.length, `${fx.input}: entry count`);
    for (let i = 0; i < wasm.length; i++) {
      same(wasm[i], JSON.parse(native[i]), `${fx.input}: entry ${i}`);
    }
    same(arena, wasm, `${fx.input}: the stateless file`);
  }
  assert.equal(sl.__gen(), 1, "no trap in the stateless file");
  console.log(`native and wasm agree on ${lines} fixture lines (stateless)`);
});

test("API arguments: 200 and 512 levels are read in the wasm (index.cjs), deeper ones refused clearly", async () => {
  const { createRequire } = await import("node:module");
  const api = createRequire(import.meta.url)(join(root, "dist/index.cjs"));
  // A message whose text is "x", carrying a deep array: `depth` levels with the arguments array.
  const message = (depth) => {
    let d = [];
    for (let k = 0; k < depth - 3; k++) d = [d];
    return { text: "x", d };
  };
  for (const depth of [200, 512]) assert.equal(api.extractText(message(depth)), "x", `${depth} levels`);
  for (const depth of [513, 1000]) {
    assert.throws(() => api.extractText(message(depth)), /nested deeper than 512 levels/, `${depth} levels`);
  }
  // No trap on the way: the same instance answers next.
  assert.equal(api.extractText({ text: "after" }), "after");
});
