//! MDX (`.mdx`, as Docusaurus reads it), by hand and line by line: the
//! Markdown that is left once the ESM and the expressions are taken out,
//! and the links that only MDX has.
//!
//! - An `import` or `export` line at the start of a block, and the lines
//!   after it up to a blank one, are ESM: not text. The path an `import`
//!   names (`import pic from "./pic.png"`, a partial `./_part.mdx`) is a
//!   link of kind `mdx:import`, but for a package's (`@theme/Tabs`).
//! - An expression `{...}` (braces counted, JavaScript strings and
//!   comments skipped, over any number of lines) is not text; the path of
//!   each `require("...")` in it is a link of kind `mdx:require`. A
//!   heading's `{#id}` is no expression: Docusaurus reads it as the id.
//!   An attribute whose value is an expression is taken out with it.
//! - `<Link to="...">` (or `href`) is a link of kind `mdx:link`; a
//!   component's tags (capitalized: `<Tabs>`) are no HTML, and are taken
//!   out too; `<a href>` and `<img src>` are HTML, read by the Markdown
//!   reader.
//! - Fenced code, inline code and front matter are left as they are.
//!
//! What is taken out is blanked (spaces, the line ends kept), so that
//! offsets and lines stay the document's. An expression left open makes
//! the document malformed ([`mdx_error`]): the rest is read as Markdown.

use super::{GeneratorKind, push};
use crate::Span;
use crate::links::RawLink;

/// Why an MDX document does not parse, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdxError {
    /// The byte offset of the construct left open.
    pub offset: usize,
    /// What is wrong.
    pub message: &'static str,
}

impl std::fmt::Display for MdxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message)
    }
}

/// What reading an MDX document gives.
pub(crate) struct Mdx {
    /// The document with its ESM and expressions blanked: Markdown.
    pub(crate) markdown: String,
    /// Why it is malformed, if it is.
    pub(crate) error: Option<MdxError>,
}

/// Why the MDX document `text` is malformed, if it is: what `check`
/// reports before reading the rest as Markdown.
pub fn mdx_error(text: &[u8]) -> Option<MdxError> {
    read(&String::from_utf8_lossy(text), &mut vec![]).error
}

/// Reads `text`: its MDX links into `out`, and the Markdown left.
pub(crate) fn read(text: &str, out: &mut Vec<RawLink>) -> Mdx {
    let bytes = text.as_bytes();
    let mut r = Reader { bytes, blank: vec![], out, error: None };
    r.document();
    let mut masked = bytes.to_vec();
    for span in &r.blank {
        for b in &mut masked[span.range()] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    let error = r.error.take();
    components(&mut masked, out);
    // Whole characters were blanked: still UTF-8, of the same length.
    let markdown = String::from_utf8(masked)
        .unwrap_or_else(|e| " ".repeat(e.into_bytes().len()));
    Mdx { markdown, error }
}

struct Reader<'a> {
    bytes: &'a [u8],
    /// The spans to blank.
    blank: Vec<Span>,
    out: &'a mut Vec<RawLink>,
    error: Option<MdxError>,
}

impl Reader<'_> {
    /// The whole document, block by block.
    fn document(&mut self) {
        let b = self.bytes;
        let mut at = front_matter_end(b);
        // Whether the line at `at` starts a block (after a blank line).
        let mut block_start = true;
        while at < b.len() {
            let end = line_end(b, at);
            let line = &b[at..end];
            let indent = line.iter().take_while(|&&c| c == b' ').count();
            let body = &line[indent.min(line.len())..];
            if indent <= 3 && is_fence(body) {
                at = self.skip_fence(at, indent);
                block_start = false;
                continue;
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                block_start = true;
                at = next_line(b, end);
                continue;
            }
            if block_start
                && indent == 0
                && (is_keyword(line, b"import") || is_keyword(line, b"export"))
            {
                at = self.esm(at);
                block_start = true;
                continue;
            }
            block_start = false;
            match self.text(at, end) {
                Some(next) => at = next,
                None => return,
            }
        }
    }

    /// A fenced code block from the line at `at`: where it ends.
    fn skip_fence(&mut self, at: usize, indent: usize) -> usize {
        let b = self.bytes;
        let fence = b[at + indent];
        let len = b[at + indent..].iter().take_while(|&&c| c == fence).count();
        let mut line = next_line(b, line_end(b, at));
        while line < b.len() {
            let end = line_end(b, line);
            let l = &b[line..end];
            let ind = l.iter().take_while(|&&c| c == b' ').count();
            let run = l[ind..].iter().take_while(|&&c| c == fence).count();
            let rest_blank =
                l[ind + run..].iter().all(u8::is_ascii_whitespace);
            if ind <= 3 && run >= len && rest_blank {
                return next_line(b, end);
            }
            line = next_line(b, end);
        }
        b.len()
    }

    /// An ESM block from the line at `at` up to a blank line: blanked,
    /// its imported paths as links. Where it ends.
    fn esm(&mut self, at: usize) -> usize {
        let b = self.bytes;
        let mut end = at;
        while end < b.len() {
            let e = line_end(b, end);
            if b[end..e].iter().all(u8::is_ascii_whitespace) {
                break;
            }
            end = next_line(b, e);
        }
        let block = Span::new(at, end);
        self.imports(block);
        self.requires(block);
        self.blank.push(block);
        end
    }

    /// The paths of `from "..."` and `import "..."` in an ESM block.
    fn imports(&mut self, block: Span) {
        let b = self.bytes;
        let mut at = block.start;
        while let Some(q) = find_quote(b, at, block.end) {
            let Some((lit, after)) = string_at(b, q, block.end) else {
                return;
            };
            let before = trim_end(&b[block.start..q]);
            if before.ends_with(b"from") || before.ends_with(b"import") {
                self.path_link(GeneratorKind::MdxImport, lit);
            }
            at = after;
        }
    }

    /// The paths of `require("...")` in `span`.
    fn requires(&mut self, span: Span) {
        let b = self.bytes;
        let mut at = span.start;
        while let Some(i) = memchr::memmem::find(&b[at..span.end], b"require(")
        {
            let open = at + i + "require(".len();
            let q = open
                + b[open..span.end]
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace())
                    .count();
            if let Some((lit, _)) = string_at(b, q, span.end) {
                self.path_link(GeneratorKind::MdxRequire, lit);
            }
            at = open;
        }
    }

    /// A link of `kind` to the path in `lit`, unless it names a package.
    fn path_link(&mut self, kind: GeneratorKind, lit: Span) {
        let path = &self.bytes[lit.range()];
        let local = [&b"./"[..], b"../", b"/", b"@site/"]
            .iter()
            .any(|p| path.starts_with(p));
        if local && !path.contains(&b'\\') {
            let link = String::from_utf8_lossy(path).into_owned();
            push(self.out, self.bytes, kind, lit, &link);
        }
    }

    /// The text of a line from `at` to `end`: its expressions blanked,
    /// inline code skipped. Where the reading goes on (after the line, or
    /// after an expression that ended on a later line); `None` when an
    /// expression is left open.
    fn text(&mut self, at: usize, end: usize) -> Option<usize> {
        let b = self.bytes;
        let mut i = at;
        while i < end {
            match b[i] {
                b'\\' => i += 2,
                b'`' => i = skip_code_span(b, i, end),
                b'{' if b.get(i + 1) == Some(&b'#') => i += 1,
                b'{' => {
                    let Some(close) = expression_end(b, i) else {
                        self.error = Some(MdxError {
                            offset: i,
                            message: "an expression '{' is never closed",
                        });
                        return None;
                    };
                    let span = Span::new(i, close);
                    self.requires(span);
                    self.blank.push(Span::new(attribute_start(b, i), close));
                    if close > end {
                        // It took lines: go on from its end.
                        return Some(self.rest_of_line(close));
                    }
                    i = close;
                }
                _ => i += 1,
            }
        }
        Some(next_line(b, end))
    }

    /// Reads the rest of the line from `at`, which an expression ended
    /// in the middle of.
    fn rest_of_line(&mut self, at: usize) -> usize {
        let end = line_end(self.bytes, at);
        self.text(at, end).unwrap_or(self.bytes.len())
    }
}

/// The JSX components' tags (`<Link to="...">`, `</Tabs>`, `<Snippet
/// />`) in the blanked text `text` (outside fenced code), blanked in
/// turn: they are no HTML (`<Link` would open an HTML block, as `<link`
/// does). The `to` or `href` of each `<Link` is a link into `out`.
fn components(text: &mut [u8], out: &mut Vec<RawLink>) {
    let mut fenced: Option<(u8, usize)> = None;
    let mut line = 0;
    while line < text.len() {
        let end = line_end(text, line);
        let l = &text[line..end];
        let ind = l.iter().take_while(|&&c| c == b' ').count();
        if ind <= 3 && is_fence(&l[ind..]) {
            let fence = l[ind];
            let run = l[ind..].iter().take_while(|&&c| c == fence).count();
            fenced = match fenced {
                None => Some((fence, run)),
                Some((f, n)) if f == fence && run >= n => None,
                open => open,
            };
            line = next_line(text, end);
            continue;
        }
        let mut at = line;
        let mut next = next_line(text, end);
        while fenced.is_none()
            && let Some(i) = memchr::memchr(b'<', &text[at..end])
        {
            let tag = at + i;
            at = tag + 1;
            let name_at =
                tag + 1 + usize::from(text.get(tag + 1) == Some(&b'/'));
            if !text.get(name_at).is_some_and(u8::is_ascii_uppercase) {
                continue;
            }
            let Some(close) = tag_end(text, name_at) else { break };
            if text[name_at..].starts_with(b"Link")
                && text
                    .get(name_at + 4)
                    .is_some_and(|c| c.is_ascii_whitespace())
            {
                link_attributes(text, name_at + 4, close, out);
            }
            for b in &mut text[tag..close] {
                if *b != b'\n' && *b != b'\r' {
                    *b = b' ';
                }
            }
            if close > end {
                // The tag took lines: go on after it.
                next = next_line(text, line_end(text, close));
                break;
            }
            at = close;
        }
        line = next;
    }
}

/// Past the `>` of the tag whose name starts at `at`: quoted values
/// skipped.
fn tag_end(b: &[u8], mut at: usize) -> Option<usize> {
    while at < b.len() {
        match b[at] {
            b'>' => return Some(at + 1),
            b'"' | b'\'' => at = string_at(b, at, b.len())?.1,
            _ => at += 1,
        }
    }
    None
}

/// The `to` or `href` of a `<Link` tag whose attributes are in
/// `text[at..end]`.
fn link_attributes(
    text: &[u8],
    mut at: usize,
    end: usize,
    out: &mut Vec<RawLink>,
) {
    loop {
        while at < end && text[at].is_ascii_whitespace() {
            at += 1;
        }
        let name_start = at;
        while at < end
            && (text[at].is_ascii_alphanumeric()
                || matches!(text[at], b'-' | b'_' | b':'))
        {
            at += 1;
        }
        if at == name_start {
            return;
        }
        let name = &text[name_start..at];
        if text.get(at) != Some(&b'=') {
            continue;
        }
        let Some((lit, after)) = string_at(text, at + 1, end) else {
            return;
        };
        if name == b"to" || name == b"href" {
            let link = String::from_utf8_lossy(&text[lit.range()]);
            push(out, text, GeneratorKind::MdxLink, lit, &link);
        }
        at = after;
    }
}

/// Where the expression opened at `open` ends (past its `}`): braces
/// counted, strings and comments skipped.
fn expression_end(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' | b'`' => {
                i = string_at(b, i, b.len()).map(|(_, after)| after)?;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&b[i + 2..], b"*/")
                    .map(|e| i + 2 + e + 2)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The JavaScript string whose quote is at `q`, before `end`: its content
/// and where it ends (past the quote). A `'` or `"` string ends at its
/// line; a template string may take lines.
fn string_at(b: &[u8], q: usize, end: usize) -> Option<(Span, usize)> {
    let quote = *b.get(q).filter(|_| q < end)?;
    if !matches!(quote, b'"' | b'\'' | b'`') {
        return None;
    }
    let mut i = q + 1;
    while i < end {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return Some((Span::new(q + 1, i), i + 1)),
            b'\n' if quote != b'`' => return None,
            _ => i += 1,
        }
    }
    None
}

/// The first quote in `b[at..end]`.
fn find_quote(b: &[u8], at: usize, end: usize) -> Option<usize> {
    memchr::memchr3(b'"', b'\'', b'`', &b[at..end]).map(|i| at + i)
}

/// Where an expression at `open` is taken out from: the attribute it is
/// the value of (`src={...}`), or itself.
fn attribute_start(b: &[u8], open: usize) -> usize {
    if open == 0 || b[open - 1] != b'=' {
        return open;
    }
    let mut s = open - 1;
    while s > 0
        && (b[s - 1].is_ascii_alphanumeric()
            || matches!(b[s - 1], b'-' | b'_' | b':'))
    {
        s -= 1;
    }
    s
}

/// Past the code span whose backticks start at `at` (before `end`), or
/// past the backticks when none closes them on the line.
fn skip_code_span(b: &[u8], at: usize, end: usize) -> usize {
    let run = b[at..end].iter().take_while(|&&c| c == b'`').count();
    let mut i = at + run;
    while let Some(off) = memchr::memchr(b'`', &b[i..end]) {
        let s = i + off;
        let n = b[s..end].iter().take_while(|&&c| c == b'`').count();
        if n == run {
            return s + n;
        }
        i = s + n;
    }
    at + run
}

/// Whether `line` (indent stripped) opens or closes a code fence.
fn is_fence(line: &[u8]) -> bool {
    line.starts_with(b"```") || line.starts_with(b"~~~")
}

/// Whether `line` starts with the word `kw` (`import x`, `export{`).
fn is_keyword(line: &[u8], kw: &[u8]) -> bool {
    line.starts_with(kw)
        && line.get(kw.len()).is_some_and(|c| {
            !c.is_ascii_alphanumeric() && *c != b'_' && *c != b'$'
        })
}

/// Past a YAML front matter at the document's start (`---` lines).
fn front_matter_end(b: &[u8]) -> usize {
    let first = line_end(b, 0);
    if trim_end(&b[..first]) != b"---" {
        return 0;
    }
    let mut at = next_line(b, first);
    while at < b.len() {
        let end = line_end(b, at);
        if matches!(trim_end(&b[at..end]), b"---" | b"...") {
            return next_line(b, end);
        }
        at = next_line(b, end);
    }
    // Never closed: no front matter, as the Markdown reader has it.
    0
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
    &b[..b.len() - n]
}

/// The end of the line at `at` (its `\n`, or the end).
fn line_end(b: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i)
}

/// The start of the next line after the line end `end`.
fn next_line(b: &[u8], end: usize) -> usize {
    (end + 1).min(b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::Kind;

    fn mdx(text: &str) -> (String, Vec<(String, String)>, Option<MdxError>) {
        let mut out = vec![];
        let m = read(text, &mut out);
        let links = out
            .iter()
            .map(|r| {
                let Kind::Generator(k) = r.kind else { panic!() };
                (k.as_str().to_string(), text[r.span().range()].to_string())
            })
            .collect();
        assert_eq!(m.markdown.len(), text.len());
        (m.markdown, links, m.error)
    }

    #[test]
    fn esm_and_expressions_are_no_text() {
        let text = "---\nid: x\n---\nimport Tabs from '@theme/Tabs';\nimport pic from \"./pic.png\";\nimport Part from './_part.mdx';\n\n# Title {#custom}\n\nSee {props.x} and `{code}` and \\{not}.\n\n{/* a\n comment */} after\n\n<img src={require('./a.png').default} alt=\"a\" />\n\n```js\nimport x from './code.png';\n{open\n```\n\nexport const meta = {\n  a: 1,\n};\n\nlast {1 + {2}} line\n";
        let (md, links, err) = mdx(text);
        assert_eq!(err, None);
        assert_eq!(
            links,
            [
                ("mdx:import".to_string(), "./pic.png".to_string()),
                ("mdx:import".into(), "./_part.mdx".into()),
                ("mdx:require".into(), "./a.png".into()),
            ]
        );
        assert!(md.starts_with("---\nid: x\n---\n   "), "{md}");
        assert!(!md.contains("import Tabs"));
        assert!(md.contains("# Title {#custom}"));
        assert!(
            md.contains(&format!(
                "See {} and `{{code}}` and \\{{not}}.",
                " ".repeat(9)
            )),
            "{md}"
        );
        assert!(md.contains(&format!("\n{} after", " ".repeat(12))), "{md}");
        let img = "src={require('./a.png').default}";
        let img = format!("<img {} alt=\"a\" />", " ".repeat(img.len()));
        assert!(md.contains(&img), "{md}");
        assert!(md.contains("import x from './code.png';\n{open\n```"));
        assert!(!md.contains("export"));
        assert!(
            md.contains(&format!(
                "last {} line",
                " ".repeat("{1 + {2}}".len())
            )),
            "{md}"
        );
        assert_eq!(md.lines().count(), text.lines().count());
    }

    #[test]
    fn jsx_links_and_malformed_documents() {
        let (_, links, err) = mdx(
            "<Link to=\"/docs/intro\">a</Link> <Link\n  className=\"x\" href='https://e.org'>b</Link> <LinkCard to=\"x\">\n",
        );
        assert_eq!(err, None);
        assert_eq!(
            links,
            [
                ("mdx:link".to_string(), "/docs/intro".to_string()),
                ("mdx:link".into(), "https://e.org".into()),
            ]
        );
        let (md, links, err) =
            mdx("# A\n\n[x](a.md) {open and\n\n<Link to=\"b\">b</Link>\n");
        assert_eq!(
            err,
            Some(MdxError {
                offset: 15,
                message: "an expression '{' is never closed"
            })
        );
        assert!(md.contains("{open"));
        assert_eq!(links.len(), 1);
        // Any bytes: no panic, the same length.
        for t in [
            "{",
            "{'",
            "{/*",
            "`",
            "import",
            "---\n",
            "<Link to=",
            "\\",
            "{\"\\",
        ] {
            mdx(t);
        }
    }

    proptest::proptest! {
        /// Any text: no panic, the Markdown as long as the text, its
        /// line ends where they were, every link inside it.
        #[test]
        fn any_text_keeps_its_offsets(text in "[{}<>`'\"/*#a-zL\\n -]{0,80}") {
            let mut out = vec![];
            let m = read(&text, &mut out);
            proptest::prop_assert_eq!(m.markdown.len(), text.len());
            for (a, b) in m.markdown.bytes().zip(text.bytes()) {
                proptest::prop_assert_eq!(a == b'\n', b == b'\n');
            }
            for l in &out {
                proptest::prop_assert!(l.span().end <= text.len());
            }
        }
    }
}
