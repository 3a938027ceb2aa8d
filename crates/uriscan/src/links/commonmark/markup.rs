//! What opens with `<` inline: autolinks (CommonMark 6.5) and raw HTML
//! (6.6). Processing instructions, declarations and CDATA are not read
//! yet: where one may stand, the document is declined.

use std::borrow::Cow;

use super::{Declined, declined};

/// An autolink at `at`: its end and its link (`mailto:` and the address
/// for an e-mail address).
pub(super) fn autolink(
    bytes: &[u8],
    at: usize,
    end: usize,
) -> Option<(usize, Cow<'_, str>)> {
    let s = &bytes[at + 1..end];
    // A URI: a scheme of 2 to 32 characters, `:`, no space, `<` or `>`.
    let scheme = s
        .iter()
        .enumerate()
        .take_while(|&(k, &b)| {
            if k == 0 {
                b.is_ascii_alphabetic()
            } else {
                b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')
            }
        })
        .count();
    if (2..=32).contains(&scheme) && s.get(scheme) == Some(&b':') {
        let rest = &s[scheme + 1..];
        let close =
            rest.iter().position(|&b| b <= b' ' || b == b'<' || b == b'>')?;
        if rest[close] != b'>' {
            return None;
        }
        let inner = &s[..scheme + 1 + close];
        let link = std::str::from_utf8(inner).ok()?;
        return Some((at + 1 + scheme + 1 + close + 1, Cow::Borrowed(link)));
    }
    // An e-mail address.
    let local = s
        .iter()
        .take_while(|&&b| {
            b.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b)
        })
        .count();
    if local == 0 || s.get(local) != Some(&b'@') {
        return None;
    }
    let mut k = local + 1;
    loop {
        let label = s[k..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-')
            .count();
        if label == 0 || label > 63 || s[k] == b'-' || s[k + label - 1] == b'-'
        {
            return None;
        }
        k += label;
        match s.get(k) {
            Some(b'.') => k += 1,
            Some(b'>') => break,
            _ => return None,
        }
    }
    let address = std::str::from_utf8(&s[..k]).ok()?;
    Some((at + 1 + k + 1, Cow::Owned(format!("mailto:{address}"))))
}

/// Inline HTML at `at`: its end.
pub(super) fn inline_html(
    bytes: &[u8],
    at: usize,
    end: usize,
) -> Result<Option<usize>, Declined> {
    let s = &bytes[..end];
    let Some(&next) = s.get(at + 1) else { return Ok(None) };
    match next {
        b'!' => {
            if s[at..].starts_with(b"<!--") {
                return Ok(comment(s, at + 4));
            }
            if s.get(at + 2)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'[')
            {
                return Err(declined());
            }
            Ok(None)
        }
        b'?' => Err(declined()),
        b'/' => Ok(closing_tag(s, at)),
        _ => Ok(open_tag(s, at + 1)),
    }
}

/// A comment's end, its `<!--` before `from`.
fn comment(s: &[u8], from: usize) -> Option<usize> {
    let rest = &s[from..];
    if rest.starts_with(b">") {
        return Some(from + 1);
    }
    if rest.starts_with(b"->") {
        return Some(from + 2);
    }
    memchr::memmem::find(rest, b"-->").map(|k| from + k + 3)
}

/// The length of a tag name at `at`.
fn tag_name(s: &[u8], at: usize) -> usize {
    if !s.get(at).is_some_and(u8::is_ascii_alphabetic) {
        return 0;
    }
    1 + s[at + 1..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-')
        .count()
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n') {
        i += 1;
    }
    i
}

/// An open tag's end, its name at `at`.
fn open_tag(s: &[u8], at: usize) -> Option<usize> {
    let name = tag_name(s, at);
    if name == 0 {
        return None;
    }
    let mut i = at + name;
    loop {
        let spaced = skip_space(s, i);
        match s.get(spaced)? {
            b'>' => return Some(spaced + 1),
            b'/' => {
                return (s.get(spaced + 1) == Some(&b'>'))
                    .then_some(spaced + 2);
            }
            &b if spaced > i
                && (b.is_ascii_alphabetic() || b == b'_' || b == b':') =>
            {
                i = spaced + 1;
                while s.get(i).is_some_and(|&b| {
                    b.is_ascii_alphanumeric()
                        || matches!(b, b'_' | b'.' | b':' | b'-')
                }) {
                    i += 1;
                }
                let eq = skip_space(s, i);
                if s.get(eq) == Some(&b'=') {
                    let v = skip_space(s, eq + 1);
                    i = attr_value(s, v)?;
                }
            }
            _ => return None,
        }
    }
}

/// An attribute value's end, the value at `at`.
fn attr_value(s: &[u8], at: usize) -> Option<usize> {
    match *s.get(at)? {
        q @ (b'"' | b'\'') => {
            memchr::memchr(q, &s[at + 1..]).map(|k| at + 1 + k + 1)
        }
        _ => {
            let n = s[at..]
                .iter()
                .take_while(|&&b| {
                    !(b.is_ascii_whitespace() || b"\"'=<>`".contains(&b))
                })
                .count();
            (n > 0).then_some(at + n)
        }
    }
}

/// The start of an HTML block (CommonMark 4.6) at `at`, `..end` its
/// line, as pulldown-cmark reads it: `Some(Some(text))` for the kinds 1
/// to 5 that `text` ends, `Some(None)` for the kinds 6 and 7 that a blank
/// line ends. Kind 7 cannot interrupt a paragraph.
pub(super) fn html_start(
    bytes: &[u8],
    at: usize,
    end: usize,
    in_paragraph: bool,
) -> Option<Option<&'static [u8]>> {
    if bytes.get(at) != Some(&b'<') || at >= end {
        return None;
    }
    let rest = &bytes[at + 1..end];
    for (name, end_tag) in [
        (&b"pre"[..], &b"</pre>"[..]),
        (b"style", b"</style>"),
        (b"script", b"</script>"),
        (b"textarea", b"</textarea>"),
    ] {
        if rest.len() >= name.len()
            && rest[..name.len()].eq_ignore_ascii_case(name)
            && rest
                .get(name.len())
                .is_none_or(|&b| b.is_ascii_whitespace() || b == b'>')
        {
            return Some(Some(end_tag));
        }
    }
    for (open, end_tag) in
        [(&b"!--"[..], &b"-->"[..]), (b"?", b"?>"), (b"![CDATA[", b"]]>")]
    {
        if rest.starts_with(open) {
            return Some(Some(end_tag));
        }
    }
    if rest.len() > 1 && rest[0] == b'!' && rest[1].is_ascii_alphabetic() {
        return Some(Some(b">"));
    }
    let slash = usize::from(rest.first() == Some(&b'/'));
    let name =
        rest[slash..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    let tail = &rest[slash + name..];
    if is_block_tag(&rest[slash..slash + name])
        && (tail.is_empty()
            || matches!(tail[0], b' ' | b'\t' | b'>')
            || tail.starts_with(b"/>"))
    {
        return Some(None);
    }
    if in_paragraph {
        return None;
    }
    let close = if slash == 1 {
        closing_tag(&bytes[..end], at)?
    } else {
        open_tag(&bytes[..end], at + 1)?
    };
    bytes[close..end].iter().all(u8::is_ascii_whitespace).then_some(None)
}

/// A closing tag's end, its `</` at `at`.
fn closing_tag(s: &[u8], at: usize) -> Option<usize> {
    let name = tag_name(s, at + 2);
    if name == 0 {
        return None;
    }
    // pulldown-cmark lets no line end into a closing tag, though the
    // spec would.
    let mut i = at + 2 + name;
    while s.get(i).is_some_and(|b| matches!(b, b' ' | b'\t' | 0x0b | 0x0c)) {
        i += 1;
    }
    (s.get(i) == Some(&b'>')).then_some(i + 1)
}

/// The tag names of HTML blocks of kind 6.
fn is_block_tag(name: &[u8]) -> bool {
    const TAGS: [&str; 62] = [
        "address",
        "article",
        "aside",
        "base",
        "basefont",
        "blockquote",
        "body",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "iframe",
        "legend",
        "li",
        "link",
        "main",
        "menu",
        "menuitem",
        "nav",
        "noframes",
        "ol",
        "optgroup",
        "option",
        "p",
        "param",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
    ];
    !name.is_empty()
        && TAGS.iter().any(|t| t.as_bytes().eq_ignore_ascii_case(name))
}
