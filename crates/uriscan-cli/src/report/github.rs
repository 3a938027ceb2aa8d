//! `check --format github`: GitHub Actions workflow commands
//! (`::error file=…,line=…,col=…::…`).

use std::io::Write as _;
use std::path::Path;

/// One annotation of `level` (`error`, `warning`) at a line and column.
/// The path loses its leading `./`: GitHub matches an annotation to a
/// pull request's file by its repository-relative path, as SARIF's does.
pub fn annotation(
    out: &mut Vec<u8>,
    level: &str,
    path: &Path,
    (line, column): (u64, u64),
    message: &str,
) {
    let _ = writeln!(
        out,
        "::{level} file={},line={line},col={column}::{}",
        property(relative(&path.to_string_lossy())),
        escape(message)
    );
}

/// `path` without its leading `./` segments.
fn relative(mut path: &str) -> &str {
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    path
}

/// A GitHub workflow command's message: `%`, CR and LF escaped.
fn escape(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property: `,` and `:` escaped too.
fn property(s: &str) -> String {
    escape(s).replace(',', "%2C").replace(':', "%3A")
}
