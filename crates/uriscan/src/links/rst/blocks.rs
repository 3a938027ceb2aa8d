//! The block pass: line by line, which lines are sections, explicit
//! markup, literal blocks (no links) and text (read by the inline pass).

use crate::Span;

use super::Reader;
use super::lines::{adornment, indent};

impl Reader<'_, '_> {
    /// The text of line `i`.
    pub(super) fn line(&self, i: usize) -> &[u8] {
        &self.src.as_bytes()[self.lines.span(i).range()]
    }

    /// The line's indentation and the offset of its first other byte in
    /// the document; `None` when blank.
    pub(super) fn indent_of(&self, i: usize) -> Option<(usize, usize)> {
        indent(self.line(i))
            .map(|(col, off)| (col, self.lines.span(i).start + off))
    }

    /// The end of the block indented past `ind` that starts at line
    /// `from`: the first non-blank line at `ind` or less (before `to`).
    pub(super) fn body_end(
        &self,
        from: usize,
        ind: usize,
        to: usize,
    ) -> usize {
        let mut end = from;
        for j in from..to {
            match self.indent_of(j) {
                None => {}
                Some((col, _)) if col > ind => end = j + 1,
                Some(_) => return end.max(from),
            }
        }
        end
    }

    /// Reads lines `from..to` as body elements.
    pub(super) fn blocks(&mut self, from: usize, to: usize) {
        let to = to.min(self.lines.len());
        let mut i = from;
        while i < to {
            let Some((ind, start)) = self.indent_of(i) else {
                i += 1;
                continue;
            };
            let end = self.lines.span(i).end;
            let rest = &self.src.as_bytes()[start..end];
            if rest.starts_with(b"..")
                && rest.get(2).is_none_or(|b| b.is_ascii_whitespace())
            {
                i = self.explicit(i, ind, start + 2, to);
                continue;
            }
            if rest.starts_with(b"__")
                && rest.get(2).is_none_or(|b| b.is_ascii_whitespace())
            {
                let body = self.body_end(i + 1, ind, to);
                self.anonymous_target(start + 2, i, body);
                i = body;
                continue;
            }
            if let Some(next) = self.title(i, ind, to) {
                i = next;
                continue;
            }
            if rest.starts_with(b">>>") {
                // A doctest block: code up to the next blank line.
                while i < to && self.indent_of(i).is_some() {
                    i += 1;
                }
                continue;
            }
            i = self.paragraph(i, ind, rest, to);
        }
    }

    /// A section title at line `i` (underlined, or over- and underlined):
    /// read, with the line after it returned.
    fn title(&mut self, i: usize, ind: usize, to: usize) -> Option<usize> {
        let text_line = |j: usize| {
            (j < to && adornment(self.line(j)).is_none())
                .then(|| self.indent_of(j))
                .flatten()
        };
        let (title_line, next) = match adornment(self.line(i)) {
            Some((c, n)) => {
                // Overline, title, underline of the same character.
                let (_, _) = text_line(i + 1)?;
                let under = (i + 2 < to).then(|| adornment(self.line(i + 2)));
                match under.flatten() {
                    Some((u, m)) if u == c && m == n && ind == 0 => {
                        (i + 1, i + 3)
                    }
                    _ => return None,
                }
            }
            None => {
                if ind != 0 || i + 1 >= to {
                    return None;
                }
                let (_, n) = adornment(self.line(i + 1))?;
                let width =
                    String::from_utf8_lossy(self.line(i).trim_ascii_end())
                        .chars()
                        .count();
                if n < 4 && n < width {
                    return None;
                }
                (i, i + 2)
            }
        };
        let (_, start) = self.indent_of(title_line)?;
        let end = start + self.line(title_line).trim_ascii().len();
        let span = Span::new(start, end.max(start));
        let title = plain_text(&self.src[span.range()]);
        self.targets.section(&title);
        self.inline(span);
        Some(next)
    }

    /// A paragraph from line `i`, up to a blank line; a literal block
    /// after it when it ends with `::`. Returns the line after both.
    fn paragraph(
        &mut self,
        i: usize,
        ind: usize,
        first: &[u8],
        to: usize,
    ) -> usize {
        let start =
            self.lines.span(i).start + self.line(i).len() - first.len();
        let mut j = i;
        while j < to && self.indent_of(j).is_some() {
            j += 1;
        }
        let end = self.lines.span(j - 1).end;
        self.inline(Span::new(start, end));
        let last = self.line(j - 1).trim_ascii_end();
        if !last.ends_with(b"::") || last.ends_with(b"\\::") {
            return j;
        }
        // The literal block: indented past the paragraph's own margin,
        // or quoted (each line starts with the same punctuation).
        let margin = ind + marker_width(first);
        let mut k = j;
        while k < to && self.indent_of(k).is_none() {
            k += 1;
        }
        match self.indent_of(k) {
            Some((col, _)) if col > margin => self.body_end(k, margin, to),
            Some((col, at)) if col == margin && k < to => {
                let quote = self.src.as_bytes()[at];
                if !quote.is_ascii_punctuation() {
                    return j;
                }
                while k < to
                    && self.indent_of(k).is_some_and(|(c, a)| {
                        c == margin && self.src.as_bytes()[a] == quote
                    })
                {
                    k += 1;
                }
                k
            }
            _ => j,
        }
    }
}

/// The width of a list item's marker (`- `, `1. `, `(a) `) at the
/// start of `line`, which the item's body is indented by; 0 for none.
fn marker_width(line: &[u8]) -> usize {
    let spaces =
        |at: usize| line[at..].iter().take_while(|&&b| b == b' ').count();
    match line {
        [b'-' | b'*' | b'+', b' ', ..] => 1 + spaces(1),
        _ => {
            let open = usize::from(line.first() == Some(&b'('));
            let body = line[open..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
                .count();
            let at = open + body;
            match line.get(at) {
                Some(b'.' | b')')
                    if body > 0 && line.get(at + 1) == Some(&b' ') =>
                {
                    at + 1 + spaces(at + 1)
                }
                _ => 0,
            }
        }
    }
}

/// The text of a title with its inline markup taken out, as docutils
/// names the section: roles, backquotes, emphasis stars, reference
/// underscores, embedded URIs and escapes dropped.
pub(super) fn plain_text(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut chars = title.chars().peekable();
    let mut in_backquotes = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '`' => {
                in_backquotes = !in_backquotes;
                if !in_backquotes {
                    // An embedded URI ` <...>` at the end is not text.
                    if out.ends_with('>')
                        && let Some(p) = out.rfind('<')
                    {
                        out.truncate(p);
                        let t = out.trim_end().len();
                        out.truncate(t);
                    }
                    while chars.peek() == Some(&'_') {
                        chars.next();
                    }
                }
            }
            ':' if !in_backquotes && is_role_start(chars.clone()) => {
                for n in chars.by_ref() {
                    if n == ':' {
                        break;
                    }
                }
            }
            '*' if !in_backquotes => {}
            _ => out.push(c),
        }
    }
    out
}

/// Whether what follows a `:` is a role name and `:` then a backquote.
fn is_role_start(rest: impl Iterator<Item = char>) -> bool {
    let mut name = 0;
    let mut rest = rest.peekable();
    while let Some(c) = rest.next() {
        if c == ':' {
            return name > 0 && rest.peek() == Some(&'`');
        }
        if !(c.is_alphanumeric() || "-_.+".contains(c)) {
            return false;
        }
        name += 1;
    }
    false
}
