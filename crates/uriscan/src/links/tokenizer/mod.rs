//! Our own WHATWG tokenizer (HTML standard 13.2.5), for the tag layer: it
//! reads what [`sink`] tells a [`TagSink`] and skips the rest as
//! fast as it can.
//!
//! Links need start tags, their attributes, and where text runs lie; not
//! the characters of text, comments or DOCTYPEs. So each state that holds
//! no tag jumps with memchr to the one byte that can end it: `<` in the
//! Data state (and RCDATA, raw text, script data), `-` in comments and
//! escaped script, `>` in DOCTYPEs and bogus comments, `]]>` in CDATA.
//! Text is never decoded: the sink gets runs as written. A tag is read
//! byte by byte, and an attribute's value is sliced out of the input
//! between its quotes (no character reference or newline can hide a
//! quote, a space or a `>`), then decoded only when the sink wants it and
//! it holds a `&`, a NUL or a carriage return ([`decode`]).
//!
//! The html5lib tokenizer tests hold it to the standard, and the
//! differential tests and the `links` fuzz target to html5gum (through
//! [`super::oracle`]) on arbitrary input: the same start tags, attributes,
//! value spans and text runs.

#[cfg(feature = "remote")]
mod chunked;
mod decode;
mod entities;
#[cfg(test)]
mod tests;

mod sink;

use crate::Span;
#[cfg(feature = "remote")]
pub(crate) use chunked::Chunked;
pub(crate) use decode::decode;
pub(crate) use decode::lookup as named_reference;
#[cfg(any(test, feature = "internals"))]
pub(crate) use sink::Attr;
pub(crate) use sink::{Content, StartTag, TagSink, TextState, Tree, Wanted};

/// Whitespace inside a tag: the standard's four, and the carriage return,
/// which the input stream's preprocessing turns into a line feed.
#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

/// The start of the current text run while markup is being read: no run
/// is open (markup that the input ends inside ends the text before it).
const IN_MARKUP: usize = usize::MAX;

/// Tokenizes `html` and tells `sink` of every start tag (and text run).
pub(crate) fn for_each_tag<S: TagSink>(html: &[u8], sink: &mut S) {
    run(html, sink, true);
}

/// Tokenizes `html` and tells `sink` what [`for_each_tag`] does, with the
/// one knob the html5lib tests need: `switch_states` off, no state
/// switches (they tokenize without a tree builder).
pub(crate) fn run<S: TagSink>(html: &[u8], sink: &mut S, switch_states: bool) {
    let wants_style = sink.wants_style();
    let text = sink.wants_text() || wants_style;
    let mut t = Tokenizer {
        html,
        sink,
        tree: Tree::new(switch_states, wants_style),
        tag: StartTag::default(),
        end_name: vec![],
        text,
        mark: 0,
        text_at: (ScriptState::Data, 0),
    };
    t.run();
}

/// The tokenizer's state between its states: each state is a method that
/// reads from an offset and says what comes next ([`Next`]).
struct Tokenizer<'h, 's, S: TagSink> {
    html: &'h [u8],
    sink: &'s mut S,
    tree: Tree,
    tag: StartTag,
    /// The name of the element whose text is being read (RCDATA, raw
    /// text, script data): its end tag ends it.
    end_name: Vec<u8>,
    /// The sink wants text runs or style text.
    text: bool,
    /// Where the current run of text started (the end of the last markup),
    /// or [`IN_MARKUP`].
    mark: usize,
    /// Where raw text or script data was last between two of its pieces,
    /// and in which state of script data: where a tokenizer fed in pieces
    /// takes it up again.
    text_at: (ScriptState, usize),
}

/// Where `<!--` left script data, and whether `<script` followed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScriptState {
    Data,
    Escaped,
    DoubleEscaped,
}

/// What comes after a piece of markup.
enum Next {
    /// The Data state at this offset.
    Data(usize),
    /// A text state (after its start tag) at this offset.
    Text(TextState, usize),
    /// The end of the input.
    Eof,
}

impl<S: TagSink> Tokenizer<'_, '_, S> {
    fn run(&mut self) {
        let mut next = Next::Data(0);
        loop {
            next = match next {
                Next::Data(at) => self.data(at),
                Next::Text(TextState::RcData | TextState::RawText, at) => {
                    self.raw_text(at)
                }
                Next::Text(TextState::ScriptData, at) => {
                    self.script(at, ScriptState::Data)
                }
                Next::Text(TextState::PlainText, _) => Next::Eof,
                Next::Eof => break,
            };
        }
        if self.mark != IN_MARKUP {
            self.flush(self.html.len());
        }
    }

    /// Markup starts at `lt`: the text before it is a run.
    #[inline]
    fn flush(&mut self, lt: usize) {
        if self.text && self.mark != IN_MARKUP {
            self.tree.text(self.sink, Span::new(self.mark, lt.max(self.mark)));
        }
        self.mark = IN_MARKUP;
    }

    /// Markup ended at `end`.
    #[inline]
    fn done(&mut self, end: usize) -> Next {
        self.mark = end;
        Next::Data(end)
    }

    /// The Data state (13.2.5.1) from `at`: everything up to a `<` is
    /// text, and character references in it change no boundary.
    fn data(&mut self, mut at: usize) -> Next {
        let html = self.html;
        loop {
            let Some(i) = memchr::memchr(b'<', &html[at..]) else {
                return Next::Eof;
            };
            let lt = at + i;
            match html.get(lt + 1) {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.flush(lt);
                    return self.start_tag(lt);
                }
                Some(b'/') => match html.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        self.flush(lt);
                        return self.end_tag(lt + 2);
                    }
                    // `</>` is dropped, and the text goes on.
                    Some(b'>') => at = lt + 3,
                    None => return Next::Eof,
                    Some(_) => {
                        self.flush(lt);
                        return self.bogus_comment(lt + 2);
                    }
                },
                Some(b'!') => return self.markup_declaration(lt),
                Some(b'?') => {
                    self.flush(lt);
                    return self.bogus_comment(lt + 1);
                }
                _ => at = lt + 1,
            }
        }
    }

    /// `<!` at `lt` (13.2.5.42): a comment, a DOCTYPE, a CDATA section in
    /// foreign content, or a bogus comment.
    fn markup_declaration(&mut self, lt: usize) -> Next {
        let html = self.html;
        let at = lt + 2;
        let rest = &html[at..];
        if rest.starts_with(b"--") {
            self.flush(lt);
            return self.comment(at + 2);
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            // Every state of a DOCTYPE ends at its first `>`.
            self.flush(lt);
            return self.bogus_comment(at + 7);
        }
        if rest.starts_with(b"[CDATA[") {
            if self.tree.foreign > 0 {
                // Its text is text of the run, as the rest of the Data
                // state is.
                return match memchr::memmem::find(&rest[7..], b"]]>") {
                    Some(i) => Next::Data(at + 7 + i + 3),
                    None => Next::Eof,
                };
            }
            self.flush(lt);
            return self.bogus_comment(at + 7);
        }
        self.flush(lt);
        self.bogus_comment(at)
    }

    /// A bogus comment (13.2.5.41) from `at`: up to the first `>`.
    fn bogus_comment(&mut self, at: usize) -> Next {
        match memchr::memchr(b'>', &self.html[at..]) {
            Some(i) => self.done(at + i + 1),
            None => Next::Eof,
        }
    }

    /// A comment's text from `at`, after `<!--` (13.2.5.43 to 13.2.5.52):
    /// it ends at `-->` or `--!>`, or at once with `<!-->` and `<!--->`.
    /// The less-than-sign states change nothing but errors: the `<!--`
    /// they look for holds the `--` that the end states look for.
    fn comment(&mut self, at: usize) -> Next {
        #[derive(Clone, Copy)]
        enum C {
            Comment,
            EndDash,
            End,
            EndBang,
        }
        let html = self.html;
        // The comment start and comment start dash states.
        let (mut state, mut i) = match html.get(at) {
            Some(b'>') => return self.done(at + 1),
            Some(b'-') => match html.get(at + 1) {
                Some(b'>') => return self.done(at + 2),
                Some(b'-') => (C::End, at + 2),
                None => return Next::Eof,
                Some(_) => (C::Comment, at + 1),
            },
            None => return Next::Eof,
            Some(_) => (C::Comment, at),
        };
        loop {
            let c = match state {
                C::Comment => {
                    let Some(d) = memchr::memchr(b'-', &html[i..]) else {
                        return Next::Eof;
                    };
                    i += d + 1;
                    state = C::EndDash;
                    continue;
                }
                _ => match html.get(i) {
                    Some(&c) => c,
                    None => return Next::Eof,
                },
            };
            // A character that moves to the comment state is read there
            // again (it is no `-`, so that state passes over it).
            state = match (state, c) {
                (C::EndDash | C::End, b'-') => C::End,
                (C::EndBang, b'-') => C::EndDash,
                (C::End, b'!') => C::EndBang,
                (C::End | C::EndBang, b'>') => return self.done(i + 1),
                _ => {
                    state = C::Comment;
                    continue;
                }
            };
            i += 1;
        }
    }

    /// A start tag whose name starts at `lt + 1` (13.2.5.8).
    fn start_tag(&mut self, lt: usize) -> Next {
        let html = self.html;
        self.tag.clear();
        self.tag.start = lt;
        let Some(at) = tag_name(html, lt + 1, &mut self.tag.name) else {
            return Next::Eof;
        };
        let wanted = self.sink.wanted_attrs(&self.tag.name);
        let Some((end, self_closing)) = self.attributes(at, Some(wanted))
        else {
            return Next::Eof;
        };
        self.mark = end;
        self.tag.content = self.tree.content();
        self.sink.start_tag(&self.tag);
        match self.tree.start_tag(&self.tag.name, self_closing) {
            None => Next::Data(end),
            Some(state) => {
                self.end_name.clear();
                self.end_name.extend_from_slice(&self.tag.name);
                Next::Text(state, end)
            }
        }
    }

    /// An end tag whose name starts at `at` (13.2.5.9): its attributes are
    /// read and dropped. Its name matters only as `svg` or `math` (the
    /// end of foreign content), so it is not copied unless that short.
    fn end_tag(&mut self, at: usize) -> Next {
        let Some(end) = find_class(self.html, at, END_TAG_NAME) else {
            return Next::Eof;
        };
        let mut short = [0; 4];
        let name = &self.html[at..end];
        let name = if name.len() <= short.len() {
            let short = &mut short[..name.len()];
            short.copy_from_slice(name);
            short.make_ascii_lowercase();
            &*short
        } else {
            name
        };
        self.end_tag_rest(end, name)
    }

    /// An end tag named `name`, from `at`, after its name.
    fn end_tag_rest(&mut self, at: usize, name: &[u8]) -> Next {
        match self.attributes(at, None) {
            None => Next::Eof,
            Some((end, _)) => {
                self.tree.end_tag(name);
                self.done(end)
            }
        }
    }

    /// The attributes of a tag, from `at` after its name, up to its `>`
    /// (13.2.5.32 to 13.2.5.40): the offset after the `>` and whether the
    /// tag is self-closing (`/>`, not a value ending in `/`), or `None` at
    /// the end of the input. Those that `keep` wants are kept on the tag.
    fn attributes(
        &mut self,
        mut at: usize,
        keep: Option<Wanted>,
    ) -> Option<(usize, bool)> {
        let html = self.html;
        loop {
            // The before attribute name state.
            let mut c = *html.get(at)?;
            while is_space(c) {
                at += 1;
                c = *html.get(at)?;
            }
            match c {
                b'>' => return Some((at + 1, false)),
                b'/' => {
                    // The self-closing start tag state.
                    if *html.get(at + 1)? == b'>' {
                        return Some((at + 2, true));
                    }
                    at += 1;
                    continue;
                }
                _ => {}
            }
            // The attribute name state; a `=` first is part of the name.
            let start = at;
            at = find_class(html, at + 1, END_ATTR_NAME).unwrap_or(html.len());
            let name_end = at;
            let name = &html[start..name_end];
            let kept = keep.is_some_and(|k| k.wants(name)) && {
                let a = self.tag.push_attr(name_end);
                push_lower(&mut a.name, name);
                !self.tag.drop_duplicate()
            };
            // The after attribute name state.
            let mut c = *html.get(at)?;
            while is_space(c) {
                at += 1;
                c = *html.get(at)?;
            }
            if c != b'=' {
                // `/`, `>` or the next attribute.
                continue;
            }
            // The before attribute value state.
            at += 1;
            let mut c = *html.get(at)?;
            while is_space(c) {
                at += 1;
                c = *html.get(at)?;
            }
            let (raw, next) = match c {
                b'>' => return Some((at + 1, false)),
                b'"' | b'\'' => {
                    let i = memchr::memchr(c, &html[at + 1..])?;
                    (Span::new(at + 1, at + 1 + i), at + 2 + i)
                }
                _ => {
                    // The end of the input ends no tag.
                    let end = find_class(html, at, END_UNQUOTED)?;
                    (Span::new(at, end), end)
                }
            };
            if kept {
                let sink = &*self.sink;
                if let Some(a) = self.tag.last_attr() {
                    a.raw = raw;
                    if sink.wants_value(&a.name) {
                        a.verbatim = decode(&html[raw.range()], &mut a.value);
                    }
                }
            }
            at = next;
        }
    }

    /// RCDATA or raw text (13.2.5.2, 13.2.5.3) from `at`: text up to the
    /// element's end tag.
    fn raw_text(&mut self, mut at: usize) -> Next {
        let html = self.html;
        self.text_at = (ScriptState::Data, at);
        loop {
            // As in `script`: `</`, the name and the byte after it.
            if at + self.end_name.len() + 3 <= html.len() {
                self.text_at = (ScriptState::Data, at);
            }
            let Some(i) = memchr::memchr(b'<', &html[at..]) else {
                return Next::Eof;
            };
            let lt = at + i;
            if html.get(lt + 1) == Some(&b'/')
                && let Some(next) = self.appropriate_end_tag(lt)
            {
                return next;
            }
            at = lt + 1;
        }
    }

    /// `</` at `lt` in a text state: the element's end tag, if its name
    /// follows, then a space, `/` or `>` (13.2.5.11 and the like).
    fn appropriate_end_tag(&mut self, lt: usize) -> Option<Next> {
        let html = self.html;
        let at = lt + 2;
        let n = self.end_name.len();
        let name = html.get(at..at + n)?;
        if !name.eq_ignore_ascii_case(&self.end_name) {
            return None;
        }
        let c = *html.get(at + n)?;
        if !(is_space(c) || c == b'/' || c == b'>') {
            return None;
        }
        self.flush(lt);
        let name = std::mem::take(&mut self.end_name);
        let next = self.end_tag_rest(at + n, &name);
        self.end_name = name;
        Some(next)
    }

    /// Script data (13.2.5.4, 13.2.5.15 to 13.2.5.31) from `at`: up to
    /// the end tag of the `script`, which `<!--` escapes and `<script`
    /// inside the escape hides.
    fn script(&mut self, mut at: usize, mut state: ScriptState) -> Next {
        use ScriptState as S;
        let html = self.html;
        self.text_at = (state, at);
        loop {
            // Past this point, no byte read since the last one decided
            // anything: a piece fed later cannot change what was read.
            if at + SCRIPT_LOOKAHEAD <= html.len() {
                self.text_at = (state, at);
            }
            match state {
                S::Data => {
                    let Some(i) = memchr::memchr(b'<', &html[at..]) else {
                        return Next::Eof;
                    };
                    let lt = at + i;
                    at = lt + 1;
                    match html.get(at) {
                        Some(b'/') => {
                            if let Some(next) = self.appropriate_end_tag(lt) {
                                return next;
                            }
                        }
                        Some(b'!') if html[at + 1..].starts_with(b"--") => {
                            // The escaped dash dash state.
                            at += 3;
                            state = S::Escaped;
                            match self.dashes(&mut at) {
                                Some(b'>') => state = S::Data,
                                Some(_) => {}
                                None => return Next::Eof,
                            }
                        }
                        _ => {}
                    }
                }
                S::Escaped | S::DoubleEscaped => {
                    let Some(i) = memchr::memchr2(b'-', b'<', &html[at..])
                    else {
                        return Next::Eof;
                    };
                    let c = html[at + i];
                    at += i + 1;
                    if c == b'-' {
                        if html.get(at) != Some(&b'-') {
                            continue;
                        }
                        // The dash dash states: `-->` ends the escape.
                        at += 1;
                        match self.dashes(&mut at) {
                            Some(b'>') => state = S::Data,
                            Some(_) => {}
                            None => return Next::Eof,
                        }
                        continue;
                    }
                    let lt = at - 1;
                    match (&state, html.get(at)) {
                        (S::Escaped, Some(b'/')) => {
                            if let Some(next) = self.appropriate_end_tag(lt) {
                                return next;
                            }
                        }
                        (S::Escaped, Some(c)) if c.is_ascii_alphabetic() => {
                            // The double escape start state.
                            state = match script_word(html, &mut at) {
                                true => S::DoubleEscaped,
                                false => S::Escaped,
                            };
                        }
                        (S::DoubleEscaped, Some(b'/')) => {
                            // The double escape end state.
                            at += 1;
                            state = match script_word(html, &mut at) {
                                true => S::Escaped,
                                false => S::DoubleEscaped,
                            };
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// After `--` in escaped script: skips further dashes and says what
    /// follows them (`>` ends the escape; a `<` is left to be read).
    fn dashes(&self, at: &mut usize) -> Option<u8> {
        let html = self.html;
        while html.get(*at) == Some(&b'-') {
            *at += 1;
        }
        let c = *html.get(*at)?;
        if c != b'<' {
            *at += 1;
        }
        Some(c)
    }
}

/// The most bytes script data reads past a position before it knows what
/// they are: `</script` and the byte after it.
const SCRIPT_LOOKAHEAD: usize = b"</script>".len();

/// After `<` (or `</`) in escaped script, the letters at `at`: whether
/// they are `script` followed by a space, `/` or `>` (which is consumed,
/// as the double escape states do), moving `at` past what was read.
fn script_word(html: &[u8], at: &mut usize) -> bool {
    let start = *at;
    while html.get(*at).is_some_and(u8::is_ascii_alphabetic) {
        *at += 1;
    }
    match html.get(*at) {
        Some(&c) if is_space(c) || c == b'/' || c == b'>' => {
            *at += 1;
            html[start..*at - 1].eq_ignore_ascii_case(b"script")
        }
        _ => false,
    }
}

/// The tag name state (13.2.5.8) from `at`: the name lowercased into
/// `name`, and the offset after it, or `None` at the end of the input.
fn tag_name(html: &[u8], at: usize, name: &mut Vec<u8>) -> Option<usize> {
    let end = find_class(html, at, END_TAG_NAME)?;
    push_lower(name, &html[at..end]);
    Some(end)
}

/// `s` lowercased (ASCII), NUL as U+FFFD, appended to `out`.
#[inline]
fn push_lower(out: &mut Vec<u8>, s: &[u8]) {
    // Names are short and seldom hold a NUL: copy and lowercase in one
    // pass (an `extend` of the slice's exact length, with no call to
    // memcpy for a name of a few bytes), and redo the rare name with a
    // NUL byte by byte.
    let start = out.len();
    let mut nul = false;
    out.extend(s.iter().map(|&c| {
        nul |= c == 0;
        c.to_ascii_lowercase()
    }));
    if nul {
        out.truncate(start);
        for &c in s {
            if c == 0 {
                out.extend_from_slice("\u{FFFD}".as_bytes());
            } else {
                out.push(c.to_ascii_lowercase());
            }
        }
    }
}

/// The classes of bytes inside a tag, a bit each.
const SPACE: u8 = 1;
/// Ends a tag name: a space, `/`, `>`.
const END_TAG_NAME: u8 = 2;
/// Ends an attribute name: a space, `/`, `>`, `=`.
const END_ATTR_NAME: u8 = 4;
/// Ends an unquoted value: a space, `>`.
const END_UNQUOTED: u8 = 8;

/// The class of each byte (a table, as the loops over names test every
/// byte of a page's tags).
static CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let space = matches!(c, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r');
        let mut k = 0;
        if space {
            k |= SPACE | END_TAG_NAME | END_ATTR_NAME | END_UNQUOTED;
        }
        if c == b'/' {
            k |= END_TAG_NAME | END_ATTR_NAME;
        }
        if c == b'>' {
            k |= END_TAG_NAME | END_ATTR_NAME | END_UNQUOTED;
        }
        if c == b'=' {
            k |= END_ATTR_NAME;
        }
        t[i] = k;
        i += 1;
    }
    t
};

/// The offset of the first byte from `at` of class `class`.
#[inline]
fn find_class(html: &[u8], at: usize, class: u8) -> Option<usize> {
    html[at..]
        .iter()
        .position(|&c| CLASS[c as usize] & class != 0)
        .map(|i| at + i)
}
