//! [`Finder`], its builder, and the iterator over a haystack in memory.

use std::borrow::Cow;

use crate::Span;

use super::Match;
use super::delimit::{Found, Outcome, confirm};
use super::lines::LineCounter;
use super::scheme::SchemePolicy;
use super::search::{find_colon, find_hard_stop};
use super::stream::StreamIter;
use super::work;
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
        FindIter {
            finder: self,
            haystack,
            cursor: Cursor::default(),
            lines: LineCounter::default(),
        }
    }
    /// The matches read from `rdr`, in order: the same as
    /// [`find_iter`](Finder::find_iter) over all of its bytes, with
    /// memory bounded by about twice
    /// [`MAX_URI_LEN`](super::MAX_URI_LEN) plus the buffer capacity.
    ///
    /// ```
    /// use uriscan::scanning::Finder;
    /// let text = &b"one http://a.example/x\ntwo <http://b.example/y>"[..];
    /// let found = Finder::new()
    ///     .stream(text)
    ///     .map(|m| m.map(|m| (m.line(), m.as_str().to_string())))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// assert_eq!(found[1], (2, "http://b.example/y".to_string()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn stream<R: std::io::Read>(&self, rdr: R) -> StreamIter<'_, R> {
        StreamIter::new(self, rdr)
    }
}

/// Where a scan has got to in a buffer.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cursor {
    /// Where the search for the next `:` starts.
    pub(crate) pos: usize,
    /// No scheme reaches back before this offset.
    pub(crate) lower: usize,
}

/// What [`Cursor::step`] stopped at.
pub(crate) enum Step {
    Found(Found),
    /// No `:` left in the buffer.
    Exhausted,
    /// The candidate at `pos` needs bytes past the buffer.
    NeedMore,
    /// An overlong run: skip from `pos` to the next hard stop.
    Skip,
}

impl Cursor {
    /// Runs the search from `pos` to the next decision.
    #[inline]
    pub(crate) fn step(
        &mut self,
        policy: &SchemePolicy,
        hay: &[u8],
        eof: bool,
    ) -> Step {
        self.step_with(find_colon, policy, hay, eof)
    }

    /// [`step`](Cursor::step) with the candidate search `search`, so that
    /// tests can run the vectorized and the portable search side by side.
    #[inline(always)]
    pub(crate) fn step_with(
        &mut self,
        search: impl Fn(&[u8], usize) -> Option<usize>,
        policy: &SchemePolicy,
        hay: &[u8],
        eof: bool,
    ) -> Step {
        loop {
            let Some(colon) = search(hay, self.pos) else {
                work::add(hay.len().saturating_sub(self.pos));
                self.pos = hay.len();
                return Step::Exhausted;
            };
            work::add(colon + 1 - self.pos);
            match confirm(policy, hay, colon, self.lower, eof) {
                Outcome::Reject => self.pos = colon + 1,
                Outcome::Drop { resume } => {
                    self.pos = resume.max(colon + 1);
                    self.lower = self.pos;
                }
                Outcome::Found(found) => {
                    self.pos = found.resume;
                    self.lower = found.resume;
                    return Step::Found(found);
                }
                Outcome::NeedMore => {
                    self.pos = colon;
                    return Step::NeedMore;
                }
                Outcome::Overlong { from } => {
                    self.pos = from;
                    return Step::Skip;
                }
            }
        }
    }

    /// Skips to the next hard stop after an overlong run; false when the
    /// buffer has none.
    pub(crate) fn skip(&mut self, hay: &[u8]) -> bool {
        let stop = find_hard_stop(hay, self.pos);
        work::add(stop.unwrap_or(hay.len()).saturating_sub(self.pos));
        match stop {
            Some(at) => {
                self.pos = at;
                self.lower = at;
                true
            }
            None => {
                self.pos = hay.len();
                self.lower = hay.len();
                false
            }
        }
    }
}

/// Builds the public match from a confirmed one. `None` only if the
/// bytes are not UTF-8, which confirmation rules out.
pub(crate) fn make_match<'h>(
    finder: &Finder,
    hay: &'h [u8],
    found: Found,
    line: u64,
    column: u64,
) -> Option<Match<'h>> {
    let rejoined = found.joined.is_some();
    let mut uri: Cow<'h, str> = match found.joined {
        Some(joined) => Cow::Owned(joined),
        None => Cow::Borrowed(
            std::str::from_utf8(&hay[found.start..found.end]).ok()?,
        ),
    };
    if finder.ascii && !uri.is_ascii() {
        uri = Cow::Owned(to_uri(&uri).into_owned());
    }
    Some(Match {
        uri,
        span: Span::new(found.start, found.end),
        scheme_len: found.scheme_len,
        line,
        column,
        rejoined,
        hyphen_break: found.hyphen_break,
        trimmed: found.trimmed,
    })
}

/// The iterator of [`Finder::find_iter`].
#[derive(Debug)]
pub struct FindIter<'f, 'h> {
    finder: &'f Finder,
    haystack: &'h [u8],
    cursor: Cursor,
    lines: LineCounter,
}

impl<'h> Iterator for FindIter<'_, 'h> {
    type Item = Match<'h>;

    fn next(&mut self) -> Option<Match<'h>> {
        let hay = self.haystack;
        loop {
            match self.cursor.step(&self.finder.policy, hay, true) {
                Step::Found(found) => {
                    let at = found.start as u64;
                    self.lines.advance(hay, 0, at);
                    let (line, column) = self.lines.position(at);
                    if let Some(m) =
                        make_match(self.finder, hay, found, line, column)
                    {
                        return Some(m);
                    }
                }
                Step::Exhausted => return None,
                // The whole input is here: confirmation never asks for
                // more.
                Step::NeedMore => return None,
                Step::Skip => {
                    if !self.cursor.skip(hay) {
                        return None;
                    }
                }
            }
        }
    }
}

impl std::iter::FusedIterator for FindIter<'_, '_> {}
