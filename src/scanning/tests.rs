//! Tests that need the scanner's insides: the vectorized candidate search
//! against the portable one at every alignment, and linear work on
//! pathological inputs (counted, not timed).

use proptest::prelude::*;

use super::finder::{Cursor, Step};
use super::search::{find_colon_portable, find_colon_simd};
use super::{Finder, work};

/// (start, end, uri) of every match, with the given candidate search.
fn matches_with(
    finder: &Finder,
    hay: &[u8],
    search: fn(&[u8], usize) -> Option<usize>,
) -> Vec<(usize, usize, String)> {
    let mut cursor = Cursor::default();
    let mut out = Vec::new();
    loop {
        match cursor.step_with(search, &finder.policy, hay, true) {
            Step::Found(f) => {
                let uri = match f.joined {
                    Some(j) => j,
                    None => String::from_utf8(hay[f.start..f.end].to_vec())
                        .unwrap(),
                };
                out.push((f.start, f.end, uri));
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
fn simd_search_equals_portable_at_every_alignment() {
    let finder = Finder::new();
    for sample in SAMPLES {
        for pad in 0..=130 {
            for filler in [b' ', b'a', b'\n'] {
                let mut hay = vec![filler; pad];
                hay.extend_from_slice(sample.as_bytes());
                hay.extend(std::iter::repeat_n(b' ', pad % 67));
                let simd = matches_with(&finder, &hay, find_colon_simd);
                let portable =
                    matches_with(&finder, &hay, find_colon_portable);
                assert_eq!(simd, portable, "pad {pad}");
                assert!(!simd.is_empty());
            }
        }
    }
}

proptest! {
    #[test]
    fn simd_search_equals_portable_on_random_input(
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
        let finder = Finder::new();
        prop_assert_eq!(
            matches_with(&finder, &hay, find_colon_simd),
            matches_with(&finder, &hay, find_colon_portable)
        );
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
