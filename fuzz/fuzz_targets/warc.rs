//! The WARC reader on arbitrary bytes: the first byte picks the size of
//! the reads, the rest is the file (WARC or ARC, plain, or gzip when it
//! starts so). Nothing panics; the records and errors do not depend on the
//! read size (but for how many times an error repeats at one offset);
//! every record's links are read without a panic, each target a URI; the
//! tally counts every item. Seeds for ARC v1 and v2, for the lenient
//! paths and for payloads in brotli (whole, cut short, stale) are in
//! `fuzz/seeds/warc/` (`cargo +nightly fuzz run warc fuzz/seeds/warc`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::links::LinkExtractor;
use uriscan::syntax::Parser;
use uriscan::warc::{ReadTally, WarcReader, is_archive, record_links};

#[path = "../../crates/uriscan/tests/lib/support/trickle.rs"]
mod trickle;
use trickle::Trickle;

fuzz_target!(|data: &[u8]| {
    let Some((&knob, file)) = data.split_first() else {
        return;
    };
    let step = usize::from(knob) + 1;
    let summary = |step| -> Vec<Result<(u64, Vec<u8>), u64>> {
        let mut reader = WarcReader::new(Trickle::step(file, step));
        reader.max_block(1 << 16);
        reader
            .map(|r| {
                r.map(|r| (r.offset(), r.block().to_vec()))
                    .map_err(|e| e.offset())
            })
            .collect()
    };
    // Errors repeated at one offset count once: a damaged gzip member
    // hands out more or less of its text before its decoder fails,
    // depending on the size of the reads, and each `WARC/1.` in that text
    // is a false start reported at the member's offset.
    let once = |mut s: Vec<Result<(u64, Vec<u8>), u64>>| {
        s.dedup_by(|a, b| matches!((a, b), (Err(x), Err(y)) if x == y));
        s
    };
    assert_eq!(once(summary(step)), once(summary(usize::MAX)));
    let extractor = LinkExtractor::new();
    let parser = Parser::new().iri(true);
    let _ = is_archive(file);
    let (mut tally, mut items) = (ReadTally::new(), 0);
    for item in WarcReader::new(file) {
        items += 1;
        let record = match item {
            Ok(r) => r,
            Err(e) => {
                tally.error(&e, |m| drop(m.to_string()));
                continue;
            }
        };
        tally.record(&record, |m| drop(m.to_string()));
        for link in record_links(&record, &extractor) {
            if let Some(t) = link.target() {
                assert!(parser.parse_uri(t).is_ok(), "{link:?}");
            }
        }
    }
    tally.finish(|m| drop(m.to_string()));
    assert_eq!(tally.records() + tally.damaged(), items);
});
