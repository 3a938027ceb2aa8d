//! Link reference definitions (CommonMark 4.7), read as pulldown-cmark
//! reads them: `[label]:`, a destination (on the label's line or the
//! next), and an optional title (on the destination's line or the next,
//! and across lines), over a paragraph's lines. A label across lines
//! declines the document.

use std::borrow::Cow;

use super::destination::decode;
use super::shapes::trimmed_end;
use super::{Declined, declined};

/// A definition, on one line or more.
#[derive(Debug)]
pub(super) struct Definition {
    /// Its label, as pulldown-cmark keys it.
    pub label: String,
    /// From its `[` to the end of its destination or title.
    pub start: usize,
    pub end: usize,
    /// Its destination, escapes undone.
    pub link: String,
}

/// What a paragraph's line that opens with `[` is.
pub(super) enum Opened {
    /// A definition, and the paragraph's lines it takes.
    Definition(Definition, usize),
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
pub(super) fn read(
    bytes: &[u8],
    starts: &[usize],
    paragraph_end: usize,
) -> Result<Opened, Declined> {
    let lines = Lines { bytes, starts, paragraph_end };
    let at = starts[0];
    // The label: up to the first `]` not escaped. A `[` there, or no `]`,
    // is no definition; one whose label crosses a line is not read.
    let (mut k, mut unread) = (at + 1, false);
    let close = loop {
        match bytes[..paragraph_end].get(k) {
            None => return Ok(Opened::Text),
            Some(b']') => break k,
            Some(b'[') => return Ok(Opened::Text),
            Some(b'\\') => {
                let escapes = bytes[..paragraph_end]
                    .get(k + 1)
                    .is_some_and(u8::is_ascii_punctuation);
                k += if escapes { 2 } else { 1 };
            }
            Some(b'\n') => {
                unread = true;
                k += 1;
            }
            Some(_) => k += 1,
        }
    };
    if bytes.get(close + 1) != Some(&b':') {
        return Ok(Opened::Text);
    }
    if unread {
        return Err(declined());
    }
    if is_too_long(bytes, at + 1..close, None) {
        return Ok(Opened::Text);
    }
    let raw =
        std::str::from_utf8(&bytes[at + 1..close]).map_err(|_| declined())?;
    let Some(label) = normalize(raw) else { return Ok(Opened::Text) };
    let label = label.into_owned();
    // The destination, after spaces and at most one line end.
    let mut line = 0;
    let mut i = skip_space(bytes, close + 2, lines.end(0));
    if i == lines.end(0) {
        if starts.len() == 1 {
            return Ok(Opened::Text);
        }
        line = 1;
        i = starts[1];
    }
    let Some((dest_start, dest_end, after_dest)) =
        destination(bytes, i, lines.end(line))
    else {
        return Ok(Opened::Text);
    };
    let link = decode(&bytes[dest_start..dest_end])?.into_owned();
    let definition = |end: usize, line: usize| {
        Ok(Opened::Definition(
            Definition {
                label: label.clone(),
                start: at,
                end,
                link: link.clone(),
            },
            line + 1,
        ))
    };
    // What follows: a title after spaces or one line end. Anything else
    // on the destination's line is no definition; on the next line, the
    // definition ends at its destination.
    let line_end = lines.end(line);
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
                if bytes.get(k + 1).is_some_and(u8::is_ascii_punctuation) =>
            {
                k += 1
            }
            _ => {}
        }
        k += 1;
    }
    (nest == 0 && k > i).then_some((i, k, k))
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

/// A label as pulldown-cmark keys it: each run of whitespace one space,
/// the whole trimmed (borrowed when it is so already); `None` when blank.
pub(super) fn normalize(raw: &str) -> Option<Cow<'_, str>> {
    // Normal already: no whitespace but single spaces between words.
    let mut after_space = true;
    let normal = raw.bytes().all(|b| {
        let space = b.is_ascii_whitespace();
        let fits = !space || (b == b' ' && !after_space);
        after_space = space;
        fits
    }) && !after_space;
    if normal {
        return Some(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    for word in raw.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    (!out.is_empty()).then_some(Cow::Owned(out))
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
    count >= 1000
}

/// The first byte at or after `i` that is no space or tab, up to `end`.
fn skip_space(bytes: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}
