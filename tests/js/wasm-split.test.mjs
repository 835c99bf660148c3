// The split-stream wasm container (scripts/wasm-split.mjs) and its decoder (alUnsplit in
// pkg-template/glue.js, running pkg-template/unsplit.wat): every built wasm and hand-made
// edge cases come back byte for byte, unknown opcodes fail the encoder, and a damaged
// container fails the decoder or gives other bytes (never silently the same). The container
// goes in as the file's characters, so the character decoding (unsplit.wat's d) is checked
// with it, and on its own below.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";
import { root } from "./host.mjs";
import { splitWasm, unsplitDecoder, STREAMS } from "../../scripts/wasm-split.mjs";
import { wasmAsChars, wasmCharMap, charsToWasm, literal, unliteral } from "../../scripts/wasm-chars.mjs";

// The glue's own functions, from the template (the placeholders are never read here).
const glue = vm.createContext({ WebAssembly, TextEncoder });
vm.runInContext(readFileSync(join(root, "pkg-template", "glue.js"), "utf8"), glue);
const decModule = new WebAssembly.Module(unsplitDecoder());
const decoder = () => new WebAssembly.Instance(decModule, {}).exports;
// The whole first-call path: the container written as characters (scripts/wasm-chars.mjs),
// then alUnsplit (UTF-8 into the decoder's memory, characters -> bytes, streams -> wasm).
const unsplitChars = (text, table) => Buffer.from(glue.alUnsplit(text, table, decoder()));
const unsplit = (c) => { const { text, table } = wasmAsChars(c); return unsplitChars(text, table); };

const leb = (n) => { const o = []; do { let x = n & 127; n >>>= 7; if (n) x |= 128; o.push(x); } while (n); return o; };
const sleb = (n) => {
  const o = [];
  for (;;) {
    const x = n & 127;
    n >>= 7;
    if ((n === 0 && !(x & 64)) || (n === -1 && (x & 64))) { o.push(x); return o; }
    o.push(x | 128);
  }
};
const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
const body = (locals, code) => { const b = [...leb(locals.length), ...locals.flat(), ...code]; return [...leb(b.length), ...b]; };
/** A module: type () -> (), `bodies.length` functions, memory, the code section and a data section after it. */
function module(bodies, { memory = true } = {}) {
  const n = bodies.length;
  return Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 0, 0]),
    ...section(3, [...leb(n), ...bodies.map(() => 0)]),
    ...section(4, [1, 0x70, 0, 1]), // a table, for call_indirect
    ...(memory ? section(5, [1, 0, 1]) : []),
    ...(memory ? section(12, [1]) : []), // data count (memory.init, data.drop)
    ...section(10, [...leb(n), ...bodies.flat()]),
    ...(memory ? section(11, [1, 0, 0x41, 0, 0x0b, 3, 1, 2, 3]) : []),
    ...section(0, [4, ...Buffer.from("name"), 0])]); // a custom section at the end
}

test("every built wasm comes back byte for byte", (t) => {
  const dir = join(root, "target", "pkg-wasm");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".wasm")) : [];
  if (files.length === 0) return t.skip("no target/pkg-wasm (run make dist)");
  for (const f of files) {
    const w = readFileSync(join(dir, f));
    const c = splitWasm(w);
    assert.notDeepEqual(Buffer.from(c.subarray(c.length - w.length)), w, `${f}: the container is the wasm as it was`);
    assert.ok(unsplit(c).equals(w), `${f}: round trip`);
  }
});

// Every kind of immediate, in one function body each, and a module that validates.
const I32 = (n) => [0x41, ...sleb(n)];
const BODIES = {
  empty: body([], [0x0b]),
  locals: body([[2, 0x7f], [1, 0x7e], [300, 0x7b].flatMap((x, i) => (i === 0 ? leb(x) : [x]))], [0x20, 0, 0x21, 1, 0x0b]),
  consts: body([], [...I32(-1), 0x1a, ...I32(0x7fffffff), 0x1a, 0x42, ...sleb(-123456789), 0x1a,
    0x43, 0, 0, 0x80, 0x3f, 0x1a, 0x44, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 0x0b]),
  control: body([], [0x02, 0x40, 0x03, 0x7f, ...I32(1), 0x0d, 0, 0x0c, 1, 0x0b, 0x1a, 0x0b,
    ...I32(0), 0x04, 0x40, 0x01, 0x05, 0x01, 0x0b,
    0x02, 0x40, 0x02, 0x40, ...I32(2), 0x0e, 2, 0, 1, 0, 0x0b, 0x0b, 0x0b]),
  calls: body([], [0x10, 0, ...I32(0), 0x11, 0, 0, 0x0b]),
  memory: body([[1, 0x7f]], [...I32(8), 0x28, 2, 0xe4, 0x00, 0x21, 0, ...I32(8), 0x20, 0, 0x36, 2, 0x80, 0x80, 4,
    0x3f, 0, 0x1a, ...I32(1), 0x40, 0, 0x1a, ...I32(0), ...I32(0), ...I32(1), 0xfc, 8, 0, 0,
    ...I32(0), ...I32(0), ...I32(1), 0xfc, 10, 0, 0, ...I32(0), ...I32(0), ...I32(1), 0xfc, 11, 0, 0xfc, 9, 0, 0x0b]),
  numeric: body([[1, 0x7d]], [0x20, 0, 0xfc, 0, 0x1a, ...I32(5), 0xc0, 0x1a, ...I32(1), ...I32(2), ...I32(0), 0x1b, 0x1a,
    ...I32(1), ...I32(2), ...I32(0), 0x1c, 1, 0x7f, 0x1a, 0x0b]),
  simd: body([[1, 0x7b]], [0xfd, 0x0c, ...Array.from({ length: 16 }, (_, i) => i * 17), 0x21, 0,
    0x20, 0, 0x20, 0, 0xfd, 0x0d, ...Array.from({ length: 16 }, (_, i) => 31 - i), 0xfd, 0x15, 3, 0x1a,
    ...I32(0), 0xfd, 0, 4, 16, 0x21, 0, ...I32(0), 0x20, 0, 0xfd, 0x0b, 4, 0,
    ...I32(0), 0x20, 0, 0xfd, 0x54, 0, 1, 7, 0x21, 0, ...I32(0), 0xfd, 0x5c, 2, 0, 0x21, 0,
    0x20, 0, 0xfd, 0x63, 0x1a, 0x20, 0, 0x20, 0, 0xfd, 0x8e, 0x01, 0x21, 0, 0x0b]),
};

test("each kind of immediate comes back, in a module V8 accepts", () => {
  const w = module(Object.values(BODIES));
  assert.doesNotThrow(() => new WebAssembly.Module(w), "the test module itself is valid wasm");
  const c = splitWasm(w);
  assert.ok(unsplit(c).equals(w));
  for (const [name, b] of Object.entries(BODIES)) {
    const one = module([b]);
    assert.ok(unsplit(splitWasm(one)).equals(one), name);
  }
});

test("modules without a code section or without functions come back", () => {
  const bare = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  assert.ok(unsplit(splitWasm(bare)).equals(bare));
  const noFuncs = module([]);
  assert.ok(unsplit(splitWasm(noFuncs)).equals(noFuncs));
  // A non-minimal LEB128 (as linkers pad body sizes) is kept as it was.
  const padded = module([[0x82, 0x80, 0x80, 0x80, 0x00, 0, 0x0b]]);
  assert.ok(unsplit(splitWasm(padded)).equals(padded));
});

test("the encoder refuses what it does not know instead of writing it wrong", () => {
  assert.throws(() => splitWasm(module([body([], [0x06, 0x40, 0x0b, 0x0b])])), /unknown opcode 0x6/); // try (exceptions)
  assert.throws(() => splitWasm(module([body([], [0xfc, 18, 0x0b])])), /0xfc 18/);
  assert.throws(() => splitWasm(module([body([], [0xfd, 0x9a, 0x01, 0x0b])])), /0xfd 154/);
  assert.throws(() => splitWasm(module([body([], [0xfd, 0x94, 0x02, 0x0b])])), /0xfd 276/);
  assert.throws(() => splitWasm(module([body([], [...I32(0), 0x28, 0x42, 0, 0x1a, 0x0b])])), /memory index/);
  assert.throws(() => splitWasm(module([body([[1, 0x64]], [0x0b])])), /local of type/);
  assert.throws(() => splitWasm(module([body([], [0x10])])), /past/);
  assert.throws(() => splitWasm(Buffer.from("not wasm")), /not a wasm module/);
});

test("a damaged container throws or gives other bytes, never the same wasm", () => {
  const w = module(Object.values(BODIES));
  const c = splitWasm(w);
  // The header's numbers: rest length, splice, then one length per stream.
  let p = 0;
  const nums = [];
  for (let i = 0; i < 2 + STREAMS.length; i++) {
    let v = 0, m = 1, b;
    do { b = c[p++]; v += (b & 127) * m; m *= 128; } while (b > 127);
    nums.push(v);
  }
  assert.equal(p + nums[0] + nums.slice(2).reduce((a, b) => a + b, 0), c.length, "header adds up");
  let thrown = 0;
  for (let i = 0; i < c.length; i++) {
    for (const flip of [1, 0x80, 0xff]) {
      const bad = Uint8Array.from(c);
      bad[i] ^= flip;
      let got = null;
      try { got = unsplit(bad); } catch (e) { thrown++; continue; }
      assert.ok(!got.equals(w), `byte ${i} ^ ${flip} gave the original wasm back`);
    }
  }
  assert.ok(thrown > c.length, `most damage is detected (${thrown} of ${3 * c.length} throw)`);
  // A shorter or longer container does not add up.
  assert.throws(() => unsplit(c.subarray(0, c.length - 1)));
  assert.throws(() => unsplit(Uint8Array.from([...c, 0])));
  // Two streams swapped (the same bytes, other order): never the original.
  const op = p + nums[0];
  const swapped = Uint8Array.from(c);
  swapped[op] = c[op + 1];
  swapped[op + 1] = c[op];
  if (c[op] !== c[op + 1]) assert.throws(() => assert.ok(unsplit(swapped).equals(w)));
});

test("a broken decoder table is caught by the round trip", () => {
  const w = module(Object.values(BODIES));
  const c = splitWasm(w);
  const saved = glue.AL_OPS;
  try {
    // memarg opcodes read as "one number from the local stream": wrong bytes or a throw.
    glue.AL_OPS = saved.map((v, i) => (i % 2 === 1 && saved[i - 1] === 0x28 ? 1 : v));
    let same = false;
    try { same = unsplit(c).equals(w); } catch (e) { same = false; }
    assert.equal(same, false);
  } finally {
    glue.AL_OPS = saved;
  }
  assert.ok(unsplit(c).equals(w));
});

// The decoder's characters -> bytes step (d in unsplit.wat) against the JS reference
// (charsToWasm), with every byte value written as a one- and as a two-byte character.
function charsDecode(text, table) {
  const x = decoder();
  const mem = () => new Uint8Array(x.m.buffer);
  x.m.grow(((2048 + 2 * text.length) >>> 16) + 1);
  for (let b = 0; b < 256; b++) mem()[1024 + table.charCodeAt(b)] = b;
  const r = new TextEncoder().encodeInto(text, mem().subarray(2048));
  assert.equal(r.read, text.length);
  const n = x.d(r.written);
  return n < 0 ? n : Buffer.from(mem().subarray(2048, 2048 + n));
}

test("characters come back as bytes: every byte value, one- and two-byte characters", () => {
  // Skewed frequencies, so the map gives some values one-byte and others two-byte characters.
  const bytes = Buffer.from(Array.from({ length: 20000 }, (_, i) => (i * i * 7 + (i >> 3)) % (i % 3 ? 97 : 256)));
  const { text, table } = wasmAsChars(bytes);
  assert.equal(new Set(bytes).size, 256, "every byte value");
  assert.ok(/[\u0080-\u00ff]/.test(text) && /[\u0001-\u007f]/.test(text) && /[\0\n\r"\\]/.test(text), "every kind of character");
  assert.ok(!/[^\u0000-\u00ff]/.test(table), "none past U+00FF (the file stays one-byte text for V8)");
  // Written into the file: the five a literal cannot hold raw are escaped, and read back the same.
  const lit = literal(text);
  assert.ok(!/[\0\n\r]/.test(lit) && !/(^|[^\\])(\\\\)*"/.test(lit), "no raw NUL, LF, CR or unescaped quote");
  assert.equal(unliteral(lit), text);
  assert.equal(new Function(`return "${literal(table)}";`)(), table, "JS reads the literal as the table");
  assert.deepEqual(wasmCharMap(bytes).length, 256);
  assert.ok(charsToWasm(text, table).equals(bytes), "the JS reference");
  assert.ok(charsDecode(text, table).equals(bytes), "the decoder wasm");
  // The last character of the map (U+0104) and the first (TAB, U+0009) at the very ends.
  const ends = table[255] + text + table[0];
  assert.ok(charsDecode(ends, table).equals(Buffer.concat([Buffer.from([255]), bytes, Buffer.from([0])])));
});

test("a broken character decode fails or differs, never the same wasm", () => {
  const w = readBuilt() ?? module(Object.values(BODIES));
  const c = splitWasm(w);
  const { text, table } = wasmAsChars(c);
  assert.ok(unsplitChars(text, table).equals(w));
  // A character the map does not have (the map is all of U+0000-U+00FF: any past it; two-
  // and three-byte UTF-8), anywhere: the decode refuses it.
  assert.equal(new Set(table).size, 256);
  assert.ok(!/[^\u0000-\u00ff]/.test(table));
  for (const bad of ["\u0100", "\u0105", "\u07ff", "\u0800", "\u20ac"]) {
    for (const at of [0, 1, text.length >> 1, text.length - 1]) {
      const t = text.slice(0, at) + bad + text.slice(at + 1);
      assert.throws(() => unsplitChars(t, table), /does not add up \(-5\)/, `U+${bad.charCodeAt(0).toString(16)} at ${at}`);
      assert.equal(charsDecode(t, table), -5);
    }
  }
  // A lone surrogate becomes U+FFFD in UTF-8: refused too.
  assert.throws(() => unsplitChars(text.slice(0, 5) + "\ud800" + text.slice(6), table), /does not add up/);
  // Two entries of the map swapped (a one-byte and a two-byte character): other bytes or a throw.
  const one = [...table].findIndex((ch) => ch.charCodeAt(0) < 0x80 && text.includes(ch));
  const two = [...table].findIndex((ch) => ch.charCodeAt(0) >= 0x80 && text.includes(ch));
  const swapped = [...table];
  [swapped[one], swapped[two]] = [swapped[two], swapped[one]];
  let same = false;
  try { same = unsplitChars(text, swapped.join("")).equals(w); } catch (e) { same = false; }
  assert.equal(same, false, "a swapped map");
  // One character dropped or doubled: the container no longer adds up.
  assert.throws(() => unsplitChars(text.slice(0, 100) + text.slice(101), table));
  assert.throws(() => unsplitChars(text.slice(0, 100) + text[100] + text.slice(100), table));
});

function readBuilt() {
  const f = join(root, "target", "pkg-wasm", "claude-stateless.wasm");
  return existsSync(f) ? readFileSync(f) : null;
}
