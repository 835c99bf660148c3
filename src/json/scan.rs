//! The one loop both JSON directions spend their string time in: finding the next byte JSON
//! treats specially inside a string (`"`, `\`, a control byte below 0x20). The reader
//! (`read.rs`) stops there to end or unescape a string; the writer (`write.rs`)
//! stops there to escape. Everything else in a string (the bulk of a log: message text, tool
//! output, file contents) is copied or borrowed as a run.
//!
//! Sixteen bytes per step with SIMD where the target always has it, for speed:
//!
//! - x86_64: SSE2, part of the architecture's baseline, so no runtime detection.
//! - wasm32 built with `-C target-feature=+simd128` (`.cargo/config.toml`).
//!
//! Elsewhere, and for the last 8-15 bytes of a slice, eight bytes per step in a `u64` (SWAR);
//! the last 0-7 bytes one at a time. Measured 2026-12-04 against the 8-byte-only scans
//! (docs/bench.md, Decisions): the native CLI 9-10% less CPU time on the
//! Claude and Pi bench logs (Claude 557 -> 617 MB/s), 4% on Codex; the wasm 1.04-1.07x
//! faster per line, first pass no slower, file sizes within 0.2 KB gzip.
//!
//! `tests/json_read.rs`, `tests/json_write.rs` and the test below put each special byte at
//! every offset of strings up to 64 bytes long, so every block and tail path is checked
//! (natively against serde_json; the simd128 path by the goldens replayed through the built
//! wasm, `make dist` / `make test-wasm` / `tests/browser`).

use crate::prelude::*;
use super::bytes::put;

/// The index of the first byte at or after `i` that ends a run of plain string bytes: `"`,
/// `\`, or a control byte (below 0x20); `b.len()` when there is none (`i` itself when it is
/// past the end).
#[inline]
pub(crate) fn plain_run(b: &[u8], mut i: usize) -> usize {
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    while let Some(block) = b.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let hits = specials16(block);
        if hits != 0 {
            return i + hits.trailing_zeros() as usize;
        }
        i += 16;
    }
    // `first_chunk` borrows the 8 bytes as an array: one 64-bit load (a `copy_from_slice`
    // here stays a call at opt-level z).
    while let Some(&w) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let hits = specials8(u64::from_le_bytes(w));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// Appends the plain bytes of `b` from `i` to `out` and returns where they end, as
/// `plain_run` then `put` would (`i` past the end appends nothing). Sixteen bytes per step
/// where `plain_run` has them: each block is stored whole into `out`'s spare room and only
/// its plain part is kept (`bytes::put_block`), so a short run between two escapes costs no
/// `memcpy` call. Text that is mostly escapes (code in tool output: one `\n` or `\"` every
/// 16-40 bytes in the bench logs) spends its string time on those calls otherwise.
#[inline]
pub(super) fn copy_run(b: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    while let Some(block) = b.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let hits = specials16(block);
        let n = if hits != 0 { hits.trailing_zeros() as usize } else { 16 };
        super::bytes::put_block(out, block, n);
        i += n;
        if hits != 0 {
            return i;
        }
    }
    let end = plain_run(b, i);
    if let Some(run) = b.get(i..end) {
        put(out, run);
    }
    end
}

/// Bit `k` set when byte `k` of the word (little-endian) is special, plus possibly bits above
/// a real hit: a byte-wise "has a byte below n" test (`(x - n·0x01…) & !x & 0x80…`, exact for
/// n ≤ 0x80 except that a borrow can only flag bytes above a real hit), and a zero byte of
/// `x ^ c·0x01…` is a byte equal to `c`. So the lowest set bit is exact.
#[inline]
fn specials8(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let quote = w ^ (ONES * u64::from(b'"'));
    let slash = w ^ (ONES * u64::from(b'\\'));
    let hits = (w.wrapping_sub(ONES * 0x20) & !w)
        | (quote.wrapping_sub(ONES) & !quote)
        | (slash.wrapping_sub(ONES) & !slash);
    hits & HIGHS
}

/// Bit `k` set when `block[k]` is special (SSE2).
#[cfg(target_arch = "x86_64")]
#[inline]
fn specials16(block: &[u8; 16]) -> u32 {
    use core::arch::x86_64::*;
    // SAFETY: SSE2 is in every x86_64 target's baseline feature set, so the intrinsics are
    // available; the unaligned load reads exactly the 16 bytes `block` borrows.
    unsafe {
        let x = _mm_loadu_si128(block.as_ptr().cast());
        // x ≤ 0x1f (unsigned) exactly when min(x, 0x1f) == x.
        let control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x);
        let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
        let slash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, slash))) as u32
    }
}

/// Bit `k` set when `block[k]` is special (wasm simd128).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn specials16(block: &[u8; 16]) -> u32 {
    use core::arch::wasm32::*;
    // SAFETY: the (unaligned) load reads exactly the 16 bytes `block` borrows.
    let x = unsafe { v128_load(block.as_ptr().cast()) };
    let control = u8x16_lt(x, u8x16_splat(0x20));
    let quote = u8x16_eq(x, u8x16_splat(b'"'));
    let slash = u8x16_eq(x, u8x16_splat(b'\\'));
    u32::from(u8x16_bitmask(v128_or(control, v128_or(quote, slash))))
}

#[cfg(test)]
mod tests {
    use super::{copy_run, plain_run};

    fn slow(b: &[u8], i: usize) -> usize {
        (i..b.len())
            .find(|&k| matches!(b[k], b'"' | b'\\' | 0..=0x1f))
            .unwrap_or(b.len().max(i))
    }

    #[test]
    fn every_special_at_every_offset() {
        for len in 0..=64 {
            for special in [b'"', b'\\', 0, 0x1f, 0x0a] {
                for at in 0..len {
                    for filler in [b'a', 0x20, 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']'] {
                        let mut b = vec![filler; len];
                        b[at] = special;
                        for from in 0..=len + 1 {
                            let end = slow(&b, from);
                            assert_eq!(plain_run(&b, from), end, "{b:?} from {from}");
                            // Onto an empty vector and onto one with no spare room.
                            for mut out in [Vec::new(), vec![7u8; 3]] {
                                out.shrink_to_fit();
                                let mut want = out.clone();
                                want.extend_from_slice(b.get(from..end).unwrap_or(&[]));
                                assert_eq!(copy_run(&b, from, &mut out), end, "{b:?} from {from}");
                                assert_eq!(out, want, "{b:?} from {from}");
                            }
                        }
                    }
                }
            }
            let b = vec![b'x'; len];
            assert_eq!(plain_run(&b, 0), len);
            assert_eq!(copy_run(&b, 0, &mut Vec::new()), len);
        }
    }
}
