//! The start tags of an HTML document, with their attributes decoded and
//! located, and its text: what links need of the WHATWG tokenizer
//! (section 13.2.5 of the HTML standard), which [`super`] implements: the
//! sink it tells, and what it is told.
//!
//! A [`TagSink`] is told of
//!
//! - each start tag, its name and attributes lowercased (`<A HREF>` is `a`
//!   and `href`), each attribute's value with character references
//!   decoded, and the byte span of the value as written (inside its
//!   quotes), so that a link can point at the bytes it came from;
//! - the first of two attributes with the same name, as the standard says
//!   (the second is a parse error and dropped);
//! - the byte span of each run of text, for `--include-text`, and of the
//!   text of `<style>`;
//!
//! with the tokenizer switched into the text states after `script`,
//! `style`, `textarea`, `title` and the rest, as tree construction would,
//! so that the text of a script holds no tags. This is the one thing a
//! tokenizer alone cannot know: see [`next_state`] and [`Tree`].

use std::collections::HashSet;

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
    /// Whether `value` is the bytes at `raw` as they stand: nothing in
    /// them was decoded. What nearly every link's value is.
    pub verbatim: bool,
}

/// A start tag: its name and attributes, reused from tag to tag.
#[derive(Debug, Default)]
pub(crate) struct StartTag {
    /// The name, lowercased.
    pub name: Vec<u8>,
    /// The offset of its `<`.
    pub start: usize,
    /// Where the tag stands, as [`Tree`] knows it: in HTML, or inside
    /// `svg` or `math`.
    pub content: Content,
    /// The attributes: the first `len` are this tag's, the rest buffers
    /// kept for the next tags.
    attrs: Vec<Attr>,
    len: usize,
    /// The names of the attributes, once a tag has so many that looking
    /// for a duplicate among them one by one would be slow (a page of
    /// one tag with a million attributes must stay linear).
    names: HashSet<Vec<u8>>,
}

/// Above this many attributes a tag keeps their names in a set.
const LINEAR_ATTRS: usize = 32;

impl StartTag {
    /// Empties the tag for the next one.
    pub(in crate::links) fn clear(&mut self) {
        self.name.clear();
        self.len = 0;
        self.names.clear();
    }

    /// A new attribute, empty, with its value's span at `pos`.
    pub(in crate::links) fn push_attr(&mut self, pos: usize) -> &mut Attr {
        if self.len == self.attrs.len() {
            self.attrs.push(Attr::default());
        }
        let a = &mut self.attrs[self.len];
        a.name.clear();
        a.value.clear();
        a.raw = Span::new(pos, pos);
        // Until a value is decoded (a value not read is not its bytes).
        a.verbatim = false;
        self.len += 1;
        a
    }

    /// The attribute being read (the last pushed).
    pub(in crate::links) fn last_attr(&mut self) -> Option<&mut Attr> {
        self.attrs[..self.len].last_mut()
    }

    /// Drops the last attribute if an earlier one has its name (its name
    /// is complete); says whether it did.
    #[inline]
    pub(in crate::links) fn drop_duplicate(&mut self) -> bool {
        let Some((last, earlier)) = self.attrs[..self.len].split_last() else {
            return false;
        };
        let dup = if self.len <= LINEAR_ATTRS {
            earlier.iter().any(|a| a.name == last.name)
        } else {
            if self.names.is_empty() {
                self.names.extend(earlier.iter().map(|a| a.name.clone()));
            }
            !self.names.insert(last.name.clone())
        };
        if dup {
            self.len -= 1;
        }
        dup
    }

    /// The attributes, in the order written, duplicates removed.
    pub fn attrs(&self) -> &[Attr] {
        &self.attrs[..self.len]
    }
    /// The attribute named `name`.
    pub fn attr(&self, name: &[u8]) -> Option<&Attr> {
        self.attrs().iter().find(|a| a.name == name)
    }
}

/// Which attributes of a start tag a [`TagSink`] wants at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wanted {
    /// Every attribute.
    All,
    /// Only those with one of these names (lowercase, compared ASCII
    /// case-insensitively with the name as written, before any copy): the
    /// others are read past, their names not copied, as an end tag's are.
    Only(&'static [&'static [u8]]),
}

impl Wanted {
    /// Whether an attribute named `name` (as written) is wanted.
    #[inline]
    pub(crate) fn wants(self, name: &[u8]) -> bool {
        match self {
            Wanted::All => true,
            Wanted::Only(names) => {
                names.iter().any(|n| n.eq_ignore_ascii_case(name))
            }
        }
    }
}

/// What a [`TagSink`] is told about.
pub(crate) trait TagSink {
    /// A start tag has ended (at its `>`).
    fn start_tag(&mut self, tag: &StartTag);
    /// Which attributes of a start tag named `name` (lowercased) the sink
    /// is told of; [`StartTag::attrs`] holds only those (the first of each
    /// name among them, as ever).
    fn wanted_attrs(&self, _name: &[u8]) -> Wanted {
        Wanted::All
    }
    /// A run of text, as written (character references not decoded): the
    /// bytes between two pieces of markup (tags, comments, DOCTYPEs), in
    /// the Data state or in RCDATA (`title`, `textarea`). A `<` that opens
    /// no markup, a `</>` and a CDATA section are part of the run. Script
    /// and style text is not reported.
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

/// The text state a start tag puts the tokenizer in, as tree construction
/// would (HTML standard 13.2.6): see [`next_state`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TextState {
    /// `title`, `textarea`: text with character references, up to the
    /// end tag.
    RcData,
    /// `style`, `xmp`, `iframe`, `noembed`, `noframes`: text as written,
    /// up to the end tag.
    RawText,
    /// `script`: raw text with the escaped states of `<!--`.
    ScriptData,
    /// `plaintext`: the rest of the document.
    PlainText,
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
pub(crate) fn next_state(tag: &[u8]) -> Option<TextState> {
    Some(match tag {
        b"script" => TextState::ScriptData,
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => {
            TextState::RawText
        }
        b"title" | b"textarea" => TextState::RcData,
        b"plaintext" => TextState::PlainText,
        _ => return None,
    })
}

/// Where a start tag stands: what decides whether an element of a name is
/// HTML's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Content {
    /// HTML content.
    #[default]
    Html,
    /// Inside `svg` (and not in a `math` inside it).
    Svg,
    /// Inside `math`: its `a` is MathML's, no HTML link. (The tree's
    /// integration points, `mtext` and the rest, and the tags that break
    /// out of foreign content, are not followed: the approximation of
    /// [`Tree`].)
    Math,
}

/// What tree construction would know that a tokenizer needs, approximated
/// from the tags alone, and where text goes: shared by both tokenizers so
/// that they differ only in how they read.
#[derive(Debug)]
pub(crate) struct Tree {
    /// Whether start tags switch states ([`next_state`]). Off only for the
    /// html5lib tests, which tokenize without a tree builder.
    switch_states: bool,
    /// The sink wants `<style>` text.
    wants_style: bool,
    /// Depth inside `svg` and `math`, where no tag switches state, and
    /// `<![CDATA[` opens a CDATA section.
    pub foreign: u32,
    /// Of which `math`, innermost last (`true`) or `svg` (`false`), for
    /// [`Tree::content`]: a few levels, as pages nest them.
    math: Vec<bool>,
    /// Text read now is text a reader sees (not script or style).
    text_state: bool,
    /// Inside a `<style>` element whose text the sink wants.
    in_style: bool,
}

impl Tree {
    pub(crate) fn new(switch_states: bool, wants_style: bool) -> Self {
        Tree {
            switch_states,
            wants_style,
            foreign: 0,
            math: vec![],
            text_state: true,
            in_style: false,
        }
    }

    /// Where the next start tag stands.
    pub(crate) fn content(&self) -> Content {
        match self.math.last() {
            None => Content::Html,
            Some(true) => Content::Math,
            Some(false) => Content::Svg,
        }
    }

    /// A start tag named `name` was emitted: the state it switches to.
    /// A self-closing `<svg/>` or `<math/>` is closed at once (13.2.6.4.7),
    /// and opens no foreign content.
    pub(crate) fn start_tag(
        &mut self,
        name: &[u8],
        self_closing: bool,
    ) -> Option<TextState> {
        if (name == b"svg" || name == b"math") && !self_closing {
            self.foreign += 1;
            if self.math.len() < 64 {
                self.math.push(name == b"math");
            }
        }
        if !self.switch_states || self.foreign > 0 {
            return None;
        }
        let state = next_state(name);
        self.in_style = name == b"style" && self.wants_style;
        // Script and style text holds no links; RCDATA (title, textarea)
        // is text a reader sees.
        self.text_state =
            !matches!(state, Some(TextState::ScriptData | TextState::RawText));
        state
    }

    /// An end tag named `name` was emitted.
    pub(crate) fn end_tag(&mut self, name: &[u8]) {
        if (name == b"svg" || name == b"math") && self.foreign > 0 {
            self.foreign -= 1;
            if self.math.len() > self.foreign as usize {
                self.math.pop();
            }
        }
        self.text_state = true;
        self.in_style = false;
    }

    /// Tells `sink` of the text `span` (between two pieces of markup),
    /// if it is text the sink wants.
    pub(crate) fn text<S: TagSink>(&self, sink: &mut S, span: Span) {
        if span.end <= span.start {
            return;
        }
        if self.in_style {
            sink.style_text(span);
        } else if self.text_state && sink.wants_text() {
            sink.text(span);
        }
    }
}
