//! The vectorized candidate searches (see [`crate::scanning::search`]):
//! SSE2, AVX2 and AVX-512, each also counting the newlines of the blocks
//! it reads.

use super::lines::count_newlines_avx2;
use crate::scanning::arch::all::{count_newlines, find_candidate_portable};

/// How far ahead of its block the AVX2 and AVX-512 searches ask for the
/// bytes they will read next: the hardware prefetchers fall behind these
/// searches on long text without URIs. The SSE2 search, bound by its own
/// work, gains nothing from it and has none.
#[cfg(target_arch = "x86_64")]
const PREFETCH_AHEAD: usize = 2048;

/// Asks for the cache line at `p`, [`PREFETCH_AHEAD`] bytes past the
/// block being searched.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
// `_mm_prefetch` is an unsafe function in Rust 1.89 (our minimum) and a
// safe one in later releases.
#[allow(unused_unsafe)]
fn prefetch(p: *const u8) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: a prefetch is a hint, not a load: it cannot fault, and it
    // reads nothing the program sees, so any address will do (past the
    // end of the input, `p` is computed with `wrapping_add`).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) }
}

/// The AVX2 search, sixty-four bytes at a time: for each 32-byte half,
/// the `:` bytes followed by a non-space, and the `\n` bytes as a bit
/// mask; the rest of the filter only when the block has such a `:`.
///
/// # Safety
///
/// The CPU must support AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(crate) unsafe fn find_candidate_avx2(
    hay: &[u8],
    counted: usize,
    from: usize,
    strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi8,
        _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_sub_epi8, _mm256_subs_epu8, _mm256_testz_si256,
    };
    let colon = _mm256_set1_epi8(b':' as i8);
    let nl = _mm256_set1_epi8(b'\n' as i8);
    let slash = _mm256_set1_epi8(b'/' as i8);
    let space = _mm256_set1_epi8(0x20);
    let zero = _mm256_setzero_si256();
    let a = _mm256_set1_epi8(b'a' as i8);
    let z = _mm256_set1_epi8(25);
    // The `:` bytes of the block at `i` (given as `cur` and its next
    // bytes `next`, with `pre` nonzero where a colon is followed by a
    // non-space) that pass the whole filter, as a bit mask.
    let filter = |p: *const u8, pre: __m256i, next: __m256i| -> u32 {
        let none = _mm256_cmpeq_epi8(pre, zero);
        if !strict {
            return !(_mm256_movemask_epi8(none) as u32);
        }
        // SAFETY: called for the halves of a block at `p`, which may load
        // from `p - 1`.
        let prev = unsafe { _mm256_loadu_si256(p.sub(1).cast()) };
        let t = _mm256_sub_epi8(_mm256_or_si256(prev, space), a);
        let prev_alpha = _mm256_cmpeq_epi8(_mm256_min_epu8(t, z), t);
        let listed =
            _mm256_andnot_si256(_mm256_cmpeq_epi8(next, colon), prev_alpha);
        let scheme_end =
            _mm256_or_si256(listed, _mm256_cmpeq_epi8(next, slash));
        _mm256_movemask_epi8(_mm256_andnot_si256(none, scheme_end)) as u32
    };
    // Not a mask but nonzero bytes: a saturating subtraction of the
    // space is nonzero exactly above it, one instruction where a mask
    // takes two (a max and a compare). The test of every block is then
    // a `vptest` of the two halves, and the rare block that passes it
    // makes the mask in `filter`, which measured faster than the mask.
    let colon_then_text = |cur: __m256i, next: __m256i| {
        _mm256_and_si256(
            _mm256_cmpeq_epi8(cur, colon),
            _mm256_subs_epu8(next, space),
        )
    };
    let block = |p: *const u8| -> (u64, u64) {
        // SAFETY: `search_blocks` calls this with a `p` that may load
        // `p - 1..p + 65`, so the 32-byte loads at `p`, `p + 1`, `p + 32`
        // and `p + 33` are in bounds.
        let (cur0, next0, cur1, next1) = unsafe {
            (
                _mm256_loadu_si256(p.cast::<__m256i>()),
                _mm256_loadu_si256(p.add(1).cast::<__m256i>()),
                _mm256_loadu_si256(p.add(32).cast::<__m256i>()),
                _mm256_loadu_si256(p.add(33).cast::<__m256i>()),
            )
        };
        let nl0 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(cur0, nl)) as u32;
        let nl1 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(cur1, nl)) as u32;
        let pre0 = colon_then_text(cur0, next0);
        let pre1 = colon_then_text(cur1, next1);
        let nls = u64::from(nl0) | u64::from(nl1) << 32;
        let mut hits = 0;
        let any = _mm256_or_si256(pre0, pre1);
        if _mm256_testz_si256(any, any) == 0 {
            hits = u64::from(filter(p, pre0, next0))
                | u64::from(filter(p.wrapping_add(32), pre1, next1)) << 32;
        }
        (hits, nls)
    };
    // SAFETY: the caller's promise: the CPU has AVX2 and POPCNT.
    unsafe { search_blocks(hay, counted, from, newlines, block) }
}

/// The AVX-512 search: [`find_candidate_avx2`] a whole 64-byte block per
/// vector, with the compares writing bit masks directly (no
/// `movemask`), and the filter's conditions as masked compares. They
/// are cheap enough to run on every block: a branch on "a `:` followed by
/// text" first, as in the AVX2 search, measured slower.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512BW, AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw,avx2,popcnt")]
#[inline]
pub(crate) unsafe fn find_candidate_avx512(
    hay: &[u8],
    counted: usize,
    from: usize,
    strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    use std::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512,
        _mm512_mask_cmpeq_epi8_mask, _mm512_mask_cmpgt_epu8_mask,
        _mm512_mask_cmplt_epu8_mask, _mm512_mask_cmpneq_epi8_mask,
        _mm512_or_si512, _mm512_set1_epi8, _mm512_sub_epi8,
    };
    let colon = _mm512_set1_epi8(b':' as i8);
    let nl = _mm512_set1_epi8(b'\n' as i8);
    let slash = _mm512_set1_epi8(b'/' as i8);
    let space = _mm512_set1_epi8(b' ' as i8);
    let a = _mm512_set1_epi8(b'a' as i8);
    let letters = _mm512_set1_epi8(26);
    let block = |p: *const u8| -> (u64, u64) {
        // SAFETY: `search_blocks` calls this with a `p` that may load
        // `p - 1..p + 65`, so the 64-byte loads at `p - 1`, `p` and
        // `p + 1` are in bounds.
        let (cur, next) = unsafe {
            (
                _mm512_loadu_si512(p.cast::<__m512i>()),
                _mm512_loadu_si512(p.add(1).cast::<__m512i>()),
            )
        };
        let nls = _mm512_cmpeq_epi8_mask(cur, nl);
        // A `:` followed by a byte above the space.
        let pre = _mm512_mask_cmpgt_epu8_mask(
            _mm512_cmpeq_epi8_mask(cur, colon),
            next,
            space,
        );
        let hits = if strict {
            // SAFETY: as above.
            let prev = unsafe { _mm512_loadu_si512(p.sub(1).cast()) };
            let t = _mm512_sub_epi8(_mm512_or_si512(prev, space), a);
            let prev_alpha = _mm512_mask_cmplt_epu8_mask(pre, t, letters);
            _mm512_mask_cmpneq_epi8_mask(prev_alpha, next, colon)
                | _mm512_mask_cmpeq_epi8_mask(pre, next, slash)
        } else {
            pre
        };
        (hits, nls)
    };
    // SAFETY: the caller's promise: the CPU has AVX2 and POPCNT.
    unsafe { search_blocks(hay, counted, from, newlines, block) }
}

/// The loop of the AVX2 and AVX-512 searches, given `block(p)`: the
/// candidate and `\n` bytes of the 64 bytes at `p`, as bit masks,
/// loading at most `p - 1..p + 65`. The blocks start at `from` (or one
/// byte in, so that the byte before each is there to load), so no hit
/// needs masking; the newlines from `counted` to there are counted
/// first. Each block also asks for the bytes [`PREFETCH_AHEAD`] past
/// it. The bytes after the last whole block go through `block` too
/// ([`tail_masks`]).
///
/// # Safety
///
/// The CPU must support AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[inline(always)]
unsafe fn search_blocks(
    hay: &[u8],
    counted: usize,
    from: usize,
    newlines: &mut u64,
    block: impl Fn(*const u8) -> (u64, u64),
) -> Option<usize> {
    let len = hay.len();
    let mut i = from.max(1);
    // SAFETY: the caller's promise: the CPU has AVX2 and POPCNT.
    let mut count =
        unsafe { count_newlines_avx2(hay, counted.min(len), i.min(len)) };
    // The last block start whose loads stay inside `hay`, computed
    // once: the loop's test is then one compare (`last` is 0 when
    // `len < 65`, and then no block runs, since `i >= 1`).
    let last = len.saturating_sub(65);
    while i <= last {
        prefetch(hay.as_ptr().wrapping_add(i + PREFETCH_AHEAD));
        // SAFETY: `1 <= i <= len - 65`, so `hay[i - 1..i + 65]` is in
        // bounds.
        let (hits, nls) = block(unsafe { hay.as_ptr().add(i) });
        if hits != 0 {
            return Some(first_hit(i, hits, nls, count, newlines));
        }
        count += u64::from(nls.count_ones());
        i += 64;
    }
    // SAFETY: `block` may load `p - 1..p + 65`, as promised by the
    // caller.
    let (hits, nls) = unsafe { tail_masks(hay, i, block) };
    if hits != 0 {
        return Some(first_hit(i, hits, nls, count, newlines));
    }
    *newlines += count + u64::from(nls.count_ones());
    None
}

/// The masks `block` gives for the bytes of `hay` from `i` on, fewer
/// than 65: where no whole block is left, at the end of every buffer
/// and in all of a haystack shorter than a block (a crawler's text
/// nodes, a log's lines). The byte loop this replaces, with its newline
/// count, was two fifths of the time of a `find_iter` over lines of 41
/// bytes.
///
/// In a haystack of more than 65 bytes the last block is loaded where
/// it ends at the last byte but one, overlapping bytes already
/// searched, whose bits are shifted out; the last byte, whose next is
/// not known yet, is a candidate when it is a `:` (as in the portable
/// filter). A shorter haystack is copied into a block, with the byte
/// before it in front and a `/` after it to the same effect.
///
/// # Safety
///
/// `block` may load `p - 1..p + 65` for the `p` it is given.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[inline(always)]
unsafe fn tail_masks(
    hay: &[u8],
    i: usize,
    block: impl Fn(*const u8) -> (u64, u64),
) -> (u64, u64) {
    let len = hay.len();
    if i >= len {
        return (0, 0);
    }
    debug_assert!(i >= 1 && len - i <= 64);
    if len > 65 {
        let p = len - 65;
        // SAFETY: `1 <= p`, and `p + 65 == len`.
        let (hits, nls) = block(unsafe { hay.as_ptr().add(p) });
        // `p < i` (the loop stopped after `p`), so this is 1 to 64.
        let shift = (i - p) as u32;
        let last = len - 1 - i;
        let hits = hits.checked_shr(shift).unwrap_or(0)
            | u64::from(hay[len - 1] == b':') << last;
        let nls = nls.checked_shr(shift).unwrap_or(0)
            | u64::from(hay[len - 1] == b'\n') << last;
        return (hits, nls);
    }
    let n = len - i;
    // The byte before, the bytes, the `/`.
    let mut copy = [0u8; 66];
    copy[..n + 1].copy_from_slice(&hay[i - 1..]);
    copy[n + 1] = b'/';
    let (hits, nls) = block(copy[1..].as_ptr());
    let keep = u64::MAX >> (64 - n);
    (hits & keep, nls & keep)
}

/// The offset of the first of the `hits` of the bytes from `i` on (a
/// bit each), adding to `newlines` the `count` of newlines before `i`
/// and those of `nls` (the same bytes) before the hit.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[inline(always)]
fn first_hit(
    i: usize,
    hits: u64,
    nls: u64,
    count: u64,
    newlines: &mut u64,
) -> usize {
    let below = (hits & hits.wrapping_neg()) - 1;
    *newlines += count + u64::from((nls & below).count_ones());
    i + hits.trailing_zeros() as usize
}

/// The SSE2 search: [`find_candidate_avx2`] with 16-byte halves.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
pub(crate) fn find_candidate_sse2(
    hay: &[u8],
    counted: usize,
    from: usize,
    strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8,
        _mm_loadu_si128, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
    };
    let len = hay.len();
    let ptr = hay.as_ptr();
    // As in the AVX2 search, the blocks start at `from`, the newlines
    // before it counted first.
    let mut i = from.max(1);
    let mut count = count_newlines(&hay[counted.min(len)..i.min(len)]);
    // SAFETY: SSE2 is part of the x86-64 baseline, so these intrinsics
    // are always available.
    let (colon, nl, slash, above_space, lower, a, z) = unsafe {
        (
            _mm_set1_epi8(b':' as i8),
            _mm_set1_epi8(b'\n' as i8),
            _mm_set1_epi8(b'/' as i8),
            _mm_set1_epi8(0x21),
            _mm_set1_epi8(0x20),
            _mm_set1_epi8(b'a' as i8),
            _mm_set1_epi8(25),
        )
    };
    let filter = |i: usize, pre: __m128i, next: __m128i| -> u32 {
        // SAFETY: SSE2 is part of the x86-64 baseline; called for blocks
        // with `1 <= i` and `i + 17 <= len`, so the load at `i - 1`
        // stays inside `hay`.
        unsafe {
            if !strict {
                return _mm_movemask_epi8(pre) as u32;
            }
            let prev = _mm_loadu_si128(ptr.add(i - 1).cast());
            let t = _mm_sub_epi8(_mm_or_si128(prev, lower), a);
            let prev_alpha = _mm_cmpeq_epi8(_mm_min_epu8(t, z), t);
            let listed =
                _mm_andnot_si128(_mm_cmpeq_epi8(next, colon), prev_alpha);
            let scheme_end = _mm_or_si128(listed, _mm_cmpeq_epi8(next, slash));
            _mm_movemask_epi8(_mm_and_si128(pre, scheme_end)) as u32
        }
    };
    let colon_then_text = |cur: __m128i, next: __m128i| {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            _mm_and_si128(
                _mm_cmpeq_epi8(cur, colon),
                _mm_cmpeq_epi8(_mm_max_epu8(next, above_space), next),
            )
        }
    };
    while i + 33 <= len {
        // SAFETY: SSE2 is part of the x86-64 baseline. `1 <= i` and
        // `i + 33 <= len`, so the 16-byte loads at `i`, `i + 1`, `i + 16`
        // and `i + 17` stay inside `hay`.
        let (nl0, nl1, pre0, next0, pre1, next1, any) = unsafe {
            let cur0 = _mm_loadu_si128(ptr.add(i).cast::<__m128i>());
            let next0 = _mm_loadu_si128(ptr.add(i + 1).cast::<__m128i>());
            let cur1 = _mm_loadu_si128(ptr.add(i + 16).cast::<__m128i>());
            let next1 = _mm_loadu_si128(ptr.add(i + 17).cast::<__m128i>());
            let nl0 = _mm_movemask_epi8(_mm_cmpeq_epi8(cur0, nl)) as u32;
            let nl1 = _mm_movemask_epi8(_mm_cmpeq_epi8(cur1, nl)) as u32;
            let pre0 = colon_then_text(cur0, next0);
            let pre1 = colon_then_text(cur1, next1);
            let any = _mm_movemask_epi8(_mm_or_si128(pre0, pre1)) != 0;
            (nl0, nl1, pre0, next0, pre1, next1, any)
        };
        let nls = u64::from(nl0 | nl1 << 16);
        if any {
            let hits = u64::from(
                filter(i, pre0, next0) | filter(i + 16, pre1, next1) << 16,
            );
            if hits != 0 {
                return Some(first_hit(i, hits, nls, count, newlines));
            }
        }
        count += u64::from(nls.count_ones());
        i += 32;
    }
    *newlines += count;
    // The bytes after the last whole block (`from <= i`): the portable
    // search, whose memchr finds the colons.
    find_candidate_portable(hay, i, i, strict, newlines)
}
