//! A Markdown document's anchors named while its links are read, so that
//! the check need not read it a second time for a link's fragment into
//! it: kept with what decided them (the style, and what in its text a
//! site may expand), and used only where the check would name them the
//! same way from the same text.

use crate::links::{LinkExtractor, LinkRef, MarkdownParser, Page};

use super::AnchorStyle;

/// A Markdown document's anchor names in one style, as
/// [`markdown_anchors`](super::markdown_anchors) gives them (in order),
/// named from the text its links were read from. Made by
/// [`for_each_with_kept_anchors`]; a [`DocumentDigest`] keeps it with
/// the document's links.
///
/// [`DocumentDigest`]: crate::checking::DocumentDigest
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptAnchors {
    /// The style they were named in.
    style: AnchorStyle,
    /// Whether the text may hold an include directive that a site
    /// expands in place (MkDocs' `--8<--`, `{% include %}`).
    may_include: bool,
    /// Whether the text may import a partial that Docusaurus renders on
    /// the page.
    may_import: bool,
    /// The names end to end, and where each ends: one block per
    /// document, as a tree holds thousands.
    names: Box<str>,
    ends: Box<[u32]>,
}

impl KeptAnchors {
    /// The anchor names of `text` (read from its file), named in `style`
    /// from `outline`, our reader's outline of `text`.
    fn new(
        text: &str,
        style: AnchorStyle,
        outline: crate::links::reader_api::Outline,
    ) -> Option<KeptAnchors> {
        let names =
            super::document::outline_anchor_names(text, style, outline);
        let mut joined =
            String::with_capacity(names.iter().map(String::len).sum());
        let mut ends = Vec::with_capacity(names.len());
        for n in &names {
            joined.push_str(n);
            ends.push(u32::try_from(joined.len()).ok()?);
        }
        let bytes = text.as_bytes();
        Some(KeptAnchors {
            style,
            may_include: crate::links::may_hold_directive(bytes),
            may_import: memchr::memmem::find(bytes, b"import").is_some(),
            names: joined.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        })
    }

    /// The style the names were given in.
    pub fn style(&self) -> AnchorStyle {
        self.style
    }

    /// The names, in order.
    pub fn names(&self) -> Vec<String> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let end = end as usize;
                let name = self.names[start..end].to_owned();
                start = end;
                name
            })
            .collect()
    }

    /// The bytes it holds, for a caller's budget.
    pub fn size(&self) -> usize {
        std::mem::size_of::<KeptAnchors>()
            + self.names.len()
            + 4 * self.ends.len()
    }

    /// The names, when the check names the document's anchors as they
    /// were named: in the same `style`, by our reader (`parser`), from
    /// its text alone. Not where its site expands its include directives
    /// (`includes`: a site's include rules apply to it) or renders the
    /// partials it imports (Docusaurus) and it may hold one, nor where
    /// it is MyST (`myst`, asked last: whether a Sphinx project reads
    /// it).
    pub(crate) fn names_for(
        &self,
        (style, parser): (AnchorStyle, MarkdownParser),
        includes: bool,
        myst: impl FnOnce() -> bool,
    ) -> Option<Vec<String>> {
        let same = style == self.style
            && parser == MarkdownParser::Uriscan
            && !(includes && self.may_include)
            && !(style == AnchorStyle::Docusaurus && self.may_import)
            && !myst();
        same.then(|| self.names())
    }
}

/// Hands each link of `page` to `f`, and returns its ids, as
/// [`LinkExtractor::for_each_with_anchors`] does; and for a Markdown
/// page that our reader reads, when `style` is given, its anchors named
/// in that style from the same passes.
///
/// The kept anchors stand for the file's own only where `page` holds its
/// bytes as they are on disk (not decoded from UTF-16, not from an
/// archive, not cut short) and its path is a Markdown file's; the caller
/// says so by giving a `style`.
pub fn for_each_with_kept_anchors(
    extractor: &LinkExtractor,
    page: &Page<'_>,
    style: Option<AnchorStyle>,
    f: impl FnMut(LinkRef<'_>),
) -> (Option<Vec<String>>, Option<KeptAnchors>) {
    let Some(style) = style else {
        return (extractor.for_each_with_anchors(page, f), None);
    };
    // Only a Markdown page has an outline.
    let (ids, outline) = extractor.for_each_with_outline(page, f);
    let kept = outline.and_then(|(o, text)| KeptAnchors::new(&text, style, o));
    (ids, kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checking::anchors::markdown_anchor_names_with;
    use crate::checking::anchors::tests::every_style;
    use crate::links::Format;

    fn kept(src: &str, style: AnchorStyle) -> Option<KeptAnchors> {
        let page = Page::new(src.as_bytes(), Format::Markdown);
        let mut links = 0;
        let (ids, kept) = for_each_with_kept_anchors(
            &LinkExtractor::new(),
            &page,
            Some(style),
            |_| links += 1,
        );
        assert!(ids.is_none());
        kept
    }

    /// Documents of every kind the outline reads, and some it declines.
    const DOCS: &[&str] = &[
        "# Title {#custom}\n\n## Title\n\n## Title\n\ntext [a](b.md#c)\n",
        "## `code()` *em* [link](x.md)\n\nA[^n] b[^n].\n\n[^n]: Note.\n",
        "# Top\n\n<a name=\"x\"></a>\n<h2 id=\"y\">Y</h2>\n\n## Section <span id=\"z\"></span>\n",
        "Setext\n===\n\n## Hi {/* #mdx-id */}\n\n## Notes <!-- #n -->\n",
        "---\ntitle: x\n---\n# Front &amp; matter ![alt](i.png)\n",
        "- # In a list\n\n  > ## Quoted `a\n  > b`\n",
        "# Crlf\r\n\r\n## Two `a b`\r\n",
        "> A `code\n> span`\n> ---\n",
        "# 🚀 Ünïcödé Привет\n\n## Usage\n\n## Usage 1\n\n## Usage\n",
        "",
    ];

    /// The names kept of `src` in every style, if any, are those a
    /// second reading of it gives; its links are those a plain reading
    /// gives. Returns how many styles kept names.
    fn same_as_a_second_reading(src: &str) -> Result<usize, String> {
        let e = LinkExtractor::new();
        let page = Page::new(src.as_bytes(), Format::Markdown);
        let mut plain = vec![];
        e.for_each(&page, |l| plain.push(l.to_link()));
        let mut kept_in = 0;
        for style in every_style() {
            let mut links = vec![];
            let (_, k) =
                for_each_with_kept_anchors(&e, &page, Some(style), |l| {
                    links.push(l.to_link())
                });
            if links != plain {
                return Err(format!("{src:?}: other links in {style:?}"));
            }
            let Some(k) = k else { continue };
            kept_in += 1;
            let again = markdown_anchor_names_with(
                src,
                style,
                MarkdownParser::Uriscan,
            );
            if k.names() != again || k.style() != style {
                return Err(format!(
                    "{src:?} in {style:?}:\n  kept:  {:?}\n  again: {again:?}",
                    k.names()
                ));
            }
        }
        Ok(kept_in)
    }

    #[test]
    fn the_names_kept_are_a_second_readings() {
        let mut kept = 0;
        for src in DOCS {
            kept += same_as_a_second_reading(src).unwrap();
        }
        // All but the one whose heading's code span crosses a line in a
        // container, which the outline declines.
        assert_eq!(kept, (DOCS.len() - 1) * every_style().len());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        #[test]
        fn markdown_like_input_keeps_a_second_readings_names(
            md in crate::links::hooks::markdown_like(),
        ) {
            same_as_a_second_reading(&md)
                .map_err(proptest::prelude::TestCaseError::fail)?;
        }

        #[test]
        fn arbitrary_input_keeps_a_second_readings_names(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        ) {
            same_as_a_second_reading(&String::from_utf8_lossy(&bytes))
                .map_err(proptest::prelude::TestCaseError::fail)?;
        }
    }

    /// Where the check names the anchors in another style, or from a
    /// text a site or Sphinx changes, the names are not used.
    #[test]
    fn used_only_in_the_style_and_from_the_text_they_were_named() {
        let src = "# Title {#custom}\n\n## Title\n";
        let github = kept(src, AnchorStyle::Github).unwrap();
        let docusaurus = AnchorStyle::docusaurus();
        let mkdocs = AnchorStyle::mkdocs(None, &[]).unwrap();
        let uriscan = MarkdownParser::Uriscan;
        assert_eq!(
            github.names_for((AnchorStyle::Github, uriscan), false, || false),
            Some(vec!["custom".into(), "title-custom".into(), "title".into()])
        );
        for other in [docusaurus, mkdocs, AnchorStyle::Gitlab] {
            assert_eq!(
                github.names_for((other, uriscan), false, || false),
                None
            );
        }
        let pulldown = MarkdownParser::Pulldown;
        assert_eq!(
            github.names_for((AnchorStyle::Github, pulldown), false, || false),
            None
        );
        assert_eq!(
            github.names_for((AnchorStyle::Github, uriscan), false, || true),
            None
        );
        // A text with no directive keeps its names where includes apply.
        assert!(
            github
                .names_for((AnchorStyle::Github, uriscan), true, || false)
                .is_some()
        );
        let snippet = kept("# A\n\n--8<-- \"b.md\"\n", mkdocs).unwrap();
        assert!(
            snippet.names_for((mkdocs, uriscan), false, || false).is_some()
        );
        assert_eq!(snippet.names_for((mkdocs, uriscan), true, || false), None);
        let imports = "import B from './_b.md';\n\n## A {#a}\n\n<B />\n";
        let partial = kept(imports, docusaurus).unwrap();
        assert_eq!(
            partial.names_for((docusaurus, uriscan), false, || false),
            None
        );
        let plain = kept("## A {#a}\n", docusaurus).unwrap();
        assert_eq!(
            plain.names_for((docusaurus, uriscan), false, || false),
            Some(vec!["a".into()])
        );
    }

    /// Not Markdown, or no style given: nothing kept, the ids as
    /// `for_each_with_anchors` gives them.
    #[test]
    fn only_markdown_with_a_style() {
        let e = LinkExtractor::new();
        let html = Page::new(b"<h1 id=a>x</h1>", Format::Html);
        let (ids, kept) = for_each_with_kept_anchors(
            &e,
            &html,
            Some(AnchorStyle::Github),
            |_| {},
        );
        assert_eq!(ids, Some(vec!["a".to_owned()]));
        assert!(kept.is_none());
        let md = Page::new(b"# A\n", Format::Markdown);
        let (_, kept) = for_each_with_kept_anchors(&e, &md, None, |_| {});
        assert!(kept.is_none());
        let mdx = Page::new(b"## A {/* #b */}\n", Format::Mdx);
        let (_, kept) = for_each_with_kept_anchors(
            &e,
            &mdx,
            Some(AnchorStyle::docusaurus()),
            |_| {},
        );
        assert!(kept.is_none());
    }
}
