//! Docusaurus: the docs (`docs/`, or the docs plugin's `path`, at its
//! `routeBasePath`), blog (`blog/`) and pages (`src/pages/`) plugins,
//! front matter `id` and `slug`, number prefixes stripped (`01-intro.md`
//! is `intro`), `_`-prefixed files as partials, `static/` at the root.
//! A link to a missing `.md` file is looked for from the docs root too
//! (not yet in the versioned docs folders).
//! The configuration is read, never run.

use std::path::{Path, PathBuf};

use super::front_matter::field;
use super::indexed::{Indexed, markdown_sources};
use super::jsconfig::{self, Literal, Token};
use super::nav::Entry;
use super::url::{normalize, strip_extension};
use super::{AnchorSettings, Loaded, Rules};

/// Docusaurus' rules: the tables, and the docs folder for the fallback.
#[derive(Debug)]
pub(crate) struct Docusaurus {
    table: Indexed,
    docs: String,
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
    let mut ids = vec![];
    for (rel, fm) in markdown_sources(dir, &docs) {
        let under = rel.strip_prefix(&format!("{docs}/")).unwrap_or(&rel);
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
        table.page(&rel, &join(&route, path.trim_matches('/')));
        ids.push((id, rel));
    }
    for (rel, fm) in markdown_sources(dir, "blog") {
        let under = rel.strip_prefix("blog/").unwrap_or(&rel);
        let stem = strip_extension(under);
        let stem = stem.strip_suffix("/index").unwrap_or(stem);
        let path = match fm.as_ref().and_then(|f| field(f, "slug")) {
            Some(s) => s.trim_matches('/').to_string(),
            None => blog_path(stem),
        };
        table.page(&rel, &join("blog", &path));
    }
    for (rel, _) in markdown_sources(dir, "src/pages") {
        let under =
            strip_extension(rel.strip_prefix("src/pages/").unwrap_or(&rel));
        let under =
            under.strip_suffix("index").unwrap_or(under).trim_end_matches('/');
        table.page(&rel, &join(under, ""));
    }
    table.copied("static/", "");
    let (nav, nav_file) = sidebar(dir, &docs, &ids, &mut notes);
    let site_url = (!url.is_empty())
        .then(|| format!("{}{}", url.trim_end_matches('/'), base_url));
    let site_url = site_url.or_else(|| Some(base_url.clone()));
    Loaded {
        sources: dir.to_path_buf(),
        site_url,
        rules: Box::new(Docusaurus { table, docs }),
        nav,
        nav_file,
        notes,
        anchors: AnchorSettings::default(),
    }
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

/// The doc ids the sidebars file names, pointing at their sources (an
/// unknown id at its own name under the docs, which names no file).
fn sidebar(
    dir: &Path,
    docs: &str,
    ids: &[(String, String)],
    notes: &mut Vec<String>,
) -> (Vec<Entry>, Option<PathBuf>) {
    let Some((file, text)) = ["sidebars.json", "sidebars.js", "sidebars.ts"]
        .iter()
        .find_map(|f| Some((dir.join(f), std::fs::read(dir.join(f)).ok()?)))
    else {
        return (vec![], None);
    };
    let toks = jsconfig::tokens(&String::from_utf8_lossy(&text));
    let entries = jsconfig::sidebar_ids(&toks);
    if entries.is_empty() && !toks.is_empty() {
        notes.push("the sidebars name no doc id that could be read".into());
    }
    let entries = entries
        .into_iter()
        .map(|(line, id)| {
            let to = ids
                .iter()
                .find(|(i, _)| *i == id)
                .map_or_else(|| format!("{docs}/{id}"), |(_, r)| r.clone());
            Entry { line, written: id, to }
        })
        .collect();
    (entries, Some(file))
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
    /// From the docs root.
    fn source_fallback(&self, _page: &str, link: &str) -> Option<String> {
        let rel = normalize(link, false)?;
        let candidate = format!("{}/{rel}", self.docs);
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
}
