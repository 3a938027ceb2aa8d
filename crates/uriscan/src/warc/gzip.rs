//! One gzip member (RFC 1952) at a time: header, deflate data, trailer.
//!
//! flate2's `GzDecoder` drops the bytes a read decoded when that read
//! also meets damage, so how much of a damaged member comes out depended
//! on the size of the reads. This decoder hands out every byte decoded
//! before the damage, and reports the damage on the read after: the bytes
//! of a member are the same however the file is read.

use std::io::{self, BufRead, Read};

use flate2::{Crc, Decompress, FlushDecompress, Status};

/// The header flags (RFC 1952 2.3.1).
const FHCRC: u8 = 1 << 1;
const FEXTRA: u8 = 1 << 2;
const FNAME: u8 = 1 << 3;
const FCOMMENT: u8 = 1 << 4;

/// Where the decoder is in its member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Header,
    Data,
    Trailer,
    Done,
}

/// A decoder of the gzip member that starts where its reader stands.
pub(super) struct MemberDecoder<R> {
    inner: R,
    inflate: Decompress,
    crc: Crc,
    state: State,
    /// Damage met by a read that also decoded bytes: reported next.
    deferred: Option<io::Error>,
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_owned())
}

fn cut(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, message.to_owned())
}

impl<R: BufRead> MemberDecoder<R> {
    /// A decoder of the member that starts at `inner`'s position.
    pub(super) fn new(inner: R) -> Self {
        MemberDecoder {
            inner,
            inflate: Decompress::new(false),
            crc: Crc::new(),
            state: State::Header,
            deferred: None,
        }
    }

    /// The reader.
    pub(super) fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Starts a new member at the reader's position.
    pub(super) fn restart(&mut self) {
        self.inflate.reset(false);
        self.crc.reset();
        self.state = State::Header;
        self.deferred = None;
    }

    fn byte(&mut self) -> io::Result<u8> {
        let buf = self.inner.fill_buf()?;
        let Some(&b) = buf.first() else {
            return Err(cut("the gzip header is cut short"));
        };
        self.inner.consume(1);
        Ok(b)
    }

    fn skip(&mut self, n: usize) -> io::Result<()> {
        for _ in 0..n {
            self.byte()?;
        }
        Ok(())
    }

    fn skip_zero_terminated(&mut self) -> io::Result<()> {
        while self.byte()? != 0 {}
        Ok(())
    }

    fn header(&mut self) -> io::Result<()> {
        let mut fixed = [0; 10];
        for b in &mut fixed {
            *b = self.byte()?;
        }
        if fixed[..3] != [0x1f, 0x8b, 0x08] {
            return Err(invalid("invalid gzip header"));
        }
        let flags = fixed[3];
        if flags & FEXTRA != 0 {
            let len = u16::from_le_bytes([self.byte()?, self.byte()?]);
            self.skip(usize::from(len))?;
        }
        if flags & FNAME != 0 {
            self.skip_zero_terminated()?;
        }
        if flags & FCOMMENT != 0 {
            self.skip_zero_terminated()?;
        }
        if flags & FHCRC != 0 {
            self.skip(2)?;
        }
        Ok(())
    }

    fn trailer(&mut self) -> io::Result<()> {
        let mut t = [0; 8];
        for b in &mut t {
            *b = self.byte()?;
        }
        let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
        if crc != self.crc.sum() || size != self.crc.amount() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "corrupt gzip stream does not have a matching checksum",
            ));
        }
        Ok(())
    }

    /// Decodes into `out`: the bytes decoded, or the damage once no byte
    /// before it is left.
    fn data(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            let input = self.inner.fill_buf()?;
            let eof = input.is_empty();
            let (in_before, out_before) =
                (self.inflate.total_in(), self.inflate.total_out());
            let status =
                self.inflate.decompress(input, out, FlushDecompress::None);
            let used = (self.inflate.total_in() - in_before) as usize;
            let made = (self.inflate.total_out() - out_before) as usize;
            self.inner.consume(used);
            self.crc.update(&out[..made]);
            let damage = match status {
                Ok(Status::StreamEnd) => {
                    self.state = State::Trailer;
                    None
                }
                Ok(_) if eof && made == 0 => {
                    Some(cut("incomplete deflate stream"))
                }
                Ok(_) => None,
                Err(_) => Some(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "corrupt deflate stream",
                )),
            };
            if let Some(e) = damage {
                self.state = State::Done;
                if made == 0 {
                    return Err(e);
                }
                self.deferred = Some(e);
            }
            if made > 0 || self.state != State::Data {
                return Ok(made);
            }
        }
    }
}

impl<R: BufRead> Read for MemberDecoder<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.deferred.take() {
            return Err(e);
        }
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            match self.state {
                State::Header => {
                    // Damage in the header ends the member, as in the data.
                    self.state = State::Done;
                    self.header()?;
                    self.state = State::Data;
                }
                State::Data => {
                    let n = self.data(out)?;
                    if n > 0 {
                        return Ok(n);
                    }
                }
                State::Trailer => {
                    self.state = State::Done;
                    self.trailer()?;
                }
                State::Done => return Ok(0),
            }
        }
    }
}
