//! A link as a reader hands it to the extraction driver: before
//! resolution, its text left in the document.

use std::borrow::Cow;

use super::{Extra, Kind};
use crate::Span;

/// A link as a reader found it, before resolution; offsets are in the
/// text the reader read.
///
/// Its raw text is the text at `span`, not a copy: the link is copied
/// once, into its [`Link`]. The link itself is kept only where it differs
/// from the raw text (entities or escapes decoded, `mailto:` added).
#[derive(Clone, Debug)]
pub(crate) struct RawLink {
    pub(super) kind: Kind,
    pub(super) span: Span,
    // A box, not a `String`: it keeps a raw link, of which a crawl holds
    // millions, within the size asserted below.
    pub(super) link: Option<Box<str>>,
    pub(super) extra: Option<Box<Extra>>,
}

// The size that the box above keeps: a raw link grown past it is a cost
// for every link of every page, to be weighed.
const _: () = assert!(std::mem::size_of::<RawLink>() <= 64);

impl RawLink {
    /// A link of `kind` at `span`, whose text there is `raw` and whose
    /// reference is `link`.
    pub(super) fn new(
        kind: Kind,
        span: Span,
        raw: &[u8],
        link: &str,
        extra: Option<Box<Extra>>,
    ) -> RawLink {
        let link = (link.as_bytes() != raw).then(|| link.into());
        RawLink { kind, span, link, extra }
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
