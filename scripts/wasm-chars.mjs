// How the wasm is written into a ui-parser file, one character per byte (shared by
// scripts/assemble.mjs, which writes it, and bench/encoding.mjs, which measures it; the
// decoder is d in pkg-template/unsplit.wat, run by alUnsplit in pkg-template/glue.js). The
// 123 commonest byte values of the wasm become the one-byte ASCII characters a "..." literal
// can hold raw (all but NUL, LF, CR, '"' and '\'), the next 128 the Latin-1 characters
// U+0080-U+00FF (two UTF-8 bytes), the 5 rarest the five ASCII characters left out, written
// escaped (\x00 \n \r \" \\). The table (256 characters, the one for byte b at index b) goes
// into the file beside the string. In UTF-8, ~96% of the wasm's bytes are then one byte of
// the file, against 84% with the fixed shift by 0x30 used before: 3.4 KB less after gzip on
// the default file, table included, and brotli within 0.3% (docs/bench.md, Decisions). Every
// character at most U+00FF: V8 then holds the whole source as a one-byte string, and
// evaluating the default file takes ~1.5 ms instead of the ~3.4 ms it took while the 5
// rarest bytes were U+0100-U+0104, which made all of it two-byte.

const RAW_UNSAFE = [0x00, 0x0a, 0x0d, 0x22, 0x5c];
const ONE_BYTE = Array.from({ length: 128 }, (_, c) => c).filter((c) => !RAW_UNSAFE.includes(c));
const ESCAPE = new Map([[0x00, "\\x00"], [0x0a, "\\n"], [0x0d, "\\r"], [0x22, '\\"'], [0x5c, "\\\\"]]);

/** The character code for each byte value (index = byte) of `bytes`' encoding. */
export function wasmCharMap(bytes) {
  const freq = new Float64Array(256);
  for (const b of bytes) freq[b]++;
  // The commonest values (ties by byte value: the same wasm always gives the same file) get
  // one-byte characters, the rarest five the escaped ones; within each class, characters
  // keep the bytes' order. Assigned by rank instead, gzip is the same but brotli (whose
  // context model reads neighbouring byte values) ~1.5% larger; in order it is within 0.3%
  // of the fixed shift's brotli size.
  const order = Array.from({ length: 256 }, (_, b) => b).sort((x, y) => freq[y] - freq[x] || x - y);
  const common = new Set(order.slice(0, ONE_BYTE.length));
  const rare = new Set(order.slice(256 - RAW_UNSAFE.length));
  const map = new Array(256);
  let one = 0;
  let two = 0x80;
  let esc = 0;
  for (let b = 0; b < 256; b++) map[b] = common.has(b) ? ONE_BYTE[one++] : rare.has(b) ? RAW_UNSAFE[esc++] : two++;
  // The decoder (d in pkg-template/unsplit.wat) relies on it: every character U+0000-U+00FF, once.
  if (new Set(map).size !== 256 || map.some((c) => c > 0xff)) throw new Error("the character map is not a permutation of U+0000-U+00FF");
  return map;
}

/** `s` as the body of a "..." literal: the five characters it cannot hold raw escaped. */
export function literal(s) {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const e = ESCAPE.get(s.charCodeAt(i));
    if (e !== undefined) { out += s.slice(from, i) + e; from = i + 1; }
  }
  return out + s.slice(from);
}

/** The value of a "..." literal body that `literal` wrote (bench/encoding.mjs reads files). */
export function unliteral(body) {
  return body.replace(/\\(x00|.)/g, (m, c) => ({ x00: "\0", n: "\n", r: "\r", '"': '"', "\\": "\\" })[c] ?? c);
}

/** { table, text }: the two strings (values: `literal` writes them into the file) for `bytes`. */
export function wasmAsChars(bytes) {
  const map = wasmCharMap(bytes);
  const chars = map.map((c) => String.fromCharCode(c));
  const parts = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = chars[bytes[i]];
  return { table: String.fromCharCode(...map), text: parts.join("") };
}

/** The bytes back from `text` and `table` (what alWasmBytes does, for checks in Node). */
export function charsToWasm(text, table) {
  const lut = new Map([...table].map((c, b) => [c.charCodeAt(0), b]));
  const out = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const b = lut.get(text.charCodeAt(i));
    if (b === undefined) throw new Error(`character U+${text.charCodeAt(i).toString(16)} at ${i} is not in the table`);
    out[i] = b;
  }
  return out;
}

/** `bytes` as characters by an existing table (the decoder wasm rides on the wasm's table). */
export function charsWithTable(bytes, table) {
  const parts = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = table[bytes[i]];
  return parts.join("");
}
