//! Properties of link extraction that hold for any input: nothing
//! panics, every target parses as a URI, every span lies in the document,
//! the borrowed links are the kept ones;
//! and the pathological inputs of the field stay fast enough to finish.

use proptest::prelude::*;
use uriscan::links::{Format, LinkExtractor, Page};
use uriscan::syntax::Parser;

/// `lines`: also count each link's line and column the slow way.
fn check(bytes: &[u8], format: Format, lines: bool) -> usize {
    let extractor =
        LinkExtractor::builder().include_code(true).include_text(true).build();
    let page = Page::new(bytes, format)
        .url("https://example.com/a/b.html")
        .root("file:///r/");
    // The borrowed links are the kept ones, field for field, and keeping
    // one gives the kept link back.
    let mut borrowed = vec![];
    extractor.for_each(&page, |l| borrowed.push(l.to_link()));
    let kept: Vec<_> = extractor.extract(&page).collect();
    assert_eq!(borrowed, kept);
    // Lines are counted only as far as a link asks: asked of every third
    // link only, they are still those of the kept links.
    let mut i = 0;
    let mut places = vec![];
    extractor.for_each(&page, |l| {
        if i % 3 == 2 {
            places.push((l.line(), l.column()));
        }
        i += 1;
    });
    let every_third: Vec<_> = kept
        .iter()
        .skip(2)
        .step_by(3)
        .map(|l| (l.line(), l.column()))
        .collect();
    assert_eq!(places, every_third);
    let mut n = 0;
    for link in kept {
        assert_eq!(link.as_ref().to_link(), link);
        let r = link.as_ref();
        assert_eq!(
            (r.raw(), r.link(), r.target(), r.error(), r.rel(), r.hreflang()),
            (
                link.raw(),
                link.link(),
                link.target(),
                link.error(),
                link.rel(),
                link.hreflang()
            )
        );
        assert_eq!((r.role(), r.fragment()), (link.role(), link.fragment()));
        n += 1;
        assert!(link.span().end <= bytes.len(), "{link:?}");
        let utf16 =
            bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
        if lines && !(utf16 && format == Format::Html) {
            let before = &bytes[..link.span().start];
            let line_start =
                before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let line =
                1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(
                (link.line(), link.column()),
                (line, (link.span().start - line_start + 1) as u64),
                "{link:?}"
            );
        }
        if let Some(t) = link.target() {
            assert!(
                Parser::new().iri(true).parse_uri(t).is_ok(),
                "target {t:?} of {link:?}"
            );
        } else {
            assert!(link.error().is_some(), "no target, no error: {link:?}");
        }
    }
    n
}

/// Markup-heavy bytes: the characters that steer both parsers.
fn markup() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"<a href=".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"'".to_vec()),
        Just(b">".to_vec()),
        Just(b"<img srcset=\"a 1x, b 2x\">".to_vec()),
        Just(b"<base href=x/>".to_vec()),
        Just(b"[".to_vec()),
        Just(b"](".to_vec()),
        Just(b")".to_vec()),
        Just(b"![".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\n\n[r]: ".to_vec()),
        Just(b"`".to_vec()),
        Just(b"&amp;".to_vec()),
        Just(b"&#".to_vec()),
        Just(b"<script>".to_vec()),
        Just(b"http://x.example/".to_vec()),
        Just(b"\\".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\xff".to_vec()),
        Just("é".as_bytes().to_vec()),
        proptest::collection::vec(any::<u8>(), 0..8),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// A page that declares no encoding, is not UTF-8 and does not read back
/// to its bytes in the encoding guessed for it (found by
/// `markup_in_any_format`): its links' places stay inside the page.
#[test]
fn an_undeclared_page_that_does_not_round_trip() {
    let bytes = b"\xc3\xa9\x89L<img srcset=\"a 1x, b 2x\">";
    for f in [Format::Markdown, Format::Html, Format::Text] {
        check(bytes, f, true);
    }
}

proptest! {
    #[test]
    fn any_bytes_in_any_format(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        for f in [Format::Markdown, Format::Html, Format::Text] {
            check(&bytes, f, true);
        }
    }

    #[test]
    fn markup_in_any_format(bytes in markup()) {
        for f in [Format::Markdown, Format::Html, Format::Text] {
            check(&bytes, f, true);
        }
    }
}

proptest! {
    /// The links kept of pages read one after another on one thread (the
    /// buffers of their texts the thread's, reused from page to page) are
    /// the borrowed ones of each page, and stay so while later pages are
    /// read: a kept link owns its texts.
    #[test]
    fn kept_links_of_pages_in_a_row_are_the_borrowed_ones(
        pages in proptest::collection::vec(markup(), 1..6),
    ) {
        let extractor = LinkExtractor::new();
        let mut kept = vec![];
        let mut borrowed = vec![];
        for (i, bytes) in pages.iter().enumerate() {
            let format = [Format::Markdown, Format::Html][i % 2];
            let page = Page::new(bytes, format).url("file:///r/a/b.md");
            kept.push(extractor.extract(&page).collect::<Vec<_>>());
            let mut each = vec![];
            extractor.for_each(&page, |l| each.push(l.to_link()));
            borrowed.push(each);
        }
        prop_assert_eq!(kept, borrowed);
    }

    /// The links of a page do not depend on what the thread read before,
    /// nor on a page read from inside another's callback (the buffers
    /// one thread reuses from page to page).
    #[test]
    fn a_page_read_inside_another_gets_its_own_links(
        a in markup(),
        b in markup(),
    ) {
        let extractor = LinkExtractor::new();
        let page_a = Page::new(&a, Format::Html).url("https://example.com/a/");
        let page_b = Page::new(&b, Format::Markdown).url("file:///r/b.md");
        let alone_a: Vec<_> = extractor.extract(&page_a).collect();
        let alone_b: Vec<_> = extractor.extract(&page_b).collect();
        let mut nested_b = vec![];
        extractor.for_each(&page_b, |l| {
            let inner: Vec<_> = extractor.extract(&page_a).collect();
            assert_eq!(inner, alone_a);
            nested_b.push(l.to_link());
        });
        prop_assert_eq!(nested_b, alone_b);
    }
}

proptest! {
    /// What `find_iter`'s start at the first `:` relies on: the finder,
    /// whatever its schemes, finds no URI in bytes without one (asked of
    /// the stream, whose search has no such start).
    #[test]
    fn the_finder_finds_nothing_without_a_colon(
        bytes in prop_oneof![
            markup(),
            proptest::collection::vec(any::<u8>(), 0..400),
            proptest::collection::vec(
                prop::sample::select(vec![
                    "http", "//", "www.", "example.com", "mailto", "urn",
                    "\u{FF1A}", "\u{FE55}", " ", "/", "<", ">", "URL", "@",
                ]),
                0..30,
            )
            .prop_map(|v| v.concat().into_bytes()),
        ],
    ) {
        let bytes: Vec<u8> = bytes.into_iter().filter(|&b| b != b':').collect();
        for finder in [
            uriscan::scanning::Finder::new(),
            uriscan::scanning::Finder::builder().any_scheme(true).build(),
        ] {
            prop_assert_eq!(finder.stream(&bytes[..]).count(), 0);
        }
    }
}

#[test]
fn pathological_inputs_finish() {
    const N: usize = 1 << 20;
    let rep = |s: &str| s.repeat(N / s.len()).into_bytes();
    for (name, bytes, format) in [
        ("[[[[", rep("["), Format::Markdown),
        ("![](", rep("![]("), Format::Markdown),
        ("&#", rep("&#"), Format::Html),
        (
            "<a href=\" without end",
            [b"<a href=\"".as_slice(), &rep("x")].concat(),
            Format::Html,
        ),
        ("nested lists", rep("- "), Format::Markdown),
        ("nested quotes", rep(">"), Format::Markdown),
        ("one long line of HTML", rep("<a href=x>y</a> "), Format::Html),
    ] {
        let n = check(&bytes, format, false);
        eprintln!("{name}: {} bytes, {n} links", bytes.len());
    }
}
