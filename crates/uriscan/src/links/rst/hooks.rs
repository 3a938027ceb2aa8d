//! The hook of the oracle script and the tests into the reader: the same
//! facts of a document that docutils' doctree gives the oracle.

use crate::links::{Format, Kind, LinkExtractor, Page, RstKind};

/// What `scripts/rst_oracle.py` records of a document, as the reader
/// finds it: the URIs of its references and images, its ids, and its
/// Sphinx references as `role:target`; each sorted.
pub fn facts(src: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    let page = Page::new(src.as_bytes(), Format::Rst);
    let (mut links, mut sphinx) = (vec![], vec![]);
    for link in LinkExtractor::new().extract(&page) {
        let Kind::Rst(kind) = link.kind() else { continue };
        let raw = link.raw().split_whitespace().collect::<Vec<_>>().join(" ");
        match kind {
            RstKind::Link
            | RstKind::AnonymousLink
            | RstKind::Reference
            | RstKind::AnonymousReference
            | RstKind::Uri
            | RstKind::Image
            | RstKind::Figure => links.push(link.link().to_owned()),
            RstKind::Target | RstKind::AnonymousTarget => {}
            RstKind::Download | RstKind::Include | RstKind::LiteralInclude => {
                let name = &kind.as_str()[4..];
                sphinx.push(format!("{name}:{}", link.link()));
            }
            _ => {
                let name = &kind.as_str()[4..];
                let raw = raw.trim_start_matches(['~', '!']);
                let raw =
                    if kind == RstKind::External { link.link() } else { raw };
                sphinx.push(format!("{name}:{raw}"));
            }
        }
    }
    let mut ids = super::anchors(src, false);
    links.sort();
    ids.sort();
    sphinx.sort();
    (links, ids, sphinx)
}

/// The anchors of `src`, ids made for want of a name as Sphinx makes
/// them (`sphinx`) or as docutils does.
#[cfg(feature = "internals")]
pub fn anchors(src: &str, sphinx: bool) -> Vec<String> {
    super::anchors(src, sphinx)
}
