//! What a reader let pass in a record that the standards would refuse,
//! as warcio and jwarc do: the record is kept, and says what was odd.

use std::fmt;

/// Something odd in a record that was read all the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordWarning {
    /// WARC header lines end in LF alone or in CR CR LF, not CRLF.
    WarcLineEnds,
    /// HTTP header lines end in LF alone or in CR CR LF, not CRLF.
    HttpLineEnds,
    /// `Transfer-Encoding: chunked` over a body that does not parse as
    /// chunked to its end (stored already de-chunked): taken as it is.
    StaleChunked,
    /// A `Content-Encoding` of gzip, deflate or br over a body that does
    /// not decode from its first bytes (stored already decoded): taken as
    /// it is.
    StaleContentEncoding,
    /// The `Content-Encoding` data breaks (cut short, or corrupt) after
    /// it began to decode: the payload is what decoded before the break.
    DamagedContentEncoding {
        /// The bytes decoded before the break.
        decoded: u64,
    },
    /// The payload decodes to more than `limit` bytes (a decompression
    /// bomb, or a huge page): only its first `limit` bytes are read.
    PayloadTooLarge {
        /// The most bytes a payload is decoded to.
        limit: u64,
    },
    /// The block is not followed by `CRLF CRLF` where `Content-Length`
    /// says: the next record was found a few bytes off, and the block
    /// ends there.
    LengthOff {
        /// The block's bytes beyond `Content-Length` (negative: fewer).
        by: i64,
    },
    /// The block is followed by less than `CRLF CRLF` before the next
    /// record.
    ShortTrailer,
}

impl RecordWarning {
    /// A short name for machines: `warc-line-ends`, `http-line-ends`,
    /// `stale-chunked`, `stale-content-encoding`,
    /// `damaged-content-encoding`, `payload-too-large`, `length-off`,
    /// `short-trailer`.
    pub fn as_str(&self) -> &'static str {
        match self {
            RecordWarning::WarcLineEnds => "warc-line-ends",
            RecordWarning::HttpLineEnds => "http-line-ends",
            RecordWarning::StaleChunked => "stale-chunked",
            RecordWarning::StaleContentEncoding => "stale-content-encoding",
            RecordWarning::DamagedContentEncoding { .. } => {
                "damaged-content-encoding"
            }
            RecordWarning::PayloadTooLarge { .. } => "payload-too-large",
            RecordWarning::LengthOff { .. } => "length-off",
            RecordWarning::ShortTrailer => "short-trailer",
        }
    }
}

impl fmt::Display for RecordWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordWarning::WarcLineEnds => {
                f.write_str("WARC header lines do not end in CRLF")
            }
            RecordWarning::HttpLineEnds => {
                f.write_str("HTTP header lines do not end in CRLF")
            }
            RecordWarning::StaleChunked => f.write_str(
                "Transfer-Encoding: chunked over a body that is not chunked; \
                 read as it is",
            ),
            RecordWarning::StaleContentEncoding => f.write_str(
                "Content-Encoding over a body that is not so coded; \
                 read as it is",
            ),
            RecordWarning::DamagedContentEncoding { decoded } => write!(
                f,
                "Content-Encoding data is damaged after {decoded} decoded \
                 bytes; read up to there"
            ),
            RecordWarning::PayloadTooLarge { limit } => write!(
                f,
                "the payload decodes to more than {} MiB; only its first {} \
                 MiB are read",
                limit >> 20,
                limit >> 20
            ),
            RecordWarning::LengthOff { by } => write!(
                f,
                "Content-Length is off by {by} bytes; read to the next record"
            ),
            RecordWarning::ShortTrailer => {
                f.write_str("the block is followed by less than CRLF CRLF")
            }
        }
    }
}
