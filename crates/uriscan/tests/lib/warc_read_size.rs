//! Inputs on which the `warc` fuzz target once found that the records
//! read depended on the size of the reads: each is read whole and in reads
//! of the size its first byte gives, and the two readings must agree.

use uriscan::warc::WarcReader;

use crate::support::trickle::Trickle;

/// Each record's offset and block, or an error's offset; errors repeated
/// at one offset count once (as in the fuzz target).
fn summary(file: &[u8], step: usize) -> Vec<Result<(u64, Vec<u8>), u64>> {
    let mut reader = WarcReader::new(Trickle::step(file, step));
    reader.max_block(1 << 16);
    let mut s: Vec<_> = reader
        .map(|r| {
            r.map(|r| (r.offset(), r.block().to_vec())).map_err(|e| e.offset())
        })
        .collect();
    s.dedup_by(|a, b| matches!((a, b), (Err(x), Err(y)) if x == y));
    s
}

/// The offsets and block lengths of a summary, for a failure's message.
fn brief(s: &[Result<(u64, Vec<u8>), u64>]) -> String {
    let items: Vec<String> = s
        .iter()
        .map(|r| match r {
            Ok((o, b)) => format!("{o}:{}", b.len()),
            Err(o) => format!("E{o}"),
        })
        .collect();
    items.join(" ")
}

fn check(data: &[u8]) {
    let (&knob, file) = data.split_first().unwrap();
    let step = usize::from(knob) + 1;
    let whole = summary(file, usize::MAX);
    for step in [step, 1, 2, 3, 7, 64, 1000] {
        let stepped = summary(file, step);
        assert!(
            stepped == whole,
            "step {step}: {} against {}",
            brief(&stepped),
            brief(&whole)
        );
    }
}

macro_rules! finding {
    ($name:ident, $file:literal) => {
        #[test]
        fn $name() {
            check(include_bytes!(concat!("../data/warc/", $file)));
        }
    };
}

finding!(read_size_1, "warc-read-size-1");
finding!(read_size_2, "warc-read-size-2");
finding!(read_size_3, "warc-read-size-3");

/// The `warc` fuzz target's seeds (ARC v1 and v2, plain, gzip per record
/// and as one stream; WARC records with the lenient paths; br payloads,
/// whole, cut short and stale) read the same at every read size, and each
/// gives records.
#[test]
fn fuzz_seeds_read_alike_at_any_read_size() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds/warc");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        check(&data);
        let records = WarcReader::new(&data[1..]).flatten().count();
        assert!(records >= 2, "{records} records");
        seen += 1;
    }
    assert_eq!(seen, 18);
}
