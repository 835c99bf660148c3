// Assistant text as Markdown: markdown-it (CommonMark + GFM tables and strikethrough,
// vendored in www/vendor/ by www/vendor.mjs, version pinned in package.json) parses the text
// into tokens, and this file turns the tokens into DOM nodes itself. markdown-it's own HTML
// renderer is never used, so no HTML string exists anywhere: every piece of untrusted text
// goes in with createTextNode / textContent, element names come from a fixed table, and
// raw HTML in the text (html: false) is parsed as plain text.
//  - links are real <a> elements only for absolute http(s) URLs (target=_blank,
//    rel="noopener noreferrer nofollow"); anything else (javascript:, data:, relative) is
//    shown as text: the label followed by the target in parentheses;
//  - images are never loaded: a text label, plus a link when the URL is http(s);
//  - single line breaks are kept (agents write them meaning it): softbreak -> <br>;
//  - nesting is bounded by markdown-it's maxNesting; the caller bounds the length (render.js
//    renders long texts in pieces with "show more", because parsing is linear but not free:
//    ~2 ms per 1,000 characters at worst on the 2-core build machine).
import MarkdownIt from "./vendor/markdown-it.mjs";

const md = new MarkdownIt("default", { html: false, linkify: true, typographer: false, breaks: true, maxNesting: 20 });

// Token tag -> element name; anything else becomes a <span>.
const TAGS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "table", "thead",
  "tbody", "tr", "th", "td", "strong", "em", "s", "del", "code", "pre", "hr", "br", "div"]);

function el(tag, cls) {
  const e = document.createElement(TAGS.has(tag) ? tag : "span");
  if (cls) e.className = cls;
  return e;
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

function attr(token, name) {
  const v = token.attrGet(name);
  return typeof v === "string" ? v : "";
}

function alignClass(token) {
  const m = /text-align:\s*(left|right|center)/.exec(attr(token, "style"));
  return m && m[1] !== "left" ? "al-" + m[1] : "";
}

function codeBlock(text, lang) {
  const pre = el("pre", "md-code");
  const code = el("code");
  if (lang) code.dataset.lang = lang.slice(0, 30);
  code.textContent = text.endsWith("\n") ? text.slice(0, -1) : text;
  pre.append(code);
  return pre;
}

function imageLabel(token, parent) {
  const label = el("span", "md-img");
  const alt = token.children ? token.children.map((c) => c.content).join("") : token.content;
  label.textContent = `[image${alt ? ": " + alt : ""}]`;
  parent.append(label);
  const url = safeUrl(attr(token, "src"));
  if (url) {
    parent.append(document.createTextNode(" "));
    parent.append(anchor(url, url));
  }
}

function anchor(url, text) {
  const a = document.createElement("a");
  a.href = url;
  a.target = "_blank";
  a.rel = "noopener noreferrer nofollow";
  a.referrerPolicy = "no-referrer";
  a.title = url;
  if (text !== undefined) a.textContent = text;
  return a;
}

// Inline tokens (children of an `inline` block token) into `parent`.
function inline(tokens, parent) {
  const stack = [parent];
  const top = () => stack[stack.length - 1];
  const links = []; // open links that are not linkable: [{href, box}]
  for (const t of tokens) {
    switch (t.type) {
      case "text":
      case "text_special":
      case "html_inline": // not produced with html: false; text if it ever is
        top().append(document.createTextNode(t.content));
        break;
      case "softbreak":
      case "hardbreak":
        top().append(el("br"));
        break;
      case "code_inline": {
        const c = el("code");
        c.textContent = t.content;
        top().append(c);
        break;
      }
      case "image":
        imageLabel(t, top());
        break;
      case "link_open": {
        const href = attr(t, "href");
        const url = safeUrl(href);
        if (url) {
          const a = anchor(url);
          top().append(a);
          stack.push(a);
          links.push(null);
        } else {
          const box = el("span", "md-nolink");
          top().append(box);
          stack.push(box);
          links.push({ href, box, auto: t.markup === "linkify" || t.markup === "autolink" });
        }
        break;
      }
      case "link_close": {
        const open = links.pop();
        if (stack.length > 1) stack.pop();
        if (open && !open.auto) open.box.append(document.createTextNode(` (${open.href})`));
        break;
      }
      default:
        if (t.nesting === 1) {
          const e = el(t.tag);
          top().append(e);
          stack.push(e);
        } else if (t.nesting === -1) {
          if (stack.length > 1) stack.pop();
        } else if (t.content) {
          top().append(document.createTextNode(t.content));
        }
    }
  }
}

// Parsed tokens of the last long texts (a long row scrolled out and back in is not parsed
// again); short texts are parsed each time (cheap, and there can be millions).
const CACHE_MIN = 4000;
const CACHE_SIZE = 32;
const cache = new Map();

function tokensOf(text) {
  if (text.length < CACHE_MIN) return md.parse(text, {});
  let tokens = cache.get(text);
  if (tokens) {
    cache.delete(text);
  } else {
    tokens = md.parse(text, {});
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value);
  }
  cache.set(text, tokens);
  return tokens;
}

/** Renders markdown `text` into a new DocumentFragment. */
export function renderMarkdown(text) {
  const frag = document.createDocumentFragment();
  const tokens = tokensOf(String(text));
  const stack = [frag];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    switch (t.type) {
      case "inline":
        inline(t.children || [], top());
        break;
      case "fence":
        top().append(codeBlock(t.content, t.info.trim().split(/\s+/)[0] || ""));
        break;
      case "code_block":
        top().append(codeBlock(t.content, ""));
        break;
      case "hr":
        top().append(el("hr"));
        break;
      case "html_block":
        top().append(codeBlock(t.content, ""));
        break;
      default:
        if (t.hidden) break; // the <p> of a tight list item: its inline goes straight in
        if (t.nesting === 1) {
          let e;
          if (/^h[1-6]$/.test(t.tag)) e = el(t.tag, "md-h");
          else if (t.type === "table_open") {
            const wrap = el("div", "md-table");
            top().append(wrap);
            stack.push(wrap);
            e = el("table");
          } else if (t.tag === "th" || t.tag === "td") e = el(t.tag, alignClass(t));
          else e = el(t.tag);
          if (t.type === "ordered_list_open") {
            const start = attr(t, "start") === "" ? 1 : Number(attr(t, "start"));
            if (Number.isInteger(start) && start !== 1) e.start = start;
          }
          top().append(e);
          stack.push(e);
        } else if (t.nesting === -1) {
          if (stack.length > 1) stack.pop();
          if (t.type === "table_close" && stack.length > 1) stack.pop();
        }
    }
  }
  return frag;
}
