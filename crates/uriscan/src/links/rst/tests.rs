//! The reader against docutils: each case of `tests/data/rst/` with the
//! links, ids and Sphinx references that docutils found in it
//! (`scripts/rst-oracle.sh --record` writes the `.expected.json` files),
//! and a few rules checked one by one.

use std::path::PathBuf;

use serde_json::Value;

use super::hooks::facts;
use crate::links::{Format, LinkExtractor, Page};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect()
        })
        .unwrap_or_default()
}

#[test]
fn cases_agree_with_docutils() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rst");
    let mut seen = 0;
    let mut failures = vec![];
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rst") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json"))
                .unwrap(),
        )
        .unwrap();
        let (links, ids, sphinx) = facts(&src);
        let name = path.display();
        for (what, ours, theirs) in [
            ("links", links, &expected["links"]),
            ("ids", ids, &expected["ids"]),
            ("sphinx", sphinx, &expected["sphinx"]),
        ] {
            if ours != strings(theirs) {
                failures
                    .push(format!("{what} of {name}: {ours:?} != {theirs}"));
            }
        }
        seen += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(seen >= 9, "only {seen} cases");
}

#[test]
fn positions_are_the_first_byte_of_each_link() {
    let src =
        "Title\n=====\n\nSee `x <https://a.example/>`_ and\n  :doc:`guide`.\n";
    let page =
        Page::new(src.as_bytes(), Format::Rst).url("file:///d/index.rst");
    let links: Vec<_> = LinkExtractor::new().extract(&page).collect();
    let places: Vec<_> =
        links.iter().map(|l| (l.line(), l.column(), l.raw())).collect();
    assert_eq!(places, [(4, 9, "https://a.example/"), (5, 9, "guide")]);
    assert_eq!(links[1].target(), Some("file:///d/guide.rst"));
}

#[test]
fn labels_and_external_roles_have_no_target() {
    let src = ":ref:`label` :py:class:`a.B` :ref:`other:thing`";
    let page =
        Page::new(src.as_bytes(), Format::Rst).url("file:///d/index.rst");
    let links: Vec<_> = LinkExtractor::new().extract(&page).collect();
    let kinds: Vec<_> =
        links.iter().map(|l| (l.kind().as_str(), l.target())).collect();
    assert_eq!(
        kinds,
        [("rst:ref", None), ("rst:external", None), ("rst:external", None)]
    );
}

#[test]
fn labels_are_kept_for_ref() {
    let src = ".. _Install Guide:\n\nInstall  It\n==========\n";
    let (labels, sections) = super::labels(src);
    assert_eq!(
        labels,
        [("install guide".to_owned(), "install-guide".to_owned())]
    );
    assert_eq!(sections, ["install it"]);
}

#[test]
fn malformed_markup_never_panics() {
    for src in [
        "`",
        "``",
        "`a <",
        "`a <b>`",
        ":",
        ":x:`",
        ".. _",
        ".. _`a",
        ".. |x",
        ".. image::",
        "__",
        "a__",
        "_`",
        "x\n=",
        "===\nx\n",
        "`é`_ é_",
        ".. _a: b\n  c_",
        "::\n\n  x",
        "\\`a`_",
        ":a:`\u{e9}`",
        "é_",
        ".. toctree::\n   :glob:\n\n   <>",
        ".. \n__ ",
        ".. _a:  \n  ",
        "`<>`_",
        "`a <b_>`__",
    ] {
        let _ = facts(src);
    }
}

#[test]
fn unknown_directives_and_roles_are_read_as_text() {
    // docutils reports both as errors; their text still holds links.
    let src = ".. unknown:: arg https://arg.example/\n\n   Body https://body.example/.\n\n:madeup:`https://role.example/`\n";
    let (links, _, _) = facts(src);
    assert_eq!(links, ["https://body.example/", "https://role.example/"]);
}

/// A link as the reader pushed it: kind, span and link.
type ReadLink = (String, crate::Span, Option<String>);

/// What the reader gives for `src`, with `next_mark` as its fast path:
/// each link's kind, span and link, and the text spans.
fn read_all(
    src: &str,
    next_mark: fn(&[u8]) -> Option<usize>,
) -> (Vec<ReadLink>, Vec<crate::Span>) {
    let mut out = vec![];
    let text = super::read_with(src, &mut out, next_mark);
    let links = out
        .iter()
        .map(|l| {
            (l.kind.as_str().to_owned(), l.span(), l.link().map(str::to_owned))
        })
        .collect();
    (links, text)
}

/// The reference of the fast path: byte by byte.
fn next_mark_bytewise(hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == b'`' || b == b'_')
}

proptest::proptest! {
    #[test]
    fn the_fast_path_agrees_with_a_bytewise_scan(
        src in r"([ a-z:<>`_.\\\n-]|https://x/|\.\. |::|__ |`a <b>`_|:doc:|=====|é){0,40}"
    ) {
        proptest::prop_assert_eq!(
            read_all(&src, super::inline::next_mark),
            read_all(&src, next_mark_bytewise)
        );
        let _ = facts(&src);
    }

    #[test]
    fn any_text_reads_without_panic(src in r"(\PC|\n| ){0,200}") {
        let _ = facts(&src);
    }
}
