//! The MDX reader on any bytes (lossy UTF-8): it never panics, every
//! link lies in the document, and a malformed document's fault is at an
//! offset in it. Seeds: `crates/uriscan-cli/tests/data/sites/docusaurus`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::links::{Format, LinkExtractor, Page, mdx_error};

fuzz_target!(|data: &[u8]| {
    if let Some(e) = mdx_error(data) {
        assert!(e.offset <= String::from_utf8_lossy(data).len());
    }
    let page = Page::new(data, Format::Mdx).url("file:///site/docs/a.mdx");
    for link in LinkExtractor::new().extract(&page) {
        assert!(link.span().end <= data.len());
    }
});
