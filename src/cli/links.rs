//! `uriscan links`: every link of every document under the paths, read
//! by its format and resolved, on the walker's threads as the main
//! command does (one reader, extractor handle and output buffer per
//! worker; each file's output in one locked write).

use std::collections::{HashMap, HashSet};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use clap::ValueEnum;
use serde::Serialize;
use uriscan::links::{Format, Link, LinkExtractor, Page, file_uri};
use uriscan::walking::{Contents, Entry, Error, FileReader, Flow};

use super::io_message::io_message;

use super::args::{OutputArgs, WalkArgs};
use super::config::{Common, Env, Input, Mode};
use super::printer::Label;

const AFTER_HELP: &str = "\
Exit status: 0 when a link was found, 1 when none was, 2 on an error (the \
other paths are still read).

The format comes from the extension: .md .markdown .mdown .mkd are \
Markdown, .html .htm .xhtml HTML, anything else text (its bare URIs).

A relative link resolves against --base-url, else the document's <base \
href>, else the file's own location. A root-relative link (/x) resolves \
under --root, by default the top of the git repository for Markdown (as \
GitHub renders it) and the walked directory for HTML.

Examples:
  uriscan links docs/                   path:line:column:link
  uriscan links -o -u site/             each resolved target once
  uriscan links --json README.md | jq 'select(.local)'
  uriscan links --base-url https://example.com/ --format html < page.html";

/// The largest document read whole: HTML and Markdown are parsed in
/// memory (a `<base href>` anywhere changes every link), so a larger
/// file is reported rather than read.
const MAX_DOCUMENT: u64 = 1 << 30;

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// CommonMark with the GitHub extensions.
    Markdown,
    /// HTML.
    Html,
    /// Plain text: bare URIs.
    Text,
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

    #[command(flatten)]
    pub walk: WalkArgs,
}

/// The resolved configuration of `links`.
struct LinksConfig {
    common: Common,
    extractor: LinkExtractor,
    format: Option<Format>,
    base_url: Option<String>,
    root: Option<PathBuf>,
    cwd: PathBuf,
    /// The walked directories, for the default root of a file.
    walked: Vec<PathBuf>,
}

/// Runs `uriscan links`; returns the exit code.
pub fn run(args: LinksArgs) -> anyhow::Result<i32> {
    let env = Env::current();
    let common = Common::new(&args.output, &args.walk, args.paths, env)?;
    if let Some(b) = &args.base_url {
        uriscan::syntax::resolve::parse_base(
            uriscan::syntax::Parser::new().iri(true),
            b,
        )
        .map_err(|e| anyhow::anyhow!("--base-url {b:?}: {e}"))?;
    }
    let cwd = std::env::current_dir().context("the current directory")?;
    let root = match &args.root {
        Some(r) => Some(
            std::fs::canonicalize(r)
                .with_context(|| format!("--root {}", r.display()))?,
        ),
        None => None,
    };
    let walked = common
        .inputs
        .iter()
        .filter_map(|i| match i {
            Input::Path(p) => Some(absolute(&cwd, p)),
            Input::Stdin => None,
        })
        .map(|p| {
            if p.is_dir() {
                p
            } else {
                p.parent().map_or(p.clone(), Path::to_path_buf)
            }
        })
        .collect();
    let mut extractor = LinkExtractor::builder();
    extractor.include_code(args.include_code).include_text(args.include_text);
    let cfg = LinksConfig {
        common,
        extractor: extractor.build(),
        format: args.format.map(|f| match f {
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Html => Format::Html,
            FormatArg::Text => Format::Text,
        }),
        base_url: args.base_url,
        root,
        cwd,
        walked,
    };
    let shared = Shared {
        cfg: &cfg,
        found: AtomicBool::new(false),
        errored: AtomicBool::new(false),
        quit: AtomicBool::new(false),
        seen: cfg.common.unique.then(|| Mutex::new(HashSet::new())),
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

fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| cwd.join(p))
}

struct Shared<'c> {
    cfg: &'c LinksConfig,
    found: AtomicBool,
    errored: AtomicBool,
    quit: AtomicBool,
    seen: Option<Mutex<HashSet<String>>>,
}

impl Shared<'_> {
    fn error(&self, msg: impl std::fmt::Display) {
        self.errored.store(true, Ordering::Relaxed);
        let _ = writeln!(io::stderr().lock(), "uriscan: {msg}");
    }
}

struct Worker<'s, 'c> {
    shared: &'s Shared<'c>,
    reader: FileReader,
    out: Vec<u8>,
    doc: Vec<u8>,
    /// The git repository root of each directory met (Markdown's root).
    git_roots: HashMap<PathBuf, Option<PathBuf>>,
}

impl<'s, 'c> Worker<'s, 'c> {
    fn new(shared: &'s Shared<'c>) -> Self {
        let mut reader = FileReader::new();
        reader
            .decompress(shared.cfg.common.search_zip)
            .skip_binary(!shared.cfg.common.text)
            .stream_above(Some(MAX_DOCUMENT));
        Worker {
            shared,
            reader,
            out: vec![],
            doc: vec![],
            git_roots: HashMap::new(),
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
            Ok(entry) => self.file(entry.path()),
        }
    }

    fn stdin(&mut self) -> Flow {
        let mut doc = std::mem::take(&mut self.doc);
        doc.clear();
        if let Err(e) = io::stdin().lock().read_to_end(&mut doc) {
            self.shared.error(format_args!("<stdin>: {}", io_message(&e)));
        }
        let cfg = self.shared.cfg;
        let format = cfg.format.unwrap_or(Format::Text);
        let url = file_uri(&cfg.cwd, true);
        let root = cfg.root.as_ref().map(|r| file_uri(r, true));
        self.emit(&Label::stdin(), &doc, format, &url, root.as_deref());
        self.doc = doc;
        self.flush()
    }

    fn file(&mut self, path: &Path) -> Flow {
        let cfg = self.shared.cfg;
        let compressed = self.reader.is_compressed(path);
        let format = cfg.format.unwrap_or_else(|| {
            if compressed {
                Format::from_path(&path.with_extension(""))
            } else {
                Format::from_path(path)
            }
        });
        let abs = absolute(&cfg.cwd, path);
        let url = file_uri(&abs, false);
        let root = self.root_of(&abs, format);
        let root_uri = root.as_ref().map(|r| file_uri(r, true));
        let mut doc = std::mem::take(&mut self.doc);
        doc.clear();
        let res = match self.reader.read(path) {
            Err(e) => Err(e),
            Ok(Contents::Binary) => {
                self.doc = doc;
                return Flow::Continue;
            }
            Ok(Contents::Text(t)) => {
                doc.extend_from_slice(t);
                Ok(())
            }
            Ok(Contents::Stream(r)) => {
                let mut limited = r.take(MAX_DOCUMENT + 1);
                let res = limited.read_to_end(&mut doc).map(|_| ());
                if res.is_ok() && doc.len() as u64 > MAX_DOCUMENT {
                    self.shared.error(format_args!(
                        "{}: larger than {} MiB: its links were not read",
                        path.display(),
                        MAX_DOCUMENT >> 20
                    ));
                    self.doc = doc;
                    return Flow::Continue;
                }
                res
            }
        };
        if let Err(e) = res {
            // What was read before the error is still read for links.
            self.shared.error(Error::io(path, &e));
        }
        let label = Label::path(path, cfg.common.implicit_dir);
        self.emit(&label, &doc, format, &url, root_uri.as_deref());
        self.doc = doc;
        self.flush()
    }

    /// The root of root-relative links for a file: `--root`, else the git
    /// repository holding a Markdown file, else the walked directory.
    fn root_of(&mut self, abs: &Path, format: Format) -> Option<PathBuf> {
        let cfg = self.shared.cfg;
        if let Some(r) = &cfg.root {
            return Some(r.clone());
        }
        let walked = || {
            cfg.walked
                .iter()
                .filter(|w| abs.starts_with(w))
                .max_by_key(|w| w.as_os_str().len())
                .cloned()
        };
        if format == Format::Markdown {
            let dir = abs.parent()?.to_path_buf();
            let git = self
                .git_roots
                .entry(dir.clone())
                .or_insert_with(|| {
                    dir.ancestors()
                        .find(|d| d.join(".git").exists())
                        .map(Path::to_path_buf)
                })
                .clone();
            if git.is_some() {
                return git;
            }
        }
        walked()
    }

    fn emit(
        &mut self,
        label: &Label<'_>,
        doc: &[u8],
        format: Format,
        url: &str,
        root: Option<&str>,
    ) {
        let cfg = self.shared.cfg;
        let mut page = Page::new(doc, format).url(url);
        if let Some(r) = root {
            page = page.root(r);
        }
        if let Some(b) = &cfg.base_url {
            page = page.base(b);
        }
        let mut count = 0u64;
        for link in cfg.extractor.extract(&page) {
            let shown = link.target().unwrap_or(link.link());
            if let Some(seen) = &self.shared.seen
                && !seen
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(shown.to_owned())
            {
                continue;
            }
            count += 1;
            self.print(label, &link, root);
        }
        if count > 0 {
            self.shared.found.store(true, Ordering::Relaxed);
            if cfg.common.mode == Mode::Count {
                self.out.extend_from_slice(label.raw());
                self.out.push(if cfg.common.null { 0 } else { b':' });
                let _ = writeln!(self.out, "{count}");
            }
        }
    }

    fn print(&mut self, label: &Label<'_>, link: &Link, root: Option<&str>) {
        let cfg = self.shared.cfg;
        let shown = link.target().unwrap_or(link.link());
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
                out.extend_from_slice(label.raw());
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
                let local = link.file_path().and_then(|p| {
                    let root = root.and_then(uriscan::links::file_path)?;
                    p.starts_with(&root).then(|| relative_to(&cfg.cwd, &p))
                });
                let row = JsonLink {
                    path: label.lossy(),
                    path_bytes: label.bytes_if_not_utf8(),
                    line: link.line(),
                    column: link.column(),
                    offset: link.span().start,
                    kind: link.kind().to_string(),
                    raw: link.raw(),
                    link: link.link(),
                    target: link.target(),
                    local: local.as_ref().map(|p| p.to_string_lossy()),
                    fragment: link.fragment(),
                    error: link.error().map(|e| e.to_string()),
                };
                let _ = serde_json::to_writer(&mut *out, &row);
                out.push(b'\n');
            }
        }
    }

    fn flush(&mut self) -> Flow {
        if self.out.is_empty() {
            return Flow::Continue;
        }
        let res = io::stdout().lock().write_all(&self.out);
        self.out.clear();
        match res {
            Ok(()) => Flow::Continue,
            Err(e) => {
                if e.kind() != io::ErrorKind::BrokenPipe {
                    self.shared.error(format_args!(
                        "standard output: {}",
                        io_message(&e)
                    ));
                }
                self.shared.quit.store(true, Ordering::Relaxed);
                Flow::Quit
            }
        }
    }
}

/// One JSON Lines row of `links`; the field order is the documented one.
#[derive(Serialize)]
struct JsonLink<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    line: u64,
    column: u64,
    offset: usize,
    kind: String,
    raw: &'a str,
    link: &'a str,
    target: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local: Option<std::borrow::Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fragment: Option<std::borrow::Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}
