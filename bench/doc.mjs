// Writes a generated block into docs/bench.md (or another file under docs/) between `<!-- bench:NAME:begin -->` and
// `<!-- bench:NAME:end -->`, leaving the hand-written text around it alone.
import { readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib.mjs";

export function writeDocSection(name, md, docName = "bench.md") {
  const file = join(root, "docs", docName);
  const begin = `<!-- bench:${name}:begin -->`;
  const end = `<!-- bench:${name}:end -->`;
  mkdirSync(join(root, "docs"), { recursive: true });
  let doc = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const block = `${begin}\n${md.trim()}\n${end}`;
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) doc = doc.slice(0, a) + block + doc.slice(b + end.length);
  else doc = doc.trimEnd() + "\n\n" + block + "\n";
  writeFileSync(file, doc);
}
