//! Link reference definitions (CommonMark 4.7), the shape our reader
//! reads: on one line, `[label]:`, a destination, an optional title, and
//! nothing else. A line that opens a definition any other way (a label,
//! destination or title across lines, an escape in the label) declines
//! the document.

use std::borrow::Cow;

use super::destination::decode;
use super::{Declined, declined};

/// A definition on one line.
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
    Definition(Definition),
    /// No definition: the paragraph's text.
    Text,
}

/// The line `at..end` (its content, `[` at `at`), in a paragraph that
/// ends at `paragraph_end`.
pub(super) fn read(
    bytes: &[u8],
    at: usize,
    end: usize,
    paragraph_end: usize,
) -> Result<Opened, Declined> {
    let line = &bytes[at..end];
    // The label: up to the first `]` not escaped. A `[` there, or no `]`,
    // is no definition; one whose label crosses a line or holds an
    // escape is not read.
    let (mut k, mut unread) = (at + 1, false);
    let close = loop {
        match bytes[..paragraph_end].get(k) {
            None => return Ok(Opened::Text),
            Some(b']') => break k - at,
            Some(b'[') => return Ok(Opened::Text),
            Some(b'\\') => {
                unread = true;
                k += 2;
            }
            Some(b'\n') => {
                unread = true;
                k += 1;
            }
            Some(_) => k += 1,
        }
        if k - at > 500 {
            return Err(declined());
        }
    };
    if bytes.get(at + close + 1) != Some(&b':') {
        return Ok(Opened::Text);
    }
    if unread {
        return Err(declined());
    }
    if line.get(close + 1) != Some(&b':') {
        return Ok(Opened::Text);
    }
    let raw = std::str::from_utf8(&line[1..close]).map_err(|_| declined())?;
    if raw.len() > 500 {
        return Err(declined());
    }
    let Some(label) = normalize(raw) else { return Ok(Opened::Text) };
    let label = label.into_owned();
    let mut i = close + 2;
    let spaced = skip_space(line, i);
    if spaced == line.len() {
        // The destination on the next line.
        return Err(declined());
    }
    i = spaced;
    let (dest_start, dest_end) = if line[i] == b'<' {
        let k = line[i + 1..]
            .iter()
            .position(|&b| b == b'>' || b == b'<' || b == b'\\')
            .ok_or_else(declined)?;
        if line[i + 1 + k] != b'>' {
            return Err(declined());
        }
        (i + 1, i + 1 + k)
    } else {
        let n = line[i..]
            .iter()
            .take_while(|&&b| {
                b > b' ' && b != 0x7F && !matches!(b, b'(' | b')' | b'\\')
            })
            .count();
        if n == 0 || matches!(line.get(i + n), Some(b'(' | b')' | b'\\')) {
            return Err(declined());
        }
        (i, i + n)
    };
    let after_dest = if line[i] == b'<' { dest_end + 1 } else { dest_end };
    let link = decode(&line[dest_start..dest_end])?.into_owned();
    let mut def_end = after_dest;
    let spaced = skip_space(line, after_dest);
    // On the destination's line, anything but a title after a space, or
    // more after the title, makes the line no definition.
    if spaced < line.len() {
        let closing = match line[spaced] {
            _ if spaced == after_dest => return Ok(Opened::Text),
            b'"' => b'"',
            b'\'' => b'\'',
            b'(' => b')',
            _ => return Ok(Opened::Text),
        };
        // The title's end, past escaped bytes; one across lines, or a
        // `(` in one within parentheses, is not read.
        let mut k = spaced + 1;
        loop {
            match line.get(k) {
                None => return Err(declined()),
                Some(b'\\') => k += 2,
                Some(b'(') if closing == b')' => return Err(declined()),
                Some(&b) if b == closing => break,
                Some(_) => k += 1,
            }
        }
        def_end = k + 1;
        if skip_space(line, def_end) != line.len() {
            return Ok(Opened::Text);
        }
    }
    Ok(Opened::Definition(Definition {
        label,
        start: at,
        end: at + def_end,
        link,
    }))
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

fn skip_space(line: &[u8], mut i: usize) -> usize {
    while i < line.len() && matches!(line[i], b' ' | b'\t') {
        i += 1;
    }
    i
}
