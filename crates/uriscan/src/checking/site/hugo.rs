//! Hugo: pages under `contentDir` (default `content`): a section's
//! `_index.md` at the section's URL, a leaf bundle's `index.md` at its
//! folder's URL with the resources beside it, any other page at its path
//! as a folder (`a/b.md` is `a/b/`, `a/b.html` with `uglyURLs`), front
//! matter `url`, `slug` and `aliases`, URLs lowercased; `static/` is
//! served at the root. A `ref` or `relref` shortcode names a page as
//! Hugo finds it: relative to the page, then from `contentDir`, then by a
//! base name that only one page has.

use std::path::Path;

use super::front_matter::field;
use super::hugo_includes::Shortcodes;
use super::indexed::{Indexed, Syntax, markdown_sources};
use super::url::{extension, is_markdown_ext, normalize, strip_extension};
use super::yaml::{self, Node};
use super::{AnchorSettings, Loaded, Named};
use crate::links::GeneratorKind;

pub(crate) fn load(
    dir: &Path,
    config_file: &Path,
    text: &str,
) -> Result<Loaded, String> {
    let config = if config_file.extension().is_some_and(|e| e == "toml") {
        yaml::parse_toml(text)?
    } else {
        // JSON is YAML.
        yaml::parse(text)?
    };
    let get =
        |k: &str| config.get(k).and_then(Node::as_str).map(str::to_string);
    let content = get("contentDir").unwrap_or_else(|| "content".into());
    let content = content.trim_matches('/').to_string();
    let ugly = config.get("uglyURLs").and_then(Node::as_bool).unwrap_or(false);
    let lower = !config
        .get("disablePathToLower")
        .and_then(Node::as_bool)
        .unwrap_or(false);
    let id_type = config
        .get("markup")
        .and_then(|m| m.get("goldmark"))
        .and_then(|g| g.get("parser"))
        .and_then(|p| p.get("autoHeadingIDType"))
        .and_then(Node::as_str)
        .map(str::to_string);
    let mut table = Indexed::for_syntax(Syntax::Hugo {
        content: content.clone(),
        shortcodes: Shortcodes::read(dir),
    });
    let case = |s: String| if lower { s.to_lowercase() } else { s };
    for (rel, fm) in markdown_sources(dir, &content) {
        let under = rel.strip_prefix(&format!("{content}/")).unwrap_or(&rel);
        let stem = strip_extension(under);
        let (folder, name) = match stem.rfind('/') {
            Some(i) => (&stem[..i], &stem[i + 1..]),
            None => ("", stem),
        };
        let fm = fm.as_ref();
        let url = if let Some(u) = fm.and_then(|f| field(f, "url")) {
            u.trim_start_matches('/').to_string()
        } else if name == "_index" || name == "index" {
            if folder.is_empty() {
                String::new()
            } else {
                format!("{folder}/")
            }
        } else {
            let name = fm.and_then(|f| field(f, "slug")).unwrap_or(name);
            let path = if folder.is_empty() {
                name.to_string()
            } else {
                format!("{folder}/{name}")
            };
            if ugly { format!("{path}.html") } else { format!("{path}/") }
        };
        table.page(&rel, &case(url));
        for alias in
            fm.and_then(|f| f.get("aliases")).map(Node::as_seq).unwrap_or(&[])
        {
            if let Some(a) = alias.as_str() {
                table
                    .alias(&rel, &case(a.trim_start_matches('/').to_string()));
            }
        }
    }
    table.copied(&format!("{content}/"), "");
    table.copied("static/", "");
    Ok(Loaded {
        sources: dir.to_path_buf(),
        site_url: get("baseURL").or_else(|| get("baseurl")),
        rules: Box::new(table),
        nav: vec![],
        nav_file: None,
        other_navs: vec![],
        notes: vec![],
        anchors: AnchorSettings {
            hugo_auto_heading_id_type: id_type,
            ..Default::default()
        },
    })
}

/// The page a `ref` or `relref` shortcode of the page `page` names with
/// `path` (decoded, no fragment), as Hugo looks it up.
pub(crate) fn named(
    table: &Indexed,
    content: &str,
    kind: GeneratorKind,
    page: &str,
    path: &str,
) -> Option<Named> {
    if !matches!(kind, GeneratorKind::HugoRef | GeneratorKind::HugoRelref) {
        return None;
    }
    // `{{< ref "#x" >}}`: this page.
    if path.is_empty() {
        return Some(Named::Source(page.to_string()));
    }
    let wanted = path.trim_end_matches('/');
    let page_dir = page.rfind('/').map_or("", |i| &page[..i]);
    let from_content = [content];
    let bases: &[&str] = if wanted.starts_with('/') {
        &from_content
    } else {
        &[page_dir, content]
    };
    let under = format!("{content}/");
    for base in bases {
        let joined = format!("{base}/{}", wanted.trim_start_matches('/'));
        // No lookup leaves the content folder.
        let Some(joined) = normalize(&joined, false) else { continue };
        if !joined.starts_with(&under) {
            continue;
        }
        if let Some(found) = find_page(table, &joined) {
            return Some(Named::Source(found));
        }
    }
    if !wanted.contains('/') {
        let name = strip_extension(wanted);
        let mut hits: Vec<&str> = table
            .page_sources()
            .filter(|rel| {
                rel.starts_with(&under)
                    && logical_name(rel).eq_ignore_ascii_case(name)
            })
            .collect();
        hits.sort_unstable();
        match hits.as_slice() {
            [one] => return Some(Named::Source(one.to_string())),
            [] => {}
            many => {
                return Some(Named::Missing(format!(
                    "Hugo's {} '{path}' is ambiguous: {} pages are named '{name}'",
                    kind.as_str(),
                    many.len()
                )));
            }
        }
    }
    Some(Named::Missing(format!(
        "Hugo's {} finds no page '{path}'",
        kind.as_str()
    )))
}

/// The page a content path (`content/a/b`) names, its case aside, as
/// Hugo matches them.
fn find_page(table: &Indexed, joined: &str) -> Option<String> {
    let wanted = candidates(joined);
    if let Some(found) = wanted.iter().find(|c| table.is_page(c)) {
        return Some(found.clone());
    }
    let mut hits: Vec<&str> = table
        .page_sources()
        .filter(|p| wanted.iter().any(|c| c.eq_ignore_ascii_case(p)))
        .collect();
    hits.sort_unstable();
    hits.first().map(|s| s.to_string())
}

/// The sources a content path (`content/a/b`) may name: itself when it
/// has a Markdown extension, else `b.md`, a section's `_index.md`, a
/// bundle's `index.md`.
fn candidates(joined: &str) -> Vec<String> {
    if extension(joined).as_deref().is_some_and(is_markdown_ext) {
        return vec![joined.to_string()];
    }
    ["{}.md", "{}.markdown", "{}/_index.md", "{}/index.md"]
        .iter()
        .map(|t| t.replace("{}", joined))
        .collect()
}

/// A page's base name as a lookup by name matches it: its file's stem,
/// or its folder's name for a section's `_index.md` or a bundle's
/// `index.md`.
fn logical_name(rel: &str) -> &str {
    let stem = strip_extension(rel);
    let (dir, name) = stem.rsplit_once('/').unwrap_or(("", stem));
    if name == "index" || name == "_index" {
        return dir.rsplit('/').next().unwrap_or(dir);
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_urls() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for (f, body) in [
            ("content/_index.md", ""),
            ("content/docs/_index.md", ""),
            ("content/docs/Install.md", ""),
            (
                "content/docs/moved.md",
                "---\nslug: new-name\naliases: [/old/]\n---\n",
            ),
            ("content/posts/bundle/index.md", ""),
            ("content/posts/bundle/pic.png", ""),
            ("content/about.md", "+++\nurl = \"/about-us/\"\n+++\n"),
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), body).unwrap();
        }
        let config = "baseURL = 'https://e.org/'\n[markup.goldmark.parser]\nautoHeadingIDType = 'github-ascii'\n";
        let l = load(d, &d.join("hugo.toml"), config).unwrap();
        assert_eq!(
            l.anchors.hugo_auto_heading_id_type.as_deref(),
            Some("github-ascii")
        );
        let r = &l.rules;
        assert_eq!(r.url_of("content/_index.md").as_deref(), Some(""));
        assert_eq!(
            r.url_of("content/docs/_index.md").as_deref(),
            Some("docs/")
        );
        assert_eq!(
            r.url_of("content/docs/Install.md").as_deref(),
            Some("docs/install/")
        );
        assert_eq!(
            r.url_of("content/docs/moved.md").as_deref(),
            Some("docs/new-name/")
        );
        assert_eq!(
            r.url_of("content/posts/bundle/index.md").as_deref(),
            Some("posts/bundle/")
        );
        assert_eq!(r.url_of("content/about.md").as_deref(), Some("about-us/"));
        assert_eq!(r.sources_of("old/")[0], "content/docs/moved.md");
        assert!(
            r.sources_of("posts/bundle/pic.png")
                .contains(&"content/posts/bundle/pic.png".into())
        );
    }

    /// Each expectation is what Hugo 0.111 renders (or reports as
    /// REF_NOT_FOUND) for the same tree: a path is looked up from the
    /// page's folder, then from the content folder, with or without its
    /// extension and in any case; a path without a slash also by the base
    /// name of one page (a bundle's by its folder); a name two pages have
    /// is "ambiguous".
    #[test]
    fn refs_are_found_as_hugo_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "content/_index.md",
            "content/docs/_index.md",
            "content/docs/install.md",
            "content/docs/usage.md",
            "content/blog/usage.md",
            "content/posts/bundle/index.md",
            "content/about.md",
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), "").unwrap();
        }
        let l = load(d, &d.join("hugo.toml"), "").unwrap();
        let r = &l.rules;
        let page = "content/docs/install.md";
        let named =
            |p: &str| r.named(GeneratorKind::HugoRef, page, p, &|_| false);
        let src = |s: &str| Some(Named::Source(s.to_string()));
        // Beside the page first, then from the content folder.
        assert_eq!(named("usage.md"), src("content/docs/usage.md"));
        assert_eq!(named("usage"), src("content/docs/usage.md"));
        assert_eq!(named("/blog/usage"), src("content/blog/usage.md"));
        assert_eq!(named("about"), src("content/about.md"));
        assert_eq!(named("../about.md"), src("content/about.md"));
        assert_eq!(named("About.md"), src("content/about.md"));
        assert_eq!(named("docs"), src("content/docs/_index.md"));
        assert_eq!(named("/docs/"), src("content/docs/_index.md"));
        assert_eq!(
            named("posts/bundle"),
            src("content/posts/bundle/index.md")
        );
        assert_eq!(named(""), src(page));
        // By a base name only one page has.
        assert_eq!(named("bundle"), src("content/posts/bundle/index.md"));
        assert_eq!(
            r.named(GeneratorKind::HugoRef, "content/about.md", "usage", &|_| {
                false
            }),
            Some(Named::Missing(
                "Hugo's hugo:ref 'usage' is ambiguous: 2 pages are named 'usage'"
                    .into()
            ))
        );
        let from_root = |p: &str| {
            r.named(GeneratorKind::HugoRef, "content/about.md", p, &|_| false)
        };
        assert_eq!(
            from_root("bundle/index.md"),
            Some(Named::Missing(
                "Hugo's hugo:ref finds no page 'bundle/index.md'".into()
            ))
        );
        assert_eq!(
            named("../../hugo.toml"),
            Some(Named::Missing(
                "Hugo's hugo:ref finds no page '../../hugo.toml'".into()
            ))
        );
        assert_eq!(
            r.named(GeneratorKind::JekyllLink, page, "a", &|_| true),
            None
        );
    }
}
