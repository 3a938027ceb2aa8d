//! Reference resolution, RFC 3986 section 5: the examples of 5.4 and the
//! cases of tests/data/resolve_more.txt, a literal reference
//! implementation of 5.2 as an oracle, iri-string as a second one, and
//! the properties every target must have.

use crate::support::refs::{self, has_dot_segment, resolution_cases};
use proptest::prelude::*;
use uriscan::syntax::resolve::{
    ResolveErrorKind, remove_dot_segments, resolve, resolve_str,
};
use uriscan::syntax::{Parser, RefKind, UriRef, parse_reference, parse_uri};

#[track_caller]
fn check_table(name: &str) -> usize {
    let cases = resolution_cases(name);
    let mut failures = Vec::new();
    for (base, r, want) in &cases {
        match resolve_str(base, r) {
            Ok(got) if got == *want => {}
            got => failures.push(format!(
                "{name}: base {base:?} ref {r:?}: want {want:?}, got {got:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    cases.len()
}

#[test]
fn every_example_of_5_4_resolves_as_the_rfc_says() {
    // 23 normal and 19 abnormal examples (the last the strict "http:g").
    assert_eq!(check_table("resolve_5_4.txt"), 23 + 19);
}

#[test]
fn the_extra_cases_resolve_as_documented() {
    check_table("resolve_more.txt");
}

#[test]
fn every_target_in_the_tables_is_a_uri_that_resolves_to_itself() {
    for name in ["resolve_5_4.txt", "resolve_more.txt"] {
        for (_, _, target) in resolution_cases(name) {
            let t = parse_uri(&target)
                .unwrap_or_else(|e| panic!("{target:?}: {e}"));
            // A target is its own target against any base: resolving it
            // again changes nothing, as it has no dot segments left to
            // remove (the protected "/.//" form comes back as it was).
            // The exception: a base path taken over as it is (5.2.2).
            if t.path().starts_with("/.//") || !has_dot_segment(t.path()) {
                assert_eq!(resolve(&t, &t).unwrap(), target);
            }
        }
    }
}

/// 5.2.1: the fragment of the base plays no part.
#[test]
fn a_base_fragment_is_ignored() {
    let plain = parse_uri("http://a/b/c/d;p?q").unwrap();
    let with_fragment = parse_uri("http://a/b/c/d;p?q#frag").unwrap();
    for (_, r, want) in resolution_cases("resolve_5_4.txt") {
        let r = parse_reference(&r).unwrap();
        assert_eq!(resolve(&with_fragment, &r).unwrap(), want);
        assert_eq!(resolve(&plain, &r).unwrap(), want);
    }
}

#[test]
fn a_base_without_a_scheme_is_an_error() {
    for base in ["", "/a/b", "//h/a", "a/b", "?q", "#f"] {
        let e = resolve_str(base, "g").unwrap_err();
        assert_eq!(e.kind(), ResolveErrorKind::BaseNotAbsolute, "{base:?}");
        assert_eq!(e.to_string(), "base URI has no scheme");
        let b = parse_reference(base).unwrap();
        let r = parse_reference("g").unwrap();
        assert_eq!(
            resolve(&b, &r).unwrap_err().kind(),
            ResolveErrorKind::BaseNotAbsolute
        );
    }
}

#[test]
fn unparsable_inputs_are_errors_that_say_which() {
    let e = resolve_str("http://a/b c", "g").unwrap_err();
    assert!(matches!(e.kind(), ResolveErrorKind::InvalidBase(_)), "{e:?}");
    assert!(e.to_string().starts_with("invalid base URI: "), "{e}");
    let e = resolve_str("http://a/b", "g h").unwrap_err();
    assert!(
        matches!(e.kind(), ResolveErrorKind::InvalidReference(p) if p.index() == 1),
        "{e:?}"
    );
    assert!(e.to_string().starts_with("invalid reference: "), "{e}");
}

/// The `//` fix: the target reparses to the components the algorithm
/// computed: no authority, and a path that is `//g` once its dot segments
/// are removed.
#[test]
fn a_double_slash_path_without_authority_reparses_the_same() {
    let cases = [
        ("s:/a", "..//g", "//g"),
        ("s:/a/b", "../..//g", "//g"),
        ("s:", "/..//g", "//g"),
        ("s:", ".///g", "//g"),
        ("s:foo", ".///bar", "//bar"),
        ("s:/a", "x:/.//y/z", "//y/z"),
        ("s:/a", "..//g?q#f", "//g"),
    ];
    for (base, r, path) in cases {
        let target = resolve_str(base, r).unwrap();
        let t = parse_uri(&target).unwrap();
        assert_eq!(t.authority(), None, "{target}");
        assert_eq!(t.path(), format!("/.{path}"), "{target}");
        assert_eq!(remove_dot_segments(t.path()), path, "{target}");
        // and it is a fixed point
        assert_eq!(resolve(&t, &parse_reference("").unwrap()).unwrap(), {
            let mut s = target.clone();
            if let Some(i) = s.find('#') {
                s.truncate(i);
            }
            s
        });
    }
    // With an authority, `//` is an ordinary path and is left alone.
    assert_eq!(resolve_str("http://a/b", "..//g").unwrap(), "http://a//g");
}

#[test]
fn iris_resolve_with_an_iri_parser() {
    let p = Parser::new().iri(true);
    let got = uriscan::syntax::resolve::resolve_with(
        p,
        "http://例え.jp/ä/ö",
        "../ü?é#ß",
    )
    .unwrap();
    assert_eq!(got, "http://例え.jp/ü?é#ß");
}

// ---------------------------------------------------------------------
// The oracle: 5.2.2 to 5.2.4 and 5.3 written as literally as the RFC
// says them, two string buffers and all.

fn ref_remove_dot_segments(path: &str) -> String {
    let mut input = path.to_owned();
    let mut output = String::new();
    let pop = |o: &mut String| {
        let cut = o.rfind('/').unwrap_or(0);
        o.truncate(cut);
    };
    while !input.is_empty() {
        if input.starts_with("../") {
            input.drain(..3);
        } else if input.starts_with("./") {
            input.drain(..2);
        } else if input.starts_with("/./") {
            input.replace_range(..3, "/");
        } else if input == "/." {
            input = "/".to_owned();
        } else if input.starts_with("/../") {
            input.replace_range(..4, "/");
            pop(&mut output);
        } else if input == "/.." {
            input = "/".to_owned();
            pop(&mut output);
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let from = usize::from(input.starts_with('/'));
            let end =
                input[from..].find('/').map_or(input.len(), |k| from + k);
            output.push_str(&input[..end]);
            input.drain(..end);
        }
    }
    output
}

fn ref_merge(base: &UriRef<'_>, path: &str) -> String {
    if base.authority().is_some() && base.path().is_empty() {
        format!("/{path}")
    } else {
        match base.path().rfind('/') {
            Some(i) => format!("{}{path}", &base.path()[..=i]),
            None => path.to_owned(),
        }
    }
}

fn ref_resolve(base: &UriRef<'_>, r: &UriRef<'_>) -> String {
    let (scheme, authority, path, query);
    if r.scheme().is_some() {
        scheme = r.scheme();
        authority = r.authority();
        path = ref_remove_dot_segments(r.path());
        query = r.query();
    } else {
        if r.authority().is_some() {
            authority = r.authority();
            path = ref_remove_dot_segments(r.path());
            query = r.query();
        } else {
            if r.path().is_empty() {
                path = base.path().to_owned();
                query =
                    if r.query().is_some() { r.query() } else { base.query() };
            } else {
                if r.path().starts_with('/') {
                    path = ref_remove_dot_segments(r.path());
                } else {
                    path = ref_remove_dot_segments(&ref_merge(base, r.path()));
                }
                query = r.query();
            }
            authority = base.authority();
        }
        scheme = base.scheme();
    }
    let fragment = r.fragment();
    // 5.3
    let mut result = String::new();
    if let Some(s) = scheme {
        result.push_str(s);
        result.push(':');
    }
    if let Some(a) = authority {
        result.push_str("//");
        result.push_str(a);
    }
    // uriscan's documented deviation, the "/." guard.
    if authority.is_none() && path.starts_with("//") {
        result.push_str("/.");
    }
    result.push_str(&path);
    if let Some(q) = query {
        result.push('?');
        result.push_str(q);
    }
    if let Some(f) = fragment {
        result.push('#');
        result.push_str(f);
    }
    result
}

#[test]
fn the_oracle_agrees_with_the_tables() {
    for name in ["resolve_5_4.txt", "resolve_more.txt"] {
        for (b, r, want) in resolution_cases(name) {
            let b = parse_uri(&b).unwrap();
            let r = parse_reference(&r).unwrap();
            assert_eq!(ref_resolve(&b, &r), want);
        }
    }
}

fn dotted_path() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("/"),
            Just("."),
            Just(".."),
            Just("a"),
            Just("é"),
            Just("./"),
            Just("../"),
            Just("/./"),
            Just("/../"),
            Just(".a"),
        ],
        0..12,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn remove_dot_segments_agrees_with_the_two_buffer_oracle(
        p in dotted_path(),
    ) {
        prop_assert_eq!(remove_dot_segments(&p), ref_remove_dot_segments(&p));
    }

    #[test]
    fn resolve_agrees_with_the_oracle(
        b in refs::uri(false),
        r in refs::reference(false),
    ) {
        let base = parse_uri(&b).unwrap();
        let reference = parse_reference(&r).unwrap();
        prop_assert_eq!(
            resolve(&base, &reference).unwrap(),
            ref_resolve(&base, &reference)
        );
    }

    /// iri-string, an independent implementation of 5.2 that makes the
    /// same "/." choice, as a second oracle. It wants a base without a
    /// fragment, and takes `%2E` for a `.` in remove_dot_segments, which
    /// 5.2.4 does not (a dot segment is "." or "..", character for
    /// character): leave encoded dots out.
    #[test]
    fn resolve_agrees_with_iri_string(
        b in refs::uri(true).prop_map(|s| s.replace("%2e", "e").replace("%2E", "E")),
        r in refs::reference(true).prop_map(|s| s.replace("%2e", "e").replace("%2E", "E")),
    ) {
        use iri_string::types::{IriAbsoluteStr, IriReferenceStr};
        let b = b.split('#').next().unwrap().to_owned();
        let p = Parser::new().iri(true);
        let base = p.parse_uri(&b).unwrap();
        let reference = p.parse_reference(&r).unwrap();
        let theirs = IriReferenceStr::new(&r)
            .unwrap()
            .resolve_against(IriAbsoluteStr::new(&b).unwrap())
            .to_string();
        prop_assert_eq!(resolve(&base, &reference).unwrap(), theirs);
    }

    /// Every target is a URI, and its path holds no dot segment apart
    /// from the "/." guard; the one exception of 5.2.2 is a reference
    /// with an empty path, whose target keeps the base path as it is.
    #[test]
    fn every_target_is_a_uri_without_dot_segments(
        b in refs::uri(true),
        r in refs::reference(true),
    ) {
        let p = Parser::new().iri(true);
        let base = p.parse_uri(&b).unwrap();
        let reference = p.parse_reference(&r).unwrap();
        let target = resolve(&base, &reference).unwrap();
        let t = p.parse_uri(&target);
        prop_assert!(t.is_ok(), "{target:?}: {t:?}");
        let t = t.unwrap();
        prop_assert_eq!(t.kind(), RefKind::Uri);
        prop_assert_eq!(t.fragment(), reference.fragment());
        let keeps_base_path = reference.scheme().is_none()
            && reference.authority().is_none()
            && reference.path().is_empty();
        if keeps_base_path {
            prop_assert_eq!(t.path(), base.path());
        } else {
            let path = match t.path().strip_prefix("/.") {
                Some(rest) if t.authority().is_none()
                    && rest.starts_with("//") => rest,
                _ => t.path(),
            };
            prop_assert!(!has_dot_segment(path), "{target:?}");
        }
    }

    #[test]
    fn no_input_panics(b in "\\PC{0,20}", r in "\\PC{0,20}") {
        let _ = resolve_str(&b, &r);
        let _ = remove_dot_segments(&r);
    }
}
