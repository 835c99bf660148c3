// The publishable package (pkg/, written by scripts/assemble.mjs) as npm and a type-checker
// see it: `npm publish --dry-run` needs no correction from npm (npm 11 drops a "bin" entry
// it has to fix), and are-the-types-wrong finds every entry's types right under Node 16+
// resolution and bundlers. Entries that are ES modules only (agentlines/web,
// agentlines/testing) are meant for `import`; the wasm asset is not a module.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "./host.mjs";

const pkg = join(root, "pkg");

test("npm publish --dry-run: nothing for npm to correct, the bin and every entry packed", () => {
  const r = spawnSync("npm", ["publish", "--dry-run", "--json", "--ignore-scripts"], { cwd: pkg, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /auto-corrected|invalid and removed|npm pkg fix/, r.stderr);
  const out = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
  const files = new Map((out.files ?? out.agentlines?.files ?? []).map((f) => [f.path, f]));
  for (const f of ["package.json", "README.md", "LICENSE", "dist/index.cjs", "dist/index.mjs", "dist/index.d.mts",
    "dist/web/index.mjs", "dist/web/agentlines.wasm", "dist/claude/index.mjs", "dist/ui-parser.stateless.js", "dist/bin/agentlines-ui-parser.mjs"]) {
    assert.ok(files.has(f), `${f} is not in the package`);
  }
  assert.ok(files.get("dist/bin/agentlines-ui-parser.mjs").mode & 0o111, "the bin is not executable");
});

test("are-the-types-wrong: every entry's types resolve as its JavaScript does", () => {
  const attw = join(root, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
  const r = spawnSync(process.execPath, [attw, "--pack", ".", "--profile", "node16", "--format", "ascii",
    "--exclude-entrypoints", "./agentlines.wasm", "--ignore-rules", "cjs-resolves-to-esm"], { cwd: pkg, encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /"agentlines\/claude"/, "the per-runtime entries were checked");
});
