//! `uriscan.links`: the links of one document.

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use uriscan::links::{Format, Link, LinkExtractor, Page};

use crate::text::Input;

/// One link of a document.
///
/// `start` and `end` delimit `raw` in the document: byte offsets for
/// `bytes` input, character offsets for `str` input.
#[pyclass(frozen, eq, subclass, module = "uriscan", name = "Link")]
#[derive(PartialEq, Eq)]
pub(crate) struct PyLink {
    link: Link,
    start: usize,
    end: usize,
}

impl PyLink {
    /// Wraps `link`, with its offsets in the caller's units.
    pub(crate) fn new(link: Link, start: usize, end: usize) -> PyLink {
        PyLink { link, start, end }
    }
}

#[pymethods]
impl PyLink {
    /// What the link is: `html:ELEMENT@ATTRIBUTE` (`html:a@href`,
    /// `html:img@srcset`, `html:meta@og:image`, ...), `md:link`,
    /// `md:image`, `md:definition`, `md:autolink`, `md:html`, `text`,
    /// `code`, and in WARC records `http:location`,
    /// `http:content-location`, `http:link`.
    #[getter]
    fn kind(&self) -> String {
        self.link.kind().to_string()
    }
    /// The reference as the format defines it, before resolution
    /// (entities and escapes decoded, whitespace stripped).
    #[getter]
    fn link(&self) -> &str {
        self.link.link()
    }
    /// The link as written in the document.
    #[getter]
    fn raw(&self) -> &str {
        self.link.raw()
    }
    /// The URI the link names, resolved against the document's base;
    /// None when the link is malformed (see `error`) or relative with no
    /// base.
    #[getter]
    fn target(&self) -> Option<&str> {
        self.link.target()
    }
    /// Why the link names no target, when it is malformed.
    #[getter]
    fn error(&self) -> Option<String> {
        self.link.error().map(|e| e.to_string())
    }
    /// Offset of the first unit of `raw` in the document.
    #[getter]
    fn start(&self) -> usize {
        self.start
    }
    /// Offset just past `raw`.
    #[getter]
    fn end(&self) -> usize {
        self.end
    }
    /// The 1-based line of `raw`'s first byte.
    #[getter]
    fn line(&self) -> u64 {
        self.link.line()
    }
    /// The `rel` tokens of the link's element (`a`, `area`, `link`,
    /// `form`) or HTTP `Link` header, lowercased and space-separated
    /// (`"nofollow ugc"`); None without one.
    #[getter]
    fn rel(&self) -> Option<&str> {
        self.link.rel()
    }
    /// The `hreflang` of a `link` or `a`.
    #[getter]
    fn hreflang(&self) -> Option<&str> {
        self.link.hreflang()
    }
    /// What following the link does: `"navigate"` (`a`, `area`, `form`,
    /// meta refresh, a redirect's `Location`, a Markdown link),
    /// `"embed"` (`img`, `script`, `iframe`, stylesheets, CSS `url()`, a
    /// Markdown image) or `"other"` (`link rel=canonical`, `cite`, a bare
    /// URI in text, ...).
    #[getter]
    fn role(&self) -> &'static str {
        self.link.role().as_str()
    }
    pub(crate) fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.link.kind(), self.link.link(), self.link.target(), self.start)
            .hash(&mut h);
        h.finish()
    }
    pub(crate) fn __repr__(&self) -> String {
        let target = match self.link.target() {
            Some(t) => format!("{t:?}"),
            None => "None".to_owned(),
        };
        format!(
            "Link(kind={:?}, link={:?}, target={target}, start={}, end={})",
            self.kind(),
            self.link.link(),
            self.start,
            self.end
        )
    }
}

/// The format named by `name`.
pub(crate) fn format(name: &str) -> PyResult<Format> {
    match name.to_ascii_lowercase().as_str() {
        "html" | "htm" => Ok(Format::Html),
        "markdown" | "md" => Ok(Format::Markdown),
        "text" | "txt" => Ok(Format::Text),
        _ => Err(PyValueError::new_err(format!(
            "unknown format {name:?}: expected 'html', 'markdown' or 'text'"
        ))),
    }
}

/// Whether `standard` names the URL Standard (`"whatwg"`) rather than
/// RFC 3986 (`"rfc3986"`) as the rules of links' targets.
pub(crate) fn url_standard(standard: &str) -> PyResult<bool> {
    match standard {
        "rfc3986" => Ok(false),
        "whatwg" => Ok(true),
        _ => Err(PyValueError::new_err(format!(
            "unknown standard {standard:?}: expected 'rfc3986' or 'whatwg'"
        ))),
    }
}

/// The extractor with the default options, its targets by RFC 3986 or
/// (`whatwg`) by the URL Standard, built once and shared.
pub(crate) fn extractor(whatwg: bool) -> &'static LinkExtractor {
    static RFC3986: OnceLock<LinkExtractor> = OnceLock::new();
    static WHATWG: OnceLock<LinkExtractor> = OnceLock::new();
    if whatwg {
        WHATWG.get_or_init(|| {
            LinkExtractor::builder().url_standard(true).build()
        })
    } else {
        RFC3986.get_or_init(LinkExtractor::new)
    }
}

/// links(data, /, *, format="html", url=None, base=None, root=None, charset=None, include_text=False, include_code=False, standard="rfc3986")
/// --
///
/// The links of one document, in document order, as a list of `Link`.
///
/// `data` is `bytes` or `str`; `format` is `"html"`, `"markdown"` or
/// `"text"`. Relative links resolve (RFC 3986 section 5) against the
/// first of: `base`, the document's `<base href>` (resolved against
/// `url`), and `url`, the page's own URL. `root` is where root-relative
/// links (`/x`) go when the base is the page's URL (a site on disk).
/// `charset` is the HTTP header's charset of `bytes` HTML (it wins over
/// `<meta charset>`, not over a byte order mark); `str` input is read
/// as the text it is.
///
/// `include_text` adds the bare URIs of HTML text (kind `text`),
/// `include_code` those of Markdown code (kind `code`).
///
/// `standard="whatwg"` makes each target the URL Standard's parse of
/// the link against the base, as a browser fetches it (`http:relpath`
/// relative, hosts IDNA-processed, default ports dropped, ...); a link
/// the URL Standard rejects gets `error`. `root` does not apply then.
/// The default, `"rfc3986"`, resolves by RFC 3986.
///
/// Offsets are byte offsets for `bytes`, character offsets for `str`.
/// The document is read with the GIL released.
#[pyfunction]
#[pyo3(signature = (
    data, /, *, format="html", url=None, base=None, root=None,
    charset=None, include_text=false, include_code=false,
    standard="rfc3986"
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn links(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    format: &str,
    url: Option<&str>,
    base: Option<&str>,
    root: Option<&str>,
    charset: Option<&str>,
    include_text: bool,
    include_code: bool,
    standard: &str,
) -> PyResult<Vec<PyLink>> {
    let format = self::format(format)?;
    let whatwg = url_standard(standard)?;
    let input = Input::new(data)?;
    let mut offsets = input.offsets();
    let charset = if input.is_str { Some("utf-8") } else { charset };
    let bytes = input.bytes;
    Ok(py.detach(|| {
        let own;
        let extractor = if include_text || include_code {
            own = LinkExtractor::builder()
                .include_text(include_text)
                .include_code(include_code)
                .url_standard(whatwg)
                .build();
            &own
        } else {
            extractor(whatwg)
        };
        let mut page = Page::new(bytes, format);
        if let Some(u) = url {
            page = page.url(u);
        }
        if let Some(b) = base {
            page = page.base(b);
        }
        if let Some(r) = root {
            page = page.root(r);
        }
        if let Some(c) = charset {
            page = page.charset(c);
        }
        extractor
            .extract(&page)
            .map(|l| {
                let span = l.span();
                let (start, end) =
                    (offsets.at(span.start), offsets.at(span.end));
                PyLink::new(l, start, end)
            })
            .collect()
    }))
}
