//! Repeated keys in `(key, value)` pairs read from JSON: a repeated key keeps its first
//! position and takes its last value (what serde_json's order-preserving map and
//! JavaScript's `JSON.parse` both do). Shared by the line's value tree (`val.rs`) and the
//! JavaScript model's `JSON.parse` (`js/json.rs`).
//!
//! Small objects are checked on each push; past [`SCAN_LIMIT`] members the duplicates are
//! found once at the end by sorting member indices, so a hostile object of many keys stays
//! O(n log n). The sort is a hand-written heapsort: the standard library's sorts put ~6 KB
//! of code into every wasm build for this rarely taken path (ipnsort with its sorting
//! networks), where a heapsort is a few hundred bytes with the same bound.

use crate::prelude::*;
use core::cmp::Ordering;

/// Members checked for a repeated key as they are added.
pub const SCAN_LIMIT: usize = 16;

/// Adds a pair; while there are fewer than [`SCAN_LIMIT`], a repeated key takes the new
/// value in its old place. `true` when the key was found repeated.
pub fn push<K: core::ops::Deref<Target = str>, V>(pairs: &mut Vec<(K, V)>, k: K, v: V) -> bool {
    if pairs.len() < SCAN_LIMIT {
        // Lengths first: at opt-level z `*key == k` is a chain of calls per member passed.
        let (kb, n) = (k.as_bytes(), k.len());
        if let Some(slot) = pairs.iter_mut().find(|(key, _)| key.len() == n && key.as_bytes() == kb) {
            slot.1 = v;
            return true;
        }
    }
    pairs.reserve(1);
    let len = pairs.len();
    // SAFETY: `reserve` made room for one more pair at `len`; both fields are written before
    // the length takes it in. (Writing the fields in place instead of `push((k, v))`: the
    // pair built on the stack and copied in 16-byte pieces across its fields stalled on
    // store forwarding, most of this function's 8-10% of a native parse run; docs/bench.md,
    // Decisions.)
    unsafe {
        let slot = pairs.as_mut_ptr().add(len);
        core::ptr::addr_of_mut!((*slot).0).write(k);
        core::ptr::addr_of_mut!((*slot).1).write(v);
        pairs.set_len(len + 1);
    }
    false
}

/// Merges the repeated keys [`push`] let through (first position, last value); `true` when
/// there were any.
pub fn dedupe<K: Ord, V: Default>(pairs: &mut Vec<(K, V)>) -> bool {
    let n = pairs.len();
    if n <= SCAN_LIMIT {
        return false;
    }
    let runs = equal_runs(n, &|a, b| pairs[a].0.cmp(&pairs[b].0));
    let mut drop = vec![false; n];
    for run in &runs {
        let (first, last) = (run[0], run[run.len() - 1]);
        let v = core::mem::take(&mut pairs[last].1);
        pairs[first].1 = v;
        for &k in &run[1..] {
            drop[k] = true;
        }
    }
    let mut idx = 0;
    pairs.retain(|_| {
        let keep = !drop[idx];
        idx += 1;
        keep
    });
    !runs.is_empty()
}

/// The positions `0..n` whose keys (compared by `cmp`) occur more than once, one run per
/// key, each in input order. Not generic, so the sort exists once in the wasm whatever the
/// key type.
fn equal_runs(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..n).collect();
    // By key, then by position: equal keys end up together, in input order.
    heapsort(&mut order, |a, b| cmp(a, b).then(a.cmp(&b)).is_lt());
    let mut runs = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && cmp(order[j], order[i]).is_eq() {
            j += 1;
        }
        if j - i > 1 {
            runs.push(order[i..j].to_vec());
        }
        i = j;
    }
    runs
}

/// Sorts `v` ascending by `less` (a strict total order).
fn heapsort(v: &mut [usize], less: impl Fn(usize, usize) -> bool) {
    let sift = |v: &mut [usize], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(v[child], v[child + 1]) {
            child += 1;
        }
        if !less(v[root], v[child]) {
            return;
        }
        v.swap(root, child);
        root = child;
    };
    let n = v.len();
    for start in (0..n / 2).rev() {
        sift(v, start, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heapsort_sorts() {
        let mut seed = 7u64;
        for n in [0usize, 1, 2, 3, 17, 100, 1000] {
            let keys: Vec<u64> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (seed >> 33) % 50
                })
                .collect();
            let mut order: Vec<usize> = (0..n).collect();
            heapsort(&mut order, |a, b| keys[a].cmp(&keys[b]).then(a.cmp(&b)).is_lt());
            let mut want: Vec<usize> = (0..n).collect();
            want.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(a.cmp(&b)));
            assert_eq!(order, want, "n = {n}");
        }
    }

    #[test]
    fn first_place_last_value() {
        let mut pairs: Vec<(String, u32)> = Vec::new();
        for i in 0..40u32 {
            push(&mut pairs, format!("k{}", i % 25), i);
        }
        assert!(dedupe(&mut pairs));
        assert_eq!(pairs.len(), 25);
        assert_eq!(pairs[3], ("k3".to_owned(), 28));
        assert_eq!(pairs[20], ("k20".to_owned(), 20));
    }
}
