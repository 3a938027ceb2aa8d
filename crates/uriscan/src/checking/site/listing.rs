//! Whether a source is a file, answered from its folder's listing, each
//! folder read once: a site URL's first lookup asks it of every source
//! the URL may be served from, and most of those of one URL (all four of
//! a missing MkDocs page) are in one or two folders.

use std::path::Path;
use std::sync::Mutex;

use super::super::fxhash::{FxHashMap, FxHashSet};
use super::cached;

/// The listings of the folders under the sources asked about so far.
#[derive(Debug, Default)]
pub(super) struct Listings {
    /// A folder (under the sources, `/`-separated) to its listing; `None`
    /// for one that could not be listed, asked of the file system name
    /// by name.
    folders: Mutex<FxHashMap<String, Option<Folder>>>,
}

/// One folder's entries.
#[derive(Debug, Default)]
struct Folder {
    /// The names of its files (and of its links to files).
    files: FxHashSet<String>,
    /// Every name in it, ASCII-lowercased: a name missing from `files`
    /// that matches one of these may still name a file on a file system
    /// blind to case, and is asked of the file system.
    folded: FxHashSet<String>,
}

impl Listings {
    /// Whether `rel` (a path under `sources`, `/`-separated, without dot
    /// segments) is a file, as `Path::is_file` of it says.
    pub(super) fn is_file(&self, sources: &Path, rel: &str) -> bool {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let plain = cfg!(unix)
            && name.is_ascii()
            && !matches!(name, "" | "." | "..")
            && !dir.split('/').any(|d| matches!(d, "." | ".."));
        let listed = plain
            .then(|| {
                cached(
                    &self.folders,
                    dir,
                    || Folder::read(&sources.join(dir)),
                    |folder| folder.as_ref().and_then(|f| f.holds(name)),
                )
            })
            .flatten();
        listed.unwrap_or_else(|| sources.join(rel).is_file())
    }
}

impl Folder {
    /// The listing of `path`: empty when there is no such folder, `None`
    /// when it cannot be read whole.
    fn read(path: &Path) -> Option<Folder> {
        let entries = match std::fs::read_dir(path) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Some(Folder::default());
            }
            Err(_) => return None,
        };
        let mut folder = Folder::default();
        for entry in entries {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let kind = entry.file_type().ok()?;
            // `is_file` follows a link: so does the listing.
            if kind.is_file() || (kind.is_symlink() && entry.path().is_file())
            {
                folder.files.insert(name.to_string());
            }
            folder.folded.insert(name.to_ascii_lowercase());
        }
        Some(folder)
    }

    /// Whether `name` (ASCII) is a file of the folder; `None` when only
    /// the file system can say (another case of it is there).
    fn holds(&self, name: &str) -> Option<bool> {
        if self.files.contains(name) {
            return Some(true);
        }
        (!self.folded.contains(&name.to_ascii_lowercase())).then_some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listing answers as `Path::is_file`, for files, folders, links
    /// to each, broken links, missing folders and a file read as a
    /// folder, the first time and from the kept listing.
    #[test]
    fn a_listing_answers_as_is_file() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        for f in ["a.md", "d/index.md", "d/README.md", "d/x.png", "A b.md"] {
            super::super::write_test_file(top, f, "");
        }
        std::fs::create_dir_all(top.join("d/e.md")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(top.join("a.md"), top.join("d/to_file.md")).unwrap();
            symlink(top.join("d"), top.join("to_dir")).unwrap();
            symlink(top.join("gone"), top.join("d/broken.md")).unwrap();
        }
        let listings = Listings::default();
        let rels = [
            "a.md",
            "A.md",
            "a.MD",
            "A b.md",
            "b.md",
            "d",
            "d/index.md",
            "d/README.md",
            "d/readme.md",
            "d/x.png",
            "d/e.md",
            "d/e.md/index.md",
            "d/to_file.md",
            "d/broken.md",
            "to_dir",
            "to_dir/index.md",
            "to_dir/e.md",
            "gone/index.md",
            "gone/a/b.md",
            "a.md/index.md",
            "",
            "d/",
            "é.md",
            "d/./index.md",
            "d/../a.md",
        ];
        for _ in 0..2 {
            for rel in rels {
                assert_eq!(
                    listings.is_file(top, rel),
                    top.join(rel).is_file(),
                    "{rel}"
                );
            }
        }
    }
}
