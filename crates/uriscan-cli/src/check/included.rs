//! The files that MkDocs pages include (`pymdownx.snippets`,
//! `include-markdown`), read as documents of their own once for each
//! page that includes them: their links are checked where the site
//! renders them (a snippet's against the page, an `include-markdown`
//! file's against itself, as the plugin rewrites them), reported at the
//! file's own lines with the page named.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use uriscan::checking::site::{Generator, Included, Mapped, Site};
use uriscan::checking::{Checker, Collector, DocumentDigest};
use uriscan::links::{
    Format, GeneratorKind, Kind, Link, LinkRef, Page, PathKind, file_uri,
};

use super::read::KeptLinks;
use super::site::SitePlan;
use crate::config::CheckConfig;
use crate::documents::Loaded;

/// A page that holds include directives, as the walk read it.
pub struct Includer {
    /// The page as the walk loaded it (its URL, its root's).
    pub loaded: Loaded,
    /// The root its links resolve under.
    pub root: PathBuf,
    /// The site it is a page of.
    pub site: Arc<Site>,
}

/// The page an included file's document was read for.
pub struct Via {
    /// The including page.
    pub page: PathBuf,
    /// How the page's report names it.
    pub label: PathBuf,
    /// The included file, and what its links resolve against.
    pub included: Included,
}

/// Whether the document `doc` of the site `site` may include files: a
/// site with include rules, and a directive's mark in the text.
pub fn may_include(site: Option<&Site>, doc: &[u8]) -> bool {
    site.is_some_and(|s| s.includes().is_some())
        && (memchr::memmem::find(doc, b"8<").is_some()
            || memchr::memmem::find(doc, b"{%").is_some())
}

/// Whether the file `abs` is none of the pages of the MkDocs project it
/// is in (outside its docs_dir): read where a page includes it, it is
/// not read alone.
pub fn not_a_page(plan: &SitePlan, abs: &Path) -> bool {
    let Some(sites) = &plan.sites else { return false };
    sites.for_document(abs).is_some_and(|site| {
        !site.contains(abs)
            && site.includes().is_some_and(|i| abs.starts_with(i.folder()))
    })
}

/// Hands the checker the bytes the walk read of the file `abs` (`doc`,
/// read whole) when it is a Docusaurus partial (a `_`-prefixed `.md` or
/// `.mdx` file of the site): the anchors of a page that imports it are
/// read with no second read of it. Not when the reader decoded it from
/// UTF-16: a page's anchors read the file's own bytes.
pub fn keep_partial(
    checker: &Checker,
    site: Option<&Site>,
    abs: &Path,
    (doc, whole, from_utf16): (&[u8], bool, bool),
) {
    let is_partial = abs.file_name().is_some_and(|n| {
        let n = n.as_encoded_bytes();
        n.starts_with(b"_") && (n.ends_with(b".md") || n.ends_with(b".mdx"))
    });
    if is_partial
        && whole
        && !from_utf16
        && site.is_some_and(|s| s.generator() == Generator::Docusaurus)
    {
        checker.keep_partial(abs, doc);
    }
}

/// Reads, for each page of `includers`, each Markdown file it includes
/// as one more document (the bytes the walk of its includes read), all its links kept; returns the files read so.
/// A file that is no page is read so only: see [`not_a_page`].
pub fn documents(
    cfg: &CheckConfig,
    mut includers: Vec<Includer>,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    label_of: &dyn Fn(&Path) -> PathBuf,
) -> HashSet<PathBuf> {
    includers.sort_by(|a, b| a.loaded.abs.cmp(&b.loaded.abs));
    let mut read = HashSet::new();
    for inc in &includers {
        let Some(rules) = inc.site.includes() else { continue };
        let Ok(text) = std::fs::read(&inc.loaded.abs) else { continue };
        let text = String::from_utf8_lossy(&text);
        rules.each_included(&text, &inc.loaded.abs, &mut |included, bytes| {
            if Format::from_path(&included.file) != Format::Markdown {
                return;
            }
            read.insert(included.file.clone());
            let via = Via {
                page: inc.loaded.abs.clone(),
                label: label_of(&inc.loaded.abs),
                included,
            };
            document(cfg, inc, bytes, via, collector, label_of);
        });
    }
    read
}

/// One included file's links, as the page `via` renders them.
fn document(
    cfg: &CheckConfig,
    inc: &Includer,
    bytes: &[u8],
    via: Via,
    collector: &mut Collector<(PathBuf, KeptLinks)>,
    label_of: &dyn Fn(&Path) -> PathBuf,
) {
    let file = via.included.file.clone();
    let own = file_uri(&file, PathKind::File);
    let base = match via.included.against_page {
        true => inc.loaded.url.as_str(),
        false => own.as_str(),
    };
    let mut page = Page::new(bytes, Format::Markdown).url(&own).base(base);
    if let Some(r) = &inc.loaded.root_uri {
        page = page.root(r);
    }
    let mut d = collector.document(uriscan::checking::disabled_lines(bytes));
    let mut kept = vec![];
    let links = cfg.sources.extractor.extract(&page);
    for l in
        links.filter(|l| super::read::is_checked(l.as_ref(), cfg.include_text))
    {
        // The plugin leaves a bare anchor as it is: the page's.
        let l = match l.link().starts_with('#') && !via.included.against_page {
            true => {
                let target = format!("{}{}", inc.loaded.url, l.link());
                l.as_ref().with_target(&target).to_link()
            }
            false => l,
        };
        if !cfg.exclude.is_empty()
            && super::read::is_excluded(&cfg.exclude, l.as_ref(), &inc.root)
        {
            d.push_excluded(l.as_ref());
        } else if let Some(m) =
            super::read::remap_target(&cfg.remap, l.as_ref())
        {
            d.push_remapped(l.as_ref(), &m.target);
        } else {
            push(&mut d, &inc.site, &via, l.as_ref());
        }
        kept.push((kept.len() as u32, l));
    }
    let label = label_of(&file);
    let kept = KeptLinks::included(kept, via);
    d.finish(file, inc.root.clone(), None, (label, kept));
}

/// Takes a link of an included file as the site resolves it on the page.
fn push<T>(
    d: &mut DocumentDigest<'_, T>,
    site: &Site,
    via: &Via,
    l: LinkRef<'_>,
) {
    if l.error().is_some() {
        return d.push(l);
    }
    super::site::push_as(d, l, map(site, via, l));
}

/// How the site resolves a link of an included file on the page: an
/// include directive from the file that holds it, another generator's
/// syntax not at all (a template), any other link by what it says.
fn map(site: &Site, via: &Via, l: LinkRef<'_>) -> Option<Mapped> {
    match l.kind() {
        Kind::Generator(
            k @ (GeneratorKind::MkdocsSnippet
            | GeneratorKind::MkdocsIncludeMarkdown),
        ) => site.map_include(&via.included.file, k, l.link()),
        Kind::Generator(k) if k.is_template() => None,
        Kind::Generator(
            GeneratorKind::MdxImport | GeneratorKind::MdxRequire,
        ) => None,
        _ => site.map_included(&via.page, &via.included, l.link()),
    }
}

/// How a link of an included file was mapped, for the report.
pub fn mapping(site: &Site, via: &Via, link: &Link) -> Option<String> {
    match map(site, via, link.as_ref())? {
        Mapped::Local { reason, .. } => Some(reason),
        _ => None,
    }
}
