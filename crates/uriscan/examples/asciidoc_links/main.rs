//! Prints the links and ids the AsciiDoc reader finds in each file named
//! on the command line, one JSON object a file: what
//! `scripts/asciidoc-oracle.sh` compares with Asciidoctor's HTML. The
//! files are read with no URL, as Asciidoctor reads them alone (no Antora
//! component). With `--follow-includes`, each include's link gives way to
//! the links of the part of its file it takes, as Asciidoctor renders
//! the document with `-S safe`.

mod follow;

use std::path::Path;

use uriscan::links::{Format, LinkExtractor, Page};

fn main() {
    let extractor = LinkExtractor::new();
    let follow = std::env::args().any(|a| a == "--follow-includes");
    for path in std::env::args().skip(1).filter(|a| !a.starts_with("--")) {
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let page = Page::new(&bytes, Format::AsciiDoc);
        let (_, ids) = extractor.extract_with_anchors(&page);
        let text = String::from_utf8_lossy(&bytes);
        let found =
            follow::links(&extractor, Path::new(&path), &text, &[], follow);
        let links: Vec<_> = found
            .iter()
            .map(|l| {
                serde_json::json!({
                    "kind": l.kind().as_str(),
                    "link": l.link(),
                    "line": l.line(),
                    "column": l.column(),
                })
            })
            .collect();
        let row = serde_json::json!({
            "file": path,
            "links": links,
            "ids": ids.unwrap_or_default(),
        });
        println!("{row}");
    }
}
