//! The RFC 3986 generic syntax: the byte classes of section 2, the
//! validating parser of section 3 and Appendix A, IRIs (RFC 3987),
//! reference resolution (section 5) and normalization and comparison
//! (section 6).

pub mod chars;
pub mod iri;
pub mod normalize;
mod parse;
pub mod resolve;
pub mod security;

pub use parse::{
    ErrorKind, HostKind, ParseError, Parser, RefKind, UriRef, parse_reference,
    parse_uri,
};
