//! Which generator's configuration a directory holds, by the names of
//! its files (one listing per directory).

use std::path::{Path, PathBuf};

use super::Generator;

/// The configuration a directory holds, when it holds one of `only`'s
/// (of any generator's, when `None`), by the first rule that matches:
///
/// | file | generator |
/// | --- | --- |
/// | `book.toml` | mdBook |
/// | `mkdocs.yml` or `mkdocs.yaml` | MkDocs |
/// | `docusaurus.config.{js,mjs,ts}` | Docusaurus |
/// | `hugo.{toml,yaml,json}`, or `config.{toml,yaml}` beside `content/` | Hugo |
/// | `_config.yml` with `_posts/`, `_layouts/`, or a Gemfile naming jekyll | Jekyll |
pub(crate) fn config_in(
    dir: &Path,
    only: Option<Generator>,
) -> Option<(Generator, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return None;
    };
    let mut names: Vec<String> = vec![];
    for e in entries.flatten() {
        let name = e.file_name();
        if let Some(n) = name.to_str()
            && is_candidate(n)
        {
            names.push(n.to_string());
        }
    }
    if names.is_empty() {
        return None;
    }
    let has = |n: &str| names.iter().any(|x| x == n);
    let file = |n: &str| has(n) && dir.join(n).is_file();
    let folder = |n: &str| has(n) && dir.join(n).is_dir();
    let wants = |g: Generator| only.is_none_or(|o| o == g);
    let first = |g: Generator, files: &[&str]| {
        files
            .iter()
            .find(|f| file(f))
            .filter(|_| wants(g))
            .map(|f| (g, dir.join(f)))
    };
    first(Generator::Mdbook, &["book.toml"])
        .or_else(|| first(Generator::Mkdocs, &["mkdocs.yml", "mkdocs.yaml"]))
        .or_else(|| {
            first(
                Generator::Docusaurus,
                &[
                    "docusaurus.config.js",
                    "docusaurus.config.mjs",
                    "docusaurus.config.ts",
                ],
            )
        })
        .or_else(|| {
            first(Generator::Hugo, &["hugo.toml", "hugo.yaml", "hugo.json"])
        })
        .or_else(|| {
            if !folder("content") {
                return None;
            }
            first(Generator::Hugo, &["config.toml", "config.yaml"])
        })
        .or_else(|| {
            let jekyll = folder("_posts")
                || folder("_layouts")
                || (file("Gemfile")
                    && std::fs::read(dir.join("Gemfile")).is_ok_and(|g| {
                        memchr::memmem::find(&g, b"jekyll").is_some()
                    }));
            if !jekyll {
                return None;
            }
            first(Generator::Jekyll, &["_config.yml"])
        })
}

/// Whether a file name takes part in some rule: the rest are not kept.
fn is_candidate(name: &str) -> bool {
    matches!(
        name,
        "book.toml"
            | "mkdocs.yml"
            | "mkdocs.yaml"
            | "docusaurus.config.js"
            | "docusaurus.config.mjs"
            | "docusaurus.config.ts"
            | "hugo.toml"
            | "hugo.yaml"
            | "hugo.json"
            | "config.toml"
            | "config.yaml"
            | "content"
            | "_config.yml"
            | "_posts"
            | "_layouts"
            | "Gemfile"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let p = dir.path().join(f);
            if let Some(stripped) = f.strip_suffix('/') {
                std::fs::create_dir_all(dir.path().join(stripped)).unwrap();
            } else {
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(
                    &p,
                    if f.ends_with("Gemfile") { "gem \"jekyll\"" } else { "" },
                )
                .unwrap();
            }
        }
        dir
    }

    fn detected(files: &[&str]) -> Option<(Generator, String)> {
        let dir = tree(files);
        config_in(dir.path(), None).map(|(g, p)| {
            (g, p.file_name().unwrap().to_string_lossy().into_owned())
        })
    }

    /// The table of configuration files, each rule and its order.
    #[test]
    fn the_configuration_names_the_generator() {
        use Generator::*;
        let d = |g, f: &str| Some((g, f.to_string()));
        assert_eq!(
            detected(&["book.toml", "mkdocs.yml"]),
            d(Mdbook, "book.toml")
        );
        assert_eq!(detected(&["mkdocs.yml"]), d(Mkdocs, "mkdocs.yml"));
        assert_eq!(detected(&["mkdocs.yaml"]), d(Mkdocs, "mkdocs.yaml"));
        assert_eq!(
            detected(&["docusaurus.config.ts"]),
            d(Docusaurus, "docusaurus.config.ts")
        );
        assert_eq!(detected(&["hugo.toml"]), d(Hugo, "hugo.toml"));
        assert_eq!(
            detected(&["config.toml", "content/"]),
            d(Hugo, "config.toml")
        );
        assert_eq!(detected(&["config.toml"]), None);
        assert_eq!(
            detected(&["_config.yml", "_posts/"]),
            d(Jekyll, "_config.yml")
        );
        assert_eq!(
            detected(&["_config.yml", "_layouts/"]),
            d(Jekyll, "_config.yml")
        );
        assert_eq!(
            detected(&["_config.yml", "Gemfile"]),
            d(Jekyll, "_config.yml")
        );
        assert_eq!(detected(&["_config.yml"]), None);
        assert_eq!(detected(&["README.md"]), None);
        // A directory named like a configuration file is not one.
        assert_eq!(detected(&["mkdocs.yml/"]), None);
        let dir = tree(&["book.toml", "mkdocs.yml"]);
        let only = config_in(dir.path(), Some(Mkdocs)).unwrap();
        assert_eq!(only.0, Mkdocs);
    }
}
