//! `check --format junit`: JUnit XML for GitLab CI's test reports and
//! Jenkins: one test case per checked document, one failure per broken
//! link.

use std::io::Write as _;

use super::findings::Findings;
use super::text::broken_reason;

/// Writes the whole XML document; `summary` goes in the suite's
/// `system-out`. Warnings are a test case's `system-out`, or failures
/// when `deny_warnings`.
pub fn write(
    out: &mut Vec<u8>,
    findings: &Findings,
    summary: &str,
    deny_warnings: bool,
) {
    let tests = findings.docs.len();
    let failures = findings
        .docs
        .iter()
        .filter(|d| {
            !d.findings.is_empty() || deny_warnings && !d.warnings.is_empty()
        })
        .count();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<testsuites name="uriscan check" tests="{tests}" failures="{failures}" errors="0">"#
    );
    let _ = writeln!(
        out,
        r#"  <testsuite name="uriscan check" tests="{tests}" failures="{failures}" errors="0" skipped="0">"#
    );
    for doc in &findings.docs {
        let path = escape(&doc.path);
        if doc.findings.is_empty() && doc.warnings.is_empty() {
            let _ = writeln!(
                out,
                r#"    <testcase name="{path}" classname="uriscan.check" file="{path}"/>"#
            );
            continue;
        }
        let _ = writeln!(
            out,
            r#"    <testcase name="{path}" classname="uriscan.check" file="{path}">"#
        );
        for f in &doc.findings {
            let why =
                broken_reason(Some(f.reason.clone()), f.suggestion.as_deref());
            let message = format!("broken link '{}': {why}", f.link);
            failure(out, &path, f, &message, "broken-link");
        }
        let warning = |f: &super::findings::Finding| {
            format!("warning for '{}': {}", f.link, f.reason)
        };
        if deny_warnings {
            for f in &doc.warnings {
                failure(out, &path, f, &warning(f), "warning");
            }
        } else if !doc.warnings.is_empty() {
            let lines: Vec<String> = doc
                .warnings
                .iter()
                .map(|f| {
                    format!(
                        "{path}:{}:{}: {}",
                        f.line,
                        f.column,
                        escape(&warning(f))
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "      <system-out>{}</system-out>",
                lines.join("&#10;")
            );
        }
        let _ = writeln!(out, "    </testcase>");
    }
    let _ = writeln!(out, "    <system-out>{}</system-out>", escape(summary));
    let _ = writeln!(out, "  </testsuite>");
    let _ = writeln!(out, "</testsuites>");
}

/// One `failure` element of `kind` for finding `f` of the document at
/// `path` (escaped).
fn failure(
    out: &mut Vec<u8>,
    path: &str,
    f: &super::findings::Finding,
    message: &str,
    kind: &str,
) {
    let message = escape(message);
    let _ = writeln!(
        out,
        r#"      <failure message="{message}" type="{kind}">{path}:{}:{}: {message}</failure>"#,
        f.line, f.column
    );
}

/// Text for an XML attribute or element: the five special characters as
/// entities, and the characters XML 1.0 does not allow (most C0 controls)
/// as U+FFFD, so that the document always parses.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            // Kept as references: a raw line break in an attribute is
            // read back as a space.
            '\n' => s.push_str("&#10;"),
            '\r' => s.push_str("&#13;"),
            '\t' => s.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                s.push('\u{FFFD}');
            }
            _ => s.push(c),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_xml() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1}y\nz"), "x\u{FFFD}y&#10;z");
    }
}
