//! The `parse`, `resolve` and `normalize` subcommands: one item per line
//! on standard input, or given as arguments.
//!
//! INTERIM skeleton.

/// The subcommands over the syntax layer.
#[derive(clap::Subcommand, Debug)]
pub enum SyntaxCommand {
    /// Parse each URI reference and print its components as JSON.
    Parse {
        /// Accept IRIs (RFC 3987).
        #[arg(long)]
        iri: bool,
        /// References to parse; read from standard input when none.
        items: Vec<String>,
    },
}

/// Runs a subcommand; returns the exit code.
pub fn run(cmd: SyntaxCommand) -> anyhow::Result<i32> {
    match cmd {
        SyntaxCommand::Parse { iri, items } => {
            let _ = (iri, items);
            Ok(2)
        }
    }
}
