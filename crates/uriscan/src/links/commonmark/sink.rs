//! Where the passes hand what they find: the same links and regions as
//! the pulldown-cmark reader gathers from its events.

use std::borrow::Cow;

use super::super::link::{Extra, Reference};
use super::super::markdown::{Regions, definition_link, push_definitions};
use super::super::md_references::Definitions;
use super::super::{Kind, RawLink};
use super::definitions::Definition;
use crate::Span;

/// An inline link pushed when it closes: its kind, destination as
/// written, and link.
type InlineLink<'s> = (Kind, Span, Cow<'s, str>);

/// The consumer of the passes: it keeps the text run being gathered and
/// the open links, as the pulldown-cmark reader does for its events.
pub(super) struct Sink<'s, 'l> {
    src: &'s str,
    links: &'l mut Vec<RawLink>,
    regions: Regions,
    /// The text run being gathered (start, end).
    run: Option<(usize, usize)>,
    /// Inside link text or alt text: no bare URIs there.
    link_depth: u32,
    /// Inside alt text: links there are not links.
    image_depth: u32,
    /// Each open link: whether it is an image, and the inline link pushed
    /// at its end (its kind, destination and link).
    opened: Vec<(bool, Option<InlineLink<'s>>)>,
    /// The kept definitions (the first of each label), their uses, and
    /// their links in the order written.
    references: Definitions,
    order: Vec<usize>,
    kept: Vec<RawLink>,
    kept_links: Vec<Cow<'s, str>>,
    /// The labels of the footnote definitions, when footnotes are read.
    footnotes: Option<Vec<String>>,
}

impl<'s, 'l> Sink<'s, 'l> {
    pub(super) fn new(
        src: &'s str,
        links: &'l mut Vec<RawLink>,
        definitions: &[Definition<'s>],
    ) -> Self {
        let written: Vec<_> = definitions
            .iter()
            .map(|d| (d.label.clone(), d.start..d.end))
            .collect();
        let (references, kept) = Definitions::first_of_each(src, &written);
        // Those kept are in the order written already.
        let order = (0..kept.len()).collect();
        let kept_links =
            kept.iter().map(|&k| definitions[k].link.clone()).collect();
        let kept = kept
            .iter()
            .map(|&k| {
                let d = &definitions[k];
                definition_link(src.as_bytes(), d.start..d.end, &d.link)
            })
            .collect();
        Sink {
            src,
            links,
            // About a text run in 64 bytes of prose: room made once.
            regions: Regions {
                text: Vec::with_capacity(src.len() / 64),
                ..Regions::default()
            },
            run: None,
            link_depth: 0,
            image_depth: 0,
            opened: vec![],
            references,
            order,
            kept,
            kept_links,
            footnotes: None,
        }
    }

    /// Whether the document keeps any definition (most keep none: no
    /// label need be normalized then).
    pub(super) fn has_definitions(&self) -> bool {
        !self.kept.is_empty()
    }

    /// Reads footnotes, defined with `labels` (`None`: no footnotes).
    pub(super) fn read_footnotes(&mut self, labels: Option<Vec<String>>) {
        self.footnotes = labels;
    }

    /// The labels of the footnote definitions, when footnotes are read.
    pub(super) fn footnotes(&self) -> Option<&[String]> {
        self.footnotes.as_deref()
    }

    /// The definition of `label` as written (normalized here), if one is
    /// kept.
    pub(super) fn find_reference(&self, label: &str) -> Option<usize> {
        self.references.find_written(label)
    }

    /// The regions gathered, the last run closed; the definitions pushed
    /// after the links, those dropped as duplicates (found outside
    /// `blocks`, the leaf blocks' ranges) last.
    pub(super) fn finish(
        mut self,
        gfm: bool,
        blocks: &[std::ops::Range<usize>],
    ) -> Regions {
        self.close();
        push_definitions(
            self.src,
            gfm,
            &self.references,
            self.order,
            self.kept,
            blocks,
            self.links,
        );
        self.regions
    }

    /// Text at `start..end`.
    pub(super) fn text(&mut self, start: usize, end: usize) {
        if self.link_depth > 0 || start >= end {
            return;
        }
        match &mut self.run {
            Some(r) if r.1 <= start => r.1 = end,
            Some(_) => {}
            None => self.run = Some((start, end)),
        }
    }

    /// Whether link or alt text is being read (its text is in no run).
    pub(super) fn in_link(&self) -> bool {
        self.link_depth > 0
    }

    /// Whether a run is open that ends by `at`: text from `at` on carries
    /// it on.
    pub(super) fn run_ends_by(&self, at: usize) -> bool {
        matches!(self.run, Some(r) if r.1 <= at)
    }

    /// An empty text at `at` (what pulldown-cmark gives for an HTML
    /// block's indentation): a run of its own when none is open.
    pub(super) fn empty_text(&mut self, at: usize) {
        if self.link_depth == 0 && self.run.is_none() {
            self.run = Some((at, at));
        }
    }

    /// A line break (soft or hard) ending at `end`.
    pub(super) fn line_break(&mut self, end: usize) {
        if let Some(r) = &mut self.run {
            r.1 = r.1.max(end);
        }
    }

    /// A block or inline element opens or closes: the run ends.
    pub(super) fn close(&mut self) {
        if let Some((s, e)) = self.run.take() {
            self.regions.text.push(Span::new(s, e));
        }
    }

    /// A code span, or a line of a code block.
    pub(super) fn code(&mut self, start: usize, end: usize, in_block: bool) {
        if !in_block {
            self.close();
        }
        self.regions.code.push(Span::new(start, end));
    }

    /// Inline HTML.
    pub(super) fn html(&mut self, start: usize, end: usize) {
        self.close();
        self.regions.html.push(Span::new(start, end));
    }

    /// An autolink at `start..end` (its `<` and `>` included), whose link
    /// is `link`.
    pub(super) fn autolink(&mut self, start: usize, end: usize, link: &str) {
        self.close();
        if self.image_depth == 0 {
            let span = Span::new(start + 1, end - 1);
            let written = &self.src.as_bytes()[span.range()];
            self.links.push(RawLink::new(
                Kind::MdAutolink,
                span,
                written,
                link,
                None,
            ));
        }
    }

    /// An inline link or image opens; its destination as written and its
    /// link are pushed when it closes.
    pub(super) fn link_start(
        &mut self,
        image: bool,
        dest: Span,
        link: Cow<'s, str>,
    ) {
        self.close();
        self.link_depth += 1;
        let kind = if image { Kind::MdImage } else { Kind::MdLink };
        if self.image_depth > 0 {
            self.opened.push((image, None));
        } else {
            self.opened.push((image, Some((kind, dest, link))));
        }
        self.image_depth += u32::from(image);
    }

    /// A reference link or image opens at `start..end` (the whole
    /// construct), its destination that of definition `def`.
    pub(super) fn reference_start(
        &mut self,
        image: bool,
        start: usize,
        end: usize,
        def: usize,
    ) {
        self.close();
        self.link_depth += 1;
        if self.image_depth == 0 {
            let kind = if image { Kind::MdImage } else { Kind::MdLink };
            let span = Span::new(start, end);
            let written = &self.src.as_bytes()[span.range()];
            let line = self.references.used(def, start);
            let extra =
                Extra::reference(Reference::Use { definition_line: line });
            self.links.push(RawLink::new(
                kind,
                span,
                written,
                &self.kept_links[def],
                extra,
            ));
        }
        self.opened.push((image, None));
        self.image_depth += u32::from(image);
    }

    /// The innermost open link closes.
    pub(super) fn link_end(&mut self) {
        self.link_depth = self.link_depth.saturating_sub(1);
        let Some((image, inline)) = self.opened.pop() else { return };
        if image {
            self.image_depth -= 1;
        }
        if let Some((kind, span, link)) = inline {
            let written = &self.src.as_bytes()[span.range()];
            self.links.push(RawLink::new(kind, span, written, &link, None));
        }
        self.close();
    }
}
