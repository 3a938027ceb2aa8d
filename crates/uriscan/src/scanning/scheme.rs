//! Where a URI begins: backward extension from a candidate `:` over the
//! scheme characters, and the scheme policy (which schemes count).

use crate::syntax::chars::{ALPHA, SCHEME};

use super::unicode::{decode_last, is_spaceless_script};

/// The longest scheme the scanner takes. A longer run of scheme
/// characters before a `:` is a word, not a scheme (the longest
/// registered schemes have about 30 characters); the cap also bounds the
/// backward look from each `:`.
pub const MAX_SCHEME_LEN: usize = 64;

/// The schemes taken without a following `//` by the default policy.
pub const SCHEMES_WITHOUT_SLASHES: &[&str] = &[
    "mailto", "urn", "tel", "sms", "data", "news", "geo", "magnet", "xmpp",
    "sip", "sips", "tag", "doi", "file",
];

/// Which schemes a finder accepts.
#[derive(Clone, Debug)]
pub(crate) enum SchemePolicy {
    /// Any scheme followed by `//`, plus [`SCHEMES_WITHOUT_SLASHES`]
    /// (not followed by another `:`, as in `std::io`).
    Default,
    /// Every syntactically valid scheme.
    Any,
    /// Only these (lowercase) schemes, with or without `//`.
    Only(Vec<Vec<u8>>),
}

impl SchemePolicy {
    /// Whether a URI with this scheme, followed by `rest`, is a
    /// candidate. `rest` may be short at the end of a buffer; the caller
    /// makes sure it holds at least two bytes unless the input ended.
    #[inline(always)]
    pub(crate) fn accepts(&self, scheme: &[u8], rest: &[u8]) -> bool {
        match self {
            SchemePolicy::Default => {
                rest.starts_with(b"//")
                    || (is_listed(scheme) && !rest.starts_with(b":"))
            }
            // `URL:` is Appendix C's label, not a scheme.
            SchemePolicy::Any => !scheme.eq_ignore_ascii_case(b"url"),
            SchemePolicy::Only(list) => {
                list.iter().any(|s| s.eq_ignore_ascii_case(scheme))
            }
        }
    }
}

/// A scheme of at most eight bytes as one little-endian word, each byte
/// `| 0x20`: on scheme characters that folds the capitals onto the
/// small letters and moves no other byte onto a letter.
const fn folded_word(scheme: &[u8]) -> u64 {
    let mut w = 0u64;
    let mut i = 0;
    while i < scheme.len() {
        w |= ((scheme[i] | 0x20) as u64) << (8 * i);
        i += 1;
    }
    w
}

/// [`folded_word`] of a scheme of three to six bytes, with two
/// overlapping loads instead of a loop.
#[inline(always)]
fn folded_word_3_to_6(s: &[u8]) -> u64 {
    debug_assert!((3..=6).contains(&s.len()));
    let n = s.len();
    let word = if n >= 4 {
        let head = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let tail =
            u32::from_le_bytes([s[n - 4], s[n - 3], s[n - 2], s[n - 1]]);
        u64::from(head) | u64::from(tail) << (8 * (n - 4))
    } else {
        u64::from(u16::from_le_bytes([s[0], s[1]])) | u64::from(s[2]) << 16
    };
    word | (0x2020_2020_2020 >> (8 * (6 - n)))
}

/// How many of [`SCHEMES_WITHOUT_SLASHES`] have `len` bytes.
const fn listed_of_len(len: usize) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < SCHEMES_WITHOUT_SLASHES.len() {
        let s = SCHEMES_WITHOUT_SLASHES[i].as_bytes();
        // `is_listed` looks only at three to six bytes.
        assert!(3 <= s.len() && s.len() <= 6);
        if s.len() == len {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The [`folded_word`]s of the schemes of [`SCHEMES_WITHOUT_SLASHES`]
/// that have `len` bytes.
const fn words_of_len<const N: usize>(len: usize) -> [u64; N] {
    let mut out = [0; N];
    let (mut n, mut i) = (0, 0);
    while i < SCHEMES_WITHOUT_SLASHES.len() {
        let s = SCHEMES_WITHOUT_SLASHES[i].as_bytes();
        if s.len() == len {
            out[n] = folded_word(s);
            n += 1;
        }
        i += 1;
    }
    out
}

/// [`SCHEMES_WITHOUT_SLASHES`] as [`folded_word`]s, by length, built from
/// the list.
const LISTED_3: [u64; listed_of_len(3)] = words_of_len(3);
const LISTED_4: [u64; listed_of_len(4)] = words_of_len(4);
const LISTED_5: [u64; listed_of_len(5)] = words_of_len(5);
const LISTED_6: [u64; listed_of_len(6)] = words_of_len(6);

/// Whether `scheme` is one of [`SCHEMES_WITHOUT_SLASHES`],
/// case-insensitively: one word and a few compares, cheaper than a
/// byte-wise lowercasing and slice compares.
#[inline(always)]
fn is_listed(scheme: &[u8]) -> bool {
    if !(3..=6).contains(&scheme.len()) {
        return false;
    }
    let w = folded_word_3_to_6(scheme);
    match scheme.len() {
        3 => LISTED_3.contains(&w),
        4 => LISTED_4.contains(&w),
        5 => LISTED_5.contains(&w),
        _ => LISTED_6.contains(&w),
    }
}

/// Finds the start of the scheme that ends at `colon`, looking no further
/// back than `lower`: the whole run of scheme characters, less any
/// leading bytes that cannot start a scheme (`...http:` gives `http`).
/// `None` when there is no scheme, when the run is longer than
/// [`MAX_SCHEME_LEN`], or when the run is the tail of a word: a letter
/// of a script that separates words by spaces stands right before it
/// (`schéma://` is not `ma://`), while `请看http://` is fine.
#[inline(always)]
pub(crate) fn scheme_start(
    hay: &[u8],
    colon: usize,
    lower: usize,
) -> Option<usize> {
    if let Some(start) = web_scheme_start(hay, colon, lower) {
        debug_assert_eq!(Some(start), scheme_start_general(hay, colon, lower));
        return Some(start);
    }
    scheme_start_general(hay, colon, lower)
}

/// The start of an `http` or `https` scheme (in any case) that ends at
/// `colon`, when the byte before it is ASCII and not a scheme character
/// (and not before `lower`): what [`scheme_start`] finds, for most URIs,
/// with one load and a compare. `None` leaves the case to the general
/// look back.
///
/// The point is less the instructions saved than the dependency cut:
/// everything confirmation reads next (the `URL:` label, the opening
/// delimiter) is addressed from the scheme's start, which here is
/// `colon` less a constant, known once the branch is predicted, instead
/// of at the end of a chain of vector compares, a bit scan and a table
/// load.
#[inline(always)]
fn web_scheme_start(hay: &[u8], colon: usize, lower: usize) -> Option<usize> {
    const HTTPS: u64 = u64::from_le_bytes(*b"\0\0\0https");
    const HTTP: u64 = u64::from_le_bytes(*b"\0\0\0\0http");
    let before: [u8; 8] =
        hay.get(colon.checked_sub(8)?..colon)?.try_into().ok()?;
    // `| 0x20` folds the capitals onto the small letters and moves no
    // other byte onto `h`, `t`, `p` or `s`.
    let word = u64::from_le_bytes(before);
    let folded = word | 0x2020_2020_2020_2020;
    let len = if folded >> 24 == HTTPS >> 24 {
        5
    } else if folded >> 32 == HTTP >> 32 {
        4
    } else {
        return None;
    };
    // From the word, not the array: indexing the array made the
    // compiler store it and load the byte back.
    let prev = (word >> (8 * (7 - len))) as u8;
    let start = colon - len;
    (start > lower && prev < 0x80 && !SCHEME.contains(prev)).then_some(start)
}

/// [`scheme_start`] for any scheme.
#[inline(always)]
fn scheme_start_general(
    hay: &[u8],
    colon: usize,
    lower: usize,
) -> Option<usize> {
    // Looking back one byte past the longest scheme tells an overlong
    // run from a scheme, with no length check inside the loop.
    let floor = lower.max(colon.saturating_sub(MAX_SCHEME_LEN + 1));
    let mut i = scheme_run_start(hay, floor, colon);
    super::bytes_read::add(colon - i);
    if colon - i > MAX_SCHEME_LEN {
        return None;
    }
    let run_start = i;
    while i < colon && !ALPHA.contains(hay[i]) {
        i += 1;
    }
    if i == colon {
        return None;
    }
    if i == run_start && i > 0 && hay[i - 1] >= 0x80 {
        let before = &hay[i.saturating_sub(4)..i];
        if let Some(c) = decode_last(before)
            && c.is_alphanumeric()
            && !is_spaceless_script(c)
        {
            return None;
        }
    }
    Some(i)
}

/// The start of the run of scheme characters that ends at `colon`, not
/// before `floor`: the portable loop, also the reference for the
/// vectorized one.
#[inline(always)]
pub(crate) fn scheme_run_start_portable(
    hay: &[u8],
    floor: usize,
    colon: usize,
) -> usize {
    match hay[floor..colon].iter().rposition(|&c| !SCHEME.contains(c)) {
        Some(p) => floor + p + 1,
        None => floor,
    }
}

/// [`scheme_run_start_portable`], looking at the 16 bytes before the
/// `:` at once with SSE2 (part of x86-64) where there are 16, as the
/// byte loop is costly on URI-dense text.
#[inline(always)]
fn scheme_run_start(hay: &[u8], floor: usize, colon: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
    if colon >= 16 {
        let block = colon - 16;
        // SAFETY: `block + 16 == colon <= hay.len()`; SSE2 is part of
        // x86-64.
        let other = unsafe { non_scheme_mask_sse2(hay, block) };
        if other != 0 {
            let last = block + 31 - other.leading_zeros() as usize;
            return floor.max(last + 1);
        }
        if floor >= block {
            return floor;
        }
        return scheme_run_start_portable(hay, floor, block);
    }
    scheme_run_start_portable(hay, floor, colon)
}

/// The bytes of `hay[at..at + 16]` that are not scheme characters, as
/// a bit mask.
///
/// # Safety
///
/// `at + 16 <= hay.len()`.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn non_scheme_mask_sse2(hay: &[u8], at: usize) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8,
        _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    debug_assert!(at + 16 <= hay.len());
    // SAFETY: `at + 16 <= hay.len()`, the caller's promise.
    let v = unsafe { _mm_loadu_si128(hay.as_ptr().add(at).cast::<__m128i>()) };
    let within = |v: __m128i, lo: u8, hi: u8| {
        // Bytes >= 0x80 are negative here, below every `lo`.
        _mm_and_si128(
            _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
            _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
        )
    };
    let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
    // `| 0x20` folds the capitals onto the small letters and moves no
    // other byte into `a..=z`.
    let alpha = within(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', b'z');
    let scheme = _mm_or_si128(
        _mm_or_si128(alpha, within(v, b'0', b'9')),
        _mm_or_si128(eq(b'+'), _mm_or_si128(eq(b'-'), eq(b'.'))),
    );
    !(_mm_movemask_epi8(scheme) as u32) & 0xFFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(s: &str) -> Option<&str> {
        let colon = s.rfind(':')?;
        scheme_start(s.as_bytes(), colon, 0).map(|i| &s[i..colon])
    }

    #[test]
    fn the_whole_run_is_the_scheme() {
        assert_eq!(start("xhttp:"), Some("xhttp"));
        assert_eq!(start("see git+ssh:"), Some("git+ssh"));
        assert_eq!(start("...http:"), Some("http"));
        assert_eq!(start("12:34"), None);
        assert_eq!(start("C:"), Some("C"));
        assert_eq!(start(":"), None);
        assert_eq!(start("schéma:"), None);
        assert_eq!(start("请看http:"), Some("http"));
        assert_eq!(start("«http:"), Some("http"));
        let long = "a".repeat(MAX_SCHEME_LEN + 1) + ":";
        assert_eq!(start(&long), None);
        let ok = "a".repeat(MAX_SCHEME_LEN) + ":";
        assert_eq!(start(&ok).map(str::len), Some(MAX_SCHEME_LEN));
    }

    /// The vectorized look back agrees with the byte loop for every
    /// byte at every distance from the `:`, with every floor.
    #[test]
    fn scheme_run_start_equals_portable() {
        let mut hay = vec![b'a'; 48];
        for b in 0..=255u8 {
            for at in 0..40 {
                hay.fill(b'h');
                hay[at] = b;
                for colon in [16usize, 17, 31, 40] {
                    for floor in [0, 3, colon.saturating_sub(16), colon - 2] {
                        assert_eq!(
                            scheme_run_start(&hay, floor, colon),
                            scheme_run_start_portable(&hay, floor, colon),
                            "byte {b} at {at}, colon {colon}, floor {floor}"
                        );
                    }
                }
            }
        }
    }

    /// The `http`/`https` shortcut finds what the general look back
    /// does whenever it decides: every byte before the scheme and at
    /// every place in it, every case, every `lower`.
    #[test]
    fn web_scheme_start_equals_general() {
        let mut decided = 0;
        for scheme in ["http", "https", "HTTP", "hTtPs", "ftp", "xhttps"] {
            for b in 0..=255u8 {
                for at in 0..scheme.len() + 4 {
                    let mut hay = b"0123456".to_vec();
                    hay.extend_from_slice(scheme.as_bytes());
                    hay.push(b':');
                    let colon = hay.len() - 1;
                    let at = colon - 1 - at.min(colon - 1);
                    hay[at] = b;
                    for lower in [0, at, at + 1, colon - 5, colon - 4] {
                        let fast = web_scheme_start(&hay, colon, lower);
                        let general = scheme_start_general(&hay, colon, lower);
                        if let Some(s) = fast {
                            decided += 1;
                            assert_eq!(Some(s), general, "{hay:?} {lower}");
                        }
                    }
                }
            }
        }
        assert!(decided > 500, "{decided}");
    }

    /// The word compare agrees with a plain case-insensitive compare,
    /// also on bytes that `| 0x20` would move onto a letter.
    #[test]
    fn listed_schemes_case_insensitively() {
        let words = [
            "mailto",
            "MAILTO",
            "MailTo",
            "urn",
            "Tel",
            "file",
            "sips",
            "sip",
            "magnet",
            "doi",
            "mailt0",
            "mai\x0cto",
            "ur",
            "mailtoo",
            "fil",
            "tel+",
            "urn.",
            "sms-",
            "ftp",
            "http",
            "xmpp",
        ];
        for w in words {
            let want = SCHEMES_WITHOUT_SLASHES
                .iter()
                .any(|s| s.eq_ignore_ascii_case(w));
            assert_eq!(is_listed(w.as_bytes()), want, "{w}");
        }
        for s in SCHEMES_WITHOUT_SLASHES {
            assert!(is_listed(s.to_ascii_uppercase().as_bytes()), "{s}");
        }
        let tables =
            LISTED_3.len() + LISTED_4.len() + LISTED_5.len() + LISTED_6.len();
        assert_eq!(tables, SCHEMES_WITHOUT_SLASHES.len());
    }

    #[test]
    fn policy() {
        let d = SchemePolicy::Default;
        assert!(d.accepts(b"HTTP", b"//a"));
        assert!(d.accepts(b"MailTo", b"a@b"));
        assert!(!d.accepts(b"INFO", b"root"));
        assert!(!d.accepts(b"std", b":io"));
        assert!(!d.accepts(b"urn", b":x"));
        assert!(SchemePolicy::Any.accepts(b"std", b":io"));
        assert!(!SchemePolicy::Any.accepts(b"URL", b"http://a"));
        let only = SchemePolicy::Only(vec![b"ftp".to_vec()]);
        assert!(only.accepts(b"FTP", b"//a") && !only.accepts(b"http", b"//"));
    }
}
