//! `check`'s mappings, built from `--remap`, `remap = [...]` and the git
//! repository the checked paths are in (its web views: `--repo-url`, else
//! the remote's URL). The mapping itself is the library's
//! ([`Remapper`]).
//!
//! git is asked by running the `git` command, as `--changed-since` does:
//! four plumbing queries do not justify a git library in the binary, and
//! the command reads every configuration (worktrees, `includeIf`,
//! `insteadOf`) the way the user's own git does.

use std::path::{Path, PathBuf};

use uriscan::checking::{RemapRule, Remapper, RepoViews};

use crate::changed::git;

/// The mappings of a run: `rules` in order, then the repository's web
/// views, when the first of `paths` is in a git working tree (`repo_url`
/// naming the repository in place of the remote's URL).
pub fn remapper(
    rules: &[String],
    repo_url: Option<&str>,
    paths: &[PathBuf],
) -> anyhow::Result<Remapper> {
    let mut remap = Remapper::new();
    for r in rules {
        let rule =
            RemapRule::parse(r).map_err(|e| anyhow::anyhow!("--remap {e}"))?;
        remap.rule(rule);
    }
    let dir = paths.first().map_or(Path::new("."), PathBuf::as_path);
    let dir = if dir.is_dir() {
        dir
    } else {
        dir.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    };
    if let Some(views) = repo_views(dir, repo_url) {
        remap.repo_views(views);
    } else if let Some(url) = repo_url {
        anyhow::ensure!(
            RepoViews::new(url, vec![], PathBuf::new()).is_some(),
            "--repo-url {url}: not the URL of a repository (https://HOST/OWNER/REPO)"
        );
    }
    Ok(remap)
}

/// The web views of the repository whose working tree holds `dir`, on
/// its checked-out branch and its remote's default branch. `None`
/// outside a working tree, or when no repository URL is known.
fn repo_views(dir: &Path, repo_url: Option<&str>) -> Option<RepoViews> {
    let ask = |args: &[&str]| {
        git(dir, args)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let top = PathBuf::from(ask(&["rev-parse", "--show-toplevel"])?);
    let url = match repo_url {
        Some(u) => u.to_string(),
        None => {
            let remote = ask(&["remote"])?;
            let name = if remote.lines().any(|r| r == "origin") {
                "origin"
            } else {
                remote.lines().next()?
            };
            ask(&["remote", "get-url", name])?
        }
    };
    let mut branches = vec![];
    if let Some(b) = ask(&["symbolic-ref", "--quiet", "--short", "HEAD"]) {
        branches.push(b);
    }
    // The remote's default branch, as the clone recorded it.
    if let Some(d) = ask(&[
        "symbolic-ref",
        "--quiet",
        "--short",
        "refs/remotes/origin/HEAD",
    ]) && let Some((_, branch)) = d.split_once('/')
        && !branches.iter().any(|b| b == branch)
    {
        branches.push(branch.to_string());
    }
    let top = std::fs::canonicalize(&top).unwrap_or(top);
    RepoViews::new(&url, branches, top)
}
