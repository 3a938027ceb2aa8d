//! The files that AsciiDoc documents include (`include::`), read as
//! documents of their own once for each document that includes them, as
//! Asciidoctor inserts them: only the part `tag=`/`lines=` takes, with
//! the attributes in effect at the directive; their links are checked
//! against the including document, reported at the file's own lines
//! with that document named. An AsciiDoc fragment (a partial, a file
//! another document includes) is read so only, not alone.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use uriscan::checking::site::Included;
use uriscan::checking::{
    AsciidocIncluded, AsciidocStanding, Collector, asciidoc_standing,
};
use uriscan::links::{Format, Kind, Page, PathKind, file_uri};

use super::included::Via;
use super::read::{KeptLinks, is_checked, is_excluded, is_named};
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

/// An AsciiDoc document the walk read alone, and how it stands.
pub struct ReadAlone {
    /// Its path, as the collector has it.
    abs: PathBuf,
    /// Its path, canonical, as includes name it.
    canonical: PathBuf,
    standing: AsciidocStanding,
}

/// How the AsciiDoc document `loaded` stands ([`asciidoc_standing`]): a
/// file named on the command line is a document of its own.
pub fn read_alone(cfg: &CheckConfig, loaded: &Loaded) -> ReadAlone {
    let canonical = std::fs::canonicalize(&loaded.abs)
        .unwrap_or_else(|_| loaded.abs.clone());
    let standing = if is_named(cfg, &canonical) {
        AsciidocStanding::Document
    } else {
        let component = loaded.component.as_ref().map(|c| c.dir.as_path());
        asciidoc_standing(&loaded.abs, component)
    };
    ReadAlone { abs: loaded.abs.clone(), canonical, standing }
}

/// Reads, for each AsciiDoc document of `includers` (with its root) that
/// stands alone, each file it includes as one more document, none
/// outside the root, read with the includer's attributes and the part
/// its include takes; then drops the reading alone of each fragment
/// (see [`AsciidocStanding`]) that a document standing alone includes.
/// An AsciiDoc document of its own that the walk read alone is left to
/// that reading. A fragment that no such document includes stands
/// alone, as do the fragments that include one another and nothing else
/// of the run: the first in path order of each such group. Returns how
/// many files were read only where included.
pub fn documents(
    cfg: &CheckConfig,
    mut includers: Vec<(Loaded, PathBuf)>,
    alone: Vec<ReadAlone>,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    label_of: &dyn Fn(&Path) -> PathBuf,
) -> usize {
    includers.sort_by(|a, b| a.0.abs.cmp(&b.0.abs));
    // Which files each includes first, without their texts: a large
    // site's would not all fit at once.
    let files: Vec<Vec<PathBuf>> = includers
        .iter()
        .map(|(includer, root)| {
            let found = included_by(includer, root);
            found.into_iter().map(|f| f.file).collect()
        })
        .collect();
    let files: Vec<Vec<&Path>> = files
        .iter()
        .map(|each| each.iter().map(PathBuf::as_path).collect())
        .collect();
    let by_path: HashMap<&Path, &ReadAlone> =
        alone.iter().map(|r| (r.canonical.as_path(), r)).collect();
    let anywhere: HashSet<&Path> = files.iter().flatten().copied().collect();
    let fragment = |path: &Path| {
        by_path.get(path).is_some_and(|r| match r.standing {
            AsciidocStanding::Document => false,
            AsciidocStanding::Fragment => true,
            AsciidocStanding::UnlessIncluded => anywhere.contains(path),
        })
    };
    let canonical = |l: &Loaded| {
        std::fs::canonicalize(&l.abs).unwrap_or_else(|_| l.abs.clone())
    };
    let own: Vec<PathBuf> =
        includers.iter().map(|(l, _)| canonical(l)).collect();
    let roots = standing_includers(&own, &files, &fragment);
    let covered: HashSet<&Path> =
        roots.iter().flat_map(|&i| files[i].iter().copied()).collect();
    for &i in &roots {
        let (includer, root) = &includers[i];
        let included = included_by(includer, root);
        for inc in &included {
            let its_own = by_path.contains_key(inc.file.as_path())
                && !fragment(&inc.file);
            if its_own {
                continue;
            }
            // What Asciidoctor warns of the file's own includes.
            let warnings: Vec<(u64, String)> = included
                .iter()
                .filter(|n| n.by == inc.file && !n.missing_tags.is_empty())
                .map(|n| (n.line, tags_not_found(&n.missing_tags)))
                .collect();
            let at = (includer, root);
            push_included(cfg, collector, label_of, at, inc, &warnings);
        }
    }
    let dropped: HashSet<&Path> = alone
        .iter()
        .filter(|r| {
            fragment(&r.canonical) && covered.contains(r.canonical.as_path())
        })
        .map(|r| r.abs.as_path())
        .collect();
    if !dropped.is_empty() {
        collector.retain_documents(|path, (_, kept)| {
            kept.via().is_some() || !dropped.contains(path)
        });
    }
    dropped.len()
}

/// The files that the AsciiDoc document `includer` includes, none
/// outside `root`; none when it cannot be read now.
fn included_by(includer: &Loaded, root: &Path) -> Vec<AsciidocIncluded> {
    let Ok(bytes) = std::fs::read(&includer.abs) else { return vec![] };
    asciidoc_included_by(includer, &String::from_utf8_lossy(&bytes), root)
}

/// The includers (by index; their canonical paths `own`, in path order,
/// each including `files[i]`) whose documents stand alone: those that
/// are no `fragment`; then each fragment that none of those includes, in
/// path order, but for one that a later such fragment includes.
fn standing_includers(
    own: &[PathBuf],
    files: &[Vec<&Path>],
    fragment: &dyn Fn(&Path) -> bool,
) -> Vec<usize> {
    let mut roots: Vec<usize> =
        (0..own.len()).filter(|&i| !fragment(&own[i])).collect();
    let mut covered: HashSet<&Path> =
        roots.iter().flat_map(|&i| files[i].iter().copied()).collect();
    let mut chosen = vec![];
    for i in (0..own.len()).filter(|&i| fragment(&own[i])) {
        if !covered.contains(own[i].as_path()) {
            chosen.push(i);
            covered.extend(files[i].iter().copied());
        }
    }
    // One chosen before the fragment that includes it is read there.
    let other_covers = |i: usize| {
        chosen.iter().any(|&j| j != i && files[j].contains(&own[i].as_path()))
    };
    roots.extend(chosen.iter().copied().filter(|&i| !other_covers(i)));
    roots.sort_unstable();
    roots
}

/// One file `inc` that `includer` (under `root`) includes, read as one
/// more document where it is included: its links against the includer,
/// reported at their own lines with the includer named.
fn push_included(
    cfg: &CheckConfig,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    label_of: &dyn Fn(&Path) -> PathBuf,
    (includer, root): (&Loaded, &PathBuf),
    included: &AsciidocIncluded,
    warnings: &[(u64, String)],
) {
    let own = file_uri(&included.file, PathKind::File);
    let mut page = Page::new(included.text.as_bytes(), Format::AsciiDoc)
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
        let warned = warnings.iter().find(|(line, _)| {
            l.kind() == Kind::AdocInclude && *line == l.line()
        });
        if !cfg.exclude.is_empty()
            && is_excluded(&cfg.exclude, l.as_ref(), root)
        {
            d.push_excluded(l.as_ref());
        } else if let Some((_, warning)) = warned {
            d.push_warned(l.as_ref(), warning);
        } else {
            d.push(l.as_ref());
        }
        kept.push((kept.len() as u32, l));
    }
    let via = Via {
        page: includer.abs.clone(),
        label: label_of(&includer.abs),
        included: Included { file: included.file.clone(), against_page: true },
    };
    let label = label_of(&included.file);
    let kept = KeptLinks::included(kept, via);
    d.finish(included.file.clone(), root.clone(), None, (label, kept));
}
