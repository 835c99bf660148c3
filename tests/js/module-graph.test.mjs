// The crate's modules depend on each other one way: no circle between source files or between
// top modules, and none of the arrows the layering forbids (the JSON layer never uses the
// runtime modules or the entries). The graph comes from the code's own paths
// (scripts/module-graph.mjs); the second test shows the check sees a circle when there is one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { graph } from "../../scripts/module-graph.mjs";

test("the crate's modules have no circle and no forbidden arrow", () => {
  const g = graph();
  assert.ok(g.nodes.length > 50 && g.list.length > 100, `read ${g.nodes.length} modules, ${g.list.length} arrows`);
  assert.deepEqual(g.circles, [], "circles between files");
  assert.deepEqual(g.top.circles, [], "circles between top modules");
  assert.deepEqual(g.forbidden, [], "forbidden arrows");
});

test("a circle, a forbidden arrow and a child's use of its parent are each seen", () => {
  const dir = mkdtempSync(join(tmpdir(), "module-graph-"));
  try {
    const file = (path, text) => {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    file("lib.rs", "pub mod a;\npub mod b;\npub mod json;\npub mod formats;\n");
    file("a.rs", "use crate::b::{x, y};\npub fn f() {}\n");
    file("b.rs", "pub fn x() { crate::a::f() }\n// use crate::formats; (a comment is not an arrow)\n");
    file("json/mod.rs", "mod val;\npub use val::V;\n#[cfg(test)]\nmod tests { use crate::a::f; }\n");
    file("json/val.rs", "pub struct V;\nfn g() { crate::formats::common::h() }\n");
    file("formats/mod.rs", "pub mod common;\nmod claude;\n");
    file("formats/common.rs", "use crate::json::V;\npub fn h() {}\n");
    file("formats/claude.rs", "use super::common::h;\nuse super::Format;\n");
    const g = graph(dir);
    assert.deepEqual(g.circles, [["a", "b"], ["formats::common", "json", "json::val"]]);
    assert.deepEqual(g.top.circles, [["a", "b"], ["formats", "json"]]);
    assert.deepEqual(g.forbidden.map(([a, b]) => `${a} -> ${b}`), ["json::val -> formats::common"]);
    assert.deepEqual(g.up, [["formats::claude", "formats"]]);
    assert.ok(!g.list.some(([a, b]) => a === "b" && b.startsWith("formats")), "comments are not read");
    assert.ok(!g.list.some(([a, b]) => a === "json" && b === "a"), "test modules are not read");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
