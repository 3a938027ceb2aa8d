//! Antora's resource ids (`version@component:module:family$path`),
//! resolved from where a document stands in its component:
//! `modules/NAME/pages/...` (and `partials`, `examples`, `images`,
//! `attachments` beside it), or `modules/NAME/nav.adoc`.

/// Where a document stands in an Antora component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place<'u> {
    /// The document's module.
    module: &'u str,
    /// Its family's directory (`pages`, ...); `None` for a navigation
    /// file, which stands in the module's own directory.
    family: Option<&'u str>,
    /// How many directories below its family's directory it stands.
    depth: usize,
}

/// The families and their directories.
const FAMILIES: &[(&str, &str)] = &[
    ("page", "pages"),
    ("partial", "partials"),
    ("example", "examples"),
    ("image", "images"),
    ("attachment", "attachments"),
];

/// What a resource id names, from a document.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resource {
    /// A file of this component: the link to it from the document.
    Here(String),
    /// A file of another component or version, which this tree may not
    /// hold: the link as written, under the `antora:` scheme, which no
    /// checker follows.
    Elsewhere(String),
}

impl<'u> Place<'u> {
    /// The place of the document at `url` (a `file:` URI), when it stands
    /// in a module of a component.
    pub(crate) fn of(url: &'u str) -> Option<Place<'u>> {
        if !url.starts_with("file:") {
            return None;
        }
        let path = url.split(['?', '#']).next()?;
        let at = path.rfind("/modules/")?;
        let mut rest = path[at + "/modules/".len()..].split('/');
        let module = rest.next().filter(|m| !m.is_empty())?;
        let segments: Vec<&str> = rest.collect();
        match segments.as_slice() {
            [file] if is_adoc(file) => {
                Some(Place { module, family: None, depth: 0 })
            }
            [family, .., _file]
                if FAMILIES.iter().any(|(_, dir)| dir == family) =>
            {
                Some(Place {
                    module,
                    family: Some(family),
                    depth: segments.len() - 2,
                })
            }
            _ => None,
        }
    }

    /// Whether the document is a navigation file.
    pub(crate) fn is_nav(&self) -> bool {
        self.family.is_none()
    }

    /// The resource `id`, of family `default_family` unless it names one,
    /// from this document.
    pub(crate) fn resolve(&self, id: &str, default_family: &str) -> Resource {
        let (coords, relative) = match id.rfind('$') {
            Some(d) => (&id[..d + 1], &id[d + 1..]),
            None => match id.rfind(':') {
                Some(c) => (&id[..c + 1], &id[c + 1..]),
                None => ("", id),
            },
        };
        let (coords, family) = match coords.strip_suffix('$') {
            Some(c) => match c.rfind(':') {
                Some(i) => (&c[..i + 1], &c[i + 1..]),
                None => ("", c),
            },
            None => (coords, default_family),
        };
        let Some(family_dir) =
            FAMILIES.iter().find(|(f, _)| *f == family).map(|(_, d)| *d)
        else {
            return Resource::Elsewhere(format!("antora:{id}"));
        };
        // `module:` or `component:module:`, `version@` before them.
        let parts: Vec<&str> = coords.split(':').collect();
        let module = match parts.as_slice() {
            [""] => self.module,
            [m, ""] if !m.contains('@') && !m.is_empty() => m,
            _ => return Resource::Elsewhere(format!("antora:{id}")),
        };
        // `./x` in a page is relative to the page itself.
        if family_dir == "pages"
            && self.family == Some("pages")
            && module == self.module
            && let Some(r) = relative.strip_prefix("./")
        {
            return Resource::Here(r.to_owned());
        }
        let mut link = String::new();
        let up = |n: usize, link: &mut String| {
            for _ in 0..n {
                link.push_str("../");
            }
        };
        let below_module = match self.family {
            Some(_) => self.depth + 1,
            None => 0,
        };
        if module == self.module && self.family == Some(family_dir) {
            up(self.depth, &mut link);
        } else if module == self.module {
            up(below_module, &mut link);
            link.push_str(family_dir);
            link.push('/');
        } else {
            up(below_module + 1, &mut link);
            link.push_str(module);
            link.push('/');
            link.push_str(family_dir);
            link.push('/');
        }
        link.push_str(relative);
        Resource::Here(link)
    }
}

fn is_adoc(name: &str) -> bool {
    name.ends_with(".adoc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_in_a_component() {
        let p = Place::of("file:///c/modules/ROOT/pages/a/b.adoc").unwrap();
        assert_eq!(
            p,
            Place { module: "ROOT", family: Some("pages"), depth: 1 }
        );
        assert!(
            Place::of("file:///c/modules/ROOT/nav.adoc").unwrap().is_nav()
        );
        assert_eq!(Place::of("file:///c/docs/a.adoc"), None);
        assert_eq!(Place::of("https://x/modules/a/pages/b.adoc"), None);
    }

    #[test]
    fn resource_ids_resolve_from_the_document() {
        let p = Place::of("file:///c/modules/ROOT/pages/a/b.adoc").unwrap();
        let here = |s: &str| Resource::Here(s.into());
        assert_eq!(p.resolve("index.adoc", "page"), here("../index.adoc"));
        assert_eq!(p.resolve("./c.adoc", "page"), here("c.adoc"));
        assert_eq!(
            p.resolve("cli:x.adoc", "page"),
            here("../../../cli/pages/x.adoc")
        );
        assert_eq!(
            p.resolve("partial$p.adoc", "page"),
            here("../../partials/p.adoc")
        );
        assert_eq!(
            p.resolve("cli:image$i.png", "page"),
            here("../../../cli/images/i.png")
        );
        assert_eq!(p.resolve("i.png", "image"), here("../../images/i.png"));
        assert_eq!(
            p.resolve("other::index.adoc", "page"),
            Resource::Elsewhere("antora:other::index.adoc".into())
        );
        assert_eq!(
            p.resolve("2.0@other:m:index.adoc", "page"),
            Resource::Elsewhere("antora:2.0@other:m:index.adoc".into())
        );
        let nav = Place::of("file:///c/modules/cli/nav.adoc").unwrap();
        assert_eq!(nav.resolve("x.adoc", "page"), here("pages/x.adoc"));
        assert_eq!(
            nav.resolve("ROOT:x.adoc", "page"),
            here("../ROOT/pages/x.adoc")
        );
    }
}
