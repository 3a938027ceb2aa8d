//! `uriscan links`: every link of every document under the paths, read
//! by its format and resolved, on the shared [`worker`](crate::worker)
//! (one reader and extractor handle per worker; each file's output in one
//! locked write).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use uriscan::links::{
    Format, IncludeSelection, LinkRef, PathKind, RelativeInclude,
    browser_reading, file_uri,
};
use uriscan::walking::{Entry, Error, Flow};
use uriscan::warc::{
    ReadTally, WarcReader, for_each_record_link, is_archive, is_warc_name,
    open_archive,
};

use crate::config::{LinksConfig, Mode};
use crate::documents::{
    DocReader, Loaded, asciidoc_included_by, holds_listed_include,
    included_by, included_target,
};
use crate::report::json::{LinkRow, relative_to};
use crate::report::{Label, SPILL_AT, text};
use crate::worker::{self, Job, Output};
use uriscan::walking::io_message;

/// The record a link of a web archive came from.
struct RecordCtx<'a> {
    page: &'a str,
    record_id: &'a str,
    offset: u64,
    /// What `offset` counts.
    offset_kind: &'static str,
    /// The names of the record's warnings.
    warnings: Vec<&'static str>,
}

/// Runs `uriscan links`; returns the exit code.
pub fn run(cfg: LinksConfig) -> anyhow::Result<i32> {
    // Not to a terminal, the output of many files is written at once;
    // on one, each file's links show as soon as they are found.
    let shared =
        worker::Shared::new(cfg.listing.unique, !io::stdout().is_terminal());
    let listing = &cfg.listing;
    let included = Mutex::new(HashSet::new());
    worker::run(&shared, &listing.inputs, &listing.walker, || {
        Linker::new(&cfg, &shared, &included)
    })?;
    let _ = io::stdout().lock().flush();
    Ok(shared.exit_code())
}

/// Whether `link` points at `file` (or, for a directory target, at
/// the directory `file` is), and at `anchor` when one is asked for.
fn points_at(link: LinkRef<'_>, file: &Path, anchor: Option<&str>) -> bool {
    let Some(p) = link.file_path() else { return false };
    // Ask the file system (symbolic links, `..`) only when the names agree.
    if p.file_name() != file.file_name() {
        return false;
    }
    let p = std::fs::canonicalize(&p).unwrap_or(p);
    if p != file {
        return false;
    }
    match anchor {
        None => true,
        Some(a) => link.fragment().is_some_and(|f| f == a),
    }
}

/// The files read as included: each path with the part of it read.
type Included = HashSet<(PathBuf, Option<IncludeSelection>)>;

/// One worker's reusable state.
struct Linker<'c> {
    cfg: &'c LinksConfig,
    shared: &'c worker::Shared,
    reader: DocReader,
    /// The files read as included, by every worker: each once (an
    /// AsciiDoc file once for each part of it an include takes).
    included: &'c Mutex<Included>,
}

impl Job for Linker<'_> {
    fn stdin(&mut self, out: &mut Output<'_>) -> Flow {
        if self.cfg.all_warc {
            let reader = WarcReader::new(io::stdin().lock());
            return self.warc(out, &Label::stdin(), reader);
        }
        let (loaded, err) = self.reader.load_stdin(&self.cfg.sources);
        if let Some(e) = err {
            self.shared.error(format_args!("<stdin>: {}", io_message(&e)));
        }
        if self.cfg.sources.format.is_none() && is_archive(self.reader.doc()) {
            return self.warc_in_buffer(out, &Label::stdin());
        }
        self.emit(out, &Label::stdin(), &loaded);
        out.flush()
    }

    fn entry(&mut self, entry: &Entry, out: &mut Output<'_>) -> Flow {
        let path = entry.path();
        let cfg = self.cfg;
        let label = Label::path(path, cfg.listing.implicit_dir);
        if cfg.all_warc || (cfg.sources.format.is_none() && is_warc_name(path))
        {
            return match std::fs::File::open(path) {
                Ok(f) => self.warc(out, &label, WarcReader::new(f)),
                Err(e) => {
                    self.shared.error(Error::io(path, &e));
                    Flow::Continue
                }
            };
        }
        let (loaded, err) = self.reader.load_entry(&cfg.sources, entry);
        let skipped = loaded.is_none() && err.is_none();
        if let Some(e) = err {
            // What was read before an error is still read for links.
            self.shared.error(e.message(path));
        }
        // A web archive by its first bytes, whatever its name: plain, or
        // gzip, which is skipped as binary without `-z`.
        let sniff = cfg.sources.format.is_none();
        if let Some(loaded) = loaded {
            if sniff && is_archive(self.reader.doc()) {
                return self.warc_in_buffer(out, &label);
            }
            self.emit(out, &label, &loaded);
            self.follow_includes(out, path, &loaded);
        } else if sniff
            && skipped
            && std::fs::metadata(path).is_ok_and(|m| m.is_file())
        {
            match open_archive(path) {
                Ok(Some(reader)) => return self.warc(out, &label, reader),
                Ok(None) => {}
                Err(e) => self.shared.error(Error::io(path, &e)),
            }
        }
        out.file_done()
    }
}

impl<'c> Linker<'c> {
    fn new(
        cfg: &'c LinksConfig,
        shared: &'c worker::Shared,
        included: &'c Mutex<Included>,
    ) -> Linker<'c> {
        let listing = &cfg.listing;
        let mut reader = DocReader::new(listing.search_zip, listing.text);
        reader.map_named(cfg.map_named);
        Linker { cfg, shared, reader, included }
    }

    /// The links of each file that the reStructuredText, MyST or AsciiDoc
    /// document just read (at `path`) includes, followed in turn, as `check`
    /// follows them: each file once in the run, none outside the
    /// document's root, one of the includer's own format left to the
    /// walk. Each file's links are listed at its own path and lines,
    /// resolved against the includer, where docutils inserts them (an
    /// include inside names a file from its own directory).
    fn follow_includes(
        &mut self,
        out: &mut Output<'_>,
        path: &Path,
        loaded: &Loaded,
    ) {
        if !holds_listed_include(loaded.format, self.reader.doc()) {
            return;
        }
        let cfg = self.cfg;
        let bound = match &loaded.root {
            Some(r) => r.clone(),
            None => loaded.abs.parent().unwrap_or(Path::new("/")).into(),
        };
        if loaded.format == Format::AsciiDoc {
            return self.follow_asciidoc_includes(out, path, loaded, &bound);
        }
        for (file, relative) in included_by(loaded, &bound) {
            if Format::from_path(&file) == Format::from_path(&loaded.abs)
                || !self.first_read(&file, None)
            {
                continue;
            }
            let bytes = match std::fs::read(&file) {
                Ok(b) => b,
                Err(e) => {
                    self.shared.error(Error::io(&file, &e));
                    continue;
                }
            };
            let own = file_uri(&file, PathKind::File);
            let page = cfg.sources.page(&bytes, loaded).url(&own);
            self.list_included(out, (path, loaded), &file, page, relative);
        }
    }

    /// Lists the links of `page`, the text of `file` as the document
    /// `loaded` (listed at `path`) includes it, at the file's own path
    /// and lines: resolved against the includer (or against `file` where
    /// `relative` says), an include inside from the file's directory.
    fn list_included<'p>(
        &mut self,
        out: &mut Output<'_>,
        (path, loaded): (&Path, &'p Loaded),
        file: &Path,
        mut page: uriscan::links::Page<'p>,
        relative: Option<RelativeInclude>,
    ) {
        let cfg = self.cfg;
        let shown = shown_path(path, &loaded.abs, file);
        let label = Label::path(&shown, cfg.listing.implicit_dir);
        if cfg.sources.base_url.is_none() {
            page = page.base(&loaded.url);
        }
        let (root, mut count) = (loaded.root.as_deref(), 0u64);
        cfg.sources.extractor.for_each(&page, |link| {
            let target = included_target(link, file, relative.as_ref());
            let link = match &target {
                Some(t) => link.with_target(t),
                None => link,
            };
            count +=
                u64::from(self.one(&mut out.buf, &label, link, root, None));
        });
        self.file_end(&mut out.buf, &label, count);
    }

    /// Whether the part `selection` of `file` is read as included for
    /// the first time in the run.
    fn first_read(
        &self,
        file: &Path,
        selection: Option<&IncludeSelection>,
    ) -> bool {
        let mut read = self.included.lock().unwrap_or_else(|e| e.into_inner());
        read.insert((file.to_path_buf(), selection.cloned()))
    }

    /// [`Linker::follow_includes`] for an AsciiDoc document: each file
    /// read as Asciidoctor inserts it (the part `tag=` or `lines=` takes,
    /// with the attributes where it is included), once for each part;
    /// an include in a listing is not read.
    fn follow_asciidoc_includes(
        &mut self,
        out: &mut Output<'_>,
        path: &Path,
        loaded: &Loaded,
        bound: &Path,
    ) {
        let cfg = self.cfg;
        let text = String::from_utf8_lossy(self.reader.doc()).into_owned();
        for included in asciidoc_included_by(loaded, &text, bound) {
            let file = &included.file;
            if Format::from_path(file) == Format::AsciiDoc
                || !self.first_read(file, included.selection.as_ref())
            {
                continue;
            }
            let own = file_uri(file, PathKind::File);
            let page = cfg
                .sources
                .page(included.text.as_bytes(), loaded)
                .url(&own)
                .attributes(&included.attributes);
            self.list_included(out, (path, loaded), file, page, None);
        }
    }

    /// Reads the document just loaded as a web archive.
    fn warc_in_buffer(
        &mut self,
        out: &mut Output<'_>,
        label: &Label<'_>,
    ) -> Flow {
        let doc = self.reader.take_doc();
        let flow = self.warc(out, label, WarcReader::new(&doc[..]));
        self.reader.restore_doc(doc);
        flow
    }

    /// Every link of every record of a web archive, each record's output
    /// written as the buffer fills: an archive may be of any size.
    fn warc<R: io::Read>(
        &mut self,
        out: &mut Output<'_>,
        label: &Label<'_>,
        reader: WarcReader<R>,
    ) -> Flow {
        let cfg = self.cfg;
        let mut count = 0u64;
        let mut tally = ReadTally::new();
        let name = label.lossy();
        let say = |m: uriscan::warc::ReadMessage| {
            self.shared.error(format_args!("{name}: {m}"));
        };
        for item in reader {
            let record = match item {
                Ok(r) => r,
                Err(e) => {
                    tally.error(&e, say);
                    continue;
                }
            };
            let warnings = record.warnings();
            tally.record_with(!warnings.is_empty(), say);
            let ctx = RecordCtx {
                page: record.target_uri().unwrap_or(""),
                record_id: record.record_id().unwrap_or(""),
                offset: record.offset(),
                offset_kind: record.offset_kind().as_str(),
                // Only the JSON rows show them.
                warnings: match cfg.listing.mode {
                    Mode::Json => {
                        warnings.iter().map(|w| w.as_str()).collect()
                    }
                    _ => vec![],
                },
            };
            for_each_record_link(&record, &cfg.sources.extractor, |link| {
                let printed =
                    self.one(&mut out.buf, label, link, None, Some(&ctx));
                count += u64::from(printed);
            });
            if out.buf.len() >= SPILL_AT && out.flush() == Flow::Quit {
                return Flow::Quit;
            }
        }
        tally.finish(say);
        archive_summary(label, &tally);
        self.file_end(&mut out.buf, label, count);
        out.flush()
    }

    fn emit(
        &mut self,
        out: &mut Output<'_>,
        label: &Label<'_>,
        loaded: &Loaded,
    ) {
        let cfg = self.cfg;
        // Out of the reader while its links are printed by `self`.
        let doc = self.reader.take_doc();
        let page = cfg.sources.page(&doc, loaded);
        let root = loaded.root.as_deref();
        let mut count = 0u64;
        // Standard output, once this document's output has outgrown
        // [`SPILL_AT`]: held to its end, so that its lines stay together
        // while the buffer stays small.
        let mut held = None;
        // Each link printed as it is handed out, borrowed: no allocation
        // per link, nor a vector of every link of the page.
        let this = &*self;
        cfg.sources.extractor.for_each(&page, |link| {
            count +=
                u64::from(this.one(&mut out.buf, label, link, root, None));
            if out.buf.len() >= SPILL_AT {
                out.spill_held(&mut held);
            }
        });
        self.reader.restore_doc(doc);
        self.file_end(&mut out.buf, label, count);
        if held.is_some() {
            out.spill_held(&mut held);
        }
    }

    /// Filters and prints one link; whether it was printed.
    fn one(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        link: LinkRef<'_>,
        root: Option<&Path>,
        ctx: Option<&RecordCtx<'_>>,
    ) -> bool {
        let cfg = self.cfg;
        if let Some((file, anchor)) = &cfg.to
            && !points_at(link, file, anchor.as_deref())
        {
            return false;
        }
        if cfg.rewrite.excludes(link) {
            return false;
        }
        let target = link.target().map(|t| cfg.rewrite.target(t));
        let shown = target.as_deref().unwrap_or(link.link());
        if let Some(seen) = self.shared.seen()
            && !seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(shown.to_owned())
        {
            return false;
        }
        self.print(out, label, link, target.as_deref(), root, ctx);
        true
    }

    /// The count line of `-c`, and the found flag.
    fn file_end(&self, out: &mut Vec<u8>, label: &Label<'_>, count: u64) {
        let listing = &self.cfg.listing;
        if count > 0 {
            self.shared.found();
            if listing.mode == Mode::Count {
                text::count_line(out, false, listing.null, label.raw(), count);
            }
        }
    }

    fn print(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        link: LinkRef<'_>,
        target: Option<&str>,
        root: Option<&Path>,
        ctx: Option<&RecordCtx<'_>>,
    ) {
        let cfg = self.cfg;
        let listing = &cfg.listing;
        let shown = target.unwrap_or(link.link());
        match listing.mode {
            Mode::Count => {}
            // Only the scan colours a URI alone.
            Mode::OnlyUri => text::uri_line(out, false, listing.null, shown),
            Mode::Standard => {
                // A record's page stands where a file's path does.
                let path = ctx.map_or(label.raw(), |c| c.page.as_bytes());
                let at = (link.line(), link.column());
                text::link_line(
                    out,
                    listing.color,
                    listing.null,
                    path,
                    at,
                    link.link(),
                );
            }
            Mode::Json => {
                let mut row =
                    LinkRow::new(label, link, root, &cfg.sources.cwd);
                row.target = target.map(Cow::Borrowed);
                if let Some(c) = ctx {
                    row.page = Some(c.page);
                    row.record_id = Some(c.record_id);
                    row.record_offset = Some(c.offset);
                    row.offset_kind = Some(c.offset_kind);
                    if !c.warnings.is_empty() {
                        row.warnings = Some(Cow::Borrowed(&c.warnings));
                    }
                }
                if let Some(differs) = cfg
                    .browser_warnings
                    .then(|| browser_reading(link.link()))
                    .flatten()
                {
                    let mut all = row.warnings.take().unwrap_or_default();
                    all.to_mut().push(differs.as_str());
                    row.warnings = Some(all);
                }
                let _ = serde_json::to_writer(&mut *out, &row);
                out.push(b'\n');
            }
        }
    }
}

/// The path an included file `file` is listed at: relative to the
/// directory of its includer (listed at `shown`, whose absolute path is
/// `abs`) as the includer is listed, else absolute.
fn shown_path(shown: &Path, abs: &Path, file: &Path) -> PathBuf {
    let (Some(from), Some(listed)) = (abs.parent(), shown.parent()) else {
        return file.to_path_buf();
    };
    // Paths with nothing in common (another drive) have no relative form.
    let first = from.components().next();
    if first.is_none() || first != file.components().next() {
        return file.to_path_buf();
    }
    listed.join(relative_to(from, file))
}

/// The counts of an archive that had damaged records or records with
/// warnings, on standard error: `N records read, W with warnings, D
/// damaged`.
pub fn archive_summary(label: &Label<'_>, tally: &ReadTally) {
    if tally.damaged() == 0 && tally.with_warnings() == 0 {
        return;
    }
    let _ = writeln!(
        io::stderr().lock(),
        "uriscan: {}: {} records read, {} with warnings, {} damaged",
        label.lossy(),
        tally.records(),
        tally.with_warnings(),
        tally.damaged()
    );
}
