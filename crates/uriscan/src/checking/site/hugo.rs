//! Hugo: pages under `contentDir` (default `content`): a section's
//! `_index.md` at the section's URL, a leaf bundle's `index.md` at its
//! folder's URL with the resources beside it, any other page at its path
//! as a folder (`a/b.md` is `a/b/`, `a/b.html` with `uglyURLs`), front
//! matter `url`, `slug` and `aliases`, URLs lowercased; `static/` is
//! served at the root.

use std::path::Path;

use super::front_matter::field;
use super::indexed::{Indexed, markdown_sources};
use super::url::strip_extension;
use super::yaml::{self, Node};
use super::{AnchorSettings, Loaded};

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
    let mut table = Indexed::default();
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
        notes: vec![],
        anchors: AnchorSettings {
            hugo_auto_heading_id_type: id_type,
            ..Default::default()
        },
    })
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
}
