//! Numbers as text exactly as Rust's `{}` and `{:.N}` print an `f64`, without core's float
//! formatting (Grisu/Dragon4 and their tables, ~20 KB of wasm): integral values go through
//! integer formatting, the rest take their shortest digits from serde_json's float writer,
//! which the wasm carries anyway for JSON output. The tests compare both with `format!`.

use crate::prelude::*;
use crate::text::Owned;

/// `x.trunc()`, `x.round()` and `x.fract()` as std computes them, here because core has no
/// float rounding: the host's wasm is `no_std` (src/lib.rs). `x as i64` truncates toward
/// zero and is exact below 2^52, where every `f64` with a fraction lies.
pub fn trunc(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x; // already integral (or NaN / ±∞)
    }
    let t = x as i64 as f64;
    if t == 0.0 && x.is_sign_negative() {
        -0.0
    } else {
        t
    }
}

/// `x.round()`: to the nearest integer, halves away from zero.
pub fn round(x: f64) -> f64 {
    let t = trunc(x);
    if (x - t).abs() >= 0.5 {
        t + if x < 0.0 { -1.0 } else { 1.0 }
    } else {
        t
    }
}

/// `x.fract()`: `x - x.trunc()`.
pub fn fract(x: f64) -> f64 {
    x - trunc(x)
}

/// `x` exactly as Rust's `{}` prints an `f64` (plain decimal, shortest round-trip digits,
/// never an exponent: `3`, `-0`, `0.25`, `1000000000000000000000`), without linking core's
/// float formatting into the wasm: integral values go through integer formatting, the rest
/// take their digits from serde_json's number formatter (already linked for output).
pub fn num_text(x: f64) -> String {
    if fract(x) == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        if x == 0.0 && x.is_sign_negative() {
            return "-0".owned();
        }
        return (x as i64).to_string();
    }
    if !x.is_finite() {
        return non_finite(x).owned();
    }
    match serde_json::Number::from_f64(x) {
        Some(n) => plain_decimal(&n.to_string()),
        None => String::new(),
    }
}

fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// Lays out `[-]digits[.digits][e[+-]exp]` as a plain decimal without exponent.
fn plain_decimal(s: &str) -> String {
    let b = s.as_bytes();
    let mut digits: Vec<u8> = Vec::with_capacity(b.len());
    let mut neg = false;
    let mut point: Option<usize> = None;
    let mut exp: i64 = 0;
    let mut exp_neg = false;
    let mut in_exp = false;
    for &c in b {
        match c {
            b'-' if in_exp => exp_neg = true,
            b'-' => neg = true,
            b'.' => point = Some(digits.len()),
            b'e' | b'E' => in_exp = true,
            b'0'..=b'9' if in_exp => exp = (exp * 10 + i64::from(c - b'0')).min(100_000),
            b'0'..=b'9' => digits.push(c),
            _ => {}
        }
    }
    // Position of the decimal point counted from the start of `digits`.
    let mut at = point.unwrap_or(digits.len()) as i64 + if exp_neg { -exp } else { exp };
    let lead = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..lead);
    at -= lead as i64;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    let mut out = String::with_capacity(digits.len() + 8);
    if neg {
        out.push('-');
    }
    if digits.is_empty() {
        out.push('0');
        return out;
    }
    let len = digits.len() as i64;
    if at <= 0 {
        out.push_str("0.");
        push_zeros(&mut out, -at);
        out.extend(digits.iter().map(|&d| char::from(d)));
    } else if at >= len {
        out.extend(digits.iter().map(|&d| char::from(d)));
        push_zeros(&mut out, at - len);
    } else {
        for (i, &d) in digits.iter().enumerate() {
            if i as i64 == at {
                out.push('.');
            }
            out.push(char::from(d));
        }
    }
    out
}

fn push_zeros(out: &mut String, n: i64) {
    for _ in 0..n {
        out.push('0');
    }
}

/// `x` exactly as Rust's `{:.N}` prints an `f64` (`decimals` = N, at most 2): the exact
/// binary value rounded half to even, by integer arithmetic on its mantissa and exponent.
pub fn fixed(x: f64, decimals: u32) -> String {
    if !x.is_finite() {
        return non_finite(x).owned();
    }
    let scale = 10u64.pow(decimals.min(2));
    let bits = x.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if raw_exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), raw_exp - 1075)
    };
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let (int, fraction) = if e >= 0 {
        // An integer (at least 2^52): its exact digits, then zeros after the point.
        (doubled(m, e as u32), 0)
    } else {
        // round_half_even(m * scale / 2^-e); m * 100 < 2^60, so u64 holds it.
        let q = m * scale;
        let sh = e.unsigned_abs();
        let n = if sh >= 64 {
            0
        } else {
            let whole = q >> sh;
            let rem = q & ((1u64 << sh) - 1);
            let half = 1u64 << (sh - 1);
            if rem > half || (rem == half && whole & 1 == 1) {
                whole + 1
            } else {
                whole
            }
        };
        ((n / scale).to_string(), n % scale)
    };
    out.push_str(&int);
    if scale > 1 {
        out.push('.');
        if scale == 100 && fraction < 10 {
            out.push('0');
        }
        out.push_str(&fraction.to_string());
    }
    out
}

/// Decimal digits of `m * 2^e` (schoolbook doubling; only for huge integral values).
fn doubled(m: u64, e: u32) -> String {
    let mut d: Vec<u8> = m.to_string().bytes().rev().map(|b| b - b'0').collect();
    for _ in 0..e {
        let mut carry = 0;
        for x in d.iter_mut() {
            let v = *x * 2 + carry;
            *x = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            d.push(carry);
        }
    }
    d.iter().rev().map(|&x| char::from(b'0' + x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.25,
            0.35,
            0.05,
            0.15,
            0.45,
            0.95,
            9.95,
            99.5,
            0.1,
            0.2,
            0.3,
            1e-7,
            1.5e-10,
            5e-324,
            2.2250738585072014e-308,
            1e21,
            1e22,
            1e23,
            1.7976931348623157e308,
            9_007_199_254_740_992.0,
            9_007_199_254_740_993.0,
            4_503_599_627_370_497.5,
            123_456.789,
            0.0025399999999999997,
            1.234e15,
            1.234e16,
            1.234e17,
            1e-5,
            1e-6,
            170_251.0,
            1_250_000.0,
            1.25,
            0.125,
            12.345,
            -0.04,
            -0.4,
            0.999_999_9,
            0.049_999_999_999_999_996,
            999_999.95,
            0.873,
            0.5049999,
            73.0 / 7.0,
        ];
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..4000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            if i % 8 == 0 && x.is_finite() {
                v.push(x);
            }
            // Everyday magnitudes: tokens, costs, milliseconds, fractions.
            let scale = [1e-3, 1e-2, 1.0, 1e2, 1e4, 1e6, 1e9, 1e12][i % 8];
            v.push((s >> 11) as f64 / (1u64 << 53) as f64 * scale);
            v.push(((s >> 40) as f64) / 1000.0);
            v.push(((s >> 44) as f64) / 1e6 * 1e6 / 1e6);
        }
        v
    }

    #[test]
    fn rounding_matches_std() {
        let mut xs = samples();
        xs.extend([0.49999999999999994, -0.49999999999999994, 4503599627370495.5, -4503599627370495.5,
            4503599627370496.0, 9007199254740993.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.4, -0.5, -1.5]);
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            xs.push(f64::from_bits(s)); // every exponent, NaNs and infinities among them
            xs.push((s % 20_000_000) as f64 / 1000.0 - 10_000.0); // decimals near halves
        }
        for x in xs {
            let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            assert!(same(trunc(x), x.trunc()), "trunc({x:?})");
            assert!(same(round(x), x.round()), "round({x:?})");
            assert!(same(fract(x), x.fract()), "fract({x:?})");
        }
    }

    #[test]
    fn num_text_matches_display() {
        for x in samples() {
            assert_eq!(num_text(x), format!("{x}"), "{x:e}");
        }
        assert_eq!(num_text(f64::NAN), format!("{}", f64::NAN));
        assert_eq!(num_text(f64::INFINITY), format!("{}", f64::INFINITY));
        assert_eq!(
            num_text(f64::NEG_INFINITY),
            format!("{}", f64::NEG_INFINITY)
        );
    }

    #[test]
    fn fixed_matches_precision_format() {
        for x in samples()
            .into_iter()
            .chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY])
        {
            assert_eq!(fixed(x, 0), format!("{x:.0}"), "{x:e}");
            assert_eq!(fixed(x, 1), format!("{x:.1}"), "{x:e}");
            assert_eq!(fixed(x, 2), format!("{x:.2}"), "{x:e}");
        }
    }
}
