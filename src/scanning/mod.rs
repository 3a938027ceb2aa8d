//! Finding URIs in bytes: candidate search, Appendix C delimiting,
//! validation by the syntax layer, and streaming.
//!
//! INTERIM: the finder below is a naive placeholder (`scheme://` runs up to
//! whitespace) so that the command line can be built against the API while
//! the real scanner is written. The public types and signatures are the
//! contract; the real implementation may add to them.

use std::borrow::Cow;

use crate::Span;

/// What delimiting removed around a URI, so that a link checker can show
/// why and try the longer form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trimmed {
    /// A `URL:` prefix (Appendix C) before the URI, as a span of the
    /// haystack.
    pub url_prefix: Option<Span>,
    /// The bytes cut from the end of the candidate, as a span of the
    /// haystack.
    pub suffix: Option<Span>,
    /// Trailing punctuation was cut.
    pub punctuation: bool,
    /// An unbalanced closing bracket was cut.
    pub unbalanced_bracket: bool,
    /// A tail that is not valid URI syntax was cut (the URI is the longest
    /// valid prefix of the candidate).
    pub invalid_tail: bool,
}

impl Trimmed {
    /// Whether delimiting removed anything.
    pub fn is_empty(&self) -> bool {
        self.url_prefix.is_none() && self.suffix.is_none()
    }
}

/// One URI found in a haystack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match<'h> {
    uri: Cow<'h, str>,
    span: Span,
    scheme_len: usize,
    line: u64,
    column: u64,
    rejoined: bool,
    hyphen_break: bool,
    trimmed: Trimmed,
}

impl<'h> Match<'h> {
    /// The URI, as found (an IRI keeps its non-ASCII characters unless the
    /// finder was built with `ascii(true)`). Borrowed from the haystack
    /// unless it was rejoined across whitespace or converted.
    pub fn as_str(&self) -> &str {
        &self.uri
    }
    /// The URI, owned or borrowed.
    pub fn uri(&self) -> &Cow<'h, str> {
        &self.uri
    }
    /// The URI's scheme.
    pub fn scheme(&self) -> &str {
        &self.uri[..self.scheme_len]
    }
    /// The byte range of the raw text the URI was taken from (for a
    /// wrapped `<...>` URI, from its first to its last byte, whitespace
    /// included; delimiters and trimmed text excluded).
    pub fn span(&self) -> Span {
        self.span
    }
    /// The 1-based line of the first byte of the URI.
    pub fn line(&self) -> u64 {
        self.line
    }
    /// The 1-based column of the first byte of the URI, counted in bytes.
    pub fn column(&self) -> u64 {
        self.column
    }
    /// Whether the URI was rejoined across whitespace (Appendix C); the
    /// URI is then owned and differs from the raw span.
    pub fn rejoined(&self) -> bool {
        self.rejoined
    }
    /// Whether a line break followed a hyphen inside the URI: the hyphen
    /// was kept, but it may have been added by a typesetter (Appendix C).
    pub fn hyphen_break(&self) -> bool {
        self.hyphen_break
    }
    /// What delimiting removed.
    pub fn trimmed(&self) -> &Trimmed {
        &self.trimmed
    }
    /// The match with its URI owned, detached from the haystack.
    pub fn into_owned(self) -> Match<'static> {
        Match { uri: Cow::Owned(self.uri.into_owned()), ..self }
    }
}

/// Builds a [`Finder`]: set options with `&mut self` setters, then
/// [`build`](FinderBuilder::build).
#[derive(Clone, Debug, Default)]
pub struct FinderBuilder {
    schemes: Option<Vec<String>>,
    any_scheme: bool,
    ascii: bool,
}

impl FinderBuilder {
    /// A builder with the default extraction policy.
    pub fn new() -> FinderBuilder {
        FinderBuilder::default()
    }
    /// Restrict matches to these schemes (case-insensitive).
    pub fn schemes<I, S>(&mut self, schemes: I) -> &mut FinderBuilder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.schemes = Some(
            schemes
                .into_iter()
                .map(|s| s.as_ref().to_ascii_lowercase())
                .collect(),
        );
        self
    }
    /// Accept every syntactically valid scheme with a non-empty rest.
    pub fn any_scheme(&mut self, yes: bool) -> &mut FinderBuilder {
        self.any_scheme = yes;
        self
    }
    /// Emit IRIs in their URI form (RFC 3987 3.1).
    pub fn ascii(&mut self, yes: bool) -> &mut FinderBuilder {
        self.ascii = yes;
        self
    }
    /// The finder.
    pub fn build(&self) -> Finder {
        Finder { config: self.clone() }
    }
}

/// Finds URIs in bytes. Configure once, reuse from any thread.
///
/// ```
/// use uriscan::scanning::Finder;
/// let finder = Finder::new();
/// let uris: Vec<_> = finder
///     .find_iter(b"see http://example.com/ and more")
///     .map(|m| m.as_str().to_string())
///     .collect();
/// assert_eq!(uris, ["http://example.com/"]);
/// ```
#[derive(Clone, Debug)]
pub struct Finder {
    config: FinderBuilder,
}

impl Default for Finder {
    fn default() -> Finder {
        Finder::new()
    }
}

impl Finder {
    /// A finder with the default extraction policy.
    pub fn new() -> Finder {
        FinderBuilder::new().build()
    }
    /// A builder for a finder with another policy.
    pub fn builder() -> FinderBuilder {
        FinderBuilder::new()
    }
    /// The matches in `haystack`, in order.
    pub fn find_iter<'f, 'h>(
        &'f self,
        haystack: &'h [u8],
    ) -> FindIter<'f, 'h> {
        FindIter { finder: self, haystack, pos: 0 }
    }
}

/// The iterator of [`Finder::find_iter`].
#[derive(Debug)]
pub struct FindIter<'f, 'h> {
    finder: &'f Finder,
    haystack: &'h [u8],
    pos: usize,
}

impl<'h> Iterator for FindIter<'_, 'h> {
    type Item = Match<'h>;

    // INTERIM placeholder.
    fn next(&mut self) -> Option<Match<'h>> {
        let _ = &self.finder.config;
        let h = self.haystack;
        loop {
            let rel = memchr::memmem::find(&h[self.pos..], b"://")?;
            let colon = self.pos + rel;
            let mut start = colon;
            while start > 0 && h[start - 1].is_ascii_alphabetic() {
                start -= 1;
            }
            let mut end = colon + 3;
            while end < h.len()
                && h[end] > b' '
                && h[end] < 0x7f
                && h[end] != b'"'
            {
                end += 1;
            }
            self.pos = end;
            if start == colon {
                continue;
            }
            let uri = std::str::from_utf8(&h[start..end]).ok()?;
            let line =
                h[..start].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let bol = h[..start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            return Some(Match {
                uri: Cow::Borrowed(uri),
                span: Span::new(start, end),
                scheme_len: colon - start,
                line,
                column: (start - bol + 1) as u64,
                rejoined: false,
                hyphen_break: false,
                trimmed: Trimmed::default(),
            });
        }
    }
}
