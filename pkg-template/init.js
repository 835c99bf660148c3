// init(): compiles the wasm asynchronously, ahead of the first call, for front ends that must
// not spend the compile on the main thread at the first line (the entries with the wasm
// inlined compile it synchronously on the first call otherwise). `agentlines/web` has no
// wasm inlined: there init() is required and fetches agentlines.wasm beside the module (a
// separate file the browser caches), or the source given:
//   init()                              the inlined wasm, or agentlines.wasm beside the module
//   init({ wasm: url | Response | BufferSource | WebAssembly.Module })
// Resolves once the module is compiled; calling it again resolves at once. Rejects with an
// AgentlinesWasmError: AGENTLINES_NO_WASM when the wasm cannot be compiled here (a page's CSP
// without 'wasm-unsafe-eval'; every later call then throws the same error, with the fix),
// AGENTLINES_WASM_LOAD when it cannot be fetched (in Node, fetch reads no file: URL) or is
// not agentlines' (no al_parse_line export).
var alInitDone = null;
function init(options) {
  if (alModule !== null) return Promise.resolve();
  if (alInitDone !== null) return alInitDone;
  var src;
  try {
    src = options === undefined || options === null ? undefined : options.wasm;
    if (src === undefined) src = alDefaultWasm();
  } catch (e) {
    return Promise.reject(e);
  }
  alInitDone = alCompile(src).then(function (m) {
    var names = WebAssembly.Module.exports(m).map(function (x) { return x.name; });
    if (names.indexOf("al_parse_line") < 0) throw alMakeError("agentlines: init: that wasm is not agentlines' (no al_parse_line export)", "AGENTLINES_WASM_LOAD");
    if (alModule === null) {
      alModule = m;
      alEncoder = new TextEncoder();
      alDecoder = new TextDecoder();
      // Compiled after all (init({ wasm }) after a failed one): no longer "not there".
      alNoWasm = null;
    }
  });
  alInitDone.catch(function () { alInitDone = null; });
  return alInitDone;
}

// A compile refused by the environment (a page's CSP, an embedder that allows no wasm) is
// the same AGENTLINES_NO_WASM error the entries with the wasm inlined give, kept for every
// later call; bytes that do not compile (an HTML page served in the wasm's place) are
// AGENTLINES_WASM_LOAD, for this call only.
function alCompiled(promise) {
  return promise.catch(function (e) {
    var why = e && e.message ? String(e.message) : "";
    if (/Content.Security.Policy|wasm-(unsafe-)?eval|disallowed by embedder|Refused to compile/i.test(why)) throw alUnavailable(e, false);
    if (e && (e instanceof WebAssembly.CompileError || e.name === "CompileError")) {
      throw alMakeError("agentlines: init: those bytes are not a WebAssembly module (" + why + "): a page served in the wasm's place?", "AGENTLINES_WASM_LOAD", e);
    }
    throw e;
  });
}

function alFetchFailed(src, e) {
  var url = String(src), why = e && e.message ? e.message : String(e);
  var node = /^file:/.test(url) ? " Node's fetch reads no file: URL: in Node import \"agentlines\" (the wasm inlined), or pass init({ wasm: <the bytes of agentlines.wasm> })." : "";
  return alMakeError("agentlines: init: cannot load " + url + " (" + why + ")." + node, "AGENTLINES_WASM_LOAD", e);
}

function alCompile(src) {
  if (src instanceof WebAssembly.Module) return Promise.resolve(src);
  if (typeof src === "string" || (typeof URL === "function" && src instanceof URL)) {
    if (typeof fetch !== "function") return Promise.reject(alFetchFailed(src, new Error("no fetch here; pass the bytes as { wasm }")));
    return fetch(src).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r;
    }).then(alCompile, function (e) { throw alFetchFailed(src, e); });
  }
  return alCompiled(alCompileNow(src));
}

function alCompileNow(src) {
  if (typeof Response === "function" && src instanceof Response) {
    if (typeof WebAssembly.compileStreaming === "function") {
      // compileStreaming needs the application/wasm type; a server without it still works.
      return WebAssembly.compileStreaming(src.clone()).catch(function () {
        return src.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
      });
    }
    return src.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
  }
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(src);
  return Promise.reject(new TypeError("agentlines: init: options.wasm must be a URL, a Response, bytes or a WebAssembly.Module"));
}
