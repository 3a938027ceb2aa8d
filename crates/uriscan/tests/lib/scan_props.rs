//! Property tests of the finder: streaming equals whole-input scanning
//! for every read size, every emitted URI parses, no input panics.

use proptest::prelude::*;
use uriscan::scanning::{
    DEFAULT_BUFFER_CAPACITY, Finder, MAX_ANGLE_LEN, MAX_SCHEME_LEN,
    MAX_URI_LEN, Match,
};
use uriscan::syntax::Parser;

use crate::support::trickle::Trickle;

/// What is trimmed from the end of a bare URI.
const PROSE_PUNCTUATION: &[char] = &['.', ',', ';', ':', '!', '?', '\'', '*'];

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

/// Short pieces of text that make and break URIs.
fn piece() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![
        Just(&b"http://"[..]),
        Just(&b"https://a.example/p"[..]),
        Just(&b"a.example"[..]),
        Just(&b"mailto:x@y"[..]),
        Just(&b"URL:"[..]),
        Just(&b"<URL:"[..]),
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
    ]
}

/// A scheme of about [`MAX_SCHEME_LEN`] bytes (one or two past it
/// too), then its `:` and maybe `//`: the longest look back from a `:`,
/// which the stream's kept history must cover with a `<URL:` before it.
fn long_scheme() -> impl Strategy<Value = Vec<u8>> {
    let len = MAX_SCHEME_LEN - 3..=MAX_SCHEME_LEN + 2;
    let tail = prop_oneof![Just(&b"://h.example/p"[..]), Just(&b":x"[..])];
    (len, tail).prop_map(|(n, tail)| {
        let mut s: Vec<u8> = b"s+v-".iter().copied().cycle().take(n).collect();
        s[0] = b's';
        s.extend_from_slice(tail);
        s
    })
}

/// A run of URI characters of a length around a cap of the scanner:
/// the common-shape lane's reach (256 B) and the search for the `>` of a
/// `<...>` URI ([`MAX_ANGLE_LEN`]); [`long_runs`] has the longest.
fn run_near_a_cap() -> impl Strategy<Value = Vec<u8>> {
    let near = |cap: usize| cap - 12..cap + 12;
    // The common-shape lane's `REACH` (crate-private).
    let len = prop_oneof![near(256), near(MAX_ANGLE_LEN)];
    let byte = prop_oneof![Just(b'a'), Just(b'/'), Just(b'.')];
    (len, byte).prop_map(|(n, b)| vec![b; n])
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    let part = prop_oneof![
        30 => piece().prop_map(<[u8]>::to_vec),
        2 => long_scheme(),
        1 => run_near_a_cap(),
    ];
    prop_oneof![
        3 => proptest::collection::vec(part, 0..60).prop_map(|parts| parts.concat()),
        1 => proptest::collection::vec(any::<u8>(), 0..300),
    ]
}

/// Text around runs as long as a URI may be ([`MAX_URI_LEN`], from the
/// start of the scheme) give or take a few bytes, which is also the
/// default read size.
fn long_runs() -> impl Strategy<Value = Vec<u8>> {
    let scheme = prop_oneof![
        Just(&b"http://"[..]),
        Just(&b"<http://"[..]),
        Just(&b"<URL:http://"[..]),
        Just(&b"\"http://"[..]),
    ];
    let near = MAX_URI_LEN - 12..MAX_URI_LEN + 12;
    let run = (scheme, near).prop_map(|(s, n)| {
        let mut v = s.to_vec();
        v.resize(n - usize::from(s[0] != b'h'), b'a');
        v
    });
    let part = prop_oneof![
        4 => piece().prop_map(<[u8]>::to_vec),
        1 => run,
    ];
    proptest::collection::vec(part, 1..8).prop_map(|parts| parts.concat())
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

/// Streaming `hay` gives what scanning it whole does, read whole, in
/// reads of `sizes` (then of one byte), with its texts, and borrowed.
fn streaming_agrees(
    hay: &[u8],
    capacity: usize,
    sizes: &[usize],
) -> Result<(), TestCaseError> {
    let trickle = || Trickle::sizes(hay, sizes.to_vec());
    for finder in finders_with(capacity) {
        let whole: Vec<String> =
            finder.find_iter(hay).map(|m| key(&m)).collect();
        let streamed: Vec<String> =
            finder.stream(hay).map(|m| key(&m.unwrap())).collect();
        prop_assert_eq!(&whole, &streamed);
        let trickled: Vec<String> =
            finder.stream(trickle()).map(|m| key(&m.unwrap())).collect();
        prop_assert_eq!(&whole, &trickled);
        // The texts a stream copies out are the haystack's bytes at the
        // match's spans.
        for r in finder.stream(trickle()).with_text() {
            let (m, t) = r.unwrap();
            prop_assert_eq!(&t.raw[..], &hay[m.span().range()]);
            let at =
                |s: Option<uriscan::Span>| s.map(|s| hay[s.range()].to_vec());
            prop_assert_eq!(t.url_prefix, at(m.trimmed().url_prefix));
            prop_assert_eq!(t.suffix, at(m.trimmed().suffix));
        }
        // Borrowed from the buffer, the same matches, and texts that are
        // the haystack's bytes at their spans.
        let mut borrowed = Vec::new();
        let mut texts_agree = true;
        let flow = finder
            .stream(trickle())
            .try_for_each_borrowed(|m, t| {
                let at = |s: Option<uriscan::Span>| s.map(|s| &hay[s.range()]);
                texts_agree &= t.raw() == &hay[m.span().range()]
                    && t.url_prefix() == at(m.trimmed().url_prefix)
                    && t.suffix() == at(m.trimmed().suffix);
                borrowed.push(key(m));
                std::ops::ControlFlow::<()>::Continue(())
            })
            .unwrap();
        prop_assert!(flow.is_continue());
        prop_assert!(texts_agree);
        prop_assert_eq!(&whole, &borrowed);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn streaming_equals_whole_input(
        hay in text(),
        capacity in prop_oneof![Just(1usize), 1usize..64, 64usize..4096],
        sizes in proptest::collection::vec(1usize..40, 0..20),
    ) {
        streaming_agrees(&hay, capacity, &sizes)?;
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
                // A bare URI never ends in the punctuation of prose:
                // neither its run's end nor the end of a valid prefix
                // cut from it.
                let open_at = m.trimmed().url_prefix.unwrap_or(m.span()).start;
                let delimited = open_at > 0 && b"\"'<".contains(&hay[open_at - 1]);
                prop_assert!(
                    delimited || !m.as_str().ends_with(PROSE_PUNCTUATION),
                    "{:?} ends in punctuation", m.as_str()
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

proptest! {
    // Each case streams about 100 KiB to 500 KiB several ways.
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Streaming equals whole-input scanning around the longest run a
    /// URI may be, which is also the default read size, read in large
    /// reads and one byte at a time.
    #[test]
    fn streaming_equals_whole_input_at_the_longest_runs(
        hay in long_runs(),
        capacity in prop_oneof![
            Just(1usize),
            Just(DEFAULT_BUFFER_CAPACITY),
            DEFAULT_BUFFER_CAPACITY - 16..DEFAULT_BUFFER_CAPACITY + 16,
        ],
        sizes in proptest::collection::vec(
            prop_oneof![1usize..40, 60_000usize..70_000], 0..8,
        ),
    ) {
        streaming_agrees(&hay, capacity, &sizes)?;
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

/// A `<URL:` label before a scheme of every length up to the longest, in
/// a stream read a byte at a time: the stream keeps enough history to see
/// the label from the scheme's `:`.
#[test]
fn url_label_before_the_longest_scheme_in_a_trickle() {
    let finder = Finder::builder().buffer_capacity(1).build();
    for len in 1..=MAX_SCHEME_LEN {
        let scheme = "s".repeat(len);
        let text = format!("see <URL:{scheme}://a.example/p> and more");
        let hay = text.as_bytes();
        let trickle = Trickle::sizes(hay, vec![]);
        let got: Vec<_> = finder.stream(trickle).map(|m| m.unwrap()).collect();
        assert_eq!(got.len(), 1, "{text}");
        let label = got[0].trimmed().url_prefix.map(|s| &hay[s.range()]);
        assert_eq!(label, Some(&b"URL:"[..]), "{text}");
        assert_eq!(got[0].as_str(), format!("{scheme}://a.example/p"));
    }
}
