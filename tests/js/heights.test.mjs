// The viewer's Fenwick tree of row heights (www/heights.js, no DOM) against a plain array:
// random builds, pushes (rows arriving while a run streams, across capacity doublings, which
// copy the tree instead of rebuilding it) and sets (rows measured), checked on every prefix
// sum and on indexAt. A build followed by pushes once lost the sums of the tree's nodes past
// the built rows, and the viewer skipped rows while scrolling.
import test from "node:test";
import assert from "node:assert/strict";
import { Heights } from "../../www/heights.js";

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function check(H, plain, label) {
  assert.equal(H.n, plain.length, `${label}: n`);
  let s = 0;
  for (let i = 0; i <= plain.length; i++) {
    assert.equal(H.prefix(i), s, `${label}: prefix(${i})`);
    if (i < plain.length) s += plain[i];
  }
  assert.equal(H.total(), s, `${label}: total`);
  // indexAt(y): the first row whose bottom is below y.
  for (let k = 0; k < 50 && plain.length; k++) {
    const y = Math.floor((k / 50) * s);
    let acc = 0;
    let want = plain.length - 1;
    for (let i = 0; i < plain.length; i++) {
      acc += plain[i];
      if (acc > y) { want = i; break; }
    }
    assert.equal(H.indexAt(y), want, `${label}: indexAt(${y})`);
  }
}

test("heights: build, push and set agree with plain prefix sums", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = rng(seed);
    const H = new Heights();
    const first = Math.floor(r() * 1500);
    const plain = Array.from({ length: first }, () => 1 + Math.floor(r() * 300));
    H.build(first, (i) => plain[i]);
    check(H, plain, `seed ${seed} after build(${first})`);
    const more = Math.floor(r() * 2500);
    for (let k = 0; k < more; k++) {
      if (plain.length && r() < 0.4) {
        const i = Math.floor(r() * plain.length);
        plain[i] = 1 + Math.floor(r() * 300);
        H.set(i, plain[i]);
      } else {
        plain.push(1 + Math.floor(r() * 300));
        H.push(plain[plain.length - 1]);
      }
    }
    check(H, plain, `seed ${seed} after ${more} pushes/sets`);
  }
});

test("heights: pushes across capacity doublings, sets and rebuilds agree with a plain array", () => {
  const h = new Heights();
  const plain = [];
  let seed = 7;
  const label = () => `${plain.length} rows, capacity ${h.cap}`;
  const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  for (let i = 0; i < 5000; i++) {
    const v = 10 + rnd(90);
    h.push(v);
    plain.push(v);
    if (i === 1022 || i === 1023 || i === 2047 || i === 4095) check(h, plain, label()); // around each doubling
  }
  assert.ok(h.cap >= 8192, `capacity ${h.cap}`);
  check(h, plain, label());
  for (let k = 0; k < 3000; k++) {
    const i = rnd(plain.length), v = 1 + rnd(500);
    h.set(i, v);
    plain[i] = v;
  }
  check(h, plain, label());
  h.build(plain.length, (i) => plain[i]);
  check(h, plain, label());
  // Pushes after a rebuild, before the next doubling (the list rebuilds on a filter change
  // while a parse is still adding rows): the nodes past the old end must be complete.
  for (let i = 0; i < 100; i++) { h.push(3); plain.push(3); }
  check(h, plain, label());
  for (let i = 0; i < 5000; i++) { h.push(3); plain.push(3); }
  check(h, plain, label());
});
