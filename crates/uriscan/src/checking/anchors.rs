//! The anchors a rendered document offers to a link's `#fragment`.
//!
//! No Markdown specification says what `id` a heading gets: each renderer
//! derives it from the heading's text by its own rule, and the rules
//! differ in ways that break links (emoji, punctuation, case, non-Latin
//! scripts, duplicates). [`slug`] and [`Slugger`] implement three of them,
//! each written from its renderer's own source, cited above its code:
//!
//! | style | source | case | drops | duplicates |
//! |---|---|---|---|---|
//! | [`Github`](AnchorStyle::Github) | github-slugger | Unicode lowercase | all but letters, marks, digits, `_`, `-`, space | `-1`, `-2`, never reused |
//! | [`Gitlab`](AnchorStyle::Gitlab) | comrak's `Anchorizer` | Unicode lowercase | all but letters, marks, numbers, `_`, `-`, space | as GitHub |
//! | [`Mdbook`](AnchorStyle::Mdbook) | mdBook's `id_from_content` | ASCII only | all but alphanumerics, `_`, `-`, whitespace | `-N` per text, may collide |
//!
//! Every style turns each space into one `-` (no squeezing). The rules
//! read Unicode general categories from `unicode-properties`, and
//! Alphabetic and numeric from the standard library.
//!
//! [`markdown_anchors`] lists every anchor of a Markdown document (heading
//! slugs, explicit `{#id}` attributes, `id` and `a@name` in raw HTML) and
//! [`html_anchors`] those of an HTML page. [`suggest`] picks the anchor a
//! broken fragment most likely meant.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use unicode_properties::{
    GeneralCategory as Gc, GeneralCategoryGroup as Group,
    UnicodeGeneralCategory,
};

use crate::links::reader_api::{
    for_each_id_or_name, line_starts, markdown_options,
};

/// The renderer whose heading anchors a Markdown document is checked
/// against (`uriscan check --anchors`).
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
}

impl AnchorStyle {
    /// Whether a link's `fragment` (percent-decoded, without `#`) reaches
    /// `anchor` on a page rendered in this style.
    ///
    /// - GitHub: anchors are lowercase, and the fragment is compared
    ///   after lowercasing it as well. This is *not* confirmed from
    ///   GitHub's source: the page script that scrolls to a fragment is
    ///   not public. The evidence is GitHub's own documentation
    ///   ("Basic writing and formatting syntax", section links, in
    ///   github/docs), which links `#…-greek-letter-Θ` to the heading
    ///   whose anchor is `…-greek-letter-θ`. An exact match on the
    ///   lowercased fragment is the choice made here; the fragment as
    ///   written also matches, for raw HTML ids with capitals.
    /// - GitLab and mdBook: exact, as a browser matches a fragment with
    ///   an `id` (HTML standard, "the indicated part of the document").
    pub fn fragment_matches(self, fragment: &str, anchor: &str) -> bool {
        fragment == anchor
            || (self == AnchorStyle::Github
                && fragment.chars().any(char::is_uppercase)
                && fragment.to_lowercase() == anchor)
    }
}

/// The anchor `style` gives a heading whose rendered text is
/// `heading_text`: inline markup already removed (code span text kept,
/// emphasis markers gone, link text kept). The first such heading of a
/// page gets exactly this; use a [`Slugger`] for a whole page, where
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
        AnchorStyle::Github => github_slug(heading_text),
        AnchorStyle::Gitlab => gitlab_slug(heading_text),
        AnchorStyle::Mdbook => mdbook_slug(heading_text),
    }
}

/// GitHub's rule, from `Flet/github-slugger` (2.x), `index.js` and
/// `script/generate-regex.mjs`, which reimplement what GitHub documents
/// in "Basic writing and formatting syntax — Section links":
///
/// ```js
/// if (!maintainCase) value = value.toLowerCase()
/// return value.replace(regex, '').replace(/ /g, '-')
/// ```
///
/// where `regex` removes the general categories Other_Number, the
/// punctuation categories other than Connector_Punctuation (Dash
/// included), Symbol, Control, Private_Use, Format, Unassigned and
/// Separator, then `.remove(alphabetics)`, `.remove(' ')` and
/// `.remove('-')`. What stays is therefore: letters, marks, decimal
/// and letter numbers, connector punctuation (`_`), anything Alphabetic
/// (the circled letters `Ⓐ` are symbols but Alphabetic), space and
/// `-`. No trimming (2.x dropped it; Markdown heading text is trimmed by
/// the parser anyway) and no squeezing: `C++ & Rust` is `c--rust`.
///
/// Emoji are symbols and go, but a variation selector after one
/// (U+FE0F, a mark) stays, as it does on github.com: `⚠️ Note` is
/// `\u{fe0f}-note`.
fn github_slug(text: &str) -> String {
    let keeps = |c: char| {
        c == '-'
            || c.is_alphabetic()
            || matches!(
                c.general_category(),
                Gc::UppercaseLetter
                    | Gc::LowercaseLetter
                    | Gc::TitlecaseLetter
                    | Gc::ModifierLetter
                    | Gc::OtherLetter
                    | Gc::NonspacingMark
                    | Gc::SpacingMark
                    | Gc::EnclosingMark
                    | Gc::DecimalNumber
                    | Gc::LetterNumber
                    | Gc::ConnectorPunctuation
            )
    };
    spaces_to_hyphens(&text.to_lowercase(), keeps)
}

/// `text` with each space turned into `-` and the other characters
/// kept where `keeps` says so: the last steps of the GitHub and GitLab
/// rules.
fn spaces_to_hyphens(text: &str, keeps: impl Fn(char) -> bool) -> String {
    text.chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c => keeps(c).then_some(c),
        })
        .collect()
}

/// GitLab's rule. Since GitLab 17.0 (gitlab-org/gitlab issue 440733,
/// "Heading link generation changed"), headings get their ids from
/// comrak: `gitlabhq/gitlabhq`
/// `lib/banzai/filter/markdown_engines/glfm_markdown.rb` passes
/// `header_ids: USER_CONTENT_ID_PREFIX` to comrak, whose
/// `kivikakk/comrak` `src/html/anchorizer.rs` does:
///
/// ```text
/// let mut id = header.to_lowercase();
/// id = id.chars().filter(is_permitted_char)
///     .map(|c| if c == ' ' { '-' } else { c }).collect();
/// // is_permitted_char: ' ' | '-' | letter | mark | number
/// //                    | connector punctuation
/// ```
///
/// It differs from GitHub in numbers: every number is kept (`²`, `½`),
/// and in Alphabetic symbols (`Ⓐ`), which go. GitLab's own page
/// (`doc/user/markdown.md`, "Heading IDs and links") still lists "two or
/// more hyphens in a row are converted to one", but its example beside
/// it, `this-heading-has--multiple-spaces-and-----hyphens`, is comrak's
/// output: the squeezing belongs to the rule before 17.0
/// (`lib/gitlab/utils/markdown.rb` `string_to_anchor`: `strip`,
/// `downcase`, `gsub(/[^\p{Word}\- ]/, '')`, `tr(' ', '-')`,
/// `squeeze('-')`, and `anchor-` before an all-digit id), which this
/// style does not implement.
fn gitlab_slug(text: &str) -> String {
    let keeps = |c: char| {
        c == '-'
            || c.general_category() == Gc::ConnectorPunctuation
            || matches!(
                c.general_category_group(),
                Group::Letter | Group::Mark | Group::Number
            )
    };
    spaces_to_hyphens(&text.to_lowercase(), keeps)
}

/// mdBook's rule, `rust-lang/mdBook` `crates/mdbook-html/src/utils.rs`
/// `id_from_content` (0.5; `src/utils/mod.rs` `normalize_id` in 0.4 is
/// the same), on the heading's text nodes:
///
/// ```text
/// content.trim().chars().filter_map(|ch| {
///     if ch.is_alphanumeric() || ch == '_' || ch == '-' {
///         Some(ch.to_ascii_lowercase())
///     } else if ch.is_whitespace() { Some('-') } else { None }
/// }).collect()
/// ```
///
/// Only ASCII letters are lowercased: `Привет мир` is `Привет-мир`, and
/// a link to `#привет-мир` is broken on an mdBook site.
fn mdbook_slug(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
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
    /// Github and Gitlab: every anchor given so far, with the last
    /// suffix tried for it as a heading's own slug (github-slugger's
    /// `occurrences`). Mdbook: each slug, with how many headings had it.
    seen: HashMap<String, usize>,
}

impl Slugger {
    /// A slugger for a new page.
    pub fn new(style: AnchorStyle) -> Slugger {
        Slugger { style, seen: HashMap::new() }
    }

    /// The anchor of the next heading of the page, whose rendered text
    /// is `heading_text`.
    ///
    /// - GitHub (github-slugger `index.js`, `BananaSlug.prototype.slug`):
    ///   while the slug is taken, `occurrences[originalSlug]++` and try
    ///   `originalSlug + '-' + occurrences[originalSlug]`; the result is
    ///   recorded with 0. So the second `Foo` is `foo-1`, the third
    ///   `foo-2`, and a `Foo 1` after the second `Foo` finds `foo-1`
    ///   taken and becomes `foo-1-1`.
    /// - GitLab (comrak `Anchorizer::anchorize`): start at the suffix
    ///   after the last one given for this slug, skip every taken id,
    ///   record the result and the next suffix. Same results as GitHub.
    /// - mdBook (`utils.rs` `unique_id`): a count per slug, `-N` for the
    ///   N-th repeat, and the result is not recorded (the source says
    ///   `FIXME: This should be a loop`): `Foo`, `Foo`, `Foo 1` give
    ///   `foo`, `foo-1`, `foo-1`, two elements with one id, of which a
    ///   browser finds the first.
    pub fn slug(&mut self, heading_text: &str) -> String {
        let base = slug(self.style, heading_text);
        if self.style == AnchorStyle::Mdbook {
            let n = self.seen.entry(base.clone()).or_insert(0);
            let id = if *n == 0 { base } else { format!("{base}-{n}") };
            *n += 1;
            return id;
        }
        // github-slugger's loop as written; comrak's gives the same ids.
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

/// One anchor of a document.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The anchor, as a fragment names it (without `#`).
    pub name: String,
    /// The 1-based line where it is defined: the heading's first line,
    /// or the raw HTML tag's.
    pub line: u32,
}

/// Every anchor of a Markdown document rendered in `style`, in document
/// order:
///
/// - each heading's anchor, from its rendered text (its Text and Code
///   events in order, soft breaks as `\n`, an image's alt text left out)
///   through a [`Slugger`];
/// - each explicit `{#id}` heading attribute. mdBook uses the id instead
///   of a slug. GitHub and GitLab do not read heading attributes: they
///   show `{#id}` as text, and the heading's anchor is the slug of the
///   text with it (`Title {#custom}` is `title-custom`), which is listed
///   too; the id itself is kept as an anchor as a deliberate leniency,
///   since a document that writes one means it (and a site generator
///   may render the same files);
/// - each `id` of an element and `name` of an `a` in raw HTML, blocks
///   and inline. GitHub prefixes them with `user-content-` and its page
///   script resolves `#x` to them, so they are listed as written.
///
/// The document is parsed as [`links`](crate::links) parses it: the
/// GitHub extensions and front matter.
pub fn markdown_anchors(src: &str, style: AnchorStyle) -> Vec<Anchor> {
    let lines = line_starts(src.as_bytes());
    let line_of = |offset: usize| {
        u32::try_from(lines.partition_point(|&s| s <= offset))
            .unwrap_or(u32::MAX)
    };
    let mut slugger = Slugger::new(style);
    let mut out = Vec::new();
    let mut html = Vec::new();
    // The heading being read: its start, text and explicit id, and
    // whether it had attributes at all.
    let mut heading: Option<(usize, String, Option<String>, bool)> = None;
    let mut image_depth = 0u32;
    let mut html_block: Option<Range<usize>> = None;
    let parser = Parser::new_ext(src, markdown_options());
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { id, classes, attrs, .. }) => {
                let has_attrs =
                    id.is_some() || !classes.is_empty() || !attrs.is_empty();
                let id = id.map(|s| s.to_string());
                heading = Some((range.start, String::new(), id, has_attrs));
            }
            Event::End(TagEnd::Heading(_)) => {
                let Some((start, mut text, id, has_attrs)) = heading.take()
                else {
                    continue;
                };
                let line = line_of(start);
                if let Some(id) = &id {
                    out.push(Anchor { name: id.clone(), line });
                }
                if style == AnchorStyle::Mdbook && id.is_some() {
                    // mdBook keeps the explicit id and makes no slug.
                    continue;
                }
                if has_attrs
                    && style != AnchorStyle::Mdbook
                    && let Some(block) =
                        attribute_block(&src[start..range.end])
                {
                    text.push(' ');
                    text.push_str(block);
                }
                out.push(Anchor { name: slugger.slug(&text), line });
            }
            Event::Start(Tag::Image { .. }) => image_depth += 1,
            Event::End(TagEnd::Image) => {
                image_depth = image_depth.saturating_sub(1)
            }
            Event::Text(t) | Event::Code(t) if image_depth == 0 => {
                if let Some((_, text, ..)) = &mut heading {
                    text.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, text, ..)) = &mut heading {
                    text.push('\n');
                }
            }
            Event::InlineHtml(_) => {
                scan_ids(
                    src[range.clone()].as_bytes(),
                    range.start,
                    &mut html,
                );
            }
            Event::Html(_) => match &mut html_block {
                Some(r) => r.end = range.end,
                None => html_block = Some(range),
            },
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(r) = html_block.take() {
                    scan_ids(src[r.clone()].as_bytes(), r.start, &mut html);
                }
            }
            _ => {}
        }
        for (offset, name) in html.drain(..) {
            out.push(Anchor { name, line: line_of(offset) });
        }
    }
    out
}

/// The `{...}` attribute block at the end of a heading's source, as
/// GitHub and GitLab show it as text: from the last `{` before the last
/// `}`.
fn attribute_block(heading_src: &str) -> Option<&str> {
    let close = heading_src.rfind('}')?;
    let open = heading_src[..close].rfind('{')?;
    Some(&heading_src[open..=close])
}

/// Every element's `id` and every `a` element's `name` in an HTML page,
/// character references decoded, in document order. The bytes are read
/// as UTF-8 (a page in another encoding is decoded first by the
/// caller); the text of `script`, `style` and the like holds no tags.
pub fn html_anchors(html: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    scan_ids(html, 0, &mut found);
    found.into_iter().map(|(_, name)| name).collect()
}

/// Collects the `id` and `a@name` values of `html` (a page, or a piece of
/// a Markdown document at offset `base`) with the offsets of their tags.
fn scan_ids(html: &[u8], base: usize, out: &mut Vec<(usize, String)>) {
    for_each_id_or_name(html, |tag_start, value| {
        // `id=""` names nothing (HTML standard: an id is never empty),
        // and neither does an empty name.
        if !value.is_empty() {
            let value = String::from_utf8_lossy(value);
            out.push((base + tag_start, value.into_owned()));
        }
    });
}

/// The anchor in `have` closest to `wanted` by edit distance
/// (Levenshtein, in characters), when it is close enough to be a likely
/// typo: at most `max(2, chars(wanted) / 3)` edits. Ties go to the first
/// in `have`.
///
/// ```
/// use uriscan::checking::anchors::suggest;
///
/// let have = ["installation", "usage"];
/// assert_eq!(suggest("instalation", have), Some("installation"));
/// assert_eq!(suggest("licence-and-copyright", have), None);
/// ```
pub fn suggest<'a>(
    wanted: &str,
    have: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut bag = Bag::of(wanted);
    let wanted: Vec<char> = wanted.chars().collect();
    let limit = (wanted.len() / 3).max(2);
    let mut rows = (Vec::new(), Vec::new());
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in have {
        // The length difference is a lower bound of the distance: most
        // anchors of a page are ruled out without the table.
        let len = candidate.chars().count();
        let bound = best.map_or(limit, |(d, _)| d.saturating_sub(1));
        if len.abs_diff(wanted.len()) > bound
            || bag.as_mut().is_some_and(|b| b.exceeds(candidate, bound))
        {
            continue;
        }
        if let Some(d) = levenshtein(&wanted, candidate, bound, &mut rows) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, name)| name)
}

/// The edit distance between `a` and `b` (insertions, deletions and
/// substitutions of one character each) when it is at most `bound`, in
/// O(n·m) time with two rows. A row's smallest entry never shrinks
/// further down the table, so the walk stops at the first row whose
/// entries all pass `bound` (Ukkonen's cut-off): a missing page's name
/// is held against every name of its directory, and nearly all are far.
fn levenshtein(
    a: &[char],
    b: &str,
    bound: usize,
    (prev, cur): &mut (Vec<usize>, Vec<usize>),
) -> Option<usize> {
    prev.clear();
    prev.extend(0..=a.len());
    for (j, cb) in b.chars().enumerate() {
        cur.clear();
        cur.push(j + 1);
        let mut least = j + 1;
        for (i, &ca) in a.iter().enumerate() {
            let substitute = prev[i] + usize::from(ca != cb);
            let d = substitute.min(prev[i + 1] + 1).min(cur[i] + 1);
            least = least.min(d);
            cur.push(d);
        }
        if least > bound {
            return None;
        }
        std::mem::swap(prev, cur);
    }
    Some(prev[a.len()]).filter(|&d| d <= bound)
}

/// The characters of an ASCII string, counted: for a lower bound of its
/// edit distance to others, in linear time. Each edit mends at most one
/// character that one string has more of than the other (the bag
/// distance), and most names of a directory are ruled out by it.
struct Bag {
    count: [i32; 128],
    len: usize,
}

impl Bag {
    /// The bag of `s`, when it is ASCII.
    fn of(s: &str) -> Option<Bag> {
        if !s.is_ascii() {
            return None;
        }
        let mut count = [0i32; 128];
        for c in s.bytes() {
            count[usize::from(c)] += 1;
        }
        Some(Bag { count, len: s.len() })
    }

    /// Whether the bag distance to `other` passes `bound` (never when
    /// `other` is not ASCII). The counts are taken down for `other` and
    /// put back, which is cheaper than a copy of them for each of
    /// thousands of names, and the walk stops once `other` has more than
    /// `bound` characters this string lacks.
    fn exceeds(&mut self, other: &str, bound: usize) -> bool {
        if !other.is_ascii() {
            return false;
        }
        let b = other.as_bytes();
        let (mut common, mut seen) = (0, 0);
        for &c in b {
            let n = &mut self.count[usize::from(c)];
            common += usize::from(*n > 0);
            *n -= 1;
            seen += 1;
            if seen - common > bound {
                break;
            }
        }
        for &c in &b[..seen] {
            self.count[usize::from(c)] += 1;
        }
        seen - common > bound
            || (self.len - common).max(b.len() - common) > bound
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

    #[test]
    fn suggestions() {
        let have = ["installation", "usage"];
        assert_eq!(suggest("instalation", have), Some("installation"));
        assert_eq!(suggest("usag", have), Some("usage"));
        // Far off: more edits than max(2, len / 3).
        assert_eq!(suggest("configuration", have), None);
        assert_eq!(suggest("xyz", have), None);
        assert_eq!(suggest("anything", []), None);
        // Ties go to the first; a closer later one wins.
        assert_eq!(suggest("ab", ["ax", "xb"]), Some("ax"));
        assert_eq!(suggest("abcd", ["abxy", "abcx"]), Some("abcx"));
        // Distance is counted in characters, not bytes.
        assert_eq!(suggest("привет", ["привед"]), Some("привед"));
    }

    #[test]
    fn levenshtein_distances() {
        let mut rows = (Vec::new(), Vec::new());
        let mut d = |a: &str, b: &str, bound| {
            let a: Vec<char> = a.chars().collect();
            levenshtein(&a, b, bound, &mut rows)
        };
        assert_eq!(d("kitten", "sitting", 9), Some(3));
        assert_eq!(d("kitten", "sitting", 3), Some(3));
        assert_eq!(d("kitten", "sitting", 2), None);
        assert_eq!(d("", "abc", 9), Some(3));
        assert_eq!(d("abc", "", 9), Some(3));
        assert_eq!(d("flaw", "lawn", 9), Some(2));
        assert_eq!(d("same", "same", 0), Some(0));
        assert_eq!(d("missing-12.md", "part-0012.md", 4), None);
        let mut bag = Bag::of("abc");
        assert!(bag.as_mut().is_some_and(|b| b.exceeds("xyz", 2)));
        assert!(bag.as_mut().is_some_and(|b| !b.exceeds("cab", 0)));
    }

    /// The cut-off and the bag distance change no answer: each held to
    /// the whole table, with no bound.
    #[test]
    fn cut_offs_keep_the_distance() {
        fn full(a: &[char], b: &str) -> usize {
            let b: Vec<char> = b.chars().collect();
            let mut prev: Vec<usize> = (0..=a.len()).collect();
            for (j, cb) in b.iter().enumerate() {
                let mut cur = vec![j + 1];
                for (i, ca) in a.iter().enumerate() {
                    let d = (prev[i] + usize::from(ca != cb))
                        .min(prev[i + 1] + 1)
                        .min(cur[i] + 1);
                    cur.push(d);
                }
                prev = cur;
            }
            prev[a.len()]
        }
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "install",
            "instalation",
            "installation",
            "usage",
            "part-0001.md",
            "missing-1.md",
            "é-x",
            "x-é",
            "kitten",
            "sitting",
            "aaaa",
            "bbbb",
            "abab",
        ];
        let mut rows = (Vec::new(), Vec::new());
        for a in words {
            let ac: Vec<char> = a.chars().collect();
            for b in words {
                let d = full(&ac, b);
                if let Some(mut bag) = Bag::of(a) {
                    // A lower bound: never past the distance itself.
                    assert!(!bag.exceeds(b, d), "{a} {b}");
                    for bound in 0..d {
                        bag.exceeds(b, bound);
                    }
                    // The counts are put back after each.
                    let fresh = Bag::of(a).map(|f| f.count);
                    assert_eq!(Some(bag.count), fresh, "{a} {b}");
                }
                for bound in 0..8 {
                    let want = (d <= bound).then_some(d);
                    assert_eq!(levenshtein(&ac, b, bound, &mut rows), want);
                }
            }
        }
    }
}
