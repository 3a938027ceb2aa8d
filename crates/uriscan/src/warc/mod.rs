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

mod error;
mod gzip;
mod http;
mod links;
mod record;
mod source;
mod warnings;

pub use error::{HeaderProblem, LengthProblem, WarcError, WarcErrorKind};
pub use http::HttpResponse;
pub use links::{
    WarcLink, WarcLinks, for_each_record_link, payload_format, record_links,
};
pub use record::{DEFAULT_MAX_BLOCK, Record, RecordType, WarcReader};
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

#[cfg(test)]
mod tests;
