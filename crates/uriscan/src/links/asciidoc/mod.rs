//! The links of an AsciiDoc document, as Asciidoctor (and Antora) read
//! them: a line-oriented block pass (`blocks`) that sets aside the
//! blocks that hold no links (listing, literal, passthrough, comment),
//! an inline pass (`inline`) that looks for the few bytes that can start
//! a link, and the rules that turn a macro's target into a link
//! (`targets`): `imagesdir`, cross-references to other documents,
//! Antora's resource ids (`antora`), attribute references (`attributes`).
//! The ids a document's fragments can name are read by the same passes
//! (`ids`).

mod antora;
mod attributes;
mod blocks;
mod ids;
mod include;
mod inline;
mod targets;

use std::collections::HashSet;

use super::{Extra, Kind, RawLink};
use crate::Span;
use attributes::Attributes;
pub use include::{AsciidocInclude, IncludeSelection, Selected};

/// Reads `text`, the document at `url`, pushing its links in document
/// order; gathers its ids into `ids` when asked. `preset` are the
/// attributes set before the document's (an Antora component's).
pub(crate) fn read(
    text: &str,
    (url, preset): (Option<&str>, &[(String, String)]),
    out: &mut Vec<RawLink>,
    ids: Option<&mut Vec<String>>,
) {
    let mut reader = Reader::new(text, url, out, ids.is_some());
    for (name, value) in preset {
        reader.attrs.preset(name, value);
    }
    reader.run();
    reader.resolve_natural_references();
    if let Some(ids) = ids {
        ids.extend(reader.ids);
    }
}

/// The `include::` directives of `text`, the document at `url` with the
/// attributes `preset` set before its own, in document order: what each
/// names and takes, and the attributes in effect where it stands.
pub fn includes(
    text: &str,
    url: Option<&str>,
    preset: &[(String, String)],
) -> Vec<AsciidocInclude> {
    let mut out = vec![];
    let mut reader = Reader::new(text, url, &mut out, false);
    for (name, value) in preset {
        reader.attrs.preset(name, value);
    }
    reader.includes = Some(vec![]);
    reader.run();
    reader.includes.unwrap_or_default()
}

#[cfg(feature = "check")]
/// The ids (anchors) of an AsciiDoc document, read with the attributes
/// `preset`: section ids by Asciidoctor's rules, `[[id]]`, `[#id]`,
/// `anchor:id[]`.
pub(crate) fn anchors(text: &str, preset: &[(String, String)]) -> Vec<String> {
    let mut ids = vec![];
    read(text, (None, preset), &mut vec![], Some(&mut ids));
    ids
}

/// One document's reading.
struct Reader<'t, 'o> {
    text: &'t str,
    attrs: Attributes,
    antora: Option<antora::Place<'t>>,
    out: &'o mut Vec<RawLink>,
    /// Whether inline anchors are looked for (for `ids`).
    want_ids: bool,
    /// Every id met, in document order, and as a set.
    ids: Vec<String>,
    taken: HashSet<String>,
    /// Each section's title as written, and its id.
    titles: Vec<(String, String)>,
    /// The links to an id of this document (`<<id>>`), by index in `out`:
    /// a natural reference (`<<Section Title>>`) is resolved at the end,
    /// once every title is known.
    internal: Vec<usize>,
    /// The id the next block takes (`[[id]]`, `[#id]` before it).
    pending_id: Option<String>,
    /// Where the last URL's match ended.
    url_end: usize,
    /// The include directives met, when they are gathered.
    includes: Option<Vec<AsciidocInclude>>,
}

impl<'t, 'o> Reader<'t, 'o> {
    fn new(
        text: &'t str,
        url: Option<&'t str>,
        out: &'o mut Vec<RawLink>,
        want_ids: bool,
    ) -> Self {
        Reader {
            text,
            attrs: Attributes::default(),
            antora: url.and_then(antora::Place::of),
            out,
            want_ids,
            ids: vec![],
            taken: HashSet::new(),
            titles: vec![],
            internal: vec![],
            pending_id: None,
            url_end: 0,
            includes: None,
        }
    }

    /// Records an id of the document.
    fn add_id(&mut self, id: &str) {
        if !id.is_empty() && self.taken.insert(id.to_owned()) {
            self.ids.push(id.to_owned());
        }
    }

    /// Pushes a link of `kind` written at `start..end`, whose reference
    /// is `link`; an undefined attribute in it is noted.
    fn push(
        &mut self,
        kind: Kind,
        (start, end): (usize, usize),
        link: &str,
        undefined: Option<Box<str>>,
    ) {
        let raw = &self.text.as_bytes()[start..end];
        let extra = undefined.map(Extra::undefined_attribute);
        self.out.push(RawLink::new(
            kind,
            Span::new(start, end),
            raw,
            link,
            extra,
        ));
    }

    /// Gives each internal reference that names no id but a section's
    /// title (`<<Section Title>>`) that section's id.
    fn resolve_natural_references(&mut self) {
        for &i in &self.internal {
            let Some(link) = self.out.get(i) else { continue };
            let written = match link.link() {
                Some(l) => l.to_string(),
                None => self.text[link.span().range()].to_owned(),
            };
            let Some(id) = written.strip_prefix('#') else { continue };
            if self.taken.contains(id)
                || self.text.contains(&format!("[[{id}"))
            {
                continue;
            }
            if let Some((_, found)) = self.titles.iter().find(|(t, _)| t == id)
            {
                self.out[i].set_link(Some(format!("#{found}").into()));
            }
        }
    }
}
