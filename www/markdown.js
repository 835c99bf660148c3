// A small Markdown renderer that builds DOM nodes only: every piece of untrusted text goes
// in with textContent / createTextNode, never as HTML, so `<img onerror>` or `<script>` in a
// log stays text. Covers what agents write: headings, paragraphs (single line breaks kept),
// fenced and indented code, inline code, bold/italic/strike, block quotes, ordered and
// unordered (nested) lists, tables, rules, links and bare URLs. Links are real <a> elements
// only for absolute http(s) URLs (target=_blank, rel="noopener noreferrer nofollow");
// anything else (javascript:, data:, relative) is shown as text. Images are never loaded:
// they render as a text label (plus a link when the URL is http(s)). Nesting is bounded.

const MAX_DEPTH = 6;
const MAX_INLINE_DEPTH = 4;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/;
const TABLE_SEP = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

const indentOf = (s) => s.length - s.trimStart().length;
const blank = (s) => s.trim() === "";

function el(tag, cls) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  return e;
}

/** Renders markdown `text` into a new DocumentFragment. */
export function renderMarkdown(text) {
  const frag = document.createDocumentFragment();
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  blocks(lines, frag, 0);
  return frag;
}

function startsBlock(line) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function blocks(lines, parent, depth) {
  if (depth > MAX_DEPTH) {
    const p = el("p");
    p.textContent = lines.join("\n");
    parent.append(p);
    return;
  }
  let i = 0;
  const n = lines.length;
  while (i < n) {
    const line = lines[i];
    if (blank(line)) { i++; continue; }
    let m;
    if ((m = FENCE.exec(line))) {
      const mark = m[1];
      const body = [];
      i++;
      while (i < n && !closesFence(lines[i], mark)) {
        body.push(lines[i]);
        i++;
      }
      i++; // the closing fence (or the end)
      parent.append(codeBlock(body.join("\n"), m[2]));
    } else if (indentOf(line) >= 4 && !ITEM.test(line)) {
      const body = [];
      while (i < n && (blank(lines[i]) || indentOf(lines[i]) >= 4)) { body.push(lines[i].slice(4)); i++; }
      while (body.length && blank(body[body.length - 1])) body.pop();
      parent.append(codeBlock(body.join("\n"), ""));
    } else if ((m = HEADING.exec(line))) {
      const h = el("h" + m[1].length, "md-h");
      inline(m[2] || "", h, 0);
      parent.append(h);
      i++;
    } else if (RULE.test(line)) {
      parent.append(el("hr"));
      i++;
    } else if (QUOTE.test(line)) {
      const inner = [];
      while (i < n && !blank(lines[i]) && (QUOTE.test(lines[i]) || inner.length)) {
        inner.push(lines[i].replace(QUOTE, ""));
        i++;
        if (i < n && !QUOTE.test(lines[i]) && startsBlock(lines[i])) break;
      }
      const q = el("blockquote");
      blocks(inner, q, depth + 1);
      parent.append(q);
    } else if (ITEM.test(line)) {
      i = list(lines, i, parent, depth);
    } else if (line.includes("|") && i + 1 < n && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes("-")) {
      i = table(lines, i, parent);
    } else {
      const p = el("p");
      const para = [];
      while (i < n && !blank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]))) {
        para.push(lines[i].trim());
        i++;
      }
      para.forEach((l, k) => {
        if (k > 0) p.append(el("br"));
        inline(l, p, 0);
      });
      parent.append(p);
    }
  }
}

function closesFence(line, mark) {
  const t = line.trim();
  return indentOf(line) <= 3 && t.length >= mark.length && t === mark[0].repeat(t.length);
}

function codeBlock(text, lang) {
  const pre = el("pre", "md-code");
  const code = el("code");
  if (lang) code.dataset.lang = lang.slice(0, 30);
  code.textContent = text;
  pre.append(code);
  return pre;
}

// A list starting at lines[i]; returns the index after it.
function list(lines, i, parent, depth) {
  const first = ITEM.exec(lines[i]);
  const base = first[1].length;
  const ordered = /\d/.test(first[2]);
  const box = el(ordered ? "ol" : "ul");
  if (ordered) {
    const start = parseInt(first[2], 10);
    if (Number.isFinite(start) && start !== 1) box.start = start;
  }
  const n = lines.length;
  while (i < n) {
    const m = ITEM.exec(lines[i]);
    if (!m || m[1].length > base + 1 || m[1].length < base || /\d/.test(m[2]) !== ordered) break;
    const contentIndent = m[1].length + m[2].length + Math.max(1, m[3].length);
    const item = [m[4]];
    i++;
    while (i < n) {
      const l = lines[i];
      if (blank(l)) {
        let j = i + 1;
        while (j < n && blank(lines[j])) j++;
        if (j < n && indentOf(lines[j]) >= contentIndent) { item.push(""); i++; continue; }
        break;
      }
      const ind = indentOf(l);
      if (ind >= contentIndent) item.push(l.slice(contentIndent));
      else if (ind > base && ITEM.test(l)) item.push(l.slice(ind));
      else if (!startsBlock(l) && !blank(item[item.length - 1])) item.push(l.trim());
      else break;
      i++;
    }
    const li = el("li");
    blocks(item, li, depth + 1);
    box.append(li);
  }
  parent.append(box);
  return i;
}

function cells(line) {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const out = [];
  let cur = "";
  for (let k = 0; k < s.length; k++) {
    if (s[k] === "\\" && s[k + 1] === "|") { cur += "|"; k++; } else if (s[k] === "|") { out.push(cur.trim()); cur = ""; } else cur += s[k];
  }
  out.push(cur.trim());
  return out.slice(0, 64);
}

function table(lines, i, parent) {
  const wrap = el("div", "md-table");
  const t = el("table");
  const head = cells(lines[i]);
  const align = cells(lines[i + 1]).map((c) => (c.endsWith(":") ? (c.startsWith(":") ? "center" : "right") : ""));
  const thead = el("thead");
  const tr = el("tr");
  head.forEach((c, k) => {
    const th = el("th", align[k] ? "al-" + align[k] : "");
    inline(c, th, 0);
    tr.append(th);
  });
  thead.append(tr);
  t.append(thead);
  const tbody = el("tbody");
  i += 2;
  while (i < lines.length && !blank(lines[i]) && lines[i].includes("|")) {
    const r = el("tr");
    cells(lines[i]).slice(0, head.length).forEach((c, k) => {
      const td = el("td", align[k] ? "al-" + align[k] : "");
      inline(c, td, 0);
      r.append(td);
    });
    tbody.append(r);
    i++;
  }
  t.append(tbody);
  wrap.append(t);
  parent.append(wrap);
  return i;
}

/** An absolute http(s) URL as a string, or null. */
export function safeUrl(raw) {
  try {
    const u = new URL(String(raw).trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch (e) {
    return null;
  }
}

function link(href, label, parent, depth) {
  const url = safeUrl(href);
  if (!url) {
    // Not linkable: keep what was written, as text.
    parent.append(document.createTextNode(label ? `${label} (${href})` : href));
    return;
  }
  const a = el("a");
  a.href = url;
  a.target = "_blank";
  a.rel = "noopener noreferrer nofollow";
  a.referrerPolicy = "no-referrer";
  a.title = url;
  if (label) inline(label, a, depth + 1);
  else a.textContent = href;
  parent.append(a);
}

// Earliest token wins; at one position the order of the alternatives decides.
const TOKEN = new RegExp([
  "\\\\([\\\\`*_{}\\[\\]()#+\\-.!|~<>])", // 1 escape
  "(`+)([^`]|[^`][\\s\\S]*?[^`])\\2(?!`)", // 2,3 code span
  "!\\[([^\\]]*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)", // 4,5 image
  "\\[([^\\]]+)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)", // 6,7 link
  "<(https?://[^\\s<>]+)>", // 8 autolink
  "(https?://[^\\s<>()\\[\\]\"'`]+)", // 9 bare URL
  "\\*\\*(?=\\S)([\\s\\S]*?\\S)\\*\\*", // 10 bold
  "(?<![\\w])__(?=\\S)([\\s\\S]*?\\S)__(?![\\w])", // 11 bold
  "~~(?=\\S)([\\s\\S]*?\\S)~~", // 12 strike
  "\\*(?=[^\\s*])([\\s\\S]*?[^\\s*])\\*", // 13 italic
  "(?<![\\w])_(?=[^\\s_])([\\s\\S]*?[^\\s_])_(?![\\w])", // 14 italic
].join("|"), "g");

function inline(text, parent, depth) {
  const all = String(text);
  // Very long lines: formatting for the first part only (keeps the regex work bounded).
  const s = all.length > 8000 ? all.slice(0, 8000) : all;
  if (depth > MAX_INLINE_DEPTH) {
    parent.append(document.createTextNode(s));
    return;
  }
  const re = new RegExp(TOKEN.source, "g");
  let pos = 0;
  let m;
  while ((m = re.exec(s)) !== null) {
    if (m.index > pos) parent.append(document.createTextNode(s.slice(pos, m.index)));
    pos = m.index + m[0].length;
    if (m[1] !== undefined) parent.append(document.createTextNode(m[1]));
    else if (m[2] !== undefined) {
      const c = el("code");
      c.textContent = m[3].length > 2 && m[3].startsWith(" ") && m[3].endsWith(" ") ? m[3].slice(1, -1) : m[3];
      parent.append(c);
    } else if (m[5] !== undefined) {
      const label = el("span", "md-img");
      label.textContent = `[image${m[4] ? ": " + m[4] : ""}]`;
      parent.append(label);
      if (safeUrl(m[5])) { parent.append(document.createTextNode(" ")); link(m[5], "", parent, depth); }
    } else if (m[7] !== undefined) link(m[7], m[6], parent, depth);
    else if (m[8] !== undefined) link(m[8], "", parent, depth);
    else if (m[9] !== undefined) {
      // Trailing punctuation belongs to the sentence, not the URL.
      const url = m[9].replace(/[.,;:!?]+$/, "");
      link(url, "", parent, depth);
      pos -= m[9].length - url.length;
      re.lastIndex = pos;
    } else {
      const [tag, inner] = m[10] !== undefined ? ["strong", m[10]] : m[11] !== undefined ? ["strong", m[11]]
        : m[12] !== undefined ? ["del", m[12]] : ["em", m[13] !== undefined ? m[13] : m[14]];
      const e = el(tag);
      inline(inner, e, depth + 1);
      parent.append(e);
    }
  }
  if (pos < all.length) parent.append(document.createTextNode(all.slice(pos)));
}
