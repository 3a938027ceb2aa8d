//! A document's bytes as UTF-8 text, and the way back from a place in that
//! text to the byte of the file it came from.
//!
//! HTML says its encoding with a byte order mark or a `<meta charset>`
//! (or `http-equiv="content-type"`) in its first 1024 bytes (the HTML
//! standard's prescan, 13.2.3.2); encoding_rs decodes it. A file that is
//! not UTF-8 is never skipped: Markdown and UTF-8 HTML with bad bytes are
//! read with U+FFFD in their place, and every link keeps the offset of its
//! bytes in the file.

use std::borrow::Cow;
use std::cell::Cell;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use super::tokenizer::{StartTag, TagSink, run};

/// The encoding an HTML document declares: its BOM, else a `<meta>` in its
/// first 1024 bytes; `None` when it declares none.
pub(crate) fn sniff_html(bytes: &[u8]) -> Option<&'static Encoding> {
    if let Some((enc, _)) = Encoding::for_bom(bytes) {
        return Some(enc);
    }
    struct Meta(Option<&'static Encoding>);
    impl TagSink for Meta {
        fn start_tag(&mut self, tag: &StartTag) {
            if self.0.is_some() || tag.name != b"meta" {
                return;
            }
            if let Some(c) = tag.attr(b"charset") {
                self.0 = Encoding::for_label(c.value.trim_ascii());
            } else if tag.attr(b"http-equiv").is_some_and(|h| {
                h.value.trim_ascii().eq_ignore_ascii_case(b"content-type")
            }) && let Some(c) = tag.attr(b"content")
            {
                self.0 = charset_param(&c.value);
            }
        }
    }
    let head = &bytes[..bytes.len().min(1024)];
    let mut meta = Meta(None);
    run(head, &mut meta, true);
    // A page that says UTF-16 in ASCII is not UTF-16 (13.2.3.2 step 5).
    meta.0.map(|e| if e == UTF_16LE || e == UTF_16BE { UTF_8 } else { e })
}

/// The encoding of a page that declares none and is not UTF-8, as
/// Firefox guesses it (chardetng); the first [`GUESS_FROM`] bytes are
/// enough for a guess and bound its cost on a large page. `None` when the
/// page does not read back to its own bytes in the guess (malformed in
/// it, or a stateful encoding): each link's place is counted by encoding
/// the text again, which only such a round trip keeps exact, so the page
/// is then read as UTF-8 with U+FFFD, as before.
fn guess_undeclared(bytes: &[u8]) -> Option<(&'static Encoding, String)> {
    let head = &bytes[..bytes.len().min(GUESS_FROM)];
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(head, head.len() == bytes.len());
    // No top-level domain hint; the page is known not to be UTF-8.
    let guess = detector.guess(None, false);
    if guess == encoding_rs::ISO_2022_JP {
        return None;
    }
    let text =
        guess.decode_without_bom_handling_and_without_replacement(bytes)?;
    let (back, _, unmappable) = guess.encode(&text);
    let round_trips = !unmappable && *back == *bytes;
    round_trips.then(|| (guess, text.into_owned()))
}

/// How many bytes of an undeclared page the detector reads.
const GUESS_FROM: usize = 64 * 1024;

/// The `charset=` of a `Content-Type` value.
pub(crate) fn charset_param(v: &[u8]) -> Option<&'static Encoding> {
    let lower = v.to_ascii_lowercase();
    let i = memchr::memmem::find(&lower, b"charset")? + 7;
    let rest =
        v[i..].trim_ascii_start().strip_prefix(b"=")?.trim_ascii_start();
    let rest =
        rest.strip_prefix(b"\"").or(rest.strip_prefix(b"'")).unwrap_or(rest);
    let end = rest
        .iter()
        .position(|&b| matches!(b, b';' | b'"' | b'\'' | b' ' | b'\t'))
        .unwrap_or(rest.len());
    Encoding::for_label(&rest[..end])
}

/// A document as UTF-8 text, with the way back to its bytes.
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    map: Map,
    /// The encoding it was read in: the URL Standard encodes a link's
    /// query in it.
    pub encoding: &'static Encoding,
}

enum Map {
    /// The text is the bytes.
    Same,
    /// Valid stretches of UTF-8 with U+FFFD between: at each anchor, the
    /// text offset and the byte offset after a replaced sequence.
    Anchors(Vec<(usize, usize)>),
    /// Another encoding: the start of each line in the text and in the
    /// bytes; within a line, the text before the place is encoded again to
    /// count its bytes.
    Lines {
        encoding: &'static Encoding,
        text_lines: Vec<usize>,
        byte_lines: Vec<usize>,
        bom: usize,
    },
}

impl<'a> Decoded<'a> {
    /// `bytes` as UTF-8, lossily.
    pub(crate) fn utf8(bytes: &'a [u8]) -> Decoded<'a> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Decoded::same(s),
            Err(_) => Decoded::lossy(bytes),
        }
    }

    /// Valid UTF-8: the text is the bytes.
    fn same(text: &'a str) -> Decoded<'a> {
        Decoded { text: Cow::Borrowed(text), map: Map::Same, encoding: UTF_8 }
    }

    /// Bytes that are not valid UTF-8, with U+FFFD for each bad sequence.
    fn lossy(bytes: &'a [u8]) -> Decoded<'a> {
        let mut text = String::with_capacity(bytes.len() + 16);
        let mut anchors = vec![];
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            at += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                text.push('\u{FFFD}');
                at += chunk.invalid().len();
                anchors.push((text.len(), at));
            }
        }
        Decoded {
            text: Cow::Owned(text),
            map: Map::Anchors(anchors),
            encoding: UTF_8,
        }
    }

    /// An HTML page that declares no encoding: UTF-8 when it is valid
    /// UTF-8, else in the encoding a detector guesses, as a browser reads
    /// it (the HTML standard leaves that step to the user agent; Firefox
    /// runs chardetng there).
    pub(crate) fn undeclared(bytes: &'a [u8]) -> Decoded<'a> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Decoded::same(s),
            Err(_) => match guess_undeclared(bytes) {
                // No BOM: read.rs looks for one before it asks this.
                Some((guess, text)) => Decoded::lines(bytes, guess, 0, text),
                None => Decoded::lossy(bytes),
            },
        }
    }

    /// `bytes` decoded from `encoding` (a BOM wins over it).
    pub(crate) fn decode(
        bytes: &'a [u8],
        encoding: &'static Encoding,
    ) -> Decoded<'a> {
        let (enc, bom) = Encoding::for_bom(bytes).unwrap_or((encoding, 0));
        if enc == UTF_8 {
            let mut d = Decoded::utf8(&bytes[bom..]);
            d.shift(bom);
            return d;
        }
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
        Decoded::lines(bytes, enc, bom, text.into_owned())
    }

    /// `text`, decoded from `bytes[bom..]` in `enc` (not UTF-8), with the
    /// map of its lines back to the bytes.
    fn lines(
        bytes: &'a [u8],
        enc: &'static Encoding,
        bom: usize,
        text: String,
    ) -> Decoded<'a> {
        let text_lines = line_starts(text.as_bytes());
        let byte_lines = if enc == UTF_16LE || enc == UTF_16BE {
            // Each line starts after a U+000A code unit.
            let nl: [u8; 2] = if enc == UTF_16LE { [10, 0] } else { [0, 10] };
            let body = &bytes[bom..];
            let mut v = vec![0];
            v.extend(
                (0..body.len() / 2)
                    .filter(|i| body[2 * i..2 * i + 2] == nl)
                    .map(|i| 2 * i + 2),
            );
            v
        } else {
            line_starts(&bytes[bom..])
        };
        let map = if text_lines.len() == byte_lines.len() {
            Map::Lines { encoding: enc, text_lines, byte_lines, bom }
        } else {
            // An encoding whose bytes hide line feeds (ISO-2022-JP can
            // not; kept as a guard): lines only, from the start.
            Map::Lines {
                encoding: enc,
                text_lines: vec![0],
                byte_lines: vec![0],
                bom,
            }
        };
        Decoded { text: Cow::Owned(text), map, encoding: enc }
    }

    fn shift(&mut self, by: usize) {
        if by == 0 {
            return;
        }
        match &mut self.map {
            Map::Same => self.map = Map::Anchors(vec![(0, by)]),
            Map::Anchors(a) => {
                for x in a.iter_mut() {
                    x.1 += by;
                }
                a.insert(0, (0, by));
            }
            Map::Lines { .. } => {}
        }
    }

    /// The byte offset in the file of the text offset `at`.
    #[inline]
    pub(crate) fn byte_offset(&self, at: usize) -> usize {
        // Twice for every link, and nearly every document is valid UTF-8:
        // that case inlined, the others out of line.
        match self.map {
            Map::Same => at,
            _ => self.mapped_offset(at),
        }
    }

    /// [`byte_offset`](Decoded::byte_offset) where the text is not the
    /// bytes.
    #[inline(never)]
    fn mapped_offset(&self, at: usize) -> usize {
        match &self.map {
            Map::Same => at,
            Map::Anchors(a) => {
                let i = a.partition_point(|&(t, _)| t <= at);
                match i {
                    0 => at,
                    _ => a[i - 1].1 + (at - a[i - 1].0),
                }
            }
            Map::Lines { encoding, text_lines, byte_lines, bom } => {
                let i = text_lines.partition_point(|&t| t <= at).max(1) - 1;
                let line = &self.text[text_lines[i]..at.min(self.text.len())];
                let within = if *encoding == UTF_16LE || *encoding == UTF_16BE
                {
                    2 * line.encode_utf16().count()
                } else {
                    encoding.encode(line).0.len()
                };
                bom + byte_lines[i] + within
            }
        }
    }
}

/// The line of each place of a text, for places asked in increasing
/// order: the newlines between one place and the next are counted once,
/// without a table of every line start or a search in it per place.
pub(crate) struct LineCursor<'t> {
    text: &'t [u8],
    // Cells: the cursor is moved by the links that ask for their line,
    // each through a shared reference (see `Lines`).
    at: Cell<usize>,
    line: Cell<usize>,
    start: Cell<usize>,
}

impl<'t> LineCursor<'t> {
    pub(crate) fn new(text: &'t [u8]) -> Self {
        LineCursor {
            text,
            at: Cell::new(0),
            line: Cell::new(1),
            start: Cell::new(0),
        }
    }

    /// The 1-based line of offset `pos` and the offset that line starts
    /// at. Asking for a place before the last one starts over.
    pub(crate) fn locate(&self, pos: usize) -> (usize, usize) {
        // The place asked again (a link's line, then its column).
        if pos == self.at.get() {
            return (self.line.get(), self.start.get());
        }
        if pos < self.at.get() {
            self.at.set(0);
            self.line.set(1);
            self.start.set(0);
        }
        let at = self.at.get();
        let between = &self.text[at..pos];
        if let Some(last) = memchr::memrchr(b'\n', between) {
            // The last newline is found: only the bytes before it are
            // counted.
            let n = memchr::memchr_iter(b'\n', &between[..last]).count() + 1;
            self.line.set(self.line.get() + n);
            self.start.set(at + last + 1);
        }
        self.at.set(pos);
        (self.line.get(), self.start.get())
    }
}

/// The lines of a decoded document, counted only as far as a link asks:
/// a caller that prints only targets never counts them.
pub(crate) struct Lines<'a> {
    cursor: LineCursor<'a>,
    decoded: &'a Decoded<'a>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(decoded: &'a Decoded<'a>) -> Lines<'a> {
        Lines { cursor: LineCursor::new(decoded.text.as_bytes()), decoded }
    }

    /// The 1-based line and column (in the file's bytes) of the text
    /// offset `at`.
    pub(crate) fn place(&self, at: usize) -> (u64, u64) {
        let (line, line_start) = self.cursor.locate(at);
        let line_start = self.decoded.byte_offset(line_start);
        let start = self.decoded.byte_offset(at);
        (line as u64, (start - line_start) as u64 + 1)
    }
}

/// The offsets at which lines start: 0 and after each `\n`.
pub(crate) fn line_starts(bytes: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(sniff_html(b"\xEF\xBB\xBF<p>"), Some(UTF_8));
        assert_eq!(
            sniff_html(b"<meta charset=\"ISO-8859-1\">").map(|e| e.name()),
            Some("windows-1252")
        );
        assert_eq!(
            sniff_html(b"<meta http-equiv=Content-Type content='text/html; charset=shift_jis'>")
                .map(|e| e.name()),
            Some("Shift_JIS")
        );
        assert_eq!(sniff_html(b"<meta charset=utf-16>"), Some(UTF_8));
        assert_eq!(sniff_html(b"<p>no charset"), None);
    }

    #[test]
    fn offsets_map_back_to_bytes() {
        let bytes = b"a\xffb\n\xfe\xfec";
        let d = Decoded::utf8(bytes);
        assert_eq!(d.text, "a\u{FFFD}b\n\u{FFFD}\u{FFFD}c");
        let c = d.text.find('c').unwrap();
        assert_eq!(d.byte_offset(c), 6);
        assert_eq!(d.byte_offset(d.text.find('b').unwrap()), 2);
        let latin = encoding_rs::WINDOWS_1252;
        let bytes = b"caf\xe9\n\xe9t\xe9 x";
        let d = Decoded::decode(bytes, latin);
        assert_eq!(d.text, "café\nété x");
        assert_eq!(d.byte_offset(d.text.find('x').unwrap()), 9);
        let sjis = encoding_rs::SHIFT_JIS;
        let (bytes, _, _) = sjis.encode("日本\n語 http://x/");
        let d = Decoded::decode(&bytes, sjis);
        let at = d.text.find("http").unwrap();
        assert_eq!(&bytes[d.byte_offset(at)..], b"http://x/");
    }

    proptest::proptest! {
        /// The cursor against the table of line starts and a search in
        /// it, for places in increasing order and then one before them.
        #[test]
        fn line_cursor_is_the_table(
            text in "[a\n\r]{0,200}",
            mut places in proptest::collection::vec(0usize..=200, 0..20),
        ) {
            let text = text.as_bytes();
            let table = line_starts(text);
            let slow = |p: usize| {
                let line = table.partition_point(|&s| s <= p);
                (line, table[line - 1])
            };
            places.iter_mut().for_each(|p| *p = (*p).min(text.len()));
            places.sort_unstable();
            if let Some(&first) = places.first() {
                places.push(first);
            }
            let cursor = LineCursor::new(text);
            for p in places {
                proptest::prop_assert_eq!(cursor.locate(p), slow(p));
            }
        }
    }
}
