//! `mkdocs-include-markdown-plugin`'s glob patterns
//! (`{% include-markdown "parts/*.md" %}`): the plugin includes every
//! file that matches, sorted by path (its default `order`,
//! `alpha-path`). Its matcher is wcmatch's glob with `GLOBSTAR` and
//! `BRACE`: `*` and `?` stay in one path segment, `**` crosses them, and
//! none of them matches a name's leading dot. A path that names a file as
//! it is was taken as that file before (the caller looks first).
//!
//! The walk starts at the pattern's literal folders, never follows a
//! symbolic link to a folder, and is bounded: a pattern over a large
//! tree gives what it met within the bounds.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

/// How many files one pattern includes at most.
const MAX_MATCHES: usize = 256;

/// How many entries one pattern's walk looks at, at most.
const MAX_VISITED: usize = 20_000;

/// How deep `**` goes below the pattern's literal folders.
const MAX_DEPTH: usize = 16;

/// Whether the include path is a pattern: a glob's special character in
/// it.
pub(super) fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '[', '{'])
}

/// The pattern `pattern` split at its first segment with a glob
/// character: its literal folders (relative, maybe with `..`), and the
/// rest, matched under them.
fn split(pattern: &str) -> (&str, &str) {
    let mut at = 0;
    for segment in pattern.split_inclusive('/') {
        if is_glob(segment) {
            break;
        }
        at += segment.len();
    }
    pattern.split_at(at)
}

/// The files that `pattern` matches under the folder `base`, sorted by
/// path; `folder_of` gives a folder the walk may start in (the project's
/// guard: `None` outside it). `Err` says why the pattern is not one.
pub(super) fn matches(
    base: &Path,
    pattern: &str,
    folder_of: &dyn Fn(&Path, &str) -> Option<PathBuf>,
) -> Result<Vec<PathBuf>, String> {
    let (literal, rest) = split(pattern);
    let matcher = GlobBuilder::new(rest)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| format!("not a glob pattern: {}", e.kind()))?
        .compile_matcher();
    let Some(start) = folder_of(base, literal) else {
        return Ok(vec![]);
    };
    let depth =
        if rest.contains("**") { MAX_DEPTH } else { rest.split('/').count() };
    // A name's leading dot is matched only by a dot written in the
    // pattern.
    let dots = rest.split('/').any(|s| s.starts_with('.'));
    let mut found = walk(&start, &matcher, depth, dots);
    found.sort();
    found.truncate(MAX_MATCHES);
    Ok(found)
}

/// The files under `start`, `depth` levels at most, whose path under it
/// `matcher` matches.
fn walk(
    start: &Path,
    matcher: &GlobMatcher,
    depth: usize,
    dots: bool,
) -> Vec<PathBuf> {
    let mut found = vec![];
    let mut visited = 0;
    let mut folders = vec![(start.to_path_buf(), 1)];
    while let Some((folder, level)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            visited += 1;
            if visited > MAX_VISITED {
                return found;
            }
            let name = entry.file_name();
            if !dots && name.to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(kind) = entry.file_type() else { continue };
            let path = entry.path();
            if kind.is_dir() {
                if level < depth {
                    folders.push((path, level + 1));
                }
                continue;
            }
            let Ok(rel) = path.strip_prefix(start) else { continue };
            if matcher.is_match(rel) && path.is_file() {
                found.push(path);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_split_at_their_first_glob() {
        assert_eq!(split("parts/*.md"), ("parts/", "*.md"));
        assert_eq!(split("../../s/**/x?.md"), ("../../s/", "**/x?.md"));
        assert_eq!(split("{a,b}.md"), ("", "{a,b}.md"));
        assert!(!is_glob("../a b.md"));
    }

    /// What wcmatch's glob (the plugin's flags) matches, sorted by path:
    /// `*` in one segment, `**` across them, braces, no leading dot
    /// unless written.
    #[test]
    fn files_match_as_the_plugin_globs() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        for f in [
            "p/b.md",
            "p/a.md",
            "p/.h.md",
            "p/sub/c.md",
            "p/sub/d.txt",
            "q.md",
        ] {
            super::super::write_test_file(top, f, "");
        }
        let folder_of = |base: &Path, rel: &str| Some(base.join(rel));
        let got = |pattern: &str| -> Vec<String> {
            matches(top, pattern, &folder_of)
                .unwrap()
                .iter()
                .map(|p| {
                    p.strip_prefix(top).unwrap().to_string_lossy().into_owned()
                })
                .collect()
        };
        assert_eq!(got("p/*.md"), ["p/a.md", "p/b.md"]);
        assert_eq!(got("p/**/*.md"), ["p/a.md", "p/b.md", "p/sub/c.md"]);
        assert_eq!(got("p/{b,sub/c}.md"), ["p/b.md", "p/sub/c.md"]);
        assert_eq!(got("p/.*.md"), ["p/.h.md"]);
        assert_eq!(got("*/?.md"), ["p/a.md", "p/b.md"]);
        assert!(got("p/*.rst").is_empty());
        assert!(matches(top, "p/[.md", &folder_of).is_err());
        // Outside the guard: nothing.
        assert!(matches(top, "p/*.md", &|_, _| None).unwrap().is_empty());
    }
}
