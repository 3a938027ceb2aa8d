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

use super::gzip::MemberDecoder;

/// The bytes read from the file per decompression call.
const CHUNK: usize = 64 * 1024;

/// The gzip magic and the deflate method byte (RFC 1952 2.3.1).
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];

/// The most compressed bytes of one member kept for a rewind.
const SEEN_CAP: usize = 4 << 20;

/// A reader that counts the bytes consumed from it (the compressed
/// offset), and keeps those of the current member so that, when the member
/// turns out damaged, the search for the next member can start right after
/// the damaged one's start: a decoder reading garbage may have run past the
/// next member's header before it failed.
pub(super) struct Counting<R> {
    inner: R,
    pos: u64,
    /// The offset of the current member.
    member_start: u64,
    /// The bytes consumed since the member's start, unless more than
    /// [`SEEN_CAP`].
    seen: Vec<u8>,
    overflow: bool,
    /// Bytes to hand out again before the inner reader's.
    replay: Vec<u8>,
    rpos: usize,
}

impl<R> Counting<R> {
    fn new(inner: R) -> Self {
        Counting {
            inner,
            pos: 0,
            member_start: 0,
            seen: vec![],
            overflow: false,
            replay: vec![],
            rpos: 0,
        }
    }

    /// A member starts at the current position.
    fn start_member(&mut self) {
        self.member_start = self.pos;
        self.seen.clear();
        self.overflow = false;
    }
}

impl<R: BufRead> Counting<R> {
    /// After a damaged member: moves back to the first gzip magic after the
    /// member's start among the bytes kept, if there is one.
    fn rewind(&mut self) -> bool {
        if self.overflow || self.seen.len() < 2 {
            return false;
        }
        let Some(i) = memchr::memmem::find(&self.seen[1..], GZIP_MAGIC) else {
            return false;
        };
        let mut replay = self.seen.split_off(1 + i);
        replay.extend_from_slice(&self.replay[self.rpos..]);
        self.replay = replay;
        self.rpos = 0;
        self.pos = self.member_start + 1 + i as u64;
        self.seen.clear();
        true
    }
}

impl<R: BufRead> Counting<R> {
    /// Moves forward to the next gzip magic, one that starts in the last
    /// bytes consumed included (a magic cut by a buffer's edge, or by the
    /// point where a decoder stopped, is found all the same).
    fn seek_magic(&mut self) -> io::Result<()> {
        let keep = GZIP_MAGIC.len() - 1;
        let mut carry: Vec<u8> = match self.overflow {
            true => vec![],
            false => {
                self.seen[self.seen.len().saturating_sub(keep)..].to_vec()
            }
        };
        loop {
            let buf = self.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            let mut probe = carry.clone();
            probe.extend_from_slice(&buf[..buf.len().min(keep)]);
            if let Some(j) = memchr::memmem::find(&probe, GZIP_MAGIC)
                && j < carry.len()
            {
                let mut replay = carry[j..].to_vec();
                replay.extend_from_slice(&self.replay[self.rpos..]);
                self.pos -= (carry.len() - j) as u64;
                self.replay = replay;
                self.rpos = 0;
                return Ok(());
            }
            if let Some(i) = memchr::memmem::find(buf, GZIP_MAGIC) {
                self.consume(i);
                return Ok(());
            }
            // The last bytes consumed, across reads shorter than the
            // magic: a magic handed out a byte a read is found too.
            let n = buf.len();
            carry.extend_from_slice(&buf[n.saturating_sub(keep)..]);
            carry.drain(..carry.len().saturating_sub(keep));
            self.consume(n);
        }
    }
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
        if self.rpos < self.replay.len() {
            return Ok(&self.replay[self.rpos..]);
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        let r = &mut self.inner;
        let replaying = self.rpos < self.replay.len();
        if !self.overflow {
            if self.seen.len() + n > SEEN_CAP {
                self.overflow = true;
                self.seen = vec![];
            } else if replaying {
                let bytes = &self.replay[self.rpos..self.rpos + n];
                self.seen.extend_from_slice(bytes);
            } else if let Ok(buf) = r.fill_buf() {
                // The bytes being consumed are those `fill_buf` gave.
                self.seen.extend_from_slice(&buf[..n.min(buf.len())]);
            }
        }
        if replaying {
            self.rpos += n;
            if self.rpos == self.replay.len() {
                self.replay.clear();
                self.rpos = 0;
            }
        } else {
            r.consume(n);
        }
        self.pos += n as u64;
    }
}

/// Whether a file that starts with `head` is gzip: it starts with gzip's
/// magic, or (a first member damaged at its very start) it is no WARC
/// record and a gzip magic follows soon.
pub(super) fn sniff_gzip(head: &[u8]) -> bool {
    head.starts_with(&GZIP_MAGIC[..2])
        || (!head.starts_with(b"WARC/")
            && memchr::memmem::find(head, GZIP_MAGIC).is_some())
}

enum Kind<R> {
    Plain(R),
    Gzip(Box<MemberDecoder<Counting<R>>>),
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
    /// Gzip: the decompressed bytes produced so far, by every member.
    produced: u64,
    /// Gzip: `produced` when the current member started.
    member_out_start: u64,
}

/// What a record's offset counts: see [`Record::offset`](super::Record::offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OffsetKind {
    /// The offset of the record's first byte in a plain file.
    File,
    /// The offset of the gzip member the record starts (a record per
    /// member, as a CDX index gives it).
    GzipMember,
    /// The offset of the record's first byte in the decompressed stream
    /// (what `zcat` writes), for a record that starts inside a gzip
    /// member: a file compressed as one stream.
    Decompressed,
}

impl OffsetKind {
    /// A short name for machines: `file`, `gzip-member`, `decompressed`.
    pub fn as_str(&self) -> &'static str {
        match self {
            OffsetKind::File => "file",
            OffsetKind::GzipMember => "gzip-member",
            OffsetKind::Decompressed => "decompressed",
        }
    }
}

impl<R: BufRead> Source<R> {
    /// Reads `r`, as gzip or as plain bytes.
    pub(super) fn new(r: R, gzip: bool) -> Source<R> {
        let kind = if gzip {
            let counting = Counting::new(r);
            Kind::Gzip(Box::new(MemberDecoder::new(counting)))
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
            produced: 0,
            member_out_start: 0,
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

    /// Where the next byte's record starts, and what that offset counts:
    /// the byte's own offset in a plain file; in a gzip file, the current
    /// member's when the byte is the member's first, else the byte's offset
    /// in the decompressed stream.
    pub(super) fn record_offset(&self) -> (u64, OffsetKind) {
        match self.kind {
            Kind::Plain(_) => (self.offset(), OffsetKind::File),
            Kind::Gzip(_) => {
                let out = self.produced - (self.end - self.start) as u64;
                match out == self.member_out_start {
                    true => (self.base, OffsetKind::GzipMember),
                    false => (out, OffsetKind::Decompressed),
                }
            }
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
                Ok(n) => {
                    self.end += n;
                    self.produced += n as u64;
                }
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
        r.start_member();
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
        d.restart();
        self.member_done = false;
        self.member_out_start = self.produced;
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
        if r.rewind() {
            return Ok(());
        }
        r.seek_magic()
    }
}
