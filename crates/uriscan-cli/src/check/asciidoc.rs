//! The files that AsciiDoc documents include (`include::`), read as
//! documents of their own once for each document that includes them, as
//! Asciidoctor inserts them: only the part `tag=`/`lines=` takes, with
//! the attributes in effect at the directive; their links are checked
//! against the including document, reported at the file's own lines
//! with that document named.

use std::path::{Path, PathBuf};

use uriscan::checking::Collector;
use uriscan::checking::site::Included;
use uriscan::links::{Format, Page, PathKind, file_uri};

use super::included::Via;
use super::read::{KeptLinks, is_checked, is_excluded};
use crate::config::CheckConfig;
use crate::documents::{Loaded, asciidoc_included_by, included_target};

/// Whether the document `doc` in `format` may hold an `include::`.
pub fn may_include(format: Format, doc: &[u8]) -> bool {
    format == Format::AsciiDoc
        && memchr::memmem::find(doc, b"include::").is_some()
}

/// The ids of the files that the AsciiDoc document `includer`, whose
/// bytes are `doc`, includes (none outside `root`), each read with the
/// attributes where it is included: ids of the includer's own. Then what
/// Asciidoctor warns of its own includes, by line: the tags an include
/// asks for that its file does not hold.
pub fn included_ids(
    cfg: &CheckConfig,
    includer: &Loaded,
    doc: &[u8],
    root: &Path,
) -> (Vec<String>, Vec<(u64, String)>) {
    let text = String::from_utf8_lossy(doc);
    let own = std::fs::canonicalize(&includer.abs)
        .unwrap_or_else(|_| includer.abs.clone());
    let (mut ids, mut warnings) = (vec![], vec![]);
    for included in asciidoc_included_by(includer, &text, root) {
        let page = Page::new(included.text.as_bytes(), Format::AsciiDoc)
            .attributes(&included.attributes);
        let (_, found) = cfg.sources.extractor.extract_with_anchors(&page);
        ids.extend(found.unwrap_or_default());
        // A nested include's warning is its own document's.
        if included.by == own && !included.missing_tags.is_empty() {
            warnings
                .push((included.line, tags_not_found(&included.missing_tags)));
        }
    }
    (ids, warnings)
}

/// Asciidoctor's warning for the tags an include asks for that its file
/// does not hold.
fn tags_not_found(tags: &[String]) -> String {
    let s = if tags.len() > 1 { "s" } else { "" };
    format!("tag{s} '{}' not found in include file", tags.join(", "))
}

/// Reads, for each AsciiDoc document of `includers` (with its root), each
/// file it includes as one more document, none outside the root. A file
/// of the includer's own format is a document the walk reads itself, as
/// `links` leaves it; the files it includes are still read.
pub fn documents(
    cfg: &CheckConfig,
    mut includers: Vec<(Loaded, PathBuf)>,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    label_of: &dyn Fn(&Path) -> PathBuf,
) {
    includers.sort_by(|a, b| a.0.abs.cmp(&b.0.abs));
    for (includer, root) in &includers {
        let Ok(bytes) = std::fs::read(&includer.abs) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        for included in asciidoc_included_by(includer, &text, root) {
            if Format::from_path(&included.file) == Format::AsciiDoc {
                continue;
            }
            let own = file_uri(&included.file, PathKind::File);
            let mut page =
                Page::new(included.text.as_bytes(), Format::AsciiDoc)
                    .url(&own)
                    .base(&includer.url)
                    .attributes(&included.attributes);
            if let Some(r) = &includer.root_uri {
                page = page.root(r);
            }
            let mut d = collector.document(vec![]);
            let mut kept = vec![];
            for l in cfg.sources.extractor.extract(&page) {
                if !is_checked(l.as_ref(), cfg.include_text) {
                    continue;
                }
                let target = included_target(l.as_ref(), &included.file, None);
                let l = match &target {
                    Some(t) => l.as_ref().with_target(t).to_link(),
                    None => l,
                };
                if !cfg.exclude.is_empty()
                    && is_excluded(&cfg.exclude, l.as_ref(), root)
                {
                    d.push_excluded(l.as_ref());
                } else {
                    d.push(l.as_ref());
                }
                kept.push((kept.len() as u32, l));
            }
            let via = Via {
                page: includer.abs.clone(),
                label: label_of(&includer.abs),
                included: Included {
                    file: included.file.clone(),
                    against_page: true,
                },
            };
            let label = label_of(&included.file);
            let kept = KeptLinks::included(kept, via);
            d.finish(included.file, root.clone(), None, (label, kept));
        }
    }
}
