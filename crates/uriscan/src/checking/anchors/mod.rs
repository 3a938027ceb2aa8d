//! The anchors a rendered document offers to a link's `#fragment`.
//!
//! No Markdown specification says what `id` a heading gets: each renderer
//! derives it from the heading's text by its own rule, and the rules
//! differ in ways that break links (emoji, punctuation, case, non-Latin
//! scripts, duplicates). [`slug`] and [`Slugger`] implement them, one
//! file per renderer, each written from the renderer's own source, cited
//! above its code, and held to the renderer's own output
//! (`tests/data/anchors/`, made by `scripts/anchors-oracle.sh`):
//!
//! | style | source | case | drops | duplicates |
//! |---|---|---|---|---|
//! | [`Github`](AnchorStyle::Github), [`Docusaurus`](AnchorStyle::Docusaurus) | github-slugger | Unicode lowercase | all but letters, marks, digits, `_`, `-`, space | `-1`, `-2`, never reused |
//! | [`Gitlab`](AnchorStyle::Gitlab) | comrak's `Anchorizer` | Unicode lowercase | all but letters, marks, numbers, `_`, `-`, space | as GitHub |
//! | [`Mdbook`](AnchorStyle::Mdbook) | mdBook's `id_from_content` | ASCII only | all but alphanumerics, `_`, `-`, whitespace | `-N` per text, may collide |
//! | [`Mkdocs`](AnchorStyle::Mkdocs) | Python-Markdown `toc`, pymdownx.slugs | by `slugify` | by `slugify` | `_1`, `_2`, never reused |
//! | [`Hugo`](AnchorStyle::Hugo) | goldmark via Hugo's `autoid.go` | Unicode lowercase | all but letters, digits, `_`, `-`, space | `-1`, `-2`, never reused |
//! | [`Jekyll`](AnchorStyle::Jekyll) | kramdown (GFM parser) | Unicode lowercase | all but word characters, `-`, space | `-N` per text, may collide |
//!
//! The rules read Unicode general categories from `unicode-properties`,
//! Alphabetic and numeric from the standard library, and normalization
//! forms from `unicode-normalization`.
//!
//! [`markdown_anchors`] lists every anchor of a Markdown document (heading
//! slugs, explicit `{#id}` attributes, footnotes, `id` and `a@name` in raw
//! HTML) and [`html_anchors`] those of an HTML page.
//! [`AnchorStyle::fragment_matches`] says which anchor a fragment reaches
//! on a page, and [`suggest`] picks the anchor a broken fragment most
//! likely meant.

use std::collections::HashMap;
use std::fmt;

mod casefold;
#[cfg(test)]
mod differential;
mod document;
mod github;
mod gitlab;
mod hugo;
mod jekyll;
mod kept;
mod mdbook;
mod mkdocs;
mod nearest;
#[cfg(test)]
mod oracle;

pub use document::{Anchor, html_anchors, markdown_anchors};
pub(crate) use document::{markdown_anchor_names_with, mdx_comment_ids};
pub use hugo::HugoIdType;
pub use jekyll::KramdownIds;
pub use kept::{KeptAnchors, for_each_with_kept_anchors};
pub use mkdocs::MkdocsSlugify;
pub use nearest::suggest;
#[cfg(test)]
pub(crate) use nearest::whole_table_distance;
pub(crate) use nearest::{Probe, Sketch, SketchGroup, nearest};

/// The renderer whose heading anchors a Markdown document is checked
/// against (`uriscan check --anchors`, or the site generator that builds
/// it).
///
/// How a link's fragment is compared with an anchor also depends on the
/// renderer: see [`AnchorStyle::fragment_matches`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AnchorStyle {
    /// GitHub (github.com, GitHub Enterprise), as reimplemented by the
    /// `github-slugger` npm package.
    #[default]
    Github,
    /// GitLab 17.0 and later, whose Markdown engine is comrak.
    Gitlab,
    /// mdBook.
    Mdbook,
    /// MkDocs: Python-Markdown's `toc` extension with the site's
    /// `slugify` ([`AnchorStyle::mkdocs`]).
    Mkdocs(MkdocsSlugify),
    /// Docusaurus: github-slugger, and `{#custom-id}`.
    Docusaurus,
    /// Hugo: goldmark's auto heading ids ([`AnchorStyle::hugo`]).
    Hugo(HugoIdType),
    /// Jekyll: kramdown's automatic ids ([`AnchorStyle::jekyll`]).
    Jekyll(KramdownIds),
}

impl AnchorStyle {
    /// MkDocs with the `slugify` its mkdocs.yml gives the `toc`
    /// extension: the Python name (`markdown.extensions.toc.slugify`,
    /// `markdown.extensions.toc.slugify_unicode`,
    /// `pymdownx.slugs.slugify`, and the older `pymdownx.slugs.uslugify`,
    /// `uslugify_encoded`, `uslugify_cased`, `uslugify_cased_encoded`,
    /// `gfm`, `gfm_encoded`), `None` for the default, and the keyword
    /// arguments of `pymdownx.slugs.slugify` (`case`: `none`, `lower`,
    /// `lower-ascii`, `fold`; `percent_encode`; `normalize`: `NFC`, …).
    ///
    /// ```
    /// use uriscan::checking::anchors::{AnchorStyle, slug};
    ///
    /// let toc = AnchorStyle::mkdocs(None, &[]).unwrap();
    /// assert_eq!(slug(toc, "Crème brûlée"), "creme-brulee");
    /// let lower = [("case", "lower")];
    /// let slugs = AnchorStyle::mkdocs(Some("pymdownx.slugs.slugify"), &lower);
    /// assert_eq!(slug(slugs.unwrap(), "Crème brûlée"), "crème-brûlée");
    /// ```
    ///
    /// # Errors
    ///
    /// A function or argument value that MkDocs sites do not use; the
    /// error says so and holds the default to use instead.
    pub fn mkdocs(
        slugify: Option<&str>,
        kwds: &[(&str, &str)],
    ) -> Result<AnchorStyle, UnknownSlugRule> {
        MkdocsSlugify::named(slugify, kwds).map(AnchorStyle::Mkdocs)
    }

    /// Docusaurus: github-slugger on the heading's text, and an explicit
    /// `{#custom-id}` used as written.
    pub fn docusaurus() -> AnchorStyle {
        AnchorStyle::Docusaurus
    }

    /// Hugo with `markup.goldmark.parser.autoHeadingIDType` (`github`,
    /// the default when `None`, `github-ascii` or `blackfriday`).
    ///
    /// # Errors
    ///
    /// Another value; the error holds the default to use instead.
    pub fn hugo(
        auto_heading_id_type: Option<&str>,
    ) -> Result<AnchorStyle, UnknownSlugRule> {
        HugoIdType::named(auto_heading_id_type).map(AnchorStyle::Hugo)
    }

    /// Jekyll, whose kramdown reads Markdown with its GFM parser by
    /// default (`kramdown.input: GFM`), with the `kramdown` settings
    /// `auto_ids` (Jekyll's default: true), `auto_id_prefix` and
    /// `auto_id_stripping`. For a site that sets `input: kramdown`, see
    /// [`AnchorStyle::kramdown`].
    pub fn jekyll(
        auto_ids: bool,
        prefix: Option<&str>,
        stripping: bool,
    ) -> AnchorStyle {
        AnchorStyle::Jekyll(KramdownIds::new(
            true, auto_ids, prefix, stripping,
        ))
    }

    /// A Jekyll site with `kramdown.input: kramdown`: kramdown's own
    /// parser, whose ids are ASCII (`basic_generate_id`).
    pub fn kramdown(
        auto_ids: bool,
        prefix: Option<&str>,
        stripping: bool,
    ) -> AnchorStyle {
        AnchorStyle::Jekyll(KramdownIds::new(
            false, auto_ids, prefix, stripping,
        ))
    }

    /// Whether a link's `fragment` (percent-decoded, without `#`) reaches
    /// `anchor` on a page rendered in this style: the fragment is the
    /// anchor, or one of [`AnchorStyle::fragment_targets`] is.
    pub fn fragment_matches(self, fragment: &str, anchor: &str) -> bool {
        fragment == anchor
            || self.fragment_targets(fragment).iter().any(|a| a == anchor)
    }

    /// The anchors a link's `fragment` (percent-decoded, without `#`)
    /// reaches on a page rendered in this style, besides the one that it
    /// names exactly (a browser's match, the HTML standard's "indicated
    /// part of the document"):
    ///
    /// - GitHub: the fragment lowercased, as anchors are lowercase. This
    ///   is *not* confirmed from GitHub's source: the page script that
    ///   scrolls to a fragment is not public. The evidence is GitHub's
    ///   own documentation ("Basic writing and formatting syntax",
    ///   section links, in github/docs), which links `#…-greek-letter-Θ`
    ///   to the heading whose anchor is `…-greek-letter-θ`. And without
    ///   a leading `user-content-`: GitHub writes every id of a
    ///   document with that prefix (`user-content-fn-1`), and its script
    ///   finds `#foo` at `user-content-foo`, so both forms reach.
    /// - GitLab: without a leading `user-content-`, as GitLab prefixes
    ///   ids the same way (comrak's `header_ids` prefix); otherwise
    ///   exact.
    /// - MkDocs with `percent_encode`: the fragment percent-encoded, as
    ///   a browser sends a non-ASCII fragment and as such ids are
    ///   written.
    /// - mdBook, Docusaurus, Hugo, Jekyll and other MkDocs slugs: none;
    ///   the browser's exact match is all there is (Docusaurus serves
    ///   footnotes at `user-content-fn-1` with no script to add it).
    pub fn fragment_targets(self, fragment: &str) -> Vec<String> {
        let mut out = Vec::new();
        match self {
            AnchorStyle::Github => {
                let bare = fragment.strip_prefix("user-content-");
                for f in std::iter::once(fragment).chain(bare) {
                    if f != fragment {
                        out.push(f.to_owned());
                    }
                    if f.chars().any(char::is_uppercase) {
                        out.push(f.to_lowercase());
                    }
                }
            }
            AnchorStyle::Gitlab => {
                if let Some(bare) = fragment.strip_prefix("user-content-") {
                    out.push(bare.to_owned());
                }
            }
            AnchorStyle::Mkdocs(s) if s.percent_encodes() => {
                let encoded = mkdocs::percent_encode_utf8(fragment);
                if encoded != fragment {
                    out.push(encoded);
                }
            }
            _ => {}
        }
        out
    }
}

/// A slug rule that a site's configuration names and that this crate
/// does not know (or an argument value it does not take), with the
/// default used instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSlugRule {
    /// The setting: `slugify`, `case`, `autoHeadingIDType`, ….
    setting: &'static str,
    /// Its value, as configured.
    value: String,
    /// The style used instead.
    fallback: AnchorStyle,
    /// The name of what `fallback` follows, for the message.
    fallback_name: &'static str,
}

impl UnknownSlugRule {
    /// The value that was not understood.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The style to check with instead: the generator's default.
    pub fn fallback(&self) -> AnchorStyle {
        self.fallback
    }
}

impl fmt::Display for UnknownSlugRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let generator = match self.fallback {
            AnchorStyle::Hugo(_) => "Hugo",
            _ => "MkDocs toc",
        };
        write!(
            f,
            "unknown {generator} {} `{}`: heading anchors follow {} (the \
             default) instead",
            self.setting, self.value, self.fallback_name
        )
    }
}

impl std::error::Error for UnknownSlugRule {}

/// The anchor `style` gives a heading whose text is `heading_text`: for
/// most styles its rendered text (inline markup already removed, code
/// span text kept, emphasis markers gone, link text kept); for Hugo and
/// for kramdown's own parser its Markdown source, which those read. The
/// first such heading of a page gets exactly this (an empty MkDocs slug
/// aside, which is `_1`); use a [`Slugger`] for a whole page, where
/// duplicates get suffixes.
///
/// ```
/// use uriscan::checking::anchors::{AnchorStyle, slug};
///
/// assert_eq!(slug(AnchorStyle::Github, "What's new?"), "whats-new");
/// assert_eq!(slug(AnchorStyle::Github, "Привет мир"), "привет-мир");
/// assert_eq!(slug(AnchorStyle::Mdbook, "Привет мир"), "Привет-мир");
/// ```
pub fn slug(style: AnchorStyle, heading_text: &str) -> String {
    match style {
        AnchorStyle::Github | AnchorStyle::Docusaurus => {
            github::github_slug(heading_text)
        }
        AnchorStyle::Gitlab => gitlab::gitlab_slug(heading_text),
        AnchorStyle::Mdbook => mdbook::mdbook_slug(heading_text),
        AnchorStyle::Mkdocs(s) => s.slug(heading_text),
        AnchorStyle::Hugo(t) => t.slug(heading_text),
        AnchorStyle::Jekyll(k) => {
            format!("{}{}", k.prefix, k.base(heading_text))
        }
    }
}

/// The anchors of one page's headings, in order: [`slug`] plus the
/// renderer's rule for duplicates. Use one per document.
///
/// ```
/// use uriscan::checking::anchors::{AnchorStyle, Slugger};
///
/// let mut s = Slugger::new(AnchorStyle::Github);
/// assert_eq!(s.slug("Usage"), "usage");
/// assert_eq!(s.slug("Usage"), "usage-1");
/// assert_eq!(s.slug("Usage 1"), "usage-1-1");
/// ```
#[derive(Clone, Debug)]
pub struct Slugger {
    style: AnchorStyle,
    /// Github, Gitlab, Docusaurus and Hugo: every anchor given so far,
    /// with the last suffix tried for it as a heading's own slug
    /// (github-slugger's `occurrences`). MkDocs: every id of the page.
    /// mdBook and Jekyll: each slug, with how many headings had it.
    seen: HashMap<String, usize>,
}

impl Slugger {
    /// A slugger for a new page.
    pub fn new(style: AnchorStyle) -> Slugger {
        Slugger { style, seen: HashMap::new() }
    }

    /// Records an explicit id (`{#id}`) of the page, for the styles
    /// whose generated ids step around explicit ones: MkDocs (every id
    /// of the page, reserved before any heading is named) and Hugo (each
    /// as its heading is read). Others ignore it.
    pub fn reserve(&mut self, id: &str) {
        if matches!(self.style, AnchorStyle::Mkdocs(_) | AnchorStyle::Hugo(_))
        {
            self.seen.entry(id.to_owned()).or_insert(0);
        }
    }

    /// The anchor of the next heading of the page, whose text (as
    /// [`slug`] takes it) is `heading_text`.
    ///
    /// - GitHub and Docusaurus (github-slugger `index.js`,
    ///   `BananaSlug.prototype.slug`): while the slug is taken,
    ///   `occurrences[originalSlug]++` and try
    ///   `originalSlug + '-' + occurrences[originalSlug]`; the result is
    ///   recorded with 0. So the second `Foo` is `foo-1`, the third
    ///   `foo-2`, and a `Foo 1` after the second `Foo` finds `foo-1`
    ///   taken and becomes `foo-1-1`.
    /// - GitLab (comrak `Anchorizer::anchorize`): start at the suffix
    ///   after the last one given for this slug, skip every taken id,
    ///   record the result and the next suffix. Same results as GitHub.
    /// - Hugo (`autoid.go`, `idFactory.Generate`): `-1`, `-2`, … until
    ///   free, among the ids given and the explicit ids read so far.
    ///   Same results as GitHub, explicit ids aside.
    /// - MkDocs (`toc.unique`): `_1`, `_2`, …, see there.
    /// - mdBook (`utils.rs` `unique_id`) and Jekyll (kramdown's
    ///   `@id_counter`, `@used_ids`): a count per slug, `-N` for the
    ///   N-th repeat, and the result is not recorded (mdBook's source
    ///   says `FIXME: This should be a loop`): `Foo`, `Foo`, `Foo 1`
    ///   give `foo`, `foo-1`, `foo-1`, two elements with one id, of
    ///   which a browser finds the first.
    pub fn slug(&mut self, heading_text: &str) -> String {
        match self.style {
            AnchorStyle::Mdbook => {
                let base = slug(self.style, heading_text);
                let n = self.seen.entry(base.clone()).or_insert(0);
                let id = if *n == 0 { base } else { format!("{base}-{n}") };
                *n += 1;
                id
            }
            AnchorStyle::Jekyll(k) => {
                k.unique(k.base(heading_text), &mut self.seen)
            }
            AnchorStyle::Mkdocs(s) => {
                mkdocs::unique(s.slug(heading_text), &mut self.seen)
            }
            style => {
                // github-slugger's loop as written; comrak's and Hugo's
                // give the same ids.
                let base = slug(style, heading_text);
                let mut id = base.clone();
                while self.seen.contains_key(&id) {
                    let n = self.seen.entry(base.clone()).or_insert(0);
                    *n += 1;
                    id = format!("{base}-{n}");
                }
                self.seen.insert(id.clone(), 0);
                id
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AnchorStyle::{Github, Gitlab, Mdbook};
    use super::*;

    /// The anchors of `src`, names only.
    fn names(src: &str, style: AnchorStyle) -> Vec<String> {
        markdown_anchors(src, style).into_iter().map(|a| a.name).collect()
    }

    /// Asserts the slug of one heading in each style, [GitHub, GitLab,
    /// mdBook].
    #[track_caller]
    fn each(text: &str, want: [&str; 3]) {
        let got = [Github, Gitlab, Mdbook].map(|s| slug(s, text));
        assert_eq!(got, want, "{text:?}");
    }

    // Where the expected values come from: GitHub from github-slugger's
    // category list (`script/generate-regex.mjs`: Other_Number,
    // punctuation but `_`, symbols, controls and separators go, Alphabetic
    // stays); GitLab from comrak's `is_permitted_char` (letters, marks,
    // all numbers, `_`, `-`, space); mdBook from `id_from_content`
    // (`is_alphanumeric`, `_`, `-`; whitespace to `-`; ASCII lowercase).

    #[test]
    fn emoji() {
        // 🚀 is So: a symbol in all three rules.
        each("🚀 Launch", ["-launch", "-launch", "-launch"]);
        // The U+FE0F after ⚠ is Mn, a mark: GitHub and GitLab keep marks,
        // mdBook's `is_alphanumeric` does not.
        each("⚠\u{fe0f} Note", ["\u{fe0f}-note", "\u{fe0f}-note", "-note"]);
    }

    #[test]
    fn punctuation() {
        // `'` and `?` are Po; each space is one `-`, nothing squeezed.
        each("What's new?", ["whats-new", "whats-new", "whats-new"]);
        // `+` is Sm, `&` Po: the two spaces around `&` stay two hyphens
        // (GitLab before 17.0 squeezed them to `c-rust`).
        each("C++ & Rust", ["c--rust", "c--rust", "c--rust"]);
        each("a.b/c", ["abc", "abc", "abc"]);
    }

    #[test]
    fn numbers_and_alphabetic_symbols() {
        // ² and ½ are No: GitHub removes Other_Number, comrak keeps every
        // number, `is_alphanumeric` is Alphabetic or any number.
        each("x² and ½", ["x-and-", "x²-and-½", "x²-and-½"]);
        // Ⓐ is So but Alphabetic: github-slugger's `.remove(alphabetics)`
        // keeps it (lowercased to ⓐ), comrak drops a symbol, mdBook keeps
        // it uncased.
        each("Ⓐ plan", ["ⓐ-plan", "-plan", "Ⓐ-plan"]);
    }

    #[test]
    fn non_latin_scripts() {
        // Letters of every script stay; only mdBook leaves capitals
        // outside ASCII as they are (`to_ascii_lowercase`).
        each("Привет мир", ["привет-мир", "привет-мир", "Привет-мир"]);
        each("日本語の見出し", ["日本語の見出し"; 3]);
        each("Ελληνικά", ["ελληνικά", "ελληνικά", "Ελληνικά"]);
        each("Straße Über", ["straße-über", "straße-über", "straße-Über"]);
        // Devanagari vowel signs are marks (Mc, Mn) kept by all three
        // (mdBook: they are Other_Alphabetic), but the virama U+094D is a
        // mark without Other_Alphabetic: mdBook drops it and breaks the
        // conjunct.
        each("हिन्दी", ["हिन्दी", "हिन्दी", "हिनदी"]);
    }

    #[test]
    fn underscores_and_hyphens() {
        // `_` is Pc, kept by all; `--` and the spaces around it are four
        // hyphens.
        each("snake_case -- dash", ["snake_case----dash"; 3]);
        // Dash punctuation other than `-` goes (GitHub: Dash_Punctuation
        // but `-`; comrak: not permitted; mdBook: not alphanumeric).
        each("a – b", ["a--b"; 3]);
    }

    #[test]
    fn leading_and_trailing_spaces() {
        // github-slugger 2.x and comrak do not trim; mdBook does. (Heading
        // text from a Markdown parser is trimmed already.)
        each("  Padded ", ["--padded-", "--padded-", "padded"]);
        // Whitespace other than a space: a tab is Cc (dropped by GitHub
        // and GitLab), whitespace to mdBook.
        each("a\tb", ["ab", "ab", "a-b"]);
    }

    #[test]
    fn code_spans_and_markup() {
        let src = "## `foo()` usage\n\n## *Bold* and [link](x.md) text\n";
        for style in [Github, Gitlab, Mdbook] {
            assert_eq!(
                names(src, style),
                ["foo-usage", "bold-and-link-text"],
                "{style:?}"
            );
        }
        // Alt text of an image is not text of the heading.
        assert_eq!(names("# ![logo](l.png) Title\n", Github), ["-title"]);
    }

    #[test]
    fn duplicates() {
        let three = "## Usage\n\n## Usage\n\n## Usage\n";
        for style in [Github, Gitlab, Mdbook] {
            assert_eq!(names(three, style), ["usage", "usage-1", "usage-2"]);
        }
        // A literal `Usage 1` after a generated `usage-1`: github-slugger
        // and comrak skip the taken id, mdBook's counter (no loop, a FIXME
        // in its source) gives it again.
        let clash = "## Usage\n\n## Usage\n\n## Usage 1\n";
        assert_eq!(names(clash, Github), ["usage", "usage-1", "usage-1-1"]);
        assert_eq!(names(clash, Gitlab), ["usage", "usage-1", "usage-1-1"]);
        assert_eq!(names(clash, Mdbook), ["usage", "usage-1", "usage-1"]);
        // The other order: the generated id skips the literal one.
        let first = "## Usage 1\n\n## Usage\n\n## Usage\n";
        assert_eq!(names(first, Github), ["usage-1", "usage", "usage-2"]);
        assert_eq!(names(first, Gitlab), ["usage-1", "usage", "usage-2"]);
        assert_eq!(names(first, Mdbook), ["usage-1", "usage", "usage-1"]);
        // Headings whose texts differ but whose slugs agree count as
        // duplicates (the count is per slug).
        let mut s = Slugger::new(Github);
        assert_eq!(
            [s.slug("A.B"), s.slug("AB"), s.slug("ab")],
            ["ab", "ab-1", "ab-2"]
        );
    }

    #[test]
    fn explicit_ids() {
        let src = "# Title {#custom}\n\n# Title\n";
        // mdBook uses the id instead of a slug, and the id does not count
        // for duplicates: the second heading is plain `title`.
        assert_eq!(names(src, Mdbook), ["custom", "title"]);
        // GitHub and GitLab show `{#custom}` as text: the anchor is the
        // slug of `Title {#custom}`; the id is listed as a leniency.
        assert_eq!(names(src, Github), ["custom", "title-custom", "title"]);
        assert_eq!(names(src, Gitlab), ["custom", "title-custom", "title"]);
    }

    #[test]
    fn raw_html_and_lines() {
        let src = "\
# Top

<a name=\"x\"></a>
<h2 id=\"y\">Y</h2>

## Section <span id=\"z\"></span>

<div name=\"not-an-anchor\" id=\"\"></div>
<A NAME=\"caps\">
";
        let got = markdown_anchors(src, Github);
        let got: Vec<_> =
            got.iter().map(|a| (a.name.as_str(), a.line)).collect();
        assert_eq!(
            got,
            [
                ("top", 1),
                ("x", 3),
                ("y", 4),
                ("z", 6),
                // The text is `Section ` with its space before the tag, and
                // neither github-slugger nor comrak trims (mdBook does).
                ("section-", 6),
                ("caps", 9),
            ]
        );
        let md = markdown_anchors(src, Mdbook);
        assert_eq!(md[4].name, "section");
    }

    #[test]
    fn anchors_of_html() {
        let html = b"<html><body><h1 id=\"intro&amp;more\">x</h1>\
            <a name=n1 href=\"#intro\">a</a><p id='p2'>\
            <script>var s = '<div id=\"no\">';</script>\
            <img name=\"img-is-not-an-anchor\"></body></html>";
        assert_eq!(html_anchors(html), ["intro&more", "n1", "p2"]);
    }

    #[test]
    fn fragment_case() {
        assert!(Github.fragment_matches("Usage", "usage"));
        assert!(Github.fragment_matches("Θ", "θ"));
        assert!(Github.fragment_matches("Raw", "Raw"));
        assert!(!Gitlab.fragment_matches("Usage", "usage"));
        assert!(!Mdbook.fragment_matches("Usage", "usage"));
        assert!(Mdbook.fragment_matches("Привет-мир", "Привет-мир"));
    }

    /// One of each style, its settings at their defaults.
    /// A style of each renderer, and of each setting that reads text.
    pub(super) fn every_style() -> Vec<AnchorStyle> {
        vec![
            Github,
            Gitlab,
            Mdbook,
            AnchorStyle::mkdocs(None, &[]).unwrap(),
            AnchorStyle::mkdocs(Some("pymdownx.slugs.uslugify_encoded"), &[])
                .unwrap(),
            AnchorStyle::docusaurus(),
            AnchorStyle::hugo(None).unwrap(),
            AnchorStyle::hugo(Some("blackfriday")).unwrap(),
            AnchorStyle::jekyll(true, Some("sec-"), false),
            AnchorStyle::kramdown(true, None, true),
        ]
    }

    #[test]
    fn renderer_prefixes() {
        // GitHub writes every id as `user-content-…` and its script finds
        // `#x` there too: a link may name either. GitLab prefixes alike.
        assert!(Github.fragment_matches("user-content-usage", "usage"));
        assert!(Github.fragment_matches("user-content-Usage", "usage"));
        assert!(Github.fragment_matches("user-content-fn-1", "fn-1"));
        assert!(Gitlab.fragment_matches("user-content-usage", "usage"));
        // Elsewhere the prefix is part of the id, or names nothing.
        let docusaurus = AnchorStyle::docusaurus();
        assert!(!docusaurus.fragment_matches("user-content-usage", "usage"));
        assert!(!docusaurus.fragment_matches("Usage", "usage"));
        // Ids written percent-encoded match the fragment a browser sends.
        let encoded =
            AnchorStyle::mkdocs(Some("pymdownx.slugs.uslugify_encoded"), &[])
                .unwrap();
        let id = slug(encoded, "Привет");
        assert_eq!(id, "%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82");
        assert!(encoded.fragment_matches("привет", &id));
        let plain = AnchorStyle::mkdocs(None, &[]).unwrap();
        assert!(!plain.fragment_matches("привет", "%D0%BF"));
    }

    #[test]
    fn footnotes_in_each_style() {
        let src = "A[^n] b[^n].\n\n[^n]: Note.\n";
        let ids = |style| names(src, style);
        assert_eq!(
            ids(Github),
            ["fnref-n", "fnref-n-2", "fn-n", "footnote-label"]
        );
        assert_eq!(ids(Gitlab), ["fnref-n", "fnref-n-2", "fn-n"]);
        assert_eq!(
            ids(AnchorStyle::docusaurus()),
            [
                "user-content-fnref-n",
                "user-content-fnref-n-2",
                "user-content-fn-n",
                "footnote-label"
            ]
        );
        let mkdocs = AnchorStyle::mkdocs(None, &[]).unwrap();
        assert_eq!(ids(mkdocs), ["fnref:n", "fnref2:n", "fn:n"]);
        // Hugo numbers footnotes, whatever their labels.
        let hugo = AnchorStyle::hugo(None).unwrap();
        assert_eq!(ids(hugo), ["fnref:1", "fnref1:1", "fn:1"]);
        let jekyll = AnchorStyle::jekyll(true, None, false);
        assert_eq!(ids(jekyll), ["fnref:n", "fnref:n:1", "fn:n"]);
        // mdBook: as before, no footnote anchors.
        assert!(ids(Mdbook).is_empty());
    }

    #[test]
    fn raw_html_ids_in_every_style() {
        let src = "# Top\n\n<a name=\"legacy\"></a>\n<div id=\"Box\"></div>\n";
        for style in every_style() {
            let got = names(src, style);
            assert!(got.contains(&"legacy".to_owned()), "{style:?} {got:?}");
            assert!(got.contains(&"Box".to_owned()), "{style:?} {got:?}");
        }
    }

    #[test]
    fn explicit_ids_by_generator() {
        let src = "# Title {#custom}\n\n# Custom\n";
        // MkDocs reserves every explicit id first, Hugo each as read;
        // Docusaurus and kramdown do not count them.
        let mkdocs = AnchorStyle::mkdocs(None, &[]).unwrap();
        assert_eq!(names(src, mkdocs), ["custom", "custom_1"]);
        let hugo = AnchorStyle::hugo(None).unwrap();
        assert_eq!(names(src, hugo), ["custom", "custom-1"]);
        // Docusaurus gives a level-1 heading no id: level 2 here.
        let docusaurus = AnchorStyle::docusaurus();
        let level_2 = src.replace("# ", "## ");
        assert_eq!(names(&level_2, docusaurus), ["custom", "custom"]);
        let jekyll = AnchorStyle::jekyll(true, None, false);
        assert_eq!(names(src, jekyll), ["custom", "custom"]);
        // attr_list's `{: #id }` form too.
        assert_eq!(names("# T {: #x }\n", mkdocs), ["x"]);
        // With auto_ids off, kramdown names only explicit ids.
        let off = AnchorStyle::jekyll(false, None, false);
        assert_eq!(names(src, off), ["custom"]);
    }

    /// Docusaurus' theme renders every level-1 heading (setext too)
    /// without an id, explicit or not, though github-slugger still takes
    /// its slug: the built page of `# Intro` then `## Intro` has only
    /// `intro-1`.
    #[test]
    fn docusaurus_level_1_headings_have_no_anchor() {
        let docusaurus = AnchorStyle::docusaurus();
        let src = "# Intro\n\n## Intro\n\n# Other {#other}\n\nSetext\n===\n\n## Setext\n";
        assert_eq!(names(src, docusaurus), ["intro-1", "setext-1"]);
        assert_eq!(
            names(src, Github),
            ["intro", "intro-1", "other", "other-other", "setext", "setext-1"]
        );
    }

    /// Docusaurus' comment ids, the last thing in a heading: MDX's
    /// `{/* #id */}` (its first word) is used instead of a slug, which
    /// is then not taken; HTML's `<!-- #id -->` is not (Docusaurus 3.10
    /// reads `.md` as MDX by default), and its space stays in the slug.
    #[test]
    fn docusaurus_comment_ids() {
        let docusaurus = AnchorStyle::docusaurus();
        let src = "## Hi {/* #mdx-id more */}\n\n## Hi\n\n\
                   ## Notes <!-- #notes-id -->\n\n# Title {/* #top */}\n";
        assert_eq!(names(src, docusaurus), ["mdx-id", "hi", "notes-"]);
        // An MDX page's, whose reader blanks the comment: as `{#id}`.
        let mdx = mdx_comment_ids("## By a comment {/* #by-comment */}\n");
        assert_eq!(mdx, "## By a comment {#by-comment}      \n");
        let markdown = crate::links::mdx_markdown(&mdx);
        assert_eq!(names(&markdown, docusaurus), ["by-comment"]);
    }

    #[test]
    fn suggestions_in_every_style() {
        let src = "## Getting started\n\n## Install the tool\n";
        for style in every_style() {
            let have = markdown_anchors(src, style);
            let wanted = format!("{}x", have[1].name);
            let got = suggest(&wanted, have.iter().map(|a| a.name.as_str()));
            assert_eq!(got, Some(have[1].name.as_str()), "{style:?}");
        }
    }

    #[test]
    fn unknown_rules_name_the_default() {
        let err = AnchorStyle::hugo(Some("gitlab")).unwrap_err();
        assert_eq!(err.value(), "gitlab");
        assert_eq!(err.fallback(), AnchorStyle::hugo(None).unwrap());
        assert_eq!(
            err.to_string(),
            "unknown Hugo autoHeadingIDType `gitlab`: heading anchors follow \
             github (the default) instead"
        );
        let err =
            AnchorStyle::mkdocs(Some("my_ext.slugify"), &[]).unwrap_err();
        assert_eq!(err.fallback(), AnchorStyle::mkdocs(None, &[]).unwrap());
        assert!(err.to_string().contains("`my_ext.slugify`"));
    }
}
