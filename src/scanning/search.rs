//! Candidate search: the offsets of the `:` bytes that may end a scheme.
//! Confirmation ([`super::delimit::confirm`]) does the rest.
//!
//! Economics: prose, Markdown and HTML hold many more `:` than URIs
//! (`Note: `, `12:30`, `color:red`), and a per-candidate hand-off to
//! confirmation plus a restarted `memchr` costs tens of nanoseconds. So
//! the search itself filters, sixteen bytes at a time, on the bytes
//! around each `:`:
//!
//! - the byte after it is not whitespace or a control (every URI has
//!   something after its `:`), and
//! - under the default policy, the byte after it is `/` (`//` schemes),
//!   or the byte before it is a letter (every listed scheme ends with
//!   one) and the byte after it is not another `:` (`std::io`).
//!
//! A `:` at the very end of the buffer is always a candidate, since the
//! byte after it is not known yet (streaming). The filter only drops
//! colons that confirmation would reject, so it changes speed, never the
//! matches; the passage and property tests run with and without it.
//!
//! The vectorized search uses SSE2, part of the x86-64 baseline (no
//! runtime detection needed). Elsewhere, and with
//! `--cfg uriscan_disable_simd`, the portable byte loop is used; both are
//! always compiled on x86-64 and tested against each other for every
//! pair of bytes around a `:` at every alignment.

/// Whether `b` is an ASCII letter.
#[inline(always)]
fn is_alpha(b: u8) -> bool {
    (b | 0x20).wrapping_sub(b'a') < 26
}

/// The filter, for one position: the reference the vectorized search is
/// tested against.
#[inline(always)]
fn is_candidate(hay: &[u8], p: usize, strict: bool) -> bool {
    if hay[p] != b':' || p == 0 {
        return false;
    }
    match hay.get(p + 1) {
        None => true,
        Some(&next) => {
            next > b' '
                && (!strict
                    || next == b'/'
                    || (next != b':' && is_alpha(hay[p - 1])))
        }
    }
}

/// The first candidate `:` in `hay[from..]`, as an offset into `hay`.
/// `strict` is the default scheme policy's filter.
#[inline]
pub(crate) fn find_candidate(
    hay: &[u8],
    from: usize,
    strict: bool,
) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above (the check
            // is one load of a cached flag).
            return unsafe { find_candidate_avx2(hay, from, strict) };
        }
        find_candidate_sse2(hay, from, strict)
    }
    #[cfg(not(all(target_arch = "x86_64", not(uriscan_disable_simd))))]
    {
        find_candidate_portable(hay, from, strict)
    }
}

/// The AVX2 search: [`find_candidate_sse2`] thirty-two bytes at a time,
/// handing the last few bytes over to it.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_candidate_avx2(
    hay: &[u8],
    from: usize,
    strict: bool,
) -> Option<usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi8,
        _mm256_loadu_si256, _mm256_max_epu8, _mm256_min_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
        _mm256_sub_epi8,
    };
    let len = hay.len();
    let mut i = from.max(1);
    let ptr = hay.as_ptr();
    let colon = _mm256_set1_epi8(b':' as i8);
    let slash = _mm256_set1_epi8(b'/' as i8);
    let above_space = _mm256_set1_epi8(0x21);
    let lower = _mm256_set1_epi8(0x20);
    let a = _mm256_set1_epi8(b'a' as i8);
    let z = _mm256_set1_epi8(25);
    let strict_mask = _mm256_set1_epi8(if strict { 0 } else { -1 });
    while i + 33 <= len {
        // SAFETY: `1 <= i` and `i + 33 <= len`, so the three unaligned
        // 32-byte loads at `i - 1`, `i` and `i + 1` stay inside `hay`.
        let (prev, cur, next) = unsafe {
            (
                _mm256_loadu_si256(ptr.add(i - 1).cast::<__m256i>()),
                _mm256_loadu_si256(ptr.add(i).cast::<__m256i>()),
                _mm256_loadu_si256(ptr.add(i + 1).cast::<__m256i>()),
            )
        };
        let is_colon = _mm256_cmpeq_epi8(cur, colon);
        let next_ok =
            _mm256_cmpeq_epi8(_mm256_max_epu8(next, above_space), next);
        let t = _mm256_sub_epi8(_mm256_or_si256(prev, lower), a);
        let prev_alpha = _mm256_cmpeq_epi8(_mm256_min_epu8(t, z), t);
        let listed =
            _mm256_andnot_si256(_mm256_cmpeq_epi8(next, colon), prev_alpha);
        let scheme_end = _mm256_or_si256(
            _mm256_or_si256(listed, _mm256_cmpeq_epi8(next, slash)),
            strict_mask,
        );
        let hits =
            _mm256_and_si256(_mm256_and_si256(is_colon, next_ok), scheme_end);
        let mask = _mm256_movemask_epi8(hits) as u32;
        if mask != 0 {
            return Some(i + mask.trailing_zeros() as usize);
        }
        i += 32;
    }
    find_candidate_sse2(hay, i, strict)
}

/// The portable search, a byte at a time.
#[cfg_attr(
    all(target_arch = "x86_64", not(uriscan_disable_simd)),
    allow(dead_code)
)]
pub(crate) fn find_candidate_portable(
    hay: &[u8],
    from: usize,
    strict: bool,
) -> Option<usize> {
    let mut p = from;
    while p < hay.len() {
        // memchr finds the colons; the filter looks around each.
        p += memchr::memchr(b':', &hay[p..])?;
        if is_candidate(hay, p, strict) {
            return Some(p);
        }
        p += 1;
    }
    None
}

/// The SSE2 search: for each 16-byte block, loads the block and the
/// blocks shifted one byte back and forward, and computes the filter for
/// all sixteen positions at once.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
pub(crate) fn find_candidate_sse2(
    hay: &[u8],
    from: usize,
    strict: bool,
) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8,
        _mm_loadu_si128, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
    };
    let len = hay.len();
    let mut i = from.max(1);
    if i + 17 <= len {
        let ptr = hay.as_ptr();
        // SAFETY: SSE2 is part of the x86-64 baseline. The loop keeps
        // `1 <= i` and `i + 17 <= len`, so the three unaligned 16-byte
        // loads at `i - 1`, `i` and `i + 1` stay inside `hay`.
        unsafe {
            let colon = _mm_set1_epi8(b':' as i8);
            let slash = _mm_set1_epi8(b'/' as i8);
            let above_space = _mm_set1_epi8(0x21);
            let lower = _mm_set1_epi8(0x20);
            let a = _mm_set1_epi8(b'a' as i8);
            let z = _mm_set1_epi8(25);
            let strict_mask = _mm_set1_epi8(if strict { 0 } else { -1 });
            while i + 17 <= len {
                let prev = _mm_loadu_si128(ptr.add(i - 1).cast::<__m128i>());
                let cur = _mm_loadu_si128(ptr.add(i).cast::<__m128i>());
                let next = _mm_loadu_si128(ptr.add(i + 1).cast::<__m128i>());
                let is_colon = _mm_cmpeq_epi8(cur, colon);
                let next_ok =
                    _mm_cmpeq_epi8(_mm_max_epu8(next, above_space), next);
                let t = _mm_sub_epi8(_mm_or_si128(prev, lower), a);
                let prev_alpha = _mm_cmpeq_epi8(_mm_min_epu8(t, z), t);
                let listed =
                    _mm_andnot_si128(_mm_cmpeq_epi8(next, colon), prev_alpha);
                let scheme_end = _mm_or_si128(
                    _mm_or_si128(listed, _mm_cmpeq_epi8(next, slash)),
                    strict_mask,
                );
                let hits = _mm_and_si128(
                    _mm_and_si128(is_colon, next_ok),
                    scheme_end,
                );
                let mask = _mm_movemask_epi8(hits) as u32;
                if mask != 0 {
                    return Some(i + mask.trailing_zeros() as usize);
                }
                i += 16;
            }
        }
    }
    (i..len).find(|&p| is_candidate(hay, p, strict))
}

/// Whether `b` is ASCII whitespace or a control byte: where scanning
/// resumes after an overlong run.
#[inline]
pub(crate) fn is_hard_stop(b: u8) -> bool {
    b <= b' ' || b == 0x7F
}

/// The offset of the first hard stop in `hay[from..]`.
pub(crate) fn find_hard_stop(hay: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?.iter().position(|&b| is_hard_stop(b)).map(|i| from + i)
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// Every pair of bytes around a `:`, at every position of a block,
    /// both filters: the vectorized search finds what the portable one
    /// does.
    #[test]
    fn sse2_equals_portable_for_every_byte_pair() {
        let mut hay = vec![b'x'; 80];
        for prev in 0..=255u8 {
            for next in 0..=255u8 {
                for at in [1, 7, 16, 17, 30, 33, 47, 63] {
                    hay.fill(b'x');
                    hay[at - 1] = prev;
                    hay[at] = b':';
                    hay[at + 1] = next;
                    for strict in [false, true] {
                        let want = find_candidate_portable(&hay, 0, strict);
                        let got = find_candidate_sse2(&hay, 0, strict);
                        assert_eq!(got, want, "{prev} {next} {at} {strict}");
                        if std::is_x86_feature_detected!("avx2") {
                            // SAFETY: the CPU has AVX2.
                            let got = unsafe {
                                find_candidate_avx2(&hay, 0, strict)
                            };
                            assert_eq!(got, want, "avx2 {prev} {next} {at}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn filter() {
        let strict = |s: &str| find_candidate_portable(s.as_bytes(), 0, true);
        assert_eq!(strict("Note: x"), None);
        assert_eq!(strict("12:34"), None);
        assert_eq!(strict("s3://b"), Some(2));
        assert_eq!(strict("x:y"), Some(1));
        assert_eq!(strict("std::io"), None);
        assert_eq!(strict("a::/"), Some(2));
        assert_eq!(strict("ab:"), Some(2));
        assert_eq!(strict(":x"), None);
        let relaxed =
            |s: &str| find_candidate_portable(s.as_bytes(), 0, false);
        assert_eq!(relaxed("12:34"), Some(2));
        assert_eq!(relaxed("Note: x"), None);
    }
}
