//! Confirming one candidate `:`: where the URI begins and ends, by the
//! extraction policy and RFC 3986 Appendix C.
//!
//! [`confirm`] is the narrow interface between candidate search and
//! confirmation: it looks at the bytes around one `:` and says whether a
//! URI is there, what to skip, or that it needs more input (streaming).
//! Every look is bounded: backward by [`MAX_SCHEME_LEN`] plus a few
//! bytes of context, forward by [`MAX_URI_LEN`] (a bare run) or
//! [`MAX_ANGLE_LEN`] (the search for the `>` of a wrapped `<...>` URI).
//! After a candidate whose run was read, the search resumes at the end of
//! that run, so no byte is read by more than a bounded number of
//! candidates and scanning is linear in the input.

use std::borrow::Cow;

use crate::Span;
use crate::syntax::chars::{SCHEME, URI_CHAR, is_pct_encoded};
use crate::syntax::{ErrorKind, Parser};

use super::Trimmed;
use super::kernels::Kernels;
use super::plain::{BRACKET_OR_QUOTE, MARK, RUN_CLASS, STOP};
use super::scheme::{MAX_SCHEME_LEN, SchemePolicy, scheme_start};
use super::unicode::{Decoded, decode, ends_bare_iri, ends_delimited_iri};
use super::validate::{cut_end, keeps_meaning, quick_valid};
use super::work;

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

/// Trailing bytes cut from a bare URI in prose.
pub(crate) fn is_trailing_punctuation(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*')
}

fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C')
}

/// A URI found by [`confirm`], with offsets into the haystack.
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

/// What [`confirm`] decided about one candidate `:`.
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
    /// The run is longer than [`MAX_URI_LEN`]: skip from `from` to the
    /// next ASCII whitespace or control byte.
    Overlong { from: usize },
}

/// Where a bare run ends, and what the run scan saw on the way.
#[derive(Clone, Copy)]
struct RunEnd {
    end: usize,
    /// The run ended at a closing bracket that nothing inside balances.
    bracket: bool,
    /// The run ended at the closing quote.
    closed: bool,
    /// What the scan saw of the run's bytes.
    shape: Shape,
}

/// What a run scan notes on its way, for [`Shape`]: a non-ASCII
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

/// The end of a bare run.
enum Run {
    End(RunEnd),
    NeedMore,
    Overlong { from: usize },
}

/// Reads the run of URI and IRI characters after `colon`. It ends at
/// whitespace, at a byte that cannot be in a URI, at Unicode punctuation
/// ([`ends_bare_iri`]; not after a `quote`), at invalid UTF-8, at a
/// closing bracket that no opening one inside the run balances
/// (`bracket`), or at the closing `quote` (`closed`).
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
    let mut run = scan_run_inner(k, hay, start, colon, quote, eof);
    if quote.is_some()
        && matches!(
            run,
            Run::End(RunEnd { closed: false, shape: Shape::Wide, .. })
                | Run::Overlong { .. }
        )
    {
        work::add(reach(&run));
        run = scan_bare_again(k, hay, start, colon, eof);
    }
    work::add(reach(&run));
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
    scan_run_inner(k, hay, start, colon, None, eof)
}

#[inline(always)]
fn scan_run_inner<K: Kernels>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    quote: Option<u8>,
    eof: bool,
) -> Run {
    let limit = start + MAX_URI_LEN;
    let stop = hay.len().min(limit);
    let (mut paren, mut square) = (0u32, 0u32);
    let mut i = colon + 1;
    let mut seen = Seen::default();
    let end = |end, bracket, closed, seen: Seen| {
        Run::End(RunEnd { end, bracket, closed, shape: seen.shape() })
    };
    loop {
        i = k.skip_plain(hay, i, stop);
        if i >= limit {
            return Run::Overlong { from: limit };
        }
        let Some(&c) = hay.get(i) else {
            if eof {
                return end(i, false, false, seen);
            }
            return Run::NeedMore;
        };
        match RUN_CLASS[usize::from(c)] {
            STOP => return end(i, false, quote == Some(c), seen),
            MARK => {
                seen.mark(c, hay, i);
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
                            return end(i, true, false, seen);
                        }
                        *depth -= 1;
                    }
                    _ if quote == Some(c) => {
                        return end(i, false, true, seen);
                    }
                    _ => {}
                }
                i += 1;
            }
            _ => match decode(&hay[i..]) {
                // Bare text ends at Unicode punctuation; quoted text only
                // at whitespace and controls (issue 19: a quoted
                // `…/ジョン・スミス` is whole).
                Decoded::Char(ch, n)
                    if !ends_bare_iri(ch)
                        || (quote.is_some() && !ends_delimited_iri(ch)) =>
                {
                    seen.wide = true;
                    i += n;
                }
                Decoded::Incomplete if !eof => return Run::NeedMore,
                _ => return end(i, false, false, seen),
            },
        }
    }
}

/// The search for the `>` of `<scheme:...>`, across whitespace.
enum Angle {
    /// The `>` at `gt`; `spaced` when whitespace stands inside.
    Closed {
        gt: usize,
        shape: Shape,
        spaced: bool,
    },
    Open,
    NeedMore,
}

#[inline(always)]
fn scan_angle<K: Kernels>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    eof: bool,
) -> Angle {
    let mut reached = colon;
    let angle = scan_angle_inner(k, hay, start, colon, eof, &mut reached);
    work::add(reached - colon);
    angle
}

#[inline(always)]
fn scan_angle_inner<K: Kernels>(
    k: K,
    hay: &[u8],
    start: usize,
    colon: usize,
    eof: bool,
    reached: &mut usize,
) -> Angle {
    let limit = start + MAX_ANGLE_LEN;
    let stop = hay.len().min(limit);
    let mut i = colon + 1;
    let mut seen = Seen::default();
    let mut spaced = false;
    loop {
        i = k.skip_plain(hay, i, stop);
        *reached = i;
        if i >= limit {
            return Angle::Open;
        }
        let Some(&c) = hay.get(i) else {
            return if eof { Angle::Open } else { Angle::NeedMore };
        };
        match RUN_CLASS[usize::from(c)] {
            STOP if c == b'>' => {
                let shape = seen.shape();
                return Angle::Closed { gt: i, shape, spaced };
            }
            STOP if is_ascii_space(c) => spaced = true,
            STOP => return Angle::Open,
            MARK => seen.mark(c, hay, i),
            BRACKET_OR_QUOTE => seen.odd |= matches!(c, b'[' | b']'),
            _ => match decode(&hay[i..]) {
                Decoded::Char(ch, n) if !ends_delimited_iri(ch) => {
                    seen.wide = true;
                    i += n - 1;
                }
                Decoded::Incomplete if !eof => return Angle::NeedMore,
                _ => return Angle::Open,
            },
        }
        i += 1;
    }
}

/// What [`settle`] cut.
struct Settled<'a> {
    text: &'a str,
    punctuation: bool,
    invalid_tail: bool,
}

/// What the run scan knows about a candidate's bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Anything: the bytes are not known to be UTF-8 yet.
    Wide,
    /// ASCII.
    Ascii,
    /// ASCII, without `[` or `]`, with at most one `#`, and every `%`
    /// starting a `pct-encoded`: the shape [`quick_valid`] decides.
    Clean,
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

/// Cuts a candidate to the URI to emit: trailing punctuation (when
/// `trim`), then, if the parser rejects it, to its longest valid prefix
/// by the cut rule ([`cut_end`], [`keeps_meaning`]). `None` when no URI
/// is left to emit.
///
/// A [`Shape::Clean`] candidate (most of them) that [`quick_valid`]
/// accepts skips the parser: the run scan has already checked every byte
/// the parser would, but for the authority, which `quick_valid` reads.
/// That path is inlined into [`confirm`]; the call it saves was a
/// tenth of the instructions per URI on URI-dense text.
#[inline(always)]
fn settle(
    cand: &[u8],
    colon: usize,
    trim: bool,
    shape: Shape,
) -> Option<Settled<'_>> {
    if shape == Shape::Clean {
        let mut punctuation = false;
        let len = if trim {
            trim_punct(cand, colon, cand.len(), &mut punctuation)
        } else {
            cand.len()
        };
        if quick_valid(&cand[..len], colon) {
            work::add(len);
            debug_assert!(cand[..len].is_ascii());
            // SAFETY: the run scan saw no byte >= 0x80 in a clean
            // candidate (the scheme and its `:` are ASCII too).
            let text = unsafe { std::str::from_utf8_unchecked(&cand[..len]) };
            debug_assert!(Parser::new().validate_uri(text).is_ok(), "{text}");
            return Some(Settled { text, punctuation, invalid_tail: false });
        }
    }
    settle_by_parser(cand, colon, trim, shape)
}

/// [`settle`] for the candidates [`quick_valid`] does not take.
#[inline(never)]
fn settle_by_parser(
    cand: &[u8],
    colon: usize,
    trim: bool,
    shape: Shape,
) -> Option<Settled<'_>> {
    let mut punctuation = false;
    let mut len = cand.len();
    if trim {
        len = trim_punct(cand, colon, len, &mut punctuation);
    }
    // Runs are made of whole characters, so this holds; checked once,
    // every prefix cut at a character boundary is a `str` too.
    let text = if shape != Shape::Wide {
        debug_assert!(cand[..len].is_ascii());
        // SAFETY: the run scan saw no byte >= 0x80 in the candidate (the
        // scheme and its `:` are ASCII too), and ASCII is UTF-8. Measured:
        // the UTF-8 check was 8% of the time on Markdown.
        unsafe { std::str::from_utf8_unchecked(&cand[..len]) }
    } else {
        std::str::from_utf8(&cand[..len]).ok()?
    };
    // The UTF-8 or quick look, then the parser.
    work::add(2 * len);
    // The parser is the one grammar: most candidates pass it whole, and
    // for the rest its error says where the longest valid prefix ends
    // (the input before the error's index is valid) and whether the
    // authority is what failed, which drops the candidate.
    let parser = Parser::new().iri(true);
    let e = match parser.parse_uri(text) {
        Ok(uri) => {
            return keeps_meaning(&uri, colon, false).then_some(Settled {
                text,
                punctuation,
                invalid_tail: false,
            });
        }
        Err(e) => e,
    };
    debug_assert_ne!(e.kind(), ErrorKind::InvalidScheme, "{text}");
    if e.in_authority() {
        return None;
    }
    let text = &text[..cut_end(cand, colon, e.index(), &mut punctuation)?];
    // Valid by the parser's promise, and still valid without trailing
    // punctuation: no such byte ends a `%XX`, and in an authority it
    // can only end a host or an empty port.
    let uri = parser.parse_uri(text);
    debug_assert!(uri.is_ok(), "{text}");
    keeps_meaning(&uri.ok()?, colon, true).then_some(Settled {
        text,
        punctuation,
        invalid_tail: true,
    })
}

/// Looks at the candidate `:` at `colon`. `lower` is where the previous
/// match or skipped run ended: no scheme reaches back past it, so no URI
/// starts inside another. `eof` says that `hay` is all the input.
///
/// The common shape goes through the express lane
/// ([`super::express`]) where the kernels have one; the rest, and
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
    let express = super::express::confirm(
        #[inline(always)]
        |h, at| k.run_masks(h, at),
        policy,
        hay,
        colon,
        lower,
    );
    if let Some(outcome) = express {
        debug_assert_eq!(
            outcome,
            confirm_general(k, policy, hay, colon, lower, eof),
            "the express lane at {colon}"
        );
        return outcome;
    }
    confirm_general(k, policy, hay, colon, lower, eof)
}

/// [`confirm`] for every shape: the extraction policy and Appendix C
/// step by step, the reference the express lane is held to.
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
            Angle::Closed { gt, shape, spaced } => {
                let raw = Raw { gt, shape, spaced };
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
    let RunEnd { end, bracket, closed, shape } =
        match scan_run(k, hay, start, colon, quote, eof) {
            Run::End(run) => run,
            Run::NeedMore => return Outcome::NeedMore,
            Run::Overlong { from } => return Outcome::Overlong { from },
        };
    let cand_end = if bracket { end + 1 } else { end };
    let Some(s) = settle(&hay[start..end], colon - start, !closed, shape)
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
/// Inlined whole: out of line, its call and the copy of its result were
/// about thirty instructions per URI on URI-dense text. (Inlining only
/// the path without whitespace, with the rejoining out of line, measured
/// worse than either.)
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
    work::add(raw.len());
    let found = |end: usize, uri: Cow<'h, str>, s: &Settled<'_>| {
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
        let s = settle(raw, colon - start, false, shape)?;
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
    let s = settle(&joined, colon - start, false, Shape::Wide)?;
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
