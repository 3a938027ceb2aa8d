//! Byte spans into a borrowed input.

use std::ops::Range;

/// A half-open byte range `start..end` into some input, with
/// `start <= end`. It is `Copy`, unlike [`Range`], so component and match
/// types can hand it out freely.
///
/// ```
/// use uriscan::Span;
/// let s = Span::new(7, 18);
/// assert_eq!(&"http://example.com/"[s.range()], "example.com");
/// assert_eq!(s.len(), 11);
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
pub struct Span {
    /// The offset of the first byte.
    pub start: usize,
    /// The offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    ///
    /// # Panics
    ///
    /// When `start > end`.
    #[inline]
    #[track_caller]
    pub fn new(start: usize, end: usize) -> Span {
        assert!(start <= end, "invalid span {start}..{end}");
        Span { start, end }
    }

    /// The span as a [`Range`], for slicing.
    #[inline]
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// The number of bytes covered.
    #[inline]
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The span moved `offset` bytes to the right.
    #[inline]
    pub fn offset(self, offset: usize) -> Span {
        Span { start: self.start + offset, end: self.end + offset }
    }
}

impl From<Span> for Range<usize> {
    fn from(span: Span) -> Range<usize> {
        span.range()
    }
}
