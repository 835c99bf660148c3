// The run viewer page: inputs (bundled sample, local file or drop, pasted text, live tail),
// the parser worker (www/worker-client.js), the transcript model (www/model.js) and the
// virtualized list (www/vlist.js). URL parameters (paths relative to the repo root, served
// next to www/): sample=tests/fixtures/…, log=<path>, parser=<path>.js (default
// dist/index.cjs, the npm entry, whose batch call reads big files in slices; the host's own
// files, e.g. dist/ui-parser.stateless.js, are read line by line as the host does), folder=1 (the folder `npx agentlines view` serves), live=1, speed=N, stateless=1, follow=1, dev=1 (the developer controls,
// shown too when parser, stateless or live is set); the hash #L123 opens the log
// at line 123 (every row's L-number links to itself). The body's data-parser / data-state
// attributes say where things are (the browser tests wait on them).
import { ParserHost, parserPath } from "./worker-client.js";
import { Transcript, KINDS, filterRows, filterRowsSliced, passes, placement, groupOf, fmtInt, fmtCost, str } from "./model.js";
import { RunCharts } from "./charts.js";
import { Sessions, RemoteLog, rangeBlob } from "./sessions.js";
import { renderRow, estimateHeight, highlight, fmtDuration, oneLine } from "./render.js";
import { VirtualList } from "./vlist.js";
import { toMarkdownBlob, toJsonBlob } from "./export.js";
import { visibleControls } from "./text.js";
import { toHtmlBlob, sharedRun, SharedHost } from "./share.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const body = document.body;

const t = new Transcript();
let view = [];
const enabled = new Set(KINDS);
let query = "";
let toolFilter = ""; // a tool name chosen in the charts ("" = every row)
let nestDirty = false; // a subagent row arrived under an open card: the view is rebuilt
let nestTimer = 0;
let run = null; // { label, t0, done, total, pos, ms, mode, live }
let liveTimer = null;
// A file followed as it grows ("follow a file…", the File System Access API):
// (see startTail for its fields).
let tail = null;
let tailGen = 0; // bumped by each start of a follow and each run: an older start gives up
const TAIL_MS = 1000;
const TAIL_LINE_MAX = (16 << 20) + 1; // a begun line kept up to the parser's line cap
const TAIL_COPY_MAX = 64 << 20; // a file up to this is copied when the follow starts
const TAIL_HEAD = 1024; // bytes compared to tell another file in the followed one's place
const TAIL_READ_MAX = 4 << 20; // read per look (the rest at the next)
const TAIL_RETRIES = 3; // starts tried again when the file could not be read
const TAIL_FAILURES = 30; // looks in a row that fail before following stops
const TAIL_RUNLOG_MS = 3000; // a growing run log is read again at most this often
let uiFrame = 0;
let current = -1; // view position of the current search match (next/previous)
let target = null; // { line } asked for by #L<line>; row id once found
let targetRow = -1;

const rowCtx = {
  decorate: (node) => { const q = query.trim(); if (q) highlight(node, q); },
  toggleKids,
};

function renderListRow(row) {
  const el = renderRow(row, rowCtx);
  const q = query.trim();
  if (q) highlight(el, q);
  const depth = q || toolFilter ? 0 : row.depth;
  if (depth > 0) {
    el.classList.add("nested");
    el.style.marginLeft = `${14 + depth * 24}px`; // the row margin (14 px) plus 24 px a level; CSSOM: allowed under style-src 'self'
  }
  if (current >= 0 && view[current] === row.id) el.classList.add("current");
  if (row.id === targetRow) el.classList.add("target");
  return el;
}

const list = new VirtualList($("list"), {
  row: (i) => t.row(view[i]),
  render: renderListRow,
  estimate: estimateHeight,
  forget: () => t.forgetHeights(),
});

// In a shared file (www/share.js) the run is in the page: no parser, no worker.
const shared = sharedRun();
const host = shared ? new SharedHost(shared) : new ParserHost(showParser);
const charts = new RunCharts($("charts"), t, {
  jump: (id) => revealRow(id),
  tool: (name) => setToolFilter(name === toolFilter ? "" : name),
});
let sessions = null; // the folder view (www/sessions.js), made when a folder is opened
let parserFile = ""; // the parser the page loaded (the folder view loads the same)

function showParser(st) {
  const box = $("parser-status");
  body.dataset.parser = st.state;
  box.replaceChildren();
  if (st.state === "ready") {
    box.className = "parser-status dev-only ok";
    box.textContent = `${fmtInt(st.bytes / 1024)} KiB · evaluated in ${st.evalMs.toFixed(0)} ms, ` +
      `first call ${st.firstCallMs.toFixed(0)} ms · exports ${st.exports.join(", ")}`;
  } else if (st.state === "fallback") {
    box.className = "parser-status dev-only bad";
    const b = document.createElement("strong");
    b.textContent = "parser not loaded — showing every line as stdout. ";
    const why = document.createElement("span");
    why.id = "fallback-reason";
    why.textContent = `${st.stage}: ${st.reason}`;
    box.append(b, why);
  }
}

function buildFilters() {
  const box = $("kind-filters");
  for (const k of KINDS) {
    const label = document.createElement("label");
    label.className = "kind-filter k-" + k;
    const cb = document.createElement("input");
    cb.type = "checkbox";
    cb.checked = true;
    cb.value = k;
    cb.addEventListener("change", () => {
      if (cb.checked) enabled.add(k); else enabled.delete(k);
      refilter();
    });
    const name = document.createElement("span");
    name.textContent = k === "tool" ? "tools" : k;
    const count = document.createElement("span");
    count.className = "count";
    count.dataset.kind = k;
    label.append(cb, name, count);
    box.append(label);
  }
}

// A search or tool filter over more rows than this runs a slice at a time (no long task);
// `searching` cancels the one under way, `afterSearch` runs once it is done (next/previous
// pressed meanwhile).
const SLICED_SEARCH_ROWS = 50000;
let searching = null;
let afterSearch = [];
let exportGen = 0; // an export started before the transcript changed gives up

// `keep`: a row id to keep in view (a card whose subagent opened or closed).
function refilter(keep = -1) {
  if (searching) { searching(); searching = null; delete body.dataset.searching; }
  if ((query.trim() || toolFilter) && t.count > SLICED_SEARCH_ROWS) {
    body.dataset.searching = "1";
    searching = filterRowsSliced(t, enabled, query, toolFilter, {
      progress: (n) => { $("match-pos").textContent = `searching… ${fmtInt(n)} of ${fmtInt(t.count)} rows`; },
      done: (v) => {
        searching = null;
        delete body.dataset.searching;
        showView(v, keep);
        const then = afterSearch;
        afterSearch = [];
        for (const f of then) f();
      },
    });
    return;
  }
  showView(filterRows(t, enabled, query, toolFilter), keep);
  const then = afterSearch;
  afterSearch = [];
  for (const f of then) f();
}

function showView(v, keep) {
  view = v;
  current = -1;
  nestDirty = false;
  list.reset(view.length);
  if (keep >= 0) {
    const i = view.indexOf(keep);
    if (i >= 0) list.scrollToIndex(i);
  }
  scheduleUi();
}

/** Shows or hides a card's subagent rows, nested under it. */
function toggleKids(row) {
  row.kidsOpen = !row.kidsOpen;
  row.v++;
  $("follow").checked = false;
  list.follow = false;
  refilter(row.id);
  body.dataset.nested = String(view.filter((id) => t.row(id).depth > 0).length);
}

/** Scrolls to row `id`, opening the subagents above it and clearing filters that hide it. */
function revealRow(id) {
  if (id < 0 || id >= t.count) return;
  let changed = false;
  for (let p = t.row(id).parent, hops = 0; p >= 0 && hops < 16; p = t.row(p).parent, hops++) {
    const card = t.row(p);
    if (!card.kidsOpen) { card.kidsOpen = true; card.v++; changed = true; }
  }
  let i = view.indexOf(id);
  if (i < 0 || changed) {
    if (i < 0 && (query || toolFilter || enabled.size < KINDS.length)) {
      query = "";
      $("search").value = "";
      setToolFilter("", false);
      for (const k of KINDS) enabled.add(k);
      for (const cb of document.querySelectorAll("#kind-filters input")) cb.checked = true;
    }
    refilter();
    i = view.indexOf(id);
  }
  if (i < 0) return;
  $("follow").checked = false;
  list.follow = false;
  const row = t.row(id);
  const old = targetRow >= 0 ? t.row(targetRow) : null;
  targetRow = id;
  if (old) { old.v++; list.invalidate(old); }
  row.v++;
  list.invalidate(row);
  list.scrollToIndex(i);
  body.dataset.target = String(row.line + 1);
}

function setToolFilter(name, apply = true) {
  toolFilter = name;
  const chip = $("tool-filter");
  chip.hidden = !name;
  $("tool-filter-name").textContent = name ? visibleControls(name) : "";
  if (apply) refilter();
}

// Next / previous search match: the matching rows are the view; the current one is marked,
// scrolled to and opened (a match inside a closed card's input is then visible).
function step(dir) {
  if (searching) { afterSearch.push(() => step(dir)); return; }
  if (!query.trim() || !view.length) return;
  const prev = current >= 0 ? t.row(view[current]) : null;
  current = current < 0 ? (dir > 0 ? 0 : view.length - 1) : (current + dir + view.length) % view.length;
  const row = t.row(view[current]);
  if (prev) { prev.v++; list.invalidate(prev); }
  if ((row.type === "tool" || row.type === "notes" || groupOf(row) === "thinking") && !row.open) { row.open = true; row.h = 0; }
  row.v++;
  list.invalidate(row);
  list.scrollToIndex(current);
  scheduleUi();
  // The hit itself on screen, not only its row: a long card's match may be far down in it.
  const mine = current;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (current !== mine) return;
    const hit = document.querySelector("#list .vl-row.current mark.hit");
    if (!hit) return;
    const box = $("list").getBoundingClientRect();
    const r = hit.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) hit.scrollIntoView({ block: "center" });
  }));
}

// #L<n>: the first row whose line is n or later (rows are in line order).
function goToTarget() {
  const m = /^#L(\d+)$/.exec(location.hash);
  if (!m) { target = null; return; }
  target = { line: Number(m[1]) };
  const want = target.line - 1;
  let lo = 0;
  let hi = view.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.lines[view[mid]] < want) lo = mid + 1; else hi = mid;
  }
  if (lo >= view.length) return; // not there (yet): tried again as rows arrive
  const row = t.row(view[lo]);
  const old = targetRow >= 0 ? t.row(targetRow) : null;
  targetRow = row.id;
  if (old) { old.v++; list.invalidate(old); }
  row.v++;
  list.invalidate(row);
  $("follow").checked = false;
  list.follow = false;
  list.scrollToIndex(lo);
  target = null;
  body.dataset.target = String(row.line + 1);
}

function setAllOpen(open) {
  for (let id = 0; id < t.count; id++) {
    const row = t.row(id);
    const openable = row.type === "tool" || (row.type === "notes" && row.notes.length > 1) ||
      (row.type === "entry" && (groupOf(row) === "thinking" || (groupOf(row) === "result" && str(row.entry.text))));
    if (openable && row.open !== open) {
      row.open = open;
      row.h = 0;
      row.v++;
    }
  }
  list.remeasure();
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function exportName(ext) {
  const base = (run?.label || "transcript").replace(/\s*\(.*$/, "").replace(/^.*\//, "").replace(/\.[^.]*$/, "");
  return (base.replace(/[^\w.-]+/g, "_").slice(0, 80) || "transcript") + ".transcript." + ext;
}

function scheduleUi() {
  if (!uiFrame) uiFrame = requestAnimationFrame(() => { uiFrame = 0; updateUi(); });
}

function updateUi() {
  for (const c of document.querySelectorAll("#kind-filters .count")) {
    const n = t.groupCounts[c.dataset.kind] || 0;
    c.textContent = fmtInt(n);
    c.parentElement.classList.toggle("zero", n === 0);
  }
  const q = query.trim();
  $("match-count").textContent = q || enabled.size < KINDS.length ? `${fmtInt(view.length)} of ${fmtInt(t.count)} rows` : "";
  $("match-pos").textContent = q && view.length ? (current >= 0 ? `match ${fmtInt(current + 1)} of ${fmtInt(view.length)}` : `${fmtInt(view.length)} matching rows`) : "";
  $("search-prev").disabled = $("search-next").disabled = !(q && view.length);
  $("empty").hidden = t.count > 0 || !!run;
  const none = t.count > 0 && view.length === 0;
  $("no-match").hidden = !none;
  if (none) {
    $("no-match").textContent = q
      ? `No matches for “${visibleControls(q)}”${enabled.size < KINDS.length ? " in the kinds shown" : ""} (${fmtInt(t.count)} rows searched).`
      : "No rows of the kinds shown.";
  }
  $("export-md").disabled = $("export-json").disabled = $("export-html").disabled = t.count === 0;
  runHead();
  const init = t.init;
  $("sum-model").textContent = init ? visibleControls(`model ${str(init.model) || "?"} · session ${str(init.sessionId) || "?"}`) : "";
  const r = t.result;
  $("sum-result").className = "sum" + (r && r.isError === true ? " error" : "");
  const s = t.sum;
  const u = t.usage;
  // With the run's usage known: one meaning for every runtime, the cost stated or estimated
  // (marked ≈); before it (or from a parser file without summarizeUsage), the host's sums.
  const tokens = u
    ? `input ${fmtInt(u.tokens.input)} · cache reads ${fmtInt(u.tokens.cacheRead)}${u.tokens.cacheWrite > 0 ? ` · cache writes ${fmtInt(u.tokens.cacheWrite)}` : ""} · output ${fmtInt(u.tokens.output)} tokens · ${u.costShort}`
    : `in ${fmtInt(s.inputTokens)} · out ${fmtInt(s.outputTokens)} · ` +
      `cached ${fmtInt(s.cachedTokens)}${s.cacheCreationTokens > 0 ? ` · cache writes ${fmtInt(s.cacheCreationTokens)}` : ""} tokens · ${fmtCost(s.costUsd)}`;
  $("sum-result").textContent = r
    ? `${r.subtype === "model_call" ? "model calls" : str(r.subtype) || "result"}${r.isError === true && !/error/i.test(str(r.subtype)) ? " (error)" : ""} · ${tokens}` +
      `${t.results > 1 ? ` · sum of ${fmtInt(t.results)} results` : ""}`
    : "";
  $("sum-result").title = u ? `${u.cost}${u.estimatedCostUsd > 0 ? ` — ${u.prices.source}` : ""}` : "";
  const tools = t.groupCounts.tool || 0;
  const parts = [];
  if (run) {
    parts.push(`${fmtInt(run.pos - run.start)}${run.done ? "" : ` / ${run.estimate ? "≈" : ""}${fmtInt(run.total - run.start)}`} lines`);
    parts.push(`${fmtInt(t.entryCount)} entries (${fmtInt(t.rawCount)} before delta merge)`);
    parts.push(`${fmtInt(t.count)} rows`);
    parts.push(`${fmtInt(tools)} tool cards${t.errors ? ` (${t.errors} errors)` : ""}`);
    if (run.tail && tail) parts.push(`following: ${fmtInt(tail.added)} lines added`);
    if (run.done && !run.live) parts.push(`parsed in ${fmtInt(run.wallMs)} ms (${run.mode})`);
    else parts.push(run.mode || "");
  }
  $("sum-counts").textContent = parts.filter(Boolean).join(" · ");
  const p = $("progress");
  if (run && !run.done) {
    p.hidden = false;
    p.value = run.total > run.start ? (run.pos - run.start) / (run.total - run.start) : 0;
  } else p.hidden = true;
  body.dataset.rows = String(t.count);
  charts.update(run ? run.done : true);
  // Last, so that a test waiting for "done" finds the counts above already written.
  if (run && run.done && body.dataset.state !== "error") body.dataset.state = "done";
}

/** A timestamp as the reader's local "YYYY-MM-DD HH:MM" ("" if it does not parse). */
function localTime(ms) {
  if (!Number.isFinite(ms)) return "";
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The run first: what was asked, then model, when, how long, what it cost, its tool calls
 * and errors and how it ended, each as the log states it (cost estimated where the log has
 * none, marked ≈). */
function runHead() {
  const head = $("run-head");
  head.hidden = !run;
  if (!run) return;
  const prompt = t.prompt === null ? "" : t.prompt.trim();
  $("run-title").textContent = prompt ? oneLine(visibleControls(prompt), 240) : visibleControls(run.label || "");
  $("run-title").title = prompt ? visibleControls(prompt.slice(0, 2000)) : "";
  const facts = [];
  const fact = (label, value, bad) => facts.push([label, value, bad]);
  // The model that answered (the result's), else the one the run started with.
  const model = str(t.result?.model) || str(t.init?.model);
  if (model) fact("model", oneLine(visibleControls(model), 80));
  const first = Date.parse(t.firstTs), last = Date.parse(t.lastTs);
  if (Number.isFinite(first)) fact("started", localTime(first));
  if (Number.isFinite(first) && last > first) fact("took", fmtDuration(last - first));
  const u = t.usage;
  if (u) fact("cost", u.costShort);
  else if (t.sum.costUsd > 0) fact("cost", fmtCost(t.sum.costUsd));
  fact("tool calls", fmtInt(t.groupCounts.tool || 0));
  if (t.errors) fact("tool errors", fmtInt(t.errors), true);
  const r = t.result;
  if (r && r.subtype !== "model_call") fact("ended", r.isError === true ? `with an error${str(r.subtype) && !/error/i.test(str(r.subtype)) ? ` (${oneLine(visibleControls(str(r.subtype)), 40)})` : ""}` : "ok", r.isError === true);
  const box = $("run-facts");
  box.replaceChildren(...facts.map(([label, value, bad]) => {
    const f = document.createElement("span");
    f.className = "fact" + (bad ? " bad" : "");
    const v = document.createElement("strong");
    v.textContent = value;
    f.append(label + " ", v);
    return f;
  }));
}

function setDev(on) {
  $("dev").checked = on;
  body.classList.toggle("dev", on);
}

function stopRun() {
  if (liveTimer) clearInterval(liveTimer);
  liveTimer = null;
  stopTail();
  tailGen++;
  host.stop();
  $("pause").disabled = true;
}

/** `opts.tail`: the input is the start of a file followed as it grows (see followFile).
 * Returns whether the run started (not while the parser loads). */
function startRun(input, label, opts = {}) {
  if (body.dataset.parser === "loading") return false;
  stopRun();
  // A search or an export of the last transcript under way stops here: its rows are gone.
  if (searching) { searching(); searching = null; }
  afterSearch = [];
  delete body.dataset.searching;
  exportGen++;
  t.reset();
  view = [];
  list.reset(0);
  toolFilter = "";
  $("tool-filter").hidden = true;
  charts.reset();
  const live = $("live").checked;
  const liveStart = Number($("start-at").value) || 0;
  run = { label, t0: performance.now(), done: false, total: 0, start: 0, pos: 0, mode: "", live, wallMs: 0, tail: !!opts.tail, runLog: false };
  body.dataset.run = String(Number(body.dataset.run || 0) + 1);
  $("source").textContent = visibleControls(label);
  current = -1;
  targetRow = -1;
  body.dataset.state = live ? "live" : "parsing";
  if (live) $("follow").checked = true;
  list.follow = $("follow").checked;
  host.parse(input, { stateless: $("stateless").checked, live, startFraction: liveStart, tail: !!opts.tail }, {
    opened(msg) {
      run.opened = true;
      run.runLog = msg.runLog === true;
      t.reserve(msg.total - msg.start);
      run.total = msg.total;
      run.start = msg.start;
      run.pos = msg.start;
      run.mode = msg.mode;
      if (live) startLiveTimer();
      scheduleUi();
    },
    entries(entries, lines, msg) {
      const { from, to, changed } = t.add(entries, lines, msg.real);
      const q = query.trim().toLowerCase();
      for (let id = from; id < to; id++) {
        if (!passes(t, id, enabled, q, toolFilter)) continue;
        const where = q || toolFilter ? "top" : placement(t, id);
        if (where === "top") view.push(id);
        else if (where === "nested") nestDirty = true;
      }
      if (nestDirty && !nestTimer) {
        // Rows of an open subagent go in after its card: the view is rebuilt, at most
        // once a second while parsing, keeping the row at the top of the screen in place.
        nestTimer = setTimeout(() => { nestTimer = 0; if (nestDirty) refilter(view[list.firstVisible?.() ?? 0] ?? -1); }, 1000);
      }
      for (const id of changed) list.invalidate(t.row(id));
      if (to > from) list.grow(view.length);
      run.pos = msg.pos;
      run.total = msg.total;
      run.estimate = msg.estimate === true;
      if (msg.done && !run.done) {
        run.done = true;
        run.wallMs = performance.now() - run.t0;
        run.workerMs = msg.ms;
        if (liveTimer) clearInterval(liveTimer);
        liveTimer = null;
        $("pause").disabled = true;
        body.dataset.parseMs = String(Math.round(run.wallMs));
        body.dataset.workerMs = String(Math.round(run.workerMs || 0));
        updateUsage();
      } else if (msg.done && run.tail) {
        // Lines a followed file gained: the totals again.
        updateUsage(true);
      }
      // A followed file that could not be read (written while it was): started again, and
      // after TAIL_RETRIES such starts no longer followed.
      if (msg.failed && run.tail && tail) {
        const me = tail;
        if (me.retries < TAIL_RETRIES) {
          setTimeout(() => { if (tail === me) startTail(me.handle, me.scroll, { retries: me.retries + 1 }); }, TAIL_MS);
        } else {
          stopTail();
          $("source").textContent = `${visibleControls(me.name)} — stopped following: it could not be read`;
        }
      }
      if (target || (location.hash.startsWith("#L") && targetRow < 0 && msg.done)) goToTarget();
      scheduleUi();
    },
    error(reason) {
      run.done = true;
      body.dataset.state = "error";
      $("source").textContent = `${visibleControls(label)} — ${reason}`;
      scheduleUi();
    },
  });
  scheduleUi();
  return true;
}

/** The run's cost, stated or estimated from list prices (the worker's summarizeUsage).
 * `coalesce` (a followed file's new lines): while one is asked, the next waits for it. */
let usageBusy = false;
let usageAgain = false;
function updateUsage(coalesce = false) {
  if (coalesce && usageBusy) { usageAgain = true; return; }
  usageBusy = true;
  const thisRun = run;
  host.usage(t.usageEntries).then((u) => {
    usageBusy = false;
    const again = usageAgain;
    usageAgain = false;
    if (run === thisRun) {
      t.usage = u;
      body.dataset.usage = u ? "done" : "none";
      charts.reset();
      scheduleUi();
    }
    if (again && run?.tail) updateUsage(true);
  });
}

// --- following a file as it grows ---------------------------------------------------------
// Chromium's File System Access API (`showOpenFilePicker`) gives a handle whose `getFile()`
// is the file as it is now: the file is parsed up to its last newline, then every TAIL_MS
// the bytes it gained are decoded and its new complete lines handed to the same stateful
// parser (host.append), each line's ts its own, else the time it was seen. A file that
// shrinks (truncated, rotated) is read again from the start; so is a Paperclip run log that
// grows (its rows are ordered by seq over the whole file). Browsers without the API have no
// such button (docs/viewer.md: open the file again to see more). A log `npx agentlines view`
// serves is followed the same way in every browser (ServedFile: its size by HEAD, its new
// bytes by range requests).

/** A log the server serves, as startTail reads a file: `getFile()` gives its size now and
 * slices of its bytes (`arrayBuffer()`, `blob()`) fetched by range. */
class ServedFile {
  constructor(url, name) {
    this.url = url;
    this.name = name;
  }

  async getFile() {
    const r = await fetch(this.url, { method: "HEAD", cache: "no-store" });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const size = Number(r.headers.get("content-length"));
    if (!Number.isSafeInteger(size) || size < 0) throw new Error("the server gave no size");
    const url = this.url;
    return {
      name: this.name,
      size,
      slice(a, b) {
        const get = () => rangeBlob(url, a, b);
        return { arrayBuffer: async () => (await get()).arrayBuffer(), blob: get };
      },
    };
  }
}

/** The offset just past the file's last newline (0 when it has none). */
async function lastNewline(file) {
  for (let end = file.size; end > 0;) {
    const start = Math.max(0, end - (1 << 20));
    const bytes = new Uint8Array(await file.slice(start, end).arrayBuffer());
    const i = bytes.lastIndexOf(10);
    if (i >= 0) return start + i + 1;
    end = start;
  }
  return 0;
}

async function followFile() {
  let handle;
  try {
    [handle] = await window.showOpenFilePicker({ multiple: false });
  } catch (e) {
    return; // the picker was closed
  }
  // The file followed so far is let go now: its looks cannot start it again meanwhile.
  stopTail();
  await startTail(handle);
}

/** Starts following `handle`'s file. `scroll`: keep the list at the end (a file the reader
 * chose to follow), else where it is (a log `agentlines view` opened, read from its top).
 * `opts.whole`: parse it to its end, a last line without its newline too (a run log read
 * again, a file whose only line stayed unfinished); `opts.retries`: failed starts so far.
 * A newer start, or any other input opened meanwhile, wins. */
async function startTail(handle, scroll = true, opts = {}) {
  const gen = ++tailGen;
  const retries = opts.retries || 0;
  let file, end, blob, head;
  try {
    file = await handle.getFile();
    end = opts.whole ? file.size : await lastNewline(file);
    const start = file.slice(0, end);
    // A File the agent writes to cannot be read after it changed (Chromium's snapshot
    // rule): up to TAIL_COPY_MAX it is copied now, while it still reads.
    blob = !(start instanceof Blob) ? await start.blob() : end <= TAIL_COPY_MAX ? new Blob([await start.arrayBuffer()]) : start;
    head = new Uint8Array(await blob.slice(0, TAIL_HEAD).arrayBuffer());
  } catch (e) {
    if (gen !== tailGen) return;
    if (retries < TAIL_RETRIES) {
      setTimeout(() => { if (gen === tailGen) startTail(handle, scroll, { ...opts, retries: retries + 1 }); }, TAIL_MS);
    } else {
      $("source").textContent = `could not read ${visibleControls(file?.name || "the file")}: ${e.message}`;
    }
    return;
  }
  if (gen !== tailGen) return;
  if (!startRun({ blob }, `${file.name} (followed)`, { tail: true })) return;
  // offset: the next byte to read (everything before it was handed over or is in carry);
  // seen: the size at the last look; head: its first bytes (another file in its place
  // starts otherwise); partial: a last line was handed over before its newline came.
  const me = {
    handle, name: file.name, scroll, offset: end, seen: file.size, head, carry: "", decoder: new TextDecoder(),
    // A whole read may have ended inside a line: its growth starts it again.
    timer: 0, busy: false, added: 0, failures: 0, retries, partial: !!opts.whole, since: performance.now(),
    // Nothing complete was read at the start (an empty file, a first line unfinished): the
    // first newline starts it again, so that the parser's path (a run log?) and the head
    // are chosen from real lines.
    fresh: end === 0,
  };
  me.timer = setInterval(() => pollTail(me), TAIL_MS);
  tail = me;
  body.dataset.tail = "on";
  body.dataset.tailLines = "0";
  if (scroll) {
    $("follow").checked = true;
    list.follow = true;
  }
}

function stopTail() {
  if (!tail) return;
  clearInterval(tail.timer);
  tail = null;
  body.dataset.tail = "off";
}

/** Whether `file` still starts with the bytes the followed file started with. */
async function sameHead(me, file) {
  if (!me.head.length) return true;
  if (file.size < me.head.length) return false;
  const now = new Uint8Array(await file.slice(0, me.head.length).arrayBuffer());
  return now.every((b, i) => b === me.head[i]);
}

/** Hands complete lines to the parser. */
function tailLines(me, text) {
  me.added += text.split("\n").length;
  host.append(text);
  body.dataset.tailLines = String(me.added);
  scheduleUi();
}

async function pollTail(me) {
  // Not before the parse has opened (a run log is told then), never two at once.
  if (tail !== me || me.busy || !run || !run.opened) return;
  me.busy = true;
  try {
    const file = await me.handle.getFile();
    if (tail !== me) return;
    // Its size since the last look that went through (a failed one does not count).
    const grew = file.size !== me.seen;
    // Shorter than what was read, or another file in its place: read again from the start.
    if (file.size < me.offset || (grew && !(await sameHead(me, file)))) return await startTail(me.handle, list.follow);
    if (tail !== me) return;
    if (run.runLog) {
      // A run log's rows are ordered over the whole file: read again, whole, once it has
      // changed (at most every TAIL_RUNLOG_MS, its last reading done).
      if ((grew || file.size > me.offset) && run.done && performance.now() - me.since >= TAIL_RUNLOG_MS) {
        return await startTail(me.handle, list.follow, { whole: true });
      }
      me.seen = file.size;
      return;
    }
    // The line handed over unfinished went on: read again, so that it is read whole.
    if (me.partial && grew) return await startTail(me.handle, list.follow);
    if (file.size > me.offset) {
      const to = Math.min(file.size, me.offset + TAIL_READ_MAX);
      const buf = await file.slice(me.offset, to).arrayBuffer();
      if (tail !== me) return;
      // Fewer bytes than asked: the file was cut and written again in between.
      if (buf.byteLength !== to - me.offset) return await startTail(me.handle, list.follow);
      me.offset = to;
      const text = me.carry + me.decoder.decode(buf, { stream: true });
      const nl = text.lastIndexOf("\n");
      if (nl >= 0 && me.fresh) return await startTail(me.handle, list.follow);
      // A begun line waits for its newline (kept up to the parser's line cap).
      me.carry = (nl < 0 ? text : text.slice(nl + 1)).slice(0, TAIL_LINE_MAX);
      if (nl >= 0) tailLines(me, text.slice(0, nl));
    }
    // A last line the file has not added to since the last look is shown as it is (a log
    // that ends without a newline); should it go on, the file is read again.
    if (!grew && me.carry !== "" && me.offset === file.size) {
      // (nothing parsed yet: read whole, so that its path is chosen from it)
      if (me.fresh) return await startTail(me.handle, list.follow, { whole: true });
      const text = me.carry + me.decoder.decode();
      me.carry = "";
      me.partial = true;
      tailLines(me, text);
    }
    me.seen = file.size;
    me.failures = 0;
  } catch (e) {
    // A file written while it was read (Chromium: NotReadableError), a range it no longer
    // has, a server gone for a moment: tried again at the next look, given up after
    // TAIL_FAILURES in a row.
    if (tail === me && ++me.failures >= TAIL_FAILURES) {
      stopTail();
      $("source").textContent = `${visibleControls(me.name)} — stopped following: ${e.message}`;
    }
  } finally {
    me.busy = false;
  }
}

function startLiveTimer() {
  const speed = () => Number($("speed").value) || 20;
  let last = performance.now();
  let credit = 1; // the first line right away
  let paused = false;
  const pause = $("pause");
  pause.disabled = false;
  pause.textContent = "pause";
  pause.onclick = () => {
    paused = !paused;
    pause.textContent = paused ? "resume" : "pause";
  };
  liveTimer = setInterval(() => {
    const now = performance.now();
    if (!paused) credit += (speed() * (now - last)) / 1000;
    last = now;
    const n = Math.floor(credit);
    if (n > 0) {
      credit -= n;
      host.feed(n);
    }
  }, 100);
}

async function loadUrl(path, label) {
  try {
    const res = await fetch(path, { cache: "no-store" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    startRun({ blob: await res.blob() }, label);
  } catch (e) {
    $("source").textContent = `could not load ${path}: ${e.message}`;
    body.dataset.state = "error";
  }
}

/** The folder view on a list of Files (a chosen folder) or RemoteLogs (a served one). */
function openFolder(files) {
  if (!sessions) {
    sessions = new Sessions($("sessions"), {
      open: (file, path) => startRun({ blob: file }, `${path} (${fmtInt(file.size / 1024)} KiB)`),
      parserPath: parserFile,
      stateless: $("stateless").checked,
    });
  }
  sessions.show(files);
}

/** The folder `npx agentlines view <folder>` serves: its list, then the folder view. */
async function loadFolder() {
  try {
    const res = await fetch("../folder/index.json", { cache: "no-store" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const list = await res.json();
    if (!Array.isArray(list?.logs)) throw new Error("not a list of logs");
    openFolder(list.logs.map((f) => new RemoteLog(f, String(list.folder || "folder"), "../folder/")));
  } catch (e) {
    $("source").textContent = `could not list the folder: ${e.message}`;
  }
}

async function loadFile(file) {
  if (!file || shared) return;
  try {
    startRun({ blob: file }, `${file.name} (${fmtInt(file.size / 1024)} KiB)`);
  } catch (e) {
    $("source").textContent = `could not read ${visibleControls(file.name)}: ${e.message}`;
  }
}

// The parser picker: the built files (www/parsers.json); choosing one reloads the page
// with ?parser=… (a fresh worker, as the host would have).
async function loadParsers(current) {
  let parsers = [];
  try {
    const res = await fetch("parsers.json", { cache: "no-store" });
    if (res.ok) parsers = await res.json();
  } catch (e) {
    parsers = [];
  }
  const select = $("parser");
  const seen = new Set();
  const option = (path, text) => {
    if (seen.has(path)) return;
    seen.add(path);
    const o = document.createElement("option");
    o.value = path;
    o.textContent = text;
    select.append(o);
  };
  for (const p of Array.isArray(parsers) ? parsers : []) {
    if (!p || typeof p.path !== "string" || !p.path.startsWith("dist/")) continue;
    option(p.path, `${p.runtime === "all" ? "all runtimes" : str(p.runtime)}${p.batch ? " · npm entry, batched" : ""}${p.stateless ? " · stateless" : ""} (${p.path})`);
  }
  option(current, current);
  select.value = current;
  select.addEventListener("change", () => {
    const next = new URLSearchParams(location.search);
    next.set("parser", select.value);
    location.search = next.toString();
  });
}

async function loadSamples() {
  let samples = [];
  try {
    const res = await fetch("samples.json", { cache: "no-store" });
    if (res.ok) samples = await res.json();
  } catch (e) {
    samples = [];
  }
  const select = $("sample");
  const groups = new Map();
  for (const s of Array.isArray(samples) ? samples : []) {
    if (!s || typeof s.path !== "string" || !s.path.startsWith("tests/fixtures/")) continue;
    let g = groups.get(s.runtime);
    if (!g) {
      g = document.createElement("optgroup");
      g.label = str(s.runtime);
      groups.set(s.runtime, g);
      select.append(g);
    }
    const o = document.createElement("option");
    o.value = s.path;
    o.textContent = `${visibleControls(str(s.name))} · ${fmtInt(s.lines)} lines`;
    g.append(o);
  }
}

function wire() {
  $("dev").addEventListener("change", (ev) => {
    setDev(ev.target.checked);
    const next = new URL(location.href);
    if (ev.target.checked) next.searchParams.set("dev", "1");
    else next.searchParams.delete("dev");
    history.replaceState(null, "", next);
  });
  $("sample").addEventListener("change", (ev) => {
    const p = ev.target.value;
    if (p) loadUrl("../" + p, p.replace(/^tests\/fixtures\//, ""));
  });
  $("file").addEventListener("change", (ev) => loadFile(ev.target.files[0]));
  // Following a growing file needs the File System Access API (Chromium); elsewhere no button.
  if (typeof window.showOpenFilePicker === "function") {
    $("follow-file").hidden = false;
    $("follow-file").addEventListener("click", () => followFile());
  }
  $("folder").addEventListener("change", (ev) => {
    if (!ev.target.files || !ev.target.files.length) return;
    openFolder(ev.target.files);
  });
  $("paste-toggle").addEventListener("click", () => {
    $("paste-box").hidden = !$("paste-box").hidden;
    if (!$("paste-box").hidden) $("paste").focus();
  });
  $("paste-go").addEventListener("click", () => startRun({ text: $("paste").value }, "pasted text"));
  $("follow").addEventListener("change", (ev) => {
    list.follow = ev.target.checked;
    if (list.follow) list.scrollToEnd();
  });
  let searchTimer = 0;
  $("search").addEventListener("input", (ev) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { query = ev.target.value; refilter(); }, 150);
  });
  $("search").addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();
    clearTimeout(searchTimer);
    if (query !== ev.target.value) { query = ev.target.value; refilter(); }
    step(ev.shiftKey ? -1 : 1);
  });
  $("search-next").addEventListener("click", () => step(1));
  $("search-prev").addEventListener("click", () => step(-1));
  $("expand-all").addEventListener("click", () => setAllOpen(true));
  $("collapse-all").addEventListener("click", () => setAllOpen(false));
  // Exports are made a slice at a time (no long task on a big log); the button says how far.
  const exporting = (id, make, ext) => $(id).addEventListener("click", () => {
    const b = $(id);
    const label = b.textContent;
    b.disabled = true;
    body.dataset.exporting = ext;
    const gen = exportGen;
    make({ progress: (n, total) => { b.textContent = `${Math.floor((100 * n) / total)}%`; }, alive: () => gen === exportGen })
      .then((blob) => { if (blob) download(blob, exportName(ext)); })
      .finally(() => { b.textContent = label; b.disabled = t.count === 0; delete body.dataset.exporting; });
  });
  exporting("export-md", (opts) => toMarkdownBlob(t, run?.label || "log", opts), "md");
  exporting("export-json", (opts) => toJsonBlob(t, opts), "json");
  exporting("export-html", (opts) => toHtmlBlob(t, { label: run?.label || "log", usage: t.usage, lines: run ? run.total - run.start : 0 }, opts), "html");
  $("tool-filter-clear").addEventListener("click", () => setToolFilter(""));
  window.addEventListener("hashchange", goToTarget);
  const overlay = $("drop-overlay");
  let depth = 0;
  document.addEventListener("dragenter", (ev) => { ev.preventDefault(); depth++; overlay.hidden = false; });
  document.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; overlay.hidden = true; } });
  document.addEventListener("dragover", (ev) => ev.preventDefault());
  document.addEventListener("drop", (ev) => {
    ev.preventDefault();
    depth = 0;
    overlay.hidden = true;
    loadFile(ev.dataTransfer?.files?.[0]);
  });
}

// Lays out one row of each look once, off screen, while the parser loads: the first real
// paint of a big log then does not pay for first-time font and style work.
function primeLayout() {
  const sample = new Transcript();
  sample.add([
    { kind: "assistant", ts: "", text: "**a** `b`\n\n- c" },
    { kind: "thinking", ts: "", text: "t" },
    { kind: "tool_call", ts: "", name: "n", input: { command: "c" }, toolUseId: "x" },
    { kind: "system", ts: "", text: "s · … ▸" },
    { kind: "diff", ts: "", changeType: "add", text: "+d" },
  ], []);
  const box = document.createElement("div");
  box.className = "vl-sizer";
  box.setAttribute("aria-hidden", "true");
  for (let id = 0; id < sample.count; id++) {
    const el = renderRow(sample.row(id), {});
    el.classList.add("vl-row");
    box.append(el);
  }
  $("list").append(box);
  void box.offsetHeight;
  box.remove();
}

async function main() {
  buildFilters();
  primeLayout();
  wire();
  if (shared) {
    body.dataset.parser = "ready";
    startRun(null, str(shared.label) || "log");
    if (location.hash) goToTarget();
    return;
  }
  // The developer controls show with dev=1, or when the URL sets one of them.
  setDev(["dev", "parser", "stateless", "live"].some((k) => params.has(k) && params.get(k) !== "0"));
  if (params.get("live") === "1") $("live").checked = true;
  if (params.get("stateless") === "1") $("stateless").checked = true;
  if (params.get("speed")) $("speed").value = params.get("speed");
  if (params.get("follow") === "1") $("follow").checked = true;
  const samples = loadSamples();
  const path = parserPath(params.get("parser"));
  parserFile = path;
  loadParsers(path);
  await host.start(path);
  await samples;
  updateUi();
  if (location.hash) goToTarget();
  const sample = params.get("sample");
  const log = params.get("log");
  if (sample && sample.startsWith("tests/fixtures/") && !sample.includes("..")) {
    $("sample").value = sample;
    loadUrl("../" + sample, sample.replace(/^tests\/fixtures\//, ""));
  } else if (log && /^\/?[\w./-]+$/.test(log) && !log.includes("..")) {
    // `npx agentlines view <file>`: followed as it grows.
    startTail(new ServedFile("../" + log.replace(/^\/+/, ""), log.replace(/^\/?log\//, "")), false);
  } else if (params.get("folder") === "1") {
    loadFolder();
  }
}

main();
