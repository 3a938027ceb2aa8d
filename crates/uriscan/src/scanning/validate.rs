//! Validating a candidate: which candidates are URIs to emit, and where
//! each ends. [`validate`] trims trailing punctuation, then takes the fast
//! check of the common shape or the parser, and the rule for a candidate
//! the parser cuts.
//!
//! The syntax layer's parser is the one grammar. A candidate is valid
//! whole, or the parser's error gives its longest valid prefix (the input
//! before the error's index is valid) and the component the error is in.
//! What is done with that prefix is the cut rule, which
//! [`super`]'s module docs state: [`cut_end`] and [`keeps_meaning`].
//! [`quick_valid`] is an accelerator for the candidates the run scan has
//! seen to be in the common shape; it says "valid, with a host or a
//! path" only where the parser would, which a property test holds it to.

use crate::syntax::chars::DIGIT;
use crate::syntax::{ErrorKind, Parser, UriRef};

use super::bytes_read;
use super::candidate::{is_trailing_punctuation, trim_punct};

/// What [`validate`] cut.
pub(crate) struct Validated<'a> {
    pub(crate) text: &'a str,
    pub(crate) punctuation: bool,
    pub(crate) invalid_tail: bool,
}

/// What the run scan knows about a candidate's bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Anything: the bytes are not known to be UTF-8 yet.
    Wide,
    /// ASCII.
    Ascii,
    /// ASCII, without `[` or `]`, with at most one `#`, and every `%`
    /// starting a `pct-encoded`: the shape [`quick_valid`] decides.
    Clean,
}

/// Cuts a candidate to the URI to emit: trailing punctuation (when
/// `trim`), then, if the parser rejects it, to its longest valid prefix
/// by the cut rule ([`cut_end`], [`keeps_meaning`]). `None` when no URI
/// is left to emit.
///
/// A [`Shape::Clean`] candidate (most of them) that [`quick_valid`]
/// accepts skips the parser: the run scan has already checked every byte
/// the parser would, but for the authority, which `quick_valid` reads.
/// That path is inlined into [`super::confirm::confirm`], as the call
/// is a noticeable cost per URI on URI-dense text.
#[inline(always)]
pub(crate) fn validate(
    cand: &[u8],
    colon: usize,
    trim: bool,
    shape: Shape,
) -> Option<Validated<'_>> {
    if shape == Shape::Clean {
        let mut punctuation = false;
        let len = if trim {
            trim_punct(cand, colon, cand.len(), &mut punctuation)
        } else {
            cand.len()
        };
        if quick_valid(&cand[..len], colon) {
            bytes_read::add(len);
            debug_assert!(cand[..len].is_ascii());
            // SAFETY: the run scan saw no byte >= 0x80 in a clean
            // candidate (the scheme and its `:` are ASCII too).
            let text = unsafe { std::str::from_utf8_unchecked(&cand[..len]) };
            debug_assert!(Parser::new().validate_uri(text).is_ok(), "{text}");
            return Some(Validated { text, punctuation, invalid_tail: false });
        }
    }
    validate_by_parser(cand, colon, trim, shape)
}

/// [`validate`] for the candidates [`quick_valid`] does not take.
#[inline(never)]
fn validate_by_parser(
    cand: &[u8],
    colon: usize,
    trim: bool,
    shape: Shape,
) -> Option<Validated<'_>> {
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
        // scheme and its `:` are ASCII too), and ASCII is UTF-8; the check
        // it skips showed in the time of a scan of Markdown.
        unsafe { std::str::from_utf8_unchecked(&cand[..len]) }
    } else {
        std::str::from_utf8(&cand[..len]).ok()?
    };
    // The UTF-8 or quick look, then the parser.
    bytes_read::add(2 * len);
    // The parser is the one grammar: most candidates pass it whole, and
    // for the rest its error says where the longest valid prefix ends
    // (the input before the error's index is valid) and whether the
    // authority is what failed, which drops the candidate.
    let parser = Parser::new().iri(true);
    let e =
        match parser.parse_uri(text) {
            Ok(uri) => {
                return keeps_meaning(&uri, colon, false).then_some(
                    Validated { text, punctuation, invalid_tail: false },
                );
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
    keeps_meaning(&uri.ok()?, colon, true).then_some(Validated {
        text,
        punctuation,
        invalid_tail: true,
    })
}

/// Delimiters after which a cut leaves the text's meaning hanging: a
/// parameter, a list item, a value or a call with nothing after it
/// (`?q=` of `?q=%s`, `f(` of `f(%zz)`).
fn is_hanging(b: u8) -> bool {
    matches!(b, b';' | b',' | b'=' | b'&' | b'(')
}

/// Where a candidate cut at the parser's error index `at` (in its path,
/// query or fragment: the prefix `cand[..at]` is valid) ends: less the
/// trailing punctuation the cut leaves (`punctuation` is set if any).
/// `None` when the cut leaves a delimiter hanging ([`is_hanging`]),
/// right before it or before that punctuation.
pub(crate) fn cut_end(
    cand: &[u8],
    colon: usize,
    at: usize,
    punctuation: &mut bool,
) -> Option<usize> {
    let mut n = at;
    while n > colon + 1 {
        let c = cand[n - 1];
        if is_hanging(c) {
            return None;
        }
        if !is_trailing_punctuation(c) {
            break;
        }
        n -= 1;
        *punctuation = true;
    }
    Some(n)
}

/// Whether the valid URI `uri` (its scheme's `:` at `colon`) is one to
/// emit: it has a non-empty host or path (or, without an authority, a
/// non-empty query: `magnet:?xt=...`), a `data:` URI keeps its comma and
/// data ([`data_keeps_its_data`]), and, when it was `cut` from a longer candidate, a host has a
/// letter or digit (`http://(` of a regular expression is no URI).
pub(crate) fn keeps_meaning(
    uri: &UriRef<'_>,
    colon: usize,
    cut: bool,
) -> bool {
    let path = !uri.path().is_empty();
    match uri.host() {
        Some(host) => {
            (path || !host.is_empty())
                && (!cut || host.chars().any(char::is_alphanumeric))
        }
        None => {
            (path || uri.query().is_some_and(|q| !q.is_empty()))
                && data_keeps_its_data(uri.as_str().as_bytes(), colon)
        }
    }
}

/// Whether `b`, a URI without authority with its scheme's `:` at
/// `colon`, is not a `data:` URI, or is one with a comma and data after
/// it (RFC 2397, whose URIs have no authority): a `data:` URI cut before
/// its data (`data:application/json;base64` of `…;base64,{payload}`)
/// says nothing. Asked only without an authority, it costs the common
/// `//` URIs nothing.
#[inline(always)]
pub(crate) fn data_keeps_its_data(b: &[u8], colon: usize) -> bool {
    // `| 0x20` folds the capitals of a scheme onto the small letters and
    // moves none of its other bytes onto a letter.
    if colon != 4
        || u32::from_le_bytes([b[0], b[1], b[2], b[3]]) | 0x2020_2020
            != u32::from_le_bytes(*b"data")
    {
        return true;
    }
    has_data(b)
}

/// Whether the `data:` URI `b` has a comma with data after it. Out of
/// line: the test of the scheme above is inlined into the common-shape lane,
/// and `data:` URIs are rare.
#[cold]
#[inline(never)]
fn has_data(b: &[u8]) -> bool {
    memchr::memchr(b',', &b[5..]).is_some_and(|i| 5 + i + 1 < b.len())
}

/// The fast path of validation, for candidates the run scan has already
/// read: whether `b` is certainly a valid URI with a host or a path (as
/// [`keeps_meaning`] asks of an uncut URI).
/// `false` means "ask the parser", not "invalid".
///
/// `b` must be what the run scan calls clean: a valid scheme and its `:`
/// at `colon`, then URI characters (`unreserved`, `reserved` and `%`)
/// without `[` or `]`, at most one `#`, and every `%` starting a
/// `pct-encoded`. Every such byte is allowed in a path, a query and a
/// fragment (`pchar / "/" / "?"`, 3.3 to 3.5), so only the authority
/// (3.2) is left to check: `[ userinfo "@" ] host [ ":" port ]`, where
/// with no brackets the host is a `reg-name` (which also spells every
/// `IPv4address`), `userinfo` takes any of these bytes but `@`, and
/// `port = *DIGIT`. A property test holds it to the parser.
///
/// Inlined into confirmation: since confirmation is compiled once per
/// kernel set, the call was the larger part of its cost.
#[inline(always)]
pub(crate) fn quick_valid(b: &[u8], colon: usize) -> bool {
    quick_valid_with(b, colon, |b, from| {
        #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
        // SAFETY: SSE2 is part of x86-64.
        if let Some(ok) = unsafe { authority_ok_sse2(b, from) } {
            return ok;
        }
        authority_ok_portable(b, from)
    })
}

/// [`quick_valid`] with the check of an authority that starts at
/// `b[from..]` given as `authority_ok(b, from)`: the common-shape lane of
/// confirmation decides it on the masks it already has
/// ([`super::common_shape`]).
#[inline(always)]
pub(crate) fn quick_valid_with(
    b: &[u8],
    colon: usize,
    authority_ok: impl FnOnce(&[u8], usize) -> bool,
) -> bool {
    let rest = &b[colon + 1..];
    if !rest.starts_with(b"//") {
        // `path-rootless` or `path-absolute`: any first byte but these
        // leaves a non-empty path.
        return !matches!(rest.first(), None | Some(b'?' | b'#'))
            && data_keeps_its_data(b, colon);
    }
    authority_ok(b, colon + 3)
}

/// The authority check of [`quick_valid`] for the authority starting at
/// `b[from..]`, a byte at a time: the reference for the vectorized one.
pub(crate) fn authority_ok_portable(b: &[u8], from: usize) -> bool {
    let auth = &b[from..];
    // One pass over the authority: where the host starts (after the
    // `@`, if any) and where its port's `:` is. The three lookups this
    // replaces were a sixth of the time on URI-dense text.
    let (mut host_start, mut port_colon) = (0, None);
    let mut end = auth.len();
    let mut at_seen = false;
    for (i, &c) in auth.iter().enumerate() {
        match c {
            b'/' | b'?' | b'#' => {
                end = i;
                break;
            }
            b'@' if at_seen => return false,
            b'@' => {
                at_seen = true;
                host_start = i + 1;
                port_colon = None;
            }
            b':' if port_colon.is_none() => port_colon = Some(i),
            _ => {}
        }
    }
    let host_end = match port_colon {
        Some(p) => {
            if !auth[p + 1..end].iter().all(|&c| DIGIT.contains(c)) {
                return false;
            }
            p
        }
        None => end,
    };
    host_end > host_start || auth.get(end) == Some(&b'/')
}

/// [`authority_ok_portable`] with SSE2 (which every x86-64 CPU has) on
/// one 16-byte block: the bytes the authority pass looks for, as bit
/// masks, and the decision made on the bits. The block is the first 16
/// bytes of the authority or, when the authority is shorter, the last
/// 16 of `b`, shifted. `None` when `b` is shorter than 16 bytes or the
/// authority does not end within the block. The byte loop is costly on
/// URI-dense text.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn authority_ok_sse2(b: &[u8], from: usize) -> Option<bool> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8,
        _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let len = b.len().checked_sub(from)?;
    let at = if len >= 16 { from } else { b.len().checked_sub(16)? };
    // SAFETY: `at + 16 <= b.len()` in both cases above.
    let v = unsafe { _mm_loadu_si128(b.as_ptr().add(at).cast::<__m128i>()) };
    let shift = from - at;
    let eq = |c: u8| {
        let m = _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        (_mm_movemask_epi8(m) as u32) >> shift
    };
    let ends = (eq(b'/') | eq(b'?') | eq(b'#')) & block_bits(len.min(16));
    let end = if ends != 0 {
        ends.trailing_zeros() as usize
    } else if len <= 16 {
        len
    } else if matches!(b[from + 16], b'/' | b'?' | b'#') {
        // An authority of exactly 16 bytes (`en.wikipedia.org`).
        16
    } else {
        return None;
    };
    // The authority is ASCII (the run was clean), so the signed
    // compares order the digits.
    let digit = _mm_and_si128(
        _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1)),
        _mm_cmplt_epi8(v, _mm_set1_epi8(b'9' as i8 + 1)),
    );
    let digits = (_mm_movemask_epi8(digit) as u32) >> shift;
    let inside = block_bits(end);
    let ats = eq(b'@') & inside;
    if ats & ats.wrapping_sub(1) != 0 {
        return Some(false);
    }
    let host_start =
        if ats != 0 { ats.trailing_zeros() as usize + 1 } else { 0 };
    let colons = eq(b':') & inside & !block_bits(host_start);
    let host_end = if colons != 0 {
        let p = colons.trailing_zeros() as usize;
        let port = inside & !block_bits(p + 1);
        if port & !digits != 0 {
            return Some(false);
        }
        p
    } else {
        end
    };
    Some(host_end > host_start || b.get(from + end) == Some(&b'/'))
}

/// The low `n` bits (`n <= 16`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_bits(n: usize) -> u32 {
    (1u32 << n) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Parser;
    use proptest::prelude::*;

    /// What the run scan calls clean (see [`quick_valid`]), spelled out.
    fn is_clean(b: &[u8]) -> bool {
        let hashes = b.iter().filter(|&&c| c == b'#').count();
        let pct_ok = b.iter().enumerate().all(|(i, &c)| {
            c != b'%' || crate::syntax::chars::is_pct_encoded(&b[i..])
        });
        b.is_ascii() && hashes <= 1 && pct_ok && !b.contains(&b'[')
    }

    proptest! {
        /// The fast path never accepts what the parser rejects, nor a
        /// URI without host or path.
        #[test]
        fn quick_valid_agrees_with_the_parser(
            s in concat!(
                "[a-zA-Z][a-zA-Z0-9+.-]{0,3}:(//)?",
                "(%[0-9a-fA-F]{2}|[-a-z0-9._~!$&'()*+,;=:@/?#]){0,20}",
            ),
        ) {
            let b = s.as_bytes();
            prop_assume!(is_clean(b));
            let colon = s.find(':').unwrap();
            if quick_valid(b, colon) {
                let uri = Parser::new().parse_uri(&s);
                prop_assert!(uri.is_ok());
                prop_assert!(keeps_meaning(&uri.unwrap(), colon, false));
            }
        }
    }

    /// The SSE2 authority pass decides as the portable one whenever it
    /// decides, for the authority at every offset of the block and
    /// every length around 16.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn authority_sse2_equals_portable() {
        let alphabet = b"a0:@/?#";
        let mut words = vec![Vec::new()];
        for len in 1..=4 {
            for mut k in 0..alphabet.len().pow(len) {
                let mut w = Vec::new();
                for _ in 0..len {
                    w.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                words.push(w);
            }
        }
        let mut decided = 0;
        for word in &words {
            for pad in [0, 5, 11, 12, 15, 16, 20] {
                for scheme in 1..=14 {
                    for tail in ["", "/", "/ppppppppppppp"] {
                        let mut b = vec![b'h'; scheme];
                        b.extend_from_slice(b"://");
                        b.extend(std::iter::repeat_n(b'a', pad));
                        b.extend_from_slice(word);
                        b.extend_from_slice(tail.as_bytes());
                        let from = scheme + 3;
                        let want = authority_ok_portable(&b, from);
                        // SAFETY: SSE2 is part of x86-64.
                        let got = unsafe { authority_ok_sse2(&b, from) };
                        if let Some(got) = got {
                            decided += 1;
                            assert_eq!(got, want, "{}", b.escape_ascii());
                        }
                    }
                }
            }
        }
        assert!(decided > words.len() * 100);
    }

    #[test]
    fn quick_valid_takes_the_common_shapes() {
        for s in [
            "http://a.example/p?q=1#f",
            "https://u:pw@h.example:8080/x/%41",
            "mailto:u@m.example",
            "urn:isbn:0451450523",
            "file:///etc/hosts",
            "http://1.2.3.4",
            "http://a.example#frag?x",
        ] {
            assert!(quick_valid(s.as_bytes(), s.find(':').unwrap()), "{s}");
        }
        for s in [
            "http://a:b/",
            "http://a@b@c/",
            "http://:80",
            "http://",
            "mailto:?x",
            "x:#f",
            "http://a:1:2/",
        ] {
            assert!(!quick_valid(s.as_bytes(), s.find(':').unwrap()), "{s}");
        }
    }
}
