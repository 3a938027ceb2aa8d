//! What a link is: where it was found ([`Kind`], [`HtmlAttr`]) and what
//! following it does ([`Role`]).

use std::fmt;

/// An HTML element and one of its attributes, lowercase.
// Each name is a thin pointer to a `&str` of the link table, so that a
// `Kind`, held for every link, stays small. Equality and hashing are of
// the names, not the pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HtmlAttr {
    pub(super) element: &'static &'static str,
    pub(super) attribute: &'static &'static str,
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
    /// An entry of a site generator's navigation (MkDocs `nav`, a
    /// Docusaurus sidebar): `site:nav`.
    SiteNav,
    /// A reStructuredText (Sphinx) link: `rst:*`.
    Rst(super::RstKind),
    /// An AsciiDoc URL macro (`https://x.example[text]`), `link:` or
    /// `mailto:` macro: `adoc:link`.
    AdocLink,
    /// A bare URL in AsciiDoc text: `adoc:url`.
    AdocUrl,
    /// An AsciiDoc cross-reference, `<<id>>` or `xref:`: `adoc:xref`.
    AdocXref,
    /// An AsciiDoc image, `image::` or `image:`: `adoc:image`.
    AdocImage,
    /// An AsciiDoc `include::` directive: `adoc:include`.
    AdocInclude,
    /// A site generator's own link syntax in Markdown (Hugo's `ref`,
    /// Jekyll's `link`, ...): `hugo:ref`, `jekyll:link`, ...
    Generator(super::GeneratorKind),
    /// A MyST link (Markdown in a Sphinx project): `myst:*`.
    Myst(super::MystKind),
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
    /// The kind's name, as the JSON output of `uriscan links` writes it
    /// and `Display` prints it: `md:link`, `html:a@href`, `text`, ...
    ///
    /// ```
    /// use uriscan::links::{Format, Kind, LinkExtractor, Page};
    ///
    /// let page = Page::new(br#"<img src="a.png">"#, Format::Html);
    /// let link = LinkExtractor::new().extract(&page).next().unwrap();
    /// assert_eq!(link.kind().as_str(), "html:img@src");
    /// assert_eq!(Kind::MdAutolink.as_str(), "md:autolink");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Kind::MdLink => "md:link",
            Kind::MdImage => "md:image",
            Kind::MdDefinition => "md:definition",
            Kind::MdAutolink => "md:autolink",
            Kind::MdHtml(_) => "md:html",
            Kind::Html(a) => super::html::html_kind_name(*a),
            Kind::Text => "text",
            Kind::Code => "code",
            Kind::HttpLocation => "http:location",
            Kind::HttpContentLocation => "http:content-location",
            Kind::HttpLink => "http:link",
            Kind::SiteNav => "site:nav",
            Kind::Rst(k) => k.as_str(),
            Kind::AdocLink => "adoc:link",
            Kind::AdocUrl => "adoc:url",
            Kind::AdocXref => "adoc:xref",
            Kind::AdocImage => "adoc:image",
            Kind::AdocInclude => "adoc:include",
            Kind::Generator(k) => k.as_str(),
            Kind::Myst(k) => k.as_str(),
        }
    }

    /// Whether the link is a URI reference that resolves against the
    /// document's base: all but the reStructuredText and MyST kinds that
    /// name a label, a term or another project
    /// ([`RstKind::resolves`](super::RstKind::resolves),
    /// [`MystKind::resolves`](super::MystKind::resolves)).
    pub fn resolves(&self) -> bool {
        match self {
            Kind::Rst(k) => k.resolves(),
            Kind::Myst(k) => k.resolves(),
            _ => true,
        }
    }

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
            Kind::Html(a) => {
                write!(f, "html:{}@{}", a.element(), a.attribute())
            }
            _ => f.write_str(self.as_str()),
        }
    }
}
