//! Candidate search: the offsets of the `:` bytes that may end a scheme,
//! and the newlines on the way. Confirmation
//! ([`super::delimit::confirm`]) does the rest.
//!
//! Economics: prose, Markdown and HTML hold many more `:` than URIs
//! (`Note: `, `12:30`, `color:red`), and a per-candidate hand-off to
//! confirmation plus a restarted `memchr` costs tens of nanoseconds. So
//! the search itself filters, a block at a time, on the bytes around
//! each `:`:
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
//! The SSE2 and AVX2 searches test each block for a `:` followed by a
//! non-space first (one block in twenty in prose), and compute the rest
//! of the filter only for blocks that pass. They also count the `\n`
//! bytes of every block they read, so line numbers cost no second pass
//! over the input.
//!
//! The SSE2 search is part of the x86-64 baseline (no runtime detection
//! needed); AVX2 is used where the CPU has it, and AVX-512 (with mask
//! registers, the whole filter on every block) where it has AVX-512BW.
//! Elsewhere, and with `--cfg uriscan_disable_simd`, the portable byte
//! loop is used; all are always compiled on x86-64 and tested against
//! each other for every pair of bytes around a `:` at every alignment
//! (each vectorized one where the CPU running the tests has it).

use super::lines::count_newlines;
#[cfg(target_arch = "x86_64")]
use super::lines::count_newlines_avx2;

/// How far ahead of its block the AVX2 and AVX-512 searches ask for the
/// bytes they will read next. On an Intel Xeon (KVM guest) the hardware
/// prefetchers fell behind a search at 10 GiB/s over an input in L3: a
/// software prefetch 2 KiB ahead took a fifth off prose, HTML and
/// Markdown (512 B: a twentieth; 4 KiB: no better), and left URI-dense
/// text, where each search is short, unchanged. The SSE2 search, bound
/// by its own work, gained nothing from it and has none.
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

/// The first candidate `:` in `hay[from..]`, as an offset into `hay`,
/// adding to `newlines` the number of `\n` bytes from `counted` (at most
/// `from`) up to it (to the end of `hay` when there is none). `strict`
/// is the default scheme policy's filter.
///
/// The bytes between `counted` and `from` are what confirmation skipped
/// (a URI, mostly): read again here, in blocks the search loads anyway,
/// they cost less than a separate count per match.
///
/// This is the portable search, a byte at a time, and the reference for
/// the vectorized ones ([`super::kernels::Kernels::find_candidate`]
/// chooses).
pub(crate) fn find_candidate_portable(
    hay: &[u8],
    counted: usize,
    from: usize,
    strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    let mut p = from;
    let found = loop {
        if p >= hay.len() {
            break None;
        }
        // memchr finds the colons; the filter looks around each.
        let Some(at) = memchr::memchr(b':', &hay[p..]) else {
            break None;
        };
        p += at;
        if is_candidate(hay, p, strict) {
            break Some(p);
        }
        p += 1;
    };
    let upto = found.unwrap_or(hay.len());
    *newlines += count_newlines(&hay[counted.min(upto)..upto]);
    found
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
    // makes the mask in `filter`. Measured against the mask: prose -3%,
    // HTML -2%, the rest unchanged.
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
/// text" first, as in the AVX2 search, was slower (prose +6%).
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

/// The AVX2 search where the CPU has it, else the SSE2 one: for the
/// tests, which run it beside the others in every build.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn find_candidate_avx2_or_sse2(
    hay: &[u8],
    counted: usize,
    from: usize,
    strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    if std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the CPU has AVX2 and POPCNT, checked just above.
        unsafe { find_candidate_avx2(hay, counted, from, strict, newlines) }
    } else {
        find_candidate_sse2(hay, counted, from, strict, newlines)
    }
}

/// The AVX-512 search where the CPU has it, else the AVX2 (or SSE2) one:
/// for the tests, which list it only where the CPU has AVX-512 and say
/// so where it does not (`scanning::tests::vector_searches`).
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn find_candidate_avx512_or_avx2(
    hay: &[u8],
    counted: usize,
    from: usize,
    strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    use crate::scanning::kernels::{Avx2, Avx512};
    if Avx2::detect().and_then(Avx512::detect).is_some() {
        // SAFETY: the CPU has AVX-512F, AVX-512BW, AVX2 and POPCNT,
        // checked just above.
        unsafe { find_candidate_avx512(hay, counted, from, strict, newlines) }
    } else {
        find_candidate_avx2_or_sse2(hay, counted, from, strict, newlines)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    type Search = fn(&[u8], usize, usize, bool, &mut u64) -> Option<usize>;

    /// The searches to test against the portable one.
    fn searches() -> Vec<(&'static str, Search)> {
        let mut v = vec![
            #[cfg(target_arch = "x86_64")]
            ("sse2", find_candidate_sse2 as Search),
        ];
        v.extend(crate::scanning::tests::vector_searches());
        v
    }

    /// Every candidate from `from` on, each with the newlines counted
    /// before it, and the count at the end. After each candidate the
    /// search resumes `skip` bytes further on, counting from the
    /// candidate (as after a match).
    fn all_candidates(
        search: Search,
        hay: &[u8],
        from: usize,
        skip: usize,
        strict: bool,
    ) -> (Vec<(usize, u64)>, u64) {
        let mut newlines = 0;
        let mut out = Vec::new();
        let (mut counted, mut p) = (from, from);
        while let Some(c) = search(hay, counted, p, strict, &mut newlines) {
            out.push((c, newlines));
            counted = c;
            p = c + 1 + skip;
        }
        (out, newlines)
    }

    /// The candidates and counts of the portable search, which every
    /// search gives too.
    fn searches_agree(
        hay: &[u8],
        from: usize,
        strict: bool,
    ) -> (Vec<(usize, u64)>, u64) {
        let want =
            all_candidates(find_candidate_portable, hay, from, 0, strict);
        for (name, search) in searches() {
            for skip in [0, 1, 5, 40, 70] {
                let got = all_candidates(search, hay, from, skip, strict);
                let want = match skip {
                    0 => want.clone(),
                    _ => all_candidates(
                        find_candidate_portable,
                        hay,
                        from,
                        skip,
                        strict,
                    ),
                };
                assert_eq!(got, want, "{name} {} {from} {skip}", hay.len());
            }
        }
        want
    }

    /// Every pair of bytes around a `:`, at every position of a block,
    /// both filters: the vectorized search finds what the portable one
    /// does.
    #[test]
    fn vectorized_equals_portable_for_every_byte_pair() {
        let mut hay = vec![b'x'; 80];
        for prev in 0..=255u8 {
            for next in 0..=255u8 {
                for at in [1, 7, 16, 17, 30, 33, 47, 63, 64, 65, 78] {
                    hay.fill(b'x');
                    hay[at - 1] = prev;
                    hay[at] = b':';
                    hay[at + 1] = next;
                    for strict in [false, true] {
                        let mut n = 0;
                        let want = find_candidate_portable(
                            &hay, 0, 0, strict, &mut n,
                        );
                        for (name, search) in searches() {
                            let mut m = 0;
                            let got = search(&hay, 0, 0, strict, &mut m);
                            assert_eq!(
                                (got, m),
                                (want, n),
                                "{name} {prev} {next} {at} {strict}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Newlines and colons at every offset, searched from every offset:
    /// every search finds the candidates of the portable one with the
    /// same counts, and the counts are those of a plain count.
    #[test]
    fn counts_equal_a_plain_count_at_every_alignment() {
        let unit = b"ab\nc:d\n\n:/x: y\n\n\nz\n:\n\nhttp://q\n";
        for len in [0, 1, 2, 31, 64, 65, 66, 97, 130, 200, 300] {
            let hay: Vec<u8> =
                unit.iter().copied().cycle().take(len).collect();
            for shift in 0..hay.len().min(70) {
                let mut hay = hay.clone();
                hay.rotate_left(shift);
                for from in 0..=hay.len() {
                    for strict in [false, true] {
                        let want = searches_agree(&hay, from, strict);
                        let plain =
                            hay[from..].iter().filter(|&&b| b == b'\n');
                        assert_eq!(want.1, plain.count() as u64);
                        for &(c, n) in &want.0 {
                            let plain =
                                hay[from..c].iter().filter(|&&b| b == b'\n');
                            assert_eq!(n, plain.count() as u64);
                        }
                    }
                }
            }
        }
    }

    /// Long runs of newlines, the densest input for the counters, with
    /// candidates far apart and at the very end.
    #[test]
    fn counts_long_runs_of_newlines() {
        for len in [8191, 8192, 8193, 20_000, 70_000] {
            let mut hay = vec![b'\n'; len];
            for at in [len / 3, len / 2 + 7, len - 2] {
                hay[at..at + 2].copy_from_slice(b":/");
            }
            for from in [0, 1, 5, 64, 4000] {
                for strict in [false, true] {
                    let want = searches_agree(&hay, from, strict);
                    assert!(want.0.len() >= 2);
                }
            }
        }
    }

    #[test]
    fn filter() {
        let strict = |s: &str| {
            find_candidate_portable(s.as_bytes(), 0, 0, true, &mut 0)
        };
        assert_eq!(strict("Note: x"), None);
        assert_eq!(strict("12:34"), None);
        assert_eq!(strict("s3://b"), Some(2));
        assert_eq!(strict("x:y"), Some(1));
        assert_eq!(strict("std::io"), None);
        assert_eq!(strict("a::/"), Some(2));
        assert_eq!(strict("ab:"), Some(2));
        assert_eq!(strict(":x"), None);
        let relaxed = |s: &str| {
            find_candidate_portable(s.as_bytes(), 0, 0, false, &mut 0)
        };
        assert_eq!(relaxed("12:34"), Some(2));
        assert_eq!(relaxed("Note: x"), None);
    }
}
