//! A site's navigation entries as links of kind `site:nav`: a path
//! under the sources (`guide/a.md#x`), or a URL of its own.

use std::path::Path;

use super::url;
use crate::links::{Kind, Link, PathKind, file_uri, percent_decode};

/// One entry of a navigation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The line of the configuration it is on.
    pub(crate) line: u32,
    /// As written: a path (`guide/a.md`), a URL, or a doc id.
    pub(crate) written: String,
    /// Where it points: a path under the sources, or a URL.
    pub(crate) to: String,
}

impl Entry {
    /// An entry that is a path or a URL.
    pub(crate) fn path(line: u32, written: &str) -> Entry {
        Entry { line, written: written.into(), to: written.into() }
    }
}

/// The links of `entries`, whose paths are under `sources`.
pub(crate) fn links(sources: &Path, entries: &[Entry]) -> Vec<Link> {
    entries
        .iter()
        .map(|e| {
            let target = target(sources, &e.to);
            Link::configured(
                Kind::SiteNav,
                u64::from(e.line),
                &e.written,
                target.as_deref(),
            )
        })
        .collect()
}

/// Where an entry points: a URL as it is, a path as a `file:` URI.
fn target(sources: &Path, written: &str) -> Option<String> {
    let written = written.trim();
    let scheme = written.split_once(':').map(|(s, _)| s);
    if scheme.is_some_and(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    }) {
        return Some(written.to_string());
    }
    let (path, fragment) = url::split_link(written);
    let decoded = percent_decode(path.trim_start_matches('/'));
    // A path above the sources names nothing the site has.
    let rel = url::normalize(&decoded, false)
        .unwrap_or_else(|| decoded.into_owned());
    let mut uri = file_uri(&sources.join(rel), PathKind::File);
    if let Some(f) = fragment {
        uri.push('#');
        uri.push_str(f);
    }
    Some(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_become_links() {
        let entries = [
            Entry::path(3, "guide/a.md#x"),
            Entry::path(4, "https://e.org/"),
            Entry::path(5, "b c.md"),
        ];
        let links = links(Path::new("/r/docs"), &entries);
        assert_eq!(links[0].kind().as_str(), "site:nav");
        assert_eq!(links[0].line(), 3);
        assert_eq!(links[0].target(), Some("file:///r/docs/guide/a.md#x"));
        assert_eq!(links[1].target(), Some("https://e.org/"));
        assert_eq!(links[2].target(), Some("file:///r/docs/b%20c.md"));
        assert_eq!(links[2].link(), "b c.md");
    }
}
