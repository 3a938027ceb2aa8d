//! The parser on arbitrary input, plain and IRI: it never panics; a
//! success recomposes to the input with consistent spans; an error index
//! is on a character boundary and, except for a missing scheme, leaves a
//! valid prefix; and fluent-uri (strict RFC 3986 / 3987) agrees on
//! accept/reject.

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::syntax::{ErrorKind, ParseError, Parser, UriRef};

fuzz_target!(|data: &[u8]| {
    match std::str::from_utf8(data) {
        Ok(s) => check(s),
        Err(_) => check(&String::from_utf8_lossy(data)),
    }
});

type Entry = for<'a> fn(&Parser, &'a str) -> Result<UriRef<'a>, ParseError>;

const ENTRIES: [Entry; 4] = [
    Parser::parse_reference,
    Parser::parse_uri,
    Parser::parse_absolute,
    Parser::parse_relative,
];

fn check(s: &str) {
    for iri in [false, true] {
        let p = Parser::new().iri(iri);
        for entry in ENTRIES {
            match entry(&p, s) {
                Ok(r) => check_parts(&r),
                Err(e) => {
                    assert!(s.is_char_boundary(e.index()), "{s:?}: {e:?}");
                    if e.kind() != ErrorKind::InvalidScheme {
                        let prefix = &s[..e.index()];
                        assert!(
                            entry(&p, prefix).is_ok(),
                            "{s:?}: {e:?}, prefix {prefix:?} invalid"
                        );
                    }
                }
            }
        }
        assert_eq!(
            p.validate(s),
            p.parse_reference(s).map(|_| ()),
            "validate {s:?}"
        );
        let ours = p.parse_reference(s).is_ok();
        let theirs = if iri {
            fluent_uri::IriRef::parse(s).is_ok()
        } else {
            fluent_uri::UriRef::parse(s).is_ok()
        };
        assert_eq!(ours, theirs, "fluent-uri disagrees on {s:?} (iri {iri})");
    }
}

fn check_parts(r: &UriRef<'_>) {
    let s = r.as_str();
    let mut out = String::with_capacity(s.len());
    if let Some(x) = r.scheme() {
        out.push_str(x);
        out.push(':');
    }
    if let Some(x) = r.authority() {
        out.push_str("//");
        out.push_str(x);
    }
    out.push_str(r.path());
    if let Some(x) = r.query() {
        out.push('?');
        out.push_str(x);
    }
    if let Some(x) = r.fragment() {
        out.push('#');
        out.push_str(x);
    }
    assert_eq!(out, s);
    let authority = r.authority_span();
    for inner in [r.userinfo_span(), r.host_span(), r.port_span()] {
        if let Some(inner) = inner {
            let a = authority.expect("a part of an authority without one");
            assert!(a.start <= inner.start && inner.end <= a.end, "{s:?}");
        }
    }
    assert_eq!(r.host().is_some(), r.authority().is_some());
    assert_eq!(r.host().is_some(), r.host_kind().is_some());
}
