//! Property tests of the finder: streaming equals whole-input scanning
//! for every read size, every emitted URI parses, no input panics.

use std::io::{self, Read};

use proptest::prelude::*;
use uriscan::scanning::{Finder, Match};
use uriscan::syntax::Parser;

/// A reader that hands out its bytes in chunks of the given sizes (then
/// one byte at a time), like a pipe would.
struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes.get(self.next).copied().unwrap_or(1).max(1);
        self.next += 1;
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn key(m: &Match<'_>) -> String {
    format!(
        "{} {:?} {}:{} {:?} rejoined={} hyphen={}",
        m.as_str(),
        m.span(),
        m.line(),
        m.column(),
        m.trimmed(),
        m.rejoined(),
        m.hyphen_break()
    )
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    let part = prop_oneof![
        Just(&b"http://"[..]),
        Just(&b"https://a.example/p"[..]),
        Just(&b"a.example"[..]),
        Just(&b"mailto:x@y"[..]),
        Just(&b"URL:"[..]),
        Just(&b":"[..]),
        Just(&b"/"[..]),
        Just(&b" "[..]),
        Just(&b"\n"[..]),
        Just(&b"-\n"[..]),
        Just(&b"<"[..]),
        Just(&b">"[..]),
        Just(&b"\""[..]),
        Just(&b"'"[..]),
        Just(&b"("[..]),
        Just(&b")"[..]),
        Just(&b"["[..]),
        Just(&b"]"[..]),
        Just(&b"."[..]),
        Just(&b","[..]),
        Just(&b"%zz"[..]),
        Just(&b"%41"[..]),
        Just(&b"[::1]"[..]),
        Just("é".as_bytes()),
        Just("请看".as_bytes()),
        Just("。".as_bytes()),
        Just(&b"\xff"[..]),
        Just(&b"\xe8\xaf"[..]),
        Just(&b"12:34"[..]),
        Just(&b"?q#f"[..]),
    ];
    prop_oneof![
        3 => proptest::collection::vec(part, 0..60).prop_map(|parts| parts.concat()),
        1 => proptest::collection::vec(any::<u8>(), 0..300),
    ]
}

fn finders() -> Vec<Finder> {
    finders_with(uriscan::scanning::DEFAULT_BUFFER_CAPACITY)
}

/// The policies under test, with a read size of `capacity`.
fn finders_with(capacity: usize) -> Vec<Finder> {
    vec![
        Finder::builder().buffer_capacity(capacity).build(),
        Finder::builder().any_scheme(true).buffer_capacity(capacity).build(),
        Finder::builder().ascii(true).buffer_capacity(capacity).build(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn streaming_equals_whole_input(
        hay in text(),
        capacity in prop_oneof![Just(1usize), 1usize..64, 64usize..4096],
        sizes in proptest::collection::vec(1usize..40, 0..20),
    ) {
        for finder in finders_with(capacity) {
            let whole: Vec<String> =
                finder.find_iter(&hay).map(|m| key(&m)).collect();
            let streamed: Vec<String> = finder
                .stream(&hay[..])
                .map(|m| key(&m.unwrap()))
                .collect();
            prop_assert_eq!(&whole, &streamed);
            let trickled: Vec<String> = finder
                .stream(Trickle { data: &hay, sizes: sizes.clone(), next: 0 })
                .map(|m| key(&m.unwrap()))
                .collect();
            prop_assert_eq!(&whole, &trickled);
            // The texts a stream copies out are the haystack's bytes at
            // the match's spans.
            let texts = finder
                .stream(Trickle { data: &hay, sizes: sizes.clone(), next: 0 })
                .with_text();
            for r in texts {
                let (m, t) = r.unwrap();
                prop_assert_eq!(&t.raw[..], &hay[m.span().range()]);
                let at = |s: Option<uriscan::Span>| s.map(|s| hay[s.range()].to_vec());
                prop_assert_eq!(t.url_prefix, at(m.trimmed().url_prefix));
                prop_assert_eq!(t.suffix, at(m.trimmed().suffix));
            }
            // Borrowed from the buffer, the same matches, and texts that
            // are the haystack's bytes at their spans.
            let mut borrowed = Vec::new();
            let mut texts_agree = true;
            let flow = finder
                .stream(Trickle { data: &hay, sizes: sizes.clone(), next: 0 })
                .try_for_each_borrowed(|m, t| {
                    let at = |s: Option<uriscan::Span>| s.map(|s| &hay[s.range()]);
                    texts_agree &= t.raw() == &hay[m.span().range()]
                        && t.url_prefix() == at(m.trimmed().url_prefix)
                        && t.suffix() == at(m.trimmed().suffix);
                    borrowed.push(key(&m));
                    std::ops::ControlFlow::<()>::Continue(())
                })
                .unwrap();
            prop_assert!(flow.is_continue());
            prop_assert!(texts_agree);
            prop_assert_eq!(&whole, &borrowed);
        }
    }

    /// `fold` (and so `count`, `for_each`, `sum`) runs its own loop; it
    /// yields what `next` does, also when it takes over an iterator that
    /// `next` has started, and so does a stream's.
    #[test]
    fn internal_iteration_equals_next(hay in text(), taken in 0usize..4) {
        for finder in finders() {
            // A `for` loop calls `next` for each match.
            let mut by_next = Vec::new();
            for m in finder.find_iter(&hay) {
                by_next.push(key(&m));
            }
            let by_fold = finder.find_iter(&hay).fold(Vec::new(), |mut v, m| {
                v.push(key(&m));
                v
            });
            prop_assert_eq!(&by_fold, &by_next);
            prop_assert_eq!(finder.find_iter(&hay).count(), by_next.len());
            let mut it = finder.find_iter(&hay);
            let mut mixed: Vec<String> =
                it.by_ref().take(taken).map(|m| key(&m)).collect();
            it.for_each(|m| mixed.push(key(&m)));
            prop_assert_eq!(&mixed, &by_next);
            let streamed = finder.stream(&hay[..]).fold(Vec::new(), |mut v, m| {
                v.push(key(&m.unwrap()));
                v
            });
            prop_assert_eq!(&streamed, &by_next);
        }
    }

    #[test]
    fn every_emitted_uri_parses(hay in text()) {
        let iri = Parser::new().iri(true);
        for finder in finders() {
            for m in finder.find_iter(&hay) {
                prop_assert!(
                    iri.parse_uri(m.as_str()).is_ok(),
                    "{:?} does not parse", m.as_str()
                );
                let raw = &hay[m.span().range()];
                prop_assert!(std::str::from_utf8(raw).is_ok());
                prop_assert!(m.as_str().starts_with(m.scheme()));
                prop_assert!(m.line() >= 1 && m.column() >= 1);
            }
        }
        for m in Finder::builder().ascii(true).build().find_iter(&hay) {
            prop_assert!(m.as_str().is_ascii());
            prop_assert!(Parser::new().parse_uri(m.as_str()).is_ok());
        }
    }

    /// Line and column of every match against a count from the start
    /// of the input, with lines of every length and runs longer than a
    /// vector block between matches, for both APIs.
    #[test]
    fn line_and_column_equal_a_direct_count(
        parts in proptest::collection::vec(
            (text(), 0usize..200, prop_oneof![Just(b'\n'), Just(b' '), Just(b'x')]),
            0..12,
        ),
        capacity in prop_oneof![Just(1usize), 1usize..100, 100usize..4096],
    ) {
        let mut hay = Vec::new();
        for (part, fill, byte) in parts {
            hay.extend_from_slice(&part);
            hay.extend(std::iter::repeat_n(byte, fill));
        }
        for finder in finders_with(capacity) {
            let whole: Vec<(u64, u64)> = finder
                .find_iter(&hay)
                .map(|m| (m.line(), m.column()))
                .collect();
            let direct: Vec<(u64, u64)> = finder
                .find_iter(&hay)
                .map(|m| {
                    let before = &hay[..m.span().start];
                    let line = before.iter().filter(|&&b| b == b'\n').count();
                    let start = before
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1);
                    (line as u64 + 1, (before.len() - start) as u64 + 1)
                })
                .collect();
            prop_assert_eq!(&whole, &direct);
            let streamed: Vec<(u64, u64)> = finder
                .stream(&hay[..])
                .map(|m| m.map(|m| (m.line(), m.column())).unwrap())
                .collect();
            prop_assert_eq!(&streamed, &direct);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(
        hay in proptest::collection::vec(any::<u8>(), 0..2000),
    ) {
        for finder in finders() {
            let n = finder.find_iter(&hay).count();
            let s = finder.stream(&hay[..]).count();
            prop_assert_eq!(n, s);
        }
    }
}

/// Line and column numbers against a direct count, over a multi-line
/// text, for both APIs and a one-byte buffer.
#[test]
fn line_and_column_numbers() {
    let text = "a\nb http://a.example/x\n\n  <http://b.example/y\n z> c\r\n\
                \u{e9}\u{e9} https://c.example/ http://d.example/";
    let finder = Finder::builder().buffer_capacity(1).build();
    let whole: Vec<_> = finder.find_iter(text.as_bytes()).collect();
    assert_eq!(whole.len(), 4);
    for m in &whole {
        let before = &text[..m.span().start];
        let line = before.matches('\n').count() as u64 + 1;
        let col = (before.len() - before.rfind('\n').map_or(0, |p| p + 1))
            as u64
            + 1;
        assert_eq!((m.line(), m.column()), (line, col), "{}", m.as_str());
    }
    assert_eq!((whole[1].line(), whole[1].column()), (4, 4));
    assert_eq!((whole[3].line(), whole[3].column()), (6, 25));
    let streamed: Vec<_> = finder
        .stream(text.as_bytes())
        .map(|m| {
            let m = m.unwrap();
            (m.line(), m.column())
        })
        .collect();
    let expect: Vec<_> =
        whole.iter().map(|m| (m.line(), m.column())).collect();
    assert_eq!(streamed, expect);
}
