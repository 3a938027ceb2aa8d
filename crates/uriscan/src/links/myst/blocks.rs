//! The line scan: MyST's block constructs, which CommonMark reads as
//! text or code: fenced directives (```` ```{name} ````, `:::{name}`)
//! with their options, `(label)=` targets, `%` comments; and the
//! headings, whose titles are labels and ids.

use crate::Span;

use super::{MystKind, RawLink, doc_path, github_slug, link, unique_slug};
use crate::links::rst::{make_id, normalize_name};

/// Directives whose content is no Markdown: code, math, raw output, or
/// a list the directive reads itself.
const NO_MARKDOWN: &[&str] = &[
    "code",
    "code-block",
    "code-cell",
    "sourcecode",
    "highlight",
    "literalinclude",
    "include",
    "toctree",
    "math",
    "raw",
    "eval-rst",
    "mermaid",
    "graphviz",
    "csv-table",
    "autosummary",
    "ipython",
    "jupyter-execute",
    "doctest",
    "testcode",
    "testoutput",
];

/// How deep fenced directives nest before the scan stops descending.
pub(in crate::links) const MAX_DEPTH: usize = 8;

/// What the scan of one document found.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// The links of the directives.
    pub(super) links: Vec<RawLink>,
    /// The Markdown bodies of directives in backtick or tilde fences.
    pub(super) bodies: Vec<Span>,
    /// The reStructuredText bodies of `{eval-rst}` directives.
    pub(super) rst: Vec<Span>,
    /// The `{include}` directives with `:relative-images:` or
    /// `:relative-docs:`: the path's span, whether images are relative,
    /// the span of the docs' prefix.
    pub(super) relative_includes: Vec<(Span, bool, Option<Span>)>,
    /// The labels, normalized.
    pub(super) labels: Vec<String>,
    /// The headings: each level (`#` is 1) and the span of its title's
    /// lines (see [`Scan::titles`]).
    pub(super) headings: Vec<(u8, Span)>,
    /// The ids inline attributes give, each with whether it is a label.
    pub(super) attr_ids: Vec<(String, bool)>,
    /// Where the Markdown reader's links are none of MyST's: comments,
    /// code in directives, directive heads; sorted, disjoint.
    drop: Vec<Span>,
}

/// The source and its lines, as the scan reads them.
struct Source<'s> {
    src: &'s str,
    /// Each line's span, without its line break.
    lines: Vec<Span>,
    /// The Markdown reader's code: a line starting inside is code.
    code: &'s [Span],
    /// Its HTML: a line starting inside is HTML, no MyST.
    html: &'s [Span],
    /// The first of `code` and of `html` that may hold a line still to
    /// come: the scan asks in the order of the text, so each is passed
    /// once rather than searched for each line.
    cursors: [std::cell::Cell<usize>; 2],
    /// Whether `:::` fences a directive (`colon_fence`).
    colon_fence: bool,
}

impl<'s> Source<'s> {
    fn line(&self, i: usize) -> &'s str {
        &self.src[self.lines[i].range()]
    }

    /// The end of the code or HTML the Markdown reader found that offset
    /// `at` is inside, if it is: in code from its start, in HTML after
    /// its start (a line that starts with a tag is read as before, as
    /// inline HTML starts a paragraph). Asked with `at` never smaller
    /// than the last time.
    fn code_end(&self, at: usize) -> Option<usize> {
        let kinds = [(self.code, 0), (self.html, 1)];
        for ((spans, after), cursor) in kinds.into_iter().zip(&self.cursors) {
            let mut k = cursor.get();
            while k < spans.len() && spans[k].end <= at {
                k += 1;
            }
            cursor.set(k);
            if let Some(span) = spans.get(k).filter(|c| c.start + after <= at)
            {
                return Some(span.end);
            }
        }
        None
    }

    /// The line that closes `fence`, opened at line `i` (`to` when no
    /// line before `to` does). The body of a backtick or tilde fence is
    /// the Markdown reader's code, whose end says where to look: its
    /// lines are passed without a look each.
    fn close_of(&self, i: usize, fence: &Fence, to: usize) -> usize {
        let mut j = i + 1;
        let body = self.lines.get(j).filter(|_| j < to && fence.mark != b':');
        if let Some(end) = body.and_then(|l| self.code_end(l.start)) {
            while j < to && self.lines[j].start < end {
                j += 1;
            }
        }
        (j..to).find(|&j| is_close(self.line(j), fence)).unwrap_or(to)
    }

    /// Lines `from..to` as one span (empty at `from`'s start when none).
    fn span(&self, from: usize, to: usize) -> Span {
        let start = self.lines.get(from).map_or(self.src.len(), |s| s.start);
        let end = if to > from { self.lines[to - 1].end } else { start };
        Span::new(start, end.max(start))
    }
}

/// An opening fence: its character, length and info string's offset in
/// the line.
struct Fence {
    mark: u8,
    len: usize,
    info: usize,
}

impl Scan {
    /// Scans `src`, the Markdown reader's code and HTML being `code` and
    /// `html`; `:::` fences a directive with `colon_fence`.
    pub(super) fn run(
        src: &str,
        code: &[Span],
        html: &[Span],
        colon_fence: bool,
    ) -> Scan {
        let lines = line_spans(src.as_bytes());
        let cursors = Default::default();
        let source = Source { src, lines, code, html, cursors, colon_fence };
        let mut scan = Scan::default();
        scan.lines(&source, 0, source.lines.len(), 0);
        scan.drop.sort_unstable();
        scan
    }

    /// Whether a Markdown link at `at` is none of MyST's.
    pub(super) fn drops(&self, at: usize) -> bool {
        let k = self.drop.partition_point(|d| d.start <= at);
        k > 0 && at < self.drop[k - 1].end
    }

    /// The headings of `src` (the source scanned): each level and title,
    /// markup removed. Made only when asked, as few documents need them.
    pub(super) fn titles<'a>(
        &'a self,
        src: &'a str,
    ) -> impl Iterator<Item = (u8, String)> + 'a {
        self.headings.iter().map(|(level, span)| {
            let lines: Vec<&str> =
                src[span.range()].lines().map(str::trim).collect();
            (*level, plain(&lines.join(" ")))
        })
    }

    /// The ids of the document `src`: each label's name and id, each
    /// section's id.
    pub(super) fn anchors(&self, src: &str) -> Vec<String> {
        let mut ids = vec![];
        let attr_ids = self.attr_ids.iter().map(|(id, _)| normalize_name(id));
        for label in self.labels.iter().cloned().chain(attr_ids) {
            let id = make_id(&label);
            ids.push(label);
            ids.push(id);
        }
        ids.extend(
            self.titles(src).map(|(_, h)| make_id(&normalize_name(&h))),
        );
        ids
    }

    /// The slugs of the headings of `src` of level `up_to` and above, as
    /// `myst_heading_anchors` gives them: GitHub's, kept apart by
    /// suffixes; an empty slug is no anchor.
    pub(super) fn slugs(&self, src: &str, up_to: u8) -> Vec<String> {
        let mut slugs: Vec<String> = vec![];
        for (level, title) in self.titles(src) {
            let slug = github_slug(&title);
            if level <= up_to && !slug.is_empty() {
                let slug = unique_slug(slug, &slugs);
                slugs.push(slug);
            }
        }
        slugs
    }

    /// Scans lines `from..to`.
    fn lines(&mut self, s: &Source<'_>, from: usize, to: usize, depth: usize) {
        let mut i = from;
        // The first line of the paragraph being read, for a setext
        // heading's title.
        let mut para: Option<usize> = None;
        // The column the text being read (a paragraph, a list item's or
        // a quote's) starts at: a line indented four columns past it
        // goes on with that text, and is no target.
        let mut text_column: Option<usize> = None;
        let b = s.src.as_bytes();
        while i < to {
            let span = s.lines[i];
            let line = &b[span.range()];
            // Most lines are text: a letter starts none of the lines
            // looked for.
            if line.first().is_some_and(u8::is_ascii_alphabetic) {
                para = para.or(Some(i));
                text_column = text_column.or(Some(0));
                i += 1;
                continue;
            }
            let blanks = line.iter().take_while(|&&c| c == b' ' || c == b'\t');
            let at = span.start + blanks.count();
            if at == span.end {
                para = None;
                text_column = None;
                i += 1;
                continue;
            }
            // Code and HTML hold none: their lines are passed at once.
            if let Some(end) = s.code_end(at) {
                para = None;
                text_column = None;
                i += 1;
                while i < to && s.lines[i].start < end {
                    i += 1;
                }
                continue;
            }
            let line = &s.src[span.range()];
            let text = &s.src[at..span.end];
            if let Some(fence) = fence_open(text, s.colon_fence) {
                i = self.fence(s, i, at, &fence, to, depth);
                para = None;
                text_column = None;
                continue;
            }
            let trimmed = text.trim_end_matches([' ', '\t']);
            let goes_on = text_column.is_some_and(|c| columns(line) >= c + 4);
            let label = match goes_on {
                true => None,
                false => target(trimmed).or_else(|| quoted_target(text)),
            };
            if let Some(label) = label {
                self.labels.push(normalize_name(label));
            } else if text.starts_with('%') {
                self.drop.push(s.lines[i]);
            } else if let Some((level, title)) = atx_heading(trimmed) {
                let start = title.as_ptr() as usize - s.src.as_ptr() as usize;
                let title = Span::new(start, start + title.len());
                self.headings.push((level, title));
            } else if let Some(p) = para.filter(|_| is_underline(trimmed)) {
                let level = if trimmed.starts_with('=') { 1 } else { 2 };
                self.headings.push((level, s.span(p, i)));
            } else {
                if para.is_none() && !starts_block(text) {
                    para = Some(i);
                }
                text_column = text_column.or(Some(content_column(line)));
                i += 1;
                continue;
            }
            para = None;
            text_column = None;
            i += 1;
        }
    }

    /// The fenced block opened by `fence` at line `i` (its marks at
    /// `at`): a directive when its info string is `{name}`. Returns the
    /// line after it.
    fn fence(
        &mut self,
        s: &Source<'_>,
        i: usize,
        at: usize,
        fence: &Fence,
        to: usize,
        depth: usize,
    ) -> usize {
        let close = s.close_of(i, fence, to);
        let next = (close + 1).min(to);
        let block = s.span(i, next);
        let info_at = at + fence.info;
        let info = &s.src[info_at..s.lines[i].end];
        let directive = info.strip_prefix('{').and_then(|r| {
            let end = r.find('}')?;
            let name = &r[..end];
            let ok = !name.is_empty()
                && name.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || b"_-+:.".contains(&b)
                });
            ok.then(|| (name.to_ascii_lowercase(), info_at + 1 + end + 1))
        });
        let Some((name, args_at)) = directive else {
            // Colons around no directive fence a container of Markdown.
            if fence.mark == b':' && depth < MAX_DEPTH {
                self.lines(s, i + 1, close, depth + 1);
            }
            return next;
        };
        let args = trimmed_span(s.src, Span::new(args_at, s.lines[i].end));
        let colon = fence.mark == b':';
        let (options, content) = options(s, i + 1, close);
        let markdown = !NO_MARKDOWN.contains(&name.as_str());
        if colon && markdown {
            self.drop.push(s.span(i, content));
        } else {
            self.drop.push(block);
        }
        for (key, value) in &options {
            if key == "name" {
                self.labels.push(normalize_name(&s.src[value.range()]));
            }
        }
        let target = options.iter().find(|(k, _)| k == "target");
        let mut push = |kind, span: Span| {
            let text = &s.src[span.range()];
            if !text.is_empty() {
                self.links.push(link(s.src, kind, span, text));
            }
        };
        match name.as_str() {
            "image" | "figure" => {
                let kind = if name == "image" {
                    MystKind::Image
                } else {
                    MystKind::Figure
                };
                push(kind, args);
                if let Some((_, value)) = target {
                    push(kind, *value);
                }
            }
            "include" => {
                push(MystKind::Include, args);
                let option = |name| options.iter().find(|(k, _)| k == name);
                let images = option("relative-images").is_some();
                let docs = option("relative-docs").map(|(_, v)| *v);
                if images || docs.is_some() {
                    self.relative_includes.push((args, images, docs));
                }
            }
            "literalinclude" => push(MystKind::LiteralInclude, args),
            "toctree" => {
                let glob = options.iter().any(|(k, _)| k == "glob");
                self.toctree(s, content, close, glob);
            }
            "eval-rst" if content < close => {
                self.rst.push(s.span(content, close));
            }
            _ => {}
        }
        if markdown && content < close && depth < MAX_DEPTH {
            if colon {
                self.lines(s, content, close, depth + 1);
            } else {
                self.bodies.push(s.span(content, close));
            }
        }
        next
    }

    /// The entries of a toctree (lines `from..to`): documents, URIs, or
    /// with `glob` patterns.
    fn toctree(&mut self, s: &Source<'_>, from: usize, to: usize, glob: bool) {
        for j in from..to {
            let span = trimmed_span(s.src, s.lines[j]);
            let entry = &s.src[span.range()];
            // `Title <entry>`: the entry is in the brackets.
            let span = match entry
                .strip_suffix('>')
                .and_then(|e| e.rfind('<').map(|p| (e, p)))
            {
                Some((e, p)) => {
                    Span::new(span.start + p + 1, span.start + e.len())
                }
                None => span,
            };
            let entry = &s.src[span.range()];
            if entry.is_empty() || entry == "self" {
                continue;
            }
            let (kind, link_to) = if entry.contains("://")
                || entry.starts_with("mailto:")
                || entry.ends_with(".md")
                || entry.ends_with(".rst")
            {
                (MystKind::Toctree, entry.to_owned())
            } else if glob && entry.contains(['*', '?', '[']) {
                (MystKind::ToctreeGlob, entry.to_owned())
            } else {
                (MystKind::Toctree, doc_path(entry))
            };
            self.links.push(link(s.src, kind, span, &link_to));
        }
    }
}

/// Each line's span in `b`, without its line break (`\n` or `\r\n`).
fn line_spans(b: &[u8]) -> Vec<Span> {
    // Lines are short: a few dozen bytes on average.
    let mut lines = Vec::with_capacity(b.len() / 24 + 1);
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', b) {
        let end = if nl > start && b[nl - 1] == b'\r' { nl - 1 } else { nl };
        lines.push(Span::new(start, end));
        start = nl + 1;
    }
    if start < b.len() {
        lines.push(Span::new(start, b.len()));
    }
    lines
}

/// The directive's options, from line `from` (a YAML block between `---`
/// lines, or `:key: value` lines) up to `to`: each key and its value's
/// span; and the first line of the content.
fn options(
    s: &Source<'_>,
    from: usize,
    to: usize,
) -> (Vec<(String, Span)>, usize) {
    let mut options = vec![];
    if from < to && s.line(from).trim() == "---" {
        let end = (from + 1..to).find(|&j| s.line(j).trim() == "---");
        let Some(end) = end else { return (options, from) };
        for j in from + 1..end {
            let line = s.line(j);
            if let Some((key, _)) = line.split_once(':') {
                let value_at = s.lines[j].start + key.len() + 1;
                let value =
                    trimmed_span(s.src, Span::new(value_at, s.lines[j].end));
                options.push((key.trim().to_ascii_lowercase(), value));
            }
        }
        return (options, end + 1);
    }
    let mut j = from;
    while j < to {
        let line = s.line(j);
        let text = line.trim_start();
        let Some(rest) = text.strip_prefix(':') else { break };
        let Some(colon) = rest.find(':') else { break };
        let key = &rest[..colon];
        if key.is_empty() || key.contains(char::is_whitespace) {
            break;
        }
        let value_at =
            s.lines[j].start + (line.len() - text.len()) + colon + 2;
        let value = trimmed_span(
            s.src,
            Span::new(value_at.min(s.lines[j].end), s.lines[j].end),
        );
        options.push((key.to_ascii_lowercase(), value));
        j += 1;
    }
    (options, j)
}

/// `span` of `src` without its leading and trailing whitespace.
fn trimmed_span(src: &str, span: Span) -> Span {
    let text = &src[span.range()];
    let start = span.start + (text.len() - text.trim_start().len());
    Span::new(start, start + text.trim().len())
}

/// The fence a line (indentation removed) opens: three or more
/// backticks, tildes or (with `colon_fence`) colons; a backtick fence's
/// info string holds no backtick.
fn fence_open(text: &str, colon_fence: bool) -> Option<Fence> {
    let mark = *text.as_bytes().first()?;
    if !(b"`~".contains(&mark) || (colon_fence && mark == b':')) {
        return None;
    }
    let len = text.bytes().take_while(|&b| b == mark).count();
    if len < 3 || (mark == b'`' && text[len..].contains('`')) {
        return None;
    }
    let info = len + (text[len..].len() - text[len..].trim_start().len());
    Some(Fence { mark, len, info })
}

/// Whether `line` closes `fence`: as many of its marks or more, and
/// nothing else.
fn is_close(line: &str, fence: &Fence) -> bool {
    let b = line.as_bytes();
    let start = b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    // Most lines in a fence are code: their first byte says so.
    if b.get(start) != Some(&fence.mark) {
        return false;
    }
    let text = line[start..].trim_end_matches([' ', '\t']);
    let len = text.bytes().take_while(|&b| b == fence.mark).count();
    len >= fence.len && len == text.len()
}

/// An ATX heading's level and title: `#` to `######`, a space, the
/// title (closing `#`s dropped).
fn atx_heading(text: &str) -> Option<(u8, &str)> {
    let level = text.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &text[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let title = rest.trim();
    let closed = title.trim_end_matches('#');
    let title = if closed.is_empty() || closed.ends_with([' ', '\t']) {
        closed.trim_end()
    } else {
        title
    };
    Some((level as u8, title))
}

/// Whether a line is a setext heading's underline.
fn is_underline(text: &str) -> bool {
    let b = text.as_bytes();
    !b.is_empty()
        && (b.iter().all(|&c| c == b'=') || b.iter().all(|&c| c == b'-'))
}

/// Whether a line starts a block that is no paragraph: a list item, a
/// quote, a table row, HTML.
/// The name of the target `(name)=` that `line` (without its blanks at
/// either end) is, as myst-parser's `target` rule reads it.
fn target(line: &str) -> Option<&str> {
    let name = line.strip_prefix('(')?.strip_suffix(")=")?;
    (!name.is_empty()).then_some(name)
}

/// The target inside the block quote that `text` (a line without its
/// indentation) starts with `>`, when its line is one: `> (name)=`, less
/// than four columns after the mark and its space.
fn quoted_target(text: &str) -> Option<&str> {
    let mut inner = text;
    while let Some(rest) = inner.strip_prefix('>') {
        inner = rest.strip_prefix(' ').unwrap_or(rest);
        if columns(inner) >= 4 {
            return None;
        }
        inner = inner.trim_start_matches([' ', '\t']);
    }
    (inner.len() < text.len())
        .then(|| target(inner.trim_end_matches([' ', '\t'])))
        .flatten()
}

/// The columns of `line`'s indentation, a tab to the next multiple of 4.
fn columns(line: &str) -> usize {
    let mut column = 0;
    for b in line.bytes() {
        match b {
            b' ' => column += 1,
            b'\t' => column += 4 - column % 4,
            _ => break,
        }
    }
    column
}

/// The column a line's text starts at: after its indentation, and after
/// a list item's marker and the blanks that follow it (one when they are
/// five or more, as CommonMark reads them); a quote's at its `>`.
fn content_column(line: &str) -> usize {
    let indent = columns(line);
    let text = line.trim_start_matches([' ', '\t']);
    let b = text.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let marker = match b {
        [b'-' | b'*' | b'+', b' ' | b'\t', ..] => 1,
        _ if digits > 0 && matches!(b.get(digits), Some(b'.' | b')')) => {
            digits + 1
        }
        _ => return indent,
    };
    let blanks = columns(&text[marker..]);
    indent + marker + if blanks >= 5 { 1 } else { blanks.max(1) }
}

fn starts_block(text: &str) -> bool {
    let b = text.as_bytes();
    let bullet = matches!(b, [b'-' | b'*' | b'+', b' ' | b'\t', ..]);
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let ordered = digits > 0 && matches!(b.get(digits), Some(b'.' | b')'));
    bullet || ordered || b.first().is_some_and(|c| b"><|".contains(c))
}

/// A heading's text without its inline markup: emphasis, code marks,
/// and a link's destination.
fn plain(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut rest = title;
    while let Some(k) = rest.find("](") {
        out.push_str(&rest[..k]);
        rest = &rest[k + 2..];
        match rest.find(')') {
            Some(e) => rest = &rest[e + 1..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    out.chars().filter(|c| !matches!(c, '*' | '`' | '[')).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The lines found are those of a plain split.
        #[test]
        fn line_spans_are_the_lines(text in "[a\\n\\r\\x0b\\x01\\x8a\\x0a]{0,70}") {
            let mut expected = vec![];
            let mut start = 0;
            for (k, c) in text.bytes().enumerate() {
                if c == b'\n' {
                    let end = if k > start && text.as_bytes()[k - 1] == b'\r' { k - 1 } else { k };
                    expected.push(Span::new(start, end));
                    start = k + 1;
                }
            }
            if start < text.len() {
                expected.push(Span::new(start, text.len()));
            }
            proptest::prop_assert_eq!(line_spans(text.as_bytes()), expected);
        }
    }
}
