//! [`Finder`], its builder, and the iterator over a haystack in memory.

use std::borrow::Cow;

use crate::Span;

use super::Match;
use super::candidate::Found;
use super::cursor::{Cursor, Stop};
use super::kernels::{Chosen, KernelIter, Kernels};
use super::lines::LineStart;
use super::scheme::SchemePolicy;
use crate::syntax::iri::to_uri;

/// The read size of [`Finder::stream`] unless
/// [`FinderBuilder::buffer_capacity`] says otherwise.
pub const DEFAULT_BUFFER_CAPACITY: usize = 64 * 1024;

/// Builds a [`Finder`]: set options with `&mut self` setters, then
/// [`build`](FinderBuilder::build).
///
/// ```
/// use uriscan::scanning::Finder;
/// let finder = Finder::builder().schemes(["mailto"]).build();
/// let found: Vec<_> = finder
///     .find_iter(b"http://a.example/ or mailto:me@a.example.")
///     .map(|m| m.as_str().to_string())
///     .collect();
/// assert_eq!(found, ["mailto:me@a.example"]);
/// ```
#[derive(Clone, Debug)]
pub struct FinderBuilder {
    schemes: Option<Vec<String>>,
    any_scheme: bool,
    ascii: bool,
    buffer_capacity: usize,
}

impl Default for FinderBuilder {
    fn default() -> FinderBuilder {
        FinderBuilder {
            schemes: None,
            any_scheme: false,
            ascii: false,
            buffer_capacity: DEFAULT_BUFFER_CAPACITY,
        }
    }
}

impl FinderBuilder {
    /// A builder with the default extraction policy: any scheme followed
    /// by `//`, plus the schemes of
    /// [`SCHEMES_WITHOUT_SLASHES`](super::SCHEMES_WITHOUT_SLASHES).
    pub fn new() -> FinderBuilder {
        FinderBuilder::default()
    }
    /// Restrict matches to these schemes (case-insensitive), with or
    /// without `//`. Overrides [`any_scheme`](FinderBuilder::any_scheme).
    pub fn schemes<I, S>(&mut self, schemes: I) -> &mut FinderBuilder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.schemes = Some(
            schemes
                .into_iter()
                .map(|s| s.as_ref().to_ascii_lowercase())
                .collect(),
        );
        self
    }
    /// Accept every syntactically valid scheme with a non-empty rest
    /// (`std::io` then is a URI).
    pub fn any_scheme(&mut self, yes: bool) -> &mut FinderBuilder {
        self.any_scheme = yes;
        self
    }
    /// Emit IRIs in their URI form (RFC 3987 3.1): every non-ASCII byte
    /// percent-encoded.
    pub fn ascii(&mut self, yes: bool) -> &mut FinderBuilder {
        self.ascii = yes;
        self
    }
    /// The size of each read of [`Finder::stream`] (at least 1; default
    /// [`DEFAULT_BUFFER_CAPACITY`]). It changes speed and memory, never
    /// the matches.
    pub fn buffer_capacity(&mut self, bytes: usize) -> &mut FinderBuilder {
        self.buffer_capacity = bytes.max(1);
        self
    }
    /// The finder.
    pub fn build(&self) -> Finder {
        let policy = match &self.schemes {
            Some(list) => SchemePolicy::Only(
                list.iter().map(|s| s.as_bytes().to_vec()).collect(),
            ),
            None if self.any_scheme => SchemePolicy::Any,
            None => SchemePolicy::Default,
        };
        Finder {
            policy,
            ascii: self.ascii,
            buffer_capacity: self.buffer_capacity,
            kernels: Chosen::for_scan(),
        }
    }
}

/// Finds URIs in bytes. Configure once, reuse from any thread.
///
/// ```
/// use uriscan::scanning::Finder;
/// let finder = Finder::new();
/// let uris: Vec<_> = finder
///     .find_iter(b"see http://example.com/ and more")
///     .map(|m| m.as_str().to_string())
///     .collect();
/// assert_eq!(uris, ["http://example.com/"]);
/// ```
#[derive(Clone, Debug)]
pub struct Finder {
    pub(crate) policy: SchemePolicy,
    pub(crate) ascii: bool,
    pub(crate) buffer_capacity: usize,
    /// The loops for this CPU, chosen when the finder is built rather
    /// than by each `find_iter`: feature detection is a noticeable part
    /// of a scan of one line, which a crawler pays per text node.
    pub(crate) kernels: Chosen,
}

impl Default for Finder {
    fn default() -> Finder {
        Finder::new()
    }
}

impl Finder {
    /// A finder with the default extraction policy.
    pub fn new() -> Finder {
        FinderBuilder::new().build()
    }
    /// A builder for a finder with another policy.
    pub fn builder() -> FinderBuilder {
        FinderBuilder::new()
    }
    /// The matches in `haystack`, in order.
    pub fn find_iter<'f, 'h>(
        &'f self,
        haystack: &'h [u8],
    ) -> FindIter<'f, 'h> {
        // Every URI holds the `:` after its scheme, and the search's
        // candidates are `:` bytes: it starts at the first one (the
        // newlines before it are still counted from the start), and a
        // text without one (most runs of text between two pieces of
        // Markdown, a crawler's short text nodes) is passed by one memchr.
        let cursor = match memchr::memchr(b':', haystack) {
            Some(first) => Cursor { pos: first, ..Cursor::default() },
            None => Cursor {
                pos: haystack.len(),
                counted: haystack.len(),
                ..Cursor::default()
            },
        };
        FindIter {
            finder: self,
            haystack,
            cursor,
            line_start: LineStart::default(),
            kernels: self.kernels,
        }
    }
}

/// Builds the public match from a confirmed one, taking its URI.
#[inline(always)]
pub(crate) fn make_match<'h>(
    finder: &Finder,
    found: &mut Found<'h>,
    line: u64,
    column: u64,
) -> Match<'h> {
    let mut uri = std::mem::take(&mut found.uri);
    if finder.ascii && !uri.is_ascii() {
        uri = Cow::Owned(to_uri(&uri).into_owned());
    }
    Match {
        uri,
        span: Span::new(found.start, found.end),
        scheme_len: found.scheme_len,
        line,
        column,
        rejoined: found.rejoined,
        hyphen_break: found.hyphen_break,
        trimmed: found.trimmed,
    }
}

/// The iterator of [`Finder::find_iter`].
///
/// Consumed by `for_each`, `count`, `fold` or an adapter that forwards to
/// them, the scan runs as one loop that keeps its state in registers;
/// a `for` loop calls `next` per match, which costs about a sixth more
/// on text dense with URIs. Both yield the same matches.
///
/// ```
/// use uriscan::scanning::Finder;
/// let text = b"a http://a.example/ b <https://b.example/x> c";
/// let mut uris = Vec::new();
/// Finder::new()
///     .find_iter(text)
///     .for_each(|m| uris.push(m.as_str().to_string()));
/// assert_eq!(uris, ["http://a.example/", "https://b.example/x"]);
/// ```
#[derive(Debug)]
pub struct FindIter<'f, 'h> {
    finder: &'f Finder,
    haystack: &'h [u8],
    cursor: Cursor,
    line_start: LineStart,
    kernels: Chosen,
}

impl<'h> Iterator for FindIter<'_, 'h> {
    type Item = Match<'h>;

    fn next(&mut self) -> Option<Match<'h>> {
        // Past the last `:` (a text without one, above all): nothing to
        // dispatch to the kernels for.
        if self.cursor.pos >= self.haystack.len() {
            return None;
        }
        let kernels = self.kernels;
        kernels.next(self)
    }

    /// Internal iteration (`count`, `for_each`, `sum`, ...): the whole
    /// loop runs in one call compiled for the kernels, so that the scan's
    /// state stays in registers between matches instead of being saved
    /// and reloaded by every `next`. Yields exactly what `next` does.
    fn fold<B, F>(mut self, init: B, f: F) -> B
    where
        F: FnMut(B, Match<'h>) -> B,
    {
        if self.cursor.pos >= self.haystack.len() {
            return init;
        }
        let kernels = self.kernels;
        kernels.fold(&mut self, init, f)
    }
}

impl<'h> KernelIter for FindIter<'_, 'h> {
    type Item = Match<'h>;

    /// The next match, with the loops of `k`.
    #[inline(always)]
    fn next_with<K: Kernels>(&mut self, k: K) -> Option<Match<'h>> {
        let hay = self.haystack;
        // The match is built right in the one value returned from every
        // path, so that it is written once, not built in `Step` and
        // copied out (a hundred bytes, per URI).
        let mut out = None;
        loop {
            let finder = self.finder;
            let line_start = &mut self.line_start;
            // Inlined, so that the look back for the column is compiled
            // for `k` too.
            let stop = self.cursor.advance(
                k,
                &finder.policy,
                hay,
                true,
                #[inline(always)]
                |f, line| {
                    let at = f.start as u64;
                    let column = line_start.column(k, hay, 0, at, line - 1);
                    out = Some(make_match(finder, f, line, column));
                },
            );
            match stop {
                // The whole input is here: confirmation never asks for
                // more.
                Stop::Found(()) | Stop::Exhausted | Stop::NeedMore => {
                    return out;
                }
                Stop::Skip => {
                    if !self.cursor.skip(hay) {
                        return out;
                    }
                }
            }
        }
    }
}

impl std::iter::FusedIterator for FindIter<'_, '_> {}
