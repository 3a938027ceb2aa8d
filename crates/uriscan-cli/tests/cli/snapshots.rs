//! Snapshots of every output form of the command line, on one small tree
//! written by the test: the scan (default and JSON), `links` (text and
//! JSON) and `check` (human, JSON, SARIF and GitHub). A change to any
//! byte of them shows in review as a changed `.snap` file.

use crate::support::Dir;

/// A tree with Markdown, HTML and text, and a broken link of each kind.
pub fn tree() -> Dir {
    let dir = Dir::new();
    dir.mkdir(".git");
    dir.create(
        "README.md",
        "# Project\n\n## Install\n\nSee [the guide](docs/guide.md#usage), \
         [a typo](docs/guid.md), [no anchor](#nowhere) and \
         <https://example.com/a?b=1>.\n",
    );
    dir.create(
        "docs/guide.md",
        "# Guide\n\n## Usage\n\nBack [home](../README.md#install); \
         [the page](page.html#top), ftp://user:secret@files.example.org/x.\n",
    );
    dir.create(
        "docs/page.html",
        "<html><body><h1 id=\"top\">Page</h1>\
         <a href=\"guide.md\">guide</a> <a href=\"missing.html\">gone</a>\
         <img src=\"pic.png\"></body></html>\n",
    );
    dir.create(
        "notes.txt",
        "mail me: mailto:a@example.com, or http://[::1]:8080/x\n",
    );
    dir
}

/// Runs `uriscan ARGS` in the tree: the exit code, then standard output
/// with the tree's absolute path written `[TREE]`.
pub fn run(dir: &Dir, args: &[&str]) -> String {
    let (code, out, _) = dir.run(args);
    let mut out = out;
    let canonical = std::fs::canonicalize(dir.path()).unwrap();
    for root in [canonical.as_path(), dir.path()] {
        out = out.replace(&root.display().to_string(), "[TREE]");
    }
    format!("exit {code}\n{out}")
}

#[test]
fn scan_default() {
    insta::assert_snapshot!(run(&tree(), &["--sort", "path"]));
}

#[test]
fn scan_json() {
    insta::assert_snapshot!(run(&tree(), &["--json", "--sort", "path"]));
}

#[test]
fn links_text() {
    insta::assert_snapshot!(run(&tree(), &["links", "--sort", "path"]));
}

#[test]
fn links_json() {
    insta::assert_snapshot!(run(
        &tree(),
        &["links", "--json", "--sort", "path"]
    ));
}

#[test]
fn check_human() {
    insta::assert_snapshot!(run(
        &tree(),
        &["check", "--color", "never", "--no-progress"]
    ));
}

#[test]
fn check_json() {
    insta::assert_snapshot!(run(
        &tree(),
        &["check", "--json", "--no-progress"]
    ));
}

#[test]
fn check_sarif() {
    insta::assert_snapshot!(run(
        &tree(),
        &["check", "--format", "sarif", "--no-progress"]
    ));
}

#[test]
fn check_github() {
    insta::assert_snapshot!(run(
        &tree(),
        &["check", "--format", "github", "--no-progress"]
    ));
}
