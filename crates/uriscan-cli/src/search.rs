//! The scan (the default command): every input read and searched for URIs
//! on the shared [`worker`](crate::worker), each worker owning a
//! [`FileReader`] for its whole life, each file's output written with one
//! locked write.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use uriscan::reading::{Contents, FileReader};
use uriscan::walking::{Entry, Error, Flow};
use uriscan::warc::{ReadTally, RecordType, WarcReader};

use crate::args::InputFormat;
use crate::config::ScanConfig;
use crate::report::json::Texts;
use crate::report::scan::Printer;
use crate::report::{Label, SPILL_AT};
use crate::worker::{self, Job, Output};
use uriscan::walking::io_message;

/// The scan's state shared by the workers: the configuration, the run's
/// state, and the tallies of `--stats`.
struct Shared<'c> {
    cfg: &'c ScanConfig,
    run: worker::Shared,
    files: AtomicU64,
    binary: AtomicU64,
    bytes: AtomicU64,
    uris: AtomicU64,
    /// Web archives' records: read, read with warnings, damaged.
    records: AtomicU64,
    warned: AtomicU64,
    damaged: AtomicU64,
}

impl Shared<'_> {
    fn error(&self, msg: impl std::fmt::Display) {
        self.run.error(msg);
    }

    /// Adds a file's tallies; `uris` printed (or counted) of `bytes`.
    fn tally(&self, uris: u64, bytes: u64) {
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        if uris > 0 {
            self.uris.fetch_add(uris, Ordering::Relaxed);
            self.run.found();
        }
    }
}

/// One worker's reusable state.
struct Scanner<'s, 'c> {
    shared: &'s Shared<'c>,
    reader: FileReader,
    printer: Printer<'c>,
}

impl Job for Scanner<'_, '_> {
    fn stdin(&mut self, out: &mut Output<'_>) -> Flow {
        self.scan_stdin(out)
    }

    fn entry(&mut self, entry: &Entry, out: &mut Output<'_>) -> Flow {
        self.scan_path(entry.path(), out)
    }
}

impl<'s, 'c> Scanner<'s, 'c> {
    fn new(shared: &'s Shared<'c>) -> Scanner<'s, 'c> {
        let mut reader = FileReader::new();
        reader.decompress(shared.cfg.search_zip).skip_binary(!shared.cfg.text);
        Scanner { shared, reader, printer: Printer::new(shared.cfg) }
    }

    fn scan_path(&mut self, path: &Path, out: &mut Output<'_>) -> Flow {
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
            return Self::scan_archive(shared, printer, out, path, reader);
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
        // A web archive by its first bytes, whatever its name: plain, or
        // gzip (skipped as binary, or decompressed by `-z`).
        if let Contents::Text(bytes) = contents
            && format.is_none()
            && uriscan::warc::is_archive(bytes)
        {
            let reader = WarcReader::new(bytes);
            let (shared, printer) = (self.shared, &self.printer);
            return Self::scan_archive(shared, printer, out, path, reader);
        }
        let stream = matches!(contents, Contents::Stream(_));
        // Opened again to look at its first bytes: a regular file only (a
        // FIFO's bytes, once read, are gone).
        if (stream || matches!(contents, Contents::Binary))
            && format.is_none()
            && std::fs::metadata(path).is_ok_and(|m| m.is_file())
        {
            drop(contents);
            match uriscan::warc::open_archive(path) {
                Ok(Some(reader)) => {
                    let (shared, printer) = (self.shared, &self.printer);
                    return Self::scan_archive(
                        shared, printer, out, path, reader,
                    );
                }
                Ok(None) => {}
                Err(e) => {
                    self.shared.error(Error::io(path, &e));
                    return Flow::Continue;
                }
            }
            // A stream is read again from its start.
            let contents = match stream {
                false => Contents::Binary,
                true => match self.reader.read(path) {
                    Ok(c) => c,
                    Err(e) => {
                        self.shared.error(Error::io(path, &e));
                        return Flow::Continue;
                    }
                },
            };
            let label = Label::path(path, self.shared.cfg.implicit_dir);
            Self::scan(self.shared, &self.printer, out, &label, contents);
            return out.flush();
        }
        let label = Label::path(path, self.shared.cfg.implicit_dir);
        Self::scan(self.shared, &self.printer, out, &label, contents);
        out.flush()
    }

    /// A web archive: the payload of each `response`, `resource` and
    /// `conversion` record is scanned as a text of its own, named by the
    /// record's `WARC-Target-URI`; the output is written as it fills,
    /// and the rest at the end.
    fn scan_archive<R: io::Read>(
        shared: &Shared<'_>,
        printer: &Printer<'_>,
        out: &mut Output<'_>,
        path: &Path,
        reader: WarcReader<R>,
    ) -> Flow {
        let (mut n, mut bytes) = (0, 0);
        let mut flow = Flow::Continue;
        let mut tally = ReadTally::new();
        let say = |m: uriscan::warc::ReadMessage| {
            shared.error(format_args!("{}: {m}", path.display()));
        };
        for item in reader {
            let record = match item {
                Ok(r) => r,
                Err(e) => {
                    tally.error(&e, say);
                    continue;
                }
            };
            tally.record(&record, say);
            let payload = match record.record_type() {
                RecordType::Response => match record.http() {
                    // Decoded once, with the warnings counted above.
                    Some(_) => record.payload().unwrap_or_default(),
                    None => record.block(),
                },
                RecordType::Resource | RecordType::Conversion => {
                    record.block()
                }
                _ => continue,
            };
            let page = Path::new(record.target_uri().unwrap_or(""));
            let label = Label::path(page, false);
            let matches = shared.cfg.finder.find_iter(payload);
            let seen = shared.run.seen();
            n += printer.file(&mut out.buf, &label, matches, payload, seen);
            bytes += payload.len() as u64;
            if out.buf.len() >= SPILL_AT {
                flow = out.flush();
                if flow != Flow::Continue {
                    break;
                }
            }
        }
        tally.finish(say);
        crate::links::archive_summary(&Label::path(path, false), &tally);
        shared.records.fetch_add(tally.records(), Ordering::Relaxed);
        shared.warned.fetch_add(tally.with_warnings(), Ordering::Relaxed);
        shared.damaged.fetch_add(tally.damaged(), Ordering::Relaxed);
        shared.tally(n, bytes);
        match flow {
            Flow::Continue => out.flush(),
            quit => quit,
        }
    }

    fn scan_stdin(&mut self, out: &mut Output<'_>) -> Flow {
        if self.shared.cfg.format == Some(InputFormat::Warc) {
            let reader = WarcReader::new(io::stdin().lock());
            let (shared, printer) = (self.shared, &self.printer);
            let path = Path::new("<stdin>");
            return Self::scan_archive(shared, printer, out, path, reader);
        }
        let contents = match self.reader.stream(io::stdin().lock()) {
            Ok(c) => c,
            Err(e) => {
                self.shared.error(Error::io(Path::new("<stdin>"), &e));
                return Flow::Continue;
            }
        };
        let label = Label::stdin();
        Self::scan(self.shared, &self.printer, out, &label, contents);
        out.flush()
    }

    /// Appends a text's output to `out`; a stream's goes out in pieces
    /// as it grows.
    fn scan(
        shared: &Shared<'_>,
        printer: &Printer<'_>,
        out: &mut Output<'_>,
        label: &Label<'_>,
        contents: Contents<'_>,
    ) {
        let seen = shared.run.seen();
        let finder = &shared.cfg.finder;
        let (n, bytes) = match contents {
            Contents::Binary => {
                shared.binary.fetch_add(1, Ordering::Relaxed);
                return;
            }
            Contents::Text(bytes) => {
                let matches = finder.find_iter(bytes);
                let n =
                    printer.file(&mut out.buf, label, matches, bytes, seen);
                (n, bytes.len() as u64)
            }
            Contents::Stream(rdr) => {
                let mut counted = CountingReader { inner: rdr, bytes: 0 };
                let mut n = 0;
                // Each match is printed while the stream's buffer holds
                // it, with no copy of its URI or texts. A stream may be of
                // any size: its output goes out in pieces of whole lines
                // as it grows, rather than held until the end.
                let ended = finder.stream(&mut counted).try_for_each_borrowed(
                    |m, t| {
                        let texts = Texts::Buffered(t);
                        n += u64::from(printer.one(
                            &mut out.buf,
                            label,
                            m,
                            texts,
                            seen,
                        ));
                        if out.buf.len() >= SPILL_AT
                            && out.flush() != Flow::Continue
                        {
                            return ControlFlow::Break(());
                        }
                        ControlFlow::Continue(())
                    },
                );
                printer.file_end(&mut out.buf, label, n);
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
        shared.tally(n, bytes);
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
pub fn run(cfg: &ScanConfig) -> anyhow::Result<i32> {
    let start = Instant::now();
    let shared = Shared {
        cfg,
        // Each file's output goes out as soon as it is scanned.
        run: worker::Shared::new(cfg.unique, false),
        files: AtomicU64::new(0),
        binary: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
        uris: AtomicU64::new(0),
        records: AtomicU64::new(0),
        warned: AtomicU64::new(0),
        damaged: AtomicU64::new(0),
    };
    worker::run(&shared.run, &cfg.inputs, &cfg.walker, || {
        Scanner::new(&shared)
    })?;
    if !shared.run.quitting()
        && let Err(e) = io::stdout().lock().flush()
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        shared.error(format_args!("standard output: {}", io_message(&e)));
    }
    if cfg.stats {
        print_stats(&shared, start.elapsed().as_secs_f64());
    }
    Ok(shared.run.exit_code())
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
    // Only a run that met a web archive counts records.
    let records = shared.records.load(Ordering::Relaxed);
    let warned = shared.warned.load(Ordering::Relaxed);
    let damaged = shared.damaged.load(Ordering::Relaxed);
    if records + damaged > 0 {
        let _ = write!(
            io::stderr().lock(),
            "{records} archive records read\n\
             {warned} archive records with warnings\n\
             {damaged} archive records damaged\n"
        );
    }
}
