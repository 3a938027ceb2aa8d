//! A document's lines, with their indentation as docutils counts it.

use crate::Span;

/// The lines of a document: where each starts and ends (without its line
/// break).
pub(super) struct Lines {
    spans: Vec<Span>,
}

impl Lines {
    pub(super) fn new(src: &[u8]) -> Lines {
        let mut spans = Vec::with_capacity(src.len() / 40 + 1);
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', src) {
            let end =
                if nl > start && src[nl - 1] == b'\r' { nl - 1 } else { nl };
            spans.push(Span::new(start, end));
            start = nl + 1;
        }
        if start < src.len() {
            spans.push(Span::new(start, src.len()));
        }
        Lines { spans }
    }

    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// Line `i`'s span; past the end, an empty span at the end.
    pub(super) fn span(&self, i: usize) -> Span {
        self.spans.get(i).copied().unwrap_or_else(|| {
            let end = self.spans.last().map_or(0, |s| s.end);
            Span::new(end, end)
        })
    }
}

/// The indentation of `line` in columns (a tab to the next multiple of
/// 8, as docutils expands it) and the offset of its first other byte;
/// `None` for a blank line.
pub(super) fn indent(line: &[u8]) -> Option<(usize, usize)> {
    let mut col = 0;
    for (i, &b) in line.iter().enumerate() {
        match b {
            b' ' => col += 1,
            b'\t' => col = (col / 8 + 1) * 8,
            // A form feed or vertical tab is whitespace to docutils.
            b'\x0b' | b'\x0c' => col += 1,
            _ => return Some((col, i)),
        }
    }
    None
}

/// Whether `c` is one of the characters of a section adornment.
pub(super) fn is_adornment(c: u8) -> bool {
    c.is_ascii_punctuation()
}

/// The adornment character of `line` when it is a run of one
/// punctuation character (trailing whitespace allowed), and its length.
pub(super) fn adornment(line: &[u8]) -> Option<(u8, usize)> {
    let line = line.trim_ascii_end();
    let &c = line.first()?;
    (is_adornment(c) && line.iter().all(|&b| b == c))
        .then_some((c, line.len()))
}
