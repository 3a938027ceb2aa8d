//! `check --changed-since REF` on a synthetic git repository: a renamed
//! file, a renamed heading and a deleted image break links in documents
//! the change did not touch, and those are reported; what was broken
//! before is not.

use crate::support::{Dir, git};

/// A repository of one commit, then a second that renames `guide.md`,
/// renames a heading of `a.md` and deletes `img/pic.png`.
fn repository() -> Dir {
    let dir = Dir::new();
    dir.create("a.md", "# A\n\n## Old heading\n\nText.\n");
    dir.create("b.md", "See [a](a.md#old-heading).\n");
    dir.create("c.md", "![pic](img/pic.png)\n");
    dir.create("docs/d.md", "Read [the guide](../guide.md).\n");
    dir.create("guide.md", "# Guide\n");
    dir.create_bytes("img/pic.png", b"\x89PNG");
    // Broken before the change, in a file that names a changed one: not
    // this change's to report.
    dir.create("e.md", "[a](a.md) and [gone](nowhere.md)\n");
    // Unrelated, and broken before.
    dir.create("f.md", "[x](missing.md)\n");
    for i in 0..20 {
        dir.create(format!("many/p{i}.md"), "[f](../f.md)\n");
    }
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "one"]);
    git(dir.path(), &["mv", "guide.md", "handbook.md"]);
    git(dir.path(), &["rm", "-q", "img/pic.png"]);
    dir.create("a.md", "# A\n\n## New heading\n\nText.\n");
    git(dir.path(), &["commit", "-q", "-a", "-m", "two"]);
    dir
}

#[test]
fn reports_what_the_change_broke_elsewhere() {
    let dir = repository();
    let (code, out, err) = dir.run(&[
        "check",
        "--changed-since",
        "HEAD~1",
        "--no-progress",
        "--color",
        "never",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "./b.md:1:9: broken link 'a.md#old-heading': no anchor '#old-heading' in the target (did you mean '#new-heading'?)",
            "./c.md:1:8: broken link 'img/pic.png': no such file or directory",
            "./docs/d.md:1:18: broken link '../guide.md': no such file or directory",
        ],
        "{out}{err}"
    );
    // a.md, handbook.md (changed); b.md, c.md, d.md, e.md (naming a
    // changed file): far fewer than the tree's.
    assert!(
        err.contains("changed since HEAD~1: 6 of 27 documents read"),
        "{err}"
    );
}

#[test]
fn uncommitted_edits_count_and_a_clean_tree_reads_nothing() {
    let dir = repository();
    let (code, _, err) =
        dir.run(&["check", "--changed-since", "HEAD", "--no-progress"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 of 27 documents read"), "{err}");
    dir.create("new.md", "[b](b.md) [bad](nope.md)\n");
    let (code, out, _) =
        dir.run(&["check", "--changed-since", "HEAD", "--no-progress"]);
    assert_eq!(code, 1);
    assert!(out.contains("./new.md:1:17: broken link 'nope.md'"), "{out}");
}

#[test]
fn outside_a_repository_or_with_an_unknown_ref_is_an_error() {
    let dir = Dir::new();
    dir.create("a.md", "# A\n");
    let (code, _, err) = dir.run(&["check", "--changed-since", "HEAD"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not in a git repository"), "{err}");
    let dir = repository();
    let (code, _, err) = dir.run(&["check", "--changed-since", "no-such-ref"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown revision 'no-such-ref'"), "{err}");
}

/// Before the first commit (a pre-commit hook's `--changed-since HEAD` on
/// a new repository), HEAD names a branch with no commit: every file is
/// new, and checked. Another name that is no commit stays an error.
#[test]
fn before_the_first_commit_every_file_is_changed() {
    let dir = Dir::new();
    dir.create("a.md", "[b](b.md) [gone](gone.md)\n");
    dir.create("b.md", "# B\n");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    let (code, out, err) = dir.run(&["check", "--changed-since", "HEAD"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("a.md:1:") && out.contains("gone.md"), "{out}");
    assert!(!out.contains("b.md:"), "{out}");
    let (code, _, err) = dir.run(&["check", "--changed-since", "main~1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown revision 'main~1'"), "{err}");
}
