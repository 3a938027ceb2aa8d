//! Shell completions and the man page, generated from the same clap
//! definitions as the parser so that they cannot drift from it.

use std::io::{self, Write};

use clap::CommandFactory as _;
use clap_complete::Shell;

use crate::args::{GenerateKind, LowArgs};

/// Writes the requested script or page to standard output.
pub fn run(kind: GenerateKind) -> anyhow::Result<i32> {
    let mut cmd = LowArgs::command();
    let mut out = Vec::new();
    let shell = match kind {
        GenerateKind::CompleteBash => Shell::Bash,
        GenerateKind::CompleteZsh => Shell::Zsh,
        GenerateKind::CompleteFish => Shell::Fish,
        GenerateKind::CompletePowershell => Shell::PowerShell,
        GenerateKind::Man => {
            clap_mangen::Man::new(cmd).render(&mut out)?;
            return write(&out);
        }
    };
    clap_complete::generate(shell, &mut cmd, "uriscan", &mut out);
    write(&out)
}

fn write(bytes: &[u8]) -> anyhow::Result<i32> {
    match io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(0),
    }
}
