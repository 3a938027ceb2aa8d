//! Tests that need the scanner's insides: the vectorized candidate search
//! against the portable one at every alignment, linear work on
//! pathological inputs (counted, not timed), and which vector paths this
//! CPU let the tests cover.

use std::collections::BTreeSet;
use std::sync::Mutex;

use proptest::prelude::*;

use super::arch::all::find_candidate_portable;
#[cfg(target_arch = "x86_64")]
use super::arch::x86_64::search::find_candidate_sse2;
use super::cursor::{Cursor, Stop};
use super::kernels::Baseline;
use super::scheme::SchemePolicy;
use super::{Finder, bytes_read};

type Search = fn(&[u8], usize, usize, bool, &mut u64) -> Option<usize>;

/// `[(name, detected)]` for CPU features, for [`cpu_has`]:
/// `features!("avx2", "popcnt")`.
#[cfg(target_arch = "x86_64")]
macro_rules! features {
    ($($f:tt),+ $(,)?) => {
        &[$(($f, std::is_x86_feature_detected!($f))),+]
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use features;

/// The features of the AVX2 kernels ([`super::kernels::Avx2`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx2_features() -> Vec<(&'static str, bool)> {
    features!("avx2", "popcnt", "bmi1", "bmi2", "lzcnt").to_vec()
}

/// The features the AVX-512 search adds to the AVX2 kernels.
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_features() -> Vec<(&'static str, bool)> {
    features!("avx512f", "avx512bw").to_vec()
}

/// The skips said so far, each said once per test binary.
static SKIPPED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Whether the CPU has every one of `features`, for the test of the
/// vector path `path`. When it lacks one, the caller skips that test,
/// and this says so on standard error (`cargo test -- --nocapture` shows
/// it; [`vector_paths_covered`] sums up): a test that returned early in
/// silence would pass on a CPU that tested nothing.
pub(crate) fn cpu_has(path: &str, features: &[(&str, bool)]) -> bool {
    let Some(line) = skip_notice(path, features) else {
        return true;
    };
    if SKIPPED.lock().unwrap().insert(line.clone()) {
        eprintln!("{line}");
    }
    false
}

/// What [`cpu_has`] says when a feature is missing.
fn skip_notice(path: &str, features: &[(&str, bool)]) -> Option<String> {
    let missing: Vec<&str> =
        features.iter().filter(|f| !f.1).map(|f| f.0).collect();
    (!missing.is_empty()).then(|| {
        format!("SKIPPED: {path} not tested: CPU lacks {}", missing.join(", "))
    })
}

#[test]
fn a_skip_names_the_missing_features() {
    let f = [("avx2", true), ("avx512f", false), ("avx512bw", false)];
    assert_eq!(
        skip_notice("avx512 kernels", &f).as_deref(),
        Some(
            "SKIPPED: avx512 kernels not tested: CPU lacks avx512f, avx512bw"
        )
    );
    assert_eq!(skip_notice("avx2 kernels", &f[..1]), None);
}

/// Says which vector paths the tests of this binary run on this CPU
/// (`cargo test --lib vector_paths_covered -- --nocapture`), and checks
/// that the scanner dispatches to the best of them. `URISCAN_REQUIRE_ISA`
/// (a comma-separated list such as `avx2,avx512`) makes a missing path
/// fail instead of skip, for a CI machine known to have it.
#[test]
fn vector_paths_covered() {
    use super::kernels::Chosen;
    #[cfg(target_arch = "x86_64")]
    let (avx2, avx512) = {
        let avx2 = cpu_has("avx2 kernels", &avx2_features());
        (avx2, avx2 && cpu_has("avx512 search", &avx512_features()))
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (avx2, avx512) = (false, false);
    let paths = [
        ("portable", true),
        ("sse2", cfg!(target_arch = "x86_64")),
        ("avx2", avx2),
        ("avx512", avx512),
    ];
    let yes_no = |(name, on): &(&str, bool)| {
        format!("{name} {}", if *on { "yes" } else { "no" })
    };
    let list: Vec<String> = paths.iter().map(yes_no).collect();
    eprintln!("vector paths tested on this CPU: {}", list.join(", "));
    // The scan itself uses the best path, but the portable one alone
    // under `--cfg uriscan_disable_simd`.
    let want = match Chosen::for_scan() {
        #[cfg(target_arch = "x86_64")]
        Chosen::Avx512(_) => "avx512",
        #[cfg(target_arch = "x86_64")]
        Chosen::Avx2(_) => "avx2",
        Chosen::Baseline => "portable",
    };
    let best = if cfg!(uriscan_disable_simd) {
        "portable"
    } else {
        paths.iter().rev().find(|p| p.1 && p.0 != "sse2").unwrap().0
    };
    assert_eq!(want, best, "the scan's dispatch");
    eprintln!("the scan dispatches to: {want}");
    if let Ok(required) = std::env::var("URISCAN_REQUIRE_ISA") {
        for name in
            required.split(',').map(str::trim).filter(|n| !n.is_empty())
        {
            let covered = paths.iter().any(|p| p.0 == name && p.1);
            assert!(covered, "URISCAN_REQUIRE_ISA: {name} was not tested");
        }
    }
}

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
    ]
    .into_iter()
    .chain(vector_searches())
    .collect()
}

/// The AVX2 and AVX-512 searches this CPU can run (the others skipped,
/// visibly).
pub(crate) fn vector_searches() -> Vec<(&'static str, Search)> {
    let mut v: Vec<(&'static str, Search)> = vec![];
    #[cfg(target_arch = "x86_64")]
    if cpu_has("avx2 search", features!("avx2", "popcnt")) {
        v.push(("avx2", super::search::find_candidate_avx2_or_sse2));
        let avx512 = [avx2_features(), avx512_features()].concat();
        if cpu_has("avx512 search", &avx512) {
            v.push(("avx512", super::search::find_candidate_avx512_or_avx2));
        }
    }
    v
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
        let stop = cursor.advance_with(
            Baseline,
            search,
            &finder.policy,
            hay,
            true,
            |f, l| (f.start, f.end, f.uri.to_string(), l),
        );
        match stop {
            Stop::Found(m) => {
                let before = &hay[..m.0];
                let lines = before.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(m.3, lines as u64 + 1, "{:?}", m.2);
                out.push(m);
            }
            Stop::Exhausted | Stop::NeedMore => return out,
            Stop::Skip => {
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

/// Work allowed per byte of input, and once per input: a few runs of
/// [`MAX_URI_LEN`](super::MAX_URI_LEN) may each be read a few times over
/// before they are known to be overlong.
const WORK_PER_BYTE: u64 = 24;
const WORK_SLACK: u64 = 4 * (1 << 16);

/// A reader that checks at every read that the scan's work so far is
/// linear in the bytes handed out: a quadratic scan fails at its first
/// long run, instead of after minutes of it. It counts its reads.
struct Metered<'a> {
    data: &'a [u8],
    given: u64,
    reads: u64,
}

impl std::io::Read for Metered<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let work = bytes_read::peek();
        let bound = WORK_PER_BYTE * self.given + WORK_SLACK;
        assert!(work <= bound, "{work} work for {} bytes read", self.given);
        let n = buf.len().min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.given += n as u64;
        self.reads += 1;
        Ok(n)
    }
}

/// The work to scan `unit` repeated to `n` bytes, in whole-input mode
/// and in streaming mode with a buffer of `capacity`, and the reads the
/// stream made.
fn work_for(unit: &[u8], n: usize, capacity: usize) -> (u64, u64, u64) {
    let hay: Vec<u8> = unit.iter().copied().cycle().take(n).collect();
    let finder =
        Finder::builder().any_scheme(true).buffer_capacity(capacity).build();
    bytes_read::take();
    let whole = finder.find_iter(&hay).count();
    let w_whole = bytes_read::take();
    let mut rdr = Metered { data: &hay, given: 0, reads: 0 };
    let streamed = finder.stream(&mut rdr).count();
    let w_stream = bytes_read::take();
    assert_eq!(whole, streamed);
    (w_whole, w_stream, rdr.reads)
}

/// Inputs that would make a careless scanner quadratic: candidates that
/// reach far, over and over.
fn pathological_units() -> Vec<Vec<u8>> {
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
    let mut units: Vec<Vec<u8>> = units.iter().map(|u| u.to_vec()).collect();
    // Bounded runs holding many candidates that are dropped.
    units.push([b"a://[".repeat(2000), b" ".to_vec()].concat());
    units.push([b"http://a/%zz".repeat(800), b" ".to_vec()].concat());
    units
}

/// Linear: twice the input, about twice the work, and a bounded amount
/// of work per byte.
#[track_caller]
fn assert_linear(name: &str, n: usize, small: u64, big: u64) {
    assert!(big <= 2 * small + WORK_SLACK, "{name}: {small} {big}");
    assert!(
        big <= WORK_PER_BYTE * 2 * n as u64,
        "{name}: {big} for {}",
        2 * n
    );
}

#[test]
fn work_is_linear_on_pathological_inputs() {
    const N: usize = 2 << 20;
    let capacity = super::DEFAULT_BUFFER_CAPACITY;
    for unit in pathological_units() {
        let (small, small_s, _) = work_for(&unit, N, capacity);
        let (big, big_s, reads) = work_for(&unit, 2 * N, capacity);
        let name: String =
            String::from_utf8_lossy(&unit).chars().take(24).collect();
        assert_linear(&name, N, small, big);
        assert_linear(&format!("{name} (stream)"), N, small_s, big_s);
        // Every refill asks for a buffer's worth at least: one read
        // each (the reader fills what it is asked to), and one that
        // finds the end.
        let most = (2 * N / capacity) as u64 + 2;
        assert!(reads <= most, "{name}: {reads} reads");
    }
}

/// The same with a one-byte buffer, where every candidate that reaches
/// past the buffer has to wait for more input: the wait reads as much
/// again as is pending, so each candidate is confirmed a logarithmic
/// number of times, not once per byte. Smaller inputs (four times the
/// longest run), as a read per byte makes each one slow to stream.
#[test]
fn work_is_linear_on_pathological_inputs_at_capacity_one() {
    const N: usize = 4 * super::MAX_URI_LEN;
    for unit in pathological_units() {
        let (_, small, _) = work_for(&unit, N, 1);
        let (_, big, _) = work_for(&unit, 2 * N, 1);
        let name: String =
            String::from_utf8_lossy(&unit).chars().take(24).collect();
        assert_linear(&format!("{name} (stream)"), N, small, big);
    }
}
