// The package README's hook-author flow, each block run as it is written there: the bake and
// the CI check (the ```sh block after <!-- hook-flow -->, through `npx` in an adapter whose
// node_modules holds the built package), then the two test files it shows (after
// <!-- hook-flow-node --> and <!-- hook-flow-chromium -->), saved in the adapter and run with
// node: the baked hook must read the captured run's lines in Node and in real Chromium.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, symlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath } from "./chromium.mjs";

const root = new URL("../..", import.meta.url).pathname;
const readme = readFileSync(join(root, "pkg", "README.md"), "utf8");
const block = (marker, lang) => {
  const m = new RegExp(`<!-- ${marker} -->\\s*\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(readme);
  assert.ok(m, `pkg/README.md: no ${lang} block after <!-- ${marker} -->`);
  return m[1];
};

test("the package README's hook flow, verbatim: bake, --check, the Node test and the Chromium test", () => {
  const dir = mkdtempSync(join(tmpdir(), "al-hook-flow-"));
  try {
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(join(root, "pkg"), join(dir, "node_modules", "agentlines"));
    symlinkSync(join(root, "node_modules", "playwright-core"), join(dir, "node_modules", "playwright-core"));
    symlinkSync(join(dir, "node_modules", "agentlines", "dist", "bin", "agentlines-ui-parser.mjs"), join(dir, "node_modules", ".bin", "agentlines-ui-parser"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-adapter", version: "1.0.0", type: "module" }, null, 2) + "\n");
    writeFileSync(join(dir, "ui-hook.js"), `module.exports = function (line, ts) {
  if (line.indexOf("MYCLI ") !== 0) return undefined;
  return [{ kind: "assistant", ts: ts, text: line.slice(6) }];
};
`);
    mkdirSync(join(dir, "test"));
    writeFileSync(join(dir, "test", "run.log"), 'MYCLI hello from the hook\n{"kind":"user","text":"an entry line"}\nplain text\n');
    const env = { ...process.env, CHROMIUM: chromiumPath(), npm_config_offline: "true" };
    for (const cmd of block("hook-flow", "sh").split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean)) {
      const r = spawnSync("sh", ["-c", cmd], { cwd: dir, encoding: "utf8", env });
      assert.equal(r.status, 0, `${cmd}\n${r.stdout}${r.stderr}`);
    }
    for (const [marker, file] of [["hook-flow-node", "test/host.mjs"], ["hook-flow-chromium", "test/browser.mjs"]]) {
      const source = block(marker, "js");
      assert.ok(source.startsWith(`// ${file} `), `${marker}: the block names its file (${file})`);
      writeFileSync(join(dir, file), source);
      const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", env, timeout: 60000 });
      assert.equal(r.status, 0, `${file}\n${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /kind: 'assistant'[\s\S]*text: 'hello from the hook'/, `${file}: the hook read its line`);
      assert.match(r.stdout, /kind: 'user'[\s\S]*text: 'an entry line'/, `${file}: agentlines read the rest`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
