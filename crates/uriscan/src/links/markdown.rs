//! The links of a Markdown document: CommonMark with the GitHub
//! extensions, parsed by pulldown-cmark, with each link located at the
//! bytes it was written as.
//!
//! pulldown-cmark gives each link's destination decoded (backslash
//! escapes and entity references, `<...>` destinations with their
//! spaces) and the byte range of the whole construct; the destination's
//! own place inside that range is found here, by the grammar of a link
//! destination (CommonMark 6.3).

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::Span;
use crate::syntax::chars::Table;

use super::link::{Extra, Reference};
use super::md_references::Definitions;
use super::{Kind, RawLink};

/// The parser options: CommonMark, or CommonMark with the GitHub
/// extensions (tables, strikethrough, footnotes, task lists, heading
/// attributes) and front matter.
pub(crate) fn options(gfm: bool) -> Options {
    if !gfm {
        return Options::empty();
    }
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
}

/// Where the rest of a document goes: text runs to the finder, HTML to
/// the HTML reader.
#[derive(Debug, Default)]
pub(crate) struct Regions {
    /// Text outside links, code and HTML (bare URIs are looked for here).
    pub text: Vec<Span>,
    /// Code spans and blocks.
    pub code: Vec<Span>,
    /// Raw HTML, inline or in blocks.
    pub html: Vec<Span>,
}

/// Which reader reads Markdown: both give the same links (pulldown-cmark
/// is the oracle of ours in tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MarkdownParser {
    /// Our own reader, which does only what links need; a document it
    /// does not read exactly yet goes to pulldown-cmark.
    #[default]
    Uriscan,
    /// pulldown-cmark for every document.
    Pulldown,
}

/// Reads `src` with `parser`, pushing its links (in document order,
/// definitions last in the order written) and returning the regions for
/// the other readers.
pub(crate) fn read(
    src: &str,
    gfm: bool,
    parser: MarkdownParser,
    links: &mut Vec<RawLink>,
) -> Regions {
    if parser == MarkdownParser::Uriscan
        && let Ok(regions) = super::commonmark::read(src, gfm, links)
    {
        return regions;
    }
    read_with_pulldown(src, gfm, links)
}

/// [`read`] with the GitHub extensions, and the document's outline
/// (what its anchors need) when our reader reads it, from the same
/// passes; `None` otherwise.
#[cfg(feature = "check")]
pub(crate) fn read_with_outline(
    src: &str,
    parser: MarkdownParser,
    links: &mut Vec<RawLink>,
) -> (Regions, Option<super::commonmark::outline::Outline>) {
    if parser == MarkdownParser::Uriscan
        && let Ok(read) =
            super::commonmark::outline::read_with_links(src, links)
    {
        return read;
    }
    (read_with_pulldown(src, true, links), None)
}

/// [`read`] with pulldown-cmark.
pub(crate) fn read_with_pulldown(
    src: &str,
    gfm: bool,
    links: &mut Vec<RawLink>,
) -> Regions {
    let parser = Parser::new_ext(src, options(gfm));
    // Each definition's label and range, and its destination as written
    // and as the link when it differs (the parser's borrow of the
    // definitions ends here).
    let (labelled, defs): (Vec<(&str, Range<usize>)>, Vec<RawLink>) = parser
        .reference_definitions()
        .iter()
        .map(|(label, d)| {
            let link =
                definition_link(src.as_bytes(), d.span.clone(), &d.dest);
            ((label, d.span.clone()), link)
        })
        .unzip();
    let (mut references, order) = Definitions::new(src, &labelled);
    // The byte ranges of what the parser reported outside containers, in
    // document order: a dropped definition is outside all of them. Only a
    // document with definitions can have dropped ones: the others (most)
    // gather nothing per event.
    let mut blocks: Vec<Range<usize>> = vec![];
    let find_dropped = !labelled.is_empty();
    let mut regions = Regions::default();
    // Inside link text or an image's alt text: no bare URIs there (a link
    // cannot hold another, CommonMark 6.3).
    let mut link_depth = 0u32;
    // The text run being gathered, and the end of the last inner event of
    // each open link (for finding its destination).
    let mut run: Option<Range<usize>> = None;
    let mut html_block: Option<Range<usize>> = None;
    let mut in_code_block = false;
    // Each open link: its text end, the inline link whose destination is
    // found at its end (its kind and link), and whether it is an image.
    type Inline<'s> = Option<(Kind, CowStr<'s>)>;
    let mut opened: Vec<(usize, Inline<'_>, bool)> = vec![];
    // Inside an image's description: what looks like a link there is
    // alt text, not a link (CommonMark 6.4 renders it as plain text).
    let mut image_depth = 0u32;
    let close_run = |run: &mut Option<Range<usize>>, regions: &mut Regions| {
        if let Some(r) = run.take() {
            regions.text.push(Span::new(r.start, r.end));
        }
    };
    for (event, range) in parser.into_offset_iter() {
        if find_dropped
            && !is_container(&event)
            && blocks.last().is_none_or(|b| b.end <= range.start)
        {
            blocks.push(range.clone());
        }
        // Everything inside an open link moves its text end.
        if let Some(top) = opened.last_mut()
            && !matches!(event, Event::End(TagEnd::Link | TagEnd::Image))
        {
            top.0 = top.0.max(range.end);
        }
        match event {
            Event::Text(_) if in_code_block => {
                regions.code.push(Span::new(range.start, range.end));
            }
            Event::Text(_) if link_depth == 0 => match &mut run {
                Some(r) if r.end <= range.start => r.end = range.end,
                Some(_) => {}
                None => run = Some(range),
            },
            Event::Text(_) => {}
            Event::SoftBreak | Event::HardBreak => {
                if let Some(r) = &mut run {
                    r.end = r.end.max(range.end);
                }
            }
            Event::Code(_) => {
                close_run(&mut run, &mut regions);
                regions.code.push(Span::new(range.start, range.end));
            }
            Event::InlineHtml(_) => {
                close_run(&mut run, &mut regions);
                regions.html.push(Span::new(range.start, range.end));
            }
            Event::Html(_) => match &mut html_block {
                Some(r) => r.end = range.end,
                None => html_block = Some(range),
            },
            Event::Start(Tag::HtmlBlock) => close_run(&mut run, &mut regions),
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(r) = html_block.take() {
                    regions.html.push(Span::new(r.start, r.end));
                }
            }
            Event::Start(Tag::CodeBlock(_)) => {
                close_run(&mut run, &mut regions);
                in_code_block = true;
            }
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Start(Tag::MetadataBlock(_)) => {
                close_run(&mut run, &mut regions);
            }
            Event::Start(Tag::Link { link_type, dest_url, id, .. })
            | Event::Start(Tag::Image { link_type, dest_url, id, .. }) => {
                close_run(&mut run, &mut regions);
                let image = src.as_bytes().get(range.start) == Some(&b'!');
                let kind = match (link_type, image) {
                    (LinkType::Autolink | LinkType::Email, _) => {
                        Kind::MdAutolink
                    }
                    (_, true) => Kind::MdImage,
                    (_, false) => Kind::MdLink,
                };
                let link = if link_type == LinkType::Email
                    && !dest_url.starts_with("mailto:")
                {
                    CowStr::from(format!("mailto:{dest_url}"))
                } else {
                    dest_url
                };
                let raw = match link_type {
                    LinkType::Autolink | LinkType::Email => {
                        // `<` and `>` around it.
                        Some(Span::new(
                            range.start + 1,
                            range.end.saturating_sub(1),
                        ))
                    }
                    LinkType::Inline => None, // found at the end
                    _ => Some(Span::new(range.start, range.end)),
                };
                let text_start = range.start + 1 + usize::from(image);
                link_depth += 1;
                if image_depth > 0 {
                    opened.push((text_start, None, image));
                } else if let Some(span) = raw {
                    let written = &src.as_bytes()[span.range()];
                    let extra = is_reference(link_type)
                        .then(|| references.find(&id))
                        .flatten()
                        .and_then(|def| {
                            let line = references.used(def, range.start);
                            Extra::reference(Reference::Use {
                                definition_line: line,
                            })
                        });
                    links
                        .push(RawLink::new(kind, span, written, &link, extra));
                    opened.push((text_start, None, image));
                } else {
                    opened.push((text_start, Some((kind, link)), image));
                }
                image_depth += u32::from(image);
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                link_depth = link_depth.saturating_sub(1);
                let top = opened.pop();
                if top.as_ref().is_some_and(|t| t.2) {
                    image_depth -= 1;
                }
                if let Some((text_end, Some((kind, link)), _)) = top {
                    let span = inline_destination(
                        src.as_bytes(),
                        text_end,
                        range.end,
                    )
                    .unwrap_or(Span::new(range.start, range.start));
                    let written = &src.as_bytes()[span.range()];
                    links.push(RawLink::new(kind, span, written, &link, None));
                }
                if let Some(top) = opened.last_mut() {
                    top.0 = top.0.max(range.end);
                }
            }
            Event::Start(_) | Event::End(_) => {
                close_run(&mut run, &mut regions)
            }
            _ => {}
        }
    }
    close_run(&mut run, &mut regions);
    push_definitions(src, gfm, &references, order, defs, &blocks, links);
    regions
}

/// Pushes the definitions, used or not, in the order written (`order`
/// indexes `defs`), each with the lines of its uses; then those a parser
/// dropped as duplicates (found outside `blocks`, the ranges of the leaf
/// blocks).
pub(super) fn push_definitions(
    src: &str,
    gfm: bool,
    references: &Definitions,
    order: Vec<usize>,
    defs: Vec<RawLink>,
    blocks: &[Range<usize>],
    links: &mut Vec<RawLink>,
) {
    let uses = references.use_lines(src);
    links.reserve(defs.len());
    // Our reader gives its definitions in the order written already.
    if order.iter().enumerate().all(|(i, &k)| i == k) {
        for (mut d, uses) in defs.into_iter().zip(uses) {
            d.set_extra(Extra::reference(Reference::Definition { uses }));
            links.push(d);
        }
    } else {
        let mut defs: Vec<Option<RawLink>> =
            defs.into_iter().map(Some).collect();
        for (k, uses) in order.into_iter().zip(uses) {
            if let Some(mut d) = defs[k].take() {
                d.set_extra(Extra::reference(Reference::Definition { uses }));
                links.push(d);
            }
        }
    }
    for dup in references.duplicates(src, blocks, gfm) {
        let written = &src.as_bytes()[dup.destination.range()];
        let link = String::from_utf8_lossy(written);
        let extra = Extra::reference(Reference::Duplicate {
            first_line: references.line(dup.first),
        });
        links.push(RawLink::new(
            Kind::MdDefinition,
            dup.destination,
            written,
            &link,
            extra,
        ));
    }
}

/// Whether a link of this type takes its destination from a definition.
fn is_reference(link_type: LinkType) -> bool {
    matches!(
        link_type,
        LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut
    )
}

/// Whether the event opens or closes a container block, whose range holds
/// other blocks (and the definitions in them).
fn is_container(event: &Event<'_>) -> bool {
    use pulldown_cmark::{Tag as T, TagEnd as E};
    matches!(
        event,
        Event::Start(
            T::BlockQuote(_)
                | T::List(_)
                | T::Item
                | T::FootnoteDefinition(_)
                | T::DefinitionList
                | T::DefinitionListTitle
                | T::DefinitionListDefinition
        ) | Event::End(
            E::BlockQuote(_)
                | E::List(_)
                | E::Item
                | E::FootnoteDefinition
                | E::DefinitionList
                | E::DefinitionListTitle
                | E::DefinitionListDefinition
        )
    )
}

/// The destination of an inline link as written: after the `](` that
/// follows the link text (which ends at or after `text_end`), up to the
/// end of the construct at `end`.
fn inline_destination(
    src: &[u8],
    text_end: usize,
    end: usize,
) -> Option<Span> {
    let tail = src.get(text_end..end)?;
    let open = memchr::memmem::find(tail, b"](")? + text_end + 2;
    destination_at(src, open, end)
}

/// The definition at `span` in `src`, whose destination reads as `link`:
/// its destination as written (empty at the definition's start when not
/// found).
pub(super) fn definition_link(
    src: &[u8],
    span: Range<usize>,
    link: &str,
) -> RawLink {
    let raw = definition_destination(src, span.clone())
        .unwrap_or(Span::new(span.start, span.start));
    RawLink::new(Kind::MdDefinition, raw, &src[raw.range()], link, None)
}

/// A definition's destination: after the label's `]:` (the first `]` that
/// no backslash escapes, since a label holds no unescaped bracket).
fn definition_destination(src: &[u8], span: Range<usize>) -> Option<Span> {
    let s = src.get(span.clone())?;
    let mut i = s.iter().position(|&b| b == b'[')? + 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            b']' => break,
            _ => i += 1,
        }
    }
    if s.get(i + 1) != Some(&b':') {
        return None;
    }
    destination_at(src, span.start + i + 2, span.end)
}

/// A link destination starting at `at` (after optional whitespace,
/// including one line break): `<...>` or a run of non-space characters
/// with balanced parentheses (CommonMark 6.3).
pub(super) fn destination_at(
    src: &[u8],
    mut at: usize,
    end: usize,
) -> Option<Span> {
    let end = end.min(src.len());
    while at < end && matches!(src[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    if at < end && src[at] == b'<' {
        let mut i = at + 1;
        while i < end && src[i] != b'>' && src[i] != b'\n' {
            i += if src[i] == b'\\' { 2 } else { 1 };
        }
        return Some(Span::new(at + 1, i.min(end)));
    }
    let mut depth = 0u32;
    let mut i = at;
    let dest = &src[..end];
    while i < dest.len() {
        let c = dest[i];
        i += 1;
        // Most bytes of a destination are none of the five below: one
        // lookup passes them (every inline link's destination is read
        // here, as is every definition's).
        if !DEST_STOP.contains(c) {
            continue;
        }
        match c {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            _ => {
                // `)` closing the link, or a space or control.
                i -= 1;
                break;
            }
        }
    }
    Some(Span::new(at, i.min(end)))
}

/// The bytes that end, escape or nest in a link destination: `\`, `(`,
/// `)` and the spaces and controls up to ` `.
const DEST_STOP: Table = Table::range(0, b' ').or(Table::new(b"\\()"));

#[cfg(test)]
mod tests {
    use super::*;

    /// [`destination_at`] for a destination not in `<...>`, byte by byte,
    /// with no table: what the table's loop is held to.
    fn bare_destination(src: &[u8], at: usize, end: usize) -> usize {
        let mut depth = 0u32;
        let mut i = at;
        while i < end {
            match src[i] {
                b'\\' => i += 1,
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                b if b <= b' ' => break,
                _ => {}
            }
            i += 1;
        }
        i.min(end)
    }

    proptest::proptest! {
        #[test]
        fn the_table_loop_is_the_bytewise_one(
            src in proptest::collection::vec(
                proptest::sample::select(
                    &b"a\\\\(()) \t\n\x01<>.\xC3\xA9"[..]),
                0..40),
            at in 0usize..40,
            end in 0usize..48,
        ) {
            let end = end.min(src.len());
            let at = at.min(end);
            // Only a destination that does not open with `<` or space.
            proptest::prop_assume!(
                !matches!(src.get(at), Some(b'<' | b' ' | b'\t' | b'\n' | b'\r'))
            );
            let got = destination_at(&src, at, end).unwrap();
            proptest::prop_assert_eq!(got.start, at);
            proptest::prop_assert_eq!(got.end, bare_destination(&src, at, end));
        }
    }
}
