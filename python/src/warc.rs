//! `uriscan.warc_links` and the WARC side of `uriscan.arrow`: the links
//! of a WARC (or WET) file, read by `uriscan::warc` with the GIL
//! released, as objects or as Arrow columns.

use std::sync::Arc;

use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use uriscan::links::LinkExtractor;
use uriscan::warc::{WarcError, WarcLink, WarcLinks, WarcReader};

use crate::arrow::LinkRows;
use crate::links::{PyLink, extractor, url_standard};
use crate::source::{Failure, Source};

/// How many links a read with the GIL released gathers at most.
const CHUNK: usize = 4096;

/// An open archive's links, and the damaged records met so far.
struct Reader {
    name: String,
    links: WarcLinks<'static, Box<dyn std::io::Read + Send + Sync>>,
    errors: Vec<(u64, String)>,
    done: bool,
    failure: Failure,
}

impl Reader {
    /// Starts reading `source` (its first read, with the GIL released):
    /// an exception of a file object's first `.read` is raised here.
    fn open(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        max_block: Option<usize>,
        extractor: &'static LinkExtractor,
    ) -> PyResult<Reader> {
        let Source { name, input, failure } = Source::new(source)?;
        let reader = py.detach(|| {
            let mut reader = WarcReader::new(input);
            if let Some(m) = max_block {
                reader.max_block(m);
            }
            reader
        });
        if let Some(e) = failure.take() {
            return Err(e);
        }
        Ok(Reader {
            name,
            links: WarcLinks::new(reader, extractor),
            errors: Vec::new(),
            done: false,
            failure,
        })
    }

    /// The exception of a file object's `.read`, once reading has
    /// stopped on it.
    fn failed(&self) -> Option<PyErr> {
        if self.done { self.failure.take() } else { None }
    }

    /// The next link, or None at the end; a damaged record is noted and
    /// passed over.
    fn next(&mut self) -> Option<WarcLink> {
        while !self.done {
            match self.links.next() {
                Some(Ok(l)) => return Some(l),
                // The record a failed `.read` cut short is not damaged:
                // the exception is raised instead.
                Some(Err(_)) if self.failure.happened() => self.done = true,
                Some(Err(e)) => self.note(&e),
                None => self.done = true,
            }
        }
        None
    }

    fn note(&mut self, e: &WarcError) {
        self.errors.push((e.offset(), e.to_string()));
    }

    /// Warns of the damaged records noted since `seen`, with the file's
    /// name: a run over many files goes on, and says which were damaged.
    fn warn(&self, py: Python<'_>, seen: usize) -> PyResult<()> {
        let category = py.get_type::<PyUserWarning>();
        for (_, message) in &self.errors[seen..] {
            let text = format!("{}: {message}", self.name);
            let text = std::ffi::CString::new(text.replace('\0', " "))
                .expect("no NUL");
            PyErr::warn(py, &category, &text, 1)?;
        }
        Ok(())
    }
}

/// One link of a WARC file: a `Link` with the record it came from.
///
/// Offsets (`start`, `end`, `line`) are in the record's payload (for the
/// HTTP header links, in its header block), in bytes.
#[pyclass(frozen, extends = PyLink, module = "uriscan", name = "WarcLink")]
pub(crate) struct PyWarcLink {
    page: Arc<str>,
    record_id: Arc<str>,
    record_offset: u64,
    offset_kind: &'static str,
    warnings: Arc<[&'static str]>,
}

#[pymethods]
impl PyWarcLink {
    /// The record's `WARC-Target-URI` (the page), `""` without one.
    #[getter]
    fn page(&self) -> &str {
        &self.page
    }
    /// The record's `WARC-Record-ID`, `""` without one.
    #[getter]
    fn record_id(&self) -> &str {
        &self.record_id
    }
    /// The byte offset of the record in the file (of its gzip member in
    /// a compressed file), for a CDX-style reader to fetch it again; in a
    /// file compressed as one gzip stream, its offset in the decompressed
    /// stream (`offset_kind` says which).
    #[getter]
    fn record_offset(&self) -> u64 {
        self.record_offset
    }
    /// What `record_offset` counts: `"gzip-member"`, `"decompressed"` or
    /// `"file"`.
    #[getter]
    fn offset_kind(&self) -> &'static str {
        self.offset_kind
    }
    /// What was odd in the record but read all the same (a stale
    /// `Transfer-Encoding: chunked`, a length a few bytes off, ...): short
    /// names such as `"stale-chunked"`; empty for a clean record.
    #[getter]
    fn warnings(&self) -> Vec<&'static str> {
        self.warnings.to_vec()
    }
    fn __eq__(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let Ok(other) = other.cast::<PyWarcLink>() else {
            return Ok(false);
        };
        let (a, b) = (slf.get(), other.get());
        Ok(a.record_offset == b.record_offset
            && a.page == b.page
            && a.record_id == b.record_id
            && *slf.as_super().get() == *other.as_super().get())
    }
    fn __hash__(slf: &Bound<'_, Self>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (slf.get().record_offset, slf.as_super().get().__hash__())
            .hash(&mut h);
        h.finish()
    }
    fn __repr__(slf: &Bound<'_, Self>) -> String {
        let link = slf.as_super().get().__repr__();
        format!(
            "WarcLink(page={:?}, record_offset={}, {}",
            slf.get().page,
            slf.get().record_offset,
            &link["Link(".len()..]
        )
    }
}

/// The iterator of `warc_links`.
#[pyclass(module = "uriscan", name = "WarcLinks")]
pub(crate) struct PyWarcLinks {
    reader: Reader,
    pending: std::vec::IntoIter<WarcLink>,
    // The last record's page and id, shared by its links.
    page: Arc<str>,
    record_id: Arc<str>,
    warnings: Arc<[&'static str]>,
}

#[pymethods]
impl PyWarcLinks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(
        &mut self,
        py: Python<'_>,
    ) -> PyResult<Option<Py<PyWarcLink>>> {
        if self.pending.len() == 0 {
            let seen = self.reader.errors.len();
            let reader = &mut self.reader;
            let chunk = py.detach(|| {
                let mut v = Vec::with_capacity(CHUNK);
                while v.len() < CHUNK {
                    match reader.next() {
                        Some(l) => v.push(l),
                        None => break,
                    }
                }
                v
            });
            self.pending = chunk.into_iter();
            self.reader.warn(py, seen)?;
        }
        let Some(l) = self.pending.next() else {
            // The links read before a failed `.read` are handed out
            // first, then its exception.
            return self.reader.failed().map_or(Ok(None), Err);
        };
        if *self.page != *l.page() {
            self.page = Arc::from(l.page());
        }
        if *self.record_id != *l.record_id() {
            self.record_id = Arc::from(l.record_id());
        }
        if !self
            .warnings
            .iter()
            .copied()
            .eq(l.warnings().iter().map(|w| w.as_str()))
        {
            self.warnings = l.warnings().iter().map(|w| w.as_str()).collect();
        }
        let sub = PyWarcLink {
            page: self.page.clone(),
            record_id: self.record_id.clone(),
            record_offset: l.record_offset(),
            offset_kind: l.offset_kind().as_str(),
            warnings: self.warnings.clone(),
        };
        let link = l.into_link();
        let span = link.span();
        let base = PyLink::new(link, span.start, span.end);
        Py::new(py, PyClassInitializer::from(base).add_subclass(sub)).map(Some)
    }
    /// The damaged records met so far: `(offset, message)` pairs. Each
    /// is also issued as a `UserWarning` naming the file.
    #[getter]
    fn errors(&self) -> Vec<(u64, String)> {
        self.reader.errors.clone()
    }
}

/// warc_links(source, /, *, max_block=None, standard="rfc3986")
/// --
///
/// Iterates over the links of a WARC, ARC or WET file, as `WarcLink`
/// objects: a `Link` with `page` (the record's `WARC-Target-URI`),
/// `record_id` and `record_offset`.
///
/// `source` is a path (`str` or `os.PathLike`), a binary file object
/// (anything with `.read(n)`: `open(p, "rb")`, `gzip.open`, an fsspec
/// file of `s3://` or `https://`, boto3's `StreamingBody`,
/// `io.BytesIO`), or the file's bytes (`bytes`, `bytearray`,
/// `memoryview`). The format is known by content: gzip (one member per
/// record or one stream), WARC, ARC.
///
/// A `response` record gives its redirect's `Location` (kind
/// `http:location`), `Content-Location` and `Link:` header URIs, then
/// its HTML (or Markdown) payload's links, resolved against its
/// `<base href>` else the target URI, decoded by the charset of its
/// `Content-Type` else of its `<meta charset>`. A WET `conversion`
/// record gives the URIs of its text. `standard="whatwg"` makes each
/// target the URL Standard's parse of the link (what a browser
/// fetches) instead of its RFC 3986 resolution.
///
/// The file is read as a stream with the GIL released; a file object's
/// `.read` is called with the GIL, for 1 MiB at a time, and an exception
/// it raises is raised as it is (after the links read before it). A
/// path that cannot be opened raises `OSError` with its path; a damaged
/// record is passed over with a `UserWarning` naming the file (a file
/// object by its `.name`), and noted in the iterator's `errors`, and
/// reading goes on at the next record. `max_block` caps the bytes read
/// of one record (default 64 MiB).
#[pyfunction]
#[pyo3(signature = (source, /, *, max_block=None, standard="rfc3986"))]
pub(crate) fn warc_links(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    max_block: Option<usize>,
    standard: &str,
) -> PyResult<PyWarcLinks> {
    let extractor = extractor(url_standard(standard)?);
    Ok(PyWarcLinks {
        reader: Reader::open(py, source, max_block, extractor)?,
        pending: Vec::new().into_iter(),
        page: Arc::from(""),
        record_id: Arc::from(""),
        warnings: Arc::from([]),
    })
}

/// The iterator of `_warc_columns`: the links table of a WARC file, a
/// batch of columns at a time.
#[pyclass(module = "uriscan._uriscan", name = "_WarcColumns")]
pub(crate) struct PyWarcColumns {
    reader: Reader,
    rows: usize,
    kinds: Option<Vec<String>>,
    /// Whether targets are the URL Standard's (their hosts read so).
    whatwg: bool,
}

#[pymethods]
impl PyWarcColumns {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let seen = self.reader.errors.len();
        let (reader, want) = (&mut self.reader, self.rows);
        let (kinds, whatwg) = (self.kinds.clone(), self.whatwg);
        let rows = py.detach(|| {
            let mut rows = LinkRows::new(kinds, whatwg);
            let mut page: Option<Arc<str>> = None;
            while rows.len() < want {
                let Some(l) = reader.next() else { break };
                if page.as_deref() != Some(l.page()) {
                    page = Some(Arc::from(l.page()));
                }
                let p = page.as_deref().filter(|p| !p.is_empty());
                rows.push(p.map(str::as_bytes), l.link().as_ref());
            }
            rows
        });
        self.reader.warn(py, seen)?;
        if rows.len() == 0 {
            return self.reader.failed().map_or(Ok(None), Err);
        }
        let columns = rows.into_py(py)?;
        Ok(Some(PyTuple::new(py, columns)?.into_any()))
    }
    #[getter]
    fn errors(&self) -> Vec<(u64, String)> {
        self.reader.errors.clone()
    }
}

/// _warc_columns(source, rows, max_block=None, kinds=None, standard="rfc3986")
/// --
///
/// The links table of an archive (a path, a binary file object or
/// bytes) as batches of at most `rows` rows; see
/// `uriscan.arrow.warc_batches`.
#[pyfunction]
#[pyo3(signature = (source, rows, max_block=None, kinds=None, standard="rfc3986"))]
pub(crate) fn _warc_columns(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    rows: usize,
    max_block: Option<usize>,
    kinds: Option<Vec<String>>,
    standard: &str,
) -> PyResult<PyWarcColumns> {
    let whatwg = url_standard(standard)?;
    Ok(PyWarcColumns {
        reader: Reader::open(py, source, max_block, extractor(whatwg))?,
        rows: rows.max(1),
        kinds,
        whatwg,
    })
}
