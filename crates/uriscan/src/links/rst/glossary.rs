//! The terms of a document's glossaries, as Sphinx's `glossary`
//! directive reads them: each line of the body at the body's own indent
//! is a term (several may share the definition indented under them), a
//! ` : classifier` after it is not part of it, and options (`:sorted:`)
//! come first. Read from the lines alone: the check looks `:term:` up
//! here, and a glossary written inside a literal block is rare enough to
//! count.

/// The terms that the `glossary` directives of `src` define, as written:
/// the reStructuredText directive (`.. glossary::`) or, with `myst`, the
/// fenced MyST one (```` ```{glossary} ```` or `:::{glossary}`).
pub(crate) fn terms(src: &str, myst: bool) -> Vec<String> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        let indent = indent_of(line);
        let body = &line[indent..];
        if !myst && is_rst_glossary(body) {
            let end = lines[i..]
                .iter()
                .position(|l| !l.trim().is_empty() && indent_of(l) <= indent)
                .map_or(lines.len(), |n| i + n);
            body_terms(&lines[i..end], &mut out);
            i = end;
        } else if myst && let Some(fence) = myst_glossary_fence(body) {
            let end = lines[i..]
                .iter()
                .position(|l| closes(l, fence))
                .map_or(lines.len(), |n| i + n);
            body_terms(&lines[i..end], &mut out);
            i = end + 1;
        }
    }
    out
}

/// Whether `line` (without its indent) opens a reStructuredText glossary.
fn is_rst_glossary(line: &str) -> bool {
    line.strip_prefix("..")
        .filter(|rest| rest.starts_with([' ', '\t']))
        .and_then(|rest| rest.trim().strip_suffix("::"))
        .is_some_and(is_glossary_name)
}

/// Whether a directive's name is the glossary's (`std:glossary` too).
fn is_glossary_name(name: &str) -> bool {
    let name = name.trim();
    name.eq_ignore_ascii_case("glossary")
        || name.eq_ignore_ascii_case("std:glossary")
}

/// The fence of a MyST glossary that `line` (without its indent) opens:
/// three or more backticks, tildes or colons, then `{glossary}`.
fn myst_glossary_fence(line: &str) -> Option<&str> {
    let mark = line.chars().next().filter(|c| matches!(c, '`' | '~' | ':'))?;
    let len = line.len() - line.trim_start_matches(mark).len();
    let (fence, rest) = line.split_at(len);
    let name = rest.trim().strip_prefix('{')?.split('}').next()?;
    (len >= 3 && is_glossary_name(name)).then_some(fence)
}

/// Whether `line` closes a fence that `fence` opened: the same mark, at
/// least as long, nothing after.
fn closes(line: &str, fence: &str) -> bool {
    let line = line.trim();
    let mark = fence.as_bytes()[0] as char;
    line.len() >= fence.len() && line.chars().all(|c| c == mark)
}

/// The terms of a glossary's body `lines`: after its options, each line
/// at the indent of the first one is a term.
fn body_terms(lines: &[&str], out: &mut Vec<String>) {
    let mut content = lines
        .iter()
        .skip_while(|l| l.trim().is_empty())
        .skip_while(|l| l.trim_start().starts_with(':'))
        .filter(|l| !l.trim().is_empty())
        .peekable();
    let Some(first) = content.peek() else { return };
    let term_indent = indent_of(first);
    for line in content {
        if indent_of(line) != term_indent {
            continue;
        }
        let term = line.trim();
        // A comment line is no term.
        if term.starts_with("..") {
            continue;
        }
        let term = split_classifier(term).trim();
        if !term.is_empty() {
            out.push(term.to_owned());
        }
    }
}

/// The term of a term line, without a ` : classifier` (a colon with
/// whitespace on both sides, as Sphinx splits it).
fn split_classifier(line: &str) -> &str {
    let bytes = line.as_bytes();
    (1..bytes.len().saturating_sub(1))
        .find(|&i| {
            bytes[i] == b':'
                && bytes[i - 1].is_ascii_whitespace()
                && bytes[i + 1].is_ascii_whitespace()
        })
        .map_or(line, |i| &line[..i])
}

/// The width of `line`'s leading whitespace, in bytes.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

#[cfg(test)]
mod tests {
    use super::terms;

    #[test]
    fn rst_glossary_terms_are_read() {
        let src = "Intro\n\n.. glossary::\n   :sorted:\n\n   Widget\n   \
                   Gadget : a classifier\n      Both, one definition.\n\n   \
                   .. a comment\n\n   Third term\n      Its definition.\n\
                   \n      Its second paragraph.\n\nAfter the glossary.\n\
                   Not a term\n   indented text\n";
        assert_eq!(terms(src, false), ["Widget", "Gadget", "Third term"]);
    }

    #[test]
    fn nested_and_empty_glossaries_end_where_their_body_does() {
        let src = ".. note::\n\n   .. glossary::\n\n      One\n         Def.\n\
                   \n   Back in the note.\n\n.. glossary::\n";
        assert_eq!(terms(src, false), ["One"]);
        assert!(terms(".. glossary:: \n\n:x:\n", false).is_empty());
    }

    #[test]
    fn myst_glossary_terms_are_read() {
        let src = "# Title\n\n```{glossary}\n:sorted:\nMyST term\n  \
                   Its definition.\nOther\n  Def.\n```\n\n:::{glossary}\n\
                   Colon fence\n  Def.\n:::\nAfter\n";
        assert_eq!(terms(src, true), ["MyST term", "Other", "Colon fence"]);
        assert!(terms(src, false).is_empty());
    }
}
