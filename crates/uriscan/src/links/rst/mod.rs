//! The links of a reStructuredText document, as docutils and Sphinx read
//! them: a reader of our own, for links only.
//!
//! A line-oriented block pass ([`blocks`]) finds sections, explicit markup
//! (targets, directives, comments) and literal blocks, which hold no
//! links; an inline pass ([`inline`]) looks in the text of the rest for
//! the few bytes that can start a link. References by name are resolved
//! at the end ([`resolve`]), once every target of the document is known.

mod blocks;
mod directives;
#[cfg(any(test, feature = "check"))]
mod glossary;
#[cfg(any(test, feature = "internals"))]
pub(crate) mod hooks;
mod inline;
mod kind;
mod lines;
mod names;
mod resolve;

pub use kind::RstKind;

#[cfg(feature = "check")]
pub(crate) use glossary::terms as glossary_terms;

// What MyST shares with reStructuredText: Sphinx's roles, and names and
// ids as docutils makes them.
pub(super) use inline::{Role, role_kind, role_link};
pub(super) use names::{make_id, normalize_name};

use crate::Span;

use super::{Kind, RawLink};
use lines::Lines;
use resolve::Targets;

/// Reads `src`, pushing its links; returns the text spans where
/// standalone URIs are to be looked for.
pub(crate) fn read(src: &str, out: &mut Vec<RawLink>) -> Vec<Span> {
    let mut reader = Reader::new(src, out);
    reader.run();
    reader.text
}

/// [`read`] with the inline pass's fast path swapped for `next_mark`:
/// the same links, whichever finds the marks.
#[cfg(test)]
fn read_with(
    src: &str,
    out: &mut Vec<RawLink>,
    next_mark: fn(&[u8]) -> Option<usize>,
) -> Vec<Span> {
    let mut reader = Reader::new(src, out);
    reader.next_mark = next_mark;
    reader.run();
    reader.text
}

/// The fragment ids the built HTML of `src` has: section ids as
/// docutils makes them, internal targets and the `:name:` of directives.
/// With `sphinx`, an id made for want of a name (a second section of the
/// same title) is `idN`, as Sphinx's `auto_id_prefix` makes it, not
/// docutils' `title-1`.
#[cfg(any(test, feature = "check", feature = "internals"))]
pub(crate) fn anchors(src: &str, sphinx: bool) -> Vec<String> {
    let mut out = vec![];
    let mut reader = Reader::new(src, &mut out);
    reader.targets.sphinx = sphinx;
    reader.run();
    reader.targets.ids
}

/// The labels `src` defines for `:ref:` (names lowercased, as Sphinx
/// keeps them) and the id each lands on; then its section titles
/// (normalized), which are labels too with Sphinx's autosectionlabel.
#[cfg(any(test, feature = "check", feature = "internals"))]
pub(crate) fn labels(src: &str) -> (Vec<(String, String)>, Vec<String>) {
    let mut out = vec![];
    let mut reader = Reader::new(src, &mut out);
    reader.run();
    (reader.targets.labels, reader.targets.sections)
}

/// The key a `:ref:` label is looked up by, as Sphinx keeps labels:
/// whitespace runs to one space, lowercase.
#[cfg(feature = "check")]
pub(crate) fn label_key(label: &str) -> String {
    names::normalize_name(label)
}

/// The state of one document's reading.
struct Reader<'s, 'o> {
    src: &'s str,
    lines: Lines,
    out: &'o mut Vec<RawLink>,
    /// Text runs for the finder of standalone URIs.
    text: Vec<Span>,
    targets: Targets,
    /// Where the inline pass looks for its next construct (the tests
    /// swap in a byte-by-byte reference).
    next_mark: fn(&[u8]) -> Option<usize>,
}

impl<'s, 'o> Reader<'s, 'o> {
    fn new(src: &'s str, out: &'o mut Vec<RawLink>) -> Self {
        Reader {
            src,
            lines: Lines::new(src.as_bytes()),
            out,
            text: vec![],
            targets: Targets::default(),
            next_mark: inline::next_mark,
        }
    }

    fn run(&mut self) {
        self.blocks(0, self.lines.len());
        self.resolve();
    }

    /// Pushes a link of `kind` written at `span`, whose reference is
    /// `link`.
    fn push(&mut self, kind: RstKind, span: Span, link: &str) {
        let raw = &self.src.as_bytes()[span.range()];
        self.out.push(RawLink::new(Kind::Rst(kind), span, raw, link, None));
    }
}

#[cfg(test)]
mod tests;
