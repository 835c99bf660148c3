// The viewer's transcript model (www/model.js) in Node: rows from entries (delta merge, tool
// cards, diff blocks), the Row handles over the typed-array columns, the search cache, and
// the memory a row costs on top of its entry (a 2,000,000-line log once held 2M row
// objects whose major collections passed 200 ms on the page). MODEL=path loads another copy
// of the model (the memory test then measures that one: the row-object model of commit
// 290256f costs ~140 bytes a row and fails it).
import test from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { root } from "./host.mjs";

const modelUrl = pathToFileURL(process.env.MODEL ? resolve(process.env.MODEL) : resolve(root, "www/model.js")).href;
const { Transcript, filterRows, placement, groupOf, KINDS } = await import(modelUrl);

const ts = "2026-12-03T00:00:00.000Z";
const rowsOf = (t) => Array.from({ length: t.count }, (_, id) => t.row(id));

test("entries become rows: delta merge, one card per call and result, diff blocks", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const a = t.add([
    { kind: "init", ts, model: "m", sessionId: "s" },
    { kind: "assistant", ts, text: "Hel", delta: true },
    { kind: "assistant", ts, text: "lo", delta: true },
    { kind: "tool_call", ts, name: "Bash", input: { command: "ls" }, toolUseId: "t1" },
    { kind: "diff", ts, changeType: "add", text: "+a" },
    { kind: "diff", ts, changeType: "add", text: "+b" },
    null,
    "not an entry",
    { kind: "weird", ts, text: "?" },
  ], [0, 1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 1, 1, 0, 0, 0, 0, 0]);
  assert.deepEqual([a.from, a.to, a.changed], [0, 5, []]);
  assert.equal(t.rawCount, 9);
  assert.equal(t.entryCount, 6);
  const rows = rowsOf(t);
  assert.deepEqual(rows.map((r) => r.type), ["entry", "entry", "tool", "diff", "entry"]);
  assert.deepEqual(rows.map(groupOf), ["init", "assistant", "tool", "diff", "other"]);
  assert.equal(rows[1].entry.text, "Hello");
  assert.equal(rows[1].line, 1);
  assert.equal(rows[1].realTs, true);
  assert.equal(rows[3].realTs, false);
  assert.deepEqual(rows[3].entries.map((e) => e.text), ["+a", "+b"]);
  assert.equal(rows[2].call.name, "Bash");
  assert.equal(rows[2].result, null);
  assert.equal(rows[2].entry, undefined);
  assert.equal(t.init.model, "m");
  assert.deepEqual({ ...t.groupCounts }, { init: 1, assistant: 1, tool: 1, diff: 1, other: 1 });

  // The result arrives in a later batch: the card changes (reported), no row is added.
  const v = rows[2].v;
  const b = t.add([{ kind: "tool_result", ts, toolUseId: "t1", content: "ok", isError: true }, { kind: "tool_result", ts, toolUseId: "zz", content: "orphan" }], [9, 10], [1, 0]);
  assert.deepEqual([b.from, b.to, b.changed], [5, 6, [2]]);
  assert.equal(t.row(2).result.content, "ok");
  assert.equal(t.row(2).resultReal, true);
  assert.equal(t.row(2).v, v + 1);
  assert.equal(t.row(5).call, null);
  assert.equal(t.row(5).result.content, "orphan");
  assert.equal(t.errors, 1);
  assert.deepEqual(t.merged.map((e) => e.kind), ["init", "assistant", "tool_call", "diff", "diff", "weird", "tool_result", "tool_result"]);
});

test("a result streamed in pieces stays one card: pieces add up across diff rows, the final one settles it", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const piece = (content) => ({ kind: "tool_result", ts, toolUseId: "k1", toolName: "write", content, isError: false, delta: true });
  t.add([
    { kind: "tool_call", ts, name: "write", input: { path: "a.js" }, toolUseId: "k1" },
    piece("Purpose: fix it\n"),
    { kind: "diff", ts, changeType: "add", text: "+x" },
    piece("Updating: a.js\n"),
  ], []);
  t.add([{ kind: "tool_result", ts, toolUseId: "k1", toolName: "write", content: "", isError: true, durationMs: 12 }], []);
  const rows = rowsOf(t);
  assert.deepEqual(rows.map((r) => r.type), ["tool", "diff"]);
  assert.equal(rows[0].result.content, "Purpose: fix it\nUpdating: a.js\n");
  assert.equal(rows[0].result.isError, true);
  assert.equal(rows[0].result.durationMs, 12);
  assert.equal(t.errors, 1);
  // Settled: a later result under the same id is a card of its own, as before.
  t.add([{ kind: "tool_result", ts, toolUseId: "k1", content: "again" }], []);
  assert.equal(t.count, 3);
});

test("a diff block holds at most 400 lines; a row between blocks starts a new one", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const d = (text) => ({ kind: "diff", ts, text });
  t.add(Array.from({ length: 401 }, (_, i) => d("+" + i)), []);
  t.add([{ kind: "system", ts, text: "s" }, d("+x")], []);
  assert.deepEqual(rowsOf(t).map((r) => r.entries?.length ?? r.type), [400, 1, "notes", 1]);
});

test("Row handles read and write the columns; equal ids are the same row", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  t.add([{ kind: "thinking", ts, text: "t" }, { kind: "stdout", ts, text: "o" }], []);
  const r = t.row(0);
  r.h = 123;
  r.open = true;
  r.v++;
  r.est = 40;
  r.estW = 1200;
  r.estV = r.v;
  r.shown = { text: 3 };
  const again = t.row(0);
  assert.deepEqual([again.h, again.open, again.v, again.est, again.estW, again.estV, again.shown], [123, true, 1, 40, 1200, 1, { text: 3 }]);
  again.open = false;
  assert.equal(r.open, false);
  assert.equal(t.row(1).h, 0);
  t.forgetHeights();
  assert.equal(r.h, 0);
  // Many rows: the columns grow (reserved, then doubled) and keep what they held.
  t.reserve(3000);
  assert.ok(t.cap >= 3000);
  t.reserve("nonsense");
  t.add(Array.from({ length: 5000 }, (_, i) => ({ kind: "stdout", ts, text: String(i) })), Array.from({ length: 5000 }, (_, i) => i + 2));
  assert.equal(t.count, 5002);
  assert.equal(t.row(0).v, 1);
  assert.equal(t.row(5001).line, 5001);
  assert.equal(t.row(5001).entry.text, "4999");
});

test("search: the cached haystack follows the row's changes; filters by group", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  t.add([{ kind: "assistant", ts, text: "Alpha", delta: true }, { kind: "stderr", ts, text: "beta" }], []);
  const all = new Set(KINDS);
  assert.deepEqual(filterRows(t, all, " alpha "), [0]);
  t.add([{ kind: "assistant", ts, text: "x", delta: true }], []); // after stderr: a new row
  assert.deepEqual(filterRows(t, all, "x"), [2]); // caches row 2's text
  t.add([{ kind: "assistant", ts, text: " DELTA", delta: true }], []); // merges into row 2
  assert.deepEqual(filterRows(t, all, "x delta"), [2]);
  t.add([{ kind: "tool_call", ts, name: "Grep", input: { pattern: "GAMMA" }, toolUseId: "g" }], []);
  assert.deepEqual(filterRows(t, all, "gamma"), [3]);
  assert.deepEqual(filterRows(t, new Set(["stderr"]), ""), [1]);
  assert.deepEqual(filterRows(t, all, "", "Grep"), [3]); // the tool filter: that tool's cards
  assert.deepEqual(filterRows(t, all, "gamma", "Bash"), []);
});

test("notices fold: consecutive system entries make one notes row, consecutive model-call results another, filtered as results", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const sys = (text, extra = {}) => ({ kind: "system", ts, text, ...extra });
  const call = { kind: "result", ts, subtype: "model_call", inputTokens: 10, outputTokens: 2, cachedTokens: 0, costUsd: 0.5 };
  t.add([sys("a"), sys("b"), call, call, { kind: "assistant", ts, text: "x" }, sys("c"), sys("d", { parentToolUseId: "other" })], []);
  assert.deepEqual(rowsOf(t).map((r) => r.notes?.map((e) => e.text ?? e.subtype) ?? r.type), [["a", "b"], ["model_call", "model_call"], "entry", ["c"], ["d"]]);
  // Each chip counts the entries its notes rows hold: the result chip says as many results
  // as the header sums (2), not 0 (model calls once hid under the system notices).
  assert.equal(t.groupCounts.system, 4);
  assert.equal(t.groupCounts.result, 2);
  assert.equal(t.results, 2);
  assert.equal(t.sum.inputTokens, 20); // folded, still counted
  assert.equal(t.resultRows.length, 2);
  assert.deepEqual(filterRows(t, new Set(KINDS), "model_call"), [1]);
  assert.deepEqual(filterRows(t, new Set(KINDS.filter((k) => k !== "result")), ""), [0, 2, 3, 4]);
  assert.deepEqual(filterRows(t, new Set(KINDS.filter((k) => k !== "system")), ""), [1, 2]);
});

test("subagents: rows under a card are counted on it, hidden until it opens, then nested after it", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const sub = (id, e) => ({ ...e, ts, parentToolUseId: id });
  t.add([
    { kind: "tool_call", ts, name: "Task", input: {}, toolUseId: "A" },
    { kind: "tool_call", ts, name: "Task", input: {}, toolUseId: "B" },
    sub("A", { kind: "assistant", text: "a1" }),
    sub("B", { kind: "assistant", text: "b1" }),
    sub("A", { kind: "tool_call", name: "Task", input: {}, toolUseId: "A2" }),
    sub("A2", { kind: "assistant", text: "nested deeper" }),
    sub("A", { kind: "tool_result", toolUseId: "missing", content: "x", isError: true }),
    { kind: "assistant", ts, text: "main" },
    sub("unknown-card", { kind: "assistant", text: "stays on top" }),
  ], []);
  const all = new Set(KINDS);
  const texts = (ids) => ids.map((id) => { const r = t.row(id); return r.entry?.text ?? r.call?.toolUseId ?? r.result?.toolUseId; });
  assert.deepEqual(texts(filterRows(t, all, "")), ["A", "B", "main", "stays on top"]);
  assert.deepEqual(t.row(0).sub, { rows: 4, tools: 2, errors: 1, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  t.row(0).kidsOpen = true;
  assert.deepEqual(texts(filterRows(t, all, "")), ["A", "a1", "A2", "missing", "B", "main", "stays on top"]);
  t.row(4).kidsOpen = true; // A2, inside A
  assert.deepEqual(texts(filterRows(t, all, "")), ["A", "a1", "A2", "nested deeper", "missing", "B", "main", "stays on top"]);
  assert.deepEqual([t.row(2).depth, t.row(5).depth, t.row(7).depth], [1, 2, 0]);
  assert.equal(placement(t, 3), "hidden"); // B is closed
  assert.equal(placement(t, 5), "nested");
  // A search lists every match in line order, closed subagents included.
  assert.deepEqual(texts(filterRows(t, all, "b1")), ["b1"]);
});

test("kind strings are shared: each entry's own copy is replaced by one string", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const [e] = structuredClone([{ kind: "stdout", ts, text: "a" }]);
  t.add([e], []);
  assert.equal(t.row(0).entry.kind, "stdout");
  assert.equal(groupOf(t.row(0)), "stdout");
});

// JS heap a transcript of n short rows of `kind` holds beyond its entries, per row.
function overheadPerRow(n, kind) {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  const batches = [];
  for (let k = 0; k < n; k += 4000) {
    const src = [];
    for (let i = k; i < Math.min(n, k + 4000); i++) src.push({ kind, ts: new Date(1.7e12 + i * 1000).toISOString(), text: `plain output line ${i + 1}` });
    batches.push(structuredClone({ entries: src, lines: src.map((_, j) => k + j), real: src.map(() => 0) }));
  }
  for (let i = 0; i < 3; i++) gc();
  const before = process.memoryUsage().heapUsed;
  const t = new Transcript();
  for (const b of batches) t.add(b.entries, b.lines, b.real);
  // What the list caches per row (vlist.js: estimate, its width and version).
  for (let id = 0; id < t.count; id++) {
    const row = t.row ? t.row(id) : t.rows[id];
    row.est = 18.5 + (id % 7);
    row.estW = 1240;
    row.estV = row.v;
  }
  for (let i = 0; i < 3; i++) gc();
  const after = process.memoryUsage().heapUsed;
  const rows = t.count ?? t.rows.length;
  assert.equal(rows, n);
  batches.length = 0;
  return (after - before) / n;
}

test("a row costs at most 48 bytes of JS heap beyond its entry (200,000 rows)", (t) => {
  // An unknown kind: its string is the entry's own, so this is the row store alone.
  const per = overheadPerRow(200000, "some_future_kind");
  t.diagnostic(`${per.toFixed(1)} bytes per row`);
  assert.ok(per < 48, `${per.toFixed(1)} bytes of heap per row beyond the entries`);
});

test("known kinds share one string: their rows cost less than the entries' own copies", { skip: !!process.env.MODEL }, (t) => {
  const unknown = overheadPerRow(100000, "some_future_kind");
  const known = overheadPerRow(100000, "stdout");
  t.diagnostic(`${known.toFixed(1)} bytes per stdout row, ${unknown.toFixed(1)} per row of an unknown kind`);
  assert.ok(known < unknown - 12, `a stdout row costs ${known.toFixed(1)} bytes, an unknown kind's ${unknown.toFixed(1)}`);
});

test("the run's totals are summed over its results the host's way", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const r = (o) => ({ kind: "result", ts, text: "", inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, subtype: "success", isError: false, errors: [], ...o });
  t.add([
    r({ inputTokens: 10, outputTokens: 20, cachedTokens: 5, cacheCreationTokens: 7, costUsd: 0.25 }),
    r({ inputTokens: 1, outputTokens: 2, cachedTokens: 3, costUsd: 0.5 }),
    // The host's own session-usage row is not part of its sum.
    r({ inputTokens: 1000, outputTokens: 1000, costUsd: 9, subtype: "paperclip_runner_session_usage" }),
  ], [0, 1, 2], [1, 1, 1]);
  assert.deepEqual(t.sum, { inputTokens: 11, outputTokens: 22, cachedTokens: 8, cacheCreationTokens: 7, costUsd: 0.75 });
  assert.equal(t.results, 3);
});

// Subagents nest at most 8 deep (MAX_DEPTH): a chain of 40 calls each inside the last shows its
// deep end at 8, and counting a row into the cards above it walks at most 9 of them (a
// hostile chain costs bounded work per row). Without the cap the last call sits 39 deep.
test("subagent nesting is capped at 8 levels, and so is the walk up the chain", { skip: !!process.env.MODEL }, () => {
  const t = new Transcript();
  const ts = "2026-01-01T00:00:00.000Z";
  const entries = [];
  for (let i = 0; i < 40; i++) {
    entries.push({ kind: "tool_call", ts, name: "Task", input: {}, toolUseId: `t${i}`, ...(i ? { parentToolUseId: `t${i - 1}` } : {}) });
  }
  t.add(entries, entries.map((_, i) => i), entries.map(() => 1));
  const depths = Array.from({ length: t.count }, (_, id) => t.row(id).depth);
  assert.equal(t.count, 40);
  assert.deepEqual(depths.slice(0, 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 8]);
  assert.equal(Math.max(...depths), 8);
  // The outermost card counts only the rows within reach of the walk (9 hops), not all 39.
  assert.ok(t.subs.get(0).rows <= 9, `the top card counted ${t.subs.get(0).rows} rows`);
});
