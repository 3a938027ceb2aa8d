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
    let mut target = String::new();
    StandardBase::new(base).target_into(
        link,
        encoding_rs::UTF_8,
        &mut target,
    )?;
    Ok(target)
}

/// A base parsed once by the URL Standard, for all the links of a
/// document: parsing it again for each link cost as much as the links.
#[derive(Debug)]
pub(crate) struct StandardBase {
    /// The base, none, or why it is no URL.
    url: Result<Option<url::Url>, url::ParseError>,
}

impl StandardBase {
    pub(crate) fn new(base: Option<&str>) -> StandardBase {
        StandardBase { url: base.map(url::Url::parse).transpose() }
    }

    /// The URL Standard's parse of `link`, of a document in `encoding`,
    /// against this base, in `target` (its old text dropped). The URL
    /// Standard percent-encodes a special URL's query in the document's
    /// encoding (its "query state"), and the path in UTF-8.
    pub(crate) fn target_into(
        &self,
        link: &str,
        encoding: &'static encoding_rs::Encoding,
        target: &mut String,
    ) -> Result<(), UrlStandardError> {
        let base = self
            .url
            .as_ref()
            .map_err(|e| UrlStandardError::InvalidBase(*e))?;
        let encode = higher_ranked(move |s| encode_query(encoding, s));
        let options = url::Url::options().base_url(base.as_ref());
        // encoding_rs's UTF-8 (and UTF-16, whose output encoding is UTF-8)
        // needs no override.
        let options = if encoding.output_encoding() == encoding_rs::UTF_8 {
            options
        } else {
            options.encoding_override(Some(&encode))
        };
        // The parser's own serialization, taken rather than copied.
        *target =
            options.parse(link).map_err(UrlStandardError::Invalid)?.into();
        Ok(())
    }
}

/// `f`, typed as the override wants it: the result borrows its argument,
/// whatever the argument's lifetime (a closure alone infers one lifetime).
fn higher_ranked<F>(f: F) -> F
where
    F: for<'s> Fn(&'s str) -> std::borrow::Cow<'s, [u8]>,
{
    f
}

/// The bytes of a query in `encoding`, as the URL Standard's "percent-encode
/// after encoding" gives them: a character the encoding lacks becomes
/// `%26%23` + its code point in decimal + `%3B` (an HTML numeric character
/// reference, already percent-encoded: the parser leaves `%` and digits
/// as they are).
fn encode_query<'s>(
    encoding: &'static encoding_rs::Encoding,
    query: &'s str,
) -> std::borrow::Cow<'s, [u8]> {
    use encoding_rs::EncoderResult;
    use std::fmt::Write as _;
    if query.is_ascii() && encoding.is_ascii_compatible() {
        return std::borrow::Cow::Borrowed(query.as_bytes());
    }
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(query.len() + 16);
    let mut buf = [0u8; 1024];
    let mut rest = query;
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => {
                let mut ncr = String::new();
                let _ = write!(ncr, "%26%23{}%3B", u32::from(c));
                out.extend_from_slice(ncr.as_bytes());
            }
        }
    }
    std::borrow::Cow::Owned(out)
}
