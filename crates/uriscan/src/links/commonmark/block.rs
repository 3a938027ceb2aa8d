//! The block pass (CommonMark 5 and 4): a document's lines into
//! containers (block quotes, list items) and leaf blocks (paragraphs,
//! headings, code blocks), each leaf handed to the inline pass or the
//! sink. HTML blocks, definitions, tables, front matter and tabs in
//! container indentation are not read yet: a document that may hold one
//! is declined.

use super::inline;
use super::markup::html_start;
use super::shapes::{
    atx_content, atx_heading, closes_fence, fence_open, interrupts,
    is_delimiter_row, is_metadata_fence, is_thematic_break, is_underline,
    list_marker, task_marker, trimmed_end,
};
use super::sink::Sink;
use super::{Declined, declined};

/// An open container block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Quote,
    /// A list item: the columns its content is indented by.
    Item {
        width: usize,
    },
}

/// A paragraph being read.
struct Paragraph {
    start: usize,
    /// The end of its last line's content.
    end: usize,
    /// Where each line after the first starts its content.
    lines: Vec<usize>,
    /// A line holds a `|` (it may be a table's header row).
    pipes: bool,
}

/// The leaf block being read across lines.
enum Leaf {
    None,
    Paragraph(Paragraph),
    /// An indented code block: its lines (content start, end with the
    /// newline), blank lines held back until a line follows.
    Indented {
        lines: Vec<(usize, usize)>,
        held: Vec<(usize, usize)>,
    },
    /// A fenced code block: its fence byte and length, and its lines.
    Fenced {
        byte: u8,
        len: usize,
        lines: Vec<(usize, usize)>,
    },
    /// An HTML block: the text that ends it (on its line), none for one
    /// that a blank line ends; its start and the end of its last line.
    Html {
        end_tag: Option<&'static [u8]>,
        start: usize,
        end: usize,
    },
}

/// The state of the block pass.
struct Blocks<'r, 's, 'l> {
    src: &'s str,
    bytes: &'s [u8],
    gfm: bool,
    /// The document holds `]:`: a paragraph that opens with `[` may be a
    /// definition.
    has_definitions: bool,
    sink: &'r mut Sink<'s, 'l>,
    containers: Vec<Container>,
    leaf: Leaf,
}

/// Reads the blocks of `src` into `sink`.
pub(super) fn read<'s>(
    src: &'s str,
    gfm: bool,
    sink: &mut Sink<'s, '_>,
) -> Result<(), Declined> {
    let bytes = src.as_bytes();
    // Line ends other than `\n`, and the vertical tab and form feed that
    // pulldown-cmark reads as spaces.
    if memchr::memchr3(b'\r', 0x0B, 0x0C, bytes).is_some() {
        return Err(declined());
    }
    if gfm
        && (bytes.starts_with(b"---")
            || bytes.starts_with(b"+++")
            || memchr::memmem::find(bytes, b"[^").is_some())
    {
        return Err(declined());
    }
    let mut blocks = Blocks {
        src,
        bytes,
        gfm,
        has_definitions: memchr::memmem::find(bytes, b"]:").is_some(),
        sink,
        containers: vec![],
        leaf: Leaf::None,
    };
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = memchr::memchr(b'\n', &bytes[line_start..])
            .map_or(bytes.len(), |i| line_start + i);
        let next = (line_end + 1).min(bytes.len());
        blocks.line(line_start, line_end, next)?;
        line_start = next;
    }
    blocks.close_leaf()
}

impl Blocks<'_, '_, '_> {
    /// The indentation at `pos`: its columns and the first byte after
    /// it. Tabs are read at the top level only.
    fn indentation(
        &self,
        line_start: usize,
        pos: usize,
        end: usize,
    ) -> Result<(usize, usize), Declined> {
        let (mut i, mut col) = (pos, 0);
        while i < end {
            match self.bytes[i] {
                b' ' => col += 1,
                b'\t' if pos == line_start && self.containers.is_empty() => {
                    col += 4 - col % 4
                }
                b'\t' => return Err(declined()),
                _ => break,
            }
            i += 1;
        }
        Ok((col, i))
    }

    /// The offset after 4 columns of indentation at `pos` (the line's end
    /// if it comes first); declined when a tab straddles the fourth
    /// column.
    fn after_four_columns(
        &self,
        pos: usize,
        end: usize,
    ) -> Result<usize, Declined> {
        if !self.containers.is_empty() && self.bytes[pos..end].contains(&b'\t')
        {
            return Err(declined());
        }
        let (mut i, mut col) = (pos, 0);
        while col < 4 && i < end {
            col += if self.bytes[i] == b'\t' { 4 - col % 4 } else { 1 };
            i += 1;
        }
        if col > 4 {
            return Err(declined());
        }
        Ok(i)
    }

    /// Reads the line `start..end`, `next` the start of the next.
    fn line(
        &mut self,
        start: usize,
        end: usize,
        next: usize,
    ) -> Result<(), Declined> {
        let bytes = self.bytes;
        // The open containers this line continues.
        let mut pos = start;
        let mut matched = 0;
        while matched < self.containers.len() {
            let (ind, first) = self.indentation(start, pos, end)?;
            match self.containers[matched] {
                Container::Quote => {
                    if ind > 3
                        || bytes.get(first) != Some(&b'>')
                        || first >= end
                    {
                        break;
                    }
                    pos = first + 1;
                    match bytes.get(pos) {
                        Some(b' ') if pos < end => pos += 1,
                        Some(b'\t') if pos < end => return Err(declined()),
                        _ => {}
                    }
                }
                Container::Item { width } => {
                    if first == end {
                        pos = (pos + width).min(end);
                    } else if ind >= width {
                        pos += width;
                    } else {
                        break;
                    }
                }
            }
            matched += 1;
        }
        let mut all = matched == self.containers.len();
        // A fenced code block takes every line its containers continue.
        if all && matches!(self.leaf, Leaf::Fenced { .. }) {
            let (ind, first) = self.indentation(start, pos, end)?;
            let Leaf::Fenced { byte, len, lines } = &mut self.leaf else {
                unreachable!()
            };
            if ind <= 3 && closes_fence(&bytes[first..end], *byte, *len) {
                return self.close_leaf();
            }
            // A last line of fewer than 4 spaces, with no line end, is no
            // code.
            if next > end
                || end - pos >= 4
                || bytes[pos..end].iter().any(|&b| b != b' ')
            {
                lines.push((pos, next));
            }
            return Ok(());
        }
        // An HTML block takes every line its containers continue, up to
        // its end.
        if all
            && let Leaf::Html { end_tag, end: html_end, .. } = &mut self.leaf
        {
            let line = &bytes[pos..end];
            match *end_tag {
                None if line.iter().all(u8::is_ascii_whitespace) => {
                    self.close_leaf()?;
                    return Ok(());
                }
                None => *html_end = next,
                Some(tag) => {
                    *html_end = next;
                    if memchr::memmem::find(line, tag).is_some() {
                        self.close_leaf()?;
                    }
                }
            }
            return Ok(());
        }
        // New containers.
        let mut new_item = false;
        loop {
            let (ind, first) = self.indentation(start, pos, end)?;
            if ind >= 4 || first == end {
                break;
            }
            let rest = &bytes[first..end];
            if rest[0] == b'>' {
                self.close_unmatched(matched)?;
                self.containers.push(Container::Quote);
                matched += 1;
                all = true;
                new_item = false;
                pos = first + 1;
                match bytes.get(pos) {
                    Some(b' ') if pos < end => pos += 1,
                    Some(b'\t') if pos < end => return Err(declined()),
                    _ => {}
                }
                continue;
            }
            let Some((len, other_than_one)) = list_marker(rest) else { break };
            let in_paragraph = all && matches!(self.leaf, Leaf::Paragraph(_));
            let after = &rest[len..];
            let spaces = after.iter().take_while(|&&b| b == b' ').count();
            let empty =
                after[spaces..].iter().all(|&b| b == b' ' || b == b'\t');
            if is_thematic_break(rest)
                || (in_paragraph
                    && (is_underline(rest, b'-') || empty || other_than_one))
            {
                break;
            }
            if empty
                || spaces > 4
                || after.get(spaces) == Some(&b'\t')
                || bytes[start..first].contains(&b'\t')
            {
                return Err(declined());
            }
            self.close_unmatched(matched)?;
            self.containers
                .push(Container::Item { width: (first - pos) + len + spaces });
            matched += 1;
            all = true;
            new_item = true;
            pos = first + len + spaces;
        }
        let (ind, mut first) = self.indentation(start, pos, end)?;
        let blank = first == end;
        if !all {
            // A lazy continuation line, or the unmatched containers end.
            if let Leaf::Paragraph(p) = &mut self.leaf
                && !blank
                && (ind >= 4
                    || !interrupts(&bytes[first..end])
                        && html_start(bytes, first, end, true).is_none())
            {
                p.lines.push(first);
                p.end = trimmed_end(bytes, first, end);
                p.pipes |= bytes[first..end].contains(&b'|');
                return Ok(());
            }
            self.close_unmatched(matched)?;
        }
        if blank {
            let indented = matches!(self.leaf, Leaf::Indented { .. });
            let at = if indented {
                self.after_four_columns(pos, end)?
            } else {
                end
            };
            match &mut self.leaf {
                Leaf::Indented { held, .. } => held.push((at, next)),
                _ => self.close_leaf()?,
            }
            return Ok(());
        }
        if ind >= 4 {
            let at = self.after_four_columns(pos, end)?;
            match &mut self.leaf {
                Leaf::Paragraph(p) => {
                    p.lines.push(first);
                    p.end = trimmed_end(bytes, first, end);
                    p.pipes |= bytes[first..end].contains(&b'|');
                }
                Leaf::Indented { lines, held } => {
                    lines.append(held);
                    lines.push((at, next));
                }
                _ => {
                    self.close_leaf()?;
                    self.leaf = Leaf::Indented {
                        lines: vec![(at, next)],
                        held: vec![],
                    };
                }
            }
            return Ok(());
        }
        let rest = &bytes[first..end];
        let in_paragraph = matches!(self.leaf, Leaf::Paragraph(_));
        let html = if rest[0] == b'<' {
            html_start(bytes, first, end, in_paragraph)
        } else {
            None
        };
        if let Leaf::Paragraph(p) = &mut self.leaf {
            let pipes = p.pipes || rest.contains(&b'|');
            // A table's delimiter row under a header row.
            if self.gfm && pipes && is_delimiter_row(rest) {
                return Err(declined());
            }
            if is_underline(rest, b'=') || is_underline(rest, b'-') {
                let Leaf::Paragraph(p) =
                    std::mem::replace(&mut self.leaf, Leaf::None)
                else {
                    unreachable!()
                };
                return self.inlines(p, true);
            }
            if html.is_none() && !interrupts(rest) {
                p.lines.push(first);
                p.end = trimmed_end(bytes, first, end);
                p.pipes = pipes;
                return Ok(());
            }
        }
        self.close_leaf()?;
        // pulldown-cmark opens front matter at any block's start.
        if self.gfm && ind == 0 && is_metadata_fence(rest) {
            let after = &bytes[next..];
            let line =
                &after[..memchr::memchr(b'\n', after).unwrap_or(after.len())];
            if line.iter().any(|b| !b.is_ascii_whitespace()) {
                return Err(declined());
            }
        }
        if let Some(end_tag) = html {
            if ind > 0 {
                return Err(declined());
            }
            self.leaf = Leaf::Html { end_tag, start: first, end: next };
            if end_tag
                .is_some_and(|tag| memchr::memmem::find(rest, tag).is_some())
            {
                self.close_leaf()?;
            }
            return Ok(());
        }
        if is_thematic_break(rest) {
            return Ok(());
        }
        if let Some(level_end) = atx_heading(rest) {
            if self.gfm && rest.contains(&b'{') {
                return Err(declined());
            }
            let (s, e) = atx_content(bytes, first + level_end, end)?;
            let p =
                Paragraph { start: s, end: e, lines: vec![], pipes: false };
            return if s < e { self.inlines(p, true) } else { Ok(()) };
        }
        if let Some((byte, len)) = fence_open(rest) {
            if ind > 0 {
                return Err(declined());
            }
            self.leaf = Leaf::Fenced { byte, len, lines: vec![] };
            return Ok(());
        }
        if rest[0] == b'[' && self.has_definitions {
            return Err(declined());
        }
        if new_item && self.gfm {
            if let Some(skip) = task_marker(rest) {
                first += skip;
                if first >= end {
                    return Err(declined());
                }
            }
        }
        self.leaf = Leaf::Paragraph(Paragraph {
            start: first,
            end: trimmed_end(bytes, first, end),
            lines: vec![],
            pipes: bytes[first..end].contains(&b'|'),
        });
        Ok(())
    }

    /// Ends the containers this line did not continue, and the leaf.
    fn close_unmatched(&mut self, matched: usize) -> Result<(), Declined> {
        self.close_leaf()?;
        self.containers.truncate(matched);
        Ok(())
    }

    /// Ends the leaf block being read.
    fn close_leaf(&mut self) -> Result<(), Declined> {
        match std::mem::replace(&mut self.leaf, Leaf::None) {
            Leaf::None => Ok(()),
            Leaf::Paragraph(p) => self.inlines(p, false),
            Leaf::Html { start, end, .. } => {
                self.sink.html(start, end);
                Ok(())
            }
            Leaf::Indented { lines, .. } | Leaf::Fenced { lines, .. } => {
                self.code_lines(lines);
                Ok(())
            }
        }
    }

    /// A code block's lines; lines that meet are one text, as
    /// pulldown-cmark gives them.
    fn code_lines(&mut self, lines: Vec<(usize, usize)>) {
        self.sink.close();
        let mut merged: Option<(usize, usize)> = None;
        for (start, end) in lines.into_iter().filter(|l| l.0 < l.1) {
            match &mut merged {
                Some(m) if m.1 == start => m.1 = end,
                _ => {
                    if let Some((s, e)) = merged.replace((start, end)) {
                        self.sink.code(s, e, true);
                    }
                }
            }
        }
        if let Some((s, e)) = merged {
            self.sink.code(s, e, true);
        }
    }

    /// A paragraph's or heading's inlines; with the GitHub extensions, a
    /// heading's attributes are not read yet.
    fn inlines(
        &mut self,
        p: Paragraph,
        heading: bool,
    ) -> Result<(), Declined> {
        if heading && self.gfm && self.bytes[..p.end].ends_with(b"}") {
            return Err(declined());
        }
        // Inside a block quote, a line's content does not start where the
        // last one ended: the inline pass is told where each starts.
        let quoted =
            !p.lines.is_empty() && self.containers.contains(&Container::Quote);
        self.sink.close();
        let lines = quoted.then_some(&p.lines[..]);
        inline::read(self.src, self.gfm, p.start, p.end, lines, self.sink)?;
        self.sink.close();
        Ok(())
    }
}
