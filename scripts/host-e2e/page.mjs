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

/**
 * Runs in the page: the transcript's rows (children of the list under the "Transcript (n)"
 * header, as the 2026.916.1 run page lays them out), rows by their label (digits dropped:
 * "2 system messages" -> "# system messages"), raw-JSON lines (a text line that is a JSON
 * object, as the host's fallback shows an unparsed line) and rows that hold any.
 * `toolCalls`: the tool calls the rows stand for (grouped rows count their calls).
 * `loadMore`: whether a "Load more log" button is on the page (the page shows 256 KB first).
 */
export function countRows() {
  const header = [...document.querySelectorAll("span")].find((s) => /^Transcript \(\d+\)$/.test(s.textContent.trim()));
  const loadMore = [...document.querySelectorAll("button")].some((b) => /load more log/i.test(b.textContent));
  const list = header?.parentElement?.nextElementSibling?.firstElementChild;
  if (!list) return { rows: 0, rawJson: 0, rawJsonRows: 0, toolCalls: 0, byKind: {}, results: [], loneToolCards: 0, redactedJson: 0, loadMore, found: false };
  let rawJson = 0, rawJsonRows = 0, toolCalls = 0, loneToolCards = 0, redactedJson = 0;
  const results = [];
  const byKind = {};
  for (const row of list.children) {
    const text = row.innerText ?? row.textContent;
    // A JSON object line, whole or cut by the host's 64 Ki-char chunk truncation.
    // A line the host's own secret redaction broke (its stored log replaced what followed a
    // string ending in "token:"/"password:"/… with ***REDACTED***) is counted apart.
    const json = text.split("\n").filter((l) => /^\{"[^"]*":/.test(l.trim()));
    const n = json.filter((l) => !l.includes("***REDACTED***")).length;
    redactedJson += json.length - n;
    rawJson += n;
    if (n) rawJsonRows++;
    const labelEl = row.querySelector('[class*="uppercase"]');
    const raw = labelEl ? labelEl.textContent.trim() : "";
    const label = raw ? raw.replace(/\d+/g, "#").toLowerCase() : "(text)";
    byKind[label] = (byKind[label] ?? 0) + 1;
    // A result row: the host renders a non-error result's text (or "Completed") as sky-blue
    // Markdown with no label, an error result under the label "result".
    const ok = row.querySelector('[class*="mt-0"][class*="text-sky-700"]');
    if (ok) results.push(ok.innerText.trim());
    else if (label === "result") results.push(text.trim().replace(/^result\s*/i, ""));
    // The host's card for a tool result it could not pair with a call (named "tool").
    if (label === "used tool") loneToolCards++;
    // Tool calls behind a row: "Executed 3 commands", "Used Edit (2 calls)", "Used Read".
    if (/^(used|using|executed|executing)\b/i.test(raw)) {
      const m = raw.match(/\((\d+) calls?\)/) ?? raw.match(/(\d+)/);
      toolCalls += m ? Number(m[1]) : 1;
    }
  }
  return { rows: list.children.length, rawJson, rawJsonRows, redactedJson, toolCalls, byKind, results, loneToolCards, loadMore, found: true };
}
