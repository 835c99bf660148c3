#!/usr/bin/env node
// agentlines-ui-parser: copies one of this package's built ui-parser files into an adapter's
// package and prints the package.json lines that make the Paperclip host load it.
//
//   npx agentlines-ui-parser <adapter-dir> [--runtime <name>] [--stateful] [--cjs] [--out <path>] [--hook <file>]
//
// Why a copy: the host reads the file named by the adapter's own exports["./ui-parser"], and
// Node refuses an exports target outside the package (ERR_INVALID_PACKAGE_TARGET), so the
// file cannot be pointed at inside node_modules. The file is a CommonJS-style script, so in
// a "type": "module" package (or with --cjs) it is named .cjs. Default: the stateless file
// with every runtime; --runtime picks a one-runtime build (dist/<runtime>/), --stateful the
// file that also has createStdoutParser. Nothing is written to package.json: the lines to
// add are printed (as one JSON object to merge), so the author keeps control of it.
// --hook <file> bakes the author's hook into the copy (./bake-hook.mjs, docs/extend.md): a
// function for the lines agentlines does not read, checked against the host's rules first.
// Exit status: 0 copied, 1 cannot read/write, 2 bad arguments. Hand-written (no argument
// library): the package has no dependencies and the options are four.
import { readFileSync, writeFileSync, existsSync, readdirSync, mkdirSync } from "node:fs";
import { join, dirname, resolve, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: agentlines-ui-parser <adapter-dir> [--runtime <name>] [--stateful] [--cjs] [--out <path>] [--hook <file>]";

function fail(code, message) {
  process.stderr.write(`agentlines-ui-parser: ${message}\n`);
  if (code === 2) process.stderr.write(USAGE + "\n");
  process.exit(code);
}

const runtimes = readdirSync(dist, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(dist, d.name, "ui-parser.js")))
  .map((d) => d.name)
  .sort();

const opts = { stateful: false, cjs: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--help" || a === "-h") {
    process.stdout.write(`${USAGE}\n\nCopies agentlines' ui-parser file into <adapter-dir> and prints the package.json\nlines to add. Runtimes: ${runtimes.join(", ")}.\n`);
    process.exit(0);
  } else if (a === "--stateful") opts.stateful = true;
  else if (a === "--cjs") opts.cjs = true;
  else if (a === "--runtime" || a === "--out" || a === "--hook") {
    if (argv[i + 1] === undefined || argv[i + 1].startsWith("--")) fail(2, `${a} needs a value`);
    opts[a.slice(2)] = argv[++i];
  } else if (a.startsWith("--")) fail(2, `unknown option ${a}`);
  else if (opts.dir !== undefined) fail(2, `one adapter directory, got ${opts.dir} and ${a}`);
  else opts.dir = a;
}
if (opts.dir === undefined) fail(2, "which adapter directory? (the folder holding its package.json)");
if (opts.runtime !== undefined && !runtimes.includes(opts.runtime)) {
  fail(2, `unknown runtime "${opts.runtime}"; one of: ${runtimes.join(", ")}`);
}

const dir = resolve(opts.dir);
const pkgFile = join(dir, "package.json");
if (!existsSync(pkgFile)) fail(1, `no package.json in ${dir} (give the adapter package's folder)`);
let pkg;
try {
  pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
} catch (e) {
  fail(1, `${pkgFile} is not valid JSON: ${e.message}`);
}
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
if (opts.hook !== undefined) text = await withHook(text, resolve(opts.hook));
try {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
} catch (e) {
  fail(1, `cannot write ${out}: ${e.message}`);
}

const target = `./${rel}`;
if (opts.hook !== undefined) process.stdout.write(`baked the hook ${opts.hook} into it (checked against the host's scanner and loader)\n`);
const lines = { exports: { "./ui-parser": target }, paperclip: { adapterUiParser: "1.0.0" } };
const version = (/^\/\/ agentlines (\S+):/.exec(text) ?? [])[1] ?? "?";
const have = typeof pkg.exports === "object" && pkg.exports !== null ? pkg.exports["./ui-parser"] : undefined;
process.stdout.write(
  `copied agentlines ${version} ${relative(dist, source)} -> ${out} (${Buffer.byteLength(text)} bytes)\n` +
  `merge into ${pkgFile} (keep your other exports; "exports" must be an object):\n` +
  JSON.stringify(lines, null, 2) + "\n",
);
if (have !== undefined && have !== target) {
  process.stdout.write(`note: exports["./ui-parser"] is now ${JSON.stringify(have)}; change it to "${target}"\n`);
}
if (Array.isArray(pkg.files) && !pkg.files.some((f) => rel === f || rel.startsWith(f.replace(/\/?$/, "/")))) {
  process.stdout.write(`note: "files" does not include ${rel}; add "${rel}" or npm publish leaves it out\n`);
}

/** The ui-parser source with the hook file baked in (exit 1 with the reason if it cannot be). */
async function withHook(parserSource, hookFile) {
  const { bakeHook } = await import("./bake-hook.mjs");
  let hookSource;
  try {
    hookSource = readFileSync(hookFile, "utf8");
  } catch (e) {
    fail(1, `cannot read the hook ${hookFile}: ${e.message}`);
  }
  try {
    return bakeHook(parserSource, hookSource, relative(process.cwd(), hookFile) || hookFile);
  } catch (e) {
    fail(1, e.message);
  }
}
