//! `uriscan.parse`, `uriscan.resolve`, `uriscan.normalize` and the
//! `ParseError` they raise.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use uriscan::Span;
use uriscan::syntax::normalize::{
    normalize as normal_form, normalize_scheme_based,
};
use uriscan::syntax::resolve::{ResolveErrorKind, parse_base, resolve_into};
use uriscan::syntax::{self, ErrorKind, HostKind, Parser, RefKind, UriRef};

create_exception!(
    uriscan,
    ParseError,
    PyValueError,
    "A string that is not a URI reference (RFC 3986, or RFC 3987 with \
     iri=True).\n\nAttributes: `input` (the string), `index` (the character \
     index where it stopped matching: `input[:index]` is valid, except for \
     the kind `invalid_scheme`), `kind` (what was wrong: `unexpected_byte`, \
     `invalid_pct_encoding`, `invalid_scheme`, `invalid_ip_literal`, \
     `invalid_port`, `unexpected_fragment`, `colon_in_first_segment`, \
     `non_ascii`), and `part` (`\"reference\"`, or `\"base\"` for the base \
     of `resolve`)."
);

/// The name of an error kind, as Python sees it.
fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnexpectedByte => "unexpected_byte",
        ErrorKind::InvalidPctEncoding => "invalid_pct_encoding",
        ErrorKind::InvalidScheme => "invalid_scheme",
        ErrorKind::InvalidIpLiteral => "invalid_ip_literal",
        ErrorKind::InvalidPort => "invalid_port",
        ErrorKind::UnexpectedFragment => "unexpected_fragment",
        ErrorKind::ColonInFirstSegment => "colon_in_first_segment",
        ErrorKind::NonAscii => "non_ascii",
        _ => "other",
    }
}

/// A `ParseError` for `e` on `input`, its index in characters.
fn parse_error(
    py: Python<'_>,
    input: &str,
    e: syntax::ParseError,
    part: &str,
) -> PyErr {
    let index = input[..e.index()].chars().count();
    let err = ParseError::new_err(format!(
        "invalid {part} {input:?}: {e} (character {index})"
    ));
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("input", input)?;
        value.setattr("index", index)?;
        value.setattr("kind", kind_name(e.kind()))?;
        value.setattr("part", part)
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A parsed URI reference: its components, as written.
///
/// `str(uri)` is the input. A component that is absent is None; an empty
/// one is `""` (`http://h?` has the query `""`, `http://h` has None).
#[pyclass(frozen, eq, hash, module = "uriscan", name = "Uri")]
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct PyUri {
    input: String,
    kind: RefKind,
    scheme: Option<Span>,
    authority: Option<Span>,
    userinfo: Option<Span>,
    host: Option<Span>,
    host_kind: Option<HostKind>,
    port: Option<Span>,
    path: Span,
    query: Option<Span>,
    fragment: Option<Span>,
}

impl PyUri {
    fn new(r: &UriRef<'_>) -> PyUri {
        PyUri {
            input: r.as_str().to_owned(),
            kind: r.kind(),
            scheme: r.scheme_span(),
            authority: r.authority_span(),
            userinfo: r.userinfo_span(),
            host: r.host_span(),
            host_kind: r.host_kind(),
            port: r.port_span(),
            path: r.path_span(),
            query: r.query_span(),
            fragment: r.fragment_span(),
        }
    }
    fn get(&self, span: Option<Span>) -> Option<&str> {
        span.map(|s| &self.input[s.range()])
    }
}

#[pymethods]
impl PyUri {
    /// The scheme, without its `:`.
    #[getter]
    fn scheme(&self) -> Option<&str> {
        self.get(self.scheme)
    }
    /// The authority, without the leading `//`.
    #[getter]
    fn authority(&self) -> Option<&str> {
        self.get(self.authority)
    }
    /// The userinfo, without its `@`.
    #[getter]
    fn userinfo(&self) -> Option<&str> {
        self.get(self.userinfo)
    }
    /// The host as written (an IP literal keeps its brackets).
    #[getter]
    fn host(&self) -> Option<&str> {
        self.get(self.host)
    }
    /// The kind of host: `ipv4`, `ipv6`, `ipvfuture` or `reg-name`.
    #[getter]
    fn host_kind(&self) -> Option<&'static str> {
        self.host_kind.map(|k| match k {
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
            HostKind::RegName => "reg-name",
        })
    }
    /// The port digits, without the `:`.
    #[getter]
    fn port(&self) -> Option<&str> {
        self.get(self.port)
    }
    /// The path; always present, possibly empty.
    #[getter]
    fn path(&self) -> &str {
        &self.input[self.path.range()]
    }
    /// The query, without its `?`.
    #[getter]
    fn query(&self) -> Option<&str> {
        self.get(self.query)
    }
    /// The fragment, without its `#`.
    #[getter]
    fn fragment(&self) -> Option<&str> {
        self.get(self.fragment)
    }
    /// Whether the reference is relative (has no scheme).
    #[getter]
    fn is_relative(&self) -> bool {
        self.kind == RefKind::Relative
    }
    fn __str__(&self) -> &str {
        &self.input
    }
    fn __repr__(&self) -> String {
        format!("Uri({:?})", self.input)
    }
}

/// parse(s, /, *, iri=False)
/// --
///
/// Parses `s` as a URI reference (RFC 3986 section 4.1: a URI, or a
/// relative reference) and returns its components as a `Uri`.
///
/// With `iri=True` the IRI characters of RFC 3987 are allowed. Raises
/// `ParseError` (a `ValueError`) with the character index where `s`
/// stopped matching.
#[pyfunction]
#[pyo3(signature = (s, /, *, iri=false))]
pub(crate) fn parse(py: Python<'_>, s: &str, iri: bool) -> PyResult<PyUri> {
    match Parser::new().iri(iri).parse_reference(s) {
        Ok(r) => Ok(PyUri::new(&r)),
        Err(e) => Err(parse_error(py, s, e, "reference")),
    }
}

/// resolve(base, reference, /, *, iri=False)
/// --
///
/// The target URI that `reference` names against `base`, by the strict
/// algorithm of RFC 3986 section 5.2, recomposed (5.3).
///
/// `base` must be a URI (have a scheme); its fragment is ignored (5.1).
/// Raises `ParseError` when either string does not parse (`part` says
/// which) and `ValueError` when the base has no scheme.
#[pyfunction]
#[pyo3(signature = (base, reference, /, *, iri=false))]
pub(crate) fn resolve(
    py: Python<'_>,
    base: &str,
    reference: &str,
    iri: bool,
) -> PyResult<String> {
    let parser = Parser::new().iri(iri);
    let b = parse_base(parser, base).map_err(|e| match e.kind() {
        ResolveErrorKind::InvalidBase(p) => parse_error(py, base, p, "base"),
        _ => PyValueError::new_err(format!("base URI {base:?}: {e}")),
    })?;
    let r = parser
        .parse_reference(reference)
        .map_err(|e| parse_error(py, reference, e, "reference"))?;
    let mut out = String::new();
    resolve_into(&b, &r, &mut out).map_err(|e| {
        PyValueError::new_err(format!("base URI {base:?}: {e}"))
    })?;
    Ok(out)
}

/// normalize(s, /, *, scheme_based=False, iri=False)
/// --
///
/// The normal form of the URI reference `s` by RFC 3986 section 6.2.2:
/// scheme and host lowercased, percent-encodings uppercased and
/// unreserved ones decoded, dot segments removed (for a reference with a
/// scheme). `scheme_based=True` also applies 6.2.3: a default port is
/// dropped, an empty http(s) path becomes `/`.
///
/// Raises `ParseError` when `s` does not parse.
#[pyfunction]
#[pyo3(signature = (s, /, *, scheme_based=false, iri=false))]
pub(crate) fn normalize(
    py: Python<'_>,
    s: &str,
    scheme_based: bool,
    iri: bool,
) -> PyResult<String> {
    let r = Parser::new()
        .iri(iri)
        .parse_reference(s)
        .map_err(|e| parse_error(py, s, e, "reference"))?;
    Ok(if scheme_based { normalize_scheme_based(&r) } else { normal_form(&r) })
}
