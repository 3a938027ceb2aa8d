//! A link as a reader hands it to the extraction driver: before
//! resolution, its text left in the document.

use std::borrow::Cow;

use super::{Extra, Kind};
use crate::Span;

/// A link as a reader found it, before resolution; offsets are in the
/// text the reader read.
///
/// Its raw text is the text at its span, not a copy: the link is copied
/// once, into its [`Link`](super::Link). The link itself is kept only
/// where it differs from the raw text (entities or escapes decoded,
/// `mailto:` added).
///
/// The driver holds every raw link of a document at once, so the common
/// one is small: its span in 32-bit offsets, and what most links lack
/// (a link of its own, extra facts, a span past 4 GiB) behind one box.
#[derive(Clone)]
pub(crate) struct RawLink {
    pub(super) kind: Kind,
    /// The span's offsets, unless `start` is [`WIDE`]: then the span is
    /// in `more`.
    start: u32,
    end: u32,
    more: Option<Box<More>>,
}

/// What few raw links hold, boxed together.
#[derive(Clone, Default)]
struct More {
    link: Option<Box<str>>,
    extra: Option<Extra>,
    /// The span, where an offset does not fit in 32 bits.
    wide: Option<Span>,
}

/// The `start` of a raw link whose span is in its box. No narrow span
/// starts there: a narrow span's end is below it.
const WIDE: u32 = u32::MAX;

// The size that the box above keeps: a raw link grown past it is a cost
// for every link of every page, to be weighed.
const _: () = assert!(std::mem::size_of::<RawLink>() <= 40);

impl RawLink {
    /// A link of `kind` at `span`, whose text there is `raw` and whose
    /// reference is `link`.
    pub(super) fn new(
        kind: Kind,
        span: Span,
        raw: &[u8],
        link: &str,
        extra: Option<Extra>,
    ) -> RawLink {
        let link = (link.as_bytes() != raw).then(|| link.into());
        RawLink::with_link(kind, span, link, extra)
    }

    /// A link of `kind` at `span` whose reference is `link`, or its raw
    /// text when `None`.
    pub(super) fn with_link(
        kind: Kind,
        span: Span,
        link: Option<Box<str>>,
        extra: Option<Extra>,
    ) -> RawLink {
        let mut raw = RawLink { kind, start: 0, end: 0, more: None };
        raw.set_span(span);
        if link.is_some() || extra.is_some() {
            let more = raw.more.get_or_insert_default();
            more.link = link;
            more.extra = extra;
        }
        raw
    }

    /// Where the link's text stands.
    #[inline]
    pub(super) fn span(&self) -> Span {
        if self.start != WIDE {
            return Span {
                start: self.start as usize,
                end: self.end as usize,
            };
        }
        self.wide_span()
    }

    #[cold]
    fn wide_span(&self) -> Span {
        // Set with `WIDE` by `set_span`, and never taken away alone.
        self.more.as_ref().and_then(|m| m.wide).unwrap_or_default()
    }

    /// Moves the link's text to `span`: in 32-bit offsets where they fit,
    /// else in the box, never cut short.
    pub(super) fn set_span(&mut self, span: Span) {
        match narrow(span) {
            Some((start, end)) => {
                (self.start, self.end) = (start, end);
                if let Some(more) = &mut self.more {
                    more.wide = None;
                }
            }
            None => {
                (self.start, self.end) = (WIDE, WIDE);
                self.more.get_or_insert_default().wide = Some(span);
            }
        }
    }

    /// The link, where it differs from its raw text.
    #[inline]
    pub(super) fn link(&self) -> Option<&str> {
        self.more.as_ref()?.link.as_deref()
    }

    /// Sets the link (`None`: its raw text).
    pub(super) fn set_link(&mut self, link: Option<Box<str>>) {
        match (&mut self.more, link) {
            (Some(more), link) => more.link = link,
            (None, None) => {}
            (None, link) => self.more.get_or_insert_default().link = link,
        }
    }

    /// The link's rarer facts, if it has any.
    #[inline]
    pub(super) fn extra(&self) -> Option<&Extra> {
        self.more.as_ref()?.extra.as_ref()
    }

    /// The link's rarer facts, made empty when it has none.
    pub(super) fn extra_mut(&mut self) -> &mut Extra {
        self.more.get_or_insert_default().extra.get_or_insert_default()
    }

    /// Sets the link's rarer facts.
    pub(super) fn set_extra(&mut self, extra: Option<Extra>) {
        match (&mut self.more, extra) {
            (Some(more), extra) => more.extra = extra,
            (None, None) => {}
            (None, extra) => self.more.get_or_insert_default().extra = extra,
        }
    }

    /// Takes the link's rarer facts away.
    pub(super) fn take_extra(&mut self) -> Option<Extra> {
        self.more.as_mut()?.extra.take()
    }
}

/// `span` in 32-bit offsets, if its end fits below [`WIDE`].
fn narrow(span: Span) -> Option<(u32, u32)> {
    let end = u32::try_from(span.end).ok().filter(|&e| e < WIDE)?;
    // `start <= end`, as every span's.
    Some((span.start as u32, end))
}

/// As the fields were written before they were packed: what tests and
/// the differential hooks compare.
impl std::fmt::Debug for RawLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawLink")
            .field("kind", &self.kind)
            .field("span", &self.span())
            .field("link", &self.link())
            .field("extra", &self.extra())
            .finish()
    }
}

/// Bytes of the (decoded, so UTF-8) text as a `str`: the lossy path is
/// only a guard, and the vectorized check of `from_utf8` runs instead of
/// the lossy decoder.
pub(crate) fn text_of(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(span: Span) -> RawLink {
        RawLink::new(Kind::MdLink, span, b"a", "a", None)
    }

    /// A span past 4 GiB is kept whole, in the box, and back in 32 bits
    /// when it moves below again; no offset is ever cut short.
    #[test]
    fn spans_past_four_gib_are_kept_whole() {
        let g4 = 1usize << 32;
        let cases = [
            Span::new(0, 0),
            Span::new(3, 9),
            Span::new(g4 - 2, g4 - 2),
            Span::new(g4 - 3, g4 - 2),
            Span::new(g4 - 2, g4 - 1),
            Span::new(g4 - 1, g4 - 1),
            Span::new(g4 - 1, g4),
            Span::new(g4 - 5, g4 + 5),
            Span::new(g4, g4),
            Span::new(g4 + 7, g4 + 9),
            Span::new(usize::MAX - 1, usize::MAX),
        ];
        for span in cases {
            let mut l = at(span);
            assert_eq!(l.span(), span);
            assert_eq!(l.link(), None);
            assert!(l.extra().is_none());
            l.set_span(Span::new(1, 2));
            assert_eq!(l.span(), Span::new(1, 2));
            l.set_span(span);
            assert_eq!(l.span(), span);
        }
        assert!(narrow(Span::new(g4 - 2, g4 - 2)).is_some());
        assert!(narrow(Span::new(0, g4 - 1)).is_none());
    }

    /// The link and its extra facts are kept beside a wide span, and each
    /// is set and taken alone.
    #[test]
    fn the_link_and_its_extra_share_the_box() {
        let wide = Span::new(1 << 33, (1 << 33) + 4);
        for span in [Span::new(2, 6), wide] {
            let mut l = RawLink::new(Kind::MdLink, span, b"a&b", "a&b", None);
            assert_eq!(l.link(), None);
            l.set_link(Some("x".into()));
            assert_eq!(l.link(), Some("x"));
            l.extra_mut().rel = Some("nofollow".into());
            assert_eq!(
                l.extra().and_then(|e| e.rel.as_deref()),
                Some("nofollow")
            );
            assert_eq!(l.span(), span);
            let extra = l.take_extra();
            assert!(extra.is_some() && l.extra().is_none());
            l.set_extra(extra);
            l.set_link(None);
            assert_eq!(l.link(), None);
            assert!(l.extra().is_some());
            assert_eq!(l.span(), span);
            let l = RawLink::new(Kind::MdLink, span, b"a&amp;b", "a&b", None);
            assert_eq!(l.link(), Some("a&b"));
            assert_eq!(l.span(), span);
        }
    }
}
