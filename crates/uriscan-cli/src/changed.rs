//! `check --changed-since REF`: which documents a change makes worth
//! reading, asked of the `git` command. The documents the change added or
//! edited are checked whole; any other document that may link into a
//! file the change renamed, deleted or edited is read too, and only its
//! links into those files are reported.
//!
//! git is run as a command rather than through a library: no heavy
//! dependency, and the user's git (its config, worktrees, sparse
//! checkouts) answers exactly as it does in their shell.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};
use uriscan::links::{Format, Link};

/// Index files that stand for their directory, as the checker's default.
const INDEX_NAMES: [&str; 4] =
    ["README.md", "index.md", "index.html", "index.htm"];

/// What a change since a git revision asks the check to read.
#[derive(Debug)]
pub struct ChangedScope {
    /// The revision, as given.
    pub reference: String,
    /// The documents to read, in path order.
    pub read: Vec<PathBuf>,
    /// The documents of the whole tree (under the paths checked).
    pub tree_documents: usize,
    /// Documents added, edited or renamed to: every link is reported.
    changed: HashSet<PathBuf>,
    /// Paths whose old content is gone or edited: renamed from, deleted,
    /// edited. A link into one of them is reported wherever it is.
    touched: Vec<PathBuf>,
}

impl ChangedScope {
    /// Asks git what changed between `reference` and the working tree
    /// (committed or not, untracked files included) in the repository
    /// of `paths[0]`, and which documents under `paths` to read.
    pub fn new(
        reference: &str,
        paths: &[PathBuf],
    ) -> anyhow::Result<ChangedScope> {
        let first = paths.first().map_or(Path::new("."), PathBuf::as_path);
        let dir = if first.is_dir() {
            first
        } else {
            first.parent().unwrap_or(Path::new("."))
        };
        let dir =
            if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        let top =
            git(dir, &["rev-parse", "--show-toplevel"]).map_err(|e| {
                anyhow::anyhow!(
                    "--changed-since: {} is not in a git repository ({e})",
                    dir.display()
                )
            })?;
        let top = std::fs::canonicalize(top.trim_end_matches(['\n', '\r']))
            .context("--changed-since: the repository's directory")?;
        let spec = format!("{reference}^{{commit}}");
        // The commit's name from here on: a REF that reads as an option
        // can reach no other git command.
        let commit = match git(
            &top,
            &["rev-parse", "--verify", "--quiet", "--end-of-options", &spec],
        ) {
            Ok(commit) => commit,
            // The first commit of a repository (a pre-commit hook's
            // `--changed-since HEAD` before any commit): HEAD names a
            // branch with no commit yet, and every file is new.
            Err(_) if reference == "HEAD" && unborn_head(&top) => {
                empty_tree(&top)?
            }
            Err(_) => {
                bail!("--changed-since: unknown revision '{reference}'")
            }
        };
        let commit = commit.trim();
        let diff = git(
            &top,
            &[
                "diff",
                "--name-status",
                "-z",
                "-M",
                "--no-ext-diff",
                commit,
                "--",
            ],
        )?;
        let untracked =
            git(&top, &["ls-files", "-z", "--others", "--exclude-standard"])?;
        let (mut edited, mut touched) = (vec![], vec![]);
        let mut fields = diff.split('\0').filter(|f| !f.is_empty());
        while let Some(status) = fields.next() {
            let Some(path) = fields.next() else { break };
            match status.as_bytes()[0] {
                b'R' => {
                    touched.push(top.join(path));
                    if let Some(new) = fields.next() {
                        edited.push(top.join(new));
                    }
                }
                b'C' => {
                    if let Some(new) = fields.next() {
                        edited.push(top.join(new));
                    }
                }
                b'D' => touched.push(top.join(path)),
                b'A' => edited.push(top.join(path)),
                _ => {
                    touched.push(top.join(path));
                    edited.push(top.join(path));
                }
            }
        }
        edited.extend(
            untracked
                .split('\0')
                .filter(|f| !f.is_empty())
                .map(|f| top.join(f)),
        );
        let under: Vec<PathBuf> = paths
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| top.join(p)))
            .collect();
        let wanted = |p: &Path| {
            Format::from_path(p) != Format::Text
                && under.iter().any(|u| p.starts_with(u))
                && p.is_file()
        };
        let all = git(
            &top,
            &["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        )?;
        let tree_documents = all
            .split('\0')
            .filter(|f| !f.is_empty())
            .map(|f| top.join(f))
            .collect::<HashSet<_>>()
            .iter()
            .filter(|p| wanted(p))
            .count();
        let changed: HashSet<PathBuf> =
            edited.into_iter().filter(|p| wanted(p)).collect();
        let mut read: HashSet<PathBuf> = changed.clone();
        read.extend(
            mentioning(&top, &touched)?.into_iter().filter(|p| wanted(p)),
        );
        let mut read: Vec<PathBuf> = read.into_iter().collect();
        read.sort();
        Ok(ChangedScope {
            reference: reference.to_string(),
            read,
            tree_documents,
            changed,
            touched,
        })
    }

    /// Whether every link of the document at `path` is reported: the
    /// change added or edited it.
    pub fn is_changed(&self, path: &Path) -> bool {
        let path =
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.changed.contains(&path)
    }

    /// Whether `link`, in the document at `doc` under `root`, reaches a
    /// file the change renamed, deleted or edited: the file itself, the
    /// same name with another extension (a fallback extension), or the
    /// directory it is the index of.
    pub fn reaches_touched(
        &self,
        doc: &Path,
        root: &Path,
        link: &Link,
    ) -> bool {
        let Some(target) = local_target(doc, root, link) else { return false };
        self.touched.iter().any(|t| {
            *t == target
                || t.with_extension("") == target.with_extension("")
                || (t.parent() == Some(target.as_path())
                    && t.file_name()
                        .and_then(OsStr::to_str)
                        .is_some_and(|n| INDEX_NAMES.contains(&n)))
        })
    }

    /// The summary's words: how many documents were read of the tree's.
    pub fn summary(&self) -> String {
        format!(
            "changed since {}: {} of {} documents read, ",
            self.reference,
            self.read.len(),
            self.tree_documents
        )
    }
}

/// Whether HEAD names a branch that has no commit yet.
fn unborn_head(top: &Path) -> bool {
    git(top, &["symbolic-ref", "--quiet", "HEAD"]).is_ok()
        && git(top, &["rev-parse", "--verify", "--quiet", "HEAD"]).is_err()
}

/// The name of the empty tree in the repository's hash (SHA-1 or
/// SHA-256), against which a diff reads every file as added: the hash of
/// no bytes, read from git's standard input, which `git` leaves empty.
fn empty_tree(top: &Path) -> anyhow::Result<String> {
    git(top, &["hash-object", "-t", "tree", "--stdin"])
}

/// Runs git in `dir`; its standard output, or its standard error as the
/// error.
pub(crate) fn git(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .context("running git")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        bail!("{}", err.trim());
    }
    String::from_utf8(out.stdout).context("git's output is not UTF-8")
}

/// The files of the tree whose text names one of `touched`: its file
/// name without extension, or for an index file its directory's name.
/// A superset of the documents linking into them, found by `git grep`
/// without parsing a document.
fn mentioning(
    top: &Path,
    touched: &[PathBuf],
) -> anyhow::Result<Vec<PathBuf>> {
    let mut needles: Vec<String> = vec![];
    for t in touched {
        let is_index = t
            .file_name()
            .and_then(OsStr::to_str)
            .is_some_and(|n| INDEX_NAMES.contains(&n));
        let named = if is_index { t.parent() } else { Some(t.as_path()) };
        if let Some(stem) =
            named.and_then(Path::file_stem).and_then(OsStr::to_str)
            && !needles.iter().any(|n| n == stem)
        {
            needles.push(stem.to_string());
        }
    }
    if needles.is_empty() {
        return Ok(vec![]);
    }
    let mut cmd = Command::new("git");
    cmd.arg("-C").arg(top).args([
        "grep",
        "-l",
        "-z",
        "-F",
        "--untracked",
        "-I",
    ]);
    for n in &needles {
        cmd.arg("-e").arg(n);
    }
    let out = cmd.output().context("running git grep")?;
    // git grep exits 1 when nothing matches.
    if !out.status.success() && out.status.code() != Some(1) {
        bail!("git grep: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(|f| top.join(f))
        .collect())
}

/// The file a local link names, absolute and canonical as far as it
/// exists; `None` for a link to elsewhere or to its own document.
fn local_target(doc: &Path, root: &Path, link: &Link) -> Option<PathBuf> {
    let path = match link.target() {
        Some(t) if t.starts_with("file:") => {
            let rest = t.strip_prefix("file://").unwrap_or(&t[5..]);
            let rest = &rest[rest.find('/')?..];
            PathBuf::from(percent_decode(strip_query(rest)))
        }
        _ => {
            let written = link.link();
            if written.contains("://") || written.starts_with("mailto:") {
                return None;
            }
            let rel = percent_decode(strip_query(written));
            if rel.is_empty() {
                return None;
            }
            match rel.strip_prefix('/') {
                Some(r) => root.join(r),
                None => doc.parent()?.join(rel),
            }
        }
    };
    let path = normalize(&path);
    if path == doc {
        return None;
    }
    // Canonical as far as the path exists: the parent of a deleted file.
    Some(match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => {
            std::fs::canonicalize(dir).map_or(path.clone(), |d| d.join(name))
        }
        _ => path,
    })
}

/// The path part of a reference: before its query and fragment.
fn strip_query(s: &str) -> &str {
    &s[..s.find(['?', '#']).unwrap_or(s.len())]
}

/// `%XX` decoded; bad escapes kept as written.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `.` and `..` resolved without the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_normalizes() {
        assert_eq!(percent_decode("a%20b%zz%2"), "a b%zz%2");
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(strip_query("x.md?y#z"), "x.md");
    }
}
