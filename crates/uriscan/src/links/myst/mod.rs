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

mod blocks;
#[cfg(any(test, feature = "internals"))]
pub(crate) mod hooks;
mod kind;
mod markdown_links;
mod roles;
mod settings;

pub use kind::MystKind;
pub use settings::MystSettings;
#[cfg(feature = "check")]
pub(crate) use settings::{
    assigned as conf_assigned, strings as conf_strings, unread_setting,
};

/// How deep directives holding Markdown are read, each body a document
/// of its own.
pub(super) use blocks::MAX_DEPTH;

use crate::Span;

use super::{Kind, RawLink};
use blocks::Scan;

/// Reads the MyST constructs of `src`, whose Markdown links the Markdown
/// reader pushed to `out` from index `from` on (and whose code spans and
/// blocks are `code`): drops those MyST does not render as links,
/// changes the kind of those it reads otherwise, and pushes its own.
/// Returns the bodies of the directives in backtick or tilde fences that
/// hold Markdown, and of those that hold reStructuredText (`{eval-rst}`),
/// for the caller to read as documents of their own. `settings` are the
/// project's.
pub(crate) fn read(
    src: &str,
    code: &[Span],
    (out, from): (&mut Vec<RawLink>, usize),
    settings: &MystSettings,
) -> Nested {
    let scan = Scan::run(src, code, settings.colon_fence);
    let mut markdown = out.split_off(from.min(out.len()));
    markdown.retain(|l| !scan.drops(l.span.start));
    markdown_links::reclassify(src, &scan, &mut markdown, settings);
    out.append(&mut markdown);
    roles::read(src, code, &scan, out);
    out.extend(scan.links);
    Nested { markdown: scan.bodies, rst: scan.rst }
}

/// The bodies of a document's directives that are documents of their
/// own.
pub(crate) struct Nested {
    /// Markdown (MyST) bodies.
    pub(crate) markdown: Vec<Span>,
    /// reStructuredText bodies, of `{eval-rst}`.
    pub(crate) rst: Vec<Span>,
}

/// The labels `src` defines for `{ref}` and `:ref:` (names normalized as
/// Sphinx keeps them: `(label)=` and the `:name:` of directives); then
/// its section titles, labels too with Sphinx's autosectionlabel.
#[cfg(any(test, feature = "check", feature = "internals"))]
pub(crate) fn labels(src: &str) -> (Vec<String>, Vec<String>) {
    let (mut labels, mut headings) = (vec![], vec![]);
    scan_all(src, MystSettings::lenient(), 0, &mut |src, scan| {
        labels.append(&mut scan.labels);
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
    let code =
        super::markdown::read(src, true, Default::default(), &mut vec![]).code;
    let mut scan = Scan::run(src, &code, settings.colon_fence);
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
