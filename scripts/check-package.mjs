// Checks the assembled package instead of trusting it. Fails (exit 1) when:
// - a host-loaded file trips the host's source scanner (tests/js/host.mjs re-creates it);
// - a ui-parser file is over its gzip budget;
// - a file does not load the host's way, or replaying the golden fixtures through it gives
//   other output than the goldens;
// - pkg/package.json lacks the contract's fields or points at missing files.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root, scanForHost, loadHostFile, replayGoldens } from "../tests/js/host.mjs";

// Size, in gzip bytes. The targets (100 KiB with every runtime, 60 KiB for one runtime) are
// reported on every build; the check fails past the hard ceilings below, which catch a
// regression without failing every build on a target we know we miss. Where each file stands
// against its target, and why: docs/bench.md, "Where it stands"; how the files got there,
// step by step: docs/bench.md, "Decisions". The default file met its 100 KiB target with the
// 13 runtimes it read until the entries pass-through, the wrapped event lines and the new CLIs'
// readers came in (docs/bench.md, "The size target and the new formats": what each costs);
// those took the default file to 115.6 KB and the stateful ui-parser.js to 126.3 KB, and
// every per-runtime file by about 6 KB (Codex's stateful file to 66.1 KB). The fixes to totals,
// subagents, error text, edit diffs and plain text that followed took the full file past its
// first ceiling (docs/bench.md has what they add); the GitHub Copilot CLI reader added 2.1 KB
// to the default file and 2.6 KB to the full one, Factory Droid's 0.7 KB and 0.8 KB, Goose's
// 1.4 KB and 1.3 KB, Kiro's text reader 2.4 KB and 2.9 KB. What a cost estimate needs on a
// result (its model, reasoning, an hour's cache writes, a model call's id), counts clamped to
// what a log can mean, CR-only records, errors that quote a JSON body and Goose's fixes
// (2026-12-07) took the default file to 131.4 KB and the stateful Claude and Amp files to
// 72.3 KB. Reading back lines the released host's secret redaction broke (the first real
// Paperclip class not of any runtime: 11 of 199 redacted lines of the fixtures and corpus)
// took 1.0 KB in every file, pi's RPC mode and usage rows that say what they count 0.7 KB in
// the default file: the stateful ui-parser.js past its 150,000 (2026-12-07), now 152,000.
// Amplifier's bridge reader took 0.8 KB in the default file and 1.3 KB in the stateful one
// (its call numbering), past 152,000: now 154,000.
// Claw Code's reader took 1.5 KB in the default file (137.2 KB) and 1.6 KB in the stateful
// one, past 154,000: now 156,000.
// The ceilings are the budgets decided for 25 formats, in this file's unit (KiB): default
// file 135 KiB, each per-runtime file 72 KiB; the stateful ui-parser.js has none (~1% above
// today). A new module that needs more says so here.
// The base files (no runtime reader: a hook-only adapter's, docs/extend.md) have a ceiling of
// their own, ~3% above what they measured when they came in (38.3 and 43.8 KB): they are the
// floor every other file stands on, and what a hook author pays.
const TARGET = { default: 100 * 1024, full: 100 * 1024, runtime: 60 * 1024, base: 40 * 1024 };
const CEILING = { default: 135 * 1024, full: 156_000, runtime: 72 * 1024, base: 48 * 1024 };
const RUNTIMES = ["claude", "codex", "gemini", "opencode", "cursor", "pi", "openclaw", "amp", "acp", "grok", "kimi", "cursor_cloud", "hermes", "cline", "letta", "openhands", "openrouter", "agy", "copilot", "droid", "goose", "kiro", "amplifier", "claw"];
const BUDGET = {};
BUDGET["dist/ui-parser.js"] = "full";
BUDGET["dist/ui-parser.stateless.js"] = "default";
for (const r of RUNTIMES) {
  BUDGET[`dist/${r}/ui-parser.js`] = "runtime";
  BUDGET[`dist/${r}/ui-parser.stateless.js`] = "runtime";
}
BUDGET["dist/base/ui-parser.js"] = "base";
BUDGET["dist/base/ui-parser.stateless.js"] = "base";

// The runtimes a per-runtime file also reads: its Cargo feature's (`openclaw = ["pi"]`).
const features = readFileSync(join(root, "Cargo.toml"), "utf8");
const reads = (r) => [r, ...[...(new RegExp(`^${r} = \\[(.*)\\]$`, "m").exec(features)?.[1] ?? "").matchAll(/"(\w+)"/g)].map((m) => m[1])];
// The base files read what every file reads with no runtime: entry lines, prefixes, plain text
// (not the plain-text captures of adapters whose lines carry a runtime's events).
const readsOf = (r) => (r === "base" ? ["entries", "plain"] : reads(r));
const BASE_SKIPS = ["adapter-envelopes.txt", "clawclip-adapter-log.txt", "openclaw-bridge-adapter-log.txt", "openclaw-gateway-adapter-log.txt"];

const errors = [];
const rows = [];
const measured = {};
for (const [file, scope] of Object.entries(BUDGET)) {
  const budget = CEILING[scope];
  const path = join(root, file);
  if (!existsSync(path)) {
    errors.push(`${file} is missing (run make dist)`);
    continue;
  }
  const src = readFileSync(path, "utf8");
  for (const f of scanForHost(src)) errors.push(`${file}:${f.line}: the host would refuse it (${f.rule})`);
  const gz = gzipSync(src, { level: 9 }).length;
  const over = gz > TARGET[scope] ? ` — over the ${TARGET[scope]} target by ${gz - TARGET[scope]}` : " — within target";
  rows.push(`${file}: ${Buffer.byteLength(src)} bytes, ${gz} gzip (ceiling ${budget})${over}`);
  measured[file] = { gz, firstMs: NaN };
  if (gz > budget) errors.push(`${file}: ${gz} gzip bytes is over the ${budget} ceiling`);
  let mod;
  try {
    const t0 = performance.now();
    mod = loadHostFile(file);
    mod.parseStdoutLine("warm-up", "2026-01-01T00:00:00.000Z");
    measured[file].firstMs = performance.now() - t0;
    rows.push(`${file}: evaluated and first call (wasm decode+compile+instantiate) in ${measured[file].firstMs.toFixed(1)} ms`);
  } catch (e) {
    errors.push(`${file}: does not load the host's way: ${e && e.message}`);
    continue;
  }
  const stateful = typeof mod.createStdoutParser === "function";
  // A per-runtime build replays its own runtime's goldens; the full build replays them all.
  const only = file.split("/").length === 3 ? readsOf(file.split("/")[1]) : null;
  for (const p of replayGoldens(mod, { stateful, only, except: file.startsWith("dist/base/") ? BASE_SKIPS : [] })) errors.push(`${file}: ${p}`);
}

const pkgPath = join(root, "pkg", "package.json");
if (!existsSync(pkgPath)) {
  errors.push("pkg/package.json is missing");
} else {
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  if (pkg?.paperclip?.adapterUiParser !== "1.0.0") errors.push('package.json: paperclip.adapterUiParser must be "1.0.0"');
  const target = pkg?.exports?.["./ui-parser"];
  if (typeof target !== "string") errors.push('package.json: exports["./ui-parser"] missing');
  const targets = [target, pkg?.exports?.["./ui-parser-stateful"], pkg.types, pkg.main, pkg.module,
    ...Object.values(pkg?.exports?.["."] ?? {}), ...Object.values(pkg.bin ?? {})];
  // Every exported file (per-runtime ones included), and a .d.ts beside each ui-parser file.
  for (const [k, t] of Object.entries(pkg?.exports ?? {})) {
    if (typeof t !== "string") continue;
    targets.push(t);
    if (k.includes("ui-parser") && !existsSync(join(root, "pkg", t.replace(/\.js$/, ".d.ts")))) {
      errors.push(`package.json: ${k} has no .d.ts beside ${t}`);
    }
  }
  for (const r of [...RUNTIMES, "base"]) {
    if (pkg?.exports?.[`./${r}/ui-parser`] !== `./dist/${r}/ui-parser.stateless.js`) errors.push(`package.json: exports["./${r}/ui-parser"] missing`);
  }
  for (const t of targets) {
    if (typeof t === "string" && !existsSync(join(root, "pkg", t))) errors.push(`package.json points at missing ${t}`);
  }
  if (!Array.isArray(pkg.files) || !pkg.files.includes("dist")) errors.push('package.json: "files" must include dist');
  if (typeof pkg.license !== "string") errors.push("package.json: license missing");
  if (typeof pkg?.engines?.node !== "string") errors.push("package.json: engines.node missing");
  if (pkg.repository !== undefined && /example\.|invalid/.test(JSON.stringify(pkg.repository))) errors.push("package.json: repository is a placeholder");
  if (existsSync(join(root, "LICENSE")) && !existsSync(join(root, "pkg", "LICENSE"))) errors.push("pkg/LICENSE missing");
}

for (const r of rows) console.log(r);
// The README's sentence on sizes and the first call, from these measures (never copied by hand).
if (errors.length === 0 && !process.argv.includes("--no-write")) {
  const { writeDocSection } = await import("../bench/doc.mjs");
  const fmt = (n) => n.toLocaleString("en-US");
  const runtimeFiles = Object.keys(measured).filter((f) => /^dist\/\w+\/ui-parser/.test(f) && !f.startsWith("dist/base/"));
  const maxRuntime = Math.max(...runtimeFiles.map((f) => measured[f].gz));
  writeDocSection("sizes", [
    `Sizes (gzip, \`make dist\`'s check, ${new Date().toISOString().slice(0, 10)}): the default \`ui-parser.stateless.js\` ${fmt(measured["dist/ui-parser.stateless.js"].gz)} bytes`,
    `(budget 135 KiB; 99,202 when it read 13 runtimes, each one's cost:`,
    `[bench.md](docs/bench.md#the-size-target-and-the-new-formats)); per-runtime files up to ${fmt(maxRuntime)}`,
    `(budget 72 KiB); the base file for a hook-only adapter ${fmt(measured["dist/base/ui-parser.stateless.js"].gz)}. First call (evaluate, compile, first parse)`,
    `${measured["dist/ui-parser.stateless.js"].firstMs.toFixed(1)} ms (budget 15 ms); memory flat over a million lines.`,
  ].join("\n"), "../README.md");
}
if (errors.length) {
  console.error(`check-package: ${errors.length} problem(s)`);
  for (const e of errors) console.error("  " + e);
  process.exit(1);
}
console.log("check-package: ok");
