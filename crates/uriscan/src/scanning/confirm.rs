//! The one entry to confirmation: a candidate `:` goes through the
//! common-shape lane ([`super::common_shape`]) where the kernels have one, and
//! through the general path ([`super::delimit`]) when the lane leaves
//! it. The lane is a pure accelerator: in debug builds (the tests and
//! the fuzz target) every decision it makes is checked against the
//! general path's.

use super::candidate::Outcome;
use super::delimit::confirm_general;
use super::kernels::Kernels;
use super::scheme::SchemePolicy;

/// Looks at the candidate `:` at `colon`. `lower` is where the previous
/// match or skipped run ended: no scheme reaches back past it, so no URI
/// starts inside another. `eof` says that `hay` is all the input.
///
/// The common shape goes through the common-shape lane
/// ([`super::common_shape`]) where the kernels have one; the rest, and
/// everything on the baseline kernels, through [`confirm_general`].
/// Inlined into the iterators, each compiled for its [`Kernels`].
#[inline(always)]
pub(crate) fn confirm<'h, K: Kernels>(
    k: K,
    policy: &SchemePolicy,
    hay: &'h [u8],
    colon: usize,
    lower: usize,
    eof: bool,
) -> Outcome<'h> {
    let mut by_lane = true;
    let outcome = super::common_shape::confirm_or(
        #[inline(always)]
        |h, at| k.run_masks(h, at),
        policy,
        hay,
        colon,
        lower,
        #[inline(always)]
        || {
            by_lane = false;
            confirm_general(k, policy, hay, colon, lower, eof)
        },
    );
    if cfg!(debug_assertions) && by_lane {
        assert_eq!(
            outcome,
            confirm_general(k, policy, hay, colon, lower, eof),
            "the common-shape lane at {colon}"
        );
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Confirmation with the AVX2 skip decides as with the portable
    /// one, for candidates at every offset of runs longer and shorter
    /// than a 32-byte block.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_confirmation_equals_portable() {
        use crate::scanning::kernels::{Avx2, Baseline};
        use crate::scanning::tests::{avx2_features, cpu_has};
        if !cpu_has("avx2 confirmation", &avx2_features()) {
            return;
        }
        let avx2 = Avx2::detect().unwrap();
        let text = "x http://a.example/p/q?r=1#s, (http://w.example/F_(b)) \
                    \"ftp://f.example/%41/%zz\" <https://b.example/\n y> \
                    mailto:u@m.example http://h.example/\u{e9}t\u{e9}/ok \
                    <http://c.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa> \
                    'http://q.example/[x]' URL:http://u.example/x:1 12:30";
        let policy = SchemePolicy::Default;
        for cut in [text.len(), text.len() - 20, 70, 33] {
            let hay = &text.as_bytes()[..cut];
            for colon in (0..hay.len()).filter(|&i| hay[i] == b':') {
                for eof in [true, false] {
                    let want = confirm(Baseline, &policy, hay, colon, 0, eof);
                    let got = confirm(avx2, &policy, hay, colon, 0, eof);
                    assert_eq!(
                        format!("{got:?}"),
                        format!("{want:?}"),
                        "colon {colon} of {cut}"
                    );
                }
            }
        }
    }
}
