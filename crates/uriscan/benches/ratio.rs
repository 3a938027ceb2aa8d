//! The scanner's speed ratios against its peers, measured in pairs, for
//! hosts too noisy for criterion's one-after-the-other groups: each round
//! times a pass of uriscan, of linkify and of the memchr floor back to
//! back (the order rotating), and the ratio is taken within the round. A
//! host that slows down for a second slows all three alike, so the ratio
//! holds where the absolute figures drift.
//!
//! Run with `cargo bench --bench ratio` (`ROUNDS=41` for more rounds).
//! The inputs are those of `benches/scan.rs`, each also split into
//! lines, one call per line: the short haystacks a crawler hands over.

use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;

use uriscan::scanning::Finder;

/// The contenders, by name, each a pass over one input.
type Pass<'a> = Box<dyn Fn() -> usize + 'a>;

/// The time of `reps` calls of `pass`.
fn time(pass: &Pass<'_>, reps: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(pass());
    }
    start.elapsed()
}

/// The median of `xs` (sorted in place) and its extremes.
fn spread(xs: &mut [f64]) -> (f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    ((xs[(n - 1) / 2] + xs[n / 2]) / 2.0, xs[0], xs[n - 1])
}

/// The three passes over one input, given as pieces (the bytes uriscan
/// and the floor read, the text linkify reads), one call of each per
/// piece: the whole input as one piece, or its lines (split before the
/// timing), as a crawler calls a finder per text node.
fn passes<'a>(
    finder: &'a Finder,
    linkify: &'a linkify::LinkFinder,
    pieces: &'a [(&'a [u8], &'a str)],
) -> [Pass<'a>; 3] {
    [
        Box::new(move || {
            pieces
                .iter()
                .map(|(b, _)| finder.find_iter(black_box(b)).count())
                .sum()
        }),
        Box::new(move || {
            pieces
                .iter()
                .map(|(_, t)| linkify.links(black_box(t)).count())
                .sum()
        }),
        Box::new(move || {
            pieces
                .iter()
                .map(|(b, _)| memchr::memchr_iter(b':', black_box(b)).count())
                .sum()
        }),
    ]
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test
    // --all-targets` runs this too) one short round shows that it runs.
    // Any other argument filters the inputs.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let benching = args.iter().any(|a| a == "--bench");
    let filter: Vec<&String> =
        args.iter().filter(|a| !a.starts_with("--")).collect();
    let rounds: usize = match std::env::var("ROUNDS") {
        _ if !benching => 1,
        Ok(r) => r.parse().unwrap_or(21),
        Err(_) => 21,
    }
    .max(1);
    let target = if benching { 0.02 } else { 0.0 };
    let finder = Finder::new();
    let linkify = common::linkify_urls();
    if benching {
        println!(
            "{rounds} rounds; per round, one timed pass of each (20 ms or more)"
        );
    } else {
        println!(
            "a check that this runs, not a measurement: one pass of each"
        );
    }
    println!(
        "{:<18} {:>12} {:>12} {:>12} {:>28} {:>8}",
        "input",
        "uriscan",
        "linkify",
        "floor",
        "x linkify: median [min, max]",
        "% floor"
    );
    for (name, hay) in common::inputs() {
        if !filter.is_empty()
            && !filter.iter().any(|f| name.contains(f.as_str()))
        {
            continue;
        }
        let text = String::from_utf8_lossy(&hay);
        // The whole input as raw bytes (prose has some invalid UTF-8,
        // which linkify's text replaces); its lines from that text.
        let whole = [(&hay[..], &text[..])];
        let lines: Vec<(&[u8], &str)> =
            text.split('\n').map(|l| (l.as_bytes(), l)).collect();
        for per_line in [false, true] {
            let pieces = if per_line { &lines[..] } else { &whole[..] };
            let passes = passes(&finder, &linkify, pieces);
            let name = if per_line {
                format!("{name} by line")
            } else {
                name.clone()
            };
            // Enough calls that the fastest pass takes about 20 ms, after
            // one warm-up call of each.
            let once =
                passes.iter().map(|p| time(p, 1)).min().unwrap_or_default();
            let reps = (target / once.as_secs_f64().max(1e-7)).ceil().max(1.0);
            let reps = reps.min(10_000.0) as u32;
            let mut secs = [vec![], vec![], vec![]];
            let (mut x_linkify, mut of_floor) = (vec![], vec![]);
            for round in 0..rounds {
                let mut t = [0.0; 3];
                for k in 0..3 {
                    let which = (round + k) % 3;
                    t[which] = time(&passes[which], reps).as_secs_f64();
                }
                x_linkify.push(t[1] / t[0]);
                of_floor.push(100.0 * t[2] / t[0]);
                for (s, t) in secs.iter_mut().zip(t) {
                    s.push(t);
                }
            }
            let gib = |s: &mut Vec<f64>| {
                let (median, _, _) = spread(s);
                hay.len() as f64 * f64::from(reps)
                    / median
                    / (1u64 << 30) as f64
            };
            let (ours, theirs, floor) =
                (gib(&mut secs[0]), gib(&mut secs[1]), gib(&mut secs[2]));
            let (x, lo, hi) = spread(&mut x_linkify);
            let (pct, _, _) = spread(&mut of_floor);
            let range = format!("[{lo:.2}, {hi:.2}]");
            println!(
                "{name:<18} {:>12} {:>12} {:>12} {:>13} {range:>14} {pct:>7.1}%",
                format!("{ours:.2} GiB/s"),
                format!("{theirs:.2} GiB/s"),
                format!("{floor:.2} GiB/s"),
                format!("{x:.2}x"),
            );
        }
    }
    println!(
        "(GiB/s: medians of the rounds; ratios: medians of per-round ratios;"
    );
    println!(
        " \"by line\": one call per line, as a crawler calls per text node)"
    );
}
