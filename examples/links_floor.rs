//! The floors under `uriscan links` on one file, whole process, for
//! `benches/links_floor.sh`: each mode does one more step of what
//! `links -o FILE` does, so that the time of each is what any link
//! extractor built on the same parts must spend at least.
//!
//! ```text
//! cargo run --release --example links_floor -- MODE FILE
//! ```
//!
//! - `read`: the file's bytes, as `links` gets those of a file it is
//!   given: mapped from 1 MiB on, else read;
//! - `parse`: and parsed with nothing kept: our HTML tokenizer
//!   counting start tags, or pulldown-cmark's events counted, with
//!   extraction's options;
//! - `extract`: and every link extracted and resolved, none printed.
//!
//! Each prints one count, so that the work cannot be optimized away.
//! The program allocates with the binary's allocator (`src/cli/huge.rs`).

use std::io::Write;

// The binary's own allocator, so that each step allocates as `links`
// does (huge pages for the Markdown parse tree).
#[path = "../src/cli/huge.rs"]
mod huge;

#[global_allocator]
static ALLOCATOR: huge::Allocator = huge::Allocator;

use uriscan::links::{Format, LinkExtractor, Page, file_uri};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, path] = &args[..] else {
        eprintln!("usage: links_floor read|parse|extract FILE");
        std::process::exit(2);
    };
    let path = std::path::Path::new(path);
    let bytes = match read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("links_floor: {}: {e}", path.display());
            std::process::exit(2);
        }
    };
    let bytes: &[u8] = &bytes;
    let format = Format::from_path(path);
    let n = match mode.as_str() {
        "read" => bytes.len(),
        "parse" => match format {
            Format::Html => uriscan::links::count_start_tags(bytes),
            _ => uriscan::links::count_markdown_events(
                &String::from_utf8_lossy(bytes),
            ),
        },
        "extract" => {
            let abs = std::fs::canonicalize(path).unwrap_or(path.into());
            let url = file_uri(&abs, false);
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
    };
    let _ = writeln!(std::io::stdout(), "{n}");
}

/// The file's bytes as `uriscan links` gets those of a file it is given:
/// mapped from 1 MiB on (src/cli/mapped.rs), else read.
fn read(path: &std::path::Path) -> std::io::Result<Bytes> {
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() >= 1 << 20 {
        // SAFETY: a bench input, not written while it is read; a file cut
        // short meanwhile would stop this program with SIGBUS.
        return Ok(Bytes::Mapped(unsafe {
            memmap2::MmapOptions::new().populate().map(&file)?
        }));
    }
    let mut v = vec![];
    std::io::Read::read_to_end(&mut &file, &mut v)?;
    Ok(Bytes::Read(v))
}

/// A file's bytes, read or mapped.
enum Bytes {
    Read(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Read(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}
