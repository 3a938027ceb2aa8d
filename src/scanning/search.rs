//! Candidate search: the offsets of `:` bytes, the one byte every URI
//! has. Confirmation ([`super::delimit::confirm`]) does the rest.
//!
//! Economics: in prose, Markdown and HTML a `:` is rare (about one byte
//! in a hundred even in HTML with inline styles), so a vectorized search
//! for it skips nearly all bytes at memory speed, and the cost of a false
//! candidate (`12:30`, `Note:`) is a backward look of a few bytes. A
//! search for several trigger bytes (`:`, `<`, `"`) would find many more
//! false candidates for nothing: the delimiters are only looked at next
//! to a scheme.
//!
//! The vectorized search is `memchr` (SSE2/AVX2/NEON with runtime
//! dispatch). With `--cfg uriscan_disable_simd` the portable byte loop is
//! used instead; both are always compiled and tested against each other.

/// The offset of the first `:` in `hay[from..]`, relative to `hay`.
#[inline]
pub(crate) fn find_colon(hay: &[u8], from: usize) -> Option<usize> {
    #[cfg(not(uriscan_disable_simd))]
    {
        find_colon_simd(hay, from)
    }
    #[cfg(uriscan_disable_simd)]
    {
        find_colon_portable(hay, from)
    }
}

/// The vectorized search.
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[inline]
pub(crate) fn find_colon_simd(hay: &[u8], from: usize) -> Option<usize> {
    memchr::memchr(b':', hay.get(from..)?).map(|i| from + i)
}

/// The portable search, a byte at a time: the reference the vectorized
/// one is tested against.
#[cfg_attr(not(uriscan_disable_simd), allow(dead_code))]
pub(crate) fn find_colon_portable(hay: &[u8], from: usize) -> Option<usize> {
    (from..hay.len()).find(|&i| hay[i] == b':')
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
