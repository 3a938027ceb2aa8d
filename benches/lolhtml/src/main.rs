//! lol_html against uriscan's own HTML tokenizer, on the same bytes in
//! memory (the HTML reader is chosen by measurement, among
//! html5gum, lol_html and our own tokenizer). Run it with
//! `benches/lolhtml.sh`; benches/README.md records the figures.
//!
//! `time [--runs N] LABEL=PATH...`: each PATH, a file or a folder (its
//! `.html` files, recursively), is read into memory whole, then every
//! contender parses every document of it once per round, in paired
//! rounds (the contenders back to back, their order rotated each round),
//! and the median, the minimum and the median of the per-round ratios
//! are printed as Markdown rows.
//!
//! `compare PATH...`: the `a@href` values lol_html hands out against the
//! `link` of uriscan's `html:a@href` links, paired by their place in
//! each document.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lol_html::errors::RewritingError;
use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HtmlRewriter, Selector, Settings};
use uriscan::links::{Format, LinkExtractor, Page};

/// The page URL links are resolved against, as in `cargo bench --bench
/// links`.
const PAGE_URL: &str = "https://example.com/a/b";

/// The selectors of lol_html's link run, with the attribute each hands
/// out: the link attributes uriscan reads most (its table in
/// `src/links/html.rs` has more), and every `id`, which the checker needs
/// for fragments.
const LINK_SELECTORS: &[(&str, &str)] = &[
    ("a[href]", "href"),
    ("link[href]", "href"),
    ("img[src]", "src"),
    ("img[srcset]", "srcset"),
    ("script[src]", "src"),
    ("iframe[src]", "src"),
    ("source[src]", "src"),
    ("source[srcset]", "srcset"),
    ("form[action]", "action"),
    ("area[href]", "href"),
    ("base[href]", "href"),
    ("video[poster]", "poster"),
    ("*[id]", "id"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("time") => time(&args[1..]),
        Some("compare") if args.len() > 1 => compare(&args[1..]),
        _ => {
            Err("usage: uriscan-bench-lolhtml time [--runs N] LABEL=PATH... \
             | compare PATH..."
                .into())
        }
    };
    if let Err(e) = result {
        eprintln!("uriscan-bench-lolhtml: {e}");
        std::process::exit(2);
    }
}

/// Runs a rewriter of `settings` over `doc`, its output dropped.
fn rewrite(
    settings: Settings<'_, '_>,
    doc: &[u8],
) -> Result<(), RewritingError> {
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    rewriter.write(doc)?;
    rewriter.end()
}

/// A rewriter with no handler, whose output is dropped: lol_html's
/// parse alone. With no selector it stays in its tag scanner, which
/// looks only for tag names (and the few the tree builder simulation
/// needs), and never runs the full lexer that reads attributes.
fn lol_bare(doc: &[u8]) -> Result<usize, RewritingError> {
    rewrite(Settings::new().with_strict(false), doc)?;
    Ok(0)
}

/// A rewriter whose one handler, on every element (`*`), does nothing:
/// each start tag then goes through lol_html's full lexer, which reads
/// its attributes, as our bare tokenizer does.
fn lol_every_element(
    doc: &[u8],
    every: &Selector,
) -> Result<usize, RewritingError> {
    let settings =
        Settings::new().with_strict(false).append_element_content_handler((
            Cow::Borrowed(every),
            ElementContentHandlers::default()
                .element(|_: &mut Element<'_, '_>| Ok(())),
        ));
    rewrite(settings, doc)?;
    Ok(0)
}

/// A rewriter with one element handler per selector, each pushing its
/// attribute's value into `out`: what lol_html does for a link reader.
/// The selectors are parsed once and borrowed; the rewriter compiles them
/// for each document, as its API requires.
fn lol_values(
    doc: &[u8],
    selectors: &[(Selector, &'static str)],
    out: &RefCell<Vec<String>>,
) -> Result<usize, RewritingError> {
    out.borrow_mut().clear();
    let mut settings = Settings::new().with_strict(false);
    for (selector, attribute) in selectors {
        let handler = move |el: &mut Element<'_, '_>| {
            if let Some(value) = el.get_attribute(attribute) {
                out.borrow_mut().push(value);
            }
            Ok(())
        };
        settings = settings.append_element_content_handler((
            Cow::Borrowed(selector),
            ElementContentHandlers::default().element(handler),
        ));
    }
    rewrite(settings, doc)?;
    Ok(out.borrow().len())
}

fn parse_selectors(
    list: &[(&str, &'static str)],
) -> Result<Vec<(Selector, &'static str)>, String> {
    list.iter()
        .map(|&(s, a)| Ok((s.parse().map_err(|e| format!("{s}: {e}"))?, a)))
        .collect()
}

/// A contender's run over one document: a count of what it found, so
/// that the work cannot be optimised away, or why it refused the document.
type Run<'a> = Box<dyn Fn(&[u8]) -> Result<usize, String> + 'a>;

/// One contender: its row label and its run.
struct Contender<'a> {
    label: &'static str,
    run: Run<'a>,
}

fn time(args: &[String]) -> Result<(), String> {
    let mut runs = 11;
    let mut inputs = vec![];
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            let n = args.next().ok_or("--runs needs a number")?;
            runs =
                n.parse().map_err(|_| format!("--runs {n}: not a number"))?;
        } else {
            let (label, path) = arg
                .split_once('=')
                .ok_or_else(|| format!("{arg}: expected LABEL=PATH"))?;
            inputs.push((label.to_string(), PathBuf::from(path)));
        }
    }
    if inputs.is_empty() || runs == 0 {
        return Err("time: no input, or no run".into());
    }

    let extractor = LinkExtractor::new();
    let link_selectors = parse_selectors(LINK_SELECTORS)?;
    let a_selector = parse_selectors(&[("a[href]", "href")])?;
    let every: Selector = "*".parse().map_err(|e| format!("*: {e}"))?;
    let values = RefCell::new(Vec::new());
    let contenders = [
        Contender {
            label: "uriscan, bare tokenizer (`count_start_tags`)",
            run: Box::new(|d| {
                Ok(uriscan::internals::links::count_start_tags(d))
            }),
        },
        Contender {
            label: "lol_html, no handler (tag scanner only)",
            run: Box::new(|d| lol_bare(d).map_err(|e| e.to_string())),
        },
        Contender {
            label: "lol_html, `*` with a handler that does nothing (full lexer)",
            run: Box::new(|d| {
                lol_every_element(d, &every).map_err(|e| e.to_string())
            }),
        },
        Contender {
            label: "lol_html, `a[href]` only",
            run: Box::new(|d| {
                lol_values(d, &a_selector, &values).map_err(|e| e.to_string())
            }),
        },
        Contender {
            label: "lol_html, 13 link and id selectors",
            run: Box::new(|d| {
                lol_values(d, &link_selectors, &values)
                    .map_err(|e| e.to_string())
            }),
        },
        Contender {
            label: "uriscan, extraction (`extract`, resolved)",
            run: Box::new(|d| {
                let page = Page::new(d, Format::Html).url(PAGE_URL);
                Ok(extractor.extract(&page).count())
            }),
        },
        Contender {
            label: "uriscan, extraction and anchors (`extract_with_anchors`)",
            run: Box::new(|d| {
                let page = Page::new(d, Format::Html).url(PAGE_URL);
                let (links, ids) = extractor.extract_with_anchors(&page);
                Ok(links.count() + ids.map_or(0, |ids| ids.len()))
            }),
        },
    ];

    for (label, path) in &inputs {
        let docs = read_documents(path)?;
        let bytes: usize = docs.iter().map(Vec::len).sum();
        println!(
            "\n### {label}: {} ({} file{}, {:.1} MiB), {runs} rounds\n",
            path.display(),
            docs.len(),
            if docs.len() == 1 { "" } else { "s" },
            mib(bytes)
        );
        // An untimed round first: it warms the caches and says what each
        // contender found, and whether lol_html refused a document.
        println!("What each found (a round before the timed ones):\n");
        for c in &contenders {
            let (mut found, mut errors) = (0, vec![]);
            for d in &docs {
                match (c.run)(d) {
                    Ok(n) => found += n,
                    Err(e) => errors.push(e),
                }
            }
            let refused = match errors.first() {
                None => String::new(),
                Some(e) => {
                    format!(", {} document(s) refused: {e}", errors.len())
                }
            };
            println!("- {}: {found}{refused}", c.label);
        }
        let times = rounds(&contenders, &docs, runs);
        print_table(&contenders, &times, bytes);
    }
    Ok(())
}

/// `runs` rounds, each contender over every document once per round, in
/// an order rotated from one round to the next; `times[c][r]`.
fn rounds(
    contenders: &[Contender<'_>],
    docs: &[Vec<u8>],
    runs: usize,
) -> Vec<Vec<Duration>> {
    let mut times = vec![Vec::with_capacity(runs); contenders.len()];
    for round in 0..runs {
        for i in 0..contenders.len() {
            let c = (i + round) % contenders.len();
            let start = Instant::now();
            for d in docs {
                black_box((contenders[c].run)(black_box(d)).ok());
            }
            times[c].push(start.elapsed());
        }
    }
    times
}

fn print_table(
    contenders: &[Contender<'_>],
    times: &[Vec<Duration>],
    bytes: usize,
) {
    // The per-round ratios to the first contender (our bare tokenizer)
    // and to the last (our extraction with ids, the work a link checker
    // asks of lol_html's 13 selectors).
    let last = contenders.len() - 1;
    println!(
        "\n| contender | median | min | MiB/s (median) \
         | ratio to ours bare | ratio to ours with ids |"
    );
    println!("|---|---|---|---|---|---|");
    for (c, contender) in contenders.iter().enumerate() {
        let med = median(&times[c]);
        let min = *times[c].iter().min().expect("at least one round");
        println!(
            "| {} | {} | {} | {:.0} | {} | {} |",
            contender.label,
            ms(med),
            ms(min),
            mib(bytes) / med.as_secs_f64(),
            ratio(&times[c], &times[0]),
            ratio(&times[c], &times[last]),
        );
    }
}

/// The median of the per-round ratios `a / b`, with their range.
fn ratio(a: &[Duration], b: &[Duration]) -> String {
    let mut r: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(a, b)| a.as_secs_f64() / b.as_secs_f64())
        .collect();
    r.sort_by(f64::total_cmp);
    let med = r[r.len() / 2];
    format!("{med:.2}x ({:.2}–{:.2})", r[0], r[r.len() - 1])
}

fn median(times: &[Duration]) -> Duration {
    let mut t = times.to_vec();
    t.sort();
    t[t.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// A file, or the `.html` files under a folder in path order, read whole.
fn read_documents(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let mut files = vec![];
    if path.is_dir() {
        html_files(path, &mut files)?;
        files.sort();
    } else {
        files.push(path.to_path_buf());
    }
    if files.is_empty() {
        return Err(format!("{}: no .html file", path.display()));
    }
    files
        .iter()
        .map(|f| std::fs::read(f).map_err(|e| format!("{}: {e}", f.display())))
        .collect()
}

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path =
            entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            html_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    Ok(())
}

/// What lol_html's `Attribute::value` holds against what a link reader
/// needs: the `href` of each `a` as lol_html hands it out (with where its
/// value stands in the file) against the `link` of uriscan's
/// `html:a@href` links (entities decoded, ASCII whitespace stripped, by
/// the WHATWG tokenizer), paired by place, then as multisets, over every
/// document of each path (a file or a folder).
fn compare(paths: &[String]) -> Result<(), String> {
    // lol_html's own documentation of `Attribute::value` says "The value
    // may have HTML/XML entities": show it on one line first.
    let probe = br#"<a href=" /x?a=1&amp;b=2&lt;&#x41; ">"#;
    let out = RefCell::new(vec![]);
    lol_values(probe, &parse_selectors(&[("a[href]", "href")])?, &out)
        .map_err(|e| e.to_string())?;
    let ours: Vec<String> = LinkExtractor::new()
        .extract(&Page::new(probe, Format::Html))
        .map(|l| l.link().to_string())
        .collect();
    println!("On {}:", String::from_utf8_lossy(probe));
    println!("- lol_html `get_attribute(\"href\")`: {:?}", out.borrow());
    println!("- uriscan `Link::link()`: {ours:?}");

    let extractor = LinkExtractor::new();
    let selector: Selector = "a[href]".parse().map_err(|e| format!("{e}"))?;
    for path in paths.iter().map(Path::new) {
        let docs = read_documents(path)?;
        let mut tally = Tally::default();
        for doc in &docs {
            let lol = lol_hrefs(doc, &selector).map_err(|e| e.to_string())?;
            let ours: Vec<(usize, String)> = extractor
                .extract(&Page::new(doc, Format::Html).url(PAGE_URL))
                .filter(|l| l.kind().to_string() == "html:a@href")
                .map(|l| (l.span().start, l.link().to_string()))
                .collect();
            tally.add(&lol, &ours);
        }
        println!();
        tally.print(path, docs.len());
    }
    Ok(())
}

/// Each `a@href` of `doc` as lol_html hands it out, with the offset of
/// its value in `doc` (none for a value it did not read from the input).
fn lol_hrefs(
    doc: &[u8],
    selector: &Selector,
) -> Result<Vec<(Option<usize>, String)>, RewritingError> {
    let lol = RefCell::new(vec![]);
    let handler = |el: &mut Element<'_, '_>| {
        for attr in el.attributes() {
            if attr.name() == "href" {
                let at = attr.value_source_location().map(|l| l.bytes().start);
                lol.borrow_mut().push((at, attr.value()));
            }
        }
        Ok(())
    };
    let settings =
        Settings::new().with_strict(false).append_element_content_handler((
            Cow::Borrowed(selector),
            ElementContentHandlers::default().element(handler),
        ));
    rewrite(settings, doc)?;
    Ok(lol.into_inner())
}

/// The differences between lol_html's values and uriscan's links, over
/// documents.
#[derive(Default)]
struct Tally {
    lol: usize,
    ours: usize,
    paired: usize,
    unpaired: Vec<String>,
    /// (lol_html's value, uriscan's link) by the kind of difference.
    kinds: HashMap<&'static str, Vec<(String, String)>>,
    only_lol: usize,
    only_ours: usize,
}

impl Tally {
    fn add(
        &mut self,
        lol: &[(Option<usize>, String)],
        ours: &[(usize, String)],
    ) {
        self.lol += lol.len();
        self.ours += ours.len();
        // By place: uriscan's span is the value less the whitespace it
        // strips, so a pair is a lol_html value whose range holds
        // uriscan's start.
        let ours_at: HashMap<usize, &str> =
            ours.iter().map(|(at, link)| (*at, link.as_str())).collect();
        for (at, value) in lol {
            let link = at.and_then(|at| {
                (at..=at + value.len()).find_map(|p| ours_at.get(&p).copied())
            });
            let Some(link) = link else {
                self.unpaired.push(value.clone());
                continue;
            };
            self.paired += 1;
            if value == link {
                continue;
            }
            let trimmed =
                value.trim_matches(|c: char| c.is_ascii_whitespace());
            let kind = if trimmed == link {
                "leading or trailing whitespace, stripped by uriscan"
            } else if value.contains('&') {
                "a character reference, decoded by uriscan"
            } else if value.eq_ignore_ascii_case(link) {
                "case"
            } else {
                "other"
            };
            self.kinds
                .entry(kind)
                .or_default()
                .push((value.clone(), link.to_string()));
        }
        // As multisets, place aside: the values a checker would be handed.
        let mut bag: HashMap<&str, isize> = HashMap::new();
        for (_, v) in lol {
            *bag.entry(v).or_default() += 1;
        }
        for (_, l) in ours {
            *bag.entry(l).or_default() -= 1;
        }
        for n in bag.values() {
            if *n > 0 {
                self.only_lol += n.unsigned_abs();
            } else {
                self.only_ours += n.unsigned_abs();
            }
        }
    }

    fn print(&self, path: &Path, docs: usize) {
        println!(
            "{} ({docs} document(s)): lol_html gives {} a@href values, \
             uriscan {} html:a@href links",
            path.display(),
            self.lol,
            self.ours
        );
        println!(
            "paired by place: {}; lol_html values with no uriscan link there: {}",
            self.paired,
            self.unpaired.len()
        );
        for v in self.unpaired.iter().take(5) {
            println!("  unpaired lol_html value: {v:?}");
        }
        let mut kinds: Vec<_> = self.kinds.iter().collect();
        kinds.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
        for (kind, pairs) in kinds {
            println!("differ by {kind}: {}", pairs.len());
            let mut refs: HashMap<&str, usize> = HashMap::new();
            for (value, _) in pairs {
                for r in references(value) {
                    *refs.entry(r).or_default() += 1;
                }
            }
            if !refs.is_empty() {
                let mut refs: Vec<_> = refs.into_iter().collect();
                refs.sort_by_key(|&(r, n)| (std::cmp::Reverse(n), r));
                let refs: Vec<String> =
                    refs.iter().map(|(r, n)| format!("{r} {n}")).collect();
                println!("  the references in them: {}", refs.join(", "));
            }
            // The shortest few, each once.
            let mut pairs: Vec<_> = pairs.iter().collect();
            pairs.sort_by_key(|(v, _)| (v.len(), v.clone()));
            pairs.dedup();
            for (value, link) in pairs.iter().take(4) {
                println!("  lol_html {value:?}\n  uriscan  {link:?}");
            }
        }
        println!(
            "as multisets: {} lol_html values not among uriscan's links, {} \
             uriscan links not among lol_html's values",
            self.only_lol, self.only_ours
        );
    }
}

/// The character references written in `value`: `&`, then letters, digits
/// or `#`, and the `;` when there is one.
fn references(value: &str) -> impl Iterator<Item = &str> {
    value.match_indices('&').filter_map(move |(at, _)| {
        let rest = &value[at + 1..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .unwrap_or(rest.len());
        let end = at + 1 + len + usize::from(rest[len..].starts_with(';'));
        (len > 0).then(|| &value[at..end])
    })
}
