//! MyST Markdown, as myst-parser reads it in a Sphinx project: CommonMark
//! and the few constructs of MyST that link.
//!
//! This reader runs after the Markdown reader, on its output: the code
//! spans it found that follow a `{role}` are roles ([`roles`]); a line
//! scan ([`blocks`]) finds the fenced blocks whose info string is a
//! `{directive}`, the `(label)=` targets, the `%` comments and the
//! headings; the Markdown links that MyST reads as labels or project
//! paths change kind ([`markdown_links`]). Whatever the Markdown reader
//! is, this one needs only the links and code spans it yields.

mod attrs;
mod blocks;
#[cfg(any(test, feature = "internals"))]
pub(crate) mod hooks;
mod kind;
mod linkify;
mod markdown_links;
mod roles;
mod settings;
mod substitution;

pub use kind::MystKind;
pub use settings::MystSettings;
#[cfg(feature = "check")]
pub(crate) use settings::{
    assigned as conf_assigned, strings as conf_strings, unread_setting,
};
pub(crate) use substitution::relocate as relocate_substituted;

/// How deep directives holding Markdown are read, each body a document
/// of its own.
pub(super) use blocks::MAX_DEPTH;

use crate::Span;

use super::markdown::Regions;
use super::{Kind, RawLink};
use blocks::Scan;

/// Reads the MyST constructs of `src`, whose Markdown links the Markdown
/// reader pushed to `out` from index `from` on (and whose code, HTML and
/// text are `regions`): drops those MyST does not render as links,
/// changes the kind of those it reads otherwise, and pushes its own.
/// Returns the bodies of the directives in backtick or tilde fences that
/// hold Markdown, and of those that hold reStructuredText (`{eval-rst}`),
/// and the values of substitutions, for the caller to read as documents
/// of their own. `settings` are the project's.
pub(crate) fn read(
    src: &str,
    regions: &Regions,
    (out, from): (&mut Vec<RawLink>, usize),
    settings: &MystSettings,
) -> Nested {
    let code = &regions.code;
    let mut scan = Scan::run(src, code, &regions.html, settings.colon_fence);
    // The Markdown reader's links, kept in place (most are): no copy.
    let from = from.min(out.len());
    let mut kept = from;
    for at in from..out.len() {
        if !scan.drops(out[at].span().start) {
            out.swap(kept, at);
            kept += 1;
        }
    }
    out.truncate(kept);
    let markdown = &mut out[from..];
    // The ids of attributes matter here only to a link to `#id`.
    if settings.attrs_inline && markdown_links::any_local(src, markdown) {
        scan.attr_ids = attrs::ids(src, code, markdown);
    }
    markdown_links::reclassify(src, &scan, markdown, settings);
    if settings.html_image {
        html_images(src, &regions.html, markdown);
    }
    let substituted = if settings.substitution {
        let skip = |at| scan.drops(at);
        substitution::read(src, &regions.text, settings, out, &skip)
    } else {
        vec![]
    };
    if settings.linkify {
        let skip = |at| {
            scan.drops(at)
                || substituted.iter().any(|r| r.span.range().contains(&at))
        };
        let fuzzy = settings.linkify_fuzzy_links;
        linkify::read(src, &regions.text, fuzzy, (out, from), &skip);
    }
    roles::read(src, code, &scan, out);
    out.extend(scan.links);
    Nested { markdown: scan.bodies, rst: scan.rst, substituted }
}

/// The bodies of a document's directives that are documents of their
/// own, and the values of its substitutions.
pub(crate) struct Nested {
    /// Markdown (MyST) bodies.
    pub(crate) markdown: Vec<Span>,
    /// reStructuredText bodies, of `{eval-rst}`.
    pub(crate) rst: Vec<Span>,
    /// The substitution references whose value is known.
    pub(crate) substituted: Vec<substitution::Reference>,
}

/// Makes images of the `<img>` links in `links` that stand in HTML of
/// `html` holding nothing but `<img>` tags: what `html_image` gives the
/// `{image}` directive.
fn html_images(src: &str, html: &[Span], links: &mut [RawLink]) {
    for l in links {
        let Kind::MdHtml(attr) = l.kind else { continue };
        if attr.element() != "img" || attr.attribute() != "src" {
            continue;
        }
        let k = html.partition_point(|h| h.start <= l.span().start);
        let Some(region) = k.checked_sub(1).map(|k| html[k]) else { continue };
        if l.span().start < region.end && only_images(&src[region.range()]) {
            l.kind = Kind::Myst(MystKind::Image);
        }
    }
}

/// Whether the HTML `text` is `<img>` tags and blanks only.
fn only_images(text: &str) -> bool {
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let tag =
            rest.get(..4).is_some_and(|t| t.eq_ignore_ascii_case("<img"));
        let after = rest.as_bytes().get(4);
        if !tag
            || !after.is_some_and(|c| {
                c.is_ascii_whitespace() || *c == b'/' || *c == b'>'
            })
        {
            return false;
        }
        let Some(end) = tag_end(rest) else { return false };
        rest = rest[end..].trim_start();
    }
    true
}

/// The end of the tag `text` starts with: after its `>`, quoted values
/// skipped.
fn tag_end(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'>' => return Some(i + 1),
            q @ (b'"' | b'\'') => i += 1 + memchr::memchr(q, &b[i + 1..])?,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The labels `src` defines for `{ref}` and `:ref:` (names normalized as
/// Sphinx keeps them: `(label)=` and the `:name:` of directives); then
/// its section titles, labels too with Sphinx's autosectionlabel.
#[cfg(any(test, feature = "check", feature = "internals"))]
pub(crate) fn labels(src: &str) -> (Vec<String>, Vec<String>) {
    let (mut labels, mut headings) = (vec![], vec![]);
    scan_all(src, MystSettings::lenient(), 0, &mut |src, scan| {
        labels.append(&mut scan.labels);
        let attr_labels = scan.attr_ids.iter().filter(|(_, label)| *label);
        let name = |(id, _): &(String, bool)| super::rst::normalize_name(id);
        labels.extend(attr_labels.map(name));
        headings.extend(scan.titles(src).map(|(_, title)| title));
    });
    (labels, headings)
}

/// The fragment ids a link into `src` may name, as MyST resolves
/// `[text](doc.md#id)`: each label's name and id, each section's id as
/// docutils makes it, and the slugs of the headings that
/// `myst_heading_anchors` of `settings` gives one.
#[cfg(any(test, feature = "check", feature = "internals"))]
pub(crate) fn anchors(src: &str, settings: &MystSettings) -> Vec<String> {
    let mut ids = vec![];
    scan_all(src, settings, 0, &mut |src, scan| {
        ids.extend(scan.anchors(src));
        ids.extend(scan.slugs(src, settings.heading_anchors));
    });
    ids
}

/// An `{include}` directive whose included file's links are partly
/// relative to that file rather than to the including document, as
/// myst-parser reads its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelativeInclude {
    /// The path, as written.
    pub path: String,
    /// `:relative-images:`: the Markdown images (with no scheme).
    pub images: bool,
    /// `:relative-docs: PREFIX`: the `project:` and `path:` links that
    /// start with the prefix.
    pub docs: Option<String>,
}

/// The `{include}` directives of the MyST document `src` that make links
/// relative to the included file.
#[cfg(any(test, feature = "check"))]
pub fn relative_includes(src: &str) -> Vec<RelativeInclude> {
    let mut found = vec![];
    scan_all(src, MystSettings::lenient(), 0, &mut |src, scan| {
        for (path, images, docs) in &scan.relative_includes {
            found.push(RelativeInclude {
                path: src[path.range()].to_owned(),
                images: *images,
                docs: docs.map(|d| src[d.range()].to_owned()),
            });
        }
    });
    found
}

/// Scans `src` and the Markdown bodies of its directives, `depth` deep,
/// handing each (with the source it scanned) to `each`.
#[cfg(any(test, feature = "check", feature = "internals"))]
fn scan_all(
    src: &str,
    settings: &MystSettings,
    depth: usize,
    each: &mut dyn FnMut(&str, &mut Scan),
) {
    let mut links = vec![];
    let regions =
        super::markdown::read(src, true, Default::default(), &mut links);
    let code = &regions.code;
    let mut scan = Scan::run(src, code, &regions.html, settings.colon_fence);
    if settings.attrs_inline {
        scan.attr_ids = attrs::ids(src, code, &links);
    }
    for body in &scan.rst {
        let (labels, _) = super::rst::labels(&src[body.range()]);
        scan.labels.extend(labels.into_iter().map(|(name, _)| name));
    }
    each(src, &mut scan);
    if depth < blocks::MAX_DEPTH {
        for body in &scan.bodies {
            scan_all(&src[body.range()], settings, depth + 1, each);
        }
    }
}

/// A heading's slug as myst-parser's default `myst_heading_slug_func`
/// makes it (GitHub's): lowercase, spaces to `-`, every character but a
/// word character, `-` and a space dropped.
fn github_slug(title: &str) -> String {
    title
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `slug`, or with `-1`, `-2`, ... after it, the first that `taken`
/// does not hold: how myst-parser keeps the slugs of a document apart.
fn unique_slug(slug: String, taken: &[String]) -> String {
    if !taken.contains(&slug) {
        return slug;
    }
    (1..)
        .map(|i| format!("{slug}-{i}"))
        .find(|s| !taken.contains(s))
        .unwrap_or(slug)
}

/// A link of `kind` written at `span` of `src`, whose reference is
/// `link`.
fn link(src: &str, kind: MystKind, span: Span, link: &str) -> RawLink {
    let raw = &src.as_bytes()[span.range()];
    RawLink::new(Kind::Myst(kind), span, raw, link, None)
}

/// The source file a document name (`{doc}`, a toctree entry) names: in
/// a MyST project, the name with `.md` (the check finds the source of
/// another suffix beside it).
fn doc_path(name: &str) -> String {
    let name = name.strip_suffix('/').unwrap_or(name);
    format!("{name}.md")
}

#[cfg(test)]
mod tests;
