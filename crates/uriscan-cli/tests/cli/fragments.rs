//! `uriscan check` on fragments, the files checked only where they are
//! included: an AsciiDoc file that another document of the run includes
//! (or, in an Antora component, any file but a page), with the
//! includer's attributes and the part its include takes; a file that a
//! Sphinx project does not build (`exclude_patterns`) but includes. One
//! that nothing of the run includes is still checked alone.

use std::path::Path;

use crate::support::tree::write;

/// Runs `uriscan check ARGS` in `dir`: (stdout lines, the summary line
/// of stderr, exit code).
fn check(dir: &Path, args: &[&str]) -> (Vec<String>, String, i32) {
    let (out, err, code) = super::check::check_err(dir, args);
    let summary = err.lines().last().unwrap_or("").to_owned();
    (out.lines().map(str::to_owned).collect(), summary, code)
}

/// A tree of one document that includes a fragment using its attribute,
/// a tagged part of another, and a fragment nothing includes.
fn fragments_tree(d: &Path) {
    write(
        d,
        "p/index.adoc",
        "= Index\n:base-url: https://x.example\n\n== Top\n\n\
         include::part.adoc[]\n\ninclude::_shared.adoc[tag=a]\n",
    );
    write(
        d,
        "p/part.adoc",
        "See link:{base-url}/x[x], link:missing.html[m] and <<_top>>.\n",
    );
    write(
        d,
        "p/_shared.adoc",
        "// tag::a[]\nlink:{base-url}/y[y]\n// end::a[]\nlink:not-taken.html[n]\n",
    );
    write(d, "p/_lonely.adoc", "link:{base-url}/z[z] link:lonely.html[l]\n");
}

/// The fragments' attribute references are the includer's, their ids
/// too, and only the part taken is read: nothing is reported twice, and
/// the summary says how many files were checked only where included. A
/// fragment included by nothing is checked alone.
#[test]
fn a_fragment_is_checked_where_it_is_included() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fragments_tree(d);
    let (out, summary, code) = check(&d.join("p"), &["."]);
    assert_eq!(
        out,
        [
            "./_lonely.adoc:1:6: broken link '{base-url}/z': attribute {base-url} is not defined",
            "./_lonely.adoc:1:27: broken link 'lonely.html': no such file or directory",
            "./part.adoc:1:32: broken link 'missing.html': no such file or directory (included by ./index.adoc)",
        ]
    );
    assert!(
        summary
            .starts_with("4 files (2 checked only where included), 8 links: "),
        "{summary}"
    );
    assert_eq!(code, 1);
}

/// A file named on the command line is checked alone, as asked; a
/// fragment the walk does not reach is still checked where it is
/// included.
#[test]
fn a_named_file_is_checked_alone_and_an_unwalked_one_where_included() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fragments_tree(d);
    let (out, summary, _) = check(&d.join("p"), &["part.adoc"]);
    assert_eq!(
        out,
        [
            "part.adoc:1:10: broken link '{base-url}/x': attribute {base-url} is not defined",
            "part.adoc:1:32: broken link 'missing.html': no such file or directory",
            "part.adoc:1:54: broken link '#_top': no anchor '#_top' in the target",
        ]
    );
    assert!(summary.starts_with("1 file, "), "{summary}");
    let (out, summary, _) = check(&d.join("p"), &["index.adoc"]);
    assert_eq!(
        out,
        [
            "part.adoc:1:32: broken link 'missing.html': no such file or directory (included by index.adoc)",
        ]
    );
    // Read where included, never alone: the run did not walk them.
    assert!(summary.starts_with("3 files, "), "{summary}");
}

/// Fragments that include one another and nothing else of the run
/// includes are not skipped: the first in path order is checked alone,
/// the other where it includes it.
#[test]
fn fragments_that_include_each_other_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.adoc", "link:from-a.html[a]\n\ninclude::b.adoc[]\n");
    write(d, "b.adoc", "link:from-b.html[b]\n\ninclude::a.adoc[]\n");
    let (out, summary, code) = check(d, &["."]);
    assert_eq!(
        out,
        [
            "./a.adoc:1:6: broken link 'from-a.html': no such file or directory",
            "./b.adoc:1:6: broken link 'from-b.html': no such file or directory (included by ./a.adoc)",
        ]
    );
    assert!(
        summary.starts_with("2 files (1 checked only where included), "),
        "{summary}"
    );
    assert_eq!(code, 1);
}

/// In an Antora component a partial, and a page whose name starts with
/// `_`, are read where a page includes them, with the component's
/// attributes and the page's; a page included by another page is still
/// a page of its own, read alone only.
#[test]
fn antora_pages_stand_alone_and_partials_where_included() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "antora.yml",
        "name: demo\nversion: ~\nasciidoc:\n  attributes:\n    site: https://s.example\n",
    );
    write(
        d,
        "modules/ROOT/pages/index.adoc",
        "= Demo\n:product: https://p.example\n\n\
         include::partial$part.adoc[]\n\ninclude::_hidden.adoc[]\n\n\
         include::other.adoc[]\n",
    );
    write(
        d,
        "modules/ROOT/partials/part.adoc",
        "link:{product}/a[a] link:{site}/b[b] xref:gone.adoc[g]\n",
    );
    write(d, "modules/ROOT/pages/_hidden.adoc", "link:{product}/c[c]\n");
    write(
        d,
        "modules/ROOT/pages/other.adoc",
        "= Other\n\nlink:{product}/d[d]\n",
    );
    write(d, "modules/ROOT/partials/unused.adoc", "xref:nowhere.adoc[n]\n");
    let (out, summary, code) = check(d, &["."]);
    assert_eq!(
        out,
        [
            "./modules/ROOT/pages/other.adoc:3:6: broken link '{product}/d': attribute {product} is not defined",
            "./modules/ROOT/partials/part.adoc:1:43: broken link '../pages/gone.adoc': no such file or directory (included by ./modules/ROOT/pages/index.adoc)",
            "./modules/ROOT/partials/unused.adoc:1:6: broken link '../pages/nowhere.adoc': no such file or directory (did you mean '../pages/other.adoc'?)",
        ]
    );
    assert!(
        summary.starts_with("5 files (2 checked only where included), "),
        "{summary}"
    );
    assert_eq!(code, 1);
}

/// A reStructuredText file that its Sphinx project excludes is no
/// document: it is checked where it is included (its `:doc:` from the
/// includer), not alone; one Sphinx builds is checked alone, and where
/// included when the walk does not read it. Named on the command line,
/// a file is checked alone.
#[test]
fn a_file_sphinx_does_not_build_is_checked_where_included() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "conf.py", "exclude_patterns = ['_build', 'parts']\n");
    write(
        d,
        "index.rst",
        "Index\n=====\n\n.. include:: parts/shared.rst\n\n\
         .. include:: sub/page.rst\n",
    );
    write(d, "guide.rst", "Guide\n=====\n");
    write(
        d,
        "parts/shared.rst",
        ":doc:`guide` holds here, :doc:`gone` does not.\n",
    );
    write(d, "sub/page.rst", "Page\n====\n\n:doc:`../guide`\n");
    let (out, summary, code) = check(d, &["."]);
    assert_eq!(
        out,
        [
            "./parts/shared.rst:1:32: broken link 'gone.rst': no such file or directory",
        ]
    );
    assert!(
        summary.starts_with("4 files (1 checked only where included), "),
        "{summary}"
    );
    assert_eq!(code, 1);
    // Not walked, a document Sphinx builds is still read where included
    // (its `:doc:` from the includer, as Sphinx resolves it there).
    let (out, summary, _) = check(d, &["index.rst"]);
    assert_eq!(
        out,
        [
            "parts/shared.rst:1:32: broken link 'gone.rst': no such file or directory",
            "sub/page.rst:4:7: broken link '../guide.rst': the target is outside the root",
        ]
    );
    assert!(summary.starts_with("3 files, "), "{summary}");
    let (out, _, _) = check(d, &["index.rst", "parts/shared.rst"]);
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(
        out[0].starts_with("parts/shared.rst:1:7: broken link 'guide.rst'")
    );
}
