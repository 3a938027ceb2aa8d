//! Line and column numbers, computed lazily: the newlines between the
//! previous match and the next one are counted when the next one is
//! emitted, so the numbers cost no separate pass over the input.

/// Where counting has got to, in absolute byte offsets of the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineCounter {
    /// The 1-based line of the byte at `counted`.
    line: u64,
    /// The offset of the first byte of that line.
    line_start: u64,
    /// Everything before this offset is counted.
    counted: u64,
}

impl Default for LineCounter {
    fn default() -> LineCounter {
        LineCounter { line: 1, line_start: 0, counted: 0 }
    }
}

impl LineCounter {
    /// Counts the newlines of `bytes`, which start at absolute offset
    /// `base`, up to absolute offset `to` (not before what is counted).
    pub(crate) fn advance(&mut self, bytes: &[u8], base: u64, to: u64) {
        if to <= self.counted {
            return;
        }
        let from = (self.counted - base) as usize;
        let upto = (to - base) as usize;
        let chunk = &bytes[from..upto];
        super::work::add(chunk.len());
        let n = count_newlines(chunk);
        if n > 0 {
            self.line += n;
            let last = memchr::memrchr(b'\n', chunk).unwrap_or(0);
            self.line_start = self.counted + last as u64 + 1;
        }
        self.counted = to;
    }

    /// The line and column of absolute offset `at`, which must have been
    /// counted up to.
    pub(crate) fn position(&self, at: u64) -> (u64, u64) {
        debug_assert_eq!(at, self.counted);
        (self.line, at - self.line_start + 1)
    }
}

/// The number of `\n` bytes in `bytes`: SSE2 on x86-64 (part of its
/// baseline, so no runtime detection), the portable count elsewhere and
/// under `--cfg uriscan_disable_simd`.
pub(crate) fn count_newlines(bytes: &[u8]) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
    {
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

/// Compares 16 bytes at a time into byte-wide counters (a compare gives
/// -1 per match, subtracted), summed with `psadbw` every 255 blocks.
#[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
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
            for pad in 0..16 {
                let b = &bytes[pad..pad + len.min(bytes.len() - 16)];
                assert_eq!(count_newlines_sse2(b), count_newlines_portable(b));
            }
        }
    }
}
