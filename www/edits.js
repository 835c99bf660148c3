// A tool call that edits a file, read as a diff (no DOM: Node can import it). Edit tools
// send the change as strings in their input (`old_string`/`new_string`, a file's whole
// `content`, a patch); a card showing that input as JSON shows `\n` escapes where the
// reader wants lines. Recognised by the input's shape, whatever the tool is called:
//  - one replacement: `old_string`/`new_string` (Claude Edit, Gemini replace),
//    `oldString`/`newString` (OpenCode edit), `old_str`/`new_str`;
//  - several: `edits: [{old_string, new_string}]` (Claude MultiEdit), one hunk each;
//  - a whole file: `content` (Claude Write, Gemini write_file, OpenCode write), all added;
//  - a patch: a string input, or `input`/`patch`, in apply_patch's `*** Begin Patch` form or
//    unified diff form (Codex apply_patch).
// Lines a replacement's two sides share at its start and end are context; what is between
// is removed, then added. At most MAX_LINES lines, then one truncation line.

const MAX_LINES = 2000;
const PATH_KEYS = ["file_path", "filePath", "path", "absolute_path", "notebook_path"];

const s = (v) => (typeof v === "string" ? v : "");

function pathOf(input) {
  for (const k of PATH_KEYS) if (typeof input[k] === "string" && input[k]) return input[k];
  return "";
}

function split(text) {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** One replacement as diff lines: shared leading and trailing lines as context. */
function replacement(before, after, out) {
  const a = split(before);
  const b = split(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  for (let i = 0; i < head; i++) out.push({ changeType: "context", text: " " + a[i] });
  for (let i = head; i < a.length - tail; i++) out.push({ changeType: "remove", text: "-" + a[i] });
  for (let i = head; i < b.length - tail; i++) out.push({ changeType: "add", text: "+" + b[i] });
  for (let i = a.length - tail; i < a.length; i++) out.push({ changeType: "context", text: " " + a[i] });
}

function patchLines(patch, out) {
  for (const l of split(patch)) {
    let t = "context";
    if (l.startsWith("*** ") || l.startsWith("--- ") || l.startsWith("+++ ") || l.startsWith("diff --git")) t = "file_header";
    else if (l.startsWith("@@")) t = "hunk";
    else if (l.startsWith("+")) t = "add";
    else if (l.startsWith("-")) t = "remove";
    out.push({ changeType: t, text: l });
  }
}

const isPatch = (text) => /^\*\*\* Begin Patch|^(diff --git |--- \S)/m.test(text) && /^[+-]/m.test(text);

/** The call's input as a diff: { path, lines: [{changeType, text}] }, or null when the input
 * is not an edit. `name` is only used for a string input (a patch). */
export function inputDiff(name, input) {
  const out = [];
  let path = "";
  if (typeof input === "string") {
    if (!isPatch(input)) return null;
    patchLines(input, out);
  } else if (input && typeof input === "object" && !Array.isArray(input)) {
    path = pathOf(input);
    const before = s(input.old_string ?? input.oldString ?? input.old_str);
    const after = input.new_string ?? input.newString ?? input.new_str;
    if (typeof after === "string" && (before || after)) {
      replacement(before, after, out);
    } else if (Array.isArray(input.edits) && input.edits.length && input.edits.every((e) => e && typeof e === "object")) {
      input.edits.forEach((e, i) => {
        out.push({ changeType: "hunk", text: `@@ edit ${i + 1} of ${input.edits.length} @@` });
        replacement(s(e.old_string ?? e.oldString), s(e.new_string ?? e.newString), out);
      });
    } else if (typeof input.content === "string" && path) {
      for (const l of split(input.content)) out.push({ changeType: "add", text: "+" + l });
      if (!out.length) out.push({ changeType: "context", text: " (empty file)" });
    } else {
      const patch = [input.input, input.patch].find((v) => typeof v === "string" && isPatch(v));
      if (!patch) return null;
      patchLines(patch, out);
    }
  } else {
    return null;
  }
  if (!out.length) return null;
  if (out.length > MAX_LINES) {
    const more = out.length - MAX_LINES;
    out.length = MAX_LINES;
    out.push({ changeType: "truncation", text: `… ${more} more lines (the whole input: "input as JSON")` });
  }
  return { path, lines: out };
}
