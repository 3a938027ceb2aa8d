//! The resolved configuration: each command's raw arguments checked,
//! combined with each other and with the environment (terminals,
//! `NO_COLOR`, `uriscan.toml`) in one step, so that the commands and the
//! report only read decisions.

mod check;
mod links;
mod remap;

pub use check::{CheckConfig, CheckForm, KeepLinks};
pub use links::LinksConfig;

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, bail};
use uriscan::scanning::Finder;
use uriscan::syntax::is_scheme;
use uriscan::walking::WalkerBuilder;

use crate::args::{
    ColorChoice, InputFormat, LowArgs, OutputArgs, PasswordChoice, SortBy,
    WalkArgs,
};

/// What each URI is printed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `path:line:column:uri`.
    Standard,
    /// The URI alone.
    OnlyUri,
    /// `path:count` per file.
    Count,
    /// JSON Lines.
    Json,
}

/// One input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file or directory to walk.
    Path(PathBuf),
}

/// The facts about the process's environment that decisions depend on;
/// separate so that tests can set them.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    /// Standard input has data to scan when no path is given.
    pub stdin_is_readable: bool,
    pub stdout_is_terminal: bool,
    pub no_color: bool,
}

impl Env {
    pub fn current() -> Env {
        Env {
            stdin_is_readable: stdin_is_readable(),
            stdout_is_terminal: std::io::stdout().is_terminal(),
            // https://no-color.org: set and not empty.
            no_color: std::env::var_os("NO_COLOR")
                .is_some_and(|v| !v.is_empty()),
        }
    }
}

/// Whether standard input is something to read: not a terminal and, on
/// Unix, a pipe, a file or a socket. Like ripgrep, a character device
/// such as `/dev/null` (what cron, CI runners and `nohup` give) does not
/// count: there the current directory is walked, which is what a user of
/// such a job means.
fn stdin_is_readable() -> bool {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let Ok(fd) = stdin.as_fd().try_clone_to_owned() else {
            return false;
        };
        match std::fs::File::from(fd).metadata() {
            Ok(m) => {
                let t = m.file_type();
                t.is_fifo() || t.is_file() || t.is_socket()
            }
            Err(_) => false,
        }
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Everything the scan needs to know.
#[derive(Debug)]
pub struct ScanConfig {
    pub inputs: Vec<Input>,
    /// No path was given and the current directory is walked: paths are
    /// printed without the leading `./`.
    pub implicit_dir: bool,
    pub mode: Mode,
    pub unique: bool,
    pub null: bool,
    pub color: bool,
    pub stats: bool,
    pub mask_passwords: bool,
    pub normalize: bool,
    pub warnings_only: bool,
    pub search_zip: bool,
    pub text: bool,
    /// `--format`: every input read as text or as a web archive; `None`
    /// tells them apart by name and first bytes.
    pub format: Option<InputFormat>,
    pub finder: Finder,
    pub walker: WalkerBuilder,
}

impl ScanConfig {
    /// Whether section 7 warnings are computed for each URI.
    pub fn needs_warnings(&self) -> bool {
        self.mode == Mode::Json || self.warnings_only
    }

    pub fn new(low: LowArgs, env: Env) -> anyhow::Result<ScanConfig> {
        let listing = Listing::new(&low.output, &low.walk, low.paths, env)?;
        let mask_passwords = match low.passwords {
            PasswordChoice::Mask => true,
            PasswordChoice::Show => false,
            PasswordChoice::Auto => env.stdout_is_terminal,
        };

        let mut finder = Finder::builder();
        finder.any_scheme(low.any_scheme).ascii(low.ascii);
        if !low.scheme.is_empty() {
            for s in &low.scheme {
                if !is_scheme(s) {
                    bail!("invalid scheme in --scheme: {s:?}");
                }
            }
            finder.schemes(&low.scheme);
        }

        Ok(ScanConfig {
            inputs: listing.inputs,
            implicit_dir: listing.implicit_dir,
            mode: listing.mode,
            unique: listing.unique,
            null: listing.null,
            color: listing.color,
            stats: low.stats,
            mask_passwords,
            normalize: low.normalize,
            warnings_only: low.warnings_only,
            search_zip: listing.search_zip,
            text: listing.text,
            format: low.format,
            finder: finder.build(),
            walker: listing.walker,
        })
    }
}

/// What the scan and `links` resolve alike: the inputs, the output mode
/// and the walker.
#[derive(Debug)]
pub struct Listing {
    pub inputs: Vec<Input>,
    pub implicit_dir: bool,
    pub mode: Mode,
    pub unique: bool,
    pub null: bool,
    pub color: bool,
    pub search_zip: bool,
    pub text: bool,
    pub walker: WalkerBuilder,
}

impl Listing {
    pub fn new(
        out: &OutputArgs,
        walk: &WalkArgs,
        paths: Vec<PathBuf>,
        env: Env,
    ) -> anyhow::Result<Listing> {
        let mode = if out.json {
            Mode::Json
        } else if out.count {
            Mode::Count
        } else if out.only_uri {
            Mode::OnlyUri
        } else {
            Mode::Standard
        };
        let color = use_color(out.color, env, mode == Mode::Json);

        let mut walker = walker(walk, out.sort == Some(SortBy::Path))?;

        let implicit_dir = paths.is_empty() && !env.stdin_is_readable;
        let mut inputs = vec![];
        if paths.is_empty() {
            if !env.stdin_is_readable {
                inputs.push(Input::Path(PathBuf::from(".")));
            } else {
                inputs.push(Input::Stdin);
            }
        }
        for p in paths {
            if p.as_os_str() == "-" {
                inputs.push(Input::Stdin);
            } else {
                inputs.push(Input::Path(p));
            }
        }
        for input in &inputs {
            if let Input::Path(p) = input {
                walker.path(p);
            }
        }
        // Check the globs now so that a bad one is a usage error.
        walker.build().context("invalid --glob")?;
        Ok(Listing {
            inputs,
            implicit_dir,
            mode,
            unique: out.unique,
            null: out.null,
            color,
            search_zip: walk.search_zip,
            text: walk.text,
            walker,
        })
    }
}

impl TryFrom<LowArgs> for ScanConfig {
    type Error = anyhow::Error;

    fn try_from(low: LowArgs) -> anyhow::Result<ScanConfig> {
        ScanConfig::new(low, Env::current())
    }
}

/// Whether the output is coloured: `--color`, else a terminal without
/// `NO_COLOR`; JSON never is.
pub fn use_color(choice: ColorChoice, env: Env, json: bool) -> bool {
    let wanted = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => env.stdout_is_terminal && !env.no_color,
    };
    wanted && !json
}

/// The walker the walking flags describe, for every command that walks:
/// ignore rules, hidden files, depth, symlinks, size, globs, threads.
pub fn walker(walk: &WalkArgs, sorted: bool) -> anyhow::Result<WalkerBuilder> {
    let mut walker = WalkerBuilder::new();
    walker
        .hidden(walk.hidden)
        .ignore_files(!walk.no_ignore)
        .max_depth(walk.max_depth)
        .follow(walk.follow)
        .sort_by_path(sorted)
        // 0 is the walker's default (one per core); clap keeps `-j` in
        // 1..=MAX_THREADS.
        .threads(walk.threads.map_or(0, usize::from));
    if let Some(size) = &walk.max_filesize {
        walker.max_filesize(Some(parse_size(size)?));
    }
    for g in &walk.globs {
        walker.glob(g.as_str());
    }
    Ok(walker)
}

/// `123`, `10K`, `5M`, `1G` (powers of 1024, case-insensitive).
fn parse_size(s: &str) -> anyhow::Result<u64> {
    let t = s.trim();
    let (digits, shift) = match t.as_bytes().last().map(u8::to_ascii_lowercase)
    {
        Some(b'k') => (&t[..t.len() - 1], 10),
        Some(b'm') => (&t[..t.len() - 1], 20),
        Some(b'g') => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    let n: u64 = digits
        .parse()
        .with_context(|| format!("invalid --max-filesize {s:?}"))?;
    n.checked_mul(1 << shift)
        .with_context(|| format!("--max-filesize {s:?} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;

    const TTY: Env = Env {
        stdin_is_readable: false,
        stdout_is_terminal: true,
        no_color: false,
    };
    const PIPE: Env = Env {
        stdin_is_readable: true,
        stdout_is_terminal: false,
        no_color: false,
    };

    fn cfg(args: &[&str], env: Env) -> anyhow::Result<ScanConfig> {
        let mut argv = vec!["uriscan"];
        argv.extend_from_slice(args);
        ScanConfig::new(LowArgs::try_parse_from(argv)?, env)
    }

    #[test]
    fn inputs_follow_the_terminal() {
        let c = cfg(&[], TTY).unwrap();
        assert_eq!(c.inputs, [Input::Path(".".into())]);
        assert!(c.implicit_dir);
        let c = cfg(&[], PIPE).unwrap();
        assert_eq!(c.inputs, [Input::Stdin]);
        let c = cfg(&["a", "-"], TTY).unwrap();
        assert_eq!(c.inputs, [Input::Path("a".into()), Input::Stdin]);
        assert!(!c.implicit_dir);
    }

    #[test]
    fn color_and_passwords_follow_the_terminal() {
        let c = cfg(&[], TTY).unwrap();
        assert!(c.color && c.mask_passwords);
        let c = cfg(&[], PIPE).unwrap();
        assert!(!c.color && !c.mask_passwords);
        let c = cfg(&[], Env { no_color: true, ..TTY }).unwrap();
        assert!(!c.color && c.mask_passwords);
        let c = cfg(&["--color=always", "--passwords=mask"], PIPE).unwrap();
        assert!(c.color && c.mask_passwords);
        let c = cfg(&["--color=never", "--passwords=show"], TTY).unwrap();
        assert!(!c.color && !c.mask_passwords);
        // JSON is never colored.
        let c = cfg(&["--json", "--color=always"], TTY).unwrap();
        assert!(!c.color);
    }

    #[test]
    fn sizes_schemes_and_threads() {
        assert_eq!(parse_size("123").unwrap(), 123);
        assert_eq!(parse_size("10K").unwrap(), 10240);
        assert_eq!(parse_size("2m").unwrap(), 2 << 20);
        assert_eq!(parse_size("1G").unwrap(), 1 << 30);
        assert!(parse_size("1T").is_err());
        assert!(parse_size("99999999999999G").is_err());
        assert!(is_scheme("git+ssh") && !is_scheme("1http") && !is_scheme(""));
        assert!(cfg(&["--scheme", "ht tp"], PIPE).is_err());
        assert!(cfg(&["-j0"], PIPE).is_err());
        assert!(cfg(&["-j256"], PIPE).is_ok());
        assert!(cfg(&["-j257"], PIPE).is_err());
        assert!(cfg(&["-j", "70000"], PIPE).is_err());
        assert!(cfg(&["-g", "a[", "."], PIPE).is_err());
    }

    #[test]
    fn modes() {
        assert_eq!(cfg(&[], PIPE).unwrap().mode, Mode::Standard);
        assert_eq!(cfg(&["-o"], PIPE).unwrap().mode, Mode::OnlyUri);
        assert_eq!(cfg(&["-c"], PIPE).unwrap().mode, Mode::Count);
        assert_eq!(cfg(&["--json"], PIPE).unwrap().mode, Mode::Json);
        assert!(cfg(&["-c", "-o"], PIPE).is_err());
        assert!(cfg(&["--json", "-o"], PIPE).is_err());
    }
}
