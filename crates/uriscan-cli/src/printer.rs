//! Formatting the URIs of one file into a buffer, in each output mode.
//!
//! A file's output is built whole in a buffer and written with one locked
//! write by the caller, so lines of different files never interleave.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::Write as _;
use std::path::Path;
use std::sync::Mutex;

use serde::Serialize;
use uriscan::scanning::{BufferedText, Match};
use uriscan::syntax::Parser;
use uriscan::syntax::security::{self, Warning};

use super::config::{Config, Mode};

const PATH_COLOR: &str = "\x1b[35m";
const LINE_COLOR: &str = "\x1b[32m";
const URI_COLOR: &str = "\x1b[1;31m";
const RESET: &str = "\x1b[0m";

/// Writes `out` to standard output in one locked write and clears it. A
/// closed pipe (`uriscan . | head`) is `Err(None)`: the reader is gone and
/// there is nothing to say; any other failure is `Err(Some(reason))`.
pub fn write_stdout(out: &mut Vec<u8>) -> Result<(), Option<String>> {
    write_to(&mut std::io::stdout().lock(), out)
}

/// [`write_stdout`] through a lock already held.
pub fn write_to(
    lock: &mut std::io::StdoutLock<'_>,
    out: &mut Vec<u8>,
) -> Result<(), Option<String>> {
    let res = lock.write_all(out);
    out.clear();
    res.map_err(|e| {
        (e.kind() != std::io::ErrorKind::BrokenPipe)
            .then(|| uriscan::walking::io_message(&e))
    })
}

/// How a file is named in the output.
#[derive(Debug)]
pub struct Label<'p> {
    /// The bytes printed in text modes: the path exactly as the file
    /// system has it (not UTF-8 on some systems), so that it can be given
    /// back to another tool.
    raw: Cow<'p, [u8]>,
    /// For JSON, when `raw` is not UTF-8: the path with U+FFFD for the
    /// bad bytes goes in `path` and the exact bytes in `path_bytes`.
    lossy: Cow<'p, str>,
    utf8: bool,
}

impl<'p> Label<'p> {
    /// The bytes printed for the path.
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// The path for JSON: UTF-8, with U+FFFD for bad bytes.
    pub fn lossy(&self) -> &str {
        &self.lossy
    }

    /// The exact bytes, for JSON's `path_bytes`, when they are not UTF-8.
    pub fn bytes_if_not_utf8(&self) -> Option<&[u8]> {
        (!self.utf8).then_some(&self.raw[..])
    }

    /// The label of standard input.
    pub fn stdin() -> Label<'static> {
        Label {
            raw: Cow::Borrowed(b"<stdin>"),
            lossy: Cow::Borrowed("<stdin>"),
            utf8: true,
        }
    }

    /// The label of a walked path; `strip_dot` drops a leading `./`.
    pub fn path(path: &'p Path, strip_dot: bool) -> Label<'p> {
        let path = if strip_dot {
            path.strip_prefix("./").unwrap_or(path)
        } else {
            path
        };
        let raw = path_bytes(path);
        let lossy = String::from_utf8_lossy(&raw).into_owned();
        let utf8 = std::str::from_utf8(&raw).is_ok();
        Label { raw, lossy: Cow::Owned(lossy), utf8 }
    }
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    Cow::Borrowed(path.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    // Elsewhere a path is not bytes; its lossy form is what can be shown.
    Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
}

/// One JSON Lines row. The field order is the documented one.
#[derive(Serialize)]
struct JsonRow<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    line: u64,
    column: u64,
    offset: usize,
    uri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<Cow<'a, str>>,
    scheme: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    trimmed: Option<JsonTrimmed<'a>>,
    /// A line break after a hyphen inside the URI: the hyphen was kept,
    /// but a typesetter may have added it (Appendix C).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    hyphen_break: bool,
    warnings: Vec<&'static str>,
}

#[derive(Serialize)]
struct JsonTrimmed<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    prefix: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suffix: Option<Cow<'a, str>>,
    reasons: Vec<&'static str>,
}

/// Where the JSON printer finds the raw and trimmed texts of a match.
#[derive(Clone, Copy)]
pub enum Texts<'a> {
    /// The file's bytes, read whole.
    Haystack(&'a [u8]),
    /// A stream's buffer, while it holds the match.
    Buffered(BufferedText<'a>),
}

impl<'a> Texts<'a> {
    /// The bytes of `m`'s span: the URI as written.
    fn raw(self, m: &Match<'_>) -> &'a [u8] {
        match self {
            Texts::Haystack(h) => &h[m.span().range()],
            Texts::Buffered(t) => t.raw(),
        }
    }
    /// The bytes of `m`'s `URL:` prefix, if any.
    fn url_prefix(self, m: &Match<'_>) -> Option<&'a [u8]> {
        match self {
            Texts::Haystack(h) => {
                m.trimmed().url_prefix.map(|s| &h[s.range()])
            }
            Texts::Buffered(t) => t.url_prefix(),
        }
    }
    /// The bytes delimiting cut after `m`, if any.
    fn suffix(self, m: &Match<'_>) -> Option<&'a [u8]> {
        match self {
            Texts::Haystack(h) => m.trimmed().suffix.map(|s| &h[s.range()]),
            Texts::Buffered(t) => t.suffix(),
        }
    }
}

/// The size of output at which a stream's output is written out, so that
/// memory stays bounded on input of any size (a file read whole is
/// written in one piece).
pub const SPILL_AT: usize = 64 * 1024;

/// Formats matches by the configuration. One per worker thread.
#[derive(Debug)]
pub struct Printer<'c> {
    cfg: &'c Config,
    parser: Parser,
}

impl<'c> Printer<'c> {
    pub fn new(cfg: &'c Config) -> Printer<'c> {
        Printer { cfg, parser: Parser::new().iri(true) }
    }

    /// Appends the output for the `matches` of a file read whole (its
    /// bytes are `haystack`) to `out`; returns the number of URIs printed
    /// (or counted).
    pub fn file<'h>(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        matches: impl Iterator<Item = Match<'h>>,
        haystack: &[u8],
        seen: Option<&Mutex<HashSet<String>>>,
    ) -> u64 {
        let mut count = 0;
        for m in matches {
            let texts = Texts::Haystack(haystack);
            count += u64::from(self.one(out, label, &m, texts, seen));
        }
        self.file_end(out, label, count);
        count
    }

    /// Appends the output for one match to `out`; false when it is not
    /// printed (a duplicate, or without warnings under
    /// `--warnings-only`). A stream calls this for each match while its
    /// buffer holds it, then [`file_end`](Printer::file_end).
    pub fn one(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        m: &Match<'_>,
        texts: Texts<'_>,
        seen: Option<&Mutex<HashSet<String>>>,
    ) -> bool {
        let cfg = self.cfg;
        let uri: Cow<'_, str> = if cfg.normalize {
            Cow::Owned(self.normalize(m.as_str()))
        } else {
            Cow::Borrowed(m.as_str())
        };
        let warnings = if cfg.needs_warnings() {
            match self.parser.parse_uri(&uri) {
                Ok(r) => security::warnings(&r),
                Err(_) => vec![],
            }
        } else {
            vec![]
        };
        if cfg.warnings_only && warnings.is_empty() {
            return false;
        }
        if let Some(seen) = seen {
            let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen.contains(uri.as_ref()) {
                return false;
            }
            seen.insert(uri.to_string());
        }
        let shown = if cfg.mask_passwords {
            mask_password(&uri)
        } else {
            Cow::Borrowed(uri.as_ref())
        };
        match cfg.mode {
            Mode::Count => {}
            Mode::OnlyUri => self.only_uri(out, &shown),
            Mode::Standard => self.standard(out, label, m, &shown),
            Mode::Json => self.json(out, label, m, texts, &shown, &warnings),
        }
        true
    }

    /// Appends what follows a file's matches to `out`: its count, under
    /// `--count`, when it has any.
    pub fn file_end(&self, out: &mut Vec<u8>, label: &Label<'_>, count: u64) {
        if self.cfg.mode == Mode::Count && count > 0 {
            self.path(out, label);
            out.push(if self.cfg.null { 0 } else { b':' });
            let _ = writeln!(out, "{count}");
        }
    }

    fn normalize(&self, uri: &str) -> String {
        match self.parser.parse_uri(uri) {
            Ok(r) => uriscan::syntax::normalize::normalize(&r),
            // The finder emits only valid URIs; should one not reparse,
            // it is printed as found rather than lost.
            Err(_) => uri.to_string(),
        }
    }

    fn path(&self, out: &mut Vec<u8>, label: &Label<'_>) {
        if self.cfg.color {
            out.extend_from_slice(PATH_COLOR.as_bytes());
            out.extend_from_slice(&label.raw);
            out.extend_from_slice(RESET.as_bytes());
        } else {
            out.extend_from_slice(&label.raw);
        }
    }

    fn uri(&self, out: &mut Vec<u8>, uri: &str) {
        if self.cfg.color {
            out.extend_from_slice(URI_COLOR.as_bytes());
            out.extend_from_slice(uri.as_bytes());
            out.extend_from_slice(RESET.as_bytes());
        } else {
            out.extend_from_slice(uri.as_bytes());
        }
    }

    fn only_uri(&self, out: &mut Vec<u8>, uri: &str) {
        self.uri(out, uri);
        out.push(if self.cfg.null { 0 } else { b'\n' });
    }

    fn standard(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        m: &Match<'_>,
        uri: &str,
    ) {
        self.path(out, label);
        out.push(if self.cfg.null { 0 } else { b':' });
        if self.cfg.color {
            let _ = write!(out, "{LINE_COLOR}{}{RESET}:", m.line());
        } else {
            let _ = write!(out, "{}:", m.line());
        }
        let _ = write!(out, "{}:", m.column());
        self.uri(out, uri);
        out.push(b'\n');
    }

    fn json(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        m: &Match<'_>,
        texts: Texts<'_>,
        uri: &str,
        warnings: &[Warning],
    ) {
        let raw_bytes = texts.raw(m);
        let raw = if raw_bytes != uri.as_bytes() || m.rejoined() {
            let raw = String::from_utf8_lossy(raw_bytes);
            Some(if self.cfg.mask_passwords {
                Cow::Owned(mask_password(&raw).into_owned())
            } else {
                raw
            })
        } else {
            None
        };
        let t = m.trimmed();
        let trimmed = (!t.is_empty()).then(|| {
            let prefix = texts.url_prefix(m);
            let suffix = texts.suffix(m);
            let mut reasons = vec![];
            if t.url_prefix.is_some() {
                reasons.push("url-prefix");
            }
            if t.punctuation {
                reasons.push("punctuation");
            }
            if t.unbalanced_bracket {
                reasons.push("unbalanced-bracket");
            }
            if t.invalid_tail {
                reasons.push("invalid-tail");
            }
            JsonTrimmed {
                prefix: prefix.map(String::from_utf8_lossy),
                suffix: suffix.map(String::from_utf8_lossy),
                reasons,
            }
        });
        // The scheme as printed: normalization lowercases it, which
        // keeps its length.
        let scheme = &uri[..m.scheme().len()];
        let row = JsonRow {
            path: &label.lossy,
            path_bytes: (!label.utf8).then_some(&label.raw[..]),
            line: m.line(),
            column: m.column(),
            offset: m.span().start,
            uri,
            raw,
            scheme,
            trimmed,
            hyphen_break: m.hyphen_break(),
            warnings: warnings.iter().map(|w| w.code()).collect(),
        };
        // Serializing plain strings and numbers into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, &row);
        out.push(b'\n');
    }
}

/// Replaces what follows the first `:` of the userinfo with `***`
/// (RFC 3986 3.2.1: a password must not be rendered as clear text).
///
/// This reads the authority as a browser does (up to the first `/ ? #`,
/// the userinfo up to its last `@`) rather than by the parser, on
/// purpose: it also masks what the grammar rejects. A password with a
/// `^` or a space is no valid userinfo, and the parser's longest valid
/// prefix (`http://admin:`) holds no password to mask; the link is
/// still printed (a malformed link, a raw text wrapped across lines),
/// and its password must not be.
pub fn mask_password(uri: &str) -> Cow<'_, str> {
    let Some(colon) = uri.find(':') else { return Cow::Borrowed(uri) };
    let rest = &uri[colon + 1..];
    let Some(auth) = rest.strip_prefix("//") else {
        return Cow::Borrowed(uri);
    };
    let auth_start = colon + 3;
    let auth_len = auth.find(['/', '?', '#']).unwrap_or(auth.len());
    let authority = &auth[..auth_len];
    let Some(at) = authority.rfind('@') else { return Cow::Borrowed(uri) };
    let Some(pw) = authority[..at].find(':') else {
        return Cow::Borrowed(uri);
    };
    if pw + 1 == at {
        // `user:@host`: nothing to hide.
        return Cow::Borrowed(uri);
    }
    let mut s = String::with_capacity(uri.len());
    s.push_str(&uri[..auth_start + pw + 1]);
    s.push_str("***");
    s.push_str(&uri[auth_start + at..]);
    Cow::Owned(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking() {
        for (input, want) in [
            ("ftp://user:secret@host/", "ftp://user:***@host/"),
            ("http://u:p:q@h:80/p?x#y", "http://u:***@h:80/p?x#y"),
            ("http://user@host/", "http://user@host/"),
            ("http://user:@host/", "http://user:@host/"),
            ("http://host/a:b@c", "http://host/a:b@c"),
            ("mailto:a:b@example.com", "mailto:a:b@example.com"),
            ("http://h?u:p@x", "http://h?u:p@x"),
            ("http://ü:pä@h/", "http://ü:***@h/"),
            // Not valid userinfo, masked all the same.
            ("http://admin:p^ss@host/", "http://admin:***@host/"),
            ("http://u:p q@h/", "http://u:***@h/"),
            ("<http://u:pass\n word@h/>", "<http://u:***@h/>"),
        ] {
            assert_eq!(mask_password(input), want, "{input}");
        }
    }
}
