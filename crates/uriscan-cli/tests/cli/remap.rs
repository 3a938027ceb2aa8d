//! `check --remap 'REGEX REPLACEMENT'` and the repository's own web views
//! (`https://github.com/OWNER/REPO/blob/BRANCH/path`), mapped to local
//! files and checked offline; and the guards that keep a mapping, which a
//! checked tree's uriscan.toml may hold, from widening what the run
//! reaches.

use crate::support::{Dir, git};

/// A git repository on branch `main` whose remote is GitHub's `o/r`.
fn repo() -> Dir {
    let dir = Dir::new();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["remote", "add", "origin", "git@github.com:o/r.git"]);
    dir.create("docs/a.md", "# A\n\n## Usage\n");
    dir
}

fn rows(dir: &Dir, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["check", "--json", "--no-progress"];
    all.extend_from_slice(args);
    let (_, out, err) = dir.run(&all);
    assert!(!err.contains("uriscan:"), "{err}");
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_repositorys_web_views_are_checked_as_its_files() {
    let dir = repo();
    dir.create(
        "README.md",
        "[a](https://github.com/o/r/blob/main/docs/a.md#usage)\n\
         [b](https://github.com/o/r/blob/main/docs/gone.md)\n\
         [c](https://github.com/o/r/tree/main/docs)\n\
         [d](https://github.com/o/r/raw/main/docs/a.md?raw=1)\n\
         [e](https://github.com/o/r/blob/main/docs/a.md#nowhere)\n\
         [f](https://github.com/o/r/blob/other/docs/gone.md)\n\
         [g](https://github.com/o/elsewhere/blob/main/docs/gone.md)\n",
    );
    let rows = rows(&dir, &[]);
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["status"].as_str().unwrap(),
                r["mapped_by"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let view = "the repository's web view";
    assert_eq!(
        got,
        [
            ("ok", view),
            ("broken", view),
            ("ok", view),
            ("ok", view),
            ("broken", view),
            // Another branch, another repository: not mapped.
            ("skipped", ""),
            ("skipped", ""),
        ]
    );
    assert_eq!(
        rows[1]["reason"],
        "no such file or directory (mapped from \
         'https://github.com/o/r/blob/main/docs/gone.md' by the repository's web view)"
    );
    assert!(rows[1]["mapped_to"].as_str().unwrap().ends_with("/docs/gone.md"));
    // With --repo-url, another repository's views map instead.
    let rows = super::remap::rows(
        &dir,
        &["--repo-url", "https://github.com/o/elsewhere"],
    );
    assert_eq!(rows[0]["status"], "skipped");
    assert_eq!(rows[6]["status"], "broken");
}

#[test]
fn gitlab_views_map_too() {
    let dir = Dir::new();
    git(dir.path(), &["init", "-q"]);
    git(
        dir.path(),
        &["remote", "add", "origin", "https://gitlab.com/g/sub/r.git"],
    );
    dir.create("a.md", "[x](https://gitlab.com/g/sub/r/-/blob/main/a.md) [y](https://gitlab.com/g/sub/r/-/tree/main/gone)\n");
    let rows = rows(&dir, &[]);
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[1]["status"], "broken");
}

#[test]
fn remap_rules_map_targets_in_order() {
    let dir = repo();
    dir.create(
        "README.md",
        "[a](https://docs.example.com/a.md) [b](https://docs.example.com/b.md) \
         [c](https://other.example.com/x)\n",
    );
    // A result is resolved against the target it maps: a local one is
    // written as a `file:` URI.
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let first = format!(
        "^https://docs.example.com/a(.*)$ file://{}/docs/a$1",
        root.display()
    );
    let rows = rows(
        &dir,
        &[
            "--remap",
            &first,
            "--remap",
            "^https://docs.example.com/(.*)$ file:///nowhere/$1",
        ],
    );
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[1]["status"], "broken");
    assert_eq!(
        rows[1]["mapped_by"],
        "remap '^https://docs.example.com/(.*)$'"
    );
    assert_eq!(rows[2]["status"], "skipped");
    let (code, _, err) = dir.run(&["check", "--remap", "only-one-word"]);
    assert_eq!(code, 2);
    assert!(err.contains("REGEX REPLACEMENT"), "{err}");
}

#[test]
fn a_tree_s_remap_never_leaves_the_root() {
    let dir = repo();
    dir.create("docs/README.md", "[p](https://docs.example.com/passwd) [q](https://docs.example.com/hosts)\n");
    // The checked tree's own configuration: to a file outside, directly
    // and by dot segments, even where the command line lets links leave
    // the root.
    dir.create(
        "docs/uriscan.toml",
        &format!(
            "remap = [\"^https://docs.example.com/p(.*)$ file:///etc/p$1\", \
             \"^https://docs.example.com/(.*)$ file://{}/docs/../../../../../etc/$1\"]\n",
            dir.path().display()
        ),
    );
    let rows = rows(&dir, &["docs", "--allow-outside-root"]);
    for r in &rows {
        assert_eq!(r["status"], "broken", "{r}");
        assert!(
            r["reason"]
                .as_str()
                .unwrap()
                .starts_with("the target is outside the root"),
            "{r}"
        );
    }
    assert_eq!(rows[1]["mapped_to"], "file:///etc/hosts");
}

#[cfg(feature = "remote")]
#[test]
fn a_tree_s_remap_meets_the_remote_guards() {
    let dir = repo();
    dir.create(
        "README.md",
        "[w](https://web.example.com/admin) [v](https://github.com/o/r/blob/main/docs/a.md)\n",
    );
    dir.create(
        "uriscan.toml",
        "remap = [\"^https://web.example.com/(.*)$ http://127.0.0.1:9/$1\"]\n",
    );
    let rows = rows(&dir, &["--remote", "--timeout", "1s", "--retries", "0"]);
    let row = |link: &str| rows.iter().find(|r| r["link"] == link).unwrap();
    // Mapped to this machine: skipped as private, never requested.
    let w = row("https://web.example.com/admin");
    assert_eq!(w["status"], "skipped", "{rows:?}");
    assert_eq!(
        w["reason"],
        "private address (not requested) (mapped from \
         'https://web.example.com/admin' by remap '^https://web.example.com/(.*)$')"
    );
    // Mapped to a local file: checked offline, not fetched.
    let v = row("https://github.com/o/r/blob/main/docs/a.md");
    assert_eq!(v["status"], "ok");
    assert!(v.get("http_status").is_none(), "{v}");
    assert_eq!(rows.len(), 2);
}
