//! `uriscan links`: every link of every document under the paths, read
//! by its format and resolved, on the walker's threads as the main
//! command does (one reader, extractor handle and output buffer per
//! worker; each file's output in one locked write).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use clap::ValueEnum;
use serde::Serialize;
use uriscan::links::{Format, LinkExtractor, LinkRef, Role};
use uriscan::walking::{Entry, Error, Flow};
use uriscan::warc::{
    WarcReader, for_each_record_link, has_warc_magic, is_warc_name,
};

use uriscan::walking::io_message;

use super::args::{DocArgs, OutputArgs, WalkArgs};
use super::config::{Common, Env, Input, Mode};
use super::documents::{DocReader, Loaded, Sources};
use super::printer::{Label, SPILL_AT, write_stdout, write_to};
use super::rewrite::Rewrite;

const AFTER_HELP: &str = "\
Exit status: 0 when a link was found, 1 when none was, 2 on an error (the \
other paths are still read).

The format comes from the extension: .md .markdown .mdown .mkd are \
Markdown, .html .htm .xhtml HTML, .warc .warc.gz .wet .wet.gz web archives \
(also found by their WARC/1. start), anything else text (its bare URIs).

In a web archive, each response record's HTML (or Markdown) payload is read \
with the record's WARC-Target-URI as its URL, with the Location of a \
redirect, Content-Location and Link headers (kinds http:location, \
http:content-location, http:link); each WET conversion record's text for \
its bare URIs. Lines start with the record's page instead of a path; JSON \
rows add page, record_id and record_offset (the record's gzip member). A \
damaged record is reported with its offset and reading goes on.

Targets are rewritten in this order: --normalize, --idna, --no-fragment, \
--surt (which implies --idna); -o, -u and JSON's target show the result.

A relative link resolves against --base-url, else the document's <base \
href>, else the file's own location. A root-relative link (/x) resolves \
under --root, by default the top of the git repository for Markdown (as \
GitHub renders it) and the walked directory for HTML.

Examples:
  uriscan links docs/                   path:line:column:link
  uriscan links -o -u site/             each resolved target once
  uriscan links --json README.md | jq 'select(.local)'
  uriscan links --base-url https://example.com/ --format html < page.html
  uriscan links -o -u --exclude-scheme javascript,data --no-fragment crawl.warc.gz";

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// CommonMark with the GitHub extensions.
    Markdown,
    /// HTML.
    Html,
    /// Plain text: bare URIs.
    Text,
    /// A WARC or WET file (plain or gzip), whatever its name.
    Warc,
}

/// The arguments of `uriscan links`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct LinksArgs {
    /// Files or directories to read; `-` is standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub output: OutputArgs,

    // ---- Links ----
    /// Read every file as this format (default: by extension; standard
    /// input is text).
    #[arg(long, value_name = "FORMAT", help_heading = "Links")]
    pub format: Option<FormatArg>,
    /// Resolve relative links against this URL instead of each file's
    /// location or <base href>.
    #[arg(long, value_name = "URL", help_heading = "Links")]
    pub base_url: Option<String>,
    /// The directory that root-relative links (`/x`) resolve under.
    #[arg(long, value_name = "DIR", help_heading = "Links")]
    pub root: Option<PathBuf>,
    /// Also list the URIs in Markdown code spans and blocks (kind `code`).
    #[arg(long, help_heading = "Links")]
    pub include_code: bool,
    /// Also list the bare URIs in HTML text (kind `text`).
    #[arg(long, help_heading = "Links")]
    pub include_text: bool,
    /// Only the links that point at FILE (a file or directory), and with
    /// `#ANCHOR` at that anchor: who links here, before a rename.
    #[arg(long, value_name = "FILE[#ANCHOR]", help_heading = "Links")]
    pub to: Option<String>,

    // ---- Crawling ----
    /// Drop the links with these schemes (comma-separated,
    /// case-insensitive), e.g. javascript,data,mailto.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Crawling"
    )]
    pub exclude_scheme: Vec<String>,
    /// Print each target in its syntax-based normal form (RFC 3986
    /// 6.2.2).
    #[arg(long, help_heading = "Crawling")]
    pub normalize: bool,
    /// Print hosts in their ASCII (punycode) form, by IDNA (UTS 46).
    #[arg(long, help_heading = "Crawling")]
    pub idna: bool,
    /// Drop the fragment (`#...`) of each target, for deduplication.
    #[arg(long, help_heading = "Crawling")]
    pub no_fragment: bool,
    /// Print each target as its SURT key, the form of Common Crawl's index
    /// (`org,archive)/goo?a=1&b`); implies --idna.
    #[arg(long, help_heading = "Crawling")]
    pub surt: bool,

    #[command(flatten)]
    pub walk: WalkArgs,

    #[command(flatten)]
    pub doc: DocArgs,
}

/// The resolved configuration of `links`.
struct LinksConfig {
    common: Common,
    sources: Sources,
    /// `--to`: the canonical path, and the anchor.
    to: Option<(PathBuf, Option<String>)>,
    /// `--format warc`.
    warc: bool,
    rewrite: Rewrite,
    /// Not `--no-mmap`.
    map_named: bool,
}

/// The record a link of a web archive came from.
struct RecordCtx<'a> {
    page: &'a str,
    record_id: &'a str,
    offset: u64,
}

/// Runs `uriscan links`; returns the exit code.
pub fn run(args: LinksArgs) -> anyhow::Result<i32> {
    let env = Env::current();
    let common = Common::new(&args.output, &args.walk, args.paths, env)?;
    let mut extractor = LinkExtractor::builder();
    extractor.include_code(args.include_code).include_text(args.include_text);
    let warc = args.format == Some(FormatArg::Warc);
    let format = args.format.and_then(|f| match f {
        FormatArg::Markdown => Some(Format::Markdown),
        FormatArg::Html => Some(Format::Html),
        FormatArg::Text => Some(Format::Text),
        FormatArg::Warc => None,
    });
    for s in &args.exclude_scheme {
        if !uriscan::syntax::is_scheme(s) {
            anyhow::bail!("invalid scheme in --exclude-scheme: {s:?}");
        }
    }
    let rewrite = Rewrite {
        exclude: args
            .exclude_scheme
            .iter()
            .map(|s| s.to_ascii_lowercase())
            .collect(),
        normalize: args.normalize,
        idna: args.idna,
        no_fragment: args.no_fragment,
        surt: args.surt,
    };
    let sources = Sources::new(
        &common.inputs,
        extractor.build(),
        format,
        args.base_url,
        args.root.as_deref(),
    )?;
    let to = match &args.to {
        None => None,
        Some(t) => {
            let (file, anchor) = match t.split_once('#') {
                Some((f, a)) => (f, Some(a.to_owned())),
                None => (t.as_str(), None),
            };
            let path = std::fs::canonicalize(file)
                .with_context(|| format!("--to {file}"))?;
            Some((path, anchor))
        }
    };
    let map_named = !args.doc.no_mmap;
    let cfg = LinksConfig { common, sources, to, warc, rewrite, map_named };
    let shared = Shared {
        cfg: &cfg,
        found: AtomicBool::new(false),
        errored: AtomicBool::new(false),
        quit: AtomicBool::new(false),
        seen: cfg.common.unique.then(|| Mutex::new(HashSet::new())),
        batch: !io::stdout().is_terminal(),
    };
    for input in &cfg.common.inputs {
        if *input == Input::Stdin {
            Worker::new(&shared).stdin();
        }
    }
    if cfg.common.inputs.iter().any(|i| matches!(i, Input::Path(_)))
        && !shared.quit.load(Ordering::Relaxed)
    {
        let walker = cfg.common.walker.build()?;
        walker.run(|| {
            let mut worker = Worker::new(&shared);
            move |entry| worker.visit(entry)
        });
    }
    let _ = io::stdout().lock().flush();
    Ok(if shared.errored.load(Ordering::Relaxed) {
        2
    } else if shared.found.load(Ordering::Relaxed) {
        0
    } else {
        1
    })
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

/// `path` relative to `dir` (both absolute), with `..` where it is not
/// below it.
fn relative_to(dir: &Path, path: &Path) -> PathBuf {
    let d: Vec<_> = dir.components().collect();
    let p: Vec<_> = path.components().collect();
    let common = d.iter().zip(&p).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}

struct Shared<'c> {
    cfg: &'c LinksConfig,
    found: AtomicBool,
    errored: AtomicBool,
    quit: AtomicBool,
    seen: Option<Mutex<HashSet<String>>>,
    /// Whether the output of many files is written at once: not to a
    /// terminal, where each file's links show as soon as they are found.
    batch: bool,
}

impl Shared<'_> {
    fn error(&self, msg: impl std::fmt::Display) {
        self.errored.store(true, Ordering::Relaxed);
        let _ = writeln!(io::stderr().lock(), "uriscan: {msg}");
    }
}

struct Worker<'s, 'c> {
    shared: &'s Shared<'c>,
    reader: DocReader,
    out: Vec<u8>,
}

impl<'s, 'c> Worker<'s, 'c> {
    fn new(shared: &'s Shared<'c>) -> Self {
        let common = &shared.cfg.common;
        Worker {
            shared,
            reader: {
                let mut r = DocReader::new(common.search_zip, common.text);
                r.map_named(shared.cfg.map_named);
                r
            },
            out: vec![],
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
            Ok(entry) => self.file(&entry),
        }
    }

    fn stdin(&mut self) -> Flow {
        if self.shared.cfg.warc {
            let reader = WarcReader::new(io::stdin().lock());
            return self.warc(&Label::stdin(), reader);
        }
        let (loaded, err) = self.reader.load_stdin(&self.shared.cfg.sources);
        if let Some(e) = err {
            self.shared.error(format_args!("<stdin>: {}", io_message(&e)));
        }
        if self.shared.cfg.sources.format.is_none()
            && has_warc_magic(self.reader.doc())
        {
            return self.warc_in_buffer(&Label::stdin());
        }
        self.emit(&Label::stdin(), &loaded);
        self.flush()
    }

    fn file(&mut self, entry: &Entry) -> Flow {
        let path = entry.path();
        let cfg = self.shared.cfg;
        let label = Label::path(path, cfg.common.implicit_dir);
        if cfg.warc || (cfg.sources.format.is_none() && is_warc_name(path)) {
            return match std::fs::File::open(path) {
                Ok(f) => self.warc(&label, WarcReader::new(f)),
                Err(e) => {
                    self.shared.error(Error::io(path, &e));
                    Flow::Continue
                }
            };
        }
        let (loaded, err) = self.reader.load_entry(&cfg.sources, entry);
        if let Some(e) = err {
            // What was read before an error is still read for links.
            self.shared.error(e.message(path));
        }
        if let Some(loaded) = loaded {
            // A web archive by its first bytes, whatever its name.
            if cfg.sources.format.is_none()
                && has_warc_magic(self.reader.doc())
            {
                return self.warc_in_buffer(&label);
            }
            self.emit(&label, &loaded);
        }
        self.file_done()
    }

    /// A file's output is whole in the buffer: write it now on a
    /// terminal, else once the buffer holds [`SPILL_AT`] bytes. One write
    /// for many small files (a docs tree: a write per file was a tenth of
    /// the system calls); each file's lines stay together either way.
    fn file_done(&mut self) -> Flow {
        if self.shared.batch && self.out.len() < SPILL_AT {
            return Flow::Continue;
        }
        self.flush()
    }

    /// Reads the document just loaded as a web archive.
    fn warc_in_buffer(&mut self, label: &Label<'_>) -> Flow {
        let doc = self.reader.take_doc();
        let flow = self.warc(label, WarcReader::new(&doc[..]));
        self.reader.restore_doc(doc);
        flow
    }

    /// Every link of every record of a web archive, each record's output
    /// written as the buffer fills: an archive may be of any size.
    fn warc<R: io::Read>(
        &mut self,
        label: &Label<'_>,
        reader: WarcReader<R>,
    ) -> Flow {
        let cfg = self.shared.cfg;
        let mut count = 0u64;
        for item in reader {
            let record = match item {
                Ok(r) => r,
                Err(e) => {
                    self.shared.error(format_args!("{}: {e}", label.lossy()));
                    continue;
                }
            };
            let ctx = RecordCtx {
                page: record.target_uri().unwrap_or(""),
                record_id: record.record_id().unwrap_or(""),
                offset: record.offset(),
            };
            for_each_record_link(&record, &cfg.sources.extractor, |link| {
                count += u64::from(self.one(label, link, None, Some(&ctx)));
            });
            if self.out.len() >= SPILL_AT && self.flush() == Flow::Quit {
                return Flow::Quit;
            }
        }
        self.file_end(label, count);
        self.flush()
    }

    fn emit(&mut self, label: &Label<'_>, loaded: &Loaded) {
        let cfg = self.shared.cfg;
        // Out of the reader while its links are printed by `self`.
        let doc = self.reader.take_doc();
        let page = cfg.sources.page(&doc, loaded);
        let root = loaded.root.as_deref();
        let mut count = 0u64;
        // Standard output, once this document's output has outgrown
        // [`SPILL_AT`]: held to its end, so that its lines stay together
        // while the buffer stays small (an 8 MB page's 2.5 MB of output,
        // grown in one buffer, was a twentieth of `links -o` on it).
        let mut held = None;
        // Each link printed as it is handed out, borrowed: no allocation
        // per link, nor a vector of every link of the page.
        cfg.sources.extractor.for_each(&page, |link| {
            count += u64::from(self.one(label, link, root, None));
            if self.out.len() >= SPILL_AT {
                self.spill(&mut held);
            }
        });
        self.reader.restore_doc(doc);
        self.file_end(label, count);
        if held.is_some() {
            self.spill(&mut held);
        }
    }

    /// Writes the buffer out through `held`, locking standard output
    /// first if it is not yet held. After a failed write the run quits
    /// and the rest is dropped.
    fn spill(&mut self, held: &mut Option<io::StdoutLock<'static>>) {
        if self.shared.quit.load(Ordering::Relaxed) {
            self.out.clear();
            return;
        }
        let lock = held.get_or_insert_with(|| io::stdout().lock());
        let res = write_to(lock, &mut self.out);
        self.written(res);
    }

    /// Filters and prints one link; whether it was printed.
    fn one(
        &mut self,
        label: &Label<'_>,
        link: LinkRef<'_>,
        root: Option<&Path>,
        ctx: Option<&RecordCtx<'_>>,
    ) -> bool {
        let cfg = self.shared.cfg;
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
        if let Some(seen) = &self.shared.seen
            && !seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(shown.to_owned())
        {
            return false;
        }
        self.print(label, link, target.as_deref(), root, ctx);
        true
    }

    /// The count line of `-c`, and the found flag.
    fn file_end(&mut self, label: &Label<'_>, count: u64) {
        let cfg = self.shared.cfg;
        if count > 0 {
            self.shared.found.store(true, Ordering::Relaxed);
            if cfg.common.mode == Mode::Count {
                self.out.extend_from_slice(label.raw());
                self.out.push(if cfg.common.null { 0 } else { b':' });
                let _ = writeln!(self.out, "{count}");
            }
        }
    }

    fn print(
        &mut self,
        label: &Label<'_>,
        link: LinkRef<'_>,
        target: Option<&str>,
        root: Option<&Path>,
        ctx: Option<&RecordCtx<'_>>,
    ) {
        let cfg = self.shared.cfg;
        let shown = target.unwrap_or(link.link());
        let out = &mut self.out;
        match cfg.common.mode {
            Mode::Count => {}
            Mode::OnlyUri => {
                out.extend_from_slice(shown.as_bytes());
                out.push(if cfg.common.null { 0 } else { b'\n' });
            }
            Mode::Standard => {
                let color = cfg.common.color;
                if color {
                    out.extend_from_slice(b"\x1b[35m");
                }
                // A record's page stands where a file's path does.
                out.extend_from_slice(
                    ctx.map_or(label.raw(), |c| c.page.as_bytes()),
                );
                if color {
                    out.extend_from_slice(b"\x1b[0m");
                }
                out.push(if cfg.common.null { 0 } else { b':' });
                let _ = write!(out, "{}:{}:", link.line(), link.column());
                if color {
                    let _ = write!(out, "\x1b[1;31m{}\x1b[0m", link.link());
                } else {
                    out.extend_from_slice(link.link().as_bytes());
                }
                out.push(b'\n');
            }
            Mode::Json => {
                let mut row =
                    JsonLink::new(label, link, root, &cfg.sources.cwd);
                row.target = target.map(Cow::Borrowed);
                if let Some(c) = ctx {
                    row.page = Some(c.page);
                    row.record_id = Some(c.record_id);
                    row.record_offset = Some(c.offset);
                }
                let _ = serde_json::to_writer(&mut *out, &row);
                out.push(b'\n');
            }
        }
    }

    fn flush(&mut self) -> Flow {
        if self.out.is_empty() {
            return Flow::Continue;
        }
        let res = write_stdout(&mut self.out);
        self.written(res)
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

impl Drop for Worker<'_, '_> {
    /// What batching held back is written when the worker is done.
    fn drop(&mut self) {
        if !self.shared.quit.load(Ordering::Relaxed) {
            self.flush();
        }
    }
}

/// One JSON Lines row of `links` (and the first fields of `check`'s);
/// the field order is the documented one.
#[derive(Serialize)]
pub(super) struct JsonLink<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    line: u64,
    column: u64,
    offset: usize,
    kind: String,
    raw: Cow<'a, str>,
    link: Cow<'a, str>,
    target: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fragment: Option<std::borrow::Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hreflang: Option<&'a str>,
    /// `navigate` or `embed`; left out for the other links.
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    record_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    record_offset: Option<u64>,
}

impl<'a> JsonLink<'a> {
    /// The row of `link` in the file `label`: `local` is the target's
    /// file when it is under `root`, relative to `cwd`.
    pub(super) fn new(
        label: &'a Label<'_>,
        link: LinkRef<'a>,
        root: Option<&Path>,
        cwd: &Path,
    ) -> JsonLink<'a> {
        let local = link.file_path().and_then(|p| {
            p.starts_with(root?)
                .then(|| relative_to(cwd, &p).to_string_lossy().into_owned())
        });
        JsonLink {
            path: label.lossy(),
            path_bytes: label.bytes_if_not_utf8(),
            line: link.line(),
            column: link.column(),
            offset: link.span().start,
            kind: link.kind().to_string(),
            raw: Cow::Borrowed(link.raw()),
            link: Cow::Borrowed(link.link()),
            target: link.target().map(Cow::Borrowed),
            local,
            fragment: link.fragment(),
            error: link.error().map(|e| e.to_string()),
            rel: link.rel(),
            hreflang: link.hreflang(),
            role: (link.role() != Role::Other).then(|| link.role().as_str()),
            page: None,
            record_id: None,
            record_offset: None,
        }
    }

    /// The row with the password of each URI masked (`user:***@host`),
    /// for reports: the remote check never prints credentials in clear.
    #[cfg(feature = "remote")]
    pub(super) fn mask_passwords(self) -> JsonLink<'a> {
        let mask = |s: Cow<'a, str>| match s {
            Cow::Borrowed(b) => super::printer::mask_password(b),
            Cow::Owned(o) => {
                Cow::Owned(super::printer::mask_password(&o).into_owned())
            }
        };
        JsonLink {
            raw: mask(self.raw),
            link: mask(self.link),
            target: self.target.map(mask),
            ..self
        }
    }
}
