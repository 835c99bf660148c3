#!/usr/bin/env node
// The crate's module graph, drawn from the code's own paths, and a check that it has no circle.
//
//   node scripts/module-graph.mjs            counts, the circles, and the arrows back up
//   node scripts/module-graph.mjs --arrows   every arrow too (--top: between top modules)
//   node scripts/module-graph.mjs --check    exit 1 on a circle or a forbidden arrow (a test runs this)
//
// A node is one source file under src/ (its module: src/a/b.rs and src/a/b/mod.rs are `a::b`);
// lib.rs (the crate root: prelude, `per_thread!`) and src/bin/ (a separate crate) are left out.
// An arrow A -> B is a path in A's code (a `use`, or an inline `crate::…`, `super::…`,
// `self::…` or `child::…` path) that names module B or an item in it. Comments and test code
// (`#[cfg(test)]` modules, inline or in their own files) are not read: tests may reach anywhere.
// An arrow runs back up when B is an ancestor of A in the module tree (a child uses its parent,
// e.g. a type its `mod.rs` defines): counted, but not followed when looking for circles. A
// circle is a set of two or more files that all reach each other (a strongly connected
// component); the same is checked between the crate's top modules (`formats`, `json`, …). A rough reader of Rust, enough for this crate's plain paths: `as` renames and
// macro-built paths are not followed.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, dirname, basename } from "node:path";
import { fileURLToPath } from "node:url";

// Arrows the layering forbids even without a circle: [from-module prefix, to-module prefix, why].
const FORBIDDEN = [
  ["json", "formats", "the JSON layer sits below the runtime modules (formats -> json, never back)"],
  ["json", "entry", "the JSON layer knows nothing of entries"],
  ["entry", "formats", "entries are plain data; the runtime modules make them"],
];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function files(dir, src) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "bin" && dir === src ? [] : files(p, src);
    return name.endsWith(".rs") ? [p] : [];
  });
}

/** `src/a/b.rs` / `src/a/b/mod.rs` -> "a::b"; lib.rs -> "". */
function modName(src, file) {
  const rel = relative(src, file).replace(/\\/g, "/").replace(/\.rs$/, "");
  if (rel === "lib") return "";
  return rel.replace(/\/mod$/, "").split("/").join("::");
}

/** The text without comments, strings and char literals (a path in them is not an arrow). */
function code(text) {
  let out = "";
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      let depth = 0;
      do {
        if (text.startsWith("/*", i)) (depth++, (i += 2));
        else if (text.startsWith("*/", i)) (depth--, (i += 2));
        else i++;
      } while (depth > 0 && i < text.length);
    } else if (c === "r" && /^r#*"/.test(text.slice(i, i + 8)) && !/\w/.test(text[i - 1] ?? "")) {
      const hashes = text.slice(i + 1).match(/^#*/)[0];
      const end = text.indexOf('"' + hashes, i + 2 + hashes.length);
      out += '""';
      i = end < 0 ? text.length : end + 1 + hashes.length;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      out += '""';
      i++;
    } else if (c === "'" && /^'(\\.[^']*|[^\\'])'/.test(text.slice(i, i + 12))) {
      const m = text.slice(i).match(/^'(\\.[^']*|[^\\'])'/);
      out += "' '";
      i += m[0].length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `code` without `#[cfg(test)]` items (an inline `mod tests { … }`, a `mod x;`, a `use`). */
function withoutTests(text) {
  let out = "";
  let i = 0;
  const re = /#\[cfg\(test\)\]/g;
  let m;
  while ((m = re.exec(text))) {
    out += text.slice(i, m.index);
    // Skip the attribute's item: up to its `;` or the end of its `{ … }` block.
    let j = re.lastIndex;
    while (j < text.length && text[j] !== ";" && text[j] !== "{") j++;
    if (text[j] === "{") {
      let depth = 0;
      do {
        if (text[j] === "{") depth++;
        else if (text[j] === "}") depth--;
        j++;
      } while (depth > 0 && j < text.length);
    } else j++;
    i = j;
    re.lastIndex = j;
  }
  return out + text.slice(i);
}

/** Every path of a `use` tree: `a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e. */
function expandUse(tree) {
  tree = tree.replace(/\s+/g, "");
  const open = tree.indexOf("{");
  if (open < 0) return [tree.replace(/::\*$/, "").replace(/\bas\w+$/, "")];
  const head = tree.slice(0, open);
  const body = tree.slice(open + 1, tree.lastIndexOf("}"));
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k <= body.length; k++) {
    const ch = body[k];
    if (ch === "{") depth++;
    else if (ch === "}") depth--;
    else if ((ch === "," || k === body.length) && depth === 0) {
      if (k > start) parts.push(body.slice(start, k));
      start = k + 1;
    }
  }
  return parts.flatMap((p) => expandUse(head + p).map((x) => x.replace(/::self$/, "")));
}

/** The graph of the crate whose sources are in `src` (this repository's by default). */
export function graph(src = join(root, "src")) {
  const all = files(src, src);
  const byMod = new Map(all.map((f) => [modName(src, f), f]));
  const text = new Map(all.map((f) => [f, readFileSync(f, "utf8")]));

  // Test-only files: declared `#[cfg(test)] mod x;` by their parent.
  const testOnly = new Set();
  for (const f of all) {
    const m = modName(src, f);
    for (const d of text.get(f).matchAll(/#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/g)) {
      testOnly.add(m ? `${m}::${d[1]}` : d[1]);
    }
  }
  const isTest = (m) => [...testOnly].some((t) => m === t || m.startsWith(t + "::"));
  const nodes = [...byMod.keys()].filter((m) => m !== "" && !isTest(m)).sort();

  /** The deepest module a path from module `from` names (null: the root or outside the crate). */
  function resolve(from, path) {
    const segs = path.split("::").filter(Boolean);
    let cur = from.split("::").filter(Boolean);
    // A file's `self`/`super` are relative to its own module.
    let k = 0;
    if (segs[0] === "crate") (cur = [], (k = 1));
    else if (segs[0] === "self") k = 1;
    else if (segs[0] === "super") {
      while (segs[k] === "super") (cur = cur.slice(0, -1), k++);
    } else if (!byMod.has([...cur, segs[0]].join("::"))) return null; // std, core, serde…
    for (; k < segs.length; k++) {
      const next = [...cur, segs[k]].join("::");
      if (!byMod.has(next)) break;
      cur = [...cur, segs[k]];
    }
    const m = cur.join("::");
    return m && m !== from ? m : null;
  }

  const arrows = new Map(nodes.map((n) => [n, new Set()]));
  for (const n of nodes) {
    const body = withoutTests(code(text.get(byMod.get(n))));
    const paths = [];
    for (const u of body.matchAll(/\buse\s+([^;]+);/g)) paths.push(...expandUse(u[1]));
    for (const p of body.matchAll(/(?<![\w:])((?:crate|super|self|\w+)(?:::\w+)+)/g)) paths.push(p[1]);
    for (const p of paths) {
      const to = resolve(n, p);
      if (to && arrows.has(to)) arrows.get(n).add(to);
    }
  }

  const list = nodes.flatMap((a) => [...arrows.get(a)].sort().map((b) => [a, b]));
  const up = list.filter(([a, b]) => a.startsWith(b + "::"));
  const circles = components(nodes, (v) => [...arrows.get(v)].filter((w) => !v.startsWith(w + "::")));
  // The same at the level of the crate's top modules (`formats`, `json`, `api`, …).
  const top = (m) => m.split("::")[0];
  const topNodes = [...new Set(nodes.map(top))].sort();
  const topArrows = new Map(topNodes.map((n) => [n, new Set()]));
  for (const [a, b] of list) if (top(a) !== top(b)) topArrows.get(top(a)).add(top(b));
  const topList = topNodes.flatMap((a) => [...topArrows.get(a)].sort().map((b) => [a, b]));
  const topCircles = components(topNodes, (v) => [...topArrows.get(v)]);
  const under = (m, p) => m === p || m.startsWith(p + "::");
  const forbidden = list.flatMap(([a, b]) =>
    FORBIDDEN.filter(([f, t]) => under(a, f) && under(b, t)).map(([, , why]) => [a, b, why]),
  );
  const lines = nodes.reduce((s, n) => s + text.get(byMod.get(n)).split("\n").length - 1, 0);
  return { nodes, list, up, circles, forbidden, lines, top: { nodes: topNodes, list: topList, circles: topCircles } };
}

/** Tarjan's strongly connected components of two or more nodes: the circles. */
function components(nodes, next) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const circles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) (visit(w), low.set(v, Math.min(low.get(v), low.get(w))));
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do (w = stack.pop()), on.delete(w), c.push(w);
      while (w !== v);
      if (c.length > 1) circles.push(c.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return circles;
}

if (process.argv[1] && basename(process.argv[1]) === "module-graph.mjs") {
  const g = graph();
  const args = process.argv.slice(2);
  console.log(
    `files: ${g.nodes.length} modules (${g.lines} lines, test-only files left out), ${g.list.length} arrows, ` +
      `${g.up.length} running back up, ${g.circles.length} circles`,
  );
  console.log(`top modules: ${g.top.nodes.length} modules, ${g.top.list.length} arrows, ${g.top.circles.length} circles`);
  if (args.includes("--arrows")) for (const [a, b] of g.list) console.log(`  ${a} -> ${b}`);
  if (args.includes("--top")) for (const [a, b] of g.top.list) console.log(`  ${a} -> ${b}`);
  if (g.up.length) console.log("arrows back up (a child uses its parent):");
  for (const [a, b] of g.up) console.log(`  ${a} -> ${b}`);
  for (const c of g.circles) console.log(`circle: ${c.join(", ")}`);
  for (const c of g.top.circles) console.log(`circle of top modules: ${c.join(", ")}`);
  for (const [a, b, why] of g.forbidden) console.log(`forbidden: ${a} -> ${b} (${why})`);
  if (args.includes("--check") && (g.circles.length || g.top.circles.length || g.forbidden.length)) process.exit(1);
}
