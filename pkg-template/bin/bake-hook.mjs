// agentlines-ui-parser --hook: bakes an adapter author's hook into a ui-parser file (docs/extend.md).
//
// The hook is a CommonJS-style file whose module.exports is `function (line, ts, ours)`; it
// handles the lines the author knows and returns undefined for the rest. Baking appends the
// hook's runtime (../hook.js) and the hook, each in its own scope, to the chosen ui-parser
// file and re-exports the parser through it. Everything is checked here, before the file is
// written, so a hook the host would refuse fails now with a clear message instead of leaving
// the run view on the host's generic parser: the host's source scanner (../testing.mjs), the
// hook loading without throwing and exporting a function, the baked file loading the host's
// way and answering a few lines without throwing.
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { scanForHost, loadUiParser, HOST_DISABLED_GLOBALS } from "../testing.mjs";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A hook that cannot be baked; `message` says why, with the hook's line numbers. */
export class HookError extends Error {
  constructor(message) {
    super(message);
    this.name = "HookError";
  }
}

// The markers that make a baked file readable again (readBaked): where the parser, the
// runtime and the hook start, and what was baked.
const PARSER = "//@@AGENTLINES_PARSER ", RUNTIME = "//@@AGENTLINES_RUNTIME\n", HOOK = "//@@AGENTLINES_HOOK ", HOOK_END = "\n//@@AGENTLINES_HOOK_END\n";

/** Where a SyntaxError from vm points, as `line L, column C` of `name` (V8 puts it in the stack). */
function syntaxWhere(e, name) {
  const lines = String(e && e.stack).split("\n");
  const at = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:(\\d+)$`).exec(lines[0]);
  if (!at) return "";
  const caret = lines[2] !== undefined ? lines[2].indexOf("^") : -1;
  return ` at line ${at[1]}${caret >= 0 ? `, column ${caret + 1}` : ""} (${lines[1].trim().slice(0, 80)})`;
}

/** What ui-parser source `parserSource` becomes with the hook `hookSource` baked in. Throws
 * HookError when the hook or the result would not load in the host. `name` labels messages
 * and is recorded in the file (give it relative to the adapter package, as the bin does);
 * `base` names the parser file it was baked into. */
export function bakeHook(parserSource, hookSource, name = "hook", base = "ui-parser.js") {
  if (typeof hookSource !== "string" || hookSource.trim() === "") throw new HookError(`${name} is empty`);
  const found = scanForHost(hookSource);
  if (found.length) {
    throw new HookError(`${name}: the Paperclip host's source scanner would refuse the parser for ` +
      found.map((f) => `${f.rule} at line ${f.line}`).join("; ") +
      " (the host rejects these outside strings and comments; template literals and regex literals are not skipped)");
  }
  // The hook alone, evaluated the host's way (no eval, no network globals, self/globalThis
  // undefined): it must compile, load without throwing and export a function.
  const ctx = vm.createContext({ console });
  vm.runInContext(HOST_DISABLED_GLOBALS.map((g) => `try { globalThis[${JSON.stringify(g)}] = undefined; } catch (e) {}`).join("\n"), ctx);
  let script;
  try {
    script = new vm.Script("(function (self, globalThis) {\"use strict\";\nvar module = { exports: {} }, exports = module.exports;\n" +
      hookSource + "\nreturn module.exports;\n})", { filename: name, lineOffset: -2 });
  } catch (e) {
    throw new HookError(`${name} has a syntax error${syntaxWhere(e, name)}: ${e && e.message}`);
  }
  let exported;
  try {
    exported = script.runInContext(ctx)(undefined, undefined);
  } catch (e) {
    const at = /\n\s+at .*?:(\d+):(\d+)\)?$/m.exec(String(e && e.stack));
    throw new HookError(`${name} does not load as the host would run it: ${e && e.message}${at ? ` (line ${at[1]}, column ${at[2]})` : ""}`);
  }
  if (typeof exported !== "function") {
    throw new HookError(`${name} must set module.exports to a function (line, ts, ours) => entries | undefined; it exports ${exported === null ? "null" : typeof exported}`);
  }
  const baked = compose(parserSource, hookSource, name, base);
  const left = scanForHost(baked);
  if (left.length) throw new HookError(`the baked file would be refused by the host's scanner: ${left.map((f) => `${f.rule} at line ${f.line}`).join("; ")}`);
  let mod;
  try {
    mod = loadUiParser(baked);
  } catch (e) {
    throw new HookError(`the baked file does not load the host's way (${e.message}); check ${name} for a syntax error`);
  }
  for (const probe of ["", "hello", '{"type":"x"}']) {
    const got = mod.parseStdoutLine(probe, "2026-01-01T00:00:00.000Z");
    if (!Array.isArray(got)) throw new HookError(`the baked file answered ${JSON.stringify(probe)} with something that is not an array`);
  }
  return baked;
}

/** The baked file: the parser and the runtime in one function, the hook in another (neither
 * sees the other's names), joined by the first statement. The parser's first line stays the
 * file's first line (it names the agentlines version). No checks (bakeHook checks). */
export function compose(parserSource, hookSource, name, base) {
  const runtime = readFileSync(join(dist, "hook.js"), "utf8");
  const stateful = /\bcreateStdoutParser\b/.test(parserSource);
  const parser = parserSource.replace(/\n*$/, "\n");
  const hook = hookSource.replace(/\n*$/, "");
  return parser.slice(0, parser.indexOf("\n") + 1) +
    `// ${name}, baked into ${base} by agentlines-ui-parser --hook (docs/extend.md)\n` +
    "module.exports = (function (alMake, alHookFn) { return alMake(alHookFn); })((function () {\n" +
    "var module = { exports: {} }, exports = module.exports;\n" +
    PARSER + base + "\n" + parser + RUNTIME + runtime.replace(/\n*$/, "\n") +
    "return function (alHookFn) { return { parseStdoutLine: alHooked(alHookFn, parseStdoutLine)" +
    (stateful ? ", createStdoutParser: function (options) { return alHookedParser(alHookFn, options); }" : "") + " }; };\n" +
    "})(), (function () {\nvar module = { exports: {} }, exports = module.exports;\ntry {\n" +
    HOOK + name + "\n" + hook + HOOK_END +
    "} catch (e) { return null; }\nreturn typeof module.exports === \"function\" ? module.exports : null;\n})());\n";
}

/** A baked file taken apart: `{ base, parser, runtime, name, hook }` (the parser and runtime
 * sources as they were baked, the hook's recorded name and source), or null for a file that
 * is not one. */
export function readBaked(text) {
  // Each marker searched for after the one before it (a hook whose own text holds a marker
  // line cannot be taken for the real one, which comes first); the end marker from the end.
  const p = text.indexOf("\n" + PARSER), r = text.indexOf("\n" + RUNTIME, p + 1), h = text.indexOf("\n" + HOOK, r + 1), e = text.lastIndexOf(HOOK_END);
  if (p < 0 || r < p || h < r || e < h) return null;
  const baseEnd = text.indexOf("\n", p + 1 + PARSER.length);
  const runtimeEnd = text.lastIndexOf("\nreturn function (alHookFn)", h);
  const nameEnd = text.indexOf("\n", h + 1 + HOOK.length);
  if (baseEnd < 0 || runtimeEnd < r || nameEnd < 0 || nameEnd > e) return null;
  return {
    base: text.slice(p + 1 + PARSER.length, baseEnd),
    parser: text.slice(baseEnd + 1, r + 1),
    runtime: text.slice(r + 1 + RUNTIME.length, runtimeEnd + 1),
    name: text.slice(h + 1 + HOOK.length, nameEnd),
    hook: text.slice(nameEnd + 1, e),
  };
}

/** The hook source as a baked file holds it (what readBaked gives back for it). */
export const bakedHookText = (hookSource) => hookSource.replace(/\n*$/, "");
