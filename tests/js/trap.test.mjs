// Panic recovery: a debug package built with the `trap-hook` cargo feature (a line equal to
// starting with "\u0000agentlines:trap" panics inside the wasm, which traps). The glue must
// catch the trap, answer one notice with the line's start (never the line as a raw stdout
// row), drop the instance and build a fresh one from the
// compiled module on the next call: stateless lines parse normally afterwards, and a
// stateful parser continues on a fresh handle (its pairing bookkeeping is lost, lines are
// not). The wasm is built once into target/trap-hook/ and assembled into a temp dir with
// `scripts/assemble.mjs --out` (the repo's dist/ is not touched).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./host.mjs";
import { loadWithProbe } from "./robust-util.mjs";

const TRAP = "\u0000agentlines:trap";
const TS = "2026-01-01T00:00:00.000Z";
const CALL = '{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}';
const RESULT = (id) => `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}","content":"ok"}]}}`;
const TEXT = '{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"hello"}]}}';

function buildTrapPackage() {
  const targetDir = join(root, "target", "trap-hook");
  execFileSync("cargo", ["build", "--quiet", "-p", "agentlines", "--lib", "--target", "wasm32-unknown-unknown", "--profile", "wasm",
    "--no-default-features", "--features", "runtimes,trap-hook", "--target-dir", targetDir], { cwd: root, stdio: "inherit" });
  const wasm = join(targetDir, "wasm32-unknown-unknown", "wasm", "agentlines.wasm");
  const out = mkdtempSync(join(tmpdir(), "agentlines-trap-"));
  execFileSync("node", [join(root, "scripts", "assemble.mjs"), "--host", wasm, "--full", wasm, "--out", out], { cwd: root, stdio: "pipe" });
  return out;
}

const json = (v) => JSON.stringify(v);
// What a trapped line gives: one notice with its length and first 200 characters.
const NOTICE = (line) => [{ kind: "system", ts: TS, text: `[agentlines] could not read this text (${line.length} characters): ${line.slice(0, 200)}` }];

test("a trap in the wasm: the line comes back as a notice with its start, the next lines parse normally", { timeout: 900_000 }, () => {
  const out = buildTrapPackage();
  try {
    const m = loadWithProbe(join(out, "dist", "ui-parser.js"));

    // Stateless.
    assert.equal(m.parseStdoutLine(TEXT, TS)[0].kind, "assistant");
    assert.equal(m.__gen(), 1);
    let r;
    assert.doesNotThrow(() => { r = m.parseStdoutLine(TRAP, TS); });
    assert.equal(json(r), json(NOTICE(TRAP)));
    // A long line that traps is no 1 MB raw row: a notice of its first 200 characters.
    const long = TRAP + '{"type":"assistant","message":' + "x".repeat(1 << 20);
    r = m.parseStdoutLine(long, TS);
    assert.equal(json(r), json(NOTICE(long)));
    assert.ok(r[0].text.length < 300 && r[0].text.includes("(1048622 characters)"), r[0].text.slice(0, 80));
    assert.equal(m.parseStdoutLine(TEXT, TS)[0].kind, "assistant", "the next line after a trap");
    assert.equal(m.__gen(), 3, "the instance was re-created after each trap");

    // Stateful: a call, a trap, then its result (on a fresh handle: not paired any more),
    // then a new call/result pair that pairs normally.
    const p = m.createStdoutParser();
    assert.equal(p.parseLine(CALL, TS)[0].kind, "tool_call");
    assert.equal(json(p.parseLine(TRAP, TS)), json(NOTICE(TRAP)));
    const lost = p.parseLine(RESULT("toolu_1"), TS);
    assert.equal(lost[0].kind, "tool_result");
    assert.equal(lost[0].toolName, undefined, "pairing state went with the trapped instance");
    p.parseLine(CALL.replaceAll("toolu_1", "toolu_2"), TS);
    assert.equal(p.parseLine(RESULT("toolu_2"), TS)[0].toolName, "Bash", "pairing works on the fresh handle");
    assert.equal(m.__gen(), 4);

    // parseChunk / flush / reset / a second parser after more traps: never a throw.
    const q = m.createStdoutParser({ format: "claude" });
    assert.doesNotThrow(() => q.parseChunk(TRAP, TS));
    assert.equal(json(q.parseChunk(TEXT.slice(0, 20), TS)), "[]");
    assert.equal(q.parseChunk(TEXT.slice(20) + "\n", TS)[0].kind, "assistant");
    for (let i = 0; i < 5; i++) assert.equal(m.parseStdoutLine(TRAP, TS).length, 1);
    assert.doesNotThrow(() => { q.reset(); q.flush(TS); q.dispose(); });
    assert.equal(p.parseLine(TEXT, TS)[0].kind, "assistant");
    assert.equal(m.createStdoutParser().parseLine(TEXT, TS)[0].kind, "assistant");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
