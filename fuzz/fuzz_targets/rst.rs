//! The reStructuredText reader on any bytes (lossy UTF-8): it never
//! panics, and its facts (links, ids, Sphinx references) come out for
//! any input (`uriscan::internals::links::rst_facts`). Seeds: the
//! per-rule cases, `-seed_inputs` or a corpus directory of
//! `crates/uriscan/tests/data/rst`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = uriscan::internals::links::rst_facts(&text);
    let page = uriscan::links::Page::new(data, uriscan::links::Format::Rst)
        .url("file:///docs/index.rst");
    for link in uriscan::links::LinkExtractor::new().extract(&page) {
        // Every span lies in the document, on character boundaries of
        // its decoded text.
        assert!(link.span().end <= data.len());
    }
});
