// The viewer's transcript model: parser entries in, display rows out. No DOM here (Node
// can import it). Entries are untrusted data: every field is read defensively.
//  - consecutive `delta: true` entries of one kind merge into one, text appended, as the
//    host's transcript view does (assistant/thinking `text`, tool_result `content`; the
//    merged entry keeps the first one's ts);
//  - a tool_call and its tool_result (same toolUseId) make ONE card row; a result with no
//    open call is a card of its own;
//  - consecutive diff entries group into one diff row (at most DIFF_GROUP lines);
//  - consecutive system notices fold into one "notes" row (at most NOTE_GROUP), "7 notices"
//    as the host groups them; so do consecutive per-model-call `result`s of session files
//    (subtype `model_call`), in rows of their own, filtered with the results. A notes row
//    counts each of its entries in its filter chip (the `result` chip says as many results
//    as the header sums);
//  - everything else is one row per entry.
// Subagents: an entry whose `parentToolUseId` is the id of a tool call already seen belongs
// to that call's card (`parents` column); the card counts its subagent's rows, tools,
// errors and tokens, and the view (filterRows) shows those rows nested under the card, only
// while its subagent is opened (`F_KIDS`).
// Rows (class Row: a handle on the Transcript's typed-array columns, see there) carry `v`
// (bumped on every change, so a rendered row knows it is stale) and `realTs` (the entry's
// ts came from the log itself: a record's own timestamp, a Paperclip run-log row's ts or
// the live clock, not the viewer's one-second-per-line stand-in); tool durations are only
// computed from real timestamps.

export const KINDS = ["assistant", "thinking", "user", "tool", "diff", "init", "result", "system", "stderr", "stdout", "other"];
const KNOWN = new Set(["assistant", "thinking", "user", "tool_call", "tool_result", "diff", "init", "result", "system", "stderr", "stdout"]);
const DIFF_GROUP = 400;
const NOTE_GROUP = 200;
const MAX_DEPTH = 8; // nesting shown at most this deep (deeper subagents stay at 8)

export const str = (v) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
export const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function deltaField(e) {
  if (!e || e.delta !== true) return null;
  if (e.kind === "assistant" || e.kind === "thinking") return "text";
  if (e.kind === "tool_result") return "content";
  return null;
}

const GROUP_INDEX = new Map(KINDS.map((k, i) => [k, i]));
const OTHER = GROUP_INDEX.get("other");
const T_ENTRY = 0;
const T_TOOL = 1;
const T_DIFF = 2;
const T_NOTES = 3;
const TYPES = ["entry", "tool", "diff", "notes"];
const F_OPEN = 1;
const F_REAL = 2; // the row's (first) entry has a real ts
const F_RESULT_REAL = 4; // a tool row's result has a real ts
const F_KIDS = 8; // a tool card's subagent rows are shown (nested under it)
// One string per known kind: entries arrive structured-cloned, each with its own copy.
const INTERNED = new Map([...KNOWN].map((k) => [k, k]));

/** The filter group a row belongs to. */
export function groupOf(row) {
  return KINDS[row.t.groupCode[row.id]];
}

/** A session file's per-model-call result: folded into notes rows, filtered as a result. */
const isCall = (e) => e?.kind === "result" && e.subtype === "model_call";

function groupCodeOf(type, data) {
  if (type === T_TOOL) return GROUP_INDEX.get("tool");
  if (type === T_DIFF) return GROUP_INDEX.get("diff");
  if (type === T_NOTES) return GROUP_INDEX.get(isCall(data[0]) ? "result" : "system");
  const k = data.kind;
  const g = typeof k === "string" && KNOWN.has(k) ? GROUP_INDEX.get(k) : undefined;
  return g === undefined ? OTHER : g;
}

/** A view of row `id` of a Transcript. Rows are not objects of their own: a 2,000,000-line
 * log would hold 2M of them (with their boxed heights and estimates) for the garbage
 * collector to trace, and its major collections grew past 200 ms on the page. A row's
 * numbers live in typed arrays and its payload (the entry; a tool card's call and result;
 * a diff block's entries) in one array; a Row is a short-lived handle reading and writing
 * them, made on demand (compare rows by `id`, not by identity). */
export class Row {
  constructor(t, id) {
    this.t = t;
    this.id = id;
  }

  get type() { return TYPES[this.t.typeCode[this.id]]; }
  /** Bumped on every change, so a rendered row knows it is stale. */
  get v() { return this.t.vs[this.id]; }
  set v(x) { this.t.vs[this.id] = x; }
  /** Measured height in px (0: not measured). */
  get h() { return this.t.hs[this.id]; }
  set h(x) { this.t.hs[this.id] = x; }
  get est() { return this.t.ests[this.id]; }
  set est(x) { this.t.ests[this.id] = x; }
  get estW() { return this.t.estWs[this.id]; }
  set estW(x) { this.t.estWs[this.id] = x; }
  get estV() { return this.t.estVs[this.id]; }
  set estV(x) { this.t.estVs[this.id] = x; }
  get open() { return (this.t.flags[this.id] & F_OPEN) !== 0; }
  set open(x) { this.t.setFlag(this.id, F_OPEN, x); }
  get realTs() { return (this.t.flags[this.id] & F_REAL) !== 0; }
  get resultReal() { return (this.t.flags[this.id] & F_RESULT_REAL) !== 0; }
  /** Source line index of the row's (first) entry, -1 when none. */
  get line() { return this.t.lines[this.id]; }
  /** The entry of an "entry" row. */
  get entry() { return this.t.typeCode[this.id] === T_ENTRY ? this.t.data[this.id] : undefined; }
  /** A tool card's call and result (either may be null). */
  get call() { return this.t.typeCode[this.id] === T_TOOL ? this.t.data[this.id].call : undefined; }
  get result() { return this.t.typeCode[this.id] === T_TOOL ? this.t.data[this.id].result : undefined; }
  /** A diff block's entries. */
  get entries() { return this.t.typeCode[this.id] === T_DIFF ? this.t.data[this.id] : undefined; }
  /** A notes row's entries (system notices, model-call results). */
  get notes() { return this.t.typeCode[this.id] === T_NOTES ? this.t.data[this.id] : undefined; }
  /** Row id of the tool card this row's subagent belongs to, -1 when none. */
  get parent() { return this.t.parents[this.id]; }
  /** Nesting depth (0: the main agent). */
  get depth() { return this.t.depths[this.id]; }
  /** A card's subagent rows shown nested under it. */
  get kidsOpen() { return (this.t.flags[this.id] & F_KIDS) !== 0; }
  set kidsOpen(x) { this.t.setFlag(this.id, F_KIDS, x); }
  /** A card's subagent: { rows, tools, errors, inputTokens, outputTokens, costUsd } or undefined. */
  get sub() { return this.t.subs.get(this.id); }
  /** How many pieces of each long text are shown (www/render.js), or undefined. */
  get shown() { return this.t.shown.get(this.id); }
  set shown(x) { this.t.shown.set(this.id, x); }
}

export class Transcript {
  constructor() {
    this.reset();
  }

  reset() {
    this.count = 0; // rows
    this.alloc(0);
    this.data = []; // row id -> entry | { call, result } | diff entries
    this.hay = []; // row id -> lower-cased search text (filled by the first search)
    this.shown = new Map();
    this.entryCount = 0; // after delta merge
    this.rawCount = 0; // as the parser returned them
    this.kindCounts = Object.create(null); // merged entries by kind
    this.groupCounts = Object.create(null); // rows by filter group (a notes row: its entries)
    this.openCalls = new Map(); // toolUseId -> id of the card row still waiting for its result
    this.cards = new Map(); // toolUseId -> id of its card row (subagents find their parent)
    this.subs = new Map(); // card row id -> its subagent's counts
    this.resultRows = []; // [row id, entry] of every counted result, in order (charts)
    this.lastEntry = null; // the last merged entry
    this.lastRow = -1; // and its row
    this.init = null;
    this.result = null;
    this.results = 0;
    // The init and counted result entries, in order: what the worker's summarizeUsage reads
    // for the run's cost (stated, or estimated from list prices), set in `usage` when known.
    this.usageEntries = [];
    this.usage = null;
    // The run's totals the host's way: summed over every result but the host's own
    // `paperclip_runner_session_usage` (docs/entries.md says what each field means).
    this.sum = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheCreationTokens: 0, costUsd: 0 };
    this.errors = 0; // tool results with isError
    this.batch = 0;
    this.merged = []; // every entry after delta merge, in order (exports)
    this.mergedLines = []; // and its source line
    this.mergedReal = []; // and whether its ts is the log's own (the shared file keeps both)
    this.prompt = null; // the first user entry's text: the run's title
    this.firstTs = ""; // the first and last timestamps the log itself states
    this.lastTs = "";
  }

  // The per-row columns, grown by doubling.
  alloc(cap) {
    const grow = (Type, old) => {
      const a = new Type(cap);
      if (old) a.set(old.subarray(0, this.count));
      return a;
    };
    this.cap = cap;
    this.typeCode = grow(Uint8Array, this.typeCode);
    this.groupCode = grow(Uint8Array, this.groupCode);
    this.flags = grow(Uint8Array, this.flags);
    this.vs = grow(Uint32Array, this.vs);
    this.hs = grow(Float32Array, this.hs);
    this.ests = grow(Float32Array, this.ests);
    this.estWs = grow(Float32Array, this.estWs);
    this.estVs = grow(Uint32Array, this.estVs);
    this.lines = grow(Int32Array, this.lines);
    this.batches = grow(Uint32Array, this.batches);
    this.parents = grow(Int32Array, this.parents);
    this.depths = grow(Uint8Array, this.depths);
  }

  /** Room for `n` rows in the columns at once (the worker says how many lines are coming):
   * growing them by doubling near 2M rows copies ~60 MB of columns, and a large jump in
   * array-buffer memory can start a full collection of the page's heap in that task. */
  reserve(n) {
    const want = Math.min(Math.max(0, Math.floor(Number(n) || 0)), 1 << 22); // past 4M rows: doubling
    if (want > this.cap) this.alloc(want);
  }

  /** Row `id` (0 <= id < count). */
  row(id) {
    return new Row(this, id);
  }

  setFlag(id, bit, on) {
    this.flags[id] = on ? this.flags[id] | bit : this.flags[id] & ~bit;
  }

  /** Every measured height is stale (the text wraps differently). */
  forgetHeights() {
    this.hs.fill(0);
  }

  /** Adds a batch; `lines[i]` is entry i's source line, `real[i]` whether its ts is real.
   * Returns { from, to, changed }: rows [from, to) were appended, `changed` lists the ids
   * of existing rows modified. */
  add(entries, lines, real) {
    const from = this.count;
    const changed = new Set();
    this.touched = changed; // cards whose subagent counts change
    this.batch++;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      this.rawCount++;
      if (!e || typeof e !== "object") continue;
      // Strings compare by value, so this always assigns a known kind: the entry then
      // points at the one shared string and its own copy can be collected.
      const kindStr = INTERNED.get(e.kind);
      if (kindStr !== undefined) {
        try { e.kind = kindStr; } catch (ignored) { /* a frozen entry keeps its own copy */ }
      }
      const line = typeof lines?.[i] === "number" ? lines[i] : -1;
      const isReal = !!(real && real[i]);
      if (isReal && typeof e.ts === "string" && e.ts) {
        if (!this.firstTs) this.firstTs = e.ts;
        this.lastTs = e.ts;
      }
      if (this.prompt === null && kindStr === "user" && str(e.text).trim()) this.prompt = str(e.text);
      const f = deltaField(e);
      const last = this.lastEntry;
      if (f && last && last.kind === e.kind && deltaField(last) === f) {
        last[f] = str(last[f]) + str(e[f]);
        this.touch(this.lastRow, changed);
        continue;
      }
      if (kindStr === "tool_result" && this.settle(e, changed)) continue;
      this.entryCount++;
      this.merged.push(e);
      this.mergedLines.push(line);
      this.mergedReal.push(isReal);
      const kind = str(e.kind);
      this.kindCounts[kind] = (this.kindCounts[kind] || 0) + 1;
      this.lastRow = this.place(e, line, isReal, changed);
      this.lastEntry = e;
    }
    this.touched = null;
    for (const id of changed) if (id >= from) changed.delete(id);
    return { from, to: this.count, changed: [...changed] };
  }

  // A result streamed in pieces (`delta: true`, e.g. Kiro's output line by line, with diff
  // rows between them) stays one card: a later piece adds to it, the final result settles
  // it: its content replaces the pieces' unless empty, as in the host's view.
  settle(e, changed) {
    const useId = str(e.toolUseId);
    const open = useId ? this.openCalls.get(useId) : undefined;
    const held = open === undefined ? null : this.data[open].result;
    if (!held || held.delta !== true) return false;
    if (e.delta === true) {
      held.content = str(held.content) + str(e.content);
    } else {
      if (str(e.content)) held.content = e.content;
      held.delta = false;
      held.isError = e.isError === true;
      if (e.durationMs !== undefined) held.durationMs = e.durationMs;
      this.openCalls.delete(useId);
      if (held.isError) {
        this.errors++;
        this.addToSub(open, (s) => s.errors++);
      }
    }
    this.touch(open, changed);
    return true;
  }

  touch(id, changed) {
    this.vs[id]++;
    if (this.hay[id] !== undefined) this.hay[id] = undefined;
    if (this.batches[id] !== this.batch) changed.add(id);
  }

  /** One more in filter group `g`'s chip. */
  countGroup(g) {
    const name = KINDS[g];
    this.groupCounts[name] = (this.groupCounts[name] || 0) + 1;
  }

  newRow(type, data, line, flags) {
    if (this.count === this.cap) this.alloc(Math.max(1024, this.cap * 2));
    const id = this.count++;
    this.typeCode[id] = type;
    const g = groupCodeOf(type, data);
    this.groupCode[id] = g;
    this.flags[id] = flags;
    this.lines[id] = line;
    this.batches[id] = this.batch;
    this.data.push(data);
    this.countGroup(g);
    const first = type === T_TOOL ? data.call || data.result : type === T_ENTRY ? data : data[0];
    const pid = str(first?.parentToolUseId);
    const parent = pid ? this.cards.get(pid) : undefined;
    this.parents[id] = parent === undefined || parent === id ? -1 : parent;
    this.depths[id] = parent === undefined ? 0 : Math.min(MAX_DEPTH, this.depths[parent] + 1);
    if (parent !== undefined) this.countSub(id, type, data);
    return id;
  }

  /** Counts row `id` in its parent card's subagent (and the cards above it). */
  countSub(id, type, data) {
    for (let p = this.parents[id], hops = 0; p >= 0 && hops <= MAX_DEPTH; p = this.parents[p], hops++) {
      let s = this.subs.get(p);
      if (!s) this.subs.set(p, (s = { rows: 0, tools: 0, errors: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }));
      s.rows++;
      if (type === T_TOOL) s.tools++;
      this.vs[p]++;
      this.touched?.add(p);
    }
  }

  /** A subagent's tool error or result counted on its cards. */
  addToSub(id, f) {
    for (let p = this.parents[id], hops = 0; p >= 0 && hops <= MAX_DEPTH; p = this.parents[p], hops++) {
      const s = this.subs.get(p);
      if (s) { f(s); this.vs[p]++; this.touched?.add(p); }
    }
  }

  place(e, line, realTs, changed) {
    const real = realTs ? F_REAL : 0;
    switch (e.kind) {
      case "tool_call": {
        const id = this.newRow(T_TOOL, { call: e, result: null }, line, real);
        const useId = str(e.toolUseId);
        if (useId) {
          this.openCalls.set(useId, id);
          if (!this.cards.has(useId)) this.cards.set(useId, id);
        }
        return id;
      }
      case "tool_result": {
        if (e.isError === true) this.errors++;
        const useId = str(e.toolUseId);
        const open = useId ? this.openCalls.get(useId) : undefined;
        if (open !== undefined && !this.data[open].result) {
          this.data[open].result = e;
          if (realTs) this.flags[open] |= F_RESULT_REAL;
          if (e.delta !== true) this.openCalls.delete(useId);
          this.touch(open, changed);
          if (e.isError === true) this.addToSub(open, (s) => s.errors++);
          return open;
        }
        const id = this.newRow(T_TOOL, { call: null, result: e }, line, real | (realTs ? F_RESULT_REAL : 0));
        if (e.isError === true) this.addToSub(id, (s) => s.errors++);
        return id;
      }
      case "diff": {
        const prev = this.lastRow;
        if (prev >= 0 && prev === this.count - 1 && this.typeCode[prev] === T_DIFF && this.data[prev].length < DIFF_GROUP) {
          this.data[prev].push(e);
          this.touch(prev, changed);
          return prev;
        }
        return this.newRow(T_DIFF, [e], line, real);
      }
      case "init":
        this.init = e;
        this.usageEntries.push(e);
        break;
      case "result": {
        const call = e.subtype === "model_call";
        if (!call || !this.result) this.result = e;
        this.results++;
        let id;
        if (call) id = this.note(e, line, real, changed);
        else id = this.newRow(T_ENTRY, e, line, real);
        if (countResult(this.sum, e)) {
          this.resultRows.push([id, e]);
          this.usageEntries.push(e);
          this.addToSub(id, (s) => {
            s.inputTokens += num(e.inputTokens);
            s.outputTokens += num(e.outputTokens);
            s.costUsd += num(e.costUsd);
          });
        }
        return id;
      }
      case "system":
        return this.note(e, line, real, changed);
      default:
        break;
    }
    return this.newRow(T_ENTRY, e, line, real);
  }

  /** Folds a notice into the notes row just before it (same subagent, and both model calls
   * or both not), or starts one. */
  note(e, line, real, changed) {
    const prev = this.lastRow;
    const first = prev >= 0 ? this.data[prev][0] : undefined;
    if (prev >= 0 && prev === this.count - 1 && this.typeCode[prev] === T_NOTES && this.data[prev].length < NOTE_GROUP &&
        str(first.parentToolUseId) === str(e.parentToolUseId) && isCall(first) === isCall(e)) {
      this.data[prev].push(e);
      this.countGroup(this.groupCode[prev]);
      this.touch(prev, changed);
      return prev;
    }
    return this.newRow(T_NOTES, [e], line, real);
  }

  /** Lower-cased text a search looks through for row `id` (cached until the row changes). */
  haystack(id) {
    const cached = this.hay[id];
    if (cached !== undefined) return cached;
    let s;
    const d = this.data[id];
    const type = this.typeCode[id];
    if (type === T_TOOL) {
      const c = d.call || {};
      const r = d.result || {};
      s = [str(c.name), str(r.toolName), safeJson(c.input), str(r.content), str(c.toolUseId || r.toolUseId)].join("\n");
    } else if (type === T_DIFF) {
      s = d.map((e) => str(e.text)).join("\n");
    } else if (type === T_NOTES) {
      s = d.map((e) => [str(e.kind), str(e.text), str(e.subtype)].join("\n")).join("\n");
    } else {
      s = [str(d.kind), str(d.text), str(d.model), str(d.sessionId), str(d.subtype)].join("\n");
    }
    this.hay[id] = s = s.toLowerCase();
    return s;
  }
}

const SUM_KEYS = ["inputTokens", "outputTokens", "cachedTokens", "cacheCreationTokens", "costUsd"];

/** The host's run summary: adds result `e`'s tokens and cost to the fields `sum` has, unless
 * it is the host's own `paperclip_runner_session_usage` row; returns whether it counted.
 * (docs/entries.md says what each field means.) */
export function countResult(sum, e) {
  if (e.subtype === "paperclip_runner_session_usage") return false;
  for (const k of SUM_KEYS) if (k in sum && typeof e[k] === "number" && Number.isFinite(e[k])) sum[k] += e[k];
  return true;
}

/** A tool card's duration: {ms, from: "parser" | "ts"} or null. The parser's durationMs
 * when it gave one; else the result's ts minus the call's, when both are real. */
export function toolDuration(row) {
  const res = row.result;
  if (!res) return null;
  if (typeof res.durationMs === "number" && Number.isFinite(res.durationMs) && res.durationMs >= 0) return { ms: res.durationMs, from: "parser" };
  if (!row.call || !row.realTs || !row.resultReal) return null;
  const a = Date.parse(str(row.call.ts));
  const b = Date.parse(str(res.ts));
  return Number.isFinite(a) && Number.isFinite(b) && b >= a ? { ms: b - a, from: "ts" } : null;
}

export function safeJson(v, indent) {
  if (typeof v === "string") return v;
  try {
    const s = JSON.stringify(v, null, indent);
    return s === undefined ? "" : s;
  } catch (e) {
    return "(not JSON: " + str(e && e.message) + ")";
  }
}

/** Whether row `id` passes the kind filter (`enabled`: a Set of KINDS), the search (`q`:
 * already trimmed and lower-cased) and the tool filter (`tool`: a tool name or ""). */
export function passes(t, id, enabled, q, tool = "") {
  if (tool) {
    if (t.typeCode[id] !== T_TOOL) return false;
    const d = t.data[id];
    if (str(d.call?.name || d.result?.toolName) !== tool) return false;
  }
  return enabled.has(KINDS[t.groupCode[id]]) && (!q || t.haystack(id).includes(q));
}

/** Where row `id` goes in an unsearched view: "top" (the main agent, or a subagent whose
 * card is not in the transcript), "hidden" (a card above it has its subagent closed) or
 * "nested" (every card above it is open: it belongs right after them). */
export function placement(t, id) {
  let p = t.parents[id];
  if (p < 0) return "top";
  for (let hops = 0; p >= 0 && hops <= MAX_DEPTH; p = t.parents[p], hops++) {
    if ((t.flags[p] & F_KIDS) === 0) return "hidden";
  }
  return "nested";
}

/** The view: row ids passing the filters, in order. Unsearched, a subagent's rows are
 * nested right after its card (and its earlier rows) when the card's subagent is open and
 * left out when closed; searching or filtering by tool lists every match in line order. */
export function filterRows(t, enabled, query, tool = "") {
  const q = query.trim().toLowerCase();
  const into = [];
  if (q || tool) {
    for (let i = 0; i < t.count; i++) if (passes(t, i, enabled, q, tool)) into.push(i);
    return into;
  }
  let kids = null; // open card id -> its direct subagent rows
  for (let i = 0; i < t.count; i++) {
    const p = t.parents[i];
    if (p >= 0 && (t.flags[p] & F_KIDS) !== 0) {
      if (!kids) kids = new Map();
      let k = kids.get(p);
      if (!k) kids.set(p, (k = []));
      k.push(i);
    }
  }
  // Depth first without recursion (a hostile log may chain subagents deeply).
  const stack = [];
  for (let i = 0; i < t.count; i++) {
    if (t.parents[i] >= 0) continue;
    stack.push(i);
    while (stack.length) {
      const id = stack.pop();
      if (passes(t, id, enabled, "")) into.push(id);
      const k = kids && kids.get(id);
      if (k) for (let j = k.length - 1; j >= 0; j--) stack.push(k[j]);
    }
  }
  return into;
}

/** `filterRows` for a search or a tool filter over a big transcript, a slice of about
 *  `sliceMs` at a time so the page never blocks (a search over a million rows took ~1 s in
 *  one task): `progress(rowsDone)` between slices, `done(view)` at the end (rows added while
 *  it runs are searched too). Returns a function that cancels it. */
export function filterRowsSliced(t, enabled, query, tool, { sliceMs = 25, progress = () => {}, done, later = (f) => setTimeout(f, 0) }) {
  const q = query.trim().toLowerCase();
  const into = [];
  let i = 0;
  let cancelled = false;
  const run = () => {
    if (cancelled) return;
    const until = performance.now() + sliceMs;
    while (i < t.count) {
      const end = Math.min(t.count, i + 1024);
      for (; i < end; i++) if (passes(t, i, enabled, q, tool)) into.push(i);
      if (performance.now() >= until) break;
    }
    if (i < t.count) {
      progress(i);
      later(run);
      return;
    }
    done(into);
  };
  later(run);
  return () => { cancelled = true; };
}

// One formatter: Number.prototype.toLocaleString builds one per call, which made the
// summary's counts a visible part of every UI update on a 2M-row log.
const INT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** Compact numbers: 1234 -> "1,234". */
export function fmtInt(n) {
  return INT.format(Math.round(num(n)));
}

export function fmtCost(n) {
  const v = num(n);
  return v === 0 ? "$0" : v < 0.01 ? "$" + v.toFixed(4) : "$" + v.toFixed(2);
}
