//! Runs our own Markdown reader over `markdown.md` cut into pages of
//! about 4 KB at blank lines (as the links bench cuts it), on the pages
//! it reads, for a profiler that counts instructions
//! (`valgrind --tool=callgrind`): the bench's steps, one at a time.
//!
//! `md_reader_profile STEP [PASSES] [CORPUS]`, STEP one of `bare` (our
//! reader's bare parse), `links` (extraction on it, each link kept),
//! `links-each` (each link handed out borrowed, as `links` prints them),
//! `pulldown` (the pulldown-cmark bare parse), `pulldown-links`,
//! `pages` (writes the pages it reads to standard output, each followed
//! by a NUL byte, for the other parsers of `benches/md_peers.sh`), or
//! `floor`: the least
//! pass any exact reader makes, every line found and every byte
//! classified by the inline pass's byte table, nothing built. CORPUS
//! defaults to `../shared/corpus/markdown.md` beside the repository.
//! Prints the fastest pass's time and throughput, and the median's: on
//! a loaded machine the fastest is the one least disturbed.

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
    if step == "pages" {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for page in &read {
            if out
                .write_all(page.as_bytes())
                .and_then(|()| out.write_all(b"\0"))
                .is_err()
            {
                std::process::exit(1);
            }
        }
        if out.flush().is_err() {
            std::process::exit(1);
        }
        return;
    }
    let mut total = 0usize;
    let mut times = vec![];
    for _ in 0..passes {
        let started = std::time::Instant::now();
        total += pass(&step, &read);
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    if let (Some(&fastest), Some(&median)) =
        (times.first(), times.get(times.len() / 2))
    {
        let mb_s = |t: f64| size as f64 / t / 1e6;
        println!(
            "{step}: fastest pass {:.2} ms ({:.0} MB/s), median {:.2} ms ({:.0} MB/s)",
            1e3 * fastest,
            mb_s(fastest),
            1e3 * median,
            mb_s(median)
        );
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
        "floor" => read.iter().map(|p| floor(p.as_bytes())).sum(),
        "pulldown" => read
            .iter()
            .map(|p| uriscan::internals::links::count_markdown_events(p))
            .sum(),
        "links-each" => {
            let extractor = LinkExtractor::new();
            read.iter()
                .map(|p| {
                    let page = Page::new(p.as_bytes(), Format::Markdown)
                        .url("https://example.com/a/b");
                    let mut n = 0;
                    extractor.for_each(&page, |_| n += 1);
                    n
                })
                .sum()
        }
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

/// The bytes that can start or end an inline construct (the inline
/// pass's set, `!` and `~` included).
const SPECIAL: [bool; 256] = {
    let mut set = [false; 256];
    let mut k = 0;
    let bytes = b"\\`<![]*_~";
    while k < bytes.len() {
        set[bytes[k] as usize] = true;
        k += 1;
    }
    set
};

/// The least pass an exact reader makes: each line found, each byte
/// looked up in the class table; the count keeps the work from being
/// optimized away.
#[inline(never)]
fn floor(bytes: &[u8]) -> usize {
    let mut found = 0;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]) {
        found += 1;
        found += bytes[start..end]
            .iter()
            .map(|&b| usize::from(SPECIAL[usize::from(b)]))
            .sum::<usize>();
        start = (end + 1).min(bytes.len());
    }
    found
}
