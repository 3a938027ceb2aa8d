//! The link passages of `tests/data/links.txt`: each document's links,
//! their kinds, their decoded links and targets, and the bytes they were
//! written as. The file's header says how to read a line.

use uriscan::links::{Format, LinkExtractor, Page};

/// The input's bytes with the markers removed, and the marked spans.
fn unmark(s: &str) -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut out = vec![];
    let mut spans = vec![];
    let mut open = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '⟦' => open = Some(out.len()),
            '⟧' => {
                spans.push((open.take().expect("⟧ without ⟦"), out.len()))
            }
            '\\' => match chars.next() {
                Some('n') => out.push(b'\n'),
                Some('t') => out.push(b'\t'),
                Some('x') => {
                    let hex: String =
                        [chars.next().unwrap(), chars.next().unwrap()]
                            .iter()
                            .collect();
                    out.push(u8::from_str_radix(&hex, 16).unwrap());
                }
                Some(c) => {
                    out.push(b'\\');
                    let mut b = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                }
                None => out.push(b'\\'),
            },
            c => {
                let mut b = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
    (out, spans)
}

#[test]
fn link_passages() {
    let table = include_str!("../data/links.txt");
    let extractor = LinkExtractor::new();
    let mut failures = vec![];
    let mut count = 0;
    for (n, line) in table.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        let (input, expected) = line.split_once("  =>  ").expect("no =>");
        let (format, input) = input.split_once("  ").unwrap();
        let (format, url) = match format {
            "md" => (Format::Markdown, "file:///r/d/doc.md"),
            "html" => (Format::Html, "file:///r/d/doc.html"),
            f => panic!("line {}: format {f}", n + 1),
        };
        let (bytes, spans) = unmark(input);
        let page = Page::new(&bytes, format).url(url).root("file:///r/");
        let got: Vec<String> = extractor
            .extract(&page)
            .map(|l| {
                let mut s = format!("{} {}", l.kind(), l.link());
                match (l.target(), l.error()) {
                    (_, Some(_)) => s.push_str(" -> (error)"),
                    (Some(t), None) => s.push_str(&format!(" -> {t}")),
                    (None, None) => {}
                }
                format!("{s}\u{0}{}..{}", l.span().start, l.span().end)
            })
            .collect();
        let want: Vec<&str> = if expected == "(none)" {
            vec![]
        } else {
            expected.split(" ; ").collect()
        };
        let want = want.iter().map(|w| w.replace("\\u{FFFD}", "\u{FFFD}"));
        let ok = got.len() == want.len()
            && got.iter().zip(want).all(|(g, w)| {
                let (g, _) = g.split_once('\u{0}').unwrap();
                // Without a target in the table, the target is not checked.
                if w.contains(" -> ") {
                    g == w
                } else {
                    g.split(" -> ").next() == Some(&w[..])
                }
            })
            && got.len() == spans.len()
            && got
                .iter()
                .zip(&spans)
                .all(|(g, &(s, e))| g.ends_with(&format!("\u{0}{s}..{e}")));
        if !ok {
            failures.push(format!(
                "line {}: {line}\n  got: {:?}\n  marked spans: {spans:?}",
                n + 1,
                got
            ));
        }
    }
    assert!(count > 50, "only {count} passages");
    assert!(
        failures.is_empty(),
        "{} of {count} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A page that declares no encoding and is not UTF-8 is read in the
/// encoding a browser guesses for it (chardetng, as Firefox), not with
/// U+FFFD for each byte: an undeclared Latin-1 `/café` stays `/café`.
#[test]
fn an_undeclared_page_is_read_in_the_guessed_encoding() {
    let targets = |bytes: &[u8]| -> Vec<String> {
        let page = Page::new(bytes, Format::Html).url("http://example.org/");
        LinkExtractor::new()
            .extract(&page)
            .map(|l| l.target().unwrap().to_owned())
            .collect()
    };
    let latin1 =
        b"<p>Le caf\xe9 est tr\xe8s bon, \xe0 c\xf4t\xe9 de l'\xe9glise \
        o\xf9 l'on ach\xe8te des cr\xeapes.</p><a href=\"/caf\xe9\">x</a>";
    assert_eq!(targets(latin1), ["http://example.org/caf\u{e9}"]);
    let (sjis, _, _) = encoding_rs::SHIFT_JIS
        .encode("<p>日本語のページです。リンクはこちらにあります。</p><a href=\"/日本\">x</a>");
    assert_eq!(targets(&sjis), ["http://example.org/日本"]);
    // Valid UTF-8 needs no guess.
    assert_eq!(
        targets("<a href=\"/caf\u{e9}\">x</a>".as_bytes()),
        ["http://example.org/caf\u{e9}"]
    );
}
