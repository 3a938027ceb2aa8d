//! MkDocs' include directives, read by hand over the whole document (they
//! are preprocessors: a snippet in a fenced code block is included too):
//!
//! - `pymdownx.snippets`: a line `--8<-- "path"` (any number of dashes
//!   on each side, indented or not), and the block form: a line `--8<--`,
//!   one path a line, a line `--8<--`. A path may end in `:N:M` (lines) or
//!   `:name` (a section); a line that starts with `;` is escaped; a URL
//!   is downloaded, not read: none of these is a link to a file;
//! - `mkdocs-include-markdown-plugin`: `{% include-markdown "path" %}`
//!   and `{% include "path" %}`, with any options after the path; a glob
//!   is no single file.

use super::GeneratorKind;
use crate::Span;

/// One include directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Directive {
    pub(crate) kind: GeneratorKind,
    /// The whole directive: the line of a snippet, the `{% ... %}`.
    pub(crate) whole: Span,
    /// The path as written, its line range or section left in.
    pub(crate) written: Span,
    /// The file's path.
    pub(crate) path: String,
}

/// The include directives of `text`, in document order.
pub(crate) fn directives(text: &str) -> Vec<Directive> {
    let b = text.as_bytes();
    let mut out = vec![];
    if memchr::memmem::find(b, b"8<").is_some() {
        snippets(b, &mut out);
    }
    if memchr::memmem::find(b, b"{%").is_some() {
        include_markdown(b, &mut out);
    }
    out.sort_by_key(|d| d.whole.start);
    out
}

/// The snippets, line by line.
fn snippets(b: &[u8], out: &mut Vec<Directive>) {
    let mut in_block = false;
    let mut at = 0;
    while at < b.len() {
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
        let line = Span::new(at, end);
        at = end + 1;
        let text = &b[line.range()];
        let indent =
            text.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        let body = trim_end(&text[indent..]);
        let Some(rest) = marker(body) else {
            if in_block {
                let from = line.start + indent;
                let path = Span::new(from, from + body.len());
                if !body.is_empty() && body[0] != b';' {
                    push(out, b, GeneratorKind::MkdocsSnippet, line, path);
                }
            }
            continue;
        };
        if rest.is_empty() {
            in_block = !in_block;
            continue;
        }
        if in_block || !rest[0].is_ascii_whitespace() {
            continue;
        }
        let lead = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
        let quoted = &rest[lead..];
        let q = quoted[0];
        if !matches!(q, b'"' | b'\'')
            || quoted.len() < 3
            || quoted[quoted.len() - 1] != q
        {
            continue;
        }
        let from = line.start + indent + (body.len() - quoted.len()) + 1;
        let path = Span::new(from, from + quoted.len() - 2);
        push(out, b, GeneratorKind::MkdocsSnippet, line, path);
    }
}

/// After a snippet marker (`-+8<-+`) at the start of `body`: the rest.
fn marker(body: &[u8]) -> Option<&[u8]> {
    let dashes = body.iter().take_while(|&&c| c == b'-').count();
    let rest = body[dashes..].strip_prefix(b"8<")?;
    let after = rest.iter().take_while(|&&c| c == b'-').count();
    (dashes > 0 && after > 0).then_some(&rest[after..])
}

/// `{% include-markdown "path" ... %}` and `{% include "path" ... %}`.
fn include_markdown(b: &[u8], out: &mut Vec<Directive>) {
    for open in memchr::memmem::find_iter(b, b"{%") {
        let mut at = open + 2;
        at += usize::from(b.get(at) == Some(&b'-'));
        at += b[at..].iter().take_while(|c| c.is_ascii_whitespace()).count();
        let name = b[at..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
            .count();
        if !matches!(&b[at..at + name], b"include-markdown" | b"include") {
            continue;
        }
        at += name;
        let space =
            b[at..].iter().take_while(|c| c.is_ascii_whitespace()).count();
        if space == 0 {
            continue;
        }
        at += space;
        let Some(&q) = b.get(at).filter(|q| matches!(q, b'"' | b'\'')) else {
            continue;
        };
        let Some(len) = b[at + 1..].iter().position(|&c| c == q || c == b'\n')
        else {
            continue;
        };
        if b[at + 1 + len] != q || len == 0 {
            continue;
        }
        let path = Span::new(at + 1, at + 1 + len);
        let Some(close) = memchr::memmem::find(&b[path.end..], b"%}") else {
            continue;
        };
        let whole = Span::new(open, path.end + close + 2);
        push(out, b, GeneratorKind::MkdocsIncludeMarkdown, whole, path);
    }
}

/// A directive, unless its path names no single local file.
fn push(
    out: &mut Vec<Directive>,
    b: &[u8],
    kind: GeneratorKind,
    whole: Span,
    written: Span,
) {
    let text = String::from_utf8_lossy(&b[written.range()]);
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return;
    }
    if kind == GeneratorKind::MkdocsIncludeMarkdown
        && text.contains(['*', '?', '['])
    {
        return;
    }
    // `file.md:3:5` or `file.md:section`: the file.
    let path = match kind {
        GeneratorKind::MkdocsSnippet => text.split(':').next().unwrap_or(""),
        _ => &text,
    };
    if path.is_empty() {
        return;
    }
    out.push(Directive { kind, whole, written, path: path.to_string() });
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
    &b[..b.len() - n]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&'static str, String, String)> {
        directives(text)
            .into_iter()
            .map(|d| {
                (d.kind.as_str(), text[d.written.range()].to_string(), d.path)
            })
            .collect()
    }

    #[test]
    fn snippets_and_include_markdown() {
        let text = "--8<-- \"a.md\"\n  -8<- 'b/c.md:3:5'\n\n--8<--\nd.md\n;e.md\n\nf.md:sec\n--8<--\n;--8<-- \"g.md\"\n--8<-- \"https://e.org/x.md\"\n--8<-- \"h.md\" x\n```\n--8<-- \"code.py\"\n```\n{% include-markdown \"../README.md\" start=\"<!--s-->\" %}\n{%\n  include 'i.md'\n%} {% include-markdown \"*.md\" %} {% include x.html %}\n";
        assert_eq!(
            found(text),
            [
                ("mkdocs:snippet", "a.md".to_string(), "a.md".to_string()),
                ("mkdocs:snippet", "b/c.md:3:5".into(), "b/c.md".into()),
                ("mkdocs:snippet", "d.md".into(), "d.md".into()),
                ("mkdocs:snippet", "f.md:sec".into(), "f.md".into()),
                ("mkdocs:snippet", "code.py".into(), "code.py".into()),
                (
                    "mkdocs:include-markdown",
                    "../README.md".into(),
                    "../README.md".into()
                ),
                ("mkdocs:include-markdown", "i.md".into(), "i.md".into()),
            ]
        );
        for none in [
            "8<",
            "--8<",
            "{%",
            "{% include",
            "{% include \"a.md\"",
            "-8<-\"a\"",
        ] {
            assert_eq!(found(none), [], "{none}");
        }
    }
}
