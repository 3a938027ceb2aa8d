//! Antora components: each `antora.yml` read (its `name`, `version` and
//! `asciidoc.attributes`), so that a page's attribute references expand
//! from its component's, and a resource id of another component
//! (`xref:2.0@other:module:page.adoc`) resolves when that component is in
//! the tree beside it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::site::yaml;

/// One Antora component, as its `antora.yml` describes it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Component {
    /// Its `name`.
    pub name: String,
    /// Its `version`; `None` for an unversioned one (`~`, `false`).
    pub version: Option<String>,
    /// Its `prerelease` key is set (`true`, or a string such as
    /// `-beta`): never the latest version while a release is present.
    pub prerelease: bool,
    /// The directory of its `antora.yml`.
    pub dir: PathBuf,
    /// Its `asciidoc.attributes`, as [`Page::attributes`] takes them (a
    /// soft set keeps its `@`); an attribute set to `false` or `~`, which
    /// Antora unsets, is left out.
    ///
    /// [`Page::attributes`]: crate::links::Page::attributes
    pub attributes: Vec<(String, String)>,
}

impl Component {
    /// The component described by `text`, the `antora.yml` of `dir`;
    /// `None` without a name.
    pub fn parse(dir: &Path, text: &str) -> Option<Component> {
        let root = yaml::parse(text).ok()?;
        let name = root.get("name")?.as_str()?.to_owned();
        let version = root
            .get("version")
            .and_then(|v| v.as_str())
            .filter(|v| !matches!(*v, "~" | "false" | "null" | ""))
            .map(str::to_owned);
        let prerelease = root.get("prerelease").is_some_and(|p| {
            p.as_bool()
                .unwrap_or_else(|| p.as_str().is_some_and(|s| !s.is_empty()))
        });
        let attributes = root
            .get("asciidoc")
            .and_then(|a| a.get("attributes"))
            .map(|a| a.as_map())
            .unwrap_or_default()
            .iter()
            .filter_map(|(k, v)| {
                let value = v.as_str().unwrap_or("");
                let unset = v.as_str().is_none()
                    || matches!(value, "false" | "~" | "null");
                (!unset).then(|| (k.clone(), value.to_owned()))
            })
            .collect();
        let dir = dir.to_path_buf();
        Some(Component { name, version, prerelease, dir, attributes })
    }

    /// The `antora.yml` of `dir`, read.
    fn read(dir: &Path) -> Option<Component> {
        let text = std::fs::read(dir.join("antora.yml")).ok()?;
        Component::parse(dir, &String::from_utf8_lossy(&text))
    }
}

/// How far above a document its component's `antora.yml` is looked for.
const MAX_UP: usize = 8;
/// How deep below a component's parent directory the components beside
/// it are looked for, and how many directories that reads at most.
const MAX_DOWN: usize = 3;
const MAX_DIRS: usize = 2000;

/// The components of a tree, found from its documents and kept: share one
/// between the threads that read a tree.
#[derive(Debug, Default)]
pub struct Antora {
    /// Each directory's component, `None` for none.
    of_dir: Mutex<HashMap<PathBuf, Option<Arc<Component>>>>,
    /// The components beside each component's directory, under a root.
    beside: Mutex<Beside>,
}

/// The components found beside a directory, under a root.
type Beside = HashMap<(PathBuf, PathBuf), Arc<Vec<Component>>>;

impl Antora {
    /// Knows no component yet.
    pub fn new() -> Antora {
        Antora::default()
    }

    /// The component the document at `path` belongs to: the `antora.yml`
    /// of the nearest directory above it that has one.
    pub fn component_of(&self, path: &Path) -> Option<Arc<Component>> {
        let dir = path.parent()?;
        let mut cache = self.of_dir.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = cache.get(dir) {
            return c.clone();
        }
        let found = dir
            .ancestors()
            .take(MAX_UP)
            .find(|d| d.join("antora.yml").is_file())
            .and_then(Component::read)
            .map(Arc::new);
        cache.insert(dir.to_path_buf(), found.clone());
        found
    }

    /// The `file:` URI of what `target`, another component's resource id
    /// as the AsciiDoc reader writes it (`antora:[VERSION@]COMPONENT:
    /// MODULE:[FAMILY$]PATH[#ID]`), names from the document at `path`
    /// under `root`: when a component of that name (and version) is in
    /// the tree beside the document's own. `image` says the family when
    /// the id names none (an image's, else a page's). `None` when the
    /// component is not there: the link stays unresolved.
    pub fn resolve(
        &self,
        target: &str,
        (path, root): (&Path, &Path),
        image: bool,
    ) -> Option<String> {
        let id = target.strip_prefix("antora:")?;
        let (id, fragment) = match id.split_once('#') {
            Some((i, f)) => (i, Some(f)),
            None => (id, None),
        };
        let (version, id) = match id.split_once('@') {
            Some((v, rest)) => (Some(v), rest),
            None => (None, id),
        };
        let (coords, relative) = match id.rsplit_once('$') {
            Some((c, r)) => (c, r),
            None => id.rsplit_once(':')?,
        };
        let mut parts: Vec<&str> = coords.split(':').collect();
        let family = if id.contains('$') {
            parts.pop()?
        } else if image {
            "image"
        } else {
            "page"
        };
        let [component, module] = parts.as_slice() else { return None };
        let module = if module.is_empty() { "ROOT" } else { module };
        let family_dir = match family {
            "page" => "pages",
            "partial" => "partials",
            "example" => "examples",
            "image" => "images",
            "attachment" => "attachments",
            _ => return None,
        };
        let own = self.component_of(path)?;
        let beside = self.beside(&own.dir, root);
        let mut named = beside.iter().filter(|c| c.name == *component);
        let found = match version {
            Some(v) => named.find(|c| c.version.as_deref() == Some(v))?,
            None => latest(named)?,
        };
        let file = found
            .dir
            .join("modules")
            .join(module)
            .join(family_dir)
            .join(relative);
        let mut uri =
            crate::links::file_uri(&file, crate::links::PathKind::File);
        if let Some(f) = fragment {
            uri.push('#');
            uri.push_str(f);
        }
        Some(uri)
    }

    /// The components in the directories below the parent of `dir` (a
    /// component's), a few levels deep, that are under `root`.
    fn beside(&self, dir: &Path, root: &Path) -> Arc<Vec<Component>> {
        let key = (dir.to_path_buf(), root.to_path_buf());
        let mut cache = self.beside.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = cache.get(&key) {
            return found.clone();
        }
        let base = dir.parent().filter(|p| p.starts_with(root)).unwrap_or(dir);
        let mut found = vec![];
        let mut level = vec![base.to_path_buf()];
        let mut read = 0;
        for _ in 0..=MAX_DOWN {
            let mut next = vec![];
            for d in level {
                read += 1;
                if read > MAX_DIRS {
                    break;
                }
                found.extend(Component::read(&d));
                let Ok(entries) = std::fs::read_dir(&d) else { continue };
                for e in entries.flatten() {
                    let name = e.file_name();
                    let hidden = name.to_string_lossy().starts_with('.')
                        || name == "node_modules";
                    // Never through a symbolic link: the tree as it is.
                    if !hidden && e.file_type().is_ok_and(|t| t.is_dir()) {
                        next.push(e.path());
                    }
                }
            }
            level = next;
        }
        let found = Arc::new(found);
        cache.insert(key, found.clone());
        found
    }
}

/// The latest of a component's versions, as Antora picks it for a
/// resource id that names no version: the first in its sort order that is
/// no prerelease, or the first when all are.
fn latest<'c>(
    versions: impl Iterator<Item = &'c Component>,
) -> Option<&'c Component> {
    let mut sorted: Vec<&Component> = versions.collect();
    sorted.sort_by(|a, b| {
        version_order(a.version.as_deref(), b.version.as_deref())
    });
    sorted.iter().find(|c| !c.prerelease).or(sorted.first()).copied()
}

/// Antora's order of versions, latest first: the unversioned one, then
/// named versions (not semantic) in reverse alphanumeric order, then
/// semantic versions (a leading `v` dropped) from the highest.
fn version_order(a: Option<&str>, b: Option<&str>) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        (a, b) => return b.is_none().cmp(&a.is_none()),
    };
    if a == b {
        return Ordering::Equal;
    }
    match (semver_of(a), semver_of(b)) {
        (Some(x), Some(y)) => semver_order(x, y).reverse(),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => natural_order(a, b).reverse(),
    }
}

/// The semantic version a version string is to Antora: one that starts
/// with a digit (after an optional `v`) and has a `.` or is an integer.
fn semver_of(version: &str) -> Option<&str> {
    let rest = match version.strip_prefix('v') {
        Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => r,
        Some(_) => return None,
        None => version,
    };
    let digit = rest.starts_with(|c: char| c.is_ascii_digit());
    let integer = rest.bytes().all(|b| b.is_ascii_digit());
    (digit && (rest.contains('.') || integer)).then_some(rest)
}

/// Two semantic versions in ascending order: three numeric parts (a part
/// that is no number sorts below one that is), then a version with no
/// `-prerelease` above one with.
fn semver_order(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (a, pre_a) = split_prerelease(a);
    let (b, pre_b) = split_prerelease(b);
    let (mut parts_a, mut parts_b) = (a.split('.'), b.split('.'));
    for _ in 0..3 {
        let part = |p: Option<&str>| match p.filter(|p| !p.is_empty()) {
            None => Some(0.0),
            Some(p) => p.parse::<f64>().ok().filter(|n| n.is_finite()),
        };
        match (part(parts_a.next()), part(parts_b.next())) {
            (Some(x), Some(y)) if x != y => {
                return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
            }
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            _ => {}
        }
    }
    match (pre_a, pre_b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) => natural_order(x, y),
    }
}

/// A semantic version and its prerelease part, after the first `-`.
fn split_prerelease(version: &str) -> (&str, Option<&str>) {
    match version.split_once('-') {
        Some((v, pre)) => (v, Some(pre)),
        None => (version, None),
    }
}

/// Strings in the order of a numeric collation: runs of digits compare
/// as numbers, the rest case-insensitively first, then as written.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn pieces(s: &str) -> Vec<(bool, &str)> {
        let mut out = vec![];
        let mut rest = s;
        while let Some(c) = rest.chars().next() {
            let digit = c.is_ascii_digit();
            let end = rest
                .find(|c: char| c.is_ascii_digit() != digit)
                .unwrap_or(rest.len());
            out.push((digit, &rest[..end]));
            rest = &rest[end..];
        }
        out
    }
    let (pa, pb) = (pieces(a), pieces(b));
    for (x, y) in pa.iter().zip(&pb) {
        let order = match (x, y) {
            ((true, x), (true, y)) => {
                let (x, y) =
                    (x.trim_start_matches('0'), y.trim_start_matches('0'));
                x.len().cmp(&y.len()).then_with(|| x.cmp(y))
            }
            ((_, x), (_, y)) => {
                x.to_lowercase().cmp(&y.to_lowercase()).then_with(|| x.cmp(y))
            }
        };
        if order.is_ne() {
            return order;
        }
    }
    pa.len().cmp(&pb.len()).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptor_is_read() {
        let c = Component::parse(
            Path::new("/c"),
            "name: demo\nversion: '2.0'\nasciidoc:\n  attributes:\n    \
             base-url: https://x.example\n    soft: v@\n    gone: false\n    none: ~\n",
        )
        .unwrap();
        assert_eq!(c.name, "demo");
        assert_eq!(c.version.as_deref(), Some("2.0"));
        assert_eq!(
            c.attributes,
            [
                ("base-url".to_owned(), "https://x.example".to_owned()),
                ("soft".to_owned(), "v@".to_owned()),
            ]
        );
        let unversioned =
            Component::parse(Path::new("/c"), "name: x\nversion: ~\n");
        assert_eq!(unversioned.unwrap().version, None);
        assert_eq!(Component::parse(Path::new("/c"), "version: 1\n"), None);
        assert_eq!(Component::parse(Path::new("/c"), ": : [\n"), None);
    }

    /// A tree with component `a`'s page and the `antora.yml` files of
    /// `others` (directory and text): the tree and the page's path.
    fn beside_a(others: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write = |name: &str, text| {
            super::super::write_test_file(&root, name, text)
        };
        write("a/antora.yml", "name: a\nversion: ~\n");
        write("a/modules/ROOT/pages/index.adoc", "");
        for (dir, text) in others {
            write(&format!("{dir}/antora.yml"), text);
        }
        (dir, root.join("a/modules/ROOT/pages/index.adoc"))
    }

    #[test]
    fn another_components_resource_resolves_when_present() {
        let (dir, page) = beside_a(&[("b", "name: b\nversion: '2.0'\n")]);
        let root = dir.path().canonicalize().unwrap();
        let antora = Antora::new();
        let at = (page.as_path(), root.as_path());
        let b = |rest: &str| {
            crate::links::file_uri(
                &root.join("b/modules").join(rest),
                crate::links::PathKind::File,
            )
        };
        assert_eq!(
            antora.resolve("antora:2.0@b:cli:run.adoc#opts", at, false),
            Some(b("cli/pages/run.adoc") + "#opts")
        );
        assert_eq!(
            antora.resolve("antora:b::index.adoc", at, false),
            Some(b("ROOT/pages/index.adoc"))
        );
        assert_eq!(
            antora.resolve("antora:b:m:logo.png", at, true),
            Some(b("m/images/logo.png"))
        );
        assert_eq!(
            antora.resolve("antora:b:m:partial$p.adoc", at, false),
            Some(b("m/partials/p.adoc"))
        );
        assert_eq!(
            antora.resolve("antora:1.0@b::index.adoc", at, false),
            None
        );
        assert_eq!(antora.resolve("antora:c::index.adoc", at, false), None);
        assert_eq!(antora.component_of(&page).unwrap().name, "a");
    }

    #[test]
    fn versions_sort_as_antora_sorts_them() {
        let mut versions = [
            Some("1.10"),
            Some("v2.0"),
            Some("1.9"),
            Some("2.0-beta.2"),
            Some("next"),
            None,
            Some("dev"),
            Some("3"),
            Some("2.0-beta.10"),
            Some("1.9.1"),
        ];
        versions.sort_by(|a, b| version_order(*a, *b));
        assert_eq!(
            versions,
            [
                None,
                Some("next"),
                Some("dev"),
                Some("3"),
                Some("v2.0"),
                Some("2.0-beta.10"),
                Some("2.0-beta.2"),
                Some("1.10"),
                Some("1.9.1"),
                Some("1.9"),
            ]
        );
    }

    #[test]
    fn a_resource_id_without_a_version_names_the_latest() {
        let (dir, page) = beside_a(&[
            ("b1", "name: b\nversion: '1.9'\n"),
            ("b2", "name: b\nversion: '1.10'\n"),
            ("b3", "name: b\nversion: '2.0'\nprerelease: true\n"),
            ("c1", "name: c\nversion: '1.0'\nprerelease: -rc\n"),
            ("c2", "name: c\nversion: '2.0'\nprerelease: true\n"),
        ]);
        let root = dir.path().canonicalize().unwrap();
        let antora = Antora::new();
        let at = (page.as_path(), root.as_path());
        let uri = |dir: &str| {
            crate::links::file_uri(
                &root.join(dir).join("modules/ROOT/pages/index.adoc"),
                crate::links::PathKind::File,
            )
        };
        // 1.10 is above 1.9; 2.0 is a prerelease.
        assert_eq!(
            antora.resolve("antora:b::index.adoc", at, false),
            Some(uri("b2"))
        );
        assert_eq!(
            antora.resolve("antora:2.0@b::index.adoc", at, false),
            Some(uri("b3"))
        );
        // Only prereleases: the first of them.
        assert_eq!(
            antora.resolve("antora:c::index.adoc", at, false),
            Some(uri("c2"))
        );
    }
}
