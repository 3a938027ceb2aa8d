//! mdBook: the sources under `book.src` (default `src`), the chapters
//! that `SUMMARY.md` lists, `.md` served as `.html`, `README.md` as its
//! directory's `index.html` (mdBook's `index` preprocessor), the first
//! chapter also as the book's `index.html`, and every other file under
//! the sources copied as it is. `output.html.site-url` is the path the
//! book is served under.

use std::collections::HashSet;
use std::path::Path;

use super::url::{self, extension, is_markdown_ext, strip_extension};
use super::yaml::{self, Node};
use super::{AnchorSettings, Loaded, Rules};
use crate::links::{Format, LinkExtractor, Page, percent_decode};

/// mdBook's URL rules.
#[derive(Debug)]
pub(crate) struct Mdbook {
    /// The chapters SUMMARY.md lists; `None` when it could not be read.
    chapters: Option<HashSet<String>>,
    first: Option<String>,
}

pub(crate) fn load(dir: &Path, text: &str) -> Result<Loaded, String> {
    let config = yaml::parse_toml(text)?;
    let src = config
        .get("book")
        .and_then(|b| b.get("src"))
        .and_then(Node::as_str)
        .unwrap_or("src");
    let site_url = config
        .get("output")
        .and_then(|o| o.get("html"))
        .and_then(|h| h.get("site-url"))
        .and_then(Node::as_str)
        .map(str::to_string);
    let sources = dir.join(src);
    let mut notes = vec![];
    let (chapters, first) = match std::fs::read(sources.join("SUMMARY.md")) {
        Ok(summary) => {
            let list = chapters_of(&summary);
            let first = list.first().cloned();
            (Some(list.into_iter().collect()), first)
        }
        Err(e) => {
            notes.push(format!(
                "{src}/SUMMARY.md: {}; every chapter taken as rendered",
                e.kind()
            ));
            (None, None)
        }
    };
    Ok(Loaded {
        sources,
        site_url,
        rules: Box::new(Mdbook { chapters, first }),
        nav: vec![],
        nav_file: None,
        other_navs: vec![],
        notes,
        anchors: AnchorSettings::default(),
    })
}

/// The chapters a SUMMARY.md links, in order, as paths under the sources
/// (a draft chapter, `[Title]()`, has none).
fn chapters_of(summary: &[u8]) -> Vec<String> {
    let page = Page::new(summary, Format::Markdown);
    let mut out = vec![];
    LinkExtractor::new().for_each(&page, |l| {
        let (path, _) = url::split_link(l.link());
        if path.is_empty() || path.contains(':') {
            return;
        }
        if let Some(p) = url::normalize(&percent_decode(path), false) {
            out.push(p);
        }
    });
    out
}

impl Rules for Mdbook {
    /// `a/b.md` is `a/b.html`; `a/README.md` is `a/index.html`.
    fn url_of(&self, rel: &str) -> Option<String> {
        if !extension(rel).as_deref().is_some_and(is_markdown_ext) {
            return Some(rel.to_string());
        }
        let stem = strip_extension(rel);
        let (dir, name) = match stem.rfind('/') {
            Some(i) => (&stem[..=i], &stem[i + 1..]),
            None => ("", stem),
        };
        Some(if name == "README" {
            format!("{dir}index.html")
        } else {
            format!("{stem}.html")
        })
    }

    fn sources_of(&self, url: &str) -> Vec<String> {
        let url = if url.is_empty() || url.ends_with('/') {
            format!("{url}index.html")
        } else {
            url.to_string()
        };
        let mut out = vec![];
        match extension(&url).as_deref() {
            Some("html") => {
                let stem = strip_extension(&url);
                out.push(format!("{stem}.md"));
                if let Some(dir) = stem.strip_suffix("index") {
                    out.push(format!("{dir}README.md"));
                    if dir.is_empty()
                        && let Some(first) = &self.first
                    {
                        out.push(first.clone());
                    }
                }
                out.push(url.clone());
            }
            Some(e) if is_markdown_ext(e) => {}
            _ => out.push(url.clone()),
        }
        out
    }

    /// A link to a `README.md` chapter is rewritten to `README.html`,
    /// which mdBook does not write (the chapter is `index.html`).
    fn source_link_broken(&self, rel: &str) -> Option<String> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        (name == "README.md").then(|| {
            "mdBook serves README.md as index.html, and writes this link as README.html".into()
        })
    }

    /// A chapter SUMMARY.md leaves out is not rendered.
    fn not_on_site(&self, rel: &str) -> Option<String> {
        let chapters = self.chapters.as_ref()?;
        let is_md = extension(rel).as_deref().is_some_and(is_markdown_ext);
        (is_md && rel != "SUMMARY.md" && !chapters.contains(rel))
            .then(|| "not in SUMMARY.md".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapters_and_urls() {
        let summary = b"# Summary\n\n[Intro](README.md)\n\n- [A](a/b.md#x)\n  - [C](./c%20d.md)\n- [Draft]()\n- [Web](https://e.org/)\n";
        let list = chapters_of(summary);
        assert_eq!(list, ["README.md", "a/b.md", "c d.md"]);
        let book = Mdbook {
            chapters: Some(list.into_iter().collect()),
            first: Some("README.md".into()),
        };
        assert_eq!(book.url_of("a/b.md").as_deref(), Some("a/b.html"));
        assert_eq!(book.url_of("README.md").as_deref(), Some("index.html"));
        assert_eq!(
            book.url_of("a/README.md").as_deref(),
            Some("a/index.html")
        );
        assert_eq!(book.url_of("img/x.png").as_deref(), Some("img/x.png"));
        assert_eq!(book.sources_of("a/b.html")[0], "a/b.md");
        assert!(book.sources_of("").contains(&"README.md".into()));
        assert!(book.sources_of("a/").contains(&"a/README.md".into()));
        assert_eq!(book.not_on_site("a/b.md"), None);
        assert_eq!(
            book.not_on_site("z.md").as_deref(),
            Some("not in SUMMARY.md")
        );
        assert_eq!(book.not_on_site("img/x.png"), None);
        assert_eq!(book.not_on_site("SUMMARY.md"), None);
        assert_eq!(book.not_on_site("README.md"), None);
        assert!(
            book.source_link_broken("a/README.md")
                .unwrap()
                .contains("index.html")
        );
    }
}
