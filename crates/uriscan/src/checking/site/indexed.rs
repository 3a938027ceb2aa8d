//! URL rules as tables, for the generators whose URLs depend on front
//! matter (Docusaurus, Hugo, Jekyll): each loader lists its sources once,
//! when its site is found, and fills the tables.

use std::collections::HashMap;
use std::path::Path;

use super::front_matter::front_matter;
use super::url::{extension, is_markdown_ext};
use super::yaml::Node;
use super::{Named, Rules};
use crate::links::GeneratorKind;

/// The tables.
#[derive(Debug, Default)]
pub(crate) struct Indexed {
    /// A page source's URL.
    urls: HashMap<String, String>,
    /// A page's URL (as [`url_key`] gives it) to its source.
    pages: HashMap<String, String>,
    /// Folders copied as they are: source prefix, URL prefix.
    copied: Vec<(String, String)>,
    /// Sources that are not pages, and why.
    not_pages: Vec<(String, String)>,
    /// Whose own link syntax the pages are written in.
    syntax: Syntax,
}

/// Whose own link syntax (Hugo's `ref`, Jekyll's `link`) a site's pages
/// may hold, and what it needs to resolve.
#[derive(Debug, Default)]
pub(crate) enum Syntax {
    /// None of it.
    #[default]
    Plain,
    /// Hugo's, with its content folder (under the sources).
    Hugo {
        /// `contentDir`, no slash at its ends.
        content: String,
        /// The site's include shortcodes.
        shortcodes: super::hugo_includes::Shortcodes,
    },
    /// Jekyll's.
    Jekyll,
}

impl Indexed {
    /// Empty tables, for pages that may hold `syntax`.
    pub(crate) fn for_syntax(syntax: Syntax) -> Indexed {
        Indexed { syntax, ..Indexed::default() }
    }
    /// The page `rel` is served at `url` (and every alias of it).
    pub(crate) fn page(&mut self, rel: &str, url: &str) {
        self.urls.entry(rel.to_string()).or_insert_with(|| url.to_string());
        self.pages.entry(url_key(url)).or_insert_with(|| rel.to_string());
    }
    /// The page `rel` is also served at `url` (a redirect page).
    pub(crate) fn alias(&mut self, rel: &str, url: &str) {
        self.pages.entry(url_key(url)).or_insert_with(|| rel.to_string());
    }
    /// The files under `src` (a source prefix, `static/`) are served
    /// under `url` (`""` for the root).
    pub(crate) fn copied(&mut self, src: &str, url: &str) {
        self.copied.push((src.to_string(), url.to_string()));
    }
    /// Every page's source, in no order.
    pub(crate) fn page_sources(&self) -> impl Iterator<Item = &str> {
        self.urls.keys().map(String::as_str)
    }
    /// Whether `rel` is a page.
    pub(crate) fn is_page(&self, rel: &str) -> bool {
        self.urls.contains_key(rel)
    }
    /// The sources under the prefix `rel` are not pages, for `why`.
    pub(crate) fn not_a_page(&mut self, rel: &str, why: &str) {
        self.not_pages.push((rel.to_string(), why.to_string()));
    }
}

/// A URL as the tables key it: no slashes at its ends, no `index.html`.
pub(crate) fn url_key(url: &str) -> String {
    let u = url.trim_matches('/');
    let u = u.strip_suffix("index.html").unwrap_or(u);
    u.trim_end_matches('/').to_string()
}

impl Indexed {
    /// Hugo's include shortcodes, when the site has some, and its
    /// content folder.
    pub(crate) fn shortcodes(
        &self,
    ) -> Option<(&super::hugo_includes::Shortcodes, &str)> {
        match &self.syntax {
            Syntax::Hugo { shortcodes, content } if !shortcodes.is_empty() => {
                Some((shortcodes, content))
            }
            _ => None,
        }
    }
}

impl Rules for Indexed {
    fn hugo_shortcodes(
        &self,
    ) -> Option<(&super::hugo_includes::Shortcodes, &str)> {
        self.shortcodes()
    }

    fn url_of(&self, rel: &str) -> Option<String> {
        if let Some(u) = self.urls.get(rel) {
            return Some(u.clone());
        }
        self.copied.iter().find_map(|(src, url)| {
            rel.strip_prefix(src.as_str()).map(|rest| format!("{url}{rest}"))
        })
    }

    fn sources_of(&self, url: &str) -> Vec<String> {
        let mut out = vec![];
        let key = url_key(url);
        if let Some(rel) = self.pages.get(&key) {
            out.push(rel.clone());
        } else if let Some(rel) =
            key.strip_suffix(".html").and_then(|k| self.pages.get(k))
        {
            out.push(rel.clone());
        }
        for (src, prefix) in &self.copied {
            if let Some(rest) = url.strip_prefix(prefix.as_str()) {
                out.push(format!("{src}{rest}"));
                if rest.is_empty() || rest.ends_with('/') {
                    out.push(format!("{src}{rest}index.html"));
                }
            }
        }
        out
    }

    fn named(
        &self,
        kind: GeneratorKind,
        page: &str,
        path: &str,
        exists: &dyn Fn(&str) -> bool,
    ) -> Option<Named> {
        match &self.syntax {
            Syntax::Plain => None,
            Syntax::Hugo { content, .. } => {
                super::hugo::named(self, content, kind, page, path)
            }
            Syntax::Jekyll => super::jekyll::named(self, kind, path, exists),
        }
    }

    fn not_on_site(&self, rel: &str) -> Option<String> {
        if self.urls.contains_key(rel) {
            return None;
        }
        self.not_pages.iter().find_map(|(prefix, why)| {
            rel.starts_with(prefix.as_str()).then(|| why.clone())
        })
    }
}

/// The Markdown sources under `dir` (skipping symbolic links and hidden
/// folders), as paths under `base`, with their front matter (`None`
/// when there is none or it does not parse: the page keeps its default
/// URL).
pub(crate) fn markdown_sources(
    base: &Path,
    dir: &str,
) -> Vec<(String, Option<Node>)> {
    let mut out = vec![];
    let mut stack = vec![dir.trim_end_matches('/').to_string()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(base.join(&d)) else { continue };
        let mut names: Vec<(String, bool)> = entries
            .flatten()
            .filter_map(|e| {
                let ft = e.file_type().ok()?;
                if ft.is_symlink() {
                    return None;
                }
                Some((e.file_name().to_str()?.to_string(), ft.is_dir()))
            })
            .collect();
        names.sort();
        for (name, is_dir) in names {
            let rel = if d.is_empty() {
                name.clone()
            } else {
                format!("{d}/{name}")
            };
            if is_dir {
                if !name.starts_with('.') && name != "node_modules" {
                    stack.push(rel);
                }
            } else if extension(&name).as_deref().is_some_and(is_markdown_ext)
            {
                let fm = std::fs::read(base.join(&rel))
                    .ok()
                    .and_then(|b| front_matter(&String::from_utf8_lossy(&b)))
                    .and_then(Result::ok);
                out.push((rel, fm));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
