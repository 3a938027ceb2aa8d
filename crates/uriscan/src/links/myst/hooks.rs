//! The hook of the oracle script and the tests into the reader: the same
//! facts of a document that myst-parser's doctree gives the oracle.

use crate::links::{
    Format, Kind, LinkExtractor, MystKind, MystSettings, Page,
};

/// What `scripts/myst_oracle.py` records of a document, as the reader
/// finds it: its links as `kind:link` (the Markdown ones as `url:` for a
/// URL and `path:` for the rest; MyST's with their kind's name), its
/// labels, and its ids; each sorted.
pub fn facts(src: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    // The oracle's `conf.py` enables `colon_fence` and nothing else.
    let settings = MystSettings { colon_fence: true, ..Default::default() };
    let page = Page::new(src.as_bytes(), Format::Myst).myst(&settings);
    let mut links = vec![];
    for link in LinkExtractor::new().extract(&page) {
        let value = link.link();
        let fact = match link.kind() {
            Kind::Myst(kind) => {
                let name = &kind.as_str()[5..];
                match kind {
                    MystKind::Doc | MystKind::Toctree => {
                        format!("{name}:{}", value.trim_end_matches(".md"))
                    }
                    // Sphinx keeps labels lowercase.
                    MystKind::Ref | MystKind::Numref => {
                        format!("{name}:{}", value.to_lowercase())
                    }
                    MystKind::Project => format!("path:{value}"),
                    MystKind::Image | MystKind::Figure
                        if value.contains("://") =>
                    {
                        format!("url:{value}")
                    }
                    _ => format!("{name}:{value}"),
                }
            }
            Kind::MdLink | Kind::MdAutolink => {
                if value.contains("://") || value.starts_with("mailto:") {
                    format!("url:{value}")
                } else {
                    format!("path:{value}")
                }
            }
            Kind::MdImage => format!("image:{value}"),
            _ => continue,
        };
        links.push(fact);
    }
    let (mut labels, _) = super::labels(src);
    let mut ids = super::anchors(src, &settings);
    links.sort();
    labels.sort();
    labels.dedup();
    ids.sort();
    ids.dedup();
    (links, labels, ids)
}
