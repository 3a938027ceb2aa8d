//! The inline pass: a paragraph's text searched (memchr) for the bytes
//! that can start a link, `:` (a URL's scheme, a macro's name), `<`
//! (`<<id>>`) and `{` (an attribute that holds a URL), each candidate
//! then read by Asciidoctor's rules (its `InlineLinkRx`,
//! `InlineLinkMacroRx`, `InlineXrefMacroRx`, `InlineImageMacroRx`,
//! `InlineAnchorRx`).

use super::Reader;
use super::attributes::{Expanded, is_name};
use super::blocks::is_id;
use crate::links::Kind;

/// The schemes of bare URLs and URL macros.
const SCHEMES: &[&str] = &["https", "http", "file", "ftp", "irc"];

impl Reader<'_, '_> {
    /// Reads the links of the text at `start..end` (a paragraph, a title;
    /// a table's cells when `in_table`).
    pub(super) fn inline(&mut self, start: usize, end: usize, in_table: bool) {
        let bytes = &self.text.as_bytes()[..end];
        let skips = passthroughs(bytes, start);
        let mut i = start;
        while let Some(k) = memchr::memchr3(b':', b'<', b'{', &bytes[i..]) {
            let at = i + k;
            if let Some(&(_, skip_end)) =
                skips.iter().find(|(s, e)| (*s..*e).contains(&at))
            {
                i = skip_end;
                continue;
            }
            let next = match bytes[at] {
                b':' => self.colon(bytes, start, at, in_table),
                b'<' => self.angle(bytes, at),
                _ => self.brace(bytes, start, at, in_table),
            };
            // A candidate read from before it (a URL's scheme) still
            // moves the search on.
            i = next.max(at + 1);
        }
        if self.want_ids {
            self.inline_anchors(start, end, &skips);
        }
    }

    /// At a `:`: a URL, or the macros `link:`, `mailto:`, `xref:`,
    /// `image:`, `anchor:`, `pass:`. Returns where to look on.
    fn colon(
        &mut self,
        b: &[u8],
        start: usize,
        at: usize,
        in_table: bool,
    ) -> usize {
        let mut w = at;
        while w > start && b[w - 1].is_ascii_alphabetic() {
            w -= 1;
        }
        let name = &b[w..at];
        if b[at + 1..].starts_with(b"//") {
            for scheme in SCHEMES {
                if name.ends_with(scheme.as_bytes()) {
                    let s = at - scheme.len();
                    return self.url(b, start, s, in_table, None);
                }
            }
            return at + 1;
        }
        let escaped = |n: usize| at - n > start && b[at - n - 1] == b'\\';
        if name.ends_with(b"link") && !escaped(4) {
            return self.link_macro(b, at, None);
        }
        if name.ends_with(b"mailto") && !escaped(6) {
            return self.link_macro(b, at, Some("mailto:"));
        }
        if name.ends_with(b"xref") && !escaped(4) {
            return self.xref_macro(b, at);
        }
        if name.ends_with(b"image") && !escaped(5) {
            return self.image_macro(b, at);
        }
        if name.ends_with(b"pass") && b.get(at + 1) != Some(&b' ') {
            // `pass:[...]`, `pass:q[...]`: nothing inside is a link.
            if let Some(open) = memchr::memchr(b'[', &b[at..]).map(|o| at + o)
                && b[at + 1..open].iter().all(u8::is_ascii_alphabetic)
                && let Some(close) = closing_bracket(b, open)
            {
                return close + 1;
            }
        }
        at + 1
    }

    /// A URL whose scheme starts at `s` (or the attribute reference that
    /// holds it, `value` its expansion): a macro `url[text]`, else a bare
    /// URL with Asciidoctor's trailing punctuation rules.
    fn url(
        &mut self,
        b: &[u8],
        start: usize,
        s: usize,
        in_table: bool,
        value: Option<()>,
    ) -> usize {
        let prev = (s > start).then(|| b[s - 1]);
        if prev == Some(b'\\') {
            return s + 1;
        }
        let after_link = s >= start + 5 && &b[s - 5..s] == b"link:";
        let prefix_ok = after_link
            || match prev {
                None | Some(b'\n') => true,
                Some(c) => {
                    matches!(
                        c,
                        b' ' | b'\t'
                            | b'<'
                            | b'>'
                            | b'('
                            | b')'
                            | b'['
                            | b']'
                            | b';'
                            | b'"'
                            | b'\''
                            | b'&'
                    ) || (in_table && c == b'|')
                }
            };
        // The character before is taken by the last URL's match: Asciidoctor's
        // regex, which reads it as a prefix, goes on after that match.
        let line_start = matches!(prev, None | Some(b'\n'));
        let prefix_free =
            line_start || s - usize::from(after_link) * 4 > self.url_end;
        if !prefix_ok || !prefix_free {
            return s + 1;
        }
        let body = match value {
            Some(()) => s,
            None => s + memchr::memchr(b':', &b[s..]).unwrap_or(0) + 3,
        };
        // The macro form: `url[text]`.
        let mut j = body;
        while j < b.len()
            && !matches!(b[j], b' ' | b'\t' | b'\n' | b'\r' | b'[' | b']')
        {
            j += 1;
        }
        // (Its URL's last character is no `.` or `,` either.)
        if j > body
            && b.get(j) == Some(&b'[')
            && !matches!(b[j - 1], b'.' | b',')
            && let Some(close) = closing_bracket(b, j)
        {
            self.url_link(Kind::AdocLink, s, j);
            self.url_end = close + 1;
            return close + 1;
        }
        // The bare form: no `.` or `,` last; then a last `)`, `?` or `!`
        // goes (with a `.`, `?` or `!` before a `)`), and a last `;` or
        // `:` (with a `)` before it).
        let mut e = j;
        while e > body && matches!(b[e - 1], b',' | b'.') {
            e -= 1;
        }
        if e == body {
            return j;
        }
        self.url_end = e;
        if after_link || matches!(prev, Some(b'"' | b'\'')) {
            return j;
        }
        match b[e - 1] {
            c @ (b')' | b'?' | b'!') => {
                e -= 1;
                if c == b')'
                    && e > body
                    && matches!(b[e - 1], b'.' | b'?' | b'!')
                {
                    e -= 1;
                }
            }
            b'>' if prev == Some(b'<') => e -= 1,
            b';' | b':' => {
                e -= 1;
                if e > body && b[e - 1] == b')' {
                    e -= 1;
                }
            }
            _ => {}
        }
        if b[s..e].ends_with(b"://") || e <= body {
            return j;
        }
        self.url_link(Kind::AdocUrl, s, e);
        j
    }

    /// Pushes the URL at `s..e`, its attribute references expanded.
    fn url_link(&mut self, kind: Kind, s: usize, e: usize) {
        let written = &self.text[s..e];
        match self.attrs.expand(written) {
            Expanded::Text(t) => self.push(kind, (s, e), &t, None),
            Expanded::Undefined(t, name) => {
                self.push(kind, (s, e), &t, Some(name))
            }
        }
    }

    /// `link:target[text]` and `mailto:address[text]`, the `:` at `at`.
    fn link_macro(
        &mut self,
        b: &[u8],
        at: usize,
        scheme: Option<&str>,
    ) -> usize {
        let t = at + 1;
        // A URL after `link:` is read as a URL, at its own colon.
        if SCHEMES.iter().any(|s| {
            b[t..].starts_with(s.as_bytes())
                && b[t + s.len()..].starts_with(b"://")
        }) {
            return t;
        }
        if b.get(t) == Some(&b':') {
            return t;
        }
        let mut j = t;
        while j < b.len()
            && !matches!(b[j], b' ' | b'\t' | b'\n' | b'\r' | b'[')
        {
            j += 1;
        }
        if b.get(j) != Some(&b'[') {
            return j.max(t);
        }
        let Some(close) = closing_bracket(b, j) else {
            return j;
        };
        let written = &self.text[t..j];
        let (link, undefined) = split(self.attrs.expand(written));
        let link = match scheme {
            Some(s) => format!("{s}{link}"),
            None => link,
        };
        self.push(Kind::AdocLink, (t, j), &link, undefined);
        close + 1
    }

    /// `xref:target[text]`, the `:` at `at`.
    fn xref_macro(&mut self, b: &[u8], at: usize) -> usize {
        let t = at + 1;
        let first_ok = b.get(t).is_some_and(|&c| {
            c.is_ascii_alphanumeric() || c >= 0x80 || b"_#/.:{".contains(&c)
        });
        if !first_ok {
            return t;
        }
        let Some(open) = memchr::memchr(b'[', &b[t..]).map(|o| t + o) else {
            return t;
        };
        if memchr::memchr(b'\n', &b[t..open]).is_some() {
            return t;
        }
        let Some(close) = closing_bracket(b, open) else {
            return t;
        };
        self.xref((t, open), true);
        close + 1
    }

    /// `image:target[alt]` inline (not `image::`, a block macro), the `:`
    /// at `at`.
    fn image_macro(&mut self, b: &[u8], at: usize) -> usize {
        let t = at + 1;
        if b.get(t)
            .is_none_or(|&c| matches!(c, b':' | b' ' | b'\t' | b'\n' | b'['))
        {
            return t;
        }
        let mut j = t;
        while j < b.len() && !matches!(b[j], b'\n' | b'[') {
            j += 1;
        }
        if b.get(j) != Some(&b'[') || b[j - 1].is_ascii_whitespace() {
            return j;
        }
        let Some(close) = closing_bracket(b, j) else {
            return j;
        };
        let target = &self.text[t..j];
        self.image(target, (t, j));
        self.image_link((j + 1, close));
        close + 1
    }

    /// At a `<`: `<<id>>`, `<<id,text>>`, `<<file.adoc#id,text>>`.
    fn angle(&mut self, b: &[u8], at: usize) -> usize {
        if b.get(at + 1) != Some(&b'<') {
            return at + 1;
        }
        if at > 0 && b[at - 1] == b'\\' {
            return at + 2;
        }
        let t = at + 2;
        let first_ok = b.get(t).is_some_and(|&c| {
            c.is_ascii_alphanumeric() || c >= 0x80 || b"_#/.:{".contains(&c)
        });
        if !first_ok {
            return t;
        }
        let Some(close) = memchr::memmem::find(&b[t..], b">>").map(|o| t + o)
        else {
            return t;
        };
        let refid_end =
            memchr::memchr(b',', &b[t..close]).map_or(close, |c| t + c);
        self.xref((t, refid_end), false);
        close + 2
    }

    /// At a `{`: an attribute reference whose value is a URL starts a
    /// URL (`{url-project}[the project]`).
    fn brace(
        &mut self,
        b: &[u8],
        start: usize,
        at: usize,
        in_table: bool,
    ) -> usize {
        let Some(close) = memchr::memchr(b'}', &b[at..]).map(|c| at + c)
        else {
            return at + 1;
        };
        let name = &self.text[at + 1..close];
        if !is_name(name) || (at > start && b[at - 1] == b'\\') {
            return at + 1;
        }
        let is_url = self.attrs.get(name).is_some_and(|v| {
            SCHEMES.iter().any(|s| {
                v.len() > s.len() + 3
                    && v[..s.len()].eq_ignore_ascii_case(s)
                    && v[s.len()..].starts_with("://")
            })
        });
        if !is_url {
            return close + 1;
        }
        self.url(b, start, at, in_table, Some(()))
    }

    /// The inline anchors of `start..end`: `[[id]]`, `[[id, text]]`,
    /// `[[[id]]]` (a bibliography entry), `[#id]#text#`, `anchor:id[]`.
    fn inline_anchors(
        &mut self,
        start: usize,
        end: usize,
        skips: &[(usize, usize)],
    ) {
        let b = &self.text.as_bytes()[..end];
        let mut i = start;
        while let Some(k) = memchr::memchr2(b'[', b':', &b[i..]) {
            let at = i + k;
            i = at + 1;
            if skips.iter().any(|(s, e)| (*s..*e).contains(&at)) {
                continue;
            }
            // Where the id starts, and the bytes that may end it.
            let (id_from, ends, dot_ok): (usize, &[u8], bool) =
                if b[at] == b':' {
                    if !b[..at].ends_with(b"anchor") {
                        continue;
                    }
                    (at + 1, b"[", true)
                } else if b[at + 1..].starts_with(b"[") {
                    let f = if b[at + 2..].starts_with(b"[") {
                        at + 3
                    } else {
                        at + 2
                    };
                    (f, b",]", true)
                } else if b.get(at + 1) == Some(&b'#') {
                    (at + 2, b"].%", false)
                } else {
                    continue;
                };
            let len = b[id_from..]
                .iter()
                .take_while(|&&c| {
                    c.is_ascii_alphanumeric()
                        || c >= 0x80
                        || matches!(c, b'_' | b'-' | b':')
                        || (dot_ok && c == b'.')
                })
                .count();
            let stop = id_from + len;
            if b.get(stop).is_some_and(|c| ends.contains(c)) {
                let id = &self.text[id_from..stop];
                if is_id(id) {
                    let id = id.to_owned();
                    self.add_id(&id);
                }
            }
        }
    }
}

/// The expansion of a target, and the attribute it left undefined.
pub(super) fn split(e: Expanded) -> (String, Option<Box<str>>) {
    match e {
        Expanded::Text(t) => (t, None),
        Expanded::Undefined(t, n) => (t, Some(n)),
    }
}

/// The `]` that closes the `[` at `open`: the first not escaped by `\`;
/// the empty text `[]` too.
fn closing_bracket(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    loop {
        let c = i + memchr::memchr(b']', &b[i..])?;
        if c == open + 1 || b[c - 1] != b'\\' {
            return Some(c);
        }
        i = c + 1;
    }
}

/// The inline passthroughs of `b[start..]` (`+++x+++`, `++x++`, `+x+`):
/// no link is read inside them.
fn passthroughs(b: &[u8], start: usize) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut i = start;
    while let Some(k) = memchr::memchr(b'+', &b[i..]) {
        let at = i + k;
        let run = b[at..].iter().take_while(|&&c| c == b'+').count().min(3);
        let marks = &b[at..at + run];
        let from = at + run;
        let close = memchr::memmem::find(&b[from..], marks).map(|c| from + c);
        match close {
            Some(c) if c > from && (run > 1 || constrained(b, at, c)) => {
                out.push((at, c + run));
                i = c + run;
            }
            _ => i = from,
        }
    }
    out
}

/// Whether `+x+` (opening at `open`, closing at `close`) is a constrained
/// passthrough: not inside a word, not against a blank.
fn constrained(b: &[u8], open: usize, close: usize) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let before_ok = open == 0 || !word(b[open - 1]);
    let after_ok = b.get(close + 1).is_none_or(|&c| !word(c));
    before_ok
        && after_ok
        && !b[open + 1].is_ascii_whitespace()
        && !b[close - 1].is_ascii_whitespace()
}
