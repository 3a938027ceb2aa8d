//! The targets of a document and the resolution of its references by
//! name, once the whole document has been read (a reference may come
//! before its target).

use std::collections::{HashMap, HashSet};

use crate::Span;

use super::names::{make_id, normalize_name};
use super::{Reader, RstKind};

/// Where a named target leads.
#[derive(Clone, Debug)]
enum Dest {
    /// An external target: a URI.
    Uri(String),
    /// A place in the document: its id.
    Id(String),
    /// An indirect target: another name.
    Alias(String),
}

/// A reference waiting for the document's targets.
#[derive(Debug)]
struct Pending {
    span: Span,
    /// The normalized name; `None` for an anonymous reference.
    name: Option<String>,
}

/// What the document defines that a reference or a fragment may name.
#[derive(Debug, Default)]
pub(super) struct Targets {
    /// Explicit targets, the first of each name.
    named: HashMap<String, Dest>,
    /// Section titles, which explicit targets win over.
    implicit: HashMap<String, String>,
    /// The URIs of anonymous targets, in order.
    anonymous: Vec<String>,
    pending: Vec<Pending>,
    /// Every id of the document, in order.
    pub(super) ids: Vec<String>,
    taken: HashSet<String>,
    /// The ids made for want of a name, numbered across the document.
    auto_ids: usize,
    /// Whether ids are made as Sphinx makes them (`idN`).
    pub(super) sphinx: bool,
    /// The labels `:ref:` can reach: lowercased name and id.
    pub(super) labels: Vec<(String, String)>,
    /// The section titles, normalized: labels with autosectionlabel.
    pub(super) sections: Vec<String>,
}

impl Targets {
    /// Takes `id` when it is free. Otherwise (or when it is empty) the
    /// id docutils' `set_id` makes: `id-N` (or `TAG-N`) by docutils'
    /// default, `idN` with Sphinx's `auto_id_prefix`, numbered across the
    /// document.
    fn take_id(&mut self, id: String, tag: &str) -> String {
        if !id.is_empty() && !self.taken.contains(&id) {
            self.taken.insert(id.clone());
            self.ids.push(id.clone());
            return id;
        }
        let mut free = String::new();
        while free.is_empty() || self.taken.contains(&free) {
            self.auto_ids += 1;
            let n = self.auto_ids;
            free = match (self.sphinx, id.is_empty()) {
                (true, _) => format!("id{n}"),
                (false, true) => format!("{tag}-{n}"),
                (false, false) => {
                    // Numbered per name: `intro-1`, `intro-2`.
                    let mut k = 1;
                    while self.taken.contains(&format!("{id}-{k}")) {
                        k += 1;
                    }
                    self.auto_ids -= 1;
                    format!("{id}-{k}")
                }
            };
        }
        self.taken.insert(free.clone());
        self.ids.push(free.clone());
        free
    }

    /// A section titled `title` (its text, markup removed).
    pub(super) fn section(&mut self, title: &str) {
        let name = normalize_name(title);
        self.sections.push(name.clone());
        let id = self.take_id(make_id(&name), "section");
        // A second section of the same name leaves the name to neither.
        if self.implicit.insert(name.clone(), id).is_some() {
            self.implicit.insert(name, String::new());
        }
    }

    /// An internal target `.. _name:` (or `` _`name` ``, or a
    /// directive's `:name:`): an id, and a label for `:ref:`.
    pub(super) fn internal(&mut self, name: &str) {
        let name = normalize_name(name);
        let id = self.take_id(make_id(&name), "target");
        self.labels.push((name.clone(), id.clone()));
        self.named.entry(name).or_insert(Dest::Id(id));
    }

    /// An external target `name` leading to `uri`.
    pub(super) fn external(&mut self, name: &str, uri: &str) {
        let name = normalize_name(name);
        // Its id is taken, not written in the HTML: a section of the same
        // name gets `name-1`.
        let id = make_id(&name);
        if !id.is_empty() {
            self.taken.insert(id);
        }
        self.named.entry(name).or_insert_with(|| Dest::Uri(uri.to_owned()));
    }

    /// An indirect target `name` leading to the target `to`.
    pub(super) fn alias(&mut self, name: &str, to: &str) {
        let (name, to) = (normalize_name(name), normalize_name(to));
        self.named.entry(name).or_insert(Dest::Alias(to));
    }

    /// An anonymous target leading to `uri`: it takes an id of its own,
    /// which moves the numbering of the ones made later.
    pub(super) fn anonymous(&mut self, uri: &str) {
        self.anonymous.push(uri.to_owned());
        self.take_id(String::new(), "target");
        self.ids.pop();
    }

    /// A reference to `name` (`None`: anonymous) written at `span`.
    pub(super) fn reference(&mut self, span: Span, name: Option<&str>) {
        let name = name.map(normalize_name);
        self.pending.push(Pending { span, name });
    }

    /// Where `name` leads: a URI, or `#id`; for a name the document does
    /// not define, `#` and the id it would have.
    fn lookup(&self, name: &str) -> String {
        let mut name = name;
        // Indirect targets, followed a few hops (a loop is an error that
        // docutils reports; here it ends).
        for _ in 0..8 {
            match self.named.get(name) {
                Some(Dest::Uri(u)) => return u.clone(),
                Some(Dest::Id(id)) => return format!("#{id}"),
                Some(Dest::Alias(to)) => name = to,
                None => break,
            }
        }
        match self.implicit.get(name) {
            Some(id) if !id.is_empty() => format!("#{id}"),
            _ => format!("#{}", make_id(name)),
        }
    }
}

impl Reader<'_, '_> {
    /// Pushes every reference, with what its name leads to.
    pub(super) fn resolve(&mut self) {
        let pending = std::mem::take(&mut self.targets.pending);
        let mut anonymous = 0;
        for p in pending {
            let (kind, link) = match &p.name {
                Some(name) => (RstKind::Reference, self.targets.lookup(name)),
                None => {
                    let uri = self.targets.anonymous.get(anonymous).cloned();
                    anonymous += 1;
                    // Fewer targets than references is an error docutils
                    // reports: the link is left empty, and so broken.
                    (RstKind::AnonymousReference, uri.unwrap_or_default())
                }
            };
            self.push(kind, p.span, &link);
        }
    }
}
