//! The validating parser: RFC 3986 Appendix A ("Collected ABNF for URI"),
//! one pass over the input, no allocation, borrowed component spans.
//!
//! Where to find each rule: section 3 ("Syntax Components") for `URI` and
//! `hier-part`, 3.1 "Scheme", 3.2 "Authority" with 3.2.1 "User
//! Information", 3.2.2 "Host" (IP literals and IPv4 in [`host`]) and
//! 3.2.3 "Port", 3.3 "Path", 3.4 "Query", 3.5 "Fragment", 4.1
//! "URI Reference", 4.2 "Relative Reference", 4.3 "Absolute URI"; section
//! 2 ("Characters") for the byte classes in [`chars`]; RFC 3987 section
//! 2.2 for the IRI rules in [`iri`].
//!
//! The parser reads each byte once (the IP literal and a candidate IPv4
//! host are matched again by their own small rules), with the byte
//! classes of [`chars`] as lookup tables. A `%` or a non-ASCII byte leaves
//! the table loop for a slow path.
//!
//! # Errors and the longest valid prefix
//!
//! Every error carries the byte offset where the input stopped matching.
//! For every [`ErrorKind`] except [`ErrorKind::InvalidScheme`], the input
//! before that offset, `&input[..error.index()]`, is itself accepted by
//! the same entry point: the offset is always on a character boundary, and
//! errors in the authority are reported so that this holds (a bad port
//! before whatever follows it, a bad IP literal at its `[`). A scanner can
//! cut a bad candidate to its longest valid prefix with it; the scanner
//! also learns whether the error is inside the authority, where it drops
//! the candidate instead.

use std::fmt;

use super::chars::{self, Table};
use super::{host, iri};
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

/// What a parse error found wrong. The `index` of a [`ParseError`] points
/// at the first byte that could not be taken; each kind says which byte
/// that is. For every kind but [`InvalidScheme`](ErrorKind::InvalidScheme)
/// the input before the index is valid by the same rule.
///
/// ```
/// use uriscan::syntax::{ErrorKind, parse_reference};
/// let e = parse_reference("http://h/a b").unwrap_err();
/// assert_eq!((e.kind(), e.index()), (ErrorKind::UnexpectedByte, 10));
/// assert!(parse_reference("http://h/a").is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A byte that no rule allows at that position; the index is that
    /// byte. In the authority: a byte that can end neither the host nor
    /// the authority (`http://a^b`, a second `@`, a `]` outside a
    /// literal, a byte after an IP literal other than `:`, `/`, `?`, `#`).
    UnexpectedByte,
    /// A `%` not followed by two hex digits; the index is the `%`.
    InvalidPctEncoding,
    /// A scheme was required (`URI`, `absolute-URI`) and is missing or
    /// malformed. The index is the first byte that cannot continue the
    /// scheme (0 if the input does not start with a letter). Here the
    /// input before the index is not a URI.
    InvalidScheme,
    /// A bracketed `IP-literal` that is not a valid IPv6 address or
    /// IPvFuture, or has no `]`; the index is the opening `[`.
    InvalidIpLiteral,
    /// A port with a byte that is not a digit and does not end the
    /// authority; the index is that byte (with no `@` in the authority,
    /// anything after its first `:` is the port: `http://a:b` has a bad
    /// port at byte 9).
    InvalidPort,
    /// A fragment in an `absolute-URI`; the index is the `#`.
    UnexpectedFragment,
    /// A `:` in the first segment of a relative-path reference (4.2),
    /// where it would read as a scheme; the index is the `:`.
    ColonInFirstSegment,
    /// A non-ASCII character that is not allowed (not an IRI, or not
    /// `ucschar`/`iprivate` where it stands); the index is the first byte
    /// of the character.
    NonAscii,
}

/// A reference that failed to parse: what was wrong and at which byte
/// offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    index: usize,
    kind: ErrorKind,
    /// The error is inside the authority (userinfo, host or port): the
    /// input before it has no whole host to stand on.
    in_authority: bool,
}

impl ParseError {
    pub(crate) fn new(index: usize, kind: ErrorKind) -> ParseError {
        ParseError { index, kind, in_authority: false }
    }

    /// Whether the error is inside the authority (3.2: userinfo, host or
    /// port), rather than in the scheme, the path, the query or the
    /// fragment. The scanner drops a candidate whose authority is bad
    /// instead of cutting it (its prefix would name another host).
    pub(crate) fn in_authority(&self) -> bool {
        self.in_authority
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
/// use uriscan::syntax::{HostKind, Parser};
/// let r = Parser::new().parse_uri("http://u@[::1]:80/a?q").unwrap();
/// assert_eq!(r.scheme(), Some("http"));
/// assert_eq!(r.userinfo(), Some("u"));
/// assert_eq!(r.host(), Some("[::1]"));
/// assert_eq!(r.host_kind(), Some(HostKind::Ipv6));
/// assert_eq!(r.port(), Some("80"));
/// assert_eq!(r.query(), Some("q"));
/// assert_eq!(r.fragment(), None);
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
    ///
    /// ```
    /// use uriscan::syntax::{ErrorKind, Parser};
    /// let e = Parser::new().parse_reference("/ü").unwrap_err();
    /// assert_eq!((e.kind(), e.index()), (ErrorKind::NonAscii, 1));
    /// assert!(Parser::new().iri(true).parse_reference("/ü").is_ok());
    /// ```
    pub const fn iri(self, yes: bool) -> Parser {
        Parser { iri: yes }
    }

    /// `URI-reference = URI / relative-ref` (4.1).
    ///
    /// An input that starts with a valid scheme and `:` is a `URI`;
    /// anything else is tried as a `relative-ref`, so `1a:b` fails with
    /// [`ErrorKind::ColonInFirstSegment`].
    pub fn parse_reference<'a>(
        &self,
        s: &'a str,
    ) -> Result<UriRef<'a>, ParseError> {
        self.parse(s, Rule::Reference)
    }

    /// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (3).
    ///
    /// ```
    /// use uriscan::syntax::{ErrorKind, Parser};
    /// let e = Parser::new().parse_uri("//host/").unwrap_err();
    /// assert_eq!((e.kind(), e.index()), (ErrorKind::InvalidScheme, 0));
    /// ```
    pub fn parse_uri<'a>(&self, s: &'a str) -> Result<UriRef<'a>, ParseError> {
        self.parse(s, Rule::Uri)
    }

    /// `absolute-URI = scheme ":" hier-part [ "?" query ]` (4.3).
    pub fn parse_absolute<'a>(
        &self,
        s: &'a str,
    ) -> Result<UriRef<'a>, ParseError> {
        self.parse(s, Rule::Absolute)
    }

    /// `relative-ref = relative-part [ "?" query ] [ "#" fragment ]` (4.2).
    ///
    /// No scheme is looked for, so `a:b` fails with
    /// [`ErrorKind::ColonInFirstSegment`] at byte 1.
    pub fn parse_relative<'a>(
        &self,
        s: &'a str,
    ) -> Result<UriRef<'a>, ParseError> {
        self.parse(s, Rule::Relative)
    }
}

/// Which rule of Appendix A a parse must match.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    Reference,
    Uri,
    Absolute,
    Relative,
}

/// The byte classes the hot loops scan, without `%`: a `%` stops the
/// fast loop and is checked for its two hex digits on the slow path.
const fn no_pct(t: Table) -> Table {
    t.without(Table::new(b"%"))
}

/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )` (3.2.1)
const USERINFO_BYTES: Table = no_pct(chars::USERINFO);
/// `reg-name = *( unreserved / pct-encoded / sub-delims )` (3.2.2)
const REG_NAME_BYTES: Table = no_pct(chars::REG_NAME);
/// `path-abempty = *( "/" segment )`, `segment = *pchar` (3.3): every
/// path is a run of `pchar` and `/`, once its start is checked.
const PATH_BYTES: Table = no_pct(chars::PATH);
/// `segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )`
/// (3.3): the first segment of a `path-noscheme`.
const SEGMENT_NZ_NC_BYTES: Table = no_pct(chars::SEGMENT_NZ_NC);
/// `query = *( pchar / "/" / "?" )` (3.4), also `fragment` (3.5).
const QUERY_BYTES: Table = no_pct(chars::QUERY);

/// The authority found after `//`.
#[derive(Clone, Copy)]
struct Authority {
    start: usize,
    userinfo: Option<Span>,
    host: Span,
    host_kind: HostKind,
    port: Option<Span>,
    end: usize,
}

/// Whether `b` may follow an authority: the start of `path-abempty`,
/// `query` or `fragment`.
#[inline(always)]
fn ends_authority(b: u8) -> bool {
    matches!(b, b'/' | b'?' | b'#')
}

/// The end of the run of digits starting at `i`.
#[inline(always)]
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && chars::DIGIT.contains(b[i]) {
        i += 1;
    }
    i
}

impl Parser {
    /// Checks that `s` is a `URI-reference` (4.1) without building the
    /// component spans. Accepts and rejects exactly what
    /// [`parse_reference`](Parser::parse_reference) does, with the same
    /// error.
    ///
    /// ```
    /// use uriscan::syntax::Parser;
    /// let p = Parser::new();
    /// assert!(p.validate("http://[::1]:8080/a?b#c").is_ok());
    /// assert_eq!(p.validate("http://a b").unwrap_err().index(), 8);
    /// ```
    #[inline]
    pub fn validate(&self, s: &str) -> Result<(), ParseError> {
        self.parse(s, Rule::Reference).map(|_| ())
    }

    /// Checks that `s` is a `URI` (3), as [`parse_uri`](Parser::parse_uri)
    /// does, without building the component spans.
    #[inline]
    pub fn validate_uri(&self, s: &str) -> Result<(), ParseError> {
        self.parse(s, Rule::Uri).map(|_| ())
    }

    /// Takes the bytes of `table` (which holds no `%`), `pct-encoded`
    /// triplets, and, for an IRI, `ucschar` (and `iprivate` when
    /// `private`), from `i` on. Returns the index of the first byte not
    /// taken, or the error of a broken `%` or a non-ASCII character that
    /// is not allowed.
    #[inline(always)]
    fn scan(
        &self,
        b: &[u8],
        mut i: usize,
        table: &Table,
        private: bool,
    ) -> Result<usize, ParseError> {
        loop {
            // Four bytes a step while they last: most URI bytes are in
            // the class, so the exit test is taken once per run.
            while i + 4 <= b.len()
                && table.contains(b[i])
                && table.contains(b[i + 1])
                && table.contains(b[i + 2])
                && table.contains(b[i + 3])
            {
                i += 4;
            }
            while i < b.len() && table.contains(b[i]) {
                i += 1;
            }
            let Some(&c) = b.get(i) else { return Ok(i) };
            if c == b'%' {
                if !chars::is_pct_encoded(&b[i..]) {
                    return Err(ParseError::new(
                        i,
                        ErrorKind::InvalidPctEncoding,
                    ));
                }
                i += 3;
            } else if c >= 0x80 {
                i += self.non_ascii(b, i, private)?;
            } else {
                return Ok(i);
            }
        }
    }

    /// The length of the non-ASCII character at `b[i]` if the parser takes
    /// it there (`iunreserved`, or `iprivate` in a query).
    #[cold]
    fn non_ascii(
        &self,
        b: &[u8],
        i: usize,
        private: bool,
    ) -> Result<usize, ParseError> {
        if self.iri
            && let iri::Decoded::Char(c, len) = iri::decode(&b[i..])
            && (iri::is_ucschar(c) || (private && iri::is_iprivate(c)))
        {
            return Ok(len);
        }
        Err(ParseError::new(i, ErrorKind::NonAscii))
    }

    /// `authority = [ userinfo "@" ] host [ ":" port ]` (3.2), from
    /// `start` (just after the `//`).
    #[inline(always)]
    fn authority(
        &self,
        b: &[u8],
        start: usize,
    ) -> Result<Authority, ParseError> {
        let mut userinfo = None;
        let mut host_start = start;
        if b.get(start) != Some(&b'[') {
            // One scan with the userinfo class, which holds the reg-name
            // class and ":": it ends at an "@" (so it was the userinfo) or
            // it covered `reg-name [ ":" port ]`.
            let scanned = self.scan(b, start, &USERINFO_BYTES, false);
            let end = match scanned {
                Ok(end) => end,
                Err(e) => e.index,
            };
            if scanned.is_ok() && b.get(end) == Some(&b'@') {
                userinfo = Some(Span::new(start, end));
                host_start = end + 1;
            } else {
                // No userinfo: whatever follows the first ":" is the port,
                // and a bad byte there is a bad port, reported at the
                // first non-digit so that the input before it is valid.
                let colon = memchr::memchr(b':', &b[start..end]);
                let ends = scanned.is_ok()
                    && (end == b.len() || ends_authority(b[end]));
                if let Some(colon) = colon {
                    let digits = digits_end(b, start + colon + 1);
                    if digits < end || !ends {
                        return Err(ParseError::new(
                            digits,
                            ErrorKind::InvalidPort,
                        ));
                    }
                }
                if !ends {
                    return Err(match scanned {
                        Err(e) => e,
                        Ok(_) => {
                            ParseError::new(end, ErrorKind::UnexpectedByte)
                        }
                    });
                }
                let host_end = colon.map_or(end, |c| start + c);
                let host = Span::new(start, host_end);
                return Ok(Authority {
                    start,
                    userinfo: None,
                    host,
                    host_kind: reg_name_kind(&b[host.range()]),
                    port: colon.map(|c| Span::new(start + c + 1, end)),
                    end,
                });
            }
        }
        let (host, host_kind) = if b.get(host_start) == Some(&b'[') {
            self.ip_literal(b, host_start)?
        } else {
            let end = self.scan(b, host_start, &REG_NAME_BYTES, false)?;
            let host = Span::new(host_start, end);
            (host, reg_name_kind(&b[host.range()]))
        };
        let mut end = host.end;
        let mut port = None;
        if b.get(end) == Some(&b':') {
            let digits = digits_end(b, end + 1);
            port = Some(Span::new(end + 1, digits));
            end = digits;
        }
        if end < b.len() && !ends_authority(b[end]) {
            let kind = if port.is_some() {
                ErrorKind::InvalidPort
            } else {
                ErrorKind::UnexpectedByte
            };
            return Err(ParseError::new(end, kind));
        }
        Ok(Authority { start, userinfo, host, host_kind, port, end })
    }

    /// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"` (3.2.2), with
    /// the `[` at `start`. The span returned keeps the brackets.
    #[inline]
    fn ip_literal(
        &self,
        b: &[u8],
        start: usize,
    ) -> Result<(Span, HostKind), ParseError> {
        let error = ParseError::new(start, ErrorKind::InvalidIpLiteral);
        let Some(len) = memchr::memchr(b']', &b[start + 1..]) else {
            return Err(error);
        };
        let inner = &b[start + 1..start + 1 + len];
        let kind = if matches!(inner.first(), Some(b'v' | b'V')) {
            if !host::is_ipvfuture(inner) {
                return Err(error);
            }
            HostKind::IpvFuture
        } else {
            if !host::is_ipv6(inner) {
                return Err(error);
            }
            HostKind::Ipv6
        };
        Ok((Span::new(start, start + len + 2), kind))
    }

    /// The one pass over `s` that every public entry point runs.
    #[inline(always)]
    fn parse<'a>(
        &self,
        s: &'a str,
        rule: Rule,
    ) -> Result<UriRef<'a>, ParseError> {
        let b = s.as_bytes();
        let mut i = 0;

        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (3.1). In a
        // URI-reference a scheme is whatever such run ends at the first
        // ":"; otherwise the input is a relative-ref (4.2) and a ":" in
        // its first segment is an error below.
        let mut scheme = None;
        if rule != Rule::Relative {
            let end = chars::scheme_end(b);
            if end > 0 && b.get(end) == Some(&b':') {
                scheme = Some(Span::new(0, end));
                i = end + 1;
            } else if rule != Rule::Reference {
                return Err(ParseError::new(end, ErrorKind::InvalidScheme));
            }
        }

        // hier-part = "//" authority path-abempty / path-absolute
        //           / path-rootless / path-empty (3)
        // relative-part = "//" authority path-abempty / path-absolute
        //               / path-noscheme / path-empty (4.2)
        let mut authority = None;
        if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/') {
            let a = self
                .authority(b, i + 2)
                .map_err(|e| ParseError { in_authority: true, ..e })?;
            authority = Some(a);
        }
        let path_start = match &authority {
            Some(a) => a.end,
            None => i,
        };
        i = path_start;
        if scheme.is_none()
            && authority.is_none()
            && b.get(i).is_some_and(|&c| c != b'/')
        {
            // path-noscheme = segment-nz-nc *( "/" segment )
            i = self.scan(b, i, &SEGMENT_NZ_NC_BYTES, false)?;
            if b.get(i) == Some(&b':') {
                return Err(ParseError::new(
                    i,
                    ErrorKind::ColonInFirstSegment,
                ));
            }
        }
        // Every path form is `pchar` and "/" once its start is checked:
        // "//" at the start of a path without authority cannot occur, as
        // it was taken as an authority above.
        i = self.scan(b, i, &PATH_BYTES, false)?;
        let path = Span::new(path_start, i);

        let mut query = None;
        if b.get(i) == Some(&b'?') {
            let end = self.scan(b, i + 1, &QUERY_BYTES, true)?;
            query = Some(Span::new(i + 1, end));
            i = end;
        }
        let mut fragment = None;
        if b.get(i) == Some(&b'#') {
            if rule == Rule::Absolute {
                return Err(ParseError::new(i, ErrorKind::UnexpectedFragment));
            }
            let end = self.scan(b, i + 1, &QUERY_BYTES, false)?;
            fragment = Some(Span::new(i + 1, end));
            i = end;
        }
        if i < b.len() {
            return Err(ParseError::new(i, ErrorKind::UnexpectedByte));
        }

        let (userinfo, host, host_kind, port) = match &authority {
            Some(a) => (a.userinfo, Some(a.host), Some(a.host_kind), a.port),
            None => (None, None, None, None),
        };
        Ok(UriRef {
            input: s,
            kind: if scheme.is_some() {
                RefKind::Uri
            } else {
                RefKind::Relative
            },
            scheme,
            authority: authority.map(|a| Span::new(a.start, a.end)),
            userinfo,
            host,
            host_kind,
            port,
            path,
            query,
            fragment,
        })
    }
}

/// `host = IP-literal / IPv4address / reg-name` (3.2.2): "If host matches
/// the rule for IPv4address, then it should be considered an IPv4 address
/// literal and not a registered name."
#[inline]
fn reg_name_kind(host: &[u8]) -> HostKind {
    match host.first() {
        Some(c) if c.is_ascii_digit() && host::is_ipv4(host) => HostKind::Ipv4,
        _ => HostKind::RegName,
    }
}

/// `URI-reference` with a plain (non-IRI) [`Parser`].
///
/// ```
/// let r = uriscan::syntax::parse_reference("../a?").unwrap();
/// assert_eq!((r.path(), r.query()), ("../a", Some("")));
/// ```
pub fn parse_reference(s: &str) -> Result<UriRef<'_>, ParseError> {
    Parser::new().parse_reference(s)
}

/// `URI` with a plain (non-IRI) [`Parser`].
///
/// ```
/// let r = uriscan::syntax::parse_uri("mailto:a@b.example").unwrap();
/// assert_eq!((r.authority(), r.path()), (None, "a@b.example"));
/// ```
pub fn parse_uri(s: &str) -> Result<UriRef<'_>, ParseError> {
    Parser::new().parse_uri(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scanner drops a candidate whose authority failed and cuts one
    /// whose path, query or fragment did: the error must say which.
    #[test]
    fn errors_say_whether_the_authority_failed() {
        let p = Parser::new().iri(true);
        for (s, inside) in [
            ("http://h:port/", true),
            ("https://u:pw@server:port/api", true),
            ("http://a@b@c/", true),
            ("http://[::1/x", true),
            ("http://h.%s.example/", true),
            ("http://h^x/", true),
            ("ftp://сервер:порт/файл", true),
            ("http://h/%zz", false),
            ("http://h?q=%s", false),
            ("http://h#a#b", false),
            ("http://h/a b", false),
            ("mailto:%zz", false),
            ("urn:a\u{E000}", false),
        ] {
            let e = p.parse_uri(s).unwrap_err();
            assert_eq!(e.in_authority(), inside, "{s}");
            // Either way the input before the error is valid.
            assert!(p.parse_uri(&s[..e.index()]).is_ok(), "{s}");
        }
    }
}
