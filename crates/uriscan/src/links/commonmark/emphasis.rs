//! Emphasis delimiters (`*` and `_`, and with the GitHub extensions the
//! strikethrough's `~` and `~~`), matched by CommonMark's "process
//! emphasis" (6.2) as pulldown-cmark matches them, for the one thing
//! links read of them: the delimiters that open or close emphasis end a
//! text run; the rest are text.

use super::inline::{Item, What};
use super::punctuation;

/// A run of `*` or `_`; `start..end` what is left of it unmatched.
#[derive(Debug)]
pub(super) struct Delim {
    byte: u8,
    start: usize,
    end: usize,
    /// The run's length as written (for the rule of three).
    written: usize,
    can_open: bool,
    can_close: bool,
}

impl Delim {
    /// The run of `n` at `at`, in inline content `start..end`; `lines`,
    /// where the lines do not meet, where each starts its content.
    pub(super) fn new(
        bytes: &[u8],
        start: usize,
        end: usize,
        at: usize,
        n: usize,
        lines: Option<&[usize]>,
    ) -> Delim {
        let line_start = lines.is_some_and(|l| l.binary_search(&at).is_ok());
        let before = if at == start || line_start {
            '\n'
        } else {
            char_before(bytes, at)
        };
        let after = if at + n >= end { '\n' } else { char_at(bytes, at + n) };
        let space = char::is_whitespace;
        let punct = |c: char| {
            if c.is_ascii() {
                c.is_ascii_punctuation()
            } else {
                punctuation::is_punctuation(c)
            }
        };
        let left =
            !space(after) && (!punct(after) || space(before) || punct(before));
        let right =
            !space(before) && (!punct(before) || space(after) || punct(after));
        let byte = bytes[at];
        let (can_open, can_close) = if byte == b'~' {
            // pulldown-cmark's rules: `~~` may open and close within a
            // word, and so may a `~` beside another.
            let double = n > 1;
            (
                !space(after)
                    && (double
                        || (before == '~' && !punct(after))
                        || space(before)
                        || punct(before)),
                !space(before)
                    && ((double && !punct(before))
                        || before == '~'
                        || space(after)
                        || punct(after)),
            )
        } else if byte == b'_' {
            (
                left && (!right || punct(before)),
                right && (!left || punct(after)),
            )
        } else {
            (left, right)
        };
        Delim { byte, start: at, end: at + n, written: n, can_open, can_close }
    }

    /// Where this run starts when it may still open emphasis (a closer
    /// alone matches only openers before it).
    pub(super) fn may_open(&self) -> Option<usize> {
        (self.can_open && self.len() > 0).then_some(self.start)
    }

    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Matches the delimiters of `delims[bottom..]`, pushing the matched ones
/// to `items`; the unmatched stay text.
pub(super) fn process(
    delims: &mut [Delim],
    bottom: usize,
    items: &mut Vec<Item<'_>>,
) {
    // The lowest opener worth looking at, by the closer's byte, length
    // modulo 3 and whether it can open.
    let mut openers_bottom = [[bottom; 2]; 6];
    // A `~` closer looks for an opener of its own length, above one
    // bound for every `~` (pulldown-cmark keeps one).
    let mut tildes_bottom = bottom;
    let key = |d: &Delim| usize::from(d.byte == b'_') * 3 + d.written % 3;
    let mut closer = bottom;
    while closer < delims.len() {
        let (c_byte, c_open, c_close, c_len) = {
            let d = &delims[closer];
            (d.byte, d.can_open, d.can_close, d.len())
        };
        if !c_close || c_len == 0 {
            closer += 1;
            continue;
        }
        let k = key(&delims[closer]);
        let tilde = c_byte == b'~';
        let floor = if tilde {
            tildes_bottom
        } else {
            openers_bottom[k][usize::from(c_open)]
        };
        let mut found = None;
        let mut o = closer;
        while o > floor {
            o -= 1;
            let d = &delims[o];
            if d.byte != c_byte || !d.can_open || d.len() == 0 {
                continue;
            }
            if tilde {
                if d.written == delims[closer].written {
                    found = Some(o);
                    break;
                }
                continue;
            }
            let odd = (d.can_close || c_open)
                && (d.written + delims[closer].written).is_multiple_of(3)
                && !(d.written.is_multiple_of(3)
                    && delims[closer].written.is_multiple_of(3));
            if !odd {
                found = Some(o);
                break;
            }
        }
        let Some(o) = found else {
            if tilde {
                tildes_bottom = closer;
            } else {
                openers_bottom[k][usize::from(c_open)] = closer;
            }
            if !c_open {
                delims[closer].can_close = false;
            }
            closer += 1;
            continue;
        };
        let used = if delims[o].len() >= 2 && c_len >= 2 { 2 } else { 1 };
        let op = &mut delims[o];
        op.end -= used;
        items.push(Item {
            start: op.end,
            end: op.end + used,
            what: What::Delimiter,
        });
        let cl = &mut delims[closer];
        items.push(Item {
            start: cl.start,
            end: cl.start + used,
            what: What::Delimiter,
        });
        cl.start += used;
        // The delimiters between them are text now.
        for d in &mut delims[o + 1..closer] {
            d.can_open = false;
            d.can_close = false;
        }
        if delims[closer].len() == 0 {
            closer += 1;
        }
    }
}

/// The character that ends before `at` in `bytes` (UTF-8).
fn char_before(bytes: &[u8], at: usize) -> char {
    let b = bytes[at - 1];
    if b.is_ascii() {
        return char::from(b);
    }
    // Back over the continuation bytes to the character's first.
    let mut from = at - 1;
    while from > 0 && at - from < 4 && bytes[from] & 0xC0 == 0x80 {
        from -= 1;
    }
    decode(&bytes[from..at])
}

/// The character that starts at `at` in `bytes` (UTF-8).
fn char_at(bytes: &[u8], at: usize) -> char {
    let b = bytes[at];
    if b.is_ascii() {
        return char::from(b);
    }
    let len = match b {
        0xF0.. => 4,
        0xE0.. => 3,
        _ => 2,
    };
    decode(&bytes[at..(at + len).min(bytes.len())])
}

/// The one character `bytes` hold (U+FFFD if they do not).
fn decode(bytes: &[u8]) -> char {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}
