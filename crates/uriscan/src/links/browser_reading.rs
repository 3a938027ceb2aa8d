//! Links that RFC 3986 and browsers read differently, where the default
//! (RFC 3986) target is not what a browser requests: a crawler or a
//! checker should know. The full table is
//! `docs/url-standard-differences.md`; these are the two forms it names
//! that are common in real pages and change which host is asked.

use std::fmt;

/// How a browser's reading of a link differs from its RFC 3986 target.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BrowserReading {
    /// `http:relpath` or `http:/path`: RFC 3986 reads an absolute URI
    /// with no authority; a browser reads it relative to a base of the
    /// same scheme, else takes what follows as the host.
    NoAuthority,
    /// `http:///h/x`: RFC 3986 reads an empty authority and the path
    /// `/h/x`; a browser skips the extra slashes and asks the host `h`.
    ExtraSlashes,
}

impl BrowserReading {
    /// A short name, for the `warnings` of JSON reports.
    pub fn as_str(self) -> &'static str {
        match self {
            BrowserReading::NoAuthority => "browsers-read-without-authority",
            BrowserReading::ExtraSlashes => "browsers-skip-extra-slashes",
        }
    }
}

impl fmt::Display for BrowserReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How browsers read `link` (as written, before resolution) differently
/// from RFC 3986, if they do. Only the URL Standard's special schemes
/// other than `file` are concerned: for them a browser always wants a
/// host, and reads `\` as `/`.
///
/// ```
/// use uriscan::links::{BrowserReading, browser_reading};
/// assert_eq!(browser_reading("http:relpath"), Some(BrowserReading::NoAuthority));
/// assert_eq!(browser_reading("HTTPS:///h/x"), Some(BrowserReading::ExtraSlashes));
/// assert_eq!(browser_reading("https://h/x"), None);
/// assert_eq!(browser_reading("file:///etc/hosts"), None);
/// assert_eq!(browser_reading("mailto:a@b"), None);
/// ```
pub fn browser_reading(link: &str) -> Option<BrowserReading> {
    let link = link.trim_start_matches(|c: char| c <= ' ');
    let colon = link.find(':')?;
    let scheme = &link[..colon];
    let hosted = ["http", "https", "ftp", "ws", "wss"];
    if !hosted.iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
        return None;
    }
    let slashes = link[colon + 1..]
        .bytes()
        .filter(|&b| !matches!(b, b'\t' | b'\n' | b'\r'))
        .take_while(|&b| b == b'/' || b == b'\\')
        .count();
    match slashes {
        2 => None,
        0 | 1 => Some(BrowserReading::NoAuthority),
        _ => Some(BrowserReading::ExtraSlashes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of the URL Standard's own test file where the two
    /// readings differ in the host is one of these forms; here the forms
    /// themselves, with the repairs browsers make first.
    #[test]
    fn the_forms() {
        let no = Some(BrowserReading::NoAuthority);
        let extra = Some(BrowserReading::ExtraSlashes);
        for (link, want) in [
            ("http:x", no),
            ("http:/x", no),
            ("http:\\x", no),
            ("  ws:x", no),
            ("http:", no),
            ("http:////h", extra),
            ("http:\\\\\\h", extra),
            ("ftp:/\t//h", extra),
            ("http://h", None),
            ("http:\\\\h", None),
            ("h\u{0}ttp:x", None),
            ("no-colon", None),
            ("", None),
        ] {
            assert_eq!(browser_reading(link), want, "{link:?}");
        }
    }
}
