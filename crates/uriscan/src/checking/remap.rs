//! Link targets mapped before they are checked: `REGEX REPLACEMENT`
//! rules (the form lychee's `--remap` takes), and the repository's own web
//! views (`https://github.com/OWNER/REPO/blob/BRANCH/path`, GitLab's
//! `/-/blob/`), which name a file of the checked tree.
//!
//! A mapping never widens what the check may reach: its result is
//! resolved (dot segments removed) against the target it came from, a
//! local result is checked as a link that must stay under its document's
//! root whatever `allow_outside_root` says
//! ([`DocumentDigest::push_remapped`](super::DocumentDigest::push_remapped)),
//! and a web result goes to the remote check like any web link.

use std::fmt;
use std::path::PathBuf;

use regex::Regex;

use crate::links::{PathKind, file_uri};
use crate::syntax::Parser;
use crate::syntax::resolve::resolve_with;

/// One `REGEX REPLACEMENT` rule: the first match in a target is replaced
/// (`$1`, `${name}` name the groups).
#[derive(Clone, Debug)]
pub struct RemapRule {
    pattern: Regex,
    replacement: String,
}

/// Why a rule cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemapError(String);

impl fmt::Display for RemapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RemapError {}

impl RemapRule {
    /// Reads `REGEX REPLACEMENT`: two words, separated by whitespace.
    ///
    /// ```
    /// use uriscan::checking::RemapRule;
    ///
    /// let rule = RemapRule::parse("^https://example.com/(.*) file:///site/$1").unwrap();
    /// assert_eq!(rule.pattern(), "^https://example.com/(.*)");
    /// assert!(RemapRule::parse("one-word").is_err());
    /// ```
    pub fn parse(spec: &str) -> Result<RemapRule, RemapError> {
        let words: Vec<&str> = spec.split_whitespace().collect();
        let [pattern, replacement] = words[..] else {
            return Err(RemapError(format!(
                "'{spec}': write it as 'REGEX REPLACEMENT'"
            )));
        };
        let pattern = Regex::new(pattern)
            .map_err(|e| RemapError(format!("'{pattern}': {e}")))?;
        Ok(RemapRule { pattern, replacement: replacement.to_string() })
    }

    /// The rule's pattern, as written.
    pub fn pattern(&self) -> &str {
        self.pattern.as_str()
    }
}

/// The repository's own web views, which stand for its files on the
/// branch that is checked out.
#[derive(Clone, Debug)]
pub struct RepoViews {
    /// `https://HOST/OWNER/REPO/` (no `.git`).
    base: String,
    /// The branches whose views map: the one checked out, the remote's
    /// default.
    branches: Vec<String>,
    /// The top of the working tree.
    top: PathBuf,
}

impl RepoViews {
    /// The views of the repository at `url` (`https://HOST/OWNER/REPO`,
    /// with or without `.git`, or the `git@HOST:OWNER/REPO.git` and
    /// `ssh://` forms of a git remote), whose working tree is at `top`,
    /// for `branches`. `None` for a URL that names no repository.
    ///
    /// ```
    /// use uriscan::checking::RepoViews;
    ///
    /// let views = RepoViews::new("git@github.com:o/r.git", vec!["main".into()], "/w".into()).unwrap();
    /// assert_eq!(views.base(), "https://github.com/o/r/");
    /// ```
    pub fn new(
        url: &str,
        branches: Vec<String>,
        top: PathBuf,
    ) -> Option<RepoViews> {
        let base = web_base(url)?;
        let branches =
            branches.into_iter().filter(|b| !b.is_empty()).collect();
        Some(RepoViews { base, branches, top })
    }

    /// `https://HOST/OWNER/REPO/`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The local `file:` URI that `target` names, when it is a view of
    /// this repository on one of the branches: `blob`, `tree` or `raw`,
    /// GitHub's or GitLab's (`/-/blob/`). The query (`?plain=1`) is left
    /// out, the fragment kept.
    fn map(&self, target: &str) -> Option<String> {
        let rest = strip_prefix_ignore_case(target, &self.base)?;
        let rest = rest.strip_prefix("-/").unwrap_or(rest);
        let (view, rest) = rest.split_once('/')?;
        if !matches!(view, "blob" | "tree" | "raw") {
            return None;
        }
        let (path_and_query, fragment) = match rest.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (rest, None),
        };
        let path = path_and_query.split('?').next().unwrap_or("");
        // The longest branch first: `feature/x` before `feature`.
        let mut branches: Vec<&String> = self.branches.iter().collect();
        branches.sort_by_key(|b| std::cmp::Reverse(b.len()));
        let file = branches.iter().find_map(|b| {
            let after = path.strip_prefix(b.as_str())?;
            match after {
                "" => Some(""),
                _ => after.strip_prefix('/'),
            }
        })?;
        let mut uri = file_uri(&self.top, PathKind::Directory);
        if !uri.ends_with('/') {
            uri.push('/');
        }
        uri.push_str(file);
        if let Some(f) = fragment {
            uri.push('#');
            uri.push_str(f);
        }
        Some(uri)
    }
}

/// `https://HOST/OWNER/REPO/` of a repository or git remote URL.
fn web_base(url: &str) -> Option<String> {
    let url = url.trim();
    let (host, path) = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .or_else(|| url.strip_prefix("ssh://"))
        .or_else(|| url.strip_prefix("git://"))
    {
        let (host, path) = rest.split_once('/')?;
        (host, path)
    } else {
        // The scp-like form: `[user@]host:owner/repo.git`.
        let (host, path) = url.split_once(':')?;
        (host, path)
    };
    // No user, no port: the web view is on the host itself.
    let host = host.rsplit('@').next()?;
    let host = host.split(':').next()?;
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    if host.is_empty() || !path.contains('/') || path.contains("..") {
        return None;
    }
    Some(format!("https://{}/{path}/", host.to_ascii_lowercase()))
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &s[prefix.len()..])
}

/// The mappings of one check: the rules in order, then the repository's
/// web views.
#[derive(Clone, Debug, Default)]
pub struct Remapper {
    rules: Vec<RemapRule>,
    views: Option<RepoViews>,
}

/// A target mapped: what it became, and by what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped {
    /// The new target, resolved against the old one.
    pub target: String,
    /// What mapped it.
    pub by: MappedBy,
}

/// What mapped a target.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MappedBy {
    /// The rule with this pattern.
    Rule(String),
    /// The repository's web view.
    RepoView,
}

impl fmt::Display for MappedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MappedBy::Rule(p) => write!(f, "remap '{p}'"),
            MappedBy::RepoView => f.write_str("the repository's web view"),
        }
    }
}

impl Remapper {
    /// No mapping.
    pub fn new() -> Remapper {
        Remapper::default()
    }

    /// Adds a rule, tried after those already added.
    pub fn rule(&mut self, rule: RemapRule) -> &mut Self {
        self.rules.push(rule);
        self
    }

    /// Maps the repository's web views, when no rule maps a target.
    pub fn repo_views(&mut self, views: RepoViews) -> &mut Self {
        self.views = Some(views);
        self
    }

    /// Whether nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.views.is_none()
    }

    /// What `target` (an absolute URI) becomes: by the first rule that
    /// matches it, else as a web view of the repository. `None` when
    /// nothing maps it, or when the result is no URI reference.
    ///
    /// ```
    /// use uriscan::checking::{MappedBy, RemapRule, Remapper, RepoViews};
    ///
    /// let mut remap = Remapper::new();
    /// remap.rule(RemapRule::parse("^https://docs.example.com/(.*)$ file:///site/$1").unwrap());
    /// remap.repo_views(RepoViews::new("https://github.com/o/r", vec!["main".into()], "/w".into()).unwrap());
    /// let m = remap.map("https://docs.example.com/a/../b.html").unwrap();
    /// assert_eq!(m.target, "file:///site/b.html");
    /// let m = remap.map("https://github.com/o/r/blob/main/docs/a.md#usage").unwrap();
    /// assert_eq!((m.target.as_str(), m.by), ("file:///w/docs/a.md#usage", MappedBy::RepoView));
    /// assert_eq!(remap.map("https://github.com/o/r/blob/other/docs/a.md"), None);
    /// ```
    pub fn map(&self, target: &str) -> Option<Mapped> {
        let (result, by) = self
            .rules
            .iter()
            .find(|r| r.pattern.is_match(target))
            .map(|r| {
                let out = r.pattern.replace(target, r.replacement.as_str());
                (out.into_owned(), MappedBy::Rule(r.pattern().to_string()))
            })
            .or_else(|| {
                let views = self.views.as_ref()?;
                Some((views.map(target)?, MappedBy::RepoView))
            })?;
        // Resolved against the target: a relative result is relative to
        // it, and no result keeps a `..` that would climb out of a root.
        let target =
            resolve_with(Parser::new().iri(true), target, &result).ok()?;
        Some(Mapped { target, by })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remotes_give_the_web_base() {
        for (remote, base) in [
            ("https://github.com/o/r.git", "https://github.com/o/r/"),
            ("https://github.com/o/r", "https://github.com/o/r/"),
            ("git@github.com:o/r.git", "https://github.com/o/r/"),
            (
                "ssh://git@gitlab.com:22/g/sub/r.git",
                "https://gitlab.com/g/sub/r/",
            ),
            (
                "https://user:tok@GitLab.example.org/g/r/",
                "https://gitlab.example.org/g/r/",
            ),
        ] {
            assert_eq!(web_base(remote).as_deref(), Some(base), "{remote}");
        }
        for bad in [
            "",
            "github.com",
            "https://github.com/only",
            "/local/path",
            "x:../r",
        ] {
            assert_eq!(web_base(bad), None, "{bad}");
        }
    }

    #[test]
    fn views_map_on_their_branches_only() {
        let views = RepoViews::new(
            "https://gitlab.com/g/r",
            vec!["feature/x".into(), "main".into()],
            "/w".into(),
        )
        .unwrap();
        let map = |t: &str| views.map(t);
        assert_eq!(
            map("https://gitlab.com/g/r/-/blob/main/a.md").as_deref(),
            Some("file:///w/a.md")
        );
        assert_eq!(
            map("https://gitlab.com/g/r/-/tree/main").as_deref(),
            Some("file:///w/")
        );
        assert_eq!(
            map(
                "https://gitlab.com/g/r/-/raw/feature/x/img/a.png?inline=false"
            )
            .as_deref(),
            Some("file:///w/img/a.png")
        );
        assert_eq!(
            map("https://gitlab.com/g/r/blob/main/a.md#L3").as_deref(),
            Some("file:///w/a.md#L3")
        );
        assert_eq!(map("https://gitlab.com/g/r/-/blob/mainline/a.md"), None);
        assert_eq!(map("https://gitlab.com/g/r/-/issues/1"), None);
        assert_eq!(map("https://gitlab.com/g/other/-/blob/main/a.md"), None);
    }

    #[test]
    fn rules_are_tried_in_order_and_results_resolved() {
        let mut remap = Remapper::new();
        remap
            .rule(
                RemapRule::parse(
                    "^https://a.example/(.*) https://b.example/$1",
                )
                .unwrap(),
            )
            .rule(
                RemapRule::parse("^https://a.example/x file:///never")
                    .unwrap(),
            )
            .rule(RemapRule::parse("^file:///r/old/ new/").unwrap());
        let m = remap.map("https://a.example/x/../y").unwrap();
        assert_eq!(m.target, "https://b.example/y");
        assert_eq!(m.by.to_string(), "remap '^https://a.example/(.*)'");
        // A relative result is relative to the target it came from.
        let m = remap.map("file:///r/old/a.md").unwrap();
        assert_eq!(m.target, "file:///r/old/new/a.md");
        assert_eq!(remap.map("https://c.example/"), None);
        assert!(RemapRule::parse("a b c").is_err());
        assert!(RemapRule::parse("( x").is_err());
    }
}
