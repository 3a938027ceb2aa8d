//! The offline check: each link's local target, and its fragment, against
//! the file system, as a map-reduce in the manner of hyperlink.

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::links::{Format, Link};

use super::anchors::{self, AnchorStyle, KeptAnchors};
use super::facts::{
    DocumentFacts, LinkFacts, LinkTable, TargetKind, Texts, refresh_target,
};
use super::fxhash::{FxHashMap, FxHashSet};
use super::sphinx;
use super::suggest::Suggester;

/// What the check says of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// The target holds.
    Ok,
    /// The target is missing, or the link malformed.
    Broken,
    /// Not checked offline (a remote link).
    Skipped,
    /// Left out by an exclusion.
    Excluded,
    /// Not broken, but worth a look: a Markdown definition that no link
    /// uses, or that repeats an earlier one's label. It fails a run only
    /// when the caller says so.
    Warning,
}

impl Status {
    /// `ok`, `broken`, `skipped`, `excluded` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Broken => "broken",
            Status::Skipped => "skipped",
            Status::Excluded => "excluded",
            Status::Warning => "warning",
        }
    }
}

/// Why a link is broken, is a warning, or is skipped: made when asked
/// ([`Checked::reason`]), its text borrowed from the check's.
///
/// [`Checked::reason`]: super::Checked::reason
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason<'a> {
    /// Not a URI reference (the links layer's error).
    Malformed(&'a str),
    /// No file or directory there.
    NoSuchFile,
    /// A directory on the way cannot be read: whether the target is
    /// there is not known.
    PermissionDenied,
    /// The file exists only with another case: it works on a file system
    /// that ignores case, and breaks on one that does not.
    CaseDiffers(&'a str),
    /// The target is outside the root.
    OutsideRoot,
    /// A fragment on a directory with no index file.
    NoIndexFile,
    /// The target has no such anchor (the fragment, percent-decoded).
    NoAnchor(Cow<'a, str>),
    /// A `#L10` line fragment past the end of the file (the fragment,
    /// percent-decoded).
    NoSuchLine(Cow<'a, str>),
    /// A `mailto:` or `tel:` link that is not one.
    BadAddress,
    /// A link that still holds template syntax (`{{ … }}`, `{% … %}`): a
    /// template, not a page, whose links are made when it is rendered
    /// (the reason of a skipped link).
    Template,
    /// A Markdown definition that no link uses: CommonMark renders
    /// nothing for it (a warning).
    UnusedDefinition,
    /// A Markdown definition of a label that the definition at this line
    /// already defines: CommonMark keeps the first (a warning).
    DuplicateDefinition(u64),
    /// The site that the document belongs to serves nothing there (`not
    /// in SUMMARY.md`, `no page at the site URL '/x/'`).
    NotOnSite(&'a str),
    /// A reStructuredText `:ref:` to a label that no document of the
    /// project defines.
    NoLabel(&'a str),
    /// What the processor of a link that holds warns about it (an
    /// AsciiDoc include of a tag its file does not hold), in its words.
    Warned(&'a str),
    /// A `:term:` or `{term}` to a term that no glossary of the project
    /// defines.
    NoTerm(&'a str),
    /// Why a link is skipped: it cannot be resolved offline (a role with
    /// a domain, an intersphinx reference).
    NotOffline(&'static str),
}

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Malformed(e) => f.write_str(e),
            Reason::NoSuchFile => f.write_str("no such file or directory"),
            Reason::PermissionDenied => f.write_str("permission denied"),
            Reason::CaseDiffers(actual) => {
                write!(f, "the file is named '{actual}' (case differs)")
            }
            Reason::OutsideRoot => {
                f.write_str("the target is outside the root")
            }
            Reason::NoIndexFile => {
                f.write_str("a fragment on a directory without an index file")
            }
            Reason::NoAnchor(a) => write!(f, "no anchor '#{a}' in the target"),
            Reason::NoSuchLine(l) => write!(f, "the file has no line '#{l}'"),
            Reason::BadAddress => f.write_str("not a valid address"),
            Reason::Template => f.write_str("template"),
            Reason::UnusedDefinition => f.write_str("unused definition"),
            Reason::DuplicateDefinition(line) => {
                write!(f, "duplicate of the definition at line {line}")
            }
            Reason::NotOnSite(why) => f.write_str(why),
            Reason::NoLabel(l) => {
                write!(f, "no label '{l}' in the documents checked")
            }
            Reason::Warned(why) => f.write_str(why),
            Reason::NoTerm(t) => {
                write!(f, "no glossary term '{t}' in the documents checked")
            }
            Reason::NotOffline(why) => f.write_str(why),
        }
    }
}

/// The verdict on one link. Why it is broken is kept as a number into
/// the texts of its check, which makes the [`Reason`] when it is asked
/// for ([`Checked::reason`]).
///
/// [`Checked::reason`]: super::Checked::reason
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    status: Status,
    /// Whether the target is a `file:` URI that was checked.
    local: bool,
    why: Why,
    /// The number of the reason's text in the check's [`Texts`] (a
    /// fragment, an error, a label), the line of a duplicate definition,
    /// or [`NO_TEXT`]. A verdict is held for every link until the
    /// report, and a site may have millions of broken ones: two words,
    /// with no block of its own, whatever the reason.
    text: u32,
    // Boxed: most broken links have none, and the box's block is smaller.
    suggestion: Option<Box<Suggestion>>,
}

/// No text: a reason without one.
const NO_TEXT: u32 = super::facts::NO_PATH;

/// The kind of a verdict's [`Reason`], without its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    /// No reason: the link holds, or is a web link skipped offline.
    None,
    Malformed,
    NoSuchFile,
    PermissionDenied,
    CaseDiffers,
    OutsideRoot,
    NoIndexFile,
    /// The fragment, as written: the reason holds it decoded.
    NoAnchor,
    /// The fragment, as written: the reason holds it decoded.
    NoSuchLine,
    BadAddress,
    Template,
    UnusedDefinition,
    /// The text is the line.
    DuplicateDefinition,
    NotOnSite,
    NoLabel,
    Warned,
    NoTerm,
    NotOffline(Offline),
}

/// Why a link is not resolved offline: its words are
/// [`Offline::words`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offline {
    /// A reStructuredText reference of this kind.
    Rst(crate::links::RstKind),
    /// A file the site's generator downloads.
    Downloaded,
    /// A URL the `include-markdown` plugin downloads.
    IncludedUrl,
}

impl Offline {
    fn words(self) -> &'static str {
        match self {
            Offline::Rst(kind) => {
                kind.unresolved_reason().unwrap_or("not offline")
            }
            Offline::Downloaded => {
                "downloaded by the build (url_download): not fetched"
            }
            Offline::IncludedUrl => {
                "downloaded by the build (include-markdown): not fetched"
            }
        }
    }
}

/// What a broken link may have meant. The check holds links as facts,
/// without their text, so a suggestion of a path is kept as the name to
/// put in, and written into the link when a report asks.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Suggestion {
    /// The whole suggestion (`#anchor`).
    Whole(String),
    /// The link with its last path segment replaced by this name.
    LastSegment(String),
    /// The link with its last path segments replaced by these (a path
    /// whose case differs).
    Tail(String),
}

impl Verdict {
    fn ok() -> Verdict {
        Verdict::of(Status::Ok, Why::None, NO_TEXT)
    }
    fn of(status: Status, why: Why, text: u32) -> Verdict {
        Verdict { status, local: false, why, text, suggestion: None }
    }
    /// Broken, for `why`, whose text is number `text`.
    fn broken(why: Why, text: u32, suggestion: Option<Suggestion>) -> Verdict {
        let mut v = Verdict::of(Status::Broken, why, text);
        v.suggestion = suggestion.map(Box::new);
        v
    }
    /// Skipped, for a reason (not a web link left to the remote check).
    fn skipped_for(why: Why) -> Verdict {
        Verdict::of(Status::Skipped, why, NO_TEXT)
    }
    fn warning(why: Why, text: u32) -> Verdict {
        Verdict::of(Status::Warning, why, text)
    }
    fn skipped() -> Verdict {
        Verdict::of(Status::Skipped, Why::None, NO_TEXT)
    }
    /// The verdict on a link that an exclusion leaves out.
    pub fn excluded() -> Verdict {
        Verdict::of(Status::Excluded, Why::None, NO_TEXT)
    }
    /// The status.
    pub fn status(&self) -> Status {
        self.status
    }
    /// Whether the link's target is a local file (a `file:` URI, not
    /// excluded), as opposed to a web link, an address or an exclusion.
    pub fn is_local(&self) -> bool {
        self.local
    }
    /// Why it is broken, a warning, or skipped for a reason of its own,
    /// made of `texts`, those of its check.
    pub(crate) fn reason_in<'t>(
        &self,
        texts: &'t Texts,
    ) -> Option<Reason<'t>> {
        let text = || texts.get(self.text).unwrap_or("");
        let decoded = || crate::links::percent_decode(text());
        Some(match self.why {
            Why::None => return None,
            Why::Malformed => Reason::Malformed(text()),
            Why::NoSuchFile => Reason::NoSuchFile,
            Why::PermissionDenied => Reason::PermissionDenied,
            Why::CaseDiffers => Reason::CaseDiffers(text()),
            Why::OutsideRoot => Reason::OutsideRoot,
            Why::NoIndexFile => Reason::NoIndexFile,
            Why::NoAnchor => Reason::NoAnchor(decoded()),
            Why::NoSuchLine => Reason::NoSuchLine(decoded()),
            Why::BadAddress => Reason::BadAddress,
            Why::Template => Reason::Template,
            Why::UnusedDefinition => Reason::UnusedDefinition,
            Why::DuplicateDefinition => {
                Reason::DuplicateDefinition(u64::from(self.text))
            }
            Why::NotOnSite => Reason::NotOnSite(text()),
            Why::NoLabel => Reason::NoLabel(text()),
            Why::Warned => Reason::Warned(text()),
            Why::NoTerm => Reason::NoTerm(text()),
            Why::NotOffline(offline) => Reason::NotOffline(offline.words()),
        })
    }
    /// Whether it has a [`Reason`]: it is broken, a warning, or skipped
    /// for a reason of its own ([`Reason::Template`]; a web link skipped
    /// offline has none).
    pub fn has_reason(&self) -> bool {
        self.why != Why::None
    }
    /// What `link` (the link this is the verdict on) may have meant: the
    /// closest anchor or path that exists, written as the link would
    /// write it.
    pub fn suggestion(&self, link: &Link) -> Option<Cow<'_, str>> {
        let link = link.link();
        match self.suggestion.as_deref()? {
            Suggestion::Whole(s) => Some(Cow::Borrowed(s)),
            Suggestion::LastSegment(n) => {
                replace_last_segment(link, n).map(Cow::Owned)
            }
            Suggestion::Tail(t) => replace_tail(link, t).map(Cow::Owned),
        }
    }
}

/// Configures a [`Checker`].
#[derive(Clone, Debug)]
pub struct CheckerBuilder {
    index_files: Vec<String>,
    fallback_extensions: Vec<String>,
    fragments: bool,
    anchors: AnchorStyle,
    /// Styles for the documents under a directory, the deepest first.
    anchors_under: Vec<(PathBuf, AnchorStyle)>,
    /// The documents under a directory that include other files (MkDocs
    /// snippets), and the rules of their includes.
    includes_under: Vec<(PathBuf, super::site::Includes)>,
    /// Docusaurus' partials, read once a run (every clone shares them):
    /// the walk hands over the bytes it read ([`Checker::keep_partial`]).
    partials: super::site::includes::ReadOnce,
    allow_outside_root: bool,
    /// Which reader reads the Markdown targets' anchors.
    markdown_parser: crate::links::MarkdownParser,
}

impl Default for CheckerBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl CheckerBuilder {
    /// The defaults: index files `index.html`, `index.htm`, `README.md`,
    /// `index.md`; no fallback extensions; fragments checked, by GitHub's
    /// anchors; targets outside the root broken.
    pub fn new() -> Self {
        CheckerBuilder {
            index_files: ["index.html", "index.htm", "README.md", "index.md"]
                .map(String::from)
                .to_vec(),
            fallback_extensions: vec![],
            fragments: true,
            anchors: AnchorStyle::Github,
            anchors_under: vec![],
            includes_under: vec![],
            partials: Default::default(),
            allow_outside_root: false,
            markdown_parser: crate::links::MarkdownParser::default(),
        }
    }
    /// The files that stand for a directory when a fragment needs a
    /// document, first found first.
    pub fn index_files(&mut self, names: Vec<String>) -> &mut Self {
        self.index_files = names;
        self
    }
    /// Extensions tried for a missing file, for site generators:
    /// `ch01.html` is satisfied by `ch01.md` (mdBook), `guide/intro` by
    /// `guide/intro.md` or `guide/intro.html`.
    pub fn fallback_extensions(&mut self, exts: Vec<String>) -> &mut Self {
        self.fallback_extensions = exts;
        self
    }
    /// Whether fragments are checked.
    pub fn fragments(&mut self, yes: bool) -> &mut Self {
        self.fragments = yes;
        self
    }
    /// Whose heading anchors Markdown targets have.
    pub fn anchors(&mut self, style: AnchorStyle) -> &mut Self {
        self.anchors = style;
        self
    }
    /// Whose heading anchors the Markdown targets under `dir` have, where
    /// a site generator renders that part of the tree (a `docs/` built by
    /// MkDocs beside a README tree read on GitHub). The deepest such
    /// directory above a target decides; elsewhere [`anchors`] does.
    ///
    /// [`anchors`]: CheckerBuilder::anchors
    pub fn anchors_under(
        &mut self,
        dir: PathBuf,
        style: AnchorStyle,
    ) -> &mut Self {
        self.anchors_under.retain(|(d, _)| *d != dir);
        self.anchors_under.push((dir, style));
        // Deepest first, so the first prefix found is the nearest.
        self.anchors_under
            .sort_by_key(|(d, _)| std::cmp::Reverse(d.components().count()));
        self
    }
    /// The Markdown documents under `dir` include other files' text by
    /// the rules `includes` (MkDocs' `pymdownx.snippets` and
    /// `include-markdown`, never out of the project's folder): the
    /// included headings are their anchors too.
    pub fn includes_under(
        &mut self,
        dir: PathBuf,
        includes: super::site::Includes,
    ) -> &mut Self {
        self.includes_under.retain(|(d, _)| *d != dir);
        self.includes_under.push((dir, includes));
        self
    }
    /// Whether a target outside the root holds (when it exists).
    pub fn allow_outside_root(&mut self, yes: bool) -> &mut Self {
        self.allow_outside_root = yes;
        self
    }
    /// Which reader reads a Markdown target's headings, as
    /// [`LinkExtractorBuilder::markdown_parser`] for links (both give
    /// the same anchors). Default: [`MarkdownParser::Uriscan`].
    ///
    /// [`LinkExtractorBuilder::markdown_parser`]: crate::links::LinkExtractorBuilder::markdown_parser
    /// [`MarkdownParser::Uriscan`]: crate::links::MarkdownParser::Uriscan
    pub fn markdown_parser(
        &mut self,
        parser: crate::links::MarkdownParser,
    ) -> &mut Self {
        self.markdown_parser = parser;
        self
    }
    /// The anchor style of the Markdown document at `path`.
    /// The folder of the site that `path` is in, or `path`'s own folder
    /// when no site was found: what its includes may read.
    fn site_dir_of<'p>(&'p self, path: &'p Path) -> &'p Path {
        self.anchors_under
            .iter()
            .find(|(dir, _)| path.starts_with(dir))
            .map_or_else(
                || path.parent().unwrap_or(Path::new("")),
                |(dir, _)| dir.as_path(),
            )
    }
    fn style_for(&self, path: &Path) -> AnchorStyle {
        self.anchors_under
            .iter()
            .find(|(dir, _)| path.starts_with(dir))
            .map_or(self.anchors, |&(_, style)| style)
    }
    /// The checker.
    pub fn build(&self) -> Checker {
        Checker { opts: self.clone() }
    }
}

/// The offline checker: each link's local target, and its fragment, against
/// the file system, as a map-reduce in the manner of hyperlink.
///
/// 1. The caller reads every document (in parallel, on its walker) and
///    hands its links to a [`Collector`], and for HTML the ids it
///    defines, read in the same pass ([`LinkExtractor::extract_with_anchors`]).
/// 2. [`Collector::finish`] gathers the distinct target paths, and asks the
///    file system about each once, in parallel (rayon): does it exist,
///    with exactly this case, as a file or a directory, through an index
///    file or a fallback extension.
/// 3. The documents whose anchors some link wants are read once each, in
///    parallel, unless their ids came with step 1.
/// 4. Each link gets its verdict from those tables, with no lock.
///
/// [`LinkExtractor::extract_with_anchors`]: crate::links::LinkExtractor::extract_with_anchors
/// [`Collector`]: super::Collector
/// [`Collector::finish`]: super::Collector::finish
#[derive(Clone, Debug)]
pub struct Checker {
    opts: CheckerBuilder,
}

/// What the file system says of one target path.
#[derive(Clone, Debug)]
enum Found {
    /// A file: the path to read for its anchors (itself, or the file a
    /// fallback extension found).
    File(PathBuf),
    /// A directory, and its index file if it has one.
    Dir(Option<PathBuf>),
    /// Only with another case: the name as it is, and its number among
    /// the texts (set once every target is found).
    CaseDiffers(String, u32),
    /// Nothing; the closest existing name in the nearest directory.
    Missing(Option<String>),
    /// Not known: a directory on the way denies its listing.
    Denied,
}

/// The listings of directories, read once each: for the case check and
/// for suggestions.
#[derive(Default)]
struct Listings(Mutex<FxHashMap<PathBuf, Arc<Listing>>>);

/// One directory's names: a set for the exact lookup of each path's
/// components (a directory of rustdoc holds thousands of pages, and tens
/// of thousands of paths look in it), and, made the first time a name is
/// missing, the names as text and lowercased.
#[derive(Default)]
struct Listing {
    names: Vec<OsString>,
    set: FxHashSet<OsString>,
    /// Whether the directory could not be read for want of permission.
    denied: bool,
    /// `names` as text (lossily), and each lowercased name with the
    /// first of `names` that lowercases to it.
    text: std::sync::OnceLock<(Vec<String>, FxHashMap<String, usize>)>,
    /// The index of the names for suggestions, made the first time one
    /// is wanted.
    suggester: std::sync::OnceLock<Suggester>,
    /// Set once a path in this directory was found with its exact case
    /// from the root down: the directory's own path then needs no walk.
    exact_path: std::sync::OnceLock<()>,
}

impl Listing {
    /// The closest name to `wanted`, for a suggestion.
    fn suggest(&self, wanted: &str) -> Option<&str> {
        let names = &self.text().0;
        self.suggester
            .get_or_init(|| Suggester::new(names))
            .suggest(wanted, names)
    }

    fn text(&self) -> &(Vec<String>, FxHashMap<String, usize>) {
        self.text.get_or_init(|| {
            let text: Vec<String> = self
                .names
                .iter()
                .map(|n| n.to_string_lossy().into_owned())
                .collect();
            let mut lower = FxHashMap::default();
            for (k, name) in text.iter().enumerate() {
                lower.entry(name.to_lowercase()).or_insert(k);
            }
            (text, lower)
        })
    }

    /// The first name that is `name` but for case.
    fn other_case(&self, name: &std::ffi::OsStr) -> Option<&OsString> {
        let lower = name.to_string_lossy().to_lowercase();
        self.text().1.get(&lower).map(|&k| &self.names[k])
    }
}

impl Listings {
    fn get(&self, dir: &Path) -> Arc<Listing> {
        if let Some(l) =
            self.0.lock().unwrap_or_else(|e| e.into_inner()).get(dir)
        {
            return l.clone();
        }
        let read = std::fs::read_dir(dir).map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.file_name())).collect()
        });
        self.insert(dir, Listing::of(read))
    }

    /// Puts `listing` in as `dir`'s.
    fn insert(&self, dir: &Path, listing: Listing) -> Arc<Listing> {
        let listing = Arc::new(listing);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(dir.to_path_buf(), listing.clone());
        listing
    }
}

impl Listing {
    /// The listing a directory's read gave.
    fn of(read: std::io::Result<Vec<OsString>>) -> Listing {
        let denied = read
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied);
        let names = read.unwrap_or_default();
        let set = names.iter().cloned().collect();
        Listing {
            names,
            set,
            denied,
            text: Default::default(),
            suggester: Default::default(),
            exact_path: Default::default(),
        }
    }
}

impl Checker {
    /// A checker with the defaults of [`CheckerBuilder::new`].
    pub fn new() -> Checker {
        CheckerBuilder::new().build()
    }
    /// A builder.
    pub fn builder() -> CheckerBuilder {
        CheckerBuilder::new()
    }

    /// Keeps `bytes`, as read from the Docusaurus partial at `path` (a
    /// `_`-prefixed Markdown file), for the anchors of the pages that
    /// import it: they then read no file again. Every checker built from
    /// the same builder, or a clone of it, shares what is kept, as long
    /// as it lives (a tree changed since wants a new builder); past a
    /// bound on the kept bytes, a partial is read again.
    pub fn keep_partial(&self, path: &Path, bytes: &[u8]) {
        self.opts.partials.keep(path, bytes);
    }

    /// Whether fragments are checked.
    pub(crate) fn checks_fragments(&self) -> bool {
        self.opts.fragments
    }

    /// Checks every link of `docs`, whose paths and fragments `table`
    /// numbers: one verdict per link, in the same order, for each
    /// document; and the texts the verdicts' reasons name by number.
    pub(crate) fn check_facts(
        &self,
        table: &LinkTable,
        docs: &[DocumentFacts],
    ) -> (Vec<Vec<Verdict>>, Texts) {
        let listings = Listings::default();
        let uniq = table.paths();
        let mut texts = table.texts();
        // Step 2: each distinct local target once.
        let mut found: Vec<Found> =
            uniq.par_iter().map(|p| self.find(p, &listings)).collect();
        // The names as they are, among the texts the reasons name.
        for f in &mut found {
            if let Found::CaseDiffers(actual, text) = f {
                *text = texts.push(actual);
            }
        }
        // Step 3: the anchors of each document some fragment points into,
        // following redirect pages (a meta refresh, as rustdoc and site
        // generators leave where a page moved) a few hops.
        let known: FxHashMap<&[u8], (&[String], Option<PathBuf>)> = docs
            .iter()
            .filter_map(|d| {
                Some((key(&d.path), (d.ids.as_deref()?, d.redirect.clone())))
            })
            .collect();
        let mut wanted: FxHashMap<Vec<u8>, PathBuf> = if self.opts.fragments {
            docs.iter()
                .flat_map(|d| d.links())
                .filter(|f| f.fragment().is_some())
                .filter_map(|f| match &found[f.path_id()? as usize] {
                    Found::File(p) | Found::Dir(Some(p)) => Some((key(p), p)),
                    _ => None,
                })
                .collect::<FxHashMap<&[u8], &PathBuf>>()
                .into_values()
                .map(|p| (key(p).to_vec(), p.clone()))
                .collect()
        } else {
            FxHashMap::default()
        };
        // The anchors the reading named of Markdown documents: used where
        // this checker names them the same way, else read again.
        let kept: FxHashMap<&[u8], &KeptAnchors> = docs
            .iter()
            .filter_map(|d| Some((key(&d.path), d.kept_anchors.as_ref()?)))
            .collect();
        let mut read: FxHashMap<Vec<u8>, Targets> = FxHashMap::default();
        let mut pending: Vec<PathBuf> = wanted.values().cloned().collect();
        for _ in 0..=MAX_REDIRECTS {
            let myst = myst_directories(pending.iter().map(PathBuf::as_path));
            let new: Vec<(Vec<u8>, Targets)> = pending
                .par_iter()
                .filter(|p| !known.contains_key(key(p)))
                .map(|p| {
                    let targets = kept
                        .get(key(p))
                        .and_then(|k| self.kept_targets(p, k, &myst))
                        .unwrap_or_else(|| self.targets_of(p, &myst));
                    (key(p).to_vec(), targets)
                })
                .collect();
            read.extend(new);
            let redirects: Vec<PathBuf> = pending
                .iter()
                .filter_map(|p| match (known.get(key(p)), read.get(key(p))) {
                    (Some((_, r)), _) => r.clone(),
                    (None, Some(Targets::Ids(_, r))) => r.clone(),
                    _ => None,
                })
                .filter(|r| !wanted.contains_key(key(r)))
                .collect();
            wanted.extend(
                redirects.iter().map(|r| (key(r).to_vec(), r.clone())),
            );
            pending = redirects;
            if pending.is_empty() {
                break;
            }
        }
        // Each wanted document's anchors as a set, built once: a page of
        // the Rust documentation defines thousands of ids, and hundreds of
        // links into it each look one up.
        let lookups: FxHashMap<&[u8], Lookup<'_>> = wanted
            .par_iter()
            .map(|(k, _)| {
                let l = match known.get(k.as_slice()) {
                    Some((ids, r)) => Lookup::ids(ids, r.as_deref()),
                    None => match read.get(k.as_slice()) {
                        Some(Targets::Ids(ids, r)) => {
                            Lookup::ids(ids, r.as_deref())
                        }
                        Some(Targets::Lines(n)) => Lookup::Lines(*n),
                        _ => Lookup::Unknown,
                    },
                };
                (k.as_slice(), l)
            })
            .collect();
        let labels = Labels::of(docs);
        let terms = Labels::terms_of(docs);
        // Step 4: the verdicts.
        let verdicts = docs
            .par_iter()
            .map(|d| {
                d.links()
                    .iter()
                    .map(|f| {
                        let path = f.path_id().map(|p| {
                            (uniq[p as usize].as_path(), &found[p as usize])
                        });
                        let mut v = match (f.label(), f.term()) {
                            (Some(l), _) => {
                                let v = labels.verdict(l, &texts);
                                myst_fallback(v, d, path)
                            }
                            (_, Some(t)) => terms.verdict(t, &texts),
                            _ => self.verdict(d, f, path, &texts, &lookups),
                        };
                        v.local = f.is_file();
                        v
                    })
                    .collect()
            })
            .collect();
        (verdicts, texts)
    }

    fn verdict(
        &self,
        doc: &DocumentFacts,
        facts: &LinkFacts,
        path: Option<(&Path, &Found)>,
        texts: &Texts,
        lookups: &FxHashMap<&[u8], Lookup<'_>>,
    ) -> Verdict {
        let error = facts.error().unwrap_or(NO_TEXT);
        match facts.what() {
            TargetKind::Excluded => return Verdict::excluded(),
            TargetKind::Malformed => {
                return Verdict::broken(Why::Malformed, error, None);
            }
            TargetKind::Address(true) => return Verdict::ok(),
            TargetKind::Address(false) => {
                return Verdict::broken(Why::BadAddress, NO_TEXT, None);
            }
            TargetKind::Other | TargetKind::Label | TargetKind::Term => {
                return Verdict::skipped();
            }
            TargetKind::Unresolvable(kind) => {
                let why = Why::NotOffline(Offline::Rst(kind));
                return Verdict::skipped_for(why);
            }
            TargetKind::Template => {
                return Verdict::skipped_for(Why::Template);
            }
            TargetKind::Downloaded => {
                let why = Why::NotOffline(Offline::Downloaded);
                return Verdict::skipped_for(why);
            }
            TargetKind::IncludedUrl => {
                let why = Why::NotOffline(Offline::IncludedUrl);
                return Verdict::skipped_for(why);
            }
            TargetKind::UnusedDefinition => {
                return Verdict::warning(Why::UnusedDefinition, NO_TEXT);
            }
            TargetKind::DuplicateDefinition => {
                // The facts keep the line in a `u32`.
                let line = facts.first_definition_line().unwrap_or(0);
                let line = u32::try_from(line).unwrap_or(0);
                return Verdict::warning(Why::DuplicateDefinition, line);
            }
            TargetKind::Warned => {
                return Verdict::warning(Why::Warned, error);
            }
            TargetKind::Unavailable => {
                return Verdict::broken(Why::NotOnSite, error, None);
            }
            TargetKind::File | TargetKind::MappedFile => {}
        }
        let Some((path, found)) = path else {
            // A file: URI with a host names another machine.
            return Verdict::skipped();
        };
        // A mapped target never leaves the root: a mapping (which a
        // checked tree's configuration may hold) widens nothing.
        let may_leave = self.opts.allow_outside_root
            && facts.what() != TargetKind::MappedFile;
        if !may_leave && !is_under(path, &doc.root) {
            return Verdict::broken(Why::OutsideRoot, NO_TEXT, None);
        }
        let doc_path = match found {
            Found::File(p) => Some(p),
            Found::Dir(index) => index.as_ref(),
            Found::CaseDiffers(actual, text) => {
                let s = Suggestion::Tail(actual.clone());
                return Verdict::broken(Why::CaseDiffers, *text, Some(s));
            }
            Found::Missing(near) => {
                let s = missing_suggestion(near.as_deref(), path, &doc.path);
                return Verdict::broken(Why::NoSuchFile, NO_TEXT, s);
            }
            Found::Denied => {
                return Verdict::broken(Why::PermissionDenied, NO_TEXT, None);
            }
        };
        let Some(fragment_id) = facts.fragment() else {
            return Verdict::ok();
        };
        let raw_fragment = &texts[fragment_id as usize];
        let Some(doc_path) = doc_path else {
            return Verdict::broken(Why::NoIndexFile, NO_TEXT, None);
        };
        let fragment = crate::links::percent_decode(raw_fragment);
        let mut at = doc_path.as_path();
        for _ in 0..=MAX_REDIRECTS {
            match lookups.get(key(at)) {
                Some(Lookup::Ids { redirect: Some(r), set, .. })
                    if !self.holds(set, raw_fragment, &fragment, at) =>
                {
                    at = r;
                }
                _ => break,
            }
        }
        match lookups.get(key(at)) {
            Some(Lookup::Ids { set, all, suggester, .. }) => {
                if self.holds(set, raw_fragment, &fragment, at) {
                    return Verdict::ok();
                }
                let s = suggester
                    .get_or_init(|| Suggester::new(all))
                    .suggest(&fragment, all)
                    .map(|a| Suggestion::Whole(format!("#{a}")));
                Verdict::broken(Why::NoAnchor, fragment_id, s)
            }
            Some(Lookup::Lines(n)) => match line_fragment(&fragment) {
                Some((a, b)) if a >= 1 && b <= *n && a <= b => Verdict::ok(),
                Some(_) => Verdict::broken(Why::NoSuchLine, fragment_id, None),
                // Another file's fragment cannot be checked.
                None => Verdict::ok(),
            },
            _ => Verdict::ok(),
        }
    }

    /// Whether the document at `path`, with anchors `set`, has what the
    /// fragment names. As the HTML standard finds "the indicated part of
    /// the document": the fragment as written first, then
    /// percent-decoded (rustdoc writes ids such as `impl-From%3CT%3E`).
    /// Markdown anchors match as their renderer matches them
    /// ([`AnchorStyle::fragment_targets`]). A range `12-20` holds when
    /// both lines' ids exist: rustdoc's source pages and other code
    /// viewers highlight such ranges by script.
    fn holds(
        &self,
        set: &FxHashSet<&str>,
        raw: &str,
        decoded: &str,
        path: &Path,
    ) -> bool {
        if set.contains(raw) || set.contains(decoded) {
            return true;
        }
        if is_markdown(path) {
            let style = self.opts.style_for(path);
            return style
                .fragment_targets(decoded)
                .iter()
                .any(|a| set.contains(a.as_str()));
        }
        match decoded.split_once('-') {
            Some((a, b)) if is_digits(a) && is_digits(b) => {
                set.contains(a) && set.contains(b)
            }
            _ => false,
        }
    }

    /// What the file system says of `path`.
    fn find(&self, path: &Path, listings: &Listings) -> Found {
        match exact_case(path, listings) {
            Ok(()) => {}
            Err(Some(actual)) => return Found::CaseDiffers(actual, NO_TEXT),
            Err(None) => {
                // Missing: the fallback extensions, then a suggestion.
                for p in self.fallbacks(path) {
                    if exact_case(&p, listings).is_ok() && p.is_file() {
                        return Found::File(p);
                    }
                }
                if let Some(source) = sphinx::source_of(path) {
                    return Found::File(source);
                }
                if denied_on_the_way(path, listings) {
                    return Found::Denied;
                }
                return Found::Missing(nearest_name(path, listings));
            }
        }
        if path.is_dir() {
            let index = self
                .opts
                .index_files
                .iter()
                .map(|n| path.join(n))
                .find(|p| p.is_file());
            Found::Dir(index)
        } else {
            Found::File(path.to_path_buf())
        }
    }

    /// The paths a fallback extension gives for a missing `path`: the
    /// same name with each other fallback extension when its extension is
    /// one of them; else, for an `.html` or `.htm` page, its name with
    /// each in its place (`x.html` by `x.md`, as a generator built it),
    /// then the name with each added.
    fn fallbacks(&self, path: &Path) -> Vec<PathBuf> {
        let exts = &self.opts.fallback_extensions;
        let own = path.extension().and_then(|e| e.to_str());
        let added = exts.iter().map(|x| {
            let mut s = path.as_os_str().to_owned();
            s.push(".");
            s.push(x);
            PathBuf::from(s)
        });
        match own {
            Some(e) if exts.iter().any(|x| x.eq_ignore_ascii_case(e)) => exts
                .iter()
                .filter(|x| !x.eq_ignore_ascii_case(e))
                .map(|x| path.with_extension(x))
                .collect(),
            Some(e)
                if e.eq_ignore_ascii_case("html")
                    || e.eq_ignore_ascii_case("htm") =>
            {
                exts.iter()
                    .map(|x| path.with_extension(x))
                    .chain(added)
                    .collect()
            }
            _ => added.collect(),
        }
    }

    /// The anchors the reading kept of the Markdown document at `path`,
    /// where they are what [`Checker::targets_of`] would read: named in
    /// the style this checker gives it, from its text alone.
    fn kept_targets(
        &self,
        path: &Path,
        kept: &KeptAnchors,
        myst: &FxHashMap<&Path, bool>,
    ) -> Option<Targets> {
        if Format::from_path(path) != Format::Markdown {
            return None;
        }
        let includes = self
            .opts
            .includes_under
            .iter()
            .any(|(dir, _)| path.starts_with(dir));
        let how = (self.opts.style_for(path), self.opts.markdown_parser);
        // A directory not asked counts as MyST: the target is read again.
        let in_myst = || {
            path.parent()
                .and_then(|dir| myst.get(dir))
                .copied()
                .unwrap_or(true)
        };
        let names = kept.names_for(how, includes, in_myst)?;
        Some(Targets::Ids(names, None))
    }

    /// Reads the anchors (or lines) of a document a fragment points into.
    /// `myst` says, by directory, whether a Markdown page is in a MyST
    /// project (a directory not in it is asked).
    fn targets_of(
        &self,
        path: &Path,
        myst: &FxHashMap<&Path, bool>,
    ) -> Targets {
        let Ok(bytes) = std::fs::read(path) else {
            return Targets::Unknown;
        };
        match Format::from_path(path) {
            format @ (Format::Markdown | Format::Mdx) => {
                // Nearly every page is valid UTF-8, which the standard
                // check confirms a word at a time; the lossy decoding
                // walks it a byte at a time.
                let source = match std::str::from_utf8(&bytes) {
                    Ok(text) => Cow::Borrowed(text),
                    Err(_) => String::from_utf8_lossy(&bytes),
                };
                let style = self.opts.style_for(path);
                // MDX's Markdown is what its ESM and expressions leave.
                let text: Cow<'_, str> = match format {
                    Format::Mdx if style == AnchorStyle::Docusaurus => {
                        crate::links::mdx_markdown(&anchors::mdx_comment_ids(
                            &source,
                        ))
                        .into()
                    }
                    Format::Mdx => crate::links::mdx_markdown(&source).into(),
                    _ => Cow::Borrowed(&source),
                };
                // With the files it includes in place; a page without an
                // include directive keeps its text, not a copy of it.
                let expanded = self
                    .opts
                    .includes_under
                    .iter()
                    .find(|(dir, _)| path.starts_with(dir))
                    .and_then(|(_, includes)| {
                        match super::site::includes::expanded(
                            &text, path, includes,
                        ) {
                            Cow::Owned(with_includes) => Some(with_includes),
                            Cow::Borrowed(_) => None,
                        }
                    });
                let text = expanded.map_or(text, Cow::Owned);
                let in_myst = path.parent().and_then(|dir| myst.get(dir));
                if in_myst != Some(&false)
                    && let Some(ids) = sphinx::myst_anchors_of(path, &text)
                {
                    return Targets::Ids(ids, None);
                }
                let parser = self.opts.markdown_parser;
                let mut ids =
                    anchors::markdown_anchor_names_with(&text, style, parser);
                // Docusaurus renders an imported partial's headings on
                // the page, with the ids its own file gives them.
                if style == AnchorStyle::Docusaurus {
                    for partial in super::site::partials::rendered_texts(
                        &source,
                        path,
                        self.opts.site_dir_of(path),
                        &self.opts.partials,
                    ) {
                        ids.extend(anchors::markdown_anchor_names_with(
                            &partial, style, parser,
                        ));
                    }
                }
                Targets::Ids(ids, None)
            }
            // In a Sphinx project, ids as Sphinx makes them; with those
            // of the files it includes.
            Format::Rst => Targets::Ids(sphinx::rst_anchors_of(path), None),
            Format::Html => {
                let page = crate::links::Page::new(&bytes, Format::Html);
                let url =
                    crate::links::file_uri(path, crate::links::PathKind::File);
                let page = page.url(&url);
                let (links, ids) = crate::links::LinkExtractor::new()
                    .extract_with_anchors(&page);
                let links: Vec<Link> = links.collect();
                Targets::Ids(ids.unwrap_or_default(), refresh_target(&links))
            }
            // With those of the files it includes.
            Format::AsciiDoc => Targets::Ids(
                super::asciidoc_includes::asciidoc_anchors_of(
                    path,
                    &String::from_utf8_lossy(&bytes),
                ),
                None,
            ),
            _ => Targets::Lines(
                memchr::memchr_iter(b'\n', &bytes).count()
                    + usize::from(
                        !bytes.is_empty() && !bytes.ends_with(b"\n"),
                    ),
            ),
        }
    }
}

impl Default for Checker {
    fn default() -> Self {
        Self::new()
    }
}

/// What a fragment may name in a target.
#[derive(Clone, Debug)]
enum Targets {
    /// HTML ids or Markdown anchors, and a redirect page's target.
    Ids(Vec<String>, Option<PathBuf>),
    /// Another file: its number of lines, for GitHub's `#L10`.
    Lines(usize),
    /// Unreadable now: nothing to say.
    Unknown,
}

/// The labels `:ref:` links name (or the glossary terms `:term:` links
/// name): every one of the reStructuredText and MyST documents checked,
/// read from them when some link wants one. Sphinx keeps one namespace of
/// each for the whole project, so the index is the union over the
/// documents, keyed as Sphinx keys them.
struct Labels {
    set: FxHashSet<String>,
    all: Vec<String>,
    suggester: std::sync::OnceLock<Suggester>,
    /// Why a key that is not there is broken.
    missing: Why,
}

impl Labels {
    fn of(docs: &[DocumentFacts]) -> Labels {
        let wanted = |f: &LinkFacts| f.label().is_some();
        let mut labels =
            Labels::read(docs, wanted, sphinx::labels_of, Why::NoLabel);
        // The labels Sphinx's standard domain defines itself.
        labels.set.extend(SPHINX_LABELS.iter().map(|l| l.to_string()));
        labels
    }

    /// The glossary terms of the documents, for `:term:`.
    fn terms_of(docs: &[DocumentFacts]) -> Labels {
        let wanted = |f: &LinkFacts| f.term().is_some();
        Labels::read(docs, wanted, sphinx::terms_of, Why::NoTerm)
    }

    /// The names `read` finds in the documents, when a link `wanted` is
    /// among theirs.
    fn read(
        docs: &[DocumentFacts],
        wanted: fn(&LinkFacts) -> bool,
        read: fn(&Path, &Path) -> Vec<String>,
        missing: Why,
    ) -> Labels {
        let all: Vec<String> =
            if docs.iter().any(|d| d.links().iter().any(wanted)) {
                let myst =
                    myst_directories(docs.iter().map(|d| d.path.as_path()));
                docs.par_iter()
                    .filter(|d| may_define_labels(&d.path, &myst))
                    .flat_map_iter(|d| read(&d.path, &d.root))
                    .collect()
            } else {
                vec![]
            };
        let set: FxHashSet<String> = all.iter().cloned().collect();
        Labels { set, all, suggester: std::sync::OnceLock::new(), missing }
    }

    /// The verdict on a link to the key number `key` of `texts`.
    fn verdict(&self, key: u32, texts: &Texts) -> Verdict {
        let text = texts.get(key).unwrap_or("");
        if self.set.contains(text) {
            return Verdict::ok();
        }
        let s = self
            .suggester
            .get_or_init(|| Suggester::new(&self.all))
            .suggest(text, &self.all)
            .map(|a| Suggestion::Whole(a.to_owned()));
        Verdict::broken(self.missing, key, s)
    }
}

/// Whether the directory of each of `paths` is in a MyST project (a
/// `conf.py` above it that loads myst-parser), asked once a directory
/// rather than once a document: each asking looks for the file in every
/// directory up.
fn myst_directories<'a>(
    paths: impl Iterator<Item = &'a Path>,
) -> FxHashMap<&'a Path, bool> {
    let dirs: FxHashSet<&Path> = paths.filter_map(Path::parent).collect();
    let dirs: Vec<&Path> = dirs.into_iter().collect();
    dirs.into_par_iter()
        .map(|dir| {
            let myst =
                sphinx::SphinxConf::of(&dir.join("_")).is_some_and(|c| c.myst);
            (dir, myst)
        })
        .collect()
}

/// Whether the document at `path` may define Sphinx labels or glossary
/// terms: a reStructuredText one, or a Markdown one in a MyST project
/// (`myst`, by directory); the readers of both find none in another.
fn may_define_labels(path: &Path, myst: &FxHashMap<&Path, bool>) -> bool {
    match Format::from_path(path) {
        Format::Rst => true,
        Format::Markdown => {
            path.parent().is_none_or(|dir| myst.get(dir) != Some(&false))
        }
        _ => false,
    }
}

/// The verdict on a link to a label that names no label: a MyST link to a
/// label (which has a path) may name a document, or a file beside its
/// document, instead (`[text](intro)`), as MyST tries them.
fn myst_fallback(
    v: Verdict,
    doc: &DocumentFacts,
    path: Option<(&Path, &Found)>,
) -> Verdict {
    match path {
        Some((p, Found::File(_) | Found::Dir(_)))
            if v.status() == Status::Broken && is_under(p, &doc.root) =>
        {
            Verdict::ok()
        }
        _ => v,
    }
}

/// The labels of the pages every Sphinx build makes.
const SPHINX_LABELS: &[&str] =
    &["genindex", "modindex", "py-modindex", "search"];

/// A path's bytes, the key of the maps.
fn key(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// Whether `path` is `root` or below it, compared as bytes (both come
/// normalized: decoded `file:` URIs, canonical roots).
fn is_under(path: &Path, root: &Path) -> bool {
    let (p, r) = (key(path), key(root));
    p.starts_with(r)
        && (p.len() == r.len() || p[r.len()] == b'/' || r.ends_with(b"/"))
}

/// How many redirect pages a fragment is followed through.
const MAX_REDIRECTS: usize = 5;

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A wanted document's anchors, ready for lookups.
enum Lookup<'a> {
    /// The anchors as a set, and as a list for suggestions; the page a
    /// redirect page sends to.
    Ids {
        set: FxHashSet<&'a str>,
        all: &'a [String],
        /// The index of `all` for suggestions, made the first time one
        /// is wanted.
        suggester: std::sync::OnceLock<Suggester>,
        redirect: Option<&'a Path>,
    },
    /// Another file's number of lines.
    Lines(usize),
    /// Nothing known.
    Unknown,
}

impl<'a> Lookup<'a> {
    fn ids(ids: &'a [String], redirect: Option<&'a Path>) -> Lookup<'a> {
        Lookup::Ids {
            set: ids.iter().map(String::as_str).collect(),
            all: ids,
            suggester: std::sync::OnceLock::new(),
            redirect,
        }
    }
}

fn is_markdown(path: &Path) -> bool {
    Format::from_path(path) == Format::Markdown
}

/// `L10` or `L10-L20` (GitHub's line fragments).
fn line_fragment(f: &str) -> Option<(usize, usize)> {
    let (a, b) = match f.split_once('-') {
        Some((a, b)) => (a, b),
        None => (f, f),
    };
    let n = |s: &str| s.strip_prefix('L')?.parse::<usize>().ok();
    Some((n(a)?, n(b)?))
}

/// Whether `path` exists with exactly this case, from its root down:
/// `Err(Some(name))` when it exists only with another case in some
/// component (the path's last name as it is, with every component's case
/// corrected up to there), `Err(None)` when not at all. The listings are
/// cached, so each directory is read once however many links look in it.
fn exact_case(path: &Path, listings: &Listings) -> Result<(), Option<String>> {
    // A directory whose own path held before: its name alone is asked.
    let parent = match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) if !dir.as_os_str().is_empty() => {
            let listing = listings.get(dir);
            if listing.exact_path.get().is_some() {
                // The walk would find every name up to here as it is.
                if listing.set.contains(name) {
                    return Ok(());
                }
                return match listing.other_case(name) {
                    Some(actual) => Err(Some(actual.to_string_lossy().into())),
                    None => Err(None),
                };
            }
            Some(listing)
        }
        _ => None,
    };
    let walked = walk_exact_case(path, listings);
    if let (Ok(()), Some(listing)) = (&walked, parent) {
        let _ = listing.exact_path.set(());
    }
    walked
}

/// [`exact_case`] by a walk from the root, each component asked of its
/// directory's listing.
fn walk_exact_case(
    path: &Path,
    listings: &Listings,
) -> Result<(), Option<String>> {
    let mut at = PathBuf::new();
    let mut first_diff: Option<usize> = None;
    for (i, c) in path.components().enumerate() {
        let std::path::Component::Normal(name) = c else {
            at.push(c);
            continue;
        };
        let listing = listings.get(&at);
        if listing.set.contains(name) {
            at.push(name);
            continue;
        }
        match listing.other_case(name) {
            Some(actual) => {
                first_diff.get_or_insert(i);
                at.push(actual);
            }
            None => return Err(None),
        }
    }
    match first_diff {
        // The path as it is, from the first component whose case differs.
        Some(i) => {
            let tail: PathBuf = at.components().skip(i).collect();
            Err(Some(tail.to_string_lossy().into_owned()))
        }
        None => Ok(()),
    }
}

/// Whether a directory above `path` (already listed) denied its listing.
fn denied_on_the_way(path: &Path, listings: &Listings) -> bool {
    path.ancestors().skip(1).any(|dir| listings.get(dir).denied)
}

/// The closest existing name in the parent directory of a missing path.
fn nearest_name(path: &Path, listings: &Listings) -> Option<String> {
    let parent = path.parent()?;
    let name = path.file_name()?.to_string_lossy();
    let listing = listings.get(parent);
    listing.suggest(&name).map(str::to_owned)
}

/// The suggestion for the missing `path` whose directory's closest name
/// is `near`, in a link of the document at `doc_path`: the linking
/// document is never what it meant.
fn missing_suggestion(
    near: Option<&str>,
    path: &Path,
    doc_path: &Path,
) -> Option<Suggestion> {
    near.filter(|n| path.with_file_name(n) != doc_path)
        .map(|n| Suggestion::LastSegment(n.to_owned()))
}

/// `link` with the last segment of its path replaced by `name`: how a
/// suggested file is written as the link would write it.
fn replace_last_segment(link: &str, name: &str) -> Option<String> {
    let end = link.find(['?', '#']).unwrap_or(link.len());
    let start = link[..end].rfind('/').map_or(0, |i| i + 1);
    Some(format!("{}{}{}", &link[..start], name, &link[end..]))
}

/// `link` with its last path segments replaced by the segments of
/// `tail` (a path whose case differs): how the right name is written as
/// the link would write it.
fn replace_tail(link: &str, tail: &str) -> Option<String> {
    let end = link.find(['?', '#']).unwrap_or(link.len());
    let mut segs: Vec<&str> = link[..end].split('/').collect();
    let new: Vec<&str> = tail.split('/').collect();
    // A trailing slash leaves an empty last segment, kept.
    let trailing = segs.last() == Some(&"");
    if trailing {
        segs.pop();
    }
    if new.len() > segs.len() {
        return None;
    }
    let keep = segs.len() - new.len();
    let mut out = segs[..keep].join("/");
    if keep > 0 {
        out.push('/');
    }
    out.push_str(&new.join("/"));
    if trailing {
        out.push('/');
    }
    out.push_str(&link[end..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statuses of the links of `index.md` into `page.md`, whose
    /// anchors the walk named in `kept_in` as it read it: the page
    /// changes on disk after it was read, so that the verdicts say
    /// whether the kept anchors were used (`#usage-1`, `#custom` and
    /// `#title-custom` are those of the page as read in GitHub's
    /// style, `#now` that of the page as it is now).
    fn statuses_with_kept(
        root: &Path,
        kept_in: AnchorStyle,
        b: &CheckerBuilder,
    ) -> Vec<Status> {
        use crate::links::{LinkExtractor, Page, PathKind, file_uri};
        let read = "# Title {#custom}\n\n## Usage\n\n## Usage\n";
        let links = "[a](page.md#usage-1) [b](page.md#custom) \
                     [c](page.md#title-custom) [d](page.md#now)\n";
        let page = root.join("page.md");
        let checker = b.build();
        let mut c = checker.collector();
        for (path, text) in [(&page, read), (&root.join("index.md"), links)] {
            std::fs::write(path, text).unwrap();
            let url = file_uri(path, PathKind::File);
            let p = Page::new(text.as_bytes(), Format::Markdown).url(&url);
            let mut d = c.document(vec![]);
            let (ids, kept) = anchors::for_each_with_kept_anchors(
                &LinkExtractor::new(),
                &p,
                Some(kept_in),
                |l| d.push(l),
            );
            d.keep_anchors(kept.unwrap());
            d.finish(path.clone(), root.to_path_buf(), ids, ());
        }
        std::fs::write(&page, "## Now\n").unwrap();
        let checked = c.finish();
        checked.documents[1].verdicts.iter().map(Verdict::status).collect()
    }

    /// A Markdown page's anchors named as the walk read it stand for the
    /// page only where the check names them in the same style, by the
    /// same reader, from the same text; elsewhere the page is read again.
    #[test]
    fn kept_anchors_are_used_only_where_named_the_same_way() {
        use Status::{Broken, Ok};
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let github = AnchorStyle::Github;
        let docusaurus = AnchorStyle::docusaurus();
        let mkdocs = AnchorStyle::mkdocs(None, &[]).unwrap();
        let kept = [Ok, Ok, Ok, Broken];
        let read_again = [Broken, Broken, Broken, Ok];
        let b = Checker::builder();
        assert_eq!(statuses_with_kept(&root, github, &b), kept);
        // A site found later in the walk gives the page another style.
        let mut site = Checker::builder();
        site.anchors_under(root.clone(), mkdocs);
        assert_eq!(statuses_with_kept(&root, github, &site), read_again);
        assert_eq!(
            statuses_with_kept(&root, mkdocs, &site),
            [Broken, Ok, Broken, Broken]
        );
        // Docusaurus names no level-1 heading, `{#custom}` or not.
        let mut d = Checker::builder();
        d.anchors(docusaurus);
        assert_eq!(statuses_with_kept(&root, github, &d), read_again);
        assert_eq!(
            statuses_with_kept(&root, docusaurus, &d),
            [Ok, Broken, Broken, Broken]
        );
        // pulldown-cmark reads the targets.
        let mut p = Checker::builder();
        p.markdown_parser(crate::links::MarkdownParser::Pulldown);
        assert_eq!(statuses_with_kept(&root, github, &p), read_again);
        // MyST, in a Sphinx project: read as MyST (no heading anchors).
        std::fs::write(root.join("conf.py"), "extensions = ['myst_parser']\n")
            .unwrap();
        assert_eq!(statuses_with_kept(&root, github, &b)[0], Broken);
    }

    /// A Docusaurus partial the walk read is read once a run: the anchors
    /// of the pages that import it come from the bytes kept, here though
    /// the file changed since, by every checker of the same builder.
    #[test]
    fn a_kept_partial_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().canonicalize().unwrap();
        let docs = site.join("docs");
        std::fs::create_dir_all(&docs).unwrap();
        let import = "import Part from './_part.md';\n\n# Page\n\n<Part />\n";
        std::fs::write(docs.join("a.mdx"), import).unwrap();
        std::fs::write(docs.join("b.mdx"), import).unwrap();
        std::fs::write(docs.join("_part.md"), "## As read\n").unwrap();
        let mut b = Checker::builder();
        b.anchors_under(site.clone(), AnchorStyle::Docusaurus);
        let ids = |c: &Checker, page: &str| match c
            .targets_of(&docs.join(page), &FxHashMap::default())
        {
            Targets::Ids(ids, _) => ids,
            other => panic!("{other:?}"),
        };
        // Not kept: read from the disk each time, as it is then.
        let c = b.build();
        assert_eq!(ids(&c, "a.mdx"), ["as-read"]);
        std::fs::write(docs.join("_part.md"), "## Changed\n").unwrap();
        assert_eq!(ids(&c, "a.mdx"), ["changed"]);
        // Kept by the walk: its bytes, for every page that imports it.
        c.keep_partial(&docs.join("_part.md"), b"## As read\n");
        std::fs::remove_file(docs.join("_part.md")).unwrap();
        assert_eq!(ids(&c, "a.mdx"), ["as-read"]);
        assert_eq!(ids(&b.clone().build(), "b.mdx"), ["as-read"]);
    }

    /// A target under a directory that denies its listing is said to be
    /// denied, not missing (as root, no directory denies anything, so the
    /// listing is put in by hand).
    #[test]
    fn a_denied_directory_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().canonicalize().unwrap().join("locked");
        std::fs::create_dir(&locked).unwrap();
        let listings = Listings::default();
        let denied =
            std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        listings.insert(&locked, Listing::of(Err(denied)));
        let checker = Checker::new();
        let found = checker.find(&locked.join("a.md"), &listings);
        assert!(matches!(found, Found::Denied), "{found:?}");
        let found = checker.find(&locked.join("sub/a.md"), &listings);
        assert!(matches!(found, Found::Denied), "{found:?}");
        let found = checker.find(&dir.path().join("gone.md"), &listings);
        assert!(matches!(found, Found::Missing(_)), "{found:?}");
        assert_eq!(Reason::PermissionDenied.to_string(), "permission denied");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// A missing file's suggestion is the scan's, name by name, over
        /// its directory (the reference), from whichever file links it:
        /// names alike but for case, ties, characters past ASCII, and the
        /// linking file itself never suggested.
        #[test]
        fn a_missing_file_gets_the_scans_suggestion(
            names in proptest::collection::vec("[aAbB01.é_Ω-]{1,8}", 0..300),
            wanted in "[aAbBc01.é_Ω-]{1,10}",
            linking in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            proptest::prop_assume!(wanted != "." && wanted != "..");
            let mut seen = FxHashSet::default();
            let names: Vec<String> = names
                .into_iter()
                .filter(|n| n != "." && n != ".." && seen.insert(n.clone()))
                .collect();
            let dir = Path::new("/listed");
            let listings = Listings::default();
            let listed = names.iter().map(OsString::from).collect();
            listings.insert(dir, Listing::of(Ok(listed)));
            let path = dir.join(&wanted);
            let reference =
                anchors::suggest(&wanted, names.iter().map(String::as_str));
            let near = nearest_name(&path, &listings);
            proptest::prop_assert_eq!(near.as_deref(), reference);
            // From a file of the directory, perhaps the one suggested.
            let doc = match names.is_empty() {
                true => dir.join("elsewhere.md"),
                false => dir.join(&names[linking.index(names.len())]),
            };
            let fast = missing_suggestion(near.as_deref(), &path, &doc);
            let scan = reference
                .filter(|n| dir.join(n) != doc)
                .map(|n| Suggestion::LastSegment(n.to_owned()));
            proptest::prop_assert_eq!(fast, scan);
        }
    }

    /// The linking file is never its own link's suggestion, even when it
    /// is the closest name.
    #[test]
    fn the_linking_file_is_not_suggested() {
        let (dir, path) = (Path::new("/d"), Path::new("/d/guid.md"));
        let s =
            missing_suggestion(Some("guide.md"), path, &dir.join("guide.md"));
        assert_eq!(s, None);
        let s = missing_suggestion(Some("guide.md"), path, &dir.join("a.md"));
        assert_eq!(s, Some(Suggestion::LastSegment("guide.md".into())));
        assert_eq!(missing_suggestion(None, path, &dir.join("a.md")), None);
    }

    /// A document left out of the reading of labels and terms is one in
    /// which their readers find none: Markdown outside a MyST project,
    /// and every format but reStructuredText and Markdown.
    #[test]
    fn documents_without_labels_are_not_read_for_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (myst, plain) = (root.join("myst"), root.join("plain"));
        std::fs::create_dir_all(myst.join("sub")).unwrap();
        std::fs::create_dir_all(&plain).unwrap();
        std::fs::write(myst.join("conf.py"), "extensions = ['myst_parser']\n")
            .unwrap();
        let page = "(intro)=\n# Intro\n\n```{glossary}\nterm\n: what\n```\n";
        let rst = ".. _intro:\n\nIntro\n=====\n\n.. glossary::\n\n   term\n      what\n";
        let paths = [
            myst.join("a.md"),
            myst.join("sub/b.md"),
            plain.join("c.md"),
            plain.join("d.rst"),
            plain.join("e.html"),
            root.join("f.md"),
        ];
        for p in &paths {
            let text = if p.extension().is_some_and(|e| e == "rst") {
                rst
            } else {
                page
            };
            std::fs::write(p, text).unwrap();
        }
        let dirs = myst_directories(paths.iter().map(PathBuf::as_path));
        for p in &paths {
            let labels = sphinx::labels_of(p, &root);
            let terms = sphinx::terms_of(p, &root);
            let read = may_define_labels(p, &dirs);
            assert!(read || labels.is_empty() && terms.is_empty(), "{p:?}");
            let in_myst = p.starts_with(&myst);
            let rst = p.extension().is_some_and(|e| e == "rst");
            assert_eq!(read, in_myst || rst, "{p:?}");
            assert_eq!(labels.is_empty(), !read, "{p:?} {labels:?}");
        }
    }

    /// A path's case checked by its directory once that directory's path
    /// held: the same answer as the walk from the root, whatever the
    /// order of the asking.
    #[test]
    fn exact_case_as_the_walk() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for d in ["Docs/Sub", "docs", "other"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in ["Docs/Guide.md", "Docs/Sub/x.md", "docs/a.md", "other/B.md"]
        {
            std::fs::write(root.join(f), "").unwrap();
        }
        let asked = [
            "Docs/Guide.md",
            "Docs/guide.md",
            "docs/Guide.md",
            "DOCS/Guide.md",
            "docs/a.md",
            "docs/A.md",
            "Docs/Sub/x.md",
            "Docs/sub/x.md",
            "docs/sub/x.md",
            "other/B.md",
            "other/b.md",
            "OTHER/b.md",
            "missing/a.md",
            "Docs/missing.md",
            "Docs/Sub",
            "docs",
        ];
        for start in 0..asked.len() {
            let listings = Listings::default();
            for i in 0..asked.len() * 2 {
                let p = root.join(asked[(start + i * 7) % asked.len()]);
                let fresh = Listings::default();
                assert_eq!(
                    exact_case(&p, &listings),
                    walk_exact_case(&p, &fresh),
                    "{p:?}"
                );
            }
        }
    }

    /// A verdict is held for every link of a site until the report:
    /// the common one, `ok`, must stay two words.
    #[test]
    fn a_verdict_is_small() {
        assert!(std::mem::size_of::<Verdict>() <= 16);
        let ok = Verdict::ok();
        assert_eq!(ok.reason_in(&Texts::default()), None);
        assert!(!ok.has_reason());
    }

    /// A verdict keeps its reason's text as a number into the check's
    /// texts; the reason is made of them when asked, a fragment decoded
    /// as it was looked up.
    #[test]
    fn reasons_are_made_of_the_texts() {
        let mut texts = Texts::default();
        let fragment = texts.push("a%20b");
        let name = texts.push("Guide.md");
        let reason = |v: Verdict| v.reason_in(&texts);
        assert_eq!(
            reason(Verdict::broken(Why::NoAnchor, fragment, None)),
            Some(Reason::NoAnchor("a b".into()))
        );
        assert_eq!(
            reason(Verdict::broken(Why::NoSuchLine, fragment, None)),
            Some(Reason::NoSuchLine("a b".into()))
        );
        assert_eq!(
            reason(Verdict::broken(Why::CaseDiffers, name, None)),
            Some(Reason::CaseDiffers("Guide.md"))
        );
        assert_eq!(
            reason(Verdict::warning(Why::DuplicateDefinition, 7)),
            Some(Reason::DuplicateDefinition(7))
        );
        let rst = Offline::Rst(crate::links::RstKind::ToctreeGlob);
        assert_eq!(
            reason(Verdict::skipped_for(Why::NotOffline(rst))),
            Some(Reason::NotOffline("a toctree glob pattern is not checked"))
        );
        // A number that is no text's (another check's): an empty text.
        assert_eq!(
            reason(Verdict::broken(Why::Malformed, 99, None)),
            Some(Reason::Malformed(""))
        );
        assert_eq!(reason(Verdict::skipped()), None);
    }

    /// A suggested path is written into the link it is for.
    #[test]
    fn suggestions_are_written_as_the_link_writes_them() {
        let page = crate::links::Page::new(
            b"[a](../Docs/Gude.md#x) [b](#y)",
            Format::Markdown,
        )
        .url("file:///r/d/a.md");
        let links: Vec<Link> =
            crate::links::LinkExtractor::new().extract(&page).collect();
        let near = Suggestion::LastSegment("guide.md".into());
        let v = Verdict::broken(Why::NoSuchFile, NO_TEXT, Some(near));
        assert_eq!(v.status(), Status::Broken);
        assert_eq!(v.reason_in(&Texts::default()), Some(Reason::NoSuchFile));
        assert_eq!(
            v.suggestion(&links[0]).as_deref(),
            Some("../Docs/guide.md#x")
        );
        let case = Suggestion::Tail("docs/Gude.md".into());
        let v = Verdict::broken(Why::CaseDiffers, NO_TEXT, Some(case));
        assert_eq!(
            v.suggestion(&links[0]).as_deref(),
            Some("../docs/Gude.md#x")
        );
        let anchor = Suggestion::Whole("#z".into());
        let v = Verdict::broken(Why::NoAnchor, NO_TEXT, Some(anchor));
        assert_eq!(v.suggestion(&links[1]).as_deref(), Some("#z"));
    }

    /// `--fallback-extensions md` alone lets `x.html` be satisfied by
    /// `x.md`, as a generator (mdBook) turns one into the other.
    #[test]
    fn an_html_page_falls_back_to_its_source() {
        let mut b = Checker::builder();
        b.fallback_extensions(vec!["md".into()]);
        let c = b.build();
        assert_eq!(
            c.fallbacks(Path::new("/r/x.html")),
            [PathBuf::from("/r/x.md"), PathBuf::from("/r/x.html.md")]
        );
        assert_eq!(c.fallbacks(Path::new("/r/x")), [PathBuf::from("/r/x.md")]);
        assert_eq!(
            c.fallbacks(Path::new("/r/x.png")),
            [PathBuf::from("/r/x.png.md")]
        );
        b.fallback_extensions(vec!["md".into(), "html".into()]);
        let c = b.build();
        assert_eq!(
            c.fallbacks(Path::new("/r/x.html")),
            [PathBuf::from("/r/x.md")]
        );
    }

    /// The deepest directory given a style decides a target's anchors;
    /// a target under none of them has the default style.
    #[test]
    fn the_nearest_directory_decides_the_anchor_style() {
        let mut b = Checker::builder();
        b.anchors_under("/r/book".into(), AnchorStyle::Mdbook)
            .anchors_under("/r/book/gitlab".into(), AnchorStyle::Gitlab)
            .anchors_under("/r".into(), AnchorStyle::Gitlab);
        b.anchors_under("/r".into(), AnchorStyle::Github);
        let at = |p: &str| b.style_for(Path::new(p));
        assert_eq!(at("/r/book/src/a.md"), AnchorStyle::Mdbook);
        assert_eq!(at("/r/book/gitlab/a.md"), AnchorStyle::Gitlab);
        assert_eq!(at("/r/bookish/a.md"), AnchorStyle::Github);
        assert_eq!(at("/elsewhere/a.md"), AnchorStyle::Github);
        assert_eq!(b.anchors_under.len(), 3);
    }
}
