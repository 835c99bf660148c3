// Text helpers for log text, all DOM-safe (text nodes and fixed class names only):
//  - ansiNodes: terminal colours (SGR escapes) as <span>s with fixed classes (the 16 basic
//    colours, bold/dim/italic/underline); 256-colour and 24-bit colours are set through the
//    CSSOM (element.style.color = "rgb(r, g, b)" from numbers we compute), which the CSP's
//    style-src 'self' allows. Every other escape sequence (cursor moves, OSC titles and
//    links, …) is dropped; the text itself is never interpreted;
//  - visibleControls: bidi controls (RLO & co.) made visible as ⟪RLO⟫ in one-line labels
//    (file names, tool names and briefs, previews), where they would otherwise reorder the
//    label and what sits next to it. Long text keeps them but is isolated by CSS
//    (unicode-bidi: isolate on every text container, www/style.css).

const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const BIDI_NAMES = {
  "\u061C": "ALM", "\u200E": "LRM", "\u200F": "RLM", "\u202A": "LRE", "\u202B": "RLE", "\u202C": "PDF",
  "\u202D": "LRO", "\u202E": "RLO", "\u2066": "LRI", "\u2067": "RLI", "\u2068": "FSI", "\u2069": "PDI",
};

/** `s` with every bidi control replaced by a visible ⟪NAME⟫. */
export function visibleControls(s) {
  return String(s).replace(BIDI, (c) => `⟪${BIDI_NAMES[c]}⟫`);
}

export const hasBidi = (s) => { BIDI.lastIndex = 0; const r = BIDI.test(s); BIDI.lastIndex = 0; return r; };

// CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), other two-byte escapes.
const ESCAPES = /\x1b\[([0-?]*)([ -/]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]/g;

export const hasEscapes = (s) => s.includes("\x1b") || s.includes("\x9b");

function cube(n) {
  if (n < 16) return null;
  if (n >= 232) { const v = 8 + (n - 232) * 10; return [v, v, v]; }
  const k = n - 16;
  const c = (x) => (x === 0 ? 0 : 55 + x * 40);
  return [c(Math.floor(k / 36)), c(Math.floor(k / 6) % 6), c(k % 6)];
}

const byte = (v) => Math.max(0, Math.min(255, Math.round(Number(v) || 0)));

// Applies one SGR parameter list to the state; returns the new state.
function sgr(state, params) {
  const p = params === "" ? [0] : params.split(/[;:]/).map((x) => (x === "" ? 0 : Number(x)));
  let s = { ...state };
  for (let i = 0; i < p.length; i++) {
    const n = p[i];
    if (n === 0) s = {};
    else if (n === 1) s.bold = true;
    else if (n === 2) s.dim = true;
    else if (n === 3) s.italic = true;
    else if (n === 4) s.underline = true;
    else if (n === 22) { s.bold = false; s.dim = false; }
    else if (n === 23) s.italic = false;
    else if (n === 24) s.underline = false;
    else if (n >= 30 && n <= 37) s.fg = n - 30;
    else if (n >= 90 && n <= 97) s.fg = n - 90 + 8;
    else if (n === 39) s.fg = undefined;
    else if (n >= 40 && n <= 47) s.bg = n - 40;
    else if (n >= 100 && n <= 107) s.bg = n - 100 + 8;
    else if (n === 49) s.bg = undefined;
    else if (n === 38 || n === 48) {
      const key = n === 38 ? "fg" : "bg";
      if (p[i + 1] === 5) {
        const c = byte(p[i + 2]);
        s[key] = c < 16 ? c : cube(c);
        i += 2;
      } else if (p[i + 1] === 2) {
        s[key] = [byte(p[i + 2]), byte(p[i + 3]), byte(p[i + 4])];
        i += 4;
      }
    }
  }
  return s;
}

function styled(text, s) {
  if (!s.bold && !s.dim && !s.italic && !s.underline && s.fg === undefined && s.bg === undefined) return document.createTextNode(text);
  const span = document.createElement("span");
  const cls = ["ansi"];
  if (s.bold) cls.push("ansi-b");
  if (s.dim) cls.push("ansi-d");
  if (s.italic) cls.push("ansi-i");
  if (s.underline) cls.push("ansi-u");
  if (typeof s.fg === "number") cls.push("ansi-fg-" + s.fg);
  if (typeof s.bg === "number") cls.push("ansi-bg-" + s.bg);
  span.className = cls.join(" ");
  if (Array.isArray(s.fg)) span.style.color = `rgb(${s.fg[0]}, ${s.fg[1]}, ${s.fg[2]})`;
  if (Array.isArray(s.bg)) span.style.backgroundColor = `rgb(${s.bg[0]}, ${s.bg[1]}, ${s.bg[2]})`;
  span.textContent = text;
  return span;
}

/** Nodes for `text` with its SGR colours applied and other escapes removed. */
export function ansiNodes(text) {
  const out = [];
  let state = {};
  let pos = 0;
  ESCAPES.lastIndex = 0;
  let m;
  while ((m = ESCAPES.exec(text)) !== null) {
    if (m.index > pos) out.push(styled(text.slice(pos, m.index), state));
    pos = m.index + m[0].length;
    if (m[3] === "m" && m[2] === "") state = sgr(state, m[1]);
    if (m[0].length === 0) ESCAPES.lastIndex++;
  }
  if (pos < text.length) out.push(styled(text.slice(pos), state));
  return out;
}

/** `text` with every escape sequence removed (what copy and export give). */
export function stripEscapes(text) {
  return hasEscapes(text) ? text.replace(ESCAPES, "") : text;
}
