//! Byte appends for the JSON reader's and writer's hot loops, written so they stay inline.
//!
//! The host's wasm is built at opt-level `z`, where LLVM inlines almost nothing: each
//! `Vec::extend_from_slice` became three nested calls (`extend_from_slice`, `spec_extend`,
//! `append_elements`) and each `String::push` a call into the UTF-8 encoder, several times
//! per string of every line. These two are the same operations with the capacity check
//! inline and the rare growth out of line (docs/bench.md, Decisions).

use crate::prelude::*;

/// Appends `s` to `v`.
#[inline(always)]
pub(crate) fn put(v: &mut Vec<u8>, s: &[u8]) {
    if v.capacity() - v.len() < s.len() {
        grow(v, s.len());
    }
    let len = v.len();
    // SAFETY: the check above left room for `s.len()` more bytes after `len`; the copy
    // fills exactly those bytes before the length takes them in, and `s` cannot overlap
    // `v`'s spare room (it is borrowed while `v` is borrowed mutably).
    unsafe {
        core::ptr::copy_nonoverlapping(s.as_ptr(), v.as_mut_ptr().add(len), s.len());
        v.set_len(len + s.len());
    }
}

/// Appends the byte `b` to `v`.
#[inline(always)]
pub(crate) fn put_byte(v: &mut Vec<u8>, b: u8) {
    if v.capacity() == v.len() {
        grow(v, 1);
    }
    let len = v.len();
    // SAFETY: there is room for one more byte at `len`, written before the length takes it.
    unsafe {
        v.as_mut_ptr().add(len).write(b);
        v.set_len(len + 1);
    }
}

/// Appends the first `keep` bytes of `block` (all 16 when `keep` is 16 or more) with one
/// 16-byte store: the bytes past `keep` land in `v`'s spare room, outside its length. What
/// `scan::copy_run` steps with: a short run costs no `memcpy` call.
#[inline(always)]
pub(crate) fn put_block(v: &mut Vec<u8>, block: &[u8; 16], keep: usize) {
    if v.capacity() - v.len() < 16 {
        grow(v, 16);
    }
    let len = v.len();
    // SAFETY: the check above left room for 16 more bytes after `len`; all 16 are written,
    // and the length takes in at most 16 of them. `block` cannot overlap `v`'s spare room
    // (it is borrowed while `v` is borrowed mutably).
    unsafe {
        core::ptr::copy_nonoverlapping(block.as_ptr(), v.as_mut_ptr().add(len), 16);
        v.set_len(len + keep.min(16));
    }
}

#[cold]
#[inline(never)]
fn grow(v: &mut Vec<u8>, n: usize) {
    v.reserve(n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_as_std_does_across_growth() {
        let mut ours = Vec::new();
        let mut std = Vec::new();
        for k in 0..300usize {
            let piece: Vec<u8> = (0..k % 37).map(|i| (i * 7 + k) as u8).collect();
            put(&mut ours, &piece);
            std.extend_from_slice(&piece);
            put_byte(&mut ours, k as u8);
            std.push(k as u8);
            put(&mut ours, &[]);
            let block: [u8; 16] = core::array::from_fn(|i| (i * 3 + k) as u8);
            put_block(&mut ours, &block, k % 18);
            std.extend_from_slice(&block[..(k % 18).min(16)]);
        }
        assert_eq!(ours, std);
    }
}
