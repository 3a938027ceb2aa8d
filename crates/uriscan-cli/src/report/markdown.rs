//! `check --format markdown`: a report to paste into an issue or a pull
//! request comment, or to append to `$GITHUB_STEP_SUMMARY`: a table of
//! the broken links of each file, then the summary counts.

use std::io::Write as _;

use super::findings::Findings;

/// Writes the whole report.
pub fn write(out: &mut Vec<u8>, findings: &Findings, summary: &str) {
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
    for doc in findings.docs.iter().filter(|d| !d.findings.is_empty()) {
        let _ = writeln!(out, "### {}\n", escape(&doc.path));
        let _ = writeln!(out, "| Line | Link | Reason | Suggestion |");
        let _ = writeln!(out, "| ---: | --- | --- | --- |");
        for f in &doc.findings {
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
        out.push(b'\n');
    }
    write_warnings(out, findings);
    let _ = writeln!(out, "{summary}");
}

/// The warnings, after the broken links: one table for the run.
fn write_warnings(out: &mut Vec<u8>, findings: &Findings) {
    let count = findings.warning_count();
    if count == 0 {
        return;
    }
    let s = if count == 1 { "" } else { "s" };
    let _ = writeln!(out, "### {count} warning{s}\n");
    let _ = writeln!(out, "| File | Line | Link | Reason |");
    let _ = writeln!(out, "| --- | ---: | --- | --- |");
    for doc in &findings.docs {
        for w in &doc.warnings {
            let _ = writeln!(
                out,
                "| {} | {}:{} | {} | {} |",
                escape(&doc.path),
                w.line,
                w.column,
                escape(&w.link),
                escape(&w.reason),
            );
        }
    }
    out.push(b'\n');
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
    use super::escape;

    #[test]
    fn escapes_markdown_and_table_characters() {
        assert_eq!(escape("a|b"), "a\\|b");
        assert_eq!(escape("[x](y)"), "\\[x\\]\\(y\\)");
        assert_eq!(escape("<img>`*_"), "\\<img\\>\\`\\*\\_");
        assert_eq!(escape("line\nbreak"), "line break");
        assert_eq!(escape("plain/path.md"), "plain/path.md");
    }
}
