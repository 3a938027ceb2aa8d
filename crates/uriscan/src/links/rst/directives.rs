//! Explicit markup: hyperlink targets, directives, footnotes and
//! comments (`.. ` at the start of a block).

use crate::Span;

use super::{Reader, RstKind};

/// Directives whose content is code or other text that holds no links.
const NO_LINKS: &[&str] = &[
    "code",
    "code-block",
    "sourcecode",
    "highlight",
    "literalinclude",
    "math",
    "raw",
    "doctest",
    "testcode",
    "testoutput",
    "testsetup",
    "testcleanup",
    "productionlist",
    "graphviz",
    "graph",
    "digraph",
    "index",
    "meta",
    "contents",
    "sectnum",
    "include",
    "image",
    "default-role",
    "role",
    "tabularcolumns",
    "autosummary",
    "ipython",
    "jupyter-execute",
];

/// Directives whose argument is body text (an admonition's first line).
const TEXT_ARGUMENT: &[&str] = &[
    "note",
    "warning",
    "tip",
    "important",
    "caution",
    "danger",
    "error",
    "hint",
    "attention",
    "seealso",
    "admonition",
    "topic",
    "sidebar",
    "rubric",
    "deprecated",
    "versionadded",
    "versionchanged",
    "versionremoved",
    "centered",
    "epigraph",
    "highlights",
    "pull-quote",
    "line-block",
    "parsed-literal",
    "todo",
];

impl Reader<'_, '_> {
    /// Explicit markup at line `i` (indented `ind`), whose text after
    /// `..` starts at `after`. Returns the line after it.
    pub(super) fn explicit(
        &mut self,
        i: usize,
        ind: usize,
        after: usize,
        to: usize,
    ) -> usize {
        let body = self.body_end(i + 1, ind, to);
        let line_end = self.lines.span(i).end;
        let src = self.src;
        let rest = &src.as_bytes()[after..line_end];
        let lead = rest.len() - rest.trim_ascii_start().len();
        let start = after + lead;
        let rest = &rest[lead..];
        match rest.first() {
            Some(b'_') => self.target(start, i, body),
            Some(b'[') => {
                // A footnote or citation: its text is body text.
                if let Some(close) = memchr::memchr(b']', rest) {
                    self.inline(Span::new(start + close + 1, line_end));
                    self.blocks(i + 1, body);
                }
            }
            Some(b'|') => {
                // A substitution definition: the directive after `|name|`.
                if let Some(close) = memchr::memchr(b'|', &rest[1..]) {
                    let d = start + close + 2;
                    let lead = src.as_bytes()[d..line_end]
                        .iter()
                        .take_while(|b| b.is_ascii_whitespace())
                        .count();
                    if let Some((name, args)) =
                        directive_name(&src[d + lead..line_end])
                    {
                        let args = d + lead + args;
                        self.directive(name, args, i, body);
                    }
                }
            }
            _ => {
                if let Some((name, args)) =
                    directive_name(&src[start..line_end])
                {
                    self.directive(name, start + args, i, body);
                }
                // Otherwise a comment: no links.
            }
        }
        body
    }

    /// A target `.. _name: uri` (or `.. __: uri`), starting at `start`
    /// with its `_`, on line `i` with its body up to line `body`.
    fn target(&mut self, start: usize, i: usize, body: usize) {
        let src = self.src;
        let line_end = self.lines.span(i).end;
        let text = &src.as_bytes()[start + 1..line_end];
        // The name ends at the first `:` not escaped (or after a quoted
        // name's closing backquote) that whitespace or the end follows.
        let (name, colon) = if text.first() == Some(&b'`') {
            let Some(close) = memchr::memchr(b'`', &text[1..]) else {
                return;
            };
            if text.get(close + 2) != Some(&b':') {
                return;
            }
            (&src[start + 2..start + 2 + close], close + 2)
        } else {
            let mut at = None;
            let mut k = 0;
            while k < text.len() {
                match text[k] {
                    b'\\' => k += 1,
                    b':' if text
                        .get(k + 1)
                        .is_none_or(|b| b.is_ascii_whitespace()) =>
                    {
                        at = Some(k);
                        break;
                    }
                    _ => {}
                }
                k += 1;
            }
            let Some(at) = at else { return };
            (&src[start + 1..start + 1 + at], at)
        };
        let uri_start = start + 1 + colon + 1;
        let (uri, span) = self.joined(uri_start, i, body);
        let anonymous = name == "_";
        if uri.is_empty() {
            if !anonymous {
                self.targets.internal(&unescape(name));
            }
            return;
        }
        if let Some(to) = reference_name(&self.src[span.range()]) {
            if !anonymous {
                self.targets.alias(&unescape(name), &to);
            }
            return;
        }
        if anonymous {
            self.targets.anonymous(&uri);
            self.push(RstKind::AnonymousTarget, span, &uri);
        } else {
            self.targets.external(&unescape(name), &uri);
            self.push(RstKind::Target, span, &uri);
        }
    }

    /// An anonymous target `__ uri`, whose URI starts at `at` on line
    /// `i`, with its body up to line `body`.
    pub(super) fn anonymous_target(
        &mut self,
        at: usize,
        i: usize,
        body: usize,
    ) {
        let (uri, span) = self.joined(at, i, body);
        if uri.is_empty() {
            return;
        }
        self.targets.anonymous(&uri);
        self.push(RstKind::AnonymousTarget, span, &uri);
    }

    /// The text from `at` on line `i` to the end of line `body - 1`,
    /// whitespace removed (as docutils joins a URI written on several
    /// lines, unescaping `\` escapes), and the span it was written at.
    fn joined(&self, at: usize, i: usize, body: usize) -> (String, Span) {
        let end = self.lines.span(body.max(i + 1) - 1).end.max(at);
        let written = &self.src[at..end];
        let lead = written.len() - written.trim_start().len();
        let span = Span::new(at + lead, at + lead + written.trim().len());
        let mut out = String::with_capacity(span.len());
        let mut chars = written.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(n) if !n.is_whitespace() => out.push(n),
                    _ => {}
                },
                c if c.is_whitespace() => {}
                c => out.push(c),
            }
        }
        (out, span)
    }

    /// The directive `name` on line `i`, its arguments starting at
    /// `args`, its body up to line `body`.
    fn directive(&mut self, name: &str, args: usize, i: usize, body: usize) {
        let name = name.to_ascii_lowercase();
        // `std:` is the default domain: `std:toctree` is `toctree`.
        let name = name.strip_prefix("std:").unwrap_or(&name);
        // The arguments run on until a blank line or the options.
        let mut j = i + 1;
        while j < body
            && self.indent_of(j).is_some_and(|(_, a)| {
                !is_option(&self.src.as_bytes()[a..self.lines.span(j).end])
            })
        {
            j += 1;
        }
        let arg_lines = j;
        let mut options: Vec<(String, usize, usize)> = vec![];
        while j < body {
            let Some((_, at)) = self.indent_of(j) else { break };
            let line = &self.src.as_bytes()[at..self.lines.span(j).end];
            if !is_option(line) {
                break;
            }
            let close =
                memchr::memchr(b':', &line[1..]).map_or(line.len(), |c| c + 1);
            let opt =
                String::from_utf8_lossy(&line[1..close]).to_ascii_lowercase();
            options.push((opt, at + close + 1, j));
            j += 1;
        }
        let content = j;
        let has_option = |o: &str| options.iter().any(|(n, _, _)| n == o);
        for (opt, at, line) in &options {
            match opt.as_str() {
                "name" => {
                    let value =
                        self.src[*at..self.lines.span(*line).end].trim();
                    if !value.is_empty() {
                        self.targets.internal(value);
                    }
                }
                "target" if name == "image" || name == "figure" => {
                    let (uri, span) = self.joined(*at, *line, *line + 1);
                    if let Some(to) = reference_name(&self.src[span.range()]) {
                        self.targets.reference(span, Some(&to));
                    } else if !uri.is_empty() {
                        self.push(RstKind::Link, span, &uri);
                    }
                }
                _ => {}
            }
        }
        let kind = match name {
            "image" => Some(RstKind::Image),
            "figure" => Some(RstKind::Figure),
            "include" => Some(RstKind::Include),
            "literalinclude" => Some(RstKind::LiteralInclude),
            _ => None,
        };
        if let Some(kind) = kind {
            let (path, span) = self.joined(args, i, arg_lines);
            // `<isonum.txt>`: one of docutils' own files, not the project's.
            let standard = path.starts_with('<') && path.ends_with('>');
            if !path.is_empty() && !standard {
                self.push(kind, span, &path);
            }
            if name == "figure" {
                self.blocks(content, body);
            }
            return;
        }
        if name == "toctree" {
            self.toctree(content, body, has_option("glob"));
            return;
        }
        if NO_LINKS.contains(&name) {
            return;
        }
        if TEXT_ARGUMENT.contains(&name) {
            let end = self.lines.span(arg_lines.max(i + 1) - 1).end.max(args);
            self.inline(Span::new(args, end));
        }
        // Any other directive's content is body text.
        self.blocks(content, body);
    }

    /// The entries of a toctree (lines `from..to`): documents, URIs, or
    /// with `glob` patterns.
    fn toctree(&mut self, from: usize, to: usize, glob: bool) {
        for j in from..to {
            let Some((_, at)) = self.indent_of(j) else { continue };
            let end = at + self.line(j).trim_ascii().len();
            let entry = &self.src[at..end.max(at)];
            // `Title <entry>`: the entry is in the brackets.
            let (entry, at) = match entry
                .strip_suffix('>')
                .and_then(|e| e.rfind('<').map(|p| (e, p)))
            {
                Some((e, p)) => (&e[p + 1..], at + p + 1),
                None => (entry, at),
            };
            if entry.is_empty() || entry == "self" {
                continue;
            }
            let span = Span::new(at, at + entry.len());
            if entry.contains("://") || entry.starts_with("mailto:") {
                self.push(RstKind::Toctree, span, entry);
            } else if glob && entry.contains(['*', '?', '[']) {
                self.push(RstKind::ToctreeGlob, span, entry);
            } else {
                self.push(RstKind::Toctree, span, &doc_path(entry));
            }
        }
    }
}

/// The path of the source file a document name (`:doc:`, toctree) names:
/// the name with `.rst`, Sphinx's default suffix (a trailing `/`, which
/// Sphinx drops, dropped).
pub(super) fn doc_path(name: &str) -> String {
    let name = name.strip_suffix('/').unwrap_or(name);
    format!("{name}.rst")
}

/// The name of a directive line `name:: args` and the offset of its
/// arguments; `None` when the line is not one.
fn directive_name(line: &str) -> Option<(&str, usize)> {
    let b = line.as_bytes();
    let len = b
        .iter()
        .take_while(|&&c| {
            c.is_ascii_alphanumeric() || b"-_.:+".contains(&c) || c >= 0x80
        })
        .count();
    // The name's own colons end where `::` starts.
    let mut end = len;
    while end > 0 && b[end - 1] == b':' {
        end -= 1;
    }
    let name = &line[..end];
    let after = line[end..].strip_prefix("::")?;
    if name.is_empty()
        || !(after.is_empty() || after.starts_with(char::is_whitespace))
    {
        return None;
    }
    let args = end + 2 + (after.len() - after.trim_start().len());
    Some((name, args))
}

/// Whether a body line is a field `:name: value` (a directive option).
fn is_option(line: &[u8]) -> bool {
    line.first() == Some(&b':')
        && memchr::memchr(b':', &line[1..]).is_some_and(|c| {
            c > 0 && line.get(c + 2).is_none_or(|b| b.is_ascii_whitespace())
        })
}

/// The name a target's text refers to when it is a reference (`name_`
/// or `` `a name`_ ``): an indirect target.
pub(super) fn reference_name(text: &str) -> Option<String> {
    let name = text.strip_suffix('_')?;
    if name.ends_with('\\') || name.is_empty() {
        return None;
    }
    let name = name
        .strip_prefix('`')
        .and_then(|n| n.strip_suffix('`'))
        .unwrap_or(name);
    Some(unescape(name))
}

/// `name` with backslash escapes removed.
pub(super) fn unescape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}
