//! Section 5, "Reference Resolution": turning a URI reference into the
//! target URI it names, relative to a base URI.
//!
//! The rules, by section of RFC 3986:
//!
//! - **5.2.1, "Pre-parse the Base URI"**: the base must have a scheme
//!   (a [`RefKind::Uri`]); a relative base is an error
//!   ([`ResolveErrorKind::BaseNotAbsolute`]). The RFC wants the base to
//!   be an `absolute-URI`, without a fragment; section 5.1 says a base
//!   taken from a URI reference is "stripped of any fragment component
//!   prior to its use as a base URI". We do exactly that: a fragment on
//!   the base is ignored, never an error (the 5.2.2 algorithm never reads
//!   `Base.fragment` anyway).
//! - **5.2.2, "Transform References"**: the strict algorithm. A reference
//!   with a scheme is taken as is (apart from its dot segments), even when
//!   its scheme equals the base's: `http:g` against `http://a/b` is
//!   `http:g`.
//! - **5.2.3, "Merge Paths"**: [`resolve`] merges without building the
//!   merged path: the base directory and the reference path are fed to
//!   5.2.4 as two pieces.
//! - **5.2.4, "Remove Dot Segments"**: [`remove_dot_segments`] and
//!   [`remove_dot_segments_into`], the two-buffer algorithm of the RFC
//!   with the output buffer being the target string itself.
//! - **5.3, "Component Recomposition"**: the target is written straight
//!   into one `String`, sized once, keeping absent and empty components
//!   apart (`?` with an empty query stays).
//!
//! # The `//` path without an authority
//!
//! The RFC's algorithm can yield a path that starts with `//` while the
//! target has no authority: base `s:/a` with reference `..//g` gives
//! scheme `s`, path `//g`, and recomposed that is `s://g`, which reparses
//! with authority `g`. Such a target names something else than the
//! components it came from. As iri-string and the WHATWG URL standard
//! do, we write the path as `/.//g` then: `s:/.//g` is a valid `URI`
//! whose path, after [`remove_dot_segments`], is again `//g`. This is
//! the only case where a target path holds a dot segment that the
//! algorithm did not leave there.
//!
//! # The base path with dot segments
//!
//! When the reference has no scheme, no authority and an empty path
//! (`""`, `?y`, `#s`), 5.2.2 takes `Base.path` unchanged, so dot segments
//! in the base path reach the target. We follow the RFC; normalize the
//! base first ([`normalize`](super::normalize)) to avoid that.
//!
//! ```
//! use uriscan::syntax::resolve::resolve_str;
//! let t = resolve_str("http://a/b/c/d;p?q", "../g?y#s").unwrap();
//! assert_eq!(t, "http://a/b/g?y#s");
//! ```

use std::fmt;

use crate::syntax::{ParseError, Parser, RefKind, UriRef};

/// What went wrong in a resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResolveErrorKind {
    /// The base has no scheme (5.2.1: only a URI can be a base).
    BaseNotAbsolute,
    /// The base failed to parse as a `URI`.
    InvalidBase(ParseError),
    /// The reference failed to parse as a `URI-reference`.
    InvalidReference(ParseError),
}

/// A reference that could not be resolved: the base was not a URI, or
/// one of the two strings did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResolveError {
    kind: ResolveErrorKind,
}

impl ResolveError {
    fn new(kind: ResolveErrorKind) -> ResolveError {
        ResolveError { kind }
    }

    /// What went wrong.
    pub fn kind(&self) -> ResolveErrorKind {
        self.kind
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ResolveErrorKind::BaseNotAbsolute => {
                f.write_str("base URI has no scheme")
            }
            ResolveErrorKind::InvalidBase(e) => {
                write!(f, "invalid base URI: {e}")
            }
            ResolveErrorKind::InvalidReference(e) => {
                write!(f, "invalid reference: {e}")
            }
        }
    }
}

impl std::error::Error for ResolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ResolveErrorKind::InvalidBase(e)
            | ResolveErrorKind::InvalidReference(e) => Some(e),
            ResolveErrorKind::BaseNotAbsolute => None,
        }
    }
}

/// Resolves `reference` against `base` by the strict algorithm of 5.2.2
/// and recomposes the target (5.3).
///
/// The fragment of `base`, if any, is ignored (5.1). A target path that
/// would start with `//` without an authority is written with a `/.`
/// prefix (see the [module docs](self)).
///
/// # Errors
///
/// [`ResolveErrorKind::BaseNotAbsolute`] when `base` has no scheme.
///
/// ```
/// use uriscan::syntax::{parse_reference, parse_uri, resolve::resolve};
/// let base = parse_uri("http://a/b/c/d;p?q").unwrap();
/// let r = parse_reference("../../g").unwrap();
/// assert_eq!(resolve(&base, &r).unwrap(), "http://a/g");
/// ```
pub fn resolve(
    base: &UriRef<'_>,
    reference: &UriRef<'_>,
) -> Result<String, ResolveError> {
    let mut out = String::new();
    resolve_into(base, reference, &mut out)?;
    Ok(out)
}

/// Parses `base` as a `URI` and `reference` as a `URI-reference` (plain
/// RFC 3986, no IRIs) and resolves the one against the other.
///
/// # Errors
///
/// When either fails to parse; see [`resolve`] for the rest.
///
/// ```
/// use uriscan::syntax::resolve::resolve_str;
/// assert_eq!(resolve_str("s:/a", "..//g").unwrap(), "s:/.//g");
/// assert!(resolve_str("/no/scheme", "g").is_err());
/// ```
pub fn resolve_str(
    base: &str,
    reference: &str,
) -> Result<String, ResolveError> {
    resolve_with(Parser::new(), base, reference)
}

/// Like [`resolve_str`], with the given parser (for IRIs:
/// `Parser::new().iri(true)`).
///
/// # Errors
///
/// When either fails to parse; see [`resolve`] for the rest.
pub fn resolve_with(
    parser: Parser,
    base: &str,
    reference: &str,
) -> Result<String, ResolveError> {
    let b = parse_base(parser, base)?;
    let r = parser.parse_reference(reference).map_err(|e| {
        ResolveError::new(ResolveErrorKind::InvalidReference(e))
    })?;
    resolve(&b, &r)
}

/// Parses a base URI with `parser`, for use with [`resolve`] and
/// [`resolve_into`]. A fragment is allowed (and later ignored, 5.1).
///
/// # Errors
///
/// [`ResolveErrorKind::InvalidBase`] when `base` is no `URI-reference`,
/// [`ResolveErrorKind::BaseNotAbsolute`] when it has no scheme.
///
/// ```
/// use uriscan::syntax::Parser;
/// use uriscan::syntax::resolve::{ResolveErrorKind, parse_base};
/// assert!(parse_base(Parser::new(), "http://a/b#f").is_ok());
/// let e = parse_base(Parser::new(), "/a/b").unwrap_err();
/// assert_eq!(e.kind(), ResolveErrorKind::BaseNotAbsolute);
/// ```
pub fn parse_base(
    parser: Parser,
    base: &str,
) -> Result<UriRef<'_>, ResolveError> {
    let b = parser
        .parse_reference(base)
        .map_err(|e| ResolveError::new(ResolveErrorKind::InvalidBase(e)))?;
    if b.kind() != RefKind::Uri {
        return Err(ResolveError::new(ResolveErrorKind::BaseNotAbsolute));
    }
    Ok(b)
}

/// Like [`resolve`], appending the target to `out` (which is not cleared),
/// so that a caller resolving many references can reuse one buffer.
///
/// # Errors
///
/// As [`resolve`]; `out` is unchanged then.
pub fn resolve_into(
    base: &UriRef<'_>,
    reference: &UriRef<'_>,
    out: &mut String,
) -> Result<(), ResolveError> {
    let Some(base_scheme) = base.scheme() else {
        return Err(ResolveError::new(ResolveErrorKind::BaseNotAbsolute));
    };
    // 5.2.2, with each `T.x = ...` turned into the pieces to write.
    let r = reference;
    let (scheme, authority, query);
    // The path to write: `dir` is the part of the base path kept by the
    // merge (5.2.3), `path` the reference path; `dots` says whether 5.2.4
    // applies.
    let (dir, path, dots): (&str, &str, bool);
    if let Some(s) = r.scheme() {
        scheme = s;
        authority = r.authority();
        (dir, path, dots) = ("", r.path(), true);
        query = r.query();
    } else {
        scheme = base_scheme;
        if r.authority().is_some() {
            authority = r.authority();
            (dir, path, dots) = ("", r.path(), true);
            query = r.query();
        } else {
            authority = base.authority();
            if r.path().is_empty() {
                (dir, path, dots) = ("", base.path(), false);
                query = r.query().or(base.query());
            } else {
                if r.path().starts_with('/') {
                    (dir, path) = ("", r.path());
                } else {
                    (dir, path) = (merge_dir(base), r.path());
                }
                dots = true;
                query = r.query();
            }
        }
    }
    let fragment = r.fragment();

    // 5.3: at most one allocation, sized for every piece; +3 for the
    // delimiters ":" and the "/." of `protect_double_slash`.
    let len = scheme.len()
        + authority.map_or(0, |a| a.len() + 2)
        + dir.len()
        + path.len()
        + 3
        + query.map_or(0, |q| q.len() + 1)
        + fragment.map_or(0, |f| f.len() + 1);
    let mut buf = std::mem::take(out).into_bytes();
    buf.reserve(len);
    buf.extend_from_slice(scheme.as_bytes());
    buf.push(b':');
    if let Some(a) = authority {
        buf.extend_from_slice(b"//");
        buf.extend_from_slice(a.as_bytes());
    }
    let path_start = buf.len();
    if dots {
        remove_dots(dir.as_bytes(), path.as_bytes(), &mut buf);
    } else {
        buf.extend_from_slice(dir.as_bytes());
        buf.extend_from_slice(path.as_bytes());
    }
    if authority.is_none() {
        protect_double_slash(&mut buf, path_start);
    }
    if let Some(q) = query {
        buf.push(b'?');
        buf.extend_from_slice(q.as_bytes());
    }
    if let Some(f) = fragment {
        buf.push(b'#');
        buf.extend_from_slice(f.as_bytes());
    }
    *out = into_string(buf);
    Ok(())
}

/// Writes a path that starts at `path_start` in `buf` and begins with
/// `//` as `/.//...`, for a target without an authority, where `//` would
/// reparse as the start of one (see the [module docs](self)).
pub(crate) fn protect_double_slash(buf: &mut Vec<u8>, path_start: usize) {
    if buf[path_start..].starts_with(b"//") {
        buf.splice(path_start..path_start, *b"/.");
    }
}

/// 5.2.3, "Merge Paths": the part of the base path that the reference
/// path is appended to. With an authority and an empty base path that is
/// `/`; otherwise all of the base path up to and including its last `/`
/// (nothing if it has none).
fn merge_dir<'a>(base: &UriRef<'a>) -> &'a str {
    let p = base.path();
    if base.authority().is_some() && p.is_empty() {
        return "/";
    }
    match memchr::memrchr(b'/', p.as_bytes()) {
        Some(i) => &p[..=i],
        None => "",
    }
}

/// 5.2.4, "Remove Dot Segments": `path` without its `.` and `..`
/// segments.
///
/// ```
/// use uriscan::syntax::resolve::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// // only complete segments are dot segments
/// assert_eq!(remove_dot_segments("/a/..b/.c/"), "/a/..b/.c/");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    remove_dot_segments_into(path, &mut out);
    out
}

/// Like [`remove_dot_segments`], appending to `out`. A `..` never removes
/// anything that was in `out` before the call.
///
/// ```
/// use uriscan::syntax::resolve::remove_dot_segments_into;
/// let mut out = String::from("http://a");
/// remove_dot_segments_into("/../../g", &mut out);
/// assert_eq!(out, "http://a/g");
/// ```
pub fn remove_dot_segments_into(path: &str, out: &mut String) {
    let mut buf = std::mem::take(out).into_bytes();
    remove_dots(b"", path.as_bytes(), &mut buf);
    *out = into_string(buf);
}

/// 5.2.4 over the path `a + b` (a merge, 5.2.3, needs no buffer of its
/// own), appended to `buf`, whose earlier bytes are never touched.
///
/// Every cut below is at a `/` or a `.`, so the bytes appended are UTF-8
/// whenever `a` and `b` are.
pub(crate) fn remove_dots(a: &[u8], b: &[u8], buf: &mut Vec<u8>) {
    let floor = buf.len();
    buf.extend_from_slice(a);
    buf.extend_from_slice(b);
    // Without a dot segment every step is E, which copies. Most paths
    // have dots (`style.css`) but no dot segment, and the steps cost
    // about a third of a link's resolution on the corpus's HTML
    // (callgrind).
    if has_dot_segment(&buf[floor..]) {
        remove_dots_in_place(buf, floor);
    }
}

/// Whether `path` holds a dot segment: a `.` or `..` that starts the
/// path or follows a `/`, and ends it or is followed by one.
fn has_dot_segment(path: &[u8]) -> bool {
    memchr::memchr_iter(b'.', path).any(|j| {
        (j == 0 || path[j - 1] == b'/')
            && match path.get(j + 1) {
                None | Some(b'/') => true,
                Some(b'.') => matches!(path.get(j + 2), None | Some(b'/')),
                Some(_) => false,
            }
    })
}

/// The two-buffer algorithm of 5.2.4 over `buf[floor..]`, in place: the
/// output grows from `floor` behind the input, which each step consumes
/// at least as fast as it writes.
fn remove_dots_in_place(buf: &mut Vec<u8>, floor: usize) {
    let end = buf.len();
    // The input is `buf[r..end]`, the output `buf[floor..w]`.
    let (mut r, mut w) = (floor, floor);
    while r < end {
        let rest = &buf[r..end];
        if rest.starts_with(b"../") {
            // A: drop a leading "../" ...
            r += 3;
        } else if rest.starts_with(b"./") {
            // ... or "./".
            r += 2;
        } else if rest.starts_with(b"/./") {
            // B: "/./" becomes "/".
            r += 2;
        } else if rest == b"/." {
            // B: a final "/." becomes "/", which E then moves.
            buf[w] = b'/';
            w += 1;
            break;
        } else if rest.starts_with(b"/../") {
            // C: "/../" becomes "/", and the last output segment goes.
            r += 3;
            w = pop_segment(buf, floor, w);
        } else if rest == b"/.." {
            w = pop_segment(buf, floor, w);
            buf[w] = b'/';
            w += 1;
            break;
        } else if rest == b"." || rest == b".." {
            // D.
            break;
        } else {
            // E: move the first segment, with its leading "/".
            let seg = usize::from(rest[0] == b'/');
            let to = memchr::memchr(b'/', &rest[seg..])
                .map_or(rest.len(), |k| seg + k);
            buf.copy_within(r..r + to, w);
            r += to;
            w += to;
        }
    }
    buf.truncate(w);
}

/// Turns back into a `String` the bytes of a `String` that only UTF-8
/// preserving edits touched (see [`remove_dots`]).
///
/// Not checked again in release builds: the check holds for every input
/// by construction, and was a noticeable part of a resolution and of
/// `normalize`.
pub(crate) fn into_string(buf: Vec<u8>) -> String {
    debug_assert!(std::str::from_utf8(&buf).is_ok());
    // SAFETY: every caller builds `buf` by copying whole `&str`s, or runs
    // of them cut at ASCII bytes (`/`, `.`, `%`, the component
    // delimiters), and by pushing ASCII bytes only (delimiters, decoded
    // `unreserved` octets, case-changed ASCII letters and hex digits). A
    // cut before an ASCII byte is a char boundary and ASCII is UTF-8, so
    // the result is UTF-8; the proptests run the debug assertion above.
    unsafe { String::from_utf8_unchecked(buf) }
}

/// C: the end of the output `buf[floor..w]` without its last segment and
/// that segment's preceding `/` (if any), never below `floor`.
fn pop_segment(buf: &[u8], floor: usize, w: usize) -> usize {
    memchr::memrchr(b'/', &buf[floor..w]).map_or(floor, |k| floor + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_examples_of_5_2_4() {
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
    }

    #[test]
    fn dots_across_the_merge_boundary() {
        let mut out = Vec::new();
        remove_dots(b"/a/b/", b"../c", &mut out);
        assert_eq!(out, b"/a/c");
        out.clear();
        remove_dots(b"/a/", b"./x", &mut out);
        assert_eq!(out, b"/a/x");
        out.clear();
        // "/a/." + "./x" is "/a/../x": the `..` spans the two pieces.
        remove_dots(b"/a/.", b"./x", &mut out);
        assert_eq!(out, b"/x");
        out.clear();
        remove_dots(b"/a/", b"..", &mut out);
        assert_eq!(out, b"/");
    }

    #[test]
    fn pop_never_goes_below_the_floor() {
        let mut out = String::from("s://h/x");
        remove_dot_segments_into("/../../y", &mut out);
        assert_eq!(out, "s://h/x/y");
    }

    proptest::proptest! {
        /// The copy taken when there is no dot segment is what the steps
        /// of 5.2.4 give.
        #[test]
        fn the_copy_without_dot_segments_is_the_loop(
            a in "(/|\\.|a|%2E){0,8}",
            b in "(/|\\.|a|%2E){0,8}",
        ) {
            let (mut fast, mut slow) = (b"s:".to_vec(), b"s:".to_vec());
            remove_dots(a.as_bytes(), b.as_bytes(), &mut fast);
            slow.extend_from_slice(a.as_bytes());
            slow.extend_from_slice(b.as_bytes());
            remove_dots_in_place(&mut slow, 2);
            proptest::prop_assert_eq!(fast, slow);
        }
    }

    #[test]
    fn dot_segments_are_whole_segments() {
        for (a, b, yes) in [
            ("", ".", true),
            ("", "..", true),
            ("/a/", "./b", true),
            ("/a/.", "./b", true),
            ("/a/", "../b", true),
            ("/a/b", "/..", true),
            ("/a.", "b", false),
            ("", "a.css", false),
            ("/a/", ".hidden/x", false),
            ("/a/", "...", false),
            ("/a/..b/", "c", false),
        ] {
            let path = format!("{a}{b}");
            assert_eq!(has_dot_segment(path.as_bytes()), yes, "{path}");
        }
    }

    #[test]
    fn non_ascii_segments_survive() {
        assert_eq!(remove_dot_segments("/ä/./ö/../ü"), "/ä/ü");
    }
}
