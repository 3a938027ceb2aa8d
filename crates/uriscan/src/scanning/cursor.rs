//! [`Cursor`], the state machine at the centre of a scan: from where the
//! last decision left off, search for the next candidate `:`, confirm
//! it, and say what came of it ([`Step`]). The in-memory iterator
//! ([`super::finder`]) and the streaming one ([`super::stream`]) both
//! drive it, and differ only in what they do at the end of the buffer;
//! in a module of its own, neither of them imports the other for it.

use super::arch::all::count_newlines;
use super::bytes_read;
use super::candidate::{Found, Outcome};
use super::confirm::confirm;
use super::kernels::Kernels;
use super::scheme::SchemePolicy;
use super::search::find_hard_stop;

/// Where a scan has got to in a buffer.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cursor {
    /// Where the search for the next `:` starts.
    pub(crate) pos: usize,
    /// No scheme reaches back before this offset.
    pub(crate) lower: usize,
    /// Newlines are counted up to here (at most `pos`): the next search
    /// counts those of the bytes confirmation skipped.
    pub(crate) counted: usize,
    /// The number of `\n` bytes in the input before `counted` (in all
    /// of it, not only in the buffer).
    pub(crate) newlines: u64,
}

/// What [`Cursor::advance`] stopped at.
pub(crate) enum Stop<T> {
    /// What the caller made of a URI.
    Found(T),
    /// No `:` left in the buffer.
    Exhausted,
    /// The candidate at `pos` needs bytes past the buffer.
    NeedMore,
    /// An overlong run: skip from `pos` to the next hard stop.
    Skip,
}

impl Cursor {
    /// Runs the search from `pos` to the next decision, with the loops
    /// of `k`. A URI is handed to `emit` with the 1-based line of its
    /// first byte.
    #[inline(always)]
    pub(crate) fn advance<'h, K: Kernels, T>(
        &mut self,
        k: K,
        policy: &SchemePolicy,
        hay: &'h [u8],
        eof: bool,
        emit: impl FnOnce(&mut Found<'h>, u64) -> T,
    ) -> Stop<T> {
        let strict = matches!(policy, SchemePolicy::Default);
        self.advance_with(
            k,
            #[inline(always)]
            |h, c, f, n| k.find_candidate(h, c, f, strict, n),
            policy,
            hay,
            eof,
            emit,
        )
    }

    /// [`advance`](Cursor::advance) with the candidate search `search`, so that
    /// tests can run the vectorized and the portable search side by side
    /// (`k` gives the other loops).
    /// `search(hay, counted, from, newlines)` finds the next candidate in
    /// `hay[from..]` and adds the `\n` bytes from `counted` up to it (or
    /// to the end) to `newlines`.
    ///
    /// `emit` builds the caller's match right where confirmation left
    /// the URI, taking what it needs: moving it out first cost a copy of
    /// a hundred bytes just written by `confirm`, stalled on store
    /// forwarding.
    #[inline(always)]
    pub(crate) fn advance_with<'h, K: Kernels, T>(
        &mut self,
        k: K,
        search: impl Fn(&[u8], usize, usize, &mut u64) -> Option<usize>,
        policy: &SchemePolicy,
        hay: &'h [u8],
        eof: bool,
        emit: impl FnOnce(&mut Found<'h>, u64) -> T,
    ) -> Stop<T> {
        loop {
            debug_assert!(self.counted <= self.pos);
            let found =
                search(hay, self.counted, self.pos, &mut self.newlines);
            let Some(colon) = found else {
                bytes_read::add(hay.len().saturating_sub(self.counted));
                self.pos = hay.len();
                self.counted = hay.len();
                return Stop::Exhausted;
            };
            bytes_read::add(colon + 1 - self.counted);
            self.pos = colon;
            self.counted = colon;
            match confirm(k, policy, hay, colon, self.lower, eof) {
                Outcome::Reject => self.pos = colon + 1,
                Outcome::Drop { resume } => {
                    self.pos = resume.max(colon + 1);
                    self.lower = self.pos;
                }
                Outcome::Found(ref mut found) => {
                    // A scheme holds no newline: the line is that of
                    // the colon.
                    debug_assert!(!hay[found.start..colon].contains(&b'\n'));
                    let line = 1 + self.newlines;
                    let (resume, single_line) =
                        (found.resume, found.single_line);
                    let out = emit(found, line);
                    // The next search need not read a single-line URI's
                    // bytes again to count newlines; it counts those of a
                    // wrapped one on its way.
                    if single_line {
                        debug_assert!(!hay[colon..resume].contains(&b'\n'));
                        self.counted = resume;
                    }
                    self.pos = resume;
                    self.lower = resume;
                    return Stop::Found(out);
                }
                Outcome::NeedMore => return Stop::NeedMore,
                Outcome::Overlong { from } => {
                    self.pos = from;
                    return Stop::Skip;
                }
            }
        }
    }

    /// Counts the newlines up to `to` (a streaming buffer is about to
    /// drop the bytes before it), and returns the number of them before
    /// `to` in the whole input. The count may already run past `to` (to
    /// the end of a single-line URI); those few bytes are taken off.
    pub(crate) fn count_to(&mut self, hay: &[u8], to: usize) -> u64 {
        if to > self.counted {
            bytes_read::add(to - self.counted);
            self.newlines += count_newlines(&hay[self.counted..to]);
            self.counted = to;
        }
        self.newlines - count_newlines(&hay[to..self.counted])
    }

    /// Skips to the next hard stop after an overlong run; false when the
    /// buffer has none. (A `\n` is a hard stop: nothing to count.)
    pub(crate) fn skip(&mut self, hay: &[u8]) -> bool {
        let stop = find_hard_stop(hay, self.pos);
        bytes_read::add(stop.unwrap_or(hay.len()).saturating_sub(self.pos));
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
