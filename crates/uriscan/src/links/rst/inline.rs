//! The inline pass: in a run of text, the constructs that hold links
//! (hyperlink references, roles, reference names), found from the two
//! bytes that can start or end one (`` ` `` and `_`), with memchr. The
//! text between them goes to the finder of standalone URIs.

use crate::Span;

use super::directives::{doc_path, unescape};
use super::{Reader, RstKind};

/// Roles whose content is no link and no text to read for links.
const NO_LINKS: &[&str] = &[
    "code",
    "literal",
    "math",
    "eq",
    "file",
    "samp",
    "kbd",
    "command",
    "program",
    "option",
    "envvar",
    "abbr",
    "regexp",
    "makevar",
    "mailheader",
    "mimetype",
    "newsgroup",
    "guilabel",
    "menuselection",
    "dfn",
    "keyword",
    "token",
    "pep",
    "rfc",
    "manpage",
    "index",
    "sub",
    "sup",
    "subscript",
    "superscript",
    "emphasis",
    "strong",
    "title-reference",
    "title",
    "t",
    "confval",
    "dudir",
    "event",
    "setting",
    "durole",
    "raw",
    "pep-reference",
    "rfc-reference",
    "code-py",
    "ab",
    "ac",
];

/// Roles of Sphinx's default domain (Python) and the `any` role: not
/// resolvable offline.
const DOMAIN: &[&str] = &[
    "any",
    "obj",
    "class",
    "func",
    "meth",
    "mod",
    "attr",
    "exc",
    "data",
    "const",
    "type",
    "member",
    "macro",
    "enum",
    "envvar-ref",
];

/// The offset of the first byte that can start or end an inline link
/// construct: the fast path of the inline pass.
pub(super) fn next_mark(hay: &[u8]) -> Option<usize> {
    memchr::memchr2(b'`', b'_', hay)
}

impl Reader<'_, '_> {
    /// Reads the inline constructs of `span`.
    pub(super) fn inline(&mut self, span: Span) {
        let src = self.src;
        let b = src.as_bytes();
        let (lo, hi) = (span.start, span.end.min(b.len()));
        let mut pos = lo;
        let mut text_from = lo;
        while pos < hi {
            let Some(k) = (self.next_mark)(&b[pos..hi]) else {
                break;
            };
            let at = pos + k;
            if escaped(b, lo, at) {
                pos = at + 1;
                continue;
            }
            let found = if b[at] == b'`' {
                self.backquoted(Span::new(lo, hi), at)
            } else {
                self.underscore(Span::new(lo, hi), at)
            };
            match found {
                Some(found) => {
                    self.flush_text(text_from, found.start);
                    pos = found.end;
                    text_from = found.end;
                }
                None => pos = at + 1,
            }
        }
        self.flush_text(text_from, hi);
    }

    fn flush_text(&mut self, from: usize, to: usize) {
        if from < to {
            self.text.push(Span::new(from, to));
        }
    }

    /// The construct that the backquote at `at` opens, read: its extent.
    fn backquoted(&mut self, window: Span, at: usize) -> Option<Span> {
        let b = self.src.as_bytes();
        let (lo, hi) = (window.start, window.end);
        if b.get(at + 1) == Some(&b'`') {
            // An inline literal: no links, up to its closing ``.
            if !start_ok(b, lo, at)
                || b.get(at + 2).is_none_or(u8::is_ascii_whitespace)
            {
                return None;
            }
            let mut k = at + 2;
            while let Some(c) = memchr::memmem::find(&b[k..hi], b"``") {
                let close = k + c;
                if !b[close - 1].is_ascii_whitespace()
                    && end_ok(b, close + 2, hi)
                {
                    return Some(Span::new(at, close + 2));
                }
                k = close + 1;
            }
            return None;
        }
        // A role before the backquote: `:name:`.
        let role = role_before(b, lo, at);
        // An inline internal target `` _`name` ``.
        let target = role.is_none()
            && at > lo
            && b[at - 1] == b'_'
            && start_ok(b, lo, at - 1);
        let start = match role {
            Some(r) => r.start - 1,
            None if target => at - 1,
            None => at,
        };
        if !start_ok(b, lo, start)
            || b.get(at + 1).is_none_or(u8::is_ascii_whitespace)
        {
            return None;
        }
        let mut k = at + 1;
        while k < hi {
            let close = k + memchr::memchr(b'`', &b[k..hi])?;
            k = close + 1;
            if b[close - 1].is_ascii_whitespace() || escaped(b, lo, close) {
                continue;
            }
            let content = Span::new(at + 1, close);
            if target {
                if !end_ok(b, close + 1, hi) {
                    continue;
                }
                let name = unescape(&self.src[content.range()]);
                self.targets.internal(&name);
                return Some(Span::new(at - 1, close + 1));
            }
            let underscores = b[close + 1..hi]
                .iter()
                .take(2)
                .take_while(|&&c| c == b'_')
                .count();
            let suffix_role = if role.is_none() && underscores == 0 {
                role_after(b, close + 1, hi)
            } else {
                None
            };
            let end = close
                + 1
                + underscores
                + suffix_role.map_or(0, |r| r.len() + 2);
            if !end_ok(b, end, hi) {
                continue;
            }
            match (role.or(suffix_role), underscores) {
                (Some(r), _) => {
                    let name = self.src[r.range()].to_ascii_lowercase();
                    self.role(&name, content);
                }
                (None, 0) => {} // Default role: a title, no link.
                (None, n) => self.hyperlink(content, n == 2),
            }
            return Some(Span::new(start, end));
        }
        None
    }

    /// A simple reference `name_` or `name__` whose underscore is at
    /// `at`: its extent.
    fn underscore(&mut self, window: Span, at: usize) -> Option<Span> {
        let b = self.src.as_bytes();
        let (lo, hi) = (window.start, window.end);
        let anonymous = b.get(at + 1) == Some(&b'_');
        let end = at + 1 + usize::from(anonymous);
        if !end_ok(b, end, hi) {
            return None;
        }
        // The name: word characters, with single `-._+:` inside.
        let word = |c: u8| c.is_ascii_alphanumeric() || c >= 0x80;
        let mut s = at;
        while s > lo {
            let c = b[s - 1];
            let inner_mark = b"-._+:".contains(&c)
                && s - 1 > lo
                && s < at
                && word(b[s - 2]);
            if !(word(c) || inner_mark) {
                break;
            }
            s -= 1;
        }
        // Non-ASCII bytes taken above may be the tail of a punctuation
        // character: the name starts at a character boundary.
        while s < at && !self.src.is_char_boundary(s) {
            s += 1;
        }
        if s == at || !start_ok(b, lo, s) {
            return None;
        }
        let name = &self.src[s..at];
        let span = Span::new(s, end);
        self.targets.reference(span, (!anonymous).then_some(name));
        Some(Span::new(s, end))
    }

    /// `` `text <uri>`_ ``, `` `text <name_>`_ `` or `` `a name`_ ``
    /// (`__`: anonymous), its content at `content`.
    fn hyperlink(&mut self, content: Span, anonymous: bool) {
        let text = &self.src[content.range()];
        match embedded(text) {
            Some((at, inner)) => {
                let span = Span::new(
                    content.start + at,
                    content.start + at + inner.len(),
                );
                let uri: String =
                    unescape(&inner.split_whitespace().collect::<String>());
                let label = text[..at.saturating_sub(1)].trim_end();
                // An alias `<a name_>`: its name keeps its spaces.
                if let Some(to) = super::directives::reference_name(inner) {
                    if !anonymous && !label.is_empty() {
                        self.targets.alias(&unescape(label), &to);
                    }
                    self.targets.reference(span, Some(&to));
                    return;
                }
                if !anonymous {
                    let name = if label.is_empty() { &uri } else { label };
                    self.targets.external(&unescape(name), &uri);
                }
                let kind = if anonymous {
                    RstKind::AnonymousLink
                } else {
                    RstKind::Link
                };
                self.push(kind, span, &uri);
            }
            None if anonymous => self.targets.reference(content, None),
            None => {
                let name = unescape(text);
                self.targets.reference(content, Some(&name));
            }
        }
    }

    /// The role `name` (lowercase) with its content at `content`.
    fn role(&mut self, name: &str, content: Span) {
        let kind = match role_kind(name) {
            Role::Link(kind) => kind,
            Role::NoLinks => return,
            Role::Unknown => {
                // An unknown role: its content is still text.
                self.text.push(content);
                return;
            }
        };
        let text = &self.src[content.range()];
        let (at, kind, link) = role_link(kind, text);
        self.push(kind, at.offset(content.start), &link);
    }
}

/// What a role is, by its name (lowercase).
pub(crate) enum Role {
    /// A role whose content is a link of this kind.
    Link(RstKind),
    /// A role whose content is no link and no text to read for links.
    NoLinks,
    /// A role Sphinx does not define: its content is text.
    Unknown,
}

/// What the role `name` (lowercase) is: Sphinx's roles that link, with
/// their `std:` names; roles with a domain and intersphinx's are
/// external.
pub(crate) fn role_kind(name: &str) -> Role {
    let bare = name.strip_prefix("std:").unwrap_or(name);
    Role::Link(match bare {
        "doc" => RstKind::Doc,
        "ref" => RstKind::Ref,
        "numref" => RstKind::Numref,
        "download" => RstKind::Download,
        "term" => RstKind::Term,
        _ if NO_LINKS.contains(&bare) => return Role::NoLinks,
        // `:external:` and `:external+project:` are intersphinx's.
        _ if DOMAIN.contains(&bare)
            || bare.contains(':')
            || bare == "external"
            || bare.starts_with("external+") =>
        {
            RstKind::External
        }
        _ => return Role::Unknown,
    })
}

/// The link of a role of `kind` whose content is `text`: where its
/// target is in `text`, its kind (external for an intersphinx
/// `project:label`) and the link (`:doc:` as the source file's path).
pub(crate) fn role_link(kind: RstKind, text: &str) -> (Span, RstKind, String) {
    let (mut at, mut target) = match embedded(text) {
        Some((at, inner)) => (at, inner),
        None => (0, text),
    };
    if let Some(t) = target.strip_prefix(['~', '!']) {
        at += 1;
        target = t;
    }
    let target_trim = target.trim();
    at += target.len() - target.trim_start().len();
    let span = Span::new(at, at + target_trim.len());
    let joined: String =
        target_trim.split_whitespace().collect::<Vec<_>>().join(" ");
    // `project:label`: intersphinx, another project's.
    let intersphinx = matches!(
        kind,
        RstKind::Doc | RstKind::Ref | RstKind::Term | RstKind::Numref
    ) && !joined.contains("://")
        && joined.split_once(':').is_some_and(|(p, _)| {
            !p.is_empty()
                && p.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(&c))
        });
    match kind {
        _ if intersphinx => (span, RstKind::External, joined),
        RstKind::Doc => (span, kind, doc_path(&joined)),
        RstKind::Download => (span, kind, joined.replace(' ', "")),
        _ => (span, kind, joined),
    }
}

/// The embedded URI or alias of a reference's text: the `<...>` at its
/// end (at its start, or after whitespace), its offset and text.
fn embedded(text: &str) -> Option<(usize, &str)> {
    let inner = text.strip_suffix('>')?;
    let open = inner.rfind('<')?;
    let ok = open == 0 || inner[..open].ends_with(char::is_whitespace);
    ok.then(|| (open + 1, &inner[open + 1..]))
}

/// Whether the byte at `at` is escaped by an odd run of backslashes.
fn escaped(b: &[u8], lo: usize, at: usize) -> bool {
    let run = b[lo..at].iter().rev().take_while(|&&c| c == b'\\').count();
    run % 2 == 1
}

/// Whether inline markup may start at `at`: at the start of the text, or
/// after whitespace or an opening punctuation (docutils' start-string
/// rule; any non-ASCII character is taken as punctuation).
fn start_ok(b: &[u8], lo: usize, at: usize) -> bool {
    at == lo
        || b[at - 1].is_ascii_whitespace()
        || b"'\"([{<-/:".contains(&b[at - 1])
        || b[at - 1] >= 0x80
}

/// Whether inline markup may end before `at`: at the end of the text, or
/// before whitespace or a closing punctuation.
fn end_ok(b: &[u8], at: usize, hi: usize) -> bool {
    at >= hi
        || b[at].is_ascii_whitespace()
        || b"'\")]}>-/:.,;!?\\".contains(&b[at])
        || b[at] >= 0x80
}

/// The name of a role `:name:` that ends just before `at`.
fn role_before(b: &[u8], lo: usize, at: usize) -> Option<Span> {
    if at < lo + 3 || b[at - 1] != b':' {
        return None;
    }
    let end = at - 1;
    let mut s = end;
    while s > lo
        && (b[s - 1].is_ascii_alphanumeric() || b"-_.+:".contains(&b[s - 1]))
    {
        s -= 1;
    }
    // The name's first colon opens the role.
    while s < end && b[s] == b':' {
        s += 1;
    }
    if s == end || s == lo || b[s - 1] != b':' {
        return None;
    }
    // `a:b:`text`` is no role: the opening colon must start the markup.
    Some(Span::new(s, end))
}

/// The name of a role `:name:` that starts at `at` (after interpreted
/// text).
fn role_after(b: &[u8], at: usize, hi: usize) -> Option<Span> {
    if b.get(at) != Some(&b':') {
        return None;
    }
    let s = at + 1;
    let mut e = s;
    while e < hi && (b[e].is_ascii_alphanumeric() || b"-_.+".contains(&b[e])) {
        e += 1;
    }
    (e > s && b.get(e) == Some(&b':')).then(|| Span::new(s, e))
}
