//! Line and column numbers without a separate pass over the input.
//!
//! The line: the candidate search counts the `\n` bytes of the blocks it
//! reads anyway ([`super::kernels::Kernels::find_candidate`]), resuming
//! after a match from where it stopped counting, so that the bytes
//! confirmation skipped are counted too ([`super::cursor::Cursor`]). The column:
//! when the count says no newline came since the previous match, the
//! match is on that match's line, whose start is known; otherwise
//! [`LineStart`] looks back from the match for the last newline (never
//! further back than its previous look, so each byte is looked at once
//! at most). The newline loops are in [`super::arch`].

use super::kernels::Kernels;

/// The start of the line of the last position looked at, in absolute
/// byte offsets of the input.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LineStart {
    /// The offset of the first byte of the line holding `seen`.
    start: u64,
    /// Everything before this offset is looked at: no `\n` is in
    /// `start..seen`.
    seen: u64,
    /// The number of `\n` bytes before `seen`.
    seen_newlines: u64,
}

impl LineStart {
    /// Looks at `bytes`, which start at absolute offset `base`, up to
    /// absolute offset `to`, before which the input holds `newlines`
    /// `\n` bytes. What is before `base` must have been looked at.
    ///
    /// With as many newlines before `to` as before the last look, none
    /// is in between and the line start stands: nothing to read. That
    /// is most matches in text with several URIs a line, which the look
    /// back would cost dearly.
    #[inline(always)]
    pub(crate) fn look<K: Kernels>(
        &mut self,
        k: K,
        bytes: &[u8],
        base: u64,
        to: u64,
        newlines: u64,
    ) {
        if to <= self.seen {
            return;
        }
        debug_assert!(self.seen >= base);
        if newlines != self.seen_newlines {
            let from = (self.seen - base) as usize;
            let upto = (to - base) as usize;
            super::bytes_read::add(upto - from);
            let last = k.last_newline_in(bytes, from, upto);
            debug_assert!(last.is_some(), "a newline counted, not found");
            if let Some(last) = last {
                self.start = base + last as u64 + 1;
            }
        }
        self.seen = to;
        self.seen_newlines = newlines;
    }

    /// The 1-based byte column of absolute offset `at` of `bytes` (which
    /// start at absolute offset `base`), before which the input holds
    /// `newlines` `\n` bytes.
    #[inline(always)]
    pub(crate) fn column<K: Kernels>(
        &mut self,
        k: K,
        bytes: &[u8],
        base: u64,
        at: u64,
        newlines: u64,
    ) -> u64 {
        self.look(k, bytes, base, at, newlines);
        debug_assert!(self.start <= at);
        at - self.start + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanning::arch::all::{
        count_newlines, last_newline_in_portable,
    };
    #[cfg(target_arch = "x86_64")]
    use crate::scanning::arch::x86_64::lines::{
        count_newlines_avx2, last_newline_in_avx2,
    };

    /// Every range of a text with newlines at irregular places, at
    /// every alignment: the vectorized look back agrees with a byte-wise
    /// reference, and so does the count.
    #[test]
    fn ranges_match_a_plain_count() {
        #[cfg(target_arch = "x86_64")]
        let avx2 = {
            use crate::scanning::tests::{cpu_has, features};
            cpu_has("avx2 newline loops", features!("avx2", "popcnt"))
        };
        let text: Vec<u8> = (0..300u32)
            .map(|i| if i % 7 == 0 || i % 50 < 9 { b'\n' } else { b'x' })
            .collect();
        for len in [0, 1, 31, 32, 33, 64, 65, 97, 140] {
            for shift in 0..len.min(50) {
                let hay = &text[shift..shift + len];
                for from in 0..=len {
                    for to in from..=len {
                        let part = &hay[from..to];
                        let count =
                            part.iter().filter(|&&b| b == b'\n').count();
                        let last = part
                            .iter()
                            .rposition(|&b| b == b'\n')
                            .map(|i| from + i);
                        assert_eq!(
                            count_newlines(&hay[from..to]),
                            count as u64
                        );
                        assert_eq!(
                            last_newline_in_portable(hay, from, to),
                            last
                        );
                        #[cfg(target_arch = "x86_64")]
                        if len >= 32 && avx2 {
                            // SAFETY: the CPU has AVX2, and `hay` holds 32
                            // bytes.
                            let got =
                                unsafe { last_newline_in_avx2(hay, from, to) };
                            assert_eq!(got, last);
                        }
                        #[cfg(target_arch = "x86_64")]
                        if avx2 {
                            // SAFETY: the CPU has AVX2 and POPCNT.
                            let got =
                                unsafe { count_newlines_avx2(hay, from, to) };
                            assert_eq!(got, count as u64);
                        }
                    }
                }
            }
        }
    }

    /// Columns against a direct count, with steps short and long, and
    /// looks at a dropped prefix in between (as streaming does).
    #[test]
    fn columns_match_a_direct_count() {
        columns_match_with(crate::scanning::kernels::Baseline);
        #[cfg(target_arch = "x86_64")]
        {
            use crate::scanning::tests::{avx2_features, cpu_has};
            if cpu_has("avx2 columns", &avx2_features()) {
                let avx2 = crate::scanning::kernels::Avx2::detect().unwrap();
                columns_match_with(avx2);
            }
        }
    }

    /// Short lines (a look back at most steps) and long ones (most steps
    /// stay on the line of the one before).
    fn columns_match_with<K: Kernels>(k: K) {
        for every in [13, 997] {
            let text: Vec<u8> = (0..5000u32)
                .map(|i| i % every == 0 || i % 1013 == 5)
                .map(|nl| if nl { b'\n' } else { b'a' })
                .collect();
            let newlines = |to: usize| {
                text[..to].iter().filter(|&&b| b == b'\n').count() as u64
            };
            let mut start = LineStart::default();
            let mut at = 0usize;
            let mut base = 0usize;
            for step in [0, 1, 5, 63, 64, 65, 200, 1000, 3, 2000, 0, 12, 1] {
                at += step;
                if step == 1000 {
                    base = at - 100;
                    start.look(k, &text, 0, base as u64, newlines(base));
                }
                let bytes = &text[base..];
                let col = start.column(
                    k,
                    bytes,
                    base as u64,
                    at as u64,
                    newlines(at),
                );
                let line_start = text[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                assert_eq!(col, (at - line_start) as u64 + 1, "at {at}");
            }
        }
    }
}
