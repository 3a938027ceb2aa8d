//! The links of a WARC record: its HTTP header links, and its payload read
//! by the document rules of [`crate::links`].

use std::sync::Arc;

use crate::Span;
use crate::links::{Format, Kind, Link, LinkExtractor, LinkRef, Page};

use super::error::WarcError;
use super::http::HttpResponse;
use super::record::{Record, RecordType, WarcReader};
use super::source::OffsetKind;
use super::warnings::RecordWarning;

/// The format a payload is read as: HTML for `text/html` and
/// `application/xhtml+xml` (and for a payload with no media type, or a
/// generic one, that starts like HTML), Markdown for `text/markdown`;
/// `None` for anything else (images, scripts, PDF, ...), which is not
/// read.
pub fn payload_format(
    media_type: Option<&str>,
    payload: &[u8],
) -> Option<Format> {
    match media_type {
        Some(m) if m.contains("html") => Some(Format::Html),
        Some("text/markdown" | "text/x-markdown") => Some(Format::Markdown),
        None
        | Some("" | "application/octet-stream" | "unk" | "unknown/unknown")
            if looks_like_html(payload) =>
        {
            Some(Format::Html)
        }
        _ => None,
    }
}

/// Whether `bytes` start (after a BOM and whitespace) with a doctype,
/// `<html`, `<head` or a comment: the sniffing of WHATWG MIME Sniffing
/// 7.1, cut down to the common openings.
fn looks_like_html(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let b = b.trim_ascii_start();
    ["<!doctype html", "<html", "<head", "<!--"].iter().any(|p| {
        b.len() >= p.len() && b[..p.len()].eq_ignore_ascii_case(p.as_bytes())
    })
}

/// The links of one record, resolved against its `WARC-Target-URI`:
///
/// - `response` with an HTTP message: `Location` (of a 3xx),
///   `Content-Location` and every `Link` header's URIs (kinds
///   `http:location`, `http:content-location`, `http:link`; their spans,
///   lines and columns are in the HTTP header block), then the links of
///   the payload (spans in the payload, chunked and content coding
///   undone), read by [`payload_format`] with the charset of
///   `Content-Type` (else the document's own `<meta charset>`) and the
///   base of its `<base href>` (else the target URI);
/// - `resource`: the block, by the record's `Content-Type`;
/// - `conversion` (WET): the text's URIs, by the extractor's
///   [`Finder`](crate::scanning::Finder);
/// - any other record: none.
///
/// ```
/// use uriscan::links::LinkExtractor;
/// use uriscan::warc::{WarcReader, record_links};
///
/// let http = b"HTTP/1.1 301 Moved\r\nLocation: /new\r\n\r\n";
/// let warc = [
///     &b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/old\r\n"[..],
///     format!("Content-Length: {}\r\n\r\n", http.len()).as_bytes(),
///     http,
///     b"\r\n\r\n",
/// ]
/// .concat();
/// let record = WarcReader::new(&warc[..]).next().unwrap().unwrap();
/// let links = record_links(&record, &LinkExtractor::new());
/// assert_eq!(links[0].target(), Some("http://a.example/new"));
/// assert_eq!(links[0].kind().to_string(), "http:location");
/// ```
pub fn record_links(record: &Record, extractor: &LinkExtractor) -> Vec<Link> {
    let mut out = vec![];
    for_each_record_link(record, extractor, |l| out.push(l.to_link()));
    out
}

/// Hands each link of [`record_links`] to `f`, borrowed: no allocation
/// per payload link (see [`LinkExtractor::for_each`]).
///
/// ```
/// use uriscan::links::LinkExtractor;
/// use uriscan::warc::{WarcReader, for_each_record_link};
///
/// let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=b>b</a>";
/// let warc = [
///     &b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\n"[..],
///     format!("Content-Length: {}\r\n\r\n", http.len()).as_bytes(),
///     http,
///     b"\r\n\r\n",
/// ]
/// .concat();
/// let record = WarcReader::new(&warc[..]).next().unwrap().unwrap();
/// let mut targets = vec![];
/// for_each_record_link(&record, &LinkExtractor::new(), |l| {
///     targets.push(l.target().map(str::to_owned));
/// });
/// assert_eq!(targets, [Some("http://a.example/b".to_owned())]);
/// ```
pub fn for_each_record_link(
    record: &Record,
    extractor: &LinkExtractor,
    mut f: impl FnMut(LinkRef<'_>),
) {
    let target = record.target_uri();
    match record.record_type() {
        RecordType::Response => {
            let Some(http) = record.http() else { return };
            header_links(&http, target, &mut f);
            if let Some(payload) = record.payload() {
                let ct = http.header("Content-Type");
                document_links(payload, ct, target, extractor, &mut f);
            }
        }
        RecordType::Resource => {
            let ct = record.content_type().map(str::as_bytes);
            document_links(record.block(), ct, target, extractor, &mut f);
        }
        RecordType::Conversion => {
            let mut page = Page::new(record.block(), Format::Text);
            if let Some(t) = target {
                page = page.url(t);
            }
            extractor.for_each(&page, f);
        }
        _ => {}
    }
}

/// The links of a document of `content_type` (an HTTP or WARC
/// `Content-Type` value: its media type chooses the format, its charset
/// the encoding) at `url`.
fn document_links(
    doc: &[u8],
    content_type: Option<&[u8]>,
    url: Option<&str>,
    extractor: &LinkExtractor,
    f: &mut dyn FnMut(LinkRef<'_>),
) {
    let media = content_type.map(|c| {
        let end = memchr::memchr(b';', c).unwrap_or(c.len());
        String::from_utf8_lossy(c[..end].trim_ascii()).to_ascii_lowercase()
    });
    let Some(format) = payload_format(media.as_deref(), doc) else { return };
    let charset = content_type
        .and_then(crate::links::reader_api::charset_param)
        .map(|e| e.name());
    let mut page = Page::new(doc, format);
    if let Some(t) = url {
        page = page.url(t);
    }
    if let Some(c) = charset {
        page = page.charset(c);
    }
    extractor.for_each(&page, f);
}

/// The links of the response's header fields.
fn header_links(
    http: &HttpResponse<'_>,
    base: Option<&str>,
    f: &mut dyn FnMut(LinkRef<'_>),
) {
    let block = http.block();
    let at = |span: Span| {
        let line =
            1 + memchr::memchr_iter(b'\n', &block[..span.start]).count();
        let line_start =
            memchr::memrchr(b'\n', &block[..span.start]).map_or(0, |i| i + 1);
        (line as u64, (span.start - line_start) as u64 + 1)
    };
    let mut push = |kind, span: Span, rel| {
        let value = String::from_utf8_lossy(&block[span.range()]);
        f(Link::from_header(kind, &value, span, at(span), base, rel).as_ref());
    };
    // A `Location` is followed only on a redirect; a field given twice
    // counts once (RFC 9110 5.3: these are singletons).
    let redirect = (300..400).contains(&http.status());
    if let Some(span) =
        http.header_spans("Location").next().filter(|_| redirect)
    {
        push(Kind::HttpLocation, span, None);
    }
    if let Some(span) = http.header_spans("Content-Location").next() {
        push(Kind::HttpContentLocation, span, None);
    }
    for field in http.header_spans("Link") {
        for (uri, rel) in link_header(&block[field.range()]) {
            let span = Span::new(field.start + uri.0, field.start + uri.1);
            let rel =
                rel.map(|(s, e)| &block[field.start + s..field.start + e]);
            push(Kind::HttpLink, span, rel);
        }
    }
}

/// A range of bytes, start and end.
type Range = (usize, usize);

/// The URI references of a `Link` field value (RFC 8288 3): `<uri>`
/// followed by `;` parameters, links separated by commas; each with the
/// value of its `rel` parameter (quoted or not), as ranges of `v`.
pub(crate) fn link_header(v: &[u8]) -> Vec<(Range, Option<Range>)> {
    let mut out = vec![];
    let mut i = 0;
    while i < v.len() {
        let Some(lt) = memchr::memchr(b'<', &v[i..]).map(|p| i + p) else {
            break;
        };
        let Some(gt) = memchr::memchr(b'>', &v[lt..]).map(|p| lt + p) else {
            break;
        };
        let uri = (lt + 1, gt);
        // The parameters, up to a comma outside quotes.
        let mut j = gt + 1;
        let mut quoted = false;
        let params_start = j;
        while j < v.len() {
            match v[j] {
                b'"' => quoted = !quoted,
                b'\\' if quoted => j += 1,
                b',' if !quoted => break,
                _ => {}
            }
            j += 1;
        }
        let params_end = j.min(v.len());
        let rel = rel_param(&v[params_start..params_end])
            .map(|(s, e)| (params_start + s, params_start + e));
        out.push((uri, rel));
        i = params_end + 1;
    }
    out
}

/// The value of the `rel` parameter among `;`-separated parameters.
fn rel_param(p: &[u8]) -> Option<Range> {
    let mut at = 0;
    for part in p.split(|&b| b == b';') {
        let start = at;
        at += part.len() + 1;
        let Some(eq) = memchr::memchr(b'=', part) else { continue };
        if !part[..eq].trim_ascii().eq_ignore_ascii_case(b"rel") {
            continue;
        }
        let mut s = start + eq + 1;
        let mut e = start + part.len();
        while s < e && p[s].is_ascii_whitespace() {
            s += 1;
        }
        while e > s && p[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        if e > s + 1 && p[s] == b'"' && p[e - 1] == b'"' {
            s += 1;
            e -= 1;
        }
        return Some((s, e));
    }
    None
}

/// One link of a WARC file, with the record it came from.
#[derive(Clone, Debug)]
pub struct WarcLink {
    page: Arc<str>,
    record_id: Arc<str>,
    record_offset: u64,
    offset_kind: OffsetKind,
    warnings: Arc<[RecordWarning]>,
    link: Link,
}

impl WarcLink {
    /// The record's `WARC-Target-URI` (empty when it has none).
    pub fn page(&self) -> &str {
        &self.page
    }
    /// The record's `WARC-Record-ID` (empty when it has none).
    pub fn record_id(&self) -> &str {
        &self.record_id
    }
    /// The record's offset ([`Record::offset`]).
    pub fn record_offset(&self) -> u64 {
        self.record_offset
    }
    /// What [`WarcLink::record_offset`] counts ([`Record::offset_kind`]).
    pub fn offset_kind(&self) -> OffsetKind {
        self.offset_kind
    }
    /// The record's warnings ([`Record::warnings`]): what was odd in it
    /// but read all the same.
    pub fn warnings(&self) -> &[RecordWarning] {
        &self.warnings
    }
    /// The link.
    pub fn link(&self) -> &Link {
        &self.link
    }
    /// The link, taken out.
    pub fn into_link(self) -> Link {
        self.link
    }
}

/// Every link of every record of a WARC file, in order: an iterator over a
/// [`WarcReader`], with the damaged records' errors in their place (the
/// iteration goes on after them).
///
/// ```
/// use uriscan::links::LinkExtractor;
/// use uriscan::warc::{WarcLinks, WarcReader};
///
/// let body = b"<a href=/about rel=nofollow>About</a>";
/// let http = [&b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"[..], body].concat();
/// let warc = [
///     &b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n"[..],
///     b"WARC-Target-URI: https://example.com/\r\n",
///     format!("Content-Length: {}\r\n\r\n", http.len()).as_bytes(),
///     &http,
///     b"\r\n\r\n",
/// ]
/// .concat();
/// let extractor = LinkExtractor::new();
/// let links: Vec<_> = WarcLinks::new(WarcReader::new(&warc[..]), &extractor)
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(links[0].page(), "https://example.com/");
/// assert_eq!(links[0].record_id(), "<urn:uuid:1>");
/// assert_eq!(links[0].link().target(), Some("https://example.com/about"));
/// assert_eq!(links[0].link().rel(), Some("nofollow"));
/// ```
pub struct WarcLinks<'e, R> {
    reader: WarcReader<R>,
    extractor: &'e LinkExtractor,
    pending: std::vec::IntoIter<Link>,
    page: Arc<str>,
    record_id: Arc<str>,
    record_offset: u64,
    offset_kind: OffsetKind,
    warnings: Arc<[RecordWarning]>,
}

impl<'e, R: std::io::Read> WarcLinks<'e, R> {
    /// The links of the records `reader` reads.
    pub fn new(reader: WarcReader<R>, extractor: &'e LinkExtractor) -> Self {
        WarcLinks {
            reader,
            extractor,
            pending: Vec::new().into_iter(),
            page: Arc::from(""),
            record_id: Arc::from(""),
            record_offset: 0,
            offset_kind: OffsetKind::File,
            warnings: Arc::from([]),
        }
    }
}

impl<R: std::io::Read> Iterator for WarcLinks<'_, R> {
    type Item = Result<WarcLink, WarcError>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(link) = self.pending.next() {
                return Some(Ok(WarcLink {
                    page: self.page.clone(),
                    record_id: self.record_id.clone(),
                    record_offset: self.record_offset,
                    offset_kind: self.offset_kind,
                    warnings: self.warnings.clone(),
                    link,
                }));
            }
            let record = match self.reader.next()? {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            self.pending = record_links(&record, self.extractor).into_iter();
            self.page = Arc::from(record.target_uri().unwrap_or(""));
            self.record_id = Arc::from(record.record_id().unwrap_or(""));
            self.record_offset = record.offset();
            self.offset_kind = record.offset_kind();
            self.warnings = Arc::from(record.warnings());
        }
    }
}

impl<R> std::fmt::Debug for WarcLinks<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcLinks")
            .field("page", &self.page)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_header_values() {
        let v = br#"<https://a/x>; rel="next prev", </y>;title="a,b";rel=preload, <z>"#;
        let got: Vec<_> = link_header(v)
            .into_iter()
            .map(|(u, r)| {
                (
                    std::str::from_utf8(&v[u.0..u.1]).unwrap(),
                    r.map(|r| std::str::from_utf8(&v[r.0..r.1]).unwrap()),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("https://a/x", Some("next prev")),
                ("/y", Some("preload")),
                ("z", None)
            ]
        );
    }

    #[test]
    fn sniffing() {
        assert_eq!(
            payload_format(None, b"\n <!DOCTYPE html><p>"),
            Some(Format::Html)
        );
        assert_eq!(
            payload_format(Some("text/html"), b"x"),
            Some(Format::Html)
        );
        assert_eq!(payload_format(Some("image/png"), b"<html"), None);
        assert_eq!(payload_format(None, b"plain"), None);
        assert_eq!(
            payload_format(Some("text/markdown"), b"#"),
            Some(Format::Markdown)
        );
    }
}
