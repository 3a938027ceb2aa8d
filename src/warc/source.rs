//! The bytes of a WARC file, decompressed gzip member by gzip member,
//! with the file offset of the member they came from.
//!
//! A `.warc.gz` is normally one gzip member per record, so that an index
//! (CDX) can point at a record by the offset of its member and a reader
//! can start there. The decoder here stops at every member's end (a
//! *soft* end: [`Source::next_member`] goes on), which is what lets the
//! record layer know each record's member offset, and tell a record whose
//! `Content-Length` runs past its member from one that spans members
//! (bgzip-style blocks). A plain file is one "member" at offset 0 whose
//! offset moves with the bytes read.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The bytes read from the file per decompression call.
const CHUNK: usize = 64 * 1024;

/// The gzip magic and the deflate method byte (RFC 1952 2.3.1).
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];

/// A reader that counts the bytes consumed from it: the compressed offset.
/// `None` is a placeholder while the decoder is reset.
pub(super) struct Counting<R> {
    inner: Option<R>,
    pos: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match &mut self.inner {
            Some(r) => r.fill_buf(),
            None => Ok(&[]),
        }
    }
    fn consume(&mut self, n: usize) {
        if let Some(r) = &mut self.inner {
            r.consume(n);
            self.pos += n as u64;
        }
    }
}

enum Kind<R> {
    Plain(R),
    Gzip(Box<GzDecoder<Counting<R>>>),
}

/// Decompressed bytes in a buffer that grows to the largest request.
pub(super) struct Source<R> {
    kind: Kind<R>,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Gzip: the file offset of the current member. Plain: the file
    /// offset of `buf[0]`.
    base: u64,
    /// The current member (or the plain file) has no more bytes.
    member_done: bool,
}

impl<R: BufRead> Source<R> {
    /// Reads `r`, as gzip when its first bytes are gzip's magic.
    pub(super) fn new(mut r: R) -> Source<R> {
        // An error here shows again on the first read.
        let gzip = r.fill_buf().is_ok_and(|b| b.starts_with(&GZIP_MAGIC[..2]));
        let kind = if gzip {
            let counting = Counting { inner: Some(r), pos: 0 };
            Kind::Gzip(Box::new(GzDecoder::new(counting)))
        } else {
            Kind::Plain(r)
        };
        Source {
            kind,
            buf: vec![0; CHUNK],
            start: 0,
            end: 0,
            base: 0,
            member_done: false,
        }
    }

    pub(super) fn is_gzip(&self) -> bool {
        matches!(self.kind, Kind::Gzip(_))
    }

    /// The offset a reader seeks to for the next byte: the current gzip
    /// member's, or the byte's own in a plain file.
    pub(super) fn offset(&self) -> u64 {
        match self.kind {
            Kind::Gzip(_) => self.base,
            Kind::Plain(_) => self.base + self.start as u64,
        }
    }

    /// The buffered bytes of the current member, at least `want` of them
    /// unless the member ends first. An error of the decoder (a damaged
    /// member) or of the file ends the member.
    pub(super) fn fill(&mut self, want: usize) -> io::Result<&[u8]> {
        while self.end - self.start < want && !self.member_done {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                if let Kind::Plain(_) = self.kind {
                    self.base += self.start as u64;
                }
                self.end -= self.start;
                self.start = 0;
            }
            if self.buf.len() - self.end < CHUNK.min(want) {
                self.buf.resize((self.buf.len() * 2).max(want), 0);
            }
            let out = &mut self.buf[self.end..];
            let got = match &mut self.kind {
                Kind::Plain(r) => r.read(out),
                Kind::Gzip(d) => d.read(out),
            };
            match got {
                Ok(0) => self.member_done = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.member_done = true;
                    return Err(e);
                }
            }
        }
        Ok(&self.buf[self.start..self.end])
    }

    pub(super) fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.end - self.start);
        self.start += n;
    }

    /// Puts back `bytes`, the bytes just consumed, to be read again.
    pub(super) fn unread(&mut self, bytes: &[u8]) {
        if bytes.len() <= self.start
            && self.buf[self.start - bytes.len()..self.start] == *bytes
        {
            self.start -= bytes.len();
            return;
        }
        let rest = self.buf[self.start..self.end].to_vec();
        self.buf.clear();
        self.buf.extend_from_slice(bytes);
        self.buf.extend_from_slice(&rest);
        if let Kind::Plain(_) = self.kind {
            self.base = self.base + self.start as u64 - bytes.len() as u64;
        }
        self.start = 0;
        self.end = self.buf.len();
        let min = self.buf.len() + CHUNK;
        self.buf.resize(min, 0);
    }

    /// Whether the current member is read to its end.
    pub(super) fn at_member_end(&self) -> bool {
        self.member_done && self.start == self.end
    }

    /// Whether the current member would be read to its end once `n` more
    /// buffered bytes are consumed.
    pub(super) fn at_member_end_after(&self, n: usize) -> bool {
        self.member_done && self.end - self.start == n
    }

    /// Starts the next gzip member, once the current one is read (bytes
    /// still buffered stay before the new member's); `false` at the end of
    /// the file (and always for a plain file).
    pub(super) fn next_member(&mut self) -> io::Result<bool> {
        let Kind::Gzip(d) = &mut self.kind else { return Ok(false) };
        let r = d.get_mut();
        let pos = r.pos;
        let head = r.fill_buf()?;
        if head.is_empty() {
            return Ok(false);
        }
        self.base = pos;
        // Bytes that are no gzip member (padding, junk): an error at their
        // offset, with the file moved on to the next member.
        let n = head.len().min(GZIP_MAGIC.len());
        if head[..n] != GZIP_MAGIC[..n] {
            self.skip_to_next_member()?;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "bytes that are no gzip member",
            ));
        }
        // Reuses the decoder's state: `reset` swaps the reader, so swap a
        // placeholder in and the reader back.
        let inner = d.reset(Counting { inner: None, pos: 0 });
        d.reset(inner);
        self.member_done = false;
        Ok(true)
    }

    /// As [`Source::fill`], going on into the next gzip members when the
    /// current one ends first: for a look at the bytes ahead (a record's
    /// version line) in a file cut into members anywhere.
    pub(super) fn fill_across(&mut self, want: usize) -> io::Result<&[u8]> {
        while self.fill(want)?.len() < want && self.member_done {
            if !self.next_member()? {
                break;
            }
        }
        self.fill(want)
    }

    /// After a damaged member: drops what is buffered and moves the file
    /// to the next gzip magic, where [`Source::next_member`] starts.
    pub(super) fn skip_to_next_member(&mut self) -> io::Result<()> {
        self.start = 0;
        self.end = 0;
        self.member_done = true;
        let Kind::Gzip(d) = &mut self.kind else { return Ok(()) };
        let r = d.get_mut();
        loop {
            let avail = r.fill_buf()?;
            if avail.is_empty() {
                return Ok(());
            }
            // A magic cut by the buffer's edge is missed: the member it
            // starts is then lost with the damaged one. Buffers are 8 KiB
            // or more, so that is rare.
            match memchr::memmem::find(avail, GZIP_MAGIC) {
                Some(i) => {
                    r.consume(i);
                    return Ok(());
                }
                None => {
                    let n = avail.len();
                    r.consume(n);
                }
            }
        }
    }
}
