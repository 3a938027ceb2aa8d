//! Skipping the plain bytes of a URI run: the URI characters that need
//! no more than "keep going" (everything but brackets, `'`, `%`, `#`,
//! non-ASCII and the bytes that end a run). Most of a URI is plain, so the run
//! scan asks for the next byte that is not, thirty-two bytes at a time
//! with AVX2 where the CPU has it.

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

/// The portable loop, also the reference for the vectorized one.
#[inline(always)]
pub(crate) fn skip_plain_portable(
    hay: &[u8],
    mut i: usize,
    end: usize,
) -> usize {
    while i < end && RUN_CLASS[usize::from(hay[i])] == PLAIN {
        i += 1;
    }
    i
}

/// Nibble tables for the classification with two byte shuffles: a byte
/// `b` is not plain when `LO[b & 15] & HI[b >> 4]` is non-zero. `LO[l]`
/// has bit `h` set when the ASCII byte `h << 4 | l` is not plain; `HI`
/// maps the high nibble `h < 8` to bit `h`, and every non-ASCII high
/// nibble to all bits (each `LO` entry has the control bits 0 and 1).
#[cfg(target_arch = "x86_64")]
const fn nibble_tables() -> ([u8; 16], [u8; 16]) {
    let mut lo = [0u8; 16];
    let mut hi = [0xFFu8; 16];
    let mut h = 0;
    while h < 8 {
        hi[h] = 1 << h;
        h += 1;
    }
    let mut b = 0;
    while b < 128 {
        if RUN_CLASS[b] != PLAIN {
            lo[b & 15] |= 1 << (b >> 4);
        }
        b += 1;
    }
    (lo, hi)
}

#[cfg(target_arch = "x86_64")]
const NIBBLES: ([u8; 16], [u8; 16]) = nibble_tables();

/// The bytes of the 32 in `v` that are not [`PLAIN`], as a bit mask:
/// the nibble-table classification.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn not_plain_avx2(v: std::arch::x86_64::__m256i) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm256_and_si256,
        _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8, _mm256_movemask_epi8,
        _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
        _mm256_srli_epi16,
    };
    // SAFETY: the tables are 16 bytes each, read whole.
    let (lo, hi) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(
                NIBBLES.0.as_ptr().cast::<__m128i>(),
            )),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(
                NIBBLES.1.as_ptr().cast::<__m128i>(),
            )),
        )
    };
    let low_nibble = _mm256_set1_epi8(0x0F);
    let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, low_nibble));
    let h = _mm256_shuffle_epi8(
        hi,
        _mm256_and_si256(_mm256_srli_epi16(v, 4), low_nibble),
    );
    let plain =
        _mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256());
    !(_mm256_movemask_epi8(plain) as u32)
}

/// [`skip_plain_portable`] with AVX2, thirty-two bytes at a time.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn skip_plain_avx2(
    hay: &[u8],
    mut i: usize,
    end: usize,
) -> usize {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256};
    let end = end.min(hay.len());
    while i + 32 <= end {
        // SAFETY: `i + 32 <= end <= hay.len()`.
        let v = unsafe {
            _mm256_loadu_si256(hay.as_ptr().add(i).cast::<__m256i>())
        };
        // SAFETY: the caller's promise: the CPU has AVX2.
        let mask = unsafe { not_plain_avx2(v) };
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += 32;
    }
    skip_plain_portable(hay, i, end)
}

#[cfg(test)]
mod tests {
    use super::*;

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
