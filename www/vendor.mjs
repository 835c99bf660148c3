// Copies the viewer's one third-party library into www/vendor/ from node_modules (the page is
// served statically under a strict CSP, so it cannot load anything from a CDN or a bundler):
//   node www/vendor.mjs           copy (after `npm ci`)
//   node www/vendor.mjs --check   exit 1 if www/vendor/ differs from what a copy would write
// The version is pinned exactly in package.json (devDependencies) and checked here; the
// browser tests run --check, so a stale or hand-edited vendored file fails them.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "www", "vendor");

/** [{name, version, from, to, transform}]: what is vendored. */
export const VENDORED = [
  {
    name: "markdown-it",
    // The ESM browser build (all its dependencies bundled); the source-map comment is
    // dropped because the map is not vendored.
    from: "dist/browser/markdown-it.esm.min.mjs",
    to: "markdown-it.mjs",
    transform: (s) => s.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"),
  },
  { name: "markdown-it", from: "LICENSE", to: "markdown-it.LICENSE.txt", transform: (s) => s },
];

function pinned(name) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const v = pkg.devDependencies?.[name];
  if (!/^\d+\.\d+\.\d+$/.test(v || "")) throw new Error(`${name} must be pinned to an exact version in package.json (is ${v})`);
  return v;
}

/** What the vendored files must contain: [{to, text, sha256}]. */
export function expected() {
  return VENDORED.map((v) => {
    const dir = join(root, "node_modules", v.name);
    const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const want = pinned(v.name);
    if (meta.version !== want) throw new Error(`node_modules has ${v.name} ${meta.version}, package.json pins ${want}: run npm ci`);
    const text = v.transform(readFileSync(join(dir, v.from), "utf8"));
    return { to: v.to, text, version: want, sha256: createHash("sha256").update(text).digest("hex") };
  });
}

/** Files in www/vendor/ that differ from a fresh copy (empty when all is well). */
export function stale() {
  return expected().filter((e) => !existsSync(join(out, e.to)) || readFileSync(join(out, e.to), "utf8") !== e.text).map((e) => e.to);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes("--check")) {
    const bad = stale();
    if (bad.length) {
      console.error(`www/vendor/ is stale: ${bad.join(", ")} (run: npm ci && node www/vendor.mjs)`);
      process.exit(1);
    }
    console.log("www/vendor/ matches node_modules");
  } else {
    mkdirSync(out, { recursive: true });
    for (const e of expected()) {
      writeFileSync(join(out, e.to), e.text);
      console.log(`www/vendor/${e.to}: ${e.version}, ${e.text.length} bytes, sha256 ${e.sha256}`);
    }
  }
}
