//! MkDocs' include directives, read by hand over the whole document (they
//! are preprocessors: a snippet in a fenced code block is included too):
//!
//! - `pymdownx.snippets`: a line `--8<-- "path"` (any number of dashes
//!   on each side, indented or not, nothing after the closing quote), and
//!   the block form: a line `--8<--`, one path a line, a line `--8<--`. A
//!   path may end in `:N:M` (lines) or `:name` (a section), split off as
//!   the extension does; a line that starts with `;` is escaped. A URL
//!   is a directive too: whether it is downloaded is the site's
//!   `url_download`;
//! - `mkdocs-include-markdown-plugin`: `{% include-markdown "path" %}`
//!   and `{% include "path" %}`, with any options after the path
//!   (`rewrite-relative-urls=false` is kept). Its path may be a URL,
//!   which the plugin downloads, or a glob pattern, which names every
//!   file it matches: the site resolves both.

use std::sync::LazyLock;

use memchr::memmem;

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
    /// `include-markdown`'s `rewrite-relative-urls` option, when the
    /// directive sets it.
    pub(crate) rewrite_urls: Option<bool>,
}

/// The searchers for the directives' markers, built once: building one
/// costs more than searching a short document with it.
struct Markers {
    snippet: memmem::Finder<'static>,
    open: memmem::Finder<'static>,
    close: memmem::Finder<'static>,
}

static MARKERS: LazyLock<Markers> = LazyLock::new(|| Markers {
    snippet: memmem::Finder::new(b"8<"),
    open: memmem::Finder::new(b"{%"),
    close: memmem::Finder::new(b"%}"),
});

/// Whether `text` may hold an include directive: a snippet marker or a
/// `{%` opening (a site that expands them would change the page).
#[cfg(feature = "check")]
pub(crate) fn may_hold_directive(text: &[u8]) -> bool {
    MARKERS.snippet.find(text).is_some() || MARKERS.open.find(text).is_some()
}

/// The include directives of `text`, in document order.
pub(crate) fn directives(text: &str) -> Vec<Directive> {
    let b = text.as_bytes();
    let mut out = vec![];
    if MARKERS.snippet.find(b).is_some() {
        snippets(b, &mut out, true);
    }
    if MARKERS.open.find(b).is_some() {
        include_markdown(b, &mut out);
    }
    out.sort_by_key(|d| d.whole.start);
    out
}

/// The snippets, line by line; with `skip_to_markers`, outside a block
/// form only the lines that hold `8<` (a marker's), the rest passed by
/// one search.
fn snippets(b: &[u8], out: &mut Vec<Directive>, skip_to_markers: bool) {
    let mut in_block = false;
    let mut at = 0;
    while at < b.len() {
        if skip_to_markers && !in_block {
            // Outside a block, a line with no marker does nothing.
            let Some(found) = MARKERS.snippet.find(&b[at..]) else {
                break;
            };
            let before = &b[at..at + found];
            at += memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        }
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
        let line = Span::new(at, end);
        at = end + 1;
        let text = &b[line.range()];
        let indent =
            text.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        // As the extension's pattern: nothing but a `\r` after a marker
        // or a closing quote.
        let body =
            text[indent..].strip_suffix(b"\r").unwrap_or(&text[indent..]);
        let Some(rest) = marker(body) else {
            if in_block {
                // A path line is stripped of white space at both ends.
                let lead = body
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace())
                    .count();
                let body = trim_end(&body[lead..]);
                let from = line.start + indent + lead;
                let path = Span::new(from, from + body.len());
                if !body.is_empty() && body[0] != b';' {
                    push(
                        out,
                        b,
                        GeneratorKind::MkdocsSnippet,
                        line,
                        path,
                        None,
                    );
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
        // Trailing white space after a marker: no directive.
        let Some(&q) = quoted.first() else { continue };
        if !matches!(q, b'"' | b'\'')
            || quoted.len() < 3
            || quoted[quoted.len() - 1] != q
        {
            continue;
        }
        // The quoted path is stripped of white space at both ends.
        let inner = &quoted[1..quoted.len() - 1];
        let lead =
            inner.iter().take_while(|c| c.is_ascii_whitespace()).count();
        let inner = trim_end(&inner[lead..]);
        let from =
            line.start + indent + (body.len() - quoted.len()) + 1 + lead;
        let path = Span::new(from, from + inner.len());
        push(out, b, GeneratorKind::MkdocsSnippet, line, path, None);
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
    for open in MARKERS.open.find_iter(b) {
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
        let Some(close) = MARKERS.close.find(&b[path.end..]) else {
            continue;
        };
        let whole = Span::new(open, path.end + close + 2);
        let options = &b[path.end + 1..path.end + close];
        let kind = GeneratorKind::MkdocsIncludeMarkdown;
        push(out, b, kind, whole, path, rewrite_option(options));
    }
}

/// A directive, with the `rewrite-relative-urls` option it sets, if any.
fn push(
    out: &mut Vec<Directive>,
    b: &[u8],
    kind: GeneratorKind,
    whole: Span,
    written: Span,
    rewrite_urls: Option<bool>,
) {
    let text = String::from_utf8_lossy(&b[written.range()]);
    let lower = text.to_ascii_lowercase();
    let url = lower.starts_with("http://") || lower.starts_with("https://");
    // `file.md:3:5` or `file.md:section`: the file.
    let path = match kind {
        GeneratorKind::MkdocsSnippet if !url => snippet_file(&text),
        _ => &text,
    };
    if path.is_empty() {
        return;
    }
    out.push(Directive {
        kind,
        whole,
        written,
        path: path.to_string(),
        rewrite_urls,
    });
}

/// The file of a snippet's path, its line ranges (`:1:5,10:`) or its
/// section (`:name`) left out, as `pymdownx.snippets` splits it: at the
/// first `:` that starts a whole valid specifier running to the end.
fn snippet_file(path: &str) -> &str {
    let b = path.as_bytes();
    let size = b.len();
    // Where the run of digits from each index ends.
    let mut digits = vec![size; size + 1];
    for i in (0..size).rev() {
        digits[i] = if b[i].is_ascii_digit() { digits[i + 1] } else { i };
    }
    let number_end = |i: usize| {
        if i < size && b[i] == b'-' { digits[i + 1] } else { digits[i] }
    };
    // Whether everything from each index is a run of `,N` or `,N:N`.
    let mut tail = vec![false; size + 1];
    tail[size] = true;
    for i in (0..size).rev() {
        if b[i] == b',' && i + 1 < size && b"-0123456789:".contains(&b[i + 1])
        {
            let mut j = number_end(i + 1);
            if j < size && b[j] == b':' {
                j = number_end(j + 1);
            }
            tail[i] = tail[j];
        }
    }
    let section_char =
        |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_');
    let mut name = size;
    while name > 0 && section_char(b[name - 1]) {
        name -= 1;
    }
    for colon in memchr::memchr_iter(b':', b) {
        let mut end = number_end(colon + 1);
        if end < size && b[end] == b':' {
            end = number_end(end + 1);
        }
        if tail[end] {
            return &path[..colon];
        }
        if name <= colon + 1
            && colon + 1 < size
            && b[colon + 1].is_ascii_alphabetic()
        {
            return &path[..colon];
        }
    }
    path
}

/// `rewrite-relative-urls=BOOL` (or the older `rewrite_relative_urls`)
/// among an `include-markdown` directive's options.
fn rewrite_option(options: &[u8]) -> Option<bool> {
    let text = String::from_utf8_lossy(options).replace('_', "-");
    let at = text.find("rewrite-relative-urls")?;
    let rest = text[at + "rewrite-relative-urls".len()..].trim_start();
    let value = rest.strip_prefix('=')?.trim_start();
    let value = value.trim_start_matches(['"', '\'']);
    if value.starts_with("false") {
        Some(false)
    } else if value.starts_with("true") {
        Some(true)
    } else {
        None
    }
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
        let text = "--8<-- \"a.md\"\n  -8<- 'b/c.md:3:5'\n\n--8<--\nd.md\n;e.md\n\nf.md:sec\n--8<--\n;--8<-- \"g.md\"\n--8<-- \"https://e.org/x.md\"\n--8<-- \"h.md\" x\n--8<-- \"h.md\" \n```\n--8<-- \"code.py\"\n```\n{% include-markdown \"../README.md\" start=\"<!--s-->\" %}\n{%\n  include 'i.md'\n%} {% include-markdown \"*.md\" %} {% include x.html %}\n";
        assert_eq!(
            found(text),
            [
                ("mkdocs:snippet", "a.md".to_string(), "a.md".to_string()),
                ("mkdocs:snippet", "b/c.md:3:5".into(), "b/c.md".into()),
                ("mkdocs:snippet", "d.md".into(), "d.md".into()),
                ("mkdocs:snippet", "f.md:sec".into(), "f.md".into()),
                // The site decides whether a URL is downloaded.
                (
                    "mkdocs:snippet",
                    "https://e.org/x.md".into(),
                    "https://e.org/x.md".into()
                ),
                ("mkdocs:snippet", "code.py".into(), "code.py".into()),
                (
                    "mkdocs:include-markdown",
                    "../README.md".into(),
                    "../README.md".into()
                ),
                ("mkdocs:include-markdown", "i.md".into(), "i.md".into()),
                // A glob: every file it matches, as the site finds them.
                ("mkdocs:include-markdown", "*.md".into(), "*.md".into()),
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

    /// A snippet's path is split as `pymdownx.snippets` splits it: only
    /// a whole valid specifier is cut off (`pymdownx/snippets.py`
    /// `split_path`).
    #[test]
    fn snippet_paths_split_as_the_extension_does() {
        for (path, file) in [
            ("a.md", "a.md"),
            ("a.md:3", "a.md"),
            ("a.md:3:5", "a.md"),
            ("a.md:1:3,5:7,9:", "a.md"),
            ("a.md:-2", "a.md"),
            ("a.md:sec-1_x", "a.md"),
            ("a:b/c.md", "a:b/c.md"),
            ("a.md:1x", "a.md:1x"),
            ("a.md:", "a.md"),
            ("a.md:_x", "a.md:_x"),
        ] {
            assert_eq!(snippet_file(path), file, "{path}");
        }
        let text = "--8<-- \"  a b.md \"\r\n--8<--\r\n  c.md  \r\n--8<--\r\n--8<-- \r\n";
        assert_eq!(
            found(text),
            [
                ("mkdocs:snippet", "a b.md".to_string(), "a b.md".to_string()),
                ("mkdocs:snippet", "c.md".into(), "c.md".into()),
            ]
        );
        let options = |t: &str| directives(t)[0].rewrite_urls;
        assert_eq!(options("{% include-markdown \"a.md\" %}"), None);
        assert_eq!(
            options(
                "{% include-markdown \"a.md\" rewrite-relative-urls=false %}"
            ),
            Some(false)
        );
        assert_eq!(
            options(
                "{%\n include-markdown 'a.md'\n rewrite_relative_urls=true\n%}"
            ),
            Some(true)
        );
    }

    proptest::proptest! {
        /// Skipping to the lines with a marker finds what reading every
        /// line finds, on text made of markers, paths and quotes.
        #[test]
        fn skipping_to_markers_is_reading_every_line(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "--8<--", "-8<-", "8<", " ", "\t", "\n", "\r\n", "\"",
                    "'", "a.md", ";", ":3", "x", "--",
                ]),
                0..40,
            ),
        ) {
            let text = parts.concat();
            let (mut fast, mut slow) = (vec![], vec![]);
            snippets(text.as_bytes(), &mut fast, true);
            snippets(text.as_bytes(), &mut slow, false);
            proptest::prop_assert_eq!(fast, slow);
        }

        /// The searchers built once find what a search built for each
        /// call finds, from every start.
        #[test]
        fn shared_searchers_are_searches_built_each_time(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "8", "<", "{", "%", "}", "8<", "{%", "%}", "x", "\n",
                ]),
                0..40,
            ),
        ) {
            let text = parts.concat();
            let b = text.as_bytes();
            let searchers = [
                (&MARKERS.snippet, b"8<"),
                (&MARKERS.open, b"{%"),
                (&MARKERS.close, b"%}"),
            ];
            for at in 0..=b.len() {
                for (shared, needle) in searchers {
                    proptest::prop_assert_eq!(
                        shared.find(&b[at..]),
                        memchr::memmem::find(&b[at..], needle)
                    );
                }
            }
        }
    }
}
