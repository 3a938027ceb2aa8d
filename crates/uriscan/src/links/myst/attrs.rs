//! The `attrs_inline` extension: `{#id}` (or `{id=x}`) right after a
//! code span, a link, an image or a `[span]` gives that element an id,
//! which myst-parser makes an explicit target: an id of the document,
//! and a label of the project unless the element is a link.

use crate::Span;

use super::{Kind, RawLink};

/// The ids the attributes of `src` give, each with whether it is a label
/// too; `code` is the Markdown reader's code (sorted), `links` its links
/// and images.
pub(super) fn ids(
    src: &str,
    code: &[Span],
    links: &[RawLink],
) -> Vec<(String, bool)> {
    let b = src.as_bytes();
    let mut found = vec![];
    for at in memchr::memchr_iter(b'{', b) {
        let Some(&before) = at.checked_sub(1).and_then(|p| b.get(p)) else {
            continue;
        };
        if !matches!(before, b'`' | b')' | b']') || inside(code, at) {
            continue;
        }
        let label = match before {
            // A code span that ends just here.
            b'`' => {
                let k = code.partition_point(|c| c.end < at);
                let span = code.get(k).filter(|c| c.end == at);
                if span.is_none_or(|c| b[c.start] != b'`') {
                    continue;
                }
                true
            }
            // An inline link or image whose `)` this is.
            b')' => match closed_link(src, links, at - 1) {
                Some(kind) => kind == Kind::MdImage,
                None => continue,
            },
            // A span, or a link by reference: a `[` before it on its line.
            _ => {
                let line =
                    memchr::memrchr(b'\n', &b[..at]).map_or(0, |n| n + 1);
                if memchr::memchr(b'[', &b[line..at - 1]).is_none() {
                    continue;
                }
                true
            }
        };
        if let Some(id) = parse(&src[at..]) {
            found.push((id.to_owned(), label));
        }
    }
    found
}

/// Whether `at` is inside code.
fn inside(code: &[Span], at: usize) -> bool {
    let k = code.partition_point(|c| c.start <= at);
    k > 0 && at < code[k - 1].end
}

/// The kind of the Markdown link or image of `links` that the `)` at
/// `paren` closes: its destination, then its title, then blanks.
fn closed_link(src: &str, links: &[RawLink], paren: usize) -> Option<Kind> {
    let b = src.as_bytes();
    links.iter().rev().find_map(|l| {
        if !matches!(l.kind, Kind::MdLink | Kind::MdImage)
            || l.span().end > paren
        {
            return None;
        }
        let mut i = l.span().end;
        if b.get(i) == Some(&b'>') {
            i += 1;
        }
        let blanks = |i: usize| {
            i + b[i..].iter().take_while(|c| c.is_ascii_whitespace()).count()
        };
        i = blanks(i);
        if let Some(&q @ (b'"' | b'\'' | b'(')) =
            b.get(i).filter(|_| i < paren)
        {
            let close = if q == b'(' { b')' } else { q };
            let end = memchr::memchr(close, &b[i + 1..paren])?;
            i = blanks(i + 1 + end + 1);
        }
        (i == paren).then_some(l.kind)
    })
}

/// The id the attributes `text` starts with give (`{#id .class k=v}`,
/// the last `#id` or `id=` of them), as mdit-py-plugins parses them;
/// `None` when they are malformed or give none.
fn parse(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    let mut id = None;
    let mut i = 1;
    let name_end = |from: usize| {
        text[from..]
            .find(|c: char| {
                c.is_whitespace()
                    || (c.is_ascii_punctuation() && !"-_:".contains(c))
            })
            .map_or(text.len(), |e| from + e)
    };
    let key_char = |c: u8| c.is_ascii_alphanumeric() || b"_:-".contains(&c);
    loop {
        match *b.get(i)? {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'}' => return id,
            b'%' => {
                let end = memchr::memchr(b'%', &b[i + 1..]);
                match end {
                    Some(e) => i += e + 2,
                    // No `%` closes the comment: the next `}` does.
                    None => return memchr::memchr(b'}', &b[i..]).and(id),
                }
            }
            m @ (b'#' | b'.') => {
                let end = name_end(i + 1);
                let ends = |c: &u8| *c == b'}' || c.is_ascii_whitespace();
                if !b.get(end).is_some_and(ends) {
                    return None;
                }
                if m == b'#' && end > i + 1 {
                    id = Some(&text[i + 1..end]);
                }
                i = end;
            }
            c if key_char(c) => {
                let key_end =
                    i + b[i..].iter().take_while(|&&c| key_char(c)).count();
                if b.get(key_end) != Some(&b'=') {
                    return None;
                }
                let key = &text[i..key_end];
                let v = key_end + 1;
                let value = if b.get(v) == Some(&b'"') {
                    let mut j = v + 1;
                    while *b.get(j)? != b'"' {
                        if matches!(b[j], b'{' | b'}') {
                            return None;
                        }
                        j += if b[j] == b'\\' { 2 } else { 1 };
                    }
                    i = j + 1;
                    &text[v + 1..j]
                } else {
                    let end = v + b[v..]
                        .iter()
                        .take_while(|&&c| key_char(c))
                        .count();
                    if end == v
                        || !matches!(
                            b.get(end),
                            Some(b'}' | b' ' | b'\t' | b'\n' | b'\r')
                        )
                    {
                        return None;
                    }
                    i = end;
                    &text[v..end]
                };
                if key == "id" {
                    id = Some(value);
                }
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn attributes_give_the_last_id() {
        assert_eq!(parse("{#a}"), Some("a"));
        assert_eq!(parse("{#a .b c=d}"), Some("a"));
        assert_eq!(parse("{#a id=\"b c\"}"), Some("b c"));
        assert_eq!(parse("{.x %note% #y}"), Some("y"));
        assert_eq!(parse("{#é-1_x:y}"), Some("é-1_x:y"));
        assert_eq!(parse("{.only}"), None);
        assert_eq!(parse("{#a"), None);
        assert_eq!(parse("{#a!}"), None);
        assert_eq!(parse("{ref}"), None);
        assert_eq!(parse("{"), None);
    }
}
