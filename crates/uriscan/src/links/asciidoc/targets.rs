//! What a macro's target links to: a cross-reference's document and id
//! (by Asciidoctor's rules, or Antora's resource ids in a component), an
//! image under `imagesdir`, an include.

use super::Reader;
use super::antora::Resource;
use super::include::{AsciidocInclude, IncludeSelection};
use super::inline::split;
use crate::links::Kind;

impl Reader<'_, '_> {
    /// A cross-reference whose target is written at `start..end`: by the
    /// `xref:` macro (`by_macro`) or as `<<...>>`.
    pub(super) fn xref(
        &mut self,
        (start, end): (usize, usize),
        by_macro: bool,
    ) {
        let written = self.text[start..end].trim();
        let end = start + written.len();
        let (refid, undefined) = split(self.attrs.expand(written));
        let kind = match &self.antora {
            Some(p) if p.is_nav() => Kind::SiteNav,
            _ => Kind::AdocXref,
        };
        // The document part and the id part.
        let (path, fragment) = match refid.find('#') {
            Some(0) => (None, Some(&refid[1..])),
            Some(h) => (Some(&refid[..h]), Some(&refid[h + 1..])),
            None if by_macro && has_extension(&refid) => {
                (Some(&refid[..]), None)
            }
            // An Antora resource id names a page, with or without `#`.
            None if by_macro
                && self.antora.is_some()
                && refid.contains([':', '$']) =>
            {
                (Some(&refid[..]), None)
            }
            None => (None, Some(&refid[..])),
        };
        let Some(path) = path.filter(|p| !p.is_empty()) else {
            let link = format!("#{}", fragment.unwrap_or(""));
            self.internal.push(self.out.len());
            self.push(kind, (start, end), &link, undefined);
            return;
        };
        // A document named without its extension is an AsciiDoc one.
        let mut path = path.to_owned();
        if !has_extension(&path) {
            path.push_str(".adoc");
        }
        let mut link = match &self.antora {
            Some(place) => match place.resolve(&path, "page") {
                Resource::Here(l) | Resource::Elsewhere(l) => l,
            },
            None => path,
        };
        if let Some(f) = fragment.filter(|f| !f.is_empty()) {
            link.push('#');
            link.push_str(f);
        }
        self.push(kind, (start, end), &link, undefined);
    }

    /// An image whose target is written at `span`: under `imagesdir`
    /// unless it is a URL or an absolute path; in an Antora component, an
    /// image resource.
    pub(super) fn image(&mut self, target: &str, span: (usize, usize)) {
        let (target, undefined) = split(self.attrs.expand(target));
        let link = if is_uri_or_absolute(&target) {
            target
        } else if let Some(place) = &self.antora {
            match place.resolve(&target, "image") {
                Resource::Here(l) | Resource::Elsewhere(l) => l,
            }
        } else {
            match self.attrs.get("imagesdir").filter(|d| !d.is_empty()) {
                Some(dir) => format!("{}/{target}", dir.trim_end_matches('/')),
                None => target,
            }
        };
        self.push(Kind::AdocImage, span, &link, undefined);
    }

    /// The `link=` attribute of an image's attribute list written at
    /// `start..end`: the link the image is.
    pub(super) fn image_link(&mut self, (start, end): (usize, usize)) {
        let list = &self.text[start..end];
        let Some(at) = list.find("link=") else { return };
        if at > 0 && !list[..at].trim_end().ends_with(',') {
            return;
        }
        let value_at = at + "link=".len();
        let rest = &list[value_at..];
        let (from, len) = match rest.strip_prefix('"') {
            Some(q) => (value_at + 1, q.find('"').unwrap_or(q.len())),
            None => (value_at, rest.find(',').unwrap_or(rest.len())),
        };
        let value = list[from..from + len].trim();
        if value.is_empty() {
            return;
        }
        let from = start
            + from
            + (list[from..].len() - list[from..].trim_start().len());
        let (link, undefined) = split(self.attrs.expand(value));
        self.push(
            Kind::AdocLink,
            (from, from + value.len()),
            &link,
            undefined,
        );
    }

    /// An include whose target is written at `span`, with the attribute
    /// list `attrlist`: relative to the document, or in an Antora
    /// component a resource (`partial$x.adoc`). The part of the file it
    /// takes is noted on the link; `verbatim`: its text is shown as it
    /// is (in a listing), not read for links.
    pub(super) fn include(
        &mut self,
        target: &str,
        span: (usize, usize),
        attrlist: &str,
        verbatim: bool,
    ) {
        let (target, undefined) = split(self.attrs.expand(target));
        let link = match &self.antora {
            Some(place)
                if target.contains('$') && !is_uri_or_absolute(&target) =>
            {
                match place.resolve(&target, "page") {
                    Resource::Here(l) | Resource::Elsewhere(l) => l,
                }
            }
            _ => target,
        };
        let selection = match attrlist.contains('=') {
            true => {
                let (list, _) = split(self.attrs.expand(attrlist));
                IncludeSelection::parse(&list)
            }
            false => None,
        };
        if let Some(includes) = &mut self.includes {
            let before = &self.text.as_bytes()[..span.0];
            includes.push(AsciidocInclude {
                link: link.clone(),
                line: memchr::memchr_iter(b'\n', before).count() as u64 + 1,
                selection: selection.clone(),
                verbatim,
                attributes: self.attrs.as_presets(),
            });
        }
        self.push(Kind::AdocInclude, span, &link, undefined);
        if let (Some(selection), Some(last)) = (selection, self.out.last_mut())
        {
            last.extra_mut().selection = Some(selection);
        }
    }
}

/// Whether the last segment of `path` has an extension.
fn has_extension(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rfind('.').is_some_and(|d| d > 0 && d + 1 < name.len())
}

/// A URL (`scheme:`) or an absolute path.
fn is_uri_or_absolute(target: &str) -> bool {
    if target.starts_with('/') {
        return true;
    }
    let scheme = target.split(':').next().unwrap_or("");
    target.contains("://")
        || (scheme.len() > 1
            && target.len() > scheme.len()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b))
            && ["data", "mailto"].contains(&scheme))
}
