//! Prints the links and ids the AsciiDoc reader finds in each file named
//! on the command line, one JSON object a file: what
//! `scripts/asciidoc-oracle.sh` compares with Asciidoctor's HTML. The
//! files are read with no URL, as Asciidoctor reads them alone (no Antora
//! component).

use uriscan::links::{Format, LinkExtractor, Page};

fn main() {
    let extractor = LinkExtractor::new();
    for path in std::env::args().skip(1) {
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let page = Page::new(&bytes, Format::AsciiDoc);
        let (links, ids) = extractor.extract_with_anchors(&page);
        let links: Vec<_> = links
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
