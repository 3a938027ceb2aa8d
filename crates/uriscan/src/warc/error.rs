//! What was wrong with a damaged record, and where: typed, for programs,
//! with `Display` for people.

use std::fmt;
use std::io;

use super::source::OffsetKind;

/// What was wrong with a record.
#[derive(Debug)]
#[non_exhaustive]
pub enum WarcErrorKind {
    /// The bytes at a record's start are not a `WARC/1.x` version line.
    NotWarc,
    /// The header block is cut short or too long.
    BadHeader(HeaderProblem),
    /// No valid `Content-Length`.
    BadLength,
    /// The block does not end where `Content-Length` says, nor within a
    /// few KiB of it.
    WrongLength(LengthProblem),
    /// A gzip member that does not decompress.
    BadGzip(io::Error),
    /// Reading the file failed; reading stops.
    Io(io::Error),
}

/// What was wrong with a header block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderProblem {
    /// It ends (the file's or the gzip member's end, or a new record's
    /// version line) before its blank line.
    Unterminated,
    /// It is longer than `limit` bytes: no WARC header is.
    TooLong {
        /// The most bytes a header block may have.
        limit: usize,
    },
}

/// How a block did not end where `Content-Length` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LengthProblem {
    /// The file, or the record's gzip member, ends first.
    EndsEarly {
        /// The bytes of block read.
        read: u64,
        /// The `Content-Length`.
        length: u64,
        /// Whether a gzip member ended (else the file).
        in_gzip_member: bool,
    },
    /// The block is not followed by `CRLF CRLF`.
    NoTrailer,
}

impl fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderProblem::Unterminated => {
                f.write_str("it ends before its blank line")
            }
            HeaderProblem::TooLong { limit } => {
                write!(f, "longer than {} KiB", limit >> 10)
            }
        }
    }
}

impl fmt::Display for LengthProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LengthProblem::EndsEarly { read, length, in_gzip_member } => {
                let what =
                    if *in_gzip_member { "gzip member" } else { "file" };
                write!(f, "the {what} ends after {read} of {length} bytes")
            }
            LengthProblem::NoTrailer => {
                f.write_str("the block is not followed by CRLF CRLF")
            }
        }
    }
}

/// A damaged record, and where: the reader goes on at the next record.
#[derive(Debug)]
pub struct WarcError {
    pub(super) offset: u64,
    pub(super) offset_kind: OffsetKind,
    pub(super) kind: WarcErrorKind,
}

impl WarcError {
    /// The offset of the damaged record, as
    /// [`Record::offset`](super::Record::offset).
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// What [`WarcError::offset`] counts.
    pub fn offset_kind(&self) -> OffsetKind {
        self.offset_kind
    }

    /// What was wrong.
    pub fn kind(&self) -> &WarcErrorKind {
        &self.kind
    }
}

impl fmt::Display for WarcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record at offset {}", self.offset)?;
        if self.offset_kind == OffsetKind::Decompressed {
            f.write_str(" of the decompressed stream")?;
        }
        f.write_str(": ")?;
        match &self.kind {
            WarcErrorKind::NotWarc => f.write_str("no WARC/1.x version line"),
            WarcErrorKind::BadHeader(m) => write!(f, "bad header: {m}"),
            WarcErrorKind::BadLength => f.write_str("no valid Content-Length"),
            WarcErrorKind::WrongLength(m) => {
                write!(f, "wrong Content-Length: {m}")
            }
            WarcErrorKind::BadGzip(e) => write!(f, "bad gzip member: {e}"),
            WarcErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

impl std::error::Error for WarcError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_for_people() {
        let e = |kind| {
            WarcError { offset: 5, offset_kind: OffsetKind::File, kind }
                .to_string()
        };
        assert_eq!(
            e(WarcErrorKind::BadHeader(HeaderProblem::TooLong {
                limit: 256 << 10
            })),
            "record at offset 5: bad header: longer than 256 KiB"
        );
        assert_eq!(
            e(WarcErrorKind::BadHeader(HeaderProblem::Unterminated)),
            "record at offset 5: bad header: it ends before its blank line"
        );
        assert_eq!(
            e(WarcErrorKind::WrongLength(LengthProblem::EndsEarly {
                read: 3,
                length: 9,
                in_gzip_member: true
            })),
            "record at offset 5: wrong Content-Length: the gzip member ends \
             after 3 of 9 bytes"
        );
        assert_eq!(
            e(WarcErrorKind::WrongLength(LengthProblem::NoTrailer)),
            "record at offset 5: wrong Content-Length: the block is not \
             followed by CRLF CRLF"
        );
    }
}
