//! Section 7, "Security Considerations": warnings about URIs that are
//! valid but deserve a second look.
//!
//! A URI can be perfectly valid and still be built to mislead a reader or
//! a backend. Section 7 names the tricks; [`warnings`] reports which of
//! them a parsed URI uses, so that a person reviewing documents or mail
//! can list only the suspicious ones (`uriscan --warnings-only`).
//!
//! ```
//! use uriscan::syntax::{parse_uri, security::{warnings, Warning}};
//! let r = parse_uri("http://www.bank.example@evil.example/").unwrap();
//! assert_eq!(warnings(&r), [Warning::UserinfoLooksLikeHost]);
//! let r = parse_uri("http://www.bank.example/").unwrap();
//! assert!(warnings(&r).is_empty());
//! ```
//!
//! The checks are heuristics on valid syntax: they never reject a URI,
//! and a warning is a reason to look, not proof of bad intent.

use std::fmt;

use crate::syntax::chars::{hex_value, percent_decode};
use crate::syntax::{HostKind, UriRef};

/// Something section 7 warns about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Warning {
    /// The userinfo looks like a host name, as in
    /// `http://www.bank.example@evil.example/`: a reader takes it for the
    /// host (7.6, "Semantic Attacks").
    UserinfoLooksLikeHost,
    /// The host is a reg-name that many resolvers read as an IPv4 address
    /// in a rare form: `0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`
    /// (7.4, "Rare IP Address Formats").
    RareIpForm,
    /// The host has a percent-encoded dot, delimiter or control character,
    /// which backends may decode differently (7.3, "Back-End
    /// Transcoding").
    EncodedDelimiterInHost,
    /// The path has a percent-encoded `/`, `\`, `.`, `?`, `#` or NUL, which
    /// backends may decode before or after splitting segments (7.3).
    EncodedDelimiterInPath,
    /// A label of an IRI host mixes scripts that are not normally written
    /// together (`pаypal` with a Cyrillic `а`): a homograph (7.6, RFC 3987
    /// section 8.2).
    MixedScriptHost,
    /// A label of an IRI host is written entirely with letters that look
    /// like Latin ones (Cyrillic `аррӏе`, fullwidth `ｅｘａｍｐｌｅ`).
    ConfusableHost,
}

impl Warning {
    /// A stable short name, used in JSON output:
    /// `userinfo-looks-like-host`, `rare-ip-form`,
    /// `encoded-delimiter-in-host`, `encoded-delimiter-in-path`,
    /// `mixed-script-host`, `confusable-host`.
    pub fn code(self) -> &'static str {
        match self {
            Warning::UserinfoLooksLikeHost => "userinfo-looks-like-host",
            Warning::RareIpForm => "rare-ip-form",
            Warning::EncodedDelimiterInHost => "encoded-delimiter-in-host",
            Warning::EncodedDelimiterInPath => "encoded-delimiter-in-path",
            Warning::MixedScriptHost => "mixed-script-host",
            Warning::ConfusableHost => "confusable-host",
        }
    }

    /// The section of RFC 3986 that describes the risk.
    pub fn section(self) -> &'static str {
        match self {
            Warning::UserinfoLooksLikeHost
            | Warning::MixedScriptHost
            | Warning::ConfusableHost => "7.6",
            Warning::RareIpForm => "7.4",
            Warning::EncodedDelimiterInHost
            | Warning::EncodedDelimiterInPath => "7.3",
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Warning::UserinfoLooksLikeHost => "userinfo looks like a host",
            Warning::RareIpForm => "host is an IPv4 address in a rare form",
            Warning::EncodedDelimiterInHost => {
                "percent-encoded delimiter or dot in the host"
            }
            Warning::EncodedDelimiterInPath => {
                "percent-encoded delimiter or dot in the path"
            }
            Warning::MixedScriptHost => "host mixes scripts",
            Warning::ConfusableHost => {
                "host is written in look-alike characters"
            }
        };
        write!(f, "{what} (RFC 3986 section {})", self.section())
    }
}

/// The warnings that apply to `uri`, in the order of [`Warning`], each at
/// most once.
pub fn warnings(uri: &UriRef<'_>) -> Vec<Warning> {
    let mut out = vec![];
    if let Some(host) = uri.host() {
        if uri.userinfo().is_some_and(userinfo_looks_like_host) {
            out.push(Warning::UserinfoLooksLikeHost);
        }
        if uri.host_kind() == Some(HostKind::RegName) {
            if is_rare_ipv4(host) {
                out.push(Warning::RareIpForm);
            }
            if has_encoded(host, is_suspicious_in_host) {
                out.push(Warning::EncodedDelimiterInHost);
            }
        }
        if has_encoded(uri.path(), is_suspicious_in_path) {
            out.push(Warning::EncodedDelimiterInPath);
        }
        let (mixed, confusable) = script_checks(host);
        if mixed {
            out.push(Warning::MixedScriptHost);
        }
        if confusable {
            out.push(Warning::ConfusableHost);
        }
    } else if has_encoded(uri.path(), is_suspicious_in_path) {
        out.push(Warning::EncodedDelimiterInPath);
    }
    out
}

/// Whether the user name (the userinfo before any `:`) is a dotted name
/// of letters, digits and hyphens, like a host name or an IPv4 address.
fn userinfo_looks_like_host(userinfo: &str) -> bool {
    let user = userinfo.split(':').next().unwrap_or("");
    let decoded = percent_decode(user.as_bytes());
    let Ok(user) = std::str::from_utf8(&decoded) else { return false };
    let user = user.strip_suffix('.').unwrap_or(user);
    let labels: Vec<&str> = user.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

/// Whether the reg-name `host` is not a plain dotted-decimal address (the
/// parser calls that `IPv4address`) but `inet_aton` would read it as one: one to four parts, each decimal, octal (leading
/// `0`) or hex (`0x`), the last part filling the remaining bytes.
fn is_rare_ipv4(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    if host.is_empty() {
        return false;
    }
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 4 {
        return false;
    }
    let mut canonical = parts.len() == 4;
    for (i, part) in parts.iter().enumerate() {
        let (digits, radix) = if let Some(h) =
            part.strip_prefix("0x").or_else(|| part.strip_prefix("0X"))
        {
            (h, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (*part, 10)
        };
        if radix != 10 {
            canonical = false;
        }
        // `from_str_radix` takes a sign; a part never has one.
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return false;
        }
        let Ok(value) = u64::from_str_radix(digits, radix) else {
            return false;
        };
        let last = i + 1 == parts.len();
        let max = if last { (1u64 << (8 * (4 - i))) - 1 } else { 255 };
        if value > max {
            return false;
        }
    }
    !canonical
}

fn is_suspicious_in_host(b: u8) -> bool {
    b == b'.'
        || b == b'\\'
        || b == b'%'
        || b < 0x20
        || b == 0x7f
        || b":/?#[]@!$&'()*+,;=".contains(&b)
}

fn is_suspicious_in_path(b: u8) -> bool {
    matches!(b, b'/' | b'\\' | b'.' | b'?' | b'#' | 0)
}

/// Whether `s` has a `%XX` that decodes to a byte `bad` accepts.
fn has_encoded(s: &str, bad: fn(u8) -> bool) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(b'%', b).any(|i| match (b.get(i + 1), b.get(i + 2)) {
        (Some(&h), Some(&l)) => match (hex_value(h), hex_value(l)) {
            (Some(h), Some(l)) => bad(h << 4 | l),
            _ => false,
        },
        _ => false,
    })
}

/// The scripts that matter for homographs. Digits, `-` and other common
/// characters belong to none.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Han,
    Hiragana,
    Katakana,
    Hangul,
    Fullwidth,
    Other,
}

fn script(c: char) -> Option<Script> {
    Some(match c as u32 {
        0x30..=0x39 | 0x2D | 0x5F => return None,
        0x41..=0x5A | 0x61..=0x7A => Script::Latin,
        0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x530..=0x58F => Script::Armenian,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF => Script::Arabic,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF => Script::Han,
        0x3040..=0x309F => Script::Hiragana,
        0x30A0..=0x30FF => Script::Katakana,
        0xAC00..=0xD7AF | 0x1100..=0x11FF => Script::Hangul,
        0xFF01..=0xFF5E => Script::Fullwidth,
        _ if c.is_ascii() => return None,
        _ => Script::Other,
    })
}

/// Letters of Greek and Cyrillic that look like Latin letters in common
/// fonts (after Unicode's confusables.txt, the lowercase ones).
const LATIN_LOOKALIKES: &str = "аеорсухіјѕԁԛԝѡһӏьвкмнтъ\
                                αοιρτυνκχεηω";

/// (mixed scripts in a label, a label made only of look-alikes).
fn script_checks(host: &str) -> (bool, bool) {
    if host.is_ascii() && !host.contains('%') {
        return (false, false);
    }
    let decoded = percent_decode(host.as_bytes());
    let Ok(host) = std::str::from_utf8(&decoded) else {
        return (false, false);
    };
    let (mut mixed, mut confusable) = (false, false);
    for label in host.split('.') {
        let mut seen: Vec<Script> = vec![];
        for s in label.chars().filter_map(script) {
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        // Scripts that are written together (UTS #39 "highly
        // restrictive"): Japanese and Korean mix Han, kana or Hangul with
        // Latin.
        let allowed = |set: &[Script]| seen.iter().all(|s| set.contains(s));
        if seen.len() > 1
            && !allowed(&[
                Script::Latin,
                Script::Han,
                Script::Hiragana,
                Script::Katakana,
            ])
            && !allowed(&[Script::Latin, Script::Han, Script::Hangul])
        {
            mixed = true;
        }
        let letters = label.chars().filter(|c| c.is_alphabetic());
        let lookalike = |c: char| {
            c.to_lowercase().all(|l| LATIN_LOOKALIKES.contains(l))
                || script(c) == Some(Script::Fullwidth)
        };
        if seen.len() == 1
            && seen[0] != Script::Latin
            && label.chars().any(|c| c.is_alphabetic())
            && letters.clone().all(lookalike)
        {
            confusable = true;
        }
    }
    (mixed, confusable)
}

#[cfg(test)]
mod tests {
    use super::Warning::*;
    use super::*;
    use crate::syntax::Parser;

    #[track_caller]
    fn check(uri: &str, expected: &[Warning]) {
        let r = Parser::new().iri(true).parse_uri(uri).unwrap();
        assert_eq!(warnings(&r), expected, "{uri}");
    }

    #[test]
    fn clean_uris() {
        check("http://example.com/a/b?q#f", &[]);
        check("http://user:pw@example.com/", &[]);
        check("http://127.0.0.1:8080/", &[]);
        check("http://[::1]/", &[]);
        check("mailto:a@example.com", &[]);
        check("http://例え.テスト/", &[]);
        check("http://bücher.example/", &[]);
        check("http://한국.example/", &[]);
        check("http://1.2.3.256/", &[]);
        check("http://example.com/100%25/a%20b", &[]);
    }

    #[test]
    fn userinfo_like_a_host() {
        check(
            "http://www.bank.example@evil.example/",
            &[UserinfoLooksLikeHost],
        );
        check(
            "http://www.bank.example:pw@evil.example/",
            &[UserinfoLooksLikeHost],
        );
        check("http://10.0.0.1@evil.example/", &[UserinfoLooksLikeHost]);
        check("ftp://anonymous@ftp.example/", &[]);
    }

    #[test]
    fn rare_ip_forms() {
        for host in [
            "0x7f.1",
            "2130706433",
            "0177.0.0.1",
            "127.1",
            "0x7F000001",
            "127.0.0.01",
            "0x7f.0.0.1",
        ] {
            check(&format!("http://{host}/"), &[RareIpForm]);
        }
        for host in
            ["example.com", "1.2.3.4.5", "0x", "0189.1.1.1", "1.2.256.1"]
        {
            check(&format!("http://{host}/"), &[]);
        }
    }

    #[test]
    fn encoded_delimiters() {
        check("http://evil%2Eexample/", &[EncodedDelimiterInHost]);
        check("http://a%40b.example/", &[EncodedDelimiterInHost]);
        check("http://a%2fb.example/", &[EncodedDelimiterInHost]);
        check("http://example.com/a%2e%2e/etc", &[EncodedDelimiterInPath]);
        check("http://example.com/..%5c..%5cwin", &[EncodedDelimiterInPath]);
        check("http://example.com/a%00.txt", &[EncodedDelimiterInPath]);
        check("file:///etc%2fpasswd", &[EncodedDelimiterInPath]);
        check("http://[::1]/a%2Fb", &[EncodedDelimiterInPath]);
        check("urn:a%2Fb", &[EncodedDelimiterInPath]);
    }

    #[test]
    fn homographs() {
        // Latin "p", "y", "p", "l" with a Cyrillic "а".
        check("http://p\u{430}ypal.example/", &[MixedScriptHost]);
        check(
            "http://\u{430}\u{440}\u{440}\u{4cf}\u{435}.example/",
            &[ConfusableHost],
        );
        check("http://ｅｘａｍｐｌｅ.com/", &[ConfusableHost]);
        // Real Cyrillic and Greek words with letters not like Latin ones.
        check("http://пример.испытание/", &[]);
        check("http://δοκιμή.example/", &[]);
        // Percent-encoded UTF-8 (the URI form of an IRI) is decoded first.
        check("http://p%D0%B0ypal.example/", &[MixedScriptHost]);
    }

    #[test]
    fn codes_and_sections() {
        assert_eq!(RareIpForm.code(), "rare-ip-form");
        assert_eq!(RareIpForm.section(), "7.4");
        assert_eq!(
            UserinfoLooksLikeHost.to_string(),
            "userinfo looks like a host (RFC 3986 section 7.6)"
        );
    }
}
