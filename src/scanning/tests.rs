//! Tests that need the scanner's insides: the vectorized candidate search
//! against the portable one at every alignment, and linear work on
//! pathological inputs (counted, not timed).

use proptest::prelude::*;

use super::arch::all::find_candidate_portable;
#[cfg(target_arch = "x86_64")]
use super::arch::x86_64::search::find_candidate_sse2;
use super::cursor::{Cursor, Step};
use super::kernels::Baseline;
use super::scheme::SchemePolicy;
use super::{Finder, work};

type Search = fn(&[u8], usize, usize, bool, &mut u64) -> Option<usize>;

/// Every `:`, unfiltered, and the newlines before it counted a byte at a
/// time: the reference for what the filter may drop.
fn every_colon(
    hay: &[u8],
    counted: usize,
    from: usize,
    _strict: bool,
    newlines: &mut u64,
) -> Option<usize> {
    let found = (from..hay.len()).find(|&i| hay[i] == b':');
    let upto = found.unwrap_or(hay.len());
    *newlines +=
        hay[counted..upto].iter().filter(|&&b| b == b'\n').count() as u64;
    found
}

/// The searches to compare: the reference first.
fn searches() -> Vec<(&'static str, Search)> {
    vec![
        ("every colon", every_colon as Search),
        ("portable", find_candidate_portable),
        #[cfg(target_arch = "x86_64")]
        ("sse2", find_candidate_sse2),
        #[cfg(target_arch = "x86_64")]
        ("avx2", super::search::find_candidate_avx2_or_sse2),
        #[cfg(target_arch = "x86_64")]
        ("avx512", super::search::find_candidate_avx512_or_avx2),
    ]
}

/// (start, end, uri, line) of every match, with the given candidate
/// search.
fn matches_with(
    finder: &Finder,
    hay: &[u8],
    search: Search,
) -> Vec<(usize, usize, String, u64)> {
    let strict = matches!(finder.policy, SchemePolicy::Default);
    let search =
        |h: &[u8], c: usize, f: usize, n: &mut u64| search(h, c, f, strict, n);
    let mut cursor = Cursor::default();
    let mut out = Vec::new();
    loop {
        let step = cursor.step_with(
            Baseline,
            search,
            &finder.policy,
            hay,
            true,
            |f, l| (f.start, f.end, f.uri.to_string(), l),
        );
        match step {
            Step::Found(m) => {
                let before = &hay[..m.0];
                let lines = before.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(m.3, lines as u64 + 1, "{:?}", m.2);
                out.push(m);
            }
            Step::Exhausted | Step::NeedMore => return out,
            Step::Skip => {
                if !cursor.skip(hay) {
                    return out;
                }
            }
        }
    }
}

const SAMPLES: &[&str] = &[
    "see http://a.example/b. and <ftp://x.example/\n y> 12:30 INFO:x:y",
    "::::http://a:b:c:mailto:m@x (http://w/F_(b)) \"URL:http://q/\"",
    "请看http://example.com/a。 schéma://x <URL:http://a/b-\nc>",
];

#[test]
fn searches_agree_at_every_alignment() {
    for finder in [Finder::new(), Finder::builder().any_scheme(true).build()] {
        for sample in SAMPLES {
            for pad in 0..=130 {
                for filler in [b' ', b'a', b'\n'] {
                    let mut hay = vec![filler; pad];
                    hay.extend_from_slice(sample.as_bytes());
                    hay.extend(std::iter::repeat_n(b' ', pad % 67));
                    let want = matches_with(&finder, &hay, every_colon);
                    for (name, search) in searches() {
                        let got = matches_with(&finder, &hay, search);
                        assert_eq!(got, want, "{name}, pad {pad}");
                    }
                    assert!(!want.is_empty());
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn searches_agree_on_random_input(
        pad in 0usize..70,
        parts in proptest::collection::vec(
            prop_oneof![
                Just(&b":"[..]), Just(&b"http://"[..]), Just(&b"a.ex"[..]),
                Just(&b" "[..]), Just(&b"/"[..]), Just(&b"<"[..]),
                Just(&b">"[..]), Just(&b"("[..]), Just(&b")"[..]),
                Just(&b"mailto:"[..]), Just(&b"\n"[..]), Just(&b"%zz"[..]),
                Just("é".as_bytes()), Just(&b"\xff"[..]), Just(&b"."[..]),
            ],
            0..40,
        ),
    ) {
        let mut hay = vec![b'x'; pad];
        for p in parts {
            hay.extend_from_slice(p);
        }
        for finder in [Finder::new(), Finder::builder().any_scheme(true).build()] {
            let want = matches_with(&finder, &hay, every_colon);
            for (name, search) in searches() {
                prop_assert_eq!(
                    &matches_with(&finder, &hay, search), &want, "{}", name
                );
            }
        }
    }
}

/// The work to scan `unit` repeated to `n` bytes, in whole-input and in
/// streaming mode.
fn work_for(unit: &[u8], n: usize) -> (u64, u64) {
    let hay: Vec<u8> = unit.iter().copied().cycle().take(n).collect();
    let finder = Finder::builder().any_scheme(true).build();
    work::take();
    let whole = finder.find_iter(&hay).count();
    let w_whole = work::take();
    let streamed = finder.stream(&hay[..]).count();
    let w_stream = work::take();
    assert_eq!(whole, streamed);
    (w_whole, w_stream)
}

#[test]
fn work_is_linear_on_pathological_inputs() {
    let units: &[&[u8]] = &[
        b":",
        b"http://",
        b"(",
        b"((((http://a/",
        b"<",
        b"<http://a ",
        b"<a:",
        b"a://[",
        b"http://a/%zzhttp:",
        b"[http://a](http://a)",
        b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:",
        b"x:x:",
        b"\"http://a.example/",
        b"see http://a.example/b, then ",
        b"http://a.example/\xff",
        b"URL:",
        b"a:b ",
    ];
    // Bounded runs holding many candidates that are dropped.
    let dense_drops = [b"a://[".repeat(2000), b" ".to_vec()].concat();
    let dense_cuts = [b"http://a/%zz".repeat(800), b" ".to_vec()].concat();
    let units = [units, &[&dense_drops[..], &dense_cuts[..]]].concat();
    const N: usize = 2 << 20;
    for unit in units {
        let (small, small_s) = work_for(unit, N);
        let (big, big_s) = work_for(unit, 2 * N);
        let name: String =
            String::from_utf8_lossy(unit).chars().take(24).collect();
        // Linear: twice the input, about twice the work, and a bounded
        // number of reads per byte.
        assert!(big <= 2 * small + 4 * (1 << 16), "{name}: {small} {big}");
        assert!(big <= 24 * 2 * N as u64, "{name}: {big} for {}", 2 * N);
        assert!(big_s <= 2 * small_s + 4 * (1 << 16), "{name} (stream)");
        assert!(big_s <= 24 * 2 * N as u64, "{name} (stream): {big_s}");
    }
}
