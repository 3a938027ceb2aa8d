//! The links of a document, the way its format defines them, resolved.
//!
//! Where [`scanning`](crate::scanning) finds URIs written out in text,
//! this module reads Markdown and HTML as documents: every link
//! (relative ones included) with the bytes it was written as, the
//! reference it makes as the format defines it (entities and escapes
//! decoded), and the target URI that reference names, resolved by RFC 3986
//! section 5 against the document's base. A crawler hands it one page's
//! bytes and URL; no file system is involved.
//!
//! ```
//! use uriscan::links::{Format, LinkExtractor, Page};
//!
//! let extractor = LinkExtractor::new(); // build once, share: Send + Sync
//! let html = br#"<base href="/docs/"><a href="guide.html?a=1&amp;b=2">x</a>
//! <img srcset="a.png 1x, b.png 2x">"#;
//! let page = Page::new(html, Format::Html).url("https://example.com/index.html");
//! let links: Vec<_> = extractor.extract(&page).collect();
//! let targets: Vec<_> = links.iter().map(|l| l.target().unwrap()).collect();
//! assert_eq!(targets, [
//!     "https://example.com/docs/",
//!     "https://example.com/docs/guide.html?a=1&b=2",
//!     "https://example.com/docs/a.png",
//!     "https://example.com/docs/b.png",
//! ]);
//! assert_eq!(links[1].kind().to_string(), "html:a@href");
//! assert_eq!(links[1].raw(), "guide.html?a=1&amp;b=2");
//! assert_eq!((links[3].line(), links[3].column()), (2, 24));
//!
//! let md = b"See [install](../install.md#setup) and <https://rfc-editor.org>.";
//! let page = Page::new(md, Format::Markdown).url("file:///repo/docs/guide.md");
//! let links: Vec<_> = extractor.extract(&page).collect();
//! assert_eq!(links[0].target(), Some("file:///repo/install.md#setup"));
//! assert_eq!(links[0].fragment().as_deref(), Some("setup"));
//! assert_eq!(links[1].kind().to_string(), "md:autolink");
//! ```
//!
//! # What is a link
//!
//! - **Markdown** (CommonMark, with the GitHub extensions by default):
//!   inline links and images; reference links and images, each use with
//!   its definition's destination (the use's text is its `raw`); every
//!   definition, used or not; autolinks (an e-mail autolink's link is
//!   `mailto:` and the address); bare URIs in text, found by the
//!   [`Finder`]; links in raw HTML by the HTML
//!   rules. Code spans and blocks hold no links unless
//!   [`LinkExtractorBuilder::include_code`] is set; front matter is text.
//! - **HTML**: the attributes whose value the HTML standard defines as a
//!   URL (see the table in `html.rs`: `a@href`, `img@src`, every
//!   candidate of `srcset`, `meta` refresh, the obsolete ones that old
//!   pages still use, SVG `href` and `xlink:href`), entity-decoded, with
//!   leading and trailing ASCII whitespace stripped. Comments and the
//!   text of `script` and `style` hold none.
//!   [`LinkExtractorBuilder::include_text`] adds the bare URIs of text.
//!
//! # Resolution
//!
//! The base is the first of: [`Page::base`] (a base given by the
//! caller), the document's first `<base href>` (itself resolved against
//! the page's URL; wherever it stands in the document, as the whole
//! document is read before links are resolved), and [`Page::url`]. With
//! the page's own URL as the base, a root-relative link (`/x`) resolves
//! under [`Page::root`] when one is given. Before resolution a link gets
//! the repairs browsers make ([`repair`]); a link that is still no URI
//! reference is listed all the same, with [`Link::error`] saying why and
//! no target.
//!
//! # Encodings
//!
//! HTML honours its byte order mark or `<meta charset>` ([`Page::charset`]
//! for the HTTP header's), decoded with encoding_rs. Invalid UTF-8 never
//! makes a document skipped: its bad bytes are read as U+FFFD. Offsets,
//! lines and columns always count the document's own bytes.

use std::borrow::Cow;
use std::fmt;

use crate::Span;
use crate::scanning::Finder;

// Crate-visible for `checking::anchors`, which reads the same parse
// (Markdown options, start tags, line starts) for a document's anchors.
pub(crate) mod charset;
mod html;
pub(crate) mod markdown;
#[cfg(any(test, feature = "internals"))]
pub(crate) mod oracle;
pub(crate) mod shortcut;
pub(crate) mod tags;
mod target;
mod tokenizer;

#[doc(hidden)]
pub use html::{
    count_link_concatenated, count_link_handed_out, count_link_targets,
    count_link_values,
};
#[doc(hidden)]
pub use markdown::count_markdown_events;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use oracle::differential;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use shortcut::differential as shortcut_differential;
#[doc(hidden)]
pub use tags::count_start_tags;

pub use target::{LinkError, file_path, file_uri, percent_decode, repair};
#[cfg(feature = "check")]
pub(crate) use target::{file_path_bytes, path_from_bytes};

/// How a document is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// CommonMark (with the GitHub extensions unless turned off).
    Markdown,
    /// HTML, by the WHATWG tokenizer.
    Html,
    /// Plain text: the URIs the [`Finder`] finds.
    Text,
}

impl Format {
    /// The format a file name's extension says: `.md`, `.markdown`,
    /// `.mdown`, `.mkd` are Markdown, `.html`, `.htm`, `.xhtml` HTML,
    /// anything else text.
    ///
    /// ```
    /// use uriscan::links::Format;
    /// assert_eq!(Format::from_path("docs/README.md".as_ref()), Format::Markdown);
    /// assert_eq!(Format::from_path("a/INDEX.HTM".as_ref()), Format::Html);
    /// assert_eq!(Format::from_path("main.rs".as_ref()), Format::Text);
    /// ```
    pub fn from_path(path: &std::path::Path) -> Format {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            return Format::Text;
        };
        let is =
            |list: &[&str]| list.iter().any(|x| ext.eq_ignore_ascii_case(x));
        if is(&["md", "markdown", "mdown", "mkd"]) {
            Format::Markdown
        } else if is(&["html", "htm", "xhtml"]) {
            Format::Html
        } else {
            Format::Text
        }
    }
}

/// An HTML element and one of its attributes, lowercase.
// Each name is a thin pointer to a `&str` of the link table: a `Kind` is
// held for each of millions of links, and two `&str` made it 40 bytes
// (24 now). Equality and hashing are of the names, not the pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HtmlAttr {
    element: &'static &'static str,
    attribute: &'static &'static str,
}

impl HtmlAttr {
    /// The element's name (`a`, `img`, …).
    pub fn element(&self) -> &'static str {
        self.element
    }
    /// The attribute's name (`href`, `srcset`, …; `refresh` for the
    /// `content` of a meta refresh).
    pub fn attribute(&self) -> &'static str {
        self.attribute
    }
}

/// Where a link was found, and so what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A Markdown link, inline or by reference: `md:link`.
    MdLink,
    /// A Markdown image: `md:image`.
    MdImage,
    /// A Markdown link reference definition: `md:definition`.
    MdDefinition,
    /// A Markdown autolink `<...>`: `md:autolink`.
    MdAutolink,
    /// A link in raw HTML inside Markdown: `md:html`.
    MdHtml(HtmlAttr),
    /// An HTML attribute: `html:ELEMENT@ATTRIBUTE`.
    Html(HtmlAttr),
    /// A bare URI in text: `text`.
    Text,
    /// A URI in code, with `include_code`: `code`.
    Code,
    /// The `Location` header of an HTTP redirect (3xx):
    /// `http:location`.
    HttpLocation,
    /// The `Content-Location` header of an HTTP response:
    /// `http:content-location`.
    HttpContentLocation,
    /// A URI of an HTTP `Link` header (RFC 8288), with its `rel`:
    /// `http:link`.
    HttpLink,
}

/// What following a link does, as a crawler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Role {
    /// A user (or a redirect) goes there: `a`, `area`, `form`, a meta
    /// refresh, an HTTP `Location`, a Markdown link.
    Navigate,
    /// The page loads it to render itself: `img`, `script`, `iframe`,
    /// `video`, `link rel=stylesheet` (and `icon`, `preload`,
    /// `modulepreload`), CSS `url()`, `background`, a Markdown image.
    Embed,
    /// Neither: `link rel=canonical` or `alternate`, `cite`, `og:url`,
    /// a bare URI in text, ...
    Other,
}

impl Role {
    /// `navigate`, `embed` or `other`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Role::Navigate => "navigate",
            Role::Embed => "embed",
            Role::Other => "other",
        }
    }
}

impl Kind {
    /// The HTML element and attribute, for the kinds that have them.
    pub fn html_attr(&self) -> Option<HtmlAttr> {
        match self {
            Kind::MdHtml(a) | Kind::Html(a) => Some(*a),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::MdLink => f.write_str("md:link"),
            Kind::MdImage => f.write_str("md:image"),
            Kind::MdDefinition => f.write_str("md:definition"),
            Kind::MdAutolink => f.write_str("md:autolink"),
            Kind::MdHtml(_) => f.write_str("md:html"),
            Kind::Html(a) => {
                write!(f, "html:{}@{}", a.element(), a.attribute())
            }
            Kind::Text => f.write_str("text"),
            Kind::Code => f.write_str("code"),
            Kind::HttpLocation => f.write_str("http:location"),
            Kind::HttpContentLocation => f.write_str("http:content-location"),
            Kind::HttpLink => f.write_str("http:link"),
        }
    }
}

/// A link as a reader found it, before resolution; offsets are in the
/// text the reader read.
///
/// Its raw text is the text at `span`, not a copy: the link is copied
/// once, into its [`Link`]. The link itself is kept only where it differs
/// from the raw text (entities or escapes decoded, `mailto:` added).
#[derive(Clone, Debug)]
pub(crate) struct RawLink {
    kind: Kind,
    span: Span,
    // A box, not a `String`: 64 bytes a raw link, not 72, for the
    // millions of them a crawl writes and reads back.
    link: Option<Box<str>>,
    extra: Option<Box<Extra>>,
}

// The size that the box above keeps: a raw link grown past it is a cost
// for every link of every page, to be weighed.
const _: () = assert!(std::mem::size_of::<RawLink>() <= 64);

impl RawLink {
    /// A link of `kind` at `span`, whose text there is `raw` and whose
    /// reference is `link`.
    fn new(
        kind: Kind,
        span: Span,
        raw: &[u8],
        link: &str,
        extra: Option<Box<Extra>>,
    ) -> RawLink {
        let link = (link.as_bytes() != raw).then(|| link.into());
        RawLink { kind, span, link, extra }
    }
}

/// Bytes of the (decoded, so UTF-8) text as a `str`: the lossy path is
/// only a guard, and the vectorized check of `from_utf8` runs instead of
/// the lossy decoder.
pub(crate) fn text_of(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

/// The rarer facts of a link, boxed so that the common link stays small.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Extra {
    /// The `rel` tokens, lowercased, one space between.
    rel: Option<Box<str>>,
    hreflang: Option<Box<str>>,
}

impl Extra {
    /// The extra facts, when there are any.
    pub(crate) fn new(
        rel: Option<&[u8]>,
        hreflang: Option<&[u8]>,
    ) -> Option<Box<Extra>> {
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
        (rel.is_some() || hreflang.is_some())
            .then(|| Box::new(Extra { rel, hreflang }))
    }
}

/// One link of a document.
#[derive(Clone, PartialEq, Eq)]
pub struct Link {
    kind: Kind,
    span: Span,
    line: u64,
    column: u64,
    // Sized to fit: a checker holds millions of links (3 million in the
    // Rust documentation). The link, its target and its raw text (kept
    // only where it differs from the link) share one allocation:
    // `text[..link_end]` is the link, `text[link_end..target_end]` the
    // target (none when empty: a target is an absolute URI), and the
    // rest the raw text when `has_raw`. The error, rare, is boxed.
    text: Box<str>,
    link_end: usize,
    target_end: usize,
    has_raw: bool,
    error: Option<Box<LinkError>>,
    extra: Option<Box<Extra>>,
}

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
        let has_raw = raw.is_some();
        let (target, raw) = (target.unwrap_or(""), raw.unwrap_or(""));
        let mut text =
            String::with_capacity(link.len() + target.len() + raw.len());
        text.push_str(link);
        text.push_str(target);
        text.push_str(raw);
        Link {
            kind,
            span,
            line,
            column,
            text: text.into_boxed_str(),
            link_end: link.len(),
            target_end: link.len() + target.len(),
            has_raw,
            error: error.map(Box::new),
            extra,
        }
    }

    /// The link, borrowed: the view [`LinkExtractor::for_each`] hands
    /// out, for code that reads both.
    pub fn as_ref(&self) -> LinkRef<'_> {
        LinkRef {
            kind: self.kind,
            span: self.span,
            place: Place::Known { line: self.line, column: self.column },
            raw: if self.has_raw {
                &self.text[self.target_end..]
            } else {
                &self.text[..self.link_end]
            },
            link: &self.text[..self.link_end],
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
        let base = target::Base::new(base, None);
        let (target, error) = match base.as_ref().map(target::Base::resolver) {
            None => (None, repair_error(value)),
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
            Extra::new(rel, None),
        )
    }
}

/// Where a link starts: known, or found in the document's lines when it
/// is asked for.
#[derive(Clone, Copy)]
enum Place<'a> {
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
/// [`LinkExtractor::for_each`] hands out, with no allocation per link.
/// [`LinkRef::to_link`] keeps it; [`Link::as_ref`] views a kept one.
#[derive(Clone, Copy)]
pub struct LinkRef<'a> {
    kind: Kind,
    span: Span,
    place: Place<'a>,
    raw: &'a str,
    link: &'a str,
    target: Option<&'a str>,
    error: Option<&'a LinkError>,
    extra: Option<&'a Extra>,
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
    /// Whether following the link navigates, embeds, or neither.
    pub fn role(&self) -> Role {
        match self.kind {
            Kind::MdLink | Kind::MdAutolink | Kind::HttpLocation => {
                Role::Navigate
            }
            Kind::MdImage => Role::Embed,
            Kind::Html(a) | Kind::MdHtml(a) => {
                html::role(a, |t| self.has_rel(t))
            }
            Kind::HttpLink if html::rel_embeds(|t| self.has_rel(t)) => {
                Role::Embed
            }
            _ => Role::Other,
        }
    }
    /// The link, kept: its texts copied into one allocation.
    pub fn to_link(&self) -> Link {
        Link::new(
            self.kind,
            self.span,
            self.place.get(),
            self.link,
            self.target,
            (self.raw != self.link).then_some(self.raw),
            self.error.cloned(),
            self.extra.map(|e| Box::new(e.clone())),
        )
    }
}

/// One document to read: its bytes, format and place.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    bytes: &'a [u8],
    format: Format,
    url: Option<&'a str>,
    base: Option<&'a str>,
    root: Option<&'a str>,
    charset: Option<&'a str>,
}

impl<'a> Page<'a> {
    /// A document of `format`, with no URL: relative links get no target.
    pub fn new(bytes: &'a [u8], format: Format) -> Page<'a> {
        Page {
            bytes,
            format,
            url: None,
            base: None,
            root: None,
            charset: None,
        }
    }
    /// The document's own URL (for a file, its `file:` URI, see
    /// [`file_uri`]): the base when no other is given.
    pub fn url(mut self, url: &'a str) -> Page<'a> {
        self.url = Some(url);
        self
    }
    /// A base URI that wins over the document's `<base href>` and URL.
    pub fn base(mut self, base: &'a str) -> Page<'a> {
        self.base = Some(base);
        self
    }
    /// The URI of the root directory that root-relative links (`/x`)
    /// resolve under, when the base is the page's own URL.
    pub fn root(mut self, root: &'a str) -> Page<'a> {
        self.root = Some(root);
        self
    }
    /// The charset the transport declared (HTTP `Content-Type`): it wins
    /// over the document's `<meta charset>`, not over a byte order mark.
    pub fn charset(mut self, label: &'a str) -> Page<'a> {
        self.charset = Some(label);
        self
    }
}

/// Configures a [`LinkExtractor`].
#[derive(Clone, Debug)]
pub struct LinkExtractorBuilder {
    include_code: bool,
    include_text: bool,
    gfm: bool,
    finder: Option<Finder>,
}

impl Default for LinkExtractorBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkExtractorBuilder {
    /// The defaults: no code, no HTML text, the GitHub extensions on.
    pub fn new() -> Self {
        LinkExtractorBuilder {
            include_code: false,
            include_text: false,
            gfm: true,
            finder: None,
        }
    }
    /// Whether the URIs in Markdown code spans and blocks are listed, as
    /// [`Kind::Code`]. Default: no.
    pub fn include_code(&mut self, yes: bool) -> &mut Self {
        self.include_code = yes;
        self
    }
    /// Whether the bare URIs in HTML text are listed, as [`Kind::Text`].
    /// Default: no.
    pub fn include_text(&mut self, yes: bool) -> &mut Self {
        self.include_text = yes;
        self
    }
    /// Whether Markdown is read with the GitHub extensions (tables,
    /// strikethrough, footnotes, task lists, heading attributes) and front
    /// matter; without them, as plain CommonMark. Default: yes.
    pub fn github_extensions(&mut self, yes: bool) -> &mut Self {
        self.gfm = yes;
        self
    }
    /// The finder for bare URIs in text. Default: [`Finder::new`].
    pub fn finder(&mut self, finder: Finder) -> &mut Self {
        self.finder = Some(finder);
        self
    }
    /// The extractor.
    pub fn build(&self) -> LinkExtractor {
        LinkExtractor {
            include_code: self.include_code,
            include_text: self.include_text,
            gfm: self.gfm,
            finder: self.finder.clone().unwrap_or_default(),
        }
    }
}

/// Reads documents for their links. Build it once and share it: it is
/// `Send + Sync`, and holds no per-document state.
///
/// Each thread that reads a page keeps the buffer of the page's links, up
/// to 8 MB, for its next page: the pages of a crawl or a site, read one
/// after another, then take no fresh memory for it.
#[derive(Clone, Debug)]
pub struct LinkExtractor {
    include_code: bool,
    include_text: bool,
    gfm: bool,
    finder: Finder,
}

impl Default for LinkExtractor {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkExtractor {
    /// An extractor with the defaults of [`LinkExtractorBuilder::new`].
    pub fn new() -> LinkExtractor {
        LinkExtractorBuilder::new().build()
    }
    /// A builder.
    pub fn builder() -> LinkExtractorBuilder {
        LinkExtractorBuilder::new()
    }

    /// The links of `page`, in document order.
    ///
    /// A document's links are gathered whole before the first is handed
    /// out, since a `<base href>` anywhere in it changes them all.
    pub fn extract(&self, page: &Page<'_>) -> Links {
        self.extract_inner(page, &mut None)
    }

    /// The links of `page`, and for an HTML page the fragment identifiers
    /// it defines (every element's `id`, every `a@name`), read in the same
    /// pass: what a link checker needs of each document it reads.
    pub fn extract_with_ids(
        &self,
        page: &Page<'_>,
    ) -> (Links, Option<Vec<String>>) {
        let mut ids = (page.format == Format::Html).then(Vec::new);
        let links = self.extract_inner(page, &mut ids);
        (links, ids)
    }

    /// Hands each link of `page` to `f`, in document order, borrowed:
    /// the same links as [`extract`](LinkExtractor::extract), without
    /// an allocation for each. What a caller that reads each link once
    /// (prints it, counts it, keeps a few facts of it) uses.
    ///
    /// ```
    /// use uriscan::links::{Format, LinkExtractor, Page};
    ///
    /// let html = br#"<a href="a.html">a</a> <img src="/logo.png">"#;
    /// let page = Page::new(html, Format::Html).url("https://example.com/docs/");
    /// let mut targets = String::new();
    /// LinkExtractor::new().for_each(&page, |link| {
    ///     targets.push_str(link.target().unwrap_or("-"));
    ///     targets.push(' ');
    /// });
    /// assert_eq!(targets, "https://example.com/docs/a.html https://example.com/logo.png ");
    /// ```
    pub fn for_each(&self, page: &Page<'_>, mut f: impl FnMut(LinkRef<'_>)) {
        self.visit(page, &mut None, &mut Each(&mut f));
    }

    /// [`for_each`](LinkExtractor::for_each), and for an HTML page the
    /// fragment identifiers it defines, as
    /// [`extract_with_ids`](LinkExtractor::extract_with_ids) gives them.
    pub fn for_each_with_ids(
        &self,
        page: &Page<'_>,
        mut f: impl FnMut(LinkRef<'_>),
    ) -> Option<Vec<String>> {
        let mut ids = (page.format == Format::Html).then(Vec::new);
        self.visit(page, &mut ids, &mut Each(&mut f));
        ids
    }

    fn extract_inner(
        &self,
        page: &Page<'_>,
        ids: &mut Option<Vec<String>>,
    ) -> Links {
        let mut keep = Keep(vec![]);
        self.visit(page, ids, &mut keep);
        Links { inner: keep.0.into_iter() }
    }

    fn visit(
        &self,
        page: &Page<'_>,
        ids: &mut Option<Vec<String>>,
        sink: &mut dyn LinkSink,
    ) {
        let mut raw = Scratch::take();
        let (decoded, html_base) = self.read(page, &mut raw, ids);
        raw.sort_by_key(|l| l.span.start);
        sink.expect(raw.len());
        let base = resolution_base(page, html_base.as_deref());
        let own_base = html_base.is_some() && page.base.is_none();
        // `<base href>` itself resolves against the page, not itself.
        let page_base = target::Base::new(page.url, page.root);
        let resolver = base.as_ref().map(target::Base::resolver);
        let page_resolver = page_base.as_ref().map(target::Base::resolver);
        let text = decoded.text.as_bytes();
        // Links are in document order: their lines are counted forward,
        // as far as the sink asks.
        let lines = charset::Lines::new(&decoded);
        // One buffer for every target, lent to each link in turn.
        let mut target = String::new();
        for (i, r) in raw.iter().enumerate() {
            // The links of a large page are resolved after the whole page
            // is read, when its first bytes have long left the cache: each
            // link's text is asked for a few links ahead of its turn.
            if let Some(ahead) = raw.get(i + PREFETCH_AHEAD) {
                prefetch(text, ahead.span.start);
            }
            let start = decoded.byte_offset(r.span.start);
            let end = decoded.byte_offset(r.span.end);
            // Only a document's own `<base href>` changes the base, and
            // only where the caller gave none.
            let is_base = own_base
                && r.kind.html_attr().is_some_and(|a| a.element() == "base");
            let resolver = if is_base { &page_resolver } else { &resolver };
            // A span on character boundaries (all of them, but for a
            // guard) is text already: no UTF-8 check of its bytes.
            let raw = match decoded.text.get(r.span.range()) {
                Some(s) => Cow::Borrowed(s),
                None => text_of(&text[r.span.range()]),
            };
            let link = r.link.as_deref().unwrap_or(&raw);
            target.clear();
            let (resolved, error) = match resolver {
                None => (false, repair_error(link)),
                Some(b) => match b.resolve_into(link, &mut target) {
                    Ok(()) => (true, None),
                    Err(e) => (false, Some(e)),
                },
            };
            debug_assert!(!resolved || !target.is_empty());
            sink.link(LinkRef {
                kind: r.kind,
                span: Span::new(start, end.max(start)),
                place: Place::Counted { lines: &lines, at: r.span.start },
                raw: &raw,
                link,
                target: resolved.then_some(target.as_str()),
                error: error.as_ref(),
                extra: r.extra.as_deref(),
            });
        }
    }

    /// Reads the document's links (offsets in the decoded text), and its
    /// `<base href>`.
    fn read<'p>(
        &self,
        page: &Page<'p>,
        out: &mut Vec<RawLink>,
        ids: &mut Option<Vec<String>>,
    ) -> (charset::Decoded<'p>, Option<String>) {
        match page.format {
            Format::Html => {
                let declared = page.charset.and_then(|c| {
                    encoding_rs::Encoding::for_label(c.as_bytes())
                });
                let enc = match encoding_rs::Encoding::for_bom(page.bytes) {
                    Some((e, _)) => e,
                    None => declared
                        .or_else(|| charset::sniff_html(page.bytes))
                        .unwrap_or(encoding_rs::UTF_8),
                };
                let decoded = if enc == encoding_rs::UTF_8 {
                    charset::Decoded::utf8(page.bytes)
                } else {
                    charset::Decoded::decode(page.bytes, enc)
                };
                let base = self.read_html(
                    decoded.text.as_bytes(),
                    0,
                    false,
                    out,
                    ids,
                );
                (decoded, base)
            }
            Format::Markdown => {
                let decoded = charset::Decoded::utf8(page.bytes);
                let text = decoded.text.as_ref();
                let regions = markdown::read(text, self.gfm, out);
                for span in regions.html {
                    self.read_html(
                        &text.as_bytes()[span.range()],
                        span.start,
                        true,
                        out,
                        &mut None,
                    );
                }
                for span in regions.text {
                    self.find(text.as_bytes(), span, Kind::Text, out);
                }
                if self.include_code {
                    for span in regions.code {
                        self.find(text.as_bytes(), span, Kind::Code, out);
                    }
                }
                (decoded, None)
            }
            Format::Text => {
                // The finder reads the text with U+FFFD for bad bytes, as
                // the other formats do, so that every offset maps back the
                // same way.
                let decoded = charset::Decoded::utf8(page.bytes);
                let text = decoded.text.as_bytes();
                self.find(text, Span::new(0, text.len()), Kind::Text, out);
                (decoded, None)
            }
        }
    }

    fn read_html(
        &self,
        src: &[u8],
        offset: usize,
        in_markdown: bool,
        out: &mut Vec<RawLink>,
        ids: &mut Option<Vec<String>>,
    ) -> Option<String> {
        let text = self.include_text && !in_markdown;
        let mut sink =
            html::HtmlLinks::new(src, offset, in_markdown, text, out);
        sink.ids = ids.take();
        tags::for_each_tag(src, &mut sink);
        *ids = sink.ids.take();
        let base = sink.base.take();
        let texts = std::mem::take(&mut sink.texts);
        // Text is read only for a whole HTML document (`text` is off inside
        // Markdown), where `src` starts at offset 0.
        for span in texts {
            self.find(src, span, Kind::Text, out);
        }
        base
    }

    /// The URIs the finder finds in `span` of `text`.
    fn find(
        &self,
        text: &[u8],
        span: Span,
        kind: Kind,
        out: &mut Vec<RawLink>,
    ) {
        let hay = &text[span.range()];
        for m in self.finder.find_iter(hay) {
            let s = m.span();
            out.push(RawLink::new(
                kind,
                Span::new(span.start + s.start, span.start + s.end),
                &hay[s.range()],
                m.as_str(),
                None,
            ));
        }
    }
}

/// How many links ahead [`LinkExtractor::visit`] asks for a link's text:
/// about 3,000 instructions, enough for a load from memory to land. 6 and
/// 16 were measured; 16 did better.
const PREFETCH_AHEAD: usize = 16;

/// Asks the CPU to bring in the cache line of `bytes[at]`, without
/// waiting for it. Elsewhere than on x86-64, nothing.
#[inline(always)]
fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if at < bytes.len() {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: the pointer is inside `bytes`. A prefetch is a hint
        // besides: it reads nothing the program sees and cannot fault,
        // and SSE, which brings it, is in every x86-64 CPU.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().add(at).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, at);
}

/// A thread's buffer of raw links, kept from one document to the next.
///
/// A large page's raw links (28,582 of them, 2 MB, in the corpus's
/// 8 MB page) taken in fresh memory each time cost more in page faults
/// than their work: `perf stat -e page-faults` counted 640 a page read
/// in a loop, at about 2 µs each. A crawler, the check and the bench all
/// read page after page on one thread.
struct Scratch(Vec<RawLink>);

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<RawLink>> =
        const { std::cell::Cell::new(Vec::new()) };
}

impl Scratch {
    /// The buffer kept is at most this large, so that one huge page does
    /// not hold its memory for the thread's life.
    const MAX_KEPT: usize = 8 << 20;

    /// The thread's buffer, empty; a fresh one when it is in use (a
    /// sink that reads another page from inside its callback).
    fn take() -> Scratch {
        Scratch(SCRATCH.try_with(|s| s.take()).unwrap_or_default())
    }
}

impl std::ops::Deref for Scratch {
    type Target = Vec<RawLink>;
    fn deref(&self) -> &Vec<RawLink> {
        &self.0
    }
}

impl std::ops::DerefMut for Scratch {
    fn deref_mut(&mut self) -> &mut Vec<RawLink> {
        &mut self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.0);
        v.clear();
        if v.capacity() * std::mem::size_of::<RawLink>() <= Self::MAX_KEPT {
            // `try_with`: a thread being torn down keeps nothing.
            let _ = SCRATCH.try_with(|s| {
                // Keep the larger of two buffers (a nested read's).
                let old = s.take();
                s.set(if old.capacity() > v.capacity() { old } else { v });
            });
        }
    }
}

/// Where [`LinkExtractor::visit`] hands its links: told first how many
/// will come.
trait LinkSink {
    fn expect(&mut self, _count: usize) {}
    fn link(&mut self, link: LinkRef<'_>);
}

/// A caller's function, handed each link borrowed.
struct Each<'f, F>(&'f mut F);

impl<F: FnMut(LinkRef<'_>)> LinkSink for Each<'_, F> {
    fn link(&mut self, link: LinkRef<'_>) {
        (self.0)(link)
    }
}

/// Each link kept, for [`Links`].
struct Keep(Vec<Link>);

impl LinkSink for Keep {
    fn expect(&mut self, count: usize) {
        self.0.reserve_exact(count);
    }
    fn link(&mut self, link: LinkRef<'_>) {
        self.0.push(link.to_link());
    }
}

/// The base in effect for a page: the caller's, else the document's
/// `<base href>` resolved against the page URL, else the page URL.
fn resolution_base(
    page: &Page<'_>,
    html_base: Option<&str>,
) -> Option<target::Base> {
    if let Some(b) = page.base {
        return target::Base::new(Some(b), None);
    }
    if let Some(h) = html_base {
        // Resolved against the page like any of its links (a root-relative
        // base goes under the root).
        let resolved = match target::Base::new(page.url, page.root) {
            Some(u) => u.resolver().resolve(h).ok(),
            None => Some(h.to_owned()),
        };
        if let Some(r) = resolved {
            // A base that is still a file (a built site's `<base
            // href="sub/">`) keeps the root for root-relative links.
            let root = page.root.filter(|_| r.starts_with("file:"));
            return target::Base::new(Some(&r), root);
        }
    }
    target::Base::new(page.url, page.root)
}

/// With no base, a link has no target; it is still malformed or not.
fn repair_error(link: &str) -> Option<LinkError> {
    let repaired = repair(link, false);
    crate::syntax::Parser::new()
        .iri(true)
        .parse_reference(&repaired)
        .err()
        .map(LinkError::Invalid)
}

/// The links of one document, in document order.
#[derive(Debug)]
pub struct Links {
    inner: std::vec::IntoIter<Link>,
}

impl Iterator for Links {
    type Item = Link;
    fn next(&mut self) -> Option<Link> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for Links {}

#[cfg(test)]
mod conformance;
