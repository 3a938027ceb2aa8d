//! The finder's public API: matches, spans, flags, line numbers.

use uriscan::scanning::Finder;

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
