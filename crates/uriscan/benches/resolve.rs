//! Reference resolution (RFC 3986 section 5) and normalization (section
//! 6), side by side with iri-string, on the same inputs.
//!
//! Two sets of references are resolved:
//!
//! - `rfc`: the normal and abnormal examples of 5.4, against their base
//!   `http://a/b/c/d;p?q`;
//! - `corpus`: the `http://` and `https://` tokens of the benchmark corpus
//!   (`../shared/corpus/*.{txt,md,html}` from the crate root, or
//!   `$URISCAN_CORPUS`; a small built-in list when it is absent),
//!   deduplicated and capped at 3000, each turned in turn into one of three
//!   references (the URI itself, its `/path?query#fragment`, and that path
//!   made relative as `../segment...`), against [`CORPUS_BASE`].
//!
//! The corpus URIs themselves are normalized, by [`normalize`],
//! [`normalize_scheme_based`] (which iri-string has no counterpart for)
//! and iri-string's `normalize`. Every input is kept only when both
//! crates accept it, and every timed call parses its input first, as a
//! caller holding strings does. Run with:
//!
//! ```text
//! cargo bench --bench resolve -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! After criterion's own report, a summary gives the median ns per
//! input, MB/s of input, and each time relative to iri-string.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput};
use iri_string::format::ToDedicatedString;
use iri_string::types::{UriAbsoluteStr, UriReferenceStr, UriStr};
use uriscan::syntax::normalize::{normalize, normalize_scheme_based};
use uriscan::syntax::resolve::{parse_base, resolve, resolve_into};
use uriscan::syntax::{Parser, UriRef};

const MAX_URIS: usize = 3000;
const RFC_BASE: &str = "http://a/b/c/d;p?q";
const CORPUS_BASE: &str = "https://example.org/docs/guide/page.html?x=1";

/// RFC 3986 5.4.1 and 5.4.2.
const RFC_REFS: &[&str] = &[
    "g:h",
    "g",
    "./g",
    "g/",
    "/g",
    "//g",
    "?y",
    "g?y",
    "#s",
    "g#s",
    "g?y#s",
    ";x",
    "g;x",
    "g;x?y#s",
    "",
    ".",
    "./",
    "..",
    "../",
    "../g",
    "../..",
    "../../",
    "../../g",
    "../../../g",
    "../../../../g",
    "/./g",
    "/../g",
    "g.",
    ".g",
    "g..",
    "..g",
    "./../g",
    "./g/.",
    "g/./h",
    "g/../h",
    "g;x=1/./y",
    "g;x=1/../y",
    "g?y/./x",
    "g?y/../x",
    "g#s/./x",
    "g#s/../x",
    "http:g",
];

const FALLBACK: &[&str] = &[
    "http://example.com/",
    "https://www.rfc-editor.org/rfc/rfc3986.html#section-3.2.2",
    "http://[2001:db8::7]:8080/c=GB?objectClass?one",
    "https://user:pass@192.0.2.16:443/a/b/c.html?x=1&y=%20z#frag",
    "https://en.wikipedia.org/wiki/Uniform_Resource_Identifier",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "https://github.com/rust-lang/rust/issues?q=is%3Aopen+label%3AA-parser",
    "HTTP://Example.COM:80/%7euser/./a/../b/%2e%2E/c",
];

/// The `i`th corpus reference made from `uri`: the URI as it is, its
/// path onwards (`path-absolute`), or that path as `../` and the rest
/// (a relative path, merged with the base and its dots removed).
fn reference_form(uri: &str, i: usize) -> String {
    let after_scheme = uri.find("//").map_or(uri, |k| &uri[k + 2..]);
    let path = after_scheme.find('/').map_or("/", |k| &after_scheme[k..]);
    match i % 3 {
        0 => uri.to_owned(),
        1 => path.to_owned(),
        _ => format!("..{path}"),
    }
}

struct Inputs {
    rfc: Vec<String>,
    refs: Vec<String>,
    uris: Vec<String>,
}

fn inputs() -> Inputs {
    let mut uris = common::corpus_uris(MAX_URIS);
    if uris.is_empty() {
        eprintln!("corpus not found, using the built-in URIs");
        uris = FALLBACK.iter().map(|s| s.to_string()).collect();
    }
    let p = Parser::new();
    let before = uris.len();
    uris.retain(|u| p.parse_uri(u).is_ok() && UriStr::new(u).is_ok());
    let mut refs: Vec<String> =
        uris.iter().enumerate().map(|(i, u)| reference_form(u, i)).collect();
    refs.retain(|r| {
        p.parse_reference(r).is_ok() && UriReferenceStr::new(r).is_ok()
    });
    let rfc = RFC_REFS.iter().map(|s| s.to_string()).collect();
    eprintln!(
        "{} corpus URIs ({} dropped as invalid for one of the crates), \
         {} bytes; {} references from them, {} bytes",
        uris.len(),
        before - uris.len(),
        total(&uris),
        refs.len(),
        total(&refs),
    );
    Inputs { rfc, refs, uris }
}

fn total(v: &[String]) -> usize {
    v.iter().map(String::len).sum()
}

/// The number of inputs on which the two crates disagree, so that the
/// timings are known to compare the same work.
fn disagreements(
    items: &[String],
    ours: impl Fn(&str) -> String,
    theirs: impl Fn(&str) -> String,
) -> usize {
    items.iter().filter(|s| ours(s) != theirs(s)).count()
}

fn throughput(v: &[String]) -> Throughput {
    Throughput::ElementsAndBytes {
        elements: v.len() as u64,
        bytes: total(v) as u64,
    }
}

fn bench_resolve(c: &mut Criterion, group: &str, base: &str, refs: &[String]) {
    let p = Parser::new();
    let ours_base = parse_base(p, base).expect("the base is a URI");
    let theirs_base = UriAbsoluteStr::new(base).expect("the base is a URI");
    let ours = |r: &str| {
        let r = p.parse_reference(r).unwrap();
        resolve(&ours_base, &r).unwrap()
    };
    let theirs = |r: &str| {
        let r = UriReferenceStr::new(r).unwrap();
        r.resolve_against(theirs_base).to_dedicated_string().to_string()
    };
    let differ = disagreements(refs, ours, theirs);
    eprintln!("{group}: {differ} of {} targets differ", refs.len());

    let mut g = c.benchmark_group(group);
    g.throughput(throughput(refs));
    g.bench_function("uriscan-resolve", |b| {
        b.iter(|| {
            let mut n = 0;
            for r in refs {
                let r = p.parse_reference(black_box(r)).unwrap();
                n += resolve(&ours_base, &r).unwrap().len();
            }
            n
        })
    });
    g.bench_function("uriscan-resolve-into", |b| {
        let mut out = String::new();
        b.iter(|| {
            let mut n = 0;
            for r in refs {
                let r = p.parse_reference(black_box(r)).unwrap();
                out.clear();
                resolve_into(&ours_base, &r, &mut out).unwrap();
                n += out.len();
            }
            n
        })
    });
    g.bench_function("iri-string-resolve", |b| {
        b.iter(|| {
            let mut n = 0;
            for r in refs {
                let r = UriReferenceStr::new(black_box(r)).unwrap();
                n +=
                    r.resolve_against(theirs_base).to_dedicated_string().len();
            }
            n
        })
    });
    g.finish();
}

fn bench_normalize(c: &mut Criterion, uris: &[String]) {
    let p = Parser::new();
    let ours = |u: &str| normalize(&p.parse_uri(u).unwrap());
    let theirs = |u: &str| {
        UriStr::new(u).unwrap().normalize().to_dedicated_string().to_string()
    };
    let differ = disagreements(uris, ours, theirs);
    eprintln!("normalize: {differ} of {} normal forms differ", uris.len());

    let mut g = c.benchmark_group("normalize");
    g.throughput(throughput(uris));
    let mut run = |id: &str, f: fn(&UriRef<'_>) -> String| {
        g.bench_function(id, |b| {
            b.iter(|| {
                let mut n = 0;
                for u in uris {
                    n += f(&p.parse_uri(black_box(u)).unwrap()).len();
                }
                n
            })
        });
    };
    run("uriscan-normalize", normalize);
    run("uriscan-normalize-scheme-based", normalize_scheme_based);
    g.bench_function("iri-string-normalize", |b| {
        b.iter(|| {
            let mut n = 0;
            for u in uris {
                let u = UriStr::new(black_box(u)).unwrap();
                n += u.normalize().to_dedicated_string().len();
            }
            n
        })
    });
    g.finish();
}

fn main() {
    let inputs = inputs();
    let mut c = Criterion::default().configure_from_args();
    bench_resolve(&mut c, "resolve-rfc", RFC_BASE, &inputs.rfc);
    bench_resolve(&mut c, "resolve-corpus", CORPUS_BASE, &inputs.refs);
    bench_normalize(&mut c, &inputs.uris);
    c.final_summary();
    let resolvers =
        ["uriscan-resolve", "uriscan-resolve-into", "iri-string-resolve"];
    common::summary(
        "resolve-rfc",
        &inputs.rfc,
        &resolvers,
        "iri-string-resolve",
    );
    common::summary(
        "resolve-corpus",
        &inputs.refs,
        &resolvers,
        "iri-string-resolve",
    );
    common::summary(
        "normalize",
        &inputs.uris,
        &[
            "uriscan-normalize",
            "uriscan-normalize-scheme-based",
            "iri-string-normalize",
        ],
        "iri-string-normalize",
    );
}
