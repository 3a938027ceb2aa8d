//! The `uriscan` command line, a layer over the library: raw arguments ([`args`]) are resolved into a
//! configuration ([`config`]) in a separate step, as ripgrep does with its
//! low-level and high-level arguments; then either a subcommand runs or
//! the scan ([`search`]) does, printing through [`printer`].

use clap::Parser as _;

mod args;
mod check;
mod config;
mod documents;
mod generate;
mod huge;
mod links;
mod mapped;
mod printer;
#[cfg(feature = "remote")]
mod remote;
mod rewrite;
mod search;
mod syntax_cmds;

/// Runs the command line and returns the exit code (grep's: 0 found,
/// 1 none found, 2 error).
pub fn run() -> i32 {
    let low = match args::LowArgs::try_parse() {
        Ok(low) => low,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let result = if let Some(cmd) = low.command {
        match cmd {
            args::Command::Links(a) => links::run(a),
            args::Command::Check(a) => check::run(*a),
            args::Command::Syntax(s) => syntax_cmds::run(s),
        }
    } else if let Some(kind) = low.generate {
        generate::run(kind)
    } else {
        config::Config::try_from(low).and_then(|cfg| search::run(&cfg))
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "uriscan: {e:#}");
            2
        }
    }
}

#[global_allocator]
static ALLOCATOR: huge::Allocator = huge::Allocator;

fn main() {
    std::process::exit(run());
}
