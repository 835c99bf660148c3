// Row heights of the virtual list as a Fenwick (binary indexed) tree over Float64Arrays:
// push, set and prefix sums in O(log n), the row at a pixel offset in O(log n), a rebuild
// from scratch in O(n). No DOM (Node tests import it).
export class Heights {
  constructor() {
    this.build(0, () => 0);
  }

  /** n heights, height(i) for each. */
  build(n, height) {
    let cap = 1024;
    while (cap < n + 1) cap *= 2;
    this.cap = cap;
    this.n = n;
    this.h = new Float64Array(cap);
    this.tree = new Float64Array(cap + 1);
    for (let i = 0; i < n; i++) this.h[i] = height(i);
    // Linear construction: each node passes its sum to its parent. It runs over the whole
    // capacity, not only the n filled slots: a node past n still holds its children's sums,
    // and a later push/set reads the chain above it (stopping at n lost those sums).
    for (let k = 1; k <= cap; k++) {
      this.tree[k] += this.h[k - 1];
      const parent = k + (k & -k);
      if (parent <= cap) this.tree[parent] += this.tree[k];
    }
    this.sum = 0;
    for (let i = 0; i < n; i++) this.sum += this.h[i];
  }

  // Doubles the capacity without a rebuild: a node k of the tree sums (k - lowbit(k), k],
  // whatever the capacity, so the old nodes stay right; of the new ones only the last,
  // covering everything, holds heights (all of them: n < the old capacity).
  grow() {
    const cap = this.cap * 2;
    const h = new Float64Array(cap);
    h.set(this.h);
    const tree = new Float64Array(cap + 1);
    tree.set(this.tree);
    tree[cap] = this.sum;
    this.cap = cap;
    this.h = h;
    this.tree = tree;
  }

  push(v) {
    if (this.n + 1 >= this.cap) this.grow();
    const i = this.n++;
    this.h[i] = 0;
    this.set(i, v);
  }

  set(i, v) {
    const d = v - this.h[i];
    if (d === 0) return;
    this.h[i] = v;
    this.sum += d;
    for (let k = i + 1; k <= this.cap; k += k & -k) this.tree[k] += d;
  }

  get(i) {
    return this.h[i];
  }

  /** Sum of heights [0, i). */
  prefix(i) {
    let s = 0;
    for (let k = Math.min(i, this.n); k > 0; k -= k & -k) s += this.tree[k];
    return s;
  }

  total() {
    return this.sum;
  }

  /** The first position whose bottom is below y (n - 1 at most; 0 when empty). */
  indexAt(y) {
    if (this.n === 0) return 0;
    let pos = 0;
    let rem = y;
    for (let step = this.cap; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n && this.tree[next] <= rem) {
        pos = next;
        rem -= this.tree[next];
      }
    }
    return Math.min(pos, this.n - 1);
  }
}
