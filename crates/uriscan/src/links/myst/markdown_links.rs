//! The Markdown links that MyST reads as no URL: `#id` with no such id
//! in the document, and a bare name, are labels of the project;
//! `project:`, `path:` and `inv:` are its own schemes.

use super::blocks::Scan;
use super::{Kind, MystKind, MystSettings, RawLink};
use crate::links::target::scheme_of;

/// Whether a Markdown link of `links` names a fragment of its own
/// document (`#id`).
pub(super) fn any_local(src: &str, links: &[RawLink]) -> bool {
    links.iter().any(|l| {
        let value = l.link().unwrap_or(&src[l.span().range()]);
        matches!(l.kind, Kind::MdLink | Kind::MdAutolink)
            && value.starts_with('#')
    })
}

/// Changes the kind (and link) of each Markdown link of `links` that MyST
/// reads otherwise than CommonMark, with the project's `settings`.
pub(super) fn reclassify(
    src: &str,
    scan: &Scan,
    links: &mut [RawLink],
    settings: &MystSettings,
) {
    let mut local: Option<Vec<String>> = None;
    for l in links.iter_mut() {
        if !matches!(l.kind, Kind::MdLink | Kind::MdAutolink) {
            continue;
        }
        let raw = &src[l.span().range()];
        let value = l.link().unwrap_or(raw);
        let (kind, to) = match value.split_once(':') {
            Some(("project", rest)) => match rest.strip_prefix('#') {
                Some(id) => (MystKind::LabelLink, id),
                None => (MystKind::Project, rest),
            },
            Some(("path", rest)) => (MystKind::Download, rest),
            Some(("inv", _)) => (MystKind::External, value),
            _ => match value.strip_prefix('#') {
                Some(id) => {
                    let local = local.get_or_insert_with(|| {
                        let mut ids = scan.anchors(src);
                        ids.extend(scan.slugs(src, settings.heading_anchors));
                        ids
                    });
                    if id.is_empty() || local.iter().any(|a| a == id) {
                        continue;
                    }
                    (MystKind::LabelLink, id)
                }
                // A bare name: a label, a document name, or a file beside
                // the document (which MyST tries first).
                None if l.kind == Kind::MdLink
                    && !value.is_empty()
                    && !value.contains(['/', '.', '#', ':', '?']) =>
                {
                    (MystKind::LabelLink, value)
                }
                // A scheme that is no URL's in the project: a reference
                // MyST resolves as it resolves a name.
                None if l.kind == Kind::MdLink
                    && scheme_of(value).is_some()
                    && !settings.is_external(value) =>
                {
                    (MystKind::LabelLink, value)
                }
                None => continue,
            },
        };
        let to = to.to_owned();
        *l = RawLink::new(
            Kind::Myst(kind),
            l.span(),
            raw.as_bytes(),
            &to,
            l.take_extra(),
        );
    }
}
