//! `check --format junit`: JUnit XML for GitLab CI's test reports and
//! Jenkins: one test case per checked document, one failure per broken
//! link.

use std::io::Write as _;

use super::findings::{DocFindings, Finding, Findings, Spill, Stopped};
use super::text::broken_reason;

/// A broken link's `failure` element in its file's test case.
pub fn finding(out: &mut Vec<u8>, doc: &DocFindings, f: &Finding) {
    let why = broken_reason(Some(f.reason.clone()), f.suggestion.as_deref());
    let message = format!("broken link '{}': {why}", f.link);
    failure(out, &doc.escaped, f, &message, "broken-link");
}

/// A warning of its file's test case: a `failure` when `deny_warnings`,
/// else a line of the test case's `system-out`.
pub fn warning(
    out: &mut Vec<u8>,
    doc: &DocFindings,
    f: &Finding,
    deny_warnings: bool,
) {
    let message = format!("warning for '{}': {}", f.link, f.reason);
    if deny_warnings {
        failure(out, &doc.escaped, f, &message, "warning");
        return;
    }
    if doc.warnings.count() > 0 {
        out.extend_from_slice(b"&#10;");
    }
    let _ = write!(
        out,
        "{}:{}:{}: {}",
        doc.escaped,
        f.line,
        f.column,
        escape(&message)
    );
}

/// Writes the whole XML document, its entries read back from `findings`;
/// `summary` goes in the suite's `system-out`.
pub fn write(
    out: &mut Vec<u8>,
    findings: &Findings,
    summary: &str,
    deny_warnings: bool,
    spill: Spill<'_>,
) -> Result<(), Stopped> {
    let tests = findings.docs.len();
    let failures = findings
        .docs
        .iter()
        .filter(|d| {
            d.findings.count() > 0 || deny_warnings && d.warnings.count() > 0
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
        let path = &doc.escaped;
        if doc.findings.count() == 0 && doc.warnings.count() == 0 {
            let _ = writeln!(
                out,
                r#"    <testcase name="{path}" classname="uriscan.check" file="{path}"/>"#
            );
        } else {
            let _ = writeln!(
                out,
                r#"    <testcase name="{path}" classname="uriscan.check" file="{path}">"#
            );
            findings.copy(&doc.findings, out, spill)?;
            if deny_warnings {
                findings.copy(&doc.warnings, out, spill)?;
            } else if doc.warnings.count() > 0 {
                out.extend_from_slice(b"      <system-out>");
                findings.copy(&doc.warnings, out, spill)?;
                out.extend_from_slice(b"</system-out>\n");
            }
            let _ = writeln!(out, "    </testcase>");
        }
        if !spill(out) {
            return Err(Stopped::Output);
        }
    }
    let _ = writeln!(out, "    <system-out>{}</system-out>", escape(summary));
    let _ = writeln!(out, "  </testsuite>");
    let _ = writeln!(out, "</testsuites>");
    Ok(())
}

/// One `failure` element of `kind` for finding `f` of the document at
/// `path` (escaped).
fn failure(
    out: &mut Vec<u8>,
    path: &str,
    f: &Finding,
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
    use super::*;
    use crate::report::findings::tests::{in_memory, run, spooled, written};

    /// The report of a run, its entries spooled to a file or in memory,
    /// with warnings denied or not.
    #[test]
    fn spooled_report_is_the_one_in_memory() {
        for deny in [false, true] {
            let [from_file, from_memory] = [spooled, in_memory].map(|kept| {
                let findings = run(kept(escape), |out, doc, f, is_warning| {
                    if is_warning {
                        warning(out, doc, f, deny);
                    } else {
                        finding(out, doc, f);
                    }
                });
                written(|out, spill| {
                    write(out, &findings, "the counts", deny, spill)
                })
            });
            assert_eq!(from_file, from_memory);
            let failure = |n: u64| {
                format!(
                    "<failure message=\"warning for &apos;#a|&lt;{n}&gt;&apos;: \
                     no anchor &amp; &apos;{n}&apos;\" type=\"warning\">"
                )
            };
            if deny {
                for n in [2, 4, 6] {
                    assert!(from_memory.contains(&failure(n)), "{n}");
                }
                assert!(!from_memory.contains("      <system-out>"));
            } else {
                assert_eq!(
                    from_memory,
                    r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="uriscan check" tests="3" failures="2" errors="0">
  <testsuite name="uriscan check" tests="3" failures="2" errors="0" skipped="0">
    <testcase name="a.md" classname="uriscan.check" file="a.md">
      <failure message="broken link &apos;#a|&lt;1&gt;&apos;: no anchor &amp; &apos;1&apos;" type="broken-link">a.md:1:2: broken link &apos;#a|&lt;1&gt;&apos;: no anchor &amp; &apos;1&apos;</failure>
      <failure message="broken link &apos;#a|&lt;3&gt;&apos;: no anchor &amp; &apos;3&apos; (did you mean &apos;#b3&apos;?)" type="broken-link">a.md:3:2: broken link &apos;#a|&lt;3&gt;&apos;: no anchor &amp; &apos;3&apos; (did you mean &apos;#b3&apos;?)</failure>
      <failure message="broken link &apos;#a|&lt;7&gt;&apos;: no anchor &amp; &apos;7&apos;" type="broken-link">a.md:7:2: broken link &apos;#a|&lt;7&gt;&apos;: no anchor &amp; &apos;7&apos;</failure>
      <system-out>a.md:2:2: warning for &apos;#a|&lt;2&gt;&apos;: no anchor &amp; &apos;2&apos;</system-out>
    </testcase>
    <testcase name="b.md" classname="uriscan.check" file="b.md"/>
    <testcase name="c.md" classname="uriscan.check" file="c.md">
      <failure message="broken link &apos;#a|&lt;5&gt;&apos;: no anchor &amp; &apos;5&apos;" type="broken-link">c.md:5:2: broken link &apos;#a|&lt;5&gt;&apos;: no anchor &amp; &apos;5&apos;</failure>
      <system-out>c.md:4:2: warning for &apos;#a|&lt;4&gt;&apos;: no anchor &amp; &apos;4&apos;&#10;c.md:6:2: warning for &apos;#a|&lt;6&gt;&apos;: no anchor &amp; &apos;6&apos;</system-out>
    </testcase>
    <system-out>the counts</system-out>
  </testsuite>
</testsuites>
"#
                );
            }
        }
    }

    #[test]
    fn escapes_xml() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1}y\nz"), "x\u{FFFD}y&#10;z");
    }
}
