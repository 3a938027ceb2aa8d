//! The link layer against the bare parse of the same bytes: a
//! pulldown-cmark parse with no handler for Markdown; for HTML, html5gum
//! driving an emitter that does nothing, and our own tokenizer (the one
//! extraction runs) with a sink that only counts start tags. Criterion
//! reports MB/s for each; the ratio of the bare parse and extraction is
//! what extraction adds. `links` keeps each link (`extract`); `links
//! (borrowed)` hands each out borrowed (`for_each`). `link values
//! (ours)` is the floor under the HTML layer: our tokenizer reading every
//! link's value, decoded, with nothing split, resolved or kept.
//!
//! For Markdown, `bare parse (ours)` and `links (ours)` are our own
//! reader (`MarkdownParser::Uriscan`): its parse alone, and extraction
//! on it. Our reader declines a document it does not read exactly yet
//! (pulldown-cmark reads it then), as it does the whole of markdown.md:
//! `links/markdown.md (the pieces ours reads)` holds both readers to the
//! corpus cut into 4 KB pages, on the pages ours reads.
//!
//! `links/sphinx-doc (rst)`: the reStructuredText reader on the `.rst`
//! files of the corpus's Sphinx tree, each its own page.
//!
//! `links/myst (samples)`: the MyST reader on the `.md` samples of
//! `tests/data/myst`, each its own page, the set repeated to about 1 MB;
//! `links/myst (tree)`: on a real MyST tree, laid out by
//! `benches/myst_tree.sh` in `target/myst-tree`.
//!
//! `links/asciidoc-docs` reads each AsciiDoc document of the corpus's
//! Asciidoctor tree (held in memory) at its own `file:` URL, as `check`
//! reads an Antora component.
//!
//! `cargo bench --bench links`

use std::convert::Infallible;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use html5gum::{Emitter, Error, State, Tokenizer};
use uriscan::links::{Format, LinkExtractor, MarkdownParser, Page};

mod common;

/// The two Markdown readers, each by the name of its `links` row.
const MARKDOWN_READERS: [(&str, MarkdownParser); 2] = [
    ("links (ours)", MarkdownParser::Uriscan),
    ("links (pulldown)", MarkdownParser::Pulldown),
];

/// The tokenizer doing nothing: every piece of every token dropped.
#[derive(Default)]
struct Nothing {
    end: bool,
    last: Vec<u8>,
    name: Vec<u8>,
}

impl Emitter for Nothing {
    type Token = Infallible;
    fn set_last_start_tag(&mut self, _: Option<&[u8]>) {}
    fn emit_eof(&mut self) {}
    fn emit_error(&mut self, _: Error) {}
    fn should_emit_errors(&mut self) -> bool {
        false
    }
    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }
    fn emit_string(&mut self, _: &[u8]) {}
    fn init_start_tag(&mut self) {
        self.end = false;
        self.name.clear();
    }
    fn init_end_tag(&mut self) {
        self.end = true;
        self.name.clear();
    }
    fn init_comment(&mut self) {}
    // The same state switches as extraction, so both read the same
    // tokens (a script's text is not tags in either).
    fn emit_current_tag(&mut self) -> Option<State> {
        if self.end {
            return None;
        }
        std::mem::swap(&mut self.last, &mut self.name);
        html5gum::naive_next_state(&self.last)
    }
    fn emit_current_comment(&mut self) {}
    fn emit_current_doctype(&mut self) {}
    fn set_self_closing(&mut self) {}
    fn set_force_quirks(&mut self) {}
    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.extend_from_slice(s);
    }
    fn push_comment(&mut self, _: &[u8]) {}
    fn push_doctype_name(&mut self, _: &[u8]) {}
    fn init_doctype(&mut self) {}
    fn init_attribute(&mut self) {}
    fn push_attribute_name(&mut self, _: &[u8]) {}
    fn push_attribute_value(&mut self, _: &[u8]) {}
    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}
    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}
    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}
    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}
    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.end && self.name == self.last
    }
}

/// The URL every page is read at, and its directory.
const BASE: &str = "https://example.com/a/b";
const DIR: &str = "https://example.com/a/";

/// A floor of the HTML bench: a page and a base or directory, to a count.
type Floor = fn(&[u8], &str) -> usize;

fn bench(c: &mut Criterion) {
    let extractor = LinkExtractor::new();
    for (name, bytes) in common::inputs() {
        let format = match name.as_str() {
            "markdown.md" => Format::Markdown,
            "html.html" => Format::Html,
            _ => continue,
        };
        let mut g = c.benchmark_group(format!("links/{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("bare parse", |b| match format {
            Format::Markdown => {
                let text = String::from_utf8_lossy(&bytes);
                b.iter(|| {
                    uriscan::internals::links::count_markdown_events(&text)
                })
            }
            _ => b.iter(|| {
                let t = Tokenizer::new_with_emitter(
                    &bytes[..],
                    Nothing::default(),
                );
                let Ok(()) = t.finish();
            }),
        });
        if format == Format::Markdown {
            // Our own reader: its bare parse (blocks and inlines, with
            // the links and regions gathered and nothing resolved), and
            // extraction on it. A document it declines is read by
            // pulldown-cmark, which these figures would then include.
            let text = String::from_utf8_lossy(&bytes);
            if uriscan::internals::links::count_markdown_items(&text).is_none()
            {
                eprintln!("{name}: our Markdown reader declines it");
            }
            g.bench_function("bare parse (ours)", |b| {
                b.iter(|| {
                    uriscan::internals::links::count_markdown_items(&text)
                })
            });
            for (name, parser) in MARKDOWN_READERS {
                let extractor =
                    LinkExtractor::builder().markdown_parser(parser).build();
                g.bench_function(name, |b| {
                    b.iter(|| {
                        let page = Page::new(&bytes, format).url(BASE);
                        extractor.extract(&page).count()
                    })
                });
            }
        }
        if format == Format::Html {
            g.bench_function("bare tokenizer (ours)", |b| {
                b.iter(|| uriscan::internals::links::count_start_tags(&bytes))
            });
            // The floor under any extraction on our tokenizer: every
            // link's value read and decoded, nothing else.
            g.bench_function("link values (ours)", |b| {
                b.iter(|| uriscan::internals::links::count_link_values(&bytes))
            });
            // Then, each on top of the values: each value checked a byte
            // at a time and appended to the base's directory (the least
            // that forming the targets costs, whatever the resolver); and
            // each link handed out too, in the same pass (the least
            // extraction on this tokenizer); or each value resolved by our
            // resolver instead (what resolving adds, apart from the rest
            // of extraction).
            let floors: [(&str, Floor, &str); 3] = [
                (
                    "link values concatenated (floor)",
                    uriscan::internals::links::count_link_concatenated,
                    DIR,
                ),
                (
                    "link values handed out (floor)",
                    uriscan::internals::links::count_link_handed_out,
                    DIR,
                ),
                (
                    "link values resolved (ours)",
                    uriscan::internals::links::count_link_targets,
                    BASE,
                ),
            ];
            for (name, floor, base) in floors {
                g.bench_function(name, |b| b.iter(|| floor(&bytes, base)));
            }
        }
        g.bench_function("links", |b| {
            b.iter(|| {
                let page = Page::new(&bytes, format).url(BASE);
                extractor.extract(&page).count()
            })
        });
        // The same links handed out borrowed, none kept: what `links`
        // prints from and the check digests.
        g.bench_function("links (borrowed)", |b| {
            b.iter(|| {
                let page = Page::new(&bytes, format).url(BASE);
                let mut n = 0usize;
                extractor.for_each(&page, |l| n += l.link().len());
                n
            })
        });
        g.finish();
    }
}

/// The Markdown corpus cut into pieces of about 4 KB at blank lines, each
/// its own page, and of those the pieces our own reader reads (the rest
/// it declines to pulldown-cmark): both readers on the same pieces, so
/// the figures are our reader's own, not the fallback's.
fn bench_markdown_pieces(c: &mut Criterion) {
    let Some((_, bytes)) =
        common::inputs().into_iter().find(|(name, _)| name == "markdown.md")
    else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let pieces = uriscan::internals::links::markdown_pages(&text, 4096);
    let read: Vec<&str> = pieces
        .iter()
        .copied()
        .filter(|p| {
            uriscan::internals::links::count_markdown_items(p).is_some()
        })
        .collect();
    let size: usize = read.iter().map(|p| p.len()).sum();
    eprintln!(
        "markdown.md in {} pieces: ours reads {} ({size} of {} bytes)",
        pieces.len(),
        read.len(),
        text.len()
    );
    let mut g = c.benchmark_group("links/markdown.md (the pieces ours reads)");
    g.throughput(Throughput::Bytes(size as u64));
    g.bench_function("bare parse", |b| {
        b.iter(|| {
            read.iter()
                .map(|p| uriscan::internals::links::count_markdown_events(p))
                .sum::<usize>()
        })
    });
    g.bench_function("bare parse (ours)", |b| {
        b.iter(|| {
            read.iter()
                .filter_map(|p| {
                    uriscan::internals::links::count_markdown_items(p)
                })
                .sum::<usize>()
        })
    });
    for (name, parser) in MARKDOWN_READERS {
        let extractor =
            LinkExtractor::builder().markdown_parser(parser).build();
        g.bench_function(name, |b| {
            b.iter(|| {
                read.iter()
                    .map(|p| {
                        let page = Page::new(p.as_bytes(), Format::Markdown)
                            .url(BASE);
                        extractor.extract(&page).count()
                    })
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

/// The reStructuredText reader on every `.rst` file of the corpus's
/// Sphinx tree, each read as its own page, in process: MB/s of source.
fn bench_rst(c: &mut Criterion) {
    let Some(dir) = common::corpus_dir() else {
        eprintln!("skipping the rst tree: no corpus");
        return;
    };
    let files: Vec<Vec<u8>> =
        files_under(&dir.join("sites/sphinx-doc"), |p| {
            Format::from_path(p) == Format::Rst
        })
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_default())
        .collect();
    if files.is_empty() {
        eprintln!("skipping the rst tree: no .rst files");
        return;
    }
    let bytes: usize = files.iter().map(Vec::len).sum();
    let extractor = LinkExtractor::new();
    let mut g = c.benchmark_group("links/sphinx-doc (rst)");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("links (borrowed)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for f in &files {
                let page = Page::new(f, Format::Rst).url(BASE);
                extractor.for_each(&page, |l| n += l.link().len());
            }
            n
        })
    });
    g.finish();
}

/// The MyST reader on the `.md` samples of `tests/data/myst`, each read
/// as its own page, the set repeated to about 1 MB; and on a real MyST
/// tree (`benches/myst_tree.sh` lays it out in `target/myst-tree`), each
/// file its own page: MB/s of source.
fn bench_myst(c: &mut Criterion) {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut samples = markdown_files(&manifest.join("tests/data/myst"));
    let set: usize = samples.iter().map(Vec::len).sum();
    if set == 0 {
        eprintln!("skipping links/myst (samples): no samples");
    } else {
        let copies = (1usize << 20).div_ceil(set);
        let one = samples.clone();
        for _ in 1..copies {
            samples.extend(one.iter().cloned());
        }
        myst_group(c, "links/myst (samples)", &samples);
    }
    let tree = std::env::var_os("CARGO_TARGET_DIR")
        .map_or(manifest.join("../../target"), std::path::PathBuf::from)
        .join("myst-tree");
    let pages = markdown_files(&tree);
    if pages.is_empty() {
        eprintln!("skipping links/myst (tree): run benches/myst_tree.sh");
    } else {
        myst_group(c, "links/myst (tree)", &pages);
    }
}

/// The bytes of every `.md` file under `dir`, in the order of their
/// paths.
fn markdown_files(dir: &std::path::Path) -> Vec<Vec<u8>> {
    files_under(dir, |p| p.extension().is_some_and(|e| e == "md"))
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// The files under `dir` (none when it cannot be read) that `keep`
/// takes, sorted.
fn files_under(
    dir: &std::path::Path,
    keep: impl Fn(&std::path::Path) -> bool,
) -> Vec<std::path::PathBuf> {
    let mut paths = vec![];
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if keep(&path) {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
}

/// One group: each of `pages` read as MyST, the links handed out
/// borrowed; with the default Markdown parser (ours), and with
/// pulldown-cmark.
fn myst_group(c: &mut Criterion, name: &str, pages: &[Vec<u8>]) {
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes as u64));
    for (function, parser) in [
        ("links (borrowed)", MarkdownParser::default()),
        ("links (pulldown)", MarkdownParser::Pulldown),
    ] {
        let extractor =
            LinkExtractor::builder().markdown_parser(parser).build();
        g.bench_function(function, |b| {
            b.iter(|| {
                let mut n = 0usize;
                for f in pages {
                    let page = Page::new(f, Format::Myst).url(BASE);
                    extractor.for_each(&page, |l| n += l.link().len());
                }
                n
            })
        });
    }
    g.finish();
}

/// Each AsciiDoc document of the corpus's Asciidoctor tree, its bytes
/// and its `file:` URL (under the component's own place, so that its
/// Antora resource ids resolve).
fn asciidoc_tree() -> Vec<(Vec<u8>, String)> {
    let Some(tree) =
        common::corpus_dir().map(|d| d.join("sites/asciidoctor-docs"))
    else {
        return vec![];
    };
    let mut docs: Vec<(Vec<u8>, String)> =
        files_under(&tree, |p| p.extension().is_some_and(|e| e == "adoc"))
            .into_iter()
            .filter_map(|path| {
                let bytes = std::fs::read(&path).ok()?;
                let rel = path.strip_prefix(&tree).unwrap_or(&path);
                Some((bytes, format!("file:///copy/{}", rel.display())))
            })
            .collect();
    docs.sort_by(|a, b| a.1.cmp(&b.1));
    docs
}

/// The AsciiDoc reader on the Asciidoctor tree, document by document.
fn bench_asciidoc(c: &mut Criterion) {
    let docs = asciidoc_tree();
    if docs.is_empty() {
        eprintln!("skipping links/asciidoc-docs: the tree is not found");
        return;
    }
    let extractor = LinkExtractor::new();
    let total: usize = docs.iter().map(|(b, _)| b.len()).sum();
    let mut g = c.benchmark_group("links/asciidoc-docs");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("links", |b| {
        b.iter(|| {
            let mut n = 0;
            for (bytes, url) in &docs {
                let page = Page::new(bytes, Format::AsciiDoc).url(url);
                n += extractor.extract(&page).count();
            }
            n
        })
    });
    g.bench_function("links and ids", |b| {
        b.iter(|| {
            let mut n = 0;
            for (bytes, url) in &docs {
                let page = Page::new(bytes, Format::AsciiDoc).url(url);
                let (links, ids) = extractor.extract_with_anchors(&page);
                n += links.count() + ids.map_or(0, |i| i.len());
            }
            n
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench, bench_markdown_pieces, bench_rst, bench_myst, bench_asciidoc
}
criterion_main!(benches);
