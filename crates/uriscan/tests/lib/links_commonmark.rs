//! The 655 examples of the CommonMark specification
//! (`../shared/conformance/commonmark/spec.json`, beside the repository):
//! the links found in each example's Markdown must be exactly the `href`
//! of each `<a>` and the `src` of each `<img>` of its expected HTML.
//!
//! As the suite's README says, two steps of the reference renderer are
//! undone on the HTML side (character references decoded, then
//! percent-decoding, on both sides). Links are compared as sorted lists:
//! the renderer writes a link's `href` before the image inside its text,
//! while extraction orders links by the place of their destination.

use std::path::PathBuf;

use serde_json::Value;
use uriscan::links::{Format, Kind, LinkExtractor, Page, percent_decode};

/// The `href` of `<a>` and `src` of `<img>` in `html`, decoded.
fn expected(html: &str) -> Vec<String> {
    use html5gum::{Token, Tokenizer};
    let mut out = vec![];
    for Ok(tok) in Tokenizer::new(html) {
        if let Token::StartTag(t) = tok {
            let want: &[u8] = match &t.name[..] {
                b"a" => b"href",
                b"img" => b"src",
                _ => continue,
            };
            for (k, v) in &t.attributes {
                if &k[..] == want {
                    out.push(
                        percent_decode(&String::from_utf8_lossy(v))
                            .into_owned(),
                    );
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_commonmark_example() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance/commonmark/spec.json");
    let Ok(json) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: {} is not beside the repository", path.display());
        return;
    };
    let examples: Vec<Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(examples.len(), 655);
    // Plain CommonMark, and with the GitHub extensions (on by default),
    // which must not change what CommonMark itself calls a link.
    let mut failures = vec![];
    for gfm in [false, true] {
        let extractor =
            LinkExtractor::builder().github_extensions(gfm).build();
        for ex in &examples {
            let md = ex["markdown"].as_str().unwrap();
            let html = ex["html"].as_str().unwrap();
            let page = Page::new(md.as_bytes(), Format::Markdown);
            let mut got: Vec<String> = extractor
                .extract(&page)
                .filter(|l| match l.kind() {
                    Kind::MdLink | Kind::MdImage | Kind::MdAutolink => true,
                    Kind::MdHtml(a) => {
                        (a.element(), a.attribute()) == ("a", "href")
                            || (a.element(), a.attribute()) == ("img", "src")
                    }
                    _ => false,
                })
                .map(|l| percent_decode(l.link()).into_owned())
                .collect();
            got.sort();
            let want = expected(html);
            if got != want {
                failures.push(format!(
                "example {} ({}, gfm {gfm}): {md:?}\n  expected {want:?}\n  got      {got:?}",
                ex["example"], ex["section"]
            ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
