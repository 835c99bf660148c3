// A virtualized list with variable row heights: only the rows in (and near) the viewport
// are in the DOM. Heights start as estimates and are replaced by measurements (kept in the
// transcript's row columns, www/model.js, so a filter change reuses them); a ResizeObserver catches rows that change
// size (a card opened, text wrapped differently).
//
// Heights live in a Fenwick tree (www/heights.js): a measured row updates it in O(log n) and
// the row at a pixel offset is found in O(log n), so 2M rows cost the same per frame as 200.
//
// Scale: browsers cap an element's height (Chromium at 33,554,432 px), so a long log cannot
// have a sizer as tall as its content. The list keeps its own *virtual* scroll position V
// (0 … total − viewport); the sizer is at most MAX_PX tall and the scroller's scrollTop p
// maps linearly onto V (V = p · Vmax / Pmax). Rows are placed at p + (offset − V), i.e.
// exactly where they belong relative to the viewport. When the list is scaled, the wheel
// and the keys (arrows, Page Up/Down, Home/End, space) move V by their own distance (not
// times the scale), and p follows; dragging the scrollbar moves V proportionally. When
// the content fits (total ≤ MAX_PX), V = p and the list behaves as a plain scroller.
// When a row above the viewport changes height, V is corrected so the visible content stays
// put; in "follow" mode the list sticks to the bottom while new rows arrive (a live tail).
import { Heights } from "./heights.js";

const OVERSCAN = 600; // px rendered above and below the viewport
export const MAX_PX = 8_000_000; // the sizer's largest height (well under every browser's cap)
const FRAME_BUDGET_MS = 30; // overscan rows past this are left for the next frame

export class VirtualList {
  /**
   * scroller: the scrolling element; opts: { row(i) -> row (a www/model.js Row handle: compare by id) for view position i,
   * render(row) -> Element, estimate(row, width) -> px, forget() }.
   */
  constructor(scroller, opts) {
    this.scroller = scroller;
    this.opts = opts;
    this.sizer = document.createElement("div");
    this.sizer.className = "vl-sizer";
    scroller.append(this.sizer);
    this.count = 0;
    this.heights = new Heights();
    this.filled = 0; // positions [0, filled) have a height in the tree
    this.live = new Map(); // row id -> { el, v, pos }
    this.follow = false;
    this.atBottom = true;
    this.frame = 0;
    this.V = 0; // virtual scroll position
    this.lastP = 0; // scrollTop we last saw or set
    this.width = scroller.clientWidth;
    this.ro = new ResizeObserver((list) => this.resized(list));
    this.sro = new ResizeObserver(() => this.scrollerResized());
    this.sro.observe(scroller);
    scroller.addEventListener("scroll", () => this.scrolled(), { passive: true });
    scroller.addEventListener("wheel", (ev) => this.wheel(ev), { passive: false });
    scroller.addEventListener("keydown", (ev) => this.key(ev));
  }

  heightOf(row) {
    if (row.h > 0) return row.h;
    // Estimates are cached per row (they read the row's text), keyed by width and version.
    if (row.estW !== this.width || row.estV !== row.v) {
      row.est = this.opts.estimate(row, this.width);
      row.estW = this.width;
      row.estV = row.v;
    }
    return row.est;
  }

  // --- geometry -----------------------------------------------------------------------
  fill() {
    if (this.filled === this.count) return;
    if (this.filled === 0) {
      this.heights.build(this.count, (i) => this.heightOf(this.opts.row(i)));
    } else {
      for (let i = this.filled; i < this.count; i++) this.heights.push(this.heightOf(this.opts.row(i)));
    }
    this.filled = this.count;
  }

  get total() { return this.heights.total(); }
  get viewport() { return this.scroller.clientHeight; }
  /** The sizer's height: the content's, capped at MAX_PX. */
  get physical() { return Math.min(this.total, MAX_PX); }
  get vMax() { return Math.max(0, this.total - this.viewport); }
  get pMax() { return Math.max(0, this.physical - this.viewport); }
  get scaled() { return this.total > MAX_PX; }
  toV(p) { const pm = this.pMax; return pm > 0 ? (p * this.vMax) / pm : 0; }
  toP(v) { const vm = this.vMax; return vm > 0 ? (v * this.pMax) / vm : 0; }
  clampV(v) { return Math.max(0, Math.min(this.vMax, v)); }

  /** Pixel offset of view position i in the content. */
  offsetOf(i) { return this.heights.prefix(i); }

  // Moves the virtual position (and the scroller with it).
  setV(v) {
    this.fill();
    this.V = this.clampV(v);
    const p = this.toP(this.V);
    this.sizer.style.height = this.physical + "px";
    if (Math.abs(this.scroller.scrollTop - p) >= 1) this.scroller.scrollTop = p;
    this.lastP = this.scroller.scrollTop;
    this.atBottom = this.V >= this.vMax - 8;
    this.schedule();
  }

  scrolled() {
    const p = this.scroller.scrollTop;
    if (Math.abs(p - this.lastP) < 0.5) return; // our own setV echoing back
    this.lastP = p;
    this.fill();
    const pm = this.pMax;
    if (!this.scaled) this.V = p;
    else if (p <= 0) this.V = 0;
    else if (p >= pm - 0.5) this.V = this.vMax;
    else this.V = this.toV(p);
    this.V = this.clampV(this.V);
    this.atBottom = this.V >= this.vMax - 8;
    this.schedule();
  }

  wheel(ev) {
    if (!this.scaled || ev.ctrlKey || ev.deltaY === 0) return;
    ev.preventDefault();
    const unit = ev.deltaMode === 1 ? 40 : ev.deltaMode === 2 ? this.viewport : 1;
    this.setV(this.V + ev.deltaY * unit);
  }

  key(ev) {
    if (!this.scaled || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target !== this.scroller) return; // a focused button or link inside a row
    const page = Math.max(40, this.viewport - 40);
    const step = { ArrowDown: 40, ArrowUp: -40, PageDown: page, PageUp: -page, " ": ev.shiftKey ? -page : page }[ev.key];
    if (ev.key === "Home") { ev.preventDefault(); this.setV(0); return; }
    if (ev.key === "End") { ev.preventDefault(); this.setV(this.vMax); return; }
    if (step === undefined) return;
    ev.preventDefault();
    this.setV(this.V + step);
  }

  // --- changes ------------------------------------------------------------------------
  /** The whole view changed (filter, search, new log): start over at the top. */
  /** The index of the first row on screen (0 when empty). */
  firstVisible() {
    return this.count ? this.heights.indexAt(this.V) : 0;
  }

  reset(count) {
    for (const { el } of this.live.values()) { this.ro.unobserve(el); el.remove(); }
    this.live.clear();
    this.count = count;
    this.filled = 0;
    this.heights.build(0, () => 0);
    this.V = 0;
    this.scroller.scrollTop = 0;
    this.lastP = 0;
    this.atBottom = true;
    this.schedule();
  }

  /** Rows were appended to the view. */
  grow(count) {
    this.count = count;
    this.schedule();
  }

  /** Every row's height may have changed (rows opened or closed in bulk): re-estimate. */
  remeasure() {
    for (const item of this.live.values()) item.v = -1;
    this.filled = 0;
    this.schedule();
  }

  /** A row's content changed: re-render it if it is on screen. */
  invalidate(row) {
    const item = this.live.get(row.id);
    if (item) {
      item.v = -1;
      this.schedule();
    }
  }

  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  setHeight(pos, h) {
    if (pos < this.filled) this.heights.set(pos, h);
  }

  // --- rendering ----------------------------------------------------------------------
  render() {
    const t0 = performance.now();
    const stick = this.follow && this.atBottom;
    this.fill();
    // Anchor: the first visible row and how far it sits from the viewport top.
    const anchor = this.count ? this.heights.indexAt(this.V) : 0;
    const anchorRow = this.count ? this.opts.row(anchor) : null;
    const anchorGap = this.count ? this.offsetOf(anchor) - this.V : 0;
    let deferred = false;
    for (let pass = 0; pass < 4; pass++) {
      this.sizer.style.height = this.physical + "px";
      let v = this.V;
      if (stick) v = this.vMax;
      else if (anchorRow && this.opts.row(anchor).id === anchorRow.id) v = this.offsetOf(anchor) - anchorGap;
      v = this.clampV(v);
      if (Math.abs(v - this.V) > 0.5 || Math.abs(this.toP(v) - this.scroller.scrollTop) >= 1) {
        this.V = v;
        const p = this.toP(v);
        this.scroller.scrollTop = p;
        this.lastP = this.scroller.scrollTop;
      }
      const p = this.scroller.scrollTop;
      const vh = this.viewport;
      const first = this.heights.indexAt(Math.max(0, this.V - OVERSCAN));
      const last = Math.min(this.count - 1, this.heights.indexAt(this.V + vh + OVERSCAN));
      const keep = new Set();
      const fresh = [];
      for (let i = first; i <= last && this.count; i++) {
        const row = this.opts.row(i);
        const off = this.offsetOf(i);
        let item = this.live.get(row.id);
        const visible = off < this.V + vh && off + this.heightOf(row) > this.V;
        if ((!item || item.v !== row.v) && !visible && performance.now() - t0 > FRAME_BUDGET_MS) {
          deferred = true; // an overscan row: next frame
          if (item) keep.add(row.id);
          continue;
        }
        keep.add(row.id);
        if (!item || item.v !== row.v) {
          const el = this.opts.render(row);
          el.classList.add("vl-row");
          el.dataset.row = String(row.id);
          if (item) { this.ro.unobserve(item.el); item.el.replaceWith(el); } else this.sizer.append(el);
          item = { el, v: row.v, pos: i };
          this.live.set(row.id, item);
          this.ro.observe(el);
          fresh.push(item);
        }
        item.pos = i;
        item.el.style.transform = `translateY(${p + off - this.V}px)`;
      }
      for (const [id, item] of this.live) {
        if (!keep.has(id)) { this.ro.unobserve(item.el); item.el.remove(); this.live.delete(id); }
      }
      // Measure what was just built (one layout for all of them).
      let changed = false;
      for (const item of fresh) {
        const h = item.el.offsetHeight;
        const row = this.opts.row(item.pos);
        if (h > 0 && Math.abs(h - this.heightOf(row)) > 0.5) {
          changed = true;
          row.h = h;
          this.setHeight(item.pos, h);
        } else if (h > 0) row.h = h;
      }
      if (!changed) break;
    }
    if (stick) this.atBottom = true;
    if (deferred) this.schedule();
  }

  resized(entries) {
    let changed = false;
    for (const en of entries) {
      const el = en.target;
      const id = Number(el.dataset.row);
      const item = this.live.get(id);
      if (!item || item.el !== el || !el.isConnected) continue;
      const row = this.opts.row(item.pos);
      if (!row || row.id !== id) continue;
      const h = el.offsetHeight;
      if (h > 0 && Math.abs(h - row.h) > 0.5) {
        row.h = h;
        this.setHeight(item.pos, h);
        changed = true;
      }
    }
    if (changed) this.schedule();
  }

  scrollerResized() {
    const w = this.scroller.clientWidth;
    if (Math.abs(w - this.width) < 2) { this.schedule(); return; }
    this.width = w;
    // Text wraps differently: measured heights are stale (rows on screen are re-measured).
    this.opts.forget?.();
    this.remeasure();
  }

  /** Scrolls so view position i is at the top. */
  scrollToIndex(i) {
    this.fill();
    const k = Math.max(0, Math.min(this.count - 1, i));
    this.atBottom = false;
    this.setV(this.count ? this.offsetOf(k) : 0);
  }

  scrollToEnd() {
    this.fill();
    this.setV(this.vMax);
    this.atBottom = true;
  }

  /** The live element of a row, if it is rendered. */
  elementOf(rowId) {
    return this.live.get(rowId)?.el ?? null;
  }
}
