//! The relative links most pages are made of (`guide.html#setup`,
//! `../std/index.html`, `#top`, `?page=2`), resolved by concatenation.
//!
//! For such a link, RFC 3986 section 5.2 comes down to a prefix of the
//! base and the link's own text: the merge (5.2.3) keeps the base's path
//! up to its last `/`, `remove_dot_segments` (5.2.4) only takes one
//! segment off that prefix for each leading `../`, and the query and
//! fragment are the link's. The prefixes are found once per document by
//! the full resolver itself (the base resolved against `x`, `../x`, `#x`
//! and `?x`), so the base's own quirks are the resolver's; a property test
//! holds every link to the full path.
//!
//! Which links qualify is decided from their bytes alone: only ASCII that
//! RFC 3986 allows where it stands, with no scheme, no authority, no
//! root, and no dot segment but leading ones. Everything else (`/x`, `%`
//! without two hex digits, IRIs, anything to repair) takes the full path,
//! with its validation and its errors.
//!
//! So does every absolute URI but the most common shape, `http:` or
//! `https:` with a plain host (letters, digits, `-._~`), an optional port,
//! and a path, query and fragment as plain as above: such a URI is its own
//! target (5.2.2 keeps all of it, and its path has no dot segment to
//! remove), copied as it stands.

use crate::syntax::chars::{
    DIGIT, PCHAR, Table, UNRESERVED, is_pct_encoded, needs_no_repair,
};

/// Path bytes a qualifying link may hold: `pchar` and `/`, but `:` (a
/// colon in the first segment would make it a scheme) and `%` (taken
/// with its two hex digits).
///
/// ```text
/// pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
/// ```
const PATH_PLAIN: Table =
    PCHAR.or(Table::new(b"/")).without(Table::new(b":%"));

/// The bytes of a path's plain run: [`PATH_PLAIN`] but `.`, nearly every
/// byte of a link (its `/` too, so that the runs are long).
const PATH_RUN: Table = PATH_PLAIN.without(Table::new(b"."));

/// The bytes of a plain host: RFC 3986's `unreserved`, a `reg-name`
/// with neither `%` nor `sub-delims`.
const HOST_PLAIN: Table = UNRESERVED;

/// How many leading `../` the prefixes are found for; a link with more
/// takes the full path.
const MAX_UPS: usize = 32;

/// The bytes of a host that [`Shortcut::of_plain_base`] reads: a plain
/// host already in the form the resolver keeps (no upper case).
const HOST_LOWER: Table =
    Table::new(b"abcdefghijklmnopqrstuvwxyz0123456789-._~");

/// One base's prefixes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Shortcut {
    /// The base's directory: the base resolved against `x`, without the
    /// `x`.
    dir: String,
    /// `ups[k]`: the length of `dir` left after `k + 1` leading `../`.
    ups: Vec<usize>,
    /// The base without its fragment, and `#`.
    fragment: String,
    /// The base without its query and fragment, and `?`.
    query: String,
}

impl Shortcut {
    /// The prefixes of a base, found with `resolve` (the full resolver,
    /// against that base); `None` when one does not have the shape the
    /// shortcut needs, and every link takes the full path.
    pub(crate) fn new(
        resolve: impl Fn(&str) -> Option<String>,
    ) -> Option<Shortcut> {
        let prefix = |reference: &str| {
            let mut s = resolve(reference)?;
            (s.pop() == Some('x')).then_some(s)
        };
        let dir = prefix("x")?;
        let fragment = prefix("#x")?;
        let query = prefix("?x")?;
        if !(dir.ends_with('/')
            && fragment.ends_with('#')
            && query.ends_with('?'))
        {
            return None;
        }
        let mut ups = Vec::new();
        let mut reference = String::new();
        for _ in 0..MAX_UPS {
            reference.push_str("../");
            reference.push('x');
            let p = prefix(&reference)?;
            reference.pop();
            // Each `../` must only cut the directory shorter, at a `/`.
            if !(dir.starts_with(&p) && p.ends_with('/')) {
                return None;
            }
            let at_root = ups.last() == Some(&p.len());
            ups.push(p.len());
            if at_root {
                break;
            }
        }
        Some(Shortcut { dir, ups, fragment, query })
    }

    /// The prefixes of a base of the commonest shape (a document's own
    /// `file:` URI, a site's `https:` page), read off its text: what
    /// [`Shortcut::new`] finds by five or more full resolutions, for every
    /// document. The shape: `file://`, `http://` or `https://`, a host of
    /// lower-case plain bytes (empty only for `file:`), and a path from
    /// `/` of plain bytes with no `%`, no empty segment and no dot
    /// segment, with no query or fragment. `None` for any other base.
    pub(crate) fn of_plain_base(base: &str) -> Option<Shortcut> {
        let b = base.as_bytes();
        let (rest, may_be_empty) = match b.strip_prefix(b"file://") {
            Some(rest) => (rest, true),
            None => (
                b.strip_prefix(b"https://")
                    .or_else(|| b.strip_prefix(b"http://"))?,
                false,
            ),
        };
        let host = HOST_LOWER.prefix_len(rest);
        let path = &rest[host..];
        if (host == 0 && !may_be_empty)
            || path.first() != Some(&b'/')
            || path_end(path) != Some(path.len())
            || memchr::memchr(b'%', path).is_some()
            || memchr::memmem::find(path, b"//").is_some()
        {
            return None;
        }
        let path_start = b.len() - path.len();
        // The path holds a `/`: it starts with one.
        let dir_len = path_start + memchr::memrchr(b'/', path)? + 1;
        let mut ups = Vec::new();
        let mut len = dir_len;
        for _ in 0..MAX_UPS {
            // `../` takes the directory's last segment off, none above
            // the root.
            let up = match memchr::memrchr(b'/', &b[path_start..len - 1]) {
                Some(i) => path_start + i + 1,
                None => len,
            };
            let at_root = ups.last() == Some(&up);
            ups.push(up);
            if at_root {
                break;
            }
            len = up;
        }
        Some(Shortcut {
            dir: base[..dir_len].to_owned(),
            ups,
            fragment: format!("{base}#"),
            query: format!("{base}?"),
        })
    }

    /// Appends the target of `link` to `out` when `link` qualifies (see
    /// the module); `false`, with `out` untouched, when it takes the full
    /// path.
    pub(crate) fn resolve_into(&self, link: &str, out: &mut String) -> bool {
        let b = link.as_bytes();
        let (prefix, rest) = match b.first() {
            None | Some(b'/') => return false,
            // A plain query and fragment: what the repairs leave as it
            // is (RFC 3986's characters, `%` with two hex digits, one
            // `#`).
            Some(b'#') if needs_no_repair(b) => {
                (self.fragment.as_str(), &link[1..])
            }
            Some(b'?') if needs_no_repair(b) => {
                (self.query.as_str(), &link[1..])
            }
            Some(b'#' | b'?') => return false,
            Some(b'h') if is_plain_absolute(b) => ("", link),
            Some(_) => {
                let (ups, start) = leading_dots(b);
                // `.//x`: an empty segment after the dots, which against
                // a base with no authority (`a:/`) would make `//` read
                // as one. Rare: the full path.
                if b.get(start) == Some(&b'/') {
                    return false;
                }
                if plain_end(&b[start..]).is_none() {
                    return false;
                }
                let keep = match ups {
                    0 => self.dir.len(),
                    n => match self.ups.get(n - 1).or(self.at_root()) {
                        Some(&k) => k,
                        None => return false,
                    },
                };
                (&self.dir[..keep], &link[start..])
            }
        };
        out.push_str(prefix);
        out.push_str(rest);
        true
    }

    /// The directory's length at the root, when the `../` met reached it
    /// (more of them change nothing).
    fn at_root(&self) -> Option<&usize> {
        let n = self.ups.len();
        (n >= 2 && self.ups[n - 1] == self.ups[n - 2])
            .then(|| &self.ups[n - 1])
    }
}

/// Appends `link` to `out` when it is an absolute `http:` or `https:` URI
/// that is its own target against any base (see [`is_plain_absolute`]);
/// `false`, with `out` untouched, when it is not. No base's prefixes are
/// needed for it: a document of such links never finds them.
pub(crate) fn plain_absolute_into(link: &str, out: &mut String) -> bool {
    let b = link.as_bytes();
    if b.first() != Some(&b'h') || !is_plain_absolute(b) {
        return false;
    }
    out.push_str(link);
    true
}

/// Whether `b` is an absolute `http:` or `https:` URI that is its own
/// target (see the module):
///
/// ```text
/// "http" ["s"] "://" 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" )
///     [ ":" *DIGIT ] [ path-abempty ] [ "?" query ] [ "#" fragment ]
/// ```
///
/// with no dot segment in the path, `%` only with two hex digits, and no
/// byte the repairs would change.
fn is_plain_absolute(b: &[u8]) -> bool {
    let Some(rest) =
        b.strip_prefix(b"https://").or_else(|| b.strip_prefix(b"http://"))
    else {
        return false;
    };
    let host = HOST_PLAIN.prefix_len(rest);
    if host == 0 {
        return false;
    }
    let mut i = host;
    if rest.get(i) == Some(&b':') {
        i += 1 + DIGIT.prefix_len(&rest[i + 1..]);
    }
    let rest = &rest[i..];
    if !matches!(rest.first(), None | Some(b'/' | b'?' | b'#')) {
        return false;
    }
    plain_end(rest).is_some()
}

/// How many leading `../` `b` has, and where what follows the leading
/// `./` and `../` starts.
fn leading_dots(b: &[u8]) -> (usize, usize) {
    let (mut ups, mut i) = (0, 0);
    loop {
        if b[i..].starts_with(b"../") {
            ups += 1;
            i += 3;
        } else if b[i..].starts_with(b"./") {
            i += 2;
        } else {
            return (ups, i);
        }
    }
}

/// Where the path of `b` (what follows its leading dot segments) ends,
/// when its query and fragment are plain too (what the repairs leave as
/// they are, see `syntax::chars::needs_no_repair`).
fn plain_end(b: &[u8]) -> Option<usize> {
    path_end(b).filter(|&end| needs_no_repair(&b[end..]))
}

/// Where the path of `b` (what follows its leading dot segments) ends:
/// at its `?` or `#`, or its end. `None` when the path holds a byte that
/// is not plain, a `%` without two hex digits, or a `.` or `..` segment.
fn path_end(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        // Every link passes here: the plain run in a tight loop, a branch
        // only where it stops.
        i += PATH_RUN.prefix_len(&b[i..]);
        match b.get(i) {
            None => return Some(i),
            // A dot: a dot segment when it opens a segment.
            Some(b'.') => {
                if (i == 0 || b[i - 1] == b'/') && is_dot_segment(&b[i..]) {
                    return None;
                }
                i += 1;
            }
            Some(b'%') if is_pct_encoded(&b[i..]) => i += 3,
            Some(b'?' | b'#') => return Some(i),
            Some(_) => return None,
        }
    }
}

/// Whether `b`, at the start of a segment, is the segment `.` or `..`.
fn is_dot_segment(b: &[u8]) -> bool {
    let end =
        |i: usize| b.get(i).is_none_or(|c| matches!(c, b'/' | b'?' | b'#'));
    end(1) || (b.get(1) == Some(&b'.') && end(2))
}

/// The full path: `reference` parsed and resolved against `base`, as
/// the resolver's own parser reads them.
#[cfg(any(test, feature = "internals"))]
fn full(base: &str, reference: &str) -> Option<String> {
    use crate::syntax::Parser;
    use crate::syntax::resolve::{parse_base, resolve_into};
    let parser = Parser::new().iri(true);
    let base = parse_base(parser, base).ok()?;
    let r = parser.parse_reference(reference).ok()?;
    let mut out = String::new();
    resolve_into(&base, &r, &mut out).ok()?;
    Some(out)
}

/// Panics unless, wherever the shortcut takes `link`, it gives what the
/// full path gives against `base`: for the `shortcut` fuzz target.
#[cfg(feature = "internals")]
pub fn differential(base: &str, link: &str) {
    let Some(s) = Shortcut::new(|r| full(base, r)) else {
        return;
    };
    let mut out = String::new();
    if s.resolve_into(link, &mut out) {
        assert_eq!(Some(out), full(base, link), "{link:?} against {base:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shortcut(base: &str) -> Shortcut {
        Shortcut::new(|r| full(base, r)).unwrap()
    }

    fn short(s: &Shortcut, link: &str) -> Option<String> {
        let mut out = String::new();
        s.resolve_into(link, &mut out).then_some(out)
    }

    #[test]
    fn plain_bases_read_off_their_text() {
        let deep = format!("file://{}/page.md", "/d".repeat(40));
        for base in [
            "file:///tmp/docs/a/part-1.md",
            "https://example.com/a/b",
            "file:///",
            "http://x.org/",
            "file://host/a.b/c~d/",
            &deep,
        ] {
            let read = Shortcut::of_plain_base(base);
            assert!(read.is_some(), "{base}");
            assert_eq!(read, Shortcut::new(|r| full(base, r)), "{base}");
        }
        for base in [
            "https://h",
            "http://h:80/x",
            "https://Example.com/a",
            "file:///a/./b",
            "file:///a//b",
            "file:///a/%2e%2e/b",
            "file:///a?q",
            "http:///a",
            "mailto:/a",
        ] {
            assert_eq!(Shortcut::of_plain_base(base), None, "{base}");
        }
    }

    #[test]
    fn plain_links_by_concatenation() {
        let s = shortcut("file:///r/a/b/page.html?q#f");
        let cases = [
            ("x.html", "file:///r/a/b/x.html"),
            ("x.html#top", "file:///r/a/b/x.html#top"),
            ("./d/x.html?a=1&b=%2F#f", "file:///r/a/b/d/x.html?a=1&b=%2F#f"),
            ("../x", "file:///r/a/x"),
            ("../../../../../x", "file:///x"),
            ("../", "file:///r/a/"),
            (".hidden/x", "file:///r/a/b/.hidden/x"),
            ("#sec", "file:///r/a/b/page.html?q#sec"),
            ("?p=2#s", "file:///r/a/b/page.html?p=2#s"),
            ("#", "file:///r/a/b/page.html?q#"),
            ("https://example.com", "https://example.com"),
            (
                "http://h.example:8080/a/b.html?q=1#f",
                "http://h.example:8080/a/b.html?q=1#f",
            ),
            ("https://h:/.well-known/x?", "https://h:/.well-known/x?"),
        ];
        for (link, target) in cases {
            assert_eq!(short(&s, link).as_deref(), Some(target), "{link}");
            assert_eq!(
                full("file:///r/a/b/page.html?q#f", link).as_deref(),
                Some(target)
            );
        }
    }

    #[test]
    fn the_rest_takes_the_full_path() {
        let s = shortcut("https://example.com/a/b");
        for link in [
            "",
            "/root",
            "//host/x",
            "ftp://x/",
            "mailto:a@b",
            "a:b",
            "x/./y",
            "x/../y",
            "x/..",
            "..",
            ".",
            "..?q",
            "a%2",
            "a b",
            "a\\b",
            "a#b#c",
            "caf\u{e9}",
            "a[1]",
            ".//x",
            "http://h/a/../b",
            "https://h/./b",
            "http://user@h/",
            "http://[::1]/",
            "http://h%41/",
            "http://h:8x/",
            "http:///x",
            "HTTP://h/",
            "http://h/a b",
            "https://h/caf\u{e9}",
        ] {
            assert_eq!(short(&s, link), None, "{link:?}");
        }
    }

    /// The runs' tables are the ABNF's sets.
    #[test]
    fn the_classes_are_the_sets() {
        use crate::syntax::chars::KEPT_AS_IS as KEPT;
        use crate::syntax::chars::QUERY;
        for b in 0..=255u8 {
            // A path's plain run: `pchar` and `/` but `:`, `%`, `.`.
            assert_eq!(
                PATH_RUN.contains(b),
                (PCHAR.contains(b) || b == b'/') && !b":%.".contains(&b),
                "{b:#x}"
            );
            // A query's plain run: `query` but `%`.
            assert_eq!(
                KEPT.contains(b),
                QUERY.contains(b) && b != b'%',
                "{b:#x}"
            );
        }
    }

    /// Whether a query and fragment are plain, read a byte at a time: what
    /// `syntax::chars::needs_no_repair` reads a run at a time.
    fn query_is_plain_naive(b: &[u8]) -> bool {
        let mut hash = false;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                c if crate::syntax::chars::KEPT_AS_IS.contains(c) => i += 1,
                b'#' if !hash => {
                    hash = true;
                    i += 1;
                }
                b'%' if is_pct_encoded(&b[i..]) => i += 3,
                _ => return false,
            }
        }
        true
    }

    /// The path's end, read a byte at a time: what [`path_end`] reads a
    /// plain run at a time.
    fn path_end_naive(b: &[u8]) -> Option<usize> {
        let mut segment_start = true;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if PATH_PLAIN.contains(c) {
                if segment_start && c == b'.' && is_dot_segment(&b[i..]) {
                    return None;
                }
                segment_start = c == b'/';
                i += 1;
            } else if is_pct_encoded(&b[i..]) {
                segment_start = false;
                i += 3;
            } else if c == b'?' || c == b'#' {
                return Some(i);
            } else {
                return None;
            }
        }
        Some(i)
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(5000))]
        /// The run readers are the simple ones.
        #[test]
        fn the_readers_are_the_simple_ones(
            link in "[a-z./%2EF:?#@ \\\\\u{e9}]{0,24}",
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..12),
        ) {
            for b in [link.as_bytes(), &bytes[..]] {
                proptest::prop_assert_eq!(path_end(b), path_end_naive(b), "{:?}", b);
                proptest::prop_assert_eq!(
                    query_is_plain_naive(b),
                    needs_no_repair(b),
                    "{:?}", b
                );
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(2000))]
        /// A plain absolute link is its own target against every base
        /// that is a URI, whether the base has the shortcut's shape or not.
        #[test]
        fn plain_absolute_links_are_their_own_targets(
            base in "[a-z]{1,4}:(//[a-z.@:0-9]{0,6})?(/[a-z.%2F]{0,4}){0,4}(\\?[a-z/.]{0,3})?(#[a-z]{0,2})?",
            link in "(h|ht|https?:|https?:/|https?://)[a-zA-Z0-9._~@:%-]{0,5}([a-z.:@%/#?2EF ]{0,3}){0,5}",
        ) {
            let mut out = String::new();
            if plain_absolute_into(&link, &mut out) {
                proptest::prop_assert_eq!(out.as_str(), link.as_str());
                if full(&base, "x").is_some() {
                    proptest::prop_assert_eq!(Some(out), full(&base, &link), "{} against {}", link, base);
                }
            } else {
                proptest::prop_assert!(out.is_empty());
            }
        }

        /// A plain base's prefixes, read off its text, are the ones the
        /// full resolver finds.
        #[test]
        fn plain_base_prefixes_are_the_resolvers(
            base in "(file|https?|ftp|FILE):(//[a-zA-Z.@:~_0-9-]{0,6})?(/[a-zA-Z.%2F_~-]{0,4}){0,40}(\\?[a-z/.]{0,3})?(#[a-z]{0,2})?",
        ) {
            if let Some(read) = Shortcut::of_plain_base(&base) {
                let found = Shortcut::new(|r| full(&base, r));
                proptest::prop_assert_eq!(Some(read), found, "{}", base);
            }
        }

        /// Every link the shortcut takes resolves as the full path does,
        /// against bases of every shape.
        #[test]
        fn same_as_the_full_path(
            base in "[a-z]{1,4}:(//[a-z.@:0-9]{0,6})?(/[a-z.%2F]{0,4}){0,4}(\\?[a-z/.]{0,3})?(#[a-z]{0,2})?",
            link in "(https?://[a-zA-Z0-9._~@:%-]{0,5}|(\\.\\.?/){0,6})([a-z.:@%/#?2EF]{0,3}){0,5}",
        ) {
            let Some(s) = Shortcut::new(|r| full(&base, r)) else {
                return Ok(());
            };
            if let Some(t) = short(&s, &link) {
                proptest::prop_assert_eq!(Some(t), full(&base, &link), "{} against {}", link, base);
            }
        }
    }
}
