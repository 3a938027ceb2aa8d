//! The extraction driver: [`LinkExtractor`] reads a [`Page`] with the
//! reader of its format, then resolves and hands out each link in
//! document order.

use std::borrow::Cow;

use super::link::KeptLinks;
use super::scratch::Scratch;
use super::{
    BaseScheme, Format, Link, LinkError, LinkRef, MarkdownParser, Page, Place,
    charset, repair, target, text_of,
};
use crate::Span;
use crate::scanning::Finder;

/// Configures a [`LinkExtractor`].
#[derive(Clone, Debug)]
pub struct LinkExtractorBuilder {
    include_code: bool,
    include_text: bool,
    gfm: bool,
    markdown_parser: MarkdownParser,
    finder: Option<Finder>,
    #[cfg(feature = "url-standard")]
    url_standard: bool,
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
            markdown_parser: MarkdownParser::default(),
            finder: None,
            #[cfg(feature = "url-standard")]
            url_standard: false,
        }
    }
    /// Whether the URIs in Markdown code spans and blocks are listed, as
    /// [`Kind::Code`](super::Kind::Code). Default: no.
    pub fn include_code(&mut self, yes: bool) -> &mut Self {
        self.include_code = yes;
        self
    }
    /// Whether the bare URIs in HTML text are listed, as [`Kind::Text`](super::Kind::Text).
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
    /// Which reader reads Markdown: both give the same links.
    /// Default: [`MarkdownParser::Uriscan`]; pulldown-cmark stays as
    /// the choice of a user who meets a difference.
    pub fn markdown_parser(&mut self, parser: MarkdownParser) -> &mut Self {
        self.markdown_parser = parser;
        self
    }
    /// The finder for bare URIs in text. Default: [`Finder::new`].
    pub fn finder(&mut self, finder: Finder) -> &mut Self {
        self.finder = Some(finder);
        self
    }
    /// Whether a link's target is the URL Standard's parse of the link
    /// against its base ([`url_standard_target`](super::url_standard_target):
    /// what a browser fetches) rather than its RFC 3986 resolution; a link
    /// the URL Standard rejects gets [`LinkErrorKind::UrlStandard`](super::LinkErrorKind::UrlStandard).
    /// Root-relative links do not go under a page's root in this mode.
    /// Default: no.
    #[cfg(feature = "url-standard")]
    pub fn url_standard(&mut self, yes: bool) -> &mut Self {
        self.url_standard = yes;
        self
    }
    /// The extractor.
    pub fn build(&self) -> LinkExtractor {
        LinkExtractor {
            include_code: self.include_code,
            include_text: self.include_text,
            gfm: self.gfm,
            markdown_parser: self.markdown_parser,
            finder: self.finder.clone().unwrap_or_default(),
            #[cfg(feature = "url-standard")]
            url_standard: self.url_standard,
        }
    }
}

/// A Markdown page's outline, with the text its offsets are in.
#[cfg(feature = "check")]
pub(crate) type OutlineIn<'p> =
    (super::commonmark::outline::Outline, Cow<'p, str>);

/// Reads documents for their links. Build it once and share it: it is
/// `Send + Sync`, and holds no per-document state.
///
/// Each thread that reads a page keeps the buffer of the page's links, up
/// to 8 MB, for its next page: the pages of a crawl or a site, read one
/// after another, then take no fresh memory for it.
#[derive(Clone, Debug)]
pub struct LinkExtractor {
    pub(super) include_code: bool,
    pub(super) include_text: bool,
    pub(super) gfm: bool,
    pub(super) markdown_parser: MarkdownParser,
    pub(super) finder: Finder,
    #[cfg(feature = "url-standard")]
    pub(super) url_standard: bool,
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

    /// Whether targets are the URL Standard's
    /// ([`LinkExtractorBuilder::url_standard`]).
    fn url_standard(&self) -> bool {
        #[cfg(feature = "url-standard")]
        return self.url_standard;
        #[cfg(not(feature = "url-standard"))]
        false
    }

    /// The links of `page`, in document order.
    ///
    /// A document's links are gathered whole before the first is handed
    /// out, since a `<base href>` anywhere in it changes them all.
    pub fn extract(&self, page: &Page<'_>) -> Links {
        self.extract_inner(page, &mut None)
    }

    /// The links of `page`, and for an HTML page its anchors: the fragment
    /// identifiers a link's `#fragment` can reach (every element's `id`,
    /// every `a@name`; for AsciiDoc, its section ids and anchors), read in
    /// the same pass: what a link checker needs
    /// of each document it reads.
    pub fn extract_with_anchors(
        &self,
        page: &Page<'_>,
    ) -> (Links, Option<Vec<String>>) {
        let mut ids = matches!(page.format, Format::Html | Format::AsciiDoc)
            .then(Vec::new);
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
        self.visit(page, &mut None, None, &mut CallEach(&mut f));
    }

    /// [`for_each`](LinkExtractor::for_each), and for an HTML or AsciiDoc
    /// page its anchors, as [`extract_with_anchors`](LinkExtractor::extract_with_anchors)
    /// gives them.
    pub fn for_each_with_anchors(
        &self,
        page: &Page<'_>,
        mut f: impl FnMut(LinkRef<'_>),
    ) -> Option<Vec<String>> {
        let mut ids = matches!(page.format, Format::Html | Format::AsciiDoc)
            .then(Vec::new);
        self.visit(page, &mut ids, None, &mut CallEach(&mut f));
        ids
    }

    /// [`for_each_with_anchors`](LinkExtractor::for_each_with_anchors),
    /// and a Markdown page's outline (what its anchors need) when our
    /// reader reads it with the GitHub extensions, from the same passes,
    /// with the text its offsets are in.
    #[cfg(feature = "check")]
    pub(crate) fn for_each_with_outline<'p>(
        &self,
        page: &Page<'p>,
        mut f: impl FnMut(LinkRef<'_>),
    ) -> (Option<Vec<String>>, Option<OutlineIn<'p>>) {
        let mut ids = matches!(page.format, Format::Html | Format::AsciiDoc)
            .then(Vec::new);
        let mut outline = None;
        let sink = &mut CallEach(&mut f);
        self.visit(page, &mut ids, Some(&mut outline), sink);
        // The text as the Markdown reader decoded it.
        let text = || charset::Decoded::utf8(page.bytes).text;
        (ids, outline.map(|o| (o, text())))
    }

    fn extract_inner(
        &self,
        page: &Page<'_>,
        ids: &mut Option<Vec<String>>,
    ) -> Links {
        let mut keep = KeptLinks::take();
        self.visit(page, ids, None, &mut keep);
        Links { inner: keep.into_links().into_iter() }
    }

    fn visit(
        &self,
        page: &Page<'_>,
        ids: &mut Option<Vec<String>>,
        outline: Option<&mut Option<super::commonmark::outline::Outline>>,
        sink: &mut dyn LinkSink,
    ) {
        let mut raw = Scratch::take();
        let (decoded, html_base) = self.read(page, &mut raw, ids, outline);
        raw.sort_by_key(|l| l.span().start);
        sink.expect(raw.len());
        let base = resolution_base(page, html_base.as_deref());
        let own_base = html_base.is_some() && page.base.is_none();
        // `<base href>` itself resolves against the page, not itself; a
        // document with no `<base href>` of its own never needs that.
        let page_base = if own_base {
            target::Base::new(page.url, page.root)
        } else {
            None
        };
        let resolver = base.as_ref().map(target::Base::resolver);
        let page_resolver = page_base.as_ref().map(target::Base::resolver);
        let standard_bases = StandardBases::default();
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
                prefetch(text, ahead.span().start);
            }
            let start = decoded.byte_offset(r.span().start);
            let end = decoded.byte_offset(r.span().end);
            // Only a document's own `<base href>` changes the base, and
            // only where the caller gave none.
            let is_base = own_base
                && r.kind.html_attr().is_some_and(|a| a.element() == "base");
            let resolver = if is_base { &page_resolver } else { &resolver };
            // A span on character boundaries (all of them, but for a
            // guard) is text already: no UTF-8 check of its bytes.
            let raw = match decoded.text.get(r.span().range()) {
                Some(s) => Cow::Borrowed(s),
                None => text_of(&text[r.span().range()]),
            };
            let link = r.link().unwrap_or(&raw);
            target.clear();
            let undefined =
                r.extra().and_then(|e| e.undefined_attribute.as_deref());
            let (resolved, error) = match resolver {
                // A label, a term or another project's name: no URI.
                _ if !r.kind.resolves() => (false, None),
                _ if undefined.is_some() => {
                    (false, undefined.map(LinkError::undefined_attribute))
                }
                _ if self.url_standard() => {
                    let base = if is_base { &page_base } else { &base };
                    standard_bases.target_into(
                        is_base,
                        base.as_ref(),
                        link,
                        decoded.encoding,
                        &mut target,
                    )
                }
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
                place: Place::Counted { lines: &lines, at: r.span().start },
                raw: &raw,
                link,
                target: resolved.then_some(target.as_str()),
                error: error.as_ref(),
                extra: r.extra(),
            });
        }
    }
}

/// The URL Standard's parses of a document's two bases (its own, and the
/// page's for a `<base href>`), each at its first link.
#[derive(Default)]
struct StandardBases {
    #[cfg(feature = "url-standard")]
    document: std::cell::OnceCell<super::url_standard::StandardBase>,
    #[cfg(feature = "url-standard")]
    page: std::cell::OnceCell<super::url_standard::StandardBase>,
}

impl StandardBases {
    /// The URL Standard's target of `link` against `base` (the page's when
    /// `is_page`), in a document of `encoding`, in `target`: whether
    /// there is one, else the error.
    #[cfg(feature = "url-standard")]
    fn target_into(
        &self,
        is_page: bool,
        base: Option<&target::Base>,
        link: &str,
        encoding: &'static encoding_rs::Encoding,
        target: &mut String,
    ) -> (bool, Option<LinkError>) {
        let parsed = if is_page { &self.page } else { &self.document };
        let parsed = parsed.get_or_init(|| {
            super::url_standard::StandardBase::new(
                base.map(target::Base::as_str),
            )
        });
        match parsed.target_into(link, encoding, target) {
            Ok(()) => (true, None),
            Err(e) => (false, Some(LinkError::url_standard(e))),
        }
    }

    /// Never called: without the feature no extractor is in the mode.
    #[cfg(not(feature = "url-standard"))]
    fn target_into(
        &self,
        _: bool,
        _: Option<&target::Base>,
        _: &str,
        _: &'static encoding_rs::Encoding,
        _: &mut String,
    ) -> (bool, Option<LinkError>) {
        (false, None)
    }
}

/// How many links ahead [`LinkExtractor::visit`] asks for a link's text:
/// far enough for a load from memory to land before the link's turn.
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

/// Where [`LinkExtractor::visit`] hands its links: told first how many
/// will come.
trait LinkSink {
    fn expect(&mut self, _count: usize) {}
    fn link(&mut self, link: LinkRef<'_>);
}

/// A caller's function, handed each link borrowed.
struct CallEach<'f, F>(&'f mut F);

impl<F: FnMut(LinkRef<'_>)> LinkSink for CallEach<'_, F> {
    fn link(&mut self, link: LinkRef<'_>) {
        (self.0)(link)
    }
}

/// Each link kept, for [`Links`].
impl LinkSink for KeptLinks {
    fn expect(&mut self, count: usize) {
        self.reserve(count);
    }
    fn link(&mut self, link: LinkRef<'_>) {
        self.push(link);
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
pub(super) fn repair_error(link: &str) -> Option<LinkError> {
    let repaired = repair(link, BaseScheme::Other);
    crate::syntax::Parser::new()
        .iri(true)
        .parse_reference(&repaired)
        .err()
        .map(LinkError::invalid)
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
