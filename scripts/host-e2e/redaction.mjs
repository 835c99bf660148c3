// `make host-e2e`, part 5: the released server's secret redaction against our reader. The
// server stores every log chunk through `redactSensitiveText` (@paperclipai/server
// dist/redaction.js); where that breaks a JSON line (a string ending in "tokens:" read as a
// secret's name, an assignment's value taken with the backslash of an escaped quote), our
// file must read the stored line as the entries of the line as written (their kinds, calls
// and ids; a redacted text differs by the marker). Runs on every fixture and the corpus.
import { readFileSync, readdirSync, copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

export async function redactionCheck(p, root, parserFile, corpus) {
  const { redactSensitiveText } = await import(pathToFileURL(join(p.nm, "@paperclipai", "server", "dist", "redaction.js")));
  // The built file as the host loads it: CommonJS (the repository's package.json says ESM).
  mkdirSync(p.work, { recursive: true });
  const cjs = join(p.work, "ui-parser.cjs");
  copyFileSync(parserFile, cjs);
  const parser = createRequire(import.meta.url)(cjs);
  const files = [];
  const dirs = [join(root, "tests", "fixtures"), ...(corpus ? [corpus] : [])];
  for (const d of dirs) {
    for (const sub of readdirSync(d, { withFileTypes: true })) {
      if (!sub.isDirectory()) continue;
      for (const f of readdirSync(join(d, sub.name))) if (/\.(jsonl|ndjson)$/.test(f) && !f.endsWith(".expected.jsonl")) files.push(join(d, sub.name, f));
    }
  }
  const shape = (line) => parser.parseStdoutLine(line, "2026-01-01T00:00:00.000Z").map((e) => `${e.kind}:${e.toolUseId ?? ""}:${e.name ?? ""}`).join(",");
  let redacted = 0, broken = 0;
  const wrong = [];
  for (const f of files) {
    for (const line of readFileSync(f, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      const stored = redactSensitiveText(line);
      if (stored === line) continue;
      redacted++;
      try { JSON.parse(stored); continue; } catch {}
      broken++;
      if (shape(stored) !== shape(line)) wrong.push(`${f}: ${stored.slice(0, 120)}`);
    }
  }
  return { files: files.length, redacted, broken, wrong };
}
