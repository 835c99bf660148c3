#!/usr/bin/env node
// The parts of the run viewer's shared HTML file (www/share.js) that `agentlines parse -o
// html` fills in: the page, its stylesheet and its modules joined into one script, around the
// title and the run's data. Written to cli/src/share-template.json, which the CLI includes at
// build time (so the CLI needs no Node), and checked by the tests to match www/:
//
//   node scripts/share-template.mjs           write it
//   node scripts/share-template.mjs --check   exit 1 if www/ changed since it was written
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const www = (p) => readFileSync(join(root, "www", p), "utf8");
const { bundle } = await import(pathToFileURL(join(root, "www", "bundle.js")).href);
const { sharedParts } = await import(pathToFileURL(join(root, "www", "share.js")).href);

const parts = await sharedParts(www("index.html"), www("style.css"), await bundle("app.js", www));
const out = join(root, "cli", "src", "share-template.json");
const text = JSON.stringify(parts) + "\n";
if (process.argv.includes("--check")) {
  let old = "";
  try { old = readFileSync(out, "utf8"); } catch { /* missing: stale */ }
  if (old !== text) {
    console.error("cli/src/share-template.json is stale: run node scripts/share-template.mjs");
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
  console.log(`wrote cli/src/share-template.json (${text.length} bytes)`);
}
