//! The read stage of `check`: the walker's threads read every document
//! and turn its links into facts (and an HTML page's ids, in the same
//! pass), keeping whole the links the report will print, and the rest
//! while a budget allows, so that the report need not read them again.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use uriscan::checking::anchors::{AnchorStyle, for_each_with_kept_anchors};
use uriscan::checking::site::Site;
use uriscan::checking::{
    Antora, Checked, Collector, FormatDetector, Mapped, Remapper,
    SphinxSources,
};
use uriscan::links::{
    Format, Kind, Link, LinkExtractor, LinkRef, Page, PathKind, Reference,
    file_uri,
};
use uriscan::walking::Flow;

use super::plan::Plan;
use super::spare::{SpareBudget, SpareLinks};
use crate::config::{CheckConfig, KeepLinks};
use crate::documents::{
    DocReader, Loaded, Sources, included_by, included_target,
};

/// The documents checked, in path order.
pub struct ReadDocs {
    /// Each document's path as walked, which the report prints.
    pub labels: Vec<PathBuf>,
    /// The links of each document kept whole for the report.
    pub kept: Vec<KeptLinks>,
    /// Each document's path and root, and the paths some link reaches.
    pub checked: Checked<(PathBuf, KeptLinks)>,
}

/// Reads every document under the paths on the walker's threads into one
/// collector of their links.
pub fn read(
    cfg: &CheckConfig,
    plan: &Plan,
) -> Collector<(PathBuf, KeptLinks)> {
    let collector = plan.checker.collector();
    let docs = Mutex::new(collector.sibling());
    let includers = Mutex::new(vec![]);
    // MkDocs pages that include files.
    let site_includers = Mutex::new(vec![]);
    let adoc_includers = Mutex::new(vec![]);
    // The AsciiDoc documents read alone, and how each stands.
    let adoc_alone = Mutex::new(vec![]);
    // The reStructuredText and MyST documents read alone.
    let rst_alone = Mutex::new(std::collections::HashSet::new());
    let spare = &SpareBudget::new();
    // The Markdown documents' anchors named while they are read, within
    // a budget of their own.
    let anchor_budget = &SpareBudget::new();
    plan.walker.run(|| {
        let mut reader = DocReader::new(cfg.search_zip, cfg.binary_as_text);
        reader.map_named(cfg.map_named).tell_encodings(true);
        let mut mine = Batch { docs: &docs, held: collector.sibling() };
        let includers = &includers;
        let site_includers = &site_includers;
        let adoc_includers = &adoc_includers;
        let adoc_alone = &adoc_alone;
        let rst_alone = &rst_alone;
        move |entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    plan.errors.say(e);
                    return Flow::Continue;
                }
            };
            let path = entry.path();
            let format = Format::from_path(path);
            if path.file_name().is_some_and(|n| n == "conf.py") {
                let mut confs = plan
                    .sphinx_confs
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                confs.push(path.to_path_buf());
            }
            if format == Format::Text && !cfg.include_text {
                return Flow::Continue;
            }
            let (loaded, err) = reader.load_entry(&cfg.sources, &entry);
            let whole = err.is_none();
            if let Some(e) = err {
                plan.errors.say(e.message(path));
            }
            if let Some(loaded) = loaded {
                if let Some(bar) = &plan.progress {
                    bar.inc(1);
                }
                let disabled = if format == Format::Text {
                    vec![]
                } else {
                    uriscan::checking::disabled_lines(reader.doc())
                };
                let root =
                    loaded.root.clone().unwrap_or_else(|| loaded.abs.clone());
                let (included_ids, include_warnings) =
                    super::asciidoc::may_include(loaded.format, reader.doc())
                        .then(|| {
                            super::asciidoc::included_ids(
                                cfg,
                                &loaded,
                                reader.doc(),
                                &root,
                            )
                        })
                        .unzip();
                let site = super::site::site_of(&plan.sites, &loaded.abs);
                // A Markdown file's bytes as they are on disk: its anchors
                // are named as its links are read, in its site's style as
                // known so far, for the links into it.
                let anchor_style = (cfg.fragments
                    && whole
                    && loaded.format == Format::Markdown
                    && Format::from_path(&loaded.abs) == Format::Markdown
                    && !reader.doc_from_utf16()
                    && !anchor_budget.is_spent())
                .then(|| {
                    site.as_ref().map_or(plan.anchors, |s| s.anchor_style())
                });
                let place = Place {
                    site,
                    path: loaded.abs.clone(),
                    root,
                    disabled,
                    included_ids,
                    include_warnings: include_warnings.unwrap_or_default(),
                    anchor_style,
                };
                if format == Format::Mdx {
                    mdx_error(plan, path, reader.doc());
                }
                super::included::keep_partial(
                    &plan.checker,
                    place.site.as_deref(),
                    &loaded.abs,
                    (reader.doc(), whole, reader.doc_from_utf16()),
                );
                if crate::documents::holds_include(loaded.format, reader.doc())
                {
                    let mut all =
                        includers.lock().unwrap_or_else(|e| e.into_inner());
                    all.push((loaded.clone(), place.root.clone()));
                }
                if matches!(loaded.format, Format::Rst | Format::Myst) {
                    let mut all =
                        rst_alone.lock().unwrap_or_else(|e| e.into_inner());
                    all.insert(loaded.abs.clone());
                }
                if loaded.format == Format::AsciiDoc {
                    let read = super::asciidoc::read_alone(cfg, &loaded);
                    let mut all =
                        adoc_alone.lock().unwrap_or_else(|e| e.into_inner());
                    all.push(read);
                }
                if place.included_ids.is_some() {
                    let mut all = adoc_includers
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    all.push((loaded.clone(), place.root.clone()));
                }
                if let Some(site) = place.site.as_ref().filter(|s| {
                    super::included::may_include(Some(s), reader.doc())
                }) {
                    let mut all = site_includers
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    all.push(super::included::Includer {
                        loaded: loaded.clone(),
                        root: place.root.clone(),
                        site: site.clone(),
                    });
                }
                let page = cfg.sources.page(reader.doc(), &loaded);
                digest(
                    &mut mine.held,
                    &cfg.sources.extractor,
                    (&page, reader.doc()),
                    (path.to_path_buf(), place),
                    (cfg.keep, cfg.include_text, spare, anchor_budget),
                    (&cfg.exclude, &cfg.remap, &cfg.sources.antora),
                );
            }
            if mine.held.len() >= 64 {
                mine.hand_over();
            }
            Flow::Continue
        }
    });
    let mut collector = docs.into_inner().unwrap_or_else(|e| e.into_inner());
    if cfg.changed.is_none() {
        nav_documents(cfg, plan, &mut collector);
    }
    let includers = includers.into_inner().unwrap_or_else(|e| e.into_inner());
    let rst_alone = rst_alone.into_inner().unwrap_or_else(|e| e.into_inner());
    let rst_fragments =
        include_documents(cfg, includers, &rst_alone, &mut collector);
    let site_includers =
        site_includers.into_inner().unwrap_or_else(|e| e.into_inner());
    let label = |abs: &Path| label_of(cfg, abs);
    let adoc_includers =
        adoc_includers.into_inner().unwrap_or_else(|e| e.into_inner());
    let adoc_alone =
        adoc_alone.into_inner().unwrap_or_else(|e| e.into_inner());
    let fragments = super::asciidoc::documents(
        cfg,
        adoc_includers,
        adoc_alone,
        &mut collector,
        &label,
    );
    let included_only = fragments + rst_fragments;
    plan.included_only
        .store(included_only, std::sync::atomic::Ordering::Relaxed);
    let included = super::included::documents(
        cfg,
        site_includers,
        &mut collector,
        &label,
    );
    // An included file that is no page is read where it is included,
    // not alone.
    if !included.is_empty() {
        collector.retain_documents(|path, (_, kept)| {
            kept.via().is_some()
                || !included.contains(path)
                || !super::included::not_a_page(&plan.sites, path)
        });
    }
    collector
}

/// Says where the MDX document `doc` at `path` is malformed, if it is:
/// its links up to there are read as MDX, the rest as Markdown.
fn mdx_error(plan: &Plan, path: &Path, doc: &[u8]) {
    let Some(e) = uriscan::links::mdx_error(doc) else { return };
    let before = &doc[..e.offset.min(doc.len())];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let column =
        before.len() - memchr::memrchr(b'\n', before).map_or(0, |i| i + 1) + 1;
    plan.errors.say(format_args!(
        "{}:{line}:{column}: not read as MDX: {e}; the rest read as Markdown",
        path.display()
    ));
}

/// Each file that the reStructuredText and MyST documents `includers`
/// include (with their roots), read once as one more document in its
/// includer's format: its links count at their own lines, resolved
/// against the includer, where docutils inserts them. All its links are
/// kept, as no reader reads the file alone so. A file of the includer's
/// own format that the walk read alone (`walked`) is left to that
/// reading, unless its Sphinx project does not build it
/// ([`SphinxSources`]: an excluded `.rst`): then it is read here, and the
/// walk's reading of it dropped. Returns how many files were so read
/// only where included.
fn include_documents(
    cfg: &CheckConfig,
    includers: Vec<(Loaded, PathBuf)>,
    walked: &std::collections::HashSet<PathBuf>,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut formats = FormatDetector::new();
    let mut sphinx = SphinxSources::new();
    let mut reads = vec![];
    let mut not_documents = std::collections::HashSet::new();
    for (i, (includer, root)) in includers.iter().enumerate() {
        for (file, relative) in included_by(includer, root) {
            let own_format = formats.format(&file) == includer.format;
            let alone = own_format && walked.contains(&file);
            if alone && sphinx.builds(&file) != Some(false)
                || !seen.insert(file.clone())
            {
                continue;
            }
            // A file named on the command line is read alone too.
            if alone && !is_named(cfg, &file) {
                not_documents.insert(file.clone());
            }
            reads.push((i, file, relative));
        }
    }
    let mut dropped = 0;
    if !not_documents.is_empty() {
        collector.retain_documents(|path, _| {
            let keep = !not_documents.contains(path);
            dropped += usize::from(!keep);
            keep
        });
    }
    for (i, file, relative) in reads {
        let (includer, root) = &includers[i];
        let Ok(bytes) = std::fs::read(&file) else { continue };
        let own = file_uri(&file, PathKind::File);
        let mut page =
            Page::new(&bytes, includer.format).url(&own).base(&includer.url);
        if let Some(r) = &includer.root_uri {
            page = page.root(r);
        }
        if let Some(m) = &includer.myst {
            page = page.myst(m);
        }
        let mut d = collector.document(vec![]);
        let mut kept = vec![];
        let links = cfg.sources.extractor.extract(&page);
        for l in links.filter(|l| is_checked(l.as_ref(), cfg.include_text)) {
            let target = included_target(l.as_ref(), &file, relative.as_ref());
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
        let label = label_of(cfg, &file);
        d.finish(file, root.clone(), None, (label, KeptLinks::new(kept)));
    }
    dropped
}

/// Whether the file at `canonical` was named on the command line: it is
/// then checked alone, whatever includes it.
pub(super) fn is_named(cfg: &CheckConfig, canonical: &Path) -> bool {
    cfg.paths.iter().any(|p| {
        std::fs::canonicalize(cfg.sources.cwd.join(p))
            .is_ok_and(|p| p == canonical)
    })
}

/// Each site's navigation (MkDocs `nav`, Docusaurus sidebars) as one
/// more document, the file it is in, whose links are all kept: no
/// reader could read them again.
fn nav_documents(
    cfg: &CheckConfig,
    plan: &Plan,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
) {
    for site in super::site::nav_sites(&plan.sites, cfg.sources.walked()) {
        nav_document(cfg, collector, &site, site.nav_file(), site.nav_links());
        for (file, links) in site.other_nav_links() {
            nav_document(cfg, collector, &site, file, links);
        }
    }
}

/// One navigation file's links as a document of their own.
fn nav_document(
    cfg: &CheckConfig,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    site: &Site,
    config: &Path,
    links: Vec<Link>,
) {
    if links.is_empty() {
        return;
    }
    let mut d = collector.document(vec![]);
    let mut kept = vec![];
    for (i, l) in links.into_iter().enumerate() {
        if !cfg.exclude.is_empty()
            && is_excluded(&cfg.exclude, l.as_ref(), site.sources())
        {
            d.push_excluded(l.as_ref());
        } else if let Some(reason) = site.nav_unavailable(l.as_ref()) {
            d.push_unavailable(l.as_ref(), &reason);
        } else {
            d.push(l.as_ref());
        }
        kept.push((i as u32, l));
    }
    let label = label_of(cfg, config);
    // The site's folder: a versioned sidebar's entries are beside it.
    let site_dir = site.config_file().parent();
    let root = site_dir.unwrap_or(config).to_path_buf();
    d.finish(config.to_path_buf(), root, None, (label, KeptLinks::new(kept)));
}

/// The links of one document kept for the report, with their indexes.
/// The check's collector holds every link as a few numbers, not as text:
/// on a large site the texts would be most of its memory.
#[derive(Default)]
pub struct KeptLinks {
    links: Vec<(u32, Link)>,
    /// The document's other links, kept only so that the report need not
    /// read it again; none when the budget for them ran out.
    spare: Vec<(u32, Link)>,
    /// For a file a page includes, the page it was read for (boxed: most
    /// documents have none).
    via: Option<Box<super::included::Via>>,
}

impl KeptLinks {
    /// The links `links` of a document.
    pub(super) fn new(links: Vec<(u32, Link)>) -> KeptLinks {
        KeptLinks { links, spare: vec![], via: None }
    }
    /// The links `links` of a file that the page `via` includes.
    pub fn included(
        links: Vec<(u32, Link)>,
        via: super::included::Via,
    ) -> KeptLinks {
        KeptLinks { links, spare: vec![], via: Some(Box::new(via)) }
    }
    /// Link `li`, when it was kept (for the report too).
    pub fn get(&self, li: usize) -> Option<&Link> {
        link_at(&self.links, li).or_else(|| link_at(&self.spare, li))
    }
    /// These, and the document's other links `spare`, held for the
    /// report alone (`iter` leaves them out).
    fn with_spare(mut self, spare: Vec<(u32, Link)>) -> KeptLinks {
        self.spare = spare;
        self
    }
    /// The kept links, with their indexes, in document order.
    #[cfg(feature = "remote")]
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Link)> {
        self.links.iter().map(|(i, l)| (*i as usize, l))
    }
    /// The page the document was read for, when it is a file that page
    /// includes.
    pub fn via(&self) -> Option<&super::included::Via> {
        self.via.as_deref()
    }
}

/// Link `li` of `links`, which are in index order.
fn link_at(links: &[(u32, Link)], li: usize) -> Option<&Link> {
    let i = links.binary_search_by_key(&li, |(i, _)| *i as usize).ok()?;
    Some(&links[i].1)
}

/// A file's label as a walk of the paths named would write it: under the
/// first of them that holds it (`./mkdocs.yml` for `.`), or beside a
/// file named (`part.adoc` beside `index.adoc`).
pub(super) fn label_of(cfg: &CheckConfig, abs: &Path) -> PathBuf {
    let under = |p: &Path| {
        let base = crate::documents::absolute(&cfg.sources.cwd, p);
        Some(p.join(abs.strip_prefix(&base).ok()?))
    };
    let beside = |p: &Path| {
        let base = crate::documents::absolute(&cfg.sources.cwd, p);
        let named_file = base.is_file().then_some(base)?;
        Some(p.parent()?.join(abs.strip_prefix(named_file.parent()?).ok()?))
    };
    cfg.paths
        .iter()
        .find_map(|p| {
            if abs == crate::documents::absolute(&cfg.sources.cwd, p) {
                Some(p.clone())
            } else {
                under(p)
            }
        })
        .or_else(|| cfg.paths.iter().find_map(|p| beside(p)))
        .unwrap_or_else(|| abs.to_path_buf())
}

/// Where a document stands, as [`Document`] has it.
///
/// [`Document`]: uriscan::checking::Document
struct Place {
    /// The site whose rules its links follow.
    site: Option<Arc<Site>>,
    path: PathBuf,
    root: PathBuf,
    disabled: Vec<std::ops::RangeInclusive<u64>>,
    /// For an AsciiDoc document that may include files, the ids of the
    /// files it includes, which are its own too.
    included_ids: Option<Vec<String>>,
    /// For an AsciiDoc document, what Asciidoctor warns of its includes,
    /// by the directive's line.
    include_warnings: Vec<(u64, String)>,
    /// For a Markdown file read as it is on disk, the style its anchors
    /// are named in while it is read.
    anchor_style: Option<AnchorStyle>,
}

/// Reads `page`'s links into facts, keeping whole those the report will
/// print (`keep`), marking those `exclude` matches, and checking the
/// target `remap` gives those it maps. The URIs of prose that no renderer
/// links are left out but with `include_text`.
fn digest(
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    extractor: &LinkExtractor,
    (page, doc): (&Page<'_>, &[u8]),
    (label, place): (PathBuf, Place),
    (keep, include_text, spare, anchor_budget): (
        KeepLinks,
        bool,
        &SpareBudget,
        &SpareBudget,
    ),
    (exclude, remap, antora): (&regex::RegexSet, &Remapper, &Antora),
) {
    let mut d = collector.document(place.disabled);
    let mut kept = vec![];
    let mut spare = SpareLinks::new(spare);
    let mut i = 0u32;
    // Each link becomes facts as it is read; the links the report will
    // print are kept whole, the rest only within the spare budget.
    let style = place.anchor_style;
    let on_site = (place.site.as_deref())
        .map(|site| super::site::OnSite::new(site, &place.path));
    let (ids, anchors) =
        for_each_with_kept_anchors(extractor, page, style, |l| {
            if !is_checked(l, include_text) {
                return;
            }
            if !exclude.is_empty() && is_excluded(exclude, l, &place.root) {
                d.push_excluded(l);
            } else if let Some((_, warning)) =
                place.include_warnings.iter().find(|(line, _)| {
                    l.kind() == Kind::AdocInclude && *line == l.line()
                })
            {
                d.push_warned(l, warning);
            } else if let Some(mapped) = remap_target(remap, l) {
                d.push_remapped(l, &mapped.target);
            } else if let Some(t) =
                antora_target(antora, l, (&place.path, &place.root))
            {
                // Mapped: it never leaves the root.
                d.push_remapped(l, &t);
            } else if let Some(on) = &on_site {
                super::site::push(&mut d, on, l);
            } else {
                d.push(l);
            }
            let keep = match keep {
                KeepLinks::None => false,
                KeepLinks::Web => is_web(l),
            };
            if keep {
                kept.push((i, l.to_link()));
            } else {
                spare.push(i, l);
            }
            i += 1;
        });
    if let Some(site) = &place.site {
        super::site::push_shortcode_includes(
            &mut d,
            site,
            (&place.path, doc),
            i,
            &mut kept,
        );
    }
    if let Some(a) = anchors.filter(|a| anchor_budget.take(a.size())) {
        d.keep_anchors(a);
    }
    let ids = match (ids, place.included_ids) {
        (Some(mut ids), Some(more)) => {
            ids.extend(more);
            Some(ids)
        }
        (ids, _) => ids,
    };
    let kept =
        KeptLinks::new(kept).with_spare(spare.finish().unwrap_or_default());
    d.finish(place.path, place.root, ids, (label, kept));
}

/// The file another Antora component's resource id names, when that
/// component is in the tree beside the document's.
fn antora_target(
    antora: &Antora,
    l: LinkRef<'_>,
    at: (&Path, &Path),
) -> Option<String> {
    let target = l.target().filter(|t| t.starts_with("antora:"))?;
    let image = l.kind() == Kind::AdocImage;
    antora.resolve(target, at, image)
}

/// The remap step: what `--remap`, or the repository's web views, map
/// the link's target to, when they map it. Kept apart from the site
/// model's mapping of site URLs to sources: this one rewrites targets
/// the user named (or the repository's own web address).
pub fn remap_target(remap: &Remapper, link: LinkRef<'_>) -> Option<Mapped> {
    if remap.is_empty() {
        return None;
    }
    remap.map(link.target()?)
}

/// Whether an `--exclude` pattern matches the link: as written, and for
/// a local target its path under the root written as a root-relative
/// link (`/docs/a.md`), for any other target the target. Never the
/// absolute `file:` URI, which differs from machine to machine.
pub fn is_excluded(
    exclude: &regex::RegexSet,
    link: LinkRef<'_>,
    root: &Path,
) -> bool {
    if exclude.is_match(link.link()) {
        return true;
    }
    let Some(target) = link.target() else {
        return false;
    };
    match uriscan::links::file_path(target) {
        Some(path) => path.strip_prefix(root).is_ok_and(|under| {
            let under = under.to_string_lossy();
            exclude.is_match(&format!("/{under}"))
        }),
        None => exclude.is_match(target),
    }
}

/// Whether `check` checks the link: every link the document defines, and
/// a URI in its prose only when GitHub's Markdown links it (`http:`,
/// `https:`, `ftp:`, `www.`, `mailto:`, `xmpp:`) or with `include_text`: `see
/// file:line` is not a link. A Markdown reference link is checked once, at
/// the definition it uses, which lists the lines of its uses.
pub fn is_checked(link: LinkRef<'_>, include_text: bool) -> bool {
    if matches!(link.reference(), Some(Reference::Use { .. })) {
        return false;
    }
    if include_text || link.kind() != Kind::Text {
        return true;
    }
    let text = link.link().as_bytes();
    ["http://", "https://", "ftp://", "www.", "mailto:", "xmpp:"].iter().any(
        |p| {
            text.len() >= p.len()
                && text[..p.len()].eq_ignore_ascii_case(p.as_bytes())
        },
    )
}

/// Whether the link's target is an http or https URI.
fn is_web(link: LinkRef<'_>) -> bool {
    let t = link.target().unwrap_or("").as_bytes();
    let scheme = t.split(|&b| b == b':').next().unwrap_or_default();
    scheme.eq_ignore_ascii_case(b"http")
        || scheme.eq_ignore_ascii_case(b"https")
}

/// A document's links read again, for the report of its broken ones.
pub struct Reread<'a> {
    reader: DocReader,
    sources: &'a Sources,
    include_text: bool,
    /// The paths named on the command line: a large one among them is
    /// mapped again, as the walk's reading mapped it, not copied.
    named: &'a [PathBuf],
}

impl<'a> Reread<'a> {
    /// A reader for the documents of `cfg`.
    pub fn new(cfg: &'a CheckConfig) -> Reread<'a> {
        Reread {
            reader: {
                let mut r = DocReader::new(cfg.search_zip, cfg.binary_as_text);
                r.map_named(cfg.map_named).tell_encodings(true);
                r
            },
            sources: &cfg.sources,
            include_text: cfg.include_text,
            named: &cfg.paths,
        }
    }

    /// Each checked link of the document at `label`, read again, in
    /// document order (as the check numbered them), one at a time: none
    /// is held after `each` sees it. None when the file is gone.
    pub fn each(&mut self, label: &Path, mut each: impl FnMut(LinkRef<'_>)) {
        let (loaded, _) = if self.named.iter().any(|p| p == label) {
            self.reader.load_named(self.sources, label)
        } else {
            self.reader.load(self.sources, label)
        };
        let Some(loaded) = loaded else { return };
        let page = self.sources.page(self.reader.doc(), &loaded);
        self.sources.extractor.for_each(&page, |l| {
            if is_checked(l, self.include_text) {
                each(l);
            }
        });
    }
}

/// A worker's documents, merged into the shared collector 64 at a time
/// (one lock per batch, not per file) and when the worker ends.
struct Batch<'a> {
    docs: &'a Mutex<Collector<(PathBuf, KeptLinks)>>,
    held: Collector<(PathBuf, KeptLinks)>,
}

impl Batch<'_> {
    fn hand_over(&mut self) {
        let empty = self.held.sibling();
        let held = std::mem::replace(&mut self.held, empty);
        self.docs.lock().unwrap_or_else(|e| e.into_inner()).merge(held);
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.hand_over();
    }
}
