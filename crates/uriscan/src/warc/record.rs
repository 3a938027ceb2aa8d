//! WARC records (ISO 28500, WARC 1.0 and 1.1), read one after another
//! from a stream, with the resynchronization that keeps a damaged record
//! from costing the ones after it.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufReader, Read};
use std::sync::OnceLock;

use super::error::{HeaderProblem, LengthProblem, WarcError, WarcErrorKind};
use super::http::HttpResponse;
use super::source::{self, OffsetKind, Source};
use super::warnings::RecordWarning;

/// The bytes read ahead to tell gzip from plain.
const SNIFF: usize = 4096;

/// The default cap on a record's block: larger blocks are cut to it
/// ([`Record::truncated`]) and the rest skipped unread.
pub const DEFAULT_MAX_BLOCK: usize = 64 << 20;

/// The largest header block read: WARC headers are a few hundred bytes;
/// more than this is not a WARC header.
const MAX_HEADER: usize = 256 << 10;

/// The end of a record: its block is followed by two CRLFs.
const TRAILER: &[u8] = b"\r\n\r\n";

/// The start of a record's header, the version line.
const MAGIC: &[u8] = b"WARC/1.";

/// A block's end and the next record's start.
const NEXT_RECORD: &[u8] = b"\r\n\r\nWARC/1.";

/// How far from where a record should end the next one is looked for,
/// when its block is not followed by its trailer: lengths a few bytes off
/// are read as warcio and jwarc read them, a block far off is damage.
const RESYNC_WINDOW: usize = 4 << 10;

/// The `WARC-Type` of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordType {
    /// `warcinfo`: about the file itself.
    Warcinfo,
    /// `response`: a server's full response (for HTTP, status line,
    /// headers and body).
    Response,
    /// `resource`: a resource without its protocol response.
    Resource,
    /// `request`: the request that was sent.
    Request,
    /// `metadata`: about another record.
    Metadata,
    /// `revisit`: a capture that repeats an earlier one.
    Revisit,
    /// `conversion`: another record's content converted (WET files: text).
    Conversion,
    /// `continuation`: a segment of a record.
    Continuation,
    /// A type the standard does not define, or none.
    Other,
}

impl RecordType {
    fn from_name(name: &str) -> RecordType {
        const TYPES: [(&str, RecordType); 8] = [
            ("warcinfo", RecordType::Warcinfo),
            ("response", RecordType::Response),
            ("resource", RecordType::Resource),
            ("request", RecordType::Request),
            ("metadata", RecordType::Metadata),
            ("revisit", RecordType::Revisit),
            ("conversion", RecordType::Conversion),
            ("continuation", RecordType::Continuation),
        ];
        TYPES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or(RecordType::Other, |&(_, t)| t)
    }
}

/// A header field: name and value.
type Field = (Box<str>, Box<str>);

/// One WARC record: its header fields and its block.
#[derive(Clone, Debug)]
pub struct Record {
    offset: u64,
    offset_kind: OffsetKind,
    version: Box<str>,
    headers: Vec<Field>,
    record_type: RecordType,
    content_length: u64,
    block: Vec<u8>,
    truncated: bool,
    /// What the reader let pass.
    warnings: Vec<RecordWarning>,
    /// The HTTP payload decoded, and what decoding it met: once, for the
    /// warnings and the links both.
    decoded: OnceLock<Decoded>,
}

/// A `response` record's HTTP payload, decoded.
#[derive(Clone, Debug)]
struct Decoded {
    payload: Payload,
    warnings: Vec<RecordWarning>,
}

/// Where a decoded payload's bytes are.
#[derive(Clone, Debug)]
enum Payload {
    /// Not an HTTP response, or in a content coding that is not read.
    None,
    /// The block from this offset on: the body, in no coding.
    Body(usize),
    /// Decoded into bytes of its own.
    Owned(Vec<u8>),
}

impl Record {
    /// Where the record starts, as [`Record::offset_kind`] says: the
    /// offset of its `WARC/1.` line in a plain file; in a compressed file,
    /// the offset of the gzip member it starts (what a CDX index gives, to
    /// seek to and decompress from), or, for a record that starts inside a
    /// member (a file compressed as one stream), its offset in the
    /// decompressed stream (the first record of such a file starts its
    /// member, at 0 either way).
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// What [`Record::offset`] counts.
    pub fn offset_kind(&self) -> OffsetKind {
        self.offset_kind
    }
    /// The version line's version, `1.0` or `1.1`.
    pub fn version(&self) -> &str {
        &self.version
    }
    /// The `WARC-Type`.
    pub fn record_type(&self) -> RecordType {
        self.record_type
    }
    /// The first header field named `name` (case-insensitive), its value
    /// trimmed; continuation lines are joined with a space.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| &**v)
    }
    /// Every header field, in order.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers.iter().map(|(n, v)| (&**n, &**v))
    }
    /// `WARC-Target-URI`, without the `<...>` that WARC 1.0's grammar
    /// wrote around it and some writers still do.
    pub fn target_uri(&self) -> Option<&str> {
        let t = self.header("WARC-Target-URI")?;
        Some(
            t.strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or(t),
        )
    }
    /// `WARC-Record-ID`, as written (`<urn:uuid:...>`).
    pub fn record_id(&self) -> Option<&str> {
        self.header("WARC-Record-ID")
    }
    /// The record's `Content-Type` (of its block: for an HTTP response,
    /// `application/http; msgtype=response`).
    pub fn content_type(&self) -> Option<&str> {
        self.header("Content-Type")
    }
    /// The `Content-Length` the header gives.
    pub fn content_length(&self) -> u64 {
        self.content_length
    }
    /// The block: for a `response`, the HTTP message as received; for a
    /// `conversion`, the converted text. Cut to the reader's cap when
    /// [`Record::truncated`].
    pub fn block(&self) -> &[u8] {
        &self.block
    }
    /// Whether the block was longer than the reader's cap and was cut.
    pub fn truncated(&self) -> bool {
        self.truncated
    }
    /// What was odd in the record but read all the same: what the reader
    /// met (line ends, a length a few bytes off, a short trailer), then,
    /// for an HTTP response, what its payload's decoding meets (line ends,
    /// a stale transfer or content coding). Empty for a clean record.
    pub fn warnings(&self) -> Vec<RecordWarning> {
        let mut out = self.warnings.clone();
        out.extend_from_slice(&self.decoded().warnings);
        out
    }
    /// The payload of an HTTP `response` record, as
    /// [`HttpResponse::payload`] gives it, decoded once and kept with the
    /// record (what [`Record::warnings`] says of it comes from the same
    /// decoding); `None` for any other record, or a content coding that
    /// is not read.
    pub fn payload(&self) -> Option<&[u8]> {
        match &self.decoded().payload {
            Payload::None => None,
            Payload::Body(start) => Some(&self.block[*start..]),
            Payload::Owned(bytes) => Some(bytes),
        }
    }
    fn decoded(&self) -> &Decoded {
        self.decoded.get_or_init(|| {
            let Some(http) = self.http() else {
                return Decoded { payload: Payload::None, warnings: vec![] };
            };
            let (payload, warnings) = http.decoded();
            let payload = match payload {
                None => Payload::None,
                Some(Cow::Borrowed(_)) => Payload::Body(http.body_start()),
                Some(Cow::Owned(bytes)) => Payload::Owned(bytes),
            };
            Decoded { payload, warnings }
        })
    }
    /// The HTTP response a `response` record holds (a block that starts
    /// with `HTTP/`): status, headers and payload.
    pub fn http(&self) -> Option<HttpResponse<'_>> {
        if self.record_type != RecordType::Response {
            return None;
        }
        HttpResponse::parse(&self.block).map(|h| h.cut_short(self.truncated))
    }
}

/// Where the reader stands after a damaged record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resync {
    /// At the next record already.
    Ready,
    /// Inside the damaged record: scan for a line that starts `WARC/1.`
    /// (or a gzip member that does).
    Scan,
    /// Inside a damaged gzip member: skip to the next member.
    Member,
    /// Nothing more can be read.
    Stop,
}

/// Reads the records of a WARC file from any [`Read`]: plain, gzip with
/// one member per record (the norm), or gzip as one stream, told apart
/// by the first bytes.
///
/// Memory is bounded by the largest block read (capped, see
/// [`WarcReader::max_block`]) and the header cap (256 KiB). A damaged
/// record is an `Err` item with its offset; the iteration goes on at the
/// next record that can be found:
///
/// - a gzip member that does not decompress: the next member (searched
///   from just after the damaged member's start, as the decoder may have
///   read past the next one's header before it failed; in a file
///   compressed as one stream there is no next member, and reading stops
///   at the damage);
/// - a header that is no WARC header, or a block that does not end at
///   `CRLF CRLF`: the next `WARC/1.` (or gzip member that starts with
///   it); when a block read by a too large `Content-Length` holds the
///   next record's start, the reader backs up to it, so that record is
///   kept;
/// - a block cut short by its gzip member's end, when the next member
///   starts a record: that record.
///
/// ```
/// use uriscan::warc::{RecordType, WarcReader};
///
/// let warc = b"WARC/1.1\r\nWARC-Type: resource\r\n\
///     WARC-Target-URI: http://example.com/\r\nContent-Length: 5\r\n\r\n\
///     hello\r\n\r\n";
/// let records: Vec<_> = WarcReader::new(&warc[..]).collect::<Result<_, _>>().unwrap();
/// assert_eq!(records[0].record_type(), RecordType::Resource);
/// assert_eq!(records[0].target_uri(), Some("http://example.com/"));
/// assert_eq!(records[0].block(), b"hello");
/// ```
pub struct WarcReader<R> {
    src: Source<BufReader<io::Chain<io::Cursor<Vec<u8>>, R>>>,
    max_block: usize,
    done: bool,
    header: Vec<u8>,
    /// A damaged gzip member met while skipping past an earlier damaged
    /// record, reported next.
    pending: Option<WarcError>,
    /// The file's format, known from its first record.
    format: Format,
}

/// A block read: its bytes, whether they were cut to the cap, and the
/// warning of a length a few bytes too large.
type BlockRead = (Vec<u8>, bool, Option<RecordWarning>);

/// The format of an archive, known by its first record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Not known yet.
    Unknown,
    Warc,
    /// ARC v1 (`1`) or v2 (`2`), as its `filedesc://` record says.
    Arc(u8),
}

/// Where a record starts: its offset and what it counts, and the offset
/// of its gzip member (of itself in a plain file), which resynchronizing
/// compares.
#[derive(Clone, Copy, Debug)]
struct Start {
    member: u64,
    offset: u64,
    kind: OffsetKind,
}

impl Start {
    fn error(&self, kind: WarcErrorKind) -> WarcError {
        WarcError { offset: self.offset, offset_kind: self.kind, kind }
    }
}

/// The start of an ARC file: its file description record.
const ARC_MAGIC: &[u8] = b"filedesc://";

impl<R: Read> WarcReader<R> {
    /// A reader of `r`, which it buffers.
    pub fn new(mut r: R) -> WarcReader<R> {
        // The first bytes tell gzip from plain, whatever the size of the
        // reader's reads; a read error shows again on the next read.
        let mut head = vec![0; SNIFF];
        let mut n = 0;
        while n < SNIFF {
            match r.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        head.truncate(n);
        let gzip = source::sniff_gzip(&head);
        let r = io::Cursor::new(head).chain(r);
        WarcReader {
            src: Source::new(BufReader::with_capacity(64 * 1024, r), gzip),
            max_block: DEFAULT_MAX_BLOCK,
            done: false,
            header: vec![],
            pending: None,
            format: Format::Unknown,
        }
    }

    /// The cap on a record's block in bytes (default
    /// [`DEFAULT_MAX_BLOCK`], 64 MiB): the rest of a longer block is
    /// skipped and the record marked [`Record::truncated`].
    pub fn max_block(&mut self, bytes: usize) -> &mut Self {
        self.max_block = bytes;
        self
    }

    /// Whether the file is gzip.
    pub fn is_gzip(&self) -> bool {
        self.src.is_gzip()
    }

    /// The next record, or the next damaged record's error.
    pub fn next_record(&mut self) -> Option<Result<Record, WarcError>> {
        if let Some(e) = self.pending.take() {
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        let mut start = self.start();
        match self.read_record(&mut start) {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err((kind, resync)) => {
                let kind = match kind {
                    WarcErrorKind::BadGzip(e) if !is_data_error(&e) => {
                        // An error of the file, not of the data in it.
                        self.done = true;
                        let kind = WarcErrorKind::Io(e);
                        return Some(Err(start.error(kind)));
                    }
                    k => k,
                };
                // A read error while resynchronizing ends the reading: the
                // record's own damage is what is reported.
                if resync == Resync::Stop
                    || self.resync(resync, start.member).is_err()
                {
                    self.done = true;
                }
                Some(Err(start.error(kind)))
            }
        }
    }

    /// Where the next record starts.
    fn start(&self) -> Start {
        let (offset, kind) = self.src.record_offset();
        Start { member: self.src.offset(), offset, kind }
    }

    /// Moves to the next record after a damaged one, at `damaged`.
    fn resync(&mut self, how: Resync, damaged: u64) -> io::Result<()> {
        match how {
            Resync::Ready | Resync::Stop => Ok(()),
            Resync::Member => {
                self.src.skip_to_next_member()?;
                Ok(())
            }
            Resync::Scan => self.scan(damaged),
        }
    }

    /// During a scan, the decoder failed in the current gzip member: skips
    /// it, and unless it is the member of the record whose damage is being
    /// reported, keeps its error to report next. Whether a member fails
    /// before or after the scan finds a `WARC/1.` in it depends on the size
    /// of the reads; either way it is reported, at its offset.
    fn damaged_member(
        &mut self,
        e: io::Error,
        damaged: u64,
    ) -> io::Result<()> {
        let offset = self.src.offset();
        self.src.skip_to_next_member()?;
        if self.src.is_gzip() && offset != damaged && is_data_error(&e) {
            let kind = WarcErrorKind::BadGzip(e);
            let offset_kind = OffsetKind::GzipMember;
            self.pending = Some(WarcError { offset, offset_kind, kind });
        }
        Ok(())
    }

    /// Skips to the next `WARC/1.`, or the next gzip member that starts
    /// with it. Not only at a line's start: the damage may have taken the
    /// line end before it. (A `WARC/1.` in the text of a page is then a
    /// false start, reported as a record without a header, and the search
    /// goes on; the real record after it is found by the header reader,
    /// which stops at a `WARC/1.` line.)
    fn scan(&mut self, damaged: u64) -> io::Result<()> {
        let finder = memchr::memmem::Finder::new(MAGIC);
        let len = finder.needle().len();
        loop {
            let avail = match self.src.fill(len) {
                Ok(a) => a,
                Err(e) => {
                    self.damaged_member(e, damaged)?;
                    if self.pending.is_some()
                        || self.next_member_at_record(damaged)?
                    {
                        return Ok(());
                    }
                    continue;
                }
            };
            if avail.is_empty() {
                if self.next_member_at_record(damaged)? {
                    return Ok(());
                }
                continue;
            }
            if let Some(i) = finder.find(avail) {
                self.src.consume(i);
                return Ok(());
            }
            // Keep the bytes that may start the needle, unless nothing
            // more comes in this member.
            let n = avail.len();
            let last = self.src.at_member_end_after(n);
            self.src.consume(if last { n } else { n - (len - 1).min(n) });
        }
    }

    /// Starts the next gzip member: whether the scan is over, because it
    /// starts a record, there is none, or the member is damaged (its error
    /// is reported next).
    fn next_member_at_record(&mut self, damaged: u64) -> io::Result<bool> {
        match self.src.next_member() {
            Ok(true) => {}
            Ok(false) => return Ok(true),
            // Bytes that are no member, skipped: the search goes on.
            Err(e) if is_data_error(&e) => return Ok(false),
            Err(e) => return Err(e),
        }
        match self.src.fill(MAGIC.len()) {
            Ok(a) => Ok(a.starts_with(MAGIC)),
            Err(e) => {
                self.damaged_member(e, damaged)?;
                Ok(self.pending.is_some())
            }
        }
    }

    /// Skips the blank lines between records, moving on to the next gzip
    /// member at a member's end; `false` at the end of the file.
    fn skip_blank(&mut self) -> io::Result<bool> {
        loop {
            let avail = self.src.fill(1)?;
            if avail.is_empty() {
                if self.src.next_member()? {
                    continue;
                }
                return Ok(false);
            }
            let n = avail
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            if n < avail.len() {
                self.src.consume(n);
                return Ok(true);
            }
            self.src.consume(n);
        }
    }

    fn read_record(
        &mut self,
        start: &mut Start,
    ) -> Result<Option<Record>, (WarcErrorKind, Resync)> {
        let gz = |e: io::Error| (WarcErrorKind::BadGzip(e), Resync::Member);
        let more = self.skip_blank();
        *start = self.start();
        if !more.map_err(gz)? {
            return Ok(None);
        }
        if self.format == Format::Unknown {
            let head = self.src.fill_across(ARC_MAGIC.len()).map_err(gz)?;
            self.format = match head.starts_with(ARC_MAGIC) {
                true => Format::Arc(1),
                false => Format::Warc,
            };
        }
        if let Format::Arc(version) = self.format {
            return self.read_arc_record(start, version).map(Some);
        }
        let mut warnings = vec![];
        if self.read_header()? {
            warnings.push(RecordWarning::WarcLineEnds);
        }
        let (version, headers) = parse_header(&self.header);
        let length = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .and_then(|(_, v)| v.parse::<u64>().ok())
            .ok_or((WarcErrorKind::BadLength, Resync::Scan))?;
        let record_type = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("WARC-Type"))
            .map_or(RecordType::Other, |(_, v)| RecordType::from_name(v));
        let (mut block, truncated, ended) = self.read_block(length)?;
        let warning = match ended {
            Some(w) => Some(w),
            None => self.read_trailer(&mut block, truncated)?,
        };
        warnings.extend(warning);
        Ok(Some(Record {
            offset: start.offset,
            offset_kind: start.kind,
            version,
            headers,
            record_type,
            content_length: length,
            block,
            truncated,
            warnings,
            decoded: OnceLock::new(),
        }))
    }

    /// Reads one ARC record (the Internet Archive's ARC file format, v1
    /// and v2): a header line of space-separated fields (URL, IP address,
    /// date, content type, ..., length last), then `length` bytes, then a
    /// line end. The record is given WARC's fields: `WARC-Target-URI`,
    /// `WARC-Date`, `Content-Type`, `Content-Length`, a `WARC-Type` of
    /// `warcinfo` for the `filedesc://` record, `response` for a block
    /// that starts with `HTTP/`, else `resource`; and a `WARC-Record-ID`
    /// made from the date and the URL, as the Wayback Machine names a
    /// capture: `<urn:arc:{date}/{url}>`.
    fn read_arc_record(
        &mut self,
        start: &Start,
        version: u8,
    ) -> Result<Record, (WarcErrorKind, Resync)> {
        let gz = |e: io::Error| (WarcErrorKind::BadGzip(e), Resync::Member);
        self.header.clear();
        loop {
            let avail = self.src.fill(1).map_err(gz)?;
            if avail.is_empty() {
                let m = HeaderProblem::Unterminated;
                return Err((WarcErrorKind::BadHeader(m), Resync::Ready));
            }
            if self.take_line(Resync::Member)? {
                break;
            }
        }
        let line = String::from_utf8_lossy(&self.header).trim_end().to_owned();
        let fields: Vec<&str> = line.split(' ').collect();
        // v2 has five fields more between the content type and the
        // length; a URL with spaces in it takes the fields before.
        let after_url = if version >= 2 { 9 } else { 4 };
        let parsed = (fields.len() > after_url)
            .then(|| {
                let n = fields.len();
                let length = fields[n - 1].parse::<u64>().ok()?;
                let url = fields[..n - after_url].join(" ");
                let date = fields[n - after_url + 1];
                let mime = fields[n - after_url + 2];
                Some((url, date.to_owned(), mime.to_owned(), length))
            })
            .flatten();
        let Some((url, date, mime, length)) = parsed else {
            return Err((WarcErrorKind::BadLength, Resync::Ready));
        };
        let (block, truncated, ended) = self.read_block(length)?;
        let record_type = if url.starts_with("filedesc://") {
            RecordType::Warcinfo
        } else if block.starts_with(b"HTTP/") {
            RecordType::Response
        } else {
            RecordType::Resource
        };
        if record_type == RecordType::Warcinfo {
            // The second line's first number is the format's version.
            let text = String::from_utf8_lossy(&block);
            if text.lines().next().is_some_and(|l| l.starts_with("2 ")) {
                self.format = Format::Arc(2);
            }
        }
        let name = match record_type {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            _ => "resource",
        };
        let field = |n: &str, v: String| (Box::from(n), v.into_boxed_str());
        let headers = vec![
            field("WARC-Type", name.to_owned()),
            field("WARC-Record-ID", format!("<urn:arc:{date}/{url}>")),
            field("WARC-Target-URI", url),
            field("WARC-Date", date),
            field("Content-Type", mime),
            field("Content-Length", length.to_string()),
        ];
        Ok(Record {
            offset: start.offset,
            offset_kind: start.kind,
            version: Box::from(""),
            headers,
            record_type,
            content_length: length,
            block,
            truncated,
            warnings: ended.into_iter().collect(),
            decoded: OnceLock::new(),
        })
    }

    /// Moves the buffered bytes (some are) up to and with the next LF, or
    /// all of them, into `self.header`; whether the LF was among them. A
    /// header longer than [`MAX_HEADER`] is an error, resynchronized by
    /// `too_long`.
    fn take_line(
        &mut self,
        too_long: Resync,
    ) -> Result<bool, (WarcErrorKind, Resync)> {
        let gz = |e: io::Error| (WarcErrorKind::BadGzip(e), Resync::Member);
        let avail = self.src.fill(1).map_err(gz)?;
        let (n, eol) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        self.header.extend_from_slice(&avail[..n]);
        self.src.consume(n);
        if self.header.len() > MAX_HEADER {
            let m = HeaderProblem::TooLong { limit: MAX_HEADER };
            return Err((WarcErrorKind::BadHeader(m), too_long));
        }
        Ok(eol)
    }

    /// Reads the header block, version line first, into `self.header`.
    /// A header cut short (by the file's end, or by a new record's
    /// version line, or by a gzip member's end when the next member starts
    /// a record) is an error, the reader left at what follows. Whether
    /// some line ends in LF alone or in CR CR LF.
    fn read_header(&mut self) -> Result<bool, (WarcErrorKind, Resync)> {
        let gz = |e: io::Error| (WarcErrorKind::BadGzip(e), Resync::Member);
        let cut = |resync| {
            (WarcErrorKind::BadHeader(HeaderProblem::Unterminated), resync)
        };
        self.header.clear();
        let first = self.src.fill_across(MAGIC.len()).map_err(gz)?;
        if !first.starts_with(MAGIC) {
            return Err((WarcErrorKind::NotWarc, Resync::Scan));
        }
        let mut line_start = 0;
        let mut at_line_start = true;
        let mut odd_line_ends = false;
        loop {
            let avail = if at_line_start {
                let head = self.src.fill_across(MAGIC.len()).map_err(gz)?;
                if line_start > 0 && head.starts_with(MAGIC) {
                    return Err(cut(Resync::Ready));
                }
                head
            } else {
                self.src.fill(1).map_err(gz)?
            };
            if avail.is_empty() {
                // A header that goes on in the next gzip member, unless
                // that member starts a record.
                if !self.src.next_member().map_err(gz)? {
                    return Err(cut(Resync::Stop));
                }
                if self.src.fill(MAGIC.len()).map_err(gz)?.starts_with(MAGIC) {
                    return Err(cut(Resync::Ready));
                }
                continue;
            }
            let eol = self.take_line(Resync::Scan)?;
            at_line_start = eol;
            if eol {
                let line = &self.header[line_start..];
                odd_line_ends |=
                    !line.ends_with(b"\r\n") || line.ends_with(b"\r\r\n");
                if matches!(line, b"\r\n" | b"\n" | b"\r\r\n") {
                    return Ok(odd_line_ends);
                }
                line_start = self.header.len();
            }
        }
    }

    /// Reads `length` bytes of block, keeping at most `max_block`; and,
    /// when the file or the record's gzip member ends at most
    /// [`RESYNC_WINDOW`] bytes short of it (the next member starting a
    /// record), the warning of a length a few bytes too large: the block
    /// ends there, its trailer left out.
    fn read_block(
        &mut self,
        length: u64,
    ) -> Result<BlockRead, (WarcErrorKind, Resync)> {
        let gz = |e: io::Error| (WarcErrorKind::BadGzip(e), Resync::Member);
        let keep = length.min(self.max_block as u64) as usize;
        let mut block = Vec::with_capacity(keep.min(4 << 20));
        let mut left = length;
        while left > 0 {
            let avail = self.src.fill(1).map_err(gz)?;
            if avail.is_empty() {
                let read = length - left;
                let in_gzip_member = self.src.is_gzip();
                let short = || {
                    WarcErrorKind::WrongLength(LengthProblem::EndsEarly {
                        read,
                        length,
                        in_gzip_member,
                    })
                };
                let near = left <= RESYNC_WINDOW as u64
                    && (block.len() as u64) == read
                    && memchr::memmem::find(&block, NEXT_RECORD).is_none();
                if !self.src.next_member().map_err(gz)? {
                    if near {
                        let w = length_off(&mut block, length);
                        return Ok((block, false, Some(w)));
                    }
                    // A length past the end: the records it swallowed are
                    // read again.
                    let resync = if self.back_up(&block, read, &[]) {
                        Resync::Ready
                    } else {
                        Resync::Stop
                    };
                    return Err((short(), resync));
                }
                // A record cut short by its member's end, when the next
                // member starts a record; else a block that spans
                // members (blocked gzip), read on.
                if self.src.fill(MAGIC.len()).map_err(gz)?.starts_with(MAGIC) {
                    if near {
                        let w = length_off(&mut block, length);
                        return Ok((block, false, Some(w)));
                    }
                    return Err((short(), Resync::Ready));
                }
                continue;
            }
            let n =
                avail.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            let room = keep - block.len();
            block.extend_from_slice(&avail[..n.min(room)]);
            self.src.consume(n);
            left -= n as u64;
        }
        let truncated = (block.len() as u64) < length;
        Ok((block, truncated, None))
    }

    /// Checks the `CRLF CRLF` after the block (which may be cut by gzip
    /// members, as everything else). A file that ends right after the
    /// block, or a member whose next member starts a record, is let pass
    /// (a writer that left the trailer out); part of a trailer there is a
    /// short trailer, let pass with a warning. Anything else means the
    /// length is wrong: a next record within [`RESYNC_WINDOW`] bytes of
    /// where it should start is taken as the end of the block, with a
    /// warning; else the record is damaged.
    fn read_trailer(
        &mut self,
        block: &mut Vec<u8>,
        truncated: bool,
    ) -> Result<Option<RecordWarning>, (WarcErrorKind, Resync)> {
        let gz = |e: io::Error| (WarcErrorKind::BadGzip(e), Resync::Member);
        let wrong = || WarcErrorKind::WrongLength(LengthProblem::NoTrailer);
        let mut matched = 0;
        let mut crossed = false;
        loop {
            let t = self.src.fill(TRAILER.len() - matched).map_err(gz)?;
            if t.is_empty() {
                let at_record = self.src.next_member().map_err(gz)?
                    && self
                        .src
                        .fill(MAGIC.len())
                        .map_err(gz)?
                        .starts_with(MAGIC);
                if !at_record && !self.src.at_member_end() {
                    crossed = true;
                    continue;
                }
                return Ok(
                    (matched > 0).then_some(RecordWarning::ShortTrailer)
                );
            }
            let k = t.len().min(TRAILER.len() - matched);
            if t[..k] != TRAILER[matched..matched + k] {
                break;
            }
            self.src.consume(k);
            matched += k;
            if matched == TRAILER.len() {
                return Ok(None);
            }
        }
        if !crossed
            && let Some(w) =
                self.resync_near(block, truncated, matched).map_err(gz)?
        {
            return Ok(Some(w));
        }
        // A length too large swallowed the next record's start: back up
        // to it, so that it is read. (Within one member only: a gzip
        // member per record ends the block at the member's end.)
        if !truncated
            && !crossed
            && self.back_up(block, 0, &TRAILER[..matched])
        {
            return Err((wrong(), Resync::Ready));
        }
        Err((wrong(), Resync::Scan))
    }

    /// After a block not followed by its trailer (`lead` bytes of which
    /// were consumed): looks for the next record's version line, or the
    /// end of the member or file, within
    /// [`RESYNC_WINDOW`] bytes either side of where the next record should
    /// start, the nearest one. When found, the block is cut or lengthened
    /// to end there (its trailer left out), the reader moved there, and
    /// the warning returned.
    fn resync_near(
        &mut self,
        block: &mut Vec<u8>,
        truncated: bool,
        lead: usize,
    ) -> io::Result<Option<RecordWarning>> {
        let tail = if truncated { 0 } else { block.len().min(RESYNC_WINDOW) };
        let mut joined = block[block.len() - tail..].to_vec();
        joined.extend_from_slice(&TRAILER[..lead]);
        let ahead = self.src.fill(RESYNC_WINDOW + MAGIC.len())?;
        joined.extend_from_slice(ahead);
        let ends = self.src.at_member_end_after(joined.len() - tail - lead);
        let nominal = tail + TRAILER.len();
        // The nearest version line (not only at a line's start: damage
        // may have taken the line end before it), else the member's or the
        // file's end.
        let next = memchr::memmem::find_iter(&joined, MAGIC)
            .min_by_key(|&q| q.abs_diff(nominal))
            .or(ends.then_some(joined.len()));
        let Some(next) = next else { return Ok(None) };
        let crlf = joined[..next]
            .iter()
            .rev()
            .take(TRAILER.len())
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        let data_end = next - crlf;
        if data_end < tail {
            block.truncate(block.len() - (tail - data_end));
        } else {
            let room = self.max_block.saturating_sub(block.len());
            let more = &joined[tail..data_end];
            block.extend_from_slice(&more[..more.len().min(room)]);
        }
        let consumed = tail + lead;
        if next < consumed {
            self.src.unread(&joined[next..consumed]);
        } else {
            self.src.consume(next - consumed);
        }
        let by = data_end as i64 - tail as i64;
        let trailer = &joined[data_end..next];
        Ok(Some(match by {
            0 if trailer
                .windows(2)
                .any(|w| w[1] == b'\n' && w[0] != b'\r')
                || trailer.first() == Some(&b'\n') =>
            {
                RecordWarning::WarcLineEnds
            }
            0 => RecordWarning::ShortTrailer,
            by => RecordWarning::LengthOff { by },
        }))
    }

    /// When `block` (all of it read, `read` bytes) holds the end of a
    /// record and the start of the next, puts the bytes from that start
    /// (and `after`, consumed since) back to be read again; whether it
    /// did.
    fn back_up(&mut self, block: &[u8], read: u64, after: &[u8]) -> bool {
        if read > 0 && (block.len() as u64) < read {
            // Cut by the cap: what followed in the file is not kept.
            return false;
        }
        match memchr::memmem::find(block, NEXT_RECORD) {
            Some(i) => {
                let mut back = block[i + TRAILER.len()..].to_vec();
                back.extend_from_slice(after);
                self.src.unread(&back);
                true
            }
            None => false,
        }
    }
}

impl<R: Read> Iterator for WarcReader<R> {
    type Item = Result<Record, WarcError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_record()
    }
}

impl<R> fmt::Debug for WarcReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WarcReader")
            .field("max_block", &self.max_block)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// The version and the fields of a header block (which starts with the
/// version line and ends with a blank line). Values are trimmed;
/// continuation lines (starting with a space or tab) are joined to the
/// field before with one space. A line without a colon is skipped.
pub(crate) fn parse_header(header: &[u8]) -> (Box<str>, Vec<Field>) {
    let text = String::from_utf8_lossy(header);
    let mut lines =
        text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let version = lines
        .next()
        .and_then(|l| l.strip_prefix("WARC/"))
        .unwrap_or("")
        .trim()
        .into();
    let mut fields: Vec<(Box<str>, String)> = vec![];
    for line in lines {
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = fields.last_mut() {
                if !v.is_empty() {
                    v.push(' ');
                }
                v.push_str(line.trim());
            }
            continue;
        }
        if let Some((n, v)) = line.split_once(':') {
            fields.push((n.trim().into(), v.trim().to_owned()));
        }
    }
    let fields = fields.into_iter().map(|(n, v)| (n, v.into())).collect();
    (version, fields)
}

/// Whether a decoder's error is about the data (a damaged member), not
/// the file.
fn is_data_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::InvalidData
            | io::ErrorKind::InvalidInput
            | io::ErrorKind::UnexpectedEof
    )
}

/// The warning of a block whose file or gzip member ended before its
/// `length`: its trailing line ends (at most a trailer's) are cut off.
fn length_off(block: &mut Vec<u8>, length: u64) -> RecordWarning {
    let crlf = block
        .iter()
        .rev()
        .take(TRAILER.len())
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    block.truncate(block.len() - crlf);
    let by = block.len() as i64 - i64::try_from(length).unwrap_or(i64::MAX);
    RecordWarning::LengthOff { by }
}
