//! The WARC reader on arbitrary bytes: the first byte picks the size of
//! the reads, the rest is the file (plain, or gzip when it starts so).
//! Nothing panics; the records and errors do not depend on the read
//! size; every record's links are read without a panic, each target a
//! URI.

#![no_main]


use libfuzzer_sys::fuzz_target;
use uriscan::links::LinkExtractor;
use uriscan::syntax::Parser;
use uriscan::warc::{WarcReader, record_links};

#[path = "../../tests/support/trickle.rs"]
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
            .map(|r| r.map(|r| (r.offset(), r.block().to_vec())).map_err(|e| e.offset()))
            .collect()
    };
    assert_eq!(summary(step), summary(usize::MAX));
    let extractor = LinkExtractor::new();
    let parser = Parser::new().iri(true);
    for record in WarcReader::new(file).flatten() {
        for link in record_links(&record, &extractor) {
            if let Some(t) = link.target() {
                assert!(parser.parse_uri(t).is_ok(), "{link:?}");
            }
        }
    }
});
