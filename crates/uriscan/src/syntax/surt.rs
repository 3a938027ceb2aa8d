//! SURT, the Sort-friendly URI Reordering Transform: the key under which
//! web archives index a URL (Common Crawl's CDX index, the Wayback
//! Machine), with the host's labels reversed so that a site's pages sort
//! together: `http://www.archive.org/goo/?b&a` becomes
//! `org,archive)/goo?a&b`.
//!
//! The form is that of the Internet Archive's `surt` package (the Python
//! port of `WaybackURLKeyMaker`) with its defaults, which is what Common
//! Crawl's index uses: no scheme, no trailing comma, IPv4 addresses
//! reversed too, and its default canonicalization:
//!
//! - the fragment and the userinfo are dropped, the port too when it is
//!   the scheme's default (http 80, https 443);
//! - the host is percent-decoded, lowercased, stripped of dots at its ends
//!   (and `..` made `.`), of a leading `www.` (or `www2.`, ...), and an
//!   all-digit host is read as a 32-bit IPv4 address;
//! - the path and query are percent-decoded repeatedly and then encoded
//!   once (every byte outside `!`..`~`, and `%` and `#`); the path loses
//!   its dot segments, empty segments and trailing slash (`/` itself
//!   stays) and is lowercased;
//! - the query loses the session ids the package strips (`jsessionid`,
//!   `phpsessid`, `sid` of 32 letters and digits, `aspsessionidXXXXXXXX`
//!   of 24 letters, `cfid` and `cftoken`), is lowercased, and its
//!   `&`-separated arguments are sorted (by name, then value); an empty
//!   query is dropped with its `?`;
//! - a URI with no authority (`mailto:`, `dns:`, `urn:`) is kept as it is,
//!   less its fragment.
//!
//! Not done here: the package's IDNA step (a non-ASCII host is UTF-8
//! percent-encoded instead, as the package does when IDNA fails; the
//! command line's `--surt` turns hosts into IDNA first), its octal IPv4
//! forms, and its path session ids (`/(S(...))/`).
//!
//! ```
//! use uriscan::syntax::surt::surt;
//! assert_eq!(surt("http://www.archive.org/").as_deref(), Some("org,archive)/"));
//! assert_eq!(
//!     surt("http://archive.org/goo/?a=2&b&a=1").as_deref(),
//!     Some("org,archive)/goo?a=1&a=2&b")
//! );
//! assert_eq!(surt("mailto:foo@example.com").as_deref(), Some("mailto:foo@example.com"));
//! ```

use super::Parser;
use super::chars::hex_value;

/// The SURT key of the absolute URI (or IRI) `uri`; `None` when it does
/// not parse as one.
pub fn surt(uri: &str) -> Option<String> {
    let r = Parser::new().iri(true).parse_uri(uri).ok()?;
    let scheme = r.scheme()?.to_ascii_lowercase();
    let Some(host) = r.host() else {
        let end = r.fragment_span().map_or(uri.len(), |f| f.start - 1);
        return Some(format!("{scheme}:{}", &uri[scheme.len() + 1..end]));
    };
    let mut out = String::with_capacity(uri.len() + 8);
    out.push_str(&surt_host(host));
    let default = match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    };
    // The package reads the port as a number.
    if let Some(port) = r.port().and_then(|p| p.parse::<u64>().ok())
        && Some(port) != default
    {
        out.push_str(&format!(":{port}"));
    }
    out.push(')');
    let path = canonical_path(r.path());
    let query = r.query().and_then(canonical_query);
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(&q);
    }
    Some(out)
}

/// The host part: canonicalized, then its labels reversed and joined by
/// commas.
fn surt_host(host: &str) -> String {
    let decoded = unescape_repeatedly(host.as_bytes());
    let mut h = String::from_utf8_lossy(&decoded).to_ascii_lowercase();
    while h.contains("..") {
        h = h.replace("..", ".");
    }
    let h = h.trim_matches('.');
    let h = match ipv4_number(h) {
        Some(ip) => ip,
        None => escape_once(h.as_bytes()),
    };
    let h = strip_www(&h);
    let mut labels: Vec<&str> = h.split('.').collect();
    labels.reverse();
    labels.join(",")
}

/// An all-digit host as the IPv4 address of its low 32 bits, as the
/// package reads it.
fn ipv4_number(h: &str) -> Option<String> {
    if h.is_empty() || !h.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = h.parse::<u128>().ok()? as u32;
    let [a, b, c, d] = n.to_be_bytes();
    Some(format!("{a}.{b}.{c}.{d}"))
}

/// The host without a leading `www.`, `www2.`, ... (`www\d*\.`).
fn strip_www(h: &str) -> &str {
    let Some(rest) = h.strip_prefix("www") else { return h };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.strip_prefix('.').unwrap_or(h)
}

/// The path: decoded, its dot segments and empty segments dropped,
/// encoded once, lowercased, its trailing slash dropped.
fn canonical_path(path: &str) -> String {
    let decoded = unescape_repeatedly(path.as_bytes());
    let mut kept: Vec<&[u8]> = vec![];
    let segments: Vec<&[u8]> = decoded.split(|&b| b == b'/').collect();
    // The first piece is before the first `/` (empty for an absolute
    // path); the package drops it.
    for seg in segments.iter().skip(1) {
        match *seg {
            b"." => {}
            b".." => {
                if kept.pop().is_none() {
                    kept.push(seg);
                }
            }
            s => kept.push(s),
        }
    }
    let mut p = vec![b'/'];
    if let Some((last, init)) = kept.split_last() {
        for s in init {
            if !s.is_empty() {
                p.extend_from_slice(s);
                p.push(b'/');
            }
        }
        p.extend_from_slice(last);
    }
    let mut p = escape_once(&p).to_ascii_lowercase();
    if p.len() > 1 && p.ends_with('/') {
        p.pop();
    }
    p
}

/// The query: decoded and encoded once, session ids dropped, lowercased,
/// sorted; `None` when empty.
fn canonical_query(q: &str) -> Option<String> {
    if q.is_empty() {
        return None;
    }
    let q = escape_once(&unescape_repeatedly(q.as_bytes()));
    let args: Vec<&str> = q.split('&').collect();
    let mut kept: Vec<(String, Option<String>)> = vec![];
    for (i, arg) in args.iter().enumerate() {
        if is_session_id(arg, args.get(i + 1).copied()) {
            continue;
        }
        let arg = arg.to_ascii_lowercase();
        kept.push(match arg.split_once('=') {
            Some((k, v)) => (k.to_owned(), Some(v.to_owned())),
            None => (arg, None),
        });
    }
    // The package's query is what is left joined by `&` (a leading or
    // trailing empty argument when a session id was first or last); an
    // empty one is dropped.
    if kept.len() == 1 && kept[0] == (String::new(), None) {
        return None;
    }
    kept.sort();
    let parts: Vec<String> = kept
        .into_iter()
        .map(|(k, v)| match v {
            Some(v) => format!("{k}={v}"),
            None => k,
        })
        .collect();
    let joined = parts.join("&");
    (!joined.is_empty()).then_some(joined)
}

/// Whether a query argument is a session id the package strips.
fn is_session_id(arg: &str, next: Option<&str>) -> bool {
    let Some((name, value)) = arg.split_once('=') else { return false };
    let name = name.to_ascii_lowercase();
    let alnum = |v: &str, n| {
        v.len() == n && v.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    match name.as_str() {
        "jsessionid" | "phpsessid" | "sid" => alnum(value, 32),
        "cftoken" => true,
        "cfid" => next
            .is_some_and(|n| n.to_ascii_lowercase().starts_with("cftoken=")),
        _ => {
            name.len() == 20
                && name.starts_with("aspsessionid")
                && name[12..].bytes().all(|b| b.is_ascii_alphabetic())
                && value.len() == 24
                && value.bytes().all(|b| b.is_ascii_alphabetic())
        }
    }
}

/// Percent-decodes `s` until nothing changes (`%2525` is `%`); a `%` not
/// followed by two hex digits stays.
fn unescape_repeatedly(s: &[u8]) -> Vec<u8> {
    let mut cur = s.to_vec();
    loop {
        let mut next = Vec::with_capacity(cur.len());
        let mut i = 0;
        while i < cur.len() {
            if cur[i] == b'%'
                && let (Some(h), Some(l)) = (
                    cur.get(i + 1).and_then(|&b| hex_value(b)),
                    cur.get(i + 2).and_then(|&b| hex_value(b)),
                )
            {
                next.push(h << 4 | l);
                i += 3;
            } else {
                next.push(cur[i]);
                i += 1;
            }
        }
        if next == cur {
            return cur;
        }
        cur = next;
    }
}

/// Percent-encodes every byte outside `!`..`~`, and `%` and `#`, with
/// uppercase hex.
fn escape_once(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s {
        if (b'!'..=b'~').contains(&b) && b != b'%' && b != b'#' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::surt;

    /// The examples of the `surt` package's own tests
    /// (`tests/test_surt.py`, `test_surt`, with the default options), and
    /// of its canonicalizers' tests where they show in the key.
    #[test]
    fn the_packages_examples() {
        let cases = [
            ("dns:alexa.com", "dns:alexa.com"),
            ("dns:archive.org", "dns:archive.org"),
            ("http://www.archive.org/", "org,archive)/"),
            ("http://archive.org/", "org,archive)/"),
            ("http://archive.org/goo/", "org,archive)/goo"),
            ("http://archive.org/goo/?", "org,archive)/goo"),
            ("http://archive.org/goo/?b&a", "org,archive)/goo?a&b"),
            (
                "http://archive.org/goo/?a=2&b&a=1",
                "org,archive)/goo?a=1&a=2&b",
            ),
            (
                "http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221",
                "org,archive)/index.php?action=profile;u=4221",
            ),
            (
                "whois://whois.isoc.org.il/shaveh.co.il",
                "il,org,isoc,whois)/shaveh.co.il",
            ),
            (
                "http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
                "com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2",
            ),
            ("mailto:foo@example.com", "mailto:foo@example.com"),
            ("http://www.example.com/", "com,example)/"),
            ("ftp://www.example.com/", "com,example)/"),
            // DefaultIAURLCanonicalizer's and IAURLCanonicalizer's tests.
            ("http://www.alexa.com/", "com,alexa)/"),
            ("http://archive.org/index.html?", "org,archive)/index.html"),
            (
                "http://archive.org/index.html?b=b&a=b",
                "org,archive)/index.html?a=b&b=b",
            ),
            (
                "http://www34.archive.org/index.html?b=a&b=b&a=b",
                "org,archive)/index.html?a=b&b=a&b=b",
            ),
            ("http://ARCHIVE.ORG/", "org,archive)/"),
            ("http://www.archive.org:80/", "org,archive)/"),
            ("https://www.archive.org:80/", "org,archive:80)/"),
            ("http://www.archive.org:443/", "org,archive:443)/"),
            ("https://www.archive.org:443/", "org,archive)/"),
            ("http://www.archive.org/big/", "org,archive)/big"),
            ("http://example.com/foo?X=Y", "com,example)/foo?x=y"),
            // GoogleURLCanonicalizer's.
            ("http://host/%25%32%35", "host)/%25"),
            ("http://host/asdf%25%32%35asd", "host)/asdf%25asd"),
            ("http://www.google.com/blah/..", "com,google)/"),
            ("http://www.GOOgle.com/", "com,google)/"),
            ("http://www.evil.com/blah#frag", "com,evil)/blah"),
            ("http://3279880203/blah", "11,0,127,195)/blah"),
            (
                "http://host.com//twoslashes?more//slashes",
                "com,host)/twoslashes?more//slashes",
            ),
            ("http://evil.com/foo;", "com,evil)/foo;"),
            ("http://notrailingslash.com", "com,notrailingslash)/"),
            ("http://www.gotaport.com:1234/", "com,gotaport:1234)/"),
            ("http://host.com/ab%23cd", "com,host)/ab%23cd"),
        ];
        for (uri, key) in cases {
            assert_eq!(surt(uri).as_deref(), Some(key), "{uri}");
        }
        assert_eq!(surt("not a uri"), None);
    }
}
