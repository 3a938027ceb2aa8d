//! The `linkify` extension: the links linkify-it finds in text with no
//! scheme, a host ending in a known top-level domain (`www.x.org`,
//! `x.com/a`, made `http://`) and an e-mail address (made `mailto:`).
//! Those with a scheme the URI finder finds already.
//!
//! linkify-it's patterns, written out: the host is labels of "pseudo
//! letters" (any character but blanks, punctuation, controls and
//! `<>|`), the last one a top-level domain of its list; the path keeps
//! brackets and quotes that close and drops trailing punctuation.

use crate::Span;

use super::{Kind, RawLink};

/// linkify-it's own top-level domains, besides every two-letter one of
/// [`TWO_LETTER`] and `xn--` names.
const TLDS: &[&str] = &[
    "biz", "com", "edu", "gov", "net", "org", "pro", "web", "xxx", "aero",
    "asia", "coop", "info", "museum", "name", "shop", "рф",
];

/// The two-letter top-level domains linkify-it knows: for each first
/// letter, the second letters.
const TWO_LETTER: [&str; 26] = [
    "cdefgilmnoqrstuwxz",
    "abdefghijmnorstvwyz",
    "acdfghiklmnoruvwxyz",
    "ejkmoz",
    "cegrstu",
    "ijkmor",
    "abdefghilmnpqrstuwy",
    "kmnrtu",
    "delmnoqrst",
    "emop",
    "eghimnprwyz",
    "abcikrstuvy",
    "acdeghklmnopqrstuvwxyz",
    "acefgilopruz",
    "m",
    "aefghklmnrstwy",
    "a",
    "eosuw",
    "abcdeghijklmnortuvxyz",
    "cdfghjklmnortvwz",
    "agksyz",
    "aceginu",
    "fs",
    "",
    "et",
    "amw",
];

/// Pushes to `out` the links linkify-it finds in the runs `text` of
/// `src` (each run read alone, as markdown-it reads each text token),
/// with `fuzzy_links` the hosts with no scheme too; none that overlaps a
/// link `out` holds from `from` on, or that `skip` says is no text.
pub(super) fn read(
    src: &str,
    text: &[Span],
    fuzzy_links: bool,
    (out, from): (&mut Vec<RawLink>, usize),
    skip: &dyn Fn(usize) -> bool,
) {
    let mut taken: Vec<Span> = out[from..]
        .iter()
        .filter(|l| l.kind == Kind::Text)
        .map(|l| l.span())
        .collect();
    taken.sort_unstable();
    for run in text {
        let hay = &src[run.range()];
        // Every link of linkify's holds a `.` or an `@`.
        if memchr::memchr2(b'.', b'@', hay.as_bytes()).is_none() {
            continue;
        }
        for (span, scheme) in find(hay, fuzzy_links) {
            let span = span.offset(run.start);
            let overlaps =
                taken.iter().any(|t| t.start < span.end && span.start < t.end);
            if overlaps || skip(span.start) {
                continue;
            }
            let raw = &src[span.range()];
            let link = format!("{scheme}{raw}");
            out.push(RawLink::new(
                Kind::Text,
                span,
                raw.as_bytes(),
                &link,
                None,
            ));
        }
    }
}

/// The links with no scheme in `hay`: each span and the scheme it is
/// given, in order, none overlapping.
fn find(hay: &str, fuzzy_links: bool) -> Vec<(Span, &'static str)> {
    let mut found = vec![];
    let mut emails = vec![];
    for at in memchr::memchr_iter(b'@', hay.as_bytes()) {
        if let Some(span) = email_at(hay, at) {
            emails.push(span);
        }
    }
    let mut links = vec![];
    if fuzzy_links && memchr::memchr(b'.', hay.as_bytes()).is_some() {
        let mut at = 0;
        while at < hay.len() {
            let starts = match hay[..at].chars().next_back() {
                None => true,
                Some(c) => {
                    !".:/-_@".contains(c)
                        && (separates(c) || "$+<=>^`|\u{ff5c}".contains(c))
                }
            };
            let c = hay[at..].chars().next().unwrap_or(' ');
            let link = (starts && !"$+<=>^`|\u{ff5c}".contains(c))
                .then(|| link_at(hay, at))
                .flatten();
            if let Some(end) = link {
                links.push(Span::new(at, end));
                // The next match's leading character is after this one.
                at = end + hay[end..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            at += c.len_utf8();
        }
    }
    // The earliest first, the later ones that overlap dropped, as
    // linkify-it merges its kinds of match.
    let mut all: Vec<(Span, &'static str)> = emails
        .into_iter()
        .map(|s| (s, "mailto:"))
        .chain(links.into_iter().map(|s| (s, "http://")))
        .collect();
    all.sort_by_key(|(s, _)| (s.start, std::cmp::Reverse(s.end)));
    let mut last = 0;
    for (span, scheme) in all {
        if span.start >= last {
            last = span.end;
            found.push((span, scheme));
        }
    }
    found
}

/// Whether `c` is a blank, a punctuation mark or a control: what ends a
/// host (linkify-it's `src_ZPCc`; outside ASCII, the common blanks and
/// punctuation blocks).
fn separates(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control()
            || c == ' '
            || "!\"#%&'()*,-./:;?@[\\]_{}".contains(c);
    }
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{a1}'
                | '\u{a7}'
                | '\u{ab}'
                | '\u{b6}'
                | '\u{b7}'
                | '\u{bb}'
                | '\u{bf}'
        )
        || ('\u{2010}'..='\u{2027}').contains(&c)
        || ('\u{2030}'..='\u{205e}').contains(&c)
        || ('\u{3001}'..='\u{303f}').contains(&c)
        || ('\u{ff01}'..='\u{ff0f}').contains(&c)
}

/// Whether `c` is a blank or a control (`src_ZCc`).
fn blank(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// Whether `c` may be in a host's label: a "pseudo letter".
fn pseudo_letter(c: char) -> bool {
    !separates(c) && !"<>|\u{ff5c}".contains(c)
}

/// The end of the host that starts at `at` of `hay` (labels, the last a
/// known top-level domain), with no port and no path, when it ends as a
/// host must.
fn host_end(hay: &str, at: usize) -> Option<usize> {
    let mut end = at;
    let mut last_label;
    let mut labels = 0;
    loop {
        let label = label_len(&hay[end..])?;
        last_label = end;
        end += label;
        labels += 1;
        let rest = &hay[end..];
        if rest.starts_with('.') && label_len(&rest[1..]).is_some() {
            end += 1;
            continue;
        }
        break;
    }
    (labels >= 2 && is_tld(&hay[last_label..end])).then_some(end)
}

/// The length of the domain label `text` starts with: pseudo letters,
/// `-` between them, at most 63 characters.
fn label_len(text: &str) -> Option<usize> {
    let mut len = 0;
    let mut last_letter = 0;
    for (count, c) in text.chars().enumerate() {
        if count == 63 {
            break;
        }
        if pseudo_letter(c) {
            len += c.len_utf8();
            last_letter = len;
        } else if c == '-' && len > 0 {
            len += 1;
        } else {
            break;
        }
    }
    (last_letter > 0).then_some(last_letter)
}

/// Whether `label` is a top-level domain linkify-it knows.
fn is_tld(label: &str) -> bool {
    let lower = label.to_lowercase();
    let b = lower.as_bytes();
    if let [first @ b'a'..=b'z', second] = b {
        return TWO_LETTER[usize::from(first - b'a')]
            .as_bytes()
            .contains(second);
    }
    if let Some(rest) = lower.strip_prefix("xn--") {
        return (1..=59).contains(&rest.len())
            && rest.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
    }
    TLDS.contains(&lower.as_str())
}

/// Whether a host may end at `end` of `hay` (linkify-it's
/// `src_host_terminator`): at the end, or before a separator that is
/// not `-`, `_`, `:` and a digit, or a `.` that goes on.
fn terminates(hay: &str, end: usize) -> bool {
    let rest = &hay[end..];
    let mut chars = rest.chars();
    let Some(c) = chars.next() else { return true };
    let next = chars.next();
    if !(separates(c) || "<>|\u{ff5c}".contains(c)) || c == '-' || c == '_' {
        return false;
    }
    match c {
        ':' => !next.is_some_and(|n| n.is_ascii_digit()),
        '.' => next.is_none_or(separates) && next != Some('-'),
        _ => true,
    }
}

/// The end of the link with no scheme that starts at `at`: a host, a
/// port, a path.
fn link_at(hay: &str, at: usize) -> Option<usize> {
    let mut end = host_end(hay, at)?;
    let rest = &hay[end..];
    if let Some(digits) = rest.strip_prefix(':') {
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        let port = digits[..n].parse::<u32>().ok();
        if n > 0 && n <= 5 && port.is_some_and(|p| p <= 65535) {
            end += 1 + n;
        }
    }
    if !terminates(hay, end) {
        return None;
    }
    Some(end + path_len(&hay[end..]))
}

/// The length of the path `rest` starts with (`/`, `?` or `#` and what
/// follows, as linkify-it's `src_path` keeps it), 0 for none.
fn path_len(rest: &str) -> usize {
    let b = rest.as_bytes();
    if !matches!(b.first(), Some(b'/' | b'?' | b'#')) {
        return 0;
    }
    let mut i = 1;
    // The text after `i`, and its next character.
    let at = |i: usize| rest[i..].chars().next();
    // Whether a bracket or quote opened at `i` closes before a blank.
    let closes = |i: usize, close: char, min: usize| -> Option<usize> {
        let inner = &rest[i + 1..];
        let end = inner.find(|c: char| c == close || blank(c))?;
        (inner[end..].starts_with(close) && end >= min)
            .then_some(i + 1 + end + 1)
    };
    while let Some(c) = at(i) {
        let next = rest[i + c.len_utf8()..].chars().next();
        let step = match c {
            c if blank(c) || "<>|\u{ff5c}".contains(c) => None,
            '[' => closes(i, ']', 0).map(|e| e - i),
            '(' => closes(i, ')', 0).map(|e| e - i),
            '{' => closes(i, '}', 0).map(|e| e - i),
            '"' => closes(i, '"', 1).map(|e| e - i),
            '\'' => closes(i, '\'', 1).map(|e| e - i).or_else(|| {
                next.filter(|&n| pseudo_letter(n) || n == '-').map(|_| 1)
            }),
            '.' => {
                let dots =
                    rest[i..].bytes().take_while(|&d| d == b'.').count();
                let after = rest.as_bytes().get(i + dots).copied();
                if dots >= 2 {
                    after
                        .filter(|a| {
                            a.is_ascii_alphanumeric() || b"%/&".contains(a)
                        })
                        .map(|_| dots)
                } else {
                    next.filter(|&n| !blank(n)).map(|_| 1)
                }
            }
            '-' => Some(rest[i..].bytes().take_while(|&d| d == b'-').count()),
            ',' | ';' => next.filter(|&n| !blank(n)).map(|_| 1),
            '!' => {
                let bangs =
                    rest[i..].bytes().take_while(|&d| d == b'!').count();
                let after = rest[i + bangs..].chars().next();
                after.filter(|&a| !blank(a)).map(|_| bangs)
            }
            '?' => next.filter(|&n| !blank(n) && n != '?').map(|_| 1),
            ')' | ']' | '}' => None,
            c => Some(c.len_utf8()),
        };
        match step {
            Some(n) => i += n,
            None => break,
        }
    }
    match (i, b[0]) {
        (1, b'/') => 1,
        (1, _) => 0,
        _ => i,
    }
}

/// The e-mail address whose `@` is at `at` of `hay`: a name of
/// linkify-it's characters after a blank, `(`, `"`, `<`, `>` or `|` (or
/// the start), and a host.
fn email_at(hay: &str, at: usize) -> Option<Span> {
    let b = hay.as_bytes();
    let name_char =
        |c: u8| c.is_ascii_alphanumeric() || b"-;:&=+$,.\"_".contains(&c);
    let mut start = at;
    while start > 0 && name_char(b[start - 1]) {
        start -= 1;
    }
    // A `"` leads the name, never starts it.
    while start < at && b[start] == b'"' {
        start += 1;
    }
    if start == at || at - start > 64 {
        return None;
    }
    let before_ok = match hay[..start].chars().next_back() {
        None => true,
        Some(c) => blank(c) || "<>|\u{ff5c}\"(".contains(c),
    };
    let end = host_end(hay, at + 1)?;
    (before_ok && terminates(hay, end)).then(|| Span::new(start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What linkify-it (linkify-it-py 2.2) finds in each text, as its url.
    #[test]
    fn matches_linkify_it() {
        let cases: &[(&str, &[&str])] = &[
            ("www.example.org", &["http://www.example.org"]),
            ("www.example.dev", &[]),
            ("example.com.", &["http://example.com"]),
            ("foo.io/path?x=1.", &["http://foo.io/path?x=1"]),
            ("see (www.a.org/b)", &["http://www.a.org/b"]),
            ("a.b.c.museum", &["http://a.b.c.museum"]),
            ("x@y.com", &["mailto:x@y.com"]),
            ("user.name@example.org", &["mailto:user.name@example.org"]),
            ("sub.example.co.uk", &["http://sub.example.co.uk"]),
            ("example.com:8080/p", &["http://example.com:8080/p"]),
            ("abc.def", &[]),
            ("1.2.3.4", &[]),
            ("e.g. foo.", &[]),
            ("README.md", &["http://README.md"]),
            ("index.rst", &[]),
            ("a_b.com", &[]),
            ("www.x.org,", &["http://www.x.org"]),
            ("_www.x.org", &[]),
            ("-www.a.org", &[]),
            ("localhost:8000", &[]),
            ("www.a.org/\"q\"", &["http://www.a.org/\"q\""]),
            ("www.a.org`x", &[]),
            ("www.a.org/(b)c)", &["http://www.a.org/(b)c"]),
            ("x.org and y.net!", &["http://x.org", "http://y.net"]),
        ];
        for (text, expected) in cases {
            let got: Vec<String> = find(text, true)
                .into_iter()
                .map(|(s, scheme)| format!("{scheme}{}", &text[s.range()]))
                .collect();
            assert_eq!(&got, expected, "{text:?}");
        }
        assert!(find("www.example.org", false).is_empty());
        assert_eq!(find("me@x.org", false).len(), 1);
    }
}
