//! Where our own Markdown reader (`--markdown-parser uriscan`) declines
//! documents, which pulldown-cmark then reads: for each path, the
//! decline sites (the reader's file and line, with the line of code
//! above the decline) by documents and bytes, as a Markdown table.
//!
//! ```sh
//! cargo run -p uriscan --example markdown_declines --features internals -- \
//!     ../shared/corpus/markdown.md --pieces 4096 ../shared/corpus/markdown.md DIR
//! ```
//!
//! A file is one document; `--pieces N` before a file cuts it at the
//! first blank line after every `N` bytes, as the differential test does;
//! a directory is every `.md` file beneath it, each one document.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use uriscan::internals::links::markdown_decline;

fn main() {
    let mut pieces = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--pieces" {
            pieces = args.next().and_then(|n| n.parse::<usize>().ok());
            continue;
        }
        let path = PathBuf::from(&arg);
        let documents = if path.is_dir() {
            let mut files = vec![];
            markdown_files(&path, &mut files);
            files.sort();
            files
                .iter()
                .filter_map(|f| std::fs::read(f).ok())
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .collect()
        } else {
            let Ok(bytes) = std::fs::read(&path) else {
                eprintln!("{arg}: cannot be read");
                std::process::exit(2);
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            match pieces.take() {
                Some(size) => cut(&text, size),
                None => vec![text],
            }
        };
        report(&arg, &documents);
    }
}

/// The `.md` files beneath `dir`, symlinks not followed.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            markdown_files(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "md")
        {
            out.push(path);
        }
    }
}

/// `text` cut at the first blank line after every `size` bytes.
fn cut(text: &str, size: usize) -> Vec<String> {
    let mut out = vec![];
    let mut start = 0;
    while start < text.len() {
        let at = (start + size).min(text.len());
        let end = text.as_bytes()[at..]
            .windows(2)
            .position(|w| w == b"\n\n")
            .map_or(text.len(), |k| at + k + 2);
        out.push(text[start..end].to_string());
        start = end;
    }
    out
}

/// The decline sites of `documents` as a table, under `name`.
fn report(name: &str, documents: &[String]) {
    let mut sites: BTreeMap<(&str, u32), (usize, usize)> = BTreeMap::new();
    let total: usize = documents.iter().map(String::len).sum();
    let (mut read_docs, mut read_bytes) = (0, 0);
    for doc in documents {
        match markdown_decline(doc, true) {
            None => {
                read_docs += 1;
                read_bytes += doc.len();
            }
            Some(site) => {
                let entry = sites.entry(site).or_default();
                entry.0 += 1;
                entry.1 += doc.len();
            }
        }
    }
    let share = |bytes: usize| 100.0 * bytes as f64 / total.max(1) as f64;
    println!("\n{name}: {} documents, {total} bytes\n", documents.len());
    println!(
        "| declined at | the code above it | documents | bytes | of the bytes |"
    );
    println!("|---|---|---:|---:|---:|");
    let mut rows: Vec<_> = sites.into_iter().collect();
    rows.sort_by_key(|row| std::cmp::Reverse(row.1.1));
    for ((file, line), (docs, bytes)) in rows {
        let short = file.rsplit('/').next().unwrap_or(file);
        println!(
            "| {short}:{line} | `{}` | {docs} | {bytes} | {:.2}% |",
            code_above(file, line),
            share(bytes)
        );
    }
    println!(
        "| read | | {read_docs} | {read_bytes} | {:.2}% |",
        share(read_bytes)
    );
}

/// The line of code (or comment) above line `line` of the reader's
/// `file`, for telling the sites apart.
fn code_above(file: &str, line: u32) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Ok(source) = std::fs::read_to_string(root.join(file)) else {
        return String::new();
    };
    let lines: Vec<&str> = source.lines().collect();
    let at = (line as usize).saturating_sub(1);
    let above = (0..at)
        .rev()
        .map(|k| lines.get(k).map_or("", |l| l.trim()))
        .find(|l| !l.is_empty() && !l.starts_with("return") && *l != "{")
        .unwrap_or("");
    let mut shown: String = above.chars().take(70).collect();
    if shown.len() < above.len() {
        shown.push('…');
    }
    shown.replace('|', "\\|").replace('`', "'")
}
