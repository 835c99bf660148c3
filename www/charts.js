// The run summary you look at: the run's totals, then three small charts, drawn as SVG
// written here rather than with a charting library. What they need is three shapes (a
// polyline, bars, spans on lanes) with clicks and dark mode; the small, well-kept
// libraries (uPlot ~ 48 KB min, Chart.js ~ 200 KB) draw on a canvas, which needs its own
// hit testing for "click a bar, jump to its rows" and its own colours for dark mode, and
// would be vendored and kept current like markdown-it. This file is ~9 KB unminified; the
// SVG takes its colours from style.css (classes only, no inline style: the page's CSP has
// no 'unsafe-inline'), so dark mode and the CSP need nothing more. Entry data only ever
// reaches the DOM as text (textContent, <title> tooltips).
//
//  - cumulative tokens (input + output) and cost over the run's counted results (the
//    host's sum: every result but `paperclip_runner_session_usage`); a point jumps to its
//    result;
//  - time per tool: one bar per tool name (total duration, calls, errors); a bar filters the
//    list to that tool's cards;
//  - a timeline of tool calls on their real timestamps, the main agent on one lane and each
//    subagent on its own, user turns as marks; a span jumps to its card.
// Drawn when the panel is open: once the parse is done, and at most once a second while it
// runs. The data is gathered in one pass over the rows.
import { str, num, fmtInt, fmtCost, toolDuration, groupOf } from "./model.js";
import { el, fmtDuration, oneLine } from "./render.js";

const SVG = "http://www.w3.org/2000/svg";
// The charts' width in SVG units, set to the panel's pixel width at each draw (560-1600), so
// text stays at its size and the plots use the window.
let W = 720;
const MAX_POINTS = 400; // points drawn on the cumulative chart (sampled past that)
const MAX_BARS = 12;
const MAX_LANES = 8;
const MAX_SPANS = 3000; // the longest ones when there are more

function svg(tag, attrs, cls) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  if (cls) e.setAttribute("class", cls);
  return e;
}

function tip(node, text) {
  const t = svg("title", {});
  t.textContent = text;
  node.append(t);
  return node;
}

function realTime(row, e) {
  if (!row.realTs || !e) return NaN;
  return Date.parse(str(e.ts));
}

/** What the charts show, gathered row by row (`add`), then `finish`ed. */
class StatsBuilder {
  constructor(t) {
    this.t = t;
    this.tools = new Map(); // name -> { n, ms, errors, first }
    this.spans = [];
    this.turns = [];
    this.lanes = new Map([[-1, "main agent"]]); // lane key (card row id, -1 main) -> label
    this.first = Infinity;
    this.last = -Infinity;
    this.subagents = 0;
  }

  add(id) {
    const t = this.t;
    const row = t.row(id);
    if (row.sub) this.subagents++;
    if (row.type === "tool") {
      const call = row.call;
      const res = row.result;
      const name = oneLine(str(call?.name) || str(res?.toolName) || "tool", 60);
      let s = this.tools.get(name);
      if (!s) this.tools.set(name, (s = { n: 0, ms: 0, errors: 0, first: id }));
      s.n++;
      const d = toolDuration(row);
      if (d) s.ms += d.ms;
      if (res?.isError === true) s.errors++;
      const start = realTime(row, call || res);
      if (Number.isFinite(start)) {
        const end = d ? start + d.ms : start;
        this.first = Math.min(this.first, start);
        this.last = Math.max(this.last, end);
        const lane = row.parent;
        if (!this.lanes.has(lane)) {
          const card = t.row(lane);
          this.lanes.set(lane, "subagent: " + oneLine(str(card.call?.input?.description) || str(card.call?.name) || "tool", 40));
        }
        this.spans.push({ id, name, lane, start, end, error: res?.isError === true, open: !res });
      }
    } else if (row.type === "entry" && groupOf(row) === "user" && row.depth === 0) {
      const at = realTime(row, row.entry);
      if (Number.isFinite(at)) {
        this.turns.push({ id, at });
        this.first = Math.min(this.first, at);
        this.last = Math.max(this.last, at);
      }
    }
  }

  finish() {
    let tokens = 0;
    let cost = 0;
    const points = this.t.resultRows.map(([id, e]) => {
      tokens += num(e.inputTokens) + num(e.outputTokens);
      cost += num(e.costUsd);
      return { id, tokens, cost };
    });
    const { tools, spans, turns, lanes, first, last, subagents } = this;
    return { tools, spans, turns, lanes, points, first, last, subagents };
  }
}

/** What the charts show, from the transcript's rows. */
export function runStats(t) {
  const b = new StatsBuilder(t);
  for (let id = 0; id < t.count; id++) b.add(id);
  return b.finish();
}

/** runStats a slice of about `sliceMs` at a time (a million tool calls took 1.3 s in one
 *  task): `done(stats)` at the end; returns a function that cancels it. */
export function runStatsSliced(t, { sliceMs = 25, later = (f) => setTimeout(f, 0), done }) {
  const b = new StatsBuilder(t);
  const n = t.count;
  let id = 0;
  let cancelled = false;
  const run = () => {
    if (cancelled) return;
    const until = performance.now() + sliceMs;
    while (id < n) {
      b.add(id++);
      if ((id & 255) === 0 && performance.now() >= until) break;
    }
    if (id < n) later(run);
    else done(b.finish());
  };
  later(run);
  return () => { cancelled = true; };
}

function totals(t, st) {
  const s = t.sum;
  const box = el("div", "totals");
  const cell = (label, value, cls) => {
    const c = el("div", "total" + (cls ? " " + cls : ""));
    c.append(el("span", "v", value), el("span", "l", label));
    box.append(c);
  };
  const u = t.usage;
  if (u) {
    // One meaning for every runtime (docs/costs.md); the cost stated or estimated.
    cell("input tokens (uncached)", fmtInt(u.tokens.input));
    cell("output tokens", fmtInt(u.tokens.output));
    cell("cache reads", fmtInt(u.tokens.cacheRead));
    if (u.tokens.cacheWrite > 0) cell("cache writes", fmtInt(u.tokens.cacheWrite));
    cell(u.estimatedCostUsd > 0 ? `cost (estimated at list prices of ${u.prices.date})` : "cost", u.costShort);
  } else {
    cell("input tokens", fmtInt(s.inputTokens));
    cell("output tokens", fmtInt(s.outputTokens));
    cell("cache reads", fmtInt(s.cachedTokens));
    if (s.cacheCreationTokens > 0) cell("cache writes", fmtInt(s.cacheCreationTokens));
    cell("cost", fmtCost(s.costUsd));
  }
  cell("duration", Number.isFinite(st.first) && st.last > st.first ? fmtDuration(st.last - st.first) : "—");
  cell("tool calls", fmtInt(t.groupCounts.tool || 0));
  cell("errors", fmtInt(t.errors + (t.groupCounts.stderr || 0)), t.errors + (t.groupCounts.stderr || 0) ? "bad" : "");
  if (st.subagents) cell("subagents", fmtInt(st.subagents));
  return box;
}

function cumulative(st, jump) {
  const fig = el("figure", "chart cum");
  fig.append(el("figcaption", "", "cumulative tokens and cost over the run's results"));
  const pts = st.points;
  if (!pts.length) {
    fig.append(el("p", "muted", "No result in this log states tokens or cost."));
    return fig;
  }
  const H = 150;
  const pad = { l: 8, r: 8, t: 14, b: 16 };
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "cumulative tokens and cost" }, "plot");
  const maxT = pts[pts.length - 1].tokens || 1;
  const maxC = pts[pts.length - 1].cost || 0;
  const n = pts.length;
  const x = (i) => pad.l + (n === 1 ? (W - pad.l - pad.r) : (i * (W - pad.l - pad.r)) / (n - 1));
  const y = (v, max) => H - pad.b - (max > 0 ? (v * (H - pad.t - pad.b)) / max : 0);
  const step = Math.max(1, Math.ceil(n / MAX_POINTS));
  const idx = [];
  for (let i = 0; i < n; i += step) idx.push(i);
  if (idx[idx.length - 1] !== n - 1) idx.push(n - 1);
  g.append(svg("line", { x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b }, "axis"));
  const line = (key, max, cls) => svg("polyline", { points: idx.map((i) => `${x(i).toFixed(1)},${y(pts[i][key], max).toFixed(1)}`).join(" "), fill: "none" }, cls);
  g.append(line("tokens", maxT, "series tokens"));
  if (maxC > 0) g.append(line("cost", maxC, "series cost"));
  for (const i of idx.length <= 200 ? idx : idx.filter((_, k) => k % Math.ceil(idx.length / 200) === 0 || k === idx.length - 1)) {
    const p = pts[i];
    const c = svg("circle", { cx: x(i).toFixed(1), cy: y(p.tokens, maxT).toFixed(1), r: 3.5 }, "pt");
    c.dataset.row = String(p.id);
    tip(c, `result ${i + 1} of ${n}: ${fmtInt(p.tokens)} tokens, ${fmtCost(p.cost)} so far`);
    c.addEventListener("click", () => jump(p.id));
    g.append(c);
  }
  const label = (text, xx, yy, cls, anchor = "start") => {
    const tt = svg("text", { x: xx, y: yy, "text-anchor": anchor }, cls);
    tt.textContent = text;
    g.append(tt);
  };
  label(`${fmtInt(maxT)} tokens`, pad.l, pad.t - 3, "lbl tokens");
  if (maxC > 0) label(fmtCost(maxC), W - pad.r, pad.t - 3, "lbl cost", "end");
  label(`${fmtInt(n)} result${n === 1 ? "" : "s"}`, W - pad.r, H - 3, "lbl", "end");
  fig.append(g);
  return fig;
}

function toolBars(st, onTool) {
  const fig = el("figure", "chart bars");
  fig.append(el("figcaption", "", "time per tool (click a bar: only that tool's cards)"));
  const all = [...st.tools.entries()];
  if (!all.length) {
    fig.append(el("p", "muted", "No tool calls."));
    return fig;
  }
  const byTime = all.some(([, s]) => s.ms > 0);
  all.sort((a, b) => (byTime ? b[1].ms - a[1].ms : 0) || b[1].n - a[1].n);
  const shown = all.slice(0, MAX_BARS);
  const rowH = 20;
  const H = shown.length * rowH + 4;
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "time per tool" }, "plot");
  const labelW = 230;
  const max = Math.max(...shown.map(([, s]) => (byTime ? s.ms : s.n)), 1);
  shown.forEach(([name, s], i) => {
    const y = i * rowH + 2;
    const v = byTime ? s.ms : s.n;
    const w = Math.max(2, ((W - labelW - 8) * v) / max);
    const bar = svg("g", {}, "bar" + (s.errors ? " has-errors" : ""));
    bar.dataset.tool = name;
    const text = svg("text", { x: 4, y: y + 14 }, "lbl");
    text.textContent = `${name} · ${fmtInt(s.n)}×${byTime ? " · " + fmtDuration(s.ms) : ""}${s.errors ? ` · ${fmtInt(s.errors)} err` : ""}`;
    bar.append(text, svg("rect", { x: labelW, y: y + 3, width: w.toFixed(1), height: rowH - 6, rx: 2 }, "fill"));
    tip(bar, `${name}: ${fmtInt(s.n)} call${s.n === 1 ? "" : "s"}${byTime ? `, ${fmtDuration(s.ms)} in all` : ""}${s.errors ? `, ${fmtInt(s.errors)} errors` : ""}`);
    bar.addEventListener("click", () => onTool(name));
    g.append(bar);
  });
  fig.append(g);
  if (all.length > shown.length) fig.append(el("p", "muted", `${fmtInt(all.length - shown.length)} more tools with less ${byTime ? "time" : "calls"}.`));
  if (!byTime) fig.append(el("p", "muted", "No tool durations in this log: bars count calls."));
  return fig;
}

function timeline(st, jump) {
  const fig = el("figure", "chart timeline");
  fig.append(el("figcaption", "", "timeline: tool calls by lane, user turns as marks (click a span: its card)"));
  if (!st.spans.length || !(st.last > st.first)) {
    fig.append(el("p", "muted", "This log has no timestamps on its lines: no timeline."));
    return fig;
  }
  let spans = st.spans;
  if (spans.length > MAX_SPANS) spans = [...spans].sort((a, b) => (b.end - b.start) - (a.end - a.start)).slice(0, MAX_SPANS);
  const keys = [...st.lanes.keys()];
  const laneOf = new Map(keys.map((k, i) => [k, Math.min(i, MAX_LANES)]));
  const nLanes = Math.min(keys.length, MAX_LANES + 1);
  const laneH = 18;
  const top = 14;
  const labelW = 150;
  const H = top + nLanes * laneH + 14;
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "timeline of tool calls" }, "plot");
  const span = st.last - st.first;
  const x = (tm) => labelW + ((tm - st.first) * (W - labelW - 6)) / span;
  for (let i = 0; i < nLanes; i++) {
    const tt = svg("text", { x: 4, y: top + i * laneH + 13 }, "lbl");
    const name = i === MAX_LANES && keys.length > MAX_LANES + 1 ? `${keys.length - MAX_LANES} more subagents` : st.lanes.get(keys[i]);
    // Cut to the label column (~6.5 px a character at the labels' 11 px), whole in its tooltip.
    tt.textContent = oneLine(name, Math.floor((labelW - 10) / 6.5));
    const tip = svg("title", {});
    tip.textContent = name;
    tt.append(tip);
    g.append(tt, svg("line", { x1: labelW, y1: top + (i + 1) * laneH, x2: W - 6, y2: top + (i + 1) * laneH }, "grid"));
  }
  for (const u of st.turns) {
    const m = svg("line", { x1: x(u.at).toFixed(1), y1: top - 4, x2: x(u.at).toFixed(1), y2: H - 14 }, "turn");
    tip(m, "user turn");
    m.addEventListener("click", () => jump(u.id));
    g.append(m);
  }
  for (const sp of spans) {
    const lane = laneOf.get(sp.lane) ?? MAX_LANES;
    const x0 = x(sp.start);
    const r = svg("rect", { x: x0.toFixed(1), y: top + lane * laneH + 3, width: Math.max(1.5, x(sp.end) - x0).toFixed(1), height: laneH - 6 },
      "span" + (sp.error ? " error" : sp.open ? " open" : ""));
    r.dataset.row = String(sp.id);
    tip(r, `${sp.name}: ${sp.open ? "no result" : fmtDuration(sp.end - sp.start)}`);
    r.addEventListener("click", () => jump(sp.id));
    g.append(r);
  }
  const end = svg("text", { x: W - 6, y: H - 2, "text-anchor": "end" }, "lbl");
  end.textContent = fmtDuration(span);
  const start = svg("text", { x: labelW, y: H - 2 }, "lbl");
  start.textContent = "0 s";
  g.append(start, end);
  fig.append(g);
  return fig;
}

// Past this many rows the charts read the transcript a slice at a time.
const SLICED_ROWS = 20000;

/** The panel (a <details> with a body): drawn when open. */
export class RunCharts {
  constructor(root, t, { jump, tool }) {
    this.root = root;
    this.t = t;
    this.jump = jump;
    this.tool = tool;
    this.body = root.querySelector(".charts-body");
    this.drawnAt = 0;
    this.stale = true;
    root.addEventListener("toggle", () => { if (root.open) this.draw(); });
    // A wider or narrower window: drawn again at its width (once the resizing stops).
    let resized = 0;
    globalThis.addEventListener?.("resize", () => {
      clearTimeout(resized);
      resized = setTimeout(() => { if (this.root.open && !this.cancel) this.draw(this.drawnDone === this.t.count); }, 200);
    });
  }

  reset() {
    this.stale = true;
    if (this.cancel) { this.cancel(); this.cancel = null; }
    this.drawing = -1;
    this.drawnCount = 0;
    this.body.replaceChildren();
    if (this.root.open) this.draw();
  }

  /** The transcript changed; `done`: the parse finished. While a log loads the charts are
   *  redrawn at most once a second and only once the rows grew by half since the last
   *  drawing (each drawing reads every row: so the load reads them about three times in
   *  all, not once a second over a growing log). */
  update(done) {
    this.stale = true;
    if (!this.root.open) return;
    const now = performance.now();
    // The final drawing once: one under way for these rows is not started again.
    if (done ? this.drawnDone !== this.t.count && this.drawing !== this.t.count : now - this.drawnAt > 1000 && this.t.count >= 1.5 * (this.drawnCount || 0) && !this.cancel) this.draw(done);
  }

  /** Reads the rows a slice at a time past SLICED_ROWS (no long task), then draws. */
  draw(done = true) {
    const t0 = performance.now();
    const paint = (st) => {
      this.cancel = null;
      W = Math.round(Math.min(1600, Math.max(560, (this.body.clientWidth || this.root.clientWidth || 744) - 4)));
      this.drawing = -1;
      this.body.replaceChildren(totals(this.t, st), cumulative(st, this.jump), toolBars(st, this.tool), timeline(st, this.jump));
      this.drawnAt = performance.now();
      this.drawnCount = this.t.count;
      this.drawnDone = done ? this.t.count : -1;
      this.stale = false;
      this.root.dataset.drawMs = String(Math.round(this.drawnAt - t0));
      delete this.root.dataset.drawing;
    };
    if (this.cancel) { this.cancel(); this.cancel = null; }
    this.drawing = done ? this.t.count : -1;
    if (this.t.count <= SLICED_ROWS) {
      paint(runStats(this.t));
      return;
    }
    this.root.dataset.drawing = "1";
    this.drawnAt = performance.now();
    this.cancel = runStatsSliced(this.t, { done: paint });
  }
}
