// A million generated lines through the built dist/ui-parser.js, loaded the host's way:
// mutated corpus lines, untouched corpus lines, random text and JSON junk, half through the
// stateless parseStdoutLine and half through stateful parsers (autodetect and forced
// runtimes). Zero throws, every answer an array that structuredClone accepts, zero JSON
// events shown raw as stdout/stderr. Prints lines/s.
// AGENTLINES_MILLION=n changes the count.
import test from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { root } from "./host.mjs";
import { loadWithProbe, rng, corpusLines, rawJsonEvent } from "./robust-util.mjs";

const N = Number(process.env.AGENTLINES_MILLION ?? 1_000_000);
const FORMATS = ["", "claude", "codex", "gemini", "opencode", "cursor", "pi", "openclaw", "amp", "acp", "plain"];
const JUNK = ["{", "}", "[", "]", "\"", "\\", ",", ":", "null", "\\u0000", "\\ud800", "1e400", "\u0000", "\r",
  "\u001b[31m", "\"type\":\"x\"", "\"__proto__\":{}", "😀", "\ud800", "\t", "99999999999999999999999"];
const TEXT = "abc xyz 0123 {}[]\":,\\\u0000\u0007\u001b[m\r\t é漢😀\ud800\u0085\u2028";

test(`${N} generated lines: no throw, cloneable, no raw JSON`, { timeout: 600_000 }, () => {
  const m = loadWithProbe(join(root, "dist/ui-parser.js"));
  const corpus = corpusLines();
  assert.ok(corpus.length > 0, "no corpus lines");
  const parsed = corpus.map((l) => { try { const v = JSON.parse(l); return v && typeof v === "object" ? v : null; } catch { return null; } });
  const types = [...new Set(parsed.filter(Boolean).map((v) => v.type).filter((t) => typeof t === "string"))];
  const r = rng(12345);

  const randomText = () => {
    let s = "";
    for (let n = r.below(80); n > 0; n--) s += TEXT[r.below(TEXT.length)];
    return s;
  };
  const randomJson = (depth) => {
    switch (depth > 3 ? r.below(4) : r.below(7)) {
      case 0: return null;
      case 1: return r.below(2) === 0;
      case 2: return r.below(3) === 0 ? r() * 1e300 : r.below(1000) - 500;
      case 3: return randomText();
      case 4: return Array.from({ length: r.below(4) }, () => randomJson(depth + 1));
      default: {
        const o = {};
        if (r.below(2) === 0) o.type = r.pick(types);
        for (let k = r.below(4); k > 0; k--) o[r.pick(["message", "content", "text", "id", "item", "part", "payload", "event", "subtype", "role", "__proto__"])] = randomJson(depth + 1);
        return o;
      }
    }
  };
  const mutate = (line, v) => {
    const op = r.below(v ? 8 : 4);
    const at = r.below(line.length + 1);
    switch (op) {
      case 0: return line.slice(0, at) + String.fromCharCode(r.below(0x10000)) + line.slice(at + 1);
      case 1: { const i = line.search(/[{}\[\]":,]/); return i < 0 ? line : line.slice(0, at > i ? at : i) + line.slice((at > i ? at : i) + 1); }
      case 2: return line.slice(0, at);
      case 3: return line.slice(0, at) + r.pick(JUNK) + line.slice(at);
      default: {
        const c = structuredClone(v);
        // Walk to a random object node and delete / swap / replace one of its keys.
        let node = c;
        for (let d = r.below(4); d > 0; d--) {
          const kids = Object.values(node).filter((x) => x && typeof x === "object");
          if (kids.length === 0) break;
          node = r.pick(kids);
        }
        const keys = Object.keys(node);
        if (keys.length === 0) return JSON.stringify(c);
        const k = r.pick(keys);
        if (op === 4) delete node[k];
        else if (op === 5) node.type = r.pick(types);
        else if (op === 6) node[k] = randomJson(2);
        else node[k] = r.pick([null, 0, "", [], {}, 1e308, -1, true]);
        return JSON.stringify(c);
      }
    }
  };

  let throws = 0, notArrays = 0, cloneFailures = 0, entries = 0;
  const raw = [];
  let parser = null;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const kind = r.below(10);
    let line;
    if (kind < 4) { const j = r.below(corpus.length); line = mutate(corpus[j], parsed[j]); }
    else if (kind < 6) line = corpus[r.below(corpus.length)];
    else if (kind < 8) line = randomText();
    else line = JSON.stringify(randomJson(0));
    if (i % 5000 === 0) parser = m.createStdoutParser({ format: FORMATS[(i / 5000) % FORMATS.length] });
    let out;
    try {
      out = i % 2 === 0 ? m.parseStdoutLine(line, "2026-01-01T00:00:00.000Z") : parser.parseLine(line, "2026-01-01T00:00:00.000Z");
    } catch (e) {
      throws++;
      continue;
    }
    if (!Array.isArray(out)) { notArrays++; continue; }
    try { structuredClone(out); } catch { cloneFailures++; }
    entries += out.length;
    for (const e of out) {
      if (rawJsonEvent(e, line)) {
        if (raw.length < 5) raw.push(line.slice(0, 300));
        else raw.push("");
      }
    }
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`million: ${N} lines in ${secs.toFixed(1)} s = ${Math.round(N / secs)} lines/s (generation included), ` +
    `${entries} entries, wasm memory ${(m.__memBytes() / 1048576).toFixed(1)} MiB`);
  assert.equal(throws, 0, "throws");
  assert.equal(notArrays, 0, "answers that are not arrays");
  assert.equal(cloneFailures, 0, "answers structuredClone refuses");
  assert.deepEqual(raw, [], "JSON events shown raw");
  assert.equal(m.__gen(), 1, "the wasm instance trapped and was re-created");
});
