//! The AVX2 newline loops (see [`crate::scanning::lines`]): the look
//! back for a line start, and the count of the bytes before a search's
//! first block.

use crate::scanning::arch::all::count_newlines;

/// The `\n` bytes of the 32-byte block of `hay` at `at`, as a bit mask.
///
/// # Safety
///
/// The CPU must support AVX2, and `at + 32 <= hay.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn newline_mask(hay: &[u8], at: usize) -> u32 {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_set1_epi8,
    };
    debug_assert!(at + 32 <= hay.len());
    // SAFETY: `at + 32 <= hay.len()`, the caller's promise.
    let v =
        unsafe { _mm256_loadu_si256(hay.as_ptr().add(at).cast::<__m256i>()) };
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\n' as i8)))
        as u32
}

/// The bits `lo..hi` of a 32-bit mask (`lo < hi <= 32`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn bits(mask: u32, lo: usize, hi: usize) -> u32 {
    (mask >> lo << lo) & (u32::MAX >> (32 - hi))
}

/// [`last_newline_in_portable`](crate::scanning::arch::all::last_newline_in_portable) a 32-byte block at a time, backward:
/// the blocks are taken whole from `hay` (the first one starting at its
/// start) and the bytes outside the range masked off, so a short look is
/// one or two compares.
///
/// # Safety
///
/// The CPU must support AVX2, and `hay` must hold 32 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn last_newline_in_avx2(
    hay: &[u8],
    from: usize,
    to: usize,
) -> Option<usize> {
    assert!(from <= to && to <= hay.len() && hay.len() >= 32);
    let mut j = to;
    while j > from {
        let at = j.saturating_sub(32);
        // SAFETY: `at + 32 <= max(j, 32) <= hay.len()`, and the CPU has
        // AVX2.
        let mask = unsafe { newline_mask(hay, at) };
        let mask = bits(mask, from.saturating_sub(at), j - at);
        if mask != 0 {
            return Some(at + 31 - mask.leading_zeros() as usize);
        }
        j = at;
    }
    None
}

/// [`count_newlines`] for `hay[from..to]`, a 32-byte block at a time: for
/// the bytes before the vectorized search's first block (a rejected
/// `:`, a `<...>` URI), where the set-up of the compiler's vectorized
/// [`count_newlines`] costs more than these short spans take.
///
/// # Safety
///
/// The CPU must support AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(crate) unsafe fn count_newlines_avx2(
    hay: &[u8],
    mut from: usize,
    to: usize,
) -> u64 {
    debug_assert!(from <= to && to <= hay.len());
    let mut count = 0;
    while from < to {
        if from + 32 > hay.len() {
            return count + count_newlines(&hay[from..to]);
        }
        // SAFETY: `from + 32 <= hay.len()`, and the CPU has AVX2.
        let mask = unsafe { newline_mask(hay, from) };
        let n = (to - from).min(32);
        count += u64::from((mask & (u32::MAX >> (32 - n))).count_ones());
        from += n;
    }
    count
}
