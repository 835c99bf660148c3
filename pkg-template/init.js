// init(): compiles the wasm asynchronously, ahead of the first call, for front ends that must
// not spend the compile on the main thread at the first line (the entries with the wasm
// inlined compile it synchronously on the first call otherwise). `agentlines/web` has no
// wasm inlined: there init() is required and fetches agentlines.wasm beside the module (a
// separate file the browser caches), or the source given:
//   init()                              the inlined wasm, or agentlines.wasm beside the module
//   init({ wasm: url | Response | BufferSource | WebAssembly.Module })
// Resolves once the module is compiled; calling it again resolves at once. A wasm that is
// not agentlines' (no al_parse_line export) is refused.
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
    if (names.indexOf("al_parse_line") < 0) throw new Error("agentlines: init: that wasm is not agentlines' (no al_parse_line export)");
    if (alModule === null) {
      alModule = m;
      alEncoder = new TextEncoder();
      alDecoder = new TextDecoder();
      if (alNoWasm !== null && alNoWasm.code === "AGENTLINES_NOT_INITIALIZED") alNoWasm = null;
    }
  });
  alInitDone.catch(function () { alInitDone = null; });
  return alInitDone;
}

function alCompile(src) {
  if (src instanceof WebAssembly.Module) return Promise.resolve(src);
  if (typeof Response === "function" && src instanceof Response) {
    if (typeof WebAssembly.compileStreaming === "function") {
      // compileStreaming needs the application/wasm type; a server without it still works.
      return WebAssembly.compileStreaming(src.clone()).catch(function () {
        return src.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
      });
    }
    return src.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
  }
  if (typeof src === "string" || (typeof URL === "function" && src instanceof URL)) {
    if (typeof fetch !== "function") return Promise.reject(new Error("agentlines: init: no fetch here to load " + String(src) + "; pass the bytes as { wasm }"));
    return fetch(src).then(function (r) {
      if (!r.ok) throw new Error("agentlines: init: " + String(src) + ": HTTP " + r.status);
      return alCompile(r);
    });
  }
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(src);
  return Promise.reject(new TypeError("agentlines: init: options.wasm must be a URL, a Response, bytes or a WebAssembly.Module"));
}
