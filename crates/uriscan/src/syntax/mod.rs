//! The RFC 3986 generic syntax: the byte classes of section 2, the
//! validating parser of section 3 and Appendix A, IRIs (RFC 3987),
//! reference resolution (section 5) and normalization and comparison
//! (section 6).
//!
//! ```
//! use uriscan::syntax::{HostKind, Parser};
//! let r = Parser::new().parse_reference("//192.0.2.1:8080/a?b").unwrap();
//! assert_eq!(r.host_kind(), Some(HostKind::Ipv4));
//! assert_eq!(r.port(), Some("8080"));
//! ```

// The byte tables are the parser's and the scanner's implementation, not
// API: a caller asks the parser, not a table.
pub(crate) mod chars;
pub use chars::is_scheme;
pub mod host;
pub mod iri;
pub mod normalize;
mod parse;
pub mod resolve;
pub mod security;
pub mod surt;

pub use parse::{
    ErrorKind, HostKind, ParseError, Parser, RefKind, UriRef, parse_reference,
    parse_uri,
};
