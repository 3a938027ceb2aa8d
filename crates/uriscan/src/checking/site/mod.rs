//! The site generator that builds a part of the tree, and how it turns
//! sources into URLs: `check` reads a docs repository the way its site
//! is built.
//!
//! - [`Sites`] finds, for each document, the nearest generator
//!   configuration above it (one lookup per directory, cached), and loads
//!   each [`Site`] once;
//! - [`Site::map`] resolves a document's link as the generator does: a
//!   source link (`../install.md#setup`) as the generator rewrites it, a
//!   site URL (`/docs/install/`, `../install/`, `install.html`) against
//!   the page's own URL, and an absolute link on the site's own URL;
//! - [`Site::nav_links`] gives the entries of the site's navigation as
//!   links of kind `site:nav`;
//! - `detect` knows the configuration files, `yaml`, `jsconfig` and
//!   `front_matter` read them, and each generator's file (`mkdocs`,
//!   `mdbook`, `docusaurus`, `hugo`, `jekyll`) holds its URL rules.

mod detect;
mod docusaurus;
mod front_matter;
mod hugo;
mod hugo_includes;
mod include_glob;
pub(crate) mod includes;
mod indexed;
mod jekyll;
mod jsconfig;
mod listing;
mod mdbook;
mod mkdocs;
mod nav;
pub(crate) mod partials;
mod sites;
mod slug_rules;
mod url;
pub(crate) mod yaml;

use std::cell::OnceCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::anchors::AnchorStyle;
use super::facts::holds_template;
use super::fxhash::FxHashMap;
use crate::links::{
    GeneratorKind, Link, jekyll_url_expression, percent_decode,
};

pub use includes::{Included, Includes};
pub use sites::{Sites, git_top, is_gitlab_remote};

/// A site generator, or the forge that renders the tree as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Generator {
    /// The tree as GitHub shows it: no generator.
    Github,
    /// The tree as GitLab shows it: GitLab's anchors.
    Gitlab,
    /// MkDocs (`mkdocs.yml`).
    Mkdocs,
    /// mdBook (`book.toml`).
    Mdbook,
    /// Docusaurus (`docusaurus.config.js`).
    Docusaurus,
    /// Hugo (`hugo.toml`, or `config.toml` beside `content/`).
    Hugo,
    /// Jekyll (`_config.yml` with Jekyll's layout).
    Jekyll,
}

impl Generator {
    /// The generator's name as `--site` takes it: `mkdocs`, `mdbook`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Generator::Github => "github",
            Generator::Gitlab => "gitlab",
            Generator::Mkdocs => "mkdocs",
            Generator::Mdbook => "mdbook",
            Generator::Docusaurus => "docusaurus",
            Generator::Hugo => "hugo",
            Generator::Jekyll => "jekyll",
        }
    }

    /// The generator named `name` (as [`as_str`](Self::as_str) writes it).
    pub fn from_name(name: &str) -> Option<Generator> {
        [
            Generator::Github,
            Generator::Gitlab,
            Generator::Mkdocs,
            Generator::Mdbook,
            Generator::Docusaurus,
            Generator::Hugo,
            Generator::Jekyll,
        ]
        .into_iter()
        .find(|g| g.as_str() == name)
    }

    /// Whether it builds a site from a configuration file (not a forge).
    pub fn is_site(self) -> bool {
        !matches!(self, Generator::Github | Generator::Gitlab)
    }
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a site's configuration could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SiteError {
    /// The file could not be read.
    Read {
        /// The configuration file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// The file does not parse.
    Parse {
        /// The configuration file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
}

impl fmt::Display for SiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiteError::Read { path, message } => {
                write!(f, "{}: cannot read: {message}", path.display())
            }
            SiteError::Parse { path, message } => {
                write!(
                    f,
                    "{}: not read as configuration: {message}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for SiteError {}

/// What a link of a site's page resolves to, where the generator's rules
/// differ from the file system's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mapped {
    /// A local file: check the link as a link to it.
    Local {
        /// The file.
        path: PathBuf,
        /// The fragment, as written.
        fragment: Option<String>,
        /// How it was mapped, for the report: `mapped from the site URL
        /// '/install/' to 'docs/install.md'`.
        reason: String,
    },
    /// Nothing the site serves: the link is broken, for this reason
    /// (`not in SUMMARY.md`).
    Unavailable {
        /// Why.
        reason: String,
    },
    /// Not checked offline, nor fetched: a file the generator downloads
    /// while it builds (a snippet with `url_download`).
    Downloaded,
    /// Not checked offline, nor fetched: a URL that the
    /// `include-markdown` plugin downloads while it builds.
    IncludedUrl,
}

/// The raw configuration values that the generators' own heading slug
/// rules need, kept as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnchorSettings {
    /// MkDocs: `markdown_extensions` → `toc` → `slugify`: its tag
    /// (`python/name:pymdownx.slugs.uslugify`, or
    /// `python/object/apply:pymdownx.slugs.slugify`, or the plain value
    /// when untagged) and its `kwds` (`case: lower`), as written.
    pub mkdocs_toc_slugify: Option<(String, Vec<(String, String)>)>,
    /// Hugo: `markup.goldmark.parser.autoHeadingIDType` (`github`,
    /// `github-ascii`, `blackfriday`).
    pub hugo_auto_heading_id_type: Option<String>,
    /// Jekyll (kramdown): `kramdown.auto_ids`.
    pub jekyll_auto_ids: Option<bool>,
    /// Jekyll (kramdown): `kramdown.auto_id_prefix`.
    pub jekyll_auto_id_prefix: Option<String>,
    /// Jekyll (kramdown): `kramdown.auto_id_stripping`.
    pub jekyll_auto_id_stripping: Option<bool>,
    /// Jekyll (kramdown): `kramdown.input` (`GFM`, Jekyll's default, or
    /// `kramdown`).
    pub jekyll_kramdown_input: Option<String>,
}

/// One generator's rules: which sources are pages, the URL of each, and
/// which sources a URL is served from.
trait Rules: fmt::Debug + Send + Sync {
    /// The URL of the source `rel` (a path under the sources), when the
    /// site serves it: a page's URL, or a copied file's own path.
    fn url_of(&self, rel: &str) -> Option<String>;
    /// The sources the URL `url` may be served from, likeliest first.
    fn sources_of(&self, url: &str) -> Vec<String>;
    /// Why the existing source `rel` is not on the site, when it is not.
    fn not_on_site(&self, _rel: &str) -> Option<String> {
        None
    }
    /// Why a link to the existing source `rel`, as written, breaks on the
    /// site even though `rel` is served (mdBook's `README.md`).
    fn source_link_broken(&self, _rel: &str) -> Option<String> {
        None
    }
    /// Where else a link to the missing Markdown source `rel` is looked
    /// for, from the page `page` (Docusaurus' docs root).
    fn source_fallback(&self, _page: &str, _link: &str) -> Option<String> {
        None
    }
    /// Its include extensions' rules (MkDocs').
    fn includes(&self) -> Option<&Includes> {
        None
    }
    /// Its include shortcodes (Hugo's), and its content folder.
    fn hugo_shortcodes(&self) -> Option<(&hugo_includes::Shortcodes, &str)> {
        None
    }
    /// What the generator's own link syntax `kind` names with `path`
    /// (decoded, its fragment left out) on the page `page`; `None` for
    /// another generator's syntax. `exists` says whether a source is a
    /// file.
    fn named(
        &self,
        _kind: GeneratorKind,
        _page: &str,
        _path: &str,
        _exists: &dyn Fn(&str) -> bool,
    ) -> Option<Named> {
        None
    }
}

/// What a generator's own link syntax names.
#[derive(Debug, PartialEq, Eq)]
enum Named {
    /// A source, under the sources.
    Source(String),
    /// A URL of the site, under its base path.
    SiteUrl(String),
    /// Nothing: the generator fails the build or writes a broken link,
    /// for this reason.
    Missing(String),
}

/// What a generator's loader gives.
#[derive(Debug)]
struct Loaded {
    /// The folder of the sources (docs_dir, src, content, ...).
    sources: PathBuf,
    /// The site's own URL or base path, as configured.
    site_url: Option<String>,
    rules: Box<dyn Rules>,
    /// The navigation's entries.
    nav: Vec<nav::Entry>,
    /// The file they are in, when it is not the configuration.
    nav_file: Option<PathBuf>,
    /// More navigations, each in a file of its own (Docusaurus' versioned
    /// sidebars).
    other_navs: Vec<(PathBuf, Vec<nav::Entry>)>,
    /// The defaults used for keys that could not be read.
    notes: Vec<String>,
    anchors: AnchorSettings,
}

/// A site: a generator, its configuration, and its URL rules.
#[derive(Debug)]
pub struct Site {
    generator: Generator,
    config_file: PathBuf,
    /// What the generator's loader read.
    loaded: Loaded,
    /// `https://host` of the site URL, lowercased, when it has one.
    origin: Option<String>,
    /// The path the site is served under: `/`, or `/proj/`.
    base_path: String,
    anchor_style: AnchorStyle,
    /// The sources' folder under the configuration's, as the report
    /// names a source (`docs/`), or empty: made once, for every link
    /// the site maps.
    shown_prefix: String,
    /// What each site URL looked up so far is served from: the pages of
    /// a site link to the same few URLs over and over, and each lookup
    /// asks the file system.
    served: Mutex<FxHashMap<String, Served>>,
    /// Whether each source looked at so far is a file: the pages of a
    /// site link to the same few sources over and over.
    files: Mutex<FxHashMap<String, bool>>,
    /// The folders of the sources a site URL's first lookup looked in.
    listings: listing::Listings,
}

/// `read` of the value `map` holds for `key`, made by `make` the first
/// time. The lock is not held while `make` runs (it may ask the file
/// system), so two threads may both make it; the values are the same.
fn cached<T, R>(
    map: &Mutex<FxHashMap<String, T>>,
    key: &str,
    make: impl FnOnce() -> T,
    read: impl FnOnce(&T) -> R,
) -> R {
    let lock = || map.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = lock().get(key) {
        return read(known);
    }
    let made = make();
    let result = read(&made);
    lock().insert(key.to_string(), made);
    result
}

/// A document of a site as its links are mapped: its path under the
/// sources and its URL, worked out once for all its links
/// ([`Site::page`]).
#[derive(Debug)]
pub struct Page<'a> {
    doc: &'a Path,
    /// Its path under the sources, `/`-separated.
    rel: String,
    /// Its URL, asked of the generator's rules at its first relative
    /// site URL.
    url: OnceCell<String>,
}

/// What a site URL is served from.
#[derive(Clone, Debug)]
enum Served {
    /// A source: its path under the sources, and its file.
    Source(String, PathBuf),
    /// A source the site leaves out, for this reason.
    Unavailable(String),
    /// Nothing.
    Nothing,
}

impl Site {
    /// Loads the site that `config_file` configures, as `generator`.
    /// Another file it names (MkDocs' `INHERIT`) is read only inside the
    /// configuration's folder.
    pub fn load(
        generator: Generator,
        config_file: &Path,
    ) -> Result<Site, SiteError> {
        let top = config_file.parent().unwrap_or(Path::new("."));
        Site::load_within(generator, config_file, top)
    }

    /// [`load`](Self::load), another file it names read only inside the
    /// folder `top` (the project's).
    pub(crate) fn load_within(
        generator: Generator,
        config_file: &Path,
        top: &Path,
    ) -> Result<Site, SiteError> {
        let text =
            std::fs::read(config_file).map_err(|e| SiteError::Read {
                path: config_file.to_path_buf(),
                message: e.kind().to_string(),
            })?;
        let text = String::from_utf8_lossy(&text);
        let dir = config_file.parent().unwrap_or(Path::new("."));
        let loaded = match generator {
            Generator::Mkdocs => mkdocs::load(config_file, &text, top),
            Generator::Mdbook => mdbook::load(dir, &text),
            Generator::Docusaurus => Ok(docusaurus::load(dir, &text)),
            Generator::Hugo => hugo::load(dir, config_file, &text),
            Generator::Jekyll => jekyll::load(dir, &text),
            Generator::Github | Generator::Gitlab => {
                return Err(SiteError::Parse {
                    path: config_file.to_path_buf(),
                    message: format!("{generator} builds no site"),
                });
            }
        }
        .map_err(|message| SiteError::Parse {
            path: config_file.to_path_buf(),
            message,
        })?;
        let (origin, base_path) = loaded
            .site_url
            .as_deref()
            .map(url::base_of)
            .unwrap_or((None, "/".into()));
        let mut loaded = loaded;
        let anchor_style = slug_rules::anchor_style(
            generator,
            &loaded.anchors,
            &mut loaded.notes,
        );
        let config_dir = config_file.parent().unwrap_or(Path::new(""));
        let shown_prefix = match loaded.sources.strip_prefix(config_dir) {
            Ok(s) if !s.as_os_str().is_empty() => {
                format!("{}/", s.to_string_lossy())
            }
            _ => String::new(),
        };
        Ok(Site {
            generator,
            config_file: config_file.to_path_buf(),
            loaded,
            origin,
            base_path,
            anchor_style,
            shown_prefix,
            served: Mutex::default(),
            files: Mutex::default(),
            listings: listing::Listings::default(),
        })
    }

    /// The generator.
    pub fn generator(&self) -> Generator {
        self.generator
    }
    /// The configuration file it was loaded from.
    pub fn config_file(&self) -> &Path {
        &self.config_file
    }
    /// The folder of its sources (MkDocs' `docs_dir`, mdBook's `src`,
    /// Hugo's `content`, ...): the documents the site's rules apply to.
    pub fn sources(&self) -> &Path {
        &self.loaded.sources
    }
    /// The defaults it used for keys it could not read (a configuration
    /// in JavaScript is read, not run): `baseUrl: '/' (not read)`.
    pub fn notes(&self) -> &[String] {
        &self.loaded.notes
    }
    /// The configuration values of its heading slug rules.
    pub fn anchor_settings(&self) -> &AnchorSettings {
        &self.loaded.anchors
    }
    /// Whose heading anchors its pages have.
    pub fn anchor_style(&self) -> AnchorStyle {
        self.anchor_style
    }
    /// The rules of its include directives (MkDocs' snippets and
    /// `include-markdown`), when it has them.
    pub fn includes(&self) -> Option<&Includes> {
        self.loaded.rules.includes()
    }
    /// Whether `doc` is one of its sources.
    pub fn contains(&self, doc: &Path) -> bool {
        doc.starts_with(&self.loaded.sources)
    }

    /// The file its navigation is in: the configuration (MkDocs `nav`),
    /// or a file of its own (Docusaurus' `sidebars.json`).
    pub fn nav_file(&self) -> &Path {
        self.loaded.nav_file.as_deref().unwrap_or(&self.config_file)
    }

    /// Its navigation entries as links of kind `site:nav`, of
    /// [`nav_file`](Self::nav_file) (MkDocs `nav`, Docusaurus sidebars).
    pub fn nav_links(&self) -> Vec<Link> {
        nav::links(&self.loaded.sources, &self.loaded.nav)
    }

    /// Why the navigation entry `entry` (one of [`nav_links`]) names a
    /// source that the site leaves out (MkDocs' `exclude_docs`), when it
    /// does; `None` for any other, checked as a link to its file.
    ///
    /// [`nav_links`]: Self::nav_links
    pub fn nav_unavailable(
        &self,
        entry: crate::links::LinkRef<'_>,
    ) -> Option<String> {
        let path = entry.file_path()?;
        let rel = self.rel(&path)?;
        let reason = self.loaded.rules.not_on_site(&rel)?;
        path.is_file().then_some(reason)
    }

    /// Its other navigations, each with the file it is in, as links of
    /// kind `site:nav` (Docusaurus' versioned sidebars).
    pub fn other_nav_links(&self) -> Vec<(&Path, Vec<Link>)> {
        self.loaded
            .other_navs
            .iter()
            .map(|(file, entries)| {
                (file.as_path(), nav::links(&self.loaded.sources, entries))
            })
            .collect()
    }

    /// The path under the sources of `path`, `/`-separated.
    fn rel(&self, path: &Path) -> Option<String> {
        // Every link of a page asks: the bytes answer at once when the
        // rest is plain names (no empty or `.` component to fold).
        let (whole, sources) = (key(path), key(&self.loaded.sources));
        if !cfg!(windows)
            && let Some(rest) = whole.strip_prefix(sources)
            && let Some(rest) = rest.strip_prefix(b"/")
            && !sources.is_empty()
            && !sources.ends_with(b"/")
            && plain_names(rest)
        {
            return std::str::from_utf8(rest).ok().map(str::to_string);
        }
        let rel = path.strip_prefix(&self.loaded.sources).ok()?;
        let mut out = String::new();
        for c in rel.components() {
            if !out.is_empty() {
                out.push('/');
            }
            out.push_str(c.as_os_str().to_str()?);
        }
        Some(out)
    }

    /// The document `doc` as a page of the site, for mapping its links
    /// ([`map_on`](Self::map_on)); `None` when it is not one of its
    /// sources.
    pub fn page<'a>(&self, doc: &'a Path) -> Option<Page<'a>> {
        let rel = self.rel(doc)?;
        Some(Page { doc, rel, url: OnceCell::new() })
    }

    /// How the link `link` (as written) of the document `doc` resolves
    /// on the site, where that differs from the file system's reading;
    /// `None` where the file system's reading is the site's (or `doc` is
    /// not one of its sources).
    pub fn map(&self, doc: &Path, link: &str) -> Option<Mapped> {
        self.map_as(&self.page(doc)?, link, true)
    }

    /// [`map`](Self::map), but a [`Mapped::Local`]'s `reason` left
    /// empty: where a link leads is all the check needs, and the report
    /// asks [`map`](Self::map) for the few links it shows.
    pub fn map_target(&self, doc: &Path, link: &str) -> Option<Mapped> {
        self.map_as(&self.page(doc)?, link, false)
    }

    /// [`map`](Self::map) (or [`map_target`](Self::map_target) when not
    /// `explain`) of a link of `page`: a page's links mapped one after
    /// the other share its path and URL.
    pub fn map_on(
        &self,
        page: &Page<'_>,
        link: &str,
        explain: bool,
    ) -> Option<Mapped> {
        self.map_as(page, link, explain)
    }

    /// [`map`](Self::map), a local target's reason written only when
    /// `explain`.
    fn map_as(
        &self,
        on: &Page<'_>,
        link: &str,
        explain: bool,
    ) -> Option<Mapped> {
        let page = on.rel.as_str();
        // mdBook's SUMMARY.md is no page: its links name the chapters.
        if self.generator == Generator::Mdbook && page == "SUMMARY.md" {
            return None;
        }
        if holds_template(link) {
            // Jekyll's URL expression as a whole link, written without a
            // space: `{{site.baseurl}}/about/`. Any other template is
            // not a link yet.
            let url = (self.generator == Generator::Jekyll)
                .then(|| jekyll_url_expression(link))??;
            return self.map_generator_on(on, GeneratorKind::JekyllUrl, &url);
        }
        let (path, fragment) = url::split_link(link);
        if let Some(rest) = path.strip_prefix("@site/")
            && self.generator == Generator::Docusaurus
        {
            // Docusaurus' alias of the site's folder, in MDX imports.
            let rel = url::normalize(&percent_decode(rest), false)?;
            return Some(Mapped::Local {
                path: self.loaded.sources.join(&rel),
                fragment: fragment.map(str::to_string),
                reason: format!("mapped from '{path}' to '{rel}'"),
            });
        }
        if has_prefix_ignoring_case(path, "http://")
            || has_prefix_ignoring_case(path, "https://")
        {
            return self.map_absolute(link, path, fragment, explain);
        }
        if path.is_empty() || path.starts_with("//") || path.contains(':') {
            return None;
        }
        let decoded = percent_decode(path);
        if let Some(under_root) = decoded.strip_prefix('/') {
            // Under the base path, or written from the site's root (as
            // Docusaurus writes them, putting `baseUrl` in front).
            let url = decoded
                .strip_prefix(self.base_path.as_str())
                .unwrap_or(under_root);
            let shown = Shown(&self.base_path, url);
            return Some(self.lookup(url, fragment, shown, explain));
        }
        let dir = page.rfind('/').map_or("", |i| &page[..=i]);
        let ext = url::extension(&decoded);
        let source = url::joined(dir, &decoded, false);
        let exists = |rel: &str| self.is_source_file(rel);
        let source_link = match ext.as_deref() {
            Some(e) if url::is_markdown_ext(e) => true,
            Some("html" | "htm") | None => {
                source.as_deref().is_some_and(|s| !s.is_empty() && exists(s))
            }
            Some(_) => true,
        };
        if !source_link {
            let url = self.resolve_on_page(on, &decoded);
            let shown = Shown(&self.base_path, &url);
            return Some(self.lookup(&url, fragment, shown, explain));
        }
        let Some(source) = source else {
            // Above the sources: on the site only if the generator copies
            // it, which none does.
            let outside = self.loaded.sources.join(dir).join(decoded.as_ref());
            return outside.is_file().then(|| self.outside());
        };
        // The rules first, the file system only when they have something
        // to say: most source links are to pages, and need no look.
        if let Some(reason) = self
            .loaded
            .rules
            .not_on_site(&source)
            .or_else(|| self.loaded.rules.source_link_broken(&source))
            && exists(&source)
        {
            return Some(Mapped::Unavailable { reason });
        }
        let found = self.loaded.rules.source_fallback(page, &decoded)?;
        if exists(&source) {
            return None;
        }
        Some(Mapped::Local {
            path: self.loaded.sources.join(&found),
            fragment: fragment.map(str::to_string),
            reason: format!(
                "mapped from '{path}' to '{}' (the docs root)",
                self.shown(&found)
            ),
        })
    }

    /// How a link written in the generator's own syntax `kind` (Hugo's
    /// `ref`, Jekyll's `link`, ...), naming `link`, resolves from the
    /// document `doc`; `None` where the syntax is not this generator's
    /// (or `doc` not one of its sources): an unrendered template.
    pub fn map_generator(
        &self,
        doc: &Path,
        kind: GeneratorKind,
        link: &str,
    ) -> Option<Mapped> {
        self.map_generator_on(&self.page(doc)?, kind, link)
    }

    /// [`map_generator`](Self::map_generator) of a link of `on`.
    pub fn map_generator_on(
        &self,
        on: &Page<'_>,
        kind: GeneratorKind,
        link: &str,
    ) -> Option<Mapped> {
        let (doc, page) = (on.doc, on.rel.as_str());
        if matches!(
            kind,
            GeneratorKind::MkdocsSnippet
                | GeneratorKind::MkdocsIncludeMarkdown
        ) {
            return self.map_include(doc, kind, link);
        }
        let (path, fragment) = match link.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (link, None),
        };
        let decoded = percent_decode(path);
        let exists = |rel: &str| self.loaded.sources.join(rel).is_file();
        let source = |rel: String, reason: String| match self
            .loaded
            .rules
            .not_on_site(&rel)
        {
            Some(reason) => Mapped::Unavailable { reason },
            None => Mapped::Local {
                path: self.loaded.sources.join(&rel),
                fragment: fragment.map(str::to_string),
                reason,
            },
        };
        Some(match self.loaded.rules.named(kind, page, &decoded, &exists)? {
            Named::Source(rel) => {
                let reason = format!(
                    "{} '{path}' found at '{}'",
                    kind.as_str(),
                    self.shown(&rel)
                );
                source(rel, reason)
            }
            Named::SiteUrl(url) => {
                let url = url.split(['?', '#']).next().unwrap_or("");
                let url = url.trim_start_matches('/');
                let shown = Shown(&self.base_path, url);
                self.lookup(url, fragment, shown, true)
            }
            Named::Missing(reason) => Mapped::Unavailable { reason },
        })
    }

    /// Whether the site has include shortcodes (Hugo's).
    pub fn has_shortcode_includes(&self) -> bool {
        self.loaded.rules.hugo_shortcodes().is_some()
    }

    /// The uses in the page `doc` (its text `text`) of the site's
    /// include shortcodes (Hugo's `layouts/shortcodes/NAME.html` that
    /// read a file or a page by a parameter), as links of kind
    /// `hugo:include`, each with what it reads: empty for a site without
    /// any.
    pub fn shortcode_includes(
        &self,
        doc: &Path,
        text: &str,
    ) -> Vec<(Link, Mapped)> {
        let Some((codes, content)) = self.loaded.rules.hugo_shortcodes()
        else {
            return vec![];
        };
        if !self.contains(doc) {
            return vec![];
        }
        let dir = self.config_file.parent().unwrap_or(Path::new(""));
        let content = self.loaded.sources.join(content);
        let kind = crate::links::Kind::Generator(GeneratorKind::HugoInclude);
        codes
            .uses(text)
            .into_iter()
            .map(|one| {
                let (line, column) = line_and_column(text, one.span.start);
                let at = (line, column);
                match hugo_includes::target(&one, dir, &content, doc) {
                    Ok(file) => {
                        let uri = crate::links::file_uri(
                            &file,
                            crate::links::PathKind::File,
                        );
                        let link = Link::found(
                            kind,
                            one.span,
                            at,
                            &one.path,
                            Some(&uri),
                        );
                        let shown = file.strip_prefix(dir).unwrap_or(&file);
                        let reason = format!(
                            "hugo:include '{}' reads '{}'",
                            one.path,
                            shown.display()
                        );
                        (
                            link,
                            Mapped::Local {
                                path: file,
                                fragment: None,
                                reason,
                            },
                        )
                    }
                    Err(reason) => {
                        let link =
                            Link::found(kind, one.span, at, &one.path, None);
                        (link, Mapped::Unavailable { reason })
                    }
                }
            })
            .collect()
    }

    /// An MkDocs include directive of the file `holder` (a page, or a
    /// file a page includes): the file it includes, checked as a link to
    /// it.
    pub fn map_include(
        &self,
        holder: &Path,
        kind: GeneratorKind,
        path: &str,
    ) -> Option<Mapped> {
        let includes = self.includes()?;
        let folder = includes.folder();
        Some(match includes.target(kind, holder, path) {
            includes::Target::File(file)
                if kind == GeneratorKind::MkdocsSnippet && !file.exists() =>
            {
                Mapped::Unavailable { reason: includes.missing_snippet(path) }
            }
            includes::Target::File(file) => {
                let shown = file.strip_prefix(folder).unwrap_or(&file);
                let reason = format!(
                    "{} '{path}' includes '{}'",
                    kind.as_str(),
                    shown.display()
                );
                Mapped::Local { path: file, fragment: None, reason }
            }
            includes::Target::Files(files) => {
                let shown: Vec<String> = files
                    .iter()
                    .map(|f| {
                        let f = f.strip_prefix(folder).unwrap_or(f);
                        format!("'{}'", f.display())
                    })
                    .collect();
                let reason = format!(
                    "{} '{path}' includes {}",
                    kind.as_str(),
                    shown.join(", ")
                );
                let path = files.into_iter().next()?;
                Mapped::Local { path, fragment: None, reason }
            }
            includes::Target::Download => Mapped::Downloaded,
            includes::Target::Url => Mapped::IncludedUrl,
            includes::Target::Refused(reason) => {
                Mapped::Unavailable { reason }
            }
        })
    }

    /// How the link `link` (as written) of the file `included` resolves
    /// on the page `page` that includes it: a snippet's as the page's
    /// own, an `include-markdown` file's as the plugin rewrites it (to
    /// lead where it led from the file). `None` where the file system's
    /// reading of it is the site's.
    pub fn map_included(
        &self,
        page: &Path,
        included: &Included,
        link: &str,
    ) -> Option<Mapped> {
        if included.against_page {
            return self.map(page, link);
        }
        match includes::rewritten(link, &included.file, page) {
            Some(rewritten) => self.map(page, &rewritten),
            None => self.map(page, link),
        }
    }

    /// An absolute `http(s)` link: mapped when it is on the site's URL.
    fn map_absolute(
        &self,
        link: &str,
        path: &str,
        fragment: Option<&str>,
        explain: bool,
    ) -> Option<Mapped> {
        let origin = self.origin.as_deref()?;
        let head = path.get(..origin.len())?;
        if !head.eq_ignore_ascii_case(origin) {
            return None;
        }
        let rest = &path[origin.len()..];
        let rest = if rest.is_empty() { "/" } else { rest };
        let decoded = percent_decode(rest);
        let url =
            decoded.strip_prefix(self.base_path.as_str()).or_else(|| {
                (decoded.len() + 1 == self.base_path.len()
                    && self.base_path.starts_with(decoded.as_ref()))
                .then_some("")
            })?;
        let link = link.split('#').next().unwrap_or(link);
        Some(self.lookup(url, fragment, Shown(link, ""), explain))
    }

    /// The source that serves the site URL `url`, for a link written
    /// (or shown) `shown`; a local target's reason written only when
    /// `explain`.
    fn lookup(
        &self,
        url: &str,
        fragment: Option<&str>,
        shown: Shown<'_>,
        explain: bool,
    ) -> Mapped {
        cached(
            &self.served,
            url,
            || self.serve(url),
            |served| self.mapped(served, fragment, shown, explain),
        )
    }

    /// The target of a link, written (or shown) `shown`, to a site URL
    /// that `served` serves.
    fn mapped(
        &self,
        served: &Served,
        fragment: Option<&str>,
        shown: Shown<'_>,
        explain: bool,
    ) -> Mapped {
        match served {
            Served::Source(rel, path) => Mapped::Local {
                path: path.clone(),
                fragment: fragment.map(str::to_string),
                reason: if explain {
                    format!(
                        "mapped from the site URL '{shown}' to '{}'",
                        self.shown(rel)
                    )
                } else {
                    String::new()
                },
            },
            Served::Unavailable(reason) => {
                Mapped::Unavailable { reason: reason.clone() }
            }
            Served::Nothing => Mapped::Unavailable {
                reason: format!("no page at the site URL '{shown}'"),
            },
        }
    }

    /// What serves the site URL `url`, asked of the file system.
    fn serve(&self, url: &str) -> Served {
        // No dot segment may take a lookup above the sources.
        let url = url::normalize(url, true).unwrap_or_default();
        let sources = self.loaded.sources.as_path();
        for rel in self.loaded.rules.sources_of(&url) {
            if !self.listings.is_file(sources, &rel) {
                continue;
            }
            return match self.loaded.rules.not_on_site(&rel) {
                Some(reason) => Served::Unavailable(reason),
                None => {
                    let path = sources.join(&rel);
                    Served::Source(rel, path)
                }
            };
        }
        Served::Nothing
    }

    /// The site URL `reference` (relative, decoded) names from `page`.
    fn resolve_on_page(&self, page: &Page<'_>, reference: &str) -> String {
        let page_url = page.url.get_or_init(|| {
            self.loaded.rules.url_of(&page.rel).unwrap_or_default()
        });
        url::resolve(page_url, reference)
    }

    /// Whether the source `rel` (a path under the sources) is a file,
    /// asked of the file system once.
    fn is_source_file(&self, rel: &str) -> bool {
        cached(
            &self.files,
            rel,
            || self.loaded.sources.join(rel).is_file(),
            |&is_file| is_file,
        )
    }

    /// A source as the report names it: under the configuration's folder.
    fn shown(&self, rel: &str) -> String {
        [self.shown_prefix.as_str(), rel].concat()
    }

    fn outside(&self) -> Mapped {
        let dir = self.config_file.parent().unwrap_or(Path::new(""));
        let name = self
            .loaded
            .sources
            .strip_prefix(dir)
            .unwrap_or(&self.loaded.sources);
        Mapped::Unavailable {
            reason: format!(
                "not on the site: outside its sources '{}/'",
                name.to_string_lossy()
            ),
        }
    }
}

/// A link as the report shows it, in two pieces written one after the
/// other (the base path and the URL under it, or the link as written
/// and nothing): joined only for a reason, which most links never need.
#[derive(Clone, Copy)]
struct Shown<'a>(&'a str, &'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)?;
        f.write_str(self.1)
    }
}

/// Whether `text` starts with `prefix` (ASCII), in any case.
fn has_prefix_ignoring_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// A path's bytes.
fn key(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// Whether `rest` is `/`-separated names that a path's components give
/// back as they are: none empty, none `.`.
fn plain_names(rest: &[u8]) -> bool {
    rest.split(|&b| b == b'/').all(|name| !name.is_empty() && name != b".")
}

/// The 1-based line and column (in characters) of the byte `at` of
/// `text`.
fn line_and_column(text: &str, at: usize) -> (u64, u64) {
    let before = &text.as_bytes()[..at.min(text.len())];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line as u64, column as u64)
}

/// Writes the file `rel` under `top`, its folders made: the site
/// tests' trees.
#[cfg(test)]
pub(super) fn write_test_file(top: &Path, rel: &str, body: &str) {
    std::fs::create_dir_all(top.join(rel).parent().unwrap()).unwrap();
    std::fs::write(top.join(rel), body).unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf, Site) {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        for (f, body) in files {
            std::fs::create_dir_all(top.join(f).parent().unwrap()).unwrap();
            std::fs::write(top.join(f), body).unwrap();
        }
        let s =
            Site::load(Generator::Mkdocs, &top.join("mkdocs.yml")).unwrap();
        (dir, top, s)
    }

    /// A page's path under the sources: the bytes' fast answer is the
    /// components' answer, for plain paths and for those it leaves to
    /// the components.
    #[test]
    fn a_page_path_reads_as_its_components() {
        let (_dir, top, s) = site(&[("mkdocs.yml", "site_name: x\n")]);
        let by_components = |p: &Path| {
            let rel = p.strip_prefix(&s.loaded.sources).ok()?;
            let names: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            Some(names?.join("/"))
        };
        let docs = top.join("docs");
        let d = docs.to_string_lossy().into_owned();
        for p in [
            format!("{d}/a.md"),
            format!("{d}/a/b/c.md"),
            format!("{d}/a/../b.md"),
            format!("{d}/./a.md"),
            format!("{d}//a.md"),
            format!("{d}/a/"),
            format!("{d}/a/."),
            d.clone(),
            format!("{d}/"),
            format!("{d}x/a.md"),
            format!("{}/a.md", top.display()),
        ] {
            let p = Path::new(&p);
            assert_eq!(s.rel(p), by_components(p), "{}", p.display());
        }
        assert_eq!(s.rel(&docs.join("a/b.md")).as_deref(), Some("a/b.md"));
        assert_eq!(s.shown("a/b.md"), "docs/a/b.md");
    }

    /// How a page's links resolve under MkDocs: source links as the file
    /// system has them, site URLs against the page's own URL, the site's
    /// own URLs offline, and what the site does not serve.
    #[test]
    fn links_map_as_the_site_serves_them() {
        let (_dir, top, s) = site(&[
            ("mkdocs.yml", "site_url: https://e.org/p/\n"),
            ("docs/a/b.md", ""),
            ("docs/a/c d.md", ""),
            ("docs/img/x.png", ""),
            ("docs/.hidden.md", ""),
            ("README.md", ""),
        ]);
        let doc = top.join("docs/a/b.md");
        let local = |link: &str| match s.map(&doc, link) {
            Some(Mapped::Local { path, fragment, .. }) => Some((
                path.strip_prefix(&top).unwrap().to_path_buf(),
                fragment,
            )),
            other => panic!("{link}: {other:?}"),
        };
        let why = |link: &str| match s.map(&doc, link) {
            Some(Mapped::Unavailable { reason }) => reason,
            other => panic!("{link}: {other:?}"),
        };
        let p = |s: &str| Some((PathBuf::from(s), None));
        // Source links: the file system's reading is the site's.
        assert_eq!(s.map(&doc, "c%20d.md#x"), None);
        assert_eq!(s.map(&doc, "missing.md"), None);
        assert_eq!(s.map(&doc, "#top"), None);
        assert_eq!(s.map(&doc, "mailto:a@e.org"), None);
        assert_eq!(s.map(&doc, "https://other.org/p/a/b/"), None);
        // Site URLs, against a/b/.
        assert_eq!(local("../c%20d/"), p("docs/a/c d.md"));
        assert_eq!(
            local("../c%20d/?q=1#f"),
            Some(("docs/a/c d.md".into(), Some("f".into())))
        );
        assert_eq!(local("/p/img/x.png"), p("docs/img/x.png"));
        assert_eq!(local("/img/x.png"), p("docs/img/x.png"));
        assert_eq!(local("https://E.org/p/a/b/"), p("docs/a/b.md"));
        // The site's root, with or without its slash: no index page here.
        assert_eq!(
            why("https://e.org/p"),
            "no page at the site URL 'https://e.org/p'"
        );
        assert_eq!(
            why("../nothing/"),
            "no page at the site URL '/p/a/nothing/'"
        );
        assert_eq!(
            why("https://e.org/p/gone/"),
            "no page at the site URL 'https://e.org/p/gone/'"
        );
        // Not on the site: outside the sources, or a dot file.
        assert_eq!(
            why("../../README.md"),
            "not on the site: outside its sources 'docs/'"
        );
        assert_eq!(
            why("../.hidden.md"),
            "not on the site: MkDocs leaves out dot files"
        );
        // A document outside the sources follows no site rule.
        assert_eq!(s.map(&top.join("README.md"), "docs/x/"), None);
        assert_eq!(s.generator().as_str(), "mkdocs");
        assert_eq!(Generator::from_name("mdbook"), Some(Generator::Mdbook));
        assert!(!Generator::Gitlab.is_site());
    }

    /// A page's path and URL worked out once give, link after link, what
    /// working them out for each link gives.
    #[test]
    fn a_page_kept_for_its_links_maps_as_each_link_alone() {
        let (_dir, top, s) = site(&[
            ("mkdocs.yml", "site_url: https://e.org/p/\n"),
            ("docs/a/b.md", ""),
            ("docs/a/c.md", ""),
            ("docs/a/index.md", ""),
            ("docs/x.png", ""),
        ]);
        let links = [
            "../c/",
            "../c/#f",
            "./",
            "../",
            "../../../c/",
            "c.md",
            "../x.png",
            "/p/a/c/",
            "HTTPS://e.org/p/a/",
            "Http://e.org/p/a/c/?q#f",
            "../gone/",
            "#top",
            "{{ x }}",
        ];
        for doc in ["docs/a/b.md", "docs/a/index.md", "docs/a/c.md"] {
            let doc = top.join(doc);
            let page = s.page(&doc).unwrap();
            for link in links {
                assert_eq!(s.map_on(&page, link, true), s.map(&doc, link));
                assert_eq!(
                    s.map_on(&page, link, false),
                    s.map_target(&doc, link)
                );
            }
        }
        assert!(s.page(&top.join("README.md")).is_none());
    }

    /// The case-blind prefix test is the lowercased text's.
    #[test]
    fn prefixes_ignore_case_as_lowercasing_does() {
        for text in
            ["http://a", "HTTPS://a", "Http:/", "", "h", "ĥttp://", "https"]
        {
            for prefix in ["http://", "https://"] {
                assert_eq!(
                    has_prefix_ignoring_case(text, prefix),
                    text.to_ascii_lowercase().starts_with(prefix),
                    "{text}"
                );
            }
        }
    }

    /// `map_target` maps as `map` does, with no reason for a local
    /// target; a URL looked up again (and by another shape of link)
    /// answers as the first time.
    #[test]
    fn targets_map_as_links_do_without_their_reason() {
        let (_dir, top, s) = site(&[
            ("mkdocs.yml", "site_url: https://e.org/\n"),
            ("docs/a.md", ""),
            ("docs/b.md", ""),
            ("docs/.hidden.md", ""),
        ]);
        let doc = top.join("docs/a.md");
        for link in [
            "../b/",
            "/b/#x",
            "https://e.org/b/",
            "/b/",
            "../gone/",
            "/gone/",
            "/.hidden/",
            "../.hidden/",
            "b.md",
            "#top",
        ] {
            for _ in 0..2 {
                let mapped = s.map(&doc, link);
                let target = s.map_target(&doc, link);
                match (&mapped, &target) {
                    (
                        Some(Mapped::Local { path, fragment, reason }),
                        Some(Mapped::Local {
                            path: p,
                            fragment: f,
                            reason: r,
                        }),
                    ) => {
                        assert_eq!((path, fragment), (p, f), "{link}");
                        assert!(reason.starts_with("mapped from"), "{link}");
                        assert_eq!(r, "", "{link}");
                    }
                    _ => assert_eq!(mapped, target, "{link}"),
                }
            }
        }
        assert_eq!(
            s.map(&doc, "/b/#x"),
            Some(Mapped::Local {
                path: top.join("docs/b.md"),
                fragment: Some("x".into()),
                reason: "mapped from the site URL '/b/' to 'docs/b.md'".into(),
            })
        );
    }
}
