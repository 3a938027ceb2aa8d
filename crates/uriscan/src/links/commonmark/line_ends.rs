//! Documents whose lines end in `\r\n`: pulldown-cmark reads such a line
//! end as it reads `\n`, so the reader reads the document with each `\r`
//! before a `\n` taken out, and every offset it finds is put back where
//! the bytes stand in the document.

use super::super::RawLink;
use super::super::markdown::Regions;
use crate::Span;

/// `src` with the `\r` of each `\r\n` taken out, and where each stood in
/// the text that is left (at the `\n` it stood before); `None` when a
/// `\r` ends a line alone, which is not read yet.
pub(super) fn without_cr(src: &str) -> Option<(String, Vec<usize>)> {
    let bytes = src.as_bytes();
    let mut text = Vec::with_capacity(bytes.len());
    let mut removed = vec![];
    let mut from = 0;
    for at in memchr::memchr_iter(b'\r', bytes) {
        if bytes.get(at + 1) != Some(&b'\n') {
            return None;
        }
        text.extend_from_slice(&bytes[from..at]);
        removed.push(text.len());
        from = at + 1;
    }
    text.extend_from_slice(&bytes[from..]);
    // Only ASCII `\r` bytes were taken out of UTF-8.
    String::from_utf8(text).ok().map(|text| (text, removed))
}

/// The offset in the document of offset `at` in the text without `\r`:
/// at a `\n`, an end stands before the `\r` that preceded it and a start
/// after it.
pub(super) fn put_back(removed: &[usize], at: usize, start: bool) -> usize {
    at + removed.partition_point(|&r| r < at || (start && r == at))
}

/// Whether a `\r` was taken out before the `\n` at `at`: a code block's
/// line ends there, and pulldown-cmark gives the `\n` as a text of its
/// own.
pub(super) fn had_cr(removed: &[usize], at: usize) -> bool {
    removed.binary_search(&at).is_ok()
}

/// The links and regions found in the text without `\r`, put back at
/// their offsets in the document; `false` (and nothing put back) where a
/// destination's escape takes the `\n` of a line end, which in the
/// document is the `\r`.
pub(super) fn put_back_all(
    removed: &[usize],
    links: &mut [RawLink],
    regions: &mut Regions,
) -> bool {
    let escaped_line_end = |l: &RawLink| {
        l.span().end > l.span().start && had_cr(removed, l.span().end - 1)
    };
    if links.iter().any(escaped_line_end) {
        return false;
    }
    let span = |s: &mut Span| {
        let start = put_back(removed, s.start, s.start < s.end);
        *s = Span::new(start, put_back(removed, s.end, false));
    };
    links.iter_mut().for_each(|l| {
        let mut moved = l.span();
        span(&mut moved);
        l.set_span(moved);
    });
    for spans in [&mut regions.text, &mut regions.code, &mut regions.html] {
        spans.iter_mut().for_each(span);
    }
    true
}
