// The shared HTML file outside the browser: the parts the CLI includes match www/ (else
// `agentlines parse -o html` would write an older viewer), and what the CLI writes keeps agent
// text inside its data block (the browser side: tests/browser/viewer-share.test.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { root } from "./host.mjs";

test("cli/src/share-template.json matches www/ (node scripts/share-template.mjs writes it)", () => {
  const r = spawnSync(process.execPath, [join(root, "scripts/share-template.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

const BIN = process.env.AGENTLINES_BIN ?? join(root, "target/debug/agentlines");
test("agentlines parse -o html: agent text cannot leave the data block", { skip: !existsSync(BIN) && "no CLI built" }, () => {
  const payloads = ["</script><script>alert(1)</script>", "<!--<script>", "</SCRIPT >", "<style>*{}</style>", "a \u2028 b \u2029 c"];
  const lines = payloads.map((p, i) => JSON.stringify({ type: "assistant", message: { id: `m${i}`, role: "assistant", content: [{ type: "text", text: p }] } }));
  const r = spawnSync(BIN, ["parse", "-o", "html", "-"], { input: lines.join("\n") + "\n", encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const html = r.stdout;
  assert.equal((html.match(/<script/gi) || []).length, 2, "the data block and the page's one script");
  const data = html.slice(html.indexOf('id="al-run">') + 'id="al-run">'.length, html.indexOf("</script>"));
  assert.ok(!data.includes("<"), "no < in the data block");
  const run = JSON.parse(data);
  assert.equal(run.v, 1);
  assert.equal(run.label, "standard input");
  assert.deepEqual(run.entries.map(([e]) => e.text), payloads);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);
  // One file at a time.
  const two = spawnSync(BIN, ["parse", "-o", "html", join(root, "tests/fixtures/amp"), join(root, "tests/fixtures/grok")], { encoding: "utf8" });
  assert.equal(two.status, 2);
  assert.match(two.stderr, /one run's page/);
});
