//! The validating parser: RFC 3986 Appendix A, one pass over the input,
//! no allocation, borrowed component spans.
//!
//! INTERIM: the body of `Parser::parse` below is only the Appendix B split,
//! without validation, so that the rest of the crate can build against the
//! API while the real parser is written. The types and signatures are the
//! contract.

use std::fmt;

use crate::Span;

/// Which top-level rule an input matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (3):
    /// the reference has a scheme.
    Uri,
    /// `relative-ref = relative-part [ "?" query ] [ "#" fragment ]` (4.2).
    Relative,
}

/// The kind of a `host` (3.2.2), by the first-match rule of that section:
/// a host that matches `IPv4address` is one, even though it also matches
/// `reg-name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`
    Ipv4,
    /// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"` with an IPv6
    /// address inside.
    Ipv6,
    /// `IP-literal` with `IPvFuture` inside.
    IpvFuture,
    /// `reg-name = *( unreserved / pct-encoded / sub-delims )`, possibly
    /// empty.
    RegName,
}

impl HostKind {
    /// The name used in JSON output: `ipv4`, `ipv6`, `ipvfuture`,
    /// `reg-name`.
    pub fn as_str(self) -> &'static str {
        match self {
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
            HostKind::RegName => "reg-name",
        }
    }
}

/// What a parse error found wrong. The `index` of a [`ParseError`] points
/// at the first byte that could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A byte that no rule allows at that position.
    UnexpectedByte,
    /// A `%` not followed by two hex digits.
    InvalidPctEncoding,
    /// A scheme was required (`URI`, `absolute-URI`) and is missing or
    /// malformed.
    InvalidScheme,
    /// A bracketed `IP-literal` that is not a valid IPv6 address or
    /// IPvFuture.
    InvalidIpLiteral,
    /// A port with a byte that is not a digit.
    InvalidPort,
    /// A fragment in an `absolute-URI`.
    UnexpectedFragment,
    /// A `:` in the first segment of a relative-path reference (4.2).
    ColonInFirstSegment,
    /// A path beginning with `//` where there is no authority.
    PathStartsWithDoubleSlash,
    /// A non-ASCII character that is not allowed (not an IRI, or not
    /// `ucschar`/`iprivate` where it stands).
    NonAscii,
}

/// A reference that failed to parse: what was wrong and at which byte
/// offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    index: usize,
    kind: ErrorKind,
}

impl ParseError {
    pub(crate) fn new(index: usize, kind: ErrorKind) -> ParseError {
        ParseError { index, kind }
    }

    /// The byte offset of the first byte that could not be taken.
    pub fn index(&self) -> usize {
        self.index
    }

    /// What was wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::UnexpectedByte => "unexpected character",
            ErrorKind::InvalidPctEncoding => {
                "percent sign not followed by two hex digits"
            }
            ErrorKind::InvalidScheme => "missing or invalid scheme",
            ErrorKind::InvalidIpLiteral => "invalid IP literal",
            ErrorKind::InvalidPort => "invalid port",
            ErrorKind::UnexpectedFragment => "fragment not allowed here",
            ErrorKind::ColonInFirstSegment => {
                "colon in the first segment of a relative path"
            }
            ErrorKind::PathStartsWithDoubleSlash => {
                "path starts with '//' without an authority"
            }
            ErrorKind::NonAscii => "non-ASCII character not allowed here",
        };
        write!(f, "{what} at byte {}", self.index)
    }
}

impl std::error::Error for ParseError {}

/// A parsed URI reference: the input and the spans of its components.
///
/// Absent is not empty: `http://h?` has `query() == Some("")`, `http://h`
/// has `query() == None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UriRef<'a> {
    pub(crate) input: &'a str,
    pub(crate) kind: RefKind,
    pub(crate) scheme: Option<Span>,
    pub(crate) authority: Option<Span>,
    pub(crate) userinfo: Option<Span>,
    pub(crate) host: Option<Span>,
    pub(crate) host_kind: Option<HostKind>,
    pub(crate) port: Option<Span>,
    pub(crate) path: Span,
    pub(crate) query: Option<Span>,
    pub(crate) fragment: Option<Span>,
}

impl<'a> UriRef<'a> {
    #[inline]
    fn get(&self, span: Option<Span>) -> Option<&'a str> {
        span.map(|s| &self.input[s.range()])
    }

    /// The whole reference, as given.
    pub fn as_str(&self) -> &'a str {
        self.input
    }
    /// Whether it is a `URI` (has a scheme) or a `relative-ref`.
    pub fn kind(&self) -> RefKind {
        self.kind
    }
    /// The scheme, without its `:`.
    pub fn scheme(&self) -> Option<&'a str> {
        self.get(self.scheme)
    }
    /// The authority, without the leading `//`.
    pub fn authority(&self) -> Option<&'a str> {
        self.get(self.authority)
    }
    /// The userinfo, without its `@`.
    pub fn userinfo(&self) -> Option<&'a str> {
        self.get(self.userinfo)
    }
    /// The host as written (an IP literal keeps its brackets); present
    /// whenever the authority is.
    pub fn host(&self) -> Option<&'a str> {
        self.get(self.host)
    }
    /// The kind of the host.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.host_kind
    }
    /// The port digits, without the `:` (`Some("")` for `http://h:/`).
    pub fn port(&self) -> Option<&'a str> {
        self.get(self.port)
    }
    /// The path; always present, possibly empty.
    pub fn path(&self) -> &'a str {
        &self.input[self.path.range()]
    }
    /// The query, without its `?`.
    pub fn query(&self) -> Option<&'a str> {
        self.get(self.query)
    }
    /// The fragment, without its `#`.
    pub fn fragment(&self) -> Option<&'a str> {
        self.get(self.fragment)
    }

    /// The span of the scheme in the input.
    pub fn scheme_span(&self) -> Option<Span> {
        self.scheme
    }
    /// The span of the authority in the input.
    pub fn authority_span(&self) -> Option<Span> {
        self.authority
    }
    /// The span of the userinfo in the input.
    pub fn userinfo_span(&self) -> Option<Span> {
        self.userinfo
    }
    /// The span of the host in the input.
    pub fn host_span(&self) -> Option<Span> {
        self.host
    }
    /// The span of the port in the input.
    pub fn port_span(&self) -> Option<Span> {
        self.port
    }
    /// The span of the path in the input.
    pub fn path_span(&self) -> Span {
        self.path
    }
    /// The span of the query in the input.
    pub fn query_span(&self) -> Option<Span> {
        self.query
    }
    /// The span of the fragment in the input.
    pub fn fragment_span(&self) -> Option<Span> {
        self.fragment
    }
}

/// Parses URI references by the rules of Appendix A, optionally as IRIs
/// (RFC 3987).
///
/// ```
/// use uriscan::syntax::Parser;
/// let r = Parser::new().parse_uri("http://example.com/a?q").unwrap();
/// assert_eq!(r.scheme(), Some("http"));
/// assert_eq!(r.query(), Some("q"));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Parser {
    iri: bool,
}

impl Parser {
    /// A parser for plain RFC 3986 references (ASCII only).
    pub const fn new() -> Parser {
        Parser { iri: false }
    }

    /// Whether to accept IRIs (RFC 3987): `ucschar` in every component that
    /// takes `unreserved`, and `iprivate` in the query.
    pub const fn iri(self, yes: bool) -> Parser {
        Parser { iri: yes }
    }

    /// `URI-reference = URI / relative-ref` (4.1).
    pub fn parse_reference<'a>(
        &self,
        s: &'a str,
    ) -> Result<UriRef<'a>, ParseError> {
        self.parse(s)
    }

    /// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (3).
    pub fn parse_uri<'a>(&self, s: &'a str) -> Result<UriRef<'a>, ParseError> {
        let r = self.parse(s)?;
        if r.kind != RefKind::Uri {
            return Err(ParseError::new(0, ErrorKind::InvalidScheme));
        }
        Ok(r)
    }

    /// `absolute-URI = scheme ":" hier-part [ "?" query ]` (4.3).
    pub fn parse_absolute<'a>(
        &self,
        s: &'a str,
    ) -> Result<UriRef<'a>, ParseError> {
        let r = self.parse_uri(s)?;
        if let Some(f) = r.fragment {
            return Err(ParseError::new(
                f.start - 1,
                ErrorKind::UnexpectedFragment,
            ));
        }
        Ok(r)
    }

    /// `relative-ref = relative-part [ "?" query ] [ "#" fragment ]` (4.2).
    pub fn parse_relative<'a>(
        &self,
        s: &'a str,
    ) -> Result<UriRef<'a>, ParseError> {
        let r = self.parse(s)?;
        if r.kind != RefKind::Relative {
            return Err(ParseError::new(0, ErrorKind::UnexpectedByte));
        }
        Ok(r)
    }

    // INTERIM: Appendix B split only; to be replaced by the validating
    // parser.
    fn parse<'a>(&self, s: &'a str) -> Result<UriRef<'a>, ParseError> {
        let b = s.as_bytes();
        let mut i = 0;
        let mut scheme = None;
        let first_delim = b
            .iter()
            .position(|&c| matches!(c, b':' | b'/' | b'?' | b'#'))
            .unwrap_or(b.len());
        if first_delim > 0 && b.get(first_delim) == Some(&b':') {
            scheme = Some(Span::new(0, first_delim));
            i = first_delim + 1;
        }
        let (mut authority, mut host) = (None, None);
        if b[i..].starts_with(b"//") {
            let start = i + 2;
            let end = b[start..]
                .iter()
                .position(|&c| matches!(c, b'/' | b'?' | b'#'))
                .map_or(b.len(), |p| start + p);
            authority = Some(Span::new(start, end));
            host = authority;
            i = end;
        }
        let path_end = b[i..]
            .iter()
            .position(|&c| matches!(c, b'?' | b'#'))
            .map_or(b.len(), |p| i + p);
        let path = Span::new(i, path_end);
        i = path_end;
        let mut query = None;
        if b.get(i) == Some(&b'?') {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'#')
                .map_or(b.len(), |p| i + p);
            query = Some(Span::new(i + 1, end));
            i = end;
        }
        let fragment =
            (b.get(i) == Some(&b'#')).then(|| Span::new(i + 1, b.len()));
        Ok(UriRef {
            input: s,
            kind: if scheme.is_some() {
                RefKind::Uri
            } else {
                RefKind::Relative
            },
            scheme,
            authority,
            userinfo: None,
            host,
            host_kind: host.map(|_| HostKind::RegName),
            port: None,
            path,
            query,
            fragment,
        })
    }
}

/// `URI-reference` with a plain (non-IRI) [`Parser`].
pub fn parse_reference(s: &str) -> Result<UriRef<'_>, ParseError> {
    Parser::new().parse_reference(s)
}

/// `URI` with a plain (non-IRI) [`Parser`].
pub fn parse_uri(s: &str) -> Result<UriRef<'_>, ParseError> {
    Parser::new().parse_uri(s)
}
