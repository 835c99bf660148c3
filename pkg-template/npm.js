// The npm entry's own face over the glue's parsers (not in the host's files, which never
// throw: a line they cannot use is a stdout entry). Here a wrong argument is a programming
// error, so it throws a TypeError naming the function, the argument and what it got, instead
// of reading a Uint8Array as "123,34,…" or a Date as its toString(). A parser used after
// dispose() throws instead of silently starting afresh; `using` (Symbol.dispose) disposes.

function alWhat(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") {
    var name = "";
    try { name = Object.prototype.toString.call(v).slice(8, -1); } catch (e) { name = "Object"; }
    return name === "Object" ? "an object" : "a " + name;
  }
  return typeof v === "string" ? "a string" : "a " + typeof v;
}

function alNeed(fn, arg, v, what, ok) {
  if (!ok) throw new TypeError("agentlines: " + fn + ": " + arg + " must be " + what + ", got " + alWhat(v));
}

// ts: a string (an ISO 8601 timestamp); undefined reads as "" where it may be left out
// (whole logs), and is refused where the host always gives it (a line, a chunk).
function alTs(fn, ts) {
  alNeed(fn, "ts", ts, "a string", ts === undefined || typeof ts === "string");
  return ts === undefined ? "" : ts;
}
function alLineTs(fn, ts) {
  alNeed(fn, "ts", ts, "a string (the line's time, e.g. new Date().toISOString())", typeof ts === "string");
  return ts;
}

// The errors the entries throw when WebAssembly is not there (glue.js alMakeError): a class
// of their own, so `instanceof AgentlinesWasmError` and `code` tell them apart.
class AgentlinesWasmError extends Error {
  constructor(message, code, cause) {
    super(message);
    this.name = "AgentlinesWasmError";
    this.code = code;
    if (cause !== undefined) this.cause = cause;
  }
}
alMakeError = function (message, code, cause) { return new AgentlinesWasmError(message, code, cause); };
exports.AgentlinesWasmError = AgentlinesWasmError;

// createStdoutParser's format: a name the core knows (src/formats/mod.rs FORMAT_NAMES, put
// here by scripts/assemble.mjs), any case; a misspelt one is refused, not autodetected.
function alFormat(fn, format) {
  alNeed(fn, "options.format", format, "a string", format === undefined || typeof format === "string");
  if (format !== undefined && AL_FORMAT_NAMES.indexOf(format.trim().toLowerCase()) < 0) {
    throw new TypeError("agentlines: " + fn + ": options.format " + JSON.stringify(format) + " is not a runtime name; one of " +
      AL_RUNTIME_NAMES.join(", ") + " (any case, or an adapter's name such as claude_local; leave it out to autodetect)");
  }
  return format;
}

function alOptions(fn, options) {
  alNeed(fn, "options", options, "an object", options === undefined || options === null ||
    (typeof options === "object" && !Array.isArray(options)));
  return options || {};
}

var alParseStdoutLine = parseStdoutLine;
exports.parseStdoutLine = function parseStdoutLine(line, ts) {
  alNeed("parseStdoutLine", "line", line, "a string", typeof line === "string");
  return alParseStdoutLine(line, alLineTs("parseStdoutLine", ts));
};

exports.createStdoutParser = function createStdoutParser(options) {
  var o = alOptions("createStdoutParser", options);
  alFormat("createStdoutParser", o.format);
  var inner = alCreateStdoutParser(o.format === undefined ? undefined : { format: o.format });
  var disposed = false;
  function live(fn) {
    if (disposed) throw new Error("agentlines: " + fn + " on a disposed parser; create a new one with createStdoutParser()");
  }
  var parser = {
    parseLine: function (line, ts) {
      live("parseLine");
      alNeed("parseLine", "line", line, "a string", typeof line === "string");
      return inner.parseLine(line, alLineTs("parseLine", ts));
    },
    parseChunk: function (chunk, ts) {
      live("parseChunk");
      alNeed("parseChunk", "chunk", chunk, "a string (decode bytes with TextDecoder and { stream: true })", typeof chunk === "string");
      return inner.parseChunk(chunk, alLineTs("parseChunk", ts));
    },
    flush: function (ts) {
      live("flush");
      return inner.flush(alLineTs("flush", ts));
    },
    parseBatch: function (text, ts, options) {
      live("parseBatch");
      return alCheckedBatch("parseBatch", inner.parseBatch, text, ts, options);
    },
    reset: function () {
      live("reset");
      inner.reset();
    },
    // The runtime detected (or forced), once a line was unmistakable: what summarizeUsage
    // needs to read the results' token counts (docs/costs.md).
    get runtime() {
      live("runtime");
      return inner.runtime ? inner.runtime() : undefined;
    },
    // Frees the parser's state now; a second call does nothing.
    dispose: function () {
      if (!disposed) inner.dispose();
      disposed = true;
    }
  };
  if (typeof Symbol === "function" && Symbol.dispose) parser[Symbol.dispose] = parser.dispose;
  return parser;
};
var alCreateStdoutParser = createStdoutParser;

var alParseLog = parseLog;
exports.parseLog = function parseLog(text, ts, options) {
  alNeed("parseLog", "text", text, "a string", typeof text === "string");
  return alParseLog(text, alTs("parseLog", ts), alOptions("parseLog", options));
};

var alParseLines = parseLines;
exports.parseLines = function parseLines(lines, ts, options) {
  alNeed("parseLines", "lines", lines, "an array of strings", Array.isArray(lines));
  for (var i = 0; i < lines.length; i++) {
    alNeed("parseLines", "lines[" + i + "]", lines[i], "a string", typeof lines[i] === "string");
  }
  if (Array.isArray(ts)) {
    alNeed("parseLines", "ts", ts, "a string or an array as long as lines (" + lines.length + ")", ts.length === lines.length);
    for (var k = 0; k < ts.length; k++) alNeed("parseLines", "ts[" + k + "]", ts[k], "a string", typeof ts[k] === "string");
  } else {
    ts = alTs("parseLines", ts);
  }
  return alParseLines(lines, ts, alOptions("parseLines", options));
};

// parseBatch's arguments: text a string or UTF-8 bytes; ts a string, an array of strings or
// undefined.
function alCheckedBatch(fn, batch, text, ts, options) {
  alNeed(fn, "text", text, "a string or a Uint8Array of UTF-8 (whole lines joined by \"\\n\")", typeof text === "string" || text instanceof Uint8Array);
  if (Array.isArray(ts)) {
    for (var k = 0; k < ts.length; k++) alNeed(fn, "ts[" + k + "]", ts[k], "a string", typeof ts[k] === "string");
    var lines = alLineCount(text);
    if (ts.length < lines) {
      throw new TypeError("agentlines: " + fn + ": ts has " + ts.length + " times for " + lines + " lines; give one per line (or one string for all)");
    }
  } else {
    ts = alTs(fn, ts);
  }
  return batch(text, ts, alOptions(fn, options));
}

// Lines in a batch's text: "\n"-separated, a last line without its "\n" counted.
function alLineCount(text) {
  var n = 0, at = 0, len = text.length;
  for (;;) {
    var i = text.indexOf(typeof text === "string" ? "\n" : 10, at);
    if (i < 0) break;
    n++;
    at = i + 1;
  }
  return at < len ? n + 1 : n;
}

var alParseBatch = parseBatch;
exports.parseBatch = function parseBatch(text, ts, options) {
  return alCheckedBatch("parseBatch", alParseBatch, text, ts, options);
};

// Consecutive `delta: true` entries of the same kind merged into one, as the host's
// transcript view merges them (text appended; the merged entry keeps the first one's ts and
// fields). For live views that receive entries line by line; the input is not changed.
exports.mergeDeltas = function mergeDeltas(entries) {
  alNeed("mergeDeltas", "entries", entries, "an array of entries", Array.isArray(entries));
  var out = [], copied = false;
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i], last = out[out.length - 1];
    alNeed("mergeDeltas", "entries[" + i + "]", e, "an entry (an object with a kind)", e !== null && typeof e === "object" && typeof e.kind === "string");
    var key = e && e.delta === true ? (e.kind === "tool_result" ? "content" : e.kind === "assistant" || e.kind === "thinking" ? "text" : null) : null;
    if (key !== null && last && last.delta === true && last.kind === e.kind && typeof last[key] === "string" && typeof e[key] === "string") {
      if (!copied) {
        last = out[out.length - 1] = Object.assign({}, last);
        copied = true;
      }
      last[key] += e[key];
      continue;
    }
    out.push(e);
    copied = false;
  }
  return out;
};
