//! The tag layer on html5gum: an emitter that turns html5gum's tokens into
//! what a [`TagSink`] is told, kept as the oracle of our own tokenizer
//! ([`super::tokenizer`]), which the differential tests, the html5lib
//! tests and the `links` fuzz target hold to it.
//!
//! html5gum implements the WHATWG tokenizer and passes html5lib's tests;
//! the emitter follows its position in the input to locate values and
//! text, and the same [`Tree`] as our tokenizer for the state switches.

use std::convert::Infallible;

use html5gum::{Emitter, Error, State, Tokenizer};

use super::tokenizer;
use super::tokenizer::{Attr, StartTag, TagSink, TextState, Tree};
use crate::Span;

/// What the current token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Current {
    None,
    Start,
    End,
    Other,
}

/// The emitter: html5gum calls it for every piece of every token.
struct TagEmitter<'s, S: TagSink> {
    sink: &'s mut S,
    tree: Tree,
    /// The sink does not want the current attribute's value.
    skip_value: bool,
    /// The byte offset of the tokenizer in the input.
    pos: usize,
    tag: StartTag,
    current: Current,
    end_name: Vec<u8>,
    last_start: Vec<u8>,
    /// The current attribute is a duplicate (or on an end tag) and is
    /// dropped.
    dropping: bool,
    /// Where the current run of text starts: the end of the last markup.
    mark: usize,
    /// The offset of the last `<` that may open markup.
    lt: usize,
    /// The start tag ends with `/>`.
    self_closing: bool,
}

impl<'s, S: TagSink> TagEmitter<'s, S> {
    fn new(sink: &'s mut S, switch_states: bool) -> Self {
        let wants_style = sink.wants_style();
        TagEmitter {
            sink,
            tree: Tree::new(switch_states, wants_style),
            skip_value: false,
            pos: 0,
            tag: StartTag::default(),
            current: Current::None,
            end_name: vec![],
            last_start: vec![],
            dropping: false,
            mark: 0,
            lt: 0,
            self_closing: false,
        }
    }

    /// Markup that began at the last `<` has been read: the text before
    /// it is a run, the next run starts after it.
    fn markup_done(&mut self) {
        let span = Span::new(self.mark, self.lt.max(self.mark));
        self.tree.text(self.sink, span);
        self.mark = self.pos;
    }

    fn current_attr(&mut self) -> Option<&mut Attr> {
        if self.current != Current::Start || self.dropping {
            return None;
        }
        self.tag.last_attr()
    }

    /// Drops the attribute just finished if an earlier one has its name.
    fn check_duplicate(&mut self) {
        if self.current == Current::Start && !self.dropping {
            self.tag.drop_duplicate();
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
        // Text runs to the end, unless the input ends inside a tag.
        let end = if matches!(self.current, Current::Start | Current::End) {
            self.lt
        } else {
            self.pos
        };
        let span = Span::new(self.mark, end.max(self.mark));
        self.tree.text(self.sink, span);
    }

    fn emit_error(&mut self, _error: Error) {}

    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    fn emit_string(&mut self, _c: &[u8]) {
        // Text after `</name` in RCDATA, raw text or script data: the end
        // tag was not the element's, and is text.
        if self.current == Current::End {
            self.current = Current::None;
        }
    }

    fn init_start_tag(&mut self) {
        self.tag.clear();
        self.self_closing = false;
        self.current = Current::Start;
        self.dropping = false;
    }

    fn init_end_tag(&mut self) {
        self.end_name.clear();
        self.current = Current::End;
    }

    fn init_comment(&mut self) {
        self.current = Current::Other;
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.check_duplicate();
        self.markup_done();
        let current = std::mem::replace(&mut self.current, Current::None);
        match current {
            Current::Start => {
                self.last_start.clear();
                self.last_start.extend_from_slice(&self.tag.name);
                self.tag.content = self.tree.content();
                self.sink.start_tag(&self.tag);
                let closed = self.self_closing;
                Some(match self.tree.start_tag(&self.tag.name, closed)? {
                    TextState::RcData => State::RcData,
                    TextState::RawText => State::RawText,
                    TextState::ScriptData => State::ScriptData,
                    TextState::PlainText => State::PlainText,
                })
            }
            Current::End => {
                self.tree.end_tag(&self.end_name);
                None
            }
            _ => None,
        }
    }

    fn emit_current_comment(&mut self) {
        self.markup_done();
        self.current = Current::None;
    }

    fn emit_current_doctype(&mut self) {
        self.markup_done();
        self.current = Current::None;
    }

    fn set_self_closing(&mut self) {
        self.self_closing = true;
    }

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
        self.tag.push_attr(self.pos);
    }

    fn init_attribute_value(&mut self) {
        let pos = self.pos;
        self.skip_value = true;
        if self.current != Current::Start || self.dropping {
            return;
        }
        let sink = &*self.sink;
        if let Some(a) = self.tag.last_attr() {
            a.raw = Span::new(pos, pos);
            self.skip_value = !sink.wants_value(&a.name);
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
        let pos = self.pos;
        let skip = self.skip_value;
        if let Some(a) = self.current_attr() {
            if !skip {
                a.value.extend_from_slice(s);
            }
            a.raw.end = pos;
        }
    }

    fn set_doctype_public_identifier(&mut self, _value: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _value: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _s: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _s: &[u8]) {}

    fn start_open_tag(&mut self) {
        self.lt = self.pos.saturating_sub(1);
        self.tag.start = self.lt;
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.current == Current::End
            && !self.last_start.is_empty()
            && self.end_name == self.last_start
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(
        &mut self,
    ) -> bool {
        self.tree.foreign > 0
    }

    #[inline]
    fn move_position(&mut self, offset: isize) {
        self.pos = self.pos.saturating_add_signed(offset);
    }
}

/// Tokenizes `html` with html5gum and tells `sink` what
/// [`super::tokenizer::run`] would.
pub(crate) fn run<S: TagSink>(html: &[u8], sink: &mut S, switch_states: bool) {
    let emitter = TagEmitter::new(sink, switch_states);
    let tok = Tokenizer::new_with_emitter(html, emitter);
    // The emitter yields no tokens; reading a slice cannot fail.
    let Ok(()) = tok.finish();
}

/// A start tag as logged: its name, offset, and attributes (name, value,
/// span of the value as written).
pub(crate) type LoggedTag = (Vec<u8>, usize, Vec<(Vec<u8>, Vec<u8>, Span)>);

/// Everything a sink is told: the start tags (name, offset, attributes
/// with their values and spans), the text runs and the style text.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Log {
    pub tags: Vec<LoggedTag>,
    pub text: Vec<Span>,
    pub style: Vec<Span>,
    /// Wants only the values of `href` and `src` (as extraction wants a
    /// few), and no text, when set.
    picky: bool,
}

impl Log {
    /// What our tokenizer tells of `html`.
    pub(crate) fn ours(html: &[u8], switch_states: bool, picky: bool) -> Log {
        let mut log = Log { picky, ..Log::default() };
        tokenizer::run(html, &mut log, switch_states);
        log
    }

    /// What html5gum tells of `html`, through this emitter.
    pub(crate) fn html5gum(
        html: &[u8],
        switch_states: bool,
        picky: bool,
    ) -> Log {
        let mut log = Log { picky, ..Log::default() };
        run(html, &mut log, switch_states);
        log
    }
}

impl TagSink for Log {
    fn start_tag(&mut self, tag: &StartTag) {
        let attrs = tag
            .attrs()
            .iter()
            .map(|a| (a.name.clone(), a.value.clone(), a.raw))
            .collect();
        self.tags.push((tag.name.clone(), tag.start, attrs));
    }
    fn text(&mut self, span: Span) {
        self.text.push(span);
    }
    fn wants_value(&self, name: &[u8]) -> bool {
        !self.picky || name == b"href" || name == b"src"
    }
    fn wants_text(&self) -> bool {
        !self.picky
    }
    fn style_text(&mut self, span: Span) {
        self.style.push(span);
    }
    fn wants_style(&self) -> bool {
        !self.picky
    }
}

/// Panics unless our tokenizer and html5gum's tell the same of `html`,
/// with the state switches on and off, to a sink that wants everything
/// and to one that wants a few values.
#[doc(hidden)]
pub fn differential(html: &[u8]) {
    for switch in [true, false] {
        for picky in [false, true] {
            let ours = Log::ours(html, switch, picky);
            let gum = Log::html5gum(html, switch, picky);
            assert_eq!(
                ours,
                gum,
                "switch {switch}, picky {picky}: {:?}",
                String::from_utf8_lossy(html)
            );
        }
    }
}
