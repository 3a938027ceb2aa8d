//! The inline pass over one paragraph or heading: code spans, autolinks
//! and inline HTML, the brackets of links and images, and the emphasis
//! delimiters (only for where they end a text run), handed to the sink in
//! document order with the text between them.

use std::borrow::Cow;

use super::definitions;
use super::destination;
use super::emphasis::{self, Delim};
use super::footnote;
use super::markup;
use super::outline::Recorder;
use super::sink::Sink;
use super::skip;
use super::{Declined, declined};
use crate::Span;
use crate::syntax::chars::Table;

/// What is not text in a paragraph, at `start..end`.
#[derive(Debug)]
pub(super) struct Item<'s> {
    pub start: usize,
    pub end: usize,
    pub what: What<'s>,
}

/// The kinds of [`Item`]; a link is borrowed from the input unless an
/// escape was undone or `mailto:` added.
#[derive(Debug)]
pub(super) enum What<'s> {
    Code,
    Html,
    Autolink(Cow<'s, str>),
    /// A link's `[` (or an image's `![`): its destination as written and
    /// its link.
    LinkStart {
        image: bool,
        dest: Span,
        link: Cow<'s, str>,
    },
    /// A reference link's `[` (or an image's `![`): the end of the
    /// construct and the definition it uses.
    RefStart {
        image: bool,
        end: usize,
        def: usize,
    },
    /// A link's `](...)` (or a reference's `]`, `][label]` or `][]`).
    LinkEnd,
    /// Emphasis delimiters that open or close emphasis.
    Delimiter,
    /// A footnote reference: no text, and no end of a text run.
    Footnote,
}

/// The buffers the inline pass reuses from one paragraph to the next.
#[derive(Default)]
pub(super) struct Scratch<'s> {
    items: Vec<Item<'s>>,
    delims: Vec<Delim>,
    brackets: Vec<Bracket>,
}

impl Scratch<'_> {
    /// Buffers with room for a long paragraph's items, made once a
    /// document rather than grown a step at a time.
    pub(super) fn with_room() -> Self {
        Scratch {
            items: Vec::with_capacity(64),
            delims: Vec::with_capacity(64),
            brackets: Vec::with_capacity(16),
        }
    }
}

/// An open `[` or `![`.
struct Bracket {
    start: usize,
    image: bool,
    active: bool,
    /// The delimiters before it.
    delims: usize,
}

/// The bytes the scan stops at: what may start or end a construct.
const SPECIAL: Table = Table::new(b"\\`<![]*_~");

/// Reads the inlines of `start..end` of `src` into `sink`, and into
/// `outline` when the anchors are read.
#[allow(clippy::too_many_arguments)]
pub(super) fn read<'s>(
    src: &'s str,
    gfm: bool,
    start: usize,
    end: usize,
    lines: Option<&[usize]>,
    scratch: &mut Scratch<'s>,
    sink: &mut Sink<'s, '_>,
    outline: Option<&mut Recorder>,
) -> Result<(), Declined> {
    let bytes = src.as_bytes();
    // A paragraph with no byte that can start or end a construct is one
    // text, with no item to gather, sort or match.
    let first = skip::to_next(&SPECIAL, bytes, start, end);
    if first == end {
        emit(bytes, start, end, lines, std::iter::empty(), sink, outline);
        return Ok(());
    }
    scan(src, gfm, (start, first, end), lines, scratch, sink, outline)
}

/// [`read`] of `start..end` from `first`, the first byte that can start
/// or end a construct.
#[allow(clippy::too_many_arguments)]
fn scan<'s>(
    src: &'s str,
    gfm: bool,
    (start, first, end): (usize, usize, usize),
    lines: Option<&[usize]>,
    scratch: &mut Scratch<'s>,
    sink: &mut Sink<'s, '_>,
    outline: Option<&mut Recorder>,
) -> Result<(), Declined> {
    let bytes = src.as_bytes();
    let Scratch { items, delims, brackets } = scratch;
    items.clear();
    delims.clear();
    brackets.clear();
    // Where the text handed to the sink has come to, and the item count
    // at which a long paragraph's settled items are handed on.
    let mut pos = start;
    let mut flush_at = FLUSH_AT;
    let mut outline = outline;
    // Past a count of items, hands on those settled by `$at`.
    macro_rules! settle {
        ($at:expr) => {
            if items.len() >= flush_at {
                let at = (&mut pos, &mut flush_at);
                let held = (&mut *items, &delims[..], &brackets[..]);
                let to = outline.as_deref_mut();
                hand_on(bytes, $at, at, lines, held, sink, to);
            }
        };
    }
    // Where lines do not meet, nothing but text may cross a line's end.
    let crossing = |from: usize, to: usize| {
        if lines.is_some() && memchr::memchr(b'\n', &bytes[from..to]).is_some()
        {
            Err(declined())
        } else {
            Ok(())
        }
    };
    // Each turn starts at a byte that can matter (the first is `first`),
    // and ends with the skip to the next.
    let mut i = first;
    while let Some(&c) = bytes[..end].get(i) {
        match c {
            b'\\' => {
                i += if i + 1 < end && bytes[i + 1].is_ascii_punctuation() {
                    2
                } else {
                    1
                };
            }
            b'`' => {
                let n = run_len(bytes, i, end, b'`');
                match closing_backticks(bytes, i + n, end, n) {
                    Some(close) => {
                        items.push(Item {
                            start: i,
                            end: close,
                            what: What::Code,
                        });
                        i = close;
                        settle!(i);
                    }
                    None => i += n,
                }
            }
            b'<' => {
                if let Some((close, link)) = markup::autolink(bytes, i, end) {
                    crossing(i, close)?;
                    items.push(Item {
                        start: i,
                        end: close,
                        what: What::Autolink(link),
                    });
                    i = close;
                    settle!(i);
                } else if let Some(close) = markup::inline_html(bytes, i, end)?
                {
                    crossing(i, close)?;
                    items.push(Item {
                        start: i,
                        end: close,
                        what: What::Html,
                    });
                    i = close;
                    settle!(i);
                } else {
                    i += 1;
                }
            }
            b'!' if bytes.get(i + 1) == Some(&b'[') && i + 1 < end => {
                brackets.push(Bracket {
                    start: i,
                    image: true,
                    active: true,
                    delims: delims.len(),
                });
                i += 2;
            }
            b'[' => {
                brackets.push(Bracket {
                    start: i,
                    image: false,
                    active: true,
                    delims: delims.len(),
                });
                i += 1;
            }
            b']' => {
                i = close_bracket(
                    src,
                    (i, end),
                    lines,
                    brackets,
                    delims,
                    items,
                    sink,
                )?;
                settle!(i);
            }
            b'*' | b'_' | b'~' => {
                let n = run_len(bytes, i, end, c);
                // Without the GitHub extensions a `~` is text, and so is
                // a run of more than two.
                if c != b'~' || gfm && n <= 2 {
                    delims.push(Delim::new(bytes, start, end, i, n, lines));
                }
                i += n;
            }
            _ => i += 1,
        }
        i = skip::to_next(&SPECIAL, bytes, i, end);
    }
    emphasis::process(delims, 0, items);
    items.sort_unstable_by_key(|it| it.start);
    emit(bytes, pos, end, lines, items.drain(..), sink, outline);
    Ok(())
}

/// The item count at which a paragraph's items are first handed on
/// before its end: a long paragraph's items (a few dozen bytes each)
/// would otherwise all be held until its end. In tests, every item is,
/// so that the tests against pulldown-cmark read every paragraph so.
const FLUSH_AT: usize = if cfg!(test) { 1 } else { 4096 };

/// Hands the sink the items of the paragraph read up to `at` that nothing
/// later can change or precede (those before the first open bracket that
/// may still make a link and the first delimiter that may still open
/// emphasis), with the text before them from `pos`, which moves on past
/// the last; the rest stay. `flush_at` grows with what stays, so that a
/// paragraph whose items cannot be handed on is not looked at again and
/// again.
#[cold]
#[inline(never)]
fn hand_on<'s>(
    bytes: &[u8],
    at: usize,
    (pos, flush_at): (&mut usize, &mut usize),
    lines: Option<&[usize]>,
    (items, delims, brackets): (&mut Vec<Item<'s>>, &[Delim], &[Bracket]),
    sink: &mut Sink<'s, '_>,
    outline: Option<&mut Recorder>,
) {
    let bracket = brackets.iter().find(|b| b.active).map_or(at, |b| b.start);
    let delim = delims.iter().find_map(Delim::may_open).unwrap_or(at);
    let settled = at.min(bracket).min(delim);
    items.sort_unstable_by_key(|it| it.start);
    let n = items.partition_point(|it| it.start < settled);
    if n > 0 {
        let last_end = items[n - 1].end;
        emit_items(bytes, *pos, lines, items.drain(..n), sink, outline);
        *pos = last_end;
    }
    *flush_at = FLUSH_AT.max(2 * items.len());
}

/// A `]` at `at`: a link or image when an open bracket and an inline
/// destination or a kept definition make one. Returns where the scan goes
/// on. `lines`, where the lines do not meet: where each starts its
/// content.
fn close_bracket<'s>(
    src: &'s str,
    (at, end): (usize, usize),
    lines: Option<&[usize]>,
    brackets: &mut Vec<Bracket>,
    delims: &mut Vec<Delim>,
    items: &mut Vec<Item<'s>>,
    sink: &Sink<'_, '_>,
) -> Result<usize, Declined> {
    let bytes = src.as_bytes();
    let Some(open) = brackets.pop() else { return Ok(at + 1) };
    if !open.active {
        return Ok(at + 1);
    }
    let text_start = open.start + 1 + usize::from(open.image);
    let (what, close_end) = match destination::inline_tail(src, at + 1, end)? {
        // Across a block quote's lines, a destination would be read with
        // the quote's markers, which is not read.
        Some(tail)
            if lines.is_some()
                && memchr::memchr(b'\n', &bytes[at..tail.end]).is_some() =>
        {
            return Err(declined());
        }
        // The same tail unread because a quote's marker stands in it.
        None if lines.is_some()
            && bytes.get(at + 1) == Some(&b'(')
            && memchr::memrchr(b')', &bytes[at..end]).is_some_and(|k| {
                memchr::memchr(b'\n', &bytes[at..at + k]).is_some()
            }) =>
        {
            return Err(declined());
        }
        Some(tail) => (
            What::LinkStart {
                image: open.image,
                dest: tail.dest,
                link: tail.link,
            },
            tail.end,
        ),
        None => {
            match footnote::reference(
                bytes,
                (text_start, at, end),
                open.image,
                sink.footnotes(),
            )? {
                Some(footnote::Reference::Defined) => {
                    // pulldown-cmark ends every open bracket there.
                    brackets.clear();
                    let what = What::Footnote;
                    items.push(Item { start: open.start, end: at + 1, what });
                    return Ok(at + 1);
                }
                Some(footnote::Reference::Undefined) => return Ok(at + 1),
                None => {}
            }
            let Some((def, range_end, close_end)) =
                reference(bytes, (text_start, at, end), lines, sink)?
            else {
                return Ok(at + 1);
            };
            (
                What::RefStart { image: open.image, end: range_end, def },
                close_end,
            )
        }
    };
    emphasis::process(delims, open.delims, items);
    delims.truncate(open.delims);
    items.push(Item { start: open.start, end: text_start, what });
    items.push(Item { start: at, end: close_end, what: What::LinkEnd });
    if !open.image {
        for b in brackets.iter_mut().filter(|b| !b.image) {
            b.active = false;
        }
    }
    Ok(close_end)
}

/// A reference after link text `text_start..at` (`at` its `]`): full
/// (`[label]`), collapsed (`[]`) or shortcut; the kept definition it
/// names, the end of the range pulldown-cmark gives it, and the
/// construct's end.
fn reference(
    bytes: &[u8],
    (text_start, at, end): (usize, usize, usize),
    lines: Option<&[usize]>,
    sink: &Sink<'_, '_>,
) -> Result<Option<(usize, usize, usize)>, Declined> {
    let text = text_start..at;
    // pulldown-cmark reads `]\[` on as one reference, which is not read.
    if bytes.get(at + 1..at + 3) == Some(b"\\[") && at + 2 < end {
        return Err(declined());
    }
    if bytes.get(at + 1) != Some(&b'[') || at + 1 >= end {
        return Ok(
            find(bytes, text, lines, sink)?.map(|d| (d, at + 1, at + 1))
        );
    }
    let from = at + 2;
    // The label's `]`, past escapes; one with a `[` in it, or none, is
    // not read.
    let mut k = 0;
    loop {
        match bytes[from..end].get(k) {
            None | Some(b'[') => return Err(declined()),
            Some(b']') => break,
            Some(b'\\') => {
                let escapes = bytes[..end]
                    .get(from + k + 1)
                    .is_some_and(u8::is_ascii_punctuation);
                k += if escapes { 2 } else { 1 };
            }
            Some(_) => k += 1,
        }
    }
    if k == 0 {
        // pulldown-cmark's range of a collapsed reference ends before its
        // `[]`.
        return Ok(
            find(bytes, text, lines, sink)?.map(|d| (d, at + 1, from + 1))
        );
    }
    let close = from + k + 1;
    // A blank label is none: the text is a shortcut then.
    if bytes[from..from + k].iter().all(u8::is_ascii_whitespace) {
        return Ok(
            find(bytes, text, lines, sink)?.map(|d| (d, at + 1, at + 1))
        );
    }
    let label = from..from + k;
    // pulldown-cmark reads a label too long as none: the text is a
    // shortcut then.
    if definitions::is_too_long(bytes, label.clone(), lines) {
        return Ok(
            find(bytes, text, lines, sink)?.map(|d| (d, at + 1, at + 1))
        );
    }
    Ok(find(bytes, label, lines, sink)?.map(|d| (d, close, close)))
}

/// The kept definition of the label written at `range`; `lines` as for
/// [`close_bracket`].
fn find(
    bytes: &[u8],
    range: std::ops::Range<usize>,
    lines: Option<&[usize]>,
    sink: &Sink<'_, '_>,
) -> Result<Option<usize>, Declined> {
    let label = &bytes[range.clone()];
    if !sink.has_definitions()
        || has_bracket(label)
        || definitions::is_too_long(bytes, range.clone(), lines)
    {
        return Ok(None);
    }
    let joined;
    let label = match lines {
        Some(lines) if label.contains(&b'\n') => {
            joined = without_prefixes(bytes, range, lines);
            &joined[..]
        }
        _ => label,
    };
    let Ok(label) = std::str::from_utf8(label) else { return Err(declined()) };
    Ok(sink.find_reference(label))
}

/// Whether `label` holds a bracket no backslash escapes: no label does.
fn has_bracket(label: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) =
        label[i..].iter().position(|&b| matches!(b, b'[' | b']' | b'\\'))
    {
        let at = i + k;
        if label[at] != b'\\' {
            return true;
        }
        let escapes = label.get(at + 1).is_some_and(u8::is_ascii_punctuation);
        i = at + if escapes { 2 } else { 1 };
    }
    false
}

/// The bytes of `range` without what stands before each line's content
/// (a block quote's markers), as pulldown-cmark reads a label across
/// lines.
fn without_prefixes(
    bytes: &[u8],
    range: std::ops::Range<usize>,
    lines: &[usize],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(range.len());
    let mut from = range.start;
    while let Some(n) = memchr::memchr(b'\n', &bytes[from..range.end]) {
        let nl = from + n;
        out.extend_from_slice(&bytes[from..=nl]);
        let k = lines.partition_point(|&l| l <= nl);
        from = lines.get(k).map_or(range.end, |&l| l.min(range.end));
    }
    out.extend_from_slice(&bytes[from..range.end]);
    out
}

/// The length of the run of `byte` at `at`.
fn run_len(bytes: &[u8], at: usize, end: usize, byte: u8) -> usize {
    bytes[at..end].iter().take_while(|&&b| b == byte).count()
}

/// The end of the run of exactly `n` backticks closing a code span opened
/// before `from`.
fn closing_backticks(
    bytes: &[u8],
    mut from: usize,
    end: usize,
    n: usize,
) -> Option<usize> {
    while let Some(k) = memchr::memchr(b'`', &bytes[from..end]) {
        let at = from + k;
        let len = run_len(bytes, at, end, b'`');
        if len == n {
            return Some(at + n);
        }
        from = at + len;
    }
    None
}

/// Hands the items and the text between them to the sink (and to
/// `outline`), from `start` to `end`.
fn emit<'s>(
    bytes: &[u8],
    start: usize,
    end: usize,
    lines: Option<&[usize]>,
    items: impl Iterator<Item = Item<'s>>,
    sink: &mut Sink<'s, '_>,
    mut outline: Option<&mut Recorder>,
) {
    let pos =
        emit_items(bytes, start, lines, items, sink, outline.as_deref_mut());
    if let Some(o) = outline {
        o.text(bytes, pos, end, lines);
    }
    text(bytes, pos, end, lines, sink);
}

/// Hands the items and the text before each (from `start`) to the sink
/// (and to `outline`); returns where the last ends. Inlined: it is the
/// loop of every paragraph with items, a call of its own costs there.
#[inline(always)]
fn emit_items<'s>(
    bytes: &[u8],
    start: usize,
    lines: Option<&[usize]>,
    items: impl Iterator<Item = Item<'s>>,
    sink: &mut Sink<'s, '_>,
    mut outline: Option<&mut Recorder>,
) -> usize {
    let mut pos = start;
    for item in items {
        if let Some(o) = outline.as_deref_mut() {
            o.text(bytes, pos, item.start, lines);
            o.item(bytes, &item);
        }
        text(bytes, pos, item.start, lines, sink);
        match item.what {
            What::Code => sink.code(item.start, item.end, false),
            What::Html => sink.html(item.start, item.end),
            What::Autolink(link) => sink.autolink(item.start, item.end, &link),
            What::LinkStart { image, dest, link } => {
                sink.link_start(image, dest, link)
            }
            What::RefStart { image, end, def } => {
                sink.reference_start(image, item.start, end, def)
            }
            What::LinkEnd => sink.link_end(),
            What::Delimiter => sink.close(),
            What::Footnote => {}
        }
        pos = item.end;
    }
    pos
}

/// The text of `start..end`, as [`text_by_line`] hands it to the sink.
fn text(
    bytes: &[u8],
    start: usize,
    end: usize,
    lines: Option<&[usize]>,
    sink: &mut Sink<'_, '_>,
) {
    // Link text is in no run: nothing to hand.
    if sink.in_link() {
        return;
    }
    match lines {
        None => text_of_meeting_lines(bytes, start, end, sink),
        Some(_) => text_by_line(bytes, start, end, lines, sink),
    }
}

/// [`text_by_line`] where the lines meet: once a run is open up to a
/// line's start, each later line only carries it on to its line end, and
/// the last to `end` when it holds text, so the lines after that are
/// passed with one backward search for the last `\n`.
fn text_of_meeting_lines(
    bytes: &[u8],
    mut start: usize,
    end: usize,
    sink: &mut Sink<'_, '_>,
) {
    while let Some(nl) = next_newline(bytes, start, end) {
        let from = after_escape(bytes, start, end);
        sink.text(from, line_text_end(bytes, start, nl));
        sink.line_break(nl + 1);
        start = after_blanks(bytes, nl + 1, end);
        if sink.run_ends_by(start) {
            if let Some(k) = memchr::memrchr(b'\n', &bytes[start..end]) {
                sink.line_break(start + k + 1);
                start = after_blanks(bytes, start + k + 1, end);
            }
            sink.text(start, end);
            return;
        }
    }
    sink.text(after_escape(bytes, start, end), end);
}

/// Where the text at `at` starts: after a backslash that escapes the
/// character after it (before `end`).
fn after_escape(bytes: &[u8], at: usize, end: usize) -> usize {
    let escaped = at + 1 < end
        && bytes[at] == b'\\'
        && bytes[at + 1].is_ascii_punctuation();
    at + usize::from(escaped)
}

/// The first offset from `at` (up to `end`) that is no space or tab.
fn after_blanks(bytes: &[u8], mut at: usize, end: usize) -> usize {
    while at < end && matches!(bytes[at], b' ' | b'\t') {
        at += 1;
    }
    at
}

/// The text of `start..end`, line by line: a line's leading and trailing
/// spaces are in no text, and its end is a line break.
fn text_by_line(
    bytes: &[u8],
    start: usize,
    end: usize,
    lines: Option<&[usize]>,
    sink: &mut Sink<'_, '_>,
) {
    // An escaped character's text starts after its backslash.
    for_each_line(bytes, start, end, lines, |from, to, line_end| {
        let from =
            if from < to { after_escape(bytes, from, end) } else { from };
        sink.text(from, to);
        if let Some(nl) = line_end {
            sink.line_break(nl + 1);
        }
    });
}

/// Calls `f` with the text of each line of `start..end` (`lines` as for
/// [`read`]) and the `\n` that ends it (none for the last): from after
/// its leading spaces to before its trailing spaces and a hard break's
/// backslash.
pub(super) fn for_each_line(
    bytes: &[u8],
    mut start: usize,
    end: usize,
    lines: Option<&[usize]>,
    mut f: impl FnMut(usize, usize, Option<usize>),
) {
    while let Some(nl) = next_newline(bytes, start, end) {
        f(start, line_text_end(bytes, start, nl), Some(nl));
        start = match lines {
            Some(lines) => {
                let k = lines.partition_point(|&l| l <= nl);
                lines.get(k).map_or(end, |&l| l.min(end))
            }
            None => nl + 1,
        };
        start = after_blanks(bytes, start, end);
    }
    f(start, end, None);
}

/// Where the text of the line from `start` to its `\n` at `nl` ends:
/// before its trailing spaces and a hard break's backslash.
fn line_text_end(bytes: &[u8], start: usize, nl: usize) -> usize {
    let mut text_end = nl;
    while text_end > start && matches!(bytes[text_end - 1], b' ' | b'\t') {
        text_end -= 1;
    }
    if text_end == nl {
        let slashes =
            bytes[start..nl].iter().rev().take_while(|&&b| b == b'\\').count();
        if slashes % 2 == 1 {
            text_end -= 1;
        }
    }
    text_end
}

/// The first `\n` in `start..end`: most gaps between a paragraph's items
/// are a few bytes, where a plain loop beats `memchr`'s dispatch.
fn next_newline(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    if end - start < 32 {
        bytes[start..end].iter().position(|&b| b == b'\n').map(|k| start + k)
    } else {
        memchr::memchr(b'\n', &bytes[start..end]).map(|k| start + k)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::sink::Sink;

    /// The text runs `hand` leaves in a sink over `src`, after a run over
    /// `before` (if any), inside link text when `in_link`.
    fn runs(
        src: &str,
        before: Option<(usize, usize)>,
        in_link: bool,
        hand: impl FnOnce(&mut Sink<'_, '_>),
    ) -> Vec<crate::Span> {
        let mut links = vec![];
        let mut sink = Sink::new(src, &mut links, &[]);
        if let Some((s, e)) = before {
            sink.text(s, e);
        }
        if in_link {
            sink.link_start(false, crate::Span::new(0, 0), "".into());
        }
        hand(&mut sink);
        sink.finish(true, &[]).text
    }

    /// What reading all of `src` hands the sink (its text, code and HTML
    /// regions and its links), by [`super::read`] or, when `full_scan`,
    /// by the scan from its first byte; `lines` as for `read`.
    fn read_with(
        src: &str,
        lines: Option<&[usize]>,
        full_scan: bool,
    ) -> String {
        let mut links = vec![];
        let mut sink = Sink::new(src, &mut links, &[]);
        let mut scratch = super::Scratch::with_room();
        let end = src.len();
        let read = if full_scan {
            super::scan(
                src,
                true,
                (0, 0, end),
                lines,
                &mut scratch,
                &mut sink,
                None,
            )
        } else {
            super::read(
                src,
                true,
                0,
                end,
                lines,
                &mut scratch,
                &mut sink,
                None,
            )
        };
        let regions = sink.finish(true, std::slice::from_ref(&(0..end)));
        format!("{read:?} {regions:?} {links:?}")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn a_paragraph_with_nothing_special_reads_as_the_full_scan_reads_it(
            pieces in proptest::collection::vec(
                proptest::sample::select(
                    &["a", "b c", " ", "\n", "\n  ", "http://x.y", "`", "[", "]", "*", "\\"][..],
                ),
                1..20,
            ),
            quoted in any::<bool>(),
        ) {
            let src = pieces.concat();
            // Where lines do not meet, each starts after its `\n`.
            let starts: Vec<usize> = src
                .match_indices('\n')
                .map(|(k, _)| k + 1)
                .collect();
            let lines = quoted.then_some(&starts[..]);
            prop_assert_eq!(
                read_with(&src, lines, false),
                read_with(&src, lines, true)
            );
        }

        #[test]
        fn meeting_lines_hand_the_runs_a_line_at_a_time_hands(
            pieces in proptest::collection::vec(
                proptest::sample::select(
                    &["a", "b c", " ", "  ", "\t", "\n", "\\", "\\*", "!"][..],
                ),
                0..30,
            ),
            from in 0usize..60,
            len in 0usize..60,
            before in proptest::option::of((0usize..60, 0usize..60)),
            in_link in any::<bool>(),
        ) {
            let src = pieces.concat();
            let start = from.min(src.len());
            let end = (start + len).min(src.len());
            let before = before.map(|(a, b)| (a.min(start), b.min(start)));
            let bytes = src.as_bytes();
            prop_assert_eq!(
                runs(&src, before, in_link, |sink| {
                    super::text(bytes, start, end, None, sink)
                }),
                runs(&src, before, in_link, |sink| {
                    super::text_by_line(bytes, start, end, None, sink)
                })
            );
        }
    }

    proptest! {
        #[test]
        fn a_line_end_is_found_as_memchr_finds_it(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'a'), any::<u8>()],
                0..100,
            ),
            from in 0usize..100,
            len in 0usize..100,
        ) {
            let start = from.min(bytes.len());
            let end = (start + len).min(bytes.len());
            prop_assert_eq!(
                super::next_newline(&bytes, start, end),
                memchr::memchr(b'\n', &bytes[start..end]).map(|k| start + k)
            );
        }
    }
}
