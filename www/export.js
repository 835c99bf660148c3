// Transcript exports (no DOM: Node can import it):
//  - JSON: the entries as the viewer holds them (after the delta merge), one per line in a
//    JSON array, in order;
//  - Markdown: the rows as a reader would want them: assistant text as written, user text
//    quoted, thinking, tool calls with their input and result in code fences, diffs as a
//    ```diff block, log lines (system/stderr/stdout) in fences, init and result summaries.
// Fences are longer than any backtick run in what they hold, so log text cannot close
// them; escape sequences are removed. Text written as Markdown (assistant, user, thinking,
// result) is made inert first (`inert`): a .md file opened in a renderer that allows HTML
// must not run what an agent printed.
import { str, safeJson, fmtInt, fmtCost, groupOf, toolDuration } from "./model.js";
import { stripEscapes } from "./text.js";

export function toJson(t) {
  if (!t.merged.length) return "[]\n";
  return "[\n" + t.merged.map((e) => safeJson(e)).join(",\n") + "\n]\n";
}

function fence(text, lang = "") {
  const s = stripEscapes(str(text));
  let longest = 2;
  const re = /`+/g;
  let m;
  while ((m = re.exec(s)) !== null) longest = Math.max(longest, m[0].length);
  const f = "`".repeat(longest + 1);
  return `${f}${lang}\n${s}${s.endsWith("\n") ? "" : "\n"}${f}`;
}

// A link destination that is not http(s), mailto or relative (after the entity and
// whitespace decoding a Markdown renderer applies): `javascript:`, `vbscript:`, `data:`…
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi;
const NAMED = { colon: ":", tab: "", newline: "", lpar: "(", rpar: ")" };
function unsafeDest(dest) {
  const d = dest
    .replace(ENTITY, (m, e) => (e[0] === "#" ? String.fromCodePoint(Number.parseInt(e[1] === "x" || e[1] === "X" ? e.slice(2) : e.slice(1), e[1] === "x" || e[1] === "X" ? 16 : 10) || 0) : NAMED[e.toLowerCase()] ?? m))
    .replace(/[\u0000-\u0020\u007f]+/g, "")
    .toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(d);
  return scheme !== null && !["http", "https", "mailto"].includes(scheme[1]);
}

/** Markdown with nothing a renderer would run: outside code blocks and code spans, `<` is
 *  `&lt;` (no raw HTML, no autolinks) and a link or link definition whose address is not
 *  http(s), mailto or relative is no link (its bracket escaped). */
export function inert(text) {
  let fence = null;
  return stripEscapes(str(text)).split("\n").map((line) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      return line;
    }
    if (m) {
      fence = m[1];
      return line;
    }
    const def = /^( {0,3})\[([^\]]*)\]:\s*<?([^\s>]*)/.exec(line);
    if (def && unsafeDest(def[3])) line = def[1] + "\\" + line.slice(def[1].length);
    return line.split(/(`+[^`]*`+)/).map((part, k) => (k % 2 === 1 ? part : part
      .replace(/</g, "&lt;")
      .replace(/\]\(\s*(&lt;)?([^)\s]*)/g, (all, lt, dest) => (unsafeDest(dest) ? "]\\(" + all.slice(2) : all)))).join("");
  }).join("\n");
}

const quote = (text) => inert(text).split("\n").map((l) => "> " + l).join("\n");
const inlineCode = (s) => {
  const t = stripEscapes(str(s)).replace(/\s+/g, " ");
  const ticks = (t.match(/`+/g) || []).reduce((n, r) => Math.max(n, r.length), 0);
  const f = "`".repeat(ticks + 1);
  return `${f}${ticks ? " " : ""}${t}${ticks ? " " : ""}${f}`;
};

function dur(row) {
  const d = toolDuration(row);
  return d ? ` (${d.ms < 1000 ? Math.round(d.ms) + " ms" : (d.ms / 1000).toFixed(1) + " s"})` : "";
}

function rowMarkdown(row) {
  const where = row.line >= 0 ? ` <sub>L${row.line + 1}</sub>` : "";
  if (row.type === "tool") {
    const c = row.call;
    const r = row.result;
    const name = str(c?.name) || str(r?.toolName) || "tool";
    const status = !r ? "no result" : r.isError === true ? "error" : "ok";
    const out = [`**tool** ${inlineCode(name)} · ${status}${dur(row)}${where}`];
    if (c) out.push("input:\n\n" + fence(safeJson(c.input, 2), "json"));
    if (r) out.push((r.isError === true ? "result (error):" : "result:") + "\n\n" + fence(r.content));
    return out.join("\n\n");
  }
  if (row.type === "diff") return `**diff** · ${row.entries.length} lines${where}\n\n` + fence(row.entries.map((e) => str(e.text)).join("\n"), "diff");
  if (row.type === "notes") return row.notes.map((e) => entryMarkdown(e, e.kind === "result" ? "result" : "system", where)).join("\n\n");
  return entryMarkdown(row.entry, groupOf(row), where);
}

function entryMarkdown(e, group, where) {
  switch (group) {
    case "assistant": return `**assistant**${where}\n\n${inert(e.text)}`;
    case "thinking": return `**thinking**${where}\n\n${quote(e.text)}`;
    case "user": return `**user**${where}\n\n${quote(e.text)}`;
    case "init": return `**init** · model ${inlineCode(e.model || "?")} · session ${inlineCode(e.sessionId || "?")}${where}`;
    case "result": {
      const head = `**result** · ${str(e.subtype) || "result"}${e.isError === true ? " (error)" : ""} · in ${fmtInt(e.inputTokens)} · out ${fmtInt(e.outputTokens)} · cached ${fmtInt(e.cachedTokens)} tokens · ${fmtCost(e.costUsd)}${where}`;
      const errors = Array.isArray(e.errors) ? e.errors.map((x) => "- " + inert(str(x).replace(/\s+/g, " "))).join("\n") : "";
      return [head, errors, str(e.text) ? inert(e.text) : ""].filter(Boolean).join("\n\n");
    }
    case "system": case "stderr": case "stdout":
      return `**${group}**${where}\n\n` + fence(e.text);
    default:
      return `**${stripEscapes(str(e.kind)).replace(/\s+/g, " ").slice(0, 40) || "entry"}**${where}\n\n` + fence(safeJson(e, 2), "json");
  }
}

/** The transcript as Markdown; `title` names the source. */
export function toMarkdown(t, title) {
  const parts = [`# Transcript: ${stripEscapes(str(title)).replace(/\s+/g, " ")}`, `${fmtInt(t.count)} rows, ${fmtInt(t.entryCount)} entries (exported by the agentlines run viewer)`];
  for (let id = 0; id < t.count; id++) parts.push(rowMarkdown(t.row(id)));
  return parts.join("\n\n") + "\n";
}
