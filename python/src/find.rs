//! `uriscan.find`: the URIs of plain text.

use std::borrow::Cow;
use std::sync::OnceLock;

use pyo3::prelude::*;
use uriscan::scanning::Finder;

use crate::text::Input;

/// One URI found in text: the URI and where it was found.
///
/// `start` and `end` delimit the text the URI was taken from: byte
/// offsets for `bytes` input, character offsets for `str` input. The URI
/// may differ from that text when it was wrapped over lines (Appendix C
/// of RFC 3986 asks to rejoin it) or, for `bytes`, when bad UTF-8 in
/// the text was read as U+FFFD.
#[pyclass(frozen, eq, hash, module = "uriscan", name = "Match")]
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct PyMatch {
    /// The URI.
    #[pyo3(get)]
    uri: String,
    /// Offset of the first unit of the URI's text.
    #[pyo3(get)]
    start: usize,
    /// Offset just past the URI's text.
    #[pyo3(get)]
    end: usize,
    /// The 1-based line of the URI's first byte.
    #[pyo3(get)]
    line: u64,
}

#[pymethods]
impl PyMatch {
    fn __repr__(&self) -> String {
        format!(
            "Match(uri={:?}, start={}, end={}, line={})",
            self.uri, self.start, self.end, self.line
        )
    }
}

/// The finder for the call's options; the default one is built once (a
/// finder chooses its vector loops when built, which a caller scanning
/// many short texts should not pay each time).
fn finder(
    schemes: Option<Vec<String>>,
    any_scheme: bool,
    ascii: bool,
) -> Cow<'static, Finder> {
    static DEFAULT: OnceLock<Finder> = OnceLock::new();
    if schemes.is_none() && !any_scheme && !ascii {
        return Cow::Borrowed(DEFAULT.get_or_init(Finder::new));
    }
    let mut b = Finder::builder();
    if let Some(s) = schemes {
        b.schemes(s);
    }
    Cow::Owned(b.any_scheme(any_scheme).ascii(ascii).build())
}

/// find(data, /, *, schemes=None, any_scheme=False, ascii=False)
/// --
///
/// The URIs of plain text, in order, as a list of `Match`.
///
/// `data` is `bytes` or `str`. Offsets are byte offsets into `bytes`
/// and character (code point) offsets into `str`, so that
/// `data[m.start:m.end]` is the URI's text either way. Invalid UTF-8 in
/// `bytes` is read as U+FFFD and never stops the scan.
///
/// By default a URI is any scheme followed by `//`, or one of the
/// schemes known to go without (`mailto:`, `urn:`, ...). `schemes`
/// restricts the matches to the given schemes (case-insensitive),
/// `any_scheme` accepts every syntactically valid scheme, and `ascii`
/// percent-encodes the non-ASCII characters of IRIs (RFC 3987 3.1).
///
/// The scan runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (data, /, *, schemes=None, any_scheme=false, ascii=false))]
pub(crate) fn find(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    schemes: Option<Vec<String>>,
    any_scheme: bool,
    ascii: bool,
) -> PyResult<Vec<PyMatch>> {
    let input = Input::new(data)?;
    let mut offsets = input.offsets();
    let bytes = input.bytes;
    Ok(py.detach(|| {
        let finder = finder(schemes, any_scheme, ascii);
        let mut out = Vec::new();
        finder.find_iter(bytes).for_each(|m| {
            let span = m.span();
            out.push(PyMatch {
                start: offsets.at(span.start),
                end: offsets.at(span.end),
                line: m.line(),
                uri: m.uri().clone().into_owned(),
            })
        });
        out
    }))
}
