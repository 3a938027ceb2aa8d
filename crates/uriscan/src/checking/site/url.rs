//! Site URL paths, written relative to the site's root without a
//! leading slash (`""` is the root, `a/b/` a directory URL), and how a
//! link resolves against them.

use std::borrow::Cow;

/// A link's path and fragment, its query left out: `("a/b/", Some("x"))`
/// for `a/b/?q#x`.
pub(crate) fn split_link(link: &str) -> (&str, Option<&str>) {
    let (rest, fragment) = match link.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (link, None),
    };
    (rest.split('?').next().unwrap_or(""), fragment)
}

/// `reference` (a relative path, decoded) resolved against the page URL
/// `base`, as a browser does (RFC 3986 5.2): the last segment of `base`
/// is dropped, dot segments are removed, and none climbs above the root.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let dir = base.rfind('/').map_or("", |i| &base[..=i]);
    normalize(&format!("{dir}{reference}"), true).unwrap_or_default()
}

/// `path` (relative) with `.` and `..` segments removed, keeping a
/// trailing slash. A `..` above the start clamps (`clamp`, as URLs do) or
/// gives `None` (source paths, which leave the tree).
pub(crate) fn normalize(path: &str, clamp: bool) -> Option<String> {
    // Most paths have nothing to fold: they come back as they are.
    if is_plain(path) {
        return Some(path.to_string());
    }
    normalize_segments(path, clamp)
}

/// Whether `path` has no `.`, `..` or empty segment (a trailing slash
/// aside) and no leading slash: [`normalize`] leaves it as it is.
fn is_plain(path: &str) -> bool {
    let body = path.strip_suffix('/').unwrap_or(path);
    path.is_empty()
        || (!body.is_empty()
            && body.split('/').all(|s| !matches!(s, "" | "." | "..")))
}

/// [`normalize`] segment by segment, for any path.
fn normalize_segments(path: &str, clamp: bool) -> Option<String> {
    let mut out: Vec<&str> = vec![];
    let segs: Vec<&str> = path.split('/').collect();
    let last = segs.len() - 1;
    let mut dir = false;
    for (i, s) in segs.iter().enumerate() {
        match *s {
            "." => dir = i == last,
            ".." => {
                if out.pop().is_none() && !clamp {
                    return None;
                }
                dir = i == last;
            }
            "" => dir = i == last && i > 0,
            s => {
                out.push(s);
                dir = false;
            }
        }
    }
    let mut joined = out.join("/");
    if dir && !joined.is_empty() {
        joined.push('/');
    }
    Some(joined)
}

/// The extension of the last segment, lowercased ASCII, if it has one
/// (borrowed when it is lowercase already, as most are).
pub(crate) fn extension(path: &str) -> Option<Cow<'_, str>> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dot = name.rfind('.').filter(|&i| i > 0)?;
    let ext = &name[dot + 1..];
    Some(if ext.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(ext.to_ascii_lowercase())
    } else {
        Cow::Borrowed(ext)
    })
}

/// Whether `ext` names a Markdown source.
pub(crate) fn is_markdown_ext(ext: &str) -> bool {
    matches!(ext, "md" | "markdown" | "mdx" | "mdown" | "mkd")
}

/// `path` without its extension.
pub(crate) fn strip_extension(path: &str) -> &str {
    match extension(path) {
        Some(e) => &path[..path.len() - e.len() - 1],
        None => path,
    }
}

/// The base path of a site URL (`https://h/proj/` gives `/proj/`), always
/// ending in `/`, and the URL's scheme and host lowercased.
pub(crate) fn base_of(site_url: &str) -> (Option<String>, String) {
    let site_url = site_url.trim();
    let Some((scheme, rest)) = site_url.split_once("://") else {
        return (None, dir_path(site_url));
    };
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let origin = format!("{}://{}", scheme, host).to_ascii_lowercase();
    (Some(origin), dir_path(path))
}

/// `/path/`, with the slashes at both ends.
fn dir_path(p: &str) -> String {
    let p = p.split(['?', '#']).next().unwrap_or("").trim_matches('/');
    if p.is_empty() { "/".into() } else { format!("/{p}/") }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A relative site URL resolves against the page's own URL: under
    /// MkDocs' directory URLs `a/b.md` is served at `a/b/`, so `../c/`
    /// from it is `a/c/`, not the `c/` a source path would give.
    #[test]
    fn relative_site_urls_resolve_against_the_page_url() {
        assert_eq!(resolve("a/b/", "../c/"), "a/c/");
        assert_eq!(resolve("a/b.html", "../c/"), "c/");
        assert_eq!(resolve("a/b.html", "c.html"), "a/c.html");
        assert_eq!(resolve("", "../../x/"), "x/");
        assert_eq!(resolve("a/", "."), "a/");
        assert_eq!(resolve("a/", "./"), "a/");
        assert_eq!(resolve("a/b/", ".."), "a/");
    }

    #[test]
    fn source_paths_do_not_climb_out() {
        assert_eq!(normalize("a/../b.md", false).as_deref(), Some("b.md"));
        assert_eq!(normalize("../b.md", false), None);
        assert_eq!(normalize("./a//b/", false).as_deref(), Some("a/b/"));
    }

    #[test]
    fn site_url_bases() {
        assert_eq!(
            base_of("https://Example.org/proj"),
            (Some("https://example.org".into()), "/proj/".into())
        );
        assert_eq!(base_of("https://e.org").1, "/");
        assert_eq!(base_of("/book/"), (None, "/book/".into()));
        assert_eq!(split_link("a/b/?q=1#x"), ("a/b/", Some("x")));
        assert_eq!(extension("a.b/c"), None);
        assert_eq!(extension("a/.hidden"), None);
        assert_eq!(extension("a/B.MD").as_deref(), Some("md"));
    }

    proptest::proptest! {
        /// The plain-path shortcut gives what folding segment by
        /// segment gives.
        #[test]
        fn normalize_shortcut_agrees(
            path in "[a./]{0,12}",
            clamp in proptest::bool::ANY,
        ) {
            proptest::prop_assert_eq!(
                normalize(&path, clamp),
                normalize_segments(&path, clamp)
            );
        }

        /// The borrowed extension is the lowercased one.
        #[test]
        fn extension_is_lowercased(path in "[aB./]{0,8}") {
            let name = path.rsplit('/').next().unwrap_or(&path);
            let lowered = name
                .rfind('.')
                .filter(|&i| i > 0)
                .map(|i| name[i + 1..].to_ascii_lowercase());
            let found = extension(&path);
            proptest::prop_assert_eq!(found.as_deref(), lowered.as_deref());
        }
    }
}
