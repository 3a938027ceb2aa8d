//! The document readers on arbitrary bytes: the first byte picks the
//! format (Markdown, HTML, text) and the options, the rest is the
//! document. Nothing panics; every link's span lies in the document and
//! starts on its line and column; every target is a URI; a link without a
//! target has an error (the page has a base, so none lacks one for want
//! of it). For HTML, the tag layer's own tokenizer tells the same start
//! tags, attributes, value spans and text runs as html5gum's
//! (`uriscan::internals::links::differential`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::links::{Format, LinkExtractor, Page};
use uriscan::syntax::Parser;

fuzz_target!(|data: &[u8]| {
    let Some((&knob, doc)) = data.split_first() else {
        return;
    };
    let format = match knob % 3 {
        0 => Format::Markdown,
        1 => Format::Html,
        _ => Format::Text,
    };
    let extractor = LinkExtractor::builder()
        .include_code(knob & 4 != 0)
        .include_text(knob & 8 != 0)
        .github_extensions(knob & 16 == 0)
        .build();
    let page = Page::new(doc, format)
        .url("https://example.com/a/b.html")
        .root("https://example.com/");
    if format == Format::Html {
        uriscan::internals::links::differential(doc);
    }
    let parser = Parser::new().iri(true);
    // Lines of a UTF-16 document are counted in its characters, not in
    // its 0x0A bytes.
    let utf16 = doc.starts_with(b"\xFF\xFE") || doc.starts_with(b"\xFE\xFF");
    for link in extractor.extract(&page) {
        let span = link.span();
        assert!(span.end <= doc.len(), "{link:?}");
        let line_start = doc[..span.start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line =
            1 + doc[..span.start].iter().filter(|&&b| b == b'\n').count();
        if !(utf16 && format == Format::Html) {
            assert_eq!(link.line(), line as u64, "{link:?}");
            assert_eq!(
                link.column(),
                (span.start - line_start + 1) as u64,
                "{link:?}"
            );
        }
        match link.target() {
            Some(t) => assert!(parser.parse_uri(t).is_ok(), "{t:?}"),
            None => assert!(link.error().is_some(), "{link:?}"),
        }
    }
});
