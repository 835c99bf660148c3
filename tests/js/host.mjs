// The Paperclip host's loading rules for tests and checks (docs/host.md),
// plus the fixture helpers.
import { loadUiParser } from "../../pkg-template/testing.mjs";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

// The scanner and the host-shaped loader are the package's agentlines/testing entry
// (pkg-template/testing.mjs); the tests and scripts/check-package.mjs use the same code.
export { codeOnly, scanForHost } from "../../pkg-template/testing.mjs";

/** Evaluates a ui-parser source the host's way in a fresh context; returns its exports
 * (no scanner: check-package reports scanner findings separately). */
export function loadHostStyle(src) {
  return loadUiParser(src, { scan: false });
}

export function loadHostFile(rel) {
  return loadHostStyle(readFileSync(join(root, rel), "utf8"));
}

/** The ts of fixture line i, as in tests/golden.rs. */
export function fixtureTs(i) {
  const p = (n) => String(n).padStart(2, "0");
  return `2026-01-01T${p(Math.floor(i / 3600) % 24)}:${p(Math.floor(i / 60) % 60)}:${p(i % 60)}.000Z`;
}

/** Lines as the host sees them (a final empty piece dropped). */
export function linesOf(text) {
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every golden fixture: [{runtime, input, expected}] (paths absolute). */
export function fixtures() {
  const dir = join(root, "tests", "fixtures");
  const out = [];
  for (const runtime of readdirSync(dir).sort()) {
    const d = join(dir, runtime);
    if (!statSync(d).isDirectory() || runtime === "conformance") continue;
    for (const f of readdirSync(d).sort()) {
      if (f.includes(".expected.") || !/\.(jsonl|ndjson|txt|log)$/.test(f)) continue;
      const stem = f.slice(0, f.lastIndexOf("."));
      out.push({ runtime, input: join(d, f), expected: join(d, `${stem}.expected.jsonl`) });
    }
  }
  return out;
}

/** Replays every fixture through a loaded parser module; returns a list of mismatch strings. */
export function replayGoldens(mod, { stateful = true, only = null, except = [] } = {}) {
  const problems = [];
  for (const fx of fixtures()) {
    if (only && ![only].flat().includes(fx.runtime)) continue;
    if (except.some((name) => fx.input.endsWith("/" + name))) continue;
    const lines = linesOf(readFileSync(fx.input, "utf8"));
    const expected = linesOf(readFileSync(fx.expected, "utf8")).map((l) => JSON.parse(l));
    const parser = stateful ? mod.createStdoutParser() : null;
    for (let i = 0; i < lines.length; i++) {
      const ts = fixtureTs(i);
      const got = stateful ? parser.parseLine(lines[i], ts) : mod.parseStdoutLine(lines[i], ts);
      const cloned = structuredClone(got);
      if (stateful && JSON.stringify(cloned) !== JSON.stringify(expected[i])) {
        problems.push(`${fx.input} line ${i + 1}:\n  got      ${JSON.stringify(got)}\n  expected ${JSON.stringify(expected[i])}`);
        break;
      }
      for (const e of got) {
        if (e.kind === "stdout" && /^\s*\{/.test(e.text)) {
          try { JSON.parse(e.text); problems.push(`${fx.input} line ${i + 1}: raw JSON as stdout`); } catch {}
        }
      }
    }
  }
  return problems;
}
