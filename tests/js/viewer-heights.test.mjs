// The viewer's row-height tree (www/heights.js, no DOM) against plain arrays: prefix sums,
// the row at an offset and the total after pushes (across several capacity doublings, which
// copy the tree instead of rebuilding it), updates, rebuilds and pushes after a rebuild.
import test from "node:test";
import assert from "node:assert/strict";
import { Heights } from "../../www/heights.js";

function check(h, plain) {
  assert.equal(h.n, plain.length);
  let sum = 0;
  for (let i = 0; i <= plain.length; i += Math.max(1, plain.length >> 7)) {
    const want = plain.slice(0, i).reduce((a, b) => a + b, 0);
    assert.equal(h.prefix(i), want, `prefix(${i})`);
  }
  for (const v of plain) sum += v;
  assert.equal(h.total(), sum);
  // indexAt(y): the first row whose bottom is below y.
  for (let k = 0; k < 200; k++) {
    const y = Math.floor(((k * 7919) % 1000) / 1000 * sum);
    let acc = 0, want = plain.length - 1;
    for (let i = 0; i < plain.length; i++) { acc += plain[i]; if (acc > y) { want = i; break; } }
    assert.equal(h.indexAt(y), want, `indexAt(${y})`);
  }
}

test("heights: pushes across capacity doublings, sets and rebuilds agree with a plain array", () => {
  const h = new Heights();
  const plain = [];
  let seed = 7;
  const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  for (let i = 0; i < 5000; i++) {
    const v = 10 + rnd(90);
    h.push(v);
    plain.push(v);
    if (i === 1022 || i === 1023 || i === 2047 || i === 4095) check(h, plain); // around each doubling
  }
  assert.ok(h.cap >= 8192, `capacity ${h.cap}`);
  check(h, plain);
  for (let k = 0; k < 3000; k++) {
    const i = rnd(plain.length), v = 1 + rnd(500);
    h.set(i, v);
    plain[i] = v;
  }
  check(h, plain);
  h.build(plain.length, (i) => plain[i]);
  check(h, plain);
  // Pushes after a rebuild, before the next doubling (the list rebuilds on a filter change
  // while a parse is still adding rows): the nodes past the old end must be complete.
  for (let i = 0; i < 100; i++) { h.push(3); plain.push(3); }
  check(h, plain);
  for (let i = 0; i < 5000; i++) { h.push(3); plain.push(3); }
  check(h, plain);
});
