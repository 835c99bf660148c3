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

// The hook in its own scope: its `module`/`exports` are its own, and a throw while it loads
// leaves no hook (the file still loads) rather than a file the host cannot evaluate.
function wrapHook(source) {
  return "var alHookFn = (function () {\n" +
    "var module = { exports: {} }, exports = module.exports;\n" +
    "try {\n" + source + "\n} catch (e) { return null; }\n" +
    'return typeof module.exports === "function" ? module.exports : null;\n' +
    "})();\n";
}

/** What ui-parser source `parserSource` becomes with the hook `hookSource` baked in. Throws
 * HookError when the hook or the result would not load in the host. `name` labels messages. */
export function bakeHook(parserSource, hookSource, name = "hook") {
  if (typeof hookSource !== "string" || hookSource.trim() === "") throw new HookError(`${name} is empty`);
  const found = scanForHost(hookSource);
  if (found.length) {
    throw new HookError(`${name}: the Paperclip host's source scanner would refuse the parser for ` +
      found.map((f) => `${f.rule} at line ${f.line}`).join("; ") +
      " (the host rejects these outside strings and comments; template literals and regex literals are not skipped)");
  }
  // The hook alone, evaluated the host's way (no eval, no network globals, self/globalThis
  // undefined): it must load without throwing and export a function.
  const ctx = vm.createContext({ console });
  vm.runInContext(HOST_DISABLED_GLOBALS.map((g) => `try { globalThis[${JSON.stringify(g)}] = undefined; } catch (e) {}`).join("\n"), ctx);
  let exported;
  try {
    const run = vm.runInContext("(function (self, globalThis) {\"use strict\";\nvar module = { exports: {} }, exports = module.exports;\n" +
      hookSource + "\nreturn module.exports;\n})", ctx, { filename: name, lineOffset: -2 });
    exported = run(undefined, undefined);
  } catch (e) {
    throw new HookError(`${name} does not load as the host would run it: ${e && e.message}`);
  }
  if (typeof exported !== "function") {
    throw new HookError(`${name} must set module.exports to a function (line, ts, ours) => entries | undefined; it exports ${typeof exported}`);
  }
  const runtime = readFileSync(join(dist, "hook.js"), "utf8");
  const stateful = /\bcreateStdoutParser\b/.test(parserSource);
  const exportsLine = stateful
    ? "module.exports = { parseStdoutLine: alHooked(alHookFn, parseStdoutLine), createStdoutParser: function (options) { return alHookedParser(alHookFn, options); } };\n"
    : "module.exports = { parseStdoutLine: alHooked(alHookFn, parseStdoutLine) };\n";
  const baked = parserSource.replace(/\n*$/, "\n") + runtime + `// ${name}, baked by agentlines-ui-parser --hook\n` + wrapHook(hookSource) + exportsLine;
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
