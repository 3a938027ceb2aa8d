//! The anchors our own Markdown reader gives held to those pulldown-cmark
//! gives, in every style, wherever ours does not decline the document.

use proptest::prelude::*;

use super::AnchorStyle;
use super::document::anchors_by;
use crate::links::MarkdownParser;
use crate::links::hooks::{corpus_pieces, markdown_like, table_like};
use crate::links::reader_api::markdown_outline;

/// A style of each renderer, and each way a style reads a heading's
/// text (its pieces, its source, its attribute block).
fn styles() -> Vec<AnchorStyle> {
    let mut styles = super::tests::every_style();
    // kramdown's own parser reads the heading's source.
    styles.push(AnchorStyle::kramdown(true, None, false));
    styles.push(AnchorStyle::jekyll(false, None, false));
    styles
}

/// `Ok(true)` when both readers give `md` the same anchors in every
/// style, `Ok(false)` when ours declines it, `Err` with both when they
/// differ.
fn compare(md: &str) -> Result<bool, String> {
    if markdown_outline(md).is_none() {
        return Ok(false);
    }
    for style in styles() {
        let want = anchors_by(md, style, MarkdownParser::Pulldown);
        let got = anchors_by(md, style, MarkdownParser::Uriscan);
        if want != got {
            return Err(format!(
                "{md:?} in {style:?}:\n  pulldown-cmark: {want:?}\n  ours:           {got:?}"
            ));
        }
    }
    Ok(true)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn markdown_like_input_has_the_anchors_pulldown_gives(
        md in markdown_like(),
    ) {
        compare(&md).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn table_like_input_has_the_anchors_pulldown_gives(md in table_like()) {
        compare(&md).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn arbitrary_input_has_the_anchors_pulldown_gives(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        compare(&String::from_utf8_lossy(&bytes))
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn headings_have_the_anchors_pulldown_gives(md in heading_like()) {
        compare(&md).map_err(TestCaseError::fail)?;
    }
}

/// The pieces of heading-like input: heading markers, what a heading's
/// text holds, and footnotes and raw HTML ids.
#[rustfmt::skip]
const HEADING_PIECES: &[&str] = &[
    "# ", "## ", "###### ", "\n", "\n\n", "\n===\n", "\n---\n", "\n- ", "\n> ",
    "a", "b c", "--", "-", "é", "  ", "\t", "\\", "\\-", "\\*", "\\`", "&amp;",
    "&#45;", "&#0;", "&nosuch;", "`", "``", " `x` ", "*", "_", "**", "~",
    "[", "]", "](/u)", "![", "[a]", "[a]: /u\n", "[A][]", "][a]", "<http://a>",
    "<x@y.z>", "<b>", "<a id=x>", "<span id=\"y\">", "<div id=z>\n",
    "{#id}", " {#id .c}", " {.c}", " {a}", " {#a #b}", "{", "}", "#", " ##",
    "[^1]", "[^1]: ", "[^A]", "\n[^1]: note\n", "\r\n", "<!-- x -->",
    "{/* #c */}", "- # ", "> # ", "1. ", "    ", "```\n", "\n    ", "<div>",
    "[b]: /v 't'\n", "[b]", "](", ")", "\\\n", "  \n", "*a*", "__b__",
];

fn heading_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(HEADING_PIECES), 0..30)
        .prop_map(|p| p.concat())
}

/// Headings of each kind, each compared and read by ours.
#[test]
fn headings_of_each_kind_have_the_anchors_pulldown_gives() {
    for md in [
        "# Title\n\n## Sub *em* `code` [link](/u) ![alt *x*](i.png)\n",
        "Setext *one*\n===\n\nTwo\nlines\n---\n",
        "# A &amp; B &#45;-&#45; \\-\\- C\n",
        "# with {#custom} \n## Again {#custom .c}\n## Class {.c}\n",
        "#\n# \n## ##\n#### #### ####\n# {#only}\n",
        "# a <a id=x>b</a> <x@y.z> <http://a>\n<div id=y>\n</div>\n",
        "Text[^1] and [^a] and [^1].\n\n[^1]: one\n[^a]: two\n\n# After[^1]\n",
        "# Dup\n# Dup\n# Dup-1\n",
        "## Notes {/* #x */}\n",
        "line one  \nline two\\\nthree\n===\n",
        "# Title\r\n\r\nText\r\n---\r\n",
    ] {
        assert_eq!(compare(md), Ok(true), "{md:?}");
    }
}

/// `../shared/corpus/markdown.md` in pieces of 4 KB, each compared; the
/// share read by ours.
#[test]
fn the_corpus_in_pieces_has_the_anchors_pulldown_gives() {
    let Some((text, pieces)) = corpus_pieces(4096) else {
        eprintln!(
            "SKIPPED: ../shared/corpus/markdown.md is not beside the repository"
        );
        return;
    };
    let mut read = 0;
    for piece in pieces {
        let md = &text[piece];
        if compare(md).unwrap_or_else(|e| panic!("{e}")) {
            read += md.len();
        }
    }
    eprintln!("read {read} of {} bytes, the rest declined", text.len());
}

/// What the property tests found, each compared.
#[test]
fn the_findings_have_the_anchors_pulldown_gives() {
    for md in [
        "{#id}\\\n===\n",
        "a# [^1]\\[a]# \n[^1]: note\n",
        "- [ ] ](\n  -\n",
        "- [x] [a](b)\n  ===\n",
    ] {
        compare(md).unwrap();
    }
}
