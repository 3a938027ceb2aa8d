//! The scanner on arbitrary bytes: it never panics, every URI it reports
//! is a valid URI (an IRI, as the default finder keeps non-ASCII
//! characters), and the streaming scanner, with a read size taken from
//! the input, reports the same matches with texts equal to the input's
//! bytes at their spans, as does its borrowing visitor. Internal iteration
//! (`fold`, behind `count` and `for_each`) yields what `next` does.

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::scanning::Finder;
use uriscan::syntax::Parser;

fuzz_target!(|data: &[u8]| {
    let Some((&size, hay)) = data.split_first() else {
        return;
    };
    let parser = Parser::new().iri(true);
    let whole: Vec<_> = Finder::new().find_iter(hay).collect();
    let folded = Finder::new().find_iter(hay).fold(Vec::new(), |mut v, m| {
        v.push(m);
        v
    });
    assert_eq!(whole, folded);
    for m in &whole {
        if let Err(e) = parser.parse_uri(m.as_str()) {
            panic!("finder reported {:?}, which is invalid: {e}", m.as_str());
        }
    }
    let finder =
        Finder::builder().buffer_capacity(usize::from(size % 64) + 1).build();
    let streamed: Vec<_> = finder
        .stream(hay)
        .with_text()
        .map(|r| r.expect("reading a slice cannot fail"))
        .collect();
    assert_eq!(whole.len(), streamed.len());
    for (w, (s, text)) in whole.iter().zip(&streamed) {
        assert_eq!(w, s);
        assert_eq!(text.raw, &hay[s.span().range()]);
        let at = |span: Option<uriscan::Span>| {
            span.map(|x| hay[x.range()].to_vec())
        };
        assert_eq!(text.url_prefix, at(s.trimmed().url_prefix));
        assert_eq!(text.suffix, at(s.trimmed().suffix));
    }
    let mut visited = whole.iter();
    let flow = finder
        .stream(hay)
        .try_for_each_borrowed(|m, text| {
            assert_eq!(Some(m), visited.next());
            assert_eq!(text.to_owned().raw, &hay[m.span().range()]);
            std::ops::ControlFlow::<()>::Continue(())
        })
        .expect("reading a slice cannot fail");
    assert!(flow.is_continue());
    assert!(visited.next().is_none());
});
