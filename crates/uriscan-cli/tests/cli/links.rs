//! `uriscan links` end to end: formats by extension, resolution against
//! the file and the root, the output modes and the exit status.

use assert_cmd::Command;

use crate::support::tree::write;

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".git")).unwrap();
    std::fs::create_dir_all(d.join("docs")).unwrap();
    std::fs::write(
        d.join("docs/guide.md"),
        "# Guide\n\nSee [install](../install.md#setup) and [root](/img/a.png).\n\n`http://code.example/`\n",
    )
    .unwrap();
    std::fs::write(
        d.join("docs/page.html"),
        b"<meta charset=windows-1252><a href=\"caf\xe9.html?a=1&amp;b=2\">x</a>",
    )
    .unwrap();
    std::fs::write(
        d.join("notes.txt"),
        "see http://example.com/x and ../not-a-link\n",
    )
    .unwrap();
    dir
}

fn links(dir: &std::path::Path, args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(dir)
        .arg("links")
        .args(args)
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code().unwrap())
}

#[test]
fn lists_and_resolves_by_format() {
    let dir = tree();
    let (out, code) = links(dir.path(), &["--sort", "path", "."]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "./docs/guide.md:3:15:../install.md#setup\n\
         ./docs/guide.md:3:47:/img/a.png\n\
         ./docs/page.html:1:37:café.html?a=1&b=2\n\
         ./notes.txt:1:5:http://example.com/x\n"
    );
    let (out, _) = links(dir.path(), &["-o", "--sort", "path", "docs"]);
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let r = root.display();
    // The Markdown file's root is its git repository; the HTML file's
    // windows-1252 bytes are decoded (the target keeps the IRI's é).
    assert_eq!(
        out,
        format!(
            "file://{r}/install.md#setup\nfile://{r}/img/a.png\nfile://{r}/docs/café.html?a=1&b=2\n"
        )
    );
}

#[test]
fn json_rows_carry_the_contract() {
    let dir = tree();
    let (out, _) = links(dir.path(), &["--json", "docs/guide.md"]);
    let row: serde_json::Value =
        serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(row["path"], "docs/guide.md");
    assert_eq!(row["kind"], "md:link");
    assert_eq!(row["raw"], "../install.md#setup");
    assert_eq!(row["link"], "../install.md#setup");
    assert_eq!(row["local"], "install.md");
    assert_eq!(row["fragment"], "setup");
    assert_eq!(
        (row["line"].as_u64(), row["column"].as_u64(), row["offset"].as_u64()),
        (Some(3), Some(15), Some(23))
    );
    assert!(row["target"].as_str().unwrap().ends_with("/install.md#setup"));
}

#[test]
fn code_only_with_include_code_and_counts() {
    let dir = tree();
    let (out, _) = links(dir.path(), &["-c", "docs/guide.md"]);
    assert_eq!(out, "docs/guide.md:2\n");
    let (out, _) =
        links(dir.path(), &["-c", "--include-code", "docs/guide.md"]);
    assert_eq!(out, "docs/guide.md:3\n");
}

#[test]
fn exit_status_and_errors() {
    let dir = tree();
    std::fs::write(dir.path().join("empty.md"), "no links here\n").unwrap();
    let (out, code) = links(dir.path(), &["empty.md"]);
    assert_eq!((out.as_str(), code), ("", 1));
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(dir.path())
        .args(["links", "missing.md", "docs/guide.md"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.md"), "{err}");
    // The other path is still read.
    assert!(String::from_utf8_lossy(&out.stdout).contains("install.md"));
    let (_, code) = links(dir.path(), &["--base-url", "not a url", "docs"]);
    assert_eq!(code, 2);
}

#[test]
fn standard_input_with_a_format_and_base() {
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .args([
            "links",
            "-o",
            "--format",
            "html",
            "--base-url",
            "https://example.com/d/",
        ])
        .write_stdin("<a href=x.html>x</a><img src=/i.png>")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://example.com/d/x.html\nhttps://example.com/i.png\n"
    );
}

#[test]
fn links_to_a_file_or_an_anchor() {
    let dir = tree();
    std::fs::write(dir.path().join("install.md"), "# Setup\n").unwrap();
    let (out, code) = links(dir.path(), &["--to", "install.md", "docs"]);
    assert_eq!(
        (out.as_str(), code),
        ("docs/guide.md:3:15:../install.md#setup\n", 0)
    );
    let (out, _) = links(dir.path(), &["--to", "install.md#setup", "docs"]);
    assert_eq!(out.lines().count(), 1);
    let (out, code) = links(dir.path(), &["--to", "install.md#other", "docs"]);
    assert_eq!((out.as_str(), code), ("", 1));
    let (_, code) = links(dir.path(), &["--to", "missing.md", "docs"]);
    assert_eq!(code, 2);
}

/// Output of many files is written in batches when it is not a terminal:
/// every link is printed, and each file's lines stay together whatever
/// the threads do.
#[test]
fn batched_output_keeps_each_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Every 50th file's output (about 150 KB) is larger than the buffer
    // that is written out mid-document.
    let files = 300;
    let per_file = |f: usize| if f.is_multiple_of(50) { 4000 } else { 40 };
    for f in 0..files {
        let body: String = (0..per_file(f))
            .map(|i| format!("[l{i}](https://f{f}.example/{i})\n"))
            .collect();
        std::fs::write(dir.path().join(format!("f{f}.md")), body).unwrap();
    }
    let (out, code) = links(dir.path(), &["-j", "4", "."]);
    assert_eq!(code, 0);
    let paths: Vec<&str> =
        out.lines().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(paths.len(), (0..files).map(per_file).sum::<usize>());
    let mut seen = std::collections::HashSet::new();
    let mut last = "";
    for p in paths {
        if p != last {
            assert!(seen.insert(p), "{p}'s lines are not together");
            last = p;
        }
    }
    assert_eq!(seen.len(), files);
}

/// A named document of 1 MiB or more is mapped, not read: the links must
/// be the same either way, binary files still skipped, and a file found
/// in a directory (read) the same as when named.
#[test]
fn mapped_documents_give_what_read_ones_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut page =
        String::from("<head><base href=\"https://example.com/d/\">");
    let mut i = 0;
    while page.len() < (1 << 20) + 4096 {
        page.push_str(&format!(
            "<p><a href=\"p{i}.html?a=1&amp;b=2\">x</a> <img srcset=\"i{i}.png 1x, /j{i}.png 2x\">\n"
        ));
        i += 1;
    }
    // A last link in the page's final bytes, where a short map would
    // lose it.
    page.push_str("<a href=last.html>");
    std::fs::create_dir(d.join("site")).unwrap();
    std::fs::write(d.join("site/big.html"), &page).unwrap();
    let mut binary = page.clone().into_bytes();
    // A NUL in the text after the first line: binary, but its links are
    // whole.
    binary[page.find('\n').unwrap()] = 0;
    std::fs::write(d.join("bin.html"), &binary).unwrap();

    let (mapped, code) = links(d, &["-o", "site/big.html"]);
    assert_eq!(code, 0);
    let (read, _) = links(d, &["-o", "--no-mmap", "site/big.html"]);
    let (walked, _) = links(d, &["-o", "site"]);
    assert_eq!(mapped, read);
    assert_eq!(mapped, walked);
    // The base, three links a line, and the last.
    assert_eq!(mapped.lines().count(), 1 + 3 * i + 1);
    assert!(mapped.starts_with(
        "https://example.com/d/\nhttps://example.com/d/p0.html?a=1&b=2\n"
    ));
    assert!(mapped.ends_with("https://example.com/d/last.html\n"));

    let (out, code) = links(d, &["-o", "bin.html"]);
    assert_eq!((out.as_str(), code), ("", 1));
    let (out, _) = links(d, &["-o", "-a", "bin.html"]);
    let (out_read, _) = links(d, &["-o", "-a", "--no-mmap", "bin.html"]);
    assert_eq!(out, out_read);
    assert!(out.ends_with("https://example.com/d/last.html\n"));
}

/// The lines `links .` lists in `dir`, sorted, when it exits 0.
fn sorted_listing(dir: &std::path::Path) -> Vec<String> {
    let (out, code) = links(dir, &["."]);
    assert_eq!(code, 0);
    let mut lines: Vec<String> = out.lines().map(str::to_owned).collect();
    lines.sort_unstable();
    lines
}

/// In the `--json` listing of `d/p`, the link `page.html` of an included
/// file resolved against its includer in `p`, and the nested include
/// `nested` from the included file's own directory.
fn assert_included_resolved(d: &std::path::Path, nested: &str) {
    let (json, _) = links(&d.join("p"), &["--json", "."]);
    let page = json.lines().find(|l| l.contains("\"page.html\"")).unwrap();
    let p = std::fs::canonicalize(d.join("p")).unwrap();
    assert!(
        page.contains(&format!(
            "\"target\":\"file://{}/page.html\"",
            p.display()
        )),
        "{page}"
    );
    let quoted = format!("\"{nested}\"");
    let row = json.lines().find(|l| l.contains(&quoted)).unwrap();
    assert!(row.contains(&format!("/_inc/{nested}\"")), "{row}");
}

/// A reStructuredText or MyST include is followed as `check` follows it:
/// the included file's links are listed at its own path and lines (each
/// file once), resolved against the includer; one outside the root is
/// not read.
#[test]
fn includes_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "out/x.inc", "`out <https://out.example/>`_\n");
    write(
        d,
        "p/index.rst",
        "Index\n=====\n\n.. include:: _inc/part.inc\n.. include:: ../out/x.inc\n",
    );
    write(d, "p/other.rst", ".. include:: _inc/part.inc\n");
    write(
        d,
        "p/_inc/part.inc",
        "See `a <https://a.example/>`_ and `page <page.html>`_.\n\n\
         .. include:: nested.inc\n.. include:: part.inc\n",
    );
    write(d, "p/_inc/nested.inc", "`n <https://n.example/>`_\n");
    let lines = sorted_listing(&d.join("p"));
    // The `.inc` files are walked too, as text: their bare URLs once
    // more, in that format.
    assert_eq!(
        lines,
        [
            "./_inc/nested.inc:1:5:https://n.example/",
            "./_inc/nested.inc:1:5:https://n.example/",
            "./_inc/part.inc:1:42:page.html",
            "./_inc/part.inc:1:9:https://a.example/",
            "./_inc/part.inc:1:9:https://a.example/",
            "./_inc/part.inc:3:14:nested.inc",
            "./_inc/part.inc:4:14:part.inc",
            "./index.rst:4:14:_inc/part.inc",
            "./index.rst:5:14:../out/x.inc",
            "./other.rst:1:14:_inc/part.inc",
        ]
    );
    // Resolved against the includer, where docutils inserts the text; a
    // nested include from the included file's own directory.
    assert_included_resolved(d, "nested.inc");
    // A file named: its includes listed beside it, as it is named.
    let (out, _) = links(d, &["p/index.rst"]);
    assert!(out.contains("p/_inc/part.inc:1:42:page.html\n"), "{out}");
    assert!(!out.contains("out.example"), "{out}");
}

/// An AsciiDoc `include::` is followed as the reStructuredText one: the
/// target's attribute references expanded, only the part `tag=` or
/// `lines=` takes read, each part of a file once, listed at its own path
/// and lines and resolved against the includer; one outside the root is
/// not read, a cycle ends, and a missing one is only its link.
#[test]
fn asciidoc_includes_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "out/x.txt", "https://out.example/[o]\n");
    write(
        d,
        "p/index.adoc",
        "= Index\n:part: _inc/part.txt\n\n\
         include::{part}[tag=x]\ninclude::../out/x.txt[]\ninclude::missing.txt[]\n",
    );
    write(d, "p/other.adoc", "include::_inc/part.txt[lines=1..2]\n");
    write(
        d,
        "p/_inc/part.txt",
        "See https://a.example/[a] and link:page.html[page].\n\n\
         // tag::x[]\ninclude::nested.txt[]\ninclude::part.txt[]\n// end::x[]\n\
         link:untaken.html[]\n",
    );
    write(d, "p/_inc/nested.txt", "https://n.example/[n]\n");
    let lines = sorted_listing(&d.join("p"));
    // The `.txt` files are walked too, as text: their bare URLs once
    // more, in that format.
    assert_eq!(
        lines,
        [
            "./_inc/nested.txt:1:1:https://n.example/",
            "./_inc/nested.txt:1:1:https://n.example/",
            "./_inc/part.txt:1:36:page.html",
            "./_inc/part.txt:1:5:https://a.example/",
            "./_inc/part.txt:1:5:https://a.example/",
            "./_inc/part.txt:4:10:nested.txt",
            "./_inc/part.txt:5:10:part.txt",
            "./index.adoc:4:10:_inc/part.txt",
            "./index.adoc:5:10:../out/x.txt",
            "./index.adoc:6:10:missing.txt",
            "./other.adoc:1:10:_inc/part.txt",
        ]
    );
    assert_included_resolved(d, "nested.txt");
    // A file named: its includes listed beside it, as it is named.
    let (out, _) = links(d, &["p/index.adoc"]);
    assert!(!out.contains("page.html"), "{out}");
    assert!(out.contains("p/_inc/part.txt:4:10:nested.txt\n"), "{out}");
    assert!(out.contains("p/_inc/nested.txt:1:1:https://n.example/\n"));
    assert!(!out.contains("out.example"), "{out}");
}
