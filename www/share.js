// "share .html": one self-contained HTML file of the run on screen, to send to a colleague or
// publish: it opens offline from disk in any browser, with no server, and shows the same
// header, cards, folds, diffs, subagents, search, charts and exports as the viewer (it is the
// viewer: this page's own modules joined into one script by www/bundle.js, its stylesheet,
// and the run's entries as data).
//
// Nothing in it can run but that script: a CSP in the file allows exactly one script and one
// stylesheet, by their SHA-256 hashes (no network, no other inline code, no Trusted Types
// policy); the entries travel in a `<script type="application/json">` block with every `<`
// written as `\u003c`, so no text in them can close the block, and the page shows them as it
// shows any entry: as text. In the file, `SharedHost` plays the parser worker's part,
// handing the page the entries a slice at a time.

import { bundle } from "./bundle.js";
import { sliced } from "./export.js";

export const DATA_ID = "al-run";
const SLICE = 5000;

async function text(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.text();
}

export async function sha256(s) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
  let bin = "";
  for (const b of d) bin += String.fromCharCode(b);
  return btoa(bin);
}

const inert = (json) => json.replace(/</g, "\\u003c");

/**
 * The shared file's fixed parts, around its title and its data: `before` + the title (HTML
 * text) + `between` + the data block's JSON (every `<` as `\u003c`) + `tail`. `page`, `css`
 * and `code`: index.html, style.css and the page's modules joined (www/bundle.js). The CLI
 * writes the same file from these parts (scripts/share-template.mjs).
 */
export async function sharedParts(page, css, code) {
  // What would end the script element early, or keep it open ("<!--" then "<script"),
  // written with a hex escape: the code only has these in strings, regular expressions and
  // comments, where "\x73" is "s" and "\x21" is "!".
  const script = code.replace(/<(\/?)([sS])(cript)/gi, (_, slash, s, rest) => `<${slash}\\x${s.charCodeAt(0).toString(16)}${rest}`).replace(/<!--/g, "<\\x21--");
  if (/<\/style/i.test(css)) throw new Error("the viewer's stylesheet cannot be inlined: it contains a style end tag");
  const [scriptHash, styleHash] = await Promise.all([sha256(script), sha256(css)]);
  const csp = `default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'sha256-${styleHash}'; ` +
    "img-src data:; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'";
  const bodyAt = page.indexOf("<body");
  const bodyEnd = page.lastIndexOf("</body>");
  if (bodyAt < 0 || bodyEnd < 0) throw new Error("index.html has no body");
  const body = page.slice(bodyAt, bodyEnd).replace(/^<body/, '<body class="shared"');
  return {
    before: "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
      `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` +
      '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>',
    between: ` · agentlines</title>\n<style>${css}</style>\n</head>\n${body}\n<script type="application/json" id="${DATA_ID}">`,
    tail: `</script>\n<script>${script}</script>\n</body>\n</html>\n`,
  };
}

/**
 * The shared file of transcript `t` (entries as the viewer holds them after delta merge, with
 * their source lines), titled `label`, with the run's usage `usage` (or null). Made a slice at
 * a time: `opts.progress(n, total)`, and null if `opts.alive()` turns false.
 */
export async function toHtmlBlob(t, { label, usage, lines }, opts) {
  const [page, css, code] = await Promise.all([text("index.html"), text("style.css"), bundle("app.js", text)]);
  const parts = await sharedParts(page, css, code);
  const head = parts.before + escapeHtml(label) + parts.between +
    inert(JSON.stringify({ v: 1, label, usage, lines })).replace(/\}$/, ',"entries":[');
  const tail = "]}" + parts.tail;
  const merged = t.merged;
  const item = (i) => (i ? "," : "") + inert(`[${entryJson(merged[i])},${Number(t.mergedLines[i]) || 0},${t.mergedReal[i] ? 1 : 0}]`);
  return sliced(merged.length, head, item, tail, "text/html", opts);
}

/** An entry as JSON for the data block; one JSON cannot write (a cycle, a BigInt from a
 * custom parser) becomes a notice saying so, so the block stays valid. */
function entryJson(e) {
  let s;
  try {
    s = typeof e === "object" && e !== null ? JSON.stringify(e) : undefined;
  } catch (err) {
    s = undefined;
  }
  return s ?? JSON.stringify({ kind: "system", ts: "", text: "(an entry that is not JSON was left out of this file)" });
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The shared run, read back from the file's data block (null when the page is the viewer). */
export function sharedRun(doc = document) {
  const node = doc.getElementById(DATA_ID);
  if (!node) return null;
  const data = JSON.parse(node.textContent);
  node.remove();
  return data && data.v === 1 && Array.isArray(data.entries) ? data : null;
}

/** The parser worker's part in a shared file: the saved entries, a slice at a time. */
export class SharedHost {
  constructor(data) {
    this.data = data;
    this.timer = 0;
  }

  start() {
    return Promise.resolve();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = 0;
  }

  usage() {
    return Promise.resolve(this.data.usage || null);
  }

  parse(_input, _opts, cb) {
    this.stop();
    const all = this.data.entries;
    const total = Number(this.data.lines) || all.length;
    const t0 = performance.now();
    cb.opened({ total, start: 0, mode: "shared file" });
    let i = 0;
    const step = () => {
      const n = Math.min(all.length, i + SLICE);
      const entries = [], lines = [], real = [];
      for (; i < n; i++) {
        const [e, line, isReal] = Array.isArray(all[i]) ? all[i] : [all[i], -1, 0];
        entries.push(e);
        lines.push(line);
        real.push(isReal);
      }
      const done = i >= all.length;
      cb.entries(entries, lines, { real, pos: done ? total : Math.round((total * i) / Math.max(1, all.length)), total, done, ms: performance.now() - t0 });
      if (!done) this.timer = setTimeout(step, 0);
    };
    step();
  }
}
