//! A JSON number token to a `serde_json::Number`, as serde_json (1.0.x as locked, with
//! `float_roundtrip`, no `arbitrary_precision`) reads it: floats correctly rounded, as
//! `JSON.parse` reads them.
//!
//! Why not `token.parse::<serde_json::Number>()`, which is what this replaces: that goes
//! through serde_json's `Deserializer` (its number state machine, error values with line and
//! column, `SliceRead::position_of_index`) and its table of the 309 powers of ten, ~2.5 KB of
//! `f64`s that do not compress. Together ~3 KB gzip of every ui-parser file. The
//! powers here are computed once each, on first use, with a small big-integer product, and
//! kept in a cache of atomics (zeroed memory, no data segment; plain loads and stores in wasm).
//!
//! serde_json's algorithm, which this follows step for step (its quirks included, because
//! the golden outputs and conformance cases come from it):
//!
//! - digits go into a `u64` significand while they fit; the first digit that would overflow
//!   it, and every later one, is dropped: integer digits add 1 to the decimal exponent each,
//!   fraction digits are skipped. After a dropped integer digit, fraction digits still go into
//!   the significand while they fit.
//! - an integer without `.`/`e` is a `u64`, or an `i64` when negative; `-0` and negatives past
//!   `i64` are floats.
//! - a float's value: where the significand is below 2^53 and |e| <= 22, `significand as
//!   f64` multiplied or divided by 10^|e| (both exact, so one rounding: correctly rounded);
//!   otherwise serde_json's estimate, corrected against the token's exact decimal value
//!   (`exact`; checked against core's `str::parse::<f64>` on random and halfway tokens). That
//!   departs from serde_json's default, which multiplies by the nearest `f64` of 10^e and can
//!   be one bit off; the dropped-digit rules above then only decide where a token ends.
//! - an exponent past `i32` is an error with a non-zero significand and a positive sign;
//!   otherwise the value is ±0.

use crate::prelude::*;
use serde_json::Number;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// `token` (a whole JSON number, nothing around it) as serde_json reads it; `None` where
/// serde_json's `FromStr for Number` fails (not a JSON number, or a float past `f64`).
pub fn number(token: &str) -> Option<Number> {
    match prefix(token.as_bytes())? {
        (n, len) if len == token.len() => Some(n),
        _ => None,
    }
}

/// The JSON number at the start of `b` and how many bytes it takes, read in one pass (the
/// line reader's number path): it ends where JSON's number grammar ends. `None` where
/// serde_json fails on that token.
pub fn prefix(b: &[u8]) -> Option<(Number, usize)> {
    let neg = b.first() == Some(&b'-');
    let mut c = Cursor { b, i: usize::from(neg), neg };
    let f = match c.peek() {
        b'0' => {
            c.i += 1;
            if c.peek().is_ascii_digit() {
                return None;
            }
            c.after_integer(0)?
        }
        b'1'..=b'9' => {
            let mut sig = 0u64;
            loop {
                let d = c.peek();
                if !d.is_ascii_digit() {
                    break c.after_integer(sig)?;
                }
                let d = u64::from(d - b'0');
                if overflows(sig, d) {
                    break Tail::Float(c.long_integer(sig)?);
                }
                c.i += 1;
                sig = sig * 10 + d;
            }
        }
        _ => return None,
    };
    let n = match f {
        Tail::Int(n) => n,
        Tail::Float(f) => Number::from_f64(f)?,
    };
    Some((n, c.i))
}

enum Tail {
    Int(Number),
    Float(f64),
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    neg: bool,
}

/// Whether `sig * 10 + d` is past `u64::MAX` (serde_json's `overflow!`).
fn overflows(sig: u64, d: u64) -> bool {
    sig >= u64::MAX / 10 && (sig > u64::MAX / 10 || d > u64::MAX % 10)
}

impl Cursor<'_> {
    /// The byte at the cursor, or 0 at the end (serde_json's `peek_or_null`).
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    fn skip_digits(&mut self) {
        while self.peek().is_ascii_digit() {
            self.i += 1;
        }
    }

    /// After the integer digits, all of which fit (serde_json's `parse_number`).
    fn after_integer(&mut self, sig: u64) -> Option<Tail> {
        Some(match self.peek() {
            b'.' => Tail::Float(self.decimal(sig, 0)?),
            b'e' | b'E' => Tail::Float(self.exponent(sig, 0)?),
            _ if !self.neg => Tail::Int(sig.into()),
            _ => {
                let n = (sig as i64).wrapping_neg();
                // `-0` and magnitudes past i64 become floats.
                if n >= 0 {
                    Tail::Float(-(sig as f64))
                } else {
                    Tail::Int(n.into())
                }
            }
        })
    }

    /// Integer digits past what the significand holds: each adds 1 to the exponent.
    fn long_integer(&mut self, sig: u64) -> Option<f64> {
        let mut exp = 0i32;
        loop {
            match self.peek() {
                b'0'..=b'9' => {
                    self.i += 1;
                    exp = exp.wrapping_add(1);
                }
                b'.' => return self.decimal(sig, exp),
                b'e' | b'E' => return self.exponent(sig, exp),
                _ => return self.float(sig, exp),
            }
        }
    }

    /// The cursor on `.`.
    fn decimal(&mut self, mut sig: u64, exp_before: i32) -> Option<f64> {
        self.i += 1;
        let mut after = 0i32;
        while self.peek().is_ascii_digit() {
            let d = u64::from(self.peek() - b'0');
            if overflows(sig, d) {
                // The remaining fraction digits are dropped.
                self.skip_digits();
                return self.exponent_or_end(sig, exp_before.wrapping_add(after));
            }
            self.i += 1;
            sig = sig * 10 + d;
            after = after.wrapping_sub(1);
        }
        if after == 0 {
            return None; // no digit after the point
        }
        self.exponent_or_end(sig, exp_before.wrapping_add(after))
    }

    fn exponent_or_end(&mut self, sig: u64, exp: i32) -> Option<f64> {
        match self.peek() {
            b'e' | b'E' => self.exponent(sig, exp),
            _ => self.float(sig, exp),
        }
    }

    /// The cursor on `e` or `E`.
    fn exponent(&mut self, sig: u64, start: i32) -> Option<f64> {
        self.i += 1;
        let positive = match self.peek() {
            b'+' | b'-' => {
                self.i += 1;
                self.b[self.i - 1] == b'+'
            }
            _ => true,
        };
        if !self.peek().is_ascii_digit() {
            return None;
        }
        let mut exp = 0i32;
        while self.peek().is_ascii_digit() {
            let d = i32::from(self.peek() - b'0');
            self.i += 1;
            if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || d > i32::MAX % 10) {
                // Past i32: an error instead of ∞, else ±0.
                if sig != 0 && positive {
                    return None;
                }
                self.skip_digits();
                return Some(if self.neg { -0.0 } else { 0.0 });
            }
            exp = exp * 10 + d;
        }
        let exp = if positive { start.saturating_add(exp) } else { start.saturating_sub(exp) };
        self.float(sig, exp)
    }

    /// The token's value, correctly rounded, as `JSON.parse` and serde_json's
    /// `float_roundtrip` read it. Where `sig` and 10^|exp| are exact `f64`s, one
    /// multiplication or division is correctly rounded (Clinger's fast path: nearly every
    /// number an agent prints); otherwise serde_json's estimate, then [`exact::correct`]
    /// settles the last bit against the token's exact value. `None` past `f64`'s range, as
    /// serde_json.
    fn float(&self, sig: u64, exp: i32) -> Option<f64> {
        if sig < 1 << 53 && exp.unsigned_abs() <= 22 {
            let p = pow10(exp.unsigned_abs());
            let f = if exp >= 0 { sig as f64 * p } else { sig as f64 / p };
            return Some(if self.neg { -f } else { f });
        }
        let estimate = self.float_serde_default(sig, exp).map(f64::abs);
        let f = exact::correct(self.b.get(..self.i)?, estimate)?;
        Some(if self.neg { -f } else { f })
    }

    /// `sig × 10^exp` as serde_json's default computes it (`f64_from_parts`): within a bit or
    /// two of the correctly rounded value (`None` where it overflows).
    fn float_serde_default(&self, sig: u64, mut exp: i32) -> Option<f64> {
        let mut f = sig as f64;
        loop {
            let k = exp.wrapping_abs() as u32;
            if k <= 308 {
                if exp >= 0 {
                    f *= pow10(k);
                    if f.is_infinite() {
                        return None;
                    }
                } else {
                    f /= pow10(k);
                }
                break;
            }
            if f == 0.0 {
                break;
            }
            if exp >= 0 {
                return None;
            }
            f /= 1e308;
            exp += 308;
        }
        Some(if self.neg { -f } else { f })
    }
}

/// The exact decimal value of a token against a nearby `f64`: big-integer comparisons with
/// the midpoints between neighbouring `f64`s (an AlgorithmR-style correction), so the result
/// is the correctly rounded value (ties to even) without core's float parser, whose tables
/// cost ~17 KB gzip of every shipped file.
mod exact {
    use crate::prelude::*;
    use core::cmp::Ordering;

    /// Significant digits kept: past 800, a dropped non-zero digit only needs to say the value
    /// is a little above what is kept (f64 needs at most 767 to decide).
    const MAX_DIGITS: usize = 800;

    /// A non-negative big integer, 32-bit limbs, least significant first.
    #[derive(Clone)]
    struct Big(Vec<u32>);

    impl Big {
        fn mul_add(&mut self, m: u32, add: u32) {
            let mut carry = u64::from(add);
            for l in &mut self.0 {
                let v = u64::from(*l) * u64::from(m) + carry;
                *l = v as u32;
                carry = v >> 32;
            }
            if carry != 0 {
                self.0.push(carry as u32);
            }
        }
        fn mul_pow10(&mut self, mut n: u32) {
            while n >= 9 {
                self.mul_add(1_000_000_000, 0);
                n -= 9;
            }
            self.mul_add(10u32.pow(n), 0);
        }
        fn shl(&mut self, bits: u32) {
            let (words, bits) = ((bits / 32) as usize, bits % 32);
            if bits != 0 {
                let mut carry = 0u32;
                for l in &mut self.0 {
                    let v = (*l << bits) | carry;
                    carry = *l >> (32 - bits);
                    *l = v;
                }
                if carry != 0 {
                    self.0.push(carry);
                }
            }
            self.0.splice(0..0, core::iter::repeat(0).take(words));
        }
        fn cmp(&self, other: &Big) -> Ordering {
            let len = |b: &Big| b.0.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
            let (a, b) = (len(self), len(other));
            a.cmp(&b).then_with(|| self.0[..a].iter().rev().cmp(other.0[..b].iter().rev()))
        }
    }

    /// The token's digits as an integer and its decimal exponent: value = digits × 10^exp.
    fn decimal(token: &[u8]) -> Option<(Big, i64)> {
        let mut d = Big(vec![0]);
        let (mut exp, mut kept, mut frac, mut dropped) = (0i64, 0usize, false, false);
        let mut i = usize::from(token.first() == Some(&b'-'));
        while let Some(&c) = token.get(i) {
            match c {
                b'0'..=b'9' if kept < MAX_DIGITS => {
                    if kept > 0 || c != b'0' {
                        d.mul_add(10, u32::from(c - b'0'));
                        kept += 1;
                    }
                    exp -= i64::from(frac);
                }
                b'0'..=b'9' => {
                    dropped |= c != b'0';
                    exp += i64::from(!frac);
                }
                b'.' => frac = true,
                _ => break,
            }
            i += 1;
        }
        if matches!(token.get(i), Some(b'e' | b'E')) {
            let rest = core::str::from_utf8(token.get(i + 1..)?).ok()?;
            let e: i64 = rest.trim_start_matches('+').parse().unwrap_or(if rest.starts_with('-') { -1 << 40 } else { 1 << 40 });
            exp = exp.saturating_add(e.clamp(-1 << 40, 1 << 40));
        }
        if dropped {
            // Stands for the dropped digits: above the kept ones, below the next kept value.
            d.mul_add(10, 1);
            exp -= 1;
        }
        Some((d, exp))
    }

    /// Compares digits × 10^exp with k × 2^q.
    fn compare(digits: &Big, exp: i64, k: u64, q: i64) -> Ordering {
        let mut lhs = digits.clone();
        let mut rhs = Big(vec![k as u32, (k >> 32) as u32]);
        if exp >= 0 {
            lhs.mul_pow10(exp as u32);
        } else {
            rhs.mul_pow10((-exp) as u32);
        }
        if q >= 0 {
            rhs.shl(q as u32);
        } else {
            lhs.shl((-q) as u32);
        }
        lhs.cmp(&rhs)
    }

    /// The `f64` nearest to the token's magnitude, from an estimate a few bits off (`None`:
    /// it overflowed); `None` past `f64::MAX`.
    pub fn correct(token: &[u8], estimate: Option<f64>) -> Option<f64> {
        let (digits, exp) = decimal(token)?;
        if digits.0.iter().all(|&l| l == 0) || exp < -400 - MAX_DIGITS as i64 {
            return Some(0.0);
        }
        if exp > 400 {
            return None;
        }
        let mut f = estimate.unwrap_or(f64::MAX);
        for _ in 0..64 {
            let bits = f.to_bits();
            let (e, frac) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
            let (m, q) = if e == 0 { (frac, -1074) } else { (frac | 1 << 52, e - 1075) };
            // Above the midpoint with the next f64 up: go up (or past f64::MAX).
            match compare(&digits, exp, 2 * m + 1, q - 1) {
                Ordering::Greater => {
                    if f == f64::MAX {
                        return None;
                    }
                    f = f64::from_bits(bits + 1);
                    continue;
                }
                Ordering::Equal if m & 1 == 1 => {
                    if f == f64::MAX {
                        return None;
                    }
                    return Some(f64::from_bits(bits + 1));
                }
                _ => {}
            }
            if m == 0 {
                return Some(f);
            }
            // Below the midpoint with the next f64 down (closer under a power of two).
            let (k, s) = if frac == 0 && e > 1 { (4 * m - 1, q - 2) } else { (2 * m - 1, q - 1) };
            match compare(&digits, exp, k, s) {
                Ordering::Less => f = f64::from_bits(bits - 1),
                Ordering::Equal if m & 1 == 1 => return Some(f64::from_bits(bits - 1)),
                _ => return Some(f),
            }
        }
        Some(f)
    }
}

/// 10^k for k <= 308 as the nearest `f64` (ties to even): the value of the literal `1ek`.
/// Computed on first use and cached; 0 in the cache means not computed yet (no power is 0).
fn pow10(k: u32) -> f64 {
    static CACHE: [AtomicU64; 309] = [const { AtomicU64::new(0) }; 309];
    let slot = &CACHE[k as usize];
    let bits = slot.load(Relaxed);
    if bits != 0 {
        return f64::from_bits(bits);
    }
    let bits = pow10_bits(k);
    slot.store(bits, Relaxed);
    f64::from_bits(bits)
}

/// The bits of the `f64` nearest to 10^k (k <= 308): 10^k as a big integer (32-bit limbs,
/// least significant first), its top 53 bits rounded half to even on the bits below.
fn pow10_bits(k: u32) -> u64 {
    let mut limbs: Vec<u32> = vec![1];
    for _ in 0..k {
        let mut carry = 0u64;
        for l in &mut limbs {
            let v = u64::from(*l) * 10 + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            limbs.push(carry as u32);
        }
    }
    let top = *limbs.last().unwrap_or(&1);
    // Bit length of the number; bit(i) is its bit i.
    let len = 32 * (limbs.len() as u32 - 1) + (32 - top.leading_zeros());
    let bit = |i: u32| (limbs[(i / 32) as usize] >> (i % 32)) & 1 == 1;
    if len <= 53 {
        // Exact (k <= 22): the integer itself.
        let v = limbs.iter().rev().fold(0u64, |a, &l| (a << 32) | u64::from(l));
        return (v as f64).to_bits();
    }
    let low = len - 53; // bits below the 53 kept
    let mut m = (low..len).rev().fold(0u64, |a, i| (a << 1) | u64::from(bit(i)));
    let half = bit(low - 1);
    let sticky = (0..low - 1).any(bit);
    let mut len = len;
    if half && (sticky || m & 1 == 1) {
        m += 1;
        if m == 1 << 53 {
            m >>= 1;
            len += 1;
        }
    }
    // m × 2^low with m in [2^52, 2^53): the exponent of the top bit is len - 1.
    (u64::from(len - 1 + 1023) << 52) | (m & ((1 << 52) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_ten_are_the_literals() {
        for k in 0..=308u32 {
            let lit: f64 = format!("1e{k}").parse().unwrap();
            assert_eq!(pow10(k).to_bits(), lit.to_bits(), "1e{k}");
            assert_eq!(pow10(k).to_bits(), lit.to_bits(), "1e{k} from the cache");
        }
    }

    fn same(t: &str) {
        let theirs = t.parse::<Number>().ok();
        let ours = number(t);
        match (&ours, &theirs) {
            (Some(a), Some(b)) => {
                assert_eq!(a, b, "{t:?}");
                // Number's == compares -0.0 and 0.0 as equal; the sign must match too.
                assert_eq!(a.to_string(), b.to_string(), "{t:?}");
            }
            (None, None) => {}
            _ => panic!("{t:?}: ours {ours:?}, serde_json {theirs:?}"),
        }
    }

    #[test]
    fn numbers_are_correctly_rounded_as_javascript_reads_them() {
        // Tokens where serde_json's default (not correctly rounded) reads another f64 than
        // JSON.parse; the expected bits are core's correctly rounded parse, which V8 agrees
        // with (tests/js/numbers.test.mjs checks the built files against JSON.parse).
        let mut differed = 0;
        for t in ["1e-30", "2.2250738585072011e-308", "9.999999999999999e-31", "0.3e-300", "7.2057594037927933e16", "1.00000000000000011102230246251565404236316680908203125", "123456789e-320"] {
            let want: f64 = t.parse().unwrap();
            assert_eq!(number(t).and_then(|n| n.as_f64()).map(f64::to_bits), Some(want.to_bits()), "{t}");
            let mut c = Cursor { b: t.as_bytes(), i: t.len(), neg: false };
            let _ = &mut c;
            if let Some((sig, exp)) = split(t) {
                if c.float_serde_default(sig, exp).map(f64::to_bits) != Some(want.to_bits()) {
                    differed += 1;
                }
            }
        }
        assert!(differed >= 1, "serde_json's default reads these the same: the test shows nothing");
    }

    #[test]
    fn random_and_halfway_tokens_match_cores_correctly_rounded_parse() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % n
        };
        let mut tokens: Vec<String> = Vec::new();
        for _ in 0..100_000 {
            let len = 1 + next(40) as usize;
            let digits: String = (0..len).map(|i| char::from(b'0' + if i == 0 { 1 + next(9) } else { next(10) } as u8)).collect();
            let point = next(len as u64 + 1) as usize;
            let exp = next(700) as i64 - 360;
            tokens.push(format!("{}.{}e{exp}", &digits[..point.max(1)], &digits[point.max(1)..]).replace(".e", "e"));
        }
        // Exact halfway points between neighbouring f64s, and one digit either side of them.
        for bits in [1u64, 2, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x4340_0000_0000_0000, 0x7fef_ffff_ffff_fffe] {
            let (a, b) = (f64::from_bits(bits), f64::from_bits(bits + 1));
            for f in [a, b] {
                tokens.push(format!("{f:e}"));
            }
        }
        tokens.extend(["9007199254740993", "9007199254740995", "1.7976931348623158e308", "1.7976931348623159e308", "2.4703282292062327e-324", "2.4703282292062328e-324"].map(String::from));
        tokens.push(format!("0.{}1e-300", "0".repeat(2000)));
        tokens.push(format!("1{}e-1990", "0".repeat(2000)));
        for t in &tokens {
            let want = t.parse::<f64>().ok().filter(|f| f.is_finite());
            assert_eq!(number(t).and_then(|n| n.as_f64()).map(f64::to_bits), want.map(f64::to_bits), "{t}");
        }
    }

    /// `sig` and decimal exponent of a short plain token (test helper for the reference).
    fn split(t: &str) -> Option<(u64, i32)> {
        let (mant, exp) = t.split_once('e').map_or((t, 0), |(m, e)| (m, e.parse::<i32>().unwrap()));
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let sig: u64 = format!("{int}{frac}").parse().ok()?;
        Some((sig, exp - frac.len() as i32))
    }

    #[test]
    fn edge_cases_match_serde_json() {
        for t in [
            "0", "-0", "1", "-1", "00", "01", "-", "", "1.", ".5", "1e", "1e+", "1E-", "1.5e3x", "+1", " 1",
            "18446744073709551615", "18446744073709551616", "184467440737095516150.5",
            "1844674407370955161.6", "1844674407370955161.5", "-9223372036854775808",
            "-9223372036854775809", "-18446744073709551615", "-18446744073709551616",
            "123456789012345678901234567890", "0.000000000000000000000000000001234567890123456789",
            "1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "-1e309",
            "1e-308", "1e-324", "5e-324", "2.2250738585072014e-308", "4.9e-324", "1e-400", "0e999999999999",
            "1e2147483647", "1e2147483648", "0e2147483648", "1e-2147483648", "1e-2147483649", "-1e-99999999999",
            "0.1", "0.2", "0.30000000000000004", "123.456", "-0.0", "-0e5", "9007199254740993",
            "1.0e+22", "1e23", "8.5e-323", "3.14159265358979323846264338327950288",
            "0.40389375000000005", "1E400", "0.0000", "100000000000000000000000e-10",
        ] {
            same(t);
        }
    }

    #[test]
    fn generated_tokens_match_serde_json() {
        // Deterministic pseudo-random tokens over the grammar's parts and beyond it.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % n
        };
        let parts = ["-", "0", "1", "9", "12", "18446744073709551615", "00", ".", "5", "e", "E", "+", "-", "308", "309", "7", "x"];
        for _ in 0..200_000 {
            let mut t = String::new();
            for _ in 0..=next(7) {
                t.push_str(parts[next(parts.len() as u64) as usize]);
            }
            same(&t);
        }
        for _ in 0..50_000 {
            let t = format!("{}{}.{}e{}{}", if next(2) == 0 { "-" } else { "" }, next(1 << 40), next(1 << 50),
                if next(2) == 0 { "-" } else { "" }, next(400));
            same(&t);
        }
    }
}
