//! The AVX2 classification of a chunk for the common-shape lane (see
//! [`crate::scanning::common_shape`]).

use crate::scanning::arch::all::RunMasks;

/// `run_masks_portable` (the tests' reference) with AVX2: the non-plain bytes by the nibble
/// shuffle of [`super::run_class::skip_plain_avx2`], the others by compares.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn run_masks_avx2(
    hay: &[u8],
    at: usize,
) -> Option<RunMasks> {
    use std::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8,
    };
    // SAFETY: the caller's promise: the CPU has AVX2.
    let v = unsafe { chunk_avx2(hay, at) }?;
    // SAFETY: as above.
    let special = unsafe { super::run_class::not_plain_avx2(v) };
    let eq = |c: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8));
    let ends = _mm256_or_si256(_mm256_or_si256(eq(b'/'), eq(b'?')), eq(b'#'));
    let odd = _mm256_or_si256(eq(b'@'), eq(b':'));
    Some(RunMasks {
        special,
        ends: _mm256_movemask_epi8(ends) as u32,
        odd: _mm256_movemask_epi8(odd) as u32,
    })
}

/// The 32 bytes of `hay` at `at`, or `None` when fewer are left.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn chunk_avx2(
    hay: &[u8],
    at: usize,
) -> Option<std::arch::x86_64::__m256i> {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256};
    if hay.len() < at.checked_add(32)? {
        return None;
    }
    // SAFETY: `at + 32 <= hay.len()`, checked above.
    Some(unsafe { _mm256_loadu_si256(hay.as_ptr().add(at).cast::<__m256i>()) })
}
