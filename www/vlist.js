// A virtualized list with variable row heights: only the rows in (and near) the viewport
// are in the DOM. Heights start as estimates and are replaced by measurements (kept on the
// row objects, so a filter change reuses them); a ResizeObserver catches rows that change
// size (a card opened, text wrapped differently). Offsets are prefix sums recomputed from
// the first changed position. When a row above the viewport changes height, the scroll
// position is corrected so the visible content stays put; in "follow" mode the list
// sticks to the bottom while new rows arrive (like a live tail).

const OVERSCAN = 600; // px rendered above and below the viewport

export class VirtualList {
  /**
   * scroller: the scrolling element; opts: { row(i) -> row object for view position i,
   * render(row) -> Element, estimate(row, width) -> px }.
   */
  constructor(scroller, opts) {
    this.scroller = scroller;
    this.opts = opts;
    this.sizer = document.createElement("div");
    this.sizer.className = "vl-sizer";
    scroller.append(this.sizer);
    this.count = 0;
    this.offsets = new Float64Array(1024);
    this.valid = 0; // offsets[0..valid] are right
    this.live = new Map(); // row id -> { el, v, pos }
    this.follow = false;
    this.atBottom = true;
    this.frame = 0;
    this.width = scroller.clientWidth;
    this.ro = new ResizeObserver((list) => this.resized(list));
    this.sro = new ResizeObserver(() => this.scrollerResized());
    this.sro.observe(scroller);
    scroller.addEventListener("scroll", () => {
      const s = this.scroller;
      this.atBottom = s.scrollTop + s.clientHeight >= s.scrollHeight - 8;
      this.schedule();
    }, { passive: true });
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

  /** The whole view changed (filter, search, new log): start over at the top. */
  reset(count) {
    for (const { el } of this.live.values()) { this.ro.unobserve(el); el.remove(); }
    this.live.clear();
    this.count = count;
    this.valid = 0;
    this.scroller.scrollTop = 0;
    this.atBottom = true;
    this.schedule();
  }

  /** Rows were appended to the view. */
  grow(count) {
    this.valid = Math.min(this.valid, this.count);
    this.count = count;
    this.schedule();
  }

  /** A row's content changed: re-render it if it is on screen. */
  invalidate(row) {
    const item = this.live.get(row.id);
    if (item) {
      item.v = -1;
      this.valid = Math.min(this.valid, item.pos);
      this.schedule();
    }
  }

  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  ensureOffsets() {
    if (this.offsets.length < this.count + 1) {
      let cap = this.offsets.length;
      while (cap < this.count + 1) cap *= 2;
      const next = new Float64Array(cap);
      next.set(this.offsets.subarray(0, this.valid + 1));
      this.offsets = next;
    }
    const o = this.offsets;
    for (let i = this.valid; i < this.count; i++) o[i + 1] = o[i] + this.heightOf(this.opts.row(i));
    this.valid = this.count;
  }

  // First view position whose bottom is below y.
  indexAt(y) {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.offsets[mid + 1] <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  render() {
    const s = this.scroller;
    const stick = this.follow && this.atBottom;
    this.ensureOffsets();
    // Anchor: the first visible row and how far it sits from the viewport top.
    const anchor = this.count ? this.indexAt(s.scrollTop) : 0;
    const anchorRow = this.count ? this.opts.row(anchor) : null;
    const anchorGap = this.count ? this.offsets[anchor] - s.scrollTop : 0;
    for (let pass = 0; pass < 4; pass++) {
      this.sizer.style.height = this.offsets[this.count] + "px";
      if (stick) s.scrollTop = s.scrollHeight;
      else if (anchorRow && this.opts.row(anchor) === anchorRow) {
        const want = this.offsets[anchor] - anchorGap;
        if (Math.abs(want - s.scrollTop) > 1) s.scrollTop = want;
      }
      const top = s.scrollTop;
      const first = this.indexAt(Math.max(0, top - OVERSCAN));
      const last = Math.min(this.count - 1, this.indexAt(top + s.clientHeight + OVERSCAN));
      const keep = new Set();
      const fresh = [];
      for (let i = first; i <= last && this.count; i++) {
        const row = this.opts.row(i);
        keep.add(row.id);
        let item = this.live.get(row.id);
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
        item.el.style.transform = `translateY(${this.offsets[i]}px)`;
      }
      for (const [id, item] of this.live) {
        if (!keep.has(id)) { this.ro.unobserve(item.el); item.el.remove(); this.live.delete(id); }
      }
      // Measure what was just built (one layout for all of them).
      let changedFrom = Infinity;
      for (const item of fresh) {
        const h = item.el.offsetHeight;
        const row = this.opts.row(item.pos);
        if (h > 0 && Math.abs(h - this.heightOf(row)) > 0.5) changedFrom = Math.min(changedFrom, item.pos);
        if (h > 0) row.h = h;
      }
      if (changedFrom === Infinity) break;
      this.valid = Math.min(this.valid, changedFrom);
      this.ensureOffsets();
    }
    if (stick) this.atBottom = true;
  }

  resized(entries) {
    let from = Infinity;
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
        from = Math.min(from, item.pos);
      }
    }
    if (from !== Infinity) {
      this.valid = Math.min(this.valid, from);
      this.schedule();
    }
  }

  scrollerResized() {
    const w = this.scroller.clientWidth;
    if (Math.abs(w - this.width) < 2) { this.schedule(); return; }
    this.width = w;
    // Text wraps differently: measured heights are stale (kept as the new estimates are
    // computed for off-screen rows; rows on screen are re-measured by the observer).
    this.opts.forget?.();
    for (const item of this.live.values()) item.v = -1;
    this.valid = 0;
    this.schedule();
  }

  /** Scrolls so view position i is at the top. */
  scrollToIndex(i) {
    this.ensureOffsets();
    const k = Math.max(0, Math.min(this.count - 1, i));
    this.scroller.scrollTop = this.offsets[k] || 0;
    this.schedule();
  }

  scrollToEnd() {
    this.ensureOffsets();
    this.scroller.scrollTop = this.offsets[this.count];
    this.atBottom = true;
    this.schedule();
  }
}
