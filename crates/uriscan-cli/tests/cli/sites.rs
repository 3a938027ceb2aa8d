//! `uriscan check` on the sample sites of `tests/data/sites/`: each
//! link's verdict as the generator serves the site (`--site auto`), the
//! navigation as links, the summary's sites, and `--site github` as
//! before.

use std::path::{Path, PathBuf};

use crate::support::tree::write;
use crate::support::{Dir, test_data};

fn sample(name: &str) -> PathBuf {
    test_data("sites").join(name)
}

/// Runs `uriscan check --json ARGS .` in `dir`: each row as `path:line
/// kind link: status[: reason][ (mapped)][ (via PAGE)]`, the stderr and
/// the exit code.
fn rows(dir: &Path, args: &[&str]) -> (Vec<String>, String, i32) {
    let out =
        assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("uriscan"))
            .current_dir(dir)
            .arg("check")
            .arg("--json")
            .args(args)
            .arg(".")
            .output()
            .unwrap();
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let r: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut row = format!(
                "{}:{} {} {}: {}",
                r["path"].as_str().unwrap(),
                r["line"],
                r["kind"].as_str().unwrap(),
                r["link"].as_str().unwrap(),
                r["status"].as_str().unwrap()
            );
            if let Some(reason) = r["reason"].as_str() {
                row += &format!(": {reason}");
            }
            if r["mapped"].is_string() {
                row += " (mapped)";
            }
            if let Some(page) = r["via"].as_str() {
                row += &format!(" (via {page})");
            }
            row
        })
        .collect();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (rows, err, out.status.code().unwrap_or(-1))
}

fn human(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out =
        assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("uriscan"))
            .current_dir(dir)
            .arg("check")
            .args(args)
            .output()
            .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn mkdocs_links_resolve_as_mkdocs_serves_them() {
    let (rows, _, code) = rows(&sample("mkdocs"), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        rows,
        [
            "./README.md:3 md:link docs/index.md: ok",
            "./docs/drafts/kept.md:3 md:link ../index.md: ok",
            "./docs/drafts/wip.md:3 md:link ../index.md: ok",
            "./docs/guide/install.md:5 md:link ../index.md: ok",
            // Served at guide/install/: `../usage/` is guide/usage/.
            "./docs/guide/install.md:5 md:link ../usage/: ok (mapped)",
            "./docs/guide/install.md:8 md:link ../../usage/: broken: no page at the site URL '/sample/usage/'",
            // Found under the second base path, `snippets`.
            "./docs/guide/install.md:13 mkdocs:snippet note.md: ok (mapped)",
            "./docs/guide/usage.md:5 md:link ../install/index.html#setup: ok (mapped)",
            "./docs/guide/usage.md:6 md:link ../../README.md: broken: not on the site: outside its sources 'docs/'",
            // The includes: a snippet from the base paths, an
            // include-markdown from the page's own folder.
            "./docs/guide/usage.md:8 mkdocs:snippet snippets/note.md: ok (mapped)",
            "./docs/guide/usage.md:10 mkdocs:include-markdown ../../snippets/part.md: ok (mapped)",
            "./docs/guide/usage.md:12 mkdocs:snippet snippets/missing.md: broken: no snippet 'snippets/missing.md' under the base path '.', 'snippets': the page leaves it out in silence",
            // A glob: the plugin includes every match, sorted.
            "./docs/guide/usage.md:14 mkdocs:include-markdown ../../snippets/parts/*.md: ok (mapped)",
            "./docs/index.md:3 md:link guide/install.md#setup: ok",
            "./docs/index.md:4 md:link guide/usage/: ok (mapped)",
            "./docs/index.md:5 md:link /sample/guide/usage/#options: ok (mapped)",
            "./docs/index.md:6 md:link https://docs.example.org/sample/guide/install/#setup: ok (mapped)",
            "./docs/index.md:7 md:link guide/install.md#nowhere: broken: no anchor '#nowhere' in the target",
            "./docs/index.md:8 md:link guide/nothing/: broken: no page at the site URL '/sample/guide/nothing/'",
            "./docs/index.md:9 md:link https://docs.example.org/sample/guide/missing/: broken: no page at the site URL 'https://docs.example.org/sample/guide/missing/'",
            "./docs/index.md:10 md:image img/logo.png: ok",
            "./docs/index.md:11 md:link guide/usage/#nowhere: broken: no anchor '#nowhere' in the target (mapped)",
            // The included headings are the including page's anchors.
            "./docs/index.md:12 md:link guide/usage.md#a-note: ok",
            "./docs/index.md:12 md:link guide/usage.md#a-part: ok",
            // exclude_docs, from the file mkdocs.yml INHERITs: a page
            // MkDocs does not build, but for one a pattern takes back.
            "./docs/index.md:13 md:link drafts/wip.md: broken: not on the site: excluded from the built site (exclude_docs)",
            "./docs/index.md:13 md:link drafts/kept.md: ok",
            "./docs/index.md:14 md:link guide/usage.md#part-one: ok",
            "./docs/index.md:14 md:link guide/usage.md#part-two: ok",
            "./mkdocs.yml:10 site:nav index.md: ok",
            "./mkdocs.yml:12 site:nav guide/install.md: ok",
            "./mkdocs.yml:13 site:nav guide/usage.md: ok",
            "./mkdocs.yml:14 site:nav guide/gone.md: broken: no such file or directory",
            "./mkdocs.yml:15 site:nav https://www.mkdocs.org/: skipped",
            "./mkdocs.yml:17 site:nav drafts/wip.md: broken: not on the site: excluded from the built site (exclude_docs)",
            // A snippet's links are those of each page that includes it
            // (MkDocs inserts its text as it is), at its own lines.
            "./snippets/note.md:4 md:link install.md#setup: ok (via ./docs/guide/install.md)",
            "./snippets/note.md:4 md:link #options: broken: no anchor '#options' in the target (via ./docs/guide/install.md)",
            "./snippets/note.md:5 md:link index.md: broken: no such file or directory (via ./docs/guide/install.md)",
            "./snippets/note.md:4 md:link install.md#setup: ok (via ./docs/guide/usage.md)",
            "./snippets/note.md:4 md:link #options: ok (via ./docs/guide/usage.md)",
            "./snippets/note.md:5 md:link index.md: broken: no such file or directory (via ./docs/guide/usage.md)",
            // An include-markdown file's lead where they led from the
            // file (the plugin rewrites them), but for a bare anchor.
            "./snippets/part.md:4 md:link ../docs/guide/install.md#setup: ok (via ./docs/guide/usage.md)",
            "./snippets/part.md:5 md:link #a-part: ok (via ./docs/guide/usage.md)",
            "./snippets/part.md:5 md:link ../docs/guide/gone.md: broken: no such file or directory (via ./docs/guide/usage.md)",
            "./snippets/parts/1-one.md:3 md:link ../../docs/guide/install.md#setup: ok (via ./docs/guide/usage.md)",
            "./snippets/parts/2-two.md:3 md:link ../gone.md: broken: no such file or directory (via ./docs/guide/usage.md)",
        ]
    );
}

#[test]
fn mdbook_links_resolve_as_mdbook_serves_them() {
    let (rows, _, code) = rows(&sample("mdbook"), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        rows,
        [
            "./src/README.md:3 md:link chapter_1.md#details: ok",
            "./src/README.md:4 md:link chapter_1.html#details: ok (mapped)",
            "./src/README.md:5 md:link chapter_1/section.html: ok (mapped)",
            "./src/README.md:6 md:link draft.md: broken: not in SUMMARY.md",
            "./src/README.md:7 md:link chapter_1.md#nope: broken: no anchor '#nope' in the target",
            "./src/README.md:8 md:link /book/chapter_1.html: ok (mapped)",
            // README.md is the book's index.html.
            "./src/README.md:9 md:link index.html#introduction: ok (mapped)",
            "./src/SUMMARY.md:3 md:link README.md: ok",
            "./src/SUMMARY.md:5 md:link chapter_1.md: ok",
            "./src/SUMMARY.md:6 md:link chapter_1/section.md: ok",
            "./src/chapter_1/section.md:3 md:link ../chapter_1.md#details: ok",
            "./src/chapter_1/section.md:3 md:link ../index.html: ok (mapped)",
            // mdBook writes it `README.html`, and serves `index.html`.
            "./src/chapter_1/section.md:5 md:link ../README.md: broken: mdBook serves README.md as index.html, and writes this link as README.html",
            "./src/chapter_1.md:5 md:link ./chapter_1/section.md: ok",
            "./src/chapter_1.md:5 md:link nothing.html: broken: no page at the site URL '/book/nothing.html'",
        ]
    );
}

/// The summary names each site and its configuration; the human and
/// SARIF reports say how a broken link was mapped.
#[test]
fn reports_name_the_site_and_the_mapping() {
    let (out, err, code) = human(&sample("mkdocs"), &["."]);
    assert_eq!(code, 1);
    assert!(err.starts_with("site: mkdocs (mkdocs.yml)\n"), "{err}");
    assert!(
        out.contains("broken link 'guide/usage/#nowhere': no anchor '#nowhere' in the target (mapped from the site URL '/sample/guide/usage/' to 'docs/guide/usage.md')"),
        "{out}"
    );
    let (out, _, _) = human(&sample("mkdocs"), &["--format", "sarif", "."]);
    assert!(
        out.contains("(mapped from the site URL '/sample/guide/usage/'"),
        "{out}"
    );
    let (_, err, _) = human(&sample("mdbook"), &["src"]);
    assert!(err.starts_with("site: mdbook (book.toml)\n"), "{err}");
}

/// `--site github` reads the tree as GitHub shows it, as before: site
/// URLs are paths, no navigation, no site in the summary.
#[test]
fn site_github_keeps_the_file_system_reading() {
    let (github, err, _) = rows(&sample("mkdocs"), &["--site", "github"]);
    assert!(!err.contains("site:"), "{err}");
    assert!(
        github
            .iter()
            .all(|r| !r.contains("(mapped)") && !r.contains("site:nav"))
    );
    assert!(github.contains(&"./docs/index.md:4 md:link guide/usage/: broken: no such file or directory".to_string()), "{github:#?}");
    let (rows_file, _, _) = {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&sample("mkdocs"), dir.path());
        write(dir.path(), "uriscan.toml", "site = \"github\"\n");
        rows(dir.path(), &[])
    };
    assert!(rows_file.iter().all(|r| !r.contains("(mapped)")));
    let (_, err, code) =
        human(&sample("mkdocs"), &["--site", "nonsense", "."]);
    assert_eq!(code, 2, "{err}");
}

/// Pages in a navigation count as linked; a site's configuration and
/// mdBook's SUMMARY.md are never orphans; a chapter in no SUMMARY.md is.
#[test]
fn orphans_know_the_navigation() {
    let (out, _, _) = human(&sample("mkdocs"), &["--orphans", "."]);
    let orphans: Vec<&str> =
        out.lines().filter(|l| l.contains("orphan")).collect();
    // A page exclude_docs leaves out, whose links and nav entry are
    // broken (as a chapter in no SUMMARY.md is below); the theme's
    // template, not a page: no document links it.
    assert_eq!(
        orphans,
        [
            "./docs/drafts/wip.md: orphan: no other document links here",
            "./theme/main.html: orphan: no other document links here"
        ]
    );
    let (out, _, _) = human(&sample("mdbook"), &["--orphans", "."]);
    let orphans: Vec<&str> =
        out.lines().filter(|l| l.contains("orphan")).collect();
    assert_eq!(orphans.len(), 1, "{out}");
    assert!(orphans[0].contains("src/draft.md"), "{out}");
}

/// `--fallback-extensions md` alone lets `x.html` be satisfied by `x.md`,
/// as the help says; `--site mdbook` implies `md,html`.
#[test]
fn fallback_extensions_for_books() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "src/ch01.md",
        "# One\n\n[two](ch02.html#two) [intro](guide/intro)\n",
    );
    write(d, "src/ch02.md", "# Two\n");
    write(d, "src/guide/intro.md", "# Intro\n");
    let (out, _, code) =
        human(d, &["--fallback-extensions", "md", "src/ch01.md"]);
    assert_eq!((out.as_str(), code), ("", 0));
    let (out, _, code) = human(d, &["--site", "github", "src/ch01.md"]);
    assert_eq!((out.lines().count(), code), (2, 1), "{out}");
    let (out, err, code) = human(d, &["--site", "mdbook", "src/ch01.md"]);
    assert_eq!((out.as_str(), code), ("", 0), "{err}");
    assert!(err.starts_with("site: mdbook: no configuration found"), "{err}");
}

/// GitLab's anchors where the git remote is a GitLab host.
#[test]
fn a_gitlab_remote_means_gitlab_anchors() {
    let dir = Dir::new();
    let d = dir.path();
    write(d, "README.md", "# x²\n\n[a](#x²)\n");
    std::fs::create_dir(d.join(".git")).unwrap();
    let (code, out, _) = dir.run(&["check", "."]);
    assert_eq!(code, 1, "GitHub's slug has no ²: {out}");
    write(
        d,
        ".git/config",
        "[remote \"origin\"]\n\turl = git@gitlab.com:o/r.git\n",
    );
    let (code, out, _) = dir.run(&["check", "."]);
    assert_eq!(code, 0, "{out}");
    let (code, _, _) = dir.run(&["check", "--site", "github", "."]);
    assert_eq!(code, 1);
}

/// A configuration that does not parse is an error, and its documents
/// are read as GitHub shows them.
#[test]
fn a_broken_configuration_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "mkdocs.yml", "nav: [a\n  b: : c");
    write(d, "docs/index.md", "# Home\n");
    let (_, err, code) = human(d, &["."]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mkdocs.yml: not read as configuration"), "{err}");
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A link on the site's own URL is checked offline, never fetched: the
/// site URL here is a closed local port, which a fetch would report.
#[cfg(feature = "remote")]
#[test]
fn the_sites_own_urls_are_not_fetched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "mkdocs.yml", "site_name: x\nsite_url: http://127.0.0.1:9/s/\n");
    write(
        d,
        "docs/index.md",
        "# Home\n\n[a](http://127.0.0.1:9/s/a/#part) [b](http://127.0.0.1:9/s/gone/)\n",
    );
    write(d, "docs/a.md", "# A\n\n## Part\n");
    let (rows, err, code) = rows(d, &["--remote"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./docs/index.md:3 md:link http://127.0.0.1:9/s/a/#part: ok (mapped)",
            "./docs/index.md:3 md:link http://127.0.0.1:9/s/gone/: broken: no page at the site URL 'http://127.0.0.1:9/s/gone/'",
        ]
    );
}

/// The models of the generators whose URLs come from front matter and
/// configuration: each sample's every verdict.
#[test]
fn docusaurus_hugo_and_jekyll_links_resolve_as_served() {
    let (rows_docusaurus, err, code) = rows(&sample("docusaurus"), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows_docusaurus,
        [
            "./blog/2021-01-02-hello.md:3 md:link /docs/intro: ok (mapped)",
            "./blog/2021-01-02-hello.md:3 md:link /blog/2021/01/02/hello: ok (mapped)",
            "./docs/01-intro.md:6 md:link guide/install.md#setup: ok",
            "./docs/01-intro.md:7 md:link /docs/guide/install#setup: ok (mapped)",
            "./docs/01-intro.md:8 md:link https://docu.example.org/docs/guide/install: ok (mapped)",
            "./docs/01-intro.md:9 md:link _snippet.md: broken: a partial ('_'-prefixed), not a page",
            "./docs/01-intro.md:10 md:link /docs/guide/nope: broken: no page at the site URL '/docs/guide/nope'",
            "./docs/01-intro.md:11 md:image /img/logo.png: ok (mapped)",
            // An MDX page's anchors: its Markdown, `{#id}` kept.
            "./docs/01-intro.md:12 md:link guide/tabs.mdx#the-tabs: ok",
            "./docs/01-intro.md:12 md:link guide/tabs.mdx#answer: broken: no anchor '#answer' in the target",
            // The partial Tabs imports and renders puts its heading there.
            "./docs/01-intro.md:13 md:link guide/tabs.mdx#shared-part: ok",
            // Its MDX comment id, and a partial imported by `@site/`.
            "./docs/01-intro.md:14 md:link guide/tabs.mdx#shared-id: ok",
            "./docs/01-intro.md:14 md:link guide/tabs.mdx#imported-from-the-sites-folder: ok",
            "./docs/guide/install.md:5 md:link 01-intro.md: ok (mapped)",
            "./docs/guide/install.md:5 md:link ../nothing.md: broken: no such file or directory",
            // Docusaurus renders a level-1 heading without its id.
            "./docs/guide/install.md:6 md:link #install: broken: no anchor '#install' in the target",
            "./docs/guide/install.md:6 md:link /docs/intro#intro: broken: no anchor '#intro' in the target (mapped)",
            // Docusaurus' MDX comment id, `{/* #id */}`, stands for the
            // heading's slug; its HTML comment does not (`.md` is MDX).
            "./docs/guide/install.md:7 md:link tabs.mdx#by-comment: ok",
            "./docs/guide/install.md:11 md:link #notes-: ok",
            "./docs/guide/install.md:11 md:link #notes-id: broken: no anchor '#notes-id' in the target",
            // MDX: imports (a partial is imported, not linked), `<Link
            // to>`, `require`; an expression's text is no link.
            "./docs/guide/tabs.mdx:5 mdx:import ../_snippet.md: ok",
            "./docs/guide/tabs.mdx:6 mdx:import @site/docs/_site_part.mdx: ok (mapped)",
            "./docs/guide/tabs.mdx:7 mdx:import @site/static/img/logo.png: ok (mapped)",
            "./docs/guide/tabs.mdx:8 mdx:import ./gone.png: broken: no such file or directory",
            "./docs/guide/tabs.mdx:14 md:link install.md#setup: ok",
            "./docs/guide/tabs.mdx:15 mdx:link /docs/intro: ok (mapped)",
            "./docs/guide/tabs.mdx:15 mdx:link /docs/nowhere: broken: no page at the site URL '/docs/nowhere'",
            "./docs/guide/tabs.mdx:16 md:link #the-tabs: ok",
            "./docs/guide/tabs.mdx:18 mdx:require ../../static/img/logo.png: ok",
            "./docs/guide/tabs.mdx:19 mdx:require ./missing.png: broken: no such file or directory",
            // The sidebars the configuration names, in JavaScript.
            "./sidebars.js:6 site:nav intro: ok",
            "./sidebars.js:7 site:nav guide/install: ok",
            "./sidebars.js:7 site:nav guide/missing: broken: no such file or directory",
            // The pages plugin.
            "./src/pages/index.md:3 md:link /docs/intro: ok (mapped)",
            "./src/pages/index.md:3 md:link /docs/guide/install#setup: ok (mapped)",
            "./src/pages/index.md:3 md:link /docs/gone: broken: no page at the site URL '/docs/gone'",
        ]
    );
    let (rows_hugo, err, code) = rows(&sample("hugo"), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows_hugo,
        [
            "./content/_index.md:3 md:link /docs/guide/setup-guide/#setup: ok (mapped)",
            "./content/_index.md:4 md:link guide/setup-guide/: ok (mapped)",
            "./content/_index.md:5 md:link /docs/old-install/: ok (mapped)",
            "./content/_index.md:6 md:link posts/bundle/pic.png: ok",
            "./content/_index.md:7 md:image /docs/img/logo.png: ok (mapped)",
            "./content/_index.md:8 md:link https://hugo.example.org/docs/guide/: ok (mapped)",
            "./content/_index.md:9 md:link /docs/guide/install/: broken: no page at the site URL '/docs/guide/install/'",
            // Hugo's ref and relref, found as Hugo 0.111 finds them (a
            // commented-out shortcode is text).
            "./content/_index.md:10 hugo:ref guide/install.md#setup: ok (mapped)",
            "./content/_index.md:11 hugo:relref install: ok (mapped)",
            "./content/_index.md:12 hugo:relref /guide: ok (mapped)",
            "./content/_index.md:13 hugo:ref nothing.md: broken: Hugo's hugo:ref finds no page 'nothing.md'",
            "./content/_index.md:14 hugo:ref guide/install.md#nowhere: broken: no anchor '#nowhere' in the target (mapped)",
            // The site's own shortcodes that read a file by a parameter:
            // `readFile` from the site's folder, `.Resources.Get` from
            // the page's bundle.
            "./content/_index.md:17 hugo:include shared/note.md: ok",
            "./content/guide/install.md:9 md:link ../: ok (mapped)",
            "./content/guide/install.md:9 md:link ../../nothing/: broken: no page at the site URL '/docs/nothing/'",
            "./content/posts/bundle/index.md:3 md:image pic.png: ok",
            "./content/posts/bundle/index.md:5 hugo:include notes.txt: ok",
            "./content/posts/bundle/index.md:6 hugo:include gone.txt: broken: no such file or directory",
        ]
    );
    let (rows_jekyll, err, code) = rows(&sample("jekyll"), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows_jekyll,
        [
            "./_posts/2020-01-02-hello.md:6 md:link /blog/about/: ok (mapped)",
            "./about.md:6 md:link ../: ok (mapped)",
            "./index.md:6 md:link /blog/about/: ok (mapped)",
            "./index.md:7 md:link about/: ok (mapped)",
            "./index.md:8 md:link /blog/2020/01/02/hello/: ok (mapped)",
            "./index.md:9 md:link _drafts/wip.md: broken: not on the site: Jekyll leaves out '_' folders",
            "./index.md:10 md:link https://jekyll.example.org/blog/about/: ok (mapped)",
            "./index.md:11 md:link /blog/nothing/: broken: no page at the site URL '/blog/nothing/'",
            "./index.md:12 md:image /blog/assets/logo.png: ok (mapped)",
            // Jekyll's own link syntax, found as Jekyll finds it (the
            // expected verdicts are Jekyll 4.3's build of the sample).
            "./index.md:13 jekyll:link about.md: ok (mapped)",
            "./index.md:14 jekyll:post_url 2020-01-02-hello: ok (mapped)",
            "./index.md:15 jekyll:url /about/: ok (mapped)",
            "./index.md:16 md:link {{site.baseurl}}/about/: ok (mapped)",
            "./index.md:17 jekyll:url /about/: ok (mapped)",
            "./index.md:18 jekyll:url /gone/: broken: no page at the site URL '/blog/gone/'",
            "./index.md:19 jekyll:link nothing.md: broken: Jekyll's link tag finds no file 'nothing.md' in the site's folder",
            "./index.md:20 jekyll:post_url 2019-01-01-gone: broken: Jekyll's post_url finds no post '2019-01-01-gone'",
        ]
    );
    let (_, err, _) = human(&sample("docusaurus"), &["."]);
    assert!(
        err.starts_with("site: docusaurus (docusaurus.config.js); baseUrl: not a literal, '/' used\n"),
        "{err}"
    );
}

/// Outside a site of their generator (here `--site github`), Hugo's and
/// Jekyll's own links are templates never rendered: skipped, never
/// broken; `links` lists them with their kinds all the same.
#[test]
fn generator_links_elsewhere_are_templates() {
    let (rows, _, _) = rows(&sample("jekyll"), &["--site", "github"]);
    let tags: Vec<&String> = rows
        .iter()
        .filter(|r| r.contains(" jekyll:") || r.contains("{{"))
        .collect();
    assert_eq!(tags.len(), 8, "{rows:#?}");
    assert!(
        tags.iter().all(|r| r.ends_with(": skipped: template")),
        "{tags:#?}"
    );
    let out =
        assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("uriscan"))
            .current_dir(sample("hugo"))
            .args(["links", "--json", "content/_index.md"])
            .output()
            .unwrap();
    let kinds: Vec<(String, String, String)> =
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|r| r["kind"].as_str().unwrap().starts_with("hugo:"))
            .map(|r| {
                let s = |k: &str| r[k].as_str().unwrap().to_string();
                (s("kind"), s("raw"), s("link"))
            })
            .collect();
    assert_eq!(kinds.len(), 5, "{kinds:#?}");
    assert_eq!(
        kinds[0],
        (
            "hugo:ref".into(),
            r#"{{< ref "guide/install.md#setup" >}}"#.into(),
            "guide/install.md#setup".into()
        )
    );
    assert_eq!(kinds[2].0, "hugo:relref");
}

/// Docusaurus' versioned docs: each version's URLs, a source link looked
/// for from its own version's docs root, each version's sidebars.
#[test]
fn docusaurus_versions_are_served_apart() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "docusaurus.config.js",
        "module.exports = { url: 'https://e.org', baseUrl: '/' };\n",
    );
    write(d, "versions.json", "[\"2.0\", \"1.0\"]\n");
    write(
        d,
        "docs/intro.md",
        "# Intro\n\n[v1](/docs/1.0/guide/a) [latest](/docs/intro) [gone](/docs/1.0/gone)\n",
    );
    write(
        d,
        "versioned_docs/version-2.0/intro.md",
        "# Intro\n\n[next](/docs/next/intro)\n",
    );
    write(d, "versioned_docs/version-1.0/intro.md", "# Intro\n");
    write(
        d,
        "versioned_docs/version-1.0/guide/a.md",
        "# A\n\n[intro](intro.md)\n",
    );
    write(
        d,
        "versioned_sidebars/version-1.0-sidebars.json",
        "{\"docs\": [\"intro\",\n \"guide/a\", \"gone\"]}\n",
    );
    let (rows, err, code) = rows(d, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./docs/intro.md:3 md:link /docs/1.0/guide/a: ok (mapped)",
            "./docs/intro.md:3 md:link /docs/intro: ok (mapped)",
            "./docs/intro.md:3 md:link /docs/1.0/gone: broken: no page at the site URL '/docs/1.0/gone'",
            "./versioned_docs/version-1.0/guide/a.md:3 md:link intro.md: ok (mapped)",
            "./versioned_docs/version-2.0/intro.md:3 md:link /docs/next/intro: ok (mapped)",
            // A version's sidebars name its own docs.
            "./versioned_sidebars/version-1.0-sidebars.json:1 site:nav intro: ok",
            "./versioned_sidebars/version-1.0-sidebars.json:2 site:nav guide/a: ok",
            "./versioned_sidebars/version-1.0-sidebars.json:2 site:nav gone: broken: no such file or directory",
        ]
    );
}

/// A malformed MDX file is told, with its place, and the run goes on:
/// the links before the fault are MDX's, the rest Markdown's.
#[test]
fn a_malformed_mdx_file_is_told_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "a.mdx",
        "# A\n\n<Link to=\"b.mdx\">b</Link> {open\n\n[c](c.md)\n",
    );
    write(
        d,
        "b.mdx",
        "import x from './x.png';\n\n# B {#bee}\n\n[a](a.mdx#a)\n",
    );
    write(d, "x.png", "");
    let (rows, err, code) = rows(d, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a.mdx:3:27: not read as MDX: an expression '{' is never closed; the rest read as Markdown"),
        "{err}"
    );
    assert_eq!(
        rows,
        [
            "./a.mdx:3 mdx:link b.mdx: ok",
            "./a.mdx:5 md:link c.md: broken: no such file or directory",
            "./b.mdx:1 mdx:import ./x.png: ok",
            "./b.mdx:5 md:link a.mdx#a: ok",
        ]
    );
}

/// An include may not leave the project's folder, and a cycle of
/// includes ends: the included headings are anchors all the same.
#[test]
fn mkdocs_includes_stay_in_the_project() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "outside.md", "## Outside\n");
    write(d, "site/mkdocs.yml", "site_name: x\n");
    write(
        d,
        "site/docs/index.md",
        "# Home\n\n--8<-- \"inc/a.md\"\n\n--8<-- \"../outside.md\"\n\n[a](#from-a) [b](#from-b) [out](#outside)\n",
    );
    write(d, "site/inc/a.md", "## From A\n\n--8<-- \"inc/b.md\"\n");
    write(d, "site/inc/b.md", "## From B\n\n--8<-- \"inc/a.md\"\n");
    let (rows, err, code) = rows(&d.join("site"), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./docs/index.md:3 mkdocs:snippet inc/a.md: ok (mapped)",
            "./docs/index.md:5 mkdocs:snippet ../outside.md: broken: an include may not leave the project's folder 'site'",
            "./docs/index.md:7 md:link #from-a: ok",
            "./docs/index.md:7 md:link #from-b: ok",
            "./docs/index.md:7 md:link #outside: broken: no anchor '#outside' in the target",
            // A file outside the docs is no page: it is checked where a
            // page includes it, its own directives too.
            "./inc/a.md:3 mkdocs:snippet inc/b.md: ok (mapped) (via ./docs/index.md)",
            "./inc/b.md:3 mkdocs:snippet inc/a.md: ok (mapped) (via ./docs/index.md)",
        ]
    );
}

/// `pymdownx.snippets`' settings in mkdocs.yml: the base paths a snippet
/// is looked up under (and may not climb out of), `check_paths` in the
/// reason of a missing one, a URL with `url_download` skipped, not
/// fetched; the human report names the page a snippet's link was
/// checked on.
#[test]
fn mkdocs_snippet_settings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "mkdocs.yml",
        "site_name: x\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path: [inc]\n      check_paths: true\n      url_download: true\n",
    );
    write(d, "docs/index.md", "# Home\n");
    write(
        d,
        "docs/a/page.md",
        "# Page\n\n--8<-- \"https://127.0.0.1:9/x.md\"\n--8<-- \"s.md\"\n--8<-- \"gone.md\"\n--8<-- \"../mkdocs.yml\"\n",
    );
    write(d, "inc/s.md", "[up](../index.md) [here](#page) [no](#nope)\n");
    let (rows, err, code) = rows(d, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./docs/a/page.md:3 mkdocs:snippet https://127.0.0.1:9/x.md: skipped: downloaded by the build (url_download): not fetched",
            "./docs/a/page.md:4 mkdocs:snippet s.md: ok (mapped)",
            "./docs/a/page.md:5 mkdocs:snippet gone.md: broken: no snippet 'gone.md' under the base path 'inc': the build fails (check_paths)",
            "./docs/a/page.md:6 mkdocs:snippet ../mkdocs.yml: broken: a snippet may not leave its base path 'inc'",
            "./inc/s.md:1 md:link ../index.md: ok (via ./docs/a/page.md)",
            "./inc/s.md:1 md:link #page: ok (via ./docs/a/page.md)",
            "./inc/s.md:1 md:link #nope: broken: no anchor '#nope' in the target (via ./docs/a/page.md)",
        ]
    );
    let (out, _, _) = human(d, &["."]);
    assert!(
        out.contains("./inc/s.md:1:38: broken link '#nope': no anchor '#nope' in the target (included by ./docs/a/page.md)"),
        "{out}"
    );
}

/// Hugo shortcodes of the site's own that read a file or a page by a
/// parameter are links of kind `hugo:include`; a shortcode of another
/// shape is left alone.
#[test]
fn hugo_include_shortcodes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "outside.md", "x\n");
    write(d, "site/hugo.toml", "baseURL = 'https://e.org/'\n");
    write(
        d,
        "site/layouts/shortcodes/page.html",
        "{{ with .Site.GetPage (.Get \"path\") }}{{ .Content }}{{ end }}\n",
    );
    write(
        d,
        "site/layouts/shortcodes/inc.html",
        "{{ readFile (.Get 0) | markdownify }}\n",
    );
    write(
        d,
        "site/layouts/shortcodes/res.html",
        "{{ with .Page.Resources.Get (.Get 0) }}{{ .Content }}{{ end }}\n",
    );
    write(
        d,
        "site/layouts/shortcodes/two.html",
        "{{ readFile (printf \"%s/%s\" (.Get 0) (.Get 1)) }}\n",
    );
    write(d, "site/content/guide/_index.md", "# Guide\n");
    write(d, "site/content/guide/a.md", "# A\n");
    write(
        d,
        "site/content/p.md",
        "# P\n\n{{< page path=\"/guide\" >}}\n{{< page path=\"guide/a\" >}}\n{{< page path=\"guide/none\" >}}\n{{% inc ../outside.md %}}\n{{< res \"x.png\" >}}\n{{< two \"a\" \"b.md\" >}}\n",
    );
    let (rows, err, code) = rows(&d.join("site"), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./content/p.md:3 hugo:include /guide: ok",
            "./content/p.md:4 hugo:include guide/a: ok",
            "./content/p.md:5 hugo:include guide/none: broken: no page 'guide/none' under the content folder (GetPage)",
            "./content/p.md:6 hugo:include ../outside.md: broken: a shortcode may not read outside the site's folder",
            "./content/p.md:7 hugo:include x.png: broken: not a page bundle: the page has no resources",
        ]
    );
}

/// `include-markdown` from a URL is downloaded by the build: skipped,
/// never fetched, never broken (but where `include_from_url` is off,
/// which fails the build); a glob includes every file it matches, in
/// order, and one that matches none fails the build.
#[test]
fn include_markdown_urls_and_globs() {
    let dir = tempfile::tempdir().unwrap();
    let d = &dir.path().join("site");
    write(d, "mkdocs.yml", "site_name: x\nplugins:\n  - include-markdown\n");
    write(
        d,
        "docs/index.md",
        "# Home\n\n{% include-markdown \"https://127.0.0.1:9/x.md\" %}\n{% include-markdown \"parts/*.md\" %}\n{% include-markdown \"parts/*.txt\" %}\n{% include-markdown \"../../*.md\" %}\n\n[b](#from-b) [a](#from-a) [no](#from-c)\n",
    );
    write(d, "docs/parts/b.md", "## From B\n\n[gone](gone.md)\n");
    write(d, "docs/parts/a.md", "## From A\n");
    let (found, err, code) = rows(d, &["--remote"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        found,
        [
            "./docs/index.md:3 mkdocs:include-markdown https://127.0.0.1:9/x.md: skipped: downloaded by the build (include-markdown): not fetched",
            "./docs/index.md:4 mkdocs:include-markdown parts/*.md: ok (mapped)",
            "./docs/index.md:5 mkdocs:include-markdown parts/*.txt: broken: no file matches 'parts/*.txt': the build fails",
            "./docs/index.md:6 mkdocs:include-markdown ../../*.md: broken: an include may not leave the project's folder 'site'",
            "./docs/index.md:8 md:link #from-b: ok",
            "./docs/index.md:8 md:link #from-a: ok",
            "./docs/index.md:8 md:link #from-c: broken: no anchor '#from-c' in the target",
            "./docs/parts/b.md:3 md:link gone.md: broken: no such file or directory",
            "./docs/parts/b.md:3 md:link gone.md: broken: no such file or directory (via ./docs/index.md)",
        ]
    );
    write(
        d,
        "mkdocs.yml",
        "site_name: x\nplugins:\n  - include-markdown:\n      include_from_url: false\n",
    );
    let (off, _, _) = rows(d, &[]);
    assert_eq!(
        off[0],
        "./docs/index.md:3 mkdocs:include-markdown https://127.0.0.1:9/x.md: broken: include_from_url is false: the build fails"
    );
}

/// A sidebars file in TypeScript, where the configuration's
/// `sidebarPath` names it (`require.resolve`, read, never run): its doc
/// ids are entries, a missing one broken, at their lines; the lists in
/// an item's properties name no doc.
#[test]
fn docusaurus_sidebars_in_typescript() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "docusaurus.config.ts",
        "export default { presets: [['classic', { docs: { sidebarPath: require.resolve('./sidebars/main.ts') } }]] };\n",
    );
    write(d, "docs/intro.md", "# Intro\n");
    write(d, "docs/guide/index.md", "# Guide\n");
    write(
        d,
        "sidebars/main.ts",
        "import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';\n\nconst sidebars: SidebarsConfig = {\n  docs: [\n    'intro',\n    {\n      type: 'category',\n      label: 'Guide',\n      link: {type: 'doc', id: 'guide/index'},\n      className: 'wide',\n      customProps: {badges: ['new']},\n      items: [{type: 'doc', id: 'guide/gone'}],\n    },\n  ],\n};\n\nexport default sidebars;\n",
    );
    let (found, err, code) = rows(d, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        found,
        [
            "./sidebars/main.ts:5 site:nav intro: ok",
            "./sidebars/main.ts:9 site:nav guide/index: ok",
            "./sidebars/main.ts:12 site:nav guide/gone: broken: no such file or directory",
        ]
    );
}

/// The walk hands the checker the Docusaurus partials it read, so that a
/// page's anchors read none again; one it decoded from UTF-16 is not
/// handed over, and its page's anchors come from the file's own bytes, as
/// they always did (the same verdicts as a run that reads it twice, and
/// as Docusaurus, whose loader reads every file as UTF-8, finds none).
#[test]
fn docusaurus_partials_kept_as_the_file_has_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "docusaurus.config.js",
        "module.exports = { url: 'https://x.org', baseUrl: '/' };\n",
    );
    write(
        d,
        "docs/page.mdx",
        "import Plain from './_plain.md';\nimport Wide from './_wide.md';\n\n# Page\n\n<Plain />\n\n<Wide />\n",
    );
    write(d, "docs/_plain.md", "## Plain\n");
    let wide: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("## Wide\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    std::fs::write(d.join("docs/_wide.md"), wide).unwrap();
    write(
        d,
        "docs/index.md",
        "# Home\n\n[p](page.mdx#plain) [w](page.mdx#wide)\n",
    );
    let (rows, err, code) = rows(d, &["--site", "docusaurus"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./docs/index.md:3 md:link page.mdx#plain: ok",
            "./docs/index.md:3 md:link page.mdx#wide: broken: no anchor '#wide' in the target",
            "./docs/page.mdx:1 mdx:import ./_plain.md: ok",
            "./docs/page.mdx:2 mdx:import ./_wide.md: ok",
        ]
    );
}

/// A page's anchors, named while the walk reads its links, are those of
/// the site that builds it: an MkDocs site met only when the walk
/// reaches it, its page linked from a README tree read as GitHub shows
/// it; and where a nearer site (an mdBook book beside the page) leaves
/// the page to the MkDocs site above, which the walk learns only once
/// the whole tree is read.
#[test]
fn a_pages_anchors_are_its_sites_wherever_the_walk_met_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fragments = ["usage_1", "usage-1", "custom", "title-custom"];
    let mut readme = String::from("# Readme\n\n");
    for page in ["sub/docs/page.md", "sub/docs/guide/other.md"] {
        for f in fragments {
            readme += &format!("[{f}]({page}#{f})\n");
        }
    }
    write(d, "README.md", &readme);
    write(d, "sub/mkdocs.yml", "site_name: S\n");
    let page = "# Title {#custom}\n\n## Usage\n\n## Usage\n";
    write(d, "sub/docs/page.md", page);
    write(d, "sub/docs/guide/book.toml", "[book]\ntitle = \"B\"\n");
    write(d, "sub/docs/guide/src/SUMMARY.md", "# Summary\n");
    write(d, "sub/docs/guide/other.md", page);
    let (rows, err, code) = rows(d, &[]);
    assert_eq!(code, 1, "{err}");
    let mut want = vec![];
    for (line, page) in
        [(3, "sub/docs/page.md"), (7, "sub/docs/guide/other.md")]
    {
        for (i, f) in fragments.into_iter().enumerate() {
            let status = match f {
                "usage_1" | "custom" => "ok".to_owned(),
                _ => format!("broken: no anchor '#{f}' in the target"),
            };
            want.push(format!(
                "./README.md:{} md:link {page}#{f}: {status}",
                line + i
            ));
        }
    }
    let got: Vec<&String> =
        rows.iter().filter(|r| r.starts_with("./README.md")).collect();
    assert_eq!(got, want.iter().collect::<Vec<_>>(), "{rows:#?}");
}

/// A Docusaurus page's `{#custom}` ids, named as the walk reads it: the
/// id alone, and none for a level-1 heading (GitHub's style would give
/// `title-custom` and `intro` too).
#[test]
fn a_docusaurus_pages_custom_ids_are_docusaurus() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "README.md",
        "# R\n\n[a](site/docs/page.md#custom) [b](site/docs/page.md#title-custom)\n\
         [c](site/docs/page.md#intro) [d](site/docs/page.md#more)\n",
    );
    write(
        d,
        "site/docusaurus.config.js",
        "module.exports = { url: 'https://e.org', baseUrl: '/' };\n",
    );
    write(
        d,
        "site/docs/page.md",
        "# Intro\n\n## Title {#custom}\n\n## More {/* #more */}\n",
    );
    let (rows, err, code) = rows(d, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        rows,
        [
            "./README.md:3 md:link site/docs/page.md#custom: ok",
            "./README.md:3 md:link site/docs/page.md#title-custom: broken: no anchor '#title-custom' in the target",
            "./README.md:4 md:link site/docs/page.md#intro: broken: no anchor '#intro' in the target",
            "./README.md:4 md:link site/docs/page.md#more: ok",
        ]
    );
}
