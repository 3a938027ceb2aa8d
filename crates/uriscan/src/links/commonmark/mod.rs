//! Our own CommonMark reader for links: a block pass and an inline pass
//! that read only what links need, held byte for byte to pulldown-cmark
//! (see [`super::markdown`]), which stays the oracle in tests and an
//! option.
//!
//! The reader is staged: where a document holds a construct it does not
//! yet read exactly (containers, HTML blocks, definitions, tables, front
//! matter, strikethrough, line endings other than `\n`), it declines the
//! whole document, and pulldown-cmark reads it, so the output is the
//! oracle's either way.

mod block;
mod destination;
mod emphasis;
mod inline;
mod markup;
mod shapes;
mod sink;

use super::RawLink;
use super::markdown::Regions;

/// The reader met something it does not read exactly: pulldown-cmark
/// reads the document instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Declined {
    /// The line of the reader that declined: what to read next.
    pub line: u32,
}

/// A decline, at the caller's line.
#[track_caller]
fn declined() -> Declined {
    Declined { line: std::panic::Location::caller().line() }
}

/// Reads `src` as [`super::markdown::read`] does: its links pushed onto
/// `links` (in document order), its regions returned. On [`Declined`],
/// `links` is as it was.
pub(crate) fn read(
    src: &str,
    gfm: bool,
    links: &mut Vec<RawLink>,
) -> Result<Regions, Declined> {
    let before = links.len();
    let mut sink = sink::Sink::new(src, links);
    match block::read(src, gfm, &mut sink) {
        Ok(()) => Ok(sink.finish()),
        Err(d) => {
            links.truncate(before);
            Err(d)
        }
    }
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
mod tests;
