//! The Arrow batch API: string columns read from, and written as, Arrow's
//! flat buffers (validity bitmap, offsets, data), which the Python side
//! (`uriscan/arrow.py`) takes from and wraps into `pyarrow` arrays.
//!
//! Why buffers and not the `arrow` crate: the crate (with its compute
//! kernels) is larger than all of uriscan, and two string layouts are all
//! this needs. Why not the C data interface: it needs `unsafe` on raw
//! pointers for each buffer and a release callback, where `bytes` objects
//! need none; the copy into `bytes` costs little against the parse (see
//! benches/README.md).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use uriscan::links::{Format, LinkRef, Page};
use uriscan::syntax::Parser;

use crate::links::{extractor, url_standard};

/// One string or binary column, as Arrow lays it out: `len` values from
/// bit `bit_offset` of the validity bitmap and the offsets, rebased so
/// that the first offset is the start of `data`.
pub(crate) struct Strings<'a> {
    validity: Option<&'a [u8]>,
    offsets: &'a [u8],
    data: &'a [u8],
    bit_offset: usize,
    len: usize,
    large: bool,
}

/// The Python tuple a column arrives as: `(validity or None, offsets,
/// data, bit offset, length, large)`.
pub(crate) type ColumnArg<'py> = (
    Option<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
    usize,
    bool,
);

impl<'a> Strings<'a> {
    /// Reads a column's buffers, checking their sizes.
    pub(crate) fn new(arg: &'a ColumnArg<'_>) -> PyResult<Strings<'a>> {
        let (validity, offsets, data, bit_offset, len, large) = arg;
        let s = Strings {
            validity: validity.as_ref().map(|v| v.as_bytes()),
            offsets: offsets.as_bytes(),
            data: data.as_bytes(),
            bit_offset: *bit_offset,
            len: *len,
            large: *large,
        };
        let width = if s.large { 8 } else { 4 };
        if s.offsets.len() < (s.len + 1) * width {
            return Err(PyValueError::new_err(
                "Arrow offsets buffer too short",
            ));
        }
        if let Some(v) = s.validity
            && v.len() * 8 < s.bit_offset + s.len
        {
            return Err(PyValueError::new_err(
                "Arrow validity bitmap too short",
            ));
        }
        Ok(s)
    }

    fn offset(&self, i: usize) -> i64 {
        if self.large {
            let b = &self.offsets[i * 8..i * 8 + 8];
            i64::from_le_bytes(b.try_into().expect("8 bytes"))
        } else {
            let b = &self.offsets[i * 4..i * 4 + 4];
            i64::from(i32::from_le_bytes(b.try_into().expect("4 bytes")))
        }
    }

    /// The `i`-th value, None when null; an error when its offsets point
    /// outside the data.
    pub(crate) fn get(&self, i: usize) -> Result<Option<&'a [u8]>, String> {
        if let Some(v) = self.validity {
            let bit = self.bit_offset + i;
            if v[bit / 8] & (1 << (bit % 8)) == 0 {
                return Ok(None);
            }
        }
        let first = self.offset(0);
        let (start, end) =
            (self.offset(i) - first, self.offset(i + 1) - first);
        if start < 0 || end < start || end as usize > self.data.len() {
            return Err(format!("Arrow offsets of row {i} out of bounds"));
        }
        Ok(Some(&self.data[start as usize..end as usize]))
    }
}

/// A string column being built: data, offsets and validity, as Arrow
/// lays them out.
#[derive(Default)]
pub(crate) struct StringsOut {
    data: Vec<u8>,
    offsets: Vec<i64>,
    validity: Vec<u8>,
    nulls: usize,
}

impl StringsOut {
    fn new() -> StringsOut {
        StringsOut { offsets: vec![0], ..Default::default() }
    }
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    /// Sets the validity bit of the row just pushed.
    fn mark(&mut self, valid: bool) {
        let i = self.len() - 1;
        if i / 8 >= self.validity.len() {
            self.validity.push(0);
        }
        if valid {
            self.validity[i / 8] |= 1 << (i % 8);
        } else {
            self.nulls += 1;
        }
    }
    /// Appends a value, or a null.
    pub(crate) fn push(&mut self, value: Option<&[u8]>) {
        if let Some(v) = value {
            self.data.extend_from_slice(v);
        }
        self.offsets.push(self.data.len() as i64);
        self.mark(value.is_some());
    }
    /// Appends a value written by `write`.
    pub(crate) fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.data);
        self.offsets.push(self.data.len() as i64);
        self.mark(true);
    }

    /// The column for Python: `(validity or None, offsets, data, large)`,
    /// with 32-bit offsets (`string`) unless the data needs 64 (`large_string`).
    fn into_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let large = self.data.len() > i32::MAX as usize;
        let offsets = if large {
            let bytes: Vec<u8> =
                self.offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
            PyBytes::new(py, &bytes)
        } else {
            let bytes: Vec<u8> = self
                .offsets
                .iter()
                .flat_map(|&o| (o as i32).to_le_bytes())
                .collect();
            PyBytes::new(py, &bytes)
        };
        let validity =
            (self.nulls > 0).then(|| PyBytes::new(py, &self.validity));
        (validity, offsets, PyBytes::new(py, &self.data), large)
            .into_pyobject(py)
            .map(|t| t.into_any())
    }
}

/// The rows of the links table: the page, the link, its kind, its `rel`
/// values and the link's host.
pub(crate) struct LinkRows {
    page: StringsOut,
    link: StringsOut,
    kind: StringsOut,
    rel: StringsOut,
    host: StringsOut,
    parser: Parser,
    /// Whether targets are the URL Standard's: their hosts are then read
    /// by it too, since such a target may hold what RFC 3986 forbids.
    whatwg: bool,
    /// The kinds to keep (`html:a@href`, ...); all when None.
    kinds: Option<Vec<String>>,
    kind_buf: String,
}

impl LinkRows {
    /// An empty table that will keep the links of `kinds` (all when
    /// None), of targets by the URL Standard when `whatwg`.
    pub(crate) fn new(kinds: Option<Vec<String>>, whatwg: bool) -> LinkRows {
        LinkRows {
            page: StringsOut::new(),
            link: StringsOut::new(),
            kind: StringsOut::new(),
            rel: StringsOut::new(),
            host: StringsOut::new(),
            parser: Parser::new().iri(true),
            whatwg,
            kinds,
            kind_buf: String::new(),
        }
    }

    /// Whether the table keeps links of `link`'s kind.
    fn keeps(&mut self, link: LinkRef<'_>) -> bool {
        use std::fmt::Write;
        let Some(kinds) = &self.kinds else { return true };
        self.kind_buf.clear();
        let _ = write!(self.kind_buf, "{}", link.kind());
        kinds.contains(&self.kind_buf)
    }

    /// Adds a row for `link` of the page `page`: its target, or the link
    /// as written when it names none (then the host is null). A link of
    /// a kind not kept adds nothing.
    pub(crate) fn push(&mut self, page: Option<&[u8]>, link: LinkRef<'_>) {
        use std::io::Write;
        if !self.keeps(link) {
            return;
        }
        self.page.push(page);
        let target = link.target();
        self.link.push(Some(target.unwrap_or(link.link()).as_bytes()));
        self.kind.push_with(|d| {
            let _ = write!(d, "{}", link.kind());
        });
        self.rel.push(link.rel().map(str::as_bytes));
        let url;
        let host = if self.whatwg {
            url = target.and_then(|t| url::Url::parse(t).ok());
            url.as_ref().and_then(|u| u.host_str())
        } else {
            target.and_then(|t| self.parser.parse_uri(t).ok()?.host())
        };
        match host {
            Some(h) => self.host.push_with(|d| {
                d.extend(h.bytes().map(|b| b.to_ascii_lowercase()))
            }),
            None => self.host.push(None),
        }
    }

    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        self.page.len()
    }

    /// The columns for Python: a list of `(name, column)`.
    pub(crate) fn into_py<'py>(
        self,
        py: Python<'py>,
    ) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
        Ok(vec![
            ("page", self.page.into_py(py)?),
            ("link", self.link.into_py(py)?),
            ("kind", self.kind.into_py(py)?),
            ("rel", self.rel.into_py(py)?),
            ("host", self.host.into_py(py)?),
        ])
    }
}

/// _links_columns(content, url, format, kinds=None, standard="rfc3986")
/// --
///
/// The links of each row's document (`content`, resolved against `url`)
/// as the columns of the links table; see `uriscan.arrow.links_batch`.
#[pyfunction]
#[pyo3(signature = (content, url, format, kinds=None, standard="rfc3986"))]
pub(crate) fn _links_columns<'py>(
    py: Python<'py>,
    content: ColumnArg<'py>,
    url: ColumnArg<'py>,
    format: &str,
    kinds: Option<Vec<String>>,
    standard: &str,
) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
    let format: Format = crate::links::format(format)?;
    let whatwg = url_standard(standard)?;
    let content = Strings::new(&content)?;
    let url = Strings::new(&url)?;
    if content.len != url.len {
        return Err(PyValueError::new_err("content and url differ in length"));
    }
    let rows = py.detach(|| -> Result<LinkRows, String> {
        let extractor = extractor(whatwg);
        let mut rows = LinkRows::new(kinds, whatwg);
        for i in 0..content.len {
            let Some(doc) = content.get(i)? else { continue };
            // A binary URL column may hold bad UTF-8: the page column is
            // a string column, so it gets U+FFFD for it.
            let url_str = url.get(i)?.map(String::from_utf8_lossy);
            let mut page = Page::new(doc, format);
            if let Some(u) = &url_str {
                page = page.url(u);
            }
            let page_bytes = url_str.as_deref().map(str::as_bytes);
            // Borrowed: a row is copied out of each link, none is kept.
            extractor.for_each(&page, |link| rows.push(page_bytes, link));
        }
        Ok(rows)
    });
    rows.map_err(PyValueError::new_err)?.into_py(py)
}
