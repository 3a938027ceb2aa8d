//! The finder's public API: matches, spans, flags, line numbers.

use std::io::{self, Read};
use std::ops::ControlFlow;

use uriscan::Span;
use uriscan::scanning::{Finder, MAX_URI_LEN, Match};

#[test]
fn appendix_c_example_sentence() {
    let text = br#"Yes, Jim, I found it under "http://www.w3.org/Addressing/", but you can probably pick it up from <ftp://foo.example.com/rfc/>. Note the warning in <http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING>."#;
    let found: Vec<String> = Finder::new()
        .find_iter(text)
        .map(|m| m.as_str().to_string())
        .collect();
    assert_eq!(
        found,
        [
            "http://www.w3.org/Addressing/",
            "ftp://foo.example.com/rfc/",
            "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
        ]
    );
}

fn all(text: &[u8]) -> Vec<Match<'_>> {
    Finder::new().find_iter(text).collect()
}

#[test]
fn finder_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Finder>();
    check::<Match<'static>>();
}

#[test]
fn match_accessors() {
    let text = b"go to HTTPS://a.example/p?q#f now";
    let m = &all(text)[0];
    assert_eq!(m.as_str(), "HTTPS://a.example/p?q#f");
    assert_eq!(m.scheme(), "HTTPS");
    assert_eq!(m.span(), Span::new(6, 29));
    assert!(matches!(m.uri(), std::borrow::Cow::Borrowed(_)));
    assert!(m.trimmed().is_empty());
    assert_eq!((m.line(), m.column()), (1, 7));
    let owned: Match<'static> = m.clone().into_owned();
    assert_eq!(owned.as_str(), m.as_str());
    assert_eq!(owned.span(), m.span());
}

#[test]
fn trimmed_records_punctuation_and_brackets() {
    let text = b"(see http://a.example/b).";
    let m = &all(text)[0];
    assert_eq!(m.as_str(), "http://a.example/b");
    let t = m.trimmed();
    assert!(t.unbalanced_bracket && !t.punctuation && !t.invalid_tail);
    assert_eq!(t.suffix, Some(Span::new(23, 24)));

    let text = b"see http://a.example/b?!";
    let t = *all(text)[0].trimmed();
    assert!(t.punctuation && !t.unbalanced_bracket);
    assert_eq!(&text[t.suffix.unwrap().range()], b"?!");
}

#[test]
fn trimmed_records_invalid_tail_and_url_prefix() {
    let text = b"<URL:http://a.example/b%zz/c>";
    let m = &all(text)[0];
    assert_eq!(m.as_str(), "http://a.example/b");
    let t = m.trimmed();
    assert!(t.invalid_tail);
    assert_eq!(t.url_prefix, Some(Span::new(1, 5)));
    assert_eq!(&text[t.suffix.unwrap().range()], b"%zz/c");
    // Punctuation before the invalid tail is prose too: cut after it.
    let text = b"see http://a.example/b.%zz, http://b.example/c?!%zz";
    let found = all(text);
    let uris: Vec<&str> = found.iter().map(Match::as_str).collect();
    assert_eq!(uris, ["http://a.example/b", "http://b.example/c"]);
    for m in &found {
        let t = m.trimmed();
        assert!(t.invalid_tail && t.punctuation, "{}", m.as_str());
    }
    let suffix = found[0].trimmed().suffix.unwrap();
    assert_eq!(&text[suffix.range()], b".%zz,");
    // A candidate whose valid prefix has neither host nor path is dropped.
    assert!(all(b"http://[::1/x and http://%zz").is_empty());
}

#[test]
fn rejoined_uri_is_owned_and_spans_the_raw_text() {
    let text = b"x <http://a.example/long-\n   name> y";
    let m = &all(text)[0];
    assert_eq!(m.as_str(), "http://a.example/long-name");
    assert!(m.rejoined() && m.hyphen_break());
    assert!(matches!(m.uri(), std::borrow::Cow::Owned(_)));
    assert_eq!(&text[m.span().range()], b"http://a.example/long-\n   name");
}

#[test]
fn ascii_gives_the_uri_form() {
    let f = Finder::builder().ascii(true).build();
    let m: Vec<_> = f.find_iter("http://a.example/ü".as_bytes()).collect();
    assert_eq!(m[0].as_str(), "http://a.example/%C3%BC");
    assert_eq!(m[0].span(), Span::new(0, 19));
}

#[test]
fn invalid_utf8_ends_a_uri_and_never_panics() {
    let text =
        b"\xff\xfe http://a.example/x\xffy \xc3 http://b.example/\xe8\xaf";
    let got: Vec<_> =
        all(text).iter().map(|m| m.as_str().to_string()).collect();
    assert_eq!(got, ["http://a.example/x", "http://b.example/"]);
}

/// A URI of `len` bytes.
fn long_uri(len: usize) -> Vec<u8> {
    let mut uri = b"http://a.example/".to_vec();
    uri.resize(len, b'a');
    uri
}

#[test]
fn overlong_runs_are_dropped_whole_in_both_apis() {
    let ok = long_uri(MAX_URI_LEN - 1);
    let too_long = long_uri(MAX_URI_LEN);
    let mut text = Vec::new();
    text.extend_from_slice(&ok);
    text.extend_from_slice(b" ");
    text.extend_from_slice(&too_long);
    text.extend_from_slice(b"http://inside.example/ http://after.example/");
    let whole: Vec<String> = Finder::new()
        .find_iter(&text)
        .map(|m| m.as_str().to_string())
        .collect();
    assert_eq!(whole.len(), 2);
    assert_eq!(whole[0].len(), MAX_URI_LEN - 1);
    assert_eq!(whole[1], "http://after.example/");
    for cap in [1, 1000, 1 << 16] {
        let f = Finder::builder().buffer_capacity(cap).build();
        let streamed: Vec<String> = f
            .stream(&text[..])
            .map(|m| m.unwrap().as_str().to_string())
            .collect();
        assert_eq!(streamed, whole, "capacity {cap}");
    }
}

/// Bytes made on the fly: `len` bytes of one overlong run, then a URI.
struct Endless {
    left: usize,
    tail: &'static [u8],
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left > 0 {
            let n = buf.len().min(self.left);
            buf[..n].fill(b'a');
            if self.left == 64 << 20 {
                buf[..7].copy_from_slice(b"http://");
            }
            self.left -= n;
            return Ok(n);
        }
        let n = buf.len().min(self.tail.len());
        buf[..n].copy_from_slice(&self.tail[..n]);
        self.tail = &self.tail[n..];
        Ok(n)
    }
}

#[test]
fn streaming_a_huge_run_keeps_memory_bounded() {
    // The stream asserts (in debug builds) that its buffer stays under
    // its bound while it skips 64 MiB of one run.
    let rdr = Endless { left: 64 << 20, tail: b" http://b.example/\n" };
    let got: Vec<_> = Finder::new()
        .stream(rdr)
        .map(|m| m.unwrap().as_str().to_string())
        .collect();
    assert_eq!(got, ["http://b.example/"]);
}

struct Failing(usize);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0 == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        let text = b"http://a.example/ ";
        let n = text.len().min(buf.len());
        buf[..n].copy_from_slice(&text[..n]);
        self.0 -= 1;
        Ok(n)
    }
}

#[test]
fn read_errors_end_the_stream_after_the_matches_before_them() {
    let items: Vec<_> = Finder::builder()
        .buffer_capacity(18)
        .build()
        .stream(Failing(2))
        .collect();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].as_ref().unwrap().as_str(), "http://a.example/");
    assert_eq!(items[1].as_ref().unwrap().span(), Span::new(18, 35));
    assert_eq!(items[2].as_ref().unwrap_err().to_string(), "disk on fire");
}

/// A read that fails after others delivered bytes, within one refill of
/// a large buffer: the bytes before it are scanned before the error is.
#[test]
fn read_errors_lose_no_match_read_before_them() {
    let items: Vec<_> = Finder::new().stream(Failing(3)).collect();
    let spans: Vec<Span> =
        items[..3].iter().map(|m| m.as_ref().unwrap().span()).collect();
    assert_eq!(
        spans,
        [Span::new(0, 17), Span::new(18, 35), Span::new(36, 53)]
    );
    assert_eq!(items[3].as_ref().unwrap_err().to_string(), "disk on fire");
    assert_eq!(items.len(), 4);
}

#[test]
fn stream_reads_lazily() {
    let endless = io::repeat(b' ').take(u64::MAX);
    let rdr = b"see http://a.example/ ".chain(endless);
    let first = Finder::new().stream(rdr).next().unwrap().unwrap();
    assert_eq!(first.as_str(), "http://a.example/");
}

#[test]
fn borrowed_stream_hands_out_matches_before_a_read_error() {
    let mut spans = Vec::new();
    let ended = Finder::builder()
        .buffer_capacity(18)
        .build()
        .stream(Failing(2))
        .try_for_each_borrowed(|m, t| {
            assert_eq!(t.raw(), b"http://a.example/");
            spans.push(m.span());
            ControlFlow::<()>::Continue(())
        });
    assert_eq!(ended.unwrap_err().to_string(), "disk on fire");
    assert_eq!(spans, [Span::new(0, 17), Span::new(18, 35)]);
}

#[test]
fn borrowed_stream_stops_where_the_visitor_breaks() {
    // An endless input: only a break ends the scan.
    let endless = io::repeat(b' ').take(u64::MAX);
    let rdr =
        b"see http://a.example/ and <http://b.example/\n  c>, ".chain(endless);
    let mut seen = Vec::new();
    let flow = Finder::new()
        .stream(rdr)
        .try_for_each_borrowed(|m, t| {
            seen.push((m.as_str().to_string(), t.raw().to_vec()));
            if m.rejoined() {
                return ControlFlow::Break(m.clone().into_owned());
            }
            ControlFlow::Continue(())
        })
        .unwrap();
    let ControlFlow::Break(last) = flow else { panic!("not stopped") };
    assert_eq!(last.as_str(), "http://b.example/c");
    assert_eq!(
        seen[0],
        ("http://a.example/".into(), b"http://a.example/".to_vec())
    );
    assert_eq!(seen[1].1, b"http://b.example/\n  c");
}

/// Delimiting details that only a direct case pins down (each was a
/// mutant of `delimit.rs` that survived the suite).
#[test]
fn delimiting_details() {
    let uris = |text: &[u8]| -> Vec<String> {
        all(text).iter().map(|m| m.as_str().to_string()).collect()
    };
    // `*` is trailing punctuation; punctuation right after the scheme's
    // `:` leaves no URI.
    assert_eq!(
        uris(b"see http://a.example/b* and mailto:. or news:,"),
        ["http://a.example/b"]
    );
    // `URL:` is a label only where it is not the tail of a longer word.
    let m = &all(b"xURL:http://a.example/")[0];
    assert_eq!(m.trimmed().url_prefix, None);
    let m = &all(b"(URL:http://a.example/)")[0];
    assert_eq!(m.trimmed().url_prefix, Some(Span::new(1, 5)));
    // Whitespace between a URI and its `>` is neither rejoined nor cut.
    let m = &all(b"<http://a.example/x \n >")[0];
    assert_eq!(m.as_str(), "http://a.example/x");
    assert!(!m.rejoined() && m.trimmed().is_empty(), "{m:?}");
    // A hyphen is a hyphen break only before a line break.
    let m = &all(b"<http://a.example/a- b>")[0];
    assert_eq!(m.as_str(), "http://a.example/a-b");
    assert!(m.rejoined() && !m.hyphen_break());
    let m = &all(b"<http://a.example/a-\n b>")[0];
    assert!(m.rejoined() && m.hyphen_break());
}
