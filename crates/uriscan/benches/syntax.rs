//! Validation and full parsing of real URIs, side by side with fluent-uri.
//!
//! The URIs are the `http://` and `https://` tokens of the benchmark corpus
//! (`../shared/corpus/*.{txt,md,html}` from the crate root, or
//! `$URISCAN_CORPUS`; a small
//! built-in list when it is absent), deduplicated, capped at 4000, and kept
//! only when both uriscan and fluent-uri accept them, so that every
//! parser reads every byte. Run with:
//!
//! ```text
//! cargo bench --bench syntax -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! After criterion's own report, a summary gives the median ns per URI,
//! MB/s, and each time relative to fluent-uri.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput};
use uriscan::syntax::Parser;

const MAX_URIS: usize = 4000;
const GROUP: &str = "syntax-corpus";

const FALLBACK: &[&str] = &[
    "http://example.com/",
    "https://www.rfc-editor.org/rfc/rfc3986.html#section-3.2.2",
    "http://[2001:db8::7]:8080/c=GB?objectClass?one",
    "https://user:pass@192.0.2.16:443/a/b/c.html?x=1&y=%20z#frag",
    "https://en.wikipedia.org/wiki/Uniform_Resource_Identifier",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "https://github.com/rust-lang/rust/issues?q=is%3Aopen+label%3AA-parser",
    "http://a/b/c/d;p?q",
];

fn inputs() -> Vec<String> {
    let mut uris = common::corpus_uris(MAX_URIS);
    if uris.is_empty() {
        eprintln!("corpus not found, using the built-in URIs");
        uris = FALLBACK.iter().map(|s| s.to_string()).collect();
    }
    let p = Parser::new();
    let before = uris.len();
    uris.retain(|u| {
        p.parse_uri(u).is_ok() && fluent_uri::Uri::parse(u.as_str()).is_ok()
    });
    eprintln!(
        "{} URIs ({} dropped as invalid for one of the parsers), {} bytes",
        uris.len(),
        before - uris.len(),
        uris.iter().map(String::len).sum::<usize>(),
    );
    uris
}

fn bench(c: &mut Criterion, uris: &[String]) {
    let bytes: usize = uris.iter().map(String::len).sum();
    let mut g = c.benchmark_group(GROUP);
    g.throughput(Throughput::Bytes(bytes as u64));
    let p = Parser::new();
    g.bench_function("uriscan-validate", |b| {
        b.iter(|| {
            uris.iter()
                .filter(|u| p.validate_uri(black_box(u)).is_ok())
                .count()
        })
    });
    g.bench_function("uriscan-parse", |b| {
        b.iter(|| {
            let mut n = 0;
            for u in uris {
                if let Ok(r) = p.parse_uri(black_box(u)) {
                    n += r.path().len() + r.host().map_or(0, str::len);
                }
            }
            n
        })
    });
    g.bench_function("fluent-uri-parse", |b| {
        b.iter(|| {
            let mut n = 0;
            for u in uris {
                if let Ok(r) = fluent_uri::Uri::parse(black_box(u.as_str())) {
                    n += r.path().as_str().len()
                        + r.authority().map_or(0, |a| a.host().len());
                }
            }
            n
        })
    });
    g.finish();
}

fn main() {
    let uris = inputs();
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &uris);
    c.final_summary();
    common::summary(
        GROUP,
        &uris,
        &["uriscan-validate", "uriscan-parse", "fluent-uri-parse"],
        "fluent-uri-parse",
    );
}
