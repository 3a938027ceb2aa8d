//! Web archives: the records of WARC files (ISO 28500, WARC 1.0 and 1.1),
//! WET files (their text conversions) and ARC files (the Internet
//! Archive's format before WARC), and the links of each record.
//!
//! Crawls are stored as WARC: each HTTP response a `response` record
//! (WARC headers, then the HTTP status line, headers and body as
//! received), each record its own gzip member so that an index can point
//! at it by offset. [`WarcReader`] reads any [`std::io::Read`] in bounded
//! memory, plain or gzip (one member per record, or one stream), and
//! keeps going past damaged records; [`record_links`] and [`WarcLinks`]
//! give each record's links with the page, record id and offset they
//! came from.
//!
//! ```no_run
//! use uriscan::links::LinkExtractor;
//! use uriscan::warc::{WarcLinks, WarcReader};
//!
//! let file = std::fs::File::open("crawl.warc.gz")?;
//! let extractor = LinkExtractor::new();
//! for item in WarcLinks::new(WarcReader::new(file), &extractor) {
//!     match item {
//!         Ok(l) => println!("{} -> {}", l.page(), l.link().target().unwrap_or("")),
//!         Err(e) => eprintln!("{e}"), // a damaged record; reading goes on
//!     }
//! }
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Needs the `warc` feature (flate2 on the zlib-rs backend; on with the
//! default `cli`).
//!
//! The header block is parsed here by hand: it is a few lines of
//! `Name: value`, and a hand parser over the decompressed buffer costs
//! nothing next to decompression. The WARC crates on crates.io (`warc`
//! 0.4) read one record at a time with a gzip decoder per record and stop
//! at the first damaged record; none tracks member offsets.

use std::io::{self, Read};

mod error;
mod gzip;
mod http;
mod links;
mod record;
mod source;
mod tally;
mod warnings;

pub use error::{HeaderProblem, LengthProblem, WarcError, WarcErrorKind};
pub use http::HttpResponse;
pub use links::{
    WarcLink, WarcLinks, for_each_record_link, payload_format, record_links,
};
pub use record::{DEFAULT_MAX_BLOCK, Record, RecordType, WarcReader};
pub use source::OffsetKind;
pub use tally::{ReadMessage, ReadTally, RunSummary};
pub use warnings::RecordWarning;

/// Whether a file name says WARC, WET or ARC: `.warc`, `.wet`, `.arc`,
/// each also with `.gz` (any case).
///
/// ```
/// use uriscan::warc::is_warc_name;
/// assert!(is_warc_name("CC-MAIN-2024-00000.warc.gz".as_ref()));
/// assert!(is_warc_name("x.WET".as_ref()));
/// assert!(is_warc_name("IAH-20080430204825-00000.arc.gz".as_ref()));
/// assert!(!is_warc_name("x.gz".as_ref()));
/// ```
pub fn is_warc_name(path: &std::path::Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".warc") || name.ends_with(".wet") || name.ends_with(".arc")
}

/// Whether `bytes` (a file's first bytes, decompressed) start a WARC
/// record, `WARC/1.`, or an ARC file, `filedesc://`.
pub fn has_warc_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(b"WARC/1.") || bytes.starts_with(b"filedesc://")
}

/// Whether a file that starts with `head` is a web archive, by its
/// content: plain, or gzip (by its magic) whose first bytes decompress
/// to `WARC/1.` or `filedesc://`. A few hundred bytes of `head` are
/// enough.
///
/// ```
/// use std::io::Write;
/// use uriscan::warc::is_archive;
/// let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
/// gz.write_all(b"filedesc://x.arc 0.0.0.0 20000101000000 text/plain 3\n")?;
/// assert!(is_archive(&gz.finish()?));
/// assert!(is_archive(b"WARC/1.1\r\n"));
/// assert!(!is_archive(b"<html>"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn is_archive(head: &[u8]) -> bool {
    if !head.starts_with(&[0x1f, 0x8b]) {
        return has_warc_magic(head);
    }
    let mut first = [0; 16];
    let mut decoder = flate2::bufread::GzDecoder::new(head);
    let mut n = 0;
    while n < first.len() {
        match decoder.read(&mut first[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    has_warc_magic(&first[..n])
}

/// The reader of a file opened after [`open_archive`] looked at it.
pub type ArchiveFile = io::Chain<io::Cursor<Vec<u8>>, std::fs::File>;

/// Opens the file at `path` and, when its content says it is a web
/// archive ([`is_archive`]: plain or gzip, whatever its name), a reader of
/// its records; `None` for any other file.
pub fn open_archive(
    path: &std::path::Path,
) -> io::Result<Option<WarcReader<ArchiveFile>>> {
    let mut file = std::fs::File::open(path)?;
    let mut head = Vec::with_capacity(512);
    (&mut file).take(512).read_to_end(&mut head)?;
    if !is_archive(&head) {
        return Ok(None);
    }
    Ok(Some(WarcReader::new(io::Cursor::new(head).chain(file))))
}

#[cfg(test)]
mod tests;
