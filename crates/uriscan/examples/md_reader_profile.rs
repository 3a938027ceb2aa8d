//! Runs our own Markdown reader over `markdown.md` cut into pages of
//! about 4 KB at blank lines (as the links bench cuts it), on the pages
//! it reads, for a profiler that counts instructions
//! (`valgrind --tool=callgrind`): the bench's steps, one at a time.
//!
//! `md_reader_profile STEP [PASSES] [CORPUS]`, STEP one of `bare` (our
//! reader's bare parse), `links` (extraction on it), `pulldown` (the
//! pulldown-cmark bare parse) or `pulldown-links`; CORPUS defaults to
//! `../shared/corpus/markdown.md` beside the repository.

use uriscan::links::{Format, LinkExtractor, MarkdownParser, Page};

fn main() {
    let mut args = std::env::args().skip(1);
    let step = args.next().unwrap_or_else(|| "bare".into());
    let passes: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(1);
    let corpus = args.next().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/corpus/markdown.md"
        )
        .into()
    });
    let Ok(bytes) = std::fs::read(&corpus) else {
        eprintln!("{corpus}: unreadable");
        std::process::exit(2);
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let pieces = uriscan::internals::links::markdown_pages(&text, 4096);
    let read: Vec<&str> = pieces
        .into_iter()
        .filter(|p| {
            uriscan::internals::links::count_markdown_items(p).is_some()
        })
        .collect();
    let size: usize = read.iter().map(|p| p.len()).sum();
    let mut total = 0usize;
    for _ in 0..passes {
        total += pass(&step, &read);
    }
    println!("{} pages, {size} bytes, {total} items", read.len());
}

/// One pass of `step` over the pages: its own function, so that a
/// profiler may count it alone (`--toggle-collect='*pass*'`).
#[inline(never)]
fn pass(step: &str, read: &[&str]) -> usize {
    match step {
        "bare" => read
            .iter()
            .filter_map(|p| uriscan::internals::links::count_markdown_items(p))
            .sum::<usize>(),
        "pulldown" => read
            .iter()
            .map(|p| uriscan::internals::links::count_markdown_events(p))
            .sum(),
        "links" | "pulldown-links" => {
            let parser = if step == "links" {
                MarkdownParser::Uriscan
            } else {
                MarkdownParser::Pulldown
            };
            let extractor =
                LinkExtractor::builder().markdown_parser(parser).build();
            read.iter()
                .map(|p| {
                    let page = Page::new(p.as_bytes(), Format::Markdown)
                        .url("https://example.com/a/b");
                    extractor.extract(&page).count()
                })
                .sum()
        }
        other => {
            eprintln!("unknown step {other}");
            std::process::exit(2);
        }
    }
}
