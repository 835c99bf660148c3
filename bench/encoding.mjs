// How the wasm is written into ui-parser.js, measured: the shipped base64 against encodings
// that gzip/brotli can see through (input for scripts/assemble.mjs + pkg-template/glue.js).
//
//   node bench/encoding.mjs [--runs N]        (also run by bench/run.mjs)
//
// base64 cuts the bytes into 6-bit groups, so the compressor no longer finds the wasm's
// repeats. Two byte-preserving alternatives:
// - hex: two characters a byte;
// - shifted latin1: one character a byte, code (byte + 0x30) & 255, inside "..."; `"`, `\`
//   and control characters as \xNN escapes (no quote or newline ever appears raw, so a
//   scanner that skips "..." strings skips it whole). The shift moves the most common wasm
//   bytes (0x00-0x1f) to plain ASCII.
// For each built ui-parser wasm: the string literal's raw, gzip -9 and brotli-11 bytes; then
// cold start (evaluate + first call) of dist/ui-parser.stateless.js rebuilt with each
// encoding, each in fresh processes.
import { readFileSync, writeFileSync, existsSync, readdirSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { fileURLToPath } from "node:url";
import { root, benchDir, distPath, loadHostStyle, median, mdTable, fmt, now } from "./lib.mjs";
import { scanForHost } from "../tests/js/host.mjs";

const SHIFT = 0x30;

export function shiftedLatin1(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const c = (bytes[i] + SHIFT) & 255;
    out += c === 0x22 || c === 0x5c || c < 0x20 || c === 0x7f ? "\\x" + c.toString(16).padStart(2, "0") : String.fromCharCode(c);
  }
  return out;
}

const ENCODINGS = {
  base64: {
    literal: (w) => w.toString("base64"),
    decoder: null, // the shipped alDecodeBase64
  },
  hex: {
    literal: (w) => w.toString("hex"),
    decoder: `function alDecodeBase64(s) {
  var n = s.length >> 1;
  var out = new Uint8Array(n);
  for (var i = 0, j = 0; i < n; i++, j += 2) {
    var a = s.charCodeAt(j), b = s.charCodeAt(j + 1);
    out[i] = (((a & 15) + (a >> 6) * 9) << 4) | ((b & 15) + (b >> 6) * 9);
  }
  return out;
}`,
  },
  "shifted latin1": {
    literal: shiftedLatin1,
    decoder: `function alDecodeBase64(s) {
  var n = s.length;
  var out = new Uint8Array(n);
  for (var i = 0; i < n; i++) out[i] = (s.charCodeAt(i) - ${SHIFT}) & 255;
  return out;
}`,
  },
};

const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** dist/ui-parser.stateless.js with the wasm written in another encoding. */
export function reencode(src, name) {
  const e = ENCODINGS[name];
  const m = /var AGENTLINES_WASM_B64 = "([^"]*)";/.exec(src);
  if (!m) throw new Error("the wasm string was not found");
  const wasm = Buffer.from(m[1], "base64");
  let out = src.replace(m[0], () => `var AGENTLINES_WASM_B64 = "${e.literal(wasm)}";`);
  if (e.decoder) {
    const a = out.indexOf("function alDecodeBase64(");
    const b = out.indexOf("\n}\n", a);
    if (a < 0 || b < 0) throw new Error("alDecodeBase64 was not found");
    out = out.slice(0, a) + e.decoder + out.slice(b + 2);
  }
  return out;
}

if (process.argv[2] === "--child") {
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
  for (const f of pick) {
    const w = readFileSync(join(wasmDir, f));
    sizeRows.push([`${f} raw (reference)`, String(w.length), String(gz(w)), String(br(w)), ""]);
    let b64gz = 0;
    for (const [name, e] of Object.entries(ENCODINGS)) {
      const lit = Buffer.from(`"${e.literal(w)}"`, "utf8");
      const g = gz(lit);
      if (name === "base64") b64gz = g;
      sizeRows.push([`${f} as ${name}${name === "base64" ? " (shipped)" : ""}`, String(lit.length), String(g), String(br(lit)),
        name === "base64" ? "" : `${g - b64gz} (${(((g - b64gz) / b64gz) * 100).toFixed(1)}%)`]);
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
    const probe = loadHostStyle(re + "\nmodule.exports.__p = { s: AGENTLINES_WASM_B64, d: alDecodeBase64 };\n").__p;
    const back = Buffer.from(probe.d(probe.s));
    const orig = Buffer.from(/var AGENTLINES_WASM_B64 = "([^"]*)";/.exec(src)[1], "base64");
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
    mdTable(["wasm, encoding", "raw", "gzip -9", "brotli 11", "Δ gzip vs base64"], sizeRows),
    "",
    `dist/ui-parser.stateless.js rebuilt with each encoding (fresh process, median of ${runs}):`,
    "",
    mdTable(["encoding", "file bytes", "file gzip", "evaluate ms", "first call ms (decode + compile + instantiate + parse)", "total ms"], coldRows),
  ].join("\n");
  return { markdown, notes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--runs");
  const r = encodingReport({ runs: i >= 0 ? Number(process.argv[i + 1]) : 7 });
  console.log(r.markdown);
  for (const n of r.notes) console.log(`> ${n}`);
}
