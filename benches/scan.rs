//! Throughput of the finder on the shared corpus and a URI-dense text,
//! side by side with the floor (a memchr count of `:`) and with linkify.
//!
//! Run with `cargo bench --bench scan -- --warm-up-time 1
//! --measurement-time 3`. The corpus lives at `../shared/corpus` beside
//! the repository (or `$URISCAN_CORPUS`); inputs that are absent are
//! skipped.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use uriscan::scanning::Finder;

/// The corpus files that exist, by name.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let dir = common::corpus_dir();
    let mut out = Vec::new();
    for name in ["prose.txt", "markdown.md", "html.html"] {
        let found =
            dir.as_ref().and_then(|d| std::fs::read(d.join(name)).ok());
        match found {
            Some(bytes) => out.push((name.to_string(), bytes)),
            None => eprintln!("skipping {name}: not found"),
        }
    }
    out.push(("uri-dense".to_string(), uri_dense(8 << 20)));
    out
}

/// About `len` bytes of text where most words are URIs, in the forms the
/// finder delimits: bare, punctuated, bracketed, quoted, angled.
fn uri_dense(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 256);
    let mut i = 0u64;
    while out.len() < len {
        let line = format!(
            "see http://a{i}.example/p/{i}?q={i}, and <https://b.example/x/{i}> \
             (http://en.wikipedia.org/wiki/Foo_({i})). \"ftp://f.example/{i}\" \
             mailto:u{i}@m.example\n"
        );
        out.extend_from_slice(line.as_bytes());
        i += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let finder = Finder::new();
    let linkify = {
        let mut f = linkify::LinkFinder::new();
        f.kinds(&[linkify::LinkKind::Url]);
        f
    };
    for (name, hay) in inputs() {
        let mut group = c.benchmark_group(format!("scan/{name}"));
        group.throughput(Throughput::Bytes(hay.len() as u64));
        group.sample_size(10);
        group.bench_function("uriscan", |b| {
            b.iter(|| finder.find_iter(black_box(&hay)).count())
        });
        group.bench_function("uriscan-stream", |b| {
            b.iter(|| finder.stream(black_box(&hay[..])).count())
        });
        group.bench_function("memchr-colon-floor", |b| {
            b.iter(|| memchr::memchr_iter(b':', black_box(&hay)).count())
        });
        // linkify takes &str: the conversion (lossy where a file holds
        // stray non-UTF-8 bytes) is done once, outside the timing.
        let text = String::from_utf8_lossy(&hay);
        group.bench_function("linkify", |b| {
            b.iter(|| linkify.links(black_box(&text)).count())
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
