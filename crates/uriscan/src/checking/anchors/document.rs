//! The anchors of a document: a Markdown source's, by its renderer's
//! rules, and an HTML page's.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::{AnchorStyle, Slugger};
use crate::links::MarkdownParser;
use crate::links::reader_api::{
    Outline, PieceKind, for_each_id_or_name, line_starts, markdown_options,
    markdown_outline,
};

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
/// - each heading's anchor through a [`Slugger`], from its text as the
///   style reads it: its rendered text (its Text and Code events in
///   order, soft breaks as `\n`, an image's alt text left out), or for
///   Hugo and kramdown's own parser its source;
/// - each explicit `{#id}` heading attribute, which MkDocs (`attr_list`),
///   Docusaurus, Hugo, Jekyll and mdBook use instead of a slug. GitHub
///   and GitLab do not read heading attributes: they show `{#id}` as
///   text, and the heading's anchor is the slug of the text with it
///   (`Title {#custom}` is `title-custom`), which is listed too; the id
///   itself is kept as an anchor as a deliberate leniency, since a
///   document that writes one means it (and a site generator may render
///   the same files);
/// - the ids the renderer gives footnotes and their references
///   (GitHub's `fn-1` and `fnref-1`, Python-Markdown's and kramdown's
///   `fn:1`, …; none for mdBook);
/// - each `id` of an element and `name` of an `a` in raw HTML, blocks
///   and inline, in every style. GitHub prefixes them with
///   `user-content-` and its page script resolves `#x` to them, so they
///   are listed as written.
///
/// The document is parsed as [`links`](crate::links) parses it: the
/// GitHub extensions and front matter, by our own reader, or by
/// pulldown-cmark where ours declines it.
pub fn markdown_anchors(src: &str, style: AnchorStyle) -> Vec<Anchor> {
    markdown_anchors_with(src, style, MarkdownParser::default())
}

/// [`markdown_anchors`], the document parsed by `parser`.
pub(crate) fn markdown_anchors_with(
    src: &str,
    style: AnchorStyle,
    parser: MarkdownParser,
) -> Vec<Anchor> {
    anchors_by(src, style, parser).into_iter().map(|(a, _)| a).collect()
}

/// The names of [`markdown_anchors_with`]'s anchors, in the same order:
/// what a fragment is checked against, with no line to count.
pub(crate) fn markdown_anchor_names_with(
    src: &str,
    style: AnchorStyle,
    parser: MarkdownParser,
) -> Vec<String> {
    items_to_anchors(src, style, parser, None)
        .into_iter()
        .map(|(a, _)| a.name)
        .collect()
}

/// What an anchor of a Markdown document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The id the renderer gives a heading.
    Heading,
    /// An explicit id GitHub or GitLab shows as text, kept as a leniency.
    Lenient,
    /// Raw HTML and footnotes.
    Other,
}

/// [`markdown_anchors`], each with its kind.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) fn anchors_with_kinds(
    src: &str,
    style: AnchorStyle,
) -> Vec<(Anchor, Kind)> {
    anchors_by(src, style, MarkdownParser::default())
}

/// [`anchors_with_kinds`], the document parsed by `parser`.
pub(super) fn anchors_by(
    src: &str,
    style: AnchorStyle,
    parser: MarkdownParser,
) -> Vec<(Anchor, Kind)> {
    let lines = line_starts(src.as_bytes());
    items_to_anchors(src, style, parser, Some(&lines))
}

/// [`anchors_by`], each anchor's line found in `lines` (the starts of
/// the lines of `src`), or 0 without them.
fn items_to_anchors(
    src: &str,
    style: AnchorStyle,
    parser: MarkdownParser,
    lines: Option<&[usize]>,
) -> Vec<(Anchor, Kind)> {
    let items = match parser {
        MarkdownParser::Pulldown => read_items(src, style),
        _ => match markdown_outline(src) {
            Some(outline) => outline_items(src, style, outline),
            None => read_items(src, style),
        },
    };
    name_items(src, style, items, lines)
}

/// The names of [`markdown_anchor_names_with`]'s anchors of `src` by our
/// reader, from the `outline` it gave of `src`.
pub(super) fn outline_anchor_names(
    src: &str,
    style: AnchorStyle,
    outline: Outline,
) -> Vec<String> {
    let items = outline_items(src, style, outline);
    name_items(src, style, items, None)
        .into_iter()
        .map(|(a, _)| a.name)
        .collect()
}

/// The anchors `items` (read from `src`) name in `style`, each at its
/// line in `lines` (the starts of the lines of `src`), or 0 without
/// them.
fn name_items(
    src: &str,
    style: AnchorStyle,
    items: Vec<Item>,
    lines: Option<&[usize]>,
) -> Vec<(Anchor, Kind)> {
    let line_of = |offset: usize| {
        lines.map_or(0, |lines| {
            u32::try_from(lines.partition_point(|&s| s <= offset))
                .unwrap_or(u32::MAX)
        })
    };
    let mut slugger = Slugger::new(style);
    if let AnchorStyle::Mkdocs(_) = style {
        // `toc` collects every id of the page before it names a heading.
        for item in &items {
            if let Item::Heading(Heading { id: Some(id), .. }) = item {
                slugger.reserve(id);
            }
        }
    }
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Named(offset, name) => {
                out.push((
                    Anchor { name, line: line_of(offset) },
                    Kind::Other,
                ));
            }
            Item::Heading(h) => {
                let line = line_of(h.start);
                // Docusaurus' theme renders a level-1 heading without its
                // id (theme-classic `Heading`: "H1 headings do not need an
                // id because they don't appear in the TOC"), though its
                // slug is still taken.
                let unnamed = h.h1 && style == AnchorStyle::Docusaurus;
                let comment = (style == AnchorStyle::Docusaurus
                    && h.id.is_none())
                .then(|| comment_id(&src[h.content.clone()?]))
                .flatten();
                if let Some(id) = h.id.as_ref().or(comment.as_ref()) {
                    slugger.reserve(id);
                    let shown = matches!(
                        style,
                        AnchorStyle::Github | AnchorStyle::Gitlab
                    );
                    let kind =
                        if shown { Kind::Lenient } else { Kind::Heading };
                    if !unnamed {
                        out.push((Anchor { name: id.clone(), line }, kind));
                    }
                    if !shown {
                        // The others use the id instead of a slug.
                        continue;
                    }
                }
                if let AnchorStyle::Jekyll(k) = style
                    && !k.auto_ids
                {
                    continue;
                }
                let text = heading_text(style, &h, src);
                let name = slugger.slug(&text);
                // An empty id names nothing (kramdown's GFM parser
                // gives `---` one).
                if !name.is_empty() && !unnamed {
                    out.push((Anchor { name, line }, Kind::Heading));
                }
            }
        }
    }
    out
}

/// A heading as read, before its anchor is named.
struct Heading {
    /// Where it starts in the source.
    start: usize,
    /// Its text, in pieces.
    pieces: Vec<(Piece, String)>,
    /// Its inline content in the source.
    content: Option<Range<usize>>,
    /// Its explicit `{#id}`.
    id: Option<String>,
    /// Whether it is a level-1 heading.
    h1: bool,
    /// The source of its `{...}` attribute block, when it has one.
    attrs: Option<Range<usize>>,
}

/// What a piece of a heading's text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Piece {
    /// Text.
    Text,
    /// A character reference, decoded.
    Reference,
    /// A code span's text.
    Code,
    /// An image's alt text.
    Alt,
}

/// What a document defines, in order.
enum Item {
    Heading(Heading),
    /// An anchor named outright (raw HTML, footnotes), at an offset.
    Named(usize, String),
}

/// The headings, raw HTML ids and footnote ids of `src`, in order.
fn read_items(src: &str, style: AnchorStyle) -> Vec<Item> {
    let mut items = Vec::new();
    let mut html = Vec::new();
    let mut heading: Option<Heading> = None;
    let mut image_depth = 0u32;
    let mut html_block: Option<Range<usize>> = None;
    let mut notes = Footnotes::new(style);
    let parser = Parser::new_ext(src, markdown_options());
    for (event, range) in parser.into_offset_iter() {
        if let Some(h) = &mut heading
            && !matches!(event, Event::End(TagEnd::Heading(_)))
        {
            let c = h.content.get_or_insert(range.clone());
            c.start = c.start.min(range.start);
            c.end = c.end.max(range.end);
        }
        match event {
            Event::Start(Tag::Heading { level, id, classes, attrs }) => {
                let has_attrs =
                    id.is_some() || !classes.is_empty() || !attrs.is_empty();
                heading = Some(Heading {
                    start: range.start,
                    pieces: Vec::new(),
                    content: None,
                    id: id.map(|s| s.to_string()),
                    h1: level == pulldown_cmark::HeadingLevel::H1,
                    attrs: has_attrs.then(|| range.clone()),
                });
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut h) = heading.take() {
                    h.attrs = h.attrs.and_then(|r| {
                        attribute_range(src, r.start..range.end)
                    });
                    items.push(Item::Heading(h));
                }
            }
            Event::Start(Tag::Image { .. }) => image_depth += 1,
            Event::End(TagEnd::Image) => {
                image_depth = image_depth.saturating_sub(1)
            }
            Event::Text(t) => {
                if let Some(h) = &mut heading {
                    let source = &src[range.clone()];
                    let piece = if image_depth > 0 {
                        Piece::Alt
                    } else if source.starts_with('&') && source != &*t {
                        Piece::Reference
                    } else {
                        Piece::Text
                    };
                    h.pieces.push((piece, t.into_string()));
                }
            }
            Event::Code(t) => {
                if let Some(h) = &mut heading {
                    let piece =
                        if image_depth > 0 { Piece::Alt } else { Piece::Code };
                    h.pieces.push((piece, t.into_string()));
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(h) = &mut heading {
                    h.pieces.push((Piece::Text, "\n".to_owned()));
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
            Event::FootnoteReference(label) => {
                notes.reference(&label, range.start, &mut html);
            }
            Event::Start(Tag::FootnoteDefinition(label)) => {
                notes.definition(&label, range.start, &mut html);
            }
            _ => {}
        }
        items.extend(html.drain(..).map(|(at, name)| Item::Named(at, name)));
    }
    items
}

/// [`read_items`] from the outline our own reader gives of `src`: the
/// same items, in the same order (each where pulldown-cmark's events
/// give it: a heading at its end, after what its text holds).
fn outline_items(
    src: &str,
    style: AnchorStyle,
    outline: Outline,
) -> Vec<Item> {
    let mut keyed: Vec<(usize, Item)> = Vec::new();
    for h in outline.headings {
        let attrs = h
            .has_attributes
            .then(|| attribute_range(src, h.start..h.end))
            .flatten();
        let pieces = h
            .pieces
            .into_iter()
            .map(|(kind, text)| {
                let piece = match kind {
                    PieceKind::Text => Piece::Text,
                    PieceKind::Reference => Piece::Reference,
                    PieceKind::Code => Piece::Code,
                    PieceKind::Alt => Piece::Alt,
                };
                (piece, text)
            })
            .collect();
        let heading = Heading {
            start: h.start,
            pieces,
            content: h.content,
            id: h.id,
            h1: h.level == 1,
            attrs,
        };
        keyed.push((h.end, Item::Heading(heading)));
    }
    let mut named = Vec::new();
    let mut notes = Footnotes::new(style);
    for f in &outline.footnotes {
        if f.definition {
            notes.definition(&f.label, f.at, &mut named);
        } else {
            notes.reference(&f.label, f.at, &mut named);
        }
    }
    for span in &outline.html {
        if let Some(html) = src.as_bytes().get(span.range()) {
            scan_ids(html, span.start, &mut named);
        }
    }
    keyed.extend(
        named.into_iter().map(|(at, name)| (at, Item::Named(at, name))),
    );
    // Stable: what one place names stays in the order named.
    keyed.sort_by_key(|(at, _)| *at);
    keyed.into_iter().map(|(_, item)| item).collect()
}

/// The range of the `{...}` attribute block (see [`attribute_block`]) of
/// the heading at `heading` in `src`.
fn attribute_range(src: &str, heading: Range<usize>) -> Option<Range<usize>> {
    let text = src.get(heading.clone())?;
    let block = attribute_block(text)?;
    let start = heading.start + text.rfind(block)?;
    Some(start..start + block.len())
}

/// The text of heading `h` as `style` reads it (see [`slug`]). An
/// image's alt text is no text of a rendered heading, but Docusaurus
/// reads the Markdown tree (`mdast-util-to-string`, which keeps it).
fn heading_text(style: AnchorStyle, h: &Heading, src: &str) -> String {
    let text = |alt: bool| -> String {
        let pieces = h.pieces.iter().filter(|(p, _)| alt || *p != Piece::Alt);
        pieces.map(|(_, t)| t.as_str()).collect()
    };
    let raw = || h.content.clone().map_or("", |r| &src[r]);
    match style {
        AnchorStyle::Github | AnchorStyle::Gitlab => {
            let mut text = text(false);
            if let Some(r) = h.attrs.clone() {
                text.push(' ');
                text.push_str(&src[r]);
            }
            text
        }
        AnchorStyle::Docusaurus => text(true),
        AnchorStyle::Hugo(_) => raw().to_owned(),
        AnchorStyle::Jekyll(k) => {
            let pieces: Vec<(Piece, &str)> =
                h.pieces.iter().map(|(p, t)| (*p, t.as_str())).collect();
            k.text_of(&pieces, raw())
        }
        _ => text(false),
    }
}

/// The ids a renderer gives footnotes, per label and reference.
struct Footnotes {
    style: AnchorStyle,
    /// Per label (as written, lowercased where the renderer lowers it):
    /// its number (order of first mention) and references so far.
    seen: HashMap<String, (usize, usize)>,
    /// Whether GitHub's footnotes heading was named.
    section: bool,
}

impl Footnotes {
    fn new(style: AnchorStyle) -> Footnotes {
        Footnotes { style, seen: HashMap::new(), section: false }
    }

    /// The label's key, and its number and references so far (counting
    /// this one when `is_reference`).
    fn count(
        &mut self,
        label: &str,
        is_reference: bool,
    ) -> (String, usize, usize) {
        let key = match self.style {
            AnchorStyle::Github
            | AnchorStyle::Gitlab
            | AnchorStyle::Docusaurus => label.to_lowercase(),
            _ => label.to_owned(),
        };
        let next = self.seen.len() + 1;
        let entry = self.seen.entry(key.clone()).or_insert((next, 0));
        entry.1 += usize::from(is_reference);
        (key, entry.0, entry.1)
    }

    /// The ids of a reference to `label`:
    ///
    /// - GitHub and GitLab: `fnref-L`, then `fnref-L-2`, … (cmark-gfm,
    ///   comrak; GitHub adds `user-content-`, see
    ///   [`AnchorStyle::fragment_targets`]);
    /// - Docusaurus: remark-rehype's `user-content-fnref-L`, `…-L-2`
    ///   (mdast-util-to-hast, label lowercased), as served;
    /// - MkDocs: `fnref:L`, then `fnref2:L`, … (Python-Markdown
    ///   `footnotes.py`, `makeFootnoteRefId`);
    /// - Hugo: `fnref:N`, then `fnref1:N`, … with N the footnote's
    ///   number, not its label (goldmark's footnote extension);
    /// - Jekyll: `fnref:L`, then `fnref:L:1`, … (kramdown
    ///   `convert_footnote`).
    fn reference(
        &mut self,
        label: &str,
        at: usize,
        out: &mut Vec<(usize, String)>,
    ) {
        let (key, number, k) = self.count(label, true);
        let id = match self.style {
            AnchorStyle::Github | AnchorStyle::Gitlab if k == 1 => {
                format!("fnref-{key}")
            }
            AnchorStyle::Github | AnchorStyle::Gitlab => {
                format!("fnref-{key}-{k}")
            }
            AnchorStyle::Docusaurus if k == 1 => {
                format!("user-content-fnref-{key}")
            }
            AnchorStyle::Docusaurus => format!("user-content-fnref-{key}-{k}"),
            AnchorStyle::Mkdocs(_) if k == 1 => format!("fnref:{key}"),
            AnchorStyle::Mkdocs(_) => format!("fnref{k}:{key}"),
            AnchorStyle::Hugo(_) if k == 1 => format!("fnref:{number}"),
            AnchorStyle::Hugo(_) => format!("fnref{}:{number}", k - 1),
            AnchorStyle::Jekyll(_) if k == 1 => format!("fnref:{key}"),
            AnchorStyle::Jekyll(_) => format!("fnref:{key}:{}", k - 1),
            _ => return,
        };
        out.push((at, id));
    }

    /// The ids of the definition of `label`: `fn-L` (GitHub, GitLab,
    /// with their footnotes heading `footnote-label`),
    /// `user-content-fn-L` (Docusaurus, and `footnote-label`), `fn:L`
    /// (MkDocs, Jekyll), `fn:N` (Hugo).
    fn definition(
        &mut self,
        label: &str,
        at: usize,
        out: &mut Vec<(usize, String)>,
    ) {
        let (key, number, _) = self.count(label, false);
        let id = match self.style {
            AnchorStyle::Github | AnchorStyle::Gitlab => format!("fn-{key}"),
            AnchorStyle::Docusaurus => format!("user-content-fn-{key}"),
            AnchorStyle::Mkdocs(_) | AnchorStyle::Jekyll(_) => {
                format!("fn:{key}")
            }
            AnchorStyle::Hugo(_) => format!("fn:{number}"),
            _ => return,
        };
        out.push((at, id));
        if !self.section
            && matches!(
                self.style,
                AnchorStyle::Github | AnchorStyle::Docusaurus
            )
        {
            self.section = true;
            out.push((at, "footnote-label".to_owned()));
        }
    }
}

/// The `{...}` attribute block at the end of a heading's source, as
/// GitHub and GitLab show it as text: from the last `{` before the last
/// `}`.
fn attribute_block(heading_src: &str) -> Option<&str> {
    let close = heading_src.rfind('}')?;
    let open = heading_src[..close].rfind('{')?;
    Some(&heading_src[open..=close])
}

/// The id a Docusaurus heading names in its trailing MDX comment,
/// `{/* #id */}`: mdx-loader's `headings` plugin takes the comment's
/// first word when it starts with `#`, and only from a lone comment
/// (`{/* #a */ /* #b */}` names none). Its HTML form, `<!-- #id -->`,
/// names nothing under the default `markdown.format: 'mdx'`, which
/// reads `.md` files as MDX too: Docusaurus 3.10 gives `## Notes <!--
/// #x -->` the id `notes-`.
fn comment_id(heading_src: &str) -> Option<String> {
    let s = heading_src.trim_end().strip_suffix("*/}")?;
    let inner = &s[s.rfind("{/*")? + 3..];
    if inner.contains("*/") {
        return None;
    }
    let id = inner.split_whitespace().next()?.strip_prefix('#')?;
    (!id.is_empty()).then(|| id.to_owned())
}

/// An MDX document whose ATX headings' trailing `{/* #id */}` comments
/// are written as the `{#id}` they mean to Docusaurus (padded with
/// spaces, so every offset holds): the MDX reader blanks a comment as an
/// expression, and keeps `{#id}`.
pub(crate) fn mdx_comment_ids(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("*/}") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end();
        let heading = body.trim_start_matches(' ');
        let is_heading = body.len() - heading.len() <= 3
            && heading.starts_with('#')
            && heading.trim_start_matches('#').starts_with([' ', '\t']);
        match (is_heading, comment_id(body), body.rfind("{/*")) {
            (true, Some(id), Some(open)) if body.ends_with("*/}") => {
                let attr = format!("{{#{id}}}");
                let width = body.len() - open;
                out.push_str(&body[..open]);
                out.push_str(&attr);
                out.push_str(&" ".repeat(width.saturating_sub(attr.len())));
                out.push_str(&line[body.len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out.into()
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
