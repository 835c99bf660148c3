// The viewer's transcript model: parser entries in, display rows out. No DOM here (Node
// can import it). Entries are untrusted data: every field is read defensively.
//  - consecutive `delta: true` entries of one kind merge into one, text appended, as the
//    host's transcript view does (assistant/thinking `text`, tool_result `content`; the
//    merged entry keeps the first one's ts);
//  - a tool_call and its tool_result (same toolUseId) make ONE card row; a result with no
//    open call is a card of its own;
//  - consecutive diff entries group into one diff row (at most DIFF_GROUP lines);
//  - everything else is one row per entry.
// Rows carry `v` (bumped on every change, so a rendered row knows it is stale) and
// `realTs` (the entry's ts came from the log itself: a record's own timestamp, a Paperclip
// run-log row's ts or the live clock, not the viewer's one-second-per-line stand-in); tool
// durations are only computed from real timestamps.

export const KINDS = ["assistant", "thinking", "user", "tool", "diff", "init", "result", "system", "stderr", "stdout", "other"];
const KNOWN = new Set(["assistant", "thinking", "user", "tool_call", "tool_result", "diff", "init", "result", "system", "stderr", "stdout"]);
const DIFF_GROUP = 400;

export const str = (v) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
export const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function deltaField(e) {
  if (!e || e.delta !== true) return null;
  if (e.kind === "assistant" || e.kind === "thinking") return "text";
  if (e.kind === "tool_result") return "content";
  return null;
}

/** The filter group a row belongs to. */
export function groupOf(row) {
  if (row.type === "tool") return "tool";
  if (row.type === "diff") return "diff";
  const k = row.entry.kind;
  return KNOWN.has(k) ? k : "other";
}

export class Transcript {
  constructor() {
    this.reset();
  }

  reset() {
    this.rows = [];
    this.entryCount = 0; // after delta merge
    this.rawCount = 0; // as the parser returned them
    this.kindCounts = Object.create(null); // merged entries by kind
    this.groupCounts = Object.create(null); // rows by filter group
    this.openCalls = new Map(); // toolUseId -> card row still waiting for its result
    this.last = null; // { entry, row } of the last merged entry
    this.init = null;
    this.result = null;
    this.results = 0;
    this.errors = 0; // tool results with isError
    this.batch = 0;
    this.merged = []; // every entry after delta merge, in order (exports)
  }

  /** Adds a batch; `lines[i]` is entry i's source line, `real[i]` whether its ts is real.
   * Returns { added: rows appended, changed: existing rows modified }. */
  add(entries, lines, real) {
    const added = [];
    const changed = new Set();
    this.batch++;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      this.rawCount++;
      if (!e || typeof e !== "object") continue;
      const line = typeof lines?.[i] === "number" ? lines[i] : -1;
      const isReal = !!(real && real[i]);
      const f = deltaField(e);
      if (f && this.last && this.last.entry.kind === e.kind && deltaField(this.last.entry) === f) {
        this.last.entry[f] = str(this.last.entry[f]) + str(e[f]);
        this.touch(this.last.row, changed, added);
        continue;
      }
      this.entryCount++;
      this.merged.push(e);
      const kind = str(e.kind);
      this.kindCounts[kind] = (this.kindCounts[kind] || 0) + 1;
      const row = this.place(e, line, isReal, added, changed);
      this.last = { entry: e, row };
    }
    return { added, changed };
  }

  touch(row, changed, added) {
    row.v++;
    row.hay = null;
    if (row.batch !== this.batch) changed.add(row);
  }

  newRow(type, fields, added) {
    const row = { id: this.rows.length, type, v: 0, h: 0, open: false, hay: null, batch: this.batch, ...fields };
    this.rows.push(row);
    added.push(row);
    const g = groupOf(row);
    this.groupCounts[g] = (this.groupCounts[g] || 0) + 1;
    return row;
  }

  place(e, line, realTs, added, changed) {
    switch (e.kind) {
      case "tool_call": {
        const row = this.newRow("tool", { call: e, result: null, line, realTs, resultReal: false }, added);
        const id = str(e.toolUseId);
        if (id) this.openCalls.set(id, row);
        return row;
      }
      case "tool_result": {
        if (e.isError === true) this.errors++;
        const id = str(e.toolUseId);
        const open = id ? this.openCalls.get(id) : undefined;
        if (open && !open.result) {
          open.result = e;
          open.resultReal = realTs;
          this.openCalls.delete(id);
          this.touch(open, changed, added);
          return open;
        }
        return this.newRow("tool", { call: null, result: e, line, realTs, resultReal: realTs }, added);
      }
      case "diff": {
        const prev = this.last?.row;
        if (prev && prev.type === "diff" && prev === this.rows[this.rows.length - 1] && prev.entries.length < DIFF_GROUP) {
          prev.entries.push(e);
          this.touch(prev, changed, added);
          return prev;
        }
        return this.newRow("diff", { entries: [e], line, realTs }, added);
      }
      case "init":
        this.init = e;
        break;
      case "result":
        this.result = e;
        this.results++;
        break;
      default:
        break;
    }
    return this.newRow("entry", { entry: e, line, realTs }, added);
  }

  /** Lower-cased text a search looks through (cached until the row changes). */
  haystack(row) {
    if (row.hay !== null) return row.hay;
    let s;
    if (row.type === "tool") {
      const c = row.call || {};
      const r = row.result || {};
      s = [str(c.name), str(r.toolName), safeJson(c.input), str(r.content), str(c.toolUseId || r.toolUseId)].join("\n");
    } else if (row.type === "diff") {
      s = row.entries.map((e) => str(e.text)).join("\n");
    } else {
      const e = row.entry;
      s = [str(e.kind), str(e.text), str(e.model), str(e.sessionId), str(e.subtype)].join("\n");
    }
    row.hay = s.toLowerCase();
    return row.hay;
  }
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

/** Rows passing the kind filter and search (indexes into transcript.rows). */
export function filterRows(t, enabled, query, from = 0, into = []) {
  const q = query.trim().toLowerCase();
  for (let i = from; i < t.rows.length; i++) {
    const row = t.rows[i];
    if (!enabled.has(groupOf(row))) continue;
    if (q && !t.haystack(row).includes(q)) continue;
    into.push(i);
  }
  return into;
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
