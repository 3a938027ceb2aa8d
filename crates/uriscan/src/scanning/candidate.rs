//! What confirming a candidate `:` gives, and the Appendix C pieces
//! that both confirmation paths (the general one in [`super::delimit`]
//! and the common-shape lane in [`super::common_shape`]) share: the `URL:` label
//! and the opening delimiter before a URI, and the trailing punctuation
//! cut from a bare one.
//!
//! A leaf: it imports neither path, so that they do not import each
//! other.

use std::borrow::Cow;

use crate::Span;
use crate::syntax::chars::SCHEME;

use super::Trimmed;

/// Trailing bytes cut from a bare URI in prose.
pub(crate) fn is_trailing_punctuation(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*')
}

pub(crate) fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C')
}

/// A URI found by [`super::confirm::confirm`], with offsets into the haystack.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Found<'h> {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) scheme_len: usize,
    /// The URI: the raw bytes `start..end`, or owned when rejoined.
    pub(crate) uri: Cow<'h, str>,
    pub(crate) rejoined: bool,
    pub(crate) hyphen_break: bool,
    pub(crate) trimmed: Trimmed,
    /// Where the search for the next candidate resumes.
    pub(crate) resume: usize,
    /// No newline stands between the scheme's `:` and `resume`: true of
    /// a bare run, which whitespace ends; a `<...>` URI may be wrapped.
    pub(crate) single_line: bool,
}

/// What [`super::confirm::confirm`] decided about one candidate `:`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome<'h> {
    /// No URI here; resume after the `:`.
    Reject,
    /// A candidate run was read but holds no URI; resume at `resume`.
    Drop { resume: usize },
    /// A URI.
    Found(Found<'h>),
    /// The decision depends on bytes past the end of the buffer.
    NeedMore,
    /// The run is longer than [`super::MAX_URI_LEN`]: skip from `from` to the
    /// next ASCII whitespace or control byte.
    Overlong { from: usize },
}

/// The end of `cand[..n]` without its trailing punctuation (never
/// reaching into `cand[..=colon]`); `hit` when some was cut.
#[inline(always)]
pub(crate) fn trim_punct(
    cand: &[u8],
    colon: usize,
    mut n: usize,
    hit: &mut bool,
) -> usize {
    while n > colon + 1 && is_trailing_punctuation(cand[n - 1]) {
        n -= 1;
        *hit = true;
    }
    n
}

/// Appendix C: `URL:` before the URI that starts at `start` is a label,
/// and `<`, `"` (and, in markup, `'`) before the URI or its label
/// delimit it. The label's span, and the byte before URI and label.
#[inline(always)]
pub(crate) fn label_and_opener(
    hay: &[u8],
    start: usize,
) -> (Option<Span>, Option<u8>) {
    let mut url_prefix = None;
    if start >= 4
        && hay[start - 4..start].eq_ignore_ascii_case(b"URL:")
        && (start == 4 || !SCHEME.contains(hay[start - 5]))
    {
        url_prefix = Some(Span::new(start - 4, start));
    }
    let open_at = url_prefix.map_or(start, |p| p.start);
    (url_prefix, open_at.checked_sub(1).map(|i| hay[i]))
}
