// What the viewer's run header reads off a transcript (www/model.js) and how it writes a
// duration (www/render.js): the first prompt as the title, the log's own first and last
// timestamps, and durations that never read "1 m 60 s".
import test from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { root } from "./host.mjs";

const { fmtDuration } = await import(pathToFileURL(resolve(root, "www/render.js")).href);
const { Transcript } = await import(pathToFileURL(resolve(root, "www/model.js")).href);

test("durations round whole seconds first and grow into hours and days", () => {
  const cases = [
    [0, "0 ms"], [999.4, "999 ms"], [1000, "1.0 s"], [59_949, "59.9 s"], [59_950, "1 m 0 s"],
    [119_600, "2 m 0 s"], [119_400, "1 m 59 s"], [3_599_499, "59 m 59 s"], [3_599_500, "1 h 0 m"],
    [5_400_000, "1 h 30 m"], [86_400_000, "1 d 0 h"], [90_000_000, "1 d 1 h"],
  ];
  for (const [ms, want] of cases) assert.equal(fmtDuration(ms), want, `${ms} ms`);
  for (let ms = 0; ms < 7_200_000; ms += 499) assert.doesNotMatch(fmtDuration(ms), /\b60 s|\b60 m/, `${ms} ms`);
});

test("the transcript keeps the first prompt and the log's own first and last timestamps", () => {
  const t = new Transcript();
  const e = [
    { kind: "init", ts: "2026-01-01T00:00:00.000Z", model: "m", sessionId: "s" },
    { kind: "user", ts: "2026-01-01T00:00:01.000Z", text: "  " },
    { kind: "user", ts: "2026-01-01T00:00:02.000Z", text: "fix the build" },
    { kind: "user", ts: "2026-01-01T00:00:03.000Z", text: "and the tests" },
    { kind: "assistant", ts: "2026-01-01T00:05:00.000Z", text: "done" },
    { kind: "system", ts: "2099-01-01T00:00:00.000Z", text: "a made-up ts" },
  ];
  // The last entry's ts was made up by the reader (not the log's): not a time of the run.
  t.add(e, e.map((_, i) => i), e.map((_, i) => (i < 5 ? 1 : 0)));
  assert.equal(t.prompt, "fix the build");
  assert.equal(t.firstTs, "2026-01-01T00:00:00.000Z");
  assert.equal(t.lastTs, "2026-01-01T00:05:00.000Z");
  t.reset();
  assert.equal(t.prompt, null);
  assert.equal(t.firstTs, "");
});

test("the shared file's bundler joins the viewer's modules and refuses forms it does not read", async () => {
  const { bundle } = await import(pathToFileURL(resolve(root, "www/bundle.js")).href);
  const { readFileSync } = await import("node:fs");
  const read = (p) => readFileSync(resolve(root, "www", p), "utf8");
  const code = await bundle("app.js", read);
  assert.doesNotThrow(() => new Function(code), "one classic script");
  assert.doesNotMatch(code, /^\s*(import|export)\b/m);
  const files = {
    "a.js": 'import { b as bee, c } from "./b.js";\nimport D from "./d.mjs";\nexport const out = bee() + c + D;\n',
    "b.js": "export function b() { return 1; }\nexport let c = 2;\n",
    "d.mjs": "var x = 3;\nexport { x as default };\n",
  };
  const joined = await bundle("a.js", (p) => files[p]);
  // Run it with a hook to read the entry's exports (the entry's module runs last).
  const entry = [...joined.matchAll(/^const (m\d+) = /gm)].pop()[1];
  const out = new Function(joined.replace(/\}\)\(\);\n$/, `return ${entry};\n})();\n`).replace(/^\(function/, "return (function"))();
  assert.equal(out.out, 6);
  await assert.rejects(bundle("a.js", (p) => ({ "a.js": "export default 1;\n" })[p]), /does not read/);
  await assert.rejects(bundle("a.js", (p) => ({ "a.js": "const u = import.meta.url;\n" })[p]), /its own URL/);
  await assert.rejects(bundle("a.js", (p) => ({ "a.js": 'import "./b.js";\n', "b.js": "" })[p]), /does not read/);
});
