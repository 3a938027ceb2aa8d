//! Scanning any [`std::io::Read`] with bounded memory.
//!
//! The buffer holds the unscanned bytes plus [`LOOKBEHIND`] bytes of
//! history (a scheme and what may stand before it). When confirmation of a
//! candidate needs bytes past the end of the buffer it says so, and the
//! candidate is confirmed again once more bytes are in: the same decision
//! the whole-input scan makes, whatever the read sizes. How far a
//! candidate may reach is capped ([`MAX_URI_LEN`], and
//! [`MAX_ANGLE_LEN`](super::MAX_ANGLE_LEN) for `<...>`), and an overlong
//! run is skipped without being kept, so the buffer never grows past
//! about `2 * MAX_URI_LEN` plus the read size. Each retry reads at least
//! as many bytes as are pending, so retries cost amortized linear time.

use std::io::{self, Read};
use std::ops::ControlFlow;

use super::cursor::{Cursor, Stop};
use super::delimit::{LOOKBEHIND, MAX_URI_LEN};
use super::finder::{Finder, make_match};
use super::kernels::{Baseline, Chosen, KernelIter, Kernels};
use super::lines::LineStart;
use super::{Match, Span};

// Here rather than in finder.rs, so that the finder does not import the
// stream that imports it.
impl Finder {
    /// The matches read from `rdr`, in order: the same as
    /// [`find_iter`](Finder::find_iter) over all of its bytes, with
    /// memory bounded by about twice
    /// [`MAX_URI_LEN`] plus the buffer capacity.
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
    pub fn stream<R: Read>(&self, rdr: R) -> StreamIter<'_, R> {
        StreamIter::new(self, rdr)
    }
}

/// The iterator of [`Finder::stream`]: matches with owned URIs, or the
/// read error that ended the scan.
#[derive(Debug)]
pub struct StreamIter<'f, R> {
    finder: &'f Finder,
    rdr: R,
    /// The bytes read are `buf[..end]`. What follows stays allocated and
    /// initialized, so that no read zeroes its room again.
    buf: Vec<u8>,
    end: usize,
    /// The absolute offset of `buf[0]` in the input.
    base: u64,
    cursor: Cursor,
    line_start: LineStart,
    eof: bool,
    /// A read error met after a read that delivered bytes: returned by
    /// the next refill, once the bytes before it have been scanned.
    error: Option<io::Error>,
    skipping: bool,
    done: bool,
    kernels: Chosen,
}

impl<'f, R: Read> StreamIter<'f, R> {
    pub(crate) fn new(finder: &'f Finder, rdr: R) -> StreamIter<'f, R> {
        StreamIter {
            finder,
            rdr,
            buf: Vec::new(),
            end: 0,
            base: 0,
            cursor: Cursor::default(),
            line_start: LineStart::default(),
            eof: false,
            error: None,
            skipping: false,
            done: false,
            kernels: finder.kernels,
        }
    }

    /// Drops the bytes no decision can look at any more, then reads at
    /// least `want` more bytes (or to the end of the input).
    ///
    /// A read error after bytes came in this refill is kept for the next
    /// refill: the bytes before it are scanned first, so a failing input
    /// loses no URI that was read whole.
    fn refill(&mut self, pending: bool) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let keep_from = self.cursor.pos.saturating_sub(LOOKBEHIND);
        if keep_from > 0 {
            let to = self.base + keep_from as u64;
            // The dropped bytes may hold the start of the next match's
            // line.
            let bytes = &self.buf[..self.end];
            let newlines = self.cursor.count_to(bytes, keep_from);
            self.line_start.look(Baseline, bytes, self.base, to, newlines);
            self.buf.copy_within(keep_from..self.end, 0);
            self.end -= keep_from;
            self.base = to;
            self.cursor.pos -= keep_from;
            self.cursor.counted -= keep_from;
            self.cursor.lower = self.cursor.lower.saturating_sub(keep_from);
        }
        let cap = self.finder.buffer_capacity;
        let want =
            if pending { cap.max(self.end - self.cursor.pos) } else { cap };
        let upto = self.end + want;
        debug_assert!(upto <= 3 * MAX_URI_LEN + cap + LOOKBEHIND);
        if self.buf.len() < upto {
            self.buf.resize(upto, 0);
        }
        let before = self.end;
        while self.end < upto {
            match self.rdr.read(&mut self.buf[self.end..upto]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => self.end += n.min(upto - self.end),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if self.end > before => {
                    self.error = Some(e);
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl<'f, R: Read> StreamIter<'f, R> {
    /// The matches, each with the raw text it was taken from and the text
    /// delimiting trimmed ([`StreamText`]): copied out of the buffer
    /// before it moves on, for output that shows them (a link checker
    /// showing why a URI was cut).
    ///
    /// ```
    /// use uriscan::scanning::Finder;
    /// let text = &b"see <http://a.example/long-\n  path>, or (http://b.example/x.)."[..];
    /// let found = Finder::new()
    ///     .stream(text)
    ///     .with_text()
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let (m, t) = &found[0];
    /// assert_eq!(m.as_str(), "http://a.example/long-path");
    /// assert_eq!(t.raw, b"http://a.example/long-\n  path");
    /// let (m, t) = &found[1];
    /// assert_eq!(m.as_str(), "http://b.example/x");
    /// assert_eq!(t.suffix.as_deref(), Some(&b".)"[..]));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_text(self) -> WithText<'f, R> {
        WithText { inner: self }
    }

    /// Calls `f` with each match, borrowed from the stream's buffer for
    /// the length of the call, until the input ends, a read fails or `f`
    /// breaks: the same matches as the iterator, without a copy or an
    /// allocation per match. (The iterator's items own their URIs, since
    /// the buffer moves on; `f` can keep one with
    /// `m.clone().into_owned()`.) [`BufferedText`] gives the bytes each
    /// match was taken from.
    ///
    /// Both are handed by reference: built once in the scan's frame, they
    /// are not copied again into `f`'s.
    ///
    /// Returns what `f` broke with, or `Continue` at the end of the
    /// input. On a read error, the matches before it have been handed to
    /// `f`.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use uriscan::scanning::Finder;
    /// let text = &b"a http://a.example/x, b (see http://b.example/y)."[..];
    /// let mut lens = Vec::new();
    /// let flow = Finder::new().stream(text).try_for_each_borrowed(|m, t| {
    ///     lens.push(m.as_str().len());
    ///     assert_eq!(t.raw(), m.as_str().as_bytes());
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!(lens, [18, 18]);
    /// assert!(flow.is_continue());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn try_for_each_borrowed<B, F>(
        mut self,
        f: F,
    ) -> io::Result<ControlFlow<B>>
    where
        F: FnMut(&Match<'_>, &BufferedText<'_>) -> ControlFlow<B>,
    {
        let kernels = self.kernels;
        let mut visit = Visit { stream: &mut self, f, ended: None };
        kernels.fold(&mut visit, (), |(), ()| ());
        visit.ended.unwrap_or(Ok(ControlFlow::Continue(())))
    }

    /// The next match, with the loops of `k`, handed to `emit` with its
    /// texts while the buffer still holds them.
    #[inline(always)]
    fn next_match_with<K: Kernels, T>(
        &mut self,
        k: K,
        mut emit: impl FnMut(Match<'_>, BufferedText<'_>) -> T,
    ) -> Option<io::Result<T>> {
        if self.done {
            return None;
        }
        loop {
            if self.skipping {
                if self.cursor.skip(&self.buf[..self.end]) {
                    self.skipping = false;
                } else if self.eof {
                    self.done = true;
                    return None;
                } else if let Err(e) = self.refill(false) {
                    self.done = true;
                    return Some(Err(e));
                }
                continue;
            }
            let (finder, buf, base) =
                (self.finder, &self.buf[..self.end], self.base);
            let line_start = &mut self.line_start;
            let stop = self.cursor.advance(
                k,
                &finder.policy,
                buf,
                self.eof,
                #[inline(always)]
                |found, line| {
                    let at = base + found.start as u64;
                    let column = line_start.column(k, buf, base, at, line - 1);
                    let mut m = make_match(finder, found, line, column);
                    let texts = BufferedText {
                        buf,
                        raw: m.span,
                        url_prefix: m.trimmed.url_prefix,
                        suffix: m.trimmed.suffix,
                    };
                    let base = base as usize;
                    m.span = m.span.offset(base);
                    let t = &mut m.trimmed;
                    t.url_prefix = t.url_prefix.map(|s| s.offset(base));
                    t.suffix = t.suffix.map(|s| s.offset(base));
                    emit(m, texts)
                },
            );
            let pending = match stop {
                Stop::Found(m) => return Some(Ok(m)),
                Stop::Exhausted if self.eof => {
                    self.done = true;
                    return None;
                }
                Stop::Exhausted => false,
                Stop::NeedMore => true,
                Stop::Skip => {
                    self.skipping = true;
                    continue;
                }
            };
            if let Err(e) = self.refill(pending) {
                self.done = true;
                return Some(Err(e));
            }
        }
    }
}

/// The bytes a streamed match was taken from, borrowed from the stream's
/// buffer (see [`StreamIter::try_for_each_borrowed`]); each is read only
/// when asked for.
#[derive(Clone, Copy, Debug)]
pub struct BufferedText<'b> {
    buf: &'b [u8],
    raw: Span,
    url_prefix: Option<Span>,
    suffix: Option<Span>,
}

impl<'b> BufferedText<'b> {
    /// The bytes of [`Match::span`]: the URI as written, whitespace
    /// included when it was rejoined.
    pub fn raw(&self) -> &'b [u8] {
        &self.buf[self.raw.range()]
    }
    /// The bytes of [`Trimmed::url_prefix`](super::Trimmed::url_prefix).
    pub fn url_prefix(&self) -> Option<&'b [u8]> {
        self.url_prefix.map(|s| &self.buf[s.range()])
    }
    /// The bytes of [`Trimmed::suffix`](super::Trimmed::suffix).
    pub fn suffix(&self) -> Option<&'b [u8]> {
        self.suffix.map(|s| &self.buf[s.range()])
    }
    /// The same bytes, copied out of the buffer.
    pub fn to_owned(&self) -> StreamText {
        StreamText {
            raw: self.raw().to_vec(),
            url_prefix: self.url_prefix().map(<[u8]>::to_vec),
            suffix: self.suffix().map(<[u8]>::to_vec),
        }
    }
}

/// The steps of [`StreamIter::try_for_each_borrowed`]: each hands a
/// match to `f`; the scan ends when `f` breaks or a read fails, with
/// that in `ended`.
struct Visit<'a, 'f, R, F, B> {
    stream: &'a mut StreamIter<'f, R>,
    f: F,
    ended: Option<io::Result<ControlFlow<B>>>,
}

impl<R, F, B> KernelIter for Visit<'_, '_, R, F, B>
where
    R: Read,
    F: FnMut(&Match<'_>, &BufferedText<'_>) -> ControlFlow<B>,
{
    type Item = ();
    #[inline(always)]
    fn next_with<K: Kernels>(&mut self, k: K) -> Option<()> {
        let f = &mut self.f;
        let step = self.stream.next_match_with(
            k,
            #[inline(always)]
            |m: Match<'_>, t: BufferedText<'_>| f(&m, &t),
        );
        match step? {
            Ok(ControlFlow::Continue(())) => Some(()),
            ended => {
                self.ended = Some(ended);
                None
            }
        }
    }
}

impl<R: Read> Iterator for StreamIter<'_, R> {
    type Item = io::Result<Match<'static>>;

    fn next(&mut self) -> Option<io::Result<Match<'static>>> {
        let kernels = self.kernels;
        kernels.next(&mut Owned(self, owned_match))
    }

    /// Internal iteration (`count`, `for_each`, ...) in one call compiled
    /// for the kernels, as [`FindIter`](super::FindIter) does: the same
    /// items as `next`.
    fn fold<B, F>(mut self, init: B, f: F) -> B
    where
        F: FnMut(B, Self::Item) -> B,
    {
        let kernels = self.kernels;
        kernels.fold(&mut Owned(&mut self, owned_match), init, f)
    }
}

/// The steps of a stream whose items outlive its buffer: each is what
/// `emit` makes of a match and its texts while the buffer holds them (a
/// function item, its own type: the iterator without texts compiles
/// none of their copying).
struct Owned<'a, 'f, R, E>(&'a mut StreamIter<'f, R>, E);

impl<R, E, T> KernelIter for Owned<'_, '_, R, E>
where
    R: Read,
    E: Fn(Match<'_>, BufferedText<'_>) -> T,
{
    type Item = io::Result<T>;
    #[inline(always)]
    fn next_with<K: Kernels>(&mut self, k: K) -> Option<Self::Item> {
        self.0.next_match_with(k, &self.1)
    }
}

/// The owned match: the item of [`StreamIter`].
#[inline(always)]
fn owned_match(m: Match<'_>, _: BufferedText<'_>) -> Match<'static> {
    m.into_owned()
}

/// The owned match and its texts copied out: the item of [`WithText`].
#[inline(always)]
fn owned_with_text(
    m: Match<'_>,
    texts: BufferedText<'_>,
) -> (Match<'static>, StreamText) {
    (m.into_owned(), texts.to_owned())
}

/// The texts of a streamed match that its stream's buffer no longer
/// holds once the match is yielded (see [`StreamIter::with_text`]).
///
/// Non-exhaustive, like [`Trimmed`](super::Trimmed) whose spans it
/// mirrors: a span added there adds a text here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamText {
    /// The bytes of [`Match::span`]: the URI as written, whitespace
    /// included when it was rejoined.
    pub raw: Vec<u8>,
    /// The bytes of [`Trimmed::url_prefix`](super::Trimmed::url_prefix).
    pub url_prefix: Option<Vec<u8>>,
    /// The bytes of [`Trimmed::suffix`](super::Trimmed::suffix).
    pub suffix: Option<Vec<u8>>,
}

/// The iterator of [`StreamIter::with_text`].
#[derive(Debug)]
pub struct WithText<'f, R> {
    inner: StreamIter<'f, R>,
}

impl<R: Read> Iterator for WithText<'_, R> {
    type Item = io::Result<(Match<'static>, StreamText)>;

    fn next(&mut self) -> Option<Self::Item> {
        let kernels = self.inner.kernels;
        kernels.next(&mut Owned(&mut self.inner, owned_with_text))
    }
}
