//! Candidate search: the offsets of the `:` bytes that may end a scheme,
//! and the newlines on the way. Confirmation
//! ([`super::confirm::confirm`]) does the rest.
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
//! (each vectorized one where the CPU running the tests has it). The
//! searches themselves are in [`super::arch`]; this module holds what
//! they are for, the hard stops, and the tests that hold them together.

#[cfg(test)]
use super::arch::all::find_candidate_portable;
#[cfg(all(test, target_arch = "x86_64"))]
use super::arch::x86_64::search::{
    find_candidate_avx2, find_candidate_avx512, find_candidate_sse2,
};

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
