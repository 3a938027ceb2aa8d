//! The format readers, as the driver runs them: each format's reader
//! gathers the raw links of a document, offsets in its decoded text.

use super::commonmark::outline::Outline;
use super::html::{HtmlSource, TextRuns};
use super::{
    Format, Kind, LinkExtractor, Page, RawLink, RstKind, asciidoc, charset,
    generators, html, markdown, myst, rst, tokenizer,
};
use crate::Span;

impl LinkExtractor {
    /// Reads the document's links (offsets in the decoded text), and its
    /// `<base href>`; a Markdown document's outline into `outline` when
    /// it is asked.
    pub(super) fn read<'p>(
        &self,
        page: &Page<'p>,
        out: &mut Vec<RawLink>,
        ids: &mut Option<Vec<String>>,
        outline: Option<&mut Option<Outline>>,
    ) -> (charset::Decoded<'p>, Option<String>) {
        match page.format {
            Format::Html => {
                let declared = page.charset.and_then(|c| {
                    encoding_rs::Encoding::for_label(c.as_bytes())
                });
                let enc = match encoding_rs::Encoding::for_bom(page.bytes) {
                    Some((e, _)) => Some(e),
                    None => {
                        declared.or_else(|| charset::sniff_html(page.bytes))
                    }
                };
                let decoded = match enc {
                    None => charset::Decoded::undeclared(page.bytes),
                    Some(e) if e == encoding_rs::UTF_8 => {
                        charset::Decoded::utf8(page.bytes)
                    }
                    Some(e) => charset::Decoded::decode(page.bytes, e),
                };
                let base = self.read_html(
                    decoded.text.as_bytes(),
                    HtmlSource::Document,
                    out,
                    ids,
                );
                (decoded, base)
            }
            Format::Markdown => {
                let decoded = charset::Decoded::utf8(page.bytes);
                self.read_markdown(decoded.text.as_ref(), out, outline);
                (decoded, None)
            }
            Format::Mdx => {
                let decoded = charset::Decoded::utf8(page.bytes);
                let mdx = generators::mdx::read(decoded.text.as_ref(), out);
                self.read_markdown(&mdx.markdown, out, None);
                (decoded, None)
            }
            Format::Myst => {
                let decoded = charset::Decoded::utf8(page.bytes);
                let settings =
                    page.myst.unwrap_or(myst::MystSettings::lenient());
                self.read_myst(decoded.text.as_ref(), out, settings, 0);
                (decoded, None)
            }
            Format::Rst => {
                let decoded = charset::Decoded::utf8(page.bytes);
                self.read_rst(decoded.text.as_ref(), out);
                (decoded, None)
            }
            Format::AsciiDoc => {
                let decoded = charset::Decoded::utf8(page.bytes);
                let place = (page.url, page.attributes);
                asciidoc::read(&decoded.text, place, out, ids.as_mut());
                (decoded, None)
            }
            Format::Text => {
                // The finder reads the text with U+FFFD for bad bytes, as
                // the other formats do, so that every offset maps back the
                // same way.
                let decoded = charset::Decoded::utf8(page.bytes);
                let text = decoded.text.as_bytes();
                self.find(text, Span::new(0, text.len()), Kind::Text, out);
                (decoded, None)
            }
        }
    }

    /// Reads the links of the Markdown `text`; returns its regions. Its
    /// outline into `outline` when it is asked, with the GitHub
    /// extensions, where our reader reads it.
    fn read_markdown(
        &self,
        text: &str,
        out: &mut Vec<RawLink>,
        outline: Option<&mut Option<Outline>>,
    ) -> markdown::Regions {
        let regions = match outline {
            #[cfg(feature = "check")]
            Some(slot) if self.gfm => {
                let (regions, read) = markdown::read_with_outline(
                    text,
                    self.markdown_parser,
                    out,
                );
                *slot = read;
                regions
            }
            _ => markdown::read(text, self.gfm, self.markdown_parser, out),
        };
        for span in &regions.html {
            self.read_html(
                &text.as_bytes()[span.range()],
                HtmlSource::InMarkdown { offset: span.start },
                out,
                &mut None,
            );
        }
        generators::read_markdown_runs(text, &regions.text, out);
        let directives = generators::read_includes(text, out);
        let mut colons = Colons::new(text.as_bytes());
        for span in &regions.text {
            if colons.any_in(*span) {
                self.find(text.as_bytes(), *span, Kind::Text, out);
            }
        }
        // A directive's line is replaced by the file it names: its URL is
        // no link of the page.
        if !directives.is_empty() {
            out.retain(|l| {
                l.kind != Kind::Text
                    || !directives
                        .iter()
                        .any(|d| d.range().contains(&l.span().start))
            });
        }
        if self.include_code {
            for span in &regions.code {
                self.find(text.as_bytes(), *span, Kind::Code, out);
            }
        }
        regions
    }

    /// Reads the MyST `text`: its Markdown, then MyST's constructs, then
    /// the bodies of its directives (Markdown, and reStructuredText in
    /// `{eval-rst}`), each as a document of its own (`depth` deep in
    /// directives), with the project's `settings`.
    fn read_myst(
        &self,
        text: &str,
        out: &mut Vec<RawLink>,
        settings: &myst::MystSettings,
        depth: usize,
    ) {
        let from = out.len();
        let regions = self.read_markdown(text, out, None);
        let nested = myst::read(text, &regions, (out, from), settings);
        for body in nested.rst {
            let start = out.len();
            self.read_rst(&text[body.range()], out);
            for l in &mut out[start..] {
                l.set_span(l.span().offset(body.start));
            }
        }
        if depth < myst::MAX_DEPTH {
            // A substitution's value is read where its reference stands.
            for reference in nested.substituted {
                let start = out.len();
                self.read_myst(&reference.value, out, settings, depth + 1);
                let value = reference.value.as_str();
                myst::relocate_substituted(
                    value,
                    &mut out[start..],
                    reference.span,
                );
            }
            for body in nested.markdown {
                let start = out.len();
                self.read_myst(&text[body.range()], out, settings, depth + 1);
                for l in &mut out[start..] {
                    l.set_span(l.span().offset(body.start));
                }
            }
        }
    }

    /// Reads the links of the reStructuredText `text`.
    fn read_rst(&self, text: &str, out: &mut Vec<RawLink>) {
        for span in rst::read(text, out) {
            self.find(text.as_bytes(), span, Kind::Rst(RstKind::Uri), out);
        }
    }

    /// Reads the links of `src`, HTML standing at `source`, and its
    /// `<base href>`; the document's anchors into `ids` when it is asked.
    fn read_html(
        &self,
        src: &[u8],
        source: HtmlSource,
        out: &mut Vec<RawLink>,
        ids: &mut Option<Vec<String>>,
    ) -> Option<String> {
        let text_runs = if self.include_text && source == HtmlSource::Document
        {
            TextRuns::Gather
        } else {
            TextRuns::Skip
        };
        let mut sink = html::HtmlLinks::new(src, source, text_runs, out);
        sink.ids = ids.take();
        tokenizer::for_each_tag(src, &mut sink);
        *ids = sink.ids.take();
        let base = sink.base.take();
        let texts = std::mem::take(&mut sink.texts);
        // Text is read only for a whole HTML document (`text` is off inside
        // Markdown), where `src` starts at offset 0.
        for span in texts {
            self.find(src, span, Kind::Text, out);
        }
        base
    }

    /// The URIs the finder finds in `span` of `text`.
    fn find(
        &self,
        text: &[u8],
        span: Span,
        kind: Kind,
        out: &mut Vec<RawLink>,
    ) {
        let hay = &text[span.range()];
        for m in self.finder.find_iter(hay) {
            let s = m.span();
            out.push(RawLink::new(
                kind,
                Span::new(span.start + s.start, span.start + s.end),
                &hay[s.range()],
                m.as_str(),
                None,
            ));
        }
    }
}

/// Where the next `:` of a text stands, for runs asked in document
/// order: the finder's every match holds one, and most of a document's
/// many short runs hold none, which one search forward over the text
/// passes instead of one search per run.
struct Colons<'t> {
    bytes: &'t [u8],
    /// Where the last search started, and the first `:` at or after it.
    from: usize,
    next: Option<usize>,
}

impl<'t> Colons<'t> {
    fn new(bytes: &'t [u8]) -> Self {
        Colons { bytes, from: 0, next: memchr::memchr(b':', bytes) }
    }

    /// Whether `span` holds a `:`.
    fn any_in(&mut self, span: Span) -> bool {
        // Searched again only when the `:` found lies before the run (or
        // the run before the last search, for runs out of order).
        if span.start < self.from || self.next.is_some_and(|c| c < span.start)
        {
            self.from = span.start;
            self.next = self
                .bytes
                .get(span.start..)
                .and_then(|rest| memchr::memchr(b':', rest))
                .map(|i| span.start + i);
        }
        self.next.is_some_and(|c| c < span.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The runs said to hold a `:` are those that hold one, in any
        /// order they are asked.
        #[test]
        fn colons_are_found_in_every_run_that_holds_one(
            text in "[a:\\n]{0,40}",
            runs in proptest::collection::vec((0usize..44, 0usize..12), 0..12),
        ) {
            let bytes = text.as_bytes();
            let mut colons = Colons::new(bytes);
            for (start, len) in runs {
                let start = start.min(bytes.len());
                let end = (start + len).min(bytes.len());
                let holds = bytes[start..end].contains(&b':');
                proptest::prop_assert_eq!(
                    colons.any_in(Span::new(start, end)),
                    holds
                );
            }
        }
    }
}
