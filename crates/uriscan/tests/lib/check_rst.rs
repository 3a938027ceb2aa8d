//! The offline check of a Sphinx project: `:doc:` paths, `:ref:` labels
//! across documents, fragments into reStructuredText documents and into
//! the pages their sources become; and with MyST, `{ref}` and Markdown
//! links to labels across MyST and reStructuredText documents.

use std::path::Path;

use uriscan::checking::{Checker, Document, FormatDetector, Status};
use uriscan::links::{Format, LinkExtractor, Page, PathKind, file_uri};

fn document(root: &Path, name: &str) -> Document {
    let path = root.join(name);
    let bytes = std::fs::read(&path).unwrap();
    let url = file_uri(&path, PathKind::File);
    // Root-relative links (`:doc:` with `/`) resolve under the root, as
    // the command line gives it.
    let root_uri = file_uri(root, PathKind::Directory);
    // A Markdown file of a project with `myst_parser` is MyST.
    let format = FormatDetector::new().format(&path);
    let page = Page::new(&bytes, format).url(&url).root(&root_uri);
    let (links, ids) = LinkExtractor::new().extract_with_anchors(&page);
    Document {
        path,
        root: root.to_path_buf(),
        links: links.collect(),
        ids,
        disabled: vec![],
    }
}

/// Each link of the documents `names` under `root`, checked together:
/// `KIND RAW STATUS REASON SUGGESTION`.
fn checked(root: &Path, names: &[&str]) -> Vec<String> {
    let checker = Checker::new();
    let mut collector = checker.collector();
    let mut docs = vec![];
    for name in names {
        let doc = document(root, name);
        collector.ingest(&doc, name);
        docs.push(doc);
    }
    let checked = collector.finish();
    let mut got = vec![];
    for (doc, verdicts) in docs.iter().zip(&checked.documents) {
        for (l, v) in doc.links.iter().zip(&verdicts.verdicts) {
            let why =
                checked.reason(v).map(|r| r.to_string()).unwrap_or_default();
            let hint =
                v.suggestion(l).map(|s| s.into_owned()).unwrap_or_default();
            got.push(format!(
                "{} {} {} {why} {hint}",
                l.kind(),
                l.raw(),
                v.status().as_str()
            ));
        }
    }
    got
}

#[test]
fn a_sphinx_project_is_checked_offline() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(
        root.join("conf.py"),
        "project = 'x'\nextensions = ['sphinx.ext.autosectionlabel']\n",
    )
    .unwrap();
    std::fs::create_dir(root.join("usage")).unwrap();
    std::fs::write(
        root.join("usage/guide.rst"),
        ".. _guide-label:\n\nThe Guide\n=========\n\nText.\n",
    )
    .unwrap();
    std::fs::write(
        root.join("index.rst"),
        "Index\n=====\n\n\
         :doc:`usage/guide` :doc:`missing`\n\
         :ref:`Guide-Label` :ref:`guide-lable` :ref:`The  Guide`\n\
         :doc:`/usage/guide/` :ref:`genindex`\n\
         `a <usage/guide.html#the-guide>`_ `b <usage/guide.html#nope>`_\n\
         `c <usage/guide.rst#guide-label>`_ :py:class:`x.Y`\n",
    )
    .unwrap();
    let checker = Checker::new();
    let mut collector = checker.collector();
    for name in ["index.rst", "usage/guide.rst"] {
        collector.ingest(&document(&root, name), name);
    }
    let checked = collector.finish();
    let index =
        checked.documents.iter().find(|d| d.tag == "index.rst").unwrap();
    let links: Vec<_> = document(&root, "index.rst").links;
    let got: Vec<_> = links
        .iter()
        .zip(&index.verdicts)
        .map(|(l, v)| {
            let why =
                checked.reason(v).map(|r| r.to_string()).unwrap_or_default();
            let hint =
                v.suggestion(l).map(|s| s.into_owned()).unwrap_or_default();
            (l.raw().to_owned(), v.status().as_str(), why, hint)
        })
        .collect();
    let want = [
        ("usage/guide", "ok", "", ""),
        ("missing", "broken", "no such file or directory", ""),
        ("Guide-Label", "ok", "", ""),
        (
            "guide-lable",
            "broken",
            "no label 'guide-lable' in the documents checked",
            "guide-label",
        ),
        ("The  Guide", "ok", "", ""),
        ("/usage/guide/", "ok", "", ""),
        ("genindex", "ok", "", ""),
        ("usage/guide.html#the-guide", "ok", "", ""),
        (
            "usage/guide.html#nope",
            "broken",
            "no anchor '#nope' in the target",
            "",
        ),
        ("usage/guide.rst#guide-label", "ok", "", ""),
        (
            "x.Y",
            "skipped",
            "a role with a domain or an intersphinx reference is not resolved offline",
            "",
        ),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|(a, b, c, d)| (a.to_string(), *b, c.to_string(), d.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(index.verdicts[10].status(), Status::Skipped);
}

#[test]
fn a_myst_project_is_checked_offline() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(
        root.join("conf.py"),
        "extensions = [\n  'myst_parser',\n]\nmyst_heading_anchors = 2\n",
    )
    .unwrap();
    std::fs::create_dir(root.join("usage")).unwrap();
    std::fs::write(
        root.join("usage/guide.rst"),
        ".. _guide-label:\n\nThe Guide\n=========\n\n:ref:`fig-one` :ref:`Intro`\n",
    )
    .unwrap();
    std::fs::write(root.join("LICENSE"), "").unwrap();
    std::fs::write(
        root.join("index.md"),
        "(intro)=\n# Intro Page\n\n\
         {ref}`guide-label` {ref}`guide-lable` {doc}`usage/guide`\n\
         [a](#intro) [b](#intro-page) [c](#guide-label) [d](LICENSE) [e](index)\n\
         [f](usage/guide.rst#the-guide) [g](#nowhere) {py:class}`x.Y`\n\n\
         :::{figure} missing.png\n:name: fig-one\n:::\n",
    )
    .unwrap();
    let detected = FormatDetector::new().format(&root.join("index.md"));
    assert_eq!(detected, Format::Myst);
    assert_eq!(
        checked(&root, &["index.md", "usage/guide.rst"]),
        [
            "myst:ref guide-label ok  ",
            "myst:ref guide-lable broken no label 'guide-lable' in the documents checked guide-label",
            "myst:doc usage/guide ok  ",
            "md:link #intro ok  ",
            "md:link #intro-page ok  ",
            "myst:label-link #guide-label ok  ",
            "myst:label-link LICENSE ok  ",
            "myst:label-link index ok  ",
            "md:link usage/guide.rst#the-guide ok  ",
            "myst:label-link #nowhere broken no label 'nowhere' in the documents checked ",
            "myst:external x.Y skipped a role with a domain or an intersphinx reference is not resolved offline ",
            "myst:figure missing.png broken no such file or directory ",
            "rst:ref fig-one ok  ",
            "rst:ref Intro ok  ",
        ]
    );
}

#[test]
fn glossary_terms_are_looked_up_across_the_project() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("conf.py"), "extensions = ['myst_parser']\n")
        .unwrap();
    std::fs::write(
        root.join("glossary.rst"),
        ".. glossary::\n   :sorted:\n\n   Widget\n   Sprocket : a kind\n      \
         A thing.\n\n:term:`widget` :term:`the cog <Cog>` :term:`My  term`\n",
    )
    .unwrap();
    std::fs::write(
        root.join("index.md"),
        "```{glossary}\nMy term\n  Defined in MyST.\n```\n\n\
         {term}`SPROCKET` {term}`Widgets`\n",
    )
    .unwrap();
    assert_eq!(
        checked(&root, &["glossary.rst", "index.md"]),
        [
            "rst:term widget ok  ",
            "rst:term Cog broken no glossary term 'cog' in the documents checked ",
            "rst:term My  term ok  ",
            "myst:term SPROCKET ok  ",
            "myst:term Widgets broken no glossary term 'widgets' in the documents checked widget",
        ]
    );
}
