// How the wasm is written into ui-parser.js, measured: the shipped one-character-per-byte
// string (scripts/wasm-chars.mjs: characters by byte frequency, with a table) against the
// fixed shift by 0x30 it replaced, the unshifted form, base64 (what shipped first) and hex
// (input for scripts/wasm-chars.mjs + pkg-template/glue.js).
//
//   node bench/encoding.mjs [--runs N]        (also run by bench/run.mjs)
//
// - shipped: the 123 commonest byte values of the wasm as the one-byte characters a "..."
//   literal holds raw, the rest as U+0080-U+0104, in byte order within each class; the
//   table in AGENTLINES_WASM_MAP.
// - shifted: character = (byte + 0x30) & 255, the five codes a literal cannot hold raw
//   (NUL, LF, CR, '"', '\\') as 0x100 + code; decoded with `(charCodeAt(i) - 0x30) & 255`.
//   Wasm is full of bytes 0x00-0x1f (opcodes' small immediates, LEB128 tails); shifted,
//   they are plain ASCII (one UTF-8 byte each) instead of control characters.
// - unshifted: the same with character = byte.
// - base64 and hex, for reference.
// For each built ui-parser wasm: the string literals' raw, gzip -9 and brotli-11 bytes; then
// cold start (evaluate + first call) of dist/ui-parser.stateless.js rebuilt with each
// encoding, in fresh processes.
import { readFileSync, writeFileSync, existsSync, readdirSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { fileURLToPath } from "node:url";
import { root, benchDir, distPath, loadHostStyle, median, mdTable, fmt, now } from "./lib.mjs";
import { scanForHost } from "../tests/js/host.mjs";
import { wasmAsChars, charsToWasm, charsWithTable, literal, unliteral } from "../scripts/wasm-chars.mjs";

const UNSAFE = new Set([0x00, 0x0a, 0x0d, 0x22, 0x5c]);

function charPerByte(bytes, k) {
  const parts = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const c = (bytes[i] + k) & 255;
    parts[i] = String.fromCharCode(UNSAFE.has(c) ? 0x100 + c : c);
  }
  return parts.join("");
}

const ENCODINGS = {
  "one char per byte, by frequency (shipped)": {
    encode: wasmAsChars,
    decoder: null, // the shipped alWasmBytes
  },
  "one char per byte, shifted +0x30": {
    encode: (w) => ({ text: charPerByte(w, 0x30) }),
    decoder: `function alWasmBytes(s) {
  var n = s.length, out = new Uint8Array(n);
  for (var i = 0; i < n; i++) out[i] = (s.charCodeAt(i) - 0x30) & 255;
  return out;
}`,
  },
  "one char per byte, unshifted": {
    encode: (w) => ({ text: charPerByte(w, 0) }),
    decoder: `function alWasmBytes(s) {
  var n = s.length, out = new Uint8Array(n);
  for (var i = 0; i < n; i++) out[i] = s.charCodeAt(i) & 255;
  return out;
}`,
  },
  hex: {
    encode: (w) => ({ text: w.toString("hex") }),
    decoder: `function alWasmBytes(s) {
  var n = s.length >> 1, out = new Uint8Array(n);
  for (var i = 0, j = 0; i < n; i++, j += 2) {
    var a = s.charCodeAt(j), b = s.charCodeAt(j + 1);
    out[i] = (((a & 15) + (a >> 6) * 9) << 4) | ((b & 15) + (b >> 6) * 9);
  }
  return out;
}`,
  },
  "base64 (shipped before)": {
    encode: (w) => ({ text: w.toString("base64") }),
    decoder: `function alWasmBytes(s) {
  var t = new Uint8Array(128), a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (var i = 0; i < 64; i++) t[a.charCodeAt(i)] = i;
  var n = s.length;
  while (n > 0 && s.charCodeAt(n - 1) === 61) n--;
  var out = new Uint8Array((n * 3) >> 2), o = 0, j = 0;
  for (; j + 4 <= n; j += 4) {
    var v = (t[s.charCodeAt(j)] << 18) | (t[s.charCodeAt(j + 1)] << 12) | (t[s.charCodeAt(j + 2)] << 6) | t[s.charCodeAt(j + 3)];
    out[o++] = v >> 16; out[o++] = (v >> 8) & 255; out[o++] = v & 255;
  }
  if (n - j >= 2) {
    var w = (t[s.charCodeAt(j)] << 18) | (t[s.charCodeAt(j + 1)] << 12) | (n - j === 3 ? t[s.charCodeAt(j + 2)] << 6 : 0);
    out[o++] = w >> 16;
    if (n - j === 3) out[o++] = (w >> 8) & 255;
  }
  return out;
}`,
  },
};

const WASM_VAR = /var AGENTLINES_WASM = "((?:[^"\\]|\\.)*)";/;
const MAP_VAR = /var AGENTLINES_WASM_MAP = "((?:[^"\\]|\\.)*)";/;
// The split-stream decoder's wasm (pkg-template/unsplit.wat), written with the same characters as the wasm.
const UNSPLIT_VAR = /var AGENTLINES_UNSPLIT = "((?:[^"\\]|\\.)*)";/;
// The other encodings give the container as bytes (their alWasmBytes); the shipped glue hands
// the decoder wasm the characters, so for them the container's bytes go in as they are.
const BYTES_PATH = `function alUnsplitBytes(c, x) {
  var pages = ((2048 + 2 * c.length) >>> 16) + 1, mem, i, j, k, n;
  if (pages > 1) x.m.grow(pages - 1);
  mem = new Uint8Array(x.m.buffer);
  for (i = 0, j = 0, k = 0; i < 256; i++) {
    if (i === AL_OPS[j]) { k = AL_OPS[j + 1]; j += 2; }
    mem[i] = k;
  }
  mem.set(c, 2048);
  n = x.u(c.length);
  if (n < 0) throw new Error("agentlines: the wasm container does not add up (" + n + ")");
  return mem.subarray(2048 + c.length, 2048 + c.length + n);
}
`;
const SHIPPED_CALL = "return alUnsplit(AGENTLINES_WASM, AGENTLINES_WASM_MAP, d);";

/** The wasm bytes inside a built ui-parser file (the shipped encoding: the split-stream
 * container, scripts/wasm-split.mjs). */
export function wasmOf(src) {
  const m = WASM_VAR.exec(src);
  const t = MAP_VAR.exec(src);
  if (!m || !t) throw new Error("the wasm strings (var AGENTLINES_WASM, AGENTLINES_WASM_MAP) were not found");
  return charsToWasm(unliteral(m[1]), unliteral(t[1]));
}

/** A built ui-parser file with `wasm` (default: its own) written in another encoding. */
export function reencode(src, name, wasm = wasmOf(src)) {
  const e = ENCODINGS[name];
  const { text, table = "" } = e.encode(wasm); // only the shipped decoder reads a table
  let out = src.replace(WASM_VAR, () => `var AGENTLINES_WASM = "${literal(text)}";`)
    .replace(MAP_VAR, () => `var AGENTLINES_WASM_MAP = "${literal(table)}";`);
  const u = UNSPLIT_VAR.exec(src);
  if (u) {
    const dec = charsToWasm(unliteral(u[1]), unliteral(MAP_VAR.exec(src)[1]));
    const utext = table ? charsWithTable(dec, table) : e.encode(dec).text;
    out = out.replace(UNSPLIT_VAR, () => `var AGENTLINES_UNSPLIT = "${literal(utext)}";`);
  }
  if (e.decoder) {
    const a = out.indexOf("function alWasmBytes(");
    const b = out.indexOf("\n}\n", a);
    if (a < 0 || b < 0) throw new Error("alWasmBytes was not found");
    out = out.slice(0, a) + e.decoder + "\n" + BYTES_PATH + out.slice(b + 2);
    if (out.includes(SHIPPED_CALL)) {
      out = out.replace(SHIPPED_CALL, () => "return alUnsplitBytes(alWasmBytes(AGENTLINES_WASM, AGENTLINES_WASM_MAP), d);");
    }
  }
  return out;
}

const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--child") {
  const src = readFileSync(process.argv[3], "utf8");
  const t0 = now();
  const mod = loadHostStyle(src);
  const t1 = now();
  const r = mod.parseStdoutLine('{"type":"system","subtype":"init","model":"m","session_id":"s"}', "2026-01-01T00:00:00.000Z");
  const t2 = now();
  console.log(JSON.stringify({ evalMs: t1 - t0, firstMs: t2 - t1, entries: r.length }));
  process.exit(0);
}

export function encodingReport({ runs = 7 } = {}) {
  const notes = [];
  const wasmDir = join(root, "target", "pkg-wasm");
  const files = existsSync(wasmDir) ? readdirSync(wasmDir).filter((f) => f.endsWith(".wasm")).sort() : [];
  const pick = ["host.wasm", "claude.wasm", "codex.wasm"].filter((f) => files.includes(f));
  const sizeRows = [];
  const shippedName = Object.keys(ENCODINGS)[0];
  for (const f of pick) {
    const w = readFileSync(join(wasmDir, f));
    sizeRows.push([`${f} raw (reference)`, String(w.length), String(gz(w)), String(br(w)), ""]);
    let base = 0;
    for (const [name, e] of Object.entries(ENCODINGS)) {
      const { text, table } = e.encode(w);
      const lit = Buffer.from(`"${literal(text)}"` + (table === undefined ? "" : `"${literal(table)}"`), "utf8");
      const g = gz(lit);
      if (name === shippedName) base = g;
      sizeRows.push([`${f} as ${name}`, String(lit.length), String(g), String(br(lit)),
        name === shippedName ? "" : `${g - base >= 0 ? "+" : ""}${g - base} (${(((g - base) / base) * 100).toFixed(1)}%)`]);
    }
  }
  // Cold start with each encoding, fresh processes.
  const src = readFileSync(distPath("ui-parser.stateless.js"), "utf8");
  const dir = join(root, "target", "bench-encoding");
  mkdirSync(dir, { recursive: true });
  const coldRows = [];
  for (const name of Object.keys(ENCODINGS)) {
    const re = reencode(src, name);
    const file = join(dir, `ui-parser.stateless.${name.replace(/ /g, "-")}.js`);
    writeFileSync(file, re);
    const refused = scanForHost(re);
    if (refused.length) notes.push(`encoding ${name}: the host's scanner (tests/js/host.mjs) would refuse it: ${refused.map((f) => f.rule).join(", ")}`);
    // The decoder must give back the very bytes.
    const probe = loadHostStyle(re + "\nmodule.exports.__p = { s: AGENTLINES_WASM, m: AGENTLINES_WASM_MAP, d: alWasmBytes };\n").__p;
    const back = Buffer.from(probe.d(probe.s, probe.m));
    const orig = wasmOf(src);
    if (!back.equals(orig)) {
      notes.push(`encoding ${name}: decoding did not give back the wasm bytes: skipped.`);
      continue;
    }
    const rs = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, [join(benchDir, "encoding.mjs"), "--child", file], { encoding: "utf8" });
      if (r.status === 0) rs.push(JSON.parse(r.stdout.trim()));
      else notes.push(`encoding ${name}: the rebuilt file failed to load: ${r.stderr.split("\n")[0]}`);
    }
    if (!rs.length) continue;
    const b = Buffer.from(re, "utf8");
    coldRows.push([name, String(b.length), String(gz(b)), fmt.ms(median(rs.map((r) => r.evalMs))), fmt.ms(median(rs.map((r) => r.firstMs))),
      fmt.ms(median(rs.map((r) => r.evalMs + r.firstMs)))]);
  }
  const markdown = [
    "#### Wasm inside ui-parser.js: encodings (bytes of the string literal)",
    "",
    mdTable(["wasm, encoding", "raw", "gzip -9", "brotli 11", "Δ gzip vs shipped"], sizeRows),
    "",
    `dist/ui-parser.stateless.js rebuilt with each encoding (fresh process, median of ${runs}):`,
    "",
    mdTable(["encoding", "file bytes", "file gzip", "evaluate ms", "first call ms (decode + compile + instantiate + parse)", "total ms"], coldRows),
  ].join("\n");
  return { markdown, notes };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] !== "--child") {
  const i = process.argv.indexOf("--runs");
  const r = encodingReport({ runs: i >= 0 ? Number(process.argv[i + 1]) : 7 });
  console.log(r.markdown);
  for (const n of r.notes) console.log(`> ${n}`);
}
