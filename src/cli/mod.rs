//! The command line: arguments, the scan driver and the printers.
//!
//! INTERIM skeleton: the scan mode is to be written.

use clap::Parser as _;

mod syntax_cmds;

/// uriscan: find the URIs in files, by the rules of RFC 3986.
#[derive(clap::Parser, Debug)]
#[command(name = "uriscan", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<syntax_cmds::SyntaxCommand>,
    /// Files or directories to scan; `-` is standard input.
    paths: Vec<std::path::PathBuf>,
}

/// Runs the command line and returns the exit code (grep's: 0 found,
/// 1 none found, 2 error).
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Some(cmd) => match syntax_cmds::run(cmd) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("uriscan: {e:#}");
                2
            }
        },
        None => {
            let _ = cli.paths;
            eprintln!("uriscan: scanning is not written yet");
            2
        }
    }
}
