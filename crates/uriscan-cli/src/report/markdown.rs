//! `check --format markdown`: a report to paste into an issue or a pull
//! request comment, or to append to `$GITHUB_STEP_SUMMARY`: a table of
//! the broken links of each file, then the summary counts.

use std::io::Write as _;

use super::findings::{DocFindings, Finding, Findings, Spill, Stopped};

/// A broken link's row of its file's table.
pub fn finding(out: &mut Vec<u8>, f: &Finding) {
    let _ = writeln!(
        out,
        "| {}:{} | {} | {} | {} |",
        f.line,
        f.column,
        escape(&f.link),
        escape(&f.reason),
        f.suggestion.as_deref().map(escape).unwrap_or_default(),
    );
}

/// A warning's row of the run's table of warnings.
pub fn warning(out: &mut Vec<u8>, doc: &DocFindings, w: &Finding) {
    let _ = writeln!(
        out,
        "| {} | {}:{} | {} | {} |",
        doc.escaped,
        w.line,
        w.column,
        escape(&w.link),
        escape(&w.reason),
    );
}

/// Writes the whole report, its rows read back from `findings`.
pub fn write(
    out: &mut Vec<u8>,
    findings: &Findings,
    summary: &str,
    spill: Spill<'_>,
) -> Result<(), Stopped> {
    let _ = writeln!(out, "## uriscan check\n");
    let broken = findings.count();
    if broken == 0 {
        let _ = writeln!(out, "No broken links.\n");
    } else {
        let _ = writeln!(
            out,
            "**{broken} broken link{}** in {} of {} files.\n",
            if broken == 1 { "" } else { "s" },
            findings.failing_docs(),
            findings.docs.len(),
        );
    }
    for doc in findings.docs.iter().filter(|d| d.findings.count() > 0) {
        let _ = writeln!(out, "### {}\n", doc.escaped);
        let _ = writeln!(out, "| Line | Link | Reason | Suggestion |");
        let _ = writeln!(out, "| ---: | --- | --- | --- |");
        findings.copy(&doc.findings, out, spill)?;
        out.push(b'\n');
    }
    write_warnings(out, findings, spill)?;
    let _ = writeln!(out, "{summary}");
    Ok(())
}

/// The warnings, after the broken links: one table for the run.
fn write_warnings(
    out: &mut Vec<u8>,
    findings: &Findings,
    spill: Spill<'_>,
) -> Result<(), Stopped> {
    let count = findings.warning_count();
    if count == 0 {
        return Ok(());
    }
    let s = if count == 1 { "" } else { "s" };
    let _ = writeln!(out, "### {count} warning{s}\n");
    let _ = writeln!(out, "| File | Line | Link | Reason |");
    let _ = writeln!(out, "| --- | ---: | --- | --- |");
    for doc in &findings.docs {
        findings.copy(&doc.warnings, out, spill)?;
    }
    out.push(b'\n');
    Ok(())
}

/// Text made inert in Markdown and in a table cell: every ASCII
/// punctuation character that Markdown or HTML gives a meaning is
/// backslash-escaped (CommonMark 2.4), and line breaks become spaces so
/// that a cell stays on its row.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '<' | '>'
            | '(' | ')' | '#' | '+' | '-' | '!' | '|' | '~' | '&' | '"'
            | '$' => {
                s.push('\\');
                s.push(c);
            }
            '\r' | '\n' => s.push(' '),
            _ => s.push(c),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::findings::tests::{in_memory, run, spooled, written};

    /// The report of a run, its entries spooled to a file or in memory.
    #[test]
    fn spooled_report_is_the_one_in_memory() {
        let [from_file, from_memory] = [spooled, in_memory].map(|kept| {
            let findings = run(kept(escape), |out, doc, f, is_warning| {
                if is_warning {
                    warning(out, doc, f);
                } else {
                    finding(out, f);
                }
            });
            written(|out, spill| write(out, &findings, "the counts", spill))
        });
        assert_eq!(from_file, from_memory);
        assert_eq!(
            from_memory,
            r#"## uriscan check

**4 broken links** in 2 of 3 files.

### a.md

| Line | Link | Reason | Suggestion |
| ---: | --- | --- | --- |
| 1:2 | \#a\|\<1\> | no anchor \& '1' |  |
| 3:2 | \#a\|\<3\> | no anchor \& '3' | \#b3 |
| 7:2 | \#a\|\<7\> | no anchor \& '7' |  |

### c.md

| Line | Link | Reason | Suggestion |
| ---: | --- | --- | --- |
| 5:2 | \#a\|\<5\> | no anchor \& '5' |  |

### 3 warnings

| File | Line | Link | Reason |
| --- | ---: | --- | --- |
| a.md | 2:2 | \#a\|\<2\> | no anchor \& '2' |
| c.md | 4:2 | \#a\|\<4\> | no anchor \& '4' |
| c.md | 6:2 | \#a\|\<6\> | no anchor \& '6' |

the counts
"#
        );
    }

    #[test]
    fn escapes_markdown_and_table_characters() {
        assert_eq!(escape("a|b"), "a\\|b");
        assert_eq!(escape("[x](y)"), "\\[x\\]\\(y\\)");
        assert_eq!(escape("<img>`*_"), "\\<img\\>\\`\\*\\_");
        assert_eq!(escape("line\nbreak"), "line break");
        assert_eq!(escape("plain/path.md"), "plain/path.md");
    }
}
