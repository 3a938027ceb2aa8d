//! The start tags of an HTML document, with their attributes decoded and
//! located: a [`html5gum`] emitter that keeps only what links need.
//!
//! html5gum implements the WHATWG tokenizer (section 13.2.5 of the HTML
//! standard) and passes html5lib's tokenizer tests; this emitter adds what
//! a link extractor needs on top, and allocates nothing per tag once its
//! buffers have grown:
//!
//! - each attribute's value with character references decoded, and the
//!   byte span of the value as written (inside its quotes), so that a link
//!   can point at the bytes it came from;
//! - the first of two attributes with the same name, as the standard says
//!   (the second is a parse error and dropped);
//! - the byte span of each run of text, for `--include-text`;
//! - the tokenizer switched into the text states after `script`, `style`,
//!   `textarea`, `title` and the rest, as tree construction would, so that
//!   the text of a script holds no tags. This is the one thing a tokenizer
//!   alone cannot know: see [`next_state`].
//!
//! Names are lowercased by the tokenizer (`<A HREF>` is `a` and `href`).

use std::convert::Infallible;

use html5gum::{Emitter, Error, State, Tokenizer};

use crate::Span;

/// One attribute of a start tag.
#[derive(Clone, Debug, Default)]
pub(crate) struct Attr {
    /// The name, lowercased by the tokenizer.
    pub name: Vec<u8>,
    /// The value, character references decoded.
    pub value: Vec<u8>,
    /// The value as written in the input: its bytes, without the quotes.
    /// Empty (at the end of the name) when the attribute has no value.
    pub raw: Span,
}

/// A start tag: its name and attributes, reused from tag to tag.
#[derive(Debug, Default)]
pub(crate) struct StartTag {
    /// The name, lowercased.
    pub name: Vec<u8>,
    /// The offset of its `<`.
    pub start: usize,
    attrs: Vec<Attr>,
    len: usize,
}

impl StartTag {
    /// The attributes, in the order written, duplicates removed.
    pub fn attrs(&self) -> &[Attr] {
        &self.attrs[..self.len]
    }
    /// The attribute named `name`.
    pub fn attr(&self, name: &[u8]) -> Option<&Attr> {
        self.attrs().iter().find(|a| a.name == name)
    }
}

/// What a [`TagSink`] is told about.
pub(crate) trait TagSink {
    /// A start tag has ended (at its `>`).
    fn start_tag(&mut self, tag: &StartTag);
    /// A run of text between tags, as written (character references not
    /// decoded), in the Data state, or in RCDATA (`title`, `textarea`).
    /// Script and style text is not reported.
    fn text(&mut self, _span: Span) {}
    /// Whether the value of an attribute named `name` is wanted; the
    /// values of others are not copied (most attributes of a page, `class`
    /// and `style` first, hold no link).
    fn wants_value(&self, _name: &[u8]) -> bool {
        true
    }
    /// Whether text runs are wanted at all.
    fn wants_text(&self) -> bool {
        false
    }
    /// The text of a `<style>` element (outside SVG and MathML), as
    /// written, when [`TagSink::wants_style`].
    fn style_text(&mut self, _span: Span) {}
    /// Whether the text of `<style>` elements is wanted.
    fn wants_style(&self) -> bool {
        false
    }
}

/// The tokenizer state a start tag puts the tokenizer in, as tree
/// construction would (HTML standard 13.2.6): the text of `script` is
/// script data, of `style`, `xmp`, `iframe`, `noembed` and `noframes` raw
/// text, of `title` and `textarea` RCDATA, and `plaintext` never ends.
///
/// `noscript` is left in the Data state, as in a browser with scripting
/// off (and in a crawler): the `img` inside it is a link that such a
/// reader loads. Inside `svg` and `math` (foreign content) no tag switches
/// state, since their `style` and `script` hold markup, not raw text.
pub(crate) fn next_state(tag: &[u8]) -> Option<State> {
    Some(match tag {
        b"script" => State::ScriptData,
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => {
            State::RawText
        }
        b"title" | b"textarea" => State::RcData,
        b"plaintext" => State::PlainText,
        _ => return None,
    })
}

/// What the current token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Current {
    None,
    Start,
    End,
    Other,
}

/// The emitter: html5gum calls it for every piece of every token.
pub(crate) struct TagEmitter<'s, S: TagSink> {
    sink: &'s mut S,
    /// Whether the tokenizer follows tree construction's state switches
    /// ([`next_state`]). Off only for the html5lib tests, which tokenize
    /// without a tree builder.
    switch_states: bool,
    /// The sink does not want the current attribute's value.
    skip_value: bool,
    /// The byte offset of the tokenizer in the input.
    pos: usize,
    tag: StartTag,
    current: Current,
    end_name: Vec<u8>,
    last_start: Vec<u8>,
    /// The current attribute is a duplicate and is dropped.
    dropping: bool,
    text: Option<Span>,
    text_state: bool,
    /// Depth inside `svg` and `math`, where no tag switches state, and
    /// `<![CDATA[` opens a CDATA section.
    foreign: u32,
    /// Inside a `<style>` element whose text the sink wants.
    in_style: bool,
}

impl<'s, S: TagSink> TagEmitter<'s, S> {
    pub(crate) fn new(sink: &'s mut S, switch_states: bool) -> Self {
        TagEmitter {
            sink,
            switch_states,
            skip_value: false,
            pos: 0,
            tag: StartTag::default(),
            current: Current::None,
            end_name: vec![],
            last_start: vec![],
            dropping: false,
            text: None,
            text_state: true,
            foreign: 0,
            in_style: false,
        }
    }

    fn flush_text(&mut self) {
        if let Some(span) = self.text.take()
            && span.end > span.start
        {
            if self.in_style {
                self.sink.style_text(span);
            } else if self.text_state {
                self.sink.text(span);
            }
        }
    }

    fn current_attr(&mut self) -> Option<&mut Attr> {
        if self.current != Current::Start || self.dropping || self.tag.len == 0
        {
            return None;
        }
        self.tag.attrs.get_mut(self.tag.len - 1)
    }

    /// Drops the attribute just finished if an earlier one has its name.
    fn check_duplicate(&mut self) {
        if self.current != Current::Start || self.dropping || self.tag.len < 2
        {
            return;
        }
        let (earlier, last) =
            self.tag.attrs[..self.tag.len].split_at(self.tag.len - 1);
        if earlier.iter().any(|a| a.name == last[0].name) {
            self.tag.len -= 1;
        }
    }
}

impl<S: TagSink> Emitter for TagEmitter<'_, S> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start.clear();
        self.last_start.extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_text();
    }

    fn emit_error(&mut self, _error: Error) {}

    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    fn emit_string(&mut self, c: &[u8]) {
        if !self.sink.wants_text() && !self.in_style {
            return;
        }
        // The tokenizer has consumed the bytes by now: the run ends here
        // and began at most `c.len()` bytes ago (a decoded reference is
        // shorter than its `&...;`, so the start is kept from the first
        // piece).
        let end = self.pos;
        let start = end.saturating_sub(c.len());
        match &mut self.text {
            Some(span) => span.end = end.max(span.end),
            None => self.text = Some(Span::new(start, end)),
        }
    }

    fn init_start_tag(&mut self) {
        self.tag.name.clear();
        self.tag.len = 0;
        self.current = Current::Start;
        self.dropping = false;
    }

    fn init_end_tag(&mut self) {
        // The text of a `<style>` ends at its end tag.
        if self.in_style {
            self.flush_text();
        }
        self.end_name.clear();
        self.current = Current::End;
    }

    fn init_comment(&mut self) {
        self.flush_text();
        self.current = Current::Other;
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.check_duplicate();
        let current = std::mem::replace(&mut self.current, Current::None);
        match current {
            Current::Start => {
                self.last_start.clear();
                self.last_start.extend_from_slice(&self.tag.name);
                self.sink.start_tag(&self.tag);
                let name = self.tag.name.as_slice();
                if name == b"svg" || name == b"math" {
                    self.foreign += 1;
                }
                if !self.switch_states || self.foreign > 0 {
                    return None;
                }
                let state = next_state(name);
                self.in_style = name == b"style" && self.sink.wants_style();
                // Script and style text holds no links; RCDATA (title,
                // textarea) is text a reader sees.
                self.text_state =
                    !matches!(state, Some(State::ScriptData | State::RawText));
                state
            }
            Current::End => {
                let name = self.end_name.as_slice();
                if (name == b"svg" || name == b"math") && self.foreign > 0 {
                    self.foreign -= 1;
                }
                self.text_state = true;
                self.in_style = false;
                None
            }
            _ => None,
        }
    }

    fn emit_current_comment(&mut self) {
        self.current = Current::None;
    }

    fn emit_current_doctype(&mut self) {
        self.current = Current::None;
    }

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_tag_name(&mut self, s: &[u8]) {
        match self.current {
            Current::Start => self.tag.name.extend_from_slice(s),
            Current::End => self.end_name.extend_from_slice(s),
            _ => {}
        }
    }

    fn push_comment(&mut self, _s: &[u8]) {}

    fn push_doctype_name(&mut self, _s: &[u8]) {}

    fn init_doctype(&mut self) {
        self.current = Current::Other;
    }

    fn init_attribute(&mut self) {
        self.check_duplicate();
        self.dropping = false;
        if self.current != Current::Start {
            // Attributes of an end tag are a parse error and dropped.
            self.dropping = true;
            return;
        }
        if self.tag.len == self.tag.attrs.len() {
            self.tag.attrs.push(Attr::default());
        }
        let pos = self.pos;
        let a = &mut self.tag.attrs[self.tag.len];
        a.name.clear();
        a.value.clear();
        a.raw = Span::new(pos, pos);
        self.tag.len += 1;
    }

    fn init_attribute_value(&mut self) {
        let pos = self.pos;
        let wanted = self.tag.len > 0
            && self.sink.wants_value(&self.tag.attrs[self.tag.len - 1].name);
        self.skip_value = !wanted;
        if let Some(a) = self.current_attr() {
            a.raw = Span::new(pos, pos);
        }
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        let pos = self.pos;
        if let Some(a) = self.current_attr() {
            a.name.extend_from_slice(s);
            a.raw = Span::new(pos, pos);
        }
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        // The tokenizer has consumed the piece (or the character
        // reference it decodes) by now, so the value as written ends here;
        // it began where `init_attribute_value` was called, past any quote.
        if self.skip_value {
            return;
        }
        let pos = self.pos;
        if let Some(a) = self.current_attr() {
            a.value.extend_from_slice(s);
            a.raw.end = pos;
        }
    }

    fn set_doctype_public_identifier(&mut self, _value: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _value: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _s: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _s: &[u8]) {}

    fn start_open_tag(&mut self) {
        self.flush_text();
        self.tag.start = self.pos.saturating_sub(1);
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.current == Current::End
            && !self.last_start.is_empty()
            && self.end_name == self.last_start
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(
        &mut self,
    ) -> bool {
        self.foreign > 0
    }

    #[inline]
    fn move_position(&mut self, offset: isize) {
        self.pos = self.pos.saturating_add_signed(offset);
    }
}

/// Tokenizes `html` and tells `sink` of every start tag (and text run).
pub(crate) fn for_each_tag<S: TagSink>(html: &[u8], sink: &mut S) {
    run(html, sink, true, None);
}

/// Like [`for_each_tag`], with the knobs the html5lib tests need: no
/// state switches (they tokenize without a tree builder), and a start
/// state.
pub(crate) fn run<S: TagSink>(
    html: &[u8],
    sink: &mut S,
    switch_states: bool,
    state: Option<(State, Option<&[u8]>)>,
) {
    let mut emitter = TagEmitter::new(sink, switch_states);
    if let Some((_, Some(last))) = state {
        emitter.set_last_start_tag(Some(last));
    }
    let mut tok = Tokenizer::new_with_emitter(html, emitter);
    if let Some((s, _)) = state {
        tok.set_state(s);
    }
    // The emitter yields no tokens; reading a slice cannot fail.
    let Ok(()) = tok.finish();
}
