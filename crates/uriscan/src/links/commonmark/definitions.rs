//! Link reference definitions (CommonMark 4.7), read as pulldown-cmark
//! reads them: `[label]:`, a destination (on the label's line or the
//! next), and an optional title (on the destination's line or the next,
//! and across lines), over a paragraph's lines. A label across lines
//! declines the document.

use std::borrow::Cow;

use super::destination::decode;
use super::shapes::trimmed_end;
use super::skip::to_next;
use super::{Declined, declined};
use crate::syntax::chars::Table;

/// A definition, on one line or more.
#[derive(Debug)]
pub(super) struct Definition<'s> {
    /// Its label as written, between its brackets: keyed only when the
    /// definitions are looked up (see `md_references::Definitions`).
    pub label: std::ops::Range<usize>,
    /// From its `[` to the end of its destination or title.
    pub start: usize,
    pub end: usize,
    /// Its destination, escapes undone (borrowed when it holds none).
    pub link: Cow<'s, str>,
}

/// What a paragraph's line that opens with `[` is.
pub(super) enum Opened<'s> {
    /// A definition, and the paragraph's lines it takes.
    Definition(Definition<'s>, usize),
    /// No definition: the paragraph's text.
    Text,
}

/// The most parentheses a destination nests, as pulldown-cmark allows.
const MAX_NESTED_PARENS: usize = 32;

/// The lines of a paragraph from the one a definition may open: where
/// each starts its content, and where the last one's content ends.
struct Lines<'p> {
    bytes: &'p [u8],
    starts: &'p [usize],
    paragraph_end: usize,
}

impl Lines<'_> {
    /// The end of line `j`'s content, trailing spaces trimmed.
    fn end(&self, j: usize) -> usize {
        if j + 1 == self.starts.len() {
            return self.paragraph_end;
        }
        let start = self.starts[j];
        let nl = memchr::memchr(b'\n', &self.bytes[start..])
            .map_or(self.bytes.len(), |n| start + n);
        trimmed_end(self.bytes, start, nl)
    }
}

/// The paragraph's lines from `starts[0]` (its `[`), each line's content
/// starting at its entry of `starts`, the last one's ending at
/// `paragraph_end`.
pub(super) fn read<'s>(
    bytes: &'s [u8],
    starts: &[usize],
    paragraph_end: usize,
) -> Result<Opened<'s>, Declined> {
    let lines = Lines { bytes, starts, paragraph_end };
    let at = starts[0];
    // The label: up to the first `]` not escaped. A `[` there, or no `]`,
    // is no definition; one whose label crosses a line is not read.
    let Some(close) = label_end(bytes, at + 1, paragraph_end) else {
        return Ok(Opened::Text);
    };
    if bytes.get(close + 1) != Some(&b':') {
        return Ok(Opened::Text);
    }
    if memchr::memchr(b'\n', &bytes[at + 1..close]).is_some() {
        return Err(declined());
    }
    // A blank label is none, and one too long (the label is keyed only
    // when looked up).
    if bytes[at + 1..close].iter().all(u8::is_ascii_whitespace)
        || is_too_long(bytes, at + 1..close, None)
    {
        return Ok(Opened::Text);
    }
    let label = at + 1..close;
    // The destination, after spaces and at most one line end.
    let mut line = 0;
    let mut line_end = lines.end(0);
    let mut i = skip_space(bytes, close + 2, line_end);
    if i == line_end {
        if starts.len() == 1 {
            return Ok(Opened::Text);
        }
        line = 1;
        i = starts[1];
        line_end = lines.end(1);
    }
    let Some((dest_start, dest_end, after_dest)) =
        destination(bytes, i, line_end)
    else {
        return Ok(Opened::Text);
    };
    let link = decode(&bytes[dest_start..dest_end])?;
    let definition = |end: usize, line: usize| {
        Ok(Opened::Definition(
            Definition { label, start: at, end, link },
            line + 1,
        ))
    };
    // What follows: a title after spaces or one line end. Anything else
    // on the destination's line is no definition; on the next line, the
    // definition ends at its destination.
    let spaced = skip_space(bytes, after_dest, line_end);
    let (title_line, title_start) = if spaced < line_end {
        if spaced == after_dest {
            return Ok(Opened::Text);
        }
        (line, spaced)
    } else if line + 1 < starts.len() {
        (line + 1, starts[line + 1])
    } else {
        return definition(after_dest, line);
    };
    let newline = title_line > line;
    match title(&lines, title_line, title_start) {
        Some((end, last))
            if skip_space(bytes, end, lines.end(last)) == lines.end(last) =>
        {
            definition(end, last)
        }
        _ if newline => definition(after_dest, line),
        _ => Ok(Opened::Text),
    }
}

/// The destination at `i` on a line that ends at `line_end`: its text
/// (within `<...>` when so written) and where it ends; `None` when there
/// is none.
fn destination(
    bytes: &[u8],
    i: usize,
    line_end: usize,
) -> Option<(usize, usize, usize)> {
    if bytes.get(i) == Some(&b'<') {
        let mut k = i + 1;
        while k < line_end {
            match bytes[k] {
                b'<' => return None,
                b'>' => return Some((i + 1, k, k + 1)),
                b'\\'
                    if bytes
                        .get(k + 1)
                        .is_some_and(u8::is_ascii_punctuation) =>
                {
                    k += 2
                }
                _ => k += 1,
            }
        }
        return None;
    }
    let (mut k, mut nest) = (i, 0);
    while k < line_end {
        // Most of a destination is none of the bytes that end or nest it.
        k = to_next(&DESTINATION_STOP, bytes, k, line_end);
        let Some(&b) = bytes[..line_end].get(k) else { break };
        match b {
            b'(' => {
                if nest > MAX_NESTED_PARENS {
                    return None;
                }
                nest += 1;
            }
            b')' if nest == 0 => break,
            b')' => nest -= 1,
            b'\\'
                if bytes.get(k + 1).is_some_and(u8::is_ascii_punctuation) =>
            {
                k += 1
            }
            b'\\' => {}
            _ => break,
        }
        k += 1;
    }
    (nest == 0 && k > i).then_some((i, k, k))
}

/// The bytes where a bare destination's scan stops: spaces and controls
/// (which end it), the escape, and the parentheses it balances.
const DESTINATION_STOP: Table = Table::range(0, b' ').or(Table::new(b"\\()"));

/// The first `]` from `from` (before `end`) that no backslash escapes;
/// `None` when a `[` comes first or there is none.
fn label_end(bytes: &[u8], from: usize, end: usize) -> Option<usize> {
    let mut k = from;
    loop {
        k += memchr::memchr3(b']', b'[', b'\\', &bytes[k..end])?;
        match bytes[k] {
            b']' => return Some(k),
            b'[' => return None,
            _ => {
                let escapes = bytes[..end]
                    .get(k + 1)
                    .is_some_and(u8::is_ascii_punctuation);
                k += if escapes { 2 } else { 1 };
                if k >= end {
                    return None;
                }
            }
        }
    }
}

/// A title opening at `start` on line `line`, across lines if need be:
/// the end past its closing mark and the line that holds it; `None` when
/// it does not close within the paragraph.
fn title(
    lines: &Lines,
    mut line: usize,
    start: usize,
) -> Option<(usize, usize)> {
    let bytes = lines.bytes;
    let closing = match bytes[start] {
        b'"' => b'"',
        b'\'' => b'\'',
        b'(' => b')',
        _ => return None,
    };
    let (mut k, mut line_end) = (start + 1, lines.end(line));
    loop {
        if k >= line_end {
            // The title goes on at the next line's content.
            line += 1;
            k = *lines.starts.get(line)?;
            line_end = lines.end(line);
            continue;
        }
        match bytes[k] {
            b'(' if closing == b')' => return None,
            b'\\' => k += if k + 1 < line_end { 2 } else { 1 },
            b if b == closing => return Some((k + 1, line)),
            _ => k += 1,
        }
    }
}

/// Whether the label written at `range` is too long to be one, by
/// pulldown-cmark's count: a byte outside ASCII one, an escape two, a
/// space one, a longer run of whitespace (a line's end and its container
/// markers with it) its bytes; other bytes nothing. `lines`, where a
/// paragraph's lines do not meet: where each starts its content.
pub(super) fn is_too_long(
    bytes: &[u8],
    range: std::ops::Range<usize>,
    lines: Option<&[usize]>,
) -> bool {
    // No byte counts more than one: a label of fewer bytes is short.
    if range.len() < MAX_LABEL {
        return false;
    }
    label_weight(bytes, range, lines) >= MAX_LABEL
}

/// The length pulldown-cmark gives a label from which it reads no more.
const MAX_LABEL: usize = 1000;

/// A label's length by pulldown-cmark's count (see [`is_too_long`]).
fn label_weight(
    bytes: &[u8],
    range: std::ops::Range<usize>,
    lines: Option<&[usize]>,
) -> usize {
    let space =
        |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C);
    let (mut count, mut ix) = (0, range.start);
    while ix < range.end {
        let b = bytes[ix];
        if b == b'\\'
            && ix + 1 < range.end
            && bytes[ix + 1].is_ascii_punctuation()
        {
            ix += 2;
            count += 2;
        } else if space(b) {
            let (run_start, mut weight) = (ix, 0);
            while ix < range.end && space(bytes[ix]) {
                weight += if bytes[ix] == b' ' { 1 } else { 2 };
                if bytes[ix] == b'\n'
                    && let Some(lines) = lines
                {
                    let k = lines.partition_point(|&l| l <= ix);
                    ix = lines.get(k).map_or(range.end, |&l| l.min(range.end));
                } else {
                    ix += 1;
                }
            }
            count += if weight > 1 { ix - run_start } else { 1 };
        } else {
            ix += 1;
            count += usize::from(b >= 0x80);
        }
    }
    count
}

/// The first byte at or after `i` that is no space or tab, up to `end`.
fn skip_space(bytes: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The label scan the fast one replaced: a byte at a time.
    fn label_end_by_byte(
        bytes: &[u8],
        from: usize,
        end: usize,
    ) -> Option<usize> {
        let mut k = from;
        loop {
            match bytes[..end].get(k)? {
                b']' => return Some(k),
                b'[' => return None,
                b'\\' => {
                    let escapes = bytes[..end]
                        .get(k + 1)
                        .is_some_and(u8::is_ascii_punctuation);
                    k += if escapes { 2 } else { 1 };
                }
                _ => k += 1,
            }
        }
    }

    /// The bare destination scan the fast one replaced: a byte at a time.
    fn destination_by_byte(
        bytes: &[u8],
        i: usize,
        line_end: usize,
    ) -> Option<(usize, usize, usize)> {
        let (mut k, mut nest) = (i, 0);
        while k < line_end {
            match bytes[k] {
                0..=b' ' => break,
                b'(' => {
                    if nest > MAX_NESTED_PARENS {
                        return None;
                    }
                    nest += 1;
                }
                b')' if nest == 0 => break,
                b')' => nest -= 1,
                b'\\'
                    if bytes
                        .get(k + 1)
                        .is_some_and(u8::is_ascii_punctuation) =>
                {
                    k += 1
                }
                _ => {}
            }
            k += 1;
        }
        (nest == 0 && k > i).then_some((i, k, k))
    }

    /// Label- and destination-like bytes: brackets, escapes, parentheses,
    /// spaces and line ends, long plain runs.
    fn label_like() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            proptest::sample::select(
                &[
                    "a",
                    "ab",
                    "abcdefghij",
                    "]",
                    "[",
                    "\\",
                    "\\]",
                    "\\[",
                    "\\a",
                    "(",
                    ")",
                    "((",
                    " ",
                    "\t",
                    "\n",
                    "<",
                    ">",
                    "é",
                    "\u{7f}",
                    "\0",
                ][..],
            ),
            0..24,
        )
        .prop_map(|p| p.concat().into_bytes())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn the_label_scan_stops_where_a_byte_loop_stops(
            bytes in label_like(),
            from in 0usize..40,
            len in 0usize..80,
        ) {
            let end = len.min(bytes.len());
            let from = from.min(end);
            prop_assert_eq!(
                label_end(&bytes, from, end),
                label_end_by_byte(&bytes, from, end)
            );
        }

        #[test]
        fn the_destination_scan_stops_where_a_byte_loop_stops(
            bytes in label_like(),
            from in 0usize..40,
            len in 0usize..80,
        ) {
            // Past the bytes, one space: a line's content is so followed.
            let mut bytes = bytes;
            bytes.push(b' ');
            let end = len.min(bytes.len() - 1);
            let from = from.min(end);
            // The `<...>` form is read as before: the bare scan only.
            prop_assume!(bytes.get(from) != Some(&b'<'));
            prop_assert_eq!(
                destination(&bytes, from, end),
                destination_by_byte(&bytes, from, end)
            );
        }

        #[test]
        fn a_label_too_long_is_found_as_by_its_count(
            unit in proptest::sample::select(&["a", "é", "\\]", " ", "  ", "\n", "a b"][..]),
            times in 300usize..1100,
        ) {
            let label = unit.repeat(times);
            let bytes = label.as_bytes();
            prop_assert_eq!(
                is_too_long(bytes, 0..bytes.len(), None),
                label_weight(bytes, 0..bytes.len(), None) >= MAX_LABEL
            );
        }
    }
}
