// One DOM element per display row (www/model.js). Untrusted text only ever goes in through
// textContent / text nodes (www/markdown.js for assistant text); class names come from
// fixed lists, never from entry data.
import { renderMarkdown } from "./markdown.js";
import { str, num, safeJson, fmtInt, fmtCost, groupOf, toolDuration } from "./model.js";
import { inputDiff } from "./edits.js";
import { ansiNodes, hasEscapes, stripEscapes, visibleControls } from "./text.js";

const CLIP = 20000; // characters of plain text shown at first; "show more" adds PLAIN_STEP
const FOLD_LINES = 12; // a notice longer than this (a prompt expansion) shows its first lines
const FOLD_SHOWN = 3;
const PLAIN_STEP = 100000;
const MD_CLIP = 5000; // Markdown: parsing costs up to ~3 ms per 1,000 characters of hostile text
const MD_STEP = 10000;
const DIFF_TYPES = new Set(["add", "remove", "context", "hunk", "file_header", "truncation"]);
const BRIEF_KEYS = ["command", "cmd", "file_path", "filePath", "absolute_path", "notebook_path", "path", "dir_path",
  "pattern", "query", "url", "description", "prompt", "skill", "name"];

/** An element with a fixed class list and, when given, text (never HTML). */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** One line for a label: whitespace folded, bidi controls made visible, at most n chars. */
export function oneLine(s, n = 140) {
  const t = visibleControls(stripEscapes(str(s).slice(0, n * 4))).replace(/\s+/g, " ").trim();
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
}

// Where to cut `text` near `limit`: at a blank line or line break shortly before it if any.
function cutAt(text, limit) {
  if (text.length <= limit) return text.length;
  const floor = Math.max(0, limit - 2000);
  const para = text.lastIndexOf("\n\n", limit);
  if (para > floor) return para + 1;
  const nl = text.lastIndexOf("\n", limit);
  return nl > floor ? nl + 1 : limit;
}

// A long text is shown in pieces, so rendering is bounded per row whatever the entry holds:
// the first `first` characters, then `step` more per "show more", each cut at a blank line
// or line break (cutAt). `make(part)` builds one piece's node and `put(node)` places it. A
// click appends the next piece in place: the row is not re-rendered, so the pieces already
// shown are neither rebuilt nor laid out again and a click costs one piece however much is
// open (ctx.decorate(node), when given, marks search matches in it). row.shown[key] counts
// the pieces, so a later render of the row (scrolled out and back) shows as many.
// Returns the "show more" button, or null when the whole text is shown.
function pieces(row, key, text, first, step, make, put, ctx) {
  const want = (row.shown && row.shown[key]) || 1;
  let start = 0;
  let k = 0;
  const add = () => {
    const end = cutAt(text, start + (k ? step : first));
    const node = make(start === 0 && end === text.length ? text : text.slice(start, end));
    start = end;
    k++;
    return node;
  };
  while (k < want && start < text.length) put(add());
  if (start >= text.length) return null;
  const b = el("button", "more");
  b.type = "button";
  const say = () => { b.textContent = `show more (${fmtInt(text.length - start)} more characters)`; };
  say();
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    const node = add();
    put(node);
    if (ctx && ctx.decorate) ctx.decorate(node);
    row.shown = { ...(row.shown || {}), [key]: k };
    if (start >= text.length) b.remove();
    else say();
  });
  return b;
}

// A <details> row whose body is built when it is first opened (`row.open` keeps it open
// across renders): a closed card or block costs its summary only.
function lazyBody(d, row, build) {
  const fill = () => {
    if (d.dataset.filled) return;
    d.dataset.filled = "1";
    build();
  };
  if (row.open) fill();
  d.addEventListener("toggle", () => {
    row.open = d.open;
    if (d.open) fill();
  });
}

/** A copy button; `text()` gives what to copy (the whole text, not the part shown). */
export function copyButton(text, what = "copy") {
  const b = el("button", "copy", what);
  b.type = "button";
  b.title = "copy to the clipboard";
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    const done = (ok) => {
      b.textContent = ok ? "copied" : "copy failed";
      b.dataset.copied = ok ? "1" : "0";
      setTimeout(() => { b.textContent = what; }, 1200);
    };
    try {
      navigator.clipboard.writeText(stripEscapes(text())).then(() => done(true), () => done(false));
    } catch (e) {
      done(false);
    }
  });
  return b;
}

function textNodes(text) {
  return hasEscapes(text) ? ansiNodes(text) : [document.createTextNode(text)];
}

// Plain text: one <pre>; past the first piece each piece is a block of its own inside it
// (a span shown as a block: its own line layout, so appending one leaves the others be).
function pre(row, key, text, cls, ctx) {
  const p = el("pre", cls);
  if (text.length <= CLIP) {
    p.append(...textNodes(text));
    return [p];
  }
  const make = (part) => {
    const s = el("span", "piece");
    s.append(...textNodes(part));
    return s;
  };
  const more = pieces(row, key, text, CLIP, PLAIN_STEP, make, (n) => p.append(n), ctx);
  return more ? [p, more] : [p];
}

// Markdown: each piece is parsed on its own (markdown.js caches the tokens of long texts).
// A code fence or a table that a cut falls inside goes on in the next piece: that piece
// starts with the fence's opening line, or the table's header and delimiter rows (shown
// again), so long code stays code and long tables stay tables. Other blocks that span a
// cut (a list, a quote) show as two.
function markdown(row, key, text, ctx) {
  const box = el("div", "md");
  if (text.length <= MD_CLIP) {
    box.append(renderMarkdown(text));
    return box;
  }
  let carry = null; // what the next piece must start with: { fence } or { table }
  const make = (part) => {
    let src = part;
    if (carry && carry.fence) src = carry.fence + "\n" + part;
    else if (carry && carry.table && !/^[ \t]*\n/.test(part)) src = carry.table + "\n" + part;
    carry = openBlockAtEnd(src);
    const d = el("div", "piece");
    d.append(renderMarkdown(src));
    return d;
  };
  let more = null;
  const put = (n) => (more ? more.before(n) : box.append(n));
  more = pieces(row, key, text, MD_CLIP, MD_STEP, make, put, ctx);
  if (more) box.append(more);
  return box;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const TABLE_DELIM = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** The code fence or table still open at the end of `src` (CommonMark's fence rules, GFM's
 * table shape, as markdown-it reads them): { fence: opening line } or { table: header and
 * delimiter rows }, or null. */
function openBlockAtEnd(src) {
  const lines = src.split("\n");
  const n = src.endsWith("\n") ? lines.length - 1 : lines.length;
  let fence = null;
  let table = null;
  for (let i = 0; i < n; i++) {
    const l = lines[i];
    if (fence) {
      const m = FENCE_CLOSE.exec(l);
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len) fence = null;
      continue;
    }
    const m = FENCE_OPEN.exec(l);
    if (m && !(m[1][0] === "`" && m[2].includes("`"))) {
      fence = { ch: m[1][0], len: m[1].length, line: l };
      table = null;
    } else if (table) {
      if (!l.trim() || !l.includes("|")) table = null;
    } else if (i + 1 < n && l.includes("|") && TABLE_DELIM.test(lines[i + 1]) && lines[i + 1].includes("-")) {
      table = l + "\n" + lines[i + 1];
      i++;
    }
  }
  return fence ? { fence: fence.line } : table ? { table } : null;
}

// A card-body label with a copy button; `detail` (a file path) is shown as written, not in
// the label's capitals.
function label(text, get, detail = "") {
  const l = el("div", "label", text);
  if (detail) l.append(" · ", el("span", "label-detail", detail));
  l.append(copyButton(get));
  return l;
}

function lineLink(row) {
  if (!(row.line >= 0)) return null;
  const a = el("a", "ln", "L" + (row.line + 1));
  a.href = "#L" + (row.line + 1);
  a.title = "link to this line";
  return a;
}

function meta(label, entry, row, extra) {
  const m = el("div", "meta");
  m.append(el("span", "kind", label));
  if (extra) for (const x of extra) if (x) m.append(x);
  if (str(entry?.parentToolUseId)) m.append(el("span", "badge sub", "subagent"));
  const right = el("span", "where");
  const ts = row.realTs ? str(entry?.ts) : "";
  if (ts) right.append(el("span", "ts", oneLine(ts.replace(/^\d{4}-\d\d-\d\dT/, "").replace(/Z$/, ""), 40)));
  const ln = lineLink(row);
  if (ln) right.append(ln);
  m.append(right);
  return m;
}

/** A short, one-line description of a tool input. */
export function toolBrief(input) {
  if (input && typeof input === "object" && !Array.isArray(input)) {
    for (const k of BRIEF_KEYS) {
      const v = input[k];
      if (typeof v === "string" && v.trim()) return oneLine(v, 120);
      // argv form (Codex: ["bash", "-lc", "script"]): the script, else the words joined.
      if (Array.isArray(v) && v.length && v.every((w) => typeof w === "string")) {
        const shell = v.length === 3 && /^(-l?c|\/c)$/.test(v[1]);
        return oneLine(shell ? v[2] : v.join(" "), 120);
      }
    }
  }
  if (typeof input === "string") return oneLine(input, 120);
  return oneLine(safeJson(input), 120);
}

export function fmtDuration(ms) {
  const v = num(ms);
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 59950) return `${(v / 1000).toFixed(1)} s`;
  // Whole seconds first, so 119.6 s is "2 m 0 s", never "1 m 60 s".
  const sec = Math.round(v / 1000);
  if (sec < 3600) return `${Math.floor(sec / 60)} m ${sec % 60} s`;
  const min = Math.round(sec / 60);
  return min < 1440 ? `${Math.floor(min / 60)} h ${min % 60} m` : `${Math.floor(min / 1440)} d ${Math.floor((min % 1440) / 60)} h`;
}

function toolCard(row, ctx) {
  const call = row.call || null;
  const res = row.result || null;
  const isError = res?.isError === true;
  const d = el("details", "row card tool" + (isError ? " error" : res ? " done" : " pending"));
  d.open = row.open;
  const s = el("summary");
  s.append(el("span", "tool-name", oneLine(str(call?.name) || str(res?.toolName) || "tool", 80)));
  if (call) s.append(el("span", "tool-brief", toolBrief(call.input)));
  const status = !res ? "running…" : isError ? "error" : call ? "ok" : "result only";
  s.append(el("span", "badge status", status));
  const dur = toolDuration(row);
  if (dur) {
    const d2 = el("span", "dur", fmtDuration(dur.ms));
    d2.title = dur.from === "parser" ? "durationMs from the parser" : "from the timestamps of the call's and the result's lines";
    s.append(d2);
  }
  if (str((call || res)?.parentToolUseId) && !(row.depth > 0)) s.append(el("span", "badge sub", "subagent"));
  const sub = row.sub;
  if (sub) s.append(subToggle(row, sub, ctx));
  const ln = lineLink(row);
  if (ln) s.append(ln);
  d.append(s);
  lazyBody(d, row, () => {
    const body = el("div", "card-body");
    if (call) {
      const input = safeJson(call.input, 2);
      const edit = inputDiff(call.name, call.input);
      if (edit) {
        // An edit reads as a diff; its JSON stays one click away.
        body.append(label("edit", () => edit.lines.map((l) => l.text).join("\n"), edit.path || "file"));
        body.append(diffBody(edit.lines));
        const raw = el("details", "raw-input");
        raw.append(el("summary", "", "input as JSON"));
        raw.addEventListener("toggle", () => {
          if (raw.open && !raw.dataset.filled) {
            raw.dataset.filled = "1";
            raw.append(label("input", () => input), ...pre(row, "input", input, "json", ctx));
          }
        }, { once: false });
        body.append(raw);
      } else {
        body.append(label("input", () => input));
        body.append(...pre(row, "input", input, "json", ctx));
      }
    }
    if (res) {
      const content = str(res.content);
      body.append(label(isError ? "result (error)" : "result", () => content));
      body.append(...pre(row, "result", content === "" ? "(empty)" : content, "result" + (isError ? " err" : ""), ctx));
    } else {
      body.append(el("div", "label muted", "no result yet"));
    }
    const id = str(call?.toolUseId || res?.toolUseId);
    if (id) body.append(el("div", "ids", "toolUseId " + id));
    d.append(body);
  });
  return d;
}

function thinking(row, ctx) {
  const e = row.entry;
  const d = el("details", "row thinking");
  d.open = row.open;
  const s = el("summary");
  s.append(el("span", "kind", "thinking"));
  const text = str(e.text);
  s.append(el("span", "preview", oneLine(text.slice(0, 800).replace(/\*\*|^#+\s*/gm, ""), 160) || "(no text)"));
  if (str(e.parentToolUseId)) s.append(el("span", "badge sub", "subagent"));
  const ln = lineLink(row);
  if (ln) s.append(ln);
  d.append(s);
  lazyBody(d, row, () => {
    // The summary already says "thinking": the body has only its copy button.
    const bar = el("div", "label");
    bar.append(copyButton(() => text));
    d.append(bar, markdown(row, "text", text, ctx));
  });
  return d;
}

// Diff lines ({changeType, text}) coloured by their type.
function diffBody(lines) {
  const p = el("pre", "diff-body");
  for (const e of lines) {
    const t = str(e.changeType);
    p.append(el("div", "d-" + (DIFF_TYPES.has(t) ? t : "context"), str(e.text) || " "));
  }
  return p;
}

function diff(row) {
  const box = el("div", "row diff");
  const first = row.entries[0] || {};
  box.append(meta(`diff · ${row.entries.length} line${row.entries.length === 1 ? "" : "s"}`, first, row));
  box.append(diffBody(row.entries));
  return box;
}

// A card's subagent: what it did, and the button that shows its rows nested under the card.
function subToggle(row, sub, ctx) {
  const b = el("button", "sub-toggle" + (row.kidsOpen ? " open" : ""));
  b.type = "button";
  const parts = [`${fmtInt(sub.rows)} row${sub.rows === 1 ? "" : "s"}`, `${fmtInt(sub.tools)} tool${sub.tools === 1 ? "" : "s"}`];
  if (sub.errors) parts.push(`${fmtInt(sub.errors)} error${sub.errors === 1 ? "" : "s"}`);
  if (sub.inputTokens || sub.outputTokens) parts.push(`${fmtInt(sub.inputTokens)} in · ${fmtInt(sub.outputTokens)} out`);
  if (sub.costUsd) parts.push(fmtCost(sub.costUsd));
  b.textContent = `${row.kidsOpen ? "▾" : "▸"} subagent · ${parts.join(" · ")}`;
  b.title = row.kidsOpen ? "hide the subagent's rows" : "show the subagent's rows under this call";
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    if (ctx && ctx.toggleKids) ctx.toggleKids(row);
  });
  return b;
}

// One notice line of a notes row: a system text, or a model call's tokens.
function noteText(e) {
  if (str(e.kind) === "result") {
    return `model call · in ${fmtInt(e.inputTokens)} · out ${fmtInt(e.outputTokens)} · cached ${fmtInt(e.cachedTokens)}` +
      `${typeof e.cacheCreationTokens === "number" && e.cacheCreationTokens > 0 ? ` · cache writes ${fmtInt(e.cacheCreationTokens)}` : ""}` +
      `${num(e.costUsd) ? " · " + fmtCost(e.costUsd) : ""}${str(e.text) ? " — " + str(e.text) : ""}`;
  }
  return str(e.text);
}

// A long notice (a skill's or slash command's expanded prompt) shows its first lines and
// a button for the rest; a short one shows whole.
function foldedText(row, key, text, ctx) {
  const lines = text.split("\n", FOLD_LINES + 1);
  if (lines.length <= FOLD_LINES) return pre(row, key, text, "plain", ctx);
  const opened = row.shown && row.shown[key + ":all"];
  if (opened) return pre(row, key, text, "plain", ctx);
  const head = text.split("\n", FOLD_SHOWN).join("\n");
  const p = el("pre", "plain folded");
  p.append(...textNodes(head));
  const total = text.split("\n").length;
  const b = el("button", "more fold");
  b.type = "button";
  b.textContent = `show all ${fmtInt(total)} lines`;
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    row.shown = { ...(row.shown || {}), [key + ":all"]: 1 };
    const full = pre(row, key, text, "plain", ctx);
    for (const n of full) if (ctx && ctx.decorate) ctx.decorate(n);
    p.replaceWith(...full);
    b.remove();
  });
  return [p, b];
}

function compactLine(row, group, e, text, ctx, key = "text") {
  const box = el("div", "row compact " + group);
  box.append(el("span", "kind", group));
  const body = el("div", "text");
  body.append(...foldedText(row, key, text, ctx));
  box.append(body);
  const where = el("span", "where");
  where.append(copyButton(() => text));
  const ln = lineLink(row);
  if (ln) where.append(ln);
  box.append(where);
  return box;
}

// Consecutive notices (system notices, or model calls: www/model.js folds them apart): one
// line when alone, else "N system notices" / "N model calls" that opens to all of them.
function notes(row, ctx) {
  const list = row.notes;
  if (list.length === 1) {
    const e = list[0];
    return compactLine(row, str(e.kind) === "result" ? "usage" : "system", e, noteText(e), ctx);
  }
  const d = el("details", "row notes");
  d.open = row.open;
  const s = el("summary");
  // A row holds one sort only (model.js), so its first entry says which.
  const calls = str(list[0].kind) === "result";
  s.append(el("span", "kind", calls ? "usage" : "system"), el("span", "count", `${fmtInt(list.length)} ${calls ? "model calls" : "system notices"}`));
  s.append(el("span", "preview", oneLine(noteText(list[0]), 120)));
  const ln = lineLink(row);
  if (ln) s.append(ln);
  d.append(s);
  lazyBody(d, row, () => {
    const body = el("div", "notes-body");
    list.forEach((e, i) => {
      const line = el("div", "note" + (str(e.kind) === "result" ? " usage" : ""));
      line.append(...foldedText(row, "n" + i, noteText(e), ctx));
      body.append(line);
    });
    d.append(body);
    if (ctx && ctx.decorate) ctx.decorate(body);
  });
  return d;
}

function resultRow(row, ctx) {
  const e = row.entry;
  const box = el("div", "row result" + (e.isError === true ? " error" : ""));
  box.append(meta("result", e, row, [el("span", "badge", oneLine(e.subtype, 60) || "result")]));
  const nums = el("div", "nums");
  nums.textContent = `in ${fmtInt(e.inputTokens)} · out ${fmtInt(e.outputTokens)} · cached ${fmtInt(e.cachedTokens)}${typeof e.cacheCreationTokens === "number" && e.cacheCreationTokens > 0 ? ` · cache writes ${fmtInt(e.cacheCreationTokens)}` : ""} tokens · ${fmtCost(e.costUsd)}`;
  box.append(nums);
  const errors = Array.isArray(e.errors) ? e.errors.map(str).filter(Boolean) : [];
  if (errors.length) {
    const ul = el("ul", "errors");
    for (const x of errors.slice(0, 50)) ul.append(el("li", "", oneLine(x, 400)));
    box.append(ul);
  }
  const text = str(e.text);
  if (text) {
    const d = el("details", "result-text");
    d.open = row.open;
    d.append(el("summary", "", oneLine(text, 160)));
    d.append(markdown(row, "text", text, ctx));
    d.addEventListener("toggle", () => { row.open = d.open; });
    box.append(d);
  }
  return box;
}

/** Builds the element for one row. ctx.decorate(node), if given, is called on the nodes a
 * "show more" adds later (the caller marks search matches with it). */
export function renderRow(row, ctx) {
  if (row.type === "tool") return toolCard(row, ctx);
  if (row.type === "diff") return diff(row);
  if (row.type === "notes") return notes(row, ctx);
  const e = row.entry;
  const group = groupOf(row);
  switch (group) {
    case "assistant": {
      const box = el("div", "row assistant");
      const ch = str(e.channel);
      box.append(meta("assistant", e, row, [ch && ch !== "final" ? el("span", "badge", oneLine(ch, 40)) : null, copyButton(() => str(e.text))]));
      box.append(markdown(row, "text", str(e.text), ctx));
      return box;
    }
    case "thinking":
      return thinking(row, ctx);
    case "user": {
      const box = el("div", "row user");
      box.append(meta("user", e, row, [copyButton(() => str(e.text))]));
      box.append(...pre(row, "text", str(e.text), "plain", ctx));
      return box;
    }
    case "init": {
      const box = el("div", "row init");
      box.append(meta("init", e, row));
      box.append(el("div", "nums", `model ${oneLine(e.model, 120) || "?"} · session ${oneLine(e.sessionId, 120) || "?"}`));
      return box;
    }
    case "result":
      return resultRow(row, ctx);
    case "system":
    case "stderr":
    case "stdout":
      // One compact log-like line: kind, text, where.
      return compactLine(row, group, e, str(e.text), ctx);
    default: {
      const box = el("div", "row other");
      box.append(meta(oneLine(e.kind, 40) || "entry", e, row));
      box.append(...pre(row, "json", safeJson(e, 2), "json", ctx));
      return box;
    }
  }
}

/** A first guess of a row's height in px before it is measured (width in px). */
export function estimateHeight(row, width) {
  const perLine = Math.max(20, Math.floor((width - 40) / 7.6));
  const lines = (s) => {
    const t = str(s).slice(0, CLIP);
    let n = 0;
    for (const part of t.split("\n")) n += 1 + Math.floor(part.length / perLine);
    return n;
  };
  if (row.type === "tool") return row.open ? 160 : 38;
  if (row.type === "diff") return 44 + Math.min(row.entries.length, 2000) * 18;
  if (row.type === "notes") {
    const list = row.notes;
    if (list.length === 1) return 8 + Math.min(lines(list[0].text), FOLD_LINES) * 18;
    return row.open ? 40 + list.length * 20 : 36;
  }
  const e = row.entry;
  switch (groupOf(row)) {
    case "thinking": return row.open ? 40 + lines(e.text) * 20 : 36;
    case "assistant": return 40 + lines(e.text) * 21;
    case "init": return 58;
    case "result": return 84;
    case "system": case "stderr": case "stdout": return 8 + Math.min(lines(e.text), 2000) * 18;
    default: return 36 + Math.min(lines(e.text), 2000) * 18;
  }
}

/** Marks every case-insensitive occurrence of `query` in the text under `root` with
 * <mark class="hit"> (at most 500 per row; buttons are skipped). */
export function highlight(root, query) {
  const q = query.toLowerCase();
  if (!q) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest("button, mark") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  let marks = 0;
  for (const node of nodes) {
    const text = node.data;
    const lower = text.toLowerCase();
    if (lower.length !== text.length) continue; // case mapping changed the length: no safe offsets
    let at = lower.indexOf(q);
    if (at < 0) continue;
    const frag = document.createDocumentFragment();
    let pos = 0;
    while (at >= 0 && marks < 500) {
      if (at > pos) frag.append(document.createTextNode(text.slice(pos, at)));
      frag.append(el("mark", "hit", text.slice(at, at + q.length)));
      marks++;
      pos = at + q.length;
      at = lower.indexOf(q, pos);
    }
    if (pos < text.length) frag.append(document.createTextNode(text.slice(pos)));
    node.replaceWith(frag);
    if (marks >= 500) break;
  }
}
