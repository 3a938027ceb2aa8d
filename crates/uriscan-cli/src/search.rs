//! The scan driver: walks the inputs in parallel, reads and scans each
//! file on the worker that found it, and writes each file's output with
//! one locked write.
//!
//! The walker's own thread pool (ignore's `WalkParallel`) does the work:
//! its workers already own the directory reads and the ignore matching, so
//! scanning on them keeps every core busy with no hand-off, no channel
//! and no second pool. Each worker owns a [`FileReader`] and an output
//! buffer for its whole life.

use std::collections::HashSet;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use uriscan::reading::{Contents, FileReader};
use uriscan::walking::{Entry, Error, Flow};
use uriscan::warc::{RecordType, WarcReader};

use uriscan::walking::io_message;

use super::args::InputFormat;
use super::config::{Config, Input};
use super::printer::{Label, Printer, SPILL_AT, Texts, write_stdout};

/// State shared by the workers.
struct Shared<'c> {
    cfg: &'c Config,
    found: AtomicBool,
    errored: AtomicBool,
    /// Set when standard output is gone (a closed pipe): every worker
    /// stops and nothing more is said.
    quit: AtomicBool,
    seen: Option<Mutex<HashSet<String>>>,
    files: AtomicU64,
    binary: AtomicU64,
    bytes: AtomicU64,
    uris: AtomicU64,
}

impl Shared<'_> {
    fn error(&self, msg: impl std::fmt::Display) {
        self.errored.store(true, Ordering::Relaxed);
        // One line, one write: `eprintln!` would panic if stderr is
        // closed.
        let _ = writeln!(io::stderr().lock(), "uriscan: {msg}");
    }
}

/// One worker's reusable state.
struct Worker<'s, 'c> {
    shared: &'s Shared<'c>,
    reader: FileReader,
    printer: Printer<'c>,
    out: Vec<u8>,
}

impl<'s, 'c> Worker<'s, 'c> {
    fn new(shared: &'s Shared<'c>) -> Worker<'s, 'c> {
        let mut reader = FileReader::new();
        reader.decompress(shared.cfg.search_zip).skip_binary(!shared.cfg.text);
        Worker {
            shared,
            reader,
            printer: Printer::new(shared.cfg),
            out: Vec::with_capacity(64 * 1024),
        }
    }

    fn visit(&mut self, entry: Result<Entry, Error>) -> Flow {
        if self.shared.quit.load(Ordering::Relaxed) {
            return Flow::Quit;
        }
        match entry {
            Err(e) => {
                self.shared.error(e);
                Flow::Continue
            }
            Ok(entry) => self.scan_path(entry.path()),
        }
    }

    fn scan_path(&mut self, path: &Path) -> Flow {
        let format = self.shared.cfg.format;
        let named = format.is_none() && uriscan::warc::is_warc_name(path);
        if named || format == Some(InputFormat::Warc) {
            let file = match std::fs::File::open(path) {
                Ok(f) => f,
                Err(e) => {
                    self.shared.error(Error::io(path, &e));
                    return Flow::Continue;
                }
            };
            let reader = WarcReader::new(file);
            let (shared, printer) = (self.shared, &self.printer);
            return Self::scan_archive(
                shared,
                printer,
                &mut self.out,
                path,
                reader,
            );
        }
        let contents = match self.reader.read(path) {
            Ok(c) => c,
            Err(e) => {
                // A file that vanished or became unreadable since it was
                // listed is reported like any unreadable path.
                self.shared.error(Error::io(path, &e));
                return Flow::Continue;
            }
        };
        // A web archive by its first bytes, whatever its name.
        if let Contents::Text(bytes) = contents
            && format.is_none()
            && uriscan::warc::has_warc_magic(bytes)
        {
            let reader = WarcReader::new(bytes);
            let (shared, printer) = (self.shared, &self.printer);
            return Self::scan_archive(
                shared,
                printer,
                &mut self.out,
                path,
                reader,
            );
        }
        let label = Label::path(path, self.shared.cfg.implicit_dir);
        Self::scan(
            self.shared,
            &self.printer,
            &mut self.out,
            &label,
            contents,
        );
        self.flush()
    }

    /// A web archive: the payload of each `response`, `resource` and
    /// `conversion` record is scanned as a text of its own, named by the
    /// record's `WARC-Target-URI`; the output is written as it fills,
    /// and the rest at the end.
    fn scan_archive<R: io::Read>(
        shared: &Shared<'_>,
        printer: &Printer<'_>,
        out: &mut Vec<u8>,
        path: &Path,
        reader: WarcReader<R>,
    ) -> Flow {
        let (mut n, mut bytes) = (0, 0);
        let mut flow = Flow::Continue;
        for item in reader {
            let record = match item {
                Ok(r) => r,
                Err(e) => {
                    shared.error(format_args!("{}: {e}", path.display()));
                    continue;
                }
            };
            let payload = match record.record_type() {
                RecordType::Response => match record.http() {
                    Some(http) => http.payload().unwrap_or_default(),
                    None => record.block().into(),
                },
                RecordType::Resource | RecordType::Conversion => {
                    record.block().into()
                }
                _ => continue,
            };
            let page = Path::new(record.target_uri().unwrap_or(""));
            let label = Label::path(page, false);
            let matches = shared.cfg.finder.find_iter(&payload);
            let seen = shared.seen.as_ref();
            n += printer.file(out, &label, matches, &payload, seen);
            bytes += payload.len() as u64;
            if out.len() >= SPILL_AT {
                flow = write_out(shared, out);
                if flow != Flow::Continue {
                    break;
                }
            }
        }
        shared.files.fetch_add(1, Ordering::Relaxed);
        shared.bytes.fetch_add(bytes, Ordering::Relaxed);
        if n > 0 {
            shared.uris.fetch_add(n, Ordering::Relaxed);
            shared.found.store(true, Ordering::Relaxed);
        }
        match flow {
            Flow::Continue => write_out(shared, out),
            quit => quit,
        }
    }

    fn scan_stdin(&mut self) -> Flow {
        if self.shared.cfg.format == Some(InputFormat::Warc) {
            let reader = WarcReader::new(io::stdin().lock());
            let (shared, printer) = (self.shared, &self.printer);
            let path = Path::new("<stdin>");
            return Self::scan_archive(
                shared,
                printer,
                &mut self.out,
                path,
                reader,
            );
        }
        let contents = match self.reader.stream(io::stdin().lock()) {
            Ok(c) => c,
            Err(e) => {
                self.shared.error(Error::io(Path::new("<stdin>"), &e));
                return Flow::Continue;
            }
        };
        Self::scan(
            self.shared,
            &self.printer,
            &mut self.out,
            &Label::stdin(),
            contents,
        );
        self.flush()
    }

    fn scan(
        shared: &Shared<'_>,
        printer: &Printer<'_>,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        contents: Contents<'_>,
    ) {
        let seen = shared.seen.as_ref();
        let finder = &shared.cfg.finder;
        let (n, bytes) = match contents {
            Contents::Binary => {
                shared.binary.fetch_add(1, Ordering::Relaxed);
                return;
            }
            Contents::Text(bytes) => {
                let matches = finder.find_iter(bytes);
                let n = printer.file(out, label, matches, bytes, seen);
                (n, bytes.len() as u64)
            }
            Contents::Stream(rdr) => {
                let mut counted = CountingReader { inner: rdr, bytes: 0 };
                let mut n = 0;
                // Each match is printed while the stream's buffer holds
                // it: no copy of its URI or texts (the owned matches of
                // the stream's iterator cost 30% more instructions on
                // the Markdown corpus file). A stream may be of any size: its
                // output goes out in pieces of whole lines as it grows,
                // rather than held until the end.
                let ended = finder.stream(&mut counted).try_for_each_borrowed(
                    |m, t| {
                        let texts = Texts::Buffered(t);
                        n += u64::from(
                            printer.one(out, label, &m, texts, seen),
                        );
                        if out.len() >= SPILL_AT
                            && write_out(shared, out) != Flow::Continue
                        {
                            return ControlFlow::Break(());
                        }
                        ControlFlow::Continue(())
                    },
                );
                printer.file_end(out, label, n);
                if let Err(e) = ended {
                    // What was found before the error is still printed.
                    shared.error(format_args!(
                        "{}: {}",
                        String::from_utf8_lossy(label.raw()),
                        io_message(&e)
                    ));
                }
                (n, counted.bytes)
            }
        };
        shared.files.fetch_add(1, Ordering::Relaxed);
        shared.bytes.fetch_add(bytes, Ordering::Relaxed);
        if n > 0 {
            shared.uris.fetch_add(n, Ordering::Relaxed);
            shared.found.store(true, Ordering::Relaxed);
        }
    }

    /// Writes the file's output in one locked write.
    fn flush(&mut self) -> Flow {
        write_out(self.shared, &mut self.out)
    }
}

/// Writes `out` in one locked write and clears it; on a write error, says
/// so (unless the pipe was closed) and tells every worker to stop.
fn write_out(shared: &Shared<'_>, out: &mut Vec<u8>) -> Flow {
    if out.is_empty() {
        return Flow::Continue;
    }
    match write_stdout(out) {
        Ok(()) => Flow::Continue,
        Err(reason) => {
            if let Some(r) = reason {
                shared.error(format_args!("standard output: {r}"));
            }
            shared.quit.store(true, Ordering::Relaxed);
            Flow::Quit
        }
    }
}

/// Counts the bytes a stream delivered, for `--stats`.
struct CountingReader<R> {
    inner: R,
    bytes: u64,
}

impl<R: io::Read> io::Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// Scans every input; returns the exit code.
pub fn run(cfg: &Config) -> anyhow::Result<i32> {
    let start = Instant::now();
    let shared = Shared {
        cfg,
        found: AtomicBool::new(false),
        errored: AtomicBool::new(false),
        quit: AtomicBool::new(false),
        seen: cfg.unique.then(|| Mutex::new(HashSet::new())),
        files: AtomicU64::new(0),
        binary: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
        uris: AtomicU64::new(0),
    };
    // Standard input is read first, then the paths are walked together,
    // so that one pool serves all of them.
    for input in &cfg.inputs {
        if *input == Input::Stdin {
            Worker::new(&shared).scan_stdin();
        }
    }
    if cfg.inputs.iter().any(|i| matches!(i, Input::Path(_)))
        && !shared.quit.load(Ordering::Relaxed)
    {
        let walker = cfg.walker.build()?;
        walker
            .try_run(|| {
                let mut worker = Worker::new(&shared);
                move |entry| worker.visit(entry)
            })
            .map_err(|e| anyhow::anyhow!("{e} (try a lower -j)"))?;
    }
    if !shared.quit.load(Ordering::Relaxed)
        && let Err(e) = io::stdout().lock().flush()
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        shared.error(format_args!("standard output: {}", io_message(&e)));
    }
    if cfg.stats {
        print_stats(&shared, start.elapsed().as_secs_f64());
    }
    Ok(if shared.errored.load(Ordering::Relaxed) {
        2
    } else if shared.found.load(Ordering::Relaxed) {
        0
    } else {
        1
    })
}

fn print_stats(shared: &Shared<'_>, secs: f64) {
    let files = shared.files.load(Ordering::Relaxed);
    let binary = shared.binary.load(Ordering::Relaxed);
    let bytes = shared.bytes.load(Ordering::Relaxed);
    let uris = shared.uris.load(Ordering::Relaxed);
    let mbs = if secs > 0.0 { bytes as f64 / 1e6 / secs } else { 0.0 };
    let _ = write!(
        io::stderr().lock(),
        "{files} files scanned\n{binary} binary files skipped\n\
         {bytes} bytes scanned\n{uris} URIs\n{secs:.3} seconds\n\
         {mbs:.1} MB/s\n"
    );
}
