//! Normalization and comparison, RFC 3986 section 6.2: the cases of
//! tests/data/normalize.txt and the properties of the normal forms.

use crate::support::refs::{self, data, has_dot_segment, table_line};
use proptest::prelude::*;
use uriscan::syntax::normalize::{
    NormalForm, equivalent, normalize, normalize_scheme_based, normalize_str,
};
use uriscan::syntax::resolve::resolve;
use uriscan::syntax::{Parser, RefKind, UriRef};

const IRI: Parser = Parser::new().iri(true);

#[track_caller]
fn parse_or_panic<'a>(p: Parser, s: &'a str, at: &str) -> UriRef<'a> {
    p.parse_reference(s).unwrap_or_else(|e| panic!("{at}: {s:?}: {e}"))
}

#[test]
fn the_table_cases_normalize_as_documented() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in data("normalize.txt").lines().enumerate() {
        let Some((mode, s)) = table_line(line) else { continue };
        count += 1;
        let at = format!("normalize.txt:{}", n + 1);
        let parser = if mode == "iri" { IRI } else { Parser::new() };
        let parse = |s| parse_or_panic(parser, s, &at);
        let (ok, got) = match (mode, s.as_slice()) {
            ("syntax" | "iri", [input, want]) => {
                let got = normalize(&parse(input));
                (got == *want, got)
            }
            ("scheme", [input, want]) => {
                let got = normalize_scheme_based(&parse(input));
                (got == *want, got)
            }
            ("same", [a, b]) => {
                (equivalent(&parse(a), &parse(b)), "not equivalent".into())
            }
            ("different", [a, b]) => {
                (!equivalent(&parse(a), &parse(b)), "equivalent".into())
            }
            _ => panic!("{at}: bad line {line:?}"),
        };
        if !ok {
            failures.push(format!("{at}: {line}\n    got {got:?}"));
        }
    }
    assert!(count > 50, "only {count} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn normalize_str_parses_then_normalizes() {
    assert_eq!(
        normalize_str("HTTP://H:80", NormalForm::Syntax).unwrap(),
        "http://h:80"
    );
    assert_eq!(
        normalize_str("HTTP://H:80", NormalForm::SchemeBased).unwrap(),
        "http://h/"
    );
    let e = normalize_str("http://h/a b", NormalForm::Syntax).unwrap_err();
    assert_eq!(e.index(), 10);
}

/// Whether the normal form of a URI keeps something that a further
/// normalization would change: only the "/." guard is allowed.
fn dot_segments_left(n: &UriRef<'_>) -> bool {
    let path = n.path();
    let guarded = n.authority().is_none() && path.starts_with("/.//");
    !guarded && has_dot_segment(path)
}

/// A percent-encoded dot is a dot segment to normalization (6.2.2.2
/// decodes it) but not to resolution (5.2.4 works on the string as it
/// is), so the two commute only without one: swap each for a letter.
fn without_encoded_dots(s: String) -> String {
    s.replace("%2e", "e").replace("%2E", "E")
}

/// A base path ending in a dot segment loses a segment to normalization
/// that the merge of 5.2.3 keeps (`/a/..` + `g` is `/a/g`, `/` + `g` is
/// `/g`): no commuting there either.
fn ends_in_dot_segment(r: &UriRef<'_>) -> bool {
    let last = r.path().rsplit('/').next().unwrap_or("");
    last == "." || last == ".."
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn normalization_is_idempotent_and_reparses(x in refs::reference(true)) {
        let r = IRI.parse_reference(&x).unwrap();
        for (n, again) in [
            (normalize(&r), normalize as fn(&UriRef<'_>) -> String),
            (normalize_scheme_based(&r), normalize_scheme_based),
        ] {
            let p = IRI.parse_reference(&n);
            prop_assert!(p.is_ok(), "{x:?} -> {n:?}: {p:?}");
            let p = p.unwrap();
            prop_assert_eq!(p.kind(), r.kind());
            prop_assert_eq!(again(&p), n.clone(), "{:?}", x);
            if r.kind() == RefKind::Uri {
                prop_assert!(!dot_segments_left(&p), "{x:?} -> {n:?}");
            }
        }
    }

    #[test]
    fn a_reference_is_equivalent_to_its_normal_forms(
        x in refs::reference(true),
    ) {
        let r = IRI.parse_reference(&x).unwrap();
        prop_assert!(equivalent(&r, &r));
        let n = normalize(&r);
        prop_assert!(equivalent(&IRI.parse_reference(&n).unwrap(), &r));
        let n = normalize_scheme_based(&r);
        prop_assert!(equivalent(&r, &IRI.parse_reference(&n).unwrap()));
    }

    /// Normalization changes only ASCII: the non-ASCII text of an IRI
    /// comes out as it went in, in order (minus what dot segment removal
    /// drops from a URI path).
    #[test]
    fn non_ascii_text_survives(x in refs::relative(true)) {
        let r = IRI.parse_reference(&x).unwrap();
        let non_ascii = |s: &str| s.chars().filter(|c| !c.is_ascii()).collect::<String>();
        prop_assert_eq!(non_ascii(&normalize(&r)), non_ascii(&x));
    }

    /// 5.2.1: normalizing the base first is allowed and changes nothing
    /// in the normal form of the target; nor does normalizing the
    /// reference.
    #[test]
    fn resolution_and_normalization_commute(
        b in refs::uri(true).prop_map(without_encoded_dots),
        x in refs::reference(true).prop_map(without_encoded_dots),
    ) {
        let base = IRI.parse_uri(&b).unwrap();
        let r = IRI.parse_reference(&x).unwrap();
        prop_assume!(!ends_in_dot_segment(&base));
        let nb = normalize(&base);
        let nbase = IRI.parse_uri(&nb).unwrap();
        let nx = normalize(&r);
        let nr = IRI.parse_reference(&nx).unwrap();
        let direct = normalize(&IRI.parse_uri(&resolve(&base, &r).unwrap()).unwrap());
        let via_base = resolve(&nbase, &r).unwrap();
        let via_base = normalize(&IRI.parse_uri(&via_base).unwrap());
        prop_assert_eq!(&direct, &via_base);
        let via_both = resolve(&nbase, &nr).unwrap();
        let via_both = normalize(&IRI.parse_uri(&via_both).unwrap());
        prop_assert_eq!(&direct, &via_both);
    }

    #[test]
    fn no_input_panics(s in "\\PC{0,24}", t in "[%a-zA-Z0-9:/?#@.\\[\\]]{0,24}") {
        for x in [&s, &t] {
            for p in [Parser::new(), IRI] {
                if let Ok(r) = p.parse_reference(x) {
                    let _ = normalize(&r);
                    let _ = normalize_scheme_based(&r);
                }
            }
            let _ = normalize_str(x, NormalForm::SchemeBased);
        }
    }
}
