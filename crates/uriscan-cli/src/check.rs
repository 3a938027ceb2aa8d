//! `uriscan check`: the offline link check. The walker's threads read
//! every document and extract its links (and an HTML page's ids, in the
//! same pass); the library's [`Checker`] then decides every link, asking
//! the file system about each target once; the report is printed in path
//! order.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::ValueEnum;
use serde::Serialize;
use uriscan::checking::anchors::AnchorStyle;
use uriscan::checking::{Checker, DocumentFacts, LinkTable, Status, Verdict};
use uriscan::links::{Format, Link, LinkExtractor, LinkRef, Page};

use super::args::{ColorChoice, DocArgs, WalkArgs};
use super::documents::{DocReader, Sources};
use super::links::JsonLink;
use super::printer::{Label, write_stdout};
use uriscan::walking::io_message;

const AFTER_HELP: &str = "\
Exit status: 0 when every checked link holds, 1 when some link is broken, \
2 on a usage or I/O error. (lychee exits 2 for broken links; here 2 is kept \
for a run that could not check, as grep and the rest of uriscan do, so that \
CI can tell a broken link from a broken run.)

Local targets are relative links, root-relative links (under --root, by \
default the git repository of a Markdown file and the walked directory \
for HTML) and file: URIs. Remote links are counted as skipped.

Examples:
  uriscan check docs/                      every link of every document
  uriscan check --fallback-extensions md,html book/
  uriscan check --json --errors-only . | jq .reason
  uriscan check --format github .          annotations for GitHub Actions";

/// `--anchors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AnchorsArg {
    /// GitHub's heading anchors.
    Github,
    /// GitLab's.
    Gitlab,
    /// mdBook's.
    Mdbook,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// `path:line:column: broken link 'LINK': REASON`, then a summary.
    Human,
    /// GitHub Actions annotations (`::error file=…,line=…,col=…::…`).
    Github,
    /// SARIF 2.1.0, for code-scanning dashboards: one result per broken
    /// link, located by line and byte offset.
    Sarif,
}

/// The arguments of `uriscan check`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct CheckArgs {
    /// Files or directories to check.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    // ---- Checking ----
    /// Files that stand for a directory when a fragment needs a document.
    /// [default: index.html,index.htm,README.md,index.md]
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Checking"
    )]
    pub index_files: Option<Vec<String>>,
    /// Extensions tried for a missing file (`ch01.html` satisfied by
    /// `ch01.md`, `guide/intro` by `guide/intro.md`).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Checking"
    )]
    pub fallback_extensions: Vec<String>,
    /// Do not check fragments.
    #[arg(long, help_heading = "Checking")]
    pub no_fragments: bool,
    /// Whose heading anchors Markdown targets have.
    /// [default: github]
    #[arg(long, value_name = "STYLE", help_heading = "Checking")]
    pub anchors: Option<AnchorsArg>,
    /// A target outside the root is not an error (when it exists).
    #[arg(long, help_heading = "Checking")]
    pub allow_outside_root: bool,
    /// The directory that root-relative links (`/x`) resolve under.
    #[arg(long, value_name = "DIR", help_heading = "Checking")]
    pub root: Option<PathBuf>,
    /// Also check the URIs found in other files (code, plain text).
    #[arg(long, help_heading = "Checking")]
    pub include_text: bool,
    /// Leave out the links whose target (or, with none, whose link)
    /// matches REGEX. Repeatable.
    #[arg(long, value_name = "REGEX", help_heading = "Checking")]
    pub exclude: Vec<String>,
    /// Do not check the links of the files matching GLOB (they are still
    /// targets). Repeatable.
    #[arg(long, value_name = "GLOB", help_heading = "Checking")]
    pub exclude_path: Vec<String>,
    /// Also list the documents that no other document links to, apart
    /// from the entry points (README.md, index.html, index.htm and
    /// --entry files).
    #[arg(long, help_heading = "Checking")]
    pub orphans: bool,
    /// An entry point for --orphans. Repeatable.
    #[arg(long, value_name = "FILE", help_heading = "Checking")]
    pub entry: Vec<PathBuf>,
    /// Read settings from FILE (TOML, the long flags' names as keys);
    /// default: `uriscan.toml` in the first PATH, else in the current
    /// directory, when there is one. Flags win over the file.
    #[arg(long, value_name = "FILE", help_heading = "Checking")]
    pub config: Option<PathBuf>,

    // ---- Output ----
    /// One JSON object per checked link: the fields of `links --json`
    /// plus status, reason and suggestion.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Only the broken links (with --json).
    #[arg(long, help_heading = "Output")]
    pub errors_only: bool,
    /// The report's form.
    #[arg(
        long,
        value_name = "FORMAT",
        default_value = "human",
        conflicts_with = "json",
        help_heading = "Output"
    )]
    pub format: ReportFormat,
    /// No progress bar (it shows on standard error when that is a
    /// terminal).
    #[arg(long, help_heading = "Output")]
    pub no_progress: bool,
    /// When to color the report.
    #[arg(
        long,
        value_name = "WHEN",
        default_value = "auto",
        help_heading = "Output"
    )]
    pub color: ColorChoice,

    #[command(flatten)]
    pub walk: WalkArgs,

    #[command(flatten)]
    pub doc: DocArgs,

    #[cfg(feature = "remote")]
    #[command(flatten)]
    pub remote: super::remote::RemoteArgs,
}

/// Runs `uriscan check`; returns the exit code.
pub fn run(mut args: CheckArgs) -> anyhow::Result<i32> {
    let start = Instant::now();
    apply_config_file(&mut args)?;
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let inputs: Vec<_> =
        paths.iter().cloned().map(super::config::Input::Path).collect();
    let mut extractor = LinkExtractor::builder();
    // Text files are read only with --include-text; HTML text nodes are
    // never links of the document.
    extractor.include_text(false);
    let sources = Sources::new(
        &inputs,
        extractor.build(),
        None,
        None,
        args.root.as_deref(),
    )?;
    let mut walker = super::config::walker(&args.walk, false)?;
    for g in &args.exclude_path {
        walker.glob(format!("!{g}"));
    }
    let exclude = regex::RegexSet::new(&args.exclude)
        .map_err(|e| anyhow::anyhow!("--exclude: {e}"))?;
    for p in &paths {
        walker.path(p);
    }
    let walker = walker.build()?;
    // The checker, and the table its facts go in as documents are read.
    let mut checker = Checker::builder();
    checker
        .index_files(args.index_files.clone().unwrap_or_else(|| {
            ["index.html", "index.htm", "README.md", "index.md"]
                .map(String::from)
                .to_vec()
        }))
        .fallback_extensions(args.fallback_extensions.clone())
        .fragments(!args.no_fragments)
        .anchors(match args.anchors.unwrap_or(AnchorsArg::Github) {
            AnchorsArg::Github => AnchorStyle::Github,
            AnchorsArg::Gitlab => AnchorStyle::Gitlab,
            AnchorsArg::Mdbook => AnchorStyle::Mdbook,
        })
        .allow_outside_root(args.allow_outside_root);
    let checker = checker.build();
    let table = checker.table();

    // A progress bar on a terminal: documents read, then the check.
    let progress = if !args.no_progress && io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {pos} documents read ({per_sec}) {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Some(bar)
    } else {
        None
    };
    // What of each link the report will print: every link for --json,
    // the web links for --remote; a broken one is read again.
    #[cfg(feature = "remote")]
    let web = args.remote.remote;
    #[cfg(not(feature = "remote"))]
    let web = false;
    let keep = if args.json && !args.errors_only {
        Keep::All
    } else if web {
        Keep::Web
    } else {
        Keep::None
    };
    // Map: read every document on the walker's threads.
    let docs = Mutex::new(Vec::new());
    let errored = AtomicBool::new(false);
    let report_error = |msg: String| {
        errored.store(true, Ordering::Relaxed);
        let _ = writeln!(io::stderr().lock(), "uriscan: {msg}");
    };
    walker.run(|| {
        let mut reader = DocReader::new(args.walk.search_zip, args.walk.text);
        reader.map_named(!args.doc.no_mmap);
        let mut mine = Batch { docs: &docs, held: Vec::new() };
        let report_error = &report_error;
        let sources = &sources;
        let include_text = args.include_text;
        let progress = progress.as_ref();
        let (table, exclude) = (&table, &exclude);
        move |entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    report_error(e.to_string());
                    return uriscan::walking::Flow::Continue;
                }
            };
            let path = entry.path();
            let format = Format::from_path(path);
            if format == Format::Text && !include_text {
                return uriscan::walking::Flow::Continue;
            }
            let (loaded, err) = reader.load_entry(sources, &entry);
            if let Some(e) = err {
                report_error(e.message(path));
            }
            if let Some(loaded) = loaded {
                if let Some(bar) = progress {
                    bar.inc(1);
                }
                let disabled = if format == Format::Text {
                    vec![]
                } else {
                    uriscan::checking::local::disabled_lines(reader.doc())
                };
                let place = Place {
                    path: loaded.abs.clone(),
                    root: loaded
                        .root
                        .clone()
                        .unwrap_or_else(|| loaded.abs.clone()),
                    disabled,
                };
                let page = sources.page(reader.doc(), &loaded);
                let (facts, kept) = digest(
                    table,
                    &sources.extractor,
                    &page,
                    place,
                    keep,
                    exclude,
                );
                mine.held.push((path.to_path_buf(), facts, kept));
            }
            if mine.held.len() >= 64 {
                mine.hand_over();
            }
            uriscan::walking::Flow::Continue
        }
    });
    let mut read = docs.into_inner().unwrap_or_else(|e| e.into_inner());
    read.sort_by(|a, b| a.0.cmp(&b.0));
    let mut labels = Vec::with_capacity(read.len());
    let mut docs = Vec::with_capacity(read.len());
    let mut kept = Vec::with_capacity(read.len());
    for (label, facts, k) in read {
        labels.push(label);
        docs.push(facts);
        kept.push(k);
    }

    if let Some(bar) = &progress {
        let n: usize = docs.iter().map(|d| d.links().len()).sum();
        bar.set_message(format!("checking {n} links"));
    }
    let verdicts = checker.check(&table, &docs);
    // The remote check: with --json its rows stream out after the
    // offline ones, as they come; the other reports wait for it and
    // keep document order.
    #[cfg(feature = "remote")]
    let mut remote = {
        let root = args.root.clone().unwrap_or_else(|| {
            let first = &paths[0];
            if first.is_dir() {
                first.clone()
            } else {
                first.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        });
        super::remote::Remote::plan(&args.remote, &root, &kept, &verdicts)?
    };
    #[cfg(feature = "remote")]
    if let Some(r) = &mut remote
        && !args.json
    {
        r.run(progress.as_ref(), |_, _, _| {})?;
    }

    // Report.
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    } && !args.json;
    let mut out = Vec::with_capacity(1 << 16);
    let mut counts = Counts::default();
    let mut reread = Reread {
        reader: DocReader::new(args.walk.search_zip, args.walk.text),
        sources: &sources,
        doc: None,
    };
    let mut sarif = vec![];
    for (di, ((label, doc), verdicts)) in
        labels.iter().zip(&docs).zip(&verdicts).enumerate()
    {
        counts.files += 1;
        for (li, (facts, v)) in doc.links().iter().zip(verdicts).enumerate() {
            #[cfg(feature = "remote")]
            if let Some(r) = &remote
                && r.is_remote(di, li)
                && let Some(link) = kept[di].get(li)
            {
                // With --json, written as the result comes, below.
                if let Some(rv) = r.verdict(di, li, link) {
                    counts.add_remote(rv.status);
                    let (cwd, root) = (&sources.cwd, doc.root());
                    let row = RemoteRow { label, cwd, root, link, v: &rv };
                    row.write(&mut out, &args, color, &mut sarif);
                }
                continue;
            }
            counts.add(facts.is_file(), v);
            let broken = v.status() == Status::Broken;
            if !broken && keep != Keep::All {
                continue;
            }
            let Some(link) = reread.link(&kept[di], di, li, label) else {
                report_error(format!(
                    "{}: changed while it was checked; run again",
                    label.display()
                ));
                continue;
            };
            if args.format == ReportFormat::Sarif && !args.json {
                sarif.push(sarif_result(label, link, v));
                continue;
            }
            write_one(
                &mut out,
                &args,
                color,
                label,
                &sources.cwd,
                doc.root(),
                link,
                v,
            );
            if out.len() > 1 << 16 && flush(&mut out).is_err() {
                return Ok(2);
            }
        }
    }
    if args.orphans {
        for label in orphans(&labels, &table, &docs, &args.entry) {
            if args.json {
                let row = serde_json::json!({
                    "path": label.to_string_lossy(),
                    "status": "orphan",
                });
                let _ = serde_json::to_writer(&mut out, &row);
                out.push(b'\n');
            } else {
                let _ = writeln!(
                    out,
                    "{}: orphan: no other document links here",
                    label.display()
                );
            }
        }
    }
    if args.format == ReportFormat::Sarif && !args.json {
        let _ = serde_json::to_writer_pretty(&mut out, &sarif_log(sarif));
        out.push(b'\n');
    }
    if flush(&mut out).is_err() {
        return Ok(2);
    }
    #[cfg(feature = "remote")]
    if let Some(r) = &mut remote
        && args.json
    {
        let mut failed = false;
        r.run(progress.as_ref(), |plan, results, t| {
            for &(di, li) in plan.links_of(t) {
                let (di, li) = (di as usize, li as usize);
                let doc = &docs[di];
                let Some(link) = kept[di].get(li) else { continue };
                let Some(rv) = plan.verdict(results, di, li, link) else {
                    continue;
                };
                counts.add_remote(rv.status);
                let (cwd, root) = (&sources.cwd, doc.root());
                let row =
                    RemoteRow { label: &labels[di], cwd, root, link, v: &rv };
                // No SARIF with --json.
                row.write(&mut out, &args, color, &mut Vec::new());
            }
            // Each result goes out as it comes.
            failed |= flush(&mut out).is_err();
        })?;
        if failed {
            return Ok(2);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if !args.json && args.format == ReportFormat::Human {
        let mut line = format!(
            "{} files, {} links: {} local checked, {} broken, ",
            counts.files, counts.links, counts.local, counts.broken,
        );
        #[cfg(feature = "remote")]
        if let Some(r) = &remote {
            let (uris, cached) = r.uri_counts();
            line.push_str(&format!(
                "{} remote checked ({uris} URIs, {cached} cached, {} requests), {} remote failed, ",
                counts.remote, r.requests(), counts.remote_failed,
            ));
        }
        if counts.skipped > 0 {
            line.push_str(&format!("{} skipped (remote), ", counts.skipped));
        }
        let _ = writeln!(
            io::stderr().lock(),
            "{line}{} excluded in {:.2} s",
            counts.excluded,
            start.elapsed().as_secs_f64()
        );
    }
    #[cfg(feature = "remote")]
    let remote_fails = counts.remote_failed > 0
        && remote.as_ref().is_some_and(|r| !r.warn_only());
    #[cfg(not(feature = "remote"))]
    let remote_fails = false;
    // Millions of small allocations are about to go with the process:
    // freeing them one by one took a tenth of a check of the Rust
    // documentation.
    std::mem::forget(docs);
    std::mem::forget(verdicts);
    Ok(if errored.load(Ordering::Relaxed) {
        2
    } else if counts.broken > 0 || remote_fails {
        1
    } else {
        0
    })
}

/// The documents no other document links to, in path order: a link to a
/// directory counts for its index files; README.md, index.html,
/// index.htm and the entries are never orphans.
fn orphans<'a>(
    labels: &'a [PathBuf],
    table: &LinkTable,
    docs: &[DocumentFacts],
    entries: &[PathBuf],
) -> Vec<&'a PathBuf> {
    let paths = table.paths();
    let mut linked = std::collections::HashSet::new();
    for doc in docs {
        for facts in doc.links() {
            let Some(id) = facts.path_id() else { continue };
            let p = &paths[id as usize];
            if p == doc.path() {
                continue;
            }
            for index in ["README.md", "index.md", "index.html", "index.htm"] {
                linked.insert(p.join(index));
            }
            linked.insert(p.clone());
        }
    }
    let entries: Vec<PathBuf> =
        entries.iter().filter_map(|e| std::fs::canonicalize(e).ok()).collect();
    labels
        .iter()
        .zip(docs)
        .filter(|(_, d)| {
            let name =
                d.path().file_name().and_then(|n| n.to_str()).unwrap_or("");
            !matches!(name, "README.md" | "index.html" | "index.htm")
                && !entries.iter().any(|e| e == d.path())
                && !linked.contains(d.path())
        })
        .map(|(l, _)| l)
        .collect()
}

/// One SARIF result: a broken link, at its line and bytes.
fn sarif_result(label: &Path, link: &Link, v: &Verdict) -> serde_json::Value {
    let reason = v.reason().map(|r| r.to_string()).unwrap_or_default();
    let mut text = format!("broken link '{}': {reason}", link.link());
    if let Some(s) = v.suggestion(link) {
        text.push_str(&format!(" (did you mean '{s}'?)"));
    }
    sarif_at(label, link, "broken-link", "error", &text)
}

/// A SARIF result of `rule` at `link`.
fn sarif_at(
    label: &Path,
    link: &Link,
    rule: &str,
    level: &str,
    text: &str,
) -> serde_json::Value {
    let uri = label.to_string_lossy();
    serde_json::json!({
        "ruleId": rule,
        "level": level,
        "message": { "text": text },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": uri.strip_prefix("./").unwrap_or(&uri) },
                // SARIF columns count characters; a byte offset says
                // exactly where the link is.
                "region": {
                    "startLine": link.line(),
                    "byteOffset": link.span().start,
                    "byteLength": link.span().len(),
                }
            }
        }]
    })
}

/// The SARIF 2.1.0 log of one run.
fn sarif_log(results: Vec<serde_json::Value>) -> serde_json::Value {
    serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "uriscan",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [{
                        "id": "broken-link",
                        "shortDescription": { "text": "A link whose target or anchor does not exist" }
                    }, {
                        "id": "remote-link",
                        "shortDescription": { "text": "A web link that redirects, is rate limited, or did not answer" }
                    }]
                }
            },
            "results": results
        }]
    })
}

/// `uriscan.toml`: the long flags of `check` as keys; an unknown key is
/// an error that names it. (Collected in `unknown` rather than by
/// `deny_unknown_fields`, which serde does not combine with the
/// flattened remote keys.)
#[derive(serde::Deserialize, Default, Debug)]
#[serde(rename_all = "kebab-case")]
struct FileConfig {
    index_files: Option<Vec<String>>,
    fallback_extensions: Option<Vec<String>>,
    no_fragments: Option<bool>,
    anchors: Option<String>,
    allow_outside_root: Option<bool>,
    root: Option<PathBuf>,
    include_text: Option<bool>,
    exclude: Option<Vec<String>>,
    exclude_path: Option<Vec<String>>,
    #[cfg(feature = "remote")]
    #[serde(flatten)]
    remote: super::remote::RemoteKeys,
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, toml::Value>,
}

/// Reads `--config FILE`, or `uriscan.toml` in the first path or the
/// current directory, into the arguments the command line left unset.
fn apply_config_file(args: &mut CheckArgs) -> anyhow::Result<()> {
    let path = match &args.config {
        Some(p) => p.clone(),
        None => {
            let first = args.paths.first().filter(|p| p.is_dir()).cloned();
            let found = first
                .map(|d| d.join("uriscan.toml"))
                .into_iter()
                .chain([PathBuf::from("uriscan.toml")])
                .find(|p| p.is_file());
            match found {
                Some(p) => p,
                None => return Ok(()),
            }
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!("{}: {}", path.display(), io_message(&e))
    })?;
    let file: FileConfig = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message()))?;
    if let Some(key) = file.unknown.keys().next() {
        anyhow::bail!("{}: unknown key `{key}`", path.display());
    }
    // A relative root is relative to the file.
    let base = path.parent().unwrap_or(Path::new("."));
    #[cfg(feature = "remote")]
    file.remote
        .apply(&mut args.remote, base)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if args.index_files.is_none() {
        args.index_files = file.index_files;
    }
    if args.fallback_extensions.is_empty() {
        args.fallback_extensions =
            file.fallback_extensions.unwrap_or_default();
    }
    args.no_fragments |= file.no_fragments.unwrap_or(false);
    args.allow_outside_root |= file.allow_outside_root.unwrap_or(false);
    args.include_text |= file.include_text.unwrap_or(false);
    if args.anchors.is_none()
        && let Some(a) = file.anchors
    {
        args.anchors = Some(AnchorsArg::from_str(&a, true).map_err(|_| {
            anyhow::anyhow!(
                "{}: anchors = {a:?}: github, gitlab or mdbook",
                path.display()
            )
        })?);
    }
    if args.root.is_none() {
        args.root = file.root.map(|r| base.join(r));
    }
    if args.exclude.is_empty() {
        args.exclude = file.exclude.unwrap_or_default();
    }
    if args.exclude_path.is_empty() {
        args.exclude_path = file.exclude_path.unwrap_or_default();
    }
    Ok(())
}

/// Which links of a document are kept for the report, besides their
/// facts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    All,
    /// The http and https links, for the remote check.
    Web,
    None,
}

/// The links of one document kept for the report, with their indexes.
/// The check holds every link as [`uriscan::checking::LinkFacts`], not as
/// text: on the Rust documentation the texts were most of its memory.
#[derive(Default)]
pub struct Kept(Vec<(u32, Link)>);

impl Kept {
    /// Link `li`, when it was kept.
    pub fn get(&self, li: usize) -> Option<&Link> {
        let i = self.0.binary_search_by_key(&li, |(i, _)| *i as usize).ok()?;
        Some(&self.0[i].1)
    }
    /// The kept links, with their indexes, in document order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Link)> {
        self.0.iter().map(|(i, l)| (*i as usize, l))
    }
}

/// Where a document stands, as [`Document`] has it.
///
/// [`Document`]: uriscan::checking::Document
struct Place {
    path: PathBuf,
    root: PathBuf,
    disabled: Vec<std::ops::RangeInclusive<u64>>,
}

/// Reads `page`'s links into facts, keeping whole those the report will
/// print (`keep`), and marking those `exclude` matches.
fn digest(
    table: &LinkTable,
    extractor: &LinkExtractor,
    page: &Page<'_>,
    place: Place,
    keep: Keep,
    exclude: &regex::RegexSet,
) -> (DocumentFacts, Kept) {
    let mut d = table.document(place.disabled);
    let mut kept = vec![];
    let mut i = 0u32;
    // Each link becomes facts as it is read; only the links the report
    // will print are kept whole.
    let ids = extractor.for_each_with_ids(page, |l| {
        let f = d.push(l);
        if !exclude.is_empty()
            && exclude.is_match(l.target().unwrap_or(l.link()))
        {
            f.exclude();
        }
        let keep = match keep {
            Keep::None => false,
            Keep::All => true,
            Keep::Web => is_web(l),
        };
        if keep {
            kept.push((i, l.to_link()));
        }
        i += 1;
    });
    (d.finish(place.path, place.root, ids), Kept(kept))
}

/// Whether the link's target is an http or https URI.
fn is_web(link: LinkRef<'_>) -> bool {
    let t = link.target().unwrap_or("").as_bytes();
    let scheme = t.split(|&b| b == b':').next().unwrap_or_default();
    scheme.eq_ignore_ascii_case(b"http")
        || scheme.eq_ignore_ascii_case(b"https")
}

/// A document's links read again, for the report of its broken ones.
struct Reread<'a> {
    reader: DocReader,
    sources: &'a Sources,
    doc: Option<(usize, Vec<Link>)>,
}

impl Reread<'_> {
    /// Link `li` of document `di` (at `label`), read again when it was not
    /// kept. `None` when the file no longer has it.
    fn link<'k>(
        &'k mut self,
        kept: &'k Kept,
        di: usize,
        li: usize,
        label: &Path,
    ) -> Option<&'k Link> {
        if let Some(l) = kept.get(li) {
            return Some(l);
        }
        if self.doc.as_ref().is_none_or(|(d, _)| *d != di) {
            let (loaded, _) = self.reader.load(self.sources, label);
            let links = loaded
                .map(|loaded| {
                    let page = self.sources.page(self.reader.doc(), &loaded);
                    self.sources.extractor.extract(&page).collect()
                })
                .unwrap_or_default();
            self.doc = Some((di, links));
        }
        self.doc.as_ref()?.1.get(li)
    }
}

/// A worker's documents, handed over to the shared list 64 at a time (one
/// lock per batch, not per file) and when the worker ends.
struct Batch<'a> {
    docs: &'a Mutex<Vec<(PathBuf, DocumentFacts, Kept)>>,
    held: Vec<(PathBuf, DocumentFacts, Kept)>,
}

impl Batch<'_> {
    fn hand_over(&mut self) {
        self.docs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .append(&mut self.held);
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.hand_over();
    }
}

fn flush(out: &mut Vec<u8>) -> Result<(), ()> {
    write_stdout(out).map_err(|reason| {
        if let Some(r) = reason {
            let _ =
                writeln!(io::stderr().lock(), "uriscan: standard output: {r}");
        }
    })
}

#[derive(Default)]
struct Counts {
    files: u64,
    links: u64,
    local: u64,
    broken: u64,
    skipped: u64,
    excluded: u64,
    #[cfg(feature = "remote")]
    remote: u64,
    #[cfg(feature = "remote")]
    remote_failed: u64,
}

impl Counts {
    #[cfg(feature = "remote")]
    fn add_remote(&mut self, status: uriscan::checking::remote::RemoteStatus) {
        self.links += 1;
        self.remote += 1;
        if status.is_failure() {
            self.remote_failed += 1;
        }
    }
    fn add(&mut self, local: bool, v: &Verdict) {
        self.links += 1;
        match v.status() {
            Status::Broken => self.broken += 1,
            Status::Skipped => self.skipped += 1,
            Status::Excluded => self.excluded += 1,
            _ => {}
        }
        if local {
            self.local += 1;
        }
    }
}

/// One row of `check --json`: the fields of `links --json`, then the
/// verdict.
#[derive(Serialize)]
struct JsonCheck<'a> {
    #[serde(flatten)]
    link: JsonLink<'a>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<std::borrow::Cow<'a, str>>,
}

#[allow(clippy::too_many_arguments)]
fn write_one(
    out: &mut Vec<u8>,
    args: &CheckArgs,
    color: bool,
    label: &Path,
    cwd: &Path,
    root: &Path,
    link: &Link,
    v: &Verdict,
) {
    let broken = v.status() == Status::Broken;
    if args.json {
        if args.errors_only && !broken {
            return;
        }
        let label = Label::path(label, false);
        let row = JsonCheck {
            link: JsonLink::new(&label, link.as_ref(), Some(root), cwd),
            status: v.status().as_str(),
            reason: v.reason().map(|r| r.to_string()),
            suggestion: v.suggestion(link),
        };
        let _ = serde_json::to_writer(&mut *out, &row);
        out.push(b'\n');
        return;
    }
    if !broken {
        return;
    }
    let reason = v.reason().map(|r| r.to_string()).unwrap_or_default();
    let hint = v
        .suggestion(link)
        .map(|s| format!(" (did you mean '{s}'?)"))
        .unwrap_or_default();
    match args.format {
        ReportFormat::Github => {
            let _ = writeln!(
                out,
                "::error file={},line={},col={}::{}",
                gh_property(&label.to_string_lossy()),
                link.line(),
                link.column(),
                gh_escape(&format!(
                    "broken link '{}': {reason}{hint}",
                    link.link()
                ))
            );
        }
        // Gathered by the caller into one log.
        ReportFormat::Sarif => {}
        ReportFormat::Human => {
            let (p, r) =
                if color { ("\x1b[35m", "\x1b[0m") } else { ("", "") };
            let (l, lr) =
                if color { ("\x1b[1;31m", "\x1b[0m") } else { ("", "") };
            let _ = writeln!(
                out,
                "{p}{}{r}:{}:{}: broken link '{l}{}{lr}': {reason}{hint}",
                label.display(),
                link.line(),
                link.column(),
                link.link()
            );
        }
    }
}

/// One remote link's row, in the report's format.
#[cfg(feature = "remote")]
struct RemoteRow<'a> {
    label: &'a Path,
    cwd: &'a Path,
    root: &'a Path,
    link: &'a Link,
    v: &'a super::remote::LinkVerdict<'a>,
}

#[cfg(feature = "remote")]
impl RemoteRow<'_> {
    fn write(
        &self,
        out: &mut Vec<u8>,
        args: &CheckArgs,
        color: bool,
        sarif: &mut Vec<serde_json::Value>,
    ) {
        use uriscan::checking::remote::RemoteStatus;
        let status = self.v.status;
        let failure = status.is_failure();
        if args.json {
            if args.errors_only && !failure {
                return;
            }
            #[derive(Serialize)]
            struct Row<'a> {
                #[serde(flatten)]
                link: JsonLink<'a>,
                #[serde(flatten)]
                remote: super::remote::JsonRemote<'a>,
            }
            let label = Label::path(self.label, false);
            let row = Row {
                link: JsonLink::new(
                    &label,
                    self.link.as_ref(),
                    Some(self.root),
                    self.cwd,
                )
                .mask_passwords(),
                remote: super::remote::JsonRemote::new(self.v),
            };
            let _ = serde_json::to_writer(&mut *out, &row);
            out.push(b'\n');
            return;
        }
        let Some(text) = super::remote::describe(self.link, self.v) else {
            return;
        };
        let level = if failure { "error" } else { "warning" };
        match args.format {
            ReportFormat::Sarif => {
                let rule = if status == RemoteStatus::Broken {
                    "broken-link"
                } else {
                    "remote-link"
                };
                sarif
                    .push(sarif_at(self.label, self.link, rule, level, &text));
            }
            ReportFormat::Github => {
                let _ = writeln!(
                    out,
                    "::{level} file={},line={},col={}::{}",
                    gh_property(&self.label.to_string_lossy()),
                    self.link.line(),
                    self.link.column(),
                    gh_escape(&text)
                );
            }
            ReportFormat::Human => {
                let (p, r) =
                    if color { ("\x1b[35m", "\x1b[0m") } else { ("", "") };
                let _ = writeln!(
                    out,
                    "{p}{}{r}:{}:{}: {text}",
                    self.label.display(),
                    self.link.line(),
                    self.link.column(),
                );
            }
        }
    }
}

/// A GitHub workflow command's message: `%`, CR and LF escaped.
fn gh_escape(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property: `,` and `:` escaped too.
fn gh_property(s: &str) -> String {
    gh_escape(s).replace(',', "%2C").replace(':', "%3A")
}
