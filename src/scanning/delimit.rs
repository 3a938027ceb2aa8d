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
use crate::syntax::Parser;
use crate::syntax::chars::{SCHEME, URI_CHAR};

use super::Trimmed;
use super::scheme::{MAX_SCHEME_LEN, SchemePolicy, scheme_start};
use super::unicode::{Decoded, continues_uri, decode};
use super::validate::{has_host_or_path, valid_prefix};
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
fn is_trailing_punctuation(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*')
}

fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C')
}

/// A URI found by [`confirm`], with offsets into the haystack.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) scheme_len: usize,
    /// The URI when it is not the raw bytes `start..end` (rejoined).
    pub(crate) joined: Option<String>,
    pub(crate) hyphen_break: bool,
    pub(crate) trimmed: Trimmed,
    /// Where the search for the next candidate resumes.
    pub(crate) resume: usize,
}

/// What [`confirm`] decided about one candidate `:`.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// No URI here; resume after the `:`.
    Reject,
    /// A candidate run was read but holds no URI; resume at `resume`.
    Drop { resume: usize },
    /// A URI.
    Found(Found),
    /// The decision depends on bytes past the end of the buffer.
    NeedMore,
    /// The run is longer than [`MAX_URI_LEN`]: skip from `from` to the
    /// next ASCII whitespace or control byte.
    Overlong { from: usize },
}

/// The end of a bare run.
enum Run {
    End { end: usize, bracket: bool, closed: bool },
    NeedMore,
    Overlong { from: usize },
}

/// Reads the run of URI and IRI characters after `colon`. It ends at
/// whitespace, at a byte that cannot be in a URI, at Unicode punctuation,
/// at invalid UTF-8, at a closing bracket that no opening one inside the
/// run balances (`bracket`), or at the closing `quote` (`closed`).
#[inline]
fn scan_run(
    hay: &[u8],
    start: usize,
    colon: usize,
    quote: Option<u8>,
    eof: bool,
) -> Run {
    let run = scan_run_inner(hay, start, colon, quote, eof);
    work::add(match run {
        Run::End { end, .. } => end - colon,
        Run::NeedMore => hay.len() - colon,
        Run::Overlong { from } => from - colon,
    });
    run
}

/// How [`scan_run`] treats each byte: most URI bytes need no more than
/// this one lookup.
const PLAIN: u8 = 0;
const STOP: u8 = 1;
const BRACKET_OR_QUOTE: u8 = 2;
const WIDE: u8 = 3;

static RUN_CLASS: [u8; 256] = {
    let mut t = [STOP; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0x80 {
            WIDE
        } else if !URI_CHAR.contains(c) {
            STOP
        } else if matches!(c, b'(' | b')' | b'[' | b']' | b'\'') {
            BRACKET_OR_QUOTE
        } else {
            PLAIN
        };
        b += 1;
    }
    t
};

#[inline(always)]
fn scan_run_inner(
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
    loop {
        while i < stop && RUN_CLASS[usize::from(hay[i])] == PLAIN {
            i += 1;
        }
        if i >= limit {
            return Run::Overlong { from: limit };
        }
        let Some(&c) = hay.get(i) else {
            if eof {
                return Run::End { end: i, bracket: false, closed: false };
            }
            return Run::NeedMore;
        };
        match RUN_CLASS[usize::from(c)] {
            STOP => {
                let closed = quote == Some(c);
                return Run::End { end: i, bracket: false, closed };
            }
            BRACKET_OR_QUOTE => {
                match c {
                    b'(' => paren += 1,
                    b'[' => square += 1,
                    b')' | b']' => {
                        let depth =
                            if c == b')' { &mut paren } else { &mut square };
                        if *depth == 0 {
                            return Run::End {
                                end: i,
                                bracket: true,
                                closed: false,
                            };
                        }
                        *depth -= 1;
                    }
                    _ if quote == Some(c) => {
                        return Run::End {
                            end: i,
                            bracket: false,
                            closed: true,
                        };
                    }
                    _ => {}
                }
                i += 1;
            }
            _ => match decode(&hay[i..]) {
                Decoded::Char(ch, n) if continues_uri(ch) => i += n,
                Decoded::Incomplete if !eof => return Run::NeedMore,
                _ => {
                    return Run::End { end: i, bracket: false, closed: false };
                }
            },
        }
    }
}

/// The search for the `>` of `<scheme:...>`, across whitespace.
enum Angle {
    Closed(usize),
    Open,
    NeedMore,
}

fn scan_angle(hay: &[u8], start: usize, colon: usize, eof: bool) -> Angle {
    let limit = start + MAX_ANGLE_LEN;
    let mut i = colon + 1;
    loop {
        work::add(1);
        if i >= limit {
            return Angle::Open;
        }
        let Some(&c) = hay.get(i) else {
            return if eof { Angle::Open } else { Angle::NeedMore };
        };
        if c == b'>' {
            return Angle::Closed(i);
        }
        if c < 0x80 {
            if !(URI_CHAR.contains(c) || is_ascii_space(c)) {
                return Angle::Open;
            }
            i += 1;
        } else {
            match decode(&hay[i..]) {
                Decoded::Char(ch, n) if continues_uri(ch) => i += n,
                Decoded::Incomplete if !eof => return Angle::NeedMore,
                _ => return Angle::Open,
            }
        }
    }
}

/// What [`settle`] cut.
struct Settled {
    len: usize,
    punctuation: bool,
    invalid_tail: bool,
}

/// Cuts a candidate to the URI to emit: trailing punctuation (when
/// `trim`), then the longest valid prefix, then punctuation again, and
/// finally the syntax layer's parser has the last word. `None` when what
/// is left has neither host nor path.
fn settle(cand: &[u8], colon: usize, trim: bool) -> Option<Settled> {
    let trim_punct = |mut n: usize, hit: &mut bool| {
        while n > colon + 1 && is_trailing_punctuation(cand[n - 1]) {
            n -= 1;
            *hit = true;
        }
        n
    };
    let mut punctuation = false;
    let mut len = cand.len();
    if trim {
        len = trim_punct(len, &mut punctuation);
    }
    let mut invalid_tail = false;
    work::add(2 * len);
    let valid = valid_prefix(&cand[..len], colon);
    if valid < len {
        invalid_tail = true;
        len = trim_punct(valid, &mut punctuation);
    }
    // The parser is the authority on validity. The cut above should
    // agree with it; should it not, cut where it says, a bounded number
    // of times.
    let parser = Parser::new().iri(true);
    for _ in 0..4 {
        if len <= colon + 1 || !has_host_or_path(&cand[..len], colon) {
            return None;
        }
        let text = std::str::from_utf8(&cand[..len]).ok()?;
        match parser.validate_uri(text) {
            Ok(_) => return Some(Settled { len, punctuation, invalid_tail }),
            Err(e) => {
                let at = e.index();
                if at >= len || !text.is_char_boundary(at) {
                    return None;
                }
                invalid_tail = true;
                len = trim_punct(at, &mut punctuation);
            }
        }
    }
    None
}

/// Looks at the candidate `:` at `colon`. `lower` is where the previous
/// match or skipped run ended: no scheme reaches back past it, so no URI
/// starts inside another. `eof` says that `hay` is all the input.
pub(crate) fn confirm(
    policy: &SchemePolicy,
    hay: &[u8],
    colon: usize,
    lower: usize,
    eof: bool,
) -> Outcome {
    // Most `:` in text are followed by a space (`Note: `) or stand
    // after a digit (`12:30`): reject those before looking back. A URI
    // needs something after its `:`, and only a `<...>` URI may be
    // wrapped right after it.
    let Some(&next) = hay.get(colon + 1) else {
        return if eof { Outcome::Reject } else { Outcome::NeedMore };
    };
    let wrapped = next < 0x80 && !URI_CHAR.contains(next);
    if wrapped && !is_ascii_space(next) {
        return Outcome::Reject;
    }
    let Some(start) = scheme_start(hay, colon, lower) else {
        return Outcome::Reject;
    };
    if wrapped && !angle_before(hay, start) {
        return Outcome::Reject;
    }
    if hay.len() < colon + 3 && !eof {
        return Outcome::NeedMore;
    }
    let rest = &hay[colon + 1..];
    if !policy.accepts(&hay[start..colon], rest) {
        return Outcome::Reject;
    }
    // Appendix C: `URL:` before the URI is a label, and `<`, `"` (and,
    // in markup, `'`) before the URI or its label delimit it.
    let mut url_prefix = None;
    if start >= 4
        && hay[start - 4..start].eq_ignore_ascii_case(b"URL:")
        && (start == 4 || !SCHEME.contains(hay[start - 5]))
    {
        url_prefix = Some(Span::new(start - 4, start));
    }
    let open_at = url_prefix.map_or(start, |p| p.start);
    let opener = open_at.checked_sub(1).map(|i| hay[i]);
    let trimmed = Trimmed { url_prefix, ..Trimmed::default() };
    if opener == Some(b'<') {
        match scan_angle(hay, start, colon, eof) {
            Angle::NeedMore => return Outcome::NeedMore,
            Angle::Closed(gt) => {
                if let Some(found) = angled(hay, start, colon, gt, trimmed) {
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
    let (end, bracket, closed) = match scan_run(hay, start, colon, quote, eof)
    {
        Run::End { end, bracket, closed } => (end, bracket, closed),
        Run::NeedMore => return Outcome::NeedMore,
        Run::Overlong { from } => return Outcome::Overlong { from },
    };
    let cand_end = if bracket { end + 1 } else { end };
    let Some(s) = settle(&hay[start..end], colon - start, !closed) else {
        return Outcome::Drop { resume: cand_end };
    };
    let uri_end = start + s.len;
    Outcome::Found(Found {
        start,
        end: uri_end,
        scheme_len: colon - start,
        joined: None,
        hyphen_break: false,
        trimmed: Trimmed {
            suffix: (uri_end < cand_end).then(|| Span::new(uri_end, cand_end)),
            punctuation: s.punctuation,
            unbalanced_bracket: bracket,
            invalid_tail: s.invalid_tail,
            ..trimmed
        },
        resume: cand_end,
    })
}

/// Whether `<` or `<URL:` stands right before `start`.
fn angle_before(hay: &[u8], start: usize) -> bool {
    let before = &hay[..start];
    before.ends_with(b"<")
        || before.len() >= 5
            && before[before.len() - 4..].eq_ignore_ascii_case(b"URL:")
            && before[before.len() - 5] == b'<'
}

/// A `<scheme:...>` URI, closed by the `>` at `gt`: whitespace inside is
/// removed (the URI was wrapped across lines), and a hyphen before a line
/// break is kept but reported.
fn angled(
    hay: &[u8],
    start: usize,
    colon: usize,
    gt: usize,
    trimmed: Trimmed,
) -> Option<Found> {
    let mut raw_end = gt;
    while raw_end > colon && is_ascii_space(hay[raw_end - 1]) {
        raw_end -= 1;
    }
    let raw = &hay[start..raw_end];
    work::add(raw.len());
    let (cand, offsets): (Cow<'_, [u8]>, Option<Vec<usize>>) =
        if raw.iter().any(|&b| is_ascii_space(b)) {
            let mut joined = Vec::with_capacity(raw.len());
            let mut offsets = Vec::with_capacity(raw.len());
            for (i, &b) in raw.iter().enumerate() {
                if !is_ascii_space(b) {
                    joined.push(b);
                    offsets.push(i);
                }
            }
            (Cow::Owned(joined), Some(offsets))
        } else {
            (Cow::Borrowed(raw), None)
        };
    let s = settle(&cand, colon - start, false)?;
    // Map the end of the URI back to the raw bytes.
    let (end, rejoined) = match &offsets {
        Some(off) => {
            let end = start + off[s.len - 1] + 1;
            (end, end - start != s.len)
        }
        None => (start + s.len, false),
    };
    let hyphen_break = rejoined && hyphen_before_break(&hay[start..end]);
    let joined = rejoined.then(|| {
        // Valid UTF-8: the candidate was built from whole characters.
        String::from_utf8_lossy(&cand[..s.len]).into_owned()
    });
    Some(Found {
        start,
        end,
        scheme_len: colon - start,
        joined,
        hyphen_break,
        trimmed: Trimmed {
            suffix: (end < raw_end).then(|| Span::new(end, raw_end)),
            punctuation: s.punctuation,
            invalid_tail: s.invalid_tail,
            ..trimmed
        },
        resume: gt,
    })
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
