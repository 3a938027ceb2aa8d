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

use super::delimit::{LOOKBEHIND, MAX_URI_LEN};
use super::finder::{Cursor, Finder, Step, make_match};
use super::lines::LineStart;
use super::{Match, Span};

/// The iterator of [`Finder::stream`]: matches with owned URIs, or the
/// read error that ended the scan.
#[derive(Debug)]
pub struct StreamIter<'f, R> {
    finder: &'f Finder,
    rdr: R,
    buf: Vec<u8>,
    /// The absolute offset of `buf[0]` in the input.
    base: u64,
    cursor: Cursor,
    line_start: LineStart,
    eof: bool,
    skipping: bool,
    done: bool,
}

impl<'f, R: Read> StreamIter<'f, R> {
    pub(crate) fn new(finder: &'f Finder, rdr: R) -> StreamIter<'f, R> {
        StreamIter {
            finder,
            rdr,
            buf: Vec::new(),
            base: 0,
            cursor: Cursor::default(),
            line_start: LineStart::default(),
            eof: false,
            skipping: false,
            done: false,
        }
    }

    /// Drops the bytes no decision can look at any more, then reads at
    /// least `want` more bytes (or to the end of the input).
    fn refill(&mut self, pending: bool) -> io::Result<()> {
        let keep_from = self.cursor.pos.saturating_sub(LOOKBEHIND);
        if keep_from > 0 {
            let to = self.base + keep_from as u64;
            // The dropped bytes may hold the start of the next match's
            // line.
            self.line_start.look(&self.buf, self.base, to);
            self.buf.drain(..keep_from);
            self.base = to;
            self.cursor.pos -= keep_from;
            self.cursor.lower = self.cursor.lower.saturating_sub(keep_from);
        }
        let cap = self.finder.buffer_capacity;
        let want = if pending {
            cap.max(self.buf.len() - self.cursor.pos)
        } else {
            cap
        };
        let old = self.buf.len();
        self.buf.resize(old + want, 0);
        let mut filled = 0;
        while filled < want {
            match self.rdr.read(&mut self.buf[old + filled..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(old + filled);
                    return Err(e);
                }
            }
        }
        self.buf.truncate(old + filled);
        debug_assert!(self.buf.len() <= 3 * MAX_URI_LEN + cap + LOOKBEHIND);
        Ok(())
    }

    fn offset(&self, span: Span) -> Span {
        span.offset(self.base as usize)
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

    /// The next match; with its texts when `text`.
    fn next_match(
        &mut self,
        text: bool,
    ) -> Option<io::Result<(Match<'static>, Option<StreamText>)>> {
        if self.done {
            return None;
        }
        loop {
            if self.skipping {
                if self.cursor.skip(&self.buf) {
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
            let pending = match self.cursor.step(
                &self.finder.policy,
                &self.buf,
                self.eof,
            ) {
                Step::Found(found, line) => {
                    let at = self.base + found.start as u64;
                    let column =
                        self.line_start.column(&self.buf, self.base, at);
                    let mut m = make_match(self.finder, found, line, column)
                        .into_owned();
                    let texts = text.then(|| {
                        let t = m.trimmed;
                        let copy = |s: Span| self.buf[s.range()].to_vec();
                        StreamText {
                            raw: copy(m.span),
                            url_prefix: t.url_prefix.map(copy),
                            suffix: t.suffix.map(copy),
                        }
                    });
                    m.span = self.offset(m.span);
                    m.trimmed.url_prefix =
                        m.trimmed.url_prefix.map(|s| self.offset(s));
                    m.trimmed.suffix =
                        m.trimmed.suffix.map(|s| self.offset(s));
                    return Some(Ok((m, texts)));
                }
                Step::Exhausted if self.eof => {
                    self.done = true;
                    return None;
                }
                Step::Exhausted => false,
                Step::NeedMore => true,
                Step::Skip => {
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

impl<R: Read> Iterator for StreamIter<'_, R> {
    type Item = io::Result<Match<'static>>;

    fn next(&mut self) -> Option<io::Result<Match<'static>>> {
        self.next_match(false).map(|r| r.map(|(m, _)| m))
    }
}

/// The texts of a streamed match that its stream's buffer no longer
/// holds once the match is yielded (see [`StreamIter::with_text`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
        self.inner
            .next_match(true)
            .map(|r| r.map(|(m, t)| (m, t.unwrap_or_default())))
    }
}
