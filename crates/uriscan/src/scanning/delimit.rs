//! Confirming one candidate `:`: where the URI begins and ends, by the
//! extraction policy and RFC 3986 Appendix C.
//!
//! [`confirm_general`] is the general path of confirmation, behind
//! [`super::confirm::confirm`]: it looks at the bytes around one `:` and
//! says whether a URI is there, what to skip, or that it needs more
//! input (streaming).
//! Every look is bounded: backward by [`MAX_SCHEME_LEN`] plus a few
//! bytes of context, forward by [`MAX_URI_LEN`] (a bare run) or
//! [`MAX_ANGLE_LEN`] (the search for the `>` of a wrapped `<...>` URI).
//! After a candidate whose run was read, the search resumes at the end of
//! that run, so no byte is read by more than a bounded number of
//! candidates and scanning is linear in the input.

use std::borrow::Cow;

use crate::Span;
use crate::syntax::chars::{URI_CHAR, is_pct_encoded};

use super::Trimmed;
use super::bytes_read;
use super::candidate::{Found, Outcome, is_ascii_space, label_and_opener};
use super::kernels::Kernels;
use super::run_class::{BRACKET_OR_QUOTE, MARK, RUN_CLASS, STOP};
use super::scheme::{MAX_SCHEME_LEN, SchemePolicy, scheme_start};
use super::unicode::{Decoded, decode, ends_bare_iri, ends_delimited_iri};
use super::validate::{Shape, Validated, validate};

/// The longest run of URI characters taken as one candidate. A longer
/// run (in practice a huge `data:` URI or binary noise) is not emitted
/// at all, truncated URIs being wrong URIs; scanning resumes at the next
/// ASCII whitespace or control byte after it. The cap is what keeps the
/// streaming scanner's memory bounded.
pub const MAX_URI_LEN: usize = 64 * 1024;

/// How far past a `<scheme:` the scanner looks for the closing `>` of a
/// URI wrapped across lines (Appendix C). A `<` with no `>` within this
/// many bytes is not a delimiter, and the URI is read as bare text.
pub const MAX_ANGLE_LEN: usize = 4 * 1024;

/// How many bytes before a candidate `:` confirmation may read: the
/// longest scheme, the character before it, `URL:` and an opening
/// delimiter. The streaming scanner keeps this much history.
pub(crate) const LOOKBEHIND: usize = MAX_SCHEME_LEN + 1 + 4 + 4 + 1;

/// Where a run ends, and what the walk saw on the way.
#[derive(Clone, Copy)]
struct RunEnd {
    end: usize,
    /// The run ended at a closing bracket that nothing inside balances.
    bracket: bool,
    /// The run ended at its closing delimiter: the quote, or the `>` of
    /// a `<...>` URI.
    closed: bool,
    /// Whitespace stands inside a `<...>` URI (always false for a bare
    /// or quoted run, which whitespace ends).
    spaced: bool,
    /// What the walk saw of the run's bytes.
    shape: Shape,
}

/// What [`Seen`] notes on a walk: a non-ASCII
/// character, and whatever keeps an ASCII run from being clean (a `[` or
/// `]`, a second `#`, a `%` without two hex digits after it). It looks at
/// the bytes where they are at hand rather than in a second pass.
#[derive(Clone, Copy, Default)]
struct Seen {
    wide: bool,
    odd: bool,
    hashes: u32,
}

impl Seen {
    /// A [`MARK`] byte `c` at `hay[i]`.
    #[inline(always)]
    fn mark(&mut self, c: u8, hay: &[u8], i: usize) {
        if c == b'#' {
            self.hashes += 1;
            self.odd |= self.hashes > 1;
        } else {
            self.odd |= !is_pct_encoded(&hay[i..]);
        }
    }

    #[inline(always)]
    fn shape(self) -> Shape {
        match (self.wide, self.odd) {
            (true, _) => Shape::Wide,
            (false, true) => Shape::Ascii,
            (false, false) => Shape::Clean,
        }
    }
}

/// The end of a walk.
enum Run {
    End(RunEnd),
    NeedMore,
    /// The run reached the cap of its reading at `from`.
    Overlong {
        from: usize,
    },
}

/// Reads the bare or quoted run of URI and IRI characters after `colon`
/// ([`walk`]).
///
/// Inside quotes Unicode punctuation is part of the URI; but when the
/// quote does not close, the URI is read as bare text. If the quoted
/// reading passed over non-ASCII (the only place the two differ), the
/// run is read again as bare: rare, and the common loop stays as it was.
#[inline(always)]
fn scan_run<K: Kernels>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    quote: Option<u8>,
    eof: bool,
) -> Run {
    let reach = |run: &Run| match run {
        Run::End(r) => r.end - colon,
        Run::NeedMore => hay.len() - colon,
        Run::Overlong { from } => from - colon,
    };
    let mut run = walk::<K, false>(k, hay, start, colon, quote, eof);
    if quote.is_some()
        && matches!(
            run,
            Run::End(RunEnd { closed: false, shape: Shape::Wide, .. })
                | Run::Overlong { .. }
        )
    {
        bytes_read::add(reach(&run));
        run = scan_bare_again(k, hay, start, colon, eof);
    }
    bytes_read::add(reach(&run));
    run
}

/// The bare reading of a run whose quote did not close, out of line:
/// inlined, this second copy of the run loop made confirmation, which
/// is inlined into the iterators, larger, and the scanner slower.
#[cold]
#[inline(never)]
fn scan_bare_again<K: Kernels>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    eof: bool,
) -> Run {
    walk::<K, false>(k, hay, start, colon, None, eof)
}

/// What the search for the `>` of `<scheme:...>` found.
enum Angle {
    /// The `>` closes the URI.
    Closed(Raw),
    /// The `<` delimits nothing: the URI is read as bare text.
    Open,
    NeedMore,
}

/// The search for the `>` of `<scheme:...>`, across whitespace
/// ([`walk`] with `ANGLE`), within [`MAX_ANGLE_LEN`] bytes.
#[inline(always)]
fn scan_angle<K: Kernels>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    eof: bool,
) -> Angle {
    let (reached, angle) =
        match walk::<K, true>(k, hay, start, colon, None, eof) {
            Run::End(RunEnd { end, closed: true, shape, spaced, .. }) => {
                (end, Angle::Closed(Raw { gt: end, shape, spaced }))
            }
            Run::End(RunEnd { end, .. }) => (end, Angle::Open),
            Run::NeedMore => (hay.len(), Angle::NeedMore),
            Run::Overlong { from } => (from, Angle::Open),
        };
    bytes_read::add(reached - colon);
    angle
}

/// The one walk over a candidate's run, after its `:`, a vector of
/// plain bytes at a time ([`Kernels::skip_plain`]) and a byte class at
/// a time past them; the common-shape lane ([`super::common_shape`]) is its
/// accelerator for the common shape.
///
/// A bare or quoted run (`ANGLE` false) ends at whitespace, at a byte
/// that cannot be in a URI, at Unicode punctuation ([`ends_bare_iri`];
/// not after a `quote`), at invalid UTF-8, at a closing bracket that no
/// opening one inside the run balances (`bracket`), or at the closing
/// `quote` (`closed`), within [`MAX_URI_LEN`] bytes of `start`.
///
/// Inside `<...>` (`ANGLE`) whitespace does not end the run (`spaced`)
/// and brackets are plain: it is closed by the `>` within
/// [`MAX_ANGLE_LEN`] bytes, and any other end leaves the `<` open.
///
/// `ANGLE` is a constant, so each reading compiles to its own loop, as
/// fast as a loop written for it alone.
#[inline(always)]
fn walk<K: Kernels, const ANGLE: bool>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    quote: Option<u8>,
    eof: bool,
) -> Run {
    let limit = start + if ANGLE { MAX_ANGLE_LEN } else { MAX_URI_LEN };
    let stop = hay.len().min(limit);
    let (mut paren, mut square) = (0u32, 0u32);
    let mut i = colon + 1;
    let mut seen = Seen::default();
    let mut spaced = false;
    let end = |end, bracket, closed, spaced, seen: Seen| {
        Run::End(RunEnd { end, bracket, closed, spaced, shape: seen.shape() })
    };
    loop {
        i = k.skip_plain(hay, i, stop);
        if i >= limit {
            return Run::Overlong { from: limit };
        }
        let Some(&c) = hay.get(i) else {
            if eof {
                return end(i, false, false, spaced, seen);
            }
            return Run::NeedMore;
        };
        match RUN_CLASS[usize::from(c)] {
            STOP if ANGLE && c == b'>' => {
                return end(i, false, true, spaced, seen);
            }
            STOP if ANGLE && is_ascii_space(c) => {
                spaced = true;
                i += 1;
            }
            STOP => return end(i, false, quote == Some(c), spaced, seen),
            MARK => {
                seen.mark(c, hay, i);
                i += 1;
            }
            BRACKET_OR_QUOTE if ANGLE => {
                seen.odd |= matches!(c, b'[' | b']');
                i += 1;
            }
            BRACKET_OR_QUOTE => {
                match c {
                    b'(' => paren += 1,
                    b'[' => {
                        square += 1;
                        seen.odd = true;
                    }
                    b')' | b']' => {
                        let depth =
                            if c == b')' { &mut paren } else { &mut square };
                        if *depth == 0 {
                            return end(i, true, false, spaced, seen);
                        }
                        *depth -= 1;
                    }
                    _ if quote == Some(c) => {
                        return end(i, false, true, spaced, seen);
                    }
                    _ => {}
                }
                i += 1;
            }
            _ => match decode(&hay[i..]) {
                // Bare text ends at Unicode punctuation; delimited text
                // only at whitespace and controls (a quoted
                // `…/ジョン・スミス` is whole).
                Decoded::Char(ch, n)
                    if if ANGLE {
                        !ends_delimited_iri(ch)
                    } else {
                        !ends_bare_iri(ch)
                            || (quote.is_some() && !ends_delimited_iri(ch))
                    } =>
                {
                    seen.wide = true;
                    i += n;
                }
                Decoded::Incomplete if !eof => return Run::NeedMore,
                _ => return end(i, false, false, spaced, seen),
            },
        }
    }
}

/// [`super::confirm::confirm`] for every shape: the extraction policy and Appendix C
/// step by step, the reference the common-shape lane is held to.
#[inline(always)]
pub(crate) fn confirm_general<'h, K: Kernels>(
    k: K,
    policy: &SchemePolicy,
    hay: &'h [u8],
    colon: usize,
    lower: usize,
    eof: bool,
) -> Outcome<'h> {
    // A URI needs something after its `:` (the candidate search has
    // mostly checked this already). A `<...>` URI may not be wrapped
    // right after its scheme's `:`, which keeps `Note: ` out cheaply.
    let Some(&next) = hay.get(colon + 1) else {
        return if eof { Outcome::Reject } else { Outcome::NeedMore };
    };
    if next < 0x80 && !URI_CHAR.contains(next) {
        return Outcome::Reject;
    }
    let Some(start) = scheme_start(hay, colon, lower) else {
        return Outcome::Reject;
    };
    if hay.len() < colon + 3 && !eof {
        return Outcome::NeedMore;
    }
    let rest = &hay[colon + 1..];
    if !policy.accepts(&hay[start..colon], rest) {
        return Outcome::Reject;
    }
    let (url_prefix, opener) = label_and_opener(hay, start);
    let trimmed = Trimmed { url_prefix, ..Trimmed::default() };
    if opener == Some(b'<') {
        match scan_angle(k, hay, start, colon, eof) {
            Angle::NeedMore => return Outcome::NeedMore,
            Angle::Closed(raw) => {
                let gt = raw.gt;
                if let Some(found) = angled(hay, start, colon, raw, trimmed) {
                    return Outcome::Found(found);
                }
                return Outcome::Drop { resume: gt };
            }
            Angle::Open => {}
        }
    }
    let quote = match opener {
        Some(q @ (b'"' | b'\'')) => Some(q),
        _ => None,
    };
    let RunEnd { end, bracket, closed, shape, .. } =
        match scan_run(k, hay, start, colon, quote, eof) {
            Run::End(run) => run,
            Run::NeedMore => return Outcome::NeedMore,
            Run::Overlong { from } => return Outcome::Overlong { from },
        };
    let cand_end = if bracket { end + 1 } else { end };
    let Some(s) = validate(&hay[start..end], colon - start, !closed, shape)
    else {
        return Outcome::Drop { resume: cand_end };
    };
    let uri_end = start + s.text.len();
    Outcome::Found(Found {
        start,
        end: uri_end,
        scheme_len: colon - start,
        uri: Cow::Borrowed(s.text),
        rejoined: false,
        hyphen_break: false,
        trimmed: Trimmed {
            suffix: (uri_end < cand_end).then(|| Span::new(uri_end, cand_end)),
            punctuation: s.punctuation,
            unbalanced_bracket: bracket,
            invalid_tail: s.invalid_tail,
            ..trimmed
        },
        resume: cand_end,
        single_line: true,
    })
}

/// What [`scan_angle`] saw of a closed `<scheme:...>`.
struct Raw {
    gt: usize,
    shape: Shape,
    spaced: bool,
}

/// A `<scheme:...>` URI, closed by the `>` at `gt`: whitespace inside is
/// removed (the URI was wrapped across lines), and a hyphen before a line
/// break is kept but reported.
///
/// Inlined whole: out of line, its call and the copy of its result cost
/// on URI-dense text (inlining only the path without whitespace measured
/// worse than either).
#[inline(always)]
fn angled<'h>(
    hay: &'h [u8],
    start: usize,
    colon: usize,
    Raw { gt, shape, spaced }: Raw,
    trimmed: Trimmed,
) -> Option<Found<'h>> {
    let mut raw_end = gt;
    while raw_end > colon && is_ascii_space(hay[raw_end - 1]) {
        raw_end -= 1;
    }
    let raw = &hay[start..raw_end];
    bytes_read::add(raw.len());
    let found = |end: usize, uri: Cow<'h, str>, s: &Validated<'_>| {
        let rejoined = matches!(uri, Cow::Owned(_));
        Found {
            start,
            end,
            scheme_len: colon - start,
            uri,
            rejoined,
            hyphen_break: rejoined && hyphen_before_break(&hay[start..end]),
            trimmed: Trimmed {
                suffix: (end < raw_end).then(|| Span::new(end, raw_end)),
                punctuation: s.punctuation,
                invalid_tail: s.invalid_tail,
                ..trimmed
            },
            resume: gt,
            single_line: false,
        }
    };
    // Whitespace only between the URI and its `>` is no rejoining.
    if !(spaced && raw.iter().any(|&b| is_ascii_space(b))) {
        let s = validate(raw, colon - start, false, shape)?;
        return Some(found(start + s.text.len(), Cow::Borrowed(s.text), &s));
    }
    let mut joined = Vec::with_capacity(raw.len());
    let mut offsets = Vec::with_capacity(raw.len());
    for (i, &b) in raw.iter().enumerate() {
        if !is_ascii_space(b) {
            joined.push(b);
            offsets.push(i);
        }
    }
    let s = validate(&joined, colon - start, false, Shape::Wide)?;
    // Map the end of the URI back to the raw bytes.
    let end = start + offsets[s.text.len() - 1] + 1;
    let uri = if end - start == s.text.len() {
        // The whitespace was all after the cut: nothing was rejoined.
        Cow::Borrowed(std::str::from_utf8(&hay[start..end]).ok()?)
    } else {
        Cow::Owned(s.text.to_string())
    };
    Some(found(end, uri, &s))
}

/// Whether a run of whitespace holding a line break follows a `-`.
fn hyphen_before_break(raw: &[u8]) -> bool {
    let mut i = 0;
    while i < raw.len() {
        if is_ascii_space(raw[i]) {
            let ws_start = i;
            let mut line_break = false;
            while i < raw.len() && is_ascii_space(raw[i]) {
                line_break |= matches!(raw[i], b'\r' | b'\n');
                i += 1;
            }
            if line_break && ws_start > 0 && raw[ws_start - 1] == b'-' {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}
