//! The AsciiDoc reader against Asciidoctor: the per-rule cases of
//! `tests/data/asciidoc`, each with the links and ids Asciidoctor renders
//! for it (`.expected`, written by `scripts/asciidoc-oracle.sh --record`);
//! and the bare-URL rules against a direct port of Asciidoctor's
//! `InlineLinkRx` and the code that trims what it matched.

use std::path::Path;

use proptest::prelude::*;
use uriscan::links::{Format, Kind, LinkExtractor, Page};

/// A link as Asciidoctor writes it in HTML: a cross-reference's `.adoc`
/// document as `.html`.
fn as_rendered(kind: Kind, link: &str) -> String {
    if !matches!(kind, Kind::AdocXref | Kind::SiteNav) {
        return link.to_owned();
    }
    let (path, fragment) = match link.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (link, None),
    };
    let path = match path.strip_suffix(".adoc") {
        Some(p) => format!("{p}.html"),
        None => path.to_owned(),
    };
    match fragment {
        Some(f) => format!("{path}#{f}"),
        None => path,
    }
}

#[path = "../../examples/asciidoc_links/follow.rs"]
mod follow;

/// Our links (as rendered) and ids of the AsciiDoc document at `path`,
/// its includes followed when `follow`.
fn ours(path: &Path, follow: bool) -> (Vec<String>, Vec<String>) {
    let bytes = std::fs::read(path).unwrap();
    let page = Page::new(&bytes, Format::AsciiDoc);
    let extractor = LinkExtractor::new();
    let (_, ids) = extractor.extract_with_anchors(&page);
    let text = String::from_utf8_lossy(&bytes);
    let links = follow::links(&extractor, path, &text, &[], follow)
        .iter()
        .map(|l| as_rendered(l.kind(), l.link()))
        .collect();
    (links, ids.unwrap_or_default())
}

#[test]
fn each_rule_as_asciidoctor_renders_it() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/asciidoc");
    let cases = cases_as_rendered(&dir, false);
    assert!(cases >= 10, "only {cases} cases");
}

/// The parts of a file that `tag=`, `tags=` and `lines=` take, as
/// Asciidoctor renders the document with its includes (`-S safe`).
#[test]
fn includes_take_their_parts_as_asciidoctor_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/asciidoc/select");
    assert!(cases_as_rendered(&dir, true) >= 2);
}

/// Holds each case of `dir` to its `.expected` file; the number of
/// cases.
fn cases_as_rendered(dir: &Path, follow: bool) -> usize {
    let mut cases = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "adoc") {
            continue;
        }
        let expected =
            std::fs::read_to_string(path.with_extension("expected"))
                .unwrap_or_else(|e| {
                    panic!("{}: no .expected: {e}", path.display())
                });
        let mut links = vec![];
        let mut ids = vec![];
        for line in expected.lines().filter(|l| !l.starts_with('#')) {
            match line.split_once(' ') {
                Some(("link", l)) => links.push(l.to_owned()),
                Some(("id", i)) => ids.push(i.to_owned()),
                _ => panic!("{}: bad line {line:?}", path.display()),
            }
        }
        let (our_links, mut our_ids) = ours(&path, follow);
        assert_eq!(our_links, links, "links of {}", path.display());
        our_ids.sort();
        ids.sort();
        assert_eq!(our_ids, ids, "ids of {}", path.display());
        cases += 1;
    }
    cases
}

/// Asciidoctor's bare URLs and URL macros in one line of text, by its
/// own regex on the text with `&`, `<`, `>` escaped, and its trimming.
fn reference_urls(line: &str) -> Vec<String> {
    let escaped =
        line.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    static RX: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let rx = RX.get_or_init(|| {
        regex::Regex::new(
        r#"(?m)(^|link:|[ \t]|&lt;|[>\(\)\[\];"'])(\\?(?:https?|file|ftp|irc)://[^\s\[\]<]*([^\s.,\[\]<]))(?:\[(|(?s:.)*?[^\\])\])?"#,
    )
    .unwrap()
    });
    let mut out = vec![];
    let mut at = 0;
    // `gsub`: each match starts where the last one ended.
    while let Some(c) = rx.captures_at(&escaped, at) {
        let whole = c.get(0).unwrap();
        at = whole.end().max(whole.start() + 1);
        let prefix = &c[1];
        let mut target = c[2].to_owned();
        if target.starts_with('\\') {
            continue;
        }
        if c.get(4).is_none() {
            if matches!(prefix, "link:" | "\"" | "'") {
                continue;
            }
            match &c[3] {
                ")" | "?" | "!" => {
                    let last = target.pop();
                    if last == Some(')') && target.ends_with(['.', '?', '!']) {
                        target.pop();
                    }
                }
                ";" => {
                    if prefix.starts_with("&lt;") && target.ends_with("&gt;") {
                        target.truncate(target.len() - 4);
                    } else {
                        target.pop();
                        if target.ends_with(')') {
                            target.pop();
                        }
                    }
                }
                ":" => {
                    target.pop();
                    if target.ends_with(')') {
                        target.pop();
                    }
                }
                _ => {}
            }
            if target.ends_with("://") {
                continue;
            }
        }
        // As the HTML's reader decodes the href: `&lt` with or without
        // its `;` (the trimming above may have taken it).
        let mut decoded = target;
        for (entity, c) in [("&lt", "<"), ("&gt", ">"), ("&amp", "&")] {
            decoded =
                decoded.replace(&format!("{entity};"), c).replace(entity, c);
        }
        out.push(decoded);
    }
    out
}

/// Our URLs (of the URL kinds) in one line of text.
fn our_urls(line: &str) -> Vec<String> {
    let page = Page::new(line.as_bytes(), Format::AsciiDoc);
    LinkExtractor::new()
        .extract(&page)
        .filter(|l| matches!(l.kind(), Kind::AdocUrl | Kind::AdocLink))
        .map(|l| l.link().to_owned())
        .collect()
}

#[test]
fn the_reference_reads_the_known_cases() {
    let line =
        "x (https://a.example/b). <https://c.example> https://d.example/e,";
    assert_eq!(
        reference_urls(line),
        ["https://a.example/b", "https://c.example", "https://d.example/e"]
    );
    assert_eq!(our_urls(line), reference_urls(line));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The memchr path finds the URLs Asciidoctor's regex finds, however
    /// punctuation surrounds them.
    #[test]
    fn bare_urls_as_asciidoctor_trims_them(
        tokens in proptest::collection::vec(
            prop::sample::select(vec![
                "https://", "ftp://", "a", "b", "/", ".", ",", ";", ":", ")",
                "(", "?", "!", "<", ">", "\"", "'", " ", "[", "]", "&",
            ]),
            0..24,
        )
    ) {
        let line = format!("x {}", tokens.concat());
        // `<<` starts a cross-reference, read after links by Asciidoctor.
        prop_assume!(!line.contains("<<"));
        prop_assert_eq!(our_urls(&line), reference_urls(&line), "{:?}", line);
    }

    /// Nothing panics, and every link lies in the document.
    #[test]
    fn malformed_asciidoc_never_panics(
        doc in proptest::collection::vec(
            prop::sample::select(vec![
                "\n", "----", "....", "++++", "////", "//", "==", "= ", "[[",
                "]]", "[", "]", "<<", ">>", "#", ",", "xref:", "link:",
                "image:", "image::", "include::", "https://", "{", "}",
                ":a: b", "a", " ", "+", "\\", "anchor:", "pass:", "|===",
                "é", "$", "modules",
            ]),
            0..40,
        )
    ) {
        let doc = doc.concat();
        for url in ["file:///c/modules/ROOT/pages/a.adoc", "file:///c/modules/m/nav.adoc", "file:///d/a.adoc"] {
            let page = Page::new(doc.as_bytes(), Format::AsciiDoc).url(url);
            let (links, _) = LinkExtractor::new().extract_with_anchors(&page);
            for l in links {
                prop_assert!(l.span().end <= doc.len());
            }
        }
    }
}

/// The attributes a page starts with (an Antora component's) expand in
/// its targets; the page cannot change them unless they are soft (`@`).
#[test]
fn preset_attributes_expand_and_hold() {
    let attrs = [
        ("base".to_owned(), "https://x.example/hard".to_owned()),
        ("soft".to_owned(), "https://x.example/soft@".to_owned()),
    ];
    let src = b":base: https://changed.example\n:soft: https://y.example\n\n\
                {base}/a[a] {soft}/b[b]\n";
    let page = Page::new(src, Format::AsciiDoc).attributes(&attrs);
    let links: Vec<String> = LinkExtractor::new()
        .extract(&page)
        .map(|l| l.link().to_owned())
        .collect();
    assert_eq!(links, ["https://x.example/hard/a", "https://y.example/b"]);
}
