//! MkDocs: `docs_dir` (default `docs`), `use_directory_urls` (default
//! true), `site_url`, `nav`, and the `toc` extension's `slugify`.
//!
//! Every Markdown file under docs_dir is a page, every other file is
//! copied as it is, but for those `exclude_docs` and `draft_docs` leave
//! out (gitignore patterns under docs_dir, after MkDocs' own `.*` and
//! `/templates/`): a link to one is broken, as MkDocs 1.6 says ("excluded
//! from the built site"); `not_in_nav` only quiets the navigation's
//! warning. `index.md`, or `README.md` when there is no `index.md`,
//! stands for its directory.
//!
//! `INHERIT: base.yml` merges the configuration over the file it names
//! (relative to its own folder, read only inside the project, a chain
//! followed and a cycle cut), mappings key by key and anything else
//! replaced, as MkDocs' `mergedeep` does; the paths in it stay relative
//! to the configuration that was loaded.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::includes::{Includes, confined, lexical};
use super::nav::Entry;
use super::url::{extension, is_markdown_ext, strip_extension};
use super::yaml::{self, Node, Value};
use super::{AnchorSettings, Loaded, Rules};

/// How many configurations an `INHERIT` chain reads at most.
const MAX_INHERITED: usize = 8;

/// MkDocs' URL rules.
#[derive(Debug)]
pub(crate) struct Mkdocs {
    directory_urls: bool,
    /// Its include extensions' rules.
    includes: Option<Includes>,
    /// The sources it leaves out of the build.
    excluded: Excluded,
}

/// The sources MkDocs leaves out: `exclude_docs` (after its defaults)
/// and `draft_docs`, each a gitignore spec matched against a source's
/// path under docs_dir.
#[derive(Debug, Default)]
struct Excluded {
    exclude: Option<Gitignore>,
    drafts: Option<Gitignore>,
}

impl Excluded {
    /// The two specs of `config`; a pattern that does not read is said
    /// in `notes`.
    fn read(config: &Node, notes: &mut Vec<String>) -> Excluded {
        Excluded {
            exclude: spec(config, "exclude_docs", "/templates/\n", notes),
            drafts: spec(config, "draft_docs", "", notes),
        }
    }

    /// Why the source `rel` is left out of the build, when it is.
    fn why(&self, rel: &str) -> Option<String> {
        let rel = rel.trim_start_matches('/');
        let hit = |spec: &Option<Gitignore>| {
            spec.as_ref().is_some_and(|g| {
                g.matched_path_or_any_parents(rel, false).is_ignore()
            })
        };
        let key = if hit(&self.exclude) {
            "exclude_docs"
        } else if hit(&self.drafts) {
            "draft_docs"
        } else {
            return None;
        };
        Some(format!("not on the site: excluded from the built site ({key})"))
    }
}

/// The gitignore spec of the key `key` (a multi-line string), after the
/// lines `defaults`; `None` when it has no pattern.
fn spec(
    config: &Node,
    key: &str,
    defaults: &str,
    notes: &mut Vec<String>,
) -> Option<Gitignore> {
    let written = match config.get(key) {
        None | Some(Node { value: Value::Null, .. }) => "",
        Some(n) => match n.as_str() {
            Some(s) => s,
            None => {
                notes.push(format!("{key}: not a string, not read"));
                ""
            }
        },
    };
    let mut builder = GitignoreBuilder::new("");
    let mut any = false;
    for line in defaults.lines().chain(written.lines()) {
        match builder.add_line(None, line) {
            Ok(_) => any |= !line.trim().is_empty(),
            Err(e) => notes.push(format!("{key}: '{line}' not read: {e}")),
        }
    }
    if !any {
        return None;
    }
    builder.build().map_err(|e| notes.push(format!("{key}: {e}"))).ok()
}

pub(crate) fn load(
    config_file: &Path,
    text: &str,
    top: &Path,
) -> Result<Loaded, String> {
    let dir = config_file.parent().unwrap_or(Path::new(""));
    let mut notes = vec![];
    let (config, nav_file) =
        inherited(config_file, yaml::parse(text)?, top, &mut notes);
    let docs_dir =
        config.get("docs_dir").and_then(Node::as_str).unwrap_or("docs");
    let directory_urls = config
        .get("use_directory_urls")
        .and_then(Node::as_bool)
        .unwrap_or(true);
    let site_url = config
        .get("site_url")
        .and_then(Node::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string);
    let mut nav = vec![];
    if let Some(n) = config.get("nav") {
        nav_entries(n, &mut nav);
    }
    let anchors = AnchorSettings {
        mkdocs_toc_slugify: toc_slugify(&config),
        ..Default::default()
    };
    let sources = dir.join(docs_dir);
    let includes = Some(Includes::read(dir, &sources, &config));
    let excluded = Excluded::read(&config, &mut notes);
    Ok(Loaded {
        sources,
        site_url,
        rules: Box::new(Mkdocs { directory_urls, includes, excluded }),
        nav,
        nav_file,
        other_navs: vec![],
        notes,
        anchors,
    })
}

/// The configuration `config` of the file `file` merged over the files
/// its `INHERIT` chain names, each inside `top`; and the file the `nav`
/// came from, when it is not `file`. What cannot be read is said in
/// `notes`, and the chain ends there, as the rest of it is unknown.
fn inherited(
    file: &Path,
    config: Node,
    top: &Path,
    notes: &mut Vec<String>,
) -> (Node, Option<PathBuf>) {
    let mut chain = vec![(file.to_path_buf(), config)];
    while chain.len() <= MAX_INHERITED {
        let (at, node) = chain.last().expect("the chain starts with one");
        let Some(written) = node.get("INHERIT").and_then(Node::as_str) else {
            break;
        };
        let written = written.to_string();
        let dir = at.parent().unwrap_or(Path::new(""));
        let Some(parent) =
            lexical(dir, Path::new(&written)).and_then(|p| confined(p, top))
        else {
            notes.push(format!(
                "INHERIT: '{written}' is outside the project, not read"
            ));
            break;
        };
        if chain.iter().any(|(p, _)| *p == parent) {
            notes.push(format!("INHERIT: '{written}' is a cycle, cut"));
            break;
        }
        let read = std::fs::read(&parent)
            .map_err(|e| e.kind().to_string())
            .and_then(|b| yaml::parse(&String::from_utf8_lossy(&b)));
        match read {
            Ok(node) => chain.push((parent, node)),
            Err(e) => {
                notes.push(format!("INHERIT: '{written}' not read: {e}"));
                break;
            }
        }
    }
    let nav_file = chain
        .iter()
        .position(|(_, n)| n.get("nav").is_some())
        .filter(|&i| i > 0)
        .map(|i| chain[i].0.clone());
    let merged = chain
        .into_iter()
        .rev()
        .map(|(_, n)| n)
        .reduce(merge)
        .unwrap_or_default();
    (without_inherit(merged), nav_file)
}

/// `child` over `parent`: mappings merged key by key, anything else of
/// the child's replacing the parent's.
fn merge(parent: Node, child: Node) -> Node {
    let Node { line, tag, value } = child;
    let value = match (parent.value, value) {
        (Value::Map(mut base), Value::Map(over)) => {
            for (key, v) in over {
                match base.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, slot)) => {
                        let old = std::mem::take(slot);
                        *slot = merge(old, v);
                    }
                    None => base.push((key, v)),
                }
            }
            Value::Map(base)
        }
        (_, value) => value,
    };
    Node { line, tag, value }
}

/// The configuration without its `INHERIT` key, which MkDocs pops.
fn without_inherit(mut config: Node) -> Node {
    if let Value::Map(entries) = &mut config.value {
        entries.retain(|(k, _)| k != "INHERIT");
    }
    config
}

/// The `nav` tree's links, in order: `- a.md`, `- Title: a.md`, and the
/// sections' own lists (without recursion: the tree may be deep).
fn nav_entries(nav: &Node, out: &mut Vec<Entry>) {
    let mut stack = vec![nav];
    let mut found = vec![];
    while let Some(n) = stack.pop() {
        match &n.value {
            Value::Str(s) => found.push(Entry::path(n.line, s)),
            Value::Seq(items) => stack.extend(items.iter().rev()),
            Value::Map(entries) => {
                stack.extend(entries.iter().rev().map(|(_, v)| v))
            }
            Value::Null => {}
        }
    }
    out.extend(found);
}

/// `markdown_extensions` → `toc` → `slugify`: tag and `kwds`.
fn toc_slugify(config: &Node) -> Option<(String, Vec<(String, String)>)> {
    let exts = config.get("markdown_extensions")?;
    let toc = match &exts.value {
        Value::Seq(items) => items.iter().find_map(|e| e.get("toc")),
        Value::Map(_) => exts.get("toc"),
        _ => None,
    }?;
    let slugify = toc.get("slugify")?;
    let name = slugify
        .tag
        .clone()
        .or_else(|| slugify.as_str().map(str::to_string))?;
    let kwds = slugify
        .get("kwds")
        .map(|k| {
            k.as_map()
                .iter()
                .map(|(k, v)| {
                    (k.clone(), v.as_str().unwrap_or("").to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    Some((name, kwds))
}

impl Rules for Mkdocs {
    /// `a/b.md` is `a/b/` (`a/b.html` without directory URLs);
    /// `a/index.md` and `a/README.md` are `a/`.
    fn url_of(&self, rel: &str) -> Option<String> {
        let ext = extension(rel);
        if !ext.as_deref().is_some_and(is_markdown_ext) {
            return Some(rel.to_string());
        }
        let stem = strip_extension(rel);
        let (dir, name) = match stem.rfind('/') {
            Some(i) => (&stem[..=i], &stem[i + 1..]),
            None => ("", stem),
        };
        Some(if name == "index" || name == "README" {
            if self.directory_urls {
                dir.to_string()
            } else {
                format!("{dir}index.html")
            }
        } else if self.directory_urls {
            format!("{stem}/")
        } else {
            format!("{stem}.html")
        })
    }

    fn sources_of(&self, url: &str) -> Vec<String> {
        let mut out = vec![];
        // Every site URL a page links to asks: no formatting machinery.
        let dir_of = |d: &str, out: &mut Vec<String>| {
            let slash = if d.is_empty() { "" } else { "/" };
            if self.directory_urls && !d.is_empty() {
                out.push([d, ".md"].concat());
            }
            for name in ["index.md", "README.md", "index.html"] {
                out.push([d, slash, name].concat());
            }
        };
        if url.is_empty() || url.ends_with('/') {
            dir_of(url.trim_end_matches('/'), &mut out);
            return out;
        }
        match extension(url).as_deref() {
            Some("html" | "htm") => {
                let stem = strip_extension(url);
                let (d, name) = match stem.rfind('/') {
                    Some(i) => (&stem[..i], &stem[i + 1..]),
                    None => ("", stem),
                };
                if name == "index" {
                    dir_of(d, &mut out);
                } else if !self.directory_urls {
                    out.push(format!("{stem}.md"));
                }
                out.push(url.to_string());
            }
            Some(e) if is_markdown_ext(e) => {}
            // A file copied as it is, or a directory's URL without its
            // slash (the server redirects to it).
            _ => {
                out.push(url.to_string());
                dir_of(url, &mut out);
            }
        }
        out
    }

    fn includes(&self) -> Option<&Includes> {
        self.includes.as_ref()
    }

    fn not_on_site(&self, rel: &str) -> Option<String> {
        if rel.split('/').any(|s| s.starts_with('.')) {
            return Some(
                "not on the site: MkDocs leaves out dot files".into(),
            );
        }
        self.excluded.why(rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkdocs(directory_urls: bool) -> Mkdocs {
        Mkdocs {
            directory_urls,
            includes: None,
            excluded: Excluded::default(),
        }
    }

    /// MkDocs' URL of each source (mkdocs.structure.files.File.url).
    #[test]
    fn page_urls() {
        let dirs = mkdocs(true);
        let flat = mkdocs(false);
        for (src, with_dirs, without) in [
            ("index.md", "", "index.html"),
            ("README.md", "", "index.html"),
            ("a/b.md", "a/b/", "a/b.html"),
            ("a/index.md", "a/", "a/index.html"),
            ("a/README.md", "a/", "a/index.html"),
            ("img/x.png", "img/x.png", "img/x.png"),
        ] {
            assert_eq!(dirs.url_of(src).as_deref(), Some(with_dirs), "{src}");
            assert_eq!(flat.url_of(src).as_deref(), Some(without), "{src}");
        }
    }

    #[test]
    fn url_to_sources() {
        let dirs = mkdocs(true);
        assert_eq!(dirs.sources_of("a/b/")[0], "a/b.md");
        assert!(dirs.sources_of("a/b/").contains(&"a/b/index.md".into()));
        assert!(dirs.sources_of("").contains(&"README.md".into()));
        assert!(dirs.sources_of("a/b").contains(&"a/b.md".into()));
        assert_eq!(dirs.sources_of("img/x.png")[0], "img/x.png");
        assert!(dirs.sources_of("a/b.md").is_empty());
        let flat = mkdocs(false);
        assert_eq!(flat.sources_of("a/b.html")[0], "a/b.md");
        assert!(flat.sources_of("index.html").contains(&"README.md".into()));
    }

    #[test]
    fn configuration_keys() {
        let text = "docs_dir: text\nuse_directory_urls: false\nsite_url: https://e.org/p/\nnav:\n  - Home: index.md\n  - Guide:\n    - guide/a.md\n    - Ext: https://e.com/\nmarkdown_extensions:\n  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify\n        kwds:\n          case: lower\n";
        let l =
            load(Path::new("/r/mkdocs.yml"), text, Path::new("/r")).unwrap();
        assert_eq!(l.sources, Path::new("/r/text"));
        assert_eq!(l.site_url.as_deref(), Some("https://e.org/p/"));
        let nav: Vec<&str> =
            l.nav.iter().map(|e| e.written.as_str()).collect();
        assert_eq!(nav, ["index.md", "guide/a.md", "https://e.com/"]);
        assert_eq!(l.nav[0].line, 5);
        assert_eq!(
            l.anchors.mkdocs_toc_slugify,
            Some((
                "python/object/apply:pymdownx.slugs.slugify".into(),
                vec![("case".into(), "lower".into())]
            ))
        );
        assert_eq!(l.rules.url_of("a.md").as_deref(), Some("a.html"));
    }

    /// `exclude_docs` and `draft_docs` as MkDocs 1.6 matches them
    /// (pathspec's `GitIgnoreSpec`, after the defaults `.*` and
    /// `/templates/`; each verdict below is pathspec 0.12's); `not_in_nav`
    /// leaves a page on the site.
    #[test]
    fn excluded_sources() {
        let config = yaml::parse("exclude_docs: |\n  drafts/\n  *.tmp.md\n  !drafts/keep.md\n  /api/**/*.md\ndraft_docs: |\n  wip-*.md\nnot_in_nav: |\n  hidden.md\n").unwrap();
        let mut notes = vec![];
        let m = Mkdocs {
            directory_urls: true,
            includes: None,
            excluded: Excluded::read(&config, &mut notes),
        };
        assert!(notes.is_empty(), "{notes:?}");
        let excluded = Some(
            "not on the site: excluded from the built site (exclude_docs)",
        );
        for (rel, want) in [
            ("drafts/a.md", excluded),
            ("drafts/keep.md", None),
            ("x.tmp.md", excluded),
            ("a/x.tmp.md", excluded),
            ("templates/x.md", excluded),
            ("a/templates/x.md", None),
            ("a/drafts/b.md", excluded),
            ("api/x.md", excluded),
            ("api/v1/x.md", excluded),
            ("api/x.png", None),
            ("hidden.md", None),
            (
                "wip-1.md",
                Some(
                    "not on the site: excluded from the built site (draft_docs)",
                ),
            ),
            (".x.md", Some("not on the site: MkDocs leaves out dot files")),
            (
                "a/.b/c.md",
                Some("not on the site: MkDocs leaves out dot files"),
            ),
        ] {
            assert_eq!(m.not_on_site(rel).as_deref(), want, "{rel}");
        }
        // Not a string: said, and only the defaults apply.
        let config = yaml::parse("exclude_docs: [a.md]\n").unwrap();
        let excluded = Excluded::read(&config, &mut notes);
        assert_eq!(notes, ["exclude_docs: not a string, not read"]);
        assert!(excluded.why("a.md").is_none());
        assert!(excluded.why("templates/a.md").is_some());
    }

    /// `INHERIT`: the parent's keys under the child's, mappings merged,
    /// lists replaced, paths relative to the child; the parent's `nav`
    /// in its own file; a chain read only inside the project, a cycle
    /// cut, a missing file said.
    #[test]
    fn inherited_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        let write =
            |f: &str, body: &str| super::super::write_test_file(top, f, body);
        write(
            "base.yml",
            "site_url: https://p.org/x/\nuse_directory_urls: false\nnav:\n  - a.md\ntheme:\n  name: material\n  features: [a, c]\nexclude_docs: |\n  drafts/\n",
        );
        let child =
            "INHERIT: ../base.yml\ndocs_dir: text\ntheme:\n  features: [b]\n";
        write("site/mkdocs.yml", child);
        let file = top.join("site/mkdocs.yml");
        let l = load(&file, child, top).unwrap();
        assert!(l.notes.is_empty(), "{:?}", l.notes);
        assert_eq!(l.sources, top.join("site/text"));
        assert_eq!(l.site_url.as_deref(), Some("https://p.org/x/"));
        assert_eq!(l.rules.url_of("a.md").as_deref(), Some("a.html"));
        assert!(l.rules.not_on_site("drafts/a.md").is_some());
        assert_eq!(
            l.nav_file.as_deref(),
            Some(top.join("base.yml").as_path())
        );
        assert_eq!((l.nav[0].line, l.nav[0].written.as_str()), (4, "a.md"));
        let mut notes = vec![];
        let (merged, _) =
            inherited(&file, yaml::parse(child).unwrap(), top, &mut notes);
        let theme = merged.get("theme").unwrap();
        assert_eq!(theme.get("name").and_then(Node::as_str), Some("material"));
        let features: Vec<&str> = theme
            .get("features")
            .unwrap()
            .as_seq()
            .iter()
            .filter_map(Node::as_str)
            .collect();
        assert_eq!(features, ["b"]);
        assert!(merged.get("INHERIT").is_none());
        // The child's own nav is in its own file.
        let own = format!("{child}nav: [b.md]\n");
        assert_eq!(load(&file, &own, top).unwrap().nav_file, None);

        // Outside the project: not read.
        let l = load(&file, child, &top.join("site")).unwrap();
        assert_eq!(
            l.notes,
            ["INHERIT: '../base.yml' is outside the project, not read"]
        );
        assert_eq!(l.site_url, None);
        // A cycle, cut where it closes; the files before it are read.
        write("a.yml", "INHERIT: b.yml\n");
        write("b.yml", "INHERIT: a.yml\nsite_url: https://c.org/\n");
        let l =
            load(&top.join("mkdocs.yml"), "INHERIT: a.yml\n", top).unwrap();
        assert_eq!(l.notes, ["INHERIT: 'a.yml' is a cycle, cut"]);
        assert_eq!(l.site_url.as_deref(), Some("https://c.org/"));
        // A missing file: said.
        let l =
            load(&top.join("mkdocs.yml"), "INHERIT: gone.yml\n", top).unwrap();
        assert_eq!(
            l.notes,
            ["INHERIT: 'gone.yml' not read: entity not found"]
        );
    }
}
