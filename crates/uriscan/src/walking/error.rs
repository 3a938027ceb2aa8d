//! The error of a walk: what went wrong ([`ErrorKind`]), about which path,
//! and a message for people that reads as `PATH: reason`.

use std::fmt;
use std::path::{Path, PathBuf};

use super::io_message::io_message;

/// What went wrong in a walk.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A file or directory could not be read.
    Io(std::io::ErrorKind),
    /// A followed symlink points back at one of its ancestors; the walk
    /// does not enter it.
    SymlinkLoop {
        /// The ancestor the link points to.
        ancestor: PathBuf,
    },
    /// A glob given to the walk, or a line of an ignore file, does not
    /// parse.
    Glob {
        /// The glob, when the error names it.
        glob: Option<String>,
    },
    /// The walk's threads could not be started (a resource limit).
    Threads {
        /// How many threads the walk asked for.
        count: usize,
    },
    /// Several errors at once, as an ignore file with several bad lines
    /// gives.
    Several(Vec<Error>),
    /// Another error of the walk (an unknown file type or a bad type
    /// definition).
    Other,
}

/// An error met while walking: a path that could not be read, a symlink
/// loop, a bad glob or a broken ignore file.
///
/// Its `Display` is for people: `PATH: reason`, lowercase, without the
/// `(os error N)` tail of an I/O error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    path: Option<PathBuf>,
    line: Option<u64>,
    /// The reason as people read it, for the kinds whose wording comes
    /// from elsewhere (the OS, the glob parser).
    reason: String,
}

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
    /// The path the error is about, when there is one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
    /// The line of the ignore file the error is on, when there is one.
    pub fn line(&self) -> Option<u64> {
        self.line
    }

    /// An I/O error about `path` (a file that could not be read).
    pub fn io(path: &Path, err: &std::io::Error) -> Error {
        let kind = ErrorKind::Io(err.kind());
        Error::new(kind, Some(path.to_path_buf()), None, io_message(err))
    }

    /// The error of the walk's threads that could not be started.
    pub(super) fn threads(count: usize, err: &std::io::Error) -> Error {
        Error::new(ErrorKind::Threads { count }, None, None, io_message(err))
    }

    fn new(
        kind: ErrorKind,
        path: Option<PathBuf>,
        line: Option<u64>,
        reason: String,
    ) -> Error {
        Error { kind, path, line, reason }
    }

    pub(super) fn from_ignore(err: ignore::Error) -> Error {
        let mut path = None;
        let mut line = None;
        let mut err = err;
        // Peel the context wrappers: the path and the line go to their own
        // fields so that the message reads `PATH: reason`.
        loop {
            match err {
                ignore::Error::WithPath { path: p, err: e } => {
                    path.get_or_insert(p);
                    err = *e;
                }
                ignore::Error::WithDepth { err: e, .. } => err = *e,
                ignore::Error::WithLineNumber { line: l, err: e } => {
                    line = Some(l);
                    err = *e;
                }
                ignore::Error::Loop { ancestor, child } => {
                    let kind = ErrorKind::SymlinkLoop { ancestor };
                    return Error::new(kind, Some(child), None, String::new());
                }
                ignore::Error::Io(e) => {
                    let kind = ErrorKind::Io(e.kind());
                    return Error::new(kind, path, line, io_message(&e));
                }
                ignore::Error::Partial(errs) => {
                    let errs = errs.into_iter().map(Error::from_ignore);
                    let kind = ErrorKind::Several(errs.collect());
                    return Error::new(kind, path, line, String::new());
                }
                other => {
                    let kind = match &other {
                        ignore::Error::Glob { glob, .. } => {
                            ErrorKind::Glob { glob: glob.clone() }
                        }
                        _ => ErrorKind::Other,
                    };
                    return Error::new(kind, path, line, other.to_string());
                }
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        if let Some(l) = self.line {
            write!(f, "line {l}: ")?;
        }
        match &self.kind {
            ErrorKind::SymlinkLoop { ancestor } => write!(
                f,
                "symlink loop: points to its ancestor {}",
                ancestor.display()
            ),
            ErrorKind::Threads { count } => {
                write!(f, "cannot start {count} threads: {}", self.reason)
            }
            ErrorKind::Several(errs) => {
                for (i, e) in errs.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            ErrorKind::Io(_) | ErrorKind::Glob { .. } | ErrorKind::Other => {
                f.write_str(&self.reason)
            }
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before() {
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        let err = Error::io(Path::new("a/b"), &e);
        assert_eq!(err.kind(), &ErrorKind::Io(std::io::ErrorKind::NotFound));
        assert_eq!(err.to_string(), format!("a/b: {}", io_message(&e)));
        let looped = Error::from_ignore(ignore::Error::Loop {
            ancestor: PathBuf::from("a"),
            child: PathBuf::from("a/b/c"),
        });
        assert_eq!(
            looped.to_string(),
            "a/b/c: symlink loop: points to its ancestor a"
        );
        let with_path = |path: &str, err| ignore::Error::WithPath {
            path: PathBuf::from(path),
            err: Box::new(err),
        };
        let glob =
            ignore::Error::Glob { glob: Some("a[".into()), err: "e".into() };
        let partial = ignore::Error::Partial(vec![
            with_path("x", ignore::Error::Io(std::io::Error::other("Bad"))),
            with_path(
                ".ignore",
                ignore::Error::WithLineNumber { line: 3, err: Box::new(glob) },
            ),
        ]);
        let err = Error::from_ignore(partial);
        assert!(matches!(err.kind(), ErrorKind::Several(v) if v.len() == 2));
        assert_eq!(
            err.to_string(),
            "x: bad; .ignore: line 3: error parsing glob 'a[': e"
        );
    }
}
