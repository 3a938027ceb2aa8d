//! Markdown's link references (CommonMark 4.7): which definition each
//! reference link uses, the lines of each definition's uses, and the
//! duplicate definitions that the parser drops without a trace.
//!
//! pulldown-cmark keeps the first definition of a label and says nothing
//! of a later one. A later one stands outside every leaf block the parser
//! reports (a definition is no paragraph), so it is found here: at each
//! `]:` outside those blocks and outside the kept definitions, where the
//! line up to its `[` holds only container markers, and whose label a kept
//! definition has.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::ops::Range;

use unicase::UniCase;

use crate::Span;

/// The kept definitions of a document, in the order written, and their
/// uses as they are met.
#[derive(Debug, Default)]
pub(super) struct Definitions {
    /// Each definition's label key (see [`push_key`]), in the order
    /// written.
    keys: Keys,
    /// The definitions' indexes sorted by key, equal keys in the order
    /// written: a lookup is a binary search, no label hashed.
    by_key: Vec<(u64, usize)>,
    /// The key of the label being looked up, its room kept from one
    /// lookup to the next.
    key: RefCell<Vec<u8>>,
    /// Each definition's byte range, in the order written.
    spans: Vec<Range<usize>>,
    /// Each definition's line.
    lines: Vec<u64>,
    /// Each use: its offset and its definition, in the order met.
    uses: Vec<(usize, usize)>,
}

/// Label keys one after another in one buffer.
#[derive(Debug, Default)]
struct Keys {
    bytes: Vec<u8>,
    /// Where each key ends in `bytes`.
    ends: Vec<usize>,
}

impl Keys {
    fn with_room(labels: usize, bytes: usize) -> Keys {
        Keys {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(labels),
        }
    }

    /// Key `k`.
    fn get(&self, k: usize) -> &[u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.bytes[start..self.ends[k]]
    }

    /// One more key, written by `build`.
    fn push(&mut self, build: impl FnOnce(&mut Vec<u8>)) {
        build(&mut self.bytes);
        self.ends.push(self.bytes.len());
    }

    /// The indexes of the keys sorted by key, equal keys in index order,
    /// each with its key's first bytes (see [`prefix`]), which decide
    /// most comparisons with no key read.
    fn sorted(&self) -> Vec<(u64, usize)> {
        let mut by_key: Vec<(u64, usize)> =
            (0..self.ends.len()).map(|k| (prefix(self.get(k)), k)).collect();
        by_key.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| self.get(a.1).cmp(self.get(b.1)))
                .then(a.1.cmp(&b.1))
        });
        by_key
    }
}

/// A key's first eight bytes as a number (zeros past its end): keys in
/// the order of their prefixes are in the order of their bytes, but
/// where the prefixes are equal.
fn prefix(key: &[u8]) -> u64 {
    let mut first = [0u8; 8];
    let n = key.len().min(8);
    first[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(first)
}

/// A definition the parser dropped: its destination, and the index of the
/// kept definition of the same label.
#[derive(Debug)]
pub(super) struct Duplicate {
    pub destination: Span,
    pub first: usize,
}

impl Definitions {
    /// The definitions of `src` as (label, byte range), in any order;
    /// returns the order written as indexes into `labelled`. Of labels
    /// that are the same label, a lookup finds the last written.
    pub(super) fn new(
        src: &str,
        labelled: &[(&str, Range<usize>)],
    ) -> (Definitions, Vec<usize>) {
        let mut order: Vec<usize> = (0..labelled.len()).collect();
        order.sort_by_key(|&i| labelled[i].1.start);
        let spans: Vec<Range<usize>> =
            order.iter().map(|&i| labelled[i].1.clone()).collect();
        let room = labelled.iter().map(|l| l.0.len()).sum();
        let mut keys = Keys::with_room(labelled.len(), room);
        for &i in &order {
            keys.push(|key| push_key(labelled[i].0, key));
        }
        let by_key = keys.sorted();
        (Definitions::of(src, keys, by_key, spans), order)
    }

    /// Our reader's definitions, in the order written, each as (its
    /// label as written, its byte range): the first of each label is
    /// kept, as pulldown-cmark keeps it. Returns the indexes of those
    /// kept, in the order written. A document with none builds nothing.
    pub(super) fn first_of_each(
        src: &str,
        written: &[(Range<usize>, Range<usize>)],
    ) -> (Definitions, Vec<usize>) {
        if written.is_empty() {
            return (Definitions::default(), vec![]);
        }
        let room = written.iter().map(|(label, _)| label.len()).sum();
        let mut keys = Keys::with_room(written.len(), room);
        for (label, _) in written {
            let label = src.get(label.clone()).unwrap_or_default();
            keys.push(|key| push_written_key(label, key));
        }
        let by_key = keys.sorted();
        let mut firsts: Vec<usize> = by_key.iter().map(|e| e.1).collect();
        firsts.dedup_by(|later, first| keys.get(*later) == keys.get(*first));
        if firsts.len() == written.len() {
            let spans = written.iter().map(|(_, span)| span.clone()).collect();
            let kept = (0..written.len()).collect();
            return (Definitions::of(src, keys, by_key, spans), kept);
        }
        let mut kept = firsts;
        kept.sort_unstable();
        let mut kept_keys = Keys::with_room(kept.len(), keys.bytes.len());
        for &k in &kept {
            kept_keys.push(|key| key.extend_from_slice(keys.get(k)));
        }
        let spans = kept.iter().map(|&k| written[k].1.clone()).collect();
        let by_key = kept_keys.sorted();
        (Definitions::of(src, kept_keys, by_key, spans), kept)
    }

    /// The definitions keyed by `keys` (their indexes `by_key` sorted by
    /// key), at `spans`, in the order written.
    fn of(
        src: &str,
        keys: Keys,
        by_key: Vec<(u64, usize)>,
        spans: Vec<Range<usize>>,
    ) -> Definitions {
        let lines = lines_at(src.as_bytes(), spans.iter().map(|s| s.start));
        Definitions {
            keys,
            by_key,
            key: RefCell::default(),
            spans,
            lines,
            uses: vec![],
        }
    }

    /// The index of the definition of `label` (case folded, its
    /// whitespace as it is).
    pub(super) fn find(&self, label: &str) -> Option<usize> {
        if self.spans.is_empty() {
            return None;
        }
        self.find_by(|key| push_key(label, key))
    }

    /// The index of the definition of `label` as written: its runs of
    /// whitespace one space, trimmed, then case folded (see
    /// [`push_written_key`]), with nothing allocated. `None` for a blank
    /// label too.
    pub(super) fn find_written(&self, label: &str) -> Option<usize> {
        if self.spans.is_empty()
            || label.split_ascii_whitespace().next().is_none()
        {
            return None;
        }
        self.find_by(|key| push_written_key(label, key))
    }

    /// The definition whose key `build` writes, in the kept room: the
    /// last written of those with that key.
    fn find_by(&self, build: impl FnOnce(&mut Vec<u8>)) -> Option<usize> {
        let mut key = self.key.borrow_mut();
        key.clear();
        build(&mut key);
        let (first, key) = (prefix(&key), key.as_slice());
        let after = self.by_key.partition_point(|&(p, k)| {
            p < first || (p == first && self.keys.get(k) <= key)
        });
        let (_, last) = *self.by_key.get(after.checked_sub(1)?)?;
        (self.keys.get(last) == key).then_some(last)
    }

    /// A use of definition `def` at offset `at`; the definition's line.
    pub(super) fn used(&mut self, def: usize, at: usize) -> u64 {
        self.uses.push((at, def));
        self.lines[def]
    }

    /// The line of definition `def`.
    pub(super) fn line(&self, def: usize) -> u64 {
        self.lines[def]
    }

    /// The lines of each definition's uses, in the order written.
    pub(super) fn use_lines(&self, src: &str) -> Vec<Box<[u64]>> {
        let mut all = std::borrow::Cow::Borrowed(&self.uses[..]);
        // Uses are met in document order but where a reader goes back.
        if !all.is_sorted() {
            all.to_mut().sort_unstable();
        }
        let mut counts = vec![0usize; self.spans.len()];
        for &(_, d) in all.iter() {
            counts[d] += 1;
        }
        // Each definition's lines in room made to size: no growth, and
        // the boxing takes the room as it is.
        let mut out: Vec<Vec<u64>> =
            counts.into_iter().map(Vec::with_capacity).collect();
        let lines = lines_at(src.as_bytes(), all.iter().map(|&(at, _)| at));
        for (&(_, d), line) in all.iter().zip(lines) {
            out[d].push(line);
        }
        out.into_iter().map(Vec::into_boxed_slice).collect()
    }

    /// The definitions that repeat a kept one's label, in the order
    /// written. `blocks` are the byte ranges of the leaf blocks the parser
    /// reported, in document order; `gfm` when `[^label]:` is a footnote.
    pub(super) fn duplicates(
        &self,
        src: &str,
        blocks: &[Range<usize>],
        gfm: bool,
    ) -> Vec<Duplicate> {
        let bytes = src.as_bytes();
        let mut out = vec![];
        // Most documents hold no `]:` but their definitions': nothing to
        // look for then.
        if self.spans.is_empty() {
            return out;
        }
        for colon in memchr::memmem::find_iter(bytes, b"]:") {
            if inside(&self.spans, colon) || inside(blocks, colon) {
                continue;
            }
            let Some(open) = label_start(bytes, colon) else { continue };
            let label = &src[open + 1..colon];
            if gfm && label.starts_with('^') {
                continue;
            }
            let Some(first) = self.find_written(label) else {
                continue;
            };
            // The destination may stand on the next line, no further.
            let end = line_end(bytes, line_end(bytes, colon) + 1);
            let Some(destination) =
                super::markdown::destination_at(bytes, colon + 2, end)
            else {
                continue;
            };
            if destination.is_empty() {
                continue;
            }
            out.push(Duplicate { destination, first });
        }
        out
    }
}

/// Whether `at` is inside one of `ranges` (sorted by start, apart from
/// each other).
fn inside(ranges: &[Range<usize>], at: usize) -> bool {
    let i = ranges.partition_point(|r| r.start <= at);
    i > 0 && ranges[i - 1].contains(&at)
}

/// The `[` that opens the label ending at `close`, on the same line, when
/// only container markers (spaces, `>`, list markers) stand before it and
/// the label holds no unescaped bracket.
fn label_start(bytes: &[u8], close: usize) -> Option<usize> {
    let line =
        bytes[..close].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut open = None;
    let mut i = line;
    while i < close {
        match bytes[i] {
            b'\\' if open.is_some() => i += 1,
            b'[' if open.is_none() => open = Some(i),
            b'[' | b']' => return None,
            b' ' | b'\t' | b'>' | b'-' | b'*' | b'+' | b'.' | b')' => {}
            b if b.is_ascii_digit() && open.is_none() => {}
            _ if open.is_none() => return None,
            _ => {}
        }
        i += 1;
    }
    open.filter(|&o| o + 1 < close)
}

/// Appends the key of `label` to `key`: its Unicode case folding, as
/// pulldown-cmark matches labels (`UniCase`), in UTF-8. Two labels are
/// the same label exactly when their keys are equal bytes.
///
/// The folding is `UniCase`'s own, taken from what it feeds a hasher:
/// each byte of the folded text (ASCII lowercased, the rest by the
/// Unicode table), then a `0xFF` that no UTF-8 holds, left off here. So
/// the key is written with no string built, and is `UniCase`'s equality
/// by construction, whichever of its two forms a label takes.
fn push_key(label: &str, key: &mut Vec<u8>) {
    if label.is_ascii() {
        // `UniCase`'s ASCII form, in bulk: the bytes lowercased.
        key.extend(label.bytes().map(|b| b.to_ascii_lowercase()));
        return;
    }
    let start = key.len();
    UniCase::new(label).hash(&mut KeyBytes(key));
    if key.last() == Some(&0xFF) && key.len() > start {
        key.pop();
    }
}

/// Appends the key of `label` as written: its runs of whitespace one
/// space, trimmed (as pulldown-cmark normalizes a label), then case
/// folded as [`push_key`] folds it, a word at a time (the folding is a
/// character's at a time).
fn push_written_key(label: &str, key: &mut Vec<u8>) {
    if label.is_ascii() {
        // Most labels: lowercased and collapsed in one pass.
        key.reserve(label.len());
        let (start, mut space) = (key.len(), false);
        for &b in label.as_bytes() {
            if b.is_ascii_whitespace() {
                space = true;
                continue;
            }
            if space && key.len() > start {
                key.push(b' ');
            }
            space = false;
            key.push(b.to_ascii_lowercase());
        }
        return;
    }
    let mut words = label.split_ascii_whitespace();
    if let Some(first) = words.next() {
        push_key(first, key);
    }
    for word in words {
        key.push(b' ');
        push_key(word, key);
    }
}

/// A [`Hasher`] that keeps the bytes it is fed: [`push_key`]'s.
struct KeyBytes<'k>(&'k mut Vec<u8>);

impl Hasher for KeyBytes<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn write_u8(&mut self, byte: u8) {
        self.0.push(byte);
    }
    fn finish(&self) -> u64 {
        0
    }
}

/// The offset of the `\n` ending the line at `at`, or the end.
fn line_end(bytes: &[u8], at: usize) -> usize {
    let at = at.min(bytes.len());
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i)
}

/// The 1-based line of each offset, counted forward (from the start again
/// for an offset before the last).
fn lines_at(bytes: &[u8], offsets: impl Iterator<Item = usize>) -> Vec<u64> {
    let (mut pos, mut line) = (0usize, 1u64);
    offsets
        .map(|at| {
            let at = at.min(bytes.len());
            if at < pos {
                (pos, line) = (0, 1);
            }
            line += memchr::memchr_iter(b'\n', &bytes[pos..at]).count() as u64;
            pos = at;
            line
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn labels_open_after_container_markers_only() {
        let at = |s: &str| label_start(s.as_bytes(), s.find("]:").unwrap());
        assert_eq!(at("[a]: x"), Some(0));
        assert_eq!(at("> - [a]: x"), Some(4));
        assert_eq!(at("1. [a]: x"), Some(3));
        assert_eq!(at("text [a]: x"), None);
        assert_eq!(at("[a[b]: x"), None);
        assert_eq!(at("[a\\]b]: x"), Some(0));
        assert_eq!(at("[]: x"), None);
    }

    /// Labels of ASCII, whitespace, and the characters whose folding
    /// is not one-to-one or not ASCII's (`ß` to `ss`, the Kelvin sign to
    /// `k`, the long s, final sigma, `İ`, the `ﬀ` ligature).
    fn label() -> impl proptest::strategy::Strategy<Value = String> {
        "([aAkKsSbB]|[ \t\n]|ß|ẞ|\u{212A}|ſ|Σ|σ|ς|İ|i̇|ﬀ|ff|é|É){0,6}"
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(3000))]
        /// A lookup finds what the map keyed by `UniCase` strings finds,
        /// as written (whitespace collapsed first) and as given.
        #[test]
        fn keys_match_as_unicase_does(
            labels in proptest::collection::vec(label(), 0..5),
            asked in proptest::collection::vec(label(), 1..5),
        ) {
            let labelled: Vec<(&str, Range<usize>)> =
                labels.iter().enumerate().map(|(k, l)| (l.as_str(), k..k)).collect();
            let (defs, order) = Definitions::new("", &labelled);
            // The simple reference: each label, folded by `UniCase`, to
            // its index in the order written (the last of equal ones).
            let simple: HashMap<UniCase<String>, usize> = order
                .iter()
                .enumerate()
                .map(|(k, &i)| (UniCase::new(labelled[i].0.to_string()), k))
                .collect();
            let collapse = |l: &str| {
                let words: Vec<&str> = l.split_ascii_whitespace().collect();
                (!words.is_empty()).then(|| words.join(" "))
            };
            for q in asked.iter().chain(&labels) {
                let expected = (!labels.is_empty())
                    .then(|| simple.get(&UniCase::new(q.clone())).copied())
                    .flatten();
                proptest::prop_assert_eq!(defs.find(q), expected, "{:?}", q);
                let written = collapse(q)
                    .filter(|_| !labels.is_empty())
                    .and_then(|n| simple.get(&UniCase::new(n)).copied());
                proptest::prop_assert_eq!(defs.find_written(q), written, "{:?}", q);
            }
        }
    }

    #[test]
    fn folded_labels_meet() {
        let labelled = [("Straße Fuß", 0..0), ("\u{212A}elvin", 1..1)];
        let (defs, _) = Definitions::new("", &labelled);
        assert_eq!(defs.find_written("STRASSE\n fuss"), Some(0));
        assert_eq!(defs.find_written("kelvin"), Some(1));
        assert_eq!(defs.find("strasse FUSS"), Some(0));
        assert_eq!(defs.find("strasse  fuss"), None);
        assert_eq!(defs.find_written("  "), None);
    }

    #[test]
    fn lines_count_forward_and_back() {
        let src = b"a\nb\nc\n";
        assert_eq!(
            lines_at(src, [0, 2, 4, 1, 99].into_iter()),
            [1, 2, 3, 1, 4]
        );
    }
}
