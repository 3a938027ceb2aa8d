//! The raw command line, as clap parses it. Nothing here is checked
//! against anything else or against the environment: that happens in
//! [`super::config`], which turns these into a resolved configuration.

use std::path::PathBuf;

use clap::{ArgAction, ValueEnum};

use super::check::CheckArgs;
use super::links::LinksArgs;
use super::syntax_cmds::SyntaxCommand;

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
