//! Throughput of the finder on the shared corpus and a URI-dense text,
//! side by side with the floor (a memchr count of `:`), with linkify,
//! and with a bare extractor (below) that shows what finding URIs costs
//! before any of the work that makes them right.
//!
//! Run with `cargo bench --bench scan -- --warm-up-time 1
//! --measurement-time 3`. The corpus lives at `../shared/corpus` beside
//! the repository (or `$URISCAN_CORPUS`); inputs that are absent are
//! skipped.

use std::hint::black_box;
use std::ops::ControlFlow;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use uriscan::scanning::{Finder, SCHEMES_WITHOUT_SLASHES};

/// The bytes of a URI run as a plain lookup table: every byte that may
/// appear in a URI-reference, `reserved / unreserved / "%"` (RFC 3986
/// section 2), and every non-ASCII byte. Spelled out here because the
/// syntax layer's tables are crate-private.
static RUN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = b >= 0x80 || (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    let marks = b"-._~:/?#[]@!$&'()*+,;=%";
    let mut i = 0;
    while i < marks.len() {
        t[marks[i] as usize] = true;
        i += 1;
    }
    t
};

/// The least an extractor does to report URIs: each `:` (memchr), the
/// scheme's letters before it, `//` after it (or a scheme taken without
/// one), the run of URI bytes to its end, trailing punctuation off. No
/// validation, no Appendix C delimiters, no balanced brackets, no line
/// numbers, no match values. Not a product: a ceiling for comparing
/// the finder's speed with linkify's (see benches/README.md).
fn bare_extractor(hay: &[u8]) -> usize {
    let mut count = 0;
    let mut resume = 0;
    for colon in memchr::memchr_iter(b':', hay) {
        if colon < resume {
            continue;
        }
        let mut start = colon;
        while start > resume && hay[start - 1].is_ascii_alphanumeric() {
            start -= 1;
        }
        let scheme = &hay[start..colon];
        let slashes = hay[colon + 1..].starts_with(b"//");
        let listed = || {
            SCHEMES_WITHOUT_SLASHES
                .iter()
                .any(|s| s.as_bytes().eq_ignore_ascii_case(scheme))
        };
        if scheme.is_empty() || !(slashes || listed()) {
            continue;
        }
        let mut end = colon + 1;
        while end < hay.len() && RUN[usize::from(hay[end])] {
            end += 1;
        }
        resume = end;
        while end > colon + 1 && b".,;:!?'*)".contains(&hay[end - 1]) {
            end -= 1;
        }
        count += usize::from(end > colon + 1);
    }
    count
}

fn bench(c: &mut Criterion) {
    let finder = Finder::new();
    let linkify = common::linkify_urls();
    for (name, hay) in common::inputs() {
        let mut group = c.benchmark_group(format!("scan/{name}"));
        group.throughput(Throughput::Bytes(hay.len() as u64));
        group.sample_size(10);
        // `count` runs the iterator's own loop (`fold`); a `for` loop or
        // `while let` calls `next` for each match, measured beside it.
        group.bench_function("uriscan", |b| {
            b.iter(|| finder.find_iter(black_box(&hay)).count())
        });
        group.bench_function("uriscan-next", |b| {
            b.iter(|| {
                let mut it = finder.find_iter(black_box(&hay));
                let mut n = 0usize;
                while it.next().is_some() {
                    n += 1;
                }
                n
            })
        });
        group.bench_function("uriscan-stream", |b| {
            b.iter(|| finder.stream(black_box(&hay[..])).count())
        });
        group.bench_function("uriscan-stream-borrowed", |b| {
            b.iter(|| {
                let mut n = 0usize;
                let _ = finder
                    .stream(black_box(&hay[..]))
                    .try_for_each_borrowed(|m, _| {
                        n += usize::from(!black_box(m).as_str().is_empty());
                        ControlFlow::<()>::Continue(())
                    });
                n
            })
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
        group.bench_function("bare-extractor", |b| {
            b.iter(|| bare_extractor(black_box(&hay)))
        });
        group.finish();
        ratios(&format!("scan_{name}"), hay.len());
    }
}

/// The medians (GiB/s) and ratios benches/README.md quotes, from criterion's
/// medians of this run: criterion's own `thrpt` lines give the mean,
/// which this host's outliers pull about. `group` is named as criterion
/// names its directory (`/` becomes `_`); `bytes` is the input's size.
fn ratios(group: &str, bytes: usize) {
    let Some(ours) = common::median_ns(group, "uriscan") else { return };
    let ids = [
        "uriscan",
        "uriscan-next",
        "uriscan-stream",
        "uriscan-stream-borrowed",
        "memchr-colon-floor",
        "linkify",
        "bare-extractor",
    ];
    let gib = |id: &str| {
        common::median_ns(group, id).map_or("-".into(), |ns| {
            format!("{:.3}", bytes as f64 / ns / 1.073_741_824)
        })
    };
    let medians: Vec<String> =
        ids.iter().map(|id| format!("{id} {}", gib(id))).collect();
    println!("{group}: median GiB/s: {}", medians.join(", "));
    let of = |id: &str| common::median_ns(group, id).map(|ns| ns / ours);
    let fmt = |r: Option<f64>| r.map_or("-".into(), |r| format!("{r:.2}"));
    println!(
        "{group}: uriscan is {}x linkify ({}x with next()), {}x the bare \
         extractor, {:.1}% of the memchr floor",
        fmt(of("linkify")),
        fmt(of("linkify").zip(of("uriscan-next")).map(|(l, n)| l / n)),
        fmt(of("bare-extractor")),
        100.0 * of("memchr-colon-floor").unwrap_or(f64::NAN),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
