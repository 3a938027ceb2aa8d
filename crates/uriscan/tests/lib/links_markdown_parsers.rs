//! Our own Markdown reader and pulldown-cmark give the same links through
//! the public API, with every option that changes what is read: on the
//! corpus cut into pieces and on Markdown-like input. (The byte-for-byte
//! comparison of the readers' regions, on the CommonMark examples too,
//! and the share of documents ours reads, are the unit tests of
//! `links::commonmark`.)

use std::path::PathBuf;

use proptest::prelude::*;
use uriscan::links::{Format, LinkExtractor, MarkdownParser, Page};

/// Every link of `md` with each reader, as text; `code` lists code's URIs
/// too, `gfm` reads the GitHub extensions.
fn both(md: &str, code: bool, gfm: bool) -> [Vec<String>; 2] {
    [MarkdownParser::Uriscan, MarkdownParser::Pulldown].map(|parser| {
        let extractor = LinkExtractor::builder()
            .markdown_parser(parser)
            .include_code(code)
            .github_extensions(gfm)
            .build();
        let page = Page::new(md.as_bytes(), Format::Markdown)
            .url("https://example.com/docs/page.md");
        extractor.extract(&page).map(|l| format!("{l:?}")).collect()
    })
}

#[test]
fn the_corpus_in_pieces_gives_the_same_links() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/markdown.md");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("SKIPPED: {} is not beside the repository", path.display());
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    // Pieces of about 64 KB, cut after a blank line.
    let mut start = 0;
    while start < text.len() {
        let cut = (start + 65536).min(text.len());
        let cut = (cut..=text.len())
            .find(|&c| text.is_char_boundary(c))
            .unwrap_or(text.len());
        let end = text[cut..].find("\n\n").map_or(text.len(), |k| cut + k + 2);
        let [ours, oracle] = both(&text[start..end], false, true);
        assert_eq!(ours, oracle, "bytes {start}..{end}");
        start = end;
    }
}

/// Markdown-like pieces: what opens, closes or nests, container markers,
/// indentation, line ends, and definitions.
#[rustfmt::skip]
const PIECES: &[&str] = &[
    "[", "]", "(", ")", "`", "<", ">", "*", "_", "!", "\\", " ", "\n", "\n\n",
    "- ", "1. ", "> ", "    ", "# ", "|", "---", "```", "a", "http://x.y/z",
    "<a href=\"u\">", "<div>", "[a]: /d", "[a]", "x@y.z", "<http://a>",
    "(/p)", "&amp;",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn markdown_like_input_gives_the_same_links(
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..30),
    ) {
        let md = pieces.concat();
        let [ours, oracle] = both(&md, true, true);
        prop_assert_eq!(ours, oracle, "{:?}", md);
    }
}
