//! One link of a document: kept ([`Link`]) or borrowed ([`LinkRef`]).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::Arc;

use super::{Kind, LinkError, Role, charset, file_path, html, percent_decode};
use crate::Span;

/// The rarer facts of a link, boxed so that the common link stays small.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Extra {
    /// The `rel` tokens, lowercased, one space between.
    pub(super) rel: Option<Box<str>>,
    pub(super) hreflang: Option<Box<str>>,
    /// How a Markdown link takes part in references.
    pub(super) reference: Option<Reference>,
    /// An attribute the link's target refers to and no entry defines.
    pub(super) undefined_attribute: Option<Box<str>>,
    /// The part of its file an AsciiDoc include takes.
    pub(super) selection: Option<super::IncludeSelection>,
}

/// How a Markdown link takes part in link references (CommonMark 4.7):
/// a use of a definition, or a definition and its uses.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reference {
    /// A reference link or image (`[text][label]`, `[label]`), which
    /// takes its destination from the definition at this line.
    Use {
        /// The line of the definition.
        definition_line: u64,
    },
    /// A definition that CommonMark renders: the lines of the links that
    /// use it, in document order; none when no link does.
    Definition {
        /// The lines of its uses.
        uses: Box<[u64]>,
    },
    /// A definition whose label an earlier one already defines: CommonMark
    /// keeps the first, and this one is never rendered.
    Duplicate {
        /// The line of the definition that is kept.
        first_line: u64,
    },
}

impl Extra {
    /// The extra facts, when there are any.
    pub(super) fn new(
        rel: Option<&[u8]>,
        hreflang: Option<&[u8]>,
    ) -> Option<Extra> {
        // One string, not a vector of tokens joined: every `a` with a
        // `rel` passes here.
        let rel = rel.and_then(|r| {
            let mut tokens = String::with_capacity(r.len());
            for t in String::from_utf8_lossy(r).split_ascii_whitespace() {
                if !tokens.is_empty() {
                    tokens.push(' ');
                }
                tokens.push_str(t);
            }
            tokens.make_ascii_lowercase();
            (!tokens.is_empty()).then(|| tokens.into_boxed_str())
        });
        let hreflang = hreflang
            .map(|h| h.trim_ascii())
            .filter(|h| !h.is_empty())
            .map(|h| String::from_utf8_lossy(h).into());
        (rel.is_some() || hreflang.is_some()).then(|| Extra {
            rel,
            hreflang,
            ..Extra::default()
        })
    }

    /// The extra facts of a Markdown reference or definition.
    pub(super) fn reference(reference: Reference) -> Option<Extra> {
        Some(Extra { reference: Some(reference), ..Extra::default() })
    }

    /// The fact that the link's target refers to an undefined attribute.
    pub(super) fn undefined_attribute(name: Box<str>) -> Extra {
        Extra { undefined_attribute: Some(name), ..Extra::default() }
    }
}

/// One link of a document.
#[derive(Clone)]
pub struct Link {
    kind: Kind,
    span: Span,
    line: u64,
    column: u64,
    // Sized to fit: a checker holds millions of links. The link, its
    // target and its raw text (kept only where it differs from the link)
    // lie one after another in `text`, which the links that
    // [`LinkExtractor::extract`](super::LinkExtractor::extract) keeps of
    // one document share (one allocation a document, not one a link):
    // `text[start..link_end]` is the link, `text[link_end..target_end]`
    // the target (none when empty: a target is an absolute URI), and
    // `text[target_end..raw_end]` the raw text when it is not empty. The
    // error, rare, is boxed.
    text: Arc<str>,
    start: usize,
    link_end: usize,
    target_end: usize,
    raw_end: usize,
    error: Option<Box<LinkError>>,
    extra: Option<Box<Extra>>,
}

/// Equal when the views are: two links of different documents may be
/// the same link, whatever else their documents' texts hold.
impl PartialEq for Link {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl Eq for Link {}

impl fmt::Debug for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Link")
            .field("kind", &self.kind)
            .field("span", &self.span)
            .field("line", &self.line)
            .field("column", &self.column)
            .field("raw", &self.raw())
            .field("link", &self.link())
            .field("target", &self.target())
            .field("error", &self.error)
            .field("extra", &self.extra)
            .finish()
    }
}

impl Link {
    /// A link of `kind` at `span`, its texts laid out in one allocation.
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: Kind,
        span: Span,
        (line, column): (u64, u64),
        link: &str,
        target: Option<&str>,
        raw: Option<&str>,
        error: Option<LinkError>,
        extra: Option<Box<Extra>>,
    ) -> Link {
        debug_assert!(target != Some(""), "a target is never empty");
        let target = target.unwrap_or("");
        let raw = raw.unwrap_or("");
        let text: Arc<str> = if target.is_empty() && raw.is_empty() {
            Arc::from(link)
        } else {
            // Laid out in a buffer the thread keeps, then copied into
            // the one allocation of the link's text.
            thread_local! {
                static JOINED: RefCell<String> = const { RefCell::new(String::new()) };
            }
            JOINED.with_borrow_mut(|joined| {
                joined.clear();
                joined.push_str(link);
                joined.push_str(target);
                joined.push_str(raw);
                Arc::from(joined.as_str())
            })
        };
        let parts = Parts::new(0, link, target, raw);
        Link::in_text(kind, span, (line, column), text, parts, error, extra)
    }

    /// A link whose texts lie in `text` at `parts`.
    fn in_text(
        kind: Kind,
        span: Span,
        (line, column): (u64, u64),
        text: Arc<str>,
        parts: Parts,
        error: Option<LinkError>,
        extra: Option<Box<Extra>>,
    ) -> Link {
        Link {
            kind,
            span,
            line,
            column,
            text,
            start: parts.start,
            link_end: parts.link_end,
            target_end: parts.target_end,
            raw_end: parts.raw_end,
            error: error.map(Box::new),
            extra,
        }
    }

    /// A link that no reader found but a site's configuration names (a
    /// navigation entry), at `line`, written `link`, with its resolved
    /// `target`.
    #[cfg(feature = "check")]
    pub(crate) fn configured(
        kind: Kind,
        line: u64,
        link: &str,
        target: Option<&str>,
    ) -> Link {
        let target = target.filter(|t| !t.is_empty());
        Link::new(
            kind,
            Span::new(0, 0),
            (line, 1),
            link,
            target,
            None,
            None,
            None,
        )
    }

    /// A link that a site's rules found (an include shortcode), at
    /// `span`, `line` and `column`, written `link`, with its resolved
    /// `target`.
    #[cfg(feature = "check")]
    pub(crate) fn found(
        kind: Kind,
        span: Span,
        (line, column): (u64, u64),
        link: &str,
        target: Option<&str>,
    ) -> Link {
        let target = target.filter(|t| !t.is_empty());
        Link::new(kind, span, (line, column), link, target, None, None, None)
    }

    /// The link, borrowed: the view [`LinkExtractor::for_each`](super::LinkExtractor::for_each) hands
    /// out, for code that reads both.
    pub fn as_ref(&self) -> LinkRef<'_> {
        LinkRef {
            kind: self.kind,
            span: self.span,
            place: Place::Known { line: self.line, column: self.column },
            raw: if self.raw_end > self.target_end {
                &self.text[self.target_end..self.raw_end]
            } else {
                &self.text[self.start..self.link_end]
            },
            link: &self.text[self.start..self.link_end],
            target: (self.target_end > self.link_end)
                .then(|| &self.text[self.link_end..self.target_end]),
            error: self.error.as_deref(),
            extra: self.extra.as_deref(),
        }
    }
    /// What the link is.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// The byte range of [`raw`](Link::raw) in the document.
    pub fn span(&self) -> Span {
        self.span
    }
    /// The 1-based line of the first byte of `raw`.
    pub fn line(&self) -> u64 {
        self.line
    }
    /// The 1-based column of the first byte of `raw`, in bytes.
    pub fn column(&self) -> u64 {
        self.column
    }
    /// The link as written (entities and escapes not decoded); for a
    /// Markdown reference link, the use (`[text][label]`).
    pub fn raw(&self) -> &str {
        self.as_ref().raw
    }
    /// The reference as the format defines it, before resolution:
    /// entities and escapes decoded, whitespace stripped as browsers do.
    pub fn link(&self) -> &str {
        self.as_ref().link
    }
    /// The URI the link names, resolved against the document's base;
    /// `None` when the link is malformed ([`Link::error`]) or relative
    /// with no base known.
    pub fn target(&self) -> Option<&str> {
        self.as_ref().target
    }
    /// Why the link names no target, when it is malformed.
    pub fn error(&self) -> Option<&LinkError> {
        self.error.as_deref()
    }
    /// The fragment of the target (or of the link, without one),
    /// percent-decoded.
    pub fn fragment(&self) -> Option<Cow<'_, str>> {
        self.as_ref().fragment()
    }
    /// The local file the target names, when it is a `file:` URI: its
    /// path, percent-decoded.
    pub fn file_path(&self) -> Option<std::path::PathBuf> {
        self.as_ref().file_path()
    }
    /// The link's `rel` tokens (of its `a`, `area`, `link` or `form`, or
    /// of an HTTP `Link` header), lowercased, separated by one space:
    /// `nofollow ugc`, `canonical`, `stylesheet`.
    ///
    /// ```
    /// use uriscan::links::{Format, LinkExtractor, Page, Role};
    ///
    /// let html = br#"<a rel="NoFollow ugc" href="/x">x</a>
    /// <link rel=alternate hreflang=de href="/de/"><img src=a.png>"#;
    /// let page = Page::new(html, Format::Html).url("https://example.com/");
    /// let links: Vec<_> = LinkExtractor::new().extract(&page).collect();
    /// assert_eq!(links[0].rel(), Some("nofollow ugc"));
    /// assert_eq!(links[0].role(), Role::Navigate);
    /// assert_eq!((links[1].rel(), links[1].hreflang()), (Some("alternate"), Some("de")));
    /// assert_eq!(links[1].role(), Role::Other);
    /// assert_eq!(links[2].role(), Role::Embed);
    /// ```
    pub fn rel(&self) -> Option<&str> {
        self.as_ref().rel()
    }
    /// Whether `rel` holds `token` (ASCII case-insensitive).
    pub fn has_rel(&self, token: &str) -> bool {
        self.as_ref().has_rel(token)
    }
    /// The `hreflang` of a `link` or `a`.
    pub fn hreflang(&self) -> Option<&str> {
        self.as_ref().hreflang()
    }
    /// Whether following the link navigates, embeds, or neither.
    pub fn role(&self) -> Role {
        self.as_ref().role()
    }
    /// The part of its file an AsciiDoc include takes (`tag=`, `tags=`,
    /// `lines=`); `None` for the whole file, and for other links.
    pub fn include_selection(&self) -> Option<&super::IncludeSelection> {
        self.as_ref().include_selection()
    }
    /// How a Markdown link takes part in references: see [`Reference`].
    ///
    /// ```
    /// use uriscan::links::{Format, LinkExtractor, Page, Reference};
    ///
    /// let md = b"[a][x] and [b][x]\n\n[x]: a.md\n[X]: b.md\n[y]: c.md\n";
    /// let links: Vec<_> =
    ///     LinkExtractor::new().extract(&Page::new(md, Format::Markdown)).collect();
    /// assert_eq!(links[0].reference(), Some(&Reference::Use { definition_line: 3 }));
    /// assert_eq!(
    ///     links[2].reference(),
    ///     Some(&Reference::Definition { uses: vec![1, 1].into() })
    /// );
    /// assert_eq!(links[3].reference(), Some(&Reference::Duplicate { first_line: 3 }));
    /// assert_eq!(links[4].reference(), Some(&Reference::Definition { uses: [].into() }));
    /// ```
    pub fn reference(&self) -> Option<&Reference> {
        self.as_ref().reference()
    }

    /// A link of an HTTP header field (`Location`, `Link`, ...) of kind
    /// `kind`: `value` at `span`, resolved against `base`.
    #[cfg(feature = "warc")]
    pub(crate) fn from_header(
        kind: Kind,
        value: &str,
        span: Span,
        (line, column): (u64, u64),
        base: Option<&str>,
        rel: Option<&[u8]>,
    ) -> Link {
        let base = super::target::Base::new(base, None);
        let (target, error) =
            match base.as_ref().map(super::target::Base::resolver) {
                None => (None, super::extractor::repair_error(value)),
                Some(b) => match b.resolve(value) {
                    Ok(t) => (Some(t), None),
                    Err(e) => (None, Some(e)),
                },
            };
        Link::new(
            kind,
            span,
            (line, column),
            value,
            target.as_deref(),
            None,
            error,
            Extra::new(rel, None).map(Box::new),
        )
    }
}

/// Where a link starts: known, or found in the document's lines when it
/// is asked for.
#[derive(Clone, Copy)]
pub(super) enum Place<'a> {
    Known { line: u64, column: u64 },
    Counted { lines: &'a charset::Lines<'a>, at: usize },
}

impl Place<'_> {
    fn get(&self) -> (u64, u64) {
        match *self {
            Place::Known { line, column } => (line, column),
            Place::Counted { lines, at } => lines.place(at),
        }
    }
}

/// One link of a document, borrowed from the document and from a buffer
/// that the extractor reuses from link to link: what
/// [`LinkExtractor::for_each`](super::LinkExtractor::for_each) hands out, with no allocation per link.
/// [`LinkRef::to_link`] keeps it; [`Link::as_ref`] views a kept one.
#[derive(Clone, Copy)]
pub struct LinkRef<'a> {
    pub(super) kind: Kind,
    pub(super) span: Span,
    pub(super) place: Place<'a>,
    pub(super) raw: &'a str,
    pub(super) link: &'a str,
    pub(super) target: Option<&'a str>,
    pub(super) error: Option<&'a LinkError>,
    pub(super) extra: Option<&'a Extra>,
}

impl fmt::Debug for LinkRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LinkRef")
            .field("kind", &self.kind)
            .field("span", &self.span)
            .field("line", &self.line())
            .field("column", &self.column())
            .field("raw", &self.raw)
            .field("link", &self.link)
            .field("target", &self.target)
            .field("error", &self.error)
            .field("extra", &self.extra)
            .finish()
    }
}

/// Equal when every field is, the place by its line and column.
impl PartialEq for LinkRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.span == other.span
            && self.place.get() == other.place.get()
            && self.raw == other.raw
            && self.link == other.link
            && self.target == other.target
            && self.error == other.error
            && self.extra == other.extra
    }
}

impl Eq for LinkRef<'_> {}

impl<'a> LinkRef<'a> {
    /// What the link is.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// The byte range of [`raw`](LinkRef::raw) in the document.
    pub fn span(&self) -> Span {
        self.span
    }
    /// The 1-based line of the first byte of `raw`, counted when first
    /// asked for: a caller that never asks does not pay for it.
    pub fn line(&self) -> u64 {
        self.place.get().0
    }
    /// The 1-based column of the first byte of `raw`, in bytes.
    pub fn column(&self) -> u64 {
        self.place.get().1
    }
    /// The link as written: see [`Link::raw`].
    pub fn raw(&self) -> &'a str {
        self.raw
    }
    /// The reference before resolution: see [`Link::link`].
    pub fn link(&self) -> &'a str {
        self.link
    }
    /// The URI the link names: see [`Link::target`].
    pub fn target(&self) -> Option<&'a str> {
        self.target
    }
    /// Why the link names no target, when it is malformed.
    pub fn error(&self) -> Option<&'a LinkError> {
        self.error
    }
    /// The fragment of the target (or of the link, without one),
    /// percent-decoded.
    pub fn fragment(&self) -> Option<Cow<'a, str>> {
        let s = self.target.unwrap_or(self.link);
        let f = &s[s.find('#')? + 1..];
        Some(percent_decode(f))
    }
    /// The local file the target names, when it is a `file:` URI: its
    /// path, percent-decoded.
    pub fn file_path(&self) -> Option<std::path::PathBuf> {
        file_path(self.target?)
    }
    /// The link's `rel` tokens: see [`Link::rel`].
    pub fn rel(&self) -> Option<&'a str> {
        self.extra?.rel.as_deref()
    }
    /// Whether `rel` holds `token` (ASCII case-insensitive).
    pub fn has_rel(&self, token: &str) -> bool {
        self.rel().is_some_and(|r| {
            r.split(' ').any(|t| t.eq_ignore_ascii_case(token))
        })
    }
    /// The `hreflang` of a `link` or `a`.
    pub fn hreflang(&self) -> Option<&'a str> {
        self.extra?.hreflang.as_deref()
    }
    /// The part of its file an AsciiDoc include takes: see
    /// [`Link::include_selection`].
    pub fn include_selection(&self) -> Option<&'a super::IncludeSelection> {
        self.extra?.selection.as_ref()
    }
    /// How a Markdown link takes part in references: see [`Reference`].
    pub fn reference(&self) -> Option<&'a Reference> {
        self.extra?.reference.as_ref()
    }
    /// Whether following the link navigates, embeds, or neither.
    pub fn role(&self) -> Role {
        match self.kind {
            Kind::MdLink
            | Kind::MdAutolink
            | Kind::HttpLocation
            | Kind::SiteNav => Role::Navigate,
            Kind::MdImage => Role::Embed,
            Kind::AdocLink | Kind::AdocXref => Role::Navigate,
            Kind::AdocImage | Kind::AdocInclude => Role::Embed,
            Kind::Generator(k) if k.navigates() => Role::Navigate,
            Kind::Generator(_) => Role::Embed,
            Kind::Html(a) | Kind::MdHtml(a) => {
                html::role(a, |t| self.has_rel(t))
            }
            Kind::HttpLink if html::rel_embeds(|t| self.has_rel(t)) => {
                Role::Embed
            }
            _ => Role::Other,
        }
    }
    /// The link with another target (a mapped one), and no error.
    pub fn with_target(&self, target: &'a str) -> LinkRef<'a> {
        LinkRef { target: Some(target), error: None, ..*self }
    }
    /// The link, kept: its texts copied into one allocation.
    pub fn to_link(&self) -> Link {
        Link::new(
            self.kind,
            self.span,
            self.place.get(),
            self.link,
            self.target,
            self.distinct_raw(),
            self.error.cloned(),
            self.extra.map(|e| Box::new(e.clone())),
        )
    }

    /// The raw text, where it is not the link's.
    fn distinct_raw(&self) -> Option<&'a str> {
        // Most links are their raw text, the same slice: no comparison.
        let same = std::ptr::eq(self.raw, self.link) || self.raw == self.link;
        (!same).then_some(self.raw)
    }
}

/// Where a link's texts lie in the text it shares: the link from
/// `start`, then its target, then its raw text (each may be empty but
/// the link).
#[derive(Clone, Copy)]
struct Parts {
    start: usize,
    link_end: usize,
    target_end: usize,
    raw_end: usize,
}

impl Parts {
    fn new(start: usize, link: &str, target: &str, raw: &str) -> Parts {
        let link_end = start + link.len();
        let target_end = link_end + target.len();
        Parts { start, link_end, target_end, raw_end: target_end + raw.len() }
    }
}

/// The links of one document, kept with one allocation for all their
/// texts: each link's facts while the document is read, its texts
/// appended to one buffer, shared once the document is done. Both
/// buffers are the thread's, kept from one document to the next (as
/// [`Scratch`](super::scratch::Scratch) keeps the raw links): a buffer
/// grown anew for each document costs more than the links' own work.
pub(super) struct KeptLinks {
    text: String,
    links: Vec<Pending>,
}

thread_local! {
    static KEPT: Cell<(String, Vec<Pending>)> =
        const { Cell::new((String::new(), Vec::new())) };
}

/// A link kept by [`KeptLinks`], its texts in the shared buffer.
struct Pending {
    kind: Kind,
    span: Span,
    place: (u64, u64),
    parts: Parts,
    error: Option<LinkError>,
    extra: Option<Box<Extra>>,
}

impl KeptLinks {
    /// The buffers kept are at most this large each, so that one huge
    /// page does not hold its memory for the thread's life.
    const MAX_KEPT: usize = 8 << 20;

    /// The thread's buffers, empty; fresh ones when they are in use (a
    /// page read from inside the reading of another).
    pub(super) fn take() -> KeptLinks {
        let (text, links) = KEPT.try_with(Cell::take).unwrap_or_default();
        KeptLinks { text, links }
    }

    /// Room for `count` links.
    pub(super) fn reserve(&mut self, count: usize) {
        self.links.reserve(count);
    }

    /// Keeps `link`: its texts appended to the shared buffer.
    pub(super) fn push(&mut self, link: LinkRef<'_>) {
        let target = link.target.unwrap_or("");
        let raw = link.distinct_raw().unwrap_or("");
        let parts = Parts::new(self.text.len(), link.link, target, raw);
        self.text.push_str(link.link);
        self.text.push_str(target);
        self.text.push_str(raw);
        self.links.push(Pending {
            kind: link.kind,
            span: link.span,
            place: link.place.get(),
            parts,
            error: link.error.cloned(),
            extra: link.extra.map(|e| Box::new(e.clone())),
        });
    }

    /// The links, sharing one copy of their texts.
    pub(super) fn into_links(mut self) -> Vec<Link> {
        let text: Arc<str> = Arc::from(self.text.as_str());
        self.links
            .drain(..)
            .map(|p| {
                let text = Arc::clone(&text);
                Link::in_text(
                    p.kind, p.span, p.place, text, p.parts, p.error, p.extra,
                )
            })
            .collect()
    }
}

impl Drop for KeptLinks {
    fn drop(&mut self) {
        let mut text = std::mem::take(&mut self.text);
        let mut links = std::mem::take(&mut self.links);
        text.clear();
        links.clear();
        let links_size = links.capacity() * std::mem::size_of::<Pending>();
        if text.capacity() <= Self::MAX_KEPT && links_size <= Self::MAX_KEPT {
            // `try_with`: a thread being torn down keeps nothing.
            let _ = KEPT.try_with(|kept| {
                // Keep the larger of two (a nested read's).
                let old = kept.take();
                let larger = old.0.capacity() + old.1.capacity()
                    > text.capacity() + links.capacity();
                kept.set(if larger { old } else { (text, links) });
            });
        }
    }
}
