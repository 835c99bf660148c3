// The adapter-author recipe: pkg/dist/bin/agentlines-ui-parser.mjs copies a built ui-parser
// file into an adapter package (temp dirs, "type": "module" and CommonJS) and prints the
// package.json lines; after merging them, Node resolves <adapter>/ui-parser to the copy and
// the copy loads the host's way (tests/js/host.mjs) and parses a real Claude init line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, existsSync, mkdirSync, symlinkSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, loadHostStyle } from "./host.mjs";
import { loadAdapterUiParser } from "../../pkg-template/testing.mjs";

const BIN = join(root, "pkg", "dist", "bin", "agentlines-ui-parser.mjs");
const INIT = '{"type":"system","subtype":"init","model":"claude-sonnet-4-5","session_id":"abc"}';
const TS = "2026-01-01T00:00:00.000Z";

function adapter(pkg) {
  const base = mkdtempSync(join(tmpdir(), "al-bin-"));
  const dir = join(base, "node_modules", "my-adapter");
  mkdirSync(dir, { recursive: true });
  if (pkg) writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  return { base, dir };
}
const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
// The printed JSON object (everything from the first "{" line to the matching "}" line).
function printedLines(stdout) {
  const lines = stdout.split("\n");
  const a = lines.indexOf("{"), b = lines.indexOf("}");
  return JSON.parse(lines.slice(a, b + 1).join("\n"));
}

for (const [type, ext] of [["module", ".cjs"], ["commonjs", ".js"]]) {
  test(`"type": "${type}" adapter gets ui-parser${ext} and the lines that load it`, () => {
    const { base, dir } = adapter({ name: "my-adapter", version: "1.0.0", type, files: ["dist"] });
    try {
      const r = run(dir);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(existsSync(join(dir, `ui-parser${ext}`)));
      const lines = printedLines(r.stdout);
      assert.deepEqual(lines, { exports: { "./ui-parser": `./ui-parser${ext}` }, paperclip: { adapterUiParser: "1.0.0" } });
      assert.match(r.stdout, new RegExp(`"files" does not include ui-parser\\${ext}`));
      // Merge as the author would, then resolve through Node's exports map from outside.
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, ...lines }));
      const file = createRequire(join(base, "x.js")).resolve("my-adapter/ui-parser");
      assert.equal(file, join(dir, `ui-parser${ext}`));
      // Node's own loader (the file's extension must match the package type)...
      assert.equal(createRequire(join(base, "x.js"))("my-adapter/ui-parser").parseStdoutLine(INIT, TS)[0].kind, "init");
      // ...and the host's: text -> scanner-clean body of new Function(...).
      const mod = loadHostStyle(readFileSync(file, "utf8"));
      assert.deepEqual(JSON.parse(JSON.stringify(mod.parseStdoutLine(INIT, TS))), [{ kind: "init", ts: TS, model: "claude-sonnet-4-5", sessionId: "abc" }]);
      assert.equal(mod.createStdoutParser, undefined, "default is the stateless file");
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
}

test("--runtime, --stateful, --cjs and --out pick the file and its name", () => {
  const { base, dir } = adapter({ name: "my-adapter" });
  try {
    const r = run(dir, "--runtime", "codex", "--stateful", "--cjs", "--out", "lib/parser.cjs");
    assert.equal(r.status, 0, r.stderr);
    const copied = readFileSync(join(dir, "lib", "parser.cjs"), "utf8");
    assert.equal(copied, readFileSync(join(root, "pkg", "dist", "codex", "ui-parser.js"), "utf8"));
    assert.equal(printedLines(r.stdout).exports["./ui-parser"], "./lib/parser.cjs");
    assert.equal(typeof loadHostStyle(copied).createStdoutParser, "function");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("--runtime takes any name the parser takes: an adapter's (claude_local), any case (Claude)", () => {
  for (const name of ["claude_local", "Claude", "qwen"]) {
    const { base, dir } = adapter({ name: "my-adapter" });
    try {
      const r = run(dir, "--runtime", name, "--out", "parser.cjs");
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      const copied = readFileSync(join(dir, "parser.cjs"), "utf8");
      assert.equal(copied, readFileSync(join(root, "pkg", "dist", "claude", "ui-parser.stateless.js"), "utf8"), name);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
});

test("clear errors: no package.json, unknown runtime, .js in an ESM package, no directory", () => {
  const { base, dir } = adapter(null);
  try {
    let r = run(dir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no package\.json in /);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    r = run(dir, "--runtime", "cladue");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown runtime "cladue"; one of: .*claude/);
    r = run(dir, "--out", "ui-parser.js");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /"type": "module".*\.cjs/);
    r = run(dir, "--out", "ui-parser.mjs");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /CommonJS-style script/);
    r = run();
    assert.equal(r.status, 2);
    assert.match(r.stderr, /which adapter directory/);
    assert.ok(!existsSync(join(dir, "ui-parser.cjs")), "nothing copied on error");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("--write merges the lines into package.json, keeping the rest; then --check passes", () => {
  const { base, dir } = adapter(null);
  try {
    const before = { name: "my-adapter", version: "1.0.0", type: "module", main: "dist/index.js", files: ["dist"], paperclip: { other: 1 } };
    writeFileSync(join(dir, "package.json"), JSON.stringify(before, null, "\t") + "\n");
    const r = run(dir, "--write");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /wrote exports\["\.\/ui-parser"\]/);
    const text = readFileSync(join(dir, "package.json"), "utf8");
    assert.match(text, /^\t"name"/m, "the file's tab indentation is kept");
    assert.deepEqual(JSON.parse(text), {
      ...before,
      exports: { ".": "./dist/index.js", "./ui-parser": "./ui-parser.cjs" },
      files: ["dist", "ui-parser.cjs"],
      paperclip: { other: 1, adapterUiParser: "1.0.0" },
    });
    const file = createRequire(join(base, "x.js")).resolve("my-adapter/ui-parser");
    assert.equal(file, join(dir, "ui-parser.cjs"));
    const c = run(dir, "--check");
    assert.equal(c.status, 0, c.stderr);
    assert.match(c.stdout, /ui-parser\.cjs: agentlines \S+ ui-parser\.stateless\.js/);
    // A string "exports" becomes the "." entry.
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "a", exports: "./index.js" }));
    assert.equal(run(dir, "--write", "--runtime", "claude").status, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).exports, { ".": "./index.js", "./ui-parser": "./ui-parser.js" });
    assert.equal(run(dir, "--check").status, 0, "a one-runtime file is recognised");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("--check fails with the reason: stale or edited file, missing file, wrong exports or marker", () => {
  const { base, dir } = adapter({ name: "my-adapter", files: ["dist"] });
  try {
    assert.equal(run(dir, "--write").status, 0);
    const file = join(dir, "ui-parser.js");
    const good = readFileSync(file, "utf8");
    // After an upgrade: a file of another version.
    writeFileSync(file, good.replace(/^\/\/ agentlines \S+:/, "// agentlines 0.0.1:"));
    let r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /was built by agentlines 0\.0\.1; this is \S+: copy it again/);
    writeFileSync(file, good + "\n// edited\n");
    r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /differs from every ui-parser file/);
    rmSync(file);
    r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no such file/);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-adapter", paperclip: { adapterUiParser: "0.9" } }));
    r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /adapterUiParser is "0\.9", not "1\.0\.0"/);
    assert.match(r.stderr, /exports\["\.\/ui-parser"\] is undefined/);
    assert.equal(run(dir, "--check", "--stateful").status, 2, "--check takes no copy options");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("--version prints this package's version", () => {
  const r = run("--version");
  assert.equal(r.status, 0);
  const version = JSON.parse(readFileSync(join(root, "pkg", "package.json"), "utf8")).version;
  assert.equal(r.stdout, `agentlines-ui-parser ${version}\n`);
});

const HOOK = `module.exports = function (line, ts) {
  if (line.indexOf("MYCLI ") !== 0) return undefined;
  return [{ kind: "assistant", ts: ts, text: line.slice(6) }];
};
`;

// The package README's hook flow, run as it is written there (the fenced block after
// <!-- hook-flow -->): `npx` finds the bin in the adapter's node_modules, as after
// `npm install --save-dev agentlines`; then the same check from the repository's root, as a
// CI job runs it, and the baked file loaded the host's way.
test("a hook author's flow, verbatim from the package README: bake, --check in CI from any folder", () => {
  const readme = readFileSync(join(root, "pkg", "README.md"), "utf8");
  const block = /<!-- hook-flow -->\s*```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "pkg/README.md has the hook-flow block");
  const commands = block[1].split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean);
  assert.ok(commands.length >= 2 && commands.every((c) => c.startsWith("npx agentlines-ui-parser ")), commands.join("\n"));
  const repo = mkdtempSync(join(tmpdir(), "al-flow-"));
  const dir = join(repo, "packages", "my-adapter");
  try {
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(join(root, "pkg"), join(dir, "node_modules", "agentlines"));
    symlinkSync(join(dir, "node_modules", "agentlines", "dist", "bin", "agentlines-ui-parser.mjs"), join(dir, "node_modules", ".bin", "agentlines-ui-parser"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-adapter", version: "1.0.0", type: "module", files: ["dist"] }, null, 2) + "\n");
    writeFileSync(join(dir, "ui-hook.js"), HOOK);
    const sh = (cmd, cwd) => spawnSync("sh", ["-c", cmd], { cwd, encoding: "utf8", env: { ...process.env, npm_config_yes: "false", npm_config_offline: "true" } });
    for (const cmd of commands) {
      const r = sh(cmd, dir);
      assert.equal(r.status, 0, `${cmd}\n${r.stdout}${r.stderr}`);
    }
    // From the repository's root, as CI runs it: the same check on the adapter's folder.
    let r = sh("npx --prefix packages/my-adapter agentlines-ui-parser packages/my-adapter --check", repo);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /ui-parser\.cjs: agentlines \S+ ui-parser\.stateless\.js with the hook ui-hook\.js/);
    const { module } = loadAdapterUiParser(dir);
    assert.deepEqual(structuredClone(module.parseStdoutLine("MYCLI hi", TS)), [{ kind: "assistant", ts: TS, text: "hi" }]);
    // The hook changed and not baked again: --check names the hook.
    writeFileSync(join(dir, "ui-hook.js"), HOOK.replace("slice(6)", "slice(6).trim()"));
    r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /ui-parser\.cjs: the hook baked in differs from ui-hook\.js as it is now: bake it again \(--hook ui-hook\.js\)/);
    writeFileSync(join(dir, "ui-hook.js"), HOOK);
    assert.equal(run(dir, "--check").status, 0);
    // The parser part edited: named as such.
    const file = join(dir, "ui-parser.cjs");
    const baked = readFileSync(file, "utf8");
    writeFileSync(file, baked.replace("function alText(", "function alText2(v) { return v; }\nfunction alText("));
    r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /its parser part differs from every ui-parser file/);
    writeFileSync(file, baked);
    // The code joining the parts edited (the hook switched off): named as such.
    writeFileSync(file, baked.replace("return alMake(alHookFn);", "return alMake(null);"));
    r = run(dir, "--check");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /the code joining the parser and the hook differs/);
    writeFileSync(file, baked);
    // A hook whose own text holds a marker line: read back as the hook it is.
    const tricky = HOOK + "//@@AGENTLINES_HOOK other.js\n//@@AGENTLINES_RUNTIME\n";
    writeFileSync(join(dir, "ui-hook.js"), tricky);
    assert.equal(run(dir, "--hook", join(dir, "ui-hook.js")).status, 0);
    r = run(dir, "--check");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /with the hook ui-hook\.js/);
    writeFileSync(join(dir, "ui-hook.js"), tricky.replace("slice(6)", "slice(7)"));
    assert.equal(run(dir, "--check").status, 1, "a change to that hook is still found");
    writeFileSync(join(dir, "ui-hook.js"), HOOK);
    assert.equal(run(dir, "--hook", join(dir, "ui-hook.js")).status, 0);
    // The hook file gone (a CI checkout without it): the parser part is still checked.
    rmSync(join(dir, "ui-hook.js"));
    r = run(dir, "--check");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /baked with the hook ui-hook\.js, not found .*: its hook part is not checked/);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

test("a wired package is told so; --runtime base for a hook-only adapter, suggested with --hook", () => {
  const { base, dir } = adapter({ name: "my-adapter", type: "module" });
  try {
    writeFileSync(join(dir, "ui-hook.js"), HOOK);
    let r = run(dir, "--hook", join(dir, "ui-hook.js"), "--write");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /note: if agentlines reads none of your CLI's lines .*--runtime base is \d+ KB gzip instead of \d+ KB/);
    r = run(dir, "--hook", join(dir, "ui-hook.js"));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /already loads it \(exports\["\.\/ui-parser"\] = "\.\/ui-parser\.cjs"/);
    assert.doesNotMatch(r.stdout, /merge into/);
    r = run(dir, "--runtime", "base", "--hook", join(dir, "ui-hook.js"));
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /note: if agentlines reads none/);
    assert.match(r.stdout, /base\/ui-parser\.stateless\.js/);
    const c = run(dir, "--check");
    assert.equal(c.status, 0, c.stderr);
    assert.match(c.stdout, /base\/ui-parser\.stateless\.js with the hook ui-hook\.js/);
    const mod = loadHostStyle(readFileSync(join(dir, "ui-parser.cjs"), "utf8"));
    assert.deepEqual(structuredClone(mod.parseStdoutLine("MYCLI hi", TS)), [{ kind: "assistant", ts: TS, text: "hi" }]);
    // What base reads without the hook: entries, plain text; a runtime's line is a named event.
    assert.deepEqual(structuredClone(mod.parseStdoutLine('{"kind":"user","text":"q"}', TS)), [{ kind: "user", ts: TS, text: "q" }]);
    assert.deepEqual(structuredClone(mod.parseStdoutLine("plain", TS)), [{ kind: "stdout", ts: TS, text: "plain" }]);
    assert.equal(mod.parseStdoutLine(INIT, TS)[0].kind, "system");
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
