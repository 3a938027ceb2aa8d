//! GitHub tables as pulldown-cmark reads them: a paragraph's first line
//! with a pipe, over a delimiter row of as many columns, opens a table
//! whose rows run until a blank line or a line that opens another block.
//! Each cell's content, up to the next pipe, is read as a line of
//! inlines. A backslash before a pipe (which pulldown-cmark reads apart
//! from other escapes) declines the document.

use super::markup::html_start;
use super::shapes::{atx_heading, fence_open, is_thematic_break, list_marker};
use super::{Declined, declined};

/// The cells pulldown-cmark makes up for short rows before it stops
/// reading a table (a guard against quadratic growth), which is not read
/// here.
pub(super) const MAX_MADE_UP_CELLS: usize = 1 << 18;

/// The columns of a delimiter row (`|---|:-:|`), the line `line` after
/// its container markers; `None` when it is not one.
pub(super) fn delimiter_columns(line: &[u8]) -> Option<usize> {
    let mut i = 0;
    let mut col = 0;
    while i < line.len() && matches!(line[i], b' ' | b'\t') {
        col += if line[i] == b'\t' { 4 - col % 4 } else { 1 };
        i += 1;
    }
    if col > 3 || i == line.len() {
        return None;
    }
    let (mut columns, mut start_col) = (0, true);
    let (mut pipe, mut hyphen, mut hyphen_in_col) = (false, false, false);
    if line[i] == b'|' {
        i += 1;
        pipe = true;
    }
    for &b in &line[i..] {
        match b {
            b' ' => {}
            b':' => start_col = false,
            b'-' => {
                start_col = false;
                hyphen = true;
                hyphen_in_col = true;
            }
            b'|' => {
                if !hyphen_in_col {
                    return None;
                }
                start_col = true;
                pipe = true;
                columns += 1;
                hyphen_in_col = false;
            }
            _ => return None,
        }
    }
    if !start_col {
        columns += 1;
    }
    (pipe && hyphen).then_some(columns)
}

/// The columns of a header row, `start..end` (the line's content after
/// its indentation, `end` at its line end), as pulldown-cmark counts
/// them; `None` when the line cannot head a table. `interrupting` when
/// the line is not a paragraph's first.
pub(super) fn header_columns(
    bytes: &[u8],
    start: usize,
    end: usize,
    interrupting: bool,
) -> Result<Option<usize>, Declined> {
    let line = &bytes[start..end];
    if memchr::memmem::find(line, b"\\|").is_some() || line[0] == b'[' {
        return Err(declined());
    }
    let pipes = memchr::memchr_iter(b'|', line).count();
    if pipes == 0 {
        return Ok(None);
    }
    // A line ending in a hard break is no header; one that interrupts a
    // paragraph ends it all the same, which is not read.
    let backslashes = line.iter().rev().take_while(|&&b| b == b'\\').count();
    if backslashes % 2 == 1 {
        return if interrupting { Err(declined()) } else { Ok(None) };
    }
    let first = line.iter().position(|&b| !is_space(b)).unwrap_or(0);
    let last = memchr::memrchr(b'|', line).unwrap_or(0);
    let mut columns = pipes - usize::from(line[first] == b'|');
    if !line[last + 1..].iter().all(|&b| is_space(b)) {
        columns += 1;
    }
    Ok(Some(columns))
}

/// The cells of a row, `start..end` (its line after all indentation,
/// `end` at its line end): each cell's content, its spaces trimmed.
pub(super) fn cells(
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Result<Vec<(usize, usize)>, Declined> {
    if memchr::memmem::find(&bytes[start..end], b"\\|").is_some() {
        return Err(declined());
    }
    let mut out = vec![];
    let mut i = start;
    loop {
        if i < end && bytes[i] == b'|' {
            i += 1;
        }
        while i < end && is_space(bytes[i]) {
            i += 1;
        }
        if i == end {
            return Ok(out);
        }
        let close =
            memchr::memchr(b'|', &bytes[i..end]).map_or(end, |k| i + k);
        let mut content_end = close;
        while content_end > i && is_space(bytes[content_end - 1]) {
            content_end -= 1;
        }
        out.push((i, content_end));
        i = close;
    }
}

/// Whether the line `text` (after all its indentation, `at..end` in
/// `bytes`) ends a table by opening a block of its own (a blank line
/// included), as pulldown-cmark tells inside a table.
pub(super) fn ends_table(bytes: &[u8], at: usize, end: usize) -> bool {
    let text = &bytes[at..end];
    text.is_empty()
        || is_thematic_break(text)
        || atx_heading(text).is_some()
        || fence_open(text).is_some()
        || text[0] == b'>'
        || list_marker(text).is_some()
        || (text[0] == b'<' && ends_table_as_html(bytes, at, end))
}

/// The HTML starts that end a table: the kinds that may interrupt a
/// paragraph, but for the declarations (`<!` and a letter).
fn ends_table_as_html(bytes: &[u8], at: usize, end: usize) -> bool {
    let declaration = bytes.get(at + 1) == Some(&b'!')
        && bytes.get(at + 2).is_some_and(u8::is_ascii_alphabetic);
    !declaration && html_start(bytes, at, end, true).is_some()
}

/// The spaces pulldown-cmark trims from a cell (the vertical tab and
/// form feed are declined before).
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}
