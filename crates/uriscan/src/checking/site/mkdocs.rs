//! MkDocs: `docs_dir` (default `docs`), `use_directory_urls` (default
//! true), `site_url`, `nav`, and the `toc` extension's `slugify`.
//!
//! Every Markdown file under docs_dir is a page (but for dot files, which
//! MkDocs' `exclude_docs` default leaves out), every other file is copied
//! as it is. `index.md`, or `README.md` when there is no `index.md`,
//! stands for its directory.

use std::path::Path;

use super::includes::Includes;
use super::nav::Entry;
use super::url::{extension, is_markdown_ext, strip_extension};
use super::yaml::{self, Node, Value};
use super::{AnchorSettings, Loaded, Rules};

/// MkDocs' URL rules.
#[derive(Debug)]
pub(crate) struct Mkdocs {
    directory_urls: bool,
    /// Its include extensions' rules.
    includes: Option<Includes>,
}

pub(crate) fn load(dir: &Path, text: &str) -> Result<Loaded, String> {
    let config = yaml::parse(text)?;
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
    Ok(Loaded {
        sources,
        site_url,
        rules: Box::new(Mkdocs { directory_urls, includes }),
        nav,
        nav_file: None,
        other_navs: vec![],
        notes: vec![],
        anchors,
    })
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
        rel.split('/')
            .any(|s| s.starts_with('.'))
            .then(|| "not on the site: MkDocs leaves out dot files".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MkDocs' URL of each source (mkdocs.structure.files.File.url).
    #[test]
    fn page_urls() {
        let dirs = Mkdocs { directory_urls: true, includes: None };
        let flat = Mkdocs { directory_urls: false, includes: None };
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
        let dirs = Mkdocs { directory_urls: true, includes: None };
        assert_eq!(dirs.sources_of("a/b/")[0], "a/b.md");
        assert!(dirs.sources_of("a/b/").contains(&"a/b/index.md".into()));
        assert!(dirs.sources_of("").contains(&"README.md".into()));
        assert!(dirs.sources_of("a/b").contains(&"a/b.md".into()));
        assert_eq!(dirs.sources_of("img/x.png")[0], "img/x.png");
        assert!(dirs.sources_of("a/b.md").is_empty());
        let flat = Mkdocs { directory_urls: false, includes: None };
        assert_eq!(flat.sources_of("a/b.html")[0], "a/b.md");
        assert!(flat.sources_of("index.html").contains(&"README.md".into()));
    }

    #[test]
    fn configuration_keys() {
        let text = "docs_dir: text\nuse_directory_urls: false\nsite_url: https://e.org/p/\nnav:\n  - Home: index.md\n  - Guide:\n    - guide/a.md\n    - Ext: https://e.com/\nmarkdown_extensions:\n  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify\n        kwds:\n          case: lower\n";
        let l = load(Path::new("/r"), text).unwrap();
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
}
