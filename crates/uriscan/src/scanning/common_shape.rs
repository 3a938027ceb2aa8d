//! The common-shape lane of confirmation: the common shape of URI decided
//! from the bit masks of 32-byte chunks, in one pass.
//!
//! Economics: most URIs in documents are ASCII, without `[` or `]`, and
//! end within a few dozen bytes of their `:` at whitespace, a quote, a
//! `>` or a closing bracket. For these the general path
//! ([`super::delimit::confirm_general`]) runs a chain of separate steps: the run
//! scan a vector at a time with a dispatch on the byte that stopped it,
//! the shape bookkeeping, the trim, then a second vector load for the
//! authority check, each with its own bounds and state, even for the
//! simplest bare `http://` URI. Here one classification of the chunk after
//! the `:` gives the bytes that are not plain, the `/ ? #` that may end
//! the authority and the `@ :` that complicate it; the specials are
//! walked as set bits and the authority is decided on the same masks.
//!
//! The lane decides only what it is sure of, by the same rules: it
//! returns `None` for anything else (non-ASCII, `[`/`]`, a second `#`, a
//! bad `%`, whitespace inside `<...>`, a run past [`REACH`] or past the
//! buffer, an authority with `@` or `:`, a candidate the fast validity
//! check would hand to the parser), and the general path decides those.
//! In debug builds (the tests and the fuzz target) every decision it
//! makes is checked against the general path's.

use std::borrow::Cow;

use crate::Span;
use crate::syntax::chars::is_pct_encoded;

use super::Trimmed;
use super::arch::all::RunMasks;
use super::bytes_read;
use super::candidate::{Found, Outcome, label_and_opener, trim_punct};
use super::run_class::{BRACKET_OR_QUOTE, MARK, RUN_CLASS, STOP};
use super::scheme::{SchemePolicy, scheme_start};
use super::validate::{authority_ok_portable, quick_valid_with};

/// How far past the `:` the lane follows a run (in 32-byte chunks)
/// before leaving it to the general path.
pub(crate) const REACH: usize = 256;

/// How the run ended: at `end`, at its closing delimiter (`closed`: no
/// trailing punctuation is cut), or at an unbalanced closing bracket.
struct RunEnd {
    end: usize,
    closed: bool,
    bracket: bool,
}

/// Confirms the candidate `:` at `colon` when it has the common shape,
/// as [`super::delimit::confirm_general`] would: a found URI, or a reject when
/// no scheme ends there or the policy does not take it; else what
/// `general` (the general path) decides. `masks(hay, at)` classifies the
/// 32 bytes at `at` (`None` past the end of `hay`); the chunks after the
/// first need only its `special` bits, and with `masks` inlined the
/// compiler drops the other compares there.
///
/// The general path is called from here rather than after an `Option`
/// returned, so that every outcome is built in the one return slot: the
/// compiler did not always elide moving a found URI out of the `Option`.
#[inline(always)]
pub(crate) fn confirm_or<'h>(
    masks: impl Fn(&[u8], usize) -> Option<RunMasks>,
    policy: &SchemePolicy,
    hay: &'h [u8],
    colon: usize,
    lower: usize,
    general: impl FnOnce() -> Outcome<'h>,
) -> Outcome<'h> {
    let Some(first) = masks(hay, colon + 1) else { return general() };
    // The byte after the `:` is plain: not a stop (the general path
    // rejects those) nor anything the walk below would look at.
    if first.special & 1 != 0 {
        return general();
    }
    let Some(start) = scheme_start(hay, colon, lower) else {
        return Outcome::Reject;
    };
    if !policy.accepts(&hay[start..colon], &hay[colon + 1..]) {
        return Outcome::Reject;
    }
    let (url_prefix, opener) = label_and_opener(hay, start);
    let angle = opener == Some(b'<');
    let quote = match opener {
        Some(q @ (b'"' | b'\'')) => Some(q),
        _ => None,
    };
    let Some(run) = walk(masks, hay, colon, first.special, angle, quote)
    else {
        return general();
    };
    bytes_read::add(run.end - colon);
    let cand = &hay[start..run.end];
    let colon_at = colon - start;
    let mut punctuation = false;
    let len = if run.closed {
        cand.len()
    } else {
        trim_punct(cand, colon_at, cand.len(), &mut punctuation)
    };
    if !quick_valid(&first, &cand[..len], colon_at) {
        return general();
    }
    debug_assert!(cand[..len].is_ascii());
    // SAFETY: the scheme is made of scheme characters, and the walk
    // passed over no byte >= 0x80 (it gives up on them): ASCII, which is
    // UTF-8.
    let text = unsafe { std::str::from_utf8_unchecked(&cand[..len]) };
    let uri_end = start + len;
    // A `<...>` URI resumes at its `>`; a bare or quoted one right after
    // what ended it, an unbalanced bracket included.
    let resume = run.end + usize::from(run.bracket);
    Outcome::Found(Found {
        start,
        end: uri_end,
        scheme_len: colon_at,
        uri: Cow::Borrowed(text),
        rejoined: false,
        hyphen_break: false,
        trimmed: Trimmed {
            url_prefix,
            suffix: (uri_end < resume).then(|| Span::new(uri_end, resume)),
            punctuation,
            unbalanced_bracket: run.bracket,
            invalid_tail: false,
        },
        resume,
        // The general path counts the newlines of a `<...>` URI again
        // (it may be wrapped); so must the lane, to give the same.
        single_line: !angle,
    })
}

/// [`confirm_or`] for the tests: `None` where the lane leaves the
/// candidate to the general path.
#[cfg(test)]
fn confirm<'h>(
    masks: impl Fn(&[u8], usize) -> Option<RunMasks>,
    policy: &SchemePolicy,
    hay: &'h [u8],
    colon: usize,
    lower: usize,
) -> Option<Outcome<'h>> {
    let mut decided = true;
    let outcome = confirm_or(masks, policy, hay, colon, lower, || {
        decided = false;
        Outcome::Reject
    });
    decided.then_some(outcome)
}

/// Walks the special bytes of the run after `colon`, starting with the
/// chunk's `bits`, as the general run scan would: to the first stop (the
/// `>` of a `<...>` URI), the closing quote, or a closing bracket that
/// nothing inside balances. `None` where the general path must look:
/// non-ASCII, `[` or `]` inside `<...>`, `[` elsewhere, a second `#`, a
/// `%` without two hex digits, whitespace or another stop inside
/// `<...>`, or no end within [`REACH`] bytes and the buffer.
#[inline(always)]
fn walk(
    masks: impl Fn(&[u8], usize) -> Option<RunMasks>,
    hay: &[u8],
    colon: usize,
    mut bits: u32,
    angle: bool,
    quote: Option<u8>,
) -> Option<RunEnd> {
    let mut base = colon + 1;
    let (mut paren, mut hashes) = (0u32, 0u32);
    loop {
        while bits != 0 {
            let i = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = hay[i];
            match RUN_CLASS[usize::from(c)] {
                STOP => {
                    if angle && c != b'>' {
                        return None;
                    }
                    let closed = angle || quote == Some(c);
                    return Some(RunEnd { end: i, closed, bracket: false });
                }
                MARK => {
                    if c == b'#' {
                        hashes += 1;
                        if hashes > 1 {
                            return None;
                        }
                    } else if !is_pct_encoded(&hay[i..]) {
                        return None;
                    }
                }
                BRACKET_OR_QUOTE => match c {
                    // A `[` makes the general path parse the candidate;
                    // inside `<...>` so does a `]`.
                    b'[' => return None,
                    b']' if angle => return None,
                    // Inside `<...>` brackets and `'` are plain.
                    _ if angle => {}
                    b'(' => paren += 1,
                    b')' if paren > 0 => paren -= 1,
                    // With no `[` before it, a `]` is always unbalanced.
                    b')' | b']' => {
                        return Some(RunEnd {
                            end: i,
                            closed: false,
                            bracket: true,
                        });
                    }
                    _ if quote == Some(c) => {
                        return Some(RunEnd {
                            end: i,
                            closed: true,
                            bracket: false,
                        });
                    }
                    _ => {}
                },
                _ => return None,
            }
        }
        base += 32;
        if base - colon > REACH {
            bytes_read::add(REACH);
            return None;
        }
        bits = masks(hay, base)?.special;
    }
}

/// [`super::validate::quick_valid`] on the first chunk's masks: whether
/// the clean candidate `b` (its `:` at `colon`, its first chunk's masks
/// `first`, taken at `colon + 1`) is certainly a valid URI with a host
/// or a path. The common authority, with no `@` and no `:`, is decided
/// on the bits; the others by the byte loop.
#[inline(always)]
fn quick_valid(first: &RunMasks, b: &[u8], colon: usize) -> bool {
    quick_valid_with(b, colon, |b, from| {
        // The authority is `b[from..]` up to the first `/ ? #` or the end
        // of the candidate; in the first chunk's bits (bit `k` for
        // `b[colon + 1 + k]`) it starts at bit 2. A bit scan of an empty
        // mask gives 32, past every bit of the chunk; an authority that
        // reaches past the chunk is left to the byte loop.
        let n = b.len() - (colon + 1);
        let first_end = (first.ends & !0b11).trailing_zeros() as usize;
        let end = if first_end < n.min(32) {
            first_end
        } else if n <= 32 {
            n
        } else {
            return authority_ok_portable(b, from);
        };
        if ((first.odd & !0b11).trailing_zeros() as usize) < end {
            return authority_ok_portable(b, from);
        }
        // The host is the whole authority: it must not be empty, unless
        // a path follows (`file:///x`).
        end > 2 || b.get(colon + 1 + end) == Some(&b'/')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanning::arch::all::run_masks_portable;
    #[cfg(target_arch = "x86_64")]
    use crate::scanning::arch::x86_64::common_shape::run_masks_avx2;
    use crate::scanning::delimit::confirm_general;
    use crate::scanning::kernels::Baseline;

    /// The lane decides as the general path, on every candidate `:` of
    /// text made of the shapes it takes and those it leaves, with the
    /// reference masks (so on any CPU).
    #[test]
    fn the_lane_agrees_with_the_general_path() {
        let pieces = [
            "http://a.example/p?q=1#f, ",
            "<https://b.example/x> ",
            "<http://p.example/a.> ",
            "\"http://p.example/b,\" ",
            "http://p.example/a)b ",
            "http://p.example/a]. ",
            "<http://p.example/(a]> ",
            "<https://b.example/\n x> ",
            "(http://w.example/Foo_(1)). ",
            "[http://m.example/](http://m.example/) ",
            "\"ftp://f.example/%41\" ",
            "'http://q.example/it's' ",
            "href='http://h.example/a' ",
            "mailto:u@m.example\n",
            "URL:http://u.example/ ",
            "<URL:http://v.example/> ",
            "http://u:p@h.example:80/ ",
            "http://h.example:8x/ ",
            "http://a@b@c/ ",
            "http:///x ",
            "http://[::1]/ ",
            "http://x/%zz ",
            "http://x/#a#b ",
            "http://x/é ",
            "12:30 node:fs Note: x std::io ",
            "http://a.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/b ",
            "http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example/ ",
            "http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example:8x/ ",
            "xhttp://a/ https:?x urn:isbn:1 tel:+1 ",
        ];
        let policies = [
            SchemePolicy::Default,
            SchemePolicy::Any,
            SchemePolicy::Only(vec![b"http".to_vec()]),
        ];
        let mut decided = 0;
        for a in pieces {
            for b in pieces {
                let text = format!("{a}{b}{}", " ".repeat(40));
                let hay = text.as_bytes();
                for policy in &policies {
                    for colon in (0..hay.len()).filter(|&i| hay[i] == b':') {
                        for lower in [0, colon.saturating_sub(3)] {
                            let fast = confirm(
                                run_masks_portable,
                                policy,
                                hay,
                                colon,
                                lower,
                            );
                            let Some(fast) = fast else { continue };
                            decided += 1;
                            let general = confirm_general(
                                Baseline, policy, hay, colon, lower, true,
                            );
                            assert_eq!(fast, general, "{text:?} at {colon}");
                        }
                    }
                }
            }
        }
        // Most of these candidates are the lane's to decide.
        assert!(decided > 4000, "{decided}");
    }

    proptest::proptest! {
        /// The same on random text made of the bytes the lane and the
        /// general path look at.
        #[test]
        fn the_lane_agrees_on_random_text(
            text in concat!(
                "(",
                r#"(<|"|'|\(|\[|URL:|<URL:| )?"#,
                "(http://|HTTPS://|mailto:|ftp://|x:|node:)",
                "(a[.]b|u@h|h:80|h:8x|@|:||a{30}|a{30}:8x|a{30}@b@c)",
                r#"(/|a|\(|\)|\]|\[|#|%41|%4|[.]|,|'|\?|!|é|-){0,6}"#,
                r#"( |>|"|'|\)|\n|[.]| a-\n b|)"#,
                "){1,4}",
            ),
        ) {
            let text = format!("{text}{}", " ".repeat(40));
            let hay = text.as_bytes();
            for colon in (0..hay.len()).filter(|&i| hay[i] == b':') {
                let fast = confirm(
                    run_masks_portable,
                    &SchemePolicy::Default,
                    hay,
                    colon,
                    0,
                );
                if let Some(fast) = fast {
                    let general = confirm_general(
                        Baseline, &SchemePolicy::Default, hay, colon, 0, true,
                    );
                    proptest::prop_assert_eq!(fast, general, "{:?} at {}", text, colon);
                }
            }
        }
    }

    /// The AVX2 masks equal the reference ones for every byte at every
    /// place of a chunk.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_masks_equal_the_reference() {
        use crate::scanning::tests::{cpu_has, features};
        if !cpu_has("avx2 run masks", features!("avx2")) {
            return;
        }
        let mut hay = [b'a'; 40];
        for b in 0..=255u8 {
            for place in 0..40 {
                hay.fill(b'a');
                hay[place] = b;
                for at in [0, 1, 7, 8, 9] {
                    let want = run_masks_portable(&hay, at);
                    // SAFETY: the CPU has AVX2, checked above.
                    let got = unsafe { run_masks_avx2(&hay, at) };
                    assert_eq!(got, want, "byte {b} at {place} from {at}");
                }
            }
        }
    }
}
