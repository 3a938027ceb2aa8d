//! The block pass: a document's lines into leaf blocks (paragraphs,
//! headings, code blocks), each handed to the inline pass or the sink.
//! Containers, HTML blocks, definitions, tables and front matter are not
//! read yet: a document that may hold one is declined.

use super::Declined;
use super::inline;
use super::sink::Sink;

/// A fenced code block being read: its fence byte and length, and where
/// its content starts.
struct Fence {
    byte: u8,
    len: usize,
    content: usize,
}

/// The leaf block being read across lines.
enum Open {
    None,
    /// A paragraph: where its content starts, and where its last line's
    /// content ends.
    Paragraph {
        start: usize,
        end: usize,
        pipes: bool,
    },
    /// An indented code block: its lines (content start, line end with
    /// the newline), blank lines held back until a line follows.
    Indented {
        lines: Vec<(usize, usize)>,
        held: Vec<(usize, usize)>,
    },
    Fenced(Fence),
}

/// Reads the blocks of `src` into `sink`.
pub(super) fn read(
    src: &str,
    gfm: bool,
    sink: &mut Sink<'_, '_>,
) -> Result<(), Declined> {
    let bytes = src.as_bytes();
    if memchr::memchr(b'\r', bytes).is_some() {
        return Err(Declined);
    }
    if gfm
        && (bytes.starts_with(b"---")
            || bytes.starts_with(b"+++")
            || memchr::memmem::find(bytes, b"[^").is_some())
    {
        return Err(Declined);
    }
    let has_definitions = memchr::memmem::find(bytes, b"]:").is_some();
    let mut open = Open::None;
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = memchr::memchr(b'\n', &bytes[line_start..])
            .map_or(bytes.len(), |i| line_start + i);
        let next = (line_end + 1).min(bytes.len());
        let line = Line::new(bytes, line_start, line_end);
        open = step(src, gfm, has_definitions, sink, open, &line, next)?;
        line_start = next;
    }
    finish(src, gfm, sink, open)
}

/// One line: its bounds, its indentation in columns and the offset of its
/// first byte that is not a space or tab.
struct Line {
    start: usize,
    end: usize,
    indent: usize,
    first: usize,
}

impl Line {
    fn new(bytes: &[u8], start: usize, end: usize) -> Line {
        let (mut i, mut col) = (start, 0);
        while i < end {
            match bytes[i] {
                b' ' => col += 1,
                b'\t' => col += 4 - col % 4,
                _ => break,
            }
            i += 1;
        }
        Line { start, end, indent: col, first: i }
    }

    fn is_blank(&self) -> bool {
        self.first == self.end
    }

    /// The offset after 4 columns of indentation; `None` when a tab
    /// straddles the fourth column.
    fn after_four_columns(&self, bytes: &[u8]) -> Option<usize> {
        let (mut i, mut col) = (self.start, 0);
        while col < 4 && i < self.end {
            col += if bytes[i] == b'\t' { 4 - col % 4 } else { 1 };
            i += 1;
        }
        (col == 4 || i == self.end).then_some(i)
    }
}

/// Reads one line with `open` the block being read; returns the block
/// open after it.
fn step(
    src: &str,
    gfm: bool,
    has_definitions: bool,
    sink: &mut Sink<'_, '_>,
    open: Open,
    line: &Line,
    next: usize,
) -> Result<Open, Declined> {
    let bytes = src.as_bytes();
    // Inside a fenced block, only its closing fence matters.
    if let Open::Fenced(fence) = open {
        if line.indent <= 3 && closes(bytes, line, &fence) {
            if fence.content < line.start {
                sink.code(fence.content, line.start, true);
            }
            return Ok(Open::None);
        }
        return Ok(Open::Fenced(fence));
    }
    if line.is_blank() {
        return Ok(match open {
            Open::Indented { lines, mut held } => {
                let at = line.after_four_columns(bytes).ok_or(Declined)?;
                held.push((at.min(line.end), next));
                Open::Indented { lines, held }
            }
            other => {
                finish(src, gfm, sink, other)?;
                Open::None
            }
        });
    }
    if line.indent >= 4 {
        return Ok(match open {
            Open::Paragraph { start, pipes, .. } => Open::Paragraph {
                start,
                end: trimmed_end(bytes, line.first, line.end),
                pipes: pipes || has_pipe(bytes, line),
            },
            Open::Indented { mut lines, held } => {
                lines.extend(held);
                let at = line.after_four_columns(bytes).ok_or(Declined)?;
                lines.push((at, next));
                Open::Indented { lines, held: vec![] }
            }
            _ => {
                let at = line.after_four_columns(bytes).ok_or(Declined)?;
                sink.close();
                Open::Indented { lines: vec![(at, next)], held: vec![] }
            }
        });
    }
    let in_paragraph = matches!(open, Open::Paragraph { .. });
    let rest = &bytes[line.first..line.end];
    let c = rest[0];
    // Containers, HTML blocks and list items are not read yet.
    if matches!(c, b'>' | b'<') || starts_list_item(rest) {
        if !(c == b'-' && in_paragraph && is_underline(rest, b'-'))
            && !is_thematic_break(rest)
        {
            return Err(Declined);
        }
    }
    if let Open::Paragraph { start, end, pipes } = open {
        // A table's delimiter row under a header row.
        if gfm && (pipes || has_pipe(bytes, line)) && is_delimiter_row(rest) {
            return Err(Declined);
        }
        if is_underline(rest, b'=') || is_underline(rest, b'-') {
            leaf(src, gfm, sink, (start, end), true)?;
            return Ok(Open::None);
        }
        if !interrupts(rest) {
            return Ok(Open::Paragraph {
                start,
                end: trimmed_end(bytes, line.first, line.end),
                pipes: pipes || has_pipe(bytes, line),
            });
        }
        leaf(src, gfm, sink, (start, end), false)?;
    } else {
        finish(src, gfm, sink, open)?;
    }
    if is_thematic_break(rest) {
        return Ok(Open::None);
    }
    if let Some(level_end) = atx_heading(rest) {
        let (start, end) =
            atx_content(bytes, line.first + level_end, line.end);
        if start < end {
            leaf(src, gfm, sink, (start, end), true)?;
        } else {
            sink.close();
        }
        return Ok(Open::None);
    }
    if let Some((byte, len)) = fence_open(rest) {
        if line.indent > 0 {
            return Err(Declined);
        }
        sink.close();
        return Ok(Open::Fenced(Fence { byte, len, content: next }));
    }
    if c == b'[' && has_definitions {
        return Err(Declined);
    }
    Ok(Open::Paragraph {
        start: line.first,
        end: trimmed_end(bytes, line.first, line.end),
        pipes: has_pipe(bytes, line),
    })
}

/// Ends the block `open` at the end of the document or a blank line.
fn finish(
    src: &str,
    gfm: bool,
    sink: &mut Sink<'_, '_>,
    open: Open,
) -> Result<(), Declined> {
    match open {
        Open::None => {}
        Open::Paragraph { start, end, .. } => {
            leaf(src, gfm, sink, (start, end), false)?
        }
        Open::Indented { lines, .. } => {
            // Lines that meet are one text (as pulldown-cmark gives them).
            let mut merged: Option<(usize, usize)> = None;
            for (start, end) in lines.into_iter().filter(|l| l.0 < l.1) {
                match &mut merged {
                    Some(m) if m.1 == start => m.1 = end,
                    _ => {
                        if let Some((s, e)) = merged.replace((start, end)) {
                            sink.code(s, e, true);
                        }
                    }
                }
            }
            if let Some((s, e)) = merged {
                sink.code(s, e, true);
            }
        }
        Open::Fenced(fence) => {
            if fence.content < src.len() {
                sink.code(fence.content, src.len(), true);
            }
        }
    }
    Ok(())
}

/// A paragraph's or heading's inlines, `start..end` its content; with
/// the GitHub extensions, a heading's attributes are not read yet.
fn leaf(
    src: &str,
    gfm: bool,
    sink: &mut Sink<'_, '_>,
    (start, end): (usize, usize),
    heading: bool,
) -> Result<(), Declined> {
    if heading && gfm && src.as_bytes()[..end].ends_with(b"}") {
        return Err(Declined);
    }
    sink.close();
    inline::read(src, gfm, start, end, sink)?;
    sink.close();
    Ok(())
}

/// The end of `start..end` without its trailing spaces and tabs.
fn trimmed_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && matches!(bytes[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    end
}

fn has_pipe(bytes: &[u8], line: &Line) -> bool {
    memchr::memchr(b'|', &bytes[line.first..line.end]).is_some()
}

/// A line that may be a table's delimiter row: pipes, colons, hyphens
/// and spaces, with a hyphen.
fn is_delimiter_row(rest: &[u8]) -> bool {
    rest.contains(&b'-')
        && rest.iter().all(|&b| matches!(b, b'|' | b':' | b'-' | b' ' | b'\t'))
}

/// A setext underline of `byte`: a run of it, then spaces or tabs.
fn is_underline(rest: &[u8], byte: u8) -> bool {
    let run = rest.iter().take_while(|&&b| b == byte).count();
    run > 0 && rest[run..].iter().all(|&b| b == b' ' || b == b'\t')
}

/// A thematic break: three or more of `*`, `-` or `_`, spaces between.
fn is_thematic_break(rest: &[u8]) -> bool {
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

/// A line that may open a list item: a bullet or an ordinal, then a
/// space, a tab or the line's end.
fn starts_list_item(rest: &[u8]) -> bool {
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let marker = match rest[0] {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=9).contains(&digits)
            && matches!(rest.get(digits), Some(b'.' | b')')) =>
        {
            digits + 1
        }
        _ => return false,
    };
    matches!(rest.get(marker), None | Some(b' ' | b'\t'))
}

/// A line that ends a paragraph by opening a block of its own.
fn interrupts(rest: &[u8]) -> bool {
    is_thematic_break(rest)
        || atx_heading(rest).is_some()
        || fence_open(rest).is_some()
}

/// An ATX heading's opening: the offset after its `#`s.
fn atx_heading(rest: &[u8]) -> Option<usize> {
    let level = rest.iter().take_while(|&&b| b == b'#').count();
    ((1..=6).contains(&level)
        && matches!(rest.get(level), None | Some(b' ' | b'\t')))
    .then_some(level)
}

/// An ATX heading's content: after the `#`s and spaces, before the
/// closing `#`s (after a space) and trailing spaces.
fn atx_content(bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut start = start;
    while start < end && matches!(bytes[start], b' ' | b'\t') {
        start += 1;
    }
    let mut e = trimmed_end(bytes, start, end);
    let mut h = e;
    while h > start && bytes[h - 1] == b'#' {
        h -= 1;
    }
    if h == start {
        e = start;
    } else if h < e && matches!(bytes[h - 1], b' ' | b'\t') {
        e = trimmed_end(bytes, start, h);
    }
    (start, e)
}

/// A code fence's opening: its byte and length.
fn fence_open(rest: &[u8]) -> Option<(u8, usize)> {
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

/// Whether `line` closes `fence`.
fn closes(bytes: &[u8], line: &Line, fence: &Fence) -> bool {
    let rest = &bytes[line.first..line.end];
    let len = rest.iter().take_while(|&&b| b == fence.byte).count();
    len >= fence.len && rest[len..].iter().all(|&b| b == b' ' || b == b'\t')
}
