//! The kinds of MyST links.

/// Which MyST (Markdown in a Sphinx project) construct a link is: the
/// kinds `myst:*` of [`Kind::Myst`](crate::links::Kind::Myst). The
/// Markdown links and images of the document keep their `md:*` kinds,
/// but for those MyST reads as a label or a project path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MystKind {
    /// `` {doc}`name` ``, as the path of the source file it names:
    /// `myst:doc`.
    Doc,
    /// `` {ref}`label` ``, a label of the project: `myst:ref` (no
    /// target).
    Ref,
    /// `` {numref}`label` ``: `myst:numref` (no target).
    Numref,
    /// `` {download}`file` ``: `myst:download`; also `<path:file>`.
    Download,
    /// `` {term}`word` ``, a term of a glossary: `myst:term` (no target).
    Term,
    /// A role with a domain (`` {py:class}`x` ``), an intersphinx
    /// reference or an `inv:` link: `myst:external` (no target).
    External,
    /// A Markdown link that MyST resolves as a label (or a document name)
    /// of the project: `[text](label)`, `[text](#label)` with no such
    /// label in the document, `<project:#label>`: `myst:label-link`. Its
    /// target is the name resolved as a path, which MyST tries too (a
    /// file or a document of that name beside the document).
    LabelLink,
    /// `<project:path.md#id>`, a source file of the project:
    /// `myst:project`.
    Project,
    /// The `{image}` directive and its `:target:`: `myst:image`.
    Image,
    /// The `{figure}` directive: `myst:figure`.
    Figure,
    /// The `{include}` directive: `myst:include`.
    Include,
    /// The `{literalinclude}` directive: `myst:literalinclude`.
    LiteralInclude,
    /// A `{toctree}` entry, as the path of its source file:
    /// `myst:toctree`.
    Toctree,
    /// A `{toctree}` entry under `:glob:` that is a pattern:
    /// `myst:toctree-glob` (no target).
    ToctreeGlob,
    /// A substitution reference `{{ name }}` (the `substitution`
    /// extension) whose value is not known offline: `myst:substitution`
    /// (no target; the check skips it as a template).
    Substitution,
}

impl MystKind {
    /// The kind's name: `myst:doc`, `myst:ref`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            MystKind::Doc => "myst:doc",
            MystKind::Ref => "myst:ref",
            MystKind::Numref => "myst:numref",
            MystKind::Download => "myst:download",
            MystKind::Term => "myst:term",
            MystKind::External => "myst:external",
            MystKind::LabelLink => "myst:label-link",
            MystKind::Project => "myst:project",
            MystKind::Image => "myst:image",
            MystKind::Figure => "myst:figure",
            MystKind::Include => "myst:include",
            MystKind::LiteralInclude => "myst:literalinclude",
            MystKind::Toctree => "myst:toctree",
            MystKind::ToctreeGlob => "myst:toctree-glob",
            MystKind::Substitution => "myst:substitution",
        }
    }

    /// Whether the link is a URI reference, resolved against the
    /// document; the others name a label, a term or another project, and
    /// get no target.
    pub fn resolves(self) -> bool {
        !matches!(
            self,
            MystKind::Ref
                | MystKind::Numref
                | MystKind::Term
                | MystKind::External
                | MystKind::ToctreeGlob
                | MystKind::Substitution
        )
    }

    /// Whether the link names a label of the project, which the check
    /// looks up among the labels of every document (`{ref}`,
    /// `{numref}`, a Markdown link to a label).
    pub fn names_label(self) -> bool {
        matches!(self, MystKind::Ref | MystKind::Numref | MystKind::LabelLink)
    }

    /// The reStructuredText kind of the same meaning.
    #[cfg(feature = "check")]
    pub(crate) fn as_rst(self) -> crate::links::RstKind {
        use crate::links::RstKind as R;
        match self {
            MystKind::Doc => R::Doc,
            MystKind::Ref | MystKind::LabelLink => R::Ref,
            MystKind::Numref => R::Numref,
            MystKind::Download => R::Download,
            MystKind::Term => R::Term,
            MystKind::External => R::External,
            MystKind::Project => R::Doc,
            MystKind::Image => R::Image,
            MystKind::Figure => R::Figure,
            MystKind::Include => R::Include,
            MystKind::LiteralInclude => R::LiteralInclude,
            MystKind::Toctree => R::Toctree,
            MystKind::ToctreeGlob => R::ToctreeGlob,
            // Skipped as a template before its kind is asked.
            MystKind::Substitution => R::External,
        }
    }
}
