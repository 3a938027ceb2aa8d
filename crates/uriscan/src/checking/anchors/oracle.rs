//! Each style held to its generator's own output: the TSV files of
//! `tests/data/anchors/`, written by `scripts/anchors-oracle.sh` from the
//! real tools (Python-Markdown with pymdown-extensions, github-slugger,
//! Hugo, kramdown). Every row is asserted, as rust-url runs its
//! `urltestdata.json`.
//!
//! A file starts with `#style` and the settings the script used, then
//! `heading<TAB>id` rows (one document, so duplicates count; `(none)`
//! when the heading got no id, `(not a heading)` when the tool did not
//! read the line as one: kramdown wants text after `##`), then
//! `footnote<TAB>id` rows, each an id of `footnotes.md` that a link must
//! reach.

use std::path::Path;

use super::document::{Kind, anchors_with_kinds};
use super::{AnchorStyle, markdown_anchors};

/// The style a `#style` line names.
fn style_of(fields: &[&str]) -> AnchorStyle {
    let arg = |i: usize| fields.get(i).copied().filter(|s| !s.is_empty());
    match fields[0] {
        "github" => AnchorStyle::Github,
        "docusaurus" => AnchorStyle::docusaurus(),
        "mkdocs" => {
            let name = arg(1).filter(|&n| n != "-");
            let kwds: Vec<(&str, &str)> = arg(2)
                .unwrap_or_default()
                .split(' ')
                .filter_map(|kv| kv.split_once('='))
                .collect();
            AnchorStyle::mkdocs(name, &kwds).expect("a known slugify")
        }
        "hugo" => AnchorStyle::hugo(arg(1)).expect("a known type"),
        "jekyll" => {
            let prefix = arg(2).filter(|&p| p != "-");
            let stripping = arg(3) == Some("true");
            match arg(1) {
                Some("GFM") => AnchorStyle::jekyll(true, prefix, stripping),
                _ => AnchorStyle::kramdown(true, prefix, stripping),
            }
        }
        other => panic!("unknown style {other}"),
    }
}

/// Checks one TSV file: the number of rows checked, or what failed.
fn check_file(path: &Path, footnotes: &str) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).expect("readable");
    let mut lines = text.lines();
    let header = lines.next().expect("a #style line");
    let fields: Vec<&str> =
        header.strip_prefix("#style\t").expect("#style").split('\t').collect();
    let style = style_of(&fields);
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for line in lines {
        let (heading, id) = line.split_once('\t').expect("two columns");
        if heading == "footnote" {
            notes.push(id);
        } else if id != "(not a heading)" {
            rows.push((heading, id));
        }
    }
    let mut doc = String::new();
    for (n, (heading, _)) in rows.iter().enumerate() {
        doc.push_str(&format!("## {heading}\n\nrow-{}\n\n", n + 1));
    }
    let anchors = anchors_with_kinds(&doc, style);
    let mut failures = Vec::new();
    for (n, (heading, want)) in rows.iter().enumerate() {
        let line = u32::try_from(4 * n + 1).expect("small");
        let got = anchors
            .iter()
            .find(|(a, kind)| a.line == line && *kind == Kind::Heading)
            .map_or("(none)", |(a, _)| a.name.as_str());
        if got != *want {
            failures.push(format!("{heading:?}: want {want:?}, got {got:?}"));
        }
    }
    let offered = markdown_anchors(footnotes, style);
    for id in &notes {
        if !offered.iter().any(|a| style.fragment_matches(id, &a.name)) {
            failures.push(format!("footnote {id:?} not reached"));
        }
    }
    if !failures.is_empty() {
        let name = path.file_name().unwrap_or_default().display();
        return Err(format!("{name} ({style:?}):\n{}", failures.join("\n")));
    }
    Ok(rows.len() + notes.len())
}

#[test]
fn every_style_matches_its_generator() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/anchors");
    let footnotes =
        std::fs::read_to_string(dir.join("footnotes.md")).expect("footnotes");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the oracle data")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    files.sort();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &files {
        match check_file(path, &footnotes) {
            Ok(n) => checked += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every generator's files are there, each with every heading.
    assert!(files.len() >= 20, "{} files", files.len());
    assert!(checked >= files.len() * 50, "{checked} rows");
}
