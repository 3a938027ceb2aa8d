//! The hook of the oracle script and the tests into the reader: the same
//! facts of a document that myst-parser's doctree gives the oracle.

use crate::links::{
    Format, Kind, LinkExtractor, MystKind, MystSettings, Page,
};

/// The `conf.py` the oracle gives every case: `colon_fence`.
const ORACLE_CONF: &str = "myst_enable_extensions = [\"colon_fence\"]\n";

/// What `scripts/myst_oracle.py` records of a document, as the reader
/// finds it: its links as `kind:link` (the Markdown ones as `url:` for a
/// URL and `path:` for the rest; MyST's with their kind's name), its
/// labels, and its ids; each sorted. `conf_py` is what the case's
/// directory adds to the oracle's `conf.py` (its `_conf.py`).
pub fn facts(
    src: &str,
    conf_py: &str,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let settings =
        MystSettings::from_conf_py(&format!("{ORACLE_CONF}{conf_py}"));
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
                    // A `:target:` option is a reference, not an image.
                    MystKind::Image | MystKind::Figure
                        if is_target_option(src, link.span().start) =>
                    {
                        let url = value.contains("://");
                        format!("{}:{value}", if url { "url" } else { "path" })
                    }
                    // No value known: myst-parser warns, and has nothing.
                    MystKind::Substitution => continue,
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
            // What linkify makes links, with its schemes.
            Kind::Text
                if settings.linkify
                    && ["http://", "https://", "ftp://", "mailto:"]
                        .iter()
                        .any(|s| value.starts_with(s)) =>
            {
                format!("url:{value}")
            }
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

/// Whether the link at `at` of `src` is the value of a `:target:` option.
fn is_target_option(src: &str, at: usize) -> bool {
    let line = src[..at].rfind('\n').map_or(0, |n| n + 1);
    let head = src[line..at].trim_start();
    head.starts_with(":target:") || head.starts_with("target:")
}
