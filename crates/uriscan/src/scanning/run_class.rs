//! The byte classes of a URI run, for skipping its plain bytes: the URI characters that need
//! no more than "keep going" (everything but brackets, `'`, `%`, `#`,
//! non-ASCII and the bytes that end a run). Most of a URI is plain, so the run
//! scan asks for the next byte that is not, thirty-two bytes at a time
//! with AVX2 where the CPU has it.
//!
//! This module holds the byte classes; the loops that read them are in
//! [`super::arch`].

use crate::syntax::chars::URI_CHAR;

/// How the run scan treats each byte.
pub(crate) const PLAIN: u8 = 0;
/// Ends the run (whitespace, controls, `"`, `<`, `>`, `\`, `^`,
/// backtick, `{`, `|`, `}`).
pub(crate) const STOP: u8 = 1;
/// `(`, `)`, `[`, `]` and `'`: counted or compared.
pub(crate) const BRACKET_OR_QUOTE: u8 = 2;
/// The first byte of a non-ASCII character.
pub(crate) const WIDE: u8 = 3;
/// `%` and `#`: plain to the run, but the run scan looks at them to tell
/// whether the candidate is in the shape that needs no parser pass
/// (see [`super::validate::quick_valid`]).
pub(crate) const MARK: u8 = 4;

/// The class of every byte.
pub(crate) static RUN_CLASS: [u8; 256] = {
    let mut t = [STOP; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0x80 {
            WIDE
        } else if !URI_CHAR.contains(c) {
            STOP
        } else if matches!(c, b'(' | b')' | b'[' | b']' | b'\'') {
            BRACKET_OR_QUOTE
        } else if matches!(c, b'%' | b'#') {
            MARK
        } else {
            PLAIN
        };
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanning::arch::all::skip_plain_portable;
    #[cfg(target_arch = "x86_64")]
    use crate::scanning::arch::x86_64::run_class::{NIBBLES, skip_plain_avx2};

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn nibble_tables_classify_every_byte() {
        let (lo, hi) = NIBBLES;
        for b in 0..=255u8 {
            let not_plain = lo[usize::from(b & 15)] & hi[usize::from(b >> 4)];
            assert_eq!(
                not_plain != 0,
                RUN_CLASS[usize::from(b)] != PLAIN,
                "{b}"
            );
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_equals_portable_for_every_byte_at_every_offset() {
        use crate::scanning::tests::{cpu_has, features};
        if !cpu_has("avx2 skip_plain", features!("avx2")) {
            return;
        }
        let mut hay = vec![b'a'; 100];
        for b in 0..=255u8 {
            for at in 0..70 {
                hay.fill(b'a');
                hay[at] = b;
                for start in [0, 1, 5, 31] {
                    let want = skip_plain_portable(&hay, start, hay.len());
                    // SAFETY: the CPU has AVX2, checked above.
                    let got =
                        unsafe { skip_plain_avx2(&hay, start, hay.len()) };
                    assert_eq!(got, want, "byte {b} at {at} from {start}");
                }
            }
        }
    }
}
