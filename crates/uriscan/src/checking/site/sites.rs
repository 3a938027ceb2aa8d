//! The sites of a tree: for each document the nearest configuration
//! above it, up to the top of the git repository, each directory looked
//! at once and each site loaded once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use super::{Generator, Site, SiteError, detect};

/// The sites found in a tree, as documents ask for theirs.
///
/// ```
/// use uriscan::checking::site::{Generator, Mapped, Sites};
///
/// let dir = tempfile::tempdir().unwrap();
/// let top = dir.path().canonicalize().unwrap();
/// std::fs::create_dir_all(top.join("docs/a")).unwrap();
/// std::fs::write(top.join("mkdocs.yml"), "site_name: x\n").unwrap();
/// std::fs::write(top.join("docs/a/b.md"), "[c](../c/)").unwrap();
/// std::fs::write(top.join("docs/a/c.md"), "# C").unwrap();
/// let sites = Sites::new(top.clone(), None);
/// let site = sites.for_document(&top.join("docs/a/b.md")).unwrap();
/// assert_eq!(site.generator(), Generator::Mkdocs);
/// // `a/b.md` is served at `a/b/`, so `../c/` is `a/c/`.
/// let Some(Mapped::Local { path, .. }) = site.map(&top.join("docs/a/b.md"), "../c/")
/// else { panic!() };
/// assert_eq!(path, top.join("docs/a/c.md"));
/// ```
#[derive(Debug)]
pub struct Sites {
    top: PathBuf,
    only: Option<Generator>,
    /// Each directory looked at: the site its documents belong to.
    dirs: RwLock<HashMap<PathBuf, Option<Arc<Site>>>>,
    /// Each configuration file loaded, in the order met.
    loaded: Mutex<Vec<(PathBuf, Option<Arc<Site>>)>>,
    errors: Mutex<Vec<SiteError>>,
}

impl Sites {
    /// The sites of the tree whose top (the git repository's, or the
    /// checked directory) is `top`, of the generator `only` when given
    /// (`--site mkdocs`), else of any generator. `top` is absolute.
    pub fn new(top: PathBuf, only: Option<Generator>) -> Sites {
        Sites {
            top,
            only: only.filter(|g| g.is_site()),
            dirs: RwLock::default(),
            loaded: Mutex::default(),
            errors: Mutex::default(),
        }
    }

    /// The site whose configuration is nearest above the document at
    /// `doc` (absolute), up to the top; `None` when there is none.
    pub fn for_document(&self, doc: &Path) -> Option<Arc<Site>> {
        let dir = doc.parent()?;
        self.for_dir(dir)
    }

    fn for_dir(&self, dir: &Path) -> Option<Arc<Site>> {
        if let Some(found) =
            self.dirs.read().unwrap_or_else(|e| e.into_inner()).get(dir)
        {
            return found.clone();
        }
        let mut visited = vec![];
        let mut at = Some(dir);
        let mut found = None;
        while let Some(d) = at {
            if let Some(known) =
                self.dirs.read().unwrap_or_else(|e| e.into_inner()).get(d)
            {
                found = known.clone();
                break;
            }
            visited.push(d.to_path_buf());
            if let Some((g, config)) = detect::config_in(d, self.only) {
                found = self.load(g, config);
                break;
            }
            if d == self.top || !d.starts_with(&self.top) {
                break;
            }
            at = d.parent();
        }
        let mut dirs = self.dirs.write().unwrap_or_else(|e| e.into_inner());
        for d in visited {
            dirs.insert(d, found.clone());
        }
        found
    }

    /// Loads a configuration once; a failure is kept for
    /// [`errors`](Self::errors), and its documents have no site.
    fn load(&self, g: Generator, config: PathBuf) -> Option<Arc<Site>> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, site)) = loaded.iter().find(|(p, _)| *p == config) {
            return site.clone();
        }
        // A file the configuration names is read only inside the tree.
        let top = match config.starts_with(&self.top) {
            true => self.top.as_path(),
            false => config.parent().unwrap_or(&self.top),
        };
        let site = match Site::load_within(g, &config, top) {
            Ok(s) => Some(Arc::new(s)),
            Err(e) => {
                self.errors.lock().unwrap_or_else(|e| e.into_inner()).push(e);
                None
            }
        };
        loaded.push((config, site.clone()));
        site
    }

    /// The sites loaded so far, by their configuration files' paths.
    pub fn sites(&self) -> Vec<Arc<Site>> {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let mut sites: Vec<Arc<Site>> =
            loaded.iter().filter_map(|(_, s)| s.clone()).collect();
        sites.sort_by(|a, b| a.config_file().cmp(b.config_file()));
        sites
    }

    /// The configurations that could not be loaded, each once.
    pub fn errors(&self) -> Vec<SiteError> {
        self.errors.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Looks at `dir` and its parents up to the top now (the checked
    /// directories), so that their sites are known before any document.
    pub fn look_above(&self, dir: &Path) {
        let _ = self.for_dir(dir);
    }
}

/// The top of the git repository holding `start`: the nearest directory
/// with a `.git` entry, `start` included.
pub fn git_top(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join(".git").symlink_metadata().is_ok())
        .map(Path::to_path_buf)
}

/// Whether a git remote's URL (`https://gitlab.com/o/r.git`,
/// `git@gitlab.example.org:o/r.git`) names a GitLab host: one whose name
/// has a `gitlab` label.
pub fn is_gitlab_remote(url: &str) -> bool {
    let url = url.trim();
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host_part = rest.split(['/', ':']).next().unwrap_or("");
    let host = host_part.rsplit('@').next().unwrap_or(host_part);
    host.to_ascii_lowercase().split('.').any(|label| label == "gitlab")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitlab_hosts() {
        assert!(is_gitlab_remote("https://gitlab.com/o/r.git"));
        assert!(is_gitlab_remote("git@gitlab.example.org:o/r.git"));
        assert!(is_gitlab_remote("ssh://git@GitLab.com/o/r"));
        assert!(!is_gitlab_remote("https://github.com/o/gitlab"));
        assert!(!is_gitlab_remote("git@github.com:gitlab/r.git"));
        assert!(!is_gitlab_remote("https://notgitlab.com/o/r"));
    }

    /// Each document gets the nearest configuration above it, no higher
    /// than the top; each directory is looked at once.
    #[test]
    fn the_nearest_configuration_decides() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        for d in ["docs/docs/a", "book/src", "other"] {
            std::fs::create_dir_all(top.join(d)).unwrap();
        }
        std::fs::write(top.join("docs/mkdocs.yml"), "site_name: x\n").unwrap();
        std::fs::write(top.join("book/book.toml"), "[book]\n").unwrap();
        std::fs::write(top.join("book/src/SUMMARY.md"), "").unwrap();
        let sites = Sites::new(top.clone(), None);
        let at =
            |p: &str| sites.for_document(&top.join(p)).map(|s| s.generator());
        assert_eq!(at("docs/docs/a/x.md"), Some(Generator::Mkdocs));
        assert_eq!(at("docs/docs/y.md"), Some(Generator::Mkdocs));
        assert_eq!(at("book/src/a.md"), Some(Generator::Mdbook));
        assert_eq!(at("other/README.md"), None);
        assert_eq!(at("README.md"), None);
        assert_eq!(sites.sites().len(), 2);
        // Above the top is not looked at.
        let inner = Sites::new(top.join("docs/docs"), None);
        assert!(inner.for_document(&top.join("docs/docs/a/x.md")).is_none());
        // A forced generator finds only its own configurations.
        let only = Sites::new(top.clone(), Some(Generator::Mdbook));
        assert!(only.for_document(&top.join("docs/docs/y.md")).is_none());
        assert!(only.for_document(&top.join("book/src/a.md")).is_some());
    }

    #[test]
    fn a_broken_configuration_is_an_error_and_no_site() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::write(top.join("mkdocs.yml"), "nav: [a\nb: : c").unwrap();
        let sites = Sites::new(top.clone(), None);
        assert!(sites.for_document(&top.join("docs/a.md")).is_none());
        assert!(sites.for_document(&top.join("b.md")).is_none());
        assert_eq!(sites.errors().len(), 1);
    }
}
