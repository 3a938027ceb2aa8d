//! An inline link's tail after its text's `]`: `(`, destination, title,
//! `)` (CommonMark 6.3).

use super::{Declined, declined};
use crate::Span;

/// An inline link's tail: its destination as written (as the
/// pulldown-cmark reader locates it), its link, and its end.
pub(super) struct Tail {
    pub dest: Span,
    pub link: String,
    pub end: usize,
}

/// The tail at `at` (just after the `]`), within `..end`; declined when
/// the destination holds what may be an entity.
pub(super) fn inline_tail(
    bytes: &[u8],
    at: usize,
    end: usize,
) -> Result<Option<Tail>, Declined> {
    let s = &bytes[..end];
    if s.get(at) != Some(&b'(') {
        return Ok(None);
    }
    let mut i = skip_space(s, at + 1);
    let (dest_start, dest_end);
    if s.get(i) == Some(&b'<') {
        let mut k = i + 1;
        loop {
            match s.get(k) {
                None | Some(b'\n' | b'<') => return Ok(None),
                Some(b'>') => break,
                Some(b'\\')
                    if s.get(k + 1).is_some_and(u8::is_ascii_punctuation) =>
                {
                    k += 2
                }
                Some(_) => k += 1,
            }
        }
        (dest_start, dest_end) = (i + 1, k);
        i = k + 1;
    } else {
        let mut k = i;
        let mut depth = 0u32;
        while let Some(&b) = s.get(k) {
            match b {
                b'\\'
                    if s.get(k + 1).is_some_and(u8::is_ascii_punctuation) =>
                {
                    k += 2
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
    let raw = &s[dest_start..dest_end];
    let link = decode(raw)?;
    let dest = super::super::markdown::destination_at(bytes, at + 1, i + 1)
        .unwrap_or(Span::new(at + 1, at + 1));
    Ok(Some(Tail { dest, link, end: i + 1 }))
}

/// A destination with its backslash escapes undone (and its entities,
/// in [`super::entity::decode`]).
pub(super) fn decode(raw: &[u8]) -> Result<String, Declined> {
    if raw.contains(&b'&') {
        return match super::entity::decode(raw) {
            Some(link) => Ok(link),
            None => Err(declined()),
        };
    }
    let mut out = Vec::with_capacity(raw.len());
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
    String::from_utf8(out).map_err(|_| declined())
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n') {
        i += 1;
    }
    i
}
