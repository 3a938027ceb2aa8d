//! Properties of the WARC reader that hold for any input: nothing panics
//! on arbitrary bytes; the records read do not depend on how the input is
//! cut into reads; and a damaged record costs no other record.

use std::io::Write;

use proptest::prelude::*;
use uriscan::links::LinkExtractor;
use uriscan::warc::{WarcLinks, WarcReader};

/// What a reading gives: each record's id, offset and block, or an
/// error's offset.
type Summary = Vec<Result<(String, u64, Vec<u8>), u64>>;

use crate::support::trickle::Trickle;

fn summary(bytes: &[u8], step: usize) -> Summary {
    WarcReader::new(Trickle::step(bytes, step))
        .map(|r| match r {
            Ok(r) => Ok((
                r.record_id().unwrap_or("").to_owned(),
                r.offset(),
                r.block().to_vec(),
            )),
            Err(e) => Err(e.offset()),
        })
        .collect()
}

fn record(i: usize, body: &[u8]) -> Vec<u8> {
    let mut http =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
    http.extend_from_slice(body);
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n\
         WARC-Target-URI: http://e.com/{i}\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(&http);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Bodies of HTML-ish text with no `WARC/1.` in them.
fn bodies() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(
        prop::collection::vec(
            prop::sample::select(b"<a href=x>\r\n #:/pqrs\x00\xff".to_vec()),
            0..300,
        ),
        1..6,
    )
}

/// The records of `bodies`, and each one's range in the plain file.
fn plain(bodies: &[Vec<u8>]) -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
    let mut out = vec![];
    let mut ranges = vec![];
    for (i, b) in bodies.iter().enumerate() {
        let r = record(i, b);
        ranges.push(out.len()..out.len() + r.len());
        out.extend(r);
    }
    (out, ranges)
}

/// The records of `bodies`, each its own gzip member, and each member's
/// range.
fn members(bodies: &[Vec<u8>]) -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
    let mut out = vec![];
    let mut ranges = vec![];
    for (i, b) in bodies.iter().enumerate() {
        let m = gz(&record(i, b));
        ranges.push(out.len()..out.len() + m.len());
        out.extend(m);
    }
    (out, ranges)
}

/// Overwrites `len` bytes of `range` of `bytes` from `at` (both taken
/// modulo the range) with `with`.
fn damage(
    bytes: &mut [u8],
    range: &std::ops::Range<usize>,
    at: usize,
    with: &[u8],
) {
    let start = range.start + at % range.len();
    for (k, &b) in with.iter().enumerate() {
        if start + k < range.end {
            bytes[start + k] ^= b | 1;
        }
    }
}

/// Every record but `k` is read whole, at its offset.
fn all_but(got: &Summary, bodies: &[Vec<u8>], offsets: &[u64], k: usize) {
    for (i, _) in bodies.iter().enumerate().filter(|&(i, _)| i != k) {
        let id = format!("<urn:uuid:{i}>");
        assert!(
            got.iter().any(
                |r| matches!(r, Ok((d, o, _)) if *d == id && *o == offsets[i])
            ),
            "record {i} lost (damage in {k}): {got:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..2000),
        step in 1usize..64,
        prefix in 0usize..4,
    ) {
        let heads: [&[u8]; 4] = [b"", b"WARC/1.1\r\n", b"\x1f\x8b\x08", b"WARC/1.0\r\nContent-Length: 5\r\n\r\n"];
        let input = [heads[prefix], &bytes].concat();
        let whole = summary(&input, usize::MAX);
        prop_assert_eq!(summary(&input, step), whole);
        let zipped = gz(&input);
        let _ = summary(&zipped, step);
        let extractor = LinkExtractor::new();
        for _ in WarcLinks::new(WarcReader::new(&input[..]), &extractor) {}
    }

    #[test]
    fn read_sizes_do_not_matter(bodies in bodies(), step in 1usize..200, form in 0usize..3) {
        let (plain, _) = plain(&bodies);
        let bytes = match form {
            0 => plain,
            1 => members(&bodies).0,
            _ => gz(&plain),
        };
        let whole = summary(&bytes, usize::MAX);
        prop_assert_eq!(whole.len(), bodies.len());
        prop_assert!(whole.iter().all(|r| r.is_ok()));
        prop_assert_eq!(summary(&bytes, step), whole);
    }

    #[test]
    fn a_damaged_record_costs_no_other(
        bodies in bodies(),
        gzip in any::<bool>(),
        k in any::<prop::sample::Index>(),
        at in any::<usize>(),
        with in prop::collection::vec(any::<u8>(), 1..12),
        step in 1usize..100,
    ) {
        // Plain, or a gzip member per record (a file compressed as one
        // stream has nothing to resume at after damage).
        let (mut bytes, ranges) = if gzip { members(&bodies) } else { plain(&bodies) };
        let k = k.index(bodies.len());
        damage(&mut bytes, &ranges[k], at, &with);
        let offsets: Vec<u64> = ranges.iter().map(|r| r.start as u64).collect();
        let got = summary(&bytes, usize::MAX);
        all_but(&got, &bodies, &offsets, k);
        prop_assert_eq!(summary(&bytes, step), got);
    }

    #[test]
    fn a_length_a_few_bytes_off_still_gives_the_links(
        bodies in bodies(),
        k in any::<prop::sample::Index>(),
        off in -4i64..=4,
        gzip in any::<bool>(),
        step in 1usize..100,
    ) {
        // Each page starts with its own link; one record's length is off.
        let pages: Vec<Vec<u8>> = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| [format!("<a href=/link{i}>x</a>").as_bytes(), b].concat())
            .collect();
        let k = k.index(pages.len());
        let records: Vec<Vec<u8>> = pages
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let r = record(i, p);
                if i != k {
                    return r;
                }
                let text = String::from_utf8_lossy(&r).into_owned();
                let at = text.find("Content-Length: ").unwrap() + 16;
                let end = at + text[at..].find('\r').unwrap();
                let length: i64 = text[at..end].parse().unwrap();
                [&r[..at], (length + off).to_string().as_bytes(), &r[end..]].concat()
            })
            .collect();
        let file: Vec<u8> = if gzip {
            records.iter().flat_map(|r| gz(r)).collect()
        } else {
            records.concat()
        };
        let extractor = LinkExtractor::new();
        let targets: Vec<String> = WarcLinks::new(WarcReader::new(Trickle::step(&file, step)), &extractor)
            .filter_map(Result::ok)
            .filter_map(|l| l.link().target().map(str::to_owned))
            .collect();
        for i in 0..pages.len() {
            let want = format!("http://e.com/link{i}");
            prop_assert!(targets.contains(&want), "{want} lost (off by {off} in {k}): {targets:?}");
        }
    }
}
