//! Text streamed in pieces, remembered by its length and hashes instead of its bytes.
//!
//! A runtime that restates a message whole after streaming its deltas must not show it twice:
//! the whole text is compared with what the deltas showed. Keeping that text would let one
//! message's deltas grow a parser's memory without bound (gigabytes over many lines, each
//! within the line limit); a [`Streamed`] is a few words whatever it saw, and answers the
//! comparisons the readers make: the same text (trimmed), and the whole text beginning with
//! what streamed (what remains to show). FNV-1a (64-bit) over the bytes; the length is
//! compared too.

use crate::text::{cut, fnv1a, FNV_OFFSET};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Streamed {
    /// Bytes seen, and the hash of all of them.
    len: usize,
    all: u64,
    /// The trimmed view: from the first non-whitespace character on. `run` hashes it through
    /// the last byte seen, `trimmed` through the last non-whitespace character.
    started: bool,
    run: u64,
    run_len: usize,
    trimmed: u64,
    trimmed_len: usize,
}

impl Default for Streamed {
    fn default() -> Streamed {
        Streamed { len: 0, all: FNV_OFFSET, started: false, run: FNV_OFFSET, run_len: 0, trimmed: FNV_OFFSET, trimmed_len: 0 }
    }
}

impl Streamed {
    /// The digest of one whole text.
    pub fn of(text: &str) -> Streamed {
        let mut s = Streamed::default();
        s.push(text);
        s
    }

    /// Adds the next piece.
    pub fn push(&mut self, piece: &str) {
        self.all = fnv1a(self.all, piece.bytes());
        self.len += piece.len();
        let mut at = 0;
        for (i, c) in piece.char_indices() {
            let ws = c.is_whitespace();
            if !self.started && ws {
                at = i + c.len_utf8();
                continue;
            }
            self.started = true;
            if !ws {
                let end = i + c.len_utf8();
                self.run = fnv1a(self.run, piece.as_bytes()[at..end].iter().copied());
                self.run_len += end - at;
                at = end;
                self.trimmed = self.run;
                self.trimmed_len = self.run_len;
            }
        }
        if self.started && at < piece.len() {
            self.run = fnv1a(self.run, piece.as_bytes()[at..].iter().copied());
            self.run_len += piece.len() - at;
        }
    }

    /// Whether anything but whitespace streamed.
    pub fn has_text(&self) -> bool {
        self.started
    }

    /// Whether `text`, trimmed, is what streamed, trimmed.
    pub fn same_trimmed(&self, text: &str) -> bool {
        let t = text.trim();
        t.len() == self.trimmed_len && fnv1a(FNV_OFFSET, t.bytes()) == self.trimmed
    }

    /// What `text` holds after all that streamed, when it begins with it.
    pub fn rest_of<'t>(&self, text: &'t str) -> Option<&'t str> {
        let head = text.get(..self.len)?;
        (fnv1a(FNV_OFFSET, head.bytes()) == self.all).then(|| cut(text, self.len..))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_as_the_text_would() {
        let mut s = Streamed::default();
        assert!(!s.has_text() && s.same_trimmed("  ") && s.rest_of("abc") == Some("abc"));
        for piece in ["  \n", "Hel", "lo, ", "wörld", " \n"] {
            s.push(piece);
        }
        let whole = "  \nHello, wörld \n";
        assert!(s.has_text());
        assert!(s.same_trimmed("Hello, wörld") && s.same_trimmed("\tHello, wörld  "));
        assert!(!s.same_trimmed("Hello, world") && !s.same_trimmed("Hello, wörld!"));
        assert_eq!(s.rest_of(whole), Some(""));
        assert_eq!(s.rest_of(&format!("{whole}More.")), Some("More."));
        assert_eq!(s.rest_of("  \nHello"), None);
        assert_eq!(s.rest_of("  \nHello, world \nMore."), None);
        assert_eq!(Streamed::of(whole), s);
        // Whitespace inside counts; a piece that is only whitespace keeps the trimmed end.
        let mut t = Streamed::of("a");
        t.push("   ");
        assert!(t.same_trimmed("a") && !t.same_trimmed("a b"));
        t.push("b");
        assert!(t.same_trimmed("a   b"));
    }
}
