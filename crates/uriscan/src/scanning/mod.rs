//! Finding URIs in bytes: candidate search, Appendix C delimiting,
//! validation by the syntax layer, and streaming.
//!
//! ```
//! use uriscan::scanning::Finder;
//! let text = br#"Yes, Jim, I found it under "http://www.w3.org/Addressing/",
//! but you can probably pick it up from <ftp://foo.example.com/rfc/>."#;
//! let found: Vec<_> = Finder::new().find_iter(text).collect();
//! assert_eq!(found[0].as_str(), "http://www.w3.org/Addressing/");
//! assert_eq!(found[1].as_str(), "ftp://foo.example.com/rfc/");
//! assert_eq!((found[1].line(), found[1].column()), (2, 39));
//! ```
//!
//! # The pipeline
//!
//! 1. `search`: find the `:` that may end a scheme, 64 (AVX-512 or AVX2)
//!    or 32 (SSE2) bytes at a time, filtering on the bytes around it;
//!    the same pass counts newlines, for line numbers, and prefetches
//!    ahead. A portable memchr-and-check loop elsewhere and under
//!    `--cfg uriscan_disable_simd`.
//! 2. `scheme`: extend backward over the scheme characters and apply
//!    the scheme policy.
//! 3. `confirm`: decide the candidate, through `common_shape` (the common
//!    shape, from the bit masks of the chunk after the `:`) or, when the
//!    lane leaves it, `delimit`: find where the URI ends, by the
//!    extraction policy and RFC 3986 Appendix C (quotes, `<...>` wrapped
//!    across lines, `URL:`, trailing punctuation, balanced brackets).
//!    What both give, and the Appendix C pieces they share, are in
//!    `candidate`.
//! 4. `validate`: a candidate the run scan saw in the common shape (ASCII,
//!    no `[`/`]`, one `#` at most, every `%` followed by two hex digits)
//!    needs only its authority checked (`quick_valid`, held to the parser
//!    by a property test); any other goes to the syntax layer's parser,
//!    the one grammar: when it fails, its error gives the longest valid
//!    prefix and whether the authority failed, and the cut rule below
//!    decides.
//!
//! # Extraction policy
//!
//! - Schemes: any scheme followed by `//`, plus
//!   [`SCHEMES_WITHOUT_SLASHES`], case-insensitive;
//!   [`FinderBuilder::any_scheme`] and [`FinderBuilder::schemes`] change
//!   that. `INFO:root:msg`, `12:34:56`, `C:\Users`, `Note:` and `std::io`
//!   are not URIs by default.
//! - A URI begins at the whole run of scheme characters before its `:`
//!   (less leading bytes that cannot start a scheme), but not right
//!   after a letter of a script that puts spaces between words
//!   (`schéma://x` gives nothing; `请看http://example.com/a` gives the
//!   URI). No URI starts inside a previous candidate's run.
//! - A bare URI ends at whitespace, at a byte that cannot be in a URI,
//!   at a non-ASCII character of the Unicode general categories `Pd Ps
//!   Pe Pi Pf Po` (punctuation but connectors: dashes, brackets, quotes,
//!   full stops and commas, the CJK brackets and full stops among them),
//!   `Zs Zl Zp` (spaces) or `Cc Cf` (controls, invisible format
//!   characters), or at a closing `)` or `]` that no opening one inside
//!   it balances; then trailing `. , ; : ! ? ' *` are cut. Every other
//!   character continues it, symbols included (`https://shop.example/£5`
//!   is one IRI), and RFC 3987 decides where it is allowed.
//! - After `"` or `'`, a URI ends at the matching quote, and trailing
//!   punctuation inside the quotes is kept; after `<`, at the `>`
//!   (whitespace inside is removed, see [`Match::rejoined`] and
//!   [`Match::hyphen_break`]; a wrap right after the scheme's `:` is not
//!   recognized); `URL:` before it is recorded in
//!   [`Trimmed::url_prefix`]. Inside the delimiters Unicode punctuation
//!   does not end a URI, only whitespace, controls and the delimiter do
//!   (`"https://ja.wikipedia.org/wiki/ジョン・スミス"` is whole). If the
//!   closing delimiter is missing, the URI is read as bare text.
//! - In markup, `href="..."` and `src='...'` are quoted values; a
//!   Markdown link's URI ends at the `)` that closes the link, which the
//!   bracket rule gives.
//! - Non-ASCII letters are kept as found (IRIs), or percent-encoded with
//!   [`FinderBuilder::ascii`].
//! - Only valid output, and no invented URIs (the cut rule): a valid
//!   candidate needs a host or a path (a query will do without an
//!   authority: `magnet:?xt=...`). A candidate with a bad part is
//!   - dropped when the bad part is in the authority (userinfo, host or
//!     port): `https://admin:secret@server:port/api`,
//!     `http://%s.example/`, `ftp://сервер:порт/файл` give nothing, as a
//!     prefix would name a host the text never meant;
//!   - otherwise cut to its longest valid prefix, less trailing
//!     punctuation ([`Trimmed::invalid_tail`] and [`Trimmed::suffix`]
//!     tell what was cut), but only if the cut leaves no `; , = & (`
//!     hanging (`http://a.example/search?q=%s` gives nothing) and, for a
//!     scheme with `//`, a host with a letter or digit (`file:///%s`
//!     gives nothing).
//!
//!   A `data:` URI must keep its comma and some data, or is dropped
//!   (`data:application/json;base64,{payload}` gives nothing).
//! - Limits: schemes up to [`MAX_SCHEME_LEN`] bytes; a run of
//!   [`MAX_URI_LEN`] bytes or more is dropped whole (scanning resumes at
//!   the next ASCII whitespace or control byte); the `>` of a `<...>` URI
//!   is looked for within [`MAX_ANGLE_LEN`] bytes.
//!
//! Scanning is linear in the input, and [`Finder::stream`] gives the same
//! matches as [`Finder::find_iter`] for any read size.

use std::borrow::Cow;

use crate::Span;

mod arch;
mod bytes_read;
mod candidate;
mod common_shape;
mod confirm;
mod cursor;
mod delimit;
mod finder;
mod kernels;
mod lines;
mod run_class;
mod scheme;
mod search;
mod stream;
mod unicode;
mod validate;

#[cfg(test)]
mod tests;

pub use delimit::{MAX_ANGLE_LEN, MAX_URI_LEN};
pub use finder::{DEFAULT_BUFFER_CAPACITY, FindIter, Finder, FinderBuilder};
pub use scheme::{MAX_SCHEME_LEN, SCHEMES_WITHOUT_SLASHES};
pub use stream::{BufferedText, StreamIter, StreamText, WithText};

/// What delimiting removed around a URI, so that a link checker can show
/// why and try the longer form.
///
/// Non-exhaustive: a new delimiting rule adds a field, and that must not
/// break a caller; read the fields, or start from `Trimmed::default()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
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
    /// A tail that is not valid URI syntax was cut from the path, query
    /// or fragment: the URI is the longest valid prefix of the candidate
    /// (less trailing punctuation), kept by the cut rule of the module
    /// docs. A candidate whose authority is bad is dropped instead.
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
    // Inlined: called out of line by the stream iterator for every
    // match, its result was copied back with wide loads over narrow
    // stores, a store-forwarding stall on URI-dense streams.
    #[inline]
    pub fn into_owned(self) -> Match<'static> {
        Match { uri: Cow::Owned(self.uri.into_owned()), ..self }
    }
}
