// Joins the viewer's ES modules into one classic script, for the shared HTML file
// (www/share.js): a file opened from disk cannot load modules next to it (file:// is an
// opaque origin) and a strict CSP allows one hashed inline script. Hand-written: the page
// builds the file itself, in the browser, with no build step and nothing fetched from
// elsewhere; a general bundler would be a build step and ~10 MB of native binary.
//
// It reads the forms these modules use, and refuses any other: `import { a, b as c } from
// "./x.js"`, `import X from "./x.mjs"` (a default export), `export function|async
// function|class|const|let name`, `export { a as b, c }`. Each module becomes a function
// run once, in dependency order, returning its exports.

const IMPORT = /^import\s+(?:\{([^}]*)\}|([A-Za-z_$][\w$]*))\s+from\s+"(\.\/[^"]+)";?[ \t]*$/gm;
const EXPORT_DECL = /^export\s+((?:async\s+)?function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)/gm;
const EXPORT_LIST = /(^|[;}])[ \t]*export\s*\{([^}]*)\}[ \t]*;?/gm;

/** The path of `spec` imported from the module at `from` (both relative to the page). */
function resolve(from, spec) {
  const parts = from.split("/").slice(0, -1);
  for (const p of spec.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}

/** Renames in an import list: "a, b as c" -> [["a","a"],["b","c"]] (exported, local). */
function names(list) {
  return list.split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(s);
    if (!m) throw new Error(`bundle: cannot read "${s}"`);
    return [m[1], m[2] || m[1]];
  });
}

/**
 * One classic script running the module `entry` and everything it imports. `read(path)`
 * gives a module's source (a promise or a string).
 */
export async function bundle(entry, read) {
  const mods = new Map(); // path -> { code }
  const ids = new Map(); // path -> the name of its exports in the script
  const idOf = (path) => ids.get(path) ?? (ids.set(path, `m${ids.size}`), ids.get(path));
  const order = [];
  const visit = async (path, stack) => {
    if (mods.has(path)) {
      if (stack.includes(path)) throw new Error(`bundle: import cycle through ${path}`);
      return;
    }
    const mod = { code: "" };
    mods.set(path, mod);
    let src = String(await read(path));
    if (/\bimport\s*\.\s*meta\b|\bimport\s*\(/.test(src.replace(/\/\/[^\n]*/g, ""))) throw new Error(`bundle: ${path} reads its own URL or loads a module at run time`);
    const imports = [];
    src = src.replace(IMPORT, (_, list, def, spec) => {
      const dep = resolve(path, spec);
      imports.push(dep);
      return list !== undefined
        ? `const { ${names(list).map(([e, l]) => (e === l ? e : `${e}: ${l}`)).join(", ")} } = ${idOf(dep)};`
        : `const ${def} = ${idOf(dep)}.default;`;
    });
    const exported = [];
    src = src.replace(EXPORT_DECL, (_, kind, name) => {
      exported.push([name, name]);
      return `${kind} ${name}`;
    });
    src = src.replace(EXPORT_LIST, (_, before, list) => {
      for (const [local, as] of names(list)) exported.push([as, local]);
      return before;
    });
    if (/^\s*(export|import)\b(?!\s*\.)/m.test(src)) throw new Error(`bundle: ${path} has an import or export this bundler does not read`);
    for (const dep of imports) await visit(dep, [...stack, path]);
    mod.code = `${src}\nreturn { ${exported.map(([as, local]) => `${JSON.stringify(as)}: ${local}`).join(", ")} };`;
    order.push(path);
  };
  await visit(entry, []);
  const body = order.map((path) => `// ${path}\nconst ${idOf(path)} = (function () {\n${mods.get(path).code}\n})();`);
  return `(function () {\n"use strict";\n${body.join("\n")}\n})();\n`;
}
