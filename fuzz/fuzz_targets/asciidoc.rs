//! The AsciiDoc reader on arbitrary bytes: the first byte picks where the
//! document stands (alone, a page of an Antora component, a navigation
//! file), the rest is the document. Nothing panics; every link's span
//! lies in the document and starts on its line and column; a link
//! without a target has an error; every id is non-empty; the part of a
//! text an include's `tag=`/`lines=` takes keeps every line in place.

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::links::{Format, LinkExtractor, Page};

fuzz_target!(|data: &[u8]| {
    let Some((&knob, doc)) = data.split_first() else {
        return;
    };
    let url = match knob % 3 {
        0 => "file:///r/docs/a.adoc",
        1 => "file:///r/c/modules/ROOT/pages/sub/a.adoc",
        _ => "file:///r/c/modules/cli/nav.adoc",
    };
    let page = Page::new(doc, Format::AsciiDoc).url(url);
    let (links, ids) = LinkExtractor::new().extract_with_anchors(&page);
    let text = String::from_utf8_lossy(doc);
    for link in links {
        let span = link.span();
        assert!(span.start <= span.end && span.end <= doc.len());
        let line =
            1 + doc[..span.start].iter().filter(|&&b| b == b'\n').count();
        assert_eq!(link.line(), line as u64, "{text:?}");
        assert!(link.target().is_some() || link.error().is_some());
    }
    assert!(ids.unwrap_or_default().iter().all(|i| !i.is_empty()));
    for include in uriscan::links::asciidoc_includes(&text, Some(url), &[]) {
        if let Some(selection) = &include.selection {
            let taken = selection.select(&text).text;
            assert_eq!(taken.len(), text.len());
            assert_eq!(
                taken.matches('\n').count(),
                text.matches('\n').count()
            );
        }
    }
});
