//! The library's integration tests, one binary: the RFC 3986 tables and
//! properties of `syntax`, the scanner's passages and properties, the
//! document readers against CommonMark and their passages, the WARC
//! reader's properties and the remote checker against local servers.

mod support;

#[cfg(feature = "check")]
mod check_rst;
mod links_asciidoc;
mod links_commonmark;
mod links_markdown_parsers;
mod links_passages;
mod links_props;
mod links_references;
#[cfg(feature = "remote")]
mod remote;
#[cfg(feature = "remote")]
mod remote_faults;
mod scan_api;
mod scan_passages;
mod scan_props;
mod syntax_normalize;
mod syntax_parse;
mod syntax_resolve;
#[cfg(feature = "url-standard")]
mod url_standard;
#[cfg(feature = "warc")]
mod warc_arc;
#[cfg(feature = "warc")]
mod warc_conformance;
#[cfg(feature = "warc")]
mod warc_lenient;
#[cfg(feature = "warc")]
mod warc_props;
#[cfg(feature = "warc")]
mod warc_read_size;
