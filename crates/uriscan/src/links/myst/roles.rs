//! Roles: a `{name}` written just before a code span, whose content is
//! the role's, as Sphinx's roles read it.

use crate::Span;
use crate::links::rst::{Role, RstKind, role_kind, role_link};

use super::blocks::Scan;
use super::{MystKind, RawLink, doc_path, link};

/// Pushes the link of every role of `src`: the code spans of `code`
/// (those the scan keeps) that follow `{name}`.
pub(super) fn read(
    src: &str,
    code: &[Span],
    scan: &Scan,
    out: &mut Vec<RawLink>,
) {
    let b = src.as_bytes();
    for span in code {
        // Most code spans follow no `{name}`: the byte before says so,
        // before the search of the scan's dropped places.
        if b.get(span.start) != Some(&b'`')
            || span.start == 0
            || b[span.start - 1] != b'}'
            || scan.drops(span.start)
        {
            continue;
        }
        let Some(name) = name_before(b, span.start) else { continue };
        let Role::Link(kind) = role_kind(&name.to_ascii_lowercase()) else {
            continue;
        };
        let ticks = b[span.start..span.end].iter().take_while(|&&c| c == b'`');
        let ticks = ticks.count();
        if span.len() < 2 * ticks {
            continue;
        }
        let content = Span::new(span.start + ticks, span.end - ticks);
        let (at, kind, to) = role_link(kind, &src[content.range()]);
        let (kind, to) = match kind {
            RstKind::Doc => {
                let name = to.strip_suffix(".rst").unwrap_or(&to);
                (MystKind::Doc, doc_path(name))
            }
            RstKind::Ref => (MystKind::Ref, to),
            RstKind::Numref => (MystKind::Numref, to),
            RstKind::Download => (MystKind::Download, to),
            RstKind::Term => (MystKind::Term, to),
            _ => (MystKind::External, to),
        };
        out.push(link(src, kind, at.offset(content.start), &to));
    }
}

/// The role name of a `{name}` that ends just before `at` (not escaped
/// by a backslash).
fn name_before(b: &[u8], at: usize) -> Option<&str> {
    let close = at.checked_sub(1).filter(|&c| b[c] == b'}')?;
    let mut open = close;
    while open > 0
        && (b[open - 1].is_ascii_alphanumeric()
            || b"_-+:".contains(&b[open - 1]))
    {
        open -= 1;
    }
    if open == 0 || open == close || b[open - 1] != b'{' {
        return None;
    }
    let brace = open - 1;
    let escapes = b[..brace].iter().rev().take_while(|&&c| c == b'\\').count();
    if escapes % 2 == 1 {
        return None;
    }
    std::str::from_utf8(&b[open..close]).ok()
}
