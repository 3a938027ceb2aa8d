//! The floors under `uriscan links` on one file, whole process, for
//! `benches/links_floor.sh`: each mode does one more step of what
//! `links -o FILE` does, so that the time of each is what any link
//! extractor built on the same parts must spend at least.
//!
//! ```text
//! cargo run --release --features internals --example links_floor -- MODE FILE...
//! ```
//!
//! Several files are each read in turn, as documents of their own (the
//! Markdown records of a web archive, say).
//!
//! - `read`: the file's bytes, as `links` gets those of a file it is
//!   given: mapped from 1 MiB on, else read;
//! - `parse`: and parsed with nothing kept: our HTML tokenizer
//!   counting start tags, or pulldown-cmark's events counted, with
//!   extraction's options;
//! - `parse-ours`: for Markdown, parsed by our own reader instead
//!   (blocks and inlines, links gathered, nothing resolved);
//! - `extract`: and every link extracted and resolved, none printed.
//!
//! Each prints one count, so that the work cannot be optimized away.
//! The program allocates with the binary's allocator (`src/cli/huge.rs`).

use std::io::Write;

// The binary's own allocator, so that each step allocates as `links`
// does (huge pages for the Markdown parse tree).
#[path = "../src/huge.rs"]
mod huge;

#[global_allocator]
static ALLOCATOR: huge::Allocator = huge::Allocator;

// And its own map of a named file, with the same size threshold.
#[path = "../src/mapped.rs"]
mod mapped;

use uriscan::links::{Format, LinkExtractor, Page, PathKind, file_uri};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, paths @ ..] = &args[..] else {
        eprintln!("usage: links_floor read|parse|parse-ours|extract FILE...");
        std::process::exit(2);
    };
    let n: usize = paths.iter().map(|p| floor(mode, p)).sum();
    let _ = writeln!(std::io::stdout(), "{n}");
}

/// The step `mode` on the file at `path`: its count.
fn floor(mode: &str, path: &str) -> usize {
    let path = std::path::Path::new(path);
    let fail = |e: std::io::Error| -> ! {
        eprintln!("links_floor: {}: {e}", path.display());
        std::process::exit(2);
    };
    // As `uriscan links` gets the bytes of a file it is given.
    let map = mapped::map_file(path, u64::MAX).unwrap_or_else(|e| fail(e));
    let read;
    let bytes: &[u8] = match &map {
        Some(m) => m,
        None => {
            read = std::fs::read(path).unwrap_or_else(|e| fail(e));
            &read
        }
    };
    let format = Format::from_path(path);
    match mode {
        "read" => bytes.len(),
        "parse" => match format {
            Format::Html => uriscan::internals::links::count_start_tags(bytes),
            _ => uriscan::internals::links::count_markdown_events(
                &String::from_utf8_lossy(bytes),
            ),
        },
        // A document our reader declines counts as none read: zero.
        "parse-ours" => uriscan::internals::links::count_markdown_items(
            &String::from_utf8_lossy(bytes),
        )
        .unwrap_or(0),
        "extract" => {
            let abs = std::fs::canonicalize(path).unwrap_or(path.into());
            let url = file_uri(&abs, PathKind::File);
            let page = Page::new(bytes, format).url(&url);
            let mut n = 0;
            LinkExtractor::new().for_each(&page, |l| {
                n += l.target().map_or(1, str::len);
            });
            n
        }
        _ => {
            eprintln!("links_floor: unknown mode {mode:?}");
            std::process::exit(2);
        }
    }
}
