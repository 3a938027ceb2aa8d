//! Every flag of the command line, as clap parses it. Nothing here is checked
//! against anything else or against the environment: that happens in
//! [`super::config`], which turns these into a resolved configuration.

use std::ffi::OsString;
#[cfg(feature = "remote")]
use std::ops::RangeInclusive;
use std::path::PathBuf;
#[cfg(feature = "remote")]
use std::time::Duration;

use clap::{ArgAction, ValueEnum};

const AFTER_HELP: &str = "\
Exit status: 0 when a URI was found, 1 when none was, 2 on an error (the \
other paths are still scanned).

A path named like a subcommand (parse, resolve, normalize) must be written \
as ./parse.

Examples:
  uriscan docs/                   every URI under docs/, path:line:col:uri
  uriscan -o -u --sort path .     each distinct URI once, in a stable order
  uriscan --json mail/ | jq .uri  one JSON object per URI
  uriscan --warnings-only --json  URIs that section 7 of RFC 3986 warns of
  curl -s URL | uriscan -o        read standard input";

/// The most threads `-j` accepts: far past where more threads help a
/// scan, and well under where a system refuses to start them (each
/// thread reserves its stack).
pub const MAX_THREADS: i64 = 256;

/// Find the URIs in files and directories, by the rules of RFC 3986.
///
/// Walks the PATHs in parallel, honouring .gitignore, .ignore and the
/// global git excludes, skipping hidden and binary files, and prints every
/// valid URI found. With no PATH, reads standard input when it is a pipe,
/// a file or a socket, and walks the current directory otherwise: when it
/// is a terminal or a device such as /dev/null, as cron and CI give (off
/// Unix: whenever it is not a terminal).
#[derive(clap::Parser, Debug)]
#[command(
    name = "uriscan",
    version,
    args_conflicts_with_subcommands = true,
    after_help = AFTER_HELP,
    max_term_width = 100
)]
pub struct LowArgs {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Files or directories to scan; `-` is standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub output: OutputArgs,

    // ---- Output ----
    /// Print statistics to standard error at the end: files, bytes, URIs,
    /// time, throughput.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
    /// Whether the password in a URI's userinfo (after its first `:`) is
    /// shown: `auto` masks it as `***` when standard output is a terminal
    /// and shows it when piped (RFC 3986 section 3.2.1).
    #[arg(
        long,
        value_name = "WHEN",
        default_value = "auto",
        help_heading = "Output"
    )]
    pub passwords: PasswordChoice,

    // ---- URIs ----
    /// Print each URI in its syntax-based normal form (RFC 3986 6.2.2).
    #[arg(long, help_heading = "URIs")]
    pub normalize: bool,
    /// Print IRIs in their URI form (non-ASCII characters
    /// percent-encoded, RFC 3987 3.1).
    #[arg(long, help_heading = "URIs")]
    pub ascii: bool,
    /// Only these schemes (comma-separated, case-insensitive).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "URIs"
    )]
    pub scheme: Vec<String>,
    /// Accept every syntactically valid scheme, not only the well-known
    /// ones and those followed by `//`.
    #[arg(long, conflicts_with = "scheme", help_heading = "URIs")]
    pub any_scheme: bool,
    /// Only the URIs that RFC 3986 section 7 warns of: userinfo like a
    /// host, rare IP forms, percent-encoded delimiters, homograph hosts.
    #[arg(long, help_heading = "URIs")]
    pub warnings_only: bool,
    /// How every input is read: `warc` as a web archive (WARC or WET,
    /// plain or gzip), standard input included; `text` as text. Without
    /// it, a file named `.warc`, `.warc.gz`, `.wet` or `.wet.gz`, or one
    /// that starts with `WARC/1.`, is an archive, and the rest is text.
    #[arg(long, value_name = "FORMAT", help_heading = "URIs")]
    pub format: Option<InputFormat>,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// Print a shell completion script or the man page, and exit.
    #[arg(long, value_name = "KIND")]
    pub generate: Option<GenerateKind>,
}

/// The subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// List the links of Markdown and HTML documents (and the URIs of
    /// other files), resolved.
    Links(LinksArgs),
    /// Check the links of Markdown and HTML documents offline: files,
    /// directories and anchors (and web links with --remote).
    Check(Box<CheckArgs>),
    #[command(flatten)]
    Syntax(SyntaxCommand),
}

/// How found items are printed: shared by the main command and `links`.
#[derive(clap::Args, Debug, Clone)]
pub struct OutputArgs {
    /// Print only the URIs, one per line.
    #[arg(short = 'o', long, help_heading = "Output")]
    pub only_uri: bool,
    /// Print the number of URIs of each file (`path:count`).
    #[arg(
        short = 'c',
        long,
        conflicts_with_all = ["only_uri", "json"],
        help_heading = "Output"
    )]
    pub count: bool,
    /// Print JSON Lines: one object per URI with path, line, column,
    /// offset, uri, scheme, warnings, and raw, trimmed when they apply.
    #[arg(long, conflicts_with = "only_uri", help_heading = "Output")]
    pub json: bool,
    /// Print each URI once, at its first occurrence (deterministic with
    /// --sort path).
    #[arg(short = 'u', long, help_heading = "Output")]
    pub unique: bool,
    /// Visit files in a stable order (runs on one thread).
    #[arg(long, value_name = "BY", help_heading = "Output")]
    pub sort: Option<SortBy>,
    /// End paths with a NUL byte instead of `:` (with -o, end each URI
    /// with NUL instead of a newline), for `xargs -0`.
    #[arg(short = '0', long, help_heading = "Output")]
    pub null: bool,
    /// When to color the output. NO_COLOR in the environment turns `auto`
    /// off.
    #[arg(
        long,
        value_name = "WHEN",
        default_value = "auto",
        help_heading = "Output"
    )]
    pub color: ColorChoice,
}

/// Which files are walked: shared by the main command and `links`.
#[derive(clap::Args, Debug, Clone)]
pub struct WalkArgs {
    /// Scan hidden files and directories too.
    #[arg(long, help_heading = "Walking")]
    pub hidden: bool,
    /// Do not honour .gitignore, .ignore or the git excludes.
    #[arg(long, help_heading = "Walking")]
    pub no_ignore: bool,
    /// Only scan files matching GLOB; `!GLOB` excludes. Repeatable.
    #[arg(
        short = 'g',
        long = "glob",
        value_name = "GLOB",
        action = ArgAction::Append,
        allow_hyphen_values = true,
        help_heading = "Walking"
    )]
    pub globs: Vec<String>,
    /// Descend at most NUM directories below each PATH.
    #[arg(long, value_name = "NUM", help_heading = "Walking")]
    pub max_depth: Option<usize>,
    /// Follow symbolic links (loops are reported and not entered).
    #[arg(short = 'L', long, help_heading = "Walking")]
    pub follow: bool,
    /// Skip files larger than SIZE (bytes, or with a K, M or G suffix).
    #[arg(long, value_name = "SIZE", help_heading = "Walking")]
    pub max_filesize: Option<String>,
    /// Read gzip files (.gz) decompressed; without it they are binary and
    /// skipped.
    #[arg(short = 'z', long, help_heading = "Walking")]
    pub search_zip: bool,
    /// Scan binary files (a NUL in the first 8 KiB) too.
    #[arg(short = 'a', long, help_heading = "Walking")]
    pub text: bool,
    /// The number of threads, 1 to 256 [default: the number of cores].
    #[arg(
        short = 'j',
        long,
        value_name = "NUM",
        value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS),
        help_heading = "Walking"
    )]
    pub threads: Option<u16>,
}

/// How `links` and `check` read their documents.
#[derive(clap::Args, Debug, Clone)]
pub struct DocArgs {
    /// Read every file, never map one into memory. By default a file of
    /// 1 MiB or more named on the command line is mapped, which is
    /// faster; a file cut short while it is mapped stops the run with an
    /// error.
    #[arg(long, help_heading = "Walking")]
    pub no_mmap: bool,
    /// The reader of Markdown: `uriscan` (our own, the default, which
    /// hands what it does not read yet to pulldown-cmark) or `pulldown`
    /// (pulldown-cmark for every document). Both give the same links.
    #[arg(long, value_name = "PARSER", help_heading = "Links")]
    pub markdown_parser: Option<MarkdownParserArg>,
}

/// `--markdown-parser`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MarkdownParserArg {
    /// Our own reader.
    Uriscan,
    /// pulldown-cmark.
    Pulldown,
}

impl DocArgs {
    /// The Markdown reader asked for, or the library's default.
    pub fn markdown_parser(&self) -> uriscan::links::MarkdownParser {
        use uriscan::links::MarkdownParser;
        match self.markdown_parser {
            Some(MarkdownParserArg::Uriscan) => MarkdownParser::Uriscan,
            Some(MarkdownParserArg::Pulldown) => MarkdownParser::Pulldown,
            None => MarkdownParser::default(),
        }
    }
}

/// The main command's `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Text.
    Text,
    /// A web archive: WARC or WET, plain or gzip.
    Warc,
}

/// `--sort`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// By file path.
    Path,
    /// No sorting (parallel).
    None,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Color when standard output is a terminal and NO_COLOR is unset.
    Auto,
    /// Always color.
    Always,
    /// Never color.
    Never,
}

/// `--passwords`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PasswordChoice {
    /// Mask on a terminal, show in a pipe.
    Auto,
    /// Always mask.
    Mask,
    /// Always show.
    Show,
}

/// `--generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateKind {
    /// Bash completions.
    CompleteBash,
    /// Zsh completions.
    CompleteZsh,
    /// Fish completions.
    CompleteFish,
    /// PowerShell completions.
    CompletePowershell,
    /// The man page (roff).
    Man,
}

// ---- links ----

const LINKS_AFTER_HELP: &str = "\
Exit status: 0 when a link was found, 1 when none was, 2 on an error (the \
other paths are still read).

The format comes from the extension: .md .markdown .mdown .mkd are \
Markdown, .html .htm .xhtml HTML, .warc .warc.gz .wet .wet.gz .arc .arc.gz \
web archives (also found by their content, WARC/1. or filedesc://, plain or \
gzip, whatever the name), anything else text (its bare URIs).

In a web archive, each response record's HTML (or Markdown) payload is read \
with the record's WARC-Target-URI as its URL, with the Location of a \
redirect, Content-Location and Link headers (kinds http:location, \
http:content-location, http:link); each WET conversion record's text for \
its bare URIs. Lines start with the record's page instead of a path; JSON \
rows add page, record_id, record_offset (the record's gzip member; in a file \
compressed as one stream, its offset in the decompressed stream) and \
offset_kind (gzip-member, decompressed or file). A damaged record is \
reported with its offset and reading goes on; a run of the same error is \
summarised after the first few, and an archive with damaged records or \
warnings ends with its counts.

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
pub enum LinksFormat {
    /// CommonMark with the GitHub extensions.
    Markdown,
    /// HTML.
    Html,
    /// Plain text: bare URIs.
    Text,
    /// AsciiDoc, as Asciidoctor reads it.
    Asciidoc,
    /// MyST: Markdown with the roles, directives and targets of
    /// myst-parser (a `.md` file of a Sphinx project with `myst_parser`
    /// is read so without this).
    Myst,
    /// A WARC or WET file (plain or gzip), whatever its name.
    Warc,
}

/// The arguments of `uriscan links`.
#[derive(clap::Args, Debug)]
#[command(after_help = LINKS_AFTER_HELP)]
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
    pub format: Option<LinksFormat>,
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
    /// Give each target as a browser fetches it: the URL Standard's parse
    /// of the link against its base, not its RFC 3986 resolution
    /// (docs/url-standard-differences.md lists where they differ).
    #[arg(long, help_heading = "Crawling")]
    pub url_standard: bool,

    #[command(flatten)]
    pub walk: WalkArgs,

    #[command(flatten)]
    pub doc: DocArgs,
}

// ---- check ----

const CHECK_AFTER_HELP: &str = "\
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
  uriscan check --format github .          annotations for GitHub Actions
  uriscan check --changed-since origin/main .
                                           what a branch may break";

/// `--anchors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckAnchors {
    /// GitHub's heading anchors.
    Github,
    /// GitLab's.
    Gitlab,
    /// mdBook's.
    Mdbook,
    /// MkDocs' (Python-Markdown's `toc`, default slugify).
    Mkdocs,
    /// Docusaurus' (github-slugger, `{#custom-id}`).
    Docusaurus,
    /// Hugo's (goldmark, `autoHeadingIDType` github).
    Hugo,
    /// Jekyll's (kramdown's GFM parser, default settings).
    Jekyll,
}

/// `--deny`: what else fails the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckDeny {
    /// Warnings (unused and duplicate Markdown definitions) fail the run
    /// as broken links do.
    Warnings,
}

/// `--site`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckSite {
    /// The nearest generator configuration above each file, up to the top
    /// of the git repository; GitLab's anchors when the git remote is a
    /// GitLab host; else GitHub.
    Auto,
    /// The tree as GitHub shows it.
    Github,
    /// The tree as GitLab shows it.
    Gitlab,
    /// MkDocs (`mkdocs.yml`).
    Mkdocs,
    /// Docusaurus (`docusaurus.config.js`, read, never run).
    Docusaurus,
    /// Hugo (`hugo.toml`, or `config.toml` beside `content/`).
    Hugo,
    /// Jekyll (`_config.yml` with `_posts/`, `_layouts/` or a Gemfile).
    Jekyll,
    /// mdBook (`book.toml`); implies `--fallback-extensions md,html`.
    Mdbook,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// `path:line:column: broken link 'LINK': REASON`, then a summary.
    Human,
    /// GitHub Actions annotations (`::error file=…,line=…,col=…::…`).
    Github,
    /// SARIF 2.1.0, for code-scanning dashboards: one result per broken
    /// link, located by line and byte offset.
    Sarif,
    /// A Markdown report (a table per file, then the counts) for a pull
    /// request comment or `$GITHUB_STEP_SUMMARY`.
    Markdown,
    /// JUnit XML for CI test reports: one test case per document, one
    /// failure per broken link.
    Junit,
}

/// The arguments of `uriscan check`.
#[derive(clap::Args, Debug)]
#[command(after_help = CHECK_AFTER_HELP)]
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
    /// `ch01.md`, `guide/intro` by `guide/intro.md`): an `.html` page's
    /// extension is replaced, any other name gets each added.
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
    pub anchors: Option<CheckAnchors>,
    /// Which site generator builds the documents: their links resolve as
    /// it serves them (site URLs such as `/docs/install/`, the site's
    /// own absolute URLs, its navigation). [default: auto]
    #[arg(long, value_name = "NAME", help_heading = "Checking")]
    pub site: Option<CheckSite>,
    /// A target outside the root is not an error (when it exists).
    #[arg(long, help_heading = "Checking")]
    pub allow_outside_root: bool,
    /// The directory that root-relative links (`/x`) resolve under.
    #[arg(long, value_name = "DIR", help_heading = "Checking")]
    pub root: Option<PathBuf>,
    /// Also check the URIs found in other files (code, plain text), and
    /// in Markdown prose those GitHub does not link (`see file:line`).
    #[arg(long, help_heading = "Checking")]
    pub include_text: bool,
    /// Leave out the links that REGEX matches, tried on the link as
    /// written (`../a.md`), on a local target's path under the root as a
    /// root-relative link (`/docs/a.md`), and on any other target (a
    /// URL). Repeatable.
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
    /// Check only what a change since the git revision REF may break:
    /// every link of the documents it added or edited, and the links of
    /// any document into the files it renamed, deleted or edited (their
    /// anchors included). Runs `git`.
    #[arg(long, value_name = "REF", help_heading = "Checking")]
    pub changed_since: Option<String>,
    /// An entry point for --orphans. Repeatable.
    #[arg(long, value_name = "FILE", help_heading = "Checking")]
    pub entry: Vec<PathBuf>,
    /// Map a link's target before it is checked: the first match of
    /// REGEX replaced by REPLACEMENT (`$1` names a group), as lychee's
    /// `--remap` does, e.g. `'^https://docs.example.com/(.*) file:///srv/site/$1'`.
    /// A local result must stay under the root; a web one is checked
    /// with `--remote` like any web link. Repeatable; the first rule that
    /// matches maps.
    #[arg(
        long,
        value_name = "'REGEX REPLACEMENT'",
        help_heading = "Checking"
    )]
    pub remap: Vec<String>,
    /// The repository whose web views (`https://github.com/OWNER/REPO/blob/BRANCH/path`,
    /// `/tree/`, `/raw/`, GitLab's `/-/blob/`) are mapped to its local
    /// files, on the checked-out branch and the remote's default one;
    /// default: the URL of the git remote (`origin`).
    #[arg(long, value_name = "URL", help_heading = "Checking")]
    pub repo_url: Option<String>,
    /// Fail the run on these too: `warnings` (unused and duplicate
    /// Markdown definitions, which are reported but pass by default).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Checking"
    )]
    pub deny: Vec<CheckDeny>,
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
    pub format: CheckFormat,
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
    pub remote: RemoteArgs,
}

// ---- check --remote ----

#[cfg(feature = "remote")]
/// The remote check's options of `uriscan check`.
#[derive(clap::Args, Debug, Clone)]
pub struct RemoteArgs {
    /// Also check http and https links over the network.
    #[arg(long, help_heading = "Remote")]
    pub remote: bool,
    /// Report remote failures without failing the run (exit 0 when only
    /// remote links fail).
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub warn_remote: bool,
    /// Fetch HTML pages with GET and report fragments they do not define.
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub remote_fragments: bool,
    /// Request loopback, private and link-local addresses too. By default
    /// a link to one by address or local name (`localhost`, `*.local`) is
    /// skipped, and a name that resolves to one, or a redirect to one, is
    /// an error. Not taken from a uriscan.toml found in the checked tree.
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub allow_private: bool,
    /// Redirects followed before a link is broken. [default: 10]
    #[arg(long, value_name = "NUM", help_heading = "Remote")]
    pub max_redirects: Option<usize>,
    /// Accepted HTTP statuses: a list of codes and ranges (`200..=299`,
    /// `200..300`, `200-299`, `403`). [default: 200..=299]
    #[arg(
        long,
        value_name = "LIST",
        value_parser = parse_accept,
        help_heading = "Remote"
    )]
    pub accept: Option<Accept>,
    /// The timeout of one request (`20s`, `500ms`, `1m`), more than 0
    /// and at most a day. [default: 20s]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_timeout,
        help_heading = "Remote"
    )]
    pub timeout: Option<Duration>,
    /// A header sent with every request, `Name: value`. Repeatable.
    #[arg(long, value_name = "HEADER", help_heading = "Remote")]
    pub header: Vec<String>,
    /// Requests in flight at once, in all. [default: 64]
    #[arg(
        long,
        value_name = "NUM",
        value_parser = clap::value_parser!(u32).range(1..=4096),
        help_heading = "Remote"
    )]
    pub max_concurrency: Option<u32>,
    /// Requests in flight at once to one host. [default: 4]
    #[arg(
        long,
        value_name = "NUM",
        value_parser = clap::value_parser!(u32).range(1..=1024),
        help_heading = "Remote"
    )]
    pub host_concurrency: Option<u32>,
    /// Retries after a timeout, a connection error, 429 or 5xx.
    /// [default: 3]
    #[arg(long, value_name = "NUM", help_heading = "Remote")]
    pub retries: Option<u32>,
    /// The wait before the first retry, doubled for each next one (with
    /// jitter); a host's `Retry-After` wins. At most a day. [default: 1s]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_wait,
        help_heading = "Remote"
    )]
    pub retry_wait: Option<Duration>,
    /// The longest wait before a retry; a `Retry-After` beyond it is not
    /// waited for. At most a day. [default: 60s]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_wait,
        help_heading = "Remote"
    )]
    pub max_retry_wait: Option<Duration>,
    /// With --remote-fragments, the bytes of a page read for its ids
    /// (bytes, or with a K, M or G suffix); a fragment not found in them
    /// is reported not checked, not broken. [default: 16M]
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = parse_max_body,
        help_heading = "Remote"
    )]
    pub max_body: Option<usize>,
    /// Keep results in a cache file (`.uriscan-cache` under --root, else
    /// under the first PATH) and skip the URIs that were fine within
    /// --max-cache-age. Failures are always checked again.
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub cache: bool,
    /// The cache file (implies --cache).
    #[arg(
        long,
        value_name = "FILE",
        requires = "remote",
        help_heading = "Remote"
    )]
    pub cache_file: Option<PathBuf>,
    /// How old a cached success may be (`1d`, `12h`, `30m`).
    /// [default: 1d]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_duration,
        help_heading = "Remote"
    )]
    pub max_cache_age: Option<Duration>,
}

#[cfg(feature = "remote")]
/// Accepted statuses.
#[derive(Clone, Debug)]
pub struct Accept(pub Vec<RangeInclusive<u16>>);

#[cfg(feature = "remote")]
/// `200..=299,403`: codes and ranges, `..=` and `-` inclusive, `..`
/// exclusive.
pub fn parse_accept(s: &str) -> Result<Accept, String> {
    let code = |t: &str| -> Result<u16, String> {
        t.trim()
            .parse::<u16>()
            .ok()
            .filter(|c| (100..=999).contains(c))
            .ok_or_else(|| format!("'{t}' is not an HTTP status"))
    };
    let mut out = vec![];
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let r = if let Some((a, b)) = part.split_once("..=") {
            code(a)?..=code(b)?
        } else if let Some((a, b)) = part.split_once("..") {
            code(a)?..=code(b)?.saturating_sub(1)
        } else if let Some((a, b)) = part.split_once('-') {
            code(a)?..=code(b)?
        } else {
            let c = code(part)?;
            c..=c
        };
        if r.is_empty() {
            return Err(format!("'{part}' is an empty range"));
        }
        out.push(r);
    }
    if out.is_empty() {
        return Err("no status given".into());
    }
    Ok(Accept(out))
}

#[cfg(feature = "remote")]
/// `500ms`, `20s`, `5m`, `12h`, `1d`, `1w`; a bare number is seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.');
    let (num, unit) = t.split_at(split.unwrap_or(t.len()));
    let n: f64 = num
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite() && *n >= 0.0)
        .ok_or_else(|| {
            format!("'{s}' is not a duration (like 500ms, 20s, 1d)")
        })?;
    let secs = match unit.trim() {
        "ms" => n / 1000.0,
        "" | "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        "d" => n * 86400.0,
        "w" => n * 7.0 * 86400.0,
        u => return Err(format!("'{u}' is not a unit: ms, s, m, h, d or w")),
    };
    Duration::try_from_secs_f64(secs).map_err(|e| format!("'{s}': {e}"))
}

#[cfg(feature = "remote")]
/// `16M`: bytes, or K, M or G (powers of 1024), more than 0.
pub fn parse_max_body(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (digits, shift) =
        match t.bytes().last().map(|b| b.to_ascii_lowercase()) {
            Some(b'k') => (&t[..t.len() - 1], 10),
            Some(b'm') => (&t[..t.len() - 1], 20),
            Some(b'g') => (&t[..t.len() - 1], 30),
            _ => (t, 0),
        };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("'{s}' is not a size (like 16M, 512K)"))
}

#[cfg(feature = "remote")]
/// The longest timeout or wait: a longer one is a mistake, not a plan.
const LONGEST_WAIT: Duration = Duration::from_secs(86_400);

#[cfg(feature = "remote")]
/// A wait ([`parse_duration`]) of at most a day.
pub fn parse_wait(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d > LONGEST_WAIT {
        return Err(format!("'{s}' is longer than a day"));
    }
    Ok(d)
}

#[cfg(feature = "remote")]
/// A timeout: a wait ([`parse_wait`]) longer than 0.
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    let d = parse_wait(s)?;
    if d.is_zero() {
        return Err(format!("'{s}' is no time: a timeout is longer than 0"));
    }
    Ok(d)
}

// ---- parse, resolve, normalize ----

macro_rules! exit_codes {
    () => {
        "Exit status: 0 if every item was valid, 1 if some item was not, 2 \
         on a usage or I/O error."
    };
}
const EXIT_CODES: &str = exit_codes!();
const PARSE_HELP: &str = concat!(
    exit_codes!(),
    "\n\nExamples:\n  uriscan parse 'http://user@[::1]:8080/p?q#f'\n  \
     printf 'http://h:/\\nhttp://h/\\n' | uriscan parse"
);
const RESOLVE_HELP: &str = concat!(
    exit_codes!(),
    "\n\nExamples:\n  uriscan resolve --base 'http://a/b/c/d;p?q' ../g '?y' \
     //g\n  uriscan resolve -b https://example.com/docs/ < links.txt"
);
const NORMALIZE_HELP: &str = concat!(
    exit_codes!(),
    "\n\nExamples:\n  uriscan normalize 'HTTP://Example.COM/a/./b/%7euser'\n  \
     uriscan normalize --scheme-based 'http://example.com:80'"
);

/// The subcommands over the syntax layer.
#[derive(clap::Subcommand, Debug)]
pub enum SyntaxCommand {
    /// Parse each URI reference and print its components as JSON.
    ///
    /// Prints one JSON object per item: {"input", "valid": true, "kind":
    /// "uri"|"relative", "scheme", "authority", "userinfo", "host",
    /// "host_kind": "ipv4"|"ipv6"|"ipvfuture"|"reg-name", "port", "path",
    /// "query", "fragment"}, where an absent component is null and an
    /// empty one "" (`http://h:/` has port "", `http://h/` port null); the
    /// host keeps the brackets of an IP literal. An item that does not
    /// parse gives {"input", "valid": false, "error"}, the error saying
    /// what is wrong at which byte offset.
    #[command(after_help = EXIT_CODES, after_long_help = PARSE_HELP)]
    Parse {
        /// Accept IRIs (RFC 3987): non-ASCII characters where RFC 3987
        /// allows them.
        #[arg(long)]
        iri: bool,
        /// References to parse; read from standard input, one per line,
        /// when none are given.
        items: Vec<OsString>,
    },
    /// Resolve each URI reference against a base URI (RFC 3986 5.2).
    ///
    /// Prints the target URI of each reference, by the strict algorithm
    /// of section 5.2, or a line starting with "error:". The base must
    /// have a scheme; its fragment, if any, is ignored (section 5.1). A
    /// target path that would start with "//" without an authority is
    /// written "/.//..." so that it reparses to the same components.
    #[command(after_help = EXIT_CODES, after_long_help = RESOLVE_HELP)]
    Resolve {
        /// The base URI the references are relative to.
        #[arg(long, short = 'b', value_name = "BASE")]
        base: String,
        /// Accept IRIs (RFC 3987) in the base and the references.
        #[arg(long)]
        iri: bool,
        /// References to resolve; read from standard input, one per line,
        /// when none are given.
        items: Vec<OsString>,
    },
    /// Normalize each URI reference (RFC 3986 6.2.2, and 6.2.3).
    ///
    /// Prints the syntax-based normal form (6.2.2) of each reference, or
    /// a line starting with "error:": scheme and host lowercased, hex
    /// digits of percent-encodings uppercased, percent-encoded unreserved
    /// characters decoded, dot segments removed from the path of a URI
    /// (a relative reference keeps its dot segments).
    #[command(after_help = EXIT_CODES, after_long_help = NORMALIZE_HELP)]
    Normalize {
        /// Also apply scheme-based normalization (6.2.3): drop an empty
        /// port and the default port of http, https, ws, wss and ftp; an
        /// empty http(s) or ws(s) path becomes "/".
        #[arg(long)]
        scheme_based: bool,
        /// Accept IRIs (RFC 3987).
        #[arg(long)]
        iri: bool,
        /// References to normalize; read from standard input, one per
        /// line, when none are given.
        items: Vec<OsString>,
    },
}

#[cfg(feature = "remote")]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("20s"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86400)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("5 years").is_err());
        assert!(parse_duration("-1s").is_err());
        // Timeouts and waits: none of 0, none past a day.
        assert_eq!(parse_wait("0"), Ok(Duration::ZERO));
        assert_eq!(parse_wait("1d"), Ok(Duration::from_secs(86400)));
        assert!(parse_wait("25h").is_err());
        assert!(parse_wait("200000000000000d").is_err());
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("0ms").is_err());
        assert_eq!(parse_timeout("1ms"), Ok(Duration::from_millis(1)));
        assert!(parse_timeout("2d").is_err());
        assert_eq!(parse_max_body("16M"), Ok(16 << 20));
        assert_eq!(parse_max_body("512k"), Ok(512 << 10));
        assert_eq!(parse_max_body("100"), Ok(100));
        assert!(parse_max_body("0").is_err());
        assert!(parse_max_body("lots").is_err());
    }

    #[test]
    fn accept_lists() {
        let a = |s| parse_accept(s).map(|a| a.0);
        assert_eq!(a("200..=299"), Ok(vec![200..=299]));
        assert_eq!(a("200..300,403"), Ok(vec![200..=299, 403..=403]));
        assert_eq!(a("200-204, 429"), Ok(vec![200..=204, 429..=429]));
        assert!(a("abc").is_err());
        assert!(a("300..200").is_err());
        assert!(a("").is_err());
        assert!(a("99").is_err());
    }
}
