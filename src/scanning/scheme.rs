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

/// Whether `scheme` is one of [`SCHEMES_WITHOUT_SLASHES`]; by length
/// first, as most words before a `:` are not.
#[inline]
fn is_listed(scheme: &[u8]) -> bool {
    if !(3..=6).contains(&scheme.len()) {
        return false;
    }
    let mut lower = [0u8; 6];
    for (l, &c) in lower.iter_mut().zip(scheme) {
        *l = c.to_ascii_lowercase();
    }
    SCHEMES_WITHOUT_SLASHES
        .iter()
        .any(|s| s.as_bytes() == &lower[..scheme.len()])
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
    // Looking back one byte past the longest scheme tells an overlong
    // run from a scheme, with no length check inside the loop.
    let floor = lower.max(colon.saturating_sub(MAX_SCHEME_LEN + 1));
    let mut i =
        match hay[floor..colon].iter().rposition(|&c| !SCHEME.contains(c)) {
            Some(p) => floor + p + 1,
            None => floor,
        };
    super::work::add(colon - i);
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
