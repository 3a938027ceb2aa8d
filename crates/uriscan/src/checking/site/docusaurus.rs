//! Docusaurus: the docs (`docs/`, or the docs plugin's `path`, at its
//! `routeBasePath`), blog (`blog/`, or its `path`, at its
//! `routeBasePath`) and pages (`src/pages/`) plugins, front matter `id`
//! and `slug`, number prefixes stripped (`01-intro.md` is `intro`),
//! `_`-prefixed files as partials, `static/` at the root.
//!
//! Versioned docs: with a `versions.json` (`["2.0", "1.0"]`), each
//! version's docs are in `versioned_docs/version-X/`, the last version
//! (the first listed, or the docs plugin's `lastVersion`) at the docs'
//! URL, the others at `/docs/X/`, and the current docs at `/docs/next/`.
//! A link to a missing `.md` file is looked for from the root of its own
//! version's docs too; each version's sidebars
//! (`versioned_sidebars/version-X-sidebars.json`) name its own docs. The
//! configuration is read, never run.

use std::path::{Path, PathBuf};

use super::front_matter::field;
use super::includes::{confined, lexical};
use super::indexed::{Indexed, markdown_sources};
use super::jsconfig::{self, Literal, Token};
use super::nav::Entry;
use super::url::{normalize, strip_extension};
use super::yaml::{self, Node};
use super::{AnchorSettings, Loaded, Rules};

/// Docusaurus' rules: the tables, and the docs folders (the current
/// one first, then each version's) for the fallback.
#[derive(Debug)]
pub(crate) struct Docusaurus {
    table: Indexed,
    docs_roots: Vec<String>,
}

/// A configuration key's value, or its default with a note saying so.
fn key(
    toks: &[(u32, Token)],
    name: &str,
    (from, until): (usize, usize),
    default: &str,
    notes: &mut Vec<String>,
) -> String {
    match jsconfig::value_of(toks, name, from, until) {
        Ok(Some(Literal::Str(s))) => s,
        Ok(Some(Literal::Bool(b))) => b.to_string(),
        Ok(None) => default.to_string(),
        Err(()) => {
            notes.push(format!("{name}: not a literal, '{default}' used"));
            default.to_string()
        }
    }
}

pub(crate) fn load(dir: &Path, text: &str) -> Loaded {
    let toks = jsconfig::tokens(text);
    let all = (0, toks.len());
    let mut notes = vec![];
    let url = key(&toks, "url", all, "", &mut notes);
    let base_url = key(&toks, "baseUrl", all, "/", &mut notes);
    let docs_at = jsconfig::key_at(&toks, "docs", 0, toks.len());
    let docs_span =
        docs_at.map_or((0, 0), |at| (at, jsconfig::object_end(&toks, at)));
    let docs = key(&toks, "path", docs_span, "docs", &mut notes);
    let route = key(&toks, "routeBasePath", docs_span, "docs", &mut notes);
    let trailing = key(&toks, "trailingSlash", all, "undefined", &mut notes);
    let last_version = key(&toks, "lastVersion", docs_span, "", &mut notes);
    let blog_at = jsconfig::key_at(&toks, "blog", 0, toks.len());
    let blog_span =
        blog_at.map_or((0, 0), |at| (at, jsconfig::object_end(&toks, at)));
    let blog = key(&toks, "path", blog_span, "blog", &mut notes);
    let blog_route =
        key(&toks, "routeBasePath", blog_span, "blog", &mut notes);
    let mut table = Indexed::default();
    let docs = docs.trim_matches('/').to_string();
    let route = route.trim_matches('/').to_string();
    let slash = if trailing == "true" { "/" } else { "" };
    let join = |a: &str, b: &str| {
        let j = [a, b]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/");
        if j.is_empty() { String::new() } else { format!("{j}{slash}") }
    };
    // Each docs folder and its URL: the current docs, then the versions.
    let versions = versions(dir);
    let last = match last_version.as_str() {
        "" => versions.first().cloned(),
        "current" => None,
        v => Some(v.to_string()),
    };
    let current_route = if versions.is_empty() || last.is_none() {
        route.clone()
    } else {
        join(&route, "next").trim_end_matches('/').to_string()
    };
    let mut folders = vec![(docs.clone(), current_route)];
    for v in &versions {
        let at = if Some(v) == last.as_ref() {
            route.clone()
        } else {
            join(&route, v).trim_end_matches('/').to_string()
        };
        folders.push((format!("versioned_docs/version-{v}"), at));
    }
    let mut ids = vec![];
    let mut other_navs = vec![];
    for (i, (folder, at)) in folders.iter().enumerate() {
        let found = docs_folder(dir, folder, at, &join, &mut table);
        // The sidebars name the current docs by id; each version's
        // sidebars its own docs.
        if i == 0 {
            ids = found;
            continue;
        }
        let v = &versions[i - 1];
        let file = dir
            .join("versioned_sidebars")
            .join(format!("version-{v}-sidebars.json"));
        if let Ok(text) = std::fs::read(&file) {
            let prefix = format!("version-{v}/");
            let entries =
                sidebar_entries(&text, folder, &found, &prefix, &mut notes);
            other_navs.push((file, entries));
        }
    }
    let blog = blog.trim_matches('/').to_string();
    let blog_route = blog_route.trim_matches('/').to_string();
    for (rel, fm) in markdown_sources(dir, &blog) {
        let under = rel.strip_prefix(&format!("{blog}/")).unwrap_or(&rel);
        let stem = strip_extension(under);
        let stem = stem.strip_suffix("/index").unwrap_or(stem);
        let path = match fm.as_ref().and_then(|f| field(f, "slug")) {
            Some(s) => s.trim_matches('/').to_string(),
            None => blog_path(stem),
        };
        table.page(&rel, &join(&blog_route, &path));
    }
    for (rel, _) in markdown_sources(dir, "src/pages") {
        let under =
            strip_extension(rel.strip_prefix("src/pages/").unwrap_or(&rel));
        let under =
            under.strip_suffix("index").unwrap_or(under).trim_end_matches('/');
        table.page(&rel, &join(under, ""));
    }
    table.copied("static/", "");
    let sidebar_path = sidebar_path(&toks, docs_span, &mut notes);
    let (nav, nav_file) = sidebar(dir, sidebar_path, &docs, &ids, &mut notes);
    let site_url = (!url.is_empty())
        .then(|| format!("{}{}", url.trim_end_matches('/'), base_url));
    let site_url = site_url.or_else(|| Some(base_url.clone()));
    Loaded {
        sources: dir.to_path_buf(),
        site_url,
        rules: Box::new(Docusaurus {
            table,
            docs_roots: folders.into_iter().map(|(f, _)| f).collect(),
        }),
        nav,
        nav_file,
        other_navs,
        notes,
        anchors: AnchorSettings::default(),
    }
}

/// The versions `versions.json` lists, latest first; none without it.
fn versions(dir: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read(dir.join("versions.json")) else {
        return vec![];
    };
    // JSON is YAML.
    let Ok(node) = yaml::parse(&String::from_utf8_lossy(&text)) else {
        return vec![];
    };
    node.as_seq()
        .iter()
        .filter_map(Node::as_str)
        // A version names a folder: none may climb out of it.
        .filter(|v| !v.is_empty() && !v.contains(['/', '\\']) && *v != "..")
        .map(str::to_string)
        .collect()
}

/// The pages of the docs folder `folder`, served under `route`, into
/// `table`: their doc ids and sources.
fn docs_folder(
    dir: &Path,
    folder: &str,
    route: &str,
    join: &dyn Fn(&str, &str) -> String,
    table: &mut Indexed,
) -> Vec<(String, String)> {
    let mut ids = vec![];
    for (rel, fm) in markdown_sources(dir, folder) {
        let under = rel.strip_prefix(&format!("{folder}/")).unwrap_or(&rel);
        if under.split('/').any(|s| s.starts_with('_')) {
            table.not_a_page(&rel, "a partial ('_'-prefixed), not a page");
            continue;
        }
        let (folder, name) = split_name(under);
        let folder: Vec<&str> = folder
            .split('/')
            .filter(|s| !s.is_empty())
            .map(strip_number)
            .collect();
        let folder = folder.join("/");
        let name = strip_number(strip_extension(name));
        let fm_id = fm.as_ref().and_then(|f| field(f, "id"));
        let id_name = fm_id.unwrap_or(name);
        let id = if folder.is_empty() {
            id_name.to_string()
        } else {
            format!("{folder}/{id_name}")
        };
        let last_folder = folder.rsplit('/').next().unwrap_or("");
        let is_index = fm_id.is_none()
            && (name.eq_ignore_ascii_case("index")
                || name.eq_ignore_ascii_case("readme")
                || name == last_folder);
        let path = match fm.as_ref().and_then(|f| field(f, "slug")) {
            Some(s) if s.starts_with('/') => s.trim_matches('/').to_string(),
            Some(s) => {
                normalize(&format!("{folder}/{s}"), true).unwrap_or_default()
            }
            None if is_index => folder.clone(),
            None => id.clone(),
        };
        table.page(&rel, &join(route, path.trim_matches('/')));
        ids.push((id, rel));
    }
    ids
}

/// `2021-02-03-title` is `2021/02/03/title`, as the blog plugin writes it.
fn blog_path(stem: &str) -> String {
    let b = stem.as_bytes();
    let dated = b.len() > 11
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && b[10] == b'-';
    if dated {
        format!(
            "{}/{}/{}/{}",
            &stem[..4],
            &stem[5..7],
            &stem[8..10],
            &stem[11..]
        )
    } else {
        stem.to_string()
    }
}

fn split_name(rel: &str) -> (&str, &str) {
    match rel.rfind('/') {
        Some(i) => (&rel[..i], &rel[i + 1..]),
        None => ("", rel),
    }
}

/// `01-intro` is `intro`, `1.intro` too: Docusaurus strips number prefixes.
fn strip_number(s: &str) -> &str {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return s;
    }
    let rest = &s[digits..];
    let rest = rest.trim_start_matches(' ');
    match rest.strip_prefix(['-', '_', '.']) {
        Some(r) if !r.is_empty() => r.trim_start_matches(' '),
        _ => s,
    }
}

/// The docs plugin's `sidebarPath`, as written: a string, or
/// `require.resolve('...')` of one (as the classic template writes it);
/// `Some("")` for `false` (no sidebars); `None` when it is not there, or
/// not read (said in `notes`).
fn sidebar_path(
    toks: &[(u32, Token)],
    (from, until): (usize, usize),
    notes: &mut Vec<String>,
) -> Option<String> {
    match jsconfig::value_of(toks, "sidebarPath", from, until) {
        Ok(Some(Literal::Str(s))) => Some(s),
        Ok(Some(Literal::Bool(false))) => Some(String::new()),
        Ok(_) => None,
        Err(()) => {
            let at = jsconfig::key_at(toks, "sidebarPath", from, until)?;
            let value: Vec<&Token> =
                toks.iter().skip(at + 2).take(4).map(|(_, t)| t).collect();
            match value.as_slice() {
                [
                    Token::Word(f),
                    Token::Punct('('),
                    Token::Str(s),
                    Token::Punct(')'),
                ] if f == "require.resolve" => Some(s.clone()),
                _ => {
                    notes.push(
                        "sidebarPath: not a literal, the default sidebars file used"
                            .into(),
                    );
                    None
                }
            }
        }
    }
}

/// The doc ids the sidebars file names, pointing at their sources (an
/// unknown id at its own name under the docs, which names no file): the
/// file `configured` names (relative to the site's folder, never out of
/// it), else the first of `sidebars.json`, `.js` and `.ts` there.
fn sidebar(
    dir: &Path,
    configured: Option<String>,
    docs: &str,
    ids: &[(String, String)],
    notes: &mut Vec<String>,
) -> (Vec<Entry>, Option<PathBuf>) {
    let candidates: Vec<PathBuf> = match configured.as_deref() {
        Some("") => return (vec![], None),
        Some(written) => match lexical(dir, Path::new(written))
            .and_then(|p| confined(p, dir))
        {
            Some(file) => vec![file],
            None => {
                notes.push(format!(
                    "sidebarPath: '{written}' is outside the site's folder, not read"
                ));
                return (vec![], None);
            }
        },
        None => ["sidebars.json", "sidebars.js", "sidebars.ts"]
            .iter()
            .map(|f| dir.join(f))
            .collect(),
    };
    let Some((file, text)) = candidates
        .into_iter()
        .find_map(|f| Some((f.clone(), std::fs::read(f).ok()?)))
    else {
        if let Some(written) = configured {
            notes.push(format!("sidebarPath: '{written}' not found"));
        }
        return (vec![], None);
    };
    (sidebar_entries(&text, docs, ids, "", notes), Some(file))
}

/// The entries of the sidebars file `text` of the docs folder `docs`,
/// whose doc ids are `ids` (a versioned one may write them with the
/// prefix `prefix`, as Docusaurus 1 did).
fn sidebar_entries(
    text: &[u8],
    docs: &str,
    ids: &[(String, String)],
    prefix: &str,
    notes: &mut Vec<String>,
) -> Vec<Entry> {
    let toks = jsconfig::tokens(&String::from_utf8_lossy(text));
    let entries = jsconfig::sidebar_ids(&toks);
    if entries.is_empty() && !toks.is_empty() {
        notes.push("the sidebars name no doc id that could be read".into());
    }
    entries
        .into_iter()
        .map(|(line, written)| {
            let id = written.strip_prefix(prefix).unwrap_or(&written);
            let to = ids
                .iter()
                .find(|(i, _)| i == id)
                .map_or_else(|| format!("{docs}/{id}"), |(_, r)| r.clone());
            Entry { line, written, to }
        })
        .collect()
}

impl Rules for Docusaurus {
    fn url_of(&self, rel: &str) -> Option<String> {
        self.table.url_of(rel)
    }
    fn sources_of(&self, url: &str) -> Vec<String> {
        self.table.sources_of(url)
    }
    fn not_on_site(&self, rel: &str) -> Option<String> {
        self.table.not_on_site(rel)
    }
    /// From the root of the page's own docs folder (its version's).
    fn source_fallback(&self, page: &str, link: &str) -> Option<String> {
        let rel = normalize(link, false)?;
        let root = self
            .docs_roots
            .iter()
            .find(|r| page.starts_with(&format!("{r}/")))
            .unwrap_or(&self.docs_roots[0]);
        let candidate = format!("{root}/{rel}");
        self.table.url_of(&candidate).map(|_| candidate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_dates() {
        assert_eq!(strip_number("01-intro"), "intro");
        assert_eq!(strip_number("1.intro"), "intro");
        assert_eq!(strip_number("2021"), "2021");
        assert_eq!(strip_number("intro"), "intro");
        assert_eq!(blog_path("2021-02-03-hello"), "2021/02/03/hello");
        assert_eq!(blog_path("hello"), "hello");
    }

    /// Versioned docs as the versioning guide of Docusaurus 3 serves
    /// them: the first of `versions.json` at the docs' URL, the others
    /// under their names, the current docs under `next/`; a link to a
    /// missing `.md` is looked for from its own version's root; the blog
    /// at its `routeBasePath`.
    #[test]
    fn versions_and_blog_route() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for (f, body) in [
            ("versions.json", r#"["2.0", "1.0", "../x"]"#),
            ("docs/intro.md", ""),
            ("versioned_docs/version-2.0/intro.md", ""),
            ("versioned_docs/version-1.0/intro.md", ""),
            ("versioned_docs/version-1.0/guide/a.md", ""),
            ("versioned_docs/version-1.0/_part.md", ""),
            ("news/2021-01-02-hi.md", ""),
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), body).unwrap();
        }
        let config = "module.exports = { presets: [['classic', { blog: { path: 'news', routeBasePath: '/updates' } }]] };";
        let l = load(d, config);
        let r = &l.rules;
        let url = |rel: &str| r.url_of(rel).unwrap_or_default();
        assert_eq!(url("docs/intro.md"), "docs/next/intro");
        assert_eq!(url("versioned_docs/version-2.0/intro.md"), "docs/intro");
        assert_eq!(
            url("versioned_docs/version-1.0/intro.md"),
            "docs/1.0/intro"
        );
        assert_eq!(url("news/2021-01-02-hi.md"), "updates/2021/01/02/hi");
        assert_eq!(
            r.sources_of("docs/1.0/guide/a")[0],
            "versioned_docs/version-1.0/guide/a.md"
        );
        assert!(
            r.not_on_site("versioned_docs/version-1.0/_part.md").is_some()
        );
        assert_eq!(
            r.source_fallback(
                "versioned_docs/version-1.0/guide/a.md",
                "intro.md"
            )
            .as_deref(),
            Some("versioned_docs/version-1.0/intro.md")
        );
        assert_eq!(r.source_fallback("docs/intro.md", "guide/a.md"), None);
        // `lastVersion: 'current'`: the current docs at the docs' URL.
        let l =
            load(d, "module.exports = { docs: { lastVersion: 'current' } };");
        assert_eq!(
            l.rules.url_of("docs/intro.md").as_deref(),
            Some("docs/intro")
        );
        assert_eq!(
            l.rules.url_of("versioned_docs/version-2.0/intro.md").as_deref(),
            Some("docs/2.0/intro")
        );
    }

    /// The docs plugin's `sidebarPath`: a string, `require.resolve` of
    /// one (read, never run), `false`; only inside the site's folder; the
    /// default files without it.
    #[test]
    fn the_sidebars_file_the_configuration_names() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("site");
        let write =
            |f: &str, body: &str| super::super::write_test_file(&d, f, body);
        write("docs/intro.md", "");
        write("sidebars.json", "{\"docs\": [\"stale\"]}");
        write(
            "config/sidebars.ts",
            "const s: SidebarsConfig = {\n  docs: ['intro',\n    'gone'],\n};\nexport default s;\n",
        );
        write("../outside.js", "module.exports = {docs: ['intro']};");
        let nav = |config: &str| {
            let l = load(&d, config);
            let entries: Vec<(u32, String, String)> = l
                .nav
                .iter()
                .map(|e| (e.line, e.written.clone(), e.to.clone()))
                .collect();
            (entries, l.nav_file, l.notes)
        };
        let (entries, file, notes) = nav(
            "module.exports = { presets: [['classic', { docs: { sidebarPath: require.resolve('./config/sidebars.ts') } }]] };",
        );
        assert_eq!(
            entries,
            [
                (2, "intro".into(), "docs/intro.md".into()),
                (3, "gone".into(), "docs/gone".into())
            ]
        );
        assert_eq!(file, Some(d.join("config/sidebars.ts")));
        assert!(notes.is_empty(), "{notes:?}");
        let (entries, _, _) = nav(
            "module.exports = { docs: { sidebarPath: 'config/sidebars.ts' } };",
        );
        assert_eq!(entries.len(), 2);
        let (entries, file, _) =
            nav("module.exports = { docs: { sidebarPath: false } };");
        assert!(entries.is_empty() && file.is_none());
        // The default files, without the key.
        let (entries, file, _) = nav("module.exports = {};");
        assert_eq!(entries[0].1, "stale");
        assert_eq!(file, Some(d.join("sidebars.json")));
        let (entries, _, notes) = nav(
            "module.exports = { docs: { sidebarPath: '../outside.js' } };",
        );
        assert!(entries.is_empty());
        assert_eq!(
            notes,
            [
                "sidebarPath: '../outside.js' is outside the site's folder, not read"
            ]
        );
        let (_, _, notes) =
            nav("module.exports = { docs: { sidebarPath: './gone.js' } };");
        assert_eq!(notes, ["sidebarPath: './gone.js' not found"]);
        let (entries, _, notes) =
            nav("module.exports = { docs: { sidebarPath: path.join(x) } };");
        assert_eq!(entries[0].1, "stale");
        assert_eq!(
            notes,
            ["sidebarPath: not a literal, the default sidebars file used"]
        );
    }
}
