//! The per-file parallel worker that the scan and `links` share: standard
//! input first, then the paths walked on the walker's own thread pool,
//! each worker reading, extracting and buffering its files' output, and
//! writing it to standard output in whole files.
//!
//! Working on the walker's threads keeps every core busy with no hand-off,
//! no channel and no second pool: they already own the directory reads
//! and the ignore matching.

use std::collections::HashSet;
use std::io::{self, Write as _};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use uriscan::walking::{Entry, Error, Flow, WalkerBuilder};

use crate::config::Input;
use crate::report::{SPILL_AT, write_stdout, write_to};

/// What a worker does with each input.
pub trait Job {
    /// Reads standard input.
    fn stdin(&mut self, out: &mut Output<'_>) -> Flow;
    /// Reads one walked file.
    fn entry(&mut self, entry: &Entry, out: &mut Output<'_>) -> Flow;
}

/// The state the workers share.
pub struct Shared {
    found: AtomicBool,
    errored: AtomicBool,
    /// Set when standard output is gone (a closed pipe): every worker
    /// stops and nothing more is said.
    quit: AtomicBool,
    /// Under `-u`, what was printed already.
    seen: Option<Mutex<HashSet<String>>>,
    /// Whether the output of many files is written at once rather than
    /// each file's as it is done.
    batch: bool,
}

impl Shared {
    pub fn new(unique: bool, batch: bool) -> Shared {
        Shared {
            found: AtomicBool::new(false),
            errored: AtomicBool::new(false),
            quit: AtomicBool::new(false),
            seen: unique.then(|| Mutex::new(HashSet::new())),
            batch,
        }
    }

    /// Tells `msg` on standard error and remembers the run failed.
    pub fn error(&self, msg: impl std::fmt::Display) {
        self.errored.store(true, Ordering::Relaxed);
        // One line, one write: `eprintln!` would panic if stderr is
        // closed.
        let _ = writeln!(io::stderr().lock(), "uriscan: {msg}");
    }

    /// Whether the run is stopping.
    pub fn quitting(&self) -> bool {
        self.quit.load(Ordering::Relaxed)
    }

    /// Notes that something was found.
    pub fn found(&self) {
        self.found.store(true, Ordering::Relaxed);
    }

    /// What `-u` has printed already; `None` without `-u`.
    pub fn seen(&self) -> Option<&Mutex<HashSet<String>>> {
        self.seen.as_ref()
    }

    /// grep's exit code: 2 after an error, 0 when something was found,
    /// else 1.
    pub fn exit_code(&self) -> i32 {
        if self.errored.load(Ordering::Relaxed) {
            2
        } else if self.found.load(Ordering::Relaxed) {
            0
        } else {
            1
        }
    }
}

/// A worker's output buffer.
pub struct Output<'s> {
    shared: &'s Shared,
    pub buf: Vec<u8>,
}

impl<'s> Output<'s> {
    pub fn new(shared: &'s Shared) -> Output<'s> {
        Output { shared, buf: Vec::with_capacity(SPILL_AT) }
    }

    /// Writes the buffer in one locked write.
    pub fn flush(&mut self) -> Flow {
        if self.buf.is_empty() {
            return Flow::Continue;
        }
        let res = write_stdout(&mut self.buf);
        self.written(res)
    }

    /// A file's output is whole in the buffer: written now unless the run
    /// batches, then once the buffer holds [`SPILL_AT`] bytes (a write per
    /// small file is most of the system calls of a docs tree).
    pub fn file_done(&mut self) -> Flow {
        if self.shared.batch && self.buf.len() < SPILL_AT {
            return Flow::Continue;
        }
        self.flush()
    }

    /// Writes the buffer out through `held`, locking standard output
    /// first if it is not yet held, so that a large file's lines stay
    /// together while the buffer stays small. After a failed write the
    /// run quits and the rest is dropped.
    pub fn spill_held(&mut self, held: &mut Option<io::StdoutLock<'static>>) {
        if self.shared.quitting() {
            self.buf.clear();
            return;
        }
        let lock = held.get_or_insert_with(|| io::stdout().lock());
        let res = write_to(lock, &mut self.buf);
        self.written(res);
    }

    /// What a write to standard output leaves: after a failure (said,
    /// unless the reader is gone) the run quits.
    fn written(&self, res: Result<(), Option<String>>) -> Flow {
        match res {
            Ok(()) => Flow::Continue,
            Err(reason) => {
                if let Some(r) = reason {
                    self.shared.error(format_args!("standard output: {r}"));
                }
                self.shared.quit.store(true, Ordering::Relaxed);
                Flow::Quit
            }
        }
    }
}

impl Drop for Output<'_> {
    /// What batching held back is written when the worker is done.
    fn drop(&mut self) {
        if !self.shared.quitting() {
            self.flush();
        }
    }
}

/// Reads every input: standard input first, then the paths walked
/// together, so that one pool serves all of them; `make_job` makes each
/// worker's job.
pub fn run<'s, J: Job + Send + 's>(
    shared: &'s Shared,
    inputs: &[Input],
    walker: &WalkerBuilder,
    mut make_job: impl FnMut() -> J,
) -> anyhow::Result<()> {
    for input in inputs {
        if *input == Input::Stdin {
            make_job().stdin(&mut Output::new(shared));
        }
    }
    if inputs.iter().any(|i| matches!(i, Input::Path(_))) && !shared.quitting()
    {
        let walker = walker.build()?;
        walker
            .try_run(|| {
                let mut job = make_job();
                let mut out = Output::new(shared);
                move |entry: Result<Entry, Error>| {
                    if shared.quitting() {
                        return Flow::Quit;
                    }
                    match entry {
                        Err(e) => {
                            shared.error(e);
                            Flow::Continue
                        }
                        Ok(entry) => job.entry(&entry, &mut out),
                    }
                }
            })
            .map_err(|e| anyhow::anyhow!("{e} (try a lower -j)"))?;
    }
    Ok(())
}
