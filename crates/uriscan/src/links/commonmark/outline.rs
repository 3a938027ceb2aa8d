//! What the anchors of a document need of it, read in the same passes as
//! its links: each heading (its level, place and `{#id}`, and its text as
//! pulldown-cmark's Text and Code events give it), the footnote
//! definitions and references, and the raw HTML. `checking::anchors`
//! names the anchors from it.
#![cfg_attr(not(feature = "check"), allow(dead_code))]

use std::ops::Range;

use super::block::{self, Document, HeadingMark};
use super::inline::{Item, What, for_each_line};
use super::{Declined, declined, entity, line_ends};
#[cfg(feature = "check")]
use super::{RawLink, Regions};
use crate::Span;

/// What a piece of a heading's text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PieceKind {
    /// Text: escapes undone.
    Text,
    /// A character reference, decoded.
    Reference,
    /// A code span's text.
    Code,
    /// The text or code of an image's alt text.
    Alt,
}

/// A heading.
#[derive(Clone, Debug)]
pub(crate) struct Heading {
    /// Where its first line starts (after indentation) and its last line
    /// ends.
    pub start: usize,
    pub end: usize,
    /// 1 to 6.
    pub level: u8,
    /// Its inline content in the source, from its first inline to its
    /// last; none when it has none.
    pub content: Option<Range<usize>>,
    /// Its text, in pieces: a soft or hard line break is a text `\n`.
    pub pieces: Vec<(PieceKind, String)>,
    /// The `#id` of its attribute block (`{#id .class}`).
    pub id: Option<String>,
    /// Whether its attribute block holds any attribute.
    pub has_attributes: bool,
}

/// A footnote's definition or a reference to it.
#[derive(Clone, Debug)]
pub(crate) struct Footnote {
    /// Where it starts (its `[^`).
    pub at: usize,
    /// Its label as written.
    pub label: String,
    pub definition: bool,
}

/// What the anchors of a document need of it.
#[derive(Debug, Default)]
pub(crate) struct Outline {
    /// The headings, in document order.
    pub headings: Vec<Heading>,
    /// The footnote definitions and references, in document order.
    pub footnotes: Vec<Footnote>,
    /// The raw HTML, inline or in blocks, in document order.
    pub html: Vec<Span>,
}

/// The outline of `src`, read with the GitHub extensions as
/// [`super::read`] reads its links; declined where that read declines,
/// and where a heading's code span crosses a line end inside a container
/// or in a document whose lines end in `\r\n` (whose code text
/// pulldown-cmark gives with the container markers skipped or two
/// spaces).
pub(crate) fn read(src: &str) -> Result<Outline, Declined> {
    let mut recorder = Recorder::default();
    let regions =
        super::read_recording(src, true, &mut vec![], Some(&mut recorder))?;
    recorder.finish(regions.html)
}

/// [`super::read`] with the GitHub extensions, and the outline that
/// [`read`] gives of `src`, from the same passes: `None` where [`read`]
/// declines but the links are read.
#[cfg(feature = "check")]
pub(crate) fn read_with_links(
    src: &str,
    links: &mut Vec<RawLink>,
) -> Result<(Regions, Option<Outline>), Declined> {
    // Every block's inlines are read, for the links.
    let mut recorder = Recorder { with_links: true, ..Recorder::default() };
    let regions =
        super::read_recording(src, true, links, Some(&mut recorder))?;
    let outline = recorder.finish(regions.html.clone()).ok();
    Ok((regions, outline))
}

/// What the inline pass records for the outline.
#[derive(Debug, Default)]
pub(super) struct Recorder {
    headings: Vec<Heading>,
    /// Whether each heading is inside a container.
    nested: Vec<bool>,
    /// The headings that have inlines: their block's index and theirs,
    /// in order; and the next of them to meet.
    blocks: Vec<(usize, usize)>,
    next: usize,
    /// The heading whose inlines are being read.
    current: Option<usize>,
    /// Each open link or image: whether it is an image, and for a
    /// reference the end of the range pulldown-cmark gives it.
    opened: Vec<(bool, Option<usize>)>,
    images: usize,
    footnotes: Vec<Footnote>,
    /// The document's lines end in `\r\n`.
    crlf: bool,
    declined: Option<Declined>,
    /// The links are read too: no block is skipped.
    with_links: bool,
}

impl Recorder {
    /// The outline recorded, with the document's raw HTML `html`.
    fn finish(self, html: Vec<Span>) -> Result<Outline, Declined> {
        if let Some(d) = self.declined {
            return Err(d);
        }
        let Recorder { headings, mut footnotes, .. } = self;
        // The definitions, found by the block pass, among the references.
        footnotes.sort_by_key(|f| f.at);
        Ok(Outline { headings, footnotes, html })
    }

    /// Takes the headings and footnote definitions the block pass found
    /// in `src`; `crlf` when the document's lines end in `\r\n`.
    pub(super) fn start(
        &mut self,
        src: &str,
        document: &mut Document,
        crlf: bool,
    ) {
        self.crlf = crlf;
        for mark in std::mem::take(&mut document.headings) {
            let HeadingMark { start, end, level, block, attributes, nested } =
                mark;
            let (id, has_attributes) = attributes
                .and_then(|(open, close)| src.get(open + 1..close))
                .map_or((None, false), parse_attributes);
            if let Some(b) = block {
                self.blocks.push((b, self.headings.len()));
            }
            self.nested.push(nested);
            self.headings.push(Heading {
                start,
                end,
                level,
                content: None,
                pieces: vec![],
                id,
                has_attributes,
            });
        }
        let starts = std::mem::take(&mut document.footnote_starts);
        self.footnotes = document
            .footnotes
            .iter()
            .zip(starts)
            .map(|(label, at)| Footnote {
                at,
                label: label.clone(),
                definition: true,
            })
            .collect();
    }

    /// Whether the outline needs nothing of block `k` (`b`), whose
    /// inlines, if any, are read next: its links and text are dropped,
    /// so only a heading's inlines, raw HTML, and what may hold inline
    /// HTML or a footnote reference (a `<`, a `[^`) are read. None is
    /// skipped when the links are read too.
    pub(super) fn skips(
        &mut self,
        bytes: &[u8],
        k: usize,
        b: &block::Block,
    ) -> bool {
        match b {
            block::Block::Inlines { p, .. } => {
                self.block(k);
                let inline = bytes.get(p.start..p.end).unwrap_or(&[]);
                !self.with_links
                    && self.current.is_none()
                    && memchr::memchr(b'<', inline).is_none()
                    && memchr::memmem::find(inline, b"[^").is_none()
            }
            block::Block::Html(..) | block::Block::IndentedHtml(..) => false,
            block::Block::Code(_) | block::Block::Text(_) => !self.with_links,
        }
    }

    /// The inlines of block `k` are read next.
    fn block(&mut self, k: usize) {
        self.current = None;
        self.opened.clear();
        self.images = 0;
        if let Some(&(b, h)) = self.blocks.get(self.next)
            && b == k
        {
            self.current = Some(h);
            self.next += 1;
        }
    }

    /// The text of `start..end`, line by line, as [`super::inline`]
    /// hands it to the sink, each line end a text `\n`.
    pub(super) fn text(
        &mut self,
        bytes: &[u8],
        start: usize,
        end: usize,
        lines: Option<&[usize]>,
    ) {
        if self.current.is_none() {
            return;
        }
        for_each_line(bytes, start, end, lines, |from, to, line_end| {
            self.plain(bytes, from, to);
            if line_end.is_some() {
                self.push(PieceKind::Text, "\n".to_owned(), None);
            }
        });
    }

    /// The text of `start..end` within a line: backslash escapes undone
    /// (an escaped character starts a piece, as it starts a Text event)
    /// and character references a piece each.
    fn plain(&mut self, bytes: &[u8], start: usize, end: usize) {
        let (mut from, mut i) = (start, start);
        while i < end {
            match bytes[i] {
                b'\\'
                    if i + 1 < end && bytes[i + 1].is_ascii_punctuation() =>
                {
                    self.piece(bytes, from, i);
                    from = i + 1;
                    i += 2;
                }
                b'&' => {
                    let mut value = String::new();
                    match entity::push_reference(&bytes[i..end], &mut value) {
                        Some(len) => {
                            self.piece(bytes, from, i);
                            let kind = self.kind(PieceKind::Reference);
                            self.push(kind, value, Some(i..i + len));
                            i += len;
                            from = i;
                        }
                        None => i += 1,
                    }
                }
                _ => i += 1,
            }
        }
        self.piece(bytes, from, end);
    }

    /// The text of `start..end` as written, a piece when not empty.
    fn piece(&mut self, bytes: &[u8], start: usize, end: usize) {
        if start < end {
            let text = String::from_utf8_lossy(&bytes[start..end]);
            let kind = self.kind(PieceKind::Text);
            self.push(kind, text.into_owned(), Some(start..end));
        }
    }

    /// `kind`, or alt text inside an image.
    fn kind(&self, kind: PieceKind) -> PieceKind {
        if self.images > 0 { PieceKind::Alt } else { kind }
    }

    /// A piece of the current heading's text, from `range` of the source.
    fn push(
        &mut self,
        kind: PieceKind,
        text: String,
        range: Option<Range<usize>>,
    ) {
        if let Some(r) = range {
            self.include(r);
        }
        if let Some(h) = self.current {
            self.headings[h].pieces.push((kind, text));
        }
    }

    /// `range` is inline content of the current heading.
    fn include(&mut self, range: Range<usize>) {
        let Some(h) = self.current else { return };
        let c = self.headings[h].content.get_or_insert(range.clone());
        c.start = c.start.min(range.start);
        c.end = c.end.max(range.end);
    }

    /// An item of the inline pass.
    pub(super) fn item(&mut self, bytes: &[u8], item: &Item<'_>) {
        let range = item.start..item.end;
        if let What::Footnote = item.what {
            let label = bytes.get(item.start + 2..item.end - 1).unwrap_or(b"");
            self.footnotes.push(Footnote {
                at: item.start,
                label: String::from_utf8_lossy(label).into_owned(),
                definition: false,
            });
        }
        let Some(h) = self.current else { return };
        match &item.what {
            What::Code => {
                let text = self.code_text(bytes, item.start, item.end, h);
                let kind = self.kind(PieceKind::Code);
                self.push(kind, text, Some(range));
            }
            What::Autolink(_) => {
                let text = String::from_utf8_lossy(
                    &bytes[item.start + 1..item.end - 1],
                );
                let kind = self.kind(PieceKind::Text);
                self.push(kind, text.into_owned(), Some(range));
            }
            What::LinkStart { image, .. } => {
                self.include(range);
                self.opened.push((*image, None));
                self.images += usize::from(*image);
            }
            What::RefStart { image, end, .. } => {
                self.include(item.start..*end);
                self.opened.push((*image, Some(*end)));
                self.images += usize::from(*image);
            }
            What::LinkEnd => {
                let (image, reference) = self.opened.pop().unwrap_or_default();
                self.images -= usize::from(image && self.images > 0);
                // A reference's range ends before a collapsed `[]`.
                if reference.is_none() {
                    self.include(range);
                }
            }
            What::Html | What::Delimiter | What::Footnote => {
                self.include(range)
            }
        }
    }

    /// The text of the code span at `start..end` (in heading `h`): line
    /// ends as spaces, and one space each side taken off when both are
    /// there and it is not all spaces.
    fn code_text(
        &mut self,
        bytes: &[u8],
        start: usize,
        end: usize,
        h: usize,
    ) -> String {
        let n = bytes[start..end].iter().take_while(|&&b| b == b'`').count();
        let inner = bytes.get(start + n..end - n).unwrap_or(b"");
        if inner.contains(&b'\n') && (self.nested[h] || self.crlf) {
            self.declined.get_or_insert(declined());
        }
        let text = String::from_utf8_lossy(inner).replace('\n', " ");
        let all_spaces = text.bytes().all(|b| b == b' ');
        if !all_spaces && text.starts_with(' ') && text.ends_with(' ') {
            text[1..text.len() - 1].to_owned()
        } else {
            text
        }
    }

    /// Every offset put back where it stands in the document, whose
    /// `\r` stood before the `\n` at each of `removed`.
    pub(super) fn put_back(&mut self, removed: &[usize]) {
        let at = |offset: usize, start: bool| {
            line_ends::put_back(removed, offset, start)
        };
        for h in &mut self.headings {
            h.start = at(h.start, true);
            h.end = at(h.end, false);
            if let Some(c) = &mut h.content {
                *c = at(c.start, c.start < c.end)..at(c.end, false);
            }
        }
        for f in &mut self.footnotes {
            f.at = at(f.at, true);
        }
    }
}

/// The id of an attribute block's content (`#id .class key=value`, the
/// last `#` word), and whether it holds any attribute: as pulldown-cmark
/// reads it, words of one byte are none.
fn parse_attributes(content: &str) -> (Option<String>, bool) {
    let (mut id, mut any) = (None, false);
    for word in content.split_ascii_whitespace().filter(|w| w.len() > 1) {
        any = true;
        if let Some(rest) = word.strip_prefix('#') {
            id = Some(rest.to_owned());
        }
    }
    (id, any)
}
