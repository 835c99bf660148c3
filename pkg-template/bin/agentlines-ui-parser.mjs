#!/usr/bin/env node
// agentlines-ui-parser: copies one of this package's built ui-parser files into an adapter's
// package and prints the package.json lines that make the Paperclip host load it.
//
//   npx agentlines-ui-parser <adapter-dir> [--runtime <name>] [--stateful] [--cjs] [--out <path>] [--hook <file>] [--write]
//   npx agentlines-ui-parser <adapter-dir> --check [--hook <file>]
//   npx agentlines-ui-parser <adapter-dir> --runtime base --hook <file>   (a CLI no runtime covers)
//   npx agentlines-ui-parser --version
//
// Why a copy: the host reads the file named by the adapter's own exports["./ui-parser"], and
// Node refuses an exports target outside the package (ERR_INVALID_PACKAGE_TARGET), so the
// file cannot be pointed at inside node_modules. The file is a CommonJS-style script, so in
// a "type": "module" package (or with --cjs) it is named .cjs. Default: the stateless file
// with every runtime; --runtime picks a one-runtime build (dist/<runtime>/), --stateful the
// file that also has createStdoutParser. Without --write nothing is written to package.json:
// the lines to add are printed (as one JSON object to merge); --write merges them in,
// keeping every other field and the file's indentation. --check, for an adapter's CI,
// copies nothing and exits 1 with the reasons when the package would not load this
// version's parser: the exports entry or the marker missing or wrong, the file missing, or
// not byte-identical to a file of this agentlines version (stale after an upgrade, or edited).
// --hook <file> bakes the author's hook into the copy (./bake-hook.mjs, docs/extend.md): a
// function for the lines agentlines does not read, checked against the host's rules first.
// The baked file records which parser file and which hook (its path from the adapter folder)
// went in, so --check needs no flags: it checks the parser part against this version's files
// and the hook part against that hook file, and says which part differs. --runtime base is
// the file with no runtime reader, for a hook-only adapter (the smallest).
// Exit status: 0 copied (or checked clean), 1 cannot read/write (or --check found a
// problem), 2 bad arguments. Hand-written (no argument library): the package has no
// dependencies and the options are few.
import { readFileSync, writeFileSync, existsSync, readdirSync, mkdirSync } from "node:fs";
import { join, dirname, resolve, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: agentlines-ui-parser <adapter-dir> [--runtime <name>] [--stateful] [--cjs] [--out <path>] [--hook <file>] [--write]\n" +
  "       agentlines-ui-parser <adapter-dir> --check [--hook <file>]\n" +
  "       agentlines-ui-parser <adapter-dir> --runtime base --hook <file>\n" +
  "       agentlines-ui-parser --version";
const MARKER = "1.0.0";

function fail(code, message) {
  process.stderr.write(`agentlines-ui-parser: ${message}\n`);
  if (code === 2) process.stderr.write(USAGE + "\n");
  process.exit(code);
}

const runtimes = readdirSync(dist, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(dist, d.name, "ui-parser.js")))
  .map((d) => d.name)
  .sort();

/** The agentlines version a built file names in its first line ("?" if none). */
const versionOf = (text) => (/^\/\/ agentlines (\S+):/.exec(text) ?? [])[1] ?? "?";
const ours = versionOf(readFileSync(join(dist, "ui-parser.stateless.js"), "utf8"));

const opts = { stateful: false, cjs: false, write: false, check: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--help" || a === "-h") {
    process.stdout.write(`${USAGE}\n\nCopies agentlines' ui-parser file into <adapter-dir> and prints the package.json\nlines to add. Runtimes: ${runtimes.join(", ")}.\n`);
    process.exit(0);
  } else if (a === "--version" || a === "-V") {
    process.stdout.write(`agentlines-ui-parser ${ours}\n`);
    process.exit(0);
  } else if (a === "--stateful") opts.stateful = true;
  else if (a === "--write") opts.write = true;
  else if (a === "--check") opts.check = true;
  else if (a === "--cjs") opts.cjs = true;
  else if (a === "--runtime" || a === "--out" || a === "--hook") {
    if (argv[i + 1] === undefined || argv[i + 1].startsWith("--")) fail(2, `${a} needs a value`);
    opts[a.slice(2)] = argv[++i];
  } else if (a.startsWith("--")) fail(2, `unknown option ${a}`);
  else if (opts.dir !== undefined) fail(2, `one adapter directory, got ${opts.dir} and ${a}`);
  else opts.dir = a;
}
if (opts.dir === undefined) fail(2, "which adapter directory? (the folder holding its package.json)");
if (opts.runtime !== undefined) {
  // Any name the parser accepts (`Claude`, `claude_local`, `qwen`…: the core's one list) picks
  // that runtime's file.
  let name = null;
  if (/^base$/i.test(opts.runtime)) name = "base";
  else try { name = createRequire(import.meta.url)(join(dist, "index.cjs")).runtimeName(opts.runtime); } catch { name = null; }
  if (name === "amp") name = runtimes.includes("amp") ? "amp" : "claude";
  if (name === null || !runtimes.includes(name)) {
    fail(2, `unknown runtime "${opts.runtime}"; one of: ${runtimes.join(", ")} (or an adapter's name for one, like claude_local; base reads none, for a hook-only adapter)`);
  }
  opts.runtime = name;
}

if (opts.check && (opts.write || opts.out !== undefined || opts.runtime !== undefined || opts.stateful || opts.cjs)) {
  fail(2, "--check takes only --hook: it finds the copied file through the package's exports");
}

const dir = resolve(opts.dir);
const pkgFile = join(dir, "package.json");
if (!existsSync(pkgFile)) fail(1, `no package.json in ${dir} (give the adapter package's folder)`);
let pkg, pkgText;
try {
  pkgText = readFileSync(pkgFile, "utf8");
  pkg = JSON.parse(pkgText);
} catch (e) {
  fail(1, `${pkgFile} is not valid JSON: ${e.message}`);
}
if (opts.check) process.exit(await check());
const ext = opts.cjs || pkg.type === "module" ? ".cjs" : ".js";
const out = resolve(dir, opts.out ?? `ui-parser${ext}`);
const rel = relative(dir, out).split(sep).join("/");
if (rel.startsWith("../") || rel === "..") fail(2, `--out must be inside the adapter package (${dir})`);
if (out.endsWith(".mjs")) fail(2, `${rel}: the file is a CommonJS-style script; use a .cjs (or, outside "type": "module", .js) name`);
if (pkg.type === "module" && out.endsWith(".js")) {
  fail(2, `${rel}: this package is "type": "module", so a .js file would be read as ESM; use a .cjs name`);
}

const source = join(dist, opts.runtime ?? "", opts.stateful ? "ui-parser.js" : "ui-parser.stateless.js");
let text = readFileSync(source, "utf8");
if (opts.hook !== undefined) text = await withHook(text, resolve(opts.hook), relative(dist, source).split(sep).join("/"));
try {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
} catch (e) {
  fail(1, `cannot write ${out}: ${e.message}`);
}

const target = `./${rel}`;
if (opts.hook !== undefined) {
  process.stdout.write(`baked the hook ${opts.hook} into it (checked against the host's scanner and loader)\n`);
  if (opts.runtime === undefined) {
    const gz = (f) => Math.round(gzipSync(readFileSync(join(dist, f)), { level: 9 }).length / 1024);
    const file = opts.stateful ? "ui-parser.js" : "ui-parser.stateless.js";
    process.stdout.write(`note: if agentlines reads none of your CLI's lines (the hook reads them all), --runtime base is ` +
      `${gz(join("base", file))} KB gzip instead of ${gz(file)} KB: no runtime reader, the rest the same (docs/extend.md)\n`);
  }
}
const lines = { exports: { "./ui-parser": target }, paperclip: { adapterUiParser: MARKER } };
const have = typeof pkg.exports === "object" && pkg.exports !== null ? pkg.exports["./ui-parser"] : undefined;
process.stdout.write(`copied agentlines ${versionOf(text)} ${relative(dist, source)} -> ${out} (${Buffer.byteLength(text)} bytes)\n`);
const wired = have === target && pkg.paperclip?.adapterUiParser === MARKER;
if (opts.write) {
  write();
} else if (wired) {
  process.stdout.write(`${pkgFile} already loads it (exports["./ui-parser"] = "${target}", paperclip.adapterUiParser = "${MARKER}")\n`);
  if (!inFiles(pkg, rel)) process.stdout.write(`note: "files" does not include ${rel}; add "${rel}" or npm publish leaves it out\n`);
} else {
  process.stdout.write(
    `merge into ${pkgFile} (keep your other exports; "exports" must be an object), or run again with --write:\n` +
    JSON.stringify(lines, null, 2) + "\n",
  );
  if (have !== undefined && have !== target) {
    process.stdout.write(`note: exports["./ui-parser"] is now ${JSON.stringify(have)}; change it to "${target}"\n`);
  }
  if (!inFiles(pkg, rel)) process.stdout.write(`note: "files" does not include ${rel}; add "${rel}" or npm publish leaves it out\n`);
}

/** Whether npm publish would include `rel` (no "files" list: everything). */
function inFiles(p, path) {
  return !Array.isArray(p.files) || p.files.some((f) => typeof f === "string" && (path === f || path.startsWith(f.replace(/^\.\//, "").replace(/\/?$/, "/"))));
}

/** --write: the lines merged into package.json, other fields and indentation kept. */
function write() {
  const next = { ...pkg };
  if (typeof next.exports === "string") {
    next.exports = { ".": next.exports, "./ui-parser": target };
  } else if (next.exports === undefined || next.exports === null) {
    // No exports map yet: keep the package's main entry reachable as ".".
    next.exports = next.main !== undefined ? { ".": "./" + String(next.main).replace(/^\.\//, ""), "./ui-parser": target } : { "./ui-parser": target };
  } else if (typeof next.exports === "object" && !Array.isArray(next.exports) && !Object.keys(next.exports).some((k) => !k.startsWith("."))) {
    next.exports = { ...next.exports, "./ui-parser": target };
  } else {
    fail(1, `${pkgFile}: "exports" is a conditions object or an array; add "./ui-parser": "${target}" to it by hand`);
  }
  next.paperclip = { ...(typeof next.paperclip === "object" && next.paperclip !== null ? next.paperclip : {}), adapterUiParser: MARKER };
  if (!inFiles(next, rel)) next.files = [...next.files, rel];
  const indent = (/^[ \t]+/m.exec(pkgText) ?? ["  "])[0];
  try {
    writeFileSync(pkgFile, JSON.stringify(next, null, indent) + (pkgText.endsWith("\n") ? "\n" : ""));
  } catch (e) {
    fail(1, `cannot write ${pkgFile}: ${e.message}`);
  }
  process.stdout.write(`wrote exports["./ui-parser"] = "${target}" and paperclip.adapterUiParser = "${MARKER}" into ${pkgFile}\n`);
}

/** --check: 0 when the package loads this version's parser, else 1 with every reason. */
async function check() {
  const problems = [];
  const exp = typeof pkg.exports === "object" && pkg.exports !== null && !Array.isArray(pkg.exports) ? pkg.exports["./ui-parser"] : undefined;
  if (pkg.paperclip?.adapterUiParser !== MARKER) {
    problems.push(`paperclip.adapterUiParser is ${JSON.stringify(pkg.paperclip?.adapterUiParser)}, not "${MARKER}"`);
  }
  if (typeof exp !== "string") {
    problems.push(`exports["./ui-parser"] is ${JSON.stringify(exp)}: it must name the copied file (a string)`);
  } else {
    const file = resolve(dir, exp);
    const path = relative(dir, file).split(sep).join("/");
    if (!existsSync(file)) {
      problems.push(`${exp}: no such file (run agentlines-ui-parser without --check to copy it)`);
    } else {
      const text = readFileSync(file, "utf8");
      const candidates = [];
      for (const r of ["", ...runtimes]) {
        for (const f of ["ui-parser.stateless.js", "ui-parser.js"]) candidates.push(join(r, f).split(sep).join("/"));
      }
      const same = (c, part) => readFileSync(join(dist, c), "utf8") === part;
      const { readBaked, bakedHookText, compose } = await import("./bake-hook.mjs");
      const baked = readBaked(text);
      const v = versionOf(text);
      if (baked === null) {
        const match = candidates.find((c) => same(c, text));
        if (match !== undefined) {
          process.stdout.write(`${exp}: agentlines ${ours} ${match}\n`);
          if (opts.hook !== undefined) problems.push(`${exp} has no hook baked in, but --hook ${opts.hook} was given: bake it with --hook`);
        } else {
          problems.push(v !== ours
            ? `${exp} was built by agentlines ${v}; this is ${ours}: copy it again`
            : `${exp} differs from every ui-parser file of agentlines ${ours}: edited, or copy it again`);
        }
      } else {
        // A baked file: its parser part, the hook runtime and the hook, each checked.
        const match = candidates.includes(baked.base) && same(baked.base, baked.parser) ? baked.base : candidates.find((c) => same(c, baked.parser));
        if (v !== ours) problems.push(`${exp} was built by agentlines ${v}; this is ${ours}: bake it again (--hook ${baked.name})`);
        else if (match === undefined) problems.push(`${exp}: its parser part differs from every ui-parser file of agentlines ${ours}: edited, or bake it again (--hook ${baked.name})`);
        else if (readFileSync(join(dist, "hook.js"), "utf8").replace(/\n*$/, "\n") !== baked.runtime) problems.push(`${exp}: its hook runtime differs from agentlines ${ours}'s: edited, or bake it again (--hook ${baked.name})`);
        const hookFile = opts.hook !== undefined ? resolve(opts.hook) : resolve(dir, baked.name);
        const shown = opts.hook ?? baked.name;
        if (!existsSync(hookFile)) {
          if (opts.hook !== undefined) problems.push(`cannot read the hook ${opts.hook}`);
          else process.stdout.write(`note: ${exp} was baked with the hook ${baked.name}, not found from ${dir}: its hook part is not checked (pass --hook <file>)\n`);
        } else if (bakedHookText(readFileSync(hookFile, "utf8")) !== baked.hook) {
          problems.push(`${exp}: the hook baked in differs from ${shown} as it is now: bake it again (--hook ${shown})`);
        }
        // The whole file, made again from its parts: the code that joins them edited is found too.
        if (problems.length === 0 && compose(readFileSync(join(dist, match), "utf8"), baked.hook, baked.name, baked.base) !== text) {
          problems.push(`${exp}: the code joining the parser and the hook differs from what agentlines ${ours} writes: edited, or bake it again (--hook ${baked.name})`);
        }
        if (problems.length === 0) process.stdout.write(`${exp}: agentlines ${ours} ${match} with the hook ${shown}\n`);
      }
      if (!inFiles(pkg, path)) problems.push(`"files" does not include ${path}: npm publish would leave it out`);
    }
  }
  for (const p of problems) process.stderr.write(`agentlines-ui-parser: ${pkgFile}: ${p}\n`);
  if (problems.length === 0) process.stdout.write(`ok: ${pkgFile} loads agentlines ${ours}'s ui-parser\n`);
  return problems.length === 0 ? 0 : 1;
}

/** The ui-parser source with the hook file baked in (exit 1 with the reason if it cannot be);
 * the hook is named by its path from the adapter folder, so --check finds it from anywhere. */
async function withHook(parserSource, hookFile, base) {
  const { bakeHook } = await import("./bake-hook.mjs");
  let hookSource;
  try {
    hookSource = readFileSync(hookFile, "utf8");
  } catch (e) {
    fail(1, `cannot read the hook ${hookFile}: ${e.message}`);
  }
  try {
    return bakeHook(parserSource, hookSource, relative(dir, hookFile).split(sep).join("/") || hookFile, base);
  } catch (e) {
    fail(1, e.message);
  }
}
