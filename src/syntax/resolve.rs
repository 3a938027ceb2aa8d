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

/// The input buffer of 5.2.4: the concatenation `a + b`, read from `i`.
/// Two pieces so that a merge (5.2.3) needs no buffer of its own.
struct Input<'a> {
    a: &'a [u8],
    b: &'a [u8],
    i: usize,
}

impl Input<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.a.len() + self.b.len()
    }

    #[inline]
    fn at(&self, j: usize) -> Option<u8> {
        if j < self.a.len() {
            Some(self.a[j])
        } else {
            self.b.get(j - self.a.len()).copied()
        }
    }

    /// Whether the rest of the input starts with `p`.
    #[inline]
    fn starts_with(&self, p: &[u8]) -> bool {
        p.iter().enumerate().all(|(k, &c)| self.at(self.i + k) == Some(c))
    }

    /// Whether the rest of the input is exactly `p`.
    #[inline]
    fn is(&self, p: &[u8]) -> bool {
        self.len() - self.i == p.len() && self.starts_with(p)
    }

    /// The end of the segment that starts at `from`: the next `/` or the
    /// end of the input.
    fn segment_end(&self, from: usize) -> usize {
        let al = self.a.len();
        if from < al
            && let Some(k) = memchr::memchr(b'/', &self.a[from..])
        {
            return from + k;
        }
        let bf = from.max(al) - al;
        memchr::memchr(b'/', &self.b[bf..]).map_or(self.len(), |k| al + bf + k)
    }

    /// Appends bytes `from..to` of the input to `out`.
    fn copy(&self, from: usize, to: usize, out: &mut Vec<u8>) {
        let al = self.a.len();
        if from < al {
            out.extend_from_slice(&self.a[from..to.min(al)]);
        }
        if to > al {
            out.extend_from_slice(&self.b[from.max(al) - al..to - al]);
        }
    }
}

/// The two-buffer algorithm of 5.2.4 over the input `a + b`, appended
/// to `buf`, whose earlier bytes are never touched.
///
/// Every cut below is at a `/` or a `.`, so the bytes appended are UTF-8
/// whenever `a` and `b` are.
pub(crate) fn remove_dots(a: &[u8], b: &[u8], buf: &mut Vec<u8>) {
    // No `.` at all: no dot segment, nothing to do but copy.
    if memchr::memchr(b'.', a).is_none() && memchr::memchr(b'.', b).is_none() {
        buf.extend_from_slice(a);
        buf.extend_from_slice(b);
        return;
    }
    let floor = buf.len();
    let mut inp = Input { a, b, i: 0 };
    let n = inp.len();
    while inp.i < n {
        if inp.starts_with(b"../") {
            // A: drop a leading "../" ...
            inp.i += 3;
        } else if inp.starts_with(b"./") {
            // ... or "./".
            inp.i += 2;
        } else if inp.starts_with(b"/./") {
            // B: "/./" becomes "/".
            inp.i += 2;
        } else if inp.is(b"/.") {
            // B: a final "/." becomes "/", which E then moves.
            buf.push(b'/');
            break;
        } else if inp.starts_with(b"/../") {
            // C: "/../" becomes "/", and the last output segment goes.
            inp.i += 3;
            pop_segment(buf, floor);
        } else if inp.is(b"/..") {
            pop_segment(buf, floor);
            buf.push(b'/');
            break;
        } else if inp.is(b".") || inp.is(b"..") {
            // D.
            break;
        } else {
            // E: move the first segment, with its leading "/".
            let from = inp.i;
            let seg = if inp.at(from) == Some(b'/') { from + 1 } else { from };
            let to = inp.segment_end(seg);
            inp.copy(from, to, buf);
            inp.i = to;
        }
    }
}

/// Turns back into a `String` the bytes of a `String` that only UTF-8
/// preserving edits touched (see [`remove_dots`]).
///
/// Not checked again in release builds: the check held for every input
/// by construction, and cost about a tenth of a resolution (the 5.4
/// references of `benches/resolve.rs`: 77-79 ns each with it, 67-71
/// without) and 4.5% of the cycles of `normalize` (perf).
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

/// C: removes the last segment of the output and its preceding `/` (if
/// any), never going below `floor`.
fn pop_segment(buf: &mut Vec<u8>, floor: usize) {
    let cut =
        memchr::memrchr(b'/', &buf[floor..]).map_or(floor, |k| floor + k);
    buf.truncate(cut);
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

    #[test]
    fn non_ascii_segments_survive() {
        assert_eq!(remove_dot_segments("/ä/./ö/../ü"), "/ä/ü");
    }
}
