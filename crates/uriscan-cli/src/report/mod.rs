//! Every output form of the command line: text (and its colours), JSON
//! Lines, SARIF, GitHub annotations, Markdown and JUnit, for the scan, `links` and `check`.
//!
//! Output is built in a buffer and written with one locked write by the
//! caller, so lines of different files never interleave.

pub mod check;
pub mod findings;
pub mod github;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;
pub mod scan;
pub mod text;

use std::borrow::Cow;
use std::io::Write as _;
use std::path::Path;
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

/// The size of output at which a stream's output is written out, so that
/// memory stays bounded on input of any size (a file read whole is
/// written in one piece).
pub const SPILL_AT: usize = 64 * 1024;

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
