// The extension hook examples (examples/extend/<name>/: hook.js, capture.jsonl, expected.jsonl),
// for tests/js/extend.test.mjs and tests/browser/extend.test.mjs.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { root, linesOf } from "./host.mjs";

export const examplesDir = join(root, "examples", "extend");
export const EXAMPLES = readdirSync(examplesDir).filter((d) => existsSync(join(examplesDir, d, "hook.js"))).sort();

/** An example's hook, capture lines and expected entries (one array per line, or null). */
export function example(name) {
  const dir = join(examplesDir, name);
  const hook = readFileSync(join(dir, "hook.js"), "utf8");
  const lines = linesOf(readFileSync(join(dir, "capture.jsonl"), "utf8"));
  const expectedFile = join(dir, "expected.jsonl");
  const expected = existsSync(expectedFile) ? linesOf(readFileSync(expectedFile, "utf8")).map((l) => JSON.parse(l)) : null;
  return { dir, hook, lines, expected, expectedFile };
}
