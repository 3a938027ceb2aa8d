//! Jekyll: every Markdown file outside `_`-prefixed folders is a page at
//! its path with `.html` (`index.md` at its folder), or at its front
//! matter's `permalink`; posts (`_posts/YYYY-MM-DD-title.md`) and the
//! collections that `output` take the site's `permalink` (`date` by
//! default, `pretty`, `ordinal`, `none`, or a template of placeholders);
//! every other file not under an `_`- or `.`-prefixed folder is copied
//! as it is. `{% link path %}` names a file from the site's folder,
//! `{% post_url name %}` a post by its file name, and `{{ site.baseurl
//! }}/path` or `relative_url` a URL under the base path.

use std::path::Path;

use super::front_matter::field;
use super::indexed::{Indexed, Syntax, markdown_sources};
use super::url::{extension, is_markdown_ext, normalize, strip_extension};
use super::yaml::{self, Node};
use super::{AnchorSettings, Loaded, Named};
use crate::links::GeneratorKind;

pub(crate) fn load(dir: &Path, text: &str) -> Result<Loaded, String> {
    let config = yaml::parse(text)?;
    let get =
        |k: &str| config.get(k).and_then(Node::as_str).map(str::to_string);
    let style = get("permalink").unwrap_or_else(|| "date".into());
    let template = match style.as_str() {
        "date" => "/:categories/:year/:month/:day/:title:output_ext",
        "pretty" => "/:categories/:year/:month/:day/:title/",
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext",
        "none" => "/:categories/:title:output_ext",
        custom => custom,
    }
    .to_string();
    let pretty = style == "pretty";
    let mut table = Indexed::for_syntax(Syntax::Jekyll);
    let mut collections: Vec<(String, Option<String>)> =
        vec![("posts".into(), None)];
    for (name, c) in config.get("collections").map(Node::as_map).unwrap_or(&[])
    {
        if c.get("output").and_then(Node::as_bool) == Some(true) {
            let permalink =
                c.get("permalink").and_then(Node::as_str).map(str::to_string);
            collections.push((name.clone(), permalink));
        }
    }
    for (rel, fm) in markdown_sources(dir, "") {
        let fm = fm.as_ref();
        let first = rel.split('/').next().unwrap_or("");
        let url = if let Some(p) = fm.and_then(|f| field(f, "permalink")) {
            p.trim_start_matches('/').to_string()
        } else if let Some(stripped) = first.strip_prefix('_') {
            let Some((name, permalink)) =
                collections.iter().find(|(n, _)| n == stripped)
            else {
                continue;
            };
            let t = permalink.as_deref().unwrap_or(if name == "posts" {
                &template
            } else {
                "/:collection/:path:output_ext"
            });
            expand(t, &rel, name, fm)
        } else if rel
            .split('/')
            .any(|s| s.starts_with('_') || s.starts_with('.'))
        {
            continue;
        } else {
            let stem = strip_extension(&rel);
            match stem.strip_suffix("index") {
                Some(d) if d.is_empty() || d.ends_with('/') => d.to_string(),
                _ if pretty => format!("{stem}/"),
                _ => format!("{stem}.html"),
            }
        };
        table.page(&rel, &url);
    }
    for (name, _) in &collections {
        table.not_a_page(&format!("_{name}/"), "not an output of the site");
    }
    table.not_a_page("_", "not on the site: Jekyll leaves out '_' folders");
    table.copied("", "");
    let kramdown = config.get("kramdown");
    let k = |key: &str| kramdown.and_then(|n| n.get(key));
    let anchors = AnchorSettings {
        jekyll_auto_ids: k("auto_ids").and_then(Node::as_bool),
        jekyll_auto_id_prefix: k("auto_id_prefix")
            .and_then(Node::as_str)
            .map(str::to_string),
        jekyll_auto_id_stripping: k("auto_id_stripping")
            .and_then(Node::as_bool),
        jekyll_kramdown_input: k("input")
            .and_then(Node::as_str)
            .map(str::to_string),
        ..Default::default()
    };
    let url = get("url").unwrap_or_default();
    let base = get("baseurl").unwrap_or_default();
    let site_url = Some(format!(
        "{}/{}",
        url.trim_end_matches('/'),
        base.trim_matches('/')
    ));
    Ok(Loaded {
        sources: dir.to_path_buf(),
        site_url,
        rules: Box::new(table),
        nav: vec![],
        nav_file: None,
        other_navs: vec![],
        notes: vec![],
        anchors,
    })
}

/// What Jekyll's `link` or `post_url` tag, or a URL expression, names
/// with `path` (decoded, no fragment).
pub(crate) fn named(
    table: &Indexed,
    kind: GeneratorKind,
    path: &str,
    exists: &dyn Fn(&str) -> bool,
) -> Option<Named> {
    Some(match kind {
        GeneratorKind::JekyllLink => {
            match normalize(path.trim_start_matches('/'), false) {
                Some(rel) if exists(&rel) => Named::Source(rel),
                _ => Named::Missing(format!(
                    "Jekyll's link tag finds no file '{path}' in the site's folder"
                )),
            }
        }
        GeneratorKind::JekyllPostUrl => {
            // `name`, or `dir/name` for a post in `_posts/dir/` or in
            // `dir/_posts/`.
            let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
            let nested = format!("_posts/{path}");
            let under = format!("{dir}/_posts/{name}");
            let mut hits: Vec<&str> = table
                .page_sources()
                .filter(|rel| {
                    let stem = strip_extension(rel);
                    stem == nested
                        || stem.ends_with(&format!("/{nested}"))
                        || (!dir.is_empty() && stem == under)
                })
                .collect();
            hits.sort_unstable();
            match hits.first() {
                Some(rel) => Named::Source(rel.to_string()),
                None => Named::Missing(format!(
                    "Jekyll's post_url finds no post '{path}'"
                )),
            }
        }
        GeneratorKind::JekyllUrl => Named::SiteUrl(path.to_string()),
        _ => return None,
    })
}

/// A permalink template with the placeholders of `rel` filled in.
fn expand(
    template: &str,
    rel: &str,
    collection: &str,
    fm: Option<&Node>,
) -> String {
    let under = rel.split_once('/').map_or(rel, |(_, r)| r);
    let stem = strip_extension(under);
    let name = stem.rsplit('/').next().unwrap_or(stem);
    let dated = name.len() > 11
        && name.as_bytes()[4] == b'-'
        && name.as_bytes()[7] == b'-'
        && name.as_bytes()[10] == b'-';
    let (y, m, d, title) = if dated {
        (&name[..4], &name[5..7], &name[8..10], &name[11..])
    } else {
        ("", "", "", name)
    };
    let title =
        fm.and_then(|f| field(f, "slug")).unwrap_or(title).to_lowercase();
    let categories = fm
        .and_then(|f| f.get("categories"))
        .map(|c| match c.as_str() {
            Some(s) => s.split_whitespace().collect::<Vec<_>>().join("/"),
            None => c
                .as_seq()
                .iter()
                .filter_map(Node::as_str)
                .collect::<Vec<_>>()
                .join("/"),
        })
        .unwrap_or_default()
        .to_lowercase();
    let ext = if extension(under).as_deref().is_some_and(is_markdown_ext) {
        ".html"
    } else {
        ""
    };
    let mut out = template.to_string();
    for (k, v) in [
        (":categories", categories.as_str()),
        (":collection", collection),
        (":output_ext", ext),
        (":year", y),
        (":month", m),
        (":day", d),
        (":title", &title),
        (":slug", &title),
        (":path", stem),
        (":name", name),
    ] {
        out = out.replace(k, v);
    }
    let parts: Vec<&str> = out.split('/').filter(|s| !s.is_empty()).collect();
    let mut url = parts.join("/");
    if out.ends_with('/') && !url.is_empty() {
        url.push('/');
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permalinks() {
        assert_eq!(
            expand(
                "/:categories/:year/:month/:day/:title:output_ext",
                "_posts/2020-01-02-Hello.md",
                "posts",
                None
            ),
            "2020/01/02/hello.html"
        );
        assert_eq!(
            expand(
                "/:categories/:year/:month/:day/:title/",
                "_posts/2020-01-02-hi.md",
                "posts",
                None
            ),
            "2020/01/02/hi/"
        );
        let fm = yaml::parse("categories: [a, b]\n").unwrap();
        assert_eq!(
            expand(
                "/:categories/:title:output_ext",
                "_posts/2020-01-02-hi.md",
                "posts",
                Some(&fm)
            ),
            "a/b/hi.html"
        );
        assert_eq!(
            expand(
                "/:collection/:path:output_ext",
                "_guides/x/y.md",
                "guides",
                None
            ),
            "guides/x/y.html"
        );
    }

    #[test]
    fn tags_name_files_and_posts() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "about.md",
            "docs/a.md",
            "_posts/2020-01-02-hello.md",
            "_posts/news/2021-03-04-x.md",
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), "").unwrap();
        }
        let l = load(d, "").unwrap();
        let exists = |rel: &str| d.join(rel).is_file();
        let named = |k, p: &str| l.rules.named(k, "index.md", p, &exists);
        let src = |s: &str| Some(Named::Source(s.to_string()));
        assert_eq!(
            named(GeneratorKind::JekyllLink, "docs/a.md"),
            src("docs/a.md")
        );
        assert_eq!(
            named(GeneratorKind::JekyllLink, "/about.md"),
            src("about.md")
        );
        assert_eq!(
            named(GeneratorKind::JekyllLink, "../x.md"),
            Some(Named::Missing(
                "Jekyll's link tag finds no file '../x.md' in the site's folder".into()
            ))
        );
        assert_eq!(
            named(GeneratorKind::JekyllPostUrl, "2020-01-02-hello"),
            src("_posts/2020-01-02-hello.md")
        );
        assert_eq!(
            named(GeneratorKind::JekyllPostUrl, "news/2021-03-04-x"),
            src("_posts/news/2021-03-04-x.md")
        );
        assert_eq!(
            named(GeneratorKind::JekyllPostUrl, "2020-01-02-gone"),
            Some(Named::Missing(
                "Jekyll's post_url finds no post '2020-01-02-gone'".into()
            ))
        );
        assert_eq!(
            named(GeneratorKind::JekyllUrl, "/about/"),
            Some(Named::SiteUrl("/about/".into()))
        );
        assert_eq!(named(GeneratorKind::HugoRef, "about"), None);
    }
}
