// Lists the bundled real samples for the run viewer: every tests/fixtures/<runtime>/<case>
// input (.jsonl/.ndjson/.txt/.log, not the .expected.jsonl goldens).
//   node www/build-samples.mjs        writes www/samples.json (for hosting www/ statically)
// www/serve.mjs calls listSamples() on every request for /www/samples.json instead, so the
// list is never stale while serving locally.
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const samples = listSamples();
  const file = join(repoRoot, "www", "samples.json");
  writeFileSync(file, JSON.stringify(samples, null, 1) + "\n");
  console.log(`wrote ${file}: ${samples.length} samples`);
}
