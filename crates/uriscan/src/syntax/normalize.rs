//! Section 6, "Normalization and Comparison": rewriting a URI reference
//! into a normal form, so that equivalent references compare equal as
//! strings.
//!
//! The rules, by section of RFC 3986:
//!
//! - **6.2.1, "Simple String Comparison"**: [`equivalent`] compares the
//!   normal forms as strings, so it sits on the top rung of the ladder
//!   that this module reaches (6.2.3).
//! - **6.2.2, "Syntax-Based Normalization"** ([`normalize`]):
//!   - **6.2.2.1, "Case Normalization"**: the scheme and the host are
//!     lowercased (a reg-name and an IP literal alike; only ASCII letters,
//!     so the non-ASCII text of an IRI is left as it is); the userinfo,
//!     path, query and fragment keep their case. The hex digits of every
//!     percent-encoding, in every component, are uppercased: `%3a` becomes
//!     `%3A`.
//!   - **6.2.2.2, "Percent-Encoding Normalization"**: a percent-encoded
//!     `unreserved` character (`ALPHA / DIGIT / "-" / "." / "_" / "~"`)
//!     is decoded, in every component; in the host, a decoded letter is
//!     then lowercased. Nothing else is decoded: `%2F` is not `/`, and a
//!     percent-encoded UTF-8 octet stays encoded.
//!   - **6.2.2.3, "Path Segment Normalization"**: the path of a reference
//!     with a scheme goes through `remove_dot_segments` (5.2.4), after the
//!     decoding, so that `%2E%2E` is a `..` as the decoding says it is. A
//!     relative reference keeps its dot segments: they mean something
//!     only once it is resolved against a base (section 5.2).
//! - **6.2.3, "Scheme-Based Normalization"**
//!   ([`normalize_scheme_based`]): a port that is empty (3.2.3) or the
//!   default of its scheme ([`default_port`]: http 80, https 443, ws 80,
//!   wss 443, ftp 21) is dropped with its `:`; the empty path of an
//!   `http`, `https`, `ws` or `wss` URI with an authority becomes `/`.
//!   Empty components keep their delimiters: `http://h/?` stays.
//!
//! A path without an authority that would start with `//` after dot
//! segment removal is written `/.//...` instead, as
//! [`resolve`](super::resolve) does, so that the result reparses to the
//! same components.
//!
//! ```
//! use uriscan::syntax::{normalize::normalize, parse_reference};
//! let r = parse_reference("eXAMPLE://a/./b/../b/%63/%7bfoo%7d").unwrap();
//! assert_eq!(normalize(&r), "example://a/b/c/%7Bfoo%7D");
//! ```

use crate::syntax::chars::{UNRESERVED, hex_value};
use crate::syntax::resolve::{into_string, protect_double_slash, remove_dots};
use crate::syntax::{HostKind, ParseError, Parser, UriRef};

/// The syntax-based normal form (6.2.2) of `r`.
///
/// ```
/// use uriscan::syntax::{normalize::normalize, parse_reference};
/// let r = parse_reference("HTTP://User@Example.COM:80/%7euser/a/../b")
///     .unwrap();
/// assert_eq!(normalize(&r), "http://User@example.com:80/~user/b");
/// // a relative reference keeps its dot segments
/// let r = parse_reference("../a/./%41").unwrap();
/// assert_eq!(normalize(&r), "../a/./A");
/// ```
pub fn normalize(r: &UriRef<'_>) -> String {
    write(r, NormalForm::Syntax)
}

/// The scheme-based normal form (6.2.2 and 6.2.3) of `r`.
///
/// ```
/// use uriscan::syntax::{normalize::normalize_scheme_based, parse_uri};
/// let n = |s| normalize_scheme_based(&parse_uri(s).unwrap());
/// assert_eq!(n("http://example.com"), "http://example.com/");
/// assert_eq!(n("http://example.com:/"), "http://example.com/");
/// assert_eq!(n("HTTPS://example.com:443?q"), "https://example.com/?q");
/// assert_eq!(n("http://example.com:8080"), "http://example.com:8080/");
/// ```
pub fn normalize_scheme_based(r: &UriRef<'_>) -> String {
    write(r, NormalForm::SchemeBased)
}

/// Which normal form [`normalize_str`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormalForm {
    /// The syntax-based normal form (6.2.2), as [`normalize`] writes it.
    Syntax,
    /// The scheme-based normal form (6.2.3), as [`normalize_scheme_based`]
    /// writes it.
    SchemeBased,
}

/// Parses `s` as a `URI-reference` (plain RFC 3986) and returns its
/// normal form of kind `form`.
///
/// # Errors
///
/// When `s` does not parse.
///
/// ```
/// use uriscan::syntax::normalize::{NormalForm, normalize_str};
/// let n = normalize_str("FTP://h:21", NormalForm::SchemeBased);
/// assert_eq!(n.unwrap(), "ftp://h");
/// assert!(normalize_str("http://h/ a", NormalForm::Syntax).is_err());
/// ```
pub fn normalize_str(s: &str, form: NormalForm) -> Result<String, ParseError> {
    let r = Parser::new().parse_reference(s)?;
    Ok(write(&r, form))
}

/// Whether `a` and `b` are equivalent by the comparison ladder of 6.2, up
/// to scheme-based normalization (6.2.3): whether their scheme-based
/// normal forms are the same string (6.2.1).
///
/// Section 6.1 says to resolve relative references before comparing
/// them; two relative references are compared as they are, dot segments
/// and all.
///
/// ```
/// use uriscan::syntax::{normalize::equivalent, parse_uri};
/// let a = parse_uri("http://example.com/%7Efoo").unwrap();
/// let b = parse_uri("HTTP://EXAMPLE.com:80/a/../~foo").unwrap();
/// assert!(equivalent(&a, &b));
/// let c = parse_uri("http://example.com/%7efoo/").unwrap();
/// assert!(!equivalent(&a, &c));
/// ```
pub fn equivalent(a: &UriRef<'_>, b: &UriRef<'_>) -> bool {
    a.as_str() == b.as_str()
        || write(a, NormalForm::SchemeBased)
            == write(b, NormalForm::SchemeBased)
}

/// The default port of a scheme (case-insensitive), for the schemes whose
/// default 6.2.3 normalization knows: http 80, https 443, ws 80, wss 443,
/// ftp 21.
///
/// ```
/// use uriscan::syntax::normalize::default_port;
/// assert_eq!(default_port("HTTPS"), Some(443));
/// assert_eq!(default_port("gopher"), None);
/// ```
pub fn default_port(scheme: &str) -> Option<u16> {
    SCHEMES
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(scheme))
        .map(|s| s.default_port)
}

/// What 6.2.3 knows about a scheme.
struct SchemeRules {
    name: &'static str,
    /// RFC 9110 4.2 (http, https), RFC 6455 3 (ws, wss), RFC 1738 3.2
    /// (ftp).
    default_port: u16,
    /// Whether an empty path with an authority means `/`: RFC 9110 4.2.3
    /// for http(s), RFC 6455 3 for ws(s).
    empty_path_is_root: bool,
}

const SCHEMES: &[SchemeRules] = &[
    SchemeRules { name: "http", default_port: 80, empty_path_is_root: true },
    SchemeRules { name: "https", default_port: 443, empty_path_is_root: true },
    SchemeRules { name: "ws", default_port: 80, empty_path_is_root: true },
    SchemeRules { name: "wss", default_port: 443, empty_path_is_root: true },
    SchemeRules { name: "ftp", default_port: 21, empty_path_is_root: false },
];

fn rules(scheme: Option<&str>) -> Option<&'static SchemeRules> {
    let scheme = scheme?;
    SCHEMES.iter().find(|s| s.name.eq_ignore_ascii_case(scheme))
}

/// Whether the port digits `port` are the number `default` (`080` is
/// 80).
fn is_port(port: &str, default: u16) -> bool {
    let digits = port.trim_start_matches('0');
    digits.len() <= 5 && digits.parse::<u32>().ok() == Some(u32::from(default))
}

/// Writes the normal form of `r`: the components in the order of 5.3,
/// each through its rule of 6.2.2 (and 6.2.3 for the scheme-based form).
fn write(r: &UriRef<'_>, form: NormalForm) -> String {
    // Every rule shortens or keeps a component, apart from the "/." of
    // `protect_double_slash` and the "/" of an empty http path.
    let mut buf = Vec::with_capacity(r.as_str().len() + 2);
    let scheme_based = form == NormalForm::SchemeBased;
    let rules = if scheme_based { rules(r.scheme()) } else { None };
    if let Some(s) = r.scheme() {
        buf.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
        buf.push(b':');
    }
    if r.authority().is_some() {
        buf.extend_from_slice(b"//");
        if let Some(u) = r.userinfo() {
            pct_normalize(u.as_bytes(), false, &mut buf);
            buf.push(b'@');
        }
        let host = r.host().unwrap_or_default();
        match r.host_kind() {
            // An IP literal has no percent-encodings; its hex digits and
            // the "v" of IPvFuture are case-insensitive. An IPv4 address
            // is digits and dots.
            Some(HostKind::Ipv6 | HostKind::IpvFuture | HostKind::Ipv4) => {
                buf.extend(host.bytes().map(|b| b.to_ascii_lowercase()));
            }
            Some(HostKind::RegName) | None => {
                pct_normalize(host.as_bytes(), true, &mut buf);
            }
        }
        if let Some(p) = r.port() {
            let drop = scheme_based
                && (p.is_empty()
                    || rules.is_some_and(|s| is_port(p, s.default_port)));
            if !drop {
                buf.push(b':');
                buf.extend_from_slice(p.as_bytes());
            }
        }
    }
    let path_start = buf.len();
    let path = r.path();
    if r.scheme().is_some() {
        // 6.2.2.3 after 6.2.2.2: decode first, so that a decoded `.` is a
        // dot segment like any other.
        if path.contains('%') {
            let mut decoded = Vec::with_capacity(path.len());
            pct_normalize(path.as_bytes(), false, &mut decoded);
            remove_dots(b"", &decoded, &mut buf);
        } else {
            remove_dots(b"", path.as_bytes(), &mut buf);
        }
        if r.authority().is_none() {
            protect_double_slash(&mut buf, path_start);
        }
    } else {
        pct_normalize(path.as_bytes(), false, &mut buf);
    }
    if buf.len() == path_start
        && r.authority().is_some()
        && rules.is_some_and(|s| s.empty_path_is_root)
    {
        buf.push(b'/');
    }
    if let Some(q) = r.query() {
        buf.push(b'?');
        pct_normalize(q.as_bytes(), false, &mut buf);
    }
    if let Some(f) = r.fragment() {
        buf.push(b'#');
        pct_normalize(f.as_bytes(), false, &mut buf);
    }
    into_string(buf)
}

/// Appends `s` to `out` with its percent-encodings normalized (6.2.2.1,
/// 6.2.2.2): an encoded `unreserved` byte decoded, every other encoding
/// with uppercase hex digits. With `lower`, ASCII letters outside the
/// encodings, and decoded ones, are lowercased (for a reg-name).
///
/// Only ASCII bytes are changed and only ASCII bytes are produced, so
/// the output is UTF-8 whenever `s` is.
fn pct_normalize(s: &[u8], lower: bool, out: &mut Vec<u8>) {
    let case = |b: u8| if lower { b.to_ascii_lowercase() } else { b };
    let mut i = 0;
    while i < s.len() {
        // Copy the run up to the next `%` in one go when no case change
        // is needed.
        let next = memchr::memchr(b'%', &s[i..]).map_or(s.len(), |k| i + k);
        if lower {
            out.extend(s[i..next].iter().map(|&b| b.to_ascii_lowercase()));
        } else {
            out.extend_from_slice(&s[i..next]);
        }
        i = next;
        if i == s.len() {
            break;
        }
        let hex = s.get(i + 1).and_then(|&h| hex_value(h)).and_then(|h| {
            s.get(i + 2).and_then(|&l| hex_value(l)).map(|l| h << 4 | l)
        });
        match hex {
            Some(v) if UNRESERVED.contains(v) => {
                out.push(case(v));
                i += 3;
            }
            Some(_) => {
                out.extend_from_slice(&[
                    b'%',
                    s[i + 1].to_ascii_uppercase(),
                    s[i + 2].to_ascii_uppercase(),
                ]);
                i += 3;
            }
            // Not a pct-encoded octet: a validating parser never lets one
            // through; copy the `%` as it is.
            None => {
                out.push(b'%');
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pct(s: &str, lower: bool) -> String {
        let mut out = Vec::new();
        pct_normalize(s.as_bytes(), lower, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn percent_encodings_are_uppercased_or_decoded() {
        assert_eq!(pct("%7e%2f%41%c3%A9", false), "~%2FA%C3%A9");
        assert_eq!(pct("Ex%41MPLE%2e%2F", true), "example.%2F");
        assert_eq!(pct("100%", false), "100%");
        assert_eq!(pct("%4", false), "%4");
        assert_eq!(pct("Ä%41", true), "Äa");
    }

    #[test]
    fn default_ports_are_numbers() {
        assert!(is_port("80", 80));
        assert!(is_port("0080", 80));
        assert!(!is_port("8080", 80));
        assert!(!is_port("", 80));
        assert!(!is_port("000000000000000000000000000000000000080x", 80));
        assert!(!is_port("99999999999999999999999", 80));
    }
}
