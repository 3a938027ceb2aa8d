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
//!   [`Finder`](crate::scanning::Finder); links in raw HTML by the HTML
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

mod asciidoc;
mod browser_reading;
mod charset;
mod commonmark;
mod extractor;
mod generators;
// Built for its tests too, where only some hooks are used.
#[cfg(any(test, feature = "internals"))]
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub(crate) mod hooks;
mod html;
mod kind;
mod link;
mod markdown;
mod md_references;
mod myst;
#[cfg(any(test, feature = "internals"))]
mod oracle;
mod page;
mod raw_link;
mod read;
#[cfg(any(feature = "check", feature = "warc"))]
pub(crate) mod reader_api;
mod rst;
mod scratch;
mod shortcut;
mod target;
mod tokenizer;
#[cfg(feature = "url-standard")]
mod url_standard;

pub use asciidoc::{
    AsciidocInclude, IncludeSelection, Selected, includes as asciidoc_includes,
};
pub use browser_reading::{BrowserReading, browser_reading};
pub use extractor::{LinkExtractor, LinkExtractorBuilder, Links};
pub use generators::GeneratorKind;
#[cfg(feature = "check")]
pub(crate) use generators::jekyll_url_expression;
pub use generators::mdx::{MdxError, mdx_error};

#[cfg(feature = "check")]
pub(crate) use generators::includes::directives;
#[cfg(feature = "check")]
pub(crate) use generators::includes::may_hold_directive;

/// The Markdown of an MDX document: its ESM and expressions blanked.
#[cfg(feature = "check")]
pub(crate) fn mdx_markdown(text: &str) -> String {
    generators::mdx::read(text, &mut vec![]).markdown
}

/// An MDX document's own links (imports, `require`s, `<Link to>`): each
/// one's kind, where its text starts, and its path.
#[cfg(feature = "check")]
pub(crate) fn mdx_links(text: &str) -> Vec<(Kind, usize, String)> {
    let mut out = vec![];
    generators::mdx::read(text, &mut out);
    out.into_iter()
        .map(|l| {
            let written = &text.as_bytes()[l.span().range()];
            let path = match l.link() {
                Some(link) => link.to_string(),
                None => String::from_utf8_lossy(written).into_owned(),
            };
            (l.kind, l.span().start, path)
        })
        .collect()
}
pub use kind::{HtmlAttr, Kind, Role};
pub use link::{Link, LinkRef, Reference};
pub use markdown::MarkdownParser;
#[cfg(feature = "internals")]
pub(crate) use myst::hooks as myst_hooks;
#[cfg(feature = "check")]
pub use myst::relative_includes;
pub use myst::{MystKind, MystSettings, RelativeInclude};
#[cfg(feature = "check")]
pub(crate) use myst::{
    anchors as myst_anchors, conf_assigned, conf_strings,
    labels as myst_labels, unread_setting,
};
pub use page::{Format, Page};
pub use rst::RstKind;
#[cfg(feature = "internals")]
pub(crate) use rst::hooks as rst_hooks;
#[cfg(feature = "check")]
pub(crate) use rst::{
    anchors as rst_anchors, glossary_terms, label_key, labels as rst_labels,
};
pub use target::{
    BaseScheme, LinkError, LinkErrorKind, PathKind, file_path, file_uri,
    percent_decode, repair,
};
#[cfg(feature = "check")]
pub(crate) use target::{file_path_bytes, path_from_bytes};
#[cfg(feature = "url-standard")]
pub use url_standard::{UrlStandardError, url_standard_target};

use link::{Extra, Place};
use raw_link::{RawLink, text_of};

#[cfg(test)]
mod conformance;
