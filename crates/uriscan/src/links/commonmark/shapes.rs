//! The shapes a line's rest may have (CommonMark 4 and 5): each test
//! reads the bytes after the line's container markers and indentation.

use super::{Declined, declined};

/// The end of `start..end` without its trailing spaces and tabs.
pub(super) fn trimmed_end(
    bytes: &[u8],
    start: usize,
    mut end: usize,
) -> usize {
    while end > start && matches!(bytes[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    end
}

/// A line that may be a table's delimiter row: pipes, colons, hyphens
/// and spaces, with a hyphen.
pub(super) fn is_delimiter_row(rest: &[u8]) -> bool {
    rest.contains(&b'-')
        && rest.iter().all(|&b| matches!(b, b'|' | b':' | b'-' | b' ' | b'\t'))
}

/// A setext underline of `byte`: a run of it, then spaces or tabs.
pub(super) fn is_underline(rest: &[u8], byte: u8) -> bool {
    let run = rest.iter().take_while(|&&b| b == byte).count();
    run > 0 && rest[run..].iter().all(|&b| b == b' ' || b == b'\t')
}

/// A thematic break: three or more of `*`, `-` or `_`, spaces between.
pub(super) fn is_thematic_break(rest: &[u8]) -> bool {
    let Some(&c) = rest.first() else { return false };
    if !matches!(c, b'*' | b'-' | b'_') {
        return false;
    }
    let mut count = 0;
    for &b in rest {
        if b == c {
            count += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    count >= 3
}

/// A list item's marker: its length, and whether it is an ordinal other
/// than 1 (which cannot interrupt a paragraph). `None` unless a space, a
/// tab or the line's end follows it.
pub(super) fn list_marker(rest: &[u8]) -> Option<(usize, bool)> {
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (len, other_than_one) = match rest.first()? {
        b'-' | b'*' | b'+' => (1, false),
        _ if (1..=9).contains(&digits)
            && matches!(rest.get(digits), Some(b'.' | b')')) =>
        {
            (digits + 1, &rest[..digits] != b"1")
        }
        _ => return None,
    };
    matches!(rest.get(len), None | Some(b' ' | b'\t'))
        .then_some((len, other_than_one))
}

/// A line that ends a paragraph by opening a leaf block of its own.
pub(super) fn interrupts(rest: &[u8]) -> bool {
    is_thematic_break(rest)
        || atx_heading(rest).is_some()
        || fence_open(rest).is_some()
}

/// An ATX heading's opening: the offset after its `#`s.
pub(super) fn atx_heading(rest: &[u8]) -> Option<usize> {
    let level = rest.iter().take_while(|&&b| b == b'#').count();
    ((1..=6).contains(&level)
        && matches!(rest.get(level), None | Some(b' ' | b'\t')))
    .then_some(level)
}

/// An ATX heading's content as pulldown-cmark bounds it: after the `#`s
/// and spaces or tabs, before trailing spaces (not tabs) and a closing
/// run of `#` after spaces. Declined where a closing run follows markup,
/// which pulldown-cmark trims from the last inline, not the line.
pub(super) fn atx_content(
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Result<(usize, usize), Declined> {
    let mut start = start;
    while start < end && matches!(bytes[start], b' ' | b'\t') {
        start += 1;
    }
    let text = &bytes[start..end];
    let mut limit = text.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    let closer =
        text[..limit].iter().rposition(|&b| b != b'#').map_or(0, |i| i + 1);
    if closer == 0 {
        return Ok((start, start));
    }
    let spaces =
        text[..closer].iter().rev().take_while(|&&b| b == b' ').count();
    if spaces > 0 {
        limit = closer - spaces;
        if text[..limit].iter().any(|b| b"`*_[]<>!\\&~".contains(b)) {
            return Err(declined());
        }
    }
    // A tab there is left to a heading's last inline, not to text.
    if text[..limit].ends_with(b"\t") {
        return Err(declined());
    }
    Ok((start, start + limit))
}

/// A code fence's opening: its byte and length.
pub(super) fn fence_open(rest: &[u8]) -> Option<(u8, usize)> {
    let c = *rest.first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let len = rest.iter().take_while(|&&b| b == c).count();
    if len < 3 || (c == b'`' && rest[len..].contains(&b'`')) {
        return None;
    }
    Some((c, len))
}

/// Whether `rest` closes a fence of `len` bytes `byte`: spaces may
/// follow, not tabs (as pulldown-cmark reads it).
pub(super) fn closes_fence(rest: &[u8], byte: u8, len: usize) -> bool {
    let run = rest.iter().take_while(|&&b| b == byte).count();
    run >= len && rest[run..].iter().all(|&b| b == b' ')
}

/// A task list marker (`[ ]`, `[x]`, `[X]`) and the spaces after it:
/// their length; `rest` the line from the marker with its line end,
/// which may follow the marker.
pub(super) fn task_marker(rest: &[u8]) -> Option<usize> {
    if rest.len() < 4
        || rest[0] != b'['
        || !matches!(rest[1], b' ' | b'\t' | b'x' | b'X')
        || rest[2] != b']'
        || !matches!(rest[3], b' ' | b'\t' | b'\n')
    {
        return None;
    }
    Some(
        3 + rest[3..].iter().take_while(|&&b| b == b' ' || b == b'\t').count(),
    )
}

/// Front matter opening at a block's start, `rest` the line from its
/// fence, `next` the next line's start, as pulldown-cmark finds it: `---`
/// or `+++` alone, a first line neither blank nor closing, and a closing
/// line somewhere after (each line read from its very start).
pub(super) fn opens_metadata(bytes: &[u8], rest: &[u8], next: usize) -> bool {
    let fence = rest[0];
    if !(rest.starts_with(b"---") || rest.starts_with(b"+++"))
        || rest.get(3) == Some(&fence)
        || !rest[3..].iter().all(u8::is_ascii_whitespace)
    {
        return false;
    }
    let mut at = next;
    let mut first = true;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..])
            .map_or(bytes.len(), |k| at + k);
        let line = &bytes[at..end];
        let closed = closes_metadata(line, fence);
        if first && (closed || line.iter().all(u8::is_ascii_whitespace)) {
            return false;
        }
        if closed {
            return true;
        }
        first = false;
        at = end + 1;
    }
    false
}

/// Whether `line` closes front matter opened with `fence`: three of it
/// (or `...` for `---`), then spaces.
pub(super) fn closes_metadata(line: &[u8], fence: u8) -> bool {
    let run = |b: u8| line.iter().take_while(|&&c| c == b).count();
    let n =
        if run(fence) == 3 || fence != b'-' { run(fence) } else { run(b'.') };
    n == 3 && line[3..].iter().all(|&b| b == b' ')
}
