// The viewer's Fenwick tree of row heights (www/heights.js) against a plain array: random
// builds, pushes (rows arriving while a run streams) and sets (rows measured), checked on
// every prefix sum and on indexAt. A build followed by pushes once lost the sums of the
// tree's nodes past the built rows, and the viewer skipped rows while scrolling.
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
