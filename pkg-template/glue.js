// agentlines: hand-written glue over the wasm core's raw ABI (src/wasm.rs).
//
// This file is evaluated by the Paperclip host as the body of a function with
// `exports`, `module`, `self` and `globalThis` as parameters (the last two undefined), in a
// worker where eval, the function constructor, fetch and Blob are gone. So: no imports, no
// requires, no reliance on `self`/`globalThis`, nothing runs at load time but definitions,
// and the wasm (inlined below) is compiled and instantiated synchronously on the
// first call. A trap inside the wasm is caught: the instance is re-created from the
// compiled module and the line comes back as one stdout entry.

// The wasm, one character per byte. AGENTLINES_WASM_MAP holds the character for byte b at
// index b: scripts/wasm-chars.mjs gives the 123 commonest byte values of this wasm the one-byte
// ASCII characters a "..." literal can hold raw (not NUL, LF, CR, '"', '\\'), the next 128
// U+0080-U+00FF (two UTF-8 bytes), the 5 rarest those five, escaped: ~96% of the wasm is one
// byte in the UTF-8 file, and no character is past U+00FF (V8 parses the file as one-byte
// text: ~2 ms less to evaluate than with a few characters past it).
// This gzips ~23% smaller than base64 (which spends 6 bits of entropy-coded text on every
// 8 bits of wasm) and ~2% smaller than one fixed shift of every byte (brotli: the same).
// The characters are turned back into bytes inside the decoder wasm (alUnsplit).
var AGENTLINES_WASM_MAP = "@@WASM_MAP@@";
var AGENTLINES_WASM = "@@WASM_BYTES@@";

var alModule = null; // compiled once
var alWasm = null; // { x: exports, gen: instance generation }
var alGen = 0;
var alLive = 0; // stateful parsers with state in the current instance
var alEncoder = null;
var alDecoder = null;
// When WebAssembly cannot be compiled here (no WebAssembly, or a page whose CSP lacks
// 'wasm-unsafe-eval') or the instance cannot be created (no memory for it), the first call
// records one AgentlinesWasmError and neither is retried. The host's files answer every line
// as stdout (they never throw) and say so once on the console; the npm entry sets alStrict
// and throws that error from every call (README "WebAssembly and CSP").
var alNoWasm = null;
var alStrict = false;
// Makes that error: a plain Error named AgentlinesWasmError here; the npm entries make it an
// instance of their exported class (npm.js).
var alMakeError = function (message, code, cause) {
  var e = new Error(message);
  e.name = "AgentlinesWasmError";
  e.code = code;
  if (cause !== undefined) e.cause = cause;
  return e;
};
function alUnavailable(cause, compiled) {
  var why = cause && cause.message ? cause.message : String(cause);
  var e = alMakeError(compiled
    ? "agentlines: WebAssembly cannot be instantiated here (" + why + "); every line is shown as text."
    : "agentlines: WebAssembly cannot be compiled in this environment (" + why + "). " +
      "On a web page, the Content-Security-Policy must allow it: script-src 'wasm-unsafe-eval'.", "AGENTLINES_NO_WASM", cause);
  alNoWasm = e;
  if (!alStrict && typeof console !== "undefined" && console && typeof console.warn === "function") {
    try { console.warn(e.message); } catch (ignored) { /* a console that throws changes nothing */ }
  }
  return e;
}
function alRethrowNoWasm(e) {
  if (alStrict && e !== null && e === alNoWasm) throw e;
}

function alWasmBytes(s, map) {
  var lut = new Uint8Array(256), i;
  for (i = 0; i < 256; i++) lut[map.charCodeAt(i)] = i;
  var n = s.length, out = new Uint8Array(n);
  for (i = 0; i < n; i++) out[i] = lut[s.charCodeAt(i)];
  return out;
}

// The wasm's function bodies travel as split streams (opcodes, locals, constants... apart:
// smaller gzip); scripts/wasm-split.mjs writes them, the small wasm in AGENTLINES_UNSPLIT
// (pkg-template/unsplit.wat) puts them back. AL_OPS: each opcode's immediates, as runs
// (first opcode, kind); the kinds are listed in unsplit.wat.
var AGENTLINES_UNSPLIT = "@@UNSPLIT_BYTES@@";
var AL_OPS = [0x00, 0, 0x02, 11, 0x05, 0, 0x06, 255, 0x0b, 0, 0x0c, 10, 0x0e, 19, 0x0f, 0, 0x10, 3,
  0x11, 20, 0x12, 3, 0x13, 20, 0x14, 255, 0x1a, 0, 0x1c, 21, 0x1d, 255, 0x20, 1, 0x23, 2, 0x25, 12,
  0x27, 255, 0x28, 16, 0x3f, 12, 0x41, 6, 0x42, 7, 0x43, 17, 0x44, 18, 0x45, 0, 0xc5, 255, 0xd0, 12,
  0xd1, 0, 0xd2, 3, 0xd3, 255, 0xfc, 22, 0xfd, 23, 0xfe, 255, 0x100];

// The wasm from container s (its characters by map), by the decoder's exports x: the
// characters go into x's memory as UTF-8 (encodeInto, native), x.d turns them into bytes by
// the table written here from map, x.u puts the streams back. Throws if s does not add up.
function alUnsplit(s, map, x) {
  var pages = ((2048 + 2 * s.length) >>> 16) + 1, mem, i, j, k, n;
  if (pages > 1) x.m.grow(pages - 1);
  mem = new Uint8Array(x.m.buffer);
  for (i = 0, j = 0, k = 0; i < 256; i++) {
    if (i === AL_OPS[j]) { k = AL_OPS[j + 1]; j += 2; }
    mem[i] = k;
    mem[1024 + map.charCodeAt(i)] = i;
  }
  j = new TextEncoder().encodeInto(s, mem.subarray(2048));
  n = j.read === s.length ? x.d(j.written) : -6;
  if (n >= 0) { i = n; n = x.u(n); }
  if (n < 0) throw new Error("agentlines: the wasm container does not add up (" + n + ")");
  return mem.subarray(2048 + i, 2048 + i + n);
}

// The wasm module's bytes (scripts/assemble.mjs checks every file with this). alStep says
// how far it got: 1 while the decoder is instantiated (alInstance reports that apart).
var alStep = 0;
function alWasmModuleBytes() {
  var d = new WebAssembly.Module(alWasmBytes(AGENTLINES_UNSPLIT, AGENTLINES_WASM_MAP));
  alStep = 1;
  d = new WebAssembly.Instance(d, {}).exports;
  alStep = 2;
  return alUnsplit(AGENTLINES_WASM, AGENTLINES_WASM_MAP, d);
}

function alInstance() {
  if (alWasm !== null) return alWasm;
  if (alNoWasm !== null) throw alNoWasm;
  if (alModule === null) {
    try {
      alModule = new WebAssembly.Module(alWasmModuleBytes());
    } catch (e) {
      // The decoder's own instance failing is a failed instantiation, not a compile (CSP).
      throw alUnavailable(e, alStep === 1);
    }
    alEncoder = new TextEncoder();
    alDecoder = new TextDecoder();
  }
  var inst;
  try {
    inst = new WebAssembly.Instance(alModule, {});
  } catch (e) {
    throw alUnavailable(e, true);
  }
  alGen++;
  alLive = 0;
  alWasm = { x: inst.exports, gen: alGen };
  return alWasm;
}

// After a trap the instance's memory may be inconsistent: drop it, the next call builds a
// fresh one from the compiled module.
function alDropInstance() {
  alWasm = null;
}

// Gives wasm memory back. Its pages never shrink, so an instance that has grown past
// 32 MiB (a long line's working set) is dropped once no parser has state in it; the next
// call builds a fresh one from the compiled module (~0.1 ms). Called after each call's
// answer has been read.
function alTrim(w) {
  if (alLive === 0 && alWasm === w && w.x.memory.buffer.byteLength > 33554432) alWasm = null;
}

// Never throws: an argument whose toString throws (a hostile object, a symbol) reads as "",
// so converting it cannot look like a trap and drop the instance other parsers share.
function alText(v) {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  try { return String(v); } catch (e) { return ""; }
}

// Writes a and b back to back into the wasm input buffer; returns their UTF-8 lengths.
function alWrite2(w, a, b) {
  var cap = (a.length + b.length) * 3;
  if (cap > 3145728) {
    // Long text: reserve its exact UTF-8 size (one more copy in JS), so a 64 MB line takes
    // 64 MB of wasm memory instead of the 192 MB that 3 bytes per UTF-16 unit would.
    var ea = alEncoder.encode(a), eb = alEncoder.encode(b);
    var at = w.x.al_input(ea.length + eb.length);
    var whole = new Uint8Array(w.x.memory.buffer, at, ea.length + eb.length);
    whole.set(ea);
    whole.set(eb, ea.length);
    return [ea.length, eb.length];
  }
  var ptr = w.x.al_input(cap);
  var mem = new Uint8Array(w.x.memory.buffer, ptr, cap);
  var la = a.length === 0 ? 0 : alEncoder.encodeInto(a, mem).written;
  var lb = b.length === 0 ? 0 : alEncoder.encodeInto(b, mem.subarray(la)).written;
  return [la, lb];
}

function alRead(w, len) {
  var ptr = w.x.al_output();
  return alDecoder.decode(new Uint8Array(w.x.memory.buffer, ptr, len));
}

// What a line (or parseChunk's chunk) gives when the wasm cannot answer it. Without
// WebAssembly (e, the call's error, is alNoWasm): the text as stdout, as the host shows a run
// without a parser. After a trap: one notice with its length and start, never the text as a
// raw row (a 1 MB JSON line).
function alFallback(line, ts, e) {
  var text = typeof line === "string" ? line : "";
  if (text.trim() === "") return [];
  var raw = e === alNoWasm;
  return [{ kind: raw ? "stdout" : "system", ts: typeof ts === "string" ? ts : "",
    text: raw ? text : "[agentlines] could not read this text (" + text.length + " characters): " + text.slice(0, 200) }];
}

function parseStdoutLine(line, ts) {
  try {
    var l = alText(line), t = alText(ts);
    var w = alInstance();
    var n = alWrite2(w, l, t);
    var out = JSON.parse(alRead(w, w.x.al_parse_line(n[0], n[1])));
    alTrim(w);
    return out;
  } catch (e) {
    alRethrowNoWasm(e);
    alDropInstance();
    return alFallback(line, ts, e);
  }
}

//@@BATCH_BEGIN
// Batch API for viewers that load whole logs: one crossing for the whole text, entries of
// one autodetecting stateful parser, consecutive deltas merged as the host merges them
// (pass { merge: false } to keep them apart).
function alMerge(options) {
  try { return options && options.merge === false ? 0 : 1; } catch (e) { return 1; }
}

function parseLog(text, ts, options) {
  var merge = alMerge(options);
  try {
    var t = alText(text), s = alText(ts);
    var w = alInstance();
    var n = alWrite2(w, t, s);
    var out = JSON.parse(alRead(w, w.x.al_parse_log(n[0], n[1], 0, merge)));
    alTrim(w);
    return out;
  } catch (e) {
    alRethrowNoWasm(e);
    alDropInstance();
    return linesFallback(alText(text).split("\n"), function () { return ts; });
  }
}

// lines: array of strings; ts: one string for all, or an array aligned with lines.
// Reading the arguments (a hostile array or proxy may throw) is kept apart from the wasm
// call: only a failure inside the wasm drops the instance.
function parseLines(lines, ts, options) {
  var merge = alMerge(options), list = [], stamps = [], perLine = false, whole = true;
  try {
    list = Array.isArray(lines) ? lines.map(alText) : [];
    perLine = Array.isArray(ts);
    for (var i = 0; i < list.length; i++) {
      stamps.push(alText(perLine ? ts[i] : ts));
      // A "line" holding a newline would split differently: keep the exact per-line meaning.
      if (list[i].indexOf("\n") >= 0) whole = false;
    }
  } catch (e) {
    return [];
  }
  var tsOf = function (i) { return stamps[i]; };
  if (whole) {
    try {
      var joined = list.join("\n") + (list.length ? "\n" : "");
      var st = perLine ? stamps.map(function (s) { return s.replace(/\n/g, " "); }).join("\n") : alText(ts);
      var w = alInstance();
      var n = alWrite2(w, joined, st);
      var out = JSON.parse(alRead(w, w.x.al_parse_log(n[0], n[1], perLine ? 1 : 0, merge)));
      alTrim(w);
      return out;
    } catch (e) {
      alRethrowNoWasm(e);
      alDropInstance();
    }
  }
  return linesFallback(list, tsOf);
}

// Whole lines at once, for viewers of big logs (parseBatch): text is complete lines joined
// by "\n", as a string or as UTF-8 bytes (a Uint8Array, e.g. a slice of a file read as
// bytes: written into the wasm as they are, never decoded and encoded again); ts one string, or an array with one per line; options.recordTs: a JSON record's
// own RFC 3339 `timestamp` wins; options.json: the answer as JSON text (to post to another
// thread as one string, not cloned object by object); options.end: the text ends the stream
// (a stateful parser is flushed after it). Answers { count, lines, entries }:
// count lines read, lines[k] the index of the line entries[k] came from. handleOf(w): a stateful parser's handle in
// instance w, or null to read each line alone; lineOf(line, ts): the same one line at a time,
// used when the batch call fails (a trap) or the wasm has none (the per-runtime entries).
function alBatch(handleOf, lineOf, text, ts, options) {
  var bytes = text instanceof Uint8Array ? text : null;
  var t = bytes ? "" : alText(text), flags = 0, json = false, st = "";
  try {
    if (options && options.recordTs === true) flags = 2;
    if (options && options.end === true) flags |= 4;
    json = !!(options && options.json === true);
    if (Array.isArray(ts)) {
      flags |= 1;
      st = ts.map(function (s) { return alText(s).replace(/\n/g, " "); }).join("\n");
    } else st = alText(ts);
  } catch (e) { /* a hostile argument: one empty ts */ }
  var out;
  try {
    var w = alInstance();
    if (typeof w.x.al_parse_batch === "function") {
      var h = handleOf ? handleOf(w) : 0;
      var n;
      if (bytes) {
        var eb = alEncoder.encode(st);
        var at = w.x.al_input(bytes.length + eb.length); // may grow memory: read the buffer after
        var m = new Uint8Array(w.x.memory.buffer, at, bytes.length + eb.length);
        m.set(bytes);
        m.set(eb, bytes.length);
        n = [bytes.length, eb.length];
      } else n = alWrite2(w, t, st);
      out = alRead(w, w.x.al_parse_batch(h, n[0], n[1], flags));
      alTrim(w);
      return json ? out : JSON.parse(out);
    }
  } catch (e) {
    alRethrowNoWasm(e);
    alDropInstance();
  }
  // One line at a time (given times only: a record's own time needs the batch call).
  if (bytes) t = new TextDecoder().decode(bytes);
  var list = t.split("\n"), at = [], entries = [];
  if (list.length && list[list.length - 1] === "") list.pop();
  var stamps = flags & 1 ? st.split("\n") : null;
  for (var i = 0; i < list.length; i++) {
    var r = lineOf(list[i], stamps ? stamps[i] || "" : st);
    for (var k = 0; k < r.length; k++) { entries.push(r[k]); at.push(i); }
  }
  out = { count: list.length, lines: at, entries: entries };
  return json ? JSON.stringify(out) : out;
}

function parseBatch(text, ts, options) {
  return alBatch(null, parseStdoutLine, text, ts, options);
}

function linesFallback(list, tsOf) {
  var out = [];
  var p = createStdoutParser();
  for (var i = 0; i < list.length; i++) {
    var r = p.parseLine(list[i], tsOf(i));
    for (var k = 0; k < r.length; k++) out.push(r[k]);
  }
  p.dispose();
  return out;
}
//@@BATCH_END

//@@STATEFUL_BEGIN
function alNewHandle(w, format) {
  var f = alText(format);
  var n = alWrite2(w, f, "");
  var h = w.x.al_parser_new(n[0]);
  alLive++;
  return h;
}

// Frees a parser's state (cell: its handle h in instance generation g), unless that
// instance is gone or the parser was disposed.
function alFree(cell) {
  try {
    if (alWasm !== null && cell.g === alWasm.gen) {
      cell.g = -1;
      alLive--;
      alWasm.x.al_parser_free(cell.h);
      alTrim(alWasm);
    }
  } catch (e) {
    alDropInstance();
  }
}

// A parser dropped without `dispose` (the host never calls it) is freed when it is
// garbage-collected. Where FinalizationRegistry is missing its state lives as long as the
// instance.
var alRegistry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry(alFree) : null;

// One stateful parser per transcript session. If the wasm instance was re-created after a
// trap, the parser starts over on a fresh handle (its bookkeeping is lost, lines are not).
function createStdoutParser(options) {
  var format = "";
  try {
    if (options && typeof options === "object" && typeof options.format === "string") format = options.format;
  } catch (e) { /* a hostile options object: autodetect */ }
  // The handle lives apart from the parser object, so the registry can free it after the
  // object is gone.
  var cell = { h: 0, g: -1 };
  // A chunk that ends between the two halves of a surrogate pair (a non-BMP character such
  // as an emoji, cut by whoever split the stream) keeps its high half for the next chunk.
  var carry = "";
  function handle(w) {
    if (cell.g !== w.gen) {
      cell.h = alNewHandle(w, format);
      cell.g = w.gen;
    }
    return cell.h;
  }
  function feed(mode, text, ts) {
    var w = alInstance();
    var h = handle(w);
    var n = alWrite2(w, text, ts);
    return JSON.parse(alRead(w, w.x.al_parser_feed(h, mode, n[0], n[1])));
  }
  var parser = {
    parseLine: function (line, ts) {
      try {
        return feed(0, alText(line), alText(ts));
      } catch (e) {
        alRethrowNoWasm(e);
        alDropInstance();
        return alFallback(line, ts, e);
      }
    },
    // Raw text that may end mid-line (LF or CRLF); complete lines are parsed.
    parseChunk: function (chunk, ts) {
      try {
        var c = carry + alText(chunk);
        var last = c.charCodeAt(c.length - 1);
        carry = last >= 0xd800 && last < 0xdc00 ? c.slice(-1) : "";
        return feed(1, carry ? c.slice(0, -1) : c, alText(ts));
      } catch (e) {
        alRethrowNoWasm(e);
        alDropInstance();
        return alFallback(chunk, ts, e);
      }
    },
    // The text after the last newline, at the end of a stream.
    flush: function (ts) {
      try {
        var held = carry;
        carry = "";
        var out = held ? feed(1, held, alText(ts)) : [];
        return out.concat(feed(2, "", alText(ts)));
      } catch (e) {
        alRethrowNoWasm(e);
        alDropInstance();
        return [];
      }
    },
    reset: function () {
      carry = "";
      try {
        if (alWasm !== null && cell.g === alWasm.gen) alWasm.x.al_parser_reset(cell.h);
      } catch (e) {
        alRethrowNoWasm(e);
        alDropInstance();
      }
    },
    // Frees the parser's state in the wasm instance now (else it is freed when the parser
    // is garbage-collected). The parser can still be used: it starts over.
    dispose: function () {
      alFree(cell);
    },
//@@BATCH_BEGIN
    // Whole lines at once through this parser (alBatch).
    parseBatch: function (text, ts, options) {
      return alBatch(handle, parser.parseLine, text, ts, options);
    },
    // The runtime the stream was detected (or forced) as, once known; else undefined.
    runtime: function () {
      try {
        var w = alInstance();
        if (typeof w.x.al_parser_runtime !== "function") return undefined;
        var name = alRead(w, w.x.al_parser_runtime(handle(w)));
        return name === "" ? undefined : name;
      } catch (e) {
        alRethrowNoWasm(e);
        return undefined;
      }
    }
//@@BATCH_END
  };
  if (alRegistry !== null) alRegistry.register(parser, cell);
  return parser;
}
//@@STATEFUL_END
