//! The site generators in `check`: which sites the checked tree holds
//! (`--site`), how a site document's links enter the collector, the
//! navigation documents, and the lines the report gives them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use uriscan::checking::anchors::AnchorStyle;
use uriscan::checking::site::{
    Generator, Mapped, Page, Site, Sites, git_top, is_gitlab_remote,
};
use uriscan::checking::{CheckerBuilder, DocumentDigest};
use uriscan::links::{GeneratorKind, Kind, Link, LinkRef};

use crate::args::CheckSite;
use crate::config::CheckConfig;

/// The sites a run looks for, and the anchor style of the rest.
pub struct SitePlan {
    /// `None` with `--site github` or `gitlab`.
    pub sites: Option<Sites>,
    /// The generator `--site NAME` forces.
    pub forced: Option<Generator>,
    /// Whose anchors documents outside every site have.
    pub style: Option<AnchorStyle>,
}

/// What `--site` asks for, at the top of the first checked path's
/// repository.
pub fn plan(cfg: &CheckConfig) -> SitePlan {
    let first = cfg
        .sources
        .walked()
        .first()
        .cloned()
        .unwrap_or_else(|| cfg.sources.cwd.clone());
    let top = git_top(&first);
    let only = match cfg.site {
        CheckSite::Github => {
            return SitePlan { sites: None, forced: None, style: None };
        }
        CheckSite::Gitlab => {
            let style = Some(AnchorStyle::Gitlab);
            return SitePlan { sites: None, forced: None, style };
        }
        CheckSite::Auto => None,
        CheckSite::Mkdocs => Some(Generator::Mkdocs),
        CheckSite::Docusaurus => Some(Generator::Docusaurus),
        CheckSite::Hugo => Some(Generator::Hugo),
        CheckSite::Jekyll => Some(Generator::Jekyll),
        CheckSite::Mdbook => Some(Generator::Mdbook),
    };
    let gitlab = cfg.site == CheckSite::Auto
        && top
            .as_deref()
            .and_then(remote_url)
            .is_some_and(|u| is_gitlab_remote(&u));
    let sites = Sites::new(top.unwrap_or_else(|| first.clone()), only);
    // The checked directories' own sites, before any document.
    for dir in cfg.sources.walked() {
        sites.look_above(dir);
    }
    SitePlan {
        sites: Some(sites),
        forced: only,
        style: gitlab.then_some(AnchorStyle::Gitlab),
    }
}

/// The URL of the `origin` remote (else of the first remote) from the
/// repository's configuration, read rather than asked of `git`: no
/// process per run.
fn remote_url(top: &Path) -> Option<String> {
    let dot_git = top.join(".git");
    let git_dir = if dot_git.is_dir() {
        dot_git
    } else {
        // A worktree: `gitdir: PATH`, whose `commondir` holds the config.
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let dir = top.join(text.strip_prefix("gitdir:")?.trim());
        match std::fs::read_to_string(dir.join("commondir")) {
            Ok(common) => dir.join(common.trim()),
            Err(_) => dir,
        }
    };
    let config = std::fs::read_to_string(git_dir.join("config")).ok()?;
    let mut section = String::new();
    let mut first = None;
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if key.trim() != "url" || !section.starts_with("[remote ") {
            continue;
        }
        let url = value.trim().to_string();
        if section == "[remote \"origin\"]" {
            return Some(url);
        }
        first.get_or_insert(url);
    }
    first
}

/// The checker, with each site's anchor style under its sources.
pub fn checker(builder: &CheckerBuilder, plan: &SitePlan) -> CheckerBuilder {
    let mut b = builder.clone();
    if let Some(sites) = &plan.sites {
        for site in sites.sites() {
            b.anchors_under(site.sources().to_path_buf(), site.anchor_style());
            if let Some(includes) = site.includes() {
                b.includes_under(
                    site.sources().to_path_buf(),
                    includes.clone(),
                );
            }
        }
    }
    b
}

/// The site whose rules the document at `abs` follows, when it is one of
/// a site's sources.
pub fn site_of(plan: &SitePlan, abs: &Path) -> Option<Arc<Site>> {
    plan.sites.as_ref()?.for_document(abs).filter(|s| s.contains(abs))
}

/// A site's document as its links are read: the site, and the document
/// as one of its pages, worked out once for all its links.
pub struct OnSite<'a> {
    site: &'a Site,
    /// `None` for a document whose path the site cannot name.
    page: Option<Page<'a>>,
}

impl<'a> OnSite<'a> {
    /// The document `doc` of `site`.
    pub fn new(site: &'a Site, doc: &'a Path) -> OnSite<'a> {
        OnSite { site, page: site.page(doc) }
    }
}

/// Takes a link of a site's document as the site resolves it: a step of
/// its own beside the other mappings of links.
pub fn push<T>(
    d: &mut DocumentDigest<'_, T>,
    on: &OnSite<'_>,
    l: LinkRef<'_>,
) {
    let Some(page) = on.page.as_ref().filter(|_| l.error().is_none()) else {
        return d.push(l);
    };
    push_as(d, l, map(on.site, page, l, false));
}

/// Takes the uses of the site's include shortcodes (Hugo's) in the page
/// `doc` (its bytes as the walk read them) as more links after its
/// `read` others, each kept: no reader finds them again.
pub fn push_shortcode_includes<T>(
    d: &mut DocumentDigest<'_, T>,
    site: &Site,
    (doc, bytes): (&Path, &[u8]),
    read: u32,
    kept: &mut Vec<(u32, Link)>,
) {
    if !site.has_shortcode_includes() {
        return;
    }
    let text = String::from_utf8_lossy(bytes);
    for (i, (link, mapped)) in
        site.shortcode_includes(doc, &text).into_iter().enumerate()
    {
        push_as(d, link.as_ref(), Some(mapped));
        kept.push((read + i as u32, link));
    }
}

/// Takes the link `l` as its site mapped it (`mapped`), or as it is.
pub fn push_as<T>(
    d: &mut DocumentDigest<'_, T>,
    l: LinkRef<'_>,
    mapped: Option<Mapped>,
) {
    match mapped {
        Some(Mapped::Local { path, fragment, .. }) => {
            d.push_mapped(l, &path, fragment.as_deref())
        }
        Some(Mapped::Unavailable { reason }) => d.push_unavailable(l, &reason),
        Some(Mapped::Downloaded) => d.push_downloaded(l),
        Some(Mapped::IncludedUrl) => d.push_included_url(l),
        _ => d.push(l),
    }
}

/// How the site resolves the link: a generator's own syntax (Hugo's
/// `ref`, Jekyll's `link`) by its kind, any other by what it says.
/// A local target's reason is written only when `explain`.
fn map(
    site: &Site,
    page: &Page<'_>,
    l: LinkRef<'_>,
    explain: bool,
) -> Option<Mapped> {
    match l.kind() {
        Kind::Generator(k) if k.is_template() => {
            site.map_generator_on(page, k, l.link())
        }
        // A module the bundler loads from the file system (a partial is
        // no page, and is imported all the same); but for Docusaurus'
        // `@site/` alias.
        Kind::Generator(
            GeneratorKind::MdxImport | GeneratorKind::MdxRequire,
        ) if !l.link().starts_with("@site/") => None,
        _ => site.map_on(page, l.link(), explain),
    }
}

/// How the link was mapped, for the report: `None` where it was not.
pub fn mapping(
    site: Option<&Site>,
    doc: &Path,
    link: LinkRef<'_>,
) -> Option<String> {
    let site = site?;
    match map(site, &site.page(doc)?, link, true)? {
        Mapped::Local { reason, .. } => Some(reason),
        _ => None,
    }
}

/// The sites whose navigation is checked: those whose configuration is
/// under a checked path.
pub fn nav_sites(plan: &SitePlan, walked: &[PathBuf]) -> Vec<Arc<Site>> {
    let Some(sites) = &plan.sites else { return vec![] };
    sites
        .sites()
        .into_iter()
        .filter(|s| walked.iter().any(|w| s.nav_file().starts_with(w)))
        .collect()
}

/// The summary's line of sites: `site: mkdocs (docs/mkdocs.yml)`, each
/// site's notes after it. `None` when no site was found and none was
/// asked for.
pub fn summary(plan: &SitePlan, cwd: &Path) -> Option<String> {
    let sites = plan.sites.as_ref()?.sites();
    if sites.is_empty() {
        return plan.forced.map(|g| {
            format!("site: {g}: no configuration found, the files read as GitHub shows them")
        });
    }
    let named: Vec<String> = sites
        .iter()
        .map(|s| {
            let file = s.config_file();
            let file = file.strip_prefix(cwd).unwrap_or(file);
            let mut one = format!("{} ({})", s.generator(), file.display());
            for note in s.notes() {
                one.push_str(&format!("; {note}"));
            }
            one
        })
        .collect();
    Some(format!("site: {}", named.join(", ")))
}

/// Whether the document is never an orphan for its site: a site's
/// configuration, mdBook's SUMMARY.md.
pub fn never_orphan(plan: &SitePlan, abs: &Path) -> bool {
    let Some(sites) = &plan.sites else { return false };
    sites.sites().iter().any(|s| {
        s.config_file() == abs
            || (s.generator() == Generator::Mdbook
                && abs == s.sources().join("SUMMARY.md"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remote_url_is_read_from_the_config() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir(&git).unwrap();
        std::fs::write(
            git.join("config"),
            "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = https://github.com/u/r\n[remote \"origin\"]\n\turl = git@gitlab.com:o/r.git\n",
        )
        .unwrap();
        assert_eq!(
            remote_url(dir.path()).as_deref(),
            Some("git@gitlab.com:o/r.git")
        );
        let none = tempfile::tempdir().unwrap();
        assert_eq!(remote_url(none.path()), None);
    }
}
