//! Line and column numbers without a separate pass over the input.
//!
//! The line: the candidate search counts the `\n` bytes of the blocks it
//! reads anyway ([`super::search::find_candidate`]), and the cursor
//! counts the few bytes that confirmation skips
//! ([`super::finder::Cursor`]). The column: [`LineStart`] looks back from
//! each match for the last newline, never further back than its previous
//! look, so each byte is looked at once at most (and in text with short
//! lines, a few bytes per match).

/// The start of the line of the last position looked at, in absolute
/// byte offsets of the input.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LineStart {
    /// The offset of the first byte of the line holding `seen`.
    start: u64,
    /// Everything before this offset is looked at: no `\n` is in
    /// `start..seen`.
    seen: u64,
}

impl LineStart {
    /// Looks at `bytes`, which start at absolute offset `base`, up to
    /// absolute offset `to`. What is before `base` must have been looked
    /// at.
    #[inline]
    pub(crate) fn look(&mut self, bytes: &[u8], base: u64, to: u64) {
        if to <= self.seen {
            return;
        }
        debug_assert!(self.seen >= base);
        let from = (self.seen - base) as usize;
        let upto = (to - base) as usize;
        super::work::add(upto - from);
        if let Some(last) = memchr::memrchr(b'\n', &bytes[from..upto]) {
            self.start = self.seen + last as u64 + 1;
        }
        self.seen = to;
    }

    /// The 1-based byte column of absolute offset `at` of `bytes` (which
    /// start at absolute offset `base`).
    #[inline]
    pub(crate) fn column(&mut self, bytes: &[u8], base: u64, at: u64) -> u64 {
        self.look(bytes, base, at);
        debug_assert!(self.start <= at);
        at - self.start + 1
    }
}

/// The number of `\n` bytes in `bytes`: SSE2 on x86-64 (part of its
/// baseline, so no runtime detection), the portable count elsewhere and
/// under `--cfg uriscan_disable_simd`.
pub(crate) fn count_newlines(bytes: &[u8]) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
    {
        if bytes.len() >= 64 && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { count_newlines_avx2(bytes) };
        }
        count_newlines_sse2(bytes)
    }
    #[cfg(not(all(target_arch = "x86_64", not(uriscan_disable_simd))))]
    {
        count_newlines_portable(bytes)
    }
}

/// The portable count, also the reference for the vectorized one.
#[cfg_attr(
    all(target_arch = "x86_64", not(uriscan_disable_simd)),
    allow(dead_code)
)]
pub(crate) fn count_newlines_portable(bytes: &[u8]) -> u64 {
    bytes.iter().map(|&b| u64::from(b == b'\n')).sum()
}

/// [`count_newlines_sse2`] thirty-two bytes at a time.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn count_newlines_avx2(bytes: &[u8]) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_cmpeq_epi8, _mm256_extract_epi64,
        _mm256_loadu_si256, _mm256_sad_epu8, _mm256_set1_epi8,
        _mm256_setzero_si256, _mm256_sub_epi8,
    };
    let mut blocks = bytes.chunks_exact(32);
    let nl = _mm256_set1_epi8(b'\n' as i8);
    let zero = _mm256_setzero_si256();
    let mut sums = zero;
    loop {
        let mut acc = zero;
        let mut n = 0;
        for block in blocks.by_ref().take(255) {
            // SAFETY: `chunks_exact` gives whole 32-byte blocks.
            let v = unsafe {
                _mm256_loadu_si256(block.as_ptr().cast::<__m256i>())
            };
            acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(v, nl));
            n += 1;
        }
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(acc, zero));
        if n < 255 {
            break;
        }
    }
    let total = _mm256_extract_epi64(sums, 0) as u64
        + _mm256_extract_epi64(sums, 1) as u64
        + _mm256_extract_epi64(sums, 2) as u64
        + _mm256_extract_epi64(sums, 3) as u64;
    total + count_newlines_sse2(blocks.remainder())
}

/// Compares 16 bytes at a time into byte-wide counters (a compare gives
/// -1 per match, subtracted), summed with `psadbw` every 255 blocks.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
pub(crate) fn count_newlines_sse2(bytes: &[u8]) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_cmpeq_epi8, _mm_cvtsi128_si64,
        _mm_loadu_si128, _mm_sad_epu8, _mm_set1_epi8, _mm_setzero_si128,
        _mm_srli_si128, _mm_sub_epi8,
    };
    let mut blocks = bytes.chunks_exact(16);
    let mut total = 0u64;
    // SAFETY: SSE2 is part of the x86-64 baseline, so these intrinsics
    // are always available; every load reads one whole 16-byte chunk
    // given by `chunks_exact`, unaligned loads being allowed.
    unsafe {
        let nl = _mm_set1_epi8(b'\n' as i8);
        let zero = _mm_setzero_si128();
        let mut sums = zero;
        loop {
            let mut acc = zero;
            let mut n = 0;
            for block in blocks.by_ref().take(255) {
                let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
                acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
                n += 1;
            }
            sums = _mm_add_epi64(sums, _mm_sad_epu8(acc, zero));
            if n < 255 {
                break;
            }
        }
        let lo = _mm_cvtsi128_si64(sums) as u64;
        let hi = _mm_cvtsi128_si64(_mm_srli_si128(sums, 8)) as u64;
        total += lo + hi;
    }
    total + count_newlines_portable(blocks.remainder())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_newlines_matches_a_plain_count() {
        let mut bytes = Vec::new();
        for i in 0..20_000u32 {
            bytes.push(if i % 7 == 0 || i % 300 < 40 { b'\n' } else { b'x' });
        }
        for len in [0, 1, 31, 32, 33, 8160, 8161, 8192, 20_000] {
            let b = &bytes[..len];
            let plain = b.iter().filter(|&&c| c == b'\n').count() as u64;
            assert_eq!(count_newlines(b), plain, "{len}");
            assert_eq!(count_newlines_portable(b), plain, "{len}");
            #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
            for pad in 0..32 {
                let b = &bytes[pad..pad + len.min(bytes.len() - 32)];
                let want = count_newlines_portable(b);
                assert_eq!(count_newlines_sse2(b), want);
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2.
                    assert_eq!(unsafe { count_newlines_avx2(b) }, want);
                }
            }
        }
    }

    /// Columns against a direct count, with steps short and long, and
    /// looks at a dropped prefix in between (as streaming does).
    #[test]
    fn columns_match_a_direct_count() {
        let text: Vec<u8> = (0..5000u32)
            .map(|i| if i % 13 == 0 || i % 97 == 5 { b'\n' } else { b'a' })
            .collect();
        let mut start = LineStart::default();
        let mut at = 0usize;
        let mut base = 0usize;
        for step in [0, 1, 5, 63, 64, 65, 200, 1000, 3, 2000, 0, 12] {
            at += step;
            if step == 1000 {
                base = at - 100;
                start.look(&text, 0, base as u64);
            }
            let col = start.column(&text[base..], base as u64, at as u64);
            let line_start = text[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            assert_eq!(col, (at - line_start) as u64 + 1, "at {at}");
        }
    }
}
