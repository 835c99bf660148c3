//! String helpers the whole crate shares, written for the size of the host's wasm: each one
//! stands in for a standard-library call that would bring more code than it is worth (core's
//! two-way substring searcher, the char-boundary panic message of `&s[a..b]`, an inlined
//! allocate-and-copy per `to_owned`, std's lossy UTF-8 iterator). The runtime modules get them
//! through `formats::common`; the JSON layer, the JS model and the parsers use them here.

use crate::prelude::*;

/// `text.owned()` is `text.to_owned()` kept out of line: at opt-level `s` the std one is
/// inlined as an allocate-and-copy at each of ~150 sites (about 10 KB of the wasm).
pub trait Owned {
    fn owned(&self) -> String;
}

impl Owned for str {
    #[inline(never)]
    fn owned(&self) -> String {
        self.to_owned()
    }
}

// Substring search without core's two-way searcher (`str::find(&str)`, `contains(&str)`,
// `split_once(&str)`, `trim_start_matches(&str)`, `replace(&str, …)` all bring it in): it is
// ~3 KB of every wasm that uses it, and once no call site is left it goes (docs/bench.md,
// Decisions). Matches are byte matches: in valid UTF-8 a match of a whole needle
// always starts and ends on character boundaries, so the offsets can slice the text.

/// The byte offset of the first `needle` in `hay`, in time linear in both
/// (Knuth-Morris-Pratt); a one-byte needle is a plain scan.
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    // With the standard library (the CLI, the npm entry: no size budget) core's two-way
    // searcher, 2-4x faster on long texts (a tool's output searched for a harness tag was 8%
    // of `agentlines stats`); the host's files keep the small loop below.
    #[cfg(feature = "std")]
    return hay.find(needle);
    #[cfg(not(feature = "std"))]
    find_small(hay, needle)
}

/// [`find`] without core's searcher (Knuth-Morris-Pratt).
#[cfg_attr(feature = "std", allow(dead_code))]
fn find_small(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else { return Some(0) };
    if n.len() == 1 {
        return h.iter().position(|&b| b == first);
    }
    // fail[i]: the length of the longest proper prefix of n[..=i] that is also its suffix
    // (on the stack for the short needles of every call site but one).
    let mut short = [0usize; 32];
    let mut long = Vec::new();
    let fail: &mut [usize] = match short.get_mut(..n.len()) {
        Some(f) => f,
        None => {
            long.resize(n.len(), 0);
            &mut long
        }
    };
    let mut k = 0;
    for i in 1..n.len() {
        while k > 0 && n[i] != n[k] {
            k = fail[k - 1];
        }
        if n[i] == n[k] {
            k += 1;
        }
        fail[i] = k;
    }
    k = 0;
    for (i, &b) in h.iter().enumerate() {
        while k > 0 && b != n[k] {
            k = fail[k - 1];
        }
        if b == n[k] {
            k += 1;
            if k == n.len() {
                return Some(i + 1 - k);
            }
        }
    }
    None
}

/// Whether `needle` occurs in `hay` ([`find`]).
pub fn has(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// `hay` around its first `sep`: `str::split_once(&str)` through [`find`].
pub fn split_around<'s>(hay: &'s str, sep: &str) -> Option<(&'s str, &'s str)> {
    let at = find(hay, sep)?;
    Some((cut(hay, ..at), cut(hay, at + sep.len()..)))
}

/// The byte offset of the last `needle` in `hay`. Compares at every offset from the end, so
/// it is meant for short fixed needles (a few bytes: linear in `hay` then).
pub fn rfind(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    (0..=h.len().checked_sub(n.len())?).rev().find(|&i| &h[i..i + n.len()] == n)
}

/// `s` without every leading repetition of `prefix` (`str::trim_start_matches`).
pub fn trim_start_all<'s>(mut s: &'s str, prefix: &str) -> &'s str {
    if prefix.is_empty() {
        return s;
    }
    while let Some(rest) = s.strip_prefix(prefix) {
        s = rest;
    }
    s
}

/// `s` with every `from` replaced by `to`, left to right (`str::replace`; `from` not empty).
pub fn replace_all(s: &str, from: &str, to: &str) -> String {
    if from.is_empty() {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = find(rest, from) {
        out.push_str(cut(rest, ..i));
        out.push_str(to);
        rest = cut(rest, i + from.len()..);
    }
    out.push_str(rest);
    out
}

/// `items` joined by `sep`, as `collect::<Vec<_>>().join(sep)` gives, without the Vec: a
/// plain loop here is much smaller in the wasm than Vec's from-iterator code, which is
/// instantiated again for every call site's iterator type.
pub fn join<T: AsRef<str>>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
    out
}

/// `&s[range]` for a cut the code found (at a byte it searched for, or a length it
/// measured), so never inside a character; if a bug ever cut inside one, the panic has a
/// fixed message. Core's own message for that case formats the string, the range and the
/// character around the bound: its `Debug` code and Unicode tables are ~8 KB of raw wasm,
/// 4.3-4.6 KB gzip, in every shipped file, kept by a single `&str[..]` anywhere in the
/// wasm. `clippy::string_slice` (lib.rs) names any new one in the host's build.
pub fn cut<R: core::slice::SliceIndex<str, Output = str>>(s: &str, range: R) -> &str {
    s.get(range).expect("a cut inside a character")
}

/// The longest start of `s` of at most `max` bytes that ends on a character boundary.
pub fn prefix_bytes(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    cut(s, ..end)
}

/// `String::from_utf8_lossy` (each invalid sequence becomes one U+FFFD), written on
/// `from_utf8`'s error positions: std's version brings its own UTF-8 chunk iterator, ~1 KB of
/// wasm for a path the glue never takes.
pub fn lossy_utf8(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push('\u{fffd}');
                bytes = &bad[e.error_len().unwrap_or(bad.len())..];
            }
        }
    }
}

#[cfg(test)]
mod cut_tests {
    use super::{cut, prefix_bytes, split_around};

    #[test]
    fn cuts_like_slicing_and_says_so_inside_a_character() {
        let s = "aé€😀z";
        for (a, b) in [(0, 1), (1, 3), (3, 6), (6, 10), (0, 11), (11, 11)] {
            assert_eq!(cut(s, a..b), &s[a..b]);
        }
        assert_eq!((cut(s, ..3), cut(s, 6..)), (&s[..3], &s[6..]));
        assert_eq!(split_around("a · b · c", " · "), "a · b · c".split_once(" · "));
        assert_eq!(split_around("a b", " · "), None);
        let heads: Vec<&str> = (0..13).map(|n| prefix_bytes(s, n)).collect();
        assert_eq!(heads, ["", "a", "a", "aé", "aé", "aé", "aé€", "aé€", "aé€", "aé€", "aé€😀", "aé€😀z", "aé€😀z"]);
        for bad in [2, 4, 7, 12] {
            let p = std::panic::catch_unwind(|| cut(s, ..bad)).unwrap_err();
            let msg = p.downcast_ref::<String>().map(String::as_str).or(p.downcast_ref::<&str>().copied());
            assert_eq!(msg, Some("a cut inside a character"), "..{bad}");
        }
    }
}

#[cfg(test)]
mod search_tests {
    use super::*;

    /// Every string of up to `n` characters over `alphabet`.
    fn strings(alphabet: &[char], n: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..n {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn search_matches_the_standard_library() {
        // Repetitive needles (KMP's failure table matters), a two-byte character, overlaps.
        let hays = strings(&['a', 'b', 'é'], 6);
        let needles = strings(&['a', 'b', 'é'], 3);
        for h in &hays {
            for n in &needles {
                assert_eq!(find(h, n), h.find(n.as_str()), "find({h:?}, {n:?})");
                assert_eq!(find_small(h, n), h.find(n.as_str()), "find_small({h:?}, {n:?})");
                assert_eq!(has(h, n), h.contains(n.as_str()));
                assert_eq!(rfind(h, n), h.rfind(n.as_str()), "rfind({h:?}, {n:?})");
                assert_eq!(trim_start_all(h, n), h.trim_start_matches(n.as_str()), "trim({h:?}, {n:?})");
                if !n.is_empty() {
                    assert_eq!(replace_all(h, n, "<>"), h.replace(n.as_str(), "<>"), "replace({h:?}, {n:?})");
                }
            }
        }
        assert_eq!(replace_all("abc", "", "x"), "abc");
        let long = "ab".repeat(50_000) + "abb";
        assert_eq!(find(&long, "ababb"), long.find("ababb"));
        assert_eq!(find_small(&long, "ababb"), long.find("ababb"));
    }

    #[test]
    fn lossy_utf8_matches_the_standard_library() {
        // Every byte string of up to 4 bytes over lead, continuation, invalid and ASCII bytes
        // (truncated, overlong and surrogate sequences among them), and some longer ones.
        let alphabet = [b'a', 0x80, 0xbf, 0xc0, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0xf4, 0x90, 0xff];
        let mut last: Vec<Vec<u8>> = vec![vec![]];
        for _ in 0..4 {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |&b| [s.as_slice(), &[b]].concat())).collect();
            for s in &last {
                assert_eq!(lossy_utf8(s), String::from_utf8_lossy(s), "{s:x?}");
            }
        }
        let mixed = [&b"ok \xe2\x82\xac "[..], &[0xe2, 0x82], b" \xf0\x9f\x98\x80 ", &[0xed, 0xa0, 0x80], b" end"].concat();
        assert_eq!(lossy_utf8(&mixed), String::from_utf8_lossy(&mixed));
    }
}

/// FNV-1a's starting value.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over `bytes`, continuing from `h` ([`FNV_OFFSET`] to start): the stable 64-bit
/// keys the runtimes remember things by (ids made from data, texts already shown),
/// the same on every run and platform.
pub fn fnv1a(h: u64, bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}
