//! Links as browsers fetch them: the WHATWG URL Standard's parse of a link
//! against its base, by servo's `url` crate, for crawlers that must
//! request what a browser would. The default resolution stays RFC 3986's;
//! `docs/url-standard-differences.md` lists where the two differ, and why.

use std::fmt;

/// Why the URL Standard gives no URL for a link.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlStandardError {
    /// The base is no URL by the URL Standard.
    InvalidBase(url::ParseError),
    /// The link, against its base (or alone, without one), is no URL.
    Invalid(url::ParseError),
}

impl fmt::Display for UrlStandardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlStandardError::InvalidBase(e) => write!(f, "invalid base: {e}"),
            UrlStandardError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UrlStandardError {}

/// The URL Standard's parse of `link` against `base` (the basic URL
/// parser with a base URL, as a browser reads an `href`): its
/// serialization. In this mode `http:relpath` is relative for special
/// schemes, `http:///h/x` is `http://h/x`, `%zz` is kept as written,
/// hosts are IDNA-processed and default ports dropped.
///
/// ```
/// use uriscan::links::url_standard_target;
/// let base = Some("http://example.org/a/b");
/// assert_eq!(url_standard_target("http:c", base).unwrap(), "http://example.org/a/c");
/// assert_eq!(url_standard_target("HTTP://Bücher.example:80/%zz", None).unwrap(),
///     "http://xn--bcher-kva.example/%zz");
/// assert!(url_standard_target("http://a:port/", None).is_err());
/// ```
pub fn url_standard_target(
    link: &str,
    base: Option<&str>,
) -> Result<String, UrlStandardError> {
    let base = base
        .map(url::Url::parse)
        .transpose()
        .map_err(UrlStandardError::InvalidBase)?;
    url::Url::options()
        .base_url(base.as_ref())
        .parse(link)
        .map(String::from)
        .map_err(UrlStandardError::Invalid)
}
