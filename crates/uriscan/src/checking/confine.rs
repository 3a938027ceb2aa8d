//! The one guard of every include that reads a file from the checked
//! tree (AsciiDoc's `include::`, the site generators' includes and
//! configuration files): nothing outside the folder it is bound to, no
//! symbolic link leading out of it, never a URL. The tree may be
//! hostile: what it names is read only through here.

use std::path::{Component, Path, PathBuf};

/// `path` when it is in the folder `top`, no symbolic link taking it
/// out either: the one guard of every include that reads a file.
pub(crate) fn confined(path: PathBuf, top: &Path) -> Option<PathBuf> {
    if !path.starts_with(top) {
        return None;
    }
    if let (Ok(real), Ok(top)) = (path.canonicalize(), top.canonicalize())
        && !real.starts_with(top)
    {
        return None;
    }
    Some(path)
}

/// The file that `written`, as a directive of a file in `dir` names it,
/// is in `top`: joined as [`lexical`] joins, then [`confined`]. `None`
/// for a URL (a scheme of two characters or more, which is never
/// fetched; a drive letter is one), an empty name, or a path out of
/// `top`.
pub(crate) fn confined_include(
    dir: &Path,
    written: &str,
    top: &Path,
) -> Option<PathBuf> {
    if written.is_empty() || is_url(written) {
        return None;
    }
    confined(lexical(dir, Path::new(written))?, top)
}

/// Whether `written` starts with a URL scheme of two characters or more
/// (letters, digits, `+`, `-`, `.`) and a colon.
pub(crate) fn is_url(written: &str) -> bool {
    written.find(':').filter(|&i| i > 1).is_some_and(|i| {
        written[..i]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
    })
}

/// `path` joined to `base` as Python's `os.path.abspath(join(base,
/// path))` does: an absolute `path` replaces `base`, dot segments are
/// removed without looking at the file system. `None` above the root.
pub(crate) fn lexical(base: &Path, path: &Path) -> Option<PathBuf> {
    let mut out = base.to_path_buf();
    for c in path.components() {
        match c {
            // Absolute: it replaces what was before.
            Component::RootDir | Component::Prefix(_) => out.push(c),
            Component::Normal(n) => out.push(n),
            Component::ParentDir if !out.pop() => return None,
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_stays_in_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(top.join("a")).unwrap();
        std::fs::write(top.join("a/x.adoc"), "").unwrap();
        let a = top.join("a");
        assert_eq!(
            confined_include(&a, "x.adoc", &top),
            Some(top.join("a/x.adoc"))
        );
        assert_eq!(
            confined_include(&a, "../a/./x.adoc", &top),
            Some(top.join("a/x.adoc"))
        );
        // Not there yet: still in the folder, for the caller to find.
        assert_eq!(
            confined_include(&a, "y.adoc", &top),
            Some(top.join("a/y.adoc"))
        );
        assert_eq!(confined_include(&a, "../../x.adoc", &top), None);
        assert_eq!(confined_include(&a, "/etc/passwd", &top), None);
        assert_eq!(confined_include(&a, "", &top), None);
        assert_eq!(lexical(Path::new("/"), Path::new("../x")), None);
    }

    #[test]
    fn a_url_is_never_a_file() {
        let top = Path::new("/t");
        for url in ["https://x.example/a.adoc", "ftp:a", "git+ssh://h/r"] {
            assert_eq!(confined_include(top, url, top), None, "{url}");
        }
        // A drive letter is not a scheme; a colon later is a name's.
        assert!(confined_include(top, "a/b:c.adoc", top).is_some());
        assert!(!is_url("C:/x") && is_url("web+x:y"));
    }

    #[cfg(unix)]
    #[test]
    fn no_symbolic_link_leads_out() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.adoc"), "").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.adoc"),
            top.join("s.adoc"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), top.join("d")).unwrap();
        assert_eq!(confined_include(&top, "s.adoc", &top), None);
        assert_eq!(confined_include(&top, "d/secret.adoc", &top), None);
        assert_eq!(confined(top.join("d/secret.adoc"), &top), None);
    }
}
