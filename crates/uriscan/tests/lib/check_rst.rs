//! The offline check of a Sphinx project: `:doc:` paths, `:ref:` labels
//! across documents, fragments into reStructuredText documents and into
//! the pages their sources become.

use std::path::Path;

use uriscan::checking::{Checker, Document, Status};
use uriscan::links::{Format, LinkExtractor, Page, PathKind, file_uri};

fn document(root: &Path, name: &str) -> Document {
    let path = root.join(name);
    let bytes = std::fs::read(&path).unwrap();
    let url = file_uri(&path, PathKind::File);
    // Root-relative links (`:doc:` with `/`) resolve under the root, as
    // the command line gives it.
    let root_uri = file_uri(root, PathKind::Directory);
    let page =
        Page::new(&bytes, Format::from_path(&path)).url(&url).root(&root_uri);
    let (links, ids) = LinkExtractor::new().extract_with_anchors(&page);
    Document {
        path,
        root: root.to_path_buf(),
        links: links.collect(),
        ids,
        disabled: vec![],
    }
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
            let why = v.reason().map(|r| r.to_string()).unwrap_or_default();
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
