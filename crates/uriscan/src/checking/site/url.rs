//! Site URL paths, written relative to the site's root without a
//! leading slash (`""` is the root, `a/b/` a directory URL), and how a
//! link resolves against them.

use std::borrow::Cow;

/// A link's path and fragment, its query left out: `("a/b/", Some("x"))`
/// for `a/b/?q#x`.
pub(crate) fn split_link(link: &str) -> (&str, Option<&str>) {
    // Every link of a site's page asks: one search finds where the path
    // ends, a second the fragment only after a query.
    let bytes = link.as_bytes();
    match memchr::memchr2(b'#', b'?', bytes) {
        None => (link, None),
        Some(end) if bytes[end] == b'#' => {
            (&link[..end], Some(&link[end + 1..]))
        }
        Some(end) => {
            let fragment = memchr::memchr(b'#', &bytes[end + 1..])
                .map(|i| &link[end + 1 + i + 1..]);
            (&link[..end], fragment)
        }
    }
}

/// `reference` (a relative path, decoded) resolved against the page URL
/// `base`, as a browser does (RFC 3986 5.2): the last segment of `base`
/// is dropped, dot segments are removed, and none climbs above the root.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let dir = base.rfind('/').map_or("", |i| &base[..=i]);
    joined(dir, reference, true).unwrap_or_default()
}

/// `path` (relative) with `.` and `..` segments removed, keeping a
/// trailing slash. A `..` above the start clamps (`clamp`, as URLs do) or
/// gives `None` (source paths, which leave the tree).
pub(crate) fn normalize(path: &str, clamp: bool) -> Option<String> {
    fold(path.split('/'), path.len(), clamp)
}

/// [`normalize`] of `dir` (empty, or ending in `/`) followed by `rest`,
/// the two never joined into a string of their own.
pub(crate) fn joined(dir: &str, rest: &str, clamp: bool) -> Option<String> {
    // `dir` ends in `/`: its pieces but the empty last one come first.
    let head = dir.strip_suffix('/').map(|d| d.split('/'));
    let segments = head.into_iter().flatten().chain(rest.split('/'));
    fold(segments, dir.len() + rest.len(), clamp)
}

/// Dot-segment removal (RFC 3986 5.2.4) over the `/`-separated pieces of
/// a path, written into one string: a `..` takes the output back to its
/// last `/`, so no list of segments is kept. Empty pieces are dropped,
/// and a last piece that is empty, `.` or `..` keeps a trailing slash.
fn fold<'a>(
    segments: impl Iterator<Item = &'a str>,
    capacity: usize,
    clamp: bool,
) -> Option<String> {
    let mut out = String::with_capacity(capacity);
    let mut segments = segments.peekable();
    let mut first = true;
    let mut dir = false;
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        match segment {
            "." => dir = last,
            ".." => {
                if out.is_empty() {
                    if !clamp {
                        return None;
                    }
                } else {
                    out.truncate(out.rfind('/').unwrap_or(0));
                }
                dir = last;
            }
            "" => dir = last && !first,
            name => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(name);
                dir = false;
            }
        }
        first = false;
    }
    if dir && !out.is_empty() {
        out.push('/');
    }
    Some(out)
}

/// The extension of the last segment, lowercased ASCII, if it has one
/// (borrowed when it is lowercase already, as most are).
pub(crate) fn extension(path: &str) -> Option<Cow<'_, str>> {
    // Asked of most links: a byte search from the end, no searcher.
    let bytes = path.as_bytes();
    let start = bytes.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let name = &bytes[start..];
    let dot = name.iter().rposition(|&b| b == b'.').filter(|&i| i > 0)?;
    let ext = &path[start + dot + 1..];
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

    /// Dot-segment removal as it was written first: the segments
    /// collected, then joined. The oracle of [`fold`].
    fn by_segment_list(path: &str, clamp: bool) -> Option<String> {
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

    /// Paths of names, `.`, `..`, empty segments and percent-escapes,
    /// with or without a leading or trailing slash.
    fn segments() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let segment = prop_oneof![
            Just(""),
            Just("."),
            Just(".."),
            Just("a"),
            Just("bc"),
            Just("%2e%2e"),
            Just("%2F"),
            Just("x.md"),
            Just("..."),
            Just(".a"),
        ];
        proptest::collection::vec(segment, 0..9).prop_map(|s| s.join("/"))
    }

    proptest::proptest! {
        /// Folding into one string gives what folding a list of
        /// segments gives, on paths of dot segments, empty segments and
        /// percent-escapes (which are names like any other).
        #[test]
        fn normalize_agrees_with_the_segment_list(
            path in segments(),
            clamp in proptest::bool::ANY,
        ) {
            proptest::prop_assert_eq!(
                normalize(&path, clamp),
                by_segment_list(&path, clamp)
            );
        }

        /// A reference resolved against a page URL is the segment list's
        /// fold of the two written one after the other.
        #[test]
        fn resolve_agrees_with_the_segment_list(
            base in segments(),
            reference in segments(),
        ) {
            let dir = base.rfind('/').map_or("", |i| &base[..=i]);
            let whole = format!("{dir}{reference}");
            proptest::prop_assert_eq!(
                resolve(&base, &reference),
                by_segment_list(&whole, true).unwrap_or_default()
            );
            proptest::prop_assert_eq!(
                joined(dir, &reference, false),
                by_segment_list(&whole, false)
            );
        }

        /// Splitting by two searches gives what splitting at the first
        /// `#`, then at the first `?`, gives.
        #[test]
        fn split_link_agrees_with_splitting_twice(link in "[a/?#%.]{0,12}") {
            let (rest, fragment) = match link.split_once('#') {
                Some((r, f)) => (r, Some(f)),
                None => (link.as_str(), None),
            };
            let path = rest.split('?').next().unwrap_or("");
            proptest::prop_assert_eq!(split_link(&link), (path, fragment));
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
