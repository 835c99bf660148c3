// Lists what the run viewer offers: the bundled real samples (every
// tests/fixtures/<runtime>/<case> input: .jsonl/.ndjson/.txt/.log, not the .expected.jsonl
// goldens) and the built parsers (dist/ui-parser*.js and dist/<runtime>/ui-parser*.js).
//   node www/build-samples.mjs   writes www/samples.json and www/parsers.json (for hosting
//                                www/ statically next to dist/ and tests/fixtures/)
// www/serve.mjs calls these functions on every request for those two files instead, so the
// lists are never stale while serving locally.
import { readdirSync, statSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

const INPUT = /\.(jsonl|ndjson|txt|log)$/;

/** [{runtime, name, path, bytes, lines, golden}] sorted by runtime then name; path is
 * relative to the repo root (the server maps it to a URL 1:1). */
export function listSamples(root = repoRoot) {
  const dir = join(root, "tests", "fixtures");
  if (!existsSync(dir)) return [];
  const out = [];
  for (const runtime of readdirSync(dir).sort()) {
    const d = join(dir, runtime);
    if (runtime === "conformance" || !statSync(d).isDirectory()) continue;
    for (const f of readdirSync(d).sort()) {
      if (f.includes(".expected.") || !INPUT.test(f)) continue;
      const full = join(d, f);
      const st = statSync(full);
      if (!st.isFile()) continue;
      const stem = f.slice(0, f.lastIndexOf("."));
      const text = readFileSync(full, "utf8");
      let lines = text.split("\n").length;
      if (text.endsWith("\n")) lines--;
      out.push({
        runtime,
        name: f,
        path: `tests/fixtures/${runtime}/${f}`,
        bytes: st.size,
        lines,
        golden: existsSync(join(d, `${stem}.expected.jsonl`)),
      });
    }
  }
  return out;
}

/** [{path, runtime, stateless, batch, bytes}]: the built parsers, the viewer's default (the
 * npm entry) first, then the host's all-runtime files. */
export function listParsers(root = repoRoot) {
  const dist = join(root, "dist");
  const out = [];
  const add = (rel, runtime) => {
    const full = join(root, rel);
    if (!existsSync(full)) return;
    out.push({ path: rel, runtime, stateless: rel.endsWith(".stateless.js"), batch: rel.endsWith(".cjs"), bytes: statSync(full).size });
  };
  add("dist/index.cjs", "all");
  add("dist/ui-parser.js", "all");
  add("dist/ui-parser.stateless.js", "all");
  if (existsSync(dist)) {
    for (const d of readdirSync(dist).sort()) {
      if (!/^[\w-]+$/.test(d) || !statSync(join(dist, d)).isDirectory()) continue;
      add(`dist/${d}/ui-parser.js`, d);
      add(`dist/${d}/ui-parser.stateless.js`, d);
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [name, list] of [["samples.json", listSamples()], ["parsers.json", listParsers()]]) {
    const file = join(repoRoot, "www", name);
    writeFileSync(file, JSON.stringify(list, null, 1) + "\n");
    console.log(`wrote ${file}: ${list.length} entries`);
  }
}
