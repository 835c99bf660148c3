// Cold start in headless Chromium, the host's way: each run a fresh classic Web Worker (the
// host's worker shape, tests/browser/chromium.mjs HOST_WORKER) evaluates a ui-parser file with
// the dangerous globals removed, then makes one parseStdoutLine call (the wasm decoded,
// compiled and instantiated). Times are taken inside the worker; the page fetched the source
// once. Builds alternate, like bench/cold-ab.mjs.
//   node bench/cold-chromium.mjs [--a DIR] [--b DIR] [--runs 15] [--files ui-parser.stateless.js,...]
// DIR holds dist/ (default --a: this tree). Prints medians (and min-max) of evaluate and first call.
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { startServer, launch, HOST_WORKER } from "../tests/browser/chromium.mjs";
import { root } from "./lib.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const builds = [["a", arg("a", root)], ...(arg("b") ? [["b", arg("b")]] : [])];
const runs = Number(arg("runs", 15));
const files = arg("files", "ui-parser.stateless.js,ui-parser.js,claude/ui-parser.stateless.js").split(",");
const LINE = '{"type":"system","subtype":"init","model":"m","session_id":"s","tools":[]}';
const med = (x) => x.slice().sort((p, q) => p - q)[x.length >> 1];

const server = await startServer();
const browser = await launch();
const rows = [];
try {
  const page = await browser.newPage();
  await page.goto(server.url + "/tests/browser/blank.html");
  for (const file of files) {
    const srcs = Object.fromEntries(builds.map(([k, dir]) => [k, readFileSync(join(resolve(dir), "dist", file), "utf8")]));
    const got = Object.fromEntries(builds.map(([k]) => [k, { evalMs: [], firstMs: [] }]));
    for (let i = 0; i < runs; i++) {
      for (const [k] of i % 2 ? builds.slice().reverse() : builds) {
        const r = await page.evaluate(async ({ code, source, line }) => {
          const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
          const ask = (msg) => new Promise((ok) => { w.onmessage = (ev) => ok(ev.data); w.postMessage(msg); });
          const ready = await ask({ type: "load", source });
          const parsed = ready.type === "ready" ? await ask({ type: "parse", stateful: false, lines: [line], ts: [""] }) : null;
          w.terminate();
          return { ready, parsed };
        }, { code: HOST_WORKER, source: srcs[k], line: LINE });
        if (r.ready.type !== "ready" || !r.parsed || r.parsed.out[0].length === 0) throw new Error(`${file} (${k}): ${JSON.stringify(r)}`);
        got[k].evalMs.push(r.ready.ms);
        got[k].firstMs.push(r.parsed.ms);
      }
    }
    for (const [k, dir] of builds) {
      const g = got[k];
      const first = g.firstMs;
      rows.push(`| ${file} | ${k}: ${relative(root, resolve(dir)) || "."} | ${med(g.evalMs).toFixed(1)} | ${med(first).toFixed(1)} (${Math.min(...first).toFixed(1)}-${Math.max(...first).toFixed(1)}) | ${(med(g.evalMs) + med(first)).toFixed(1)} |`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log("| file | build | evaluate ms | first call ms (median, min-max) | total ms |\n|---|---|---:|---:|---:|");
console.log(rows.join("\n"));
console.log(`\n${runs} fresh workers per build and file in one headless Chromium (${browser.version?.() ?? ""}), the builds alternating.`);
