// The wasm as split streams (docs/bench.md, Decisions): the build-time encoder of the
// container the ui-parser files carry instead of the plain wasm. Its inverse is alUnsplit in
// pkg-template/glue.js, which runs in the host's sandbox on the first call; scripts/assemble.mjs
// runs that very function on every file it writes and fails the build unless it gives back
// the original wasm byte for byte (tests/js/wasm-split.test.mjs round-trips every wasm).
//
// Why: in a wasm code section every instruction's opcode is followed by its immediates
// (local indices, LEB128 constants, memory offsets, call targets...). Interleaved, they are
// poor context for each other, and gzip's matches break at every change of kind. Written as
// separate streams (all opcodes, then all local indices, then all call targets...), each
// stream repeats its own patterns and gzip -9 of the whole is 5-12% smaller (the round-6
// table in docs/bench.md). Nothing is added or dropped: the container is a permutation of
// the wasm's bytes plus a short header, so the character map (scripts/wasm-chars.mjs) sees
// the same byte frequencies.
//
// Container layout (all numbers unsigned LEB128):
//   restLen, splice, len[0] ... len[NSTREAMS-1]
//   rest:       the wasm with the code section's function bodies cut out (every other
//               section as it is; the code section's id, size and function count stay), restLen bytes
//   stream 0 ... stream NSTREAMS-1, len[i] bytes each, in STREAMS order
// The function bodies go back at offset `splice` of rest. The decoder walks the `head`
// stream (each body's size and local declarations) and, for each body, the `op` stream
// until the body is complete, taking each opcode's immediates from their streams.
//
// Hand-written on purpose: no library does this, and the decoder must be small (it ships in
// every file), synchronous (the wasm is compiled on the first parseStdoutLine call) and
// cheap cold. It is a ~1.2 KB hand-written wasm (pkg-template/unsplit.wat, ~0.7 KB gzip) run
// by alUnsplit in the glue, which also turns the file's characters into the container's bytes:
// ~4.5 ms for the all-runtime wasm, both steps, where the same table-driven loops in JS took
// 12-15 ms on a fresh process's first call (docs/bench.md). Every opcode this
// encoder does not know (anything past MVP, sign-ext, non-trapping float-to-int, bulk
// memory, reference types, tail calls and simd128 / relaxed simd) fails the build instead of
// being written wrong.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const UNSPLIT_WAT = join(dirname(fileURLToPath(import.meta.url)), "..", "pkg-template", "unsplit.wat");

/** Stream names, in container order. The numbers are what pkg-template/glue.js uses. */
export const STREAMS = ["op", "local", "global", "func", "memarg_a", "memarg_o", "i32", "i64",
  "f32", "f64", "br", "block", "other", "simd", "head"];
const S = Object.fromEntries(STREAMS.map((n, i) => [n, i]));

// Immediates of each one-byte opcode, as a list of [kind, stream] steps:
// "leb" (one LEB128 number), ["bytes", n], "brtable", "selectt", "fc", "fd".
const OPS = new Map();
const def = (from, to, imm) => { for (let op = from; op <= to; op++) OPS.set(op, imm); };
def(0x00, 0x01, []); // unreachable nop
def(0x02, 0x04, [["leb", "block"]]); // block loop if: block type (0x40, a value type, or s33)
def(0x05, 0x05, []); // else
def(0x0b, 0x0b, []); // end
def(0x0c, 0x0d, [["leb", "br"]]); // br br_if
def(0x0e, 0x0e, [["brtable", "br"]]);
def(0x0f, 0x0f, []); // return
def(0x10, 0x10, [["leb", "func"]]); // call
def(0x11, 0x11, [["leb", "other"], ["leb", "other"]]); // call_indirect type table
def(0x12, 0x12, [["leb", "func"]]); // return_call
def(0x13, 0x13, [["leb", "other"], ["leb", "other"]]); // return_call_indirect
def(0x1a, 0x1b, []); // drop select
def(0x1c, 0x1c, [["selectt", "other"]]); // select t*
def(0x20, 0x22, [["leb", "local"]]);
def(0x23, 0x24, [["leb", "global"]]);
def(0x25, 0x26, [["leb", "other"]]); // table.get table.set
def(0x28, 0x3e, [["memarg"]]); // loads and stores
def(0x3f, 0x40, [["leb", "other"]]); // memory.size memory.grow: memory index
def(0x41, 0x41, [["leb", "i32"]]);
def(0x42, 0x42, [["leb", "i64"]]);
def(0x43, 0x43, [["bytes", 4, "f32"]]);
def(0x44, 0x44, [["bytes", 8, "f64"]]);
def(0x45, 0xc4, []); // numeric, sign-ext
def(0xd0, 0xd0, [["leb", "other"]]); // ref.null heap type
def(0xd1, 0xd1, []); // ref.is_null
def(0xd2, 0xd2, [["leb", "func"]]); // ref.func
def(0xfc, 0xfc, [["fc"]]);
def(0xfd, 0xfd, [["fd"]]);

// 0xFC sub-opcodes: how many LEB128 immediates (all into "other").
const FC = [0, 0, 0, 0, 0, 0, 0, 0, // trunc_sat
  2, 1, 2, 1, // memory.init data.drop memory.copy memory.fill
  2, 1, 2, 1, 1, 1]; // table.init elem.drop table.copy table.grow table.size table.fill

// 0xFD sub-opcodes (simd128, then relaxed simd 0x100-0x113): the immediates.
const FD_UNASSIGNED = new Set([0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb,
  0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee]);
function fdImm(sub) {
  if (sub <= 0x0b || sub === 0x5c || sub === 0x5d) return "memarg";
  if (sub >= 0x54 && sub <= 0x5b) return "memarg+lane";
  if (sub === 0x0c || sub === 0x0d) return "16";
  if (sub >= 0x15 && sub <= 0x22) return "lane";
  if (sub <= 0x113 && !FD_UNASSIGNED.has(sub)) return "";
  return null;
}

function readLeb(b, i) {
  let r = 0;
  let mul = 1;
  for (;;) {
    if (i >= b.length) throw new Error("wasm-split: LEB128 past the end");
    const x = b[i++];
    r += (x & 0x7f) * mul;
    mul *= 128;
    if (x < 0x80) return [r, i];
  }
}
function leb(n) {
  const out = [];
  do {
    let x = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) x |= 0x80;
    out.push(x);
  } while (n > 0);
  return out;
}

class Out {
  constructor() { this.buf = new Uint8Array(1024); this.n = 0; }
  push(x) {
    if (this.n === this.buf.length) {
      const b = new Uint8Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.n++] = x;
  }
  bytes() { return this.buf.subarray(0, this.n); }
}

/** The split container for `wasm` (a Uint8Array / Buffer). Throws on anything it cannot split exactly. */
export function splitWasm(wasm) {
  const d = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm);
  if (d.length < 8 || d[0] !== 0 || d[1] !== 0x61 || d[2] !== 0x73 || d[3] !== 0x6d) {
    throw new Error("wasm-split: not a wasm module");
  }
  const st = STREAMS.map(() => new Out());
  const rest = new Out();
  let splice = -1;
  let i = 8;
  for (let k = 0; k < 8; k++) rest.push(d[k]);
  while (i < d.length) {
    const sid = d[i];
    const [size, j] = readLeb(d, i + 1);
    const end = j + size;
    if (end > d.length) throw new Error(`wasm-split: section ${sid} at ${i} runs past the end`);
    if (sid !== 10) {
      for (let k = i; k < end; k++) rest.push(d[k]);
      i = end;
      continue;
    }
    if (splice >= 0) throw new Error("wasm-split: two code sections");
    const [count, p0] = readLeb(d, j);
    for (let k = i; k < p0; k++) rest.push(d[k]);
    splice = rest.n;
    let p = p0;
    for (let f = 0; f < count; f++) splitBody(d, p, end, st, (q) => { p = q; });
    if (p !== end) throw new Error(`wasm-split: code section ends at ${p}, not ${end}`);
    i = end;
  }
  if (splice < 0) splice = rest.n;
  const lens = st.map((s) => s.n);
  const header = [...leb(rest.n), ...leb(splice), ...lens.flatMap(leb)];
  const total = header.length + rest.n + lens.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(total);
  out.set(header, 0);
  out.set(rest.bytes(), header.length);
  let at = header.length + rest.n;
  for (const s of st) { out.set(s.bytes(), at); at += s.n; }
  return out;
}

function splitBody(d, p, sectionEnd, st, done) {
  const copy = (name, a, b) => { const o = st[S[name]]; for (let k = a; k < b; k++) o.push(d[k]); };
  const lebEnd = (q) => readLeb(d, q)[1];
  const bodyAt = p;
  const [size, p2] = readLeb(d, p);
  const fe = p2 + size;
  if (fe > sectionEnd) throw new Error(`wasm-split: function body at ${bodyAt} runs past the code section`);
  let [nl, q] = readLeb(d, p2);
  for (let k = 0; k < nl; k++) {
    q = lebEnd(q);
    const t = d[q];
    // Value types are one byte here (numbers, v128, funcref, externref); a typed reference
    // (GC proposal) would be longer, and the decoder copies one byte.
    if (!(t >= 0x7b && t <= 0x7f) && t !== 0x70 && t !== 0x6f) {
      throw new Error(`wasm-split: local of type 0x${t.toString(16)} in the body at ${bodyAt}`);
    }
    q++;
  }
  copy("head", p, q);
  p = q;
  const leb1 = (name) => { const e = lebEnd(p); copy(name, p, e); p = e; };
  // Alignment, then offset; an alignment with bit 6 set would be followed by a memory index
  // (multi-memory), which the decoder does not expect.
  const memarg = (at) => {
    if (readLeb(d, p)[0] >= 64) throw new Error(`wasm-split: memarg with a memory index at ${at}`);
    leb1("memarg_a");
    leb1("memarg_o");
  };
  while (p < fe) {
    const at = p;
    const op = d[p++];
    st[S.op].push(op);
    const imm = OPS.get(op);
    if (imm === undefined) throw new Error(`wasm-split: unknown opcode 0x${op.toString(16)} at ${at}`);
    for (const [kind, a, b] of imm) {
      if (kind === "leb") leb1(a);
      else if (kind === "memarg") memarg(at);
      else if (kind === "bytes") { copy(b, p, p + a); p += a; }
      else if (kind === "brtable") {
        const [n] = readLeb(d, p);
        let e = lebEnd(p);
        for (let k = 0; k <= n; k++) e = lebEnd(e);
        copy(a, p, e);
        p = e;
      } else if (kind === "selectt") {
        const [n, e] = readLeb(d, p);
        copy(a, p, e + n);
        p = e + n;
      } else if (kind === "fc") {
        const [sub, e] = readLeb(d, p);
        if (sub >= FC.length) throw new Error(`wasm-split: unknown opcode 0xfc ${sub} at ${at}`);
        copy("op", p, e);
        p = e;
        for (let k = 0; k < FC[sub]; k++) leb1("other");
      } else if (kind === "fd") {
        const [sub, e] = readLeb(d, p);
        const f = fdImm(sub);
        if (f === null) throw new Error(`wasm-split: unknown opcode 0xfd ${sub} at ${at}`);
        copy("op", p, e);
        p = e;
        if (f === "memarg" || f === "memarg+lane") memarg(at);
        if (f === "memarg+lane" || f === "lane") { copy("simd", p, p + 1); p += 1; }
        if (f === "16") { copy("simd", p, p + 16); p += 16; }
      }
    }
    if (p > fe) throw new Error(`wasm-split: instruction at ${at} runs past its function body`);
  }
  done(fe);
}

/**
 * The decoder's wasm bytes: pkg-template/unsplit.wat built with binaryen's wasm-opt -Oz (the
 * tool the Makefile already runs on the main wasm). Throws, failing the build, without it.
 */
export function unsplitDecoder() {
  const dir = mkdtempSync(join(tmpdir(), "agentlines-unsplit-"));
  try {
    const out = join(dir, "unsplit.wasm");
    execFileSync("wasm-opt", ["-Oz", "--enable-bulk-memory", "--strip-debug", UNSPLIT_WAT, "-o", out], { stdio: ["ignore", "ignore", "inherit"] });
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
