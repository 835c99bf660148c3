// Transcript exports (no DOM: Node can import it):
//  - JSON: the entries as the viewer holds them (after the delta merge), one per line in a
//    JSON array, in order;
//  - Markdown: the rows as a reader would want them: assistant text as written, user text
//    quoted, thinking, tool calls with their input and result in code fences, diffs as a
//    ```diff block, log lines (system/stderr/stdout) in fences, init and result summaries.
// Inert by construction, by the same rules as the CLI's `-o markdown`: a .md file opened in a
// renderer that keeps raw HTML and follows every link must not run what an agent printed.
// Code (tool input and output, log lines, diffs) goes in fences longer than any backtick run
// it holds; plain text (user, thinking, names, subtypes, errors, the title) is escaped
// character by character; the assistant's and a result's Markdown keep their formatting
// with raw HTML, entities and unsafe links neutralised (`inert`). Escape sequences go.
import { str, safeJson, fmtInt, fmtCost, groupOf, toolDuration } from "./model.js";
import { stripEscapes } from "./text.js";

export function toJson(t) {
  if (!t.merged.length) return "[]\n";
  return "[\n" + t.merged.map((e) => safeJson(e)).join(",\n") + "\n]\n";
}

// The exports of a big transcript a slice of about `sliceMs` at a time (a 1M-call log took
// 4.7 s in one task), as a Blob built a slice at a time (each slice's text joined and encoded
// in its own task: never one string, never one long encoding); `progress(done, total)`
// between slices; `alive()` false stops it (it resolves null). The same text as toJson /
// toMarkdown; the shared HTML file (www/share.js) is written the same way.
export function sliced(total, head, piece, tail, type, { sliceMs = 25, later = (f) => setTimeout(f, 0), progress = () => {}, alive = () => true } = {}) {
  return new Promise((resolve, reject) => {
    let blob = new Blob([head], { type });
    let i = 0;
    const run = () => {
      // The transcript changed under it (another log opened): null, nothing to download.
      if (!alive()) {
        resolve(null);
        return;
      }
      try {
        const until = performance.now() + sliceMs;
        const parts = [];
        let size = 0;
        // A slice ends at its time or at 1 MB of text (its encoding into the Blob is part of
        // the task too).
        while (i < total) {
          const p = piece(i++);
          parts.push(p);
          size += p.length;
          if (size > 1 << 20 || ((i & 63) === 0 && performance.now() >= until)) break;
        }
        if (i >= total) parts.push(tail);
        blob = new Blob([blob, parts.join("")], { type });
      } catch (e) {
        reject(e);
        return;
      }
      if (i < total) {
        progress(i, total);
        later(run);
      } else resolve(blob);
    };
    run();
  });
}

export function toJsonBlob(t, opts) {
  if (!t.merged.length) return Promise.resolve(new Blob(["[]\n"], { type: "application/json" }));
  return sliced(t.merged.length, "[\n", (i) => (i ? ",\n" : "") + safeJson(t.merged[i]), "\n]\n", "application/json", opts);
}

export function toMarkdownBlob(t, title, opts) {
  return sliced(t.count, markdownHead(t, title), (id) => "\n\n" + rowMarkdown(t.row(id)), "\n", "text/markdown", opts);
}

// A fenced code block whose fence outlasts the longest backtick run in the text, so nothing
// in it can close it early.
function fence(text, lang = "") {
  const s = stripEscapes(str(text)).replace(/\n+$/, "");
  const longest = (s.match(/`+/g) || []).reduce((n, r) => Math.max(n, r.length), 2);
  const f = "`".repeat(longest + 1);
  return `${f}${lang}\n${s}\n${f}`;
}

// Whether a link destination (the text after `](` or `]:`) could make a renderer that keeps
// raw links follow something other than http, https, mailto or a path: a scheme other than
// those, or an escape, an entity or a percent sign before the first `:` (a renderer decodes
// them).
const DEST = /[ \t\r\n]*<?([^/?#)> \n\t]*)/y;
function unsafeDest(text, at) {
  DEST.lastIndex = at;
  const head = DEST.exec(text)[1];
  const colon = head.indexOf(":");
  if (colon < 0) return /[&\\]/.test(head);
  const scheme = head.slice(0, colon).toLowerCase();
  return /[&\\%]/.test(scheme) || !["http", "https", "mailto"].includes(scheme);
}

// inert() for text outside fenced blocks. A backtick run opens a code span only where a run
// of the same length closes it on the same line, else each of its backticks is escaped; outside spans `<` is `&lt;` (no raw HTML, no autolink), `&` before a
// character reference `&amp;`, and a link or link reference definition to an unsafe
// destination loses its link syntax.
const DEF = /( {0,3})\[[^\]]{0,999}\]:/y;
function inertProse(text) {
  let out = "";
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    const c = text[i];
    if (c === "`") {
      let n = 0;
      while (text[i + n] === "`") n++;
      let j = i + n;
      let close = -1;
      // A span closes on its own line here (CommonMark lets it cross lines, but a later line
      // may be a block the renderer reads first: a fence inside a quote or a list).
      while (j < text.length && text[j] !== "\n" && text[j] !== "\r") {
        if (text[j] === "`") {
          let m = 0;
          while (text[j + m] === "`") m++;
          if (m === n) { close = j; break; }
          j += m;
        } else j++;
      }
      if (close >= 0) {
        out += text.slice(i, close + n);
        i = close + n;
      } else {
        out += "\\`".repeat(n);
        i += n;
      }
      lineStart = false;
      continue;
    }
    if (lineStart) {
      // A link reference definition; its label may cross lines (at most 999 characters).
      DEF.lastIndex = i;
      const def = DEF.exec(text);
      if (def && unsafeDest(text, i + def[0].length)) {
        out += def[1] + "\\";
        i += def[1].length;
      }
    }
    lineStart = c === "\n" || c === "\r";
    if (c === "<") out += "&lt;";
    else if (c === "&" && /[#a-zA-Z]/.test(text[i + 1] ?? "")) out += "&amp;";
    else if (c === "]" && text[i + 1] === "(" && unsafeDest(text, i + 2)) out += "]\\";
    else out += c;
    i++;
  }
  return out;
}

/** Markdown with nothing a renderer would run, its formatting kept (the same rules as the
 *  CLI's `-o markdown`, cli/src/render.rs): fenced blocks kept as code (a fence closes only
 *  with its own marker, at least as long, at most three spaces in; a backtick fence whose info
 *  string holds a backtick is no fence; an unclosed one is closed), everything else through
 *  `inertProse`. */
export function inert(text) {
  const lines = stripEscapes(str(text)).split("\n");
  const out = [];
  let prose = [];
  let open = null;
  const flush = () => {
    if (prose.length) out.push(inertProse(prose.join("\n")));
    prose = [];
  };
  for (const line of lines) {
    // `[^\n]*`, not `.*`: a CRLF line's `\r` belongs to the fence line (trailing space).
    const m = /^( {0,3})(`{3,}|~{3,})([^\n]*)$/.exec(line);
    if (open !== null) {
      out.push(line);
      if (m && m[2][0] === open[0] && m[2].length >= open.length && m[3].trim() === "") open = null;
      continue;
    }
    if (m && (m[2][0] === "~" || !m[3].includes("`"))) {
      flush();
      out.push(line);
      open = m[2];
      continue;
    }
    prose.push(line);
  }
  flush();
  if (open !== null) out.push(open);
  return out.join("\n").replace(/\n+$/, "");
}

/** Plain text made literal by CommonMark's own rule: every ASCII punctuation character that
 *  can begin or end a construct backslash-escaped, leading spaces as `&#32;` (no indented
 *  code block). Nothing is dropped. */
export function escapeText(text) {
  return stripEscapes(str(text)).replace(/[\\`*_{}[\]()<>#+\-.!|~&=$"']/g, "\\$&").replace(/^ +/, (sp) => "&#32;".repeat(sp.length));
}
const oneLine = (s) => escapeText(str(s).replace(/[\r\n]+/g, " "));

// Plain text as a blockquote: each line escaped, a hard break at its end.
const quote = (text) => {
  const t = stripEscapes(str(text)).replace(/\s+$/, "");
  return t === "" ? ">" : t.split("\n").map((l) => "> " + escapeText(l)).join("\\\n");
};

function dur(row) {
  const d = toolDuration(row);
  return d ? ` (${d.ms < 1000 ? Math.round(d.ms) + " ms" : (d.ms / 1000).toFixed(1) + " s"})` : "";
}

function rowMarkdown(row) {
  const where = row.line >= 0 ? ` · L${row.line + 1}` : "";
  if (row.type === "tool") {
    const c = row.call;
    const r = row.result;
    const name = str(c?.name) || str(r?.toolName) || "tool";
    const status = !r ? "no result" : r.isError === true ? "error" : "ok";
    const out = [`**tool** ${oneLine(name)} · ${status}${dur(row)}${where}`];
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
    case "init": return `**init** · model ${oneLine(e.model || "?")} · session ${oneLine(e.sessionId || "?")}${where}`;
    case "result": {
      const head = `**result** · ${oneLine(str(e.subtype) || "result")}${e.isError === true ? " (error)" : ""} · in ${fmtInt(e.inputTokens)} · out ${fmtInt(e.outputTokens)} · cached ${fmtInt(e.cachedTokens)} tokens · ${fmtCost(e.costUsd)}${where}`;
      const errors = Array.isArray(e.errors) ? e.errors.map((x) => "- " + oneLine(str(x))).join("\n") : "";
      return [head, errors, str(e.text) ? inert(e.text) : ""].filter(Boolean).join("\n\n");
    }
    case "system": case "stderr": case "stdout":
      return `**${group}**${where}\n\n` + fence(e.text);
    default:
      return `**${oneLine(str(e.kind).slice(0, 40)) || "entry"}**${where}\n\n` + fence(safeJson(e, 2), "json");
  }
}

/** The transcript as Markdown; `title` names the source. */
export function toMarkdown(t, title) {
  const parts = [markdownHead(t, title)];
  for (let id = 0; id < t.count; id++) parts.push(rowMarkdown(t.row(id)));
  return parts.join("\n\n") + "\n";
}

function markdownHead(t, title) {
  return `# Transcript: ${oneLine(title)}\n\n${fmtInt(t.count)} rows, ${fmtInt(t.entryCount)} entries (exported by the agentlines run viewer)`;
}
