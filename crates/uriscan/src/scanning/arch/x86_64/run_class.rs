//! The AVX2 skip over the plain bytes of a URI run (see
//! [`crate::scanning::run_class`]), by a two-shuffle classification.

use crate::scanning::arch::all::skip_plain_portable;
use crate::scanning::run_class::{PLAIN, RUN_CLASS};

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
pub(crate) const NIBBLES: ([u8; 16], [u8; 16]) = nibble_tables();

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
