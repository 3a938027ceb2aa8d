//! The block pass (CommonMark 5 and 4): a document's lines into
//! containers (block quotes, list items, footnote definitions) and leaf
//! blocks (paragraphs, headings, code and HTML blocks, tables, front
//! matter), and the link reference definitions paragraphs open with.
//! Tabs in container indentation, and tables and footnote definitions
//! inside containers, are not read yet: a document that may hold one is
//! declined.

use super::definitions::{self, Definition, Opened};
use super::markup::html_start;
use super::shapes::{
    atx_content, atx_heading, closes_fence, closes_metadata, fence_open,
    interrupts, is_delimiter_row, is_thematic_break, is_underline,
    list_marker, opens_metadata, task_marker, trimmed_end,
};
use super::{Declined, declined};
use super::{footnote, table};
use crate::syntax::chars::Table;

/// The bytes a container's marker may begin with, after its
/// indentation: a block quote's, a footnote definition's, a list item's.
const MAY_OPEN_CONTAINER: Table = Table::new(b">[-*+0123456789");

/// The bytes a leaf block's shape may begin with, after its indentation:
/// front matter's fence, a thematic break, an ATX heading, a code fence,
/// HTML, a table's rows, a setext underline, a task marker.
const MAY_SHAPE: Table = Table::new(b"-+*_#`~<|:=[");

/// An open container block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Quote,
    /// A list item: the columns its content is indented by.
    Item {
        width: usize,
    },
    /// A footnote definition, whose lines are indented by 4 columns.
    Footnote,
}

/// A paragraph being read.
#[derive(Debug)]
pub(super) struct Paragraph {
    pub start: usize,
    /// The end of its last line's content.
    pub end: usize,
    /// Where each line after the first starts its content: the indices
    /// of those starts in [`Document::line_starts`].
    pub lines: std::ops::Range<usize>,
    /// Where each line starts after its container markers: kept only
    /// when the paragraph opens with `[` (only definitions read them).
    heads: Vec<usize>,
    /// The first lazy continuation line (0 the first line, 1 the first
    /// of `lines`), if any.
    first_lazy: Option<usize>,
    /// Whether it follows a task list marker, which pulldown-cmark keeps
    /// in the text of a setext heading (not read).
    after_task: bool,
}

impl Paragraph {
    /// A paragraph whose first line's content is `first..end`, `head`
    /// where the line starts after its container markers.
    fn new(bytes: &[u8], head: usize, first: usize, end: usize) -> Paragraph {
        Paragraph {
            start: first,
            end: trimmed_end(bytes, first, end),
            lines: 0..0,
            heads: if bytes[first] == b'[' { vec![head] } else { vec![] },
            first_lazy: None,
            after_task: false,
        }
    }

    /// A heading's content, `start..end`.
    fn heading(start: usize, end: usize) -> Paragraph {
        Paragraph {
            start,
            end,
            lines: 0..0,
            heads: vec![],
            first_lazy: None,
            after_task: false,
        }
    }

    /// A line more, its content `first..end`, its start pushed onto
    /// `line_starts` (where the paragraph's are the last).
    fn push(
        &mut self,
        line_starts: &mut Vec<usize>,
        (bytes, head): (&[u8], usize),
        first: usize,
        end: usize,
        lazy: bool,
    ) {
        if self.lines.is_empty() {
            self.lines = line_starts.len()..line_starts.len();
        }
        line_starts.push(first);
        self.lines.end += 1;
        if !self.heads.is_empty() {
            self.heads.push(head);
        }
        self.end = trimmed_end(bytes, first, end);
        if lazy && self.first_lazy.is_none() {
            self.first_lazy = Some(self.lines.len());
        }
    }
}

/// A leaf block, read whole, for the inline pass once every definition
/// is known.
#[derive(Debug)]
pub(super) enum Block {
    /// A paragraph or heading; `quoted` when its lines do not meet.
    Inlines {
        p: Paragraph,
        quoted: bool,
    },
    /// A code block's lines: their indexes in [`Document::code_lines`].
    Code(std::ops::Range<usize>),
    /// Front matter's lines, which are text: as `Code`'s.
    Text(std::ops::Range<usize>),
    Html(usize, usize),
    /// An HTML block whose first line is indented: pulldown-cmark gives
    /// the indentation as a text of its own, empty in the source, at the
    /// block's start.
    IndentedHtml(usize, usize),
}

/// A table's delimiter row, found under its header row: its columns and
/// line end.
#[derive(Clone, Copy)]
struct DelimiterRow {
    columns: usize,
    end: usize,
}

/// The leaf block being read across lines.
enum Leaf {
    None,
    Paragraph(Paragraph),
    /// An indented code block: where its lines (content start, end with
    /// the newline) start in the document's code lines, and how many
    /// blank lines at their end are held back until a line follows.
    Indented {
        from: usize,
        held: usize,
    },
    /// A fenced code block: its fence byte and length, the columns its
    /// fence is indented by (which its lines lose), and where its lines
    /// start in the document's code lines.
    Fenced {
        byte: u8,
        len: usize,
        indent: usize,
        open: usize,
        from: usize,
    },
    /// Front matter: its fence byte, start, and where its lines start.
    Metadata {
        fence: u8,
        open: usize,
        from: usize,
    },
    /// An HTML block: the text that ends it (on its line), none for one
    /// that a blank line ends; its start and the end of its last line.
    Html {
        end_tag: Option<&'static [u8]>,
        start: usize,
        end: usize,
        indented: bool,
    },
    /// A table: its columns, the cells made up for short rows so far,
    /// its start and the end of its last row.
    Table {
        columns: usize,
        made_up: usize,
        start: usize,
        end: usize,
    },
}

/// What the block pass finds: the leaf blocks in document order, the
/// definitions in the order written (duplicates too), and the ranges of
/// the leaf blocks (outside which a dropped duplicate stands).
#[derive(Default)]
pub(super) struct Document<'s> {
    pub blocks: Vec<Block>,
    pub definitions: Vec<Definition<'s>>,
    pub ranges: Vec<std::ops::Range<usize>>,
    /// Where the lines after the first of every paragraph start, one
    /// buffer for the document (see [`Paragraph::lines`]).
    pub line_starts: Vec<usize>,
    /// The lines of every code block and front matter (content start,
    /// end), one buffer for the document (see [`Block::Code`]).
    pub code_lines: Vec<(usize, usize)>,
    /// The labels of the footnote definitions.
    pub footnotes: Vec<String>,
    /// Where each footnote definition starts (its `[^`), as `footnotes`.
    pub footnote_starts: Vec<usize>,
    /// The headings, in document order.
    pub headings: Vec<HeadingMark>,
}

/// A heading as the block pass finds it, for the anchors of a document.
#[derive(Clone, Debug)]
pub(super) struct HeadingMark {
    /// Where its first line starts (after indentation) and its last line
    /// ends (before the `\n`).
    pub start: usize,
    pub end: usize,
    /// 1 to 6.
    pub level: u8,
    /// The index of its inlines in [`Document::blocks`], none when empty.
    pub block: Option<usize>,
    /// Where an ATX heading's attribute block opens (its `{`) and closes
    /// (its `}`).
    pub attributes: Option<(usize, usize)>,
    /// Whether it is inside a container.
    pub nested: bool,
}

/// The state of the block pass.
struct Blocks<'s> {
    bytes: &'s [u8],
    gfm: bool,
    containers: Vec<Container>,
    leaf: Leaf,
    out: Vec<Block>,
    defs: Vec<Definition<'s>>,
    ranges: Vec<std::ops::Range<usize>>,
    line_starts: Vec<usize>,
    code_lines: Vec<(usize, usize)>,
    /// Room for the line starts of a paragraph that opens with `[`.
    paragraph_starts: Vec<usize>,
    /// Where the next line to read starts, when a line's reading took the
    /// line after it too (a table's delimiter row).
    skip_to: Option<usize>,
    footnotes: Vec<String>,
    footnote_starts: Vec<usize>,
    headings: Vec<HeadingMark>,
    /// The innermost container when it is a list item opened empty, and
    /// whether a blank line has followed it (a list item begins with at
    /// most one blank line: the next line that is not blank ends it).
    empty_item: Option<(usize, bool)>,
    /// An indented HTML block in a list item ended on the line before,
    /// with this many containers open: in a tight list, pulldown-cmark's
    /// text run goes on from its indentation into a paragraph right after
    /// it in the same item, which is not read.
    after_indented_html: Option<usize>,
    /// Whether the short ways are taken: a paragraph's plain lines straight
    /// in, and the shape tests only where a line's first byte may begin
    /// the shape (off only to test them against the long way).
    fast_paths: bool,
}

/// Reads the blocks of `src`.
pub(super) fn read(src: &str, gfm: bool) -> Result<Document<'_>, Declined> {
    read_lines(src, gfm, true)
}

/// [`read`], a paragraph's plain lines read the short way when
/// `fast_paths`.
fn read_lines(
    src: &str,
    gfm: bool,
    fast_paths: bool,
) -> Result<Document<'_>, Declined> {
    let bytes = src.as_bytes();
    // Line ends other than `\n` (a `\r\n` document is read without its
    // `\r`, see `line_ends`).
    if memchr::memchr(b'\r', bytes).is_some() {
        return Err(declined());
    }
    // The vertical tab and form feed, which pulldown-cmark reads as
    // spaces.
    if memchr::memchr2(0x0B, 0x0C, bytes).is_some() {
        return Err(declined());
    }
    // About one leaf block in 64 bytes: room made once, not grown.
    let mut blocks = Blocks {
        bytes,
        gfm,
        containers: vec![],
        leaf: Leaf::None,
        out: Vec::with_capacity(bytes.len() / 64),
        defs: vec![],
        ranges: Vec::with_capacity(bytes.len() / 64),
        // About a line in 64 bytes.
        line_starts: Vec::with_capacity(bytes.len() / 64),
        code_lines: vec![],
        paragraph_starts: vec![],
        skip_to: None,
        footnotes: vec![],
        footnote_starts: vec![],
        // Room for a page's headings, not grown from nothing.
        headings: Vec::with_capacity(16),
        empty_item: None,
        after_indented_html: None,
        fast_paths,
    };
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = memchr::memchr(b'\n', &bytes[line_start..])
            .map_or(bytes.len(), |i| line_start + i);
        let next = (line_end + 1).min(bytes.len());
        blocks.line(line_start, line_end, next)?;
        line_start = blocks.skip_to.take().unwrap_or(next);
    }
    blocks.close_leaf()?;
    Ok(Document {
        blocks: blocks.out,
        definitions: blocks.defs,
        ranges: blocks.ranges,
        line_starts: blocks.line_starts,
        code_lines: blocks.code_lines,
        footnotes: blocks.footnotes,
        footnote_starts: blocks.footnote_starts,
        headings: blocks.headings,
    })
}

impl Blocks<'_> {
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
        let empty_item = self.empty_item.take();
        let after_indented_html =
            std::mem::take(&mut self.after_indented_html);
        // Outside containers, a line that opens with a letter goes on the
        // open paragraph: no block start, table row or lazy rule begins
        // with one (most lines of prose).
        if self.fast_paths
            && self.containers.is_empty()
            && bytes.get(start).is_some_and(u8::is_ascii_alphabetic)
            && let Leaf::Paragraph(p) = &mut self.leaf
        {
            p.push(&mut self.line_starts, (bytes, start), start, end, false);
            return Ok(());
        }
        // The open containers this line continues.
        let mut pos = start;
        let mut matched = 0;
        while matched < self.containers.len() {
            let (ind, first) = self.indentation(start, pos, end)?;
            if empty_item == Some((matched, true)) && first < end {
                break;
            }
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
                Container::Item { .. } | Container::Footnote => {
                    let width = match self.containers[matched] {
                        Container::Item { width } => width,
                        _ => 4,
                    };
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
        let continued = all;
        // Front matter takes every line its containers continue, up to its
        // closing line (read from the line's very start).
        if all && let Leaf::Metadata { fence, open, from } = self.leaf {
            if closes_metadata(&bytes[start..end], fence) {
                self.leaf = Leaf::None;
                self.ranges.push(open..end);
                self.out.push(Block::Text(from..self.code_lines.len()));
                return Ok(());
            }
            self.code_lines.push((pos, next));
            return Ok(());
        }
        // A fenced code block takes every line its containers continue.
        if all && matches!(self.leaf, Leaf::Fenced { .. }) {
            let (ind, first) = self.indentation(start, pos, end)?;
            let Leaf::Fenced { byte, len, indent, .. } = self.leaf else {
                unreachable!()
            };
            if ind <= 3 && closes_fence(&bytes[first..end], byte, len) {
                return self.close_leaf();
            }
            // A last line of fewer than 4 spaces, with no line end, is no
            // code.
            if next > end
                || end - pos >= 4
                || bytes[pos..end].iter().any(|&b| b != b' ')
            {
                // Up to the fence's indentation in spaces; a tab there
                // (which pulldown-cmark would part) is not read.
                let mut at = pos;
                while at < end && at - pos < indent {
                    match bytes[at] {
                        b' ' => at += 1,
                        b'\t' => return Err(declined()),
                        _ => break,
                    }
                }
                self.code_lines.push((at, next));
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
                    // A last line that its container markers take whole
                    // is not the block's.
                    if pos < end || end < bytes.len() {
                        *html_end = next;
                    }
                    if memchr::memmem::find(line, tag).is_some() {
                        self.close_leaf()?;
                    }
                }
            }
            return Ok(());
        }
        if self.table_row(all, pos, end, next)? {
            return Ok(());
        }
        // New containers.
        let mut new_item = false;
        // The indentation where no container opens is the content's.
        let (ind, mut first) = loop {
            let (ind, first) = self.indentation(start, pos, end)?;
            if ind >= 4 || first == end {
                break (ind, first);
            }
            let rest = &bytes[first..end];
            if self.fast_paths && !MAY_OPEN_CONTAINER.contains(rest[0]) {
                break (ind, first);
            }
            if self.gfm
                && let Some((label, content)) = footnote::definition(rest)?
            {
                // In a container, pulldown-cmark ends lists and an open
                // footnote around it, which is not read.
                if matched > 0 {
                    return Err(declined());
                }
                self.footnotes.push(label.to_string());
                self.footnote_starts.push(first);
                self.close_unmatched(matched)?;
                self.containers.push(Container::Footnote);
                matched += 1;
                all = true;
                new_item = false;
                pos = first + content;
                continue;
            }
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
            let Some((len, other_than_one)) = list_marker(rest) else {
                break (ind, first);
            };
            let in_paragraph = all && matches!(self.leaf, Leaf::Paragraph(_));
            let after = &rest[len..];
            let spaces = after.iter().take_while(|&&b| b == b' ').count();
            let empty =
                after[spaces..].iter().all(|&b| b == b' ' || b == b'\t');
            if is_thematic_break(rest)
                || (in_paragraph
                    && (is_underline(rest, b'-') || empty || other_than_one))
            {
                break (ind, first);
            }
            // An item whose content is indented code.
            if spaces > 4 && !empty {
                return Err(declined());
            }
            // A tab after the marker or before it.
            if (after.get(spaces) == Some(&b'\t') && !empty)
                || bytes[start..first].contains(&b'\t')
            {
                return Err(declined());
            }
            self.close_unmatched(matched)?;
            // An empty item's content is indented by one column past its
            // marker, whatever spaces follow it.
            let width = (first - pos) + len + if empty { 1 } else { spaces };
            // A task list marker alone on the line begins the item as an
            // empty one does (its content indented as written).
            let content = first + len + spaces;
            let task_alone = self.gfm
                && !empty
                && task_marker(&bytes[content..next])
                    .is_some_and(|k| content + k >= end);
            if empty || task_alone {
                self.empty_item = Some((self.containers.len(), false));
            }
            self.containers.push(Container::Item { width });
            matched += 1;
            all = true;
            new_item = true;
            pos = if empty || task_alone { end } else { content };
        };
        let blank = first == end;
        if !all {
            // A lazy continuation line, or the unmatched containers end.
            if ind < 4 && self.may_head_table(first, end, next) {
                return Err(declined());
            }
            if let Leaf::Paragraph(p) = &mut self.leaf
                && !blank
                && (ind >= 4
                    || !interrupts(&bytes[first..end])
                        && html_start(bytes, first, end, true).is_none())
            {
                p.push(&mut self.line_starts, (bytes, pos), first, end, true);
                return Ok(());
            }
            self.close_unmatched(matched)?;
        }
        if blank {
            // A blank line after an empty item, inside it.
            if let Some((item, _)) = empty_item
                && self.empty_item.is_none()
                && all
                && self.containers.len() == item + 1
            {
                self.empty_item = Some((item, true));
            }
            let indented = matches!(self.leaf, Leaf::Indented { .. });
            let at = if indented {
                self.after_four_columns(pos, end)?
            } else {
                end
            };
            match &mut self.leaf {
                Leaf::Indented { held, .. } => {
                    *held += 1;
                    self.code_lines.push((at, next));
                }
                _ => self.close_leaf()?,
            }
            return Ok(());
        }
        if ind >= 4 {
            let at = self.after_four_columns(pos, end)?;
            match &mut self.leaf {
                Leaf::Paragraph(p) => p.push(
                    &mut self.line_starts,
                    (bytes, pos),
                    first,
                    end,
                    false,
                ),
                Leaf::Indented { held, .. } => {
                    *held = 0;
                    self.code_lines.push((at, next));
                }
                _ => {
                    self.close_leaf()?;
                    let from = self.code_lines.len();
                    self.code_lines.push((at, next));
                    self.leaf = Leaf::Indented { from, held: 0 };
                }
            }
            return Ok(());
        }
        let rest = &bytes[first..end];
        // A line whose first byte begins no leaf block's shape (most of
        // prose, and a letter always) is a paragraph's.
        let shaped = !self.fast_paths || MAY_SHAPE.contains(rest[0]);
        let in_paragraph = matches!(self.leaf, Leaf::Paragraph(_));
        let html = if rest[0] == b'<' {
            html_start(bytes, first, end, in_paragraph)
        } else {
            None
        };
        // A row with a pipe first, over a delimiter row, ends a paragraph
        // and opens a table.
        if in_paragraph
            && !self.containers.is_empty()
            && self.may_head_table(first, end, next)
        {
            return Err(declined());
        }
        let table_head = if self.gfm
            && rest[0] == b'|'
            && self.containers.is_empty()
            && in_paragraph
        {
            self.heads_table(first, end, next, true)?
        } else {
            None
        };
        if let Leaf::Paragraph(p) = &mut self.leaf {
            // A table's delimiter row under a header row, in a container.
            // The pipes are looked for only under a line that may be one:
            // the lines between hold only container markers besides.
            if self.gfm
                && shaped
                && !self.containers.is_empty()
                && is_delimiter_row(rest)
                && (rest.contains(&b'|')
                    || bytes[p.start..p.end].contains(&b'|'))
            {
                return Err(declined());
            }
            if let Some(delimiter) = table_head {
                self.close_leaf()?;
                return self.open_table(first, end, delimiter);
            }
            if shaped && (is_underline(rest, b'=') || is_underline(rest, b'-'))
            {
                let Leaf::Paragraph(p) =
                    std::mem::replace(&mut self.leaf, Leaf::None)
                else {
                    unreachable!()
                };
                if p.after_task {
                    return Err(declined());
                }
                let kept = self.out.len();
                self.inlines(p, true)?;
                // What definitions leave of the paragraph is the heading.
                if let Some(Block::Inlines { p, .. }) = self.out.get(kept) {
                    let start = p.start;
                    self.mark_heading(
                        start,
                        end,
                        if rest[0] == b'=' { 1 } else { 2 },
                        Some(kept),
                        None,
                    );
                }
                // Under definitions alone, pulldown-cmark reads the
                // underline as a block of its own: front matter's fence,
                // a thematic break, or a paragraph's first line.
                if self.out.len() == kept
                    && !self.opens_metadata(ind, first, end, next)
                    && !is_thematic_break(rest)
                {
                    self.leaf = Leaf::Paragraph(Paragraph::new(
                        bytes, pos, first, end,
                    ));
                }
                return Ok(());
            }
            if html.is_none() && !(shaped && interrupts(rest)) {
                p.push(&mut self.line_starts, (bytes, pos), first, end, false);
                return Ok(());
            }
        }
        self.close_leaf()?;
        // pulldown-cmark opens front matter at any block's start.
        if shaped && self.opens_metadata(ind, first, end, next) {
            return Ok(());
        }
        if let Some(end_tag) = html {
            self.leaf = Leaf::Html {
                end_tag,
                start: first,
                end: next,
                indented: ind > 0,
            };
            if end_tag
                .is_some_and(|tag| memchr::memmem::find(rest, tag).is_some())
            {
                self.close_leaf()?;
            }
            return Ok(());
        }
        if shaped && is_thematic_break(rest) {
            return Ok(());
        }
        if shaped && let Some(level_end) = atx_heading(rest) {
            // With the GitHub extensions, a trailing `{...}` is the
            // heading's attributes, not its text.
            let content_end = if self.gfm {
                attribute_block(bytes, first + level_end, end).unwrap_or(end)
            } else {
                end
            };
            let (s, e) = atx_content(bytes, first + level_end, content_end)?;
            self.ranges.push(first..end);
            let block = (s < e).then_some(self.out.len());
            if s < e {
                self.inlines(Paragraph::heading(s, e), true)?;
            }
            let attributes = (content_end < end).then(|| {
                (content_end, trimmed_end(bytes, content_end, end) - 1)
            });
            let level = u8::try_from(level_end).unwrap_or(6);
            self.mark_heading(first, end, level, block, attributes);
            return Ok(());
        }
        if shaped && let Some((byte, len)) = fence_open(rest) {
            if bytes[pos..first].contains(&b'\t') {
                return Err(declined());
            }
            self.leaf = Leaf::Fenced {
                byte,
                len,
                indent: ind,
                open: first,
                from: self.code_lines.len(),
            };
            return Ok(());
        }
        let mut after_task = false;
        if new_item
            && self.gfm
            && let Some(skip) = task_marker(&bytes[first..next])
        {
            first += skip;
            after_task = true;
            // Whether a definition may follow a task marker, and an
            // item a marker alone begins (as an empty one), are not read.
            if first >= end || bytes[first] == b'[' {
                return Err(declined());
            }
        }
        if continued && after_indented_html == Some(self.containers.len()) {
            return Err(declined());
        }
        let mut paragraph = Paragraph::new(bytes, pos, first, end);
        paragraph.after_task = after_task;
        self.leaf = Leaf::Paragraph(paragraph);
        Ok(())
    }

    /// Notes a heading for the anchors (see [`HeadingMark`]).
    fn mark_heading(
        &mut self,
        start: usize,
        end: usize,
        level: u8,
        block: Option<usize>,
        attributes: Option<(usize, usize)>,
    ) {
        let nested = !self.containers.is_empty();
        self.headings.push(HeadingMark {
            start,
            end,
            level,
            block,
            attributes,
            nested,
        });
    }

    /// Opens front matter when the line `first..end` (indented by `ind`
    /// columns, the next line from `next`) is its fence: whether it is.
    fn opens_metadata(
        &mut self,
        ind: usize,
        first: usize,
        end: usize,
        next: usize,
    ) -> bool {
        let rest = &self.bytes[first..end];
        if !(self.gfm && ind == 0 && opens_metadata(self.bytes, rest, next)) {
            return false;
        }
        self.leaf = Leaf::Metadata {
            fence: rest[0],
            open: first,
            from: self.code_lines.len(),
        };
        true
    }

    /// The delimiter row under the line `first..end` (after its
    /// indentation) when that line heads a table: the line after it (from
    /// `next`) a delimiter row of as many columns. `interrupting` when it
    /// is not a paragraph's first line.
    fn heads_table(
        &self,
        first: usize,
        end: usize,
        next: usize,
        interrupting: bool,
    ) -> Result<Option<DelimiterRow>, Declined> {
        let bytes = self.bytes;
        if next >= bytes.len() || next == end {
            return Ok(None);
        }
        let next_end = memchr::memchr(b'\n', &bytes[next..])
            .map_or(bytes.len(), |k| next + k);
        let Some(columns) = table::delimiter_columns(&bytes[next..next_end])
        else {
            return Ok(None);
        };
        let heads = table::header_columns(bytes, first, end, interrupting)?
            == Some(columns);
        Ok(heads.then_some(DelimiterRow { columns, end: next_end }))
    }

    /// Whether the line `first..end`, in a paragraph inside containers,
    /// may head a table that interrupts it (which is not read there): a
    /// pipe first, and a pipe and a hyphen on the next line.
    fn may_head_table(&self, first: usize, end: usize, next: usize) -> bool {
        let bytes = self.bytes;
        if !self.gfm
            || !matches!(self.leaf, Leaf::Paragraph(_))
            || bytes.get(first) != Some(&b'|')
            || next <= end
        {
            return false;
        }
        let next_end = memchr::memchr(b'\n', &bytes[next..])
            .map_or(bytes.len(), |k| next + k);
        let line = &bytes[next..next_end];
        line.contains(&b'|') && line.contains(&b'-')
    }

    /// Opens a table whose header row is `first..end`, over `delimiter`
    /// (the next line), which this line's reading takes too.
    fn open_table(
        &mut self,
        first: usize,
        end: usize,
        delimiter: DelimiterRow,
    ) -> Result<(), Declined> {
        let after = (delimiter.end + 1).min(self.bytes.len());
        self.leaf = Leaf::Table {
            columns: delimiter.columns,
            made_up: 0,
            start: first,
            end: after,
        };
        self.skip_to = Some(after);
        self.row(table::cells(self.bytes, first, end)?)
    }

    /// A table row's `cells` (from [`table::cells`]), those past the
    /// table's columns dropped as pulldown-cmark drops them.
    fn row(&mut self, cells: Vec<(usize, usize)>) -> Result<(), Declined> {
        let Leaf::Table { columns, made_up, .. } = &mut self.leaf else {
            return Err(declined());
        };
        *made_up += columns.saturating_sub(cells.len());
        if *made_up >= table::MAX_MADE_UP_CELLS {
            return Err(declined());
        }
        let columns = *columns;
        for (s, e) in cells.into_iter().take(columns) {
            if s < e {
                self.out.push(Block::Inlines {
                    p: Paragraph::heading(s, e),
                    quoted: false,
                });
            }
        }
        Ok(())
    }

    /// A line read as a table's: a row of the open table, or (declined in
    /// a container) a paragraph's first line that heads one. `false` when
    /// the line is read as any other.
    fn table_row(
        &mut self,
        all: bool,
        pos: usize,
        end: usize,
        next: usize,
    ) -> Result<bool, Declined> {
        let bytes = self.bytes;
        if let Leaf::Table { end: table_end, .. } = &mut self.leaf {
            let mut at = pos;
            while at < end && matches!(bytes[at], b' ' | b'\t') {
                at += 1;
            }
            // The row's cells, read once: a row of none ends the table.
            let cells = if !all
                || table::ends_table(bytes, at, end)
                || footnote::definition(&bytes[at..end])?.is_some()
            {
                vec![]
            } else {
                table::cells(bytes, at, end)?
            };
            if cells.is_empty() {
                self.close_leaf()?;
                return Ok(false);
            }
            *table_end = next;
            self.row(cells)?;
            return Ok(true);
        }
        // pulldown-cmark reads the delimiter row from the header row's
        // line end, before this line's blocks.
        let (header, one_line) = match &self.leaf {
            Leaf::Paragraph(p) if self.gfm && all => {
                (p.start, p.lines.is_empty())
            }
            _ => return Ok(false),
        };
        let Some(columns) = table::delimiter_columns(&bytes[pos..end]) else {
            return Ok(false);
        };
        // Definitions that a paragraph opens with are read when it ends:
        // the line after them may head a table.
        if !one_line && bytes[header] == b'[' {
            return Err(declined());
        }
        if !one_line {
            return Ok(false);
        }
        // The header row is the line before (its containers' markers
        // read), its delimiter row this one, already read.
        let Some(header_end) =
            memchr::memchr(b'\n', &bytes[header..pos]).map(|n| header + n)
        else {
            return Ok(false);
        };
        if table::header_columns(bytes, header, header_end, false)?
            != Some(columns)
        {
            return Ok(false);
        }
        self.leaf = Leaf::None;
        self.open_table(header, header_end, DelimiterRow { columns, end })?;
        self.skip_to = None;
        Ok(true)
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
            Leaf::None => {}
            Leaf::Paragraph(p) => self.inlines(p, false)?,
            Leaf::Html { end_tag, start, end, indented } => {
                let in_item = self
                    .containers
                    .iter()
                    .any(|c| matches!(c, Container::Item { .. }));
                self.after_indented_html =
                    (indented && end_tag.is_some() && in_item)
                        .then_some(self.containers.len());
                self.ranges.push(start..end);
                self.out.push(if indented {
                    Block::IndentedHtml(start, end)
                } else {
                    Block::Html(start, end)
                });
            }
            Leaf::Table { start, end, .. } => self.ranges.push(start..end),
            Leaf::Indented { from, held } => {
                // The blank lines held at its end are none of its.
                let kept = self.code_lines.len() - held;
                self.code_lines.truncate(kept);
                let lines = &self.code_lines[from..];
                if let (Some(f), Some(l)) = (lines.first(), lines.last()) {
                    self.ranges.push(f.0..l.1);
                }
                self.out.push(Block::Code(from..kept));
            }
            Leaf::Metadata { open, from, .. } => {
                let end =
                    self.code_lines[from..].last().map_or(open + 3, |l| l.1);
                self.ranges.push(open..end);
                self.out.push(Block::Text(from..self.code_lines.len()));
            }
            Leaf::Fenced { open, from, .. } => {
                let end =
                    self.code_lines[from..].last().map_or(open + 3, |l| l.1);
                self.ranges.push(open..end);
                self.out.push(Block::Code(from..self.code_lines.len()));
            }
        }
        Ok(())
    }

    /// A paragraph's or heading's inlines, after the definitions a
    /// paragraph opens with; with the GitHub extensions, a heading's
    /// attributes are not read yet.
    fn inlines(
        &mut self,
        mut p: Paragraph,
        heading: bool,
    ) -> Result<(), Declined> {
        // A setext heading's last line may end in a hard break's `\`,
        // before which pulldown-cmark looks for the attribute block.
        if heading && self.gfm {
            let text = &self.bytes[p.start..p.end];
            let kept = text
                .iter()
                .rposition(|b| !matches!(b, b'\\' | b' ' | b'\t'))
                .map_or(&[][..], |k| &text[..=k]);
            if kept.ends_with(b"}") {
                return Err(declined());
            }
        }
        if self.bytes[p.start] == b'[' && !p.heads.is_empty() {
            match self.definitions(p)? {
                Some(rest) => p = rest,
                None => return Ok(()),
            }
        }
        self.ranges.push(p.start..p.end);
        // Inside a block quote, a line's content does not start where the
        // last one ended: the inline pass is told where each starts.
        let quoted =
            !p.lines.is_empty() && self.containers.contains(&Container::Quote);
        self.out.push(Block::Inlines { p, quoted });
        Ok(())
    }

    /// The definitions `p` opens with, kept; the rest of `p`, if any.
    fn definitions(
        &mut self,
        p: Paragraph,
    ) -> Result<Option<Paragraph>, Declined> {
        let bytes = self.bytes;
        // The lines' starts, in room the pass keeps from one paragraph to
        // the next.
        let mut starts = std::mem::take(&mut self.paragraph_starts);
        starts.clear();
        starts.push(p.start);
        starts.extend_from_slice(&self.line_starts[p.lines.clone()]);
        let mut k = 0;
        let mut read = Ok(());
        while k < starts.len() && bytes[starts[k]] == b'[' {
            match definitions::read(bytes, &starts[k..], p.end) {
                Ok(Opened::Definition(d, lines)) => {
                    self.defs.push(d);
                    k += lines;
                }
                Ok(Opened::Text) => break,
                Err(d) => {
                    read = Err(d);
                    break;
                }
            }
        }
        // The first line after the definitions, if any.
        let first = starts.get(k).copied();
        self.paragraph_starts = starts;
        read?;
        if k == 0 {
            return Ok(Some(p));
        }
        // pulldown-cmark reads definitions as it meets them: what follows
        // them opens a block of its own, which a paragraph's lines may not
        // have read as such. A lazy line there is none (no paragraph was
        // open).
        if p.first_lazy.is_some_and(|lazy| lazy <= k) {
            return Err(declined());
        }
        let Some(first) = first else { return Ok(None) };
        let head = p.heads[k];
        let end = memchr::memchr(b'\n', &bytes[first..])
            .map_or(bytes.len(), |n| first + n);
        let rest = &bytes[first..end];
        if first - head >= 4
            || bytes[head..first].contains(&b'\t')
            || list_marker(rest).is_some()
            || html_start(bytes, first, end, false).is_some()
        {
            return Err(declined());
        }
        Ok(Some(Paragraph {
            start: first,
            end: p.end,
            lines: p.lines.start + k..p.lines.end,
            heads: p.heads[k..].to_vec(),
            first_lazy: p.first_lazy.map(|lazy| lazy - k),
            after_task: p.after_task,
        }))
    }
}

/// Where the attribute block (`{#id .class}`) of the ATX heading whose
/// text, after its `#`s, is `start..end` opens, as pulldown-cmark finds
/// it: the last thing on the line, with no `{}<>\\` or line end inside.
fn attribute_block(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    let mut start = start;
    while start < end && matches!(bytes[start], b' ' | b'\t') {
        start += 1;
    }
    let text = &bytes[start..end];
    let close = text.iter().rposition(|&b| !matches!(b, b' ' | b'\t'))?;
    if text[close] != b'}' {
        return None;
    }
    let open = text[..close]
        .iter()
        .rposition(|&b| matches!(b, b'{' | b'}' | b'<' | b'>' | b'\\'))?;
    (text[open] == b'{').then_some(start + open)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// What the block pass finds in `src`, written out to compare.
    fn blocks(src: &str, fast_paths: bool) -> String {
        match super::read_lines(src, true, fast_paths) {
            Ok(d) => format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                d.blocks,
                d.definitions,
                d.ranges,
                d.line_starts,
                d.code_lines,
                d.footnotes,
                d.headings
            ),
            Err(declined) => format!("{declined:?}"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn fast_paths_read_as_the_line_by_line_pass_reads_them(
            md in super::super::tests::markdown_like(),
        ) {
            prop_assert_eq!(blocks(&md, true), blocks(&md, false));
        }
    }
}
