//! The `uriscan` command line: a thin layer over the library.

mod cli;

#[global_allocator]
static ALLOCATOR: cli::huge::Allocator = cli::huge::Allocator;

fn main() {
    std::process::exit(cli::run());
}
