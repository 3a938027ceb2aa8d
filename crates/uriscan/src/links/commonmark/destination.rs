//! An inline link's tail after its text's `]`: `(`, destination, title,
//! `)` (CommonMark 6.3).

use std::borrow::Cow;

use super::skip::to_next;
use super::{Declined, declined};
use crate::Span;
use crate::syntax::chars::Table;

/// The bytes where a destination's bare scan stops: spaces and controls
/// (which end it), the escape, the parentheses it balances, and `&`
/// (which may open an entity).
const DEST_STOP: Table = Table::range(0, b' ').or(Table::new(b"\\()&\x7f"));

/// An inline link's tail: its destination as written (as the
/// pulldown-cmark reader locates it), its link, and its end.
pub(super) struct Tail<'s> {
    pub dest: Span,
    pub link: Cow<'s, str>,
    pub end: usize,
}

/// The tail at `at` (just after the `]`), within `..end`; declined when
/// the destination holds what may be an entity.
pub(super) fn inline_tail(
    src: &str,
    at: usize,
    end: usize,
) -> Result<Option<Tail<'_>>, Declined> {
    let bytes = src.as_bytes();
    let s = &bytes[..end];
    if s.get(at) != Some(&b'(') {
        return Ok(None);
    }
    let mut i = skip_space(s, at + 1);
    let (dest_start, dest_end);
    // Whether the destination holds a backslash or an `&`: without
    // either, it is its own link.
    let (mut escaped, mut amp) = (false, false);
    if s.get(i) == Some(&b'<') {
        let mut k = i + 1;
        loop {
            match s.get(k) {
                None | Some(b'\n' | b'<') => return Ok(None),
                Some(b'>') => break,
                Some(b'&') => {
                    amp = true;
                    k += 1;
                }
                Some(b'\\') => {
                    escaped = true;
                    k += escape_len(s, k);
                }
                Some(_) => k += 1,
            }
        }
        (dest_start, dest_end) = (i + 1, k);
        i = k + 1;
    } else {
        let mut k = i;
        let mut depth = 0u32;
        loop {
            k = to_next(&DEST_STOP, s, k, s.len());
            let Some(&b) = s.get(k) else { break };
            match b {
                b'&' => {
                    amp = true;
                    k += 1;
                }
                b'\\' => {
                    escaped = true;
                    k += escape_len(s, k);
                }
                b'(' => {
                    depth += 1;
                    if depth > 32 {
                        return Err(declined());
                    }
                    k += 1;
                }
                b')' if depth == 0 => break,
                b')' => {
                    depth -= 1;
                    k += 1;
                }
                b if b <= b' ' || b == 0x7F => break,
                _ => k += 1,
            }
        }
        if depth != 0 {
            return Ok(None);
        }
        (dest_start, dest_end) = (i, k);
        i = k;
    }
    let spaced = skip_space(s, i);
    if spaced > i && matches!(s.get(spaced), Some(b'"' | b'\'' | b'(')) {
        let close = match s[spaced] {
            b'(' => b')',
            q => q,
        };
        let mut k = spaced + 1;
        loop {
            match s.get(k) {
                None => return Ok(None),
                Some(b'\\') => k += 2,
                Some(&b) if b == close => break,
                Some(b'(') if close == b')' => return Ok(None),
                Some(_) => k += 1,
            }
        }
        i = skip_space(s, k + 1);
    } else {
        i = spaced;
    }
    if s.get(i) != Some(&b')') {
        return Ok(None);
    }
    // Both ends stand beside ASCII bytes: the slice is at char
    // boundaries.
    let raw = src.get(dest_start..dest_end).ok_or_else(declined)?;
    let link =
        if escaped || amp { decode_str(raw)? } else { Cow::Borrowed(raw) };
    // With no backslash, the destination ends where the pulldown-cmark
    // reader's search ends it (at a space, a line end, `)` or `>`): the
    // bytes need not be read again.
    let dest = if !escaped {
        Span::new(dest_start, dest_end)
    } else {
        super::super::markdown::destination_at(bytes, at + 1, i + 1)
            .unwrap_or(Span::new(at + 1, at + 1))
    };
    Ok(Some(Tail { dest, link, end: i + 1 }))
}

/// A destination with its backslash escapes undone (borrowed when it
/// holds none) and its entities (in [`super::entity::decode`]).
pub(super) fn decode(raw: &[u8]) -> Result<Cow<'_, str>, Declined> {
    decode_str(std::str::from_utf8(raw).map_err(|_| declined())?)
}

/// [`decode`] of a `str`.
fn decode_str(raw: &str) -> Result<Cow<'_, str>, Declined> {
    let bytes = raw.as_bytes();
    if memchr::memchr(b'&', bytes).is_some() {
        return match super::entity::decode(bytes) {
            Some(link) => Ok(Cow::Owned(link)),
            None => Err(declined()),
        };
    }
    if memchr::memchr(b'\\', bytes).is_none() {
        return Ok(Cow::Borrowed(raw));
    }
    // Each escaping backslash dropped: the text between them is copied
    // whole (a backslash is ASCII, so every cut is at a char boundary).
    let mut out = String::with_capacity(raw.len());
    let (mut from, mut k) = (0, 0);
    while let Some(n) = memchr::memchr(b'\\', &bytes[k..]) {
        let at = k + n;
        if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) {
            out.push_str(&raw[from..at]);
            from = at + 1;
            k = at + 2;
        } else {
            k = at + 1;
        }
    }
    out.push_str(&raw[from..]);
    Ok(Cow::Owned(out))
}

/// The bytes a backslash at `k` takes: two when it escapes punctuation.
fn escape_len(s: &[u8], k: usize) -> usize {
    if s.get(k + 1).is_some_and(u8::is_ascii_punctuation) { 2 } else { 1 }
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n') {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The decoding the fast paths must agree with: byte by byte, an
    /// escaping backslash dropped; entities are `entity::decode`'s, held
    /// to pulldown-cmark by the differential tests.
    fn reference_decode(raw: &str) -> Option<String> {
        let raw = raw.as_bytes();
        if raw.contains(&b'&') {
            return super::super::entity::decode(raw);
        }
        let mut out = vec![];
        let mut k = 0;
        while k < raw.len() {
            if raw[k] == b'\\'
                && raw.get(k + 1).is_some_and(u8::is_ascii_punctuation)
            {
                k += 1;
            }
            out.push(raw[k]);
            k += 1;
        }
        String::from_utf8(out).ok()
    }

    /// Destination-like text: escapes, entities, parentheses, spaces.
    fn destination_like() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            proptest::sample::select(
                &[
                    "a", "/", "\\", "\\\\", "\\(", "\\a", "&", "&amp;", "&#",
                    "(", ")", " ", "\n", "<", ">", "é", "\"t\"", "'", "%20",
                    "\u{7f}",
                ][..],
            ),
            0..12,
        )
        .prop_map(|p| p.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn decoding_agrees_with_a_byte_loop(raw in destination_like()) {
            prop_assert_eq!(
                decode_str(&raw).ok().map(Cow::into_owned),
                reference_decode(&raw)
            );
        }

        #[test]
        fn a_tail_is_located_as_pulldown_cmarks_reader_locates_it(
            inner in destination_like(),
        ) {
            // `[x]` before the tail, which starts just after the `]`.
            let src = format!("[x]({inner})");
            if let Ok(Some(tail)) = inline_tail(&src, 3, src.len()) {
                let found = super::super::super::markdown::destination_at(
                    src.as_bytes(),
                    4,
                    tail.end,
                )
                .unwrap_or(Span::new(4, 4));
                prop_assert_eq!(tail.dest, found);
            }
        }
    }
}
