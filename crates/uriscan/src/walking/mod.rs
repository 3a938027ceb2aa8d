//! Walking directory trees for files to scan, the way a person expects a
//! search tool to: `.gitignore`, `.ignore` and the global git excludes are
//! honoured, hidden files are skipped, and the walk runs on several
//! threads.
//!
//! This is the library half of the `uriscan` command line, usable by a
//! crawler or a link checker: it lists files and reads them, it never
//! prints. The walk is built on the [`ignore`] crate, whose parallel
//! walker does the directory reads and the ignore matching on every worker
//! thread, so a visitor that also scans the file it was handed keeps every
//! core busy without a second thread pool.
//!
//! ```
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use uriscan::walking::{Flow, WalkerBuilder};
//!
//! let dir = env!("CARGO_MANIFEST_DIR");
//! let files = AtomicUsize::new(0);
//! let walker = WalkerBuilder::new().path(dir).threads(2).build()?;
//! walker.run(|| {
//!     |entry: Result<_, _>| {
//!         if entry.is_ok() {
//!             files.fetch_add(1, Ordering::Relaxed);
//!         }
//!         Flow::Continue
//!     }
//! });
//! assert!(files.load(Ordering::Relaxed) > 0);
//! # Ok::<(), uriscan::walking::Error>(())
//! ```

use std::path::{Path, PathBuf};

mod error;
mod io_message;

pub use error::{Error, ErrorKind};
pub use io_message::io_message;

/// What a visitor wants the walk to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the walk.
    Continue,
    /// Stop the whole walk as soon as possible (every thread).
    Quit,
}

/// A file found by the walk.
#[derive(Clone, Debug)]
pub struct Entry {
    path: PathBuf,
    symlink: bool,
    named: bool,
}

impl Entry {
    /// Whether the path is itself a symbolic link (followed to a file),
    /// as the walk saw it: a reader that resolves paths asks the file
    /// system only then.
    pub fn path_is_symlink(&self) -> bool {
        self.symlink
    }
    /// Whether the path is one the walk was given (a file named on the
    /// command line), not one found in a directory: a reader may treat
    /// those few files differently, as ripgrep maps them.
    pub fn is_named(&self) -> bool {
        self.named
    }
    /// The path of the file, as reached from the path the walk started at.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The path, owned.
    pub fn into_path(self) -> PathBuf {
        self.path
    }
}

/// Configures a [`Walker`]: set options with the `&mut self` setters, then
/// [`build`](WalkerBuilder::build).
#[derive(Clone, Debug)]
pub struct WalkerBuilder {
    paths: Vec<PathBuf>,
    hidden: bool,
    ignore_files: bool,
    require_git: bool,
    globs: Vec<String>,
    max_depth: Option<usize>,
    follow: bool,
    max_filesize: Option<u64>,
    threads: usize,
    sort_by_path: bool,
}

impl Default for WalkerBuilder {
    fn default() -> WalkerBuilder {
        WalkerBuilder::new()
    }
}

impl WalkerBuilder {
    /// A builder with the defaults: ignore files honoured (also outside a
    /// git repository), hidden files skipped, symlinks not followed, one
    /// thread per core.
    pub fn new() -> WalkerBuilder {
        WalkerBuilder {
            paths: vec![],
            hidden: false,
            ignore_files: true,
            require_git: false,
            globs: vec![],
            max_depth: None,
            follow: false,
            max_filesize: None,
            threads: 0,
            sort_by_path: false,
        }
    }
    /// Adds a file or directory to walk. With none, the walk is empty.
    pub fn path<P: AsRef<Path>>(&mut self, path: P) -> &mut WalkerBuilder {
        self.paths.push(path.as_ref().to_path_buf());
        self
    }
    /// Whether to walk hidden files and directories (names starting with
    /// `.`). Default: no.
    pub fn hidden(&mut self, yes: bool) -> &mut WalkerBuilder {
        self.hidden = yes;
        self
    }
    /// Whether to honour `.gitignore`, `.ignore`, `.git/info/exclude` and
    /// the global git excludes file. Default: yes.
    pub fn ignore_files(&mut self, yes: bool) -> &mut WalkerBuilder {
        self.ignore_files = yes;
        self
    }
    /// Whether `.gitignore` applies only inside a git repository (as git
    /// itself does). Default: no, because a `.gitignore` in an unpacked
    /// tarball or a copied tree states the same intent.
    pub fn require_git(&mut self, yes: bool) -> &mut WalkerBuilder {
        self.require_git = yes;
        self
    }
    /// Adds a glob that selects files, in `.gitignore` syntax: when any
    /// glob without `!` is given, only files matching one are walked; a
    /// glob starting with `!` excludes what it matches.
    pub fn glob<S: Into<String>>(&mut self, glob: S) -> &mut WalkerBuilder {
        self.globs.push(glob.into());
        self
    }
    /// The deepest level to descend to; the paths given are level 0.
    pub fn max_depth(&mut self, depth: Option<usize>) -> &mut WalkerBuilder {
        self.max_depth = depth;
        self
    }
    /// Whether to follow symbolic links. A link that leads back to one of
    /// its ancestors is reported as an [`Error`] and not entered.
    pub fn follow(&mut self, yes: bool) -> &mut WalkerBuilder {
        self.follow = yes;
        self
    }
    /// Skip files larger than this many bytes.
    pub fn max_filesize(&mut self, bytes: Option<u64>) -> &mut WalkerBuilder {
        self.max_filesize = bytes;
        self
    }
    /// The number of threads; 0 means one per core, or one for a lone
    /// file.
    pub fn threads(&mut self, n: usize) -> &mut WalkerBuilder {
        self.threads = n;
        self
    }
    /// Visit files in order of their paths, on one thread, so that output
    /// is the same from run to run.
    pub fn sort_by_path(&mut self, yes: bool) -> &mut WalkerBuilder {
        self.sort_by_path = yes;
        self
    }

    /// The walker. Fails when a glob does not parse.
    pub fn build(&self) -> Result<Walker, Error> {
        let threads = match self.threads {
            // A lone file needs no pool: starting it costs more than the
            // scan.
            0 if matches!(&self.paths[..], [p] if p.is_file()) => 1,
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let mut paths = self.paths.iter();
        let Some(first) = paths.next() else {
            return Ok(Walker { inner: None, threads, sorted: false });
        };
        let mut b = ignore::WalkBuilder::new(first);
        for p in paths {
            b.add(p);
        }
        b.hidden(!self.hidden)
            .ignore(self.ignore_files)
            .git_ignore(self.ignore_files)
            .git_global(self.ignore_files)
            .git_exclude(self.ignore_files)
            .parents(self.ignore_files)
            .require_git(self.require_git)
            .max_depth(self.max_depth)
            .follow_links(self.follow)
            .max_filesize(self.max_filesize)
            .threads(threads);
        if !self.globs.is_empty() {
            let root = std::env::current_dir()
                .map_err(|e| Error::io(Path::new("."), &e))?;
            let mut ob = ignore::overrides::OverrideBuilder::new(root);
            for g in &self.globs {
                ob.add(g).map_err(Error::from_ignore)?;
            }
            b.overrides(ob.build().map_err(Error::from_ignore)?);
        }
        if self.sort_by_path {
            b.sort_by_file_name(|a, b| a.cmp(b));
        }
        Ok(Walker { inner: Some(b), threads, sorted: self.sort_by_path })
    }
}

/// A configured walk; [`run`](Walker::run) it as often as needed.
#[derive(Debug)]
pub struct Walker {
    inner: Option<ignore::WalkBuilder>,
    threads: usize,
    sorted: bool,
}

impl Walker {
    /// The number of threads [`run`](Walker::run) uses.
    pub fn threads(&self) -> usize {
        if self.sorted { 1 } else { self.threads }
    }

    /// Walks, handing each file (never a directory) or error to a visitor.
    /// `make_visitor` is called once per thread, so each visitor can own
    /// its buffers; a visitor returning [`Flow::Quit`] stops every thread.
    ///
    /// # Panics
    ///
    /// When the walk's threads cannot be started (a resource limit);
    /// [`try_run`](Walker::try_run) returns that as an error.
    pub fn run<'s, M, V>(&self, make_visitor: M)
    where
        M: FnMut() -> V,
        V: FnMut(Result<Entry, Error>) -> Flow + Send + 's,
    {
        if let Err(e) = self.try_run(make_visitor) {
            panic!("{e}");
        }
    }

    /// [`run`](Walker::run), or an error, before any file is visited,
    /// when the walk's threads cannot be started.
    ///
    /// The threads are tried first, by starting as many that end at once:
    /// the parallel walker of the `ignore` crate panics when a spawn
    /// fails, and the workers it did start then wait for the others
    /// forever, a hang rather than an exit. Another process may still take
    /// the last threads in between; the window is one spawn long.
    pub fn try_run<'s, M, V>(&self, mut make_visitor: M) -> Result<(), Error>
    where
        M: FnMut() -> V,
        V: FnMut(Result<Entry, Error>) -> Flow + Send + 's,
    {
        let Some(builder) = &self.inner else { return Ok(()) };
        let threads = self.threads();
        if threads == 1 {
            let mut visit = make_visitor();
            for res in builder.build() {
                if let Some(item) = file_or_error(res)
                    && visit(item) == Flow::Quit
                {
                    break;
                }
            }
            return Ok(());
        }
        try_spawn(threads).map_err(|e| Error::threads(threads, &e))?;
        builder.build_parallel().run(|| {
            let mut visit = make_visitor();
            Box::new(move |res| match file_or_error(res) {
                None => ignore::WalkState::Continue,
                Some(item) => match visit(item) {
                    Flow::Continue => ignore::WalkState::Continue,
                    Flow::Quit => ignore::WalkState::Quit,
                },
            })
        });
        Ok(())
    }
}

/// Starts `n` threads, alive together as the walk's workers will be (with
/// the same default stack), and ends them; the first spawn error if not
/// all of them could start.
fn try_spawn(n: usize) -> std::io::Result<()> {
    // Each thread waits on the gate, so that all are alive at once; the
    // gate opens once every spawn was tried.
    let gate = std::sync::RwLock::new(());
    let closed = gate.write();
    let (started, up) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        let mut res = Ok(());
        for _ in 0..n {
            let (gate, started) = (&gate, started.clone());
            let wait = move || {
                let _ = started.send(());
                drop(gate.read());
            };
            if let Err(e) = std::thread::Builder::new().spawn_scoped(s, wait) {
                res = Err(e);
                break;
            }
            // A thread sets up its signal stack before it runs: once it
            // runs, the next spawn cannot take the memory that needs, and
            // a failed spawn is an error, not an abort in a started thread.
            let _ = up.recv();
        }
        drop(closed);
        res
    })
}

/// Keeps files and errors, drops directories and other non-files.
fn file_or_error(
    res: Result<ignore::DirEntry, ignore::Error>,
) -> Option<Result<Entry, Error>> {
    match res {
        Err(e) => Some(Err(Error::from_ignore(e))),
        Ok(dent) => {
            // An entry can carry a soft error (a broken ignore file next
            // to it) and still be walked; such errors are not about the
            // file, so they are dropped here as ripgrep does by default.
            let is_file = dent.file_type().is_some_and(|t| t.is_file());
            // An explicit path to a FIFO or device is read, too: the user
            // asked for it.
            let named = dent.depth() == 0;
            let explicit =
                named && dent.file_type().is_some_and(|t| !t.is_dir());
            (is_file || explicit).then(|| {
                let symlink = dent.path_is_symlink();
                Ok(Entry { path: dent.into_path(), symlink, named })
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn walk(b: &WalkerBuilder) -> Vec<String> {
        let found = Mutex::new(vec![]);
        b.build().unwrap().run(|| {
            |e: Result<Entry, Error>| {
                let e = e.unwrap();
                found.lock().unwrap().push(
                    e.path().file_name().unwrap().to_string_lossy().into(),
                );
                Flow::Continue
            }
        });
        let mut v = found.into_inner().unwrap();
        v.sort();
        v
    }

    #[test]
    fn ignore_hidden_and_globs() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join(".gitignore"), "skip.txt\n").unwrap();
        std::fs::write(d.join("skip.txt"), "x").unwrap();
        std::fs::write(d.join("keep.txt"), "x").unwrap();
        std::fs::write(d.join("keep.md"), "x").unwrap();
        std::fs::write(d.join(".hidden.txt"), "x").unwrap();
        let mut b = WalkerBuilder::new();
        b.path(d).threads(2);
        assert_eq!(walk(&b), ["keep.md", "keep.txt"]);
        b.hidden(true);
        assert_eq!(
            walk(&b),
            [".gitignore", ".hidden.txt", "keep.md", "keep.txt"]
        );
        b.hidden(false).ignore_files(false);
        assert_eq!(walk(&b), ["keep.md", "keep.txt", "skip.txt"]);
        b.glob("*.md");
        assert_eq!(walk(&b), ["keep.md"]);
        let mut b = WalkerBuilder::new();
        b.path(d).glob("!*.md").threads(1);
        assert_eq!(walk(&b), ["keep.txt"]);
    }

    #[test]
    fn a_file_vanishing_mid_walk_is_an_error_for_that_file_only() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_path_buf();
        for name in ["a.txt", "b.txt", "c.txt"] {
            std::fs::write(d.join(name), "http://x.example/").unwrap();
        }
        let mut b = WalkerBuilder::new();
        // Sorted: the directory is listed whole before the first visit.
        b.path(&d).sort_by_path(true);
        let log = Mutex::new(vec![]);
        b.build().unwrap().run(|| {
            let mut reader = crate::reading::FileReader::new();
            let (d, log) = (&d, &log);
            move |e: Result<Entry, Error>| {
                let e = e.unwrap();
                let name = e.path().file_name().unwrap().to_owned();
                if name == "a.txt" {
                    std::fs::remove_file(d.join("b.txt")).unwrap();
                }
                let line = match reader.read(e.path()) {
                    Ok(_) => format!("{} read", name.display()),
                    Err(err) => {
                        let kind = Error::io(e.path(), &err).kind().clone();
                        assert!(matches!(kind, ErrorKind::Io(_)), "{kind:?}");
                        io_message(&err)
                    }
                };
                log.lock().unwrap().push(line);
                Flow::Continue
            }
        });
        let log = log.into_inner().unwrap();
        assert_eq!(
            log,
            ["a.txt read", "no such file or directory", "c.txt read"]
        );
    }

    #[test]
    fn bad_glob_is_an_error() {
        let err = WalkerBuilder::new().path(".").glob("a[").build();
        assert!(err.is_err());
    }

    #[test]
    fn io_messages_read_well() {
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        let msg = io_message(&e);
        assert!(msg.starts_with(|c: char| c.is_lowercase()), "{msg}");
        let e = std::fs::File::open("/definitely/not/here").unwrap_err();
        assert_eq!(io_message(&e), "no such file or directory");
    }
}
