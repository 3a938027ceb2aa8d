//! The text forms, with their colours: the scan's `path:line:column:uri`,
//! `links`' lines, `check`'s human report, and the counts of `-c`.

use std::io::Write as _;
use std::path::Path;

#[cfg(feature = "remote")]
use uriscan::checking::remote::{RemoteResult, RemoteStatus};

#[cfg(feature = "remote")]
use super::mask_password;

const PATH_COLOR: &str = "\x1b[35m";
const LINE_COLOR: &str = "\x1b[32m";
const URI_COLOR: &str = "\x1b[1;31m";
const RESET: &str = "\x1b[0m";

/// Appends `bytes`, in `color` when `on`.
// Inlined: called once or more per URI printed, its call cost more than
// its work on the plain path.
#[inline(always)]
fn paint(out: &mut Vec<u8>, on: bool, color: &str, bytes: &[u8]) {
    if on {
        out.extend_from_slice(color.as_bytes());
        out.extend_from_slice(bytes);
        out.extend_from_slice(RESET.as_bytes());
    } else {
        out.extend_from_slice(bytes);
    }
}

/// The separator after a path: NUL under `-0`.
fn path_end(null: bool) -> u8 {
    if null { 0 } else { b':' }
}

/// The scan's `path:line:column:uri` line.
pub fn match_line(
    out: &mut Vec<u8>,
    color: bool,
    null: bool,
    path: &[u8],
    (line, column): (u64, u64),
    uri: &str,
) {
    paint(out, color, PATH_COLOR, path);
    out.push(path_end(null));
    if color {
        let _ = write!(out, "{LINE_COLOR}{line}{RESET}:");
    } else {
        let _ = write!(out, "{line}:");
    }
    let _ = write!(out, "{column}:");
    paint(out, color, URI_COLOR, uri.as_bytes());
    out.push(b'\n');
}

/// A URI alone on its line (NUL-ended under `-0`).
#[inline]
pub fn uri_line(out: &mut Vec<u8>, color: bool, null: bool, uri: &str) {
    paint(out, color, URI_COLOR, uri.as_bytes());
    out.push(if null { 0 } else { b'\n' });
}

/// The `path:count` line of `-c`.
pub fn count_line(
    out: &mut Vec<u8>,
    color: bool,
    null: bool,
    path: &[u8],
    count: u64,
) {
    paint(out, color, PATH_COLOR, path);
    out.push(path_end(null));
    let _ = writeln!(out, "{count}");
}

/// `links`' `path:line:column:link` line; only the path and the link are
/// coloured.
pub fn link_line(
    out: &mut Vec<u8>,
    color: bool,
    null: bool,
    path: &[u8],
    (line, column): (u64, u64),
    link: &str,
) {
    // One `reserve` and plain appends: `write!` goes through the
    // formatting machinery for each of the two numbers of every link.
    out.reserve(path.len() + link.len() + 2 * 20 + 4);
    paint(out, color, PATH_COLOR, path);
    out.push(path_end(null));
    push_decimal(out, line);
    out.push(b':');
    push_decimal(out, column);
    out.push(b':');
    paint(out, color, URI_COLOR, link.as_bytes());
    out.push(b'\n');
}

/// Appends `n` in decimal, as `write!(out, "{n}")` does.
pub fn push_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// `check`'s line for a broken link; `why` is the reason and the hint.
pub fn broken_link(
    out: &mut Vec<u8>,
    color: bool,
    path: &Path,
    at: (u64, u64),
    link: &str,
    why: &str,
) {
    verdict_line(out, color, path, at, ("broken link", link), why);
}

/// `check`'s line for a warning (an unused or duplicate definition);
/// `why` is the reason.
pub fn link_warning(
    out: &mut Vec<u8>,
    color: bool,
    path: &Path,
    at: (u64, u64),
    link: &str,
    why: &str,
) {
    verdict_line(out, color, path, at, ("warning for", link), why);
}

/// `path:line:column: WORDS 'LINK': WHY`, the path and link coloured.
fn verdict_line(
    out: &mut Vec<u8>,
    color: bool,
    path: &Path,
    (line, column): (u64, u64),
    (words, link): (&str, &str),
    why: &str,
) {
    let (p, r) = if color { (PATH_COLOR, RESET) } else { ("", "") };
    let (l, lr) = if color { (URI_COLOR, RESET) } else { ("", "") };
    let _ = writeln!(
        out,
        "{p}{}{r}:{line}:{column}: {words} '{l}{link}{lr}': {why}",
        path.display(),
    );
}

/// The message of a broken link or a warning in an annotation or a
/// SARIF result.
pub fn link_message(warning: bool, link: &str, why: &str) -> String {
    if warning {
        format!("warning for '{link}': {why}")
    } else {
        format!("broken link '{link}': {why}")
    }
}

/// Where a definition is used: `(used on line 3)`, `(used on lines 3, 9)`.
pub fn used_on(lines: &[u64]) -> String {
    let list: Vec<String> = lines.iter().map(u64::to_string).collect();
    let noun = if lines.len() == 1 { "line" } else { "lines" };
    format!("(used on {noun} {})", list.join(", "))
}

#[cfg(feature = "remote")]
/// `check`'s line for a remote link, `text` from [`remote_message`].
pub fn remote_link(
    out: &mut Vec<u8>,
    color: bool,
    path: &Path,
    (line, column): (u64, u64),
    text: &str,
) {
    let (p, r) = if color { (PATH_COLOR, RESET) } else { ("", "") };
    let _ = writeln!(out, "{p}{}{r}:{line}:{column}: {text}", path.display());
}

/// `check --orphans`' line for a document nothing links to.
pub fn orphan(out: &mut Vec<u8>, path: &Path) {
    let _ = writeln!(
        out,
        "{}: orphan: no other document links here",
        path.display()
    );
}

/// What a broken link's line says after its link: the reason, and the
/// suggestion when there is one.
pub fn broken_reason(
    reason: Option<String>,
    suggestion: Option<&str>,
) -> String {
    let reason = reason.unwrap_or_default();
    match suggestion {
        Some(s) => format!("{reason} (did you mean '{s}'?)"),
        None => reason,
    }
}

#[cfg(feature = "remote")]
/// How a remote verdict reads in a human, GitHub or SARIF report: the
/// word before "link", the reason, and the redirect chain. `None` for
/// `ok`, and for `skipped` (a link to the reader's own machine; the JSON
/// rows give it with its reason).
pub fn remote_message(
    link: &str,
    status: RemoteStatus,
    reason: Option<&str>,
    result: &RemoteResult,
) -> Option<String> {
    let word = match status {
        RemoteStatus::Ok | RemoteStatus::Skipped => return None,
        RemoteStatus::Broken => "broken",
        RemoteStatus::Redirected => "redirected",
        RemoteStatus::RateLimited => "rate-limited",
        RemoteStatus::Timeout => "timed-out",
        _ => "unreachable",
    };
    let mut s = format!("{word} link '{}'", mask_password(link));
    match (reason, status) {
        (Some(reason), _) => s.push_str(&format!(": {reason}")),
        (None, RemoteStatus::Redirected) => {
            s.push_str(&format!(": now {}", result.final_uri()));
        }
        _ => {}
    }
    if !result.chain().is_empty() {
        let hops: Vec<String> = result
            .chain()
            .iter()
            .map(|h| format!("{} {}", h.status, h.uri))
            .collect();
        s.push_str(&format!(
            " (via {} → {})",
            hops.join(" → "),
            result.final_uri()
        ));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The line's appends against the `write!` they replace, in and
        /// out of colour, with and without `-0`.
        #[test]
        fn link_line_is_the_formatted_line(
            path in "[a-z/.]{0,20}",
            line in proptest::prelude::any::<u64>(),
            column in proptest::prelude::any::<u64>(),
            link in "\\PC{0,30}",
            color: bool,
            null: bool,
        ) {
            let mut fast = b"before".to_vec();
            link_line(&mut fast, color, null, path.as_bytes(), (line, column), &link);
            let mut simple = b"before".to_vec();
            paint(&mut simple, color, PATH_COLOR, path.as_bytes());
            simple.push(path_end(null));
            write!(simple, "{line}:{column}:").unwrap();
            paint(&mut simple, color, URI_COLOR, link.as_bytes());
            simple.push(b'\n');
            proptest::prop_assert_eq!(fast, simple);
        }

        /// Small numbers, where the digits run out first.
        #[test]
        fn push_decimal_is_display(n in 0u64..100_000) {
            let mut out = vec![];
            push_decimal(&mut out, n);
            proptest::prop_assert_eq!(out, n.to_string().into_bytes());
        }
    }
}
