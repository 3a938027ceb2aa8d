//! The `substitution` extension: `{{ name }}` in text is replaced by the
//! value of `name` (from `myst_substitutions`), read as Markdown. Its
//! links are the document's, at the reference. A reference whose value
//! is not known offline (a value that is code, a Jinja expression, a
//! name defined elsewhere) is a link of its own, a template, so that it
//! is never dropped in silence.
//!
//! As in myst-parser, a link's destination is never substituted:
//! `[a]({{ base }}/x)` is the link `{{ base }}/x` (or no link, with
//! the blanks), which the check skips as a template.

use crate::Span;

use super::{MystKind, MystSettings, RawLink, link};

/// A substitution reference of a document.
pub(crate) struct Reference {
    /// The reference, `{{` to `}}`.
    pub(crate) span: Span,
    /// The value it is replaced by, to read as MyST.
    pub(crate) value: String,
}

/// The substitution references in the text runs `text` of `src` (none
/// where `skip` says the text is none): those whose value `settings`
/// holds, returned; the others pushed to `out` as links of their own.
pub(super) fn read(
    src: &str,
    text: &[Span],
    settings: &MystSettings,
    out: &mut Vec<RawLink>,
    skip: &dyn Fn(usize) -> bool,
) -> Vec<Reference> {
    let b = src.as_bytes();
    let mut found = vec![];
    // Where the last reference ended: a run is searched from there, as a
    // reference may span runs (`{{ a *b* }}`).
    let mut after = 0;
    for run in text {
        let from = run.start.max(after);
        if from >= run.end {
            continue;
        }
        for open in memchr::memmem::find_iter(&b[from..run.end], b"{{") {
            let open = from + open;
            if open < after || skip(open) {
                continue;
            }
            let Some(close) = close_of(b, open + 2) else { continue };
            let span = Span::new(open, close + 2);
            after = span.end;
            let content = src[open + 2..close].trim();
            let value = settings
                .substitutions
                .iter()
                .find(|(name, _)| name == content)
                .map(|(_, value)| value.clone());
            match value {
                Some(value) => found.push(Reference { span, value }),
                None => {
                    let raw = &src[span.range()];
                    out.push(link(src, MystKind::Substitution, span, raw));
                }
            }
        }
    }
    found
}

/// Where the `}}` that closes a reference opened before `from` stands:
/// the first `}` followed by another, within the paragraph.
fn close_of(b: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let end = at + memchr::memchr(b'}', b.get(at..)?)?;
        if memchr::memmem::find(&b[from..end], b"\n\n").is_some() {
            return None;
        }
        if b.get(end + 1) == Some(&b'}') {
            return Some(end);
        }
        at = end + 2;
    }
}

/// The links read from a reference's value (`links`, offsets in
/// `value`), moved to the reference at `span` of the document: each its
/// link as read there.
pub(crate) fn relocate(value: &str, links: &mut [RawLink], span: Span) {
    for l in links {
        let text = l
            .link()
            .unwrap_or_else(|| value.get(l.span().range()).unwrap_or(""))
            .into();
        l.set_link(Some(text));
        l.set_span(span);
    }
}
