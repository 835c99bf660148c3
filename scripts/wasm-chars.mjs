// How the wasm is written into a ui-parser file, one character per byte (shared by
// scripts/assemble.mjs, which writes it, and bench/encoding.mjs, which measures it; the
// decoder is alWasmBytes in pkg-template/glue.js). The 123 commonest byte values of the wasm
// become the one-byte ASCII characters a "..." literal can hold raw (all but NUL, LF, CR,
// '"' and '\'), the other 133 the two-byte characters U+0080-U+0104; the table (256
// characters, the one for byte b at index b) goes into the file beside the string. In
// UTF-8, ~96% of the wasm's bytes are then one byte of the file, against 84% with the fixed
// shift by 0x30 used before: 3.4 KB less after gzip on the default file, table included,
// and brotli within 0.3% (docs/bench.md, "Issue 18, round 4").

const RAW_UNSAFE = new Set([0x00, 0x0a, 0x0d, 0x22, 0x5c]);
const ONE_BYTE = Array.from({ length: 128 }, (_, c) => c).filter((c) => !RAW_UNSAFE.has(c));

/** The character code for each byte value (index = byte) of `bytes`' encoding. */
export function wasmCharMap(bytes) {
  const freq = new Float64Array(256);
  for (const b of bytes) freq[b]++;
  // The commonest values (ties by byte value: the same wasm always gives the same file) get
  // one-byte characters; within each class, characters keep the bytes' order. Assigned by
  // rank instead, gzip is the same but brotli (whose context model reads neighbouring byte
  // values) ~1.5% larger; in order it is within 0.3% of the fixed shift's brotli size.
  const order = Array.from({ length: 256 }, (_, b) => b).sort((x, y) => freq[y] - freq[x] || x - y);
  const common = new Set(order.slice(0, ONE_BYTE.length));
  const map = new Array(256);
  let one = 0;
  let two = 0x80;
  for (let b = 0; b < 256; b++) map[b] = common.has(b) ? ONE_BYTE[one++] : two++;
  return map;
}

/** { table, text }: the two string literals' contents for `bytes`. */
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
