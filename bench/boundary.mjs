// The JS <-> wasm boundary, measured: where a stateless
// `parseStdoutLine` call spends its time, and whether wasm-bindgen + serde-wasm-bindgen
// (JS objects built from Rust) beats one JSON string + JSON.parse.
//
//   node bench/boundary.mjs [--passes N] [--no-bindgen]      (also run by bench/run.mjs)
//
// (a) the shipped glue: dist/ui-parser.stateless.js loaded the host's way.
// (b) the same glue, instrumented: a copy of its source with a probe appended that exposes
//     its internal functions, so each step can be run on its own. Steps are timed
//     cumulatively over the whole log (encode; encode+parse; …+decode; …+JSON.parse), and
//     each step's cost is the difference; the shipped file is never changed.
// (c) wasm-bindgen: the crate built with `--features bindgen` into target/bench-bindgen,
//     `wasm-bindgen --target nodejs` into bench/.bindgen (not wasm-opt'd: binaryen 108 breaks
//     its externref table; rustc opt-level "s" as the package),
//     then `parseStdoutLine` (objects) vs `JSON.parse(parseStdoutLineJson(...))`.
import { readFileSync, writeFileSync, existsSync, statSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import {
  root, benchDir, benchGroups, bigClaude, distPath, loadHostStyle, timeRounds, median, mdTable, fmt,
} from "./lib.mjs";

const PROBE = "\nmodule.exports.__probe = { inst: alInstance, write2: alWrite2, read: alRead };\n";

function buildBindgen(notes) {
  const outDir = join(benchDir, ".bindgen");
  const js = join(outDir, "agentlines.js");
  const targetDir = join(root, "target", "bench-bindgen");
  const wasm = join(targetDir, "wasm32-unknown-unknown", "wasm", "agentlines.wasm");
  const has = (cmd) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;
  if (!has("wasm-bindgen")) {
    notes.push("wasm-bindgen CLI not found: the wasm-bindgen object path was not measured.");
    return null;
  }
  console.error("[bench] building the wasm-bindgen variant (target/bench-bindgen, once)");
  // A separate target dir, so the package's wasm (target/wasm32-unknown-unknown) is untouched.
  const b = spawnSync("cargo", ["build", "--quiet", "-p", "agentlines", "--lib", "--target", "wasm32-unknown-unknown", "--profile", "wasm",
    "--features", "bindgen", "--target-dir", targetDir],
  // Unstripped, so wasm-bindgen sees the target_features section (names cost no speed).
  { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, CARGO_PROFILE_WASM_STRIP: "false" } });
  if (b.status !== 0) {
    notes.push("cargo build --features bindgen failed: the wasm-bindgen object path was not measured.");
    return null;
  }
  if (!existsSync(js) || statSync(js).mtimeMs < statSync(wasm).mtimeMs) {
    mkdirSync(outDir, { recursive: true });
    const w = spawnSync("wasm-bindgen", ["--target", "nodejs", "--out-dir", outDir, wasm], { stdio: "inherit" });
    if (w.status !== 0) {
      notes.push("wasm-bindgen failed: the wasm-bindgen object path was not measured.");
      return null;
    }
    // bench/package.json says "type": "module"; this output is CommonJS.
    writeFileSync(join(outDir, "package.json"), '{ "type": "commonjs" }\n');
  }
  return createRequire(import.meta.url)(js);
}

export async function runBoundary({ passes = 11, warmup = 3, group, bindgen = true } = {}) {
  const notes = [];
  const g = group ?? bigClaude(benchGroups({ onlyBig: true }).groups);
  const { lines, ts } = g;
  const N = lines.length;
  const opts = { passes, warmup };
  const src = readFileSync(distPath("ui-parser.stateless.js"), "utf8");
  const shipped = loadHostStyle(src);
  let probe;
  try {
    probe = loadHostStyle(src + PROBE).__probe;
    if (!probe || typeof probe.write2 !== "function") throw new Error("glue internals renamed");
  } catch (e) {
    notes.push(`The boundary probe could not attach to the glue (${e.message}): breakdown skipped.`);
  }

  const passMap = {};
  passMap.full = () => {
    let n = 0;
    for (let i = 0; i < N; i++) n += shipped.parseStdoutLine(lines[i], ts[i]).length;
    return n;
  };
  let outBytes = 0;
  let stepsOut = null;
  if (probe) {
    const w = probe.inst();
    // Each step timed inline, per line (performance.now() between steps), summed over the
    // log: robust to load changes between passes, at the price of the clock's own cost,
    // which is measured (an empty step) and taken off each step.
    const steps = { enc: [], wasm: [], dec: [], json: [], clock: [] };
    passMap.steps = () => {
      let enc = 0, wasm = 0, dec = 0, json = 0, clock = 0, n = 0;
      for (let i = 0; i < N; i++) {
        const t0 = performance.now();
        const t1 = performance.now();
        const l = probe.write2(w, lines[i], ts[i]);
        const t2 = performance.now();
        const len = w.x.al_parse_line(l[0], l[1]);
        const t3 = performance.now();
        const s = probe.read(w, len);
        const t4 = performance.now();
        n += JSON.parse(s).length;
        const t5 = performance.now();
        clock += t1 - t0; enc += t2 - t1; wasm += t3 - t2; dec += t4 - t3; json += t5 - t4;
      }
      steps.enc.push(enc); steps.wasm.push(wasm); steps.dec.push(dec); steps.json.push(json); steps.clock.push(clock);
      return n;
    };
    passMap.glueNoWrapper = () => {
      let n = 0;
      for (let i = 0; i < N; i++) {
        const l = probe.write2(w, lines[i], ts[i]);
        n += JSON.parse(probe.read(w, w.x.al_parse_line(l[0], l[1]))).length;
      }
      return n;
    };
    stepsOut = steps;
    // Isolated: the same work without the neighbouring steps.
    const outs = [];
    for (let i = 0; i < N; i++) {
      const l = probe.write2(w, lines[i], ts[i]);
      outs.push(probe.read(w, w.x.al_parse_line(l[0], l[1])));
    }
    const enc = new TextEncoder();
    const dec = new TextDecoder();
    const scratch = new Uint8Array(Math.max(...lines.map((l) => l.length)) * 3 + 64);
    const outBufs = outs.map((o) => enc.encode(o));
    outBytes = outBufs.reduce((x, y) => x + y.length, 0);
    passMap.encOnly = () => {
      let n = 0;
      for (let i = 0; i < N; i++) n += enc.encodeInto(lines[i], scratch).written;
      return n;
    };
    passMap.decOnly = () => {
      let n = 0;
      for (const o of outBufs) n += dec.decode(o).length;
      return n;
    };
    passMap.jsonOnly = () => {
      let n = 0;
      for (const o of outs) n += JSON.parse(o).length;
      return n;
    };
  }

  let diff = -1;
  if (bindgen) {
    const bg = buildBindgen(notes);
    if (bg && typeof bg.parseStdoutLine === "function") {
      diff = 0; // same results? (compared as JSON text)
      for (let i = 0; i < N; i++) {
        const x = JSON.stringify(bg.parseStdoutLine(lines[i], ts[i]));
        const y = JSON.stringify(JSON.parse(bg.parseStdoutLineJson(lines[i], ts[i])));
        if (x !== y) diff++;
      }
      passMap.bgObj = () => {
        let n = 0;
        for (let i = 0; i < N; i++) n += bg.parseStdoutLine(lines[i], ts[i]).length;
        return n;
      };
      passMap.bgJson = () => {
        let n = 0;
        for (let i = 0; i < N; i++) n += JSON.parse(bg.parseStdoutLineJson(lines[i], ts[i])).length;
        return n;
      };
      passMap.bgStr = () => {
        let n = 0;
        for (let i = 0; i < N; i++) n += bg.parseStdoutLineJson(lines[i], ts[i]).length;
        return n;
      };
    }
  }

  const t = timeRounds(passMap, opts);
  const us = (ms) => ((ms * 1e3) / N).toFixed(2); // µs per line
  const row = (name, key, how = "", minus) => {
    const med = t[key].median - (minus ? t[minus].median : 0);
    const min = t[key].min - (minus ? t[minus].min : 0);
    return [name, fmt.ms(med), us(med), us(min), how];
  };
  const rows = [row("(a) shipped glue: parseStdoutLine, whole call", "full")];
  if (probe) {
    rows.push(
      ...(() => {
        // Inline step sums: samples from every timed pass of `steps` (warm-up ones dropped).
        const keep = (xs) => xs.slice(-opts.passes);
        const clock = median(keep(stepsOut.clock));
        const st = (k) => {
          const xs = keep(stepsOut[k]).map((x) => Math.max(0, x - clock));
          return [median(xs), Math.min(...xs)];
        };
        const r = (name, k, how) => {
          const [med, min] = st(k);
          return [name, fmt.ms(med), us(med), us(min), how];
        };
        return [
          r("(b) encodeInto line+ts into the wasm input buffer (incl. al_input)", "enc", "inline"),
          r("(b) wasm: al_parse_line (JSON parse + detect + entries + serialize)", "wasm", "inline"),
          r("(b) TextDecoder.decode of the answer", "dec", `inline; ${fmt.kb(outBytes)} JSON out in all`),
          r("(b) JSON.parse of the answer", "json", "inline"),
          [`(b) clock cost, taken off the steps above`, fmt.ms(clock), us(clock), "", "inline"],
          row("(b) glue wrapper (alText, try/catch, instance check)", "full", "(a) − (same steps, untimed)", "glueNoWrapper"),
        ];
      })(),
      row("isolated: TextEncoder.encodeInto of the lines into a JS buffer", "encOnly"),
      row("isolated: TextDecoder.decode of the answers (copied out)", "decOnly"),
      row("isolated: JSON.parse of the answers", "jsonOnly"),
    );
  }
  let bindgenMd = "";
  if (t.bgObj) {
    const full = t.full.median;
    const bgWasm = join(benchDir, ".bindgen", "agentlines_bg.wasm");
    const r = [
      ["raw ABI, shipped glue (a)", "full"],
      ["wasm-bindgen: parseStdoutLine → JS objects (serde-wasm-bindgen)", "bgObj"],
      ["wasm-bindgen: JSON.parse(parseStdoutLineJson(...))", "bgJson"],
      ["wasm-bindgen: parseStdoutLineJson(...), no JSON.parse", "bgStr"],
    ];
    const o = t.bgObj.median, j = t.bgJson.median;
    bindgenMd = [
      `#### Object path vs JSON path (same log; wasm-bindgen build: ${existsSync(bgWasm) ? statSync(bgWasm).size + " bytes wasm, " : ""}not wasm-opt'd)`,
      "",
      mdTable(["path", "ms / file", "µs / line (median)", "µs / line (min)", "time ÷ raw ABI"],
        r.map(([n, k]) => [n, fmt.ms(t[k].median), us(t[k].median), us(t[k].min), fmt.ratio(t[k].median / full)])),
      "",
      `Same wasm-bindgen build, objects (serde-wasm-bindgen) vs JSON string + JSON.parse: ` +
        (o < j ? `objects are faster, JSON path takes ${fmt.ratio(j / o)} the time` : `JSON is faster, object path takes ${fmt.ratio(o / j)} the time`) +
        `; results differ on ${diff} of ${N} lines.`,
    ].join("\n");
  }

  const markdown = [
    `#### Boundary: one stateless call per line, ${g.name} (${fmt.mb(g.bytes)}, ${N} lines)`,
    "",
    mdTable(["step", "ms / file (median)", "µs / line (median)", "µs / line (min)", "how"], rows),
    ...(bindgenMd ? ["", bindgenMd] : []),
  ].join("\n");
  return { markdown, notes, outBytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf("--passes");
  const r = await runBoundary({ passes: i >= 0 ? Number(argv[i + 1]) : 11, bindgen: !argv.includes("--no-bindgen") });
  console.log(r.markdown);
  for (const n of r.notes) console.log(`> ${n}`);
}
