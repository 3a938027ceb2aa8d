//! Our own CommonMark reader for links: a block pass and an inline pass
//! that read only what links need, held byte for byte to pulldown-cmark
//! (see [`super::markdown`]), which stays the oracle in tests and an
//! option.
//!
//! The reader is staged: where a document holds a construct it does not
//! yet read exactly (tabs in container indentation, footnote definitions
//! inside containers, a `\r` alone, among others:
//! `examples/markdown_declines.rs` counts them), it declines the whole
//! document, and pulldown-cmark reads it, so the output is the oracle's
//! either way.

mod block;
mod definitions;
mod destination;
mod emphasis;
mod entity;
mod footnote;
mod inline;
mod line_ends;
mod markup;
pub(crate) mod outline;
mod punctuation;
mod shapes;
mod sink;
mod skip;
mod table;

use super::RawLink;
use super::markdown::Regions;

/// The reader met something it does not read exactly: pulldown-cmark
/// reads the document instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Declined {
    /// The file and line of the reader that declined: what to read next.
    pub file: &'static str,
    pub line: u32,
}

/// A decline, at the caller's line.
#[track_caller]
fn declined() -> Declined {
    let at = std::panic::Location::caller();
    Declined { file: at.file(), line: at.line() }
}

/// Reads `src` as [`super::markdown::read`] does: its links pushed onto
/// `links` (in document order), its regions returned. On [`Declined`],
/// `links` is as it was.
pub(crate) fn read(
    src: &str,
    gfm: bool,
    links: &mut Vec<RawLink>,
) -> Result<Regions, Declined> {
    read_recording(src, gfm, links, None)
}

/// [`read`], what the anchors need recorded into `outline` too.
fn read_recording(
    src: &str,
    gfm: bool,
    links: &mut Vec<RawLink>,
    mut outline: Option<&mut outline::Recorder>,
) -> Result<Regions, Declined> {
    if memchr::memchr(b'\r', src.as_bytes()).is_none() {
        return read_lf(src, gfm, &[], links, outline);
    }
    let Some((text, removed)) = line_ends::without_cr(src) else {
        return Err(declined());
    };
    let before = links.len();
    let mut regions =
        read_lf(&text, gfm, &removed, links, outline.as_deref_mut())?;
    if !line_ends::put_back_all(&removed, &mut links[before..], &mut regions) {
        links.truncate(before);
        return Err(declined());
    }
    if let Some(o) = outline {
        o.put_back(&removed);
    }
    Ok(regions)
}

/// [`read`] of a document with no `\r`, which stood before the `\n` at
/// each of `removed`.
fn read_lf(
    src: &str,
    gfm: bool,
    removed: &[usize],
    links: &mut Vec<RawLink>,
    mut outline: Option<&mut outline::Recorder>,
) -> Result<Regions, Declined> {
    let mut document = block::read(src, gfm)?;
    if let Some(o) = outline.as_deref_mut() {
        o.start(src, &mut document, !removed.is_empty());
    }
    let before = links.len();
    let mut sink = sink::Sink::new(src, links, &document.definitions);
    sink.read_footnotes(gfm.then(|| std::mem::take(&mut document.footnotes)));
    match inlines(src, gfm, &document, removed, &mut sink, outline) {
        Ok(()) => Ok(sink.finish(gfm, &document.ranges)),
        Err(d) => {
            drop(sink);
            links.truncate(before);
            Err(d)
        }
    }
}

/// The leaf blocks' inlines and code into `sink`, in document order;
/// `removed` as for [`read_lf`].
fn inlines<'s>(
    src: &'s str,
    gfm: bool,
    document: &block::Document,
    removed: &[usize],
    sink: &mut sink::Sink<'s, '_>,
    mut outline: Option<&mut outline::Recorder>,
) -> Result<(), Declined> {
    let mut scratch = inline::Scratch::with_room();
    for (k, b) in document.blocks.iter().enumerate() {
        sink.close();
        if let Some(o) = outline.as_deref_mut()
            && o.skips(src.as_bytes(), k, b)
        {
            continue;
        }
        match b {
            block::Block::Inlines { p, quoted } => {
                let lines =
                    quoted.then(|| &document.line_starts[p.lines.clone()]);
                inline::read(
                    src,
                    gfm,
                    p.start,
                    p.end,
                    lines,
                    &mut scratch,
                    sink,
                    outline.as_deref_mut(),
                )?;
            }
            block::Block::Html(start, end) => sink.html(*start, *end),
            block::Block::IndentedHtml(start, end) => {
                sink.html(*start, *end);
                sink.empty_text(*start);
            }
            block::Block::Text(lines) => {
                for &(start, end) in &document.code_lines[lines.clone()] {
                    sink.text(start, end);
                }
            }
            block::Block::Code(lines) => {
                // Lines that meet are one text, as pulldown-cmark gives
                // them; a `\r\n` line end parts them, its `\n` a text
                // that the next line meets.
                let mut merged: Option<(usize, usize)> = None;
                let lines = &document.code_lines[lines.clone()];
                let parts = lines.iter().flat_map(|&(start, end)| {
                    match end.checked_sub(1) {
                        Some(nl) if line_ends::had_cr(removed, nl) => {
                            [(start, nl), (nl, end)]
                        }
                        _ => [(start, end), (end, end)],
                    }
                });
                for (start, end) in parts.filter(|l| l.0 < l.1) {
                    match &mut merged {
                        Some(m)
                            if m.1 == start
                                && !line_ends::had_cr(removed, start) =>
                        {
                            m.1 = end
                        }
                        _ => {
                            if let Some((s, e)) = merged.replace((start, end))
                            {
                                sink.code(s, e, true);
                            }
                        }
                    }
                }
                if let Some((s, e)) = merged {
                    sink.code(s, e, true);
                }
            }
        }
        sink.close();
    }
    Ok(())
}

/// The number of blocks and inline items our reader finds in `text`, or
/// `None` when it declines: its bare parse, with no links kept.
#[cfg(any(test, feature = "internals"))]
pub(crate) fn count_items(text: &str) -> Option<usize> {
    let mut links = vec![];
    let regions = read(text, true, &mut links).ok()?;
    Some(links.len() + regions.text.len() + regions.code.len())
}

#[cfg(test)]
pub(crate) mod tests;
