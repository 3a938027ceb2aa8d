//! `uriscan check` on trees built for each rule: the links expected
//! broken, and only those, with their reasons and suggestions; exit codes
//! and output formats.

use std::path::Path;

use assert_cmd::Command;

use crate::support::tree::write;

/// Runs `uriscan check ARGS` in `dir`: (stdout, exit code).
fn check(dir: &Path, args: &[&str]) -> (String, i32) {
    let (out, _, code) = check_err(dir, args);
    (out, code)
}

/// The broken links of a human report, as `path:line: link: reason`
/// without the column.
fn broken(report: &str) -> Vec<String> {
    report.lines().map(str::to_owned).collect()
}

fn docs_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join(".git")).unwrap();
    write(
        d,
        "README.md",
        "# Project\n\n## Install\n\n## Usage\n\n## Usage\n\n## 🚀 Launch\n\n## `foo()` usage\n\n## Custom {#my-id}\n\n<a name=\"raw-anchor\"></a>\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\n\
         [ok](../README.md#install)\n\
         [dup](../README.md#usage-1)\n\
         [emoji](../README.md#-launch)\n\
         [code](../README.md#foo-usage)\n\
         [custom](../README.md#my-id)\n\
         [raw](../README.md#raw-anchor)\n\
         [case](../README.md#Install)\n\
         [self](#guide)\n\
         [top](#top)\n\
         [empty](#)\n\
         [typo](../README.md#instal)\n\
         [missing](../README.md#nowhere)\n\
         [dir](sub/)\n\
         [dir-readme](sub/#sub-title)\n\
         [dir-none](empty/#x)\n\
         [file-typo](../READMEE.md)\n\
         [wrong-case](../readme.md)\n\
         [pct](my%20file.md)\n\
         [root](/docs/guide.md)\n\
         [outside](../../elsewhere.md)\n\
         [line](../code.rs#L2)\n\
         [no-line](../code.rs#L9)\n\
         [text-frag](../README.md#:~:text=Install)\n\
         [web](https://example.com/)\n\
         [mail](mailto:someone@example.com)\n\
         [bad-mail](mailto:nobody)\n\
         [bad](http://a:port/)\n",
    );
    write(d, "docs/sub/README.md", "# Sub title\n");
    write(d, "docs/empty/.keep", "");
    write(d, "docs/my file.md", "x\n");
    write(d, "code.rs", "fn main() {\n}\n");
    dir
}

#[test]
fn markdown_rules() {
    let dir = docs_tree();
    let (out, code) =
        check(dir.path(), &["--hidden", "--color", "never", "docs"]);
    assert_eq!(code, 1, "{out}");
    let got = broken(&out);
    let want = [
        "docs/guide.md:13:8: broken link '../README.md#instal': no anchor '#instal' in the target (did you mean '#install'?)",
        "docs/guide.md:14:11: broken link '../README.md#nowhere': no anchor '#nowhere' in the target",
        "docs/guide.md:17:12: broken link 'empty/#x': a fragment on a directory without an index file",
        "docs/guide.md:18:13: broken link '../READMEE.md': no such file or directory (did you mean '../README.md'?)",
        "docs/guide.md:19:14: broken link '../readme.md': the file is named 'README.md' (case differs) (did you mean '../README.md'?)",
        "docs/guide.md:22:11: broken link '../../elsewhere.md': the target is outside the root",
        "docs/guide.md:24:11: broken link '../code.rs#L9': the file has no line '#L9'",
        "docs/guide.md:28:12: broken link 'mailto:nobody': not a valid address",
        "docs/guide.md:29:7: broken link 'http://a:port/': not a URI reference: invalid port at byte 9",
    ];
    assert_eq!(got, want, "\n{out}");
}

#[test]
fn exit_codes_and_formats() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.md", "[b](b.md) [web](https://example.com/)\n");
    write(d, "b.md", "# B\n");
    let (out, code) = check(d, &["."]);
    assert_eq!((out.as_str(), code), ("", 0));
    write(d, "c.md", "[gone](gone.md)\n");
    let (out, code) = check(d, &["--format", "github", "."]);
    assert_eq!(code, 1);
    // GitHub matches annotations to a pull request's files by their
    // repository-relative paths: no `./`.
    assert_eq!(
        out,
        "::error file=c.md,line=1,col=8::broken link 'gone.md': no such file or directory\n"
    );
    let (out, _) = check(d, &["--format", "github", "./c.md"]);
    assert!(out.starts_with("::error file=c.md,"), "{out}");
    let (out, _) = check(d, &["--json", "."]);
    let rows: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let status: Vec<_> =
        rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["ok", "skipped", "broken"]);
    assert_eq!(rows[2]["reason"], "no such file or directory");
    assert_eq!(rows[2]["local"], "gone.md");
    let (out, _) = check(d, &["--json", "--errors-only", "."]);
    assert_eq!(out.lines().count(), 1);
    let (_, code) = check(d, &["--anchors", "nope", "."]);
    assert_eq!(code, 2);
    let (_, code) = check(d, &["missing-dir"]);
    assert_eq!(code, 2);
}

#[test]
fn anchors_by_generator() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "b.md",
        "# Crème brûlée\n\n## Usage\n\n## Usage\n\nText[^n].\n\n[^n]: Note.\n",
    );
    write(
        d,
        "a.md",
        "[1](b.md#creme-brulee) [2](b.md#usage_1) [3](b.md#fn:n) \
         [4](b.md#usage-1) [5](b.md#crème-brûlée) [6](b.md#user-content-fn-n)\n",
    );
    let broken_links = |style: &str| {
        let (out, _) =
            check(d, &["--anchors", style, "--color", "never", "."]);
        broken(&out)
            .iter()
            .filter(|l| l.contains("broken link"))
            .map(|l| l.split('\'').nth(1).unwrap_or_default().to_owned())
            .collect::<Vec<String>>()
    };
    // MkDocs' default slugify is ASCII and counts duplicates with `_1`;
    // GitHub keeps accents, counts with `-1`, and reaches its
    // `user-content-` footnote ids; Hugo and Jekyll keep accents too.
    let all = [
        "b.md#creme-brulee",
        "b.md#usage_1",
        "b.md#fn:n",
        "b.md#usage-1",
        "b.md#crème-brûlée",
        "b.md#user-content-fn-n",
    ];
    let but = |ok: &[&str]| -> Vec<String> {
        all.iter().filter(|l| !ok.contains(l)).map(|l| l.to_string()).collect()
    };
    let github_like =
        ["b.md#usage-1", "b.md#crème-brûlée", "b.md#user-content-fn-n"];
    let cases: [(&str, &[&str]); 5] = [
        ("mkdocs", &["b.md#creme-brulee", "b.md#usage_1", "b.md#fn:n"]),
        ("github", &github_like),
        // Docusaurus as GitHub, but its level-1 heading has no id.
        ("docusaurus", &["b.md#usage-1", "b.md#user-content-fn-n"]),
        ("hugo", &["b.md#usage-1", "b.md#crème-brûlée"]),
        ("jekyll", &["b.md#usage-1", "b.md#crème-brûlée", "b.md#fn:n"]),
    ];
    for (style, ok) in cases {
        assert_eq!(broken_links(style), but(ok), "{style}");
    }
}

#[test]
fn fallback_extensions_and_index_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "src/ch01.md",
        "# One\n\n[two](ch02.html) [intro](guide/intro) [idx](guide/#part)\n",
    );
    write(d, "src/ch02.md", "# Two\n");
    write(d, "src/guide/intro.md", "# Intro\n");
    write(d, "src/guide/index.md", "# Guide\n## Part\n");
    let (out, code) = check(d, &["src"]);
    assert_eq!(code, 1, "without fallbacks, ch02.html and intro are missing");
    assert_eq!(out.lines().count(), 2, "{out}");
    let (out, code) = check(d, &["--fallback-extensions", "md,html", "src"]);
    assert_eq!((out.as_str(), code), ("", 0));
    let (out, code) = check(d, &["--index-files", "README.md", "src"]);
    assert!(out.contains("without an index file"), "{out}");
    assert_eq!(code, 1);
}

#[test]
fn html_sites() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "index.html",
        "<a href=\"page.html#sec\">a</a><a href=\"page.html#impl-From%3CT%3E\">b</a>\
         <a href=\"old.html#sec\">c</a><a href=\"page.html#nope\">d</a>\
         <a href=\"/page.html\">e</a><a href=\"src.html#2-3\">f</a>",
    );
    write(
        d,
        "page.html",
        "<h2 id=sec>S</h2><div id=\"impl-From%3CT%3E\"></div><a name=named></a>",
    );
    write(
        d,
        "old.html",
        "<meta http-equiv=refresh content=\"0;URL=page.html\">",
    );
    write(d, "src.html", "<a id=1></a><a id=2></a><a id=3></a>");
    let (out, code) = check(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "./index.html:1:109: broken link 'page.html#nope': no anchor '#nope' in the target\n"
    );
    let (out, _) = check(d, &["--no-fragments", "."]);
    assert_eq!(out, "");
}

#[test]
fn exclusions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.md", "[x](gone.md) [y](drafts/old.md)\n");
    write(d, "drafts/b.md", "[z](nowhere.md)\n");
    let (out, code) = check(d, &["."]);
    assert_eq!((out.lines().count(), code), (3, 1), "{out}");
    let (out, code) = check(
        d,
        &[
            "--exclude",
            "gone\\.md$",
            "--exclude",
            "/drafts/",
            "--exclude-path",
            "drafts/**",
            ".",
        ],
    );
    assert_eq!((out.as_str(), code), ("", 0));
    let (out, _) = check(d, &["--json", "--exclude", "gone", "a.md"]);
    assert!(
        out.lines().next().unwrap().contains("\"status\":\"excluded\""),
        "{out}"
    );
    let (_, code) = check(d, &["--exclude", "(", "."]);
    assert_eq!(code, 2);
}

#[test]
fn a_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "src/ch01.md", "[two](ch02.html) [gone](gone.md)\n");
    write(d, "src/ch02.md", "# Two\n");
    let (_, code) = check(d, &["src"]);
    assert_eq!(code, 1);
    write(
        d,
        "src/uriscan.toml",
        "fallback-extensions = [\"md\", \"html\"]\nexclude = [\"gone\"]\n",
    );
    let (out, code) = check(d, &["src"]);
    assert_eq!((out.as_str(), code), ("", 0));
    write(d, "other.toml", "fallback-extension = [\"md\"]\n");
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(d)
        .args(["check", "--config", "other.toml", "src"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fallback-extension"), "{err}");
}

#[test]
fn sarif_has_the_required_fields() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.md", "# A\n\n[x](gone.md) [y](#nope) [z](#a)\n");
    let (out, code) = check(d, &["--format", "sarif", "."]);
    assert_eq!(code, 1);
    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
    // SARIF 2.1.0, section 3.13: version and runs; 3.14: tool.driver.name;
    // 3.27: each result's message; 3.28-3.30: its location.
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "uriscan");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert_eq!(r["ruleId"], "broken-link");
        assert!(
            r["message"]["text"].as_str().unwrap().starts_with("broken link")
        );
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "a.md");
        assert_eq!(loc["region"]["startLine"], 3);
    }
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["byteOffset"],
        9
    );
}

#[test]
fn orphans_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "README.md", "[a](a.md) [dir](sub/)\n");
    write(d, "a.md", "[back](README.md)\n");
    write(d, "sub/index.md", "# Sub\n");
    write(d, "lonely.md", "[a](a.md)\n");
    write(d, "start.md", "# Start\n");
    let (out, code) = check(d, &["--orphans", "--entry", "start.md", "."]);
    assert_eq!(
        (out.as_str(), code),
        ("./lonely.md: orphan: no other document links here\n", 0)
    );
}

#[test]
fn inline_comments_disable_checks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "a.md",
        "[one](gone1.md)\n<!-- uriscan-disable-next-line -->\n[two](gone2.md)\n\
         <!-- uriscan-disable -->\n[three](gone3.md)\n<!-- uriscan-enable -->\n[four](gone4.md)\n",
    );
    write(d, "b.html", "<!-- uriscan-disable --><a href=gone5.html>x</a>");
    let (out, code) = check(d, &["--sort-free", "."]);
    assert_eq!(code, 2, "an unknown flag is a usage error: {out}");
    let (out, code) = check(d, &["."]);
    assert_eq!(code, 1);
    let broken: Vec<_> =
        out.lines().map(|l| l.split(": broken").next().unwrap()).collect();
    assert_eq!(broken, ["./a.md:1:7", "./a.md:7:8"]);
}

/// A document reached through a symbolic link is read where it really
/// is: its relative links resolve from its target's directory, as a
/// browser opening the real file would, whether the link is the file or
/// a directory above it.
#[cfg(unix)]
#[test]
fn a_symlinked_document_resolves_from_its_target() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "real/doc.md", "[sib](sibling.md)\n");
    write(d, "real/sibling.md", "# Sibling\n");
    std::fs::create_dir(d.join("top")).unwrap();
    symlink(d.join("real/doc.md"), d.join("top/link.md")).unwrap();
    symlink(d.join("real"), d.join("dirlink")).unwrap();
    // Given, and met by the walk (which says the path is a link, so it
    // is not asked again).
    for path in ["top/link.md", "dirlink/doc.md", "real/doc.md", "top"] {
        let (out, code) = check(d, &[path]);
        assert_eq!((out.as_str(), code), ("", 0), "{path}");
    }
    // Without the symlink's resolution the link would be looked for
    // beside it, and be broken.
    write(d, "top/plain.md", "[sib](sibling.md)\n");
    let (out, code) = check(d, &["top/plain.md"]);
    assert_eq!(code, 1, "{out}");
}

/// Runs `uriscan check ARGS` in `dir`: (stdout, stderr, exit code).
pub(super) fn check_err(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// The summary counts in English: one file, not "1 files".
#[test]
fn the_summary_says_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.md", "[self](a.md)\n");
    let (_, err, code) = check_err(d, &["."]);
    assert_eq!(code, 0);
    assert!(err.starts_with("1 file, 1 link: 1 local checked"), "{err}");
    write(d, "b.md", "[a](a.md) [b](b.md)\n");
    let (_, err, _) = check_err(d, &["."]);
    assert!(err.starts_with("2 files, 3 links: 3 local checked"), "{err}");
}

/// `uriscan check . | head -1`: when the reader closes standard output,
/// the run ends quietly with 0, as `links` does.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // More than the report's buffer, so that it writes before its end.
    let links: String =
        (0..4000).map(|i| format!("[x](gone-{i}.md)\n")).collect();
    write(d, "a.md", &links);
    let mut child =
        std::process::Command::new(assert_cmd::cargo::cargo_bin("uriscan"))
            .current_dir(d)
            .args(["check", "."])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
    // The reader goes before the first write.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

/// Prose is not a link: `see file:line` in Markdown is checked only with
/// `--include-text`; a bare URI that GitHub links still is.
#[test]
fn prose_is_not_checked_as_links() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "a.md",
        "See file:line and urn:x:y, and mailto:nobody.\n\n[gone](gone.md)\n",
    );
    let (out, code) = check(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        broken(&out),
        [
            "./a.md:1:32: broken link 'mailto:nobody': not a valid address",
            "./a.md:3:8: broken link 'gone.md': no such file or directory",
        ]
    );
    let (out, _) = check(d, &["--include-text", "."]);
    assert!(out.starts_with("./a.md:1:5: broken link 'file:line'"), "{out}");
}

/// `--exclude` is matched against the link as written and the target's
/// path under the root, never the absolute `file:` URI: a pattern
/// works on every machine.
#[test]
fn exclusions_are_portable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join(".git")).unwrap();
    write(d, "docs/a.md", "[x](../drafts/old.md) [y](gone.md)\n");
    let (out, code) = check(d, &["--exclude", "^/drafts/", "."]);
    assert_eq!(code, 1);
    assert_eq!(
        broken(&out),
        ["./docs/a.md:1:27: broken link 'gone.md': no such file or directory"]
    );
    let (out, _) =
        check(d, &["--exclude", "^gone", "--exclude", "^/docs/", "."]);
    assert_eq!(broken(&out).len(), 1, "{out}");
    let (out, code) =
        check(d, &["--exclude", "^/drafts/", "--exclude", "^gone", "."]);
    assert_eq!((out.as_str(), code), ("", 0));
    // The absolute path is no longer matched.
    let tmp = d.canonicalize().unwrap();
    let pattern = format!("^file://{}", tmp.display());
    let (out, _) = check(d, &["--exclude", &pattern, "."]);
    assert_eq!(broken(&out).len(), 2, "{out}");
}

/// A missing file's suggestion is never the document that links to it.
#[test]
fn a_suggestion_is_never_the_linking_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "guide.md", "[other](guid.md)\n");
    write(d, "b.md", "[g](guid.md)\n");
    let (out, _) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./b.md:1:5: broken link 'guid.md': no such file or directory (did you mean 'guide.md'?)",
            "./guide.md:1:9: broken link 'guid.md': no such file or directory",
        ]
    );
}

/// `[x](/../README.md)` is the README at the root: RFC 3986 5.2.4
/// removes the dot segments above the root, as `uriscan resolve` does.
#[test]
fn dot_segments_above_the_root_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join(".git")).unwrap();
    write(d, "README.md", "# Top\n");
    write(
        d,
        "docs/a.md",
        "[x](/../README.md#top) [y](/docs/../../README.md)\n",
    );
    let (out, code) = check(d, &["."]);
    assert_eq!((out.as_str(), code), ("", 0));
}

/// A file is never skipped in silence: UTF-16 with a byte order mark is
/// decoded by it; a binary file named on the command line is reported.
#[test]
fn files_are_never_skipped_in_silence() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let utf16 = |text: &str, le: bool| -> Vec<u8> {
        let mut bytes = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for u in text.encode_utf16() {
            let b = if le { u.to_le_bytes() } else { u.to_be_bytes() };
            bytes.extend(b);
        }
        bytes
    };
    std::fs::write(d.join("le.md"), utf16("# Lé\n\n[x](gone.md)\n", true))
        .unwrap();
    std::fs::write(d.join("be.md"), utf16("[y](#nowhere)\n", false)).unwrap();
    let (out, code) = check(d, &["le.md", "be.md"]);
    assert_eq!(code, 1);
    assert_eq!(
        broken(&out),
        [
            "be.md:1:5: broken link '#nowhere': no anchor '#nowhere' in the target",
            "le.md:3:5: broken link 'gone.md': no such file or directory",
        ]
    );
    std::fs::write(d.join("nul.md"), b"[z](gone.md)\0\n").unwrap();
    let (out, err, code) = check_err(d, &["nul.md"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("nul.md: binary (a NUL byte)"), "{err}");
}

/// An Antora component checks with no flags: xrefs between modules, ids
/// by Asciidoctor's rules, images and partials resolve in the component;
/// another component's page is skipped; the navigation file is no orphan.
#[test]
fn an_antora_component_checks_with_no_flags() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "antora.yml",
        "name: demo\nversion: ~\nnav:\n- modules/ROOT/nav.adoc\n",
    );
    write(
        d,
        "modules/ROOT/nav.adoc",
        "* xref:index.adoc[]\n* xref:cli:run.adoc[]\n",
    );
    write(
        d,
        "modules/ROOT/pages/index.adoc",
        "= Demo\n\n\
         == Getting Started\n\n\
         See xref:cli:run.adoc#_options[options] and <<_getting_started>>.\n\
         A broken xref:cli:run.adoc#_option[one] and <<_getting_startd>>.\n\
         image::logo.png[Logo]\n\n\
         include::partial$note.adoc[]\n\n\
         Elsewhere xref:other::page.adoc[] is skipped.\n",
    );
    write(d, "modules/ROOT/images/logo.png", "");
    write(d, "modules/ROOT/partials/note.adoc", "A note.\n");
    write(
        d,
        "modules/cli/pages/run.adoc",
        "= Run\n\n== Options\n\nxref:ROOT:index.adoc[]\n",
    );
    let (out, code) = check(d, &["--orphans", "."]);
    assert_eq!(
        broken(&out),
        [
            "./modules/ROOT/pages/index.adoc:6:15: broken link '../../cli/pages/run.adoc#_option': no anchor '#_option' in the target (did you mean '#_options'?)",
            "./modules/ROOT/pages/index.adoc:6:47: broken link '#_getting_startd': no anchor '#_getting_startd' in the target (did you mean '#_getting_started'?)",
        ]
    );
    assert_eq!(code, 1);
}

/// A Sphinx project with `myst_parser` checks with no flags: its `.md`
/// files are MyST, whose labels and reStructuredText's are one set, both
/// ways; `{doc}` and `:doc:` find the source of either suffix.
#[test]
fn a_myst_project_checks_with_no_flags() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "conf.py", "extensions = [\"myst_parser\"]\n");
    write(
        d,
        "index.md",
        "# Home\n\n(home-label)=\n\
         {ref}`guide-label` {ref}`gone-label` {doc}`guide` [bare](guide-label)\n\
         [doc](sub/page.md#the-page) [bad](sub/page.md#nope) <project:#home-label>\n\n\
         ```{toctree}\nguide\nsub/page\nabsent\n```\n",
    );
    write(
        d,
        "guide.rst",
        ".. _guide-label:\n\nGuide\n=====\n\n:ref:`home-label` :doc:`index` :ref:`nope-label`\n",
    );
    write(d, "sub/page.md", "# The Page\n");
    let (out, code) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./guide.rst:6:38: broken link 'nope-label': no label 'nope-label' in the documents checked (did you mean 'home-label'?)",
            "./index.md:4:26: broken link 'gone-label': no label 'gone-label' in the documents checked (did you mean 'home-label'?)",
            "./index.md:5:35: broken link 'sub/page.md#nope': no anchor '#nope' in the target",
            "./index.md:10:1: broken link 'absent.md': no such file or directory",
        ]
    );
    assert_eq!(code, 1);
    // Without a `conf.py` the same file is CommonMark: no roles.
    std::fs::remove_file(d.join("conf.py")).unwrap();
    let (out, _) = check(d, &["index.md"]);
    assert!(!out.contains("gone-label"), "{out}");
}

/// The settings of myst-parser in `conf.py` change what a MyST document
/// links: `:::` fences a directive only with `colon_fence`, a scheme out
/// of `myst_url_schemes` names a label, and `myst_heading_anchors` slugs
/// the headings up to its level.
#[test]
fn a_myst_projects_settings_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "conf.py",
        "extensions = [\"myst_parser\"]\n\
         myst_enable_extensions = [\n    \"colon_fence\",\n]\n\
         myst_url_schemes = (\"https\",)\n\
         myst_heading_anchors = 2\n",
    );
    write(
        d,
        "index.md",
        "# Home\n\n:::{figure} missing.png\n:::\n\n\
         [gh](gh:x) [two](sub/page.md#step-12) [three](sub/page.md#step-34)\n",
    );
    write(d, "sub/page.md", "# Page\n\n## Step 1.2\n\n### Step 3.4\n");
    let (out, code) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./index.md:3:13: broken link 'missing.png': no such file or directory",
            "./index.md:6:6: broken link 'gh:x': no label 'gh:x' in the documents checked",
            "./index.md:6:47: broken link 'sub/page.md#step-34': no anchor '#step-34' in the target (did you mean '#step-3-4'?)",
        ]
    );
    assert_eq!(code, 1);
    // Without `colon_fence`, the figure is text.
    write(d, "conf.py", "extensions = [\"myst_parser\"]\n");
    let (out, _) = check(d, &["."]);
    assert!(!out.contains("missing.png"), "{out}");
}

/// The extensions of myst-parser that `conf.py` enables change what a
/// MyST document links: a substitution's value is read at its reference
/// (one that is code is skipped as a template, never broken),
/// `html_image` makes an image of a lone `<img>`, `attrs_inline` gives
/// ids, linkify makes a link of a bare host.
#[test]
fn a_myst_projects_extensions_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "conf.py",
        "extensions = [\"myst_parser\"]\nVERSION = \"1.0\"\n\
         myst_enable_extensions = [\"linkify\", \"substitution\", \"attrs_inline\", \"html_image\"]\n\
         myst_substitutions = {\"logo\": \"![logo](missing-logo.png)\", \"version\": VERSION}\n",
    );
    write(
        d,
        "index.md",
        "# Home\n\nSee {{ logo }} and version {{ version }}.\n\n<img src=\"missing.png\">\n\n\
         A `code`{#code-id} and [to it](#code-id) and [to nowhere](#nowhere).\n\n\
         Visit www.example.org and [b]({{base}}/y).\n",
    );
    let (out, code) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./index.md:3:5: broken link 'missing-logo.png': no such file or directory",
            "./index.md:5:11: broken link 'missing.png': no such file or directory",
            "./index.md:7:59: broken link 'nowhere': no label 'nowhere' in the documents checked",
        ]
    );
    assert_eq!(code, 1);
    let (json, _) = check(d, &["--json", "."]);
    for (raw, status) in [
        ("{{ version }}", "\"status\":\"skipped\",\"reason\":\"template\""),
        ("{{base}}/y", "\"status\":\"skipped\",\"reason\":\"template\""),
        ("www.example.org", "\"link\":\"http://www.example.org\""),
    ] {
        let line =
            json.lines().find(|l| l.contains(&format!("\"raw\":\"{raw}\"")));
        assert!(line.is_some_and(|l| l.contains(status)), "{raw}: {json}");
    }
}

/// A `conf.py` setting the check reads, set by code rather than a
/// simple assignment, is told on standard error with the default used.
#[test]
fn conf_py_settings_that_are_code_are_told() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "conf.py",
        "extensions = ['myst_parser']\nmyst_heading_anchors = levels()\n",
    );
    write(d, "index.md", "# Home\n\n[a](#home)\n");
    let (_, err, _) = check_err(d, &["."]);
    assert!(
        err.contains(
            "sphinx: ./conf.py: myst_heading_anchors: not a literal, 0 used\n"
        ),
        "{err}"
    );
    write(
        d,
        "conf.py",
        "extensions = ['myst_parser']\nmyst_heading_anchors = 2\n",
    );
    let (_, err, _) = check_err(d, &["."]);
    assert!(!err.contains("sphinx:"), "{err}");
}

/// MyST's `{include}` with `:relative-images:` resolves the included
/// file's images against that file, and `:relative-docs:` its
/// `project:` links under the prefix; without them, against the
/// includer.
#[test]
fn a_myst_include_may_make_links_relative() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "docs/conf.py", "extensions = [\"myst_parser\"]\n");
    write(
        d,
        "docs/index.md",
        "# Home\n\n```{include} ../README.md\n:relative-images:\n:relative-docs: docs/\n```\n",
    );
    write(d, "docs/guide.md", "# Guide\n");
    write(d, "img/logo.png", "");
    write(
        d,
        "README.md",
        "# Readme\n\n![logo](img/logo.png) <project:docs/guide.md>\n",
    );
    let (out, code) = check(d, &["."]);
    assert!(broken(&out).is_empty(), "{out}");
    assert_eq!(code, 0);
    write(d, "docs/index.md", "# Home\n\n```{include} ../README.md\n```\n");
    let (out, code) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./README.md:3:9: broken link 'img/logo.png': no such file or directory",
            "./README.md:3:24: broken link 'docs/guide.md': no such file or directory",
        ]
    );
    assert_eq!(code, 1);
}

/// A reStructuredText `include` is followed: the included file's links
/// count at its own lines, its labels and ids are the includer's; a
/// cycle ends, and an include that leaves the root is reported, not read.
#[test]
fn an_rst_include_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "out/x.rst", ".. _outside-label:\n\nX\n=\n");
    write(d, "p/conf.py", "project = 'p'\n");
    write(
        d,
        "p/index.rst",
        "Index\n=====\n\n.. include:: _inc/part.inc\n\n.. include:: ../out/x.rst\n\n\
         :ref:`inc-label` `self <index.html#inc-label>`_ :ref:`outside-label`\n",
    );
    write(
        d,
        "p/_inc/part.inc",
        ".. _inc-label:\n\nIncluded\n--------\n\n\
         A `broken <missing.rst>`_ link, and :doc:`index`.\n\n\
         .. include:: part.inc\n.. include:: ../index.rst\n",
    );
    write(d, "p/other.rst", "Other\n=====\n\n:ref:`inc-label`\n");
    let (out, code) = check(&d.join("p"), &["."]);
    assert_eq!(
        broken(&out),
        [
            "./_inc/part.inc:6:12: broken link 'missing.rst': no such file or directory",
            "./index.rst:6:14: broken link '../out/x.rst': the target is outside the root",
            "./index.rst:8:55: broken link 'outside-label': no label 'outside-label' in the documents checked",
        ]
    );
    assert_eq!(code, 1);
}

/// An AsciiDoc `include::` is followed as Asciidoctor inserts it: only
/// the part `tag=` or `lines=` takes, read with the includer's
/// attributes, its links checked against the includer and reported at
/// the file's own lines with the includer named; a nested include from
/// the included file's directory; an include in a listing holds no
/// links; one that leaves the root is reported, not read. The ids of
/// the included files are the includer's.
#[test]
fn an_asciidoc_include_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "out/x.txt", "link:outside.html[o]\n");
    write(
        d,
        "p/index.adoc",
        "= Index\n:base: https://x.example\n:part: _inc/part.txt\n\n\
         == Top\n\n\
         include::{part}[tag=x]\n\
         include::_inc/part.txt[lines=1]\n\
         include::../out/x.txt[]\n\
         ----\ninclude::_inc/code.txt[]\n----\n",
    );
    write(
        d,
        "p/_inc/part.txt",
        "link:missing-one.html[one] <<_top>> <<_nope>>\n\
         // tag::x[]\n\
         See link:missing-two.html[two] and image:gone.png[] {base}/ok\n\
         include::nested.txt[]\n\
         // end::x[]\n\
         link:missing-three.html[three]\n",
    );
    write(
        d,
        "p/_inc/nested.txt",
        "link:nested-missing.html[n]\n\n[[nested-id]]\nThe id is the includer's: <<nested-id>>.\n",
    );
    write(d, "p/_inc/code.txt", "link:in-code.html[c]\n");
    let (out, code) = check(&d.join("p"), &["."]);
    assert_eq!(
        broken(&out),
        [
            "./_inc/nested.txt:1:6: broken link 'nested-missing.html': no such file or directory (included by ./index.adoc)",
            "./_inc/part.txt:3:10: broken link 'missing-two.html': no such file or directory (included by ./index.adoc)",
            "./_inc/part.txt:3:42: broken link 'gone.png': no such file or directory (included by ./index.adoc)",
            "./_inc/part.txt:1:6: broken link 'missing-one.html': no such file or directory (included by ./index.adoc)",
            "./_inc/part.txt:1:39: broken link '#_nope': no anchor '#_nope' in the target (included by ./index.adoc) (did you mean '#_top'?)",
            "./index.adoc:9:10: broken link '../out/x.txt': the target is outside the root",
        ]
    );
    assert_eq!(code, 1);
    // The part an include takes is noted on its link.
    let (json, _) = check(&d.join("p"), &["--json", "."]);
    let row = json.lines().find(|l| l.contains("\"line\":7,")).unwrap();
    assert!(row.contains("\"include_selection\":\"tag=x\""), "{row}");
}

/// The ids of an Antora page that includes a partial are its own and the
/// partial's, both made with the component's attributes.
#[test]
fn an_antora_pages_ids_take_its_partials_and_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "antora.yml",
        "name: demo\nversion: ~\nasciidoc:\n  attributes:\n    idprefix: ''\n",
    );
    write(
        d,
        "modules/ROOT/pages/index.adoc",
        "= Demo\n\n== Top\n\ninclude::partial$part.adoc[tag=x]\n\n\
         <<top>> <<in_part>> <<left_out>>\n",
    );
    write(
        d,
        "modules/ROOT/partials/part.adoc",
        "== Left Out\n\n// tag::x[]\n== In Part\n// end::x[]\n",
    );
    let (out, code) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./modules/ROOT/pages/index.adoc:7:23: broken link '#left_out': no anchor '#left_out' in the target",
        ]
    );
    assert_eq!(code, 1);
}

/// Antora's `antora.yml` is read: the component's attributes expand in
/// its pages (a hard set wins over the page's entry, a soft set `@` does
/// not), and another component's resource ids resolve when that
/// component (of that version) is in the tree; one that is not stays
/// skipped.
#[test]
fn antora_components_resolve_by_name_and_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "a/antora.yml",
        "name: a\nversion: ~\nasciidoc:\n  attributes:\n    \
         base: https://x.example/base\n    docs: ../local@\n",
    );
    write(d, "b/antora.yml", "name: b\nversion: '2.0'\n");
    write(
        d,
        "a/modules/ROOT/pages/index.adoc",
        "= A\n\n:base: https://changed.example\n:docs: ./\n\n\
         See {base}/x[base], link:{docs}other.adoc[docs],\n\
         xref:2.0@b:cli:run.adoc#_options[run], xref:b:cli:gone.adoc[gone],\n\
         xref:c::index.adoc[skipped], xref:1.0@b:cli:run.adoc[old], image:b:ROOT:logo.png[].\n",
    );
    write(d, "b/modules/cli/pages/run.adoc", "= Run\n\n== Options\n");
    write(d, "b/modules/ROOT/images/logo.png", "");
    let (out, code) = check(d, &["."]);
    assert_eq!(
        broken(&out),
        [
            "./a/modules/ROOT/pages/index.adoc:6:26: broken link './other.adoc': no such file or directory",
            "./a/modules/ROOT/pages/index.adoc:7:45: broken link 'antora:b:cli:gone.adoc': no such file or directory (did you mean 'run.adoc'?)",
        ]
    );
    assert_eq!(code, 1);
    let (json, _) = check(d, &["--json", "."]);
    let line = json.lines().find(|l| l.contains("{base}/x")).unwrap();
    assert!(
        line.contains("\"target\":\"https://x.example/base/x\""),
        "{line}"
    );
    let old = json.lines().find(|l| l.contains("1.0@b")).unwrap();
    assert!(old.contains("\"status\":\"skipped\""), "{old}");
}

/// A document with more link text than the read stage keeps for the
/// report is read again for its broken links, one at a time: each is
/// reported with its own text, in order, in every form, as one kept
/// whole would be.
#[test]
fn a_document_read_again_reports_each_broken_link_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Long fragments: past the read stage's budget (16 MiB) in a few
    // thousand links, and far from the one heading, which one link names.
    let tail = "x".repeat(4000);
    let n = 2000;
    let link = |i: usize| match i {
        7 => "[l](#held)\n".to_owned(),
        _ => format!("[l](#h{i}-{tail})\n"),
    };
    let mut text: String = (0..n).map(link).collect();
    text.push_str("\n# Held\n");
    write(d, "big.md", &text);
    write(d, "one.md", &link(0));
    let rows = check(d, &["--json", "big.md"]).0;
    let rows: Vec<serde_json::Value> =
        rows.lines().map(|r| serde_json::from_str(r).unwrap()).collect();
    assert_eq!(rows.len(), n);
    for (i, row) in rows.iter().enumerate() {
        let status = if i == 7 { "ok" } else { "broken" };
        assert_eq!(row["line"], i + 1);
        assert_eq!(row["status"], status);
        assert_eq!(
            format!("[l]({})\n", row["link"].as_str().unwrap()),
            link(i)
        );
    }
    let (sarif, _) = check(d, &["--format", "sarif", "big.md"]);
    assert_eq!(sarif.matches("\"ruleId\"").count(), n - 1);
    for form in ["human", "github"] {
        let args = |file| vec!["--format", form, file];
        let (one, _) = check(d, &args("one.md"));
        let (big, code) = check(d, &args("big.md"));
        assert_eq!(code, 1);
        let want: Vec<String> = (0..n)
            .filter(|&i| i != 7)
            .map(|i| {
                one.trim_end()
                    .replace("one.md", "big.md")
                    .replace("#h0-", &format!("#h{i}-"))
                    .replace(":1:", &format!(":{}:", i + 1))
                    .replace("line=1,", &format!("line={},", i + 1))
            })
            .collect();
        let got: Vec<&str> = big.lines().collect();
        assert_eq!(got.len(), want.len(), "{form}");
        for (g, w) in got.iter().zip(&want) {
            assert!(g == w, "{form}: {}\n{}", &g[..200], &w[..200]);
        }
    }
}
