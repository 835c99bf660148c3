// What the wasm is made of (for size work; budgets: ui-parser.js <= 120 KB gzip, a
// per-runtime build <= 45 KB gzip).
//
//   node bench/size.mjs          (also run by bench/run.mjs)
//
// The shipped wasm (target/agentlines.opt.wasm) has no names. So the same crate is built
// again with names kept (profile `wasm`, strip off, into target/bench-names so the package
// build is untouched), wasm-opt'd with the package's flags plus -g (keep names) and
// --strip-dwarf, and listed with twiggy (`cargo install twiggy`). Sizes are raw bytes of
// the wasm, before base64 (x4/3) and gzip; the name section itself is left out.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { root, mdTable } from "./lib.mjs";

const FLAGS = ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-mutable-globals", "--strip-producers", "--strip-dwarf", "-g"];

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

export function sizeReport({ top = 15 } = {}) {
  const notes = [];
  const has = (cmd) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;
  if (!has("twiggy")) {
    notes.push("twiggy not found (`cargo install twiggy`): the wasm size listing was skipped.");
    return { markdown: "", notes };
  }
  const targetDir = join(root, "target", "bench-names");
  const raw = join(targetDir, "wasm32-unknown-unknown", "wasm", "agentlines.wasm");
  const named = join(targetDir, "agentlines.named.opt.wasm");
  console.error("[bench] building a wasm with names for the size listing (target/bench-names)");
  const b = spawnSync("cargo", ["build", "--quiet", "--lib", "--target", "wasm32-unknown-unknown", "--profile", "wasm",
    "--target-dir", targetDir], { cwd: root, stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CARGO_PROFILE_WASM_STRIP: "false" } });
  if (b.status !== 0) {
    notes.push("the names build failed: the wasm size listing was skipped.");
    return { markdown: "", notes };
  }
  if (!existsSync(named) || statSync(named).mtimeMs < statSync(raw).mtimeMs) {
    const o = spawnSync("wasm-opt", [...FLAGS, raw, "-o", named], { stdio: "inherit" });
    if (o.status !== 0) {
      notes.push("wasm-opt on the names build failed: the wasm size listing was skipped.");
      return { markdown: "", notes };
    }
  }
  const t = spawnSync("twiggy", ["top", "-n", "100000", "--format", "json", named], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (t.status !== 0) {
    notes.push(`twiggy failed (${t.stderr.trim().slice(0, 200)}): the wasm size listing was skipped.`);
    return { markdown: "", notes };
  }
  const items = JSON.parse(t.stdout).filter((i) => !/"function names" subsection|custom section 'name'|^"?[a-z]+ names"? subsection/.test(i.name));
  const total = items.reduce((a, i) => a + i.shallow_size, 0);
  const shipped = join(root, "target", "agentlines.opt.wasm");
  const shippedSize = existsSync(shipped) ? statSync(shipped).size : 0;
  const pct = (n) => `${((100 * n) / total).toFixed(1)}%`;
  const clean = (n) => n.replace(/\[[0-9a-f]{16}\]/g, "").replace(/::h[0-9a-f]{16}$/, "");
  const topRows = items.slice().sort((a, b) => b.shallow_size - a.shallow_size).slice(0, top)
    .map((i) => [`\`${clean(i.name).slice(0, 110).replace(/\|/g, "\\|")}\``, String(i.shallow_size), pct(i.shallow_size)]);
  const byOwner = new Map();
  for (const i of items) {
    const o = ownerOf(i.name);
    const v = byOwner.get(o) ?? { bytes: 0, n: 0 };
    v.bytes += i.shallow_size;
    v.n++;
    byOwner.set(o, v);
  }
  const ownerRows = [...byOwner.entries()].sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([o, v]) => [o, String(v.n), String(v.bytes), pct(v.bytes)]);
  const markdown = [
    `#### Wasm size by crate / module (names build: ${total} bytes without the name section; the shipped wasm: ${shippedSize} bytes)`,
    "",
    mdTable(["crate or module", "items", "bytes", "share"], ownerRows),
    "",
    `#### Largest ${top} items (twiggy top)`,
    "",
    mdTable(["item", "bytes", "share"], topRows),
  ].join("\n");
  return { markdown, notes, total, byOwner };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = sizeReport({ top: 25 });
  console.log(r.markdown);
  for (const n of r.notes) console.log(`> ${n}`);
}
