// What the wasm is made of (for size work; the targets: ui-parser.js <= 100 KiB gzip, a
// per-runtime build <= 60 KiB gzip).
//
//   node bench/size.mjs          (also run by bench/run.mjs)
//
// The shipped wasm (target/pkg-wasm/*.wasm) has no names. So the same crate is built again
// with the same features and names kept (profile `wasm`, strip off, into target/bench-names
// so the package build is untouched), wasm-opt'd with the package's flags plus -g (keep
// names) and --strip-dwarf, and listed with twiggy (`cargo install twiggy`). Sizes are raw
// bytes of the wasm, before base64 (x4/3) and gzip; the name section itself is left out.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { root, mdTable, hostFeatures } from "./lib.mjs";

const FLAGS = ["-O2", "-ocimfs", "0", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-mutable-globals", "--enable-simd", "--strip-producers", "--strip-dwarf", "-g"];

const PRIMITIVE = new Set(["f64", "f32", "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
  "str", "bool", "char", "T", "&", "mut", "dyn"]);

/** Where an item comes from: the crate (agentlines: its module), data, or a wasm section. */
export function ownerOf(name) {
  if (name.startsWith("data segment")) return "data segments (.rodata: strings, tables)";
  if (/^(type\[|export |import |elem|global|table|memory|wasm magic)|section headers$/.test(name)) {
    return "wasm structure (types, exports, headers)";
  }
  if (!/::/.test(name)) return "C-named functions (memcpy, al_* exports, …)";
  for (const m of name.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::([A-Za-z_][A-Za-z0-9_]*)?/g)) {
    const crate = m[1];
    if (PRIMITIVE.has(crate) || crate === "_" || crate === "impl") continue;
    if (crate === "agentlines") {
      const rest = name.slice(m.index).split("::");
      const mod = rest[1] === "formats" && /^[a-z_]+$/.test(rest[2] ?? "") && rest.length > 3 ? rest[2] : "";
      return mod ? `agentlines::formats::${mod}` : `agentlines::${rest[1].replace(/[^A-Za-z0-9_].*$/, "")}`;
    }
    return crate.replace(/_core$/, "") === "serde" ? "serde" : crate;
  }
  return "other";
}

/** Builds the crate with `features` (no defaults) keeping names; lists it with twiggy. */
function listing(features, notes) {
  const targetDir = join(root, "target", "bench-names");
  const raw = join(targetDir, "wasm32-unknown-unknown", "wasm", "agentlines.wasm");
  const named = join(targetDir, `${features.replace(/,/g, "+")}.named.opt.wasm`);
  console.error(`[bench] wasm with names, --features ${features} (target/bench-names)`);
  const b = spawnSync("cargo", ["build", "--quiet", "-p", "agentlines", "--lib", "--target", "wasm32-unknown-unknown", "--profile", "wasm",
    "--no-default-features", "--features", features, "--target-dir", targetDir],
  { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, CARGO_PROFILE_WASM_STRIP: "false" } });
  if (b.status !== 0) {
    notes.push(`the names build (--features ${features}) failed: its size listing was skipped.`);
    return null;
  }
  const o = spawnSync("wasm-opt", [...FLAGS, raw, "-o", named], { stdio: "inherit" });
  if (o.status !== 0) {
    notes.push(`wasm-opt on the names build (--features ${features}) failed: its size listing was skipped.`);
    return null;
  }
  const t = spawnSync("twiggy", ["top", "-n", "100000", "--format", "json", named], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (t.status !== 0) {
    notes.push(`twiggy failed (${t.stderr.trim().slice(0, 200)}): the size listing was skipped.`);
    return null;
  }
  const items = JSON.parse(t.stdout).filter((i) => !/^"?[a-z ]*names"? subsection|custom section 'name'/.test(i.name));
  const total = items.reduce((a, i) => a + i.shallow_size, 0);
  const byOwner = new Map();
  for (const i of items) {
    const o = ownerOf(i.name);
    const v = byOwner.get(o) ?? { bytes: 0, n: 0 };
    v.bytes += i.shallow_size;
    v.n++;
    byOwner.set(o, v);
  }
  return { features, items, total, byOwner };
}

/**
 * Size listings of the host build (the features of dist/ui-parser.js, from the Makefile) and
 * of one per-runtime build (dist/claude/ui-parser.js), side by side by crate/module,
 * then the largest items of the host build.
 */
export function sizeReport({ top = 20, builds = [hostFeatures(), hostFeatures("claude")] } = {}) {
  const notes = [];
  const has = (cmd) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;
  if (!has("twiggy")) {
    notes.push("twiggy not found (`cargo install twiggy`): the wasm size listing was skipped.");
    return { markdown: "", notes };
  }
  const lists = builds.map((f) => listing(f, notes)).filter(Boolean);
  if (!lists.length) return { markdown: "", notes };
  const shippedOf = (f) => {
    const name = f === hostFeatures() ? "host" : f.split(",")[0];
    const file = join(root, "target", "pkg-wasm", `${name}.wasm`);
    return existsSync(file) ? statSync(file).size : null;
  };
  const owners = [...lists[0].byOwner.entries()].sort((a, b) => b[1].bytes - a[1].bytes).map(([o]) => o);
  for (const l of lists.slice(1)) for (const o of l.byOwner.keys()) if (!owners.includes(o)) owners.push(o);
  const pct = (n, t) => `${((100 * n) / t).toFixed(1)}%`;
  const ownerRows = owners.map((o) => [o, ...lists.flatMap((l) => {
    const v = l.byOwner.get(o);
    return v ? [String(v.bytes), pct(v.bytes, l.total)] : ["—", ""];
  })]);
  ownerRows.push(["**total** (names build, no name section)", ...lists.flatMap((l) => [String(l.total), "100%"])]);
  ownerRows.push(["shipped wasm (target/pkg-wasm, stripped)", ...lists.flatMap((l) => [String(shippedOf(l.features) ?? "—"), ""])]);
  const clean = (n) => n.replace(/\[[0-9a-f]{16}\]/g, "").replace(/::h[0-9a-f]{16}$/, "");
  const main = lists[0];
  const topRows = main.items.slice().sort((a, b) => b.shallow_size - a.shallow_size).slice(0, top)
    .map((i) => [`\`${clean(i.name).slice(0, 110).replace(/\|/g, "\\|")}\``, String(i.shallow_size), pct(i.shallow_size, main.total), ownerOf(i.name)]);
  const markdown = [
    "#### Wasm size by crate / module (raw wasm bytes, before it is written into the .js and gzipped)",
    "",
    mdTable(["crate or module", ...lists.flatMap((l) => [`--features ${l.features}`, "share"])], ownerRows),
    "",
    `#### Largest ${top} items, --features ${main.features} (twiggy top)`,
    "",
    mdTable(["item", "bytes", "share", "counted under"], topRows),
  ].join("\n");
  return { markdown, notes, lists };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = sizeReport({ top: 25 });
  console.log(r.markdown);
  for (const n of r.notes) console.log(`> ${n}`);
}
