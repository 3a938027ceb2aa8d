//! The portable loops: the candidate search, the newline count and look
//! back, the skip over plain bytes, and the classification of the
//! common-shape lane. Each is the reference its vectorized versions are
//! tested against.

use crate::scanning::run_class::{PLAIN, RUN_CLASS};

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
/// the vectorized ones ([`Kernels::find_candidate`](crate::scanning::kernels::Kernels::find_candidate)
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

/// The number of `\n` bytes in `bytes`, a byte at a time, for the short
/// stretches the vectorized search does not read in blocks: the bytes
/// before its first block and after its last, and those a streaming
/// buffer drops before the search has counted them. The compiler
/// vectorizes it where it pays, with the features of the code it is
/// inlined into.
#[inline(always)]
pub(crate) fn count_newlines(bytes: &[u8]) -> u64 {
    bytes.iter().map(|&b| u64::from(b == b'\n')).sum()
}

/// The offset of the last `\n` in `hay[from..to]`: the look back for
/// the start of a match's line, mostly a few dozen bytes. Portable, and
/// the reference for the vectorized one.
pub(crate) fn last_newline_in_portable(
    hay: &[u8],
    from: usize,
    to: usize,
) -> Option<usize> {
    memchr::memrchr(b'\n', &hay[from..to]).map(|i| from + i)
}

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

/// What the lane needs to know of the 32 bytes at some offset, a bit
/// per byte (bit `k` for the byte at `offset + k`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunMasks {
    /// The bytes the run scan does not simply pass over: those whose
    /// [`RUN_CLASS`] is not [`PLAIN`].
    pub(crate) special: u32,
    /// `/`, `?` and `#`: where an authority may end (RFC 3986 3.2).
    pub(crate) ends: u32,
    /// `@` and `:`: a userinfo or a port inside an authority.
    pub(crate) odd: u32,
}

/// [`RunMasks`] of `hay[at..at + 32]`, a byte at a time: the reference
/// for the vectorized one. `None` when fewer than 32 bytes are left.
#[cfg(test)]
pub(crate) fn run_masks_portable(hay: &[u8], at: usize) -> Option<RunMasks> {
    let chunk = hay.get(at..at.checked_add(32)?)?;
    let mut m = RunMasks::default();
    for (k, &c) in chunk.iter().enumerate() {
        let bit = 1u32 << k;
        if RUN_CLASS[usize::from(c)] != PLAIN {
            m.special |= bit;
        }
        if matches!(c, b'/' | b'?' | b'#') {
            m.ends |= bit;
        }
        if matches!(c, b'@' | b':') {
            m.odd |= bit;
        }
    }
    Some(m)
}
