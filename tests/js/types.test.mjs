// The type test (tests/types/, `tsc --strict` with the pinned TypeScript devDependency) over
// the built dist/*.d.ts and the pinned host types; and the RuntimeFormat union in
// pkg-template/index.d.ts kept equal to the names the core accepts (src/formats/mod.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./host.mjs";

test("tsc --strict: our types and @paperclipai/adapter-utils' are assignable both ways", () => {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tests", "types")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("tsc --strict: the npm entry as a user types it: `using` a parser, AgentlinesWasmError and its codes", () => {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tests", "types", "disposable")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("RuntimeFormat lists exactly the core's format names", () => {
  const rs = readFileSync(join(root, "src", "formats", "mod.rs"), "utf8");
  const table = /const FORMAT_NAMES[^=]*= &\[([\s\S]*?)\];/.exec(rs)[1];
  const core = [...table.matchAll(/\("([^"]+)",/g)].map((m) => m[1]).sort();
  const dts = readFileSync(join(root, "pkg-template", "index.d.ts"), "utf8");
  const union = /export type RuntimeFormat =([^;]*);/.exec(dts)[1];
  const ours = [...union.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
  assert.ok(core.length > 10);
  assert.deepEqual(ours, core);
});
