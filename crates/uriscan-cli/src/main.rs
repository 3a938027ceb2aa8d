//! The `uriscan` command line, a layer over the library, on ripgrep's
//! model: every flag is defined in [`args`]; each command's raw arguments
//! are resolved into its configuration ([`config`]) in one step; then the
//! command runs ([`search`], [`links`], [`check`], [`syntax_cmds`]) and
//! writes through [`report`]. The scan and `links` share one [`worker`].

use clap::Parser as _;

mod args;
mod changed;
mod check;
mod config;
mod documents;
mod generate;
mod huge;
mod links;
mod mapped;
mod report;
mod rewrite;
mod search;
mod syntax_cmds;
mod worker;

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
            args::Command::Links(a) => {
                config::LinksConfig::try_from(a).and_then(links::run)
            }
            args::Command::Check(a) => {
                config::CheckConfig::try_from(*a).and_then(check::run)
            }
            args::Command::Syntax(s) => syntax_cmds::run(s),
        }
    } else if let Some(kind) = low.generate {
        generate::run(kind)
    } else {
        config::ScanConfig::try_from(low).and_then(|cfg| search::run(&cfg))
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
