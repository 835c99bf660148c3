// Transcript exports (no DOM: Node can import it):
//  - JSON: the entries as the viewer holds them (after the delta merge), one per line in a
//    JSON array, in order;
//  - Markdown: the rows as a reader would want them: assistant text as written, user text
//    quoted, thinking, tool calls with their input and result in code fences, diffs as a
//    ```diff block, log lines (system/stderr/stdout) in fences, init and result summaries.
// Fences are longer than any backtick run in what they hold, so log text cannot close
// them; escape sequences are removed.
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

const quote = (text) => stripEscapes(str(text)).split("\n").map((l) => "> " + l).join("\n");
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
  const e = row.entry;
  switch (groupOf(row)) {
    case "assistant": return `**assistant**${where}\n\n${stripEscapes(str(e.text))}`;
    case "thinking": return `**thinking**${where}\n\n${quote(e.text)}`;
    case "user": return `**user**${where}\n\n${quote(e.text)}`;
    case "init": return `**init** · model ${inlineCode(e.model || "?")} · session ${inlineCode(e.sessionId || "?")}${where}`;
    case "result": {
      const head = `**result** · ${str(e.subtype) || "result"}${e.isError === true ? " (error)" : ""} · in ${fmtInt(e.inputTokens)} · out ${fmtInt(e.outputTokens)} · cached ${fmtInt(e.cachedTokens)} tokens · ${fmtCost(e.costUsd)}${where}`;
      const errors = Array.isArray(e.errors) ? e.errors.map((x) => "- " + stripEscapes(str(x)).replace(/\s+/g, " ")).join("\n") : "";
      return [head, errors, str(e.text) ? stripEscapes(str(e.text)) : ""].filter(Boolean).join("\n\n");
    }
    case "system": case "stderr": case "stdout":
      return `**${groupOf(row)}**${where}\n\n` + fence(e.text);
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
