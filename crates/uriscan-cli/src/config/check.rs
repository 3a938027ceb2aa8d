//! The configuration of `uriscan check`, resolved from its arguments and
//! `uriscan.toml` in one step.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::ValueEnum as _;
use uriscan::checking::anchors::AnchorStyle;
use uriscan::links::LinkExtractor;
use uriscan::walking::WalkerBuilder;

use super::{Env, use_color, walker};
use crate::args::{
    CheckAnchors, CheckArgs, CheckDeny, CheckFormat, CheckSite,
};
#[cfg(feature = "remote")]
use crate::args::{
    RemoteArgs, parse_accept, parse_duration, parse_timeout, parse_wait,
};
use crate::changed::ChangedScope;
use crate::documents::Sources;
use uriscan::walking::io_message;

/// The form of `check`'s report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckForm {
    /// `path:line:column: broken link ...`, then a summary.
    Human,
    /// GitHub Actions annotations.
    Github,
    /// One SARIF log.
    Sarif,
    /// A Markdown report, written at the end.
    Markdown,
    /// JUnit XML, written at the end.
    Junit,
    /// JSON Lines; `errors_only` leaves out the links that hold.
    Json { errors_only: bool },
}

/// Which links of a document are kept whole for the report, besides their
/// facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeepLinks {
    /// The http and https links, for the remote check.
    Web,
    None,
}

/// Everything `check` needs to know.
pub struct CheckConfig {
    /// When the run began, for the summary's time.
    pub started: Instant,
    pub sources: Sources,
    /// The paths named on the command line, as written (`.` by default).
    pub paths: Vec<PathBuf>,
    /// The walker, with `--exclude-path` as negated globs.
    pub walker: WalkerBuilder,
    /// `--exclude`.
    pub exclude: regex::RegexSet,
    pub index_files: Vec<String>,
    pub fallback_extensions: Vec<String>,
    pub fragments: bool,
    pub anchors: AnchorStyle,
    /// Whether `--anchors` was given: then no site changes the style
    /// outside its sources.
    pub anchors_given: bool,
    /// `--site`.
    pub site: CheckSite,
    /// `--markdown-parser`: which reader reads Markdown targets' anchors
    /// too.
    pub markdown_parser: uriscan::links::MarkdownParser,
    pub allow_outside_root: bool,
    pub include_text: bool,
    pub search_zip: bool,
    pub binary_as_text: bool,
    /// Not `--no-mmap`.
    pub map_named: bool,
    pub form: CheckForm,
    pub keep: KeepLinks,
    pub progress: bool,
    pub color: bool,
    pub orphans: bool,
    pub entries: Vec<PathBuf>,
    /// `--deny warnings`: warnings fail the run.
    pub deny_warnings: bool,
    /// `--remap`, and the repository's web views.
    pub remap: uriscan::checking::Remapper,
    /// `--changed-since`: what the change asks to read and report.
    pub changed: Option<ChangedScope>,
    #[cfg(feature = "remote")]
    pub remote: RemoteArgs,
    /// Where the remote cache is by default: `--root`, else the first
    /// path's directory.
    #[cfg(feature = "remote")]
    pub cache_dir: PathBuf,
}

impl TryFrom<CheckArgs> for CheckConfig {
    type Error = anyhow::Error;

    fn try_from(mut args: CheckArgs) -> anyhow::Result<CheckConfig> {
        let started = Instant::now();
        apply_config_file(&mut args)?;
        let paths = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        let mut extractor = LinkExtractor::builder();
        // Text files are read only with --include-text; HTML text nodes
        // are never links of the document.
        extractor.include_text(false);
        extractor.markdown_parser(args.doc.markdown_parser());
        let sources = Sources::new(
            paths.iter().map(PathBuf::as_path),
            extractor.build(),
            None,
            None,
            args.root.as_deref(),
        )?;
        let mut walker = walker(&args.walk, false)?;
        for g in &args.exclude_path {
            walker.glob(format!("!{g}"));
        }
        let exclude = regex::RegexSet::new(&args.exclude)
            .map_err(|e| anyhow::anyhow!("--exclude: {e}"))?;
        let changed = args
            .changed_since
            .as_deref()
            .map(|r| ChangedScope::new(r, &paths))
            .transpose()?;
        match &changed {
            // Only the documents the change asks for are walked.
            Some(scope) => {
                for p in &scope.read {
                    walker.path(relative_label(&sources.cwd, p));
                }
            }
            None => {
                for p in &paths {
                    walker.path(p);
                }
            }
        }
        // A bad glob is a usage error, before anything is read.
        walker.build()?;
        let form = if args.json {
            CheckForm::Json { errors_only: args.errors_only }
        } else {
            match args.format {
                CheckFormat::Human => CheckForm::Human,
                CheckFormat::Github => CheckForm::Github,
                CheckFormat::Sarif => CheckForm::Sarif,
                CheckFormat::Markdown => CheckForm::Markdown,
                CheckFormat::Junit => CheckForm::Junit,
            }
        };
        #[cfg(feature = "remote")]
        let web = args.remote.remote;
        #[cfg(not(feature = "remote"))]
        let web = false;
        // A link the reading did not keep (past its memory limit) is read
        // again for the report, so only the remote check's are kept whole.
        let keep = if web { KeepLinks::Web } else { KeepLinks::None };
        let index_files = args.index_files.clone().unwrap_or_else(|| {
            ["index.html", "index.htm", "README.md", "index.md"]
                .map(String::from)
                .to_vec()
        });
        #[cfg(feature = "remote")]
        let cache_dir = args.root.clone().unwrap_or_else(|| {
            let first = &paths[0];
            if first.is_dir() {
                first.clone()
            } else {
                first.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        });
        let site = args.site.unwrap_or(CheckSite::Auto);
        if site == CheckSite::Mdbook && args.fallback_extensions.is_empty() {
            args.fallback_extensions = vec!["md".into(), "html".into()];
        }
        let remap = super::remap::remapper(
            &args.remap,
            args.repo_url.as_deref(),
            &paths,
        )?;
        Ok(CheckConfig {
            started,
            sources,
            paths,
            walker,
            exclude,
            index_files,
            anchors_given: args.anchors.is_some(),
            site,
            markdown_parser: args.doc.markdown_parser(),
            fallback_extensions: args.fallback_extensions,
            fragments: !args.no_fragments,
            anchors: match args.anchors.unwrap_or(CheckAnchors::Github) {
                CheckAnchors::Github => AnchorStyle::Github,
                CheckAnchors::Gitlab => AnchorStyle::Gitlab,
                CheckAnchors::Mdbook => AnchorStyle::Mdbook,
                CheckAnchors::Mkdocs => {
                    AnchorStyle::Mkdocs(Default::default())
                }
                CheckAnchors::Docusaurus => AnchorStyle::docusaurus(),
                CheckAnchors::Hugo => AnchorStyle::Hugo(Default::default()),
                CheckAnchors::Jekyll => AnchorStyle::jekyll(true, None, false),
            },
            allow_outside_root: args.allow_outside_root,
            include_text: args.include_text,
            search_zip: args.walk.search_zip,
            binary_as_text: args.walk.text,
            map_named: !args.doc.no_mmap,
            form,
            keep,
            progress: !args.no_progress,
            color: use_color(args.color, Env::current(), args.json),
            orphans: args.orphans,
            entries: args.entry,
            deny_warnings: args.deny.contains(&CheckDeny::Warnings),
            remap,
            changed,
            #[cfg(feature = "remote")]
            remote: args.remote,
            #[cfg(feature = "remote")]
            cache_dir,
        })
    }
}

/// `./path` for a path under the current directory, as a walk of `.`
/// labels it; else the path as it is.
fn relative_label(cwd: &Path, path: &Path) -> PathBuf {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    match path.strip_prefix(&cwd) {
        Ok(rel) => Path::new(".").join(rel),
        Err(_) => path.to_path_buf(),
    }
}

/// `uriscan.toml`: the long flags of `check` as keys; an unknown key is
/// an error that names it. (Collected in `unknown` rather than by
/// `deny_unknown_fields`, which serde does not combine with the
/// flattened remote keys.)
#[derive(serde::Deserialize, Default, Debug)]
#[serde(rename_all = "kebab-case")]
struct FileConfig {
    index_files: Option<Vec<String>>,
    fallback_extensions: Option<Vec<String>>,
    no_fragments: Option<bool>,
    anchors: Option<String>,
    site: Option<String>,
    allow_outside_root: Option<bool>,
    root: Option<PathBuf>,
    include_text: Option<bool>,
    exclude: Option<Vec<String>>,
    exclude_path: Option<Vec<String>>,
    deny: Option<Vec<String>>,
    remap: Option<Vec<String>>,
    #[cfg(feature = "remote")]
    #[serde(flatten)]
    remote: RemoteKeys,
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, toml::Value>,
}

/// Reads `--config FILE`, or `uriscan.toml` in the first path or the
/// current directory, into the arguments the command line left unset.
/// A file found there is part of the checked tree, which a stranger's
/// pull request may have written: it may not widen what uriscan reaches
/// or writes (see `RemoteKeys::refuse_widening`).
fn apply_config_file(args: &mut CheckArgs) -> anyhow::Result<()> {
    let found_in_tree = args.config.is_none();
    let path = match &args.config {
        Some(p) => p.clone(),
        None => {
            let first = args.paths.first().filter(|p| p.is_dir()).cloned();
            let found = first
                .map(|d| d.join("uriscan.toml"))
                .into_iter()
                .chain([PathBuf::from("uriscan.toml")])
                .find(|p| p.is_file());
            match found {
                Some(p) => p,
                None => return Ok(()),
            }
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!("{}: {}", path.display(), io_message(&e))
    })?;
    let file: FileConfig = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message()))?;
    if let Some(key) = file.unknown.keys().next() {
        anyhow::bail!("{}: unknown key `{key}`", path.display());
    }
    // A relative root is relative to the file.
    let base = path.parent().unwrap_or(Path::new("."));
    #[cfg(feature = "remote")]
    {
        if found_in_tree {
            file.remote.refuse_widening(base).map_err(|e| {
                anyhow::anyhow!(
                    "{}: {e}, which a configuration file found in the checked tree may not set; \
                     give it on the command line, or name a file you trust with --config",
                    path.display()
                )
            })?;
        }
        file.remote
            .apply(&mut args.remote, base)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    if args.index_files.is_none() {
        args.index_files = file.index_files;
    }
    if args.fallback_extensions.is_empty() {
        args.fallback_extensions =
            file.fallback_extensions.unwrap_or_default();
    }
    args.no_fragments |= file.no_fragments.unwrap_or(false);
    args.allow_outside_root |= file.allow_outside_root.unwrap_or(false);
    args.include_text |= file.include_text.unwrap_or(false);
    if args.anchors.is_none()
        && let Some(a) = file.anchors
    {
        args.anchors =
            Some(CheckAnchors::from_str(&a, true).map_err(|_| {
                anyhow::anyhow!(
                    "{}: anchors = {a:?}: github, gitlab, mdbook, mkdocs, \
                     docusaurus, hugo or jekyll",
                    path.display()
                )
            })?);
    }
    if args.site.is_none()
        && let Some(name) = file.site
    {
        args.site = Some(CheckSite::from_str(&name, true).map_err(|_| {
            anyhow::anyhow!(
                "{}: site = {name:?}: auto, github, gitlab, mkdocs, docusaurus, hugo, jekyll or mdbook",
                path.display()
            )
        })?);
    }
    if args.root.is_none() {
        args.root = file.root.map(|r| base.join(r));
    }
    if args.exclude.is_empty() {
        args.exclude = file.exclude.unwrap_or_default();
    }
    if args.exclude_path.is_empty() {
        args.exclude_path = file.exclude_path.unwrap_or_default();
    }
    // The tree's own remaps widen nothing: a local result stays under
    // the root, and a web one meets the remote check's guards.
    if args.remap.is_empty() {
        args.remap = file.remap.unwrap_or_default();
    }
    if args.deny.is_empty() {
        for d in file.deny.unwrap_or_default() {
            args.deny.push(CheckDeny::from_str(&d, true).map_err(|_| {
                anyhow::anyhow!("{}: deny = {d:?}: warnings", path.display())
            })?);
        }
    }
    Ok(())
}

#[cfg(feature = "remote")]
/// The keys of `uriscan.toml` for the remote check: the long flags'
/// names.
#[derive(serde::Deserialize, Default, Debug)]
#[serde(rename_all = "kebab-case")]
struct RemoteKeys {
    remote: Option<bool>,
    warn_remote: Option<bool>,
    remote_fragments: Option<bool>,
    allow_private: Option<bool>,
    max_redirects: Option<usize>,
    accept: Option<Vec<String>>,
    timeout: Option<String>,
    header: Option<Vec<String>>,
    max_concurrency: Option<u32>,
    host_concurrency: Option<u32>,
    retries: Option<u32>,
    retry_wait: Option<String>,
    max_retry_wait: Option<String>,
    cache: Option<bool>,
    cache_file: Option<PathBuf>,
    max_cache_age: Option<String>,
}

#[cfg(feature = "remote")]
impl RemoteKeys {
    /// The first setting that widens what the run may reach or write, in
    /// words: `allow-private`, a `cache-file` outside `base` (the file's
    /// directory), a `header` that carries credentials.
    fn refuse_widening(&self, base: &Path) -> Result<(), String> {
        if self.allow_private == Some(true) {
            return Err("`allow-private = true` lets links reach this machine and its network".into());
        }
        if let Some(file) = &self.cache_file
            && !stays_inside(base, file)
        {
            return Err(format!(
                "`cache-file = {:?}` writes outside the checked tree",
                file.display().to_string()
            ));
        }
        let credential =
            self.header.iter().flatten().find(|h| carries_credentials(h));
        if let Some(h) = credential {
            let name = h.split_once(':').map_or(h.as_str(), |(n, _)| n).trim();
            return Err(format!("`header` {name:?} carries credentials"));
        }
        Ok(())
    }

    /// Fills what the command line left unset; a relative cache file is
    /// relative to `base`, the config file's directory.
    fn apply(self, args: &mut RemoteArgs, base: &Path) -> anyhow::Result<()> {
        args.remote |= self.remote.unwrap_or(false);
        args.warn_remote |= self.warn_remote.unwrap_or(false);
        args.remote_fragments |= self.remote_fragments.unwrap_or(false);
        args.allow_private |= self.allow_private.unwrap_or(false);
        args.cache |= self.cache.unwrap_or(false);
        let duration = |key: &str, v: Option<String>| {
            v.map(|v| {
                parse_duration(&v).map_err(|e| anyhow::anyhow!("{key}: {e}"))
            })
            .transpose()
        };
        args.max_redirects = args.max_redirects.or(self.max_redirects);
        if args.accept.is_none()
            && let Some(list) = self.accept
        {
            let a = parse_accept(&list.join(","))
                .map_err(|e| anyhow::anyhow!("accept: {e}"))?;
            args.accept = Some(a);
        }
        type Parse = fn(&str) -> Result<std::time::Duration, String>;
        let limited = |key: &str, v: Option<String>, parse: Parse| {
            v.map(|v| parse(&v).map_err(|e| anyhow::anyhow!("{key}: {e}")))
                .transpose()
        };
        args.timeout =
            args.timeout.or(limited("timeout", self.timeout, parse_timeout)?);
        if args.header.is_empty() {
            args.header = self.header.unwrap_or_default();
        }
        args.max_concurrency = args.max_concurrency.or(self.max_concurrency);
        args.host_concurrency =
            args.host_concurrency.or(self.host_concurrency);
        args.retries = args.retries.or(self.retries);
        args.retry_wait = args.retry_wait.or(limited(
            "retry-wait",
            self.retry_wait,
            parse_wait,
        )?);
        args.max_retry_wait = args.max_retry_wait.or(limited(
            "max-retry-wait",
            self.max_retry_wait,
            parse_wait,
        )?);
        if args.cache_file.is_none() {
            args.cache_file = self.cache_file.map(|f| base.join(f));
        }
        args.max_cache_age = args
            .max_cache_age
            .or(duration("max-cache-age", self.max_cache_age)?);
        Ok(())
    }
}

/// Whether `file`, relative to `base`, names a place inside `base`: no
/// absolute path, no `..`, and no directory on the way that is a link
/// out of it.
#[cfg(feature = "remote")]
fn stays_inside(base: &Path, file: &Path) -> bool {
    use std::path::Component;
    if !file
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return false;
    }
    // `uriscan.toml` found in the current directory has "" for parent.
    let base = if base.as_os_str().is_empty() { Path::new(".") } else { base };
    let joined = base.join(file);
    // The nearest directory that exists, resolved; the rest is made
    // inside it, or not at all.
    let Some(dir) = joined.ancestors().skip(1).find(|a| a.exists()) else {
        return false;
    };
    match (dir.canonicalize(), base.canonicalize()) {
        (Ok(dir), Ok(base)) => dir.starts_with(base),
        _ => false,
    }
}

/// Whether a `Name: value` header carries credentials: by its name, the
/// standard ones and the usual custom forms (`X-Api-Key`, `X-Auth-Token`).
#[cfg(feature = "remote")]
fn carries_credentials(header: &str) -> bool {
    let name = header.split_once(':').map_or(header, |(n, _)| n);
    let name = name.trim().to_ascii_lowercase();
    matches!(name.as_str(), "authorization" | "proxy-authorization" | "cookie")
        || [
            "auth",
            "token",
            "key",
            "secret",
            "session",
            "password",
            "credential",
        ]
        .iter()
        .any(|w| name.contains(w))
}

#[cfg(all(test, feature = "remote"))]
mod tests {
    use super::*;

    #[test]
    fn credential_headers() {
        for h in [
            "Authorization: Bearer x",
            "proxy-authorization: Basic x",
            "Cookie: a=b",
            "X-Api-Key: k",
            "X-Auth-Token: t",
            "PRIVATE-TOKEN: t",
        ] {
            assert!(carries_credentials(h), "{h}");
        }
        for h in ["Accept-Language: en", "User-Agent: x", "Accept: */*"] {
            assert!(!carries_credentials(h), "{h}");
        }
    }

    #[test]
    fn cache_files_inside_the_tree() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        std::fs::create_dir(base.join("sub")).unwrap();
        assert!(stays_inside(base, Path::new("results.cache")));
        assert!(stays_inside(Path::new(""), Path::new("results.cache")));
        assert!(stays_inside(base, Path::new("./sub/results.cache")));
        assert!(stays_inside(base, Path::new("new/dir/results.cache")));
        assert!(!stays_inside(base, Path::new("../results.cache")));
        assert!(!stays_inside(base, Path::new("sub/../../x")));
        assert!(!stays_inside(base, Path::new("/tmp/results.cache")));
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(outside.path(), base.join("out"))
                .unwrap();
            assert!(!stays_inside(base, Path::new("out/.bashrc")));
        }
    }
}
