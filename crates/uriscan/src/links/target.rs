//! From a link as written to the URI it names: the repairs browsers make,
//! then RFC 3986 section 5 resolution against the document's base.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;

use super::shortcut::Shortcut;
use crate::syntax::chars::{Table, needs_no_repair};
use crate::syntax::iri::{is_iprivate, is_ucschar};
use crate::syntax::resolve::{
    ResolveErrorKind, parse_base, remove_dot_segments, resolve_into,
};
use crate::syntax::{ParseError, Parser, UriRef};

/// Why a link names no target: [`kind`](LinkError::kind) says what is
/// wrong, `Display` says it for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    kind: LinkErrorKind,
    /// The base that is not a URI, for [`LinkErrorKind::InvalidBase`].
    base: Option<Box<str>>,
}

/// What is wrong with a link, for a [`LinkError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkErrorKind {
    /// The link is not a URI reference, even after the repairs browsers
    /// make (see [`repair`]); the error is the parser's, on the repaired
    /// text.
    Invalid(ParseError),
    /// The base URI in effect (`<base href>`, or the one given) is not a
    /// URI, so a relative link cannot be resolved: see
    /// [`LinkError::base`].
    InvalidBase,
    /// In the URL Standard mode
    /// ([`LinkExtractorBuilder::url_standard`](super::LinkExtractorBuilder::url_standard)),
    /// the URL Standard gives no URL for the link against its base.
    #[cfg(feature = "url-standard")]
    UrlStandard(super::UrlStandardError),
    /// The target refers to a document attribute (AsciiDoc's `{name}`)
    /// that no entry defines, so what it links to is unknown: see
    /// [`LinkError::attribute`] for the attribute's name.
    UndefinedAttribute,
}

impl LinkError {
    /// What is wrong.
    pub fn kind(&self) -> &LinkErrorKind {
        &self.kind
    }
    /// The base URI that is not one, for [`LinkErrorKind::InvalidBase`].
    pub fn base(&self) -> Option<&str> {
        match self.kind {
            LinkErrorKind::UndefinedAttribute => None,
            _ => self.base.as_deref(),
        }
    }
    /// The attribute's name, for [`LinkErrorKind::UndefinedAttribute`].
    pub fn attribute(&self) -> Option<&str> {
        match self.kind {
            LinkErrorKind::UndefinedAttribute => self.base.as_deref(),
            _ => None,
        }
    }
    /// The link, repaired, is no URI reference: `error` says why.
    pub(crate) fn invalid(error: ParseError) -> LinkError {
        LinkError { kind: LinkErrorKind::Invalid(error), base: None }
    }
    /// The URL Standard gives no URL for the link.
    #[cfg(feature = "url-standard")]
    pub(crate) fn url_standard(error: super::UrlStandardError) -> LinkError {
        LinkError { kind: LinkErrorKind::UrlStandard(error), base: None }
    }
    /// The target refers to the undefined attribute `name`.
    pub(crate) fn undefined_attribute(name: &str) -> LinkError {
        LinkError {
            kind: LinkErrorKind::UndefinedAttribute,
            base: Some(name.into()),
        }
    }
    /// The base a relative link needs, `base`, is no URI.
    fn invalid_base(base: &str) -> LinkError {
        LinkError { kind: LinkErrorKind::InvalidBase, base: Some(base.into()) }
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            LinkErrorKind::Invalid(e) => write!(f, "not a URI reference: {e}"),
            LinkErrorKind::UndefinedAttribute => write!(
                f,
                "attribute {{{}}} is not defined",
                self.attribute().unwrap_or("")
            ),
            LinkErrorKind::InvalidBase => {
                write!(f, "invalid base URI {:?}", self.base().unwrap_or(""))
            }
            #[cfg(feature = "url-standard")]
            LinkErrorKind::UrlStandard(e) => {
                write!(f, "not a URL by the URL Standard: {e}")
            }
        }
    }
}

impl std::error::Error for LinkError {}

/// The schemes whose URLs browsers repair the most (WHATWG's "special"
/// schemes): for them a `\` is a `/`.
fn is_special(scheme: &str) -> bool {
    ["http", "https", "ftp", "ws", "wss", "file"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

/// The scheme of `link`, if it starts with one (`scheme ":"`, 3.1).
pub(crate) fn scheme_of(link: &str) -> Option<&str> {
    let s = &link[..link.find(':')?];
    crate::syntax::is_scheme(s).then_some(s)
}

/// The scheme of the base a link is repaired against, for [`repair`]:
/// browsers read `\` as `/` in the URL standard's special schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseScheme {
    /// `http`, `https`, `ftp`, `ws`, `wss` or `file`.
    Special,
    /// Any other scheme, or no base.
    Other,
}

/// The repairs a browser makes to a link before parsing it, so that what
/// works in a browser is not called broken:
///
/// - leading and trailing C0 controls and spaces are removed, and every
///   tab and line break (WHATWG URL parsing, step 1 and 3);
/// - in a special scheme (`http`, `https`, `ftp`, `ws`, `wss`, `file`, or
///   a relative link against such a base), `\` is `/`;
/// - outside the authority, the characters RFC 3986 does not allow are
///   percent-encoded: space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`,
///   `}`, `[` and `]`, controls, a `%` not followed by two hex digits, a
///   second `#`, and non-ASCII characters that are not IRI characters
///   (RFC 3987 `ucschar`, and `iprivate` in the query). IRI characters
///   are kept: the target is an IRI then.
///
/// The authority is left as written: a space in a host is an error, as it
/// is for a browser.
pub fn repair(link: &str, base: BaseScheme) -> Cow<'_, str> {
    if needs_no_repair(link.as_bytes()) {
        // The common case: nothing to repair (no space or control to trim
        // either), nothing to copy.
        return Cow::Borrowed(link);
    }
    Cow::Owned(repair_copy(link, base))
}

/// [`repair`] by its steps, always copying: the reference that its no-copy
/// path is held to.
fn repair_copy(link: &str, base: BaseScheme) -> String {
    let is_c0_or_space = |c: char| c <= ' ';
    let trimmed = link.trim_matches(is_c0_or_space);
    let special = match scheme_of(trimmed) {
        Some(s) => is_special(s),
        None => base == BaseScheme::Special,
    };
    let mut s: String = trimmed
        .chars()
        .filter(|&c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    if special {
        s = s.replace('\\', "/");
    }
    // The authority: after `scheme://` or a leading `//`, up to the next
    // `/`, `?` or `#`.
    let after_scheme = scheme_of(&s).map_or(0, |sc| sc.len() + 1);
    let auth = if s[after_scheme..].starts_with("//") {
        let start = after_scheme + 2;
        let end =
            s[start..].find(['/', '?', '#']).map_or(s.len(), |i| start + i);
        Some((start, end))
    } else {
        None
    };
    let mut out = String::with_capacity(s.len() + 8);
    let mut seen_hash = false;
    let mut in_query = false;
    let bytes = s.as_bytes();
    for (i, c) in s.char_indices() {
        if auth.is_some_and(|(a, b)| (a..b).contains(&i)) {
            out.push(c);
            continue;
        }
        let encode = match c {
            '#' if seen_hash => true,
            '#' => {
                seen_hash = true;
                false
            }
            '?' => {
                in_query |= !seen_hash;
                false
            }
            '%' => {
                !(bytes.len() > i + 2
                    && bytes[i + 1].is_ascii_hexdigit()
                    && bytes[i + 2].is_ascii_hexdigit())
            }
            ' ' | '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}'
            | '[' | ']' => true,
            c if c.is_ascii_control() => true,
            c if c.is_ascii() => false,
            c => {
                !(is_ucschar(c) || (in_query && !seen_hash && is_iprivate(c)))
            }
        };
        if encode {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The base a document's links resolve against, parsed once.
#[derive(Debug)]
pub(crate) struct Base {
    /// The base URI, or why it is not one.
    uri: Result<String, String>,
    /// For root-relative links (`/x`) when the base is the document's own
    /// location: the URI of the root directory, ending in `/`.
    root: Option<String>,
}

impl Base {
    pub(crate) fn new(uri: Option<&str>, root: Option<&str>) -> Option<Base> {
        let uri = uri?;
        let parser = Parser::new().iri(true);
        let uri = match parse_base(parser, uri) {
            Ok(_) => Ok(uri.to_owned()),
            Err(_) => Err(uri.to_owned()),
        };
        let root = root.map(|r| {
            if r.ends_with('/') { r.to_owned() } else { format!("{r}/") }
        });
        Some(Base { uri, root })
    }

    /// The base as given, a URI or not.
    #[cfg(feature = "url-standard")]
    pub(crate) fn as_str(&self) -> &str {
        match &self.uri {
            Ok(u) | Err(u) => u,
        }
    }

    /// The base parsed, to resolve a document's links without parsing it
    /// again for each.
    pub(crate) fn resolver(&self) -> Resolver<'_> {
        let parser = Parser::new().iri(true);
        let base = match &self.uri {
            Ok(b) => parse_base(parser, b).map_err(|_| b.as_str()),
            Err(b) => Err(b.as_str()),
        };
        let root =
            self.root.as_deref().and_then(|r| parse_base(parser, r).ok());
        let special = base
            .as_ref()
            .ok()
            .and_then(|b| b.scheme())
            .is_some_and(is_special);
        let base_scheme =
            if special { BaseScheme::Special } else { BaseScheme::Other };
        Resolver { parser, base, root, base_scheme, shortcut: OnceCell::new() }
    }
}

/// A [`Base`] parsed once, for all the links of a document.
pub(crate) struct Resolver<'b> {
    parser: Parser,
    base: Result<UriRef<'b>, &'b str>,
    root: Option<UriRef<'b>>,
    base_scheme: BaseScheme,
    /// The base's prefixes for plain relative links, found at the first
    /// link: a document of absolute links only never needs them.
    shortcut: OnceCell<Option<Shortcut>>,
}

impl Resolver<'_> {
    /// Resolves `link`: repaired, then resolved by 5.2; a root-relative
    /// link goes under the root when there is one.
    pub(crate) fn resolve(&self, link: &str) -> Result<String, LinkError> {
        let mut out = String::new();
        self.resolve_into(link, &mut out)?;
        Ok(out)
    }

    /// [`resolve`](Resolver::resolve), appending the target to `out` (left
    /// as it was on an error), so that a document's links share one
    /// buffer.
    pub(crate) fn resolve_into(
        &self,
        link: &str,
        out: &mut String,
    ) -> Result<(), LinkError> {
        if let Ok(base) = &self.base {
            // Most links of a page are absolute: they are their own
            // targets, before the base's prefixes are ever found.
            if super::shortcut::plain_absolute_into(link, out) {
                return Ok(());
            }
            let shortcut = self.shortcut.get_or_init(|| {
                Shortcut::of_plain_base(base.as_str()).or_else(|| {
                    Shortcut::new(|r| {
                        let r = self.parser.parse_reference(r).ok()?;
                        let mut t = String::new();
                        resolve_into(base, &r, &mut t).ok()?;
                        Some(t)
                    })
                })
            });
            if let Some(s) = shortcut
                && s.resolve_into(link, out)
            {
                return Ok(());
            }
        }
        let repaired = repair(link, self.base_scheme);
        let reference = self
            .parser
            .parse_reference(&repaired)
            .map_err(LinkError::invalid)?;
        let base =
            self.base.as_ref().map_err(|b| LinkError::invalid_base(b))?;
        if let Some(root) = &self.root
            && reference.scheme().is_none()
            && reference.authority().is_none()
            && reference.path().starts_with('/')
        {
            // `/guide/x` under the root: `./guide/x` against the root
            // directory's URI. Its dot segments are removed first, as RFC
            // 3986 5.2.4 removes them from an absolute path: `/../x` is
            // `/x`, never above the root.
            let end = repaired.find(['?', '#']).unwrap_or(repaired.len());
            let path = remove_dot_segments(&repaired[..end]);
            let local = format!(".{path}{}", &repaired[end..]);
            let r = self
                .parser
                .parse_reference(&local)
                .map_err(LinkError::invalid)?;
            return resolve_into(root, &r, out)
                .map_err(|_| LinkError::invalid_base(root.as_str()));
        }
        resolve_into(base, &reference, out).map_err(|e| match e.kind() {
            ResolveErrorKind::InvalidReference(p) => LinkError::invalid(p),
            _ => LinkError::invalid_base(base.as_str()),
        })
    }
}

/// Percent-decodes `s` (RFC 3986 2.1), lossily where the bytes are not
/// UTF-8.
pub fn percent_decode(s: &str) -> Cow<'_, str> {
    let decoded = crate::syntax::chars::percent_decode(s.as_bytes());
    match decoded {
        Cow::Borrowed(_) => Cow::Borrowed(s),
        Cow::Owned(v) => Cow::Owned(match String::from_utf8(v) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }),
    }
}

/// What a path names, for [`file_uri`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// A file: its URI is the path's.
    File,
    /// A directory: its URI ends in `/`, so that links resolve inside it.
    Directory,
}

/// The `file:` URI of an absolute path (RFC 8089), with every byte that
/// is not allowed in a path segment percent-encoded; a
/// [`Directory`](PathKind::Directory)'s ends in `/`.
pub fn file_uri(path: &std::path::Path, kind: PathKind) -> String {
    let bytes = path_bytes(path);
    // Every document of a tree passes here: sized once, the plain runs
    // (nearly all of a path) copied whole.
    let mut out = String::with_capacity("file:///".len() + bytes.len() + 1);
    out.push_str("file://");
    if !bytes.starts_with(b"/") {
        out.push('/');
    }
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let run = FILE_PATH_KEPT.prefix_len(rest);
        // The kept bytes are ASCII.
        out.push_str(std::str::from_utf8(&rest[..run]).unwrap_or_default());
        let Some((&b, after)) = rest[run..].split_first() else { break };
        if cfg!(windows) && b == b'\\' {
            out.push('/');
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
        rest = after;
    }
    if kind == PathKind::Directory && !out.ends_with('/') {
        out.push('/');
    }
    out
}

/// The bytes of a path a `file:` URI keeps as they are: a segment's
/// (`pchar`) and `/`, but `%`.
const FILE_PATH_KEPT: Table =
    crate::syntax::chars::PATH.without(Table::new(b"%"));

#[cfg(unix)]
fn path_bytes(path: &std::path::Path) -> Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    Cow::Borrowed(path.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(path: &std::path::Path) -> Cow<'_, [u8]> {
    match path.to_string_lossy() {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    }
}

/// The path a `file:` URI names (its authority empty or `localhost`),
/// percent-decoded; `None` for other URIs. The query and fragment are
/// not part of it.
pub fn file_path(uri: &str) -> Option<std::path::PathBuf> {
    file_path_bytes(uri).map(|b| path_from_bytes(b.into_owned()))
}

/// [`file_path`] as the bytes [`Path::as_encoded_bytes`] gives, borrowed
/// from `uri` when nothing is percent-encoded: the checker looks
/// millions of links up by it, and most name a path already met.
///
/// [`Path::as_encoded_bytes`]: std::path::Path
pub(crate) fn file_path_bytes(uri: &str) -> Option<Cow<'_, [u8]>> {
    let r = Parser::new().iri(true).parse_uri(uri).ok()?;
    if !r.scheme()?.eq_ignore_ascii_case("file") {
        return None;
    }
    match r.host() {
        None | Some("") => {}
        Some(h) if h.eq_ignore_ascii_case("localhost") => {}
        Some(_) => return None,
    }
    let bytes = crate::syntax::chars::percent_decode(r.path().as_bytes());
    #[cfg(not(unix))]
    // Paths are Unicode there: what the decoded bytes name, lossily.
    let bytes = match String::from_utf8_lossy(&bytes) {
        Cow::Borrowed(_) => bytes,
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    };
    Some(bytes)
}

/// The path whose [`file_path_bytes`] are `bytes`.
pub(crate) fn path_from_bytes(bytes: Vec<u8>) -> std::path::PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        std::path::PathBuf::from(std::ffi::OsString::from_vec(bytes))
    }
    #[cfg(not(unix))]
    {
        std::path::PathBuf::from(String::from_utf8(bytes).unwrap_or_else(
            |e| String::from_utf8_lossy(e.as_bytes()).into_owned(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_are_those_of_browsers() {
        assert!(matches!(
            repair("a/b?c=d", BaseScheme::Other),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            repair("a/%41#f", BaseScheme::Other),
            Cow::Borrowed(_)
        ));
        assert_eq!(repair("a/b?c#d", BaseScheme::Other), "a/b?c#d");
        assert_eq!(repair("  a b.png\n", BaseScheme::Other), "a%20b.png");
        assert_eq!(repair("a\tb\nc", BaseScheme::Other), "abc");
        assert_eq!(
            repair("http:\\\\h\\a\\b", BaseScheme::Other),
            "http://h/a/b"
        );
        assert_eq!(repair("a\\b", BaseScheme::Special), "a/b");
        assert_eq!(repair("a\\b", BaseScheme::Other), "a%5Cb");
        assert_eq!(repair("x#a#b", BaseScheme::Other), "x#a%23b");
        assert_eq!(repair("100%", BaseScheme::Other), "100%25");
        assert_eq!(repair("%41%4", BaseScheme::Other), "%41%254");
        assert_eq!(
            repair("/wiki/ジョン・スミス", BaseScheme::Other),
            "/wiki/ジョン・スミス"
        );
        assert_eq!(repair("a{b}|c", BaseScheme::Other), "a%7Bb%7D%7Cc");
        // The authority is left alone: a space in a host stays an error.
        assert_eq!(
            repair("http://a b/c d", BaseScheme::Other),
            "http://a b/c%20d"
        );
    }

    proptest::proptest! {
        /// The URI of a path against the byte-at-a-time encoding the
        /// runs replace.
        #[cfg(unix)]
        #[test]
        fn file_uri_is_the_bytewise_encoding(
            bytes in proptest::collection::vec(
                proptest::sample::select(b"/a.Z-_~%:@ #?\\\xe9\xff!$'".to_vec()),
                0..30,
            ),
            directory: bool,
        ) {
            use std::os::unix::ffi::OsStrExt;
            let path = std::path::Path::new(std::ffi::OsStr::from_bytes(&bytes));
            let kind = if directory { PathKind::Directory } else { PathKind::File };
            let mut simple = String::from("file://");
            if !bytes.starts_with(b"/") {
                simple.push('/');
            }
            for &b in &bytes {
                if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
                    simple.push(char::from(b));
                } else {
                    simple.push_str(&format!("%{b:02X}"));
                }
            }
            if directory && !simple.ends_with('/') {
                simple.push('/');
            }
            proptest::prop_assert_eq!(file_uri(path, kind), simple);
        }
        /// The no-copy path gives what the steps give: links of the
        /// characters it lets through, with a few others (or a second
        /// `#`, a lone `%`) put in somewhere.
        #[test]
        fn repair_without_a_copy_is_repair(
            kept in "[a-zA-Z0-9:/?%.~!$&'()*+,;=@_-]{0,20}",
            other in "[#% \t\n\\\\^{}\\[\\]|\"<>`\u{0}-\u{1f}\u{7f}é\u{E000}\u{FFFD}]{0,2}",
            at: usize,
            special: bool,
        ) {
            let at = at % (kept.len() + 1);
            let link = format!("{}{other}{}", &kept[..at], &kept[at..]);
            let base =
                if special { BaseScheme::Special } else { BaseScheme::Other };
            let fast = repair(&link, base);
            proptest::prop_assert_eq!(fast.as_ref(), repair_copy(&link, base));
        }
    }

    #[test]
    fn resolution_with_a_root() {
        let base = Base::new(
            Some("file:///repo/docs/guide.md"),
            Some("file:///repo"),
        )
        .unwrap();
        assert_eq!(
            base.resolver().resolve("../install.md#setup").unwrap(),
            "file:///repo/install.md#setup"
        );
        assert_eq!(
            base.resolver().resolve("/img/a.png").unwrap(),
            "file:///repo/img/a.png"
        );
        // Dot segments above the root go, as RFC 3986 5.2.4 says.
        assert_eq!(
            base.resolver().resolve("/../README.md#x").unwrap(),
            "file:///repo/README.md#x"
        );
        assert_eq!(
            base.resolver().resolve("/a/../../b/./c?q=/../").unwrap(),
            "file:///repo/b/c?q=/../"
        );
        assert_eq!(
            base.resolver().resolve("").unwrap(),
            "file:///repo/docs/guide.md"
        );
        assert_eq!(
            base.resolver().resolve("#x").unwrap(),
            "file:///repo/docs/guide.md#x"
        );
        assert_eq!(
            base.resolver().resolve("a%20b.png").unwrap(),
            "file:///repo/docs/a%20b.png"
        );
        assert_eq!(
            base.resolver().resolve("a b.png").unwrap(),
            "file:///repo/docs/a%20b.png"
        );
        assert!(matches!(
            base.resolver().resolve("http://a:port/").unwrap_err().kind(),
            LinkErrorKind::Invalid(_)
        ));
        let web = Base::new(Some("http://h/a/b"), None).unwrap();
        assert_eq!(web.resolver().resolve("/x").unwrap(), "http://h/x");
        assert_eq!(web.resolver().resolve("c\\d").unwrap(), "http://h/a/c/d");
    }

    #[test]
    fn file_uris_round_trip() {
        let p = std::path::Path::new("/a b/c#d/é%.md");
        let u = file_uri(p, PathKind::File);
        assert_eq!(u, "file:///a%20b/c%23d/%C3%A9%25.md");
        assert_eq!(file_path(&u).unwrap(), p);
        assert_eq!(
            file_uri(std::path::Path::new("/r"), PathKind::Directory),
            "file:///r/"
        );
        assert_eq!(file_path("http://a/b"), None);
        assert_eq!(
            file_path("file://localhost/x").unwrap(),
            std::path::Path::new("/x")
        );
        assert_eq!(percent_decode("a%20b%zz"), "a b%zz");
    }
}
