//! What the rest of the crate reads of a document with the readers of
//! links, so that `checking::anchors` finds the same headings and ids,
//! and `warc` the same charset, as extraction does.

#[cfg(feature = "check")]
use super::tokenizer::{StartTag, TagSink, for_each_tag};

#[cfg(feature = "warc")]
pub(crate) use super::charset::charset_param;
#[cfg(feature = "check")]
pub(crate) use super::charset::line_starts;

/// The ids of an AsciiDoc document (read with the attributes `preset`),
/// as extraction reads them.
#[cfg(feature = "check")]
pub(crate) fn asciidoc_anchors(
    text: &str,
    preset: &[(String, String)],
) -> Vec<String> {
    super::asciidoc::anchors(text, preset)
}

/// The options extraction parses Markdown with: CommonMark with the
/// GitHub extensions and front matter.
#[cfg(feature = "check")]
pub(crate) fn markdown_options() -> pulldown_cmark::Options {
    super::markdown::options(true)
}

/// What the anchors of a Markdown document need of it, read by our own
/// reader with extraction's options; `None` where it declines the
/// document (pulldown-cmark reads it then).
#[cfg(feature = "check")]
pub(crate) fn markdown_outline(src: &str) -> Option<Outline> {
    super::commonmark::outline::read(src).ok()
}

#[cfg(feature = "check")]
pub(crate) use super::commonmark::outline::{Outline, PieceKind};

/// Calls `f` with the offset of each start tag of `html` and the decoded
/// value of its `id`, then of its `name` when the tag is an `a`.
#[cfg(feature = "check")]
pub(crate) fn for_each_id_or_name(html: &[u8], f: impl FnMut(usize, &[u8])) {
    for_each_tag(html, &mut Ids(f));
}

/// The sink of [`for_each_id_or_name`].
#[cfg(feature = "check")]
struct Ids<F>(F);

#[cfg(feature = "check")]
impl<F: FnMut(usize, &[u8])> TagSink for Ids<F> {
    fn start_tag(&mut self, tag: &StartTag) {
        let name = (tag.name == b"a").then(|| tag.attr(b"name"));
        for attr in [tag.attr(b"id"), name.flatten()].into_iter().flatten() {
            (self.0)(tag.start, &attr.value);
        }
    }
    fn wants_value(&self, name: &[u8]) -> bool {
        name == b"id" || name == b"name"
    }
}

/// What [`for_each_id_or_name`] finds in a page, found in the page read
/// in pieces: see [`IdsInPieces::feed`].
#[cfg(feature = "remote")]
#[derive(Debug, Default)]
pub(crate) struct IdsInPieces(super::tokenizer::Chunked);

#[cfg(feature = "remote")]
impl IdsInPieces {
    /// Calls `f` with each `id` (and `a@name`) value of the tags that end
    /// in `html`: the bytes kept from the last call, then the new ones.
    /// Returns how many bytes at the start of `html` are done with; the
    /// rest goes again before the next bytes. `last`: the page ends here.
    pub(crate) fn feed(
        &mut self,
        html: &[u8],
        last: bool,
        mut f: impl FnMut(&[u8]),
    ) -> usize {
        self.0.feed(html, &mut Ids(|_, value: &[u8]| f(value)), last)
    }
}
