//! The HTTP response inside a WARC `response` record: status line,
//! header fields (RFC 9112 sections 4 and 5) and the payload, with the
//! transfer coding (chunked, 7.1) and the content coding (gzip, deflate,
//! br; RFC 9110 8.4) undone.

use std::borrow::Cow;
use std::io::Read;

use super::warnings::RecordWarning;
use crate::Span;

/// The most bytes a payload decompresses to: a bomb stops there.
const MAX_DECODED: u64 = 64 << 20;

/// The brotli decoder's input buffer: the body is in memory already, so
/// this only sets how much is handed to the decoder at a time.
const BROTLI_BUFFER: usize = 4096;

/// One HTTP response, borrowed from a record's block.
#[derive(Clone, Debug)]
pub struct HttpResponse<'a> {
    block: &'a [u8],
    status: u16,
    /// Each field's name and value (trimmed), as spans of the block.
    fields: Vec<(Span, Span)>,
    /// Where the body starts in the block.
    body: usize,
    /// Some header line ends in LF alone or in CR CR LF.
    odd_line_ends: bool,
    /// The block was cut short by the reader's cap.
    cut: bool,
}

impl<'a> HttpResponse<'a> {
    /// Parses the status line and header fields of `block`; `None` when
    /// it does not start with `HTTP/x.y NNN`. A header block that does
    /// not end (a truncated record) is read up to where it stops, with an
    /// empty body. Lines may end in LF alone or in CR CR LF (a
    /// warning); obsolete line folding (continuation lines) is skipped.
    pub fn parse(block: &'a [u8]) -> Option<HttpResponse<'a>> {
        let rest = block.strip_prefix(b"HTTP/")?;
        let sp = memchr::memchr(b' ', &rest[..rest.len().min(16)])?;
        let code = rest.get(sp + 1..sp + 4)?;
        if !code.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let status =
            code.iter().fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'));
        let mut at =
            memchr::memchr(b'\n', block).map_or(block.len(), |i| i + 1);
        let mut fields = vec![];
        let ends_oddly = |line: &[u8]| {
            !line.ends_with(b"\r\n") || line.ends_with(b"\r\r\n")
        };
        let mut odd_line_ends = ends_oddly(&block[..at]);
        let response = |fields, body, odd_line_ends| HttpResponse {
            block,
            status,
            fields,
            body,
            odd_line_ends,
            cut: false,
        };
        while at < block.len() {
            let end = memchr::memchr(b'\n', &block[at..])
                .map_or(block.len(), |i| at + i + 1);
            let line = &block[at..end];
            let content = line
                .strip_suffix(b"\n")
                .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
                .unwrap_or(line);
            if line.ends_with(b"\n") {
                odd_line_ends |= ends_oddly(line);
            }
            if content.is_empty() || content == b"\r" {
                return Some(response(fields, end, odd_line_ends));
            }
            if !content.starts_with(b" ")
                && !content.starts_with(b"\t")
                && let Some(c) = memchr::memchr(b':', content)
            {
                let name = trim(block, at, at + c);
                let value = trim(block, at + c + 1, at + content.len());
                fields.push((name, value));
            }
            at = end;
        }
        Some(response(fields, block.len(), odd_line_ends))
    }

    /// The status code.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Every header field, in order: name and value (trimmed), as bytes.
    pub fn headers(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> {
        self.fields
            .iter()
            .map(|(n, v)| (&self.block[n.range()], &self.block[v.range()]))
    }

    /// The first header field named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&'a [u8]> {
        self.header_span(name).map(|s| &self.block[s.range()])
    }

    /// The spans in the block of the values of every field named `name`.
    pub(crate) fn header_spans<'s>(
        &'s self,
        name: &'s str,
    ) -> impl Iterator<Item = Span> + 's {
        self.fields
            .iter()
            .filter(move |(n, _)| {
                self.block[n.range()].eq_ignore_ascii_case(name.as_bytes())
            })
            .map(|&(_, v)| v)
    }

    fn header_span(&self, name: &str) -> Option<Span> {
        self.header_spans(name).next()
    }

    /// The header block and the body: the record's block.
    pub fn block(&self) -> &'a [u8] {
        self.block
    }

    /// The body as sent, still in its transfer and content codings.
    pub fn body(&self) -> &'a [u8] {
        &self.block[self.body..]
    }

    /// The payload: the body with `Transfer-Encoding: chunked` and a
    /// `Content-Encoding` of `gzip`, `x-gzip`, `deflate` or `br` undone
    /// (at most 64 MiB decoded; a damaged coding gives what decoded before
    /// the damage). A stale coding (a body stored already de-chunked, or
    /// already decoded) is left as it is. [`HttpResponse::warnings`] says
    /// which of these happened. `None` for a content coding that is not
    /// read (`zstd`, ...): its bytes are not the document.
    ///
    /// [`Record::payload`](super::Record::payload) decodes a record's
    /// payload once for both.
    pub fn payload(&self) -> Option<Cow<'a, [u8]>> {
        self.decoded().0
    }

    /// What was odd in the response but read all the same: header lines
    /// that end in LF alone or CR CR LF, a `Transfer-Encoding: chunked`
    /// over a body that does not parse as chunked to its end, a
    /// `Content-Encoding` over a body that does not decode from its first
    /// bytes, coded data damaged further on, a payload that decodes to
    /// more than 64 MiB. A compressed body is decoded to know: see
    /// [`Record::warnings`](super::Record::warnings), which does it once
    /// with the payload.
    pub fn warnings(&self) -> Vec<RecordWarning> {
        let coding = self.coding();
        if matches!(coding, Coding::Identity | Coding::Unread) {
            // No content coding to try: only whether the chunks hold, with
            // no copy of the body.
            let mut out = self.header_warnings();
            if self.chunked() && !self.cut && !chunks_whole(self.body()) {
                out.push(RecordWarning::StaleChunked);
            }
            return out;
        }
        self.decoded().1
    }

    /// The payload ([`HttpResponse::payload`]) and the warnings
    /// ([`HttpResponse::warnings`]) from one decoding of the body.
    pub(crate) fn decoded(
        &self,
    ) -> (Option<Cow<'a, [u8]>>, Vec<RecordWarning>) {
        let mut warnings = self.header_warnings();
        let (body, stale) = self.transfer_decoded();
        if stale {
            warnings.push(RecordWarning::StaleChunked);
        }
        let coding = match self.coding() {
            Coding::Identity => return (Some(body), warnings),
            Coding::Unread => return (None, warnings),
            coding => coding,
        };
        let payload = match decode(coding, &body) {
            Decoded::Stale => {
                if !body.is_empty() {
                    warnings.push(RecordWarning::StaleContentEncoding);
                }
                body
            }
            Decoded::Whole(data) => Cow::Owned(data),
            Decoded::Damaged(data) => {
                warnings.push(RecordWarning::DamagedContentEncoding {
                    decoded: data.len() as u64,
                });
                Cow::Owned(data)
            }
            Decoded::TooLarge(data) => {
                warnings.push(RecordWarning::PayloadTooLarge {
                    limit: MAX_DECODED,
                });
                Cow::Owned(data)
            }
        };
        (Some(payload), warnings)
    }

    /// Where the body starts in the block.
    pub(crate) fn body_start(&self) -> usize {
        self.body
    }

    /// The warnings the header block alone gives.
    fn header_warnings(&self) -> Vec<RecordWarning> {
        if self.odd_line_ends {
            vec![RecordWarning::HttpLineEnds]
        } else {
            vec![]
        }
    }

    /// Marks the response as cut short (its record's block was cut to the
    /// reader's cap): a chunked body is then read up to where it stops.
    pub(crate) fn cut_short(mut self, cut: bool) -> Self {
        self.cut = cut;
        self
    }

    /// The body with its transfer coding undone, and whether that coding
    /// was stale: a body said chunked that does not parse as chunked to
    /// its end is taken as it is (unless the block was cut short).
    fn transfer_decoded(&self) -> (Cow<'a, [u8]>, bool) {
        let body = self.body();
        if !self.chunked() {
            return (Cow::Borrowed(body), false);
        }
        match dechunk_whole(body) {
            Some(data) => (Cow::Owned(data), false),
            None if self.cut => (Cow::Owned(dechunk(body)), false),
            None => (Cow::Borrowed(body), true),
        }
    }

    /// Whether the headers name the chunked transfer coding.
    fn chunked(&self) -> bool {
        self.header("Transfer-Encoding")
            .is_some_and(|t| has_token(t, b"chunked"))
    }

    /// The content coding the headers name.
    fn coding(&self) -> Coding {
        let Some(coding) = self.header("Content-Encoding") else {
            return Coding::Identity;
        };
        let coding = coding.trim_ascii();
        let is = |name: &[u8]| coding.eq_ignore_ascii_case(name);
        if coding.is_empty() || is(b"identity") {
            Coding::Identity
        } else if is(b"gzip") || is(b"x-gzip") {
            Coding::Gzip
        } else if is(b"deflate") {
            Coding::Deflate
        } else if is(b"br") {
            Coding::Brotli
        } else {
            Coding::Unread
        }
    }
}

/// A content coding, as far as it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Identity,
    Gzip,
    Deflate,
    Brotli,
    /// A coding not read (`zstd`, `compress`, ...).
    Unread,
}

/// A body in a content coding, decoded as far as it goes.
enum Decoded {
    /// It does not decode from its first bytes: stored already decoded.
    Stale,
    /// Decoded to its end.
    Whole(Vec<u8>),
    /// What decoded before the data broke (cut short, or corrupt).
    Damaged(Vec<u8>),
    /// The first [`MAX_DECODED`] bytes of more.
    TooLarge(Vec<u8>),
}

/// A streaming decoder of `body` in `coding`. "deflate" is zlib-wrapped
/// by the standard, raw by some servers: `raw` asks for the latter.
fn decoder<'b>(
    coding: Coding,
    body: &'b [u8],
    raw: bool,
) -> Box<dyn Read + 'b> {
    match coding {
        Coding::Gzip => Box::new(flate2::read::MultiGzDecoder::new(body)),
        Coding::Deflate if raw => {
            Box::new(flate2::read::DeflateDecoder::new(body))
        }
        Coding::Deflate => Box::new(flate2::read::ZlibDecoder::new(body)),
        Coding::Brotli => {
            Box::new(brotli::Decompressor::new(body, BROTLI_BUFFER))
        }
        Coding::Identity | Coding::Unread => Box::new(body),
    }
}

/// `body` decoded from `coding`, streamed into a buffer that stops at
/// [`MAX_DECODED`] bytes, so that a bomb costs no more than that. A body
/// of which not one byte decodes is stale; a deflate body that is not
/// zlib-wrapped is tried raw.
fn decode(coding: Coding, body: &[u8]) -> Decoded {
    let mut out = vec![];
    let mut read = decode_into(decoder(coding, body, false), &mut out);
    if out.is_empty() && coding == Coding::Deflate {
        read = decode_into(decoder(coding, body, true), &mut out);
    }
    match read {
        _ if out.is_empty() && !matches!(read, Ok(true)) => Decoded::Stale,
        Ok(true) => Decoded::Whole(out),
        Ok(false) => Decoded::TooLarge(out),
        Err(_) => Decoded::Damaged(out),
    }
}

/// Reads `decoder` into `out`, at most [`MAX_DECODED`] bytes: `Ok(true)`
/// when it ended there, `Ok(false)` when there was more.
fn decode_into(
    decoder: Box<dyn Read + '_>,
    out: &mut Vec<u8>,
) -> std::io::Result<bool> {
    out.clear();
    let mut limited = decoder.take(MAX_DECODED);
    limited.read_to_end(out)?;
    // One byte past the limit tells a payload of exactly the limit from
    // a larger one, without growing `out` for it.
    let mut past = [0; 1];
    Ok(limited.into_inner().read(&mut past)? == 0)
}

/// The span of `block[s..e]` with ASCII whitespace trimmed.
fn trim(block: &[u8], mut s: usize, mut e: usize) -> Span {
    while s < e && matches!(block[s], b' ' | b'\t') {
        s += 1;
    }
    while e > s && matches!(block[e - 1], b' ' | b'\t' | b'\r') {
        e -= 1;
    }
    Span::new(s, e)
}

/// Whether a comma-separated field value holds `token`.
fn has_token(v: &[u8], token: &[u8]) -> bool {
    v.split(|&b| b == b',').any(|t| t.trim_ascii().eq_ignore_ascii_case(token))
}

/// The data of a chunked body that parses as chunked to its end (RFC 9112
/// 7.1): every size line valid, every chunk whole and followed by its line
/// end, up to the last chunk (size 0); `None` otherwise.
pub(crate) fn dechunk_whole(body: &[u8]) -> Option<Vec<u8>> {
    let mut data = Vec::with_capacity(body.len());
    walk_chunks(body, Some(&mut data)).then_some(data)
}

/// Whether a chunked body parses as chunked to its end, as
/// [`dechunk_whole`] reads it, without copying its data.
fn chunks_whole(body: &[u8]) -> bool {
    walk_chunks(body, None)
}

/// The data of a chunked body, up to where it breaks when it is
/// malformed or cut.
pub(crate) fn dechunk(body: &[u8]) -> Vec<u8> {
    let mut data = Vec::with_capacity(body.len());
    walk_chunks(body, Some(&mut data));
    data
}

/// The data of a chunked body (each chunk a hex size, with extensions
/// after `;`, a line end, the data, a line end; size 0 ends it and its
/// trailer fields are dropped) into `out`, when given, up to where it
/// breaks; whether it reached the last chunk.
fn walk_chunks(body: &[u8], mut out: Option<&mut Vec<u8>>) -> bool {
    let mut at = 0;
    loop {
        let Some(nl) = memchr::memchr(b'\n', &body[at..]) else {
            return false;
        };
        let line = &body[at..at + nl];
        let size =
            line.split(|&b| b == b';').next().unwrap_or(&[]).trim_ascii();
        let size = std::str::from_utf8(size)
            .ok()
            .filter(|s| {
                !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
            })
            .and_then(|s| usize::from_str_radix(s, 16).ok());
        let Some(size) = size else { return false };
        at += nl + 1;
        if size == 0 {
            return true;
        }
        let end = at.saturating_add(size).min(body.len());
        if let Some(out) = out.as_deref_mut() {
            out.extend_from_slice(&body[at..end]);
        }
        if end - at < size {
            return false;
        }
        at = end;
        if body[at..].starts_with(b"\r\n") {
            at += 2;
        } else if body[at..].starts_with(b"\n") {
            at += 1;
        } else {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_headers() {
        let b =
            b"HTTP/1.1 301 Moved\r\nLocation:  /new \r\nX-A: 1\r\n\r\nbody";
        let r = HttpResponse::parse(b).unwrap();
        assert_eq!(r.status(), 301);
        assert_eq!(r.header("location"), Some(&b"/new"[..]));
        assert_eq!(r.body(), b"body");
        assert_eq!(r.headers().count(), 2);
        // LF line ends, a header cut short.
        let r = HttpResponse::parse(b"HTTP/1.0 200 OK\nA: b\n\nx").unwrap();
        assert_eq!((r.header("a"), r.body()), (Some(&b"b"[..]), &b"x"[..]));
        let r = HttpResponse::parse(b"HTTP/1.1 200 OK\r\nA: b").unwrap();
        assert_eq!((r.header("a"), r.body()), (Some(&b"b"[..]), &b""[..]));
        assert!(HttpResponse::parse(b"HTTP/1.1 2x0 OK\r\n\r\n").is_none());
        assert!(HttpResponse::parse(b"<html>").is_none());
    }

    #[test]
    fn chunked() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n"),
            b"hello world"
        );
        // Cut in the middle of a chunk, and a bad size line.
        assert_eq!(dechunk(b"5\r\nhel"), b"hel");
        assert_eq!(dechunk(b"3\r\nabc\r\nzz\r\nxyz"), b"abc");
        let b = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        assert_eq!(
            &*HttpResponse::parse(b).unwrap().payload().unwrap(),
            b"abc"
        );
    }

    #[test]
    fn content_encoding() {
        use std::io::Write;
        let mut gz =
            flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
        gz.write_all(b"<a href=x>").unwrap();
        let mut b =
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        b.extend(gz.finish().unwrap());
        assert_eq!(
            &*HttpResponse::parse(&b).unwrap().payload().unwrap(),
            b"<a href=x>"
        );
        let b = b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n\x01\x02";
        assert!(HttpResponse::parse(b).unwrap().payload().is_none());
    }

    /// Text stored already decoded under `Content-Encoding: br` does not
    /// decode as brotli from its first bytes (brotli has no magic number),
    /// whatever byte it starts with: it is read as it is.
    #[test]
    fn stale_brotli_text_is_told_from_brotli() {
        let mut starts = vec![];
        for first in (0x09..=0x0d).chain(0x20..=0x7e).chain([0xef]) {
            let text =
                [&[first][..], b"<!DOCTYPE html><html><a href=x>"].concat();
            if !matches!(decode(Coding::Brotli, &text), Decoded::Stale) {
                starts.push(first);
            }
        }
        assert_eq!(starts, [0u8; 0]);
    }
}
