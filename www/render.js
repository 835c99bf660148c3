// One DOM element per display row (www/model.js). Untrusted text only ever goes in through
// textContent / text nodes (www/markdown.js for assistant text); class names come from
// fixed lists, never from entry data.
import { renderMarkdown } from "./markdown.js";
import { str, num, safeJson, fmtInt, fmtCost, groupOf } from "./model.js";

const CLIP = 20000; // characters shown before "show all"
const DIFF_TYPES = new Set(["add", "remove", "context", "hunk", "file_header", "truncation"]);
const BRIEF_KEYS = ["command", "cmd", "file_path", "filePath", "absolute_path", "notebook_path", "path", "dir_path",
  "pattern", "query", "url", "description", "prompt", "skill", "name"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function oneLine(s, n = 140) {
  const t = str(s).replace(/\s+/g, " ").trim();
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
}

function clipped(row, key, text) {
  const full = row.full && row.full[key];
  return full || text.length <= CLIP ? { text, more: 0 } : { text: text.slice(0, CLIP), more: text.length - CLIP };
}

function moreButton(row, key, more, ctx) {
  const b = el("button", "more", `show all (${fmtInt(more)} more characters)`);
  b.type = "button";
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    row.full = { ...(row.full || {}), [key]: true };
    row.v++;
    ctx.refresh(row);
  });
  return b;
}

function pre(row, key, text, cls, ctx) {
  const c = clipped(row, key, text);
  const p = el("pre", cls, c.text);
  if (!c.more) return [p];
  return [p, moreButton(row, key, c.more, ctx)];
}

function markdown(row, key, text, ctx) {
  const c = clipped(row, key, text);
  const box = el("div", "md");
  box.append(renderMarkdown(c.text));
  if (c.more) box.append(moreButton(row, key, c.more, ctx));
  return box;
}

function meta(label, entry, row, extra) {
  const m = el("div", "meta");
  m.append(el("span", "kind", label));
  if (extra) for (const x of extra) if (x) m.append(x);
  if (str(entry?.parentToolUseId)) m.append(el("span", "badge sub", "subagent"));
  const right = el("span", "where");
  if (row.line >= 0) right.append(el("span", "ln", "L" + (row.line + 1)));
  const ts = str(entry?.ts);
  if (ts) right.append(el("span", "ts", ts.replace(/^\d{4}-\d\d-\d\dT/, "").replace(/Z$/, "")));
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
  return v < 1000 ? `${Math.round(v)} ms` : v < 60000 ? `${(v / 1000).toFixed(1)} s` : `${Math.floor(v / 60000)} m ${Math.round((v % 60000) / 1000)} s`;
}

function toolCard(row, ctx) {
  const call = row.call || null;
  const res = row.result || null;
  const isError = res?.isError === true;
  const d = el("details", "row card tool" + (isError ? " error" : res ? " done" : " pending"));
  d.open = row.open;
  const s = el("summary");
  s.append(el("span", "tool-name", str(call?.name) || str(res?.toolName) || "tool"));
  if (call) s.append(el("span", "tool-brief", toolBrief(call.input)));
  const status = !res ? "running…" : isError ? "error" : call ? "ok" : "result only";
  s.append(el("span", "badge status", status));
  if (res && res.durationMs !== undefined) s.append(el("span", "dur", fmtDuration(res.durationMs)));
  if (str((call || res)?.parentToolUseId)) s.append(el("span", "badge sub", "subagent"));
  if (row.line >= 0) s.append(el("span", "ln", "L" + (row.line + 1)));
  d.append(s);
  const fill = () => {
    if (d.dataset.filled) return;
    d.dataset.filled = "1";
    const body = el("div", "card-body");
    if (call) {
      body.append(el("div", "label", "input"));
      body.append(...pre(row, "input", safeJson(call.input, 2), "json", ctx));
    }
    if (res) {
      body.append(el("div", "label", isError ? "result (error)" : "result"));
      const content = str(res.content);
      body.append(...pre(row, "result", content === "" ? "(empty)" : content, "result" + (isError ? " err" : ""), ctx));
    } else {
      body.append(el("div", "label muted", "no result yet"));
    }
    const id = str(call?.toolUseId || res?.toolUseId);
    if (id) body.append(el("div", "ids", "toolUseId " + id));
    d.append(body);
  };
  if (row.open) fill();
  d.addEventListener("toggle", () => {
    row.open = d.open;
    if (d.open) fill();
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
  s.append(el("span", "preview", oneLine(text.replace(/\*\*|^#+\s*/gm, ""), 160) || "(no text)"));
  if (str(e.parentToolUseId)) s.append(el("span", "badge sub", "subagent"));
  if (row.line >= 0) s.append(el("span", "ln", "L" + (row.line + 1)));
  d.append(s);
  const fill = () => {
    if (d.dataset.filled) return;
    d.dataset.filled = "1";
    d.append(markdown(row, "text", text, ctx));
  };
  if (row.open) fill();
  d.addEventListener("toggle", () => {
    row.open = d.open;
    if (d.open) fill();
  });
  return d;
}

function diff(row) {
  const box = el("div", "row diff");
  const first = row.entries[0] || {};
  box.append(meta(`diff · ${row.entries.length} line${row.entries.length === 1 ? "" : "s"}`, first, row));
  const p = el("pre", "diff-body");
  for (const e of row.entries) {
    const t = str(e.changeType);
    p.append(el("div", "d-" + (DIFF_TYPES.has(t) ? t : "context"), str(e.text) || " "));
  }
  box.append(p);
  return box;
}

function resultRow(row, ctx) {
  const e = row.entry;
  const box = el("div", "row result" + (e.isError === true ? " error" : ""));
  box.append(meta("result", e, row, [el("span", "badge", str(e.subtype) || "result")]));
  const nums = el("div", "nums");
  nums.textContent = `in ${fmtInt(e.inputTokens)} · out ${fmtInt(e.outputTokens)} · cached ${fmtInt(e.cachedTokens)} tokens · ${fmtCost(e.costUsd)}`;
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

/** Builds the element for one row. ctx.refresh(row) re-renders it after a change. */
export function renderRow(row, ctx) {
  if (row.type === "tool") return toolCard(row, ctx);
  if (row.type === "diff") return diff(row);
  const e = row.entry;
  const group = groupOf(row);
  switch (group) {
    case "assistant": {
      const box = el("div", "row assistant");
      const ch = str(e.channel);
      box.append(meta("assistant", e, row, [ch && ch !== "final" ? el("span", "badge", ch) : null]));
      box.append(markdown(row, "text", str(e.text), ctx));
      return box;
    }
    case "thinking":
      return thinking(row, ctx);
    case "user": {
      const box = el("div", "row user");
      box.append(meta("user", e, row));
      box.append(...pre(row, "text", str(e.text), "plain", ctx));
      return box;
    }
    case "init": {
      const box = el("div", "row init");
      box.append(meta("init", e, row));
      box.append(el("div", "nums", `model ${str(e.model) || "?"} · session ${str(e.sessionId) || "?"}`));
      return box;
    }
    case "result":
      return resultRow(row, ctx);
    case "system":
    case "stderr":
    case "stdout": {
      // One compact log-like line: kind, text, where.
      const box = el("div", "row compact " + group);
      box.append(el("span", "kind", group));
      const text = el("div", "text");
      text.append(...pre(row, "text", str(e.text), "plain", ctx));
      box.append(text);
      const where = el("span", "where");
      if (row.line >= 0) where.append(el("span", "ln", "L" + (row.line + 1)));
      box.append(where);
      return box;
    }
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
