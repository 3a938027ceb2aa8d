//! Which attributes of which HTML elements hold links, and how a value
//! holds them: one URL, a list, a `srcset`, or a meta refresh.
//!
//! The table follows the HTML standard's index of attributes (the ones
//! whose value is a "valid URL", a list of them, or an image candidate
//! string), the obsolete attributes that still carry URLs in old pages
//! (section 16.2 of the standard), and the SVG elements that refer to a
//! resource with `href` or `xlink:href`. For crawlers it adds the lazy
//! loading attributes (`data-src`, `data-srcset`), the Open Graph and
//! Twitter card metas (`og:url`, `og:image`, `twitter:image`) and CSS
//! `url()` in `style` attributes and `<style>` elements. `usemap`, other
//! `data-*` and other `meta content` are not links here.
//!
//! CSS is read as crawlers read it, by a small scan and not a CSS parser:
//! `url(...)` tokens (quoted or not, `\` escapes left as written) in the
//! first [`CSS_SCAN`] bytes of each `<style>` element and `style`
//! attribute, and at most [`CSS_MAX_URLS`] of them per document, so that
//! a page of generated CSS costs a bounded time.

use crate::Span;

use super::tokenizer::{Content, StartTag, TagSink, Wanted};
use super::{Extra, HtmlAttr, RawLink, Role, text_of};

/// The bytes of each `<style>` element or `style` attribute scanned for
/// `url()`.
pub(crate) const CSS_SCAN: usize = 64 * 1024;

/// The most CSS `url()` links taken from one document.
pub(crate) const CSS_MAX_URLS: usize = 1024;

/// How an attribute's value holds its links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// One URL, with leading and trailing ASCII whitespace stripped.
    Url,
    /// URLs separated by ASCII whitespace (`ping`, `archive`, `profile`).
    List,
    /// An image candidate string: URLs each followed by descriptors,
    /// separated by commas (`srcset`, `imagesrcset`).
    SrcSet,
    /// `<meta http-equiv="refresh" content="5; url=...">`.
    Refresh,
    /// CSS: the `url()` tokens of a `style` attribute.
    Css,
}

/// Elements of SVG that refer to a resource with `href`/`xlink:href`
/// (lowercased, as the tokenizer gives them).
const SVG_HREF: &[&str] = &[
    "a",
    "image",
    "use",
    "feimage",
    "pattern",
    "lineargradient",
    "radialgradient",
    "textpath",
    "filter",
    "mpath",
    "tref",
    "script",
    "animate",
    "animatemotion",
    "animatetransform",
    "set",
    "cursor",
];

/// The elements that hold a link in attribute `attr`, the attribute's
/// static name, and how its value holds the links: the one table that
/// both [`link_attr`] and the tag layer's choice of values to copy read.
pub(super) fn link_attr_elements(
    attr: &[u8],
) -> Option<(&'static [&'static [&'static str]], &'static &'static str, Value)>
{
    Some(match attr {
        b"href" => {
            (&[&["a", "area", "link", "base"], SVG_HREF], &"href", Value::Url)
        }
        b"xlink:href" => (&[SVG_HREF], &"xlink:href", Value::Url),
        b"src" => (
            &[&[
                "img", "script", "iframe", "embed", "track", "input", "audio",
                "video", "source", "frame",
            ]],
            &"src",
            Value::Url,
        ),
        b"srcset" => (&[&["img", "source"]], &"srcset", Value::SrcSet),
        // Lazy loading: the image scripts swap in.
        b"data-src" => (
            &[&["img", "iframe", "source", "video", "audio", "embed"]],
            &"data-src",
            Value::Url,
        ),
        b"data-srcset" => {
            (&[&["img", "source"]], &"data-srcset", Value::SrcSet)
        }
        b"imagesrcset" => (&[&["link"]], &"imagesrcset", Value::SrcSet),
        b"ping" => (&[&["a", "area"]], &"ping", Value::List),
        b"poster" => (&[&["video"]], &"poster", Value::Url),
        b"action" => (&[&["form"]], &"action", Value::Url),
        b"formaction" => (&[&["button", "input"]], &"formaction", Value::Url),
        b"data" => (&[&["object"]], &"data", Value::Url),
        b"cite" => {
            (&[&["blockquote", "q", "del", "ins"]], &"cite", Value::Url)
        }
        // Obsolete, still met in old pages (HTML standard 16.2).
        b"longdesc" => {
            (&[&["img", "iframe", "frame"]], &"longdesc", Value::Url)
        }
        b"background" => (
            &[&["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"]],
            &"background",
            Value::Url,
        ),
        b"lowsrc" => (&[&["img"]], &"lowsrc", Value::Url),
        b"dynsrc" => (&[&["img"]], &"dynsrc", Value::Url),
        b"codebase" => (&[&["object", "applet"]], &"codebase", Value::Url),
        b"classid" => (&[&["object"]], &"classid", Value::Url),
        b"archive" => (&[&["object", "applet"]], &"archive", Value::List),
        b"manifest" => (&[&["html"]], &"manifest", Value::Url),
        b"profile" => (&[&["head"]], &"profile", Value::List),
        _ => return None,
    })
}

/// Whether some attribute of `element` is a link by [`link_attr_elements`]
/// (every list of the table, a `meta` with its `content`): the other
/// elements (`p`, `div`, `span`, most of a page) can hold a link only in
/// `style`. A test holds this to the table.
fn link_element(element: &[u8]) -> bool {
    matches!(
        element,
        b"a" | b"area"
            | b"link"
            | b"base"
            | b"meta"
            | b"image"
            | b"use"
            | b"feimage"
            | b"pattern"
            | b"lineargradient"
            | b"radialgradient"
            | b"textpath"
            | b"filter"
            | b"mpath"
            | b"tref"
            | b"script"
            | b"animate"
            | b"animatemotion"
            | b"animatetransform"
            | b"set"
            | b"cursor"
            | b"img"
            | b"iframe"
            | b"embed"
            | b"track"
            | b"input"
            | b"audio"
            | b"video"
            | b"source"
            | b"frame"
            | b"form"
            | b"button"
            | b"object"
            | b"applet"
            | b"blockquote"
            | b"q"
            | b"del"
            | b"ins"
            | b"body"
            | b"table"
            | b"thead"
            | b"tbody"
            | b"tfoot"
            | b"tr"
            | b"td"
            | b"th"
            | b"html"
            | b"head"
    )
}

/// Whether a start tag named `name` in foreign content is HTML's all the
/// same (it breaks out of foreign content, HTML standard 13.2.6.5): of
/// the elements with links, these.
fn breaks_out(name: &[u8]) -> bool {
    matches!(
        name,
        b"blockquote"
            | b"body"
            | b"embed"
            | b"head"
            | b"img"
            | b"meta"
            | b"table"
    )
}

/// The link attribute `attr` of `element`, if it is one, with the static
/// names that a link's kind carries.
pub(crate) fn link_attr(
    element: &[u8],
    attr: &[u8],
) -> Option<(HtmlAttr, Value)> {
    if attr == b"style" {
        return Some((
            HtmlAttr { element: &"*", attribute: &"style" },
            Value::Css,
        ));
    }
    let (lists, attribute, value) = link_attr_elements(attr)?;
    lists
        .iter()
        .flat_map(|l| l.iter())
        .find(|e| e.as_bytes() == element)
        .map(|element| (HtmlAttr { element, attribute }, value))
}

/// The name of each kind of HTML link, as [`Kind`](super::Kind) writes it
/// (`html:ELEMENT@ATTRIBUTE`): one for each pair of the link table, the
/// `style` attribute and element, and the metas. A test holds it to the
/// table.
const HTML_KIND_NAMES: &[&str] = &[
    "html:a@href",
    "html:area@href",
    "html:link@href",
    "html:base@href",
    "html:image@href",
    "html:use@href",
    "html:feimage@href",
    "html:pattern@href",
    "html:lineargradient@href",
    "html:radialgradient@href",
    "html:textpath@href",
    "html:filter@href",
    "html:mpath@href",
    "html:tref@href",
    "html:script@href",
    "html:animate@href",
    "html:animatemotion@href",
    "html:animatetransform@href",
    "html:set@href",
    "html:cursor@href",
    "html:a@xlink:href",
    "html:image@xlink:href",
    "html:use@xlink:href",
    "html:feimage@xlink:href",
    "html:pattern@xlink:href",
    "html:lineargradient@xlink:href",
    "html:radialgradient@xlink:href",
    "html:textpath@xlink:href",
    "html:filter@xlink:href",
    "html:mpath@xlink:href",
    "html:tref@xlink:href",
    "html:script@xlink:href",
    "html:animate@xlink:href",
    "html:animatemotion@xlink:href",
    "html:animatetransform@xlink:href",
    "html:set@xlink:href",
    "html:cursor@xlink:href",
    "html:img@src",
    "html:script@src",
    "html:iframe@src",
    "html:embed@src",
    "html:track@src",
    "html:input@src",
    "html:audio@src",
    "html:video@src",
    "html:source@src",
    "html:frame@src",
    "html:img@srcset",
    "html:source@srcset",
    "html:img@data-src",
    "html:iframe@data-src",
    "html:source@data-src",
    "html:video@data-src",
    "html:audio@data-src",
    "html:embed@data-src",
    "html:img@data-srcset",
    "html:source@data-srcset",
    "html:link@imagesrcset",
    "html:a@ping",
    "html:area@ping",
    "html:video@poster",
    "html:form@action",
    "html:button@formaction",
    "html:input@formaction",
    "html:object@data",
    "html:blockquote@cite",
    "html:q@cite",
    "html:del@cite",
    "html:ins@cite",
    "html:img@longdesc",
    "html:iframe@longdesc",
    "html:frame@longdesc",
    "html:body@background",
    "html:table@background",
    "html:thead@background",
    "html:tbody@background",
    "html:tfoot@background",
    "html:tr@background",
    "html:td@background",
    "html:th@background",
    "html:img@lowsrc",
    "html:img@dynsrc",
    "html:object@codebase",
    "html:applet@codebase",
    "html:object@classid",
    "html:object@archive",
    "html:applet@archive",
    "html:html@manifest",
    "html:head@profile",
    "html:*@style",
    "html:style@url()",
    "html:meta@refresh",
    "html:meta@og:url",
    "html:meta@og:image",
    "html:meta@twitter:image",
];

/// The name of the kind of a link in `attr`, from [`HTML_KIND_NAMES`];
/// `html` for a pair not in the table, which the crate never makes.
pub(super) fn html_kind_name(attr: HtmlAttr) -> &'static str {
    HTML_KIND_NAMES
        .iter()
        .find(|name| {
            name.strip_prefix("html:").and_then(|n| n.split_once('@'))
                == Some((attr.element(), attr.attribute()))
        })
        .copied()
        .unwrap_or("html")
}

fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Strips ASCII whitespace: the range of `v` that is left.
fn trim(v: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut s = start;
    let mut e = end;
    while s < e && is_ws(v[s]) {
        s += 1;
    }
    while e > s && is_ws(v[e - 1]) {
        e -= 1;
    }
    (s, e)
}

/// The links of one value, as ranges of the (decoded) value.
pub(crate) fn split_value(
    kind: Value,
    v: &[u8],
    out: &mut Vec<(usize, usize)>,
) {
    match kind {
        Value::Url => out.push(trim(v, 0, v.len())),
        Value::List => {
            let mut i = 0;
            while i < v.len() {
                while i < v.len() && is_ws(v[i]) {
                    i += 1;
                }
                let s = i;
                while i < v.len() && !is_ws(v[i]) {
                    i += 1;
                }
                if i > s {
                    out.push((s, i));
                }
            }
        }
        Value::SrcSet => srcset(v, out),
        Value::Refresh => {
            if let Some(r) = refresh_url(v) {
                out.push(r);
            }
        }
        Value::Css => css_urls(&v[..v.len().min(CSS_SCAN)], out),
    }
}

/// The values of the `url(...)` tokens of CSS (CSS Syntax 3, 4.3.6): the
/// name case-insensitive, whitespace inside the parentheses skipped, the
/// value quoted (to the matching quote) or not (to `)` or whitespace).
/// Comments are not skipped: a commented-out `url()` is listed, as
/// crawlers do.
pub(crate) fn css_urls(v: &[u8], out: &mut Vec<(usize, usize)>) {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'(', &v[from..]).map(|i| from + i) {
        from = i + 1;
        if i < 3 || !v[i - 3..i].eq_ignore_ascii_case(b"url") {
            continue;
        }
        // `url(` is a token only at an identifier's start.
        if i > 3
            && (v[i - 4].is_ascii_alphanumeric()
                || matches!(v[i - 4], b'-' | b'_'))
        {
            continue;
        }
        let mut s = i + 1;
        while s < v.len() && is_ws(v[s]) {
            s += 1;
        }
        let (s, e) = match v.get(s) {
            Some(&q @ (b'"' | b'\'')) => {
                let s = s + 1;
                match memchr::memchr(q, &v[s..]) {
                    Some(n) => (s, s + n),
                    None => continue,
                }
            }
            _ => {
                let n = v[s..]
                    .iter()
                    .position(|&b| b == b')' || is_ws(b))
                    .unwrap_or(v.len() - s);
                (s, s + n)
            }
        };
        let (s, e) = trim(v, s, e);
        if e > s {
            out.push((s, e));
        }
        from = e.max(from);
    }
}

/// The role of a link in the attribute `a`, its element's `rel` tested
/// by `has_rel`.
pub(crate) fn role(a: HtmlAttr, has_rel: impl Fn(&str) -> bool) -> Role {
    match (a.element(), a.attribute()) {
        ("a" | "area", _) | ("form", "action") | ("meta", "refresh") => {
            Role::Navigate
        }
        (_, "formaction") => Role::Navigate,
        ("link", "imagesrcset") => Role::Embed,
        ("link", _) if rel_embeds(has_rel) => Role::Embed,
        ("link" | "base" | "meta" | "blockquote" | "q" | "del" | "ins", _)
        | ("html", "manifest")
        | ("head", "profile") => Role::Other,
        (_, "cite" | "longdesc" | "ping" | "codebase" | "classid") => {
            Role::Other
        }
        _ => Role::Embed,
    }
}

/// Whether a `rel` makes the page load the link to render itself.
pub(crate) fn rel_embeds(has_rel: impl Fn(&str) -> bool) -> bool {
    ["stylesheet", "icon", "preload", "modulepreload", "apple-touch-icon"]
        .iter()
        .any(|t| has_rel(t))
}

/// The Open Graph and Twitter card metas whose `content` is a URL: the
/// `property` (or `name`) value and the kind's static name.
fn meta_url(tag: &StartTag) -> Option<HtmlAttr> {
    static METAS: [&str; 3] = ["og:url", "og:image", "twitter:image"];
    let key = tag.attr(b"property").or_else(|| tag.attr(b"name"))?;
    let key = key.value.trim_ascii();
    METAS
        .iter()
        .find(|m| key.eq_ignore_ascii_case(m.as_bytes()))
        .map(|attribute| HtmlAttr { element: &"meta", attribute })
}

/// The URLs of an image candidate string, by the HTML standard's "parse a
/// srcset attribute" (4.8.4.3.10): skip whitespace and commas, take the
/// URL up to whitespace (a URL ending in commas loses them and has no
/// descriptors), then skip the descriptors up to a comma outside
/// parentheses.
pub(crate) fn srcset(v: &[u8], out: &mut Vec<(usize, usize)>) {
    let mut i = 0;
    loop {
        while i < v.len() && (is_ws(v[i]) || v[i] == b',') {
            i += 1;
        }
        if i >= v.len() {
            return;
        }
        let s = i;
        while i < v.len() && !is_ws(v[i]) {
            i += 1;
        }
        let mut e = i;
        if v[e - 1] == b',' {
            while e > s && v[e - 1] == b',' {
                e -= 1;
            }
            if e > s {
                out.push((s, e));
            }
            continue;
        }
        out.push((s, e));
        // Descriptors: up to a comma that is not inside parentheses.
        let mut depth = 0u32;
        while i < v.len() {
            match v[i] {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
    }
}

/// The URL of a refresh declaration, by the HTML standard's "shared
/// declarative refresh steps" (7.11.1): a time (digits and dots), then
/// optionally `;` or `,`, then optionally `url=`, then the URL, in
/// matching quotes or to the end.
pub(crate) fn refresh_url(v: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < v.len() && is_ws(v[i]) {
        i += 1;
    }
    let digits = i;
    while i < v.len() && v[i].is_ascii_digit() {
        i += 1;
    }
    while i < v.len() && (v[i].is_ascii_digit() || v[i] == b'.') {
        i += 1;
    }
    if i == digits && v.get(i) != Some(&b'.') {
        return None;
    }
    while i < v.len() && is_ws(v[i]) {
        i += 1;
    }
    if i < v.len() && (v[i] == b';' || v[i] == b',') {
        i += 1;
    } else if i < v.len() {
        return None;
    }
    while i < v.len() && is_ws(v[i]) {
        i += 1;
    }
    if i >= v.len() {
        return None;
    }
    // `url` (any case), whitespace, `=`, whitespace.
    let mut j = i;
    if v.len() >= j + 3 && v[j..j + 3].eq_ignore_ascii_case(b"url") {
        j += 3;
        while j < v.len() && is_ws(v[j]) {
            j += 1;
        }
        if j < v.len() && v[j] == b'=' {
            j += 1;
            while j < v.len() && is_ws(v[j]) {
                j += 1;
            }
            i = j;
        }
    }
    let (mut s, mut e) = (i, v.len());
    if s < e && (v[s] == b'"' || v[s] == b'\'') {
        let q = v[s];
        s += 1;
        e = v[s..].iter().position(|&b| b == q).map_or(v.len(), |p| s + p);
    }
    let (s, e) = trim(v, s, e);
    (e > s).then_some((s, e))
}

/// The raw bytes a range of a decoded value came from. Exact when the
/// value has no character reference (its decoded bytes are its raw
/// bytes, as the tokenizer tells with `verbatim`, or as they compare);
/// otherwise the whole raw value, trimmed, for a one-URL value, and the
/// decoded piece's place found in the raw value, or the value's start,
/// for a piece of a list.
pub(crate) fn raw_range(
    src: &[u8],
    raw: Span,
    value: &[u8],
    verbatim: bool,
    piece: (usize, usize),
    whole: bool,
) -> Span {
    let written = &src[raw.range()];
    if verbatim || written == value {
        return Span::new(raw.start + piece.0, raw.start + piece.1);
    }
    if whole {
        let (s, e) = trim(written, 0, written.len());
        return Span::new(raw.start + s, raw.start + e);
    }
    let p = &value[piece.0..piece.1];
    match memchr::memmem::find(written, p) {
        Some(i) => Span::new(raw.start + i, raw.start + i + p.len()),
        None => Span::new(raw.start, raw.start),
    }
}

/// The attributes extraction reads of an `element`: all of one that can
/// hold a link, else `style` (CSS `url()`), and `id` when the document's
/// ids are wanted.
pub(super) fn wanted_attrs(element: &[u8], ids: bool) -> Wanted {
    if link_element(element) {
        Wanted::All
    } else if ids {
        Wanted::Only(&[b"style", b"id"])
    } else {
        Wanted::Only(&[b"style"])
    }
}

/// Bytes as a `String`: the document is UTF-8 by now (decoded, or with
/// U+FFFD for bad bytes), see [`text_of`].
fn text(b: &[u8]) -> String {
    text_of(b).into_owned()
}

/// A [`TagSink`] that turns start tags into links.
pub(crate) struct HtmlLinks<'a> {
    pub src: &'a [u8],
    /// Added to every offset: the place of `src` in the document (raw HTML
    /// inside Markdown).
    pub offset: usize,
    pub in_markdown: bool,
    pub text: bool,
    pub links: &'a mut Vec<RawLink>,
    /// The first `<base href>`, decoded and trimmed.
    pub base: Option<String>,
    /// Text runs, when wanted, for the finder.
    pub texts: Vec<Span>,
    /// The fragment identifiers of the document, when wanted: every
    /// element's `id` and every `a@name` (HTML standard 7.4.6.4, "the
    /// indicated part of the document").
    pub ids: Option<Vec<String>>,
    pieces: Vec<(usize, usize)>,
    /// The CSS `url()` links taken so far, against [`CSS_MAX_URLS`].
    css_urls: usize,
    /// Whether the attributes that hold no link are left out of the tags
    /// ([`TagSink::wanted_attrs`]); off only in the test of that filter.
    filter: bool,
}

/// The kind of a CSS `url()` in a `<style>` element.
const STYLE_URL: HtmlAttr =
    HtmlAttr { element: &"style", attribute: &"url()" };

/// Where the HTML a [`HtmlLinks`] reads stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HtmlSource {
    /// A whole HTML document.
    Document,
    /// Raw HTML inside a Markdown document, at `offset` in its text.
    InMarkdown { offset: usize },
}

/// Whether a [`HtmlLinks`] gathers the runs of text, for the finder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TextRuns {
    /// Each run of text is kept in [`HtmlLinks::texts`].
    Gather,
    /// Text is read past.
    Skip,
}

impl<'a> HtmlLinks<'a> {
    pub(super) fn new(
        src: &'a [u8],
        source: HtmlSource,
        text_runs: TextRuns,
        links: &'a mut Vec<RawLink>,
    ) -> Self {
        let (offset, in_markdown) = match source {
            HtmlSource::Document => (0, false),
            HtmlSource::InMarkdown { offset } => (offset, true),
        };
        let text = text_runs == TextRuns::Gather;
        HtmlLinks {
            src,
            offset,
            in_markdown,
            text,
            links,
            base: None,
            texts: vec![],
            ids: None,
            pieces: vec![],
            css_urls: 0,
            filter: true,
        }
    }
}

impl TagSink for HtmlLinks<'_> {
    fn start_tag(&mut self, tag: &StartTag) {
        let is_meta = tag.name == b"meta";
        // An `image` start tag in HTML content is made an `img` by the
        // tree builder (HTML standard 13.2.6.4.7).
        let name: &[u8] = match (&tag.name[..], tag.content) {
            (b"image", Content::Html) => b"img",
            (name, _) => name,
        };
        // Inside `math`, `a` and the rest are MathML's elements, not HTML
        // links; the tags that break out of foreign content are HTML's.
        let mathml = tag.content == Content::Math && !breaks_out(name);
        // `rel` and `hreflang` qualify the links of the elements that
        // define them (HTML standard 4.6.7): read once a tag, and only on
        // those elements, as every start tag passes here.
        let qualified =
            matches!(&tag.name[..], b"a" | b"area" | b"link" | b"form");
        let extra = if qualified {
            Extra::new(
                tag.attr(b"rel").map(|r| &r.value[..]),
                tag.attr(b"hreflang").map(|h| &h.value[..]),
            )
        } else {
            None
        };
        if let Some(ids) = &mut self.ids {
            for a in tag.attrs() {
                if (a.name == b"id" || (a.name == b"name" && tag.name == b"a"))
                    && !a.value.is_empty()
                {
                    ids.push(text(&a.value));
                }
            }
        }
        for a in tag.attrs() {
            let found = if is_meta && a.name == b"content" {
                let refresh = tag.attr(b"http-equiv").is_some_and(|h| {
                    h.value.trim_ascii().eq_ignore_ascii_case(b"refresh")
                });
                if refresh {
                    Some((
                        HtmlAttr { element: &"meta", attribute: &"refresh" },
                        Value::Refresh,
                    ))
                } else {
                    meta_url(tag).map(|m| (m, Value::Url))
                }
            } else if mathml && a.name != b"style" {
                None
            } else {
                link_attr(name, &a.name)
            };
            let Some((attr, kind)) = found else { continue };
            self.pieces.clear();
            split_value(kind, &a.value, &mut self.pieces);
            if kind == Value::Css {
                let left = CSS_MAX_URLS.saturating_sub(self.css_urls);
                self.pieces.truncate(left);
                self.css_urls += self.pieces.len();
            }
            if attr.element() == "base" && self.base.is_none() {
                let (s, e) = trim(&a.value, 0, a.value.len());
                self.base = Some(text(&a.value[s..e]));
            }
            for &piece in &self.pieces {
                let span = raw_range(
                    self.src,
                    a.raw,
                    &a.value,
                    a.verbatim,
                    piece,
                    kind == Value::Url,
                );
                // The link is kept only where it differs from its raw
                // text (see `RawLink`): never for a verbatim value, whose
                // pieces are their bytes. Both are cut from UTF-8 at ASCII
                // bytes: bytes that are the same need no UTF-8 check.
                let (value, raw) =
                    (&a.value[piece.0..piece.1], &self.src[span.range()]);
                let link = (!a.verbatim && value != raw)
                    .then(|| text(value))
                    .filter(|l| l.as_bytes() != raw)
                    .map(String::into_boxed_str);
                let kind = if self.in_markdown {
                    super::Kind::MdHtml(attr)
                } else {
                    super::Kind::Html(attr)
                };
                self.links.push(RawLink::with_link(
                    kind,
                    Span::new(
                        span.start + self.offset,
                        span.end + self.offset,
                    ),
                    link,
                    extra.clone(),
                ));
            }
        }
    }

    fn text(&mut self, span: Span) {
        self.texts.push(span);
    }

    fn style_text(&mut self, span: Span) {
        let left = CSS_MAX_URLS.saturating_sub(self.css_urls);
        if left == 0 {
            return;
        }
        let end = span.end.min(span.start + CSS_SCAN);
        let css = &self.src[span.start..end];
        self.pieces.clear();
        css_urls(css, &mut self.pieces);
        self.pieces.truncate(left);
        self.css_urls += self.pieces.len();
        for &(s, e) in &self.pieces {
            let at = span.start + s;
            // The link is its raw text: none kept.
            let kind = if self.in_markdown {
                super::Kind::MdHtml(STYLE_URL)
            } else {
                super::Kind::Html(STYLE_URL)
            };
            let at = at + self.offset;
            let span = Span::new(at, at + (e - s));
            self.links.push(RawLink::with_link(kind, span, None, None));
        }
    }

    fn wants_text(&self) -> bool {
        self.text
    }

    fn wants_style(&self) -> bool {
        true
    }

    fn wanted_attrs(&self, name: &[u8]) -> Wanted {
        if !self.filter {
            return Wanted::All;
        }
        wanted_attrs(name, self.ids.is_some())
    }

    fn wants_value(&self, name: &[u8]) -> bool {
        if self.ids.is_some() && (name == b"id" || name == b"name") {
            return true;
        }
        // The meta refresh needs both of its attributes, the Open Graph
        // metas `property` or `name`; `rel` and `hreflang` qualify links.
        matches!(
            name,
            b"content"
                | b"http-equiv"
                | b"property"
                | b"name"
                | b"rel"
                | b"hreflang"
                | b"style"
        ) || link_attr_elements(name).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(kind: Value, v: &str) -> Vec<&str> {
        let mut out = vec![];
        split_value(kind, v.as_bytes(), &mut out);
        out.iter().map(|&(s, e)| &v[s..e]).collect()
    }

    #[test]
    fn srcset_candidates() {
        assert_eq!(
            pieces(Value::SrcSet, "a.png 1x, b.png 2x,c.png"),
            ["a.png", "b.png", "c.png"]
        );
        assert_eq!(
            pieces(Value::SrcSet, " a.png,, b.png"),
            ["a.png", "b.png"]
        );
        assert_eq!(
            pieces(Value::SrcSet, "a,b.png 100w, c.png (x, y) 2x, d.png"),
            ["a,b.png", "c.png", "d.png"]
        );
        assert_eq!(pieces(Value::SrcSet, "a.png,"), ["a.png"]);
        assert!(pieces(Value::SrcSet, " , ").is_empty());
    }

    #[test]
    fn refresh_urls() {
        assert_eq!(pieces(Value::Refresh, "0; url=/next"), ["/next"]);
        assert_eq!(pieces(Value::Refresh, "5;URL='a b.html'"), ["a b.html"]);
        assert_eq!(pieces(Value::Refresh, "3, http://x/"), ["http://x/"]);
        assert_eq!(pieces(Value::Refresh, " 1.5 ; url = \"q\" x"), ["q"]);
        assert!(pieces(Value::Refresh, "5").is_empty());
        assert!(pieces(Value::Refresh, "soon; url=x").is_empty());
    }

    #[test]
    fn lists_and_urls() {
        assert_eq!(pieces(Value::List, " /a  /b\t/c "), ["/a", "/b", "/c"]);
        assert_eq!(pieces(Value::Url, "\n /a b \t"), ["/a b"]);
        assert_eq!(pieces(Value::Url, "  "), [""]);
    }

    /// Every kind of link the table makes has its name, as `Display`
    /// writes it.
    #[test]
    fn every_html_kind_has_its_name() {
        let attrs: &[&[u8]] = &[
            b"href",
            b"xlink:href",
            b"src",
            b"srcset",
            b"data-src",
            b"data-srcset",
            b"imagesrcset",
            b"ping",
            b"poster",
            b"action",
            b"formaction",
            b"data",
            b"cite",
            b"longdesc",
            b"background",
            b"lowsrc",
            b"dynsrc",
            b"codebase",
            b"classid",
            b"archive",
            b"manifest",
            b"profile",
        ];
        for attr in attrs {
            let (lists, _, _) = link_attr_elements(attr).unwrap();
            for element in lists.iter().flat_map(|l| l.iter()) {
                let (a, _) = link_attr(element.as_bytes(), attr).unwrap();
                let kind = super::super::Kind::Html(a);
                assert_eq!(kind.as_str(), kind.to_string());
            }
        }
        let metas = ["refresh", "og:url", "og:image", "twitter:image"]
            .map(|m| HtmlAttr { element: &"meta", attribute: leak(m) });
        for a in [STYLE_URL, link_attr(b"p", b"style").unwrap().0]
            .into_iter()
            .chain(metas)
        {
            assert_eq!(
                super::super::Kind::Html(a).as_str(),
                html_kind_name(a)
            );
            assert_ne!(html_kind_name(a), "html");
        }
    }

    #[test]
    fn css_url_tokens() {
        let v = r#"a{b:url( "q.png" )} c{d:URL(r.png)} e{f:myurl(no)} g{h:url('s t')}"#;
        assert_eq!(pieces(Value::Css, v), ["q.png", "r.png", "s t"]);
        assert!(pieces(Value::Css, "url(").is_empty());
        assert!(pieces(Value::Css, "url('open").is_empty());
        // Only the first CSS_SCAN bytes are read.
        let long = format!("{}url(late.png)", " ".repeat(CSS_SCAN));
        assert!(pieces(Value::Css, &long).is_empty());
    }

    #[test]
    fn css_urls_are_capped_per_document() {
        let css = "a{b:url(x.png)}".repeat(CSS_MAX_URLS + 10);
        let html =
            format!("<style>{css}</style><p style='{css}'><a href=last>");
        let page = super::super::Page::new(
            html.as_bytes(),
            super::super::Format::Html,
        );
        let links: Vec<_> =
            super::super::LinkExtractor::new().extract(&page).collect();
        assert_eq!(links.len(), CSS_MAX_URLS + 1);
        assert_eq!(links.last().unwrap().link(), "last");
    }

    /// Every attribute name of [`link_attr_elements`].
    const TABLE_ATTRS: &[&str] = &[
        "href",
        "xlink:href",
        "src",
        "srcset",
        "data-src",
        "data-srcset",
        "imagesrcset",
        "ping",
        "poster",
        "action",
        "formaction",
        "data",
        "cite",
        "longdesc",
        "background",
        "lowsrc",
        "dynsrc",
        "codebase",
        "classid",
        "archive",
        "manifest",
        "profile",
    ];

    #[test]
    fn link_elements_are_the_tables() {
        assert!(link_element(b"meta"));
        for attr in TABLE_ATTRS {
            let (lists, name, _) =
                link_attr_elements(attr.as_bytes()).expect(attr);
            assert_eq!(name, attr);
            for e in lists.iter().flat_map(|l| l.iter()) {
                assert!(link_element(e.as_bytes()), "{e}@{attr}");
            }
        }
        for attr in ["class", "id", "style", "content", "rel", "x"] {
            assert!(link_attr_elements(attr.as_bytes()).is_none());
        }
        assert!(!link_element(b"div") && !link_element(b"span"));
    }

    /// What the sink gathers from `html`, with or without the filter of
    /// attributes, with or without ids.
    fn gathered(html: &[u8], filter: bool, ids: bool) -> String {
        let mut links = vec![];
        let mut sink = HtmlLinks::new(
            html,
            HtmlSource::Document,
            TextRuns::Gather,
            &mut links,
        );
        sink.filter = filter;
        sink.ids = ids.then(Vec::new);
        super::super::tokenizer::for_each_tag(html, &mut sink);
        let (base, ids, texts) = (sink.base, sink.ids, sink.texts);
        format!("{links:?} {base:?} {ids:?} {texts:?}")
    }

    /// Elements, attribute names and values for the filter's test: link
    /// elements and others, link attributes and others, in both cases.
    const ELEMENTS: &[&str] = &[
        "a", "A", "p", "DIV", "span", "img", "meta", "td", "base", "link",
        "use", "svg", "style", "x\0",
    ];
    const NAMES: &[&str] = &[
        "href",
        "HREF",
        "src",
        "srcset",
        "style",
        "STYLE",
        "id",
        "ID",
        "name",
        "content",
        "http-equiv",
        "property",
        "rel",
        "hreflang",
        "class",
        "background",
        "styl\0e",
        "sty",
        "ids",
        "/",
    ];
    const VALUES: &[&str] = &[
        "x",
        "a.png",
        "url(b.png)",
        "a{b:url(c.png)}",
        "0; url=c",
        "og:image",
        "refresh",
        "stylesheet",
        "&amp;x",
        "a b",
        "",
        ">",
    ];
    /// Text and markup between tags.
    const BETWEEN: &[&str] =
        &["", "t", "</style>", "</svg>", "<", "<!-- <a href=y> -->", "&amp;"];

    fn tag() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let attr = (
            prop::sample::select(NAMES),
            prop::sample::select(&["", "\"", "'", "none"][..]),
            prop::sample::select(VALUES),
        )
            .prop_map(|(n, q, v)| match q {
                "none" => format!(" {n}"),
                _ => format!(" {n}={q}{v}{q}"),
            });
        (
            prop::sample::select(ELEMENTS),
            prop::collection::vec(attr, 0..5),
            prop::sample::select(BETWEEN),
        )
            .prop_map(|(e, attrs, after)| {
                format!("<{e}{}>{after}", attrs.concat())
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Leaving out the attributes of elements that hold no link (but
        /// `style`, and `id` for ids) changes nothing the sink gathers.
        #[test]
        fn the_filter_of_attributes_changes_nothing(
            tags in proptest::collection::vec(tag(), 0..12),
        ) {
            let html = tags.concat();
            for ids in [false, true] {
                proptest::prop_assert_eq!(
                    gathered(html.as_bytes(), true, ids),
                    gathered(html.as_bytes(), false, ids)
                );
            }
        }
    }

    /// A name of the table's kind, for an `HtmlAttr` made by hand.
    fn leak(s: &'static str) -> &'static &'static str {
        Box::leak(Box::new(s))
    }

    #[test]
    fn roles() {
        let role = |e: &'static str, a: &'static str, rel: &str| {
            let rels: Vec<&str> = rel.split(' ').collect();
            super::role(
                HtmlAttr { element: leak(e), attribute: leak(a) },
                |t| rels.contains(&t),
            )
        };
        assert_eq!(role("a", "href", "nofollow"), Role::Navigate);
        assert_eq!(role("area", "href", ""), Role::Navigate);
        assert_eq!(role("form", "action", ""), Role::Navigate);
        assert_eq!(role("button", "formaction", ""), Role::Navigate);
        assert_eq!(role("meta", "refresh", ""), Role::Navigate);
        assert_eq!(role("img", "src", ""), Role::Embed);
        assert_eq!(role("img", "data-srcset", ""), Role::Embed);
        assert_eq!(role("script", "src", ""), Role::Embed);
        assert_eq!(role("iframe", "src", ""), Role::Embed);
        assert_eq!(role("link", "href", "stylesheet"), Role::Embed);
        assert_eq!(role("link", "href", "preload"), Role::Embed);
        assert_eq!(role("link", "href", "canonical"), Role::Other);
        assert_eq!(role("link", "href", "alternate"), Role::Other);
        assert_eq!(role("*", "style", ""), Role::Embed);
        assert_eq!(role("style", "url()", ""), Role::Embed);
        assert_eq!(role("body", "background", ""), Role::Embed);
        assert_eq!(role("meta", "og:image", ""), Role::Other);
        assert_eq!(role("blockquote", "cite", ""), Role::Other);
        assert_eq!(role("base", "href", ""), Role::Other);
    }

    #[test]
    fn the_table() {
        let k = |e: &str, a: &str| {
            link_attr(e.as_bytes(), a.as_bytes())
                .map(|(h, _)| format!("{}@{}", h.element(), h.attribute()))
        };
        assert_eq!(k("a", "href").as_deref(), Some("a@href"));
        assert_eq!(k("use", "xlink:href").as_deref(), Some("use@xlink:href"));
        assert_eq!(k("img", "usemap"), None);
        assert_eq!(k("div", "href"), None);
        assert_eq!(k("td", "background").as_deref(), Some("td@background"));
    }
}
