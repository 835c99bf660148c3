// The folder view: open a sessions directory (`~/.claude/projects`, `~/.codex/sessions`, a
// folder of Paperclip run logs) through `<input webkitdirectory>`, list its logs, newest
// first (a session's subagent logs right after it), with the session's own start (the log's first timestamp; the file's time, marked,
// for a log without one), first prompt, size, tokens and cost; a click anywhere on a row opens
// it, and the list then steps aside to a few rows (a button shows it whole again); search
// across them; filter them by runtime, model, start date (UTC) and cost (a session's
// subagent logs go with it; a log not yet read stays listed until its figures are known).
// Nothing leaves the browser: files are read with the File API, and each one is parsed by
// a parser worker of its own (the same host-shaped worker and parser file as the list, so
// its totals are the ones the list's summary shows), one file at a time.
//
// Search reads each file's text in the page and counts case-insensitive matches, at most
// SEARCH_BYTES of a file; files without a match are left out while a search is on.
//
// The list is virtual: only the rows in view (and ROW_SLACK more on each side) are in the
// table, one line each (ROW_PX high), between two spacer rows; scrolling draws the others.
// A 5,000-row table blocked the page for 1.9 s to list and 0.1-0.6 s at every row's update
// while a search or a scan ran.
import { ParserHost } from "./worker-client.js";
import { str, fmtInt, fmtCost, countResult } from "./model.js";
import { el, oneLine } from "./render.js";

const LOG = /\.(jsonl|ndjson|log|txt|json)$/i;
const SEARCH_BYTES = 64 * 1024 * 1024;
const MAX_FILES = 5000;
const ROW_PX = 22;
const ROW_SLACK = 20;
const FILTERS = ["#sessions-runtime", "#sessions-model", "#sessions-from", "#sessions-to", "#sessions-cost"];

/** A log the server lists (`npx agentlines view <folder>`, `/folder/index.json`), read when it
 * is scanned, searched or opened. */
export class RemoteLog {
  /** `path`: relative to the served folder, named `folder`; `base`: the folder's URL. */
  constructor({ path, size, lastModified }, folder, base) {
    const rel = String(path);
    this.webkitRelativePath = `${folder}/${rel}`;
    this.name = rel.split("/").pop();
    this.size = Number(size) || 0;
    this.lastModified = Number(lastModified) || 0;
    this.url = base + rel.split("/").map(encodeURIComponent).join("/");
  }

  /** Its bytes, or its first `limit` (a range request: a search reads no more). */
  blob(limit = 0) {
    return rangeBlob(this.url, 0, limit > 0 ? limit : Infinity);
  }
}

/** Bytes [a, b) of the file the server serves at `url` (b = Infinity: to its end), by a range
 * request (www/serve.mjs answers one); a server that sends the whole file is cut here. */
export async function rangeBlob(url, a, b) {
  if (b <= a) return new Blob([]);
  const whole = a === 0 && b === Infinity;
  const r = await fetch(url, { cache: "no-store", headers: whole ? {} : { range: `bytes=${a}-${b === Infinity ? "" : b - 1}` } });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  const blob = await r.blob();
  return r.status === 206 || whole ? blob : blob.slice(a, b);
}

/** A File as it is, a RemoteLog fetched (its first `limit` bytes when given). */
const blobOf = async (file, limit = 0) => (file instanceof Blob ? file : file.blob(limit));

function when(ms) {
  const d = new Date(ms);
  return Number.isFinite(d.getTime()) ? d.toISOString().replace("T", " ").slice(0, 16) : "";
}

export class Sessions {
  /** `root`: the panel; `open(file)`: shows one log in the list; `parserPath`: the parser. */
  constructor(root, { open, parserPath, stateless }) {
    this.root = root;
    this.openLog = open;
    this.parserPath = parserPath;
    this.stateless = stateless;
    this.items = [];
    this.scanId = 0;
    this.host = null;
    this.query = "";
    this.searchId = 0;
    root.querySelector("#sessions-close").addEventListener("click", () => { root.hidden = true; });
    this.toggle = root.querySelector("#sessions-toggle");
    this.toggle.addEventListener("click", () => this.compact(!root.classList.contains("stepped")));
    this.current = null;
    this.scroller = root.querySelector(".sessions-scroll");
    this.frame = 0;
    this.scroller.addEventListener("scroll", () => this.redraw());
    this.seen = { runtime: new Set(), model: new Set() };
    this.readFilters();
    for (const id of FILTERS) {
      root.querySelector(id).addEventListener(id === "#sessions-cost" ? "input" : "change", () => {
        this.readFilters();
        this.scroller.scrollTop = 0;
        this.render();
      });
    }
    let timer = 0;
    root.querySelector("#sessions-search").addEventListener("input", (ev) => {
      clearTimeout(timer);
      timer = setTimeout(() => this.search(ev.target.value), 250);
    });
  }

  /** A directory's files (a FileList from `<input webkitdirectory>`). */
  async show(files) {
    const scan = ++this.scanId;
    const logs = [...files].filter((f) => LOG.test(f.name) && f.size > 0);
    logs.sort((a, b) => b.lastModified - a.lastModified);
    const dropped = Math.max(0, logs.length - MAX_FILES);
    this.items = logs.slice(0, MAX_FILES).map((file) => ({ file, path: file.webkitRelativePath || file.name, first: "", started: NaN, sum: null, matches: -1, parent: null, kids: 0 }));
    this.group();
    this.root.hidden = false;
    this.current = null;
    this.compact(false);
    const title = this.root.querySelector("#sessions-title");
    const folder = (this.items[0]?.path || "").split("/")[0];
    title.textContent = `${fmtInt(this.items.length)} logs${folder ? " in " + oneLine(folder, 80) : ""}${dropped ? ` (the newest ${fmtInt(MAX_FILES)}; ${fmtInt(dropped)} more not listed)` : ""}`;
    this.root.querySelector("#sessions-search").value = "";
    this.query = "";
    for (const k of ["runtime", "model"]) {
      this.seen[k].clear();
      this.root.querySelector(`#sessions-${k}`).replaceChildren(this.root.querySelector(`#sessions-${k}`).options[0]);
    }
    for (const id of FILTERS) this.root.querySelector(id).value = "";
    this.readFilters();
    this.scroller.scrollTop = 0;
    this.render();
    document.body.dataset.sessions = "scanning";
    if (!this.host) {
      this.host = new ParserHost(() => {});
      await this.host.start(this.parserPath);
    }
    for (const item of [...this.items]) {
      if (scan !== this.scanId) return;
      await this.scan(item);
      if (scan !== this.scanId) return;
      if (!item.parent && item.sessionId && this.group()) this.render();
      // Its figures may let it (and its subagents) through the filters now, or not.
      else if (this.filtering()) this.redraw();
      else this.renderItem(item);
    }
    if (scan === this.scanId) {
      document.body.dataset.sessions = "done";
      this.root.querySelector("#sessions-status").textContent = "";
    }
  }

  /**
   * Subagent logs listed right after their session, marked: Claude Code's
   * `<session>.jsonl` + `<session>/subagents/<agent>.jsonl`, and (once scanned) an
   * `agent-*.jsonl` beside the `<sessionId>.jsonl` its lines name. Returns whether a log found
   * its session.
   */
  group() {
    const byStem = new Map(this.items.map((it) => [it.path.replace(/\.[^./]+$/, ""), it]));
    let found = false;
    for (const it of this.items) {
      if (it.parent) continue;
      const m = /^(.*)\/subagents\/[^/]+$/.exec(it.path);
      let p = m ? byStem.get(m[1]) : undefined;
      if (!p && it.sessionId) p = byStem.get(it.path.slice(0, it.path.lastIndexOf("/") + 1) + it.sessionId);
      if (p && p !== it) {
        it.parent = p;
        found = true;
      }
    }
    // A subagent's own subagents go under the same session (its root).
    for (const it of this.items) {
      let p = it.parent;
      for (let n = 0; p && p.parent && n < 64; n++) p = p.parent;
      if (p && p !== it) it.parent = p;
    }
    const kids = new Map();
    for (const it of this.items) if (it.parent) kids.set(it.parent, [...(kids.get(it.parent) || []), it]);
    const order = [];
    for (const it of this.items) {
      if (it.parent) continue;
      it.kids = (kids.get(it) || []).length;
      order.push(it, ...(kids.get(it) || []));
    }
    this.items = order;
    return found;
  }

  /** Parses one file in the scan worker: its first user prompt and its totals. */
  async scan(item) {
    let blob;
    try {
      blob = await blobOf(item.file);
    } catch (e) {
      item.sum = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, results: 0, entries: 0, error: String(e.message || e) };
      return;
    }
    // A subagent's own log (Claude Code's `agent-<id>.jsonl` beside its session) names its
    // session in its lines.
    if (!item.parent && /^agent-/.test(item.file.name)) {
      try {
        item.sessionId = /"sessionId"\s*:\s*"([\w-]{1,100})"/.exec(await blob.slice(0, 65536).text())?.[1] || "";
      } catch (e) {
        item.sessionId = "";
      }
    }
    return new Promise((resolve) => {
      const sum = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, results: 0, entries: 0 };
      const usageEntries = []; // init and counted results, for the worker's summarizeUsage
      this.root.querySelector("#sessions-status").textContent = `reading ${oneLine(item.path, 80)}…`;
      this.host.parse({ blob }, { stateless: this.stateless }, {
        opened() {},
        entries: (entries, lines, msg) => {
          for (let i = 0; i < entries.length; i++) {
            const e = entries[i];
            if (!e || typeof e !== "object") continue;
            sum.entries++;
            if (!Number.isFinite(item.started) && msg.real?.[i] && typeof e.ts === "string") item.started = Date.parse(e.ts);
            if (!item.first && e.kind === "user" && !str(e.parentToolUseId) && str(e.text).trim()) item.first = str(e.text);
            if (e.kind === "result" && countResult(sum, e)) {
              sum.results++;
              usageEntries.push(e);
            } else if (e.kind === "init") usageEntries.push(e);
          }
          if (msg.done) {
            // The cost stated or estimated from list prices (null from a host file), and the
            // runtime the parser read the log as; the log counts as read once both are known.
            this.host.usage(usageEntries).then((u) => {
              item.sum = sum;
              sum.usage = u;
              item.runtime = str(u?.runtime);
              item.models = u && u.byModel && typeof u.byModel === "object" ? Object.keys(u.byModel) : [];
              item.cost = u ? u.costUsd : sum.costUsd;
              this.offer("runtime", item.runtime ? [item.runtime] : []);
              this.offer("model", item.models);
              resolve();
            });
          }
        },
        error: (reason) => { item.sum = { ...sum, error: str(reason) }; resolve(); },
      });
    });
  }

  /** Opens a row's log; the list steps aside to a few rows. */
  async open(item) {
    const opened = this.opened = (this.opened || 0) + 1;
    this.current = item;
    this.compact(true);
    this.render();
    try {
      const blob = await blobOf(item.file);
      // Another row (or another log) was opened while this one downloaded.
      if (this.current !== item || this.opened !== opened) return;
      this.openLog(blob, item.path);
    } catch (e) {
      this.root.querySelector("#sessions-status").textContent = `could not read ${oneLine(item.path, 80)}: ${e.message}`;
    }
  }

  /** The list at a few rows (a log is open) or whole. */
  compact(on) {
    this.root.classList.toggle("stepped", on);
    this.toggle.textContent = on ? "show the list" : "fewer rows";
    this.toggle.hidden = !this.current;
    if (on && this.current) {
      const at = this.listed().indexOf(this.current);
      if (at >= 0) this.scroller.scrollTop = Math.max(0, (at - 1) * ROW_PX);
    }
    this.redraw();
  }

  /** The filters as their inputs say. */
  readFilters() {
    const v = (id) => this.root.querySelector(id).value;
    const cost = Number(v("#sessions-cost"));
    this.filter = { runtime: v("#sessions-runtime"), model: v("#sessions-model"), from: v("#sessions-from"), to: v("#sessions-to"), cost: Number.isFinite(cost) && cost > 0 ? cost : 0 };
  }

  /** Adds the values a log showed to a filter's choices (in name order, the choice kept). */
  offer(kind, values) {
    const seen = this.seen[kind];
    const fresh = values.filter((v) => v && !seen.has(v));
    if (!fresh.length) return;
    for (const v of fresh) seen.add(v);
    const select = this.root.querySelector(`#sessions-${kind}`);
    const keep = select.value;
    const all = select.options[0];
    select.replaceChildren(all, ...[...seen].sort().map((v) => {
      const o = el("option", "", oneLine(v, 60));
      o.value = v;
      return o;
    }));
    select.value = keep;
  }

  /** Whether a log passes the filters: a subagent's log goes with its session; a log not
   * read yet passes until its figures are known. */
  passes(item) {
    const f = this.filter;
    const it = item.parent || item;
    if (!it.sum) return true;
    if (f.from || f.to) {
      const day = new Date(Number.isFinite(it.started) ? it.started : it.file.lastModified).toISOString().slice(0, 10);
      if ((f.from && day < f.from) || (f.to && day > f.to)) return false;
    }
    if (f.runtime && it.runtime !== f.runtime) return false;
    if (f.model && !(it.models || []).includes(f.model)) return false;
    if (f.cost && !(it.cost >= f.cost)) return false;
    return true;
  }

  /** Whether any filter is on. */
  filtering() {
    const f = this.filter;
    return !!(f.runtime || f.model || f.from || f.to || f.cost);
  }

  /** The rows listed: those the filters pass and, while a search is on, not known to have
   * no match. */
  listed() {
    const filtering = this.filtering();
    if (this.query === "" && !filtering) return this.items;
    return this.items.filter((item) => (this.query === "" || item.matches !== 0) && (!filtering || this.passes(item)));
  }

  /** Draws the rows in view now. */
  render() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    const tbody = this.root.querySelector("#sessions-list");
    const rows = this.listed();
    this.root.querySelector("#sessions-shown").textContent = this.filtering() ? `${fmtInt(rows.length)} of ${fmtInt(this.items.length)} logs` : "";
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / ROW_PX) - ROW_SLACK);
    const end = Math.min(rows.length, first + Math.ceil((this.scroller.clientHeight || 600) / ROW_PX) + 2 * ROW_SLACK);
    for (const item of this.items) item.tr = null;
    const spacer = (n) => {
      const tr = el("tr", "spacer");
      const td = el("td");
      td.colSpan = 7;
      tr.style.height = `${n * ROW_PX}px`; // CSSOM: allowed under style-src 'self'
      tr.append(td);
      return tr;
    };
    const out = [];
    if (first > 0) out.push(spacer(first));
    for (let i = first; i < end; i++) {
      const item = rows[i];
      item.tr = el("tr");
      this.renderItem(item);
      out.push(item.tr);
    }
    if (end < rows.length) out.push(spacer(rows.length - end));
    tbody.replaceChildren(...out);
  }

  /** Draws the rows in view at the next frame (scrolling, a row that left the search). */
  redraw() {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  renderItem(item) {
    const tr = item.tr;
    if (!tr) return;
    if ((this.query !== "" && item.matches === 0) || !this.passes(item)) {
      // No match, or its figures just came in and the filters leave it out: it leaves the list.
      this.redraw();
      return;
    }
    tr.replaceChildren();
    const s = item.sum;
    const name = el("td", "name");
    const stem = item.parent ? item.parent.path.replace(/\.[^./]+$/, "") + "/" : "";
    const b = el("button", "link", item.parent ? `↳ ${oneLine(item.path.startsWith(stem) ? item.path.slice(stem.length) : item.file.name, 80)}` : oneLine(item.path, 90));
    if (item.parent) b.title = item.path;
    b.type = "button";
    b.title = "open this log";
    name.append(b);
    if (item.kids) name.append(el("span", "muted", ` · ${fmtInt(item.kids)} subagent${item.kids === 1 ? "" : "s"}`));
    tr.className = "log" + (item.parent ? " sub" : "") + (item === this.current ? " current" : "");
    tr.title = item.parent ? item.path : "open this log";
    tr.onclick = () => this.open(item);
    const own = Number.isFinite(item.started);
    const date = el("td", "date" + (own ? "" : " file-time"), when(own ? item.started : item.file.lastModified));
    date.title = own ? "the session's first timestamp (UTC)" : "the file's modification time (UTC): the log states no time";
    tr.append(
      date,
      name,
      el("td", "prompt", item.first ? oneLine(item.first, 120) : s ? "—" : "…"),
      el("td", "num", `${fmtInt(item.file.size / 1024)} KiB`),
      el("td", "num", s ? (s.usage ? `${fmtInt(s.usage.tokens.input + s.usage.tokens.cacheRead + s.usage.tokens.cacheWrite)} / ${fmtInt(s.usage.tokens.output)}` : `${fmtInt(s.inputTokens)} / ${fmtInt(s.outputTokens)}`) : "…"),
      el("td", "num", s ? (s.usage ? s.usage.costShort : fmtCost(s.costUsd)) : "…"),
      el("td", "num matches", this.query ? (item.matches < 0 ? "…" : fmtInt(item.matches)) : ""),
    );
  }

  /** Counts the matches of `q` in every listed file; hides the files without one. */
  async search(q) {
    const query = q.trim().toLowerCase();
    this.query = query;
    const mine = ++this.searchId;
    for (const item of this.items) item.matches = -1;
    this.render();
    if (!query) {
      this.root.querySelector("#sessions-status").textContent = "";
      delete document.body.dataset.sessionSearch;
      return;
    }
    document.body.dataset.sessionSearch = "running";
    let files = 0;
    let hits = 0;
    for (const item of this.items) {
      if (this.searchId !== mine) return;
      let text = "";
      try {
        text = await (await blobOf(item.file, SEARCH_BYTES)).slice(0, SEARCH_BYTES).text();
      } catch (e) {
        text = "";
      }
      const lower = text.toLowerCase();
      let n = 0;
      for (let at = lower.indexOf(query); at >= 0 && n < 100000; at = lower.indexOf(query, at + query.length)) n++;
      item.matches = n;
      if (n) { files++; hits += n; }
      this.renderItem(item);
    }
    if (this.searchId !== mine) return;
    this.root.querySelector("#sessions-status").textContent = `“${oneLine(q, 60)}”: ${fmtInt(hits)} matches in ${fmtInt(files)} of ${fmtInt(this.items.length)} logs`;
    document.body.dataset.sessionSearch = "done";
  }
}
