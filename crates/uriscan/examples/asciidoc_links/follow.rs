//! A document's links with each `include::` followed as Asciidoctor
//! renders it with `-S safe`: shared by the example and the test that
//! holds the reader to Asciidoctor's renders.

use std::path::Path;

use uriscan::links::{
    Format, Kind, Link, LinkExtractor, Page, asciidoc_includes,
};

/// The links of `text` (the file at `path`, read with the attributes
/// `preset`); when `follow`, each include's link gives way to the links
/// of the part of its file it takes (none for a file not found, or one
/// shown in a listing).
pub fn links(
    extractor: &LinkExtractor,
    path: &Path,
    text: &str,
    preset: &[(String, String)],
    follow: bool,
) -> Vec<Link> {
    let includes = match follow {
        true => asciidoc_includes(text, None, preset),
        false => vec![],
    };
    let page = Page::new(text.as_bytes(), Format::AsciiDoc).attributes(preset);
    let mut out = vec![];
    for l in extractor.extract(&page) {
        let include = includes.iter().find(|i| i.line == l.line());
        let Some(include) = include.filter(|_| l.kind() == Kind::AdocInclude)
        else {
            out.push(l);
            continue;
        };
        let dir = path.parent().unwrap_or(Path::new(""));
        let file = dir.join(&include.link);
        let Ok(whole) = std::fs::read_to_string(&file) else { continue };
        if include.verbatim {
            continue;
        }
        let taken = match &include.selection {
            Some(s) => s.select(&whole).text,
            None => whole,
        };
        let attrs = &include.attributes;
        out.extend(links(extractor, &file, &taken, attrs, follow));
    }
    out
}
